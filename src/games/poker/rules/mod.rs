//! The rules of poker for the 11 variants of the PHH standard: a hand
//! replayed from its actions, as a dealer and the players would play it,
//! into what each action was (a check, a call, a raise ...), the chips in
//! the middle after it, and at the end the pots, who won them with which
//! hand, and each player's contribution and payoff.
//!
//! The state follows pokerkit's (`pokerkit.state.State`, 0.7): forced bets
//! (antes, blinds and straddles reversed heads-up, the bring-in), the
//! order of play (position; stud by up cards), completions, minimum
//! raises, short all-ins that do not reopen the betting, uncalled bets
//! returned at the end of each round, draws, the showdown, hands that
//! cannot win killed, side pots and odd chips (to the first winner in
//! player order, and to the high half of a split pot). The record is
//! taken at its word where the rules allow it and checked where they do
//! not: an amount outside the betting limits or a card dealt twice is an
//! issue and the replay goes on; an action out of turn or one the rules
//! do not allow stops it (values after it are not known). Nothing is
//! guessed: a hand that ends before its end, or whose pot unknown cards
//! would decide, has no outcome.

use std::borrow::Cow;
use std::collections::VecDeque;

use super::card::{Card, Rank};
use super::eval::{self, Known, Ranking};
use super::variant::{Betting, Variant};

mod betting;
mod dealing;
mod showdown;

use dealing::{Street, bit, streets};

/// An unknown (`inf`) starting stack: more chips than any amount.
pub const INF: i128 = 1 << 100;

/// What a hand's fields give the replay. Amounts are in millionths.
pub struct Setup<'a> {
    pub variant: Variant,
    pub ante_trimming: bool,
    /// Per player, as written (the heads-up reversal is applied here);
    /// None is 0.
    pub antes: &'a [Option<i128>],
    /// Per player, as written; empty in stud.
    pub blinds: &'a [Option<i128>],
    pub bring_in: i128,
    pub small_bet: i128,
    pub big_bet: i128,
    pub min_bet: i128,
    /// Per player; None for `inf` (unknown).
    pub stacks: &'a [Option<i128>],
    /// The smallest amount a pot is split into (odd chips): 1 (a
    /// millionth) or 10^6 (a whole chip).
    pub chip: i128,
}

/// One action of the record.
#[derive(Clone, Copy, Debug)]
pub enum Act<'c> {
    DealBoard(&'c [Card]),
    DealHole(usize, &'c [Card]),
    /// Stand pat (no cards) or discard.
    Draw(usize, &'c [Card]),
    BringIn(usize),
    /// Complete, bet or raise to an amount.
    CompleteBetRaise(usize, i128),
    CheckCall(usize),
    Fold(usize),
    /// Show the cards (Some) or muck (None).
    ShowMuck(usize, Option<&'c [Card]>),
    /// A no-op.
    Noop,
    /// An action that could not be read: the replay stops.
    Unread,
}

/// What an action was, by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Check,
    Call,
    Bet,
    Raise,
    Complete,
    Fold,
    BringIn,
    Deal,
    Discard,
    StandPat,
    Show,
    Muck,
}

impl Kind {
    /// Its name in `actions.computed_kind`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Check => "check",
            Kind::Call => "call",
            Kind::Bet => "bet",
            Kind::Raise => "raise",
            Kind::Complete => "complete",
            Kind::Fold => "fold",
            Kind::BringIn => "bring-in",
            Kind::Deal => "deal",
            Kind::Discard => "discard",
            Kind::StandPat => "stand-pat",
            Kind::Show => "show",
            Kind::Muck => "muck",
        }
    }
}

/// Something in the record the rules disagree with; the replay goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Issue {
    /// A completion, bet or raise to less than the minimum (an all-in for
    /// less aside).
    BelowMinimum { amount: i128, min: i128 },
    /// To more than the betting structure allows.
    AboveMaximum { amount: i128, max: i128 },
    /// A known card dealt (or shown) that is in play already.
    CardTwice { card: Card },
    /// An action after the hand is over (the outcome stands).
    AfterEnd,
}

