//! The meaning of a PHH hand, written into the poker tables: each field of
//! the standard into its column with its TOML type checked, per-player
//! arrays into `players`, each action string into `actions`.
//!
//! What cannot go into its column (a value of the wrong type, an array of
//! the wrong length, an amount deckhand cannot hold exactly) is kept in
//! `user_fields` as TOML text, with a warning; so are `_`-prefixed fields
//! (silently) and unknown ones (with a warning).

use std::borrow::Cow;
use std::ops::Range;

use super::action::{self, Cards, Kind};
use super::codes;
use super::doc::{self, Doc, Entry, Node, Val};
use super::{PHH, Rec};
use crate::columns::decimal::{self, DecError};
use crate::columns::errors_table::RecordRef;
use crate::columns::table::{append_kv, append_strs};
use crate::error::{Diag, Diags, Locator};
use crate::games::poker::rules::{self, Act, Replay, Setup};
use crate::games::poker::tables::Builders;
use crate::games::poker::{Betting, Card, Variant};
use crate::notation::{FileInfo, record_id};

type Value<'a> = Node<'a>;

/// An array's values and where it is written.
type Placed<T> = Option<(Vec<Option<T>>, Range<usize>)>;

/// Builds the rows of one record (none for a file's description).
pub fn build_record(file: &FileInfo, rec: &Rec<'_>, compute: bool, out: &mut Builders) {
    if rec.description {
        return;
    }
    let mut diags = Diags::default();
    let mut id = None;
    // The fast reader, or the crate where it gives up.
    let read = |text| match doc::read(text) {
        Some(d) => Ok(d),
        None => super::read_toml(text).map(|d| doc::from_crate(&d)),
    };
    match (&rec.error, rec.text.map(read)) {
        (Some((code, at, msg)), _) => diags.push(Diag::error(*at, code, msg.clone())),
        (None, Some(Err((at, msg)))) => diags.push(Diag::error(at, codes::SYNTAX, msg)),
        (None, Some(Ok(mut doc))) => {
            let key = record_id(file.index, rec.index);
            id = Some(key);
            let mut h = Hand::new(rec, &mut diags);
            h.compute = compute;
            h.read(&mut doc);
            h.write(file, key, out);
        }
        (None, None) => {}
    }
    let diags = diags.finish_with(codes::UNLISTED);
    let refr = RecordRef {
        file: &file.name,
        notation: Some((PHH.label, PHH.game)),
        bytes: rec.raw,
        byte: rec.item.start,
        line: rec.item.line,
        index: rec.index,
        record_id: id,
    };
    let mut locate = Locator::new(rec.raw, rec.item.start, rec.item.line, rec.index);
    for d in &diags {
        out.errors.push(&refr, locate.position(d.at as usize), d);
    }
}

/// The string fields with a column of their own, in column order.
const TEXTS: [&str; 13] = [
    "author",
    "event",
    "url",
    "venue",
    "address",
    "city",
    "region",
    "postal_code",
    "country",
    "time_zone",
    "time_zone_abbreviation",
    "currency",
    "currency_symbol",
];

/// The integer fields, in column order.
const INTS: [&str; 5] = ["day", "month", "year", "level", "seat_count"];

/// The amount fields, in column order.
const AMOUNTS: [&str; 5] = ["bring_in", "small_bet", "big_bet", "min_bet", "time_limit"];

/// The per-player amount arrays, in column order.
const ARRAYS: [&str; 6] = [
    "antes",
    "blinds_or_straddles",
    "starting_stacks",
    "finishing_stacks",
    "winnings",
    "time_banks",
];
const ANTES: usize = 0;
const BLINDS: usize = 1;
const STACKS: usize = 2;

/// The fields the required-field check looks for.
const CHECKED: [&str; 9] = [
    "variant",
    "antes",
    "blinds_or_straddles",
    "bring_in",
    "small_bet",
    "big_bet",
    "min_bet",
    "starting_stacks",
    "actions",
];

/// Amounts that may be `inf` (unknown): stacks, time limits and banks.
fn may_be_inf(field: &str) -> bool {
    matches!(
        field,
        "starting_stacks" | "finishing_stacks" | "time_limit" | "time_banks"
    )
}

/// An amount of a TOML number, in millionths; `Ok(None)` for `inf` where
/// allowed.
fn amount(field: &str, v: &Val<'_>) -> Result<Option<i128>, String> {
    match v {
        Val::BigInt(t) => Err(format!("{t} is too large (10^12 or more)")),
        Val::Int(n) => {
            let n = *n as i128;
            match n
                .checked_mul(decimal::ONE)
                .filter(|m| m.abs() <= decimal::MAX)
            {
                Some(m) => Ok(Some(m)),
                None => Err(format!("{n} is too large (10^12 or more)")),
            }
        }
        Val::Float(f) => {
            let t: &str = f;
            let t = t.strip_prefix('+').unwrap_or(t);
            if t == "inf" && may_be_inf(field) {
                return Ok(None);
            }
            if t.ends_with("inf") || t.ends_with("nan") {
                return Err(format!("{f} is no amount"));
            }
            decimal::parse(t.as_bytes(), false)
                .map(Some)
                .map_err(|e| match e {
                    DecError::Precision => format!("{t} has more than 6 decimal places"),
                    DecError::Range => format!("{t} is too large (10^12 or more)"),
                    DecError::Syntax => format!("{t} is no amount"),
                })
        }
        other => Err(format!("a {} where a number belongs", other.type_str())),
    }
}

