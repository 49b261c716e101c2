//! Poker Hand History (PHH, `.phh` and `.phhs`) read into the poker tables.
//!
//! A `.phh` file is one TOML document, one hand; a `.phhs` file holds one
//! hand a TOML table (`[1]`, `[2]` ... or any key). The splitter
//! (`notation::lines::TomlTables`) cuts a file at its table headers outside
//! strings and arrays; each piece is read by the `toml` crate in parallel
//! (its spans give every diagnostic a line and column, its numbers' text
//! gives exact amounts); [`build`] gives each field its column and reads
//! the actions ([`action`]). Comments alone before the first table are the
//! file's description, not a hand.

pub mod action;
pub mod build;
pub mod diagnostics;
pub mod doc;

use toml::Spanned;
use toml::de::DeTable;

use crate::columns::table::TableDecl;
use crate::games::poker::tables::{Builders, GAME, POKER_TABLES};
use crate::notation::head::Head;
use crate::notation::lines::{LineSplitter, TomlTables};
use crate::notation::{About, Evidence, FileInfo, Notation};
use crate::split::Item;

/// The codes this notation's code gives (explained in [`diagnostics`]).
pub mod codes {
    pub const SYNTAX: &str = "H001";
    pub const TOO_LARGE: &str = "H002";
    pub const NOT_UTF8: &str = "H003";
    pub const TABLE_AGAIN: &str = "H004";
    pub const MISSING: &str = "H010";
    pub const NOT_USED: &str = "H011";
    pub const WRONG_TYPE: &str = "H012";
    pub const WRONG_LENGTH: &str = "H013";
    pub const BAD_VALUE: &str = "H014";
    pub const UNKNOWN_VARIANT: &str = "H015";
    pub const BAD_ACTION: &str = "H020";
    pub const NOT_IN_DECK: &str = "H021";
    pub const NO_PLAYER: &str = "H022";
    pub const NO_CARDS_DEALT: &str = "H023";
    pub const UNKNOWN_FIELD: &str = "H030";
    pub const OUT_OF_TURN: &str = "H040";
    pub const LIMITS: &str = "H041";
    pub const CARD_TWICE: &str = "H042";
    pub const AFTER_END: &str = "H043";
    pub const DISAGREE: &str = "H044";
    pub const IMPOSSIBLE: &str = "H045";
    pub const UNFINISHED: &str = "H046";
    pub const NOT_REPLAYED: &str = "H047";
    pub const UNLISTED: &str = "H101";
}

pub static PHH: About = About {
    name: "phh",
    label: "PHH",
    title: "Poker Hand History",
    game: GAME,
    extensions: &["phh", "phhs"],
    code_prefix: 'H',
};

fn sniff_phh(head: &Head<'_>) -> Evidence {
    let key = |k: &str| head.has_key(k);
    if key("variant") && (key("actions") || key("starting_stacks") || key("antes")) {
        Evidence::Typical
    } else if key("variant") {
        Evidence::Family
    } else {
        Evidence::None
    }
}

/// The most bytes of one hand read (a `.phh` file is one hand; real hands
/// are a few KB).
pub const MAX_RECORD: u64 = 16 << 20;

