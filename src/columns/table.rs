//! `table!` declares a table once: its builder struct, its Arrow schema and
//! `finish`, so that the schema and the builders cannot drift apart.

use std::sync::Arc;

use arrow_array::builder::{ListBuilder, StringBuilder, StructBuilder};
use arrow_schema::{DataType, Field, Fields};

pub type StrList = ListBuilder<StringBuilder>;
pub type I32List = ListBuilder<arrow_array::builder::Int32Builder>;
pub type KvList = ListBuilder<StructBuilder>;

pub fn meld_fields() -> Fields {
    Fields::from(vec![
        Field::new("meld", DataType::Utf8, false),
        Field::new("count", DataType::Int32, false),
        Field::new("points", DataType::Int32, false),
    ])
}

pub fn kv_fields() -> Fields {
    Fields::from(vec![
        Field::new("name", DataType::Utf8, false),
        Field::new("value", DataType::Utf8, true),
    ])
}

pub fn list_of(t: DataType) -> DataType {
    DataType::List(Arc::new(Field::new_list_field(t, true)))
}

pub fn new_kv_list() -> KvList {
    ListBuilder::new(StructBuilder::from_fields(kv_fields(), 0))
}

/// Appends a list of `name`/`value` pairs.
pub fn append_kv<'x>(b: &mut KvList, pairs: impl IntoIterator<Item = (&'x str, Option<&'x str>)>) {
    for (name, value) in pairs {
        let s = b.values();
        s.field_builder::<StringBuilder>(0)
            .unwrap()
            .append_value(name);
        s.field_builder::<StringBuilder>(1)
            .unwrap()
            .append_option(value);
        s.append(true);
    }
    b.append(true);
}

/// Appends a list of strings, or null.
pub fn append_strs<S: AsRef<str>>(b: &mut StrList, items: Option<impl IntoIterator<Item = S>>) {
    match items {
        Some(items) => {
            for s in items {
                b.values().append_value(s.as_ref());
            }
            b.append(true);
        }
        None => b.append(false),
    }
}

/// Appends a list of integers (items may be null), or a null list.
pub fn append_i32s(b: &mut I32List, items: Option<impl IntoIterator<Item = Option<i32>>>) {
    match items {
        Some(items) => {
            for x in items {
                b.values().append_option(x);
            }
            b.append(true);
        }
        None => b.append(false),
    }
}

macro_rules! col_builder {
    (u64) => {
        $crate::columns::prims::PrimBuilder<arrow_array::types::UInt64Type>
    };
    (i32) => {
        $crate::columns::prims::PrimBuilder<arrow_array::types::Int32Type>
    };
    (bool) => {
        arrow_array::builder::BooleanBuilder
    };
    (date) => {
        $crate::columns::prims::PrimBuilder<arrow_array::types::Date32Type>
    };
    (str) => {
        $crate::columns::strings::StrBuilder
    };
    (strs) => {
        $crate::columns::table::StrList
    };
    (cards) => {
        $crate::columns::lists::CardList
    };
    (copy) => {
        $crate::columns::lists::CardCopy
    };
    (i32s) => {
        $crate::columns::table::I32List
    };
    (kvs) => {
        $crate::columns::table::KvList
    };
    (melds) => {
        $crate::columns::lists::MeldList
    };
}

macro_rules! col_new {
    (kvs) => {
        $crate::columns::table::new_kv_list()
    };
    (melds) => {
        $crate::columns::lists::MeldList::new()
    };
    (strs) => {
        arrow_array::builder::ListBuilder::new(arrow_array::builder::StringBuilder::new())
    };
    (i32s) => {
        arrow_array::builder::ListBuilder::new(arrow_array::builder::Int32Builder::new())
    };
    ($k:ident) => {
        <col_builder!($k)>::new()
    };
}

