//! The meaning of a parsed, resolved PBN game, written into the bridge
//! tables, with the bridge rules run over it.
//!
//! Values are kept as written (`*_text` columns) and normalized beside
//! them; a value that cannot be read warns (B021) and, when it has no text
//! column, is kept in `other_tags`. The rules (`games::bridge`) give the
//! `computed_*` columns and the warnings where the file disagrees with
//! them.

use crate::notation::record_ref;
use std::borrow::Cow;

mod checks;

use super::section::{self, Auction};
use super::values::{self, ContractValue};
use super::{DIALECT, Game, LABEL};
use crate::columns::table::{append_kv, append_strs};
use crate::error::{Diag, Diags};
use crate::notation::bridge_board::{self as board, At, NoteRow, Part, Stated, Written};

use crate::games::bridge::card::Strain;

use crate::games::bridge::seat::Seat;
use crate::games::bridge::tables::*;
use crate::notation::FileInfo;
use crate::notation::number::{DateValue, parse_date, parse_i32};
use crate::notation::tagpair::file::each_record;
use crate::notation::tagpair::lex::{Lists, Tag, TagState, Token};
use crate::notation::tagpair::text::{bytes_text, comment_text, text, utf8_or_latin1};

/// The tags with columns of their own, by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
enum K {
    Event,
    Site,
    Date,
    Board,
    West,
    North,
    East,
    South,
    Dealer,
    Vulnerable,
    Deal,
    Scoring,
    Declarer,
    Contract,
    Result,
    Auction,
    Play,
    Score,
    Room,
}

const NK: usize = K::Room as usize + 1;

enum Class {
    Known(K),
    Note,
    Other,
}

fn classify(name: &[u8]) -> Class {
    use K::*;
    Class::Known(match name {
        b"Event" => Event,
        b"Site" => Site,
        b"Date" => Date,
        b"Board" => Board,
        b"West" => West,
        b"North" => North,
        b"East" => East,
        b"South" => South,
        b"Dealer" => Dealer,
        b"Vulnerable" => Vulnerable,
        b"Deal" => Deal,
        b"Scoring" => Scoring,
        b"Declarer" => Declarer,
        b"Contract" => Contract,
        b"Result" => Result,
        b"Auction" => Auction,
        b"Play" => Play,
        b"Score" => Score,
        b"Room" => Room,
        b"Note" => return Class::Note,
        _ => return Class::Other,
    })
}

/// Tags that may appear many times in a game and are never inherited.
pub fn is_repeatable(name: &[u8]) -> bool {
    name == b"Note"
}

/// Tags PBN 4.8 forbids `#` for (deckhand resolves it anyway, with B022).
const NO_INHERIT: &[&[u8]] = &[
    b"Dealer",
    b"Vulnerable",
    b"Deal",
    b"Declarer",
    b"Contract",
    b"Auction",
    b"Play",
];

/// A note reference without its Note tag (B026).
fn missing_note(n: u32, part: Part) -> (&'static str, String) {
    let msg = format!(
        "note reference ={n}= has no Note tag \"{n}:...\" in the {} section",
        part.as_str()
    );
    ("B026", msg)
}

/// Builds the rows of every game of `g`.
pub fn build_group(file: &FileInfo, g: &super::Group<'_>, compute: bool, out: &mut Builders) {
    let mut errors = std::mem::take(&mut out.errors);
    each_record(
        &DIALECT,
        file,
        g,
        (LABEL, super::ABOUT.game),
        &mut errors,
        |e, diags| {
            if let Some(id) = e.id {
                Board::new(&g.lists, e.record, diags).write(file, id, compute, out);
            }
        },
    );
    out.errors = errors;
}

type NoteTag<'a> = NoteRow<'a>;

struct Board<'g, 'a> {
    lists: &'g Lists<'a>,
    h: &'g Game<'a>,
    diags: &'g mut Diags,
    known: [Option<usize>; NK],
    /// Tags without a column, in the order written (rejected values join
    /// them).
    others: Vec<usize>,
    notes: Vec<NoteTag<'a>>,
    /// Tags other than Auction and Play with section data (the tables).
    sections: Vec<usize>,
    latin1: bool,
}

