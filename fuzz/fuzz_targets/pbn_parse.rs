//! Parsing PBN into Arrow batches (no writing): never panics; every game is
//! a board or a quarantined record (or a comment-only block), the bridge
//! rules included (computed columns on); and reading the input in pieces
//! (as stdin and compressed files are) gives the same batches as reading it
//! in place.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    common::check(data, "pbn", "pbn", "bridge/boards");
});
