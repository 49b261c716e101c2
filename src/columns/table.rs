//! `table!` declares a table once: its builder struct, its Arrow schema,
//! `finish`, and a [`TableDecl`] with a line of meaning and the storage hints
//! of every column, so that the schema, the builders, the sink's encodings and
//! the documentation (`deckhand schema`, `docs/tables.md`) cannot drift apart.

use std::sync::Arc;

use arrow_array::builder::{ListBuilder, StringBuilder, StructBuilder};
use arrow_schema::{DataType, Field, Fields};

pub type StrList = ListBuilder<StringBuilder>;
pub type I32List = ListBuilder<arrow_array::builder::Int32Builder>;
pub type KvList = ListBuilder<StructBuilder>;

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

/// How the Parquet sink stores a column, declared with it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hints {
    /// A list of two-byte card names: pages built by the sink itself,
    /// dictionary encoded through a table of every two-byte value.
    pub cards: bool,
    /// Values (nearly) unique in a file, or ascending keys: no dictionary;
    /// integers delta-encoded.
    pub unique: bool,
    /// No min/max statistics (they help no query and cost a comparison a value).
    pub no_stats: bool,
    /// Usually repeats this earlier column row for row (a computed column and
    /// the annotated one): its pages are then copied from the other's.
    pub copy_of: Option<&'static str>,
}

impl Hints {
    pub const NONE: Hints = Hints {
        cards: false,
        unique: false,
        no_stats: false,
        copy_of: None,
    };
    pub const CARDS: Hints = Hints {
        cards: true,
        ..Hints::NONE
    };
    pub const fn unique(self) -> Hints {
        Hints {
            unique: true,
            ..self
        }
    }
    pub const fn no_stats(self) -> Hints {
        Hints {
            no_stats: true,
            ..self
        }
    }
    pub const fn copy_of(self, column: &'static str) -> Hints {
        Hints {
            copy_of: Some(column),
            ..self
        }
    }
}

/// A column of a table: its name, one line of meaning, how it is stored.
#[derive(Clone, Copy, Debug)]
pub struct ColumnDecl {
    pub name: &'static str,
    pub doc: &'static str,
    pub hints: Hints,
}

/// A table: the game it belongs to (None: the `errors` table every game
/// shares), its name, one line of meaning, its Arrow schema and its columns.
/// A game's record table and its child tables have the record key
/// (`hand_id`, `board_id`, ...) as their first column.
#[derive(Debug)]
pub struct TableDecl {
    pub game: Option<&'static str>,
    pub name: &'static str,
    pub doc: &'static str,
    pub schema: fn() -> arrow_schema::SchemaRef,
    pub columns: &'static [ColumnDecl],
}

/// Tables are the same when their game and name are (a declaration is a
/// constant: its address differs from use to use).
impl PartialEq for TableDecl {
    fn eq(&self, other: &TableDecl) -> bool {
        self.game == other.game && self.name == other.name
    }
}

impl TableDecl {
    /// Where the table is written in a dataset: `<game>/<table>`, or the
    /// table's name alone for the shared one.
    pub fn path(&self) -> String {
        match self.game {
            Some(g) => format!("{g}/{}", self.name),
            None => self.name.to_string(),
        }
    }

    /// The declaration of column `name`.
    pub fn column(&self, name: &str) -> Option<&ColumnDecl> {
        self.columns.iter().find(|c| c.name == name)
    }

    /// The meaning of the table, on one line.
    pub fn doc_line(&self) -> String {
        one_line(self.doc)
    }
}

