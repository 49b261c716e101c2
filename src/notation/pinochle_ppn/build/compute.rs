//! The rules engine applied to a parsed PPN hand: which profile applies, what
//! the rules derive (the `computed_*` columns), and warnings wherever the
//! record says something else. Values as written are never changed here.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use super::{Hand, K, text};
use crate::columns::table::append_i32s;
use crate::games::pinochle::rules::Profile;
use crate::games::pinochle::rules::auction::{AuctionIssue, Call, SeatCall};
use crate::games::pinochle::rules::hand::{
    Derived, Issue, PLAYERS, Stated, TEAMS, TrickResult, derive_into,
};
use crate::games::pinochle::rules::trick::{Violation, winner};
use crate::games::pinochle::tables::HandsBuilder;
use crate::games::pinochle::{Card, Seat, Suit};
use crate::notation::pinochle_ppn::values::{self, HandEntry};

/// Which rules to apply, chosen per hand.
#[derive(Clone, Debug)]
pub struct RulesConfig {
    /// Compute the derived columns and the rule warnings at all.
    pub compute: bool,
    /// A profile the user forces on every hand (`--rules FILE`).
    pub forced: Option<Arc<Profile>>,
    /// Profiles that `Scoring` and `Competition` values can name; the first is the default.
    pub known: Vec<Arc<Profile>>,
}

impl Default for RulesConfig {
    fn default() -> Self {
        RulesConfig {
            compute: true,
            forced: None,
            known: vec![Arc::new(Profile::standard())],
        }
    }
}

/// The vectors a hand's sections and rules fill, kept from one hand to the
/// next so that each hand does not allocate its own: taken empty (with
/// room) by [`Scratch::auction`], [`Scratch::play`] and the rules, and given
/// back emptied, by [`Scratch::keep`] at the end of a hand and by the rules
/// (`compute`) as soon as they are done with theirs.
#[derive(Default)]
pub struct Scratch {
    calls: Vec<CallParse<'static>>,
    outs: Vec<(u32, u32)>,
    cards: Vec<Option<Card>>,
    card_at: Vec<u32>,
    tricks: Vec<TrickParse>,
    stated_calls: Vec<SeatCall>,
    pub(super) auction_issues: Vec<AuctionIssue>,
    ranges: Vec<Range<usize>>,
    results: Vec<TrickResult>,
}

/// An emptied vector's room for elements of the same type with another
/// lifetime: the in-place `collect` keeps the allocation (same size and
/// alignment), and with no element the closure never runs.
fn relabel<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter().map(|_| unreachable!("empty")).collect()
}

impl Scratch {
    pub fn auction<'a>(&mut self, start: Option<usize>) -> AuctionParse<'a> {
        AuctionParse {
            start,
            terminated: false,
            calls: relabel(std::mem::take(&mut self.calls)),
            outs: std::mem::take(&mut self.outs),
        }
    }

    pub fn play<'a>(&mut self, start: Option<usize>) -> PlayParse<'a> {
        PlayParse {
            start,
            terminated: false,
            cards: std::mem::take(&mut self.cards),
            unread: Vec::new(),
            card_at: std::mem::take(&mut self.card_at),
            tricks: std::mem::take(&mut self.tricks),
        }
    }

    /// Takes back the vectors of a hand's sections and rules, emptied.
    pub fn keep(
        &mut self,
        auction: Option<AuctionParse>,
        play: Option<PlayParse>,
        computed: Option<Computed>,
    ) {
        if let Some(mut a) = auction {
            self.calls = relabel(a.calls);
            a.outs.clear();
            self.outs = a.outs;
        }
        if let Some(mut p) = play {
            p.cards.clear();
            p.card_at.clear();
            p.tricks.clear();
            (self.cards, self.card_at, self.tricks) = (p.cards, p.card_at, p.tricks);
        }
        if let Some(c) = computed {
            self.results = c.derived.tricks;
        }
    }
}

#[derive(Debug)]
pub struct CallParse<'a> {
    /// Position of the caller in the game's seats.
    pub seat: Option<usize>,
    /// Byte offset of the call in the record.
    pub at: u32,
    /// `Pass` (in any case).
    pub pass: bool,
    pub round: i32,
    pub text: Cow<'a, str>,
    pub bid: Option<i32>,
}

