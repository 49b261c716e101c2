//! A deal checked by the rules of Preferans: the deck, the main player's
//! talon and discards, who plays each throw, and the throws replayed into
//! each trick's winner and each player's tricks.

use super::*;
use syntax::Throw;

/// What the rules need of a deal, as read.
pub(super) struct Known<'x, 'a> {
    pub(super) order: Option<[u8; 3]>,
    pub(super) cards: Option<&'x [Card]>,
    pub(super) cards_at: Option<usize>,
    pub(super) main: Option<u8>,
    pub(super) discard: Option<Option<[Card; 2]>>,
    pub(super) discard_at: Option<usize>,
    pub(super) contract: Option<Contract>,
    pub(super) accepted: Option<i32>,
    pub(super) kontra: Option<Option<(KontraLevel, u8)>>,
    pub(super) starts: Option<u8>,
    pub(super) throws: &'x [Throw<'a>],
    pub(super) throws_at: Option<usize>,
    /// Nothing was played (passed out, or no throws field).
    pub(super) passed: bool,
}

/// What the rules made of a deal's throws.
pub(super) struct Rules {
    /// Each throw's leader (the starter, then the annotated winners).
    pub(super) leaders: Vec<Option<u8>>,
    /// Each throw's winner by the rules.
    pub(super) winners: Vec<Option<u8>>,
    /// Tricks won by players 1 to 3 by the rules.
    pub(super) tricks: Option<[u32; 3]>,
}

/// The players of each throw (1 to 3; 0 for no third), None where they
/// cannot be told.
type ThrowPlayers = Vec<Option<[usize; 3]>>;

impl Rules {
    pub(super) fn check(g: &mut Game<'_>, k: &Known<'_, '_>, compute: bool) -> Rules {
        let n = k.throws.len();
        // Leaders: the starter, then each annotated winner.
        let mut leaders = Vec::with_capacity(n);
        let mut lead = k.starts;
        for t in k.throws {
            leaders.push(lead);
            lead = t.winner;
        }
        let mut r = Rules {
            leaders,
            winners: vec![None; n],
            tricks: None,
        };
        if !compute {
            return r;
        }
        check_deck(g, k);
        if k.passed {
            return r;
        }
        let hands = hands_in_play(g, k);
        if n == 0 {
            r.tricks = tricks_without_play(g, k);
            return r;
        }
        let players = throw_players(g, k, &r.leaders);
        if let Some(why) = not_replayed(k, &players) {
            let at = k.throws.first().map_or(0, |t| t.text.at);
            g.diags.push(Diag::info(
                at,
                codes::NOT_COMPUTED,
                format!("the throws are not replayed: {why}; computed winners and tricks are null"),
            ));
            return r;
        }
        r.replay(g, k, &hands, &players);
        r
    }

    /// The throws replayed by the rules: each trick's winner (checked
    /// against the one written), each player's tricks, the cards not
    /// held or not following suit.
    fn replay(
        &mut self,
        g: &mut Game<'_>,
        k: &Known<'_, '_>,
        hands: &[Option<Vec<Card>>],
        players: &ThrowPlayers,
    ) {
        let trump = k.contract.and_then(Contract::trump);
        // Players 0-based, for the rules.
        let tricks: Vec<([usize; 3], &[Card])> = k
            .throws
            .iter()
            .zip(players)
            .map(|(t, p)| {
                let (cards, len) = t.cards.as_ref().expect("read");
                let p = p.expect("told").map(|x| x.saturating_sub(1));
                (p, &cards[..*len])
            })
            .collect();
        let view: Vec<Trick<'_>> = tricks
            .iter()
            .map(|(p, c)| Trick {
                players: &p[..c.len()],
                cards: c,
            })
            .collect();
        let (winners, issues) = rules::play(hands, &view, trump);
        for issue in issues {
            let (t, p, card, code, what) = issue_text(hands, issue);
            let th = &k.throws[t];
            let i = tricks[t].0[..tricks[t].1.len()]
                .iter()
                .position(|&x| x == p)
                .unwrap_or(0);
            g.warn(
                th.text.at + i,
                code,
                format!(
                    "trick {}: player {} plays {}, {what}",
                    t + 1,
                    p + 1,
                    name(card)
                ),
            );
        }
        let mut won = [0u32; 3];
        for (i, w) in winners.iter().enumerate() {
            let w = w.map(|x| x as u8 + 1);
            self.winners[i] = w;
            if let Some(w) = w {
                won[w as usize - 1] += 1;
                let th = &k.throws[i];
                if let Some(a) = th.winner
                    && a != w
                {
                    g.warn(
                        th.text.at + th.text.bytes.len() - 1,
                        codes::WINNER,
                        format!(
                            "trick {}: the winner is written as player {a}; by the rules player {w} wins it",
                            i + 1
                        ),
                    );
                }
            }
        }
        self.tricks = Some(won);
    }
}

