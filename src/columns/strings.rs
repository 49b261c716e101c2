//! String columns for the hot path: the bytes and offsets are plain vectors
//! and short strings (most values: seats, calls, tag texts) are copied with
//! two fixed-size moves instead of a `memcpy` call.
//!
//! Arrow's `StringBuilder` spent about 60 instructions on an `append_value`
//! (plus 15 in `memcpy`) and 47 on an `append_null`, and a hand appends about
//! 110 flat strings.

use arrow_array::StringArray;
use arrow_buffer::{BooleanBuffer, NullBuffer, OffsetBuffer, ScalarBuffer};

/// Strings as one byte vector and their end offsets (no validity).
#[derive(Debug)]
pub struct Strings {
    pub bytes: Vec<u8>,
    /// Offsets into `bytes`, starting with 0.
    pub offsets: Vec<i32>,
}

impl Strings {
    pub fn with_capacity(items: usize, bytes: usize) -> Self {
        let mut offsets = Vec::with_capacity(items + 1);
        offsets.push(0);
        Strings {
            bytes: Vec::with_capacity(bytes),
            offsets,
        }
    }

    #[inline(always)]
    pub fn push(&mut self, s: &str) {
        push_bytes(&mut self.bytes, s.as_bytes());
        self.offsets.push(self.bytes.len() as i32);
    }

    /// An empty item (the slot of a null).
    #[inline(always)]
    pub fn push_empty(&mut self) {
        self.offsets.push(self.bytes.len() as i32);
    }

    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn finish(self, nulls: Option<NullBuffer>) -> StringArray {
        assert!(
            i32::try_from(self.bytes.len()).is_ok(),
            "strings over 2 GiB in one batch"
        );
        if let Some(n) = &nulls {
            assert_eq!(n.len(), self.len());
        }
        // SAFETY: offsets start at 0 and never decrease (each push appends
        // the current length), the last is the length of the data (none
        // wrapped: checked above), and every item is the bytes of a `&str`.
        unsafe {
            StringArray::new_unchecked(
                OffsetBuffer::new_unchecked(ScalarBuffer::from(self.offsets)),
                self.bytes.into(),
                nulls,
            )
        }
    }
}

/// Appends `s` to `out`; up to 16 bytes with two overlapping unaligned
/// moves of a fixed size (no call).
#[inline(always)]
fn push_bytes(out: &mut Vec<u8>, s: &[u8]) {
    let n = s.len();
    if n > 16 {
        out.extend_from_slice(s);
        return;
    }
    out.reserve(16);
    let at = out.len();
    // SAFETY: `reserve(16)` leaves room for 16 bytes at `at`, and every move
    // below writes within `at..at + n` (n <= 16) and reads within `s`
    // (the second move of a pair starts at n - size >= 0 because n >= size).
    unsafe {
        let src = s.as_ptr();
        let dst = out.as_mut_ptr().add(at);
        macro_rules! pair {
            ($t:ty) => {{
                let k = std::mem::size_of::<$t>();
                let a = src.cast::<$t>().read_unaligned();
                let b = src.add(n - k).cast::<$t>().read_unaligned();
                dst.cast::<$t>().write_unaligned(a);
                dst.add(n - k).cast::<$t>().write_unaligned(b);
            }};
        }
        if n >= 8 {
            pair!(u64);
        } else if n >= 4 {
            pair!(u32);
        } else if n >= 2 {
            pair!(u16);
        } else if n == 1 {
            *dst = *src;
        }
        out.set_len(at + n);
    }
}

/// A validity bitmap built a bit at a time into a word held aside, stored
/// when full: an OR, an increment and a test for each value (Arrow's
/// `NullBufferBuilder` cost about 30 instructions a null). Nulls are
/// counted once, at the end.
#[derive(Debug, Default)]
pub struct Validity {
    /// The full words.
    words: Vec<u64>,
    /// The bits of the word being filled (bits from `len % 64` on are 0).
    cur: u64,
    len: usize,
}

impl Validity {
    pub fn with_capacity(rows: usize) -> Self {
        Validity {
            words: Vec::with_capacity(rows.div_ceil(64)),
            cur: 0,
            len: 0,
        }
    }

    #[inline(always)]
    pub fn push(&mut self, valid: bool) {
        self.cur |= (valid as u64) << (self.len % 64);
        self.len += 1;
        if self.len.is_multiple_of(64) {
            self.words.push(self.cur);
            self.cur = 0;
        }
    }

