//! Parsing RBN and RBX into Arrow batches (no writing): never panics;
//! every record is a board or a quarantined record, the bridge rules
//! included (computed columns on); and reading the input in pieces (as
//! stdin and compressed files are) gives the same batches as reading it in
//! place (the database rules' carry across pieces included). The first
//! byte's low bit chooses RBN or RBX.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let name = if data.first().map_or(0, |&b| b) & 1 == 0 {
        "rbn"
    } else {
        "rbx"
    };
    common::check(data, name, name, "bridge/boards");
});