impl CallParse<'_> {
    /// The call as the rules read it.
    pub fn call(&self) -> Call {
        match self.bid {
            Some(b) => Call::Bid(b),
            None if self.pass => Call::Pass,
            None => Call::Unknown,
        }
    }

    /// Position among the auction's entries (`-` included) of a four-seat
    /// auction whose first entry is seat `start`'s.
    pub fn pos(&self, start: usize) -> usize {
        let seat = self.seat.unwrap_or(start);
        (self.round as usize - 1) * PLAYERS + (seat + PLAYERS - start) % PLAYERS
    }
}

#[derive(Debug, Default)]
pub struct AuctionParse<'a> {
    pub start: Option<usize>,
    pub terminated: bool,
    pub calls: Vec<CallParse<'a>>,
    /// The `-` entries: (position among all entries, byte offset).
    pub outs: Vec<(u32, u32)>,
}

#[derive(Debug)]
pub struct TrickParse {
    /// The trick's cards in the play's card list.
    pub range: Range<usize>,
    pub winner: Option<Seat>,
    pub points: Option<i32>,
    /// Where the annotation is, if any.
    pub ann_at: Option<u32>,
}

#[derive(Debug, Default)]
pub struct PlayParse<'a> {
    pub start: Option<usize>,
    pub terminated: bool,
    pub cards: Vec<Option<Card>>,
    /// The cards that could not be read, as written: (index in `cards`, text),
    /// in play order. (Read cards are shown by their canonical names.)
    pub unread: Vec<(usize, Cow<'a, str>)>,
    pub card_at: Vec<u32>,
    pub tricks: Vec<TrickParse>,
}

impl PlayParse<'_> {
    /// Cards `range` as shown in the tables: canonical, or as written when
    /// unreadable.
    pub fn shown(&self, range: Range<usize>) -> impl Iterator<Item = &str> {
        range.map(move |i| match self.cards[i] {
            Some(c) => c.as_str(),
            None => self
                .unread
                .binary_search_by_key(&i, |u| u.0)
                .map_or("", |k| &self.unread[k].1),
        })
    }
}

/// The score tags as read (`None`: absent or unreadable).
pub struct Scores<'s> {
    pub game: Option<&'s [Option<i32>]>,
    pub meld: Option<&'s [Option<i32>]>,
    pub play: Option<&'s [Option<i32>]>,
    pub hand: Option<&'s [Option<i32>]>,
}

pub struct Computed<'d> {
    pub profile: &'d Profile,
    pub derived: Derived<'d>,
}

pub(super) fn join(v: &[i32]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(":")
}

pub(super) fn join_opt(v: &[Option<i32>]) -> String {
    v.iter()
        .map(|x| x.map_or("*".to_string(), |x| x.to_string()))
        .collect::<Vec<_>>()
        .join(":")
}

