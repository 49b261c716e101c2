//! Parsing Portable Preferans Notation into Arrow batches (no writing):
//! never panics; every game is a `games` row or a quarantined record;
//! reading the input in pieces gives the same batches as reading it in
//! place.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    common::check(data, "preferans-ppn", "ppn", "preferans/games");
});
