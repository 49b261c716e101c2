//! The `deckhand` binary: exit codes, messages, output layout.

use crate::common;

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
            "  records 8: 8 converted, 0 quarantined; 0 warnings, 0 infos (PPN 8 in 1 file)",
        ))
        .stderr(predicate::str::contains(
            "pinochle/hands 8, pinochle/seats 32, pinochle/bids 61, pinochle/tricks 140, pinochle/notes 8, errors 0",
        ))
        .stderr(predicate::str::contains("by code").not());
    for t in common::TABLES {
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
    assert!(
        dir.path()
            .join("pinochle/hands/part-00000.parquet")
            .exists()
    );
}

#[test]
fn an_output_that_is_a_file_is_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.parquet");
    std::fs::write(&file, "x").unwrap();
    for force in [false, true] {
        let mut cmd = deckhand();
        cmd.args(["convert", "testdata/pinochle/sample.ppn", "-q", "-o"])
            .arg(&file);
        if force {
            cmd.arg("--force");
        }
        cmd.assert().code(2).stderr(predicate::str::contains(
            "out.parquet exists and is not a directory (convert writes a dataset directory",
        ));
    }
    assert_eq!(std::fs::read(&file).unwrap(), b"x");
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
    let a = deckhand::columns::render::dataset(
        &from_file,
        &["pinochle/bids", "pinochle/tricks", "pinochle/seats"],
    )
    .unwrap();
    let b = deckhand::columns::render::dataset(
        &from_stdin,
        &["pinochle/bids", "pinochle/tricks", "pinochle/seats"],
    )
    .unwrap();
    assert_eq!(a, b);
    assert_eq!(a.len(), 61 + 140 + 32);

    let from_dir = dir.path().join("d");
    deckhand()
        .args(["convert", "testdata/pinochle", "-q", "-o"])
        .arg(&from_dir)
        .assert()
        .code(1);
    let hands = deckhand::columns::render::dataset(&from_dir, &["pinochle/hands"]).unwrap();
    assert_eq!(
        hands.len(),
        9 + 3 + 2 + 15 + 7 + 3 + 5 + 1 + 2 + 2 + 3 + 5 + 6 + 8 + 3 + 3
    );
}

/// `-` is standard input even where a file named `-` exists, also when it
/// comes with other small inputs read in parallel (which read the file).
#[test]
fn a_dash_is_standard_input_beside_a_file_named_dash() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("-"), b"[Event \"file named dash\"]\n").unwrap();
    std::fs::write(dir.path().join("b.ppn"), b"[Event \"second\"]\n").unwrap();
    for threads in ["1", "2"] {
        deckhand()
            .current_dir(dir.path())
            .args([
                "convert", "-", "b.ppn", "-q", "--force", "-o", "out", "-j", threads,
            ])
            .write_stdin(&b"[Event \"from stdin\"]\n"[..])
            .assert()
            .success();
        assert_eq!(
            events(&dir.path().join("out")),
            ["from stdin", "second"],
            "{threads}"
        );
    }
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
        .stderr(predicate::str::contains("cannot read does-not-exist.ppn"))
        // The cause once, though the error both names it and holds it.
        .stderr(predicate::function(|e: &str| {
            e.lines().count() == 1 && e.matches("(os error 2)").count() == 1
        }));
    for args in [
        &["convert", "-j", "0", "x.ppn", "-o", "o"][..],
        &["bench", "x.ppn", "-j", "1,0"],
        &["bench", "x.ppn", "--runs", "0"],
    ] {
        deckhand()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "expected a whole number from 1 up, found \"0\"",
            ));
    }
    for (option, value) in [
        ("--terminated", "1.5"),
        ("--comments", "NaN"),
        ("--chat", "-0.1"),
    ] {
        deckhand()
            .args(["generate", "--hands", "3", "-o", "-", option, value])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(format!(
                "invalid value '{value}' for '{option} <"
            )))
            .stderr(predicate::str::contains(format!(
                "expected a fraction from 0 to 1, found \"{value}\""
            )));
    }
}

/// A reader that stops reading (`deckhand check FILE | head`) ends the run
/// quietly with status 0: no panic, no error message.
#[test]
fn a_closed_standard_output_ends_the_run_quietly() {
    let bin = assert_cmd::cargo::cargo_bin("deckhand");
    for args in [
        &["check", "testdata/pinochle/invalid.ppn"][..],
        &["bench", "testdata/pinochle/sample.ppn", "--runs", "1"],
        &["export", "testdata/pinochle/sample.ppn", "-o", "-"],
    ] {
        let mut child = std::process::Command::new(&bin)
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Closed before the first line is written.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!stderr.contains("error"), "{args:?}: {stderr}");
    }
}

