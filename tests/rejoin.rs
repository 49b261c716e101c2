//! Valid hands joined with random separators (blank lines of any kind,
//! comment-only blocks holding empty lines), CRLF line ends and a byte-order
//! mark split and parse back to exactly the originals.

use arrow_array::RecordBatch;
use deckhand::pipeline::{Options, parse_bytes};
use deckhand::split::{ItemKind, split_all};
use proptest::prelude::*;

/// Generated hands (EXPORT, with comments and segmental tags), one string each.
fn hands() -> &'static [String] {
    static HANDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    HANDS.get_or_init(|| {
        let opts = deckhand::generate::GenOptions {
            hands: 24,
            seed: 21,
            style: deckhand::generate::write::Style {
                comments: 0.5,
                chat: 0.5,
                ..Default::default()
            },
            ..Default::default()
        };
        let mut text = Vec::new();
        deckhand::generate::generate(&opts, &mut text).unwrap();
        split_all(&text, 0)
            .into_iter()
            .filter(|it| it.kind == ItemKind::Record)
            .map(|it| String::from_utf8(text[it.start as usize..it.end as usize].to_vec()).unwrap())
            // Comment-only blocks are separators here, not hands.
            .filter(|r| r.contains('['))
            .collect()
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
    let opts = Options {
        threads: 2,
        progress: false,
        ..Options::default()
    };
    let mut all: Vec<Vec<RecordBatch>> = vec![Vec::new(); 6];
    let fs = parse_bytes(bytes, "x.ppn", &opts, &mut |t| {
        all.iter_mut().zip(t).for_each(|(a, b)| a.extend(b));
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
                .filter(|&i| {
                    let n = b.schema().field(i).name().clone();
                    !matches!(
                        n.as_str(),
                        "hand_id" | "record_index" | "byte_offset" | "line"
                    )
                })
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
    (fs.hands, out)
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
