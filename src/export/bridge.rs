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

/// An RBN record being written: its lines.
#[derive(Default)]
struct Rec {
    lines: Vec<String>,
}

impl Rec {
    fn label(&mut self, l: u8, v: &str) {
        self.lines.push(format!("{} {v}", l as char));
    }
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

    fn pbn(&mut self, b: &Board<'_>, out: &mut String) {
        self.head(Target::Pbn, out);
        for c in &b.comments {
            if c.contains('}') {
                self.lost.add("'}' in comments (written as ')')");
            }
            let mut text = c.replace('}', ")");
            // A `%` in the first column is an escape line wherever it
            // stands (it would end the game inside its comment).
            if text.starts_with('%') || text.contains("\n%") {
                self.lost
                    .add("comment lines that start with '%' (written after a space)");
                text = text.replace("\n%", "\n %");
            }
            let _ = writeln!(out, "{{{text}}}");
        }
        let q = |v: Option<&str>| v.unwrap_or("?").to_string();
        write_tag(out, "Event", &q(b.event));
        write_tag(out, "Site", &q(b.site));
        write_tag(out, "Date", &pbn_date(b));
        write_tag(out, "Board", &q(b.board));
        write_tag(out, "West", &q(b.players[3]));
        write_tag(out, "North", &q(b.players[0]));
        write_tag(out, "East", &q(b.players[1]));
        write_tag(out, "South", &q(b.players[2]));
        write_tag(out, "Dealer", &q(b.dealer));
        write_tag(out, "Vulnerable", &q(b.vulnerable));
        write_tag(out, "Deal", &q(b.deal));
        write_tag(out, "Scoring", &q(b.scoring));
        let declarer = b
            .declarer
            .map(|d| format!("{}{d}", if b.declarer_irregular { "^" } else { "" }));
        write_tag(out, "Declarer", &q(declarer.as_deref()));
        let contract = b.contract.or(match (b.contract, b.contract_strain) {
            (None, Some(s)) => Some(s),
            _ => None,
        });
        write_tag(out, "Contract", &q(contract));
        write_tag(
            out,
            "Result",
            &q(b.result.map(|r| r.to_string()).as_deref()),
        );
        if let Some(r) = b.room {
            write_tag(out, "Room", r);
        }
        if let Some(s) = b.score_ns {
            write_tag(out, "Score", &format!("NS {s}"));
        }
        for (name, v) in &b.others {
            let v = v.unwrap_or("");
            if b.tables.iter().any(|t| t.0 == *name) {
                // A tag with section data: written with its table, below.
                continue;
            }
            if MANDATORY.contains(name) {
                // A tag given twice (the first is in its column): a second
                // Event would start another game.
                self.lost.add("second values of tags given twice");
                continue;
            }
            if is_tag_name(name) {
                write_tag(out, name, v);
            } else {
                // RBN's `%` lines and lines it could not read.
                let n = if *name == "%" {
                    "RbnExtraneous"
                } else {
                    "RbnLine"
                };
                write_tag(out, n, v);
            }
        }
        self.pbn_notes(b, "board", out);
        if !b.calls.is_empty() {
            // The seat of the first call (PBN lets it differ from the
            // dealer's, with a warning).
            let first = b.calls[0].seat.or(b.dealer).unwrap_or("N");
            write_tag(out, "Auction", first);
            for (k, c) in b.calls.iter().enumerate() {
                out.push_str(c.call);
                self.pbn_marks(c.annotation, c.note, out);
                out.push(if k % 4 == 3 { '\n' } else { ' ' });
            }
            if !out.ends_with('\n') {
                out.pop();
                out.push('\n');
            }
            self.pbn_notes(b, "auction", out);
        }
        if let Some(leader) = b.opening_leader.and_then(seat_index) {
            write_tag(out, "Play", b.opening_leader.unwrap());
            let tricks = b.plays.last().map_or(0, |p| p.trick.max(0) as usize);
            let mut grid: Vec<[Option<&PlayRow<'_>>; 4]> = vec![[None; 4]; tricks];
            for p in &b.plays {
                let (Some(s), true) = (p.seat.and_then(seat_index), p.trick >= 1) else {
                    self.lost.add("plays without a seat");
                    continue;
                };
                grid[p.trick as usize - 1][(s + 4 - leader) % 4] = Some(p);
            }
            for row in &grid {
                for (k, p) in row.iter().enumerate() {
                    match p {
                        Some(p) => {
                            match p.card {
                                Some(c) => out.push_str(c),
                                None => {
                                    self.lost.add("plays of no known card (written as '-')");
                                    out.push('-');
                                }
                            }
                            self.pbn_marks(p.annotation, p.note, out);
                        }
                        None => out.push('-'),
                    }
                    out.push(if k == 3 { '\n' } else { ' ' });
                }
            }
            self.pbn_notes(b, "play", out);
        }
        self.pbn_tables(b, out);
        out.push('\n');
    }

    fn pbn_marks(&mut self, annotation: Option<&str>, note: Option<i32>, out: &mut String) {
        if let Some(a) = annotation {
            let mut suffix = false;
            for part in a.split(' ') {
                match part {
                    // One suffix a call or card: two would read as one.
                    p if suffix && p.starts_with(['!', '?']) => {
                        self.lost.add("a second suffix of one call or card");
                    }
                    "*" => {
                        // RBN's conventional mark: '*' ends a PBN section.
                        self.lost
                            .add("the conventional mark '*' (it ends a PBN section)");
                    }
                    "" => {}
                    // Suffixes follow their call or card; NAGs and
                    // irregularities are tokens of their own.
                    p if p.starts_with(['!', '?']) => {
                        suffix = true;
                        out.push_str(p);
                    }
                    p if p.starts_with(['$', '^']) => {
                        out.push(' ');
                        out.push_str(p);
                    }
                    _ => self
                        .lost
                        .add("annotations other than suffixes, NAGs and ^ marks"),
                }
            }
        }
        if let Some(n) = note {
            let _ = write!(out, " ={n}=");
        }
    }

    fn pbn_notes(&mut self, b: &Board<'_>, section: &str, out: &mut String) {
        for n in b.notes.iter().filter(|n| n.section == section) {
            let v = match n.number {
                Some(k) => format!("{k}:{}", n.text),
                None => n.text.to_string(),
            };
            write_tag(out, "Note", &v);
        }
    }

    /// `score_tables` rows as PBN tables; `double_dummy` rows as an
    /// OptimumResultTable (unless the board has one).
    fn pbn_tables(&mut self, b: &Board<'_>, out: &mut String) {
        let mut names: Vec<&str> = Vec::new();
        for t in &b.tables {
            if !names.contains(&t.0) {
                names.push(t.0);
            }
        }
        for name in &names {
            let rows: Vec<_> = b.tables.iter().filter(|t| t.0 == *name).collect();
            let mut cols: Vec<&str> = Vec::new();
            for r in &rows {
                if !cols.contains(&r.2) {
                    cols.push(r.2);
                }
            }
            let tag_name = if *name == "I" { "RbnItems" } else { name };
            if !is_tag_name(tag_name) {
                self.lost.add("tables whose names are no PBN tag names");
                continue;
            }
            if MANDATORY.contains(&tag_name) {
                // Its tag is written above: a second after the sections
                // would start another game.
                self.lost.add("section data of tags that have columns");
                continue;
            }
            // The tag's own value (a table's column header) as written,
            // else its columns.
            let value = b
                .others
                .iter()
                .find(|o| o.0 == *name)
                .map_or_else(|| cols.join(";"), |o| o.1.unwrap_or("").to_string());
            write_tag(out, tag_name, &value);
            let n_rows = rows.iter().map(|r| r.1).max().unwrap_or(-1) + 1;
            for row in 0..n_rows {
                let cells: Vec<String> = cols
                    .iter()
                    .map(|c| {
                        rows.iter()
                            .find(|r| r.1 == row && r.2 == *c)
                            .map_or("-".to_string(), |r| cell(r.3))
                    })
                    .collect();
                out.push_str(&cells.join(" "));
                out.push('\n');
            }
        }
        if !b.dd.is_empty() && !names.contains(&"OptimumResultTable") {
            write_tag(
                out,
                "OptimumResultTable",
                "Declarer;Denomination\\2R;Result\\2R",
            );
            for (d, s, t) in &b.dd {
                match t {
                    Some(t) => {
                        let _ = writeln!(out, "{d} {s} {t}");
                    }
                    None => self.lost.add("double-dummy makes not known"),
                }
            }
        }
    }

    // ---- RBN ----

    fn rbn(&mut self, b: &Board<'_>, rbx: bool, out: &mut String) {
        self.head(if rbx { Target::Rbx } else { Target::Rbn }, out);
        let rbn_origin = b.notation == "RBN" || b.notation == "RBX";
        // Labels RBN kept as written in other_tags go back as written.
        let mut others: Vec<(&str, Option<&str>)> = b.others.clone();
        let mut take = |label: &str| -> Option<String> {
            let i = others.iter().position(|o| o.0 == label)?;
            Some(others.remove(i).1.unwrap_or("").to_string())
        };
        let verbatim: BTreeMap<u8, String> = b"TSKBNACPRM"
            .iter()
            .filter(|&&l| rbn_origin || matches!(l, b'T' | b'S' | b'K'))
            .filter_map(|&l| take(&(l as char).to_string()).map(|v| (l, v)))
            .collect();
        let home = take("HomeTeam");
        let visit = take("VisitTeam");
        // The repeating labels' values.
        let mut want: [Option<String>; 10] = Default::default();
        want[0] = rbn_date(b);
        want[1] = verbatim.get(&b'T').cloned();
        want[2] = b.site.map(escape_colons);
        want[3] = b.event.map(escape_colons);
        want[4] = b.scoring.map(str::to_string);
        want[5] = verbatim.get(&b'S').cloned();
        want[6] = verbatim.get(&b'K').cloned().or(match (&home, &visit) {
            (None, None) => None,
            (h, v) => Some(format!(
                "{}:{}",
                h.as_deref().unwrap_or(""),
                v.as_deref().unwrap_or("")
            )),
        });
        want[7] = verbatim.get(&b'N').cloned().or_else(|| self.rbn_names(b));
        want[8] = verbatim.get(&b'B').cloned().or(b.board.map(str::to_string));
        want[9] = self.rbn_hands(b, rbn_origin);
        // Leave out what repeats; a label that stops is given bare.
        let mut given: [Given<'_>; 10] = [None; 10];
        loop {
            let predicted = self.carry.clone().apply_given(&given);
            let mut changed = false;
            for k in 0..10 {
                if given[k].is_none()
                    && predicted[k].as_deref() != want[k].as_deref().map(str::as_bytes)
                {
                    given[k] = Some(want[k].as_deref().map(str::as_bytes));
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        self.carry.apply_given(&given);
        let mut r = Rec::default();
        for k in 0..10 {
            let l = REPEATING[k];
            if l == b'H' {
                for c in &b.comments {
                    if c.contains('|') {
                        self.lost.add("'|' in comments (a line break in RBN)");
                    }
                    let t = c.replace("\r\n", "\n").replace('\n', "|");
                    r.lines.push(format!("{{{t}}}"));
                }
            }
            match given[k] {
                None => {}
                Some(None) => r.lines.push((l as char).to_string()),
                Some(Some(v)) => r.label(l, &String::from_utf8_lossy(v)),
            }
        }
        if REPEATING.len() == 10 && b.comments.is_empty() {
            // (comments were written before H)
        }
        self.rbn_notes(b, "board", &mut r);
        match verbatim.get(&b'A') {
            Some(v) => r.label(b'A', v),
            None => {
                if let Some(a) = self.rbn_auction(b) {
                    r.label(b'A', &a);
                }
            }
        }
        self.rbn_notes(b, "auction", &mut r);
        match verbatim.get(&b'C') {
            Some(v) => r.label(b'C', v),
            None => {
                if let Some(c) = self.rbn_contract(b) {
                    r.label(b'C', &c);
                }
            }
        }
        match verbatim.get(&b'P') {
            Some(v) => r.label(b'P', v),
            None => match self.rbn_play(b) {
                Some(p) => r.label(b'P', &p),
                // A play section without plays: the bare label says there
                // is a play (its leader is C's).
                None if b.opening_leader.is_some() => r.lines.push("P".to_string()),
                None => {}
            },
        }
        self.rbn_notes(b, "play", &mut r);
        match verbatim.get(&b'R') {
            Some(v) => r.label(b'R', v),
            None => {
                let tricks = match (b.contract, b.result) {
                    (Some("Pass"), r) => {
                        if r.is_some() {
                            self.lost.add("results of passed-out boards");
                        }
                        Some("P".to_string())
                    }
                    (_, Some(t)) => Some(t.to_string()),
                    _ => None,
                };
                let score = b.score_ns.map(|s| format!("{s:+}"));
                if tricks.is_some() || score.is_some() {
                    let v = format!(
                        "{}{}",
                        tricks.unwrap_or_default(),
                        score.unwrap_or_default()
                    );
                    r.label(b'R', &v);
                }
            }
        }
        match verbatim.get(&b'M') {
            Some(v) => r.label(b'M', v),
            None => {
                if let Some(m) = rbn_makes(&b.dd) {
                    r.label(b'M', &m);
                }
            }
        }
        let items = self.rbn_items(b);
        if !items.is_empty() {
            r.label(b'I', &items.join(":"));
        }
        if r.lines.is_empty() {
            // Every label repeats: one is given again, else the record
            // would be no record (a blank line alone).
            match want.iter().position(Option::is_some) {
                Some(k) => r.label(REPEATING[k], want[k].as_deref().unwrap()),
                None => r.lines.push("B".to_string()),
            }
        }
        // Tags RBN has no label for: kept as `%` lines (extraneous text).
        let mut extra = Vec::new();
        for (name, v) in others {
            let v = v.unwrap_or("");
            match name {
                "%" => extra.push(format!("%{v}")),
                "" => extra.push(v.to_string()),
                _ => {
                    self.lost.add("tags RBN has no label for (kept as % lines)");
                    let mut t = String::new();
                    write_tag(&mut t, name, v);
                    extra.push(format!("% {}", t.trim_end()));
                }
            }
        }
        r.lines.extend(extra);
        if rbx {
            let mut line = String::new();
            for l in &r.lines {
                // (prefix, content, suffix): RBX has no escape for braces in
                // a field, which would end it.
                let (pre, content, post) = if l.len() > 1 && l.starts_with('{') && l.ends_with('}')
                {
                    // Free text keeps its braces, then the line break.
                    ("{", &l[1..l.len() - 1], "}}")
                } else if l.len() == 1 {
                    // A bare label, then the line break.
                    (&l[..], "", "}")
                } else if let Some(rest) = l.strip_prefix('%') {
                    ("%{", rest.trim_start(), "}")
                } else if l.as_bytes().first().is_some_and(u8::is_ascii_alphanumeric)
                    && l.as_bytes().get(1) == Some(&b' ')
                {
                    (&l[..2], &l[2..], "}")
                } else {
                    // A line RBN could not read has no RBX field: kept as
                    // extraneous text.
                    self.lost
                        .add("lines RBN could not read, in RBX (kept as % fields)");
                    ("%{", &l[..], "}")
                };
                match pre.strip_suffix(' ') {
                    // A label's space is RBX's '{'.
                    Some(label) => {
                        line.push_str(label);
                        line.push('{');
                    }
                    None => line.push_str(pre),
                }
                if content.contains(['{', '}']) {
                    self.lost
                        .add("braces in values, in RBX (written as parentheses)");
                    line.push_str(&content.replace('{', "(").replace('}', ")"));
                } else {
                    line.push_str(content);
                }
                line.push_str(post);
            }
            // The last field's line break is the record's.
            if line.ends_with("}}") && !line.ends_with("}}}") {
                line.pop();
            }
            out.push_str(&line);
            out.push('\n');
        } else {
            for l in &r.lines {
                out.push_str(l);
                out.push('\n');
            }
            out.push('\n');
        }
    }

    fn rbn_names(&mut self, b: &Board<'_>) -> Option<String> {
        if b.players.iter().all(Option::is_none) && b.room.is_none() {
            return None;
        }
        let mut clean = |n: Option<&str>| -> String {
            let n = n.unwrap_or("");
            if n.contains(['+', ':']) {
                self.lost.add("'+' or ':' in player names (written as ' ')");
                n.replace(['+', ':'], " ")
            } else {
                n.to_string()
            }
        };
        let [n, e, s, w] = b.players;
        let mut v = format!("{}+{}:{}+{}", clean(n), clean(s), clean(w), clean(e));
        if let Some(room) = b.room {
            let r = match room {
                "Open" => "O".to_string(),
                "Closed" => "C".to_string(),
                r => clean(Some(r)),
            };
            let _ = write!(v, ":{r}");
        }
        Some(v)
    }

    fn rbn_hands(&mut self, b: &Board<'_>, rbn_origin: bool) -> Option<String> {
        if rbn_origin {
            return b.deal_text.map(str::to_string);
        }
        let d = b.deal?;
        let hands: Vec<&str> = d.strip_prefix("N:")?.split(' ').collect();
        if hands.len() != 4 {
            return None;
        }
        let h: Vec<&str> = hands
            .iter()
            .map(|h| if *h == "-" { "" } else { h })
            .collect();
        Some(format!("N:{}", h.join(":")))
    }

    fn rbn_marks(&mut self, annotation: Option<&str>, note: Option<i32>, out: &mut String) {
        if let Some(a) = annotation {
            // RBN gives a call or play one notation mark.
            let mut marked = false;
            for part in a.split(' ') {
                if marked && !part.is_empty() {
                    self.lost.add("a second annotation of one call or play");
                    continue;
                }
                let m = match part {
                    "!" | "?" | "!!" | "??" | "!?" | "?!" | "*" => part,
                    "$1" => "!",
                    "$2" => "?",
                    "$3" => "!!",
                    "$4" => "??",
                    "$5" => "!?",
                    "$6" => "?!",
                    "" => "",
                    _ => {
                        self.lost
                            .add("NAGs other than $1-$6, and irregularity marks (^)");
                        ""
                    }
                };
                marked |= !m.is_empty();
                out.push_str(m);
            }
        }
        if let Some(n) = note {
            if (0..=9).contains(&n) {
                let _ = write!(out, "^{n}");
            } else {
                self.lost.add("note references above 9");
            }
        }
    }

    fn rbn_notes(&mut self, b: &Board<'_>, section: &str, r: &mut Rec) {
        for n in b.notes.iter().filter(|n| n.section == section) {
            match n.number {
                Some(k) if (0..=9).contains(&k) => {
                    let t = n.text.replace(['\r', '\n'], " ");
                    r.lines.push(format!("{k} {t}"));
                }
                _ => self.lost.add("notes numbered above 9 or without a number"),
            }
        }
    }

    fn rbn_auction(&mut self, b: &Board<'_>) -> Option<String> {
        if b.dealer.is_none() && b.calls.is_empty() && b.vulnerable.is_none() {
            return None;
        }
        let dealer = b.dealer.unwrap_or("X");
        let vul = match b.vulnerable {
            Some("None") => "Z",
            Some("NS") => "N",
            Some("EW") => "E",
            Some("All") => "B",
            _ => "X",
        };
        if dealer == "X" && vul == "X" && b.calls.is_empty() {
            return None;
        }
        if let (Some(d), Some(first)) = (b.dealer, b.calls.first())
            && first.seat != Some(d)
        {
            self.lost
                .add("auctions that do not start with the dealer (written from the dealer)");
        }
        let mut v = format!("{dealer}{vul}");
        // The passes that end the auction, when unmarked, are `A`.
        let n = b.calls.len();
        let bid = b
            .calls
            .iter()
            .any(|c| c.call.as_bytes()[0].is_ascii_digit());
        let closing = if bid { 3 } else { 4 };
        let ends = n >= closing
            && b.calls[n - closing..]
                .iter()
                .all(|c| c.call == "Pass" && c.annotation.is_none() && c.note.is_none());
        let upto = if ends { n - closing } else { n };
        for (k, c) in b.calls[..upto].iter().enumerate() {
            if k % 4 == 0 {
                v.push(':');
            }
            v.push_str(match c.call {
                "Pass" => "P",
                "X" => "X",
                "XX" => "R",
                bid => {
                    // `1NT` is `1N`.
                    if bid.ends_with("NT") { &bid[..2] } else { bid }
                }
            });
            self.rbn_marks(c.annotation, c.note, &mut v);
        }
        if ends {
            if upto % 4 == 0 {
                v.push(':');
            }
            v.push('A');
        }
        Some(v)
    }

    fn rbn_contract(&mut self, b: &Board<'_>) -> Option<String> {
        if b.contract_strain.is_none() && (b.opening_leader.is_some() || b.declarer.is_some()) {
            self.lost
                .add("declarers and opening leaders without a contract (RBN's C gives them)");
        }
        let strain = match b.contract_strain? {
            "NT" => "N",
            s => s,
        };
        let risk = match b.contract_risk {
            Some("X") => "X",
            Some("XX") => "R",
            _ => "",
        };
        let level = b.contract_level.map(|l| l.to_string()).unwrap_or_default();
        let mut v = format!("{level}{strain}{risk}");
        match b.declarer.and_then(seat_index) {
            Some(d) => {
                let _ = write!(v, ":{}", Seat::ALL[d].as_str());
                if b.declarer_irregular {
                    self.lost.add("irregular declarers (^)");
                }
                if let Some(l) = b.opening_leader.and_then(seat_index)
                    && l != (d + 1) % 4
                {
                    let _ = write!(v, ":{}", Seat::ALL[l].as_str());
                }
            }
            None => self.lost.add("contracts without a declarer"),
        }
        Some(v)
    }

    fn rbn_play(&mut self, b: &Board<'_>) -> Option<String> {
        if b.plays.is_empty() {
            return None;
        }
        let mut v = String::new();
        let mut trick = 0;
        let mut in_trick = 0;
        let mut led: Option<u8> = None;
        for p in &b.plays {
            if p.trick != trick {
                if trick != 0 && in_trick < 4 {
                    // RBN has no place for a card left out mid-play.
                    self.lost.add("plays after a trick of fewer than 4 cards");
                    break;
                }
                if trick != 0 {
                    v.push(':');
                }
                trick = p.trick;
                in_trick = 0;
                led = None;
                // RBN gives a trick's plays from its lead: a trick whose
                // lead is not known (PBN's '-') ends what RBN can say.
            }
            // RBN gives a trick's plays in turn from its lead: a card not
            // known before another (PBN's '-') ends what RBN can say.
            let leader = b
                .leaders
                .get(trick.max(1) as usize - 1)
                .copied()
                .flatten()
                .and_then(seat_index);
            let due = leader.map(|l| Seat::ALL[(l + in_trick) % 4].as_str());
            if p.seat.is_none() || p.seat != due {
                self.lost
                    .add("plays after a card not known (PBN '-'): the play stops there");
                if v.ends_with(':') {
                    v.pop();
                }
                break;
            }
            match p.card {
                Some(c) => {
                    let (suit, rank) = (c.as_bytes()[0], &c[1..]);
                    if in_trick == 0 {
                        led = Some(suit);
                        v.push_str(c);
                    } else if led == Some(suit) {
                        v.push_str(rank);
                    } else {
                        v.push_str(c);
                    }
                }
                None => match p.text {
                    Some(t @ ("-" | "+" | "~" | ".")) => v.push_str(t),
                    _ => {
                        self.lost.add("plays of no known card (written as '.')");
                        v.push('.');
                    }
                },
            }
            self.rbn_marks(p.annotation, p.note, &mut v);
            in_trick += 1;
        }
        Some(v)
    }

    fn rbn_items(&mut self, b: &Board<'_>) -> Vec<String> {
        let mut items: Vec<String> = Vec::new();
        let mut other_tables = false;
        let mut row = -1;
        for (table, r, col, value) in &b.tables {
            if *table != "I" {
                other_tables = true;
                continue;
            }
            if *r != row {
                items.push(String::new());
                row = *r;
            }
            let last = items.last_mut().unwrap();
            match *col {
                "item" => {
                    last.insert_str(0, &format!("{value}="));
                }
                _ => last.push_str(value),
            }
        }
        if other_tables {
            self.lost.add("PBN tables (score tables), boards with them");
        }
        items
    }
}

/// The tags every PBN export writes before the sections, and the
/// sections' own.
const MANDATORY: &[&str] = &[
    "Event",
    "Site",
    "Date",
    "Board",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Scoring",
    "Declarer",
    "Contract",
    "Result",
    "Room",
    "Score",
    "Note",
    "Auction",
    "Play",
];

/// A table cell: as written, quoted when it holds white space or quotes.
fn cell(v: &str) -> String {
    // Quoted unless it is a plain token: no white space, no quote, and
    // nothing PBN reads as a comment, a tag, a note or an escape.
    let plain = v
        .bytes()
        .all(|b| b.is_ascii_graphic() && !b"\"\\{}[];%=$*+".contains(&b));
    if v.is_empty() || !plain {
        format!("\"{}\"", v.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        v.to_string()
    }
}

/// A PBN tag name: letters, digits and `_`, starting with a letter.
fn is_tag_name(n: &str) -> bool {
    n.starts_with(|c: char| c.is_ascii_alphabetic())
        && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// `:` doubled (RBN's escape in T L E S).
fn escape_colons(s: &str) -> String {
    s.replace(':', "::")
}

/// The PBN Date of a board: PBN's as written; else the date; else an RBN
/// date's known year, month and day (a span's or a circa date's day is
/// not PBN's to say).
fn pbn_date(b: &Board<'_>) -> String {
    if b.notation == "PBN"
        && let Some(t) = b.date_text
    {
        return t.to_string();
    }
    if let Some(d) = b.date {
        let (y, m, dd) = civil_from_days(d);
        return format!("{y:04}.{m:02}.{dd:02}");
    }
    // yyyy, yyyymm, yyyymmdd, a span yyyymmdddd; `C` after the year or
    // month (circa); `?` for unknown digits.
    let t = b.date_text.unwrap_or("");
    let digits: String = t
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '?')
        .collect();
    let circa = t[digits.len()..].starts_with(['C', 'c']);
    let part = |r: std::ops::Range<usize>| {
        digits
            .get(r.clone())
            .unwrap_or(&"????"[..r.len()])
            .to_string()
    };
    let y = part(0..4);
    let m = if circa && digits.len() <= 4 {
        "??".into()
    } else {
        part(4..6)
    };
    // A span's or a circa date's day is not one day.
    let d = if digits.len() == 8 && !circa {
        part(6..8)
    } else {
        "??".into()
    };
    format!("{y}.{m}.{d}")
}

/// The RBN D of a board: RBN's as written; else the date; else a PBN
/// date's known parts (unknown trailing parts left out).
fn rbn_date(b: &Board<'_>) -> Option<String> {
    if b.notation != "PBN" {
        return b.date_text.map(str::to_string);
    }
    if let Some(d) = b.date {
        let (y, m, dd) = civil_from_days(d);
        return Some(format!("{y:04}{m:02}{dd:02}"));
    }
    let t = b.date_text?;
    let parts: Vec<&str> = t.split('.').collect();
    if parts.len() != 3 || parts[0].len() != 4 {
        return None;
    }
    if !parts
        .iter()
        .all(|p| p.bytes().all(|c| c.is_ascii_digit() || c == b'?'))
    {
        return None;
    }
    let known = |p: &str| p.bytes().any(|c| c.is_ascii_digit());
    let mut v = parts[0].to_string();
    if known(parts[1]) || known(parts[2]) {
        v.push_str(parts[1]);
        if known(parts[2]) {
            v.push_str(parts[2]);
        }
    }
    (known(parts[0]) || v.len() > 4).then_some(v)
}

/// The M label from `double_dummy` rows: parts 3 and 4 (N, `+` or `=`,
/// S; then W, E), hexadecimal, `?` where not known.
fn rbn_makes(dd: &[(&str, &str, Option<i32>)]) -> Option<String> {
    if dd.is_empty() {
        return None;
    }
    let strains = ["NT", "S", "H", "D", "C"];
    let five = |seat: &str| -> String {
        strains
            .iter()
            .map(|s| {
                dd.iter()
                    .find(|r| r.0 == seat && r.1 == *s)
                    .and_then(|r| r.2)
                    .and_then(|t| char::from_digit(t as u32, 16))
                    .map_or('?', |c| c.to_ascii_uppercase())
            })
            .collect()
    };
    let pair = |a: &str, b: &str| {
        let (x, y) = (five(a), five(b));
        if x == y {
            format!("{x}=")
        } else {
            format!("{x}+{y}")
        }
    };
    Some(format!("::{}:{}", pair("N", "S"), pair("W", "E")))
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
