//! The dataset's manifest, `OUT/_deckhand.json`: every input a dataset
//! holds, with its size, content hash, file index (the high bits of its
//! records' keys) and the part files its rows are in; the deckhand and
//! schema versions. `convert --append` reads it to add only new inputs,
//! their keys continuing where the dataset's end.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// The manifest's file name in a dataset.
pub const NAME: &str = "_deckhand.json";

/// One input of the dataset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Input {
    /// As given on the command line (or found in a directory).
    pub path: String,
    pub bytes: u64,
    /// XXH3-64 of its bytes as stored (compressed or not), hexadecimal;
    /// null for standard input.
    pub xxh3: Option<String>,
    pub file_index: u64,
    /// The part files (`part-N.parquet`) holding its rows: N is the file
    /// index of the first input of the run that converted it.
    pub part: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub deckhand_version: String,
    pub schema_version: String,
    pub inputs: Vec<Input>,
}

impl Manifest {
    pub fn new(schema_version: &str) -> Manifest {
        Manifest {
            deckhand_version: env!("CARGO_PKG_VERSION").to_string(),
            schema_version: schema_version.to_string(),
            inputs: Vec::new(),
        }
    }

    /// The manifest of dataset `out`; None when it has none.
    pub fn read(out: &Path) -> Result<Option<Manifest>, String> {
        let p = out.join(NAME);
        match std::fs::read(&p) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            _ => Manifest::read_file(&p).map(Some),
        }
    }

    /// The manifest (or shard fragment) in file `p`.
    pub fn read_file(p: &Path) -> Result<Manifest, String> {
        match std::fs::read(p) {
            Ok(b) => serde_json::from_slice(&b)
                .map_err(|e| format!("{}: not a manifest deckhand wrote: {e}", p.display())),
            Err(e) => Err(format!("cannot read {}: {e}", p.display())),
        }
    }

    /// Writes it into `out` (under a temporary name, then renamed).
    pub fn write(&self, out: &Path) -> Result<(), String> {
        self.write_as(out, NAME)
    }

    /// Writes it into `out` as `name` (under a temporary name, then renamed).
    pub fn write_as(&self, out: &Path, name: &str) -> Result<(), String> {
        let p = out.join(name);
        let tmp = out.join(format!(".{name}.tmp"));
        let text = serde_json::to_string_pretty(self).expect("serializable") + "\n";
        std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, &p))
            .map_err(|e| format!("cannot write {}: {e}", p.display()))
    }

    /// The file index after every input's: the next run's first.
    pub fn next_file_index(&self) -> u64 {
        self.inputs
            .iter()
            .map(|i| i.file_index + 1)
            .max()
            .unwrap_or(0)
    }
}

/// An input's size and XXH3-64 (None for standard input and other inputs
/// that can be read once only: a pipe is not read ahead of its records).
pub fn fingerprint(path: &Path) -> Result<(u64, Option<String>), std::io::Error> {
    if crate::source::reads_once(path) {
        return Ok((0, None));
    }
    use std::io::Read;
    let mut f = std::fs::File::open(path)?;
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    // On the stack: no allocation for each of many small inputs.
    let mut buf = [0u8; 64 << 10];
    let mut n = 0u64;
    loop {
        let k = f.read(&mut buf)?;
        if k == 0 {
            break;
        }
        h.update(&buf[..k]);
        n += k as u64;
    }
    Ok((n, Some(format!("{:016x}", h.digest()))))
}

/// What `--append` does with each input.
#[derive(Debug, PartialEq, Eq)]
pub enum Plan {
    /// Not in the dataset: converted.
    New,
    /// In the dataset with the same bytes: skipped.
    Held,
    /// In the dataset with other bytes.
    Changed,
}

/// The plan for an input named `path` with fingerprint `xxh3`.
pub fn plan(m: &Manifest, path: &str, xxh3: &Option<String>) -> Plan {
    match m.inputs.iter().rev().find(|i| i.path == path) {
        None => Plan::New,
        Some(_) if xxh3.is_none() => Plan::New,
        Some(i) if &i.xxh3 == xxh3 => Plan::Held,
        Some(_) => Plan::Changed,
    }
}

/// The inputs' paths as the manifest keeps them (as the tables'
/// `source_file` names them).
pub fn key(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}
