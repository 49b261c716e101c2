//! The play: tricks in play order from seat columns, each trick's winner,
//! the leader of the next, and the rules of following suit.

use super::card::{Card, Suit};
use super::seat::Seat;

/// A trick as the notation gives it: the card each seat played (by seat,
/// N E S W; None for a card not known or not played).
pub type BySeat = [Option<Card>; 4];

/// A trick put in play order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trick {
    /// The seat that led; None when the trick before's winner is unknown.
    pub leader: Option<Seat>,
    /// The cards in play order from the leader, with their seats; when the
    /// leader is unknown, by seat from North.
    pub cards: Vec<(Seat, Option<Card>)>,
    /// The winner, when every card of the trick is known.
    pub winner: Option<Seat>,
}

/// The winner among `cards` (in play order, the first led) under `trump`:
/// the highest trump, else the highest card of the suit led.
pub fn winner(trump: Option<Suit>, cards: &[(Seat, Card)]) -> Option<Seat> {
    let (_, lead) = cards.first()?;
    let beats = |a: &Card, b: &Card| {
        if a.suit == b.suit {
            a.rank > b.rank
        } else {
            Some(a.suit) == trump
        }
    };
    let mut best = cards[0];
    for &(s, c) in &cards[1..] {
        if beats(&c, &best.1) && (c.suit == lead.suit || Some(c.suit) == trump) {
            best = (s, c);
        }
    }
    Some(best.0)
}

/// [`winner`] of a trick whose cards may be unknown: None unless all are
/// known. Allocates nothing.
fn winner_of_known(trump: Option<Suit>, cards: &[(Seat, Option<Card>)]) -> Option<Seat> {
    let mut known = [(Seat::N, Card::from_index(0)); 4];
    if cards.len() > 4 {
        return None;
    }
    for (k, &(s, c)) in known.iter_mut().zip(cards) {
        *k = (s, c?);
    }
    winner(trump, &known[..cards.len()])
}

/// The tricks in play order: the first led by `first_leader`, each later one
/// by the winner of the trick before.
pub fn in_play_order(first_leader: Seat, tricks: &[BySeat], trump: Option<Suit>) -> Vec<Trick> {
    in_play_order_led(first_leader, tricks, trump, |_| None)
}

/// As [`in_play_order`], where `led_out_of_turn(t)` names the seat that led
/// trick `t` out of turn, when one did (PBN's `^L`: the other three follow
/// clockwise from it).
pub fn in_play_order_led(
    first_leader: Seat,
    tricks: &[BySeat],
    trump: Option<Suit>,
    led_out_of_turn: impl Fn(usize) -> Option<Seat>,
) -> Vec<Trick> {
    let mut out = Vec::with_capacity(tricks.len());
    let mut leader = Some(first_leader);
    for (k, t) in tricks.iter().enumerate() {
        if let Some(l) = led_out_of_turn(k) {
            leader = Some(l);
        }
        let first = leader.unwrap_or(Seat::N);
        let cards: Vec<(Seat, Option<Card>)> = (0..4)
            .map(|k| {
                let s = first.after(k);
                (s, t[s as usize])
            })
            .collect();
        let won = match leader {
            Some(_) => winner_of_known(trump, &cards),
            None => None,
        };
        out.push(Trick {
            leader,
            cards,
            winner: won,
        });
        leader = won;
    }
    out
}

/// A play as a notation that writes plays in play order gives it (RBN).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    Card(Card),
    /// The lowest card the seat still holds of the suit led (RBN `-`).
    Lowest,
    /// The highest (RBN `+`).
    Highest,
    /// A card not named (RBN `~`, `Y`).
    Unknown,
    /// An immaterial discard, its card not named (RBN `.`): not of the
    /// suit led, no trump, so it cannot win the trick.
    Discard,
}

