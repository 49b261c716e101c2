//! The values of RBN 3.2's labels (Richard Pavlicek's Richard's Bridge
//! Notation, <http://www.rpbridge.net/7a12.htm>), from their text: D (date and
//! time), H (hands), A (auction), C (contract), P (play), R (result and
//! score), M (makes at double dummy).
//! Borrowed bytes in, bridge values out; every error names what was
//! expected. Labels D H C R are read in either case (the spec: "letter case
//! is immaterial"); A keeps the case of its calls as written (`text`).

use crate::games::bridge::auction::{Call, Risk};
use crate::games::bridge::card::{Card, Rank, Strain, Suit};
use crate::games::bridge::deal::{self, Deal};
use crate::games::bridge::seat::Seat;
use crate::notation::number::{civil_date, parse_u32};

/// The D label: `yyyymmdd` with `?` for unknown digits, `mmdd` or `dd`
/// left out, `C` (circa) after the year or the month, a span's last day
/// (`yyyymmdddd`), then `:hhmmss` (`mmss` or `ss` left out) and `G` (GMT).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct RbnDate {
    /// Days since the Unix epoch, when year, month and day are all known
    /// and the date is not circa.
    pub date: Option<i32>,
    pub year: Option<i32>,
    pub month: Option<u32>,
    pub day: Option<u32>,
    pub circa: bool,
    /// The last day of a span (`1986120911`: the 9th to the 11th).
    pub until_day: Option<u32>,
    /// Hours, minutes and seconds as far as given.
    pub time: Option<(u32, Option<u32>, Option<u32>)>,
    pub gmt: bool,
}

/// A part of a date: digits, or `?`s for an unknown part (None).
fn date_part(p: &[u8]) -> Result<Option<u32>, String> {
    if p.iter().all(|&b| b == b'?') {
        return Ok(None);
    }
    if p.contains(&b'?') {
        // A part half known (`19?5`) says nothing usable.
        return Ok(None);
    }
    parse_u32(p)
        .map(Some)
        .ok_or_else(|| format!("'{}' is not a number", String::from_utf8_lossy(p)))
}

pub fn parse_date(v: &[u8]) -> Result<RbnDate, String> {
    let mut d = RbnDate::default();
    let mut v = v.trim_ascii();
    if let [rest @ .., g] = v
        && g.eq_ignore_ascii_case(&b'G')
    {
        d.gmt = true;
        v = rest;
    }
    let (date, time) = match v.iter().position(|&b| b == b':') {
        Some(c) => (&v[..c], Some(&v[c + 1..])),
        None => (v, None),
    };
    let ok = |b: u8| b.is_ascii_digit() || b == b'?' || b.eq_ignore_ascii_case(&b'C');
    if date.is_empty() || !date.iter().all(|&b| ok(b)) {
        return Err("expected yyyymmdd (digits or '?', 'C' for circa)".into());
    }
    // Circa after the year or the month.
    let (date, circa) = match date.iter().position(|b| b.eq_ignore_ascii_case(&b'C')) {
        Some(c) if c + 1 == date.len() && (c == 4 || c == 6) => (&date[..c], true),
        Some(_) => return Err("'C' (circa) may only follow the year or the month".into()),
        None => (date, false),
    };
    d.circa = circa;
    if !matches!(date.len(), 4 | 6 | 8 | 10) {
        return Err(format!(
            "{} digits: expected yyyy, yyyymm, yyyymmdd or a span yyyymmdddd",
            date.len()
        ));
    }
    d.year = date_part(&date[..4])?.map(|y| y as i32);
    if date.len() >= 6 {
        d.month = date_part(&date[4..6])?;
        if d.month.is_some_and(|m| !(1..=12).contains(&m)) {
            return Err("the month is not 01 to 12".into());
        }
    }
    if date.len() >= 8 {
        d.day = date_part(&date[6..8])?;
    }
    if date.len() == 10 {
        d.until_day = date_part(&date[8..10])?;
    }
    if let (Some(y), Some(m), Some(day)) = (d.year, d.month, d.day) {
        match civil_date(y, m, day) {
            Some(days) if !circa => d.date = Some(days),
            Some(_) => {}
            None => return Err(format!("{y:04}-{m:02}-{day:02} is no date")),
        }
    }
    if let Some(t) = time {
        if date.len() == 10 {
            return Err("a span of days has no time".into());
        }
        if t.is_empty() || t.len() > 6 || t.len() % 2 == 1 || !t.iter().all(u8::is_ascii_digit) {
            return Err("expected the time as hh, hhmm or hhmmss after ':'".into());
        }
        let n = |p: &[u8]| parse_u32(p).unwrap_or(0);
        let h = n(&t[..2]);
        let m = (t.len() >= 4).then(|| n(&t[2..4]));
        let s = (t.len() == 6).then(|| n(&t[4..6]));
        if h > 24 || m.is_some_and(|m| m > 59) || s.is_some_and(|s| s > 59) {
            return Err("the time is not hh 00-24, mm and ss 00-59".into());
        }
        d.time = Some((h, m, s));
    }
    Ok(d)
}

/// The H label: the first hand's seat, then each hand after a `:` (or a
/// `;`: the hand is hidden), clockwise.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RbnHands {
    /// The cards known, by seat; None for a hand not given.
    pub deal: Deal,
    /// Hands to hide (`;` before them).
    pub hidden: [bool; 4],
    /// Pseudo cards by seat: `x` (a low card of the suit) and `?` (a card
    /// of the suit, rank unknown). Their hands hold more cards than `deal`
    /// lists.
    pub pseudo: [u8; 4],
    /// The fourth hand was given as the rest of the deck (three full hands
    /// and a trailing separator).
    pub fourth_is_rest: bool,
}

