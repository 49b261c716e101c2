//! Portable Pinochle Notation.
//!
//! Three phases per group of records: [`lex`] (parallel) finds tags, section
//! tokens and comments; [`inherit`] (sequential, in input order) resolves `#`
//! and `##`; [`build`] (parallel) gives values their meaning and fills the tables.

pub mod build;
pub mod diagnostics;
pub mod generate;
pub mod values;

use crate::columns::table::TableDecl;
use crate::error::Diag;
use crate::games::pinochle::tables::*;
use crate::notation::tagpair::family::TagPairNotation;
use crate::notation::tagpair::lex::{self, Codes, Dialect};
use crate::notation::tagpair::{file, record};
use crate::notation::{About, FileInfo};

/// The notation's label in the tables' `notation` columns.
pub const LABEL: &str = "PPN";

pub static ABOUT: About = About {
    name: "ppn",
    label: LABEL,
    title: "Portable Pinochle Notation",
    game: GAME,
    extensions: &["ppn"],
    code_prefix: 'P',
};

/// Its tables: pinochle's, then `errors`.
pub const TABLES: &[&TableDecl] = PINOCHLE_TABLES;

/// The tag-pair syntax as PPN reads it: its codes, its segment letters
/// (`@A1-P3=`: Deal, Auction, eXchange, Meld, Play, Result), the tags that
/// repeat.
pub static DIALECT: Dialect = Dialect {
    codes: Codes {
        unterminated_string: "P001",
        missing_bracket: "P002",
        unterminated_comment: "P003",
        outside_tag: "P004",
        stray_text: "P004",
        missing_name: "P005",
        unquoted_value: "P006",
        prefix_without_tag: "P007",
        bad_prefix: "P008",
        too_many_items: "P010",
        too_large: "P009",
        long_tag: "P100",
        unlisted: "P101",
        nothing_to_inherit: "P040",
        too_many_records: "P011",
        no_blank_line: "P035",
        took_together: "",
    },
    segments: b"DAXMPR",
    unquoted_hint: preferans_hint,
    repeatable: build::is_repeatable,
    record_word: "hand",
    // For P064: a hand's GameScores follow from the hand before's.
    before: &[b"Hand", b"GameScores", b"HandScores", b"Victor"],
    together: &[],
    together_if: &[],
    string_tokens: false,
    recover: false,
};

/// For P006: Portable Preferans Notation, a notation of another game also
/// called PPN (and also in `.ppn` files), writes its values unquoted; its
/// required tags and its deal lines (`[1 312 ...]`) are named here.
fn preferans_hint(name: &[u8]) -> &'static str {
    let required = matches!(
        name,
        b"Bula"
            | b"Refe"
            | b"Player1"
            | b"Player2"
            | b"Player3"
            | b"Result1"
            | b"Result2"
            | b"Result3"
    );
    if required || (!name.is_empty() && name.iter().all(u8::is_ascii_digit)) {
        " (this looks like Portable Preferans Notation, another game's PPN: a file that mixes the two; convert its Preferans games on their own, or with --notation preferans-ppn)"
    } else {
        ""
    }
}

/// Tags of pinochle that the other notations of the family do not have.
pub const PINOCHLE_TAGS: &[&str] = &[
    "Melds",
    "Kitty",
    "MeldScores",
    "GameScores",
    "HandScores",
    "PlayScores",
    "Victor",
    "Holding",
    "Trump",
];

/// A record of a group (a hand, or a quarantined record).
pub type HandRec<'a> = record::TagRecord<'a, Ctx<'a>>;
/// Records parsed together by one task.
pub type Group<'a> = record::Group<'a, Ctx<'a>>;
pub use crate::notation::tagpair::record::{MAX_SPLIT_BYTES, MAX_SPLIT_HANDS};

/// What the file headers say at a given record. Its `foreign` is the
/// header of Portable Bridge Notation (`% PBN 2.1`): the block's records
/// are quarantined unparsed (P012), not read as pinochle hands.
pub type Ctx<'a> = file::Header<'a>;
pub use file::{Carry, FileState};

