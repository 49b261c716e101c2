//! `deckhand export`: records written again in a notation, from the rows a
//! conversion builds (so that an export says exactly what `convert`
//! understood), one module per game. They read their inputs through the
//! pipeline ([`crate::pipeline::parse_inputs`]); `crate::registry` lists
//! the targets.

pub mod bridge;
pub mod pinochle;
