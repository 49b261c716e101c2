//! Phase 3: the meaning of a parsed, resolved record, written into the tables.
//!
//! Values are kept as written. A known tag whose value cannot be read is kept
//! in `other_tags` with a warning, so that nothing is lost; nothing is derived
//! here (trick winners, melds and scores are the rules engine's work).

use std::borrow::Cow;

use crate::notation::tagpair::lex::{Lists, Tag, TagState, Token};
mod checks;
pub mod compute;
pub mod game;

use super::values::{self, DateValue, HandEntry, is_missing};
use super::{Group, HandRec};
use crate::columns::errors_table::ErrorsBuilder;
use crate::columns::lists::{CardCopy, CardList};
use crate::columns::table::{append_i32s, append_kv, append_strs};
use crate::error::{Diag, Diags};
use crate::games::pinochle::rules::hand::{Derived, PLAYERS, TRICKS};
use crate::games::pinochle::seat::{default_teams, players_for_seats, seats_for, team_of};
use crate::games::pinochle::tables::*;
use crate::games::pinochle::{Card, Rank, Seat, Suit};
use crate::notation::FileInfo;
use crate::notation::tagpair::file::each_record;
pub use crate::notation::tagpair::text::text;
use crate::notation::tagpair::text::{bytes_text, comment_text, utf8_or_latin1};
use compute::{
    AuctionParse, CallParse, Computed, PlayParse, RulesConfig, Scores, Scratch, TrickParse,
};

/// Known single-valued tags, by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
enum K {
    Annotator,
    Auction,
    Competition,
    Contract,
    Date,
    Deal,
    Dealer,
    Declarer,
    Discard,
    Event,
    GameScores,
    Hand,
    HandScores,
    Holding,
    Kitty,
    Language,
    Melds,
    MeldScores,
    Partner,
    Passed,
    Play,
    PlayScores,
    Result,
    Round,
    Room,
    Scoring,
    Site,
    Stage,
    Termination,
    TimeControl,
    Trump,
    Victor,
}

const NK: usize = K::Victor as usize + 1;
const SEAT_BASE: usize = NK;
const TYPE_BASE: usize = NK + 8;
const SLOTS: usize = NK + 16;

enum Class {
    Known(usize),
    Note,
    BidSystem(u32),
    Other,
}

/// Tags that may appear many times in a hand and are never inherited.
pub fn is_repeatable(name: &[u8]) -> bool {
    matches!(name, b"Note" | b"Chat")
}

fn classify(name: &[u8]) -> Class {
    use K::*;
    let k = match name {
        b"Annotator" => Annotator,
        b"Auction" => Auction,
        b"Competition" => Competition,
        b"Contract" => Contract,
        b"Date" => Date,
        b"Deal" => Deal,
        b"Dealer" => Dealer,
        b"Declarer" => Declarer,
        b"Discard" => Discard,
        b"Event" => Event,
        b"GameScores" => GameScores,
        b"Hand" => Hand,
        b"HandScores" => HandScores,
        b"Holding" => Holding,
        b"Kitty" => Kitty,
        b"Language" => Language,
        b"Melds" => Melds,
        b"MeldScores" => MeldScores,
        b"Partner" => Partner,
        b"Passed" => Passed,
        b"Play" => Play,
        b"PlayScores" => PlayScores,
        b"Result" => Result,
        b"Round" => Round,
        b"Room" => Room,
        b"Scoring" => Scoring,
        b"Site" => Site,
        b"Stage" => Stage,
        b"Termination" => Termination,
        b"TimeControl" => TimeControl,
        b"Trump" => Trump,
        b"Victor" => Victor,
        b"Note" | b"Chat" => return Class::Note,
        _ => {
            if let Some(s) = Seat::from_tag_name(name) {
                return Class::Known(SEAT_BASE + s as usize);
            }
            if let Some(base) = name.strip_suffix(b"Type")
                && let Some(s) = Seat::from_tag_name(base)
            {
                return Class::Known(TYPE_BASE + s as usize);
            }
            if let Some(n) = name.strip_prefix(b"BidSystem")
                && let Some(team) = values::parse_u32(n)
            {
                return Class::BidSystem(team);
            }
            return Class::Other;
        }
    };
    Class::Known(k as usize)
}

const TAG_NAMES: [&str; NK] = [
    "Annotator",
    "Auction",
    "Competition",
    "Contract",
    "Date",
    "Deal",
    "Dealer",
    "Declarer",
    "Discard",
    "Event",
    "GameScores",
    "Hand",
    "HandScores",
    "Holding",
    "Kitty",
    "Language",
    "Melds",
    "MeldScores",
    "Partner",
    "Passed",
    "Play",
    "PlayScores",
    "Result",
    "Round",
    "Room",
    "Scoring",
    "Site",
    "Stage",
    "Termination",
    "TimeControl",
    "Trump",
    "Victor",
];

/// The builders of every PPN table for one group.
#[derive(Default)]
pub struct Builders {
    pub hands: HandsBuilder,
    pub seats: SeatsBuilder,
    pub bids: BidsBuilder,
    pub tricks: TricksBuilder,
    pub notes: NotesBuilder,
    pub errors: ErrorsBuilder,
    /// Vectors each hand fills and empties, kept from hand to hand.
    scratch: Scratch,
}

impl Builders {
    /// Builders sized for `n` records: 4 seats, about 8 calls and 20 tricks
    /// each; the card lists by what a four-handed hand holds (20 cards
    /// dealt, about 10 in meld, 4 in a trick; other lists are mostly null).
    pub fn for_records(n: usize) -> Builders {
        let mut seats = SeatsBuilder::with_rows(n * 4);
        seats.dealt = CardList::with_items(n * 4, 20);
        let dealt = SeatsBuilder::schema()
            .index_of("dealt")
            .expect("seats has dealt");
        seats.computed_dealt = CardCopy::of(dealt, n * 4, 20);
        seats.meld_cards = CardList::with_items(n * 4, 10);
        let mut tricks = TricksBuilder::with_rows(n * 20);
        tricks.cards = CardList::with_items(n * 20, 4);
        Builders {
            hands: HandsBuilder::with_rows(n),
            seats,
            bids: BidsBuilder::with_rows(n * 8),
            tricks,
            notes: NotesBuilder::with_rows(n / 4 + 1),
            errors: ErrorsBuilder::with_rows(n / 8 + 1),
            scratch: Scratch::default(),
        }
    }
}

