//! Preferans (PPN) tests: goldens, no panic on any input, the spec's example game.
//! One test binary a area (each is linked against arrow and parquet).

#[path = "../common/mod.rs"]
mod common;

mod golden;
mod no_panic;
mod spec_example;
