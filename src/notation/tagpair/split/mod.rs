//! Record boundaries for the tag-pair notations (PPN, PBN, Preferans PPN).
//!
//! Records are separated by lines that hold only white space. Brace comments
//! (`{...}`) may span lines and hold blank lines without ending a record; quoted
//! strings and `;` comments end at the line's end. A `%` in the first column
//! starts an escape line: outside a record it is a [`ItemKind::Directive`]
//! (file header), inside a record it is part of the record, except a notation,
//! format or ID header (`% PPN`, `% EXPORT`, `% IMPORT`, `% ID`), which always
//! ends the record before it, so that concatenated files split correctly.
//! A record longer than [`CUT_BYTES`] (hands without blank lines between
//! them) is cut before a line that starts its next hand (module `cut`).
//!
//! The [`Scanner`] is a resumable state machine: input can be fed in pieces of
//! any size and the items are the same as for the whole input at once.

mod blank;
mod cut;

pub use cut::{CUT_BYTES, is_name};
use cut::{Head, Leading};

use memchr::{memchr, memchr2, memchr3, memrchr};

pub use crate::split::{
    BOM, CR_SNIFF_BYTES, Item, ItemKind, MAX_RECORD_BYTES, is_cr_only, is_ws, lone_cr_as_lf,
    lone_cr_to_lf,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Normal,
    Quote,
    QuoteEscape,
    Brace,
    /// A `%` in the first column of a line inside a brace comment: the
    /// first bytes of the line are gathered to tell a file header (which
    /// ends the record) from comment text.
    BraceEscape,
    LineComment,
    Escape,
    /// The first bytes of a line of a long record, gathered to tell whether
    /// the line starts the record's next hand (see [`CUT_BYTES`]).
    Head,
    /// A `%` after the first column, outside strings and comments: the
    /// bytes after it are gathered to tell a file header (the first line of
    /// a file joined to one whose last line has no line end: `... (W4)% PPN
    /// 1.0`), which ends the record there, from record text.
    Percent,
}

const HEAD: usize = 12;

/// The splitter's state between pieces of input.
#[derive(Clone, Debug)]
pub struct Scanner {
    mode: Mode,
    /// Absolute offset of the next byte to be fed.
    pos: u64,
    /// 1-based line number of the next byte.
    line: u64,
    line_start: u64,
    line_content: bool,
    /// Start offset and line of the open record.
    rec: Option<(u64, u64)>,
    /// Offset just past the open record's last non-white byte.
    rec_end: u64,
    esc_start: u64,
    esc_line: u64,
    esc_end: u64,
    esc_head: [u8; HEAD],
    esc_len: usize,
    /// Use the vector-scan fast path ([`Scanner::fast_lines`]); off in
    /// [`split_all_by_bytes`], the reference it is tested against.
    fast: bool,
    /// Offset of the `{` that opened the current brace comment.
    brace_at: u64,
    /// A `{` at one of these offsets is read as a comment to the end of its
    /// line (recovery from brace comments that never close).
    line_braces: Vec<u64>,
    /// Set by `finish` when the input ended inside a brace comment.
    unterminated: Option<u64>,
    /// Records ended inside a brace comment by a file header line, not yet
    /// split again: their start and the offset of the `{`.
    runaways: Vec<(u64, u64)>,
    /// Bytes of a [`BOM`] seen at the start of the line, not yet known to
    /// be one (0 to 2).
    bom_seen: u8,
    /// The open record follows the one before without a blank line.
    joined: bool,
    /// A record longer than this is cut before a line that starts its next
    /// hand ([`CUT_BYTES`]; smaller in tests).
    cut_after: u64,
    /// The open record's leading tag names, and whether they are known:
    /// not before they are first looked for, nor when looked for in fewer
    /// bytes than are read for them and not all found (only with a
    /// [`Scanner::cutting_after`] that small; looked for again at the next
    /// line).
    leading: Leading,
    leading_known: bool,
    /// The line start whose line was last looked at for a cut.
    checked_line: u64,
    /// A line's first bytes, in [`Mode::Head`].
    head: Head,
}

/// Offset just past the last non-white byte of `s`, if any.
fn last_content(s: &[u8]) -> Option<usize> {
    s.iter().rposition(|&b| !is_ws(b)).map(|i| i + 1)
}

/// Whether an escape line (text after `%`) is a notation, format or ID header.
pub fn is_file_header(after_percent: &[u8]) -> bool {
    let s = after_percent.trim_ascii_start();
    let word_end = s.iter().position(|b| is_ws(*b)).unwrap_or(s.len());
    matches!(
        &s[..word_end],
        b"PPN" | b"PBN" | b"EXPORT" | b"IMPORT" | b"ID"
    )
}

impl crate::split::Splitter for Scanner {
    fn scan(&mut self, bytes: &[u8], base: u64, to: usize, items: &mut Vec<Item>) {
        Scanner::scan(self, bytes, base, to, items)
    }

    fn end(&mut self, bytes: &[u8], base: u64, items: &mut Vec<Item>) {
        Scanner::end(self, bytes, base, items)
    }

    fn open_start(&self) -> u64 {
        Scanner::open_start(self)
    }
}

impl Default for Scanner {
    fn default() -> Self {
        Self::new_at(0)
    }
}

