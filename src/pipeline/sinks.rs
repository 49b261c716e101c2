//! The tables' sinks: each table's batches, joined into fewer and larger
//! ones, written in input order to its own file.

use super::*;

/// The sinks of a dataset, one a table, opened as their tables are met.
pub(super) struct Sinks<'s> {
    pub(super) dir: &'s Path,
    pub(super) opts: &'s SinkOptions,
    pub(super) sinks: Vec<TableSink>,
    /// The tables to write; None: all.
    pub(super) only: Option<&'s [String]>,
}

impl Sinks<'_> {
    /// Whether `decl` is to be written.
    pub(super) fn wanted(&self, decl: &TableDecl) -> bool {
        self.only.is_none_or(|o| o.contains(&decl.path()))
    }

    /// The index of the sink of `decl`, opened if it was not.
    pub(super) fn open(&mut self, decl: &TableDecl) -> Result<usize, Error> {
        let path = decl.path();
        if let Some(i) = self.sinks.iter().position(|s| s.table() == path) {
            return Ok(i);
        }
        let spec = TableSpec::of(decl);
        self.sinks
            .push(TableSink::create(self.dir, &spec, self.opts)?);
        Ok(self.sinks.len() - 1)
    }

    /// Writes a window's batches. Tables are independent: they are encoded
    /// in parallel. Each sink still receives its batches in input order, so
    /// the bytes written do not change.
    pub(super) fn write(
        &mut self,
        pool: &rayon::ThreadPool,
        per_table: WindowBatches,
    ) -> Result<(), Error> {
        let mut by_sink: Vec<Vec<RecordBatch>> = vec![Vec::new(); self.sinks.len()];
        for (decl, batches) in per_table {
            if !self.wanted(decl) {
                continue;
            }
            let i = self.open(decl)?;
            by_sink.resize_with(self.sinks.len(), Vec::new);
            by_sink[i].extend(batches);
        }
        pool.install(|| {
            self.sinks
                .par_iter_mut()
                .zip(by_sink)
                .try_for_each(|(sink, batches)| batches.into_iter().try_for_each(|b| sink.write(b)))
        })
    }
}

/// Adds `more`'s batches to `pending`'s, table by table.
pub(super) fn join_tables(pending: &mut WindowBatches, more: WindowBatches) {
    for (decl, batches) in more {
        match pending.iter_mut().find(|p| *p.0 == *decl) {
            Some(p) => p.1.extend(batches),
            None => pending.push((decl, batches)),
        }
    }
}

/// Windows of batches that may wait for the writer.
pub(super) const WINDOWS_IN_FLIGHT: usize = 2;

/// Rows (of all tables) below which windows are joined before they go to
/// the writer: about 1 MiB of input (a full window of 4 MiB has some 190,000).
pub(super) const JOINED_ROWS: usize = 50_000;

/// Bytes of Arrow arrays at which joined windows go to the writer whatever
/// their rows (a few hands with values of megabytes). 50,000 rows of
/// generated hands, about 1.2 MB of input, build about 5 MB of arrays (4.3
/// bytes an input byte in `deckhand bench`).
pub(super) const JOINED_BYTES: usize = 16 << 20;

/// Joined windows of many small files hold a batch per file and table, each
/// with its own buffers for every column, and the writer keeps up to 8,192
/// rows of them (20,000 files of one hand: 546 MB of anonymous memory at the
/// peak). Past this many batches, a table's are concatenated into one before
/// they go to the writer (the bytes written do not depend on how rows come
/// in batches).
pub(super) const COMPACT_BATCHES: usize = 64;

pub(super) fn compact(per_table: WindowBatches) -> Result<WindowBatches, Error> {
    per_table
        .into_iter()
        .map(|(decl, batches)| {
            if batches.len() <= COMPACT_BATCHES {
                return Ok((decl, batches));
            }
            let joined = arrow_select::concat::concat_batches(&batches[0].schema(), &batches)?;
            Ok((decl, vec![joined]))
        })
        .collect()
}
