//! Simulates hands of double-deck four-handed partnership pinochle under a
//! rules profile: a shuffled deal, an auction driven by each player's meld,
//! trump named where the declarer holds a marriage, and legal play with a
//! plain strategy. Every value comes from the rules engine.

use super::rng::Rng;
use crate::games::pinochle::rules::Profile;
use crate::games::pinochle::rules::meld::{counts, has_marriage, meld, meld_cards};
use crate::games::pinochle::rules::score::{HandFacts, HandScore, PerTeam, score};
use crate::games::pinochle::rules::trick::{beats, check_held, holding, points, winner};
use crate::games::pinochle::{Card, Rank, Suit};

pub const SEATS: usize = 4;

/// One entry of the auction, in seat order from the dealer's left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Call {
    Pass,
    Bid(i32),
    /// A seat that has passed before (`-`).
    Out,
}

#[derive(Clone, Debug)]
pub struct Trick {
    pub leader: usize,
    pub cards: Vec<Card>,
    pub winner: usize,
    pub points: i32,
}

/// Where and why a hand stopped early.
#[derive(Clone, Debug)]
pub struct Stop {
    /// The seat to act when the hand stopped.
    pub seat: usize,
    pub cause: &'static str,
}

#[derive(Clone, Debug)]
pub struct SimHand {
    pub dealer: usize,
    /// Cards of each seat (N E S W), sorted in dot-syntax order.
    pub dealt: [Vec<Card>; SEATS],
    pub calls: Vec<Call>,
    pub declarer: usize,
    pub contract: i32,
    /// `None`: no trump (the declarer has no marriage).
    pub trump: Option<Suit>,
    /// Each seat's meld points and the cards that form it.
    pub melds: [(i32, Vec<Card>); SEATS],
    pub tricks: Vec<Trick>,
    /// Set when the play was cut short: the last trick may be partial.
    pub stop: Option<Stop>,
    /// `None` for a terminated hand.
    pub score: Option<HandScore>,
}

pub fn full_deck() -> Vec<Card> {
    let mut v = Vec::with_capacity(80);
    for suit in Suit::DOT_ORDER {
        for rank in [Rank::A, Rank::T, Rank::K, Rank::Q, Rank::J] {
            for _ in 0..4 {
                v.push(Card { suit, rank });
            }
        }
    }
    v
}

/// The trump a declarer names: among suits where they hold a marriage, the
/// one giving the most meld, then the longest.
fn choose_trump(hand: &[Card], p: &Profile) -> Option<Suit> {
    let c = counts(hand);
    Suit::DOT_ORDER
        .into_iter()
        .filter(|&s| c[s as usize][Rank::K as usize] > 0 && c[s as usize][Rank::Q as usize] > 0)
        .max_by_key(|&s| {
            let m = meld(hand, Some(s), &p.melds).0;
            let len: u32 = c[s as usize].iter().sum();
            (m * 4 + len as i32 * 3, std::cmp::Reverse(s as u8))
        })
}

/// How far a player will bid: their best meld plus what partner and the
/// play usually bring, with some nerve.
fn bid_limit(hand: &[Card], p: &Profile, rng: &mut Rng) -> i32 {
    if !has_marriage(hand) {
        return 0;
    }
    let best = choose_trump(hand, p).map_or(0, |t| meld(hand, Some(t), &p.melds).0);
    best + 18 + rng.below(22) as i32
}

