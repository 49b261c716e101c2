//! Record boundaries, whatever the notation: the spans a splitter finds
//! ([`Item`]), the [`Splitter`] every notation's splitter is, and what the
//! pipeline does to an input's bytes before splitting them (a byte-order mark
//! skipped, old-Mac line ends read as line feeds).

use memchr::memchr;

/// A notation's record splitter: a resumable state machine fed an input in
/// pieces of any size, which finds the same items as for the whole input at
/// once.
pub trait Splitter: Send {
    /// Finds the items in `bytes[..to]` not yet scanned; `bytes[0]` is at
    /// absolute offset `base` and holds every byte from [`Splitter::open_start`]
    /// on. Complete items are appended to `items`.
    fn scan(&mut self, bytes: &[u8], base: u64, to: usize, items: &mut Vec<Item>);

    /// The input has ended (`bytes` as for `scan`, running to its end): the
    /// open record, if any, is appended.
    fn end(&mut self, bytes: &[u8], base: u64, items: &mut Vec<Item>);

    /// The first byte the splitter still needs (the open record's start, or
    /// the next byte to scan).
    fn open_start(&self) -> u64;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// A hand record: from the start of its first line to its last non-blank byte.
    Record,
    /// A `%` escape line outside any record.
    Directive,
}

/// A span of the input. `start..end` are absolute byte offsets; `line` is the
/// 1-based line of `start`, which is always the start of a line (after a
/// byte-order mark the line starts with, if any).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Item {
    pub kind: ItemKind,
    pub start: u64,
    pub end: u64,
    pub line: u64,
    /// A record that follows the one before without a blank line between
    /// them: a long record cut before a line that starts its next hand (the
    /// tag-pair splitter's `CUT_BYTES`).
    pub joined: bool,
    /// A record still open when its input ended: no blank line (nor the
    /// start of another record) follows it, so the input may have been cut
    /// off inside it. Set by [`end_input`]; a notation warns when such a
    /// record is also incomplete.
    pub at_end: bool,
}

impl Item {
    /// Its bytes in `input`, whose first byte is at absolute offset `base`,
    /// and whether they are all there (a record too large to keep whole
    /// has only its start in a streamed window).
    pub fn bytes_in<'a>(&self, input: &'a [u8], base: u64) -> (&'a [u8], bool) {
        let start = (self.start - base) as usize;
        let end = (self.end - base) as usize;
        (&input[start..end.min(input.len())], end <= input.len())
    }
}

/// Ends a splitter's input ([`Splitter::end`]) and marks the record it
/// closes, if any, as [`Item::at_end`].
pub fn end_input<S: Splitter + ?Sized>(s: &mut S, bytes: &[u8], base: u64, items: &mut Vec<Item>) {
    let from = items.len();
    s.end(bytes, base, items);
    // A splitter may take back its last record and split it again.
    let from = from.min(items.len());
    if let Some(it) = items[from..]
        .iter_mut()
        .rev()
        .find(|it| it.kind == ItemKind::Record)
    {
        it.at_end = true;
    }
}

/// The UTF-8 byte-order mark. Skipped at the start of an input and at the
/// start of any line (files joined into one with `cat` keep theirs), so
/// that `%` after it is still in the first column.
pub const BOM: &[u8; 3] = b"\xEF\xBB\xBF";

/// White space as the splitters (and the lexers) see it (ASCII space, tab,
/// CR, LF, VT, FF, and SUB: the Ctrl-Z that ends old DOS files).
#[inline]
pub const fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c | 0x1a)
}

/// Bytes looked at to decide whether an input ends its lines with lone CRs.
pub const CR_SNIFF_BYTES: usize = 4 << 20;

/// Old Mac files end lines with a lone CR: an input is read that way when its
/// first [`CR_SNIFF_BYTES`] (its `head`) hold CRs but no LF. (A streamed input
/// cannot look further ahead, so mapped files are judged the same way.)
pub fn is_cr_only(head: &[u8]) -> bool {
    let head = &head[..head.len().min(CR_SNIFF_BYTES)];
    memchr(b'\n', head).is_none() && memchr(b'\r', head).is_some()
}

/// In an input judged [`is_cr_only`], turns every CR not followed by an LF into
/// an LF, in place, from `from` on. A CR in the last byte is left alone unless
/// `at_end` (the next piece may start with its LF); returns how many bytes are
/// final.
pub fn lone_cr_to_lf(buf: &mut [u8], from: usize, at_end: bool) -> usize {
    let n = buf.len();
    let mut i = from;
    while let Some(j) = memchr(b'\r', &buf[i..]) {
        let p = i + j;
        match buf.get(p + 1) {
            Some(b'\n') => {}
            Some(_) => buf[p] = b'\n',
            None if at_end => buf[p] = b'\n',
            None => return p,
        }
        i = p + 1;
    }
    n
}

/// A whole input with its lone CRs read as LFs, when it is [`is_cr_only`];
/// `None` when nothing changes.
pub fn lone_cr_as_lf(bytes: &[u8]) -> Option<Vec<u8>> {
    is_cr_only(bytes).then(|| {
        let mut v = bytes.to_vec();
        lone_cr_to_lf(&mut v, 0, true);
        v
    })
}

/// Records longer than this are not parsed (notations quarantine them), and a
/// reader that streams its input keeps only their first bytes. (The tag-pair
/// splitter recovers an unterminated brace comment only when the record it
/// swallowed is within this size, so that a mapped and a streamed input split
/// the same way.)
pub const MAX_RECORD_BYTES: usize = 64 << 20;
