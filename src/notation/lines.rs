//! Splitters that read whole lines, for the notations whose records are not
//! tag-pair blocks: RBX (one record a line) and PHH (one TOML document a
//! `.phh` file; one `[key]` table a hand in a `.phhs` file).
//!
//! RBN records (separated by blank lines) are read the same way.
//!
//! A [`LineSplitter`] is fed an input in pieces, like every [`Splitter`]:
//! it reads the complete lines of each piece and keeps the open record's
//! start; the last line may end without a line feed.

use memchr::memchr;

use crate::split::{Item, ItemKind, Splitter, is_ws};

/// What a line does to the records around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// Part of the open record (or the start of one when none is open);
    /// a line of white space only ends nothing.
    Continue,
    /// Ends the open record, if any, and starts a new one.
    Start,
    /// A record of its own: ends the open record, is one, and ends it.
    Alone,
    /// Ends the open record, if any, and is part of none (the blank line
    /// between RBN records).
    End,
}

/// How a notation reads its lines, with what it carries from line to line.
pub trait LineRule: Send + Default {
    /// `line` without its line end; `blank` when it is white space only.
    fn line(&mut self, line: &[u8], blank: bool) -> Line;
}

/// One record a non-blank line (RBX).
#[derive(Default)]
pub struct EachLine;

impl LineRule for EachLine {
    fn line(&mut self, _: &[u8], _: bool) -> Line {
        Line::Alone
    }
}

/// Records separated by blank lines (RBN).
#[derive(Default)]
pub struct Paragraphs;

impl LineRule for Paragraphs {
    fn line(&mut self, _: &[u8], blank: bool) -> Line {
        if blank { Line::End } else { Line::Continue }
    }
}

/// One record a TOML table (`[key]` at the start of a line, outside strings
/// and arrays), or one for the whole document when it has none (PHH).
#[derive(Default)]
pub struct TomlTables {
    /// Inside a multi-line string opened by this delimiter.
    string: Option<&'static [u8]>,
    /// Depth of the arrays open at the line's start.
    depth: u32,
}

impl LineRule for TomlTables {
    fn line(&mut self, line: &[u8], _: bool) -> Line {
        let t = line.trim_ascii_start();
        let header = self.string.is_none()
            && t.first() == Some(&b'[')
            && t.get(1) != Some(&b'[')
            && (self.depth == 0 || header_shape(t));
        if header {
            // An array left open before a header is an error of the hand
            // above, which must not run on into the hands below.
            self.depth = 0;
            return Line::Start;
        }
        self.follow(t);
        Line::Continue
    }
}

/// A line that can only be a table header, even inside an open array:
/// `[` key `]` and nothing after it but white space or a comment, the key
/// bare (letters, digits, `_`, `-`), quoted, or dotted, without a comma (a
/// nested array `[1, 2],` is none; a nested array of one bare element on a
/// line of its own, `[1]`, is read as a header: PHH has no nested arrays).
fn header_shape(t: &[u8]) -> bool {
    let mut i = 1;
    let mut quote = None;
    while i < t.len() {
        let b = t[i];
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => match b {
                b'"' | b'\'' => quote = Some(b),
                b']' => break,
                b'.' | b' ' | b'\t' | b'_' | b'-' => {}
                _ if b.is_ascii_alphanumeric() => {}
                _ => return false,
            },
        }
        i += 1;
    }
    if i >= t.len() || i == 1 {
        return false;
    }
    let rest = t[i + 1..].trim_ascii();
    rest.is_empty() || rest[0] == b'#'
}

impl TomlTables {
    /// Follows the strings, comments and arrays of a line that is not a
    /// table header.
    fn follow(&mut self, t: &[u8]) {
        let mut i = 0;
        while i < t.len() {
            if let Some(delim) = self.string {
                match t[i..].windows(3).position(|w| w == delim) {
                    Some(p) => {
                        self.string = None;
                        i += p + 3;
                        continue;
                    }
                    None => return,
                }
            }
            match t[i] {
                b'#' => return,
                b'"' | b'\'' => {
                    let q = t[i];
                    let triple: &'static [u8] = if q == b'"' { b"\"\"\"" } else { b"'''" };
                    if t[i..].starts_with(triple) {
                        self.string = Some(triple);
                        i += 3;
                        continue;
                    }
                    // A one-line string: to its closing quote (a basic
                    // string's `\"` does not close it).
                    let mut j = i + 1;
                    while j < t.len() && t[j] != q {
                        j += if q == b'"' && t[j] == b'\\' { 2 } else { 1 };
                    }
                    i = j + 1;
                    continue;
                }
                b'[' => self.depth += 1,
                b']' => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
            i += 1;
        }
    }
}

