//! Valid hands joined with random separators (blank lines of any kind,
//! comment-only blocks holding empty lines), CRLF line ends and a byte-order
//! mark split and parse back to exactly the originals; hands not separated
//! by a blank line parse back to the same rows too.

use crate::common;

use arrow_array::RecordBatch;
use deckhand::notation::pinochle_ppn::generate::write::Style;
use deckhand::notation::tagpair::split::{ItemKind, split_all};
use deckhand::pipeline::{Options, parse_bytes};
use proptest::prelude::*;

/// Generated hands (EXPORT, with comments and segmental tags), one string each.
fn hands() -> &'static [String] {
    static HANDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    HANDS.get_or_init(|| generated(Style::default(), 0.0))
}

/// 24 generated hands of `style` (with comments and segmental tags), a
/// `malformed` fraction of them broken, one string each.
fn generated(style: Style, malformed: f64) -> Vec<String> {
    let opts = deckhand::notation::pinochle_ppn::generate::GenOptions {
        hands: 24,
        seed: 21,
        style: Style {
            comments: 0.5,
            chat: 0.5,
            ..style
        },
        malformed,
        ..Default::default()
    };
    let mut text = Vec::new();
    deckhand::notation::pinochle_ppn::generate::generate(&opts, &mut text).unwrap();
    split_all(&text, 0)
        .into_iter()
        .filter(|it| it.kind == ItemKind::Record)
        .map(|it| String::from_utf8(text[it.start as usize..it.end as usize].to_vec()).unwrap())
        // Comment-only blocks are separators here, not hands.
        .filter(|r| r.contains('['))
        .collect()
}

/// Hands of three styles: EXPORT, EXPORT with `#` and `##` (its first hand
/// has a `##` Site the others leave out) and IMPORT; a fifth of each broken
/// by a syntax error inside a tag (not by text before the first tag, which
/// without a blank line before it reads as tokens of the hand before).
fn styled_hands() -> &'static [Vec<String>; 3] {
    static HANDS: std::sync::OnceLock<[Vec<String>; 3]> = std::sync::OnceLock::new();
    HANDS.get_or_init(|| {
        let styles = [
            Style::default(),
            Style {
                inherit: true,
                ..Style::default()
            },
            Style {
                import: true,
                ..Style::default()
            },
        ];
        styles.map(|s| {
            let mut v = generated(s, 0.2);
            v.retain(|h| !h.starts_with("stray"));
            v
        })
    })
}

const SEPARATORS: &[&str] = &[
    "\n\n",
    "\n \t\n",
    "\n\n\n\n",
    "\n\n{ a comment block\n\nwith an empty line }\n\n",
    "\n   \n{}\n\n",
    "\n\n; a line comment on its own\n\n",
];

/// Position-free rows of every table: hand ids, record indexes, offsets and
/// lines depend on the separators, so they are left out.
fn rows(bytes: &[u8]) -> (u64, Vec<String>) {
    rows_without(
        bytes,
        &[
            "hand_id",
            "record_id",
            "record_index",
            "byte_offset",
            "line",
        ],
    )
}

