//! Inputs to tables: for each file, a sequential scan finds records; windows of
//! records are cut into groups that rayon parses in parallel; the notation then
//! resolves, in input order, what depends on earlier records; groups are built
//! into Arrow batches in parallel and written in input order. Memory is bounded
//! by the window size, not by the input.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod budget;
mod feed;
mod read_ahead;
mod small;
mod window;

use arrow_array::RecordBatch;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::Error;
use crate::columns::SCHEMA_VERSION;
use crate::notation::ppn::Ppn;
use crate::notation::{FileInfo, Notation};
use crate::sink::parquet::{Closed, Codec, SinkOptions, TableSink};
use crate::source::Input;
use feed::FileRun;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OnError {
    /// Quarantine bad records in the `errors` table and go on.
    #[default]
    Skip,
    /// Stop at the first record that cannot be converted.
    Fail,
}

#[derive(Clone, Debug)]
pub struct Options {
    pub threads: usize,
    pub codec: Codec,
    pub row_group_rows: usize,
    pub on_error: OnError,
    /// Show a progress bar (it still hides itself when stderr is not a terminal).
    pub progress: bool,
    /// Replace the tables of an existing output directory.
    pub force: bool,
    /// Bytes fed to the splitter at a time.
    pub chunk_bytes: usize,
    /// Bytes of records parsed by one task.
    pub group_bytes: usize,
    /// Bytes of Arrow arrays one window may build: a window is cut smaller
    /// when, at the ratio of the window before, it would build more (see
    /// `pipeline/budget.rs`).
    pub window_array_bytes: usize,
    /// Rules profiles and whether to compute derived columns.
    pub rules: crate::notation::ppn::RulesConfig,
    /// Called on the writer thread after it has written windows of few rows
    /// and many bytes (hands with values of megabytes), so that an
    /// allocator that keeps freed memory a while can give it back at once
    /// (the binary's asks mimalloc to; see `main.rs`). None: nothing.
    pub release_memory: Option<fn()>,
    /// Build the groups of runs of small files together (see
    /// `pipeline/small.rs`); the same bytes are written either way.
    pub join_small_inputs: bool,
    /// With `join_small_inputs`: the rows built together are handed over a
    /// file at a time (slices of the tables, nothing copied), for a consumer
    /// that needs each file's rows apart (`export` writes a header a file).
    pub hand_over_by_file: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            codec: Codec::Zstd,
            row_group_rows: 1 << 20,
            on_error: OnError::Skip,
            progress: true,
            force: false,
            chunk_bytes: 4 << 20,
            group_bytes: 256 << 10,
            window_array_bytes: 32 << 20,
            rules: Default::default(),
            release_memory: None,
            join_small_inputs: true,
            hand_over_by_file: false,
        }
    }
}

impl Options {
    /// Bytes of records handed to one window.
    pub(crate) fn window_bytes(&self) -> usize {
        self.group_bytes.max(1) * self.threads.max(1) * 4
    }
}

/// Counts for one input file.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct FileSummary {
    pub path: String,
    pub bytes: u64,
    /// Records found by the splitter (comment-only blocks excluded).
    pub records: u64,
    pub hands: u64,
    pub quarantined: u64,
    pub warnings: u64,
    /// Diagnostics for information, such as why computed values are null.
    pub infos: u64,
    /// Blocks holding only comments or escape lines: not hands, not errors.
    pub comment_blocks: u64,
    /// How the input itself was damaged (a broken compressed stream), if it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_warning: Option<String>,
}

impl FileSummary {
    /// Adds another file's counts to these.
    pub fn add(&mut self, f: &FileSummary) {
        self.bytes += f.bytes;
        self.records += f.records;
        self.hands += f.hands;
        self.quarantined += f.quarantined;
        self.warnings += f.warnings;
        self.infos += f.infos;
        self.comment_blocks += f.comment_blocks;
    }
}

#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub files: Vec<FileSummary>,
    /// Rows written per table.
    pub rows: Vec<(&'static str, u64)>,
    pub elapsed: Duration,
}