fn auction(
    dealt: &[Vec<Card>; SEATS],
    dealer: usize,
    p: &Profile,
    rng: &mut Rng,
) -> (Vec<Call>, usize, i32) {
    let limits: Vec<i32> = dealt.iter().map(|h| bid_limit(h, p, rng)).collect();
    let first = (dealer + 1) % SEATS;
    let mut active = [true; SEATS];
    let mut best: Option<(usize, i32)> = None;
    let mut calls = Vec::new();
    loop {
        let seat = (first + calls.len()) % SEATS;
        let n_active = active.iter().filter(|a| **a).count();
        if n_active == 1 && best.is_some_and(|(s, _)| s == seat) {
            break;
        }
        if !active[seat] {
            calls.push(Call::Out);
            continue;
        }
        let next = best.map_or(p.min_bid, |(_, b)| b + if rng.chance(0.2) { 5 } else { 1 });
        let last_one = n_active == 1 && best.is_none();
        if next <= limits[seat] || last_one {
            calls.push(Call::Bid(next));
            best = Some((seat, next));
        } else {
            calls.push(Call::Pass);
            active[seat] = false;
        }
        if active.iter().filter(|a| **a).count() == 1
            && let Some((s, _)) = best
            && active[s]
        {
            break;
        }
    }
    let (declarer, contract) = best.expect("someone always bids");
    (calls, declarer, contract)
}

fn rank_value(r: Rank) -> i32 {
    5 - r as i32
}

/// Places of cards in a hand (20 at most in this game), without allocating.
type Cards = smallvec::SmallVec<[usize; 20]>;

/// A legal card with a plain strategy: lead aces, win cheaply when the
/// partner is not winning, feed counters to a winning partner, else duck.
fn choose(
    hand: &[Card],
    trick: &[Card],
    leader: usize,
    seat: usize,
    trump: Option<Suit>,
    p: &Profile,
    rng: &mut Rng,
) -> usize {
    // The cards `check_play` allows, with the hand counted and the trick's
    // winning card found once rather than for every card.
    let legal: Cards = match trick.first() {
        None => (0..hand.len()).collect(),
        Some(led) => {
            let held = holding(hand);
            let best = trick[winner(trick, trump)];
            (0..hand.len())
                .filter(|&i| check_held(&held, led.suit, best, hand[i], trump, p.must_head).is_ok())
                .collect()
        }
    };
    debug_assert!(!legal.is_empty());
    if rng.chance(0.15) {
        return legal[rng.below(legal.len())];
    }
    let counter = |c: &Card| matches!(c.rank, Rank::A | Rank::T | Rank::K) as i32;
    if trick.is_empty() {
        return *legal
            .iter()
            .max_by_key(|&&i| {
                (
                    hand[i].rank == Rank::A && Some(hand[i].suit) != trump,
                    rank_value(hand[i].rank),
                    -(i as i32),
                )
            })
            .unwrap();
    }
    let w = winner(trick, trump);
    let partner_winning = (leader + w) % SEATS == (seat + 2) % SEATS;
    let best = trick[w];
    if partner_winning {
        return *legal
            .iter()
            .max_by_key(|&&i| (counter(&hand[i]), -rank_value(hand[i].rank), -(i as i32)))
            .unwrap();
    }
    let winners: Cards = legal
        .iter()
        .copied()
        .filter(|&i| beats(hand[i], best, trump))
        .collect();
    let pool = if winners.is_empty() { &legal } else { &winners };
    *pool
        .iter()
        .min_by_key(|&&i| {
            (
                if winners.is_empty() {
                    counter(&hand[i])
                } else {
                    0
                },
                rank_value(hand[i].rank),
                i,
            )
        })
        .unwrap()
}

