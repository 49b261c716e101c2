//! `deckhand export`: canonical EXPORT PPN from PPN input (IMPORT or EXPORT).
//!
//! Hands are rendered from the tables the conversion builds, so export says
//! exactly what `convert` understood: the spec's mandatory tags in its order
//! (Site, Date, North, East, South, West, Hand, GameScores, Dealer, Deal,
//! Declarer, Contract, Trump, Melds, MeldScores, PlayScores, Result,
//! HandScores), then the other known tags, unknown tags, the Auction and Play
//! sections (trick annotations added), then Note, Chat and segmental tags.
//! Values left out are filled from the rules engine where it can derive them,
//! else written as `?` (unknown) or `*` (terminated). Comments come first in
//! the record. Records that could not be converted are copied unchanged.

use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

use arrow_array::RecordBatch;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::Error;
use crate::columns::access::Cols;
use crate::games::pinochle::rules::meld::meld_cards;
use crate::games::pinochle::{Card, Seat, Suit};
use crate::notation::pinochle_ppn::values::civil_from_days;
use crate::notation::pinochle_ppn::{ABOUT, TABLES};
use crate::notation::tagpair::text::write_tag as tag;
use crate::pipeline::{FileSummary, Options, parse_inputs};

/// A mandatory tag: left out when the record's own value for it could not be
/// read (that value is written among the other tags, as it was).
/// `own`: the value is the record's (not filled in); a repeated tag of the
/// same name among the other tags does not hide it.
fn mandatory(
    out: &mut String,
    others: &[(&str, Option<&str>)],
    name: &str,
    value: &str,
    own: bool,
) {
    if own || !others.iter().any(|(n, _)| *n == name) {
        tag(out, name, value);
    }
}

fn scores(v: &[Option<i32>]) -> String {
    v.iter()
        .map(|x| x.map_or("*".to_string(), |x| x.to_string()))
        .collect::<Vec<_>>()
        .join(":")
}

fn dot(cards: &[&str]) -> String {
    let mut by_suit: [String; 4] = Default::default();
    for c in cards {
        if let Some(card) = Card::parse(c.as_bytes()) {
            by_suit[card.suit as usize].push(c.as_bytes()[1] as char);
        }
    }
    by_suit.join(".")
}

fn cards_of(v: &[&str]) -> Vec<Card> {
    v.iter().filter_map(|c| Card::parse(c.as_bytes())).collect()
}

/// Rows of a child table that belong to `hand_id`, starting at `*at`.
fn rows_for(c: &Cols<'_>, at: &mut usize, hand_id: u64) -> std::ops::Range<usize> {
    let start = *at;
    let ids = c.col("hand_id");
    while *at < c.num_rows() && ids.u64(*at) == hand_id {
        *at += 1;
    }
    start..*at
}

#[derive(Debug, Default)]
pub struct ExportReport {
    pub files: usize,
    pub total: FileSummary,
}