impl Summary {
    /// The summary as JSON: totals, per-file counts and rows per table.
    /// `records` always equals `hands + quarantined`.
    pub fn to_json(&self) -> String {
        let mut total = self.total();
        total.path = String::new();
        let rows: serde_json::Map<String, serde_json::Value> = self
            .rows
            .iter()
            .map(|(t, n)| (t.to_string(), (*n).into()))
            .collect();
        serde_json::to_string_pretty(&serde_json::json!({
            "deckhand_version": env!("CARGO_PKG_VERSION"),
            "records": total.records,
            "converted": total.hands,
            "quarantined": total.quarantined,
            "warnings": total.warnings,
            "infos": total.infos,
            "comment_blocks": total.comment_blocks,
            "bytes": total.bytes,
            "seconds": self.elapsed.as_secs_f64(),
            "rows": rows,
            "files": self.files,
        }))
        .expect("serializable")
    }

    pub fn total(&self) -> FileSummary {
        let mut t = FileSummary::default();
        for f in &self.files {
            t.add(f);
        }
        t
    }
}

/// Prepares the output directory: refuses to touch a non-empty one unless forced.
fn prepare_out_dir(out: &Path, tables: &[&str], force: bool) -> Result<(), Error> {
    let werr = |source| Error::Write {
        path: out.to_path_buf(),
        source,
    };
    if out.exists() {
        if !out.is_dir() {
            return Err(Error::OutputNotDirectory(out.to_path_buf()));
        }
        let non_empty = std::fs::read_dir(out).map_err(werr)?.next().is_some();
        if non_empty && !force {
            return Err(Error::OutputExists(out.to_path_buf()));
        }
        for t in tables {
            let d = out.join(t);
            if d.is_dir() {
                std::fs::remove_dir_all(&d).map_err(|source| Error::Write { path: d, source })?;
            }
        }
    }
    std::fs::create_dir_all(out).map_err(werr)
}

/// Parses every input (without writing Parquet), handing each window's
/// batches to `on_tables` with the file they come from (with
/// `Options::join_small_inputs`, batches of runs of small files go together,
/// with the first of them, unless `Options::hand_over_by_file`); for `check`
/// and `export`.
pub fn parse_inputs(
    inputs: &[PathBuf],
    opts: &Options,
    on_tables: &mut FileConsumer<'_>,
) -> Result<Vec<FileSummary>, Error> {
    let ppn = Ppn {
        rules: opts.rules.clone(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.max(1))
        .build()
        .expect("thread pool");
    let mut files = Vec::new();
    let bar = ProgressBar::hidden();
    run_inputs(
        &ppn,
        inputs,
        &sizes_of(inputs),
        opts,
        &pool,
        &bar,
        Instant::now(),
        on_tables,
        &mut files,
        opts.join_small_inputs,
    )?;
    Ok(files)
}

/// A window's batches: one list per table.
type WindowBatches = Vec<Vec<RecordBatch>>;

/// The size of each input that is a regular file (links followed), for
/// the progress bar's total and to tell small files: one `stat` an input.
/// None for standard input (`-`, even when a file of that name exists) and
/// for what is not a readable regular file.
fn sizes_of(inputs: &[PathBuf]) -> Vec<Option<u64>> {
    inputs
        .iter()
        .map(|p| {
            if p.as_os_str() == crate::source::STDIN {
                return None;
            }
            std::fs::metadata(p)
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len())
        })
        .collect()
}

/// Inputs at most this large (on disk) may be parsed several at a time.
const SMALL_INPUT: u64 = 1 << 20;

