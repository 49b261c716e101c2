//! The lines of a Portable Preferans Notation game: tag pairs (values
//! quoted or not), deal lines and their fourteen fields (the short form of
//! a passed-out deal, and a line with one field missing where only one
//! reading fits), each field read into its value. Borrowed bytes: offsets
//! are into the record.

use crate::games::preferans::Card;
use crate::games::preferans::contract::{Contract, KontraLevel};
use crate::notation::number::parse_i32;

/// A piece of a record and its offset in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field<'a> {
    pub bytes: &'a [u8],
    pub at: usize,
}

/// What a line of a game is.
#[derive(Debug)]
pub enum Line<'a> {
    /// White space only.
    Blank,
    /// A `;` or `%` line, or a `{...}` comment (which may span lines:
    /// `end` is where it ends in the record).
    Comment { text: Field<'a>, end: usize },
    /// `[Name value]` or `[Name "value"]`.
    Tag {
        name: Field<'a>,
        value: Field<'a>,
        /// The value was quoted (escapes `\"` and `\\` undone when read).
        quoted: bool,
        /// The value's opening quote never closes: read to the `]`.
        open_quote: bool,
        /// Text after the `]` that is not a comment.
        after: Option<Field<'a>>,
    },
    /// `[1 231 ...]`: the fields between the brackets.
    Deal {
        fields: Vec<Field<'a>>,
        after: Option<Field<'a>>,
    },
    /// A `[` without its `]`, or text that is none of the above.
    Stray { why: &'static str },
}

/// Reads the line at `at` (its line end excluded) of `rec`; a brace
/// comment runs on over lines until its `}`. Returns the line and where
/// the next line starts.
pub fn line(rec: &[u8], at: usize) -> (Line<'_>, usize) {
    let end = memchr::memchr(b'\n', &rec[at..]).map_or(rec.len(), |p| at + p);
    let next = (end + 1).min(rec.len()).max(end);
    let raw = &rec[at..end];
    let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
    let lead = raw.len() - raw.trim_ascii_start().len();
    let t = raw.trim_ascii();
    let start = at + lead;
    match t.first() {
        None => (Line::Blank, next),
        Some(b';' | b'%') => (
            Line::Comment {
                text: Field {
                    bytes: t,
                    at: start,
                },
                end,
            },
            next,
        ),
        Some(b'{') => {
            let close = memchr::memchr(b'}', &rec[start..]).map(|p| start + p);
            let stop = close.map_or(rec.len(), |c| c + 1);
            let text = Field {
                bytes: &rec[start..stop],
                at: start,
            };
            // The rest of the line after the comment's end.
            let line_end = memchr::memchr(b'\n', &rec[stop..]).map_or(rec.len(), |p| stop + p);
            let rest = rec[stop..line_end].trim_ascii();
            if rest.is_empty() {
                (
                    (Line::Comment { text, end: stop }),
                    (line_end + 1).min(rec.len()).max(line_end),
                )
            } else {
                // Text after a comment closed on a line: read that line
                // again from after the comment.
                (Line::Comment { text, end: stop }, stop)
            }
        }
        Some(b'[') => (bracket(rec, start, start + t.len()), next),
        Some(_) => (
            Line::Stray {
                why: "a line that is not a tag pair, a deal line or a comment",
            },
            next,
        ),
    }
}

/// Where a `{` comment that never closes opens in `rec` after a tag pair
/// or a deal line (the game then ends before it), if one does.
pub fn unclosed_after_game(rec: &[u8]) -> Option<usize> {
    // Most games have no brace comment at all.
    memchr::memchr(b'{', rec)?;
    let mut seen = false;
    let mut at = 0;
    while at < rec.len() {
        let (line, next) = line(rec, at);
        match line {
            Line::Comment { text, .. }
                if text.bytes.first() == Some(&b'{') && !text.bytes.ends_with(b"}") =>
            {
                return seen.then_some(text.at);
            }
            Line::Tag { .. } | Line::Deal { .. } => seen = true,
            _ => {}
        }
        at = next.max(at + 1);
    }
    None
}

/// A line that starts with `[` at `start` and ends (trimmed) at `end`.
fn bracket(rec: &[u8], start: usize, end: usize) -> Line<'_> {
    let mut i = start + 1;
    while i < end && rec[i].is_ascii_whitespace() {
        i += 1;
    }
    let name_at = i;
    while i < end && !rec[i].is_ascii_whitespace() && rec[i] != b']' && rec[i] != b'"' {
        i += 1;
    }
    let name = Field {
        bytes: &rec[name_at..i],
        at: name_at,
    };
    if name.bytes.is_empty() {
        return Line::Stray {
            why: "a '[' without a tag name or deal id",
        };
    }
    if name.bytes.iter().all(u8::is_ascii_digit) {
        let Some(close) = memchr::memchr(b']', &rec[i..end]).map(|p| i + p) else {
            return Line::Stray {
                why: "a deal line without its closing ']'",
            };
        };
        let mut fields = Vec::with_capacity(14);
        let mut j = name_at;
        while j < close {
            while j < close && rec[j].is_ascii_whitespace() {
                j += 1;
            }
            let f = j;
            while j < close && !rec[j].is_ascii_whitespace() {
                j += 1;
            }
            if j > f {
                fields.push(Field {
                    bytes: &rec[f..j],
                    at: f,
                });
            }
        }
        return Line::Deal {
            fields,
            after: after(rec, close + 1, end),
        };
    }
    while i < end && rec[i].is_ascii_whitespace() {
        i += 1;
    }
    if rec.get(i) == Some(&b'"') {
        // A quoted value: to the next quote not escaped.
        let v = i + 1;
        let mut j = v;
        while j < end && rec[j] != b'"' {
            j += if rec[j] == b'\\' { 2 } else { 1 };
        }
        if j < end {
            let close = memchr::memchr(b']', &rec[j..end]).map(|p| j + p);
            if let Some(close) = close
                && rec[j + 1..close].trim_ascii().is_empty()
            {
                return Line::Tag {
                    name,
                    value: Field {
                        bytes: &rec[v..j],
                        at: v,
                    },
                    quoted: true,
                    open_quote: false,
                    after: after(rec, close + 1, end),
                };
            }
        }
        // No closing quote (or text between it and the ']'): the value
        // runs to the line's last ']'.
        let Some(close) = memchr::memrchr(b']', &rec[v..end]).map(|p| v + p) else {
            return Line::Stray {
                why: "a tag pair without its closing ']'",
            };
        };
        return Line::Tag {
            name,
            value: Field {
                bytes: &rec[v..close],
                at: v,
            },
            quoted: true,
            open_quote: true,
            after: after(rec, close + 1, end),
        };
    }
    let Some(close) = memchr::memchr(b']', &rec[i..end]).map(|p| i + p) else {
        return Line::Stray {
            why: "a tag pair without its closing ']'",
        };
    };
    let v = rec[i..close].trim_ascii_end();
    Line::Tag {
        name,
        value: Field { bytes: v, at: i },
        quoted: false,
        open_quote: false,
        after: after(rec, close + 1, end),
    }
}

