//! `deckhand export --to pbn|rbn|rbx`: bridge boards of any bridge notation
//! (PBN, RBN, RBX) written in one of them, from the rows `convert` builds,
//! so that an export says exactly what the conversion understood.
//!
//! - **PBN**: export format (`% PBN 2.1`, `% EXPORT`): comments first, the
//!   mandatory tags in the spec's order (`?` for a value not known), Room
//!   and Score, the other tags, the Auction and Play sections with their
//!   notes, the board's tables.
//! - **RBN**: labels in the standard order `DTLEFSKNBHACPRMI`, notes after
//!   the A or P label they belong to, free text before H; LF line ends;
//!   the database rules applied (a repeating label is left out where it
//!   repeats, given bare where it stops).
//! - **RBX**: the RBN record on one line.
//!
//! What the target cannot hold is counted by kind and said when the export
//! ends ([`Lost`]); records that could not be converted are written as `%`
//! lines (escape lines: not data in either notation) with their text.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

use arrow_array::RecordBatch;

use crate::Error;
use crate::columns::access::Cols;
use crate::columns::date::civil_from_days;
use crate::games::bridge::seat::Seat;
use crate::games::bridge::tables::BRIDGE_TABLES;
use crate::notation::rbn::record::{Carry, Given, REPEATING};
use crate::notation::tagpair::text::write_tag;
use crate::pipeline::{FileSummary, Options, parse_inputs};

mod pbn;
mod rbn;

/// The notation to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Pbn,
    Rbn,
    Rbx,
}

impl Target {
    pub fn parse(s: &str) -> Option<Target> {
        match s.to_ascii_lowercase().as_str() {
            "pbn" => Some(Target::Pbn),
            "rbn" => Some(Target::Rbn),
            "rbx" => Some(Target::Rbx),
            _ => None,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Target::Pbn => "PBN",
            Target::Rbn => "RBN",
            Target::Rbx => "RBX",
        }
    }
}

/// What the export could not write in the target notation, by kind, with
/// how many times.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Lost(pub BTreeMap<&'static str, u64>);

impl Lost {
    fn add(&mut self, what: &'static str) {
        *self.0.entry(what).or_default() += 1;
    }
}

#[derive(Debug, Default)]
pub struct BridgeExportReport {
    pub files: usize,
    pub total: FileSummary,
    pub boards: u64,
    pub lost: Lost,
}

/// A call as the `calls` table has it.
struct CallRow<'b> {
    seat: Option<&'b str>,
    call: &'b str,
    annotation: Option<&'b str>,
    note: Option<i32>,
}

/// A card as the `plays` table has it.
struct PlayRow<'b> {
    trick: i32,
    seat: Option<&'b str>,
    card: Option<&'b str>,
    text: Option<&'b str>,
    annotation: Option<&'b str>,
    note: Option<i32>,
}

struct NoteRow<'b> {
    section: &'b str,
    number: Option<i32>,
    text: &'b str,
}

