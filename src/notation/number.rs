//! Decimal numbers and `YYYY.MM.DD` dates as the notations write them.

use crate::columns::date::days_from_civil;

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

fn days_in_month(y: i32, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        _ => 28,
    }
}

/// The outcome of reading a `YYYY.MM.DD` date.
#[derive(Debug, PartialEq, Eq)]
pub enum DateValue {
    /// Fully known: days since the Unix epoch.
    Known(i32),
    /// Well formed with `?` parts: no date, no complaint.
    Partial,
    Invalid,
}

/// Days since the Unix epoch of year `y`, month `m`, day `d`; None for a
/// month or day that does not exist.
pub fn civil_date(y: i32, m: u32, d: u32) -> Option<i32> {
    ((1..=12).contains(&m) && d >= 1 && d <= days_in_month(y, m)).then(|| days_from_civil(y, m, d))
}

/// A `YYYY.MM.DD` date, `?` for unknown digits.
pub fn parse_date(v: &[u8]) -> DateValue {
    // YYYY.MM.DD: a dot elsewhere is a byte that is neither digit nor '?'.
    if v.len() != 10 || v[4] != b'.' || v[7] != b'.' {
        return DateValue::Invalid;
    }
    let parts = [&v[..4], &v[5..7], &v[8..]];
    if parts
        .iter()
        .any(|p| p.iter().any(|&b| !b.is_ascii_digit() && b != b'?'))
    {
        return DateValue::Invalid;
    }
    if parts.iter().any(|p| p.contains(&b'?')) {
        return DateValue::Partial;
    }
    let num = |p: &[u8]| p.iter().fold(0u32, |n, &b| n * 10 + (b - b'0') as u32);
    let (y, m, d) = (num(parts[0]) as i32, num(parts[1]), num(parts[2]));
    if !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
        return DateValue::Invalid;
    }
    DateValue::Known(days_from_civil(y, m, d))
}