impl Scanner {
    /// A scanner whose first byte will be at absolute offset `pos` (after a BOM, say)
    /// on line 1.
    pub fn new_at(pos: u64) -> Self {
        Scanner {
            mode: Mode::Normal,
            pos,
            line: 1,
            line_start: pos,
            line_content: false,
            rec: None,
            rec_end: 0,
            esc_start: 0,
            esc_line: 0,
            esc_end: 0,
            esc_head: [0; HEAD],
            esc_len: 0,
            fast: true,
            brace_at: 0,
            line_braces: Vec::new(),
            unterminated: None,
            runaways: Vec::new(),
            bom_seen: 0,
            joined: false,
            cut_after: CUT_BYTES as u64,
            leading: Leading::Absent,
            leading_known: false,
            checked_line: u64::MAX,
            head: Head::default(),
        }
    }

    /// This scanner, cutting records longer than `n` bytes instead of
    /// [`CUT_BYTES`]: for tests and fuzzing.
    #[doc(hidden)]
    pub fn cutting_after(self, n: u64) -> Self {
        Scanner {
            cut_after: n,
            ..self
        }
    }

    /// Absolute offset of the next byte to be fed.
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// The earliest offset an item not yet reported can start at: the start of
    /// the open record, else of the current line. Bytes before it are no
    /// longer needed (a reader that streams its input may drop them).
    pub fn open_start(&self) -> u64 {
        self.rec.map_or(self.line_start, |r| r.0)
    }

    /// After `finish`: the offset of a `{` whose comment never closed. The last
    /// record then runs to the end of the input; [`Scanner::resume_at`] splits
    /// that record again, reading the brace as a comment to the end of its line.
    pub fn unterminated_brace(&self) -> Option<u64> {
        self.unterminated
    }

    /// A scanner that starts again at `item` (a record this one reported),
    /// reading the `{` at `brace` as a comment to the end of its line.
    fn resume_at(&self, item: &Item, brace: u64) -> Scanner {
        let mut line_braces = self.line_braces.clone();
        line_braces.push(brace);
        Scanner {
            line: item.line,
            line_braces,
            fast: self.fast,
            cut_after: self.cut_after,
            joined: item.joined,
            ..Scanner::new_at(item.start)
        }
    }

    /// Scans `bytes[self.position() - base..to]`, where `bytes[0]` is at
    /// absolute offset `base` and `bytes` holds the open record from its
    /// start, reporting every item that ends in it.
    fn feed(&mut self, bytes: &[u8], base: u64, to: usize, out: &mut impl FnMut(Item)) {
        let chunk = &bytes[..to];
        let n = to;
        let mut i = (self.pos - base) as usize;
        while i < n {
            let at = base + i as u64;
            if at == self.line_start + self.bom_seen as u64
                && chunk[i] == BOM[self.bom_seen as usize]
                && matches!(self.mode, Mode::Normal | Mode::Brace)
            {
                // A BOM at the start of a line: the line starts after it.
                self.bom_seen += 1;
                if self.bom_seen as usize == BOM.len() {
                    self.bom_seen = 0;
                    self.line_start = at + 1;
                }
                i += 1;
                continue;
            }
            if self.bom_seen > 0 {
                self.partial_bom();
            }
            match self.mode {
                Mode::Normal if at == self.line_start && self.is_long(at) => {
                    if !self.may_cut(chunk, base, at) {
                        self.normal_step(chunk[i], at, out);
                        i += 1;
                    }
                }
                Mode::Normal if self.fast && at == self.line_start => {
                    // Not past the length at which a record is cut: the
                    // lines after it are looked at one by one.
                    let from = self.rec.map_or(at, |r| r.0) + self.cut_after;
                    let lim = (from.saturating_sub(base) as usize).min(n);
                    let j = self.fast_lines(&chunk[..lim], i, base, out);
                    if j == i {
                        self.normal_step(chunk[i], at, out);
                        i += 1;
                    } else {
                        i = j;
                    }
                }
                Mode::Normal => {
                    self.normal_step(chunk[i], at, out);
                    i += 1;
                }
                Mode::Quote => i = self.quote_run(chunk, base, i),
                Mode::QuoteEscape => {
                    self.mode = Mode::Quote;
                    if chunk[i] == b'\n' {
                        self.mode = Mode::Normal;
                    } else {
                        if !is_ws(chunk[i]) {
                            self.rec_end = at + 1;
                        }
                        i += 1;
                    }
                }
                Mode::Brace if at == self.line_start && chunk[i] == b'%' => {
                    self.start_escape(Mode::BraceEscape, at);
                    i += 1;
                }
                Mode::BraceEscape => {
                    let b = chunk[i];
                    if b == b'\n' || b == b'}' || self.esc_len == HEAD {
                        // The byte is handled again in the mode decided.
                        self.brace_escape_end(out);
                    } else {
                        self.esc_head[self.esc_len] = b;
                        self.esc_len += 1;
                        if !is_ws(b) {
                            self.esc_end = at + 1;
                        }
                        i += 1;
                    }
                }
                Mode::Brace => i = self.brace_run(chunk, base, i, out),
                Mode::Head => match self.head_step(chunk[i], at) {
                    Some(starts) => self.head_end(starts, out),
                    None => i += 1,
                },
                Mode::Percent => {
                    let b = chunk[i];
                    if self.esc_len == HEAD || matches!(b, b'\n' | b'"' | b'{' | b';') {
                        // The byte is handled again in the mode decided.
                        self.percent_end();
                    } else {
                        self.esc_head[self.esc_len] = b;
                        self.esc_len += 1;
                        if !is_ws(b) {
                            self.esc_end = at + 1;
                        }
                        i += 1;
                    }
                }
                Mode::LineComment | Mode::Escape => i = self.line_run(chunk, base, i, out),
            }
        }
        self.pos = base + n as u64;
    }