/// Tricks from plays in play order: each trick's plays from its leader
/// clockwise, the first trick led by `first_leader`, each later one by the
/// winner of the trick before. `Lowest` and `Highest` become the card they
/// stand for when `deal` gives the seat's hand and it still holds the suit
/// led (else they stay unknown). Stops at a trick whose leader is not
/// known (a trick before it has an unknown card): the number of plays not
/// placed is returned with the tricks.
pub fn in_order(
    first_leader: Seat,
    tricks: &[Vec<Played>],
    trump: Option<Suit>,
    deal: Option<&super::deal::Deal>,
) -> (Vec<Trick>, usize) {
    let mut left: [Option<u64>; 4] = std::array::from_fn(|s| {
        deal.and_then(|d| d[s].as_ref())
            .map(|h| h.iter().fold(0u64, |m, c| m | 1 << c.index()))
    });
    let mut out = Vec::with_capacity(tricks.len());
    let mut leader = Some(first_leader);
    for (k, plays) in tricks.iter().enumerate() {
        let Some(l) = leader else {
            return (out, tricks[k..].iter().map(Vec::len).sum());
        };
        let mut cards: Vec<(Seat, Option<Card>)> = Vec::with_capacity(4);
        let mut led: Option<Suit> = None;
        for (i, p) in plays.iter().take(4).enumerate() {
            let seat = l.after(i);
            let card = match *p {
                Played::Card(c) => Some(c),
                Played::Lowest | Played::Highest => led.and_then(|suit| {
                    let held = left[seat as usize]? & suit_bits(suit);
                    if held == 0 {
                        return None;
                    }
                    // Card::index runs from the ace down: the highest card
                    // is the lowest bit.
                    let bit = match p {
                        Played::Highest => held.trailing_zeros(),
                        _ => 63 - held.leading_zeros(),
                    };
                    Some(Card::from_index(bit as usize))
                }),
                Played::Unknown | Played::Discard => None,
            };
            if i == 0 {
                led = card.map(|c| c.suit);
            }
            if let (Some(c), Some(h)) = (card, left[seat as usize].as_mut()) {
                *h &= !(1u64 << c.index());
            }
            cards.push((seat, card));
        }
        // The winner, when every card is known but the discards (which
        // cannot win); the lead must be known.
        let discard = |i: usize| plays.get(i) == Some(&Played::Discard);
        let known: Option<Vec<(Seat, Card)>> = (cards.iter().enumerate())
            .filter(|&(i, _)| !discard(i))
            .map(|(_, &(s, c))| c.map(|c| (s, c)))
            .collect();
        let won = match known {
            Some(k) if cards.len() == 4 && !discard(0) => winner(trump, &k),
            // A suitless trick of pseudo plays (RBN `--+-`): the `+` names
            // the hand the lead goes to.
            _ if cards.len() == 4
                && led.is_none()
                && plays
                    .iter()
                    .all(|p| matches!(p, Played::Lowest | Played::Highest))
                && plays.iter().filter(|&&p| p == Played::Highest).count() == 1 =>
            {
                let i = plays.iter().position(|&p| p == Played::Highest).unwrap();
                Some(l.after(i))
            }
            _ => None,
        };
        out.push(Trick {
            leader: Some(l),
            cards,
            winner: won,
        });
        leader = won;
    }
    (out, 0)
}

/// Why a play breaks the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Issue {
    /// A card its seat was not dealt, or had played already.
    NotHeld {
        trick: usize,
        seat: Seat,
        card: Card,
    },
    /// A card of another suit while the seat held a card of the suit led
    /// (and the play does not mark the revoke).
    Revoke {
        trick: usize,
        seat: Seat,
        card: Card,
    },
    /// A card the notation marks as a revoke that is none: a lead, a card
    /// of the suit led, or a discard from a seat without the suit led.
    FalseRevoke {
        trick: usize,
        seat: Seat,
        card: Card,
    },
}

