//! Richard's Bridge Notation (RBN 3.2) and RBX, its one-record-a-line form:
//! into the bridge tables. Under construction: the values of the labels are
//! read (`values`); records are still recognized and kept in `errors` by
//! `notation::planned` until the notation is routed.

pub mod record;
pub mod values;
