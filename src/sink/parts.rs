//! Rows handed to the Parquet writer together, kept as slices of the batches
//! they arrived in. The writer takes rows in runs cut by the rows alone (a
//! fixed number of them, or fewer where their values reach a number of
//! bytes; so that pages and row groups are cut the same wherever the batches
//! meet), and
//! concatenating each run into one batch copied every value once more
//! (about 3% of a convert's instructions); only the columns left to the
//! Arrow writer are still joined, and only when a run spans batches.

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType};

/// Rows of one table in order, as slices of the batches they came in.
#[derive(Clone, Debug, Default)]
pub(super) struct Parts {
    batches: Vec<RecordBatch>,
    rows: usize,
    /// [`value_bytes`] of all the rows held.
    bytes: usize,
}

/// The bytes of the values in rows `offset..offset + len` of `a`, at any
/// depth: a string's bytes, a fixed-width value's width (a boolean one
/// byte), a list's items, a struct's fields; nulls, offsets and validity
/// count nothing. A function of the rows' content alone, and additive: the
/// rows of two slices count what the rows of the whole do.
pub(super) fn value_bytes(a: &dyn Array, offset: usize, len: usize) -> usize {
    if len == 0 {
        return 0;
    }
    match a.data_type() {
        DataType::Utf8 => {
            let o = a.as_string::<i32>().value_offsets();
            (o[offset + len] - o[offset]) as usize
        }
        DataType::List(_) => {
            let l = a.as_list::<i32>();
            let o = l.value_offsets();
            let (start, end) = (o[offset] as usize, o[offset + len] as usize);
            value_bytes(l.values().as_ref(), start, end - start)
        }
        DataType::Struct(_) => a
            .as_struct()
            .columns()
            .iter()
            .map(|c| value_bytes(c.as_ref(), offset, len))
            .sum(),
        DataType::Boolean => len,
        t => t.primitive_width().unwrap_or(0) * len,
    }
}

/// [`value_bytes`] of rows `offset..offset + len` of every column.
fn batch_bytes(b: &RecordBatch, offset: usize, len: usize) -> usize {
    b.columns()
        .iter()
        .map(|c| value_bytes(c.as_ref(), offset, len))
        .sum()
}

impl Parts {
    /// Appends a batch's rows (an empty batch adds nothing).
    pub fn push(&mut self, batch: RecordBatch) {
        if batch.num_rows() > 0 {
            self.rows += batch.num_rows();
            self.bytes += batch_bytes(&batch, 0, batch.num_rows());
            self.batches.push(batch);
        }
    }

    pub fn num_rows(&self) -> usize {
        self.rows
    }

    /// [`value_bytes`] of the rows held.
    #[cfg(test)]
    pub fn value_bytes(&self) -> usize {
        self.bytes
    }

    /// The length of the first run of rows: `rows` rows, or fewer when the
    /// [`value_bytes`] of the rows so far reach `bytes` (the run ends with
    /// the row that reaches it); None while the rows held end before either.
    /// As the measure is the rows' own, the runs are the same wherever the
    /// batches meet.
    pub fn run_len(&self, rows: usize, bytes: usize) -> Option<usize> {
        if self.bytes < bytes {
            return (self.rows >= rows).then_some(rows);
        }
        let (mut seen, mut acc) = (0, 0);
        for b in &self.batches {
            if seen >= rows {
                break;
            }
            let n = b.num_rows();
            let all = batch_bytes(b, 0, n);
            if acc + all >= bytes {
                // The fewest rows of `b` that reach `bytes`: at least one.
                let (mut lo, mut hi) = (1, n);
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    if acc + batch_bytes(b, 0, mid) >= bytes {
                        hi = mid;
                    } else {
                        lo = mid + 1;
                    }
                }
                return Some((seen + lo).min(rows));
            }
            acc += all;
            seen += n;
        }
        (self.rows >= rows).then_some(rows)
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
        self.bytes -= front.bytes;
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
    use arrow_array::builder::{ListBuilder, StringBuilder};
    use arrow_array::{BooleanArray, Int32Array, StringArray, StructArray};
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