/// The issues of the tricks against the hands dealt (`hands` by seat, None
/// for a hand not known): cards not held, revokes, and marks of a revoke
/// where there is none. `marked(trick, seat)` says the notation marks a
/// revoke there (PBN's `^R`).
pub fn issues(
    hands: &[Option<Vec<Card>>; 4],
    tricks: &[Trick],
    marked: impl Fn(usize, Seat) -> bool,
) -> Vec<Issue> {
    // The cards each seat holds still, a bit a card (Card::index); None
    // for a hand not known.
    let mut left: [Option<u64>; 4] = std::array::from_fn(|s| {
        hands[s]
            .as_ref()
            .map(|h| h.iter().fold(0u64, |m, c| m | 1 << c.index()))
    });
    let mut out = Vec::new();
    for (t, trick) in tricks.iter().enumerate() {
        let led = trick
            .leader
            .and_then(|_| trick.cards.first())
            .and_then(|c| c.1)
            .map(|c| c.suit);
        for (k, &(seat, card)) in trick.cards.iter().enumerate() {
            let (Some(card), Some(hand)) = (card, left[seat as usize].as_mut()) else {
                continue;
            };
            let bit = 1u64 << card.index();
            if *hand & bit == 0 {
                out.push(Issue::NotHeld {
                    trick: t,
                    seat,
                    card,
                });
                continue;
            }
            let revoke =
                k > 0 && led.is_some_and(|led| card.suit != led && *hand & suit_bits(led) != 0);
            let known = k == 0 || led.is_some();
            match (revoke, marked(t, seat)) {
                (true, false) => out.push(Issue::Revoke {
                    trick: t,
                    seat,
                    card,
                }),
                (false, true) if known => out.push(Issue::FalseRevoke {
                    trick: t,
                    seat,
                    card,
                }),
                _ => {}
            }
            *hand &= !bit;
        }
    }
    out
}

