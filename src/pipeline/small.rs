//! Runs of small files: read (compressed ones decompressed) a window's
//! bytes at a time, each one split, lexed and resolved apart (in parallel),
//! then their groups built together into tables of many files. A file that
//! is not held so (one that holds more than a window, or that is damaged)
//! runs alone in its turn, its windows handed on as they come.
//! Built one file at a time, a file of ten hands made its own arrays for
//! every column of every table, which the writer joined again: 3,000 such
//! files converted in twice the time of the same bytes in one file. The rows
//! and the bytes written are the same either way.

use std::io::Read;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use indicatif::ProgressBar;
use rayon::prelude::*;

use super::feed::{FileRun, LexedFile};
use super::window::{count, errors_of, keep};
use super::{FileConsumer, FileSummary, Shared, WindowBatches, run_input};
use crate::Error;
use crate::columns::errors_table::ERRORS;
use crate::notation::{FileInfo, Notation, Part, PartEnd, Tables};
use crate::source::Stream;

/// A small file of a run: its place among the inputs, its path, its size
/// on disk when the inputs were listed, and its bytes if they were read
/// whole already.
pub(super) type SmallFile<'p> = (FileInfo, &'p PathBuf, u64, Option<&'p [u8]>);

/// What every file of a run shares, and the notation of its files.
#[derive(Clone, Copy)]
struct RunCtx<'r, N> {
    notation: &'r N,
    cx: &'r Shared<'r>,
}

/// One small file after the parallel phase.
enum Small<'a, N: Notation> {
    /// Lexed and resolved.
    Lexed(LexedFile<'a, N>),
    /// Parsed and built alone (without `join`), its windows held.
    Built(Result<FileSummary, Error>, Vec<WindowBatches>),
    /// Not held in memory: run alone in its turn, its windows handed on as
    /// they come (memory stays bounded however much it holds).
    InTurn,
}

/// Parses `files` (small inputs, in input order, with their paths) and
/// hands their batches to `on_tables` in input order, the files' summaries
/// to `summaries`. A file that fails ends the run after the files before it
/// and the windows it gave before failing, as one at a time.
pub(super) fn run_small<N: Notation>(
    notation: &N,
    shared: &Shared<'_>,
    files: &[SmallFile<'_>],
    join: bool,
    on_tables: &mut FileConsumer<'_>,
    summaries: &mut Vec<FileSummary>,
) -> Result<(), Error> {
    let cx = &RunCtx {
        notation,
        cx: shared,
    };
    let (opts, pool) = (shared.opts, shared.pool);
    // Read, not mapped: for files this small, mapping and unmapping cost
    // more than copying (20,000 files of one hand: `-j1` 0.64-0.79 s against
    // 1.00-1.23 s mapped, `-j2` 0.45-0.48 s against 0.91-0.99 s). Files are
    // held a round at a time, at most a window's bytes (a compressed file
    // counts what it holds: a megabyte of zstd can hold gigabytes).
    let window = opts.window_bytes() as u64;
    let mut k = 0;
    while k < files.len() {
        let mut held: Vec<Option<Held>> = Vec::new();
        let mut room = window;
        'fill: while k + held.len() < files.len() {
            let from = k + held.len();
            // Files are read a chunk at a time in parallel; the files of a
            // chunk past the round's end are read again in the next round.
            let to = (from + CHUNK_FILES).min(files.len());
            let got: Vec<Option<Held>> = pool.install(|| {
                files[from..to]
                    .par_iter()
                    .map(|(_, path, len, read)| match read {
                        Some(bytes) if !bytes.is_empty() => Some(Held {
                            bytes: bytes.to_vec(),
                            on_disk: *len,
                        }),
                        _ => hold(path, *len, window),
                    })
                    .collect()
            });
            for bytes in got {
                if let Some(h) = &bytes {
                    // One that does not fit waits for the next round; the
                    // first of a round is always taken.
                    let n = h.bytes.len() as u64;
                    if n > room && room < window {
                        break 'fill;
                    }
                    room = room.saturating_sub(n);
                }
                held.push(bytes);
            }
        }
        let round = &files[k..k + held.len()];
        run_round(cx, round, &held, join, on_tables, summaries)?;
        k += held.len();
    }
    Ok(())
}

