//! The records of a tag-pair notation as its notation parses them: a
//! record the splitter found is lexed as one game, or as each of the games
//! it holds when no blank line separates them; groups of such records are
//! what inheritance resolves and the notation builds.

use std::ops::Range;

use super::inherit::TagRecords;
use super::lex::{self, Dialect, Lexed, Lists};
use crate::error::Diag;
use crate::split::{Item, is_ws};

/// What a notation's file state says at a record (its header values);
/// inheritance needs its header block.
pub trait Context: Copy {
    /// Which header block of the file the record is in (0 for the first;
    /// one more for each header after records). Inheritance stops at a new
    /// block.
    fn block(&self) -> u32;
}

/// One record of a group, with where it came from and what lexing found.
#[derive(Debug)]
pub struct TagRecord<'a, C> {
    pub bytes: &'a [u8],
    pub byte: u64,
    pub line: u64,
    pub index: u64,
    pub ctx: C,
    pub lexed: Lexed,
    /// Tags added by inheritance (`##`), in the group's tag list.
    pub extra: Range<u32>,
    /// The record held games not separated by a blank line and this is not
    /// its first: [`renumber`] makes its `index` one more than the record's
    /// before, and the indexes after it one more than the splitter's.
    pub follows: bool,
    /// The input ended inside it ([`Item::at_end`]; the last game of such
    /// a record).
    pub at_end: bool,
}

impl<'a, C> TagRecord<'a, C> {
    /// A record (or a game of one) at `item`, with `n` tags in its group's
    /// list.
    pub fn new(bytes: &'a [u8], item: Item, index: u64, ctx: C, lexed: Lexed, n: u32) -> Self {
        TagRecord {
            bytes,
            byte: item.start,
            line: item.line,
            index,
            ctx,
            lexed,
            extra: n..n,
            follows: false,
            at_end: item.at_end,
        }
    }
}

/// Records parsed together by one task.
#[derive(Debug)]
pub struct Group<'a, C> {
    pub lists: Lists<'a>,
    pub records: Vec<TagRecord<'a, C>>,
    /// Diagnostics of the inheritance pass, by record index (ascending).
    pub late: Vec<(u32, Diag)>,
    /// The values of the dialect's `before` tags in the record before the
    /// group's first (set by the inheritance pass; `None` at a file's start).
    pub before: Option<smallvec::SmallVec<[Option<&'a [u8]>; 4]>>,
}

impl<C> Default for Group<'_, C> {
    fn default() -> Self {
        Group {
            lists: Lists::default(),
            records: Vec::new(),
            late: Vec::new(),
            before: None,
        }
    }
}

impl<'a, C: Context> TagRecords<'a> for Group<'a, C> {
    fn lists(&self) -> &Lists<'a> {
        &self.lists
    }

    fn lists_mut(&mut self) -> &mut Lists<'a> {
        &mut self.lists
    }

    fn records(&self) -> usize {
        self.records.len()
    }

    fn lexed(&self, i: usize) -> &Lexed {
        &self.records[i].lexed
    }

    fn block(&self, i: usize) -> u32 {
        self.records[i].ctx.block()
    }

    fn extra(&self, i: usize) -> Range<u32> {
        self.records[i].extra.clone()
    }

    fn set_extra(&mut self, i: usize, tags: Range<u32>) {
        self.records[i].extra = tags;
    }

    fn push_late(&mut self, i: usize, d: Diag) {
        self.late.push((i as u32, d));
    }

    fn set_before(&mut self, values: &[Option<&'a [u8]>]) {
        self.before = Some(values.iter().copied().collect());
    }
}

/// A record is read as at most this many games (when no blank lines
/// separate them), and only within its first [`MAX_SPLIT_BYTES`]: past
/// either, the rest of the record is quarantined. Memory stays bounded: a
/// record of 8 bytes a game (`[X "1"]`) would otherwise give a million
/// games, each a row and a warning, from 8 MiB.
pub const MAX_SPLIT_HANDS: usize = 10_000;
/// See [`MAX_SPLIT_HANDS`].
pub const MAX_SPLIT_BYTES: usize = 8 << 20;

