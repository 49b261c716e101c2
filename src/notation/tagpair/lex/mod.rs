//! The tokens of one record of a tag-pair notation, borrowed from the input.
//!
//! Knows syntax only: tag pairs (with segmental prefixes), section tokens,
//! comments and escape lines. Meaning is given by the notation; what differs
//! from one notation of the family to another (its diagnostic codes, its
//! segment letters, a hint for a value written without quotes) is its
//! [`Dialect`].

use std::ops::Range;

use memchr::{memchr, memchr3};

use super::split::{is_name, is_ws};
use crate::error::Diag;
use crate::notation::number::parse_u32;

/// What a notation of the tag-pair family makes of the shared syntax.
#[derive(Debug)]
pub struct Dialect {
    pub codes: Codes,
    /// The segment letters of segmental prefixes (`@A1-P3=[Note "..."]`);
    /// empty for a notation without them.
    pub segments: &'static [u8],
    /// What the message of a value written without quotes adds, for the
    /// tag `name` (a hint at another notation that writes values so).
    pub unquoted_hint: fn(name: &[u8]) -> &'static str,
    /// Tags that may appear many times in a record and are never inherited.
    pub repeatable: fn(name: &[u8]) -> bool,
    /// What a record is called in messages (`hand`, `game`).
    pub record_word: &'static str,
    /// The tags whose values in the record before a group's first the
    /// group is told of (after inheritance), for checks across records.
    pub before: &'static [&'static [u8]],
    /// Tags a record that gives none of them takes from the record before,
    /// all together (PBN: Board, Dealer, Vulnerable and Deal of a board
    /// played again at another table); empty for none.
    pub together: &'static [&'static [u8]],
    /// ... when it gives one of these (PBN: Auction, Play: a board played,
    /// that needs its deal).
    pub together_if: &'static [&'static [u8]],
    /// A `"` in a section starts a string token that runs to its closing
    /// quote (PBN's table cells: `"Jansen, J."`); else `"` ends a token.
    pub string_tokens: bool,
    /// Read on through broken tag pairs and stray lines (PBN: real files
    /// hold them, and a game loses nothing else for one): a value without
    /// quotes or without its closing quote runs to the `]` on its line, a
    /// missing `]` or tag name and a line of stray text are warnings. Else
    /// (PPN) each quarantines its record.
    pub recover: bool,
}

/// The diagnostic codes of the syntax, by what they report.
#[derive(Debug)]
pub struct Codes {
    pub unterminated_string: &'static str,
    pub missing_bracket: &'static str,
    pub unterminated_comment: &'static str,
    pub outside_tag: &'static str,
    /// A line of stray text skipped in a record that has tags (a
    /// recovering dialect's warning).
    pub stray_text: &'static str,
    pub missing_name: &'static str,
    pub unquoted_value: &'static str,
    pub prefix_without_tag: &'static str,
    pub bad_prefix: &'static str,
    pub too_many_items: &'static str,
    /// A record over the size limit, quarantined unlexed.
    pub too_large: &'static str,
    pub long_tag: &'static str,
    /// Counts the warnings of a record past the most it lists.
    pub unlisted: &'static str,
    /// `#` with nothing to inherit (inheritance).
    pub nothing_to_inherit: &'static str,
    /// Records without blank lines between them past the bounds.
    pub too_many_records: &'static str,
    /// A record that starts without a blank line after the one before.
    pub no_blank_line: &'static str,
    /// A record that took the `together` tags from the record before (an
    /// info).
    pub took_together: &'static str,
}

/// Tags whose texts come from elsewhere after inheritance is resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagState {
    /// As written in this record.
    Written,
    /// Filled in from an earlier hand (`#` or `##`).
    Inherited,
    /// `#` with nothing to inherit from: treated as absent.
    Unresolved,
}

/// A point of a segmental prefix: segment letter and up to two numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SegPoint {
    pub segment: u8,
    pub number: Option<u32>,
    pub sub: Option<u32>,
}

/// A segmental prefix `@start-end=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment<'a> {
    /// The text between `@` and `=`.
    pub text: &'a [u8],
    pub start: SegPoint,
    pub end: Option<SegPoint>,
}

#[derive(Clone, Copy, Debug)]
pub struct Tag<'a> {
    pub name: &'a [u8],
    /// The value between the quotes, escapes not yet undone.
    pub value: &'a [u8],
    /// Offset of the tag (its `[` or `@`) in its record.
    pub at: u32,
    /// Offset of the value's first byte in its record.
    pub value_at: u32,
    /// The value holds backslash escapes.
    pub escaped: bool,
    /// The record the *value* comes from is not valid UTF-8 (decoded as
    /// Latin-1). Inheritance copies it with the value; the tag's section tokens
    /// always belong to the hand's own record, whose flag is `Lexed::latin1`.
    pub latin1: bool,
    pub segment: Option<Segment<'a>>,
    /// Section tokens that follow the tag, in the group's token list.
    pub tokens: Span,
    pub state: TagState,
}

/// A range of a group's token list (`Copy`, unlike `Range`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    pub fn range(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Token<'a> {
    pub text: &'a [u8],
    pub at: u32,
    /// 0-based line within the record.
    pub line: u32,
}

