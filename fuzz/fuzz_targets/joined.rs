//! Files joined into one (`cat`) against each file alone: the input is cut
//! into files at each `|||`, each given a header of its own and a last
//! record; converted joined, every table must hold the rows of the files
//! converted alone (leaving out the columns that say where a row came
//! from), and the counts must add up.
#![no_main]

use deckhand::pipeline::{Options, convert};
use libfuzzer_sys::fuzz_target;

const TABLES: [&str; 6] = [
    "pinochle/hands",
    "pinochle/seats",
    "pinochle/bids",
    "pinochle/tricks",
    "pinochle/notes",
    "errors",
];

/// Rows of every table without the columns that say where they came from.
fn rows(dir: &std::path::Path) -> Vec<String> {
    deckhand::columns::render::dataset_unplaced(dir, &TABLES).unwrap()
}

fuzz_target!(|data: &[u8]| {
    // Past 64 braces left open an input recovers no more (joined, the
    // bound is shared).
    if data.iter().filter(|&&b| b == b'{').count() >= 60 {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut texts: Vec<Vec<u8>> = Vec::new();
    let mut rest = data;
    loop {
        let cut = rest.windows(3).position(|w| w == b"|||");
        let (piece, more) = match cut {
            Some(i) if texts.len() < 5 => (&rest[..i], Some(&rest[i + 3..])),
            _ => (rest, None),
        };
        // A last record, so that the next file's header comes after one
        // (a header after a file with no record adds to its header).
        let n = texts.len();
        let mut t = format!("% PPN 1.0\n% ID {n}\n").into_bytes();
        t.extend_from_slice(piece);
        t.extend_from_slice(format!("\n\n[Event \"end {n}\"]\n").as_bytes());
        texts.push(t);
        match more {
            Some(m) => rest = m,
            None => break,
        }
    }
    let threads = 1 + data.len() % 2;
    let opts = Options {
        threads,
        progress: false,
        ..Options::default()
    };
    let mut want = Vec::new();
    let mut counts = (0, 0, 0, 0, 0);
    for (i, t) in texts.iter().enumerate() {
        let p = dir.path().join(format!("{i}.ppn"));
        std::fs::write(&p, t).unwrap();
        let out = dir.path().join(format!("out{i}"));
        let s = convert(&[p], &out, &opts).expect("content never makes convert fail");
        let c = s.total();
        counts.0 += c.records;
        counts.1 += c.converted;
        counts.2 += c.quarantined;
        counts.3 += c.warnings;
        counts.4 += c.comment_blocks;
        want.push(rows(&out));
    }
    let want: Vec<String> = TABLES
        .iter()
        .flat_map(|t| {
            want.iter()
                .flatten()
                .filter(move |l| l.split(' ').next() == Some(*t))
                .cloned()
        })
        .collect();
    let joined = dir.path().join("joined.ppn");
    std::fs::write(&joined, texts.concat()).unwrap();
    let out = dir.path().join("out");
    let s = convert(&[joined], &out, &opts).expect("content never makes convert fail");
    let c = s.total();
    assert_eq!(
        (
            c.records,
            c.converted,
            c.quarantined,
            c.warnings,
            c.comment_blocks
        ),
        counts
    );
    let got = rows(&out);
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g, w);
    }
});
