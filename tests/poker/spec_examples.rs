//! The PHH standard's own examples parse into exactly the values they
//! state: the two hands of examples.rst (testdata/poker/valid/spec_*.phh),
//! every field snippet of required.rst and user.rst, and the action
//! grammar's examples (unit tests of `notation::phh::action` have every
//! row of its table).

use crate::common;

use std::path::{Path, PathBuf};

use common::{rows, value};

fn convert(inputs: &[PathBuf]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    common::convert(inputs, dir.path(), &common::quiet(1));
    let tables: Vec<&str> = ["poker/hands", "poker/players", "poker/actions", "errors"]
        .into_iter()
        .filter(|t| Path::new(dir.path()).join(t).is_dir())
        .collect();
    deckhand::columns::render::dataset(dir.path(), &tables).unwrap()
}

/// The rendered value of `column` (lists and amounts as rendered).
fn raw<'a>(row: &'a str, column: &str) -> &'a str {
    let key = format!(" {column}=");
    let at = row
        .find(&key)
        .unwrap_or_else(|| panic!("{column} in {row}"))
        + key.len();
    let rest = &row[at..];
    if rest.starts_with('[') {
        let end = rest.find(']').unwrap();
        return &rest[..=end];
    }
    value(row, column).unwrap()
}

#[test]
fn dwan_ivey() {
    let all = convert(&["testdata/poker/valid/spec_dwan_ivey.phh".into()]);
    let h = rows(&all, "poker/hands");
    assert_eq!(h.len(), 1);
    for (col, want) in [
        ("variant", "NT"),
        ("antes", "[500, 500, 500]"),
        ("blinds_or_straddles", "[1000, 2000, 0]"),
        ("min_bet", "2000"),
        ("players", "3"),
        ("author", "Juho Kim"),
        ("event", "Million Dollar Cash Game"),
        ("year", "2009"),
        ("currency", "USD"),
        ("board", "[\"Jc\", \"3d\", \"5c\", \"4h\", \"Jh\"]"),
    ] {
        assert_eq!(raw(h[0], col), want, "{col}");
    }
    let p = rows(&all, "poker/players");
    let names: Vec<_> = p.iter().map(|r| value(r, "name").unwrap()).collect();
    assert_eq!(names, ["Phil Ivey", "Patrik Antonius", "Tom Dwan"]);
    let stacks: Vec<_> = p.iter().map(|r| raw(r, "starting_stack")).collect();
    assert_eq!(stacks, ["1125600", "2000000", "553500"]);
    assert_eq!(raw(p[1], "hole_cards"), "[\"??\", \"??\"]");
    assert_eq!(raw(p[2], "shown_cards"), "[\"7h\", \"6h\"]");
    let a = rows(&all, "poker/actions");
    assert_eq!(a.len(), 18);
    // (text, street, actor, player, action, amount, commentary)
    let want = [
        (0, "d dh p1 Ac2d", "0", "d", Some("1"), "dh", None, None),
        (2, "d dh p3 7h6h", "0", "d", Some("3"), "dh", None, None),
        (
            3,
            "p3 cbr 7000",
            "0",
            "p3",
            Some("3"),
            "cbr",
            Some("7000"),
            None,
        ),
        (7, "d db Jc3d5c", "1", "d", None, "db", None, None),
        (
            13,
            "p1 cbr 1067100",
            "2",
            "p1",
            Some("1"),
            "cbr",
            Some("1067100"),
            None,
        ),
        (15, "p1 sm Ac2d", "2", "p1", Some("1"), "sm", None, None),
        (17, "d db Jh", "3", "d", None, "db", None, None),
    ];
    for (i, text, street, actor, player, action, amount, commentary) in want {
        let r = a[i];
        assert_eq!(value(r, "text"), Some(text));
        assert_eq!(value(r, "street"), Some(street), "{text}");
        assert_eq!(value(r, "actor"), Some(actor));
        assert_eq!(value(r, "player"), player, "{text}");
        assert_eq!(value(r, "action"), Some(action));
        assert_eq!(value(r, "amount"), amount);
        assert_eq!(value(r, "commentary"), commentary);
    }
    // The replay: Dwan's straight (7-6 on 5-4-3) wins Ivey's 553,500 (his
    // raise to 1,067,100 returned above Dwan's all-in), Antonius's ante and
    // blind, and his own.
    assert_eq!(raw(h[0], "computed_pot"), "1109500");
    assert_eq!(raw(h[0], "computed_streets"), "4");
    let col = |c: &str| -> Vec<&str> { p.iter().map(|r| raw(r, c)).collect() };
    assert_eq!(col("computed_contribution"), ["553500", "2500", "553500"]);
    assert_eq!(col("computed_payoff"), ["-553500", "-2500", "556000"]);
    assert_eq!(
        col("computed_finishing_stack"),
        ["572100", "1997500", "1109500"]
    );
    assert_eq!(value(p[2], "computed_hand"), Some("straight"));
    let kinds: Vec<_> = a
        .iter()
        .map(|r| value(r, "computed_kind").unwrap())
        .collect();
    assert_eq!(
        kinds[3..15],
        [
            "raise", "raise", "fold", "call", "deal", "bet", "call", "deal", "bet", "raise",
            "raise", "call"
        ]
    );
    assert!(rows(&all, "errors").is_empty());
}

