//! The rules engine against generated games: every computed value equals the
//! annotated one; corrupted annotations are reported at their line; an IMPORT
//! archive of the same games gives the same values as the EXPORT one.

use std::collections::BTreeSet;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, RecordBatch};
use deckhand::columns::render::value;
use deckhand::notation::pinochle_ppn::generate::{GenOptions, generate, write::Style};
use deckhand::pipeline::{Options, parse_bytes};

fn archive(hands: u64, seed: u64, import: bool) -> Vec<u8> {
    let mut v = Vec::new();
    let opts = GenOptions {
        hands,
        seed,
        style: Style {
            import,
            ..Style::default()
        },
        ..GenOptions::default()
    };
    generate(&opts, &mut v).unwrap();
    v
}

/// Every table, concatenated.
fn tables(bytes: &[u8]) -> Vec<RecordBatch> {
    let mut per: Vec<Vec<RecordBatch>> = Vec::new();
    parse_bytes(
        bytes,
        "gen.ppn",
        &Options {
            progress: false,
            ..Options::default()
        },
        &mut |t| {
            per.resize_with(t.len(), Vec::new);
            for (i, (_, b)) in t.into_iter().enumerate() {
                per[i].extend(b);
            }
            Ok(())
        },
    )
    .unwrap();
    per.iter()
        .map(|b| arrow_select::concat::concat_batches(&b[0].schema(), b).unwrap())
        .collect()
}

fn col(b: &RecordBatch, name: &str) -> ArrayRef {
    b.column_by_name(name)
        .unwrap_or_else(|| panic!("no column {name}"))
        .clone()
}

fn texts(b: &RecordBatch, name: &str) -> Vec<String> {
    let c = col(b, name);
    (0..c.len()).map(|i| value(c.as_ref(), i)).collect()
}

/// Every annotated column of `annotated` equals its computed column in `computed`.
fn assert_rules_agree(annotated: &[RecordBatch], computed: &[RecordBatch]) {
    for (table, pairs) in [
        (
            HANDS,
            &[
                ("declarer", "computed_declarer"),
                ("contract", "computed_contract"),
                ("result", "computed_result"),
                ("meld_scores", "computed_meld_scores"),
                ("play_scores", "computed_play_scores"),
                ("hand_scores", "computed_hand_scores"),
            ][..],
        ),
        (
            SEATS,
            &[
                ("dealt", "computed_dealt"),
                ("meld_points", "computed_meld_points"),
            ][..],
        ),
        (
            TRICKS,
            &[("winner", "computed_winner"), ("points", "computed_points")][..],
        ),
    ] {
        for (a, c) in pairs {
            assert_eq!(
                texts(&annotated[table], a),
                texts(&computed[table], c),
                "{c}"
            );
        }
    }
}

const HANDS: usize = 0;
const SEATS: usize = 1;
const TRICKS: usize = 3;
const ERRORS: usize = 5;

#[test]
fn twenty_thousand_generated_hands_agree_with_the_rules() {
    let t = tables(&archive(20_000, 5, false));
    assert_eq!(t[HANDS].num_rows(), 20_000);
    let errors = texts(&t[ERRORS], "message");
    assert!(
        errors.is_empty(),
        "{} diagnostics, first: {:?}",
        errors.len(),
        errors.first()
    );
    assert_rules_agree(&t, &t);
    // Computed values are really there (not null on both sides).
    let results = texts(&t[HANDS], "computed_result");
    assert!(results.iter().all(|r| r != "null"));
    for r in ["\"Saved\"", "\"Set\"", "\"No Trump\"", "\"No Board\""] {
        assert!(results.iter().any(|x| x == r), "no {r} hand among 20000");
    }
}

/// An archive whose seats without meld are written as points alone, `(0)`
/// (`generate --meld-points-alone`), converts with every computed value
/// equal to the annotated one, no diagnostic, and the values of the same
/// games written `...(0)`.
#[test]
fn seats_without_meld_written_as_points_alone() {
    let opts = |points_alone| GenOptions {
        hands: 3000,
        seed: 8,
        style: Style {
            points_alone,
            ..Style::default()
        },
        ..GenOptions::default()
    };
    let (mut alone, mut dots) = (Vec::new(), Vec::new());
    generate(&opts(true), &mut alone).unwrap();
    generate(&opts(false), &mut dots).unwrap();
    let text = String::from_utf8(alone.clone()).unwrap();
    let n = text.matches(" (0)").count() + text.matches(":(0)").count();
    assert!(n > 100, "{n} seats written (0)");
    assert!(!text.contains("...(0)"));
    let (a, d) = (tables(&alone), tables(&dots));
    assert!(texts(&a[ERRORS], "message").is_empty());
    assert_rules_agree(&a, &a);
    for (table, cols) in [
        (
            HANDS,
            &[
                "computed_result",
                "computed_meld_scores",
                "computed_hand_scores",
            ][..],
        ),
        (
            SEATS,
            &["meld_cards", "meld_points", "computed_meld_points"][..],
        ),
    ] {
        for c in cols {
            assert_eq!(texts(&a[table], c), texts(&d[table], c), "{c}");
        }
    }
}

