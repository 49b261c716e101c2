//! The same archive from a plain file, from .gz, .zst, .bz2 and .xz, and from
//! stdin (plain and compressed) gives identical tables.

use crate::common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn render(out: &Path, source: &str) -> Vec<String> {
    let tables = common::TABLES;
    deckhand::columns::render::dataset(out, &tables)
        .unwrap()
        .into_iter()
        .map(|l| {
            l.replace(
                &format!("source_file=\"{source}\""),
                "source_file=\"SOURCE\"",
            )
        })
        .collect()
}

fn convert(input: &Path, out: &Path) {
    let status = Command::new(env!("CARGO_BIN_EXE_deckhand"))
        .args(["convert", "-q", "-o"])
        .arg(out)
        .arg(input)
        .status()
        .unwrap();
    assert!(status.code() == Some(0) || status.code() == Some(1));
}

fn convert_stdin(data: &[u8], out: &Path) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_deckhand"))
        .args(["convert", "-q", "-", "-o"])
        .arg(out)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(data).unwrap();
    assert!(child.wait().unwrap().code().unwrap() <= 1);
}

#[test]
fn compressed_plain_and_stdin_inputs_agree() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = Vec::new();
    let opts = deckhand::notation::pinochle_ppn::generate::GenOptions {
        hands: 600,
        seed: 13,
        malformed: 0.02,
        terminated: 0.05,
        style: deckhand::notation::pinochle_ppn::generate::write::Style {
            comments: 0.2,
            chat: 0.2,
            ..Default::default()
        },
        ..Default::default()
    };
    deckhand::notation::pinochle_ppn::generate::generate(&opts, &mut text).unwrap();
    let plain = dir.path().join("a.ppn");
    std::fs::write(&plain, &text).unwrap();
    let want = {
        let out = dir.path().join("o-plain");
        convert(&plain, &out);
        render(&out, &plain.display().to_string())
    };
    assert!(want.len() > 600 * 10);

    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&text).unwrap();
    let gz = gz.finish().unwrap();
    let zst = zstd::stream::encode_all(&text[..], 3).unwrap();
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    bz.write_all(&text).unwrap();
    let bz = bz.finish().unwrap();
    let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 6);
    xz.write_all(&text).unwrap();
    let xz = xz.finish().unwrap();
    for (name, data) in [
        ("a.ppn.gz", &gz),
        ("a.ppn.zst", &zst),
        ("a.ppn.bz2", &bz),
        ("a.ppn.xz", &xz),
    ] {
        let p = dir.path().join(name);
        std::fs::write(&p, data).unwrap();
        let out = dir.path().join(format!("o-{name}"));
        convert(&p, &out);
        assert_eq!(render(&out, &p.display().to_string()), want, "{name}");
    }
    for (name, data) in [("stdin", &text), ("stdin-gz", &gz)] {
        let out = dir.path().join(format!("o-{name}"));
        convert_stdin(data, &out);
        assert_eq!(render(&out, "-"), want, "{name}");
    }
    // Directories find compressed archives too.
    let out = dir.path().join("o-dir");
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(sub.join("x.ppn.zst"), &zst).unwrap();
    std::fs::write(sub.join("notes.txt"), b"not an archive").unwrap();
    convert(&sub, &out);
    assert_eq!(
        render(&out, &sub.join("x.ppn.zst").display().to_string()),
        want
    );
}

/// Found by the `convert` fuzz target: gzip magic bytes on something that is
/// not gzip made the whole run fail.
#[test]
fn damaged_compressed_input_is_reported_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("fake.ppn");
    std::fs::write(&fake, b"\x1f\x8bnot gzip at all\n[Event \"x\"]\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_deckhand"))
        .args(["convert", "-o"])
        .arg(dir.path().join("o1"))
        .arg(&fake)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "quarantined, not fatal");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "starts like gzip but cannot be decoded (invalid gzip header); read as plain bytes"
        ),
        "{stderr}"
    );

    // A truncated stream keeps the records decoded before the damage.
    let text = common::generated(300, 4);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&text).unwrap();
    let gz = gz.finish().unwrap();
    let cut = dir.path().join("cut.ppn.gz");
    std::fs::write(&cut, &gz[..gz.len() / 2]).unwrap();
    let o2 = dir.path().join("o2");
    let out = Command::new(env!("CARGO_BIN_EXE_deckhand"))
        .args(["convert", "--summary-json"])
        .arg(dir.path().join("s.json"))
        .arg("-o")
        .arg(&o2)
        .arg(&cut)
        .output()
        .unwrap();
    assert!(out.status.code().unwrap() <= 1);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("gzip stream is damaged or truncated after"),
        "{stderr}"
    );
    let json = std::fs::read_to_string(dir.path().join("s.json")).unwrap();
    assert!(
        json.contains("\"input_warning\": \"gzip stream is damaged"),
        "{json}"
    );
    let hands = deckhand::columns::render::dataset(&o2, &["pinochle/hands"]).unwrap();
    assert!(hands.len() > 50 && hands.len() < 300, "{}", hands.len());
}
