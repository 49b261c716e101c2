//! Parquet pages built here rather than by the Arrow writer, for the
//! columns where that pays (see `docs/page-writers.md` in the deckhand
//! repository for what each family earns):
//!
//! - [`list_pages`]: lists of two-byte strings (card lists), dictionary
//!   encoded through a table of every two-byte value;
//! - [`flat_pages`]: flat strings and 32-bit integers, dictionary encoded;
//! - [`delta_pages`]: ascending 64-bit keys, delta encoded;
//! - [`struct_list_pages`]: lists of structs of several leaves;
//! - [`copy`]: a column chunk that repeats another's, copied page by page.
//!
//! Each writer takes Arrow arrays and the column's Parquet descriptor and
//! writer properties, and gives compressed pages ([`chunk`]) that the
//! caller splices into an Arrow writer's row group. This crate knows
//! nothing of games or notations; the caller decides which column gets
//! which writer.

pub mod chunk;
pub mod copy;
pub mod delta_pages;
mod dict;
mod encode;
pub mod flat_pages;
pub mod list_pages;
pub mod struct_list_pages;
