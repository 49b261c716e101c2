//! A conversion killed midway leaves no file with a final name (only
//! temporary `.tmp` files, which no reader picks up), and a rerun succeeds.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// A generated archive of `hands` hands in `dir`.
fn generated(dir: &Path, name: &str, hands: u64, seed: u64) -> PathBuf {
    let input = dir.join(name);
    let mut f = std::fs::File::create(&input).unwrap();
    let opts = deckhand::notation::pinochle_ppn::generate::GenOptions {
        hands,
        seed,
        ..Default::default()
    };
    deckhand::notation::pinochle_ppn::generate::generate(&opts, &mut f).unwrap();
    input
}

/// `convert` on one thread in small pieces (a run long enough to interrupt).
fn slow_convert(input: &Path, out: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_deckhand"));
    c.args(["convert", "-q", "-j", "1", "--chunk-size", "4096"])
        .args(["--group-size", "4096", "-o"])
        .arg(out)
        .arg(input);
    c
}

#[test]
fn killed_conversion_leaves_no_broken_final_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = generated(dir.path(), "big.ppn", 12_000, 8);
    let out = dir.path().join("out");
    let bin = env!("CARGO_BIN_EXE_deckhand");
    let mut child = slow_convert(&input, &out).spawn().unwrap();
    // Wait until the output files are being written, then kill hard.
    let tmp = out.join("pinochle/hands").join(".part-00000.parquet.tmp");
    let started = Instant::now();
    let mut finished_before_kill = false;
    while !tmp.exists() && started.elapsed() < Duration::from_secs(60) {
        if child.try_wait().unwrap().is_some() {
            // Finished before we looked: its files are complete, nothing to test.
            finished_before_kill = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    if !finished_before_kill {
        assert!(tmp.exists(), "conversion never started writing");
        std::thread::sleep(Duration::from_millis(50));
        finished_before_kill = child.try_wait().unwrap().is_some();
    }
    let _ = child.kill();
    child.wait().unwrap();
    if !finished_before_kill {
        for table in common::TABLES {
            assert!(
                !out.join(table).join("part-00000.parquet").exists(),
                "{table}: a final file exists after a kill"
            );
        }
    }
    // Readers of the dataset see no file at all, never a broken one; a rerun works.
    let status = Command::new(bin)
        .args(["convert", "-q", "--force", "-o"])
        .arg(&out)
        .arg(&input)
        .status()
        .unwrap();
    assert!(status.success());
    let hands = deckhand::columns::render::dataset(&out, &["pinochle/hands"]).unwrap();
    assert_eq!(hands.len(), 12_000);
    assert!(!tmp.exists());
}

/// An input cut short by another program while it is mapped and being read
/// stops the run with status 2 and a message naming it (the kernel's SIGBUS
/// killed deckhand with "Bus error" before). When the run ends before the
/// file is cut, there is nothing to check.
#[cfg(target_os = "linux")]
#[test]
fn an_input_cut_short_while_read_is_named_and_fatal() {
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let input = generated(dir.path(), "shrinking.ppn", 4_000, 9);
    let out = dir.path().join("out");
    let child = slow_convert(&input, &out)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Cut once the input is mapped (the child's maps name it).
    let maps = format!("/proc/{}/maps", child.id());
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(60) {
        match std::fs::read_to_string(&maps) {
            Ok(m) if m.contains("shrinking.ppn") => break,
            Ok(_) => std::thread::sleep(Duration::from_micros(200)),
            Err(_) => break,
        }
    }
    std::fs::OpenOptions::new()
        .write(true)
        .open(&input)
        .unwrap()
        .set_len(0)
        .unwrap();
    let done = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    if done.status.success() {
        eprintln!("the conversion ended before its input was cut: nothing to check");
        return;
    }
    assert_eq!(done.status.code(), Some(2), "{:?} {stderr}", done.status);
    assert!(
        stderr.contains("shrinking.ppn was cut short by another program"),
        "{stderr}"
    );
    assert!(
        !out.join("pinochle/hands")
            .join("part-00000.parquet")
            .exists()
    );
}

/// Ctrl-C (SIGINT) or SIGTERM during a conversion: the run's temporary
/// files are removed and deckhand exits 130 or 143; the next run needs no
/// `--force`.
#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_conversion_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = generated(dir.path(), "big.ppn", 12_000, 8);
    for (signal, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let out = dir.path().join(format!("out{signal}"));
        let mut child = slow_convert(&input, &out).spawn().unwrap();
        let tmp = out.join("pinochle/hands").join(".part-00000.parquet.tmp");
        let started = Instant::now();
        while !tmp.exists() && started.elapsed() < Duration::from_secs(60) {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        if child.try_wait().unwrap().is_some() {
            eprintln!("the conversion ended before it could be interrupted: nothing to check");
            continue;
        }
        // SAFETY: sends a signal to the child process.
        unsafe { libc::kill(child.id() as i32, signal) };
        let status = child.wait().unwrap();
        if status.success() {
            continue; // it finished first
        }
        assert_eq!(status.code(), Some(code), "{status:?}");
        let mut left = Vec::new();
        for table in common::TABLES {
            for e in std::fs::read_dir(out.join(table)).into_iter().flatten() {
                let name = e.unwrap().file_name().to_string_lossy().into_owned();
                if name.ends_with(".tmp") {
                    left.push(format!("{table}/{name}"));
                }
            }
        }
        assert!(left.is_empty(), "{left:?}");
        // The next run goes ahead without --force.
        let status = Command::new(env!("CARGO_BIN_EXE_deckhand"))
            .args(["convert", "-q", "-o"])
            .arg(&out)
            .arg(&input)
            .status()
            .unwrap();
        assert!(status.success());
    }
}

/// A temporary part file a killed run left (`kill -9`: no cleanup) is
/// removed by the next run without `--force`; `--force` replaces
/// deckhand's part files and keeps a user's file in a table's folder.
#[test]
fn stale_temporary_files_go_and_force_keeps_a_users_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let stale = out.join("pinochle/hands/.part-00000.parquet.tmp");
    std::fs::create_dir_all(stale.parent().unwrap()).unwrap();
    std::fs::write(&stale, b"half a file").unwrap();
    let bin = env!("CARGO_BIN_EXE_deckhand");
    let run = |force: bool| {
        let mut c = Command::new(bin);
        c.args(["convert", "-q", "testdata/pinochle/sample.ppn", "-o"])
            .arg(&out);
        if force {
            c.arg("--force");
        }
        c.status().unwrap()
    };
    assert!(run(false).success());
    assert!(!stale.exists());
    assert!(out.join("pinochle/hands/part-00000.parquet").is_file());
    // Now the directory holds a dataset: a run without --force refuses it.
    assert_eq!(run(false).code(), Some(2));
    let mine = out.join("pinochle/hands/README.txt");
    std::fs::write(&mine, b"my notes").unwrap();
    assert!(run(true).success());
    assert_eq!(std::fs::read(&mine).unwrap(), b"my notes");
    assert!(out.join("pinochle/hands/part-00000.parquet").is_file());
}
