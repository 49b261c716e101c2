//! Game rules, independent of any notation: melds, tricks, legality and
//! scoring, driven by a [`Profile`].

pub mod auction;
pub mod hand;
pub mod meld;
pub mod profile;
pub mod score;
pub mod trick;

pub use profile::Profile;
