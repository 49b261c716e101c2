//! Flat boolean columns without nulls (a trick's `complete`) encoded into
//! PLAIN pages here.
//!
//! The Arrow writer gathers such a column's values into a vector of bools
//! and puts them through its bit writer one at a time, then finds their
//! minimum and maximum value by value. Here a page's bits are copied 64 at a
//! time from the Arrow array and its minimum and maximum follow from how
//! many of them are set.
//!
//! What is written is what the Arrow writer writes with the same settings,
//! byte for byte: PLAIN values (booleans have no dictionary), pages cut
//! after every `write_batch_size` rows of a write and at its end once they
//! reach the row limit or the size limit (the bytes of the bits), chunk
//! statistics, a column index (page minimum and maximum, boundary order) and
//! an offset index.

use arrow_array::Array;
use arrow_array::cast::AsArray;
use arrow_schema::{DataType, Field};
use parquet::basic::{Encoding, Type};
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::{ParquetError, Result};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::statistics::{Statistics, ValueStatistics};
use parquet::schema::types::ColumnDescPtr;

use super::chunk::{Chunk, ChunkBytes, PageIndex, Pages, plain_settings, with_statistics};
use super::flat_pages::append_bits;

/// Writes one column chunk at a time of a flat boolean column without
/// nulls.
pub struct BoolPages {
    chunk: Chunk,
    statistics: bool,
    page_bytes: usize,
    page_rows: usize,
    /// Rows between limit checks within a write (`write_batch_size`).
    batch_rows: usize,
    /// The page's values, a bit each, and how many are set.
    bits: Vec<u64>,
    rows: usize,
    ones: usize,
    /// The chunk's statistics: whether a value was false, or true; the
    /// column index.
    any_false: bool,
    any_true: bool,
    index: PageIndex<u8>,
    buf: Vec<u8>,
}

impl BoolPages {
    /// A writer for the leaf `descr` of `field`, or None unless the field is
    /// a flat boolean column without nulls, PLAIN (the default), page or no
    /// statistics, `plain_settings`, a codec it knows, and a data page size
    /// limit no mini-batch of the Arrow writer can pass.
    pub fn new(field: &Field, descr: ColumnDescPtr, props: &WriterProperties) -> Option<Self> {
        let path = descr.path();
        let statistics = props.statistics_enabled(path);
        let page_bytes = props.data_page_size_limit();
        let batch_rows = props.write_batch_size().max(1);
        let writable = *field.data_type() == DataType::Boolean
            && descr.physical_type() == Type::BOOLEAN
            && !field.is_nullable()
            && descr.max_rep_level() == 0
            && descr.max_def_level() == 0
            && plain_settings(props, path)
            && matches!(props.encoding(path), None | Some(Encoding::PLAIN))
            && matches!(
                statistics,
                EnabledStatistics::Page | EnabledStatistics::None
            )
            && batch_rows <= page_bytes;
        if !writable {
            return None;
        }
        let offset_index = !props.offset_index_disabled();
        let compression = props.compression(path);
        Some(BoolPages {
            chunk: Chunk::new(descr, compression, offset_index, false)?,
            statistics: statistics == EnabledStatistics::Page,
            page_bytes,
            page_rows: props.data_page_row_count_limit().max(1),
            batch_rows,
            bits: Vec::new(),
            rows: 0,
            ones: 0,
            any_false: false,
            any_true: false,
            index: PageIndex::new(Type::BOOLEAN),
            buf: Vec::new(),
        })
    }

    fn flush_page(&mut self) -> Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        self.buf.clear();
        let bytes = self.bits.iter().flat_map(|w| w.to_le_bytes());
        self.buf.extend(bytes.take(self.rows.div_ceil(8)));
        let rows = self.rows;
        self.chunk
            .data_page(&self.buf, rows, rows, Encoding::PLAIN, 0)?;
        if self.statistics {
            let (min, max) = (self.ones == rows, self.ones > 0);
            self.any_false |= !min;
            self.any_true |= max;
            // (Compared as the bytes the index holds, false before true.)
            let (min, max) = (min as u8, max as u8);
            (self.index).page((min, max), u8::lt, (vec![min], vec![max]), 0);
        }
        self.bits.clear();
        self.rows = 0;
        self.ones = 0;
        Ok(())
    }
}

impl Pages for BoolPages {
    /// Appends the rows of boolean arrays without nulls, the parts in
    /// order, as one write of their rows.
    fn write(&mut self, parts: &[&dyn Array]) -> Result<()> {
        let mut all = Vec::with_capacity(parts.len());
        for array in parts {
            if array.null_count() > 0 {
                return Err(ParquetError::General(
                    "null values in a column that cannot hold them".into(),
                ));
            }
            let values = array
                .as_boolean_opt()
                .ok_or_else(|| ParquetError::General("expected Boolean values".into()))?
                .values();
            all.push(values);
        }
        let len: usize = all.iter().map(|v| v.len()).sum();
        let (mut part, mut at) = (0, 0);
        let mut left = self.batch_rows;
        let mut done = 0;
        while done < len {
            let values = all[part];
            let k = left.min(values.len() - at);
            let bits = Some((values.values(), values.offset() + at));
            self.ones += append_bits(&mut self.bits, self.rows, bits, k);
            self.rows += k;
            (at, left, done) = (at + k, left - k, done + k);
            if at == values.len() {
                (part, at) = (part + 1, 0);
            }
            if left == 0 || done == len {
                if self.rows >= self.page_rows || self.rows.div_ceil(8) >= self.page_bytes {
                    self.flush_page()?;
                }
                left = self.batch_rows;
            }
        }
        Ok(())
    }

