//! The output directory: made ready for the tables a conversion writes,
//! parts of an interrupted run swept away.

use super::*;

/// Prepares the output directory: removes the temporary part files a
/// killed run left (deckhand's own names, `.part-N.parquet.tmp`), refuses
/// a directory that holds anything else unless forced, and then removes
/// the part files (`part-N.parquet`) of `tables` (paths in the dataset),
/// and nothing else of them.
pub(super) fn prepare_out_dir(out: &Path, tables: &[String], opts: &Options) -> Result<(), Error> {
    let (force, append) = (opts.force, opts.append);
    let werr = |source| Error::Write {
        path: out.to_path_buf(),
        source,
    };
    if opts.shard && out.is_dir() {
        // Other shards may be writing here: only this one's part files.
        let names = [
            crate::sink::temp::part_name(opts.part()),
            crate::sink::temp::temp_part_name(opts.part()),
        ];
        for t in tables {
            for name in &names {
                let p = out.join(t).join(name);
                if !p.exists() {
                    continue;
                }
                if !force {
                    return Err(Error::Settings(format!(
                        "{} exists: a shard with this file index was converted into {} already (--force replaces its part files)",
                        p.display(),
                        out.display()
                    )));
                }
                std::fs::remove_file(&p).map_err(|source| Error::Write { path: p, source })?;
            }
        }
    } else if append && out.is_dir() {
        sweep_temp_parts(out)?;
    } else if out.exists() {
        if !out.is_dir() {
            return Err(Error::OutputNotDirectory(out.to_path_buf()));
        }
        let others = sweep_temp_parts(out)?;
        if others > 0 && !force {
            return Err(Error::OutputExists(out.to_path_buf()));
        }
        for t in tables {
            let d = out.join(t);
            let Ok(entries) = std::fs::read_dir(&d) else {
                continue;
            };
            for e in entries.flatten() {
                let name = e.file_name();
                if name.to_str().is_some_and(crate::sink::temp::is_part) {
                    let p = e.path();
                    std::fs::remove_file(&p).map_err(|source| Error::Write { path: p, source })?;
                }
            }
        }
    }
    std::fs::create_dir_all(out).map_err(werr)
}

/// Removes deckhand's temporary part files under `dir` (recursively);
/// the other files there.
pub(super) fn sweep_temp_parts(dir: &Path) -> Result<usize, Error> {
    let mut others = 0;
    let entries = std::fs::read_dir(dir).map_err(|source| Error::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    for e in entries.flatten() {
        let p = e.path();
        let kind = e.file_type().map_err(|source| Error::Write {
            path: p.clone(),
            source,
        })?;
        if kind.is_dir() {
            others += sweep_temp_parts(&p)?;
        } else if e
            .file_name()
            .to_str()
            .is_some_and(crate::sink::temp::is_temp_part)
        {
            std::fs::remove_file(&p).map_err(|source| Error::Write { path: p, source })?;
        } else {
            others += 1;
        }
    }
    Ok(others)
}
