//! Flat string columns (seats, calls, players, results...) encoded into
//! Parquet pages here.
//!
//! The Arrow writer spends about 200 instructions a value on these: each
//! value hashed into its dictionary interner (about 260,000 values for 3,000
//! hands), levels encoded one by one, statistics compared value by value.
//! Here a value is looked up in an open-addressing table keyed by a hash of
//! at most a few words (most values are one to four bytes, and a repeat of
//! the previous value skips the lookup), definition levels are kept as a
//! bitmap and written as one RLE run when a page has no nulls (else
//! bit-packed as they are), and a page's minimum and maximum are taken over
//! the dictionary entries it used, not over every value.
//!
//! What is written is what the Arrow writer writes with the same settings:
//! dictionary pages (RLE_DICTIONARY data pages, PLAIN dictionary page) until
//! the dictionary reaches its size limit, then PLAIN pages for the rest of
//! the chunk; chunk statistics (min, max, null count; truncated as the Arrow
//! writer truncates them), a column index (per page min, max, null count,
//! null pages, boundary order, definition level histograms), level
//! histograms and unencoded sizes in the chunk metadata, and an offset
//! index. Pages are v1 and cut at row boundaries by the same limits.

use arrow_array::Array;
use arrow_array::cast::AsArray;
use arrow_array::types::{Decimal128Type, Int32Type, Int64Type};
use arrow_schema::{DataType, Field};
use parquet::basic::Type;
use parquet::column::writer::ColumnCloseResult;
use parquet::data_type::ByteArray;
use parquet::errors::{ParquetError, Result};
use parquet::file::metadata::LevelHistogram;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::statistics::{Statistics, ValueStatistics};
use parquet::schema::types::ColumnDescPtr;

use super::chunk::{Chunk, ChunkBytes, PageIndex, Pages, plain_settings};
use super::dict::{StrDict, int32};
use super::encode::{bit_packed, bit_width, end_levels, rle_run, start_levels};

/// An integer column's chunk statistics, from the little-endian bytes of
/// its minimum and maximum read by `$read`.
macro_rules! int_stats {
    ($min:expr, $max:expr, $nulls:expr, $read:expr) => {
        ValueStatistics::new(
            $min.as_deref().map($read),
            $max.as_deref().map($read),
            None,
            $nulls,
            false,
        )
        .with_backwards_compatible_min_max(true)
    };
}

/// Writes one column chunk at a time of a flat (not nested) string column.
pub struct FlatPages {
    kind: Kind,
    chunk: Chunk,
    nullable: bool,
    statistics: bool,
    page_bytes: usize,
    page_rows: usize,
    dict_limit: usize,
    index_truncate: Option<usize>,
    stats_truncate: Option<usize>,
    /// The chunk's dictionary while its pages use one.
    dict: Option<StrDict>,
    dict_on: bool,
    page: Page,
    chunk_stats: ChunkStats,
    /// Scratch: a page's levels and values, and bits being packed.
    buf: Vec<u8>,
    scratch: Vec<u8>,
}

/// The page being filled.
#[derive(Default)]
struct Page {
    rows: usize,
    nulls: usize,
    /// Bit `i` set if row `i` has a value (nullable columns only).
    valid: Vec<u64>,
    /// Dictionary indices of the values, while the dictionary is on.
    indices: Vec<u32>,
    /// PLAIN-encoded values, once it is off.
    plain: Vec<u8>,
    /// The values' length in bytes.
    unencoded: i64,
    /// The dictionary entries used by this page (statistics only).
    used: Vec<u32>,
    /// Where the smallest and largest value of a PLAIN page are in `plain`
    /// (statistics only).
    min: Option<(usize, usize)>,
    max: Option<(usize, usize)>,
}

/// Rows between limit checks.
const CHECK_ROWS: usize = 128;

/// The columns written here: strings, and 32-bit integers (stored as their
/// four little-endian bytes, which the dictionary takes as it takes short
/// strings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Utf8,
    Int32,
    /// 64-bit integers, and decimals stored as them (precision 10 to 18):
    /// their eight little-endian bytes.
    Int64,
}

impl Kind {
    /// `a < b` in the column's sort order (bytes unsigned; integers signed).
    #[inline]
    fn less(self, a: &[u8], b: &[u8]) -> bool {
        match self {
            Kind::Utf8 => a < b,
            Kind::Int32 => int32(a) < int32(b),
            Kind::Int64 => int64(a) < int64(b),
        }
    }

    /// The bytes of an integer value.
    fn width(self) -> usize {
        match self {
            Kind::Int64 => 8,
            _ => 4,
        }
    }
}

/// A 64-bit integer from its eight little-endian bytes.
fn int64(v: &[u8]) -> i64 {
    i64::from_le_bytes(v.try_into().expect("eight bytes"))
}

/// The parts of an array that rows are read from: value `r` is
/// `data[ends[r]..ends[r + 1]]` for strings, `data[4r..4r + 4]` for integers.
#[derive(Clone, Copy)]
struct Rows<'a> {
    ends: &'a [i32],
    data: &'a [u8],
    nulls: Option<&'a arrow_buffer::NullBuffer>,
    kind: Kind,
    /// The bytes of an integer.
    width: usize,
}

impl Rows<'_> {
    /// Where value `r` is in `data`, for strings (`UTF8`, as `kind` says)
    /// or integers.
    #[inline(always)]
    fn span<const UTF8: bool>(&self, r: usize) -> (usize, usize) {
        match UTF8 {
            true => (self.ends[r] as usize, self.ends[r + 1] as usize),
            false => (self.width * r, self.width * r + self.width),
        }
    }
}

