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
enum Opening {
    Position,
    LowCard,
    HighCard,
    HighHand,
    LowHand,
}

/// One street of a variant: dealing, then betting.
struct Street {
    /// Hole cards dealt to each player, up (true) or down.
    hole: &'static [bool],
    board: usize,
    draw: bool,
    opening: Opening,
    /// The big bet is the minimum (fixed-limit later rounds).
    big: bool,
}

const fn st(hole: &'static [bool], board: usize, draw: bool, big: bool) -> Street {
    Street {
        hole,
        board,
        draw,
        opening: Opening::Position,
        big,
    }
}

const fn stud(hole: &'static [bool], opening: Opening, big: bool) -> Street {
    Street {
        hole,
        board: 0,
        draw: false,
        opening,
        big,
    }
}

const F: bool = false;
const T: bool = true;
const HOLDEM: [Street; 4] = [
    st(&[F, F], 0, F, F),
    st(&[], 3, F, F),
    st(&[], 1, F, T),
    st(&[], 1, F, T),
];
const OMAHA: [Street; 4] = [
    st(&[F, F, F, F], 0, F, F),
    st(&[], 3, F, F),
    st(&[], 1, F, T),
    st(&[], 1, F, T),
];
const STUD: [Street; 5] = [
    stud(&[F, F, T], Opening::LowCard, F),
    stud(&[T], Opening::HighHand, F),
    stud(&[T], Opening::HighHand, T),
    stud(&[T], Opening::HighHand, T),
    stud(&[F], Opening::HighHand, T),
];
const RAZZ: [Street; 5] = [
    stud(&[F, F, T], Opening::HighCard, F),
    stud(&[T], Opening::LowHand, F),
    stud(&[T], Opening::LowHand, T),
    stud(&[T], Opening::LowHand, T),
    stud(&[F], Opening::LowHand, T),
];
const SINGLE_DRAW: [Street; 2] = [st(&[F, F, F, F, F], 0, F, F), st(&[], 0, T, F)];
const TRIPLE_DRAW: [Street; 4] = [
    st(&[F, F, F, F, F], 0, F, F),
    st(&[], 0, T, F),
    st(&[], 0, T, T),
    st(&[], 0, T, T),
];
const BADUGI: [Street; 4] = [
    st(&[F, F, F, F], 0, F, F),
    st(&[], 0, T, F),
    st(&[], 0, T, T),
    st(&[], 0, T, T),
];

fn streets(v: Variant) -> &'static [Street] {
    use Variant::*;
    match v {
        FixedLimitTexasHoldem | NoLimitTexasHoldem | NoLimitShortDeckHoldem => &HOLDEM,
        PotLimitOmahaHoldem | FixedLimitOmahaHoldemHighLow => &OMAHA,
        FixedLimitSevenCardStud | FixedLimitSevenCardStudHighLow => &STUD,
        FixedLimitRazz => &RAZZ,
        NoLimitDeuceToSevenSingleDraw => &SINGLE_DRAW,
        FixedLimitDeuceToSevenTripleDraw => &TRIPLE_DRAW,
        FixedLimitBadugi => &BADUGI,
    }
}

/// How a pot (or half of one) is won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HandType {
    High(Ranking),
    OmahaHigh,
    OmahaLow,
    EightLow,
    Razz,
    DeuceSeven,
    Badugi,
}

fn hand_types(v: Variant) -> &'static [HandType] {
    use HandType::*;
    use Variant::*;
    match v {
        FixedLimitTexasHoldem | NoLimitTexasHoldem | FixedLimitSevenCardStud => {
            &[High(Ranking::Standard)]
        }
        NoLimitShortDeckHoldem => &[High(Ranking::ShortDeck)],
        PotLimitOmahaHoldem => &[OmahaHigh],
        FixedLimitOmahaHoldemHighLow => &[OmahaHigh, OmahaLow],
        FixedLimitSevenCardStudHighLow => &[High(Ranking::Standard), EightLow],
        FixedLimitRazz => &[Razz],
        NoLimitDeuceToSevenSingleDraw | FixedLimitDeuceToSevenTripleDraw => &[DeuceSeven],
        FixedLimitBadugi => &[Badugi],
    }
}