#[test]
fn check_prints_diagnostics_like_a_compiler() {
    deckhand()
        .args(["check", "testdata/pinochle/spec_example.ppn", "testdata/pinochle/invalid.ppn"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "testdata/pinochle/spec_example.ppn:20:9: warning[P055]: N's meld is 6 by the cards, annotated 94\n",
        ))
        .stdout(predicate::str::contains(
            "testdata/pinochle/invalid.ppn:6:8: error[P001]: unterminated string in tag Event",
        ))
        .stdout(predicate::str::contains(
            "2 file(s), 11 records: 6 converted, 5 errors (records quarantined), 66 warnings, 5 infos\n",
        ));
    // Warnings alone pass, unless denied.
    deckhand()
        .args(["check", "-q", "testdata/pinochle/spec_example.ppn"])
        .assert()
        .success()
        .stdout(
            "1 file(s), 3 records: 3 converted, 0 errors (records quarantined), 66 warnings, 2 infos\n",
        );
    deckhand()
        .args([
            "check",
            "-q",
            "--deny-warnings",
            "testdata/pinochle/spec_example.ppn",
        ])
        .assert()
        .code(1);
    deckhand()
        .args([
            "check",
            "-q",
            "--deny-warnings",
            "testdata/pinochle/sample.ppn",
        ])
        .assert()
        .success();
}

#[test]
fn generate_is_deterministic_and_checks_clean() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.ppn"), dir.path().join("b.ppn"));
    for p in [&a, &b] {
        deckhand()
            .args([
                "generate",
                "--hands",
                "500",
                "--seed",
                "42",
                "--comments",
                "0.2",
                "--chat",
                "0.2",
                "-o",
            ])
            .arg(p)
            .assert()
            .success()
            .stderr(predicate::str::contains("generated 500 hands"));
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    deckhand()
        .args(["check", "--deny-warnings", "--info"])
        .arg(&a)
        .assert()
        .success()
        .stdout("1 file(s), 500 records: 500 converted, 0 errors (records quarantined), 0 warnings, 0 infos\n");
}

#[test]
fn export_writes_a_file_and_copies_bad_records() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.ppn");
    deckhand()
        .args(["export", "testdata/pinochle/invalid.ppn", "-o"])
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "exported 3 hands from 1 file(s); 5 records could not be converted and were copied unchanged",
        ));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.starts_with("% PPN 1.0\n% EXPORT\n%\n[Site \"?\"]"),
        "{text}"
    );
    assert!(text.contains("this line is not a tag\n[Event \"x\"]\n"));
    assert!(!dir.path().join("x.ppn.tmp").exists());
}

#[test]
fn a_rules_profile_changes_the_computed_values() {
    let dir = tempfile::tempdir().unwrap();
    let profile = dir.path().join("house.toml");
    // Runs worth 25: every hand with a run now disagrees with its annotations.
    std::fs::write(
        &profile,
        "name = \"House\"\n[melds]\nrun = [25, 150, 225, 300]\n",
    )
    .unwrap();
    let out = deckhand()
        .args(["check", "-q", "--rules"])
        .arg(&profile)
        .arg("testdata/pinochle/sample.ppn")
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(!stdout.contains(" 0 warnings"), "{stdout}");
    deckhand()
        .args([
            "check",
            "--rules",
            "/no/such/file.toml",
            "testdata/pinochle/sample.ppn",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot read rules profile /no/such/file.toml",
        ));
    for (text, error) in [
        ("min_bids = 3\n", "unknown field `min_bids`"),
        (
            "counter_points = 2000000000\n",
            "counter_points has 2000000000: numbers in a rules profile must lie between -1000000 and 1000000",
        ),
    ] {
        std::fs::write(&profile, text).unwrap();
        deckhand()
            .args(["check", "--rules"])
            .arg(&profile)
            .arg("testdata/pinochle/sample.ppn")
            .assert()
            .code(2)
            .stderr(predicate::str::contains(error));
    }
}

/// `deckhand convert -q -o OUT INPUT`.
fn convert_quiet(input: &std::path::Path, out: &std::path::Path) -> assert_cmd::assert::Assert {
    deckhand()
        .args(["convert", "-q", "-o"])
        .arg(out)
        .arg(input)
        .assert()
}

