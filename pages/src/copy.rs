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

use super::chunk::ChunkBytes;

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
            // (Emptied by the sink once each row group is written.)
            Some(capture) => Box::new(CaptureStore {
                inner: InMemoryPageStore::default(),
                capture,
            }),
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

/// The copy's chunk: the source's pages in file order and the source's close
/// result (taken before it was appended, its offsets relative to its own
/// pages) restated for the copy's leaf.
///
/// The writer stores a dictionary page when the dictionary is complete, after
/// data pages, and moves it first when the chunk is appended; the same is
/// done here: the two blobs (header, data) starting at the recorded
/// dictionary offset go first, and the offsets move as the writer moves them.
pub fn splice(
    source: &ColumnCloseResult,
    pages: &[Bytes],
    copy: ColumnDescPtr,
) -> Result<(ChunkBytes, ColumnCloseResult)> {
    let m = &source.metadata;
    let total: usize = pages.iter().map(Bytes::len).sum();
    if total as i64 != m.compressed_size() || m.data_page_offset() < 0 {
        return Err(ParquetError::General(format!(
            "captured {total} bytes of pages for a chunk of {} bytes",
            m.compressed_size()
        )));
    }
    let mut out = ChunkBytes::default();
    let mut dictionary_len = 0;
    if let Some(at) = m.dictionary_page_offset() {
        let mut offset = 0i64;
        let first = pages.iter().position(|p| {
            let here = offset;
            offset += p.len() as i64;
            here == at
        });
        let Some(first) = first.filter(|&i| i + 1 < pages.len()) else {
            return Err(ParquetError::General(format!(
                "no captured page starts at the dictionary offset {at}"
            )));
        };
        for p in &pages[first..first + 2] {
            out.push(p.clone());
            dictionary_len += p.len();
        }
        for (i, p) in pages.iter().enumerate() {
            if i != first && i != first + 1 {
                out.push(p.clone());
            }
        }
    } else {
        for p in pages {
            out.push(p.clone());
        }
    }
    let close = restate(source, copy)?.update_dictionary_location(dictionary_len)?;
    Ok((out, close))
}

/// A chunk's close result restated for another leaf (the copy's), its pages
/// unmoved.
pub fn restate(source: &ColumnCloseResult, copy: ColumnDescPtr) -> Result<ColumnCloseResult> {
    let m = &source.metadata;
    let mut b = ColumnChunkMetaData::builder(copy)
        .set_compression_codec(m.compression_codec())
        .set_encodings_mask(*m.encodings_mask())
        .set_total_compressed_size(m.compressed_size())
        .set_total_uncompressed_size(m.uncompressed_size())
        .set_num_values(m.num_values())
        .set_data_page_offset(m.data_page_offset())
        .set_dictionary_page_offset(m.dictionary_page_offset())
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
