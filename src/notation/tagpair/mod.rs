//! The tag-pair syntax that the PGN-like notations share (Portable Pinochle
//! Notation, Portable Bridge Notation, Portable Preferans Notation): records
//! separated by blank lines, `{...}` and `;` comments, `%` escape lines and
//! file headers.

pub mod split;
