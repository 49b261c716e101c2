//! Flat integer keys (the record key, record_index, byte_offset, line) encoded
//! into DELTA_BINARY_PACKED pages here.
//!
//! These columns are in every table (the record key is one value a row of
//! each; about 35 values a record of generated hands) and the Arrow writer spent about
//! 75 instructions a value on them (`ArrowColumnWriter::write` fell from
//! about 11,400 to 8,800 instructions a record when they left it;
//! callgrind, `convert -j1`, 12,000 records less 3,000): deltas put one at a time through its encoder,
//! minimum and maximum found over each mini-batch again. Here
//! a value is one subtraction into the block being filled, its page's
//! minimum and maximum kept as it goes, and a full block packed at once.
//!
//! What is written is what the Arrow writer writes with the same settings,
//! byte for byte: blocks of 256 values for 64-bit integers and 128 for
//! 32-bit ones, each in four miniblocks packed at their own width above the
//! block's smallest delta (32-bit deltas wrapping as 32-bit integers), the
//! unused miniblocks of the last block given width 0; pages cut where the
//! Arrow writer cuts them, its limits checked after every `write_batch_size`
//! rows of a write and at its end, the page size being the bytes of the
//! blocks packed so far; chunk statistics (min, max, null count), a column
//! index (per page min and max, boundary order) and an offset index. Only
//! columns without nulls are taken (the key columns have none).

use arrow_array::Array;
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type, UInt32Type, UInt64Type};
use arrow_schema::{DataType, Field};
use parquet::basic::{Encoding, Type};
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::{ParquetError, Result};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::statistics::{Statistics, ValueStatistics};
use parquet::schema::types::ColumnDescPtr;

use super::chunk::{Chunk, ChunkBytes, PageIndex, Pages, plain_settings, with_statistics};
use super::encode::{MINIBLOCKS, varint, zigzag};

/// The column's integers: 32 or 64 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Width {
    I32,
    I64,
}

impl Width {
    /// Values in a miniblock (the Arrow writer's layout).
    fn mini(self) -> usize {
        match self {
            Width::I32 => 32,
            Width::I64 => 64,
        }
    }

    /// A value as the column index holds it (little-endian, own width).
    fn bytes(self, v: i64) -> Vec<u8> {
        match self {
            Width::I32 => (v as i32).to_le_bytes().to_vec(),
            Width::I64 => v.to_le_bytes().to_vec(),
        }
    }
}

/// The integer types read, each as an i64 (32-bit ones sign-extended, as
/// the Arrow writer reads unsigned ones as the signed integers of their
/// bits).
trait Key: Copy {
    const WIDTH: Width;
    fn get(self) -> i64;

    /// A value (as `get` gives it) as a number that compares, as a signed
    /// one, as the value does in the column's order (unsigned for unsigned
    /// types).
    #[inline(always)]
    fn key(v: i64) -> i64 {
        v
    }

    /// The value (as `get` gives it) of a `key`.
    fn unkey(k: i64) -> i64 {
        k
    }

    /// `a - b` as the column's integers subtract (wrapping).
    #[inline(always)]
    fn sub(a: i64, b: i64) -> i64 {
        match Self::WIDTH {
            Width::I32 => (a as i32).wrapping_sub(b as i32) as i64,
            Width::I64 => a.wrapping_sub(b),
        }
    }

    /// `a - b` as the unsigned number of the column's width.
    #[inline(always)]
    fn sub_unsigned(a: i64, b: i64) -> u64 {
        match Self::WIDTH {
            Width::I32 => (a as i32).wrapping_sub(b as i32) as u32 as u64,
            Width::I64 => a.wrapping_sub(b) as u64,
        }
    }
}

impl Key for i32 {
    const WIDTH: Width = Width::I32;
    fn get(self) -> i64 {
        self as i64
    }
}

impl Key for u32 {
    const WIDTH: Width = Width::I32;
    fn get(self) -> i64 {
        self as i32 as i64
    }
    #[inline(always)]
    fn key(v: i64) -> i64 {
        v as u32 as i64
    }
    fn unkey(k: i64) -> i64 {
        k as u32 as i32 as i64
    }
}

impl Key for i64 {
    const WIDTH: Width = Width::I64;
    fn get(self) -> i64 {
        self
    }
}

