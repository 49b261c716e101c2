//! Hostile inputs too large to commit, generated here: a line of millions of
//! characters, a record over the size limit and one over the item limit, read both mapped (in place)
//! and streamed (in pieces, keeping only the record's first bytes).

use crate::common;

use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch};
use deckhand::columns::errors_table::RAW_LIMIT;
use deckhand::notation::pinochle_ppn::MAX_RECORD_BYTES;
use deckhand::pipeline::{FileSummary, Options, parse_bytes, parse_reader};

const GOOD_A: &str = "[Event \"a\"]\n[Dealer \"N\"]";
const GOOD_B: &str = "[Event \"b\"]\n[Dealer \"E\"]";

fn opts() -> Options {
    Options {
        threads: 2,
        progress: false,
        chunk_bytes: 1 << 20,
        ..Options::default()
    }
}

/// Parses `bytes` mapped and streamed; both must give the same batches.
fn both_ways(bytes: &[u8]) -> (FileSummary, Vec<Vec<RecordBatch>>) {
    let mut mapped: Vec<Vec<RecordBatch>> = vec![Vec::new(); 6];
    let fs = parse_bytes(bytes, "big.ppn", &opts(), &mut |t| {
        common::place(&mut mapped, t);
        Ok(())
    })
    .unwrap();
    let mut streamed: Vec<Vec<RecordBatch>> = vec![Vec::new(); 6];
    let mut reader: &[u8] = bytes;
    let fs2 = parse_reader(&mut reader, "big.ppn", &opts(), &mut |t| {
        common::place(&mut streamed, t);
        Ok(())
    })
    .unwrap();
    assert_eq!(fs, fs2);
    let concat =
        |v: &Vec<RecordBatch>| arrow_select::concat::concat_batches(&v[0].schema(), v).unwrap();
    for (m, s) in mapped.iter().zip(&streamed) {
        assert_eq!(concat(m), concat(s));
    }
    (fs, mapped)
}

fn errors(tables: &[Vec<RecordBatch>]) -> Vec<(u64, u64, String, String, Option<usize>)> {
    let mut out = Vec::new();
    for b in &tables[5] {
        let u = |n: &str| {
            b.column_by_name(n)
                .unwrap()
                .as_primitive::<arrow_array::types::Int64Type>()
                .clone()
        };
        let s = |n: &str| b.column_by_name(n).unwrap().as_string::<i32>().clone();
        let (line, col, code, msg, raw) = (u("line"), u("col"), s("code"), s("message"), s("raw"));
        for i in 0..b.num_rows() {
            if code.value(i) == "P061" {
                continue;
            }
            out.push((
                line.value(i) as u64,
                col.value(i) as u64,
                code.value(i).to_string(),
                msg.value(i).to_string(),
                (!raw.is_null(i)).then(|| raw.value(i).len()),
            ));
        }
    }
    out
}

#[test]
fn a_record_over_the_limit_is_quarantined_and_its_neighbours_convert() {
    // One brace comment of 65 MiB inside a record: over the 64 MiB limit.
    let filler = MAX_RECORD_BYTES + (1 << 20);
    let mut text = format!("{GOOD_A}\n\n[Event \"big\"]\n{{").into_bytes();
    text.extend(std::iter::repeat_n(b'x', filler));
    text.extend(format!("}}\n\n{GOOD_B}\n").bytes());
    let (fs, tables) = both_ways(&text);
    assert_eq!((fs.records, fs.converted, fs.quarantined), (3, 2, 1));
    let big_len = 14 + 1 + filler + 1;
    assert_eq!(
        errors(&tables),
        [(
            4,
            1,
            "P009".to_string(),
            format!(
                "record of {big_len} bytes is over the limit of {MAX_RECORD_BYTES} bytes; not converted (raw text truncated)"
            ),
            Some(RAW_LIMIT)
        )]
    );
}