/// Why the replay stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The hand cannot be set up: what is missing or wrong.
    Setup(SetupProblem),
    /// A player acts while another is to act.
    OutOfTurn { expected: usize, actor: usize },
    /// An action the rules do not allow here.
    Impossible(Impossible),
    /// The record ends before the hand is over.
    Unfinished(Waiting),
    /// Unknown cards decide a pot.
    Undecided,
    /// An action that could not be read.
    Unreadable,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupProblem {
    TooFewPlayers,
    StackNotPositive,
    NoForcedBet,
    NegativeForcedBet,
    BringInNotBelowSmallBet,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Impossible {
    /// A betting action while cards are being dealt (board cards or draws
    /// pending), or a deal while nobody is dealt to.
    NotNow,
    /// A bring-in where none is due.
    NoBringIn,
    /// A call or fold where the bring-in must be posted or completed.
    MustBringIn,
    /// A raise beyond the cap of a fixed-limit round.
    Capped,
    /// A raise by a player whose stack is covered by the bet to call.
    Covered,
    /// A raise when every other player is all in or folded.
    NobodyToRaise,
    /// A raise by a player who acted, facing an all-in that is not a full
    /// raise.
    NotReopened,
    /// A raise to no more than the bet to call.
    NotARaise,
    /// Chips beyond the player's stack.
    OverStack,
    /// More cards than the round deals the player (or the board).
    TooManyCards,
    /// Discarded cards the player does not hold.
    NotHeld,
    /// A player who folded (or is out) acts.
    NotInHand,
    /// A show or muck by a player not at the showdown.
    NotAtShowdown,
    /// More cards shown than the player holds.
    TooManyShown,
}

/// What the hand waits for when the record ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waiting {
    Dealing,
    Betting,
    Showdown,
}

/// The outcome of a hand played to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The chips in the pots awarded: everything put in, less uncalled
    /// bets returned.
    pub pot: i128,
    /// Pots were decided by hands (two players or more to the end).
    pub showdown: bool,
    /// Per player: the chips put in (less uncalled bets returned).
    pub contribution: Vec<i128>,
    /// Per player: the chips won from the pots.
    pub won: Vec<i128>,
    /// Per player: the hand shown at the showdown, described.
    pub hands: Vec<Option<Cow<'static, str>>>,
}

impl Outcome {
    pub fn payoff(&self, i: usize) -> i128 {
        self.won[i] - self.contribution[i]
    }
}

/// The replay of a hand.
#[derive(Clone, Debug, Default)]
pub struct Replay {
    /// Per action: what it was and the chips in the middle after it
    /// (None for a no-op and from where the replay stopped).
    pub steps: Vec<(Option<Kind>, Option<i128>)>,
    /// Issues, by action index.
    pub issues: Vec<(usize, Issue)>,
    /// Why the replay stopped, at which action (None: at the end of the
    /// record, or before the first action).
    pub stop: Option<(Option<usize>, Stop)>,
    /// Betting rounds reached.
    pub streets: i32,
    /// The outcome, when the hand was played to its end.
    pub outcome: Option<Outcome>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Dealing,
    Betting,
    Showdown,
    Over,
}

/// The vectors of replays done on this thread, for the next (a replay
/// then allocates next to nothing).
#[derive(Default)]
struct Pool {
    bools: Vec<Vec<bool>>,
    ints: Vec<Vec<i128>>,
    holes: Vec<Vec<Vec<(Card, bool)>>>,
    owed: Vec<Vec<VecDeque<bool>>>,
    actors: VecDeque<usize>,
}

thread_local! {
    static POOL: std::cell::Cell<Pool> = std::cell::Cell::new(Pool::default());
}

impl Pool {
    fn bool(&mut self, n: usize, v: bool) -> Vec<bool> {
        let mut x = self.bools.pop().unwrap_or_default();
        x.clear();
        x.resize(n, v);
        x
    }

    fn int(&mut self, n: usize) -> Vec<i128> {
        let mut x = self.ints.pop().unwrap_or_default();
        x.clear();
        x.resize(n, 0);
        x
    }

    fn holes(&mut self, n: usize) -> Vec<Vec<(Card, bool)>> {
        let mut x = self.holes.pop().unwrap_or_default();
        x.truncate(n);
        x.iter_mut().for_each(Vec::clear);
        x.resize_with(n, Vec::new);
        x
    }