/// Builds the rows of every hand of `g`.
pub fn build_group(file: &FileInfo, g: &Group<'_>, cfg: &RulesConfig, out: &mut Builders) {
    // How the hand before ended (P064), from the inheritance pass for the
    // group's first hand, then hand by hand.
    let mut before = g
        .before
        .as_ref()
        .and_then(|b| game::ended_from_text(b[0], b[1], b[2], b[3]));
    let mut block = g.records.first().map(|h| h.ctx.block);
    let mut errors = std::mem::take(&mut out.errors);
    each_record(
        &super::DIALECT,
        file,
        g,
        (super::LABEL, GAME),
        &mut errors,
        |e, diags| {
            let h = e.record;
            if block != Some(h.ctx.block) {
                // A new header block: the hand before is of another file.
                block = Some(h.ctx.block);
                before = None;
            }
            if let Some(hand_id) = e.id {
                Hand::new(&g.lists, h, diags).write(file, hand_id, cfg, &mut before, out);
            }
        },
    );
    out.errors = errors;
}

struct Hand<'g, 'a> {
    lists: &'g Lists<'a>,
    h: &'g HandRec<'a>,
    diags: &'g mut Diags,
    known: [Option<usize>; SLOTS],
    others: Vec<usize>,
    notes: Vec<usize>,
    bid_systems: Vec<(u32, usize)>,
    players: usize,
    seats: &'static [Seat],
    /// Bit `s` set for each seat `s` of `seats`.
    seat_mask: u8,
    /// The Dealer tag's seat, once read.
    dealer: Option<Seat>,
}

/// The tags of a hand's outcome, scores and cards, as read.
struct HandTags {
    hand_number: Option<i32>,
    dealer: Option<Seat>,
    declarer: Option<Seat>,
    contract: Option<i32>,
    trump: Option<&'static str>,
    result: Option<&'static str>,
    termination: Option<(Option<Seat>, String)>,
    game_scores: Option<values::ScoreList>,
    meld_scores: Option<values::ScoreList>,
    play_scores: Option<values::ScoreList>,
    hand_scores: Option<values::ScoreList>,
    /// Teams by the score tags, when they say.
    teams: Option<usize>,
    victor: Option<i32>,
    kitty: Option<Vec<Card>>,
    discard: Option<values::Hands>,
    partner: Option<(Seat, Card)>,
}

/// The most seats a game has (`seats_for`).
const MAX_PLAYERS: usize = 8;

/// The entries of a hand list by seat position; positions from the number of
/// players on are `None`.
type BySeat<'l> = [Option<HandEntry<'l>>; MAX_PLAYERS];

fn seat_index(seats: &[Seat], s: Seat) -> Option<usize> {
    seats.iter().position(|&x| x == s)
}

impl<'g, 'a> Hand<'g, 'a> {
    fn new(lists: &'g Lists<'a>, h: &'g HandRec<'a>, diags: &'g mut Diags) -> Self {
        let mut hand = Hand {
            lists,
            h,
            diags,
            known: [None; SLOTS],
            others: Vec::new(),
            notes: Vec::new(),
            bid_systems: Vec::new(),
            players: 4,
            seats: seats_for(4).unwrap(),
            seat_mask: 0,
            dealer: None,
        };
        let range = |r: &std::ops::Range<u32>| r.start as usize..r.end as usize;
        for ti in range(&h.lexed.tags).chain(range(&h.extra)) {
            let t = &lists.tags[ti];
            if t.state == TagState::Unresolved {
                continue;
            }
            if t.segment.is_some() {
                hand.notes.push(ti);
                continue;
            }
            match classify(t.name) {
                Class::Note => hand.notes.push(ti),
                Class::BidSystem(team) => hand.bid_systems.push((team, ti)),
                Class::Other => hand.others.push(ti),
                Class::Known(k) => {
                    if hand.known[k].is_none() {
                        hand.known[k] = Some(ti);
                    } else {
                        hand.diags.push(Diag::warning(
                            t.at as usize,
                            "P020",
                            format!(
                                "tag {} appears more than once; the first is used, this one is kept in other_tags",
                                String::from_utf8_lossy(t.name)
                            ),
                        ));
                        hand.others.push(ti);
                    }
                }
            }
        }
        hand.players = hand.find_players();
        hand.seats = seats_for(hand.players).unwrap();
        hand.seat_mask = hand.seats.iter().fold(0, |m, &s| m | 1 << s as u8);
        hand
    }

    fn tag(&self, k: K) -> Option<&'g Tag<'a>> {
        self.slot(k as usize)
    }

    fn slot(&self, k: usize) -> Option<&'g Tag<'a>> {
        self.known[k].map(|i| &self.lists.tags[i])
    }