/// A builder sized for `$n` rows (lists guessed at 20 items, strings at 8 bytes).
macro_rules! col_cap {
    (kvs, $n:expr) => {
        arrow_array::builder::ListBuilder::with_capacity(
            arrow_array::builder::StructBuilder::from_fields(
                $crate::columns::table::kv_fields(),
                0,
            ),
            $n,
        )
    };
    (melds, $n:expr) => {
        $crate::columns::lists::MeldList::with_capacity($n)
    };
    (cards, $n:expr) => {
        $crate::columns::lists::CardList::with_capacity($n)
    };
    (copy, $n:expr) => {
        $crate::columns::lists::CardCopy::with_capacity($n)
    };
    (strs, $n:expr) => {
        arrow_array::builder::ListBuilder::with_capacity(
            arrow_array::builder::StringBuilder::with_capacity($n * 20, $n * 40),
            $n,
        )
    };
    (i32s, $n:expr) => {
        arrow_array::builder::ListBuilder::with_capacity(
            arrow_array::builder::Int32Builder::with_capacity($n * 2),
            $n,
        )
    };
    (str, $n:expr) => {
        $crate::columns::strings::StrBuilder::with_capacity($n, $n * 8)
    };
    ($k:ident, $n:expr) => {
        <col_builder!($k)>::with_capacity($n)
    };
}

macro_rules! col_type {
    (u64) => {
        arrow_schema::DataType::UInt64
    };
    (i32) => {
        arrow_schema::DataType::Int32
    };
    (bool) => {
        arrow_schema::DataType::Boolean
    };
    (date) => {
        arrow_schema::DataType::Date32
    };
    (str) => {
        arrow_schema::DataType::Utf8
    };
    (strs) => {
        $crate::columns::table::list_of(arrow_schema::DataType::Utf8)
    };
    (cards) => {
        $crate::columns::lists::CardList::data_type()
    };
    (copy) => {
        $crate::columns::lists::CardList::data_type()
    };
    (i32s) => {
        $crate::columns::table::list_of(arrow_schema::DataType::Int32)
    };
    (kvs) => {
        $crate::columns::table::list_of(arrow_schema::DataType::Struct(
            $crate::columns::table::kv_fields(),
        ))
    };
    (melds) => {
        $crate::columns::table::list_of(arrow_schema::DataType::Struct(
            $crate::columns::table::meld_fields(),
        ))
    };
}

/// `table!(Name, "table", { column: kind [required], ... })`
macro_rules! table {
    ($(#[$m:meta])* $name:ident, $table:literal, { $($col:ident : $kind:ident $($req:ident)?),* $(,)? }) => {
        $(#[$m])*
        pub struct $name {
            $(pub $col: col_builder!($kind),)*
        }

        impl Default for $name {
            fn default() -> Self {
                Self { $($col: col_new!($kind),)* }
            }
        }

        impl $name {
            pub const TABLE: &'static str = $table;

            /// Builders sized for about `rows` rows, so they rarely grow.
            pub fn with_rows(rows: usize) -> Self {
                Self { $($col: col_cap!($kind, rows),)* }
            }

            pub fn schema() -> arrow_schema::SchemaRef {
                static SCHEMA: std::sync::OnceLock<arrow_schema::SchemaRef> = std::sync::OnceLock::new();
                SCHEMA
                    .get_or_init(|| {
                        std::sync::Arc::new(arrow_schema::Schema::new(vec![
                            $(arrow_schema::Field::new(
                                stringify!($col),
                                col_type!($kind),
                                !table!(@req $($req)?),
                            ),)*
                        ]))
                    })
                    .clone()
            }

            pub fn finish(&mut self) -> Result<arrow_array::RecordBatch, arrow_schema::ArrowError> {
                let mut columns: Vec<arrow_array::ArrayRef> = Vec::new();
                $(
                    let column = table!(@finish $kind, self.$col, columns);
                    columns.push(column);
                )*
                arrow_array::RecordBatch::try_new(Self::schema(), columns)
            }
        }
    };
    // A copy column may be its source's array (`CardCopy`).
    (@finish copy, $b:expr, $done:ident) => { $b.finish_from(&$done) };
    (@finish $kind:ident, $b:expr, $done:ident) => {
        std::sync::Arc::new($b.finish()) as arrow_array::ArrayRef
    };
    (@req required) => { true };
    (@req) => { false };
}