/// Text after a tag pair or deal line's `]` that is not a comment.
fn after(rec: &[u8], from: usize, end: usize) -> Option<Field<'_>> {
    let s = &rec[from.min(end)..end];
    let lead = s.len() - s.trim_ascii_start().len();
    let t = s.trim_ascii();
    (!t.is_empty()).then_some(Field {
        bytes: t,
        at: from + lead,
    })
}

/// A card of the notation's table: `1`-`8` spades 7 to ace, `9` and
/// `A`-`G` diamonds, `H`-`O` hearts, `P`-`W` clubs.
#[inline]
pub fn card(b: u8) -> Option<Card> {
    let i = match b {
        b'1'..=b'9' => b - b'1',
        b'A'..=b'W' => b - b'A' + 9,
        _ => return None,
    };
    Card::from_index(i)
}

/// The character of a card (the inverse of [`card`]).
pub fn card_char(c: Card) -> u8 {
    b"123456789ABCDEFGHIJKLMNOPQRSTUVW"[c.index() as usize]
}

/// Cards of a string, or the offset of the first character that is none.
pub fn cards(b: &[u8]) -> Result<Vec<Card>, usize> {
    let mut v = Vec::with_capacity(b.len());
    for (i, &c) in b.iter().enumerate() {
        v.push(card(c).ok_or(i)?);
    }
    Ok(v)
}

