//! Cards and the two card spellings of the PPN family.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Suit {
    C,
    D,
    S,
    H,
}

/// Ranks from high to low; `Nine` exists only in single-deck variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    A,
    T,
    K,
    Q,
    J,
    Nine,
}

/// Two bytes, suit then rank (see [`as_bytes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(C)]
pub struct Card {
    pub suit: Suit,
    pub rank: Rank,
}

/// The cards as their bytes, two a card: equal lists of cards have equal
/// bytes, so two lists compare in one `memcmp` rather than field by field.
#[inline]
pub fn as_bytes(cards: &[Card]) -> &[u8] {
    // SAFETY: `Card` is `repr(C)` of two `repr(u8)` enums: two initialized
    // bytes with no padding, so `cards` is `2 * len` readable bytes.
    unsafe { std::slice::from_raw_parts(cards.as_ptr().cast::<u8>(), 2 * cards.len()) }
}

impl Suit {
    /// Dot-syntax order: C . D . S . H
    pub const DOT_ORDER: [Suit; 4] = [Suit::C, Suit::D, Suit::S, Suit::H];

    #[inline]
    pub fn parse(b: u8) -> Option<Suit> {
        SUIT_OF[b as usize]
    }

    /// The suit's letter, as PPN writes it.
    pub fn as_char(self) -> char {
        match self {
            Suit::C => 'C',
            Suit::D => 'D',
            Suit::S => 'S',
            Suit::H => 'H',
        }
    }
}

/// The suit of each byte (either case), as [`RANK_OF`] has the ranks.
static SUIT_OF: [Option<Suit>; 256] = by_letter(b"CDSH", Suit::DOT_ORDER);

impl Rank {
    /// Every rank, high to low.
    pub const ALL: [Rank; 6] = [Rank::A, Rank::T, Rank::K, Rank::Q, Rank::J, Rank::Nine];

    #[inline]
    pub fn parse(b: u8) -> Option<Rank> {
        RANK_OF[b as usize]
    }
}

/// The rank of each byte (either case), a table lookup instead of a chain
/// of comparisons for the ~100 dot-syntax cards of every hand.
static RANK_OF: [Option<Rank>; 256] = by_letter(b"ATKQJ9", Rank::ALL);

/// A table of the 256 bytes: `values[i]` for `letters[i]` in either case,
/// None for every other byte.
const fn by_letter<T: Copy, const N: usize>(letters: &[u8; N], values: [T; N]) -> [Option<T>; 256] {
    let mut t = [None; 256];
    let mut i = 0;
    while i < N {
        t[letters[i].to_ascii_uppercase() as usize] = Some(values[i]);
        t[letters[i].to_ascii_lowercase() as usize] = Some(values[i]);
        i += 1;
    }
    t
}

const NAME_LIST: [[&str; 6]; 4] = [
    ["CA", "CT", "CK", "CQ", "CJ", "C9"],
    ["DA", "DT", "DK", "DQ", "DJ", "D9"],
    ["SA", "ST", "SK", "SQ", "SJ", "S9"],
    ["HA", "HT", "HK", "HQ", "HJ", "H9"],
];
static NAMES: [[&str; 6]; 4] = NAME_LIST;
/// The same names as two-byte arrays (one load each, for column builders).
static NAME_BYTES: [[[u8; 2]; 6]; 4] = {
    let mut t = [[[0; 2]; 6]; 4];
    let mut s = 0;
    while s < 4 {
        let mut r = 0;
        while r < 6 {
            let b = NAME_LIST[s][r].as_bytes();
            assert!(b.len() == 2);
            t[s][r] = [b[0], b[1]];
            r += 1;
        }
        s += 1;
    }
    t
};

impl Card {
    /// Suit-rank spelling (`CA`), ignoring ASCII case.
    pub fn parse(b: &[u8]) -> Option<Card> {
        match b {
            [s, r] => Some(Card {
                suit: Suit::parse(*s)?,
                rank: Rank::parse(*r)?,
            }),
            _ => None,
        }
    }

    /// The canonical suit-rank spelling, upper case.
    #[inline]
    pub fn as_str(self) -> &'static str {
        NAMES[self.suit as usize][self.rank as usize]
    }

    /// [`Card::as_str`] as its two bytes.
    #[inline]
    pub fn name(self) -> [u8; 2] {
        NAME_BYTES[self.suit as usize][self.rank as usize]
    }
}

/// Why a dot-syntax hand could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DotError {
    /// Not exactly four suit groups.
    Groups(usize),
    /// A byte that is not a rank, at this offset.
    Rank(usize),
}

