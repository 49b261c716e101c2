//! One column chunk of pages built here (card lists, flat strings): the pages
//! compressed and written in order, the dictionary page put first when the
//! chunk is done, and the metadata and offset index a row group takes.

use bytes::Bytes;
use parquet::basic::{BoundaryOrder, Compression, Encoding, EncodingMask, PageType, Type};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::Result;
use parquet::file::metadata::{
    ColumnChunkMetaData, ColumnChunkMetaDataBuilder, ColumnIndexBuilder, PageEncodingStats,
};
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::page_index::offset_index::{OffsetIndexMetaData, PageLocation};
use parquet::file::properties::{WriterProperties, WriterVersion};
use parquet::file::writer::{SerializedPageWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;

use super::encode::Compressor;

/// Settings under which the page builders write what the Arrow writer
/// would for the column at `path`: v1 pages, no page-header statistics, no
/// bloom filter, no distinct counts, no content-defined page cuts. Each
/// builder checks its own encodings and statistics besides.
pub fn plain_settings(props: &WriterProperties, path: &parquet::schema::types::ColumnPath) -> bool {
    props.writer_version() == WriterVersion::PARQUET_1_0
        && !props.write_page_header_statistics(path)
        && !props.write_row_group_number_distinct_values()
        && props.bloom_filter_properties(path).is_none()
        && props.content_defined_chunking().is_none()
}

/// A column whose pages are built here (`list_pages`, `flat_pages`), one
/// column chunk at a time.
pub trait Pages: Send {
    /// Appends the rows of arrays of the column's type: the parts in order,
    /// written as one array of their rows would be.
    fn write(&mut self, parts: &[&dyn arrow_array::Array]) -> Result<()>;
    /// Bytes the chunk will take, roughly (pages written plus the one being
    /// filled).
    fn estimated_bytes(&self) -> usize;
    /// The chunk written since the last call, as its bytes and the close
    /// result a row group takes (offsets relative to the bytes); the writer
    /// is then ready for the next chunk. A field of several leaves gives
    /// them in turn, one a call, in leaf order.
    fn finish_chunk(&mut self) -> Result<(ChunkBytes, ColumnCloseResult)>;
}

/// A `meta` for [`Chunk::finish`] that sets the chunk's statistics, when
/// there are any.
pub fn with_statistics(
    stats: Option<parquet::file::statistics::Statistics>,
) -> impl FnOnce(ColumnChunkMetaDataBuilder) -> ColumnChunkMetaDataBuilder {
    move |b| match stats {
        Some(stats) => b.set_statistics(stats),
        None => b,
    }
}

/// A column chunk's bytes as the pieces they were written in (its pages,
/// each with its header), read in order as one: a chunk grows a page at a
/// time without one buffer growing (and copying itself) to the chunk's size,
/// and goes to the file without being gathered first.
#[derive(Clone, Debug, Default)]
pub struct ChunkBytes {
    pieces: Vec<Bytes>,
    len: u64,
}

impl ChunkBytes {
    pub fn push(&mut self, piece: Bytes) {
        self.len += piece.len() as u64;
        self.pieces.push(piece);
    }
}

impl parquet::file::reader::Length for ChunkBytes {
    fn len(&self) -> u64 {
        self.len
    }
}

impl parquet::file::reader::ChunkReader for ChunkBytes {
    type T = PiecesReader;

    fn get_read(&self, start: u64) -> Result<PiecesReader> {
        let mut skip = start;
        let mut pieces = self.pieces.clone().into_iter();
        let mut current = Bytes::new();
        while skip > 0 {
            let Some(p) = pieces.next() else { break };
            let n = skip.min(p.len() as u64);
            skip -= n;
            current = p.slice(n as usize..);
        }
        Ok(PiecesReader { pieces, current })
    }

    fn get_bytes(&self, start: u64, length: usize) -> Result<Bytes> {
        let mut out = Vec::with_capacity(length);
        std::io::Read::read_to_end(
            &mut std::io::Read::take(self.get_read(start)?, length as u64),
            &mut out,
        )?;
        if out.len() != length {
            return Err(parquet::errors::ParquetError::EOF(format!(
                "{length} bytes at {start} asked of a chunk of {}",
                self.len
            )));
        }
        Ok(out.into())
    }
}

/// Reads a [`ChunkBytes`]' pieces one after another.
pub struct PiecesReader {
    pieces: std::vec::IntoIter<Bytes>,
    current: Bytes,
}

impl std::io::Read for PiecesReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.current.is_empty() {
            match self.pieces.next() {
                Some(p) => self.current = p,
                None => return Ok(0),
            }
        }
        let n = buf.len().min(self.current.len());
        buf[..n].copy_from_slice(&self.current[..n]);
        bytes::Buf::advance(&mut self.current, n);
        Ok(n)
    }
}

