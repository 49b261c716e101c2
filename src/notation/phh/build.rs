//! The meaning of a PHH hand, written into the poker tables: each field of
//! the standard into its column with its TOML type checked, per-player
//! arrays into `players`, each action string into `actions`.
//!
//! What cannot go into its column (a value of the wrong type, an array of
//! the wrong length, an amount deckhand cannot hold exactly) is kept in
//! `user_fields` as TOML text, with a warning; so are `_`-prefixed fields
//! (silently) and unknown ones (with a warning).

use std::borrow::Cow;
use std::ops::Range;

use super::action::{self, Cards, Kind};
use super::codes;
use super::doc::{self, Doc, Entry, Node, Val};
use super::{PHH, Rec};
use crate::columns::decimal::{self, DecError};
use crate::columns::table::{append_kv, append_strs};
use crate::error::{Diag, Diags, Locator};
use crate::games::poker::rules::{self, Act, Replay, Setup};
use crate::games::poker::tables::Builders;
use crate::games::poker::{Betting, Card, Variant};
use crate::notation::{FileInfo, record_id, record_ref};

mod comments;
mod fields;
mod replay;
mod rows;
mod streets;

use comments::comments;
use fields::{AMOUNTS, ANTES, ARRAYS, BLINDS, INTS, STACKS, TEXTS};
use replay::Play;

type Value<'a> = Node<'a>;

/// An array's values and where it is written.
type Placed<T> = Option<(Vec<Option<T>>, Range<usize>)>;

/// Builds the rows of one record (none for a file's description).
pub fn build_record(file: &FileInfo, rec: &Rec<'_>, compute: bool, out: &mut Builders) {
    if rec.description {
        return;
    }
    let mut diags = Diags::default();
    let mut id = None;
    // The fast reader, or the crate where it gives up.
    let read = |text| match doc::read(text) {
        Some(d) => Ok(d),
        None => super::read_toml(text).map(|d| doc::from_crate(&d)),
    };
    match (&rec.error, rec.text.map(read)) {
        (Some((code, at, msg)), _) => diags.push(Diag::error(*at, code, msg.clone())),
        (None, Some(Err((at, msg)))) => diags.push(Diag::error(at, codes::SYNTAX, msg)),
        (None, Some(Ok(mut doc))) => {
            let key = record_id(file.index, rec.index);
            id = Some(key);
            let mut h = Hand::new(rec, &mut diags);
            h.compute = compute;
            h.read(&mut doc);
            h.write(file, key, out);
        }
        (None, None) => {}
    }
    if let (Some(first), Some((key, at))) = (rec.key_of, rec.key) {
        let m = format!(
            "table [{}] is given again (the hand at record_index {first} has it too): TOML would \
refuse the file; both hands are kept, each its own row",
            String::from_utf8_lossy(key)
        );
        diags.push(Diag::warning(at, codes::TABLE_AGAIN, m));
    }
    let diags = diags.finish_with(codes::UNLISTED);
    let refr = record_ref(
        file,
        &PHH,
        rec.raw,
        (rec.item.start, rec.item.line),
        rec.index,
        id,
    );
    out.errors.push_record(&refr, &diags, |_| None);
}

