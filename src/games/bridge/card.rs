//! Cards of a 52-card deck, suits and strains.

/// A suit, in the order deals list them: spades, hearts, diamonds, clubs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    S,
    H,
    D,
    C,
}

/// A rank, two to ace (ace high).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rank {
    Two = 2,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    T,
    J,
    Q,
    K,
    A,
}

/// A card. Ordered by suit (S H D C), then rank high to low: the order the
/// tables list a hand in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Card {
    pub suit: Suit,
    pub rank: Rank,
}

impl PartialOrd for Card {
    fn partial_cmp(&self, other: &Card) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Card {
    fn cmp(&self, other: &Card) -> std::cmp::Ordering {
        (self.suit, std::cmp::Reverse(self.rank)).cmp(&(other.suit, std::cmp::Reverse(other.rank)))
    }
}

/// The denomination of a contract, in bidding order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Strain {
    C,
    D,
    H,
    S,
    NT,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::S, Suit::H, Suit::D, Suit::C];

    /// The suit's letter, either case.
    pub fn parse(b: u8) -> Option<Suit> {
        match b.to_ascii_uppercase() {
            b'S' => Some(Suit::S),
            b'H' => Some(Suit::H),
            b'D' => Some(Suit::D),
            b'C' => Some(Suit::C),
            _ => None,
        }
    }

    pub fn letter(self) -> u8 {
        b"SHDC"[self as usize]
    }

    /// The strain this suit is trump in.
    pub fn strain(self) -> Strain {
        match self {
            Suit::S => Strain::S,
            Suit::H => Strain::H,
            Suit::D => Strain::D,
            Suit::C => Strain::C,
        }
    }
}

impl Rank {
    /// Every rank, high to low.
    pub const ALL: [Rank; 13] = [
        Rank::A,
        Rank::K,
        Rank::Q,
        Rank::J,
        Rank::T,
        Rank::Nine,
        Rank::Eight,
        Rank::Seven,
        Rank::Six,
        Rank::Five,
        Rank::Four,
        Rank::Three,
        Rank::Two,
    ];

    /// The rank's character (`A`, `K`, `Q`, `J`, `T`, `9` ... `2`), either
    /// case; `10` is the caller's to read.
    pub fn parse(b: u8) -> Option<Rank> {
        Some(match b.to_ascii_uppercase() {
            b'A' => Rank::A,
            b'K' => Rank::K,
            b'Q' => Rank::Q,
            b'J' => Rank::J,
            b'T' => Rank::T,
            b'9' => Rank::Nine,
            b'8' => Rank::Eight,
            b'7' => Rank::Seven,
            b'6' => Rank::Six,
            b'5' => Rank::Five,
            b'4' => Rank::Four,
            b'3' => Rank::Three,
            b'2' => Rank::Two,
            _ => return None,
        })
    }

    pub fn letter(self) -> u8 {
        b"23456789TJQKA"[self as usize - 2]
    }

    /// High-card points: ace 4, king 3, queen 2, jack 1.
    pub fn hcp(self) -> u32 {
        match self {
            Rank::A => 4,
            Rank::K => 3,
            Rank::Q => 2,
            Rank::J => 1,
            _ => 0,
        }
    }
}

impl Card {
    /// Suit then rank (`SA`, `HT`).
    pub fn name(self) -> [u8; 2] {
        [self.suit.letter(), self.rank.letter()]
    }

    /// The card's name as a string (`SA`, `HT`), without allocating.
    pub fn as_str(self) -> &'static str {
        const NAMES: [&str; 52] = [
            "SA", "SK", "SQ", "SJ", "ST", "S9", "S8", "S7", "S6", "S5", "S4", "S3", "S2", //
            "HA", "HK", "HQ", "HJ", "HT", "H9", "H8", "H7", "H6", "H5", "H4", "H3", "H2", //
            "DA", "DK", "DQ", "DJ", "DT", "D9", "D8", "D7", "D6", "D5", "D4", "D3", "D2", //
            "CA", "CK", "CQ", "CJ", "CT", "C9", "C8", "C7", "C6", "C5", "C4", "C3", "C2",
        ];
        NAMES[self.index()]
    }

    /// The card's index in a deck, 0..52 (spades ace first).
    pub fn index(self) -> usize {
        self.suit as usize * 13 + (14 - self.rank as usize)
    }

    /// The card of each index, as [`Card::index`] numbers them.
    pub fn from_index(i: usize) -> Card {
        Card {
            suit: Suit::ALL[i / 13],
            rank: Rank::ALL[i % 13],
        }
    }
}

impl crate::columns::lists::CardName for Card {
    fn name(self) -> [u8; 2] {
        Card::name(self)
    }

    fn same(a: &[Card], b: &[Card]) -> bool {
        a == b
    }
}

impl Strain {
    /// The strain's trump suit; None for no trump.
    pub fn trump(self) -> Option<Suit> {
        match self {
            Strain::C => Some(Suit::C),
            Strain::D => Some(Suit::D),
            Strain::H => Some(Suit::H),
            Strain::S => Some(Suit::S),
            Strain::NT => None,
        }
    }

    /// As contracts write it: `C`, `D`, `H`, `S`, `NT`.
    pub fn as_str(self) -> &'static str {
        ["C", "D", "H", "S", "NT"][self as usize]
    }

    /// Every strain, in bidding order.
    pub const ALL: [Strain; 5] = [Strain::C, Strain::D, Strain::H, Strain::S, Strain::NT];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_are_named_indexed_and_ordered_as_deals_list_them() {
        let sa = Card {
            suit: Suit::S,
            rank: Rank::A,
        };
        let ht = Card {
            suit: Suit::H,
            rank: Rank::T,
        };
        let c2 = Card {
            suit: Suit::C,
            rank: Rank::Two,
        };
        assert_eq!((sa.name(), ht.name(), c2.name()), (*b"SA", *b"HT", *b"C2"));
        assert_eq!((sa.index(), ht.index(), c2.index()), (0, 17, 51));
        for i in 0..52 {
            let c = Card::from_index(i);
            assert_eq!(c.index(), i);
            assert_eq!(c.as_str().as_bytes(), c.name());
        }
        let mut v = vec![c2, ht, sa];
        v.sort();
        assert_eq!(v, [sa, ht, c2]);
        assert_eq!(Rank::ALL.iter().map(|r| r.hcp()).sum::<u32>(), 10);
        assert_eq!(Rank::parse(b't'), Some(Rank::T));
        assert!(Strain::NT > Strain::S && Strain::S > Strain::H && Strain::D > Strain::C);
    }
}
