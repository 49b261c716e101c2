//! One deal line: its fields read (each warned of and null when it cannot
//! be), checked by the rules, and written as a `deals` row, three `seats`
//! rows and a `tricks` row per throw.

use super::rules_check::{Known, Rules};
use super::*;
use syntax::{
    ACCEPTED, BIDS, CARDS, CONTRACT, DISCARDED, Entry, FIELDS, ID, KONTRA, MAIN, ORDER, REFA,
    STARTS, SUMMARY, Shape, Slots, THROWS, Throw, VALUE,
};

/// A deal line's fields, as read.
struct Deal<'a> {
    slots: Slots<'a>,
    /// The 4-field form of a passed-out deal.
    short: bool,
    order: Option<[u8; 3]>,
    cards: Option<Vec<Card>>,
    bids: Option<[&'a [u8]; 3]>,
    passed_out: Option<bool>,
    main: Option<u8>,
    discard: Option<Option<[Card; 2]>>,
    contract: Option<Contract>,
    accepted: Option<i32>,
    kontra: Option<Option<(KontraLevel, u8)>>,
    refa: Option<bool>,
    value: Option<i32>,
    starts: Option<u8>,
    throws: Vec<Throw<'a>>,
    entries: Option<Vec<Option<Entry>>>,
}

/// A player's bid, role and summary entry.
type Seat<'a> = (Option<&'a [u8]>, Option<&'static str>, Option<Entry>);

/// Where a deal line's rows go.
pub(super) struct DealAt {
    pub(super) key: i64,
    pub(super) seq: i32,
    pub(super) line_no: i64,
    /// Its offset in the record.
    pub(super) at: usize,
}

/// One deal line's rows; false when the line is quarantined.
pub(super) fn deal<'a>(
    g: &mut Game<'a>,
    place: DealAt,
    fields: &[Field<'a>],
    compute: bool,
    out: &mut Builders,
) -> bool {
    let Some((slots, short)) = slots_of(g, place.at, fields) else {
        return false;
    };
    let d = read_fields(g, slots, short, place.at);
    // The rules: the deck, the discards, the throws.
    let rules = Rules::check(
        g,
        &Known {
            order: d.order,
            cards: d.cards.as_deref(),
            cards_at: slots[CARDS].map(|f| f.at),
            main: d.main,
            discard: d.discard,
            discard_at: slots[DISCARDED].map(|f| f.at),
            contract: d.contract,
            accepted: d.accepted,
            kontra: d.kontra,
            starts: d.starts,
            throws: &d.throws,
            throws_at: slots[THROWS].map(|f| f.at),
            passed: d.passed_out == Some(true) || slots[THROWS].is_none(),
        },
        compute,
    );
    let seats = seats_of(g, &d, &rules, place.at);
    deals_row(g, &place, &d, out);
    seats_rows(g, &place, &d, &seats, &rules, out);
    tricks_rows(&place, &d, &rules, out);
    true
}

/// The line's fields in their slots, and whether it has the short form;
/// None when the line is quarantined.
fn slots_of<'a>(g: &mut Game<'a>, at: usize, fields: &[Field<'a>]) -> Option<(Slots<'a>, bool)> {
    match syntax::shape(fields) {
        Err(why) => {
            g.quarantine_line(at, codes::DEAL_LINE, why);
            None
        }
        Ok(Shape::Full(s)) => Some((s, false)),
        Ok(Shape::Short(s)) => Some((s, true)),
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
            Some((s, false))
        }
    }
}

/// Where the field after a missing one starts (for the F013 warning).
fn slots_at(s: &Slots<'_>, gap: usize) -> Option<usize> {
    s[gap + 1..].iter().flatten().next().map(|f| f.at)
}

