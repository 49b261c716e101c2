//! One window of records: parsed in groups in parallel, resolved in order,
//! built into batches in parallel.

use arrow_array::RecordBatch;
use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use rayon::prelude::*;

use super::{Consumer, FileSummary, OnError, Options};
use crate::Error;
use crate::notation::{FileInfo, Notation};
use crate::split::Item;

/// Parses, resolves and builds one window of records (`bytes[0]` is at
/// absolute offset `base`) and hands its batches to `consume`.
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
) -> Result<(), Error> {
    // Cut into groups of about group_bytes each (never depends on the thread count).
    let mut cuts = Vec::new();
    let mut acc = 0usize;
    let mut from = 0;
    for (i, (it, _, _)) in records.iter().enumerate() {
        acc += (it.end - it.start) as usize;
        if acc >= opts.group_bytes {
            cuts.push(from..i + 1);
            from = i + 1;
            acc = 0;
        }
    }
    if from < records.len() {
        cuts.push(from..records.len());
    }
    let mut groups: Vec<N::Group<'a>> = pool.install(|| {
        cuts.par_iter()
            .map(|r| notation.parse(bytes, base, &records[r.clone()]))
            .collect()
    });
    notation.resolve(state, &mut groups);
    let built: Vec<Result<crate::columns::Tables, Error>> =
        pool.install(|| groups.par_iter().map(|g| notation.build(file, g)).collect());
    let mut converted = 0;
    // Batches per table, in input order.
    let mut per_table: Vec<Vec<RecordBatch>> = Vec::new();
    for tables in built {
        let tables = tables?;
        let counts = count(&tables);
        converted += counts.hands + counts.quarantined;
        fs.records += counts.hands + counts.quarantined;
        fs.hands += counts.hands;
        fs.quarantined += counts.quarantined;
        fs.warnings += counts.warnings;
        fs.infos += counts.infos;
        if opts.on_error == OnError::Fail
            && let Some(e) = counts.first_error
        {
            return Err(e);
        }
        per_table.resize_with(tables.len(), Vec::new);
        for ((_, batch), out) in tables.into_iter().zip(&mut per_table) {
            out.push(batch);
        }
    }
    fs.comment_blocks += records.len() as u64 - converted;
    consume(per_table)
}

struct Counts {
    hands: u64,
    quarantined: u64,
    warnings: u64,
    infos: u64,
    first_error: Option<Error>,
}

/// Counts what a group produced, from its `hands` and `errors` batches.
fn count(tables: &crate::columns::Tables) -> Counts {
    let find = |name: &str| tables.iter().find(|t| t.0 == name).map(|t| &t.1);
    let hands = find("hands").map_or(0, |b| b.num_rows() as u64);
    let mut c = Counts {
        hands,
        quarantined: 0,
        warnings: 0,
        infos: 0,
        first_error: None,
    };
    let Some(errors) = find("errors") else {
        return c;
    };
    let col = |b: &RecordBatch, n: &str| b.column_by_name(n).cloned().expect("errors column");
    let severity = col(errors, "severity");
    let severity = severity.as_string::<i32>();
    for i in 0..errors.num_rows() {
        if severity.value(i) == "error" {
            c.quarantined += 1;
            if c.first_error.is_none() {
                let u = |n: &str| col(errors, n).as_primitive::<UInt64Type>().value(i);
                let s = |n: &str| col(errors, n).as_string::<i32>().value(i).to_string();
                c.first_error = Some(Error::Record {
                    file: s("source_file"),
                    line: u("line"),
                    column: u("column"),
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
