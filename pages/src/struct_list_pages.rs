//! Lists of structs of required strings and 32-bit integers (a breakdown of
//! melds: meld, count, points; tags left aside: name, value) encoded into
//! Parquet pages here.
//!
//! Through the Arrow writer a breakdown of melds cost about 200 instructions
//! a value (about 33 values a record; `ArrowColumnWriter::write` fell from
//! about 8,800 to 2,300 instructions a record when it left it; callgrind,
//! `convert -j1`, 12,000 records less 3,000): its levels built once per leaf, every
//! value hashed into its
//! leaf's dictionary interner, every level run-length encoded one at a time.
//! Here the levels are worked out once for all the leaves of a write, a
//! value is looked up in the dictionary the flat columns use (`dict`), and
//! levels and indices are packed a page at a time.
//!
//! What is written is what the Arrow writer writes with the same settings
//! (no statistics): per leaf, dictionary pages (RLE_DICTIONARY data pages,
//! PLAIN dictionary page) until its dictionary reaches the size limit, then
//! PLAIN pages for the rest of the chunk, or PLAIN pages throughout without
//! a dictionary; an offset index. Pages are v1 and cut where the Arrow writer
//! cuts them: its limits checked after every `write_batch_size` levels of a
//! write (carried on to the end of a list), or every `data_page_row_count_limit`
//! levels when a write has only empty lists or only null ones, with its
//! estimates of a page's size. (The Arrow writer may also cut a mini-batch short when its values'
//! bytes could pass the dictionary's size limit; the pages here are then cut
//! later, still within the row limit.) Levels and indices are bit-packed
//! rather than run-length encoded, except a page's levels or indices that
//! are all one value, which are one run.

use arrow_array::cast::AsArray;
use arrow_array::types::Int32Type;
use arrow_array::{Array, ListArray};
use arrow_schema::{DataType, Field};
use parquet::basic::Type;
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::{ParquetError, Result};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnDescPtr;

use super::chunk::{Chunk, ChunkBytes, Pages, plain_settings};
use super::dict::StrDict;
use super::encode::{bit_width, small_levels};

/// Writes one column chunk at a time of each leaf of a list of structs.
pub struct StructListPages {
    leaves: Vec<Leaf>,
    /// The leaf whose chunk `finish_chunk` gives next.
    next: usize,
    page_rows: usize,
    page_bytes: usize,
    batch_levels: usize,
    dict_limit: usize,
    /// Definition levels of an empty list, a null item and an item (a null
    /// list's is 0).
    def_empty: u8,
    def_item_null: u8,
    def_item: u8,
    /// Scratch for a write: its levels, and the part and index of each item
    /// that has values.
    rep: Vec<u8>,
    def: Vec<u8>,
    items: Vec<(u32, u32)>,
}

/// One leaf (a field of the struct) and the chunk being written of it.
struct Leaf {
    strings: bool,
    chunk: Chunk,
    /// The chunk's dictionary, when the leaf has one.
    dict: Option<StrDict>,
    dict_on: bool,
    page: Page,
    buf: Vec<u8>,
    scratch: Vec<u8>,
}

/// The page being filled of a leaf.
#[derive(Default)]
struct Page {
    rows: usize,
    rep: Vec<u8>,
    def: Vec<u8>,
    /// Dictionary indices of the values, while the dictionary is on.
    indices: Vec<u32>,
    /// PLAIN-encoded values, once it is off.
    plain: Vec<u8>,
    /// The values' length in bytes (strings).
    unencoded: i64,
}

/// A leaf's values in one part: string offsets and bytes, or integers.
#[derive(Clone, Copy)]
enum Values<'a> {
    Strings(&'a [i32], &'a [u8]),
    Ints(&'a [i32]),
}

/// RleEncoder::max_buffer_size of the parquet crate: the Arrow writer's
/// estimate of `n` indices `width` bits wide.
fn rle_max_size(width: u32, n: usize) -> usize {
    let runs = n.div_ceil(8);
    let packed = runs + runs * width as usize;
    let rle = runs * (1 + (width as usize).div_ceil(8));
    packed.max(rle)
}

impl Leaf {
    /// The page's encoded size as the Arrow writer estimates it.
    fn page_size(&self) -> usize {
        match self.dict.as_ref().filter(|_| self.dict_on) {
            Some(dict) => {
                let width = bit_width(dict.len().saturating_sub(1) as u32);
                self.strings as usize + rle_max_size(width, self.page.indices.len())
            }
            None => self.page.plain.len(),
        }
    }