#[derive(Clone, Copy, Debug)]
pub struct Comment<'a> {
    pub text: &'a [u8],
    pub at: u32,
}

/// The flat token lists of a group of records; each record owns ranges of them.
#[derive(Default, Debug)]
pub struct Lists<'a> {
    pub tags: Vec<Tag<'a>>,
    pub tokens: Vec<Token<'a>>,
    pub comments: Vec<Comment<'a>>,
}

impl<'a> Lists<'a> {
    /// The section tokens that follow `t`.
    pub fn tokens_of(&self, t: &Tag<'a>) -> &[Token<'a>] {
        &self.tokens[t.tokens.range()]
    }
}

impl Tag<'_> {
    /// Where a diagnostic of the tag's value points: the value as written,
    /// or the record's start for a value inherited (`#`, `##`) from an
    /// earlier record.
    pub fn diag_at(&self) -> usize {
        if self.state == TagState::Written {
            self.value_at as usize
        } else {
            0
        }
    }
}

/// What lexing one record gave.
#[derive(Clone, Debug)]
pub struct Lexed {
    pub tags: Range<u32>,
    pub comments: Range<u32>,
    /// A syntax error stopped the lexer; the record is quarantined.
    pub error: Option<Diag>,
    /// Warnings found on the way.
    pub warnings: Vec<Diag>,
    /// Some tag value starts with `#`.
    pub has_hash: bool,
    pub latin1: bool,
    /// Where the next hand starts, when hands are not separated by a blank
    /// line: a line that starts with the record's first tag again, or with
    /// another of its (or its record's first hand's) leading tags after its
    /// auction or play (see
    /// [`Lexer::starts_hand`]), or the comment lines just above. Lexing
    /// stopped there (or at a syntax error before); the bytes from there on
    /// are a record of their own.
    pub next: Option<usize>,
    /// The hand's leading tags in the lists: those up to the tag whose
    /// section holds its first tokens (empty when it has none, or when
    /// the record has too many items).
    pub lead: Range<u32>,
}

mod hands;
mod tag;

use hands::{comment_lines_before, starts_hand_at};
pub use tag::parse_segment;

const MAX_TAG_LEN: usize = 255;

/// A record with more tag pairs, or more section tokens, or more comments
/// than this is quarantined (P010). A hand has some 20 tags and 115 tokens;
/// every token is kept while the record is parsed and becomes a row or a
/// value, so a record of millions of them (a 60 MB auction of 21 million
/// bids) took gigabytes. At the limit a record's lists take a few megabytes.
pub const MAX_RECORD_ITEMS: usize = 100_000;

/// Byte classes, one table lookup per byte in the loops below.
const WS: u8 = 1;
/// Ends a section token: white space or `[ { ; " (`.
const END: u8 = 2;
/// May be part of a tag name.
const NAME: u8 = 4;
/// Starts what is not a section token: a tag, a segmental prefix, a
/// comment.
const BREAK: u8 = 8;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if is_ws(c) {
            t[b] |= WS | END;
        }
        if matches!(c, b'[' | b'{' | b';' | b'"' | b'(') {
            t[b] |= END;
        }
        if is_name(c) {
            t[b] |= NAME;
        }
        if matches!(c, b'[' | b'@' | b'{' | b';') {
            t[b] |= BREAK;
        }
        b += 1;
    }
    t
};

/// Offset of the first byte of `r[i..]` not in `class`, or `r.len()`.
#[inline]
fn skip_class(r: &[u8], mut i: usize, class: u8) -> usize {
    while i < r.len() && CLASS[r[i] as usize] & class != 0 {
        i += 1;
    }
    i
}

/// Offset of the first byte of `r[i..]` in `class`, or `r.len()`.
#[inline]
fn find_class(r: &[u8], mut i: usize, class: u8) -> usize {
    while i < r.len() && CLASS[r[i] as usize] & class == 0 {
        i += 1;
    }
    i
}

/// Describes what was found at `i`, for messages.
pub fn found(r: &[u8], i: usize) -> String {
    match r.get(i) {
        None => "the end of the record".to_string(),
        Some(b'\n') | Some(b'\r') => "the end of the line".to_string(),
        Some(&b) if b.is_ascii_graphic() || b == b' ' => format!("'{}'", b as char),
        Some(&b) => format!("byte 0x{b:02X}"),
    }
}

struct Lexer<'a, 'l> {
    d: &'static Dialect,
    r: &'a [u8],
    i: usize,
    line: u32,
    line_start: usize,
    lists: &'l mut Lists<'a>,
    warnings: Vec<Diag>,
    has_hash: bool,
    /// The tag whose section tokens are being read; its token span is closed
    /// when the next tag starts or the record ends.
    section: Option<usize>,
    /// The lists' lengths past which the record has too many tags, tokens
    /// or comments ([`MAX_RECORD_ITEMS`]).
    max_tags: usize,
    max_tokens: usize,
    max_comments: usize,
    /// The name of the record's first tag without a segmental prefix.
    first: Option<&'a [u8]>,
    /// `[` and the first letters of `first` (up to four bytes, little
    /// endian), and the mask of the bytes they fill.
    first_key: u32,
    first_mask: u32,
    /// The record's first tag and first comment in the lists.
    tags0: usize,
    comments0: usize,
    /// Past the tag (in the lists) that opened the record's first section
    /// with tokens: the tags before it are the hand's leading tags.
    head_end: Option<usize>,
    /// The leading tags of the first hand of the record this hand is in,
    /// when it is not that hand: they start the next hand too.
    prior: Range<usize>,
    /// The first stray line skipped (a recovering dialect): an error after
    /// all when the record has no tag.
    stray: Option<usize>,
}

