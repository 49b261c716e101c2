//! Poker (PHH) tests: goldens, the standard's examples, the hand evaluators against pokerkit's ranking.
//! One test binary a area (each is linked against arrow and parquet).

#[path = "../common/mod.rs"]
mod common;

mod eval_pokerkit;
mod golden;
mod spec_examples;