/// Writes every input as canonical EXPORT PPN to `out`: one header block per
/// input file that has records.
pub fn export(
    inputs: &[PathBuf],
    opts: &Options,
    out: &mut dyn Write,
) -> Result<ExportReport, Error> {
    let werr = |source| Error::Write {
        path: PathBuf::from("export output"),
        source,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.max(1))
        .build()
        .expect("thread pool");
    let mut at = HeaderAt::default();
    let mut any = false;
    let mut failed: Option<std::io::Error> = None;
    // A header per file: each file's rows are handed over apart (runs of
    // small files are still built together).
    let opts = &Options {
        hand_over_by_file: true,
        ..opts.clone()
    };
    // Windows wait here until they hold enough hands to render in parallel:
    // a small file gives a window of its own, and a parallel render of
    // each cost more in waking threads than rendering (20,000 files of one
    // hand: 83,007 futex calls).
    let mut pending: Vec<(u64, Vec<Vec<RecordBatch>>)> = Vec::new();
    let mut pending_rows = 0;
    let mut write = |pending: &mut Vec<(u64, Vec<Vec<RecordBatch>>)>| {
        let text = render_windows(&pool, pending, &mut at);
        pending.clear();
        any |= !text.is_empty();
        if let Err(e) = out.write_all(text.as_bytes())
            && failed.is_none()
        {
            failed = Some(e);
        }
    };
    let mut pending_bytes = 0;
    let files = parse_inputs(inputs, opts, Some(ABOUT.name), &mut |file, t| {
        // Every window of PPN has its tables in the order of `TABLES`
        // (standard input of another notation has its errors alone).
        if t.first().is_some_and(|(decl, _)| **decl != *TABLES[0]) {
            return Err(Error::WrongNotation(
                file.name.clone().into(),
                format!("export writes {} and reads it only", ABOUT.title),
            ));
        }
        let t: Vec<Vec<RecordBatch>> = t.into_iter().map(|(_, b)| b).collect();
        pending_rows += t[0].iter().map(|b| b.num_rows()).sum::<usize>();
        pending_bytes += t
            .iter()
            .flatten()
            .map(|b| b.get_array_memory_size())
            .sum::<usize>();
        pending.push((file.index, t));
        if pending_rows >= RENDER_ROWS || pending_bytes >= RENDER_BYTES {
            write(&mut pending);
            (pending_rows, pending_bytes) = (0, 0);
        }
        Ok(())
    })?;
    write(&mut pending);
    if let Some(e) = failed {
        return Err(werr(e));
    }
    if !any {
        let mut text = String::new();
        header(&mut text, None);
        out.write_all(text.as_bytes()).map_err(werr)?;
    }
    out.flush().map_err(werr)?;
    let mut report = ExportReport {
        files: files.len(),
        ..Default::default()
    };
    for f in &files {
        report.total.add(f);
    }
    Ok(report)
}

/// Hands rendered at a time, at least (a window of more goes alone), unless
/// their arrays reach [`RENDER_BYTES`] first (hands with values of
/// megabytes: windows are cut by the bytes they build, and waiting for
/// 2,048 such hands would hold gigabytes).
const RENDER_ROWS: usize = 2048;
const RENDER_BYTES: usize = 16 << 20;

/// The text of `windows` (each with its file's index), in order: their
/// groups rendered in parallel (the parser's threads wait meanwhile), a
/// header before each file's first record and wherever the file ID of the
/// hands changes (files joined into one keep each header's ID). `at`
/// carries the file written last and the ID of its last header from one
/// call to the next.
fn render_windows(
    pool: &rayon::ThreadPool,
    windows: &[(u64, Vec<Vec<RecordBatch>>)],
    at: &mut HeaderAt,
) -> String {
    let groups: Vec<(u64, &[Vec<RecordBatch>], usize)> = windows
        .iter()
        .flat_map(|(file, t)| (0..t[0].len()).map(move |k| (*file, t.as_slice(), k)))
        .collect();
    let rendered: Vec<Vec<Piece<'_>>> = pool.install(|| {
        groups
            .par_iter()
            .map(|&(_, t, k)| render_group(t, k))
            .collect()
    });
    let mut text = String::new();
    for ((file, _, _), pieces) in groups.iter().zip(rendered) {
        if at.file != Some(*file) {
            *at = HeaderAt {
                file: Some(*file),
                id: None,
            };
        }
        for p in pieces {
            let wanted = match p.wants {
                // A copied record takes the header before it, if any.
                Wants::Any => at.id.is_none().then_some(None),
                Wants::Id(id) => (at.id.as_ref().map(|x| x.as_deref()) != Some(id)).then_some(id),
            };
            if let Some(id) = wanted {
                header(&mut text, id);
                at.id = Some(id.map(str::to_string));
            }
            text.push_str(&p.text);
        }
    }
    text
}

/// The file written last, and the file ID of its last header (`Some(None)`:
/// a header without one; `None`: no header yet).
#[derive(Default)]
struct HeaderAt {
    file: Option<u64>,
    id: Option<Option<String>>,
}

/// A header: written before a file's first record, and before a hand whose
/// file ID is not the last header's.
fn header(out: &mut String, file_id: Option<&str>) {
    out.push_str("% PPN 1.0\n% EXPORT\n");
    if let Some(id) = file_id {
        let _ = writeln!(out, "% ID {id}");
    }
    out.push_str("%\n");
}

/// What header the records of a [`Piece`] need before them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wants<'b> {
    /// Copied unchanged (quarantined): any header, the one before if any.
    Any,
    /// Hands of this file ID (`None`: of a header without one).
    Id(Option<&'b str>),
}