/// Reads each field of the line, warning of those that cannot be read.
fn read_fields<'a>(g: &mut Game<'a>, slots: Slots<'a>, short: bool, at: usize) -> Deal<'a> {
    let order = field(g, &slots, ORDER, syntax::order, "three players, each once");
    let cards = read_cards(g, &slots);
    let bids = read_bids(g, &slots);
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
    let main = field(g, &slots, MAIN, syntax::player, "a player (1 to 3)");
    let discard = field(g, &slots, DISCARDED, syntax::discarded, "two cards or XX");
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
    let starts = field(g, &slots, STARTS, syntax::player, "a player (1 to 3)");
    let throws = read_throws(g, &slots);
    let entries = read_summary(g, &slots);
    Deal {
        slots,
        short,
        order,
        cards,
        bids,
        passed_out,
        main,
        discard,
        contract,
        accepted,
        kontra,
        refa,
        value,
        starts,
        throws,
        entries,
    }
}

/// Reads a field with `f`, or warns (F014) and gives None.
fn field<'a, T>(
    g: &mut Game<'a>,
    slots: &Slots<'a>,
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
                FIELDS[k],
                g.text(x.bytes)
            ),
        );
    }
    v
}

/// The 32 cards of the deal (the three hands, then the talon).
fn read_cards(g: &mut Game<'_>, slots: &Slots<'_>) -> Option<Vec<Card>> {
    let f = slots[CARDS]?;
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
}

/// The three players' highest bids.
fn read_bids<'a>(g: &mut Game<'a>, slots: &Slots<'a>) -> Option<[&'a [u8]; 3]> {
    let f = slots[BIDS]?;
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
}

/// The throws, each warned of whose cards cannot be read.
fn read_throws<'a>(g: &mut Game<'a>, slots: &Slots<'a>) -> Vec<Throw<'a>> {
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
    throws
}

/// The summary's three entries (each None when it cannot be read).
fn read_summary(g: &mut Game<'_>, slots: &Slots<'_>) -> Option<Vec<Option<Entry>>> {
    let f = slots[SUMMARY]?;
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
        let e = syntax::entry(p);
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
}

/// Each player's bid, role (the summary's, else the main and accepted
/// fields') and summary entry; the summary's roles and tricks checked
/// against the fields' and the rules'.
fn seats_of<'a>(g: &mut Game<'_>, d: &Deal<'a>, rules: &Rules, at: usize) -> [Seat<'a>; 3] {
    let field_role = |p: u8| -> Option<&'static str> {
        if d.short && d.passed_out == Some(true) {
            return Some("none");
        }
        let m = d.main?;
        if p == m {
            return Some("main");
        }
        let a = d.accepted?;
        Some(if a == p as i32 || a >= 4 {
            "follower"
        } else {
            "none"
        })
    };
    let summary_at = d.slots[SUMMARY].map_or(at, |f| f.at);
    // Invited to play by the follower's invitation: the spec writes the
    // player's entry `0` on its deal line and gives them tricks and a score
    // in its JSON of the same deal; either is theirs.
    let invited = match (d.kontra, d.main, d.accepted) {
        (Some(Some((KontraLevel::Invitation, _))), Some(m), Some(a)) => {
            (1..=3u8).find(|&p| p != m && p as i32 != a)
        }
        _ => None,
    };
    let mut seats: [Seat<'_>; 3] = [(None, None, None); 3];
    for p in 1..=3u8 {
        let i = d.order.and_then(|o| o.iter().position(|&x| x == p));
        let bid = i.and_then(|i| d.bids.map(|b| b[i]));
        let e = i.and_then(|i| d.entries.as_ref().and_then(|v| v[i]));
        let from_summary = e.map(|e| match e.role {
            b'M' => "main",
            b'F' => "follower",
            _ => "none",
        });
        let by_fields = field_role(p);
        let either = invited == Some(p) && matches!(from_summary, Some("follower" | "none"));
        if let (Some(s), Some(f)) = (from_summary, by_fields)
            && s != f
            && !either
        {
            g.warn(
                summary_at,
                codes::ROLES,
                format!(
                    "player {p}'s summary entry makes them {s}; the main and accepted fields make them {f}"
                ),
            );
        }
        seats[p as usize - 1] = (bid, from_summary.or(by_fields), e);
    }
    // Tricks in the summary against the rules'.
    if let Some(ct) = &rules.tricks {
        for p in 1..=3u8 {
            let Some(stated) = seats[p as usize - 1].2.and_then(|e| e.tricks) else {
                continue;
            };
            let c = ct[p as usize - 1] as i32;
            let all = d.throws.len() == 10 || d.throws.is_empty();
            if (all && stated != c) || (!all && stated < c) {
                g.warn(
                    summary_at,
                    codes::TRICKS,
                    format!(
                        "player {p}'s summary gives {stated} tricks; the rules give {c} in the {} throws",
                        d.throws.len()
                    ),
                );
            }
        }
    }
    seats
}