/// Lexes one record into `lists`.
pub fn lex<'a>(d: &'static Dialect, r: &'a [u8], lists: &mut Lists<'a>) -> Lexed {
    lex_hand(d, r, lists, 0..0)
}

/// Lexes a hand of a record into `lists`, where `prior` is the [`Lexed::lead`]
/// of the record's first hand (empty for that hand). A line that starts
/// with one of those tags after this hand's tokens starts the next hand
/// too: a hand whose first tag was taken for a repeat in the hand before
/// (after a syntax error, say) would otherwise set every hand after it one
/// tag off.
pub fn lex_hand<'a>(
    d: &'static Dialect,
    r: &'a [u8],
    lists: &mut Lists<'a>,
    prior: Range<u32>,
) -> Lexed {
    let tags0 = lists.tags.len() as u32;
    let comments0 = lists.comments.len() as u32;
    let tokens0 = lists.tokens.len();
    let mut lx = Lexer {
        d,
        r,
        i: 0,
        line: 0,
        line_start: 0,
        lists,
        warnings: Vec::new(),
        has_hash: false,
        section: None,
        max_tags: tags0 as usize + MAX_RECORD_ITEMS,
        max_tokens: tokens0 + MAX_RECORD_ITEMS,
        max_comments: comments0 as usize + MAX_RECORD_ITEMS,
        first: None,
        first_key: 0,
        first_mask: 0,
        tags0: tags0 as usize,
        comments0: comments0 as usize,
        head_end: None,
        prior: prior.start as usize..prior.end as usize,
        stray: None,
    };
    let (error, mut next) = match lx.run() {
        Ok(next) => (None, next),
        Err(e) => (Some(e), None),
    };
    // A record of stray text alone: nothing of it could be read.
    let error = match (error, lx.stray) {
        (None, Some(at)) if lx.lists.tags.len() == tags0 as usize => {
            lx.warnings.retain(|w| w.code != d.codes.stray_text);
            Some(Diag::error(
                at,
                d.codes.outside_tag,
                format!("expected '[' to start a tag pair, found {}", found(r, at)),
            ))
        }
        (e, _) => e,
    };
    lx.close_section();
    if let Some(e) = &error {
        if e.code == d.codes.too_many_items {
            // Nothing of the record is used: give its room to the next ones.
            lx.lists.tags.truncate(tags0 as usize);
            lx.lists.tokens.truncate(tokens0);
            lx.lists.comments.truncate(comments0 as usize);
        } else if let Some(first) = lx.first.filter(|_| e.code != d.codes.unterminated_comment) {
            // A syntax error quarantines the hand it is in, not the hands
            // after it that no blank line separates from it. (Not after a
            // `{` that never closes: the rest of the record is its comment,
            // and each hand's search for a `}` would read the rest again.)
            let at = (e.at as usize).min(r.len());
            next = memchr::memchr_iter(b'\n', &r[at..])
                .map(|p| at + p + 1)
                .find(|&q| starts_hand_at(r, q, first))
                .map(|q| comment_lines_before(r, q, at));
        }
    }
    // Whether the hand's bytes are UTF-8: the bytes up to the next hand only,
    // so that the work of a record of many hands stays its size.
    let latin1 = std::str::from_utf8(&r[..next.unwrap_or(r.len())]).is_err();
    let lead = match (&error, lx.head_end) {
        (Some(e), _) if e.code == d.codes.too_many_items => tags0..tags0,
        (_, Some(end)) => tags0..end as u32,
        (_, None) => tags0..tags0,
    };
    if latin1 {
        for t in &mut lx.lists.tags[tags0 as usize..] {
            t.latin1 = true;
        }
    }
    Lexed {
        tags: tags0..lx.lists.tags.len() as u32,
        comments: comments0..lx.lists.comments.len() as u32,
        error,
        warnings: lx.warnings,
        has_hash: lx.has_hash,
        latin1,
        next,
        lead,
    }
}

/// Offset of the first `"`, `\` or line feed in `r[p..]`. Most tag values
/// are short (half under 8 bytes), so the first two words are tested here
/// eight bytes at a time, and only longer values go to `memchr3` (a call
/// that cost about 65 instructions a tag).
#[inline]
fn value_stop(r: &[u8], p: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // The high bit of each zero byte of `x`; a borrow can also mark bytes
    // above a zero byte, never below the first, so the lowest mark is exact.
    #[inline(always)]
    fn zeros(x: u64) -> u64 {
        x.wrapping_sub(ONES) & !x & HIGH
    }
    let mut q = p;
    for _ in 0..2 {
        let Some(w) = r.get(q..q + 8) else { break };
        let w = u64::from_le_bytes(w.try_into().expect("eight bytes"));
        let m = zeros(w ^ (ONES * b'"' as u64))
            | zeros(w ^ (ONES * b'\\' as u64))
            | zeros(w ^ (ONES * b'\n' as u64));
        if m != 0 {
            return Some(q + (m.trailing_zeros() / 8) as usize);
        }
        q += 8;
    }
    memchr3(b'"', b'\\', b'\n', &r[q..]).map(|j| q + j)
}

