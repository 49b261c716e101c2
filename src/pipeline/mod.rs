//! Inputs to tables: each input is routed to a notation ([`route`]);
//! for each file, a sequential scan finds records; windows of records are cut
//! into groups that rayon parses in parallel; the notation then resolves, in
//! input order, what depends on earlier records; groups are built into Arrow
//! batches in parallel and written in input order, each table to its own
//! sink. Memory is bounded by the window size, not by the input.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod budget;
mod dispatch;
mod feed;
pub mod manifest;
mod read_ahead;
pub mod route;
mod small;
mod window;

pub use dispatch::Run;

use arrow_array::RecordBatch;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::Error;
use crate::columns::SCHEMA_VERSION;
use crate::columns::errors_table::{ERRORS, ErrorsBuilder, RAW_LIMIT, RecordRef};
use crate::columns::table::TableDecl;
use crate::error::{Position, Severity};
use crate::notation::{FileInfo, Notation};
use crate::sink::writer::{Closed, Codec, SinkOptions, TableSink, TableSpec, Writer};
use crate::source::Input;
use feed::FileRun;
use route::{HEAD_BYTES, Registry, Route, Settings};

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
    /// Add part files to an existing dataset instead (`--append`): nothing
    /// there is removed.
    pub append: bool,
    /// The file index of the first input (the high bits of every record
    /// key): runs that add to one dataset continue where it ends. It also
    /// numbers the run's part files (`part-N.parquet`, [`Options::part`]),
    /// so runs into one dataset never write the same file.
    pub file_index_base: u64,
    /// A shard of a larger run, written beside others into one dataset
    /// (`dataset::Placement::Shard`): the output may hold other files; only
    /// this run's part files are checked (and with `force` replaced), and no
    /// temporary file of another is touched.
    pub shard: bool,
    /// Set (by another thread) to stop the run: it ends with
    /// [`Error::Stopped`] at its next window, its temporary files removed.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// The name the records of the input that can be read once only
    /// (standard input, a pipe: [`crate::source::reads_once`]) carry
    /// (`source_file`, the manifest); None: its path (`-` for standard
    /// input) (`--source-name`).
    pub stream_name: Option<String>,
    /// The names the inputs carry (`source_file`, the manifest), one an
    /// input in order, instead of their paths: for inputs copied from
    /// elsewhere (an object store) to a local file. None: their paths.
    pub input_names: Option<Vec<String>>,
    /// Write only these tables (paths in the dataset, `<game>/<table>`,
    /// `errors`); None: every table met (`--tables`).
    pub tables: Option<Vec<String>>,
    /// Bytes fed to the splitter at a time.
    pub chunk_bytes: usize,
    /// Bytes of records parsed by one task.
    pub group_bytes: usize,
    /// Bytes of Arrow arrays one window may build: a window is cut smaller
    /// when, at the ratio of the window before, it would build more (see
    /// `pipeline/budget.rs`).
    pub window_array_bytes: usize,
    /// The writer of the Parquet pages.
    pub writer: Writer,
    /// What the notations are told: rules, a forced notation.
    pub settings: Settings,
    /// The notations a run reads, configured by [`Options::settings`]
    /// (`Options::default()`: every notation of the composition root,
    /// `crate::registry`).
    pub notations: fn(&Settings) -> Result<Registry, String>,
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

impl Options {
    /// The default options, reading the notations `notations` gives.
    pub fn with_notations(notations: fn(&Settings) -> Result<Registry, String>) -> Self {
        Options {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            codec: Codec::Zstd,
            row_group_rows: 1 << 20,
            on_error: OnError::Skip,
            progress: true,
            force: false,
            append: false,
            file_index_base: 0,
            shard: false,
            cancel: None,
            tables: None,
            stream_name: None,
            input_names: None,
            chunk_bytes: 4 << 20,
            group_bytes: 256 << 10,
            window_array_bytes: 32 << 20,
            writer: Writer::default(),
            settings: Settings::default(),
            notations,
            release_memory: None,
            join_small_inputs: true,
            hand_over_by_file: false,
        }
    }

    /// The notations of a run with these options.
    pub fn registry(&self) -> Result<Registry, Error> {
        (self.notations)(&self.settings).map_err(Error::Settings)
    }

    /// The number of this run's part files: its first file index (at most
    /// 23 bits, see `notation::MAX_FILE_INDEX`).
    pub fn part(&self) -> u32 {
        self.file_index_base as u32
    }

