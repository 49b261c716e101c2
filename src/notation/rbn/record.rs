//! An RBN record's lines (RBN 3.2, "RBN Labels and Structure" and "General
//! Database Rules"): labelled lines, numbered notes, `{...}` free text, the
//! I label's items, `%` lines; RBX records turned into the same; and the
//! labels that repeat from record to record.

use std::borrow::Cow;

/// The sixteen labels, in the standard output order.
pub const LABELS: &[u8; 16] = b"DTLEFSKNBHACPRMI";

/// Labels that repeat until changed or nulled (the bare label).
pub const REPEATING: &[u8; 10] = b"DTLEFSKNBH";

/// A labelled line: its label, its value (None for a bare label, which
/// nulls a repeating one), where its value starts in the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labelled<'a> {
    pub label: u8,
    pub value: Option<&'a [u8]>,
    pub at: usize,
}

/// Which label a numbered note follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotePart {
    Auction,
    Play,
    /// Before both A and P.
    Board,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Note<'a> {
    /// 0 (a general note) to 9.
    pub number: u8,
    pub part: NotePart,
    pub text: &'a [u8],
    pub at: usize,
}

/// One record's lines, as written.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Lines<'a> {
    /// The labels, in the order written (a label given twice is here twice:
    /// the first counts, see `issues`).
    pub labels: Vec<Labelled<'a>>,
    pub notes: Vec<Note<'a>>,
    /// Free text paragraphs without their braces (`|` is a line break).
    pub texts: Vec<(&'a [u8], usize)>,
    /// The I label's items, one line or many.
    pub items: Vec<(&'a [u8], usize)>,
    /// `%` lines (extraneous text).
    pub extraneous: Vec<&'a [u8]>,
    /// Lines that are no label, note, free text or `%` line, with where
    /// they start (kept in `other_tags`).
    pub unknown: Vec<(&'a [u8], usize)>,
    /// What does not follow RBN: (offset, code, message). Nothing is
    /// dropped silently: a line that is no label is named here too.
    pub issues: Vec<(usize, &'static str, String)>,
}

impl<'a> Lines<'a> {
    /// The value of the first `label` line.
    pub fn get(&self, label: u8) -> Option<&Labelled<'a>> {
        self.labels.iter().find(|l| l.label == label)
    }
}

/// The longest line RBN allows (the label and its space included), and the
/// I label's.
pub const MAX_LINE: usize = 128;
pub const MAX_ITEM_LINE: usize = 504;
/// The largest record RBN allows.
pub const MAX_RECORD: usize = 16_384;

/// Issue codes: a line that is no RBN line, a label given again, an
/// RBN limit passed, free text left open.
pub const UNKNOWN: &str = "R010";
pub const AGAIN: &str = "R011";
pub const LIMIT: &str = "R012";
pub const OPEN_TEXT: &str = "R013";

/// Reads a record (the text between blank lines) into its lines. LF or
/// CRLF line ends.
pub fn parse(r: &[u8]) -> Lines<'_> {
    let mut out = Lines::default();
    if r.len() > MAX_RECORD {
        out.issues.push((
            0,
            LIMIT,
            format!("the record is {} bytes (RBN allows {MAX_RECORD})", r.len()),
        ));
    }
    let mut part = NotePart::Board;
    let mut in_items = false;
    let mut seen = [false; 256];
    let mut i = 0;
    while i < r.len() {
        let end = memchr::memchr(b'\n', &r[i..]).map_or(r.len(), |j| i + j);
        let mut line = &r[i..end];
        if let Some(l) = line.strip_suffix(b"\r") {
            line = l;
        }
        let at = i;
        i = end + 1;
        if line.trim_ascii().is_empty() {
            continue;
        }
        match line[0] {
            b'%' => out.extraneous.push(line),
            b'{' => {
                // A paragraph runs to a line that ends with '}'.
                let start = at + 1;
                let mut stop = at + line.len();
                let mut last = line;
                while !last.ends_with(b"}") && i < r.len() {
                    let e = memchr::memchr(b'\n', &r[i..]).map_or(r.len(), |j| i + j);
                    last = r[i..e].strip_suffix(b"\r").unwrap_or(&r[i..e]);
                    stop = i + last.len();
                    i = e + 1;
                }
                if last.ends_with(b"}") {
                    out.texts.push((&r[start..stop - 1], start));
                } else {
                    out.issues.push((
                        at,
                        OPEN_TEXT,
                        "free text '{' without its closing '}' at the end of a line: kept to the end of the record".into(),
                    ));
                    out.texts.push((&r[start..stop], start));
                }
                in_items = false;
            }
            d @ b'0'..=b'9' => {
                let text = line[1..].strip_prefix(b" ").unwrap_or(&line[1..]);
                out.notes.push(Note {
                    number: d - b'0',
                    part,
                    text,
                    at: at + line.len() - text.len(),
                });
                in_items = false;
            }
            l if LABELS.contains(&l.to_ascii_uppercase())
                && (line.len() == 1 || line[1] == b' ') =>
            {
                let label = l.to_ascii_uppercase();
                let value = (line.len() > 1).then(|| &line[2..]);
                let limit = if label == b'I' {
                    MAX_ITEM_LINE
                } else {
                    MAX_LINE
                };
                if line.len() > limit {
                    out.issues.push((
                        at,
                        LIMIT,
                        format!(
                            "{} line of {} characters (RBN allows {limit})",
                            label as char,
                            line.len()
                        ),
                    ));
                }
                if std::mem::replace(&mut seen[label as usize], true) {
                    out.issues.push((
                        at,
                        AGAIN,
                        format!(
                            "label {} again: the first is used, this one is kept in other_tags",
                            label as char
                        ),
                    ));
                }
                match label {
                    b'A' => part = NotePart::Auction,
                    b'P' => part = NotePart::Play,
                    _ => {}
                }
                in_items = label == b'I';
                if label == b'I'
                    && let Some(v) = value
                {
                    push_items(&mut out, v, at + 2);
                }
                out.labels.push(Labelled {
                    label,
                    value,
                    at: at + 2.min(line.len()),
                });
            }
            _ if in_items => push_items(&mut out, line, at),
            _ => {
                // "I " may be left out before items on lines of their own
                // when the first item's second character is no space.
                if line.len() > 1 && line[1] != b' ' && line.contains(&b'=') && !seen[b'I' as usize]
                {
                    seen[b'I' as usize] = true;
                    in_items = true;
                    out.labels.push(Labelled {
                        label: b'I',
                        value: None,
                        at,
                    });
                    push_items(&mut out, line, at);
                } else {
                    out.unknown.push((line, at));
                    out.issues.push((
                        at,
                        UNKNOWN,
                        format!(
                            "'{}' is no RBN line (a label and a space, a note digit, '{{' text or '%'): kept in other_tags",
                            String::from_utf8_lossy(&line[..line.len().min(40)])
                        ),
                    ));
                }
            }
        }
    }
    out
}

/// Items separated by `:` on a line.
fn push_items<'a>(out: &mut Lines<'a>, v: &'a [u8], at: usize) {
    let mut p = at;
    for item in v.split(|&b| b == b':') {
        if !item.is_empty() {
            out.items.push((item, p));
        }
        p += item.len() + 1;
    }
}

