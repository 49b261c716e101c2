//! Pinochle's own column builders: meld breakdowns, and cards as the
//! generic card lists write them.

use std::sync::Arc;

use arrow_array::{ArrayRef, Int32Array, ListArray, StructArray};
use arrow_schema::{DataType, Field, Fields};

use super::card::{self, Card};
use super::rules::meld::MeldItem;
use crate::columns::lists::{CardName, Lists, item_field};
use crate::columns::strings::Strings;

impl CardName for Card {
    #[inline(always)]
    fn name(self) -> [u8; 2] {
        Card::name(self)
    }

    #[inline]
    fn same(a: &[Card], b: &[Card]) -> bool {
        card::as_bytes(a) == card::as_bytes(b)
    }
}

/// The fields of a meld breakdown's items.
pub fn meld_fields() -> Fields {
    Fields::from(vec![
        Field::new("meld", DataType::Utf8, false),
        Field::new("count", DataType::Int32, false),
        Field::new("points", DataType::Int32, false),
    ])
}

/// A builder for meld breakdowns: `List<Struct{meld, count, points}>`
/// (the fields of [`meld_fields`]), one vector per field, where Arrow's
/// `StructBuilder` looks up each field's builder by downcasting per value.
#[derive(Debug)]
pub struct MeldList {
    names: Strings,
    counts: Vec<i32>,
    points: Vec<i32>,
    lists: Lists,
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
        MeldList {
            names: Strings::with_capacity(rows * 4, rows * 40),
            counts: Vec::with_capacity(rows * 4),
            points: Vec::with_capacity(rows * 4),
            lists: Lists::with_capacity(rows),
        }
    }

    /// Appends a breakdown, or null.
    pub fn append(&mut self, items: Option<&[MeldItem]>) {
        for m in items.unwrap_or_default() {
            self.names.push(m.kind.as_str());
            self.counts.push(m.count as i32);
            self.points.push(m.points);
        }
        self.lists.push(items.is_some(), self.counts.len());
    }

    pub fn len(&self) -> usize {
        self.lists.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn item_type() -> DataType {
        DataType::Struct(meld_fields())
    }

    pub fn data_type() -> DataType {
        DataType::List(item_field(Self::item_type()))
    }

    /// The breakdowns appended so far; the builder is left empty.
    pub fn finish(&mut self) -> ListArray {
        let MeldList {
            names,
            counts,
            points,
            lists,
        } = std::mem::take(self);
        let fields: Fields = meld_fields();
        let items = StructArray::new(
            fields,
            vec![
                Arc::new(names.finish(None)) as ArrayRef,
                Arc::new(Int32Array::from(counts)),
                Arc::new(Int32Array::from(points)),
            ],
            None,
        );
        lists.finish(Self::item_type(), Arc::new(items))
    }
}

impl crate::columns::table::Column for MeldList {
    fn data_type() -> DataType {
        MeldList::data_type()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;
    use arrow_array::builder::{ListBuilder, StringBuilder, StructBuilder};

    /// Arrow's own builders, as the reference.
    fn new_meld_list() -> ListBuilder<StructBuilder> {
        ListBuilder::new(StructBuilder::from_fields(meld_fields(), 0))
    }

    /// Appends a meld breakdown, or null.
    fn append_melds(b: &mut ListBuilder<StructBuilder>, items: Option<&[MeldItem]>) {
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
        use crate::games::pinochle::rules::meld::MeldKind;
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
}