/// The `event` of every row of a dataset's hands table, unquoted.
fn events(out: &std::path::Path) -> Vec<String> {
    deckhand::columns::render::dataset(out, &["pinochle/hands"])
        .unwrap()
        .iter()
        .filter_map(|l| l.split("event=").nth(1))
        .map(|e| match e.strip_prefix('"') {
            Some(quoted) => quoted.split('"').next().unwrap().to_string(),
            None => e.split(' ').next().unwrap().to_string(),
        })
        .collect()
}

#[test]
fn directories_are_searched_by_name_and_by_content() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let inp = dir.path().join("in");
    std::fs::create_dir_all(inp.join("sub")).unwrap();
    // Named PPN; PPN by content (a header); gzip'd PPN by content (Deal and
    // Melds tags, no header); and files that are not PPN.
    std::fs::write(inp.join("a.ppn"), b"[Event \"named\"]\n").unwrap();
    std::fs::write(inp.join("b.txt"), b"% PPN 1.0\n[Event \"header\"]\n").unwrap();
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(b"[Event \"zipped\"]\n[Deal \"N:\"]\n[Melds \"\"]\n")
        .unwrap();
    std::fs::write(inp.join("sub/c.dat"), z.finish().unwrap()).unwrap();
    std::fs::write(inp.join("d.bin"), [0u8, 159, 146, 150, 255, 0, 7]).unwrap();
    std::fs::write(inp.join("e.md"), b"# Notes\n[Event] is a tag.\n").unwrap();
    let out = dir.path().join("out");
    convert_quiet(&inp, &out).success();
    assert_eq!(events(&out), ["named", "header", "zipped"]);
}

/// Symbolic links in a searched directory are followed: to a directory (searched
/// in turn, once however many links lead to it: a link to itself, a loop,
/// gave each file below it 41 times), to a file of another name that holds PPN; a link to a
/// non-PPN file is left out, and so is a FIFO; a broken one named `.ppn` is an
/// input that cannot be read.
#[cfg(unix)]
#[test]
fn directories_follow_symbolic_links() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let (inp, other) = (dir.path().join("in"), dir.path().join("other"));
    std::fs::create_dir_all(&inp).unwrap();
    std::fs::create_dir_all(other.join("deep")).unwrap();
    std::fs::write(inp.join("a.ppn"), b"[Event \"plain\"]\n").unwrap();
    std::fs::write(other.join("deep/b.ppn"), b"[Event \"via dir\"]\n").unwrap();
    std::fs::write(other.join("c.txt"), b"% PPN 1.0\n[Event \"via file\"]\n").unwrap();
    std::fs::write(other.join("d.txt"), b"not a hand\n").unwrap();
    symlink(other.join("deep"), inp.join("b_dir")).unwrap();
    symlink(other.join("c.txt"), inp.join("c_link")).unwrap();
    symlink(other.join("d.txt"), inp.join("d_link")).unwrap();
    symlink(other.join("deep"), inp.join("b_dir_again")).unwrap();
    symlink(other.join("deep"), other.join("deep/again")).unwrap();
    let out = dir.path().join("out");
    convert_quiet(&inp, &out).success();
    assert_eq!(events(&out), ["plain", "via dir", "via file"]);
    // A FIFO named like an archive is no input (reading it waited forever).
    common::mkfifo(&inp.join("f.ppn"));
    deckhand()
        .args(["convert", "-q", "--force", "-o"])
        .arg(&out)
        .arg(&inp)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success();
    assert_eq!(events(&out), ["plain", "via dir", "via file"]);
    symlink(dir.path().join("nowhere"), inp.join("e.ppn")).unwrap();
    deckhand()
        .args(["convert", "-q", "--force", "-o"])
        .arg(&out)
        .arg(&inp)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("e.ppn"));
}

