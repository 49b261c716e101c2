//! Readers for PPN tag values. Each returns `None` (or an error string) when
//! the text does not have the expected shape; callers keep the text aside.

pub use crate::columns::date::{civil_from_days, days_from_civil};
use crate::games::pinochle::card::{DotError, parse_dot_hand};
use crate::games::pinochle::{Card, Rank, Seat, Suit};
pub use crate::notation::number::{DateValue, parse_date, parse_i32, parse_u32};
use smallvec::SmallVec;

/// `*` (terminated), `?` (unknown) and the empty string stand for no value.
pub fn is_missing(v: &[u8]) -> bool {
    matches!(v.trim_ascii(), b"" | b"*" | b"?")
}

/// Team-ordered scores: up to four kept inline (a hand has two or three
/// teams), more on the heap; reads as a slice.
pub type ScoreList = smallvec::SmallVec<[Option<i32>; 4]>;

/// Team-ordered scores `-54:328`; `*` or `?` entries are unknown.
pub fn parse_scores(v: &[u8]) -> Option<ScoreList> {
    let mut s = ScoreList::new();
    for part in v.split(|&b| b == b':') {
        s.push(if is_missing(part) {
            None
        } else {
            Some(parse_i32(part)?)
        });
    }
    Some(s)
}

/// One entry of a seat-prefixed list of dot-syntax hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandEntry<'l> {
    /// `None` for `-` (unknown hand).
    pub cards: Option<&'l [Card]>,
    /// The `(points)` after the cards, where written.
    pub points: Option<i32>,
}

/// Dot-syntax hands, each with optional points, their cards kept in one
/// list: held inline up to 96 cards and four hands (a four-handed
/// double-deck deal is 80 cards; `smallvec` offers 64 or 96), so that a
/// Deal or Melds list allocates nothing.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Hands {
    cards: SmallVec<[Card; 96]>,
    spans: SmallVec<[Span; 4]>,
}

/// Where a hand's cards are in [`Hands::cards`] (`None` for an unknown hand),
/// and its points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    cards: Option<(u32, u32)>,
    points: Option<i32>,
}

