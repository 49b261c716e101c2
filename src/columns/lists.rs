//! Builders for the list columns written most: lists of cards.
//!
//! [`CardList`] builds lists of cards (`List<Utf8>` whose items are two-byte
//! names like `CA`): the values, their offsets and the list offsets are plain
//! vectors, so appending a card is two byte pushes and an offset push. Arrow's
//! `ListBuilder<StringBuilder>` makes a call (and a `memcpy` call) per item,
//! which was 57 instructions a card, and cards are most of the values written.

use std::sync::Arc;

use arrow_array::{Array, ArrayRef, ListArray};
use arrow_buffer::{NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field};

use super::strings::Strings;

/// A card of a trick-taking game as the tables write it: two bytes, suit
/// then rank (`CA`, `HT`).
pub trait CardName: Copy {
    fn name(self) -> [u8; 2];

    /// Whether two lists of cards are equal (a game may compare their bytes
    /// at once).
    fn same(a: &[Self], b: &[Self]) -> bool;
}

/// List offsets (into the items) and validity.
#[derive(Debug)]
pub(crate) struct Lists {
    offsets: Vec<i32>,
    nulls: NullBufferBuilder,
}

impl Lists {
    pub(crate) fn with_capacity(rows: usize) -> Self {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        Lists {
            offsets,
            nulls: NullBufferBuilder::new(rows),
        }
    }

    /// Ends a list (null when `!valid`) at item `end`. (Always inlined: as
    /// a call it cost 4.3M instructions on 3,000 hands.)
    #[inline(always)]
    pub(crate) fn push(&mut self, valid: bool, end: usize) {
        self.nulls.append(valid);
        self.offsets.push(end as i32);
    }

    pub(crate) fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    pub(crate) fn finish(mut self, item: DataType, values: ArrayRef) -> ListArray {
        assert_eq!(
            *self.offsets.last().unwrap() as i64,
            values.len() as i64,
            "list items over 2^31 in one batch"
        );
        // SAFETY: offsets start at 0, never decrease and end at the number
        // of items (checked above, so none wrapped).
        let offsets = unsafe { OffsetBuffer::new_unchecked(ScalarBuffer::from(self.offsets)) };
        ListArray::new(item_field(item), offsets, values, self.nulls.finish())
    }
}

/// The item field of every list column (as `table::list_of`).
pub(crate) fn item_field(item: DataType) -> Arc<Field> {
    Arc::new(Field::new_list_field(item, true))
}

#[derive(Debug)]
pub struct CardList {
    items: Strings,
    lists: Lists,
}

impl Default for CardList {
    fn default() -> Self {
        Self::new()
    }
}

impl CardList {
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// Room for `rows` lists; their items get room as they come (the
    /// tables' builders size the columns they know: [`CardList::with_items`]).
    pub fn with_capacity(rows: usize) -> Self {
        Self::with_items(rows, 0)
    }

    /// Room for `rows` lists of about `per_row` cards each.
    pub fn with_items(rows: usize, per_row: usize) -> Self {
        CardList {
            items: Strings::with_capacity(rows * per_row, rows * per_row * 2),
            lists: Lists::with_capacity(rows),
        }
    }

    /// Appends a list (of any strings; cards are the fast case), or null.
    #[inline]
    pub fn append<S: AsRef<str>>(&mut self, items: Option<impl IntoIterator<Item = S>>) {
        let valid = items.is_some();
        if let Some(items) = items {
            for s in items {
                self.items.push(s.as_ref());
            }
        }
        self.lists.push(valid, self.items.len());
    }

    /// Appends a list of cards by their names, or null: the bytes and offsets
    /// of the whole list are written in one pass over reserved room.
    pub fn append_cards<C: CardName>(&mut self, cards: Option<&[C]>) {
        if let Some(cards) = cards {
            self.push_names(cards, C::name);
        }
        self.lists.push(cards.is_some(), self.items.len());
    }

    /// Appends `cards` as [`CardList::append_cards`] does when every card is
    /// known; else appends nothing and returns false.
    #[inline]
    pub fn append_known<C: CardName>(&mut self, cards: &[Option<C>]) -> bool {
        if !cards.iter().all(Option::is_some) {
            return false;
        }
        self.push_names(cards, |c| c.map_or([b'?'; 2], C::name));
        self.lists.push(true, self.items.len());
        true
    }

    /// The names of `cards` as items (the list is not ended).
    #[inline(always)]
    fn push_names<T: Copy>(&mut self, cards: &[T], name: impl Fn(T) -> [u8; 2]) {
        let Strings { bytes, offsets } = &mut self.items;
        let (from, n) = (bytes.len(), cards.len());
        bytes.reserve(2 * n);
        offsets.reserve(n);
        let start = from as i32;
        // SAFETY: `reserve` made room for 2n more bytes and n more offsets;
        // the loop writes exactly those (byte pairs unaligned) before the
        // lengths are set.
        unsafe {
            let names = bytes.as_mut_ptr().add(from).cast::<[u8; 2]>();
            let ends = offsets.as_mut_ptr().add(offsets.len());
            for (i, &c) in cards.iter().enumerate() {
                names.add(i).write_unaligned(name(c));
                ends.add(i).write(start + 2 * (i as i32 + 1));
            }
            bytes.set_len(from + 2 * n);
            offsets.set_len(offsets.len() + n);
        }
    }