/// `bench` counts the column values a parse built: as many as the files a
/// convert writes hold (read back by the parquet crate), each leaf counted once.
#[test]
fn bench_reports_the_values_a_convert_writes() {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let out = deckhand()
        .args([
            "bench",
            "testdata/pinochle/sample.ppn",
            "--runs",
            "1",
            "-j",
            "2",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("columns built by a parse: "))
        .unwrap_or_else(|| panic!("no columns line in {stdout}"));
    let values: u64 = line.split(' ').next().unwrap().parse().unwrap();

    let dir = tempfile::tempdir().unwrap();
    deckhand()
        .args(["convert", "testdata/pinochle/sample.ppn", "-q", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    let mut size = deckhand::columns::size::Size::default();
    for t in common::TABLES {
        let file = std::fs::File::open(dir.path().join(t).join("part-00000.parquet")).unwrap();
        for batch in ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .build()
            .unwrap()
        {
            size.add(&batch.unwrap()).unwrap();
        }
    }
    assert!(size.values > 8 * 100, "{size:?}");
    assert_eq!(values, size.values, "{line}");
}

/// An export written into a directory it reads does not read its own last
/// output again (3 hands, then 6); named on the command line, the
/// file is read (an export onto itself replaces it).
#[test]
fn export_into_its_input_directory_does_not_read_itself() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.ppn"), b"[Event \"one\"]\n").unwrap();
    std::fs::write(dir.path().join("b.ppn"), b"[Event \"two\"]\n").unwrap();
    let out = dir.path().join("all.ppn");
    let export = || {
        deckhand()
            .arg("export")
            .arg(dir.path())
            .arg("-o")
            .arg(&out)
            .assert()
            .success()
    };
    export();
    let first = std::fs::read_to_string(&out).unwrap();
    assert_eq!(first.matches("[Event ").count(), 2, "{first}");
    export().stderr(predicate::str::contains(
        "all.ppn is this export's output: not read as an input",
    ));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), first);
    // Named, it is an input: exported onto itself, its hands stay.
    deckhand()
        .arg("export")
        .arg(&out)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let again = std::fs::read_to_string(&out).unwrap();
    assert_eq!(again.matches("[Event ").count(), 2, "{again}");
}

/// Files joined into one (`cat a.ppn b.ppn`): each header says all there is
/// about the hands after it; what a later header leaves out (an ID, the
/// format) is unknown, not the earlier file's (its hands were given the
/// first file's ID). Header lines of one header count in any order.
#[test]
fn a_header_after_hands_starts_anew() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("joined.ppn");
    std::fs::write(
        &input,
        "% PPN 1.0\n% EXPORT\n% ID alpha\n%\n[Event \"one\"]\n\n[Event \"one more\"]\n\n\
         % ID beta\n% PPN 1.0\n% IMPORT\n%\n[Event \"two\"]\n\n% PPN 1.0\n%\n[Event \"three\"]\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    convert_quiet(&input, &out).success();
    let heads: Vec<String> = deckhand::columns::render::dataset(&out, &["pinochle/hands"])
        .unwrap()
        .iter()
        .map(|l| {
            // (A null is left out of the line.)
            let field = |name: &str| {
                l.split(&format!(" {name}="))
                    .nth(1)
                    .map_or("null", |v| v.split(' ').next().unwrap())
                    .to_string()
            };
            format!(
                "{} {} {}",
                field("format"),
                field("file_id"),
                field("event")
            )
        })
        .collect();
    assert_eq!(
        heads,
        [
            "\"EXPORT\" \"alpha\" \"one\"",
            "\"EXPORT\" \"alpha\" \"one",
            "\"IMPORT\" \"beta\" \"two\"",
            "null null \"three\"",
        ]
    );
}

/// An export to what is not a regular file (`-o /dev/null`, a FIFO) writes
/// into it: a temporary file renamed onto the path replaced `/dev/null`
/// itself with a regular file.
#[cfg(unix)]
#[test]
fn export_into_a_fifo_writes_into_it() {
    use std::io::Read;
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("out.fifo");
    common::mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut text = String::new();
            std::fs::File::open(&fifo)
                .unwrap()
                .read_to_string(&mut text)
                .unwrap();
            text
        })
    };
    deckhand()
        .args(["export", "testdata/pinochle/sample.ppn", "-q", "-o"])
        .arg(&fifo)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success();
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    // (Replaced, the FIFO never got a writer: the reader is left waiting.)
    assert!(kind.is_fifo(), "the FIFO was replaced: {kind:?}");
    let text = reader.join().unwrap();
    assert!(text.starts_with("% PPN 1.0\n% EXPORT\n"), "{text}");
    assert_eq!(text.matches("[Site ").count(), 8, "{text}");
}

