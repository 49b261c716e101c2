//! Every hand-written PHH file under testdata/poker (valid/ and invalid/)
//! converts into exactly the rows and diagnostics of its golden file, with
//! deckhand's page builders and with the Arrow writer alone; threads, chunk
//! and group sizes change no byte of the dataset, for those files and for
//! the bundled real ones. `DECKHAND_BLESS=1` rewrites the golden files.

use crate::common;

use std::path::PathBuf;

use deckhand::pipeline::Options;
use deckhand::sink::writer::Writer;

/// The tables of a poker dataset, by their paths in it.
const POKER: [&str; 4] = ["poker/hands", "poker/players", "poker/actions", "errors"];

/// The hand-written files.
fn fixtures() -> Vec<PathBuf> {
    let v = common::files_with("testdata/poker", &["phh", "phhs"]);
    assert!(v.len() >= 8, "fixtures missing");
    v
}

/// Every bundled real PHH file (testdata/real/poker), in name order.
fn real_files() -> Vec<PathBuf> {
    let v = common::files_with("testdata/real/poker", &["phh"]);
    assert!(v.len() >= 113, "testdata/real/poker missing");
    v
}

#[test]
fn poker_tables_are_the_declared_ones() {
    let declared: Vec<String> = deckhand::games::poker::tables::POKER_TABLES
        .iter()
        .map(|t| t.path())
        .collect();
    assert_eq!(declared, POKER);
}

#[test]
fn poker_fixtures_match_golden_files() {
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
            "summary records={} hands={} quarantined={} warnings={}",
            t.records, t.converted, t.quarantined, t.warnings
        )];
        let present: Vec<&str> = POKER
            .iter()
            .copied()
            .filter(|t| dir.path().join(t).is_dir())
            .collect();
        lines.extend(deckhand::columns::render::dataset(dir.path(), &present).unwrap());
        let got = lines.join("\n") + "\n";
        common::golden_compare(&f, &got, &format!("{writer:?} writer"), &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every real hand is a `hands` row, none quarantined, none warned about.
#[test]
fn every_bundled_hand_converts() {
    let dir = tempfile::tempdir().unwrap();
    let summary = common::convert(&real_files(), dir.path(), &common::quiet(2));
    let t = summary.total();
    // Every hand replayed to its end (no info), nothing the rules dispute
    // (03-50-24.phh raises to the whole stack of its only opponent, below a
    // full raise: legal, docs/rules/poker.md).
    assert_eq!(
        (t.records, t.converted, t.quarantined, t.warnings, t.infos),
        (113, 113, 0, 0, 0)
    );
    let hands = deckhand::columns::render::dataset(dir.path(), &["poker/hands"]).unwrap();
    assert_eq!(hands.len(), 113);
}

#[test]
fn poker_threads_and_chunk_sizes_do_not_change_a_byte() {
    let default = Options::default().window_array_bytes;
    let settings: &[(usize, usize, usize, usize)] = &[
        (2, 1 << 20, 1 << 20, default),
        (1, 1, 1, default),
        (2, 7, 200, default),
        (2, 1000, 10, default),
        (2, 1 << 20, 1, 1),
        (2, 4096, 2000, 40_000),
    ];
    // The real hands also as one .phhs file: one file, many hands.
    let joined = tempfile::tempdir().unwrap();
    let phhs = joined.path().join("all.phhs");
    let mut text = String::new();
    for (i, f) in real_files().iter().enumerate() {
        text.push_str(&format!("[{}]\n", i + 1));
        text.push_str(&std::fs::read_to_string(f).unwrap());
        text.push('\n');
    }
    std::fs::write(&phhs, text).unwrap();
    for inputs in [fixtures(), real_files(), vec![phhs]] {
        let base = tempfile::tempdir().unwrap();
        common::convert(&inputs, base.path(), &common::quiet(1));
        let want = common::table_files(base.path(), &POKER);
        assert!(want.len() >= 4);
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
                &common::table_files(dir.path(), &POKER),
                &format!(
                    "threads={threads} chunk={chunk} group={group} window_array_bytes={window_array_bytes}"
                ),
            );
        }
    }
}

/// The hand-written TOML reader reads every bundled real hand (none left to
/// the crate) into exactly the document the `toml` crate reads, and agrees
/// with the crate on every hand of the fixtures it reads.
#[test]
fn the_fast_toml_reader_reads_as_the_crate() {
    use deckhand::notation::phh::doc;
    let same = |text: &str, what: &str| -> bool {
        let Some(fast) = doc::read(text) else {
            return false;
        };
        let krate = toml::de::DeTable::parse(text).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(fast.fields, doc::from_crate(&krate).fields, "{what}");
        true
    };
    for f in real_files() {
        let text = std::fs::read_to_string(&f).unwrap();
        assert!(same(&text, &f.display().to_string()), "{}", f.display());
    }
    let mut fast = 0;
    for f in fixtures() {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let mut starts: Vec<usize> = text.match_indices("\n[").map(|(i, _)| i + 1).collect();
        starts.insert(0, 0);
        starts.push(text.len());
        for w in starts.windows(2) {
            fast += same(&text[w[0]..w[1]], &f.display().to_string()) as usize;
        }
    }
    assert!(fast >= 20, "{fast}");
}

#[test]
fn no_rules_converts_the_same_rows_without_computed_values() {
    let files = common::files_with("testdata/poker/valid", &["phh", "phhs"]);
    let tables = ["poker/hands", "poker/players", "poker/actions"];
    let run = |extra: &[&str]| {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("d");
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_deckhand"))
            .args(["convert", "-q", "-o"])
            .arg(&out)
            .args(&files)
            .args(extra)
            .status()
            .unwrap();
        assert!(status.success());
        deckhand::columns::render::dataset(&out, &tables).unwrap()
    };
    let (with, without) = (run(&[]), run(&["--no-rules"]));
    assert_eq!(with.len(), without.len());
    assert!(with.iter().any(|r| r.contains("computed_pot=")));
    assert!(without.iter().all(|r| !r.contains("computed_")));
}