/// A chunk's column index, built a page at a time, with its boundary order:
/// each page's bounds compared with the last page's (as the Arrow writer
/// compares them).
pub struct PageIndex<T> {
    builder: ColumnIndexBuilder,
    last: Option<(T, T)>,
    ascending: bool,
    descending: bool,
}

impl<T> PageIndex<T> {
    pub fn new(physical: Type) -> Self {
        PageIndex {
            builder: ColumnIndexBuilder::new(physical),
            last: None,
            ascending: true,
            descending: true,
        }
    }

    /// A page with values: its bounds (`less` the column's order), the
    /// bytes its entry holds for them, and its null count.
    pub fn page(
        &mut self,
        (min, max): (T, T),
        less: impl Fn(&T, &T) -> bool,
        (min_bytes, max_bytes): (Vec<u8>, Vec<u8>),
        nulls: i64,
    ) {
        if let Some((last_min, last_max)) = &self.last {
            if less(&min, last_min) || less(&max, last_max) {
                self.ascending = false;
            }
            if less(last_min, &min) || less(last_max, &max) {
                self.descending = false;
            }
        }
        self.builder
            .append(false, min_bytes, max_bytes, nulls, None);
        self.last = Some((min, max));
    }

    /// The builder, for what else a page adds (null pages, histograms).
    pub fn builder(&mut self) -> &mut ColumnIndexBuilder {
        &mut self.builder
    }

    pub fn build(mut self) -> Result<ColumnIndexMetaData> {
        self.builder
            .set_boundary_order(match (self.ascending, self.descending) {
                (true, _) => BoundaryOrder::ASCENDING,
                (false, true) => BoundaryOrder::DESCENDING,
                (false, false) => BoundaryOrder::UNORDERED,
            });
        self.builder.build()
    }
}

/// The pages of the chunk being written, and what its metadata needs.
pub struct Chunk {
    pub descr: ColumnDescPtr,
    compression: Compression,
    compressor: Compressor,
    offset_index: bool,
    /// Byte-array values: the offset index gives each page's unencoded size.
    byte_array: bool,
    packed: Vec<u8>,
    /// The data pages written so far.
    out: ChunkBytes,
    locations: Vec<PageLocation>,
    unencoded: Vec<i64>,
    rows: i64,
    values: i64,
    uncompressed: i64,
    compressed: i64,
    /// Data pages by encoding, in the order the encodings first appeared.
    pages: Vec<(Encoding, i32)>,
}

impl Chunk {
    /// None for a codec this module cannot write.
    pub fn new(
        descr: ColumnDescPtr,
        compression: Compression,
        offset_index: bool,
        byte_array: bool,
    ) -> Option<Chunk> {
        Some(Chunk {
            compressor: Compressor::new(compression)?,
            descr,
            compression,
            offset_index,
            byte_array,
            packed: Vec::new(),
            out: ChunkBytes::default(),
            locations: Vec::new(),
            unencoded: Vec::new(),
            rows: 0,
            values: 0,
            uncompressed: 0,
            compressed: 0,
            pages: Vec::new(),
        })
    }

    pub fn bytes_written(&self) -> usize {
        self.out.len as usize
    }

    /// Pages with this encoding written so far in the chunk.
    pub fn pages_of(&self, encoding: Encoding) -> i32 {
        (self.pages.iter().find(|p| p.0 == encoding)).map_or(0, |p| p.1)
    }

