//! `deckhand export`: canonical EXPORT PPN that converts back to the same
//! values, plus those the rules filled in.

use crate::common;

use deckhand::notation::pinochle_ppn::generate::{GenOptions, generate, write::Style};
use deckhand::pipeline::Options;

fn export_bytes(input: &[u8]) -> String {
    export_with(
        input,
        &Options {
            progress: false,
            ..Options::default()
        },
    )
}

fn export_with(input: &[u8], opts: &Options) -> String {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("in.ppn");
    std::fs::write(&p, input).unwrap();
    let mut out = Vec::new();
    deckhand::export::pinochle::export(&[p], opts, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn generated(import: bool) -> Vec<u8> {
    let mut v = Vec::new();
    let opts = GenOptions {
        hands: 400,
        seed: 3,
        style: Style {
            import,
            comments: 0.3,
            chat: 0.3,
            inherit: false,
            points_alone: false,
        },
        terminated: 0.05,
        ..GenOptions::default()
    };
    generate(&opts, &mut v).unwrap();
    v
}

#[test]
fn exporting_a_generated_export_archive_reproduces_it() {
    let original = String::from_utf8(generated(false)).unwrap();
    let without_generator_line: String = original
        .lines()
        .filter(|l| !l.starts_with("% Generated"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(export_bytes(original.as_bytes()), without_generator_line);
}

#[test]
fn exporting_an_import_archive_fills_in_the_game() {
    let full = export_bytes(&generated(false));
    let from_import = export_bytes(&generated(true));
    // Names, site, date, hand numbers and game scores are not in IMPORT files;
    // everything about the game itself is rebuilt, except the deal of a
    // terminated hand (its play is incomplete) and its melds.
    let keep = |l: &&str| {
        ![
            "[Site ",
            "[Date ",
            "[North ",
            "[East ",
            "[South ",
            "[West ",
            "[Hand ",
            "[GameScores ",
            "[Victor ",
            "[Play \"*\"]",
        ]
        .iter()
        .any(|p| l.starts_with(p))
    };
    let a: Vec<&str> = full.lines().filter(keep).collect();
    let b: Vec<&str> = from_import.lines().filter(keep).collect();
    assert_eq!(a.len(), b.len());
    let mut differing = 0;
    for (x, y) in a.iter().zip(&b) {
        if x != y {
            assert!(
                (x.starts_with("[Deal ") || x.starts_with("[Melds ")) && y.ends_with("\"?\"]"),
                "{x}\n{y}"
            );
            differing += 1;
        }
    }
    // Only terminated hands (about 5% of 400) lose their deal.
    assert!(differing > 0 && differing < 80, "{differing}");
}

/// Groups are rendered in parallel and written in order: the text is the
/// same for any thread count and group size, with a header before a file's
/// first record, whether that record is a hand or a copied one, and another
/// before the first hand when that header does not give the hand's file ID.
#[test]
fn groups_rendered_in_parallel_give_the_same_text() {
    let mut input = b"% PPN 1.0\n% ID deckhand-test\n%\n[Trump S]\n\n".to_vec();
    let archive = generated(false);
    // Past the generator's header, a few malformed records among the hands.
    let archive = String::from_utf8(archive).unwrap();
    let (_, body) = archive.split_once("\n%\n").unwrap();
    for (k, record) in body.split_terminator("\n\n").enumerate() {
        input.extend_from_slice(record.as_bytes());
        input.extend_from_slice(b"\n\n");
        if k % 97 == 5 {
            input.extend_from_slice(b"[Contract \"unterminated]\n\n");
        }
    }
    let one = export_with(
        &input,
        &Options {
            progress: false,
            threads: 1,
            ..Options::default()
        },
    );
    let many = export_with(
        &input,
        &Options {
            progress: false,
            threads: 3,
            group_bytes: 2 << 10,
            chunk_bytes: 16 << 10,
            ..Options::default()
        },
    );
    assert_eq!(one, many);
    assert_eq!(one.matches("% PPN 1.0").count(), 2);
    // The first record is a copied one, so the first header has no ID; the
    // hands get theirs (one header, before the first hand, was all before:
    // the hands lost their ID).
    assert!(
        one.starts_with(
            "% PPN 1.0\n% EXPORT\n%\n[Trump S]\n\n% PPN 1.0\n% EXPORT\n% ID deckhand-test\n%\n{ Hand 1"
        ),
        "{}",
        &one[..120]
    );
    assert_eq!(one.matches("[Contract \"unterminated]").count(), 5);
    let hands = one.matches("[Deal ").count();
    assert_eq!(hands, 400);
}

#[test]
fn export_is_idempotent_on_every_fixture() {
    for f in common::fixtures() {
        let once = export_bytes(&std::fs::read(&f).unwrap());
        let twice = export_bytes(once.as_bytes());
        assert_eq!(once, twice, "{}", f.display());
    }
}

/// Rows of one table, each as (column, value) pairs, from the rendering.
fn table_rows(lines: &[String], table: &str) -> Vec<Vec<(String, String)>> {
    lines
        .iter()
        .filter(|l| l.starts_with(&format!("{table}[")))
        .map(|l| {
            // `name=value` pairs; values never hold " name=" except quoted text,
            // which the comparisons below do not look into.
            let body = l.split_once(' ').map_or("", |x| x.1);
            let mut pairs = Vec::new();
            let mut rest = body;
            while let Some(eq) = rest.find('=') {
                let name = rest[..eq].to_string();
                let after = &rest[eq + 1..];
                let next = after.find(" hand_id=").or_else(|| {
                    after.match_indices(' ').map(|(i, _)| i).find(|&i| {
                        after[i + 1..].split('=').next().is_some_and(|n| {
                            !n.is_empty() && n.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                        })
                    })
                });
                let (value, tail) = match next {
                    Some(i) => (&after[..i], &after[i + 1..]),
                    None => (after, ""),
                };
                pairs.push((name, value.to_string()));
                rest = tail;
            }
            pairs
        })
        .collect()
}

fn get<'r>(row: &'r [(String, String)], col: &str) -> Option<&'r str> {
    row.iter().find(|(n, _)| n == col).map(|(_, v)| v.as_str())
}

#[test]
fn converting_the_export_gives_the_original_values_plus_filled_ones() {
    for f in common::fixtures() {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let dir = tempfile::tempdir().unwrap();
        let exported = dir.path().join("x.ppn");
        std::fs::write(&exported, export_bytes(&std::fs::read(&f).unwrap())).unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        common::convert(std::slice::from_ref(&f), &a, &common::quiet(1));
        common::convert(&[exported], &b, &common::quiet(1));
        let (ra, rb) = (common::render(&a), common::render(&b));
        let (ha, hb) = (table_rows(&ra, "hands"), table_rows(&rb, "hands"));
        assert_eq!(ha.len(), hb.len(), "{name}");
        for (x, y) in ha.iter().zip(&hb) {
            for col in [
                "event",
                "round",
                "stage",
                "room",
                "competition",
                "scoring",
                "annotator",
                "language",
                "players",
                "hand_number",
                "dealer",
                "declarer",
                "contract",
                "trump",
                "result",
                "termination_seat",
                "termination_cause",
                "game_scores",
                "meld_scores",
                "play_scores",
                "hand_scores",
                "victor",
                "deal",
                "kitty",
                "discard",
                "partner_seat",
                "partner_card",
                "auction_start",
                "play_start",
            ] {
                let (va, vb) = (get(x, col), get(y, col));
                if va.is_some() {
                    assert_eq!(va, vb, "{name}: {col}");
                } else if let Some(vb) = vb {
                    // Filled in: from the rules, or `?`/`0:0` for what is unknown.
                    let computed = get(x, &format!("computed_{col}"));
                    assert!(
                        Some(vb) == computed || vb == "\"?\"" || vb == "[0, 0]" || col == "deal",
                        "{name}: {col} filled with {vb}, computed {computed:?}"
                    );
                }
            }
        }
        for table in ["bids", "tricks", "seats"] {
            let (ta, tb) = (table_rows(&ra, table), table_rows(&rb, table));
            assert_eq!(ta.len(), tb.len(), "{name}: {table}");
            for (x, y) in ta.iter().zip(&tb) {
                for col in [
                    "seq",
                    "round",
                    "seat",
                    "call",
                    "bid",
                    "trick",
                    "cards",
                    "winner",
                    "points",
                    "player",
                    "dealt",
                    "meld_cards",
                    "meld_points",
                ] {
                    if let Some(va) = get(x, col) {
                        assert_eq!(Some(va), get(y, col), "{name}: {table}.{col}");
                    }
                }
            }
        }
    }
}

#[test]
fn a_record_of_many_unknown_tags_with_sections_exports_them_all_in_order() {
    // 99,999 unknown tags (and Event: as many tags as a record may hold),
    // every tenth followed by section tokens of its own: each is written
    // back once, in order, with its own tokens (they were looked up by a
    // scan a tag).
    let mut text = String::from("[Event \"many\"]\n");
    for k in 0..99_999 {
        text.push_str(&format!("[Tag{k} \"v{k}\"]\n"));
        if k % 10 == 0 {
            text.push_str(&format!("t{k} u{k}\n"));
        }
    }
    let out = export_bytes(text.as_bytes());
    let lines: Vec<&str> = out.lines().collect();
    let at = |l: &str| lines.iter().position(|x| *x == l).unwrap();
    let first = at("[Tag0 \"v0\"]");
    for k in [0, 1, 10, 99_990, 99_998] {
        let tag = at(&format!("[Tag{k} \"v{k}\"]"));
        let extra = (0..k).filter(|j| j % 10 == 0).count();
        assert_eq!(tag, first + k + extra, "Tag{k}");
        if k % 10 == 0 {
            assert_eq!(lines[tag + 1], format!("t{k} u{k}"));
        } else {
            assert!(!lines.get(tag + 1).is_some_and(|l| l.starts_with('t')));
        }
    }
    assert_eq!(out.matches("[Tag").count(), 99_999);
}

#[test]
fn files_exported_together_are_each_file_exported_alone() {
    // Each file's records follow the header of its own: runs of small files
    // are built together (tables that span files, a file's groups in more
    // than one of them when groups are small), then handed over a file at a
    // time.
    let mut inputs = common::fixtures();
    inputs.extend(common::fixtures_in("testdata/hostile"));
    // A file with no diagnostic at all, then one whose first record is
    // copied unchanged (it must not be copied into the file before too).
    let dir = tempfile::tempdir().unwrap();
    let clean = dir.path().join("clean.ppn");
    let gen_opts = deckhand::notation::pinochle_ppn::generate::GenOptions {
        hands: 2,
        seed: 3,
        ..Default::default()
    };
    deckhand::notation::pinochle_ppn::generate::generate(
        &gen_opts,
        &mut std::fs::File::create(&clean).unwrap(),
    )
    .unwrap();
    let broken = dir.path().join("broken_first.ppn");
    std::fs::write(&broken, "[Event \"broken\n\n[Event \"fine\"]\n").unwrap();
    inputs.insert(0, clean);
    inputs.insert(1, broken);
    for (threads, group_bytes) in [(2, 256 << 10), (2, 1 << 10), (1, 300), (3, 4 << 10)] {
        let opts = Options {
            progress: false,
            join_small_inputs: true,
            threads,
            group_bytes,
            ..Options::default()
        };
        let export = |inputs: &[std::path::PathBuf]| {
            let mut out = Vec::new();
            deckhand::export::pinochle::export(inputs, &opts, &mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        let bare = export(&[]);
        let alone: String = inputs
            .iter()
            .map(|p| export(std::slice::from_ref(p)))
            .filter(|t| *t != bare)
            .collect();
        assert!(alone.matches("% EXPORT").count() > 5);
        assert_eq!(
            export(&inputs),
            alone,
            "{threads} threads, groups of {group_bytes}"
        );
    }
}

/// Files joined into one (`cat a.ppn b.ppn`) keep each header's file ID:
/// a header is written again where the hands' ID changes (the export gave
/// every hand the first header's ID before), and the export of the export
/// is the same text.
#[test]
fn files_joined_into_one_keep_each_header_id() {
    let input = b"% PPN 1.0\n% EXPORT\n% ID alpha\n%\n[Event \"one\"]\n\n[Event \"one more\"]\n\n\
% PPN 1.0\n% EXPORT\n% ID beta\n%\n[Event \"two\"]\n\n% PPN 1.0\n%\n[Event \"three\"]\n";
    let opts = Options {
        progress: false,
        ..Options::default()
    };
    let once = export_with(input, &opts);
    let at = |s: &str| once.find(s).unwrap_or_else(|| panic!("{s} in {once}"));
    assert_eq!(once.matches("% PPN 1.0").count(), 3, "{once}");
    assert!(at("% ID alpha") < at("[Event \"one\"]"));
    assert!(at("[Event \"one more\"]") < at("% ID beta"));
    assert!(at("% ID beta") < at("[Event \"two\"]"));
    assert!(at("[Event \"two\"]") < once.rfind("% PPN 1.0").unwrap());
    assert!(once.rfind("% PPN 1.0").unwrap() < at("[Event \"three\"]"));
    assert_eq!(once.matches("% ID").count(), 2, "{once}");
    assert_eq!(export_with(once.as_bytes(), &opts), once);
}