/// The deck: every card dealt once.
fn check_deck(g: &mut Game<'_>, k: &Known<'_, '_>) {
    if let (Some(cards), Some(at)) = (k.cards, k.cards_at) {
        let (twice, missing) = syntax::deck_check(cards);
        if !twice.is_empty() {
            g.warn(
                at,
                codes::DEALT,
                format!(
                    "cards dealt twice: {}; cards not dealt: {}",
                    names(&twice),
                    names(&missing)
                ),
            );
        }
    }
}

/// The hands: dealt; the main player's with the talon, less the
/// discards (checked).
fn hands_in_play(g: &mut Game<'_>, k: &Known<'_, '_>) -> Vec<Option<Vec<Card>>> {
    let mut hands: Vec<Option<Vec<Card>>> = vec![None; 3];
    let (Some(o), Some(cards)) = (k.order, k.cards) else {
        return hands;
    };
    for (i, &p) in o.iter().enumerate() {
        hands[p as usize - 1] = Some(cards[i * 10..i * 10 + 10].to_vec());
    }
    let (Some(m), Some(c)) = (k.main, k.contract) else {
        return hands;
    };
    let at = k.discard_at.unwrap_or(0);
    let hand = hands[m as usize - 1].as_mut().expect("dealt");
    match (c.without_talon, k.discard) {
        (true, Some(Some(d))) => g.warn(
            at,
            codes::DISCARD,
            format!(
                "a game without the talon, yet the main player (player {m}) discards {}",
                names(&d)
            ),
        ),
        (false, Some(None)) => g.warn(
            at,
            codes::DISCARD,
            format!(
                "the main player (player {m}) takes the talon ({}) and discards nothing (XX)",
                names(&cards[30..32])
            ),
        ),
        _ => {}
    }
    if c.without_talon {
        return hands;
    }
    let i = o.iter().position(|&p| p == m).expect("a player");
    let dealt = &cards[i * 10..i * 10 + 10];
    hand.extend_from_slice(&cards[30..32]);
    if let Some(Some(d)) = k.discard {
        for card in d {
            match hand.iter().position(|&x| x == card) {
                Some(i) => {
                    hand.remove(i);
                }
                None => g.warn(
                    at,
                    codes::DISCARD,
                    format!(
                        "the main player (player {m}) discards {}, which they hold neither in their hand ({}) nor in the talon ({})",
                        name(card),
                        names(dealt),
                        names(&cards[30..32])
                    ),
                ),
            }
        }
    }
    hands
}

/// No card played: nothing is computed from the throws. When nobody
/// follows (`accepted` 0) that is the deal's normal end, as for a passed-out
/// deal; else an info says why the tricks are null.
fn tricks_without_play(g: &mut Game<'_>, k: &Known<'_, '_>) -> Option<[u32; 3]> {
    if k.accepted == Some(0) {
        return None;
    }
    g.diags.push(Diag::info(
        k.throws_at.unwrap_or(0),
        codes::NOT_COMPUTED,
        format!(
            "no card was played, yet {}: computed tricks are null",
            match k.accepted {
                Some(a) => format!("accepted is {a}, not 0"),
                None => "who follows is not known".to_string(),
            }
        ),
    ));
    None
}

