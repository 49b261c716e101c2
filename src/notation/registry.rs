//! Every notation deckhand knows, and the routing of an input file to one of
//! them: by its content first (a file header that names a notation, then
//! tags or labels only one notation has), then by its name's extension.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::head::Head;
use super::pbn::Pbn;
use super::ppn::{Ppn, RulesConfig};
use super::preferans::Preferans;
use super::rbn::Rbn;
use super::{About, Evidence};
use crate::columns::errors::ERRORS;
use crate::columns::table::TableDecl;
use crate::pipeline::Run;

/// `deckhand export --to ppn` (the default) writes Portable Pinochle
/// Notation: canonical EXPORT text of the hands of PPN inputs.
pub use super::ppn::export::{ExportReport, export};

/// What `deckhand export --to <notation>` did: its files, its records,
/// and what the notation written cannot hold, by kind, with counts.
#[derive(Debug, Default)]
pub struct Exported {
    pub files: usize,
    pub total: crate::pipeline::FileSummary,
    pub lost: Vec<(&'static str, u64)>,
}

/// The notations `deckhand export --to` writes.
pub const EXPORTS: &[&str] = &["ppn", "pbn", "rbn", "rbx"];

/// `deckhand export --to <to>`: PPN (pinochle) from PPN, or a bridge
/// notation (PBN, RBN, RBX) from any bridge notation.
pub fn export_to(
    inputs: &[std::path::PathBuf],
    opts: &crate::pipeline::Options,
    to: &str,
    out: &mut dyn std::io::Write,
) -> Result<Exported, crate::Error> {
    use super::bridge::export::{self as bridge, Target};
    match Target::parse(to) {
        Some(t) => {
            let r = bridge::export(inputs, opts, t, out)?;
            Ok(Exported {
                files: r.files,
                total: r.total,
                lost: r.lost.0.into_iter().collect(),
            })
        }
        None => {
            let r = export(inputs, opts, out)?;
            Ok(Exported {
                files: r.files,
                total: r.total,
                lost: Vec::new(),
            })
        }
    }
}
/// `deckhand generate` makes archives of legal pinochle games in PPN.
pub use super::ppn::generate as generator;

/// The games `deckhand generate --game` makes archives of.
pub const GENERATED_GAMES: &[&str] = &["pinochle", "preferans"];

/// What `deckhand generate --game GAME` counts: pinochle hands, Preferans
/// deals.
pub fn generated_unit(game: &str) -> &'static str {
    if game == "preferans" {
        "deals"
    } else {
        "hands"
    }
}

/// `deckhand generate --game GAME`: pinochle games in Portable Pinochle
/// Notation (every option of `opts`), or Preferans games in Portable
/// Preferans Notation (`hands` deals, `seed`, `crlf`; another option set
/// is an error).
pub fn generate(
    game: &str,
    opts: &generator::GenOptions,
    out: &mut impl std::io::Write,
) -> std::io::Result<generator::GenStats> {
    if let Err(m) = generate_check(game, opts) {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, m));
    }
    if game == "preferans" {
        let st = super::preferans::generate::generate(opts.hands, opts.seed, opts.crlf, out)?;
        Ok(generator::GenStats {
            hands: st.deals,
            games: st.games,
            bytes: st.bytes,
            ..generator::GenStats::default()
        })
    } else {
        generator::generate(opts, out)
    }
}

/// Whether `deckhand generate --game GAME` can make an archive with
/// `opts` (checked before the output file is created).
pub fn generate_check(game: &str, opts: &generator::GenOptions) -> Result<(), String> {
    match game {
        "pinochle" => Ok(()),
        "preferans" => {
            let d = generator::GenOptions::default();
            let s = &opts.style;
            if s.import
                || s.inherit
                || s.points_alone
                || s.comments > 0.0
                || s.chat > 0.0
                || opts.terminated > 0.0
                || opts.malformed > 0.0
                || opts.game_to != d.game_to
            {
                return Err("--import, --comments, --chat, --inherit, --terminated, --meld-points-alone and --malformed are pinochle's: --game preferans takes --hands, --seed and --crlf".into());
            }
            Ok(())
        }
        other => Err(format!(
            "unknown game '{other}': deckhand generates {}",
            GENERATED_GAMES.join(", ")
        )),
    }
}

/// Splitting and tokenizing only, for `deckhand bench`: the records and
/// tokens of PPN bytes (see `ppn::tokenize`).
pub fn tokenize(bytes: &[u8]) -> (u64, u64) {
    super::ppn::tokenize(bytes)
}

