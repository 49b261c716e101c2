//! Every hand-written PBN, RBN and RBX archive under testdata/bridge converts into exactly
//! the rows and diagnostics of its golden file, with deckhand's page builders
//! and with the Arrow writer alone. `DECKHAND_BLESS=1` rewrites the golden
//! files.

use crate::common;

use std::path::{Path, PathBuf};

use deckhand::pipeline::Options;
use deckhand::sink::writer::Writer;

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

/// The hand-written archives: PBN under testdata/bridge, RBN and RBX
/// under testdata/bridge/rbn.
fn fixtures() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = ["testdata/bridge", "testdata/bridge/rbn"]
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e == "pbn" || e == "rbn" || e == "rbx")
        })
        .collect();
    v.sort();
    assert!(v.len() >= 16, "fixtures missing");
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
        common::golden_compare(&f, &got, &format!("{writer:?} writer"), &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every bundled real PBN file (testdata/real/bridge), in name order.
fn real_files() -> Vec<PathBuf> {
    let v = common::files_with("testdata/real/bridge", &["pbn"]);
    assert!(v.len() >= 18, "testdata/real/bridge missing");
    v
}

#[test]
fn bridge_threads_and_chunk_sizes_do_not_change_a_byte() {
    let default = Options::default().window_array_bytes;
    // (inputs, [(threads, chunk, group, bytes of arrays a window may build)])
    let fine: &[(usize, usize, usize, usize)] = &[
        (2, 1 << 20, 1 << 20, default),
        (1, 1, 1, default),
        (2, 2, 3, default),
        (2, 7, 200, default),
        (2, 13, 1, default),
        (2, 1000, 10, default),
        (2, 1 << 20, 1, 1),
        (2, 4096, 2000, 40_000),
    ];
    let coarse: &[(usize, usize, usize, usize)] = &[
        (2, 1 << 20, 1 << 20, default),
        (2, 4093, 700, default),
        (1, 65_537, 5000, 1),
        (2, 1 << 16, 1 << 20, 1 << 40),
    ];
    // The real files' boards as RBN and as RBX (written by `export --to`):
    // the repeating labels carry across every cut.
    let exported = tempfile::tempdir().unwrap();
    let mut rbn = Vec::new();
    for to in ["rbn", "rbx"] {
        let path = exported.path().join(format!("real.{to}"));
        let mut w = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        deckhand::registry::export_to(&real_files(), &common::quiet(2), to, &mut w).unwrap();
        drop(w);
        rbn.push(path);
    }
    for (inputs, settings) in [(fixtures(), fine), (real_files(), coarse), (rbn, coarse)] {
        let base = tempfile::tempdir().unwrap();
        common::convert(&inputs, base.path(), &common::quiet(1));
        let want = common::table_files(base.path(), &BRIDGE);
        assert!(want.len() >= 8);
        for &(threads, chunk, group, window_array_bytes) in settings {
            let dir = tempfile::tempdir().unwrap();
            let opts = Options {
                chunk_bytes: chunk,
                group_bytes: group,
                window_array_bytes,
                ..common::quiet(threads)
            };
            common::convert(&inputs, dir.path(), &opts);
            common::assert_same_files(
                &want,
                &common::table_files(dir.path(), &BRIDGE),
                &format!(
                    "threads={threads} chunk={chunk} group={group} window_array_bytes={window_array_bytes}"
                ),
            );
        }
    }
}
