//! A Portable Preferans Notation game into the rows of the preferans
//! tables: the tag section into `games`, each deal line into `deals`, its
//! three players into `seats` and its throws into `tricks`, the cards and
//! throws checked by the rules (`games::preferans::rules`).

use std::borrow::Cow;

use super::syntax::{self, Field, Line};
use super::{PREFERANS, REQUIRED_TAGS, Rec, codes};
use crate::columns::table::{append_kv, append_strs};
use crate::error::{Diag, Diags, Locator};
use crate::games::preferans::Card;
use crate::games::preferans::contract::{Contract, KontraLevel};
use crate::games::preferans::rules::{self, Issue, Trick};
use crate::games::preferans::tables::Builders;
use crate::notation::tagpair::text::{bytes_text, unescape};
use crate::notation::{FileInfo, record_id, record_ref};

mod deal;
mod rules_check;

use deal::{DealAt, deal};

/// The tags with a column of their own.
const COLUMNS: [&str; 12] = [
    "Bula", "Refe", "Player1", "Player2", "Player3", "Result1", "Result2", "Result3", "Place1",
    "Place2", "Place3", "Date",
];

/// Of [`COLUMNS`], those that are integers.
fn is_int(k: usize) -> bool {
    !matches!(k, 2..=4 | 11)
}

/// A game being read.
struct Game<'a> {
    rec: &'a [u8],
    latin1: bool,
    diags: Diags,
    /// The lines quarantined: their offset in the record and their end.
    lines_out: Vec<(u32, usize)>,
    /// Where a `{` comment that never closes opens, after a game (F005).
    unclosed: Option<usize>,
}

impl<'a> Game<'a> {
    /// Text of a slice of the record: every slice is cut next to ASCII
    /// bytes (white space, brackets, quotes, commas, colons, line ends),
    /// so it is UTF-8 when the record is.
    fn text(&self, b: &'a [u8]) -> Cow<'a, str> {
        bytes_text(b, self.latin1)
    }

    fn warn(&mut self, at: usize, code: &'static str, msg: String) {
        self.diags.push(Diag::warning(at, code, msg));
    }

    fn quarantine_line(&mut self, at: usize, code: &'static str, msg: String) {
        let end = memchr::memchr(b'\n', &self.rec[at..]).map_or(self.rec.len(), |p| at + p);
        let end = if self.rec[..end].ends_with(b"\r") {
            end - 1
        } else {
            end
        };
        self.lines_out.push((at as u32, end));
        self.diags.push(Diag::warning(at, code, msg));
    }
}

/// Writes one game's rows, and its diagnostics to `errors`.
pub fn build_record(file: &FileInfo, rec: &Rec<'_>, compute: bool, out: &mut Builders) {
    let raw = rec.raw;
    let mut g = Game {
        rec: raw,
        latin1: std::str::from_utf8(raw).is_err(),
        diags: Diags::default(),
        lines_out: Vec::new(),
        unclosed: None,
    };
    let mut id = None;
    if !rec.whole {
        g.diags.push(Diag::error(
            0,
            codes::TOO_LARGE,
            format!(
                "the game is {} bytes, more than deckhand reads of one game ({}): not read",
                rec.item.end - rec.item.start,
                super::MAX_RECORD
            ),
        ));
    } else {
        let key = record_id(file.index, rec.index);
        if read_game(&mut g, file, rec, key, compute, out) {
            id = Some(key);
        }
    }
    let diags = std::mem::take(&mut g.diags).finish_with(codes::UNLISTED);
    let refr = record_ref(
        file,
        &PREFERANS,
        raw,
        (rec.item.start, rec.item.line),
        rec.index,
        id,
    );
    out.errors.push_record(&refr, &diags, |d| {
        let line = (g.lines_out.iter())
            .find(|l| l.0 == d.at && matches!(d.code, codes::LINE | codes::DEAL_LINE));
        line.map(|&(at, end)| &raw[at as usize..end])
    });
    // The text a comment that never closes swallowed, after the game it
    // opens in: quarantined as a record of its own, its raw text kept.
    if let Some(at) = g.unclosed {
        let line = rec.item.line + raw[..at].iter().filter(|&&b| b == b'\n').count() as u64;
        let start = (rec.item.start + at as u64, line);
        let refr = record_ref(file, &PREFERANS, &raw[at..], start, rec.index, None);
        let d = unclosed_comment(0);
        out.errors.push_record(&refr, &[d], |_| None);
    }
}

/// F005 for the `{` comment at `at`, which never closes (the row's line
/// and column are the comment's).
fn unclosed_comment(at: usize) -> Diag {
    Diag::error(
        at,
        codes::UNCLOSED_COMMENT,
        "a '{' comment opened here never closes: it runs to the end of the file, so the text from its line on is not read (games after it too); it is quarantined as one record"
            .to_string(),
    )
}

/// A tag pair read.
struct Tag<'a> {
    name: Field<'a>,
    value: Cow<'a, str>,
    value_at: usize,
}

