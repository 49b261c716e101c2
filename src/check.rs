//! `deckhand check`: the conversion's parsing and rules, without writing
//! Parquet; every diagnostic printed like a compiler's
//! (`file:line:col: warning[P053]: trick 7 winner is W by the cards, annotated E`).

use std::path::PathBuf;
use std::time::Instant;

use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use indicatif::ProgressBar;

use crate::Error;
use crate::notation::FileInfo;
use crate::notation::ppn::Ppn;
use crate::pipeline::{FileSummary, Options, run_file};
use crate::source::Source;

#[derive(Debug, Default)]
pub struct CheckReport {
    pub files: usize,
    pub total: FileSummary,
}

/// Checks every input, calling `print` with one line per diagnostic (infos
/// only when `infos` is set), in input order.
pub fn check(
    inputs: &[PathBuf],
    opts: &Options,
    infos: bool,
    print: &mut dyn FnMut(String),
) -> Result<CheckReport, Error> {
    let ppn = Ppn {
        rules: opts.rules.clone(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.max(1))
        .build()
        .expect("thread pool");
    let mut report = CheckReport::default();
    // The errors table is the last of the notation's tables.
    let errors_index = Ppn::schemas().len() - 1;
    for (index, path) in inputs.iter().enumerate() {
        let source = Source::open(path)?;
        let file = FileInfo {
            name: path.to_string_lossy().into_owned(),
            index: index as u64,
        };
        let mut consume = |tables: Vec<Vec<arrow_array::RecordBatch>>| {
            for b in &tables[errors_index] {
                let s = |n: &str| {
                    b.column_by_name(n)
                        .expect("errors column")
                        .as_string::<i32>()
                        .clone()
                };
                let u = |n: &str| {
                    b.column_by_name(n)
                        .expect("errors column")
                        .as_primitive::<UInt64Type>()
                        .clone()
                };
                let (file, sev, code, msg) =
                    (s("source_file"), s("severity"), s("code"), s("message"));
                let (line, col) = (u("line"), u("column"));
                for i in 0..b.num_rows() {
                    if sev.value(i) == "info" && !infos {
                        continue;
                    }
                    print(format!(
                        "{}:{}:{}: {}[{}]: {}",
                        file.value(i),
                        line.value(i),
                        col.value(i),
                        sev.value(i),
                        code.value(i),
                        msg.value(i)
                    ));
                }
            }
            Ok(())
        };
        let fs = run_file(
            &ppn,
            &file,
            source.bytes(),
            opts,
            &pool,
            &mut consume,
            &ProgressBar::hidden(),
            Instant::now(),
        )?;
        let t = &mut report.total;
        t.bytes += fs.bytes;
        t.records += fs.records;
        t.hands += fs.hands;
        t.quarantined += fs.quarantined;
        t.warnings += fs.warnings;
        t.infos += fs.infos;
        t.comment_blocks += fs.comment_blocks;
        report.files += 1;
    }
    Ok(report)
}