/// A splitter of whole lines, by a [`LineRule`].
pub struct LineSplitter<R: LineRule> {
    rule: R,
    /// Absolute offset of the next line to read.
    pos: u64,
    /// Its 1-based line number.
    line: u64,
    /// The open record: its start, its line, and the end of its last
    /// non-white byte.
    open: Option<(u64, u64, u64)>,
}

impl<R: LineRule> LineSplitter<R> {
    /// A splitter whose first byte will be at absolute offset `start`.
    pub fn new_at(start: u64) -> Self {
        LineSplitter {
            rule: R::default(),
            pos: start,
            line: 1,
            open: None,
        }
    }

    fn close(&mut self, items: &mut Vec<Item>) {
        if let Some((start, line, end)) = self.open.take() {
            items.push(Item {
                kind: ItemKind::Record,
                start,
                end,
                line,
                joined: false,
                at_end: false,
            });
        }
    }

    /// Reads the line at `self.pos`, `text` (its line feed left out), which
    /// ends at absolute offset `next` (the next line's start).
    fn read_line(&mut self, text: &[u8], next: u64, items: &mut Vec<Item>) {
        let content = text.iter().rposition(|&b| !is_ws(b));
        let end = self.pos + content.map_or(0, |p| p as u64 + 1);
        match self.rule.line(text, content.is_none()) {
            Line::Start => {
                self.close(items);
                self.open = Some((self.pos, self.line, end));
            }
            Line::Alone => {
                self.close(items);
                if content.is_some() {
                    self.open = Some((self.pos, self.line, end));
                    self.close(items);
                }
            }
            Line::End => self.close(items),
            Line::Continue => match &mut self.open {
                Some(open) if content.is_some() => open.2 = end,
                Some(_) => {}
                None if content.is_some() => self.open = Some((self.pos, self.line, end)),
                None => {}
            },
        }
        self.pos = next;
        self.line += 1;
    }
}

impl<R: LineRule> Splitter for LineSplitter<R> {
    fn scan(&mut self, bytes: &[u8], base: u64, to: usize, items: &mut Vec<Item>) {
        loop {
            let from = (self.pos - base) as usize;
            let Some(nl) = memchr(b'\n', &bytes[from..to]) else {
                return;
            };
            let next = self.pos + nl as u64 + 1;
            self.read_line(&bytes[from..from + nl], next, items);
        }
    }

    fn end(&mut self, bytes: &[u8], base: u64, items: &mut Vec<Item>) {
        self.scan(bytes, base, bytes.len(), items);
        let from = (self.pos - base) as usize;
        if from < bytes.len() {
            let next = base + bytes.len() as u64;
            self.read_line(&bytes[from..], next, items);
        }
        self.close(items);
    }