pub fn parse_hands(v: &[u8]) -> Result<RbnHands, String> {
    let v = v.trim_ascii();
    let (&first, rest) = v.split_first().ok_or("expected a seat, then hands")?;
    let first = Seat::parse(first.to_ascii_uppercase())
        .ok_or_else(|| format!("'{}' is not a seat (N, E, S, W)", first as char))?;
    if !rest.first().is_some_and(|&b| b == b':' || b == b';') {
        return Err("expected ':' or ';' after the first seat".into());
    }
    let mut h = RbnHands::default();
    // Each hand starts at its separator.
    let mut starts: Vec<usize> = rest
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b':' || b == b';')
        .map(|(i, _)| i)
        .collect();
    if starts.len() > 4 {
        return Err(format!("{} hands (at most 4)", starts.len()));
    }
    starts.push(rest.len());
    let n = starts.len() - 1;
    let mut empty_last = None;
    for k in 0..n {
        let seat = first.after(k);
        h.hidden[seat as usize] = rest[starts[k]] == b';';
        let text = &rest[starts[k] + 1..starts[k + 1]];
        if text.is_empty() {
            if k == 3 {
                empty_last = Some(seat);
            }
            continue;
        }
        let (cards, pseudo) = parse_hand(text)?;
        // More than 13 cards is read, and told by the rules (B050), as
        // PBN's deals are.
        h.deal[seat as usize] = Some(cards);
        h.pseudo[seat as usize] = pseudo;
    }
    // Three full hands and a trailing separator: the fourth gets the rest.
    if let Some(seat) = empty_last {
        let hands: deal::Hands<'_> = std::array::from_fn(|s| h.deal[s].as_deref());
        let full = (0..4)
            .filter(|&s| s != seat as usize)
            .all(|s| hands[s].is_some_and(|c| c.len() == 13) && h.pseudo[s] == 0);
        if full && let Some((_, rest)) = deal::fourth_hand(&hands) {
            h.deal[seat as usize] = Some(rest);
            h.fourth_is_rest = true;
        }
    }
    Ok(h)
}

/// A hand `S.H.D.C`, ranks in any order; suits after the last dot given may
/// be left out (`43` is a spade holding). `x` and `?` are pseudo cards.
fn parse_hand(text: &[u8]) -> Result<(Vec<Card>, u8), String> {
    let mut cards = Vec::with_capacity(13);
    let mut pseudo = 0u8;
    for (k, ranks) in text.split(|&b| b == b'.').enumerate() {
        let Some(&suit) = Suit::ALL.get(k) else {
            return Err(format!(
                "hand '{}' has more than four suits",
                String::from_utf8_lossy(text)
            ));
        };
        for &r in ranks {
            if r == b'x' || r == b'X' || r == b'?' {
                pseudo = pseudo.saturating_add(1);
                continue;
            }
            let rank = Rank::parse(r).ok_or_else(|| {
                format!(
                    "'{}' is not a rank (hand '{}')",
                    r as char,
                    String::from_utf8_lossy(text)
                )
            })?;
            // A card twice is read, and told by the rules (B050).
            cards.push(Card { suit, rank });
        }
    }
    cards.sort_unstable();
    Ok((cards, pseudo))
}

/// Vulnerability as the A label's prefix gives it: `Z` none, `N` N-S, `E`
/// E-W, `B` both; `X` (any or immaterial) is None.
fn vulnerability(b: u8) -> Result<Option<&'static str>, String> {
    Ok(Some(match b.to_ascii_uppercase() {
        b'Z' => "None",
        b'N' => "NS",
        b'E' => "EW",
        b'B' => "All",
        b'X' => return Ok(None),
        _ => {
            return Err(format!(
                "'{}' is not a vulnerability (Z N E B X)",
                b as char
            ));
        }
    }))
}

/// What may follow a call or a play at `i`: a notation (`!` `?` `!!` `??`
/// `!?` `?!` `*`), then `^n` (a note reference). Returns them and where
/// the next call or play starts.
fn annotation(v: &[u8], mut i: usize) -> Result<(&[u8], Option<u8>, usize), String> {
    let n0 = i;
    while i < v.len() && matches!(v[i], b'!' | b'?' | b'*') && i - n0 < 2 {
        i += 1;
    }
    let notation = &v[n0..i];
    let mut note = None;
    if v.get(i) == Some(&b'^') {
        match v.get(i + 1) {
            Some(d) if d.is_ascii_digit() => {
                note = Some(d - b'0');
                i += 2;
            }
            _ => return Err(format!("'^' at offset {i} without a note digit")),
        }
    }
    Ok((notation, note, i))
}

/// A call of the A label, with what follows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RbnCall<'a> {
    /// None for `Y` (a query: "your call?").
    pub call: Option<Call>,
    /// As written (`1S`, `P`; `A` for each pass it stands for).
    pub text: &'a [u8],
    /// Its notation: `!` `?` `!!` `??` `!?` `?!` `*`.
    pub notation: &'a [u8],
    /// `^n`: the note it refers to.
    pub note: Option<u8>,
    /// Offset of the call in the label's value.
    pub at: usize,
}

/// The A label.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RbnAuction<'a> {
    /// None for `X` (any dealer).
    pub dealer: Option<Seat>,
    /// None for `X` (any or immaterial).
    pub vulnerable: Option<&'static str>,
    /// The dealer-vulnerability prefix was written (else `WX` is meant).
    pub prefix: bool,
    pub calls: Vec<RbnCall<'a>>,
    /// The auction ended with `A` (all pass).
    pub all_pass: bool,
}

