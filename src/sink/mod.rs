//! Where tables go.

mod chunk;
mod copy;
mod delta_pages;
mod dict;
mod encode;
mod flat_pages;
mod list_pages;
mod parts;
mod struct_list_pages;
pub mod temp;
mod writeback;
pub mod writer;