    fn owed(&mut self, n: usize) -> Vec<VecDeque<bool>> {
        let mut x = self.owed.pop().unwrap_or_default();
        x.truncate(n);
        x.iter_mut().for_each(VecDeque::clear);
        x.resize_with(n, VecDeque::new);
        x
    }
}

impl State<'_> {
    /// Gives the state's vectors back to the thread's pool.
    fn recycle(self) {
        let mut pool = POOL.take();
        pool.bools.extend([
            self.active,
            self.owed_draw,
            self.acted,
            self.to_show,
            self.shown,
            self.dealt_since_show,
            self.mystery,
        ]);
        pool.ints
            .extend([self.stacks, self.bets, self.collected, self.antes]);
        pool.holes.push(self.hole);
        pool.owed.push(self.owed_hole);
        pool.actors = self.actors;
        // Bounded: a pathological hand does not keep its memory.
        pool.bools.truncate(16);
        pool.ints.truncate(8);
        pool.holes.truncate(2);
        pool.owed.truncate(2);
        POOL.set(pool);
    }
}

struct State<'s> {
    setup: &'s Setup<'s>,
    streets: &'static [Street],
    n: usize,
    phase: Phase,
    /// The street dealt or bet (None before the first).
    street: Option<usize>,
    reached: i32,
    active: Vec<bool>,
    stacks: Vec<i128>,
    bets: Vec<i128>,
    /// Chips collected into the pots, per player.
    collected: Vec<i128>,
    /// Effective antes (they go in the first pot without trimming).
    antes: Vec<i128>,
    hole: Vec<Vec<(Card, bool)>>,
    board: Vec<Card>,
    in_play: u64,
    /// Dealing owed: hole cards per player (up flags), board cards,
    /// draws.
    owed_hole: Vec<VecDeque<bool>>,
    owed_board: usize,
    owed_draw: Vec<bool>,
    // Betting.
    actors: VecDeque<usize>,
    opener: Option<usize>,
    bring_in_due: bool,
    completion_due: bool,
    raise_size: i128,
    raises: usize,
    acted: Vec<bool>,
    short_all_ins: Vec<i128>,
    all_in: bool,
    /// Players still in the hand.
    in_hand: usize,
    /// The chips in the middle: collected and bet.
    middle: i128,
    /// The largest bet of the round.
    top_bet: i128,
    /// Dealing owed (hole cards, board cards, draws), in all.
    owed: usize,
    /// Unknown up cards hide who opens: the first to act opens.
    open_unknown: bool,
    /// Unknown cards (or nobody left) decide a pot.
    stop_undecided: bool,
    // Showdown.
    to_show: Vec<bool>,
    shown: Vec<bool>,
    /// The player showed `??` for a card dealt unknown: nobody knows it.
    mystery: Vec<bool>,
    /// Hole cards dealt to the player since they showed.
    dealt_since_show: Vec<bool>,
    outcome: Option<Outcome>,
    issues: Vec<(usize, Issue)>,
    index: usize,
}

type Step = Result<Kind, Stop>;