/// The key of a player's best hand of a type (larger is better), None
/// when the cards make none (too few known cards, no qualifying low).
fn evaluate(t: HandType, hole: &[Known], board: &[Known]) -> Option<u32> {
    let mut buf = [Known { rank: 0, suit: 0 }; 16];
    let len = (hole.len() + board.len()).min(16);
    for (b, c) in buf.iter_mut().zip(hole.iter().chain(board)) {
        *b = *c;
    }
    let all = || &buf[..len];
    match t {
        HandType::High(r) => eval::best_high_direct(all(), r),
        HandType::OmahaHigh => {
            eval::best_omaha(hole, board, |h| Some(eval::five(h, Ranking::Standard)))
        }
        HandType::OmahaLow => eval::best_omaha_low(hole, board),
        HandType::EightLow => eval::best_eight_low(all()),
        HandType::Razz => eval::best_razz(all()),
        HandType::DeuceSeven => eval::best_of(all(), |h| Some(eval::deuce_to_seven(h))),
        // Four cards (pokerkit's badugi hands): the best of their subsets.
        HandType::Badugi => (all().len() >= 4).then(|| eval::badugi(all())),
    }
}

fn rank_letter(r: u32) -> char {
    match r {
        1 | 14 => 'A',
        10 => 'T',
        11 => 'J',
        12 => 'Q',
        13 => 'K',
        n => char::from_digit(n, 10).unwrap_or('?'),
    }
}

/// `n` ranks from the top of `packed` (20 bits, four a rank), dashed.
fn ranks(packed: u32, n: u32, bits: u32) -> String {
    let mut s = String::new();
    for i in 0..n {
        if i > 0 {
            s.push('-');
        }
        s.push(rank_letter((packed >> (bits - 4 * (i + 1))) & 0xF));
    }
    s
}

/// A hand's description in `players.computed_hand`: the category of a
/// high hand (`flush`), the ranks of a low (`8-6-4-2-A low`), a badugi's
/// (`4-card badugi K-Q-2-A`).
fn describe(t: HandType, key: u32) -> Cow<'static, str> {
    let s = match t {
        HandType::High(r) => return Cow::Borrowed(eval::category(key, r).name()),
        HandType::OmahaHigh => return Cow::Borrowed(eval::category(key, Ranking::Standard).name()),
        HandType::OmahaLow | HandType::EightLow => {
            format!("{} low", ranks(!key & 0xF_FFFF, 5, 20))
        }
        HandType::Razz => {
            let v = !key;
            match eval::category(v & 0xFFF_FFFF, Ranking::Standard) {
                eval::Category::HighCard => format!("{} low", ranks(v & 0xF_FFFF, 5, 20)),
                c => return Cow::Borrowed(c.name()),
            }
        }
        HandType::DeuceSeven => {
            let v = !key;
            match eval::category(v & 0xFFF_FFFF, Ranking::AceHighOnly) {
                eval::Category::HighCard => format!("{} low", ranks(v & 0xF_FFFF, 5, 20)),
                c => return Cow::Borrowed(c.name()),
            }
        }
        HandType::Badugi => {
            let n = key >> 16;
            let packed = (!key & 0xFFFF) >> (4 * (4 - n.min(4)));
            format!("{n}-card badugi {}", ranks(packed, n, 4 * n))
        }
    };
    Cow::Owned(s)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Dealing,
    Betting,
    Showdown,
    Over,
}