    /// Appends `n` valid bits: whole words at once past the first.
    #[inline]
    pub fn push_valid(&mut self, n: usize) {
        let mut n = n;
        while n > 0 {
            let at = self.len % 64;
            let take = n.min(64 - at);
            // `take` bits from `at` on (take == 64 only when at == 0).
            self.cur |= (u64::MAX >> (64 - take)) << at;
            self.len += take;
            n -= take;
            if self.len.is_multiple_of(64) {
                self.words.push(self.cur);
                self.cur = 0;
            }
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The null buffer, `None` when every value is valid; left empty.
    pub fn finish(&mut self) -> Option<NullBuffer> {
        let Validity {
            mut words,
            cur,
            len,
        } = std::mem::take(self);
        if !len.is_multiple_of(64) {
            words.push(cur);
        }
        // Bits past `len` are 0, so the ones counted are the valid values.
        let valid: usize = words.iter().map(|w| w.count_ones() as usize).sum();
        let nulls = len - valid;
        if nulls == 0 {
            return None;
        }
        // Bit i of a word is bit i % 8 of byte i / 8 on any machine.
        for w in &mut words {
            *w = w.to_le();
        }
        let bits = BooleanBuffer::new(ScalarBuffer::from(words).into_inner(), 0, len);
        // SAFETY: `nulls` counts the zero bits among the first `len`.
        Some(unsafe { NullBuffer::new_unchecked(bits, nulls) })
    }
}

/// A nullable `Utf8` column: [`Strings`] and a validity builder, with the
/// methods of Arrow's `StringBuilder` that the table builders use.
#[derive(Debug)]
pub struct StrBuilder {
    items: Strings,
    nulls: Validity,
}

impl Default for StrBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl StrBuilder {
    pub fn new() -> Self {
        Self::with_capacity(0, 0)
    }

    /// Room for `rows` values of `bytes` bytes in all.
    pub fn with_capacity(rows: usize, bytes: usize) -> Self {
        StrBuilder {
            items: Strings::with_capacity(rows, bytes),
            nulls: Validity::with_capacity(rows),
        }
    }

    #[inline(always)]
    pub fn append_value(&mut self, v: impl AsRef<str>) {
        self.items.push(v.as_ref());
        self.nulls.push(true);
    }

    #[inline(always)]
    pub fn append_null(&mut self) {
        self.items.push_empty();
        self.nulls.push(false);
    }

    #[inline(always)]
    pub fn append_option(&mut self, v: Option<impl AsRef<str>>) {
        match v {
            Some(v) => self.append_value(v),
            None => self.append_null(),
        }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The values appended so far; the builder is left empty.
    pub fn finish(&mut self) -> StringArray {
        let StrBuilder { items, mut nulls } = std::mem::take(self);
        items.finish(nulls.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;
    use arrow_array::builder::StringBuilder;
    use proptest::prelude::*;

    #[test]
    fn every_short_length_is_copied_exactly() {
        let text = "abcdefghijklmnopqrstuvwxyz0123456789";
        let mut ours = StrBuilder::with_capacity(1, 1);
        let mut theirs = StringBuilder::new();
        for n in 0..=text.len() {
            for start in [0, 1, 3] {
                let s = &text[start..start + n.min(text.len() - start)];
                ours.append_value(s);
                theirs.append_value(s);
            }
            ours.append_null();
            theirs.append_null();
        }
        ours.append_option(Some("é€x"));
        theirs.append_option(Some("é€x"));
        ours.append_option(None::<&str>);
        theirs.append_option(None::<&str>);
        assert_eq!(ours.len(), 37 * 4 + 2);
        let (a, b) = (ours.finish(), theirs.finish());
        assert_eq!(a, b);
        assert_eq!(a.null_count(), 38);
        assert_eq!((a.value(4), a.value(5), a.value(6)), ("a", "b", "d"));
        assert!(ours.is_empty());
    }

    #[test]
    fn runs_of_valid_bits_same_as_one_by_one() {
        // Runs that start and end inside a word, fill one exactly, and span
        // several, after nulls at every offset of a word.
        for lead in [0, 1, 5, 63, 64, 65] {
            for run in [0, 1, 2, 59, 63, 64, 65, 130, 200] {
                let (mut ours, mut want) = (Validity::default(), Validity::default());
                for i in 0..lead {
                    ours.push(i % 3 == 0);
                    want.push(i % 3 == 0);
                }
                ours.push_valid(run);
                for _ in 0..run {
                    want.push(true);
                }
                ours.push(false);
                want.push(false);
                assert_eq!(ours.len(), lead + run + 1);
                let (a, b) = (ours.finish().unwrap(), want.finish().unwrap());
                assert_eq!(a.iter().collect::<Vec<_>>(), b.iter().collect::<Vec<_>>());
                assert_eq!(a.null_count(), b.null_count(), "{lead} {run}");
            }
        }
    }

    #[test]
    fn validity_bits_across_words() {
        let mut v = Validity::with_capacity(3);
        let pattern = |i: usize| !i.is_multiple_of(3) && i != 64 && i != 127;
        for i in 0..130 {
            v.push(pattern(i));
        }
        assert_eq!(v.len(), 130);
        let n = v.finish().unwrap();
        assert_eq!(n.len(), 130);
        let want: Vec<bool> = (0..130).map(pattern).collect();
        assert_eq!(n.iter().collect::<Vec<_>>(), want);
        assert_eq!(n.null_count(), want.iter().filter(|&&b| !b).count());
        assert!(v.is_empty());
        let mut all = Validity::default();
        all.push(true);
        assert!(all.finish().is_none());
        // A whole number of words: the last null is in the last word stored.
        let mut v = Validity::default();
        for i in 0..128 {
            v.push(i != 127);
        }
        let n = v.finish().unwrap();
        assert_eq!((n.len(), n.null_count()), (128, 1));
        assert!(n.is_null(127) && n.is_valid(126));
    }

    #[test]
    fn all_valid_columns_have_no_null_buffer() {
        let mut b = StrBuilder::new();
        b.append_value("N");
        b.append_value(String::from("Pass"));
        let a = b.finish();
        assert!(a.nulls().is_none());
        assert_eq!(a.value(1), "Pass");
    }

    proptest! {
        #[test]
        fn same_array_as_arrow(items in prop::collection::vec(prop::option::of(".{0,40}"), 0..60)) {
            let mut ours = StrBuilder::with_capacity(2, 4);
            let mut theirs = StringBuilder::new();
            for i in &items {
                ours.append_option(i.as_deref());
                theirs.append_option(i.as_deref());
            }
            prop_assert_eq!(ours.finish(), theirs.finish());
        }
    }
}
