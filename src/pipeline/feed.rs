//! One input file into windows of records. A mapped file is scanned in place.
//! A stream (stdin, a compressed file, a file with old-Mac line ends) is read
//! in pieces into a buffer that keeps only what the splitter still needs, so
//! memory does not grow with the input: a record too large to parse keeps only
//! its first bytes (for the `errors` table's raw text) while the rest of it is
//! scanned and dropped. Both ways give the same items, the same file state
//! and so the same tables.

use std::io::Read;
use std::time::Instant;

use super::budget::{self, Budget};
use super::window::{
    Records, build_window, deliver, group_cuts, lex_window, parse_groups, process_window,
    record_bytes,
};
use super::{Consumer, FileSummary, Options, Shared};
use crate::Error;
use crate::columns::errors_table::RAW_LIMIT;
use crate::notation::{FileInfo, Notation};
use crate::source::Stream;
use crate::split::{self, BOM, CR_SNIFF_BYTES, Item, ItemKind, MAX_RECORD_BYTES, Splitter};

/// A reader that can say how far into its raw input it is (for progress).
pub trait Pull: Read {
    fn consumed(&self) -> u64;
}

impl Pull for Stream {
    fn consumed(&self) -> u64 {
        self.raw_consumed()
    }
}

/// Any reader, counting what it hands out.
pub struct Counted<'r> {
    inner: &'r mut dyn Read,
    pos: u64,
}

impl<'r> Counted<'r> {
    pub fn new(inner: &'r mut dyn Read) -> Self {
        Counted { inner, pos: 0 }
    }
}

impl Read for Counted<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(out)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl Pull for Counted<'_> {
    fn consumed(&self) -> u64 {
        self.pos
    }
}

/// A file split, lexed and resolved, not built ([`FileRun::lex_only`]).
pub(super) struct LexedFile<'a, N: Notation> {
    /// Its groups in input order, each with its bytes of records.
    pub groups: Vec<(N::Group<'a>, u64)>,
    /// Records parsed (comment-only blocks included; a record of several
    /// hands counts each).
    pub records: u64,
    /// Its summary so far (bytes; nothing is counted before building).
    pub fs: FileSummary,
}

/// What one file's run needs and what it has counted so far.
pub(super) struct FileRun<'r, 'c, N: Notation> {
    pub notation: &'r N,
    pub file: &'r FileInfo,
    pub opts: &'r Options,
    pub pool: &'r rayon::ThreadPool,
    pub consume: &'r mut Consumer<'c>,
    pub bar: &'r indicatif::ProgressBar,
    pub started: Instant,
    pub fs: FileSummary,
    carry: N::Carry,
    record_index: u64,
    budget: Budget,
}

impl<'r, 'c, N: Notation> FileRun<'r, 'c, N> {
    pub fn new(
        notation: &'r N,
        file: &'r FileInfo,
        cx: &Shared<'r>,
        consume: &'r mut Consumer<'c>,
    ) -> Self {
        FileRun {
            notation,
            file,
            opts: cx.opts,
            pool: cx.pool,
            consume,
            bar: cx.bar,
            started: cx.started,
            fs: FileSummary {
                path: file.name.clone(),
                notation: Some(notation.about().label),
                ..Default::default()
            },
            carry: Default::default(),
            record_index: 0,
            budget: Budget::new(cx.opts),
        }
    }