    fn tokens(&self, t: &Tag<'a>) -> &'g [Token<'a>] {
        self.lists.tokens_of(t)
    }

    /// Position of a tag's value for diagnostics (see [`Tag::diag_at`]).
    fn at(&self, t: &Tag<'a>) -> usize {
        t.diag_at()
    }

    fn warn(&mut self, at: usize, code: &'static str, msg: String) {
        self.diags.push(Diag::warning(at, code, msg));
    }

    /// The file ends inside this hand's play (P036): the hand runs to the
    /// end of its input and its play stops short, with nothing that says
    /// it stopped (a Termination tag, `*`). `covered`: the rules profile
    /// covers the hand, so its number of tricks is known; else only a
    /// last trick short of a card a seat tells.
    fn check_cut_off(&mut self, play: Option<&PlayParse<'_>>, t: &HandTags, covered: bool) {
        let Some(p) = play else { return };
        // A Play tag without cards says no more than that the play is not given.
        if !self.h.at_end || p.terminated || t.termination.is_some() || p.cards.is_empty() {
            return;
        }
        let short_trick = p
            .tricks
            .last()
            .is_some_and(|r| r.range.len() < self.players);
        let tricks = p.tricks.len();
        if !(short_trick || (covered && tricks < TRICKS)) {
            return;
        }
        let done = tricks - usize::from(short_trick);
        let of = if covered {
            format!(" of its {TRICKS}")
        } else {
            String::new()
        };
        let msg = format!(
            "the file ends inside this hand's play, after {done}{of} tricks, with no Termination tag or '*': the file may have been cut off"
        );
        // At the start of the hand's last line.
        let end = self.h.bytes.len();
        let at = memchr::memrchr(b'\n', &self.h.bytes[..end]).map_or(0, |k| k + 1);
        self.warn(at, "P036", msg);
    }

    /// The tag's value cannot be read: warn and keep it in `other_tags`.
    fn reject(&mut self, k: usize, expected: &str) {
        let ti = self.known[k].take().unwrap();
        let t = &self.lists.tags[ti];
        let msg = format!(
            "invalid value \"{}\" for tag {}: {expected}; kept in other_tags",
            text(t),
            String::from_utf8_lossy(t.name)
        );
        self.warn(self.at(t), "P021", msg);
        self.others.push(ti);
    }

    fn str_of(&self, k: K) -> Option<Cow<'a, str>> {
        self.tag(k).map(text)
    }

