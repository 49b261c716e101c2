//! Parsing PPN into Arrow batches (no writing): never panics, and every record
//! is a hand, a quarantined record or a comment-only block.
#![no_main]

use deckhand::pipeline::{Options, parse_bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let opts = Options {
        threads: 1,
        progress: false,
        chunk_bytes: 61,
        group_bytes: 97,
        ..Options::default()
    };
    let mut hands = 0u64;
    let fs = parse_bytes(data, "fuzz.ppn", &opts, &mut |t| {
        hands += t[0].iter().map(|b| b.num_rows() as u64).sum::<u64>();
        Ok(())
    })
    .expect("parsing in memory does not fail");
    assert_eq!(fs.records, fs.hands + fs.quarantined);
    assert_eq!(hands, fs.hands);
    let translated = deckhand::split::lone_cr_as_lf(data);
    let data = translated.as_deref().unwrap_or(data);
    let found = deckhand::split::split_all(data, if data.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 })
        .iter()
        .filter(|i| i.kind == deckhand::split::ItemKind::Record)
        .count() as u64;
    assert_eq!(fs.records + fs.comment_blocks, found);
});
