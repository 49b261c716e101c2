//! One tag pair: its segmental prefix, name, value and closing bracket,
//! each with its error (or, in a recovering dialect, its warning).

use super::*;

pub(super) fn parse_point(d: &Dialect, s: &[u8]) -> Option<SegPoint> {
    let (&letter, rest) = s.split_first()?;
    let segment = letter.to_ascii_uppercase();
    if !d.segments.contains(&segment) {
        return None;
    }
    let mut nums = [None, None];
    if !rest.is_empty() {
        if rest[0] != b'.' {
            return None;
        }
        let parts: Vec<&[u8]> = rest[1..].split(|&b| b == b'.').collect();
        if parts.len() > 2 {
            return None;
        }
        for (slot, part) in nums.iter_mut().zip(parts) {
            *slot = Some(parse_u32(part)?);
        }
    }
    Some(SegPoint {
        segment,
        number: nums[0],
        sub: nums[1],
    })
}

/// Parses the text between `@` and `=`: `start`, `start-` or `start-end`.
pub fn parse_segment<'t>(d: &Dialect, text: &'t [u8]) -> Option<Segment<'t>> {
    let (start, end) = match memchr(b'-', text) {
        Some(d) => (&text[..d], Some(&text[d + 1..])),
        None => (text, None),
    };
    let start = parse_point(d, start)?;
    let end = match end {
        Some(e) if !e.is_empty() => Some(parse_point(d, e)?),
        _ => None,
    };
    Some(Segment { text, start, end })
}