    /// Appends the values of these items.
    #[inline(never)]
    fn values(&mut self, items: &[(u32, u32)], parts: &[Values]) {
        let p = &mut self.page;
        let dict = self.dict.as_mut().filter(|_| self.dict_on);
        let mut unencoded = 0;
        match dict {
            Some(dict) => {
                for &(part, i) in items {
                    let i = i as usize;
                    p.indices.push(match parts[part as usize] {
                        Values::Strings(ends, data) => {
                            let (a, b) = (ends[i] as usize, ends[i + 1] as usize);
                            unencoded += (b - a) as i64;
                            dict.index(data, a, b)
                        }
                        Values::Ints(v) => dict.index_int(&v[i].to_le_bytes()),
                    });
                }
            }
            None => {
                for &(part, i) in items {
                    let i = i as usize;
                    match parts[part as usize] {
                        Values::Strings(ends, data) => {
                            let v = &data[ends[i] as usize..ends[i + 1] as usize];
                            p.plain.extend_from_slice(&(v.len() as u32).to_le_bytes());
                            p.plain.extend_from_slice(v);
                            unencoded += v.len() as i64;
                        }
                        Values::Ints(v) => p.plain.extend_from_slice(&v[i].to_le_bytes()),
                    }
                }
            }
        }
        p.unencoded += unencoded;
    }

    fn flush_page(&mut self, def_max: u8) -> Result<()> {
        let p = &mut self.page;
        if p.rep.is_empty() {
            return Ok(());
        }
        let levels = p.rep.len();
        let buf = &mut self.buf;
        buf.clear();
        // Repetition levels (one bit), then definition levels.
        small_levels(buf, &mut self.scratch, &p.rep, 1);
        small_levels(buf, &mut self.scratch, &p.def, bit_width(def_max as u32));
        let dict = self.dict.as_ref().filter(|_| self.dict_on);
        let encoding = StrDict::page_values(dict, buf, &mut self.scratch, &p.indices, &p.plain);
        self.chunk
            .data_page(buf, levels, p.rows, encoding, p.unencoded)?;
        p.rows = 0;
        p.rep.clear();
        p.def.clear();
        p.indices.clear();
        p.plain.clear();
        p.unencoded = 0;
        Ok(())
    }
}

impl StructListPages {
    /// A writer for the leaves `descrs` of `field`, or None unless the field
    /// is a list (one repeated level) of structs whose fields are all
    /// required strings or 32-bit integers, each leaf with settings this
    /// module writes: no statistics, default encodings (a dictionary or
    /// not), `plain_settings` and a codec it knows.
    pub fn new(field: &Field, descrs: &[ColumnDescPtr], props: &WriterProperties) -> Option<Self> {
        let DataType::List(item) = field.data_type() else {
            return None;
        };
        let DataType::Struct(children) = item.data_type() else {
            return None;
        };
        let def_empty = field.is_nullable() as u8;
        let def_item = def_empty + 1 + item.is_nullable() as u8;
        if children.len() != descrs.len() || children.is_empty() {
            return None;
        }
        let mut leaves = Vec::with_capacity(descrs.len());
        for (child, descr) in children.iter().zip(descrs) {
            let path = descr.path();
            let strings = match (child.data_type(), descr.physical_type()) {
                (DataType::Utf8, Type::BYTE_ARRAY) => true,
                (DataType::Int32, Type::INT32) => false,
                _ => return None,
            };
            let writable = !child.is_nullable()
                && descr.max_rep_level() == 1
                && descr.max_def_level() == def_item as i16
                && plain_settings(props, path)
                && props.encoding(path).is_none()
                && props.statistics_enabled(path) == EnabledStatistics::None;
            if !writable {
                return None;
            }
            let dictionary = props.dictionary_enabled(path);
            let offset_index = !props.offset_index_disabled();
            leaves.push(Leaf {
                strings,
                chunk: Chunk::new(
                    descr.clone(),
                    props.compression(path),
                    offset_index,
                    strings,
                )?,
                dict: dictionary.then(StrDict::new),
                dict_on: dictionary,
                page: Page::default(),
                buf: Vec::new(),
                scratch: Vec::new(),
            });
        }
        Some(StructListPages {
            leaves,
            next: 0,
            page_rows: props.data_page_row_count_limit().max(1),
            page_bytes: props.data_page_size_limit(),
            batch_levels: props.write_batch_size().max(1),
            dict_limit: props.dictionary_page_size_limit(),
            def_empty,
            def_item_null: def_empty + 1,
            def_item,
            rep: Vec::new(),
            def: Vec::new(),
            items: Vec::new(),
        })
    }

