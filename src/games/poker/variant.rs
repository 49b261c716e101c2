//! The 11 variants of the PHH standard (`phh.txt`, required fields): each
//! one's betting structure, forced bets and deck.

/// How bets are sized.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Betting {
    /// Fixed-limit: a small bet in the early rounds, a big bet later.
    FixedLimit,
    /// Pot-limit, with a minimum bet.
    PotLimit,
    /// No-limit, with a minimum bet.
    NoLimit,
}

/// A variant of the standard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    FixedLimitTexasHoldem,
    NoLimitTexasHoldem,
    NoLimitShortDeckHoldem,
    PotLimitOmahaHoldem,
    FixedLimitOmahaHoldemHighLow,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLow,
    FixedLimitRazz,
    NoLimitDeuceToSevenSingleDraw,
    FixedLimitDeuceToSevenTripleDraw,
    FixedLimitBadugi,
}

use Variant::*;

impl Variant {
    pub const ALL: [Variant; 11] = [
        FixedLimitTexasHoldem,
        NoLimitTexasHoldem,
        NoLimitShortDeckHoldem,
        PotLimitOmahaHoldem,
        FixedLimitOmahaHoldemHighLow,
        FixedLimitSevenCardStud,
        FixedLimitSevenCardStudHighLow,
        FixedLimitRazz,
        NoLimitDeuceToSevenSingleDraw,
        FixedLimitDeuceToSevenTripleDraw,
        FixedLimitBadugi,
    ];

    /// The standard's code (`NT`, `FO/8`, ...).
    pub fn code(self) -> &'static str {
        match self {
            FixedLimitTexasHoldem => "FT",
            NoLimitTexasHoldem => "NT",
            NoLimitShortDeckHoldem => "NS",
            PotLimitOmahaHoldem => "PO",
            FixedLimitOmahaHoldemHighLow => "FO/8",
            FixedLimitSevenCardStud => "F7S",
            FixedLimitSevenCardStudHighLow => "F7S/8",
            FixedLimitRazz => "FR",
            NoLimitDeuceToSevenSingleDraw => "N2L1D",
            FixedLimitDeuceToSevenTripleDraw => "F2L3D",
            FixedLimitBadugi => "FB",
        }
    }

    /// The variant of a code, exactly as the standard writes it.
    pub fn from_code(code: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.code() == code)
    }

    pub fn betting(self) -> Betting {
        match self {
            NoLimitTexasHoldem | NoLimitShortDeckHoldem | NoLimitDeuceToSevenSingleDraw => {
                Betting::NoLimit
            }
            PotLimitOmahaHoldem => Betting::PotLimit,
            _ => Betting::FixedLimit,
        }
    }

    /// A stud game: a bring-in, no blinds or straddles.
    pub fn stud(self) -> bool {
        matches!(
            self,
            FixedLimitSevenCardStud | FixedLimitSevenCardStudHighLow | FixedLimitRazz
        )
    }

    /// The deck has no deuces to fives (short-deck, 36 cards).
    pub fn short_deck(self) -> bool {
        self == NoLimitShortDeckHoldem
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_the_standards_and_read_back() {
        let codes: Vec<_> = Variant::ALL.iter().map(|v| v.code()).collect();
        assert_eq!(
            codes,
            [
                "FT", "NT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB"
            ]
        );
        for v in Variant::ALL {
            assert_eq!(Variant::from_code(v.code()), Some(v));
        }
        assert_eq!(Variant::from_code("nt"), None);
        let stud: Vec<_> = Variant::ALL
            .iter()
            .filter(|v| v.stud())
            .map(|v| v.code())
            .collect();
        assert_eq!(stud, ["F7S", "F7S/8", "FR"]);
        let fixed = Variant::ALL
            .iter()
            .filter(|v| v.betting() == Betting::FixedLimit)
            .count();
        assert_eq!(fixed, 7);
        assert_eq!(PotLimitOmahaHoldem.betting(), Betting::PotLimit);
    }
}
