//! A builder for lists of cards (`List<Utf8>` whose items are two-byte
//! names like `CA`): the values, their offsets and the list offsets are plain
//! vectors, so appending a card is two byte pushes and an offset push. Arrow's
//! `ListBuilder<StringBuilder>` makes a call (and a `memcpy` call) per item,
//! which was 57 instructions a card, and cards are most of the values written.

use std::sync::Arc;

use arrow_array::{Array, ArrayRef, ListArray, StringArray};
use arrow_buffer::{NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field};

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
        let fresh = CardList::with_capacity(0);
        let CardList {
            bytes,
            items,
            lists,
            mut nulls,
        } = std::mem::replace(self, fresh);
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

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::builder::{ListBuilder, StringBuilder};

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