pub fn parse_auction(v: &[u8]) -> Result<RbnAuction<'_>, String> {
    let mut a = RbnAuction::default();
    let mut i = 0;
    // The prefix `WX:` (dealer, vulnerability, colon), else West and any.
    // A prefix alone (`NZ`: the dealer and vulnerability, no calls yet).
    let alone = v.len() == 2
        && b"NESWX".contains(&v[0].to_ascii_uppercase())
        && b"ZNEBX".contains(&v[1].to_ascii_uppercase())
        && !v.eq_ignore_ascii_case(b"XX");
    if (v.len() >= 3 && v[2] == b':' && !v[0].is_ascii_digit()) || alone {
        let d = v[0].to_ascii_uppercase();
        a.dealer = match d {
            b'X' => None,
            _ => Some(
                Seat::parse(d)
                    .ok_or_else(|| format!("'{}' is not a dealer (N E S W X)", v[0] as char))?,
            ),
        };
        a.vulnerable = vulnerability(v[1])?;
        a.prefix = true;
        i = 3.min(v.len());
    } else {
        a.dealer = Some(Seat::W);
    }
    let mut bid_made = false;
    let mut passes_since = 0usize;
    while i < v.len() {
        let at = i;
        let b = v[i];
        let (call, len) = match b.to_ascii_uppercase() {
            b':' => {
                i += 1;
                continue;
            }
            b'P' => (Some(Call::Pass), 1),
            b'X' => (Some(Call::Double), 1),
            b'R' => (Some(Call::Redouble), 1),
            b'Y' => (None, 1),
            b'A' => {
                if a.all_pass {
                    return Err("'A' (all pass) after the auction ended".into());
                }
                let n = (if bid_made { 3usize } else { 4 }).saturating_sub(passes_since);
                for _ in 0..n.max(1) {
                    a.calls.push(RbnCall {
                        call: Some(Call::Pass),
                        text: &v[at..at + 1],
                        notation: b"",
                        note: None,
                        at,
                    });
                }
                a.all_pass = true;
                i += 1;
                continue;
            }
            b'1'..=b'7' => {
                let strain = match v.get(i + 1).map(u8::to_ascii_uppercase) {
                    Some(b'C') => Strain::C,
                    Some(b'D') => Strain::D,
                    Some(b'H') => Strain::H,
                    Some(b'S') => Strain::S,
                    Some(b'N') => Strain::NT,
                    _ => {
                        return Err(format!(
                            "a bid of {} needs a strain (C D H S N) at offset {}",
                            b as char,
                            i + 1
                        ));
                    }
                };
                (
                    Some(Call::Bid {
                        level: b - b'0',
                        strain,
                    }),
                    2,
                )
            }
            _ => {
                return Err(format!(
                    "'{}' at offset {i} is not a call (P X R A Y, 1C to 7N)",
                    b as char
                ));
            }
        };
        if a.all_pass {
            return Err("a call after 'A' (all pass)".into());
        }
        i += len;
        let text = &v[at..i];
        let (notation, note, next) = annotation(v, i)?;
        i = next;
        match call {
            Some(Call::Pass) => passes_since += 1,
            Some(_) => {
                bid_made = true;
                passes_since = 0;
            }
            None => {}
        }
        a.calls.push(RbnCall {
            call,
            text,
            notation,
            note,
            at,
        });
    }
    Ok(a)
}

/// The goal of a contract: a number of tricks, or `M` (as many as can be).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    Tricks(u8),
    Max,
}

/// The C label: level (optional), strain, jeopardy, goal; `:` declarer;
/// `:` first leader when not declarer's left; more fields after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RbnContract<'a> {
    pub level: Option<u8>,
    pub strain: Strain,
    pub risk: Risk,
    pub goal: Option<Goal>,
    pub declarer: Option<Seat>,
    pub leader: Option<Seat>,
    /// Fields after the leader (RBN 3.1: for any purpose).
    pub extra: Vec<&'a [u8]>,
}

pub fn parse_contract(v: &[u8]) -> Result<RbnContract<'_>, String> {
    let mut fields = v.trim_ascii().split(|&b| b == b':');
    let c = fields.next().unwrap_or_default();
    let mut i = 0;
    let level = match c.first() {
        Some(d @ b'1'..=b'7') => {
            i = 1;
            Some(d - b'0')
        }
        _ => None,
    };
    let strain = match c.get(i).map(u8::to_ascii_uppercase) {
        Some(b'C') => Strain::C,
        Some(b'D') => Strain::D,
        Some(b'H') => Strain::H,
        Some(b'S') => Strain::S,
        Some(b'N') => Strain::NT,
        _ => return Err("expected a strain (C D H S N), a level 1-7 before it".into()),
    };
    i += 1;
    let risk = match c.get(i).map(u8::to_ascii_uppercase) {
        Some(b'X') => {
            i += 1;
            Risk::Doubled
        }
        Some(b'R') => {
            i += 1;
            Risk::Redoubled
        }
        _ => Risk::Undoubled,
    };
    let goal = match &c[i..] {
        [] => None,
        [m] if m.eq_ignore_ascii_case(&b'M') => Some(Goal::Max),
        g => match parse_u32(g) {
            Some(n @ 1..=13) => Some(Goal::Tricks(n as u8)),
            _ => {
                return Err(format!(
                    "'{}' is not a goal (1 to 13 tricks, or M)",
                    String::from_utf8_lossy(g)
                ));
            }
        },
    };
    let seat = |f: Option<&[u8]>, what: &str| -> Result<Option<Seat>, String> {
        match f.map(<[u8]>::trim_ascii) {
            None | Some([]) => Ok(None),
            Some([b]) => Seat::parse(b.to_ascii_uppercase())
                .map(Some)
                .ok_or_else(|| format!("'{}' is not a {what} (N E S W)", *b as char)),
            Some(x) => Err(format!(
                "'{}' is not a {what} (N E S W)",
                String::from_utf8_lossy(x)
            )),
        }
    };
    let declarer = seat(fields.next(), "declarer")?;
    let leader = seat(fields.next(), "leader")?;
    Ok(RbnContract {
        level,
        strain,
        risk,
        goal,
        declarer,
        leader,
        extra: fields.collect(),
    })
}

