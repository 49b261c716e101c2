//! Every fixture converts into exactly the rows and diagnostics of its golden
//! file, with deckhand's page builders and with the Arrow writer alone.
//! `DECKHAND_BLESS=1` rewrites the golden files.

mod common;

use deckhand::pipeline::Options;
use deckhand::sink::parquet::Writer;

#[test]
fn fixtures_match_golden_files() {
    assert_eq!(common::table_names(), common::TABLES);
    let bless = std::env::var_os("DECKHAND_BLESS").is_some();
    let mut failures = Vec::new();
    let mut all = common::fixtures();
    all.extend(common::fixtures_in("testdata/hostile"));
    for (f, writer) in all
        .iter()
        .flat_map(|f| [Writer::Fast, Writer::Arrow].map(|w| (f.clone(), w)))
    {
        let dir = tempfile::tempdir().unwrap();
        let opts = Options {
            writer,
            ..common::quiet(2)
        };
        let summary = common::convert(std::slice::from_ref(&f), dir.path(), &opts);
        let t = summary.total();
        let mut lines = vec![format!(
            "summary records={} hands={} quarantined={} warnings={} comment_blocks={}",
            t.records, t.converted, t.quarantined, t.warnings, t.comment_blocks
        )];
        lines.extend(common::render(dir.path()));
        let got = lines.join("\n") + "\n";
        let golden = f.with_extension("expected");
        if bless {
            std::fs::write(&golden, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_default();
        if want != got {
            let first = want
                .lines()
                .zip(got.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(want.lines().count().min(got.lines().count()));
            failures.push(format!(
                "{} ({writer:?} writer): differs at line {}:\n  want: {}\n  got:  {}",
                f.display(),
                first + 1,
                want.lines().nth(first).unwrap_or("<end>"),
                got.lines().nth(first).unwrap_or("<end>")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