/// One board's rows.
struct Board<'b> {
    notation: &'b str,
    event: Option<&'b str>,
    site: Option<&'b str>,
    date: Option<i32>,
    date_text: Option<&'b str>,
    board: Option<&'b str>,
    /// N E S W.
    players: [Option<&'b str>; 4],
    room: Option<&'b str>,
    scoring: Option<&'b str>,
    dealer: Option<&'b str>,
    vulnerable: Option<&'b str>,
    deal: Option<&'b str>,
    deal_text: Option<&'b str>,
    declarer: Option<&'b str>,
    declarer_irregular: bool,
    contract: Option<&'b str>,
    contract_level: Option<i32>,
    contract_strain: Option<&'b str>,
    contract_risk: Option<&'b str>,
    result: Option<i32>,
    score_ns: Option<i32>,
    opening_leader: Option<&'b str>,
    comments: Vec<&'b str>,
    others: Vec<(&'b str, Option<&'b str>)>,
    calls: Vec<CallRow<'b>>,
    plays: Vec<PlayRow<'b>>,
    notes: Vec<NoteRow<'b>>,
    /// Each trick's leader.
    leaders: Vec<Option<&'b str>>,
    /// (table, row, column, value).
    tables: Vec<(&'b str, i32, &'b str, &'b str)>,
    /// (declarer, strain, tricks).
    dd: Vec<(&'b str, &'b str, Option<i32>)>,
}

/// Rows of a child table that belong to `id`, from `*at` on.
fn rows_for(c: &Cols<'_>, at: &mut usize, id: i64) -> std::ops::Range<usize> {
    let start = *at;
    let ids = c.col("board_id");
    while *at < c.num_rows() && ids.u64(*at) as i64 == id {
        *at += 1;
    }
    start..*at
}

/// The tables of one window, each one batch.
struct Window {
    t: Vec<RecordBatch>,
}

impl Window {
    /// The boards of the window, with the quarantined records' raw text
    /// between them (by record index).
    fn render(&self, target: Target, w: &mut Writer, out: &mut String) {
        let boards = Cols::new(&self.t[0]);
        let seats = Cols::new(&self.t[1]);
        let calls = Cols::new(&self.t[2]);
        let plays = Cols::new(&self.t[3]);
        let tricks = Cols::new(&self.t[4]);
        let notes = Cols::new(&self.t[5]);
        let tables = Cols::new(&self.t[6]);
        let dd = Cols::new(&self.t[7]);
        let errors = Cols::new(&self.t[8]);
        let raws: Vec<(u64, &str, Option<&str>)> = (0..errors.num_rows())
            .filter_map(|i| {
                let raw = errors.str("raw", i)?;
                Some((
                    errors.u64("record_index", i),
                    raw,
                    errors.str("notation", i),
                ))
            })
            .collect();
        let mut raw_at = 0;
        let (mut s_at, mut c_at, mut p_at, mut n_at, mut t_at, mut d_at) = (0, 0, 0, 0, 0, 0);
        let mut k_at = 0;
        for i in 0..boards.num_rows() {
            let record = boards.u64("record_index", i);
            while raw_at < raws.len() && raws[raw_at].0 < record {
                w.raw(target, raws[raw_at].1, raws[raw_at].2, out);
                raw_at += 1;
            }
            let id = boards.u64("board_id", i) as i64;
            let s = rows_for(&seats, &mut s_at, id);
            let mut players = [None; 4];
            for j in s {
                if let Some(k) = seats.str("seat", j).and_then(seat_index) {
                    players[k] = seats.str("player", j);
                }
            }
            let b = Board {
                notation: boards.str("notation", i).unwrap_or(""),
                event: boards.str("event", i),
                site: boards.str("site", i),
                date: boards.date("date", i),
                date_text: boards.str("date_text", i),
                board: boards.str("board", i),
                players,
                room: boards.str("room", i),
                scoring: boards.str("scoring", i),
                dealer: boards.str("dealer", i),
                vulnerable: boards.str("vulnerable", i),
                deal: boards.str("deal", i),
                deal_text: boards.str("deal_text", i),
                declarer: boards.str("declarer", i),
                declarer_irregular: boards.bool("declarer_irregular", i) == Some(true),
                contract: boards.str("contract", i),
                contract_level: boards.i32("contract_level", i),
                contract_strain: boards.str("contract_strain", i),
                contract_risk: boards.str("contract_risk", i),
                result: boards.i32("result", i),
                score_ns: boards.i32("score_ns", i),
                opening_leader: boards.str("opening_leader", i),
                comments: boards.strs("comments", i).unwrap_or_default(),
                others: boards.kvs("other_tags", i),
                calls: rows_for(&calls, &mut c_at, id)
                    .map(|j| CallRow {
                        seat: calls.str("seat", j),
                        call: calls.str("call", j).unwrap_or("Pass"),
                        annotation: calls.str("annotation", j),
                        note: calls.i32("note_number", j),
                    })
                    .collect(),
                plays: rows_for(&plays, &mut p_at, id)
                    .map(|j| PlayRow {
                        trick: plays.i32("trick", j).unwrap_or(0),
                        seat: plays.str("seat", j),
                        card: plays.str("card", j),
                        text: plays.str("text", j),
                        annotation: plays.str("annotation", j),
                        note: plays.i32("note_number", j),
                    })
                    .collect(),
                leaders: rows_for(&tricks, &mut k_at, id)
                    .map(|j| tricks.str("leader", j))
                    .collect(),
                notes: rows_for(&notes, &mut n_at, id)
                    .map(|j| NoteRow {
                        section: notes.str("section", j).unwrap_or("board"),
                        number: notes.i32("number", j),
                        text: notes.str("text", j).unwrap_or(""),
                    })
                    .collect(),
                tables: rows_for(&tables, &mut t_at, id)
                    .map(|j| {
                        (
                            tables.str("table", j).unwrap_or(""),
                            tables.i32("row", j).unwrap_or(0),
                            tables.str("column", j).unwrap_or(""),
                            tables.str("value", j).unwrap_or(""),
                        )
                    })
                    .collect(),
                dd: rows_for(&dd, &mut d_at, id)
                    .map(|j| {
                        (
                            dd.str("declarer", j).unwrap_or("N"),
                            dd.str("strain", j).unwrap_or("NT"),
                            dd.i32("tricks", j),
                        )
                    })
                    .collect(),
            };
            match target {
                Target::Pbn => w.pbn(&b, out),
                Target::Rbn => w.rbn(&b, false, out),
                Target::Rbx => w.rbn(&b, true, out),
            }
            w.boards += 1;
        }
        for r in &raws[raw_at..] {
            w.raw(target, r.1, r.2, out);
        }
    }
}

fn seat_index(s: &str) -> Option<usize> {
    Some(match s {
        "N" => 0,
        "E" => 1,
        "S" => 2,
        "W" => 3,
        _ => return None,
    })
}

/// What runs from board to board in the output: the RBN repeating labels
/// as a reader would carry them, whether a header is written, what was
/// lost.
#[derive(Default)]
struct Writer {
    carry: Carry,
    header: bool,
    boards: u64,
    lost: Lost,
}

impl Writer {
    /// A quarantined record: kept as `%` lines (escape lines, data in
    /// neither notation), each marked so that none reads as a file header.
    fn raw(&mut self, target: Target, raw: &str, _notation: Option<&str>, out: &mut String) {
        self.head(target, out);
        self.lost.add("records not converted (kept as % lines)");
        for l in raw.lines() {
            if target == Target::Rbx {
                let _ = writeln!(out, "%{{not converted: {}}}", l.replace(['{', '}'], ""));
            } else {
                let _ = writeln!(out, "% not converted: {l}");
            }
        }
        if target != Target::Rbx {
            out.push('\n');
        }
    }

    fn head(&mut self, target: Target, out: &mut String) {
        if std::mem::replace(&mut self.header, true) {
            return;
        }
        match target {
            Target::Pbn => out.push_str("% PBN 2.1\n% EXPORT\n\n"),
            // The signature starts the first record (a blank line after it
            // would make a record of its own).
            Target::Rbn => out.push_str("% RBN 3.2 deckhand\n"),
            Target::Rbx => out.push_str("%{RBX}"),
        }
    }

    // ---- PBN ----

    // ---- RBN ----
}

/// Writes every bridge input in `target` to `out`.
pub fn export(
    inputs: &[PathBuf],
    opts: &Options,
    target: Target,
    out: &mut dyn Write,
) -> Result<BridgeExportReport, Error> {
    let werr = |source| Error::Write {
        path: PathBuf::from("export output"),
        source,
    };
    let opts = &Options {
        hand_over_by_file: true,
        ..opts.clone()
    };
    let mut w = Writer::default();
    let mut failed: Option<std::io::Error> = None;
    let files = parse_inputs(inputs, opts, None, &mut |file, t| {
        if t.first()
            .is_some_and(|(decl, _)| **decl != *BRIDGE_TABLES[0])
        {
            return Err(Error::WrongNotation(
                file.name.clone().into(),
                format!(
                    "export --to {} writes bridge boards and reads PBN, RBN or RBX only",
                    target.label().to_ascii_lowercase()
                ),
            ));
        }
        let tables: Vec<RecordBatch> = t
            .into_iter()
            .map(|(decl, b)| {
                let schema = b
                    .first()
                    .map(|x| x.schema())
                    .unwrap_or_else(|| (decl.schema)());
                arrow_select::concat::concat_batches(&schema, &b).expect("same schema")
            })
            .collect();
        let mut text = String::new();
        Window { t: tables }.render(target, &mut w, &mut text);
        if let Err(e) = out.write_all(text.as_bytes())
            && failed.is_none()
        {
            failed = Some(e);
        }
        Ok(())
    })?;
    if let Some(e) = failed {
        return Err(werr(e));
    }
    if !w.header {
        let mut text = String::new();
        w.head(target, &mut text);
        if target != Target::Pbn {
            text.push('\n');
        }
        out.write_all(text.as_bytes()).map_err(werr)?;
    }
    out.flush().map_err(werr)?;
    let mut report = BridgeExportReport {
        files: files.len(),
        boards: w.boards,
        lost: w.lost,
        ..Default::default()
    };
    for f in &files {
        report.total.add(f);
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::pbn::{cell, pbn_date};
    use super::rbn::rbn_date;
    use super::*;

    #[test]
    fn cells_are_quoted_unless_plain_tokens() {
        assert_eq!(cell("-"), "-");
        assert_eq!(cell("620"), "620");
        assert_eq!(cell("Jansen, J."), "\"Jansen, J.\"");
        // A brace would open a PBN comment (found by bridge_export).
        assert_eq!(cell("B{1}H{N"), "\"B{1}H{N\"");
        assert_eq!(cell("[Note"), "\"[Note\"");
        assert_eq!(cell("a\"b"), "\"a\\\"b\"");
        assert_eq!(cell(""), "\"\"");
    }

    #[test]
    fn dates_between_the_notations() {
        let mut b = board();
        b.notation = "RBN";
        for (rbn, pbn) in [
            ("19930512", "1993.05.12"),
            ("199709", "1997.09.??"),
            ("1955C", "1955.??.??"),
            ("199709C", "1997.09.??"),
            ("1986120911", "1986.12.??"),
            ("????0612", "????.06.12"),
        ] {
            b.date_text = Some(rbn);
            assert_eq!(pbn_date(&b), pbn, "{rbn}");
        }
        b.notation = "PBN";
        for (pbn, rbn) in [
            ("1995.06.??", Some("199506")),
            ("????.06.12", Some("????0612")),
            ("????.??.??", None),
            ("1995.o6.10", None),
        ] {
            b.date_text = Some(pbn);
            assert_eq!(rbn_date(&b).as_deref(), rbn, "{pbn}");
        }
    }

    fn board() -> Board<'static> {
        Board {
            notation: "PBN",
            event: None,
            site: None,
            date: None,
            date_text: None,
            board: None,
            players: [None; 4],
            room: None,
            scoring: None,
            dealer: None,
            vulnerable: None,
            deal: None,
            deal_text: None,
            declarer: None,
            declarer_irregular: false,
            contract: None,
            contract_level: None,
            contract_strain: None,
            contract_risk: None,
            result: None,
            score_ns: None,
            opening_leader: None,
            comments: Vec::new(),
            others: Vec::new(),
            calls: Vec::new(),
            plays: Vec::new(),
            notes: Vec::new(),
            leaders: Vec::new(),
            tables: Vec::new(),
            dd: Vec::new(),
        }
    }
}
