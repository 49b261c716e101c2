//! A plain-text rendering of record batches, one line per row, naming every
//! non-null value. Golden files and `deckhand` tests compare these lines.

use arrow_array::cast::AsArray;
use arrow_array::types::{Date32Type, Decimal128Type, Int32Type, Int64Type};
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;

use super::date::civil_from_days;

/// Renders value `i` of `a`.
pub fn value(a: &dyn Array, i: usize) -> String {
    if a.is_null(i) {
        return "null".into();
    }
    match a.data_type() {
        DataType::Utf8 => format!("{:?}", a.as_string::<i32>().value(i)),
        DataType::Int32 => a.as_primitive::<Int32Type>().value(i).to_string(),
        DataType::Int64 => a.as_primitive::<Int64Type>().value(i).to_string(),
        DataType::Boolean => a.as_boolean().value(i).to_string(),
        DataType::Decimal128(_, 6) => {
            super::decimal::render(a.as_primitive::<Decimal128Type>().value(i))
        }
        DataType::Date32 => {
            let (y, m, d) = civil_from_days(a.as_primitive::<Date32Type>().value(i));
            format!("{y:04}-{m:02}-{d:02}")
        }
        DataType::List(_) => {
            let l = a.as_list::<i32>().value(i);
            let parts: Vec<String> = (0..l.len()).map(|j| value(l.as_ref(), j)).collect();
            format!("[{}]", parts.join(", "))
        }
        DataType::Struct(fields) => {
            let s = a.as_struct();
            let parts: Vec<String> = fields
                .iter()
                .zip(s.columns())
                .map(|(f, c)| format!("{}={}", f.name(), value(c.as_ref(), i)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        other => format!("<{other}>"),
    }
}

/// One line per row: `table[row] col=value col=value ...` (nulls left out).
pub fn rows(table: &str, batch: &RecordBatch, first_row: usize, out: &mut Vec<String>) {
    let schema = batch.schema();
    for row in 0..batch.num_rows() {
        let mut line = format!("{table}[{}]", first_row + row);
        for (f, c) in schema.fields().iter().zip(batch.columns()) {
            if !c.is_null(row) {
                line.push(' ');
                line.push_str(f.name());
                line.push('=');
                line.push_str(&value(c.as_ref(), row));
            }
        }
        out.push(line);
    }
}

/// Reads every Parquet file of `dir/<table>/` (in name order) for each table and
/// renders all rows.
pub fn dataset(dir: &std::path::Path, tables: &[&str]) -> Result<Vec<String>, crate::Error> {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let mut out = Vec::new();
    for t in tables {
        let tdir = dir.join(t);
        let rerr = |source| crate::Error::Read {
            path: tdir.clone(),
            source,
        };
        let mut files: Vec<_> = std::fs::read_dir(&tdir)
            .map_err(rerr)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
            .collect();
        files.sort();
        let mut row = 0;
        for f in files {
            let file = std::fs::File::open(&f).map_err(|source| crate::Error::Read {
                path: f.clone(),
                source,
            })?;
            let perr = |source| crate::Error::Parquet {
                path: f.clone(),
                source,
            };
            let reader = ParquetRecordBatchReaderBuilder::try_new(file)
                .map_err(perr)?
                .build()
                .map_err(perr)?;
            for batch in reader {
                let batch = batch?;
                rows(t, &batch, row, &mut out);
                row += batch.num_rows();
            }
        }
    }
    Ok(out)
}

/// The columns that say where a row came from (its file, record, byte and
/// line, and `record_id` in errors); a row's record key (its first column,
/// `..._id`) too.
const PLACES: [&str; 5] = [
    "record_id=",
    "source_file=",
    "record_index=",
    "byte_offset=",
    "line=",
];

/// [`dataset`] without the row numbers and without the columns that say
/// where a row came from, each line `table col=value ...`: rows that must
/// be the same wherever their records were (files joined into one, say).
/// (A string value holding ` line=` or the like loses that part.)
pub fn dataset_unplaced(
    dir: &std::path::Path,
    tables: &[&str],
) -> Result<Vec<String>, crate::Error> {
    Ok(dataset(dir, tables)?
        .iter()
        .map(|l| {
            let mut fields = l.split(' ');
            let first = fields.next().unwrap_or_default();
            let table = first.split('[').next().unwrap_or_default();
            let kept: Vec<&str> = (fields.enumerate())
                .filter(|(i, f)| {
                    let key = f.split('=').next().unwrap_or_default();
                    let key_column = *i == 0 && key.ends_with("_id");
                    !(key_column || PLACES.iter().any(|p| f.starts_with(p)))
                })
                .map(|(_, f)| f)
                .collect();
            format!("{table} {}", kept.join(" "))
        })
        .collect())
}
