//! One table of one input as a stream of Arrow record batches: the library's
//! way in for engines that want Arrow, not Parquet files (the Python
//! package, a Spark or Ray read task, a Dask partition).
//!
//! [`read`] routes the input as `convert` does, then parses it on a thread
//! of its own (records parsed in parallel on a pool of the caller's size)
//! and hands the requested table's batches over a bounded channel: memory
//! is bounded as in `convert` (a window of records at a time), and the rows
//! are those `convert` writes for that file at that file index. Dropping
//! the reader stops the parse.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_schema::{ArrowError, SchemaRef};

use crate::Error;
use crate::columns::errors_table::ERRORS;
use crate::columns::table::TableDecl;
use crate::pipeline::{self, FileSummary, Options};
use crate::registry::{self, HEAD_BYTES, Route, Settings};

/// Where the records come from.
#[derive(Clone, Debug)]
pub enum Source {
    /// A file (compressed or not), mapped or streamed as `convert` reads it.
    Path(PathBuf),
    /// The contents of a file, held in memory (as an engine hands them
    /// over), compressed or not; `name` is its `source_file` and, with its
    /// extension, helps route it.
    Bytes { name: String, bytes: bytes::Bytes },
}

impl Source {
    /// Its `source_file`.
    pub fn name(&self) -> String {
        match self {
            Source::Path(p) => p.to_string_lossy().into_owned(),
            Source::Bytes { name, .. } => name.clone(),
        }
    }
}

/// What [`read`] reads.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// The game whose table `table` is, when the name alone does not say.
    pub game: Option<String>,
    /// The input's file index: the high bits of its record keys (its
    /// position in a `convert` run's inputs, plus `--file-index-base`).
    pub file_index: u64,
    /// Threads that parse records; 0: one per core.
    pub threads: usize,
    /// Rules and a forced notation, as for `convert`.
    pub settings: Settings,
}

/// Record batches waiting between the parse and the reader: with a
/// window's worth being parsed, this bounds memory.
const BATCHES_IN_FLIGHT: usize = 4;

/// The games deckhand has tables for, sorted.
pub fn games() -> Vec<&'static str> {
    let mut g = registry::games();
    g.sort_unstable();
    g
}

/// The tables of `game` (its record table first, `errors` last), or every
/// table of every game (as `<game>/<table>`) for None.
pub fn tables(game: Option<&str>) -> Result<Vec<&'static TableDecl>, Error> {
    let all = registry::all_tables();
    match game {
        None => Ok(all),
        Some(g) => {
            check_game(g)?;
            Ok(all
                .into_iter()
                .filter(|t| t.game == Some(g) || t.game.is_none())
                .collect())
        }
    }
}

fn check_game(g: &str) -> Result<(), Error> {
    let games = games();
    if games.contains(&g) {
        Ok(())
    } else {
        Err(Error::Settings(format!(
            "unknown game '{g}': deckhand's games are {}",
            games.join(", ")
        )))
    }
}

