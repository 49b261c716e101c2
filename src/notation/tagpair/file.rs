//! What every notation of the tag-pair family does the same way between its
//! records: the file header lines (`% PBN 2.1`, `% EXPORT`, `% ID ...`),
//! the state carried from record to record in input order (headers,
//! inheritance, games found inside records), the parse of a group of
//! records, and the loop that turns a group's records into rows and
//! `errors` rows.

use super::inherit;
use super::lex::{self, Dialect, Lists};
use super::record::{self, Group, TagRecord};
use crate::columns::errors_table::{ErrorsBuilder, RecordRef};
use crate::error::{Diag, Diags};
use crate::notation::FileInfo;
use crate::split::Item;

/// What the file headers say at a given record.
#[derive(Clone, Copy, Debug, Default)]
pub struct Header<'a> {
    /// `2.1` of `% PBN 2.1`.
    pub version: Option<&'a [u8]>,
    /// `EXPORT` or `IMPORT`.
    pub format: Option<&'a [u8]>,
    /// The value of `% ID ...`.
    pub id: Option<&'a [u8]>,
    /// The header of another notation of the family (`PBN 2.1` in a
    /// pinochle file): the block's records are quarantined unparsed, not
    /// read as this notation's.
    pub foreign: Option<&'a [u8]>,
    /// Which header block of the file the record is in (0 for the first;
    /// one more for each header after records). Inheritance and checks
    /// against the record before stop at a new block.
    pub block: u32,
}

impl record::Context for Header<'_> {
    fn block(&self) -> u32 {
        self.block
    }
}

/// Per-file state carried from record to record.
#[derive(Default)]
pub struct FileState<'a> {
    pub ctx: Header<'a>,
    pub inherit: inherit::Resolver<'a>,
    /// A record came after the last header line: the next header line
    /// starts a new header, which says all there is (what it leaves out is
    /// unknown, not the header before's).
    pub after_record: bool,
    /// Games found so far in records that held more than one (see
    /// [`TagRecord::follows`]): the record indexes after them are this much
    /// higher than the splitter's.
    pub extra_records: u64,
}

/// A [`FileState`] that owns its bytes.
#[derive(Default)]
pub struct Carry {
    version: Option<Vec<u8>>,
    format: Option<Vec<u8>>,
    id: Option<Vec<u8>>,
    foreign: Option<Vec<u8>>,
    block: u32,
    after_record: bool,
    extra_records: u64,
    inherit: inherit::Saved,
}

/// Copies what `state` borrows.
pub fn save(state: &FileState<'_>) -> Carry {
    let own = |v: Option<&[u8]>| v.map(<[u8]>::to_vec);
    Carry {
        version: own(state.ctx.version),
        format: own(state.ctx.format),
        id: own(state.ctx.id),
        foreign: own(state.ctx.foreign),
        block: state.ctx.block,
        after_record: state.after_record,
        extra_records: state.extra_records,
        inherit: state.inherit.save(),
    }
}

/// A state borrowing from a saved one.
pub fn restore(carry: &Carry) -> FileState<'_> {
    FileState {
        ctx: Header {
            version: carry.version.as_deref(),
            format: carry.format.as_deref(),
            id: carry.id.as_deref(),
            foreign: carry.foreign.as_deref(),
            block: carry.block,
        },
        inherit: inherit::Resolver::restore(&carry.inherit),
        after_record: carry.after_record,
        extra_records: carry.extra_records,
    }
}

/// A header line between records: `% <own> <version>` (the notation's own
/// word, `PPN` or `PBN`), `% <foreign> ...` (another notation's header),
/// `% EXPORT`, `% IMPORT`, `% ID <value>`; other `%` lines say nothing.
/// After records, a header line starts a new header block.
pub fn directive<'a>(state: &mut FileState<'a>, line: &'a [u8], own: &[u8], foreign: &[&[u8]]) {
    let rest = line.strip_prefix(b"%").unwrap_or(line).trim_ascii();
    let word_end = rest
        .iter()
        .position(|b| b.is_ascii_whitespace())
        .unwrap_or(rest.len());
    let (word, value) = (&rest[..word_end], rest[word_end..].trim_ascii());
    let is_own = word == own;
    let is_foreign = foreign.contains(&word);
    let is_header = is_own || is_foreign || matches!(word, b"EXPORT" | b"IMPORT" | b"ID");
    if state.after_record && is_header {
        // A new header (files joined into one): the ID of the file before
        // is not this one's, nor are its records the records before this
        // block's first.
        state.ctx = Header {
            block: state.ctx.block.wrapping_add(1),
            ..Header::default()
        };
        state.after_record = false;
    }
    if is_own {
        state.ctx.version = Some(value);
        state.ctx.foreign = None;
    } else if is_foreign {
        state.ctx.foreign = Some(rest);
    } else if matches!(word, b"EXPORT" | b"IMPORT") {
        state.ctx.format = Some(word);
    } else if word == b"ID" {
        state.ctx.id = Some(value);
    }
}

/// The header at the next record (and that a record came).
pub fn record_context<'a>(state: &mut FileState<'a>) -> Header<'a> {
    state.after_record = true;
    state.ctx
}

/// Sequential, in input order: record indexes past records that held
/// several games, then inheritance.
pub fn resolve<'a>(d: &Dialect, state: &mut FileState<'a>, groups: &mut [Group<'a, Header<'a>>]) {
    record::renumber(&mut state.extra_records, groups);
    state.inherit.resolve(d, groups);
}

