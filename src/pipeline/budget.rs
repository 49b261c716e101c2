//! Windows sized by what they build. A window is cut by the bytes of its
//! records, but what it builds per input byte varies by more than ten times:
//! generated hands build about 4.3 bytes of Arrow arrays per input byte, a
//! file whose every card is unreadable builds about 18 (a row of the
//! `errors` table for each), a file of auctions of hundreds of bids more.
//! Several windows are in flight at once (lexed, built, waiting for the
//! writer), so memory followed that ratio. [`Budget`] remembers what the
//! last window built per input byte and, when the next window at full size
//! would build more than [`Options::window_array_bytes`], gives a smaller
//! number of input bytes for it. Where windows are cut does not change the
//! tables (the writer cuts runs and row groups by rows alone).

use crate::notation::tagpair::split::Item;

use super::Options;

#[derive(Clone, Copy, Debug)]
pub(super) struct Budget {
    /// Bytes of arrays a window may build.
    array_bytes: u64,
    /// A window is never cut below one group's bytes of records (a smaller
    /// one would give the threads nothing to share; a single larger record
    /// still makes a window of its own).
    floor: u64,
    /// Bytes of input a window may hold, from the last window's ratio (at
    /// first a quarter of a window: the first two windows are cut before
    /// anything is built).
    limit: Option<u64>,
}

impl Budget {
    pub fn new(opts: &Options) -> Self {
        Budget {
            array_bytes: opts.window_array_bytes.max(1) as u64,
            floor: opts.group_bytes.max(1) as u64,
            limit: Some(opts.window_bytes() as u64 / 4),
        }
    }

    /// A window of `input` bytes of records built `built` bytes of arrays.
    pub fn observe(&mut self, input: u64, built: u64) {
        if input == 0 {
            return;
        }
        // Input bytes that would build the budget at this window's ratio.
        let fit = (self.array_bytes as u128 * input as u128 / (built as u128).max(1))
            .min(u64::MAX as u128) as u64;
        self.limit = Some(fit.max(self.floor));
    }

    /// Bytes of records the next window may span (None: no limit but the
    /// window's own size).
    pub fn limit(&self) -> Option<u64> {
        self.limit
    }
}

/// Where to cut `items` so that the first part spans at most `limit` bytes
/// (from its first item's start to its last's end), keeping at least one
/// item: the length of the first part, or None when all of them fit.
pub(super) fn cut(items: &[Item], limit: Option<u64>) -> Option<usize> {
    cut_by(items, |it| it, limit)
}

/// [`cut`] for values that hold an item.
pub(super) fn cut_by<T>(xs: &[T], item: impl Fn(&T) -> &Item, limit: Option<u64>) -> Option<usize> {
    let limit = limit?;
    let first = item(xs.first()?).start;
    let n = xs.partition_point(|x| item(x).end - first <= limit).max(1);
    (n < xs.len()).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::tagpair::split::ItemKind;

    fn items(spans: &[(u64, u64)]) -> Vec<Item> {
        spans
            .iter()
            .map(|&(start, end)| Item {
                kind: ItemKind::Record,
                start,
                end,
                line: 1,
                joined: false,
                at_end: false,
            })
            .collect()
    }

    #[test]
    fn cuts_where_the_limit_is_reached_keeping_one_item() {
        let it = items(&[(0, 100), (102, 200), (202, 300), (302, 400)]);
        assert_eq!(cut(&it, None), None);
        assert_eq!(cut(&it, Some(400)), None);
        assert_eq!(cut(&it, Some(399)), Some(3));
        assert_eq!(cut(&it, Some(200)), Some(2));
        assert_eq!(cut(&it, Some(150)), Some(1));
        // A first item larger than the limit still goes alone.
        assert_eq!(cut(&it, Some(10)), Some(1));
        assert_eq!(cut(&it[3..], Some(10)), None);
        assert_eq!(cut(&[], Some(10)), None);
    }

    #[test]
    fn limits_by_the_last_windows_ratio() {
        let opts = Options {
            window_array_bytes: 24 << 20,
            group_bytes: 256 << 10,
            threads: 2,
            ..Options::default()
        };
        let mut b = Budget::new(&opts);
        // A quarter of a window (a group a thread) until a window is built.
        assert_eq!(b.limit(), Some(512 << 10));
        // 4 MiB that built 18 bytes an input byte: 24/18 MiB of input fit.
        b.observe(4 << 20, 18 * (4 << 20));
        assert_eq!(b.limit(), Some((24 << 20) / 18));
        // Generated hands (4.3 bytes a byte) may take more than a window.
        b.observe(4 << 20, 18_035_000);
        assert_eq!(b.limit(), Some(5_852_681));
        // Never below a group; nothing built: no limit worth having.
        b.observe(1 << 20, 1 << 40);
        assert_eq!(b.limit(), Some(256 << 10));
        b.observe(1 << 20, 0);
        assert_eq!(b.limit(), Some((24u64 << 20) * (1 << 20)));
        b.observe(0, 5);
        assert_eq!(b.limit(), Some((24u64 << 20) * (1 << 20)));
    }
}
