//! Long records cut where their next hand starts.
//!
//! Hands are separated by blank lines; in a file without them, one record
//! would run to the end of the input (and, past [`MAX_RECORD_BYTES`], be
//! quarantined whole). A record longer than [`CUT_BYTES`] is therefore cut
//! before a line that starts a hand, by the rule the PPN lexer uses to tell
//! the hands of one record apart (`notation::tagpair::lex`): a tag at the start
//! of a line (spaces or tabs before it allowed), without a segmental prefix,
//! named as the record's first tag, or, after a line of section tokens (a
//! play, say), as one of its leading tags: those of its first hand up to
//! the tag whose section holds the hand's first tokens. So a file without
//! blank lines is read in records of about this size, and memory stays
//! bounded. (The lexer also starts a hand at such a tag after stray words
//! on its line; the splitter cuts only at the start of a line, a subset of
//! the lexer's hand starts.)
//!
//! A line is passed over when the line above it starts with a comment
//! (`{`, `;`), holds a `}` or ends with `=` (comments on lines of their own
//! above a hand's first tag go with that hand, and a segmental prefix may
//! stand on the line before its tag). The leading tags are read from the
//! record's first 64 KiB; a record that does not start with tags (after
//! comments) is not cut. Records are cut only up to [`MAX_RECORD_BYTES`]: a
//! streamed input keeps no more of a record, and a mapped one must split
//! the same way.

use memchr::{memchr, memrchr};

use super::{Item, MAX_RECORD_BYTES, Mode, Scanner, is_ws};

/// A record longer than this is cut before a line that starts its next hand.
pub const CUT_BYTES: usize = 1 << 20;

/// Tag names longer than this do not start hands at a cut.
const NAME_MAX: usize = 32;

/// Bytes of a record read for its leading tags.
const LEADING_BYTES: usize = 64 << 10;

/// A long record's leading tag names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Leading {
    /// The record does not start with tags: it is not cut.
    Absent,
    Names(Vec<Box<[u8]>>),
}

/// The first bytes of a line, gathered in [`Mode::Head`]: spaces or tabs,
/// `[`, spaces or tabs, a name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Head {
    /// 0: before the `[`; 1: after it; 2: in the name.
    phase: u8,
    /// The line above is one of section tokens: any leading tag starts a
    /// hand, not only the first.
    after_tokens: bool,
    name: [u8; NAME_MAX],
    len: u8,
    /// Just past the last non-white byte gathered.
    content_end: Option<u64>,
}

