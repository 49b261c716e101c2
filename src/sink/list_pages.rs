//! Lists of strings (the card lists) encoded into Parquet pages here.
//!
//! The card lists hold most of the values a convert writes (about 190 a
//! hand), and the Arrow writer's general path spends about 250 instructions a
//! value on them: levels built and run-length encoded one at a time, every
//! value hashed into the dictionary or, without one, every length pushed
//! through the delta encoder and every value's two bytes copied by a call of
//! their own. Their settings are fixed (no statistics; a dictionary, and
//! DELTA_LENGTH_BYTE_ARRAY as its fallback), so their pages are built here in
//! bulk instead: repetition levels as bit-packed runs, definition levels as
//! one RLE run while they are all equal, the values as indices into a
//! dictionary of two-byte values found through a table (no hashing), or,
//! once a value does not fit it, lengths delta-packed (all deltas zero when
//! every value has the same length) and the bytes of a run of lists copied in
//! one piece. The pages are v1 data pages, cut at row boundaries by the same
//! limits the Arrow writer uses, the dictionary page first, with an offset
//! index; the chunk joins its row group the way a spliced copy does.

use arrow_array::cast::AsArray;
use arrow_array::{Array, ListArray};
use arrow_schema::{DataType, Field};
use bytes::Bytes;
use parquet::basic::{Compression, Encoding, EncodingMask, PageType};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::{ParquetError, Result};
use parquet::file::metadata::{ColumnChunkMetaData, PageEncodingStats};
use parquet::file::page_index::offset_index::OffsetIndexMetaData;
use parquet::file::page_index::offset_index::PageLocation;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::{SerializedPageWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;

/// Bit-packed runs are cut at 63 groups of 8 levels, so that each header is
/// one byte (as the Arrow writer and parquet-mr cut them).
const MAX_GROUPS: usize = 63;
/// Values in a delta block, and miniblocks in a block.
const BLOCK: usize = 128;
const MINIBLOCKS: usize = 4;
const MINI: usize = BLOCK / MINIBLOCKS;

enum Compressor {
    None,
    Zstd(Box<zstd::bulk::Compressor<'static>>),
    Snappy(Box<snap::raw::Encoder>),
    Lz4Raw,
}

impl Compressor {
    fn new(c: Compression) -> Option<Compressor> {
        Some(match c {
            Compression::UNCOMPRESSED => Compressor::None,
            Compression::ZSTD(level) => Compressor::Zstd(Box::new(
                zstd::bulk::Compressor::new(level.compression_level()).ok()?,
            )),
            Compression::SNAPPY => Compressor::Snappy(Box::new(snap::raw::Encoder::new())),
            Compression::LZ4_RAW => Compressor::Lz4Raw,
            _ => return None,
        })
    }

    /// `input` compressed as the Arrow writer's codecs compress it.
    fn compress(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<()> {
        out.clear();
        match self {
            Compressor::None => out.extend_from_slice(input),
            Compressor::Zstd(z) => {
                out.reserve(zstd::zstd_safe::compress_bound(input.len()));
                z.compress_to_buffer(input, out)?;
            }
            Compressor::Snappy(s) => {
                out.resize(snap::raw::max_compress_len(input.len()), 0);
                let n = s
                    .compress(input, out)
                    .map_err(|e| ParquetError::External(Box::new(e)))?;
                out.truncate(n);
            }
            Compressor::Lz4Raw => {
                out.resize(lz4_flex::block::get_maximum_output_size(input.len()), 0);
                let n = lz4_flex::block::compress_into(input, out)
                    .map_err(|e| ParquetError::External(Box::new(e)))?;
                out.truncate(n);
            }
        }
        Ok(())
    }
}

/// The levels and values of the page being filled.
#[derive(Default)]
struct PageBuf {
    rows: usize,
    levels: usize,
    /// Bit `i` is the repetition level of level `i`.
    rep: Vec<u64>,
    /// Definition levels so far.
    defs: usize,
    /// The definition level of every level so far, while they are equal.
    def_first: Option<u8>,
    /// Every definition level, once they differ.
    def: Vec<u8>,
    def_mixed: bool,
    lengths: Vec<i32>,
    bytes: Vec<u8>,
}

impl PageBuf {
    fn clear(&mut self) {
        self.rows = 0;
        self.levels = 0;
        self.rep.clear();
        self.defs = 0;
        self.def_first = None;
        self.def.clear();
        self.def_mixed = false;
        self.lengths.clear();
        self.bytes.clear();
    }

    /// `n` definition levels `d`.
    #[inline]
    fn defs(&mut self, d: u8, n: usize) {
        if !self.def_mixed {
            match self.def_first {
                None => self.def_first = Some(d),
                Some(f) if f == d => {}
                Some(f) => {
                    self.def_mixed = true;
                    self.def.resize(self.defs, f);
                }
            }
        }
        if self.def_mixed {
            self.def.resize(self.defs + n, d);
        }
        self.defs += n;
    }

    /// The items `from..to` of a string array with these offsets and bytes,
    /// all valid.
    #[inline]
    fn values(&mut self, ends: &[i32], data: &[u8], from: usize, to: usize) {
        if from < to {
            let ends = &ends[from..=to];
            self.lengths.extend(ends.windows(2).map(|w| w[1] - w[0]));
            self.bytes
                .extend_from_slice(&data[ends[0] as usize..ends[to - from] as usize]);
        }
    }

    /// One row of `n` items (an empty or null list has one level):
    /// repetition level 0, then 1 for the rest.
    #[inline]
    fn row(&mut self, n: usize) {
        let (mut at, end) = (self.levels + 1, self.levels + n.max(1));
        self.rep.resize(end.div_ceil(64), 0);
        while at < end {
            let (word, bit) = (at / 64, at % 64);
            let take = (64 - bit).min(end - at);
            let ones = if take == 64 { !0 } else { (1u64 << take) - 1 };
            self.rep[word] |= ones << bit;
            at += take;
        }
        self.levels = end;
        self.rows += 1;
    }

    /// Encoded size so far, roughly: what decides when a page is full.
    fn size(&self) -> usize {
        self.bytes.len() + self.lengths.len() / 2 + self.levels / 4
    }
}

/// Writes one column chunk at a time of a list-of-strings leaf.
pub struct ListPages {
    descr: ColumnDescPtr,
    compression: Compression,
    compressor: Compressor,
    page_bytes: usize,
    page_rows: usize,
    offset_index: bool,
    /// Definition levels of an empty list, a null item and an item (a null
    /// list's is 0).
    def_empty: u8,
    def_item_null: u8,
    def_item: u8,
    page: PageBuf,
    /// The chunk's dictionary, when the column is dictionary encoded.
    dict: Option<Box<Dict>>,
    /// Whether the chunk's pages are still dictionary encoded (until a page
    /// has a value the dictionary cannot take: the rest are DELTA_LENGTH).
    dict_on: bool,
    dict_pages: i32,
    plain_pages: i32,
    indices: Vec<u8>,
    /// Scratch: a page before and after compression.
    plain: Vec<u8>,
    packed: Vec<u8>,
    scratch: Vec<u8>,
    chunk: TrackedWrite<Vec<u8>>,
    locations: Vec<PageLocation>,
    unencoded: Vec<i64>,
    rows: i64,
    values: i64,
    uncompressed: i64,
    compressed: i64,
}

impl ListPages {
    /// A writer for the leaf `descr` of `field`, or None unless the field is
    /// a list of strings (one repeated level) with settings this module
    /// writes: no statistics or bloom filter, DELTA_LENGTH_BYTE_ARRAY values
    /// (alone or as the dictionary's fallback) and a codec it knows.
    pub fn new(field: &Field, descr: ColumnDescPtr, props: &WriterProperties) -> Option<Self> {
        let DataType::List(item) = field.data_type() else {
            return None;
        };
        let path = descr.path();
        let def_empty = field.is_nullable() as u8;
        let def_item = def_empty + 1 + item.is_nullable() as u8;
        let writable = *item.data_type() == DataType::Utf8
            && descr.max_rep_level() == 1
            && descr.max_def_level() == def_item as i16
            && props.encoding(path) == Some(Encoding::DELTA_LENGTH_BYTE_ARRAY)
            && props.statistics_enabled(path) == EnabledStatistics::None
            && props.bloom_filter_properties(path).is_none();
        if !writable {
            return None;
        }
        let compression = props.compression(path);
        let dictionary = props.dictionary_enabled(path);
        Some(ListPages {
            compressor: Compressor::new(compression)?,
            compression,
            page_bytes: props.data_page_size_limit().max(1),
            page_rows: props.data_page_row_count_limit().max(1),
            offset_index: !props.offset_index_disabled(),
            def_empty,
            def_item_null: def_empty + 1,
            def_item,
            descr,
            page: PageBuf::default(),
            dict: dictionary.then(|| Box::new(Dict::new())),
            dict_on: dictionary,
            dict_pages: 0,
            plain_pages: 0,
            indices: Vec::new(),
            plain: Vec::new(),
            packed: Vec::new(),
            scratch: Vec::new(),
            chunk: TrackedWrite::new(Vec::new()),
            locations: Vec::new(),
            unencoded: Vec::new(),
            rows: 0,
            values: 0,
            uncompressed: 0,
            compressed: 0,
        })
    }

    /// Appends the rows of a list-of-strings array.
    pub fn write(&mut self, array: &dyn Array) -> Result<()> {
        let list: &ListArray = array
            .as_list_opt()
            .ok_or_else(|| ParquetError::General("expected a list array".into()))?;
        let strings = list
            .values()
            .as_string_opt::<i32>()
            .ok_or_else(|| ParquetError::General("expected a list of strings".into()))?;
        let lists = list.value_offsets();
        let ends = strings.value_offsets();
        let data = strings.value_data();
        let item_nulls = strings.nulls().filter(|n| n.null_count() > 0);
        // Items of whole lists are copied in runs: `from` is the first item
        // not yet in the page.
        let mut from = lists[0] as usize;
        for r in 0..list.len() {
            let (a, b) = (lists[r] as usize, lists[r + 1] as usize);
            let p = &mut self.page;
            let empty = list.is_null(r) || a == b;
            if empty {
                if a != b {
                    // (A null list may still cover items: they are not written.)
                    p.values(ends, data, from, a);
                    from = b;
                }
                let d = if list.is_null(r) { 0 } else { self.def_empty };
                p.defs(d, 1);
            } else if let Some(nulls) = item_nulls {
                p.values(ends, data, from, a);
                from = b;
                for i in a..b {
                    if nulls.is_null(i) {
                        p.defs(self.def_item_null, 1);
                    } else {
                        p.defs(self.def_item, 1);
                        p.values(ends, data, i, i + 1);
                    }
                }
            } else {
                p.defs(self.def_item, b - a);
            }
            p.row(if empty { 0 } else { b - a });
            let pending = (ends[b] - ends[from]) as usize + (b - from) / 2;
            if p.rows >= self.page_rows || p.size() + pending >= self.page_bytes {
                p.values(ends, data, from, b);
                from = b;
                self.flush_page()?;
            }
        }
        if let Some(&end) = lists.last() {
            self.page.values(ends, data, from, end as usize);
        }
        Ok(())
    }

    /// Bytes this chunk will take, roughly (pages written plus the one being
    /// filled).
    pub fn estimated_bytes(&self) -> usize {
        self.chunk.bytes_written() + self.page.size()
    }

    fn flush_page(&mut self) -> Result<()> {
        let p = &self.page;
        if p.levels == 0 {
            return Ok(());
        }
        let buf = &mut self.plain;
        buf.clear();
        // Repetition levels.
        let at = start_levels(buf);
        if p.rows == p.levels {
            rle_run(buf, 0, p.levels, 1);
        } else {
            let bits = &mut self.scratch;
            bits.clear();
            bits.extend(p.rep.iter().flat_map(|w| w.to_le_bytes()));
            bit_packed(buf, bits, p.levels, 1);
        }
        end_levels(buf, at);
        // Definition levels.
        let width = bit_width(self.def_item as u32);
        let at = start_levels(buf);
        if p.def_mixed {
            let bits = &mut self.scratch;
            bits.clear();
            pack_small(bits, &p.def, width);
            bit_packed(buf, bits, p.levels, width);
        } else {
            rle_run(buf, p.def_first.unwrap_or(0), p.levels, width);
        }
        end_levels(buf, at);
        // Values: indices into the dictionary while every value fits it,
        // else (and for a page without values) DELTA_LENGTH_BYTE_ARRAY.
        let fits = self.dict_on && !p.lengths.is_empty() && p.lengths.iter().all(|&l| l == 2);
        let entries = match self.dict.as_deref_mut() {
            Some(dict) if fits => dict
                .encode(&p.bytes, &mut self.indices)
                .then_some(dict.values.len()),
            _ => None,
        };
        let encoding = match entries {
            Some(entries) => {
                let width = bit_width(entries as u32 - 1).max(1);
                buf.push(width as u8);
                let bits = &mut self.scratch;
                bits.clear();
                pack_small(bits, &self.indices, width);
                bit_packed(buf, bits, self.indices.len(), width);
                self.dict_pages += 1;
                Encoding::RLE_DICTIONARY
            }
            None => {
                self.dict_on &= p.lengths.is_empty();
                delta_packed(buf, &p.lengths);
                buf.extend_from_slice(&p.bytes);
                self.plain_pages += 1;
                Encoding::DELTA_LENGTH_BYTE_ARRAY
            }
        };

        self.compressor.compress(buf, &mut self.packed)?;
        let page = Page::DataPage {
            buf: Bytes::from(std::mem::take(&mut self.packed)),
            num_values: p.levels as u32,
            encoding,
            def_level_encoding: Encoding::RLE,
            rep_level_encoding: Encoding::RLE,
            statistics: None,
        };
        let spec = SerializedPageWriter::new(&mut self.chunk)
            .write_page(CompressedPage::new(page, buf.len()))?;
        self.locations.push(PageLocation {
            offset: spec.offset as i64,
            compressed_page_size: spec.compressed_size as i32,
            first_row_index: self.rows,
        });
        self.unencoded.push(p.bytes.len() as i64);
        self.rows += p.rows as i64;
        self.values += p.levels as i64;
        self.uncompressed += spec.uncompressed_size as i64;
        self.compressed += spec.compressed_size as i64;
        self.page.clear();
        Ok(())
    }

    /// The chunk written since the last call, as its bytes and the close
    /// result a row group takes (offsets relative to the bytes); the writer
    /// is then ready for the next chunk.
    pub fn finish_chunk(&mut self) -> Result<(Bytes, ColumnCloseResult)> {
        self.flush_page()?;
        let chunk = std::mem::replace(&mut self.chunk, TrackedWrite::new(Vec::new()));
        let chunk = chunk.into_inner()?;
        // The dictionary page goes first, before the data pages.
        let mut stats = Vec::new();
        let mut bytes = Vec::new();
        if let Some(dict) = self.dict.as_deref().filter(|_| self.dict_pages > 0) {
            let mut plain = Vec::with_capacity(dict.values.len() * 6);
            for v in &dict.values {
                plain.extend_from_slice(&2u32.to_le_bytes());
                plain.extend_from_slice(v);
            }
            self.compressor.compress(&plain, &mut self.packed)?;
            let page = Page::DictionaryPage {
                buf: Bytes::from(std::mem::take(&mut self.packed)),
                num_values: dict.values.len() as u32,
                encoding: Encoding::PLAIN,
                is_sorted: false,
            };
            let mut head = TrackedWrite::new(Vec::new());
            let spec = SerializedPageWriter::new(&mut head)
                .write_page(CompressedPage::new(page, plain.len()))?;
            bytes = head.into_inner()?;
            self.uncompressed += spec.uncompressed_size as i64;
            self.compressed += spec.compressed_size as i64;
            stats.push((PageType::DICTIONARY_PAGE, Encoding::PLAIN, 1));
            stats.push((
                PageType::DATA_PAGE,
                Encoding::RLE_DICTIONARY,
                self.dict_pages,
            ));
        }
        if self.plain_pages > 0 {
            let e = Encoding::DELTA_LENGTH_BYTE_ARRAY;
            stats.push((PageType::DATA_PAGE, e, self.plain_pages));
        }
        let shift = bytes.len() as i64;
        bytes.extend_from_slice(&chunk);
        let bytes = Bytes::from(bytes);
        let mut b = ColumnChunkMetaData::builder(self.descr.clone())
            .set_compression(self.compression)
            .set_total_compressed_size(self.compressed)
            .set_total_uncompressed_size(self.uncompressed)
            .set_num_values(self.values)
            .set_dictionary_page_offset((shift > 0).then_some(0))
            .set_data_page_offset(shift);
        if !stats.is_empty() {
            let mut encodings = vec![Encoding::RLE];
            encodings.extend(stats.iter().map(|s| s.1));
            b = b
                .set_encodings_mask(EncodingMask::new_from_encodings(encodings.iter()))
                .set_page_encoding_stats(
                    stats
                        .into_iter()
                        .map(|(page_type, encoding, count)| PageEncodingStats {
                            page_type,
                            encoding,
                            count,
                        })
                        .collect(),
                );
        }
        let mut locations = std::mem::take(&mut self.locations);
        for l in &mut locations {
            l.offset += shift;
        }
        let unencoded = std::mem::take(&mut self.unencoded);
        let close = ColumnCloseResult {
            bytes_written: bytes.len() as u64,
            rows_written: self.rows as u64,
            metadata: b.build()?,
            bloom_filter: None,
            column_index: None,
            offset_index: self.offset_index.then_some(OffsetIndexMetaData {
                page_locations: locations,
                unencoded_byte_array_data_bytes: Some(unencoded),
            }),
        };
        self.rows = 0;
        self.values = 0;
        self.uncompressed = 0;
        self.compressed = 0;
        self.dict_pages = 0;
        self.plain_pages = 0;
        if let Some(dict) = self.dict.as_deref_mut() {
            dict.clear();
            self.dict_on = true;
        }
        Ok((bytes, close))
    }
}

/// The dictionary of a chunk's two-byte values (the cards).
struct Dict {
    /// One more than the index of each two-byte value; 0 if it has none.
    slot: Box<[u8]>,
    values: Vec<[u8; 2]>,
}

impl Dict {
    fn new() -> Dict {
        Dict {
            slot: vec![0; 1 << 16].into_boxed_slice(),
            values: Vec::new(),
        }
    }

    fn clear(&mut self) {
        for v in &self.values {
            self.slot[u16::from_le_bytes(*v) as usize] = 0;
        }
        self.values.clear();
    }

    /// The indices of `bytes`, values of two bytes each, new values added;
    /// false if they would take the dictionary past 255 values.
    fn encode(&mut self, bytes: &[u8], out: &mut Vec<u8>) -> bool {
        out.clear();
        out.resize(bytes.len() / 2, 0);
        for (v, index) in bytes.chunks_exact(2).zip(out.iter_mut()) {
            let key = u16::from_le_bytes([v[0], v[1]]) as usize;
            let mut slot = self.slot[key];
            if slot == 0 {
                if self.values.len() == 255 {
                    return false;
                }
                self.values.push([v[0], v[1]]);
                slot = self.values.len() as u8;
                self.slot[key] = slot;
            }
            *index = slot - 1;
        }
        true
    }
}

/// Room for the four-byte length that precedes a v1 page's levels.
fn start_levels(buf: &mut Vec<u8>) -> usize {
    buf.extend_from_slice(&[0; 4]);
    buf.len()
}

fn end_levels(buf: &mut [u8], at: usize) {
    let len = (buf.len() - at) as u32;
    buf[at - 4..at].copy_from_slice(&len.to_le_bytes());
}

fn bit_width(max: u32) -> u32 {
    32 - max.leading_zeros()
}

fn varint(buf: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        buf.push(v as u8 | 0x80);
        v >>= 7;
    }
    buf.push(v as u8);
}

fn zigzag(buf: &mut Vec<u8>, v: i64) {
    varint(buf, ((v << 1) ^ (v >> 63)) as u64);
}

/// An RLE run of `n` copies of `value`, `width` bits wide.
fn rle_run(buf: &mut Vec<u8>, value: u8, n: usize, width: u32) {
    if n == 0 {
        return;
    }
    varint(buf, (n as u64) << 1);
    buf.extend(
        std::iter::once(value)
            .chain(std::iter::repeat(0))
            .take(width.div_ceil(8) as usize),
    );
}

/// `n` values already bit-packed `width` bits wide, as bit-packed runs
/// (padded with zero bytes if `packed` is short of whole groups).
fn bit_packed(buf: &mut Vec<u8>, packed: &mut Vec<u8>, n: usize, width: u32) {
    let group = width as usize;
    packed.resize(n.div_ceil(8) * group, 0);
    for run in packed.chunks(MAX_GROUPS * group) {
        buf.push(((run.len() / group) << 1 | 1) as u8);
        buf.extend_from_slice(run);
    }
}

/// Values packed `width` bits wide, least significant bit first, padded with
/// zero bits to a whole byte.
fn pack(buf: &mut Vec<u8>, values: impl Iterator<Item = u32>, width: u32) {
    let (mut acc, mut bits) = (0u64, 0u32);
    for v in values {
        acc |= (v as u64) << bits;
        bits += width;
        while bits >= 8 {
            buf.push(acc as u8);
            acc >>= 8;
            bits -= 8;
        }
    }
    if bits > 0 {
        buf.push(acc as u8);
    }
}

/// Small values (`width` <= 8 bits) packed eight at a time: `width` bytes a
/// group of eight, the last group padded with zeros.
fn pack_small(buf: &mut Vec<u8>, values: &[u8], width: u32) {
    let w = width as usize;
    let group =
        |g: &[u8]| (g.iter().enumerate()).fold(0u64, |acc, (i, &v)| acc | (v as u64) << (i * w));
    let whole = values.chunks_exact(8);
    let rest = whole.remainder();
    buf.reserve(values.len().div_ceil(8) * w + 8);
    for g in whole {
        let g: &[u8; 8] = g.try_into().expect("eight values");
        buf.extend_from_slice(&group(g).to_le_bytes()[..w]);
    }
    if !rest.is_empty() {
        buf.extend_from_slice(&group(rest).to_le_bytes()[..w]);
    }
}

/// DELTA_BINARY_PACKED: blocks of 128 deltas in four miniblocks of 32, each
/// miniblock packed at its own width above the block's smallest delta.
fn delta_packed(buf: &mut Vec<u8>, values: &[i32]) {
    varint(buf, BLOCK as u64);
    varint(buf, MINIBLOCKS as u64);
    varint(buf, values.len() as u64);
    zigzag(buf, values.first().copied().unwrap_or(0) as i64);
    let mut deltas = [0i64; BLOCK];
    for start in (1..values.len()).step_by(BLOCK) {
        let n = BLOCK.min(values.len() - start);
        let run = &values[start - 1..start + n];
        if run.iter().all(|&v| v == run[0]) {
            // Every delta 0 (every value of the same length): a smallest
            // delta of 0 and four widths of 0, no packed bits.
            buf.extend_from_slice(&[0; 1 + MINIBLOCKS]);
            continue;
        }
        for (k, d) in deltas[..n].iter_mut().enumerate() {
            *d = values[start + k] as i64 - values[start + k - 1] as i64;
        }
        let min = deltas[..n].iter().copied().min().unwrap_or(0);
        zigzag(buf, min);
        let minis = n.div_ceil(MINI);
        let mut widths = [0u32; MINIBLOCKS];
        for (m, width) in widths.iter_mut().enumerate().take(minis) {
            let part = &deltas[m * MINI..((m + 1) * MINI).min(n)];
            let max = part.iter().map(|&d| (d - min) as u64).max().unwrap_or(0);
            *width = 64 - max.leading_zeros();
        }
        buf.extend(widths.iter().map(|&w| w as u8));
        for (m, &width) in widths.iter().enumerate().take(minis) {
            if width == 0 {
                continue;
            }
            let part = &deltas[m * MINI..((m + 1) * MINI).min(n)];
            let padded = part
                .iter()
                .map(|&d| (d - min) as u32)
                .chain(std::iter::repeat(0))
                .take(MINI);
            pack(buf, padded, width);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::builder::{ListBuilder, StringBuilder};
    use arrow_array::{ArrayRef, RecordBatch};
    use arrow_buffer::{NullBuffer, OffsetBuffer};
    use arrow_schema::Schema;
    use parquet::arrow::ArrowWriter;
    use parquet::arrow::arrow_reader::{
        ArrowReaderOptions, ParquetRecordBatchReaderBuilder, RowSelection, RowSelector,
    };
    use parquet::basic::ZstdLevel;
    use parquet::file::metadata::PageIndexPolicy;
    use proptest::prelude::*;
    use std::sync::Arc;

    fn props(c: Compression, page_bytes: usize, page_rows: usize) -> WriterProperties {
        props_with(false, c, page_bytes, page_rows)
    }

    fn props_with(
        dictionary: bool,
        c: Compression,
        page_bytes: usize,
        page_rows: usize,
    ) -> WriterProperties {
        WriterProperties::builder()
            .set_dictionary_enabled(dictionary)
            .set_encoding(Encoding::DELTA_LENGTH_BYTE_ARRAY)
            .set_statistics_enabled(EnabledStatistics::None)
            .set_compression(c)
            .set_data_page_size_limit(page_bytes)
            .set_data_page_row_count_limit(page_rows)
            .build()
    }

    fn list(rows: &[Option<Vec<Option<&str>>>]) -> ArrayRef {
        let mut b = ListBuilder::new(StringBuilder::new());
        for r in rows {
            match r {
                Some(items) => b.append_value(items.iter().copied()),
                None => b.append_null(),
            }
        }
        Arc::new(b.finish())
    }

    /// A file of one column, `groups` row groups of `array` each, its pages
    /// built here from the array written in pieces of `piece` rows.
    fn write(array: &ArrayRef, props: &WriterProperties, groups: usize, piece: usize) -> Bytes {
        let field = Field::new("cards", array.data_type().clone(), true);
        let schema = Arc::new(Schema::new(vec![field.clone()]));
        let (mut file, _) = ArrowWriter::try_new(Vec::new(), schema, Some(props.clone()))
            .unwrap()
            .into_serialized_writer()
            .unwrap();
        let descr = file.schema_descr().column(0);
        let mut pages = ListPages::new(&field, descr, props).expect("a writable list");
        for _ in 0..groups {
            let mut at = 0;
            while at < array.len() {
                let n = piece.max(1).min(array.len() - at);
                pages.write(&array.slice(at, n)).unwrap();
                at += n;
            }
            let (bytes, close) = pages.finish_chunk().unwrap();
            assert_eq!(close.rows_written, array.len() as u64);
            let mut rg = file.next_row_group().unwrap();
            rg.append_column(&bytes, close).unwrap();
            rg.close().unwrap();
        }
        Bytes::from(file.into_inner().unwrap())
    }

    /// The column read back, all row groups, optionally only some rows.
    fn read(bytes: Bytes, selection: Option<RowSelection>) -> Vec<ArrayRef> {
        let options = ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Required);
        let mut b = ParquetRecordBatchReaderBuilder::try_new_with_options(bytes, options).unwrap();
        if let Some(s) = selection {
            b = b.with_row_selection(s);
        }
        b.build()
            .unwrap()
            .map(|r| r.unwrap().column(0).clone())
            .collect()
    }

    fn concat(parts: &[ArrayRef]) -> ArrayRef {
        let parts: Vec<&dyn Array> = parts.iter().map(|a| a.as_ref()).collect();
        arrow_select::concat::concat(&parts).unwrap()
    }

    /// Rows of every kind: null and empty lists, null and empty items,
    /// lengths that go up and down, and long runs of two-byte cards.
    fn mixed(n: usize) -> ArrayRef {
        let long = "x".repeat(300);
        let rows: Vec<Option<Vec<Option<&str>>>> = (0..n)
            .map(|r| match r % 9 {
                0 => None,
                1 => Some(vec![]),
                2 => Some(vec![Some("AS"), None, Some("")]),
                3 => Some(vec![Some(&long[..r % 300]), Some("QD"), Some(&long[..7])]),
                _ => Some(vec![Some("TH"); 20]),
            })
            .collect();
        list(&rows)
    }

    #[test]
    fn lists_read_back_the_same_with_every_codec_and_page_size() {
        let array = mixed(2000);
        for c in [
            Compression::ZSTD(ZstdLevel::default()),
            Compression::SNAPPY,
            Compression::LZ4_RAW,
            Compression::UNCOMPRESSED,
        ] {
            for (page_bytes, page_rows, piece) in
                [(1 << 20, 20_000, 2000), (300, 7, 333), (1, 1, 1)]
            {
                for dictionary in [false, true] {
                    let p = props_with(dictionary, c, page_bytes, page_rows);
                    let bytes = write(&array, &p, 2, piece);
                    let back = concat(&read(bytes, None));
                    assert_eq!(
                        back.as_ref(),
                        concat(&[array.clone(), array.clone()]).as_ref(),
                        "{c:?} pages of {page_bytes} bytes / {page_rows} rows, \
                         dictionary {dictionary}"
                    );
                }
            }
        }
    }

    #[test]
    fn pages_start_on_rows_and_the_offset_index_finds_them() {
        let array = mixed(1000);
        let bytes = write(&array, &props(Compression::SNAPPY, 1 << 20, 64), 1, 100);
        let meta = ParquetRecordBatchReaderBuilder::try_new_with_options(
            bytes.clone(),
            ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Required),
        )
        .unwrap()
        .metadata()
        .clone();
        let pages = meta.page_index_for_row_group(0);
        let index = pages.offset_index(0).expect("an offset index");
        let firsts: Vec<i64> = index
            .page_locations()
            .iter()
            .map(|p| p.first_row_index)
            .collect();
        assert_eq!(firsts, (0..1000).step_by(64).collect::<Vec<i64>>());
        let chunk = meta.row_group(0).column(0);
        assert_eq!(chunk.data_page_offset(), index.page_locations()[0].offset);
        assert_eq!(
            chunk.compressed_size(),
            index
                .page_locations()
                .iter()
                .map(|p| p.compressed_page_size as i64)
                .sum::<i64>()
        );
        // Rows 130..140 and 900..1000: the reader skips pages by the index.
        let selection = RowSelection::from(vec![
            RowSelector::skip(130),
            RowSelector::select(10),
            RowSelector::skip(760),
            RowSelector::select(100),
        ]);
        let back = concat(&read(bytes, Some(selection)));
        let want = concat(&[array.slice(130, 10), array.slice(900, 100)]);
        assert_eq!(back.as_ref(), want.as_ref());
    }

    #[test]
    fn a_null_list_over_items_writes_none_of_them() {
        // Offsets 0,2,5,6: the middle list is null but covers three items.
        let values = arrow_array::StringArray::from(vec!["AS", "KS", "no", "no", "no", "QS"]);
        let field = Arc::new(Field::new("item", DataType::Utf8, true));
        let array: ArrayRef = Arc::new(ListArray::new(
            field,
            OffsetBuffer::new(vec![0, 2, 5, 6].into()),
            Arc::new(values),
            Some(NullBuffer::from(vec![true, false, true])),
        ));
        let bytes = write(
            &array,
            &props(Compression::UNCOMPRESSED, 1 << 20, 20_000),
            1,
            2,
        );
        let back = concat(&read(bytes, None));
        assert_eq!(back.as_ref(), array.as_ref());
        let back = back.as_list::<i32>();
        assert_eq!(back.value(1).len(), 0);
        assert_eq!(back.value(2).as_string::<i32>().value(0), "QS");
    }

    #[test]
    fn the_arrow_writer_reads_the_same_from_its_own_file() {
        // Same rows through the Arrow writer with the same settings: same
        // values, same number of levels.
        let cards = list(&vec![Some(vec![Some("AS"), None, Some("9C")]); 3000]);
        for (array, dictionary) in [(mixed(3000), false), (cards, true)] {
            let p = props_with(
                dictionary,
                Compression::ZSTD(ZstdLevel::default()),
                1 << 20,
                20_000,
            );
            same_as_the_arrow_writer(&array, p);
        }
    }

    fn same_as_the_arrow_writer(array: &ArrayRef, p: WriterProperties) {
        let ours = write(array, &p, 1, 3000);
        let schema = Arc::new(Schema::new(vec![Field::new(
            "cards",
            array.data_type().clone(),
            true,
        )]));
        let mut w = ArrowWriter::try_new(Vec::new(), schema.clone(), Some(p)).unwrap();
        w.write(&RecordBatch::try_new(schema, vec![array.clone()]).unwrap())
            .unwrap();
        let theirs = Bytes::from(w.into_inner().unwrap());
        let levels = |b: &Bytes| {
            let m = ParquetRecordBatchReaderBuilder::try_new(b.clone())
                .unwrap()
                .metadata()
                .clone();
            let c = m.row_group(0).column(0);
            (c.num_values(), c.encodings().collect::<Vec<_>>())
        };
        assert_eq!(levels(&ours), levels(&theirs));
        assert_eq!(
            concat(&read(ours, None)).as_ref(),
            concat(&read(theirs, None)).as_ref()
        );
    }

    /// The chunk's (dictionary page offset, data page encodings and counts).
    fn pages(bytes: &Bytes, group: usize) -> (Option<i64>, Vec<(Encoding, i32)>) {
        let options = ArrowReaderOptions::new().with_encoding_stats_as_mask(false);
        let m = ParquetRecordBatchReaderBuilder::try_new_with_options(bytes.clone(), options)
            .unwrap()
            .metadata()
            .clone();
        let c = m.row_group(group).column(0);
        let stats = (c.page_encoding_stats().unwrap().iter())
            .filter(|s| s.page_type == PageType::DATA_PAGE)
            .map(|s| (s.encoding, s.count))
            .collect();
        (c.dictionary_page_offset(), stats)
    }

    #[test]
    fn cards_are_dictionary_encoded_until_a_value_does_not_fit() {
        let p = |rows| props_with(true, Compression::SNAPPY, 1 << 20, rows);
        // Only cards: every page from the dictionary, in both row groups.
        let cards = list(&vec![Some(vec![Some("AS"), Some("TD"), None]); 100]);
        let bytes = write(&cards, &p(30), 2, 40);
        for g in 0..2 {
            let (dictionary, stats) = pages(&bytes, g);
            assert!(dictionary.is_some());
            assert_eq!(stats, [(Encoding::RLE_DICTIONARY, 4)]);
        }
        assert_eq!(
            concat(&read(bytes, None)).as_ref(),
            concat(&[cards.clone(), cards]).as_ref()
        );
        // A longer value in the third page: it and the rest are DELTA_LENGTH.
        let mut rows = vec![Some(vec![Some("KH")]); 100];
        rows[65] = Some(vec![Some("10H")]);
        let mixed = list(&rows);
        let bytes = write(&mixed, &p(30), 1, 100);
        assert_eq!(
            pages(&bytes, 0).1,
            [
                (Encoding::RLE_DICTIONARY, 2),
                (Encoding::DELTA_LENGTH_BYTE_ARRAY, 2)
            ]
        );
        assert_eq!(concat(&read(bytes, None)).as_ref(), mixed.as_ref());
        // 300 distinct values: the page that would pass 255 falls back.
        let names: Vec<String> = (0..600u32)
            .map(|i| {
                let i = i % 300;
                String::from_utf8(vec![b'A' + (i / 26) as u8, b'a' + (i % 26) as u8]).unwrap()
            })
            .collect();
        let many = list(
            &names
                .iter()
                .map(|n| Some(vec![Some(n.as_str())]))
                .collect::<Vec<_>>(),
        );
        let bytes = write(&many, &p(100), 1, 600);
        assert_eq!(
            pages(&bytes, 0).1,
            [
                (Encoding::RLE_DICTIONARY, 2),
                (Encoding::DELTA_LENGTH_BYTE_ARRAY, 4)
            ]
        );
        assert_eq!(concat(&read(bytes, None)).as_ref(), many.as_ref());
        // Nothing but null lists: no dictionary page at all.
        let nulls = list(&vec![None; 50]);
        let bytes = write(&nulls, &p(20), 1, 50);
        assert_eq!(
            pages(&bytes, 0),
            (None, vec![(Encoding::DELTA_LENGTH_BYTE_ARRAY, 3)])
        );
        assert_eq!(concat(&read(bytes, None)).as_ref(), nulls.as_ref());
    }

    proptest! {
        #[test]
        fn any_lists_read_back_the_same(
            rows in prop::collection::vec(
                prop::option::of(prop::collection::vec(prop::option::of("[A-D]{2}|[A-Z]{0,5}"), 0..40)),
                1..300,
            ),
            page_rows in 1usize..50,
            page_bytes in 1usize..400,
            piece in 1usize..100,
            dictionary in proptest::bool::ANY,
        ) {
            let rows: Vec<Option<Vec<Option<&str>>>> = rows
                .iter()
                .map(|r| r.as_ref().map(|v| v.iter().map(|s| s.as_deref()).collect()))
                .collect();
            let array = list(&rows);
            let p = props_with(dictionary, Compression::SNAPPY, page_bytes, page_rows);
            let bytes = write(&array, &p, 1, piece);
            let back = concat(&read(bytes, None));
            prop_assert_eq!(back.as_ref(), array.as_ref());
        }
    }
}
