//! Portable Preferans Notation (Prefko's PPN, `.ppn` like pinochle's) read
//! into the preferans tables.
//!
//! A game is a tag section (`[Bula 60]`, values quoted when they hold
//! spaces) and its deal lines (`[1 231 <32 cards> M3,P,3 2 AR 4 ...]`),
//! blank lines anywhere. The splitter ([`Games`]) starts a game at a tag
//! pair that follows a deal line, or a blank line after tag pairs; [`read`]
//! reads the lines and the deal lines' fields; [`build`] fills the tables
//! and checks the cards and throws by the rules of
//! `games::preferans`.

pub mod build;
pub mod diagnostics;
pub mod generate;
pub mod syntax;

use crate::columns::table::TableDecl;
use crate::games::preferans::tables::{Builders, GAME, PREFERANS_TABLES};
use crate::notation::head::Head;
use crate::notation::lines::{Line, LineRule, LineSplitter};
use crate::notation::{About, Evidence, FileInfo, Notation};
use crate::split::Item;

/// The codes this notation's code gives (explained in [`diagnostics`]).
pub mod codes {
    pub const TOO_LARGE: &str = "F001";
    pub const NO_GAME: &str = "F002";
    pub const LINE: &str = "F003";
    pub const DEAL_LINE: &str = "F004";
    pub const UNCLOSED_COMMENT: &str = "F005";
    pub const MISSING_TAG: &str = "F010";
    pub const NOT_NUMBER: &str = "F011";
    pub const REPEATED: &str = "F012";
    pub const FIELD_MISSING: &str = "F013";
    pub const FIELD: &str = "F014";
    pub const OPEN_QUOTE: &str = "F015";
    pub const AFTER: &str = "F016";
    pub const PASSED: &str = "F017";
    pub const ROLES: &str = "F018";
    pub const DEALT: &str = "F020";
    pub const DISCARD: &str = "F021";
    pub const NOT_HELD: &str = "F022";
    pub const NOT_FOLLOWED: &str = "F023";
    pub const WINNER: &str = "F024";
    pub const TRICKS: &str = "F025";
    pub const PLAYERS: &str = "F026";
    pub const NOT_COMPUTED: &str = "F040";
    pub const UNLISTED: &str = "F101";
}

pub static PREFERANS: About = About {
    name: "preferans-ppn",
    label: "PPN-preferans",
    title: "Portable Preferans Notation",
    game: GAME,
    extensions: &["ppn"],
    code_prefix: 'F',
};

/// The required tags of Portable Preferans Notation.
pub const REQUIRED_TAGS: &[&str] = &[
    "Bula", "Refe", "Player1", "Player2", "Player3", "Result1", "Result2", "Result3",
];

fn sniff_preferans(head: &Head<'_>) -> Evidence {
    // Its deal lines: `[1 312 ...`, a number (read as a tag's name); its
    // tag values, mostly unquoted (`[Date 2008.03.08]`).
    let deal_line = (head.tags().iter()).any(|t| t.iter().all(u8::is_ascii_digit));
    let unquoted = head.unquoted > head.quoted;
    if REQUIRED_TAGS.iter().any(|t| head.has_tag(t)) || deal_line || unquoted {
        Evidence::Typical
    } else if head.has_any_tag() {
        Evidence::Family
    } else {
        Evidence::None
    }
}

/// The most bytes of one game read.
pub const MAX_RECORD: u64 = 64 << 20;

/// Where games begin: at a tag pair after a deal line, or after a blank
/// line that follows tag pairs (a game with no deal line); blank lines
/// and comments end nothing. A `{` comment may span lines.
#[derive(Default)]
pub struct Games {
    /// A deal line in the open game.
    dealt: bool,
    /// Tag pairs in the open game.
    tagged: bool,
    /// A blank line since the last tag pair.
    gap: bool,
    /// Inside a `{` comment.
    brace: bool,
}