/// A card's bit in a 52-bit set.
fn bit(c: Card) -> Option<u64> {
    let r = c.rank? as u64 - 2;
    let s = c.suit? as u64;
    Some(1 << (r * 4 + s))
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

    fn street_def(&self) -> &'static Street {
        &self.streets[self.street.unwrap_or(0)]
    }

    fn begin_dealing(&mut self) {
        let k = self.street.map_or(0, |s| s + 1);
        self.street = Some(k);
        self.reached = self.reached.max(k as i32 + 1);
        self.phase = Phase::Dealing;
        let def = self.street_def();
        self.owed_board = def.board;
        for i in 0..self.n {
            if self.active[i] {
                self.owed_hole[i].extend(def.hole.iter().copied());
                self.owed_draw[i] = def.draw;
            }
        }
        // Stud with more players than cards: the last cards are a board
        // card for all (never more than 8 players deal 7 cards each).
        let owed: usize = self.owed_hole.iter().map(VecDeque::len).sum();
        let dealt: usize = self.hole.iter().map(Vec::len).sum::<usize>() + self.board.len();
        let deck = if self.setup.variant.short_deck() {
            36
        } else {
            52
        };
        if owed + dealt > deck && !def.hole.is_empty() {
            self.owed_board += def.hole.len();
            self.owed_hole.iter_mut().for_each(VecDeque::clear);
        }
        self.count_owed();
        self.advance();
    }

    fn dealing_done(&self) -> bool {
        self.owed == 0
    }

    /// Counts what is owed again.
    fn count_owed(&mut self) {
        self.owed = self.owed_board
            + self.owed_hole.iter().map(VecDeque::len).sum::<usize>()
            + self.owed_draw.iter().filter(|&&d| d).count();
    }

    /// Moves on through what needs nobody's action.
    fn advance(&mut self) {
        loop {
            match self.phase {
                Phase::Dealing if self.dealing_done() => self.begin_betting(),
                Phase::Betting if self.betting_over() => self.end_betting(),
                Phase::Showdown if !self.to_show.iter().any(|&s| s) => self.end_showdown(),
                _ => return,
            }
        }
    }

    fn up_cards(&self, i: usize) -> impl Iterator<Item = Card> + '_ {
        self.hole[i].iter().filter(|c| c.1).map(|c| c.0)
    }

    /// Who opens the betting of the street, None when unknown cards
    /// decide it.
    fn opener(&self) -> Option<usize> {
        let n = self.n;
        let key = |c: Card, ace_low: bool| -> Option<(u8, u8)> {
            let r = c.rank? as u8;
            let r = if ace_low && r == Rank::Ace as u8 {
                1
            } else {
                r
            };
            Some((r, c.suit? as u8))
        };
        match self.street_def().opening {
            Opening::Position => {
                let rev = |i: usize| {
                    let j = if n == 2 { 1 - i } else { i };
                    self.setup
                        .blinds
                        .get(j)
                        .copied()
                        .flatten()
                        .unwrap_or(0)
                        .signum()
                };
                let top = (0..n).max_by_key(|&i| (self.bets[i] * rev(i), i))?;
                Some((top + 1) % n)
            }
            Opening::LowCard | Opening::HighCard => {
                let low = self.street_def().opening == Opening::LowCard;
                let mut best: Option<((u8, u8), usize)> = None;
                for i in 0..n {
                    for c in self.up_cards(i) {
                        let k = key(c, !low)?;
                        let better = match best {
                            None => true,
                            Some((b, _)) => (low && k < b) || (!low && k > b),
                        };
                        if better {
                            best = Some((k, i));
                        }
                    }
                }
                best.map(|b| b.1)
            }
            Opening::HighHand | Opening::LowHand => {
                let low = self.street_def().opening == Opening::LowHand;
                let mut best: Option<((u8, Vec<u8>), usize)> = None;
                for i in 0..n {
                    let mut ranks = Vec::new();
                    for c in self.up_cards(i) {
                        ranks.push(key(c, low)?.0);
                    }
                    if ranks.is_empty() {
                        continue;
                    }
                    let k = up_hand(&ranks);
                    let better = match &best {
                        None => true,
                        Some((b, _)) => (low && k < *b) || (!low && k > *b),
                    };
                    if better {
                        best = Some((k, i));
                    }
                }
                best.map(|b| b.1)
            }
        }
    }

    /// The second largest of the active players' bets and stacks (0 with
    /// fewer than two): what a player can lose at most, with their bet.
    fn second_stake(&self) -> i128 {
        // The second largest of the active players' bets and stacks.
        let (mut first, mut second) = (None, None);
        for j in 0..self.n {
            if self.active[j] {
                let e = Some(self.bets[j] + self.stacks[j]);
                if e > first {
                    second = first;
                    first = e;
                } else if e > second {
                    second = e;
                }
            }
        }
        second.unwrap_or(0)
    }

    fn begin_betting(&mut self) {
        self.phase = Phase::Betting;
        let opener = self.opener();
        self.opener = opener;
        let first = self.street == Some(0);
        self.bring_in_due = first && self.setup.bring_in > 0;
        self.completion_due = self.bring_in_due;
        self.actors.clear();
        let start = opener.unwrap_or(0);
        let second = self.second_stake();
        for k in 0..self.n {
            let i = (start + k) % self.n;
            let effective = self.stacks[i].min((second - self.bets[i]).max(0));
            if self.active[i] && self.stacks[i] > 0 && effective > 0 {
                self.actors.push_back(i);
            }
        }
        self.open_unknown = opener.is_none() && self.actors.len() > 1;
        self.raise_size = 0;
        self.raises = 0;
        self.acted.iter_mut().for_each(|a| *a = false);
        self.short_all_ins.clear();
        if self.actors.len() == 1 && self.bets[self.actors[0]] >= self.max_bet() {
            self.actors.clear();
        }
    }

    fn betting_over(&self) -> bool {
        self.actors.is_empty() || self.active_count() <= 1
    }

    fn end_betting(&mut self) {
        self.actors.clear();
        let k = self.street.unwrap_or(0);
        if self.active_count() > 1 && !self.streets[k + 1..].iter().any(|s| s.draw) {
            let with_chips = (0..self.n)
                .filter(|&i| self.active[i] && self.stacks[i] > 0)
                .count();
            if with_chips <= 1 {
                self.all_in = true;
            }
        }
        let last = k == self.streets.len() - 1;
        if last && self.stacks.contains(&0) {
            self.all_in = true;
        }
        self.collect(true);
        if self.active_count() == 1 {
            self.finish();
        } else if last || self.all_in {
            self.begin_showdown();
        } else {
            self.begin_dealing();
        }
    }

    fn begin_showdown(&mut self) {
        self.phase = Phase::Showdown;
        for i in 0..self.n {
            // A player who showed shows again only for cards dealt since.
            self.to_show[i] = self.active[i]
                && !self.hole[i].iter().all(|c| c.1)
                && (!self.shown[i] || self.dealt_since_show[i]);
        }
    }

    fn end_showdown(&mut self) {
        let last = self.street == Some(self.streets.len() - 1);
        if self.all_in && !last {
            self.begin_dealing();
        } else {
            self.finish();
        }
    }

    /// The card enters play; an issue when it is in play already.
    fn take(&mut self, c: Card) {
        if let Some(b) = bit(c) {
            if self.in_play & b != 0 {
                self.issues.push((self.index, Issue::CardTwice { card: c }));
            }
            self.in_play |= b;
        }
    }

    fn act(&mut self, a: Act<'_>) -> Step {
        if self.phase == Phase::Over {
            if !matches!(a, Act::Noop) {
                self.issues.push((self.index, Issue::AfterEnd));
            }
            return Err(Stop::Impossible(Impossible::NotNow));
        }
        let player = match a {
            Act::DealHole(p, _)
            | Act::Draw(p, _)
            | Act::BringIn(p)
            | Act::CompleteBetRaise(p, _)
            | Act::CheckCall(p)
            | Act::Fold(p)
            | Act::ShowMuck(p, _) => Some(p),
            _ => None,
        };
        if let Some(p) = player
            && !matches!(a, Act::DealHole(..))
            && !self.active.get(p).copied().unwrap_or(false)
        {
            return Err(Stop::Impossible(Impossible::NotInHand));
        }
        let kind = match a {
            Act::Noop | Act::Unread => return Err(Stop::Unreadable),
            Act::DealBoard(cards) => {
                if self.phase != Phase::Dealing || cards.len() > self.owed_board {
                    return Err(Stop::Impossible(if self.phase == Phase::Dealing {
                        Impossible::TooManyCards
                    } else {
                        Impossible::NotNow
                    }));
                }
                self.owed_board -= cards.len();
                self.owed -= cards.len();
                for &c in cards {
                    self.take(c);
                    self.board.push(c);
                }
                Kind::Deal
            }
            Act::DealHole(p, cards) => {
                if self.phase != Phase::Dealing || p >= self.n {
                    return Err(Stop::Impossible(Impossible::NotNow));
                }
                if cards.len() > self.owed_hole[p].len() {
                    return Err(Stop::Impossible(Impossible::TooManyCards));
                }
                for &c in cards {
                    let up = self.owed_hole[p].pop_front().unwrap_or(false);
                    self.owed -= 1;
                    self.take(c);
                    self.hole[p].push((c, up));
                }
                self.dealt_since_show[p] = true;
                Kind::Deal
            }
            Act::Draw(p, cards) => {
                if self.phase != Phase::Dealing || !self.owed_draw[p] {
                    return Err(Stop::Impossible(Impossible::NotNow));
                }
                let expected = self.owed_draw.iter().position(|&d| d).unwrap_or(p);
                if expected != p {
                    return Err(Stop::OutOfTurn { expected, actor: p });
                }
                let mut hole = self.hole[p].clone();
                for &c in cards {
                    let Some(k) = hole.iter().position(|h| h.0 == c) else {
                        return Err(Stop::Impossible(Impossible::NotHeld));
                    };
                    let (card, up) = hole.remove(k);
                    if let Some(b) = bit(card) {
                        self.in_play &= !b;
                    }
                    self.owed_hole[p].push_back(up);
                    self.owed += 1;
                }
                self.hole[p] = hole;
                self.owed_draw[p] = false;
                self.owed -= 1;
                if cards.is_empty() {
                    Kind::StandPat
                } else {
                    Kind::Discard
                }
            }
            Act::BringIn(p) | Act::CompleteBetRaise(p, _) | Act::CheckCall(p) | Act::Fold(p) => {
                self.bet_action(a, p)?
            }
            Act::ShowMuck(p, cards) => {
                if self.phase != Phase::Showdown || !self.to_show[p] {
                    return Err(Stop::Impossible(Impossible::NotAtShowdown));
                }
                self.to_show[p] = false;
                match cards {
                    None => {
                        self.out(p);
                        self.hole[p].clear();
                        Kind::Muck
                    }
                    Some(cards) => {
                        self.show(p, cards)?;
                        Kind::Show
                    }
                }
            }
        };
        self.advance();
        Ok(kind)
    }

    /// The cards shown replace the player's: the known ones up; before
    /// the last street, the known cards not shown stay down.
    fn show(&mut self, p: usize, cards: &[Card]) -> Result<(), Stop> {
        let held = self.hole[p].len();
        if cards.len() > held {
            return Err(Stop::Impossible(Impossible::TooManyShown));
        }
        // `??` shown for a card dealt `??`: not a card the player kept
        // back (a cash-game show), a card the record does not know.
        self.mystery[p] =
            cards.iter().any(|c| !c.known()) && self.hole[p].iter().any(|h| !h.0.known());
        let mut new: Vec<(Card, bool)> = cards
            .iter()
            .filter(|c| c.known())
            .map(|&c| (c, true))
            .collect();
        let last = self.street == Some(self.streets.len() - 1);
        if !last {
            let rest: Vec<(Card, bool)> = self.hole[p]
                .iter()
                .filter(|h| h.0.known() && !new.iter().any(|n| n.0 == h.0))
                .map(|h| (h.0, false))
                .collect();
            let room = held - new.len();
            new.extend(rest.into_iter().take(room));
        }
        let unknown = Card {
            rank: None,
            suit: None,
        };
        while new.len() < held {
            new.push((unknown, false));
        }
        for h in &self.hole[p] {
            if let Some(b) = bit(h.0) {
                self.in_play &= !b;
            }
        }
        for h in &new {
            self.take(h.0);
        }
        self.hole[p] = new;
        self.shown[p] = true;
        self.dealt_since_show[p] = false;
        Ok(())
    }

    fn bet_action(&mut self, a: Act<'_>, p: usize) -> Step {
        match self.phase {
            Phase::Betting => {}
            // Hole cards not dealt in the record are dealt unknown, as
            // pokerkit repairs such records.
            Phase::Dealing if self.owed_board == 0 && !self.owed_draw.iter().any(|&d| d) => {
                let unknown = Card {
                    rank: None,
                    suit: None,
                };
                for i in 0..self.n {
                    while let Some(up) = self.owed_hole[i].pop_front() {
                        self.hole[i].push((unknown, up));
                    }
                }
                self.count_owed();
                self.advance();
                if self.phase != Phase::Betting {
                    return Err(Stop::Impossible(Impossible::NotNow));
                }
            }
            _ => return Err(Stop::Impossible(Impossible::NotNow)),
        }
        if self.open_unknown {
            if let Some(k) = self.actors.iter().position(|&i| i == p) {
                self.actors.rotate_left(k);
            }
            self.opener = Some(p);
            self.open_unknown = false;
        }
        let expected = self.actors.front().copied().unwrap_or(p);
        if expected != p {
            return Err(Stop::OutOfTurn { expected, actor: p });
        }
        let max = self.max_bet();
        let to_call = self.stacks[p].min(max - self.bets[p]);
        let kind = match a {
            Act::Fold(_) => {
                if self.bring_in_due {
                    return Err(Stop::Impossible(Impossible::MustBringIn));
                }
                self.pop_actor();
                self.out(p);
                self.hole[p].clear();
                Kind::Fold
            }
            Act::CheckCall(_) => {
                if self.bring_in_due {
                    return Err(Stop::Impossible(Impossible::MustBringIn));
                }
                self.pop_actor();
                self.put(p, to_call);
                if to_call == 0 {
                    Kind::Check
                } else {
                    Kind::Call
                }
            }
            Act::BringIn(_) => {
                if !self.bring_in_due {
                    return Err(Stop::Impossible(Impossible::NoBringIn));
                }
                self.pop_actor();
                let amount = self.stacks[p].min(self.setup.bring_in);
                self.put(p, amount);
                self.bring_in_due = false;
                Kind::BringIn
            }
            Act::CompleteBetRaise(_, amount) => self.raise(p, amount, max, to_call)?,
            _ => return Err(Stop::Impossible(Impossible::NotNow)),
        };
        Ok(kind)
    }

    fn pop_actor(&mut self) {
        if let Some(i) = self.actors.pop_front() {
            self.acted[i] = true;
        }
    }

    fn raise(&mut self, p: usize, amount: i128, max: i128, to_call: i128) -> Step {
        let def = self.street_def();
        let fixed = self.setup.variant.betting() == Betting::FixedLimit;
        if to_call < self.raise_size {
            return Err(Stop::Impossible(Impossible::NotReopened));
        }
        if fixed && self.raises >= 4 {
            return Err(Stop::Impossible(Impossible::Capped));
        }
        if !self.short_all_ins.is_empty()
            && self.short_all_ins.iter().sum::<i128>() < self.raise_size
            && self.acted[p]
        {
            return Err(Stop::Impossible(Impossible::NotReopened));
        }
        if self.stacks[p] <= max - self.bets[p] {
            return Err(Stop::Impossible(Impossible::Covered));
        }
        let others =
            (0..self.n).any(|i| i != p && self.active[i] && self.stacks[i] + self.bets[i] > max);
        if !others {
            return Err(Stop::Impossible(Impossible::NobodyToRaise));
        }
        if amount <= max {
            return Err(Stop::Impossible(Impossible::NotARaise));
        }
        if amount - self.bets[p] > self.stacks[p] {
            return Err(Stop::Impossible(Impossible::OverStack));
        }
        let street_min = match self.setup.variant.betting() {
            Betting::FixedLimit if def.big => self.setup.big_bet,
            Betting::FixedLimit => self.setup.small_bet,
            _ => self.setup.min_bet,
        };
        let all = self.stacks[p] + self.bets[p];
        // The most any other player still in can put in: a raise to it
        // (putting the last of them all in) is never short (pokerkit 0.4;
        // 0.7 caps by the raiser's stack only).
        let reach = (0..self.n)
            .filter(|&i| i != p && self.active[i])
            .map(|i| self.stacks[i] + self.bets[i])
            .max()
            .unwrap_or(all);
        let mut full = self.raise_size.max(street_min);
        if !self.completion_due {
            full += max;
        }
        let full = full.min(all);
        let min = full.min(reach);
        let top = match self.setup.variant.betting() {
            Betting::FixedLimit => full,
            Betting::PotLimit => all.min(full.max(2 * max - self.bets[p] + self.middle)),
            Betting::NoLimit => all,
        };
        if amount < min {
            self.issues
                .push((self.index, Issue::BelowMinimum { amount, min }));
        } else if amount > top {
            self.issues
                .push((self.index, Issue::AboveMaximum { amount, max: top }));
        }
        let kind = if self.completion_due {
            Kind::Complete
        } else if max == 0 {
            Kind::Bet
        } else {
            Kind::Raise
        };
        self.actors.pop_front();
        self.acted[p] = true;
        let size = amount - max;
        let delta = amount - self.bets[p];
        self.put(p, delta);
        self.bring_in_due = false;
        self.completion_due = false;
        self.actors.clear();
        for k in 1..self.n {
            let i = (p + k) % self.n;
            if self.active[i] && self.stacks[i] > 0 {
                self.actors.push_back(i);
            }
        }
        self.opener = Some(p);
        if size >= self.raise_size {
            self.acted.iter_mut().for_each(|a| *a = false);
            self.acted[p] = true;
        }
        self.raise_size = self.raise_size.max(size);
        self.raises += 1;
        if self.stacks[p] > 0 {
            self.short_all_ins.clear();
        } else {
            self.short_all_ins.push(size);
        }
        if self.short_all_ins.iter().sum::<i128>() >= self.raise_size {
            self.short_all_ins.clear();
        }
        Ok(kind)
    }

    /// Hands that cannot win are killed, the pots built and awarded.
    fn finish(&mut self) {
        self.phase = Phase::Over;
        let n = self.n;
        let types = hand_types(self.setup.variant);
        let showdown = self.active_count() > 1;
        if !showdown {
            // Everyone else folded: every pot is the last player's.
            let pot: i128 = self.collected.iter().sum();
            let mut won = vec![0; n];
            if let Some(w) = self.active.iter().position(|&a| a) {
                won[w] = pot;
            }
            self.outcome = Some(Outcome {
                pot,
                showdown,
                contribution: self.collected.clone(),
                won,
                hands: vec![None; n],
            });
            return;
        }
        let known = |cards: &mut dyn Iterator<Item = Card>| -> Vec<Known> {
            cards.filter_map(Known::of).collect()
        };
        let board = known(&mut self.board.iter().copied());
        // Each player's shown hand per type (up cards), and full hand.
        let mut up: Vec<Vec<Option<u32>>> = vec![vec![None; types.len()]; n];
        let mut full: Vec<Vec<Option<u32>>> = vec![vec![None; types.len()]; n];
        if showdown {
            for i in 0..n {
                if !self.active[i] {
                    continue;
                }
                let u = known(&mut self.up_cards(i));
                let f = known(&mut self.hole[i].iter().map(|c| c.0));
                for (t, &ty) in types.iter().enumerate() {
                    up[i][t] = evaluate(ty, &u, &board);
                    full[i][t] = if f.len() == u.len() {
                        up[i][t]
                    } else {
                        evaluate(ty, &f, &board)
                    };
                }
            }
        }
        if showdown && (0..n).any(|i| self.active[i] && self.mystery[i]) {
            self.stop_undecided = true;
            return;
        }
        let contribution: Vec<i128> = self.collected.clone();
        let mut pots = self.pots();
        // Hand killing: a player whose hand beats or ties no hand shown in
        // any pot of theirs is out.
        if showdown {
            let mut killed = vec![false; n];
            for i in 0..n {
                if !self.active[i] {
                    continue;
                }
                let mut can = false;
                for t in 0..types.len() {
                    for (_, players) in &pots {
                        if !players.contains(&i) {
                            continue;
                        }
                        let best = players.iter().filter_map(|&j| up[j][t]).max();
                        if let Some(h) = full[i][t]
                            && best.is_none_or(|b| b <= h)
                        {
                            can = true;
                        }
                    }
                }
                killed[i] = !can;
            }
            if killed.iter().any(|&k| k) {
                for (p, &k) in killed.iter().enumerate() {
                    if k {
                        self.out(p);
                    }
                }
                pots = self.pots();
            }
        }
        let mut won = vec![0i128; n];
        let chip = self.setup.chip.max(1);
        for (amount, players) in &pots {
            if players.is_empty() {
                // Every player of the pot out (killed or mucked): nobody
                // can be said to win it.
                self.stop_undecided = true;
                return;
            }
            if !showdown || players.len() == 1 {
                won[players[0]] += amount;
                continue;
            }
            // The types some player of the pot has a hand of (a low
            // that nobody qualifies for gives its half to the high).
            let live: Vec<usize> = (0..types.len())
                .filter(|&t| players.iter().any(|&j| up[j][t].is_some()))
                .collect();
            if live.is_empty() {
                self.stop_undecided = true;
                return;
            }
            let (q, r) = split(*amount, live.len() as i128, chip);
            for (k, &t) in live.iter().enumerate() {
                let part = q + if k == 0 { r } else { 0 };
                let best = players.iter().filter_map(|&j| up[j][t]).max();
                let winners: Vec<usize> = players
                    .iter()
                    .copied()
                    .filter(|&j| up[j][t] == best)
                    .collect();
                let (q2, r2) = split(part, winners.len() as i128, chip);
                for (m, &w) in winners.iter().enumerate() {
                    won[w] += q2 + if m == 0 { r2 } else { 0 };
                }
            }
        }
        let hands = (0..n)
            .map(|i| {
                if !showdown || !self.shown[i] {
                    return None;
                }
                let part = |t: usize| match up[i][t] {
                    Some(k) => describe(types[t], k),
                    None if t > 0 => Cow::Borrowed("no low"),
                    None => Cow::Borrowed("no hand"),
                };
                match types.len() {
                    1 => Some(part(0)),
                    _ => Some(Cow::Owned(format!("{}, {}", part(0), part(1)))),
                }
            })
            .collect();
        self.outcome = Some(Outcome {
            pot: contribution.iter().sum(),
            showdown,
            contribution,
            won,
            hands,
        });
    }

    /// The pots as pokerkit builds them: by levels of contribution,
    /// antes (untrimmed) in the first, each with the players still in
    /// who reach its level; pots of the same players merged.
    fn pots(&self) -> Vec<(i128, Vec<usize>)> {
        let n = self.n;
        let mut contributions = self.collected.clone();
        let mut amount = 0;
        if !self.setup.ante_trimming {
            for (c, a) in contributions.iter_mut().zip(&self.antes) {
                amount += a;
                *c -= a;
            }
        }
        let mut levels = contributions.clone();
        levels.sort_unstable();
        levels.dedup();
        let mut previous = 0;
        let mut pots: Vec<(i128, Vec<usize>)> = Vec::new();
        for level in levels {
            for &c in &contributions {
                if c >= level {
                    amount += level - previous;
                }
            }
            let players: Vec<usize> = (0..n)
                .filter(|&i| contributions[i] >= level && self.active[i])
                .collect();
            while let Some(last) = pots.last()
                && last.1 == players
            {
                amount += pots.pop().map_or(0, |p| p.0);
            }
            if amount != 0 {
                pots.push((amount, players));
            }
            amount = 0;
            previous = level;
        }
        pots
    }
}

