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
use arrow_schema::{DataType, Field, SchemaRef};
use std::sync::Arc;

use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_writer::{ArrowColumnWriter, ArrowRowGroupWriterFactory, compute_leaves};
use parquet::column::writer::ColumnCloseResult;
use parquet::file::writer::SerializedFileWriter;

use super::parts::Parts;
use super::writeback::Writeback;
use deckhand_pages::chunk::{ChunkBytes, Pages};
use deckhand_pages::copy::{CaptureFactory, Captured, restate, splice};
use deckhand_pages::delta_pages::DeltaPages;
use deckhand_pages::flat_pages::FlatPages;
use deckhand_pages::list_pages::ListPages;
use deckhand_pages::struct_list_pages::StructListPages;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::{ColumnDescPtr, ColumnPath};

use crate::Error;
use crate::columns::table::{Hints, TableDecl};

/// Rows handed to the Parquet writer at a time.
pub const WRITE_BATCH_ROWS: usize = 8192;
/// A run also ends at the row whose values (`parts::value_bytes`) bring it
/// to this many bytes, so that rows with large values (a comment of many
/// megabytes) are not held 8,192 at a time. About 4 KiB a row over a full
/// run: more than the rows of real and generated archives hold.
pub const WRITE_BATCH_BYTES: usize = 32 << 20;
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

/// A table as the sink writes it: where (`<game>/<table>`, or `errors`),
/// its schema, and each field's storage hints (from its declaration).
#[derive(Clone, Debug)]
pub struct TableSpec {
    pub path: String,
    pub schema: SchemaRef,
    pub hints: Vec<Hints>,
}

impl TableSpec {
    /// The spec of a declared table.
    pub fn of(decl: &TableDecl) -> TableSpec {
        let schema = (decl.schema)();
        let hints = schema
            .fields()
            .iter()
            .map(|f| decl.column(f.name()).map_or(Hints::NONE, |c| c.hints))
            .collect();
        TableSpec {
            path: decl.path(),
            schema,
            hints,
        }
    }

    /// The hints of the field named `name` (none for a field not declared).
    fn hints_of(&self, name: &str) -> Hints {
        self.schema
            .index_of(name)
            .map_or(Hints::NONE, |i| self.hints[i])
    }
}

/// Which writer encodes the pages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Writer {
    /// deckhand's own page builders where they pay (card lists and flat
    /// columns; see `docs/design.md`), the Arrow writer for the rest.
    #[default]
    Fast,
    /// The Arrow writer for every column: the fallback, and the oracle the
    /// fast path is tested against.
    Arrow,
}

#[derive(Clone, Debug)]
pub struct SinkOptions {
    pub codec: Codec,
    pub writer: Writer,
    pub row_group_rows: usize,
    /// The part number of the files (`part-N.parquet`).
    pub part: u32,
    /// Key-value metadata for every file.
    pub metadata: Vec<(String, String)>,
}

