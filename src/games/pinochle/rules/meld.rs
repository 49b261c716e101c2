//! Meld of one player's cards under a trump suit.
//!
//! Counts are complete sets: for arounds the minimum over the four suits of
//! that rank; for runs the minimum over A T K Q J of trump; for pinochles
//! min(SQ, DJ). A card may serve in several classes, once per class: royal
//! marriages are the K Q pairs of trump not used in runs. Points for n sets
//! come from the profile's table (n above 4, possible only with a wrong deck,
//! is scored as 4).

use super::profile::{Melds, SetPoints};
use crate::games::pinochle::{Card, Rank, Suit};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeldKind {
    Run,
    RoyalMarriage,
    Marriage,
    AcesAround,
    KingsAround,
    QueensAround,
    JacksAround,
    Pinochle,
}

impl MeldKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MeldKind::Run => "run",
            MeldKind::RoyalMarriage => "royal marriage",
            MeldKind::Marriage => "marriage",
            MeldKind::AcesAround => "aces around",
            MeldKind::KingsAround => "kings around",
            MeldKind::QueensAround => "queens around",
            MeldKind::JacksAround => "jacks around",
            MeldKind::Pinochle => "pinochle",
        }
    }
}

/// One line of a meld breakdown: `count` complete sets worth `points` in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeldItem {
    pub kind: MeldKind,
    pub count: u32,
    pub points: i32,
}

/// The number of kinds of meld (`Pinochle` is the last).
pub const MELD_KINDS: usize = MeldKind::Pinochle as usize + 1;

/// A meld breakdown: at most one item of each kind, held inline (as
/// vectors, a hand's four breakdowns cost four allocations a hand).
pub type MeldItems = smallvec::SmallVec<[MeldItem; MELD_KINDS]>;

/// How many of each card: `[suit][rank]`.
pub type Counts = [[u32; 6]; 4];

pub fn counts(cards: &[Card]) -> Counts {
    let mut c = [[0u32; 6]; 4];
    for card in cards {
        c[card.suit as usize][card.rank as usize] += 1;
    }
    c
}

fn points(table: &SetPoints, n: u32) -> i32 {
    match n {
        0 => 0,
        n => table[(n.min(4) - 1) as usize],
    }
}

/// The meld of `cards` with `trump` (`None`: no trump named), as a total and
/// a breakdown in a fixed order (only classes with at least one set).
pub fn meld(cards: &[Card], trump: Option<Suit>, table: &Melds) -> (i32, MeldItems) {
    meld_of_counts(&counts(cards), trump, table)
}

/// [`meld`] of cards already counted.
pub fn meld_of_counts(c: &Counts, trump: Option<Suit>, table: &Melds) -> (i32, MeldItems) {
    let mut items = MeldItems::new();
    let push = |items: &mut MeldItems, kind, count: u32, table: &SetPoints| {
        if count > 0 {
            items.push(MeldItem {
                kind,
                count,
                points: points(table, count),
            });
        }
    };
    let (a, t, k, q, j) = (
        Rank::A as usize,
        Rank::T as usize,
        Rank::K as usize,
        Rank::Q as usize,
        Rank::J as usize,
    );
    if let Some(tr) = trump {
        let s = &c[tr as usize];
        let runs = [s[a], s[t], s[k], s[q], s[j]].into_iter().min().unwrap();
        push(&mut items, MeldKind::Run, runs, &table.run);
        let royal = s[k].min(s[q]) - runs;
        push(
            &mut items,
            MeldKind::RoyalMarriage,
            royal,
            &table.royal_marriage,
        );
    }
    // Plain marriages, scored per suit.
    let mut marriages = 0;
    let mut marriage_points = 0;
    for suit in Suit::DOT_ORDER {
        if Some(suit) == trump {
            continue;
        }
        let n = c[suit as usize][k].min(c[suit as usize][q]);
        marriages += n;
        marriage_points += points(&table.marriage, n);
    }
    if marriages > 0 {
        items.push(MeldItem {
            kind: MeldKind::Marriage,
            count: marriages,
            points: marriage_points,
        });
    }
    let around = |r: usize| (0..4).map(|s| c[s][r]).min().unwrap();
    push(
        &mut items,
        MeldKind::AcesAround,
        around(a),
        &table.aces_around,
    );
    push(
        &mut items,
        MeldKind::KingsAround,
        around(k),
        &table.kings_around,
    );
    push(
        &mut items,
        MeldKind::QueensAround,
        around(q),
        &table.queens_around,
    );
    push(
        &mut items,
        MeldKind::JacksAround,
        around(j),
        &table.jacks_around,
    );
    let pinochles = c[Suit::S as usize][q].min(c[Suit::D as usize][j]);
    push(&mut items, MeldKind::Pinochle, pinochles, &table.pinochle);
    let total = items.iter().map(|i| i.points).sum();
    (total, items)
}

