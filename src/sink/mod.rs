//! Where tables go.

mod copy;
pub mod parquet;
