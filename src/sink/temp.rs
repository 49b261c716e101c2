//! The temporary files a run is writing, so that a signal (Ctrl-C,
//! SIGTERM) can remove them before the process exits: no `.tmp` file is
//! left for readers to trip on or for the next run to refuse.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The files open, and whether the run is ending (no file may be made
/// then).
static OPEN: Mutex<(Vec<PathBuf>, bool)> = Mutex::new((Vec::new(), false));

/// Creates `path` to write it under its temporary name, noted so that an
/// interrupt removes it (under the lock: an interrupt never misses a file
/// made as it comes).
pub fn create(path: &Path) -> std::io::Result<std::fs::File> {
    let mut open = OPEN.lock().unwrap_or_else(|e| e.into_inner());
    if open.1 {
        return Err(std::io::Error::new(
            std::io::ErrorKind::Interrupted,
            "the run is interrupted",
        ));
    }
    let f = std::fs::File::create(path)?;
    open.0.push(path.to_path_buf());
    Ok(f)
}

/// `path` was renamed to its final name or removed.
pub fn unregister(path: &Path) {
    let mut open = OPEN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = open.0.iter().position(|p| p == path) {
        open.0.swap_remove(i);
    }
}

/// Removes every temporary file open, and makes no more: for a signal that
/// ends the run. The guard returned keeps every other thread from making a
/// file until the process exits.
pub fn remove_all() -> std::sync::MutexGuard<'static, (Vec<PathBuf>, bool)> {
    let mut open = OPEN.lock().unwrap_or_else(|e| e.into_inner());
    open.1 = true;
    for p in open.0.drain(..) {
        let _ = std::fs::remove_file(p);
    }
    open
}

/// The name of part file `part` (`part-00012.parquet`).
pub fn part_name(part: u32) -> String {
    format!("part-{part:05}.parquet")
}

/// The temporary name part file `part` is written under.
pub fn temp_part_name(part: u32) -> String {
    format!(".{}.tmp", part_name(part))
}

/// Whether `name` is the name of a temporary part file of deckhand's
/// (`.part-00000.parquet.tmp`).
pub fn is_temp_part(name: &str) -> bool {
    name.strip_prefix(".part-")
        .and_then(|r| r.strip_suffix(".parquet.tmp"))
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether `name` is the name of a part file of deckhand's
/// (`part-00000.parquet`).
pub fn is_part(name: &str) -> bool {
    name.strip_prefix("part-")
        .and_then(|r| r.strip_suffix(".parquet"))
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_files_are_told_by_name() {
        assert!(is_temp_part(".part-00000.parquet.tmp"));
        assert!(!is_temp_part(".part-.parquet.tmp"));
        assert!(!is_temp_part("part-00000.parquet.tmp"));
        assert!(is_part("part-00012.parquet"));
        assert!(!is_part("part-a.parquet"));
        assert!(!is_part("notes.txt"));
    }
}
