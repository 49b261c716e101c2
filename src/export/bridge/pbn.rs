//! The PBN writer: a board in export format (comments, the mandatory
//! tags in order, the other tags, the Auction and Play sections with
//! their notes, the tables).

use super::*;

/// The tags every PBN export writes before the sections, and the
/// sections' own.
pub(super) const MANDATORY: &[&str] = &[
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
pub(super) fn cell(v: &str) -> String {
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
pub(super) fn is_tag_name(n: &str) -> bool {
    n.starts_with(|c: char| c.is_ascii_alphabetic())
        && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The PBN Date of a board: PBN's as written; else the date; else an RBN
/// date's known year, month and day (a span's or a circa date's day is
/// not PBN's to say).
pub(super) fn pbn_date(b: &Board<'_>) -> String {
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

impl Writer {
    pub(super) fn pbn(&mut self, b: &Board<'_>, out: &mut String) {
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

    pub(super) fn pbn_marks(
        &mut self,
        annotation: Option<&str>,
        note: Option<i32>,
        out: &mut String,
    ) {
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

    pub(super) fn pbn_notes(&mut self, b: &Board<'_>, section: &str, out: &mut String) {
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
    pub(super) fn pbn_tables(&mut self, b: &Board<'_>, out: &mut String) {
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
}