/// Simulates one hand. `stop_at`: cut the play short before this card index.
pub fn play_hand(dealer: usize, p: &Profile, rng: &mut Rng, stop_at: Option<usize>) -> SimHand {
    let mut deck = full_deck();
    rng.shuffle(&mut deck);
    let mut dealt: [Vec<Card>; SEATS] = Default::default();
    for (i, c) in deck.into_iter().enumerate() {
        dealt[(dealer + 1 + i) % SEATS].push(c);
    }
    for h in &mut dealt {
        h.sort();
    }
    let (calls, declarer, contract) = auction(&dealt, dealer, p, rng);
    let trump = if has_marriage(&dealt[declarer]) {
        choose_trump(&dealt[declarer], p)
    } else {
        None
    };
    let melds: [(i32, Vec<Card>); SEATS] = std::array::from_fn(|s| {
        (
            meld(&dealt[s], trump, &p.melds).0,
            meld_cards(&dealt[s], trump),
        )
    });
    let mut team_meld: PerTeam = smallvec::smallvec![0; 2];
    for (s, m) in melds.iter().enumerate() {
        team_meld[s % 2] += m.0;
    }
    let mut facts = HandFacts {
        declarer_team: declarer % 2,
        contract,
        meld: team_meld,
        play: None,
        declarer_without_marriage: trump.is_none(),
    };
    let mut hand = SimHand {
        dealer,
        dealt: dealt.clone(),
        calls,
        declarer,
        contract,
        trump,
        melds,
        tricks: Vec::new(),
        stop: None,
        score: None,
    };
    if crate::games::pinochle::rules::score::unplayed_outcome(&facts, p).is_some() {
        hand.score = score(&facts, p);
        return hand;
    }
    let mut left = dealt;
    let mut leader = declarer;
    let mut play: PerTeam = smallvec::smallvec![0; 2];
    let mut played = 0;
    for k in 0..20 {
        let mut cards = Vec::with_capacity(SEATS);
        for i in 0..SEATS {
            let seat = (leader + i) % SEATS;
            if stop_at == Some(played) {
                hand.tricks.push(Trick {
                    leader,
                    cards,
                    winner: leader,
                    points: 0,
                });
                hand.stop = Some(Stop {
                    seat,
                    cause: ["Time out", "Abandoned", "Reneged"][rng.below(3)],
                });
                return hand;
            }
            let j = choose(&left[seat], &cards, leader, seat, trump, p, rng);
            cards.push(left[seat].remove(j));
            played += 1;
        }
        let w = (leader + winner(&cards, trump)) % SEATS;
        let pts = points(&cards, k == 19, p);
        play[w % 2] += pts;
        hand.tricks.push(Trick {
            leader,
            cards,
            winner: w,
            points: pts,
        });
        leader = w;
    }
    facts.play = Some(play);
    hand.score = score(&facts, p);
    hand
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pinochle::rules::hand::{Stated, derive};

    #[test]
    fn hands_are_legal_and_add_up() {
        let p = Profile::standard();
        let mut rng = Rng::new(7);
        let mut played = 0;
        for h in 0..300 {
            let hand = play_hand(h % 4, &p, &mut rng, None);
            let mut all: Vec<Card> = hand.dealt.iter().flatten().copied().collect();
            all.sort();
            let mut deck = full_deck();
            deck.sort();
            assert_eq!(all, deck);
            assert!(hand.dealt.iter().all(|d| d.len() == 20));
            if hand.tricks.is_empty() {
                continue;
            }
            played += 1;
            assert_eq!(hand.tricks.len(), 20);
            assert_eq!(hand.tricks.iter().map(|t| t.points).sum::<i32>(), 50);
            // The rules engine, replaying the hand, finds nothing wrong.
            let cards: Vec<Option<Card>> = hand
                .tricks
                .iter()
                .flat_map(|t| t.cards.iter().map(|&c| Some(c)))
                .collect();
            let ranges: Vec<_> = (0..20).map(|k| k * 4..k * 4 + 4).collect();
            let d = derive(
                &Stated {
                    trump: Some(hand.trump),
                    play_start: Some(hand.declarer),
                    cards: &cards,
                    tricks: &ranges,
                    deal: std::array::from_fn(|s| Some(hand.dealt[s].as_slice())),
                    declarer: Some(hand.declarer),
                    contract: Some(hand.contract),
                    ..Default::default()
                },
                &p,
            );
            assert!(d.issues.is_empty(), "hand {h}: {:?}", d.issues);
            assert_eq!(d.score.as_ref(), hand.score.as_ref());
        }
        assert!(played > 200, "{played}");
    }

    #[test]
    fn meld_cards_cover_the_meld() {
        let p = Profile::standard();
        let mut rng = Rng::new(3);
        for _ in 0..500 {
            let hand = play_hand(0, &p, &mut rng, None);
            for s in 0..SEATS {
                let (pts, cards) = &hand.melds[s];
                // The shown cards alone give the same meld.
                assert_eq!(meld(cards, hand.trump, &p.melds).0, *pts);
            }
        }
    }
}
