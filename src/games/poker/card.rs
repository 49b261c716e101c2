//! Poker cards: a rank and a suit, either of which may be unknown (`?`).

/// Ranks, deuce to ace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rank {
    Two = 2,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
    Ace,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    Clubs,
    Diamonds,
    Hearts,
    Spades,
}

/// A card; `None` for a rank or suit not known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Card {
    pub rank: Option<Rank>,
    pub suit: Option<Suit>,
}

impl Rank {
    pub fn from_letter(b: u8) -> Option<Option<Rank>> {
        use Rank::*;
        Some(Some(match b {
            b'2' => Two,
            b'3' => Three,
            b'4' => Four,
            b'5' => Five,
            b'6' => Six,
            b'7' => Seven,
            b'8' => Eight,
            b'9' => Nine,
            b'T' => Ten,
            b'J' => Jack,
            b'Q' => Queen,
            b'K' => King,
            b'A' => Ace,
            b'?' => return Some(None),
            _ => return None,
        }))
    }
}

impl Suit {
    pub fn from_letter(b: u8) -> Option<Option<Suit>> {
        Some(Some(match b {
            b'c' => Suit::Clubs,
            b'd' => Suit::Diamonds,
            b'h' => Suit::Hearts,
            b's' => Suit::Spades,
            b'?' => return Some(None),
            _ => return None,
        }))
    }
}

impl Card {
    /// A card from its rank and suit letters (`As`, `Td`, `??`).
    pub fn from_letters(rank: u8, suit: u8) -> Option<Card> {
        Some(Card {
            rank: Rank::from_letter(rank)?,
            suit: Suit::from_letter(suit)?,
        })
    }

    pub fn known(self) -> bool {
        self.rank.is_some() && self.suit.is_some()
    }

    /// In the deck of a game: a short deck has no deuces to fives.
    pub fn in_deck(self, short_deck: bool) -> bool {
        !(short_deck && self.rank.is_some_and(|r| r <= Rank::Five))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_read_rank_then_suit() {
        let c = Card::from_letters(b'T', b'd').unwrap();
        assert_eq!((c.rank, c.suit), (Some(Rank::Ten), Some(Suit::Diamonds)));
        assert!(c.known());
        let u = Card::from_letters(b'?', b'?').unwrap();
        assert!(!u.known() && u.rank.is_none() && u.suit.is_none());
        assert_eq!(Card::from_letters(b'A', b'?').unwrap().suit, None);
        assert!(Card::from_letters(b't', b'd').is_none());
        assert!(Card::from_letters(b'A', b'S').is_none());
        assert!(Card::from_letters(b'1', b's').is_none());
        // Short deck: 6 and up.
        let deck = |r| Card::from_letters(r, b's').unwrap().in_deck(true);
        assert_eq!(
            b"23456789TJQKA"
                .iter()
                .map(|&r| deck(r))
                .collect::<Vec<_>>(),
            [
                false, false, false, false, true, true, true, true, true, true, true, true, true
            ]
        );
        assert!(Card::from_letters(b'2', b's').unwrap().in_deck(false));
        assert!(Card::from_letters(b'?', b's').unwrap().in_deck(true));
    }
}
