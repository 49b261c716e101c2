//! How much column data a parse built: the values and the bytes of Arrow
//! arrays (`deckhand bench` reports both, per input byte).

use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch};
use arrow_schema::{ArrowError, DataType};

/// Column data counted over any number of batches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// Leaf values, nulls included (see [`leaf_values`]).
    pub values: u64,
    /// Bytes of the arrays' buffers that their rows use (values, offsets,
    /// validity bitmaps), as Arrow's `get_slice_memory_size` counts them
    /// (the parser's batches are whole arrays, not slices).
    pub bytes: u64,
}

impl Size {
    /// Adds a batch's columns. Fails on a type Arrow cannot size (none of
    /// deckhand's tables has one).
    pub fn add(&mut self, batch: &RecordBatch) -> Result<(), ArrowError> {
        for c in batch.columns() {
            self.values += leaf_values(c.as_ref()) as u64;
            self.bytes += c.to_data().get_slice_memory_size()? as u64;
        }
        Ok(())
    }
}

/// The leaf values an array holds, nulls included: its length for a flat
/// array, the leaf values of the items its lists cover for a list (an empty
/// or null list holds none), the sum of its fields for a struct.
pub fn leaf_values(a: &dyn Array) -> usize {
    match a.data_type() {
        DataType::List(_) => {
            let list = a.as_list::<i32>();
            let o = list.value_offsets();
            let (start, end) = (o[0] as usize, o[o.len() - 1] as usize);
            leaf_values(list.values().slice(start, end - start).as_ref())
        }
        DataType::Struct(_) => a
            .as_struct()
            .columns()
            .iter()
            .map(|c| leaf_values(c.as_ref()))
            .sum(),
        _ => a.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::builder::{ListBuilder, StringBuilder};
    use arrow_array::{ArrayRef, Int32Array, StructArray};
    use arrow_schema::Field;
    use std::sync::Arc;

    fn lists() -> ArrayRef {
        // ["a", "b"], null, [], ["c", null, "d"]
        let mut b = ListBuilder::new(StringBuilder::new());
        b.values().append_value("a");
        b.values().append_value("b");
        b.append(true);
        b.append(false);
        b.append(true);
        b.values().append_value("c");
        b.values().append_null();
        b.values().append_value("d");
        b.append(true);
        Arc::new(b.finish())
    }

    #[test]
    fn flat_arrays_count_their_rows_and_lists_their_items() {
        assert_eq!(
            leaf_values(&Int32Array::from(vec![Some(1), None, Some(3)])),
            3
        );
        let l = lists();
        assert_eq!(leaf_values(l.as_ref()), 5);
        // A slice counts only the items of its own lists.
        assert_eq!(leaf_values(l.slice(1, 3).as_ref()), 3);
        assert_eq!(leaf_values(l.slice(1, 2).as_ref()), 0);
    }

    #[test]
    fn structs_count_every_field() {
        let s = StructArray::from(vec![
            (
                Arc::new(Field::new("n", DataType::Int32, true)),
                Arc::new(Int32Array::from(vec![1, 2, 3, 4])) as ArrayRef,
            ),
            (
                Arc::new(Field::new("l", lists().data_type().clone(), true)),
                lists(),
            ),
        ]);
        assert_eq!(leaf_values(&s), 4 + 5);
        assert_eq!(leaf_values(&s.slice(3, 1)), 1 + 3);
    }

    #[test]
    fn size_adds_values_and_bytes_of_every_column() {
        let n: ArrayRef = Arc::new(Int32Array::from(vec![1, 2, 3, 4]));
        let batch = RecordBatch::try_from_iter([("n", n), ("l", lists())]).unwrap();
        let mut size = Size::default();
        size.add(&batch).unwrap();
        size.add(&batch).unwrap();
        assert_eq!(size.values, 2 * (4 + 5));
        // Int32: 4 bytes a row, no bitmap (no nulls). The lists: 5 offsets
        // of 4 bytes and a bitmap byte; their items: 6 offsets, "abcd" and
        // a bitmap byte.
        assert_eq!(size.bytes, 2 * (16 + (5 * 4 + 1) + (6 * 4 + 4 + 1)));
    }
}