/// A run with quarantined records and warnings says where: the counts by
/// code, the first diagnostics as `file:line:col`, quarantined first, and
/// the command that lists them all.
#[test]
fn the_summary_names_what_went_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let a = deckhand()
        .args([
            "convert",
            "testdata/pinochle/invalid.ppn",
            "testdata/preferans/deals.ppn",
            "-o",
        ])
        .arg(&out)
        .assert()
        .code(1);
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines[0].starts_with("deckhand: 2 inputs (0.0"), "{err}");
    assert!(lines[1].starts_with("  records "), "{err}");
    assert!(
        lines[1].contains("(PPN 8 in 1 file; PPN-preferans 2 in 1 file)"),
        "{err}"
    );
    assert!(err.contains("  by code: P0"), "{err}");
    let first: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("  testdata/"))
        .collect();
    assert!(
        first[0].starts_with("  testdata/pinochle/invalid.ppn:"),
        "{err}"
    );
    assert!(first[0].contains(": error[P"), "{err}");
    assert!(first.len() <= 5);
    assert!(err.ends_with(&format!(
        "  every diagnostic: deckhand check testdata/pinochle/invalid.ppn testdata/preferans/deals.ppn (or the table {}/errors)\n",
        out.display()
    )), "{err}");
}

/// Every input and the summary's path are checked before any work: nothing
/// is written when one is wrong, and the message names the path given.
#[test]
fn a_missing_input_or_summary_path_fails_before_any_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    deckhand()
        .args([
            "convert",
            "testdata/pinochle/sample.ppn",
            "/nope/missing.ppn",
            "-o",
        ])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot read /nope/missing.ppn: No such file",
        ));
    assert!(!out.exists());
    deckhand()
        .args([
            "convert",
            "testdata/pinochle/sample.ppn",
            "--summary-json",
            "/nope/s.json",
            "-o",
        ])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot write the summary to /nope/s.json",
        ));
    assert!(!out.exists());
    // `-`: standard output; the same input twice is converted once.
    let a = deckhand()
        .args([
            "convert",
            "testdata/pinochle/sample.ppn",
            "testdata/pinochle/sample.ppn",
        ])
        .args(["--summary-json", "-", "-o"])
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "note: testdata/pinochle/sample.ppn is given more than once: converted once",
        ));
    let json: serde_json::Value = serde_json::from_slice(&a.get_output().stdout).unwrap();
    assert_eq!(json["converted"], 8);
    assert!(!std::path::Path::new("-").exists());
}

/// `--append`: a second run with the same input adds nothing; a new input
/// adds its own part files, keys continuing, earlier files untouched byte
/// for byte; changed content is an error unless `--force`.
#[test]
fn append_adds_only_new_inputs_with_keys_continuing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let a = dir.path().join("a.ppn");
    let b = dir.path().join("b.ppn");
    std::fs::copy("testdata/pinochle/sample.ppn", &a).unwrap();
    std::fs::copy("testdata/pinochle/sample.ppn", &b).unwrap();
    let run = |inputs: &[&std::path::Path], extra: &[&str]| {
        let mut c = deckhand();
        c.arg("convert")
            .args(inputs)
            .args(["-q", "--append", "-o"])
            .arg(&out)
            .args(extra);
        c.assert()
    };
    run(&[&a], &[]).success();
    let hands = out.join("pinochle/hands");
    let first = std::fs::read(hands.join("part-00000.parquet")).unwrap();
    // Again: nothing new.
    let again = deckhand()
        .args(["convert", "--append", "-o"])
        .arg(&out)
        .arg(&a)
        .assert()
        .success();
    let err = String::from_utf8(again.get_output().stderr.clone()).unwrap();
    assert!(
        err.contains("is in the dataset already (same content): skipped"),
        "{err}"
    );
    assert!(err.contains("nothing new"), "{err}");
    assert!(!hands.join("part-00001.parquet").exists());
    // With a new file: only its part files, keys from file index 1.
    run(&[&a, &b], &[]).success();
    assert_eq!(
        std::fs::read(hands.join("part-00000.parquet")).unwrap(),
        first
    );
    let second = common::read_parquet(&hands.join("part-00001.parquet"));
    let c = second.column_by_name("hand_id").unwrap();
    let ids = arrow_array::cast::AsArray::as_primitive::<arrow_array::types::Int64Type>(c).values();
    assert!(!ids.is_empty());
    assert!(ids.iter().all(|&id| id >> 40 == 1), "{ids:?}");
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("_deckhand.json")).unwrap()).unwrap();
    assert_eq!(m["inputs"].as_array().unwrap().len(), 2);
    assert_eq!(m["inputs"][1]["file_index"], 1);
    assert_eq!(m["inputs"][1]["part"], 1);
    // Changed content: an error, unless --force.
    let mut changed = std::fs::read("testdata/pinochle/sample.ppn").unwrap();
    changed.extend_from_slice(b"\n\n");
    std::fs::write(&a, changed).unwrap();
    run(&[&a], &[])
        .code(2)
        .stderr(predicate::str::contains("changed since it was added"));
    run(&[&a], &["--force"]).success();
    assert!(hands.join("part-00002.parquet").is_file());
    // A directory that is no dataset of deckhand's is refused.
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("x.txt"), b"x").unwrap();
    deckhand()
        .args(["convert", "--append", "-q", "-o"])
        .arg(&other)
        .arg(&b)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("holds no _deckhand.json"));
}

