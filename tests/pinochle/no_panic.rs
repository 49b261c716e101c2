//! Whatever the bytes, conversion never panics and every record the splitter
//! finds is accounted for: a hand, a quarantined record or a comment-only
//! block (or several hands and quarantined records, when no blank line
//! separates them: each after the first has a P035 warning or is a P011 error).

use crate::common;

use deckhand::pipeline::{Options, parse_bytes};
use proptest::prelude::*;

#[path = "../common/records.rs"]
mod records;

fn check(bytes: &[u8]) -> Result<(), TestCaseError> {
    let opts = Options {
        threads: 1,
        progress: false,
        chunk_bytes: 7,
        group_bytes: 50,
        // The PPN parser, whatever the bytes would be routed to.
        settings: deckhand::registry::Settings {
            notation: Some("ppn".into()),
            ..Default::default()
        },
        ..Options::default()
    };
    let mut rows = [0usize; 6];
    let mut split_off = 0u64;
    let fs = parse_bytes(bytes, "fuzz.ppn", &opts, &mut |t| {
        let mut tables = Vec::new();
        common::place(&mut tables, t);
        for (i, batches) in tables.iter().enumerate() {
            rows[i] += batches.iter().map(|b| b.num_rows()).sum::<usize>();
        }
        split_off += records::split_off(&tables[5]);
        Ok(())
    })
    .expect("parsing in memory does not fail");
    let found = records::split_records(bytes);
    prop_assert_eq!(fs.records + fs.comment_blocks, found + split_off);
    prop_assert_eq!(fs.records, fs.converted + fs.quarantined);
    prop_assert_eq!(rows[0] as u64, fs.converted);
    prop_assert_eq!(rows[5] as u64, fs.quarantined + fs.warnings + fs.infos);
    Ok(())
}

fn fixture() -> Vec<u8> {
    let mut v = std::fs::read("testdata/pinochle/sample.ppn").unwrap();
    v.extend(std::fs::read("testdata/pinochle/constructs.ppn").unwrap());
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
        b"@",
        b"=",
        b"-",
        b".",
        b"(",
        b")",
        b"*",
        b"#",
        b"##",
        b"\\",
        b" ",
        b"\n",
        b"\r\n",
        b"\n\n",
        b"Deal",
        b"Auction",
        b"Play",
        b"Melds",
        b"Event",
        b"N",
        b"E:",
        b"AT.KQ..J",
        b"CA",
        b"(S2)",
        b"Pass",
        b"65",
        b"99999999999",
        b"P.19.3-R",
        b"\xff",
        b"\0",
        b"North",
        b"Competition",
        b"Six-handed",
    ];
    prop::collection::vec(prop::sample::select(tokens), 0..120).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

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

#[test]
fn fixtures_account_for_every_record() {
    for f in std::fs::read_dir("testdata/pinochle").unwrap() {
        let p = f.unwrap().path();
        if p.extension().is_some_and(|e| e == "ppn") {
            check(&std::fs::read(&p).unwrap()).unwrap();
        }
    }
}
