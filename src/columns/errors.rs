//! The `errors` table: one row per diagnostic, with the raw text of every
//! record that could not be converted. Shared by all notations.

use crate::error::{Diag, Position, Severity};

table!(
    /// Builder of the `errors` table.
    ErrorsBuilder, "errors", {
    source_file: str required,
    record_index: u64 required,
    hand_id: u64,
    byte_offset: u64 required,
    line: u64 required,
    column: u64 required,
    severity: str required,
    code: str required,
    message: str required,
    raw: str,
});

/// Raw text kept for one quarantined record (larger records are cut here).
pub const RAW_LIMIT: usize = 1 << 20;

/// The record a diagnostic belongs to.
pub struct RecordRef<'r> {
    pub file: &'r str,
    pub bytes: &'r [u8],
    pub byte: u64,
    pub line: u64,
    pub index: u64,
    pub hand_id: Option<u64>,
}

impl ErrorsBuilder {
    /// A row for diagnostic `d` of record `rec`, at `pos` (found with a
    /// `Locator` of the record).
    pub fn push(&mut self, rec: &RecordRef<'_>, pos: Position, d: &Diag) {
        self.source_file.append_value(rec.file);
        self.record_index.append_value(rec.index);
        self.hand_id.append_option(rec.hand_id);
        self.byte_offset.append_value(pos.byte);
        self.line.append_value(pos.line);
        self.column.append_value(pos.column);
        self.severity.append_value(d.severity.as_str());
        self.code.append_value(d.code);
        self.message.append_value(&d.message);
        if d.severity == Severity::Error {
            // The raw text of a quarantined record, up to RAW_LIMIT bytes.
            let raw = &rec.bytes[..rec.bytes.len().min(RAW_LIMIT)];
            self.raw.append_value(String::from_utf8_lossy(raw));
        } else {
            self.raw.append_null();
        }
    }
}