/// The table named `table` (a name, `<game>/<name>`, or `errors`) of
/// `game`; without a game, the one game that has a table of that name.
/// An unknown or ambiguous name is an error that lists the valid ones.
pub fn find_table(game: Option<&str>, table: &str) -> Result<&'static TableDecl, Error> {
    let (game, name) = match table.split_once('/') {
        Some((g, t)) => {
            if let Some(given) = game
                && given != g
            {
                return Err(Error::Settings(format!(
                    "table '{table}' is not a table of game '{given}'"
                )));
            }
            (Some(g), t)
        }
        None => (game, table),
    };
    if name == ERRORS.name {
        if let Some(g) = game {
            check_game(g)?;
        }
        return Ok(ERRORS);
    }
    let all = registry::all_tables();
    if let Some(g) = game {
        check_game(g)?;
        return all
            .iter()
            .find(|t| t.game == Some(g) && t.name == name)
            .copied()
            .ok_or_else(|| {
                let names: Vec<&str> = all
                    .iter()
                    .filter(|t| t.game == Some(g) || t.game.is_none())
                    .map(|t| t.name)
                    .collect();
                Error::Settings(format!(
                    "game '{g}' has no table '{name}': its tables are {}",
                    names.join(", ")
                ))
            });
    }
    let of_name: Vec<&'static TableDecl> = all.iter().filter(|t| t.name == name).copied().collect();
    match of_name.len() {
        1 => Ok(of_name[0]),
        0 => Err(Error::Settings(format!(
            "no table '{name}': the tables are {}",
            all.iter().map(|t| t.path()).collect::<Vec<_>>().join(", ")
        ))),
        _ => Err(Error::Settings(format!(
            "table '{name}' is a table of several games ({}): name the game",
            of_name
                .iter()
                .filter_map(|t| t.game)
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// The game the input's content (and name) route it to; None when no
/// notation takes it (its one row is in `errors`).
pub fn game_of(source: &Source, settings: &Settings) -> Result<Option<&'static str>, Error> {
    let registry = registry::notations(settings).map_err(Error::Settings)?;
    let (path, head) = match source {
        Source::Path(p) => (p.as_path(), crate::source::read_head(p, HEAD_BYTES)?),
        Source::Bytes { name, bytes } => (Path::new(name.as_str()), held_head(name, bytes)?),
    };
    Ok(match registry.route(path, &head) {
        Route::To(k) => Some(registry.get(k).about().game),
        Route::Unknown(_) => None,
    })
}

/// The first bytes of held contents, decompressed and made UTF-8 as the
/// pipeline reads them.
fn held_head(name: &str, bytes: &bytes::Bytes) -> Result<Vec<u8>, Error> {
    let head = &bytes[..bytes.len().min(HEAD_BYTES)];
    if crate::source::is_plain(head) {
        return Ok(head.to_vec());
    }
    let err = |source| Error::Read {
        path: name.into(),
        source,
    };
    let mut s =
        crate::source::Stream::new(Box::new(std::io::Cursor::new(bytes.clone()))).map_err(err)?;
    s.peek(HEAD_BYTES).map_err(err)
}

/// One table of one input (`table`: its name, `<game>/<name>`, or
/// `errors`), as `convert` would write it for that file at
/// `opts.file_index`: a [`RecordBatchReader`] whose batches come as the
/// input is parsed. Errors of the table name, the game or the input's
/// opening come at once; an error while reading ends the batches with it.
pub fn read(source: Source, table: &str, opts: &ReadOptions) -> Result<TableReader, Error> {
    let decl = table_for(&source, table, opts)?;
    let options = Options {
        threads: if opts.threads == 0 {
            Options::default().threads
        } else {
            opts.threads
        },
        progress: false,
        file_index_base: opts.file_index,
        settings: opts.settings.clone(),
        // One file: its rows are handed over as parsed.
        join_small_inputs: false,
        ..Options::default()
    };
    let (tx, rx) = sync_channel(BATCHES_IN_FLIGHT);
    let worker = std::thread::Builder::new()
        .name("deckhand-read".into())
        .spawn(move || parse_into(source, &options, decl, tx))
        .map_err(|e| Error::Read {
            path: "deckhand-read thread".into(),
            source: e,
        })?;
    Ok(TableReader {
        schema: (decl.schema)(),
        rx: Some(rx),
        worker: Some(worker),
        summary: None,
    })
}

/// The table [`read`] reads as `table` from `source` with `opts` (checking, first,
/// that a path opens: the error names the path given).
pub fn table_for(
    source: &Source,
    table: &str,
    opts: &ReadOptions,
) -> Result<&'static TableDecl, Error> {
    if let Source::Path(p) = source {
        let err = |e| Error::Read {
            path: p.clone(),
            source: e,
        };
        if crate::source::reads_once(p) {
            // Routed, then parsed, and each scan reads afresh: a pipe
            // cannot be (and opening a FIFO waits for a writer).
            return Err(err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "can be read once only (standard input, a pipe or a device): read takes a regular file, or its bytes",
            )));
        }
        std::fs::File::open(p).map_err(err)?;
        if p.is_dir() {
            // One input: a directory's files are a run's (`convert`).
            return Err(err(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                "a directory: read takes one file (convert takes directories)",
            )));
        }
    }
    // A name several games have (and no game given): the input's game
    // says which; an input of no game leaves it ambiguous (an error).
    let several = || {
        registry::all_tables()
            .iter()
            .filter(|t| t.name == table)
            .count()
            > 1
    };
    let game = match opts.game.as_deref() {
        None if several() => game_of(source, &opts.settings)?,
        g => g,
    };
    find_table(game, table)
}

/// The parse, on the reader's thread: the table's batches go to `tx`
/// until the reader is dropped.
fn parse_into(
    source: Source,
    opts: &Options,
    decl: &'static TableDecl,
    tx: SyncSender<RecordBatch>,
) -> Result<FileSummary, Error> {
    let mut hand_over = |per_table: pipeline::WindowBatches| -> Result<(), Error> {
        for (t, batches) in per_table {
            if *t != *decl {
                continue;
            }
            for b in batches {
                if b.num_rows() > 0 && tx.send(b).is_err() {
                    return Err(Error::Stopped);
                }
            }
        }
        Ok(())
    };
    let got = match &source {
        Source::Path(p) => {
            pipeline::parse_inputs(std::slice::from_ref(p), opts, None, &mut |_, per_table| {
                hand_over(per_table)
            })
            .map(|mut files| files.pop().unwrap_or_default())
        }
        Source::Bytes { name, bytes } => pipeline::parse_held(bytes, name, opts, &mut hand_over),
    };
    match got {
        // The reader is gone: nobody to tell.
        Err(Error::Stopped) => Ok(FileSummary::default()),
        other => other,
    }
}

/// The batches of one table of one input ([`read`]).
pub struct TableReader {
    schema: SchemaRef,
    /// None once dropped: the parse's sends then fail and it stops.
    rx: Option<Receiver<RecordBatch>>,
    worker: Option<JoinHandle<Result<FileSummary, Error>>>,
    summary: Option<FileSummary>,
}

impl TableReader {
    /// The input's counts (records, converted, quarantined, warnings...),
    /// once every batch has been read.
    pub fn summary(&self) -> Option<&FileSummary> {
        self.summary.as_ref()
    }

    /// The next batch, or the error that ended the parse.
    pub fn next_batch(&mut self) -> Option<Result<RecordBatch, Error>> {
        if let Some(Ok(b)) = self.rx.as_ref().map(Receiver::recv) {
            return Some(Ok(b));
        }
        let worker = self.worker.take()?;
        match worker.join() {
            Ok(Ok(summary)) => {
                self.summary = Some(summary);
                None
            }
            Ok(Err(e)) => Some(Err(e)),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
}

impl Iterator for TableReader {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_batch()
            .map(|r| r.map_err(|e| ArrowError::ExternalError(Box::new(e))))
    }
}

impl RecordBatchReader for TableReader {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

impl Drop for TableReader {
    fn drop(&mut self) {
        // Closing the channel stops the parse at its next window; wait for
        // it, so that nothing runs on after the reader.
        self.rx = None;
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }
}
