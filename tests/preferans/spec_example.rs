//! The example record of the Portable Preferans Notation spec
//! (<https://github.com/prefko/portable-preferans-notation>, copied as
//! testdata/preferans/spec_example.ppn): its deal lines convert into
//! exactly the values they state, and each of its known inconsistencies
//! is a warning at its line and column.

use crate::common;

use std::path::PathBuf;

use deckhand::columns::access::Cols;
use deckhand::pipeline::Options;

fn convert(compute: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut opts = common::quiet(2);
    opts.settings.compute = compute;
    let input = PathBuf::from("testdata/preferans/spec_example.ppn");
    let s = common::convert(&[input], dir.path(), &Options { ..opts });
    assert_eq!((s.total().records, s.total().converted), (1, 1));
    dir
}

#[test]
fn the_spec_example_converts_into_the_values_it_states() {
    let dir = convert(true);
    let g = common::read_table(dir.path(), "preferans/games");
    let g = Cols::new(&g);
    assert_eq!(
        (g.i32("bula", 0), g.i32("refe", 0), g.str("player2", 0)),
        (Some(60), Some(2), Some("silvio_pu"))
    );
    assert_eq!(
        [
            g.i32("result1", 0),
            g.i32("result2", 0),
            g.i32("result3", 0)
        ],
        [Some(458), Some(88), Some(-546)]
    );
    assert_eq!(
        [g.i32("place1", 0), g.i32("place2", 0), g.i32("place3", 0)],
        [Some(2), Some(1), Some(3)]
    );
    assert_eq!(g.i32("deals", 0), Some(4));
    let d = common::read_table(dir.path(), "preferans/deals");
    let d = Cols::new(&d);
    assert_eq!(d.num_rows(), 4);
    // Round 1: `[1 231 1BDH... M3,P,3 2 AR 4 3 I3 8 2 ... M7:-8,F3:L24,0]`,
    // 13 fields: the refa is missing.
    assert_eq!(d.str("deal_order", 0), Some("231"));
    assert_eq!(d.i32("dealer", 0), Some(1));
    assert_eq!(d.strs("talon", 0), Some(vec!["CJ", "D7"]));
    assert_eq!(d.strs("discarded", 0), Some(vec!["D8", "C9"]));
    assert_eq!(
        (
            d.i32("main", 0),
            d.i32("contract", 0),
            d.str("contract_name", 0)
        ),
        (Some(2), Some(4), Some("hearts"))
    );
    assert_eq!(
        (
            d.i32("accepted", 0),
            d.str("kontra_level", 0),
            d.i32("kontra_player", 0)
        ),
        (Some(3), Some("invitation"), Some(3))
    );
    assert_eq!(
        (d.bool("refa", 0), d.i32("value", 0), d.i32("starts", 0)),
        (None, Some(8), Some(2))
    );
    // Round 2: passed out, the short form.
    assert_eq!(d.bool("passed_out", 1), Some(true));
    assert_eq!(d.i32("main", 1), None);
    assert_eq!(d.i32("dealer", 1), Some(2));
    // Round 3: 13 fields too; clubs, value 10.
    assert_eq!(
        (d.i32("contract", 2), d.bool("refa", 2), d.i32("value", 2)),
        (Some(5), None, Some(10))
    );
    // Round 4: subkontra by player 3, value 64.
    assert_eq!(
        (d.str("kontra_level", 3), d.i32("value", 3)),
        (Some("subkontra"), Some(64))
    );
    let s = common::read_table(dir.path(), "preferans/seats");
    let s = Cols::new(&s);
    // Round 1, player 2 (the first dealt: `1BDHM27WQK`): main, M7:-8.
    assert_eq!(
        s.strs("dealt", 1),
        Some(vec![
            "S7", "D9", "DJ", "H7", "HQ", "S8", "SK", "CA", "C8", "HT"
        ])
    );
    assert_eq!(
        (s.str("role", 1), s.i32("tricks", 1), s.i32("middle", 1)),
        (Some("main"), Some(7), Some(-8))
    );
    // Round 4, player 3: F3:L192:64.
    assert_eq!(
        (s.i32("tricks", 11), s.i32("left", 11), s.i32("middle", 11)),
        (Some(3), Some(192), Some(64))
    );
    let t = common::read_table(dir.path(), "preferans/tricks");
    let t = Cols::new(&t);
    // `2A12`: player 2 leads the 8 of spades, player 3 the 8 of diamonds,
    // player 1 the 7 of spades; player 2 wins.
    assert_eq!(t.strs("cards", 0), Some(vec!["S8", "D8", "S7"]));
    assert_eq!((t.i32("leader", 0), t.i32("winner", 0)), (Some(2), Some(2)));
}