/// Records of a group rendered one after another that need the same header.
struct Piece<'b> {
    wants: Wants<'b>,
    text: String,
}

/// Renders group `k`: hands and copied quarantined records, in record order,
/// in pieces by the header they need (written by the caller).
fn render_group(t: &[Vec<RecordBatch>], k: usize) -> Vec<Piece<'_>> {
    let mut pieces: Vec<Piece<'_>> = Vec::new();
    // The piece to write a record of `wants` into: a copied record goes
    // with the record before it.
    fn piece<'p, 'b>(pieces: &'p mut Vec<Piece<'b>>, wants: Wants<'b>) -> &'p mut String {
        let same = pieces
            .last()
            .is_some_and(|p| wants == Wants::Any || p.wants == wants);
        if !same {
            pieces.push(Piece {
                wants,
                text: String::new(),
            });
        }
        &mut pieces.last_mut().expect("a piece").text
    }
    let hands = Cols::new(&t[0][k]);
    let seats = Cols::new(&t[1][k]);
    let bids = Cols::new(&t[2][k]);
    let tricks = Cols::new(&t[3][k]);
    let notes = Cols::new(&t[4][k]);
    let errors = Cols::new(&t[5][k]);
    let (mut s_at, mut b_at, mut t_at, mut n_at) = (0, 0, 0, 0);
    // Quarantined records, by record index.
    let raws: Vec<(u64, &str)> = (0..errors.num_rows())
        .filter_map(|i| {
            errors
                .str("raw", i)
                .map(|r| (errors.u64("record_index", i), r))
        })
        .collect();
    let mut raw_at = 0;
    for i in 0..hands.num_rows() {
        let record = hands.u64("record_index", i);
        while raw_at < raws.len() && raws[raw_at].0 < record {
            let _ = writeln!(piece(&mut pieces, Wants::Any), "{}\n", raws[raw_at].1);
            raw_at += 1;
        }
        let out = piece(&mut pieces, Wants::Id(hands.str("file_id", i)));
        let hand_id = hands.u64("hand_id", i);
        let s = rows_for(&seats, &mut s_at, hand_id);
        let b = rows_for(&bids, &mut b_at, hand_id);
        let tr = rows_for(&tricks, &mut t_at, hand_id);
        let n = rows_for(&notes, &mut n_at, hand_id);
        let players = hands.i32("players", i).unwrap_or(4) as usize;
        let rows = HandRows {
            h: &hands,
            i,
            seats: &seats,
            s,
            bids: &bids,
            b,
            tricks: &tricks,
            tr,
            notes: &notes,
            n,
            players,
            seat_set: crate::games::pinochle::seat::seats_for(players).unwrap_or(&[]),
        };
        rows.render(out);
        out.push('\n');
    }
    while raw_at < raws.len() {
        let _ = writeln!(piece(&mut pieces, Wants::Any), "{}\n", raws[raw_at].1);
        raw_at += 1;
    }
    pieces
}

/// The rows of one hand in the tables, for its text: the hand's row `i` of
/// `hands`, and its rows of the child tables.
struct HandRows<'c, 'b> {
    h: &'c Cols<'b>,
    i: usize,
    seats: &'c Cols<'b>,
    s: std::ops::Range<usize>,
    bids: &'c Cols<'b>,
    b: std::ops::Range<usize>,
    tricks: &'c Cols<'b>,
    tr: std::ops::Range<usize>,
    notes: &'c Cols<'b>,
    n: std::ops::Range<usize>,
    players: usize,
    seat_set: &'static [Seat],
}

/// `a`, or `d` when it is None.
fn or(a: Option<&str>, d: &str) -> String {
    a.unwrap_or(d).to_string()
}

impl HandRows<'_, '_> {
    /// The position of seat `name` at this hand's table.
    fn seat_pos(&self, name: &str) -> Option<usize> {
        Seat::parse(name.as_bytes()).and_then(|x| self.seat_set.iter().position(|&y| y == x))
    }

    /// The hand as PPN text: comments, the mandatory tags, the optional
    /// ones, the tags kept in `other_tags`, the sections, the notes.
    fn render(&self, out: &mut String) {
        let (h, i) = (self.h, self.i);
        for c in h.strs("comments", i).unwrap_or_default() {
            let _ = writeln!(out, "{{{c}}}");
        }
        let others = h.kvs("other_tags", i);
        self.mandatory_tags(&others, out);
        self.optional_tags(out);
        self.other_tags(&others, out);
        self.auction(out);
        self.play(out);
        self.note_tags(out);
    }