    /// The levels of a write's lists, and the items with values.
    fn levels(&mut self, lists: &[&ListArray]) {
        let (rep, def, items) = (&mut self.rep, &mut self.def, &mut self.items);
        rep.clear();
        def.clear();
        items.clear();
        for (part, list) in lists.iter().enumerate() {
            let offsets = list.value_offsets();
            let structs = list.values();
            let item_nulls = structs.logical_nulls().filter(|n| n.null_count() > 0);
            for r in 0..list.len() {
                let (a, b) = (offsets[r] as usize, offsets[r + 1] as usize);
                if list.is_null(r) || a == b {
                    rep.push(0);
                    def.push(if list.is_null(r) { 0 } else { self.def_empty });
                    continue;
                }
                rep.push(0);
                rep.extend(std::iter::repeat_n(1, b - a - 1));
                match &item_nulls {
                    None => {
                        def.extend(std::iter::repeat_n(self.def_item, b - a));
                        items.extend((a..b).map(|i| (part as u32, i as u32)));
                    }
                    Some(nulls) => {
                        for i in a..b {
                            if nulls.is_null(i) {
                                def.push(self.def_item_null);
                            } else {
                                def.push(self.def_item);
                                items.push((part as u32, i as u32));
                            }
                        }
                    }
                }
            }
        }
    }
}

impl Pages for StructListPages {
    /// Appends the rows of list-of-struct arrays, the parts in order, as
    /// one write of their rows.
    fn write(&mut self, parts: &[&dyn Array]) -> Result<()> {
        let wrong = || ParquetError::General("expected a list of structs of its leaves".into());
        let mut lists = Vec::with_capacity(parts.len());
        // Per leaf, its values in each part.
        let mut values: Vec<Vec<Values>> = vec![Vec::with_capacity(parts.len()); self.leaves.len()];
        for array in parts {
            let list = array.as_list_opt::<i32>().ok_or_else(wrong)?;
            let structs = list.values().as_struct_opt().ok_or_else(wrong)?;
            if structs.num_columns() != self.leaves.len() {
                return Err(wrong());
            }
            for (k, (leaf, column)) in self.leaves.iter().zip(structs.columns()).enumerate() {
                if column.null_count() > 0 {
                    return Err(ParquetError::General(
                        "null values in a field that cannot hold them".into(),
                    ));
                }
                values[k].push(match leaf.strings {
                    true => {
                        let s = column.as_string_opt::<i32>().ok_or_else(wrong)?;
                        Values::Strings(s.value_offsets(), s.value_data())
                    }
                    false => {
                        let v = column.as_primitive_opt::<Int32Type>().ok_or_else(wrong)?;
                        Values::Ints(v.values())
                    }
                });
            }
            lists.push(list);
        }
        self.levels(&lists);
        let n = self.rep.len();
        if n == 0 {
            return Ok(());
        }
        // Mini-batches as the Arrow writer cuts them: a write of only empty
        // lists, or only null ones (levels it keeps as one run), is checked
        // every row limit's worth of levels, others every write_batch_size
        // levels carried on to the end of a list.
        let alike = self.def[0] <= self.def_empty && self.def.iter().all(|&d| d == self.def[0]);
        let base = if alike {
            self.page_rows
        } else {
            self.batch_levels
        };
        let (mut lo, mut item) = (0, 0);
        while lo < n {
            let mut hi = (lo + base).min(n);
            while hi < n && self.rep[hi] != 0 {
                hi += 1;
            }
            let rows = self.rep[lo..hi].iter().filter(|&&r| r == 0).count();
            let with_values = self.def[lo..hi]
                .iter()
                .filter(|&&d| d == self.def_item)
                .count();
            let items = &self.items[item..item + with_values];
            for (leaf, parts) in self.leaves.iter_mut().zip(&values) {
                leaf.page.rep.extend_from_slice(&self.rep[lo..hi]);
                leaf.page.def.extend_from_slice(&self.def[lo..hi]);
                leaf.page.rows += rows;
                leaf.values(items, parts);
                if leaf.page.rows >= self.page_rows || leaf.page_size() >= self.page_bytes {
                    leaf.flush_page(self.def_item)?;
                }
                let dict_full = leaf.dict_on
                    && (leaf.dict.as_ref())
                        .is_some_and(|d| d.page_bytes(leaf.strings) >= self.dict_limit);
                if dict_full {
                    // As the Arrow writer falls back: the pages so far keep
                    // the dictionary, the rest of the chunk is PLAIN.
                    leaf.flush_page(self.def_item)?;
                    leaf.dict_on = false;
                }
            }
            (lo, item) = (hi, item + with_values);
        }
        Ok(())
    }