/// What a hand's fields gave.
struct Hand<'r, 'a> {
    rec: &'r Rec<'a>,
    text: &'a str,
    diags: &'r mut Diags,
    variant: Option<Cow<'a, str>>,
    trimming: Option<bool>,
    texts: [Option<Cow<'a, str>>; TEXTS.len()],
    ints: [Option<i32>; INTS.len()],
    amounts: [Option<i128>; AMOUNTS.len()],
    /// Each array's values, and where it is.
    arrays: [Placed<i128>; ARRAYS.len()],
    seats: Placed<i32>,
    names: Placed<Cow<'a, str>>,
    hand: Option<Cow<'a, str>>,
    table: Option<Cow<'a, str>>,
    time: Option<String>,
    /// The actions: each string (None for an element not a string: its
    /// TOML text is `raw`) and where it is.
    actions: Vec<(Option<Cow<'a, str>>, Range<usize>)>,
    section: Option<Cow<'a, str>>,
    /// Which of [`CHECKED`] are given (bit k for field k).
    given: u16,
    /// The comments the fast reader collected (None: the crate read the
    /// hand, and they are found in its text).
    comments: Option<Vec<&'a str>>,
    user: Vec<(String, String)>,
    /// Replay the hand by the rules.
    compute: bool,
    /// An amount the replay uses is written as a float (pots then split
    /// to the millionth, not to the chip).
    floats: bool,
}

impl<'r, 'a> Hand<'r, 'a> {
    fn new(rec: &'r Rec<'a>, diags: &'r mut Diags) -> Self {
        Hand {
            rec,
            text: std::str::from_utf8(rec.raw).unwrap_or(""),
            diags,
            variant: None,
            trimming: None,
            texts: Default::default(),
            ints: [None; INTS.len()],
            amounts: [None; AMOUNTS.len()],
            arrays: Default::default(),
            seats: None,
            names: None,
            hand: None,
            table: None,
            time: None,
            actions: Vec::new(),
            section: None,
            given: 0,
            comments: None,
            user: Vec::new(),
            compute: true,
            floats: false,
        }
    }

    fn raw(&self, span: Range<usize>) -> &'a str {
        self.text.get(span).unwrap_or("")
    }

    fn warn(&mut self, at: usize, code: &'static str, message: String) {
        self.diags.push(Diag::warning(at, code, message));
    }

    /// Keeps a field in `user_fields`, as written.
    fn keep(&mut self, name: &str, value: &Value<'a>) {
        let raw = self.raw(value.span.clone()).to_string();
        self.user.push((name.to_string(), raw));
    }

    /// A field whose value is not of its type: kept, with a warning.
    fn wrong_type(&mut self, name: &str, value: &Value<'a>, want: &str) {
        let m = format!(
            "{name} is {} where the standard has {want}: kept in user_fields",
            article(value.val.type_str())
        );
        self.warn(value.span.start, codes::WRONG_TYPE, m);
        self.keep(name, value);
    }

    fn read(&mut self, doc: &mut Doc<'a>) {
        self.comments = doc.comments.take();
        // A `.phhs` hand: a table header, one table.
        let starts_with_header = self
            .text
            .lines()
            .map(str::trim_start)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .is_some_and(|l| l.starts_with('['));
        let mut fields: &[Entry<'a>] = &doc.fields;
        if starts_with_header
            && let [
                (
                    k,
                    _,
                    Node {
                        val: Val::Table(t), ..
                    },
                ),
            ] = fields
        {
            self.section = Some(k.clone());
            fields = t;
        }
        for (name, at, v) in fields {
            self.field(name, *at, v);
        }
        self.check_required();
    }

    fn field(&mut self, name: &str, at: usize, v: &Value<'a>) {
        if let Some(k) = CHECKED.iter().position(|&c| c == name) {
            self.given |= 1 << k;
        }
        let val = &v.val;
        if name.starts_with('_') {
            self.keep(name, v);
            return;
        }
        if let Some(i) = TEXTS.iter().position(|&t| t == name) {
            match val {
                Val::Str(s) => self.texts[i] = Some(s.clone()),
                _ => self.wrong_type(name, v, "a string"),
            }
            return;
        }
        if let Some(i) = INTS.iter().position(|&t| t == name) {
            match val {
                Val::Int(_) | Val::BigInt(_) => match val {
                    Val::Int(n) if i32::try_from(*n).is_ok() => self.ints[i] = Some(*n as i32),
                    _ => {
                        let raw = self.raw(v.span.clone());
                        let m = format!("{name} = {raw} is out of range: kept in user_fields");
                        self.warn(v.span.start, codes::BAD_VALUE, m);
                        self.keep(name, v);
                    }
                },
                _ => self.wrong_type(name, v, "an integer"),
            }
            return;
        }
        if let Some(i) = AMOUNTS.iter().position(|&t| t == name) {
            self.floats |= i < 4 && matches!(val, Val::Float(_));
            match amount(name, val) {
                Ok(a) => self.amounts[i] = a,
                Err(e) => self.bad_amount(name, v, &e),
            }
            return;
        }
        if let Some(i) = ARRAYS.iter().position(|&t| t == name) {
            let Val::Array(items) = val else {
                return self.wrong_type(name, v, "an array of numbers");
            };
            let mut values = Vec::with_capacity(items.len());
            for item in items.iter() {
                self.floats |= i <= STACKS && matches!(item.val, Val::Float(_));
                match amount(name, &item.val) {
                    Ok(a) => values.push(a),
                    Err(e) => return self.bad_amount(name, v, &e),
                }
            }
            if let Some(neg) = values.iter().flatten().find(|&&a| a < 0) {
                let m = format!("{name} holds {}, below zero", decimal::render(*neg));
                self.warn(v.span.start, codes::BAD_VALUE, m);
            }
            self.arrays[i] = Some((values, v.span.clone()));
            return;
        }
        match name {
            "variant" => match val {
                Val::Str(s) => self.variant = Some(s.clone()),
                _ => self.wrong_type(name, v, "a string"),
            },
            "ante_trimming_status" => match val {
                Val::Bool(b) => self.trimming = Some(*b),
                _ => self.wrong_type(name, v, "a boolean"),
            },
            "hand" | "table" => {
                let t = match val {
                    Val::Str(s) => Some(s.clone()),
                    Val::Int(_) | Val::BigInt(_) => Some(Cow::Borrowed(self.raw(v.span.clone()))),
                    _ => None,
                };
                match t {
                    Some(t) if name == "hand" => self.hand = Some(t),
                    Some(t) => self.table = Some(t),
                    None => self.wrong_type(name, v, "a string or an integer"),
                }
            }
            // As written (`20:15:00.500` stays so).
            "time" => match val {
                Val::Datetime {
                    local_time: true, ..
                } => self.time = Some(self.raw(v.span.clone()).to_string()),
                _ => self.wrong_type(name, v, "a local time"),
            },
            "seats" => {
                let ints = match val {
                    Val::Array(items) => items
                        .iter()
                        .map(|x| match x.val {
                            Val::Int(n) => i32::try_from(n).ok(),
                            _ => None,
                        })
                        .collect::<Option<Vec<_>>>(),
                    _ => None,
                };
                match ints {
                    Some(s) => {
                        self.seats = Some((s.into_iter().map(Some).collect(), v.span.clone()))
                    }
                    None => self.wrong_type(name, v, "an array of integers"),
                }
            }
            "players" => {
                let names = match val {
                    Val::Array(items) => items
                        .iter()
                        .map(|x| matches!(x.val, Val::Str(_)).then_some(()))
                        .collect::<Option<Vec<_>>>()
                        .map(|_| {
                            items
                                .iter()
                                .map(|x| match &x.val {
                                    Val::Str(s) => Some(s.clone()),
                                    _ => None,
                                })
                                .collect::<Vec<_>>()
                        }),
                    _ => None,
                };
                match names {
                    Some(n) => self.names = Some((n, v.span.clone())),
                    None => self.wrong_type(name, v, "an array of strings"),
                }
            }
            "actions" => {
                let Val::Array(items) = val else {
                    return self.wrong_type(name, v, "an array of strings");
                };
                for item in items.iter() {
                    match &item.val {
                        Val::Str(s) => self.actions.push((Some(s.clone()), item.span.clone())),
                        other => {
                            let m = format!(
                                "action {} is {} where the standard has a string: its text is kept, it does nothing",
                                self.actions.len(),
                                article(other.type_str())
                            );
                            self.warn(item.span.start, codes::WRONG_TYPE, m);
                            self.actions.push((None, item.span.clone()));
                        }
                    }
                }
            }
            _ => {
                let m = format!(
                    "unknown field '{name}' (user-defined fields start with '_'): kept in user_fields"
                );
                self.warn(at, codes::UNKNOWN_FIELD, m);
                self.keep(name, v);
            }
        }
    }

    fn bad_amount(&mut self, name: &str, v: &Value<'a>, why: &str) {
        let m = format!("{name}: {why}: kept in user_fields");
        let code = if why.starts_with("a ") {
            codes::WRONG_TYPE
        } else {
            codes::BAD_VALUE
        };
        self.warn(v.span.start, code, m);
        self.keep(name, v);
    }

    /// The variant's required fields given, and no field it never uses.
    fn check_required(&mut self) {
        let Some(code) = self.variant.clone() else {
            if !self.has("variant") {
                self.warn(
                    0,
                    codes::MISSING,
                    "no variant: the required fields are not checked".into(),
                );
            }
            return;
        };
        let Some(variant) = Variant::from_code(&code) else {
            let m = format!(
                "unknown variant '{code}' (the standard's are FT, NT, NS, PO, FO/8, F7S, F7S/8, FR, N2L1D, F2L3D, FB): the required fields are not checked"
            );
            self.warn(0, codes::UNKNOWN_VARIANT, m);
            return;
        };
        let fixed = variant.betting() == Betting::FixedLimit;
        let needs: [(&str, bool); 8] = [
            ("antes", true),
            ("blinds_or_straddles", !variant.stud()),
            ("bring_in", variant.stud()),
            ("small_bet", fixed),
            ("big_bet", fixed),
            ("min_bet", !fixed),
            ("starting_stacks", true),
            ("actions", true),
        ];
        let mut missing = Vec::new();
        let mut unused = Vec::new();
        for (f, need) in needs {
            match (need, self.has(f)) {
                (true, false) => missing.push(f),
                (false, true) => unused.push(f),
                _ => {}
            }
        }
        if !missing.is_empty() {
            let m = format!("{code} requires {}: not given", missing.join(", "));
            self.warn(0, codes::MISSING, m);
        }
        for f in unused {
            let at = self.field_at(f);
            let m = format!("{f} is not a field of {code} games: kept in its column");
            self.warn(at, codes::NOT_USED, m);
        }
    }

    /// Whether field `name` (one of [`CHECKED`]) is given.
    fn has(&self, name: &str) -> bool {
        CHECKED
            .iter()
            .position(|&c| c == name)
            .is_some_and(|k| self.given & (1 << k) != 0)
    }

    /// Where field `name` is written (its value), or 0.
    fn field_at(&self, name: &str) -> usize {
        let i = ARRAYS.iter().position(|&a| a == name);
        match i.and_then(|i| self.arrays[i].as_ref()) {
            Some((_, span)) => span.start,
            None => self.text.find(&format!("\n{name}")).map_or(0, |p| p + 1),
        }
    }

    /// The number of players: the length of `starting_stacks`, or of the
    /// first per-player array given.
    fn player_count(&self) -> Option<usize> {
        let stacks = self.arrays[STACKS].as_ref().map(|a| a.0.len());
        stacks
            .or_else(|| self.arrays.iter().flatten().map(|a| a.0.len()).next())
            .or_else(|| self.names.as_ref().map(|n| n.0.len()))
            .or_else(|| self.seats.as_ref().map(|s| s.0.len()))
    }

    fn write(mut self, file: &FileInfo, id: i64, out: &mut Builders) {
        let n = self.player_count();
        // Arrays of another length than the players': kept, not placed.
        if let Some(n) = n {
            #[allow(clippy::needless_range_loop)]
            for i in 0..ARRAYS.len() {
                if let Some((vals, span)) = &self.arrays[i]
                    && vals.len() != n
                {
                    let (len, span) = (vals.len(), span.clone());
                    self.wrong_length(ARRAYS[i], len, n, span.clone());
                    self.arrays[i] = None;
                }
            }
            if let Some((vals, span)) = &self.seats
                && vals.len() != n
            {
                let (len, span) = (vals.len(), span.clone());
                self.wrong_length("seats", len, n, span);
                self.seats = None;
            }
            if let Some((vals, span)) = &self.names
                && vals.len() != n
            {
                let (len, span) = (vals.len(), span.clone());
                self.wrong_length("players", len, n, span);
                self.names = None;
            }
        }
        let short_deck = self
            .variant
            .as_deref()
            .and_then(Variant::from_code)
            .is_some_and(Variant::short_deck);
        let players = n.unwrap_or(0);
        let mut dealt: Vec<Vec<&str>> = vec![Vec::new(); players];
        let mut was_dealt = vec![false; players];
        // The cards each player holds: dealt, less discards.
        let mut held: Vec<Vec<&str>> = vec![Vec::new(); players];
        let mut shown: Vec<Option<Vec<&str>>> = vec![None; players];
        let mut mucked: Vec<Option<bool>> = vec![None; players];
        let mut board: Vec<&str> = Vec::new();
        let mut streets = Streets::new(players);
        let mut locate = Locator::new(
            self.rec.raw,
            self.rec.item.start,
            self.rec.item.line,
            self.rec.index,
        );
        let actions = std::mem::take(&mut self.actions);
        let a = &mut out.actions;
        let mut seq = 0i32;
        let mut bad: Vec<(usize, &'static str, String)> = Vec::new();
        // What the replay needs of each action, its cards in `deck`.
        let (mut plays, mut deck) = SCRATCH.take();
        plays.clear();
        deck.clear();
        for (s, span) in &actions {
            a.hand_id.append_value(id);
            a.seq.append_value(seq);
            a.line.append_value(locate.position(span.start).line as i64);
            seq = seq.saturating_add(1);
            let Some(s) = s else {
                a.street.append_value(streets.street);
                a.text.append_value(self.raw(span.clone()));
                for_noop(a);
                plays.push(Play::Unread);
                continue;
            };
            // Offsets in the string are offsets in the file after the
            // opening quote(s) when it holds no escapes.
            let quote = if self.raw(span.clone()).starts_with("\"\"\"")
                || self.raw(span.clone()).starts_with("'''")
            {
                3
            } else {
                1
            };
            let base = span.start + quote;
            let s: &str = s;
            let (act, err) = action::parse(s);
            if let Some(e) = &err {
                bad.push((
                    base + e.at,
                    codes::BAD_ACTION,
                    format!("action {}: {}", seq - 1, e.message),
                ));
            }
            let kind = act.kind;
            let street = streets.next(kind, act.player);
            a.street.append_value(street);
            a.actor.append_option(act.actor);
            a.action.append_option(kind.map(Kind::code));
            a.amount.append_option(act.amount);
            a.commentary.append_option(act.commentary);
            a.text.append_value(s);
            // The player, in range.
            let p = act.player.and_then(|p| {
                let ok = n.is_none_or(|n| (p as usize) <= n);
                if !ok {
                    let m = format!(
                        "action {}: player p{p} of {} players: the row's player is null",
                        seq - 1,
                        players
                    );
                    bad.push((base, codes::NO_PLAYER, m));
                }
                ok.then_some(p)
            });
            a.player.append_option(
                p.filter(|_| kind != Some(Kind::DealBoard))
                    .map(|p| p as i32),
            );
            let slot = p.map(|p| p as usize - 1).filter(|&i| i < players);
            // The cards.
            let cards: Option<Vec<&str>> = match &act.cards {
                Cards::None if matches!(kind, Some(Kind::StandPatDiscard | Kind::ShowMuck)) => {
                    Some(Vec::new())
                }
                Cards::None => None,
                Cards::Listed(c) => {
                    let list: Vec<&str> = action::cards(c).map(|(t, _)| t).collect();
                    if let Some((i, (t, _))) = action::cards(c)
                        .enumerate()
                        .find(|(_, (_, card))| !card.in_deck(short_deck))
                    {
                        let at = base + (c.as_ptr() as usize - s.as_ptr() as usize) + 2 * i;
                        let m = format!(
                            "action {}: {t} is not in the short deck (no deuces to fives)",
                            seq - 1
                        );
                        bad.push((at, codes::NOT_IN_DECK, m));
                    }
                    Some(list)
                }
                Cards::Dealt => match slot {
                    Some(i) if was_dealt[i] => Some(held[i].clone()),
                    _ => {
                        let m = format!(
                            "action {}: '-' shows the cards dealt to the player, and none were: the row's cards are null",
                            seq - 1
                        );
                        bad.push((base, codes::NO_CARDS_DEALT, m));
                        None
                    }
                },
            };
            match (kind, slot) {
                (Some(Kind::DealHole), Some(i)) => {
                    was_dealt[i] = true;
                    dealt[i].extend(cards.iter().flatten().copied());
                    held[i].extend(cards.iter().flatten().copied());
                }
                (Some(Kind::StandPatDiscard), Some(i)) => {
                    for c in cards.iter().flatten() {
                        if let Some(k) = held[i].iter().position(|h| h == c) {
                            held[i].remove(k);
                        }
                    }
                }
                (Some(Kind::ShowMuck), Some(i)) => match &cards {
                    Some(c) if c.is_empty() => mucked[i] = Some(true),
                    Some(c) => {
                        mucked[i] = Some(false);
                        shown[i] = Some(c.clone());
                    }
                    None => {}
                },
                (Some(Kind::DealBoard), _) => board.extend(cards.iter().flatten().copied()),
                _ => {}
            }
            a.cards.append(cards.as_deref().filter(|_| kind.is_some()));
            // The replay's view of the action.
            if !self.compute {
                continue;
            }
            let from = deck.len();
            deck.extend(cards.iter().flatten().filter_map(|t| {
                let b = t.as_bytes();
                Card::from_letters(*b.first()?, *b.get(1)?)
            }));
            let listed = from..deck.len();
            if kind == Some(Kind::CompleteBetRaise)
                && s.bytes()
                    .take_while(|&b| b != b'#')
                    .any(|b| matches!(b, b'.' | b'e' | b'E'))
            {
                self.floats = true;
            }
            plays.push(match (kind, slot, err.is_some()) {
                (None, _, false) if act.actor.is_none() => Play::Noop,
                (Some(Kind::DealBoard), _, false) => Play::Act(kind, 0, None, listed, true),
                (Some(k), Some(i), false) => {
                    Play::Act(Some(k), i, act.amount, listed, cards.is_some())
                }
                _ => Play::Unread,
            });
        }
        for (at, code, m) in bad {
            self.warn(at, code, m);
        }
        let replay = self.replay(&plays, &deck, &actions);
        let a = &mut out.actions;
        for k in 0..actions.len() {
            let (kind, pot) = replay
                .as_ref()
                .and_then(|r| r.steps.get(k).copied())
                .unwrap_or((None, None));
            a.computed_kind.append_option(kind.map(rules::Kind::name));
            a.computed_pot_after.append_option(pot);
        }
        plays.truncate(1 << 12);
        deck.truncate(1 << 14);
        SCRATCH.set((plays, deck));
        let outcome = replay.as_ref().and_then(|r| r.outcome.as_ref());
        let rake = outcome.and_then(|o| self.check_stated(o));
        // hands
        let h = &mut out.hands;
        h.hand_id.append_value(id);
        h.source_file.append_value(&file.name);
        h.record_index.append_value(self.rec.index as i64);
        h.byte_offset.append_value(self.rec.item.start as i64);
        h.line.append_value(self.rec.item.line as i64);
        h.notation.append_value(PHH.label);
        h.notation_version.append_null();
        h.section.append_option(self.section.as_deref());
        h.variant.append_option(self.variant.as_deref());
        // The standard's default when the field is not given.
        h.ante_trimming_status
            .append_value(self.trimming.unwrap_or(false));
        h.antes
            .append(self.arrays[ANTES].as_ref().map(|a| a.0.as_slice()));
        h.blinds_or_straddles
            .append(self.arrays[BLINDS].as_ref().map(|a| a.0.as_slice()));
        h.bring_in.append_option(self.amounts[0]);
        h.small_bet.append_option(self.amounts[1]);
        h.big_bet.append_option(self.amounts[2]);
        h.min_bet.append_option(self.amounts[3]);
        h.players.append_option(n.map(|n| n as i32));
        let t = &self.texts;
        for (b, v) in [
            &mut h.author,
            &mut h.event,
            &mut h.url,
            &mut h.venue,
            &mut h.address,
            &mut h.city,
            &mut h.region,
            &mut h.postal_code,
            &mut h.country,
        ]
        .into_iter()
        .zip(&t[..9])
        {
            b.append_option(v.as_deref());
        }
        h.time.append_option(self.time.as_deref());
        h.time_zone.append_option(t[9].as_deref());
        h.time_zone_abbreviation.append_option(t[10].as_deref());
        h.day.append_option(self.ints[0]);
        h.month.append_option(self.ints[1]);
        h.year.append_option(self.ints[2]);
        h.hand.append_option(self.hand.as_deref());
        h.level.append_option(self.ints[3]);
        h.seat_count.append_option(self.ints[4]);
        h.table.append_option(self.table.as_deref());
        h.currency.append_option(t[11].as_deref());
        h.currency_symbol.append_option(t[12].as_deref());
        h.time_limit.append_option(self.amounts[4]);
        h.board.append(Some(board.iter()));
        h.computed_pot.append_option(outcome.map(|o| o.pot));
        h.computed_streets
            .append_option(replay.as_ref().map(|r| r.streets));
        h.computed_showdown
            .append_option(outcome.map(|o| o.showdown));
        h.computed_rake.append_option(rake);
        match &self.comments {
            Some(c) => append_strs(&mut h.comments, Some(c)),
            None => append_strs(&mut h.comments, Some(comments(self.text))),
        }
        append_kv(
            &mut h.user_fields,
            self.user
                .iter()
                .map(|(k, v)| (k.as_str(), Some(v.as_str()))),
        );
        // players
        let p = &mut out.players;
        let at = |i: usize, k: usize| self.arrays[k].as_ref().and_then(|a| a.0[i]);
        for i in 0..players {
            p.hand_id.append_value(id);
            p.player.append_value(i as i32 + 1);
            p.name
                .append_option(self.names.as_ref().and_then(|n| n.0[i].as_deref()));
            p.seat
                .append_option(self.seats.as_ref().and_then(|s| s.0[i]));
            p.starting_stack.append_option(at(i, STACKS));
            p.finishing_stack.append_option(at(i, 3));
            p.winnings.append_option(at(i, 4));
            p.ante.append_option(at(i, ANTES));
            p.blind_or_straddle.append_option(at(i, BLINDS));
            p.hole_cards.append(was_dealt[i].then_some(dealt[i].iter()));
            p.shown_cards.append(shown[i].as_ref().map(|c| c.iter()));
            p.mucked.append_option(mucked[i]);
            p.time_bank.append_option(at(i, 5));
            let o = outcome.filter(|o| i < o.won.len());
            p.computed_contribution
                .append_option(o.map(|o| o.contribution[i]));
            p.computed_payoff.append_option(o.map(|o| o.payoff(i)));
            p.computed_winnings.append_option(o.map(|o| o.won[i]));
            p.computed_finishing_stack
                .append_option(o.and_then(|o| Some(at(i, STACKS)? + o.payoff(i))));
            p.computed_hand
                .append_option(o.and_then(|o| o.hands[i].as_deref()));
        }
    }

    fn wrong_length(&mut self, name: &str, len: usize, n: usize, span: Range<usize>) {
        let m = format!("{name} has {len} values for {n} players: kept in user_fields, not placed");
        self.warn(span.start, codes::WRONG_LENGTH, m);
        let raw = self.raw(span).to_string();
        self.user.push((name.to_string(), raw));
    }
}

thread_local! {
    /// The vectors of the last hand built on this thread, for the next.
    static SCRATCH: std::cell::Cell<(Vec<Play>, Vec<Card>)> =
        const { std::cell::Cell::new((Vec::new(), Vec::new())) };
}

/// An action as the replay sees it.
enum Play {
    /// A no-op.
    Noop,
    /// An action that could not be read (or not a string): the replay
    /// cannot go past it.
    Unread,
    /// Kind, player slot (0 for the board), amount, cards in the hand's
    /// card list, cards given (None for `sm` whose `-` found none).
    Act(Option<Kind>, usize, Option<i128>, Range<usize>, bool),
}

impl<'r, 'a> Hand<'r, 'a> {
    /// The setup of the replay, or why there is none.
    fn setup(&self) -> Result<Variant, String> {
        let code = self.variant.as_deref().ok_or("no variant")?;
        let v = Variant::from_code(code).ok_or_else(|| format!("unknown variant '{code}'"))?;
        let mut lacks = Vec::new();
        if self.arrays[ANTES].is_none() {
            lacks.push("antes");
        }
        if !v.stud() && self.arrays[BLINDS].is_none() {
            lacks.push("blinds_or_straddles");
        }
        let fixed = v.betting() == Betting::FixedLimit;
        for (k, need) in [(0, v.stud()), (1, fixed), (2, fixed), (3, !fixed)] {
            if need && self.amounts[k].is_none() {
                lacks.push(AMOUNTS[k]);
            }
        }
        if self.arrays[STACKS].is_none() {
            lacks.push("starting_stacks");
        }
        if !lacks.is_empty() {
            return Err(format!("no usable {}", lacks.join(", ")));
        }
        Ok(v)
    }

    /// Replays the hand, with its issues as diagnostics; None when the
    /// rules are off.
    fn replay(
        &mut self,
        plays: &[Play],
        deck: &[Card],
        actions: &[(Option<Cow<'a, str>>, Range<usize>)],
    ) -> Option<Replay> {
        if !self.compute {
            return None;
        }
        let variant = match self.setup() {
            Ok(s) => s,
            Err(why) => {
                let m = format!("the hand is not replayed ({why}): its computed values are null");
                self.diags.push(Diag::info(0, codes::NOT_REPLAYED, m));
                return None;
            }
        };
        let arr = |k: usize| -> &[Option<i128>] { self.arrays[k].as_ref().map_or(&[], |a| &a.0) };
        let setup = Setup {
            variant,
            ante_trimming: self.trimming.unwrap_or(false),
            antes: arr(ANTES),
            blinds: arr(BLINDS),
            bring_in: self.amounts[0].unwrap_or(0),
            small_bet: self.amounts[1].unwrap_or(0),
            big_bet: self.amounts[2].unwrap_or(0),
            min_bet: self.amounts[3].unwrap_or(0),
            stacks: arr(STACKS),
            chip: if self.floats { 1 } else { decimal::ONE },
        };
        let acts = plays.iter().map(|p| match p {
            Play::Noop => Act::Noop,
            Play::Unread => Act::Unread,
            Play::Act(kind, i, amount, cards, given) => {
                let (i, c) = (*i, &deck[cards.clone()]);
                match kind {
                    Some(Kind::DealBoard) => Act::DealBoard(c),
                    Some(Kind::DealHole) => Act::DealHole(i, c),
                    Some(Kind::StandPatDiscard) => Act::Draw(i, c),
                    Some(Kind::BringIn) => Act::BringIn(i),
                    Some(Kind::CompleteBetRaise) => match amount {
                        Some(a) => Act::CompleteBetRaise(i, *a),
                        None => Act::Unread,
                    },
                    Some(Kind::CheckCall) => Act::CheckCall(i),
                    Some(Kind::Fold) => Act::Fold(i),
                    Some(Kind::ShowMuck) if !given => Act::Unread,
                    Some(Kind::ShowMuck) if c.is_empty() => Act::ShowMuck(i, None),
                    Some(Kind::ShowMuck) => Act::ShowMuck(i, Some(c)),
                    None => Act::Unread,
                }
            }
        });
        let r = rules::replay(&setup, acts);
        let at = |k: usize| actions.get(k).map_or(0, |a| a.1.start);
        let amt = decimal::render;
        for &(k, issue) in &r.issues {
            let (code, m) = match issue {
                rules::Issue::BelowMinimum { amount, min } => (
                    codes::LIMITS,
                    format!(
                        "action {k}: to {} is below the minimum, {}",
                        amt(amount),
                        amt(min)
                    ),
                ),
                rules::Issue::AboveMaximum { amount, max } => (
                    codes::LIMITS,
                    format!(
                        "action {k}: to {} is above the maximum, {}",
                        amt(amount),
                        amt(max)
                    ),
                ),
                rules::Issue::CardTwice { card } => (
                    codes::CARD_TWICE,
                    format!("action {k}: {} is in play already", card_text(card)),
                ),
                rules::Issue::AfterEnd => (
                    codes::AFTER_END,
                    format!("action {k} comes after the hand is over: it is not replayed"),
                ),
            };
            self.warn(at(k), code, m);
        }
        if let Some((k, stop)) = r.stop {
            let here = k.map_or(String::from("the record ends"), |k| format!("action {k}"));
            let pos = k.map_or(0, at);
            let tail = "the replay stops there: the hand's computed values are null";
            match stop {
                rules::Stop::OutOfTurn { expected, actor } => {
                    let m = format!(
                        "{here}: p{} acts where p{} is to act: {tail}",
                        actor + 1,
                        expected + 1
                    );
                    self.warn(pos, codes::OUT_OF_TURN, m);
                }
                rules::Stop::Setup(p) => {
                    let why = match p {
                        rules::SetupProblem::TooFewPlayers => "fewer than 2 players",
                        rules::SetupProblem::StackNotPositive => "a starting stack of 0 or less",
                        rules::SetupProblem::NoForcedBet => "no ante, blind or bring-in",
                        rules::SetupProblem::NegativeForcedBet => "a negative ante or bring-in",
                        rules::SetupProblem::BringInNotBelowSmallBet => {
                            "a bring-in not below the small bet"
                        }
                    };
                    let m =
                        format!("the hand is not replayed ({why}): its computed values are null");
                    self.diags.push(Diag::info(0, codes::NOT_REPLAYED, m));
                }
                rules::Stop::Impossible(i) => {
                    let why = impossible(i);
                    let m = format!("{here}: {why}: {tail}");
                    self.diags.push(Diag::info(pos, codes::IMPOSSIBLE, m));
                }
                rules::Stop::Unfinished(w) => {
                    let why = match w {
                        rules::Waiting::Dealing => "cards are still to be dealt",
                        rules::Waiting::Betting => "a player is still to act",
                        rules::Waiting::Showdown => {
                            "a player still in has neither shown nor mucked"
                        }
                    };
                    let m = format!(
                        "the record ends before the hand is over ({why}): the hand's outcome is null"
                    );
                    self.diags.push(Diag::info(0, codes::UNFINISHED, m));
                }
                rules::Stop::Undecided => {
                    let m = format!(
                        "{here}: unknown cards would decide a pot: the hand's outcome is null"
                    );
                    self.diags.push(Diag::info(pos, codes::UNFINISHED, m));
                }
                rules::Stop::Unreadable => {
                    let m = format!("{here} is not read: {tail}");
                    self.diags.push(Diag::info(pos, codes::IMPOSSIBLE, m));
                }
            }
        }
        Some(r)
    }

    /// The record's finishing stacks and winnings against the replay's:
    /// the rake when they fall short by the same fraction of every pot
    /// (0 when they agree), a warning otherwise. None when the record
    /// states neither.
    fn check_stated(&mut self, o: &rules::Outcome) -> Option<i128> {
        let n = o.won.len();
        let stated_won: Option<Vec<i128>> = match (&self.arrays[4], &self.arrays[3]) {
            (Some((w, _)), _) => w.iter().copied().collect(),
            (None, Some((f, _))) => (0..n)
                .map(|i| {
                    let start = self.arrays[STACKS].as_ref()?.0[i]?;
                    Some(f[i]? - start + o.contribution[i])
                })
                .collect(),
            (None, None) => return None,
        };
        let stated_won = stated_won?;
        if stated_won == o.won {
            return Some(0);
        }
        let total = o.pot;
        let given: i128 = stated_won.iter().sum();
        let rake = total - given;
        // The same fraction of every winner's share: to the millionth.
        let proportional = rake > 0
            && total > 0
            && (0..n).all(|i| (stated_won[i] * total - o.won[i] * given).abs() <= total);
        if proportional {
            return Some(rake);
        }
        let field = if self.arrays[4].is_some() {
            "winnings"
        } else {
            "finishing_stacks"
        };
        let k = if field == "winnings" { 4 } else { 3 };
        let at = self.arrays[k].as_ref().map_or(0, |a| a.1.start);
        let differ: Vec<String> = (0..n)
            .filter(|&i| stated_won[i] != o.won[i])
            .map(|i| {
                let (s, c) = if k == 4 {
                    (stated_won[i], o.won[i])
                } else {
                    let start = self.arrays[STACKS]
                        .as_ref()
                        .and_then(|a| a.0[i])
                        .unwrap_or(0);
                    (
                        stated_won[i] + start - o.contribution[i],
                        start + o.payoff(i),
                    )
                };
                format!(
                    "p{}: {} stated, {} by the replay",
                    i + 1,
                    decimal::render(s),
                    decimal::render(c)
                )
            })
            .collect();
        let m = format!(
            "{field} disagree with the replay and the difference is no rake: {}",
            differ.join("; ")
        );
        self.warn(at, codes::DISAGREE, m);
        None
    }
}

fn card_text(c: Card) -> String {
    let r = c
        .rank
        .map_or('?', |r| b"23456789TJQKA"[r as usize - 2] as char);
    let s = c.suit.map_or('?', |s| b"cdhs"[s as usize] as char);
    format!("{r}{s}")
}

fn impossible(i: rules::Impossible) -> &'static str {
    use rules::Impossible::*;
    match i {
        NotNow => "the rules allow no such action at this point of the hand",
        NoBringIn => "a bring-in where none is due",
        MustBringIn => "the bring-in must be posted or completed first",
        Capped => "a raise beyond the round's cap of four bets",
        Covered => "a raise by a player whose stack the bet to call covers (a call is meant)",
        NobodyToRaise => "a raise when every other player is all in or out",
        NotReopened => "a raise the betting does not allow again (an all-in short of a full raise)",
        NotARaise => "a raise to no more than the bet to call",
        OverStack => "more chips than the player's stack",
        TooManyCards => "more cards than the round deals",
        NotHeld => "a discard of cards the player does not hold",
        NotInHand => "a player who is out of the hand acts",
        NotAtShowdown => "a show or muck by a player not at the showdown",
        TooManyShown => "more cards shown than the player holds",
    }
}

/// The columns of an action row that an element not a string leaves null.
fn for_noop(a: &mut crate::games::poker::tables::ActionsBuilder) {
    a.actor.append_null();
    a.player.append_null();
    a.action.append_null();
    a.amount.append_option(None);
    a.cards.append(None::<[&str; 0]>);
    a.commentary.append_null();
}

/// "a string", "an integer".
fn article(t: &str) -> String {
    match t.as_bytes().first() {
        Some(b'a' | b'e' | b'i' | b'o' | b'u') => format!("an {t}"),
        _ => format!("a {t}"),
    }
}

/// The street (betting round) of each action, as pokerkit's state counts
/// it: dealing belongs to the round it opens, a draw to the round after
/// the betting before it, showdown actions to the last round reached.
struct Streets {
    street: i32,
    /// A betting action in this round.
    bet: bool,
    /// Anything but a no-op in this round.
    any: bool,
    /// Players dealt hole cards in this round.
    dealt: Vec<bool>,
    /// Players who drew in this round.
    drew: Vec<bool>,
}

impl Streets {
    fn new(players: usize) -> Self {
        Streets {
            street: 0,
            bet: false,
            any: false,
            dealt: vec![false; players],
            drew: vec![false; players],
        }
    }

    fn open(&mut self) {
        self.street += 1;
        self.bet = false;
        self.any = false;
        self.dealt.iter_mut().for_each(|d| *d = false);
        self.drew.iter_mut().for_each(|d| *d = false);
    }

    /// The street of an action of `kind` by (or to) player `p`.
    fn next(&mut self, kind: Option<Kind>, p: Option<u32>) -> i32 {
        let slot = p
            .map(|p| p as usize)
            .filter(|&p| p >= 1 && p <= self.dealt.len())
            .map(|p| p - 1);
        match kind {
            None => return self.street,
            Some(Kind::DealBoard) => {
                if self.any {
                    self.open();
                }
            }
            Some(Kind::DealHole) => {
                if self.bet || slot.is_some_and(|i| self.dealt[i]) {
                    self.open();
                }
                if let Some(i) = slot {
                    self.dealt[i] = true;
                }
            }
            Some(Kind::StandPatDiscard) => {
                if self.bet || slot.is_some_and(|i| self.drew[i]) {
                    self.open();
                }
                if let Some(i) = slot {
                    self.drew[i] = true;
                }
            }
            Some(k) if k.bets() => self.bet = true,
            Some(_) => {}
        }
        self.any = true;
        self.street
    }
}

/// The TOML comments of a hand (text after `#` outside strings), trimmed.
pub fn comments(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'#' => {
                let end = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |p| i + p);
                out.push(text[i + 1..end].trim());
                i = end;
            }
            q @ (b'"' | b'\'') => {
                let triple = b[i..].starts_with(if q == b'"' { b"\"\"\"" } else { b"'''" });
                if triple {
                    let close: &[u8] = if q == b'"' { b"\"\"\"" } else { b"'''" };
                    let mut j = i + 3;
                    loop {
                        match memchr::memmem::find(&b[j..], close) {
                            Some(p) => {
                                let at = j + p;
                                // `\"""` does not close a basic string.
                                if q == b'"' && escaped(b, at, i + 3) {
                                    j = at + 1;
                                    continue;
                                }
                                i = at + 3;
                                // Up to two more quotes belong to the string.
                                while i < b.len() && b[i] == q && i < at + 5 {
                                    i += 1;
                                }
                                break;
                            }
                            None => return out,
                        }
                    }
                } else {
                    let mut j = i + 1;
                    while j < b.len() && b[j] != q && b[j] != b'\n' {
                        j += if q == b'"' && b[j] == b'\\' { 2 } else { 1 };
                    }
                    i = j + 1;
                }
            }
            _ => i += 1,
        }
    }
    out
}

/// An odd number of backslashes before `at` (after `from`).
fn escaped(b: &[u8], at: usize, from: usize) -> bool {
    let n = b[from..at]
        .iter()
        .rev()
        .take_while(|&&c| c == b'\\')
        .count();
    n % 2 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_outside_strings() {
        let t = "# top\nx = 'a # b' # one\ny = \"c \\\" # d\"  #two\nz = '''\n# e\n''' # three\nw = \"\"\"q\\\"\"\"# f\"\"\" #four\n";
        assert_eq!(comments(t), ["top", "one", "two", "three", "four"]);
    }

    #[test]
    fn streets_as_pokerkit_counts_them() {
        use Kind::*;
        // Hold'em with a showdown before the turn and river are dealt.
        let seq = [
            (DealHole, 1),
            (DealHole, 2),
            (CompleteBetRaise, 2),
            (CheckCall, 1),
            (DealBoard, 0),
            (CompleteBetRaise, 1),
            (CheckCall, 2),
            (ShowMuck, 1),
            (ShowMuck, 2),
            (DealBoard, 0),
            (DealBoard, 0),
        ];
        let mut s = Streets::new(2);
        let got: Vec<i32> = seq
            .iter()
            .map(|&(k, p)| s.next(Some(k), (p > 0).then_some(p)))
            .collect();
        assert_eq!(got, [0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 3]);
        // Triple draw: a draw belongs to the round after the betting.
        let seq = [
            (DealHole, 1),
            (DealHole, 2),
            (CheckCall, 1),
            (CheckCall, 2),
            (StandPatDiscard, 1),
            (StandPatDiscard, 2),
            (DealHole, 2),
            (CheckCall, 1),
            (CheckCall, 2),
            (StandPatDiscard, 1),
            (StandPatDiscard, 2),
            (DealHole, 2),
            // All in: the third draw follows the second without betting.
            (StandPatDiscard, 1),
            (StandPatDiscard, 2),
            (ShowMuck, 1),
        ];
        let mut s = Streets::new(2);
        let got: Vec<i32> = seq.iter().map(|&(k, p)| s.next(Some(k), Some(p))).collect();
        assert_eq!(got, [0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3]);
        // Stud, all in on third street: each new round of up cards opens a street.
        let seq = [
            (DealHole, 1),
            (DealHole, 2),
            (BringIn, 2),
            (CompleteBetRaise, 1),
            (CheckCall, 2),
            (DealHole, 1),
            (DealHole, 2),
            (DealHole, 1),
            (DealHole, 2),
            (DealHole, 1),
        ];
        let mut s = Streets::new(2);
        let got: Vec<i32> = seq.iter().map(|&(k, p)| s.next(Some(k), Some(p))).collect();
        assert_eq!(got, [0, 0, 0, 0, 0, 1, 1, 2, 2, 3]);
        assert_eq!(s.next(None, None), 3);
    }
}
