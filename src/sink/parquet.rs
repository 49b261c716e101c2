//! One Parquet file per table: `OUT_DIR/<table>/part-00000.parquet`.
//!
//! Files are written under a temporary name and renamed when complete, so a
//! file with a final name is always whole. Rows are re-cut into batches of a
//! fixed size before they reach the writer, so the bytes written do not depend
//! on how the input was chunked or how many threads parsed it.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};

use crate::Error;

/// Rows handed to the Parquet writer at a time.
pub const WRITE_BATCH_ROWS: usize = 8192;
/// A row group is closed when its encoded size estimate passes this.
pub const MAX_ROW_GROUP_BYTES: usize = 64 << 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Codec {
    #[default]
    Zstd,
    Snappy,
    Lz4,
    None,
}

impl Codec {
    fn compression(self) -> Compression {
        match self {
            Codec::Zstd => Compression::ZSTD(ZstdLevel::default()),
            Codec::Snappy => Compression::SNAPPY,
            Codec::Lz4 => Compression::LZ4_RAW,
            Codec::None => Compression::UNCOMPRESSED,
        }
    }
}

/// Columns whose values are (nearly) unique in a file: dictionary encoding
/// only costs time there. Sorted integer keys are delta-encoded instead.
pub const UNIQUE_COLUMNS: &[&str] = &[
    "hand_id",
    "record_index",
    "byte_offset",
    "line",
    "deal",
    "holding",
    "melds",
    "passed",
    "raw",
    "message",
];

/// Lists of cards: a handful of distinct two-byte values repeated many times.
/// Dictionary encoding hashes every value into its dictionary; delta-length
/// encoding (lengths bit-packed, here all 2, then the bytes) costs a fraction
/// of that and compresses about as well.
pub const CARD_LISTS: &[&str] = &[
    "cards",
    "dealt",
    "held",
    "passed",
    "meld_cards",
    "computed_dealt",
    "kitty",
    "discard",
];

/// Columns whose min/max statistics help no query (these, the card lists and
/// free text): computing them costs a comparison per value.
pub const NO_STATISTICS: &[&str] = &[
    "computed_melds",
    "comments",
    "other_tags",
    "deal",
    "holding",
    "melds",
    "raw",
    "message",
    "text",
    "value",
];

#[derive(Clone, Debug)]
pub struct SinkOptions {
    pub codec: Codec,
    pub row_group_rows: usize,
    /// Key-value metadata for every file.
    pub metadata: Vec<(String, String)>,
}

/// The Parquet writer settings for one table.
pub fn writer_properties(table: &str, schema: &SchemaRef, opts: &SinkOptions) -> WriterProperties {
    let mut kv: Vec<KeyValue> = opts
        .metadata
        .iter()
        .map(|(k, v)| KeyValue::new(k.clone(), v.clone()))
        .collect();
    kv.push(KeyValue::new(
        "deckhand.table".to_string(),
        table.to_string(),
    ));
    let mut b = WriterProperties::builder()
        .set_compression(opts.codec.compression())
        .set_max_row_group_row_count(Some(opts.row_group_rows.max(1)))
        .set_max_row_group_bytes(Some(MAX_ROW_GROUP_BYTES))
        .set_key_value_metadata(Some(kv));
    // Settings by column, applied to the Parquet leaves (a list's values are
    // the leaf `name.list.item`).
    if let Ok(descr) = parquet::arrow::ArrowSchemaConverter::new().convert(schema) {
        for c in descr.columns() {
            let path = c.path();
            let root = path.parts()[0].as_str();
            if NO_STATISTICS.contains(&root) || CARD_LISTS.contains(&root) {
                b = b.set_column_statistics_enabled(path.clone(), EnabledStatistics::None);
            }
            if CARD_LISTS.contains(&root) {
                b = b
                    .set_column_dictionary_enabled(path.clone(), false)
                    .set_column_encoding(path.clone(), Encoding::DELTA_LENGTH_BYTE_ARRAY);
            }
            if UNIQUE_COLUMNS.contains(&root) {
                b = b.set_column_dictionary_enabled(path.clone(), false);
                if c.physical_type() == parquet::basic::Type::INT64
                    || c.physical_type() == parquet::basic::Type::INT32
                {
                    b = b.set_column_encoding(path.clone(), Encoding::DELTA_BINARY_PACKED);
                }
            }
        }
    }
    b.build()
}