/// The bits of a suit's 13 cards (Card::index: a suit's cards in a row).
fn suit_bits(suit: Suit) -> u64 {
    0x1FFF << (suit as usize * 13)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bridge::card::Rank;

    #[test]
    fn plays_in_play_order_and_their_pseudo_cards() {
        use super::super::deal::Deal;
        // Florida Belles (RBN 3.2): 5HX by North, East leads the club king.
        let hand = |s: &str| -> Option<Vec<Card>> {
            let mut v = Vec::new();
            for (suit, ranks) in Suit::ALL.into_iter().zip(s.split('.')) {
                for r in ranks.bytes() {
                    v.push(Card {
                        suit,
                        rank: Rank::parse(r).unwrap(),
                    });
                }
            }
            v.sort();
            Some(v)
        };
        let deal: Deal = [
            hand("J42.AJ7632.J.632"),
            hand("QT3.85.Q86.KQJ54"),
            hand("K9.K94.AT75432.9"),
            hand("A8765.QT.K9.AT87"),
        ];
        let c = |s: &str| Played::Card(card(s));
        let tricks = vec![
            vec![c("CK"), c("C9"), c("C7"), c("C2")],
            vec![c("CQ"), c("H4"), c("C8"), c("C3")],
            vec![c("DA"), c("D9"), Played::Lowest, c("D6")],
            vec![c("D2"), c("DK"), c("H2"), Played::Highest],
        ];
        let (t, unplaced) = in_order(Seat::E, &tricks, Some(Suit::H), Some(&deal));
        assert_eq!(unplaced, 0);
        let winners: Vec<Option<Seat>> = t.iter().map(|t| t.winner).collect();
        assert_eq!(
            winners,
            [Some(Seat::E), Some(Seat::S), Some(Seat::S), Some(Seat::N)]
        );
        // North's '-' under the diamond ace: its only diamond, the jack.
        assert_eq!(t[2].cards[2], (Seat::N, Some(card("DJ"))));
        // East's '+' is its highest diamond left, the queen.
        assert_eq!(t[3].cards[3], (Seat::E, Some(card("DQ"))));
        // An unknown card leaves its trick without a winner, and the plays
        // after it without a place.
        let tricks = vec![
            vec![c("CK"), Played::Unknown, c("C7"), c("C2")],
            vec![c("SA")],
        ];
        let (t, unplaced) = in_order(Seat::E, &tricks, Some(Suit::H), Some(&deal));
        assert_eq!((t.len(), t[0].winner, unplaced), (1, None, 1));
    }

    fn card(s: &str) -> Card {
        let b = s.as_bytes();
        Card {
            suit: Suit::parse(b[0]).unwrap(),
            rank: Rank::parse(b[1]).unwrap(),
        }
    }

    /// A trick by seat N E S W; `-` for a card not known.
    fn by_seat(cards: [&str; 4]) -> BySeat {
        cards.map(|c| (c != "-").then(|| card(c)))
    }

    #[test]
    fn the_spec_example_play_in_play_order() {
        // PBN 2.1 chapter 1.2: 5HX by South, West leads; the Play section's
        // columns are W N E S.
        let columns = [
            ["SK", "H3", "S4", "S3"],
            ["C5", "C2", "C6", "CK"],
            ["S2", "H6", "S5", "S7"],
            ["C8", "CA", "CT", "C4"],
            ["D2", "DA", "DT", "D3"],
            ["D4", "DK", "H5", "H7"],
        ];
        let tricks: Vec<BySeat> = columns
            .iter()
            .map(|[w, n, e, s]| by_seat([n, e, s, w]))
            .collect();
        let t = in_play_order(Seat::W, &tricks, Some(Suit::H));
        let winners: Vec<Option<Seat>> = t.iter().map(|t| t.winner).collect();
        use Seat::*;
        assert_eq!(
            winners,
            [Some(N), Some(S), Some(N), Some(N), Some(N), Some(S)]
        );
        // (East ruffed trick 6 with H5, South overruffed with H7: South
        // then leads the H2 of the spec's seventh line.)
        // Trick 2 is led by North (who ruffed trick 1): C2 C6 CK C5.
        assert_eq!(t[1].leader, Some(N));
        assert_eq!(
            t[1].cards.iter().map(|c| c.0).collect::<Vec<_>>(),
            [N, E, S, W]
        );
        // A trick with an unknown card has no winner, and the next no leader.
        let mut partial = tricks.clone();
        partial[0][1] = None;
        let t = in_play_order(Seat::W, &partial, Some(Suit::H));
        assert_eq!((t[0].winner, t[1].leader, t[1].winner), (None, None, None));
    }

    #[test]
    fn a_lead_out_of_turn_starts_its_trick() {
        use Seat::*;
        // N wins the first trick, but E leads the second (^L): E, S, W, N.
        let tricks = [
            by_seat(["SA", "S2", "S3", "S4"]),
            by_seat(["H2", "HA", "H3", "H4"]),
            by_seat(["C2", "C3", "C4", "C5"]),
        ];
        let t = in_play_order_led(N, &tricks, None, |k| (k == 1).then_some(E));
        assert_eq!((t[0].winner, t[1].leader), (Some(N), Some(E)));
        let order: Vec<Seat> = t[1].cards.iter().map(|c| c.0).collect();
        assert_eq!(order, [E, S, W, N]);
        // E's HA wins; E leads the third trick.
        assert_eq!(
            (t[1].winner, t[2].leader, t[2].winner),
            (Some(E), Some(E), Some(W))
        );
    }

    #[test]
    fn no_trump_and_discards() {
        use Seat::*;
        let cards = [
            (W, card("S2")),
            (N, card("HA")),
            (E, card("S9")),
            (S, card("S3")),
        ];
        assert_eq!(winner(None, &cards), Some(E));
        assert_eq!(winner(Some(Suit::H), &cards), Some(N));
        assert_eq!(winner(Some(Suit::D), &cards), Some(E));
    }

    #[test]
    fn cards_not_held_and_revokes() {
        use Seat::*;
        let hands = [
            Some(vec![card("SA"), card("H2")]),
            Some(vec![card("SK"), card("D2")]),
            Some(vec![card("C3"), card("C4")]),
            None,
        ];
        // N leads SA; E plays D2 holding SK: a revoke; S plays C5 it was not dealt.
        let tricks = in_play_order(N, &[by_seat(["SA", "D2", "C5", "S7"])], None);
        assert_eq!(
            issues(&hands, &tricks, |_, _| false),
            [
                Issue::Revoke {
                    trick: 0,
                    seat: E,
                    card: card("D2")
                },
                Issue::NotHeld {
                    trick: 0,
                    seat: S,
                    card: card("C5")
                }
            ]
        );
        // Marked as a revoke (^R): not an issue.
        assert_eq!(issues(&hands, &tricks, |t, s| t == 0 && s == E).len(), 1);
    }
}