    /// The mandatory tags, in the spec's order; what is not written is
    /// computed where the rules can, else `?` (or `*` for a hand stopped).
    fn mandatory_tags(&self, others: &[(&str, Option<&str>)], out: &mut String) {
        let HandRows { h, i, seat_set, .. } = *self;
        mandatory(
            out,
            others,
            "Site",
            &or(h.str("site", i), "?"),
            h.str("site", i).is_some(),
        );
        let date = self.date_tag();
        mandatory(out, others, "Date", &date, h.str("date_text", i).is_some());
        for (seat, col) in seat_set
            .iter()
            .map(|s| (s, s.tag_name().to_ascii_lowercase()))
        {
            mandatory(
                out,
                others,
                seat.tag_name(),
                &or(h.str(&col, i), "?"),
                h.str(&col, i).is_some(),
            );
        }
        mandatory(
            out,
            others,
            "Hand",
            &h.i32("hand_number", i)
                .map_or("?".to_string(), |x| x.to_string()),
            h.i32("hand_number", i).is_some(),
        );
        mandatory(
            out,
            others,
            "GameScores",
            &h.i32s("game_scores", i)
                .map_or("0:0".to_string(), |v| scores(&v)),
            h.i32s("game_scores", i).is_some(),
        );
        let dealer = h.str("dealer", i);
        mandatory(out, others, "Dealer", &or(dealer, "?"), dealer.is_some());
        let deal = self.deal_tag(dealer);
        mandatory(
            out,
            others,
            "Deal",
            &deal.unwrap_or_else(|| "?".to_string()),
            h.str("deal", i).is_some(),
        );
        let declarer = h.str("declarer", i).or(h.str("computed_declarer", i));
        mandatory(
            out,
            others,
            "Declarer",
            &or(declarer, "?"),
            h.str("declarer", i).is_some(),
        );
        let contract = h.i32("contract", i).or(h.i32("computed_contract", i));
        mandatory(
            out,
            others,
            "Contract",
            &contract.map_or("?".to_string(), |c| c.to_string()),
            h.i32("contract", i).is_some(),
        );
        // A declarer without a marriage names no trump: `-`.
        let trump = h
            .str("trump", i)
            .or((h.str("computed_result", i) == Some("No Trump")).then_some("-"));
        mandatory(
            out,
            others,
            "Trump",
            &or(trump, "?"),
            h.str("trump", i).is_some(),
        );
        let melds = self.melds_tag(trump);
        mandatory(
            out,
            others,
            "Melds",
            &melds.unwrap_or_else(|| "?".to_string()),
            h.str("melds", i).is_some(),
        );
        let terminated = h.str("termination_cause", i).is_some();
        let missing = if terminated { "*" } else { "?" };
        for (col, computed, name) in [
            ("meld_scores", "computed_meld_scores", "MeldScores"),
            ("play_scores", "computed_play_scores", "PlayScores"),
        ] {
            let v = h.i32s(col, i).or_else(|| h.i32s(computed, i));
            mandatory(
                out,
                others,
                name,
                &v.map_or(missing.to_string(), |v| scores(&v)),
                h.i32s(col, i).is_some(),
            );
        }
        mandatory(
            out,
            others,
            "Result",
            &or(h.str("result", i).or(h.str("computed_result", i)), missing),
            h.str("result", i).is_some(),
        );
        let v = h
            .i32s("hand_scores", i)
            .or_else(|| h.i32s("computed_hand_scores", i));
        mandatory(
            out,
            others,
            "HandScores",
            &v.map_or(missing.to_string(), |v| scores(&v)),
            h.i32s("hand_scores", i).is_some(),
        );
    }

    /// The Date tag: as written, else the date, else unknown.
    fn date_tag(&self) -> String {
        let HandRows { h, i, .. } = *self;
        h.str("date_text", i)
            .map(str::to_string)
            .or_else(|| {
                h.date("date", i).map(|d| {
                    let (y, m, dd) = civil_from_days(d);
                    format!("{y:04}.{m:02}.{dd:02}")
                })
            })
            .unwrap_or_else(|| "????.??.??".to_string())
    }

