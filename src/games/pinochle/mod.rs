//! Pinochle vocabulary shared by every notation: seats, teams and cards.
//!
//! Nothing here knows about text formats beyond the two card spellings the
//! PPN family uses (suit-rank `CA` and dot syntax `AT.KQ..J`).

pub mod card;
pub mod columns;
pub mod rules;
pub mod seat;
pub mod tables;

pub use card::{Card, Rank, Suit};
pub use seat::Seat;
