//! Game rules, independent of any notation: melds, tricks, legality and
//! scoring, driven by a [`Profile`].

pub mod auction;
pub mod hand;
pub mod meld;
pub mod profile;
pub mod score;
pub mod trick;

pub use profile::Profile;

/// The players the rules of a hand are written for (four-handed pinochle).
pub const PLAYERS: usize = 4;

/// The most issues of the play a hand lists (a record can play millions of
/// cards its players do not hold): the diagnostics a record lists at most.
pub const MAX_ISSUES: usize = crate::error::MAX_DIAGS;
