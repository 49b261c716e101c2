//! The showdown and the pots: which hands are shown or mucked, how each
//! is valued for each half of a pot, the side pots, odd chips and each
//! player's payoff.

use super::*;

/// How a pot (or half of one) is won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum HandType {
    High(Ranking),
    OmahaHigh,
    OmahaLow,
    EightLow,
    Razz,
    DeuceSeven,
    Badugi,
}

pub(super) fn hand_types(v: Variant) -> &'static [HandType] {
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
pub(super) fn evaluate(t: HandType, hole: &[Known], board: &[Known]) -> Option<u32> {
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

pub(super) fn rank_letter(r: u32) -> char {
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
pub(super) fn ranks(packed: u32, n: u32, bits: u32) -> String {
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
pub(super) fn describe(t: HandType, key: u32) -> Cow<'static, str> {
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

/// `amount` split `n` ways in multiples of `chip`: each part and the
/// remainder (the odd chips).
pub(super) fn split(amount: i128, n: i128, chip: i128) -> (i128, i128) {
    let q = amount / chip / n * chip;
    (q, amount - q * n)
}

impl State<'_> {
    pub(super) fn begin_showdown(&mut self) {
        self.phase = Phase::Showdown;
        for i in 0..self.n {
            // A player who showed shows again only for cards dealt since.
            self.to_show[i] = self.active[i]
                && !self.hole[i].iter().all(|c| c.1)
                && (!self.shown[i] || self.dealt_since_show[i]);
        }
    }

    pub(super) fn end_showdown(&mut self) {
        let last = self.street == Some(self.streets.len() - 1);
        if self.all_in && !last {
            self.begin_dealing();
        } else {
            self.finish();
        }
    }

    /// The cards shown replace the player's: the known ones up; before
    /// the last street, the known cards not shown stay down.
    pub(super) fn show(&mut self, p: usize, cards: &[Card]) -> Result<(), Stop> {
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

    /// Hands that cannot win are killed, the pots built and awarded.
    pub(super) fn finish(&mut self) {
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
    pub(super) fn pots(&self) -> Vec<(i128, Vec<usize>)> {
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
