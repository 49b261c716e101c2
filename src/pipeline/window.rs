//! One window of records: parsed in groups in parallel, resolved in order,
//! built into batches in parallel. A mapped file overlaps the phases of two
//! windows (see `FileRun::run_bytes`); a stream runs them one after the other.

use std::ops::Range;

use arrow_array::RecordBatch;
use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use rayon::prelude::*;

use super::{Consumer, FileSummary, OnError, Options, WindowBatches};
use crate::Error;
use crate::columns::errors_table::ERRORS;
use crate::notation::{FileInfo, Notation, PartEnd, Tables};
use crate::split::Item;

/// The records of a window, with their indexes and contexts.
pub(super) type Records<'a, N> = Vec<(Item, u64, <N as Notation>::Context<'a>)>;

/// Parses, resolves and builds one window of records (`bytes[0]` is at
/// absolute offset `base`) and hands its batches to `consume`; returns the
/// bytes of arrays they hold.
#[allow(clippy::too_many_arguments)]
pub(super) fn process_window<'a, N: Notation>(
    notation: &N,
    file: &FileInfo,
    bytes: &'a [u8],
    base: u64,
    records: &[(Item, u64, N::Context<'a>)],
    opts: &Options,
    pool: &rayon::ThreadPool,
    state: &mut N::FileState<'a>,
    consume: &mut Consumer<'_>,
    fs: &mut FileSummary,
) -> Result<u64, Error> {
    let mut groups = pool.install(|| lex_window(notation, bytes, base, records, opts));
    notation.resolve(state, &mut groups);
    let built = pool.install(|| build_window(notation, file, &groups));
    let parsed = groups.iter().map(|g| notation.parsed(g)).sum();
    drop(groups);
    deliver(built, parsed, opts, consume, fs)
}

/// Bytes of records in `records` (what a window's input is counted as).
pub(super) fn record_bytes<C>(records: &[(Item, u64, C)]) -> u64 {
    records.iter().map(|r| r.0.end - r.0.start).sum()
}

/// Cuts a window's records into groups of about `group_bytes` each (never
/// depending on the thread count) and parses the groups in parallel; to be
/// called in the pool.
pub(super) fn lex_window<'a, N: Notation>(
    notation: &N,
    bytes: &'a [u8],
    base: u64,
    records: &[(Item, u64, N::Context<'a>)],
    opts: &Options,
) -> Vec<N::Group<'a>> {
    parse_groups(
        notation,
        bytes,
        base,
        records,
        &group_cuts(records, opts.group_bytes),
    )
}

/// Parses the groups `cuts` of a window's records in parallel; to be called
/// in the pool.
pub(super) fn parse_groups<'a, N: Notation>(
    notation: &N,
    bytes: &'a [u8],
    base: u64,
    records: &[(Item, u64, N::Context<'a>)],
    cuts: &[Range<usize>],
) -> Vec<N::Group<'a>> {
    cuts.par_iter()
        .map(|r| notation.parse(bytes, base, &records[r.clone()]))
        .collect()
}

/// The records of each group of a window: about `group_bytes` of them each,
/// in order.
pub(super) fn group_cuts<C>(records: &[(Item, u64, C)], group_bytes: usize) -> Vec<Range<usize>> {
    let mut cuts = Vec::new();
    let mut acc = 0usize;
    let mut from = 0;
    for (i, (it, _, _)) in records.iter().enumerate() {
        acc += (it.end - it.start) as usize;
        if acc >= group_bytes {
            cuts.push(from..i + 1);
            from = i + 1;
            acc = 0;
        }
    }
    if from < records.len() {
        cuts.push(from..records.len());
    }
    cuts
}

/// A group's tables and where its rows end in its record and `errors`
/// tables.
pub(super) type Built = (Tables, PartEnd);

/// Builds resolved groups into tables in parallel; to be called in the pool.
pub(super) fn build_window<N: Notation>(
    notation: &N,
    file: &FileInfo,
    groups: &[N::Group<'_>],
) -> Vec<Result<Built, Error>> {
    groups
        .par_iter()
        .map(|g| {
            notation
                .build(&[(file, g)])
                .map(|(t, ends)| (t, ends.last().copied().unwrap_or_default()))
        })
        .collect()
}

/// Counts what a window of `records` built and hands its batches, one list
/// per table in input order, to `consume`. Returns the bytes of Arrow
/// arrays they hold (for the window [`super::budget::Budget`]).
pub(super) fn deliver(
    built: Vec<Result<Built, Error>>,
    records: usize,
    opts: &Options,
    consume: &mut Consumer<'_>,
    fs: &mut FileSummary,
) -> Result<u64, Error> {
    let mut converted = 0;
    let mut array_bytes = 0u64;
    // Batches per table, in input order.
    let mut per_table: WindowBatches = Vec::new();
    for built in built {
        let (tables, all) = built?;
        let converted_here = count(&tables, PartEnd::default(), all, opts, fs)?;
        converted += converted_here;
        array_bytes += keep(tables, &mut per_table);
    }
    fs.comment_blocks += records as u64 - converted;
    consume(per_table)?;
    Ok(array_bytes)
}

/// Adds a group's batches to `per_table` (whose tables are those of the
/// same notation, or none yet); returns the bytes of their arrays.
pub(super) fn keep(tables: Tables, per_table: &mut WindowBatches) -> u64 {
    if per_table.is_empty() {
        per_table.extend(tables.iter().map(|t| (t.0, Vec::new())));
    }
    let mut array_bytes = 0;
    for ((_, batch), out) in tables.into_iter().zip(per_table) {
        array_bytes += batch.get_array_memory_size() as u64;
        out.1.push(batch);
    }
    array_bytes
}

/// The `errors` batch of `tables`.
pub(super) fn errors_of(tables: &Tables) -> Option<&RecordBatch> {
    tables.iter().find(|t| *t.0 == *ERRORS).map(|t| &t.1)
}

/// Counts what the rows of `tables` from `from` to `to` hold (the hands
/// and diagnostics of a group, or of a part of one) into `fs`; returns the
/// records converted or quarantined. With `OnError::Fail`, the first error
/// among them is returned instead.
pub(super) fn count(
    tables: &Tables,
    from: PartEnd,
    to: PartEnd,
    opts: &Options,
    fs: &mut FileSummary,
) -> Result<u64, Error> {
    let c = count_rows(tables, from, to);
    fs.records += c.converted + c.quarantined;
    fs.converted += c.converted;
    fs.quarantined += c.quarantined;
    fs.warnings += c.warnings;
    fs.infos += c.infos;
    for (code, n) in c.codes {
        *fs.codes.entry(code).or_default() += n;
    }
    for d in &c.first {
        super::keep_first(&mut fs.first, d);
    }
    if opts.on_error == OnError::Fail
        && let Some(e) = c.first_error
    {
        return Err(e);
    }
    Ok(c.converted + c.quarantined)
}

struct Counts {
    converted: u64,
    quarantined: u64,
    warnings: u64,
    infos: u64,
    first_error: Option<Error>,
    codes: Vec<(String, u64)>,
    first: Vec<String>,
}

/// Counts the records converted and the diagnostics by severity in the
/// given rows of the record and `errors` tables.
fn count_rows(tables: &Tables, from: PartEnd, to: PartEnd) -> Counts {
    let mut c = Counts {
        converted: (to.records - from.records) as u64,
        quarantined: 0,
        warnings: 0,
        infos: 0,
        first_error: None,
        codes: Vec::new(),
        first: Vec::new(),
    };
    let Some(errors) = errors_of(tables) else {
        return c;
    };
    let col = |b: &RecordBatch, n: &str| b.column_by_name(n).cloned().expect("errors column");
    let severity = col(errors, "severity");
    let severity = severity.as_string::<i32>();
    let code = col(errors, "code");
    let code = code.as_string::<i32>();
    for i in from.errors..to.errors {
        let sev = severity.value(i);
        if sev != "info" {
            let k = code.value(i);
            match c.codes.iter_mut().find(|(x, _)| x == k) {
                Some(e) => e.1 += 1,
                None => c.codes.push((k.to_string(), 1)),
            }
            let same = (c.first.iter())
                .filter(|x| x.contains(": error[") == (sev == "error"))
                .count();
            if same < super::FIRST_DIAGNOSTICS {
                let u = |n: &str| col(errors, n).as_primitive::<Int64Type>().value(i);
                let s = |n: &str| col(errors, n).as_string::<i32>().value(i).to_string();
                c.first.push(format!(
                    "{}:{}:{}: {sev}[{k}]: {}",
                    s("source_file"),
                    u("line"),
                    u("col"),
                    s("message")
                ));
            }
        }
        if sev == "error" {
            c.quarantined += 1;
            if c.first_error.is_none() {
                let u = |n: &str| col(errors, n).as_primitive::<Int64Type>().value(i) as u64;
                let s = |n: &str| col(errors, n).as_string::<i32>().value(i).to_string();
                c.first_error = Some(Error::Record {
                    file: s("source_file"),
                    line: u("line"),
                    column: u("col"),
                    record: u("record_index"),
                    code: s("code"),
                    message: s("message"),
                });
            }
        } else if severity.value(i) == "info" {
            c.infos += 1;
        } else {
            c.warnings += 1;
        }
    }
    c
}
