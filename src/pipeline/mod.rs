//! Inputs to tables: each input is routed to a notation ([`route`]);
//! for each file, a sequential scan finds records; windows of records are cut
//! into groups that rayon parses in parallel; the notation then resolves, in
//! input order, what depends on earlier records; groups are built into Arrow
//! batches in parallel and written in input order, each table to its own
//! sink. Memory is bounded by the window size, not by the input.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod budget;
mod convert;
mod dispatch;
mod feed;
pub mod manifest;
mod options;
mod out_dir;
mod read_ahead;
pub mod route;
mod sinks;
mod small;
mod summary;
mod window;

use convert::progress_bar;
pub use convert::{convert, convert_with};
pub use dispatch::Run;
pub use options::{OnError, Options};
pub(crate) use summary::keep_first;
pub use summary::{FIRST_DIAGNOSTICS, FileSummary, Summary};

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
    use super::sinks::{COMPACT_BATCHES, compact};
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
