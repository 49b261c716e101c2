//! Inputs: regular files are memory-mapped; stdin, pipes, compressed files
//! and anything that cannot be mapped are read as a [`Stream`], in pieces,
//! decompressed on the way (gzip, zstd, bzip2 and xz, recognized by their
//! first bytes whatever the file's name).

use std::collections::HashSet;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use memmap2::Mmap;

use crate::Error;

pub enum Source {
    Mapped(Mmap),
    Read(Vec<u8>),
}

/// Compression formats recognized by their first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    Gzip,
    Zstd,
    Bzip2,
    Xz,
}

impl Compression {
    pub fn sniff(head: &[u8]) -> Option<Compression> {
        if head.starts_with(&[0x1f, 0x8b]) {
            Some(Compression::Gzip)
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Some(Compression::Zstd)
        } else if head.starts_with(b"BZh") && head.get(3).is_some_and(|b| (b'1'..=b'9').contains(b))
        {
            Some(Compression::Bzip2)
        } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
            Some(Compression::Xz)
        } else {
            None
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
            Compression::Bzip2 => "bzip2",
            Compression::Xz => "xz",
        }
    }
}

/// How text that starts with `head` is UTF-16, if it is: `big_endian`, and
/// how many of its first bytes are a byte-order mark (2, or 0 for text
/// without one). Without a mark, UTF-16 is recognized by its first two
/// characters: ASCII text or white space with a zero byte beside each (`[`,
/// `%`, `{` ... as `5B 00 25 00` little-endian, `00 5B 00 25` big-endian),
/// which no UTF-8 or Latin-1 text starts with (a file written by Windows
/// tools that leave the mark out; before, every byte of it was read as
/// text, the zero bytes too, and the file was one quarantined record).
pub fn utf16_start(head: &[u8]) -> Option<(bool, usize)> {
    let text = |b: u8| matches!(b, b'\t' | b'\n' | b'\r' | b' '..=b'~');
    match *head {
        [0xFF, 0xFE, ..] => Some((false, 2)),
        [0xFE, 0xFF, ..] => Some((true, 2)),
        [a, 0, b, 0, ..] if text(a) && text(b) => Some((false, 0)),
        [0, a, 0, b, ..] if text(a) && text(b) => Some((true, 0)),
        _ => None,
    }
}

/// Whether an input that starts with `head` can be read as it is: not
/// compressed, and not UTF-16 (which a [`Stream`] turns into UTF-8).
pub fn is_plain(head: &[u8]) -> bool {
    Compression::sniff(head).is_none() && utf16_start(head).is_none()
}

/// How the pipeline reads one input.
pub enum Input {
    /// A regular, uncompressed file.
    Mapped(Mmap),
    /// Everything else, read in pieces.
    Stream(Stream),
}

impl Input {
    /// Opens an input: a regular file that does not start like a compressed
    /// stream or UTF-16 text is memory-mapped; anything else is streamed.
    pub fn open(path: &Path) -> Result<Input, Error> {
        let err = |source| Error::Read {
            path: path.to_path_buf(),
            source,
        };
        if path.as_os_str() == STDIN {
            return Stream::new(Box::new(std::io::stdin()))
                .map(Input::Stream)
                .map_err(err);
        }
        let file = File::open(path).map_err(err)?;
        let meta = file.metadata().map_err(err)?;
        if meta.is_file() && meta.len() > 0 {
            // SAFETY: the map is read-only and lives as long as the Input. As with
            // every mapped reader, a file truncated by another process while we read
            // it faults (SIGBUS): the command-line tool's handler (`sigbus`) then
            // names the input and exits.
            crate::sigbus::mapping(path);
            if let Ok(map) = unsafe { Mmap::map(&file) }
                && is_plain(&map)
            {
                return Ok(Input::Mapped(map));
            }
        }
        Stream::new(Box::new(file)).map(Input::Stream).map_err(err)
    }
}

/// Raw bytes are kept while a compressed stream has not produced any output,
/// up to this many, so that an input that only starts like one can be read as
/// plain bytes instead.
const REPLAY_LIMIT: usize = 16 << 20;

/// The raw side of a [`Stream`], shared with its decoder.
struct Raw {
    reader: Box<dyn Read + Send>,
    /// Bytes to hand out before reading on: the sniffed head, or what a
    /// failed decoder took, to be read again as plain bytes.
    head: Vec<u8>,
    head_pos: usize,
    /// Raw bytes handed out so far.
    consumed: u64,
    /// Copy of what was handed out, while `recording`.
    recorded: Vec<u8>,
    recording: bool,
}

