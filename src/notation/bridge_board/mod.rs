//! What the bridge notations (PBN, RBN, RBX) share past their syntax: a
//! board as read ([`Board`]: what it states, its auction and play, its
//! notes), checked by the bridge rules (`games::bridge`: warnings B050 to
//! B058, the `computed_*` columns) and written into the bridge tables.
//! Each notation reads its own text into a [`Board`] and writes the
//! columns only it has (provenance, values as written, other tags).

use std::borrow::Cow;

use crate::error::{Diag, Diags};
use crate::games::bridge::auction::{self, Call, ContractValue, Made, call_text};
use crate::games::bridge::card::{Card, Strain};
use crate::games::bridge::deal::{self, Deal, DealIssue, deal_text};
use crate::games::bridge::play::{self, BySeat, Trick};
use crate::games::bridge::score;
use crate::games::bridge::seat::{Seat, vulnerable};
use crate::games::bridge::tables::*;
use crate::notation::tagpair::text::bytes_text;

mod play_checks;
mod rows;

use rows::{seats_rows, stated_columns};

/// How a section ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum End {
    /// With its last call or card (or nothing).
    #[default]
    Open,
    /// With `*`: no more will be given.
    Star,
    /// With `+`: to be continued.
    Plus,
}

/// Suffixes, NAGs and irregularity marks of a call or card, as written
/// (separated by a space), and the note it refers to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    pub annotation: String,
    pub note: Option<u32>,
    /// Suffixes and the NAGs that stand for one ($1 to $12) given.
    pub(crate) suffixes: u8,
}

impl Marks {
    pub(crate) fn add(&mut self, text: &[u8]) {
        if !self.annotation.is_empty() {
            self.annotation.push(' ');
        }
        self.annotation.push_str(&String::from_utf8_lossy(text));
    }
}

/// A call as the Auction section gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallRow<'a> {
    pub seat: Seat,
    pub call: Call,
    /// As written (`AP` for each pass it stands for).
    pub text: &'a [u8],
    pub at: u32,
    pub marks: Marks,
    /// Marked `^I`: an insufficient bid the opponents accepted.
    pub insufficient: bool,
}

/// The Auction section.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Auction<'a> {
    pub calls: Vec<CallRow<'a>>,
    pub end: End,
    /// The seat of the first turn after the `-` placeholders (a call, or
    /// `^S` for a turn skipped), and where it is.
    pub first_turn: Option<(Seat, u32)>,
}

/// A place in the Play section's seat columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place<'a> {
    pub seat: Seat,
    /// The card; None for `-`, `+` or a token that is not a card.
    pub card: Option<Card>,
    pub text: &'a [u8],
    pub at: u32,
    pub marks: Marks,
    /// Marked `^R`: a revoke.
    pub revoke: bool,
    /// Marked `^L`: a lead out of turn.
    pub led_out_of_turn: bool,
    /// `-` or `+`: no card given.
    pub placeholder: bool,
}

/// The play: its places, four a trick, in seat columns from the first
/// leader (PBN's Play section; RBN's plays placed so).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Play<'a> {
    pub places: Vec<Place<'a>>,
    pub end: End,
    /// The tricks in play order, when the notation gives the play so
    /// (RBN: its pseudo plays decide winners that seat columns cannot).
    pub ordered: Option<Vec<Trick>>,
}

/// Where a note belongs: the part of the board it follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Board,
    Auction,
    Play,
}

impl Part {
    pub fn as_str(self) -> &'static str {
        match self {
            Part::Board => "board",
            Part::Auction => "auction",
            Part::Play => "play",
        }
    }
}

/// A note: the part it belongs to, its number (when it has one), its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoteRow<'a> {
    pub part: Part,
    pub number: Option<u32>,
    pub text: Cow<'a, str>,
}

/// Values as written, for the rules' messages.
#[derive(Clone, Debug, Default)]
pub struct Written<'a> {
    pub contract: Option<Cow<'a, str>>,
    pub result: Option<Cow<'a, str>>,
    pub score: Option<Cow<'a, str>>,
}

/// Where (record offsets) a board's values are, for diagnostics.
#[derive(Clone, Copy, Debug, Default)]
pub struct At {
    pub deal: usize,
    pub auction: usize,
    pub play: usize,
    pub result: usize,
    pub score: usize,
}

/// What a board states (its dealer, vulnerability, deal, declarer,
/// contract, result and score), read by its notation.
#[derive(Default)]
pub struct Stated {
    pub dealer: Option<Seat>,
    pub vulnerable: Option<&'static str>,
    pub deal: Option<Deal>,
    pub declarer: Option<(Seat, bool)>,
    pub contract: Option<ContractValue>,
    pub result: Option<(i32, bool)>,
    pub score_ns: Option<i32>,
}

/// What the rules make of the board.
#[derive(Default)]
pub struct Computed {
    pub declarer: Option<Seat>,
    pub contract: Option<String>,
    pub result: Option<i32>,
    pub score_ns: Option<i32>,
    /// The play is to be continued ('+'): the Result counts the tricks
    /// played so far (PBN 3.4.15), not the final result.
    pub partial_result: bool,
    /// Why each null computed value is null.
    pub why: Vec<String>,
}

