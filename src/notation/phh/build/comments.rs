//! A hand's TOML comments, found in its text when the crate read it.

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
pub(super) fn escaped(b: &[u8], at: usize, from: usize) -> bool {
    let n = b[from..at]
        .iter()
        .rev()
        .take_while(|&&c| c == b'\\')
        .count();
    n % 2 == 1
}
