//! `deckhand check`: the conversion's parsing and rules, without writing
//! Parquet; every diagnostic printed like a compiler's
//! (`file:line:col: warning[P053]: trick 7 winner is W by the cards, annotated E`).

use std::path::PathBuf;

use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;

use crate::Error;
use crate::columns::errors_table::ERRORS;
use crate::pipeline::{FileSummary, Options, parse_inputs};

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
    let files = parse_inputs(inputs, opts, None, &mut |_, tables| {
        let errors = tables.iter().filter(|t| *t.0 == *ERRORS);
        for b in errors.flat_map(|t| &t.1) {
            let s = |n: &str| {
                b.column_by_name(n)
                    .expect("errors column")
                    .as_string::<i32>()
                    .clone()
            };
            let u = |n: &str| {
                b.column_by_name(n)
                    .expect("errors column")
                    .as_primitive::<Int64Type>()
                    .clone()
            };
            let (file, sev, code, msg) = (s("source_file"), s("severity"), s("code"), s("message"));
            let (line, col) = (u("line"), u("col"));
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
    })?;
    let mut report = CheckReport {
        files: files.len(),
        ..Default::default()
    };
    for f in &files {
        report.total.add(f);
        if let Some(w) = &f.input_warning {
            print(format!("{}: warning: {w}", f.path));
        }
    }
    Ok(report)
}