/// An RBX record (one line) as the RBN text it stands for: the `{` after
/// each label becomes the space, the `}` that ends each line the line
/// break. Same length, so offsets carry over. Err when the line is not
/// RBX (its fields' braces do not pair).
pub fn rbx_to_rbn(line: &[u8]) -> Result<Cow<'_, [u8]>, (usize, String)> {
    let mut out = line.to_vec();
    let mut i = 0;
    while i < line.len() {
        let at = i;
        if line[i] == b'{' {
            // Free text: to its '}', then the '}' that ends its line.
            let close = memchr::memchr(b'}', &line[i + 1..])
                .map(|j| i + 1 + j)
                .ok_or((at, "free text '{' without its '}'".to_string()))?;
            i = close + 1;
            if line.get(i) == Some(&b'}') {
                out[i] = b'\n';
                i += 1;
            }
            continue;
        }
        // A label (or '%', or a note digit), then '{' value '}', or '}'
        // alone for a bare label.
        match line.get(i + 1) {
            Some(b'{') => {
                out[i + 1] = b' ';
                let close = memchr::memchr(b'}', &line[i + 2..])
                    .map(|j| i + 2 + j)
                    .ok_or((at, format!("'{}{{' without its '}}'", line[i] as char)))?;
                out[close] = b'\n';
                i = close + 1;
            }
            Some(b'}') => {
                out[i + 1] = b'\n';
                i += 2;
            }
            None => i += 1,
            Some(_) => {
                return Err((
                    at,
                    format!(
                        "expected '{{' after '{}' (an RBX field is a label, then its value in braces)",
                        line[i] as char
                    ),
                ));
            }
        }
    }
    Ok(Cow::Owned(out))
}

