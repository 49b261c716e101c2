//! Checks of a game against the letter of PBN that change no value: tags
//! the spec does not define, values outside the forms or the examples it
//! gives, what the Auction and Play sections need before them, long lines.
//! Most are warnings; what is only unusual is an info.

use super::*;

/// Whether PBN 2.1 defines the tag (chapters 3, 4 and 5).
fn is_pbn_tag(name: &[u8]) -> bool {
    matches!(
        name,
        b"Event"
            | b"Site"
            | b"Date"
            | b"Board"
            | b"West"
            | b"North"
            | b"East"
            | b"South"
            | b"Dealer"
            | b"Vulnerable"
            | b"Deal"
            | b"Scoring"
            | b"Declarer"
            | b"Contract"
            | b"Result"
            | b"Auction"
            | b"Play"
            | b"Note"
            | b"Competition"
            | b"DealId"
            | b"Description"
            | b"FrenchMP"
            | b"Generator"
            | b"Hidden"
            | b"Room"
            | b"Termination"
            | b"Score"
            | b"ScoreIMP"
            | b"ScoreMP"
            | b"ScorePercentage"
            | b"ScoreRubber"
            | b"ScoreRubberHistory"
            | b"OptimumScore"
            | b"BidSystemEW"
            | b"BidSystemNS"
            | b"PairEW"
            | b"PairNS"
            | b"WestNA"
            | b"NorthNA"
            | b"EastNA"
            | b"SouthNA"
            | b"WestType"
            | b"NorthType"
            | b"EastType"
            | b"SouthType"
            | b"EventDate"
            | b"EventSponsor"
            | b"HomeTeam"
            | b"Round"
            | b"Section"
            | b"Stage"
            | b"Table"
            | b"VisitTeam"
            | b"Time"
            | b"UTCDate"
            | b"UTCTime"
            | b"TimeControl"
            | b"TimeCall"
            | b"TimeCard"
            | b"Annotator"
            | b"AnnotatorNA"
            | b"Application"
            | b"Mode"
            | b"ActionTable"
            | b"AuctionTimeTable"
            | b"InstantScoreTable"
            | b"OptimumPlayTable"
            | b"OptimumResultTable"
            | b"PlayTimeTable"
            | b"ScoreTable"
            | b"TotalScoreTable"
    )
}

/// Tags whose values PBN lists (all of them, or as examples): a value
/// outside the list is an info.
const LISTED: &[(&[u8], &[&str])] = &[
    (b"Room", &["Open", "Closed"]),
    (b"FrenchMP", &["Yes", "No"]),
    (
        b"Competition",
        &[
            "Cavendish",
            "Chicago",
            "Individuals",
            "Pairs",
            "Rubber",
            "Teams",
        ],
    ),
    (b"WestType", &["human", "program"]),
    (b"NorthType", &["human", "program"]),
    (b"EastType", &["human", "program"]),
    (b"SouthType", &["human", "program"]),
];

/// The scoring systems and modifiers of PBN 3.4.12.
const SCORINGS: &[&str] = &[
    "MP",
    "MatchPoints",
    "IMP",
    "Cavendish",
    "Chicago",
    "Rubber",
    "BAM",
    "Instant",
    "Butler",
    "Butler-2",
    "Experts",
    "Cross",
    "Cross1",
    "Cross2",
    "Mean",
    "Median",
    "MP1",
    "MP2",
    "OldMP",
    "Mitchell2",
    "Mitchell3",
    "Mitchell4",
    "Ascherman",
    "Bastille",
    "EMP",
    "IMP_1948",
    "IMP_1961",
];

/// The longest line PBN 2.3 allows, line end included.
const MAX_LINE: usize = 255;

/// A number as the Score tags write it: an integer, or (`decimal`) a
/// decimal with a dot (`10.5`, `100.`).
fn is_number(w: &[u8], decimal: bool) -> bool {
    let w = w.strip_prefix(b"-").unwrap_or(w);
    let (int, frac) = match memchr::memchr(b'.', w) {
        Some(p) if decimal => (&w[..p], Some(&w[p + 1..])),
        _ => (w, None),
    };
    !int.is_empty()
        && int.iter().all(u8::is_ascii_digit)
        && frac.is_none_or(|f| f.iter().all(u8::is_ascii_digit))
}