    /// Bytes of records handed to one window.
    pub(crate) fn window_bytes(&self) -> usize {
        self.group_bytes.max(1) * self.threads.max(1) * 4
    }
}

/// Counts for one input file.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct FileSummary {
    pub path: String,
    /// The notation it was read as (its label); None when none took it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notation: Option<&'static str>,
    pub bytes: u64,
    /// Records found by the splitter (comment-only blocks excluded).
    pub records: u64,
    /// Records converted into rows of their game's record table.
    pub converted: u64,
    pub quarantined: u64,
    pub warnings: u64,
    /// Diagnostics for information, such as why computed values are null.
    pub infos: u64,
    /// Blocks holding only comments or escape lines: not hands, not errors.
    pub comment_blocks: u64,
    /// How the input itself was damaged (a broken compressed stream), if it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_warning: Option<String>,
    /// Errors and warnings by code.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub codes: std::collections::BTreeMap<String, u64>,
    /// The first errors and the first warnings ([`FIRST_DIAGNOSTICS`] of
    /// each), as `file:line:col: severity[code]: message`.
    #[serde(skip)]
    pub first: Vec<String>,
}

/// Errors, and warnings, a summary quotes.
pub const FIRST_DIAGNOSTICS: usize = 5;

/// Adds diagnostic `d` to `first` if it holds fewer than
/// [`FIRST_DIAGNOSTICS`] of its severity.
pub(crate) fn keep_first(first: &mut Vec<String>, d: &str) {
    let error = |x: &str| x.contains(": error[");
    let same = first.iter().filter(|x| error(x) == error(d)).count();
    if same < FIRST_DIAGNOSTICS {
        first.push(d.to_string());
    }
}