/// Parses `inputs` in order, handing each window's batches to `on_tables`
/// and each file's summary to `files`. A file smaller than a group keeps one
/// thread busy, so runs of small files (together at most a window's bytes)
/// are parsed in parallel (`small.rs`): with `join`, built together into
/// tables that span files; else each into batches held aside and handed
/// over in input order, the same batches as one at a time. A file that fails
/// ends the run after the files before it and the windows it gave before
/// failing, as it would one at a time.
#[allow(clippy::too_many_arguments)]
fn run_inputs<N: Notation>(
    notation: &N,
    inputs: &[PathBuf],
    sizes: &[Option<u64>],
    opts: &Options,
    pool: &rayon::ThreadPool,
    bar: &ProgressBar,
    started: Instant,
    on_tables: &mut FileConsumer<'_>,
    files: &mut Vec<FileSummary>,
    join: bool,
) -> Result<(), Error> {
    let info = |index: usize| FileInfo {
        name: file_name(&inputs[index]),
        index: index as u64,
    };
    let window = opts.window_bytes() as u64;
    let small = |k: usize| sizes[k].filter(|&len| len <= SMALL_INPUT);
    let mut i = 0;
    while i < inputs.len() {
        // The run of small files from `i`.
        let (mut end, mut bytes) = (i, 0);
        while (opts.threads > 1 || join)
            && end < inputs.len()
            && let Some(len) = small(end)
            && (end == i || bytes + len <= window)
        {
            bytes += len;
            end += 1;
        }
        if end - i < 2 {
            let file = info(i);
            let mut consume = |t: WindowBatches| on_tables(&file, t);
            files.push(run_input(
                notation,
                &file,
                &inputs[i],
                opts,
                pool,
                &mut consume,
                bar,
                started,
            )?);
            i += 1;
            continue;
        }
        let run: Vec<small::SmallFile<'_>> = (i..end)
            .map(|k| (info(k), &inputs[k], small(k).unwrap_or(0)))
            .collect();
        let cx = small::RunCtx {
            notation,
            opts,
            pool,
            bar,
            started,
        };
        small::run_small(&cx, &run, join, on_tables, files)?;
        i = end;
    }
    Ok(())
}

/// Parses PPN bytes in memory (no output files) and hands every window's
/// batches to `consume`: for benchmarks, `deckhand bench` and tests.
pub fn parse_bytes(
    bytes: &[u8],
    name: &str,
    opts: &Options,
    consume: &mut Consumer<'_>,
) -> Result<FileSummary, Error> {
    in_memory(name, opts, consume, |run| run.run_bytes(bytes))
}

/// [`parse_bytes`] for an input read in pieces (as stdin and compressed files
/// are), with memory bounded whatever its size.
pub fn parse_reader(
    reader: &mut dyn std::io::Read,
    name: &str,
    opts: &Options,
    consume: &mut Consumer<'_>,
) -> Result<FileSummary, Error> {
    in_memory(name, opts, consume, |run| {
        run.run_stream(&mut feed::Counted::new(reader))
    })
}

/// One PPN input parsed with no output files and no progress bar.
fn in_memory(
    name: &str,
    opts: &Options,
    consume: &mut Consumer<'_>,
    go: impl FnOnce(FileRun<'_, '_, Ppn>) -> Result<FileSummary, Error>,
) -> Result<FileSummary, Error> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.max(1))
        .build()
        .expect("thread pool");
    let file = FileInfo {
        name: name.to_string(),
        index: 0,
    };
    let ppn = Ppn {
        rules: opts.rules.clone(),
    };
    let bar = ProgressBar::hidden();
    go(FileRun::new(
        &ppn,
        &file,
        opts,
        &pool,
        consume,
        &bar,
        Instant::now(),
    ))
}

/// Converts PPN inputs into a dataset directory.
pub fn convert(inputs: &[PathBuf], out_dir: &Path, opts: &Options) -> Result<Summary, Error> {
    let ppn = Ppn {
        rules: opts.rules.clone(),
    };
    convert_with(&ppn, &Ppn::schemas(), inputs, out_dir, opts)
}