/// A board as its notation read it.
pub struct Board<'a> {
    pub stated: Stated,
    pub auction: Option<Auction<'a>>,
    /// The seat that leads the first trick (PBN's Play tag, RBN's C).
    pub opening_leader: Option<Seat>,
    pub play: Option<Play<'a>>,
    pub notes: Vec<NoteRow<'a>>,
    /// The players, N E S W.
    pub players: [Option<Cow<'a, str>>; 4],
    pub written: Written<'a>,
    pub at: At,
    /// Rubber or Chicago scoring: a stated score is no duplicate score.
    pub rubber: bool,
    /// Calls' and cards' text is Latin-1.
    pub latin1: bool,
    /// The deal lists some hands' known cards only (RBN's pseudo cards
    /// `x` and `?`): a card played is not checked against it.
    pub partial_hands: bool,
    /// The diagnostic for a note reference without its note (code and
    /// message), in the notation's words.
    pub missing_note: fn(u32, Part) -> (&'static str, String),
}

/// What [`check`] found: the computed values and the play in tricks, with
/// the contract and declarer the play is of.
pub struct Checked {
    pub computed: Computed,
    pub tricks: Option<Vec<Trick>>,
}

/// The deal's hand sizes and cards dealt twice (B050). With
/// `incomplete_ok` (RBN: "empty or incomplete hands are fine"), only a hand
/// of more than 13 cards is of the wrong size.
pub fn check_deal(d: &Deal, at: usize, incomplete_ok: bool, diags: &mut Diags) {
    let hands: deal::Hands<'_> = std::array::from_fn(|s| d[s].as_deref());
    for issue in deal::deal_issues(&hands) {
        let msg = match issue {
            DealIssue::HandSize { cards, .. } if incomplete_ok && cards < 13 => continue,
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
        diags.push(Diag::warning(at, "B050", msg));
    }
}

/// The tricks a complete play has: 13, or an end position's hand size.
pub fn full_play(stated: &Stated) -> usize {
    let size = stated.deal.as_ref().and_then(|d| {
        let hands: deal::Hands<'_> = std::array::from_fn(|s| d[s].as_deref());
        deal::is_end_position(&hands).then(|| hands.iter().flatten().map(|h| h.len()).max())
    });
    size.flatten().unwrap_or(13)
}

/// Runs the bridge rules over a board: the auction's calls (B051, B056),
/// the contract and declarer it gives (B052), the play (B053, B057, B025),
/// the result (B054) and the score (B055); with `compute`, the
/// `computed_*` values (and an info, B060, for each that is null).
pub fn check(b: &Board<'_>, compute: bool, diags: &mut Diags) -> Checked {
    let mut k = Checker { b, diags };
    k.run(compute)
}

/// Writes a board's shared columns of `boards` (what it states, the
/// computed values) and its rows of `seats`, `calls`, `plays`, `tricks`
/// and `notes`.
pub fn write_rows(
    b: &Board<'_>,
    checked: &Checked,
    id: i64,
    compute: bool,
    diags: &mut Diags,
    out: &mut Builders,
) {
    stated_columns(b, &checked.computed, compute, &mut out.boards);
    seats_rows(b, id, &mut out.seats);
    let mut k = Checker { b, diags };
    if let Some(a) = &b.auction {
        k.calls_rows(id, a, &mut out.calls);
    }
    if let (Some(p), Some(t), Some(first)) = (&b.play, &checked.tricks, b.opening_leader) {
        k.plays_rows(id, p, t, first, compute, out);
    }
    k.notes_rows(id, &mut out.notes);
}

struct Checker<'b, 'a, 'd> {
    b: &'b Board<'a>,
    diags: &'d mut Diags,
}

impl<'b, 'a, 'd> Checker<'b, 'a, 'd> {
    fn warn(&mut self, at: usize, code: &'static str, msg: String) {
        self.diags.push(Diag::warning(at, code, msg));
    }

    fn run(&mut self, compute: bool) -> Checked {
        let b = self.b;
        let stated = &b.stated;
        let mut computed = Computed::default();
        let outcome = b.auction.as_ref().map(|a| self.check_auction(a, stated));
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
            self.computed_auction(b.auction.as_ref(), outcome.as_ref(), stated, &mut computed);
        }
        let tricks = match (&b.play, b.opening_leader) {
            (Some(p), Some(first)) => {
                Some(self.tricks_of(p, first, contract, declarer, stated, compute, &mut computed))
            }
            _ => None,
        };
        if compute {
            self.computed_score(contract, declarer, stated, &mut computed);
            if !computed.why.is_empty() {
                self.diags.push(Diag::info(
                    0,
                    "B060",
                    format!("{} (null)", computed.why.join("; ")),
                ));
            }
        }
        Checked { computed, tricks }
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
        let at = self.b.at.auction;
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
                    self.b.written.contract.as_deref().unwrap_or_default(),
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
                let vul = vulnerable(v, d.side());
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
        let rubber = self.b.rubber;
        if let (Some(s), Some(stated_s)) = (c.score_ns, stated.score_ns)
            && s != stated_s
            && !rubber
        {
            let msg = format!(
                "Score \"{}\" ({stated_s} for North-South) but the contract, vulnerability and result score {s} for North-South",
                self.b.written.score.as_deref().unwrap_or_default()
            );
            self.warn(self.b.at.score, "B055", msg);
        }
    }
}
