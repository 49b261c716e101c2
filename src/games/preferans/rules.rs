//! The rules of a Preferans trick: follow suit, else trump, else any card;
//! the highest trump wins, else the highest card of the suit led. A trick
//! has the cards of the players who play (two or three: a defender who did
//! not follow plays no card).

use super::card::{Card, Suit};

/// Why a card breaks the rules of its trick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Issue {
    /// A card the player does not hold (not dealt to them, or played
    /// already).
    NotHeld {
        trick: usize,
        player: usize,
        card: Card,
    },
    /// Another suit while the player holds the suit led.
    NotFollowed {
        trick: usize,
        player: usize,
        card: Card,
    },
    /// Neither the suit led nor trump while the player holds a trump.
    NotTrumped {
        trick: usize,
        player: usize,
        card: Card,
    },
}

/// The winner of a trick: the position in `cards` (play order) of the
/// highest trump, else of the highest card of the suit led. None for an
/// empty trick.
pub fn winner(cards: &[Card], trump: Option<Suit>) -> Option<usize> {
    let led = cards.first()?.suit;
    let key = |c: &Card| {
        let class = if Some(c.suit) == trump {
            2
        } else if c.suit == led {
            1
        } else {
            0
        };
        (class, c.rank)
    };
    (0..cards.len()).max_by_key(|&i| key(&cards[i]))
}

/// A set of cards: bit `index()` for each.
type Hand = u32;

/// The cards of `suit` in a [`Hand`].
fn suit_bits(suit: Suit) -> Hand {
    0xFF << (suit as u32 * 8)
}

/// The rule `card` breaks when played from `hand` (by `player`, in trick
/// `trick`) to a trick whose suit led is `led` (None: the player leads).
fn check(
    hand: Hand,
    led: Option<Suit>,
    trump: Option<Suit>,
    (trick, player, card): (usize, usize, Card),
) -> Option<Issue> {
    if hand & (1 << card.index()) == 0 {
        return Some(Issue::NotHeld {
            trick,
            player,
            card,
        });
    }
    let led = led?;
    let holds = |s: Suit| hand & suit_bits(s) != 0;
    if card.suit != led && holds(led) {
        return Some(Issue::NotFollowed {
            trick,
            player,
            card,
        });
    }
    match trump {
        Some(t) if card.suit != led && card.suit != t && holds(t) => Some(Issue::NotTrumped {
            trick,
            player,
            card,
        }),
        _ => None,
    }
}

/// One trick of a play: the players in play order, with their cards.
pub struct Trick<'a> {
    pub players: &'a [usize],
    pub cards: &'a [Card],
}

/// A play checked against the hands (`hands[p]` for player `p`, None when
/// not known): each trick's winner (the player), and the issues. A card
/// that breaks a rule is taken as played (it leaves the hand) so that one
/// mistake is reported once.
pub fn play(
    hands: &[Option<Vec<Card>>],
    tricks: &[Trick<'_>],
    trump: Option<Suit>,
) -> (Vec<Option<usize>>, Vec<Issue>) {
    let mut left: Vec<Option<Hand>> = hands
        .iter()
        .map(|h| {
            h.as_ref()
                .map(|h| h.iter().fold(0, |m, c| m | 1 << c.index()))
        })
        .collect();
    let mut winners = Vec::with_capacity(tricks.len());
    let mut issues = Vec::new();
    for (t, trick) in tricks.iter().enumerate() {
        let mut led = None;
        for (&player, &card) in trick.players.iter().zip(trick.cards) {
            if let Some(Some(hand)) = left.get_mut(player) {
                issues.extend(check(*hand, led, trump, (t, player, card)));
                *hand &= !(1 << card.index());
            }
            led.get_or_insert(card.suit);
        }
        let w = winner(trick.cards, trump).and_then(|i| trick.players.get(i).copied());
        winners.push(w);
    }
    (winners, issues)
}

/// Tricks taken by each of `players` players.
pub fn tricks_taken(winners: &[Option<usize>], players: usize) -> Vec<u32> {
    let mut n = vec![0; players];
    for w in winners.iter().flatten() {
        if let Some(x) = n.get_mut(*w) {
            *x += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::super::card::Rank;
    use super::*;

    fn c(rank: Rank, suit: Suit) -> Card {
        Card { suit, rank }
    }

    #[test]
    fn the_highest_trump_wins_else_the_highest_of_the_suit_led() {
        use Rank::*;
        use Suit::*;
        let t = [c(Ten, Hearts), c(Ace, Spades), c(Seven, Hearts)];
        assert_eq!(winner(&t, None), Some(0));
        assert_eq!(winner(&t, Some(Spades)), Some(1));
        assert_eq!(winner(&t, Some(Clubs)), Some(0));
        let two = [c(Eight, Diamonds), c(Nine, Diamonds)];
        assert_eq!(winner(&two, Some(Hearts)), Some(1));
        assert_eq!(winner(&[], None), None);
    }

    #[test]
    fn follow_suit_else_trump_else_any() {
        use Rank::*;
        use Suit::*;
        let hands = vec![
            Some(vec![c(Ace, Spades), c(Seven, Clubs)]),
            Some(vec![c(King, Hearts), c(Eight, Clubs)]),
            Some(vec![c(Seven, Spades), c(Nine, Diamonds)]),
        ];
        // p0 leads spades; p1 has none and holds a club (trump) but plays
        // a heart; p2 follows.
        let t1 = Trick {
            players: &[0, 1, 2],
            cards: &[c(Ace, Spades), c(King, Hearts), c(Seven, Spades)],
        };
        // p0 leads clubs (trump); p1 follows; p2 plays a card it does not
        // hold.
        let t2 = Trick {
            players: &[0, 1, 2],
            cards: &[c(Seven, Clubs), c(Eight, Clubs), c(Ten, Diamonds)],
        };
        let (winners, issues) = play(&hands, &[t1, t2], Some(Clubs));
        assert_eq!(winners, [Some(0), Some(1)]);
        assert_eq!(
            issues,
            [
                Issue::NotTrumped {
                    trick: 0,
                    player: 1,
                    card: c(King, Hearts)
                },
                Issue::NotHeld {
                    trick: 1,
                    player: 2,
                    card: c(Ten, Diamonds)
                },
            ]
        );
        assert_eq!(tricks_taken(&winners, 3), [1, 1, 0]);
        // No trump (betl, sans): any card when void of the suit led; a
        // card of another suit while holding the suit led is a revoke.
        let t = Trick {
            players: &[2, 0],
            cards: &[c(Nine, Diamonds), c(Seven, Clubs)],
        };
        let (w, issues) = play(&hands, &[t], None);
        assert_eq!((w, issues), (vec![Some(2)], vec![]));
        let t = Trick {
            players: &[2, 0],
            cards: &[c(Seven, Spades), c(Seven, Clubs)],
        };
        let (_, issues) = play(&hands, &[t], None);
        assert_eq!(
            issues,
            [Issue::NotFollowed {
                trick: 0,
                player: 0,
                card: c(Seven, Clubs)
            }]
        );
    }
}
