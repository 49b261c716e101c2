//! Parsing RBN and RBX into Arrow batches (no writing): never panics;
//! every record is a board or a quarantined record, the bridge rules
//! included (computed columns on); and reading the input in pieces (as
//! stdin and compressed files are) gives the same batches as reading it in
//! place (the database rules' carry across pieces included). The first
//! byte's low bit chooses RBN or RBX.
#![no_main]

use std::collections::BTreeMap;

use arrow_array::RecordBatch;
use deckhand::pipeline::{Options, parse_bytes, parse_reader};
use libfuzzer_sys::fuzz_target;

/// Every input read as RBN or RBX (`--notation rbn|rbx`).
fn settings(notation: &str) -> deckhand::notation::registry::Settings {
    deckhand::notation::registry::Settings {
        notation: Some(notation.into()),
        ..Default::default()
    }
}

type Tables = BTreeMap<String, Vec<RecordBatch>>;

fn one(v: &[RecordBatch]) -> Option<RecordBatch> {
    v.first()
        .map(|b| arrow_select::concat::concat_batches(&b.schema(), v).unwrap())
}

fuzz_target!(|data: &[u8]| {
    // Piece and group sizes from the input, so boundaries fall everywhere.
    let k = data.first().map_or(0, |&b| b as usize);
    let name = if k & 1 == 0 { "rbn" } else { "rbx" };
    let file = format!("fuzz.{name}");
    let opts = Options {
        threads: 1,
        progress: false,
        chunk_bytes: 1 + k * 7 % 300,
        group_bytes: 512 + k * 13,
        settings: settings(name),
        ..Options::default()
    };
    let mut mapped = Tables::new();
    let fs = parse_bytes(data, &file, &opts, &mut |t| {
        for (decl, b) in t {
            mapped.entry(decl.path()).or_default().extend(b);
        }
        Ok(())
    })
    .expect("parsing in memory does not fail");
    assert_eq!(fs.records, fs.converted + fs.quarantined);
    let mut streamed = Tables::new();
    let mut reader: &[u8] = data;
    let fs2 = parse_reader(&mut reader, &file, &opts, &mut |t| {
        for (decl, b) in t {
            streamed.entry(decl.path()).or_default().extend(b);
        }
        Ok(())
    })
    .expect("parsing in pieces does not fail");
    assert_eq!(fs, fs2);
    assert_eq!(
        mapped.keys().collect::<Vec<_>>(),
        streamed.keys().collect::<Vec<_>>()
    );
    for (m, s) in mapped.values().zip(streamed.values()) {
        assert_eq!(one(m), one(s));
    }
    let boards = mapped.get("bridge/boards").map_or(0, |v| {
        v.iter().map(|b| b.num_rows() as u64).sum::<u64>()
    });
    assert_eq!(boards, fs.converted);
});
