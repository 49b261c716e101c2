//! A notation as the pipeline runs it, whatever its types: every
//! [`Notation`] is a [`Run`], so that the registry can hold notations of
//! different types and the pipeline can pick one per input.

use super::feed::{Counted, FileRun, Pull};
use super::{Consumer, FileConsumer, FileSummary, InputFile, Shared};
use crate::Error;
use crate::columns::table::TableDecl;
use crate::notation::head::Head;
use crate::notation::{About, Evidence, FileInfo, Notation};
use crate::source::Stream;

pub trait Run: Sync {
    fn about(&self) -> &'static About;

    /// How strongly the start of a file looks like this notation.
    fn sniff(&self, head: &Head<'_>) -> Evidence;

    /// Its tables, as [`Notation::tables`].
    fn tables(&self) -> &'static [&'static TableDecl];

    /// Parses files of this notation in order (see `run_inputs`).
    fn run_files(
        &self,
        cx: &Shared<'_>,
        files: &[InputFile<'_>],
        on_tables: &mut FileConsumer<'_>,
        summaries: &mut Vec<FileSummary>,
        join: bool,
    ) -> Result<(), Error>;

    /// Parses an input held in memory.
    fn run_bytes(
        &self,
        cx: &Shared<'_>,
        file: &FileInfo,
        bytes: &[u8],
        consume: &mut Consumer<'_>,
    ) -> Result<FileSummary, Error>;

    /// Parses an input read in pieces, on this thread.
    fn run_reader(
        &self,
        cx: &Shared<'_>,
        file: &FileInfo,
        reader: &mut dyn std::io::Read,
        consume: &mut Consumer<'_>,
    ) -> Result<FileSummary, Error>;

    /// Parses a stream, read ahead on a thread of its own.
    fn run_stream(
        &self,
        cx: &Shared<'_>,
        file: &FileInfo,
        stream: Stream,
        consume: &mut Consumer<'_>,
    ) -> Result<FileSummary, Error>;
}

impl<N: Notation> Run for N {
    fn about(&self) -> &'static About {
        Notation::about(self)
    }

    fn sniff(&self, head: &Head<'_>) -> Evidence {
        Notation::sniff(self, head)
    }

    fn tables(&self) -> &'static [&'static TableDecl] {
        Notation::tables(self)
    }

    fn run_files(
        &self,
        cx: &Shared<'_>,
        files: &[InputFile<'_>],
        on_tables: &mut FileConsumer<'_>,
        summaries: &mut Vec<FileSummary>,
        join: bool,
    ) -> Result<(), Error> {
        super::run_inputs(self, cx, files, on_tables, summaries, join)
    }

    fn run_bytes(
        &self,
        cx: &Shared<'_>,
        file: &FileInfo,
        bytes: &[u8],
        consume: &mut Consumer<'_>,
    ) -> Result<FileSummary, Error> {
        FileRun::new(self, file, cx, consume).run_bytes(bytes)
    }

    fn run_reader(
        &self,
        cx: &Shared<'_>,
        file: &FileInfo,
        reader: &mut dyn std::io::Read,
        consume: &mut Consumer<'_>,
    ) -> Result<FileSummary, Error> {
        let mut counted = Counted::new(reader);
        FileRun::new(self, file, cx, consume).run_stream(&mut counted as &mut dyn Pull)
    }

    fn run_stream(
        &self,
        cx: &Shared<'_>,
        file: &FileInfo,
        stream: Stream,
        consume: &mut Consumer<'_>,
    ) -> Result<FileSummary, Error> {
        super::run_stream(self, cx, file, stream, consume)
    }
}