    /// The Deal tag: as written, else the cards dealt (computed), from
    /// the dealer's left.
    fn deal_tag(&self, dealer: Option<&str>) -> Option<String> {
        let HandRows {
            h,
            i,
            seats,
            players,
            seat_set,
            ..
        } = *self;
        let s = self.s.clone();
        let seat_pos = |name: &str| self.seat_pos(name);
        h.str("deal", i).map(str::to_string).or_else(|| {
            let hands: Vec<Option<Vec<&str>>> =
                s.clone().map(|r| seats.strs("computed_dealt", r)).collect();
            if hands.iter().any(|x| x.is_none()) || hands.is_empty() {
                return None;
            }
            let first = dealer.and_then(seat_pos).map_or(0, |d| (d + 1) % players);
            let parts: Vec<String> = (0..players)
                .map(|k| dot(hands[(first + k) % players].as_ref().unwrap()))
                .collect();
            Some(format!("{}:{}", seat_set[first].as_str(), parts.join(" ")))
        })
    }

    /// The Melds tag: as written, else from the cards dealt under the
    /// trump named.
    fn melds_tag(&self, trump: Option<&str>) -> Option<String> {
        let HandRows {
            h,
            i,
            seats,
            seat_set,
            ..
        } = *self;
        let s = self.s.clone();
        h.str("melds", i).map(str::to_string).or_else(|| {
            let t: Option<Suit> = match trump? {
                "-" => None,
                x => Some(Suit::parse(x.as_bytes()[0])?),
            };
            let parts: Option<Vec<String>> = s
                .clone()
                .map(|r| {
                    let dealt = cards_of(&seats.strs("computed_dealt", r)?);
                    let pts = seats.i32("computed_meld_points", r)?;
                    let mc: Vec<&str> = meld_cards(&dealt, t).iter().map(|c| c.as_str()).collect();
                    Some(format!("{}({pts})", dot(&mc)))
                })
                .collect();
            Some(format!(
                "{}:{}",
                seat_set.first()?.as_str(),
                parts?.join(" ")
            ))
        })
    }

