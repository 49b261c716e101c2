//! Column chunks written twice without encoding twice.
//!
//! Some columns repeat another one row for row (`computed_dealt` is `dealt`
//! whenever the hand has a Deal tag). Both are Parquet leaves with the same
//! type and the same writer settings, so their encoded pages are the same
//! bytes. When a row group's values are equal, the source column is encoded
//! once, its pages are captured as they are stored, and the same bytes are
//! spliced in again as the copy's column chunk, under the copy's descriptor.

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use parquet::column::page_store::{
    InMemoryPageStore, PageKey, PageStore, PageStoreArgs, PageStoreFactory,
};
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::{ParquetError, Result};
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::schema::types::ColumnDescPtr;

/// The pages of one column chunk, in the order the writer stored them.
pub type Captured = Arc<Mutex<Vec<Bytes>>>;

/// Gives every leaf the default in-memory store; the leaves listed also hand
/// a reference to each page they store to their `Captured` list.
#[derive(Debug, Default)]
pub struct CaptureFactory {
    /// (leaf index, where its pages go)
    pub leaves: Vec<(usize, Captured)>,
}

impl PageStoreFactory for CaptureFactory {
    fn create(&self, args: &PageStoreArgs<'_>) -> Result<Box<dyn PageStore>> {
        let capture = self
            .leaves
            .iter()
            .find(|(leaf, _)| *leaf == args.column_index())
            .map(|(_, c)| c.clone());
        Ok(match capture {
            Some(capture) => {
                capture.lock().expect("not poisoned").clear();
                Box::new(CaptureStore {
                    inner: InMemoryPageStore::default(),
                    capture,
                })
            }
            None => Box::new(InMemoryPageStore::default()),
        })
    }
}

struct CaptureStore {
    inner: InMemoryPageStore,
    capture: Captured,
}

impl PageStore for CaptureStore {
    fn put(&mut self, value: Bytes) -> Result<PageKey> {
        // `Bytes` clones share the buffer: no copy.
        self.capture
            .lock()
            .expect("not poisoned")
            .push(value.clone());
        self.inner.put(value)
    }

    fn take(&mut self, key: PageKey) -> Result<Bytes> {
        self.inner.take(key)
    }

    fn memory_size(&self) -> usize {
        self.inner.memory_size()
    }
}

/// The source chunk's close result (taken before it was appended, so its page
/// offsets are relative to its own pages) restated for the copy's leaf.
pub fn close_for(source: &ColumnCloseResult, copy: ColumnDescPtr) -> Result<ColumnCloseResult> {
    let m = &source.metadata;
    if m.dictionary_page_offset().is_some() {
        // The captured pages are in storage order, which puts a dictionary
        // page last; only dictionary-free chunks are copied.
        return Err(ParquetError::General(
            "a copied column chunk must not have a dictionary page".into(),
        ));
    }
    let mut b = ColumnChunkMetaData::builder(copy)
        .set_compression_codec(m.compression_codec())
        .set_encodings_mask(*m.encodings_mask())
        .set_total_compressed_size(m.compressed_size())
        .set_total_uncompressed_size(m.uncompressed_size())
        .set_num_values(m.num_values())
        .set_data_page_offset(m.data_page_offset())
        .set_dictionary_page_offset(None)
        .set_unencoded_byte_array_data_bytes(m.unencoded_byte_array_data_bytes())
        .set_repetition_level_histogram(m.repetition_level_histogram().cloned())
        .set_definition_level_histogram(m.definition_level_histogram().cloned());
    if let Some(s) = m.statistics() {
        b = b.set_statistics(s.clone());
    }
    if let Some(s) = m.page_encoding_stats() {
        b = b.set_page_encoding_stats(s.clone());
    }
    Ok(ColumnCloseResult {
        bytes_written: source.bytes_written,
        rows_written: source.rows_written,
        metadata: b.build()?,
        bloom_filter: source.bloom_filter.clone(),
        column_index: source.column_index.clone(),
        offset_index: source.offset_index.clone(),
    })
}

/// The captured pages as one buffer, positioned so that the chunk's first
/// page sits at its recorded offset.
pub fn chunk_bytes(pages: &[Bytes], first_page_offset: i64) -> Bytes {
    let lead = usize::try_from(first_page_offset).unwrap_or(0);
    let mut out = Vec::with_capacity(lead + pages.iter().map(Bytes::len).sum::<usize>());
    out.resize(lead, 0);
    for p in pages {
        out.extend_from_slice(p);
    }
    Bytes::from(out)
}