#[test]
fn a_record_of_more_items_than_the_limit_is_quarantined_whole() {
    // An auction of 100,001 bids on one line (300 KB, under the byte limit):
    // quarantined at the bid past the limit, with its raw text; the records
    // around it convert.
    let n = deckhand::notation::pinochle_ppn::MAX_RECORD_ITEMS;
    let bids = "50 ".repeat(n + 1);
    let text = format!("{GOOD_A}\n\n[Event \"bids\"]\n[Auction \"N\"]\n{bids}\n\n{GOOD_B}\n");
    let (fs, tables) = both_ways(text.as_bytes());
    assert_eq!((fs.records, fs.converted, fs.quarantined), (3, 2, 1));
    let raw = "[Event \"bids\"]\n[Auction \"N\"]\n".len() + bids.trim_end().len();
    assert_eq!(
        errors(&tables),
        [(
            6,
            3 * n as u64 + 1,
            "P010".to_string(),
            format!(
                "record has more than {n} section tokens; not converted (a limit that bounds memory)"
            ),
            Some(raw)
        )]
    );
}

#[test]
fn records_under_a_pbn_header_are_quarantined_as_another_notation() {
    // Bridge boards under `% PBN 2.1`, more than a window of them (so that
    // the header is carried from window to window when streamed), between
    // two blocks of pinochle hands: each board is quarantined with P012 and
    // its raw text, not read as a pinochle hand; the hands around convert.
    let board = "[Event \"club\"]\n[Board \"1\"]\n\
                 [Deal \"N:AKQ2.K32.A32.A32 J43.AQ4.K54.K54 T98.JT9.QJT.QJT 765.8765.9876.98\"]\n\
                 [Contract \"3NT\"]";
    let boards = 20_000;
    // A block of comments alone is not a record, under any header.
    let mut text =
        format!("% PPN 1.0\n\n{GOOD_A}\n\n% PBN 2.1\n% EXPORT\n\n{{ boards }}\n; of a club\n\n");
    for _ in 0..boards {
        text += board;
        text += "\n\n";
    }
    text += &format!("% PPN 1.0\n{GOOD_B}\n");
    assert!(text.len() > 2 << 20);
    let (fs, tables) = both_ways(text.as_bytes());
    assert_eq!(
        (
            fs.records,
            fs.converted,
            fs.quarantined,
            fs.comment_blocks,
            fs.warnings
        ),
        (boards + 2, 2, boards, 1, 0)
    );
    let e = errors(&tables);
    assert_eq!(e.len(), boards as usize);
    let message = "the file header '% PBN 2.1' declares Portable Bridge Notation, not Portable \
                   Pinochle Notation ('% PPN'); record not converted as pinochle (convert the \
                   file with --notation pbn)";
    for (k, row) in e.iter().enumerate() {
        let want = (
            12 + 5 * k as u64,
            1,
            "P012".to_string(),
            message.to_string(),
            Some(board.len()),
        );
        assert_eq!(row, &want);
    }
    let events: Vec<String> = tables[0]
        .iter()
        .flat_map(|b| {
            let c = b
                .column_by_name("event")
                .unwrap()
                .as_string::<i32>()
                .clone();
            (0..b.num_rows()).map(move |i| c.value(i).to_string())
        })
        .collect();
    assert_eq!(events, ["a", "b"]);
}

#[test]
fn a_line_of_millions_of_characters_is_one_long_tag() {
    let long = "y".repeat(3_000_000);
    let text = format!("{GOOD_A}\n\n[Event \"{long}\"]\n[Dealer \"S\"]\n\n{GOOD_B}\n");
    let (fs, tables) = both_ways(text.as_bytes());
    assert_eq!((fs.records, fs.converted, fs.quarantined), (3, 3, 0));
    assert_eq!(
        errors(&tables),
        [(
            4,
            1,
            "P100".to_string(),
            "tag Event is 3000010 bytes long; the spec allows 255".to_string(),
            None
        )]
    );
}