/// `--tables`: only the tables asked for are written; an unknown name is
/// an error listing the tables.
#[test]
fn tables_writes_only_the_tables_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    deckhand()
        .args([
            "convert",
            "testdata/pinochle/sample.ppn",
            "testdata/preferans/deals.ppn",
        ])
        .args(["-q", "--tables", "hands,preferans/games", "-o"])
        .arg(&out)
        .assert()
        .success();
    let mut got: Vec<String> = Vec::new();
    for g in ["pinochle", "preferans", "errors"] {
        for e in std::fs::read_dir(out.join(g)).into_iter().flatten() {
            got.push(format!("{g}/{}", e.unwrap().file_name().to_string_lossy()));
        }
    }
    got.sort();
    assert_eq!(got, ["pinochle/hands", "preferans/games"]);
    deckhand()
        .args([
            "convert",
            "testdata/pinochle/sample.ppn",
            "--tables",
            "boats",
            "-o",
        ])
        .arg(dir.path().join("o2"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "unknown table 'boats': the tables are pinochle/hands,",
        ));
}

/// `--source-name`: standard input's records carry the name given.
#[test]
fn source_name_names_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    deckhand()
        .args([
            "convert",
            "-",
            "--source-name",
            "club/2026-11.ppn",
            "-q",
            "-o",
        ])
        .arg(&out)
        .write_stdin(std::fs::read("testdata/pinochle/sample.ppn").unwrap())
        .assert()
        .success();
    let rows = deckhand::columns::render::dataset(&out, &["pinochle/hands"]).unwrap();
    assert_eq!(rows.len(), 8);
    assert!(
        rows.iter()
            .all(|r| r.contains("source_file=\"club/2026-11.ppn\"")),
        "{rows:?}"
    );
    deckhand()
        .args([
            "convert",
            "testdata/pinochle/sample.ppn",
            "--source-name",
            "x",
            "-o",
        ])
        .arg(dir.path().join("o2"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--source-name names standard input or a pipe, the one input read once: 0 such inputs given",
        ));
    // A pipe is named like standard input; two inputs read once are one
    // too many to name.
    #[cfg(unix)]
    {
        let fifo = dir.path().join("f.fifo");
        common::mkfifo(&fifo);
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                std::fs::write(fifo, std::fs::read("testdata/pinochle/sample.ppn").unwrap())
            })
        };
        let o3 = dir.path().join("o3");
        deckhand()
            .arg("convert")
            .arg(&fifo)
            .args(["--source-name", "club/2026-12.ppn", "-q", "-o"])
            .arg(&o3)
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .success();
        writer.join().unwrap().unwrap();
        let rows = deckhand::columns::render::dataset(&o3, &["pinochle/hands"]).unwrap();
        assert_eq!(rows.len(), 8);
        assert!(
            rows.iter()
                .all(|r| r.contains("source_file=\"club/2026-12.ppn\"")),
            "{rows:?}"
        );
        let manifest = std::fs::read_to_string(o3.join("_deckhand.json")).unwrap();
        assert!(
            manifest.contains("\"path\": \"club/2026-12.ppn\""),
            "{manifest}"
        );
        deckhand()
            .arg("convert")
            .arg(&fifo)
            .args(["-", "--source-name", "x", "-o"])
            .arg(dir.path().join("o4"))
            .assert()
            .code(2)
            .stderr(predicate::str::contains("2 such inputs given"));
    }
}