/// A value of the Score tags' five forms: `<n>`, `NS <n>`, `EW <n>`,
/// `NS <n> EW <m>`, `EW <n> NS <m>`, each `<n>` read by `number`.
fn is_sided(v: &[u8], number: impl Fn(&[u8]) -> bool) -> bool {
    let words: Vec<&[u8]> = v
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let side = |w: &[u8]| w == b"NS" || w == b"EW";
    match words[..] {
        [n] => number(n),
        [s, n] => side(s) && number(n),
        [s, n, t, m] => side(s) && side(t) && s != t && number(n) && number(m),
        _ => false,
    }
}

/// A ScoreRubber value with the white space around its `/` taken out
/// (`NS 50 / 70` is `NS 50/70`).
fn rubber_words(v: &[u8]) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::with_capacity(v.len());
    for (i, &b) in v.iter().enumerate() {
        let next_slash = v[i..].iter().find(|c| !c.is_ascii_whitespace()) == Some(&b'/');
        if b.is_ascii_whitespace() && (out.last() == Some(&b'/') || next_slash) {
            continue;
        }
        out.push(b);
    }
    out
}

impl Board<'_, '_> {
    /// The checks of the game's tags (B021, B030, B031, B032) and lines
    /// (B102).
    pub(super) fn check_tags(&mut self) {
        let h = self.h;
        let range = h.lexed.tags.start as usize..h.lexed.tags.end as usize;
        let mut unknown: Vec<&[u8]> = Vec::new();
        for ti in range {
            let t = &self.lists.tags[ti];
            if !is_pbn_tag(t.name) && !t.name.ends_with(b"Table") && !unknown.contains(&t.name) {
                unknown.push(t.name);
            }
            if t.state == TagState::Written && memchr::memchr(b'\t', t.value).is_some() {
                let msg = format!(
                    "tag {} holds a tab in its value (PBN 2.3 allows none in strings)",
                    String::from_utf8_lossy(t.name)
                );
                self.warn(t.value_at as usize, "B031", msg);
            }
            if t.state != TagState::Written {
                continue;
            }
            let v = t.value.trim_ascii();
            let odd = match t.name {
                b"Round" => (!v.is_empty()
                    && !v.split(|&b| b == b'.').all(|p| {
                        !p.is_empty() && p.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_')
                    }))
                .then_some("round indicators of letters, digits and '_', separated by '.'"),
                b"ScoreIMP" | b"ScoreMP" => (!v.is_empty() && !is_sided(v, |w| is_number(w, true)))
                    .then_some("a number, or NS or EW and a number (PBN 4.2.1)"),
                b"ScorePercentage" => (!v.is_empty()
                    && !is_sided(v, |w| {
                        is_number(w, true)
                            && String::from_utf8_lossy(w)
                                .parse::<f64>()
                                .is_ok_and(|x| (0.0..=100.0).contains(&x))
                    }))
                .then_some("a percentage 0 to 100, or NS or EW and one"),
                b"ScoreRubber" => (!v.is_empty()
                    && !is_sided(&rubber_words(v), |w| {
                        let mut p = w.split(|&b| b == b'/');
                        let (a, b) = (p.next(), p.next());
                        p.next().is_none()
                            && a.is_some_and(|a| is_number(a, false) && !a.starts_with(b"-"))
                            && b.is_some_and(|b| is_number(b, false) && !b.starts_with(b"-"))
                    }))
                .then_some("above/below points (300/40), or NS or EW and them"),
                _ => None,
            };
            if let Some(expected) = odd {
                let msg = format!(
                    "invalid value \"{}\" for tag {}: expected {expected}; kept in other_tags",
                    text(t),
                    String::from_utf8_lossy(t.name)
                );
                self.warn(t.value_at as usize, "B021", msg);
            }
            let listed = LISTED.iter().find(|(n, _)| *n == t.name);
            let off_list = match (listed, t.name) {
                (Some((_, values)), _) => {
                    (!v.is_empty() && v != b"?" && !values.iter().any(|x| x.as_bytes() == v))
                        .then(|| values.join(", "))
                }
                (None, b"Scoring") => {
                    let s = String::from_utf8_lossy(v);
                    let bad: Vec<&str> = s
                        .split(';')
                        .map(str::trim)
                        .filter(|f| !f.is_empty() && *f != "?" && !SCORINGS.contains(f))
                        .collect();
                    (!bad.is_empty()).then(|| "the systems and modifiers of PBN 3.4.12".to_string())
                }
                (None, b"Hidden") => (!v.iter().all(|b| b"WNES".contains(b)))
                    .then(|| "the letters W, N, E and S".to_string()),
                _ => None,
            };
            if let Some(known) = off_list {
                let msg = format!(
                    "tag {} \"{}\" is none of {known}",
                    String::from_utf8_lossy(t.name),
                    text(t)
                );
                self.diags
                    .push(Diag::info(t.value_at as usize, "B032", msg));
            }
        }
        if !unknown.is_empty() {
            let names: Vec<String> = unknown
                .iter()
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .collect();
            let msg = format!(
                "tag{} {} not defined by PBN: kept in other_tags",
                if names.len() > 1 { "s" } else { "" },
                names.join(", ")
            );
            self.diags.push(Diag::info(0, "B030", msg));
        }
        // Long lines (PBN 2.3: 255 characters, line end included).
        let b = h.bytes;
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', b).chain(std::iter::once(b.len())) {
            if end + 1 - start > MAX_LINE {
                let msg = format!(
                    "line of {} bytes with its line end; PBN allows {MAX_LINE}",
                    end + 1 - start
                );
                self.diags.push(Diag::info(start, "B102", msg));
                break;
            }
            start = end + 1;
        }
    }

    /// The deal's form: extra white space (B032), no hand given (B050).
    pub(super) fn check_deal_form(&mut self) {
        let Some(t) = self.tag(K::Deal) else { return };
        let v = t.value.trim_ascii();
        if v.is_empty() || v == b"?" {
            return;
        }
        let at = self.at(t);
        if v.windows(2)
            .any(|w| w[0].is_ascii_whitespace() && w[1].is_ascii_whitespace())
            || v.iter().any(|&b| b.is_ascii_whitespace() && b != b' ')
        {
            let msg = "Deal separates its hands by more than one space".to_string();
            self.diags.push(Diag::info(at, "B032", msg));
        }
        let hands = v.get(2..).unwrap_or_default();
        if hands
            .split(|b| b.is_ascii_whitespace())
            .filter(|h| !h.is_empty())
            .all(|h| h == b"-")
        {
            self.warn(at, "B050", "Deal gives no hand".to_string());
        }
    }

    /// What the sections need (PBN 3.1: a Dealer before the auction; a
    /// Deal, Declarer and Contract before the play), and what a passed-out
    /// game or a Result needs (B058, B052).
    pub(super) fn check_needs(&mut self, s: &Stated) {
        if let Some(t) = self.tag(K::Auction)
            && self.tag(K::Dealer).is_none()
        {
            let at = self.at(t);
            self.warn(
                at,
                "B058",
                "an Auction section but no Dealer tag (PBN 3.1)".to_string(),
            );
        }
        if let Some(t) = self.tag(K::Play) {
            let at = self.at(t);
            let missing: Vec<&str> = [
                (K::Deal, "Deal"),
                (K::Declarer, "Declarer"),
                (K::Contract, "Contract"),
            ]
            .into_iter()
            .filter(|&(k, _)| self.present(k).is_none())
            .map(|(_, n)| n)
            .collect();
            if !missing.is_empty() {
                let msg = format!("a Play section but no {} tag (PBN 3.1)", missing.join(", "));
                self.warn(at, "B058", msg);
            }
        }
        let result = self
            .present(K::Result)
            .map(|_| self.tag(K::Result).unwrap());
        if let Some(t) = result {
            let at = self.at(t);
            if s.contract == Some(ContractValue::Pass) {
                self.warn(at, "B052", "a Result, but the Contract is Pass".to_string());
            } else if self
                .tag(K::Declarer)
                .is_some_and(|d| d.value.trim_ascii().is_empty())
            {
                let msg = "a Result, but the Declarer is empty (every player passed)";
                self.warn(at, "B052", msg.to_string());
            }
            // Both sides' tricks must add up to 13.
            let v = t.value.trim_ascii();
            let v = v.strip_prefix(b"^").unwrap_or(v);
            let words: Vec<&[u8]> = v
                .split(|b| b.is_ascii_whitespace())
                .filter(|w| !w.is_empty())
                .collect();
            if let [_, a, _, b] = words[..]
                && let (Some(a), Some(b)) = (parse_i32(a), parse_i32(b))
                && a + b != 13
            {
                let msg = format!(
                    "Result \"{}\" gives the sides {} tricks, not 13",
                    text(t),
                    a + b
                );
                self.warn(at, "B021", msg);
            }
        }
        if s.contract == Some(ContractValue::Pass)
            && let Some((d, _)) = s.declarer
        {
            let at = self.tag(K::Declarer).map_or(0, |t| self.at(t));
            let msg = format!("Declarer \"{}\", but the Contract is Pass", d.as_str());
            self.warn(at, "B052", msg);
        }
        if let Some(v) = self.present(K::Contract)
            && let Ok(c) = values::parse_contract(v)
        {
            let canonical = match c {
                ContractValue::Pass => "Pass".to_string(),
                ContractValue::Contract(k) => k.text(),
                ContractValue::Strain(st) => st.as_str().to_string(),
            };
            if !v.eq_ignore_ascii_case(canonical.as_bytes()) {
                let at = self.at(self.tag(K::Contract).unwrap());
                let msg = format!(
                    "Contract \"{}\" read as {canonical}",
                    String::from_utf8_lossy(v)
                );
                self.diags.push(Diag::info(at, "B032", msg));
            }
        }
    }

    /// Section data after a tag that opens no section and is no table
    /// (B023): kept in score_tables.
    pub(super) fn check_sections(&mut self) {
        for k in 0..self.sections.len() {
            let t = &self.lists.tags[self.sections[k]];
            if t.name.ends_with(b"Table") {
                continue;
            }
            let first = self.lists.tokens[t.tokens.start as usize].at as usize;
            let msg = format!(
                "text after tag {}, which opens no section (only Auction, Play and the tables do): kept in score_tables",
                String::from_utf8_lossy(t.name)
            );
            self.warn(first, "B023", msg);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_tag_forms() {
        assert!(is_sided(b"EW 10 NS 0", |w| is_number(w, true)));
        assert!(is_sided(b"-2.5", |w| is_number(w, true)));
        assert!(is_sided(b"100.", |w| is_number(w, true)));
        assert!(!is_sided(b"10.a", |w| is_number(w, true)));
        assert!(!is_sided(b"10.-10", |w| is_number(w, true)));
        assert!(!is_sided(b"10. 10", |w| is_number(w, true)));
        assert!(!is_sided(b"NS 1 NS 2", |w| is_number(w, true)));
        assert!(!is_number(b"1.5", false));
        assert_eq!(
            rubber_words(b"EW 300/40 NS 50 / 70  "),
            b"EW 300/40 NS 50/70  "
        );
    }

    #[test]
    fn rubber_scores_may_space_their_slash() {
        let ok = |w: &[u8]| {
            let mut p = w.split(|&b| b == b'/');
            p.next().is_some_and(|a| is_number(a, false))
                && p.next().is_some_and(|b| is_number(b, false))
        };
        assert!(is_sided(&rubber_words(b"EW 300/40 NS 50 / 70  "), ok));
    }
}
