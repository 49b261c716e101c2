//! The RBN 3.2 specification's own records parse into exactly the values
//! they state: the Florida Belles record and the RBX example (RBN and RBX
//! both, testdata/bridge/rbn/). Every example line of every label is in
//! labels.rbn (golden) and in the unit tests of `notation::rbn::values`.

use crate::common;

use std::path::{Path, PathBuf};

fn convert(file: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let input = PathBuf::from("testdata/bridge/rbn").join(file);
    common::convert(&[input], dir.path(), &common::quiet(1));
    let tables: Vec<&str> = [
        "bridge/boards",
        "bridge/seats",
        "bridge/calls",
        "bridge/plays",
        "bridge/notes",
        "errors",
    ]
    .into_iter()
    .filter(|t| Path::new(dir.path()).join(t).is_dir())
    .collect();
    deckhand::columns::render::dataset(dir.path(), &tables).unwrap()
}

use common::{rows, value};

fn column<'a>(rows: &[&'a str], board: &str, col: &str) -> Vec<&'a str> {
    rows.iter()
        .filter(|r| value(r, "board_id") == Some(board))
        .map(|r| value(r, col).unwrap_or("null"))
        .collect()
}

#[test]
fn florida_belles() {
    let all = convert("spec_belles.rbn");
    let boards = rows(&all, "bridge/boards");
    assert_eq!(boards.len(), 2);
    let b = boards[0];
    for (col, want) in [
        ("notation", Some("RBN")),
        ("date", Some("1993-05-12")),
        ("site", Some("West Palm Beach FL:Palm Beach Bridge Studio")),
        ("event", Some("ACBL International Fund Game")),
        ("scoring", Some("M")),
        ("board", Some("8")),
        ("north", None),
        ("south", None),
        ("west", Some("Helen Shanbrom")),
        ("east", Some("Julia Carswell")),
        ("dealer", Some("W")),
        ("vulnerable", Some("None")),
        (
            "deal",
            Some("N:J42.AJ7632.J.632 QT3.85.Q86.KQJ54 K9.K94.AT75432.9 A8765.QT.K9.AT87"),
        ),
        ("contract", Some("5HX")),
        ("declarer", Some("N")),
        ("opening_leader", Some("E")),
        ("result", Some("9")),
        ("score_ns", Some("-300")),
        ("computed_contract", Some("5HX")),
        ("computed_declarer", Some("N")),
        ("computed_score_ns", Some("-300")),
    ] {
        assert_eq!(value(b, col), want, "{col}");
    }
    let calls = rows(&all, "bridge/calls");
    assert_eq!(
        column(&calls, "0", "call").join(" "),
        "1S 2H 2S 4D 4S Pass Pass 5H X Pass Pass Pass"
    );
    assert_eq!(column(&calls, "0", "seat").join(""), "WNESWNESWNES");
    let plays = rows(&all, "bridge/plays");
    // "CK972:CQ!H483:DA9J6:D2KH28:SJ?QKA:CA": E leads the king of clubs, and
    // the play is curtailed in the sixth trick.
    assert_eq!(
        column(&plays, "0", "card").join(" "),
        "CK C9 C7 C2 CQ H4 C8 C3 DA D9 DJ D6 D2 DK H2 D8 SJ SQ SK SA CA"
    );
    assert_eq!(
        column(&plays, "0", "seat").join(""),
        "ESWNESWNSWNESWNENESWW"
    );
    assert_eq!(column(&plays, "0", "annotation")[4], "!");
    assert_eq!(column(&plays, "0", "annotation")[16], "?");
    // The effective score (0 percent) and the title are kept as written.
    assert!(b.contains(r#"{name="R", value="9-300:0"}"#), "{b}");
    assert!(b.contains(r#"{name="T", value="Florida Belles Are Ringers:Richard Pavlicek"}"#));
}

#[test]
fn rbx_example_equals_its_rbn() {
    for (file, board) in [("spec_belles.rbn", "1"), ("spec_example.rbx", "0")] {
        let all = convert(file);
        let boards = rows(&all, "bridge/boards");
        let b = boards
            .iter()
            .find(|r| value(r, "board_id") == Some(board))
            .unwrap();
        for (col, want) in [
            ("date", Some("1999-12-25")),
            ("site", Some("Timbuktu")),
            ("event", Some("Teams")),
            ("scoring", Some("I")),
            ("board", Some("7")),
            ("north", Some("Bob")),
            ("south", Some("Ed")),
            ("west", Some("Tom")),
            ("east", Some("Joe")),
            ("dealer", Some("S")),
            ("vulnerable", Some("All")),
            ("contract", Some("5H")),
            ("declarer", Some("S")),
        ] {
            assert_eq!(value(b, col), want, "{file} {col}");
        }
        assert!(b.contains(r#"comments=["Ed quit!"]"#), "{b}");
        assert!(b.contains(r#"{name="S", value="F:1"}"#), "{b}");
        assert!(b.contains(r#"{name="K", value="Duck:Fox"}"#), "{b}");
        let calls = rows(&all, "bridge/calls");
        assert_eq!(
            column(&calls, board, "call").join(" "),
            "1H Pass 5H Pass Pass Pass",
            "{file}"
        );
        assert_eq!(column(&calls, board, "note")[2], "nuts", "{file}");
        let seats = rows(&all, "bridge/seats");
        assert_eq!(
            column(&seats, board, "cards"),
            ["null", "null", "null", "[\"SA\","],
            "{file}: West's spades AK2 alone"
        );
    }
}