impl FileSummary {
    /// Adds another file's counts to these.
    pub fn add(&mut self, f: &FileSummary) {
        self.bytes += f.bytes;
        self.records += f.records;
        self.converted += f.converted;
        self.quarantined += f.quarantined;
        self.warnings += f.warnings;
        self.infos += f.infos;
        self.comment_blocks += f.comment_blocks;
        for (c, n) in &f.codes {
            *self.codes.entry(c.clone()).or_default() += n;
        }
        for d in &f.first {
            keep_first(&mut self.first, d);
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub files: Vec<FileSummary>,
    /// Rows written per table, by its path in the dataset.
    pub rows: Vec<(String, u64)>,
    /// Files found in the inputs' directories that are of no notation.
    pub left_out: Vec<String>,
    pub elapsed: Duration,
}

impl Summary {
    /// The summary as JSON: totals, per-file counts and rows per table.
    /// `records` always equals `converted + quarantined`.
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
            "converted": total.converted,
            "quarantined": total.quarantined,
            "warnings": total.warnings,
            "infos": total.infos,
            "comment_blocks": total.comment_blocks,
            "bytes": total.bytes,
            "seconds": self.elapsed.as_secs_f64(),
            "rows": rows,
            "files": self.files,
            "left_out": self.left_out,
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

/// Prepares the output directory: removes the temporary part files a
/// killed run left (deckhand's own names, `.part-N.parquet.tmp`), refuses
/// a directory that holds anything else unless forced, and then removes
/// the part files (`part-N.parquet`) of `tables` (paths in the dataset),
/// and nothing else of them.
fn prepare_out_dir(out: &Path, tables: &[String], opts: &Options) -> Result<(), Error> {
    let (force, append) = (opts.force, opts.append);
    let werr = |source| Error::Write {
        path: out.to_path_buf(),
        source,
    };
    if opts.shard && out.is_dir() {
        // Other shards may be writing here: only this one's part files.
        let names = [
            crate::sink::temp::part_name(opts.part()),
            crate::sink::temp::temp_part_name(opts.part()),
        ];
        for t in tables {
            for name in &names {
                let p = out.join(t).join(name);
                if !p.exists() {
                    continue;
                }
                if !force {
                    return Err(Error::Settings(format!(
                        "{} exists: a shard with this file index was converted into {} already (--force replaces its part files)",
                        p.display(),
                        out.display()
                    )));
                }
                std::fs::remove_file(&p).map_err(|source| Error::Write { path: p, source })?;
            }
        }
    } else if append && out.is_dir() {
        sweep_temp_parts(out)?;
    } else if out.exists() {
        if !out.is_dir() {
            return Err(Error::OutputNotDirectory(out.to_path_buf()));
        }
        let others = sweep_temp_parts(out)?;
        if others > 0 && !force {
            return Err(Error::OutputExists(out.to_path_buf()));
        }
        for t in tables {
            let d = out.join(t);
            let Ok(entries) = std::fs::read_dir(&d) else {
                continue;
            };
            for e in entries.flatten() {
                let name = e.file_name();
                if name.to_str().is_some_and(crate::sink::temp::is_part) {
                    let p = e.path();
                    std::fs::remove_file(&p).map_err(|source| Error::Write { path: p, source })?;
                }
            }
        }
    }
    std::fs::create_dir_all(out).map_err(werr)
}

/// Removes deckhand's temporary part files under `dir` (recursively);
/// the other files there.
fn sweep_temp_parts(dir: &Path) -> Result<usize, Error> {
    let mut others = 0;
    let entries = std::fs::read_dir(dir).map_err(|source| Error::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    for e in entries.flatten() {
        let p = e.path();
        let kind = e.file_type().map_err(|source| Error::Write {
            path: p.clone(),
            source,
        })?;
        if kind.is_dir() {
            others += sweep_temp_parts(&p)?;
        } else if e
            .file_name()
            .to_str()
            .is_some_and(crate::sink::temp::is_temp_part)
        {
            std::fs::remove_file(&p).map_err(|source| Error::Write { path: p, source })?;
        } else {
            others += 1;
        }
    }
    Ok(others)
}

/// Parses every input (without writing Parquet), handing each window's
/// batches to `on_tables` with the file they come from (with
/// `Options::join_small_inputs`, batches of runs of small files go together,
/// with the first of them, unless `Options::hand_over_by_file`); for `check`
/// and `export`. `only`: the inputs of other notations are an error (a
/// command that reads one notation).
pub fn parse_inputs(
    inputs: &[PathBuf],
    opts: &Options,
    only: Option<&str>,
    on_tables: &mut FileConsumer<'_>,
) -> Result<Vec<FileSummary>, Error> {
    let registry = opts.registry()?;
    let pool = thread_pool(opts);
    let mut files = Vec::new();
    let bar = progress_bar(opts, &sizes_of(inputs));
    let cx = Shared {
        opts,
        pool: &pool,
        bar: &bar,
        started: Instant::now(),
        inputs: inputs.len(),
    };
    let routed = route_inputs(&registry, inputs, &pool)?;
    if let Some(name) = only {
        for ((path, r), once) in inputs.iter().zip(&routed.routes).zip(&routed.once) {
            let got = match r {
                Route::To(k) => registry.get(*k).about(),
                Route::Unknown(_) if *once => continue,
                Route::Unknown(why) => {
                    return Err(Error::WrongNotation(path.clone(), why.clone()));
                }
            };
            if got.name != name {
                return Err(Error::WrongNotation(
                    path.clone(),
                    format!("it is {} ({}), not {name}", got.title, got.label),
                ));
            }
        }
    }
    run_all(
        &registry,
        inputs,
        &routed,
        &sizes_of(inputs),
        &cx,
        &mut |file, per_table| {
            stopped(opts)?;
            on_tables(file, per_table)
        },
        &mut files,
        opts.join_small_inputs,
    )?;
    Ok(files)
}

/// [`Error::Stopped`] once the run's cancel flag is set.
pub(crate) fn stopped(opts: &Options) -> Result<(), Error> {
    match &opts.cancel {
        Some(c) if c.load(std::sync::atomic::Ordering::Relaxed) => Err(Error::Stopped),
        _ => Ok(()),
    }
}

fn thread_pool(opts: &Options) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.max(1))
        .build()
        .expect("thread pool")
}

/// What every file of a run shares.
#[derive(Clone, Copy)]
pub struct Shared<'r> {
    pub opts: &'r Options,
    pub pool: &'r rayon::ThreadPool,
    pub bar: &'r ProgressBar,
    pub started: Instant,
    /// The run's inputs, for the bar's "files done of total".
    pub inputs: usize,
}

impl Shared<'_> {
    /// `done` of the run's inputs are done: the bar says so (for runs of
    /// several files).
    pub fn files_done(&self, done: usize) {
        if self.inputs > 1 {
            self.bar
                .set_message(format!("{done}/{} files", self.inputs));
        }
    }
}

