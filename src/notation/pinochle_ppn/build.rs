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
mod hands_row;
mod seats_rows;
mod sections;

use super::values::{self, DateValue, HandEntry, is_missing};
use super::{Group, HandRec};

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

thread_local! {
    /// Vectors each hand fills and empties, kept from hand to hand.
    static SCRATCH: std::cell::Cell<Scratch> = std::cell::Cell::new(Scratch::default());
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
        let mut scratch = SCRATCH.take();
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
        SCRATCH.set(scratch);
    }
}
