//! Rows handed to the Parquet writer together, kept as slices of the batches
//! they arrived in. The writer takes rows in runs of a fixed size (so that
//! pages and row groups are cut the same wherever the batches meet), and
//! concatenating each run into one batch copied every value once more
//! (about 3% of a convert's instructions); only the columns left to the
//! Arrow writer are still joined, and only when a run spans batches.

use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::ArrowError;

/// Rows of one table in order, as slices of the batches they came in.
#[derive(Clone, Debug, Default)]
pub(super) struct Parts {
    batches: Vec<RecordBatch>,
    rows: usize,
}

impl Parts {
    /// Appends a batch's rows (an empty batch adds nothing).
    pub fn push(&mut self, batch: RecordBatch) {
        if batch.num_rows() > 0 {
            self.rows += batch.num_rows();
            self.batches.push(batch);
        }
    }

    pub fn num_rows(&self) -> usize {
        self.rows
    }

    /// The first `n` rows (at most all of them), taken out; the rest stay.
    pub fn take_front(&mut self, n: usize) -> Parts {
        let n = n.min(self.rows);
        let mut front = Parts::default();
        let mut rest = Vec::new();
        for b in self.batches.drain(..) {
            let need = n - front.rows;
            if need == 0 {
                rest.push(b);
            } else if b.num_rows() <= need {
                front.push(b);
            } else {
                front.push(b.slice(0, need));
                rest.push(b.slice(need, b.num_rows() - need));
            }
        }
        self.batches = rest;
        self.rows -= n;
        front
    }

    /// Rows `offset..offset + len` (within the rows there are).
    pub fn slice(&self, offset: usize, len: usize) -> Parts {
        let mut out = Parts::default();
        let mut start = 0;
        for b in &self.batches {
            let end = start + b.num_rows();
            let (from, to) = (offset.max(start), (offset + len).min(end));
            if from < to {
                out.push(b.slice(from - start, to - from));
            }
            start = end;
        }
        out
    }

    pub fn batches(&self) -> &[RecordBatch] {
        &self.batches
    }

    /// Column `i` of each part.
    pub fn column(&self, i: usize) -> Vec<&dyn Array> {
        self.batches.iter().map(|b| b.column(i).as_ref()).collect()
    }

    /// Column `i` as one array: copied only when the rows span batches.
    pub fn joined_column(&self, i: usize) -> Result<ArrayRef, ArrowError> {
        match self.batches.as_slice() {
            [one] => Ok(one.column(i).clone()),
            _ => arrow_select::concat::concat(&self.column(i)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Int32Array;
    use arrow_schema::{DataType, Field, Schema};
    use std::sync::Arc;

    fn batch(values: std::ops::Range<i32>) -> RecordBatch {
        let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int32, false)]));
        RecordBatch::try_new(schema, vec![Arc::new(Int32Array::from_iter_values(values))]).unwrap()
    }

    fn values(p: &Parts) -> Vec<i32> {
        let joined = p.joined_column(0).unwrap();
        let out: Vec<i32> = (joined.as_any().downcast_ref::<Int32Array>().unwrap())
            .values()
            .to_vec();
        // The parts hold the same rows as the joined column.
        let mut each: Vec<i32> = Vec::new();
        for a in p.column(0) {
            each.extend(a.as_any().downcast_ref::<Int32Array>().unwrap().values());
        }
        assert_eq!(each, out);
        assert_eq!(out.len(), p.num_rows());
        out
    }

    #[test]
    fn rows_are_taken_and_sliced_across_batches() {
        let mut p = Parts::default();
        p.push(batch(0..5));
        p.push(batch(5..5));
        p.push(batch(5..12));
        p.push(batch(12..13));
        assert_eq!(p.batches().len(), 3, "the empty batch is not kept");
        assert_eq!(p.num_rows(), 13);
        assert_eq!(values(&p.slice(3, 6)), (3..9).collect::<Vec<_>>());
        assert_eq!(p.slice(3, 6).batches().len(), 2);
        assert_eq!(values(&p.slice(5, 7)), (5..12).collect::<Vec<_>>());
        assert_eq!(p.slice(5, 7).batches().len(), 1);
        assert_eq!(p.slice(13, 0).num_rows(), 0);
        assert!(p.slice(13, 0).batches().is_empty());
        let front = p.take_front(7);
        assert_eq!(values(&front), (0..7).collect::<Vec<_>>());
        assert_eq!(front.batches().len(), 2);
        assert_eq!(values(&p), (7..13).collect::<Vec<_>>());
        let front = p.take_front(100);
        assert_eq!(values(&front), (7..13).collect::<Vec<_>>());
        assert_eq!(p.num_rows(), 0);
        assert!(p.batches().is_empty());
    }
}