/// A window's batches: one list per table, with the table's declaration,
/// in the notation's table order.
pub type WindowBatches = Vec<(&'static TableDecl, Vec<RecordBatch>)>;

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

/// Where each input goes, by its name and its first bytes (decompressed),
/// and the whole of the small inputs that reading their first bytes read
/// (so that they are not opened twice), up to [`HELD_BYTES`] of them.
/// An input that can be read once only (standard input, a pipe) is routed
/// when it is read; here it is `Unknown` with no reason. An input that
/// cannot be opened is an error before any is converted.
struct Routed {
    routes: Vec<Route>,
    /// Whether each input can be read once only ([`crate::source::reads_once`]).
    once: Vec<bool>,
    /// The bytes of each input, when its first bytes were all of it (plain,
    /// not compressed) and there was room.
    held: Vec<Option<Vec<u8>>>,
}

/// Bytes of whole small inputs kept from routing to parsing.
const HELD_BYTES: usize = 64 << 20;

/// Inputs routed at a time (in parallel): what they hold at once is at most
/// this many heads.
const ROUTE_CHUNK: usize = 4096;

fn route_inputs(
    registry: &Registry,
    inputs: &[PathBuf],
    pool: &rayon::ThreadPool,
) -> Result<Routed, Error> {
    let mut routed = Routed {
        routes: Vec::with_capacity(inputs.len()),
        once: Vec::with_capacity(inputs.len()),
        held: Vec::with_capacity(inputs.len()),
    };
    let mut room = HELD_BYTES;
    for chunk in inputs.chunks(ROUTE_CHUNK) {
        type Got = Result<(Route, bool, Option<Vec<u8>>), Error>;
        let got: Vec<Got> = pool.install(|| {
            chunk
                .par_iter()
                .map(|p| {
                    if crate::source::reads_once(p) {
                        return Ok((Route::Unknown(String::new()), true, None));
                    }
                    let (head, whole) = crate::source::read_head_whole(p, HEAD_BYTES)?;
                    let route = registry.route(p, &head);
                    Ok((route, false, whole.then_some(head)))
                })
                .collect()
        });
        for g in got {
            let (route, once, head) = g?;
            let head = head.filter(|h| h.len() <= room);
            room -= head.as_ref().map_or(0, Vec::len);
            routed.routes.push(route);
            routed.once.push(once);
            routed.held.push(head);
        }
    }
    Ok(routed)
}

/// Parses `inputs` in order, each run of inputs of one notation by that
/// notation, handing each window's batches to `on_tables` and each file's
/// summary to `files`. An input no notation takes gives one `errors` row.
#[allow(clippy::too_many_arguments)]
fn run_all(
    registry: &Registry,
    inputs: &[PathBuf],
    routed: &Routed,
    sizes: &[Option<u64>],
    cx: &Shared<'_>,
    on_tables: &mut FileConsumer<'_>,
    files: &mut Vec<FileSummary>,
    join: bool,
) -> Result<(), Error> {
    let info = |index: usize| FileInfo {
        name: input_name(cx.opts, inputs, index),
        index: cx.opts.file_index_base + index as u64,
    };
    let routes = &routed.routes;
    let mut i = 0;
    while i < inputs.len() {
        let file = info(i);
        match &routes[i] {
            Route::To(k) => {
                let run = registry.get(*k);
                let mut end = i + 1;
                while end < inputs.len() && routes[end] == routes[i] {
                    end += 1;
                }
                // The game is met: its tables are written, rows or not.
                let tables = run.tables().iter().map(|t| (*t, Vec::new())).collect();
                on_tables(&file, tables)?;
                let run_files: Vec<InputFile<'_>> = (i..end)
                    .map(|k| (info(k), &inputs[k], sizes[k], routed.held[k].as_deref()))
                    .collect();
                run.run_files(cx, &run_files, on_tables, files, join)?;
                i = end;
            }
            Route::Unknown(_) if routed.once[i] => {
                files.push(run_once(registry, cx, &inputs[i], &file, on_tables)?);
                cx.files_done(files.len());
                i += 1;
            }
            Route::Unknown(why) => {
                let head = crate::source::read_head(&inputs[i], RAW_LIMIT)?;
                let (mut summary, batches) = unrecognized(&file, why, &head)?;
                summary.bytes = sizes[i].unwrap_or(summary.bytes);
                on_tables(&file, vec![(ERRORS, batches)])?;
                files.push(summary);
                cx.files_done(files.len());
                i += 1;
            }
        }
    }
    Ok(())
}

/// An input of a run: where it is in the run's list, its path, its size
/// on disk (None for what is not a regular file), and its bytes when they
/// were read whole already (a small plain file, read to route it).
pub type InputFile<'p> = (FileInfo, &'p PathBuf, Option<u64>, Option<&'p [u8]>);

/// An input that can be read once only (standard input, a pipe), opened
/// once and routed by its first bytes (which are read again as they were).
fn run_once(
    registry: &Registry,
    cx: &Shared<'_>,
    path: &Path,
    file: &FileInfo,
    on_tables: &mut FileConsumer<'_>,
) -> Result<FileSummary, Error> {
    let Input::Stream(mut stream) = Input::open(path)? else {
        unreachable!("what is not a regular file is streamed")
    };
    let head = stream.peek(HEAD_BYTES).map_err(|source| Error::Read {
        path: path.to_path_buf(),
        source,
    })?;
    match registry.route(path, &head) {
        Route::To(k) => {
            let run = registry.get(k);
            let tables = run.tables().iter().map(|t| (*t, Vec::new())).collect();
            on_tables(file, tables)?;
            let mut consume = |t: WindowBatches| on_tables(file, t);
            run.run_stream(cx, file, stream, &mut consume)
        }
        Route::Unknown(why) => {
            let raw = stream.peek(RAW_LIMIT).map_err(|source| Error::Read {
                path: path.to_path_buf(),
                source,
            })?;
            let (summary, batches) = unrecognized(file, &why, &raw)?;
            on_tables(file, vec![(ERRORS, batches)])?;
            Ok(summary)
        }
    }
}

/// The `errors` row of an input no notation takes (D001), with its first
/// bytes (up to the raw text's limit) as raw text, and its summary: one
/// record, quarantined; an empty input (or white space alone) has neither.
fn unrecognized(
    file: &FileInfo,
    why: &str,
    head: &[u8],
) -> Result<(FileSummary, Vec<RecordBatch>), Error> {
    let mut summary = FileSummary {
        path: file.name.clone(),
        bytes: head.len() as u64,
        ..Default::default()
    };
    if head.len() < RAW_LIMIT && head.iter().all(|&b| crate::split::is_ws(b)) {
        // Empty, or white space alone: no record, nothing to report.
        return Ok((summary, Vec::new()));
    }
    let mut errors = ErrorsBuilder::with_rows(1);
    let rec = RecordRef {
        file: &file.name,
        notation: None,
        bytes: head,
        byte: 0,
        line: 1,
        index: 0,
        record_id: None,
    };
    let at = Position {
        byte: 0,
        line: 1,
        column: 1,
        record: 0,
    };
    errors.push_row(&rec, at, Severity::Error, "D001", why);
    (summary.records, summary.quarantined) = (1, 1);
    Ok((summary, vec![errors.finish()?]))
}

/// Inputs at most this large (on disk) may be parsed several at a time.
const SMALL_INPUT: u64 = 1 << 20;

/// Parses `files` (inputs of `notation`) in order, handing each window's
/// batches to `on_tables` and each file's summary to `summaries`. A file
/// smaller than a group keeps one thread busy, so runs of small files
/// (together at most a window's bytes) are parsed in parallel (`small.rs`):
/// with `join`, built together into tables that span files; else each into
/// batches held aside and handed over in input order, the same batches as
/// one at a time. A file that fails ends the run after the files before it
/// and the windows it gave before failing, as it would one at a time.
fn run_inputs<N: Notation>(
    notation: &N,
    cx: &Shared<'_>,
    files: &[InputFile<'_>],
    on_tables: &mut FileConsumer<'_>,
    summaries: &mut Vec<FileSummary>,
    join: bool,
) -> Result<(), Error> {
    let opts = cx.opts;
    let window = opts.window_bytes() as u64;
    let small = |k: usize| files[k].2.filter(|&len| len <= SMALL_INPUT);
    let mut i = 0;
    while i < files.len() {
        // The run of small files from `i`.
        let (mut end, mut bytes) = (i, 0);
        while (opts.threads > 1 || join)
            && end < files.len()
            && let Some(len) = small(end)
            && (end == i || bytes + len <= window)
        {
            bytes += len;
            end += 1;
        }
        if end - i < 2 {
            let (file, path, _, _) = &files[i];
            let mut consume = |t: WindowBatches| on_tables(file, t);
            summaries.push(run_input(notation, cx, file, path, &mut consume)?);
            cx.files_done(summaries.len());
            i += 1;
            continue;
        }
        let run: Vec<small::SmallFile<'_>> = (i..end)
            .map(|k| {
                (
                    files[k].0.clone(),
                    files[k].1,
                    small(k).unwrap_or(0),
                    files[k].3,
                )
            })
            .collect();
        small::run_small(notation, cx, &run, join, on_tables, summaries)?;
        i = end;
    }
    Ok(())
}

/// Parses bytes in memory (no output files) as the notation their name
/// and content route them to, and hands every window's batches to
/// `consume`: for benchmarks, `deckhand bench` and tests. Bytes no notation
/// takes give their one `errors` row.
pub fn parse_bytes(
    bytes: &[u8],
    name: &str,
    opts: &Options,
    consume: &mut Consumer<'_>,
) -> Result<FileSummary, Error> {
    in_memory(name, opts, consume, bytes, |run, cx, file, consume| {
        run.run_bytes(cx, file, bytes, consume)
    })
}

/// [`parse_bytes`] for an input read in pieces (as stdin and compressed files
/// are), with memory bounded whatever its size.
pub fn parse_reader(
    reader: &mut dyn std::io::Read,
    name: &str,
    opts: &Options,
    consume: &mut Consumer<'_>,
) -> Result<FileSummary, Error> {
    let mut head = Vec::new();
    (&mut *reader)
        .take(HEAD_BYTES as u64)
        .read_to_end(&mut head)
        .map_err(|source| Error::Read {
            path: name.into(),
            source,
        })?;
    let mut chained = std::io::Read::chain(&head[..], reader);
    in_memory(name, opts, consume, &head, |run, cx, file, consume| {
        run.run_reader(cx, file, &mut chained, consume)
    })
}

use std::io::Read as _;

/// Parses the contents of a file held in memory, compressed or not (as
/// [`crate::source::Input::open`] reads a file: plain bytes in place, the
/// rest through a decoding stream), as the input `name` at file index
/// `opts.file_index_base`.
pub fn parse_held(
    bytes: &bytes::Bytes,
    name: &str,
    opts: &Options,
    consume: &mut Consumer<'_>,
) -> Result<FileSummary, Error> {
    let head = &bytes[..bytes.len().min(HEAD_BYTES)];
    if crate::source::is_plain(head) {
        return parse_bytes(bytes, name, opts, consume);
    }
    let err = |source| Error::Read {
        path: name.into(),
        source,
    };
    let mut stream =
        crate::source::Stream::new(Box::new(std::io::Cursor::new(bytes.clone()))).map_err(err)?;
    let head = stream.peek(HEAD_BYTES).map_err(err)?;
    in_memory(name, opts, consume, &head, |run, cx, file, consume| {
        run.run_stream(cx, file, stream, consume)
    })
}

/// One input parsed with no output files and no progress bar, by the
/// notation its name and `head` route it to.
fn in_memory(
    name: &str,
    opts: &Options,
    consume: &mut Consumer<'_>,
    head: &[u8],
    go: impl FnOnce(&dyn Run, &Shared<'_>, &FileInfo, &mut Consumer<'_>) -> Result<FileSummary, Error>,
) -> Result<FileSummary, Error> {
    let registry = opts.registry()?;
    let pool = thread_pool(opts);
    let file = FileInfo {
        name: name.to_string(),
        index: opts.file_index_base,
    };
    let bar = ProgressBar::hidden();
    let cx = Shared {
        opts,
        pool: &pool,
        bar: &bar,
        started: Instant::now(),
        inputs: 1,
    };
    let sniffed = &head[..head.len().min(HEAD_BYTES)];
    match registry.route(Path::new(name), sniffed) {
        Route::To(k) => go(registry.get(k), &cx, &file, consume),
        Route::Unknown(why) => {
            let (summary, batches) = unrecognized(&file, &why, head)?;
            consume(vec![(ERRORS, batches)])?;
            Ok(summary)
        }
    }
}

/// Converts inputs into a dataset directory: `OUT/<game>/<table>/` for the
/// games met, `OUT/errors/` always.
pub fn convert(inputs: &[PathBuf], out_dir: &Path, opts: &Options) -> Result<Summary, Error> {
    let registry = opts.registry()?;
    convert_with(&registry, inputs, out_dir, opts)
}

/// The name input `index` of `inputs` carries: as `Options::input_names`
/// says, that of an input read once only as `Options::stream_name` says,
/// else its path.
pub fn input_name(opts: &Options, inputs: &[PathBuf], index: usize) -> String {
    if let Some(n) = opts.input_names.as_ref().and_then(|n| n.get(index)) {
        return n.clone();
    }
    match &opts.stream_name {
        Some(n) if crate::source::reads_once(&inputs[index]) => n.clone(),
        _ => file_name(&inputs[index]),
    }
}

fn file_name(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// [`convert`] with the notations of `registry`.
pub fn convert_with(
    registry: &Registry,
    inputs: &[PathBuf],
    out_dir: &Path,
    opts: &Options,
) -> Result<Summary, Error> {
    let started = Instant::now();
    let all = registry.tables();
    let paths: Vec<String> = all.iter().map(|t| t.path()).collect();
    let pool = thread_pool(opts);
    let routed = route_inputs(registry, inputs, &pool)?;
    prepare_out_dir(out_dir, &paths, opts)?;
    let inputs_json =
        serde_json::to_string(&inputs.iter().map(|p| file_name(p)).collect::<Vec<_>>())
            .expect("strings serialize");
    let sink_opts = SinkOptions {
        codec: opts.codec,
        writer: opts.writer,
        row_group_rows: opts.row_group_rows,
        part: opts.part(),
        metadata: vec![
            ("deckhand.version".into(), env!("CARGO_PKG_VERSION").into()),
            ("deckhand.schema_version".into(), SCHEMA_VERSION.into()),
            ("deckhand.inputs".into(), inputs_json),
        ],
    };
    // The errors table is always written; the other tables once their
    // game is met.
    let mut sinks = Sinks {
        dir: out_dir,
        opts: &sink_opts,
        sinks: Vec::new(),
        only: opts.tables.as_deref(),
    };
    if sinks.wanted(ERRORS) {
        sinks.open(ERRORS)?;
    }
    let sizes = sizes_of(inputs);
    let bar = progress_bar(opts, &sizes);
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
                sinks.write(pool, per_table)?;
                if let (true, Some(release)) = (large, release_memory) {
                    release();
                }
            }
            Ok(sinks.sinks)
        });
        // Small windows (a small file gives one) are joined before they go
        // to the writer, so that the parser does not wait on the writer for
        // each one (the channel holds two). A closed channel means the
        // writer stopped on an error, which its join below reports.
        let mut pending: WindowBatches = Vec::new();
        let (mut pending_rows, mut pending_bytes) = (0, 0);
        let mut send = |_: &FileInfo, per_table: WindowBatches| {
            stopped(opts)?;
            for (_, batches) in &per_table {
                for b in batches {
                    pending_rows += b.num_rows();
                    pending_bytes += b.get_array_memory_size();
                }
            }
            join_tables(&mut pending, per_table);
            if pending_rows >= JOINED_ROWS || pending_bytes >= JOINED_BYTES {
                let large = pending_rows < JOINED_ROWS;
                let _ = tx.send((compact(std::mem::take(&mut pending))?, large));
                (pending_rows, pending_bytes) = (0, 0);
            }
            Ok(())
        };
        let cx = Shared {
            opts,
            pool,
            bar: &bar,
            started,
            inputs: inputs.len(),
        };
        let result = run_all(
            registry,
            inputs,
            &routed,
            &sizes,
            &cx,
            &mut send,
            &mut summary.files,
            opts.join_small_inputs,
        );
        if !pending.is_empty() {
            let _ = tx.send((compact(pending)?, false));
        }
        drop(tx);
        let mut sinks = writer.join().expect("writer thread does not panic")?;
        result?;
        bar.finish_and_clear();
        // Tables in the order of their declarations.
        sinks.sort_by_key(|s| paths.iter().position(|p| p == s.table()));
        // Each table's last row group is encoded and its file closed in
        // parallel, as the tables were written; then, with every file's
        // write-out started, each is synced and renamed.
        let rows: Vec<(String, Result<u64, Error>)> = pool.install(|| {
            let closed: Vec<_> = sinks
                .into_par_iter()
                .map(|s| (s.table().to_string(), s.close()))
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

/// The run's progress bar (hidden unless `opts.progress`): MB of the
/// inputs read, of their total.
fn progress_bar(opts: &Options, sizes: &[Option<u64>]) -> ProgressBar {
    let total: u64 = sizes.iter().flatten().sum();
    let bar = if opts.progress {
        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{bar:30}] {decimal_bytes}/{decimal_total_bytes} {decimal_bytes_per_sec} {msg} ETA {eta}",
        )
        .expect("template")
        .progress_chars("=> "),
    );
    bar
}

/// The sinks of a dataset, one a table, opened as their tables are met.
struct Sinks<'s> {
    dir: &'s Path,
    opts: &'s SinkOptions,
    sinks: Vec<TableSink>,
    /// The tables to write; None: all.
    only: Option<&'s [String]>,
}

