//! The replay of a hand by the rules of poker: its setup from the fields,
//! each action as the rules engine takes it, the engine's issues and stop
//! as diagnostics, and the stated results checked against the computed.

use super::*;

/// An action as the replay sees it.
pub(super) enum Play {
    /// A no-op.
    Noop,
    /// An action that could not be read (or not a string): the replay
    /// cannot go past it.
    Unread,
    /// Kind, player slot (0 for the board), amount, cards in the hand's
    /// card list, cards given (None for `sm` whose `-` found none).
    Act(Option<Kind>, usize, Option<i128>, Range<usize>, bool),
}

pub(super) fn card_text(c: Card) -> String {
    let r = c
        .rank
        .map_or('?', |r| b"23456789TJQKA"[r as usize - 2] as char);
    let s = c.suit.map_or('?', |s| b"cdhs"[s as usize] as char);
    format!("{r}{s}")
}

pub(super) fn impossible(i: rules::Impossible) -> &'static str {
    use rules::Impossible::*;
    match i {
        NotNow => "the rules allow no such action at this point of the hand",
        NoBringIn => "a bring-in where none is due",
        MustBringIn => "the bring-in must be posted or completed first",
        Capped => "a raise beyond the round's cap of four bets",
        Covered => "a raise by a player whose stack the bet to call covers (a call is meant)",
        NobodyToRaise => "a raise when every other player is all in or out",
        NotReopened => "a raise the betting does not allow again (an all-in short of a full raise)",
        NotARaise => "a raise to no more than the bet to call",
        OverStack => "more chips than the player's stack",
        TooManyCards => "more cards than the round deals",
        NotHeld => "a discard of cards the player does not hold",
        NotInHand => "a player who is out of the hand acts",
        NotAtShowdown => "a show or muck by a player not at the showdown",
        TooManyShown => "more cards shown than the player holds",
    }
}

