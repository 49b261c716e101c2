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

fn stated_columns(b: &Board<'_>, c: &Computed, compute: bool, o: &mut BoardsBuilder) {
    let s = &b.stated;
    o.dealer.append_option(s.dealer.map(Seat::as_str));
    o.vulnerable.append_option(s.vulnerable);
    o.deal.append_option(s.deal.as_ref().map(deal_text));
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
    o.result.append_option(s.result.map(|r| r.0));
    o.score_ns.append_option(s.score_ns);
    o.opening_leader
        .append_option(b.opening_leader.map(Seat::as_str));
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

fn seats_rows(b: &Board<'_>, id: i64, o: &mut BridgeSeatsBuilder) {
    for seat in Seat::ALL {
        o.board_id.append_value(id);
        o.seat.append_value(seat.as_str());
        o.player.append_option(b.players[seat as usize].as_deref());
        let cards = b
            .stated
            .deal
            .as_ref()
            .and_then(|d| d[seat as usize].as_deref());
        o.cards.append_cards(cards);
        o.hcp.append_option(cards.map(|c| deal::hcp(c) as i32));
    }
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
            _ if p.ordered.is_some() => p.ordered.clone().unwrap(),
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
            let at = self.b.at.play;
            let msg = format!(
                "the play starts with {}, but the opening lead is {}'s (declarer {}'s left-hand opponent; ^L marks a lead out of turn)",
                first.as_str(),
                d.next().as_str(),
                d.as_str()
            );
            self.warn(at, "B057", msg);
        }
        // Cards not held, revokes.
        if let Some(deal) = stated.deal.as_ref().filter(|_| !self.b.partial_hands) {
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
        let full = full_play(stated);
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
                let msg = format!(
                    "Result \"{}\", but the play is to be continued ('+') and declarer has won {won} of the {} tricks played (PBN 3.4.15: the Result of a play not ended counts the tricks played)",
                    self.b.written.result.as_deref().unwrap_or_default(),
                    done.len()
                );
                self.warn(self.b.at.result, "B054", msg);
            } else if r < won || r > most {
                let msg = format!(
                    "Result \"{}\", but declarer has won {won} of the first {} tricks played and can win {most} at most",
                    self.b.written.result.as_deref().unwrap_or_default(),
                    done.len()
                );
                self.warn(self.b.at.result, "B054", msg);
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
            let msg = format!(
                "Result \"{}\" but declarer won {won} tricks in the play (a '^' before the Result marks a result agreed otherwise)",
                self.b.written.result.as_deref().unwrap_or_default()
            );
            self.warn(self.b.at.result, "B054", msg);
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

    #[allow(clippy::too_many_arguments)]
    /// The text of note `n` of `part` (or of the board's notes), with a
    /// warning when there is none (B026).
    fn note_text(&mut self, n: u32, part: Part, at: u32) -> Option<Cow<'a, str>> {
        let find = |p: Part| {
            self.b
                .notes
                .iter()
                .find(|x| x.part == p && x.number == Some(n))
                .map(|x| x.text.clone())
        };
        let found = find(part).or_else(|| find(Part::Board));
        if found.is_none() {
            let (code, msg) = (self.b.missing_note)(n, part);
            self.warn(at as usize, code, msg);
        }
        found
    }

    fn calls_rows(&mut self, id: i64, a: &Auction<'a>, o: &mut CallsBuilder) {
        for (seq, c) in a.calls.iter().enumerate() {
            o.board_id.append_value(id);
            o.seq.append_value(seq as i32);
            o.seat.append_value(c.seat.as_str());
            o.call.append_value(call_text(c.call));
            o.text.append_value(bytes_text(c.text, self.b.latin1));
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
                o.text.append_value(bytes_text(pl.text, self.b.latin1));
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
            if places.len() < 4 || n < 4 || !o.cards.append_known(&cards[..n]) {
                o.cards.append_cards::<Card>(None);
            }
            o.computed_winner
                .append_option(t.winner.filter(|_| compute).map(Seat::as_str));
        }
    }

    fn notes_rows(&self, id: i64, o: &mut BridgeNotesBuilder) {
        for n in &self.b.notes {
            o.board_id.append_value(id);
            o.section.append_value(n.part.as_str());
            o.number.append_option(n.number.map(|x| x as i32));
            o.text.append_value(&n.text);
        }
    }
}