/// The cards that make up a meld: within one class (sequence, arounds,
/// pinochle) copies add up; across classes a card serves again.
pub fn meld_cards(hand: &[Card], trump: Option<Suit>) -> Vec<Card> {
    let c = counts(hand);
    let idx = |r: Rank| r as usize;
    let mut need = [[0u32; 6]; 4];
    let mut seq = [[0u32; 6]; 4];
    for s in Suit::DOT_ORDER {
        let cs = &c[s as usize];
        if Some(s) == trump {
            let runs = [Rank::A, Rank::T, Rank::K, Rank::Q, Rank::J]
                .iter()
                .map(|&r| cs[idx(r)])
                .min()
                .unwrap();
            for r in [Rank::A, Rank::T, Rank::J] {
                seq[s as usize][idx(r)] = runs;
            }
            let kq = cs[idx(Rank::K)].min(cs[idx(Rank::Q)]);
            seq[s as usize][idx(Rank::K)] = kq.max(runs);
            seq[s as usize][idx(Rank::Q)] = kq.max(runs);
        } else {
            let kq = cs[idx(Rank::K)].min(cs[idx(Rank::Q)]);
            seq[s as usize][idx(Rank::K)] = kq;
            seq[s as usize][idx(Rank::Q)] = kq;
        }
    }
    for s in 0..4 {
        for r in 0..6 {
            need[s][r] = seq[s][r];
        }
    }
    for r in [Rank::A, Rank::K, Rank::Q, Rank::J] {
        let n = (0..4).map(|s| c[s][idx(r)]).min().unwrap();
        for row in need.iter_mut() {
            row[idx(r)] = row[idx(r)].max(n);
        }
    }
    let pin = c[Suit::S as usize][idx(Rank::Q)].min(c[Suit::D as usize][idx(Rank::J)]);
    need[Suit::S as usize][idx(Rank::Q)] = need[Suit::S as usize][idx(Rank::Q)].max(pin);
    need[Suit::D as usize][idx(Rank::J)] = need[Suit::D as usize][idx(Rank::J)].max(pin);
    let mut out = Vec::new();
    for s in Suit::DOT_ORDER {
        for r in [Rank::A, Rank::T, Rank::K, Rank::Q, Rank::J] {
            for _ in 0..need[s as usize][idx(r)] {
                out.push(Card { suit: s, rank: r });
            }
        }
    }
    out
}

/// Whether the cards hold a marriage (K and Q of one suit): without one, a
/// declarer cannot name trump.
pub fn has_marriage(cards: &[Card]) -> bool {
    has_marriage_in(&counts(cards))
}