/// A file cut off inside its last hand's play is a warning at the hand's
/// last line (P036 for pinochle, B036 for PBN), not only an info; the same
/// hands whole, with or without the final line end, are clean.
#[test]
fn a_file_cut_off_inside_its_last_record_is_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.ppn");
    deckhand()
        .args(["generate", "--hands", "3", "-o"])
        .arg(&whole)
        .assert()
        .success();
    let text = std::fs::read_to_string(&whole).unwrap();
    // Cut after the 14th trick of the last hand (at a line end: the
    // tricks are whole, only the play's end is missing).
    let play = text.rfind("[Play ").unwrap();
    let cut: usize = play + text[play..].match_indices('\n').nth(14).unwrap().0 + 1;
    let line = text[..cut].lines().count();
    let cut_path = dir.path().join("cut.ppn");
    std::fs::write(&cut_path, &text[..cut]).unwrap();
    let trimmed = dir.path().join("trimmed.ppn");
    std::fs::write(&trimmed, text.trim_end()).unwrap();
    deckhand()
        .args(["check", "-q", "--deny-warnings"])
        .arg(&whole)
        .arg(&trimmed)
        .assert()
        .success();
    deckhand()
        .args(["check", "--deny-warnings"])
        .arg(&cut_path)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!(
            "cut.ppn:{line}:1: warning[P036]: the file ends inside this hand's play, after 14 of its 20 tricks, with no Termination tag or '*': the file may have been cut off\n"
        )))
        .stdout(predicate::str::ends_with(
            "1 file(s), 3 records: 3 converted, 0 errors (records quarantined), 1 warnings, 1 infos\n",
        ));
    // The convert summary names it.
    let out = dir.path().join("out");
    let a = deckhand()
        .args(["convert"])
        .arg(&cut_path)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert!(err.contains("  by code: P036 1"), "{err}");
    assert!(
        err.contains(&format!("cut.ppn:{line}:1: warning[P036]: the file ends")),
        "{err}"
    );
    // PBN: the spec's game cut inside its play.
    let pbn = std::fs::read_to_string("testdata/bridge/spec_example.pbn").unwrap();
    let at = pbn.find("D4 DK H5 H7").unwrap();
    let cut_pbn = dir.path().join("cut.pbn");
    std::fs::write(&cut_pbn, &pbn[..at + 5]).unwrap();
    let line = pbn[..at].lines().count() + 1;
    deckhand()
        .args(["check"])
        .arg(&cut_pbn)
        .assert()
        .stdout(predicate::str::contains(format!(
            "cut.pbn:{line}:1: warning[B036]: the file ends inside this game's play, after 22 of its 52 cards, without '*': the file may have been cut off\n"
        )));
}

/// Shards (`--file-index-base`) converted into one directory, then their
/// manifests merged, give every table of one run over the same inputs,
/// keys included; a shard converted twice is refused unless `--force`;
/// `--append` then continues past every shard.
#[test]
fn shards_form_the_dataset_one_run_gives() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = [
        "testdata/pinochle/games.ppn",
        "testdata/bridge/sections.pbn",
        "testdata/pinochle/invalid.ppn",
        "testdata/poker/valid/variants.phhs",
        "testdata/preferans/deals.ppn",
    ];
    let whole = dir.path().join("whole");
    deckhand()
        .args(["convert", "-q", "-o"])
        .arg(&whole)
        .args(inputs)
        .assert()
        .code(1);
    let sharded = dir.path().join("sharded");
    let shard = |first: usize, n: usize, extra: &[&str]| {
        let mut c = deckhand();
        c.args(["convert", "-q", "-o"])
            .arg(&sharded)
            .args(["--file-index-base", &first.to_string()])
            .args(extra)
            .args(&inputs[first..first + n]);
        c.assert()
    };
    // Out of order, as workers finish.
    let done = predicate::in_iter([0, 1]);
    shard(3, 2, &[]).code(done.clone());
    shard(0, 2, &[]).code(done.clone());
    shard(2, 1, &[]).code(1);
    shard(2, 1, &[]).code(2).stderr(predicate::str::contains(
        "a shard with this file index was converted into",
    ));
    shard(2, 1, &["--force"]).code(1);
    assert!(sharded.join("_deckhand.shard-00002.json").is_file());
    assert!(!sharded.join("_deckhand.json").exists());
    deckhand()
        .args(["manifest", "merge"])
        .arg(&sharded)
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "holds 5 inputs (file indices 0 to 4)",
        ));
    assert!(!sharded.join("_deckhand.shard-00002.json").exists());
    for t in deckhand::registry::all_tables() {
        let path = t.path();
        if !whole.join(&path).exists() {
            assert!(!sharded.join(&path).exists(), "{path}");
            continue;
        }
        let a = common::read_table(&whole, &path);
        let b = common::read_table(&sharded, &path);
        assert_eq!(a.num_rows(), b.num_rows(), "{path}");
        for i in 0..a.num_columns() {
            assert_eq!(
                a.column(i).to_data(),
                b.column(i).to_data(),
                "{path} column {i}"
            );
        }
    }
    let manifest = |d: &std::path::Path| -> Vec<(String, u64)> {
        let m: serde_json::Value =
            serde_json::from_slice(&std::fs::read(d.join("_deckhand.json")).unwrap()).unwrap();
        m["inputs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                (
                    i["path"].as_str().unwrap().to_string(),
                    i["file_index"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(manifest(&whole), manifest(&sharded));
    // --append continues past the shards.
    deckhand()
        .args(["convert", "-q", "--append", "-o"])
        .arg(&sharded)
        .arg("testdata/preferans/spec_example.ppn")
        .assert()
        .success();
    assert!(sharded.join("preferans/deals/part-00005.parquet").is_file());
    assert_eq!(manifest(&sharded).last().unwrap().1, 5);
    // File indices past the 23 bits of a key are refused before any work.
    deckhand()
        .args(["convert", "--file-index-base", "8388607", "-o"])
        .arg(dir.path().join("past"))
        .args(&inputs[..2])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "file indices 8388607 to 8388608 do not fit a record key's file index (at most 8388607)",
        ));
    assert!(!dir.path().join("past").exists());
    // A shard and --append do not go together.
    deckhand()
        .args(["convert", "--append", "--file-index-base", "9", "-o"])
        .arg(&sharded)
        .arg("testdata/preferans/spec_example.ppn")
        .assert()
        .code(2);
}