    /// Compresses and writes one v1 data page: `buf` holds its levels and
    /// values; `unencoded` is its byte-array values' length in bytes.
    pub fn data_page(
        &mut self,
        buf: &[u8],
        levels: usize,
        rows: usize,
        encoding: Encoding,
        unencoded: i64,
    ) -> Result<()> {
        self.compressor.compress(buf, &mut self.packed)?;
        let page = Page::DataPage {
            buf: Bytes::from(std::mem::take(&mut self.packed)),
            num_values: levels as u32,
            encoding,
            def_level_encoding: Encoding::RLE,
            rep_level_encoding: Encoding::RLE,
            statistics: None,
        };
        // The page and its header (at most some tens of bytes without
        // statistics), in a buffer of their own.
        let mut piece = TrackedWrite::new(Vec::with_capacity(page.buffer().len() + 64));
        let spec = SerializedPageWriter::new(&mut piece)
            .write_page(CompressedPage::new(page, buf.len()))?;
        let offset = self.out.len as i64;
        self.out.push(piece.into_inner()?.into());
        self.locations.push(PageLocation {
            offset: offset + spec.offset as i64,
            compressed_page_size: spec.compressed_size as i32,
            first_row_index: self.rows,
        });
        self.unencoded.push(unencoded);
        self.rows += rows as i64;
        self.values += levels as i64;
        self.uncompressed += spec.uncompressed_size as i64;
        self.compressed += spec.compressed_size as i64;
        match self.pages.iter_mut().find(|p| p.0 == encoding) {
            Some(p) => p.1 += 1,
            None => self.pages.push((encoding, 1)),
        }
        Ok(())
    }

    /// The chunk written since the last call, as its bytes and the close
    /// result a row group takes (offsets relative to the bytes). `dictionary`
    /// is the PLAIN dictionary page's body and entry count, written first when
    /// some data page used it; `meta` adds to the chunk's metadata (its
    /// statistics). The chunk is then ready for the next row group.
    pub fn finish(
        &mut self,
        dictionary: Option<(&[u8], usize)>,
        meta: impl FnOnce(ColumnChunkMetaDataBuilder) -> ColumnChunkMetaDataBuilder,
        column_index: Option<ColumnIndexMetaData>,
    ) -> Result<(ChunkBytes, ColumnCloseResult)> {
        let data = std::mem::take(&mut self.out);
        let mut stats = Vec::new();
        let mut bytes = ChunkBytes::default();
        let dictionary = dictionary.filter(|_| self.pages_of(Encoding::RLE_DICTIONARY) > 0);
        if let Some((plain, entries)) = dictionary {
            self.compressor.compress(plain, &mut self.packed)?;
            let page = Page::DictionaryPage {
                buf: Bytes::from(std::mem::take(&mut self.packed)),
                num_values: entries as u32,
                encoding: Encoding::PLAIN,
                is_sorted: false,
            };
            let mut head = TrackedWrite::new(Vec::new());
            let spec = SerializedPageWriter::new(&mut head)
                .write_page(CompressedPage::new(page, plain.len()))?;
            bytes.push(head.into_inner()?.into());
            self.uncompressed += spec.uncompressed_size as i64;
            self.compressed += spec.compressed_size as i64;
            stats.push((PageType::DICTIONARY_PAGE, Encoding::PLAIN, 1));
        }
        // Dictionary-encoded data pages first (a chunk falls back from the
        // dictionary once, and pages without values do not end it).
        self.pages.sort_by_key(|p| p.0 != Encoding::RLE_DICTIONARY);
        for &(encoding, count) in &self.pages {
            stats.push((PageType::DATA_PAGE, encoding, count));
        }
        let shift = bytes.len as i64;
        for piece in data.pieces {
            bytes.push(piece);
        }
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
            bytes_written: bytes.len,
            rows_written: self.rows as u64,
            metadata: meta(b).build()?,
            bloom_filter: None,
            column_index,
            offset_index: self.offset_index.then_some(OffsetIndexMetaData {
                page_locations: locations,
                unencoded_byte_array_data_bytes: self.byte_array.then_some(unencoded),
            }),
        };
        self.rows = 0;
        self.values = 0;
        self.uncompressed = 0;
        self.compressed = 0;
        self.pages.clear();
        Ok((bytes, close))
    }
}

/// Files of one column written through [`Pages`], and read back.
#[cfg(test)]
pub mod testing {
    use super::Pages;
    use arrow_array::{Array, ArrayRef, RecordBatch};
    use arrow_schema::{Field, Schema};
    use bytes::Bytes;
    use parquet::arrow::ArrowWriter;
    use parquet::arrow::arrow_reader::{
        ArrowReaderOptions, ParquetRecordBatchReaderBuilder, RowSelection,
    };
    use parquet::file::metadata::{PageIndexPolicy, ParquetMetaData};
    use parquet::file::properties::{WriterProperties, WriterPropertiesBuilder};
    use parquet::schema::types::ColumnDescPtr;
    use std::sync::Arc;