impl Key for u64 {
    const WIDTH: Width = Width::I64;
    fn get(self) -> i64 {
        self as i64
    }
    #[inline(always)]
    fn key(v: i64) -> i64 {
        v ^ i64::MIN
    }
    fn unkey(k: i64) -> i64 {
        k ^ i64::MIN
    }
}

/// Deltas in a block, at most (64-bit values).
const MAX_BLOCK: usize = 64 * MINIBLOCKS;

/// The page being filled.
struct Page {
    rows: usize,
    first: i64,
    last: i64,
    /// The smallest and largest value so far, as keys (see `Key::key`).
    min: i64,
    max: i64,
    /// Deltas of the block being filled: the first `filled`.
    deltas: Box<[i64; MAX_BLOCK]>,
    filled: usize,
    /// The blocks packed so far.
    blocks: Vec<u8>,
}

impl Page {
    fn new() -> Page {
        Page {
            rows: 0,
            first: 0,
            last: 0,
            min: 0,
            max: 0,
            deltas: Box::new([0; MAX_BLOCK]),
            filled: 0,
            blocks: Vec::new(),
        }
    }

    /// Appends values: their minimum and maximum in one pass (statistics
    /// only), their deltas in another, a block packed when full.
    #[inline(never)]
    fn values<T: Key>(&mut self, mut v: &[T], statistics: bool) {
        let Some(&x) = v.first() else { return };
        if self.rows == 0 {
            let x = x.get();
            (self.first, self.last) = (x, x);
            (self.min, self.max) = (T::key(x), T::key(x));
            self.rows = 1;
            v = &v[1..];
        }
        if statistics {
            let (mut min, mut max) = (self.min, self.max);
            for &x in v {
                let k = T::key(x.get());
                min = min.min(k);
                max = max.max(k);
            }
            (self.min, self.max) = (min, max);
        }
        self.rows += v.len();
        let block = T::WIDTH.mini() * MINIBLOCKS;
        let mut last = self.last;
        while !v.is_empty() {
            let take = (block - self.filled).min(v.len());
            let (now, rest) = v.split_at(take);
            let out = &mut self.deltas[self.filled..self.filled + take];
            for (d, &x) in out.iter_mut().zip(now) {
                let x = x.get();
                *d = T::sub(x, last);
                last = x;
            }
            self.filled += take;
            if self.filled == block {
                pack_block::<T>(&mut self.blocks, &self.deltas[..block]);
                self.filled = 0;
            }
            v = rest;
        }
        self.last = last;
    }

    /// The page's values encoded: the header, then the blocks, the last
    /// one packed now.
    fn finish(&mut self, buf: &mut Vec<u8>, width: Width) {
        if self.filled > 0 {
            let deltas = &self.deltas[..self.filled];
            match width {
                Width::I32 => pack_block::<i32>(&mut self.blocks, deltas),
                Width::I64 => pack_block::<i64>(&mut self.blocks, deltas),
            }
        }
        varint(buf, (width.mini() * MINIBLOCKS) as u64);
        varint(buf, MINIBLOCKS as u64);
        varint(buf, self.rows as u64);
        zigzag(buf, self.first);
        buf.extend_from_slice(&self.blocks);
    }

    fn clear(&mut self) {
        self.rows = 0;
        self.filled = 0;
        self.blocks.clear();
    }
}