impl<'a> Hand<'_, 'a> {
    fn choose_profile<'c>(&self, cfg: &'c RulesConfig) -> Option<&'c Profile> {
        if let Some(f) = &cfg.forced {
            return Some(f);
        }
        for k in [K::Scoring, K::Competition] {
            if let Some(t) = self.tag(k) {
                let v = text(t);
                if let Some(p) = cfg.known.iter().find(|p| p.answers_to(&v)) {
                    return Some(p);
                }
            }
        }
        cfg.known.first().map(|p| &**p)
    }

    /// Why the profile does not cover this hand, if it does not.
    fn not_covered(&self, scores: &Scores) -> Option<String> {
        if self.players != PLAYERS {
            return Some(format!("the game has {} players", self.players));
        }
        if let Some(c) = self.tag(K::Competition).map(text) {
            let l = c.to_ascii_lowercase();
            if [
                "single",
                "triple",
                "pass",
                "partner",
                "auction",
                "cutthroat",
            ]
            .iter()
            .any(|w| l.contains(w))
            {
                return Some(format!("Competition is \"{c}\""));
            }
        }
        for k in [K::Passed, K::Kitty, K::Discard, K::Partner, K::Holding] {
            if self.tag(k).is_some() {
                return Some(format!(
                    "the hand has a {} tag (a variant with an exchange)",
                    super::TAG_NAMES[k as usize]
                ));
            }
        }
        for (k, v) in [
            (K::GameScores, scores.game),
            (K::MeldScores, scores.meld),
            (K::PlayScores, scores.play),
            (K::HandScores, scores.hand),
        ] {
            if let Some(n) = v.map(|v| v.len())
                && n != TEAMS
            {
                return Some(format!("{} lists {n} teams", super::TAG_NAMES[k as usize]));
            }
        }
        None
    }

    fn info(&mut self, code: &'static str, msg: String) {
        self.diags.push(crate::error::Diag {
            severity: crate::error::Severity::Info,
            code,
            at: 0,
            message: msg,
        });
    }

    fn seat_of(&self, k: K) -> Option<usize> {
        let v = self.present(k as usize)?;
        let s = Seat::parse(v.trim_ascii())?;
        self.seats.iter().position(|&x| x == s)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn compute<'d>(
        &mut self,
        cfg: &'d RulesConfig,
        auction: Option<&AuctionParse<'a>>,
        play: Option<&PlayParse<'a>>,
        dealt: &[Option<HandEntry<'d>>],
        shown: [Option<&'d [Card]>; PLAYERS],
        scores: &Scores,
        scratch: &mut Scratch,
    ) -> Option<Computed<'d>> {
        if !cfg.compute {
            return None;
        }
        let profile = self.choose_profile(cfg)?;
        if let Some(why) = self.not_covered(scores) {
            let msg = format!(
                "rules profile {} covers double-deck four-handed partnership pinochle and {why}: computed values are null",
                profile.name
            );
            self.info("P060", msg);
            return None;
        }
        let trump = self
            .present(K::Trump as usize)
            .and_then(|v| match v.trim_ascii() {
                b"-" => Some(None),
                [b] => Suit::parse(*b).map(Some),
                _ => None,
            });
        let mut calls = std::mem::take(&mut scratch.stated_calls);
        if let Some(a) = auction {
            calls.extend(a.calls.iter().enumerate().map(|(i, c)| SeatCall {
                seat: c.seat,
                pos: a.start.map_or(i, |start| c.pos(start)),
                call: c.call(),
            }));
        }
        let mut ranges = std::mem::take(&mut scratch.ranges);
        if let Some(p) = play {
            ranges.extend(p.tricks.iter().map(|t| t.range.clone()));
        }
        let mut deal: [Option<&[Card]>; PLAYERS] = [None; PLAYERS];
        for (slot, e) in deal.iter_mut().zip(dealt) {
            *slot = e.and_then(|e| e.cards);
        }
        let stated = Stated {
            trump,
            calls: &calls,
            declarer: self.seat_of(K::Declarer),
            contract: self
                .present(K::Contract as usize)
                .and_then(values::parse_i32),
            play_start: play.and_then(|p| p.start),
            cards: play.map_or(&[], |p| &p.cards),
            tricks: &ranges,
            play_terminated: play.is_some_and(|p| p.terminated),
            terminated: self.present(K::Termination as usize).is_some(),
            deal,
            shown,
        };
        let d = derive_into(&stated, profile, std::mem::take(&mut scratch.results));
        calls.clear();
        ranges.clear();
        (scratch.stated_calls, scratch.ranges) = (calls, ranges);
        if let Some(a) = auction {
            self.check_auction(a, profile, scratch);
        }
        self.check_trump(&d, trump);
        self.check_lead(&d, play);
        self.report_issues(&d, play, trump.flatten());
        self.compare_hand(&d, auction.is_some(), scores);
        if !d.missing.is_empty() {
            let msg = format!("some computed values are null: {}", d.missing.join("; "));
            self.info("P061", msg);
        }
        Some(Computed {
            profile,
            derived: d,
        })
    }

    fn report_issues(&mut self, d: &Derived, play: Option<&PlayParse<'a>>, trump: Option<Suit>) {
        let deal_at = self.tag(K::Deal).map_or(0, |t| self.at(t));
        let seats = self.seats;
        // The tricks' ranges follow one another: found by halving, not by
        // a scan per issue (a record of a million tricks has millions).
        let trick_of = |i: usize| {
            play.and_then(|p| {
                let k = p.tricks.partition_point(|t| t.range.end <= i);
                p.tricks.get(k).filter(|t| t.range.contains(&i)).map(|_| k)
            })
            .map_or(0, |k| k + 1)
        };
        self.diags.add_unlisted(d.issues_unlisted);
        for issue in &d.issues {
            let (at, code, msg) = match issue {
                Issue::HandSize { seat, cards } => (
                    deal_at,
                    "P050",
                    format!(
                        "{} was dealt {cards} card{}, expected 20",
                        seats[*seat].as_str(),
                        if *cards == 1 { "" } else { "s" }
                    ),
                ),
                Issue::Deck { missing, extra } => {
                    let mut parts = Vec::new();
                    if !missing.is_empty() {
                        parts.push(format!("missing {}", deck_cards(missing)));
                    }
                    if !extra.is_empty() {
                        parts.push(format!("extra {}", deck_cards(extra)));
                    }
                    (
                        deal_at,
                        "P050",
                        format!(
                            "the deal is not a double deck of 80 cards: {}",
                            parts.join(", ")
                        ),
                    )
                }
                Issue::NotHeld {
                    index,
                    seat,
                    card,
                    already_played,
                } => (
                    play.map_or(0, |p| p.card_at[*index] as usize),
                    "P051",
                    format!(
                        "trick {}: {} plays {}, which {} {}",
                        trick_of(*index),
                        seats[*seat].as_str(),
                        card.as_str(),
                        seats[*seat].as_str(),
                        if *already_played {
                            "had already played"
                        } else {
                            "was not dealt"
                        }
                    ),
                ),
                Issue::Illegal {
                    index,
                    seat,
                    card,
                    violation,
                } => (
                    play.map_or(0, |p| p.card_at[*index] as usize),
                    "P052",
                    format!(
                        "trick {}: {} plays {} but {}",
                        trick_of(*index),
                        seats[*seat].as_str(),
                        card.as_str(),
                        broken_rule(*violation, play, trick_of(*index), *index, trump)
                    ),
                ),
            };
            self.warn(at, code, msg);
        }
    }

    fn compare_hand(&mut self, d: &Derived, has_auction: bool, scores: &Scores) {
        let seats = self.seats;
        if has_auction {
            if let (Some(c), Some(a)) = (d.declarer, self.seat_of(K::Declarer))
                && c != a
            {
                let at = self.at(self.tag(K::Declarer).unwrap());
                let msg = format!(
                    "declarer is {} by the auction, annotated {}",
                    seats[c].as_str(),
                    seats[a].as_str()
                );
                self.warn(at, "P058", msg);
            }
            if let (Some(c), Some(a)) = (
                d.contract,
                self.present(K::Contract as usize)
                    .and_then(values::parse_i32),
            ) && c != a
            {
                let at = self.at(self.tag(K::Contract).unwrap());
                self.warn(
                    at,
                    "P059",
                    format!("contract is {c} by the auction, annotated {a}"),
                );
            }
        }
        let Some(score) = &d.score else { return };
        if let Some(v) = self.present(K::Result as usize)
            && !score
                .outcome
                .as_str()
                .as_bytes()
                .eq_ignore_ascii_case(v.trim_ascii())
        {
            let at = self.at(self.tag(K::Result).unwrap());
            let msg = format!(
                "result is {} by the rules, annotated {}",
                score.outcome.as_str(),
                String::from_utf8_lossy(v.trim_ascii())
            );
            self.warn(at, "P057", msg);
        }
        for (k, computed, annotated) in [
            (K::MeldScores, &score.meld_scores, scores.meld),
            (K::PlayScores, &score.play_scores, scores.play),
            (K::HandScores, &score.hand_scores, scores.hand),
        ] {
            let Some(annotated) = annotated else {
                continue;
            };
            let same = annotated.len() == computed.len()
                && annotated
                    .iter()
                    .zip(computed)
                    .all(|(a, c)| a.is_none_or(|a| a == *c));
            if !same {
                let at = self.at(self.tag(k).unwrap());
                let msg = format!(
                    "{} is {} by the rules, annotated {}",
                    super::TAG_NAMES[k as usize],
                    join(computed),
                    join_opt(annotated)
                );
                self.warn(at, "P056", msg);
            }
        }
    }

    /// Warnings for annotated meld points that the cards do not give.
    pub(super) fn compare_meld(
        &mut self,
        pos: usize,
        annotated: Option<i32>,
        computed: Option<i32>,
    ) {
        if let (Some(a), Some(c)) = (annotated, computed)
            && a != c
        {
            let at = self.tag(K::Melds).map_or(0, |t| self.at(t));
            let msg = format!(
                "{}'s meld is {c} by the cards, annotated {a}",
                self.seats[pos].as_str()
            );
            self.warn(at, "P055", msg);
        }
    }

    /// Warnings for annotated trick winners and points that the cards do not give.
    pub(super) fn compare_trick(
        &mut self,
        k: usize,
        t: &TrickParse,
        c: &crate::games::pinochle::rules::hand::TrickResult,
    ) {
        let at = t.ann_at.unwrap_or(0) as usize;
        if let (Some(a), Some(w)) = (t.winner, c.winner)
            && self.seats.get(w) != Some(&a)
        {
            let msg = format!(
                "trick {} winner is {} by the cards, annotated {}",
                k + 1,
                self.seats[w].as_str(),
                a.as_str()
            );
            self.warn(at, "P053", msg);
        }
        if let (Some(a), Some(p)) = (t.points, c.points)
            && a != p
        {
            let msg = format!(
                "trick {} is worth {p} points by the cards, annotated {a}",
                k + 1
            );
            self.warn(at, "P054", msg);
        }
    }

    pub(super) fn computed_hand_columns(&self, c: Option<&Computed>, o: &mut HandsBuilder) {
        let d = c.map(|c| &c.derived);
        o.rules_profile
            .append_option(c.map(|c| c.profile.name.as_str()));
        o.computed_declarer
            .append_option(d.and_then(|d| d.declarer).map(|s| self.seats[s].as_str()));
        o.computed_contract
            .append_option(d.and_then(|d| d.contract));
        let score = d.and_then(|d| d.score.as_ref());
        // A hand thrown in: nobody melds or plays, every score is 0.
        let zeros = d
            .is_some_and(|d| d.thrown_in)
            .then(crate::games::pinochle::rules::hand::Derived::thrown_in_scores);
        for (b, v) in [
            (&mut o.computed_meld_scores, score.map(|s| &s.meld_scores)),
            (&mut o.computed_play_scores, score.map(|s| &s.play_scores)),
            (&mut o.computed_hand_scores, score.map(|s| &s.hand_scores)),
        ] {
            let v = v.or(zeros.as_ref());
            append_i32s(b, v.map(|v| v.iter().map(|&x| Some(x))));
        }
        o.computed_result
            .append_option(score.map(|s| s.outcome.as_str()));
    }
}

