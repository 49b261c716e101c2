//! What the notation fuzz targets check of any input read as one notation:
//! no panic; every record converted or quarantined; the input read in pieces
//! (as stdin and compressed files are) gives the same batches as read in
//! place; every converted record is a row of its game's record table.

use std::collections::BTreeMap;

use arrow_array::RecordBatch;
use deckhand::pipeline::{Options, parse_bytes, parse_reader};

type Tables = BTreeMap<String, Vec<RecordBatch>>;

fn one(v: &[RecordBatch]) -> Option<RecordBatch> {
    v.first()
        .map(|b| arrow_select::concat::concat_batches(&b.schema(), v).unwrap())
}

/// Reads `data` as `notation` (`--notation`), in a file named with
/// extension `ext`, piece and group sizes from its first byte; `records`
/// is the path of the game's record table (`bridge/boards`).
pub fn check(data: &[u8], notation: &str, ext: &str, records: &str) {
    let k = data.first().map_or(0, |&b| b as usize);
    let file = format!("fuzz.{ext}");
    let opts = Options {
        threads: 1,
        progress: false,
        chunk_bytes: 1 + k * 7 % 300,
        group_bytes: 512 + k * 13,
        settings: deckhand::registry::Settings {
            notation: Some(notation.into()),
            ..Default::default()
        },
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
    let rows = mapped
        .get(records)
        .map_or(0, |v| v.iter().map(|b| b.num_rows() as u64).sum::<u64>());
    assert_eq!(rows, fs.converted);
}
