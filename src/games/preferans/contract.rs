//! Contracts and kontras of Preferans, as Portable Preferans Notation
//! numbers and names them (`deals.contract`, `contract_name`,
//! `kontra_level`).

use super::card::Suit;

/// A contract: 2 spades, 3 diamonds, 4 hearts, 5 clubs, 6 betl, 7 sans,
/// 8 preferans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contract {
    /// 2 to 8.
    pub number: u8,
    /// A game: played without taking the talon (the notation's `G`).
    pub without_talon: bool,
}

impl Contract {
    /// The contract numbered `number`, None outside 2 to 8.
    pub fn new(number: u8, without_talon: bool) -> Option<Contract> {
        (2..=8).contains(&number).then_some(Contract {
            number,
            without_talon,
        })
    }

    /// Its name in `deals.contract_name`.
    pub fn name(self) -> &'static str {
        match self.number {
            2 => "spades",
            3 => "diamonds",
            4 => "hearts",
            5 => "clubs",
            6 => "betl",
            7 => "sans",
            _ => "preferans",
        }
    }

    /// The trump suit of a suit contract; None for betl and sans, which
    /// have none. The spec does not say how the preferans contract (8) is
    /// played: None too, with `trump_known` false.
    pub fn trump(self) -> Option<Suit> {
        match self.number {
            2 => Some(Suit::Spades),
            3 => Some(Suit::Diamonds),
            4 => Some(Suit::Hearts),
            5 => Some(Suit::Clubs),
            _ => None,
        }
    }

    /// Whether the rules of its tricks are known (every contract but 8).
    pub fn trump_known(self) -> bool {
        self.number != 8
    }
}

/// How far the kontras went (the notation's letter).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum KontraLevel {
    Invitation,
    Kontra,
    Rekontra,
    Subkontra,
    Mortkontra,
}

impl KontraLevel {
    /// The level of the notation's letter (`I`, `K`, `R`, `S`, `M`).
    pub fn from_letter(b: u8) -> Option<KontraLevel> {
        Some(match b {
            b'I' => KontraLevel::Invitation,
            b'K' => KontraLevel::Kontra,
            b'R' => KontraLevel::Rekontra,
            b'S' => KontraLevel::Subkontra,
            b'M' => KontraLevel::Mortkontra,
            _ => return None,
        })
    }

    /// Its name in `deals.kontra_level`.
    pub fn name(self) -> &'static str {
        match self {
            KontraLevel::Invitation => "invitation",
            KontraLevel::Kontra => "kontra",
            KontraLevel::Rekontra => "rekontra",
            KontraLevel::Subkontra => "subkontra",
            KontraLevel::Mortkontra => "mortkontra",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contracts_two_to_eight_with_their_names_and_trumps() {
        let names: Vec<_> = (2..=8)
            .map(|n| Contract::new(n, false).unwrap().name())
            .collect();
        assert_eq!(
            names,
            [
                "spades",
                "diamonds",
                "hearts",
                "clubs",
                "betl",
                "sans",
                "preferans"
            ]
        );
        let trumps: Vec<_> = (2..=8)
            .map(|n| Contract::new(n, true).unwrap().trump())
            .collect();
        assert_eq!(
            trumps,
            [
                Some(Suit::Spades),
                Some(Suit::Diamonds),
                Some(Suit::Hearts),
                Some(Suit::Clubs),
                None,
                None,
                None
            ]
        );
        assert!(!Contract::new(8, false).unwrap().trump_known());
        assert!(Contract::new(7, false).unwrap().trump_known());
        assert_eq!(Contract::new(1, false), None);
        assert_eq!(Contract::new(9, false), None);
    }

    #[test]
    fn kontra_levels_by_letter_in_order() {
        let levels: Vec<_> = b"IKRSM"
            .iter()
            .map(|&b| KontraLevel::from_letter(b).unwrap())
            .collect();
        assert!(levels.windows(2).all(|w| w[0] < w[1]));
        let names: Vec<_> = levels.iter().map(|l| l.name()).collect();
        assert_eq!(
            names,
            [
                "invitation",
                "kontra",
                "rekontra",
                "subkontra",
                "mortkontra"
            ]
        );
        assert_eq!(KontraLevel::from_letter(b'0'), None);
    }
}