    /// Inside a string: to its closing quote, an escape or the line's end.
    #[inline]
    fn quote_run(&mut self, chunk: &[u8], base: u64, mut i: usize) -> usize {
        let n = chunk.len();
        match memchr3(b'"', b'\\', b'\n', &chunk[i..]) {
            None => {
                self.note_content_in(base + i as u64, &chunk[i..]);
                i = n;
            }
            Some(j) => {
                let p = i + j;
                self.note_content_in(base + i as u64, &chunk[i..p]);
                match chunk[p] {
                    b'\n' => {
                        // Unterminated string: the record parser reports it.
                        self.mode = Mode::Normal;
                        i = p;
                    }
                    b'"' => {
                        self.mode = Mode::Normal;
                        self.rec_end = base + p as u64 + 1;
                        i = p + 1;
                    }
                    _ => {
                        self.mode = Mode::QuoteEscape;
                        self.rec_end = base + p as u64 + 1;
                        i = p + 1;
                    }
                }
            }
        }
        i
    }

    /// Inside a brace comment: to its `}` or the line's end.
    #[inline]
    fn brace_run(
        &mut self,
        chunk: &[u8],
        base: u64,
        mut i: usize,
        out: &mut impl FnMut(Item),
    ) -> usize {
        let n = chunk.len();
        match memchr2(b'}', b'\n', &chunk[i..]) {
            None => {
                self.note_content_in(base + i as u64, &chunk[i..]);
                i = n;
            }
            Some(j) => {
                let p = i + j;
                self.note_content_in(base + i as u64, &chunk[i..p]);
                if chunk[p] == b'}' {
                    self.mode = Mode::Normal;
                    self.rec_end = base + p as u64 + 1;
                } else {
                    self.end_line(base + p as u64, out);
                }
                i = p + 1;
            }
        }
        i
    }

    /// A `;` comment or a `%` escape line: to the line's end.
    #[inline]
    fn line_run(
        &mut self,
        chunk: &[u8],
        base: u64,
        mut i: usize,
        out: &mut impl FnMut(Item),
    ) -> usize {
        let n = chunk.len();
        let end = memchr(b'\n', &chunk[i..]).map_or(n, |j| i + j);
        let span = &chunk[i..end];
        if self.mode == Mode::Escape {
            let take = span.len().min(HEAD - self.esc_len);
            self.esc_head[self.esc_len..self.esc_len + take].copy_from_slice(&span[..take]);
            self.esc_len += take;
            if let Some(k) = last_content(span) {
                self.esc_end = base + (i + k) as u64;
            }
        } else {
            self.note_content_in(base + i as u64, span);
        }
        if end < n {
            self.end_line(base + end as u64, out);
            i = end + 1;
        } else {
            i = n;
        }
        i
    }

    /// The fast path, from the start of a line in normal mode: whole lines
    /// without `{`, `;` or `%` cannot change the mode (strings end
    /// at the line's end), so only blank lines matter. Runs of such lines are
    /// taken at once, from one possible blank line to the next
    /// ([`blank::next_event`]). Returns where it stopped: the start of a line
    /// the byte machine must handle.
    fn fast_lines(
        &mut self,
        chunk: &[u8],
        i: usize,
        base: u64,
        out: &mut impl FnMut(Item),
    ) -> usize {
        // `cur`: the first line not yet accounted for; `pos`: where to look
        // on; `lines`: the line feeds in `chunk[cur..pos]`, counted by the
        // scans (-1 after a blank line, where `pos` is the blank line's own
        // line feed, just before `cur`).
        let mut cur = i;
        let mut pos = i;
        let mut lines = 0isize;
        // The first line has no `\n` before it in `chunk`: look at it here.
        let mut next_line = Some(i);
        let stop = loop {
            if let Some(ls) = next_line.take() {
                match chunk.get(ls) {
                    Some(b'%') | Some(0xEF) | None => break ls,
                    Some(_) => match blank::line_at(chunk, ls) {
                        blank::Line::Blank(nl) => {
                            self.content_lines(chunk, cur, ls, lines, base);
                            self.close(out);
                            self.line += 1;
                            cur = nl + 1;
                            pos = nl;
                            lines = -1;
                        }
                        blank::Line::Open => break ls,
                        blank::Line::Content => {}
                    },
                }
            }
            let event = blank::next_event(chunk, pos);
            lines += event.lines as isize;
            match event.at {
                Some(q) if chunk[q] == b'\n' => {
                    next_line = Some(q + 1);
                    pos = q + 1;
                    lines += 1;
                }
                // A comment: the byte machine takes the line it is on.
                Some(q) => break memrchr(b'\n', &chunk[cur..q]).map_or(cur, |k| cur + k + 1),
                None => break memrchr(b'\n', &chunk[cur..]).map_or(cur, |k| cur + k + 1),
            }
        };
        // Every line feed in `chunk[cur..stop]` was counted: `stop` is just
        // past a line feed the scans passed, or the start of the line whose
        // first byte they stopped at.
        self.content_lines(chunk, cur, stop, lines, base);
        self.line_start = base + stop as u64;
        stop
    }

    /// Lines `chunk[cur..stop]`, each holding something: part of a record;
    /// `lines` line feeds among them.
    fn content_lines(&mut self, chunk: &[u8], cur: usize, stop: usize, lines: isize, base: u64) {
        if cur >= stop {
            return;
        }
        debug_assert_eq!(
            lines,
            memchr::memchr_iter(b'\n', &chunk[cur..stop]).count() as isize
        );
        if self.rec.is_none() {
            self.rec = Some((base + cur as u64, self.line));
        }
        if let Some(k) = last_content(&chunk[cur..stop]) {
            self.rec_end = base + (cur + k) as u64;
        }
        self.line += lines as u64;
    }