fn file_name(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

pub fn convert_with<N: Notation>(
    notation: &N,
    schemas: &[(&'static str, arrow_schema::SchemaRef)],
    inputs: &[PathBuf],
    out_dir: &Path,
    opts: &Options,
) -> Result<Summary, Error> {
    let started = Instant::now();
    let names: Vec<&str> = schemas.iter().map(|s| s.0).collect();
    prepare_out_dir(out_dir, &names, opts.force)?;
    let inputs_json =
        serde_json::to_string(&inputs.iter().map(|p| file_name(p)).collect::<Vec<_>>())
            .expect("strings serialize");
    let sink_opts = SinkOptions {
        codec: opts.codec,
        row_group_rows: opts.row_group_rows,
        metadata: vec![
            ("deckhand.version".into(), env!("CARGO_PKG_VERSION").into()),
            ("deckhand.schema_version".into(), SCHEMA_VERSION.into()),
            ("deckhand.notation".into(), notation.name().into()),
            ("deckhand.inputs".into(), inputs_json),
        ],
    };
    let mut sinks = schemas
        .iter()
        .map(|(t, s)| TableSink::create(out_dir, t, s.clone(), &sink_opts))
        .collect::<Result<Vec<_>, _>>()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.max(1))
        .build()
        .expect("thread pool");
    let sizes = sizes_of(inputs);
    let total: u64 = sizes.iter().flatten().sum();
    let bar = if opts.progress {
        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{bar:30}] {bytes}/{total_bytes} {binary_bytes_per_sec} {msg} ETA {eta}",
        )
        .expect("template")
        .progress_chars("=> "),
    );
    let mut summary = Summary::default();
    // Writing runs on its own thread, one window behind parsing, through a
    // bounded channel (back-pressure: at most WINDOWS_IN_FLIGHT windows wait).
    // Each message says whether its windows hold large values (few rows,
    // many bytes).
    let (tx, rx) = std::sync::mpsc::sync_channel::<(WindowBatches, bool)>(WINDOWS_IN_FLIGHT);
    let release_memory = opts.release_memory;
    let parsed: Result<(), Error> = std::thread::scope(|scope| {
        let pool = &pool;
        let writer = scope.spawn(move || -> Result<Vec<TableSink>, Error> {
            for (per_table, large) in rx {
                write_tables(pool, &mut sinks, per_table)?;
                if let (true, Some(release)) = (large, release_memory) {
                    release();
                }
            }
            Ok(sinks)
        });
        // Small windows (a small file gives one) are joined before they go
        // to the writer, so that the parser does not wait on the writer for
        // each one (the channel holds two). A closed channel means the
        // writer stopped on an error, which its join below reports.
        let mut pending: WindowBatches = Vec::new();
        let (mut pending_rows, mut pending_bytes) = (0, 0);
        let mut send = |_: &FileInfo, per_table: WindowBatches| {
            for b in per_table.iter().flatten() {
                pending_rows += b.num_rows();
                pending_bytes += b.get_array_memory_size();
            }
            if pending.is_empty() {
                pending = per_table;
            } else {
                for (p, t) in pending.iter_mut().zip(per_table) {
                    p.extend(t);
                }
            }
            if pending_rows >= JOINED_ROWS || pending_bytes >= JOINED_BYTES {
                let large = pending_rows < JOINED_ROWS;
                let _ = tx.send((compact(std::mem::take(&mut pending))?, large));
                (pending_rows, pending_bytes) = (0, 0);
            }
            Ok(())
        };
        let result = run_inputs(
            notation,
            inputs,
            &sizes,
            opts,
            pool,
            &bar,
            started,
            &mut send,
            &mut summary.files,
            opts.join_small_inputs,
        );
        if !pending.is_empty() {
            let _ = tx.send((compact(pending)?, false));
        }
        drop(tx);
        let sinks = writer.join().expect("writer thread does not panic")?;
        result?;
        bar.finish_and_clear();
        // Each table's last row group is encoded and its file closed in
        // parallel, as the tables were written; then, with every file's
        // write-out started, each is synced and renamed.
        let rows: Vec<(&'static str, Result<u64, Error>)> = pool.install(|| {
            let closed: Vec<_> = sinks
                .into_par_iter()
                .map(|s| (s.table(), s.close()))
                .collect();
            closed
                .into_par_iter()
                .map(|(t, c)| (t, c.and_then(Closed::commit)))
                .collect()
        });
        for (t, n) in rows {
            summary.rows.push((t, n?));
        }
        Ok(())
    });
    parsed?;
    summary.elapsed = started.elapsed();
    Ok(summary)
}

