//! Diagnostics with positions, and the run's fatal errors.

use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The record could not be converted; it is quarantined with its raw text.
    Error,
    /// The record was converted; something in it is doubtful or was kept aside.
    Warning,
    /// Something worth knowing, such as why a computed value is null.
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// A diagnostic about one record. `at` is a byte offset inside the record;
/// [`Position`] turns it into file coordinates only when it is reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    pub severity: Severity,
    pub code: &'static str,
    pub at: u32,
    pub message: String,
}

impl Diag {
    pub fn error(at: usize, code: &'static str, message: impl Into<String>) -> Diag {
        Diag {
            severity: Severity::Error,
            code,
            at: at as u32,
            message: message.into(),
        }
    }

    pub fn warning(at: usize, code: &'static str, message: impl Into<String>) -> Diag {
        Diag {
            severity: Severity::Warning,
            code,
            at: at as u32,
            message: message.into(),
        }
    }
}

/// Where something is in an input file: `byte` is absolute, `line` and
/// `column` are 1-based (the column counts bytes), `record` is 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub byte: u64,
    pub line: u64,
    pub column: u64,
    pub record: u64,
}

impl Position {
    /// The position of offset `at` inside a record that starts at `start`
    /// (always the first byte of line `line`).
    pub fn in_record(record: &[u8], start: u64, line: u64, index: u64, at: usize) -> Position {
        let at = at.min(record.len());
        let before = &record[..at];
        let newlines = memchr::memchr_iter(b'\n', before).count() as u64;
        let line_start = memchr::memrchr(b'\n', before).map_or(0, |p| p + 1);
        Position {
            byte: start + at as u64,
            line: line + newlines,
            column: (at - line_start) as u64 + 1,
            record: index,
        }
    }
}

/// Errors that stop a run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write Parquet file {path}: {source}")]
    Parquet {
        path: PathBuf,
        source: parquet::errors::ParquetError,
    },
    #[error("internal Arrow error: {0}")]
    Arrow(#[from] arrow_schema::ArrowError),
    #[error(
        "output directory {0} already exists and is not empty (use --force to replace its tables)"
    )]
    OutputExists(PathBuf),
    #[error("no input files found in {0}")]
    NoInputs(PathBuf),
    #[error(
        "{file}:{line}:{column}: error[{code}]: {message} (record {record}; stopping because of --on-error fail)"
    )]
    Record {
        file: String,
        line: u64,
        column: u64,
        record: u64,
        code: String,
        message: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_columns() {
        let r = b"[A \"1\"]\n  [B x]";
        let p = Position::in_record(r, 100, 7, 3, 13);
        assert_eq!(
            p,
            Position {
                byte: 113,
                line: 8,
                column: 6,
                record: 3
            }
        );
        assert_eq!(Position::in_record(r, 0, 1, 0, 0).column, 1);
    }
}