    /// The value of a typed tag, or `None` when absent, `*`, `?` or empty.
    fn present(&self, k: usize) -> Option<&'a [u8]> {
        let t = self.slot(k)?;
        (!is_missing(t.value)).then_some(t.value)
    }

    fn int(&mut self, k: K) -> Option<i32> {
        let v = self.present(k as usize)?;
        let n = values::parse_i32(v);
        if n.is_none() {
            self.reject(k as usize, "expected a whole number");
        }
        n
    }

    fn seat(&mut self, k: K) -> Option<Seat> {
        let v = self.present(k as usize)?;
        match Seat::parse(v.trim_ascii()) {
            Some(s) => {
                self.check_seat(s, self.at(self.tag(k).unwrap()));
                Some(s)
            }
            None => {
                self.reject(k as usize, "expected a seat (N, NE, E, SE, S, SW, W, NW)");
                None
            }
        }
    }

    fn check_seat(&mut self, s: Seat, at: usize) {
        if self.seat_mask & 1 << s as u8 == 0 {
            let msg = format!(
                "seat {} is not used in a {}-player game",
                s.as_str(),
                self.players
            );
            self.warn(at, "P022", msg);
        }
    }

    fn scores(&mut self, k: K) -> Option<values::ScoreList> {
        let v = self.present(k as usize)?;
        let s = values::parse_scores(v);
        if s.is_none() {
            self.reject(
                k as usize,
                "expected team scores separated by ':' (like -54:328)",
            );
        }
        s
    }

    fn hand_list(&mut self, k: K) -> Option<values::HandList> {
        let v = self.present(k as usize)?;
        match values::parse_hand_list(v) {
            Ok(l) => Some(l),
            Err(e) => {
                self.reject(k as usize, &e);
                None
            }
        }
    }

    /// Players: named by Competition, else counted in Deal or Holding, else
    /// implied by seat tags naming a seat outside N E S W, else 4 (the spec's
    /// default, double-deck four-handed).
    fn find_players(&mut self) -> usize {
        let from_comp = self
            .tag(K::Competition)
            .and_then(|t| values::players_in_competition(&text(t)));
        let count = |k: K| -> Option<usize> {
            let t = self.tag(k)?;
            let (_, rest) = values::split_seat(t.value)?;
            let n = rest
                .split(|b| b.is_ascii_whitespace())
                .filter(|p| !p.is_empty() && p[0] != b'(')
                .count();
            (2..=8).contains(&n).then_some(n)
        };
        let from_deal = count(K::Deal).or_else(|| count(K::Holding));
        let named = |s: &Seat| {
            self.known[SEAT_BASE + *s as usize].is_some()
                || self.known[TYPE_BASE + *s as usize].is_some()
        };
        // N, E, S and W fit the default four-handed game; only other seats say more.
        let outside_four = Seat::ALL
            .iter()
            .any(|s| !matches!(s, Seat::N | Seat::E | Seat::S | Seat::W) && named(s));
        let from_seats = if outside_four {
            let present: Vec<Seat> = Seat::ALL.into_iter().filter(named).collect();
            players_for_seats(&present)
        } else {
            None
        };
        let players = from_comp.or(from_deal).or(from_seats).unwrap_or(4);
        if let (Some(c), Some(d)) = (from_comp, from_deal)
            && c != d
        {
            let at = self.at(self.tag(K::Deal).or(self.tag(K::Holding)).unwrap());
            self.warn(
                at,
                "P023",
                format!("Competition names {c} players but the hands list {d}; using {c}"),
            );
        }
        players
    }

    /// Writes the hand's rows: its `hands` row, then (after the rules run
    /// on its sections) its bids, tricks, seats and notes rows. The pieces
    /// run in this order because a hand's diagnostics at one offset keep
    /// the order they were found in.
    fn write(
        mut self,
        file: &FileInfo,
        hand_id: i64,
        cfg: &RulesConfig,
        before: &mut Option<game::Ended>,
        out: &mut Builders,
    ) {
        self.provenance_columns(file, hand_id, &mut out.hands);
        self.header_columns(&mut out.hands);
        let t = self.read_hand_tags(cfg, before);
        let deal = self.hand_list(K::Deal);
        let holding = self.hand_list(K::Holding);
        let melds = self.hand_list(K::Melds);
        let passed = self.hand_list(K::Passed);
        self.hand_tag_columns(&t, &mut out.hands);
        self.bid_systems_column(&mut out.hands);

        // Sections, and the rules over them.
        let mut scratch = std::mem::take(&mut out.scratch);
        let auction = self.parse_auction(&mut scratch);
        let play = self.parse_play(&mut scratch);
        let dealt = self.by_seat(K::Deal, &deal);
        let shown = self.shown_melds(&melds);
        let stated_scores = Scores {
            game: t.game_scores.as_deref(),
            meld: t.meld_scores.as_deref(),
            play: t.play_scores.as_deref(),
            hand: t.hand_scores.as_deref(),
        };
        let computed = self.compute(
            cfg,
            auction.as_ref(),
            play.as_ref(),
            &dealt[..self.players],
            shown,
            &stated_scores,
            &mut scratch,
        );
        self.check_cut_off(play.as_ref(), &t, computed.is_some());
        if let Some(a) = &auction {
            self.bids_rows(hand_id, a, &mut out.bids);
        }
        if let Some(p) = &play {
            self.tricks_rows(
                hand_id,
                p,
                computed.as_ref().map(|c| &c.derived),
                &mut out.tricks,
            );
        }
        self.section_columns(auction.as_ref(), play.as_ref(), &mut out.hands);
        self.computed_hand_columns(computed.as_ref(), &mut out.hands);
        self.warn_tokens_outside_sections();
        self.comment_and_other_tag_columns(&mut out.hands);

        self.seats_rows(
            hand_id,
            dealt,
            &holding,
            &passed,
            &melds,
            computed.as_ref(),
            t.teams,
            &mut out.seats,
        );
        self.notes_rows(hand_id, &mut out.notes);
        scratch.keep(auction, play, computed);
        out.scratch = scratch;
    }

    /// Where the hand comes from: its key, file, record, offset, line and
    /// the file headers' values.
    fn provenance_columns(&self, file: &FileInfo, hand_id: i64, o: &mut HandsBuilder) {
        let h = self.h;
        o.hand_id.append_value(hand_id);
        o.source_file.append_value(&file.name);
        o.record_index.append_value(h.index as i64);
        o.byte_offset.append_value(h.byte as i64);
        o.line.append_value(h.line as i64);
        o.notation.append_value(super::LABEL);
        let ctx = &h.ctx;
        o.notation_version
            .append_option(ctx.version.map(utf8_or_latin1));
        o.format.append_option(ctx.format.map(utf8_or_latin1));
        o.file_id.append_option(ctx.id.map(utf8_or_latin1));
    }

    /// Event, Site, Date, the other single-valued header tags, the number of
    /// players and the seats' names (P024, P022).
    fn header_columns(&mut self, o: &mut HandsBuilder) {
        for (k, b) in [(K::Event, &mut o.event), (K::Site, &mut o.site)] {
            b.append_option(self.str_of(k));
        }
        // Date: Date32 only when fully known.
        let date = match self.present(K::Date as usize) {
            None => None,
            Some(v) => match values::parse_date(v.trim_ascii()) {
                DateValue::Known(d) => Some(d),
                DateValue::Partial => None,
                DateValue::Invalid => {
                    let t = self.tag(K::Date).unwrap();
                    let msg = format!(
                        "invalid date \"{}\": expected YYYY.MM.DD (with ?? for unknown parts)",
                        text(t)
                    );
                    self.warn(self.at(t), "P024", msg);
                    None
                }
            },
        };
        o.date.append_option(date);
        o.date_text.append_option(self.str_of(K::Date));
        for (k, b) in [
            (K::Round, &mut o.round),
            (K::Stage, &mut o.stage),
            (K::Room, &mut o.room),
            (K::Competition, &mut o.competition),
            (K::Scoring, &mut o.scoring),
            (K::Annotator, &mut o.annotator),
            (K::Language, &mut o.language),
            (K::TimeControl, &mut o.time_control),
        ] {
            b.append_option(self.str_of(k));
        }
        o.players.append_value(self.players as i32);
        let seat_cols = [
            &mut o.north,
            &mut o.northeast,
            &mut o.east,
            &mut o.southeast,
            &mut o.south,
            &mut o.southwest,
            &mut o.west,
            &mut o.northwest,
        ];
        // Bit `s` for each seat `s` a seat or seat type tag names.
        let mut named = 0u8;
        for (s, col) in Seat::ALL.into_iter().zip(seat_cols) {
            let t = self.slot(SEAT_BASE + s as usize);
            col.append_option(t.map(text));
            if t.is_some() || self.slot(TYPE_BASE + s as usize).is_some() {
                named |= 1 << s as u8;
            }
        }
        for s in Seat::ALL {
            if named & !self.seat_mask & 1 << s as u8 != 0 {
                let t = self
                    .slot(SEAT_BASE + s as usize)
                    .or(self.slot(TYPE_BASE + s as usize))
                    .unwrap();
                let msg = format!(
                    "tag {} names a seat that a {}-player game does not use",
                    String::from_utf8_lossy(t.name),
                    self.players
                );
                self.warn(t.at as usize, "P022", msg);
            }
        }
    }

    /// Reads the tags of the hand's outcome, scores and cards but the hand
    /// lists (rejected
    /// values are kept in `other_tags` with P021), checks GameScores against
    /// the hand before (P064) and records this hand's end for the next.
    fn read_hand_tags(&mut self, cfg: &RulesConfig, before: &mut Option<game::Ended>) -> HandTags {
        let hand_number = self.int(K::Hand);
        let dealer = self.seat(K::Dealer);
        self.dealer = dealer;
        let declarer = self.seat(K::Declarer);
        let contract = self.int(K::Contract);
        let trump = self.present(K::Trump as usize).and_then(|v| {
            let v = v.trim_ascii();
            let r = match v {
                b"C" | b"c" => Some("C"),
                b"D" | b"d" => Some("D"),
                b"S" | b"s" => Some("S"),
                b"H" | b"h" => Some("H"),
                b"-" => Some("-"),
                _ => None,
            };
            if r.is_none() {
                self.reject(K::Trump as usize, "expected C, D, S, H or -");
            }
            r
        });
        let result = self.present(K::Result as usize).and_then(|v| {
            let r = ["Saved", "Set", "No Board", "No Trump"]
                .into_iter()
                .find(|c| c.as_bytes().eq_ignore_ascii_case(v.trim_ascii()));
            if r.is_none() {
                self.reject(
                    K::Result as usize,
                    "expected Saved, Set, No Board or No Trump",
                );
            }
            r
        });
        let termination = self.present(K::Termination as usize).and_then(|v| {
            match values::parse_termination(v) {
                Ok((seat, cause)) => Some((
                    seat,
                    bytes_text(cause, self.tag(K::Termination).unwrap().latin1).into_owned(),
                )),
                Err(e) => {
                    self.reject(K::Termination as usize, &e);
                    None
                }
            }
        });
        if let Some((Some(s), _)) = &termination {
            let at = self.at(self.tag(K::Termination).unwrap());
            self.check_seat(*s, at);
        }
        let game_scores = self.scores(K::GameScores);
        let meld_scores = self.scores(K::MeldScores);
        let play_scores = self.scores(K::PlayScores);
        let hand_scores = self.scores(K::HandScores);
        if cfg.compute
            && let Some(msg) = game::check(before.as_ref(), hand_number, game_scores.as_deref())
        {
            let at = self.at(self.tag(K::GameScores).unwrap());
            self.warn(at, "P064", msg);
        }
        let victor_tag = self.present(K::Victor as usize).is_some();
        *before = game::ended(
            hand_number,
            game_scores.as_ref(),
            hand_scores.as_ref(),
            victor_tag,
        );
        // Team count from the score tags when they say, else the usual default.
        let teams = self.teams([&game_scores, &meld_scores, &play_scores, &hand_scores]);
        let victor = self.int(K::Victor);
        let kitty =
            self.present(K::Kitty as usize)
                .and_then(|v| match values::parse_card_list(v) {
                    Ok(c) => Some(c),
                    Err(e) => {
                        self.reject(K::Kitty as usize, &e);
                        None
                    }
                });
        let discard = self.present(K::Discard as usize).and_then(|v| {
            match values::parse_dot_with_points(v) {
                Ok(d) => Some(d),
                Err(e) => {
                    self.reject(K::Discard as usize, &e);
                    None
                }
            }
        });
        let partner =
            self.present(K::Partner as usize)
                .and_then(|v| match values::parse_partner(v) {
                    Ok(p) => Some(p),
                    Err(e) => {
                        self.reject(K::Partner as usize, &e);
                        None
                    }
                });
        HandTags {
            hand_number,
            dealer,
            declarer,
            contract,
            trump,
            result,
            termination,
            game_scores,
            meld_scores,
            play_scores,
            hand_scores,
            teams,
            victor,
            kitty,
            discard,
            partner,
        }
    }

    /// The `hands` columns of the tags [`Hand::read_hand_tags`] read.
    fn hand_tag_columns(&self, t: &HandTags, o: &mut HandsBuilder) {
        o.hand_number.append_option(t.hand_number);
        o.dealer.append_option(t.dealer.map(Seat::as_str));
        o.declarer.append_option(t.declarer.map(Seat::as_str));
        o.contract.append_option(t.contract);
        o.trump.append_option(t.trump);
        o.result.append_option(t.result);
        match &t.termination {
            Some((seat, cause)) => {
                o.termination_seat.append_option(seat.map(Seat::as_str));
                o.termination_cause.append_value(cause);
            }
            None => {
                o.termination_seat.append_null();
                o.termination_cause.append_null();
            }
        }
        for (s, b) in [
            (&t.game_scores, &mut o.game_scores),
            (&t.meld_scores, &mut o.meld_scores),
            (&t.play_scores, &mut o.play_scores),
            (&t.hand_scores, &mut o.hand_scores),
        ] {
            append_i32s(b, s.as_ref().map(|v| v.iter().copied()));
        }
        o.victor.append_option(t.victor);
        // Texts as written for the dot-syntax tags that were read (rejected ones are in other_tags).
        for (k, b) in [
            (K::Deal, &mut o.deal),
            (K::Holding, &mut o.holding),
            (K::Melds, &mut o.melds),
            (K::Passed, &mut o.passed),
        ] {
            b.append_option(self.known[k as usize].map(|i| text(&self.lists.tags[i])));
        }
        o.kitty.append_cards(t.kitty.as_deref());
        let discard = t.discard.as_ref().map(|d| d.get(0));
        o.discard.append_cards(discard.and_then(|d| d.cards));
        o.discard_points
            .append_option(discard.and_then(|d| d.points));
        o.partner_seat
            .append_option(t.partner.map(|p| p.0.as_str()));
        o.partner_card
            .append_option(t.partner.map(|p| p.1.as_str()));
    }

    /// BidSystem tags by team (a team out of range goes to `other_tags`).
    fn bid_systems_column(&mut self, o: &mut HandsBuilder) {
        let o = &mut o.bid_systems;
        if self.bid_systems.is_empty() {
            o.append(false);
        } else {
            let max = self
                .bid_systems
                .iter()
                .map(|b| b.0)
                .max()
                .unwrap_or(0)
                .min(64);
            for team in 1..=max {
                let v = self
                    .bid_systems
                    .iter()
                    .find(|b| b.0 == team)
                    .map(|b| text(&self.lists.tags[b.1]));
                o.values().append_option(v);
            }
            o.append(true);
            for &(team, ti) in &self.bid_systems {
                if team == 0 || team > 64 {
                    self.others.push(ti);
                }
            }
        }
    }

    /// The meld cards each seat shows (Melds tag), for the rules; the seats
    /// rows report what does not fit the seats.
    fn shown_melds<'l>(
        &self,
        melds: &'l Option<values::HandList>,
    ) -> [Option<&'l [Card]>; PLAYERS] {
        let mut shown: [Option<&[Card]>; PLAYERS] = [None; PLAYERS];
        if self.players == PLAYERS
            && let Some(l) = melds
            && let Some(first) = seat_index(self.seats, l.first)
        {
            for (j, e) in l.entries.iter().enumerate().take(PLAYERS) {
                shown[(first + j) % PLAYERS] = e.cards;
            }
        }
        shown
    }

    /// Where the auction and the play start, and whether they were cut short.
    fn section_columns(
        &self,
        auction: Option<&AuctionParse<'a>>,
        play: Option<&PlayParse<'a>>,
        o: &mut HandsBuilder,
    ) {
        o.auction_start.append_option(
            auction
                .and_then(|a| a.start)
                .map(|s| self.seats[s].as_str()),
        );
        o.auction_terminated
            .append_option(auction.map(|a| a.terminated));
        o.play_start
            .append_option(play.and_then(|p| p.start).map(|s| self.seats[s].as_str()));
        o.play_terminated.append_option(play.map(|p| p.terminated));
    }

    /// P025 for tokens after tags that do not open a section (they are
    /// kept in `other_tags`).
    fn warn_tokens_outside_sections(&mut self) {
        // Trailing tokens after tags that do not open a section.
        for ti in self.h.lexed.tags.start as usize..self.h.lexed.tags.end as usize {
            let t = &self.lists.tags[ti];
            if !t.tokens.is_empty() && !matches!(t.name, b"Auction" | b"Play") {
                let toks = self.tokens(t);
                let first = toks[0];
                let msg = format!(
                    "tag {} does not open a section; {} token(s) after it are kept in other_tags",
                    String::from_utf8_lossy(t.name),
                    toks.len()
                );
                self.warn(first.at as usize, "P025", msg);
            }
        }
    }

    /// The hand's comments, and `other_tags` in the order written (section
    /// tokens of non-section tags ride along).
    fn comment_and_other_tag_columns(&mut self, o: &mut HandsBuilder) {
        let comments: Vec<Cow<str>> = self.lists.comments
            [self.h.lexed.comments.start as usize..self.h.lexed.comments.end as usize]
            .iter()
            .map(|c| comment_text(c.text, self.h.lexed.latin1))
            .collect();
        append_strs(&mut o.comments, (!comments.is_empty()).then_some(comments));

        self.others.sort_unstable();
        let pairs: Vec<(Cow<str>, Option<Cow<str>>)> = self
            .others
            .iter()
            .map(|&ti| {
                let t = &self.lists.tags[ti];
                (String::from_utf8_lossy(t.name), Some(text(t)))
            })
            .chain(
                (self.h.lexed.tags.start as usize..self.h.lexed.tags.end as usize)
                    .map(|ti| &self.lists.tags[ti])
                    .filter(|t| !t.tokens.is_empty() && !matches!(t.name, b"Auction" | b"Play"))
                    .map(|t| {
                        let toks: Vec<Cow<str>> = self
                            .tokens(t)
                            .iter()
                            .map(|k| bytes_text(k.text, self.h.lexed.latin1))
                            .collect();
                        (
                            Cow::Owned(format!("{}#section", String::from_utf8_lossy(t.name))),
                            Some(Cow::Owned(toks.join(" "))),
                        )
                    }),
            )
            .collect();
        append_kv(
            &mut o.other_tags,
            pairs.iter().map(|(n, v)| (n.as_ref(), v.as_deref())),
        );
    }

    fn teams(&self, lists: [&Option<values::ScoreList>; 4]) -> Option<usize> {
        lists
            .into_iter()
            .find_map(|s| s.as_ref().map(|v| v.len()))
            .filter(|&n| n >= 2)
            .or_else(|| default_teams(self.players))
    }

    /// Cards of a hand list by seat position, or a warning when it does not fit.
    fn by_seat<'l>(&mut self, k: K, list: &'l Option<values::HandList>) -> BySeat<'l> {
        let n = self.players;
        let mut out = [None; MAX_PLAYERS];
        let Some(l) = list else { return out };
        let at = self.at(self.tag(k).unwrap());
        let Some(first) = seat_index(self.seats, l.first) else {
            let msg = format!(
                "{} starts at seat {}, which a {n}-player game does not use; its hands are not assigned to seats",
                TAG_NAMES[k as usize],
                l.first.as_str()
            );
            self.warn(at, "P022", msg);
            return out;
        };
        let all_unknown = l.entries.len() == 1 && l.entries.get(0).cards.is_none();
        if l.entries.len() != n && !all_unknown && !(k == K::Passed && l.entries.len() < n) {
            let msg = format!(
                "{} lists {} hands for {n} players",
                TAG_NAMES[k as usize],
                l.entries.len()
            );
            self.warn(at, "P026", msg);
        }
        for (j, e) in l.entries.iter().enumerate().take(n) {
            out[(first + j) % n] = Some(e);
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn seats_rows(
        &mut self,
        hand_id: i64,
        dealt: BySeat<'_>,
        holding: &Option<values::HandList>,
        passed: &Option<values::HandList>,
        melds: &Option<values::HandList>,
        computed: Option<&Computed>,
        teams: Option<usize>,
        out: &mut SeatsBuilder,
    ) {
        let held = self.by_seat(K::Holding, holding);
        let pass = self.by_seat(K::Passed, passed);
        let meld = self.by_seat(K::Melds, melds);
        fn cards(e: Option<HandEntry<'_>>) -> Option<&[Card]> {
            e.and_then(|e| e.cards)
        }
        for (pos, &s) in self.seats.iter().enumerate() {
            out.hand_id.append_value(hand_id);
            out.seat.append_value(s.as_str());
            out.player
                .append_option(self.slot(SEAT_BASE + s as usize).map(text));
            out.player_type
                .append_option(self.slot(TYPE_BASE + s as usize).map(text));
            out.team.append_option(
                teams
                    .and_then(|t| team_of(pos, self.players, t))
                    .map(|t| t as i32),
            );
            out.dealt.append_cards(cards(dealt[pos]));
            out.held.append_cards(cards(held[pos]));
            out.passed.append_cards(cards(pass[pos]));
            out.meld_cards.append_cards(cards(meld[pos]));
            out.meld_points
                .append_option(meld[pos].and_then(|e| e.points));
            let d = computed.map(|c| &c.derived);
            out.computed_dealt.append_cards(
                d.and_then(|d| d.dealt[pos].as_deref()),
                cards(dealt[pos]),
                &out.dealt,
            );
            let m = d.and_then(|d| d.melds[pos].as_ref());
            self.compare_meld(pos, meld[pos].and_then(|e| e.points), m.map(|m| m.0));
            if let Some(d) = d
                && d.shown_not_dealt & (1 << pos) != 0
                && let (Some(shown), Some(dealt)) = (cards(meld[pos]), d.dealt[pos].as_deref())
            {
                self.report_shown(pos, shown, dealt);
            }
            out.computed_meld_points.append_option(m.map(|m| m.0));
            out.computed_melds.append(m.map(|m| m.1.as_slice()));
        }
    }

    /// P028: a token after a section's `*` termination.
    fn after_termination(&mut self, tok: &Token<'a>, section: &str) {
        let msg = format!(
            "{} after the {section}'s '*' termination is ignored",
            lex_found(tok)
        );
        self.warn(tok.at as usize, "P028", msg);
    }

    /// The section's start seat, checked against the game's seats.
    fn section_start(&mut self, t: &Tag<'a>) -> Option<usize> {
        if is_missing(t.value) {
            return None;
        }
        match Seat::parse(t.value.trim_ascii()) {
            Some(s) => {
                let i = seat_index(self.seats, s);
                if i.is_none() {
                    self.check_seat(s, self.at(t));
                }
                i
            }
            None => {
                let msg = format!(
                    "{} section must name the seat that starts it, found \"{}\"",
                    String::from_utf8_lossy(t.name),
                    text(t)
                );
                self.warn(self.at(t), "P027", msg);
                None
            }
        }
    }

    /// Reads the Auction section: calls with their seats (by position, clockwise
    /// from the tag's seat, `players` entries per round).
    fn parse_auction(&mut self, scratch: &mut Scratch) -> Option<AuctionParse<'a>> {
        let t = self.tag(K::Auction)?;
        let start = self.section_start(t);
        let n = self.players;
        let latin1 = self.h.lexed.latin1;
        let mut a = scratch.auction(start);
        let mut pos = 0usize;
        let mut last_line = None;
        let mut misaligned = false;
        a.calls.reserve_exact(self.tokens(t).len());
        for tok in self.tokens(t) {
            if a.terminated {
                self.after_termination(tok, "auction");
                continue;
            }
            let txt = tok.text;
            if txt == b"*" {
                a.terminated = true;
                continue;
            }
            if last_line.is_some_and(|l| l != tok.line) && !pos.is_multiple_of(n) && !misaligned {
                misaligned = true;
                let msg = format!(
                    "auction line break inside round {}: each round should have {n} entries",
                    pos / n + 1
                );
                self.warn(tok.at as usize, "P029", msg);
            }
            last_line = Some(tok.line);
            if txt == b"-" {
                a.outs.push((pos as u32, tok.at));
            } else {
                let bid = values::parse_i32(txt).filter(|b| *b >= 0);
                let is_pass = txt.eq_ignore_ascii_case(b"pass");
                if bid.is_none() && !is_pass && txt != b"?" {
                    let msg = format!(
                        "expected Pass, a bid, '-' or '*' in the auction, found \"{}\"",
                        bytes_text(txt, latin1)
                    );
                    self.warn(tok.at as usize, "P030", msg);
                }
                a.calls.push(CallParse {
                    seat: start.map(|s| (s + pos) % n),
                    at: tok.at,
                    pass: is_pass,
                    round: (pos / n) as i32 + 1,
                    text: bytes_text(txt, latin1),
                    bid,
                });
            }
            pos += 1;
        }
        Some(a)
    }

    /// Reads the Play section into cards and tricks: a trick ends at its
    /// annotation, after `players` cards, or at `*`.
    fn parse_play(&mut self, scratch: &mut Scratch) -> Option<PlayParse<'a>> {
        let t = self.tag(K::Play)?;
        let start = self.section_start(t);
        let n = self.players;
        let latin1 = self.h.lexed.latin1;
        let mut p = scratch.play(start);
        let mut from = 0usize;
        let tokens = self.tokens(t).len();
        p.cards.reserve_exact(tokens);
        p.card_at.reserve_exact(tokens);
        p.tricks.reserve_exact(tokens / n.max(1) + 1);
        let close = |this: &mut Self,
                     p: &mut PlayParse<'a>,
                     from: &mut usize,
                     ann: Option<(Option<Seat>, Option<i32>, u32)>,
                     end: bool| {
            let range = *from..p.cards.len();
            if range.len() != n && !end {
                let msg = format!(
                    "trick {} has {} cards for {n} players",
                    p.tricks.len() + 1,
                    range.len()
                );
                this.warn(p.card_at[range.start] as usize, "P031", msg);
            }
            p.tricks.push(TrickParse {
                range,
                winner: ann.and_then(|a| a.0),
                points: ann.and_then(|a| a.1),
                ann_at: ann.map(|a| a.2),
            });
            *from = p.cards.len();
        };
        for tok in self.tokens(t) {
            if p.terminated {
                self.after_termination(tok, "play");
                continue;
            }
            let txt = tok.text;
            // Most tokens are cards: two bytes, read first.
            if let [s, r] = *txt
                && let (Some(suit), Some(rank)) = (Suit::parse(s), Rank::parse(r))
            {
                if p.cards.len() - from == n {
                    close(self, &mut p, &mut from, None, false);
                }
                p.cards.push(Some(Card { suit, rank }));
                p.card_at.push(tok.at);
                continue;
            }
            if txt == b"*" {
                p.terminated = true;
                if p.cards.len() > from {
                    close(self, &mut p, &mut from, None, true);
                }
                continue;
            }
            if txt.first() == Some(&b'(') {
                let (w, pts) = self.annotation(tok, latin1);
                if p.cards.len() == from {
                    let msg = "trick annotation without cards before it".to_string();
                    self.warn(tok.at as usize, "P032", msg);
                    continue;
                }
                close(self, &mut p, &mut from, Some((w, pts, tok.at)), false);
                continue;
            }
            if p.cards.len() - from == n {
                close(self, &mut p, &mut from, None, false);
            }
            let card = Card::parse(txt);
            if card.is_none() {
                if txt != b"-" && txt != b"?" {
                    let msg = format!(
                        "expected a card like CA, '-', '?' or '*' in the play, found \"{}\"",
                        bytes_text(txt, latin1)
                    );
                    self.warn(tok.at as usize, "P033", msg);
                }
                p.unread.push((p.cards.len(), bytes_text(txt, latin1)));
            }
            p.cards.push(card);
            p.card_at.push(tok.at);
        }
        if p.cards.len() > from {
            close(self, &mut p, &mut from, None, false);
        }
        Some(p)
    }

    fn bids_rows(&self, hand_id: i64, a: &AuctionParse<'a>, out: &mut BidsBuilder) {
        for (seq, c) in a.calls.iter().enumerate() {
            out.hand_id.append_value(hand_id);
            out.seq.append_value(seq as i32);
            out.round.append_value(c.round);
            out.seat
                .append_option(c.seat.map(|s| self.seats[s].as_str()));
            out.call.append_value(&c.text);
            out.bid.append_option(c.bid);
        }
    }

    fn tricks_rows(
        &mut self,
        hand_id: i64,
        p: &PlayParse<'a>,
        computed: Option<&Derived>,
        out: &mut TricksBuilder,
    ) {
        let n = self.players;
        // Annotated leaders: the Play tag's seat, then each annotated winner.
        let mut leader = p.start.map(|s| self.seats[s]);
        let rows = p.tricks.len();
        out.hand_id
            .extend_values(std::iter::repeat_n(hand_id, rows));
        out.trick.extend_values(1..rows as i32 + 1);
        for (k, t) in p.tricks.iter().enumerate() {
            out.leader.append_option(leader.map(Seat::as_str));
            out.complete.append_value(t.range.len() == n);
            if !out.cards.append_known(&p.cards[t.range.clone()]) {
                out.cards.append(Some(p.shown(t.range.clone())));
            }
            out.winner.append_option(t.winner.map(Seat::as_str));
            out.points.append_option(t.points);
            let c = computed.and_then(|d| d.tricks.get(k));
            if let Some(c) = c {
                self.compare_trick(k, t, c);
            }

            out.computed_winner
                .append_option(c.and_then(|c| c.winner).map(|s| self.seats[s].as_str()));
            out.computed_points.append_option(c.and_then(|c| c.points));
            leader = t.winner;
        }
    }

    /// `(S2)`: the trick's winner and its points, either may be left out.
    fn annotation(&mut self, tok: &Token<'a>, latin1: bool) -> (Option<Seat>, Option<i32>) {
        let txt = tok.text;
        // The usual shape first: a one-letter seat and one or two digits.
        let seat_digits = match *txt {
            [b'(', s, d, b')'] if d.is_ascii_digit() => Some((s, (d - b'0') as i32)),
            [b'(', s, d, e, b')'] if d.is_ascii_digit() && e.is_ascii_digit() => {
                Some((s, ((d - b'0') * 10 + (e - b'0')) as i32))
            }
            _ => None,
        };
        if let Some((s, pts)) = seat_digits
            && let Some(seat) = Seat::parse(&[s])
        {
            self.check_seat(seat, tok.at as usize);
            return (Some(seat), Some(pts));
        }
        let inner = txt.strip_prefix(b"(").and_then(|s| s.strip_suffix(b")"));
        let parsed = inner.and_then(|inner| {
            let split = inner
                .iter()
                .position(|b| !b.is_ascii_alphabetic())
                .unwrap_or(inner.len());
            let (seat, pts) = inner.split_at(split);
            // `?` marks an unknown winner or points: `(?)`, `(?2)`, `(S?)`.
            let (seat, pts) = match inner.strip_prefix(b"?") {
                Some(rest) => (&b""[..], rest),
                None => (seat, pts),
            };
            let unknown = inner.first() == Some(&b'?') || pts == b"?";
            let seat = if seat.is_empty() {
                None
            } else {
                Some(Seat::parse(seat)?)
            };
            let pts = if pts.is_empty() || pts == b"?" {
                None
            } else {
                Some(values::parse_i32(pts)?)
            };
            (seat.is_some() || pts.is_some() || unknown).then_some((seat, pts))
        });
        match parsed {
            Some((seat, pts)) => {
                if let Some(s) = seat {
                    self.check_seat(s, tok.at as usize);
                }
                (seat, pts)
            }
            None => {
                let msg = format!(
                    "expected a trick annotation like (S2), found \"{}\"",
                    bytes_text(txt, latin1)
                );
                self.warn(tok.at as usize, "P034", msg);
                (None, None)
            }
        }
    }

    fn notes_rows(&mut self, hand_id: i64, out: &mut NotesBuilder) {
        let point = |p: Option<crate::notation::tagpair::lex::SegPoint>| {
            p.map(|p| {
                (
                    (p.segment as char).to_string(),
                    p.number.map(|n| n as i32),
                    p.sub.map(|n| n as i32),
                )
            })
        };
        for (seq, &ti) in self.notes.iter().enumerate() {
            let t = &self.lists.tags[ti];
            let value = text(t);
            let (seat, body) = if t.name == b"Chat" {
                match values::split_seat(t.value).and_then(|(s, _)| Seat::parse(s)) {
                    Some(s) => {
                        let colon = value.find(':').unwrap();
                        (Some(s.as_str()), Cow::Owned(value[colon + 1..].to_string()))
                    }
                    None => (None, value.clone()),
                }
            } else {
                (None, value.clone())
            };
            out.hand_id.append_value(hand_id);
            out.seq.append_value(seq as i32);
            out.tag.append_value(String::from_utf8_lossy(t.name));
            out.seat.append_option(seat);
            out.text.append_value(body);
            out.value.append_value(&value);
            let seg = t.segment;
            out.segment
                .append_option(seg.map(|s| String::from_utf8_lossy(s.text)));
            let (ss, sn, su) = match point(seg.map(|s| s.start)) {
                Some((a, b, c)) => (Some(a), b, c),
                None => (None, None, None),
            };
            let (es, en, eu) = match point(seg.and_then(|s| s.end)) {
                Some((a, b, c)) => (Some(a), b, c),
                None => (None, None, None),
            };
            out.start_segment.append_option(ss);
            out.start_number.append_option(sn);
            out.start_sub.append_option(su);
            out.end_segment.append_option(es);
            out.end_number.append_option(en);
            out.end_sub.append_option(eu);
        }
    }
}

fn lex_found(tok: &Token<'_>) -> String {
    format!("\"{}\"", String::from_utf8_lossy(tok.text))
}
