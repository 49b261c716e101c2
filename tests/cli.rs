//! The `deckhand` binary: exit codes, messages, output layout.

use assert_cmd::Command;
use predicates::prelude::*;

fn deckhand() -> Command {
    Command::cargo_bin("deckhand").unwrap()
}

#[test]
fn converts_the_sample_and_reports_counts() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    deckhand()
        .args(["convert", "testdata/pinochle/sample.ppn", "-o"])
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "deckhand: 8 converted, 0 quarantined (see errors table), 0 warnings, 0 infos, 0 comment-only blocks",
        ))
        .stderr(predicate::str::contains(
            "hands=8, seats=32, bids=61, tricks=140, notes=8, errors=0",
        ));
    for t in ["hands", "seats", "bids", "tricks", "notes", "errors"] {
        assert!(out.join(t).join("part-00000.parquet").is_file(), "{t}");
        assert!(!out.join(t).join(".part-00000.parquet.tmp").exists());
    }
}

#[test]
fn quarantined_records_exit_1_and_fail_mode_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    deckhand()
        .args(["convert", "testdata/pinochle/invalid.ppn", "-q", "-o"])
        .arg(dir.path().join("a"))
        .assert()
        .code(1)
        .stderr("");
    deckhand()
        .args(["convert", "testdata/pinochle/invalid.ppn", "--on-error", "fail", "-o"])
        .arg(dir.path().join("b"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "testdata/pinochle/invalid.ppn:6:8: error[P001]: unterminated string in tag Event: expected '\"' before the end of the line (record 1; stopping because of --on-error fail)",
        ));
    // A failed run leaves no Parquet file behind, under either name.
    let b = dir.path().join("b");
    let leftovers: Vec<_> = walk(&b);
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

fn walk(d: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut v = Vec::new();
    if let Ok(rd) = std::fs::read_dir(d) {
        for e in rd {
            let p = e.unwrap().path();
            if p.is_dir() {
                v.extend(walk(&p));
            } else {
                v.push(p);
            }
        }
    }
    v
}

#[test]
fn refuses_to_overwrite_without_force() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("keep.txt"), "x").unwrap();
    deckhand()
        .args(["convert", "testdata/pinochle/sample.ppn", "-q", "-o"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "already exists and is not empty (use --force",
        ));
    deckhand()
        .args([
            "convert",
            "testdata/pinochle/sample.ppn",
            "-q",
            "--force",
            "-o",
        ])
        .arg(dir.path())
        .assert()
        .success();
    assert!(dir.path().join("keep.txt").exists());
    assert!(dir.path().join("hands/part-00000.parquet").exists());
}

#[test]
fn stdin_and_directories_work_like_files() {
    let dir = tempfile::tempdir().unwrap();
    let from_file = dir.path().join("f");
    let from_stdin = dir.path().join("s");
    deckhand()
        .args(["convert", "testdata/pinochle/sample.ppn", "-q", "-o"])
        .arg(&from_file)
        .assert()
        .success();
    deckhand()
        .args(["convert", "-", "-q", "-o"])
        .arg(&from_stdin)
        .write_stdin(std::fs::read("testdata/pinochle/sample.ppn").unwrap())
        .assert()
        .success();
    let a = deckhand::columns::render::dataset(&from_file, &["bids", "tricks", "seats"]).unwrap();
    let b = deckhand::columns::render::dataset(&from_stdin, &["bids", "tricks", "seats"]).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.len(), 61 + 140 + 32);

    let from_dir = dir.path().join("d");
    deckhand()
        .args(["convert", "testdata/pinochle", "-q", "-o"])
        .arg(&from_dir)
        .assert()
        .code(1);
    let hands = deckhand::columns::render::dataset(&from_dir, &["hands"]).unwrap();
    assert_eq!(hands.len(), 3 + 2 + 7 + 2 + 1 + 2 + 6 + 8 + 3);
}

#[test]
fn bad_arguments_are_explained() {
    deckhand()
        .args(["convert", "x.ppn", "-o", "o", "--compression", "brotli"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid value 'brotli'"));
    deckhand()
        .args(["convert", "does-not-exist.ppn", "-q", "-o"])
        .arg(tempfile::tempdir().unwrap().path().join("o"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read does-not-exist.ppn"));
}
