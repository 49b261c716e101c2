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
use parquet::basic::Encoding;
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::{ParquetError, Result};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnDescPtr;

use super::chunk::{Chunk, ChunkBytes, Pages, plain_settings};
use super::encode::{
    bit_packed, bit_width, delta_packed, end_levels, pack_small, rle_run, start_levels,
};

/// The levels and values of the page being filled.
struct PageBuf {
    rows: usize,
    levels: usize,
    /// Bit `i` is set where level `i` starts a row (repetition level 0;
    /// the others are 1): a bit a row, not one a level.
    starts: Vec<u64>,
    /// Definition levels so far.
    defs: usize,
    /// The definition level of every level so far, while they are equal.
    def_first: Option<u8>,
    /// Every definition level, once they differ.
    def: Vec<u8>,
    def_mixed: bool,
    /// Values so far.
    items: usize,
    /// Every value so far is two bytes long (a card): their lengths are
    /// then not stored.
    all_two: bool,
    /// The length of every value, once one is not two bytes long.
    lengths: Vec<i32>,
    bytes: Vec<u8>,
}

impl Default for PageBuf {
    fn default() -> Self {
        PageBuf {
            rows: 0,
            levels: 0,
            starts: Vec::new(),
            defs: 0,
            def_first: None,
            def: Vec::new(),
            def_mixed: false,
            items: 0,
            all_two: true,
            lengths: Vec::new(),
            bytes: Vec::new(),
        }
    }
}

impl PageBuf {
    fn clear(&mut self) {
        self.rows = 0;
        self.levels = 0;
        self.starts.clear();
        self.defs = 0;
        self.def_first = None;
        self.def.clear();
        self.def_mixed = false;
        self.items = 0;
        self.all_two = true;
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
            // (The lengths are stored only once one is not 2.)
            if !(self.all_two && ends.windows(2).all(|w| w[1] - w[0] == 2)) {
                self.lengths_written();
                self.lengths.extend(ends.windows(2).map(|w| w[1] - w[0]));
            }
            self.items += to - from;
            self.bytes
                .extend_from_slice(&data[ends[0] as usize..ends[to - from] as usize]);
        }
    }

    /// Stores the lengths of the values so far, if they are not stored yet
    /// (all two bytes long).
    fn lengths_written(&mut self) {
        if self.all_two {
            self.all_two = false;
            self.lengths.clear();
            self.lengths.resize(self.items, 2);
        }
    }

    /// One row of `n` items (an empty or null list has one level):
    /// repetition level 0, then 1 for the rest.
    #[inline]
    fn row(&mut self, n: usize) {
        let at = self.levels;
        let word = at / 64;
        if word >= self.starts.len() {
            self.starts.resize(word + 1, 0);
        }
        self.starts[word] |= 1 << (at % 64);
        self.levels = at + n.max(1);
        self.rows += 1;
    }

    /// Encoded size so far, roughly: what decides when a page is full.
    fn size(&self) -> usize {
        self.size_with(0, 0)
    }

    /// [`size`](Self::size) once `items` more values of `bytes` bytes in
    /// all are copied in.
    #[inline]
    fn size_with(&self, bytes: usize, items: usize) -> usize {
        self.bytes.len() + bytes + (self.items + items) / 2 + self.levels / 4
    }
}

/// The repetition levels of `levels` levels, whose rows start where
/// `starts` has a bit set, appended to `out` as bits, a byte holding eight:
/// 1 but where a row starts, and 0 past the last level.
fn rep_bits(starts: &[u64], levels: usize, out: &mut Vec<u8>) {
    let words = levels.div_ceil(64);
    let tail = levels % 64;
    out.extend((0..words).flat_map(|w| {
        let mut rep = !starts.get(w).copied().unwrap_or(0);
        if w + 1 == words && tail != 0 {
            rep &= (1u64 << tail) - 1;
        }
        rep.to_le_bytes()
    }));
}

/// Writes one column chunk at a time of a list-of-strings leaf.
pub struct ListPages {
    chunk: Chunk,
    page_bytes: usize,
    page_rows: usize,
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
    indices: Vec<u8>,
    /// Scratch: a page's levels and values, and bits being packed.
    plain: Vec<u8>,
    scratch: Vec<u8>,
}

