//! The meaning of an RBN record, written into the bridge tables through
//! the bridge notations' shared board (`notation::bridge_board`): each
//! label's value read (`values`), the repeating labels as the database
//! rules carry them, the auction and play placed by seat, notes attached to
//! the calls and plays that refer to them.
//!
//! Where a label's value cannot be read it is kept in `other_tags` under
//! its label with a warning (R020); what RBN says that the bridge columns
//! have no place for (a title, a session, teams, a goal, an effective
//! score, makes in part 1 and 2, `%` lines, unknown lines) is kept there
//! too, as written.

use crate::notation::record_ref;
use std::borrow::Cow;

use super::Rec;
use super::codes;
use super::record::{self, Lines, NotePart};
use super::values::{self, RbnAuction, RbnContract, RbnPlayList};
use crate::columns::table::{append_kv, append_strs};
use crate::error::{Diag, Diags};
use crate::games::bridge::auction::{Contract, ContractValue};
use crate::games::bridge::card::Strain;
use crate::games::bridge::play::{self, Played};
use crate::games::bridge::seat::Seat;
use crate::games::bridge::tables::Builders;
use crate::notation::bridge_board::{
    self as board, At, Auction, CallRow, End, Marks, NoteRow, Part, Place, Play, Stated, Written,
};
use crate::notation::number::parse_i32;
use crate::notation::tagpair::text::bytes_text;
use crate::notation::{About, FileInfo, record_id};

/// Builds the rows of one record (none for a file's description).
pub fn build_record(
    about: &'static About,
    file: &FileInfo,
    rec: &Rec<'_>,
    compute: bool,
    out: &mut Builders,
) {
    if rec.description {
        return;
    }
    let mut diags = Diags::default();
    let id = rec
        .error
        .is_none()
        .then(|| record_id(file.index, rec.index));
    match (&rec.error, id) {
        (Some((code, at, msg)), _) => diags.push(Diag::error(*at, code, msg.clone())),
        (None, Some(id)) => {
            let lines = record::parse(&rec.text);
            let latin1 = std::str::from_utf8(&rec.text).is_err();
            let mut r = Reader {
                rec,
                lines: &lines,
                diags: &mut diags,
                others: Vec::new(),
                latin1,
            };
            r.write(about, file, id, compute, out);
        }
        (None, None) => {}
    }
    let diags = diags.finish_with(codes::UNLISTED);
    let refr = record_ref(
        file,
        about,
        rec.raw,
        (rec.item.start, rec.item.line),
        rec.index,
        id,
    );
    out.errors.push_record(&refr, &diags, |_| None);
}

/// A note reference without its note (R021).
fn missing_note(n: u32, part: Part) -> (&'static str, String) {
    let msg = format!(
        "note reference ^{n} has no note line \"{n} ...\" after the {} label",
        match part {
            Part::Auction => "A",
            Part::Play => "P",
            Part::Board => "A or P",
        }
    );
    (codes::MISSING_NOTE, msg)
}

/// `::` is a colon in T L E S; a single `:` separates two strings, which
/// the columns keep joined by a colon.
fn unescape_colons(s: Cow<'_, str>) -> Cow<'_, str> {
    if s.contains("::") {
        Cow::Owned(s.replace("::", ":"))
    } else {
        s
    }
}

/// The names and room of the N label: `North+South:West+East:room:info`.
pub struct Names<'a> {
    /// N E S W; None where empty.
    pub players: [Option<&'a [u8]>; 4],
    pub room: Option<&'a [u8]>,
    pub info: Option<&'a [u8]>,
}

fn pair(p: Option<&[u8]>) -> (Option<&[u8]>, Option<&[u8]>) {
    let mut it = p.unwrap_or_default().splitn(2, |&b| b == b'+');
    let a = it.next().filter(|x| !x.is_empty());
    let b = it.next().filter(|x| !x.is_empty());
    (a, b)
}

pub fn parse_names(v: &[u8]) -> Names<'_> {
    let mut f = v.splitn(4, |&b| b == b':');
    let (n, s) = pair(f.next());
    let (w, e) = pair(f.next());
    let room = f.next().filter(|x| !x.is_empty());
    let info = f.next();
    Names {
        players: [n, e, s, w],
        room,
        info,
    }
}

