//! What a conversion did: records, rows and diagnostics per file and in
//! all.

use super::*;

/// Counts for one input file.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct FileSummary {
    pub path: String,
    /// The notation it was read as (its label); None when none took it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notation: Option<&'static str>,
    pub bytes: u64,
    /// Records found by the splitter (comment-only blocks excluded).
    pub records: u64,
    /// Records converted into rows of their game's record table.
    pub converted: u64,
    pub quarantined: u64,
    pub warnings: u64,
    /// Diagnostics for information, such as why computed values are null.
    pub infos: u64,
    /// Blocks holding only comments or escape lines: not hands, not errors.
    pub comment_blocks: u64,
    /// How the input itself was damaged (a broken compressed stream), if it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_warning: Option<String>,
    /// Errors and warnings by code.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub codes: std::collections::BTreeMap<String, u64>,
    /// The first errors and the first warnings ([`FIRST_DIAGNOSTICS`] of
    /// each), as `file:line:col: severity[code]: message`.
    #[serde(skip)]
    pub first: Vec<String>,
}

/// Errors, and warnings, a summary quotes.
pub const FIRST_DIAGNOSTICS: usize = 5;

/// Adds diagnostic `d` to `first` if it holds fewer than
/// [`FIRST_DIAGNOSTICS`] of its severity.
pub(crate) fn keep_first(first: &mut Vec<String>, d: &str) {
    let error = |x: &str| x.contains(": error[");
    let same = first.iter().filter(|x| error(x) == error(d)).count();
    if same < FIRST_DIAGNOSTICS {
        first.push(d.to_string());
    }
}

impl FileSummary {
    /// Adds another file's counts to these.
    pub fn add(&mut self, f: &FileSummary) {
        self.bytes += f.bytes;
        self.records += f.records;
        self.converted += f.converted;
        self.quarantined += f.quarantined;
        self.warnings += f.warnings;
        self.infos += f.infos;
        self.comment_blocks += f.comment_blocks;
        for (c, n) in &f.codes {
            *self.codes.entry(c.clone()).or_default() += n;
        }
        for d in &f.first {
            keep_first(&mut self.first, d);
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub files: Vec<FileSummary>,
    /// Rows written per table, by its path in the dataset.
    pub rows: Vec<(String, u64)>,
    /// Files found in the inputs' directories that are of no notation.
    pub left_out: Vec<String>,
    pub elapsed: Duration,
}

impl Summary {
    /// The summary as JSON: totals, per-file counts and rows per table.
    /// `records` always equals `converted + quarantined`.
    pub fn to_json(&self) -> String {
        let mut total = self.total();
        total.path = String::new();
        let rows: serde_json::Map<String, serde_json::Value> = self
            .rows
            .iter()
            .map(|(t, n)| (t.to_string(), (*n).into()))
            .collect();
        serde_json::to_string_pretty(&serde_json::json!({
            "deckhand_version": env!("CARGO_PKG_VERSION"),
            "records": total.records,
            "converted": total.converted,
            "quarantined": total.quarantined,
            "warnings": total.warnings,
            "infos": total.infos,
            "comment_blocks": total.comment_blocks,
            "bytes": total.bytes,
            "seconds": self.elapsed.as_secs_f64(),
            "rows": rows,
            "files": self.files,
            "left_out": self.left_out,
        }))
        .expect("serializable")
    }

    pub fn total(&self) -> FileSummary {
        let mut t = FileSummary::default();
        for f in &self.files {
            t.add(f);
        }
        t
    }
}
