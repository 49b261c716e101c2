//! Every hand-written PBN archive under testdata/bridge converts into exactly
//! the rows and diagnostics of its golden file, with deckhand's page builders
//! and with the Arrow writer alone. `DECKHAND_BLESS=1` rewrites the golden
//! files.

mod common;

use std::path::{Path, PathBuf};

use deckhand::pipeline::Options;
use deckhand::sink::parquet::Writer;

/// The tables of a bridge dataset, by their paths in it.
const BRIDGE: [&str; 9] = [
    "bridge/boards",
    "bridge/seats",
    "bridge/calls",
    "bridge/plays",
    "bridge/tricks",
    "bridge/notes",
    "bridge/score_tables",
    "bridge/double_dummy",
    "errors",
];

fn fixtures() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir("testdata/bridge")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pbn"))
        .collect();
    v.sort();
    assert!(v.len() >= 8, "fixtures missing");
    v
}

/// The dataset's rows, table by table, of the tables it has.
fn render(out: &Path) -> Vec<String> {
    let present: Vec<&str> = BRIDGE
        .iter()
        .copied()
        .filter(|t| out.join(t).is_dir())
        .collect();
    deckhand::columns::render::dataset(out, &present).unwrap()
}

#[test]
fn bridge_tables_are_the_declared_ones() {
    let declared: Vec<String> = deckhand::notation::pbn::TABLES
        .iter()
        .map(|t| t.path())
        .collect();
    assert_eq!(declared, BRIDGE);
}

#[test]
fn bridge_fixtures_match_golden_files() {
    let bless = std::env::var_os("DECKHAND_BLESS").is_some();
    let mut failures = Vec::new();
    for (f, writer) in fixtures()
        .iter()
        .flat_map(|f| [Writer::Fast, Writer::Arrow].map(|w| (f.clone(), w)))
    {
        let dir = tempfile::tempdir().unwrap();
        let opts = Options {
            writer,
            ..common::quiet(2)
        };
        let summary = common::convert(std::slice::from_ref(&f), dir.path(), &opts);
        let t = summary.total();
        let mut lines = vec![format!(
            "summary records={} boards={} quarantined={} warnings={} comment_blocks={}",
            t.records, t.converted, t.quarantined, t.warnings, t.comment_blocks
        )];
        lines.extend(render(dir.path()));
        let got = lines.join("\n") + "\n";
        let golden = f.with_extension("expected");
        if bless {
            std::fs::write(&golden, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_default();
        if want != got {
            let first = want
                .lines()
                .zip(got.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(want.lines().count().min(got.lines().count()));
            failures.push(format!(
                "{} ({writer:?} writer): differs at line {}:\n  want: {}\n  got:  {}",
                f.display(),
                first + 1,
                want.lines().nth(first).unwrap_or("<end>"),
                got.lines().nth(first).unwrap_or("<end>")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
