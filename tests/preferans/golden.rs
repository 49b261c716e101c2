//! Every hand-written Portable Preferans Notation file under
//! testdata/preferans converts into exactly the rows and diagnostics of its
//! golden file, with deckhand's page builders and with the Arrow writer
//! alone. `DECKHAND_BLESS=1` rewrites the golden files.

use crate::common;

use std::path::PathBuf;

use deckhand::pipeline::Options;
use deckhand::sink::writer::Writer;

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

/// A generated archive of `deals` deals.
fn generated(dir: &std::path::Path, deals: u64, seed: u64, crlf: bool) -> PathBuf {
    let p = dir.join(format!("generated-{seed}.ppn"));
    let mut f = std::io::BufWriter::new(std::fs::File::create(&p).unwrap());
    deckhand::notation::preferans_ppn::generate::generate(deals, seed, crlf, &mut f).unwrap();
    drop(f);
    p
}

/// The generator's games are legal: they convert with no diagnostic, every
/// throw's computed winner is its annotated one and every player's
/// computed tricks are the summary's.
#[test]
fn generated_games_convert_with_every_computed_value_as_annotated() {
    use deckhand::columns::access::Cols as Table;
    let dir = tempfile::tempdir().unwrap();
    let inputs = [
        generated(dir.path(), 3000, 11, false),
        generated(dir.path(), 500, 12, true),
    ];
    let out = dir.path().join("out");
    let summary = common::convert(&inputs, &out, &common::quiet(2));
    let t = summary.total();
    assert_eq!((t.quarantined, t.warnings, t.infos), (0, 0, 0));
    assert_eq!(t.records, t.converted);
    let tricks = common::read_table(&out, "preferans/tricks");
    let tr = Table::new(&tricks);
    assert!(tr.num_rows() > 20_000, "{}", tr.num_rows());
    for i in 0..tr.num_rows() {
        assert!(tr.i32("winner", i).is_some());
        assert_eq!(
            tr.i32("winner", i),
            tr.i32("computed_winner", i),
            "trick row {i}"
        );
    }
    let seats = common::read_table(&out, "preferans/seats");
    let s = Table::new(&seats);
    let deals = common::read_table(&out, "preferans/deals");
    let d = Table::new(&deals);
    assert_eq!(s.num_rows(), 3 * d.num_rows());
    assert_eq!(d.num_rows(), 3500);
    let (mut played, mut passed, mut without_talon, mut nobody) = (0, 0, 0, 0);
    // Invited players written `0` and written with their tricks (`F...`).
    let (mut invited_zero, mut invited_f) = (0, 0);
    for i in 0..d.num_rows() {
        let out = d.bool("passed_out", i).unwrap();
        passed += out as usize;
        without_talon += (d.bool("without_talon", i) == Some(true)) as usize;
        let nobody_follows = d.i32("accepted", i) == Some(0);
        nobody += nobody_follows as usize;
        let invitation = d.str("kontra_level", i) == Some("invitation");
        for p in 0..3 {
            let r = 3 * i + p;
            let player = s.i32("player", r);
            let invited =
                invitation && player != d.i32("main", i) && player != d.i32("accepted", i);
            if invited {
                match s.str("role", r) {
                    Some("follower") => invited_f += 1,
                    Some("none") => invited_zero += 1,
                    other => panic!("seat row {r}: an invited player's role {other:?}"),
                }
            }
            if out {
                assert_eq!(s.i32("computed_tricks", r), None);
                assert_eq!(s.str("role", r), Some("none"));
            } else if nobody_follows {
                // No card was played: nothing is computed; the summary gives
                // the main player the six tricks of passing, as written.
                assert_eq!(s.i32("computed_tricks", r), None, "seat row {r}");
                if s.str("role", r) == Some("main") {
                    assert_eq!(s.i32("tricks", r), Some(6), "seat row {r}");
                }
            } else if let Some(stated) = s.i32("tricks", r) {
                played += 1;
                assert_eq!(Some(stated), s.i32("computed_tricks", r), "seat row {r}");
            }
        }
    }
    assert!(
        passed > 300 && without_talon > 300 && nobody > 50,
        "{passed} {without_talon} {nobody}"
    );
    assert!(played > 5000, "{played}");
    assert!(
        invited_zero > 20 && invited_f > 20,
        "{invited_zero} {invited_f}"
    );
}