impl<'g, 'a> Board<'g, 'a> {
    fn new(lists: &'g Lists<'a>, h: &'g Game<'a>, diags: &'g mut Diags) -> Self {
        let mut b = Board {
            lists,
            h,
            diags,
            known: [None; NK],
            others: Vec::new(),
            notes: Vec::new(),
            sections: Vec::new(),
            latin1: h.lexed.latin1,
        };
        let range = |r: &std::ops::Range<u32>| r.start as usize..r.end as usize;
        let own = range(&h.lexed.tags);
        let mut part = Part::Board;
        for ti in own.clone().chain(range(&h.extra)) {
            let t = &lists.tags[ti];
            if t.state == TagState::Unresolved {
                continue;
            }
            if own.contains(&ti) && t.state == TagState::Inherited && NO_INHERIT.contains(&t.name) {
                let msg = format!(
                    "'#' is not allowed for tag {} (PBN 4.8); the value of the game before, \"{}\", is used",
                    String::from_utf8_lossy(t.name),
                    text(t)
                );
                b.warn(t.at as usize, "B022", msg);
            }
            match classify(t.name) {
                Class::Note => {
                    let n = b.note(t, part);
                    if part == Part::Board {
                        let msg = "a Note tag before the Auction and Play sections (PBN 3.5.5 and 3.6.5 place notes after their calls and cards): kept as a note of the board".to_string();
                        b.diags.push(Diag::info(t.at as usize, "B033", msg));
                    }
                    b.notes.push(n);
                }
                Class::Known(k) => {
                    match k {
                        K::Auction => part = Part::Auction,
                        K::Play => part = Part::Play,
                        _ => {}
                    }
                    b.take_known(k, ti);
                }
                Class::Other => {
                    b.others.push(ti);
                    if !t.tokens.is_empty() {
                        b.sections.push(ti);
                    }
                }
            }
        }
        b
    }

    /// A known tag: the first of its name is used, the later ones kept in
    /// `other_tags` (B020); but an empty first one without section data
    /// (an empty Auction tag before the real one) gives way to a later one.
    fn take_known(&mut self, k: K, ti: usize) {
        let t = &self.lists.tags[ti];
        let Some(first) = self.known[k as usize] else {
            self.known[k as usize] = Some(ti);
            if !t.tokens.is_empty() && !matches!(k, K::Auction | K::Play) {
                self.sections.push(ti);
            }
            return;
        };
        let f = &self.lists.tags[first];
        let name = String::from_utf8_lossy(t.name);
        if f.value.trim_ascii().is_empty() && f.tokens.is_empty() {
            self.known[k as usize] = Some(ti);
            self.others.push(first);
            let msg = format!(
                "tag {name} comes again after an empty one: this one is used, the empty one kept in other_tags"
            );
            self.warn(t.at as usize, "B020", msg);
        } else {
            self.others.push(ti);
            let msg = format!(
                "tag {name} appears more than once; the first is used, this one is kept in other_tags"
            );
            self.warn(t.at as usize, "B020", msg);
        }
        let used = self.known[k as usize] == Some(ti) && matches!(k, K::Auction | K::Play);
        if !t.tokens.is_empty() && !used {
            self.sections.push(ti);
        }
    }

    /// A Note tag: `<number>:<text>`.
    fn note(&mut self, t: &Tag<'a>, part: Part) -> NoteTag<'a> {
        let v = text(t);
        let split = v.find(':').and_then(|c| {
            let n = v[..c].trim().parse::<u32>().ok()?;
            Some((n, c))
        });
        if let Some((n, _)) = split
            && !(1..=32).contains(&n)
        {
            let msg = format!("note number {n} is outside 1 to 32 (PBN 3.5.4)");
            self.warn(self.at(t), "B026", msg);
        }
        match split {
            Some((n, c)) => NoteTag {
                part,
                number: Some(n),
                text: match v {
                    Cow::Borrowed(s) => Cow::Borrowed(&s[c + 1..]),
                    Cow::Owned(s) => Cow::Owned(s[c + 1..].to_string()),
                },
            },
            None => {
                let msg = format!(
                    "note \"{v}\" does not start with its number and ':' (like \"1:transfer\"); kept without a number"
                );
                self.warn(self.at(t), "B026", msg);
                NoteTag {
                    part,
                    number: None,
                    text: v,
                }
            }
        }
    }

    fn tag(&self, k: K) -> Option<&'g Tag<'a>> {
        self.known[k as usize].map(|i| &self.lists.tags[i])
    }

    fn tokens(&self, t: &Tag<'a>) -> &'g [Token<'a>] {
        self.lists.tokens_of(t)
    }

    /// Position of a tag's value for diagnostics (see [`Tag::diag_at`]).
    fn at(&self, t: &Tag<'a>) -> usize {
        t.diag_at()
    }

    fn warn(&mut self, at: usize, code: &'static str, msg: String) {
        self.diags.push(Diag::warning(at, code, msg));
    }

    fn str_of(&self, k: K) -> Option<Cow<'a, str>> {
        self.tag(k).map(text)
    }

    /// The value of a tag, or None when absent, empty or `?` (unknown).
    fn present(&self, k: K) -> Option<&'a [u8]> {
        let v = self.tag(k)?.value.trim_ascii();
        (!v.is_empty() && v != b"?").then_some(v)
    }