/// Windows of batches that may wait for the writer.
const WINDOWS_IN_FLIGHT: usize = 2;

/// Rows (of all tables) below which windows are joined before they go to
/// the writer: about 1 MiB of input (a full window of 4 MiB has some 190,000).
const JOINED_ROWS: usize = 50_000;

/// Bytes of Arrow arrays at which joined windows go to the writer whatever
/// their rows (a few hands with values of megabytes). 50,000 rows of
/// generated hands, about 1.2 MB of input, build about 5 MB of arrays (4.3
/// bytes an input byte in `deckhand bench`).
const JOINED_BYTES: usize = 16 << 20;

/// Joined windows of many small files hold a batch per file and table, each
/// with its own buffers for every column, and the writer keeps up to 8,192
/// rows of them (20,000 files of one hand: 546 MB of anonymous memory at the
/// peak). Past this many batches, a table's are concatenated into one before
/// they go to the writer (the bytes written do not depend on how rows come
/// in batches).
const COMPACT_BATCHES: usize = 64;

fn compact(per_table: WindowBatches) -> Result<WindowBatches, Error> {
    per_table
        .into_iter()
        .map(|batches| {
            if batches.len() <= COMPACT_BATCHES {
                return Ok(batches);
            }
            let joined = arrow_select::concat::concat_batches(&batches[0].schema(), &batches)?;
            Ok(vec![joined])
        })
        .collect()
}

/// Where a file's windows of batches go, with the file they come from.
pub type FileConsumer<'c> = dyn FnMut(&FileInfo, Vec<Vec<RecordBatch>>) -> Result<(), Error> + 'c;

/// Where a window's batches go: one list per table, in the notation's table order.
pub type Consumer<'c> = dyn FnMut(Vec<Vec<RecordBatch>>) -> Result<(), Error> + 'c;

/// Tables are independent: encode them in parallel. Each sink still receives
/// its batches in input order, so the bytes written do not change.
fn write_tables(
    pool: &rayon::ThreadPool,
    sinks: &mut [TableSink],
    per_table: Vec<Vec<RecordBatch>>,
) -> Result<(), Error> {
    pool.install(|| {
        sinks
            .par_iter_mut()
            .zip(per_table)
            .try_for_each(|(sink, batches)| batches.into_iter().try_for_each(|b| sink.write(b)))
    })
}

/// Opens one input and parses it, mapped or streamed.
#[allow(clippy::too_many_arguments)]
fn run_input<N: Notation>(
    notation: &N,
    file: &FileInfo,
    path: &Path,
    opts: &Options,
    pool: &rayon::ThreadPool,
    consume: &mut Consumer<'_>,
    bar: &ProgressBar,
    started: Instant,
) -> Result<FileSummary, Error> {
    let run = FileRun::new(notation, file, opts, pool, consume, bar, started);
    match Input::open(path)? {
        Input::Mapped(map) => run.run_bytes(&map),
        Input::Stream(stream) => {
            let (stream, fs) =
                read_ahead::with_read_ahead(stream, opts.chunk_bytes, |r| run.run_stream(r));
            let mut fs = fs?;
            fs.input_warning = stream.warning().map(str::to_string);
            Ok(fs)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{Int32Array, RecordBatch};
    use arrow_schema::{DataType, Field, Schema};
    use std::sync::Arc;

    #[test]
    fn many_small_batches_of_a_table_are_joined_into_one() {
        let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int32, false)]));
        let batch = |v: i32| {
            RecordBatch::try_new(schema.clone(), vec![Arc::new(Int32Array::from(vec![v]))]).unwrap()
        };
        let few: Vec<RecordBatch> = (0..COMPACT_BATCHES as i32).map(batch).collect();
        let many: Vec<RecordBatch> = (0..100).map(batch).collect();
        let out = compact(vec![few.clone(), many.clone(), Vec::new()]).unwrap();
        assert_eq!(out[0], few);
        assert_eq!(out[1].len(), 1);
        assert_eq!(
            out[1][0],
            arrow_select::concat::concat_batches(&schema, &many).unwrap()
        );
        assert!(out[2].is_empty());
    }
}
