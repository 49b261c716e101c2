//! Builders for the list columns written most: lists of cards, and meld
//! breakdowns.
//!
//! [`CardList`] builds lists of cards (`List<Utf8>` whose items are two-byte
//! names like `CA`): the values, their offsets and the list offsets are plain
//! vectors, so appending a card is two byte pushes and an offset push. Arrow's
//! `ListBuilder<StringBuilder>` makes a call (and a `memcpy` call) per item,
//! which was 57 instructions a card, and cards are most of the values written.

use std::sync::Arc;

use arrow_array::{Array, ArrayRef, Int32Array, ListArray, StringArray, StructArray};
use arrow_buffer::{NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field};

use crate::pinochle::rules::meld::MeldItem;

#[derive(Debug)]
pub struct CardList {
    bytes: Vec<u8>,
    /// Item offsets into `bytes`, starting with 0.
    items: Vec<i32>,
    /// List offsets into `items`, starting with 0.
    lists: Vec<i32>,
    nulls: NullBufferBuilder,
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

    /// Room for `rows` lists of about 20 cards.
    pub fn with_capacity(rows: usize) -> Self {
        let mut items = Vec::with_capacity(rows * 20 + 1);
        items.push(0);
        let mut lists = Vec::with_capacity(rows + 1);
        lists.push(0);
        CardList {
            bytes: Vec::with_capacity(rows * 40),
            items,
            lists,
            nulls: NullBufferBuilder::new(rows),
        }
    }

    /// Appends a list (of any strings; cards are the fast case), or null.
    #[inline]
    pub fn append<S: AsRef<str>>(&mut self, items: Option<impl IntoIterator<Item = S>>) {
        match items {
            Some(items) => {
                for s in items {
                    self.push_item(s.as_ref().as_bytes());
                }
                self.nulls.append_non_null();
            }
            None => self.nulls.append_null(),
        }
        self.lists.push(self.items.len() as i32 - 1);
    }

    #[inline]
    fn push_item(&mut self, s: &[u8]) {
        if let [a, b] = *s {
            self.bytes.extend_from_slice(&[a, b]);
        } else {
            self.bytes.extend_from_slice(s);
        }
        self.items.push(self.bytes.len() as i32);
    }

    pub fn len(&self) -> usize {
        self.lists.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The Arrow type: a list of nullable strings, as `table::list_of(Utf8)`.
    pub fn data_type() -> DataType {
        DataType::List(Arc::new(Field::new_list_field(DataType::Utf8, true)))
    }

    /// The lists appended so far; the builder is left empty.
    pub fn finish(&mut self) -> ListArray {
        let rows = self.len();
        let CardList {
            bytes,
            items,
            lists,
            mut nulls,
        } = std::mem::take(self);
        assert!(
            i32::try_from(bytes.len()).is_ok() && i32::try_from(items.len()).is_ok(),
            "card list over 2 GiB in one batch"
        );
        // SAFETY: offsets start at 0 and never decrease (each push appends
        // the current length), the last is the length of the data, and every
        // item is the bytes of a `&str`, so each slice is valid UTF-8.
        let values = unsafe {
            StringArray::new_unchecked(
                OffsetBuffer::new_unchecked(ScalarBuffer::from(items)),
                bytes.into(),
                None,
            )
        };
        let list_offsets = unsafe { OffsetBuffer::new_unchecked(ScalarBuffer::from(lists)) };
        let field = Arc::new(Field::new_list_field(DataType::Utf8, true));
        let out = ListArray::new(
            field,
            list_offsets,
            Arc::new(values) as ArrayRef,
            nulls.finish(),
        );
        debug_assert_eq!(out.len(), rows);
        out
    }
}

/// A builder for meld breakdowns: `List<Struct{meld, count, points}>`
/// (the fields of `table::meld_fields`), one vector per field, where Arrow's
/// `StructBuilder` looks up each field's builder by downcasting per value.
#[derive(Debug)]
pub struct MeldList {
    names: Vec<u8>,
    name_offsets: Vec<i32>,
    counts: Vec<i32>,
    points: Vec<i32>,
    lists: Vec<i32>,
    nulls: NullBufferBuilder,
}

impl Default for MeldList {
    fn default() -> Self {
        Self::new()
    }
}

impl MeldList {
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// Room for `rows` breakdowns of about 4 melds.
    pub fn with_capacity(rows: usize) -> Self {
        let mut name_offsets = Vec::with_capacity(rows * 4 + 1);
        name_offsets.push(0);
        let mut lists = Vec::with_capacity(rows + 1);
        lists.push(0);
        MeldList {
            names: Vec::with_capacity(rows * 40),
            name_offsets,
            counts: Vec::with_capacity(rows * 4),
            points: Vec::with_capacity(rows * 4),
            lists,
            nulls: NullBufferBuilder::new(rows),
        }
    }

