//! Exporting bridge boards (`deckhand export --to pbn|rbn|rbx`) from any
//! input read as PBN, RBN or RBX: never panics, and what it writes is read
//! again without panic, converting as many boards as were written. The
//! first byte chooses the notation read and the one written.
#![no_main]

use deckhand::registry::{Settings, export_to};
use deckhand::pipeline::{Options, parse_bytes};
use libfuzzer_sys::fuzz_target;

fn opts(notation: &str) -> Options {
    Options {
        threads: 1,
        progress: false,
        settings: Settings {
            notation: Some(notation.into()),
            ..Default::default()
        },
        ..Options::default()
    }
}

fuzz_target!(|data: &[u8]| {
    let k = data.first().map_or(0, |&b| b as usize);
    let from = ["pbn", "rbn", "rbx"][k % 3];
    let to = ["pbn", "rbn", "rbx"][(k / 3) % 3];
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join(format!("in.{from}"));
    std::fs::write(&input, data).unwrap();
    let mut out = Vec::new();
    let r = export_to(&[input], &opts(from), to, &mut out).expect("export runs");
    let fs = parse_bytes(&out, &format!("out.{to}"), &opts(to), &mut |_| Ok(()))
        .expect("the export is read");
    assert_eq!(fs.converted, r.total.converted, "{}", String::from_utf8_lossy(&out));
});