/// A game's lines, as read.
struct Lines<'a> {
    tags: Vec<Tag<'a>>,
    /// Each deal line's offset and fields.
    deals: Vec<(usize, Vec<Field<'a>>)>,
    comments: Vec<Cow<'a, str>>,
    /// Every tag value is quoted (as in pinochle's PPN).
    all_quoted: bool,
    /// Where a `{` comment that never closes opens: the game ends before
    /// it, and the rest of the record is quarantined (F005).
    unclosed: Option<usize>,
}

/// Reads the game's lines and writes its rows; false (and an F002 error)
/// when the record holds no game.
fn read_game(
    g: &mut Game<'_>,
    file: &FileInfo,
    rec: &Rec<'_>,
    key: i64,
    compute: bool,
    out: &mut Builders,
) -> bool {
    let lines = read_lines(g);
    if no_game(g, &lines) {
        return false;
    }
    g.unclosed = lines.unclosed;
    let (cols, other) = tag_columns(g, &lines.tags);
    let missing: Vec<&str> = (REQUIRED_TAGS.iter())
        .copied()
        .filter(|r| !lines.tags.iter().any(|t| t.name.bytes == r.as_bytes()))
        .collect();
    if !missing.is_empty() {
        g.warn(
            0,
            codes::MISSING_TAG,
            format!("required tags missing: {}", missing.join(", ")),
        );
    }
    // The deals first, so that the games row has their count.
    let mut locate = Locator::new(g.rec, rec.item.start, rec.item.line, rec.index);
    let mut written = 0;
    for (seq, (at, fields)) in lines.deals.iter().enumerate() {
        let line = locate.position(*at).line as i64;
        let place = DealAt {
            key,
            seq: seq as i32,
            line_no: line,
            at: *at,
        };
        if deal(g, place, fields, compute, out) {
            written += 1;
        }
    }
    games_row(file, rec, key, &lines, &cols, &other, written, out);
    true
}

/// Each line of the record: tag pairs, deal lines, comments; a line that
/// is none of them quarantined.
fn read_lines<'a>(g: &mut Game<'a>) -> Lines<'a> {
    let raw = g.rec;
    let mut tags: Vec<Tag<'_>> = Vec::new();
    let mut deals: Vec<(usize, Vec<Field<'_>>)> = Vec::new();
    let mut comments: Vec<Cow<'_, str>> = Vec::new();
    let mut all_quoted = true;
    let mut unclosed = None;
    let mut at = 0;
    while at < raw.len() {
        let (line, next) = syntax::line(raw, at);
        match line {
            Line::Blank => {}
            Line::Comment { text, .. }
                if text.bytes.first() == Some(&b'{') && !text.bytes.ends_with(b"}") =>
            {
                unclosed = Some(text.at);
                break;
            }
            Line::Comment { text, .. } => {
                let b = text.bytes;
                let inner = match b.first() {
                    Some(b';') => &b[1..],
                    Some(b'{') => b[1..].strip_suffix(b"}").unwrap_or(&b[1..]),
                    _ => b,
                };
                comments.push(g.text(inner.trim_ascii()));
            }
            Line::Tag {
                name,
                value,
                quoted,
                open_quote,
                after,
            } => {
                all_quoted &= quoted;
                if open_quote {
                    g.warn(
                        value.at - 1,
                        codes::OPEN_QUOTE,
                        format!(
                            "the value of {} opens a quote that does not close: read to the ']'",
                            g.text(name.bytes)
                        ),
                    );
                }
                let text = g.text(value.bytes);
                let text = if quoted && text.contains('\\') {
                    Cow::Owned(unescape(&text))
                } else {
                    text
                };
                tags.push(Tag {
                    name,
                    value: text,
                    value_at: value.at,
                });
                if let Some(a) = after {
                    after_text(g, a, &mut comments);
                }
            }
            Line::Deal { fields, after } => {
                deals.push((at, fields));
                if let Some(a) = after {
                    after_text(g, a, &mut comments);
                }
            }
            Line::Stray { why } => {
                let start = at + (raw[at..].len() - raw[at..].trim_ascii_start().len());
                g.quarantine_line(start, codes::LINE, format!("{why}: the line is not read"));
            }
        }
        at = next.max(at + 1);
    }
    Lines {
        tags,
        deals,
        comments,
        all_quoted,
        unclosed,
    }
}