/// The fields of a full deal line, in order.
pub const FIELDS: [&str; 14] = [
    "id",
    "deal order",
    "cards",
    "bids",
    "main",
    "discarded",
    "contract",
    "accepted",
    "kontra",
    "refa",
    "value",
    "starts",
    "throws",
    "summary",
];

pub const ID: usize = 0;
pub const ORDER: usize = 1;
pub const CARDS: usize = 2;
pub const BIDS: usize = 3;
pub const MAIN: usize = 4;
pub const DISCARDED: usize = 5;
pub const CONTRACT: usize = 6;
pub const ACCEPTED: usize = 7;
pub const KONTRA: usize = 8;
pub const REFA: usize = 9;
pub const VALUE: usize = 10;
pub const STARTS: usize = 11;
pub const THROWS: usize = 12;
pub const SUMMARY: usize = 13;

/// The deal order: three players, each once; the last deals.
pub fn order(b: &[u8]) -> Option<[u8; 3]> {
    let [a, b, c] = *b else { return None };
    let o = [a, b, c].map(|x| x.wrapping_sub(b'0'));
    let ok = o.iter().all(|p| (1..=3).contains(p)) && o[0] != o[1] && o[1] != o[2] && o[0] != o[2];
    ok.then_some(o)
}

/// A player: `1`, `2` or `3`.
pub fn player(b: &[u8]) -> Option<u8> {
    match b {
        [p @ b'1'..=b'3'] => Some(p - b'0'),
        _ => None,
    }
}

/// The discarded cards: None for `XX` (a game without the talon).
pub fn discarded(b: &[u8]) -> Option<Option<[Card; 2]>> {
    match b {
        b"XX" => Some(None),
        [x, y] => Some(Some([card(*x)?, card(*y)?])),
        _ => None,
    }
}

/// A contract: `2`-`8`, `G` before it for a game without the talon.
pub fn contract(b: &[u8]) -> Option<Contract> {
    match b {
        [n @ b'0'..=b'9'] => Contract::new(n - b'0', false),
        [b'G', n @ b'0'..=b'9'] => Contract::new(n - b'0', true),
        _ => None,
    }
}

/// Who follows: a number (0, a player, 4 or more for both).
pub fn accepted(b: &[u8]) -> Option<i32> {
    if b.is_empty() || b.len() > 3 || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    parse_i32(b)
}

/// The kontras: None for `0`, else the level and the player who began.
pub fn kontra(b: &[u8]) -> Option<Option<(KontraLevel, u8)>> {
    match b {
        b"0" => Some(None),
        [l, p] => Some(Some((KontraLevel::from_letter(*l)?, player(&[*p])?))),
        _ => None,
    }
}

/// A refa: `0` or `1`.
pub fn refa(b: &[u8]) -> Option<bool> {
    match b {
        b"0" => Some(false),
        b"1" => Some(true),
        _ => None,
    }
}

/// The contract's value: an integer.
pub fn value(b: &[u8]) -> Option<i32> {
    if b.is_empty() || !(b.iter().all(|c| c.is_ascii_digit() || *c == b'-')) {
        return None;
    }
    parse_i32(b)
}

/// One throw: two or three cards and the winner (`2A12`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Throw<'a> {
    pub text: Field<'a>,
    /// Its cards, when each character is one (two or three of them).
    pub cards: Option<([Card; 3], usize)>,
    /// The winner as annotated, when it is a player.
    pub winner: Option<u8>,
}