/// Doc comment lines joined into one line.
pub fn one_line(doc: &str) -> String {
    doc.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A column builder of a game's own, named as a column's kind in `table!`
/// (which also calls its `with_capacity(rows)` and `finish()`, returning an
/// Arrow array).
pub trait Column: Default {
    fn data_type() -> arrow_schema::DataType;
}

macro_rules! col_builder {
    (i64) => {
        $crate::columns::prims::PrimBuilder<arrow_array::types::Int64Type>
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
    // A builder type of the table's own module (see `Column`).
    ($t:ident) => {
        $t
    };
}

macro_rules! col_new {
    (kvs) => {
        $crate::columns::table::new_kv_list()
    };
    (strs) => {
        arrow_array::builder::ListBuilder::new(arrow_array::builder::StringBuilder::new())
    };
    (i32s) => {
        arrow_array::builder::ListBuilder::new(arrow_array::builder::Int32Builder::new())
    };
    ($k:ident) => {
        <col_builder!($k)>::default()
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
    (i64) => {
        arrow_schema::DataType::Int64
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
    ($t:ident) => {
        <$t as $crate::columns::table::Column>::data_type()
    };
}

/// The hints a column's kind implies.
macro_rules! col_kind_hints {
    (cards) => {
        $crate::columns::table::Hints::CARDS
    };
    (copy) => {
        $crate::columns::table::Hints::CARDS
    };
    ($k:ident) => {
        $crate::columns::table::Hints::NONE
    };
}

/// A column's hints: its kind's, then each flag's.
macro_rules! col_hints {
    ($h:expr;) => { $h };
    ($h:expr; required $($rest:tt)*) => { col_hints!($h; $($rest)*) };
    ($h:expr; unique $($rest:tt)*) => { col_hints!($h.unique(); $($rest)*) };
    ($h:expr; nostats $($rest:tt)*) => { col_hints!($h.no_stats(); $($rest)*) };
    ($h:expr; same_as ($a:ident) $($rest:tt)*) => { col_hints!($h.copy_of(stringify!($a)); $($rest)*) };
}

/// Whether a column's flags make it non-nullable.
macro_rules! col_required {
    () => { false };
    (required $($rest:ident)*) => { true };
    ($other:ident $($rest:ident)*) => { col_required!($($rest)*) };
}

/// ```text
/// table!(
///     /// The table's meaning.
///     Builder, Some("game"), "table", {
///     /// The column's meaning.
///     column: kind [required] [unique] [nostats] [same_as(other)],
///     ...
/// });
/// ```
/// Kinds: `i64`, `i32`, `bool`, `date`, `str`, `strs`, `i32s`, `kvs`,
/// `cards` (a list of cards), `copy` (a list of cards that usually repeats
/// its `same_as` column) or the name of a [`Column`] type in scope.
macro_rules! table {
    // A record table: its key and the provenance columns every record
    // table has, declared here once, then its own.
    ($(#[doc = $tdoc:literal])* $name:ident, $game:expr, $table:literal, record $key:ident, {
        $($rest:tt)*
    }) => {
        table!($(#[doc = $tdoc])* $name, $game, $table, {
            /// The record's key: input file index << 40 | record index (unique
            /// in a dataset, the same for every run over the same inputs).
            $key: i64 required unique,
            /// The input file, as given or found in a directory.
            source_file: str required,
            /// 0-based position of the record in its file (quarantined records
            /// and blocks of comments alone count; so does each record of
            /// several written without blank lines between them).
            record_index: i64 required unique,
            /// Byte offset of the record's first byte in its (decompressed) file.
            byte_offset: i64 required unique,
            /// 1-based line of the record's first byte.
            line: i64 required unique,
            /// The label of the notation the record was read as.
            notation: str required,
            /// The version its file header declares; null without one (and
            /// for a notation without file headers).
            notation_version: str,
            $($rest)*
        });

        impl $name {
            /// The provenance columns of one record.
            pub fn append_provenance(&mut self, p: &$crate::columns::table::Provenance<'_>) {
                self.$key.append_value(p.id);
                self.source_file.append_value(p.source_file);
                self.record_index.append_value(p.record_index);
                self.byte_offset.append_value(p.byte_offset);
                self.line.append_value(p.line);
                self.notation.append_value(p.notation);
                self.notation_version.append_option(p.notation_version);
            }
        }
    };
    ($(#[doc = $tdoc:literal])* $name:ident, $game:expr, $table:literal, {
        $($(#[doc = $doc:literal])* $col:ident : $kind:ident $($flag:ident $(($arg:ident))?)*),* $(,)?
    }) => {
        $(#[doc = $tdoc])*
        pub struct $name {
            $($(#[doc = $doc])* pub $col: col_builder!($kind),)*
        }

        impl Default for $name {
            fn default() -> Self {
                Self { $($col: col_new!($kind),)* }
            }
        }

        impl $name {
            pub const TABLE: &'static str = $table;

            /// The table's declaration: its game, meaning, schema and columns.
            pub const DECL: $crate::columns::table::TableDecl = $crate::columns::table::TableDecl {
                game: $game,
                name: $table,
                doc: concat!($($tdoc, "\n"),*),
                schema: Self::schema,
                columns: &[$($crate::columns::table::ColumnDecl {
                    name: stringify!($col),
                    doc: concat!($($doc, "\n"),*),
                    hints: col_hints!(col_kind_hints!($kind); $($flag $(($arg))?)*),
                },)*],
            };

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
                                !col_required!($($flag)*),
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
}

/// The builders of a game's tables for one group of records, and the
/// game's table list (`TABLES`: the record table first, the shared
/// `errors` last, the order `finish` gives the batches in):
///
/// ```text
/// game_tables!(
///     /// The builders of every ... table for one group.
///     TABLES, record_key, { record_table: RecordBuilder, child: ChildBuilder, ... });
/// ```
/// `end` gives the rows written so far of the record table (counted by
/// its key column) and of `errors`.
macro_rules! game_tables {
    ($(#[doc = $doc:literal])* $tables:ident, $key:ident, {
        $first:ident: $first_ty:ty $(, $field:ident: $ty:ty)* $(,)?
    }) => {
        $(#[doc = $doc])*
        #[derive(Default)]
        pub struct Builders {
            pub $first: $first_ty,
            $(pub $field: $ty,)*
            pub errors: $crate::columns::errors_table::ErrorsBuilder,
        }

        /// The game's tables in output order (its record table first),
        /// then `errors`.
        pub const $tables: &[&$crate::columns::table::TableDecl] = &[
            &<$first_ty>::DECL,
            $(&<$ty>::DECL,)*
            $crate::columns::errors_table::ERRORS,
        ];

        impl $crate::columns::table::TableBuilders for Builders {
            fn for_records(n: usize) -> Self {
                Builders::sized_for(n)
            }

            fn end(&self) -> $crate::columns::table::PartEnd {
                $crate::columns::table::PartEnd {
                    records: self.$first.$key.len(),
                    errors: self.errors.record_index.len(),
                }
            }

            fn finish(mut self) -> Result<$crate::columns::table::Tables, $crate::Error> {
                let mut decls = $tables.iter().copied();
                let mut next = || decls.next().expect("a declaration for each builder");
                let mut out = Vec::with_capacity($tables.len());
                out.push((next(), self.$first.finish()?));
                $(out.push((next(), self.$field.finish()?));)*
                out.push((next(), self.errors.finish()?));
                Ok(out)
            }
        }
    };
}

/// Where a record comes from: the values of the provenance columns that
/// every record table starts with (`table!`'s `record` tables).
#[derive(Clone, Copy, Debug)]
pub struct Provenance<'a> {
    /// The record's key (`record_id`).
    pub id: i64,
    pub source_file: &'a str,
    pub record_index: i64,
    pub byte_offset: i64,
    pub line: i64,
    /// The notation's label.
    pub notation: &'a str,
    pub notation_version: Option<&'a str>,
}

/// The builders of a game's tables for one group of records (the
/// `Builders` that [`game_tables!`] declares): what the generic build loop
/// of [`crate::notation::Notation::build`] fills.
pub trait TableBuilders: Sized + Send {
    /// Builders sized for `n` records (the game's `sized_for`).
    fn for_records(n: usize) -> Self;
    /// Rows written so far of the record table and `errors`.
    fn end(&self) -> PartEnd;
    /// The batches, in the order of the table list.
    fn finish(self) -> Result<Tables, crate::Error>;
}

/// The batches one group of records produced, one per table of its
/// notation, in the notation's table order.
pub type Tables = Vec<(&'static TableDecl, arrow_array::RecordBatch)>;

/// Rows of the record table and the `errors` table written up to the end
/// of a part.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartEnd {
    pub records: usize,
    pub errors: usize,
}
