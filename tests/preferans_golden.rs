//! Every hand-written Portable Preferans Notation file under
//! testdata/preferans converts into exactly the rows and diagnostics of its
//! golden file, with deckhand's page builders and with the Arrow writer
//! alone. `DECKHAND_BLESS=1` rewrites the golden files.

mod common;

use std::path::PathBuf;

use deckhand::pipeline::Options;
use deckhand::sink::parquet::Writer;

/// The tables of a preferans dataset, by their paths in it.
const PREFERANS: [&str; 5] = [
    "preferans/games",
    "preferans/deals",
    "preferans/seats",
    "preferans/tricks",
    "errors",
];

/// The hand-written files.
fn fixtures() -> Vec<PathBuf> {
    let v = common::files_with("testdata/preferans", &["ppn"]);
    assert!(!v.is_empty(), "fixtures missing");
    v
}

#[test]
fn preferans_tables_are_the_declared_ones() {
    let declared: Vec<String> = deckhand::games::preferans::tables::PREFERANS_TABLES
        .iter()
        .map(|t| t.path())
        .collect();
    assert_eq!(declared, PREFERANS);
}

/// The rows and diagnostics of `files` converted, as the golden files
/// hold them.
fn rendered(files: &[PathBuf], writer: Writer) -> String {
    let dir = tempfile::tempdir().unwrap();
    let opts = Options {
        writer,
        ..common::quiet(2)
    };
    let summary = common::convert(files, dir.path(), &opts);
    let t = summary.total();
    let mut lines = vec![format!(
        "summary records={} games={} quarantined={} warnings={}",
        t.records, t.converted, t.quarantined, t.warnings
    )];
    let present: Vec<&str> = PREFERANS
        .iter()
        .copied()
        .filter(|t| dir.path().join(t).is_dir())
        .collect();
    lines.extend(deckhand::columns::render::dataset(dir.path(), &present).unwrap());
    lines.join("\n") + "\n"
}

#[test]
fn preferans_fixtures_match_golden_files() {
    let mut failures = Vec::new();
    for f in fixtures() {
        for writer in [Writer::Fast, Writer::Arrow] {
            let got = rendered(std::slice::from_ref(&f), writer);
            common::golden_compare(&f, &got, &format!("{writer:?} writer"), &mut failures);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
