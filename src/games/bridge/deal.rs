//! Deals: the cards of each seat, their checks and high-card points.

use super::card::Card;
use super::seat::Seat;

/// What is wrong with a deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DealIssue {
    /// A hand of other than 13 cards (when not all hands hold the same
    /// number of fewer cards: an end position).
    HandSize { seat: Seat, cards: usize },
    /// A card dealt more than once: to these seats (a seat twice when its
    /// own hand holds the card twice).
    Duplicate { card: Card, seats: Vec<Seat> },
}

/// The cards each seat holds, by seat (N E S W); None for a hand not given.
pub type Hands<'h> = [Option<&'h [Card]>; 4];

/// A deal: each seat's cards (N E S W), None for a hand not given.
pub type Deal = [Option<Vec<Card>>; 4];

/// Whether the given hands are an end position: each holds the same number
/// of cards, fewer than 13 (PBN 3.10).
pub fn is_end_position(hands: &Hands<'_>) -> bool {
    let mut sizes = hands.iter().flatten().map(|h| h.len());
    match sizes.next() {
        Some(n) => n < 13 && sizes.all(|m| m == n),
        None => false,
    }
}

/// The issues of a deal: hand sizes (unless an end position) and cards
/// dealt more than once, in card order.
pub fn deal_issues(hands: &Hands<'_>) -> Vec<DealIssue> {
    let mut issues = Vec::new();
    if !is_end_position(hands) {
        for (seat, h) in Seat::ALL.into_iter().zip(hands) {
            if let Some(h) = h
                && h.len() != 13
            {
                issues.push(DealIssue::HandSize {
                    seat,
                    cards: h.len(),
                });
            }
        }
    }
    let mut count = [0u8; 52];
    for h in hands.iter().flatten() {
        for c in h.iter() {
            count[c.index()] = count[c.index()].saturating_add(1);
        }
    }
    for (i, _) in count.iter().enumerate().filter(|(_, n)| **n > 1) {
        let card = Card::from_index(i);
        let seats = Seat::ALL
            .into_iter()
            .zip(hands)
            .flat_map(|(seat, h)| {
                let n = h.map_or(0, |h| h.iter().filter(|&&c| c == card).count());
                std::iter::repeat_n(seat, n)
            })
            .collect();
        issues.push(DealIssue::Duplicate { card, seats });
    }
    issues
}

/// High-card points of a hand: ace 4, king 3, queen 2, jack 1.
pub fn hcp(hand: &[Card]) -> u32 {
    hand.iter().map(|c| c.rank.hcp()).sum()
}

/// The cards of a complete deal's hand that no seat was given, when
/// exactly one hand is missing and the other three hold 13 distinct cards
/// each (a deal that gives three hands implies the fourth).
pub fn fourth_hand(hands: &Hands<'_>) -> Option<(Seat, Vec<Card>)> {
    let missing: Vec<usize> = (0..4).filter(|&s| hands[s].is_none()).collect();
    let [m] = missing[..] else { return None };
    if hands.iter().flatten().any(|h| h.len() != 13) || !deal_issues(hands).is_empty() {
        return None;
    }
    let mut seen = [false; 52];
    for c in hands.iter().flatten().copied().flatten() {
        seen[c.index()] = true;
    }
    let rest = (0..52)
        .filter(|&i| !seen[i])
        .map(Card::from_index)
        .collect();
    Some((Seat::ALL[m], rest))
}

/// A hand as the tables write it: `S.H.D.C`, ranks high to low.
pub fn hand_text(cards: &[Card]) -> String {
    let mut s = Vec::with_capacity(17);
    push_hand(&mut s, cards);
    String::from_utf8(s).expect("ASCII")
}

/// Appends [`hand_text`] of `cards` to `s` (ASCII bytes).
fn push_hand(s: &mut Vec<u8>, cards: &[Card]) {
    // Cards sort by suit (S H D C) then rank high to low: the order written.
    let sorted;
    let cards = if cards.is_sorted() {
        cards
    } else {
        sorted = {
            let mut v = cards.to_vec();
            v.sort_unstable();
            v
        };
        &sorted[..]
    };
    let mut suit = 0usize;
    for c in cards {
        while (c.suit as usize) > suit {
            s.push(b'.');
            suit += 1;
        }
        s.push(c.rank.letter());
    }
    while suit < 3 {
        s.push(b'.');
        suit += 1;
    }
}

/// The normalized deal: `N:` then the hands clockwise from North, `-` for
/// a hand not given.
pub fn deal_text(deal: &Deal) -> String {
    let mut s = Vec::with_capacity(72);
    s.extend_from_slice(b"N:");
    for (k, h) in deal.iter().enumerate() {
        if k > 0 {
            s.push(b' ');
        }
        match h {
            Some(cards) => push_hand(&mut s, cards),
            None => s.push(b'-'),
        }
    }
    String::from_utf8(s).expect("ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bridge::card::{Rank, Suit};

    fn hand(spec: &str) -> Vec<Card> {
        // "AKQ.JT9..2" spades, hearts, diamonds, clubs.
        let mut v = Vec::new();
        for (suit, ranks) in Suit::ALL.into_iter().zip(spec.split('.')) {
            for r in ranks.bytes() {
                v.push(Card {
                    suit,
                    rank: Rank::parse(r).unwrap(),
                });
            }
        }
        v
    }

    #[test]
    fn a_full_deal_is_clean_and_three_hands_imply_the_fourth() {
        // The spec's example game (chapter 1.2), from North.
        let n = hand(".63.AKQ987.A9732");
        let e = hand("A8654.KQ5.T.QJT6");
        let s = hand("J973.J98742.3.K4");
        let w = hand("KQT2.AT.J6542.85");
        let all: Hands = [Some(&n), Some(&e), Some(&s), Some(&w)];
        assert_eq!(deal_issues(&all), []);
        assert_eq!(all.map(|h| hcp(h.unwrap())), [13, 12, 5, 10]);
        let three: Hands = [Some(&n), Some(&e), None, Some(&w)];
        let (seat, mut rest) = fourth_hand(&three).unwrap();
        rest.sort();
        let mut s_sorted = s.clone();
        s_sorted.sort();
        assert_eq!((seat, rest), (Seat::S, s_sorted));
    }

    #[test]
    fn wrong_sizes_and_duplicates_are_found_but_end_positions_are_fine() {
        let a = hand("AKQ...");
        let b = hand("JT9...");
        assert!(is_end_position(&[Some(&a), Some(&b), None, None]));
        assert_eq!(deal_issues(&[Some(&a), Some(&b), None, None]), []);
        let c = hand("A8...");
        let issues = deal_issues(&[Some(&a), None, Some(&c), None]);
        let sa = Card {
            suit: Suit::S,
            rank: Rank::A,
        };
        assert_eq!(
            issues,
            [
                DealIssue::HandSize {
                    seat: Seat::N,
                    cards: 3
                },
                DealIssue::HandSize {
                    seat: Seat::S,
                    cards: 2
                },
                DealIssue::Duplicate {
                    card: sa,
                    seats: vec![Seat::N, Seat::S]
                }
            ]
        );
    }
}