/// What the commands let a user choose about the notations.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Compute the rules engines' columns (`--no-rules` turns them off).
    pub compute: bool,
    /// A pinochle rules profile forced on every hand (`--rules FILE`): its
    /// path and its text.
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

/// The notations, in the order they are tried when two fit equally.
pub const ABOUT: &[&About] = &[
    &super::ppn::ABOUT,
    &super::preferans::PREFERANS,
    &super::pbn::ABOUT,
    &super::rbn::RBN,
    &super::rbn::RBX,
    &super::phh::PHH,
];

/// The games, in the order of [`ABOUT`], each once.
pub fn games() -> Vec<&'static str> {
    let mut g: Vec<&'static str> = Vec::new();
    for a in ABOUT {
        if !g.contains(&a.game) {
            g.push(a.game);
        }
    }
    g
}

/// Every table a run can write: each game's (of the notations converted),
/// then the shared `errors` table.
pub fn all_tables() -> Vec<&'static TableDecl> {
    let mut t: Vec<&'static TableDecl> = Vec::new();
    for decl in [
        super::ppn::TABLES,
        crate::games::preferans::tables::PREFERANS_TABLES,
        super::pbn::TABLES,
        crate::games::poker::tables::POKER_TABLES,
    ]
    .into_iter()
    .flatten()
    {
        if decl.game.is_some() && !t.contains(decl) {
            t.push(decl);
        }
    }
    t.push(ERRORS);
    t
}

/// The dataset paths of the tables `names` name (`pinochle/hands`, or
/// `hands` for every game's), or an error listing the tables.
pub fn table_paths(names: &[String]) -> Result<Vec<String>, String> {
    let mut all: Vec<String> = Vec::new();
    for t in all_tables() {
        if !all.contains(&t.path()) {
            all.push(t.path());
        }
    }
    let mut out = Vec::new();
    for n in names {
        let n = n.trim();
        let hits: Vec<&String> = (all.iter())
            .filter(|p| *p == n || p.rsplit('/').next() == Some(n))
            .collect();
        if hits.is_empty() {
            return Err(format!(
                "unknown table '{n}': the tables are {}",
                all.join(", ")
            ));
        }
        for h in hits {
            if !out.contains(h) {
                out.push(h.clone());
            }
        }
    }
    Ok(out)
}

/// Every diagnostic code, by who reports it: the pipeline (about inputs as
/// a whole), then each notation that has codes of its own.
pub fn code_lists() -> Vec<(String, &'static [crate::diagnostics::Code])> {
    vec![
        (
            "deckhand, any notation (D)".to_string(),
            crate::diagnostics::GENERIC,
        ),
        (
            format!(
                "{} ({})",
                super::ppn::ABOUT.title,
                super::ppn::ABOUT.code_prefix
            ),
            super::ppn::diagnostics::CODES,
        ),
        (
            format!(
                "{} ({})",
                super::preferans::PREFERANS.title,
                super::preferans::PREFERANS.code_prefix
            ),
            super::preferans::diagnostics::CODES,
        ),
        (
            format!(
                "{} ({})",
                super::pbn::ABOUT.title,
                super::pbn::ABOUT.code_prefix
            ),
            super::pbn::diagnostics::CODES,
        ),
        (
            format!(
                "{} and RBX ({})",
                super::rbn::RBN.title,
                super::rbn::RBN.code_prefix
            ),
            super::rbn::diagnostics::CODES,
        ),
        (
            format!(
                "{} ({})",
                super::phh::PHH.title,
                super::phh::PHH.code_prefix
            ),
            super::phh::diagnostics::CODES,
        ),
    ]
}

/// Where an input goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// To the notation at this index of the registry.
    To(usize),
    /// Nowhere: what the input looked like.
    Unknown(String),
}

/// The notations of a run, configured by its [`Settings`].
pub struct Registry {
    notations: Vec<Box<dyn Run>>,
    forced: Option<usize>,
}

