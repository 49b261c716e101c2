//! The notations deckhand recognizes but does not convert yet (Portable Preferans Notation): their
//! files are routed to them and split into records by their own rules, and
//! each record is quarantined with its raw text (error D002), so that
//! nothing of them is lost and the run says what it could not read.

use super::head::Head;
use super::tagpair::split::Scanner;
use super::{About, Evidence, Notation, Part, PartEnd, Tables};
use crate::columns::errors::{ERRORS, ErrorsBuilder, RecordRef};
use crate::columns::table::TableDecl;
use crate::error::{Position, Severity};
use crate::split::{Item, Splitter};

pub static PREFERANS: About = About {
    name: "preferans-ppn",
    label: "PPN-preferans",
    title: "Portable Preferans Notation",
    game: "preferans",
    extensions: &["ppn"],
    converted: false,
    code_prefix: 'F',
};

/// The required tags of Portable Preferans Notation.
const PREFERANS_TAGS: &[&str] = &[
    "Bula", "Refe", "Player1", "Player2", "Player3", "Result1", "Result2", "Result3",
];

fn sniff_preferans(head: &Head<'_>) -> Evidence {
    // Its deal lines: `[1 312 ...`, a number (read as a tag's name).
    let deal_line = (head.tags().iter()).any(|t| t.iter().all(u8::is_ascii_digit));
    if PREFERANS_TAGS.iter().any(|t| head.has_tag(t)) || deal_line {
        Evidence::Typical
    } else if head.has_any_tag() {
        Evidence::Family
    } else {
        Evidence::None
    }
}

/// How a planned notation splits its files.
#[derive(Clone, Copy, Debug)]
enum Split {
    /// Blank-line records, `{}` comments, `%` lines (PBN, RBN, Preferans).
    TagPair,
}

/// The splitter of a planned notation.
pub enum AnySplitter {
    TagPair(Box<Scanner>),
}

impl AnySplitter {
    fn inner(&mut self) -> &mut dyn Splitter {
        match self {
            AnySplitter::TagPair(s) => &mut **s,
        }
    }
}

impl Splitter for AnySplitter {
    fn scan(&mut self, bytes: &[u8], base: u64, to: usize, items: &mut Vec<Item>) {
        self.inner().scan(bytes, base, to, items)
    }

    fn end(&mut self, bytes: &[u8], base: u64, items: &mut Vec<Item>) {
        self.inner().end(bytes, base, items)
    }

    fn open_start(&self) -> u64 {
        match self {
            AnySplitter::TagPair(s) => s.open_start(),
        }
    }
}

/// A notation recognized but not converted yet.
pub struct Planned {
    about: &'static About,
    sniff: fn(&Head<'_>) -> Evidence,
    split: Split,
}

impl Planned {
    pub fn preferans() -> Self {
        Planned {
            about: &PREFERANS,
            sniff: sniff_preferans,
            split: Split::TagPair,
        }
    }
}

/// A record of a planned notation: its bytes (the start of them, for a
/// record too large to keep whole) and where it is.
pub struct Rec<'a> {
    bytes: &'a [u8],
    item: Item,
    index: u64,
}

const TABLES: &[&TableDecl] = &[ERRORS];

impl Notation for Planned {
    type Group<'a> = Vec<Rec<'a>>;
    type FileState<'a> = ();
    type Carry = ();
    type Context<'a> = ();
    type Splitter = AnySplitter;

    fn about(&self) -> &'static About {
        self.about
    }

    fn sniff(&self, head: &Head<'_>) -> Evidence {
        (self.sniff)(head)
    }

    fn tables(&self) -> &'static [&'static TableDecl] {
        TABLES
    }

    fn splitter(&self, start: u64) -> AnySplitter {
        match self.split {
            Split::TagPair => AnySplitter::TagPair(Box::new(Scanner::new_at(start))),
        }
    }

    fn save(&self, _: &()) {}

    fn restore(&self, _: &()) {}

    fn directive(&self, _: &mut (), _: &[u8]) {}

    fn record_context<'a>(&self, _: &mut ())
    where
        'a: 'a,
    {
    }

    fn parse<'a>(&self, input: &'a [u8], base: u64, records: &[(Item, u64, ())]) -> Vec<Rec<'a>> {
        records
            .iter()
            .map(|&(item, index, ())| {
                let start = (item.start - base) as usize;
                let end = ((item.end - base) as usize).min(input.len());
                Rec {
                    bytes: &input[start..end],
                    item,
                    index,
                }
            })
            .collect()
    }

    fn resolve<'a>(&self, _: &mut (), _: &mut [Vec<Rec<'a>>]) {}

    fn parsed(&self, group: &Vec<Rec<'_>>) -> usize {
        group.len()
    }

    fn build(&self, parts: &[Part<'_, '_, Self>]) -> Result<(Tables, Vec<PartEnd>), crate::Error> {
        let rows = parts.iter().map(|p| p.1.len()).sum();
        let mut errors = ErrorsBuilder::with_rows(rows);
        let mut ends = Vec::with_capacity(parts.len());
        let a = self.about;
        let message = format!(
            "{} ({}, the {} notation) is recognized but not converted yet: the record is kept here with its raw text",
            a.title, a.label, a.game
        );
        for (file, group) in parts {
            for r in group.iter() {
                let rec = RecordRef {
                    file: &file.name,
                    notation: Some((a.label, a.game)),
                    bytes: r.bytes,
                    byte: r.item.start,
                    line: r.item.line,
                    index: r.index,
                    record_id: None,
                };
                let at = Position {
                    byte: r.item.start,
                    line: r.item.line,
                    column: 1,
                    record: r.index,
                };
                errors.push_row(&rec, at, Severity::Error, "D002", &message);
            }
            ends.push(PartEnd {
                records: 0,
                errors: errors.record_index.len(),
            });
        }
        Ok((vec![(ERRORS, errors.finish()?)], ends))
    }
}