/// Replaces the first `from` in line `line` (0-based) with `to`.
fn edit(lines: &mut [String], line: usize, from: &str, to: &str) {
    assert!(lines[line].contains(from), "{from} not in {}", lines[line]);
    lines[line] = lines[line].replacen(from, to, 1);
}

#[test]
fn corrupted_annotations_are_reported_at_their_line() {
    let text = String::from_utf8(archive(400, 9, false)).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut expected: BTreeSet<(u64, String)> = BTreeSet::new();
    let mut hand = 0;
    let mut kind = 0;
    let mut i = 0;
    let seats = ["N", "E", "S", "W"];
    while i < lines.len() {
        if lines[i].starts_with("[Hand ") {
            hand += 1;
            if hand % 9 == 0 {
                // The record's lines: up to the next blank line.
                let end = (i..lines.len())
                    .find(|&j| lines[j].is_empty())
                    .unwrap_or(lines.len());
                let find = |p: &str| (i..end).find(|&j| lines[j].starts_with(p));
                let played = find("[Play \"").is_some_and(|j| !lines[j].contains("\"*\""));
                let code = match kind % 7 {
                    0 if played => {
                        // A trick annotation names the wrong winner.
                        let j = find("[Play \"").unwrap() + 3;
                        let open = lines[j].find('(').unwrap();
                        let seat = &lines[j][open + 1..open + 2];
                        let other = seats[(seats.iter().position(|s| *s == seat).unwrap() + 1) % 4];
                        let from = format!("({seat}");
                        edit(&mut lines, j, &from, &format!("({other}"));
                        Some((j, "P053"))
                    }
                    1 if played => {
                        let j = find("[Play \"").unwrap() + 5;
                        let close = lines[j].find(')').unwrap();
                        let pts: i32 = lines[j][close - 1..close].parse().unwrap();
                        let from = format!("{pts})");
                        edit(&mut lines, j, &from, &format!("{})", pts + 1));
                        Some((j, "P054"))
                    }
                    2 => {
                        let j = find("[Melds").unwrap();
                        let open = lines[j].find('(').unwrap();
                        let close = lines[j].find(')').unwrap();
                        let pts: i32 = lines[j][open + 1..close].parse().unwrap();
                        let from = format!("({pts})");
                        edit(&mut lines, j, &from, &format!("({})", pts + 2));
                        Some((j, "P055"))
                    }
                    3 => {
                        let j = find("[HandScores").unwrap();
                        lines[j] = "[HandScores \"1:2\"]".to_string();
                        // The next hand of the same game no longer starts
                        // where this one ended.
                        let number = |l: &str| l[7..l.len() - 2].parse::<u32>().unwrap();
                        let this = number(&lines[i]);
                        if let Some(n) =
                            (end..lines.len()).find(|&j| lines[j].starts_with("[Hand "))
                            && number(&lines[n]) == this + 1
                        {
                            let g = (n..lines.len())
                                .find(|&j| lines[j].starts_with("[GameScores"))
                                .unwrap();
                            expected.insert((g as u64 + 1, "P064".to_string()));
                        }
                        Some((j, "P056"))
                    }
                    4 => {
                        let j = find("[Result").unwrap();
                        let to = if lines[j].contains("\"Saved\"") {
                            "[Result \"Set\"]"
                        } else {
                            "[Result \"Saved\"]"
                        };
                        lines[j] = to.to_string();
                        Some((j, "P057"))
                    }
                    5 => {
                        let j = find("[Declarer").unwrap();
                        let seat = &lines[j][11..12];
                        let other = seats[(seats.iter().position(|s| *s == seat).unwrap() + 2) % 4];
                        lines[j] = format!("[Declarer \"{other}\"]");
                        Some((j, "P058"))
                    }
                    6 => {
                        let j = find("[Contract").unwrap();
                        lines[j] = "[Contract \"999\"]".to_string();
                        Some((j, "P059"))
                    }
                    _ => None,
                };
                if let Some((j, code)) = code {
                    expected.insert((j as u64 + 1, code.to_string()));
                    kind += 1;
                }
            }
        }
        i += 1;
    }
    assert!(expected.len() >= 40, "{}", expected.len());
    let corrupted = lines.join("\n") + "\n";
    let t = tables(corrupted.as_bytes());
    let got: BTreeSet<(u64, String)> = texts(&t[ERRORS], "line")
        .into_iter()
        .zip(texts(&t[ERRORS], "code"))
        .map(|(l, c)| (l.parse().unwrap(), c.trim_matches('"').to_string()))
        .collect();
    assert_eq!(got, expected);
    assert_eq!(
        t[ERRORS].num_rows(),
        expected.len(),
        "one diagnostic per corruption"
    );
    let severities = t[ERRORS]
        .column_by_name("severity")
        .unwrap()
        .as_string::<i32>()
        .clone();
    assert!((0..severities.len()).all(|i| severities.value(i) == "warning"));
}

#[test]
fn import_archive_gives_the_values_of_the_export_archive() {
    let export = tables(&archive(1500, 21, false));
    let import = tables(&archive(1500, 21, true));
    assert!(
        texts(&import[ERRORS], "message").is_empty(),
        "{:?}",
        texts(&import[ERRORS], "message").first()
    );
    assert_rules_agree(&export, &import);
}