/// Appends `n` validity bits to `words` (which hold `at` bits, each word
/// filled from its lowest bit): from `bits` (bytes, and the bit to start at)
/// or, without them, all set. Returns how many of them are set.
pub fn append_bits(
    words: &mut Vec<u64>,
    at: usize,
    bits: Option<(&[u8], usize)>,
    n: usize,
) -> usize {
    let mut pos = at;
    let mut ones = 0;
    let mut put = |w: u64, len: usize| {
        ones += w.count_ones() as usize;
        let (word, bit) = (pos / 64, pos % 64);
        words.resize((pos + len).div_ceil(64), 0);
        words[word] |= w << bit;
        if bit + len > 64 {
            words[word + 1] |= w >> (64 - bit);
        }
        pos += len;
    };
    match bits {
        Some((bytes, offset)) => {
            let chunks = arrow_buffer::bit_chunk_iterator::BitChunks::new(bytes, offset, n);
            for w in chunks.iter() {
                put(w, 64);
            }
            if chunks.remainder_len() > 0 {
                put(chunks.remainder_bits(), chunks.remainder_len());
            }
        }
        None => {
            let (whole, rest) = (n / 64, n % 64);
            for _ in 0..whole {
                put(!0, 64);
            }
            if rest > 0 {
                put((1 << rest) - 1, rest);
            }
        }
    }
    ones
}

impl Page {
    /// The rows `range`: their levels, and their values as dictionary
    /// indices (`dict`, while it is on) or PLAIN. The levels go in whole
    /// words (a nullable column's validity bits copied 64 at a time); the
    /// values in a loop for each case, counts kept in locals, compiled apart
    /// for each kind of column and with or without statistics.
    #[inline]
    fn rows(
        &mut self,
        rows: &Rows,
        range: std::ops::Range<usize>,
        dict: Option<&mut StrDict>,
        nullable: bool,
        statistics: bool,
    ) {
        match (rows.kind, statistics) {
            (Kind::Utf8, true) => self.rows_of::<true, true>(rows, range, dict, nullable),
            (Kind::Utf8, false) => self.rows_of::<true, false>(rows, range, dict, nullable),
            (Kind::Int32 | Kind::Int64, true) => {
                self.rows_of::<false, true>(rows, range, dict, nullable)
            }
            (Kind::Int32 | Kind::Int64, false) => {
                self.rows_of::<false, false>(rows, range, dict, nullable)
            }
        }
    }

    /// [`rows`](Self::rows) for strings (`UTF8`) or integers, with or
    /// without statistics (`STATS`).
    #[inline(never)]
    fn rows_of<const UTF8: bool, const STATS: bool>(
        &mut self,
        rows: &Rows,
        range: std::ops::Range<usize>,
        dict: Option<&mut StrDict>,
        nullable: bool,
    ) {
        let n = range.len();
        // (`write` lets nulls into nullable columns only.)
        if nullable {
            let valid = match rows.nulls {
                Some(nulls) => {
                    let bits = (nulls.validity(), nulls.offset() + range.start);
                    append_bits(&mut self.valid, self.rows, Some(bits), n)
                }
                // (A call of its own: the all-set case then compiles apart.)
                None => append_bits(&mut self.valid, self.rows, None, n),
            };
            self.nulls += n - valid;
        }
        self.rows += n;
        let mut unencoded = 0;
        match (rows.nulls, dict) {
            (None, Some(dict)) => {
                for r in range {
                    unencoded += self.index_value::<UTF8, STATS>(rows, r, dict);
                }
            }
            (Some(nulls), Some(dict)) => {
                for r in range.filter(|&r| nulls.is_valid(r)) {
                    unencoded += self.index_value::<UTF8, STATS>(rows, r, dict);
                }
            }
            (None, None) => {
                for r in range {
                    unencoded += self.plain_row::<UTF8, STATS>(rows, r);
                }
            }
            (Some(nulls), None) => {
                for r in range.filter(|&r| nulls.is_valid(r)) {
                    unencoded += self.plain_row::<UTF8, STATS>(rows, r);
                }
            }
        }
        self.unencoded += unencoded;
    }

    /// Row `r`'s value as a dictionary index; its length.
    #[inline(always)]
    fn index_value<const UTF8: bool, const STATS: bool>(
        &mut self,
        rows: &Rows,
        r: usize,
        dict: &mut StrDict,
    ) -> i64 {
        let (a, b) = rows.span::<UTF8>(r);
        let index = match UTF8 {
            true => dict.index(rows.data, a, b),
            false if rows.width == 4 => dict.index_int(&rows.data[a..b]),
            false => dict.index(rows.data, a, b),
        };
        self.indices.push(index);
        if STATS && dict.page[index as usize] != dict.page_no {
            dict.page[index as usize] = dict.page_no;
            self.used.push(index);
        }
        (b - a) as i64
    }

    /// Row `r`'s value PLAIN-encoded; its length.
    #[inline(always)]
    fn plain_row<const UTF8: bool, const STATS: bool>(&mut self, rows: &Rows, r: usize) -> i64 {
        let (a, b) = rows.span::<UTF8>(r);
        let kind = if UTF8 { Kind::Utf8 } else { rows.kind };
        self.plain_value(&rows.data[a..b], kind, STATS);
        (b - a) as i64
    }

    /// A value PLAIN-encoded; the page's smallest and largest are kept as
    /// where they are in `plain`.
    fn plain_value(&mut self, v: &[u8], kind: Kind, statistics: bool) {
        if kind == Kind::Utf8 {
            self.plain
                .extend_from_slice(&(v.len() as u32).to_le_bytes());
        }
        let at = (self.plain.len(), self.plain.len() + v.len());
        self.plain.extend_from_slice(v);
        if statistics {
            let value = |at: (usize, usize)| &self.plain[at.0..at.1];
            if self.min.is_none_or(|m| kind.less(v, value(m))) {
                self.min = Some(at);
            }
            if self.max.is_none_or(|m| kind.less(value(m), v)) {
                self.max = Some(at);
            }
        }
    }
}

/// What the chunk's statistics and column index need across its pages.
struct ChunkStats {
    min: Option<Vec<u8>>,
    max: Option<Vec<u8>>,
    nulls: u64,
    unencoded: i64,
    /// Definition level histogram (nullable columns).
    defs: [i64; 2],
    /// The column index, kept with each page's untruncated bounds.
    index: PageIndex<Vec<u8>>,
}

impl ChunkStats {
    fn new(kind: Kind) -> ChunkStats {
        ChunkStats {
            min: None,
            max: None,
            nulls: 0,
            unencoded: 0,
            defs: [0; 2],
            index: PageIndex::new(match kind {
                Kind::Utf8 => Type::BYTE_ARRAY,
                Kind::Int32 => Type::INT32,
                Kind::Int64 => Type::INT64,
            }),
        }
    }
}