impl<'s> State<'s> {
    fn new(setup: &'s Setup<'s>) -> Result<State<'s>, SetupProblem> {
        let n = setup.stacks.len();
        let v = setup.variant;
        if n < 2 {
            return Err(SetupProblem::TooFewPlayers);
        }
        if setup.stacks.iter().flatten().any(|&s| s <= 0) {
            return Err(SetupProblem::StackNotPositive);
        }
        let at = |a: &[Option<i128>], i: usize| a.get(i).copied().flatten().unwrap_or(0);
        // Heads-up, the forced bets are reversed.
        let pos = |i: usize| if n == 2 { 1 - i } else { i };
        if (0..n).any(|i| at(setup.antes, i) < 0) || setup.bring_in < 0 {
            return Err(SetupProblem::NegativeForcedBet);
        }
        if (0..n).all(|i| at(setup.antes, i) == 0 && at(setup.blinds, i) == 0)
            && setup.bring_in == 0
        {
            return Err(SetupProblem::NoForcedBet);
        }
        if v.stud() && setup.bring_in >= setup.small_bet {
            return Err(SetupProblem::BringInNotBelowSmallBet);
        }
        let mut pool = POOL.take();
        let mut stacks = pool.int(n);
        for (s, x) in stacks.iter_mut().zip(setup.stacks) {
            *s = x.unwrap_or(INF);
        }
        let mut antes = pool.int(n);
        for (i, a) in antes.iter_mut().enumerate() {
            *a = at(setup.antes, pos(i)).min(stacks[i]);
        }
        let mut s = State {
            setup,
            streets: streets(v),
            n,
            phase: Phase::Dealing,
            street: None,
            reached: 0,
            active: pool.bool(n, true),
            stacks,
            bets: pool.int(n),
            collected: pool.int(n),
            antes,
            hole: pool.holes(n),
            board: Vec::new(),
            in_play: 0,
            owed_hole: pool.owed(n),
            owed_board: 0,
            owed_draw: pool.bool(n, false),
            actors: std::mem::take(&mut pool.actors),
            opener: None,
            bring_in_due: false,
            completion_due: false,
            raise_size: 0,
            raises: 0,
            acted: pool.bool(n, false),
            short_all_ins: Vec::new(),
            all_in: false,
            in_hand: n,
            middle: 0,
            top_bet: 0,
            owed: 0,
            open_unknown: false,
            stop_undecided: false,
            to_show: pool.bool(n, false),
            shown: pool.bool(n, false),
            dealt_since_show: pool.bool(n, false),
            mystery: pool.bool(n, false),
            outcome: None,
            issues: Vec::new(),
            index: 0,
        };
        POOL.set(pool);
        // Antes, collected (returned above the second largest when
        // trimmed), then blinds and straddles.
        for i in 0..n {
            s.put(i, s.antes[i]);
        }
        if s.bets.iter().any(|&b| b > 0) {
            s.collect(setup.ante_trimming);
        }
        for i in 0..n {
            let b = at(setup.blinds, pos(i)).abs();
            let b = b.min(s.setup_stack(i) - s.antes[i]);
            if b > 0 {
                s.put(i, b);
            }
        }
        s.begin_dealing();
        Ok(s)
    }

    fn setup_stack(&self, i: usize) -> i128 {
        self.setup.stacks[i].unwrap_or(INF)
    }

    fn put(&mut self, i: usize, amount: i128) {
        self.bets[i] += amount;
        self.stacks[i] -= amount;
        self.middle += amount;
        self.top_bet = self.top_bet.max(self.bets[i]);
    }

    fn max_bet(&self) -> i128 {
        self.top_bet
    }

    fn active_count(&self) -> usize {
        self.in_hand
    }

    /// Player `p` is out of the hand (folded, mucked or killed).
    fn out(&mut self, p: usize) {
        if std::mem::replace(&mut self.active[p], false) {
            self.in_hand -= 1;
        }
    }

    /// The bets into the pots; above the second largest returned (always
    /// once dealing began; for antes only when trimmed).
    fn collect(&mut self, cut: bool) {
        if cut {
            // The second largest bet.
            let (mut first, mut cutoff) = (i128::MIN, i128::MIN);
            for &b in &self.bets {
                if b > first {
                    cutoff = first;
                    first = b;
                } else if b > cutoff {
                    cutoff = b;
                }
            }
            for i in 0..self.n {
                if self.bets[i] > cutoff {
                    let back = self.bets[i] - cutoff;
                    self.stacks[i] += back;
                    self.middle -= back;
                    self.bets[i] = cutoff;
                }
            }
        }
        for i in 0..self.n {
            self.collected[i] += self.bets[i];
            self.bets[i] = 0;
        }
        self.top_bet = 0;
    }
}