    /// One byte in normal mode.
    fn normal_step(&mut self, b: u8, at: u64, out: &mut impl FnMut(Item)) {
        if b == b'\n' {
            self.end_line(at, out);
            return;
        }
        if is_ws(b) {
            return;
        }
        if b == b'%' {
            let mode = if at == self.line_start {
                Mode::Escape
            } else {
                Mode::Percent
            };
            self.start_escape(mode, at);
            return;
        }
        self.record_text(at + 1);
        match b {
            b'{' if self.line_braces.contains(&at) => self.mode = Mode::LineComment,
            b'{' => {
                self.mode = Mode::Brace;
                self.brace_at = at;
            }
            b'"' => self.mode = Mode::Quote,
            b';' => self.mode = Mode::LineComment,
            _ => {}
        }
    }

    /// At the end of the first bytes of a line that starts with `%` inside a
    /// brace comment: a file header (`% PPN`, ...; files joined into one)
    /// ends the record there, its comment unterminated, and the header line
    /// is read as such; the record is split again with the brace read as a
    /// comment to the end of its line (see [`Scanner::scan`]). Any other
    /// line is comment text.
    fn brace_escape_end(&mut self, out: &mut impl FnMut(Item)) {
        if is_file_header(&self.esc_head[..self.esc_len]) {
            if let Some((start, _)) = self.rec {
                self.runaways.push((start, self.brace_at));
            }
            self.close(out);
            self.mode = Mode::Escape;
        } else {
            self.mode = Mode::Brace;
            self.rec_end = self.esc_end;
        }
    }

    /// At the end of the bytes gathered after a `%` that is not in the
    /// first column ([`Mode::Percent`]): a file header is read as an escape
    /// line from the `%` on (which ends the record before it, see
    /// [`Scanner::end_escape`]); anything else is record text.
    fn percent_end(&mut self) {
        if is_file_header(&self.esc_head[..self.esc_len]) {
            self.mode = Mode::Escape;
        } else {
            self.mode = Mode::Normal;
            self.record_text(self.esc_end);
        }
    }

    /// Record text on this line, up to `end`: opens a record at the line
    /// if none is open.
    #[inline]
    fn record_text(&mut self, end: u64) {
        if self.rec.is_none() {
            self.rec = Some((self.line_start, self.line));
        }
        self.line_content = true;
        self.rec_end = end;
    }

    /// Feeds `bytes[self.position() - base..to]`, where `bytes[0]` is at
    /// absolute offset `base` and `bytes` holds every byte of the open
    /// record (from [`Scanner::open_start`] on), and pushes the items that
    /// end in it onto `items`. A record ended by a file header inside a
    /// brace comment is split again there, as at the end of the input
    /// ([`Scanner::end`]).
    pub fn scan(&mut self, bytes: &[u8], base: u64, to: usize, items: &mut Vec<Item>) {
        let first = items.len();
        self.feed(bytes, base, to, &mut |it| items.push(it));
        self.resplit(bytes, base, items, first);
    }

    /// Ends the input after [`Scanner::scan`]: `bytes` (from `base` on) runs
    /// to the end of the input. Reports the open record and the records
    /// recovered from a brace comment that never closed.
    pub fn end(&mut self, bytes: &[u8], base: u64, items: &mut Vec<Item>) {
        let first = items.len();
        self.finish(&mut |it| items.push(it));
        self.resplit(bytes, base, items, first);
        recover_in(bytes, base, self, items);
    }

    /// Splits again each record of `items[first..]` ended by a file header
    /// inside a brace comment, reading the brace as a comment to the end of
    /// its line (within the bounds of `recover_in`).
    fn resplit(&mut self, bytes: &[u8], base: u64, items: &mut Vec<Item>, first: usize) {
        for (start, brace) in std::mem::take(&mut self.runaways) {
            let Some(k) = items[first..]
                .iter()
                .rposition(|it| it.kind == ItemKind::Record && it.start == start)
            else {
                continue;
            };
            let item = items[first + k];
            if self.line_braces.len() >= MAX_RECOVERIES
                || item.start < base
                || (item.end - item.start) as usize > MAX_RECORD_BYTES
            {
                continue;
            }
            let region = &bytes[..(item.end - base) as usize];
            let mut sub = self.resume_at(&item, brace);
            let mut got = Vec::new();
            sub.feed(region, base, region.len(), &mut |it| got.push(it));
            sub.finish(&mut |it| got.push(it));
            recover_in(region, base, &mut sub, &mut got);
            debug_assert!(sub.runaways.is_empty());
            self.line_braces = sub.line_braces;
            items.splice(first + k..first + k + 1, got);
        }
    }

    /// The bytes seen of a [`BOM`] at the start of the line were not one:
    /// they are text of the line.
    fn partial_bom(&mut self) {
        let end = self.line_start + self.bom_seen as u64;
        self.bom_seen = 0;
        if self.mode == Mode::Normal {
            if self.rec.is_none() {
                self.rec = Some((self.line_start, self.line));
            }
            self.line_content = true;
        }
        self.rec_end = end;
    }

    /// A `%` at `at`, in the first column: its line is read in `mode`
    /// (an escape line, or one inside a brace comment); or after it
    /// ([`Mode::Percent`]).
    fn start_escape(&mut self, mode: Mode, at: u64) {
        self.mode = mode;
        self.esc_start = at;
        self.esc_line = self.line;
        self.esc_end = at + 1;
        self.esc_len = 0;
    }