    pub fn len(&self) -> usize {
        self.lists.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The Arrow type: a list of nullable strings, as `table::list_of(Utf8)`.
    pub fn data_type() -> DataType {
        DataType::List(item_field(DataType::Utf8))
    }

    /// The lists appended so far; the builder is left empty.
    pub fn finish(&mut self) -> ListArray {
        let CardList { items, lists } = std::mem::take(self);
        lists.finish(DataType::Utf8, Arc::new(items.finish(None)))
    }

    /// Appends the first `n` lists of `other` (this builder being empty).
    fn copy_front(&mut self, other: &CardList, n: usize) {
        debug_assert!(self.is_empty() && n <= other.len());
        let items = other.lists.offsets[n] as usize;
        let bytes = other.items.offsets[items] as usize;
        self.items
            .bytes
            .extend_from_slice(&other.items.bytes[..bytes]);
        self.items
            .offsets
            .extend_from_slice(&other.items.offsets[1..=items]);
        self.lists
            .offsets
            .extend_from_slice(&other.lists.offsets[1..=n]);
        for i in 0..n {
            self.lists.nulls.append(other.lists.nulls.is_valid(i));
        }
    }
}

/// A card-list column that usually repeats another column of its table row
/// for row (`computed_dealt` is `dealt` whenever a hand has a Deal tag).
/// While it does, nothing is built, and the table's batch holds the source's
/// array twice (the Parquet sink then splices its pages without comparing
/// values). At the first row that differs, the rows so far are copied from
/// the source and the column is built as any other from then on.
#[derive(Debug)]
pub struct CardCopy {
    /// The source column's index in the table; None: always built.
    source: Option<usize>,
    /// Rows appended while repeating the source.
    same: usize,
    /// The column once built (always, without a source).
    own: Option<CardList>,
    /// Room to make when the copy stops repeating: rows, cards a row.
    room: (usize, usize),
}

impl CardCopy {
    /// A column built like a [`CardList`], repeating no other.
    pub fn with_capacity(rows: usize) -> Self {
        CardCopy {
            source: None,
            same: 0,
            own: Some(CardList::with_capacity(rows)),
            room: (0, 0),
        }
    }

    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// A copy of the table's column `source`, with room for `rows` lists of
    /// about `per_row` cards once it stops repeating it.
    pub fn of(source: usize, rows: usize, per_row: usize) -> Self {
        CardCopy {
            source: Some(source),
            same: 0,
            own: None,
            room: (rows, per_row),
        }
    }

    /// Appends `cards` (or null), the row whose source column `of` has just
    /// been given `theirs`.
    #[inline]
    pub fn append_cards<C: CardName>(
        &mut self,
        cards: Option<&[C]>,
        theirs: Option<&[C]>,
        of: &CardList,
    ) {
        if self.own.is_none() {
            let same = match (cards, theirs) {
                (Some(a), Some(b)) => C::same(a, b),
                (a, b) => a.is_none() && b.is_none(),
            };
            if same {
                self.same += 1;
                return;
            }
            let (rows, per_row) = self.room;
            let mut own = CardList::with_items(rows, per_row);
            own.copy_front(of, self.same);
            self.own = Some(own);
        }
        self.own
            .as_mut()
            .expect("built from here on")
            .append_cards(cards);
    }

    /// The lists appended so far, given the table's columns finished before
    /// it (among them its source); the builder is left empty.
    pub fn finish_from(&mut self, earlier: &[ArrayRef]) -> ArrayRef {
        let same = std::mem::take(&mut self.same);
        match (self.own.as_mut(), self.source) {
            (Some(own), source) => {
                let a = Arc::new(own.finish());
                if source.is_some() {
                    // Repeating its source again, for the next rows.
                    self.own = None;
                }
                a
            }
            (None, Some(s)) => {
                let a = earlier[s].clone();
                assert_eq!(a.len(), same, "a copy column has its source's rows");
                a
            }
            (None, None) => unreachable!("a column without a source is built"),
        }
    }
}

impl Default for CardCopy {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::StringArray;
    use arrow_array::builder::{ListBuilder, StringBuilder};

    /// A card of the tests: its two bytes.
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Card([u8; 2]);

    impl CardName for Card {
        fn name(self) -> [u8; 2] {
            self.0
        }
        fn same(a: &[Card], b: &[Card]) -> bool {
            a == b
        }
    }

    impl Card {
        fn as_str(&self) -> &str {
            std::str::from_utf8(&self.0).unwrap()
        }
    }

    fn c(name: &str) -> Card {
        Card(name.as_bytes().try_into().unwrap())
    }