    /// Bytes the chunks of all the leaves will take, roughly.
    fn estimated_bytes(&self) -> usize {
        (self.leaves.iter())
            .map(|l| l.chunk.bytes_written() + l.page_size())
            .sum()
    }

    /// The next leaf's chunk written since the last call (the leaves in
    /// turn, a call each), as its bytes and the close result a row group
    /// takes; the leaf is then ready for the next chunk.
    fn finish_chunk(&mut self) -> Result<(ChunkBytes, ColumnCloseResult)> {
        let def_max = self.def_item;
        let at = self.next;
        self.next = (at + 1) % self.leaves.len();
        let leaf = &mut self.leaves[at];
        leaf.flush_page(def_max)?;
        let (plain, entries) = match leaf.dict.as_ref() {
            Some(dict) => (dict.plain_page(leaf.strings), dict.len()),
            None => (Vec::new(), 0),
        };
        let done = leaf.chunk.finish(Some((&plain, entries)), |b| b, None)?;
        if let Some(dict) = leaf.dict.as_mut() {
            dict.clear();
            leaf.dict_on = true;
        }
        Ok(done)
    }
}

#[cfg(test)]
mod tests {
    use super::super::chunk::testing::{arrow_file_of, concat, pieces, read};
    use super::*;
    use arrow_array::ArrayRef;
    use arrow_array::builder::{Int32Builder, ListBuilder, StringBuilder, StructBuilder};
    use arrow_schema::{Fields, Schema};
    use bytes::Bytes;
    use parquet::arrow::ArrowWriter;
    use parquet::basic::Encoding;
    use parquet::basic::{Compression, ZstdLevel};
    use parquet::file::metadata::ParquetMetaData;
    use proptest::prelude::*;
    use std::sync::Arc;

    fn struct_fields() -> Fields {
        Fields::from(vec![
            Field::new("meld", DataType::Utf8, false),
            Field::new("count", DataType::Int32, false),
            Field::new("points", DataType::Int32, false),
        ])
    }

    /// Lists of (meld, count, points): None a null list, Some(None) within
    /// a list a null item.
    type Row = Option<Vec<Option<(String, i32, i32)>>>;

    fn array(rows: &[Row]) -> ArrayRef {
        let items = StructBuilder::from_fields(struct_fields(), 0);
        let mut b = ListBuilder::new(items);
        for row in rows {
            match row {
                None => b.append(false),
                Some(items) => {
                    for item in items {
                        let s = b.values();
                        let (m, c, p) = item.clone().unwrap_or_default();
                        s.field_builder::<StringBuilder>(0).unwrap().append_value(m);
                        s.field_builder::<Int32Builder>(1).unwrap().append_value(c);
                        s.field_builder::<Int32Builder>(2).unwrap().append_value(p);
                        s.append(item.is_some());
                    }
                    b.append(true);
                }
            }
        }
        // (The builder's item field is nullable, as the schema's is.)
        Arc::new(b.finish())
    }

    fn props(c: Compression, dictionary: bool, rows: usize, batch: usize) -> WriterProperties {
        WriterProperties::builder()
            .set_compression(c)
            .set_dictionary_enabled(dictionary)
            .set_statistics_enabled(EnabledStatistics::None)
            .set_data_page_row_count_limit(rows)
            .set_write_batch_size(batch)
            .build()
    }

    fn field(array: &ArrayRef) -> Field {
        Field::new("melds", array.data_type().clone(), true)
    }