    /// Warns that tag `k`'s value cannot be read; `keep` moves the tag to
    /// `other_tags` (for a value without a text column).
    fn reject(&mut self, k: K, expected: &str, keep: bool) {
        let t = self.tag(k).unwrap();
        let msg = format!(
            "invalid value \"{}\" for tag {}: {expected}{}",
            text(t),
            String::from_utf8_lossy(t.name),
            if keep { "; kept in other_tags" } else { "" }
        );
        self.warn(self.at(t), "B021", msg);
        if keep {
            self.others.push(self.known[k as usize].take().unwrap());
        }
    }

    fn seat(&mut self, k: K) -> Option<Seat> {
        let v = self.present(k)?;
        let s = values::parse_seat(v);
        if s.is_none() {
            self.reject(k, "expected N, E, S or W", true);
        }
        s
    }

    fn read_stated(&mut self) -> Stated {
        let mut s = Stated {
            dealer: self.seat(K::Dealer),
            ..Stated::default()
        };
        if let Some(v) = self.present(K::Vulnerable) {
            s.vulnerable = values::parse_vulnerable(v);
            if s.vulnerable.is_none() {
                self.reject(
                    K::Vulnerable,
                    "expected None, NS, EW or All (or Love, -, Both)",
                    false,
                );
            }
        }
        if let Some(v) = self.present(K::Deal) {
            match values::parse_deal(v) {
                Ok(d) => {
                    let at = self.tag(K::Deal).map_or(0, |t| self.at(t));
                    board::check_deal(&d, at, false, self.diags);
                    s.deal = Some(d);
                }
                Err(e) => self.reject(K::Deal, &e, false),
            }
        }
        if let Some(t) = self.tag(K::Declarer) {
            match values::parse_declarer(t.value) {
                Ok(d) => s.declarer = d,
                Err(e) if t.value.trim_ascii() == b"?" => drop(e),
                Err(e) => self.reject(K::Declarer, &e, true),
            }
        }
        if let Some(v) = self.present(K::Contract) {
            match values::parse_contract(v) {
                Ok(c) => s.contract = Some(c),
                Err(e) => self.reject(K::Contract, &e, false),
            }
        }
        let declarer = s.declarer.map(|d| d.0);
        if let Some(v) = self.present(K::Result) {
            match values::parse_result(v, declarer) {
                Ok(r) => s.result = r,
                Err(e) => self.reject(K::Result, &e, false),
            }
        }
        if let Some(v) = self.present(K::Score) {
            match values::parse_score(v, declarer) {
                Ok(r) => s.score_ns = r,
                Err(e) => self.reject(K::Score, &e, false),
            }
        }
        s
    }