/// Cards of a deck issue: each card once per copy up to four (`CT CT`), a
/// count beyond that (`CA x296`), so that a malformed Deal of thousands of
/// copies gives a short message.
fn deck_cards(v: &[(Card, u64)]) -> String {
    let mut words: Vec<String> = Vec::new();
    for &(c, n) in v {
        if n > 4 {
            words.push(format!("{} x{n}", c.as_str()));
        } else {
            words.extend((0..n).map(|_| c.as_str().to_string()));
        }
    }
    words.join(" ")
}

/// What the play of the card at `index` (in trick `trick`, from 1) should
/// have been: the rule `violation` with the suit led, the trump or the card
/// winning named (as far as the play shows them: the checks run only on
/// tricks led by a known card, and ask no heading after an unknown one).
fn broken_rule(
    violation: Violation,
    play: Option<&PlayParse<'_>>,
    trick: usize,
    index: usize,
    trump: Option<Suit>,
) -> String {
    let before: Vec<Card> = play
        .and_then(|p| p.tricks.get(trick.wrapping_sub(1)))
        .zip(play)
        .map(|(t, p)| {
            p.cards[t.range.start..index]
                .iter()
                .flatten()
                .copied()
                .collect()
        })
        .unwrap_or_default();
    let led = before.first().map(|c| c.suit.as_char());
    match (violation, led, trump) {
        (Violation::MustFollow, Some(led), _) => format!("must follow the suit led ({led})"),
        (Violation::MustTrump, Some(led), Some(t)) => format!(
            "must play a trump ({}) when void in the suit led ({led})",
            t.as_char()
        ),
        (Violation::MustHead, Some(_), _) => format!(
            "must beat the winning card ({}) when able",
            before[winner(&before, trump)].as_str()
        ),
        _ => violation.as_str().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scratch_keeps_the_room_of_a_hand_for_the_next() {
        let mut scratch = Scratch::default();
        let text = String::from("Pass");
        let mut a = scratch.auction(Some(1));
        for round in 1..=40 {
            a.calls.push(CallParse {
                seat: Some(0),
                at: 0,
                pass: true,
                round,
                text: Cow::Borrowed(&text),
                bid: None,
            });
        }
        let mut p = scratch.play(None);
        p.cards.extend([None; 80]);
        p.card_at.extend(0..80);
        p.tricks.push(TrickParse {
            range: 0..4,
            winner: None,
            points: None,
            ann_at: None,
        });
        let room = (a.calls.as_ptr() as usize, a.calls.capacity());
        let cards = (p.cards.as_ptr() as usize, p.cards.capacity());
        scratch.keep(Some(a), Some(p), None);
        drop(text);
        let a = scratch.auction(None);
        let p = scratch.play(Some(2));
        assert_eq!((a.start, a.calls.len()), (None, 0));
        assert_eq!((a.calls.as_ptr() as usize, a.calls.capacity()), room);
        assert_eq!((p.start, p.cards.len(), p.card_at.len()), (Some(2), 0, 0));
        assert_eq!(p.tricks.len(), 0);
        assert_eq!((p.cards.as_ptr() as usize, p.cards.capacity()), cards);
        assert!(p.card_at.capacity() >= 80 && p.tricks.capacity() >= 1);
    }

    #[test]
    fn a_broken_rule_names_the_suit_led_the_trump_or_the_card_winning() {
        let c = |s: &str| Card::parse(s.as_bytes());
        let trick = |range| TrickParse {
            range,
            winner: None,
            points: None,
            ann_at: None,
        };
        let p = PlayParse {
            // Trick 1: CK CA CT CQ; trick 2: DA ? DK DT; trick 3 led by
            // an unknown card.
            cards: ["CK", "CA", "CT", "CQ", "DA", "?", "DK", "DT", "?", "HA"]
                .map(c)
                .to_vec(),
            tricks: vec![trick(0..4), trick(4..8), trick(8..10)],
            ..PlayParse::default()
        };
        let s = Some(Suit::S);
        for (violation, trick, index, trump, want) in [
            (
                Violation::MustFollow,
                1,
                3,
                s,
                "must follow the suit led (C)",
            ),
            (
                Violation::MustTrump,
                2,
                7,
                s,
                "must play a trump (S) when void in the suit led (D)",
            ),
            // The card winning, not the card led.
            (
                Violation::MustHead,
                1,
                2,
                s,
                "must beat the winning card (CA) when able",
            ),
            // Where the trick (or the trump) is not known: the rule alone.
            (Violation::MustFollow, 3, 9, s, "must follow the suit led"),
            (Violation::MustFollow, 0, 3, s, "must follow the suit led"),
            (
                Violation::MustTrump,
                2,
                7,
                None,
                "must play a trump when void in the suit led",
            ),
        ] {
            let got = broken_rule(violation, Some(&p), trick, index, trump);
            assert_eq!(got, want, "{violation:?} at {index}");
        }
    }

    #[test]
    fn deck_cards_lists_copies_up_to_four_then_counts() {
        let c = |s: &str| Card::parse(s.as_bytes()).unwrap();
        assert_eq!(deck_cards(&[]), "");
        assert_eq!(deck_cards(&[(c("CT"), 2), (c("HJ"), 1)]), "CT CT HJ");
        assert_eq!(deck_cards(&[(c("SQ"), 4)]), "SQ SQ SQ SQ");
        assert_eq!(
            deck_cards(&[(c("CA"), 296), (c("DK"), 1), (c("HA"), 5)]),
            "CA x296 DK HA x5"
        );
    }
}