/// Small files read at a time, in parallel (a `pool.install` each time). A
/// compressed file is decompressed up to a window (1 MiB a thread), so this
/// also bounds what a chunk holds before the round's end is known: with
/// two threads, 128 MiB for 64 files of zstd that each hold more. 20,000
/// files of one hand convert in the time of one read for the whole run
/// (`-j1` 0.73-0.79 s against 0.70-1.08 s, `-j2` 0.48-0.67 against 0.47-0.56).
const CHUNK_FILES: usize = 64;

/// A small file's bytes in memory (decompressed), and its size on disk.
struct Held {
    bytes: Vec<u8>,
    on_disk: u64,
}

/// One round of small files, `held` their bytes (None: run alone in turn).
fn run_round<N: Notation>(
    cx: &RunCtx<'_, N>,
    files: &[SmallFile<'_>],
    held: &[Option<Held>],
    join: bool,
    on_tables: &mut FileConsumer<'_>,
    summaries: &mut Vec<FileSummary>,
) -> Result<(), Error> {
    let RunCtx {
        notation,
        cx: shared,
    } = *cx;
    let (pool, bar) = (shared.pool, shared.bar);
    let done: Vec<Small<'_, N>> = pool.install(|| {
        files
            .par_iter()
            .zip(held)
            .map(|((file, _, _, _), held)| {
                let Some(Held { bytes, on_disk }) = held else {
                    return Small::InTurn;
                };
                // Progress is counted in bytes on disk, as the bar's total
                // (held bytes may be decompressed).
                let hidden = &ProgressBar::hidden();
                let quiet = Shared {
                    bar: hidden,
                    ..*shared
                };
                let small = if join {
                    let mut none = |_: WindowBatches| Ok(());
                    let run = FileRun::new(notation, file, &quiet, &mut none);
                    match run.lex_only(bytes) {
                        Some(lexed) => Small::Lexed(lexed),
                        None => return Small::InTurn,
                    }
                } else {
                    let mut windows = Vec::new();
                    let mut keep = |t: WindowBatches| {
                        windows.push(t);
                        Ok(())
                    };
                    let run = FileRun::new(notation, file, &quiet, &mut keep);
                    let r = run.run_bytes(bytes);
                    Small::Built(r, windows)
                };
                bar.inc(*on_disk);
                small
            })
            .collect()
    });
    // Lexed files waiting to be built together, with their index in `files`.
    let mut lexed = Vec::new();
    for (k, small) in done.into_iter().enumerate() {
        match small {
            Small::Lexed(l) => lexed.push((k, l)),
            Small::Built(summary, windows) => {
                for t in windows {
                    on_tables(&files[k].0, t)?;
                }
                summaries.push(summary?);
                cx.cx.files_done(summaries.len());
            }
            Small::InTurn => {
                build_together(cx, files, &mut lexed, on_tables, summaries)?;
                let (file, path, _, _) = &files[k];
                let mut consume = |t: WindowBatches| on_tables(file, t);
                let summary = run_input(notation, shared, file, path, &mut consume);
                summaries.push(summary?);
                cx.cx.files_done(summaries.len());
            }
        }
    }
    build_together(cx, files, &mut lexed, on_tables, summaries)
}

/// The bytes of a small file to parse in memory: a plain file as it is, a
/// compressed one decompressed if it holds at most `limit` bytes. None for
/// a file to run alone in its turn: empty, unreadable, holding more, damaged,
/// or not readable as a whole (whose messages that run gives). `len` is its
/// size when the inputs were listed: room for it is made at once, and no
/// `stat` is made again (`std::fs::read` makes one); a file that has grown
/// past `limit` since is run alone too.
fn hold(path: &Path, len: u64, limit: u64) -> Option<Held> {
    let file = std::fs::File::open(path).ok()?;
    let mut bytes = Vec::with_capacity(len.min(limit) as usize + 1);
    file.take(limit + 1).read_to_end(&mut bytes).ok()?;
    let on_disk = bytes.len() as u64;
    if bytes.is_empty() || on_disk > limit {
        return None;
    }
    if crate::source::is_plain(&bytes) {
        return Some(Held { bytes, on_disk });
    }
    let mut stream = Stream::new(Box::new(std::io::Cursor::new(bytes))).ok()?;
    let mut out = Vec::new();
    (&mut stream).take(limit + 1).read_to_end(&mut out).ok()?;
    (out.len() as u64 <= limit && stream.warning().is_none()).then_some(Held {
        bytes: out,
        on_disk,
    })
}

