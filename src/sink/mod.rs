//! Where tables go.

pub mod parquet;