/// `amount` split `n` ways in multiples of `chip`: each part and the
/// remainder (the odd chips).
fn split(amount: i128, n: i128, chip: i128) -> (i128, i128) {
    let q = amount / chip / n * chip;
    (q, amount - q * n)
}

/// The strength of up cards for who opens a stud round: more of a rank
/// first (four, three, two pair, pair), then the ranks, then how many.
fn up_hand(ranks: &[u8]) -> (u8, Vec<u8>) {
    let mut count = [0u8; 15];
    for &r in ranks {
        count[r as usize] += 1;
    }
    let mut groups: Vec<(u8, u8)> = (1..15u8)
        .filter(|&r| count[r as usize] > 0)
        .map(|r| (count[r as usize], r))
        .collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let pairs = groups.iter().filter(|g| g.0 == 2).count() as u8;
    let class = match groups[0].0 {
        4 => 7,
        3 => 6,
        2 if pairs == 2 => 5,
        2 => 4,
        _ => 0,
    };
    // Within a class, more cards rank higher (pokerkit's lookups list
    // every shorter hand first); high cards by count of cards.
    let class = if class == 0 {
        ranks.len() as u8 - 1
    } else {
        class
    };
    let mut key: Vec<u8> = groups.iter().map(|g| g.1).collect();
    key.push(ranks.len() as u8);
    (class, key)
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