/// [`has_marriage`] of cards already counted.
pub fn has_marriage_in(c: &Counts) -> bool {
    (0..4).any(|s| c[s][Rank::K as usize] > 0 && c[s][Rank::Q as usize] > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pinochle::card::parse_dot_hand;

    fn hand(dot: &str) -> Vec<Card> {
        let mut v = Vec::new();
        parse_dot_hand(dot.as_bytes(), &mut v).unwrap();
        v
    }

    fn m(dot: &str, trump: Option<Suit>) -> (i32, Vec<(&'static str, u32, i32)>) {
        let (t, items) = meld(&hand(dot), trump, &Melds::default());
        (
            t,
            items
                .iter()
                .map(|i| (i.kind.as_str(), i.count, i.points))
                .collect(),
        )
    }

    #[test]
    fn a_breakdown_holds_every_kind_at_once() {
        let (total, items) = m("AKQJ.AKQJ.ATKKQQJ.AKQJ", Some(Suit::S));
        let kinds: Vec<(&str, u32)> = items.iter().map(|i| (i.0, i.1)).collect();
        assert_eq!(
            kinds,
            [
                ("run", 1),
                ("royal marriage", 1),
                ("marriage", 3),
                ("aces around", 1),
                ("kings around", 1),
                ("queens around", 1),
                ("jacks around", 1),
                ("pinochle", 1),
            ]
        );
        assert_eq!(items.len(), MELD_KINDS);
        assert_eq!(total, items.iter().map(|i| i.2).sum::<i32>());
        assert_eq!(total, 15 + 4 + 6 + 10 + 8 + 6 + 4 + 4);
    }

    #[test]
    fn runs_one_to_four_sets_and_royal_marriages() {
        assert_eq!(m("...ATKQJ", Some(Suit::H)), (15, vec![("run", 1, 15)]));
        assert_eq!(
            m("...AATTKKQQJJ", Some(Suit::H)),
            (150, vec![("run", 2, 150)])
        );
        assert_eq!(
            m("...AAATTTKKKQQQJJJ", Some(Suit::H)),
            (225, vec![("run", 3, 225)])
        );
        assert_eq!(
            m("...AAAATTTTKKKKQQQQJJJJ", Some(Suit::H)),
            (300, vec![("run", 4, 300)])
        );
        // A run plus an extra K Q of trump: the extra pair is a royal marriage.
        assert_eq!(
            m("...ATKKQQJ", Some(Suit::H)),
            (19, vec![("run", 1, 15), ("royal marriage", 1, 4)])
        );
        // Royal marriages without a run.
        assert_eq!(
            m("...KKQQ", Some(Suit::H)),
            (8, vec![("royal marriage", 2, 8)])
        );
        // The same cards in a plain suit are marriages.
        assert_eq!(m("...KKQQ", Some(Suit::S)), (4, vec![("marriage", 2, 4)]));
    }

    #[test]
    fn no_trump_makes_every_pair_a_plain_marriage() {
        assert_eq!(m("...ATKQJ", None), (2, vec![("marriage", 1, 2)]));
        assert_eq!(
            m("KQ.KQ.KQ.KQ", None),
            (
                8 + 8 + 6,
                vec![
                    ("marriage", 4, 8),
                    ("kings around", 1, 8),
                    ("queens around", 1, 6)
                ]
            )
        );
    }

    #[test]
    fn arounds_at_one_to_four_sets() {
        assert_eq!(m("A.A.A.A", None), (10, vec![("aces around", 1, 10)]));
        assert_eq!(m("AA.AA.AA.AA", None), (100, vec![("aces around", 2, 100)]));
        assert_eq!(
            m("KKK.KKK.KKK.KKK", None),
            (120, vec![("kings around", 3, 120)])
        );
        assert_eq!(
            m("QQQQ.QQQQ.QQQQ.QQQQ", None),
            (120, vec![("queens around", 4, 120)])
        );
        assert_eq!(m("JJ.JJ.JJ.J", None), (4, vec![("jacks around", 1, 4)]));
        assert_eq!(m("JJ.JJ.JJ.JJ", None), (40, vec![("jacks around", 2, 40)]));
        assert_eq!(
            m("JJJ.JJJ.JJJ.JJJ", None),
            (60, vec![("jacks around", 3, 60)])
        );
        assert_eq!(
            m("JJJJ.JJJJ.JJJJ.JJJJ", None),
            (80, vec![("jacks around", 4, 80)])
        );
    }

    #[test]
    fn marriages_and_royal_marriages_at_every_count() {
        for n in 1..=4usize {
            let kq: String = std::iter::repeat_n("KQ", n).collect();
            // In hearts with hearts trump: royal marriages; in clubs: plain marriages.
            assert_eq!(
                m(&format!("...{kq}"), Some(Suit::H)),
                (
                    (4 * n) as i32,
                    vec![("royal marriage", n as u32, (4 * n) as i32)]
                )
            );
            assert_eq!(
                m(&format!("{kq}..."), Some(Suit::H)),
                ((2 * n) as i32, vec![("marriage", n as u32, (2 * n) as i32)])
            );
        }
    }

    #[test]
    fn every_around_at_every_count() {
        let table = Melds::default();
        for (rank, name, points) in [
            ('A', "aces around", table.aces_around),
            ('K', "kings around", table.kings_around),
            ('Q', "queens around", table.queens_around),
            ('J', "jacks around", table.jacks_around),
        ] {
            for n in 1..=4usize {
                let suit: String = std::iter::repeat_n(rank, n).collect();
                // Three suits with n, one with n + 1 (an extra card makes no more sets).
                let dot = format!("{suit}.{suit}.{suit}.{suit}{rank}");
                let (total, items) = meld(&hand(&dot), None, &table);
                let around: Vec<_> = items.iter().filter(|i| i.kind.as_str() == name).collect();
                assert_eq!(around.len(), 1, "{dot}");
                assert_eq!(
                    (around[0].count, around[0].points),
                    (n as u32, points[n - 1]),
                    "{dot}"
                );
                // Queens and kings around also hold no marriages here (no K with Q).
                assert_eq!(total, points[n - 1], "{dot}");
            }
        }
    }

    #[test]
    fn pinochles_at_one_to_four() {
        assert_eq!(m(".J.Q.", None), (4, vec![("pinochle", 1, 4)]));
        assert_eq!(m(".JJ.QQ.", None), (30, vec![("pinochle", 2, 30)]));
        assert_eq!(m(".JJJ.QQQ.", None), (60, vec![("pinochle", 3, 60)]));
        assert_eq!(m(".JJJJ.QQQQ.", None), (90, vec![("pinochle", 4, 90)]));
        assert_eq!(m(".JJJ.Q.", None), (4, vec![("pinochle", 1, 4)]));
    }

    #[test]
    fn one_card_in_several_classes() {
        // SQ serves in a marriage, in queens around and in a pinochle.
        assert_eq!(
            m("Q.JQ.KQ.Q", Some(Suit::H)),
            (
                2 + 6 + 4,
                vec![
                    ("marriage", 1, 2),
                    ("queens around", 1, 6),
                    ("pinochle", 1, 4)
                ]
            )
        );
        assert!(has_marriage(&hand("K.Q.KQ.")));
        assert!(!has_marriage(&hand("K.Q.K.Q")));
    }
}