impl FlatPages {
    /// A writer for the leaf `descr` of `field`, or None unless the field is
    /// a flat string column with settings this module writes: v1 pages,
    /// default encodings (a dictionary or not), page or no statistics,
    /// `plain_settings` and a codec it knows.
    pub fn new(field: &Field, descr: ColumnDescPtr, props: &WriterProperties) -> Option<Self> {
        let path = descr.path();
        let statistics = props.statistics_enabled(path);
        let kind = match (field.data_type(), descr.physical_type()) {
            (DataType::Utf8, Type::BYTE_ARRAY) => Kind::Utf8,
            (DataType::Int32, Type::INT32) => Kind::Int32,
            (DataType::Int64 | DataType::Decimal128(..), Type::INT64) => Kind::Int64,
            _ => return None,
        };
        let writable = descr.max_rep_level() == 0
            && descr.max_def_level() == field.is_nullable() as i16
            && plain_settings(props, path)
            && props.encoding(path).is_none()
            && matches!(
                statistics,
                EnabledStatistics::Page | EnabledStatistics::None
            );
        if !writable {
            return None;
        }
        let dictionary = props.dictionary_enabled(path);
        let offset_index = !props.offset_index_disabled();
        let compression = props.compression(path);
        Some(FlatPages {
            kind,
            chunk: Chunk::new(descr, compression, offset_index, kind == Kind::Utf8)?,
            nullable: field.is_nullable(),
            statistics: statistics == EnabledStatistics::Page,
            page_bytes: props.data_page_size_limit().max(1),
            page_rows: props.data_page_row_count_limit().max(1),
            dict_limit: props.dictionary_page_size_limit(),
            index_truncate: props.column_index_truncate_length(),
            stats_truncate: props.statistics_truncate_length(),
            dict: dictionary.then(StrDict::new),
            dict_on: dictionary,
            page: Page::default(),
            chunk_stats: ChunkStats::new(kind),
            buf: Vec::new(),
            scratch: Vec::new(),
        })
    }

    /// Encoded size of the page so far, roughly.
    fn page_size(&self) -> usize {
        let p = &self.page;
        let width = self
            .dict
            .as_ref()
            .map_or(0, |d| bit_width(d.len().max(1) as u32));
        p.plain.len() + (p.indices.len() * width as usize).div_ceil(8) + p.rows / 8
    }

    fn flush_page(&mut self) -> Result<()> {
        let p = &mut self.page;
        if p.rows == 0 {
            return Ok(());
        }
        let buf = &mut self.buf;
        buf.clear();
        if self.nullable {
            let at = start_levels(buf);
            if p.nulls == 0 || p.nulls == p.rows {
                rle_run(buf, (p.nulls == 0) as u32, p.rows, 1);
            } else {
                let bits = &mut self.scratch;
                bits.clear();
                bits.extend(p.valid.iter().flat_map(|w| w.to_le_bytes()));
                bit_packed(buf, bits, p.rows, 1);
            }
            end_levels(buf, at);
        }
        let dict = self.dict.as_ref().filter(|_| self.dict_on);
        let encoding = StrDict::page_values(dict, buf, &mut self.scratch, &p.indices, &p.plain);
        self.chunk
            .data_page(buf, p.rows, p.rows, encoding, p.unencoded)?;
        if self.statistics {
            self.page_statistics();
        }
        let p = &mut self.page;
        let s = &mut self.chunk_stats;
        s.nulls += p.nulls as u64;
        s.unencoded += p.unencoded;
        p.rows = 0;
        p.nulls = 0;
        p.valid.clear();
        p.indices.clear();
        p.plain.clear();
        p.unencoded = 0;
        p.used.clear();
        p.min = None;
        p.max = None;
        if let Some(dict) = self.dict.as_mut() {
            dict.page_no = dict.page_no.wrapping_add(1);
            if dict.page_no == u32::MAX {
                dict.page.fill(u32::MAX);
                dict.page_no = 0;
            }
        }
        Ok(())
    }

    /// The page's entry in the column index, and its share of the chunk's
    /// statistics, as the Arrow writer makes them.
    fn page_statistics(&mut self) {
        let p = &mut self.page;
        let s = &mut self.chunk_stats;
        if self.nullable {
            let page = [p.nulls as i64, (p.rows - p.nulls) as i64];
            s.defs[0] += page[0];
            s.defs[1] += page[1];
            (s.index.builder())
                .append_histograms(&None, &Some(LevelHistogram::from(page.to_vec())));
        }
        if p.nulls == p.rows {
            (s.index.builder()).append(true, vec![], vec![], p.nulls as i64, None);
            return;
        }
        let (min, max) = match self.dict.as_ref().filter(|_| !p.used.is_empty()) {
            Some(dict) => {
                let kind = self.kind;
                let mut used = p.used.iter().map(|&i| dict.get(i));
                let first = used.next().expect("a page with values uses an entry");
                let (min, max) = used.fold((first, first), |(lo, hi), v| {
                    let lo = if kind.less(v, lo) { v } else { lo };
                    (lo, if kind.less(hi, v) { v } else { hi })
                });
                (min.to_vec(), max.to_vec())
            }
            None => {
                let value = |at: Option<(usize, usize)>| {
                    let (a, b) = at.expect("a page with values has a minimum and a maximum");
                    p.plain[a..b].to_vec()
                };
                (value(p.min), value(p.max))
            }
        };
        let less = |a: &[u8], b: &[u8]| self.kind.less(a, b);
        if s.min.as_ref().is_none_or(|m| less(&min, m)) {
            s.min = Some(min.clone());
        }
        if s.max.as_ref().is_none_or(|m| less(m, &max)) {
            s.max = Some(max.clone());
        }
        // Only strings are truncated (as the Arrow writer truncates only
        // byte arrays).
        let t = self.index_truncate.filter(|_| self.kind == Kind::Utf8);
        let entry = (truncate_min(t, &min).0, truncate_max(t, &max).0);
        let less = |a: &Vec<u8>, b: &Vec<u8>| less(a, b);
        s.index.page((min, max), less, entry, p.nulls as i64);
    }
}