    /// Writer settings for comparing a page builder with the Arrow writer:
    /// the codec, page statistics on or off, the rows a page may hold and
    /// the rows written at a time.
    pub fn settings(
        c: parquet::basic::Compression,
        statistics: bool,
        page_rows: usize,
        batch_rows: usize,
    ) -> WriterPropertiesBuilder {
        use parquet::file::properties::EnabledStatistics;
        WriterProperties::builder()
            .set_compression(c)
            .set_statistics_enabled(match statistics {
                true => EnabledStatistics::Page,
                false => EnabledStatistics::None,
            })
            .set_data_page_row_count_limit(page_rows)
            .set_write_batch_size(batch_rows)
    }

    /// The [`settings`] page builders are compared under: every codec, with
    /// and without statistics, pages of many rows down to one.
    pub fn cases() -> [(parquet::basic::Compression, bool, usize, usize); 4] {
        use parquet::basic::{Compression, ZstdLevel};
        [
            (Compression::UNCOMPRESSED, true, 20_000, 1024),
            (Compression::ZSTD(ZstdLevel::default()), true, 700, 100),
            (Compression::SNAPPY, false, 333, 64),
            (Compression::LZ4_RAW, true, 1, 1),
        ]
    }

    /// A file of the one column `field`, `groups` row groups of `array`
    /// each, its pages built by the writer `new` gives, from the array written
    /// in pieces of `piece(group)` rows: a call each, or all of a group's
    /// pieces as the parts of `one_call`.
    pub fn file_of<P: Pages>(
        field: &Field,
        array: &ArrayRef,
        props: &WriterProperties,
        groups: usize,
        piece: impl Fn(usize) -> usize,
        one_call: bool,
        new: impl FnOnce(ColumnDescPtr) -> Option<P>,
    ) -> Bytes {
        let schema = Arc::new(Schema::new(vec![field.clone()]));
        let (mut file, _) = ArrowWriter::try_new(Vec::new(), schema, Some(props.clone()))
            .unwrap()
            .into_serialized_writer()
            .unwrap();
        let mut pages = new(file.schema_descr().column(0)).expect("a writable column");
        for g in 0..groups {
            let parts = pieces(array, piece(g));
            let parts: Vec<&dyn Array> = parts.iter().map(|a| a.as_ref()).collect();
            if one_call {
                pages.write(&parts).unwrap();
            } else {
                for part in parts {
                    pages.write(&[part]).unwrap();
                }
            }
            let (bytes, close) = pages.finish_chunk().unwrap();
            assert_eq!(close.rows_written, array.len() as u64);
            let mut rg = file.next_row_group().unwrap();
            rg.append_column(&bytes, close).unwrap();
            rg.close().unwrap();
        }
        Bytes::from(file.into_inner().unwrap())
    }

    /// Two row groups of `array` in writes of `piece` rows (a write each,
    /// or each group's pieces in one write, `one`): the file built by the
    /// page builder `new` gives and the one the Arrow writer makes.
    pub fn both<P: Pages>(
        field: &Field,
        array: &ArrayRef,
        props: &WriterProperties,
        piece: usize,
        one: bool,
        new: impl FnOnce(ColumnDescPtr) -> Option<P>,
    ) -> (Bytes, Bytes) {
        let ours = file_of(field, array, props, 2, |_| piece, one, new);
        (ours, arrow_file_of(field, array, props, 2, |_| piece, one))
    }

    /// Asserts that the two files of [`both`] are the same bytes and that
    /// they read back as `array` twice, in two row groups; `what` names the
    /// case in a failure.
    pub fn assert_same_file(ours: Bytes, theirs: Bytes, array: &ArrayRef, what: &str) {
        assert!(ours == theirs, "{what}");
        let (arrays, meta) = read(ours, None);
        assert_eq!(meta.num_row_groups(), 2, "{what}");
        let twice = concat(&[array.clone(), array.clone()]);
        assert_eq!(&concat(&arrays), &twice, "{what}");
    }

    /// `array` cut into pieces of `n` rows (the last shorter).
    pub fn pieces(array: &ArrayRef, n: usize) -> Vec<ArrayRef> {
        let mut parts = Vec::new();
        let mut at = 0;
        while at < array.len() {
            let k = n.max(1).min(array.len() - at);
            parts.push(array.slice(at, k));
            at += k;
        }
        parts
    }

