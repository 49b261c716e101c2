//! The tag-pair syntax that the PGN-like notations share (Portable Pinochle
//! Notation, Portable Bridge Notation, Portable Preferans Notation): records
//! separated by blank lines, `{...}` and `;` comments, `%` escape lines and
//! file headers (`split`), tag pairs, section tokens and segmental prefixes
//! (`lex`), and `#`/`##` inheritance of tag values (`inherit`). A notation
//! of the family gives its own codes and rules as a `lex::Dialect`.

pub mod family;
pub mod file;
pub mod inherit;
pub mod lex;
pub mod record;
pub mod split;
pub mod text;