pub struct TableSink {
    table: &'static str,
    final_path: PathBuf,
    tmp_path: PathBuf,
    writer: Option<ArrowWriter<BufWriter<File>>>,
    schema: SchemaRef,
    pending: Vec<RecordBatch>,
    pending_rows: usize,
    rows: u64,
}

fn pq_err(path: &Path) -> impl Fn(parquet::errors::ParquetError) -> Error + '_ {
    move |source| Error::Parquet {
        path: path.to_path_buf(),
        source,
    }
}

impl TableSink {
    pub fn create(
        dir: &Path,
        table: &'static str,
        schema: SchemaRef,
        opts: &SinkOptions,
    ) -> Result<TableSink, Error> {
        let table_dir = dir.join(table);
        std::fs::create_dir_all(&table_dir).map_err(|source| Error::Write {
            path: table_dir.clone(),
            source,
        })?;
        let final_path = table_dir.join("part-00000.parquet");
        let tmp_path = table_dir.join(".part-00000.parquet.tmp");
        let file = File::create(&tmp_path).map_err(|source| Error::Write {
            path: tmp_path.clone(),
            source,
        })?;
        let props = writer_properties(table, &schema, opts);
        let writer = ArrowWriter::try_new(BufWriter::new(file), schema.clone(), Some(props))
            .map_err(pq_err(&tmp_path))?;
        Ok(TableSink {
            table,
            final_path,
            tmp_path,
            writer: Some(writer),
            schema,
            pending: Vec::new(),
            pending_rows: 0,
            rows: 0,
        })
    }

    pub fn table(&self) -> &'static str {
        self.table
    }

    pub fn write(&mut self, batch: RecordBatch) -> Result<(), Error> {
        if batch.num_rows() == 0 {
            return Ok(());
        }
        self.pending_rows += batch.num_rows();
        self.pending.push(batch);
        while self.pending_rows >= WRITE_BATCH_ROWS {
            let all = arrow_select::concat::concat_batches(&self.schema, &self.pending)?;
            let head = all.slice(0, WRITE_BATCH_ROWS);
            let rest = all.slice(WRITE_BATCH_ROWS, all.num_rows() - WRITE_BATCH_ROWS);
            self.pending.clear();
            self.pending_rows = rest.num_rows();
            if rest.num_rows() > 0 {
                self.pending.push(rest);
            }
            self.write_now(&head)?;
        }
        Ok(())
    }

    fn write_now(&mut self, batch: &RecordBatch) -> Result<(), Error> {
        self.rows += batch.num_rows() as u64;
        let w = self.writer.as_mut().expect("sink is open");
        w.write(batch).map_err(pq_err(&self.tmp_path))
    }

    /// Writes what is pending, closes the file and gives it its final name.
    pub fn finish(mut self) -> Result<u64, Error> {
        if self.pending_rows > 0 {
            let all = arrow_select::concat::concat_batches(&self.schema, &self.pending)?;
            self.pending.clear();
            self.write_now(&all)?;
        }
        let w = self.writer.take().expect("sink is open");
        let inner = w.into_inner().map_err(pq_err(&self.tmp_path))?;
        let file = inner.into_inner().map_err(|e| Error::Write {
            path: self.tmp_path.clone(),
            source: e.into_error(),
        })?;
        file.sync_all().map_err(|source| Error::Write {
            path: self.tmp_path.clone(),
            source,
        })?;
        std::fs::rename(&self.tmp_path, &self.final_path).map_err(|source| Error::Write {
            path: self.final_path.clone(),
            source,
        })?;
        Ok(self.rows)
    }
}

impl Drop for TableSink {
    fn drop(&mut self) {
        if self.writer.is_some() {
            // Not finished: never leave a partial file behind.
            let _ = std::fs::remove_file(&self.tmp_path);
        }
    }
}