    /// Ends the input: reports the open record, if any.
    fn finish(&mut self, out: &mut impl FnMut(Item)) {
        if self.bom_seen > 0 {
            self.partial_bom();
        }
        if self.mode == Mode::BraceEscape {
            self.brace_escape_end(out);
        }
        if self.mode == Mode::Percent {
            self.percent_end();
        }
        if self.mode == Mode::Head {
            // The line ends with the input, and so does the name.
            let starts = self.head_starts_hand();
            self.head_end(starts, out);
        }
        if self.mode == Mode::Brace {
            self.unterminated = Some(self.brace_at);
        }
        if self.mode == Mode::Escape {
            self.end_escape(out);
        }
        self.mode = Mode::Normal;
        self.close(out);
    }

    fn note_content_in(&mut self, start: u64, span: &[u8]) {
        if let Some(k) = last_content(span) {
            self.rec_end = start + k as u64;
        }
    }

    fn close(&mut self, out: &mut impl FnMut(Item)) {
        if let Some((start, line)) = self.rec.take() {
            out(Item {
                kind: ItemKind::Record,
                start,
                end: self.rec_end,
                line,
                joined: self.joined,
                at_end: false,
            });
            self.joined = false;
            self.leading_known = false;
        }
    }

    fn end_escape(&mut self, out: &mut impl FnMut(Item)) {
        let head = &self.esc_head[..self.esc_len];
        if self.rec.is_some() && !is_file_header(head) {
            self.rec_end = self.esc_end;
            self.line_content = true;
        } else {
            self.close(out);
            out(Item {
                kind: ItemKind::Directive,
                start: self.esc_start,
                end: self.esc_end,
                line: self.esc_line,
                joined: false,
                at_end: false,
            });
        }
    }

    /// Handles the newline at absolute offset `at`.
    fn end_line(&mut self, at: u64, out: &mut impl FnMut(Item)) {
        match self.mode {
            Mode::Escape => {
                self.end_escape(out);
                self.mode = Mode::Normal;
            }
            Mode::Brace => {}
            Mode::Normal if !self.line_content => self.close(out),
            _ => self.mode = Mode::Normal,
        }
        self.line += 1;
        self.line_start = at + 1;
        self.line_content = self.mode == Mode::Brace;
    }
}

/// Splits a whole input at once; `start` skips a byte-order mark, for instance.
pub fn split_all(bytes: &[u8], start: usize) -> Vec<Item> {
    let mut items = Vec::new();
    let mut sc = Scanner::new_at(start as u64);
    sc.scan(bytes, 0, bytes.len(), &mut items);
    crate::split::end_input(&mut sc, bytes, 0, &mut items);
    items
}

/// [`split_all`] from the start of `bytes` without the fast path: every byte
/// through the state machine. The reference the fast path is tested (and
/// fuzzed) against; not for use.
#[doc(hidden)]
pub fn split_all_by_bytes(bytes: &[u8]) -> Vec<Item> {
    split_all_by_bytes_cutting_after(bytes, CUT_BYTES as u64)
}

/// [`split_all_by_bytes`] with records cut past `n` bytes (see
/// [`Scanner::cutting_after`]).
#[doc(hidden)]
pub fn split_all_by_bytes_cutting_after(bytes: &[u8], n: u64) -> Vec<Item> {
    let mut items = Vec::new();
    let mut sc = Scanner {
        fast: false,
        ..Default::default()
    }
    .cutting_after(n);
    sc.scan(bytes, 0, bytes.len(), &mut items);
    crate::split::end_input(&mut sc, bytes, 0, &mut items);
    items
}

/// Unterminated brace comments recovered per input; past this, the rest of the
/// input stays in one (quarantined) record.
pub const MAX_RECOVERIES: usize = 64;

