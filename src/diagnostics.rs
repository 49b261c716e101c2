//! The registry of diagnostic codes: every code the `errors` table can hold,
//! with the severity it has and a short explanation (`deckhand explain
//! CODE`, `docs/diagnostics.md`). Each notation keeps its codes, under its
//! own prefix, beside its parser; the codes here are the pipeline's own
//! (prefix `D`), about inputs as a whole.

use crate::error::Severity;

/// A diagnostic code.
#[derive(Debug)]
pub struct Code {
    pub code: &'static str,
    pub severity: Severity,
    /// What it reports, in a few words.
    pub title: &'static str,
    /// What it means and what to do about it.
    pub explain: &'static str,
}

impl Code {
    /// The code every notation gives the row that counts the warnings of a
    /// record past the first 1,000 (`Diags::finish_with`).
    pub const fn more_warnings(code: &'static str) -> Code {
        Code {
            code,
            severity: crate::error::Severity::Warning,
            title: "more warnings than listed",
            explain: "A record lists at most 1,000 warnings (errors and infos are never left \
out); this one, at the record's start, counts the rest.",
        }
    }
}

/// The pipeline's codes.
pub const GENERIC: &[Code] = &[Code {
    code: "D001",
    severity: Severity::Error,
    title: "input of no notation deckhand reads",
    explain: "No notation took a file named on the command line: no file header names \
one, it has no tag, label or key that a notation has, and its name's extension names \
none. The row's message says what the file looked like (binary data, text of no \
notation, chess PGN); its raw text is the file's first MiB. Give it the extension of its \
notation, or name the notation with --notation. (Such files found in a directory are \
left out and listed in the summary instead; an empty file, or one of white space alone, \
gives no row.)",
}];

/// The code `code` among `codes`.
pub fn find<'c>(codes: &[&'c [Code]], code: &str) -> Option<&'c Code> {
    codes
        .iter()
        .flat_map(|c| c.iter())
        .find(|c| c.code.eq_ignore_ascii_case(code))
}
