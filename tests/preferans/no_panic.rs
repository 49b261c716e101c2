//! Whatever the bytes read as Portable Preferans Notation, conversion never
//! panics, every game is a `games` row or a quarantined record, and the
//! input read in pieces gives the same rows as read in place.

use crate::common;

use deckhand::pipeline::{Options, parse_bytes, parse_reader};
use proptest::prelude::*;

fn opts(k: usize) -> Options {
    Options {
        threads: 1,
        progress: false,
        chunk_bytes: 1 + k * 7 % 300,
        group_bytes: 64 + k * 13,
        settings: deckhand::registry::Settings {
            notation: Some("preferans-ppn".into()),
            ..Default::default()
        },
        ..Options::default()
    }
}

/// Rows per table, in place and in pieces.
fn check(bytes: &[u8]) -> Result<(), TestCaseError> {
    let o = opts(bytes.first().map_or(0, |&b| b as usize));
    type Batches = Vec<(
        &'static deckhand::columns::table::TableDecl,
        Vec<arrow_array::RecordBatch>,
    )>;
    let add = |t: Batches, rows: &mut Vec<(String, usize)>| {
        for (decl, b) in t {
            rows.push((decl.path(), b.iter().map(|b| b.num_rows()).sum()));
        }
    };
    let mut mapped = Vec::new();
    let fs = parse_bytes(bytes, "fuzz.ppn", &o, &mut |t| {
        add(t, &mut mapped);
        Ok(())
    })
    .expect("parsing in memory does not fail");
    let mut streamed = Vec::new();
    let mut reader: &[u8] = bytes;
    let fs2 = parse_reader(&mut reader, "fuzz.ppn", &o, &mut |t| {
        add(t, &mut streamed);
        Ok(())
    })
    .expect("parsing in pieces does not fail");
    prop_assert_eq!(&fs, &fs2);
    prop_assert_eq!(fs.records, fs.converted + fs.quarantined);
    let games: usize = (mapped.iter())
        .filter(|r| r.0 == "preferans/games")
        .map(|r| r.1)
        .sum();
    prop_assert_eq!(games as u64, fs.converted);
    let total = |v: &[(String, usize)], t: &str| -> usize {
        v.iter().filter(|r| r.0 == t).map(|r| r.1).sum()
    };
    for t in [
        "preferans/deals",
        "preferans/seats",
        "preferans/tricks",
        "errors",
    ] {
        prop_assert_eq!(total(&mapped, t), total(&streamed, t), "{}", t);
    }
    Ok(())
}

fn fixture() -> Vec<u8> {
    let mut v = std::fs::read("testdata/preferans/spec_example.ppn").unwrap();
    v.extend(std::fs::read("testdata/preferans/deals.ppn").unwrap());
    v
}

fn token_soup() -> impl Strategy<Value = Vec<u8>> {
    let tokens: Vec<&'static [u8]> = vec![
        b"[",
        b"]",
        b"\"",
        b"{",
        b"}",
        b";",
        b"%",
        b" ",
        b"\n",
        b"\r\n",
        b"\n\n",
        b",",
        b":",
        b"[Bula 60]\n",
        b"[Player1 \"a b\"]\n",
        b"[1 ",
        b"231 ",
        b"123 ",
        b"XX ",
        b"G4 ",
        b"1BDHM27WQK4CEIN3FVRJS5LP8GU6AOT9 ",
        b"P,P,P",
        b"M3,P,3 ",
        b"2A12,",
        b"M9B2",
        b"I3 ",
        b"K1 ",
        b"0 ",
        b"1 ",
        b"8 ",
        b"M7:-8,F3:L24,0",
        b"F3:L192:64",
        b"\xff",
    ];
    prop::collection::vec(prop::sample::select(tokens), 0..60).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        check(&bytes)?;
    }

    #[test]
    fn token_soups(bytes in token_soup()) {
        check(&bytes)?;
    }

    #[test]
    fn mutated_fixtures(edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..20)) {
        let mut v = fixture();
        common::mutate(&mut v, edits);
        check(&v)?;
    }
}
