//! Arrow schemas and batch builders, one per output table.

#[macro_use]
pub mod table;
pub mod errors;
pub mod lists;
pub mod prims;
pub mod render;
pub mod size;
pub mod strings;

use arrow_array::RecordBatch;

/// The batches one group of records produced, one per table, in the
/// notation's table order.
pub type Tables = Vec<(&'static str, RecordBatch)>;

/// The version of the table layout; written into every Parquet file.
pub const SCHEMA_VERSION: &str = "1";
