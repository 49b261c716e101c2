//! The [`Notation`] of every notation of the tag-pair family, written
//! once: a member (PBN, pinochle's PPN) says only what sets it apart in a
//! [`TagPairNotation`]: its dialect, the file-header word that declares it,
//! its typical tags, the error for a record under another member's header,
//! and how its games are built.

use super::file::{self, Carry, FileState, Header};
use super::lex::Dialect;
use super::record::Group;
use super::split::{Item, Scanner};
use crate::columns::table::{TableBuilders, TableDecl};
use crate::error::Diag;
use crate::notation::head::Head;
use crate::notation::{About, Evidence, FileInfo, Notation};

/// A notation of the tag-pair family.
pub trait TagPairNotation: Sync {
    /// The builders of its game's tables.
    type Builders: TableBuilders;

    /// The word of a file header (`% PBN 2.1`) that declares it.
    const HEADER: &'static str;
    /// The words that declare the other members of the family.
    const FOREIGN: &'static [&'static [u8]];

    const ABOUT: &'static About;
    /// Its tables in output order.
    const TABLES: &'static [&'static TableDecl];
    /// Its codes and rules of the tag-pair syntax.
    const DIALECT: &'static Dialect;
    /// Tags of it that the other members do not have.
    const TYPICAL_TAGS: &'static [&'static str];

    /// The error for a record under the header of another member (`header`).
    fn foreign(header: &[u8]) -> Diag;

    /// The rows of one group's records, into its game's tables.
    fn build_group<'a>(
        &self,
        file: &FileInfo,
        group: &Group<'a, Header<'a>>,
        out: &mut Self::Builders,
    );
}

impl<T: TagPairNotation> Notation for T {
    type Group<'a> = Group<'a, Header<'a>>;
    type FileState<'a> = FileState<'a>;
    type Context<'a> = Header<'a>;
    type Carry = Carry;
    type Splitter = Scanner;
    type Builders = T::Builders;

    fn about(&self) -> &'static About {
        T::ABOUT
    }

    fn tables(&self) -> &'static [&'static TableDecl] {
        T::TABLES
    }

    fn splitter(&self, start: u64) -> Scanner {
        Scanner::new_at(start)
    }

    fn save(&self, state: &FileState<'_>) -> Carry {
        file::save(state)
    }

    fn restore<'a>(&self, carry: &'a Carry) -> FileState<'a> {
        file::restore(carry)
    }

    fn sniff(&self, head: &Head<'_>) -> Evidence {
        if head.declares(T::HEADER) {
            Evidence::Declared
        } else if T::TYPICAL_TAGS.iter().any(|t| head.has_tag(t)) {
            Evidence::Typical
        } else if head.has_any_tag() {
            Evidence::Family
        } else {
            Evidence::None
        }
    }

    fn directive<'a>(&self, state: &mut FileState<'a>, line: &'a [u8]) {
        file::directive(state, line, T::HEADER.as_bytes(), T::FOREIGN);
    }

    fn record_context<'a>(&self, state: &mut FileState<'a>) -> Header<'a>
    where
        'a: 'a,
    {
        file::record_context(state)
    }

    fn parse<'a>(
        &self,
        input: &'a [u8],
        base: u64,
        records: &[(Item, u64, Header<'a>)],
    ) -> Self::Group<'a> {
        file::parse(T::DIALECT, input, base, records, T::foreign)
    }

    fn resolve<'a>(&self, state: &mut FileState<'a>, groups: &mut [Self::Group<'a>]) {
        file::resolve(T::DIALECT, state, groups);
    }

    fn parsed(&self, group: &Self::Group<'_>) -> usize {
        group.records.len()
    }

    fn build_group(&self, file: &FileInfo, group: &Self::Group<'_>, out: &mut Self::Builders) {
        TagPairNotation::build_group(self, file, group, out);
    }
}
