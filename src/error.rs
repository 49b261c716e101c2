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

    pub fn info(at: usize, code: &'static str, message: impl Into<String>) -> Diag {
        Diag {
            severity: Severity::Info,
            code,
            at: at as u32,
            message: message.into(),
        }
    }
}

/// The most warnings one record lists: a record can hold millions of bad
/// cards or repeated tags, each of which would otherwise be a message in
/// memory and a row of the errors table. The rest are counted in one P101
/// warning. Real hands have a few dozen at the most.
pub const MAX_DIAGS: usize = 1000;

/// The diagnostics of one record: the first [`MAX_DIAGS`] warnings, every
/// error (it quarantines the record) and every info (a few a hand: why
/// computed values are null).
#[derive(Debug, Default)]
pub struct Diags {
    list: Vec<Diag>,
    /// Warnings in `list`.
    warnings: usize,
    unlisted: u64,
}

impl Diags {
    pub fn push(&mut self, d: Diag) {
        if d.severity != Severity::Warning {
            self.list.push(d);
        } else if self.warnings < MAX_DIAGS {
            self.warnings += 1;
            self.list.push(d);
        } else {
            self.unlisted += 1;
        }
    }

    /// Counts `n` diagnostics that were found but not made (see
    /// `Derived::issues_unlisted`).
    pub fn add_unlisted(&mut self, n: u64) {
        self.unlisted += n;
    }

    /// The diagnostics, by offset in the record, with the P101 warning at
    /// its start that counts those not listed.
    pub fn finish(self) -> Vec<Diag> {
        self.finish_with("P101")
    }

    /// As [`Diags::finish`], the warning that counts those not listed
    /// under the notation's `code`.
    pub fn finish_with(mut self, code: &'static str) -> Vec<Diag> {
        if self.unlisted > 0 {
            self.list.push(Diag::warning(
                0,
                code,
                format!(
                    "{} more warnings of this record are not listed (at most {MAX_DIAGS} are)",
                    self.unlisted
                ),
            ));
        }
        self.list.sort_by_key(|d| d.at);
        self.list
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

/// The positions of offsets in one record, each counted on from the one
/// before when they ascend (the diagnostics of a record come sorted): its
/// newlines are counted once, not once a diagnostic (a record of millions
/// of diagnostics took minutes).
pub struct Locator<'r> {
    record: &'r [u8],
    start: u64,
    line: u64,
    index: u64,
    /// The last offset asked, the newlines before it and where its line starts.
    at: usize,
    newlines: u64,
    line_start: usize,
}

impl<'r> Locator<'r> {
    /// For a record that starts at byte `start`, the first byte of line
    /// `line`, record `index` of its file.
    pub fn new(record: &'r [u8], start: u64, line: u64, index: u64) -> Self {
        Locator {
            record,
            start,
            line,
            index,
            at: 0,
            newlines: 0,
            line_start: 0,
        }
    }

    /// The position of offset `at`: [`Position::in_record`]'s.
    pub fn position(&mut self, at: usize) -> Position {
        let at = at.min(self.record.len());
        if at < self.at {
            (self.at, self.newlines, self.line_start) = (0, 0, 0);
        }
        let between = &self.record[self.at..at];
        self.newlines += memchr::memchr_iter(b'\n', between).count() as u64;
        if let Some(p) = memchr::memrchr(b'\n', between) {
            self.line_start = self.at + p + 1;
        }
        self.at = at;
        Position {
            byte: self.start + at as u64,
            line: self.line + self.newlines,
            column: (at - self.line_start) as u64 + 1,
            record: self.index,
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
    #[error(
        "output {0} exists and is not a directory (convert writes a dataset directory: one sub-directory per game and table)"
    )]
    OutputNotDirectory(PathBuf),
    #[error("no input files found in {0}")]
    NoInputs(PathBuf),
    #[error("{0}")]
    Settings(String),
    #[error("{0}: {1}")]
    WrongNotation(PathBuf, String),
    /// The run was stopped (an interrupt, or the reader of its rows gone).
    #[error("interrupted")]
    Stopped,
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

    #[test]
    fn diags_list_a_thousand_warnings_and_every_error_and_info() {
        let mut d = Diags::default();
        d.push(Diag::error(5, "P001", "e"));
        for k in 0..MAX_DIAGS + 2 {
            d.push(Diag::warning(k, "P020", "w"));
        }
        d.push(Diag {
            severity: Severity::Info,
            code: "P061",
            at: 0,
            message: "i".into(),
        });
        d.add_unlisted(3);
        let list = d.finish();
        let count = |code: &str| list.iter().filter(|x| x.code == code).count();
        assert_eq!(
            (count("P001"), count("P020"), count("P061")),
            (1, MAX_DIAGS, 1)
        );
        let more: Vec<&str> = list
            .iter()
            .filter(|x| x.code == "P101")
            .map(|x| x.message.as_str())
            .collect();
        assert_eq!(
            more,
            ["5 more warnings of this record are not listed (at most 1000 are)"]
        );
        assert!(list.windows(2).all(|w| w[0].at <= w[1].at));
    }

    #[test]
    fn a_locator_gives_the_positions_in_record_gives() {
        let r = b"[A \"1\"]\n  [B x]\n\n{c}\nlast";
        let mut l = Locator::new(r, 100, 7, 3);
        // Ascending, repeated, then back to the start and past the end.
        for at in [0, 3, 8, 8, 9, 13, 16, 17, 18, 21, 25, 2, 14, 99] {
            assert_eq!(
                l.position(at),
                Position::in_record(r, 100, 7, 3, at),
                "offset {at}"
            );
        }
    }
}
