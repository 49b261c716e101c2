//! Decimal numbers as the notations write them, overflow-checked.

/// One to ten decimal digits, nothing else.
fn digits(s: &[u8]) -> Option<i64> {
    if s.is_empty() || s.len() > 10 {
        return None;
    }
    let mut n: i64 = 0;
    for &b in s {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n * 10 + (b - b'0') as i64;
    }
    Some(n)
}

/// A decimal integer with optional sign, overflow-checked.
pub fn parse_i32(v: &[u8]) -> Option<i32> {
    let v = v.trim_ascii();
    let (neg, d) = match v.first()? {
        b'-' => (true, &v[1..]),
        b'+' => (false, &v[1..]),
        _ => (false, v),
    };
    let n = digits(d)?;
    i32::try_from(if neg { -n } else { n }).ok()
}

/// A non-negative decimal number without sign or spaces, overflow-checked.
pub fn parse_u32(s: &[u8]) -> Option<u32> {
    u32::try_from(digits(s)?).ok()
}
