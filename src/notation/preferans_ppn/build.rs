//! A Portable Preferans Notation game into the rows of the preferans
//! tables: the tag section into `games`, each deal line into `deals`, its
//! three players into `seats` and its throws into `tricks`, the cards and
//! throws checked by the rules (`games::preferans::rules`).

use std::borrow::Cow;

use super::syntax::{self, Field, Line};
use super::{PREFERANS, REQUIRED_TAGS, Rec, codes};
use crate::columns::errors_table::RecordRef;
use crate::columns::table::{append_kv, append_strs};
use crate::error::{Diag, Diags, Locator};
use crate::games::preferans::Card;
use crate::games::preferans::contract::{Contract, KontraLevel};
use crate::games::preferans::rules::{self, Issue, Trick};
use crate::games::preferans::tables::Builders;
use crate::notation::tagpair::text::{bytes_text, unescape};
use crate::notation::{FileInfo, record_id};

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
    let mut locate = Locator::new(raw, rec.item.start, rec.item.line, rec.index);
    let refr = RecordRef {
        file: &file.name,
        notation: Some((PREFERANS.label, PREFERANS.game)),
        bytes: raw,
        byte: rec.item.start,
        line: rec.item.line,
        index: rec.index,
        record_id: id,
    };
    for d in &diags {
        let pos = locate.position(d.at as usize);
        let line = (g.lines_out.iter())
            .find(|l| l.0 == d.at && matches!(d.code, codes::LINE | codes::DEAL_LINE));
        match line {
            Some(&(at, end)) => out.errors.push_line(&refr, pos, d, &raw[at as usize..end]),
            None => out.errors.push(&refr, pos, d),
        }
    }
}