/// A record: a hand, or the comments before a file's first table.
pub struct Rec<'a> {
    /// The record's bytes (the start of them, for a record too large to
    /// keep whole).
    pub raw: &'a [u8],
    pub item: Item,
    /// 0-based among the file's hands, after [`Notation::resolve`].
    pub index: u64,
    /// Its text, when it is UTF-8 (read as TOML when its rows are built:
    /// the document is dropped as soon as its rows are written, so that a
    /// group's documents are not all in memory at once).
    pub text: Option<&'a str>,
    /// Why it could not be read at all (code, offset, message).
    pub error: Option<(&'static str, usize, String)>,
    /// White space and comments alone: no hand.
    pub description: bool,
    /// The table header of a `.phhs` hand (`[2]`): its key and offset.
    pub key: Option<(&'a [u8], usize)>,
    /// The file's earlier hand whose table has the same key, after
    /// [`Notation::resolve`].
    pub key_of: Option<u64>,
}

/// The hands of a file seen so far, and the first hand of each table key
/// (by the key's 64-bit hash: 16 bytes a hand, not the key itself).
#[derive(Clone, Debug, Default)]
pub struct Hands {
    pub count: u64,
    keys: rustc_hash::FxHashMap<u64, u64>,
}

/// The key of a `.phhs` table header: the first line that is no comment,
/// when it is `[key]`; with the offset of the `[`.
fn table_key(raw: &[u8]) -> Option<(&[u8], usize)> {
    let mut at = 0;
    for line in raw.split(|&c| c == b'\n') {
        let t = line.trim_ascii();
        let lead = line.len() - line.trim_ascii_start().len();
        if !t.is_empty() && t[0] != b'#' {
            let inner = t.strip_prefix(b"[")?.split(|&c| c == b']').next()?;
            return (t.len() > inner.len() + 1).then_some((inner.trim_ascii(), at + lead));
        }
        at += line.len() + 1;
    }
    None
}

/// Only white space and `#` comments.
fn comments_only(b: &[u8]) -> bool {
    b.split(|&c| c == b'\n').all(|l| {
        let l = l.trim_ascii();
        l.is_empty() || l[0] == b'#'
    })
}

/// Reads one record.
fn read(raw: &[u8], item: Item, whole: bool) -> Rec<'_> {
    let mut rec = Rec {
        raw,
        item,
        index: 0,
        text: None,
        error: None,
        description: false,
        key: None,
        key_of: None,
    };
    if !whole || item.end - item.start > MAX_RECORD {
        rec.error = Some((
            codes::TOO_LARGE,
            0,
            format!(
                "the hand is {} bytes, more than deckhand reads of one hand ({MAX_RECORD}): not read",
                item.end - item.start
            ),
        ));
        return rec;
    }
    if comments_only(raw) {
        rec.description = true;
        return rec;
    }
    let text = match std::str::from_utf8(raw) {
        Ok(t) => t,
        Err(e) => {
            let m = "the hand is not UTF-8 (TOML files are): not read".to_string();
            rec.error = Some((codes::NOT_UTF8, e.valid_up_to(), m));
            return rec;
        }
    };
    rec.text = Some(text);
    rec.key = table_key(raw);
    rec
}

/// Reads a hand's TOML, or says why it cannot be (offset, message).
pub fn read_toml(text: &str) -> Result<Spanned<DeTable<'_>>, (usize, String)> {
    DeTable::parse(text).map_err(|e| {
        let at = e.span().map_or(0, |s| s.start);
        let msg = e.message().trim().to_string();
        (at, format!("TOML: {msg}: the hand is not read"))
    })
}

/// PHH.
#[derive(Clone, Debug)]
pub struct Phh {
    /// Replay each hand by the rules (`--no-rules` turns it off).
    pub compute: bool,
}

impl Default for Phh {
    fn default() -> Self {
        Phh { compute: true }
    }
}

impl Notation for Phh {
    type Group<'a> = Vec<Rec<'a>>;
    type FileState<'a> = Hands;
    type Carry = Hands;
    type Context<'a> = ();
    type Splitter = LineSplitter<TomlTables>;
    type Builders = Builders;

    fn about(&self) -> &'static About {
        &PHH
    }

    fn sniff(&self, head: &Head<'_>) -> Evidence {
        sniff_phh(head)
    }

    fn tables(&self) -> &'static [&'static TableDecl] {
        POKER_TABLES
    }

    fn splitter(&self, start: u64) -> Self::Splitter {
        LineSplitter::new_at(start)
    }

    fn save(&self, state: &Hands) -> Hands {
        state.clone()
    }

    fn restore(&self, carry: &Hands) -> Hands {
        carry.clone()
    }

    fn parse<'a>(&self, input: &'a [u8], base: u64, records: &[(Item, u64, ())]) -> Vec<Rec<'a>> {
        records
            .iter()
            .map(|&(item, _, ())| {
                let (bytes, whole) = item.bytes_in(input, base);
                read(bytes, item, whole)
            })
            .collect()
    }

    fn resolve<'a>(&self, hands: &mut Hands, groups: &mut [Vec<Rec<'a>>]) {
        for rec in groups.iter_mut().flatten() {
            if !rec.description {
                rec.index = hands.count;
                if let Some((key, _)) = rec.key {
                    let first = *hands
                        .keys
                        .entry(xxhash_rust::xxh3::xxh3_64(key))
                        .or_insert(rec.index);
                    rec.key_of = (first != rec.index).then_some(first);
                }
                hands.count += 1;
            }
        }
    }

    fn parsed(&self, group: &Vec<Rec<'_>>) -> usize {
        group.iter().filter(|r| !r.description).count()
    }

    fn build_group(&self, file: &FileInfo, group: &Self::Group<'_>, out: &mut Self::Builders) {
        for rec in group.iter() {
            build::build_record(file, rec, self.compute, out);
        }
    }
}