/// Whether a record holds comments and nothing else (a block that is not a
/// record in any notation of the family).
pub fn comments_only(d: &'static Dialect, bytes: &[u8]) -> bool {
    let mut lists = Lists::default();
    let l = lex::lex(d, bytes, &mut lists);
    l.error.is_none() && l.tags.is_empty()
}

/// Records larger than this are quarantined without being parsed.
pub use super::split::MAX_RECORD_BYTES;

/// Parallel: lexes the records of one group. A record over
/// [`MAX_RECORD_BYTES`] (or cut short in a stream) is quarantined unlexed;
/// so is one under another notation's header (`foreign` gives its error
/// from the header), unless it holds comments alone.
pub fn parse<'a>(
    d: &'static Dialect,
    input: &'a [u8],
    base: u64,
    records: &[(Item, u64, Header<'a>)],
    foreign: fn(&[u8]) -> Diag,
) -> Group<'a, Header<'a>> {
    let mut g = Group::default();
    g.records.reserve(records.len());
    // Room for the group's tags and tokens up front (a record of about 870
    // bytes has some 20 tags and 115 tokens): growing these vectors
    // copied them over and over.
    // (Records cut short in a stream count only the bytes held.)
    let held = (records.iter().map(|r| r.0.end - r.0.start).sum::<u64>() as usize).min(input.len());
    g.lists.tokens.reserve(held / 6);
    g.lists.tags.reserve(held / 32);
    for &(item, index, ctx) in records {
        let (bytes, whole) = item.bytes_in(input, base);
        let len = item.end - item.start;
        // Records quarantined without being parsed.
        let unparsed = if len as usize > MAX_RECORD_BYTES || !whole {
            // Bounded memory: a record this large is not lexed at all.
            Some(Diag::error(
                0,
                d.codes.too_large,
                format!(
                    "record of {len} bytes is over the limit of {MAX_RECORD_BYTES} bytes; not converted (raw text truncated)"
                ),
            ))
        } else {
            // Another notation's record (not a block of comments alone).
            ctx.foreign
                .filter(|_| !comments_only(d, bytes))
                .map(foreign)
        };
        if let Some(e) = unparsed {
            let (lexed, n) = record::unlexed(&g.lists, e);
            g.records
                .push(TagRecord::new(bytes, item, index, ctx, lexed, n));
            continue;
        }
        record::parse_record(d, &mut g, bytes, item, index, ctx);
    }
    g
}

/// Finds the records of `bytes` and tokenizes each (tag pairs, section
/// tokens, comments), building nothing: the part of parsing that compares
/// with a PGN tokenizer such as pgn-reader's. Returns the records (blocks
/// of comments alone left out), and the tag pairs and section tokens
/// found.
pub fn tokenize(d: &'static Dialect, bytes: &[u8]) -> (u64, u64) {
    let mut lists = Lists::default();
    let (mut records, mut tokens) = (0, 0);
    for item in super::split::split_all(bytes, 0) {
        if item.kind != super::split::ItemKind::Record {
            continue;
        }
        let mut r = &bytes[item.start as usize..item.end as usize];
        loop {
            let l = lex::lex(d, r, &mut lists);
            // A block of comments alone is not a record (as in `convert`).
            if !l.tags.is_empty() || l.error.is_some() {
                records += 1;
            }
            tokens += (lists.tags.len() + lists.tokens.len()) as u64;
            lists.tags.clear();
            lists.tokens.clear();
            lists.comments.clear();
            // The next game of a record without blank lines between games.
            match l.next {
                Some(k) => r = &r[k..],
                None => break,
            }
        }
    }
    (records, tokens)
}

/// A record of a group as [`each_record`] gives it to the notation.
pub struct Each<'g, 'a, C> {
    /// Its place in the group.
    pub index: usize,
    pub record: &'g TagRecord<'a, C>,
    /// Its key, when it is a converted record (not quarantined, not a block
    /// of comments alone).
    pub id: Option<i64>,
}

/// Builds the rows of every record of `g`: `f` writes a converted record's
/// rows (and gets every record, to keep what runs from one to the next),
/// then its diagnostics become `errors` rows, located in its text. The
/// record's lexer warnings, then the inheritance pass's, come first, its
/// error (if quarantined) next.
pub fn each_record<'a, C>(
    d: &Dialect,
    file: &FileInfo,
    g: &Group<'a, C>,
    label: (&'static str, &'static str),
    errors: &mut ErrorsBuilder,
    mut f: impl FnMut(Each<'_, 'a, C>, &mut Diags),
) {
    let mut late = g.late.iter().peekable();
    for (hi, h) in g.records.iter().enumerate() {
        let mut diags = Diags::default();
        for w in &h.lexed.warnings {
            diags.push(w.clone());
        }
        while let Some((_, w)) = late.next_if(|(i, _)| *i as usize == hi) {
            diags.push(w.clone());
        }
        let quarantined = h.lexed.error.is_some();
        let comment_only = h.lexed.tags.is_empty() && h.extra.is_empty();
        let id = (!quarantined && !comment_only)
            .then(|| crate::notation::record_id(file.index, h.index));
        if let Some(e) = &h.lexed.error {
            diags.push(e.clone());
        }
        f(
            Each {
                index: hi,
                record: h,
                id,
            },
            &mut diags,
        );
        let diags = diags.finish_with(d.codes.unlisted);
        let rec = RecordRef {
            file: &file.name,
            bytes: h.bytes,
            byte: h.byte,
            line: h.line,
            index: h.index,
            notation: Some(label),
            record_id: id,
        };
        errors.push_record(&rec, &diags, |_| None);
    }
}