impl ListPages {
    /// A writer for the leaf `descr` of `field`, or None unless the field is
    /// a list of strings (one repeated level) with settings this module
    /// writes: no statistics, DELTA_LENGTH_BYTE_ARRAY values (alone or as
    /// the dictionary's fallback), `plain_settings` and a codec it knows.
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
            && plain_settings(props, path);
        if !writable {
            return None;
        }
        let dictionary = props.dictionary_enabled(path);
        let offset_index = !props.offset_index_disabled();
        let compression = props.compression(path);
        Some(ListPages {
            chunk: Chunk::new(descr, compression, offset_index, true)?,
            page_bytes: props.data_page_size_limit().max(1),
            page_rows: props.data_page_row_count_limit().max(1),
            def_empty,
            def_item_null: def_empty + 1,
            def_item,
            page: PageBuf::default(),
            dict: dictionary.then(|| Box::new(Dict::new())),
            dict_on: dictionary,
            indices: Vec::new(),
            plain: Vec::new(),
            scratch: Vec::new(),
        })
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
            rep_bits(&p.starts, p.levels, bits);
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
            rle_run(buf, p.def_first.unwrap_or(0).into(), p.levels, width);
        }
        end_levels(buf, at);
        // Values: indices into the dictionary while every value fits it,
        // else (and for a page without values) DELTA_LENGTH_BYTE_ARRAY.
        let fits = self.dict_on && p.items > 0 && p.all_two;
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
                Encoding::RLE_DICTIONARY
            }
            None => {
                self.dict_on &= self.page.items == 0;
                self.page.lengths_written();
                delta_packed(buf, &self.page.lengths);
                buf.extend_from_slice(&self.page.bytes);
                Encoding::DELTA_LENGTH_BYTE_ARRAY
            }
        };

        let p = &self.page;
        self.chunk
            .data_page(buf, p.levels, p.rows, encoding, p.bytes.len() as i64)?;
        self.page.clear();
        Ok(())
    }
}

impl ListPages {
    /// Appends the rows of a list-of-strings array. Where its rows end a
    /// page does not depend on where the arrays of a run meet: the size
    /// checked counts the items not yet copied as they will count once
    /// copied.
    fn write_one(&mut self, array: &dyn Array) -> Result<()> {
        let list: &ListArray = array
            .as_list_opt()
            .ok_or_else(|| ParquetError::General("expected a list array".into()))?;
        let strings = list
            .values()
            .as_string_opt::<i32>()
            .ok_or_else(|| ParquetError::General("expected a list of strings".into()))?;
        let ends = strings.value_offsets();
        let data = strings.value_data();
        let item_nulls = strings.nulls().filter(|n| n.null_count() > 0);
        if list.null_count() == 0 && item_nulls.is_none() {
            // The common case, no null list or item: a loop of its own.
            self.write_rows::<false>(list, ends, data, None)
        } else {
            self.write_rows::<true>(list, ends, data, item_nulls)
        }
    }

