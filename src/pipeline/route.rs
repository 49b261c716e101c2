//! The routing of an input file to one of a run's notations, whatever they
//! are: by its content first (a file header that names a notation, then
//! tags or labels only one notation has), then by its name's extension.
//! The notations themselves are listed by the composition root
//! (`crate::registry`).

use std::path::{Path, PathBuf};

use super::Run;
use crate::columns::errors_table::ERRORS;
use crate::columns::table::TableDecl;
use crate::notation::head::Head;
use crate::notation::{About, Evidence};

/// What the commands let a user choose about the notations.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Compute the rules engines' columns (`--no-rules` turns them off).
    pub compute: bool,
    /// A rules profile forced on every record of the notations that take
    /// one (`--rules FILE`): its path and its text.
    pub rules_file: Option<(PathBuf, String)>,
    /// Read every input as this notation (`--notation NAME`), whatever its
    /// name and content.
    pub notation: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            compute: true,
            rules_file: None,
            notation: None,
        }
    }
}

/// Where an input goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// To the notation at this index of the registry.
    To(usize),
    /// Nowhere: what the input looked like.
    Unknown(String),
}

/// The notations of a run, in the order they are tried when two fit
/// equally, and the one every input is read as, if one is forced.
pub struct Registry {
    notations: Vec<Box<dyn Run>>,
    forced: Option<usize>,
}

impl Registry {
    /// The registry of `notations`; with `forced` (`--notation NAME`), every
    /// input goes to the notation of that name (an error names one that
    /// does not exist).
    pub fn new(notations: Vec<Box<dyn Run>>, forced: Option<&str>) -> Result<Registry, String> {
        let forced = match forced {
            None => None,
            Some(name) => Some(
                (notations.iter())
                    .position(|n| n.about().name.eq_ignore_ascii_case(name))
                    .ok_or_else(|| {
                        format!(
                            "unknown notation '{name}': deckhand reads {}",
                            (notations.iter().map(|n| n.about().name))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    })?,
            ),
        };
        Ok(Registry { notations, forced })
    }

    /// What each notation is, in registry order.
    pub fn about(&self) -> impl Iterator<Item = &'static About> + '_ {
        self.notations.iter().map(|n| n.about())
    }

    /// Every table a run can write: each game's (of the notations, in
    /// order, each table once), then the shared `errors` table.
    pub fn tables(&self) -> Vec<&'static TableDecl> {
        let mut t: Vec<&'static TableDecl> = Vec::new();
        for decl in self.notations.iter().flat_map(|n| n.tables()) {
            if decl.game.is_some() && !t.contains(decl) {
                t.push(decl);
            }
        }
        t.push(ERRORS);
        t
    }

    pub fn get(&self, k: usize) -> &dyn Run {
        &*self.notations[k]
    }

    /// The index of the notation named `name` (`ppn`, `pbn`, ...).
    pub fn find(&self, name: &str) -> Option<usize> {
        self.about().position(|a| a.name == name)
    }

    /// Where an input named `path` whose (decompressed) first bytes are
    /// `head` goes: the notation whose content it has most clearly (a file
    /// header naming it; tags or labels only it has), ties going to the
    /// notation its extension names; else the notation its extension names,
    /// whatever it holds (so that its records are read, or quarantined one
    /// by one with their text: a `.ppn` file that starts with binary bytes
    /// may hold hands after them); else, for tag pairs or TOML keys that no
    /// notation has alone, the family's first notation; else nowhere.
    pub fn route(&self, path: &Path, head: &[u8]) -> Route {
        if let Some(k) = self.forced {
            return Route::To(k);
        }
        let by_name = self.extension_notations(path);
        let sniffed = Head::new(head);
        let evidence: Vec<Evidence> = self.notations.iter().map(|n| n.sniff(&sniffed)).collect();
        let best = evidence.iter().copied().max().unwrap_or(Evidence::None);
        if best >= Evidence::Typical {
            let pick = (0..evidence.len())
                .filter(|&k| evidence[k] == best)
                .min_by_key(|k| !by_name.contains(k));
            return Route::To(pick.expect("a best notation"));
        }
        if let Some(&k) = by_name.first() {
            // The first notation of the extension with its family's syntax
            // (a file whose extension two notations share goes to the first of them
            // unless its content is the other's).
            let k = by_name
                .iter()
                .copied()
                .find(|&k| evidence[k] == best)
                .unwrap_or(k);
            return Route::To(k);
        }
        if best == Evidence::Family && !is_chess(&sniffed) {
            // Tag pairs (or TOML keys) that no tag tells apart, in a file
            // whose name says nothing (standard input, `.txt`): the first
            // notation of the family, in registry order.
            let k = evidence.iter().position(|&e| e == best);
            return Route::To(k.expect("a notation of the family"));
        }
        Route::Unknown(self.describe(head, best, &sniffed))
    }

