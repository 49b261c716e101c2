//! The splitter: never panics; items are ordered and disjoint and leave out
//! only white space and byte-order marks at line starts; feeding in two pieces
//! gives the same items; the fast path finds the same items as the
//! byte-at-a-time state machine; so do they when long records are cut (past a
//! few bytes here, not a MiB).
#![no_main]

use deckhand::notation::tagpair::split::{
    BOM, Item, Scanner, split_all, split_all_by_bytes, split_all_by_bytes_cutting_after,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let items = split_all(data, 0);
    let mut last = 0;
    let mut covered = vec![false; data.len()];
    for it in &items {
        assert!(it.start >= last && it.end > it.start && it.end as usize <= data.len());
        last = it.end;
        for c in &mut covered[it.start as usize..it.end as usize] {
            *c = true;
        }
    }
    // Left out: white space, and byte-order marks at the start of a line
    // (one after another; files joined with `cat` keep theirs).
    let mut k = 0;
    let mut line_start = true;
    while k < data.len() {
        if !covered[k] && line_start && data[k..].starts_with(BOM) {
            k += BOM.len();
            continue;
        }
        assert!(covered[k] || matches!(data[k], b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c));
        line_start = data[k] == b'\n';
        k += 1;
    }
    let cut = data.first().map_or(0, |&b| b as usize % (data.len() + 1));
    let mut pieces: Vec<Item> = Vec::new();
    let mut sc = Scanner::default();
    sc.scan(data, 0, cut, &mut pieces);
    sc.scan(data, 0, data.len(), &mut pieces);
    sc.end(data, 0, &mut pieces);
    assert_eq!(pieces, items);
    assert_eq!(split_all_by_bytes(data), items);
    let n = data.get(1).map_or(0, |&b| u64::from(b % 64));
    let mut pieces: Vec<Item> = Vec::new();
    let mut sc = Scanner::default().cutting_after(n);
    sc.scan(data, 0, cut, &mut pieces);
    sc.scan(data, 0, data.len(), &mut pieces);
    sc.end(data, 0, &mut pieces);
    assert_eq!(pieces, split_all_by_bytes_cutting_after(data, n));
});