    /// Applies the directives among `items` (which lie in `bytes`, whose
    /// first byte is at absolute offset `base`) to `state`, in order, and
    /// lists the records with their indexes and the state at each.
    fn records<'a>(
        &mut self,
        bytes: &'a [u8],
        base: u64,
        items: &[Item],
        state: &mut N::FileState<'a>,
    ) -> Records<'a, N> {
        let notation = self.notation;
        let mut records = Vec::with_capacity(items.len());
        for it in items {
            match it.kind {
                ItemKind::Directive => {
                    let start = (it.start - base) as usize;
                    let end = ((it.end - base) as usize).min(bytes.len());
                    notation.directive(state, &bytes[start..end]);
                }
                ItemKind::Record => {
                    records.push((*it, self.record_index, notation.record_context(state)));
                    self.record_index += 1;
                }
            }
        }
        records
    }

    /// Shows the records converted per second so far.
    fn show_rate(&self) {
        let secs = self.started.elapsed().as_secs_f64().max(1e-9);
        self.bar
            .set_message(format!("{:.0} records/s", self.fs.converted as f64 / secs));
    }

    /// Handles `items` (in input order), which lie in `bytes`, whose first
    /// byte is at absolute offset `base`: the phases one after the other,
    /// with the file state saved between calls (the bytes may then go).
    fn segment(&mut self, bytes: &[u8], base: u64, items: &[Item]) -> Result<(), Error> {
        let notation = self.notation;
        let carry = std::mem::take(&mut self.carry);
        let mut state = notation.restore(&carry);
        let records = self.records(bytes, base, items, &mut state);
        // One window, or several where the last one built much per byte.
        let mut rest = &records[..];
        while !rest.is_empty() {
            let n = budget::cut_by(rest, |r| &r.0, self.budget.limit()).unwrap_or(rest.len());
            let (window, more) = rest.split_at(n);
            let built = process_window(
                notation,
                self.file,
                bytes,
                base,
                window,
                self.opts,
                self.pool,
                &mut state,
                self.consume,
                &mut self.fs,
            )?;
            self.budget.observe(record_bytes(window), built);
            rest = more;
        }
        let saved = notation.save(&state);
        drop((state, records));
        self.carry = saved;
        self.show_rate();
        Ok(())
    }

    /// A whole input in memory (a mapped file). The bytes stay for the whole
    /// run, so the phases of neighbouring windows overlap: while one window's
    /// groups are built into tables, the next window's groups are lexed and
    /// the splitter finds the window after that; only the in-order resolving
    /// and the handing over run alone. Same tables as [`FileRun::segment`]
    /// gives, window after window.
    pub fn run_bytes(mut self, bytes: &[u8]) -> Result<FileSummary, Error> {
        if split::is_cr_only(bytes) {
            return self.run_stream(&mut Counted::new(&mut &bytes[..]));
        }
        self.fs.bytes = bytes.len() as u64;
        let mut scan = Scan::new(self.notation, bytes, self.opts);
        let (notation, file, opts, pool) = (self.notation, self.file, self.opts, self.pool);
        let carry = N::Carry::default();
        let mut state = notation.restore(&carry);
        // Lexed and resolved groups waiting to be built, their records
        // (as parsed) and bytes.
        let mut pending: Option<(Vec<N::Group<'_>>, usize, u64)> = None;
        let mut items = Vec::new();
        let mut last = scan.window(&mut items, self.budget.limit());
        let mut done = 0u64;
        loop {
            let records = self.records(bytes, 0, &items, &mut state);
            let earlier = pending.take();
            let mut next = Vec::new();
            // From the ratio of the window built last turn: the window cut
            // now is lexed next turn, while this one's is built.
            let limit = self.budget.limit();
            let ((built, mut groups), next_last) = pool.join(
                || {
                    rayon::join(
                        || earlier.map(|(g, n, b)| (build_window(notation, file, &g), n, b)),
                        || lex_window(notation, bytes, 0, &records, opts),
                    )
                },
                || last || scan.window(&mut next, limit),
            );
            if let Some((built, n, input)) = built {
                let array_bytes = deliver(built, n, opts, self.consume, &mut self.fs)?;
                self.budget.observe(input, array_bytes);
                self.show_rate();
            }
            notation.resolve(&mut state, &mut groups);
            if !records.is_empty() {
                let parsed = groups.iter().map(|g| notation.parsed(g)).sum();
                pending = Some((groups, parsed, record_bytes(&records)));
            }
            let window_end = items.last().map_or(done, |l| l.end);
            self.bar.inc(window_end.saturating_sub(done));
            done = window_end;
            // After the last window, one more turn (with no items) builds it.
            if last && pending.is_none() {
                break;
            }
            (items, last) = (next, next_last);
        }
        self.bar.inc((bytes.len() as u64).saturating_sub(done));
        Ok(self.fs)
    }

    /// A small input in memory split, lexed and resolved but not built: its
    /// groups in input order, each with its bytes of records, and how many
    /// records it has (for building with the groups of other small inputs;
    /// the same groups as [`FileRun::run_bytes`] builds). None for an input
    /// with old-Mac line ends, which is read as a stream. Progress is the
    /// caller's to count (the bytes may have been decompressed).
    pub fn lex_only<'a>(mut self, bytes: &'a [u8]) -> Option<LexedFile<'a, N>> {
        if split::is_cr_only(bytes) {
            return None;
        }
        self.fs.bytes = bytes.len() as u64;
        let mut scan = Scan::new(self.notation, bytes, self.opts);
        let (notation, opts) = (self.notation, self.opts);
        let mut state = N::FileState::default();
        let mut out = Vec::new();
        let mut records_seen = 0;
        let mut items = Vec::new();
        loop {
            let last = scan.window(&mut items, None);
            let records = self.records(bytes, 0, &items, &mut state);
            let cuts = group_cuts(&records, opts.group_bytes);
            let mut groups = self
                .pool
                .install(|| parse_groups(notation, bytes, 0, &records, &cuts));
            notation.resolve(&mut state, &mut groups);
            records_seen += groups
                .iter()
                .map(|g| notation.parsed(g) as u64)
                .sum::<u64>();
            for (g, cut) in groups.into_iter().zip(cuts) {
                out.push((g, record_bytes(&records[cut])));
            }
            items.clear();
            if last {
                break;
            }
        }
        Some(LexedFile {
            groups: out,
            records: records_seen,
            fs: self.fs,
        })
    }

    /// An input read in pieces; memory stays bounded whatever its size.
    pub fn run_stream(mut self, reader: &mut dyn Pull) -> Result<FileSummary, Error> {
        let chunk = self.opts.chunk_bytes.max(1);
        let window_bytes = self.opts.window_bytes();
        let path: std::path::PathBuf = self.file.name.clone().into();
        let read_err = |source| Error::Read {
            path: path.clone(),
            source,
        };
        // buf[0] is at absolute offset `base`; bytes up to `fed` were scanned.
        let mut buf: Vec<u8> = Vec::new();
        let mut base = 0u64;
        let mut fed = 0u64;
        let mut scanner: Option<N::Splitter> = None;
        let mut cr = false;
        // Just past the last non-white byte scanned.
        let mut content_end = 0u64;
        // A record over the limit being skipped: its start and first bytes.
        let mut skip: Option<(u64, Vec<u8>)> = None;
        let mut items: Vec<Item> = Vec::new();
        let mut progress = 0u64;
        let mut eof = false;
        while !eof {
            eof = fill(reader, &mut buf, chunk).map_err(read_err)?;
            if scanner.is_none() {
                // Read on until the line ends can be judged.
                let mut seen = 0;
                while !eof
                    && buf.len() < CR_SNIFF_BYTES
                    && memchr::memchr(b'\n', &buf[seen..]).is_none()
                {
                    seen = buf.len();
                    eof = fill(reader, &mut buf, chunk).map_err(read_err)?;
                }
            }
            let sc = scanner.get_or_insert_with(|| {
                cr = split::is_cr_only(&buf);
                fed = if buf.starts_with(BOM) { BOM.len() } else { 0 } as u64;
                self.notation.splitter(fed)
            });
            let from = (fed - base) as usize;
            let to = if cr {
                split::lone_cr_to_lf(&mut buf, from, eof)
            } else {
                buf.len()
            };
            if let Some(p) = buf[from..to].iter().rposition(|&b| !split::is_ws(b)) {
                content_end = base + (from + p + 1) as u64;
            }
            sc.scan(&buf, base, to, &mut items);
            fed = base + to as u64;
            if eof {
                split::end_input(sc, &buf, base, &mut items);
            }
            // A record that was skipped has ended: it goes alone, with the
            // bytes kept of it (a notation quarantines it).
            if let Some((start, _)) = skip
                && items.first().is_some_and(|it| it.start == start)
                && let Some((start, prefix)) = skip.take()
            {
                self.segment(&prefix, start, &items[..1])?;
                items.remove(0);
            }
            if !items.is_empty() && (eof || (fed - base) as usize >= window_bytes) {
                self.segment(&buf, base, &items)?;
                items.clear();
            }
            if items.is_empty() {
                let sc = scanner.as_ref().expect("set above");
                let open = sc.open_start();
                let keep = if skip.is_some() {
                    fed
                } else {
                    open.clamp(base, fed)
                };
                buf.drain(..(keep - base) as usize);
                base = keep;
                let over = content_end > open && (content_end - open) as usize > MAX_RECORD_BYTES
                    || (fed - open) as usize > 4 * MAX_RECORD_BYTES;
                if skip.is_none() && open >= base && over {
                    // Keep a little more than the raw text that is reported.
                    let s = (open - base) as usize;
                    let e = (fed - base) as usize;
                    let prefix = buf[s..e.min(s + RAW_LIMIT + 8)].to_vec();
                    skip = Some((open, prefix));
                    buf.drain(..e);
                    base = fed;
                }
                if buf.capacity() > 4 * chunk.max(CR_SNIFF_BYTES) && buf.len() < chunk {
                    buf.shrink_to(2 * chunk);
                }
            }
            let now = reader.consumed();
            self.bar.inc(now.saturating_sub(progress));
            progress = now;
        }
        debug_assert!(skip.is_none() && items.is_empty());
        self.fs.bytes = base + buf.len() as u64;
        Ok(self.fs)
    }
}