    fn open_start(&self) -> u64 {
        self.open.map_or(self.pos, |o| o.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (start, end, line) of the records, the input fed in pieces of `step`.
    fn split<R: LineRule>(bytes: &[u8], step: usize) -> Vec<(u64, u64, u64)> {
        let mut s = LineSplitter::<R>::new_at(0);
        let mut items = Vec::new();
        let mut at = 0;
        while at < bytes.len() {
            at = (at + step).min(bytes.len());
            s.scan(bytes, 0, at, &mut items);
        }
        s.end(bytes, 0, &mut items);
        items.iter().map(|i| (i.start, i.end, i.line)).collect()
    }

    #[test]
    fn each_line_is_a_record() {
        let b = b"%{RBX}D{1}\r\n\n  \nB{7}H{W:AK2}\nA{x}";
        for step in [1, 2, 5, 100] {
            assert_eq!(
                split::<EachLine>(b, step),
                [(0, 10, 1), (16, 28, 4), (29, 33, 5)]
            );
        }
    }

    #[test]
    fn paragraphs_end_at_blank_lines() {
        let b = b"% RBN\nD 1\r\n\r\n \nB 7\n{x}\n\n\nH W:A";
        for step in [1, 2, 5, 100] {
            assert_eq!(
                split::<Paragraphs>(b, step),
                [(0, 9, 1), (15, 22, 5), (25, 30, 9)]
            );
        }
    }

    #[test]
    fn toml_tables_are_records_outside_strings_and_arrays() {
        let b = b"# file\n[1]\nvariant = 'NT'\nactions = [\n  'd dh p1 ????',\n]\n\n\
                  [2]\nnote = '''\n[3]\n'''\nx = \"a]'\"\nblinds = [\n[1, 2],\n]\n[3]\n";
        let want = [(0, 6, 1), (7, 57, 2), (59, 112, 8), (113, 116, 16)];
        for step in [1, 3, 7, 1000] {
            assert_eq!(split::<TomlTables>(b, step), want, "{step}");
        }
        // An array left open ends at the next header line.
        let b = b"[1]\nantes = [0, 0\nx = 1\n\n[2] # next\nb = [\n[1, 2],\n]\n[\"3\"]\n";
        for step in [1, 3, 1000] {
            assert_eq!(
                split::<TomlTables>(b, step),
                [(0, 23, 1), (25, 51, 5), (52, 57, 9)],
                "{step}"
            );
        }
        // A document without tables is one record.
        assert_eq!(
            split::<TomlTables>(b"\nvariant = 'NT'\n\nplayers = 2\n", 4),
            [(1, 28, 2)]
        );
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    /// Items of `bytes` fed in pieces cut at `cuts`.
    fn items<R: LineRule>(bytes: &[u8], cuts: &[usize]) -> Vec<Item> {
        let mut s = LineSplitter::<R>::new_at(0);
        let mut items = Vec::new();
        let mut ends: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
        ends.sort_unstable();
        for end in ends {
            if (s.open_start() as usize) <= end {
                s.scan(bytes, 0, end.max(s.pos as usize), &mut items);
            }
        }
        s.end(bytes, 0, &mut items);
        items
    }

    /// Records in order, apart, each from a line start to its last byte
    /// that is not white space, and nothing but white space between them.
    fn check_tiling(bytes: &[u8], items: &[Item]) -> Result<(), TestCaseError> {
        let mut at = 0usize;
        for it in items {
            let (s, e) = (it.start as usize, it.end as usize);
            prop_assert!(at <= s && s < e && e <= bytes.len());
            prop_assert!(s == 0 || bytes[s - 1] == b'\n');
            prop_assert!(!crate::split::is_ws(bytes[e - 1]));
            prop_assert!(bytes[at..s].iter().all(|&b| crate::split::is_ws(b)) || at == 0);
            let line = 1 + bytes[..s].iter().filter(|&&b| b == b'\n').count() as u64;
            prop_assert_eq!(it.line, line);
            at = e;
        }
        Ok(())
    }

    proptest! {
        #[test]
        fn pieces_give_the_items_of_the_whole(
            bytes in proptest::collection::vec(
                prop_oneof![Just(b'\n'), Just(b' '), Just(b'['), Just(b']'), Just(b'\''),
                            Just(b'"'), Just(b'#'), Just(b'='), Just(b'x'), Just(b'\r')],
                0..200),
            cuts in proptest::collection::vec(0usize..400, 0..8),
        ) {
            let whole = items::<TomlTables>(&bytes, &[]);
            prop_assert_eq!(&items::<TomlTables>(&bytes, &cuts), &whole);
            let paragraphs = items::<Paragraphs>(&bytes, &[]);
            prop_assert_eq!(&items::<Paragraphs>(&bytes, &cuts), &paragraphs);
            check_tiling(&bytes, &paragraphs)?;
            let lines = items::<EachLine>(&bytes, &[]);
            prop_assert_eq!(&items::<EachLine>(&bytes, &cuts), &lines);
            check_tiling(&bytes, &lines)?;
            // Every line with content is a record of its own.
            let content = bytes.split(|&b| b == b'\n').filter(|l| !l.trim_ascii().is_empty()).count();
            prop_assert_eq!(lines.len(), content);
            for it in &whole {
                prop_assert!(it.start < it.end && (it.end as usize) <= bytes.len());
            }
        }
    }
}