    /// Writes the game's rows: its `boards` row, then its calls, plays,
    /// tricks, seats, notes and tables.
    fn write(mut self, file: &FileInfo, id: i64, compute: bool, out: &mut Builders) {
        self.check_tags();
        self.check_deal_form();
        let stated = self.read_stated();
        self.check_needs(&stated);
        self.check_sections();
        let auction = self.read_auction(stated.dealer);
        let opening_leader = self.seat_of_section(K::Play);
        let play = opening_leader.map(|first| {
            let tokens = self.tokens(self.tag(K::Play).unwrap());
            section::read_play(first, tokens, self.diags)
        });
        let notes = std::mem::take(&mut self.notes);
        let at = |k: K| self.tag(k).map_or(0, |t| self.at(t));
        let at = At {
            deal: at(K::Deal),
            auction: at(K::Auction),
            play: at(K::Play),
            result: at(K::Result),
            score: at(K::Score),
        };
        let rubber = self.present(K::Scoring).is_some_and(|v| {
            let v = v.to_ascii_lowercase();
            v.windows(6).any(|w| w == b"rubber") || v.windows(7).any(|w| w == b"chicago")
        });
        let board = board::Board {
            stated,
            auction,
            opening_leader,
            play,
            notes,
            players: [K::North, K::East, K::South, K::West].map(|k| self.str_of(k)),
            written: Written {
                contract: self.str_of(K::Contract),
                result: self.str_of(K::Result),
                score: self.str_of(K::Score),
            },
            at,
            rubber,
            latin1: self.latin1,
            partial_hands: false,
            missing_note,
        };
        if self.h.at_end
            && let Some(p) = &board.play
            && p.end == board::End::Open
            && !p.places.is_empty()
            && p.places.len() < 4 * board::full_play(&board.stated)
        {
            // At the start of the game's last line.
            let at = memchr::memrchr(b'\n', self.h.bytes).map_or(0, |k| k + 1);
            let msg = format!(
                "the file ends inside this game's play, after {} of its {} cards, without '*': the file may have been cut off",
                p.places.len(),
                4 * board::full_play(&board.stated)
            );
            self.warn(at, "B036", msg);
        }
        let checked = board::check(&board, compute, self.diags);
        self.boards_row(file, id, &mut out.boards);
        board::write_rows(&board, &checked, id, compute, self.diags, out);
        self.section_rows(id, &mut out.score_tables, &mut out.double_dummy);
        self.comment_and_other_tag_columns(&mut out.boards);
    }

    /// The seat an Auction or Play tag names; when its value is not a
    /// seat, the dealer's (for the auction, with a warning) or none.
    fn seat_of_section(&mut self, k: K) -> Option<Seat> {
        let t = self.tag(k)?;
        match values::parse_seat(t.value) {
            Some(s) => Some(s),
            None => {
                let toks = self.tokens(t);
                if !toks.is_empty() {
                    let msg = format!(
                        "tag {} names no seat (\"{}\"): its {} are not read",
                        String::from_utf8_lossy(t.name),
                        text(t),
                        if k == K::Auction { "calls" } else { "cards" }
                    );
                    self.warn(self.at(t), "B021", msg);
                }
                None
            }
        }
    }