    /// The optional tags deckhand has columns for.
    fn optional_tags(&self, out: &mut String) {
        let HandRows { h, i, seats, .. } = *self;
        let s = self.s.clone();
        if let Some(cause) = h.str("termination_cause", i) {
            tag(
                out,
                "Termination",
                &format!("{}:{cause}", h.str("termination_seat", i).unwrap_or("-")),
            );
        }
        if let Some(v) = h.i32("victor", i) {
            tag(out, "Victor", &v.to_string());
        }
        for (col, name) in [
            ("event", "Event"),
            ("round", "Round"),
            ("stage", "Stage"),
            ("room", "Room"),
            ("competition", "Competition"),
            ("scoring", "Scoring"),
            ("annotator", "Annotator"),
            ("language", "Language"),
            ("time_control", "TimeControl"),
            ("holding", "Holding"),
            ("passed", "Passed"),
        ] {
            if let Some(v) = h.str(col, i) {
                tag(out, name, v);
            }
        }
        for r in s.clone() {
            if let (Some(t), Some(seat)) = (seats.str("player_type", r), seats.str("seat", r))
                && let Some(x) = Seat::parse(seat.as_bytes())
            {
                tag(out, &format!("{}Type", x.tag_name()), t);
            }
        }
        if let Some(k) = h.strs("kitty", i) {
            tag(out, "Kitty", &k.join(" "));
        }
        if let Some(d) = h.strs("discard", i) {
            let pts = h
                .i32("discard_points", i)
                .map_or(String::new(), |p| format!(" ({p})"));
            tag(out, "Discard", &format!("{}{pts}", dot(&d)));
        }
        if let (Some(ps), Some(pc)) = (h.str("partner_seat", i), h.str("partner_card", i)) {
            tag(out, "Partner", &format!("{ps}:{pc}"));
        }
        for (team, v) in h
            .strs("bid_systems", i)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            if *v != "?" {
                tag(out, &format!("BidSystem{}", team + 1), v);
            }
        }
    }

    /// The tags of `other_tags`, each with its section tokens (the first
    /// `NAME#section` entry of its name, found once, not by a scan a tag: a
    /// record can hold millions).
    fn other_tags(&self, others: &[(&str, Option<&str>)], out: &mut String) {
        let mut sections: FxHashMap<&str, Option<&str>> = FxHashMap::default();
        for (name, value) in others {
            if let Some(base) = name.strip_suffix("#section") {
                sections.entry(base).or_insert(*value);
            }
        }
        for (name, value) in others {
            if !name.ends_with("#section") {
                tag(out, name, value.unwrap_or(""));
                if let Some(Some(toks)) = sections.get(name) {
                    let _ = writeln!(out, "{toks}");
                }
            }
        }
    }

    /// The Auction section: a round per line, `-` for seats that are out.
    fn auction(&self, out: &mut String) {
        let HandRows {
            h,
            i,
            bids,
            players,
            ..
        } = *self;
        let b = self.b.clone();
        let seat_pos = |name: &str| self.seat_pos(name);
        let start = h.str("auction_start", i);
        if start.is_some() || !b.is_empty() || h.bool("auction_terminated", i).is_some() {
            tag(out, "Auction", &or(start, "?"));
            let start_pos = start.and_then(seat_pos).unwrap_or(0);
            let mut cells: Vec<&str> = Vec::new();
            let [round, seat, call] = ["round", "seat", "call"].map(|c| bids.col(c));
            for r in b.clone() {
                let round = round.i32(r).unwrap_or(1) as usize;
                let rel = seat
                    .str(r)
                    .and_then(seat_pos)
                    .map_or(cells.len() % players.max(1), |p| {
                        (p + players - start_pos) % players
                    });
                let pos = (round - 1) * players + rel;
                while cells.len() < pos {
                    cells.push("-");
                }
                cells.push(call.str(r).unwrap_or("?"));
            }
            for row in cells.chunks(players.max(1)) {
                let _ = writeln!(out, "{}", row.join(" "));
            }
            if h.bool("auction_terminated", i) == Some(true) {
                let _ = writeln!(out, "*");
            }
        }
    }

    /// The Play section: a trick per line with its winner and points.
    fn play(&self, out: &mut String) {
        let HandRows { h, i, tricks, .. } = *self;
        let tr = self.tr.clone();
        let play_start = h.str("play_start", i);
        if play_start.is_some() || !tr.is_empty() || h.bool("play_terminated", i).is_some() {
            tag(
                out,
                "Play",
                &or(play_start, if tr.is_empty() { "*" } else { "?" }),
            );
            let terminated = h.bool("play_terminated", i) == Some(true);
            let mut star = false;
            let last = tr.end;
            let [
                cards,
                winner,
                computed_winner,
                points,
                computed_points,
                complete,
            ] = [
                "cards",
                "winner",
                "computed_winner",
                "points",
                "computed_points",
                "complete",
            ]
            .map(|c| tricks.col(c));
            for r in tr {
                let cards = cards.strs(r).unwrap_or_default().join(" ");
                let winner = winner.str(r).or(computed_winner.str(r));
                let points = points.i32(r).or(computed_points.i32(r));
                let complete = complete.bool(r) == Some(true);
                if r + 1 == last && terminated && !complete {
                    let _ = writeln!(out, "{cards} *");
                    star = true;
                } else if winner.is_some() || points.is_some() {
                    let _ = writeln!(
                        out,
                        "{cards} ({}{})",
                        winner.unwrap_or("?"),
                        points.map_or("?".to_string(), |p| p.to_string())
                    );
                } else if complete {
                    let _ = writeln!(out, "{cards}");
                } else {
                    // An incomplete trick needs an annotation to end where it ends.
                    let _ = writeln!(out, "{cards} (?)");
                }
            }
            if terminated && !star {
                let _ = writeln!(out, "*");
            }
        }
    }

    /// Note and Chat tags, and the segmental ones.
    fn note_tags(&self, out: &mut String) {
        let notes = self.notes;
        for r in self.n.clone() {
            let t = notes.str("tag", r).unwrap_or("Note");
            let v = notes.str("value", r).unwrap_or("");
            match notes.str("segment", r) {
                Some(seg) => {
                    let _ = write!(out, "@{seg}=");
                    tag(out, t, v);
                }
                None => tag(out, t, v),
            }
        }
    }
}
