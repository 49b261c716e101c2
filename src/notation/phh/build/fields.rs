//! The fields of a hand: each read into its place by its TOML type, what
//! cannot go there kept in `user_fields`, the variant's required fields
//! checked.

use super::*;

/// The string fields with a column of their own, in column order.
pub(super) const TEXTS: [&str; 13] = [
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
pub(super) const INTS: [&str; 5] = ["day", "month", "year", "level", "seat_count"];

/// The amount fields, in column order.
pub(super) const AMOUNTS: [&str; 5] = ["bring_in", "small_bet", "big_bet", "min_bet", "time_limit"];

/// The per-player amount arrays, in column order.
pub(super) const ARRAYS: [&str; 6] = [
    "antes",
    "blinds_or_straddles",
    "starting_stacks",
    "finishing_stacks",
    "winnings",
    "time_banks",
];

pub(super) const ANTES: usize = 0;

pub(super) const BLINDS: usize = 1;

pub(super) const STACKS: usize = 2;

/// The fields the required-field check looks for.
pub(super) const CHECKED: [&str; 9] = [
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
pub(super) fn may_be_inf(field: &str) -> bool {
    matches!(
        field,
        "starting_stacks" | "finishing_stacks" | "time_limit" | "time_banks"
    )
}

/// An amount of a TOML number, in millionths; `Ok(None)` for `inf` where
/// allowed.
pub(super) fn amount(field: &str, v: &Val<'_>) -> Result<Option<i128>, String> {
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

/// "a string", "an integer".
pub(super) fn article(t: &str) -> String {
    match t.as_bytes().first() {
        Some(b'a' | b'e' | b'i' | b'o' | b'u') => format!("an {t}"),
        _ => format!("a {t}"),
    }
}

impl<'a> Hand<'_, 'a> {
    /// Keeps a field in `user_fields`, as written.
    pub(super) fn keep(&mut self, name: &str, value: &Value<'a>) {
        let raw = self.raw(value.span.clone()).to_string();
        self.user.push((name.to_string(), raw));
    }

    /// A field whose value is not of its type: kept, with a warning.
    pub(super) fn wrong_type(&mut self, name: &str, value: &Value<'a>, want: &str) {
        let m = format!(
            "{name} is {} where the standard has {want}: kept in user_fields",
            article(value.val.type_str())
        );
        self.warn(value.span.start, codes::WRONG_TYPE, m);
        self.keep(name, value);
    }

    pub(super) fn read(&mut self, doc: &mut Doc<'a>) {
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

    pub(super) fn field(&mut self, name: &str, at: usize, v: &Value<'a>) {
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
        self.named_field(name, at, v);
    }

    /// The fields read each its own way.
    fn named_field(&mut self, name: &str, at: usize, v: &Value<'a>) {
        let val = &v.val;
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
            "actions" => self.actions_field(v),
            _ => {
                let m = format!(
                    "unknown field '{name}' (user-defined fields start with '_'): kept in user_fields"
                );
                self.warn(at, codes::UNKNOWN_FIELD, m);
                self.keep(name, v);
            }
        }
    }

    /// The action strings; an element not a string kept as a no-op.
    fn actions_field(&mut self, v: &Value<'a>) {
        let name = "actions";
        let val = &v.val;
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

    pub(super) fn bad_amount(&mut self, name: &str, v: &Value<'a>, why: &str) {
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
    pub(super) fn check_required(&mut self) {
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
    pub(super) fn has(&self, name: &str) -> bool {
        CHECKED
            .iter()
            .position(|&c| c == name)
            .is_some_and(|k| self.given & (1 << k) != 0)
    }

    /// Where field `name` is written (its value), or 0.
    pub(super) fn field_at(&self, name: &str) -> usize {
        let i = ARRAYS.iter().position(|&a| a == name);
        match i.and_then(|i| self.arrays[i].as_ref()) {
            Some((_, span)) => span.start,
            None => self.text.find(&format!("\n{name}")).map_or(0, |p| p + 1),
        }
    }

    /// The number of players: the length of `starting_stacks`, or of the
    /// first per-player array given.
    pub(super) fn player_count(&self) -> Option<usize> {
        let stacks = self.arrays[STACKS].as_ref().map(|a| a.0.len());
        stacks
            .or_else(|| self.arrays.iter().flatten().map(|a| a.0.len()).next())
            .or_else(|| self.names.as_ref().map(|n| n.0.len()))
            .or_else(|| self.seats.as_ref().map(|s| s.0.len()))
    }
}