/// Threads, chunk and group sizes change no byte of the dataset.
#[test]
fn preferans_threads_and_chunk_sizes_do_not_change_a_byte() {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = fixtures();
    inputs.push(generated(dir.path(), 2000, 5, false));
    let base = dir.path().join("base");
    common::convert(&inputs, &base, &common::quiet(1));
    let want = common::table_files(&base, &PREFERANS);
    assert!(want.len() >= 5);
    for (k, &(threads, chunk, group)) in
        [(2, 1 << 20, 1 << 20), (2, 7, 200), (2, 1000, 10), (1, 1, 1)]
            .iter()
            .enumerate()
    {
        let out = dir.path().join(format!("out{k}"));
        let opts = Options {
            chunk_bytes: chunk,
            group_bytes: group,
            ..common::quiet(threads)
        };
        common::convert(&inputs, &out, &opts);
        common::assert_same_files(
            &want,
            &common::table_files(&out, &PREFERANS),
            &format!("threads={threads} chunk={chunk} group={group}"),
        );
    }
}

/// A pinochle PPN file and a Preferans PPN file in one directory, both
/// named `.ppn`: each converts into its own game's tables.
#[test]
fn the_two_ppns_in_one_directory_convert_into_their_own_tables() {
    let dir = tempfile::tempdir().unwrap();
    let inp = dir.path().join("in");
    std::fs::create_dir(&inp).unwrap();
    std::fs::copy(
        "testdata/preferans/spec_example.ppn",
        inp.join("b-preferans.ppn"),
    )
    .unwrap();
    let pinochle = common::fixtures()[0].clone();
    std::fs::copy(&pinochle, inp.join("a-pinochle.ppn")).unwrap();
    let out = dir.path().join("out");
    assert_cmd::Command::cargo_bin("deckhand")
        .unwrap()
        .arg("convert")
        .arg(&inp)
        .arg("-q")
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let games = common::read_table(&out, "preferans/games");
    assert_eq!(games.num_rows(), 1);
    let hands = common::read_table(&out, "pinochle/hands");
    assert!(hands.num_rows() > 0);
    let e = common::read_table(&out, "errors");
    let notations = e.column_by_name("notation").unwrap();
    let notations = arrow_array::cast::AsArray::as_string::<i32>(notations);
    // The Preferans file's warnings are its own; no pinochle code names it.
    for i in 0..e.num_rows() {
        let code = arrow_array::cast::AsArray::as_string::<i32>(e.column_by_name("code").unwrap())
            .value(i);
        let n = notations.value(i);
        assert_eq!(code.starts_with('F'), n == "PPN-preferans", "{code} {n}");
    }
}

/// `deckhand generate --game preferans`: deals, the same archive for a
/// seed; pinochle's options and unknown games refused before any file.
#[test]
fn the_generate_command_makes_preferans_archives() {
    let dir = tempfile::tempdir().unwrap();
    let generate = |args: &[&str]| {
        assert_cmd::Command::cargo_bin("deckhand")
            .unwrap()
            .arg("generate")
            .args(args)
            .assert()
    };
    let a = dir.path().join("a.ppn");
    let b = dir.path().join("b.ppn");
    for p in [&a, &b] {
        generate(&[
            "--game",
            "preferans",
            "--hands",
            "300",
            "--seed",
            "4",
            "-o",
            p.to_str().unwrap(),
        ])
        .success()
        .stderr(predicates::str::contains("generated 300 deals in"));
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let c = dir.path().join("c.ppn");
    generate(&[
        "--game",
        "preferans",
        "--malformed",
        "0.5",
        "-o",
        c.to_str().unwrap(),
    ])
    .failure()
    .stderr(predicates::str::contains(
        "--game preferans takes --hands, --seed and --crlf",
    ));
    generate(&["--game", "chess", "-o", c.to_str().unwrap()])
        .failure()
        .stderr(predicates::str::contains(
            "unknown game 'chess': deckhand generates pinochle, preferans",
        ));
    assert!(!c.exists());
}
