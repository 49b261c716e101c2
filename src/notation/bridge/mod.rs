//! What the bridge notations (PBN, RBN, RBX) share past their syntax.

pub mod board;