/// Reads a dot-syntax hand (`ATTTQQJ.QQJJ.AQQQJ.TKQQ`: clubs, diamonds, spades,
/// hearts) into `out`, in the order written (on an error, `out` may hold the
/// cards read before it). Ranks are not required to be sorted.
/// Trailing empty suit groups may be left out (`KQ.ATKQJ` is clubs KQ and
/// diamonds ATKQJ), as the spec's own Melds example does; more than four
/// groups is an error.
pub fn parse_dot_hand(b: &[u8], out: &mut impl Extend<Card>) -> Result<(), DotError> {
    // One pass: the group count is only needed for the message.
    let groups = || b.iter().filter(|&&c| c == b'.').count() + 1;
    let [mut suit, later @ ..] = Suit::DOT_ORDER;
    let mut later = later.into_iter();
    for (i, &c) in b.iter().enumerate() {
        if c == b'.' {
            let Some(next) = later.next() else {
                return Err(DotError::Groups(groups()));
            };
            suit = next;
            continue;
        }
        let Some(rank) = Rank::parse(c) else {
            // Too many groups is reported first, wherever the bad rank is.
            let g = groups();
            return Err(if g > 4 {
                DotError::Groups(g)
            } else {
                DotError::Rank(i)
            });
        };
        out.extend([Card { suit, rank }]);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(cards: &[Card]) -> Vec<&'static str> {
        cards.iter().map(|c| c.as_str()).collect()
    }

    #[test]
    fn card_lists_are_equal_when_their_bytes_are() {
        let all: Vec<Card> = [Suit::C, Suit::D, Suit::S, Suit::H]
            .into_iter()
            .flat_map(|suit| {
                [Rank::A, Rank::T, Rank::K, Rank::Q, Rank::J, Rank::Nine]
                    .map(|rank| Card { suit, rank })
            })
            .collect();
        assert_eq!(as_bytes(&all).len(), 48);
        for a in &all {
            for b in &all {
                let (x, y) = ([*a, *b], [*b, *a]);
                assert_eq!(x == y, as_bytes(&x) == as_bytes(&y), "{a:?} {b:?}");
                assert_eq!(a == b, as_bytes(&[*a]) == as_bytes(&[*b]));
            }
        }
        assert_eq!(as_bytes(&all[..1]), &[0, 0]);
        assert_eq!(as_bytes(&all[23..]), &[3, 5]);
    }

    #[test]
    fn suit_rank_cards() {
        assert_eq!(Card::parse(b"CA").unwrap().as_str(), "CA");
        assert_eq!(Card::parse(b"h9").unwrap().as_str(), "H9");
        assert_eq!(Card::parse(b"XA"), None);
        assert_eq!(Card::parse(b"C"), None);
        assert_eq!(Card::parse(b"CAT"), None);
    }

    #[test]
    fn every_byte_reads_as_the_suit_or_rank_it_names() {
        for b in 0..=255u8 {
            let suit = match b.to_ascii_uppercase() {
                b'C' => Some(Suit::C),
                b'D' => Some(Suit::D),
                b'S' => Some(Suit::S),
                b'H' => Some(Suit::H),
                _ => None,
            };
            assert_eq!(Suit::parse(b), suit, "{b}");
            let rank = b"ATKQJ9"
                .iter()
                .position(|&r| r == b.to_ascii_uppercase())
                .map(|i| Rank::ALL[i]);
            assert_eq!(Rank::parse(b), rank, "{b}");
        }
    }

    #[test]
    fn dot_hands_in_suit_order() {
        let mut v = Vec::new();
        parse_dot_hand(b"AT.K..QJ", &mut v).unwrap();
        assert_eq!(names(&v), ["CA", "CT", "DK", "HQ", "HJ"]);
        v.clear();
        parse_dot_hand(b"...", &mut v).unwrap();
        assert!(v.is_empty());
        v.clear();
        parse_dot_hand(b"KQ.ATKQJ", &mut v).unwrap();
        assert_eq!(names(&v), ["CK", "CQ", "DA", "DT", "DK", "DQ", "DJ"]);
        assert_eq!(parse_dot_hand(b"A.K...", &mut v), Err(DotError::Groups(5)));
        assert_eq!(parse_dot_hand(b"A.K.X.", &mut v), Err(DotError::Rank(4)));
        // Too many groups wins over a bad rank before them.
        assert_eq!(parse_dot_hand(b"X.K....", &mut v), Err(DotError::Groups(6)));
        v.clear();
        parse_dot_hand(b"a9.t.k.qJ", &mut v).unwrap();
        assert_eq!(names(&v), ["CA", "C9", "DT", "SK", "HQ", "HJ"]);
    }
}
