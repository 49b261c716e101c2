//! The 32 cards of Preferans: 7 to ace in four suits.

/// Suits, in the deck order of Portable Preferans Notation's table
/// (spades, diamonds, hearts, clubs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    Spades,
    Diamonds,
    Hearts,
    Clubs,
}

/// Ranks, low to high: 7, 8, 9, 10, jack, queen, king, ace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rank {
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
    Ace,
}

/// A card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Card {
    pub suit: Suit,
    pub rank: Rank,
}

const SUITS: [Suit; 4] = [Suit::Spades, Suit::Diamonds, Suit::Hearts, Suit::Clubs];
const RANKS: [Rank; 8] = [
    Rank::Seven,
    Rank::Eight,
    Rank::Nine,
    Rank::Ten,
    Rank::Jack,
    Rank::Queen,
    Rank::King,
    Rank::Ace,
];

impl Card {
    /// The card at `index` (0 to 31) of the deck order: the suits in
    /// order, each from 7 to ace.
    pub fn from_index(index: u8) -> Option<Card> {
        let i = index as usize;
        (i < 32).then(|| Card {
            suit: SUITS[i / 8],
            rank: RANKS[i % 8],
        })
    }

    /// Its place in the deck order (0 to 31).
    pub fn index(self) -> u8 {
        self.suit as u8 * 8 + self.rank as u8
    }

    /// Every card, in deck order.
    pub fn deck() -> impl Iterator<Item = Card> {
        (0..32).filter_map(Card::from_index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deck_is_32_cards_in_order_and_indices_round_trip() {
        let deck: Vec<Card> = Card::deck().collect();
        assert_eq!(deck.len(), 32);
        for (i, c) in deck.iter().enumerate() {
            assert_eq!(c.index() as usize, i);
        }
        assert_eq!(
            deck[0],
            Card {
                suit: Suit::Spades,
                rank: Rank::Seven
            }
        );
        assert_eq!(
            deck[11],
            Card {
                suit: Suit::Diamonds,
                rank: Rank::Ten
            }
        );
        assert_eq!(
            deck[31],
            Card {
                suit: Suit::Clubs,
                rank: Rank::Ace
            }
        );
        assert_eq!(Card::from_index(32), None);
    }
}