/// A tag pair read.
struct Tag<'a> {
    name: Field<'a>,
    value: Cow<'a, str>,
    value_at: usize,
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
    let raw = g.rec;
    let mut tags: Vec<Tag<'_>> = Vec::new();
    let mut deals: Vec<(usize, Vec<Field<'_>>)> = Vec::new();
    let mut comments: Vec<Cow<'_, str>> = Vec::new();
    let mut all_quoted = true;
    let mut at = 0;
    while at < raw.len() {
        let (line, next) = syntax::line(raw, at);
        match line {
            Line::Blank => {}
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
    if deals.is_empty() && tags.is_empty() {
        g.lines_out.clear();
        g.diags = Diags::default();
        g.diags.push(Diag::error(
            0,
            codes::NO_GAME,
            "no tag pair and no deal line: this is no Preferans game; the record is quarantined",
        ));
        return false;
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
            return false;
        }
    }
    // The games row.
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
    let missing: Vec<&str> = (REQUIRED_TAGS.iter())
        .copied()
        .filter(|r| !tags.iter().any(|t| t.name.bytes == r.as_bytes()))
        .collect();
    if !missing.is_empty() {
        g.warn(
            0,
            codes::MISSING_TAG,
            format!("required tags missing: {}", missing.join(", ")),
        );
    }
    // The deals first, so that the games row has their count.
    let mut lines = Locator::new(raw, rec.item.start, rec.item.line, rec.index);
    let mut written = 0;
    for (seq, (at, fields)) in deals.iter().enumerate() {
        let line = lines.position(*at).line as i64;
        if deal(g, key, seq as i32, line, *at, fields, compute, out) {
            written += 1;
        }
    }
    let gb = &mut out.games;
    gb.game_id.append_value(key);
    gb.source_file.append_value(&file.name);
    gb.record_index.append_value(rec.index as i64);
    gb.byte_offset.append_value(rec.item.start as i64);
    gb.line.append_value(rec.item.line as i64);
    gb.notation.append_value(PREFERANS.label);
    gb.notation_version.append_null();
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
    true
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

/// Reads a field with `f`, or warns (F014) and gives None.
fn field<'a, T>(
    g: &mut Game<'a>,
    slots: &syntax::Slots<'a>,
    k: usize,
    f: impl Fn(&[u8]) -> Option<T>,
    expected: &str,
) -> Option<T> {
    let x = slots[k]?;
    let v = f(x.bytes);
    if v.is_none() {
        g.warn(
            x.at,
            codes::FIELD,
            format!(
                "{} '{}' is not {expected}: null",
                syntax::FIELDS[k],
                g.text(x.bytes)
            ),
        );
    }
    v
}

/// One deal line's rows; false when the line is quarantined.
#[allow(clippy::too_many_arguments)]
fn deal<'a>(
    g: &mut Game<'a>,
    key: i64,
    seq: i32,
    line_no: i64,
    at: usize,
    fields: &[Field<'a>],
    compute: bool,
    out: &mut Builders,
) -> bool {
    use syntax::*;
    let (slots, short) = match shape(fields) {
        Err(why) => {
            g.quarantine_line(at, codes::DEAL_LINE, why);
            return false;
        }
        Ok(Shape::Full(s)) => (s, false),
        Ok(Shape::Short(s)) => (s, true),
        Ok(Shape::Missing(s, gap)) => {
            let after = if gap > 0 { FIELDS[gap - 1] } else { "[" };
            let at = slots_at(&s, gap).unwrap_or(at);
            g.warn(
                at,
                codes::FIELD_MISSING,
                format!(
                    "13 fields: the {} is missing (after the {after}), the only field whose absence lets every other read in its place; its column is null",
                    FIELDS[gap]
                ),
            );
            (s, false)
        }
    };
    let order = field(g, &slots, ORDER, order, "three players, each once");
    let cards_at = slots[CARDS].map(|f| f.at);
    let cards: Option<Vec<Card>> = slots[CARDS].and_then(|f| {
        let r = if f.bytes.len() == 32 {
            syntax::cards(f.bytes).map_err(|i| (i, "a card of the table"))
        } else {
            Err((0, "32 cards"))
        };
        match r {
            Ok(v) => Some(v),
            Err((i, what)) => {
                let m = format!(
                    "cards '{}' ({} characters) are not {what}{}: the hands are not known",
                    g.text(f.bytes),
                    f.bytes.len(),
                    if what == "32 cards" {
                        String::new()
                    } else {
                        format!(" at character {}", i + 1)
                    }
                );
                g.warn(f.at + i, codes::FIELD, m);
                None
            }
        }
    });
    let bids = slots[BIDS].and_then(|f| {
        let b = syntax::bids(f.bytes);
        if b.is_none() {
            g.warn(
                f.at,
                codes::FIELD,
                format!(
                    "bids '{}' are not three comma-separated bids: null",
                    g.text(f.bytes)
                ),
            );
        }
        b
    });
    let passed_out = bids.map(|b| b.iter().all(|x| *x == b"P"));
    if let Some(p) = passed_out
        && p != short
    {
        let m = if short {
            "a deal line of 4 fields (the form of a passed-out deal) whose bids are not all passes"
        } else {
            "a deal line of 14 fields whose bids are all passes (a passed-out deal)"
        };
        g.warn(
            slots[BIDS].map_or(at, |f| f.at),
            codes::PASSED,
            m.to_string(),
        );
    }
    let main = field(g, &slots, MAIN, player, "a player (1 to 3)");
    let discard = field(g, &slots, DISCARDED, discarded, "two cards or XX");
    let contract = field(
        g,
        &slots,
        CONTRACT,
        syntax::contract,
        "a contract (2 to 8, G before it for a game)",
    );
    let accepted = field(g, &slots, ACCEPTED, syntax::accepted, "a number");
    let kontra = field(
        g,
        &slots,
        KONTRA,
        syntax::kontra,
        "0 or a level (I, K, R, S, M) and a player",
    );
    let refa = field(g, &slots, REFA, syntax::refa, "0 or 1");
    let value = field(g, &slots, VALUE, syntax::value, "an integer");
    let starts = field(g, &slots, STARTS, player, "a player (1 to 3)");
    let throws = slots[THROWS].map(syntax::throws).unwrap_or_default();
    for t in &throws {
        if t.cards.is_none() {
            g.warn(
                t.text.at,
                codes::FIELD,
                format!(
                    "throw '{}' is not two or three cards of the table and a winner (1 to 3): its cards are null",
                    g.text(t.text.bytes)
                ),
            );
        }
    }
    let entries: Option<Vec<Option<Entry>>> = slots[SUMMARY].and_then(|f| {
        let parts: Vec<&[u8]> = f.bytes.split(|&c| c == b',').collect();
        if parts.len() != 3 {
            g.warn(
                f.at,
                codes::FIELD,
                format!(
                    "summary '{}' has {} entries, not 3: null",
                    g.text(f.bytes),
                    parts.len()
                ),
            );
            return None;
        }
        let mut off = f.at;
        let mut v = Vec::with_capacity(3);
        for p in parts {
            let e = entry(p);
            if e.is_none() {
                g.warn(
                    off,
                    codes::FIELD,
                    format!(
                        "summary entry '{}' is not 0, M<tricks>:<middle> or F<tricks>:L<left> or R<right> (and :<middle>): null",
                        g.text(p)
                    ),
                );
            }
            v.push(e);
            off += p.len() + 1;
        }
        Some(v)
    });

    // The rules: the deck, the discards, the throws.
    let rules = Rules::check(
        g,
        &Known {
            order,
            cards: cards.as_deref(),
            cards_at,
            main,
            discard,
            discard_at: slots[DISCARDED].map(|f| f.at),
            contract,
            accepted,
            kontra,
            starts,
            throws: &throws,
            throws_at: slots[THROWS].map(|f| f.at),
            passed: passed_out == Some(true) || slots[THROWS].is_none(),
        },
        compute,
    );

    // Roles: the summary's, else the main and accepted fields'.
    let field_role = |p: u8| -> Option<&'static str> {
        if short && passed_out == Some(true) {
            return Some("none");
        }
        let m = main?;
        if p == m {
            return Some("main");
        }
        let a = accepted?;
        Some(if a == p as i32 || a >= 4 {
            "follower"
        } else {
            "none"
        })
    };
    let mut seat_rows: [Seat<'_>; 3] = [(None, None, None); 3];
    for p in 1..=3u8 {
        let i = order.and_then(|o| o.iter().position(|&x| x == p));
        let bid = i.and_then(|i| bids.map(|b| b[i]));
        let e = i.and_then(|i| entries.as_ref().and_then(|v| v[i]));
        let from_summary = e.map(|e| match e.role {
            b'M' => "main",
            b'F' => "follower",
            _ => "none",
        });
        let by_fields = field_role(p);
        if let (Some(s), Some(f)) = (from_summary, by_fields)
            && s != f
        {
            let at = slots[SUMMARY].map_or(at, |f| f.at);
            g.warn(
                at,
                codes::ROLES,
                format!(
                    "player {p}'s summary entry makes them {s}; the main and accepted fields make them {f}"
                ),
            );
        }
        seat_rows[p as usize - 1] = (bid, from_summary.or(by_fields), e);
    }
    // Tricks in the summary against the rules'.
    if let Some(ct) = &rules.tricks {
        for p in 1..=3u8 {
            let Some(stated) = seat_rows[p as usize - 1].2.and_then(|e| e.tricks) else {
                continue;
            };
            let c = ct[p as usize - 1] as i32;
            let all = throws.len() == 10 || throws.is_empty();
            if (all && stated != c) || (!all && stated < c) {
                let at = slots[SUMMARY].map_or(at, |f| f.at);
                g.warn(
                    at,
                    codes::TRICKS,
                    format!(
                        "player {p}'s summary gives {stated} tricks; the rules give {c} in the {} throws",
                        throws.len()
                    ),
                );
            }
        }
    }

    // deals
    let d = &mut out.deals;
    let text = |k: usize| slots[k].map(|f| g.text(f.bytes));
    d.game_id.append_value(key);
    d.seq.append_value(seq);
    d.line.append_value(line_no);
    d.deal.append_option(text(ID));
    d.deal_order.append_option(text(ORDER));
    d.dealer.append_option(order.map(|o| o[2] as i32));
    d.cards.append_option(text(CARDS));
    d.talon.append_cards(cards.as_ref().map(|c| &c[30..32]));
    d.bids.append_option(text(BIDS));
    d.passed_out.append_option(passed_out);
    d.main.append_option(main.map(i32::from));
    d.discarded.append_cards(
        discard
            .as_ref()
            .map(|x| x.as_ref().map_or(&[][..], |c| &c[..])),
    );
    d.contract.append_option(contract.map(|c| c.number as i32));
    d.contract_name.append_option(contract.map(Contract::name));
    d.without_talon
        .append_option(contract.map(|c| c.without_talon));
    d.accepted.append_option(accepted);
    d.kontra.append_option(text(KONTRA));
    d.kontra_level
        .append_option(kontra.flatten().map(|k| k.0.name()));
    d.kontra_player
        .append_option(kontra.flatten().map(|k| k.1 as i32));
    d.refa.append_option(refa);
    d.value.append_option(value);
    d.starts.append_option(starts.map(i32::from));
    d.throws.append_option(text(THROWS));
    d.summary.append_option(text(SUMMARY));

    // seats
    let s = &mut out.seats;
    for p in 1..=3u8 {
        let (bid, role, e) = seat_rows[p as usize - 1];
        s.game_id.append_value(key);
        s.seq.append_value(seq);
        s.player.append_value(p as i32);
        let i = order.and_then(|o| o.iter().position(|&x| x == p));
        s.dealt
            .append_cards(cards.as_ref().zip(i).map(|(c, i)| &c[i * 10..i * 10 + 10]));
        s.highest_bid.append_option(bid.map(|b| g.text(b)));
        s.role.append_option(role);
        s.tricks.append_option(e.and_then(|e| e.tricks));
        s.left.append_option(e.and_then(|e| e.left));
        s.middle.append_option(e.and_then(|e| e.middle));
        s.right.append_option(e.and_then(|e| e.right));
        s.computed_tricks
            .append_option(rules.tricks.as_ref().map(|t| t[p as usize - 1] as i32));
    }

    // tricks
    let t = &mut out.tricks;
    for (n, th) in throws.iter().enumerate() {
        t.game_id.append_value(key);
        t.seq.append_value(seq);
        t.trick.append_value(n as i32 + 1);
        t.leader.append_option(rules.leaders[n].map(i32::from));
        t.cards
            .append_cards(th.cards.as_ref().map(|(c, k)| &c[..*k]));
        t.winner.append_option(th.winner.map(i32::from));
        t.computed_winner
            .append_option(rules.winners.get(n).copied().flatten().map(i32::from));
    }
    true
}

/// A player's bid, role and summary entry.
type Seat<'a> = (
    Option<&'a [u8]>,
    Option<&'static str>,
    Option<syntax::Entry>,
);