impl Hands {
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The `i`th hand (`i < len()`).
    pub fn get(&self, i: usize) -> HandEntry<'_> {
        let Span { cards, points } = self.spans[i];
        HandEntry {
            cards: cards.map(|(s, e)| &self.cards[s as usize..e as usize]),
            points,
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = HandEntry<'_>> {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Reads one hand in dot syntax with an optional `(points)` after it.
    fn push(&mut self, v: &[u8]) -> Result<(), String> {
        let v = v.trim_ascii();
        let (cards, points) = match memchr::memchr(b'(', v) {
            Some(p) => {
                let close = v.len() - 1;
                if v[close] != b')' || close < p + 1 {
                    return Err(format!(
                        "expected ')' to close the points in '{}'",
                        lossy(v)
                    ));
                }
                let pts = &v[p + 1..close];
                let points = if is_missing(pts) {
                    None
                } else {
                    Some(parse_i32(pts).ok_or_else(|| {
                        format!("expected a number of points, found '{}'", lossy(pts))
                    })?)
                };
                (v[..p].trim_ascii_end(), points)
            }
            None => (v, None),
        };
        // `-(0)`: a seat that shows no meld, its points alone (as `(0)`
        // and `...(0)` are); `-`, `*` and `?` without points: not known.
        if cards == b"-" && points.is_some() {
            self.spans.push(Span {
                cards: Some((self.cards.len() as u32, self.cards.len() as u32)),
                points,
            });
            return Ok(());
        }
        if matches!(cards, b"-" | b"*" | b"?") {
            self.spans.push(Span {
                cards: None,
                points,
            });
            return Ok(());
        }
        let start = self.cards.len();
        if let Err(e) = parse_dot_hand(cards, &mut self.cards) {
            self.cards.truncate(start);
            return Err(match e {
                DotError::Groups(n) => format!(
                    "expected at most 4 suit groups (clubs.diamonds.spades.hearts) in '{}', found {n}",
                    lossy(cards)
                ),
                DotError::Rank(i) => format!(
                    "expected a rank (A T K Q J 9) in '{}', found '{}'",
                    lossy(cards),
                    cards[i] as char
                ),
            });
        }
        self.spans.push(Span {
            cards: Some((start as u32, self.cards.len() as u32)),
            points,
        });
        Ok(())
    }
}

/// A seat-prefixed list `E:hand hand ...` (Deal, Holding, Melds, Passed).
#[derive(Debug, PartialEq, Eq)]
pub struct HandList {
    pub first: Seat,
    pub entries: Hands,
}

/// Cards in dot syntax with an optional `(points)` after them, as in Discard
/// and each entry of Melds: one hand.
pub fn parse_dot_with_points(v: &[u8]) -> Result<Hands, String> {
    let mut h = Hands::default();
    h.push(v)?;
    Ok(h)
}

fn lossy(v: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(v)
}

/// Splits `SEAT:rest` at the first colon.
pub fn split_seat(v: &[u8]) -> Option<(&[u8], &[u8])> {
    let c = memchr::memchr(b':', v)?;
    Some((v[..c].trim_ascii(), &v[c + 1..]))
}

/// Reads `E:ATTTQQJ.QQJJ.AQQQJ.TKQQ KQQJJ...` and the like.
pub fn parse_hand_list(v: &[u8]) -> Result<HandList, String> {
    hand_list(v, true)
}

/// [`parse_hand_list`], with or without its one-pass reading of the entries.
fn hand_list(v: &[u8], fast: bool) -> Result<HandList, String> {
    let (seat, rest) =
        split_seat(v).ok_or_else(|| "expected a seat and ':' before the hands".to_string())?;
    let first = Seat::parse(seat)
        .ok_or_else(|| format!("expected a seat (N, NE, E, ...), found '{}'", lossy(seat)))?;
    let mut entries = Hands::default();
    if !(fast && entries.push_all_fast(rest)) {
        entries.cards.clear();
        entries.spans.clear();
        for e in (Entries { v: rest, i: 0 }) {
            entries.push(e)?;
        }
    }
    Ok(HandList { first, entries })
}

impl Hands {
    /// Reads the entries of a hand list in one pass over the bytes, for
    /// the lists most files hold: dot-syntax hands (or `-`, `*`, `?`), each
    /// with `(points)` of plain digits right after it or after spaces.
    /// Returns `false` at anything else (a bad rank, a fifth suit group,
    /// signs or spaces in the points, ...), leaving partial entries for the
    /// caller to clear and read again with [`Entries`] and [`Hands::push`],
    /// which give the same values and say what is wrong.
    fn push_all_fast(&mut self, v: &[u8]) -> bool {
        let ws = |i: usize| v.get(i).is_some_and(|b| b.is_ascii_whitespace());
        let mut i = 0;
        loop {
            while ws(i) {
                i += 1;
            }
            if i == v.len() {
                return true;
            }
            let start = self.cards.len();
            let cards = if matches!(v[i], b'-' | b'*' | b'?')
                && v.get(i + 1)
                    .is_none_or(|&b| b == b'(' || b.is_ascii_whitespace())
            {
                i += 1;
                // `-(0)` or `- (0)`: no meld, its points alone.
                let mut j = i;
                while ws(j) {
                    j += 1;
                }
                if v[i - 1] == b'-' && v.get(j) == Some(&b'(') {
                    Some((start as u32, start as u32))
                } else {
                    None
                }
            } else {
                // At most a card a byte: written into reserved room.
                self.cards.reserve(v.len() - i);
                let room = self.cards.as_mut_ptr();
                let (mut n, mut suit) = (0, 0);
                while let Some(&b) = v.get(i) {
                    if let Some(rank) = Rank::parse(b) {
                        // SAFETY: each card takes a byte of `v[i..]`, so
                        // `start + n < start + v.len() - i`, within the
                        // room reserved above.
                        unsafe {
                            room.add(start + n).write(Card {
                                suit: Suit::DOT_ORDER[suit & 3],
                                rank,
                            })
                        };
                        n += 1;
                    } else if b == b'.' && suit < 3 {
                        suit += 1;
                    } else {
                        break;
                    }
                    i += 1;
                }
                // SAFETY: the first `n` slots of the spare room were written.
                unsafe { self.cards.set_len(start + n) };
                Some((start as u32, self.cards.len() as u32))
            };
            // Points right after the cards, or after spaces.
            let mut j = i;
            while ws(j) {
                j += 1;
            }
            let points = if v.get(j) == Some(&b'(') {
                let from = j + 1;
                let mut k = from;
                let mut n: i32 = 0;
                while let Some(&b) = v.get(k).filter(|b| b.is_ascii_digit()) {
                    if k - from == 9 {
                        return false;
                    }
                    n = n * 10 + (b - b'0') as i32;
                    k += 1;
                }
                if k == from || v.get(k) != Some(&b')') {
                    return false;
                }
                i = k + 1;
                // A second group of points after spaces is the next
                // seat's: a seat that shows no meld (`(0)`).
                Some(n)
            } else {
                None
            };
            // The entry must end at white space or the end.
            if i < v.len() && !ws(i) {
                return false;
            }
            self.spans.push(Span { cards, points });
        }
    }
}

/// Splits on white space, keeping a `(points)` group that follows a space with
/// its hand (`K.K..K (3)`) when the hand has no points yet: after
/// `A.AKQ(14)`, ` (0)` is the next seat's entry, a seat that shows no meld.
struct Entries<'v> {
    v: &'v [u8],
    i: usize,
}