/// One block of deltas (at most a block's worth): the smallest, each
/// miniblock's width above it, then the miniblocks packed (the last padded
/// with zeros; miniblocks past the deltas have width 0 and no bytes).
fn pack_block<T: Key>(buf: &mut Vec<u8>, deltas: &[i64]) {
    let mini = T::WIDTH.mini();
    let min = deltas.iter().fold(i64::MAX, |m, &d| m.min(d));
    zigzag(buf, min);
    let at = buf.len();
    buf.extend_from_slice(&[0; MINIBLOCKS]);
    for (m, part) in deltas.chunks(mini).enumerate() {
        // (The width of the largest is the width of all of them or'ed.)
        let any = part.iter().fold(0, |a, &d| a | T::sub_unsigned(d, min));
        let bits = 64 - any.leading_zeros();
        buf[at + m] = bits as u8;
        if bits == 0 {
            continue;
        }
        // Bits least significant first, a miniblock (a multiple of eight
        // values) filling whole bytes; the last one padded with zeros.
        let padded = (part.iter().map(|&d| T::sub_unsigned(d, min)))
            .chain(std::iter::repeat(0))
            .take(mini);
        if bits <= 32 {
            let (mut acc, mut have) = (0u64, 0u32);
            for v in padded {
                acc |= v << have;
                have += bits;
                if have >= 32 {
                    buf.extend_from_slice(&(acc as u32).to_le_bytes());
                    acc >>= 32;
                    have -= 32;
                }
            }
            buf.extend_from_slice(&acc.to_le_bytes()[..have.div_ceil(8) as usize]);
        } else {
            let (mut acc, mut have) = (0u128, 0u32);
            for v in padded {
                acc |= (v as u128) << have;
                have += bits;
                if have >= 64 {
                    buf.extend_from_slice(&(acc as u64).to_le_bytes());
                    acc >>= 64;
                    have -= 64;
                }
            }
            buf.extend_from_slice(&acc.to_le_bytes()[..have.div_ceil(8) as usize]);
        }
    }
}

/// What the chunk's statistics and column index need across its pages.
struct ChunkStats {
    min: Option<i64>,
    max: Option<i64>,
    /// The column index, kept with each page's bounds as keys.
    index: PageIndex<i64>,
}

impl ChunkStats {
    fn new(width: Width) -> ChunkStats {
        ChunkStats {
            min: None,
            max: None,
            index: PageIndex::new(match width {
                Width::I32 => Type::INT32,
                Width::I64 => Type::INT64,
            }),
        }
    }
}

/// Writes one column chunk at a time of a flat integer column without
/// nulls, DELTA_BINARY_PACKED.
pub struct DeltaPages {
    /// Int32, UInt32, Int64 or UInt64.
    data_type: DataType,
    chunk: Chunk,
    statistics: bool,
    page_bytes: usize,
    page_rows: usize,
    /// Rows between limit checks within a write (`write_batch_size`).
    batch_rows: usize,
    page: Page,
    stats: ChunkStats,
    buf: Vec<u8>,
}

impl DeltaPages {
    /// A writer for the leaf `descr` of `field`, or None unless the field is
    /// a flat 32- or 64-bit integer column without nulls, DELTA_BINARY_PACKED
    /// without a dictionary, page or no statistics, `plain_settings`, a codec
    /// it knows, and a data page size limit no mini-batch of the Arrow writer
    /// can pass (which would make it cut its mini-batches by size).
    pub fn new(field: &Field, descr: ColumnDescPtr, props: &WriterProperties) -> Option<Self> {
        let path = descr.path();
        let width = match (field.data_type(), descr.physical_type()) {
            (DataType::Int32 | DataType::UInt32, Type::INT32) => Width::I32,
            (DataType::Int64 | DataType::UInt64, Type::INT64) => Width::I64,
            _ => return None,
        };
        let statistics = props.statistics_enabled(path);
        let page_bytes = props.data_page_size_limit();
        let batch_rows = props.write_batch_size().max(1);
        let value_bytes = match width {
            Width::I32 => 4,
            Width::I64 => 8,
        };
        let writable = !field.is_nullable()
            && descr.max_rep_level() == 0
            && descr.max_def_level() == 0
            && plain_settings(props, path)
            && props.encoding(path) == Some(Encoding::DELTA_BINARY_PACKED)
            && !props.dictionary_enabled(path)
            && matches!(
                statistics,
                EnabledStatistics::Page | EnabledStatistics::None
            )
            && batch_rows.saturating_mul(value_bytes) <= page_bytes;
        if !writable {
            return None;
        }
        let offset_index = !props.offset_index_disabled();
        let compression = props.compression(path);
        Some(DeltaPages {
            data_type: field.data_type().clone(),
            chunk: Chunk::new(descr, compression, offset_index, false)?,
            statistics: statistics == EnabledStatistics::Page,
            page_bytes,
            page_rows: props.data_page_row_count_limit().max(1),
            batch_rows,
            page: Page::new(),
            stats: ChunkStats::new(width),
            buf: Vec::new(),
        })
    }

    fn width(&self) -> Width {
        match self.data_type {
            DataType::Int32 | DataType::UInt32 => Width::I32,
            _ => Width::I64,
        }
    }