/// Called by [`Scanner::end`] with the rest of the input (`bytes[0]` at
/// absolute offset `base`, running to the end of the input): while the input
/// ended inside a brace comment, the last record (which swallowed everything
/// after its `{`) is split again with that brace read as a comment to the end
/// of its line. That record still fails to parse (P003); the records after it
/// are found again.
fn recover_in(bytes: &[u8], base: u64, sc: &mut Scanner, items: &mut Vec<Item>) {
    while let Some(brace) = sc.unterminated_brace() {
        // Each recovery scans the record again: bound the work on hostile input.
        if sc.line_braces.len() >= MAX_RECOVERIES {
            return;
        }
        let Some(&last) = items.last() else { return };
        if last.start < base || (last.end - last.start) as usize > MAX_RECORD_BYTES {
            return;
        }
        items.pop();
        debug_assert!(last.kind == ItemKind::Record && last.start <= brace);
        *sc = sc.resume_at(&last, brace);
        sc.feed(bytes, base, bytes.len(), &mut |it| items.push(it));
        sc.finish(&mut |it| items.push(it));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn spans(input: &str) -> Vec<(ItemKind, &str, u64)> {
        split_all(input.as_bytes(), 0)
            .into_iter()
            .map(|it| (it.kind, &input[it.start as usize..it.end as usize], it.line))
            .collect()
    }

    use ItemKind::{Directive as D, Record as R};

    #[test]
    fn blank_lines_separate_records() {
        let s = "[A \"1\"]\n[B \"2\"]\n\n  \t\n[C \"3\"]\r\n\r\n[D \"4\"]";
        assert_eq!(
            spans(s),
            [
                (R, "[A \"1\"]\n[B \"2\"]", 1),
                (R, "[C \"3\"]", 5),
                (R, "[D \"4\"]", 7)
            ]
        );
    }

    #[test]
    fn headers_are_directives() {
        let s = "% PPN 1.0\n% EXPORT\n%\n[Site \"x\"]\n\n% ID abc\n[Site \"y\"]\n";
        assert_eq!(
            spans(s),
            [
                (D, "% PPN 1.0", 1),
                (D, "% EXPORT", 2),
                (D, "%", 3),
                (R, "[Site \"x\"]", 4),
                (D, "% ID abc", 6),
                (R, "[Site \"y\"]", 7)
            ]
        );
    }

    #[test]
    fn escape_line_inside_a_record_stays_unless_it_is_a_header() {
        let s = "[A \"1\"]\n% a note\n[B \"2\"]\n% PPN 1.0\n[C \"3\"]";
        assert_eq!(
            spans(s),
            [
                (R, "[A \"1\"]\n% a note\n[B \"2\"]", 1),
                (D, "% PPN 1.0", 4),
                (R, "[C \"3\"]", 5)
            ]
        );
    }

    #[test]
    fn comments_hold_blank_lines_and_strings_hold_braces() {
        let s = "[A \"{\"]\n{ one\n\n two }\n[B \"}\"] ; {\n\n[C \"x\"]";
        assert_eq!(
            spans(s),
            [
                (R, "[A \"{\"]\n{ one\n\n two }\n[B \"}\"] ; {", 1),
                (R, "[C \"x\"]", 7)
            ]
        );
    }

    #[test]
    fn escaped_quotes_do_not_end_strings() {
        let s = "[A \"a\\\"{\\\\\"]\n\n[B \"\"]";
        assert_eq!(spans(s), [(R, "[A \"a\\\"{\\\\\"]", 1), (R, "[B \"\"]", 3)]);
    }

    #[test]
    fn unterminated_string_ends_at_line_end() {
        let s = "[A \"open {\n\n[B \"2\"]";
        assert_eq!(spans(s), [(R, "[A \"open {", 1), (R, "[B \"2\"]", 3)]);
    }

    #[test]
    fn several_unterminated_comments_in_one_record() {
        let s = "[A \"1\"] {one\n[B \"2\"] {two\n\n[C \"3\"]";
        assert_eq!(
            spans(s),
            [
                (R, "[A \"1\"] {one\n[B \"2\"] {two", 1),
                (R, "[C \"3\"]", 4)
            ]
        );
    }

    #[test]
    fn unterminated_comment_ends_at_its_line_and_the_rest_splits() {
        let s = "[A \"1\"] {never closed\n\n[B \"2\"]\n\n[C \"{\"] {again\n[D \"4\"]\n\n[E \"5\"]";
        assert_eq!(
            spans(s),
            [
                (R, "[A \"1\"] {never closed", 1),
                (R, "[B \"2\"]", 3),
                (R, "[C \"{\"] {again\n[D \"4\"]", 5),
                (R, "[E \"5\"]", 8)
            ]
        );
    }

    #[test]
    fn a_file_header_after_a_line_without_its_end_starts_a_block() {
        // `cat a.ppn b.ppn` where a's last line has no line end: b's first
        // header line follows it on the same line, and ends a's record.
        let s =
            "[A \"1\"]\nCA CJ (W4)% PPN 1.0\n% ID b\n\n[B \"2\"]% EXPORT x\n  % ID c\n[C \"3\"]";
        assert_eq!(
            spans(s),
            [
                (R, "[A \"1\"]\nCA CJ (W4)", 1),
                (D, "% PPN 1.0", 2),
                (D, "% ID b", 3),
                (R, "[B \"2\"]", 5),
                (D, "% EXPORT x", 5),
                (D, "% ID c", 6),
                (R, "[C \"3\"]", 7)
            ]
        );
        // Any other `%`, and one in a string or a comment, is record text.
        let s = "[A \"50% PPN\"] 50% {a % PPN} ; % ID\n%PPNX y\n[B \"2\"] %\n\n% ID\n[C \"3\"] 1%";
        assert_eq!(
            spans(s),
            [
                (
                    R,
                    "[A \"50% PPN\"] 50% {a % PPN} ; % ID\n%PPNX y\n[B \"2\"] %",
                    1
                ),
                (D, "% ID", 5),
                (R, "[C \"3\"] 1%", 6)
            ]
        );
    }

    #[test]
    fn a_file_header_ends_a_comment_left_open() {
        // Files joined into one: the first ends inside a comment, which a `}`
        // of the second would close. The header ends the record, and the
        // record is split again with its `{` read to the end of the line.
        let s = "[A \"1\"] {open\n\n[B \"2\"]\n\n% PPN 1.0\n[C \"3\"] {c}\n";
        assert_eq!(
            spans(s),
            [
                (R, "[A \"1\"] {open", 1),
                (R, "[B \"2\"]", 3),
                (D, "% PPN 1.0", 5),
                (R, "[C \"3\"] {c}", 6)
            ]
        );
        // A `%` line that is not a header is comment text, even when a `}`
        // on it closes the comment; a header's line may hold a `}`.
        let s = "[A \"1\"] {x\n% note } [B \"2\"]\n\n{y\n% ID }z\n[C \"3\"]";
        assert_eq!(
            spans(s),
            [
                (R, "[A \"1\"] {x\n% note } [B \"2\"]", 1),
                (R, "{y", 4),
                (D, "% ID }z", 5),
                (R, "[C \"3\"]", 6)
            ]
        );
        // At the end of the input, and in pieces of every size.
        let s = "{x\n\n[B \"2\"]\n%  EXPORT";
        assert_eq!(
            spans(s),
            [(R, "{x", 1), (R, "[B \"2\"]", 3), (D, "%  EXPORT", 4)]
        );
        let whole = split_all(s.as_bytes(), 0);
        for cut in 0..=s.len() {
            assert_eq!(pieces(s.as_bytes(), &[cut]), whole, "cut {cut}");
            assert_eq!(pieces(s.as_bytes(), &[cut, cut + 1, cut + 3]), whole);
        }
    }

    #[test]
    fn a_bom_at_the_start_of_a_line_is_skipped() {
        // `cat` of files that begin with a byte-order mark: the header after
        // it is still a header (it ends the record before it), and records
        // start after it; a line of a BOM alone is blank; the bytes of a BOM
        // cut short are text.
        let bytes: &[u8] =
            b"[A \"1\"]\n\xEF\xBB\xBF% PPN 1.0\n\xEF\xBB\xBF[B \"2\"]\n\xEF\xBB\xBF\n\
            [C \"3\"] {x\n\xEF\xBB\xBF% ID 4\n\xEF\xBB\xBF\xEF\xBB\xBF%\n\xEF\xBB[D]\n\xEF";
        let got: Vec<(ItemKind, &[u8], u64)> = split_all(bytes, 0)
            .into_iter()
            .map(|it| (it.kind, &bytes[it.start as usize..it.end as usize], it.line))
            .collect();
        let want: [(ItemKind, &[u8], u64); 7] = [
            (R, b"[A \"1\"]", 1),
            (D, b"% PPN 1.0", 2),
            (R, b"[B \"2\"]", 3),
            (R, b"[C \"3\"] {x", 5),
            (D, b"% ID 4", 6),
            (D, b"%", 7),
            (R, b"\xEF\xBB[D]\n\xEF", 8),
        ];
        assert_eq!(got, want);
        assert_eq!(split_all_by_bytes(bytes), split_all(bytes, 0));
        for cut in 0..=bytes.len() {
            assert_eq!(pieces(bytes, &[cut]), split_all(bytes, 0), "cut {cut}");
        }
    }

    #[test]
    fn percent_is_an_escape_only_in_the_first_column() {
        // Elsewhere it is record text, unless it starts a file header (see
        // `a_file_header_after_a_line_without_its_end_starts_a_block`).
        let s = " % x\n\n{\n% y }\n";
        assert_eq!(spans(s), [(R, " % x", 1), (R, "{\n% y }", 3)]);
    }

    #[test]
    fn fixtures_split_the_same_with_and_without_the_fast_path() {
        for f in std::fs::read_dir("testdata/pinochle").unwrap() {
            let p = f.unwrap().path();
            if p.extension().is_some_and(|e| e == "ppn") {
                let b = std::fs::read(&p).unwrap();
                assert_eq!(split_all(&b, 0), split_all_by_bytes(&b), "{}", p.display());
            }
        }
    }

    #[test]
    fn generated_archives_split_the_same_with_and_without_the_fast_path() {
        use crate::notation::pinochle_ppn::generate::{GenOptions, generate, write::Style};
        for (seed, crlf) in [(1, false), (2, true)] {
            let opts = GenOptions {
                hands: 300,
                seed,
                crlf,
                terminated: 0.1,
                malformed: 0.1,
                style: Style {
                    import: seed == 2,
                    comments: 0.3,
                    chat: 0.3,
                    inherit: true,
                    points_alone: seed == 3,
                },
                ..Default::default()
            };
            let mut b = Vec::new();
            generate(&opts, &mut b).unwrap();
            let whole = split_all(&b, 0);
            assert!(whole.len() >= 300, "{} items", whole.len());
            assert_eq!(whole, split_all_by_bytes(&b), "seed {seed}");
            assert_eq!(pieces(&b, &[1000, 1001, 5000, 77777]), whole, "seed {seed}");
        }
    }

    #[test]
    fn empty_and_blank_inputs_have_no_items() {
        assert!(spans("").is_empty());
        assert!(spans("\n\n  \r\n\t").is_empty());
    }

    fn pieces(bytes: &[u8], cuts: &[usize]) -> Vec<Item> {
        pieces_cutting_after(bytes, cuts, CUT_BYTES as u64)
    }

    fn pieces_cutting_after(bytes: &[u8], cuts: &[usize], n: u64) -> Vec<Item> {
        let mut items = Vec::new();
        let mut sc = Scanner::default().cutting_after(n);
        let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
        cuts.sort();
        for c in cuts {
            sc.scan(bytes, 0, c, &mut items);
        }
        sc.scan(bytes, 0, bytes.len(), &mut items);
        crate::split::end_input(&mut sc, bytes, 0, &mut items);
        items
    }

    fn alphabet() -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec(
            prop::sample::select(
                b"[]{}\";%\\ \t\r\n\x0b\x0c\x1aab#@PPN EXPORT\xEF\xBB\xBF".to_vec(),
            ),
            0..200,
        )
    }

    #[test]
    fn long_records_are_cut_before_a_line_that_starts_a_hand() {
        // Records past 10 bytes. The first's leading tags are A and B (the
        // tokens `x y` are B's): A after a line of tokens starts a hand.
        // B does after `z`, the second's tokens; after a comment line
        // nothing does, after a tag line only the record's first tag (B in
        // the third). A record after a blank line is not joined.
        let s = "[A \"1\"]\n[B \"2\"]\nx y\n[A \"3\"]\n[B \"4\"]\nz\n[B \"5\"]\nw\n{c}\n\
                 [A \"6\"]\n[A \"7\"]\n  [ B \"8\"]\n\n[A \"9\"]\n";
        let got: Vec<(&str, u64, bool)> = pieces_cutting_after(s.as_bytes(), &[], 10)
            .into_iter()
            .map(|it| (&s[it.start as usize..it.end as usize], it.line, it.joined))
            .collect();
        assert_eq!(
            got,
            [
                ("[A \"1\"]\n[B \"2\"]\nx y", 1, false),
                ("[A \"3\"]\n[B \"4\"]\nz", 4, true),
                ("[B \"5\"]\nw\n{c}\n[A \"6\"]\n[A \"7\"]", 7, true),
                ("  [ B \"8\"]", 12, true),
                ("[A \"9\"]", 14, false),
            ]
        );
        let whole = pieces_cutting_after(s.as_bytes(), &[], 10);
        assert_eq!(split_all_by_bytes_cutting_after(s.as_bytes(), 10), whole);
        for cut in 0..=s.len() {
            let p = pieces_cutting_after(s.as_bytes(), &[cut, cut + 2], 10);
            assert_eq!(p, whole, "cut {cut}");
        }
        // Not a name that only starts as one, nor a tag after a segmental
        // prefix on the line above; nor in records that start otherwise.
        for s in [
            "[A \"1\"]\nx\n[AB \"2\"]\n",
            "[A \"1\"]\nx @1=\n[A \"2\"]\n",
            "x\n[A \"1\"]\nx\n[A \"2\"]\n",
            "@1=[A \"1\"]\nx\n[A \"2\"]\n",
        ] {
            assert_eq!(pieces_cutting_after(s.as_bytes(), &[], 4).len(), 1, "{s}");
        }
        // What was read of a line to tell is the record's, to its end.
        let s = "[A \"1\"]\nx\n [AB\n";
        let items = pieces_cutting_after(s.as_bytes(), &[], 4);
        assert_eq!((items.len(), items[0].end), (1, s.len() as u64 - 1));
    }

    #[test]
    fn records_over_the_limit_are_not_cut() {
        // The limit a streamed input keeps of a record: past it a record
        // is one, to be quarantined, mapped or streamed.
        let mut s = b"[A \"1\"]\nx\n".to_vec();
        s.resize(MAX_RECORD_BYTES + 1, b'x');
        s.extend(b"\n[A \"2\"]\n");
        assert_eq!(split_all(&s, 0).len(), 1);
        s.truncate(MAX_RECORD_BYTES - 12);
        s.extend(b"\n[A \"2\"]\n");
        assert_eq!(split_all(&s, 0).len(), 2);
    }

    /// Lines of a few kinds, for records that are cut.
    fn lines() -> impl Strategy<Value = Vec<u8>> {
        let line = prop::sample::select(vec![
            &b"[A \"1\"]\n"[..],
            b"[B \"2\"]\n",
            b" \t[ A \"3\"] [B \"4\"]\n",
            b"x y\n",
            b"{c\n",
            b"}\n",
            b"{c}\n",
            b";c\n",
            b"@1=\n",
            b"\n",
            b"% ID x\n",
            b"%\n",
            b"y% ID z\n",
            b"\xEF\xBB\xBF",
            b"\"",
            b"[",
            b"A",
        ]);
        prop::collection::vec(line, 0..60).prop_map(|v| v.concat())
    }

    proptest! {
        #[test]
        fn records_are_cut_the_same_in_any_pieces(bytes in lines(), n in 0u64..40, cuts in prop::collection::vec(0usize..600, 0..12)) {
            prop_assert_eq!(
                pieces_cutting_after(&bytes, &cuts, n),
                split_all_by_bytes_cutting_after(&bytes, n)
            );
        }

        #[test]
        fn fast_path_agrees_with_the_byte_machine(bytes in alphabet(), cuts in prop::collection::vec(0usize..400, 0..12)) {
            prop_assert_eq!(pieces(&bytes, &cuts), split_all_by_bytes(&bytes));
        }

        #[test]
        fn any_chunking_gives_the_same_items(bytes in alphabet(), cuts in prop::collection::vec(0usize..400, 0..12)) {
            prop_assert_eq!(pieces(&bytes, &cuts), split_all(&bytes, 0));
        }

        #[test]
        fn items_are_ordered_and_disjoint(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
            let items = split_all(&bytes, 0);
            let mut last = 0;
            for it in &items {
                prop_assert!(it.start >= last && it.end > it.start && it.end as usize <= bytes.len());
                last = it.end;
            }
            // What lies between items is white space only.
            let mut covered = vec![false; bytes.len()];
            for it in &items {
                for c in &mut covered[it.start as usize..it.end as usize] { *c = true; }
            }
            for (b, c) in bytes.iter().zip(covered) {
                prop_assert!(c || is_ws(*b), "byte {:?} left out", *b as char);
            }
        }
    }
}

#[cfg(test)]
mod ctrl_z {
    /// A line of Ctrl-Z (white space) before an unclosed brace made the
    /// vector scan take it for content: a record that ended before it
    /// started (found by the bridge_export fuzz target).
    #[test]
    fn a_ctrl_z_line_is_blank_in_the_fast_path_too() {
        let mut b = b"\n\x1a\n\n}{o a comment never closed".to_vec();
        b.extend([6u8; 40]);
        let fast = super::split_all(&b, 0);
        assert_eq!(fast, super::split_all_by_bytes(&b));
        assert!(fast.iter().all(|i| i.end > i.start), "{fast:?}");
    }
}