    #[test]
    fn same_array_as_arrows_builder() {
        let rows: Vec<Option<Vec<&str>>> = vec![
            Some(vec!["CA", "DT", "H9"]),
            None,
            Some(vec![]),
            Some(vec!["SQ", "?", "ten"]),
            None,
        ];
        let mut ours = CardList::with_capacity(1);
        let mut theirs = ListBuilder::new(StringBuilder::new());
        for r in &rows {
            ours.append(r.as_ref());
            crate::columns::table::append_strs(&mut theirs, r.as_ref());
        }
        assert_eq!(ours.len(), 5);
        let a = ours.finish();
        let b = theirs.finish();
        assert_eq!(a, b);
        assert_eq!(a.data_type(), &CardList::data_type());
        assert_eq!(a.null_count(), 2);
        assert!(ours.is_empty());
        // The builder starts over after finish.
        ours.append(Some(["HK"]));
        let c = ours.finish();
        assert_eq!(c.len(), 1);
        assert_eq!(
            c.value(0)
                .as_any()
                .downcast_ref::<StringArray>()
                .unwrap()
                .value(0),
            "HK"
        );
    }

    #[test]
    fn a_copy_is_its_source_until_a_row_differs_then_the_same_as_built() {
        let x = vec![c("CA"), c("H9")];
        let y = vec![c("H9"), c("CA")];
        let z = vec![c("CA")];
        type Row<'a> = (Option<&'a [Card]>, Option<&'a [Card]>);
        // (source row, copy row); rows 4.. are made to repeat their source
        // up to `differ`.
        let rows: Vec<Row> = vec![
            (Some(&x), Some(&x)),
            (None, None),
            (Some(&[]), Some(&[])),
            (Some(&z), Some(&z)),
            (Some(&x), Some(&y)),
            (Some(&x), None),
            (None, Some(&z)),
            (Some(&y), Some(&y)),
        ];
        for differ in [4, 5, 6, rows.len()] {
            let rows: Vec<_> = (rows.iter().enumerate())
                .map(|(i, &(s, t))| (s, if i < differ && i >= 4 { s } else { t }))
                .collect();
            let mut source = CardList::with_capacity(1);
            let mut copy = CardCopy::of(0, 2, 2);
            let mut plain = CardList::with_capacity(1);
            // Twice: the builders are used again after finishing.
            for _ in 0..2 {
                for &(s, t) in &rows {
                    source.append_cards(s);
                    copy.append_cards(t, s, &source);
                    plain.append_cards(t);
                }
                let src: ArrayRef = Arc::new(source.finish());
                let ours = copy.finish_from(std::slice::from_ref(&src));
                let want: ArrayRef = Arc::new(plain.finish());
                assert_eq!(&ours, &want, "{differ}");
                assert_eq!(Arc::ptr_eq(&ours, &src), differ == rows.len(), "{differ}");
            }
        }
        // Without a source it is built like a card list.
        let mut alone = CardCopy::with_capacity(1);
        alone.append_cards(Some(&z), None, &CardList::new());
        let a = alone.finish_from(&[]);
        assert_eq!(a.len(), 1);
        assert_eq!(a.null_count(), 0);
    }

    #[test]
    fn cards_by_name_same_array_as_arrows_builder() {
        let hand = [c("CA"), c("DT"), c("H9")];
        let one = [c("SQ")];
        let rows: Vec<Option<&[Card]>> = vec![Some(&hand), None, Some(&[]), Some(&one)];
        let mut ours = CardList::with_capacity(1);
        let mut theirs = ListBuilder::new(StringBuilder::new());
        // Mixed with lists appended by strings, as the tricks table does.
        ours.append(Some(["X", "ten"]));
        crate::columns::table::append_strs(&mut theirs, Some(["X", "ten"]));
        for r in &rows {
            ours.append_cards(*r);
            let names = r.map(|h| h.iter().map(|c| c.as_str()).collect::<Vec<_>>());
            crate::columns::table::append_strs(&mut theirs, names);
        }
        // Lists that may hold unknown cards: appended only when all are known.
        let known = [Some(c("CJ")), Some(c("HA"))];
        assert!(ours.append_known(&known));
        crate::columns::table::append_strs(&mut theirs, Some(["CJ", "HA"]));
        assert!(!ours.append_known(&[Some(c("CJ")), None]));
        assert!(ours.append_known::<Card>(&[]));
        crate::columns::table::append_strs(&mut theirs, Some([""; 0]));
        let a = ours.finish();
        assert_eq!(a, theirs.finish());
        assert_eq!(a.len(), 7);
        assert_eq!(a.null_count(), 1);
        let items = a.values().as_any().downcast_ref::<StringArray>().unwrap();
        let all: Vec<&str> = items.iter().map(Option::unwrap).collect();
        assert_eq!(all, ["X", "ten", "CA", "DT", "H9", "SQ", "CJ", "HA"]);
    }
}