/// Whether the record holds no Preferans game (an F002 error then
/// replaces its other diagnostics): nothing read, or a pinochle hand.
fn no_game(g: &mut Game<'_>, lines: &Lines<'_>) -> bool {
    let (tags, deals, all_quoted) = (&lines.tags, &lines.deals, lines.all_quoted);
    if deals.is_empty() && tags.is_empty() {
        g.lines_out.clear();
        g.diags = Diags::default();
        g.diags.push(match lines.unclosed {
            Some(at) => unclosed_comment(at),
            None => Diag::error(
                0,
                codes::NO_GAME,
                "no tag pair and no deal line: this is no Preferans game; the record is quarantined",
            ),
        });
        return true;
    }
    if deals.is_empty() && all_quoted {
        let pinochle: Vec<&str> = (crate::notation::pinochle_ppn::PINOCHLE_TAGS.iter())
            .copied()
            .filter(|t| tags.iter().any(|x| x.name.bytes == t.as_bytes()))
            .collect();
        if !pinochle.is_empty() {
            g.lines_out.clear();
            g.diags = Diags::default();
            g.diags.push(Diag::error(
                0,
                codes::NO_GAME,
                format!(
                    "a hand of Portable Pinochle Notation (its tags {}, quoted values, no deal line) in a file read as Portable Preferans Notation: the file mixes the two PPNs; the record is quarantined (convert the pinochle hands on their own)",
                    pinochle.join(", ")
                ),
            ));
            return true;
        }
    }
    false
}

/// The tags with a column of their own (their index in `tags` by
/// [`COLUMNS`]), and the others as name and value.
#[allow(clippy::type_complexity)]
fn tag_columns(g: &mut Game<'_>, tags: &[Tag<'_>]) -> ([Option<usize>; 12], Vec<(String, String)>) {
    let mut cols: [Option<usize>; 12] = [None; 12];
    let mut other: Vec<(String, String)> = Vec::new();
    for (i, t) in tags.iter().enumerate() {
        let k = COLUMNS.iter().position(|c| c.as_bytes() == t.name.bytes);
        match k {
            Some(k) if cols[k].is_none() => {
                if is_int(k) && crate::notation::number::parse_i32(t.value.as_bytes()).is_none() {
                    g.warn(
                        t.value_at,
                        codes::NOT_NUMBER,
                        format!(
                            "{} is '{}', not an integer: kept in other_tags",
                            COLUMNS[k], t.value
                        ),
                    );
                    other.push((COLUMNS[k].to_string(), t.value.to_string()));
                } else {
                    cols[k] = Some(i);
                }
            }
            Some(k) => {
                g.warn(
                    t.name.at,
                    codes::REPEATED,
                    format!(
                        "{} given again ('{}'; the first is '{}'): kept in other_tags",
                        COLUMNS[k],
                        t.value,
                        tags[cols[k].expect("a first")].value
                    ),
                );
                other.push((COLUMNS[k].to_string(), t.value.to_string()));
            }
            None => other.push((g.text(t.name.bytes).into_owned(), t.value.to_string())),
        }
    }
    (cols, other)
}

/// The `games` row.
#[allow(clippy::too_many_arguments)]
fn games_row(
    file: &FileInfo,
    rec: &Rec<'_>,
    key: i64,
    lines: &Lines<'_>,
    cols: &[Option<usize>; 12],
    other: &[(String, String)],
    written: i32,
    out: &mut Builders,
) {
    let (tags, comments) = (&lines.tags, &lines.comments);
    let gb = &mut out.games;
    let at = (rec.item.start, rec.item.line);
    let refr = record_ref(file, &PREFERANS, rec.raw, at, rec.index, Some(key));
    gb.append_provenance(&refr.provenance(key, None));
    let int = |k: usize| {
        cols[k].and_then(|i| crate::notation::number::parse_i32(tags[i].value.as_bytes()))
    };
    let text = |k: usize| cols[k].map(|i| tags[i].value.as_ref());
    gb.bula.append_option(int(0));
    gb.refe.append_option(int(1));
    gb.player1.append_option(text(2));
    gb.player2.append_option(text(3));
    gb.player3.append_option(text(4));
    gb.result1.append_option(int(5));
    gb.result2.append_option(int(6));
    gb.result3.append_option(int(7));
    gb.place1.append_option(int(8));
    gb.place2.append_option(int(9));
    gb.place3.append_option(int(10));
    gb.date_text.append_option(text(11));
    gb.deals.append_value(written);
    append_strs(&mut gb.comments, Some(comments.iter()));
    append_kv(
        &mut gb.other_tags,
        other.iter().map(|(n, v)| (n.as_str(), Some(v.as_str()))),
    );
}

