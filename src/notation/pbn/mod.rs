//! Portable Bridge Notation (PBN 1.0, 2.0, 2.1), read into the bridge
//! tables.
//!
//! The tag-pair syntax is the family's (`notation::tagpair`: split, lex,
//! inherit, with PBN's [`DIALECT`]); [`section`] reads the Auction and Play
//! sections, [`values`] the tag values, [`build`] gives them their meaning
//! and runs the bridge rules (`games::bridge`).

pub mod build;
pub mod diagnostics;
pub mod section;
pub mod values;

use crate::columns::table::TableDecl;
use crate::error::Diag;
use crate::games::bridge::tables::*;
use crate::notation::tagpair::family::TagPairNotation;
use crate::notation::tagpair::file::{self, Header};
use crate::notation::tagpair::lex::{Codes, Dialect};
use crate::notation::tagpair::record;
use crate::notation::{About, FileInfo};

/// The notation's label in the tables' `notation` columns.
pub const LABEL: &str = "PBN";

pub static ABOUT: About = About {
    name: "pbn",
    label: LABEL,
    title: "Portable Bridge Notation",
    game: GAME,
    extensions: &["pbn"],
    code_prefix: 'B',
};

/// Its tables: bridge's, then `errors`.
pub const TABLES: &[&TableDecl] = BRIDGE_TABLES;

/// The tag-pair syntax as PBN reads it: its codes, no segmental prefixes,
/// Note tags that repeat, string tokens in sections (table cells), and the
/// tags a game that gives none of them takes from the game before (the
/// same board played at another table, as endplay's example3.pbn writes
/// it).
pub static DIALECT: Dialect = Dialect {
    codes: Codes {
        unterminated_string: "B001",
        missing_bracket: "B002",
        unterminated_comment: "B003",
        outside_tag: "B004",
        stray_text: "B007",
        missing_name: "B005",
        unquoted_value: "B006",
        // PBN has no segmental prefixes: '@' is text (never reported).
        prefix_without_tag: "B004",
        bad_prefix: "B004",
        too_many_items: "B010",
        too_large: "B009",
        long_tag: "B100",
        unlisted: "B101",
        nothing_to_inherit: "B040",
        too_many_records: "B011",
        no_blank_line: "B035",
        took_together: "B041",
    },
    segments: b"",
    unquoted_hint: |_| "",
    repeatable: build::is_repeatable,
    record_word: "game",
    before: &[],
    together: &[b"Board", b"Dealer", b"Vulnerable", b"Deal"],
    together_if: &[b"Auction", b"Play"],
    string_tokens: true,
    recover: true,
};

/// Tags of Portable Bridge Notation that Portable Pinochle Notation and
/// Portable Preferans Notation do not have.
pub const PBN_TAGS: &[&str] = &[
    "Board",
    "Vulnerable",
    "BidSystemEW",
    "BidSystemNS",
    "OptimumScore",
    "OptimumResultTable",
    "ScoreTable",
    "TotalScoreTable",
    "ScoreIMP",
    "ScoreMP",
    "HomeTeam",
    "VisitTeam",
];

/// A game of a group (or a quarantined record).
pub type Game<'a> = record::TagRecord<'a, Header<'a>>;
/// Records parsed together by one task.
pub type Group<'a> = record::Group<'a, Header<'a>>;

/// B012 for a record under the header of Portable Pinochle Notation.
fn foreign(header: &[u8]) -> Diag {
    Diag::error(
        0,
        "B012",
        format!(
            "the file header '% {}' declares Portable Pinochle Notation, not Portable Bridge Notation; record not converted as bridge (convert the file with --notation ppn)",
            String::from_utf8_lossy(header)
        ),
    )
}

/// Splitting and tokenizing only (see `tagpair::file::tokenize`).
pub fn tokenize(bytes: &[u8]) -> (u64, u64) {
    file::tokenize(&DIALECT, bytes)
}

/// The PBN notation.
#[derive(Clone, Debug)]
pub struct Pbn {
    /// Compute the rules' columns.
    pub compute: bool,
}

impl Default for Pbn {
    fn default() -> Self {
        Pbn { compute: true }
    }
}

impl TagPairNotation for Pbn {
    type Builders = Builders;
    const HEADER: &'static str = "PBN";
    const FOREIGN: &'static [&'static [u8]] = &[b"PPN"];

    const ABOUT: &'static About = &ABOUT;
    const TABLES: &'static [&'static TableDecl] = TABLES;
    const DIALECT: &'static Dialect = &DIALECT;
    const TYPICAL_TAGS: &'static [&'static str] = PBN_TAGS;

    fn foreign(header: &[u8]) -> Diag {
        foreign(header)
    }

    fn build_group(&self, file: &FileInfo, group: &Group<'_>, out: &mut Builders) {
        build::build_group(file, group, self.compute, out);
    }
}
