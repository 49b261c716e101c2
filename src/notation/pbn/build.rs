//! The meaning of a parsed, resolved PBN game, written into the bridge
//! tables, with the bridge rules run over it.
//!
//! Values are kept as written (`*_text` columns) and normalized beside
//! them; a value that cannot be read warns (B021) and, when it has no text
//! column, is kept in `other_tags`. The rules (`games::bridge`) give the
//! `computed_*` columns and the warnings where the file disagrees with
//! them.

use std::borrow::Cow;

mod checks;

use super::section::{self, Auction, End, Play};
use super::values::{self, ContractValue, Deal};
use super::{DIALECT, Game, LABEL};
use crate::columns::errors::ErrorsBuilder;
use crate::columns::lists::CardList;
use crate::columns::table::{append_kv, append_strs};
use crate::error::{Diag, Diags};
use crate::games::bridge::auction::{self, Call, Made};
use crate::games::bridge::card::{Card, Strain};
use crate::games::bridge::deal::{self, DealIssue};
use crate::games::bridge::play::{self, BySeat, Trick};
use crate::games::bridge::score;
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

/// Where a note belongs: the section its Note tag follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Board,
    Auction,
    Play,
}

impl Part {
    fn as_str(self) -> &'static str {
        match self {
            Part::Board => "board",
            Part::Auction => "auction",
            Part::Play => "play",
        }
    }
}

/// The builders of every bridge table for one group.
#[derive(Default)]
pub struct Builders {
    pub boards: BoardsBuilder,
    pub seats: BridgeSeatsBuilder,
    pub calls: CallsBuilder,
    pub plays: PlaysBuilder,
    pub tricks: BridgeTricksBuilder,
    pub notes: BridgeNotesBuilder,
    pub score_tables: ScoreTablesBuilder,
    pub double_dummy: DoubleDummyBuilder,
    pub errors: ErrorsBuilder,
}

impl Builders {
    /// Builders sized for `n` games: 4 seats, about 12 calls, 52 cards and
    /// 13 tricks each.
    pub fn for_records(n: usize) -> Builders {
        let mut seats = BridgeSeatsBuilder::with_rows(n * 4);
        seats.cards = CardList::with_items(n * 4, 13);
        let mut tricks = BridgeTricksBuilder::with_rows(n * 13);
        tricks.cards = CardList::with_items(n * 13, 4);
        Builders {
            boards: BoardsBuilder::with_rows(n),
            seats,
            calls: CallsBuilder::with_rows(n * 12),
            plays: PlaysBuilder::with_rows(n * 52),
            tricks,
            notes: BridgeNotesBuilder::with_rows(n / 4 + 1),
            score_tables: ScoreTablesBuilder::with_rows(n),
            double_dummy: DoubleDummyBuilder::with_rows(n),
            errors: ErrorsBuilder::with_rows(n / 4 + 1),
        }
    }
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

/// A note: its number (when it has one) and text.
struct NoteTag<'a> {
    part: Part,
    number: Option<u32>,
    text: Cow<'a, str>,
}

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

/// What the identification tags say.
#[derive(Default)]
struct Stated {
    dealer: Option<Seat>,
    vulnerable: Option<&'static str>,
    deal: Option<Deal>,
    declarer: Option<(Seat, bool)>,
    contract: Option<ContractValue>,
    result: Option<(i32, bool)>,
    score_ns: Option<i32>,
}

/// What the rules make of the game.
#[derive(Default)]
struct Computed {
    declarer: Option<Seat>,
    contract: Option<String>,
    result: Option<i32>,
    score_ns: Option<i32>,
    /// The play is to be continued ('+'): the Result counts the tricks
    /// played so far (PBN 3.4.15), not the final result.
    partial_result: bool,
    /// Why each null computed value is null.
    why: Vec<String>,
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
                    self.check_deal(&d);
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

