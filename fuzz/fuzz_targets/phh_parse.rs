//! Parsing PHH (`.phh` and `.phhs`) into Arrow batches (no writing): never
//! panics; every hand is a `hands` row or a quarantined record; reading
//! the input in pieces gives the same batches as reading it in place.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    common::check(data, "phh", "phhs", "poker/hands");
});