/// Text after a `]` on its line: a comment, or a warning and kept as one.
fn after_text<'a>(g: &mut Game<'a>, a: Field<'a>, comments: &mut Vec<Cow<'a, str>>) {
    match a.bytes.first() {
        Some(b';') => comments.push(g.text(a.bytes[1..].trim_ascii())),
        Some(b'{') => {
            let b = a.bytes;
            comments.push(g.text(b[1..].strip_suffix(b"}").unwrap_or(&b[1..]).trim_ascii()))
        }
        _ => {
            g.warn(
                a.at,
                codes::AFTER,
                format!(
                    "text after the ']': '{}' (kept in the game's comments)",
                    g.text(a.bytes)
                ),
            );
            comments.push(g.text(a.bytes));
        }
    }
}

/// Names of cards, for messages.
fn names(cards: &[Card]) -> String {
    let v: Vec<String> = cards
        .iter()
        .map(|c| String::from_utf8_lossy(&c.name()).into_owned())
        .collect();
    v.join(" ")
}

fn name(c: Card) -> String {
    String::from_utf8_lossy(&c.name()).into_owned()
}

/// The next player after `p` (1 to 3).
fn next(p: u8) -> u8 {
    p % 3 + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::access::Cols;
    use crate::split::{Item, ItemKind};

    /// The codes and raw texts of the `errors` rows of one record.
    fn diagnose(text: &[u8], whole: bool) -> (usize, Vec<(String, Option<String>)>) {
        let file = FileInfo {
            name: "t.ppn".into(),
            index: 0,
        };
        let rec = Rec {
            raw: text,
            item: Item {
                kind: ItemKind::Record,
                start: 0,
                end: text.len() as u64,
                line: 1,
                joined: false,
                at_end: false,
            },
            index: 0,
            whole,
            swallows: whole && syntax::unclosed_after_game(text).is_some(),
        };
        let mut b = Builders::sized_for(1);
        build_record(&file, &rec, true, &mut b);
        let tables = crate::columns::table::TableBuilders::finish(b).unwrap();
        let games = tables[0].1.num_rows();
        let e = Cols::new(&tables[4].1);
        let rows = (0..e.num_rows())
            .map(|i| {
                (
                    e.str("code", i).unwrap().to_string(),
                    e.str("raw", i).map(str::to_string),
                )
            })
            .collect();
        (games, rows)
    }

    #[test]
    fn a_game_too_large_or_of_nothing_is_quarantined() {
        let (games, rows) = diagnose(b"[Bula 60]\n", false);
        assert_eq!(games, 0);
        assert_eq!(rows, [("F001".into(), Some("[Bula 60]\n".into()))]);
        let (games, rows) = diagnose(b"hello\nworld", true);
        assert_eq!(games, 0);
        assert_eq!(rows, [("F002".into(), Some("hello\nworld".into()))]);
    }

    #[test]
    fn a_line_not_read_keeps_its_text_and_warnings_are_capped() {
        let (games, rows) = diagnose(b"[Bula 60]\n  zz top\r\n[1 2 3]\n", true);
        assert_eq!(games, 1);
        let codes: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
        assert_eq!(codes, ["F010", "F003", "F004"]);
        assert_eq!(rows[1].1.as_deref(), Some("zz top"));
        assert_eq!(rows[2].1.as_deref(), Some("[1 2 3]"));
        assert_eq!(rows[0].1, None);
        let mut text = b"[Bula 60]\n".to_vec();
        for _ in 0..1200 {
            text.extend_from_slice(b"x\n");
        }
        let (_, rows) = diagnose(&text, true);
        assert_eq!(rows.len(), 1001);
        assert_eq!(rows[0].0, "F101");
        assert_eq!(rows.iter().filter(|r| r.0 == "F003").count(), 1000);
    }
}
