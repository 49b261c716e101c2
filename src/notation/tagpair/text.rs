//! The text of a lexed record's bytes: tag values with their escapes
//! undone, comments, header lines; UTF-8 where the record is, else Latin-1
//! (PBN 2.2's character set).

use std::borrow::Cow;

use super::lex::Tag;

/// Text of a tag value: escapes undone, Latin-1 decoded where the record is not UTF-8.
pub fn text<'a>(t: &Tag<'a>) -> Cow<'a, str> {
    let s = bytes_text(t.value, t.latin1);
    if t.escaped {
        Cow::Owned(unescape(&s))
    } else {
        s
    }
}

/// A comment's text, its line ends written as LF whatever the file used.
pub fn comment_text(b: &[u8], latin1: bool) -> Cow<'_, str> {
    let s = bytes_text(b, latin1);
    if s.contains('\r') {
        Cow::Owned(s.replace("\r\n", "\n"))
    } else {
        s
    }
}

/// Text of bytes that were not lexed (header lines): UTF-8 if valid, else Latin-1.
pub fn utf8_or_latin1(b: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(b) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(b.iter().map(|&c| c as char).collect()),
    }
}

/// Text of a slice of a lexed record; `latin1` is the record's flag from the lexer.
pub fn bytes_text(b: &[u8], latin1: bool) -> Cow<'_, str> {
    if latin1 {
        return Cow::Owned(b.iter().map(|&c| c as char).collect());
    }
    debug_assert!(std::str::from_utf8(b).is_ok());
    // SAFETY: the lexer validated the whole record as UTF-8 (else `latin1` is
    // set), and every slice taken from it starts and ends next to an ASCII
    // delimiter (quote, bracket, brace, white space, ';', ':', '(' or a record
    // boundary), which is always a character boundary in valid UTF-8.
    Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(b) })
}

/// Undoes `\"` and `\\` escapes; any other backslash is kept as written.
pub fn unescape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    let mut it = v.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.next() {
                Some(n @ ('"' | '\\')) => out.push(n),
                Some(n) => {
                    out.push('\\');
                    out.push(n);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Appends `v` with its backslashes and quotes escaped.
pub fn escape_into(out: &mut String, v: &str) {
    let mut from = 0;
    for (i, b) in v.bytes().enumerate() {
        if b == b'\\' || b == b'"' {
            out.push_str(&v[from..i]);
            out.push('\\');
            from = i;
        }
    }
    out.push_str(&v[from..]);
}

/// A tag pair `[Name "value"]` and a line feed.
pub fn write_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    escape_into(out, value);
    out.push_str("\"]\n");
}