impl<'v> Iterator for Entries<'v> {
    type Item = &'v [u8];

    fn next(&mut self) -> Option<&'v [u8]> {
        let v = self.v;
        let mut i = self.i;
        while i < v.len() && v[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == v.len() {
            self.i = i;
            return None;
        }
        let start = i;
        loop {
            while i < v.len() && !v[i].is_ascii_whitespace() {
                i += 1;
            }
            // Look ahead: a '(' after spaces belongs to this entry.
            let mut j = i;
            while j < v.len() && v[j].is_ascii_whitespace() {
                j += 1;
            }
            if j > i && v.get(j) == Some(&b'(') && !v[start..i].contains(&b'(') {
                i = j;
                continue;
            }
            self.i = i;
            return Some(&v[start..i]);
        }
    }
}

/// Cards in suit-rank syntax separated by spaces (Kitty).
pub fn parse_card_list(v: &[u8]) -> Result<Vec<Card>, String> {
    v.split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| {
            Card::parse(t).ok_or_else(|| format!("expected a card like CA, found '{}'", lossy(t)))
        })
        .collect()
}

/// `SE:HA`: the partner's seat and the called card.
pub fn parse_partner(v: &[u8]) -> Result<(Seat, Card), String> {
    let (seat, card) = split_seat(v).ok_or_else(|| "expected SEAT:CARD".to_string())?;
    let seat =
        Seat::parse(seat).ok_or_else(|| format!("expected a seat, found '{}'", lossy(seat)))?;
    let card = Card::parse(card.trim_ascii())
        .ok_or_else(|| format!("expected a card like HA, found '{}'", lossy(card)))?;
    Ok((seat, card))
}

/// `W:Time out` or `-:Abandoned`: the responsible seat (`None` for `-`) and the cause.
pub fn parse_termination(v: &[u8]) -> Result<(Option<Seat>, &[u8]), String> {
    let (seat, cause) =
        split_seat(v).ok_or_else(|| "expected SEAT:cause or -:cause".to_string())?;
    if seat == b"-" {
        return Ok((None, cause.trim_ascii()));
    }
    let seat = Seat::parse(seat)
        .ok_or_else(|| format!("expected a seat or '-', found '{}'", lossy(seat)))?;
    Ok((Some(seat), cause.trim_ascii()))
}

/// The number of players a Competition value names ("Double-deck Four-handed").
pub fn players_in_competition(v: &str) -> Option<usize> {
    let lower = v.to_ascii_lowercase();
    const WORDS: [&str; 7] = ["two", "three", "four", "five", "six", "seven", "eight"];
    (2..=8).find(|&n| {
        let w = WORDS[n - 2];
        [
            format!("{w}-hand"),
            format!("{w} hand"),
            format!("{n}-hand"),
            format!("{n} hand"),
        ]
        .iter()
        .any(|p| lower.contains(p.as_str()))
    })
}