#[test]
fn an_unclosed_quote_of_millions_of_characters_ends_at_its_line() {
    let long = "z".repeat(2_000_000);
    let text = format!("{GOOD_A}\n\n[Event \"{long}\n[Dealer \"S\"]\n\n{GOOD_B}\n");
    let (fs, tables) = both_ways(text.as_bytes());
    assert_eq!((fs.records, fs.converted, fs.quarantined), (3, 2, 1));
    let e = errors(&tables);
    assert_eq!(e.len(), 1);
    assert_eq!((e[0].0, e[0].2.as_str()), (4, "P001"));
    // The record runs from its first line to its last; raw text is capped.
    assert_eq!(e[0].4, Some(RAW_LIMIT));
}

#[test]
fn a_record_lists_at_most_a_thousand_warnings_and_counts_the_rest() {
    // A generated hand whose play goes on for 600 tricks of cards already
    // played (2,400 cards its players no longer hold, and trick 20 no longer
    // the last: 2,401 warnings), and a record with 3,000 copies of one tag
    // (2,999): each lists 1,000 warnings and one P101 with the number left
    // out; every trick is still a row.
    let hand = common::generated(1, 4);
    let mut text = String::from_utf8(hand).unwrap().trim_end().to_string();
    text.push('\n');
    text.push_str(&"CA CA CA CA\n".repeat(600));
    text.push_str("\n\n");
    // On one line: at the start of a line, a repeat of the first tag
    // starts another hand.
    text.push_str(&"[Event \"again\"] ".repeat(3000));
    text.push('\n');
    text.push_str(&format!("\n{GOOD_B}\n"));
    let (fs, tables) = both_ways(text.as_bytes());
    assert_eq!((fs.records, fs.converted, fs.quarantined), (3, 3, 0));
    let tricks: usize = tables[3].iter().map(|b| b.num_rows()).sum();
    assert_eq!(tricks, 620);
    // Infos are never left out: each record says why values are null.
    assert_eq!(fs.infos, 3);
    let e = errors(&tables);
    let count = |code: &str| e.iter().filter(|r| r.2 == code).count();
    assert_eq!(
        (count("P051"), count("P020"), count("P101")),
        (1000, 1000, 2)
    );
    let p101: Vec<&str> = e
        .iter()
        .filter(|r| r.2 == "P101")
        .map(|r| r.3.as_str())
        .collect();
    assert_eq!(
        p101,
        [
            "1401 more warnings of this record are not listed (at most 1000 are)",
            "1999 more warnings of this record are not listed (at most 1000 are)"
        ]
    );
    assert_eq!(e.len(), 2002);
}

#[test]
fn a_record_is_read_as_at_most_ten_thousand_hands_within_its_first_8_mib() {
    use deckhand::notation::pinochle_ppn::{MAX_SPLIT_BYTES, MAX_SPLIT_HANDS};
    // 12,000 one-tag hands, no blank line between them: 10,000 hands, the
    // first alone and 9,999 with a P035 warning, then the rest quarantined
    // whole (P011) at the start of the 10,001st.
    let text = format!("{GOOD_A}\n\n{}\n{GOOD_B}\n", "[X \"1\"]\n".repeat(12_000));
    let (fs, tables) = both_ways(text.as_bytes());
    assert_eq!(MAX_SPLIT_HANDS, 10_000);
    assert_eq!(
        (fs.records, fs.converted, fs.quarantined),
        (10_003, 10_002, 1)
    );
    let e = errors(&tables);
    let p035 = e.iter().filter(|r| r.2 == "P035").count();
    let p011: Vec<_> = e.iter().filter(|r| r.2 == "P011").collect();
    assert_eq!(p035, 9_999);
    assert_eq!(p011.len(), 1);
    // Line 4 is the first hand's, line 10,004 the 10,001st's; the raw text
    // is the 2,000 hands left (8 bytes each, less the last line end).
    assert_eq!((p011[0].0, p011[0].1, p011[0].4), (10_004, 1, Some(15_999)));
    assert_eq!(
        p011[0].3,
        "more hands without a blank line between them: a record is read as at most 10000 hands, within its first 8388608 bytes; the rest of it is not converted (a limit that bounds memory)"
    );
    // Eight hands of a 1 MiB comment and two hands: the ninth starts past
    // 8 MiB, and it is quarantined. The splitter does not cut the record
    // before a line below a comment, so it cuts it only before the tenth
    // (see `split::CUT_BYTES`), which is a hand of a record of its own.
    let big = format!("[X \"1\"] {{{}}}\n", "c".repeat(1 << 20));
    let text = format!("{}[X \"2\"]\n[X \"3\"]\n", big.repeat(8));
    assert!(text.len() > MAX_SPLIT_BYTES && 8 * big.len() > MAX_SPLIT_BYTES);
    let (fs, tables) = both_ways(text.as_bytes());
    assert_eq!((fs.records, fs.converted, fs.quarantined), (10, 9, 1));
    let e = errors(&tables);
    let p011: Vec<_> = e.iter().filter(|r| r.2 == "P011").collect();
    assert_eq!((p011.len(), p011[0].0, p011[0].4), (1, 9, Some(7)));
}