impl Pages for FlatPages {
    /// Appends the rows of string or 32-bit integer arrays (as the column),
    /// the parts in order as one run of rows.
    fn write(&mut self, parts: &[&dyn Array]) -> Result<()> {
        let wrong = || ParquetError::General(format!("expected {:?} values", self.kind));
        // Decimals as the 64-bit integers they are stored as.
        let owned: Vec<Option<Vec<u8>>> = parts
            .iter()
            .map(|array| {
                let d = (self.kind == Kind::Int64)
                    .then(|| array.as_primitive_opt::<Decimal128Type>())??;
                Some(
                    d.values()
                        .iter()
                        .flat_map(|&v| (v as i64).to_le_bytes())
                        .collect(),
                )
            })
            .collect();
        let mut all = Vec::with_capacity(parts.len());
        for (array, owned) in parts.iter().zip(&owned) {
            let (ends, data): (&[i32], &[u8]) = match self.kind {
                Kind::Utf8 => {
                    let s = array.as_string_opt::<i32>().ok_or_else(wrong)?;
                    (s.value_offsets(), s.value_data())
                }
                Kind::Int32 => {
                    let a = array.as_primitive_opt::<Int32Type>().ok_or_else(wrong)?;
                    (&[], a.values().inner().as_slice())
                }
                Kind::Int64 => match owned {
                    Some(bytes) => (&[], bytes.as_slice()),
                    None => {
                        let a = array.as_primitive_opt::<Int64Type>().ok_or_else(wrong)?;
                        (&[], a.values().inner().as_slice())
                    }
                },
            };
            let nulls = array.nulls().filter(|n| n.null_count() > 0);
            if nulls.is_some() && !self.nullable {
                return Err(ParquetError::General(
                    "null values in a column that cannot hold them".into(),
                ));
            }
            let rows = Rows {
                ends,
                data,
                nulls,
                kind: self.kind,
                width: self.kind.width(),
            };
            all.push((rows, array.len()));
        }
        let len: usize = all.iter().map(|(_, n)| n).sum();
        // The part being read and the next row of it.
        let (mut part, mut at) = (0, 0);
        let mut r = 0;
        while r < len {
            // Limits are checked every CHECK_ROWS rows of the whole run,
            // wherever the parts meet (the Arrow writer checks them every
            // 1,024 values).
            let room = (self.page_rows - self.page.rows).min(CHECK_ROWS);
            let mut take = room.min(len - r);
            r += take;
            while take > 0 {
                // (A copy on the stack: its fields then stay in registers.)
                let (rows, n) = all[part];
                let k = take.min(n - at);
                let dict = self.dict.as_mut().filter(|_| self.dict_on);
                (self.page).rows(&rows, at..at + k, dict, self.nullable, self.statistics);
                (at, take) = (at + k, take - k);
                if at == n {
                    (part, at) = (part + 1, 0);
                }
            }
            let dict_full = self.dict_on
                && (self.dict.as_ref())
                    .is_some_and(|d| d.page_bytes(self.kind == Kind::Utf8) >= self.dict_limit);
            if self.page.rows >= self.page_rows || self.page_size() >= self.page_bytes || dict_full
            {
                self.flush_page()?;
                if dict_full {
                    // As the Arrow writer falls back: the rest of the chunk
                    // is PLAIN.
                    self.dict_on = false;
                }
            }
        }
        Ok(())
    }

    /// Bytes this chunk will take, roughly (pages written plus the one being
    /// filled).
    fn estimated_bytes(&self) -> usize {
        self.chunk.bytes_written() + self.page_size()
    }

    /// The chunk written since the last call, as its bytes and the close
    /// result a row group takes (offsets relative to the bytes); the writer
    /// is then ready for the next chunk.
    fn finish_chunk(&mut self) -> Result<(ChunkBytes, ColumnCloseResult)> {
        self.flush_page()?;
        let s = std::mem::replace(&mut self.chunk_stats, ChunkStats::new(self.kind));
        let statistics = self.statistics;
        let column_index = match statistics {
            true => Some(s.index.build()?),
            false => None,
        };
        let kind = self.kind;
        let stats = statistics.then(|| {
            let (t, nulls) = (self.stats_truncate, Some(s.nulls));
            match (kind, &s.min, &s.max) {
                (Kind::Utf8, Some(min), Some(max)) => {
                    let (min, min_cut) = truncate_min(t, min);
                    let (max, max_cut) = truncate_max(t, max);
                    let v = ValueStatistics::new(
                        Some(ByteArray::from(min)),
                        Some(ByteArray::from(max)),
                        None,
                        nulls,
                        false,
                    );
                    Statistics::ByteArray(v.with_min_is_exact(!min_cut).with_max_is_exact(!max_cut))
                }
                (Kind::Utf8, _, _) => Statistics::ByteArray(
                    ValueStatistics::new(None, None, None, nulls, false)
                        .with_backwards_compatible_min_max(false),
                ),
                (Kind::Int32, min, max) => Statistics::Int32(int_stats!(min, max, nulls, int32)),
                (Kind::Int64, min, max) => Statistics::Int64(int_stats!(min, max, nulls, int64)),
            }
        });
        let nullable = self.nullable;
        let (unencoded, defs) = (s.unencoded, s.defs);
        let meta = |b: parquet::file::metadata::ColumnChunkMetaDataBuilder| match stats {
            Some(stats) => b
                .set_statistics(stats)
                .set_unencoded_byte_array_data_bytes((kind == Kind::Utf8).then_some(unencoded))
                .set_definition_level_histogram(
                    nullable.then(|| LevelHistogram::from(defs.to_vec())),
                ),
            None => b,
        };
        let (plain, entries) = match self.dict.as_ref() {
            Some(dict) => (dict.plain_page(kind == Kind::Utf8), dict.len()),
            None => (Vec::new(), 0),
        };
        let done = self
            .chunk
            .finish(Some((&plain, entries)), meta, column_index)?;
        if let Some(dict) = self.dict.as_mut() {
            dict.clear();
            self.dict_on = true;
        }
        Ok(done)
    }
}

