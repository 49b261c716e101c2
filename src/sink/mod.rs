//! Where tables go.

mod chunk;
mod copy;
mod dict;
mod encode;
mod flat_pages;
mod list_pages;
pub mod parquet;
mod parts;
mod writeback;
