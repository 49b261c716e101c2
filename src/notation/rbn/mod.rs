//! Richard's Bridge Notation (RBN 3.2) and RBX, its one-record-a-line form,
//! read into the bridge tables.
//!
//! Records are split by lines (`notation::lines`: blank lines end an RBN
//! record, each line is an RBX record); [`record`] reads a record's lines
//! (an RBX line is first turned into the RBN text it stands for, byte for
//! byte the same length) and carries the repeating labels from record to
//! record; [`values`] reads the labels' values; [`build`] gives them their
//! meaning in a `notation::bridge_board::Board`, which the bridge rules
//! check and the shared code writes, as for PBN.

pub mod build;
pub mod diagnostics;
pub mod record;
pub mod values;

use std::borrow::Cow;

/// The codes this notation's code gives (explained in [`diagnostics`]).
pub mod codes {
    pub const NOT_RBX: &str = "R001";
    pub const TOO_LARGE: &str = "R002";
    pub const INVALID: &str = "R020";
    pub const MISSING_NOTE: &str = "R021";
    pub const UNPLACED: &str = "R022";
    pub const UNLISTED: &str = "R101";
}

use crate::columns::table::TableDecl;
use crate::games::bridge::tables::{BRIDGE_TABLES, Builders, GAME};
use crate::notation::head::Head;
use crate::notation::lines::{EachLine, LineSplitter, Paragraphs};
use crate::notation::{About, Evidence, FileInfo, Notation};
use crate::split::{Item, Splitter};

pub static RBN: About = About {
    name: "rbn",
    label: "RBN",
    title: "Richard's Bridge Notation",
    game: GAME,
    extensions: &["rbn"],
    code_prefix: 'R',
};

pub static RBX: About = About {
    name: "rbx",
    label: "RBX",
    title: "Richard's Bridge Notation, one record a line",
    game: GAME,
    extensions: &["rbx"],
    code_prefix: 'R',
};

/// RBN's labels: a letter and a space at the start of a line.
const RBN_LABELS: &[u8] = b"DTLEFSKNBHACPRMI";

fn sniff_rbn(head: &Head<'_>) -> Evidence {
    if head.declares("RBN") {
        Evidence::Declared
    } else if head
        .label_lines
        .iter()
        .filter(|l| RBN_LABELS.contains(l))
        .count()
        >= 3
    {
        Evidence::Typical
    } else {
        Evidence::None
    }
}

fn sniff_rbx(head: &Head<'_>) -> Evidence {
    let rbx_line = |l: &[u8]| {
        let labels = l
            .windows(2)
            .filter(|w| RBN_LABELS.contains(&w[0]) && w[1] == b'{')
            .count();
        labels >= 3 && l.ends_with(b"}")
    };
    if head.first_line.starts_with(b"%{RBX}") {
        Evidence::Declared
    } else if head.brace_lines.iter().any(|l| rbx_line(l.trim_ascii())) {
        Evidence::Typical
    } else {
        Evidence::None
    }
}

/// A record: its RBN text (an RBX line turned into RBN), where it is, and
/// what the database rules give it.
pub struct Rec<'a> {
    /// The record's bytes as in the input (the start of them, for a record
    /// too large to keep whole).
    pub raw: &'a [u8],
    /// Its RBN text: `raw`, or the RBN an RBX line stands for.
    pub text: Cow<'a, [u8]>,
    pub item: Item,
    /// 0-based among the file's records (a record of `%` lines alone is
    /// none: it is the file's description).
    pub index: u64,
    /// Why it cannot be read at all (code, offset, message).
    pub error: Option<(&'static str, usize, String)>,
    /// `%` lines and nothing else.
    pub description: bool,
    /// The repeating labels' values in effect (DTLEFSKNBH), after
    /// [`Notation::resolve`].
    pub carried: [Option<record::Shared>; 10],
    /// The repeating labels the record gives itself.
    given: [Option<Option<std::ops::Range<usize>>>; 10],
}

/// What carries from record to record in a file: the repeating labels and
/// the count of records.
#[derive(Clone, Default)]
pub struct State {
    carry: record::Carry,
    records: u64,
}

/// RBN or RBX.
#[derive(Clone, Debug)]
pub struct Rbn {
    /// One record a line (RBX).
    pub rbx: bool,
    /// Compute the rules' columns.
    pub compute: bool,
}

impl Rbn {
    pub fn plain(compute: bool) -> Self {
        Rbn {
            rbx: false,
            compute,
        }
    }

    pub fn rbx(compute: bool) -> Self {
        Rbn { rbx: true, compute }
    }
}

/// The splitter of RBN (paragraphs) or RBX (lines).
pub enum RbnSplitter {
    Rbn(LineSplitter<Paragraphs>),
    Rbx(LineSplitter<EachLine>),
}