/// A throw's text read (its cards only when its last character is a
/// player: `M9B` is no throw of two cards).
pub fn throw(f: Field<'_>) -> Throw<'_> {
    let b = f.bytes;
    let (winner, cs) = match b.split_last() {
        Some((w, cs)) => (player(&[*w]), cs),
        None => (None, b),
    };
    let cards = if winner.is_some() && (2..=3).contains(&cs.len()) {
        let mut a = [Card::from_index(0).expect("a card"); 3];
        let mut ok = true;
        for (i, &c) in cs.iter().enumerate() {
            match card(c) {
                Some(c) => a[i] = c,
                None => ok = false,
            }
        }
        ok.then_some((a, cs.len()))
    } else {
        None
    };
    Throw {
        text: f,
        cards,
        winner,
    }
}

/// The throws of a deal (`0`: none, no card was played), split at commas.
pub fn throws(f: Field<'_>) -> Vec<Throw<'_>> {
    if f.bytes == b"0" {
        return Vec::new();
    }
    let mut v = Vec::with_capacity(10);
    let mut at = f.at;
    for part in f.bytes.split(|&c| c == b',') {
        v.push(throw(Field { bytes: part, at }));
        at += part.len() + 1;
    }
    v
}

/// Whether a field reads as throws (for the reading of a line with a
/// field missing): `0`, or throws of two or three cards and a winner.
fn throws_shape(b: &[u8]) -> bool {
    b == b"0"
        || b.split(|&c| c == b',').all(|t| {
            let th = throw(Field { bytes: t, at: 0 });
            th.cards.is_some() && th.winner.is_some()
        })
}

/// A player's entry of the summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// `M` (main), `F` (follower) or `0` (did not play).
    pub role: u8,
    pub tricks: Option<i32>,
    pub left: Option<i32>,
    pub middle: Option<i32>,
    pub right: Option<i32>,
}

/// A summary entry: `0`, `M<tricks>:<middle>`, `F<tricks>:L<left>` or
/// `F<tricks>:R<right>`, then an optional `:<middle>` of a follower who
/// failed.
pub fn entry(b: &[u8]) -> Option<Entry> {
    if b == b"0" {
        return Some(Entry {
            role: b'0',
            ..Entry::default()
        });
    }
    let (&role, rest) = b.split_first()?;
    let mut parts = rest.split(|&c| c == b':');
    let tricks = parts.next().and_then(|t| {
        (!t.is_empty() && t.len() <= 2 && t.iter().all(u8::is_ascii_digit))
            .then(|| parse_i32(t))
            .flatten()
    })?;
    let mut e = Entry {
        role,
        tricks: Some(tricks),
        ..Entry::default()
    };
    match role {
        b'M' => {
            let m = parts.next()?;
            e.middle = Some(value(m)?);
        }
        b'F' => {
            if let Some(p) = parts.next() {
                match p.first() {
                    Some(b'L') => e.left = Some(value(&p[1..])?),
                    Some(b'R') => e.right = Some(value(&p[1..])?),
                    _ => e.middle = Some(value(p)?),
                }
                if e.middle.is_none()
                    && let Some(m) = parts.next()
                {
                    e.middle = Some(value(m)?);
                }
            }
        }
        _ => return None,
    }
    parts.next().is_none().then_some(e)
}

/// A summary: three entries, in deal order.
pub fn summary(b: &[u8]) -> Option<[Entry; 3]> {
    let mut it = b.split(|&c| c == b',');
    let e = [entry(it.next()?)?, entry(it.next()?)?, entry(it.next()?)?];
    it.next().is_none().then_some(e)
}

/// The highest bids: three entries, in deal order.
pub fn bids(b: &[u8]) -> Option<[&[u8]; 3]> {
    let mut it = b.split(|&c| c == b',');
    let e = [it.next()?, it.next()?, it.next()?];
    (it.next().is_none() && e.iter().all(|x| !x.is_empty())).then_some(e)
}

/// Whether `b` reads as field `k` of a full deal line.
pub fn fits(k: usize, b: &[u8]) -> bool {
    match k {
        ID => !b.is_empty() && b.iter().all(u8::is_ascii_digit),
        ORDER => order(b).is_some(),
        CARDS => b.len() == 32 && cards(b).is_ok(),
        BIDS => bids(b).is_some(),
        MAIN | STARTS => player(b).is_some(),
        DISCARDED => discarded(b).is_some(),
        CONTRACT => contract(b).is_some(),
        ACCEPTED => accepted(b).is_some(),
        KONTRA => kontra(b).is_some(),
        REFA => refa(b).is_some(),
        VALUE => value(b).is_some_and(|v| v > 0),
        THROWS => throws_shape(b),
        SUMMARY => summary(b).is_some(),
        _ => false,
    }
}

/// The fields of a deal line by their place (None where missing), and
/// which one was missing when the line has thirteen; Err with why when
/// the line cannot be read.
pub type Slots<'a> = [Option<Field<'a>>; 14];

