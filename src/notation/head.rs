//! The start of a file, read once for every notation's sniffer: its lines,
//! the names of the tag pairs that start them, its `%` header lines.

/// Lines of a head looked at (a head is at most 4 KiB anyway).
const MAX_LINES: usize = 256;

/// What the first bytes of a file show.
#[derive(Debug, Default)]
pub struct Head<'a> {
    /// The first line that is not blank, trimmed.
    pub first_line: &'a [u8],
    /// The names of the tag pairs that start lines (`Event` of `[Event
    /// "x"]`, `1` of `[1 312 ...]`), white space or a `}` before them aside.
    tags: Vec<&'a [u8]>,
    /// Tag pairs whose value is not quoted (`[Bula 60]`: Portable
    /// Preferans Notation's way), and those whose value is.
    pub unquoted: usize,
    pub quoted: usize,
    /// The text after `%` of each `%` line, its start trimmed.
    headers: Vec<&'a [u8]>,
    /// The TOML keys that start lines (`variant` of `variant = 'NT'`).
    keys: Vec<&'a [u8]>,
    /// Lines among the first 40 that start with a letter and a space, then
    /// something else than white space (RBN's labels: `H W:AK2...`): their
    /// first bytes.
    pub label_lines: Vec<u8>,
    /// Lines among the first 8 that start with a letter or `%` and `{`
    /// (RBX's records: `D{19991225}L{...}`).
    pub brace_lines: Vec<&'a [u8]>,
}

impl<'a> Head<'a> {
    pub fn new(bytes: &'a [u8]) -> Head<'a> {
        let bytes = bytes.strip_prefix(crate::split::BOM).unwrap_or(bytes);
        let mut h = Head {
            tags: Vec::with_capacity(32),
            ..Head::default()
        };
        let mut start = 0;
        let ends = memchr::memchr_iter(b'\n', bytes).chain(std::iter::once(bytes.len()));
        for (n, end) in ends.enumerate().take(MAX_LINES) {
            if start > bytes.len() {
                break;
            }
            let line = &bytes[start..end];
            start = end + 1;
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            h.line(n, line);
        }
        h
    }

    /// Reads line `n` (0-based).
    fn line(&mut self, n: usize, line: &'a [u8]) {
        if let [a, b'{', ..] = line
            && n < 8
            && (a.is_ascii_alphabetic() || *a == b'%')
        {
            self.brace_lines.push(line);
        }
        if let [a, b' ', c, ..] = line
            && n < 40
            && a.is_ascii_alphabetic()
            && !c.is_ascii_whitespace()
        {
            self.label_lines.push(*a);
        }
        let t = line.trim_ascii_start();
        if self.first_line.is_empty() {
            self.first_line = t.trim_ascii_end();
        }
        match t.first() {
            Some(b'%') => self.headers.push(t[1..].trim_ascii_start()),
            Some(b'[') | Some(b'}') => {
                let t = t.strip_prefix(b"}").map_or(t, <[u8]>::trim_ascii_start);
                if let Some(name) = tag_name(t) {
                    self.tags.push(name);
                    let value = t[1 + name.len()..].trim_ascii_start();
                    if value.first() == Some(&b'"') {
                        self.quoted += 1;
                    } else if !name.iter().all(u8::is_ascii_digit) {
                        self.unquoted += 1;
                    }
                }
            }
            Some(c) if c.is_ascii_alphabetic() => {
                let k = t
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_' || **b == b'-')
                    .count();
                if t[k..].trim_ascii_start().starts_with(b"=") {
                    self.keys.push(&t[..k]);
                }
            }
            _ => {}
        }
    }

    /// Whether a line starts with the tag pair `[name ...`.
    pub fn has_tag(&self, name: &str) -> bool {
        self.tags.contains(&name.as_bytes())
    }

    /// Whether any line starts with a tag pair.
    pub fn has_any_tag(&self) -> bool {
        !self.tags.is_empty()
    }

    /// The tag names that start lines.
    pub fn tags(&self) -> &[&'a [u8]] {
        &self.tags
    }

    /// Whether a `%` line names `word` first (`% PPN 1.0`, `%RBN`), case
    /// aside.
    pub fn declares(&self, word: &str) -> bool {
        self.headers.iter().any(|rest| {
            rest.len() >= word.len()
                && rest[..word.len()].eq_ignore_ascii_case(word.as_bytes())
                && rest
                    .get(word.len())
                    .is_none_or(|b| !b.is_ascii_alphanumeric())
        })
    }

    /// Whether a line starts with the TOML key `key` and `=`.
    pub fn has_key(&self, key: &str) -> bool {
        self.keys.contains(&key.as_bytes())
    }
}

/// The name of the tag pair `line` starts with: `[`, a name of letters,
/// digits and `_`, then white space or `"`, and a `]` on the line (not a
/// TOML table `[1]`).
fn tag_name(line: &[u8]) -> Option<&[u8]> {
    let rest = line.strip_prefix(b"[")?;
    let n = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let after = rest.get(n)?;
    let ok =
        n > 0 && matches!(after, b' ' | b'\t' | b'"') && memchr::memchr(b']', &rest[n..]).is_some();
    ok.then(|| &rest[..n])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_headers_and_keys_are_found_at_line_starts() {
        let h = Head::new(b"\xEF\xBB\xBF% PPN 1.0\r\n  [Board \"1\"]\n{c}[Deal\"x\"]\n} [Bula 60]\n{ see [Event \"1\"] }\n[Boards]x\n[1 312 a]\nvariant = 'NT'\n");
        assert_eq!(h.tags(), [&b"Board"[..], b"Bula", b"1"]);
        assert!(h.has_any_tag());
        assert!(h.has_tag("Board") && !h.has_tag("Boards") && !h.has_tag("Event"));
        assert!(h.declares("PPN") && h.declares("ppn") && !h.declares("PP"));
        assert!(h.has_key("variant") && !h.has_key("var"));
        let h = Head::new(b"%RBN\n% rbn 3.2\n%PPNX\ntext [x] y\n[1]\n");
        assert!(h.declares("RBN") && !h.declares("PPN") && !h.has_any_tag());
        // `[1]` is a TOML table, not a tag pair.
        assert!(!Head::new(b"[1]\n[x.y]\n").has_any_tag());
    }
}