pub use crate::notation::tagpair::text::unescape;

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass reading gives what the entry-by-entry reading gives,
    /// values and messages, on lists made of the bytes that matter.
    mod fast_hand_lists {
        use super::*;
        use proptest::prelude::*;

        fn same(v: &[u8]) -> Result<(), TestCaseError> {
            prop_assert_eq!(parse_hand_list(v), hand_list(v, false), "{:?}", lossy(v));
            Ok(())
        }

        /// A seat that shows no meld: `(0)`, `-(0)` or `...(0)`, each an
        /// empty meld of its own (not the points of the seat before).
        #[test]
        fn seats_without_meld() {
            for v in [
                &b"S:KQ.QJ.Q.KQ(16) A.AJ.AKQ.A(16) A.AKQ.A.AKQ(14) (0)"[..],
                b"S:KQ.QJ.Q.KQ(16) A.AJ.AKQ.A(16) A.AKQ.A.AKQ(14) -(0)",
                b"S:KQ.QJ.Q.KQ(16) A.AJ.AKQ.A(16) A.AKQ.A.AKQ(14) ...(0)",
                b"S:KQ.QJ.Q.KQ(16) A.AJ.AKQ.A(16) A.AKQ.A.AKQ (14) (0)",
            ] {
                same(v).unwrap();
                let h = parse_hand_list(v).unwrap().entries;
                assert_eq!(h.len(), 4, "{}", lossy(v));
                assert_eq!(h.get(2).cards.unwrap().len(), 8);
                assert_eq!(h.get(2).points, Some(14));
                assert_eq!(h.get(3).cards, Some(&[][..]));
                assert_eq!(h.get(3).points, Some(0));
            }
            // Without points, `-` is a seat not known, as before.
            let h = parse_hand_list(b"S:K(1) -").unwrap().entries;
            assert_eq!(h.get(1).cards, None);
        }

        #[test]
        fn written_cases() {
            for v in [
                &b"N:K.KQJ.KQ.KQ(20) .JJ.KKQQ.(38) J.J.J.J(4) K.KQ.ATKQJ.KQ(27)"[..],
                b"E:ATTTQQJ.QQJJ.AQQQJ.TKQQ - * ?",
                b"E: -(5) - (6) ? (7)  K.K..K (3)\t..9a.",
                b"W:(3) K(3)(4)",
                b"W:K (3) (4)",
                b"W:K(-3) Q",
                b"W:K( 3) Q",
                b"W:K() Q",
                b"W:K(1234567890)",
                b"W:K(123456789)",
                b"W:A.K.Q.J.A",
                b"W:A.K.X.",
                b"W:-K",
                b"W:K)",
                b"W:",
                b"W: ",
                b"X:K",
                b"W:K(3",
            ] {
                same(v).unwrap();
            }
            let fast = parse_hand_list(b"E: -(5) K.K..K (3)").unwrap().entries;
            assert_eq!(fast.len(), 2);
            assert_eq!(fast.get(0).cards, Some(&[][..]));
            assert_eq!(fast.get(0).points, Some(5));
            assert_eq!(fast.get(1).cards.unwrap().len(), 3);
            assert_eq!(fast.get(1).points, Some(3));
            // Past the room held inline (96 cards, four hands): six hands of
            // 20 cards, by both readings.
            let six = format!("N:{}", ["AATTKKQQJJ.AATTK.KQ.QJJ(7)"; 6].join(" "));
            same(six.as_bytes()).unwrap();
            let six = parse_hand_list(six.as_bytes()).unwrap().entries;
            assert_eq!(six.len(), 6);
            for h in six.iter() {
                assert_eq!(h.cards.unwrap().len(), 20);
                assert_eq!(h.cards.unwrap()[19], Card::parse(b"HJ").unwrap());
                assert_eq!(h.points, Some(7));
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(4000))]
            #[test]
            fn random_lists(body in prop::collection::vec(
                prop::sample::select(&b"ATKQJ9atkqjx.......   \t()()0123-*?+"[..]), 0..40)) {
                let mut v = b"S:".to_vec();
                v.extend(body);
                same(&v)?;
            }
        }
    }

    fn names(c: &[Card]) -> String {
        c.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn numbers_and_scores() {
        assert_eq!(parse_i32(b"65"), Some(65));
        assert_eq!(parse_i32(b"-54"), Some(-54));
        assert_eq!(parse_i32(b"99999999999"), None);
        assert_eq!(parse_i32(b"2147483648"), None);
        assert_eq!(parse_i32(b"-2147483648"), Some(i32::MIN));
        assert_eq!(parse_i32(b"6x"), None);
        assert_eq!(parse_u32(b"4294967295"), Some(u32::MAX));
        assert_eq!(parse_u32(b"4294967296"), None);
        assert_eq!(parse_u32(b"007"), Some(7));
        assert_eq!(parse_u32(b"+7"), None);
        assert_eq!(parse_u32(b" 7"), None);
        assert_eq!(parse_u32(b""), None);
        let scores = |v: &[u8]| parse_scores(v).map(|s| s.to_vec());
        assert_eq!(scores(b"-54:328"), Some(vec![Some(-54), Some(328)]));
        assert_eq!(scores(b"26:9:71"), Some(vec![Some(26), Some(9), Some(71)]));
        assert_eq!(scores(b"0:*"), Some(vec![Some(0), None]));
        assert_eq!(scores(b"1:x"), None);
        assert_eq!(scores(b""), Some(vec![None]));
        // Past the four kept inline, and a bad fifth.
        assert_eq!(
            scores(b"1:2:?:4:5: 6"),
            Some(vec![Some(1), Some(2), None, Some(4), Some(5), Some(6)])
        );
        assert_eq!(
            scores(b"1:2:3:4"),
            Some(vec![Some(1), Some(2), Some(3), Some(4)])
        );
        assert_eq!(scores(b"1:2:3:4:y"), None);
    }

    #[test]
    fn dates() {
        assert_eq!(parse_date(b"1970.01.01"), DateValue::Known(0));
        assert_eq!(parse_date(b"2015.08.31"), DateValue::Known(16678));
        assert_eq!(parse_date(b"2000.02.29"), DateValue::Known(11016));
        assert_eq!(parse_date(b"2015.??.??"), DateValue::Partial);
        assert_eq!(parse_date(b"2015.02.29"), DateValue::Invalid);
        assert_eq!(parse_date(b"2015-08-31"), DateValue::Invalid);
        assert_eq!(parse_date(b"15.08.31"), DateValue::Invalid);
        // Ten bytes with the dots in place, but a third dot, a part too
        // long or short, or a sign.
        for v in [
            &b"2015.0.831"[..],
            b"2015..0831",
            b"201.5.0831",
            b"2015.08.3.",
            b"+015.08.31",
            b"2015.08.31 ",
            b"2015.8.31",
        ] {
            assert_eq!(parse_date(v), DateValue::Invalid, "{v:?}");
        }
        assert_eq!(parse_date(b"????.08.??"), DateValue::Partial);
    }

    #[test]
    fn spec_deal_example() {
        let d = parse_hand_list(b"E:ATTTQQJ.QQJJ.AQQQJ.TKQQ KQQJJ.TKKKKQ.AK.AATKQJJ TKJ.AAAATTJJ.AATTKJJ.KJ AAAKK.TQ.TTKKQJ.AATTKQJ").unwrap();
        assert_eq!(d.first, Seat::E);
        assert_eq!(d.entries.len(), 4);
        let all: Vec<&[Card]> = d.entries.iter().map(|e| e.cards.unwrap()).collect();
        assert!(all.iter().all(|h| h.len() == 20));
        assert_eq!(
            names(all[0]),
            "CA CT CT CT CQ CQ CJ DQ DQ DJ DJ SA SQ SQ SQ SJ HT HK HQ HQ"
        );
        // The example is a full double deck: four of each of the 20 cards.
        let mut count = std::collections::HashMap::new();
        for h in &all {
            for c in h.iter() {
                *count.entry(*c).or_insert(0) += 1;
            }
        }
        assert_eq!(count.len(), 20);
        assert!(count.values().all(|&n| n == 4));
    }

    #[test]
    fn spec_melds_passed_discard_holding_kitty() {
        let m = parse_hand_list(b"N:QQ.KQQ.QQ.QQJJ(94) K.ATKQJ.KQ.KQ(27) J.J.J.J(4) KQ.ATKQJ(17)")
            .unwrap();
        assert_eq!(m.first, Seat::N);
        let pts: Vec<Option<i32>> = m.entries.iter().map(|e| e.points).collect();
        assert_eq!(pts, [Some(94), Some(27), Some(4), Some(17)]);
        assert_eq!(names(m.entries.get(2).cards.unwrap()), "CJ DJ SJ HJ");
        assert_eq!(
            names(m.entries.get(0).cards.unwrap()),
            "CQ CQ DK DQ DQ SQ SQ HQ HQ HJ HJ"
        );
        assert_eq!(
            names(m.entries.get(3).cards.unwrap()),
            "CK CQ DA DT DK DQ DJ"
        );

        let p = parse_hand_list(b"E:.J.QQ. ..A.AA TKJ... K.TQ..").unwrap();
        let sizes: Vec<usize> = p.entries.iter().map(|e| e.cards.unwrap().len()).collect();
        assert_eq!(sizes, [3, 3, 3, 3]);
        assert_eq!(names(p.entries.get(1).cards.unwrap()), "SA HA HA");

        let d = parse_dot_with_points(b"K.K..K (3)").unwrap();
        assert_eq!(names(d.get(0).cards.unwrap()), "CK DK HK");
        assert_eq!(d.get(0).points, Some(3));
        let d = parse_dot_with_points(b".T.QQ. (0)").unwrap();
        assert_eq!(names(d.get(0).cards.unwrap()), "DT SQ SQ");
        assert_eq!(d.get(0).points, Some(0));

        let h = parse_hand_list(b"E:ATTTTKJQQJ.QQJ.AQJ.TKQQ KKQQJJ.TTKKKKQQ.K.TKQJJ .AAAATTJJJ.AATTKQQJJ.KJ AAAK..ATTKKQJ.AAAATTKQJ").unwrap();
        let sizes: Vec<usize> = h.entries.iter().map(|e| e.cards.unwrap().len()).collect();
        assert_eq!(sizes, [20, 20, 20, 20]);

        assert_eq!(names(&parse_card_list(b"SK H9 CT").unwrap()), "SK H9 CT");
        assert_eq!(names(&parse_card_list(b"HA CJ HA").unwrap()), "HA CJ HA");
        assert!(parse_card_list(b"SK XX").is_err());
    }

    #[test]
    fn unknown_hands_and_bad_hands() {
        let d = parse_hand_list(b"N:- A... - ...").unwrap();
        assert_eq!(d.entries.get(0).cards, None);
        assert!(parse_hand_list(b"ATK...").is_err());
        assert_eq!(
            parse_hand_list(b"Q:A...").unwrap_err(),
            "expected a seat (N, NE, E, ...), found 'Q'"
        );
        assert_eq!(
            parse_hand_list(b"N:A.K.Q.J.T").unwrap_err(),
            "expected at most 4 suit groups (clubs.diamonds.spades.hearts) in 'A.K.Q.J.T', found 5"
        );
        assert_eq!(parse_hand_list(b"N:*").unwrap().entries.get(0).cards, None);
        // Points after a space stay with their hand; `-` with points is a
        // seat that shows no meld.
        let l = parse_hand_list(b"N: K.K..K (3)\t- (0)  A...  (12) J ").unwrap();
        assert_eq!(l.entries.len(), 4);
        let e: Vec<(Option<String>, Option<i32>)> = l
            .entries
            .iter()
            .map(|e| (e.cards.map(names), e.points))
            .collect();
        assert_eq!(
            e,
            [
                (Some("CK DK HK".to_string()), Some(3)),
                (Some(String::new()), Some(0)),
                (Some("CA".to_string()), Some(12)),
                (Some("CJ".to_string()), None),
            ]
        );
        assert_eq!(
            parse_hand_list(b"N:A... A.X..").unwrap_err(),
            "expected a rank (A T K Q J 9) in 'A.X..', found 'X'"
        );
    }

    #[test]
    fn partner_and_termination() {
        assert_eq!(
            parse_partner(b"SE:HA").unwrap(),
            (Seat::SE, Card::parse(b"HA").unwrap())
        );
        assert_eq!(parse_partner(b"N:SQ").unwrap().0, Seat::N);
        assert_eq!(
            parse_termination(b"W:Time out").unwrap(),
            (Some(Seat::W), &b"Time out"[..])
        );
        assert_eq!(
            parse_termination(b"-:Abandoned").unwrap(),
            (None, &b"Abandoned"[..])
        );
        assert!(parse_termination(b"Abandoned").is_err());
    }

    #[test]
    fn competition_players() {
        assert_eq!(players_in_competition("Double-deck Four-handed"), Some(4));
        assert_eq!(players_in_competition("Single-deck Three-handed"), Some(3));
        assert_eq!(players_in_competition("Triple-deck Six-handed"), Some(6));
        assert_eq!(players_in_competition("Double-deck Passing"), None);
    }

    #[test]
    fn unescaping() {
        assert_eq!(unescape(r#"A \"B\" \\ \n"#), r#"A "B" \ \n"#);
    }
}
