//! Every fixture converts into exactly the rows and diagnostics of its golden
//! file, with deckhand's page builders and with the Arrow writer alone.
//! `DECKHAND_BLESS=1` rewrites the golden files.

use crate::common;

use deckhand::pipeline::Options;
use deckhand::sink::writer::Writer;

#[test]
fn fixtures_match_golden_files() {
    assert_eq!(common::table_names(), common::TABLES);
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
        common::golden_compare(&f, &got, &format!("{writer:?} writer"), &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