    /// A page's minimum or maximum key as its value (`Key::unkey`).
    fn unkey(&self, k: i64) -> i64 {
        match self.data_type {
            DataType::UInt32 => u32::unkey(k),
            DataType::UInt64 => u64::unkey(k),
            _ => k,
        }
    }

    fn flush_page(&mut self) -> Result<()> {
        if self.page.rows == 0 {
            return Ok(());
        }
        let w = self.width();
        self.buf.clear();
        self.page.finish(&mut self.buf, w);
        let rows = self.page.rows;
        self.chunk
            .data_page(&self.buf, rows, rows, Encoding::DELTA_BINARY_PACKED, 0)?;
        if self.statistics {
            // (Compared as keys, kept as keys until written.)
            let (min, max) = (self.page.min, self.page.max);
            let entry = (w.bytes(self.unkey(min)), w.bytes(self.unkey(max)));
            let s = &mut self.stats;
            s.min = Some(s.min.map_or(min, |m| m.min(min)));
            s.max = Some(s.max.map_or(max, |m| m.max(max)));
            s.index.page((min, max), i64::lt, entry, 0);
        }
        self.page.clear();
        Ok(())
    }

    /// Checks the page limits, as the Arrow writer does after a mini-batch.
    fn check(&mut self) -> Result<()> {
        let p = &self.page;
        if p.rows >= self.page_rows || p.blocks.len() >= self.page_bytes {
            self.flush_page()?;
        }
        Ok(())
    }
}

