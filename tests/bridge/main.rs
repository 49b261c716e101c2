//! Bridge tests: the PBN, RBN and RBX goldens, the specs' examples, threads and chunk sizes.
//! One test binary a area (each is linked against arrow and parquet).

#[path = "../common/mod.rs"]
mod common;

mod golden;
mod rbn_spec_examples;
mod spec_examples;
