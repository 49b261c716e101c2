pub mod pinochle;
pub mod split;
