//! The whole convert path, Parquet files included: never panics, never fails
//! on content (only I/O can fail), and the files read back. The input is a
//! `.ppn` file: routed by its content to pinochle, Preferans or PBN, whose
//! records are quarantined (D002).
#![no_main]

use deckhand::pipeline::{Options, convert};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.ppn");
    std::fs::write(&input, data).unwrap();
    let out = dir.path().join("out");
    let opts = Options {
        threads: 1,
        progress: false,
        ..Options::default()
    };
    let summary = convert(&[input], &out, &opts).expect("content never makes convert fail");
    let t = summary.total();
    assert_eq!(t.records, t.converted + t.quarantined);
    // The record table of the game the input was routed to, if one was
    // written, and the errors.
    let tables: Vec<&str> = ["pinochle/hands", "errors"]
        .into_iter()
        .filter(|t| out.join(t).is_dir())
        .collect();
    let rows = deckhand::columns::render::dataset(&out, &tables).unwrap();
    assert!(rows.len() as u64 >= t.converted + t.quarantined);
});