/// The `deals` row.
fn deals_row(g: &Game<'_>, place: &DealAt, d: &Deal<'_>, out: &mut Builders) {
    let r = &mut out.deals;
    let text = |k: usize| d.slots[k].map(|f| g.text(f.bytes));
    r.game_id.append_value(place.key);
    r.seq.append_value(place.seq);
    r.line.append_value(place.line_no);
    r.deal.append_option(text(ID));
    r.deal_order.append_option(text(ORDER));
    r.dealer.append_option(d.order.map(|o| o[2] as i32));
    r.cards.append_option(text(CARDS));
    r.talon.append_cards(d.cards.as_ref().map(|c| &c[30..32]));
    r.bids.append_option(text(BIDS));
    r.passed_out.append_option(d.passed_out);
    r.main.append_option(d.main.map(i32::from));
    r.discarded.append_cards(
        d.discard
            .as_ref()
            .map(|x| x.as_ref().map_or(&[][..], |c| &c[..])),
    );
    r.contract
        .append_option(d.contract.map(|c| c.number as i32));
    r.contract_name
        .append_option(d.contract.map(Contract::name));
    r.without_talon
        .append_option(d.contract.map(|c| c.without_talon));
    r.accepted.append_option(d.accepted);
    r.kontra.append_option(text(KONTRA));
    r.kontra_level
        .append_option(d.kontra.flatten().map(|k| k.0.name()));
    r.kontra_player
        .append_option(d.kontra.flatten().map(|k| k.1 as i32));
    r.refa.append_option(d.refa);
    r.value.append_option(d.value);
    r.starts.append_option(d.starts.map(i32::from));
    r.throws.append_option(text(THROWS));
    r.summary.append_option(text(SUMMARY));
}

/// The three `seats` rows.
fn seats_rows(
    g: &Game<'_>,
    place: &DealAt,
    d: &Deal<'_>,
    seats: &[Seat<'_>; 3],
    rules: &Rules,
    out: &mut Builders,
) {
    let s = &mut out.seats;
    for p in 1..=3u8 {
        let (bid, role, e) = seats[p as usize - 1];
        s.game_id.append_value(place.key);
        s.seq.append_value(place.seq);
        s.player.append_value(p as i32);
        let i = d.order.and_then(|o| o.iter().position(|&x| x == p));
        s.dealt.append_cards(
            d.cards
                .as_ref()
                .zip(i)
                .map(|(c, i)| &c[i * 10..i * 10 + 10]),
        );
        s.highest_bid.append_option(bid.map(|b| g.text(b)));
        s.role.append_option(role);
        s.tricks.append_option(e.and_then(|e| e.tricks));
        s.left.append_option(e.and_then(|e| e.left));
        s.middle.append_option(e.and_then(|e| e.middle));
        s.right.append_option(e.and_then(|e| e.right));
        s.computed_tricks
            .append_option(rules.tricks.as_ref().map(|t| t[p as usize - 1] as i32));
    }
}

/// A `tricks` row per throw.
fn tricks_rows(place: &DealAt, d: &Deal<'_>, rules: &Rules, out: &mut Builders) {
    let t = &mut out.tricks;
    for (n, th) in d.throws.iter().enumerate() {
        t.game_id.append_value(place.key);
        t.seq.append_value(place.seq);
        t.trick.append_value(n as i32 + 1);
        t.leader.append_option(rules.leaders[n].map(i32::from));
        t.cards
            .append_cards(th.cards.as_ref().map(|(c, k)| &c[..*k]));
        t.winner.append_option(th.winner.map(i32::from));
        t.computed_winner
            .append_option(rules.winners.get(n).copied().flatten().map(i32::from));
    }
}