impl<'a> Hand<'_, 'a> {
    /// The setup of the replay, or why there is none.
    pub(super) fn setup(&self) -> Result<Variant, String> {
        let code = self.variant.as_deref().ok_or("no variant")?;
        let v = Variant::from_code(code).ok_or_else(|| format!("unknown variant '{code}'"))?;
        let mut lacks = Vec::new();
        if self.arrays[ANTES].is_none() {
            lacks.push("antes");
        }
        if !v.stud() && self.arrays[BLINDS].is_none() {
            lacks.push("blinds_or_straddles");
        }
        let fixed = v.betting() == Betting::FixedLimit;
        for (k, need) in [(0, v.stud()), (1, fixed), (2, fixed), (3, !fixed)] {
            if need && self.amounts[k].is_none() {
                lacks.push(AMOUNTS[k]);
            }
        }
        if self.arrays[STACKS].is_none() {
            lacks.push("starting_stacks");
        }
        if !lacks.is_empty() {
            return Err(format!("no usable {}", lacks.join(", ")));
        }
        Ok(v)
    }

    /// Replays the hand, with its issues as diagnostics; None when the
    /// rules are off.
    pub(super) fn replay(
        &mut self,
        plays: &[Play],
        deck: &[Card],
        actions: &[(Option<Cow<'a, str>>, Range<usize>)],
    ) -> Option<Replay> {
        if !self.compute {
            return None;
        }
        let variant = match self.setup() {
            Ok(s) => s,
            Err(why) => {
                let m = format!("the hand is not replayed ({why}): its computed values are null");
                self.diags.push(Diag::info(0, codes::NOT_REPLAYED, m));
                return None;
            }
        };
        let arr = |k: usize| -> &[Option<i128>] { self.arrays[k].as_ref().map_or(&[], |a| &a.0) };
        let setup = Setup {
            variant,
            ante_trimming: self.trimming.unwrap_or(false),
            antes: arr(ANTES),
            blinds: arr(BLINDS),
            bring_in: self.amounts[0].unwrap_or(0),
            small_bet: self.amounts[1].unwrap_or(0),
            big_bet: self.amounts[2].unwrap_or(0),
            min_bet: self.amounts[3].unwrap_or(0),
            stacks: arr(STACKS),
            chip: if self.floats { 1 } else { decimal::ONE },
        };
        let acts = plays.iter().map(|p| match p {
            Play::Noop => Act::Noop,
            Play::Unread => Act::Unread,
            Play::Act(kind, i, amount, cards, given) => {
                let (i, c) = (*i, &deck[cards.clone()]);
                match kind {
                    Some(Kind::DealBoard) => Act::DealBoard(c),
                    Some(Kind::DealHole) => Act::DealHole(i, c),
                    Some(Kind::StandPatDiscard) => Act::Draw(i, c),
                    Some(Kind::BringIn) => Act::BringIn(i),
                    Some(Kind::CompleteBetRaise) => match amount {
                        Some(a) => Act::CompleteBetRaise(i, *a),
                        None => Act::Unread,
                    },
                    Some(Kind::CheckCall) => Act::CheckCall(i),
                    Some(Kind::Fold) => Act::Fold(i),
                    Some(Kind::ShowMuck) if !given => Act::Unread,
                    Some(Kind::ShowMuck) if c.is_empty() => Act::ShowMuck(i, None),
                    Some(Kind::ShowMuck) => Act::ShowMuck(i, Some(c)),
                    None => Act::Unread,
                }
            }
        });
        let r = rules::replay(&setup, acts);
        let at = |k: usize| actions.get(k).map_or(0, |a| a.1.start);
        let amt = decimal::render;
        for &(k, issue) in &r.issues {
            let (code, m) = match issue {
                rules::Issue::BelowMinimum { amount, min } => (
                    codes::LIMITS,
                    format!(
                        "action {k}: to {} is below the minimum, {}",
                        amt(amount),
                        amt(min)
                    ),
                ),
                rules::Issue::AboveMaximum { amount, max } => (
                    codes::LIMITS,
                    format!(
                        "action {k}: to {} is above the maximum, {}",
                        amt(amount),
                        amt(max)
                    ),
                ),
                rules::Issue::CardTwice { card } => (
                    codes::CARD_TWICE,
                    format!("action {k}: {} is in play already", card_text(card)),
                ),
                rules::Issue::AfterEnd => (
                    codes::AFTER_END,
                    format!("action {k} comes after the hand is over: it is not replayed"),
                ),
            };
            self.warn(at(k), code, m);
        }
        if let Some((k, stop)) = r.stop {
            let here = k.map_or(String::from("the record ends"), |k| format!("action {k}"));
            let pos = k.map_or(0, at);
            let tail = "the replay stops there: the hand's computed values are null";
            match stop {
                rules::Stop::OutOfTurn { expected, actor } => {
                    let m = format!(
                        "{here}: p{} acts where p{} is to act: {tail}",
                        actor + 1,
                        expected + 1
                    );
                    self.warn(pos, codes::OUT_OF_TURN, m);
                }
                rules::Stop::Setup(p) => {
                    let why = match p {
                        rules::SetupProblem::TooFewPlayers => "fewer than 2 players",
                        rules::SetupProblem::StackNotPositive => "a starting stack of 0 or less",
                        rules::SetupProblem::NoForcedBet => "no ante, blind or bring-in",
                        rules::SetupProblem::NegativeForcedBet => "a negative ante or bring-in",
                        rules::SetupProblem::BringInNotBelowSmallBet => {
                            "a bring-in not below the small bet"
                        }
                    };
                    let m =
                        format!("the hand is not replayed ({why}): its computed values are null");
                    self.diags.push(Diag::info(0, codes::NOT_REPLAYED, m));
                }
                rules::Stop::Impossible(i) => {
                    let why = impossible(i);
                    let m = format!("{here}: {why}: {tail}");
                    self.diags.push(Diag::info(pos, codes::IMPOSSIBLE, m));
                }
                rules::Stop::Unfinished(w) => {
                    let why = match w {
                        rules::Waiting::Dealing => "cards are still to be dealt",
                        rules::Waiting::Betting => "a player is still to act",
                        rules::Waiting::Showdown => {
                            "a player still in has neither shown nor mucked"
                        }
                    };
                    let m = format!(
                        "the record ends before the hand is over ({why}): the hand's outcome is null"
                    );
                    self.diags.push(Diag::info(0, codes::UNFINISHED, m));
                }
                rules::Stop::Undecided => {
                    let m = format!(
                        "{here}: unknown cards would decide a pot: the hand's outcome is null"
                    );
                    self.diags.push(Diag::info(pos, codes::UNFINISHED, m));
                }
                rules::Stop::Unreadable => {
                    let m = format!("{here} is not read: {tail}");
                    self.diags.push(Diag::info(pos, codes::IMPOSSIBLE, m));
                }
            }
        }
        Some(r)
    }

    /// The record's finishing stacks and winnings against the replay's:
    /// the rake when they fall short by the same fraction of every pot
    /// (0 when they agree), a warning otherwise. None when the record
    /// states neither.
    pub(super) fn check_stated(&mut self, o: &rules::Outcome) -> Option<i128> {
        let n = o.won.len();
        let stated_won: Option<Vec<i128>> = match (&self.arrays[4], &self.arrays[3]) {
            (Some((w, _)), _) => w.iter().copied().collect(),
            (None, Some((f, _))) => (0..n)
                .map(|i| {
                    let start = self.arrays[STACKS].as_ref()?.0[i]?;
                    Some(f[i]? - start + o.contribution[i])
                })
                .collect(),
            (None, None) => return None,
        };
        let stated_won = stated_won?;
        if stated_won == o.won {
            return Some(0);
        }
        let total = o.pot;
        let given: i128 = stated_won.iter().sum();
        let rake = total - given;
        // The same fraction of every winner's share: to the millionth.
        let proportional = rake > 0
            && total > 0
            && (0..n).all(|i| (stated_won[i] * total - o.won[i] * given).abs() <= total);
        if proportional {
            return Some(rake);
        }
        let field = if self.arrays[4].is_some() {
            "winnings"
        } else {
            "finishing_stacks"
        };
        let k = if field == "winnings" { 4 } else { 3 };
        let at = self.arrays[k].as_ref().map_or(0, |a| a.1.start);
        let differ: Vec<String> = (0..n)
            .filter(|&i| stated_won[i] != o.won[i])
            .map(|i| {
                let (s, c) = if k == 4 {
                    (stated_won[i], o.won[i])
                } else {
                    let start = self.arrays[STACKS]
                        .as_ref()
                        .and_then(|a| a.0[i])
                        .unwrap_or(0);
                    (
                        stated_won[i] + start - o.contribution[i],
                        start + o.payoff(i),
                    )
                };
                format!(
                    "p{}: {} stated, {} by the replay",
                    i + 1,
                    decimal::render(s),
                    decimal::render(c)
                )
            })
            .collect();
        let m = format!(
            "{field} disagree with the replay and the difference is no rake: {}",
            differ.join("; ")
        );
        self.warn(at, codes::DISAGREE, m);
        None
    }
}
