//! The whole convert path, Parquet files included: never panics, never fails
//! on content (only I/O can fail), and the files read back.
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
    let rows = deckhand::columns::render::dataset(&out, &["hands", "errors"]).unwrap();
    assert!(rows.len() as u64 >= t.converted + t.quarantined);
});
