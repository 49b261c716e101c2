//! Pinochle (PPN) tests: goldens, the spec's examples, no panic on any input, rejoined records, generated games against the rules, hostile inputs.
//! One test binary a area (each is linked against arrow and parquet).

#[path = "../common/mod.rs"]
mod common;

mod golden;
mod hostile;
mod no_panic;
mod rejoin;
mod rules_generated;
mod spec_examples;
