//! How many records a parse must account for, counted apart from the
//! parser: shared by `tests/pinochle/no_panic.rs` and the fuzz target `ppn_parse`
//! (which includes this file by path).

use arrow_array::RecordBatch;
use arrow_array::cast::AsArray;

/// The records the splitter finds in `bytes` read as the pipeline reads
/// them: lone CRs as line ends, after a UTF-8 byte-order mark.
pub fn split_records(bytes: &[u8]) -> u64 {
    let translated = deckhand::notation::tagpair::split::lone_cr_as_lf(bytes);
    let bytes = translated.as_deref().unwrap_or(bytes);
    let start = if bytes.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    deckhand::notation::tagpair::split::split_all(bytes, start)
        .iter()
        .filter(|i| i.kind == deckhand::notation::tagpair::split::ItemKind::Record)
        .count() as u64
}

/// The hands and quarantined records that a record without blank lines
/// between them was split into, beyond its first: one P035 warning or
/// P011 error each in the errors table's batches.
pub fn split_off(errors: &[RecordBatch]) -> u64 {
    errors
        .iter()
        .map(|b| {
            let code = b.column_by_name("code").unwrap().as_string::<i32>();
            code.iter()
                .filter(|c| matches!(c, Some("P035" | "P011")))
                .count() as u64
        })
        .sum()
}
