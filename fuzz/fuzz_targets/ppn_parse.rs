//! Parsing PPN into Arrow batches (no writing): never panics; every record is
//! a hand, a quarantined record or a comment-only block (or several hands and
//! quarantined records when no blank line separates them: each after the
//! first with a P035 warning or a P011 error); and reading the input
//! in pieces (as stdin and compressed files are) gives the same batches as
//! reading it in place.
#![no_main]

use arrow_array::RecordBatch;
use deckhand::pipeline::{Options, parse_bytes, parse_reader};
use libfuzzer_sys::fuzz_target;

/// Every input read as PPN (`--notation ppn`).
fn ppn() -> deckhand::registry::Settings {
    deckhand::registry::Settings {
        notation: Some("ppn".into()),
        ..Default::default()
    }
}

#[path = "../../tests/common/records.rs"]
mod records;

fuzz_target!(|data: &[u8]| {
    // Piece and group sizes from the input, so boundaries fall everywhere.
    let k = data.first().map_or(0, |&b| b as usize);
    let opts = Options {
        threads: 1,
        progress: false,
        chunk_bytes: 1 + k * 7 % 300,
        group_bytes: 512 + k * 13,
        // The PPN parser, whatever the content would route to.
        settings: ppn(),
        ..Options::default()
    };
    let mut mapped: Vec<Vec<RecordBatch>> = vec![Vec::new(); 6];
    let fs = parse_bytes(data, "fuzz.ppn", &opts, &mut |t| {
        mapped.iter_mut().zip(t).for_each(|(all, b)| all.extend(b.1));
        Ok(())
    })
    .expect("parsing in memory does not fail");
    assert_eq!(fs.records, fs.converted + fs.quarantined);
    let mut streamed: Vec<Vec<RecordBatch>> = vec![Vec::new(); 6];
    let mut reader: &[u8] = data;
    let fs2 = parse_reader(&mut reader, "fuzz.ppn", &opts, &mut |t| {
        streamed
            .iter_mut()
            .zip(t)
            .for_each(|(all, b)| all.extend(b.1));
        Ok(())
    })
    .expect("parsing in pieces does not fail");
    assert_eq!(fs, fs2);
    for (m, s) in mapped.iter().zip(&streamed) {
        let one = |v: &[RecordBatch]| {
            v.first()
                .map(|b| arrow_select::concat::concat_batches(&b.schema(), v).unwrap())
        };
        assert_eq!(one(m), one(s));
    }
    let found = records::split_records(data);
    let split_off = records::split_off(&mapped[5]);
    assert_eq!(fs.records + fs.comment_blocks, found + split_off);
});