/// The values of an integer array of the column's width.
enum Values<'a> {
    I32(&'a [i32]),
    U32(&'a [u32]),
    I64(&'a [i64]),
    U64(&'a [u64]),
}

impl Values<'_> {
    fn len(&self) -> usize {
        match self {
            Values::I32(v) => v.len(),
            Values::U32(v) => v.len(),
            Values::I64(v) => v.len(),
            Values::U64(v) => v.len(),
        }
    }
}

impl Pages for DeltaPages {
    /// Appends the rows of integer arrays (of the column's width, without
    /// nulls), the parts in order, as one write of their rows.
    fn write(&mut self, parts: &[&dyn Array]) -> Result<()> {
        let wrong = || ParquetError::General(format!("expected {} values", self.data_type));
        let mut all = Vec::with_capacity(parts.len());
        for array in parts {
            if array.null_count() > 0 {
                return Err(ParquetError::General(
                    "null values in a column that cannot hold them".into(),
                ));
            }
            if *array.data_type() != self.data_type {
                return Err(wrong());
            }
            all.push(match array.data_type() {
                DataType::Int32 => Values::I32(array.as_primitive::<Int32Type>().values()),
                DataType::UInt32 => Values::U32(array.as_primitive::<UInt32Type>().values()),
                DataType::Int64 => Values::I64(array.as_primitive::<Int64Type>().values()),
                DataType::UInt64 => Values::U64(array.as_primitive::<UInt64Type>().values()),
                _ => return Err(wrong()),
            });
        }
        let len: usize = parts.iter().map(|a| a.len()).sum();
        // The part being read and the next row of it; the rows left before
        // the next check.
        let (mut part, mut at) = (0, 0);
        let mut left = self.batch_rows;
        let mut done = 0;
        while done < len {
            let n = all[part].len();
            let k = left.min(n - at);
            let (page, s) = (&mut self.page, self.statistics);
            match &all[part] {
                Values::I32(v) => page.values(&v[at..at + k], s),
                Values::U32(v) => page.values(&v[at..at + k], s),
                Values::I64(v) => page.values(&v[at..at + k], s),
                Values::U64(v) => page.values(&v[at..at + k], s),
            }
            (at, left, done) = (at + k, left - k, done + k);
            if at == n {
                (part, at) = (part + 1, 0);
            }
            if left == 0 || done == len {
                self.check()?;
                left = self.batch_rows;
            }
        }
        Ok(())
    }

    /// Bytes this chunk will take, roughly (pages written plus the blocks of
    /// the one being filled).
    fn estimated_bytes(&self) -> usize {
        self.chunk.bytes_written() + self.page.blocks.len()
    }

    /// The chunk written since the last call, as its bytes and the close
    /// result a row group takes (offsets relative to the bytes); the writer
    /// is then ready for the next chunk.
    fn finish_chunk(&mut self) -> Result<(ChunkBytes, ColumnCloseResult)> {
        self.flush_page()?;
        let fresh = ChunkStats::new(self.width());
        let s = std::mem::replace(&mut self.stats, fresh);
        let column_index = match self.statistics {
            true => Some(s.index.build()?),
            false => None,
        };
        let (min, max) = (s.min.map(|k| self.unkey(k)), s.max.map(|k| self.unkey(k)));
        // Signed values also fill the deprecated min and max fields, as the
        // Arrow writer fills them.
        let signed = matches!(self.data_type, DataType::Int32 | DataType::Int64);
        let stats = self.statistics.then(|| match self.width() {
            Width::I32 => Statistics::Int32(
                ValueStatistics::new(
                    min.map(|v| v as i32),
                    max.map(|v| v as i32),
                    None,
                    Some(0),
                    false,
                )
                .with_backwards_compatible_min_max(signed),
            ),
            Width::I64 => Statistics::Int64(
                ValueStatistics::new(min, max, None, Some(0), false)
                    .with_backwards_compatible_min_max(signed),
            ),
        });
        self.chunk
            .finish(None, with_statistics(stats), column_index)
    }
}

#[cfg(test)]
mod tests {
    use super::super::chunk::testing::{self, read};
    use super::*;
    use arrow_array::{ArrayRef, Int32Array, Int64Array, UInt32Array, UInt64Array};
    use arrow_schema::Schema;
    use bytes::Bytes;
    use parquet::basic::BoundaryOrder;
    use parquet::basic::Compression;
    use proptest::prelude::*;
    use std::sync::Arc;

    fn props(
        c: Compression,
        statistics: bool,
        page_rows: usize,
        batch_rows: usize,
    ) -> WriterProperties {
        testing::settings(c, statistics, page_rows, batch_rows)
            .set_dictionary_enabled(false)
            .set_encoding(Encoding::DELTA_BINARY_PACKED)
            .build()
    }

    fn field(array: &ArrayRef) -> Field {
        Field::new("v", array.data_type().clone(), false)
    }

    /// The file built here and the Arrow writer's ([`testing::both`]).
    fn both(array: &ArrayRef, p: &WriterProperties, piece: usize, one: bool) -> (Bytes, Bytes) {
        let field = field(array);
        testing::both(&field, array, p, piece, one, |descr| {
            DeltaPages::new(&field, descr, p)
        })
    }

    fn assert_same_bytes(array: &ArrayRef, p: &WriterProperties, piece: usize, one: bool) {
        let (ours, theirs) = both(array, p, piece, one);
        let what = format!("{:?}, piece {piece}, one write {one}", array.data_type());
        testing::assert_same_file(ours, theirs, array, &what);
    }

    /// Keys as a table holds them: runs of one value, steps up, and a
    /// jump; then values of every width, the extremes, and wrapping deltas.
    fn keys(n: u64) -> Vec<u64> {
        (0..n)
            .map(|i| match i {
                _ if i < n / 2 => i / 19 + (i / 500) * 1_000_000,
                _ if i % 7 == 0 => u64::MAX - i,
                _ if i % 5 == 0 => i.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                _ => i % 300,
            })
            .collect()
    }

    #[test]
    fn every_integer_type_is_written_byte_for_byte_as_the_arrow_writer_writes_it() {
        let k = keys(3_000);
        let arrays: Vec<ArrayRef> = vec![
            Arc::new(UInt64Array::from(k.clone())),
            Arc::new(Int64Array::from_iter_values(k.iter().map(|&v| v as i64))),
            Arc::new(UInt32Array::from_iter_values(k.iter().map(|&v| v as u32))),
            Arc::new(Int32Array::from_iter_values(k.iter().map(|&v| v as i32))),
        ];
        for array in &arrays {
            for (c, statistics, rows, batch) in testing::cases() {
                let p = props(c, statistics, rows, batch);
                assert_same_bytes(array, &p, 1_000, false);
                assert_same_bytes(array, &p, 257, true);
            }
        }
    }

    #[test]
    fn sorted_pages_have_an_ascending_index_and_unsigned_bounds() {
        // Values past i64::MAX: the bounds compare unsigned (the largest is
        // u64::MAX, not -1), and pages of rising keys are ASCENDING.
        let a: ArrayRef = Arc::new(UInt64Array::from_iter_values(
            (0..2_000u64).map(|i| u64::MAX - 2_000 + i),
        ));
        let p = props(Compression::UNCOMPRESSED, true, 500, 100);
        assert_same_bytes(&a, &p, 300, false);
        let (ours, _) = both(&a, &p, 300, false);
        let (_, meta) = read(ours, None);
        let c = meta.row_group(0).column(0);
        match c.statistics() {
            Some(Statistics::Int64(s)) => {
                assert_eq!(*s.min_opt().unwrap() as u64, u64::MAX - 2_000);
                assert_eq!(*s.max_opt().unwrap() as u64, u64::MAX - 1);
            }
            s => panic!("unexpected statistics {s:?}"),
        }
        let group = meta.page_index_for_row_group(0);
        let index = group.column_index(0).unwrap();
        assert_eq!(index.get_boundary_order(), Some(BoundaryOrder::ASCENDING));
        let pages = group.offset_index(0).unwrap();
        let firsts: Vec<i64> = pages
            .page_locations
            .iter()
            .map(|l| l.first_row_index)
            .collect();
        assert_eq!(firsts, [0, 500, 1_000, 1_500]);
    }

    #[test]
    fn columns_it_does_not_write_are_left_to_the_arrow_writer() {
        let field = Field::new("v", DataType::Int64, false);
        testing::assert_settings_left_to_the_arrow_writer(
            &field,
            || {
                WriterProperties::builder()
                    .set_dictionary_enabled(false)
                    .set_encoding(Encoding::DELTA_BINARY_PACKED)
            },
            |base| {
                vec![
                    base().set_dictionary_enabled(true),
                    base().set_encoding(Encoding::PLAIN),
                    base().set_statistics_enabled(EnabledStatistics::Chunk),
                    // A page limit one mini-batch could pass.
                    base().set_data_page_size_limit(1024 * 8 - 1),
                ]
            },
            |descr, p| DeltaPages::new(&field, descr, p).is_some(),
        );
        // Nullable columns and other types are not taken either.
        let p = props(Compression::UNCOMPRESSED, true, 100, 10);
        for f in [
            Field::new("v", DataType::Int64, true),
            Field::new("v", DataType::Utf8, false),
            Field::new("v", DataType::Int16, false),
        ] {
            let schema = Schema::new(vec![f.clone()]);
            let descr = parquet::arrow::ArrowSchemaConverter::new()
                .convert(&schema)
                .unwrap()
                .column(0);
            assert!(DeltaPages::new(&f, descr, &p).is_none(), "{f:?}");
        }
    }

    #[test]
    fn nulls_and_arrays_of_another_type_are_errors() {
        let a: ArrayRef = Arc::new(Int64Array::from(vec![Some(1), None]));
        let field = Field::new("v", DataType::Int64, false);
        let p = props(Compression::UNCOMPRESSED, true, 100, 10);
        let schema = Schema::new(vec![field.clone()]);
        let descr = parquet::arrow::ArrowSchemaConverter::new()
            .convert(&schema)
            .unwrap()
            .column(0);
        let mut w = DeltaPages::new(&field, descr, &p).unwrap();
        let err = w.write(&[a.as_ref()]).unwrap_err().to_string();
        assert!(err.contains("null values"), "{err}");
        let b: ArrayRef = Arc::new(UInt64Array::from(vec![1u64]));
        let err = w.write(&[b.as_ref()]).unwrap_err().to_string();
        assert!(err.contains("expected Int64 values"), "{err}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn any_values_and_writes_make_the_arrow_writer_s_bytes(
            values in proptest::collection::vec(
                prop_oneof![0u64..3, 0u64..100_000, any::<u64>()], 1..1_500),
            piece in 1usize..700,
            one in any::<bool>(),
            rows in 1usize..600,
            batch in 1usize..300,
            statistics in any::<bool>(),
            wide in any::<bool>(),
        ) {
            let array: ArrayRef = match wide {
                true => Arc::new(Int64Array::from_iter_values(values.iter().map(|&v| v as i64))),
                false => Arc::new(Int32Array::from_iter_values(values.iter().map(|&v| v as i32))),
            };
            let p = props(Compression::SNAPPY, statistics, rows, batch);
            let (ours, theirs) = both(&array, &p, piece, one);
            prop_assert!(ours == theirs);
        }
    }
}
