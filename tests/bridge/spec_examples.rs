//! The PBN 2.1 specification's own examples parse into exactly the values
//! they state: chapter 1.2's game (testdata/bridge/spec_example.pbn, the
//! spec's lines as written), the irregularities of chapter 3.9
//! (irregularities.pbn) and the '+' of chapter 3.6 (sections.pbn).

use crate::common;

use std::path::{Path, PathBuf};

fn convert(file: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let input = PathBuf::from("testdata/bridge").join(file);
    common::convert(&[input], dir.path(), &common::quiet(1));
    let tables: Vec<&str> = [
        "bridge/boards",
        "bridge/calls",
        "bridge/plays",
        "bridge/tricks",
        "bridge/notes",
        "errors",
    ]
    .into_iter()
    .filter(|t| Path::new(dir.path()).join(t).is_dir())
    .collect();
    deckhand::columns::render::dataset_unplaced(dir.path(), &tables).unwrap()
}

use common::{rows, value};

#[test]
fn chapter_1_2_game() {
    let all = convert("spec_example.pbn");
    let boards = rows(&all, "bridge/boards");
    assert_eq!(boards.len(), 1);
    let b = boards[0];
    for (col, want) in [
        (
            "event",
            "International Amsterdam Airport Schiphol Bridgetournament",
        ),
        ("site", "Amsterdam, The Netherlands NLD"),
        ("date", "1995-06-10"),
        ("board_number", "1"),
        ("west", "Podgor"),
        ("north", "Westra"),
        ("east", "Kalish"),
        ("south", "Leufkens"),
        ("dealer", "N"),
        ("vulnerable", "None"),
        ("scoring", "IMP"),
        ("declarer", "S"),
        ("contract", "5HX"),
        ("contract_level", "5"),
        ("contract_strain", "H"),
        ("contract_risk", "X"),
        ("result", "9"),
        ("opening_leader", "W"),
        ("computed_declarer", "S"),
        ("computed_contract", "5HX"),
        ("computed_score_ns", "-300"),
    ] {
        assert_eq!(value(b, col), Some(want), "{col}");
    }
    // The play stops at '*' after six tricks and a card: no computed result.
    assert_eq!(value(b, "computed_result"), None);
    let calls: Vec<(&str, &str)> = rows(&all, "bridge/calls")
        .iter()
        .map(|r| (value(r, "seat").unwrap(), value(r, "call").unwrap()))
        .collect();
    let want = "N 1D,E 1S,S 3H,W 4S,N 4NT,E X,S Pass,W Pass,N 5C,E X,S 5H,W X,N Pass,E Pass,S Pass";
    let want: Vec<(&str, &str)> = want
        .split(',')
        .map(|c| c.split_once(' ').unwrap())
        .collect();
    assert_eq!(calls, want);
    let alerted: Vec<(&str, &str)> = rows(&all, "bridge/calls")
        .iter()
        .filter(|r| value(r, "alert") == Some("true"))
        .map(|r| (value(r, "call").unwrap(), value(r, "note").unwrap()))
        .collect();
    assert_eq!(
        alerted,
        [
            ("3H", "non-forcing 6-9 points, 6-card"),
            ("4NT", "two colors: clubs and diamonds")
        ]
    );
    let plays = rows(&all, "bridge/plays");
    // 6 tricks of 4 cards, then "- - - H2": South's H2 alone is known.
    assert_eq!(plays.len(), 25);
    assert_eq!(value(plays[0], "card"), Some("SK"));
    assert_eq!(value(plays[0], "note"), Some("highest of series"));
    assert_eq!(value(plays[24], "seat"), Some("S"));
    assert_eq!(value(plays[24], "card"), Some("H2"));
    assert_eq!(value(plays[24], "trick"), Some("7"));
    let winners: Vec<&str> = rows(&all, "bridge/tricks")
        .iter()
        .filter_map(|r| value(r, "computed_winner"))
        .collect();
    assert_eq!(winners, ["N", "S", "N", "N", "N", "S"]);
    let notes: Vec<(&str, &str)> = rows(&all, "bridge/notes")
        .iter()
        .map(|r| (value(r, "section").unwrap(), value(r, "number").unwrap()))
        .collect();
    assert_eq!(notes, [("auction", "1"), ("auction", "2"), ("play", "1")]);
    // No warning: the one diagnostic is the info on the null computed_result.
    let errors = rows(&all, "errors");
    assert_eq!(errors.len(), 1);
    assert_eq!(value(errors[0], "code"), Some("B060"));
}

#[test]
fn chapter_3_9_irregularities() {
    let all = convert("irregularities.pbn");
    let boards = rows(&all, "bridge/boards");
    // (A), (B) x3: the contract and declarer the irregular auction leads to.
    let computed: Vec<(&str, &str)> = boards
        .iter()
        .map(|b| {
            (
                value(b, "computed_contract").unwrap(),
                value(b, "computed_declarer").unwrap(),
            )
        })
        .collect();
    assert_eq!(
        computed[..4],
        [("1C", "N"), ("1D", "N"), ("2D", "W"), ("1C", "S")]
    );
    // The annotations stay on the call they precede.
    let marked: Vec<(&str, &str, &str)> = rows(&all, "bridge/calls")
        .iter()
        .filter_map(|r| {
            Some((
                value(r, "seat")?,
                value(r, "call")?,
                value(r, "annotation")?,
            ))
        })
        .collect();
    assert_eq!(
        marked,
        [
            ("N", "1C", "^I"),
            ("N", "1D", "^S"),
            ("E", "2D", "^S"),
            ("S", "1C", "^S ^S ^I")
        ]
    );
    // (C) North's revoke wins nothing: West's ace takes the trick.
    // (D) East leads out of turn, the others follow clockwise.
    let tricks: Vec<(&str, &str)> = rows(&all, "bridge/tricks")
        .iter()
        .filter_map(|r| Some((value(r, "leader")?, value(r, "computed_winner")?)))
        .collect();
    assert_eq!(tricks, [("W", "W"), ("E", "W"), ("E", "W")]);
    let d: Vec<&str> = rows(&all, "bridge/plays")
        .iter()
        .filter_map(|r| value(r, "seat"))
        .collect();
    assert_eq!(&d[4..8], ["E", "S", "W", "N"]);
    // (E) Declarer "^N": North declares irregularly, the auction's is South.
    assert_eq!(value(boards[6], "declarer"), Some("N"));
    assert_eq!(value(boards[6], "declarer_irregular"), Some("true"));
    assert_eq!(value(boards[6], "computed_declarer"), Some("S"));
    // None of it is a warning.
    assert!(
        rows(&all, "errors")
            .iter()
            .all(|r| value(r, "severity") == Some("info"))
    );
}

#[test]
fn chapter_3_6_play_to_be_continued() {
    let all = convert("sections.pbn");
    let boards = rows(&all, "bridge/boards");
    let b = boards[3];
    assert_eq!(value(b, "result"), Some("1"));
    // The Result of a play to be continued counts the tricks so far.
    assert_eq!(value(b, "computed_score_ns"), None);
    let plays: Vec<&str> = rows(&all, "bridge/plays")
        .iter()
        .filter_map(|r| value(r, "card"))
        .collect();
    assert!(
        plays
            .windows(5)
            .any(|w| w == ["H2", "H3", "H4", "HA", "CQ"])
    );
}
