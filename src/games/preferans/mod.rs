//! Preferans (the Serbian and central European game of Portable Preferans
//! Notation): its 32 cards and the rules of a trick. No text: the
//! `preferans` notation reads and writes it.

pub mod card;
pub mod contract;
pub mod rules;
pub mod tables;

pub use card::{Card, Rank, Suit};
