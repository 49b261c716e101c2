//! A hand's TOML as build reads it: keys and values with their spans.
//!
//! [`read`] reads the shapes PHH files are written in (one optional table
//! header, `key = value` lines, strings, numbers, booleans and arrays, with
//! comments, over as many lines as arrays need) by hand, in one pass over
//! borrowed bytes, collecting the comments as it goes. Anything else (a
//! multi-line string, a date or time, an inline table, a dotted key, a
//! second header, a duplicate key, anything TOML forbids) gives up, and the
//! `toml` crate reads the hand instead ([`from_crate`]); the two give the
//! same document wherever the fast reader reads one (the property test
//! below and `tests/poker/golden.rs`).

use std::borrow::Cow;
use std::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// A value and where it is (its bytes in the hand's text).
#[derive(Clone, Debug, PartialEq)]
pub struct Node<'a> {
    pub span: Range<usize>,
    pub val: Val<'a>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Val<'a> {
    Str(Cow<'a, str>),
    /// An integer (decimal, hexadecimal, octal or binary).
    Int(i64),
    /// An integer TOML allows that 64 bits cannot hold, as written.
    BigInt(Cow<'a, str>),
    /// A float as written, without underscores (`1.5`, `-inf`, `2e3`).
    Float(Cow<'a, str>),
    Bool(bool),
    /// A date, time or both, as written; `local_time` when it is a time of
    /// day alone.
    Datetime {
        text: String,
        local_time: bool,
    },
    Array(Vec<Node<'a>>),
    Table(Vec<Entry<'a>>),
}

/// A key, its offset, and its value.
pub type Entry<'a> = (Cow<'a, str>, usize, Node<'a>);

impl Val<'_> {
    /// TOML's name of the value's type.
    pub fn type_str(&self) -> &'static str {
        match self {
            Val::Str(_) => "string",
            Val::Int(_) | Val::BigInt(_) => "integer",
            Val::Float(_) => "float",
            Val::Bool(_) => "boolean",
            Val::Datetime { .. } => "datetime",
            Val::Array(_) => "array",
            Val::Table(_) => "table",
        }
    }
}

/// A hand's document: its keys in order (the one table of a `.phhs` hand
/// included), each with its key's offset.
#[derive(Debug, Default, PartialEq)]
pub struct Doc<'a> {
    pub fields: Vec<Entry<'a>>,
    /// The comments (text after `#`, trimmed), in order, when the fast
    /// reader read the document (None when the crate did).
    pub comments: Option<Vec<&'a str>>,
}

/// The crate's document in [`Doc`] form.
pub fn from_crate<'a>(doc: &Spanned<DeTable<'a>>) -> Doc<'a> {
    Doc {
        fields: doc
            .get_ref()
            .iter()
            .map(|(k, v)| (k.get_ref().clone(), k.span().start, node(v)))
            .collect(),
        comments: None,
    }
}

fn node<'a>(v: &Spanned<DeValue<'a>>) -> Node<'a> {
    let val = match v.get_ref() {
        DeValue::String(s) => Val::Str(s.clone()),
        DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
            Ok(n) => Val::Int(n),
            Err(_) => Val::BigInt(Cow::Owned(i.as_str().to_string())),
        },
        DeValue::Float(f) => Val::Float(Cow::Owned(f.as_str().to_string())),
        DeValue::Boolean(b) => Val::Bool(*b),
        DeValue::Datetime(d) => Val::Datetime {
            text: d.to_string(),
            local_time: d.date.is_none() && d.offset.is_none() && d.time.is_some(),
        },
        DeValue::Array(a) => Val::Array(a.iter().map(node).collect()),
        DeValue::Table(t) => Val::Table(
            t.iter()
                .map(|(k, v)| (k.get_ref().clone(), k.span().start, node(v)))
                .collect(),
        ),
    };
    Node {
        span: v.span(),
        val,
    }
}

/// Gave up: the crate reads the hand.
struct GiveUp;

type R<T> = Result<T, GiveUp>;

struct Reader<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    comments: Vec<&'a str>,
}

/// Arrays nested deeper than this are left to the crate.
const MAX_DEPTH: u32 = 16;

