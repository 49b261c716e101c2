//! Command-line tests: the commands, the generated docs, the layout of a dataset and of the code.
//! One test binary a area (each is linked against arrow and parquet).

#[path = "../common/mod.rs"]
mod common;

mod cli;
mod docs;
mod layout;
