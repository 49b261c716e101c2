//! A conversion into a dataset directory as `deckhand convert` and the
//! Python package run it: the manifest (`OUT/_deckhand.json`), `--append`
//! (only inputs the dataset does not hold, their keys continuing) and
//! shards (`--file-index-base N`: a share of a larger run's inputs, converted
//! anywhere into one dataset, whose keys are those one run would give).
//!
//! A shard's part files are named by its first file index
//! (`part-N.parquet`), so that shards written into one directory at once
//! never collide, and its inputs go to a manifest fragment of its own
//! (`_deckhand.shard-N.json`); [`merge_manifests`] (`deckhand manifest
//! merge OUT`, or the driver of a distributed run) joins the fragments into
//! the manifest, after which `--append` continues past every shard.

use std::path::{Path, PathBuf};

use crate::Error;
use crate::notation::MAX_FILE_INDEX;
use crate::pipeline::manifest::{self, Manifest, Plan};
use crate::pipeline::{self, Options, Summary};

/// What [`convert`] did besides its summary, for the user to know.
#[derive(Debug, Default)]
pub struct Outcome {
    /// None: nothing was converted (`--append` and every input held).
    pub summary: Option<Summary>,
    /// Inputs skipped as held already, and why nothing ran.
    pub notes: Vec<String>,
}

/// How the run places itself in the dataset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Placement {
    /// A dataset of its own (`--force` replaces its tables), or with
    /// `Options::append` added to one.
    #[default]
    Whole,
    /// A shard whose first input has this file index.
    Shard(u64),
}

/// The name of shard `first`'s manifest fragment.
pub fn shard_manifest_name(first: u64) -> String {
    format!("_deckhand.shard-{first:05}.json")
}

/// Converts `inputs` (files, found by `source::find_inputs`) into the
/// dataset `out`, as `opts` and `placement` say, and writes its manifest
/// (or, for a shard, its fragment).
pub fn convert(
    inputs: &[PathBuf],
    out: &Path,
    opts: &Options,
    placement: Placement,
) -> Result<Outcome, Error> {
    let mut outcome = Outcome::default();
    if placement != Placement::Whole && opts.append {
        return Err(Error::Settings(
            "--file-index-base converts a shard of a run: --append chooses the file index itself, so the two do not go together".into(),
        ));
    }
    let held = if opts.append && out.exists() {
        let m = Manifest::read(out).map_err(Error::Settings)?;
        let empty = std::fs::read_dir(out).is_ok_and(|mut d| d.next().is_none());
        match m {
            Some(m) => Some(m),
            None if empty => None,
            None => {
                return Err(Error::Settings(format!(
                    "{} holds no {}: --append adds to a dataset deckhand wrote",
                    out.display(),
                    manifest::NAME
                )));
            }
        }
    } else {
        None
    };
    let mut todo = Vec::with_capacity(inputs.len());
    let mut prints = Vec::with_capacity(inputs.len());
    if let Some(n) = &opts.input_names
        && n.len() != inputs.len()
    {
        return Err(Error::Settings(format!(
            "{} names for {} inputs",
            n.len(),
            inputs.len()
        )));
    }
    let mut names = Vec::with_capacity(inputs.len());
    for (k, p) in inputs.iter().enumerate() {
        // Hashing a large archive takes seconds: an interrupt is heard here too.
        pipeline::stopped(opts)?;
        let (bytes, xxh3) = manifest::fingerprint(p).map_err(|source| Error::Read {
            path: p.clone(),
            source,
        })?;
        let name = pipeline::input_name(opts, inputs, k);
        if let Some(m) = &held {
            match manifest::plan(m, &name, &xxh3) {
                Plan::New => {}
                Plan::Held => {
                    outcome.notes.push(format!(
                        "{} is in the dataset already (same content): skipped",
                        p.display()
                    ));
                    continue;
                }
                Plan::Changed if !opts.force => {
                    return Err(Error::Settings(format!(
                        "{} changed since it was added to {}: --force adds it again as a new input (its earlier rows stay)",
                        p.display(),
                        out.display()
                    )));
                }
                Plan::Changed => {}
            }
        }
        todo.push(p.clone());
        names.push(name);
        prints.push((bytes, xxh3));
    }
    let mut m = held.unwrap_or_else(|| Manifest::new(crate::columns::SCHEMA_VERSION));
    let base = match placement {
        Placement::Whole => m.next_file_index(),
        Placement::Shard(first) => first,
    };
    if base + todo.len() as u64 > MAX_FILE_INDEX + 1 {
        return Err(Error::Settings(format!(
            "file indices {base} to {} do not fit a record key's file index (at most {MAX_FILE_INDEX})",
            base + todo.len() as u64 - 1
        )));
    }
    if opts.append && todo.is_empty() {
        outcome.notes.push(format!(
            "nothing new for {}: every input is in it already",
            out.display()
        ));
        return Ok(outcome);
    }
    let opts = Options {
        input_names: opts.input_names.as_ref().map(|_| names.clone()),
        file_index_base: base,
        shard: placement != Placement::Whole,
        ..opts.clone()
    };
    let summary = pipeline::convert(&todo, out, &opts)?;
    let mut entries = Vec::with_capacity(todo.len());
    for (i, (name, (bytes, xxh3))) in names.into_iter().zip(prints).enumerate() {
        entries.push(manifest::Input {
            path: name,
            bytes,
            xxh3,
            file_index: base + i as u64,
            part: opts.part(),
        });
    }
    match placement {
        Placement::Whole => {
            m.inputs.extend(entries);
            m.write(out).map_err(Error::Settings)?;
        }
        Placement::Shard(first) => {
            let mut frag = Manifest::new(crate::columns::SCHEMA_VERSION);
            frag.inputs = entries;
            frag.write_as(out, &shard_manifest_name(first))
                .map_err(Error::Settings)?;
        }
    }
    outcome.summary = Some(summary);
    Ok(outcome)
}

/// Joins the manifest fragments of shards written into `out` into its
/// manifest (made if there is none), sorted by file index, and removes
/// them. Two inputs at one file index are an error (shards that
/// overlapped); so are fragments of another schema version.
pub fn merge_manifests(out: &Path) -> Result<Manifest, Error> {
    let mut m = Manifest::read(out)
        .map_err(Error::Settings)?
        .unwrap_or_else(|| Manifest::new(crate::columns::SCHEMA_VERSION));
    let mut fragments: Vec<PathBuf> = std::fs::read_dir(out)
        .map_err(|source| Error::Read {
            path: out.to_path_buf(),
            source,
        })?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("_deckhand.shard-") && n.ends_with(".json"))
        })
        .collect();
    fragments.sort();
    for f in &fragments {
        let frag = Manifest::read_file(f).map_err(Error::Settings)?;
        if frag.schema_version != m.schema_version {
            return Err(Error::Settings(format!(
                "{}: schema version {}, the dataset's is {}",
                f.display(),
                frag.schema_version,
                m.schema_version
            )));
        }
        m.inputs.extend(frag.inputs);
    }
    m.inputs.sort_by_key(|i| i.file_index);
    if let Some(w) = m
        .inputs
        .windows(2)
        .find(|w| w[0].file_index == w[1].file_index)
    {
        return Err(Error::Settings(format!(
            "{} and {} both have file index {}: shards whose file indices overlap (give each shard the index after the last input of the one before)",
            w[0].path, w[1].path, w[0].file_index
        )));
    }
    m.write(out).map_err(Error::Settings)?;
    for f in fragments {
        std::fs::remove_file(&f).map_err(|source| Error::Write { path: f, source })?;
    }
    Ok(m)
}