/// Shared between a [`Stream`] and its decoder (a mutex rather than a cell so
/// that a stream can be read on a thread of its own; never contended).
#[derive(Clone)]
struct RawHandle(Arc<Mutex<Raw>>);

impl RawHandle {
    fn lock(&self) -> MutexGuard<'_, Raw> {
        // (A reader that panicked leaves nothing half-done that matters here.)
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Read for RawHandle {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let raw = &mut *self.lock();
        let n = if raw.head_pos < raw.head.len() {
            let n = out.len().min(raw.head.len() - raw.head_pos);
            out[..n].copy_from_slice(&raw.head[raw.head_pos..raw.head_pos + n]);
            raw.head_pos += n;
            n
        } else {
            raw.reader.read(out)?
        };
        raw.consumed += n as u64;
        if raw.recording {
            if raw.recorded.len() + n > REPLAY_LIMIT {
                raw.recording = false;
                raw.recorded = Vec::new();
            } else {
                raw.recorded.extend_from_slice(&out[..n]);
            }
        }
        Ok(n)
    }
}

enum Decode {
    Plain,
    Decoding(Compression, Box<dyn Read + Send>),
    Done,
}

/// What the (decompressed) bytes of a [`Stream`] are.
enum Text {
    /// Not known until its first bytes are read.
    Unknown,
    /// Handed out as they are (UTF-8, Latin-1, or anything else).
    Plain,
    /// UTF-16 text (after its byte-order mark), handed out as UTF-8.
    Utf16(Utf16),
}

/// An input read in pieces, decompressed when it starts like a compressed
/// stream, and turned into UTF-8 when its text starts with a UTF-16
/// byte-order mark. A stream that cannot be decoded at all is read as plain
/// bytes (so its content is quarantined like any other); one that breaks off
/// ends where the damage is. Either way [`Stream::warning`] says so.
pub struct Stream {
    raw: RawHandle,
    decode: Decode,
    produced: u64,
    warning: Option<String>,
    text: Text,
    /// Bytes to hand out before reading on: the text's first bytes, when
    /// they were not a UTF-16 mark, or UTF-8 made from UTF-16.
    out: Vec<u8>,
    out_pos: usize,
}

/// UTF-16 to UTF-8 (unpaired surrogates and an odd last byte become U+FFFD).
struct Utf16 {
    big_endian: bool,
    /// Raw bytes not yet turned into text: an odd byte, or the first half
    /// of a surrogate pair, left from the last read.
    left: Vec<u8>,
    ended: bool,
    /// Room for the raw bytes of one read.
    raw: Vec<u8>,
}

/// Raw UTF-16 bytes read at a time.
const UTF16_PIECE: usize = 64 << 10;

