//! One module per notation. Each turns records (byte spans found by a splitter)
//! into the rows of its tables, behind the [`Notation`] trait.

pub mod ppn;
pub mod tagpair;

use crate::columns::Tables;
use crate::notation::tagpair::split::Item;

/// What the pipeline knows of the file a record comes from.
#[derive(Clone, Debug)]
pub struct FileInfo {
    /// As given on the command line (or found in a directory).
    pub name: String,
    /// Position in the run's sorted input list; part of every `hand_id`.
    pub index: u64,
}

/// A notation: how to split its files, parse records in parallel, resolve what
/// depends on earlier records in order, and fill the output tables.
pub trait Notation: Sync {
    /// Parsed records of one group, borrowed from the input.
    type Group<'a>: Send + Sync;
    /// What carries from one record to the next within a file (headers, inheritance).
    type FileState<'a>: Default;
    /// A [`Notation::FileState`] that owns its bytes, kept between windows of a
    /// streamed input whose earlier bytes are gone.
    type Carry: Default;

    fn name(&self) -> &'static str;

    /// Whether the start of a file looks like this notation.
    fn sniff(&self, head: &[u8]) -> bool;

    /// Copies what `state` borrows, so that the input it came from may go.
    fn save(&self, state: &Self::FileState<'_>) -> Self::Carry;

    /// A state borrowing from a saved one.
    fn restore<'a>(&self, carry: &'a Self::Carry) -> Self::FileState<'a>;

    /// Sequential: a directive line (file header) between records.
    fn directive<'a>(&self, state: &mut Self::FileState<'a>, line: &'a [u8]);

    /// Sequential: called for each record in order before it is parsed, to
    /// capture what the file state is at that record (and to note that a
    /// record came: header lines after one start a new header).
    fn record_context<'a>(&self, state: &mut Self::FileState<'a>) -> Self::Context<'a>
    where
        'a: 'a;

    type Context<'a>: Copy + Send + Sync;

    /// Parallel: parse the records of one group. `input[0]` is at absolute
    /// offset `base`; a record whose bytes run past the end of `input` was too
    /// large to keep whole (only its start is there).
    fn parse<'a>(
        &self,
        input: &'a [u8],
        base: u64,
        records: &[(Item, u64, Self::Context<'a>)],
    ) -> Self::Group<'a>;

    /// Sequential, in input order: resolve what depends on earlier records.
    fn resolve<'a>(&self, state: &mut Self::FileState<'a>, groups: &mut [Self::Group<'a>]);

    /// The records parsed in a group: more than the splitter found when
    /// some of its records held several hands.
    fn parsed(&self, group: &Self::Group<'_>) -> usize;

    /// Parallel: fill the tables for groups in input order, of one file or
    /// of several small ones (each group with its file), and say where each
    /// group's rows end in the `hands` and `errors` tables.
    fn build(&self, parts: &[Part<'_, '_, Self>]) -> Result<(Tables, Vec<PartEnd>), crate::Error>;
}

/// A group to build, with the file it comes from.
pub type Part<'p, 'a, N> = (&'p FileInfo, &'p <N as Notation>::Group<'a>);

/// Rows of the `hands` and `errors` tables written up to the end of a part.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartEnd {
    pub hands: usize,
    pub errors: usize,
}
