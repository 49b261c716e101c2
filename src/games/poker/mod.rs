//! Poker: the variants of the Poker Hand History standard, their decks and
//! betting structures, cards, and the poker tables (`hands`, `players`,
//! `actions` under `OUT/poker/`). No text here but the letters of cards.

pub mod card;
pub mod eval;
pub mod rules;
pub mod tables;
pub mod variant;

pub use card::{Card, Rank, Suit};
pub use variant::{Betting, Variant};
