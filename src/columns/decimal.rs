//! Exact money columns: Decimal128(18, 6), a value in millionths (`1.5` is
//! 1,500,000), as SCHEMA.md's money amounts are; Parquet stores them as
//! INT64. A list of them for per-player arrays written on a record.

use arrow_array::builder::{ArrayBuilder, Decimal128Builder, ListBuilder};
use arrow_array::types::Decimal128Type;
use arrow_array::{Decimal128Array, ListArray};
use arrow_schema::DataType;

use super::prims::PrimBuilder;
use super::table::{Column, list_of};

/// Digits in all.
pub const PRECISION: u8 = 18;
/// Digits after the point.
pub const SCALE: i8 = 6;
/// Millionths in one.
pub const ONE: i128 = 1_000_000;
/// The largest magnitude 18 digits hold.
pub const MAX: i128 = 999_999_999_999_999_999;

fn dec_type() -> DataType {
    DataType::Decimal128(PRECISION, SCALE)
}

/// A nullable column of amounts in millionths.
#[derive(Default)]
pub struct Dec(PrimBuilder<Decimal128Type>);

impl Column for Dec {
    fn data_type() -> DataType {
        dec_type()
    }
}

impl Dec {
    pub fn with_capacity(rows: usize) -> Self {
        Dec(PrimBuilder::with_capacity(rows))
    }

    #[inline]
    pub fn append_option(&mut self, v: Option<i128>) {
        self.0.append_option(v)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn finish(&mut self) -> Decimal128Array {
        self.0.finish().with_data_type(dec_type())
    }
}

/// A nullable column of lists of nullable amounts.
pub struct DecList(ListBuilder<Decimal128Builder>);

impl Default for DecList {
    fn default() -> Self {
        Self::with_capacity(0)
    }
}

impl Column for DecList {
    fn data_type() -> DataType {
        list_of(dec_type())
    }
}

impl DecList {
    pub fn with_capacity(rows: usize) -> Self {
        let items = Decimal128Builder::with_capacity(rows * 6).with_data_type(dec_type());
        DecList(ListBuilder::with_capacity(items, rows))
    }

    /// Appends a list, or null.
    pub fn append(&mut self, items: Option<&[Option<i128>]>) {
        match items {
            Some(items) => {
                for &x in items {
                    self.0.values().append_option(x);
                }
                self.0.append(true);
            }
            None => self.0.append(false),
        }
    }