/// Where the field after a missing one starts (for the F013 warning).
fn slots_at(s: &syntax::Slots<'_>, gap: usize) -> Option<usize> {
    s[gap + 1..].iter().flatten().next().map(|f| f.at)
}

/// What the rules need of a deal, as read.
struct Known<'x, 'a> {
    order: Option<[u8; 3]>,
    cards: Option<&'x [Card]>,
    cards_at: Option<usize>,
    main: Option<u8>,
    discard: Option<Option<[Card; 2]>>,
    discard_at: Option<usize>,
    contract: Option<Contract>,
    accepted: Option<i32>,
    kontra: Option<Option<(KontraLevel, u8)>>,
    starts: Option<u8>,
    throws: &'x [syntax::Throw<'a>],
    throws_at: Option<usize>,
    /// Nothing was played (passed out, or no throws field).
    passed: bool,
}

/// What the rules made of a deal's throws.
struct Rules {
    /// Each throw's leader (the starter, then the annotated winners).
    leaders: Vec<Option<u8>>,
    /// Each throw's winner by the rules.
    winners: Vec<Option<u8>>,
    /// Tricks won by players 1 to 3 by the rules.
    tricks: Option<[u32; 3]>,
}

impl Rules {
    fn check(g: &mut Game<'_>, k: &Known<'_, '_>, compute: bool) -> Rules {
        let n = k.throws.len();
        // Leaders: the starter, then each annotated winner.
        let mut leaders = Vec::with_capacity(n);
        let mut lead = k.starts;
        for t in k.throws {
            leaders.push(lead);
            lead = t.winner;
        }
        let mut r = Rules {
            leaders,
            winners: vec![None; n],
            tricks: None,
        };
        if !compute {
            return r;
        }
        // The deck.
        if let (Some(cards), Some(at)) = (k.cards, k.cards_at) {
            let (twice, missing) = syntax::deck_check(cards);
            if !twice.is_empty() {
                g.warn(
                    at,
                    codes::DEALT,
                    format!(
                        "cards dealt twice: {}; cards not dealt: {}",
                        names(&twice),
                        names(&missing)
                    ),
                );
            }
        }
        if k.passed {
            return r;
        }
        // The hands: dealt; the main player's with the talon, less the
        // discards.
        let mut hands: Vec<Option<Vec<Card>>> = vec![None; 3];
        if let (Some(o), Some(cards)) = (k.order, k.cards) {
            for (i, &p) in o.iter().enumerate() {
                hands[p as usize - 1] = Some(cards[i * 10..i * 10 + 10].to_vec());
            }
            if let (Some(m), Some(c)) = (k.main, k.contract) {
                let at = k.discard_at.unwrap_or(0);
                let hand = hands[m as usize - 1].as_mut().expect("dealt");
                match (c.without_talon, k.discard) {
                    (true, Some(Some(d))) => g.warn(
                        at,
                        codes::DISCARD,
                        format!(
                            "a game without the talon, yet the main player (player {m}) discards {}",
                            names(&d)
                        ),
                    ),
                    (false, Some(None)) => g.warn(
                        at,
                        codes::DISCARD,
                        format!(
                            "the main player (player {m}) takes the talon ({}) and discards nothing (XX)",
                            names(&cards[30..32])
                        ),
                    ),
                    _ => {}
                }
                if !c.without_talon {
                    let i = o.iter().position(|&p| p == m).expect("a player");
                    let dealt = &cards[i * 10..i * 10 + 10];
                    hand.extend_from_slice(&cards[30..32]);
                    if let Some(Some(d)) = k.discard {
                        for card in d {
                            match hand.iter().position(|&x| x == card) {
                                Some(i) => {
                                    hand.remove(i);
                                }
                                None => g.warn(
                                    at,
                                    codes::DISCARD,
                                    format!(
                                        "the main player (player {m}) discards {}, which they hold neither in their hand ({}) nor in the talon ({})",
                                        name(card),
                                        names(dealt),
                                        names(&cards[30..32])
                                    ),
                                ),
                            }
                        }
                    }
                }
            }
        }
        if n == 0 {
            // No card played: when nobody follows, the main player takes
            // all ten tricks without play.
            if let (Some(m), Some(0)) = (k.main, k.accepted) {
                let mut t = [0; 3];
                t[m as usize - 1] = 10;
                r.tricks = Some(t);
            } else {
                g.diags.push(Diag::info(
                    k.throws_at.unwrap_or(0),
                    codes::NOT_COMPUTED,
                    format!(
                        "no card was played, yet {}: computed tricks are null",
                        match k.accepted {
                            Some(a) => format!("accepted is {a}, not 0"),
                            None => "who follows is not known".to_string(),
                        }
                    ),
                ));
            }
            return r;
        }
        // The players of each throw.
        let invitation = matches!(k.kontra, Some(Some((KontraLevel::Invitation, _))));
        let out = match (k.main, k.accepted) {
            (Some(m), Some(a)) if (1..=3).contains(&a) && a != m as i32 && !invitation => {
                (1..=3u8).find(|&p| p != m && p as i32 != a)
            }
            _ => None,
        };
        let mut players: Vec<Option<[usize; 3]>> = Vec::with_capacity(n);
        let mut untold: Vec<&syntax::Throw<'_>> = Vec::new();
        for (i, t) in k.throws.iter().enumerate() {
            let p = match (r.leaders[i], t.cards) {
                (Some(l), Some((_, 3))) => Some([l, next(l), next(next(l))]),
                (Some(l), Some((_, 2))) => match out {
                    Some(o) if o != l => {
                        let second = if next(l) == o { next(next(l)) } else { next(l) };
                        Some([l, second, 0])
                    }
                    _ => {
                        untold.push(t);
                        None
                    }
                },
                _ => None,
            };
            players.push(p.map(|p| p.map(|x| x as usize)));
        }
        if let Some(first) = untold.first() {
            g.warn(
                first.text.at,
                codes::PLAYERS,
                format!(
                    "{} of two cards (the first '{}'), and the players who play cannot be told (main {}, accepted {}, {}): their computed winners are null",
                    if untold.len() == 1 { "a throw".to_string() } else { format!("{} throws", untold.len()) },
                    g.text(first.text.bytes),
                    k.main.map_or("unknown".into(), |m| m.to_string()),
                    k.accepted.map_or("unknown".into(), |a| a.to_string()),
                    if invitation { "an invitation" } else { "no invitation" },
                ),
            );
        }
        let why = if k.contract.is_none() {
            Some("the contract could not be read")
        } else if !k.contract.is_some_and(Contract::trump_known) {
            Some("the contract is preferans (8), whose rules the spec does not give")
        } else if k.order.is_none() || k.cards.is_none() {
            Some("the cards dealt could not be read")
        } else if k.throws.iter().any(|t| t.cards.is_none()) {
            Some("a throw could not be read")
        } else if players.iter().any(Option::is_none) {
            Some("the players of a throw could not be told")
        } else {
            None
        };
        if let Some(why) = why {
            let at = k.throws.first().map_or(0, |t| t.text.at);
            g.diags.push(Diag::info(
                at,
                codes::NOT_COMPUTED,
                format!("the throws are not replayed: {why}; computed winners and tricks are null"),
            ));
            return r;
        }
        let trump = k.contract.and_then(Contract::trump);
        // Players 0-based, for the rules.
        let tricks: Vec<([usize; 3], &[Card])> = k
            .throws
            .iter()
            .zip(&players)
            .map(|(t, p)| {
                let (cards, len) = t.cards.as_ref().expect("read");
                let p = p.expect("told").map(|x| x.saturating_sub(1));
                (p, &cards[..*len])
            })
            .collect();
        let view: Vec<Trick<'_>> = tricks
            .iter()
            .map(|(p, c)| Trick {
                players: &p[..c.len()],
                cards: c,
            })
            .collect();
        let (winners, issues) = rules::play(&hands, &view, trump);
        for issue in issues {
            let (t, p, card, code, what) = match issue {
                Issue::NotHeld {
                    trick,
                    player,
                    card,
                } => {
                    let dealt = hands[player].as_ref().is_some_and(|h| h.contains(&card));
                    let holder =
                        (0..3).find(|&q| hands[q].as_ref().is_some_and(|h| h.contains(&card)));
                    let what = if dealt {
                        "which they played already".to_string()
                    } else {
                        match holder {
                            Some(q) => format!("which player {} holds", q + 1),
                            None => "which is in the talon or was discarded".to_string(),
                        }
                    };
                    (trick, player, card, codes::NOT_HELD, what)
                }
                Issue::NotFollowed {
                    trick,
                    player,
                    card,
                } => (
                    trick,
                    player,
                    card,
                    codes::NOT_FOLLOWED,
                    "while holding the suit led".to_string(),
                ),
                Issue::NotTrumped {
                    trick,
                    player,
                    card,
                } => (
                    trick,
                    player,
                    card,
                    codes::NOT_FOLLOWED,
                    "neither the suit led nor trump, while holding a trump".to_string(),
                ),
            };
            let th = &k.throws[t];
            let i = tricks[t].0[..tricks[t].1.len()]
                .iter()
                .position(|&x| x == p)
                .unwrap_or(0);
            g.warn(
                th.text.at + i,
                code,
                format!(
                    "trick {}: player {} plays {}, {what}",
                    t + 1,
                    p + 1,
                    name(card)
                ),
            );
        }
        let mut won = [0u32; 3];
        for (i, w) in winners.iter().enumerate() {
            let w = w.map(|x| x as u8 + 1);
            r.winners[i] = w;
            if let Some(w) = w {
                won[w as usize - 1] += 1;
                let th = &k.throws[i];
                if let Some(a) = th.winner
                    && a != w
                {
                    g.warn(
                        th.text.at + th.text.bytes.len() - 1,
                        codes::WINNER,
                        format!(
                            "trick {}: the winner is written as player {a}; by the rules player {w} wins it",
                            i + 1
                        ),
                    );
                }
            }
        }
        r.tricks = Some(won);
        r
    }
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
        };
        let mut b = Builders::for_records(1);
        build_record(&file, &rec, true, &mut b);
        let tables = b.finish().unwrap();
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
