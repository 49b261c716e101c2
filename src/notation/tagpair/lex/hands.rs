//! Where a hand starts: a line that opens with the record's first tag
//! (after the comments that belong to it), or a tag the first hand
//! opened with, repeated.

use super::*;

/// The start of the comments on lines of their own just above line `q`,
/// after `floor` (or `q`): found in the text, for a record whose lexing
/// stopped at a syntax error before them. A `{` comment counts when its
/// line starts with it and the last line it spans ends with its `}`; a `;`
/// comment when its line starts with it.
pub(super) fn comment_lines_before(r: &[u8], q: usize, floor: usize) -> usize {
    let mut start = q;
    while start > floor + 1 {
        let end = start - 1; // the line end above
        let line = memchr::memrchr(b'\n', &r[..end]).map_or(0, |p| p + 1);
        let text = r[line..end].trim_ascii();
        let open = if text.first() == Some(&b';') {
            Some(line)
        } else if text.last() == Some(&b'}') {
            memchr::memrchr(b'{', &r[..end])
                .map(|o| (memchr::memrchr(b'\n', &r[..o]).map_or(0, |p| p + 1), o))
                .filter(|&(ls, o)| r[ls..o].iter().all(|&b| b == b' ' || b == b'\t'))
                .map(|(ls, _)| ls)
        } else {
            None
        };
        match open {
            Some(ls) if ls > floor => start = ls,
            _ => break,
        }
    }
    start
}

/// Whether the line at `q` (spaces and tabs, then `[`) opens a tag named
/// `first`.
pub(super) fn starts_hand_at(r: &[u8], q: usize, first: &[u8]) -> bool {
    let Some(i) = r[q..].iter().position(|&b| b != b' ' && b != b'\t') else {
        return false;
    };
    r[q + i] == b'[' && names_tag(r, q + i, first)
}

/// Whether the tag whose `[` is at `i` is named `name`.
pub(super) fn names_tag(r: &[u8], i: usize, name: &[u8]) -> bool {
    let p = skip_class(r, i + 1, WS);
    r[p..].starts_with(name)
        && r.get(p + name.len())
            .is_none_or(|&b| CLASS[b as usize] & NAME == 0)
}

impl<'a> Lexer<'a, '_> {
    /// Whether the tag at `i` starts the next hand: hands not separated by
    /// a blank line (PBN 2.1 section 3 ends a game with one) would be one
    /// record, the second hand's tags repeats of the first's. A tag without
    /// a segmental prefix that is the first tag of its line (most often at
    /// its start; text before it, such as stray words, stays with the hand
    /// before) starts a hand when it is named as the record's first such tag, or,
    /// after a section with tokens (an auction, a play), as one of the tags
    /// before that section (the next hand may leave out a first tag that
    /// only the first hand of a file has, such as a `##` Site), or as one
    /// of the tags before the first section of the record's first hand
    /// (`prior`). The splitter cuts long records by the same rule
    /// (`split::cut`), so its cuts are where hands start anyway.
    #[inline]
    pub(super) fn starts_hand(&self, i: usize) -> bool {
        let Some(first) = self.first else {
            return false;
        };
        let r = self.r;
        // `[` and the first name's first letters (or white space after the
        // `[`), four bytes compared at once: most tags differ from the
        // first there.
        let maybe_first = r.get(i..i + 4).is_none_or(|w| {
            let w = u32::from_le_bytes(w.try_into().expect("four bytes"));
            w & self.first_mask == self.first_key || is_ws((w >> 8) as u8)
        });
        if !maybe_first && self.head_end.is_none() {
            return false;
        }
        // Only the first tag of a line (`first` is set: this hand has a tag).
        if self
            .lists
            .tags
            .last()
            .is_some_and(|t| t.at as usize >= self.line_start)
        {
            return false;
        }
        if maybe_first && names_tag(r, i, first) {
            return true;
        }
        self.head_end
            .is_some_and(|end| self.repeats_head_tag(i, end))
    }

    /// Whether the tag at `i` is named as one of the hand's tags before
    /// `end`, or as one of the `prior` leading tags (without a segmental
    /// prefix).
    #[cold]
    pub(super) fn repeats_head_tag(&self, i: usize, end: usize) -> bool {
        let r = self.r;
        let p = skip_class(r, i + 1, WS);
        let name = &r[p..skip_class(r, p, NAME)];
        // Length and first letter before the bytes: a call to compare them
        // cost more than the rest (many names have four letters).
        let Some(&initial) = name.first() else {
            return false;
        };
        // A tag that may come many times in a hand (a Note after the
        // auction and another after the play) starts none by coming again.
        if (self.d.repeatable)(name) {
            return false;
        }
        let tags = &self.lists.tags;
        tags[self.tags0..end]
            .iter()
            .chain(&tags[self.prior.clone()])
            .any(|t| {
                t.name.len() == name.len()
                    && t.name[0] == initial
                    && t.name == name
                    && t.segment.is_none()
            })
    }

    /// Where the hand whose first tag is at `i` starts: at `i` when text
    /// stands before it on its line (which stays with the hand before, as
    /// the tokens or comments it was read as); else at its line, or before
    /// the comments on lines of their own just above that line, as such
    /// comments are written before a hand's tags. Those comments are taken
    /// off this record's list.
    pub(super) fn hand_start(&mut self, i: usize) -> usize {
        let r = self.r;
        if !r[self.line_start..i]
            .iter()
            .all(|&b| b == b' ' || b == b'\t')
        {
            return i;
        }
        let mut start = self.line_start;
        while self.lists.comments.len() > self.comments0 {
            let c = self.lists.comments[self.lists.comments.len() - 1];
            let at = c.at as usize;
            // Past the `}` of a brace comment; a `;` comment ends at its line end.
            let end = at + 1 + c.text.len() + usize::from(r[at] == b'{');
            let line = memchr::memrchr(b'\n', &r[..at]).map_or(0, |p| p + 1);
            let alone = r[line..at].iter().all(|&b| b == b' ' || b == b'\t')
                && r.get(end..start)
                    .is_some_and(|gap| gap.iter().all(|&b| is_ws(b)));
            if !alone {
                break;
            }
            start = line;
            self.lists.comments.pop();
        }
        start
    }

    /// The end of the line at `i` (its `\n`, or the record's end).
    pub(super) fn line_end(&self, i: usize) -> usize {
        memchr(b'\n', &self.r[i..]).map_or(self.r.len(), |j| i + j)
    }
}