/// The end of the string token whose opening quote is at `i`: past its
/// closing quote (`\"` and `\\` are escapes), or at the end of its line
/// when it has none.
fn string_end(r: &[u8], i: usize) -> usize {
    let mut p = i + 1;
    while p < r.len() {
        match r[p] {
            b'"' => return p + 1,
            b'\\' if r.get(p + 1).is_some_and(|&b| b == b'"' || b == b'\\') => p += 2,
            b'\n' | b'\r' => return p,
            _ => p += 1,
        }
    }
    p
}

/// The error of a record with more than [`MAX_RECORD_ITEMS`] `what`, the
/// first one over at `at`.
fn too_many(d: &Dialect, at: usize, what: &str) -> Diag {
    Diag::error(
        at,
        d.codes.too_many_items,
        format!(
            "record has more than {MAX_RECORD_ITEMS} {what}; not converted (a limit that bounds memory)"
        ),
    )
}

impl<'a> Lexer<'a, '_> {
    /// Skips white space, counting lines. Inlined for the common cases: no
    /// white space, or one blank before something else.
    #[inline(always)]
    fn skip_ws(&mut self) {
        let r = self.r;
        let i = self.i;
        match r.get(i) {
            Some(&b) if CLASS[b as usize] & WS != 0 => {
                if b == b' ' && r.get(i + 1).is_some_and(|&c| CLASS[c as usize] & WS == 0) {
                    self.i = i + 1;
                } else {
                    self.skip_ws_run();
                }
            }
            _ => {}
        }
    }

    fn skip_ws_run(&mut self) {
        let r = self.r;
        let mut i = self.i;
        while i < r.len() {
            let b = r[i];
            if CLASS[b as usize] & WS == 0 {
                break;
            }
            if b == b'\n' {
                self.line += 1;
                self.line_start = i + 1;
            }
            i += 1;
        }
        self.i = i;
    }

    /// The comment whose opening `{` or `;` is at `i`, its text up to `end`.
    fn comment(&mut self, i: usize, end: usize) -> Result<(), Diag> {
        self.lists.comments.push(Comment {
            text: &self.r[i + 1..end],
            at: i as u32,
        });
        if self.lists.comments.len() > self.max_comments {
            return Err(too_many(self.d, i, "comments"));
        }
        Ok(())
    }

    fn close_section(&mut self) {
        if let Some(t) = self.section.take() {
            self.lists.tags[t].tokens.end = self.lists.tokens.len() as u32;
        }
    }

    /// Lexes to the end of the record, or to where the next hand starts
    /// ([`Lexed::next`]), or to a syntax error.
    fn run(&mut self) -> Result<Option<usize>, Diag> {
        let r = self.r;
        loop {
            self.skip_ws();
            let i = self.i;
            let Some(&b) = r.get(i) else { return Ok(None) };
            match b {
                b'%' if i == self.line_start => {
                    self.i = memchr(b'\n', &r[i..]).map_or(r.len(), |j| i + j);
                }
                0xEF if i == self.line_start
                    && r[i..].starts_with(crate::notation::tagpair::split::BOM) =>
                {
                    // A byte-order mark at the start of a line (files joined
                    // into one keep theirs) is skipped, as the splitter does.
                    self.i = i + 3;
                    self.line_start = i + 3;
                }
                b'{' => {
                    let Some(j) = memchr(b'}', &r[i + 1..]) else {
                        return Err(Diag::error(
                            i,
                            self.d.codes.unterminated_comment,
                            "unterminated comment: expected '}' before the end of the record",
                        ));
                    };
                    let end = i + 1 + j;
                    for p in memchr::memchr_iter(b'\n', &r[i..end]) {
                        self.line += 1;
                        self.line_start = i + p + 1;
                    }
                    self.comment(i, end)?;
                    self.i = end + 1;
                }
                b';' => {
                    let end = memchr(b'\n', &r[i..]).map_or(r.len(), |j| i + j);
                    self.comment(i, end)?;
                    self.i = end;
                }
                b'[' if self.starts_hand(i) => {
                    return Ok(Some(self.hand_start(i)));
                }
                // `@` opens a segmental prefix only in a notation that has
                // them; else it is a section token's first byte.
                b'[' | b'@' if b == b'[' || !self.d.segments.is_empty() => {
                    self.close_section();
                    if !self.tag()? {
                        continue;
                    }
                    if self.lists.tags.len() > self.max_tags {
                        return Err(too_many(self.d, i, "tag pairs"));
                    }
                    self.section = Some(self.lists.tags.len() - 1);
                }
                _ => match self.section {
                    Some(_) => {
                        if !self.tokens() {
                            return Err(too_many(self.d, self.i, "section tokens"));
                        }
                    }
                    None if self.d.recover => {
                        let end = memchr(b'\n', &r[i..]).map_or(r.len(), |j| i + j);
                        self.stray.get_or_insert(i);
                        self.warnings.push(Diag::warning(
                            i,
                            self.d.codes.stray_text,
                            format!(
                                "expected '[' to start a tag pair, found {}: the line is skipped",
                                found(r, i)
                            ),
                        ));
                        self.i = end;
                    }
                    None => {
                        return Err(Diag::error(
                            i,
                            self.d.codes.outside_tag,
                            format!("expected '[' to start a tag pair, found {}", found(r, i)),
                        ));
                    }
                },
            }
        }
    }

    /// Section tokens from `self.i` on, one after another while only spaces
    /// and tabs separate them: the rest of the line, up to a tag, comment
    /// or escape (the main loop takes those, and line ends).
    /// False (with `self.i` at the token) when the token was one more than
    /// a record may hold.
    fn tokens(&mut self) -> bool {
        if self.head_end.is_none() {
            self.head_end = self.section.map(|t| t + 1);
        }
        let r = self.r;
        let line = self.line;
        let mut i = self.i;
        loop {
            let end = if r[i] == b'"' && self.d.string_tokens {
                string_end(r, i)
            } else if r[i] == b'(' {
                // An annotation runs to its ')' on the same line; without
                // one, to white space.
                let close = i
                    + 1
                    + r[i + 1..]
                        .iter()
                        .position(|&b| b == b')' || b == b'\n')
                        .unwrap_or(r.len() - i - 1);
                if r.get(close) == Some(&b')') {
                    close + 1
                } else {
                    find_class(r, i + 1, WS)
                }
            } else {
                find_class(r, i + 1, END)
            };
            self.lists.tokens.push(Token {
                text: &r[i..end],
                at: i as u32,
                line,
            });
            if self.lists.tokens.len() > self.max_tokens {
                self.i = i;
                return false;
            }
            i = end;
            while i < r.len() && matches!(r[i], b' ' | b'\t') {
                i += 1;
            }
            if i == r.len() || CLASS[r[i] as usize] & (WS | BREAK) != 0 {
                break;
            }
        }
        self.i = i;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The syntax as Portable Pinochle Notation reads it.
    const PPN: &Dialect = &crate::notation::pinochle_ppn::DIALECT;

    fn lexed(r: &[u8]) -> (Lexed, Lists<'_>) {
        let mut lists = Lists::default();
        let l = lex(PPN, r, &mut lists);
        (l, lists)
    }

    fn s(b: &[u8]) -> &str {
        std::str::from_utf8(b).unwrap()
    }

    #[test]
    fn a_recovering_dialect_reads_on_through_broken_tag_pairs() {
        const PBN: &Dialect = &crate::notation::pbn::DIALECT;
        let r: &[u8] = b"[Event]\n[Site No quotes ]\n[Note \"2:l'histoire...]\n[ \"x\"]\n[Dealer \"N\"\nstray\n[Board \"3\"]\n";
        let mut lists = Lists::default();
        let l = lex(PBN, r, &mut lists);
        assert!(l.error.is_none());
        let tags: Vec<(&str, &str)> = lists.tags.iter().map(|t| (s(t.name), s(t.value))).collect();
        assert_eq!(
            tags,
            [
                ("Event", ""),
                ("Site", "No quotes"),
                ("Note", "2:l'histoire..."),
                ("Dealer", "N"),
                ("Board", "3")
            ]
        );
        let codes: Vec<(&str, u32)> = l.warnings.iter().map(|w| (w.code, w.at)).collect();
        assert_eq!(
            codes,
            [
                ("B006", 6),
                ("B006", 14),
                ("B001", 32),
                ("B005", 52),
                ("B002", 69)
            ]
        );
        // The line after the unclosed Dealer is its section's tokens.
        assert_eq!(lists.tags[3].tokens.range().len(), 1);
        // Stray text before any tag is skipped with a warning; a record of
        // nothing else is quarantined.
        let mut lists = Lists::default();
        let l = lex(PBN, b"stray words\n[Board \"1\"]\n", &mut lists);
        assert!(l.error.is_none());
        assert_eq!(l.warnings[0].code, "B007");
        assert_eq!(lists.tags.len(), 1);
        let mut lists = Lists::default();
        let l = lex(PBN, b"stray words\n{a comment}\n", &mut lists);
        assert_eq!(l.error.map(|e| e.code), Some("B004"));
        assert!(l.warnings.is_empty());
        // PPN quarantines the record at the first of them.
        let (l, _) = lexed(b"[Event]\n");
        assert_eq!(l.error.map(|e| e.code), Some("P006"));
    }

    #[test]
    fn a_record_may_hold_max_record_items_of_each_kind_and_no_more() {
        let n = MAX_RECORD_ITEMS;
        let tokens = format!("[Auction \"N\"]\n{}", "50 ".repeat(n));
        // Not at line starts: a tag named as the first at the start of a
        // line starts the next hand.
        let tags = "[X \"1\"] ".repeat(n);
        let comments = format!("[X \"1\"]\n{}", "{c}\n".repeat(n));
        let lines = format!("[X \"1\"]\n{}", ";c\n".repeat(n));
        for (at_limit, extra, what) in [
            (tokens, "50", "section tokens"),
            (tags, "[Y \"2\"]", "tag pairs"),
            (comments, "{c}", "comments"),
            (lines, ";c", "comments"),
        ] {
            let mut lists = Lists::default();
            let l = lex(PPN, at_limit.as_bytes(), &mut lists);
            assert!(l.error.is_none(), "{what}: {:?}", l.error);
            let items = lists.tags.len() + lists.tokens.len() + lists.comments.len();
            let opening_tag = usize::from(what != "tag pairs");
            assert_eq!(items, n + opening_tag, "{what}");
            // One more, in a record lexed after another: the limit counts
            // the record's own items, and its lists are given back.
            let over = format!("{at_limit}\n{extra}\n");
            let mut lists = Lists::default();
            lex(PPN, b"[A \"1\"]\nx y {z}", &mut lists);
            let l = lex(PPN, over.as_bytes(), &mut lists);
            let e = l.error.expect("over the limit");
            assert_eq!(e.code, "P010", "{what}");
            assert_eq!(e.at as usize, at_limit.len() + 1, "{what}");
            assert_eq!(
                e.message,
                format!(
                    "record has more than 100000 {what}; not converted (a limit that bounds memory)"
                )
            );
            assert_eq!(
                (lists.tags.len(), lists.tokens.len(), lists.comments.len()),
                (1, 2, 1),
                "{what}"
            );
            assert_eq!(l.tags, 1..1, "{what}");
        }
    }

    #[test]
    fn tags_sections_and_comments() {
        let r = b"[Event \"A \\\"B\\\"\"] [Site\"x\"]\n{c1\n\nc2}\n[Auction \"E\"]\nPass 52 ; note\n- 60\n% escape\n[Play \"S\"]\nCA CJ(S2)";
        let (l, lists) = lexed(r);
        assert!(l.error.is_none());
        assert_eq!(l.tags, 0..4);
        let t = &lists.tags;
        assert_eq!(s(t[0].name), "Event");
        assert_eq!(s(t[0].value), "A \\\"B\\\"");
        assert!(t[0].escaped);
        assert_eq!(s(t[1].value), "x");
        assert_eq!(s(t[2].name), "Auction");
        let toks: Vec<(&str, u32)> = lists.tokens[t[2].tokens.range()]
            .iter()
            .map(|k| (s(k.text), k.line))
            .collect();
        assert_eq!(toks, [("Pass", 5), ("52", 5), ("-", 6), ("60", 6)]);
        let play: Vec<&str> = lists.tokens[t[3].tokens.range()]
            .iter()
            .map(|k| s(k.text))
            .collect();
        assert_eq!(play, ["CA", "CJ", "(S2)"]);
        let comments: Vec<&str> = lists.comments.iter().map(|c| s(c.text)).collect();
        assert_eq!(comments, ["c1\n\nc2", " note"]);
    }

    #[test]
    fn a_bom_at_the_start_of_a_line_is_skipped() {
        // Files joined without a blank line between them: the second one's
        // BOM is on a line of the record, before a tag or an escape line.
        let r = b"[Auction \"E\"]\nPass\n\xEF\xBB\xBF[Event \"b\"]\n\xEF\xBB\xBF% x\n[Site \"s\"]";
        let (l, lists) = lexed(r);
        assert!(l.error.is_none());
        let names: Vec<&str> = lists.tags.iter().map(|t| s(t.name)).collect();
        assert_eq!(names, ["Auction", "Event", "Site"]);
        assert_eq!(lists.tokens.len(), 1);
        // Not at the start of a line, it is text: here a token after a tag.
        let (l, lists) = lexed(b"[Event \"a\"] \xEF\xBB\xBF[Site \"s\"]");
        assert!(l.error.is_none());
        assert_eq!(lists.tokens[0].text, b"\xEF\xBB\xBF");
    }

    #[test]
    fn section_tokens_end_at_the_next_tag_error_or_record_end() {
        // Closed by a tag that then fails, by the record's end, and empty.
        let (l, lists) = lexed(b"[Auction \"E\"] Pass 52 {c} 53\n[Play x]");
        assert_eq!(l.error.unwrap().code, "P006");
        assert_eq!(lists.tags[0].tokens, Span { start: 0, end: 3 });
        let (l, lists) = lexed(b"[Auction \"E\"]\n[Play \"S\"] CA\tCJ(E1)");
        assert!(l.error.is_none());
        assert_eq!(lists.tags[0].tokens, Span { start: 0, end: 0 });
        assert_eq!(lists.tags[1].tokens, Span { start: 0, end: 3 });
        let toks: Vec<&str> = lists.tokens.iter().map(|k| s(k.text)).collect();
        assert_eq!(toks, ["CA", "CJ", "(E1)"]);
    }

    #[test]
    fn tokens_of_a_line() {
        // Annotations with and without their ')', tokens glued to them, a
        // quote or '%' inside a line, tabs, and a tag, comment, escape line
        // and segmental prefix ending the run of tokens.
        let r = b"[Play \"N\"]\nCA(E3)\tCJ \"x %y (N1 CK\n(\n%esc\nHA;c\nHT{c}HK[Note \"n\"] SA @A-=[Chat \"c\"]";
        let (l, lists) = lexed(r);
        assert!(l.error.is_none(), "{:?}", l.error);
        let toks: Vec<(&str, u32)> = lists.tokens.iter().map(|k| (s(k.text), k.line)).collect();
        assert_eq!(
            toks,
            [
                ("CA", 1),
                ("(E3)", 1),
                ("CJ", 1),
                ("\"x", 1),
                ("%y", 1),
                ("(N1", 1),
                ("CK", 1),
                ("(", 2),
                ("HA", 4),
                ("HT", 5),
                ("HK", 5),
                ("SA", 5)
            ]
        );
        assert_eq!(lists.tags[0].tokens, Span { start: 0, end: 11 });
        assert_eq!(lists.tags[1].tokens, Span { start: 11, end: 12 });
        let comments: Vec<&str> = lists.comments.iter().map(|c| s(c.text)).collect();
        assert_eq!(comments, ["c", "c"]);
        assert_eq!(lists.tags[2].segment.unwrap().text, b"A-");
    }

    #[test]
    fn import_whitespace_and_multiline_tags() {
        let (l, lists) = lexed(b"[ Event\n  \"x\" ]  [Site \"y\"]");
        assert!(l.error.is_none());
        assert_eq!(lists.tags.len(), 2);
        assert_eq!(s(lists.tags[0].value), "x");
    }

    #[test]
    fn segmental_prefixes() {
        let (l, lists) =
            lexed(b"@P.19.3-R=[Chat \"N:gg\"]\n@M-=[East \"x\"] @A.3.2-M=[Note \"n\"]");
        assert!(l.error.is_none(), "{:?}", l.error);
        let seg = lists.tags[0].segment.unwrap();
        assert_eq!(
            seg.start,
            SegPoint {
                segment: b'P',
                number: Some(19),
                sub: Some(3)
            }
        );
        assert_eq!(
            seg.end,
            Some(SegPoint {
                segment: b'R',
                number: None,
                sub: None
            })
        );
        assert_eq!(lists.tags[1].segment.unwrap().end, None);
        assert_eq!(lists.tags[2].segment.unwrap().start.sub, Some(2));
    }

    fn error_of(r: &[u8]) -> (String, &'static str, u32) {
        let (l, _) = lexed(r);
        let e = l.error.expect("an error");
        (e.message, e.code, e.at)
    }

    #[test]
    fn syntax_errors_say_what_was_expected() {
        assert_eq!(
            error_of(b"[Event \"x"),
            (
                "unterminated string in tag Event: expected '\"' before the end of the line".into(),
                "P001",
                7
            )
        );
        assert_eq!(
            error_of(b"[Event \"x\" junk"),
            (
                "expected ']' to close tag Event, found 'j'".into(),
                "P002",
                11
            )
        );
        assert_eq!(error_of(b"[Event \"x\"] {open").1, "P003");
        assert_eq!(
            error_of(b"hello [Event \"x\"]"),
            (
                "expected '[' to start a tag pair, found 'h'".into(),
                "P004",
                0
            )
        );
        assert_eq!(error_of(b"[ \"x\"]").1, "P005");
        // Portable Preferans Notation (values unquoted) is named.
        let preferans = " (this looks like Portable Preferans Notation, another game's PPN: a file that mixes the two; convert its Preferans games on their own, or with --notation preferans-ppn)";
        for (text, at) in [
            (&b"[Bula 60]"[..], 6),
            (b"[Player3 Cid]", 9),
            (b"[1 312 1BDH]", 3),
        ] {
            let (msg, code, col) = error_of(text);
            assert_eq!((code, col), ("P006", at));
            assert!(msg.ends_with(preferans), "{msg}");
        }
        assert!(!error_of(b"[Player5 x]").0.ends_with(preferans));
        assert_eq!(
            error_of(b"[Event x]"),
            (
                "expected '\"' to open the value of tag Event, found 'x'".into(),
                "P006",
                7
            )
        );
        assert_eq!(error_of(b"@Q.1-=[Note \"x\"]").1, "P008");
        assert_eq!(error_of(b"@P.1-= Note").1, "P007");
    }

    proptest::proptest! {
        /// The word-at-a-time scan finds what a byte-at-a-time one finds, at
        /// every start, for bytes drawn mostly from the three it stops at
        /// and their neighbours (a borrow from a match must not hide it).
        #[test]
        fn value_stop_finds_the_first_stop(
            r in proptest::collection::vec(
                proptest::sample::select(vec![b'"', b'\\', b'\n', b'a', b'!', b']', 0u8, 0x80, 0xff]),
                0..40,
            ),
            p in 0usize..40,
        ) {
            let p = p.min(r.len());
            let want = r[p..].iter().position(|&b| matches!(b, b'"' | b'\\' | b'\n')).map(|j| p + j);
            proptest::prop_assert_eq!(value_stop(&r, p), want);
        }
    }

    #[test]
    fn a_line_that_starts_with_the_first_tag_starts_the_next_hand() {
        // The first tag again at a line start (after spaces) ends the hand;
        // in the middle of a line it is a repeat. The comment on its own
        // line above goes with the next hand, the one after a tag does not.
        let r = b"[A \"1\"] [A \"r\"]\n[B \"\xc3\xa9\"] {after B}\n{above}\n  [A \"\xe9\"]\n";
        let (l, lists) = lexed(r);
        let k = l.next.expect("a second hand");
        assert_eq!(s(&r[k..k + 7]), "{above}");
        assert_eq!(lists.tags.len(), 3);
        assert_eq!(lists.comments.len(), 1);
        // UTF-8 as far as the next hand: the Latin-1 byte after is its own.
        assert!(!l.latin1 && !lists.tags[2].latin1);
        let (l2, lists2) = lexed(&r[k..]);
        assert!(l2.latin1 && lists2.tags[0].latin1);
        assert_eq!(l2.next, None);
        assert_eq!(lists2.comments.len(), 1);
        // After an auction, one of the tags before it starts a hand too
        // (not the section's own tag, nor a tag the hand has not had).
        let r =
            b"[S \"x\"]\n[D \"1\"]\n[Auction \"N\"]\nPass\n[Play \"N\"]\n[R \"x\"]\n[D \"2\"]\n";
        let (l, _) = lexed(r);
        assert_eq!(s(&r[l.next.expect("a second hand")..]), "[D \"2\"]\n");
        // A syntax error ends at the next line that starts with the first tag.
        let r = b"[A \"1\"]\n[B \"2]\n; above\n[A \"3\"]\n";
        let (l, _) = lexed(r);
        assert_eq!(l.error.map(|e| e.code), Some("P001"));
        assert_eq!(
            s(&r[l.next.expect("a second hand")..]),
            "; above\n[A \"3\"]\n"
        );
    }

    #[test]
    fn the_first_tag_of_a_line_starts_a_hand_after_text_before_it() {
        // Stray words before the second hand's first tag are tokens of the
        // first hand's last tag; the second hand starts at its tag (not one
        // tag late, at N), the third at its line.
        let r = b"[D \"1\"]\n[N \"a\"]\nstray text [D \"2\"]\n[N \"b\"]\n[D \"3\"]\n";
        let mut lists = Lists::default();
        let first = lex(PPN, r, &mut lists);
        assert!(first.error.is_none());
        let k = first.next.expect("a second hand");
        assert_eq!(s(&r[k..]), "[D \"2\"]\n[N \"b\"]\n[D \"3\"]\n");
        let n = &lists.tags[1];
        let words: Vec<&[u8]> = lists.tokens[n.tokens.start as usize..n.tokens.end as usize]
            .iter()
            .map(|t| t.text)
            .collect();
        assert_eq!(words, [&b"stray"[..], b"text"]);
        let second = lex_hand(PPN, &r[k..], &mut lists, first.lead.clone());
        assert_eq!(
            s(&r[k + second.next.expect("a third hand")..]),
            "[D \"3\"]\n"
        );
        // A comment before it on its line stays with the hand before too.
        let r = b"[D \"1\"]\n{c} [D \"2\"]\n";
        let mut lists = Lists::default();
        let first = lex(PPN, r, &mut lists);
        assert_eq!(s(&r[first.next.expect("a second hand")..]), "[D \"2\"]\n");
        assert_eq!(first.comments, 0..1);
        // A tag after another on its line is a repeat, not a hand.
        let r = b"[D \"1\"]\n[N \"a\"] [D \"2\"]\n";
        let mut lists = Lists::default();
        let first = lex(PPN, r, &mut lists);
        assert_eq!((first.next, first.tags), (None, 0..3));
    }

    #[test]
    fn the_first_hands_leading_tags_start_the_hands_after_it() {
        // A tag before the second hand's first tag on its line makes that
        // tag a repeat in the first hand, and the second hand starts at its N. After
        // its tokens, D is not one of its own leading tags, but the first
        // hand's: the third hand starts at D, not one tag off too.
        let r = b"[D \"1\"]\n[N \"a\"]\n[Auction \"N\"]\nPass\n[X \"x\"] [D \"2\"]\n[N \"b\"]\n\
                  [Auction \"N\"]\nPass\n[D \"3\"]\n[N \"c\"]\n";
        let mut lists = Lists::default();
        let first = lex(PPN, r, &mut lists);
        assert_eq!(first.lead, 0..3);
        let k = first.next.expect("a second hand");
        assert_eq!(s(&r[k..k + 7]), "[N \"b\"]");
        let second = lex_hand(PPN, &r[k..], &mut lists, first.lead.clone());
        assert_eq!(second.lead, 5..7);
        let k2 = k + second.next.expect("a third hand");
        assert_eq!(s(&r[k2..]), "[D \"3\"]\n[N \"c\"]\n");
        // Without them, D is a repeat and the third hand starts at N.
        let alone = lex(PPN, &r[k..], &mut Lists::default());
        assert_eq!(s(&r[k + alone.next.unwrap()..]), "[N \"c\"]\n");
        // A hand without tokens has no leading tags to give.
        assert_eq!(lex(PPN, b"[D \"1\"]\n[N \"a\"]\n", &mut lists).lead, 7..7);
    }

    #[test]
    fn long_tags_warn_and_latin1_is_flagged() {
        let mut r = b"[Event \"".to_vec();
        r.extend(std::iter::repeat_n(b'a', 300));
        r.extend_from_slice(b"\"] [Site \"M\xfcnchen\"]");
        let (l, lists) = lexed(&r);
        assert!(l.error.is_none());
        assert_eq!(l.warnings[0].code, "P100");
        assert!(l.latin1 && lists.tags[1].latin1);
    }
}