    /// The file the Arrow writer makes of the one column `field`, `groups`
    /// row groups of `array` each, written in pieces of `piece(group)` rows
    /// (a batch each), or each group whole in one batch (`one_call`): the
    /// writes `file_of` makes.
    pub fn arrow_file_of(
        field: &Field,
        array: &ArrayRef,
        props: &WriterProperties,
        groups: usize,
        piece: impl Fn(usize) -> usize,
        one_call: bool,
    ) -> Bytes {
        let schema = Arc::new(Schema::new(vec![field.clone()]));
        let mut w = ArrowWriter::try_new(Vec::new(), schema.clone(), Some(props.clone())).unwrap();
        for g in 0..groups {
            let parts = match one_call {
                true => vec![array.clone()],
                false => pieces(array, piece(g)),
            };
            for part in parts {
                w.write(&RecordBatch::try_new(schema.clone(), vec![part]).unwrap())
                    .unwrap();
            }
            w.flush().unwrap();
        }
        Bytes::from(w.into_inner().unwrap())
    }

    /// The column read back (all row groups, optionally only some rows) and
    /// the file's metadata with its page indexes.
    pub fn read(
        bytes: Bytes,
        selection: Option<RowSelection>,
    ) -> (Vec<ArrayRef>, Arc<ParquetMetaData>) {
        let options = ArrowReaderOptions::new()
            .with_page_index_policy(PageIndexPolicy::Required)
            .with_encoding_stats_as_mask(false);
        let mut b = ParquetRecordBatchReaderBuilder::try_new_with_options(bytes, options).unwrap();
        if let Some(s) = selection {
            b = b.with_row_selection(s);
        }
        let meta = b.metadata().clone();
        let arrays = b
            .build()
            .unwrap()
            .map(|r| r.unwrap().column(0).clone())
            .collect();
        (arrays, meta)
    }

    /// Asserts that a page builder takes `field` under the settings `base`
    /// gives, and leaves it to the Arrow writer under each setting
    /// `plain_settings` refuses and under each of `others` (the builder's
    /// own limits), all on top of `base`.
    pub fn assert_settings_left_to_the_arrow_writer(
        field: &Field,
        base: impl Fn() -> WriterPropertiesBuilder,
        others: impl FnOnce(&dyn Fn() -> WriterPropertiesBuilder) -> Vec<WriterPropertiesBuilder>,
        takes: impl Fn(ColumnDescPtr, &WriterProperties) -> bool,
    ) {
        use parquet::file::properties::{CdcOptions, WriterVersion};
        let schema = Schema::new(vec![field.clone()]);
        let descr = parquet::arrow::ArrowSchemaConverter::new()
            .convert(&schema)
            .unwrap()
            .column(0);
        assert!(takes(descr.clone(), &base().build()));
        let mut refused = vec![
            base().set_writer_version(WriterVersion::PARQUET_2_0),
            base().set_bloom_filter_enabled(true),
            base().set_write_page_header_statistics(true),
            base().set_write_row_group_number_distinct_values(true),
            base().set_content_defined_chunking(Some(CdcOptions::default())),
        ];
        refused.extend(others(&base));
        for (i, p) in refused.into_iter().enumerate() {
            assert!(!takes(descr.clone(), &p.build()), "setting {i}");
        }
    }

    /// The parts as one array.
    pub fn concat(parts: &[ArrayRef]) -> ArrayRef {
        let parts: Vec<&dyn Array> = parts.iter().map(|a| a.as_ref()).collect();
        arrow_select::concat::concat(&parts).unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::file::reader::{ChunkReader, Length};
    use std::io::Read;

    #[test]
    fn chunk_bytes_read_as_one_buffer() {
        let mut c = ChunkBytes::default();
        for p in [&b"abc"[..], b"", b"defg", b"h"] {
            c.push(Bytes::copy_from_slice(p));
        }
        assert_eq!(c.len(), 8);
        for start in 0..=8 {
            let mut got = Vec::new();
            c.get_read(start).unwrap().read_to_end(&mut got).unwrap();
            assert_eq!(got, &b"abcdefgh"[start as usize..], "from {start}");
        }
        // A reader's small reads stop at piece ends and go on past them.
        let mut r = c.get_read(2).unwrap();
        let mut two = [0u8; 2];
        assert_eq!(r.read(&mut two).unwrap(), 1);
        assert_eq!(r.read(&mut two).unwrap(), 2);
        assert_eq!(&two, b"de");
        assert_eq!(&c.get_bytes(1, 6).unwrap()[..], b"bcdefg");
        assert_eq!(&c.get_bytes(8, 0).unwrap()[..], b"");
        assert!(c.get_bytes(5, 4).is_err());
    }
}
