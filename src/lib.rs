//! deckhand turns archives of card-game hand records into Apache Parquet.
//!
//! The pipeline: [`source`] maps an input, [`split`] finds record boundaries,
//! a [`notation`] parses groups of records in parallel and fills Arrow
//! [`columns`], and [`sink`] writes them as Parquet datasets.

pub mod check;
#[macro_use]
pub mod columns;
pub mod dataset;
pub mod diagnostics;
pub mod docs;
pub mod error;
pub mod export;
pub mod games;
pub mod notation;
pub mod pipeline;
pub mod read;
pub mod registry;
pub mod rng;
pub mod sigbus;
pub mod sink;
pub mod source;
pub mod split;

pub use error::Error;
pub use read::{ReadOptions, Source, TableReader, read};