    fn read_auction(&mut self, dealer: Option<Seat>) -> Option<Auction<'a>> {
        let t = self.tag(K::Auction)?;
        let first = match values::parse_seat(t.value) {
            Some(s) => s,
            None => {
                let toks = self.tokens(t);
                if toks.is_empty() {
                    return None;
                }
                match dealer {
                    Some(d) => {
                        let msg = format!(
                            "tag Auction names no seat (\"{}\"): its calls are read from the dealer, {}",
                            text(t),
                            d.as_str()
                        );
                        self.warn(self.at(t), "B021", msg);
                        d
                    }
                    None => {
                        let msg = format!(
                            "tag Auction names no seat (\"{}\") and there is no Dealer: its calls are not read",
                            text(t)
                        );
                        self.warn(self.at(t), "B021", msg);
                        return None;
                    }
                }
            }
        };
        let tokens = self.tokens(t);
        Some(section::read_auction(first, tokens, self.diags))
    }

    /// The columns of the game's `boards` row that are PBN's own:
    /// provenance, identification and values as written (the rest are
    /// `bridge::board`'s).
    fn boards_row(&mut self, file: &FileInfo, id: i64, o: &mut BoardsBuilder) {
        let h = self.h;
        let version = h.ctx.version.map(utf8_or_latin1);
        let refr = record_ref(
            file,
            &super::ABOUT,
            h.bytes,
            (h.byte, h.line),
            h.index,
            Some(id),
        );
        o.append_provenance(&refr.provenance(id, version.as_deref()));
        o.format.append_option(h.ctx.format.map(utf8_or_latin1));
        o.event.append_option(self.str_of(K::Event));
        o.site.append_option(self.str_of(K::Site));
        let date = match self.present(K::Date) {
            None => None,
            Some(v) => match parse_date(v) {
                DateValue::Known(d) => Some(d),
                DateValue::Partial => None,
                DateValue::Invalid => {
                    self.reject(
                        K::Date,
                        "expected YYYY.MM.DD (with ?? for unknown parts)",
                        false,
                    );
                    None
                }
            },
        };
        o.date.append_option(date);
        o.date_text.append_option(self.str_of(K::Date));
        o.board.append_option(self.str_of(K::Board));
        o.board_number
            .append_option(self.present(K::Board).and_then(parse_i32));
        o.north.append_option(self.str_of(K::North));
        o.east.append_option(self.str_of(K::East));
        o.south.append_option(self.str_of(K::South));
        o.west.append_option(self.str_of(K::West));
        o.room.append_option(self.str_of(K::Room));
        o.scoring.append_option(self.str_of(K::Scoring));
        o.vulnerable_text.append_option(self.str_of(K::Vulnerable));
        o.deal_text.append_option(self.str_of(K::Deal));
        o.contract_text.append_option(self.str_of(K::Contract));
        o.result_text.append_option(self.str_of(K::Result));
        o.score_text.append_option(self.str_of(K::Score));
    }

    /// The supplemental sections: one `score_tables` row per element (a
    /// table's cells by its columns; another section's elements in one
    /// column named ""), and `double_dummy` rows from OptimumResultTable
    /// and DoubleDummyTricks.
    fn section_rows(&mut self, id: i64, o: &mut ScoreTablesBuilder, dd: &mut DoubleDummyBuilder) {
        let sections = std::mem::take(&mut self.sections);
        for &ti in &sections {
            let t = &self.lists.tags[ti];
            let name = String::from_utf8_lossy(t.name);
            let columns: Vec<String> = if t.name.ends_with(b"Table") {
                text(t).split(';').map(column_name).collect()
            } else {
                vec![String::new()]
            };
            let cells: Vec<Cow<'a, str>> = self
                .tokens(t)
                .iter()
                .map(|k| cell_text(k.text, self.latin1))
                .collect();
            for (i, cell) in cells.iter().enumerate() {
                o.board_id.append_value(id);
                o.table.append_value(&name);
                o.row.append_value((i / columns.len()) as i32);
                o.column.append_value(&columns[i % columns.len()]);
                o.value.append_value(cell);
            }
            if !cells.len().is_multiple_of(columns.len()) {
                let at = self.tokens(t).last().map_or(0, |k| k.at as usize);
                let msg = format!(
                    "table {name} has {} columns but {} elements: its last row is short",
                    columns.len(),
                    cells.len()
                );
                self.warn(at, "B029", msg);
            }
            if t.name == b"OptimumResultTable" {
                self.optimum_results(id, t, &columns, &cells, dd);
            }
        }
        self.sections = sections;
        if let Some(&ti) = self
            .others
            .iter()
            .find(|&&ti| self.lists.tags[ti].name == b"DoubleDummyTricks")
        {
            let t = &self.lists.tags[ti];
            let v = t.value.trim_ascii();
            let digits: Option<Vec<i32>> = (v.len() == 20)
                .then(|| {
                    v.iter()
                        .map(|&b| (b as char).to_digit(16).map(|d| d as i32))
                        .collect()
                })
                .flatten();
            match digits.filter(|d| d.iter().all(|&x| x <= 13)) {
                Some(d) => {
                    // Declarers N S E W, strains NT S H D C (BridgeComposer).
                    let seats = [Seat::N, Seat::S, Seat::E, Seat::W];
                    let strains = [Strain::NT, Strain::S, Strain::H, Strain::D, Strain::C];
                    for (i, x) in d.into_iter().enumerate() {
                        dd.board_id.append_value(id);
                        dd.declarer.append_value(seats[i / 5].as_str());
                        dd.strain.append_value(strains[i % 5].as_str());
                        dd.tricks.append_value(x);
                        dd.source.append_value("DoubleDummyTricks");
                    }
                }
                None => {
                    let msg = format!(
                        "DoubleDummyTricks \"{}\" is not 20 hexadecimal digits of 0 to 13 tricks (declarers N S E W, strains NT S H D C); kept in other_tags only",
                        text(t)
                    );
                    self.warn(self.at(t), "B021", msg);
                }
            }
        }
    }

    fn optimum_results(
        &mut self,
        id: i64,
        t: &Tag<'a>,
        columns: &[String],
        cells: &[Cow<'a, str>],
        dd: &mut DoubleDummyBuilder,
    ) {
        let col = |n: &str| columns.iter().position(|c| c == n);
        let (Some(dc), Some(sc), Some(rc)) = (col("Declarer"), col("Denomination"), col("Result"))
        else {
            let msg = "OptimumResultTable lacks a Declarer, Denomination or Result column: no double_dummy rows".to_string();
            self.warn(self.at(t), "B029", msg);
            return;
        };
        let toks = self.tokens(t);
        for (r, row) in cells.chunks_exact(columns.len()).enumerate() {
            let seat = values::parse_seat(row[dc].as_bytes());
            let strain = match values::parse_contract(row[sc].as_bytes()) {
                Ok(ContractValue::Strain(s)) => Some(s),
                _ => None,
            };
            let tricks = parse_i32(row[rc].trim().as_bytes()).filter(|t| (0..=13).contains(t));
            match (seat, strain, tricks) {
                (Some(s), Some(st), Some(n)) => {
                    dd.board_id.append_value(id);
                    dd.declarer.append_value(s.as_str());
                    dd.strain.append_value(st.as_str());
                    dd.tricks.append_value(n);
                    dd.source.append_value("OptimumResultTable");
                }
                _ => {
                    let at = toks.get(r * columns.len()).map_or(0, |k| k.at as usize);
                    let msg = format!(
                        "OptimumResultTable row {} ({} {} {}) is not a declarer, a strain and 0 to 13 tricks: no double_dummy row",
                        r + 1,
                        row[dc],
                        row[sc],
                        row[rc]
                    );
                    self.warn(at, "B029", msg);
                }
            }
        }
    }

    fn comment_and_other_tag_columns(&mut self, o: &mut BoardsBuilder) {
        let lexed = &self.h.lexed;
        let comments: Vec<Cow<str>> = self.lists.comments
            [lexed.comments.start as usize..lexed.comments.end as usize]
            .iter()
            .map(|c| comment_text(c.text, self.latin1))
            .collect();
        append_strs(&mut o.comments, (!comments.is_empty()).then_some(comments));
        self.others.sort_unstable();
        let pairs: Vec<(Cow<str>, Cow<str>)> = self
            .others
            .iter()
            .map(|&ti| {
                let t = &self.lists.tags[ti];
                (String::from_utf8_lossy(t.name), text(t))
            })
            .collect();
        append_kv(
            &mut o.other_tags,
            pairs.iter().map(|(n, v)| (n.as_ref(), Some(v.as_ref()))),
        );
    }
}

