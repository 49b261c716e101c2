//! Integer and date columns for the hot path: the values are a plain vector
//! and the validity a [`Validity`], pushed inline.
//!
//! Arrow's `PrimitiveBuilder::append_option` is a call of about 33
//! instructions (its null buffer builder checks and grows a byte at a
//! time), and a hand appends about 60 such values.

use arrow_array::PrimitiveArray;
use arrow_array::types::ArrowPrimitiveType;
use arrow_buffer::ScalarBuffer;

use super::strings::Validity;

/// A nullable primitive column with the methods of Arrow's
/// `PrimitiveBuilder` that the table builders use.
#[derive(Debug)]
pub struct PrimBuilder<T: ArrowPrimitiveType> {
    values: Vec<T::Native>,
    nulls: Validity,
}

impl<T: ArrowPrimitiveType> Default for PrimBuilder<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: ArrowPrimitiveType> PrimBuilder<T> {
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    pub fn with_capacity(rows: usize) -> Self {
        PrimBuilder {
            values: Vec::with_capacity(rows),
            nulls: Validity::with_capacity(rows),
        }
    }

    #[inline(always)]
    pub fn append_value(&mut self, v: T::Native) {
        self.values.push(v);
        self.nulls.push(true);
    }

    /// Appends the values of `v`, none null.
    #[inline]
    pub fn extend_values(&mut self, v: impl ExactSizeIterator<Item = T::Native>) {
        let n = v.len();
        self.values.extend(v);
        self.nulls.push_valid(n);
    }

    /// A null: its slot holds the default value, as in Arrow's builder.
    #[inline(always)]
    pub fn append_null(&mut self) {
        self.values.push(T::Native::default());
        self.nulls.push(false);
    }

    #[inline(always)]
    pub fn append_option(&mut self, v: Option<T::Native>) {
        match v {
            Some(v) => self.append_value(v),
            None => self.append_null(),
        }
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The values appended so far (no null buffer when none is null); the
    /// builder is left empty.
    pub fn finish(&mut self) -> PrimitiveArray<T> {
        let PrimBuilder { values, mut nulls } = std::mem::take(self);
        PrimitiveArray::new(ScalarBuffer::from(values), nulls.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;
    use arrow_array::builder::PrimitiveBuilder;
    use arrow_array::types::{Date32Type, Int32Type, UInt64Type};
    use proptest::prelude::*;

    #[test]
    fn nulls_hold_the_default_and_all_valid_has_no_null_buffer() {
        let mut b = PrimBuilder::<Int32Type>::with_capacity(1);
        b.append_value(-7);
        b.append_null();
        b.append_option(Some(3));
        assert_eq!(b.len(), 3);
        let a = b.finish();
        assert!(b.is_empty());
        assert_eq!(a.values().as_ref(), &[-7, 0, 3]);
        assert_eq!(a.null_count(), 1);
        assert!(a.is_null(1));
        let mut b = PrimBuilder::<UInt64Type>::new();
        b.append_value(u64::MAX);
        let a = b.finish();
        assert!(a.nulls().is_none());
        assert_eq!(a.value(0), u64::MAX);
    }

    #[test]
    fn extended_values_are_valid_values() {
        let mut b = PrimBuilder::<Int32Type>::with_capacity(1);
        b.append_null();
        b.extend_values(1..71);
        b.append_option(Some(-1));
        let a = b.finish();
        assert_eq!(a.len(), 72);
        assert_eq!(a.null_count(), 1);
        assert!(a.is_null(0));
        assert_eq!(a.value(1), 1);
        assert_eq!(a.value(70), 70);
        assert_eq!(a.value(71), -1);
        let mut b = PrimBuilder::<UInt64Type>::new();
        b.extend_values(std::iter::repeat_n(9, 3));
        let a = b.finish();
        assert!(a.nulls().is_none());
        assert_eq!(a.values().as_ref(), &[9, 9, 9]);
    }

    proptest! {
        #[test]
        fn same_arrays_as_arrow(items in prop::collection::vec(prop::option::of(any::<i32>()), 0..200)) {
            let mut ours = PrimBuilder::<Int32Type>::with_capacity(3);
            let mut theirs = PrimitiveBuilder::<Int32Type>::new();
            let mut ours_d = PrimBuilder::<Date32Type>::new();
            let mut theirs_d = PrimitiveBuilder::<Date32Type>::new();
            for &i in &items {
                ours.append_option(i);
                theirs.append_option(i);
                ours_d.append_option(i);
                theirs_d.append_option(i);
            }
            prop_assert_eq!(ours.finish(), theirs.finish());
            prop_assert_eq!(ours_d.finish(), theirs_d.finish());
        }
    }
}