/// An input that can be read once only (a named FIFO, a shell's
/// `<(zcat a.gz)`) is opened once and streamed: its first bytes, read to
/// route it, were missing from its records (100 bridge boards through
/// `<(cat f)` gave 68), and a FIFO opened again waited for a writer
/// forever. Its rows are those of the same bytes in a regular file but for
/// `source_file`; the manifest has no hash for it.
#[cfg(unix)]
#[test]
fn a_pipe_is_read_once_and_loses_no_record() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let text = common::generated(300, 7);
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(&text).unwrap();
    let gz = z.finish().unwrap();
    let file = dir.path().join("g.ppn");
    std::fs::write(&file, &text).unwrap();
    let want = dir.path().join("want");
    deckhand()
        .args(["convert", "-q", "-o"])
        .arg(&want)
        .arg(&file)
        .assert()
        .success();
    // Every column but `source_file` of every table with rows.
    let tables = ["pinochle/hands", "pinochle/tricks", "errors"];
    let without_name = |out: &std::path::Path, table: &str| {
        let b = common::read_table(out, table);
        let keep: Vec<usize> = (0..b.num_columns())
            .filter(|&i| b.schema().field(i).name() != "source_file")
            .collect();
        b.project(&keep).unwrap()
    };
    for (name, bytes, threads) in [("plain.fifo", &text, "1"), ("gz.fifo", &gz, "2")] {
        let fifo = dir.path().join(name);
        common::mkfifo(&fifo);
        // Opened for writing, the FIFO waits for its reader; a reader that
        // opens and closes it makes the write fail (the thread's result is
        // not asserted: the conversion's is).
        let writer = {
            let (fifo, bytes) = (fifo.clone(), bytes.clone());
            std::thread::spawn(move || std::fs::write(fifo, bytes))
        };
        let out = dir.path().join(format!("out-{name}"));
        deckhand()
            .args(["convert", "-q", "-j", threads, "-o"])
            .arg(&out)
            .arg(&fifo)
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .success();
        writer.join().unwrap().unwrap();
        assert_eq!(common::read_table(&out, "pinochle/hands").num_rows(), 300);
        for t in tables {
            assert_eq!(without_name(&out, t), without_name(&want, t), "{name}: {t}");
        }
        let manifest = std::fs::read_to_string(out.join("_deckhand.json")).unwrap();
        assert!(manifest.contains("\"xxh3\": null"), "{manifest}");
    }
    // `check` of a FIFO (a path of its own in the pipeline) likewise.
    let fifo = dir.path().join("check.fifo");
    common::mkfifo(&fifo);
    let writer = {
        let (fifo, text) = (fifo.clone(), text.clone());
        std::thread::spawn(move || std::fs::write(fifo, text))
    };
    deckhand()
        .arg("check")
        .arg(&fifo)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success()
        .stdout(predicate::str::contains("300 records: 300 converted"));
    writer.join().unwrap().unwrap();
}
