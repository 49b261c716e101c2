//! The composition root: every notation deckhand reads, with its settings,
//! the exports and the generators. The pipeline, the sources and the sinks
//! know none of them by name; they are handed the [`Registry`] built here.
//! Adding a notation is its own folder under `notation/` and a line in
//! [`ABOUT`] and [`notations`].

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::columns::table::TableDecl;
use crate::notation::About;
use crate::notation::pbn::Pbn;
use crate::notation::phh::Phh;
use crate::notation::pinochle_ppn::{Ppn, RulesConfig};
use crate::notation::preferans_ppn::Preferans;
use crate::notation::rbn::Rbn;
use crate::pipeline::Run;
pub use crate::pipeline::route::{HEAD_BYTES, Registry, Route, Settings};

/// The notations, in the order they are tried when two fit equally.
pub const ABOUT: &[&About] = &[
    &crate::notation::pinochle_ppn::ABOUT,
    &crate::notation::preferans_ppn::PREFERANS,
    &crate::notation::pbn::ABOUT,
    &crate::notation::rbn::RBN,
    &crate::notation::rbn::RBX,
    &crate::notation::phh::PHH,
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
    use crate::notation::{pbn, phh, pinochle_ppn, preferans_ppn, rbn};
    // Each notation with codes of its own: its About, words after its
    // title, its codes.
    let lists: [(&About, &str, &'static [crate::diagnostics::Code]); 5] = [
        (&pinochle_ppn::ABOUT, "", pinochle_ppn::diagnostics::CODES),
        (
            &preferans_ppn::PREFERANS,
            "",
            preferans_ppn::diagnostics::CODES,
        ),
        (&pbn::ABOUT, "", pbn::diagnostics::CODES),
        (&rbn::RBN, " and RBX", rbn::diagnostics::CODES),
        (&phh::PHH, "", phh::diagnostics::CODES),
    ];
    let generic = (
        "deckhand, any notation (D)".to_string(),
        crate::diagnostics::GENERIC,
    );
    std::iter::once(generic)
        .chain(lists.iter().map(|(about, and, codes)| {
            (
                format!("{}{and} ({})", about.title, about.code_prefix),
                *codes,
            )
        }))
        .collect()
}

/// The notations of a run, configured by `settings`; an error names a
/// rules profile that cannot be read or a `--notation` that does not exist.
pub fn notations(settings: &Settings) -> Result<Registry, String> {
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
        Box::new(Phh {
            compute: settings.compute,
        }),
    ];
    debug_assert!(
        notations
            .iter()
            .zip(ABOUT)
            .all(|(n, a)| n.about().name == a.name)
    );
    Registry::new(notations, settings.notation.as_deref())
}

/// The notations with the default settings.
fn default_notations() -> Registry {
    notations(&Settings::default()).expect("the default settings are valid")
}

/// Every table a run can write: each game's (of the notations converted),
/// then the shared `errors` table.
pub fn all_tables() -> Vec<&'static TableDecl> {
    default_notations().tables()
}

/// Every notation's extensions, each once, with its dot.
pub fn extensions() -> Vec<String> {
    default_notations().extensions()
}

/// The inputs of a command line ([`crate::source::find_inputs`]), a
/// directory's files being inputs of the notations `settings` configures.
pub fn find_inputs(
    inputs: &[PathBuf],
    settings: &Settings,
) -> Result<crate::source::Found, crate::Error> {
    let registry = notations(settings).map_err(crate::Error::Settings)?;
    crate::source::find_inputs(inputs, &|p: &Path, is_file| registry.is_input(p, is_file))
}

/// [`find_inputs`], the inputs alone.
pub fn expand_inputs(
    inputs: &[PathBuf],
    settings: &Settings,
) -> Result<Vec<PathBuf>, crate::Error> {
    Ok(find_inputs(inputs, settings)?.inputs)
}

impl Default for crate::pipeline::Options {
    /// Every notation of [`ABOUT`], with the default settings: only the
    /// composition root knows them.
    fn default() -> Self {
        crate::pipeline::Options::with_notations(notations)
    }
}

/// `deckhand export --to ppn` (the default) writes Portable Pinochle
/// Notation: canonical EXPORT text of the hands of PPN inputs.
pub use crate::export::pinochle::{ExportReport, export};

/// What `deckhand export --to <notation>` did: its files, its records,
/// and what the notation written cannot hold, by kind, with counts.
#[derive(Debug, Default)]
pub struct Exported {
    pub files: usize,
    pub total: crate::pipeline::FileSummary,
    pub lost: Vec<(&'static str, u64)>,
}

impl Exported {
    /// What the export did, in a line (`deckhand export` says it when it
    /// ends): `to` is the notation written.
    pub fn summary(&self, to: &str) -> String {
        let t = &self.total;
        if to == "ppn" {
            format!(
                "exported {} hands from {} file(s); {} records could not be converted and were copied unchanged",
                t.converted, self.files, t.quarantined
            )
        } else {
            format!(
                "exported {} records from {} file(s) as {}; {} records could not be converted",
                t.converted,
                self.files,
                to.to_ascii_uppercase(),
                t.quarantined
            )
        }
    }
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
    use crate::export::bridge::{self, Target};
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
pub use crate::notation::pinochle_ppn::generate as generator;

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
        let st = crate::notation::preferans_ppn::generate::generate(
            opts.hands, opts.seed, opts.crlf, out,
        )?;
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

/// Splitting only, for `deckhand bench`: the records of PPN bytes (the
/// tag-pair splitter).
pub fn split_records(bytes: &[u8]) -> u64 {
    use crate::notation::tagpair::split::{ItemKind, split_all};
    (split_all(bytes, 0).iter())
        .filter(|i| i.kind == ItemKind::Record)
        .count() as u64
}

/// Splitting and tokenizing only, for `deckhand bench`: the records and
/// tokens of PPN bytes (see `pinochle_ppn::tokenize`).
pub fn tokenize(bytes: &[u8]) -> (u64, u64) {
    crate::notation::pinochle_ppn::tokenize(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route(name: &str, head: &[u8]) -> String {
        let r = notations(&Settings::default()).unwrap();
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
        let r = notations(&s).unwrap();
        assert_eq!(r.route(Path::new("a.ppn"), b"% PPN\n"), Route::To(2));
        let s = Settings {
            notation: Some("chess".into()),
            ..Settings::default()
        };
        assert_eq!(
            notations(&s).err().unwrap(),
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
            let r = notations(&Settings::default()).unwrap();
            let name = format!("f{ext}");
            let route = r.route(Path::new(&name), &bytes);
            prop_assert_eq!(&route, &r.route(Path::new(&name), &bytes));
            if r.is_notation_name(Path::new(&name)) {
                prop_assert!(matches!(route, Route::To(_)));
            }
        }
    }
}