/// The effective score of the R label, relative to North-South.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effective {
    /// `=`: a push or a tie.
    Push,
    /// A signed number: IMPs (or +1/-1 at board-a-match), in hundredths.
    Imps(i32),
    /// A plain number: a matchpoint percentage, in hundredths.
    Percent(i32),
}

/// The R label: tricks won by declarer (or `P`, passed out), the raw score
/// for North-South, and after `:` the effective score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct RbnResult {
    pub tricks: Option<u8>,
    pub passed_out: bool,
    pub score_ns: Option<i32>,
    pub effective: Option<Effective>,
}

/// A number with at most two decimals, in hundredths.
fn hundredths(v: &[u8]) -> Option<i32> {
    let (int, frac) = match v.iter().position(|&b| b == b'.') {
        Some(p) => (&v[..p], &v[p + 1..]),
        None => (v, &b""[..]),
    };
    if frac.len() > 2 || (int.is_empty() && frac.is_empty()) {
        return None;
    }
    let i = if int.is_empty() { 0 } else { parse_u32(int)? };
    let f = if frac.is_empty() {
        0
    } else {
        parse_u32(frac)? * if frac.len() == 1 { 10 } else { 1 }
    };
    i32::try_from(i as i64 * 100 + f as i64).ok()
}

pub fn parse_result(v: &[u8]) -> Result<RbnResult, String> {
    let v = v.trim_ascii();
    let mut r = RbnResult::default();
    let (first, effective) = match v.iter().position(|&b| b == b':') {
        Some(c) => (&v[..c], Some(&v[c + 1..])),
        None => (v, None),
    };
    let sign = first.iter().position(|&b| b == b'+' || b == b'-');
    let (tricks, raw) = match sign {
        Some(s) => (&first[..s], Some(&first[s..])),
        None => (first, None),
    };
    match tricks {
        [] => {}
        [p] if p.eq_ignore_ascii_case(&b'P') => r.passed_out = true,
        t => match parse_u32(t) {
            Some(n @ 0..=13) => r.tricks = Some(n as u8),
            _ => {
                return Err(format!(
                    "'{}' is not a number of tricks (0 to 13) or P",
                    String::from_utf8_lossy(t)
                ));
            }
        },
    }
    if let Some(raw) = raw {
        r.score_ns = Some(
            crate::notation::number::parse_i32(raw)
                .ok_or_else(|| format!("'{}' is not a score", String::from_utf8_lossy(raw)))?,
        );
    }
    if let Some(e) = effective {
        r.effective = match e {
            [] => None,
            b"=" => Some(Effective::Push),
            [s @ (b'+' | b'-'), n @ ..] => {
                let x =
                    hundredths(n).ok_or("expected IMPs after the sign (two decimals at most)")?;
                Some(Effective::Imps(if *s == b'-' { -x } else { x }))
            }
            n => Some(Effective::Percent(
                hundredths(n).ok_or("expected '=', signed IMPs or a percentage")?,
            )),
        };
    }
    Ok(r)
}

/// A play of the P label, with what follows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RbnPlay<'a> {
    /// 0-based trick.
    pub trick: usize,
    /// The card, when the text names it: a suit and rank, or a rank that
    /// follows the suit led. None for a pseudo play.
    pub card: Option<Card>,
    /// A pseudo play: `-` (lowest unplayed card), `+` (highest), `~`
    /// (lowest, the suit significant), `.` (an immaterial discard), `Y`
    /// (a query: "your play?").
    pub pseudo: Option<u8>,
    /// As written (`SK`, `7`, `-`).
    pub text: &'a [u8],
    /// Its notation: `!` `?` `!!` `??` `!?` `?!` `*`.
    pub notation: &'a [u8],
    /// `^n`: the note it refers to.
    pub note: Option<u8>,
    /// Offset in the label's value.
    pub at: usize,
}

/// The P label: plays in the order played, tricks separated by `:` (or
/// `;`: the plays after it are trivial).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RbnPlayList<'a> {
    pub plays: Vec<RbnPlay<'a>>,
    /// The trick from which the plays are marked trivial (`;` before it).
    pub trivial_from: Option<usize>,
}

fn suit_of(b: u8) -> Option<Suit> {
    Suit::parse(b.to_ascii_uppercase())
}

