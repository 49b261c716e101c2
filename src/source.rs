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

/// The name that stands for standard input.
pub const STDIN: &str = "-";

impl Source {
    pub fn open(path: &Path) -> Result<Source, Error> {
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

/// File extensions that directories are searched for.
pub const EXTENSIONS: &[&str] = &["ppn"];

/// Expands the command line's inputs: files are taken as given (in order),
/// directories are searched recursively for files with a known extension, in
/// sorted path order.
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
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
        {
            out.push(path);
        }
    }
    Ok(())
}