    pub fn len(&self) -> usize {
        ArrayBuilder::len(&self.0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn finish(&mut self) -> ListArray {
        self.0.finish()
    }
}

/// An amount in millionths as text: `1.5`, `-3`, `0.000001`.
pub fn render(v: i128) -> String {
    let sign = if v < 0 { "-" } else { "" };
    let (int, frac) = (
        v.unsigned_abs() / ONE as u128,
        v.unsigned_abs() % ONE as u128,
    );
    if frac == 0 {
        format!("{sign}{int}")
    } else {
        let f = format!("{frac:06}");
        format!("{sign}{int}.{}", f.trim_end_matches('0'))
    }
}

/// Why a decimal text is no amount.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecError {
    /// Not a number.
    Syntax,
    /// More than 6 digits after the point that are not zero.
    Precision,
    /// 10^12 or more.
    Range,
}

/// A decimal number as written (`12`, `-0.5`, `1_000.25`, `1.5e3`, `+7`)
/// in millionths, exactly: nothing is rounded. Underscores between digits
/// are TOML's and are skipped; `,` thousands separators (which pokerkit
/// reads in action amounts) are skipped when `commas`.
pub fn parse(s: &[u8], commas: bool) -> Result<i128, DecError> {
    let (neg, s) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let (mant, exp) = match s.iter().position(|&b| b == b'e' || b == b'E') {
        Some(p) => {
            let e = &s[p + 1..];
            let (eneg, e) = match e.first() {
                Some(b'-') => (true, &e[1..]),
                Some(b'+') => (false, &e[1..]),
                _ => (false, e),
            };
            if e.is_empty() || !e.iter().all(|b| b.is_ascii_digit() || *b == b'_') {
                return Err(DecError::Syntax);
            }
            let mut n: i64 = 0;
            for &b in e.iter().filter(|&&b| b != b'_') {
                n = (n * 10 + (b - b'0') as i64).min(1_000_000);
            }
            (&s[..p], if eneg { -n } else { n })
        }
        None => (s, 0),
    };
    let mut digits: i128 = 0;
    let mut scale: i64 = 0; // digits after the point
    let mut seen = false;
    let mut point = false;
    let mut lost = false; // significant digits dropped past 38
    let mut significant = 0u32;
    for &b in mant {
        match b {
            b'0'..=b'9' => {
                seen = true;
                if digits == 0 && b == b'0' {
                    if point {
                        scale += 1;
                    }
                    continue;
                }
                if significant >= 36 {
                    if b != b'0' {
                        lost = true;
                    }
                    if !point {
                        scale -= 1;
                    }
                    continue;
                }
                significant += 1;
                digits = digits * 10 + (b - b'0') as i128;
                if point {
                    scale += 1;
                }
            }
            b'.' if !point => point = true,
            b'_' => {}
            b',' if commas && !point => {}
            _ => return Err(DecError::Syntax),
        }
    }
    if !seen {
        return Err(DecError::Syntax);
    }
    // value = digits * 10^(exp - scale); in millionths: * 10^(exp - scale + 6)
    let shift = exp - scale + SCALE as i64;
    let v = if digits == 0 {
        0
    } else if shift >= 0 {
        if shift > 18 || lost {
            return Err(DecError::Range);
        }
        digits
            .checked_mul(10i128.pow(shift as u32))
            .ok_or(DecError::Range)?
    } else {
        let div = if -shift > 38 {
            return Err(DecError::Precision);
        } else {
            10i128.pow((-shift) as u32)
        };
        if digits % div != 0 || lost {
            return Err(DecError::Precision);
        }
        digits / div
    };
    if v > MAX {
        return Err(DecError::Range);
    }
    Ok(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_exact() {
        let ok = |s: &str| parse(s.as_bytes(), true).unwrap();
        assert_eq!(ok("12"), 12_000_000);
        assert_eq!(ok("-0.5"), -500_000);
        assert_eq!(ok("1259450.25"), 1_259_450_250_000);
        assert_eq!(ok("1_000.000001"), 1_000_000_001);
        assert_eq!(ok("1.5e3"), 1_500_000_000);
        assert_eq!(ok("15E-1"), 1_500_000);
        assert_eq!(ok("+7.000"), 7_000_000);
        assert_eq!(ok("9,999.99"), 9_999_990_000);
        assert_eq!(ok("0.0"), 0);
        assert_eq!(ok("00012"), 12_000_000);
        assert_eq!(ok("999999999999.999999"), MAX);
        assert_eq!(parse(b"0.0000001", true), Err(DecError::Precision));
        assert_eq!(parse(b"1000000000000", true), Err(DecError::Range));
        assert_eq!(parse(b"1e400", true), Err(DecError::Range));
        assert_eq!(parse(b"1e-400", true), Err(DecError::Precision));
        assert_eq!(parse(b"0e-400", true), Ok(0));
        for bad in ["", "-", ".", "1.2.3", "1e", "abc", "1,0", "inf"] {
            assert_eq!(
                parse(bad.as_bytes(), bad != "1,0"),
                Err(DecError::Syntax),
                "{bad}"
            );
        }
    }

    #[test]
    fn amounts_render_shortest() {
        assert_eq!(render(1_500_000), "1.5");
        assert_eq!(render(-3_000_000), "-3");
        assert_eq!(render(1), "0.000001");
        assert_eq!(render(0), "0");
    }
}