    /// Bytes this chunk will take, roughly (pages written plus the one being
    /// filled).
    fn estimated_bytes(&self) -> usize {
        self.chunk.bytes_written() + self.rows.div_ceil(8)
    }

    /// The chunk written since the last call, as its bytes and the close
    /// result a row group takes (offsets relative to the bytes); the writer
    /// is then ready for the next chunk.
    fn finish_chunk(&mut self) -> Result<(ChunkBytes, ColumnCloseResult)> {
        self.flush_page()?;
        let index = std::mem::replace(&mut self.index, PageIndex::new(Type::BOOLEAN));
        let column_index = match self.statistics {
            true => Some(index.build()?),
            false => None,
        };
        let (any_false, any_true) = (self.any_false, self.any_true);
        let stats = self.statistics.then(|| {
            let seen = any_false || any_true;
            Statistics::Boolean(
                ValueStatistics::new(
                    seen.then_some(!any_false),
                    seen.then_some(any_true),
                    None,
                    Some(0),
                    false,
                )
                .with_backwards_compatible_min_max(false),
            )
        });
        (self.any_false, self.any_true) = (false, false);
        self.chunk
            .finish(None, with_statistics(stats), column_index)
    }
}

#[cfg(test)]
mod tests {
    use super::super::chunk::testing;
    use super::*;
    use arrow_array::{ArrayRef, BooleanArray};
    use arrow_schema::Schema;
    use bytes::Bytes;
    use parquet::basic::Compression;
    use proptest::prelude::*;
    use std::sync::Arc;

    fn props(c: Compression, statistics: bool, page_rows: usize, batch: usize) -> WriterProperties {
        testing::settings(c, statistics, page_rows, batch).build()
    }

    /// The file built here and the Arrow writer's ([`testing::both`]).
    fn both(array: &ArrayRef, p: &WriterProperties, piece: usize, one: bool) -> (Bytes, Bytes) {
        let field = Field::new("v", DataType::Boolean, false);
        testing::both(&field, array, p, piece, one, |descr| {
            BoolPages::new(&field, descr, p)
        })
    }

    fn assert_same_bytes(array: &ArrayRef, p: &WriterProperties, piece: usize, one: bool) {
        let (ours, theirs) = both(array, p, piece, one);
        let what = format!("piece {piece}, one write {one}");
        testing::assert_same_file(ours, theirs, array, &what);
    }

    #[test]
    fn booleans_are_written_byte_for_byte_as_the_arrow_writer_writes_them() {
        // Runs of true (every page's minimum true), of false, and mixed.
        let values: Vec<bool> = (0..5_000)
            .map(|i| match i {
                _ if i < 1_500 => true,
                _ if i < 2_300 => false,
                _ => i % 19 != 0,
            })
            .collect();
        let a: ArrayRef = Arc::new(BooleanArray::from(values));
        for (c, statistics, rows, batch) in testing::cases() {
            let p = props(c, statistics, rows, batch);
            assert_same_bytes(&a, &p, 1_000, false);
            assert_same_bytes(&a, &p, 257, true);
            // A slice starting inside a byte.
            assert_same_bytes(&a.slice(3, 4_000), &p, 77, false);
        }
    }

    #[test]
    fn columns_it_does_not_write_are_left_to_the_arrow_writer() {
        let field = Field::new("v", DataType::Boolean, false);
        testing::assert_settings_left_to_the_arrow_writer(
            &field,
            WriterProperties::builder,
            |base| {
                vec![
                    base().set_encoding(Encoding::RLE),
                    base().set_statistics_enabled(EnabledStatistics::Chunk),
                    base().set_data_page_size_limit(1023),
                ]
            },
            |descr, p| BoolPages::new(&field, descr, p).is_some(),
        );
        let nullable = Field::new("v", DataType::Boolean, true);
        let schema = Schema::new(vec![nullable.clone()]);
        let descr = parquet::arrow::ArrowSchemaConverter::new()
            .convert(&schema)
            .unwrap()
            .column(0);
        let p = WriterProperties::builder().build();
        assert!(BoolPages::new(&nullable, descr, &p).is_none());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn any_values_and_writes_make_the_arrow_writer_s_bytes(
            values in proptest::collection::vec(any::<bool>(), 1..1_500),
            skip in 0usize..9,
            piece in 1usize..700,
            one in any::<bool>(),
            rows in 1usize..600,
            batch in 1usize..300,
            statistics in any::<bool>(),
        ) {
            let a: ArrayRef = Arc::new(BooleanArray::from(values));
            let a = a.slice(skip.min(a.len() - 1), a.len() - skip.min(a.len() - 1));
            let p = props(Compression::SNAPPY, statistics, rows, batch);
            let (ours, theirs) = both(&a, &p, piece, one);
            prop_assert!(ours == theirs);
        }
    }
}