/// A minimum cut to at most `len` bytes (at a character boundary), as the
/// Arrow writer cuts the strings of statistics; true if it was cut.
fn truncate_min(len: Option<usize>, v: &[u8]) -> (Vec<u8>, bool) {
    let cut = len
        .filter(|&l| v.len() > l)
        .and_then(|l| match std::str::from_utf8(v) {
            Ok(s) => (1..=l)
                .rfind(|&x| s.is_char_boundary(x))
                .map(|x| v[..x].to_vec()),
            Err(_) => Some(v[..l].to_vec()),
        });
    match cut {
        Some(c) => (c, true),
        None => (v.to_vec(), false),
    }
}

/// A maximum cut to at most `len` bytes and its last character incremented,
/// so that it still bounds the values; true if it was cut.
fn truncate_max(len: Option<usize>, v: &[u8]) -> (Vec<u8>, bool) {
    let cut = len
        .filter(|&l| v.len() > l)
        .and_then(|l| match std::str::from_utf8(v) {
            Ok(s) => {
                let split = (l.saturating_sub(3)..=l).rfind(|&x| s.is_char_boundary(x))?;
                increment_utf8(s.get(..split)?)
            }
            Err(_) => increment(v[..l].to_vec()),
        });
    match cut {
        Some(c) => (c, true),
        None => (v.to_vec(), false),
    }
}

/// The string with its last character that can be incremented without
/// changing its UTF-8 length incremented (and what follows it dropped).
fn increment_utf8(s: &str) -> Option<Vec<u8>> {
    for (at, c) in s.char_indices().rev() {
        let len = c.len_utf8();
        if let Some(next) = char::from_u32(c as u32 + 1).filter(|n| n.len_utf8() == len) {
            let mut out = s.as_bytes()[..at + len].to_vec();
            next.encode_utf8(&mut out[at..]);
            return Some(out);
        }
    }
    None
}