impl<'a> Lexer<'a, '_> {
    /// A tag pair from `self.i`; false when a recovering dialect skipped a
    /// broken one (no tag name).
    pub(super) fn tag(&mut self) -> Result<bool, Diag> {
        let start = self.i;
        let segment = self.segment_prefix(start)?;
        self.i += 1;
        self.skip_ws();
        let Some(name) = self.tag_name()? else {
            return Ok(false);
        };
        if segment.is_none() && self.first.is_none() {
            self.note_first_tag(name);
        }
        self.skip_ws();
        let (value_start, value_end, escaped) = self.tag_value(name)?;
        self.skip_ws();
        self.close_tag(name)?;
        self.i += 1;
        let len = self.i - start;
        if len > MAX_TAG_LEN {
            self.warnings.push(Diag::warning(
                start,
                self.d.codes.long_tag,
                format!(
                    "tag {} is {len} bytes long; the spec allows {MAX_TAG_LEN}",
                    String::from_utf8_lossy(name)
                ),
            ));
        }
        let value = &self.r[value_start..value_end];
        if value.first() == Some(&b'#') {
            self.has_hash = true;
        }
        let ntok = self.lists.tokens.len() as u32;
        self.lists.tags.push(Tag {
            name,
            value,
            at: start as u32,
            value_at: value_start as u32,
            escaped,
            // Set at the end, for the bytes of the hand alone.
            latin1: false,
            segment,
            tokens: Span {
                start: ntok,
                end: ntok,
            },
            state: TagState::Written,
        });
        Ok(true)
    }

    /// A segmental prefix `@...=` before the `[` at `start`, if any; the
    /// position is left on the `[`.
    pub(super) fn segment_prefix(&mut self, start: usize) -> Result<Option<Segment<'a>>, Diag> {
        let r = self.r;
        if r[start] != b'@' {
            return Ok(None);
        }
        let Some(eq) = r[start..]
            .iter()
            .position(|&b| b == b'=' || is_ws(b) || b == b'[')
        else {
            return Err(self.bad_prefix(start, r.len()));
        };
        let eq = start + eq;
        if r[eq] != b'=' {
            return Err(self.bad_prefix(start, eq));
        }
        let seg =
            parse_segment(self.d, &r[start + 1..eq]).ok_or_else(|| self.bad_prefix(start, eq))?;
        self.i = eq + 1;
        self.skip_ws();
        if r.get(self.i) != Some(&b'[') {
            return Err(Diag::error(
                self.i,
                self.d.codes.prefix_without_tag,
                format!(
                    "expected '[' after the segmental prefix '@{}=', found {}",
                    String::from_utf8_lossy(seg.text),
                    found(r, self.i)
                ),
            ));
        }
        Ok(Some(seg))
    }

    /// The tag name after the `[`; None when a recovering dialect skips a
    /// tag pair without one.
    pub(super) fn tag_name(&mut self) -> Result<Option<&'a [u8]>, Diag> {
        let r = self.r;
        let name_start = self.i;
        self.i = skip_class(r, name_start, NAME);
        let name = &r[name_start..self.i];
        if name.is_empty() && self.d.recover {
            let end = self.line_end(self.i);
            let close = memchr(b']', &r[self.i..end]).map_or(end, |j| self.i + j + 1);
            self.warnings.push(Diag::warning(
                self.i,
                self.d.codes.missing_name,
                format!(
                    "expected a tag name after '[', found {}: the tag pair is skipped",
                    found(r, self.i)
                ),
            ));
            self.i = close;
            return Ok(None);
        }
        if name.is_empty() {
            return Err(Diag::error(
                self.i,
                self.d.codes.missing_name,
                format!("expected a tag name after '[', found {}", found(r, self.i)),
            ));
        }
        Ok(Some(name))
    }

    /// The record's first tag name, the key its hands start with. Set
    /// before the value is read: after a syntax error in the first tag,
    /// the hands after it are still found.
    pub(super) fn note_first_tag(&mut self, name: &'a [u8]) {
        self.first = Some(name);
        let n = (1 + name.len()).min(4);
        let mut key = [0u8; 4];
        key[0] = b'[';
        key[1..n].copy_from_slice(&name[..n - 1]);
        self.first_key = u32::from_le_bytes(key);
        self.first_mask = u32::MAX >> (8 * (4 - n));
    }

    /// The tag's value: where it starts and ends, and whether it holds
    /// escapes; the position is left after it.
    pub(super) fn tag_value(&mut self, name: &[u8]) -> Result<(usize, usize, bool), Diag> {
        let r = self.r;
        // Only for messages: decoding it for every tag cost 2,000
        // instructions a hand.
        let name_str = || String::from_utf8_lossy(name);
        if r.get(self.i) != Some(&b'"') && self.d.recover {
            // The value runs to the `]` on the line.
            let end = self.line_end(self.i);
            let close = memchr(b']', &r[self.i..end]).map_or(end, |j| self.i + j);
            let v = r[self.i..close].trim_ascii_end();
            self.warnings.push(Diag::warning(
                self.i,
                self.d.codes.unquoted_value,
                format!(
                    "expected '\"' to open the value of tag {}, found {}: the value is read to the ']'{}",
                    name_str(),
                    found(r, self.i),
                    (self.d.unquoted_hint)(name)
                ),
            ));
            let (from, to) = (self.i, self.i + v.len());
            self.i = close;
            return Ok((from, to, memchr(b'\\', &r[from..to]).is_some()));
        } else if r.get(self.i) != Some(&b'"') {
            return Err(Diag::error(
                self.i,
                self.d.codes.unquoted_value,
                format!(
                    "expected '\"' to open the value of tag {}, found {}{}",
                    name_str(),
                    found(r, self.i),
                    (self.d.unquoted_hint)(name)
                ),
            ));
        }
        let value_start = self.i + 1;
        let mut p = value_start;
        let mut escaped = false;
        loop {
            let unterminated = || {
                Diag::error(
                    value_start - 1,
                    self.d.codes.unterminated_string,
                    format!(
                        "unterminated string in tag {}: expected '\"' before the end of the line",
                        name_str()
                    ),
                )
            };
            let q = value_stop(r, p);
            match q.map(|q| r[q]) {
                Some(b'"') => {
                    let q = q.unwrap();
                    self.i = q + 1;
                    return Ok((value_start, q, escaped));
                }
                Some(b'\\') if r.get(q.unwrap() + 1).is_some_and(|&b| b != b'\n') => {
                    escaped = true;
                    p = q.unwrap() + 2;
                }
                _ if self.d.recover => {
                    // The value runs to the last `]` on its line.
                    let end = self.line_end(value_start);
                    let close = memchr::memrchr(b']', &r[value_start..end])
                        .map_or(end, |j| value_start + j);
                    let mut w = unterminated();
                    w.severity = crate::error::Severity::Warning;
                    w.message
                        .push_str(": the value is read to the ']' at the end of the line");
                    self.warnings.push(w);
                    let v = r[value_start..close].trim_ascii_end();
                    self.i = close;
                    return Ok((
                        value_start,
                        value_start + v.len(),
                        memchr(b'\\', v).is_some(),
                    ));
                }
                _ => return Err(unterminated()),
            }
        }
    }

    /// The `]` that closes the tag (a recovering dialect reads a tag
    /// without one as closed); the position is left on it.
    pub(super) fn close_tag(&mut self, name: &[u8]) -> Result<(), Diag> {
        let r = self.r;
        if r.get(self.i) == Some(&b']') {
            return Ok(());
        }
        if self.d.recover {
            self.warnings.push(Diag::warning(
                self.i,
                self.d.codes.missing_bracket,
                format!(
                    "expected ']' to close tag {}, found {}: read as closed",
                    String::from_utf8_lossy(name),
                    found(r, self.i)
                ),
            ));
            self.i -= 1;
            return Ok(());
        }
        Err(Diag::error(
            self.i,
            self.d.codes.missing_bracket,
            format!(
                "expected ']' to close tag {}, found {}",
                String::from_utf8_lossy(name),
                found(r, self.i)
            ),
        ))
    }

    pub(super) fn bad_prefix(&self, start: usize, end: usize) -> Diag {
        Diag::error(
            start,
            self.d.codes.bad_prefix,
            format!(
                "invalid segmental prefix '{}': expected '@' segment[.number[.number]]-[segment[.number[.number]]]= followed by a tag",
                String::from_utf8_lossy(&self.r[start..end.min(start + 40)])
            ),
        )
    }
}