    /// Two row groups of `array` in writes of `piece` rows: the file built
    /// here, and the one the Arrow writer makes from the same writes.
    fn both(array: &ArrayRef, p: &WriterProperties, piece: usize) -> (Bytes, Bytes) {
        let field = field(array);
        let schema = Arc::new(Schema::new(vec![field.clone()]));
        let (mut file, _) = ArrowWriter::try_new(Vec::new(), schema.clone(), Some(p.clone()))
            .unwrap()
            .into_serialized_writer()
            .unwrap();
        let leaves = file.schema_descr().columns().to_vec();
        let mut pages = StructListPages::new(&field, &leaves, p).expect("a writable field");
        for _ in 0..2 {
            for part in pieces(array, piece) {
                pages.write(&[part.as_ref()]).unwrap();
            }
            let mut rg = file.next_row_group().unwrap();
            for _ in &leaves {
                let (bytes, close) = pages.finish_chunk().unwrap();
                rg.append_column(&bytes, close).unwrap();
            }
            rg.close().unwrap();
        }
        let ours = Bytes::from(file.into_inner().unwrap());
        (ours, arrow_file_of(&field, array, p, 2, |_| piece, false))
    }

    /// The first row of each page, per row group and leaf.
    fn page_rows(meta: &ParquetMetaData) -> Vec<Vec<i64>> {
        let mut out = Vec::new();
        for g in 0..meta.num_row_groups() {
            for c in 0..meta.row_group(g).num_columns() {
                let index = meta.page_index_for_row_group(g);
                let o = index.offset_index(c).expect("an offset index");
                out.push(o.page_locations.iter().map(|l| l.first_row_index).collect());
            }
        }
        out
    }

    /// Written here and by the Arrow writer: the same rows, chunk metadata
    /// (sizes aside) and pages; `same_pages` false where the Arrow writer
    /// may cut its mini-batches by the dictionary's byte budget.
    fn same_as_the_arrow_writer(
        array: &ArrayRef,
        p: &WriterProperties,
        piece: usize,
        same_pages: bool,
    ) {
        let (ours, theirs) = both(array, p, piece);
        let (a, ours_meta) = read(ours, None);
        let (b, meta) = read(theirs, None);
        assert_eq!(&concat(&a), &concat(&b));
        assert_eq!(concat(&a).len(), 2 * array.len());
        for g in 0..2 {
            for c in 0..3 {
                let (x, y) = (
                    ours_meta.row_group(g).column(c),
                    meta.row_group(g).column(c),
                );
                assert_eq!(x.num_values(), y.num_values(), "group {g} leaf {c}");
                assert_eq!(x.statistics(), y.statistics());
                assert_eq!(
                    x.encodings().collect::<Vec<_>>(),
                    y.encodings().collect::<Vec<_>>()
                );
                assert_eq!(
                    x.unencoded_byte_array_data_bytes(),
                    y.unencoded_byte_array_data_bytes()
                );
                if same_pages {
                    assert_eq!(
                        x.page_encoding_stats(),
                        y.page_encoding_stats(),
                        "group {g} leaf {c}"
                    );
                }
            }
        }
        if same_pages {
            assert_eq!(page_rows(&ours_meta), page_rows(&meta));
        }
    }

    /// Breakdowns of melds: lists of 0 to 6, a null list now and then, a null
    /// item rarely, values from a small set.
    fn melds(n: usize) -> Vec<Row> {
        const NAMES: [&str; 5] = ["marriage", "double run", "run", "forty jacks", "dix"];
        (0..n)
            .map(|r| match r % 17 {
                16 => None,
                k => Some(
                    (0..(r * 7 + k) % 7)
                        .map(|i| {
                            ((r + i) % 23 != 0).then(|| {
                                let name = NAMES[(r + 2 * i) % 5].to_string();
                                (name, 1 + (i % 2) as i32, [4, 40, 150, 400][(r + i) % 4])
                            })
                        })
                        .collect(),
                ),
            })
            .collect()
    }

    #[test]
    fn melds_match_the_arrow_writer_with_every_codec_and_setting() {
        let a = array(&melds(3_000));
        for (c, dictionary, rows, batch, piece) in [
            (Compression::UNCOMPRESSED, true, 20_000, 1024, 3_000),
            (Compression::ZSTD(ZstdLevel::default()), true, 100, 64, 700),
            (Compression::SNAPPY, false, 37, 10, 128),
            (Compression::LZ4_RAW, true, 1, 1, 999),
            (Compression::UNCOMPRESSED, false, 5_000, 1024, 1),
        ] {
            same_as_the_arrow_writer(&a, &props(c, dictionary, rows, batch), piece, true);
        }
    }