/// A repeating label's value, shared by the records it repeats to.
pub type Shared = std::sync::Arc<[u8]>;

/// What a record says of a repeating label: nothing (None), null (the
/// bare label: `Some(None)`) or a value.
pub type Given<'a> = Option<Option<&'a [u8]>>;

/// The repeating labels a record gives, in [`REPEATING`] order.
pub fn given<'a>(lines: &Lines<'a>) -> [Given<'a>; 10] {
    std::array::from_fn(|k| lines.get(REPEATING[k]).map(|l| l.value))
}

/// The repeating labels' values carried from record to record (RBN's
/// database rules): DTLEFSKNBH repeat until changed or nulled by a bare
/// label; while K is set, N alternates as its last two occurrences did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Carry {
    values: [Option<Shared>; 10],
    /// The last two N values given while K was set, the latest last.
    names: [Option<Shared>; 2],
    /// Which of the two N values the next record without N takes.
    next_name: usize,
}

impl Carry {
    /// The effective values of the repeating labels for a record with
    /// `lines`: what it gives, else what repeats. Updates the carry.
    pub fn apply(&mut self, lines: &Lines<'_>) -> [Option<Shared>; 10] {
        self.apply_given(&given(lines))
    }

    /// [`Carry::apply`] for what a record gives.
    pub fn apply_given(&mut self, given: &[Given<'_>; 10]) -> [Option<Shared>; 10] {
        let n = 7;
        for (k, g) in given.iter().enumerate() {
            if let Some(v) = g {
                // The same value again shares the one carried.
                if self.values[k].as_deref() != *v {
                    self.values[k] = v.map(Shared::from);
                }
            }
        }
        let given_n = given[n].is_some();
        let k_set = self.values[6].is_some();
        if !k_set {
            self.names = [None, None];
        } else if given_n {
            self.names = [self.names[1].take(), self.values[n].clone()];
            self.next_name = 0;
        } else if self.names[0].is_some() {
            // Alternate: the one before the last, then the last, ...
            self.values[n] = self.names[self.next_name].clone();
            self.next_name = 1 - self.next_name;
        }
        self.values.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BELLES: &[u8] = b"D 19930512
T Florida Belles Are Ringers:Richard Pavlicek
L West Palm Beach FL:Palm Beach Bridge Studio
E ACBL International Fund Game
F M
N :Helen Shanbrom+Julia Carswell
{Two Florida ladies put together a tremendous score -- 78 percent.}
B 8
H W:A8765.QT.K9.AT87:J42.AJ7632.J.632:QT3.85.Q86.KQJ54:
A WZ:1S2H2S4D:4SPP5H:XA
C 5HX:N
P CK972:CQ!H483:DA9J6:D2KH28:SJ?QKA:CA
R 9-300:0
{Watch the defense!|Carswell led the cK.}
";

    fn s(b: &[u8]) -> &str {
        std::str::from_utf8(b).unwrap()
    }

    #[test]
    fn the_florida_belles_record() {
        let l = parse(BELLES);
        let labels: String = l.labels.iter().map(|x| x.label as char).collect();
        assert_eq!(labels, "DTLEFNBHACPR");
        assert_eq!(
            s(l.get(b'N').unwrap().value.unwrap()),
            ":Helen Shanbrom+Julia Carswell"
        );
        assert_eq!(s(l.get(b'R').unwrap().value.unwrap()), "9-300:0");
        assert_eq!(l.texts.len(), 2);
        assert_eq!(s(l.texts[1].0), "Watch the defense!|Carswell led the cK.");
        assert!(l.issues.is_empty(), "{:?}", l.issues);
        // Offsets point into the record.
        let h = l.get(b'H').unwrap();
        assert_eq!(&BELLES[h.at..h.at + 2], b"W:");
    }

    const RBN: &[u8] = b"% RBN
D 19991225
L Timbuktu
E Teams
F I
S F:1
K Duck:Fox
N Bob+Ed:Tom+Joe
B 7
H W:AK2
A SB:1HP5H^1A
1 nuts
C 5H:S
{Ed quit!}";

    const RBX: &[u8] =
        b"%{RBX}D{19991225}L{Timbuktu}E{Teams}F{I}S{F:1}K{Duck:Fox}N{Bob+Ed:Tom+Joe}B{7}H{W:AK2}A{SB:1HP5H^1A}1{nuts}C{5H:S}{Ed quit!}";

    #[test]
    fn the_rbx_example_is_the_rbn_record() {
        let text = rbx_to_rbn(RBX).unwrap();
        let (a, b) = (parse(RBN), parse(&text));
        assert_eq!(a.labels.len(), b.labels.len());
        for (x, y) in a.labels.iter().zip(&b.labels) {
            assert_eq!((x.label, x.value), (y.label, y.value));
        }
        assert_eq!(a.notes[0].text, b"nuts");
        assert_eq!(b.notes[0].text, b"nuts");
        assert_eq!(b.notes[0].part, NotePart::Auction);
        assert_eq!(b.texts[0].0, b"Ed quit!");
        assert_eq!(b.extraneous, [&b"% RBX"[..]]);
        assert!(rbx_to_rbn(b"D19991225").is_err());
        assert!(rbx_to_rbn(b"D{19991225").is_err());
        // A bare label, and free text before a label.
        let t = rbx_to_rbn(b"B}{a|b}}H{W:AK2}").unwrap();
        let l = parse(&t);
        assert_eq!(
            l.labels[0],
            Labelled {
                label: b'B',
                value: None,
                at: 1
            }
        );
        assert_eq!(l.texts[0].0, b"a|b");
        assert_eq!(l.get(b'H').unwrap().value, Some(&b"W:AK2"[..]));
    }

    #[test]
    fn notes_items_and_odd_lines() {
        let r = b"A 1SP\n1 forcing\nP SA234\n0 Lose 1 trump trick\nI 3N=10:4S=7\nP=4\n{x}\nQ what\nd 20010704\n";
        let l = parse(r);
        let notes: Vec<(u8, NotePart, &str)> = l
            .notes
            .iter()
            .map(|n| (n.number, n.part, s(n.text)))
            .collect();
        assert_eq!(
            notes,
            [
                (1, NotePart::Auction, "forcing"),
                (0, NotePart::Play, "Lose 1 trump trick")
            ]
        );
        let items: Vec<&str> = l.items.iter().map(|i| s(i.0)).collect();
        assert_eq!(items, ["3N=10", "4S=7", "P=4"]);
        assert_eq!(l.issues.len(), 1);
        assert!(l.issues[0].2.contains("'Q what'"));
        // Lower-case labels D H C R M are read (case immaterial).
        assert_eq!(l.get(b'D').unwrap().value, Some(&b"20010704"[..]));
        // Item lines without "I ".
        let l = parse(b"B 1\nDbl=0 or 3 key cards\nPass=1 or 4 key cards\n");
        assert_eq!(l.items.len(), 2);
        // CRLF, and a line too long.
        let long = format!("T {}\r\nB 2\r\n", "x".repeat(130));
        let l = parse(long.as_bytes());
        assert_eq!(l.get(b'B').unwrap().value, Some(&b"2"[..]));
        assert_eq!(l.issues.len(), 1);
    }

    #[test]
    fn repeating_labels_carry_and_names_alternate_under_teams() {
        let mut c = Carry::default();
        let v = |c: &mut Carry, r: &[u8]| {
            c.apply(&parse(r)).map(|x| {
                x.map(|v| String::from_utf8(v.to_vec()).unwrap())
                    .unwrap_or_default()
            })
        };
        let a = v(&mut c, b"E Teams\nK Duck:Fox\nN A+B:C+D\nB 1\nA 1SA");
        assert_eq!(
            (a[3].as_str(), a[7].as_str(), a[8].as_str()),
            ("Teams", "A+B:C+D", "1")
        );
        let b = v(&mut c, b"N E+F:G+H\nB 1");
        assert_eq!(b[7], "E+F:G+H");
        // K set: N alternates as its last two occurrences did.
        let x = v(&mut c, b"B 2");
        assert_eq!(
            (x[3].as_str(), x[7].as_str(), x[8].as_str()),
            ("Teams", "A+B:C+D", "2")
        );
        let y = v(&mut c, b"B 2");
        assert_eq!(y[7], "E+F:G+H");
        let z = v(&mut c, b"B 3");
        assert_eq!(z[7], "A+B:C+D");
        // A bare label nulls; without K, N repeats as it is.
        let n = v(&mut c, b"K\nE\nN P+Q:R+S\nB 4");
        assert_eq!(
            (n[3].as_str(), n[6].as_str(), n[7].as_str()),
            ("", "", "P+Q:R+S")
        );
        let m = v(&mut c, b"B 5");
        assert_eq!(m[7], "P+Q:R+S");
    }

    proptest::proptest! {
        /// No input makes the record reader, the RBX reader or any label's
        /// reader panic; an RBX line turned into RBN keeps its length.
        #[test]
        fn no_input_panics(
            r in proptest::collection::vec(
                proptest::sample::select(b"DTLEFSKNBHACPRMI0123456789 :;.{}|%\n\r!?*^+-=~xXYAKQJT?PZWG".to_vec()),
                0..200,
            ),
        ) {
            let l = parse(&r);
            for x in &l.labels {
                let v = x.value.unwrap_or_default();
                let _ = super::super::values::parse_date(v);
                let _ = super::super::values::parse_hands(v);
                let _ = super::super::values::parse_auction(v);
                let _ = super::super::values::parse_contract(v);
                let _ = super::super::values::parse_play(v);
                let _ = super::super::values::parse_result(v);
                let _ = super::super::values::parse_makes(v);
            }
            if let Ok(t) = rbx_to_rbn(&r) {
                proptest::prop_assert_eq!(t.len(), r.len());
                let _ = parse(&t);
            }
            let mut c = Carry::default();
            c.apply(&l);
        }

        #[test]
        fn no_bytes_panic(r in proptest::collection::vec(proptest::num::u8::ANY, 0..300)) {
            let l = parse(&r);
            for x in &l.labels {
                let v = x.value.unwrap_or_default();
                let _ = super::super::values::parse_hands(v);
                let _ = super::super::values::parse_auction(v);
                let _ = super::super::values::parse_play(v);
                let _ = super::super::values::parse_makes(v);
                let _ = super::super::values::parse_date(v);
                let _ = super::super::values::parse_result(v);
                let _ = super::super::values::parse_contract(v);
            }
            let _ = rbx_to_rbn(&r);
        }
    }
}
