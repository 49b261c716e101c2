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

/// What [`next_event`] found: the event, if any, and the line feeds it
/// passed on the way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    /// The first `q >= from` where `s[q]` is `{`, `;` or `%`, or `s[q]` is
    /// `\n` and `s[q + 1]` is white space, `%` or 0xEF (a BOM's first byte).
    pub at: Option<usize>,
    /// The number of `\n` bytes in `s[from..at]` (to the end of `s` when
    /// there is no event): the splitter counts lines in the same scan
    /// instead of reading the bytes again.
    pub lines: usize,
}

/// Finds the next event from `from` on and counts the lines before it.
pub fn next_event(s: &[u8], from: usize) -> Event {
    #[cfg(target_arch = "x86_64")]
    let (from, lines) = {
        let found = if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            // SAFETY: AVX2 and POPCNT are available, as just checked.
            unsafe { simd::scan_avx2(s, from) }
        } else {
            // SAFETY: SSE2 is part of the x86_64 baseline.
            unsafe { simd::scan_sse2(s, from) }
        };
        match found {
            Ok(event) => return event,
            Err(rest) => rest,
        }
    };
    #[cfg(not(target_arch = "x86_64"))]
    let lines = 0;
    let tail = scalar(s, from);
    Event {
        at: tail.at,
        lines: lines + tail.lines,
    }
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

fn scalar(s: &[u8], from: usize) -> Event {
    let at = (from..s.len()).find(|&q| is_event(s, q));
    let lines = memchr::memchr_iter(b'\n', &s[from..at.unwrap_or(s.len())]).count();
    Event { at, lines }
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use std::arch::x86_64::*;

    use super::Event;

    /// One scan per vector width, the same steps with that width's intrinsics.
    /// A block looks at `s[i..i + W]` and the bytes after them,
    /// `s[i + 1..i + W + 1]`, and counts the line feeds among the first
    /// (before the event, in the block that has one). Returns `Ok(event)`
    /// for an event, else `Err((i, lines))`, where the scalar scan must go
    /// on (too few bytes left for a block) with the lines counted so far.
    macro_rules! scan {
        ($(#[$doc:meta])* $name:ident, $feature:literal, $width:literal, $v:ty,
         $set1:ident, $loadu:ident, $cmpeq:ident, $sub:ident, $min:ident,
         $or:ident, $and:ident, $movemask:ident) => {
            $(#[$doc])*
            #[target_feature(enable = $feature)]
            pub unsafe fn $name(s: &[u8], mut i: usize) -> Result<Event, (usize, usize)> {
                let n = s.len();
                let mut lines = 0usize;
                let nl = $set1(b'\n' as i8);
                let space = $set1(b' ' as i8);
                let percent = $set1(b'%' as i8);
                let bom = $set1(0xEFu8 as i8);
                let brace = $set1(b'{' as i8);
                let semi = $set1(b';' as i8);
                let tab = $set1(b'\t' as i8);
                let four = $set1(4);
                // SUB (Ctrl-Z), the white space of old DOS files' ends.
                let ctrl_z = $set1(0x1a);
                while i + $width < n {
                    // SAFETY: i + W < n, so both W-byte loads are within `s`.
                    let (here, next) = unsafe {
                        let p = s.as_ptr().add(i);
                        ($loadu(p as *const $v), $loadu(p.add(1) as *const $v))
                    };
                    // White space: space, \t \n VT FF \r (9..=13: next - 9 <= 4
                    // unsigned) or SUB, as `is_ws`.
                    let t = $sub(next, tab);
                    let ctl = $or($cmpeq($min(t, four), t), $cmpeq(next, ctrl_z));
                    let after = $or(
                        $or(ctl, $cmpeq(next, space)),
                        $or($cmpeq(next, percent), $cmpeq(next, bom)),
                    );
                    let feeds = $cmpeq(here, nl);
                    let line_event = $and(feeds, after);
                    let comment = $or(
                        $or($cmpeq(here, brace), $cmpeq(here, semi)),
                        $cmpeq(here, percent),
                    );
                    let m = $movemask($or(line_event, comment)) as u32;
                    let f = $movemask(feeds) as u32;
                    if m != 0 {
                        let q = m.trailing_zeros();
                        // The feeds below the event's bit (the mask of the
                        // bits below the lowest set bit of `m`).
                        let before = f & (m - 1) & !m;
                        return Ok(Event {
                            at: Some(i + q as usize),
                            lines: lines + before.count_ones() as usize,
                        });
                    }
                    lines += f.count_ones() as usize;
                    i += $width;
                }
                Err((i, lines))
            }
        };
    }

    scan!(
        /// 32 bytes a block.
        scan_avx2, "avx2,popcnt", 32, __m256i, _mm256_set1_epi8, _mm256_loadu_si256,
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
    fn finds_events_in_and_after_whole_blocks() {
        for pad in [0, 1, 15, 16, 17, 31, 32, 33, 40, 64, 100] {
            // Lines of three bytes before the tail (a line feed every fourth
            // byte, never the last, which would make an event of the tail's
            // first byte).
            let mut x: Vec<u8> = (0..pad)
                .map(|k| if k % 4 == 3 { b'\n' } else { b'x' })
                .collect();
            if x.last() == Some(&b'\n') {
                *x.last_mut().unwrap() = b'x';
            }
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
                let at = at.map(|a| pad + a);
                let lines = s[..at.unwrap_or(s.len())]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count();
                let want = Event { at, lines };
                assert_eq!(next_event(&s, 0), want, "pad {pad} tail {tail:?}");
                assert_eq!(scalar(&s, 0), want, "pad {pad} tail {tail:?}");
                if pad > 0 {
                    // From inside the line feeds (each run counts its own).
                    let from = 1;
                    let lines = s[from..at.unwrap_or(s.len())]
                        .iter()
                        .filter(|&&b| b == b'\n')
                        .count();
                    let want = Event { at, lines };
                    assert_eq!(next_event(&s, from), want, "pad {pad} tail {tail:?}");
                }
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
                    Ok(event) => event,
                    Err((rest, lines)) => {
                        let tail = scalar(&s, rest);
                        Event { at: tail.at, lines: lines + tail.lines }
                    }
                };
                prop_assert_eq!(sse, scalar(&s, from));
            }
        }
    }
}