/// Who plays each throw: three cards from the leader round; two cards
/// from the leader and the one follower left when the other is out
/// (warned of where they cannot be told).
fn throw_players(g: &mut Game<'_>, k: &Known<'_, '_>, leaders: &[Option<u8>]) -> ThrowPlayers {
    let invitation = matches!(k.kontra, Some(Some((KontraLevel::Invitation, _))));
    let out = match (k.main, k.accepted) {
        (Some(m), Some(a)) if (1..=3).contains(&a) && a != m as i32 && !invitation => {
            (1..=3u8).find(|&p| p != m && p as i32 != a)
        }
        _ => None,
    };
    let mut players: ThrowPlayers = Vec::with_capacity(k.throws.len());
    let mut untold: Vec<&Throw<'_>> = Vec::new();
    for (i, t) in k.throws.iter().enumerate() {
        let p = match (leaders[i], t.cards) {
            (Some(l), Some((_, 3))) => Some([l, next(l), next(next(l))]),
            (Some(l), Some((_, 2))) => match out {
                Some(o) if o != l => {
                    let second = if next(l) == o { next(next(l)) } else { next(l) };
                    Some([l, second, 0])
                }
                _ => {
                    untold.push(t);
                    None
                }
            },
            _ => None,
        };
        players.push(p.map(|p| p.map(|x| x as usize)));
    }
    if let Some(first) = untold.first() {
        g.warn(
            first.text.at,
            codes::PLAYERS,
            format!(
                "{} of two cards (the first '{}'), and the players who play cannot be told (main {}, accepted {}, {}): their computed winners are null",
                if untold.len() == 1 { "a throw".to_string() } else { format!("{} throws", untold.len()) },
                g.text(first.text.bytes),
                k.main.map_or("unknown".into(), |m| m.to_string()),
                k.accepted.map_or("unknown".into(), |a| a.to_string()),
                if invitation { "an invitation" } else { "no invitation" },
            ),
        );
    }
    players
}

/// Why the throws cannot be replayed, if they cannot.
fn not_replayed(k: &Known<'_, '_>, players: &ThrowPlayers) -> Option<&'static str> {
    if k.contract.is_none() {
        Some("the contract could not be read")
    } else if !k.contract.is_some_and(Contract::trump_known) {
        Some("the contract is preferans (8), whose rules the spec does not give")
    } else if k.order.is_none() || k.cards.is_none() {
        Some("the cards dealt could not be read")
    } else if k.throws.iter().any(|t| t.cards.is_none()) {
        Some("a throw could not be read")
    } else if players.iter().any(Option::is_none) {
        Some("the players of a throw could not be told")
    } else {
        None
    }
}

/// A rules issue as trick, player, card, code and what is wrong.
fn issue_text(
    hands: &[Option<Vec<Card>>],
    issue: Issue,
) -> (usize, usize, Card, &'static str, String) {
    match issue {
        Issue::NotHeld {
            trick,
            player,
            card,
        } => {
            let dealt = hands[player].as_ref().is_some_and(|h| h.contains(&card));
            let holder = (0..3).find(|&q| hands[q].as_ref().is_some_and(|h| h.contains(&card)));
            let what = if dealt {
                "which they played already".to_string()
            } else {
                match holder {
                    Some(q) => format!("which player {} holds", q + 1),
                    None => "which is in the talon or was discarded".to_string(),
                }
            };
            (trick, player, card, codes::NOT_HELD, what)
        }
        Issue::NotFollowed {
            trick,
            player,
            card,
        } => (
            trick,
            player,
            card,
            codes::NOT_FOLLOWED,
            "while holding the suit led".to_string(),
        ),
        Issue::NotTrumped {
            trick,
            player,
            card,
        } => (
            trick,
            player,
            card,
            codes::NOT_FOLLOWED,
            "neither the suit led nor trump, while holding a trump".to_string(),
        ),
    }
}
