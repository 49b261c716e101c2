//! Inputs as byte slices: regular files are memory-mapped; stdin, pipes and
//! anything that cannot be mapped are read into memory. The rest of the code
//! sees only `&[u8]`.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use crate::Error;

pub enum Source {
    Mapped(Mmap),
    Read(Vec<u8>),
}

/// An opened input and what is worth knowing about how it was read.
pub struct Opened {
    pub source: Source,
    /// Set when a compressed stream was damaged: what happened and what was kept.
    pub warning: Option<String>,
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

    /// Decompresses `data` (into memory): what could be decoded, and the
    /// error that stopped decoding, if any (a damaged or truncated stream).
    pub fn decompress(self, data: &[u8]) -> (Vec<u8>, Option<std::io::Error>) {
        let mut out = Vec::with_capacity(data.len() * 4);
        let r = match self {
            Compression::Gzip => flate2::read::MultiGzDecoder::new(data).read_to_end(&mut out),
            Compression::Zstd => {
                zstd::stream::read::Decoder::new(data).and_then(|mut d| d.read_to_end(&mut out))
            }
            Compression::Bzip2 => bzip2::read::MultiBzDecoder::new(data).read_to_end(&mut out),
            Compression::Xz => {
                liblzma::read::XzDecoder::new_multi_decoder(data).read_to_end(&mut out)
            }
        };
        (out, r.err())
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

/// The name that stands for standard input.
pub const STDIN: &str = "-";

impl Source {
    /// Opens an input: memory-mapped when possible; stdin and unmappable
    /// files are read. Gzip, zstd, bzip2 and xz inputs (recognized by their
    /// first bytes, whatever their name) are decompressed, into memory.
    pub fn open(path: &Path) -> Result<Source, Error> {
        Ok(Self::open_checked(path)?.source)
    }

    /// [`Source::open`], reporting damaged compressed streams: one that cannot
    /// be decoded at all is read as plain bytes (so its content is quarantined
    /// like any other); one that breaks off keeps what was decoded.
    pub fn open_checked(path: &Path) -> Result<Opened, Error> {
        let raw = Self::open_raw(path)?;
        let Some(c) = Compression::sniff(raw.bytes()) else {
            return Ok(Opened {
                source: raw,
                warning: None,
            });
        };
        match c.decompress(raw.bytes()) {
            (data, None) => Ok(Opened {
                source: Source::Read(data),
                warning: None,
            }),
            (data, Some(e)) if data.is_empty() => Ok(Opened {
                source: raw,
                warning: Some(format!(
                    "starts like {} but cannot be decoded ({e}); read as plain bytes",
                    c.name()
                )),
            }),
            (data, Some(e)) => Ok(Opened {
                warning: Some(format!(
                    "{} stream is damaged or truncated after {} decoded bytes ({e}); the records before the damage are converted, the rest is lost",
                    c.name(),
                    data.len()
                )),
                source: Source::Read(data),
            }),
        }
    }

    fn open_raw(path: &Path) -> Result<Source, Error> {
        let err = |source| Error::Read {
            path: path.to_path_buf(),
            source,
        };
        if path.as_os_str() == STDIN {
            let mut v = Vec::new();
            std::io::stdin().lock().read_to_end(&mut v).map_err(err)?;
            return Ok(Source::Read(v));
        }
        let mut file = File::open(path).map_err(err)?;
        let meta = file.metadata().map_err(err)?;
        if meta.is_file() && meta.len() > 0 {
            // SAFETY: the map is read-only and lives as long as the Source. As with
            // every mapped reader, a file truncated by another process while we read
            // it may fault; deckhand documents that inputs must not change during a run.
            if let Ok(map) = unsafe { Mmap::map(&file) } {
                return Ok(Source::Mapped(map));
            }
        }
        let mut v = Vec::new();
        file.read_to_end(&mut v).map_err(err)?;
        Ok(Source::Read(v))
    }

    pub fn bytes(&self) -> &[u8] {
        match self {
            Source::Mapped(m) => m,
            Source::Read(v) => v,
        }
    }
}

/// File names that directories are searched for: `*.ppn`, optionally compressed.
pub fn is_ppn_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let base = [".gz", ".zst", ".bz2", ".xz"]
        .iter()
        .find_map(|z| lower.strip_suffix(z))
        .unwrap_or(&lower);
    base.ends_with(".ppn")
}

/// Expands the command line's inputs: files are taken as given (in order),
/// directories are searched recursively for `*.ppn` files (also `.ppn.gz`,
/// `.ppn.zst`, `.ppn.bz2`, `.ppn.xz`), in sorted path order.
pub fn expand_inputs(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    for input in inputs {
        if input.as_os_str() != STDIN && input.is_dir() {
            let mut found = Vec::new();
            walk(input, &mut found)?;
            if found.is_empty() {
                return Err(Error::NoInputs(input.clone()));
            }
            found.sort();
            out.extend(found);
        } else {
            out.push(input.clone());
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), Error> {
    let err = |source| Error::Read {
        path: dir.to_path_buf(),
        source,
    };
    for entry in std::fs::read_dir(dir).map_err(err)? {
        let path = entry.map_err(err)?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(is_ppn_name)
        {
            out.push(path);
        }
    }
    Ok(())
}