/// Appends up to `want` bytes read from `r` to `buf`; true at the end of
/// input. On an error the bytes read before it stay in `buf`.
pub(super) fn fill(r: &mut dyn Pull, buf: &mut Vec<u8>, want: usize) -> std::io::Result<bool> {
    let start = buf.len();
    buf.resize(start + want, 0);
    let mut got = 0;
    let result = loop {
        if got == want {
            break Ok(false);
        }
        match r.read(&mut buf[start + got..]) {
            Ok(0) => break Ok(true),
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => break Err(e),
        }
    };
    buf.truncate(start + got);
    result
}

/// The splitter over a mapped file, a window of items at a time.
struct Scan<'b, S> {
    bytes: &'b [u8],
    scanner: S,
    /// Bytes before this were fed to the scanner.
    pos: usize,
    /// Bytes fed at a time.
    chunk: usize,
    /// Bytes of records that make a window.
    window: u64,
    /// Items found but left for the next window (cut by a [`Budget`]).
    rest: Vec<Item>,
    /// The input has ended: every item is found.
    ended: bool,
}

impl<'b, S: Splitter> Scan<'b, S> {
    /// The splitter of `notation` over `bytes` (after a BOM), fed a piece at a time.
    fn new<N: Notation<Splitter = S>>(notation: &N, bytes: &'b [u8], opts: &Options) -> Self {
        let start = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
        Scan {
            bytes,
            scanner: notation.splitter(start as u64),
            pos: start,
            chunk: opts.chunk_bytes.max(1),
            window: opts.window_bytes() as u64,
            rest: Vec::new(),
            ended: false,
        }
    }

    /// Feeds chunks until `items` spans a window or the input ends (then
    /// true, with the records recovered from an unterminated brace, once
    /// every item has been handed out). With a `limit`, a window spans at
    /// most that many bytes (or one item) and the items after it wait for
    /// the next call.
    fn window(&mut self, items: &mut Vec<Item>, limit: Option<u64>) -> bool {
        items.append(&mut self.rest);
        loop {
            if let Some(n) = budget::cut(items, limit) {
                self.rest = items.split_off(n);
                return false;
            }
            if self.ended {
                return true;
            }
            if let (Some(f), Some(l)) = (items.first(), items.last())
                && l.end - f.start >= self.window
            {
                return false;
            }
            let end = (self.pos + self.chunk).min(self.bytes.len());
            self.scanner.scan(self.bytes, 0, end, items);
            self.pos = end;
            if end == self.bytes.len() {
                split::end_input(&mut self.scanner, self.bytes, 0, items);
                self.ended = true;
            }
        }
    }
}