/// The `name="..", value=".."` pairs of the other_tags of hand `hand` in
/// rendered tables.
fn other_tags(lines: &[String], hand: usize) -> std::collections::BTreeMap<String, String> {
    let line = lines
        .iter()
        .find(|l| l.starts_with(&format!("pinochle/hands[{hand}] ")))
        .unwrap();
    let list = &line[line.find("other_tags=[").unwrap()..];
    let mut out = std::collections::BTreeMap::new();
    for item in list.split("{name=\"").skip(1) {
        let (name, rest) = item.split_once('"').unwrap();
        let value = rest.split('"').nth(1).unwrap();
        out.insert(name.to_string(), value.to_string());
    }
    out
}

#[test]
fn inheritance_is_the_same_for_a_few_tags_and_for_many() {
    // `#` takes the first value of its name in the hand before; `##` is
    // carried to later hands until the tag is declared plainly. Past 32
    // `#` in a hand, or 32 carried `##` values, names are looked up in maps,
    // not by scans (a hand of 300,000 `#` tags took minutes); the values
    // must be the same.
    for n in [5, 40, 3000] {
        let mut text = String::new();
        for k in 0..n {
            text.push_str(&format!("[T{k} \"a{k}\"]\n[S{k} \"##s{k}\"]\n"));
        }
        // A second tag of the last name (the first is the one `#` takes):
        // past 32 `#`, it is looked up through the map.
        text.push_str(&format!("[T{} \"dup\"]\n\n", n - 1));
        for k in 0..n {
            text.push_str(&format!("[T{k} \"#\"]\n"));
        }
        text.push_str("[S3 \"plain\"]\n\n[Event \"c\"]\n");
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("inherit.ppn");
        std::fs::write(&input, &text).unwrap();
        let out = dir.path().join("out");
        let opts = Options {
            force: true,
            ..opts()
        };
        deckhand::pipeline::convert(std::slice::from_ref(&input), &out, &opts).unwrap();
        let lines = deckhand::columns::render::dataset(&out, &["pinochle/hands"]).unwrap();
        let (b, c) = (other_tags(&lines, 1), other_tags(&lines, 2));
        let s = |k: usize| {
            if k == 3 {
                "plain".into()
            } else {
                format!("s{k}")
            }
        };
        for k in 0..n {
            assert_eq!(b[&format!("T{k}")], format!("a{k}"), "n={n}");
            assert_eq!(b[&format!("S{k}")], s(k), "n={n}");
            assert_eq!(c[&format!("S{k}")], s(k), "n={n}");
        }
        assert_eq!((b.len(), c.len()), (2 * n, n), "n={n}");
    }
}
