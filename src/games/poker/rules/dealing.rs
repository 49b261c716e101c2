//! Dealing: the streets of each variant, the cards each deals (hole,
//! board, draws) and who opens the betting (position, or the up cards of
//! stud).

use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Opening {
    Position,
    LowCard,
    HighCard,
    HighHand,
    LowHand,
}

/// One street of a variant: dealing, then betting.
pub(super) struct Street {
    /// Hole cards dealt to each player, up (true) or down.
    pub(super) hole: &'static [bool],
    pub(super) board: usize,
    pub(super) draw: bool,
    pub(super) opening: Opening,
    /// The big bet is the minimum (fixed-limit later rounds).
    pub(super) big: bool,
}

pub(super) const fn st(hole: &'static [bool], board: usize, draw: bool, big: bool) -> Street {
    Street {
        hole,
        board,
        draw,
        opening: Opening::Position,
        big,
    }
}

pub(super) const fn stud(hole: &'static [bool], opening: Opening, big: bool) -> Street {
    Street {
        hole,
        board: 0,
        draw: false,
        opening,
        big,
    }
}

pub(super) const F: bool = false;

pub(super) const T: bool = true;

pub(super) const HOLDEM: [Street; 4] = [
    st(&[F, F], 0, F, F),
    st(&[], 3, F, F),
    st(&[], 1, F, T),
    st(&[], 1, F, T),
];

pub(super) const OMAHA: [Street; 4] = [
    st(&[F, F, F, F], 0, F, F),
    st(&[], 3, F, F),
    st(&[], 1, F, T),
    st(&[], 1, F, T),
];

pub(super) const STUD: [Street; 5] = [
    stud(&[F, F, T], Opening::LowCard, F),
    stud(&[T], Opening::HighHand, F),
    stud(&[T], Opening::HighHand, T),
    stud(&[T], Opening::HighHand, T),
    stud(&[F], Opening::HighHand, T),
];

pub(super) const RAZZ: [Street; 5] = [
    stud(&[F, F, T], Opening::HighCard, F),
    stud(&[T], Opening::LowHand, F),
    stud(&[T], Opening::LowHand, T),
    stud(&[T], Opening::LowHand, T),
    stud(&[F], Opening::LowHand, T),
];

pub(super) const SINGLE_DRAW: [Street; 2] = [st(&[F, F, F, F, F], 0, F, F), st(&[], 0, T, F)];

pub(super) const TRIPLE_DRAW: [Street; 4] = [
    st(&[F, F, F, F, F], 0, F, F),
    st(&[], 0, T, F),
    st(&[], 0, T, T),
    st(&[], 0, T, T),
];

pub(super) const BADUGI: [Street; 4] = [
    st(&[F, F, F, F], 0, F, F),
    st(&[], 0, T, F),
    st(&[], 0, T, T),
    st(&[], 0, T, T),
];

pub(super) fn streets(v: Variant) -> &'static [Street] {
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

/// A card's bit in a 52-bit set.
pub(super) fn bit(c: Card) -> Option<u64> {
    let r = c.rank? as u64 - 2;
    let s = c.suit? as u64;
    Some(1 << (r * 4 + s))
}

/// The strength of up cards for who opens a stud round: more of a rank
/// first (four, three, two pair, pair), then the ranks, then how many.
pub(super) fn up_hand(ranks: &[u8]) -> (u8, Vec<u8>) {
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

impl State<'_> {
    pub(super) fn street_def(&self) -> &'static Street {
        &self.streets[self.street.unwrap_or(0)]
    }

    pub(super) fn begin_dealing(&mut self) {
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

    pub(super) fn dealing_done(&self) -> bool {
        self.owed == 0
    }

    /// Counts what is owed again.
    pub(super) fn count_owed(&mut self) {
        self.owed = self.owed_board
            + self.owed_hole.iter().map(VecDeque::len).sum::<usize>()
            + self.owed_draw.iter().filter(|&&d| d).count();
    }

    /// Moves on through what needs nobody's action.
    pub(super) fn advance(&mut self) {
        loop {
            match self.phase {
                Phase::Dealing if self.dealing_done() => self.begin_betting(),
                Phase::Betting if self.betting_over() => self.end_betting(),
                Phase::Showdown if !self.to_show.iter().any(|&s| s) => self.end_showdown(),
                _ => return,
            }
        }
    }

    pub(super) fn up_cards(&self, i: usize) -> impl Iterator<Item = Card> + '_ {
        self.hole[i].iter().filter(|c| c.1).map(|c| c.0)
    }

    /// Who opens the betting of the street, None when unknown cards
    /// decide it.
    pub(super) fn opener(&self) -> Option<usize> {
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
    pub(super) fn second_stake(&self) -> i128 {
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

    /// The card enters play; an issue when it is in play already.
    pub(super) fn take(&mut self, c: Card) {
        if let Some(b) = bit(c) {
            if self.in_play & b != 0 {
                self.issues.push((self.index, Issue::CardTwice { card: c }));
            }
            self.in_play |= b;
        }
    }
}