/// Replays a hand: `acts` in the record's order.
pub fn replay<'c>(setup: &Setup<'_>, acts: impl IntoIterator<Item = Act<'c>>) -> Replay {
    let acts = acts.into_iter();
    let mut out = Replay {
        steps: Vec::with_capacity(acts.size_hint().0),
        ..Replay::default()
    };
    let mut state = match State::new(setup) {
        Ok(s) => s,
        Err(e) => {
            out.stop = Some((None, Stop::Setup(e)));
            for _ in acts {
                out.steps.push((None, None));
            }
            return out;
        }
    };
    let mut stopped = false;
    for (k, a) in acts.enumerate() {
        state.index = k;
        if stopped || matches!(a, Act::Noop) {
            out.steps.push((None, None));
            continue;
        }
        if matches!(a, Act::Unread) {
            out.steps.push((None, None));
            out.stop = Some((Some(k), Stop::Unreadable));
            stopped = true;
            continue;
        }
        let over = state.phase == Phase::Over;
        match state.act(a) {
            Ok(kind) => {
                out.steps.push((Some(kind), Some(state.middle)));
            }
            Err(_) if over => out.steps.push((None, None)),
            Err(stop) => {
                out.steps.push((None, None));
                out.stop = Some((Some(k), stop));
                stopped = true;
            }
        }
        if state.stop_undecided {
            out.stop = Some((Some(k), Stop::Undecided));
            stopped = true;
        }
    }
    out.streets = state.reached;
    out.issues = std::mem::take(&mut state.issues);
    let phase = state.phase;
    let outcome = state.outcome.take();
    state.recycle();
    if !stopped {
        match phase {
            Phase::Over => out.outcome = outcome,
            Phase::Dealing => out.stop = Some((None, Stop::Unfinished(Waiting::Dealing))),
            Phase::Betting => out.stop = Some((None, Stop::Unfinished(Waiting::Betting))),
            Phase::Showdown => out.stop = Some((None, Stop::Unfinished(Waiting::Showdown))),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::showdown::{HandType, describe, evaluate};
    use super::*;

    const ONE: i128 = 1_000_000;

    fn cards(t: &str) -> Vec<Card> {
        t.as_bytes()
            .chunks(2)
            .map(|c| Card::from_letters(c[0], c[1]).unwrap())
            .collect()
    }

    /// Replays actions written as in PHH (amounts in whole chips).
    fn play(setup: &Setup<'_>, actions: &[&str]) -> Replay {
        let held: Vec<(Vec<&str>, Vec<Card>)> = actions
            .iter()
            .map(|a| {
                let w: Vec<&str> = a.split_whitespace().collect();
                let c = match (w[0], w.get(1), w.len()) {
                    ("d", Some(&"db"), _) => cards(w[2]),
                    ("d", _, _) => cards(w[3]),
                    (_, Some(&("sm" | "sd")), 3) => cards(w[2]),
                    _ => Vec::new(),
                };
                (w, c)
            })
            .collect();
        let p = |s: &str| s[1..].parse::<usize>().unwrap() - 1;
        let acts = held.iter().map(|(w, c)| match (w[0], w[1]) {
            ("d", "db") => Act::DealBoard(c),
            ("d", _) => Act::DealHole(p(w[2]), c),
            (x, "pb") => Act::BringIn(p(x)),
            (x, "cc") => Act::CheckCall(p(x)),
            (x, "f") => Act::Fold(p(x)),
            (x, "cbr") => Act::CompleteBetRaise(p(x), w[2].parse::<i128>().unwrap() * ONE),
            (x, "sd") => Act::Draw(p(x), c),
            (x, "sm") if w.len() == 2 => Act::ShowMuck(p(x), None),
            (x, "sm") => Act::ShowMuck(p(x), Some(c)),
            _ => Act::Noop,
        });
        replay(setup, acts)
    }

    fn chips(v: &[i128]) -> Vec<i128> {
        v.iter().map(|x| x * ONE).collect()
    }

    fn forced(v: &[i128]) -> Vec<Option<i128>> {
        v.iter().map(|x| Some(x * ONE)).collect()
    }

    fn known(v: &[i128]) -> Vec<Option<i128>> {
        v.iter().map(|x| Some(x * ONE)).collect()
    }

    fn holdem<'a>(
        antes: &'a [Option<i128>],
        blinds: &'a [Option<i128>],
        stacks: &'a [Option<i128>],
    ) -> Setup<'a> {
        Setup {
            variant: Variant::NoLimitTexasHoldem,
            ante_trimming: false,
            antes,
            blinds,
            bring_in: 0,
            small_bet: 0,
            big_bet: 0,
            min_bet: 2 * ONE,
            stacks,
            chip: ONE,
        }
    }

    fn payoffs(r: &Replay) -> Vec<i128> {
        let o = r.outcome.as_ref().expect("an outcome");
        (0..o.won.len()).map(|i| o.payoff(i) / ONE).collect()
    }

    #[test]
    fn heads_up_blinds_and_antes_are_reversed() {
        // blinds [1, 2]: heads-up p2 (the button) posts 1 and acts first.
        let (antes, blinds, stacks) = (forced(&[0, 0]), forced(&[1, 2]), known(&[100, 100]));
        let s = holdem(&antes, &blinds, &stacks);
        let r = play(&s, &["d dh p1 AsAh", "d dh p2 KsKh", "p2 f"]);
        assert_eq!(payoffs(&r), [1, -1]);
        let o = r.outcome.as_ref().unwrap();
        // p1's 2 less the uncalled 1, and p2's 1.
        assert_eq!((o.pot, o.contribution.clone()), (2 * ONE, chips(&[1, 1])));
        assert!(!o.showdown);
        let r = play(&s, &["d dh p1 AsAh", "d dh p2 KsKh", "p1 cc"]);
        assert_eq!(
            r.stop,
            Some((
                Some(2),
                Stop::OutOfTurn {
                    expected: 1,
                    actor: 0
                }
            ))
        );
        assert!(r.outcome.is_none());
        // Antes [5, 0]: heads-up, p2 pays the 5.
        let antes = forced(&[5, 0]);
        let s = holdem(&antes, &blinds, &stacks);
        let r = play(&s, &["d dh p1 AsAh", "d dh p2 KsKh", "p2 f"]);
        assert_eq!(payoffs(&r), [6, -6]);
        // 5 of ante, 1 and 1 of blinds (p1's uncalled 1 returned).
        assert_eq!(r.steps[2], (Some(Kind::Fold), Some(7 * ONE)));
    }

    #[test]
    fn three_all_ins_make_side_pots() {
        let (antes, blinds) = (forced(&[0, 0, 0, 0]), forced(&[1, 2, 0, 0]));
        let stacks = known(&[10, 20, 30, 100]);
        let s = holdem(&antes, &blinds, &stacks);
        let r = play(
            &s,
            &[
                "d dh p1 AsAh",
                "d dh p2 KsKh",
                "d dh p3 QsQh",
                "d dh p4 JsJh",
                "p3 cbr 30",
                "p4 cc",
                "p1 cc",
                "p2 cc",
                "p1 sm AsAh",
                "p2 sm KsKh",
                "p3 sm QsQh",
                "p4 sm JsJh",
                "d db 2c3d7c",
                "d db 8d",
                "d db 9h",
            ],
        );
        assert_eq!(r.stop, None);
        let o = r.outcome.as_ref().unwrap();
        // 40 to p1, 30 to p2, 20 to p3; p4 called 30 and won nothing.
        assert_eq!(o.won, chips(&[40, 30, 20, 0]));
        assert_eq!(payoffs(&r), [30, 10, -10, -30]);
        assert_eq!(o.pot, 90 * ONE);
        assert_eq!(r.streets, 4);
        assert_eq!(o.hands[0].as_deref(), Some("one pair"));
        let kinds: Vec<_> = r.steps[4..8].iter().map(|s| s.0.unwrap().name()).collect();
        assert_eq!(kinds, ["raise", "call", "call", "call"]);
    }

    #[test]
    fn a_hi_lo_pot_with_no_low_goes_to_the_high_hand() {
        let (antes, blinds, stacks) = (forced(&[0, 0]), forced(&[1, 2]), known(&[100, 100]));
        let s = Setup {
            variant: Variant::FixedLimitOmahaHoldemHighLow,
            small_bet: 2 * ONE,
            big_bet: 4 * ONE,
            min_bet: 0,
            ..holdem(&antes, &blinds, &stacks)
        };
        let deal = ["d dh p1 AsAd2c3c", "d dh p2 KhKc4d5d", "p2 cc", "p1 cc"];
        let streets = |board: [&'static str; 3]| {
            let mut a: Vec<&str> = deal.to_vec();
            for b in board {
                a.extend([b, "p1 cc", "p2 cc"]);
            }
            a.extend(["p1 sm AsAd2c3c", "p2 sm KhKc4d5d"]);
            a
        };
        let r = play(&s, &streets(["d db KsQdJh", "d db 9c", "d db 9d"]));
        assert_eq!(payoffs(&r), [-2, 2]);
        let o = r.outcome.as_ref().unwrap();
        assert_eq!(o.hands[1].as_deref(), Some("full house, no low"));
        // With a low on the board the pot is split: the high to p2, the
        // low (8-7-3-2-A against 8-7-5-4-2) to p1.
        let r = play(&s, &streets(["d db 2d7s8h", "d db Kc", "d db Qd"]));
        assert_eq!(r.outcome.as_ref().unwrap().won, chips(&[2, 2]));
        let hands = &r.outcome.as_ref().unwrap().hands;
        assert_eq!(hands[0].as_deref(), Some("one pair, 8-7-3-2-A low"));
    }

    #[test]
    fn odd_chips_go_to_the_first_winner() {
        let (antes, blinds, stacks) = (
            forced(&[0, 0, 0]),
            forced(&[1, 2, 0]),
            known(&[100, 100, 100]),
        );
        let s = holdem(&antes, &blinds, &stacks);
        let mut a = vec![
            "d dh p1 7c8c",
            "d dh p2 KsKd",
            "d dh p3 QsQd",
            "p3 cc",
            "p1 f",
            "p2 cc",
        ];
        for b in ["d db 2c3d4h", "d db 5s", "d db 6c"] {
            a.extend([b, "p2 cc", "p3 cc"]);
        }
        a.extend(["p2 sm KsKd", "p3 sm QsQd"]);
        let r = play(&s, &a);
        // Both play the board's straight: 5 split 3 and 2.
        assert_eq!(r.outcome.as_ref().unwrap().won, chips(&[0, 3, 2]));
        assert_eq!(payoffs(&r), [-1, 1, 0]);
        // To the millionth when amounts are written as floats.
        let s = Setup { chip: 1, ..s };
        let r = play(&s, &a);
        assert_eq!(r.outcome.as_ref().unwrap().won, [0, 2_500_000, 2_500_000]);
    }

    #[test]
    fn issues_are_reported_and_partial_hands_have_no_outcome() {
        let (antes, blinds, stacks) = (
            forced(&[0, 0, 0]),
            forced(&[1, 2, 0]),
            known(&[100, 100, 100]),
        );
        let s = holdem(&antes, &blinds, &stacks);
        let r = play(
            &s,
            &["d dh p1 AsAh", "d dh p2 AsKh", "d dh p3 QsQh", "p3 cbr 3"],
        );
        assert_eq!(
            r.issues,
            [
                (
                    1,
                    Issue::CardTwice {
                        card: cards("As")[0]
                    }
                ),
                (
                    3,
                    Issue::BelowMinimum {
                        amount: 3 * ONE,
                        min: 4 * ONE
                    }
                )
            ]
        );
        assert_eq!(r.stop, Some((None, Stop::Unfinished(Waiting::Betting))));
        assert!(r.outcome.is_none());
        assert_eq!(r.streets, 1);
        // A bet while the flop is to be dealt.
        let r = play(
            &s,
            &[
                "d dh p1 AsAh",
                "d dh p2 KsKh",
                "d dh p3 QsQh",
                "p3 cc",
                "p1 cc",
                "p2 cc",
                "p1 cc",
            ],
        );
        assert_eq!(
            r.stop,
            Some((Some(6), Stop::Impossible(Impossible::NotNow)))
        );
        // Unknown cards at the showdown.
        let r = play(
            &s,
            &[
                "d dh p1 ????",
                "d dh p2 ????",
                "d dh p3 ????",
                "p3 cc",
                "p1 cc",
                "p2 cc",
                "d db 2c3d4h",
                "p1 cc",
                "p2 cc",
                "p3 cc",
                "d db 5s",
                "p1 cc",
                "p2 cc",
                "p3 cc",
                "d db 9c",
                "p1 cc",
                "p2 cc",
                "p3 cc",
                "p1 sm ????",
                "p2 sm ????",
                "p3 sm ????",
            ],
        );
        assert_eq!(r.stop, Some((Some(20), Stop::Undecided)), "{:?}", r.outcome);
    }

    #[test]
    fn a_raise_to_the_last_opponents_whole_stack_is_not_short() {
        let (antes, blinds, stacks) = (forced(&[0, 0]), forced(&[1, 2]), known(&[12, 100]));
        let s = holdem(&antes, &blinds, &stacks);
        let mut a = vec![
            "d dh p1 AsAh",
            "d dh p2 KsKh",
            "p2 cc",
            "p1 cc",
            "d db 2c3d7c",
        ];
        // p1 bets 6 of their 10 and p2 raises to 10 (a full raise is to 12).
        a.extend(["p1 cbr 6", "p2 cbr 10", "p1 cc", "p1 sm AsAh", "p2 sm KsKh"]);
        a.extend(["d db 8d", "d db 9h"]);
        let r = play(&s, &a);
        assert_eq!(r.issues, []);
        assert_eq!(payoffs(&r), [12, -12]);
        // To 9 is less than p1 can put in and than a full raise: short.
        a[6] = "p2 cbr 9";
        let r = play(&s, &a);
        assert_eq!(
            r.issues,
            [(
                6,
                Issue::BelowMinimum {
                    amount: 9 * ONE,
                    min: 10 * ONE
                }
            )]
        );
    }

    #[test]
    fn stud_opens_with_the_bring_in_of_the_lowest_up_card() {
        let (antes, stacks) = (forced(&[1, 1, 1]), known(&[50, 50, 50]));
        let s = Setup {
            variant: Variant::FixedLimitSevenCardStud,
            ante_trimming: false,
            antes: &antes,
            blinds: &[],
            bring_in: ONE,
            small_bet: 2 * ONE,
            big_bet: 4 * ONE,
            min_bet: 0,
            stacks: &stacks,
            chip: ONE,
        };
        let deal = ["d dh p1 AsAhKd", "d dh p2 2s3h2c", "d dh p3 QsQh9d"];
        // p2's 2c is the lowest up card: p2 brings in.
        let mut a = deal.to_vec();
        a.extend(["p2 pb", "p3 cbr 2", "p1 f", "p2 f"]);
        let r = play(&s, &a);
        assert_eq!(payoffs(&r), [-1, -2, 3]);
        let kinds: Vec<_> = r.steps[3..].iter().map(|s| s.0.unwrap().name()).collect();
        assert_eq!(kinds, ["bring-in", "complete", "fold", "fold"]);
        let mut a = deal.to_vec();
        a.push("p1 pb");
        let r = play(&s, &a);
        assert_eq!(
            r.stop,
            Some((
                Some(3),
                Stop::OutOfTurn {
                    expected: 1,
                    actor: 0
                }
            ))
        );
    }

    #[test]
    fn described_hands() {
        let k = |t: &str| {
            cards(t)
                .into_iter()
                .map(|c| Known::of(c).unwrap())
                .collect::<Vec<_>>()
        };
        let d = |t: HandType, h: &str| describe(t, evaluate(t, &k(h), &[]).unwrap());
        assert_eq!(d(HandType::Razz, "8c6d4h2sAc"), "8-6-4-2-A low");
        assert_eq!(d(HandType::Razz, "8c8d4h2sAc"), "one pair");
        assert_eq!(d(HandType::DeuceSeven, "7c5d4h3s2c"), "7-5-4-3-2 low");
        assert_eq!(d(HandType::DeuceSeven, "6c5d4h3s2c"), "straight");
        assert_eq!(d(HandType::Badugi, "Kc2dAhQs"), "4-card badugi K-Q-2-A");
        assert_eq!(d(HandType::Badugi, "Kc2cAhQs"), "3-card badugi Q-2-A");
        assert_eq!(d(HandType::EightLow, "8c6d4h2sAcKd"), "8-6-4-2-A low");
        assert_eq!(evaluate(HandType::EightLow, &k("9c6d4h2sAc"), &[]), None);
    }
}