/// Lexes the record `bytes` (at `item`) into `g`: one game, or each of the
/// games it holds when no blank line separates them (see [`Lexed::next`]).
pub fn parse_record<'a, C: Copy>(
    d: &'static Dialect,
    g: &mut Group<'a, C>,
    bytes: &'a [u8],
    item: Item,
    index: u64,
    ctx: C,
) {
    let (mut from, mut line, mut games) = (0, item.line, 0);
    // The leading tags of the record's first game (see `lex::lex_hand`).
    let mut prior = 0..0;
    loop {
        let mut at = Item {
            start: item.start + from as u64,
            line,
            ..item
        };
        if from > 0 && (games == MAX_SPLIT_HANDS || from > MAX_SPLIT_BYTES) {
            let w = d.record_word;
            let e = Diag::error(
                0,
                d.codes.too_many_records,
                format!(
                    "more {w}s without a blank line between them: a record is read as at most {MAX_SPLIT_HANDS} {w}s, within its first {MAX_SPLIT_BYTES} bytes; the rest of it is not converted (a limit that bounds memory)"
                ),
            );
            let (lexed, n) = unlexed(&g.lists, e);
            g.records.push(TagRecord {
                follows: true,
                ..TagRecord::new(&bytes[from..], at, index, ctx, lexed, n)
            });
            return;
        }
        let mut lexed = lex::lex_hand(d, &bytes[from..], &mut g.lists, prior.clone());
        if from == 0 {
            prior = lexed.lead.clone();
        }
        // A game's bytes end at its last non-white byte, as the splitter's
        // records do.
        let next = lexed.next.filter(|&k| k > 0).map(|k| from + k);
        let to = next.map_or(bytes.len(), |k| {
            from + bytes[from..k]
                .iter()
                .rposition(|&b| !is_ws(b))
                .map_or(0, |p| p + 1)
        });
        at.at_end = item.at_end && next.is_none();
        if from > 0 || item.joined {
            lexed.warnings.insert(0, no_blank_line(d, &g.lists, &lexed));
        }
        let n = g.lists.tags.len() as u32;
        g.records.push(TagRecord {
            follows: from > 0,
            ..TagRecord::new(&bytes[from..to], at, index, ctx, lexed, n)
        });
        games += 1;
        let Some(next) = next else { return };
        line += memchr::memchr_iter(b'\n', &bytes[from..next]).count() as u64;
        from = next;
    }
}

/// Sequential: gives the games that followed others in one record the
/// record indexes after them (each one more), counting in `extra` those
/// found so far in the file.
pub fn renumber<C>(extra: &mut u64, groups: &mut [Group<'_, C>]) {
    for r in groups.iter_mut().flat_map(|g| &mut g.records) {
        *extra += u64::from(r.follows);
        r.index += *extra;
    }
}

/// What a record not lexed (quarantined with `error`) gives, and the
/// group's tag count.
pub fn unlexed(lists: &Lists<'_>, error: Diag) -> (Lexed, u32) {
    let n = lists.tags.len() as u32;
    let c = lists.comments.len() as u32;
    let lexed = Lexed {
        tags: n..n,
        comments: c..c,
        error: Some(error),
        warnings: Vec::new(),
        has_hash: false,
        latin1: false,
        next: None,
        lead: n..n,
    };
    (lexed, n)
}

/// The warning for a game that starts without a blank line after the game
/// before.
fn no_blank_line(d: &Dialect, lists: &Lists<'_>, lexed: &Lexed) -> Diag {
    let tags = &lists.tags[lexed.tags.start as usize..lexed.tags.end as usize];
    let first = tags.iter().find(|t| t.segment.is_none()).map(|t| t.name);
    let w = d.record_word;
    Diag::warning(
        0,
        d.codes.no_blank_line,
        format!(
            "a {w} starts here without a blank line after the {w} before (tag {} comes again): read as a {w} of its own",
            String::from_utf8_lossy(first.unwrap_or(b"?"))
        ),
    )
}