pub fn parse_play(v: &[u8]) -> Result<RbnPlayList<'_>, String> {
    let mut out = RbnPlayList::default();
    let mut trick = 0usize;
    let mut in_trick = 0usize;
    // The suit led in this trick, when its lead named one.
    let mut led: Option<Suit> = None;
    let mut i = 0;
    while i < v.len() {
        let at = i;
        let b = v[i];
        if b == b':' || b == b';' {
            if in_trick == 0 {
                return Err(format!("an empty trick at offset {i}"));
            }
            if b == b';' && out.trivial_from.is_none() {
                out.trivial_from = Some(trick + 1);
            }
            trick += 1;
            in_trick = 0;
            led = None;
            i += 1;
            continue;
        }
        if in_trick == 4 {
            return Err(format!(
                "a fifth play in trick {} at offset {i} (tricks are separated by ':')",
                trick + 1
            ));
        }
        let (card, pseudo, len) = if let Some(suit) = suit_of(b) {
            match v.get(i + 1).and_then(|&r| Rank::parse(r)) {
                Some(rank) => (Some(Card { suit, rank }), None, 2),
                None => {
                    return Err(format!("a suit at offset {i} without a rank after it"));
                }
            }
        } else if let Some(rank) = Rank::parse(b) {
            match led {
                Some(suit) if in_trick > 0 => (Some(Card { suit, rank }), None, 1),
                _ => {
                    return Err(format!(
                        "a rank at offset {i} with no suit (only a card that follows the suit led may leave it out)"
                    ));
                }
            }
        } else if matches!(b, b'-' | b'+' | b'~' | b'.' | b'Y' | b'y') {
            (None, Some(b.to_ascii_uppercase()), 1)
        } else {
            return Err(format!(
                "'{}' at offset {i} is not a play (a suit and rank, a rank, - + ~ . Y)",
                b as char
            ));
        };
        if in_trick == 0 {
            led = card.map(|c| c.suit);
        }
        i += len;
        let text = &v[at..i];
        let (notation, note, next) = annotation(v, i)?;
        i = next;
        out.plays.push(RbnPlay {
            trick,
            card,
            pseudo,
            text,
            notation,
            note,
            at,
        });
        in_trick += 1;
    }
    Ok(out)
}

/// The M label's four parts: the makes in the contract (after each lead
/// as far as given), after each opening lead, and by each declarer in
/// each strain.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RbnMakes {
    /// Part 1: the makes with best defence, then after each lead; None for
    /// `?` or a value left out. (A list ending in `?` says nothing more
    /// is known.)
    pub contract: Vec<Option<u8>>,
    /// Part 2: the makes after each opening lead, high to low.
    pub leads: Vec<Option<u8>>,
    /// Parts 3 and 4: tricks by declarer N E S W and strain NT S H D C.
    pub by_declarer: [[Option<u8>; 5]; 4],
}

fn hex_make(b: u8) -> Option<Option<u8>> {
    match b {
        b'?' => Some(None),
        b'0'..=b'9' => Some(Some(b - b'0')),
        b'A'..=b'D' | b'a'..=b'd' => Some(Some(b.to_ascii_uppercase() - b'A' + 10)),
        _ => None,
    }
}

fn make_list(part: &[u8], what: &str) -> Result<Vec<Option<u8>>, String> {
    part.iter()
        .map(|&b| {
            hex_make(b).ok_or_else(|| {
                format!(
                    "'{}' in {what} is not a number of tricks (0-9, A-D, ?)",
                    b as char
                )
            })
        })
        .collect()
}

/// Five makes (NT S H D C), as far as given.
fn five(part: &[u8], what: &str) -> Result<[Option<u8>; 5], String> {
    let list = make_list(part, what)?;
    if list.len() > 5 {
        return Err(format!("{what} has {} makes (five strains)", list.len()));
    }
    let mut out = [None; 5];
    out[..list.len()].copy_from_slice(&list);
    Ok(out)
}

/// One side's part (3: North and South; 4: West and East): the first
/// seat's five makes, then `+` and the second's, or `=` (the same). `!`
/// for a seat's list means 13 less `partner_of_other` (North for West,
/// South for East).
fn side(
    part: &[u8],
    what: &str,
    others: Option<[[Option<u8>; 5]; 2]>,
) -> Result<[[Option<u8>; 5]; 2], String> {
    let not = |k: usize| -> Result<[Option<u8>; 5], String> {
        let o = others.ok_or_else(|| format!("'!' in {what}, which only part 4 allows"))?;
        Ok(o[k].map(|x| x.map(|x| 13u8.saturating_sub(x))))
    };
    // The first seat's list ('!' or makes), then '+' and the second's,
    // '=' (the same), '!' (the second's by the rule), or nothing.
    let n = if part.first() == Some(&b'!') {
        1
    } else {
        part.iter().take_while(|&&c| hex_make(c).is_some()).count()
    };
    let (a, rest) = part.split_at(n);
    let first = if a == b"!" { not(0)? } else { five(a, what)? };
    let second = match rest {
        [] => [None; 5],
        b"=" => first,
        b"!" => not(1)?,
        [b'+', b @ ..] if b == b"!" => not(1)?,
        [b'+', b @ ..] => five(b, what)?,
        _ => {
            return Err(format!(
                "'{}' in {what}: expected '+' and makes, '=' or '!' after the first seat's",
                String::from_utf8_lossy(rest)
            ));
        }
    };
    Ok([first, second])
}