/// The bytes incremented as a big number, or None if all are 0xFF.
fn increment(mut v: Vec<u8>) -> Option<Vec<u8>> {
    for b in v.iter_mut().rev() {
        let (next, overflow) = b.overflowing_add(1);
        *b = next;
        if !overflow {
            return Some(v);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::chunk::testing::{self, concat, file_of, read};
    use super::*;
    use arrow_array::cast::AsArray;
    use arrow_array::{ArrayRef, StringArray};
    use arrow_schema::Schema;
    use bytes::Bytes;
    use parquet::arrow::ArrowWriter;
    use parquet::basic::{BoundaryOrder, Encoding};
    use parquet::basic::{Compression, ZstdLevel};
    use parquet::file::metadata::ParquetMetaData;
    use parquet::file::page_index::column_index::ColumnIndexMetaData;
    use proptest::prelude::*;
    use std::sync::Arc;

    /// Pages of `rows` rows, the Arrow writer's batches as long (so that
    /// both cut pages at the same rows), a dictionary of at most
    /// `dict_bytes`.
    fn props(c: Compression, dictionary: bool, rows: usize, dict_bytes: usize) -> WriterProperties {
        WriterProperties::builder()
            .set_compression(c)
            .set_dictionary_enabled(dictionary)
            .set_data_page_row_count_limit(rows)
            .set_write_batch_size(rows)
            .set_dictionary_page_size_limit(dict_bytes)
            .build()
    }

    fn field(data_type: &DataType, nullable: bool) -> Field {
        Field::new("v", data_type.clone(), nullable)
    }

    /// A file of one column, `groups` row groups of `array` each, its pages
    /// built here from the array written in pieces of 7, 57, ... rows.
    fn write(array: &ArrayRef, nullable: bool, p: &WriterProperties, groups: usize) -> Bytes {
        let field = field(array.data_type(), nullable);
        file_of(
            &field,
            array,
            p,
            groups,
            |g| 7 + 50 * g,
            false,
            |descr| FlatPages::new(&field, descr, p),
        )
    }

    /// The same file written by the Arrow writer.
    fn arrow_write(array: &ArrayRef, nullable: bool, p: &WriterProperties, groups: usize) -> Bytes {
        let field = field(array.data_type(), nullable);
        testing::arrow_file_of(&field, array, p, groups, |_| array.len(), true)
    }

    /// Written here and by the Arrow writer: the same values, and the same
    /// chunk statistics, histograms, encodings and sizes; each page's entry
    /// in the column index true to the rows the offset index gives it, and
    /// the same as the Arrow writer's where both cut the same pages.
    /// Whether both cut the same pages in both row groups, and whether ours
    /// has PLAIN data pages (the dictionary off, or fallen back).
    fn same_as_the_arrow_writer(
        array: &ArrayRef,
        nullable: bool,
        p: &WriterProperties,
    ) -> (bool, bool) {
        let mut same_pages = true;
        let (ours, ours_meta) = read(write(array, nullable, p, 2), None);
        let (theirs, meta) = read(arrow_write(array, nullable, p, 2), None);
        assert_eq!(&concat(&ours), &concat(&theirs));
        assert_eq!(ours_meta.num_row_groups(), 2);
        for g in 0..2 {
            let (a, b) = (
                ours_meta.row_group(g).column(0),
                meta.row_group(g).column(0),
            );
            assert_eq!(a.statistics(), b.statistics(), "row group {g}");
            assert_eq!(a.num_values(), b.num_values());
            assert_eq!(
                a.encodings().collect::<Vec<_>>(),
                b.encodings().collect::<Vec<_>>()
            );
            assert_eq!(
                a.definition_level_histogram(),
                b.definition_level_histogram()
            );
            assert_eq!(
                a.unencoded_byte_array_data_bytes(),
                b.unencoded_byte_array_data_bytes()
            );
            let index =
                |m: &ParquetMetaData| m.page_index_for_row_group(g).column_index(0).cloned();
            let pages = |m: &ParquetMetaData| {
                let pages = m.page_index_for_row_group(g);
                let o = pages.offset_index(0).expect("an offset index");
                let rows: Vec<i64> = o.page_locations.iter().map(|l| l.first_row_index).collect();
                (rows, o.unencoded_byte_array_data_bytes.clone())
            };
            let (ours_index, ours_pages) = (index(&ours_meta), pages(&ours_meta));
            if ours_pages.0 == pages(&meta).0 {
                assert_eq!(ours_index, index(&meta), "row group {g}");
                assert_eq!(ours_pages, pages(&meta), "row group {g}");
                assert_eq!(a.page_encoding_stats(), b.page_encoding_stats());
            } else {
                same_pages = false;
            }
            true_to_the_rows(
                array,
                ours_index.as_ref(),
                &ours_pages.0,
                ours_pages.1.as_deref(),
                p,
            );
        }
        let stats = ours_meta.row_group(0).column(0).page_encoding_stats();
        let plain = stats.expect("page encoding stats").iter().any(|s| {
            s.page_type == parquet::basic::PageType::DATA_PAGE && s.encoding == Encoding::PLAIN
        });
        (same_pages, plain)
    }

    /// Each page's null count, null page flag, bounds, histogram and size as
    /// the rows the offset index gives it hold them, and the boundary order
    /// as those bounds run.
    fn true_to_the_rows(
        array: &ArrayRef,
        index: Option<&ColumnIndexMetaData>,
        firsts: &[i64],
        unencoded: Option<&[i64]>,
        p: &WriterProperties,
    ) {
        let index = index.expect("a column index");
        let t = p.column_index_truncate_length();
        // Each value as the bytes the index holds and as a sort key.
        let value = |r: usize| -> (Vec<u8>, Result<i64, Vec<u8>>) {
            if let Some(s) = array.as_string_opt::<i32>() {
                return (
                    s.value(r).as_bytes().to_vec(),
                    Err(s.value(r).as_bytes().to_vec()),
                );
            }
            if let Some(a) = array.as_primitive_opt::<Int32Type>() {
                let v = a.value(r);
                return (v.to_le_bytes().to_vec(), Ok(v as i64));
            }
            let v = match array.as_primitive_opt::<Int64Type>() {
                Some(a) => a.value(r),
                None => array.as_primitive::<Decimal128Type>().value(r) as i64,
            };
            (v.to_le_bytes().to_vec(), Ok(v))
        };
        let mut bounds = Vec::new();
        for (k, &first) in firsts.iter().enumerate() {
            let end = firsts.get(k + 1).map_or(array.len(), |&e| e as usize);
            let rows = first as usize..end;
            let mut values: Vec<_> = rows
                .clone()
                .filter(|&r| array.is_valid(r))
                .map(value)
                .collect();
            values.sort_by(|a, b| a.1.cmp(&b.1));
            let nulls = (rows.len() - values.len()) as i64;
            assert_eq!(index.null_count(k), Some(nulls));
            assert_eq!(index.is_null_page(k), values.is_empty());
            if let Some(u) = unencoded {
                assert_eq!(u[k], values.iter().map(|v| v.0.len() as i64).sum::<i64>());
            }
            if let Some(h) = index.definition_level_histogram(k) {
                assert_eq!(h, [nulls, values.len() as i64]);
            }
            let (Some(min), Some(max)) = (values.first(), values.last()) else {
                continue;
            };
            match index {
                ColumnIndexMetaData::BYTE_ARRAY(i) => {
                    assert_eq!(i.min_value(k), Some(&truncate_min(t, &min.0).0[..]));
                    assert_eq!(i.max_value(k), Some(&truncate_max(t, &max.0).0[..]));
                }
                ColumnIndexMetaData::INT32(i) => {
                    let bytes = |v: Option<&i32>| v.map(|v| v.to_le_bytes().to_vec());
                    assert_eq!(bytes(i.min_value(k)), Some(min.0.clone()));
                    assert_eq!(bytes(i.max_value(k)), Some(max.0.clone()));
                }
                ColumnIndexMetaData::INT64(i) => {
                    let bytes = |v: Option<&i64>| v.map(|v| v.to_le_bytes().to_vec());
                    assert_eq!(bytes(i.min_value(k)), Some(min.0.clone()));
                    assert_eq!(bytes(i.max_value(k)), Some(max.0.clone()));
                }
                other => panic!("unexpected index {other:?}"),
            }
            bounds.push((min.1.clone(), max.1.clone()));
        }
        let up = bounds
            .windows(2)
            .all(|w| w[0].0 <= w[1].0 && w[0].1 <= w[1].1);
        let down = bounds
            .windows(2)
            .all(|w| w[0].0 >= w[1].0 && w[0].1 >= w[1].1);
        let order = match (up, down) {
            (true, _) => BoundaryOrder::ASCENDING,
            (false, true) => BoundaryOrder::DESCENDING,
            _ => BoundaryOrder::UNORDERED,
        };
        assert_eq!(index.get_boundary_order(), Some(order));
    }

    /// Seats, calls, empty strings, nulls in runs and alone, long values
    /// (past the 64-byte truncation, some with multi-byte characters).
    fn mixed(n: usize, nulls: bool) -> ArrayRef {
        let long = "Zürich".repeat(20);
        let values: Vec<Option<String>> = (0..n)
            .map(|r| match r % 13 {
                _ if nulls && (r / 100) % 4 == 1 => None,
                0 if nulls => None,
                1 => Some(String::new()),
                2 => Some(long[..long.char_indices().nth(r % 100).unwrap().0].to_string()),
                3 => Some(format!("{}{}", long, r)),
                4 => Some("Pass".to_string()),
                5 => Some(format!("{}", 50 + r % 30)),
                _ => Some(["N", "E", "S", "W"][r % 4].to_string()),
            })
            .collect();
        Arc::new(StringArray::from(values))
    }

    #[test]
    fn strings_match_the_arrow_writer_with_every_codec_and_setting() {
        let codecs = [
            Compression::UNCOMPRESSED,
            Compression::SNAPPY,
            Compression::LZ4_RAW,
            Compression::ZSTD(ZstdLevel::default()),
        ];
        let mut same_pages = Vec::new();
        for c in codecs {
            for dictionary in [true, false] {
                for nulls in [true, false] {
                    // A dictionary limit the data passes: the chunk falls
                    // back to PLAIN pages part of the way.
                    for dict_bytes in [1 << 20, 300] {
                        let p = props(c, dictionary, 100, dict_bytes);
                        let (same, plain) =
                            same_as_the_arrow_writer(&mixed(1_000, nulls), nulls, &p);
                        // PLAIN pages without the dictionary, or after it
                        // passed its limit, only then.
                        assert_eq!(plain, !dictionary || dict_bytes == 300);
                        same_pages.push((dictionary, nulls, dict_bytes, same));
                    }
                }
            }
        }
        // Without a fallback both cut pages every 100 rows, so the column
        // indexes were compared whole.
        assert!(
            same_pages
                .iter()
                .all(|&(d, _, b, same)| same || (d && b == 300)),
            "{same_pages:?}"
        );
    }

    /// The file of one column of `array` (two row groups), written in
    /// pieces of `piece(group)` rows, a call each or as the parts of one.
    fn file_in(
        array: &ArrayRef,
        nullable: bool,
        p: &WriterProperties,
        piece: impl Fn(usize) -> usize,
        one_call: bool,
    ) -> Bytes {
        let field = field(array.data_type(), nullable);
        file_of(&field, array, p, 2, piece, one_call, |descr| {
            FlatPages::new(&field, descr, p)
        })
    }

    #[test]
    fn parts_written_in_one_call_make_the_file_the_whole_array_makes() {
        // Pages cut by size, which is checked every CHECK_ROWS rows of the
        // run, wherever its parts meet; and a dictionary that passes its
        // limit part of the way.
        for nulls in [true, false] {
            for dictionary in [true, false] {
                for dict_bytes in [1 << 20, 300] {
                    let p = WriterProperties::builder()
                        .set_compression(Compression::SNAPPY)
                        .set_dictionary_enabled(dictionary)
                        .set_dictionary_page_size_limit(dict_bytes)
                        .set_data_page_size_limit(200)
                        .build();
                    let a = mixed(3_000, nulls);
                    let whole = file_in(&a, nulls, &p, |_| a.len(), false);
                    let parts = file_in(&a, nulls, &p, |g| 61 + 50 * g, true);
                    assert_eq!(whole, parts, "nulls {nulls}, dictionary {dictionary}");
                    // A call per part checks at other rows: other pages.
                    let calls = file_in(&a, nulls, &p, |g| 61 + 50 * g, false);
                    assert_ne!(whole, calls, "nulls {nulls}, dictionary {dictionary}");
                }
            }
        }
    }

    #[test]
    fn boundary_orders_and_null_pages_match() {
        let p = props(Compression::UNCOMPRESSED, true, 10, 1 << 20);
        let sorted: Vec<String> = (0..95).map(|i| format!("{i:03}")).collect();
        let up: ArrayRef = Arc::new(StringArray::from_iter_values(&sorted));
        let down: ArrayRef = Arc::new(StringArray::from_iter_values(sorted.iter().rev()));
        let same: ArrayRef = Arc::new(StringArray::from_iter_values(["N"; 95]));
        for a in [&up, &down, &same] {
            assert_eq!(same_as_the_arrow_writer(a, false, &p), (true, false));
        }
        let null_pages: ArrayRef = Arc::new(StringArray::from(
            (0..95)
                .map(|i| (i / 10 % 2 == 1).then(|| sorted[i].clone()))
                .collect::<Vec<_>>(),
        ));
        same_as_the_arrow_writer(&null_pages, true, &p);
        let all_null: ArrayRef = Arc::new(StringArray::from(vec![None::<&str>; 25]));
        same_as_the_arrow_writer(&all_null, true, &p);
    }

    #[test]
    fn values_of_up_to_eight_bytes_are_told_apart_by_length() {
        // Words equal once padded with zero bytes.
        let a: ArrayRef = Arc::new(StringArray::from(vec!["a", "a\0", "a\0\0", "", "\0", "a"]));
        let p = props(Compression::UNCOMPRESSED, true, 100, 1 << 20);
        same_as_the_arrow_writer(&a, false, &p);
        let mut d = StrDict::new();
        let data = b"aa\0a\0\0";
        assert_eq!(d.index(data, 0, 1), 0);
        assert_eq!(d.index(data, 2, 4), 1);
        assert_eq!(d.index(data, 3, 6), 2);
        assert_eq!(d.index(data, 1, 2), 0);
        assert_eq!(d.len(), 3);
    }

    #[test]
    fn settings_it_does_not_write_are_left_to_the_arrow_writer() {
        let field = field(&DataType::Utf8, true);
        testing::assert_settings_left_to_the_arrow_writer(
            &field,
            WriterProperties::builder,
            |base| {
                vec![
                    base().set_statistics_enabled(EnabledStatistics::Chunk),
                    base().set_encoding(Encoding::DELTA_LENGTH_BYTE_ARRAY),
                ]
            },
            |descr, p| FlatPages::new(&field, descr, p).is_some(),
        );
    }

    #[test]
    fn nulls_in_a_column_that_cannot_hold_them_are_an_error() {
        let p = props(Compression::UNCOMPRESSED, true, 100, 1 << 20);
        let schema = Arc::new(Schema::new(vec![field(&DataType::Utf8, false)]));
        let (file, _) = ArrowWriter::try_new(Vec::new(), schema, Some(p.clone()))
            .unwrap()
            .into_serialized_writer()
            .unwrap();
        let descr = file.schema_descr().column(0);
        let mut pages = FlatPages::new(&field(&DataType::Utf8, false), descr, &p).unwrap();
        let a = StringArray::from(vec![Some("N"), None]);
        assert!(pages.write(&[&a]).is_err());
    }

    #[test]
    fn integers_match_the_arrow_writer() {
        use arrow_array::Int32Array;
        let p = props(Compression::SNAPPY, true, 100, 1 << 20);
        // Negative and positive (signed order), repeats, nulls, a page of one
        // value, ascending and descending runs.
        let values: Vec<Option<i32>> = (0..1_000)
            .map(|i: i32| match i % 11 {
                _ if (200..300).contains(&i) => Some(7),
                0 => None,
                1 => Some(i32::MIN + i),
                2 => Some(i32::MAX - i),
                _ => Some(i % 60 - 30),
            })
            .collect();
        let a: ArrayRef = Arc::new(Int32Array::from(values.clone()));
        assert_eq!(same_as_the_arrow_writer(&a, true, &p), (true, false));
        let required: ArrayRef = Arc::new(Int32Array::from_iter_values((0..1_000).map(|i| i / 3)));
        assert_eq!(
            same_as_the_arrow_writer(&required, false, &p),
            (true, false)
        );
        let down: ArrayRef = Arc::new(Int32Array::from_iter_values((0..1_000).rev()));
        assert_eq!(same_as_the_arrow_writer(&down, false, &p), (true, false));
        // The dictionary passes its limit (40 values of four bytes): PLAIN
        // pages for the rest of the chunk.
        let p = props(Compression::UNCOMPRESSED, true, 100, 160);
        assert!(same_as_the_arrow_writer(&a, true, &p).1);
        let p = props(Compression::ZSTD(ZstdLevel::default()), false, 100, 1 << 20);
        assert_eq!(same_as_the_arrow_writer(&a, true, &p), (true, true));
    }

    #[test]
    fn decimals_and_64_bit_integers_match_the_arrow_writer() {
        use arrow_array::{Decimal128Array, Int64Array};
        let p = props(Compression::SNAPPY, true, 100, 1 << 20);
        let values: Vec<Option<i64>> = (0..1_000)
            .map(|i: i64| match i % 11 {
                _ if (200..300).contains(&i) => Some(7_000_000),
                0 => None,
                1 => Some(-999_999_999_999_999_999 + i),
                2 => Some(999_999_999_999_999_999 - i),
                _ => Some((i % 60 - 30) * 250_000),
            })
            .collect();
        let dec = |v: &[Option<i64>]| -> ArrayRef {
            Arc::new(
                Decimal128Array::from(v.iter().map(|x| x.map(i128::from)).collect::<Vec<_>>())
                    .with_precision_and_scale(18, 6)
                    .unwrap(),
            )
        };
        let ints: ArrayRef = Arc::new(Int64Array::from(values.clone()));
        assert_eq!(
            same_as_the_arrow_writer(&dec(&values), true, &p),
            (true, false)
        );
        assert_eq!(same_as_the_arrow_writer(&ints, true, &p), (true, false));
        // Past the dictionary's limit (20 values of eight bytes).
        let p = props(Compression::UNCOMPRESSED, true, 100, 160);
        assert!(same_as_the_arrow_writer(&dec(&values), true, &p).1);
        let p = props(Compression::ZSTD(ZstdLevel::default()), false, 100, 1 << 20);
        assert_eq!(
            same_as_the_arrow_writer(&dec(&values), true, &p),
            (true, true)
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn any_strings_match_the_arrow_writer(
            values in proptest::collection::vec(
                proptest::option::weighted(0.8, "[a-c\u{e9}]{0,10}|[NESW]"), 1..400),
            rows in 1usize..120,
            dictionary in any::<bool>(),
            dict_bytes in 8usize..400,
        ) {
            let a: ArrayRef = Arc::new(StringArray::from(values));
            let p = props(Compression::SNAPPY, dictionary, rows, dict_bytes);
            same_as_the_arrow_writer(&a, true, &p);
        }

        #[test]
        fn validity_bits_are_appended_as_one_at_a_time(
            runs in proptest::collection::vec(
                (proptest::collection::vec(any::<bool>(), 0..200), 0usize..9, any::<bool>()), 1..6),
        ) {
            // Runs of bits (read from a byte offset plus a bit offset, or
            // all set) appended one after the other, against a bit vector.
            let (mut words, mut expected) = (Vec::new(), Vec::new());
            for (bits, skip, all_set) in runs {
                let at = expected.len();
                let n = bits.len();
                let ones = if all_set {
                    expected.extend(std::iter::repeat_n(true, n));
                    append_bits(&mut words, at, None, n)
                } else {
                    let mut src = vec![true; skip];
                    src.extend(&bits);
                    let buffer = arrow_buffer::BooleanBuffer::from(src);
                    expected.extend(&bits);
                    append_bits(&mut words, at, Some((buffer.values(), skip)), n)
                };
                let want = if all_set { n } else { bits.iter().filter(|&&b| b).count() };
                prop_assert_eq!(ones, want);
                prop_assert_eq!(words.len(), expected.len().div_ceil(64));
            }
            for (i, &b) in expected.iter().enumerate() {
                prop_assert_eq!(words[i / 64] >> (i % 64) & 1 == 1, b, "bit {}", i);
            }
            // Nothing set past the last bit.
            let tail = expected.len() % 64;
            if tail > 0 {
                prop_assert_eq!(words.last().unwrap() >> tail, 0);
            }
        }

        #[test]
        fn any_parts_make_the_file_the_whole_array_makes(
            values in proptest::collection::vec(
                proptest::option::weighted(0.8, "[a-c]{0,10}|[NESW]"), 1..700),
            piece in 1usize..300,
            page_bytes in 1usize..400,
            dictionary in any::<bool>(),
            dict_bytes in 8usize..400,
        ) {
            let a: ArrayRef = Arc::new(StringArray::from(values));
            let p = WriterProperties::builder()
                .set_dictionary_enabled(dictionary)
                .set_dictionary_page_size_limit(dict_bytes)
                .set_data_page_size_limit(page_bytes)
                .build();
            let whole = file_in(&a, true, &p, |_| a.len(), false);
            prop_assert_eq!(whole, file_in(&a, true, &p, |g| piece + g, true));
        }

        #[test]
        fn any_integers_match_the_arrow_writer(
            values in proptest::collection::vec(
                proptest::option::weighted(0.8, prop_oneof![-5i32..5, any::<i32>()]), 1..400),
            rows in 1usize..120,
            dictionary in any::<bool>(),
            dict_bytes in 4usize..200,
        ) {
            let a: ArrayRef = Arc::new(arrow_array::Int32Array::from(values));
            let p = props(Compression::LZ4_RAW, dictionary, rows, dict_bytes);
            same_as_the_arrow_writer(&a, true, &p);
        }

        #[test]
        fn any_decimals_match_the_arrow_writer(
            values in proptest::collection::vec(
                proptest::option::weighted(0.8, prop_oneof![-5i64..5, -999_999_999_999_999_999i64..999_999_999_999_999_999]), 1..400),
            rows in 1usize..120,
            dictionary in any::<bool>(),
            dict_bytes in 8usize..300,
        ) {
            let a: ArrayRef = Arc::new(
                arrow_array::Decimal128Array::from(values.into_iter().map(|x| x.map(i128::from)).collect::<Vec<_>>())
                    .with_precision_and_scale(18, 6)
                    .unwrap(),
            );
            let p = props(Compression::LZ4_RAW, dictionary, rows, dict_bytes);
            same_as_the_arrow_writer(&a, true, &p);
        }
    }
}