impl Registry {
    /// The notations configured by `settings`; an error names a rules
    /// profile that cannot be read or a `--notation` that does not exist.
    pub fn new(settings: &Settings) -> Result<Registry, String> {
        let mut rules = RulesConfig {
            compute: settings.compute,
            ..RulesConfig::default()
        };
        if let Some((path, text)) = &settings.rules_file {
            let p = crate::games::pinochle::rules::Profile::from_toml(text)
                .map_err(|e| format!("invalid rules profile {}: {e}", path.display()))?;
            rules.forced = Some(Arc::new(p));
        }
        let notations: Vec<Box<dyn Run>> = vec![
            Box::new(Ppn { rules }),
            Box::new(Preferans {
                compute: settings.compute,
            }),
            Box::new(Pbn {
                compute: settings.compute,
            }),
            Box::new(Rbn::plain(settings.compute)),
            Box::new(Rbn::rbx(settings.compute)),
            Box::new(super::phh::Phh {
                compute: settings.compute,
            }),
        ];
        debug_assert!(
            notations
                .iter()
                .zip(ABOUT)
                .all(|(n, a)| n.about().name == a.name)
        );
        let forced = match &settings.notation {
            None => None,
            Some(name) => Some(
                ABOUT
                    .iter()
                    .position(|a| a.name.eq_ignore_ascii_case(name))
                    .ok_or_else(|| {
                        format!(
                            "unknown notation '{name}': deckhand reads {}",
                            ABOUT.iter().map(|a| a.name).collect::<Vec<_>>().join(", ")
                        )
                    })?,
            ),
        };
        Ok(Registry { notations, forced })
    }

    pub fn get(&self, k: usize) -> &dyn Run {
        &*self.notations[k]
    }

    /// The index of the notation named `name` (`ppn`, `pbn`, ...).
    pub fn find(&self, name: &str) -> Option<usize> {
        ABOUT.iter().position(|a| a.name == name)
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
        let by_name = extension_notations(path);
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
            // (a `.ppn` file is pinochle's unless it has Preferans tags).
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
        Route::Unknown(describe(head, best, &sniffed))
    }

    /// [`Registry::route`] for a file found in a directory: only content
    /// that tells its notation (a header, its own tags), or the name's
    /// extension, makes it an input (of the forced notation, if one is);
    /// None otherwise (a chess PGN file, a README beside the archives).
    pub fn route_found(&self, path: &Path, head: &[u8]) -> Option<usize> {
        let sniffed = Head::new(head);
        let best = self.notations.iter().map(|n| n.sniff(&sniffed)).max();
        if is_notation_name(path) || best >= Some(Evidence::Typical) {
            match self.route(path, head) {
                Route::To(k) => return Some(k),
                Route::Unknown(_) => return None,
            }
        }
        None
    }
}

