//! Reading the tables back: typed access to a batch's columns by name,
//! for the exports that write a notation from the rows `convert` builds.

use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type};
use arrow_array::{Array, RecordBatch};
use rustc_hash::FxHashMap;

/// Typed access to one batch's columns by name (looked up in a map made
/// once a batch: a hand reads about sixty columns, and the schema's own
/// lookup compares the name with every field before it). Loops over a
/// child table's rows take their columns once, as [`Col`]s.
pub struct Cols<'b> {
    batch: &'b RecordBatch,
    index: FxHashMap<&'b str, usize>,
}

impl<'b> Cols<'b> {
    pub fn new(batch: &'b RecordBatch) -> Self {
        let index = (batch.schema_ref().fields().iter().enumerate())
            .map(|(i, f)| (f.name().as_str(), i))
            .collect();
        Cols { batch, index }
    }
    pub fn num_rows(&self) -> usize {
        self.batch.num_rows()
    }
    pub fn col(&self, name: &str) -> Col<'b> {
        let i = *self
            .index
            .get(name)
            .unwrap_or_else(|| panic!("column {name}"));
        Col(self.batch.column(i).as_ref())
    }
    pub fn str(&self, name: &str, i: usize) -> Option<&'b str> {
        self.col(name).str(i)
    }
    pub fn i32(&self, name: &str, i: usize) -> Option<i32> {
        self.col(name).i32(i)
    }
    pub fn u64(&self, name: &str, i: usize) -> u64 {
        self.col(name).u64(i)
    }
    pub fn bool(&self, name: &str, i: usize) -> Option<bool> {
        self.col(name).bool(i)
    }
    pub fn date(&self, name: &str, i: usize) -> Option<i32> {
        self.col(name).date(i)
    }
    pub fn strs(&self, name: &str, i: usize) -> Option<Vec<&'b str>> {
        self.col(name).strs(i)
    }
    pub fn i32s(&self, name: &str, i: usize) -> Option<Vec<Option<i32>>> {
        self.col(name).i32s(i)
    }
    pub fn kvs(&self, name: &str, i: usize) -> Vec<(&'b str, Option<&'b str>)> {
        self.col(name).kvs(i)
    }
}

/// One column, read row by row.
#[derive(Clone, Copy)]
pub struct Col<'b>(pub &'b dyn Array);

impl<'b> Col<'b> {
    pub fn str(self, i: usize) -> Option<&'b str> {
        let c = self.0.as_string::<i32>();
        c.is_valid(i).then(|| c.value(i))
    }
    pub fn i32(self, i: usize) -> Option<i32> {
        let c = self.0.as_primitive::<Int32Type>();
        c.is_valid(i).then(|| c.value(i))
    }
    pub fn u64(self, i: usize) -> u64 {
        self.0.as_primitive::<Int64Type>().value(i) as u64
    }
    pub fn bool(self, i: usize) -> Option<bool> {
        let c = self.0.as_boolean();
        c.is_valid(i).then(|| c.value(i))
    }
    pub fn date(self, i: usize) -> Option<i32> {
        let c = self.0.as_primitive::<arrow_array::types::Date32Type>();
        c.is_valid(i).then(|| c.value(i))
    }
    /// The list's values array and the range of row `i` in it.
    pub fn list(self, i: usize) -> Option<(&'b dyn Array, std::ops::Range<usize>)> {
        let c = self.0.as_list::<i32>();
        if !c.is_valid(i) {
            return None;
        }
        let o = c.value_offsets();
        Some((c.values().as_ref(), o[i] as usize..o[i + 1] as usize))
    }
    pub fn strs(self, i: usize) -> Option<Vec<&'b str>> {
        let (values, range) = self.list(i)?;
        let v = values.as_string::<i32>();
        Some(
            range
                .map(|j| if v.is_valid(j) { v.value(j) } else { "?" })
                .collect(),
        )
    }
    pub fn i32s(self, i: usize) -> Option<Vec<Option<i32>>> {
        let (values, range) = self.list(i)?;
        let v = values.as_primitive::<Int32Type>();
        Some(range.map(|j| v.is_valid(j).then(|| v.value(j))).collect())
    }
    pub fn kvs(self, i: usize) -> Vec<(&'b str, Option<&'b str>)> {
        let Some((values, range)) = self.list(i) else {
            return Vec::new();
        };
        let s = values.as_struct();
        let names = s.column(0).as_string::<i32>();
        let values = s.column(1).as_string::<i32>();
        range
            .map(|j| (names.value(j), values.is_valid(j).then(|| values.value(j))))
            .collect()
    }
}