pub enum Shape<'a> {
    /// All fourteen fields.
    Full(Slots<'a>),
    /// The short form of a passed-out deal: id, deal order, cards, bids.
    Short(Slots<'a>),
    /// Thirteen fields, the one at this place missing (the only reading
    /// in which every field fits).
    Missing(Slots<'a>, usize),
}

/// Places the fields of a deal line.
pub fn shape<'a>(fields: &[Field<'a>]) -> Result<Shape<'a>, String> {
    let mut slots: Slots<'a> = [None; 14];
    match fields.len() {
        14 => {
            for (s, f) in slots.iter_mut().zip(fields) {
                *s = Some(*f);
            }
            Ok(Shape::Full(slots))
        }
        4 => {
            for (s, f) in slots.iter_mut().zip(fields) {
                *s = Some(*f);
            }
            Ok(Shape::Short(slots))
        }
        13 => {
            // Each place the missing field could be: the readings in which
            // every field fits its place.
            let fit: Vec<usize> = (0..14)
                .filter(|&gap| {
                    (0..13).all(|i| {
                        let k = if i < gap { i } else { i + 1 };
                        fits(k, fields[i].bytes)
                    })
                })
                .collect();
            match fit[..] {
                [gap] => {
                    for (i, f) in fields.iter().enumerate() {
                        let k = if i < gap { i } else { i + 1 };
                        slots[k] = Some(*f);
                    }
                    Ok(Shape::Missing(slots, gap))
                }
                [] => Err(
                    "13 fields where a deal line has 14, and no field can be missing so that the others read in order: the line is not read"
                        .to_string(),
                ),
                _ => Err(format!(
                    "13 fields where a deal line has 14, and the missing one could be any of {}: the line is not read",
                    fit.iter().map(|&k| FIELDS[k]).collect::<Vec<_>>().join(", ")
                )),
            }
        }
        n => Err(format!(
            "{n} fields: a deal line has 14 (id, deal order, cards, bids, main, discarded, contract, accepted, kontra, refa, value, starts, throws, summary), or 4 when every player passed: the line is not read"
        )),
    }
}

