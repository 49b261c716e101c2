//! Where tables go.

mod parts;
pub mod temp;
mod writeback;
pub mod writer;