/// Reads a hand's text by hand; None where the crate must.
pub fn read(s: &str) -> Option<Doc<'_>> {
    let mut r = Reader {
        s,
        b: s.as_bytes(),
        i: 0,
        comments: Vec::new(),
    };
    r.document().ok()
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// Spaces and tabs.
    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }

    /// A comment from `#` to the line's end (not included).
    fn comment(&mut self) -> R<()> {
        let start = self.i + 1;
        let end = memchr::memchr(b'\n', &self.b[start..]).map_or(self.b.len(), |p| start + p);
        let end = if end > start && self.b[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        if self.b[start..end]
            .iter()
            .any(|&c| (c < 0x20 && c != b'\t') || c == 0x7f)
        {
            return Err(GiveUp);
        }
        self.comments.push(self.s[start..end].trim());
        self.i = end;
        Ok(())
    }

    /// A line's end: `\n`, `\r\n` or the end of the text.
    fn newline(&mut self) -> R<bool> {
        match self.peek() {
            None => Ok(true),
            Some(b'\n') => {
                self.i += 1;
                Ok(true)
            }
            Some(b'\r') if self.b.get(self.i + 1) == Some(&b'\n') => {
                self.i += 2;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// White space, comments and newlines (inside an array).
    fn ws_comments_newlines(&mut self) -> R<()> {
        loop {
            self.ws();
            match self.peek() {
                Some(b'#') => self.comment()?,
                Some(b'\n') => self.i += 1,
                Some(b'\r') if self.b.get(self.i + 1) == Some(&b'\n') => self.i += 2,
                _ => return Ok(()),
            }
        }
    }

    /// After a key-value pair or header: white space, a comment, a newline.
    fn end_of_line(&mut self) -> R<()> {
        self.ws();
        if self.peek() == Some(b'#') {
            self.comment()?;
        }
        if self.newline()? { Ok(()) } else { Err(GiveUp) }
    }

    fn document(&mut self) -> R<Doc<'a>> {
        let mut root: Vec<Entry<'a>> = Vec::new();
        let mut table: Option<(Cow<'a, str>, usize, usize, Vec<Entry<'a>>)> = None;
        loop {
            self.ws();
            match self.peek() {
                None => break,
                Some(b'#') => {
                    self.comment()?;
                    if !self.newline()? {
                        return Err(GiveUp);
                    }
                }
                Some(b'\n' | b'\r') => {
                    if !self.newline()? {
                        return Err(GiveUp);
                    }
                }
                Some(b'[') => {
                    if table.is_some() || self.b.get(self.i + 1) == Some(&b'[') {
                        return Err(GiveUp);
                    }
                    let start = self.i;
                    self.i += 1;
                    self.ws();
                    let key = self.key()?;
                    self.ws();
                    if self.peek() != Some(b']') {
                        return Err(GiveUp);
                    }
                    self.i += 1;
                    let header_end = self.i;
                    self.end_of_line()?;
                    if root.iter().any(|(k, _, _)| *k == key) {
                        return Err(GiveUp);
                    }
                    table = Some((key, start, header_end, Vec::new()));
                }
                Some(_) => {
                    let at = self.i;
                    let key = self.key()?;
                    self.ws();
                    if self.peek() != Some(b'=') {
                        return Err(GiveUp);
                    }
                    self.i += 1;
                    self.ws();
                    let v = self.value(0)?;
                    self.end_of_line()?;
                    match &mut table {
                        Some((_, _, _, fields)) => {
                            if fields.iter().any(|(k, _, _)| *k == key) {
                                return Err(GiveUp);
                            }
                            fields.push((key, at, v));
                        }
                        None => {
                            if root.iter().any(|(k, _, _)| *k == key) {
                                return Err(GiveUp);
                            }
                            root.push((key, at, v));
                        }
                    }
                }
            }
        }
        let comments = std::mem::take(&mut self.comments);
        if let Some((key, start, header_end, fields)) = table {
            // The crate's span of a table is its header.
            let end = header_end;
            let key_at = start
                + 1
                + (self.b[start + 1..]
                    .iter()
                    .take_while(|&&c| c == b' ' || c == b'\t')
                    .count());
            let val = Val::Table(fields);
            root.push((
                key,
                key_at,
                Node {
                    span: start..end,
                    val,
                },
            ));
        }
        Ok(Doc {
            fields: root,
            comments: Some(comments),
        })
    }

    /// A bare or quoted key (not dotted).
    fn key(&mut self) -> R<Cow<'a, str>> {
        let start = self.i;
        match self.peek() {
            Some(b'"') => {
                let k = self.basic_string()?;
                self.not_dotted()?;
                Ok(k)
            }
            Some(b'\'') => {
                let k = self.literal_string()?;
                self.not_dotted()?;
                Ok(k)
            }
            _ => {
                while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
                {
                    self.i += 1;
                }
                if self.i == start {
                    return Err(GiveUp);
                }
                self.not_dotted()?;
                Ok(Cow::Borrowed(&self.s[start..self.i]))
            }
        }
    }

    fn not_dotted(&mut self) -> R<()> {
        let save = self.i;
        self.ws();
        let dot = self.peek() == Some(b'.');
        self.i = save;
        if dot { Err(GiveUp) } else { Ok(()) }
    }

    fn value(&mut self, depth: u32) -> R<Node<'a>> {
        let start = self.i;
        let val = match self.peek().ok_or(GiveUp)? {
            b'"' => Val::Str(self.basic_string()?),
            b'\'' => Val::Str(self.literal_string()?),
            b'[' => {
                if depth >= MAX_DEPTH {
                    return Err(GiveUp);
                }
                self.i += 1;
                let mut items = Vec::new();
                loop {
                    self.ws_comments_newlines()?;
                    if self.peek() == Some(b']') {
                        self.i += 1;
                        break;
                    }
                    items.push(self.value(depth + 1)?);
                    self.ws_comments_newlines()?;
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            break;
                        }
                        _ => return Err(GiveUp),
                    }
                }
                Val::Array(items)
            }
            b't' if self.b[self.i..].starts_with(b"true") => {
                self.i += 4;
                Val::Bool(true)
            }
            b'f' if self.b[self.i..].starts_with(b"false") => {
                self.i += 5;
                Val::Bool(false)
            }
            _ => match self.local_time() {
                Some(t) => t,
                None => self.number()?,
            },
        };
        // A value ends at white space, a comma, a bracket, a comment or a newline.
        if !matches!(
            self.peek(),
            None | Some(b' ' | b'\t' | b',' | b']' | b'#' | b'\n' | b'\r')
        ) {
            return Err(GiveUp);
        }
        Ok(Node {
            span: start..self.i,
            val,
        })
    }

    /// A local time `HH:MM:SS` (HandHQ's hands have one each); other
    /// times and dates are left to the crate.
    fn local_time(&mut self) -> Option<Val<'a>> {
        let t = self.b.get(self.i..self.i + 8)?;
        let two = |k: usize| -> Option<u8> {
            let (a, b) = (t[k], t[k + 1]);
            (a.is_ascii_digit() && b.is_ascii_digit()).then(|| (a - b'0') * 10 + (b - b'0'))
        };
        if t[2] != b':' || t[5] != b':' || two(0)? > 23 || two(3)? > 59 || two(6)? > 59 {
            return None;
        }
        if matches!(
            self.b.get(self.i + 8),
            Some(b'.' | b'0'..=b'9' | b'Z' | b'z' | b'+' | b'-')
        ) {
            return None;
        }
        let text = self.s[self.i..self.i + 8].to_string();
        self.i += 8;
        Some(Val::Datetime {
            text,
            local_time: true,
        })
    }

    /// A decimal integer or float, `inf` or `nan` (others: the crate).
    fn number(&mut self) -> R<Val<'a>> {
        let start = self.i;
        let b = self.b;
        let mut i = self.i;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        for special in [&b"inf"[..], b"nan"] {
            if b[i..].starts_with(special) {
                self.i = i + 3;
                return Ok(Val::Float(Cow::Borrowed(&self.s[start..self.i])));
            }
        }
        // Digits with single underscores between them; no leading zero.
        let digits = |i: &mut usize| -> R<usize> {
            let from = *i;
            while let Some(&c) = b.get(*i) {
                let underscore = c == b'_'
                    && *i > from
                    && b[*i - 1].is_ascii_digit()
                    && b.get(*i + 1).is_some_and(u8::is_ascii_digit);
                if !(c.is_ascii_digit() || underscore) {
                    break;
                }
                *i += 1;
            }
            if *i == from {
                Err(GiveUp)
            } else {
                Ok(*i - from)
            }
        };
        let int_start = i;
        let n = digits(&mut i)?;
        if n > 1 && b[int_start] == b'0' {
            return Err(GiveUp);
        }
        let mut float = false;
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i)?;
            float = true;
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            digits(&mut i)?;
            float = true;
        }
        self.i = i;
        let text = &self.s[start..i];
        let clean = if text.contains('_') {
            Cow::Owned(text.replace('_', ""))
        } else {
            Cow::Borrowed(text)
        };
        if float {
            return Ok(Val::Float(clean));
        }
        match clean.parse::<i64>() {
            Ok(v) => Ok(Val::Int(v)),
            Err(_) => Err(GiveUp),
        }
    }

    /// A one-line basic string, escapes decoded.
    fn basic_string(&mut self) -> R<Cow<'a, str>> {
        if self.b[self.i..].starts_with(b"\"\"\"") {
            return Err(GiveUp);
        }
        self.i += 1;
        let start = self.i;
        let mut owned: Option<String> = None;
        let mut run = start;
        loop {
            let c = *self.b.get(self.i).ok_or(GiveUp)?;
            match c {
                b'"' => {
                    let s = &self.s[run..self.i];
                    self.i += 1;
                    return Ok(match owned {
                        Some(mut o) => {
                            o.push_str(s);
                            Cow::Owned(o)
                        }
                        None => Cow::Borrowed(s),
                    });
                }
                b'\\' => {
                    let o = owned.get_or_insert_with(String::new);
                    o.push_str(&self.s[run..self.i]);
                    let e = *self.b.get(self.i + 1).ok_or(GiveUp)?;
                    self.i += 2;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'n' => '\n',
                        b't' => '\t',
                        b'r' => '\r',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'e' => '\u{1b}',
                        b'u' | b'U' => {
                            let n = if e == b'u' { 4 } else { 8 };
                            let hex = self.s.get(self.i..self.i + n).ok_or(GiveUp)?;
                            if !hex.bytes().all(|h| h.is_ascii_hexdigit()) {
                                return Err(GiveUp);
                            }
                            let v = u32::from_str_radix(hex, 16).map_err(|_| GiveUp)?;
                            self.i += n;
                            char::from_u32(v).ok_or(GiveUp)?
                        }
                        _ => return Err(GiveUp),
                    };
                    o.push(ch);
                    run = self.i;
                }
                _ if (c < 0x20 && c != b'\t') || c == 0x7f => return Err(GiveUp),
                _ => self.i += 1,
            }
        }
    }

    /// A one-line literal string.
    fn literal_string(&mut self) -> R<Cow<'a, str>> {
        if self.b[self.i..].starts_with(b"'''") {
            return Err(GiveUp);
        }
        self.i += 1;
        let start = self.i;
        loop {
            let c = *self.b.get(self.i).ok_or(GiveUp)?;
            match c {
                b'\'' => {
                    self.i += 1;
                    return Ok(Cow::Borrowed(&self.s[start..self.i - 1]));
                }
                _ if (c < 0x20 && c != b'\t') || c == 0x7f => return Err(GiveUp),
                _ => self.i += 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast reader's document, when it reads one, is the crate's.
    fn same(s: &str) -> Option<Doc<'_>> {
        let fast = read(s)?;
        let krate = toml::de::DeTable::parse(s)
            .unwrap_or_else(|e| panic!("the fast reader read {s:?}, the crate: {e}"));
        let want = from_crate(&krate);
        assert_eq!(fast.fields, want.fields, "{s:?}");
        Some(fast)
    }

    #[test]
    fn phh_shapes_are_read_fast_and_as_the_crate_reads_them() {
        let s = "# c1\n[\"hand 1\"]  # c2\nvariant = 'NT'\nantes = [0, 0.5, 1_000, -2e3, +inf]\n\
                 actions = [\n  \"d dh p1 ????\",  # Ivey\n  'p1 f',\n]\nname = \"a\\\"b\\u00e9\\n\"\n\
                 ok = true\r\nx-y = false\n";
        let d = same(s).expect("read fast");
        assert_eq!(d.comments.unwrap(), ["c1", "c2", "Ivey"]);
        assert_eq!(d.fields.len(), 1);
        assert!(same("variant = \"NT\"\nempty = []\nnested = [[1, 2], [3]]\n").is_some());
        assert!(same("").is_some());
        assert!(same("a = 0\nb = -0\nc = 0.0\nd = 1e-3\ne = 12_345").is_some());
        let d = same("time = 20:15:00 # start\nt = [00:00:00, 23:59:59]\n").expect("times");
        assert_eq!(
            d.fields[0].2.val,
            Val::Datetime {
                text: "20:15:00".into(),
                local_time: true
            }
        );
    }

    #[test]
    fn other_shapes_are_left_to_the_crate() {
        for s in [
            "a = '''x'''\n",
            "a = \"\"\"x\"\"\"\n",
            "a = 20:15:00.5\n",
            "a = 20:15\n",
            "a = 24:00:00\n",
            "a = 2023-06-22\n",
            "a = { b = 1 }\n",
            "a.b = 1\n",
            "[a]\n[b]\n",
            "a = 1\na = 2\n",
            "a = 0x1f\n",
            "a = 012\n",
            "a = 1__0\n",
            "a = 1_\n",
            "a = \"x\\q\"\n",
            "a = \"tab\there\" junk\n",
            "a = 1 b = 2\n",
            "a = \"unterminated\n",
            "a = [1, 2\n",
            "[[a]]\n",
            "a = 9223372036854775808\n",
            "a = 1.\n",
            "a = .5\n",
            "a = truex\n",
            "a = 1\rb = 2\n",
        ] {
            assert!(read(s).is_none(), "{s:?}");
        }
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    /// PHH-like documents from pieces: keys, values of every kind the fast
    /// reader reads and some it does not, comments, white space.
    fn doc() -> impl Strategy<Value = String> {
        let key = prop_oneof![
            Just("variant"),
            Just("antes"),
            Just("actions"),
            Just("\"q k\""),
            Just("'lit'"),
            Just("a"),
            Just("a"),
            Just("_u"),
            Just("x.y"),
            Just("b-c"),
        ];
        let scalar = prop_oneof![
            Just("0"),
            Just("12"),
            Just("-3"),
            Just("+4"),
            Just("1_000"),
            Just("0.5"),
            Just("1e3"),
            Just("-2.5E-2"),
            Just("inf"),
            Just("-inf"),
            Just("nan"),
            Just("007"),
            Just("1__2"),
            Just("0x1F"),
            Just("true"),
            Just("false"),
            Just("\"s\""),
            Just("'l'"),
            Just("\"a\\\"b\""),
            Just("\"\\u00e9\""),
            Just("\"\\x\""),
            Just("'''m'''"),
            Just("20:15:00"),
            Just("23:59:59"),
            Just("24:00:00"),
            Just("20:15"),
            Just("07:05:09.25"),
            Just("1979-05-27"),
            Just("{ a = 1 }"),
            Just("\"\""),
            Just("9999999999999999999"),
            Just("1."),
            Just("\"#\""),
        ];
        let value = prop_oneof![
            scalar.clone().prop_map(String::from),
            proptest::collection::vec(
                (
                    scalar,
                    prop_oneof![
                        Just(","),
                        Just(", "),
                        Just(",\n  "),
                        Just(" # c\n,"),
                        Just("")
                    ]
                ),
                0..4
            )
            .prop_map(|items| {
                let mut s = String::from("[");
                for (v, sep) in items {
                    s.push_str(v);
                    s.push_str(sep);
                }
                s.push(']');
                s
            }),
        ];
        let line = prop_oneof![
            (
                key.clone(),
                prop_oneof![Just(" = "), Just("="), Just(" =\t")],
                value,
                prop_oneof![Just(""), Just(" # note"), Just("\t")]
            )
                .prop_map(|(k, e, v, c)| format!("{k}{e}{v}{c}")),
            Just("# comment".to_string()),
            Just(String::new()),
            key.prop_map(|k| format!("[{k}]")),
            Just("  [ 'h' ]  # h".to_string()),
        ];
        proptest::collection::vec(
            (line, prop_oneof![Just("\n"), Just("\r\n"), Just("\r")]),
            0..8,
        )
        .prop_map(|lines| lines.into_iter().map(|(l, nl)| l + nl).collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn the_fast_reader_reads_as_the_crate(s in doc()) {
            if let Some(fast) = read(&s) {
                let krate = toml::de::DeTable::parse(&s);
                prop_assert!(krate.is_ok(), "fast read {:?}, the crate did not: {:?}", s, krate.err());
                prop_assert_eq!(fast.fields, from_crate(&krate.unwrap()).fields, "{:?}", s);
            }
        }
    }
}