impl Sinks<'_> {
    /// Whether `decl` is to be written.
    fn wanted(&self, decl: &TableDecl) -> bool {
        self.only.is_none_or(|o| o.contains(&decl.path()))
    }

    /// The index of the sink of `decl`, opened if it was not.
    fn open(&mut self, decl: &TableDecl) -> Result<usize, Error> {
        let path = decl.path();
        if let Some(i) = self.sinks.iter().position(|s| s.table() == path) {
            return Ok(i);
        }
        let spec = TableSpec::of(decl);
        self.sinks
            .push(TableSink::create(self.dir, &spec, self.opts)?);
        Ok(self.sinks.len() - 1)
    }

    /// Writes a window's batches. Tables are independent: they are encoded
    /// in parallel. Each sink still receives its batches in input order, so
    /// the bytes written do not change.
    fn write(&mut self, pool: &rayon::ThreadPool, per_table: WindowBatches) -> Result<(), Error> {
        let mut by_sink: Vec<Vec<RecordBatch>> = vec![Vec::new(); self.sinks.len()];
        for (decl, batches) in per_table {
            if !self.wanted(decl) {
                continue;
            }
            let i = self.open(decl)?;
            by_sink.resize_with(self.sinks.len(), Vec::new);
            by_sink[i].extend(batches);
        }
        pool.install(|| {
            self.sinks
                .par_iter_mut()
                .zip(by_sink)
                .try_for_each(|(sink, batches)| batches.into_iter().try_for_each(|b| sink.write(b)))
        })
    }
}

