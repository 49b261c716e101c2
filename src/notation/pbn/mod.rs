//! Portable Bridge Notation (PBN 1.0, 2.0, 2.1), read into the bridge
//! tables. Work in progress: the value readers; the notation is not yet
//! routed to (its files are recognized and their records kept in `errors`
//! by `notation::planned`).

pub mod values;