/// What a hand's fields gave.
struct Hand<'r, 'a> {
    rec: &'r Rec<'a>,
    text: &'a str,
    diags: &'r mut Diags,
    variant: Option<Cow<'a, str>>,
    trimming: Option<bool>,
    texts: [Option<Cow<'a, str>>; TEXTS.len()],
    ints: [Option<i32>; INTS.len()],
    amounts: [Option<i128>; AMOUNTS.len()],
    /// Each array's values, and where it is.
    arrays: [Placed<i128>; ARRAYS.len()],
    seats: Placed<i32>,
    names: Placed<Cow<'a, str>>,
    hand: Option<Cow<'a, str>>,
    table: Option<Cow<'a, str>>,
    time: Option<String>,
    /// The actions: each string (None for an element not a string: its
    /// TOML text is `raw`) and where it is.
    actions: Vec<(Option<Cow<'a, str>>, Range<usize>)>,
    section: Option<Cow<'a, str>>,
    /// Which of [`CHECKED`] are given (bit k for field k).
    given: u16,
    /// The comments the fast reader collected (None: the crate read the
    /// hand, and they are found in its text).
    comments: Option<Vec<&'a str>>,
    user: Vec<(String, String)>,
    /// Replay the hand by the rules.
    compute: bool,
    /// An amount the replay uses is written as a float (pots then split
    /// to the millionth, not to the chip).
    floats: bool,
}

impl<'r, 'a> Hand<'r, 'a> {
    fn new(rec: &'r Rec<'a>, diags: &'r mut Diags) -> Self {
        Hand {
            rec,
            text: std::str::from_utf8(rec.raw).unwrap_or(""),
            diags,
            variant: None,
            trimming: None,
            texts: Default::default(),
            ints: [None; INTS.len()],
            amounts: [None; AMOUNTS.len()],
            arrays: Default::default(),
            seats: None,
            names: None,
            hand: None,
            table: None,
            time: None,
            actions: Vec::new(),
            section: None,
            given: 0,
            comments: None,
            user: Vec::new(),
            compute: true,
            floats: false,
        }
    }

    fn raw(&self, span: Range<usize>) -> &'a str {
        self.text.get(span).unwrap_or("")
    }

    fn warn(&mut self, at: usize, code: &'static str, message: String) {
        self.diags.push(Diag::warning(at, code, message));
    }

    fn write(mut self, file: &FileInfo, id: i64, out: &mut Builders) {
        let n = self.player_count();
        if let Some(n) = n {
            self.drop_wrong_lengths(n);
        }
        let actions = std::mem::take(&mut self.actions);
        // What the replay needs of each action, its cards in `deck`.
        let (mut plays, mut deck) = SCRATCH.take();
        plays.clear();
        deck.clear();
        let seen = self.actions_rows(id, n, &actions, (&mut plays, &mut deck), &mut out.actions);
        let replay = self.replay(&plays, &deck, &actions);
        let a = &mut out.actions;
        for k in 0..actions.len() {
            let (kind, pot) = replay
                .as_ref()
                .and_then(|r| r.steps.get(k).copied())
                .unwrap_or((None, None));
            a.computed_kind.append_option(kind.map(rules::Kind::name));
            a.computed_pot_after.append_option(pot);
        }
        plays.truncate(1 << 12);
        deck.truncate(1 << 14);
        SCRATCH.set((plays, deck));
        let outcome = replay.as_ref().and_then(|r| r.outcome.as_ref());
        let rake = outcome.and_then(|o| self.check_stated(o));
        self.hands_row(
            file,
            id,
            n,
            &seen.board,
            replay.as_ref(),
            rake,
            &mut out.hands,
        );
        self.players_rows(id, &seen, outcome, &mut out.players);
    }

    /// Arrays of another length than the players': kept, not placed.
    fn drop_wrong_lengths(&mut self, n: usize) {
        #[allow(clippy::needless_range_loop)]
        for i in 0..ARRAYS.len() {
            if let Some((vals, span)) = &self.arrays[i]
                && vals.len() != n
            {
                let (len, span) = (vals.len(), span.clone());
                self.wrong_length(ARRAYS[i], len, n, span.clone());
                self.arrays[i] = None;
            }
        }
        if let Some((vals, span)) = &self.seats
            && vals.len() != n
        {
            let (len, span) = (vals.len(), span.clone());
            self.wrong_length("seats", len, n, span);
            self.seats = None;
        }
        if let Some((vals, span)) = &self.names
            && vals.len() != n
        {
            let (len, span) = (vals.len(), span.clone());
            self.wrong_length("players", len, n, span);
            self.names = None;
        }
    }

    fn wrong_length(&mut self, name: &str, len: usize, n: usize, span: Range<usize>) {
        let m = format!("{name} has {len} values for {n} players: kept in user_fields, not placed");
        self.warn(span.start, codes::WRONG_LENGTH, m);
        let raw = self.raw(span).to_string();
        self.user.push((name.to_string(), raw));
    }
}

thread_local! {
    /// The vectors of the last hand built on this thread, for the next.
    static SCRATCH: std::cell::Cell<(Vec<Play>, Vec<Card>)> =
        const { std::cell::Cell::new((Vec::new(), Vec::new())) };
}

/// The columns of an action row that an element not a string leaves null.
fn for_noop(a: &mut crate::games::poker::tables::ActionsBuilder) {
    a.actor.append_null();
    a.player.append_null();
    a.action.append_null();
    a.amount.append_option(None);
    a.cards.append(None::<[&str; 0]>);
    a.commentary.append_null();
}

#[cfg(test)]
mod tests {
    use super::streets::Streets;
    use super::*;

    #[test]
    fn comments_are_outside_strings() {
        let t = "# top\nx = 'a # b' # one\ny = \"c \\\" # d\"  #two\nz = '''\n# e\n''' # three\nw = \"\"\"q\\\"\"\"# f\"\"\" #four\n";
        assert_eq!(comments(t), ["top", "one", "two", "three", "four"]);
    }

    #[test]
    fn streets_as_pokerkit_counts_them() {
        use Kind::*;
        // Hold'em with a showdown before the turn and river are dealt.
        let seq = [
            (DealHole, 1),
            (DealHole, 2),
            (CompleteBetRaise, 2),
            (CheckCall, 1),
            (DealBoard, 0),
            (CompleteBetRaise, 1),
            (CheckCall, 2),
            (ShowMuck, 1),
            (ShowMuck, 2),
            (DealBoard, 0),
            (DealBoard, 0),
        ];
        let mut s = Streets::new(2);
        let got: Vec<i32> = seq
            .iter()
            .map(|&(k, p)| s.next(Some(k), (p > 0).then_some(p)))
            .collect();
        assert_eq!(got, [0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 3]);
        // Triple draw: a draw belongs to the round after the betting.
        let seq = [
            (DealHole, 1),
            (DealHole, 2),
            (CheckCall, 1),
            (CheckCall, 2),
            (StandPatDiscard, 1),
            (StandPatDiscard, 2),
            (DealHole, 2),
            (CheckCall, 1),
            (CheckCall, 2),
            (StandPatDiscard, 1),
            (StandPatDiscard, 2),
            (DealHole, 2),
            // All in: the third draw follows the second without betting.
            (StandPatDiscard, 1),
            (StandPatDiscard, 2),
            (ShowMuck, 1),
        ];
        let mut s = Streets::new(2);
        let got: Vec<i32> = seq.iter().map(|&(k, p)| s.next(Some(k), Some(p))).collect();
        assert_eq!(got, [0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3]);
        // Stud, all in on third street: each new round of up cards opens a street.
        let seq = [
            (DealHole, 1),
            (DealHole, 2),
            (BringIn, 2),
            (CompleteBetRaise, 1),
            (CheckCall, 2),
            (DealHole, 1),
            (DealHole, 2),
            (DealHole, 1),
            (DealHole, 2),
            (DealHole, 1),
        ];
        let mut s = Streets::new(2);
        let got: Vec<i32> = seq.iter().map(|&(k, p)| s.next(Some(k), Some(p))).collect();
        assert_eq!(got, [0, 0, 0, 0, 0, 1, 1, 2, 2, 3]);
        assert_eq!(s.next(None, None), 3);
    }
}
