//! The RBN and RBX writer: a board's labels in the standard order, the
//! repeating labels as a reader carries them, notes after their label.

use super::*;

/// An RBN record being written: its lines.
#[derive(Default)]
pub(super) struct Rec {
    lines: Vec<String>,
}

impl Rec {
    fn label(&mut self, l: u8, v: &str) {
        self.lines.push(format!("{} {v}", l as char));
    }
}

/// `:` doubled (RBN's escape in T L E S).
pub(super) fn escape_colons(s: &str) -> String {
    s.replace(':', "::")
}

/// The RBN D of a board: RBN's as written; else the date; else a PBN
/// date's known parts (unknown trailing parts left out).
pub(super) fn rbn_date(b: &Board<'_>) -> Option<String> {
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
pub(super) fn rbn_makes(dd: &[(&str, &str, Option<i32>)]) -> Option<String> {
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

impl Writer {
    pub(super) fn rbn(&mut self, b: &Board<'_>, rbx: bool, out: &mut String) {
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
        let want = self.rbn_repeating_values(b, rbn_origin, &verbatim, home, visit);
        let mut r = self.rbn_repeating_lines(b, &want);
        self.rbn_notes(b, "board", &mut r);
        self.rbn_sections(b, &verbatim, &mut r);
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
        self.rbn_extraneous(others, &mut r);
        if rbx {
            out.push_str(&self.rbx_line(&r.lines));
            out.push('\n');
        } else {
            for l in &r.lines {
                out.push_str(l);
                out.push('\n');
            }
            out.push('\n');
        }
    }

    /// The values of the ten repeating labels (D T L E F S K N B H), as
    /// this board has them.
    fn rbn_repeating_values(
        &mut self,
        b: &Board<'_>,
        rbn_origin: bool,
        verbatim: &BTreeMap<u8, String>,
        home: Option<String>,
        visit: Option<String>,
    ) -> [Option<String>; 10] {
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
        want
    }

    /// The repeating labels' lines: what repeats left out, a label that
    /// stops given bare, the free text (comments) before H.
    fn rbn_repeating_lines(&mut self, b: &Board<'_>, want: &[Option<String>; 10]) -> Rec {
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
        r
    }

    /// The sections and what follows them: A and its notes, C, P and its
    /// notes, R, M.
    fn rbn_sections(&mut self, b: &Board<'_>, verbatim: &BTreeMap<u8, String>, r: &mut Rec) {
        match verbatim.get(&b'A') {
            Some(v) => r.label(b'A', v),
            None => {
                if let Some(a) = self.rbn_auction(b) {
                    r.label(b'A', &a);
                }
            }
        }
        self.rbn_notes(b, "auction", r);
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
        self.rbn_notes(b, "play", r);
        match verbatim.get(&b'R') {
            Some(v) => r.label(b'R', v),
            None => {
                if let Some(v) = self.rbn_result(b) {
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
    }

    /// The R label's value: tricks (P for a passed-out board) and the
    /// score for North-South.
    fn rbn_result(&mut self, b: &Board<'_>) -> Option<String> {
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
        (tricks.is_some() || score.is_some()).then(|| {
            format!(
                "{}{}",
                tricks.unwrap_or_default(),
                score.unwrap_or_default()
            )
        })
    }

    /// Tags RBN has no label for: kept as `%` lines (extraneous text).
    fn rbn_extraneous(&mut self, others: Vec<(&str, Option<&str>)>, r: &mut Rec) {
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
    }

    /// An RBN record's lines as one RBX line: each label's space is `{`,
    /// each line break `}`.
    fn rbx_line(&mut self, lines: &[String]) -> String {
        let mut line = String::new();
        for l in lines {
            // (prefix, content, suffix): RBX has no escape for braces in
            // a field, which would end it.
            let (pre, content, post) = if l.len() > 1 && l.starts_with('{') && l.ends_with('}') {
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
        line
    }

    pub(super) fn rbn_names(&mut self, b: &Board<'_>) -> Option<String> {
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

    pub(super) fn rbn_hands(&mut self, b: &Board<'_>, rbn_origin: bool) -> Option<String> {
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

    pub(super) fn rbn_marks(
        &mut self,
        annotation: Option<&str>,
        note: Option<i32>,
        out: &mut String,
    ) {
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

    pub(super) fn rbn_notes(&mut self, b: &Board<'_>, section: &str, r: &mut Rec) {
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

    pub(super) fn rbn_auction(&mut self, b: &Board<'_>) -> Option<String> {
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

    pub(super) fn rbn_contract(&mut self, b: &Board<'_>) -> Option<String> {
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

    pub(super) fn rbn_play(&mut self, b: &Board<'_>) -> Option<String> {
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

    pub(super) fn rbn_items(&mut self, b: &Board<'_>) -> Vec<String> {
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