impl RbnSplitter {
    fn inner(&mut self) -> &mut dyn Splitter {
        match self {
            RbnSplitter::Rbn(s) => s,
            RbnSplitter::Rbx(s) => s,
        }
    }
}

impl Splitter for RbnSplitter {
    fn scan(&mut self, bytes: &[u8], base: u64, to: usize, items: &mut Vec<Item>) {
        self.inner().scan(bytes, base, to, items)
    }

    fn end(&mut self, bytes: &[u8], base: u64, items: &mut Vec<Item>) {
        self.inner().end(bytes, base, items)
    }

    fn open_start(&self) -> u64 {
        match self {
            RbnSplitter::Rbn(s) => s.open_start(),
            RbnSplitter::Rbx(s) => s.open_start(),
        }
    }
}

/// Reads one record's text and what it gives of the repeating labels.
fn read<'a>(raw: &'a [u8], item: Item, index: u64, whole: bool, rbx: bool) -> Rec<'a> {
    let mut rec = Rec {
        raw,
        text: Cow::Borrowed(raw),
        item,
        index,
        error: None,
        description: false,
        carried: Default::default(),
        given: Default::default(),
    };
    if !whole {
        rec.error = Some((
            codes::TOO_LARGE,
            0,
            format!(
                "the record is {} bytes, more than deckhand keeps whole: not read (RBN allows {})",
                item.end - item.start,
                record::MAX_RECORD
            ),
        ));
        return rec;
    }
    if rbx {
        match record::rbx_to_rbn(raw) {
            Ok(t) => rec.text = t,
            Err((at, msg)) => {
                rec.error = Some((
                    codes::NOT_RBX,
                    at,
                    format!("{msg}: the line is not RBX, not read"),
                ));
                return rec;
            }
        }
    }
    let lines = record::parse(&rec.text);
    rec.description = lines.labels.is_empty()
        && lines.notes.is_empty()
        && lines.texts.is_empty()
        && lines.items.is_empty()
        && lines.unknown.is_empty()
        && !lines.extraneous.is_empty();
    let base = rec.text.as_ptr() as usize;
    let given = record::given(&lines);
    for (k, g) in given.iter().enumerate() {
        rec.given[k] =
            g.map(|v| v.map(|v| v.as_ptr() as usize - base..v.as_ptr() as usize - base + v.len()));
    }
    rec
}

impl Notation for Rbn {
    type Group<'a> = Vec<Rec<'a>>;
    type FileState<'a> = State;
    type Carry = State;
    type Context<'a> = ();
    type Splitter = RbnSplitter;
    type Builders = Builders;

    fn about(&self) -> &'static About {
        if self.rbx { &RBX } else { &RBN }
    }

    fn sniff(&self, head: &Head<'_>) -> Evidence {
        if self.rbx {
            sniff_rbx(head)
        } else {
            sniff_rbn(head)
        }
    }

    fn tables(&self) -> &'static [&'static TableDecl] {
        BRIDGE_TABLES
    }

    fn splitter(&self, start: u64) -> RbnSplitter {
        if self.rbx {
            RbnSplitter::Rbx(LineSplitter::new_at(start))
        } else {
            RbnSplitter::Rbn(LineSplitter::new_at(start))
        }
    }

    fn save(&self, state: &State) -> State {
        state.clone()
    }

    fn restore(&self, carry: &State) -> State {
        carry.clone()
    }

    fn parse<'a>(&self, input: &'a [u8], base: u64, records: &[(Item, u64, ())]) -> Vec<Rec<'a>> {
        records
            .iter()
            .map(|&(item, index, ())| {
                let (bytes, whole) = item.bytes_in(input, base);
                read(bytes, item, index, whole, self.rbx)
            })
            .collect()
    }

    fn resolve<'a>(&self, state: &mut State, groups: &mut [Vec<Rec<'a>>]) {
        for rec in groups.iter_mut().flatten() {
            if rec.description {
                continue;
            }
            rec.index = state.records;
            state.records += 1;
            if rec.error.is_some() {
                continue;
            }
            let text: &[u8] = &rec.text;
            let given: [record::Given<'_>; 10] = std::array::from_fn(|k| {
                rec.given[k]
                    .as_ref()
                    .map(|v| v.as_ref().map(|r| &text[r.clone()]))
            });
            rec.carried = state.carry.apply_given(&given);
        }
    }

    fn parsed(&self, group: &Vec<Rec<'_>>) -> usize {
        group.iter().filter(|r| !r.description).count()
    }

    fn build_group(&self, file: &FileInfo, group: &Self::Group<'_>, out: &mut Self::Builders) {
        for rec in group.iter() {
            build::build_record(self.about(), file, rec, self.compute, out);
        }
    }
}