impl Utf16 {
    /// Turns `raw` (after what was left) into UTF-8 appended to `out`;
    /// `end`: no more bytes come.
    fn decode(&mut self, raw: &[u8], end: bool, out: &mut Vec<u8>) {
        self.left.extend_from_slice(raw);
        let bytes = std::mem::take(&mut self.left);
        let mut whole = bytes.len() / 2;
        let unit = |i: usize| {
            let pair = [bytes[2 * i], bytes[2 * i + 1]];
            if self.big_endian {
                u16::from_be_bytes(pair)
            } else {
                u16::from_le_bytes(pair)
            }
        };
        // A high surrogate last waits for its pair, unless the text ends.
        if !end && whole > 0 && (0xD800..0xDC00).contains(&unit(whole - 1)) {
            whole -= 1;
        }
        let mut buf = [0u8; 4];
        for c in char::decode_utf16((0..whole).map(unit)) {
            let c = c.unwrap_or(char::REPLACEMENT_CHARACTER);
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
        if end {
            if bytes.len() % 2 == 1 {
                out.extend_from_slice(char::REPLACEMENT_CHARACTER.encode_utf8(&mut buf).as_bytes());
            }
        } else {
            self.left = bytes[2 * whole..].to_vec();
        }
    }
}

impl Stream {
    pub fn new(mut reader: Box<dyn Read + Send>) -> std::io::Result<Stream> {
        let mut head = vec![0u8; 6];
        let mut got = 0;
        while got < head.len() {
            match reader.read(&mut head[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        head.truncate(got);
        let compression = Compression::sniff(&head);
        let raw = RawHandle(Arc::new(Mutex::new(Raw {
            reader,
            head,
            head_pos: 0,
            consumed: 0,
            recorded: Vec::new(),
            recording: compression.is_some(),
        })));
        let decode = match compression {
            None => Decode::Plain,
            Some(c) => {
                let r = raw.clone();
                let d: std::io::Result<Box<dyn Read + Send>> = match c {
                    Compression::Gzip => Ok(Box::new(flate2::read::MultiGzDecoder::new(r))),
                    Compression::Zstd => zstd::stream::read::Decoder::new(r)
                        .map(|d| Box::new(d) as Box<dyn Read + Send>),
                    Compression::Bzip2 => Ok(Box::new(bzip2::read::MultiBzDecoder::new(r))),
                    Compression::Xz => Ok(Box::new(liblzma::read::XzDecoder::new_multi_decoder(r))),
                };
                Decode::Decoding(c, d?)
            }
        };
        Ok(Stream {
            raw,
            decode,
            produced: 0,
            warning: None,
            text: Text::Unknown,
            out: Vec::new(),
            out_pos: 0,
        })
    }

    /// Raw (compressed) bytes read so far.
    pub fn raw_consumed(&self) -> u64 {
        self.raw.lock().consumed
    }

    /// How the stream was damaged, if it was: what happened and what was kept.
    pub fn warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }

    /// Its first `n` bytes (fewer if it is shorter), which are read again.
    pub fn peek(&mut self, n: usize) -> std::io::Result<Vec<u8>> {
        let mut head = Vec::with_capacity(n);
        (&mut *self).take(n as u64).read_to_end(&mut head)?;
        let rest = self.out.split_off(self.out_pos.min(self.out.len()));
        self.out = head.clone();
        self.out.extend_from_slice(&rest);
        self.out_pos = 0;
        Ok(head)
    }
}

/// The first `n` bytes of the file at `path`, decompressed and made UTF-8
/// as the pipeline reads it (fewer if it is shorter).
pub fn read_head(path: &Path, n: usize) -> Result<Vec<u8>, Error> {
    read_head_whole(path, n).map(|h| h.0)
}

/// [`read_head`], and whether the bytes are all of the file as it is on
/// disk (a plain file of fewer than `n` bytes).
pub fn read_head_whole(path: &Path, n: usize) -> Result<(Vec<u8>, bool), Error> {
    let err = |source| Error::Read {
        path: path.to_path_buf(),
        source,
    };
    let mut file = File::open(path).map_err(err)?;
    let mut head = Vec::with_capacity(n);
    (&mut file)
        .take(n as u64)
        .read_to_end(&mut head)
        .map_err(err)?;
    if is_plain(&head) {
        let whole = head.len() < n;
        return Ok((head, whole));
    }
    // Compressed or UTF-16: read again through a stream.
    let file = File::open(path).map_err(err)?;
    let mut stream = Stream::new(Box::new(file)).map_err(err)?;
    head.clear();
    (&mut stream)
        .take(n as u64)
        .read_to_end(&mut head)
        .map_err(err)?;
    Ok((head, false))
}

impl Read for Stream {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        loop {
            if self.out_pos < self.out.len() {
                let n = out.len().min(self.out.len() - self.out_pos);
                out[..n].copy_from_slice(&self.out[self.out_pos..self.out_pos + n]);
                self.out_pos += n;
                return Ok(n);
            }
            self.out.clear();
            self.out_pos = 0;
            match &mut self.text {
                Text::Plain => return self.read_decoded(out),
                Text::Unknown => {
                    let mut head = [0u8; 4];
                    let mut got = 0;
                    while got < head.len() {
                        match self.read_decoded(&mut head[got..])? {
                            0 => break,
                            n => got += n,
                        }
                    }
                    let head = &head[..got];
                    self.text = match utf16_start(head) {
                        Some((big_endian, mark)) => Text::Utf16(Utf16 {
                            big_endian,
                            left: head[mark..].to_vec(),
                            ended: false,
                            raw: Vec::new(),
                        }),
                        None => {
                            self.out.extend_from_slice(head);
                            Text::Plain
                        }
                    };
                    if got == 0 {
                        return Ok(0);
                    }
                }
                Text::Utf16(u) if u.ended => return Ok(0),
                Text::Utf16(u) => {
                    let mut raw = std::mem::take(&mut u.raw);
                    raw.resize(UTF16_PIECE, 0);
                    let n = self.read_decoded(&mut raw)?;
                    let Text::Utf16(u) = &mut self.text else {
                        unreachable!("set above")
                    };
                    u.ended = n == 0;
                    u.decode(&raw[..n], n == 0, &mut self.out);
                    u.raw = raw;
                }
            }
        }
    }
}

impl Stream {
    /// Reads the decompressed bytes.
    fn read_decoded(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        loop {
            match &mut self.decode {
                Decode::Plain => return self.raw.read(out),
                Decode::Done => return Ok(0),
                Decode::Decoding(c, d) => {
                    let c = *c;
                    match d.read(out) {
                        Ok(n) => {
                            if n > 0 && self.produced == 0 {
                                let raw = &mut *self.raw.lock();
                                raw.recording = false;
                                raw.recorded = Vec::new();
                            }
                            self.produced += n as u64;
                            return Ok(n);
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(e) if self.produced == 0 && self.raw.lock().recording => {
                            self.warning = Some(format!(
                                "starts like {} but cannot be decoded ({e}); read as plain bytes",
                                c.name()
                            ));
                            // Hand out again, as plain bytes, everything the
                            // decoder took, then what it had not reached.
                            let raw = &mut *self.raw.lock();
                            let mut again = std::mem::take(&mut raw.recorded);
                            raw.consumed -= again.len() as u64;
                            again.extend_from_slice(&raw.head[raw.head_pos..]);
                            raw.head = again;
                            raw.head_pos = 0;
                            raw.recording = false;
                            self.decode = Decode::Plain;
                        }
                        Err(e) => {
                            self.warning = Some(format!(
                                "{} stream is damaged or truncated after {} decoded bytes ({e}); the records before the damage are converted, the rest is lost",
                                c.name(),
                                self.produced
                            ));
                            self.decode = Decode::Done;
                        }
                    }
                }
            }
        }
    }
}

/// The name that stands for standard input.
pub const STDIN: &str = "-";

/// Whether an input can be read once only: standard input, or what a path
/// names that is neither a regular file nor a directory (a named FIFO, the
/// `/dev/fd/N` of a shell's `<(zcat a.gz)`, a device). Such an input is
/// opened once and streamed, its first bytes routing it as they are read:
/// opened again, a FIFO waited for a writer forever, and a pipe's first
/// bytes, read to route it, were gone from the records.
pub fn reads_once(path: &Path) -> bool {
    path.as_os_str() == STDIN || std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

impl Source {
    /// Opens an input whole: mapped when it is a plain regular file, else
    /// read (and decompressed) into memory; for `deckhand bench`, which times
    /// parsing bytes already in memory. Conversion streams instead.
    pub fn open(path: &Path) -> Result<Source, Error> {
        match Input::open(path)? {
            Input::Mapped(map) => Ok(Source::Mapped(map)),
            Input::Stream(mut stream) => {
                let mut v = Vec::new();
                stream.read_to_end(&mut v).map_err(|source| Error::Read {
                    path: path.to_path_buf(),
                    source,
                })?;
                Ok(Source::Read(v))
            }
        }
    }

    pub fn bytes(&self) -> &[u8] {
        match self {
            Source::Mapped(m) => m,
            Source::Read(v) => v,
        }
    }
}

/// Whether a file found in a directory is an input (its path, and whether
/// it is a regular file): the composition root's notations decide
/// (`crate::registry::find_inputs`).
pub type IsInput<'a> = &'a dyn Fn(&Path, bool) -> bool;

/// The inputs of a command line, and the files its directories hold that
/// are not inputs.
#[derive(Debug, Default)]
pub struct Found {
    pub inputs: Vec<PathBuf>,
    /// Regular files found in directories whose name and content name no
    /// notation (hidden files, whose name starts with a dot, aside), in
    /// sorted path order.
    pub left_out: Vec<PathBuf>,
    /// Inputs given (or found) more than once: converted once, at their
    /// first place.
    pub repeated: Vec<PathBuf>,
}

/// Expands the command line's inputs: files are taken as given (in order),
/// directories are searched recursively for inputs (`is_input`: files
/// whose extension names a notation, also compressed, and files of other
/// names whose content starts like one), in sorted path order; with the
/// files of the directories that were left out. Every input is checked
/// before any is read: a file that does not exist or cannot be opened is an
/// error naming it as given.
pub fn find_inputs(inputs: &[PathBuf], is_input: IsInput<'_>) -> Result<Found, Error> {
    let mut out = Found::default();
    for input in inputs {
        if input.as_os_str() != STDIN && input.is_dir() {
            let mut found = Found::default();
            walk(is_input, input, &mut found, &mut HashSet::new())?;
            if found.inputs.is_empty() {
                return Err(Error::NoInputs(input.clone()));
            }
            found.inputs.sort();
            found.left_out.sort();
            out.inputs.extend(found.inputs);
            out.left_out.extend(found.left_out);
        } else {
            // Opened to see that it can be, unless it can be read once only
            // (it then exists: its `stat` said what it is).
            if !reads_once(input) {
                std::fs::File::open(input).map_err(|source| Error::Read {
                    path: input.clone(),
                    source,
                })?;
            }
            out.inputs.push(input.clone());
        }
    }
    // The same file twice (by its canonical path): once.
    let mut seen = HashSet::new();
    let mut kept = Vec::with_capacity(out.inputs.len());
    for p in std::mem::take(&mut out.inputs) {
        let key = if p.as_os_str() == STDIN {
            p.clone()
        } else {
            std::fs::canonicalize(&p).unwrap_or_else(|_| p.clone())
        };
        if seen.insert(key) {
            kept.push(p);
        } else {
            out.repeated.push(p);
        }
    }
    out.inputs = kept;
    Ok(out)
}

/// Removes from `inputs` the file at `output` where a directory search
/// found it (not where it was named among `named`), and returns it: an
/// export written into a directory it reads read its own last output as
/// an input again (3 hands, then 6, then 9...). A file named on the
/// command line stays (an export of a file onto itself is written under a
/// temporary name and replaces it).
pub fn leave_out_output(
    inputs: &mut Vec<PathBuf>,
    named: &[PathBuf],
    output: &Path,
) -> Option<PathBuf> {
    let out_id = file_id(output)?;
    let at = inputs.iter().position(|p| {
        p.file_name() == output.file_name()
            && !named.contains(p)
            && file_id(p).is_some_and(|id| id == out_id)
    })?;
    Some(inputs.remove(at))
}

/// What tells a file or directory from every other: its device and inode
/// (on other systems, its canonical path).
#[cfg(unix)]
type FileId = (u64, u64);
#[cfg(not(unix))]
type FileId = PathBuf;

#[cfg(unix)]
fn file_id(path: &Path) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn file_id(path: &Path) -> Option<FileId> {
    std::fs::canonicalize(path).ok()
}

/// Adds the inputs found in `dir` and below to `out`. Symbolic links are
/// followed, but a directory is searched once (`seen`): a link back to a
/// directory above it (a loop) gave every file below it 41 times, once a
/// level until the kernel refused to resolve the path (ELOOP).
fn walk(
    is_input: IsInput<'_>,
    dir: &Path,
    out: &mut Found,
    seen: &mut HashSet<FileId>,
) -> Result<(), Error> {
    if let Some(id) = file_id(dir)
        && !seen.insert(id)
    {
        return Ok(());
    }
    let err = |source| Error::Read {
        path: dir.to_path_buf(),
        source,
    };
    for entry in std::fs::read_dir(dir).map_err(err)? {
        let entry = entry.map_err(err)?;
        let path = entry.path();
        // The entry's type comes with the directory listing on most file
        // systems; only a symbolic link is followed with a `stat` of its own
        // (a directory of 20,000 files was 20,000 `stat` calls).
        let kind = entry.file_type().map_err(err)?;
        // (A broken link is none of the three: named `.ppn`, it is an input
        // that cannot be read, and says so.)
        let (is_dir, is_file, special) = if kind.is_symlink() {
            std::fs::metadata(&path).map_or((false, false, false), |m| {
                (m.is_dir(), m.is_file(), !m.is_dir() && !m.is_file())
            })
        } else {
            (
                kind.is_dir(),
                kind.is_file(),
                !kind.is_dir() && !kind.is_file(),
            )
        };
        if is_dir {
            walk(is_input, &path, out, seen)?;
        } else if special {
            // A FIFO, socket or device found in a directory is not an
            // archive, whatever its name: reading a FIFO waited for a
            // writer forever, opening a socket failed the run. (Named on
            // the command line, a FIFO is read: `convert <(zcat a.gz)`.)
        } else if is_input(&path, is_file) {
            out.inputs.push(path);
        } else if is_file && !entry.file_name().as_encoded_bytes().starts_with(b".") {
            out.left_out.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(bytes: &[u8]) -> (Vec<u8>, u64, Option<String>) {
        let mut s = Stream::new(Box::new(std::io::Cursor::new(bytes.to_vec()))).unwrap();
        let mut out = Vec::new();
        s.read_to_end(&mut out).unwrap();
        (out, s.raw_consumed(), s.warning().map(str::to_string))
    }

    #[test]
    fn plain_and_compressed_streams_read_back_exactly() {
        use std::io::Write;
        let text = b"[Event \"x\"]\n\n[Event \"y\"]\n".repeat(1000);
        assert_eq!(read_all(&text), (text.clone(), text.len() as u64, None));
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        z.write_all(&text).unwrap();
        let gz = z.finish().unwrap();
        assert_eq!(read_all(&gz), (text, gz.len() as u64, None));
    }

    /// A reader that hands out at most `step` bytes a call.
    struct Trickle(std::io::Cursor<Vec<u8>>, usize);

    impl Read for Trickle {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let n = out.len().min(self.1);
            self.0.read(&mut out[..n])
        }
    }

    #[test]
    fn utf16_text_is_read_as_utf8() {
        use std::io::Write;
        // Non-ASCII text, a character outside the BMP (a surrogate pair),
        // lines of more than a read's worth of bytes.
        let text = format!(
            "[Event \"Überraschung 🂡\"]\n[Site \"{}\"]\n\n[Event \"y\"]\n",
            "é".repeat(40_000)
        );
        let units: Vec<u16> = text.encode_utf16().collect();
        let le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(units.iter().flat_map(|u| u.to_le_bytes()))
            .collect();
        let be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain(units.iter().flat_map(|u| u.to_be_bytes()))
            .collect();
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        z.write_all(&le).unwrap();
        let gz = z.finish().unwrap();
        // The same text without its byte-order mark.
        let (bare_le, bare_be) = (le[2..].to_vec(), be[2..].to_vec());
        for (what, bytes) in [
            ("le", &le),
            ("be", &be),
            ("gzip", &gz),
            ("le without a mark", &bare_le),
            ("be without a mark", &bare_be),
        ] {
            for step in [1, 3, 4096, 1 << 20] {
                let reader = Trickle(std::io::Cursor::new(bytes.clone()), step);
                let mut s = Stream::new(Box::new(reader)).unwrap();
                let mut out = Vec::new();
                s.read_to_end(&mut out).unwrap();
                assert!(out == text.as_bytes(), "{what} step {step}");
                assert_eq!(s.raw_consumed(), bytes.len() as u64);
            }
        }
        // An unpaired surrogate and an odd last byte become U+FFFD.
        let odd = [0xFF, 0xFE, b'a', 0, 0x00, 0xD8, b'b', 0, b'c'];
        assert_eq!(read_all(&odd).0, "a\u{FFFD}b\u{FFFD}".as_bytes());
        assert_eq!(read_all(&[0xFF, 0xFE]).0, b"");
        // Text that only starts like it is read as it is.
        assert_eq!(read_all(&[0xFF]).0, [0xFF]);
        assert_eq!(read_all(b"\xFEx").0, b"\xFEx");
        assert!(is_plain(b"[Event") && !is_plain(&le) && !is_plain(&be) && !is_plain(&gz));
        assert!(!is_plain(&bare_le) && !is_plain(&bare_be));
        // Without a mark: two characters of ASCII text, each beside a zero.
        assert_eq!(read_all(b"%\0\n\0").0, b"%\n");
        assert_eq!(read_all(b"\0[\0E").0, b"[E");
        assert_eq!(read_all(b"[\0\x80\0").0, b"[\0\x80\0");
        assert_eq!(read_all(b"[\0\0\0").0, b"[\0\0\0");
        assert_eq!(read_all(b"[\0E").0, b"[\0E");
        assert_eq!(read_all(b"[E\0\0").0, b"[E\0\0");
    }

    #[test]
    fn an_undecodable_stream_is_read_again_as_plain_bytes() {
        // Starts like gzip: the decoder takes these bytes, fails, and every
        // byte is handed out again, once, in order.
        let fake = b"\x1f\x8bnot gzip at all\n[Event \"x\"]\n".repeat(100);
        let (out, consumed, warning) = read_all(&fake);
        assert_eq!(out, fake);
        assert_eq!(consumed, fake.len() as u64);
        assert_eq!(
            warning.as_deref(),
            Some(
                "starts like gzip but cannot be decoded (invalid gzip header); read as plain bytes"
            )
        );
    }
}