impl LineRule for Games {
    fn line(&mut self, line: &[u8], blank: bool) -> Line {
        if self.brace {
            if memchr::memchr(b'}', line).is_some() {
                self.brace = false;
            }
            return Line::Continue;
        }
        if blank {
            self.gap = self.tagged;
            return Line::Continue;
        }
        let t = line.trim_ascii_start();
        match t.first() {
            Some(b'{') => {
                self.brace = memchr::memchr(b'}', t).is_none();
                Line::Continue
            }
            Some(b'[') => {
                let name = t[1..].trim_ascii_start();
                if name.first().is_some_and(u8::is_ascii_digit) {
                    self.dealt = true;
                    self.gap = false;
                    return Line::Continue;
                }
                let start = self.dealt || self.gap;
                self.dealt = false;
                self.gap = false;
                self.tagged = true;
                if start { Line::Start } else { Line::Continue }
            }
            _ => Line::Continue,
        }
    }
}

/// A game's bytes (the start of them, for one too large to keep whole)
/// and where it is.
pub struct Rec<'a> {
    pub raw: &'a [u8],
    pub item: Item,
    pub index: u64,
    /// Its bytes are all there.
    pub whole: bool,
    /// A `{` comment after its game never closes: the text from it on is a
    /// record of its own, quarantined (F005).
    pub swallows: bool,
}

/// Portable Preferans Notation.
#[derive(Clone, Debug)]
pub struct Preferans {
    /// Replay each deal's throws by the rules (`--no-rules` turns it off).
    pub compute: bool,
}

impl Default for Preferans {
    fn default() -> Self {
        Preferans { compute: true }
    }
}

impl Notation for Preferans {
    type Group<'a> = Vec<Rec<'a>>;
    type FileState<'a> = ();
    type Carry = ();
    type Context<'a> = ();
    type Splitter = LineSplitter<Games>;
    type Builders = Builders;

    fn about(&self) -> &'static About {
        &PREFERANS
    }

    fn sniff(&self, head: &Head<'_>) -> Evidence {
        sniff_preferans(head)
    }

    fn tables(&self) -> &'static [&'static TableDecl] {
        PREFERANS_TABLES
    }

    fn splitter(&self, start: u64) -> Self::Splitter {
        LineSplitter::new_at(start)
    }

    fn save(&self, _: &()) {}

    fn restore(&self, _: &()) {}

    fn parse<'a>(&self, input: &'a [u8], base: u64, records: &[(Item, u64, ())]) -> Vec<Rec<'a>> {
        records
            .iter()
            .map(|&(item, index, ())| {
                let (raw, whole) = item.bytes_in(input, base);
                let whole = whole && item.end - item.start <= MAX_RECORD;
                Rec {
                    raw,
                    item,
                    index,
                    whole,
                    swallows: whole && syntax::unclosed_after_game(raw).is_some(),
                }
            })
            .collect()
    }

    fn resolve<'a>(&self, _: &mut (), _: &mut [Vec<Rec<'a>>]) {}

    fn parsed(&self, group: &Vec<Rec<'_>>) -> usize {
        group.len() + group.iter().filter(|r| r.swallows).count()
    }

    fn build_group(&self, file: &FileInfo, group: &Self::Group<'_>, out: &mut Self::Builders) {
        for rec in group.iter() {
            build::build_record(file, rec, self.compute, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split::Splitter;

    fn split(text: &[u8]) -> Vec<(u64, u64)> {
        let mut s: LineSplitter<Games> = LineSplitter::new_at(0);
        let mut items = Vec::new();
        s.scan(text, 0, text.len(), &mut items);
        s.end(text, 0, &mut items);
        items.iter().map(|i| (i.line, i.end - i.start)).collect()
    }

    #[test]
    fn games_begin_at_tags_after_deals_or_after_a_blank_line() {
        let text = b"[Bula 60]\n[Refe 2]\n\n[1 231 x]\n\n[2 312 y]\n[Bula 40]\n{ [Bula\n 50] }\n[1 123 z]\n\n[Bula 1]\n\n[Bula 2]\n";
        assert_eq!(split(text), [(1, 40), (7, 34), (12, 8), (14, 8)]);
    }
}