    /// The deal's hand sizes and cards dealt twice (B050).
    fn check_deal(&mut self, d: &Deal) {
        let hands: deal::Hands<'_> = std::array::from_fn(|s| d[s].as_deref());
        let at = self.tag(K::Deal).map_or(0, |t| self.at(t));
        for issue in deal::deal_issues(&hands) {
            let msg = match issue {
                DealIssue::HandSize { seat, cards } => {
                    format!("{}'s hand holds {cards} cards, not 13", seat.as_str())
                }
                DealIssue::Duplicate { card, seats } => {
                    let n = card.name();
                    let seats: Vec<&str> = seats.iter().map(|s| s.as_str()).collect();
                    format!(
                        "{}{} is dealt more than once ({})",
                        n[0] as char,
                        n[1] as char,
                        seats.join(", ")
                    )
                }
            };
            self.warn(at, "B050", msg);
        }
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
        let mut computed = Computed::default();
        let outcome = auction.as_ref().map(|a| self.check_auction(a, &stated));
        // The contract and declarer the play is of: as stated, else as the
        // auction computed.
        let contract = match stated.contract {
            Some(c) => Some(c),
            None => outcome
                .as_ref()
                .filter(|o| o.complete)
                .map(|o| match o.contract {
                    Some(c) => ContractValue::Contract(c),
                    None => ContractValue::Pass,
                }),
        };
        let declarer = stated.declarer.map(|d| d.0).or(outcome
            .as_ref()
            .filter(|o| o.complete)
            .and_then(|o| o.declarer));
        if compute {
            self.computed_auction(auction.as_ref(), outcome.as_ref(), &stated, &mut computed);
        }
        let tricks = play.as_ref().map(|p| {
            self.tricks_of(
                p,
                opening_leader.unwrap(),
                contract,
                declarer,
                &stated,
                compute,
                &mut computed,
            )
        });
        if compute {
            self.computed_score(contract, declarer, &stated, &mut computed);
            if !computed.why.is_empty() {
                self.diags.push(Diag::info(
                    0,
                    "B060",
                    format!("{} (null)", computed.why.join("; ")),
                ));
            }
        }

        self.boards_row(
            file,
            id,
            &stated,
            opening_leader,
            &computed,
            compute,
            &mut out.boards,
        );
        self.seats_rows(id, &stated, &mut out.seats);
        if let Some(a) = &auction {
            self.calls_rows(id, a, &mut out.calls);
        }
        if let (Some(p), Some(t)) = (&play, &tricks) {
            self.plays_rows(id, p, t, opening_leader.unwrap(), compute, out);
        }
        self.notes_rows(id, &mut out.notes);
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

    /// The rules over the calls: each call's legality (B051), the dealer
    /// (B056).
    fn check_auction(&mut self, a: &Auction<'a>, stated: &Stated) -> auction::Outcome {
        if let (Some((seat, at)), Some(dealer)) = (a.first_turn, stated.dealer)
            && seat != dealer
        {
            let msg = format!(
                "the auction starts with {}'s turn but the dealer is {}",
                seat.as_str(),
                dealer.as_str()
            );
            self.warn(at as usize, "B056", msg);
        }
        let made: Vec<Made> = a
            .calls
            .iter()
            .map(|c| Made {
                seat: c.seat,
                call: c.call,
                accepted_insufficient: c.insufficient,
            })
            .collect();
        // `^I` marks an insufficient bid: one that is not is odd.
        let mut last: Option<(u8, Strain)> = None;
        for c in &a.calls {
            if let Call::Bid { level, strain } = c.call {
                if c.insufficient && last.is_none_or(|l| (level, strain) > l) {
                    let msg = format!(
                        "call '{}' is marked ^I (an insufficient bid) but is sufficient",
                        String::from_utf8_lossy(c.text)
                    );
                    self.warn(c.at as usize, "B051", msg);
                }
                last = Some((level, strain));
            } else if c.insufficient {
                let msg = format!(
                    "call '{}' is marked ^I (an insufficient bid) but is no bid",
                    String::from_utf8_lossy(c.text)
                );
                self.warn(c.at as usize, "B051", msg);
            }
        }
        let o = auction::outcome(&made);
        for issue in &o.issues {
            use auction::Issue::*;
            let (i, what) = match *issue {
                Insufficient { index } => (
                    index,
                    "is not higher than the bid before (an insufficient bid; ^I marks one the opponents accepted)",
                ),
                BadDouble { index } => (index, "doubles no bid of the opponents"),
                BadRedouble { index } => (index, "redoubles no double of the opponents"),
                AfterEnd { index } => (index, "comes after the auction ended"),
                BadLevel { index } => (index, "bids a level outside 1 to 7"),
            };
            let c = &a.calls[i];
            let msg = format!(
                "call {} ('{}', {}) {what}",
                i + 1,
                String::from_utf8_lossy(c.text),
                c.seat.as_str()
            );
            self.warn(c.at as usize, "B051", msg);
        }
        o
    }

    /// computed_declarer and computed_contract, compared with the
    /// Declarer and Contract tags (B052).
    fn computed_auction(
        &mut self,
        a: Option<&Auction<'a>>,
        o: Option<&auction::Outcome>,
        stated: &Stated,
        c: &mut Computed,
    ) {
        let (Some(a), Some(o)) = (a, o) else {
            c.why
                .push("computed_declarer, computed_contract: no auction".into());
            return;
        };
        if !o.complete {
            let why = match a.end {
                End::Star => "the auction stops at '*' before it ends",
                End::Plus => "the auction is to be continued ('+')",
                End::Open => "the auction does not end (three passes after a bid, or four)",
            };
            c.why
                .push(format!("computed_declarer, computed_contract: {why}"));
            return;
        }
        c.contract = Some(match o.contract {
            Some(k) => k.text(),
            None => "Pass".to_string(),
        });
        c.declarer = o.declarer;
        let at = self.tag(K::Auction).map_or(0, |t| self.at(t));
        if let Some(sc) = stated.contract {
            let same = match (sc, o.contract) {
                (ContractValue::Pass, None) => true,
                (ContractValue::Contract(x), Some(y)) => x == y,
                // An end position's strain alone says nothing of an auction.
                (ContractValue::Strain(_), _) => true,
                _ => false,
            };
            if !same {
                let msg = format!(
                    "Contract \"{}\" but the auction ends in {}",
                    self.str_of(K::Contract).unwrap_or_default(),
                    c.contract.as_deref().unwrap_or("?")
                );
                self.warn(at, "B052", msg);
            }
        }
        // An irregular declarer (`^S`) swapped with dummy: the auction's
        // declarer's partner.
        if let (Some((sd, irregular)), Some(cd)) = (stated.declarer, o.declarer)
            && sd != if irregular { cd.partner() } else { cd }
        {
            let msg = format!(
                "Declarer \"{}{}\" but by the auction the declarer is {}{}",
                if irregular { "^" } else { "" },
                sd.as_str(),
                cd.as_str(),
                if irregular {
                    " (an irregular declarer, '^', is the partner of the auction's)"
                } else {
                    ""
                }
            );
            self.warn(at, "B052", msg);
        }
    }

    /// The play in tricks, in play order, checked against the deal (B053)
    /// and the opening lead (B057); computed_result, compared with the
    /// Result tag (B054).
    #[allow(clippy::too_many_arguments)]
    fn tricks_of(
        &mut self,
        p: &Play<'a>,
        first: Seat,
        contract: Option<ContractValue>,
        declarer: Option<Seat>,
        stated: &Stated,
        compute: bool,
        c: &mut Computed,
    ) -> Vec<Trick> {
        let by_seat: Vec<BySeat> = p
            .places
            .chunks(4)
            .map(|ch| {
                let mut t: BySeat = [None; 4];
                for pl in ch {
                    t[pl.seat as usize] = pl.card;
                }
                t
            })
            .collect();
        let led = |k: usize| {
            p.places
                .get(k * 4..(k * 4 + 4).min(p.places.len()))
                .and_then(|ch| ch.iter().find(|pl| pl.led_out_of_turn))
                .map(|pl| pl.seat)
        };
        let strain = match contract {
            Some(ContractValue::Contract(k)) => Some(k.strain),
            Some(ContractValue::Strain(s)) => Some(s),
            _ => None,
        };
        let tricks = match strain {
            Some(s) => play::in_play_order_led(first, &by_seat, s.trump(), led),
            None => {
                // No trump known: the first trick is in order from the
                // leader, the later ones' leaders are not known.
                let mut t = play::in_play_order_led(first, &by_seat, None, led);
                for (k, tr) in t.iter_mut().enumerate() {
                    tr.winner = None;
                    if k > 0 && led(k).is_none() {
                        tr.leader = None;
                        tr.cards.sort_by_key(|x| x.0 as usize);
                    }
                }
                t
            }
        };
        // `^L` marks a lead out of turn: by the seat whose lead it was, it
        // is odd.
        for k in 0..tricks.len() {
            let Some(pl) = p.places[k * 4..]
                .iter()
                .take(4)
                .find(|pl| pl.led_out_of_turn)
            else {
                continue;
            };
            let due = if k == 0 {
                match (contract, declarer) {
                    (Some(ContractValue::Contract(_)), Some(d)) => Some(d.next()),
                    _ => None,
                }
            } else {
                tricks[k - 1].winner
            };
            if due == Some(pl.seat) {
                let msg = format!(
                    "trick {}: {}'s card is marked ^L (a lead out of turn) but the lead was {}'s",
                    k + 1,
                    pl.seat.as_str(),
                    pl.seat.as_str()
                );
                self.warn(pl.at as usize, "B053", msg);
            }
        }
        if by_seat.len() > 13 {
            let at = p.places[52].at as usize;
            self.warn(
                at,
                "B025",
                format!("the play has {} tricks; a deal has 13", by_seat.len()),
            );
        }
        // The opening lead is declarer's left-hand opponent's.
        if let (Some(ContractValue::Contract(_)), Some(d)) = (contract, declarer)
            && first != d.next()
            && !p.places.first().is_some_and(|pl| pl.led_out_of_turn)
        {
            let at = self.tag(K::Play).map_or(0, |t| self.at(t));
            let msg = format!(
                "the play starts with {}, but the opening lead is {}'s (declarer {}'s left-hand opponent; ^L marks a lead out of turn)",
                first.as_str(),
                d.next().as_str(),
                d.as_str()
            );
            self.warn(at, "B057", msg);
        }
        // Cards not held, revokes.
        if let Some(deal) = &stated.deal {
            let revoke_marked = |t: usize, s: Seat| {
                p.places
                    .get(t * 4..(t * 4 + 4).min(p.places.len()))
                    .is_some_and(|ch| ch.iter().any(|pl| pl.seat == s && pl.revoke))
            };
            // The first impossible card by name, and how many follow it, in
            // one warning: a play whose seat columns are out of step from
            // some trick on makes every card after it impossible too.
            let issues = play::issues(deal, &tricks, revoke_marked);
            if let Some(&first) = issues.first() {
                let (t, seat, card, what) = match first {
                    play::Issue::NotHeld { trick, seat, card } => (
                        trick,
                        seat,
                        card,
                        "was not dealt to it, or was played before",
                    ),
                    play::Issue::Revoke { trick, seat, card } => (
                        trick,
                        seat,
                        card,
                        "does not follow suit though it holds the suit led (a revoke; ^R marks one)",
                    ),
                    play::Issue::FalseRevoke { trick, seat, card } => (
                        trick,
                        seat,
                        card,
                        "is marked ^R but is no revoke (a lead, a card of the suit led, or a discard with none of it left)",
                    ),
                };
                let at = p.places[t * 4..]
                    .iter()
                    .take(4)
                    .find(|pl| pl.seat == seat)
                    .map_or(0, |pl| pl.at as usize);
                let mut msg = format!(
                    "trick {}: {}'s {} {what}",
                    t + 1,
                    seat.as_str(),
                    card.as_str()
                );
                if issues.len() > 1 {
                    use std::fmt::Write;
                    let _ = write!(
                        msg,
                        "; and {} more impossible cards after it (not dealt to their seat or played before, or revokes{})",
                        issues.len() - 1,
                        if issues.len() > 4 {
                            ": is the play out of step with its seat columns?"
                        } else {
                            ""
                        }
                    );
                }
                self.warn(at, "B053", msg);
            }
        }
        if compute {
            self.computed_result(p, &tricks, contract, declarer, stated, c);
        }
        tricks
    }

    fn computed_result(
        &mut self,
        p: &Play<'a>,
        tricks: &[Trick],
        contract: Option<ContractValue>,
        declarer: Option<Seat>,
        stated: &Stated,
        c: &mut Computed,
    ) {
        // Tricks a complete play has: 13, or an end position's hand size.
        let size = stated.deal.as_ref().and_then(|d| {
            let hands: deal::Hands<'_> = std::array::from_fn(|s| d[s].as_deref());
            deal::is_end_position(&hands).then(|| hands.iter().flatten().map(|h| h.len()).max())
        });
        let full = size.flatten().unwrap_or(13);
        let done: Vec<&Trick> = tricks
            .iter()
            .take(full)
            .take_while(|t| t.winner.is_some())
            .collect();
        c.partial_result = p.end == End::Plus && done.len() < full;
        // A result the play so far rules out: fewer tricks than declarer
        // has won, or more than declarer can still win; with '+', a
        // result that is not the tricks won so far.
        if let (Some((r, false)), Some(d), Some(ContractValue::Contract(_))) =
            (stated.result, declarer, contract)
            && done.len() < full
        {
            let won = done
                .iter()
                .filter(|t| t.winner.is_some_and(|w| w.side() == d.side()))
                .count() as i32;
            let most = won + (full - done.len()) as i32;
            if c.partial_result && r != won {
                let t = self.tag(K::Result).unwrap();
                let msg = format!(
                    "Result \"{}\", but the play is to be continued ('+') and declarer has won {won} of the {} tricks played (PBN 3.4.15: the Result of a play not ended counts the tricks played)",
                    text(t),
                    done.len()
                );
                self.warn(self.at(t), "B054", msg);
            } else if r < won || r > most {
                let t = self.tag(K::Result).unwrap();
                let msg = format!(
                    "Result \"{}\", but declarer has won {won} of the first {} tricks played and can win {most} at most",
                    text(t),
                    done.len()
                );
                self.warn(self.at(t), "B054", msg);
            }
        }
        let why = if contract.is_none() || declarer.is_none() {
            Some("no contract and declarer")
        } else if tricks.len() < full
            || tricks[..full]
                .iter()
                .any(|t| t.cards.iter().any(|c| c.1.is_none()))
        {
            Some(match p.end {
                End::Star => "the play stops at '*' before its last trick",
                End::Plus => "the play is to be continued ('+')",
                End::Open => "the play is not complete",
            })
        } else if tricks[..full].iter().any(|t| t.winner.is_none()) {
            Some("a trick's winner is not known")
        } else {
            None
        };
        if let Some(why) = why {
            c.why.push(format!("computed_result: {why}"));
            return;
        }
        let side = declarer.unwrap().side();
        let won = tricks[..full]
            .iter()
            .filter(|t| t.winner.is_some_and(|w| w.side() == side))
            .count() as i32;
        c.result = Some(won);
        if let Some((r, marked)) = stated.result
            && r != won
            && !marked
        {
            let t = self.tag(K::Result).unwrap();
            let msg = format!(
                "Result \"{}\" but declarer won {won} tricks in the play (a '^' before the Result marks a result agreed otherwise)",
                text(t)
            );
            self.warn(self.at(t), "B054", msg);
        }
    }

    /// computed_score_ns, by duplicate scoring, compared with the Score tag
    /// (B055).
    fn computed_score(
        &mut self,
        contract: Option<ContractValue>,
        declarer: Option<Seat>,
        stated: &Stated,
        c: &mut Computed,
    ) {
        let tricks = stated.result.map(|r| r.0).or(c.result);
        let tricks = if c.partial_result { None } else { tricks };
        let score = match (contract, declarer, stated.vulnerable, tricks) {
            (Some(ContractValue::Pass), ..) => Ok(0),
            (Some(ContractValue::Strain(_)), ..) => Err("an end position has no contract level"),
            (None, ..) => Err("no contract"),
            (Some(ContractValue::Contract(_)), None, ..) => Err("no declarer"),
            (_, _, None, _) => Err("no vulnerability"),
            (_, _, _, None) if c.partial_result => {
                Err("the play is to be continued ('+'), its Result counts the tricks played so far")
            }
            (_, _, _, None) => Err("no result"),
            (Some(ContractValue::Contract(k)), Some(d), Some(v), Some(t)) => {
                let vul = values::vulnerable(v, d.side());
                match score::duplicate(k, vul, t as u8) {
                    Some(s) if d.side() == crate::games::bridge::Side::NS => Ok(s),
                    Some(s) => Ok(-s),
                    None => Err("the result is not 0 to 13 tricks"),
                }
            }
        };
        match score {
            Ok(s) => c.score_ns = Some(s),
            Err(why) => {
                c.why.push(format!("computed_score_ns: {why}"));
                return;
            }
        }
        let rubber = self.present(K::Scoring).is_some_and(|v| {
            let v = v.to_ascii_lowercase();
            v.windows(6).any(|w| w == b"rubber") || v.windows(7).any(|w| w == b"chicago")
        });
        if let (Some(s), Some(stated_s)) = (c.score_ns, stated.score_ns)
            && s != stated_s
            && !rubber
        {
            let t = self.tag(K::Score).unwrap();
            let msg = format!(
                "Score \"{}\" ({stated_s} for North-South) but the contract, vulnerability and result score {s} for North-South",
                text(t)
            );
            self.warn(self.at(t), "B055", msg);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn boards_row(
        &mut self,
        file: &FileInfo,
        id: i64,
        s: &Stated,
        opening_leader: Option<Seat>,
        c: &Computed,
        compute: bool,
        o: &mut BoardsBuilder,
    ) {
        let h = self.h;
        o.board_id.append_value(id);
        o.source_file.append_value(&file.name);
        o.record_index.append_value(h.index as i64);
        o.byte_offset.append_value(h.byte as i64);
        o.line.append_value(h.line as i64);
        o.notation.append_value(LABEL);
        o.notation_version
            .append_option(h.ctx.version.map(utf8_or_latin1));
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
        o.dealer.append_option(s.dealer.map(Seat::as_str));
        o.vulnerable.append_option(s.vulnerable);
        o.vulnerable_text.append_option(self.str_of(K::Vulnerable));
        o.deal.append_option(s.deal.as_ref().map(values::deal_text));
        o.deal_text.append_option(self.str_of(K::Deal));
        o.declarer.append_option(s.declarer.map(|d| d.0.as_str()));
        o.declarer_irregular.append_option(s.declarer.map(|d| d.1));
        let (contract, level, strain, risk) = match s.contract {
            Some(ContractValue::Pass) => (Some("Pass".to_string()), None, None, None),
            Some(ContractValue::Contract(k)) => (
                Some(k.text()),
                Some(k.level as i32),
                Some(k.strain.as_str()),
                Some(k.risk.as_str()),
            ),
            Some(ContractValue::Strain(st)) => (None, None, Some(st.as_str()), None),
            None => (None, None, None, None),
        };
        o.contract.append_option(contract);
        o.contract_level.append_option(level);
        o.contract_strain.append_option(strain);
        o.contract_risk.append_option(risk);
        o.contract_text.append_option(self.str_of(K::Contract));
        o.result.append_option(s.result.map(|r| r.0));
        o.result_text.append_option(self.str_of(K::Result));
        o.score_ns.append_option(s.score_ns);
        o.score_text.append_option(self.str_of(K::Score));
        o.opening_leader
            .append_option(opening_leader.map(Seat::as_str));
        if compute {
            o.computed_declarer
                .append_option(c.declarer.map(Seat::as_str));
            o.computed_contract.append_option(c.contract.as_deref());
            o.computed_result.append_option(c.result);
            o.computed_score_ns.append_option(c.score_ns);
        } else {
            o.computed_declarer.append_null();
            o.computed_contract.append_null();
            o.computed_result.append_null();
            o.computed_score_ns.append_null();
        }
    }

    fn seats_rows(&self, id: i64, s: &Stated, o: &mut BridgeSeatsBuilder) {
        let names = [K::North, K::East, K::South, K::West];
        for (seat, k) in Seat::ALL.into_iter().zip(names) {
            o.board_id.append_value(id);
            o.seat.append_value(seat.as_str());
            o.player.append_option(self.str_of(k));
            let cards = s.deal.as_ref().and_then(|d| d[seat as usize].as_deref());
            o.cards.append_cards(cards);
            o.hcp.append_option(cards.map(|c| deal::hcp(c) as i32));
        }
    }

    /// The text of note `n` of `part` (or of the board's notes), with a
    /// warning when there is none (B026).
    fn note_text(&mut self, n: u32, part: Part, at: u32) -> Option<Cow<'a, str>> {
        let find = |p: Part| {
            self.notes
                .iter()
                .find(|x| x.part == p && x.number == Some(n))
                .map(|x| x.text.clone())
        };
        let found = find(part).or_else(|| find(Part::Board));
        if found.is_none() {
            let msg = format!(
                "note reference ={n}= has no Note tag \"{n}:...\" in the {} section",
                part.as_str()
            );
            self.warn(at as usize, "B026", msg);
        }
        found
    }

    fn calls_rows(&mut self, id: i64, a: &Auction<'a>, o: &mut CallsBuilder) {
        for (seq, c) in a.calls.iter().enumerate() {
            o.board_id.append_value(id);
            o.seq.append_value(seq as i32);
            o.seat.append_value(c.seat.as_str());
            o.call.append_value(values::call_text(c.call));
            o.text.append_value(bytes_text(c.text, self.latin1));
            o.annotation
                .append_option((!c.marks.annotation.is_empty()).then_some(&c.marks.annotation));
            let note = c
                .marks
                .note
                .and_then(|n| self.note_text(n, Part::Auction, c.at));
            o.note.append_option(note);
            o.note_number.append_option(c.marks.note.map(|n| n as i32));
            o.alert.append_value(c.marks.note.is_some());
        }
    }

    fn plays_rows(
        &mut self,
        id: i64,
        p: &Play<'a>,
        tricks: &[Trick],
        first: Seat,
        compute: bool,
        out: &mut Builders,
    ) {
        let mut seq = 0;
        for (k, t) in tricks.iter().enumerate() {
            let places = &p.places[k * 4..(k * 4 + 4).min(p.places.len())];
            for &(seat, _) in &t.cards {
                let column = (seat as usize + 4 - first as usize) % 4;
                let Some(pl) = places.get(column) else {
                    continue;
                };
                if pl.placeholder {
                    continue;
                }
                let note = pl
                    .marks
                    .note
                    .and_then(|n| self.note_text(n, Part::Play, pl.at));
                let o = &mut out.plays;
                o.board_id.append_value(id);
                o.seq.append_value(seq);
                seq += 1;
                o.trick.append_value(k as i32 + 1);
                o.seat.append_value(seat.as_str());
                o.card.append_option(pl.card.map(Card::as_str));
                o.text.append_value(bytes_text(pl.text, self.latin1));
                o.annotation.append_option(
                    (!pl.marks.annotation.is_empty()).then_some(&pl.marks.annotation),
                );
                o.note.append_option(note);
                o.note_number.append_option(pl.marks.note.map(|n| n as i32));
            }
            let o = &mut out.tricks;
            o.board_id.append_value(id);
            o.trick.append_value(k as i32 + 1);
            o.leader.append_option(t.leader.map(Seat::as_str));
            let mut cards = [None; 4];
            let n = t.cards.len().min(4);
            for (c, x) in cards.iter_mut().zip(&t.cards) {
                *c = x.1;
            }
            if places.len() < 4 || !o.cards.append_known(&cards[..n]) {
                o.cards.append_cards::<Card>(None);
            }
            o.computed_winner
                .append_option(t.winner.filter(|_| compute).map(Seat::as_str));
        }
    }

    fn notes_rows(&self, id: i64, o: &mut BridgeNotesBuilder) {
        for n in &self.notes {
            o.board_id.append_value(id);
            o.section.append_value(n.part.as_str());
            o.number.append_option(n.number.map(|x| x as i32));
            o.text.append_value(&n.text);
        }
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
