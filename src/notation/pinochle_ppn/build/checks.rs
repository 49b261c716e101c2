//! Rule checks of a parsed PPN hand that the rules engine's derivation
//! does not make itself: the auction against the bidding rules (P062), the
//! Trump tag against the declarer's marriages (P063), the first lead (P052)
//! and the message for meld cards shown but not dealt (P055).

use super::compute::{AuctionParse, PlayParse, Scratch};
use super::{Hand, K};
use crate::games::pinochle::rules::Profile;
use crate::games::pinochle::rules::auction::{AuctionIssue, auction_issues};
use crate::games::pinochle::rules::hand::Derived;
use crate::games::pinochle::rules::meld::counts;
use crate::games::pinochle::{Card, Rank, Suit};

impl<'a> Hand<'_, 'a> {
    /// P063: the Trump tag against the declarer's cards: only a declarer
    /// without a marriage leaves trump unnamed (`-`), and such a declarer
    /// cannot name one.
    pub(super) fn check_trump(&mut self, d: &Derived, trump: Option<Option<Suit>>) {
        let (Some(no_marriage), Some(named), Some(declarer)) =
            (d.declarer_without_marriage, trump, d.declarer)
        else {
            return;
        };
        let who = self.seats[declarer].as_str();
        let msg = match (no_marriage, named) {
            (true, Some(suit)) => format!(
                "Trump is {suit:?}, but declarer {who} holds no marriage and cannot name trump: the hand is computed as No Trump"
            ),
            (false, None) => format!(
                "Trump is '-' (No Trump), but declarer {who} holds a marriage and names trump: the hand is computed without trump"
            ),
            _ => return,
        };
        let at = self.tag(K::Trump).map_or(0, |t| self.at(t));
        self.warn(at, "P063", msg);
    }

    /// P052 for the first lead: the declarer leads the first trick.
    pub(super) fn check_lead(&mut self, d: &Derived, play: Option<&PlayParse<'a>>) {
        let (Some(start), Some(declarer)) = (play.and_then(|p| p.start), d.declarer) else {
            return;
        };
        if start != declarer {
            let msg = format!(
                "the play starts with {}, but the declarer ({}) leads the first trick: tricks are read from {} as written",
                self.seats[start].as_str(),
                self.seats[declarer].as_str(),
                self.seats[start].as_str()
            );
            let at = self.tag(K::Play).map_or(0, |t| self.at(t));
            self.warn(at, "P052", msg);
        }
    }

    /// P062: the auction against the bidding rules (who calls first, rising
    /// bids from the profile's minimum, Pass for good, when it ends).
    pub(super) fn check_auction(
        &mut self,
        a: &AuctionParse<'a>,
        profile: &Profile,
        scratch: &mut Scratch,
    ) {
        let Some(start) = a.start else { return };
        let mut issues = std::mem::take(&mut scratch.auction_issues);
        let calls = a.calls.iter().map(|c| (c.pos(start), c.call()));
        let dealer = self
            .dealer
            .and_then(|d| self.seats.iter().position(|&x| x == d));
        let unlisted = auction_issues(
            calls,
            start,
            dealer,
            profile.min_bid,
            a.terminated,
            &mut issues,
        );
        self.diags.add_unlisted(unlisted);
        if issues.is_empty() {
            scratch.auction_issues = issues;
            return;
        }
        let seats = self.seats;
        let tag_at = self.tag(K::Auction).map_or(0, |t| self.at(t));
        let call_at = |i: usize| a.calls.get(i).map_or(tag_at, |c| c.at as usize);
        let shown = |i: usize| &a.calls[i].text;
        for issue in issues.drain(..) {
            let (at, msg) = match issue {
                AuctionIssue::WrongStart { first, expected } => (
                    tag_at,
                    format!(
                        "the auction starts with {}, but the first call is the dealer's left's ({})",
                        seats[first].as_str(),
                        seats[expected].as_str()
                    ),
                ),
                AuctionIssue::LowOpening { call, bid, min } => (
                    call_at(call),
                    format!(
                        "opening bid {bid} is below the minimum bid of rules profile {} ({min})",
                        profile.name
                    ),
                ),
                AuctionIssue::NotHigher { call, bid, high } => (
                    call_at(call),
                    format!("bid {bid} is not above the highest bid before it ({high})"),
                ),
                AuctionIssue::AfterPass { call, seat } => (
                    call_at(call),
                    format!(
                        "{} passed before and is out of the auction, found \"{}\" (expected '-')",
                        seats[seat].as_str(),
                        shown(call)
                    ),
                ),
                AuctionIssue::OutWithoutPass { seat, round, pos } => (
                    a.outs
                        .iter()
                        .find(|o| o.0 as usize == pos)
                        .map_or(tag_at, |o| o.1 as usize),
                    format!(
                        "'-' for {} in round {round}, who has not passed (taken as out from there)",
                        seats[seat].as_str()
                    ),
                ),
                AuctionIssue::AfterEnd { call } => (
                    call_at(call),
                    format!(
                        "the auction was over, found \"{}\" after it (the calls after it are not checked)",
                        shown(call)
                    ),
                ),
                AuctionIssue::Unfinished { still_in } => {
                    let names: Vec<&str> = still_in.iter().map(|s| seats[*s].as_str()).collect();
                    (
                        tag_at,
                        format!(
                            "the auction stops while {} can still call (end it with '*' if it was cut short)",
                            names.join(", ")
                        ),
                    )
                }
            };
            self.warn(at, "P062", msg);
        }
        scratch.auction_issues = issues;
    }

    /// P055 for meld cards shown that the seat was not dealt, as many times
    /// (found by the rules: `Derived::shown_not_dealt`).
    pub(super) fn report_shown(&mut self, pos: usize, shown: &[Card], dealt: &[Card]) {
        let (show, have) = (counts(shown), counts(dealt));
        let mut excess = Vec::new();
        for suit in Suit::DOT_ORDER {
            for rank in Rank::ALL {
                let (s, h) = (
                    show[suit as usize][rank as usize],
                    have[suit as usize][rank as usize],
                );
                if s > h {
                    let card = Card { suit, rank };
                    excess.push(format!("{} ({s} shown, {h} dealt)", card.as_str()));
                }
            }
        }
        let at = self.tag(K::Melds).map_or(0, |t| self.at(t));
        let msg = format!(
            "{}'s Melds shows cards it was not dealt: {}",
            self.seats[pos].as_str(),
            excess.join(", ")
        );
        self.warn(at, "P055", msg);
    }
}
