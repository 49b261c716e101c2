//! One module per notation. Each turns records (byte spans found by its
//! splitter) into the rows of its game's tables, behind the [`Notation`]
//! trait; [`registry`] lists them and routes each input file to one.

pub mod bridge_board;
pub mod head;
pub mod lines;
pub mod number;
pub mod pbn;
pub mod phh;
pub mod pinochle_ppn;
pub mod preferans_ppn;
pub mod rbn;
pub mod tagpair;

use crate::columns::errors_table::RecordRef;
use crate::columns::table::TableDecl;
use crate::split::{Item, Splitter};

/// What the pipeline knows of the file a record comes from.
#[derive(Clone, Debug)]
pub struct FileInfo {
    /// As given on the command line (or found in a directory).
    pub name: String,
    /// Position in the run's sorted input list; part of every record key.
    pub index: u64,
}

/// Bits of a record key that hold the record's index in its file.
pub const RECORD_INDEX_BITS: u32 = 40;

/// The largest file index a record key holds: the 23 bits above the
/// record index that keep the key positive.
pub const MAX_FILE_INDEX: u64 = (1 << (63 - RECORD_INDEX_BITS)) - 1;

/// The key of a record's row (`hand_id`, `board_id`, ...): the input file's
/// index in the high 23 bits, the record's index in the low 40, so keys are
/// unique in a dataset, the same for every run over the same inputs, and
/// positive.
pub fn record_id(file_index: u64, record_index: u64) -> i64 {
    ((file_index << RECORD_INDEX_BITS) | record_index) as i64
}

/// The `errors` table's reference to a record of `file` read as `about`:
/// its bytes, where they start (byte and line) and its index in the file.
pub fn record_ref<'r>(
    file: &'r FileInfo,
    about: &'static About,
    bytes: &'r [u8],
    (byte, line): (u64, u64),
    index: u64,
    record_id: Option<i64>,
) -> RecordRef<'r> {
    RecordRef {
        file: &file.name,
        notation: Some((about.label, about.game)),
        bytes,
        byte,
        line,
        index,
        record_id,
    }
}

/// What a notation is, for the registry, the CLI and the documentation.
#[derive(Debug)]
pub struct About {
    /// Its name on the command line (`--notation ppn`).
    pub name: &'static str,
    /// Its label in the tables' `notation` columns (`PPN`).
    pub label: &'static str,
    /// Its full name.
    pub title: &'static str,
    /// The game its records are hands of: the dataset folder of its tables.
    pub game: &'static str,
    /// File name extensions that name it, without the dot, lower case.
    pub extensions: &'static [&'static str],
    /// The first letter of its diagnostic codes.
    pub code_prefix: char,
}

/// How strongly the start of a file looks like a notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Evidence {
    /// Nothing of it.
    None,
    /// The syntax of its family (tag pairs, TOML keys) and nothing that
    /// tells it from the family's other notations.
    Family,
    /// Content only it has (its own tags, labels or keys).
    Typical,
    /// A file header that names it (`% PPN 1.0`, `% PBN 2.1`).
    Declared,
}

/// A notation: how to split its files, parse records in parallel, resolve what
/// depends on earlier records in order, and fill its game's tables.
pub trait Notation: Sync {
    /// Parsed records of one group, borrowed from the input.
    type Group<'a>: Send + Sync;
    /// What carries from one record to the next within a file (headers, inheritance).
    type FileState<'a>: Default;
    /// A [`Notation::FileState`] that owns its bytes, kept between windows of a
    /// streamed input whose earlier bytes are gone.
    type Carry: Default;
    /// What the file state says at a record, captured in order before the
    /// records are parsed in parallel.
    type Context<'a>: Copy + Send + Sync + Default;
    /// Its record splitter.
    type Splitter: Splitter;
    /// The builders of its game's tables (declared by `game_tables!`).
    type Builders: TableBuilders;

    fn about(&self) -> &'static About;

    /// How strongly the start of a file looks like this notation.
    fn sniff(&self, head: &head::Head<'_>) -> Evidence;

    /// Its tables in output order: its game's record table first (one row
    /// per converted record), the shared `errors` table last.
    fn tables(&self) -> &'static [&'static TableDecl];

    /// A splitter whose first byte will be at absolute offset `start`.
    fn splitter(&self, start: u64) -> Self::Splitter;

    /// Copies what `state` borrows, so that the input it came from may go.
    fn save(&self, state: &Self::FileState<'_>) -> Self::Carry;

    /// A state borrowing from a saved one.
    fn restore<'a>(&self, carry: &'a Self::Carry) -> Self::FileState<'a>;

    /// Sequential: a directive line (file header) between records. By
    /// default nothing: a notation without file headers.
    fn directive<'a>(&self, state: &mut Self::FileState<'a>, line: &'a [u8]) {
        let _ = (state, line);
    }

    /// Sequential: called for each record in order before it is parsed, to
    /// capture what the file state is at that record (and to note that a
    /// record came: header lines after one start a new header).
    /// By default the empty context: nothing carries from headers.
    fn record_context<'a>(&self, state: &mut Self::FileState<'a>) -> Self::Context<'a>
    where
        'a: 'a,
    {
        let _ = state;
        Self::Context::default()
    }

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
    /// some of its records held several.
    fn parsed(&self, group: &Self::Group<'_>) -> usize;

    /// Parallel: the rows of one group's records, into its game's tables.
    fn build_group(&self, file: &FileInfo, group: &Self::Group<'_>, out: &mut Self::Builders);

    /// Parallel: fill the tables for groups in input order, of one file or
    /// of several small ones (each group with its file), one batch per
    /// table of [`Notation::tables`] in that order, and say where each
    /// group's rows end in the record table and the `errors` table.
    fn build(&self, parts: &[Part<'_, '_, Self>]) -> Result<(Tables, Vec<PartEnd>), crate::Error> {
        let records = parts.iter().map(|(_, g)| self.parsed(g)).sum();
        let mut b = Self::Builders::for_records(records);
        let mut ends = Vec::with_capacity(parts.len());
        for (file, group) in parts {
            self.build_group(file, group, &mut b);
            ends.push(b.end());
        }
        Ok((b.finish()?, ends))
    }
}

pub use crate::columns::table::{PartEnd, TableBuilders, Tables};

/// A group to build, with the file it comes from.
pub type Part<'p, 'a, N> = (&'p FileInfo, &'p <N as Notation>::Group<'a>);
