//! Pipeline tests: equivalence at every thread count and chunk size, compressed and streamed inputs, `deckhand::read`, export, interrupts.
//! One test binary a area (each is linked against arrow and parquet).

#[path = "../common/mod.rs"]
mod common;

mod compressed;
mod equivalence;
mod export;
mod kill;
mod read;