/// The Parquet writer settings for one table.
pub fn writer_properties(spec: &TableSpec, opts: &SinkOptions) -> WriterProperties {
    let schema = &spec.schema;
    let table = spec.path.rsplit('/').next().unwrap_or_default();
    let mut kv: Vec<KeyValue> = opts
        .metadata
        .iter()
        .map(|(k, v)| KeyValue::new(k.clone(), v.clone()))
        .collect();
    kv.push(KeyValue::new(
        "deckhand.table".to_string(),
        table.to_string(),
    ));
    if let Some((game, _)) = spec.path.split_once('/') {
        kv.push(KeyValue::new("deckhand.game".to_string(), game.to_string()));
    }
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
            let hints = spec.hints_of(path.parts()[0].as_str());
            if hints.no_stats || hints.cards {
                b = b.set_column_statistics_enabled(path.clone(), EnabledStatistics::None);
            }
            if hints.cards {
                b = b.set_column_encoding(path.clone(), Encoding::DELTA_LENGTH_BYTE_ARRAY);
            }
            if hints.unique {
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

/// A copy column and its source, by field and by Parquet leaf.
struct CopyPair {
    copy_field: usize,
    source_field: usize,
    copy_leaf: usize,
    source_leaf: usize,
    /// The copy leaf's descriptor, for its spliced chunk's metadata.
    copy_descr: parquet::schema::types::ColumnDescPtr,
    captured: Captured,
    /// Set once the copy stopped repeating its source in this file: it is
    /// then encoded for the rest of the file, so that an archive with scattered
    /// differences does not cut its row groups again and again.
    off: bool,
}

/// The row group being encoded.
struct RowGroup {
    writers: Vec<ArrowColumnWriter>,
    rows: usize,
    /// Per copy pair: `None` before the first rows, then whether this row
    /// group's copy column is spliced from its source instead of encoded.
    copying: Vec<Option<bool>>,
}

pub struct TableSink {
    table: String,
    final_path: PathBuf,
    tmp_path: PathBuf,
    file: Option<SerializedFileWriter<BufWriter<Writeback>>>,
    factory: ArrowRowGroupWriterFactory,
    group: Option<RowGroup>,
    row_groups: usize,
    max_rows: usize,
    /// The first leaf of each field, and one past the last.
    leaf_start: Vec<usize>,
    copies: Vec<CopyPair>,
    /// Per field: the writer of its pages when they are built here rather
    /// than by the Arrow writer (see `direct_pages`).
    direct: Vec<Option<Box<dyn Pages>>>,
    schema: SchemaRef,
    pending: Parts,
    rows: u64,
    /// Column chunks spliced from their source rather than encoded.
    spliced: u64,
}

/// The writer of a field's pages when they are built here rather than by
/// the Arrow writer: the card lists (`list_pages`), lists of structs of
/// several leaves (`struct_list_pages`), delta-encoded integer keys
/// (`delta_pages`), and flat strings and 32-bit integers (`flat_pages`);
/// None for other fields (booleans: the Arrow writer's). `docs/design.md`
/// has what each saves.
fn direct_pages(
    field: &Field,
    hints: Hints,
    leaves: &[ColumnDescPtr],
    props: &WriterProperties,
) -> Option<Box<dyn Pages>> {
    let [leaf] = leaves else {
        family_on("struct")?;
        return Some(Box::new(StructListPages::new(field, leaves, props)?));
    };
    let leaf = leaf.clone();
    if hints.cards {
        family_on("list")?;
        Some(Box::new(ListPages::new(field, leaf, props)?))
    } else if props.encoding(leaf.path()) == Some(Encoding::DELTA_BINARY_PACKED) {
        family_on("delta")?;
        Some(Box::new(DeltaPages::new(field, leaf, props)?))
    } else if *field.data_type() == DataType::Boolean {
        None
    } else {
        family_on("flat")?;
        Some(Box::new(FlatPages::new(field, leaf, props)?))
    }
}

/// Whether a family of page writers (`list`, `flat`, `delta`, `struct`,
/// `copy`) is on: all are, unless `DECKHAND_PAGES_OFF` lists it (a
/// benchmark's knob, for what each family earns: its columns then go to
/// the Arrow writer; `docs/page-writers.md`).
fn family_on(family: &str) -> Option<()> {
    static OFF: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let off = OFF.get_or_init(|| {
        let v = std::env::var("DECKHAND_PAGES_OFF").unwrap_or_default();
        v.split(',').map(|s| s.trim().to_string()).collect()
    });
    (!off.iter().any(|f| f == family)).then_some(())
}

/// The field a Parquet leaf belongs to, given each field's first leaf.
fn field_of(leaf_start: &[usize], leaf: usize) -> usize {
    leaf_start.partition_point(|&s| s <= leaf) - 1
}

fn pq_err(path: &Path) -> impl Fn(parquet::errors::ParquetError) -> Error + '_ {
    move |source| Error::Parquet {
        path: path.to_path_buf(),
        source,
    }
}

/// The copy pairs of a schema whose columns exist, are single leaves of the
/// same type with the same writer settings, and come after their source.
fn copy_pairs(
    spec: &TableSpec,
    leaf_start: &[usize],
    descr: &parquet::schema::types::SchemaDescriptor,
    props: &WriterProperties,
) -> Vec<CopyPair> {
    let schema = &spec.schema;
    let index = |name: &str| schema.fields().iter().position(|f| f.name() == name);
    let same_settings = |a: &ColumnPath, b: &ColumnPath| {
        props.encoding(a) == props.encoding(b)
            && props.compression(a) == props.compression(b)
            && props.dictionary_enabled(a) == props.dictionary_enabled(b)
            && props.statistics_enabled(a) == props.statistics_enabled(b)
            && props.bloom_filter_properties(a).is_none()
            && props.bloom_filter_properties(b).is_none()
    };
    // A source's pages are captured for one copy: a second copy of the
    // same source is encoded as any column.
    if family_on("copy").is_none() {
        return Vec::new();
    }
    let mut sources = Vec::new();
    (schema.fields().iter().zip(&spec.hints))
        .filter_map(|(copy, hints)| {
            let (c, s) = (index(copy.name())?, index(hints.copy_of?)?);
            if sources.contains(&s) {
                return None;
            }
            let one_leaf = |i: usize| leaf_start[i + 1] - leaf_start[i] == 1;
            let (cl, sl) = (leaf_start[c], leaf_start[s]);
            let same = schema.field(c).data_type() == schema.field(s).data_type()
                && schema.field(c).is_nullable() == schema.field(s).is_nullable();
            let ok = s < c
                && one_leaf(c)
                && one_leaf(s)
                && same
                && same_settings(descr.column(cl).path(), descr.column(sl).path());
            if ok {
                sources.push(s);
            }
            ok.then(|| CopyPair {
                copy_field: c,
                source_field: s,
                copy_leaf: cl,
                source_leaf: sl,
                copy_descr: descr.column(cl),
                captured: Captured::default(),
                off: false,
            })
        })
        .collect()
}

impl TableSink {
    /// A sink writing `spec` into `dir/<spec.path>/`.
    pub fn create(dir: &Path, spec: &TableSpec, opts: &SinkOptions) -> Result<TableSink, Error> {
        let direct = opts.writer == Writer::Fast;
        let schema = spec.schema.clone();
        let table_dir = dir.join(&spec.path);
        std::fs::create_dir_all(&table_dir).map_err(|source| Error::Write {
            path: table_dir.clone(),
            source,
        })?;
        let final_path = table_dir.join(super::temp::part_name(opts.part));
        let tmp_path = table_dir.join(super::temp::temp_part_name(opts.part));
        let file = super::temp::create(&tmp_path).map_err(|source| Error::Write {
            path: tmp_path.clone(),
            source,
        })?;
        let props = writer_properties(spec, opts);
        let settings = props.clone();
        // The Arrow writer sets up the file (schema, Arrow schema metadata);
        // rows are then encoded column by column through its factory.
        let (file, factory) = ArrowWriter::try_new(
            BufWriter::new(Writeback::new(file)),
            schema.clone(),
            Some(props),
        )
        .and_then(|w| w.into_serialized_writer())
        .map_err(pq_err(&tmp_path))?;
        let descr = file.schema_descr();
        let mut leaf_start = vec![0];
        for f in schema.fields() {
            let n = descr
                .columns()
                .iter()
                .filter(|c| c.path().parts()[0] == *f.name())
                .count();
            leaf_start.push(leaf_start.last().unwrap() + n);
        }
        let copies = copy_pairs(spec, &leaf_start, descr, &settings);
        let direct = (schema.fields().iter().enumerate())
            .map(|(i, f)| {
                let leaves: Vec<_> = (leaf_start[i]..leaf_start[i + 1])
                    .map(|l| descr.column(l))
                    .collect();
                direct
                    .then(|| direct_pages(f, spec.hints[i], &leaves, &settings))
                    .flatten()
            })
            .collect();
        let capture = CaptureFactory {
            leaves: copies
                .iter()
                .map(|p| (p.source_leaf, p.captured.clone()))
                .collect(),
        };
        let factory = factory.with_page_store_factory(Arc::new(capture));
        Ok(TableSink {
            table: spec.path.clone(),
            final_path,
            tmp_path,
            file: Some(file),
            factory,
            group: None,
            row_groups: 0,
            max_rows: opts.row_group_rows.max(1),
            leaf_start,
            copies,
            direct,
            schema,
            pending: Parts::default(),
            rows: 0,
            spliced: 0,
        })
    }

    /// The table's path in the dataset.
    pub fn table(&self) -> &str {
        &self.table
    }

    pub fn write(&mut self, batch: RecordBatch) -> Result<(), Error> {
        self.pending.push(batch);
        while let Some(n) = self.pending.run_len(WRITE_BATCH_ROWS, WRITE_BATCH_BYTES) {
            let head = self.pending.take_front(n);
            self.write_now(head)?;
        }
        Ok(())
    }

    fn write_now(&mut self, rows: Parts) -> Result<(), Error> {
        self.rows += rows.num_rows() as u64;
        self.write_rows(rows).map_err(pq_err(&self.tmp_path))
    }

    /// Rows into row groups, cut as the Arrow writer cuts them: at most
    /// `max_rows` rows, and a group is closed once its estimated encoded size
    /// reaches MAX_ROW_GROUP_BYTES (a batch that would pass it is split by the
    /// average row size so far). A group also ends before rows whose copy
    /// column stops repeating its source.
    fn write_rows(&mut self, mut remaining: Parts) -> parquet::errors::Result<()> {
        loop {
            self.open_group()?;
            let buffered = self.group.as_ref().map_or(0, |g| g.rows);
            let mut split_at =
                (buffered + remaining.num_rows() > self.max_rows).then(|| self.max_rows - buffered);
            let candidate = split_at.unwrap_or(remaining.num_rows());
            let bytes = self.estimated_bytes();
            if let Some(avg) = bytes.checked_div(buffered) {
                if bytes >= MAX_ROW_GROUP_BYTES {
                    self.flush()?;
                    continue;
                }
                if let Some(fit) = (MAX_ROW_GROUP_BYTES - bytes).checked_div(avg)
                    && candidate > fit
                {
                    if fit == 0 {
                        self.flush()?;
                        continue;
                    }
                    split_at = Some(fit);
                }
            }
            let rest = split_at.map(|n| {
                let rest = remaining.slice(n, remaining.num_rows() - n);
                remaining = remaining.slice(0, n);
                rest
            });
            if !self.encode(&remaining)? {
                // The copy column stopped repeating its source: close the
                // group that splices it and encode these rows in a new one.
                self.flush()?;
                self.open_group()?;
                self.encode(&remaining)?;
            }
            let g = self.group.as_ref().expect("open row group");
            if g.rows >= self.max_rows || self.estimated_bytes() >= MAX_ROW_GROUP_BYTES {
                self.flush()?;
            }
            match rest {
                Some(rest) => remaining = rest,
                None => return Ok(()),
            }
        }
    }

    fn open_group(&mut self) -> parquet::errors::Result<()> {
        if self.group.is_none() {
            self.group = Some(RowGroup {
                writers: self.factory.create_column_writers(self.row_groups)?,
                rows: 0,
                copying: vec![None; self.copies.len()],
            });
        }
        Ok(())
    }

    /// Encodes rows into the open row group; false (and nothing written) when
    /// the group splices a copy column these rows do not repeat.
    fn encode(&mut self, rows: &Parts) -> parquet::errors::Result<bool> {
        let g = self.group.as_mut().expect("open row group");
        for (p, copying) in self.copies.iter_mut().zip(g.copying.iter_mut()) {
            if p.off || *copying == Some(false) {
                *copying = Some(false);
                continue;
            }
            // A copy built as its source's very array (see
            // `columns::lists::CardCopy`) is known equal without comparing.
            let same = rows.batches().iter().all(|b| {
                let copy = b.column(p.copy_field).to_data();
                let source = b.column(p.source_field).to_data();
                copy.ptr_eq(&source) || copy == source
            });
            match (*copying, same) {
                (Some(true), false) => {
                    p.off = true;
                    return Ok(false);
                }
                (None, _) => *copying = Some(same),
                _ => {}
            }
        }
        for (i, field) in self.schema.fields().iter().enumerate() {
            let spliced = (self.copies.iter().zip(&g.copying))
                .any(|(p, c)| p.copy_field == i && *c == Some(true));
            if spliced {
                continue;
            }
            if let Some(direct) = self.direct[i].as_mut() {
                direct.write(&rows.column(i))?;
                continue;
            }
            let column = rows.joined_column(i)?;
            let leaves = compute_leaves(field, &column)?;
            for (w, leaf) in g.writers[self.leaf_start[i]..].iter_mut().zip(&leaves) {
                w.write(leaf)?;
            }
        }
        g.rows += rows.num_rows();
        Ok(true)
    }

    /// The open group's estimated encoded size, a spliced copy counted as
    /// its source (as if it had been encoded).
    fn estimated_bytes(&self) -> usize {
        let Some(g) = &self.group else { return 0 };
        let leaf_bytes = |leaf: usize| {
            let field = field_of(&self.leaf_start, leaf);
            match &self.direct[field] {
                // (All of a field's leaves, counted at its first.)
                Some(direct) if self.leaf_start[field] == leaf => direct.estimated_bytes(),
                Some(_) => 0,
                None => g.writers[leaf].get_estimated_total_bytes(),
            }
        };
        let mut total: usize = (0..g.writers.len()).map(leaf_bytes).sum();
        for (p, copying) in self.copies.iter().zip(&g.copying) {
            if *copying == Some(true) {
                total += leaf_bytes(p.source_leaf);
            }
        }
        total
    }

    /// Closes the open row group and appends it to the file.
    fn flush(&mut self) -> parquet::errors::Result<()> {
        let Some(g) = self.group.take() else {
            return Ok(());
        };
        let file = self.file.as_mut().expect("sink is open");
        let mut rg = file.next_row_group()?;
        // Per copy pair, its source's chunk: the close result, and its bytes
        // when they were built here (else its pages were captured).
        let mut sources: Vec<Option<(ColumnCloseResult, Option<ChunkBytes>)>> =
            vec![None; self.copies.len()];
        for (leaf, w) in g.writers.into_iter().enumerate() {
            let spliced = self
                .copies
                .iter()
                .zip(&g.copying)
                .position(|(p, c)| p.copy_leaf == leaf && *c == Some(true));
            if let Some(k) = spliced {
                let (source, bytes) = sources[k].as_ref().expect("source leaf comes first");
                let descr = self.copies[k].copy_descr.clone();
                let (bytes, close) = match bytes {
                    // Built here: already in file order.
                    Some(b) => (b.clone(), restate(source, descr)?),
                    None => {
                        let pages = self.copies[k].captured.lock().expect("not poisoned");
                        splice(source, &pages, descr)?
                    }
                };
                rg.append_column(&bytes, close)?;
                self.spliced += 1;
                continue;
            }
            let source = self.copies.iter().position(|p| p.source_leaf == leaf);
            if let Some(direct) = self.direct[field_of(&self.leaf_start, leaf)].as_mut() {
                let (bytes, close) = direct.finish_chunk()?;
                if let Some(k) = source {
                    sources[k] = Some((close.clone(), Some(bytes.clone())));
                }
                rg.append_column(&bytes, close)?;
                continue;
            }
            let chunk = w.close()?;
            if let Some(k) = source {
                sources[k] = Some((chunk.close().clone(), None));
            }
            chunk.append_to_row_group(&mut rg)?;
        }
        rg.close()?;
        for p in &self.copies {
            // The pages are in the file now: let them go.
            p.captured.lock().expect("not poisoned").clear();
        }
        self.row_groups += 1;
        Ok(())
    }

    /// Writes what is pending, closes the file and gives it its final name.
    pub fn finish(self) -> Result<u64, Error> {
        self.close()?.commit()
    }

    /// Writes what is pending and closes the file, whose last bytes the
    /// kernel is asked to start writing out; [`Closed::commit`] then syncs
    /// it and gives it its final name. Closing every table before committing
    /// any lets their write-outs run at once.
    pub fn close(mut self) -> Result<Closed, Error> {
        if self.pending.num_rows() > 0 {
            let all = std::mem::take(&mut self.pending);
            self.write_now(all)?;
        }
        self.flush().map_err(pq_err(&self.tmp_path))?;
        let w = self.file.take().expect("sink is open");
        let file = w
            .into_inner()
            .map_err(pq_err(&self.tmp_path))
            .and_then(|inner| {
                inner.into_inner().map_err(|e| Error::Write {
                    path: self.tmp_path.clone(),
                    source: e.into_error(),
                })
            });
        let file = match file {
            Ok(file) => file,
            Err(e) => {
                // The writer is gone, so the drop would not see the file.
                let _ = std::fs::remove_file(&self.tmp_path);
                super::temp::unregister(&self.tmp_path);
                return Err(e);
            }
        };
        Ok(Closed {
            table: std::mem::take(&mut self.table),
            file: Some(file.finish()),
            tmp_path: std::mem::take(&mut self.tmp_path),
            final_path: std::mem::take(&mut self.final_path),
            rows: self.rows,
            #[cfg(test)]
            spliced: self.spliced,
        })
    }
}

/// A table's file written in full under its temporary name, not yet synced.
pub struct Closed {
    table: String,
    file: Option<File>,
    tmp_path: PathBuf,
    final_path: PathBuf,
    rows: u64,
    /// Column chunks spliced from their source rather than encoded.
    #[cfg(test)]
    spliced: u64,
}

impl Closed {
    /// The table's path in the dataset.
    pub fn table(&self) -> &str {
        &self.table
    }

    /// Waits until the file is on disk, then gives it its final name; the
    /// rows written.
    pub fn commit(mut self) -> Result<u64, Error> {
        let file = self.file.as_ref().expect("not committed yet");
        file.sync_all().map_err(|source| Error::Write {
            path: self.tmp_path.clone(),
            source,
        })?;
        std::fs::rename(&self.tmp_path, &self.final_path).map_err(|source| Error::Write {
            path: self.final_path.clone(),
            source,
        })?;
        super::temp::unregister(&self.tmp_path);
        self.file = None;
        Ok(self.rows)
    }
}

impl Drop for Closed {
    fn drop(&mut self) {
        if self.file.is_some() {
            // Not committed: never leave a partial file behind.
            let _ = std::fs::remove_file(&self.tmp_path);
            super::temp::unregister(&self.tmp_path);
        }
    }
}

impl Drop for TableSink {
    fn drop(&mut self) {
        if self.file.is_some() {
            // Not finished: never leave a partial file behind.
            let _ = std::fs::remove_file(&self.tmp_path);
            super::temp::unregister(&self.tmp_path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::builder::{Int32Builder, ListBuilder, StringBuilder};
    use arrow_array::{Array, ArrayRef, Int64Array};
    use arrow_schema::{DataType, Field, Schema};
    use arrow_select::concat::concat_batches;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    fn cards_schema() -> SchemaRef {
        let list = DataType::List(Arc::new(Field::new("item", DataType::Utf8, true)));
        Arc::new(Schema::new(vec![
            Field::new("id", DataType::Int64, false),
            Field::new("dealt", list.clone(), true),
            Field::new("computed_dealt", list, true),
        ]))
    }

    /// Rows `from..from+n`; the copy differs from the source in the rows
    /// `differ` picks (a card changed, or null).
    fn cards(from: i64, n: i64, differ: impl Fn(i64) -> bool) -> RecordBatch {
        let hand = |r: i64| -> Vec<String> {
            (0..(r % 7) + 1)
                .map(|k| ["AS", "TD", "KC", "QH", "JS"][((r + k) % 5) as usize].to_string())
                .collect()
        };
        let mut dealt = ListBuilder::new(StringBuilder::new());
        let mut computed = ListBuilder::new(StringBuilder::new());
        for r in from..from + n {
            let c = hand(r);
            dealt.append_value(c.iter().map(Some));
            if !differ(r) {
                computed.append_value(c.iter().map(Some));
            } else if r % 2 == 0 {
                computed.append_null();
            } else {
                computed.append_value([Some("9H")]);
            }
        }
        let cols: Vec<ArrayRef> = vec![
            Arc::new(Int64Array::from_iter_values(from..from + n)),
            Arc::new(dealt.finish()),
            Arc::new(computed.finish()),
        ];
        RecordBatch::try_new(cards_schema(), cols).unwrap()
    }

    fn tricks_schema() -> SchemaRef {
        Arc::new(Schema::new(vec![
            Field::new("id", DataType::Int64, false),
            Field::new("winner", DataType::Utf8, true),
            Field::new("points", DataType::Int32, true),
            Field::new("computed_winner", DataType::Utf8, true),
            Field::new("computed_points", DataType::Int32, true),
        ]))
    }

    /// Dictionary-encoded pairs; `long` makes every winner a distinct
    /// 200-byte string, so the dictionary outgrows its page limit and the
    /// writer falls back to plain encoding in the middle of the chunk.
    fn tricks(from: i64, n: i64, long: bool) -> RecordBatch {
        let mut winner = StringBuilder::new();
        let mut points = Int32Builder::new();
        for r in from..from + n {
            if r % 11 == 0 {
                winner.append_null();
            } else if long {
                winner.append_value(format!("{r:0>200}"));
            } else {
                winner.append_value(["N", "E", "S", "W"][(r % 4) as usize]);
            }
            points.append_option((r % 13 != 0).then_some((r % 9) as i32));
        }
        let (w, p): (ArrayRef, ArrayRef) = (Arc::new(winner.finish()), Arc::new(points.finish()));
        let id: ArrayRef = Arc::new(Int64Array::from_iter_values(from..from + n));
        RecordBatch::try_new(tricks_schema(), vec![id, w.clone(), p.clone(), w, p]).unwrap()
    }

    /// The spec of a test table `t`, hinted by its column names as a game's
    /// tables are.
    fn spec(schema: SchemaRef) -> TableSpec {
        let hints = schema
            .fields()
            .iter()
            .map(|f| match f.name().as_str() {
                "id" => Hints::NONE.unique(),
                "dealt" => Hints::CARDS,
                "computed_dealt" => Hints::CARDS.copy_of("dealt"),
                "computed_winner" => Hints::NONE.copy_of("winner"),
                "computed_points" => Hints::NONE.copy_of("points"),
                _ => Hints::NONE,
            })
            .collect();
        TableSpec {
            path: "t".into(),
            schema,
            hints,
        }
    }

    /// A sink of `spec(schema)`, its pages built here if `direct`.
    fn create_with(dir: &Path, schema: SchemaRef, o: &SinkOptions, direct: bool) -> TableSink {
        let o = SinkOptions {
            writer: if direct { Writer::Fast } else { Writer::Arrow },
            ..o.clone()
        };
        TableSink::create(dir, &spec(schema), &o).unwrap()
    }

    fn opts(row_group_rows: usize) -> SinkOptions {
        SinkOptions {
            codec: Codec::Zstd,
            writer: Writer::Fast,
            row_group_rows,
            part: 0,
            metadata: vec![("k".into(), "v".into())],
        }
    }

    /// Writes `batches` through a TableSink; returns the file's bytes and
    /// how many chunks were spliced.
    fn sink_bytes(dir: &Path, batches: &[RecordBatch], row_group_rows: usize) -> (Vec<u8>, u64) {
        sink_bytes_with(dir, batches, row_group_rows, false)
    }

    /// [`sink_bytes`], the card lists' pages built by `list_pages` if
    /// `direct`.
    fn sink_bytes_with(
        dir: &Path,
        batches: &[RecordBatch],
        row_group_rows: usize,
        direct: bool,
    ) -> (Vec<u8>, u64) {
        let schema = batches[0].schema();
        let mut sink = create_with(dir, schema, &opts(row_group_rows), direct);
        for b in batches {
            sink.write(b.clone()).unwrap();
        }
        let closed = sink.close().unwrap();
        let spliced = closed.spliced;
        let rows = closed.commit().unwrap();
        let total: usize = batches.iter().map(|b| b.num_rows()).sum();
        assert_eq!(rows, total as u64);
        let bytes = std::fs::read(dir.join("t/part-00000.parquet")).unwrap();
        (bytes, spliced)
    }

    /// The same batches through the plain Arrow writer, re-cut the same way.
    fn arrow_writer_bytes(batches: &[RecordBatch], row_group_rows: usize) -> Vec<u8> {
        let schema = batches[0].schema();
        let props = writer_properties(&spec(schema.clone()), &opts(row_group_rows));
        let mut w = ArrowWriter::try_new(Vec::new(), schema.clone(), Some(props)).unwrap();
        let all = concat_batches(&schema, batches).unwrap();
        let mut at = 0;
        while at < all.num_rows() {
            let n = WRITE_BATCH_ROWS.min(all.num_rows() - at);
            w.write(&all.slice(at, n)).unwrap();
            at += n;
        }
        w.into_inner().unwrap()
    }

    /// The file's rows and its row groups' sizes.
    fn read(bytes: Vec<u8>) -> (RecordBatch, Vec<i64>) {
        let b = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(bytes)).unwrap();
        let groups = b
            .metadata()
            .row_groups()
            .iter()
            .map(|g| g.num_rows())
            .collect();
        let schema = b.schema().clone();
        let batches: Vec<RecordBatch> = b.build().unwrap().map(|b| b.unwrap()).collect();
        (concat_batches(&schema, &batches).unwrap(), groups)
    }

    #[test]
    fn a_closed_file_is_renamed_only_when_committed() {
        let dir = tempfile::tempdir().unwrap();
        let batches = [cards(0, 100, |_| false)];
        let tmp = dir.path().join("t/.part-00000.parquet.tmp");
        let done = dir.path().join("t/part-00000.parquet");
        let sink = |dir: &Path| {
            let mut s = create_with(dir, cards_schema(), &opts(1000), true);
            s.write(batches[0].clone()).unwrap();
            s
        };
        // Closed but dropped before its commit: nothing is left.
        let closed = sink(dir.path()).close().unwrap();
        assert!(tmp.exists() && !done.exists());
        drop(closed);
        assert!(!tmp.exists() && !done.exists());
        // Committed: the whole file under its final name.
        let closed = sink(dir.path()).close().unwrap();
        assert_eq!(closed.table(), "t");
        assert_eq!(closed.commit().unwrap(), 100);
        assert!(!tmp.exists());
        let committed = std::fs::read(&done).unwrap();
        let other = tempfile::tempdir().unwrap();
        let (bytes, _) = sink_bytes_with(other.path(), &batches, 1000, true);
        assert_eq!(committed, bytes);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_that_cannot_be_written_when_closed_is_removed() {
        // The temporary name is a link to /dev/full: every write to it
        // fails, first when the small file's buffer is written out at close.
        let dir = tempfile::tempdir().unwrap();
        let tmp = dir.path().join("t/.part-00000.parquet.tmp");
        std::fs::create_dir_all(dir.path().join("t")).unwrap();
        std::os::unix::fs::symlink("/dev/full", &tmp).unwrap();
        let mut s = create_with(dir.path(), cards_schema(), &opts(1000), true);
        s.write(cards(0, 100, |_| false)).unwrap();
        assert!(matches!(
            s.close(),
            Err(Error::Parquet { .. } | Error::Write { .. })
        ));
        assert!(std::fs::symlink_metadata(&tmp).is_err());
        assert!(!dir.path().join("t/part-00000.parquet").exists());
    }

    #[test]
    fn rows_with_large_values_are_written_without_waiting_for_a_full_run() {
        // Rows of 3 MiB: the sink never holds WRITE_BATCH_BYTES of them,
        // and the file is the same however the rows come in batches.
        let schema = Arc::new(Schema::new(vec![
            Field::new("id", DataType::Int64, false),
            Field::new("comment", DataType::Utf8, true),
        ]));
        let batch = |from: i64, n: i64| {
            let text: arrow_array::StringArray = (from..from + n)
                .map(|r| Some(format!("{r:>8}").repeat(3 << 17)))
                .collect();
            let cols: Vec<ArrayRef> = vec![
                Arc::new(Int64Array::from_iter_values(from..from + n)),
                Arc::new(text),
            ];
            RecordBatch::try_new(schema.clone(), cols).unwrap()
        };
        let dir = tempfile::tempdir().unwrap();
        let mut files = Vec::new();
        for cuts in [vec![40], vec![7, 19, 40], (1..=40).collect()] {
            let sub = dir.path().join(format!("{}", cuts.len()));
            let mut sink = create_with(&sub, schema.clone(), &opts(1 << 20), true);
            let mut from = 0;
            for c in cuts {
                sink.write(batch(from, c - from)).unwrap();
                from = c;
                assert!(sink.pending.value_bytes() < WRITE_BATCH_BYTES);
                assert!(sink.pending.num_rows() < 11, "3 MiB rows");
            }
            assert_eq!(sink.finish().unwrap(), 40);
            files.push(std::fs::read(sub.join("t/part-00000.parquet")).unwrap());
        }
        assert!(files.iter().all(|f| f == &files[0]));
        let (back, _) = read(files.pop().unwrap());
        assert_eq!(back.column(1).as_ref(), batch(0, 40).column(1).as_ref());
    }

    #[test]
    fn a_repeating_column_is_spliced_byte_for_byte() {
        // Every row repeats: the file is the Arrow writer's file, byte for
        // byte, with row groups cut by rows (5,000) across batch boundaries.
        let dir = tempfile::tempdir().unwrap();
        let batches = [cards(0, 9000, |_| false), cards(9000, 12000, |_| false)];
        for (rows, groups) in [(5000, 5), (1 << 20, 1)] {
            let (ours, spliced) = sink_bytes(dir.path(), &batches, rows);
            assert_eq!(spliced, groups);
            assert_eq!(
                ours,
                arrow_writer_bytes(&batches, rows),
                "row groups of {rows}"
            );
        }
        let (back, groups) = read(sink_bytes(dir.path(), &batches, 5000).0);
        assert_eq!(groups, vec![5000, 5000, 5000, 5000, 1000]);
        assert_eq!(
            back.columns(),
            concat_batches(&cards_schema(), &batches).unwrap().columns()
        );
    }

    #[test]
    fn card_lists_built_directly_read_back_the_same_and_are_spliced_the_same() {
        // The card lists' own pages (`list_pages`): the same values and row
        // groups as the Arrow writer's, and the copy still spliced from them
        // where it repeats, also when it stops repeating.
        let dir = tempfile::tempdir().unwrap();
        let batches = [
            cards(0, 8192, |_| false),
            cards(8192, 8192, |r| r == 9000 || r == 9001),
            cards(16384, 3000, |_| false),
        ];
        let expected = concat_batches(&cards_schema(), &batches).unwrap();
        for rows in [5000, 1 << 20] {
            let (direct, direct_spliced) = sink_bytes_with(dir.path(), &batches, rows, true);
            let (arrow, arrow_spliced) = sink_bytes_with(dir.path(), &batches, rows, false);
            assert_ne!(direct, arrow);
            assert_eq!(direct_spliced, arrow_spliced);
            assert!(direct_spliced > 0);
            let ((back, groups), (_, arrow_groups)) = (read(direct), read(arrow));
            assert_eq!(back.columns(), expected.columns());
            assert_eq!(groups, arrow_groups);
        }
    }

    #[test]
    fn dictionary_pages_are_spliced_first_even_after_a_fallback() {
        let dir = tempfile::tempdir().unwrap();
        for long in [false, true] {
            let batches = [tricks(0, 20000, long), tricks(20000, 5000, long)];
            for (rows, spliced_groups) in [(7000, 4), (1 << 20, 1)] {
                let (ours, spliced) = sink_bytes(dir.path(), &batches, rows);
                // Two pairs per row group.
                assert_eq!(spliced, 2 * spliced_groups);
                assert_eq!(
                    ours,
                    arrow_writer_bytes(&batches, rows),
                    "long {long}, {rows} rows"
                );
            }
        }
        // The fallback really happened: the long winners' chunk has both a
        // dictionary and plain pages.
        let (bytes, _) = sink_bytes(dir.path(), &[tricks(0, 25000, true)], 1 << 20);
        let meta = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(bytes))
            .unwrap()
            .metadata()
            .clone();
        let chunk = meta.row_group(0).column(3);
        assert!(chunk.dictionary_page_offset().is_some());
        // (The mask holds the data pages' encodings only; the chunk's own
        // encoding list would name PLAIN for the dictionary page anyway.)
        let data_pages = chunk.page_encoding_stats_mask().expect("read as a mask");
        assert!(data_pages.is_set(Encoding::RLE_DICTIONARY));
        assert!(data_pages.is_set(Encoding::PLAIN));
    }

    #[test]
    fn a_copy_that_stops_repeating_ends_the_row_group_once() {
        // Rows 0..8192 repeat (spliced); the next write batch has rows that
        // differ, so a new group starts there and encodes the copy; the copy
        // stays encoded for the rest of the file, even in the third group
        // whose first rows repeat again.
        let dir = tempfile::tempdir().unwrap();
        let batches = [
            cards(0, 8192, |_| false),
            cards(8192, 8192, |r| r == 9000 || r == 9001),
            cards(16384, 8192, |_| false),
            cards(24576, 100, |r| r == 24600),
        ];
        let expected = concat_batches(&cards_schema(), &batches).unwrap();
        for (rows, groups) in [
            (1 << 20, vec![8192, 16484]),
            (10000, vec![8192, 10000, 6484]),
        ] {
            let (bytes, spliced) = sink_bytes(dir.path(), &batches, rows);
            assert_eq!(spliced, 1);
            let (back, got) = read(bytes);
            assert_eq!(got, groups);
            assert_eq!(back.columns(), expected.columns());
            assert!(back.column(2).is_null(9000));
            assert_eq!(back.column(2).null_count(), 2);
        }
        // The values are the Arrow writer's, whatever the row groups.
        let (plain, plain_groups) = read(arrow_writer_bytes(&batches, 1 << 20));
        assert_eq!(plain.columns(), expected.columns());
        assert_eq!(plain_groups, vec![24676]);
    }
}