    /// One column of strings, the lengths given (0: null).
    fn strings(lens: &[usize]) -> RecordBatch {
        let schema = Arc::new(Schema::new(vec![Field::new("s", DataType::Utf8, true)]));
        let a: StringArray = lens
            .iter()
            .map(|&n| (n > 0).then(|| "x".repeat(n)))
            .collect();
        RecordBatch::try_new(schema, vec![Arc::new(a)]).unwrap()
    }

    #[test]
    fn value_bytes_count_the_values_of_the_rows_asked() {
        let s = StringArray::from(vec![Some("ab"), None, Some("cde"), Some("")]);
        assert_eq!(value_bytes(&s, 0, 4), 5);
        assert_eq!(value_bytes(&s, 1, 2), 3);
        assert_eq!(value_bytes(&s.slice(2, 2), 0, 1), 3);
        let ints = Int32Array::from(vec![1, 2, 3]);
        assert_eq!(value_bytes(&ints, 1, 2), 8);
        assert_eq!(value_bytes(&BooleanArray::from(vec![true, false]), 0, 2), 2);
        // A list counts its items; a struct its fields.
        let mut l = ListBuilder::new(StringBuilder::new());
        l.append_value([Some("CA"), Some("DT")]);
        l.append_null();
        l.append_value([Some("HJJ")]);
        let l = l.finish();
        assert_eq!(value_bytes(&l, 0, 3), 7);
        assert_eq!(value_bytes(&l, 1, 2), 3);
        assert_eq!(value_bytes(&l.slice(2, 1), 0, 1), 3);
        let st = StructArray::from(vec![
            (
                Arc::new(Field::new("a", DataType::Utf8, true)),
                Arc::new(s.clone()) as ArrayRef,
            ),
            (
                Arc::new(Field::new("b", DataType::Int32, true)),
                Arc::new(Int32Array::from(vec![1, 2, 3, 4])) as ArrayRef,
            ),
        ]);
        assert_eq!(value_bytes(&st, 0, 4), 5 + 16);
        assert_eq!(value_bytes(&st.slice(2, 2), 0, 2), 3 + 8);
        assert_eq!(value_bytes(&st, 3, 0), 0);
    }

    /// The run lengths `run_len` gives for `lens` pushed in batches of the
    /// sizes `cuts` (the rest in one batch), taking each run as it comes.
    fn runs(lens: &[usize], cuts: &[usize], rows: usize, bytes: usize) -> Vec<usize> {
        let mut p = Parts::default();
        let mut out = Vec::new();
        let mut at = 0;
        let mut take = |p: &mut Parts| {
            while let Some(n) = p.run_len(rows, bytes) {
                let front = p.take_front(n);
                assert_eq!(front.num_rows(), n);
                out.push(n);
            }
        };
        for &c in cuts.iter().chain([lens.len()].iter()) {
            let end = c.min(lens.len());
            if end > at {
                p.push(strings(&lens[at..end]));
                at = end;
                take(&mut p);
                assert!(p.value_bytes() < bytes && p.num_rows() < rows);
            }
        }
        out.push(p.num_rows());
        out
    }

    #[test]
    fn runs_end_at_their_rows_or_at_the_row_that_reaches_the_bytes() {
        let lens = [10, 0, 30, 5, 60, 1, 1, 1, 1, 100, 1, 2, 3];
        // Rows 0-2 reach 40 bytes; 3-4 reach 65; then 4 rows of one byte;
        // 100 alone; the last three rows are left over.
        let want = vec![3, 2, 4, 1, 3];
        for cuts in [
            &[][..],
            &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
            &[4, 11],
            &[7],
        ] {
            let mut cuts = cuts.to_vec();
            cuts.sort();
            assert_eq!(runs(&lens, &cuts, 4, 40), want, "batches cut at {cuts:?}");
        }
        // Without large values the runs are cut by rows alone.
        assert_eq!(runs(&[1; 10], &[3], 4, 1 << 20), vec![4, 4, 2]);
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