/// Whether `b` may be part of a tag name (the PPN lexer's rule too).
pub const fn is_name(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl Scanner {
    /// Whether the open record has reached the length at which it is cut
    /// (at offset `at`), and not the length past which it is not.
    #[inline]
    pub(super) fn is_long(&self, at: u64) -> bool {
        self.rec.is_some_and(|(start, _)| {
            at - start >= self.cut_after && at - start <= MAX_RECORD_BYTES as u64
        })
    }

    /// At the start of a line (offset `at`) of a long record: whether the
    /// line may start the record's next hand, to be told by its first bytes
    /// in [`Mode::Head`] (then entered). `chunk[0]` is at `base`, and
    /// `chunk` holds the record up to `at`.
    pub(super) fn may_cut(&mut self, chunk: &[u8], base: u64, at: u64) -> bool {
        if self.checked_line == at {
            return false;
        }
        self.checked_line = at;
        let Some((start, _)) = self.rec.filter(|r| r.0 >= base && r.0 < at) else {
            return false;
        };
        let rec = &chunk[(start - base) as usize..(at - base) as usize];
        if !self.leading_known {
            (self.leading, self.leading_known) = leading_tags(rec);
        }
        let above = line_above(rec);
        let may = self.leading != Leading::Absent && above != Above::Comment;
        if may {
            self.mode = Mode::Head;
            self.head = Head {
                after_tokens: above == Above::Tokens,
                ..Head::default()
            };
        }
        may
    }

    /// One byte `b` (at offset `at`) of a line's first bytes:
    /// `Some(whether the line starts the next hand)` once that is known
    /// (the byte is then read again in normal mode), else `None` (the byte
    /// is taken).
    pub(super) fn head_step(&mut self, b: u8, at: u64) -> Option<bool> {
        let h = &mut self.head;
        match h.phase {
            0 | 1 if b == b' ' || b == b'\t' => {}
            0 if b == b'[' => h.phase = 1,
            1 | 2 if is_name(b) && (h.len as usize) < NAME_MAX => {
                h.phase = 2;
                h.name[h.len as usize] = b;
                h.len += 1;
            }
            2 if !is_name(b) => return Some(self.head_starts_hand()),
            _ => return Some(false),
        }
        if !is_ws(b) {
            h.content_end = Some(at + 1);
        }
        None
    }

    /// Whether the name gathered (ended by the byte after it) is one of the
    /// record's leading tags.
    pub(super) fn head_starts_hand(&self) -> bool {
        let h = &self.head;
        let name = &h.name[..h.len as usize];
        let Leading::Names(names) = &self.leading else {
            return false;
        };
        h.phase == 2
            && if h.after_tokens {
                names.iter().any(|n| **n == *name)
            } else {
                *names[0] == *name
            }
    }

    /// Ends [`Mode::Head`]: the record is cut before the line when it
    /// `starts` a hand; what was gathered of the line is its content.
    pub(super) fn head_end(&mut self, starts: bool, out: &mut impl FnMut(Item)) {
        self.mode = Mode::Normal;
        if starts {
            self.close(out);
            self.rec = Some((self.line_start, self.line));
            self.joined = true;
        }
        if let Some(end) = self.head.content_end {
            self.line_content = true;
            self.rec_end = end;
        }
    }
}

/// The leading tag names of `rec` (a record's bytes from its start): its
/// tags without a segmental prefix up to its first section token, the last
/// of them the tag whose section that token is in. Comments may come
/// between them. When no token comes (within [`LEADING_BYTES`], or before
/// something that is not a tag), only the first tag leads (the lexer tells
/// hands apart by their other leading tags only after their first tokens).
/// [`Leading::Absent`] when the record does not start with a tag. And
/// whether that is known: false when no token came in fewer bytes than
/// [`LEADING_BYTES`] (the record was shorter than that so far).
fn leading_tags(rec: &[u8]) -> (Leading, bool) {
    let r = &rec[..rec.len().min(LEADING_BYTES)];
    let mut names: Vec<Box<[u8]>> = Vec::new();
    let mut i = 0;
    let token = loop {
        while r.get(i).is_some_and(|&b| is_ws(b)) {
            i += 1;
        }
        let Some(&b) = r.get(i) else { break false };
        let skip = match b {
            b'{' => memchr(b'}', &r[i..]),
            b';' | b'%' => memchr(b'\n', &r[i..]),
            b'@' => match memchr(b'[', &r[i..]) {
                Some(k) if r[i..i + k].contains(&b'=') => {
                    i += k;
                    tag(r, i).map(|(_, end)| end - i)
                }
                _ => None,
            },
            b'[' => tag(r, i).map(|(name, end)| {
                if name.len() <= NAME_MAX && !names.iter().any(|n| **n == *name) {
                    names.push(name.into());
                }
                end - i
            }),
            _ => break true,
        };
        match skip {
            Some(k) => i += k + 1,
            None => break false,
        }
    };
    let known = token || r.len() == LEADING_BYTES;
    if names.is_empty() {
        return (Leading::Absent, known);
    }
    if !token {
        names.truncate(1);
    }
    (Leading::Names(names), known)
}

/// The tag pair whose `[` is at `i`: its name and the offset of its `]`.
fn tag(r: &[u8], i: usize) -> Option<(&[u8], usize)> {
    let blank = |p: usize| {
        p + r[p..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count()
    };
    let p = blank(i + 1);
    let name_end = p + r[p..].iter().take_while(|&&b| is_name(b)).count();
    let mut q = blank(name_end);
    if name_end == p || r.get(q) != Some(&b'"') {
        return None;
    }
    q += 1;
    loop {
        match r.get(q)? {
            b'"' => break,
            b'\\' => q += 2,
            b'\n' => return None,
            _ => q += 1,
        }
    }
    let q = blank(q + 1);
    (r.get(q) == Some(&b']')).then(|| (&r[p..name_end], q))
}

/// What the line above a line that may start a hand is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Above {
    /// It may be (the end of) a comment of that hand, or a segmental
    /// prefix of its tag: the line is passed over.
    Comment,
    /// It starts with a tag (or a segmental prefix, or `%`).
    Tag,
    /// It starts with something else: section tokens.
    Tokens,
}

/// The last line of `s` (which ends with its `\n`): [`Above::Comment`]
/// when it starts with a comment (after spaces or tabs), holds a `}` or
/// ends with `=`, or `s` does not end with a line end.
fn line_above(s: &[u8]) -> Above {
    let Some((&b'\n', s)) = s.split_last() else {
        return Above::Comment;
    };
    let line = &s[memrchr(b'\n', s).map_or(0, |k| k + 1)..];
    let lead = line.iter().find(|&&b| b != b' ' && b != b'\t');
    let last = line.iter().rev().find(|&&b| !is_ws(b));
    if matches!(lead, Some(b'{' | b';')) || last == Some(&b'=') || memchr(b'}', line).is_some() {
        Above::Comment
    } else if matches!(lead, Some(b'[' | b'@' | b'%')) {
        Above::Tag
    } else {
        Above::Tokens
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(l: &Leading) -> Vec<&str> {
        match l {
            Leading::Names(v) => v.iter().map(|n| std::str::from_utf8(n).unwrap()).collect(),
            _ => Vec::new(),
        }
    }

    #[test]
    fn leading_tags_run_to_the_first_token() {
        let r = b"{c} [Site \"x\"] [ Date \"y\\\"\"]\n@1=[Chat \"z\"]\n; note\n[Auction \"N\"]\nPass 50\n[Play \"N\"]\n";
        let (l, known) = leading_tags(r);
        assert_eq!((names(&l), known), (vec!["Site", "Date", "Auction"], true));
        // No token: only the first tag leads, until more of the record
        // is read (not known in fewer bytes than are read for them).
        let (l, known) = leading_tags(b"[Site \"x\"]\n[Date \"y\"]\n");
        assert_eq!((names(&l), known), (vec!["Site"], false));
        let mut r = b"[Site \"x\"]\n".repeat(LEADING_BYTES / 11 + 1);
        r.extend(b"[Date \"y\"]\nPass\n");
        let (l, known) = leading_tags(&r);
        assert_eq!((names(&l), known), (vec!["Site"], true));
        // A syntax error ends the reading, as no token does.
        let (l, known) = leading_tags(b"[Site \"x\"]\n[Date y]\nPass\n");
        assert_eq!((names(&l), known), (vec!["Site"], false));
        for r in [&b"Pass [Site \"x\"]\n"[..], b"@1=[Chat \"x\"]\nPass\n"] {
            assert_eq!(leading_tags(r), (Leading::Absent, true));
        }
        assert_eq!(
            leading_tags(b"{never closed [Site \"x\"]\n"),
            (Leading::Absent, false)
        );
    }

    #[test]
    fn the_line_above_is_told_by_its_first_and_last_bytes() {
        assert_eq!(line_above(b"[A \"1\"]\nPass 50\n"), Above::Tokens);
        assert_eq!(line_above(b"  x\r\n"), Above::Tokens);
        assert_eq!(line_above(b"Pass\n \t[A \"1\"]\n"), Above::Tag);
        assert_eq!(line_above(b"@1=[Chat \"x\"]\n"), Above::Tag);
        assert_eq!(line_above(b"%x\n"), Above::Tag);
        assert_eq!(line_above(b"[A \"1\"]\n  {c}\n"), Above::Comment);
        assert_eq!(line_above(b"; c\n"), Above::Comment);
        assert_eq!(line_above(b"end of a comment}\n"), Above::Comment);
        assert_eq!(line_above(b"Pass @1= \n"), Above::Comment);
        assert_eq!(line_above(b"no line end"), Above::Comment);
    }
}