/// P012 for a record under the header of another notation (`% PBN 2.1`).
fn foreign(header: &[u8]) -> Diag {
    Diag::error(
        0,
        "P012",
        format!(
            "the file header '% {}' declares Portable Bridge Notation, not Portable Pinochle Notation ('% PPN'); record not converted as pinochle (convert the file with --notation pbn)",
            String::from_utf8_lossy(header)
        ),
    )
}

/// Records larger than this are quarantined without being parsed (P009).
pub use crate::notation::tagpair::split::MAX_RECORD_BYTES;
/// Records with more tag pairs, section tokens or comments are quarantined
/// unbuilt (P010).
pub use lex::MAX_RECORD_ITEMS;

/// Finds the records of `bytes` and tokenizes each (tag pairs, section
/// tokens, comments), building nothing: the part of parsing that compares
/// with a PGN tokenizer such as pgn-reader's. For `deckhand bench`. Returns
/// the records (blocks of comments alone left out), and the tag pairs and
/// section tokens found.
pub fn tokenize(bytes: &[u8]) -> (u64, u64) {
    file::tokenize(&DIALECT, bytes)
}

/// The PPN notation, with the rules to apply to its hands.
#[derive(Clone, Debug, Default)]
pub struct Ppn {
    pub rules: build::compute::RulesConfig,
}

pub use build::compute::RulesConfig;

impl TagPairNotation for Ppn {
    type Builders = Builders;
    const HEADER: &'static str = "PPN";
    const FOREIGN: &'static [&'static [u8]] = &[b"PBN"];

    const ABOUT: &'static About = &ABOUT;
    const TABLES: &'static [&'static TableDecl] = TABLES;
    const DIALECT: &'static Dialect = &DIALECT;
    const TYPICAL_TAGS: &'static [&'static str] = PINOCHLE_TAGS;

    fn foreign(header: &[u8]) -> Diag {
        foreign(header)
    }

    fn build_group(&self, file: &FileInfo, group: &Group<'_>, out: &mut Builders) {
        build::build_group(file, group, &self.rules, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::tagpair::split::{Item, ItemKind};

    #[test]
    fn the_hands_of_a_record_start_at_its_first_hands_leading_tags() {
        // A tag before the second hand's D on its line makes it a repeat in the first:
        // the second starts at N, and the third at D again (a leading tag
        // of the record's first hand), not at N. A record cut from the one
        // before by the splitter warns at its first hand too. A record the
        // input ended in: only its last hand is at the end.
        let r = b"[D \"1\"]\n[N \"a\"]\n[Auction \"N\"]\nPass\n[X \"x\"] [D \"2\"]\n[N \"b\"]\n\
                  [Auction \"N\"]\nPass\n[D \"3\"]\n[N \"c\"]\n";
        for joined in [false, true] {
            let item = Item {
                kind: ItemKind::Record,
                start: 100,
                end: 100 + r.len() as u64,
                line: 5,
                joined,
                at_end: joined,
            };
            let mut g = Group::default();
            record::parse_record(&DIALECT, &mut g, r, item, 7, Ctx::default());
            let hands: Vec<_> = g
                .records
                .iter()
                .map(|h| {
                    (
                        h.byte,
                        h.line,
                        h.index,
                        h.follows,
                        h.at_end,
                        h.lexed.warnings.first().map(|w| w.code),
                    )
                })
                .collect();
            let first = joined.then_some("P035");
            assert_eq!(
                hands,
                [
                    (100, 5, 7, false, false, first),
                    (151, 10, 7, true, false, Some("P035")),
                    (178, 13, 7, true, joined, Some("P035"))
                ]
            );
        }
    }

    #[test]
    fn tokenize_counts_records_and_their_tokens() {
        // Two records (the first with two tags and three section tokens,
        // its comment not counted; the second with two tags); the header
        // line and the comment-only block are not records.
        let b = b"% PPN 1.0\n\n[Hand \"1\"]\n[Auction \"N\"]\nPass 50 {c} 51\n\n[Hand \"2\"] [Play \"*\"]\n\n{only a comment}\n";
        assert_eq!(tokenize(b), (2, 7));
    }
}
