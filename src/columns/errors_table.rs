//! The `errors` table: one row per diagnostic, with the raw text of every
//! record that could not be converted. Shared by every game, written to
//! `OUT/errors/`.

use crate::columns::table::Provenance;
use crate::error::{Diag, Locator, Position, Severity};

table!(
    /// One row per diagnostic of every game: errors (the record was
    /// quarantined), warnings (it was converted) and infos.
    ErrorsBuilder, None, "errors", {
    /// The input file, as given or found in a directory.
    source_file: str required,
    /// The notation the file was read as (its label, as the record
    /// tables' `notation` column has it); null when no notation could be
    /// recognized.
    notation: str,
    /// The game of that notation: its folder in the dataset.
    game: str,
    /// 0-based position of the record in its file.
    record_index: i64 required unique,
    /// The key of the record's row in its game's record table (`hand_id`,
    /// `board_id`, ...); null when the record was quarantined.
    record_id: i64,
    /// Byte offset of the diagnostic in its (decompressed) file.
    byte_offset: i64 required unique,
    /// 1-based line of the diagnostic.
    line: i64 required unique,
    /// 1-based column of the diagnostic, in bytes.
    col: i64 required,
    /// `error` (the record was quarantined), `warning` (it was converted)
    /// or `info` (such as why a computed value is null).
    severity: str required,
    /// The diagnostic's code (`deckhand explain CODE` tells more).
    code: str required,
    /// What was found and what was expected.
    message: str required unique nostats,
    /// The full text of a quarantined record, cut at 1 MiB; for a warning
    /// that a line of a converted record was not read, that line's text;
    /// null otherwise.
    raw: str unique nostats,
});

/// The table's declaration.
pub const ERRORS: &crate::columns::table::TableDecl = &ErrorsBuilder::DECL;

/// Raw text kept for one quarantined record (larger records are cut here).
pub const RAW_LIMIT: usize = 1 << 20;

/// The record a diagnostic belongs to.
pub struct RecordRef<'r> {
    pub file: &'r str,
    /// The notation's label and its game's name.
    pub notation: Option<(&'static str, &'static str)>,
    pub bytes: &'r [u8],
    pub byte: u64,
    pub line: u64,
    pub index: u64,
    pub record_id: Option<i64>,
}

impl<'r> RecordRef<'r> {
    /// The record's provenance columns, under key `id`.
    pub fn provenance(&self, id: i64, version: Option<&'r str>) -> Provenance<'r> {
        Provenance {
            id,
            source_file: self.file,
            record_index: self.index as i64,
            byte_offset: self.byte as i64,
            line: self.line as i64,
            notation: self.notation.map_or("", |n| n.0),
            notation_version: version,
        }
    }
}

impl ErrorsBuilder {
    /// A row for diagnostic `d` of record `rec`, at `pos` (found with a
    /// `Locator` of the record).
    pub fn push(&mut self, rec: &RecordRef<'_>, pos: Position, d: &Diag) {
        self.push_row(rec, pos, d.severity, d.code, &d.message);
    }

    /// A row for each of a record's diagnostics, in order, each located
    /// (line and column) in the record's bytes. `line_of` gives, for a
    /// warning that a line of the record was not read, that line's text
    /// (the row's `raw`, as [`ErrorsBuilder::push_line`]).
    pub fn push_record<'r>(
        &mut self,
        rec: &RecordRef<'r>,
        diags: &[Diag],
        line_of: impl Fn(&Diag) -> Option<&'r [u8]>,
    ) {
        let mut locate = Locator::new(rec.bytes, rec.byte, rec.line, rec.index);
        for d in diags {
            let pos = locate.position(d.at as usize);
            match line_of(d) {
                Some(line) => self.push_line(rec, pos, d, line),
                None => self.push(rec, pos, d),
            }
        }
    }

    /// A row for warning `d` that a line of a converted record was not
    /// read: `line` (its text, cut at 1 MiB) is the row's `raw`.
    pub fn push_line(&mut self, rec: &RecordRef<'_>, pos: Position, d: &Diag, line: &[u8]) {
        self.push_parts(rec, pos, (d.severity, d.code, &d.message), Some(line));
    }

    /// A row for a diagnostic given by its parts.
    pub fn push_row(
        &mut self,
        rec: &RecordRef<'_>,
        pos: Position,
        severity: Severity,
        code: &str,
        message: &str,
    ) {
        let raw = (severity == Severity::Error).then_some(rec.bytes);
        self.push_parts(rec, pos, (severity, code, message), raw);
    }

    fn push_parts(
        &mut self,
        rec: &RecordRef<'_>,
        pos: Position,
        (severity, code, message): (Severity, &str, &str),
        raw: Option<&[u8]>,
    ) {
        self.source_file.append_value(rec.file);
        self.notation.append_option(rec.notation.map(|n| n.0));
        self.game.append_option(rec.notation.map(|n| n.1));
        self.record_index.append_value(rec.index as i64);
        self.record_id.append_option(rec.record_id);
        self.byte_offset.append_value(pos.byte as i64);
        self.line.append_value(pos.line as i64);
        self.col.append_value(pos.column as i64);
        self.severity.append_value(severity.as_str());
        self.code.append_value(code);
        self.message.append_value(message);
        match raw {
            // The raw text, up to RAW_LIMIT bytes.
            Some(raw) => {
                let raw = &raw[..raw.len().min(RAW_LIMIT)];
                self.raw.append_value(String::from_utf8_lossy(raw));
            }
            None => self.raw.append_null(),
        }
    }
}