/// A column's name in a table's tag value: without its sort mark (`+`,
/// `-`) and its width (`\6R`).
fn column_name(spec: &str) -> String {
    let s = spec.trim();
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    let s = match s.rfind('\\') {
        Some(p)
            if s[p + 1..]
                .trim_end_matches(['L', 'R'])
                .bytes()
                .all(|b| b.is_ascii_digit())
                && p + 1 < s.len() =>
        {
            &s[..p]
        }
        _ => s,
    };
    s.to_string()
}

/// A table element's text: a string token without its quotes (escapes
/// undone), else as written.
fn cell_text(b: &[u8], latin1: bool) -> Cow<'_, str> {
    match b {
        [b'"', inner @ .., b'"'] => {
            let s = bytes_text(inner, latin1);
            if inner.contains(&b'\\') {
                Cow::Owned(crate::notation::tagpair::text::unescape(&s))
            } else {
                s
            }
        }
        _ => bytes_text(b, latin1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_names_lose_their_sort_marks_and_widths() {
        assert_eq!(column_name("Declarer"), "Declarer");
        assert_eq!(column_name("Denomination\\2R"), "Denomination");
        assert_eq!(column_name("+Score_NS\\6"), "Score_NS");
        assert_eq!(column_name("-Rank\\2L"), "Rank");
        assert_eq!(column_name("Names\\x"), "Names\\x");
    }

    #[test]
    fn cells_lose_their_quotes() {
        assert_eq!(cell_text(b"\"Jansen, J.\"", false), "Jansen, J.");
        assert_eq!(cell_text(b"\"a \\\"b\\\"\"", false), "a \"b\"");
        assert_eq!(cell_text(b"-", false), "-");
    }
}
