//! One module per game: its cards, seats, rules and tables. No text: the
//! notations (`crate::notation`) read and write it.

pub mod bridge;
pub mod pinochle;
pub mod poker;
pub mod preferans;