/// The lexed files' (`lexed`, emptied) groups built in parallel into
/// tables of about `group_bytes` of records each, which may span files, and
/// handed over together.
fn build_together<'a, N: Notation>(
    cx: &RunCtx<'_, N>,
    files: &[SmallFile<'_>],
    lexed: &mut Vec<(usize, LexedFile<'a, N>)>,
    on_tables: &mut FileConsumer<'_>,
    summaries: &mut Vec<FileSummary>,
) -> Result<(), Error> {
    let (notation, opts, pool) = (cx.notation, cx.cx.opts, cx.cx.pool);
    let Some(first) = lexed.first().map(|l| l.0) else {
        return Ok(());
    };
    let mut sums: Vec<FileSummary> = lexed
        .iter_mut()
        .map(|l| std::mem::take(&mut l.1.fs))
        .collect();
    // Jobs of parts, each part a group with its position in `lexed`.
    let mut jobs: Vec<Vec<(usize, Part<'_, 'a, N>)>> = vec![Vec::new()];
    let mut bytes = 0usize;
    for (i, (k, l)) in lexed.iter().enumerate() {
        for (g, b) in &l.groups {
            if bytes >= opts.group_bytes {
                jobs.push(Vec::new());
                bytes = 0;
            }
            jobs.last_mut()
                .expect("one job")
                .push((i, (&files[*k].0, g)));
            bytes += *b as usize;
        }
    }
    let built: Vec<_> = pool.install(|| {
        jobs.par_iter()
            .map(|job| {
                let parts: Vec<Part<'_, 'a, N>> = job.iter().map(|p| p.1).collect();
                notation.build(&parts)
            })
            .collect()
    });
    let mut converted = vec![0u64; lexed.len()];
    let mut per_table: WindowBatches = Vec::new();
    // With `hand_over_by_file`: each file's rows of each job, in order,
    // with the file's position in `lexed`.
    let mut by_file: Vec<(usize, WindowBatches)> = Vec::new();
    for (job, built) in jobs.iter().zip(built) {
        let (tables, ends) = built?;
        let mut from = PartEnd::default();
        for ((i, _), &to) in job.iter().zip(&ends) {
            converted[*i] += count(&tables, from, to, opts, &mut sums[*i])?;
            from = to;
        }
        if opts.hand_over_by_file {
            let mut start = PartEnd::default();
            for (n, ((i, _), &to)) in job.iter().zip(&ends).enumerate() {
                if job.get(n + 1).is_none_or(|(next, _)| next != i) {
                    by_file.push((*i, slice_rows(&tables, start, to)));
                    start = to;
                }
            }
        } else {
            keep(tables, &mut per_table);
        }
    }
    drop(jobs);
    if opts.hand_over_by_file {
        for (i, t) in by_file {
            on_tables(&files[lexed[i].0].0, t)?;
        }
    } else {
        on_tables(&files[first].0, per_table)?;
    }
    for (((_, l), mut fs), converted) in lexed.drain(..).zip(sums).zip(converted) {
        fs.comment_blocks += l.records - converted;
        summaries.push(fs);
        cx.cx.files_done(summaries.len());
    }
    Ok(())
}

/// The rows of `tables` from `from` to `to` (a file's part of tables built
/// together), one slice a table: the record table's and the `errors` rows
/// as counted, the other tables' rows those of the same records (their
/// record keys, the first column of every table of a game, rise with the
/// records').
fn slice_rows(tables: &Tables, from: PartEnd, to: PartEnd) -> WindowBatches {
    let keys = |b: &RecordBatch| b.column(0).as_primitive::<Int64Type>().clone();
    // The record table: the first, unless the notation writes only errors.
    let record = tables.first().filter(|t| *t.0 != *ERRORS);
    // The first and last key of the part, when it has records.
    let ids = record
        .filter(|_| to.records > from.records)
        .map(|r| keys(&r.1))
        .map(|k| (k.value(from.records), k.value(to.records - 1)));
    let errors = errors_of(tables).map(|e| e as *const RecordBatch);
    tables
        .iter()
        .enumerate()
        .map(|(i, (decl, b))| {
            let (start, end) = if errors == Some(b as *const RecordBatch) {
                (from.errors, to.errors)
            } else if i == 0 {
                (from.records, to.records)
            } else {
                match ids {
                    None => (0, 0),
                    Some((lo, hi)) => {
                        let k = keys(b);
                        let k = k.values();
                        (
                            k.partition_point(|&x| x < lo),
                            k.partition_point(|&x| x <= hi),
                        )
                    }
                }
            };
            (*decl, vec![b.slice(start, end - start)])
        })
        .collect()
}
