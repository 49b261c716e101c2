//! The splitter's fast path finds what can end a run of ordinary lines with
//! one vector scan: a `\n` followed by white space, `%` or the first byte of
//! a byte-order mark (a line that may be blank, or an escape line, maybe
//! after a BOM), or a `{`, `;` or `%` (a comment, or maybe a file header
//! after the last line of a file joined to it, which the byte machine must
//! read). In a hand record almost no line starts with white space,
//! so nearly every such `\n` is the end of a record.

use super::is_ws;

/// What a line starting at some offset is, as far as `s` shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// White space only, ending at the `\n` at this offset.
    Blank(usize),
    /// It holds something other than white space.
    Content,
    /// White space up to the end of `s`: not known yet.
    Open,
}

/// Reads the line that starts at `start`.
pub fn line_at(s: &[u8], start: usize) -> Line {
    for (k, &b) in s[start..].iter().enumerate() {
        if b == b'\n' {
            return Line::Blank(start + k);
        }
        if !is_ws(b) {
            return Line::Content;
        }
    }
    Line::Open
}

/// Number of `\n` bytes in `s`.
pub fn count_lines(s: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', s).count()
}

/// The first `q >= from` where `s[q]` is `{`, `;` or `%`, or `s[q]` is `\n` and
/// `s[q + 1]` is white space, `%` or 0xEF (a BOM's first byte).
pub fn next_event(s: &[u8], from: usize) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    let from = {
        let found = if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 is available, as just checked.
            unsafe { simd::scan_avx2(s, from) }
        } else {
            // SAFETY: SSE2 is part of the x86_64 baseline.
            unsafe { simd::scan_sse2(s, from) }
        };
        match found {
            Ok(q) => return Some(q),
            Err(rest) => rest,
        }
    };
    scalar(s, from)
}

fn is_event(s: &[u8], q: usize) -> bool {
    match s[q] {
        b'{' | b';' | b'%' => true,
        b'\n' => s
            .get(q + 1)
            .is_some_and(|&b| is_ws(b) || b == b'%' || b == 0xEF),
        _ => false,
    }
}

fn scalar(s: &[u8], from: usize) -> Option<usize> {
    (from..s.len()).find(|&q| is_event(s, q))
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use std::arch::x86_64::*;

    /// One scan per vector width, the same steps with that width's intrinsics.
    /// A block looks at `s[i..i + W]` and the bytes after them,
    /// `s[i + 1..i + W + 1]`. Returns `Ok(q)` for an event, else `Err(i)`,
    /// where the scalar scan must go on (too few bytes left for a block).
    macro_rules! scan {
        ($(#[$doc:meta])* $name:ident, $feature:literal, $width:literal, $v:ty,
         $set1:ident, $loadu:ident, $cmpeq:ident, $sub:ident, $min:ident,
         $or:ident, $and:ident, $movemask:ident) => {
            $(#[$doc])*
            #[target_feature(enable = $feature)]
            pub unsafe fn $name(s: &[u8], mut i: usize) -> Result<usize, usize> {
                let n = s.len();
                let nl = $set1(b'\n' as i8);
                let space = $set1(b' ' as i8);
                let percent = $set1(b'%' as i8);
                let bom = $set1(0xEFu8 as i8);
                let brace = $set1(b'{' as i8);
                let semi = $set1(b';' as i8);
                let tab = $set1(b'\t' as i8);
                let four = $set1(4);
                while i + $width < n {
                    // SAFETY: i + W < n, so both W-byte loads are within `s`.
                    let (here, next) = unsafe {
                        let p = s.as_ptr().add(i);
                        ($loadu(p as *const $v), $loadu(p.add(1) as *const $v))
                    };
                    // White space: space, or \t \n VT FF \r (9..=13: next - 9 <= 4 unsigned).
                    let t = $sub(next, tab);
                    let ctl = $cmpeq($min(t, four), t);
                    let after = $or(
                        $or(ctl, $cmpeq(next, space)),
                        $or($cmpeq(next, percent), $cmpeq(next, bom)),
                    );
                    let line_event = $and($cmpeq(here, nl), after);
                    let comment = $or(
                        $or($cmpeq(here, brace), $cmpeq(here, semi)),
                        $cmpeq(here, percent),
                    );
                    let m = $movemask($or(line_event, comment)) as u32;
                    if m != 0 {
                        return Ok(i + m.trailing_zeros() as usize);
                    }
                    i += $width;
                }
                Err(i)
            }
        };
    }

    scan!(
        /// 32 bytes a block.
        scan_avx2, "avx2", 32, __m256i, _mm256_set1_epi8, _mm256_loadu_si256,
        _mm256_cmpeq_epi8, _mm256_sub_epi8, _mm256_min_epu8, _mm256_or_si256,
        _mm256_and_si256, _mm256_movemask_epi8
    );
    scan!(
        /// 16 bytes a block, for machines without AVX2.
        scan_sse2, "sse2", 16, __m128i, _mm_set1_epi8, _mm_loadu_si128,
        _mm_cmpeq_epi8, _mm_sub_epi8, _mm_min_epu8, _mm_or_si128,
        _mm_and_si128, _mm_movemask_epi8
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reads_lines() {
        assert_eq!(line_at(b"a\n\nb\n", 2), Line::Blank(2));
        assert_eq!(line_at(b"a\n \t\x0b\x0c\r\nb", 2), Line::Blank(7));
        assert_eq!(line_at(b"a\n  b\n", 2), Line::Content);
        assert_eq!(line_at(b"a\n  ", 2), Line::Open);
        assert_eq!(line_at(b"a\n", 2), Line::Open);
    }

    #[test]
    fn counts_lines() {
        assert_eq!(count_lines(b""), 0);
        assert_eq!(count_lines(b"a\nb\r\n\n"), 3);
    }

    #[test]
    fn finds_events_in_and_after_whole_blocks() {
        for pad in [0, 1, 15, 16, 17, 31, 32, 33, 40, 64, 100] {
            let x = vec![b'x'; pad];
            for (tail, at) in [
                (&b"\n\n"[..], Some(0)),
                (b"\n\r\n", Some(0)),
                (b"\n\x0b", Some(0)),
                (b"\n%", Some(0)),
                (b"\n\xEF\xBB\xBF%", Some(0)),
                (b"a\xEF", None),
                (b"a{", Some(1)),
                (b"a;", Some(1)),
                (b"\nb\n", None),
                (b"\n", None),
                (b"\"}[]", None),
            ] {
                let s = [&x[..], tail, b"yy"].concat();
                let want = at.map(|a| pad + a);
                assert_eq!(next_event(&s, 0), want, "pad {pad} tail {tail:?}");
                assert_eq!(scalar(&s, 0), want, "pad {pad} tail {tail:?}");
            }
        }
    }

    proptest! {
        #[test]
        fn vector_scans_agree_with_the_scalar_one(
            s in prop::collection::vec(prop::sample::select(b"ab \t\r\n\x0b\x0c%{;\xEF".to_vec()), 0..300),
            from in 0usize..300,
        ) {
            let from = from.min(s.len());
            prop_assert_eq!(next_event(&s, from), scalar(&s, from));
            #[cfg(target_arch = "x86_64")]
            {
                // SAFETY: SSE2 is part of the x86_64 baseline.
                let sse = match unsafe { simd::scan_sse2(&s, from) } {
                    Ok(q) => Some(q),
                    Err(rest) => scalar(&s, rest),
                };
                prop_assert_eq!(sse, scalar(&s, from));
            }
        }
    }
}