    #[test]
    fn writes_of_only_empty_or_only_null_lists_are_checked_every_row_limit() {
        // The Arrow writer checks such a write every 100 levels here, and
        // others (one item a row) every 8.
        let p = props(Compression::SNAPPY, true, 100, 8);
        let empty: Vec<Row> = (0..500).map(|_| Some(vec![])).collect();
        same_as_the_arrow_writer(&array(&empty), &p, 130, true);
        let null: Vec<Row> = (0..500).map(|_| None).collect();
        same_as_the_arrow_writer(&array(&null), &p, 130, true);
        let one: Vec<Row> = (0..1_000)
            .map(|i| Some(vec![Some(("run".to_string(), 1, 150 + i % 3))]))
            .collect();
        same_as_the_arrow_writer(&array(&one), &p, 300, true);
        let (ours, _) = both(&array(&empty), &p, 130);
        assert_eq!(page_rows(&read(ours, None).1)[0], [0, 100, 230, 360, 490]);
    }

    #[test]
    fn a_full_dictionary_falls_back_to_plain_pages() {
        let rows: Vec<Row> = (0..2_000)
            .map(|i| Some(vec![Some((format!("meld {i}"), i, -i))]))
            .collect();
        let a = array(&rows);
        let p = WriterProperties::builder()
            .set_statistics_enabled(EnabledStatistics::None)
            .set_dictionary_page_size_limit(600)
            .set_data_page_row_count_limit(300)
            .build();
        same_as_the_arrow_writer(&a, &p, 2_000, false);
        let (ours, _) = both(&a, &p, 2_000);
        let (_, meta) = read(ours, None);
        let stats = meta.row_group(0).column(0).page_encoding_stats().unwrap();
        let plain = stats.iter().any(|s| {
            s.page_type == parquet::basic::PageType::DATA_PAGE && s.encoding == Encoding::PLAIN
        });
        assert!(plain, "{stats:?}");
    }

    #[test]
    fn fields_it_does_not_write_are_left_to_the_arrow_writer() {
        let a = array(&melds(10));
        let f = field(&a);
        let schema = Schema::new(vec![f.clone()]);
        let descr = parquet::arrow::ArrowSchemaConverter::new()
            .convert(&schema)
            .unwrap();
        let leaves = descr.columns().to_vec();
        let base = props(Compression::SNAPPY, true, 100, 10);
        assert!(StructListPages::new(&f, &leaves, &base).is_some());
        for p in [
            WriterProperties::builder().build(),
            WriterProperties::builder()
                .set_statistics_enabled(EnabledStatistics::None)
                .set_encoding(Encoding::DELTA_BINARY_PACKED)
                .build(),
            WriterProperties::builder()
                .set_statistics_enabled(EnabledStatistics::None)
                .set_bloom_filter_enabled(true)
                .build(),
        ] {
            assert!(StructListPages::new(&f, &leaves, &p).is_none());
        }
        // A nullable field of the struct, or one of another type.
        for child in [
            Field::new("count", DataType::Int32, true),
            Field::new("count", DataType::Int64, false),
        ] {
            let mut fields: Vec<Field> =
                struct_fields().iter().map(|f| f.as_ref().clone()).collect();
            fields[1] = child;
            let item = Field::new("item", DataType::Struct(Fields::from(fields)), true);
            let f = Field::new("melds", DataType::List(Arc::new(item)), true);
            let schema = Schema::new(vec![f.clone()]);
            let descr = parquet::arrow::ArrowSchemaConverter::new()
                .convert(&schema)
                .unwrap();
            assert!(StructListPages::new(&f, descr.columns(), &base).is_none());
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]
        #[test]
        fn any_lists_match_the_arrow_writer(
            rows in proptest::collection::vec(
                proptest::option::weighted(0.9, proptest::collection::vec(
                    proptest::option::weighted(0.95, ("[a-d]{0,3}", -3i32..3, any::<i32>())),
                    0..9)),
                1..300),
            piece in 1usize..200,
            page_rows in 1usize..60,
            batch in 1usize..40,
            dictionary in any::<bool>(),
        ) {
            let a = array(&rows);
            let p = props(Compression::SNAPPY, dictionary, page_rows, batch);
            same_as_the_arrow_writer(&a, &p, piece, true);
        }
    }
}
