//! Bridge: cards, seats, deals, the auction, the play and duplicate scoring,
//! whatever notation a board comes in (PBN, RBN, RBX). No text here but the
//! letters of cards and seats.

pub mod auction;
pub mod card;
pub mod deal;
pub mod play;
pub mod score;
pub mod seat;
pub mod tables;

pub use card::{Card, Rank, Strain, Suit};
pub use seat::{Seat, Side};
