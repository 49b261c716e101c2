//! The tag-pair syntax that the PGN-like notations share (Portable Pinochle
//! Notation, Portable Bridge Notation, Portable Preferans Notation): records
//! separated by blank lines, `{...}` and `;` comments, `%` escape lines and
//! file headers (`split`), tag pairs, section tokens and segmental prefixes
//! (`lex`), and `#`/`##` inheritance of tag values (`inherit`). A notation
//! of the family gives its own codes and rules as a `lex::Dialect`.

pub mod family;
pub mod file;
pub mod inherit;
pub mod lex;
pub mod record;
pub mod split;
pub mod text;

/// The code of a `{` comment that never closes (the splitter reads it as
/// a comment to its line's end and quarantines the record), for each
/// notation of the family.
pub const fn unterminated_comment(code: &'static str) -> crate::diagnostics::Code {
    crate::diagnostics::Code {
        code,
        severity: crate::error::Severity::Error,
        title: "unterminated comment",
        explain: "A '{' comment never closes. Rather than swallow the rest of the file, \
the '{' is read as a comment to the end of its line and the rest of the file is split \
again: only this record is quarantined (at most 64 such braces an input).",
    }
}