/// Rows of every table without the columns `left_out`, and the hands.
fn rows_without(bytes: &[u8], left_out: &[&str]) -> (u64, Vec<String>) {
    let opts = Options {
        threads: 2,
        progress: false,
        ..Options::default()
    };
    let mut all: Vec<Vec<RecordBatch>> = vec![Vec::new(); 6];
    let fs = parse_bytes(bytes, "x.ppn", &opts, &mut |t| {
        common::place(&mut all, t);
        Ok(())
    })
    .unwrap();
    let mut out = Vec::new();
    for (name, batches) in ["hands", "seats", "bids", "tricks", "notes", "errors"]
        .iter()
        .zip(&all)
    {
        for b in batches {
            let keep: Vec<usize> = (0..b.num_columns())
                .filter(|&i| !left_out.contains(&b.schema().field(i).name().as_str()))
                .collect();
            deckhand::columns::render::rows(name, &b.project(&keep).unwrap(), 0, &mut out);
        }
    }
    // Row numbers restart per batch: compare the rows themselves.
    let out = out
        .into_iter()
        .map(|l| {
            l.split_once(' ')
                .map_or(l.clone(), |(_, rest)| rest.to_string())
        })
        .collect();
    (fs.converted, out)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn joined_hands_split_and_parse_back(
        picks in prop::collection::vec((0usize..24, 0usize..SEPARATORS.len()), 1..10),
        lead in 0usize..SEPARATORS.len(),
        crlf in any::<bool>(),
        bom in any::<bool>(),
    ) {
        let pool = hands();
        let chosen: Vec<&String> = picks.iter().map(|&(h, _)| &pool[h % pool.len()]).collect();
        // Canonical: LF, one blank line between hands.
        let canonical = chosen.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n\n") + "\n";
        let mut text = String::from(SEPARATORS[lead].trim_start_matches('\n'));
        for (h, &(_, sep)) in chosen.iter().zip(&picks) {
            text.push_str(h);
            text.push_str(SEPARATORS[sep]);
        }
        if crlf {
            text = text.replace('\n', "\r\n");
        }
        let mut bytes = Vec::new();
        if bom {
            bytes.extend_from_slice(b"\xEF\xBB\xBF");
        }
        bytes.extend_from_slice(text.as_bytes());
        // Split: the records holding tags are exactly the hands, in order.
        let start = if bom { 3 } else { 0 };
        let found: Vec<String> = split_all(&bytes, start)
            .into_iter()
            .filter(|it| it.kind == ItemKind::Record)
            .map(|it| String::from_utf8(bytes[it.start as usize..it.end as usize].to_vec()).unwrap().replace("\r\n", "\n"))
            .filter(|r| r.contains('['))
            .collect();
        prop_assert_eq!(&found, &chosen.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        // Parse: the same values as the canonical file.
        let (n, got) = rows(&bytes);
        let (m, want) = rows(canonical.as_bytes());
        prop_assert_eq!(n, chosen.len() as u64);
        prop_assert_eq!(m, chosen.len() as u64);
        prop_assert_eq!(got, want);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn hands_without_blank_lines_between_parse_back(
        style in 0usize..3,
        picks in prop::collection::vec((0usize..64, any::<bool>()), 1..10),
        crlf in any::<bool>(),
    ) {
        let pool = &styled_hands()[style];
        // The `##` Site hand first: a hand that starts with a tag the hand
        // before lacks is not told apart from the end of that hand.
        let chosen: Vec<&String> = std::iter::once(&pool[0])
            .filter(|_| style == 1)
            .chain(picks.iter().map(|&(h, _)| &pool[1 + h % (pool.len() - 1)]))
            .collect();
        let canonical = chosen.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n\n") + "\n";
        // Some hands after a blank line, the others right after the hand before.
        let mut text = String::new();
        let blank = std::iter::once(false).chain(picks.iter().map(|p| p.1));
        let mut apart = 0;
        for (h, blank) in chosen.iter().zip(blank) {
            if !text.is_empty() {
                text.push_str(if blank { "\n\n" } else { "\n" });
                apart += u64::from(!blank);
            }
            text.push_str(h);
        }
        text.push('\n');
        if crlf {
            text = text.replace('\n', "\r\n");
        }
        let canonical = if crlf { canonical.replace('\n', "\r\n") } else { canonical };
        // The same rows, hand ids and record indexes included (each hand is a
        // record of its own), but for offsets, lines and one P035 warning a
        // hand that follows the one before without a blank line.
        let (n, m, p035, got, want) = without_blank_lines(&text, &canonical);
        prop_assert_eq!(m, chosen.iter().filter(|h| !is_malformed(h)).count() as u64);
        prop_assert_eq!(n, m);
        prop_assert_eq!(p035 as u64, apart);
        prop_assert_eq!(got, want);
    }
}

/// `text` (hands without blank lines between some) and `canonical` (the
/// same hands with them) parsed: their hands, the P035 warnings of `text`,
/// and the rows of each but for offsets, lines and those warnings.
fn without_blank_lines(text: &str, canonical: &str) -> (u64, u64, usize, Vec<String>, Vec<String>) {
    let places = ["byte_offset", "line"];
    let (n, got) = rows_without(text.as_bytes(), &places);
    let (m, want) = rows_without(canonical.as_bytes(), &places);
    let (p035, got): (Vec<String>, Vec<String>) =
        got.into_iter().partition(|r| r.contains("code=\"P035\""));
    (n, m, p035.len(), got, want)
}

/// Whether a generated hand was broken on purpose (a tag without its closing
/// quote or without its opening one).
fn is_malformed(hand: &str) -> bool {
    hand.lines()
        .any(|l| l.starts_with('[') && l.matches('"').count() == 1)
}

#[test]
fn a_file_without_blank_lines_is_read_in_records_of_about_a_mebibyte() {
    use deckhand::notation::tagpair::split::CUT_BYTES;
    // Some 2.5 MiB of hands of each style, none after a blank line: the
    // splitter cuts the record before a hand's first tag past each MiB
    // (mapped and streamed alike: `tests/pinochle/hostile.rs`), and the rows are
    // those of the same hands with blank lines, but for offsets, lines and
    // a P035 warning for each hand after the first.
    for (style, pool) in styled_hands().iter().enumerate() {
        let mut chosen: Vec<&String> = Vec::new();
        let mut len = 0;
        for h in std::iter::once(&pool[0]).chain(pool[1..].iter().cycle()) {
            if len > 5 * CUT_BYTES / 2 {
                break;
            }
            len += h.len() + 1;
            chosen.push(h);
        }
        let join = |sep: &str| {
            chosen
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(sep)
                + "\n"
        };
        let (text, canonical) = (join("\n"), join("\n\n"));
        let records = split_all(text.as_bytes(), 0);
        assert_eq!(records.len(), 3, "style {style}");
        for (k, r) in records.iter().enumerate() {
            assert_eq!(r.joined, k > 0);
            // Not before a hand with comments or segmental tags above it.
            assert!(r.end - r.start < CUT_BYTES as u64 + 16384);
        }
        let (n, m, p035, got, want) = without_blank_lines(&text, &canonical);
        assert_eq!(m, chosen.iter().filter(|h| !is_malformed(h)).count() as u64);
        assert_eq!(n, m);
        assert_eq!(p035, chosen.len() - 1);
        assert_eq!(got, want, "style {style}");
    }
}