    /// Appends a breakdown, or null.
    pub fn append(&mut self, items: Option<&[MeldItem]>) {
        match items {
            Some(items) => {
                for m in items {
                    self.names.extend_from_slice(m.kind.as_str().as_bytes());
                    self.name_offsets.push(self.names.len() as i32);
                    self.counts.push(m.count as i32);
                    self.points.push(m.points);
                }
                self.nulls.append_non_null();
            }
            None => self.nulls.append_null(),
        }
        self.lists.push(self.counts.len() as i32);
    }

    pub fn len(&self) -> usize {
        self.lists.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn data_type() -> DataType {
        DataType::List(Arc::new(Field::new_list_field(
            DataType::Struct(crate::columns::table::meld_fields()),
            true,
        )))
    }

    /// The breakdowns appended so far; the builder is left empty.
    pub fn finish(&mut self) -> ListArray {
        let MeldList {
            names,
            name_offsets,
            counts,
            points,
            lists,
            mut nulls,
        } = std::mem::take(self);
        assert!(
            i32::try_from(names.len()).is_ok(),
            "meld names over 2 GiB in one batch"
        );
        // SAFETY: offsets start at 0 and never decrease, the last is the
        // length of the data, and every name is a `&str`.
        let names = unsafe {
            StringArray::new_unchecked(
                OffsetBuffer::new_unchecked(ScalarBuffer::from(name_offsets)),
                names.into(),
                None,
            )
        };
        let items = StructArray::new(
            crate::columns::table::meld_fields(),
            vec![
                Arc::new(names) as ArrayRef,
                Arc::new(Int32Array::from(counts)),
                Arc::new(Int32Array::from(points)),
            ],
            None,
        );
        // SAFETY: as above, list offsets count items and never decrease.
        let offsets = unsafe { OffsetBuffer::new_unchecked(ScalarBuffer::from(lists)) };
        let field = Arc::new(Field::new_list_field(
            DataType::Struct(crate::columns::table::meld_fields()),
            true,
        ));
        ListArray::new(field, offsets, Arc::new(items), nulls.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::builder::{ListBuilder, StringBuilder, StructBuilder};

    /// Arrow's own builders, as the reference.
    fn new_meld_list() -> ListBuilder<StructBuilder> {
        ListBuilder::new(StructBuilder::from_fields(
            crate::columns::table::meld_fields(),
            0,
        ))
    }

    /// Appends a meld breakdown, or null.
    fn append_melds(
        b: &mut ListBuilder<StructBuilder>,
        items: Option<&[crate::pinochle::rules::meld::MeldItem]>,
    ) {
        let Some(items) = items else {
            b.append(false);
            return;
        };
        for m in items {
            let s = b.values();
            s.field_builder::<StringBuilder>(0)
                .unwrap()
                .append_value(m.kind.as_str());
            s.field_builder::<arrow_array::builder::Int32Builder>(1)
                .unwrap()
                .append_value(m.count as i32);
            s.field_builder::<arrow_array::builder::Int32Builder>(2)
                .unwrap()
                .append_value(m.points);
            s.append(true);
        }
        b.append(true);
    }

    #[test]
    fn melds_same_array_as_arrows_builder() {
        use crate::pinochle::rules::meld::MeldKind;
        let a = MeldItem {
            kind: MeldKind::Run,
            count: 1,
            points: 15,
        };
        let b = MeldItem {
            kind: MeldKind::AcesAround,
            count: 2,
            points: 100,
        };
        let rows: Vec<Option<Vec<MeldItem>>> =
            vec![Some(vec![a, b]), None, Some(vec![]), Some(vec![b])];
        let mut ours = MeldList::with_capacity(2);
        let mut theirs = new_meld_list();
        for r in &rows {
            ours.append(r.as_deref());
            append_melds(&mut theirs, r.as_deref());
        }
        assert_eq!(ours.len(), 4);
        let x = ours.finish();
        assert_eq!(x, theirs.finish());
        assert_eq!(x.data_type(), &MeldList::data_type());
        assert_eq!(x.null_count(), 1);
        assert!(ours.is_empty());
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
            ours.append(r.as_ref().map(|v| v.iter()));
            match r {
                Some(v) => {
                    for s in v {
                        theirs.values().append_value(s);
                    }
                    theirs.append(true);
                }
                None => theirs.append(false),
            }
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
}