/// Whether every card of the deck is once in `cards`: the cards twice and
/// the cards missing.
pub fn deck_check(cards: &[Card]) -> (Vec<Card>, Vec<Card>) {
    let mut seen = 0u32;
    let mut twice = 0u32;
    for c in cards {
        let bit = 1u32 << c.index();
        twice |= seen & bit;
        seen |= bit;
    }
    if twice == 0 && seen == u32::MAX {
        return (Vec::new(), Vec::new());
    }
    let of = |mask: u32| -> Vec<Card> {
        (0..32u8)
            .filter(|i| mask & (1 << i) != 0)
            .filter_map(Card::from_index)
            .collect()
    };
    (of(twice), of(!seen))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(b: &[u8]) -> Field<'_> {
        Field { bytes: b, at: 0 }
    }

    #[test]
    fn cards_decode_by_the_table_and_back() {
        let all = b"123456789ABCDEFGHIJKLMNOPQRSTUVW";
        for (i, &c) in all.iter().enumerate() {
            let card = card(c).unwrap();
            assert_eq!(card.index() as usize, i);
            assert_eq!(card_char(card), c);
        }
        assert_eq!(card(b'0'), None);
        assert_eq!(card(b'X'), None);
        assert_eq!(card(b'a'), None);
        assert_eq!(&card(b'C').unwrap().name(), b"DT");
        assert_eq!(&card(b'W').unwrap().name(), b"CA");
        assert_eq!(&card(b'1').unwrap().name(), b"S7");
    }

    #[test]
    fn tags_quoted_and_not_and_deal_lines() {
        let rec = b"[Bula 60]\n[Player1 \"Ann \\\"L\\\" Lee\"]\r\n  [1 231 X Y]  \n; c\n{a\nb} [Refe 2]\nzz\n[Date \"x]\n";
        let (l, n) = line(rec, 0);
        let Line::Tag {
            name,
            value,
            quoted,
            ..
        } = l
        else {
            panic!()
        };
        assert_eq!(
            (name.bytes, value.bytes, quoted),
            (&b"Bula"[..], &b"60"[..], false)
        );
        let (l, n) = line(rec, n);
        let Line::Tag {
            value,
            quoted,
            open_quote,
            ..
        } = l
        else {
            panic!()
        };
        assert_eq!(
            (value.bytes, quoted, open_quote),
            (&b"Ann \\\"L\\\" Lee"[..], true, false)
        );
        let (l, n) = line(rec, n);
        let Line::Deal { fields, after } = l else {
            panic!()
        };
        assert_eq!(
            fields.iter().map(|f| f.bytes).collect::<Vec<_>>(),
            [&b"1"[..], b"231", b"X", b"Y"]
        );
        assert_eq!(fields[1].at, 42);
        assert_eq!(after, None);
        let (l, n) = line(rec, n);
        assert!(matches!(l, Line::Comment { text, .. } if text.bytes == b"; c"));
        let (l, n) = line(rec, n);
        assert!(matches!(l, Line::Comment { text, .. } if text.bytes == b"{a\nb}"));
        let (l, n) = line(rec, n);
        assert!(matches!(l, Line::Tag { name, .. } if name.bytes == b"Refe"));
        let (l, n) = line(rec, n);
        assert!(matches!(l, Line::Stray { .. }));
        let (l, _) = line(rec, n);
        assert!(matches!(l, Line::Tag { value, open_quote: true, .. } if value.bytes == b"x"));
    }

    #[test]
    fn a_line_of_thirteen_fields_reads_where_one_reading_fits() {
        let line = b"1 231 1BDHM27WQK4CEIN3FVRJS5LP8GU6AOT9 M3,P,3 2 AR 4 3 I3 8 2 2A12,M9B2 M7:-8,F3:L24,0";
        let fields: Vec<Field> = line.split(|&c| c == b' ').map(|b| f(b)).collect();
        let Ok(Shape::Missing(slots, gap)) = shape(&fields) else {
            panic!()
        };
        assert_eq!(FIELDS[gap], "refa");
        assert_eq!(slots[VALUE].unwrap().bytes, b"8");
        assert_eq!(slots[STARTS].unwrap().bytes, b"2");
        // `0 2`: refa 0 and starts 2 (value missing), or refa 0 and
        // value 2 (starts missing): not read.
        let line =
            b"1 231 1BDHM27WQK4CEIN3FVRJS5LP8GU6AOT9 M3,P,3 2 AR 4 3 I3 0 2 2A12 M7:-8,F3:L24,0";
        let fields: Vec<Field> = line.split(|&c| c == b' ').map(|b| f(b)).collect();
        let Err(why) = shape(&fields) else { panic!() };
        assert!(why.contains("could be any of value, starts"), "{why}");
    }

    #[test]
    fn summaries_and_throws() {
        assert_eq!(
            summary(b"M7:-64,F3:L192:64,0").unwrap(),
            [
                Entry {
                    role: b'M',
                    tricks: Some(7),
                    middle: Some(-64),
                    ..Entry::default()
                },
                Entry {
                    role: b'F',
                    tricks: Some(3),
                    left: Some(192),
                    middle: Some(64),
                    right: None
                },
                Entry {
                    role: b'0',
                    ..Entry::default()
                },
            ]
        );
        assert_eq!(entry(b"F2:R40").unwrap().right, Some(40));
        assert_eq!(entry(b"F2:X40"), None);
        assert_eq!(entry(b"M5"), None);
        assert_eq!(summary(b"0,0"), None);
        let t = throws(Field {
            bytes: b"2A12,M9B,0",
            at: 10,
        });
        assert_eq!(t.len(), 3);
        assert_eq!(t[0].winner, Some(2));
        assert_eq!(t[0].cards.unwrap().1, 3);
        assert_eq!(t[1].text.at, 15);
        assert_eq!(t[1].winner, None);
        assert!(throws(f(b"0")).is_empty());
    }
}