#[test]
fn yockey_arieh() {
    let all = convert(&["testdata/poker/valid/spec_yockey_arieh.phh".into()]);
    let h = rows(&all, "poker/hands")[0];
    for (col, want) in [
        ("variant", "F2L3D"),
        ("antes", "[0, 0, 0, 0]"),
        ("blinds_or_straddles", "[75000, 150000, 0, 0]"),
        ("small_bet", "150000"),
        ("big_bet", "300000"),
        ("event", "2019 WSOP Event #58"),
        ("city", "Las Vegas"),
        ("region", "Nevada"),
        ("country", "United States of America"),
        ("day", "28"),
        ("month", "6"),
        ("year", "2019"),
        ("board", "[]"),
    ] {
        assert_eq!(raw(h, col), want, "{col}");
    }
    let a = rows(&all, "poker/actions");
    assert_eq!(a.len(), 26);
    let by_text = |t: &str| *a.iter().find(|r| value(r, "text") == Some(t)).unwrap();
    let d = by_text("p4 sd AsQs");
    assert_eq!(
        (value(d, "street"), raw(d, "cards")),
        (Some("1"), "[\"As\", \"Qs\"]")
    );
    assert_eq!(value(by_text("p1 sd"), "action"), Some("sd"));
    assert_eq!(raw(by_text("p1 sd"), "cards"), "[]");
    assert_eq!(value(by_text("d dh p4 7c"), "street"), Some("3"));
    assert_eq!(value(by_text("p4 sm 2h4d7c5c3c"), "street"), Some("3"));
    let p = rows(&all, "poker/players");
    // Arieh: dealt 5, then 2 + 1 + 1 replacement cards, in order.
    assert_eq!(
        raw(p[3], "hole_cards"),
        "[\"As\", \"Qs\", \"6s\", \"5c\", \"3c\", \"2h\", \"Qh\", \"4d\", \"7c\"]"
    );
    assert_eq!(
        raw(p[3], "shown_cards"),
        "[\"2h\", \"4d\", \"7c\", \"5c\", \"3c\"]"
    );
    assert!(rows(&all, "errors").is_empty());
}

/// Each snippet of required.rst and user.rst in a hand of its own.
#[test]
fn field_snippets() {
    let dir = tempfile::tempdir().unwrap();
    let hand = |k: &str, body: &str| {
        format!("[{k}]\nvariant = 'NT'\nmin_bet = 2\nactions = []\n{body}\n\n")
    };
    let antes = [
        ("antes = [0, 0, 0, 0, 0]", "[0, 0, 0, 0, 0]"),
        ("antes = [1, 1]", "[1, 1]"),
        ("antes = [0.0, 3.0]", "[0, 3]"),
        ("antes = [0.0, 3.0, 0.0]", "[0, 3, 0]"),
        ("antes = [0, 0, 0, 10]", "[0, 0, 0, 10]"),
    ];
    let blinds = [
        ("blinds_or_straddles = [1, 2]", "[1, 2]"),
        (
            "blinds_or_straddles = [1, 2, 0, 0, 0, 0]",
            "[1, 2, 0, 0, 0, 0]",
        ),
        ("blinds_or_straddles = [1, 2, 4, 0]", "[1, 2, 4, 0]"),
        (
            "blinds_or_straddles = [1, 2, 4, 8, 0, 0]",
            "[1, 2, 4, 8, 0, 0]",
        ),
        (
            "blinds_or_straddles = [1, 2, 0, 0, 0, 4]",
            "[1, 2, 0, 0, 0, 4]",
        ),
    ];
    let mut text = String::new();
    // Zeros as many as the snippet's players for the other array.
    let zeros = |want: &str| vec!["0"; want.matches(',').count() + 1].join(", ");
    for (i, (a, want)) in antes.iter().enumerate() {
        let other = format!("blinds_or_straddles = [{}]", zeros(want));
        text += &hand(&format!("a{i}"), &format!("{a}\n{other}"));
    }
    for (i, (b, want)) in blinds.iter().enumerate() {
        text += &hand(&format!("b{i}"), &format!("{b}\nantes = [{}]", zeros(want)));
    }
    text += "[stud]\nvariant = 'FR'\nantes = [1, 1]\nstarting_stacks = [10, 10]\nactions = []\n\
             bring_in = 1\nsmall_bet = 2\nbig_bet = 4\n\n";
    text += "[user]\nvariant = 'NT'\n_sponsors = [\"\", \"GGPoker\", \"\"]\n_nationalities = [\n  \
             \"Peru\", \"Italy\", \"Japan\",\n]\n";
    let f = dir.path().join("snippets.phhs");
    std::fs::write(&f, text).unwrap();
    let all = convert(&[f]);
    let h = rows(&all, "poker/hands");
    assert_eq!(h.len(), 12);
    for (i, (_, want)) in antes.iter().enumerate() {
        assert_eq!(raw(h[i], "antes"), *want);
        assert_eq!(value(h[i], "section"), Some(format!("a{i}").as_str()));
    }
    for (i, (_, want)) in blinds.iter().enumerate() {
        assert_eq!(raw(h[5 + i], "blinds_or_straddles"), *want);
    }
    for (col, want) in [("bring_in", "1"), ("small_bet", "2"), ("big_bet", "4")] {
        assert_eq!(raw(h[10], col), want);
    }
    assert!(h[11].contains(
        "user_fields=[{name=\"_sponsors\", value=\"[\\\"\\\", \\\"GGPoker\\\", \\\"\\\"]\"}, \
         {name=\"_nationalities\", value=\"[\\n  \\\"Peru\\\", \\\"Italy\\\", \\\"Japan\\\",\\n]\"}]"
    ), "{}", h[11]);
}
