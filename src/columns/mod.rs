//! Arrow schemas and batch builders, one per output table.

#[macro_use]
pub mod table;
pub mod access;
pub mod date;
pub mod decimal;
pub mod errors_table;
pub mod lists;
pub mod prims;
pub mod render;
pub mod size;
pub mod strings;

/// The version of the table layout; written into every Parquet file.
pub const SCHEMA_VERSION: &str = "2";
