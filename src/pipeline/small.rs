//! Runs of small files: each one split, lexed and resolved apart (in
//! parallel), then their groups built together into tables of many files.
//! Built one file at a time, a file of ten hands made its own arrays for
//! every column of every table, which the writer joined again: 3,000 such
//! files converted in twice the time of the same bytes in one file. The rows
//! and the bytes written are the same either way.

use std::path::PathBuf;
use std::time::Instant;

use indicatif::ProgressBar;
use rayon::prelude::*;

use super::feed::{FileRun, LexedFile};
use super::window::{count, keep};
use super::{FileConsumer, FileSummary, Options, WindowBatches, run_input};
use crate::Error;
use crate::notation::{FileInfo, Notation, Part, PartEnd};
use crate::source::Compression;

/// One small file after the parallel phase.
enum Small<'a, N: Notation> {
    /// Lexed and resolved.
    Lexed(LexedFile<'a, N>),
    /// Not a mapped file (compressed, old-Mac line ends, or it could not be
    /// opened): run alone, its windows of batches held for their turn.
    Ran(Result<FileSummary, Error>, Vec<WindowBatches>),
}

/// Parses `files` (small inputs, in input order, with their paths) and
/// hands their batches to `on_tables` in input order, the files' summaries
/// to `summaries`. A file that fails ends the run after the files before it
/// and the windows it gave before failing, as one at a time.
#[allow(clippy::too_many_arguments)]
pub(super) fn run_small<N: Notation>(
    notation: &N,
    files: &[(FileInfo, &PathBuf)],
    opts: &Options,
    pool: &rayon::ThreadPool,
    bar: &ProgressBar,
    started: Instant,
    on_tables: &mut FileConsumer<'_>,
    summaries: &mut Vec<FileSummary>,
) -> Result<(), Error> {
    // Read, not mapped: for files this small, mapping and unmapping cost
    // more than copying (20,000 files of one hand: `-j1` 0.64-0.79 s against
    // 1.00-1.23 s mapped, `-j2` 0.45-0.48 s against 0.91-0.99 s).
    // Those that `Input::open` would not map run alone.
    let held: Vec<Option<Vec<u8>>> = pool.install(|| {
        files
            .par_iter()
            .map(|(_, path)| {
                let bytes = std::fs::read(path).ok()?;
                (!bytes.is_empty() && Compression::sniff(&bytes).is_none()).then_some(bytes)
            })
            .collect()
    });
    let done: Vec<Small<'_, N>> = pool.install(|| {
        files
            .par_iter()
            .zip(&held)
            .map(|((file, path), bytes)| {
                let mut none = |_: WindowBatches| Ok(());
                if let Some(bytes) = bytes {
                    let run = FileRun::new(notation, file, opts, pool, &mut none, bar, started);
                    if let Some(lexed) = run.lex_only(bytes) {
                        return Small::Lexed(lexed);
                    }
                }
                let mut windows = Vec::new();
                let mut keep = |t: WindowBatches| {
                    windows.push(t);
                    Ok(())
                };
                let r = run_input(notation, file, path, opts, pool, &mut keep, bar, started);
                Small::Ran(r, windows)
            })
            .collect()
    });
    // Lexed files waiting to be built together, with their index in `files`.
    let mut lexed = Vec::new();
    for (k, small) in done.into_iter().enumerate() {
        match small {
            Small::Lexed(l) => lexed.push((k, l)),
            Small::Ran(summary, windows) => {
                build_together(
                    notation, files, &mut lexed, opts, pool, on_tables, summaries,
                )?;
                for t in windows {
                    on_tables(&files[k].0, t)?;
                }
                summaries.push(summary?);
            }
        }
    }
    build_together(
        notation, files, &mut lexed, opts, pool, on_tables, summaries,
    )
}

/// The lexed files' (`lexed`, emptied) groups built in parallel into
/// tables of about `group_bytes` of records each, which may span files, and
/// handed over together.
fn build_together<'a, N: Notation>(
    notation: &N,
    files: &[(FileInfo, &PathBuf)],
    lexed: &mut Vec<(usize, LexedFile<'a, N>)>,
    opts: &Options,
    pool: &rayon::ThreadPool,
    on_tables: &mut FileConsumer<'_>,
    summaries: &mut Vec<FileSummary>,
) -> Result<(), Error> {
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
    let mut per_table = Vec::new();
    let mut array_bytes = 0;
    for (job, built) in jobs.iter().zip(built) {
        let (tables, ends) = built?;
        let mut from = PartEnd::default();
        for ((i, _), to) in job.iter().zip(ends) {
            converted[*i] += count(&tables, from, to, opts, &mut sums[*i])?;
            from = to;
        }
        keep(tables, &mut per_table, &mut array_bytes);
    }
    drop(jobs);
    on_tables(&files[first].0, per_table)?;
    for (((_, l), mut fs), converted) in lexed.drain(..).zip(sums).zip(converted) {
        fs.comment_blocks += l.records - converted;
        summaries.push(fs);
    }
    Ok(())
}