/// The notations whose extension `path` has (a compression suffix aside),
/// in registry order.
pub fn extension_notations(path: &Path) -> Vec<usize> {
    let Some(ext) = extension(path) else {
        return Vec::new();
    };
    (0..ABOUT.len())
        .filter(|&k| (ABOUT[k].extensions.iter()).any(|e| e.as_bytes().eq_ignore_ascii_case(ext)))
        .collect()
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

/// Whether a file name's extension names a notation (compressed or not).
pub fn is_notation_name(path: &Path) -> bool {
    !extension_notations(path).is_empty()
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

/// Every notation's extensions, each once, with its dot.
pub fn extensions() -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for e in ABOUT.iter().flat_map(|a| a.extensions) {
        let e = format!(".{e}");
        if !v.contains(&e) {
            v.push(e);
        }
    }
    v
}

/// Whether tag pairs are those of chess PGN (White and Black players).
fn is_chess(head: &Head<'_>) -> bool {
    head.has_tag("White") && head.has_tag("Black")
}

/// What an input no notation takes looked like, for its `errors` row.
fn describe(head: &[u8], best: Evidence, sniffed: &Head<'_>) -> String {
    let names: Vec<&str> = ABOUT.iter().map(|a| a.label).collect();
    let reads = format!(
        "deckhand reads {} (by a file header, their tags or labels, or the file name's extension: {})",
        names.join(", "),
        extensions().join(" ")
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

/// Bytes read from the start of an input to route it.
pub const HEAD_BYTES: usize = 4096;

#[cfg(test)]
mod tests {
    use super::*;

    fn route(name: &str, head: &[u8]) -> String {
        let r = Registry::new(&Settings::default()).unwrap();
        match r.route(Path::new(name), head) {
            Route::To(k) => ABOUT[k].name.to_string(),
            Route::Unknown(why) => why,
        }
    }

    #[test]
    fn inputs_go_by_header_then_tags_then_extension() {
        let pbn = b"[Event \"x\"]\n[Board \"1\"]\n[Vulnerable \"None\"]\n";
        assert_eq!(route("a.ppn", b"% PPN 1.0\n[Event \"x\"]\n"), "ppn");
        assert_eq!(route("a.txt", b"% PBN 2.1\n[Event \"x\"]\n"), "pbn");
        assert_eq!(route("a.txt", pbn), "pbn");
        assert_eq!(route("a.ppn", pbn), "pbn");
        assert_eq!(route("a.pbn", b"[Event \"x\"]\n"), "pbn");
        assert_eq!(route("a.ppn", b"[Event \"x\"]\n[Melds \"-\"]\n"), "ppn");
        assert_eq!(route("a.ppn", b"[Event x]\n[Bula 60]\n"), "preferans-ppn");
        // Unquoted values alone tell Preferans; quoted ones pinochle.
        assert_eq!(
            route("a.ppn", b"[Event x]\n[Date 2008.03.08]\n"),
            "preferans-ppn"
        );
        assert_eq!(route("a.ppn", b"[Event \"x\"]\n[Date 2008.03.08]\n"), "ppn");
        assert_eq!(route("a.ppn.gz", b"[Event \"x\"]\n"), "ppn");
        assert_eq!(route("a.PPN", b"garbage\n"), "ppn");
        assert_eq!(route("a.rbn", b"D 19991225\n"), "rbn");
        assert_eq!(route("x", b"% RBN\nD 19991225\n"), "rbn");
        assert_eq!(route("x", b"%{RBX}D{19991225}L{x}H{W:AK2}\n"), "rbx");
        assert_eq!(route("a.phhs", b"[1]\nvariant = 'NT'\n"), "phh");
        assert_eq!(route("x.toml", b"variant = 'NT'\nactions = []\n"), "phh");
        // A file named for a notation is read as it, whatever it holds; a
        // binary file of another name goes nowhere, and so does text of no
        // notation.
        assert_eq!(route("a.pbn", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), "pbn");
        let why = route("a.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
        assert!(
            why.starts_with(
                "not recognized: this file holds binary data (a NUL byte at offset 8); deckhand reads PPN"
            ),
            "{why}"
        );
        let why = route("notes.txt", b"hello\n");
        assert!(why.contains("text with no tag pair"), "{why}");
        let why = route("game.pgn", b"[Event \"x\"]\n[White \"y\"]\n[Black \"z\"]\n");
        assert!(why.contains("tag pairs of chess PGN"), "{why}");
        // Tags that tell no notation, in a file whose name tells none: the
        // family's first notation.
        assert_eq!(route("-", b"[Event \"x\"]\n"), "ppn");
        assert_eq!(route("x.txt", b"variant = 'NT'\n"), "phh");
    }

    #[test]
    fn a_forced_notation_takes_every_input() {
        let s = Settings {
            notation: Some("PBN".into()),
            ..Settings::default()
        };
        let r = Registry::new(&s).unwrap();
        assert_eq!(r.route(Path::new("a.ppn"), b"% PPN\n"), Route::To(2));
        let s = Settings {
            notation: Some("chess".into()),
            ..Settings::default()
        };
        assert_eq!(
            Registry::new(&s).err().unwrap(),
            "unknown notation 'chess': deckhand reads ppn, preferans-ppn, pbn, rbn, rbx, phh"
        );
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever a file's name and first bytes, routing answers (and the
        /// same way twice), and a file named for a notation goes to a
        /// notation of that name.
        #[test]
        fn routing_never_fails(
            head in proptest::collection::vec(any::<u8>(), 0..600),
            tags in proptest::collection::vec(
                proptest::sample::select(vec![
                    "[Board \"1\"]\n", "[Bula 60]\n", "% PPN\n", "[Melds \"-\"]\n",
                    "variant = 1\n", "D 1\n", "%{RBX}D{1}\n", "{c\n", "\r\n",
                ]),
                0..6),
            ext in prop_oneof![Just(""), Just(".ppn"), Just(".PBN.gz"), Just(".txt"), Just(".phhs")],
        ) {
            let mut bytes: Vec<u8> = tags.concat().into_bytes();
            bytes.extend_from_slice(&head);
            let r = Registry::new(&Settings::default()).unwrap();
            let name = format!("f{ext}");
            let route = r.route(Path::new(&name), &bytes);
            prop_assert_eq!(&route, &r.route(Path::new(&name), &bytes));
            if !extension_notations(Path::new(&name)).is_empty() {
                prop_assert!(matches!(route, Route::To(_)));
            }
        }
    }
}