/// The room column for the N label's room field: `C` is Closed, `O`
/// Open, a table number as written.
pub fn room_text(r: &[u8]) -> Cow<'_, str> {
    match r {
        b"C" | b"c" => Cow::Borrowed("Closed"),
        b"O" | b"o" => Cow::Borrowed("Open"),
        _ => String::from_utf8_lossy(r),
    }
}

/// What the H, A, C and R labels say, as read.
#[derive(Default)]
struct Labels<'r> {
    at: At,
    stated: Stated,
    deal_text: Option<Cow<'r, str>>,
    /// The deal gives some hands in part (pseudo-cards).
    partial_hands: bool,
    vul_text: Option<Cow<'r, str>>,
    calls: Option<RbnAuction<'r>>,
    contract: Option<RbnContract<'r>>,
    contract_text: Option<(&'r [u8], usize)>,
    result: Option<(&'r [u8], usize)>,
    result_text: Option<Cow<'r, str>>,
    score_text: Option<Cow<'r, str>>,
}

/// Whether the F label names rubber scoring (or Chicago, Cavendish).
fn is_rubber(f: &[u8]) -> bool {
    let first = f.split(|&b| b == b':').next().unwrap_or_default();
    let l = first.to_ascii_lowercase();
    matches!(&l[..], b"r" | b"c" | b"a")
        || l.windows(6).any(|w| w == b"rubber")
        || l.windows(7).any(|w| w == b"chicago")
        || l.windows(8).any(|w| w == b"cavendish")
}

struct Reader<'r, 'a> {
    rec: &'r Rec<'a>,
    lines: &'r Lines<'r>,
    diags: &'r mut Diags,
    /// (name, value) for `other_tags`.
    others: Vec<(Cow<'r, str>, Cow<'r, str>)>,
    latin1: bool,
}

impl<'r, 'a> Reader<'r, 'a> {
    fn txt(&self, b: &'r [u8]) -> Cow<'r, str> {
        if self.latin1 {
            bytes_text(b, true)
        } else {
            String::from_utf8_lossy(b)
        }
    }

    /// The value of a label and where it is (a repeated value from a
    /// record before is at the record's start).
    fn value(&self, label: u8) -> Option<(&'r [u8], usize)> {
        self.value_own(label).map(|(v, at, _)| (v, at))
    }

    /// [`Reader::value`], and whether the record gives it itself (else it
    /// repeats, and what is wrong with it was said where it was given).
    fn value_own(&self, label: u8) -> Option<(&'r [u8], usize, bool)> {
        if let Some(k) = record::REPEATING.iter().position(|&l| l == label) {
            let v = self.rec.carried[k].as_deref()?;
            let own = self.lines.get(label).and_then(|l| l.value.map(|_| l.at));
            return Some((v, own.unwrap_or(0), own.is_some()));
        }
        let l = self.lines.get(label)?;
        l.value.map(|v| (v, l.at, true))
    }

    fn warn(&mut self, at: usize, code: &'static str, msg: String) {
        self.diags.push(Diag::warning(at, code, msg));
    }

    /// A value that cannot be read: R020, kept in `other_tags`.
    fn reject(&mut self, label: u8, v: &'r [u8], at: usize, why: &str) {
        let msg = format!(
            "invalid {} label \"{}\": {why}; kept in other_tags",
            label as char,
            self.txt(v)
        );
        self.warn(at, codes::INVALID, msg);
        self.keep(label, v);
    }

    /// Keeps a label's value in `other_tags`.
    fn keep(&mut self, label: u8, v: &'r [u8]) {
        let name = Cow::Owned((label as char).to_string());
        let value = self.txt(v);
        self.others.push((name, value));
    }

    fn write(
        &mut self,
        about: &'static About,
        file: &FileInfo,
        id: i64,
        compute: bool,
        out: &mut Builders,
    ) {
        for (at, code, msg) in &self.lines.issues {
            self.diags.push(Diag::warning(*at, code, msg.clone()));
        }
        let mut r = Labels::default();
        self.read_deal(&mut r);
        self.read_auction(&mut r);
        self.read_contract(&mut r);
        self.read_result(&mut r);
        let (opening_leader, auction_rows, play) = self.read_play(&mut r);
        let f = self.value(b'F').map(|x| x.0);
        let names = self.value(b'N').map(|(v, _)| parse_names(v));
        let players = match &names {
            Some(n) => n.players.map(|p| p.map(|p| self.txt(p))),
            None => [None, None, None, None],
        };
        let notes = self.notes();
        let b = board::Board {
            stated: std::mem::take(&mut r.stated),
            auction: auction_rows,
            opening_leader,
            play,
            notes,
            players,
            written: Written {
                contract: r.contract_text.map(|(v, _)| self.txt(v)),
                result: r.result.map(|(v, _)| self.txt(v)),
                score: r.result.map(|(v, _)| self.txt(v)),
            },
            at: r.at,
            rubber: f.is_some_and(is_rubber),
            latin1: self.latin1,
            partial_hands: r.partial_hands,
            missing_note,
        };
        let checked = board::check(&b, compute, self.diags);
        let board = self.boards_columns(about, file, id, &b, r, names.as_ref(), f, out);
        board::write_rows(&b, &checked, id, compute, self.diags, out);
        self.keep_what_has_no_column(board, names.as_ref(), id, out);
    }

    /// H: the deal.
    fn read_deal(&mut self, r: &mut Labels<'r>) {
        if let Some((v, p, own)) = self.value_own(b'H') {
            r.at.deal = p;
            r.deal_text = Some(self.txt(v));
            match values::parse_hands(v) {
                Ok(h) => {
                    if own {
                        board::check_deal(&h.deal, p, true, self.diags);
                    }
                    r.partial_hands = h.pseudo.iter().any(|&n| n > 0);
                    r.stated.deal = Some(h.deal);
                }
                Err(e) if own => self.reject(b'H', v, p, &e),
                Err(_) => {}
            }
        }
    }

    /// A: dealer, vulnerability, calls.
    fn read_auction(&mut self, r: &mut Labels<'r>) {
        let auction = self
            .lines
            .get(b'A')
            .and_then(|l| l.value.map(|v| (v, l.at)));
        if let Some((v, p)) = auction {
            r.at.auction = p;
            match values::parse_auction(v) {
                Ok(a) => {
                    r.stated.dealer = a.dealer;
                    r.stated.vulnerable = a.vulnerable;
                    if a.prefix {
                        r.vul_text = Some(self.txt(&v[1..2]));
                    }
                    if a.calls.iter().any(|c| c.call.is_none()) {
                        // Queries (`Y`) are no calls: the label is kept.
                        self.keep(b'A', v);
                    }
                    r.calls = Some(a);
                }
                Err(e) => self.reject(b'A', v, p, &e),
            }
        }
    }

    /// C: contract, declarer, leader.
    fn read_contract(&mut self, r: &mut Labels<'r>) {
        r.contract_text = self
            .lines
            .get(b'C')
            .and_then(|l| l.value.map(|v| (v, l.at)));
        if let Some((v, p)) = r.contract_text {
            match values::parse_contract(v) {
                Ok(c) => {
                    r.stated.contract = Some(match c.level {
                        Some(level) => ContractValue::Contract(Contract {
                            level,
                            strain: c.strain,
                            risk: c.risk,
                        }),
                        None => ContractValue::Strain(c.strain),
                    });
                    r.stated.declarer = c.declarer.map(|d| (d, false));
                    if c.goal.is_some() || !c.extra.is_empty() {
                        self.keep(b'C', v);
                    }
                    r.contract = Some(c);
                }
                Err(e) => self.reject(b'C', v, p, &e),
            }
        }
    }

    /// R: result and score.
    fn read_result(&mut self, r: &mut Labels<'r>) {
        r.result = self
            .lines
            .get(b'R')
            .and_then(|l| l.value.map(|v| (v, l.at)));
        if let Some((v, p)) = r.result {
            r.at.result = p;
            r.at.score = p;
            match values::parse_result(v) {
                Ok(res) => {
                    let first = v.split(|&b| b == b':').next().unwrap_or_default();
                    let sign = first.iter().position(|&b| b == b'+' || b == b'-');
                    let (tricks, score) = match sign {
                        Some(s) => (&first[..s], &first[s..]),
                        None => (first, &b""[..]),
                    };
                    r.result_text = (!tricks.is_empty()).then(|| self.txt(tricks));
                    r.score_text = (!score.is_empty()).then(|| self.txt(score));
                    r.stated.result = res.tricks.map(|t| (t as i32, false));
                    r.stated.score_ns = res.score_ns;
                    if res.passed_out && r.stated.contract.is_none() {
                        r.stated.contract = Some(ContractValue::Pass);
                    }
                    if res.effective.is_some() {
                        self.keep(b'R', v);
                    }
                }
                Err(e) => self.reject(b'R', v, p, &e),
            }
        }
    }

    /// The opening leader, the auction's rows and the play.
    fn read_play(
        &mut self,
        r: &mut Labels<'r>,
    ) -> (Option<Seat>, Option<Auction<'r>>, Option<Play<'r>>) {
        // The opening leader: C's leader, else declarer's left-hand
        // opponent, when there is a play.
        let play_label = self.lines.get(b'P');
        let opening_leader = r.contract.as_ref().and_then(|c| {
            c.leader.or_else(|| {
                play_label
                    .is_some()
                    .then(|| c.declarer.map(Seat::next))
                    .flatten()
            })
        });
        let auction_rows = r.calls.as_ref().map(|a| self.auction(a, r.at.auction));
        let play = match (
            play_label.and_then(|l| l.value.map(|v| (v, l.at))),
            opening_leader,
        ) {
            (Some((v, p)), Some(first)) => {
                r.at.play = p;
                match values::parse_play(v) {
                    Ok(list) => Some(self.play(&list, first, &r.stated, r.partial_hands, p, v)),
                    Err(e) => {
                        self.reject(b'P', v, p, &e);
                        None
                    }
                }
            }
            (Some((v, p)), None) => {
                let msg = "the P label's plays cannot be placed: there is no C label with a declarer (or leader); kept in other_tags".to_string();
                self.warn(p, codes::UNPLACED, msg);
                self.keep(b'P', v);
                None
            }
            (None, Some(_)) => Some(Play::default()),
            (None, None) => None,
        };
        (opening_leader, auction_rows, play)
    }

    /// The record's own columns of `boards`; the B label's value.
    #[allow(clippy::too_many_arguments)]
    fn boards_columns(
        &mut self,
        about: &'static About,
        file: &FileInfo,
        id: i64,
        b: &board::Board<'r>,
        r: Labels<'r>,
        names: Option<&Names<'r>>,
        f: Option<&'r [u8]>,
        out: &mut Builders,
    ) -> Option<&'r [u8]> {
        let o = &mut out.boards;
        let h = self.rec;
        let refr = record_ref(
            file,
            about,
            h.raw,
            (h.item.start, h.item.line),
            h.index,
            Some(id),
        );
        o.append_provenance(&refr.provenance(id, None));
        o.format.append_null();
        let event = self.value(b'E').map(|(v, _)| unescape_colons(self.txt(v)));
        o.event.append_option(event);
        let site = self.value(b'L').map(|(v, _)| unescape_colons(self.txt(v)));
        o.site.append_option(site);
        let mut date = None;
        if let Some((v, p, own)) = self.value_own(b'D') {
            match values::parse_date(v) {
                Ok(d) => date = d.date.filter(|_| d.until_day.is_none()),
                Err(_) if !own => {}
                Err(e) => {
                    let msg = format!("invalid D label \"{}\": {e}", self.txt(v));
                    self.warn(p, codes::INVALID, msg);
                }
            }
        }
        o.date.append_option(date);
        o.date_text
            .append_option(self.value(b'D').map(|(v, _)| self.txt(v)));
        let board = self.value(b'B').map(|(v, _)| v);
        let board_first = board.map(|v| v.split(|&b| b == b':').next().unwrap_or_default());
        o.board.append_option(board_first.map(|v| self.txt(v)));
        o.board_number
            .append_option(board_first.and_then(|v| parse_i32(v.trim_ascii())));
        for (k, col) in [
            (0, &mut o.north),
            (1, &mut o.east),
            (2, &mut o.south),
            (3, &mut o.west),
        ] {
            col.append_option(b.players[k].as_deref());
        }
        o.room
            .append_option(names.and_then(|n| n.room).map(room_text));
        o.scoring.append_option(f.map(|v| self.txt(v)));
        o.vulnerable_text.append_option(r.vul_text);
        o.deal_text.append_option(r.deal_text);
        o.contract_text
            .append_option(r.contract_text.map(|(v, _)| self.txt(v)));
        o.result_text.append_option(r.result_text);
        o.score_text.append_option(r.score_text);
        board
    }

    /// What RBN gives that the columns have no place for, kept in
    /// `other_tags`; the free text in `comments`.
    fn keep_what_has_no_column(
        &mut self,
        board: Option<&'r [u8]>,
        names: Option<&Names<'r>>,
        id: i64,
        out: &mut Builders,
    ) {
        if let Some(v) = board.filter(|v| v.contains(&b':')) {
            self.keep(b'B', v);
        }
        if let Some(info) = names.and_then(|n| n.info) {
            let _ = info;
            let (v, _) = self.value(b'N').unwrap();
            self.keep(b'N', v);
        }
        for label in [b'T', b'S', b'K'] {
            if let Some((v, _)) = self.value(label) {
                self.keep(label, v);
            }
        }
        self.items(id, out);
        self.makes(id, out);
        for l in &self.lines.extraneous {
            if !is_signature(l) {
                let v = self.txt(&l[1..]);
                self.others.push((Cow::Borrowed("%"), v));
            }
        }
        for (l, _) in &self.lines.unknown {
            let v = self.txt(l);
            self.others.push((Cow::Borrowed(""), v));
        }
        // A label given again: the repeat is kept.
        let mut seen = [false; 256];
        for l in &self.lines.labels {
            if std::mem::replace(&mut seen[l.label as usize], true)
                && let Some(v) = l.value
            {
                self.keep(l.label, v);
            }
        }
        let comments: Vec<Cow<str>> = self
            .lines
            .texts
            .iter()
            .map(|(t, _)| {
                let s = self.txt(t);
                if s.contains(['|', '\r', '\n']) {
                    Cow::Owned(s.replace("\r\n", "\n").replace('|', "\n"))
                } else {
                    s
                }
            })
            .collect();
        append_strs(
            &mut out.boards.comments,
            (!comments.is_empty()).then_some(comments),
        );
        append_kv(
            &mut out.boards.other_tags,
            self.others
                .iter()
                .map(|(n, v)| (n.as_ref(), Some(v.as_ref()))),
        );
    }

    fn notes(&self) -> Vec<NoteRow<'r>> {
        self.lines
            .notes
            .iter()
            .map(|n| NoteRow {
                part: match n.part {
                    NotePart::Auction => Part::Auction,
                    NotePart::Play => Part::Play,
                    NotePart::Board => Part::Board,
                },
                number: Some(n.number as u32),
                text: self.txt(n.text),
            })
            .collect()
    }

    /// The calls, each by its seat from the dealer (West when the
    /// dealer is `X`, any).
    fn auction(&self, a: &RbnAuction<'r>, at: usize) -> Auction<'r> {
        let dealer = a.dealer.unwrap_or(Seat::W);
        let calls = a
            .calls
            .iter()
            .filter_map(|c| Some((c, c.call?)))
            .enumerate()
            .map(|(k, (c, call))| CallRow {
                seat: dealer.after(k),
                call,
                text: c.text,
                at: (at + c.at) as u32,
                marks: marks(c.notation, c.note),
                insufficient: false,
            })
            .collect();
        Auction {
            calls,
            end: End::Open,
            first_turn: None,
        }
    }

    /// The plays placed by seat: tricks in play order, each led by the
    /// winner of the one before (`games::bridge::play::in_order`), then
    /// written in the seat columns the shared rules read (a trick's
    /// missing plays are placeholders).
    fn play(
        &mut self,
        list: &RbnPlayList<'r>,
        first: Seat,
        stated: &Stated,
        partial_hands: bool,
        at: usize,
        v: &'r [u8],
    ) -> Play<'r> {
        let trump = match stated.contract {
            Some(ContractValue::Contract(c)) => Some(c.strain),
            Some(ContractValue::Strain(s)) => Some(s),
            _ => None,
        };
        let tricks_n = list
            .plays
            .iter()
            .take_while(|p| p.pseudo != Some(b'Y'))
            .last()
            .map_or(0, |p| p.trick + 1);
        let mut by_trick: Vec<Vec<Played>> = vec![Vec::new(); tricks_n];
        let mut index: Vec<Vec<usize>> = vec![Vec::new(); tricks_n];
        for (i, p) in list.plays.iter().enumerate() {
            if p.pseudo == Some(b'Y') {
                // A query ("your play?") is no play: the play stops there.
                self.keep(b'P', v);
                break;
            }
            let played = match (p.card, p.pseudo) {
                (Some(c), _) => Played::Card(c),
                (None, Some(b'-')) => Played::Lowest,
                (None, Some(b'+')) => Played::Highest,
                (None, Some(b'.')) => Played::Discard,
                _ => Played::Unknown,
            };
            by_trick[p.trick].push(played);
            index[p.trick].push(i);
        }
        let trump_suit = trump.and_then(Strain::trump);
        let deal = stated.deal.as_ref().filter(|_| !partial_hands);
        let (tricks, unplaced) = play::in_order(first, &by_trick, trump_suit, deal);
        if unplaced > 0 {
            let msg = format!(
                "{unplaced} plays cannot be placed: the trick before them has a card not known, so its winner (their leader) is not known; the P label is kept in other_tags"
            );
            self.warn(at, codes::UNPLACED, msg);
            self.keep(b'P', v);
        }
        let mut places: Vec<Place<'r>> = Vec::with_capacity(tricks.len() * 4);
        for (k, t) in tricks.iter().enumerate() {
            let mut row: [Option<Place<'r>>; 4] = Default::default();
            for (i, &(seat, card)) in t.cards.iter().enumerate() {
                let p = &list.plays[index[k][i]];
                let column = (seat as usize + 4 - first as usize) % 4;
                row[column] = Some(Place {
                    seat,
                    card,
                    text: p.text,
                    at: (at + p.at) as u32,
                    marks: marks(p.notation, p.note),
                    revoke: false,
                    led_out_of_turn: false,
                    placeholder: false,
                });
            }
            for (c, slot) in row.into_iter().enumerate() {
                places.push(slot.unwrap_or(Place {
                    seat: first.after(c),
                    card: None,
                    text: b"",
                    at: at as u32,
                    marks: Marks::default(),
                    revoke: false,
                    led_out_of_turn: false,
                    placeholder: true,
                }));
            }
        }
        // A last trick not complete keeps only its plays' columns (the
        // shared rules read four places a trick).
        Play {
            places,
            end: End::Open,
            ordered: Some(tricks),
        }
    }

    /// The I label's items into `score_tables` (table `I`): each item a
    /// row, its `item` and `value` cells (a gap award has a value alone).
    fn items(&mut self, id: i64, out: &mut Builders) {
        let o = &mut out.score_tables;
        for (row, (item, _)) in self.lines.items.iter().enumerate() {
            let (name, value) = match item.iter().position(|&b| b == b'=') {
                Some(e) => (Some(&item[..e]), &item[e + 1..]),
                None => (None, &item[..]),
            };
            if let Some(n) = name {
                o.board_id.append_value(id);
                o.table.append_value("I");
                o.row.append_value(row as i32);
                o.column.append_value("item");
                o.value.append_value(self.txt(n));
            }
            o.board_id.append_value(id);
            o.table.append_value("I");
            o.row.append_value(row as i32);
            o.column.append_value("value");
            o.value.append_value(self.txt(value));
        }
    }

    /// The M label: parts 3 and 4 into `double_dummy`; parts 1 and 2
    /// kept in `other_tags`.
    fn makes(&mut self, id: i64, out: &mut Builders) {
        let Some(l) = self.lines.get(b'M') else {
            return;
        };
        let Some(v) = l.value else {
            return;
        };
        match values::parse_makes(v) {
            Ok(m) => {
                let dd = &mut out.double_dummy;
                let strains = [Strain::NT, Strain::S, Strain::H, Strain::D, Strain::C];
                for seat in [Seat::N, Seat::S, Seat::E, Seat::W] {
                    for (k, strain) in strains.iter().enumerate() {
                        if let Some(t) = m.by_declarer[seat as usize][k] {
                            dd.board_id.append_value(id);
                            dd.declarer.append_value(seat.as_str());
                            dd.strain.append_value(strain.as_str());
                            dd.tricks.append_value(t as i32);
                            dd.source.append_value("M");
                        }
                    }
                }
                if !m.contract.is_empty() || !m.leads.is_empty() {
                    self.keep(b'M', v);
                }
            }
            Err(e) => self.reject(b'M', v, l.at, &e),
        }
    }
}

/// A call's or play's notation and note reference.
fn marks(notation: &[u8], note: Option<u8>) -> Marks {
    Marks {
        annotation: String::from_utf8_lossy(notation).into_owned(),
        note: note.map(u32::from),
        ..Marks::default()
    }
}

/// The file signature: `% RBN`, `%RBN` (or RBX's `%{RBX}`, read as `% RBX`).
pub fn is_signature(line: &[u8]) -> bool {
    let rest = line.strip_prefix(b"%").unwrap_or(line).trim_ascii_start();
    rest.starts_with(b"RBN") || rest.starts_with(b"RBX")
}