    /// [`write_one`](Self::write_one)'s rows, whose lists and items are
    /// all valid unless `NULLS`.
    #[inline(always)]
    fn write_rows<const NULLS: bool>(
        &mut self,
        list: &ListArray,
        ends: &[i32],
        data: &[u8],
        item_nulls: Option<&arrow_buffer::NullBuffer>,
    ) -> Result<()> {
        let lists = list.value_offsets();
        let is_null = |r: usize| NULLS && list.is_null(r);
        // Items of whole lists are copied in runs: `from` is the first item
        // not yet in the page.
        let mut from = lists[0] as usize;
        for r in 0..list.len() {
            let (a, b) = (lists[r] as usize, lists[r + 1] as usize);
            let p = &mut self.page;
            let empty = is_null(r) || a == b;
            if empty {
                if a != b {
                    // (A null list may still cover items: they are not written.)
                    p.values(ends, data, from, a);
                    from = b;
                }
                let d = if is_null(r) { 0 } else { self.def_empty };
                p.defs(d, 1);
            } else if let Some(nulls) = item_nulls.filter(|_| NULLS) {
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
            let pending = (ends[b] - ends[from]) as usize;
            if p.rows >= self.page_rows || p.size_with(pending, b - from) >= self.page_bytes {
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
}

impl Pages for ListPages {
    /// Appends the rows of list-of-strings arrays, the parts in order.
    fn write(&mut self, parts: &[&dyn Array]) -> Result<()> {
        for array in parts {
            self.write_one(*array)?;
        }
        Ok(())
    }

    /// Bytes this chunk will take, roughly (pages written plus the one being
    /// filled).
    fn estimated_bytes(&self) -> usize {
        self.chunk.bytes_written() + self.page.size()
    }

    /// The chunk written since the last call, as its bytes and the close
    /// result a row group takes (offsets relative to the bytes); the writer
    /// is then ready for the next chunk.
    fn finish_chunk(&mut self) -> Result<(ChunkBytes, ColumnCloseResult)> {
        self.flush_page()?;
        let mut plain = Vec::new();
        if let Some(dict) = self.dict.as_deref() {
            plain.reserve(dict.values.len() * 6);
            for v in &dict.values {
                plain.extend_from_slice(&2u32.to_le_bytes());
                plain.extend_from_slice(v);
            }
        }
        let entries = self.dict.as_deref().map_or(0, |d| d.values.len());
        let done = self.chunk.finish(Some((&plain, entries)), |b| b, None)?;
        if let Some(dict) = self.dict.as_deref_mut() {
            dict.clear();
            self.dict_on = true;
        }
        Ok(done)
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

#[cfg(test)]
mod tests {
    use super::super::chunk::testing::{self, concat, file_of};
    use super::*;
    use arrow_array::builder::{ListBuilder, StringBuilder};
    use arrow_array::{ArrayRef, RecordBatch};
    use arrow_buffer::{NullBuffer, OffsetBuffer};
    use arrow_schema::Schema;
    use bytes::Bytes;
    use parquet::arrow::ArrowWriter;
    use parquet::arrow::arrow_reader::{
        ParquetRecordBatchReaderBuilder, RowSelection, RowSelector,
    };
    use parquet::basic::{Compression, PageType, ZstdLevel};
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

    #[test]
    fn settings_it_does_not_write_are_left_to_the_arrow_writer() {
        let field = Field::new("cards", list(&[]).data_type().clone(), true);
        testing::assert_settings_left_to_the_arrow_writer(
            &field,
            || {
                WriterProperties::builder()
                    .set_encoding(Encoding::DELTA_LENGTH_BYTE_ARRAY)
                    .set_statistics_enabled(EnabledStatistics::None)
            },
            |base| {
                vec![
                    base().set_statistics_enabled(EnabledStatistics::Page),
                    base().set_encoding(Encoding::PLAIN),
                ]
            },
            |descr, p| ListPages::new(&field, descr, p).is_some(),
        );
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
        file_of(
            &field,
            array,
            props,
            groups,
            |_| piece,
            false,
            |descr| ListPages::new(&field, descr, props),
        )
    }

    /// [`write`] of one row group, the pieces handed over as the parts of
    /// one call.
    fn write_in_one_call(array: &ArrayRef, props: &WriterProperties, piece: usize) -> Bytes {
        let field = Field::new("cards", array.data_type().clone(), true);
        file_of(
            &field,
            array,
            props,
            1,
            |_| piece,
            true,
            |descr| ListPages::new(&field, descr, props),
        )
    }

    #[test]
    fn pages_end_at_the_same_rows_however_the_lists_are_handed_over() {
        // Pages cut by size (every few rows), with and without a dictionary
        // and null items: the items of a part not yet copied into the page
        // count as they will once copied.
        let array = mixed(3000);
        for dictionary in [false, true] {
            let p = props_with(dictionary, Compression::SNAPPY, 500, 20_000);
            let whole = write(&array, &p, 1, array.len());
            for piece in [1, 7, 333, 2999] {
                assert_eq!(whole, write(&array, &p, 1, piece), "{piece}");
                assert_eq!(whole, write_in_one_call(&array, &p, piece), "{piece}");
            }
        }
    }

    /// The column read back, all row groups, optionally only some rows.
    fn read(bytes: Bytes, selection: Option<RowSelection>) -> Vec<ArrayRef> {
        testing::read(bytes, selection).0
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
        let meta = testing::read(bytes.clone(), None).1;
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
    fn repetition_levels_are_one_but_where_rows_start_and_zero_past_the_end() {
        let mut p = PageBuf::default();
        // Rows of 2, 1 (empty: one level), 3 and 1 items: levels 0 1 0 0 1 1 0.
        for n in [2, 0, 3, 1] {
            p.row(n);
        }
        assert_eq!((p.rows, p.levels), (4, 7));
        let mut out = Vec::new();
        rep_bits(&p.starts, p.levels, &mut out);
        assert_eq!(out, [0b0011_0010, 0, 0, 0, 0, 0, 0, 0]);
        // Across words: a row of 70 items after one of 1.
        let mut p = PageBuf::default();
        p.row(1);
        p.row(70);
        let mut out = Vec::new();
        rep_bits(&p.starts, p.levels, &mut out);
        assert_eq!(out.len(), 16);
        assert_eq!(out[0], 0b1111_1100);
        assert!(out[1..8].iter().all(|&b| b == 0xFF));
        // Levels 64..71 are 1 (the last level is 70): bits 0..7 of word 1.
        assert_eq!(&out[8..], &[0b0111_1111, 0, 0, 0, 0, 0, 0, 0]);
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
        let m = testing::read(bytes.clone(), None).1;
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
        // One row group of `array` in pieces of `piece`: it reads back the
        // same; its dictionary page and data pages by encoding.
        let one_group = |array: &ArrayRef, page_rows, piece| {
            let bytes = write(array, &p(page_rows), 1, piece);
            assert_eq!(concat(&read(bytes.clone(), None)).as_ref(), array.as_ref());
            pages(&bytes, 0)
        };
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
        assert_eq!(
            one_group(&mixed, 30, 100).1,
            [
                (Encoding::RLE_DICTIONARY, 2),
                (Encoding::DELTA_LENGTH_BYTE_ARRAY, 2)
            ]
        );
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
        assert_eq!(
            one_group(&many, 100, 600).1,
            [
                (Encoding::RLE_DICTIONARY, 2),
                (Encoding::DELTA_LENGTH_BYTE_ARRAY, 4)
            ]
        );
        // Nothing but null lists: no dictionary page at all.
        let nulls = list(&vec![None; 50]);
        assert_eq!(
            one_group(&nulls, 20, 50),
            (None, vec![(Encoding::DELTA_LENGTH_BYTE_ARRAY, 3)])
        );
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
            let back = concat(&read(bytes.clone(), None));
            prop_assert_eq!(back.as_ref(), array.as_ref());
            // Pages end where they would for the whole array, however it
            // is handed over.
            prop_assert_eq!(&bytes, &write(&array, &p, 1, array.len()));
            prop_assert_eq!(&bytes, &write_in_one_call(&array, &p, piece));
        }
    }
}