    /// [`Registry::route`] for a file found in a directory: only content
    /// that tells its notation (a header, its own tags), or the name's
    /// extension, makes it an input (of the forced notation, if one is);
    /// None otherwise (a chess PGN file, a README beside the archives).
    pub fn route_found(&self, path: &Path, head: &[u8]) -> Option<usize> {
        let sniffed = Head::new(head);
        let best = self.notations.iter().map(|n| n.sniff(&sniffed)).max();
        if self.is_notation_name(path) || best >= Some(Evidence::Typical) {
            match self.route(path, head) {
                Route::To(k) => return Some(k),
                Route::Unknown(_) => return None,
            }
        }
        None
    }

    /// Whether a file found in a directory is an input: its name's
    /// extension names a notation (compressed or not), or its first bytes
    /// have a notation's content ([`Registry::route_found`]).
    pub fn is_input(&self, path: &Path, is_file: bool) -> bool {
        if self.is_notation_name(path) {
            return true;
        }
        if !is_file {
            return false;
        }
        let Ok(head) = crate::source::read_head(path, HEAD_BYTES) else {
            return false;
        };
        self.route_found(path, &head).is_some()
    }

    /// The notations whose extension `path` has (a compression suffix
    /// aside), in registry order.
    pub fn extension_notations(&self, path: &Path) -> Vec<usize> {
        let Some(ext) = extension(path) else {
            return Vec::new();
        };
        (self.about().enumerate())
            .filter(|(_, a)| (a.extensions.iter()).any(|e| e.as_bytes().eq_ignore_ascii_case(ext)))
            .map(|(k, _)| k)
            .collect()
    }

    /// Whether a file name's extension names a notation (compressed or not).
    pub fn is_notation_name(&self, path: &Path) -> bool {
        !self.extension_notations(path).is_empty()
    }

    /// Every notation's extensions, each once, with its dot.
    pub fn extensions(&self) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for e in self.about().flat_map(|a| a.extensions) {
            let e = format!(".{e}");
            if !v.contains(&e) {
                v.push(e);
            }
        }
        v
    }

    /// What an input no notation takes looked like, for its `errors` row.
    fn describe(&self, head: &[u8], best: Evidence, sniffed: &Head<'_>) -> String {
        let names: Vec<&str> = self.about().map(|a| a.label).collect();
        let reads = format!(
            "deckhand reads {} (by a file header, their tags or labels, or the file name's extension: {})",
            names.join(", "),
            self.extensions().join(" ")
        );
        let what = if head.iter().all(|b| crate::split::is_ws(*b)) {
            "an empty file".to_string()
        } else if !looks_like_text(head) {
            let nul = memchr::memchr(0, head);
            match nul {
                Some(at) => format!("binary data (a NUL byte at offset {at})"),
                None => "binary data (control characters)".to_string(),
            }
        } else if best == Evidence::Family && is_chess(sniffed) {
            "tag pairs of chess PGN (White and Black tags)".to_string()
        } else {
            "text with no tag pair, label or header of a notation deckhand reads".to_string()
        };
        format!("not recognized: this file holds {what}; {reads}")
    }
}

/// The extension of a file name, after a compression suffix (`.gz`,
/// `.zst`, `.bz2`, `.xz`) is taken off.
fn extension(path: &Path) -> Option<&[u8]> {
    let name = path.file_name()?.as_encoded_bytes();
    let base = [&b".gz"[..], b".zst", b".bz2", b".xz"]
        .iter()
        .find_map(|z| {
            (name.len() > z.len() && name[name.len() - z.len()..].eq_ignore_ascii_case(z))
                .then(|| &name[..name.len() - z.len()])
        })
        .unwrap_or(name);
    let dot = memchr::memrchr(b'.', base)?;
    Some(&base[dot + 1..])
}

/// Whether `head` reads as text: no NUL byte, and control characters other
/// than white space in at most one byte in 32.
fn looks_like_text(head: &[u8]) -> bool {
    let control = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0b | 0x0c))
        .count();
    memchr::memchr(0, head).is_none() && control * 32 <= head.len()
}

/// Whether tag pairs are those of chess PGN (White and Black players).
fn is_chess(head: &Head<'_>) -> bool {
    head.has_tag("White") && head.has_tag("Black")
}

/// Bytes read from the start of an input to route it.
pub const HEAD_BYTES: usize = 4096;