/// Adds `more`'s batches to `pending`'s, table by table.
fn join_tables(pending: &mut WindowBatches, more: WindowBatches) {
    for (decl, batches) in more {
        match pending.iter_mut().find(|p| *p.0 == *decl) {
            Some(p) => p.1.extend(batches),
            None => pending.push((decl, batches)),
        }
    }
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
        .map(|(decl, batches)| {
            if batches.len() <= COMPACT_BATCHES {
                return Ok((decl, batches));
            }
            let joined = arrow_select::concat::concat_batches(&batches[0].schema(), &batches)?;
            Ok((decl, vec![joined]))
        })
        .collect()
}

/// Where a file's windows of batches go, with the file they come from.
pub type FileConsumer<'c> = dyn FnMut(&FileInfo, WindowBatches) -> Result<(), Error> + 'c;

/// Where a window's batches go: one list per table, in the notation's table order.
pub type Consumer<'c> = dyn FnMut(WindowBatches) -> Result<(), Error> + 'c;

/// Opens one input and parses it, mapped or streamed.
fn run_input<N: Notation>(
    notation: &N,
    cx: &Shared<'_>,
    file: &FileInfo,
    path: &Path,
    consume: &mut Consumer<'_>,
) -> Result<FileSummary, Error> {
    match Input::open(path)? {
        Input::Mapped(map) => FileRun::new(notation, file, cx, consume).run_bytes(&map),
        Input::Stream(stream) => run_stream(notation, cx, file, stream, consume),
    }
}

/// Parses a stream, read on a thread of its own.
fn run_stream<N: Notation>(
    notation: &N,
    cx: &Shared<'_>,
    file: &FileInfo,
    stream: crate::source::Stream,
    consume: &mut Consumer<'_>,
) -> Result<FileSummary, Error> {
    let run = FileRun::new(notation, file, cx, consume);
    let (stream, fs) =
        read_ahead::with_read_ahead(stream, cx.opts.chunk_bytes, |r| run.run_stream(r));
    let mut fs = fs?;
    fs.input_warning = stream.warning().map(str::to_string);
    Ok(fs)
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
        let out = compact(vec![
            (ERRORS, few.clone()),
            (ERRORS, many.clone()),
            (ERRORS, Vec::new()),
        ])
        .unwrap();
        assert_eq!(out[0].1, few);
        assert_eq!(out[1].1.len(), 1);
        assert_eq!(
            out[1].1[0],
            arrow_select::concat::concat_batches(&schema, &many).unwrap()
        );
        assert!(out[2].1.is_empty());
    }
}
