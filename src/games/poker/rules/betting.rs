//! Betting: the forced bets, whose turn it is, checks, calls, bets,
//! raises and completions within the limits, short all-ins, and the end
//! of each round.

use super::*;

impl State<'_> {
    pub(super) fn begin_betting(&mut self) {
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

    pub(super) fn betting_over(&self) -> bool {
        self.actors.is_empty() || self.active_count() <= 1
    }

    pub(super) fn end_betting(&mut self) {
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

    pub(super) fn act(&mut self, a: Act<'_>) -> Step {
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

    pub(super) fn bet_action(&mut self, a: Act<'_>, p: usize) -> Step {
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

    pub(super) fn pop_actor(&mut self) {
        if let Some(i) = self.actors.pop_front() {
            self.acted[i] = true;
        }
    }

    pub(super) fn raise(&mut self, p: usize, amount: i128, max: i128, to_call: i128) -> Step {
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
}
