//! Where tables go.

mod copy;
mod list_pages;
pub mod parquet;