pub fn parse_makes(v: &[u8]) -> Result<RbnMakes, String> {
    let v = v.trim_ascii();
    let parts: Vec<&[u8]> = v.split(|&b| b == b':').collect();
    if parts.len() > 4 {
        return Err(format!("{} parts (at most 4)", parts.len()));
    }
    let mut m = RbnMakes {
        contract: make_list(parts[0], "part 1")?,
        ..RbnMakes::default()
    };
    if let Some(p) = parts.get(1) {
        m.leads = make_list(p, "part 2")?;
    }
    if let Some(p) = parts.get(2) {
        let [n, s] = side(p, "part 3", None)?;
        m.by_declarer[Seat::N as usize] = n;
        m.by_declarer[Seat::S as usize] = s;
    }
    if let Some(p) = parts.get(3) {
        let ns = [
            m.by_declarer[Seat::N as usize],
            m.by_declarer[Seat::S as usize],
        ];
        let [w, e] = side(p, "part 4", Some(ns))?;
        m.by_declarer[Seat::W as usize] = w;
        m.by_declarer[Seat::E as usize] = e;
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn days(y: i32, m: u32, d: u32) -> Option<i32> {
        civil_date(y, m, d)
    }

    #[test]
    fn the_d_label_examples() {
        let d = parse_date(b"19980131").unwrap();
        assert_eq!(d.date, days(1998, 1, 31));
        let d = parse_date(b"199709").unwrap();
        assert_eq!(
            (d.date, d.year, d.month, d.day),
            (None, Some(1997), Some(9), None)
        );
        let d = parse_date(b"1986120911").unwrap();
        assert_eq!((d.date, d.until_day), (days(1986, 12, 9), Some(11)));
        let d = parse_date(b"1955C").unwrap();
        assert_eq!((d.date, d.year, d.circa), (None, Some(1955), true));
        let d = parse_date(b"20010704:1930").unwrap();
        assert_eq!(
            (d.date, d.time, d.gmt),
            (days(2001, 7, 4), Some((19, Some(30), None)), false)
        );
        let d = parse_date(b"20120428:072315G").unwrap();
        assert_eq!((d.time, d.gmt), (Some((7, Some(23), Some(15))), true));
        let d = parse_date(b"19930512").unwrap();
        assert_eq!(d.date, days(1993, 5, 12));
        let d = parse_date(b"1993??12").unwrap();
        assert_eq!((d.date, d.month, d.day), (None, None, Some(12)));
        assert!(parse_date(b"19931301").is_err());
        assert!(parse_date(b"19930230").is_err());
        assert!(parse_date(b"1993C05").is_err());
        assert!(parse_date(b"199305:12").is_ok());
        assert!(parse_date(b"20010704:25").is_err());
    }

    fn hand(s: &str) -> Option<Vec<Card>> {
        let d =
            crate::notation::pbn::values::parse_deal(format!("N:{s} - - -").as_bytes()).unwrap();
        d[0].clone()
    }

    #[test]
    fn the_h_label_examples() {
        // Full deals with the fourth hand the rest.
        let h = parse_hands(b"W:873.A6.KT864.KQ8:96.T54.97.AJ9643:T542.K93.AQ53.52:").unwrap();
        assert!(h.fourth_is_rest);
        assert_eq!(h.deal[Seat::W as usize], hand("873.A6.KT864.KQ8"));
        assert_eq!(h.deal[Seat::N as usize], hand("96.T54.97.AJ9643"));
        assert_eq!(h.deal[Seat::E as usize], hand("T542.K93.AQ53.52"));
        assert_eq!(h.deal[Seat::S as usize], hand("AKQJ.QJ872.J2.T7"));
        let h = parse_hands(b"S:9.AK6.AKT982.K87:K7654.J73.Q65.T6:QT2.T94.J4.AQ953:").unwrap();
        assert!(
            h.fourth_is_rest
                && h.deal
                    .iter()
                    .all(|x| x.as_ref().is_some_and(|c| c.len() == 13))
        );
        // North and South only: East missing.
        let h = parse_hands(b"N:AKQ72..AKQ72.753::.AKQ72.753.AKQ72").unwrap();
        assert_eq!(h.deal[Seat::N as usize], hand("AKQ72..AKQ72.753"));
        assert_eq!(h.deal[Seat::E as usize], None);
        assert_eq!(h.deal[Seat::S as usize], hand(".AKQ72.753.AKQ72"));
        assert_eq!(h.deal[Seat::W as usize], None);
        assert!(!h.fourth_is_rest);
        // East alone.
        let h = parse_hands(b"E:T4.8642.AKT8.K65").unwrap();
        assert_eq!(h.deal.iter().filter(|x| x.is_some()).count(), 1);
        // A five-card ending, superfluous dots left out.
        let h = parse_hands(b"W:K9.K9.9:3.A3.Q.4:Q82..J.A:A7.7.K8").unwrap();
        assert!(
            h.deal
                .iter()
                .all(|x| x.as_ref().is_some_and(|c| c.len() == 5))
        );
        assert_eq!(h.deal[Seat::S as usize], hand("A7.7.K8."));
        // The spade suit alone.
        let h = parse_hands(b"W:43:KJ2:Q976:AT85").unwrap();
        assert_eq!(h.deal[Seat::S as usize], hand("AT85..."));
        // Hidden hands: ';' before them; the trailing ';' is South, hidden.
        let h = parse_hands(b"W:A875.632.76.8643;Q632.Q87.J842.Q2:KJT4.KJT4.AQ3.AJ;").unwrap();
        assert_eq!(h.hidden, [true, false, true, false]);
        assert!(h.fourth_is_rest);
        // The same deal from any first hand.
        let all = [
            &b"E;K5.T.KQJT98.KQJT:A876.A2.765.A876;32.KQJ9876543..9:"[..],
            b"S:A876.A2.765.A876;32.KQJ9876543..9:QJT94..A432.5432;",
            b"W;32.KQJ9876543..9:QJT94..A432.5432;K5.T.KQJT98.KQJT:",
            b"N:QJT94..A432.5432;K5.T.KQJT98.KQJT:A876.A2.765.A876;",
        ];
        let hs: Vec<RbnHands> = all.iter().map(|v| parse_hands(v).unwrap()).collect();
        for x in &hs[1..] {
            assert_eq!(x.deal, hs[0].deal);
            assert_eq!(x.hidden, [false, true, false, true]);
        }
        // The Florida Belles record; the spec's RBX example (West alone).
        let h = parse_hands(b"W:A8765.QT.K9.AT87:J42.AJ7632.J.632:QT3.85.Q86.KQJ54:").unwrap();
        assert_eq!(h.deal[Seat::S as usize], hand("K9.K94.AT75432.9"));
        let h = parse_hands(b"W:AK2").unwrap();
        assert_eq!(h.deal[Seat::W as usize], hand("AK2..."));
        // Pseudo cards.
        let h = parse_hands(b"N:AKxx.x?..").unwrap();
        assert_eq!(
            (h.deal[0].as_ref().map(Vec::len), h.pseudo[0]),
            (Some(2), 4)
        );
        // Fourteen cards, or a card twice, are read (the rules tell them).
        let h = parse_hands(b"N:AKQJT98765432A").unwrap();
        assert_eq!(h.deal[0].as_ref().map(Vec::len), Some(14));
        assert!(parse_hands(b"Q:AK").is_err());
        assert!(parse_hands(b"N:A.K.Q.J.T").is_err());
    }

    fn calls(a: &RbnAuction<'_>) -> String {
        a.calls
            .iter()
            .map(|c| match c.call {
                Some(c) => crate::notation::pbn::values::call_text(c).to_string(),
                None => "Y".into(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn the_a_label_examples() {
        let a = parse_auction(b"SZ:1SP2SP:4SA").unwrap();
        assert_eq!(
            (a.dealer, a.vulnerable, a.all_pass),
            (Some(Seat::S), Some("None"), true)
        );
        assert_eq!(calls(&a), "1S Pass 2S Pass 4S Pass Pass Pass");
        let a = parse_auction(b"WE:A").unwrap();
        assert_eq!((a.dealer, a.vulnerable), (Some(Seat::W), Some("EW")));
        assert_eq!(calls(&a), "Pass Pass Pass Pass");
        let a = parse_auction(b"NB:1SXY").unwrap();
        assert_eq!(calls(&a), "1S X Y");
        let a = parse_auction(b"1SP2CP:2D").unwrap();
        assert_eq!(
            (a.dealer, a.vulnerable, a.prefix),
            (Some(Seat::W), None, false)
        );
        assert_eq!(calls(&a), "1S Pass 2C Pass 2D");
        let a = parse_auction(b"EB:3CP3N?P:PX!R^1A").unwrap();
        assert_eq!(calls(&a), "3C Pass 3NT Pass Pass X XX Pass Pass Pass");
        assert_eq!(a.calls[2].notation, b"?");
        assert_eq!(a.calls[5].notation, b"!");
        assert_eq!((a.calls[6].notation, a.calls[6].note), (&b""[..], Some(1)));
        // Florida Belles; the RBX example.
        let a = parse_auction(b"WZ:1S2H2S4D:4SPP5H:XA").unwrap();
        assert_eq!(calls(&a), "1S 2H 2S 4D 4S Pass Pass 5H X Pass Pass Pass");
        let a = parse_auction(b"SB:1HP5H^1A").unwrap();
        assert_eq!(a.calls[2].note, Some(1));
        assert_eq!(calls(&a), "1H Pass 5H Pass Pass Pass");
        // After passes, A is the passes still needed.
        let a = parse_auction(b"NZ:1SPA").unwrap();
        assert_eq!(calls(&a), "1S Pass Pass Pass");
        assert!(parse_auction(b"NZ:1SA1H").is_err());
        assert!(parse_auction(b"NZ:8S").is_err());
        assert!(parse_auction(b"QZ:1S").is_err());
    }

    #[test]
    fn the_c_label_examples() {
        let c = parse_contract(b"5D:N").unwrap();
        assert_eq!(
            (c.level, c.strain, c.risk, c.declarer),
            (Some(5), Strain::D, Risk::Undoubled, Some(Seat::N))
        );
        let c = parse_contract(b"6NR:E").unwrap();
        assert_eq!(
            (c.strain, c.risk, c.declarer),
            (Strain::NT, Risk::Redoubled, Some(Seat::E))
        );
        let c = parse_contract(b"4SX8:S").unwrap();
        assert_eq!((c.risk, c.goal), (Risk::Doubled, Some(Goal::Tricks(8))));
        let c = parse_contract(b"H6:S:S").unwrap();
        assert_eq!(
            (c.level, c.goal, c.declarer, c.leader),
            (None, Some(Goal::Tricks(6)), Some(Seat::S), Some(Seat::S))
        );
        let c = parse_contract(b"CM:W").unwrap();
        assert_eq!((c.goal, c.declarer), (Some(Goal::Max), Some(Seat::W)));
        let c = parse_contract(b"5HX:N").unwrap();
        assert_eq!(
            (c.level, c.strain, c.risk),
            (Some(5), Strain::H, Risk::Doubled)
        );
        let c = parse_contract(b"3n:s:w:extra").unwrap();
        assert_eq!(
            (c.declarer, c.leader, c.extra.len()),
            (Some(Seat::S), Some(Seat::W), 1)
        );
        assert!(parse_contract(b"8S:N").is_err());
        assert!(parse_contract(b"4S14:N").is_err());
        assert!(parse_contract(b"4S:Q").is_err());
    }

    #[test]
    fn the_r_label_examples() {
        let r = |v: &[u8]| parse_result(v).unwrap();
        assert_eq!(r(b"11").tricks, Some(11));
        assert_eq!(
            (r(b"10+620").tricks, r(b"10+620").score_ns),
            (Some(10), Some(620))
        );
        let x = r(b"8-300:+4");
        assert_eq!(
            (x.tricks, x.score_ns, x.effective),
            (Some(8), Some(-300), Some(Effective::Imps(400)))
        );
        let x = r(b"P:-2");
        assert_eq!(
            (x.passed_out, x.effective),
            (true, Some(Effective::Imps(-200)))
        );
        assert_eq!(r(b"12-980:-11").effective, Some(Effective::Imps(-1100)));
        let x = r(b":66.67");
        assert_eq!(
            (x.tricks, x.effective),
            (None, Some(Effective::Percent(6667)))
        );
        assert_eq!(r(b"5:-1").effective, Some(Effective::Imps(-100)));
        let x = r(b"+2140:+12.29");
        assert_eq!(
            (x.tricks, x.score_ns, x.effective),
            (None, Some(2140), Some(Effective::Imps(1229)))
        );
        assert_eq!(r(b"7-750:7").effective, Some(Effective::Percent(700)));
        assert_eq!(r(b"9-100:=").effective, Some(Effective::Push));
        assert_eq!(r(b"9-300:0").effective, Some(Effective::Percent(0)));
        assert!(parse_result(b"14").is_err());
        assert!(parse_result(b"9:1.234").is_err());
    }

    fn play_texts(p: &RbnPlayList<'_>) -> String {
        p.plays
            .iter()
            .map(|x| match (x.card, x.pseudo) {
                (Some(c), _) => c.as_str().to_string(),
                (None, Some(b)) => (b as char).to_string(),
                _ => "?".into(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn the_p_label_examples() {
        let p = parse_play(b"SK54T:SA87H3:HA245:HKQ8J").unwrap();
        assert_eq!(
            play_texts(&p),
            "SK S5 S4 ST SA S8 S7 H3 HA H2 H4 H5 HK HQ H8 HJ"
        );
        assert_eq!(p.plays[15].trick, 3);
        let p = parse_play(b"HQ*3J2:HK47A:DJA53:HT68C7^1").unwrap();
        assert_eq!(p.plays[0].notation, b"*");
        assert_eq!(
            (p.plays[15].card.map(Card::as_str), p.plays[15].note),
            (Some("C7"), Some(1))
        );
        let p = parse_play(b"SK--.:STQA.").unwrap();
        assert_eq!(play_texts(&p), "SK - - . ST SQ SA .");
        let p = parse_play(b"SK--.:STQA.:--+-:S578").unwrap();
        assert_eq!(play_texts(&p), "SK - - . ST SQ SA . - - + - S5 S7 S8");
        // Florida Belles: a ruff (H4) and a discard (H2) named by their
        // suits, the cards that follow the suit led by their ranks.
        let p = parse_play(b"CK972:CQ!H483:DA9J6:D2KH28:SJ?QKA:CA").unwrap();
        assert_eq!(
            play_texts(&p),
            "CK C9 C7 C2 CQ H4 C8 C3 DA D9 DJ D6 D2 DK H2 D8 SJ SQ SK SA CA"
        );
        assert_eq!(p.plays[4].notation, b"!");
        assert_eq!(p.plays[16].notation, b"?");
        let p = parse_play(b"SA234;HA").unwrap();
        assert_eq!(p.trivial_from, Some(1));
        assert!(parse_play(b"K54").is_err());
        assert!(parse_play(b"SK5432").is_err());
        assert!(parse_play(b"SKZ").is_err());
        assert!(parse_play(b"SK::HA").is_err());
    }

    #[test]
    fn the_m_label_examples() {
        let m = parse_makes(b"9").unwrap();
        assert_eq!(m.contract, [Some(9)]);
        let m = parse_makes(b"8998888788887").unwrap();
        assert_eq!(m.contract.len(), 13);
        assert_eq!(parse_makes(b"AA").unwrap().contract, [Some(10), Some(10)]);
        assert_eq!(
            parse_makes(b"89?").unwrap().contract,
            [Some(8), Some(9), None]
        );
        assert_eq!(parse_makes(b":AAABBBAABA").unwrap().leads.len(), 10);
        assert_eq!(parse_makes(b":D").unwrap().leads, [Some(13)]);
        let n = Seat::N as usize;
        let s = Seat::S as usize;
        let w = Seat::W as usize;
        let e = Seat::E as usize;
        let m = parse_makes(b"::987A8+997A8").unwrap();
        assert_eq!(
            m.by_declarer[n],
            [Some(9), Some(8), Some(7), Some(10), Some(8)]
        );
        assert_eq!(
            m.by_declarer[s],
            [Some(9), Some(9), Some(7), Some(10), Some(8)]
        );
        let m = parse_makes(b"::BA69A=").unwrap();
        assert_eq!(m.by_declarer[n], m.by_declarer[s]);
        let m = parse_makes(b"::9").unwrap();
        assert_eq!(m.by_declarer[n], [Some(9), None, None, None, None]);
        let m = parse_makes(b":::74499=").unwrap();
        assert_eq!(
            m.by_declarer[w],
            [Some(7), Some(4), Some(4), Some(9), Some(9)]
        );
        assert_eq!(m.by_declarer[e], m.by_declarer[w]);
        let m = parse_makes(b"::987A8=:!=").unwrap();
        assert_eq!(
            m.by_declarer[w],
            [Some(4), Some(5), Some(6), Some(3), Some(5)]
        );
        assert_eq!(m.by_declarer[e], m.by_declarer[w]);
        let m = parse_makes(b"::88666+88667:!!").unwrap();
        assert_eq!(
            m.by_declarer[w],
            [Some(5), Some(5), Some(7), Some(7), Some(7)]
        );
        assert_eq!(
            m.by_declarer[e],
            [Some(5), Some(5), Some(7), Some(7), Some(6)]
        );
        assert!(parse_makes(b"::!").is_err());
        assert!(parse_makes(b"::987A89").is_err());
        assert!(parse_makes(b"E").is_err());
        assert!(parse_makes(b"1:2:3:4:5").is_err());
    }
}