#[test]
fn each_known_inconsistency_is_a_warning_at_its_line_and_column() {
    let dir = convert(true);
    let e = common::read_table(dir.path(), "errors");
    let e = Cols::new(&e);
    let at: Vec<(String, i64, i64, String)> = (0..e.num_rows())
        .map(|i| {
            (
                e.str("code", i).unwrap().to_string(),
                e.col("line").u64(i) as i64,
                e.col("col").u64(i) as i64,
                e.str("message", i).unwrap().to_string(),
            )
        })
        .collect();
    let has = |code: &str, line: i64, col: i64, part: &str| {
        assert!(
            at.iter()
                .any(|(c, l, k, m)| c == code && *l == line && *k == col && m.contains(part)),
            "{code} at {line}:{col} '{part}' missing: {at:#?}"
        );
    };
    assert!(at.iter().all(|a| a.0 != "F004"), "every deal line is read");
    // 13 fields in rounds 1, 3 and 4: the refa missing, at the value.
    has("F013", 13, 60, "the refa is missing");
    has("F013", 15, 59, "the refa is missing");
    has("F013", 16, 60, "the refa is missing");
    // Discards `AR` (8 of diamonds, 9 of clubs) not the main player's.
    has("F021", 13, 50, "discards D8");
    has("F021", 13, 50, "discards C9");
    // The same cards again in later tricks.
    has(
        "F022",
        13,
        74,
        "trick 3: player 2 plays S8, which they played already",
    );
    // Wrong winners: `G9B3` in trick 8 is won by player 2's ace of diamonds.
    has(
        "F024",
        13,
        102,
        "trick 8: the winner is written as player 3; by the rules player 2 wins it",
    );
    has(
        "F025",
        16,
        115,
        "player 2's summary gives 7 tricks; the rules give 8",
    );
    assert!(at.iter().all(|a| a.0.starts_with('F')));
}

#[test]
fn without_the_rules_the_rows_are_the_same_and_computed_values_null() {
    let with = convert(true);
    let without = convert(false);
    for t in ["preferans/deals", "preferans/games"] {
        assert_eq!(
            common::read_table(with.path(), t),
            common::read_table(without.path(), t),
            "{t}"
        );
    }
    let s = common::read_table(without.path(), "preferans/seats");
    assert_eq!(
        s.column_by_name("computed_tricks").unwrap().null_count(),
        s.num_rows()
    );
    let t = common::read_table(without.path(), "preferans/tricks");
    assert_eq!(
        t.column_by_name("computed_winner").unwrap().null_count(),
        t.num_rows()
    );
    let e = common::read_table(without.path(), "errors");
    let e = Cols::new(&e);
    let codes: Vec<&str> = (0..e.num_rows())
        .map(|i| e.str("code", i).unwrap())
        .collect();
    // The notation's own warnings stay: 13 fields, and round 3's summary
    // giving player 2, the follower accepted names, no entry (`0`); its `F`
    // entry for player 1, whom player 2 invited (`I2`), is legal.
    assert_eq!(codes, ["F013", "F013", "F018", "F013"]);
}
