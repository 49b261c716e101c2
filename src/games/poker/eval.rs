//! Hand evaluation for the pots of every PHH variant: high hands (standard
//! and short-deck), eight-or-better lows, ace-to-five lowball (razz),
//! deuce-to-seven lowball and badugi. Each evaluator gives a key that
//! orders hands: a larger key is a better hand for its pot (lows are
//! turned around), equal keys tie.
//!
//! Hands are of known cards (`Known`): unknown cards cannot be evaluated,
//! and the rules say so instead of guessing.

use super::card::Card;

/// A known card: rank 2 (deuce) to 14 (ace), suit 0 to 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Known {
    pub rank: u8,
    pub suit: u8,
}

impl Known {
    /// The card when its rank and suit are known.
    pub fn of(c: Card) -> Option<Known> {
        Some(Known {
            rank: c.rank? as u8,
            suit: c.suit? as u8,
        })
    }
}

/// The categories of a high hand, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    HighCard,
    OnePair,
    TwoPair,
    ThreeOfAKind,
    Straight,
    Flush,
    FullHouse,
    FourOfAKind,
    StraightFlush,
}

impl Category {
    /// Its name, as `players.computed_hand` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Category::HighCard => "high card",
            Category::OnePair => "one pair",
            Category::TwoPair => "two pair",
            Category::ThreeOfAKind => "three of a kind",
            Category::Straight => "straight",
            Category::Flush => "flush",
            Category::FullHouse => "full house",
            Category::FourOfAKind => "four of a kind",
            Category::StraightFlush => "straight flush",
        }
    }

    fn from_index(i: u32) -> Category {
        use Category::*;
        [
            HighCard,
            OnePair,
            TwoPair,
            ThreeOfAKind,
            Straight,
            Flush,
            FullHouse,
            FourOfAKind,
            StraightFlush,
        ][i as usize]
    }
}

/// Which five-card ranking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranking {
    /// Standard poker: A-2-3-4-5 is the lowest straight.
    Standard,
    /// Short-deck (6 to A): a flush beats a full house, A-6-7-8-9 is the
    /// lowest straight.
    ShortDeck,
    /// Deuce-to-seven: the ace is always high (A-2-3-4-5 is no straight).
    AceHighOnly,
}

/// A five-card hand's key under a ranking: its category's place (a flush
/// above a full house in short-deck) in the top bits, then the ranks that
/// decide within it, most significant first, four bits each.
pub fn five(cards: &[Known; 5], ranking: Ranking) -> u32 {
    let (category, ranks) = shape(cards, ranking);
    let place = match (ranking, category) {
        (Ranking::ShortDeck, Category::Flush) => Category::FullHouse as u32,
        (Ranking::ShortDeck, Category::FullHouse) => Category::Flush as u32,
        (_, c) => c as u32,
    };
    (place << 20) | ranks
}

/// The category of a key made by [`five`] under `ranking`.
pub fn category(key: u32, ranking: Ranking) -> Category {
    let place = key >> 20;
    let c = Category::from_index(place);
    match (ranking, c) {
        (Ranking::ShortDeck, Category::Flush) => Category::FullHouse,
        (Ranking::ShortDeck, Category::FullHouse) => Category::Flush,
        _ => c,
    }
}

/// The pair structure of five ranks (1 to 14): its category, high card
/// to four of a kind (straights and flushes aside), the ranks by (count,
/// rank), highest first, packed four bits each from the top, and how many
/// different ranks there are.
fn groups(ranks: [u8; 5]) -> (Category, u32, usize) {
    let mut count = [0u8; 15];
    for r in ranks {
        count[r as usize] += 1;
    }
    let mut g = [(0u8, 0u8); 5];
    let mut n = 0;
    for r in (1..=14u8).rev() {
        if count[r as usize] > 0 {
            g[n] = (count[r as usize], r);
            n += 1;
        }
    }
    g[..n].sort_by(|a, b| b.cmp(a));
    let packed = g[..n].iter().fold(0u32, |k, &(_, r)| (k << 4) | r as u32) << (4 * (5 - n));
    let category = match (g[0].0, g[1].0) {
        (4, _) => Category::FourOfAKind,
        (3, 2) => Category::FullHouse,
        (3, _) => Category::ThreeOfAKind,
        (2, 2) => Category::TwoPair,
        (2, _) => Category::OnePair,
        _ => Category::HighCard,
    };
    (category, packed, n)
}

/// The category and the deciding ranks (packed) of five cards.
fn shape(cards: &[Known; 5], ranking: Ranking) -> (Category, u32) {
    let (category, packed, n) = groups(cards.map(|c| c.rank));
    if n < 5 {
        return (category, packed);
    }
    // Five different ranks, highest first.
    let rs: [u8; 5] = std::array::from_fn(|i| (packed >> (16 - 4 * i) & 0xF) as u8);
    let wheel = match ranking {
        Ranking::Standard => Some([14, 5, 4, 3, 2]),
        Ranking::ShortDeck => Some([14, 9, 8, 7, 6]),
        Ranking::AceHighOnly => None,
    };
    let straight_top = if rs[0] - rs[4] == 4 {
        Some(rs[0])
    } else {
        wheel.filter(|w| *w == rs).map(|w| w[1])
    };
    let flush = cards.iter().all(|c| c.suit == cards[0].suit);
    let top = |t: u8| (t as u32) << 16;
    match (straight_top, flush) {
        (Some(t), true) => (Category::StraightFlush, top(t)),
        (Some(t), false) => (Category::Straight, top(t)),
        (None, true) => (Category::Flush, packed),
        (None, false) => (Category::HighCard, packed),
    }
}

/// Every way to choose `k` of `n` items, as index lists, in order.
fn choose(n: usize, k: usize, mut each: impl FnMut(&[usize])) {
    if k > n {
        return;
    }
    let mut buf = [0usize; 8];
    let idx = &mut buf[..k.min(8)];
    for (i, x) in idx.iter_mut().enumerate() {
        *x = i;
    }
    let k = idx.len();
    loop {
        each(idx);
        let Some(i) = (0..k).rev().find(|&i| idx[i] != i + n - k) else {
            return;
        };
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

/// The best key of any five of `cards` (five to seven of them; None for
/// fewer than five).
pub fn best_high(cards: &[Known], ranking: Ranking) -> Option<u32> {
    best_of(cards, |h| Some(five(h, ranking)))
}

/// The `k` (at most 5) highest ranks of a mask of ranks, highest first;
/// fewer when the mask has fewer.
fn highest(mask: u16, k: usize) -> Ranks {
    let mut out = Ranks::default();
    for r in (2..=14u8).rev() {
        if out.len == k.min(5) as u8 {
            break;
        }
        if mask >> r & 1 == 1 {
            out.ranks[out.len as usize] = r;
            out.len += 1;
        }
    }
    out
}

/// Up to five ranks, without a heap allocation.
#[derive(Default)]
struct Ranks {
    ranks: [u8; 5],
    len: u8,
}

impl std::ops::Deref for Ranks {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.ranks[..self.len as usize]
    }
}

/// [`best_high`] without trying every five: the best hand of each
/// category the cards hold, from their rank counts and suits (equal to
/// `best_high`, tested on random hands of 5 to 7 cards).
pub fn best_high_direct(cards: &[Known], ranking: Ranking) -> Option<u32> {
    if cards.len() < 5 || ranking == Ranking::AceHighOnly {
        return best_high(cards, ranking);
    }
    let mut count = [0u8; 15];
    let mut suits = [0u16; 4];
    let mut all = 0u16;
    for c in cards {
        count[c.rank as usize] += 1;
        suits[c.suit as usize & 3] |= 1 << c.rank;
        all |= 1 << c.rank;
    }
    let place = |c: Category| -> u32 {
        match (ranking, c) {
            (Ranking::ShortDeck, Category::Flush) => Category::FullHouse as u32,
            (Ranking::ShortDeck, Category::FullHouse) => Category::Flush as u32,
            (_, c) => c as u32,
        }
    };
    let key = |c: Category, ranks: &[u8]| -> u32 {
        let packed = ranks
            .iter()
            .take(5)
            .enumerate()
            .fold(0u32, |k, (i, &r)| k | (r as u32) << (16 - 4 * i));
        (place(c) << 20) | packed
    };
    // The top rank of the best straight in a mask of ranks.
    let straight = |mask: u16| -> Option<u8> {
        (6..=14u8)
            .rev()
            .find(|&t| (mask >> (t - 4)) & 0x1F == 0x1F)
            .or_else(|| {
                let wheel: u16 = match ranking {
                    Ranking::ShortDeck => (1 << 14) | (1 << 9) | (1 << 8) | (1 << 7) | (1 << 6),
                    _ => (1 << 14) | (1 << 5) | (1 << 4) | (1 << 3) | (1 << 2),
                };
                (mask & wheel == wheel).then_some(if ranking == Ranking::ShortDeck { 9 } else { 5 })
            })
    };
    let mut best = 0u32;
    for &m in &suits {
        if m.count_ones() >= 5 {
            match straight(m) {
                Some(t) => best = best.max(key(Category::StraightFlush, &[t])),
                None => best = best.max(key(Category::Flush, &highest(m, 5))),
            }
        }
    }
    if let Some(t) = straight(all) {
        best = best.max(key(Category::Straight, &[t]));
    }
    // The ranks held at least n times, as masks.
    let at_least = |n: u8| {
        (2..=14u8)
            .filter(|&r| count[r as usize] >= n)
            .fold(0u16, |m, r| m | 1 << r)
    };
    let (quads, trips, pairs) = (at_least(4), at_least(3), at_least(2));
    // The ranks `also`, then the `k` highest other ranks held (the
    // kickers): the hand's ranks, when there are that many.
    let with = |also: &[u8], k: usize| -> Option<[u8; 5]> {
        let rest = highest(all & !also.iter().fold(0u16, |m, &r| m | 1 << r), k);
        let mut out = [0u8; 5];
        out[..also.len()].copy_from_slice(also);
        (rest.len() == k).then(|| {
            out[also.len()..also.len() + k].copy_from_slice(&rest);
            out
        })
    };
    let top = |mask: u16| highest(mask, 1).first().copied();
    if let Some(q) = top(quads)
        && let Some(r) = with(&[q], 1)
    {
        best = best.max(key(Category::FourOfAKind, &r[..2]));
    }
    if let Some(t) = top(trips) {
        if let Some(p) = top(pairs & !(1 << t)) {
            best = best.max(key(Category::FullHouse, &[t, p]));
        }
        // (Fewer than two other ranks: a full house or four of a kind.)
        if let Some(r) = with(&[t], 2) {
            best = best.max(key(Category::ThreeOfAKind, &r[..3]));
        }
    }
    if let [a, b] = highest(pairs, 2)[..]
        && let Some(r) = with(&[a, b], 1)
    {
        best = best.max(key(Category::TwoPair, &r[..3]));
    }
    if let Some(p) = top(pairs)
        && let Some(r) = with(&[p], 3)
    {
        best = best.max(key(Category::OnePair, &r[..4]));
    }
    if all.count_ones() >= 5 {
        best = best.max(key(Category::HighCard, &highest(all, 5)));
    }
    Some(best)
}

/// The best key of any five of `cards` by `eval` (None: no five cards, or
/// no five that `eval` takes, as a low that does not qualify).
pub fn best_of(cards: &[Known], eval: impl Fn(&[Known; 5]) -> Option<u32>) -> Option<u32> {
    let mut best = None;
    choose(cards.len(), 5, |ix| {
        let h = [
            cards[ix[0]],
            cards[ix[1]],
            cards[ix[2]],
            cards[ix[3]],
            cards[ix[4]],
        ];
        best = best.max(eval(&h));
    });
    best
}

/// Omaha: the best key of exactly two hole cards and three board cards.
pub fn best_omaha(
    hole: &[Known],
    board: &[Known],
    eval: impl Fn(&[Known; 5]) -> Option<u32>,
) -> Option<u32> {
    let mut best = None;
    choose(hole.len(), 2, |h| {
        choose(board.len(), 3, |b| {
            let five = [
                hole[h[0]],
                hole[h[1]],
                board[b[0]],
                board[b[1]],
                board[b[2]],
            ];
            best = best.max(eval(&five));
        })
    });
    best
}

/// The rank counting the ace as 1.
fn ace_low(r: u8) -> u8 {
    if r == 14 { 1 } else { r }
}

/// An eight-or-better low of five cards: five different ranks of 8 or
/// below (the ace low); straights and flushes do not count. None when the
/// cards do not qualify. Lower hands have larger keys.
pub fn eight_or_better(cards: &[Known; 5]) -> Option<u32> {
    let mut rs: Vec<u8> = cards.iter().map(|c| ace_low(c.rank)).collect();
    rs.sort_unstable_by(|a, b| b.cmp(a));
    rs.dedup();
    if rs.len() < 5 || rs[0] > 8 {
        return None;
    }
    let packed = rs.iter().fold(0u32, |k, &r| (k << 4) | r as u32);
    Some(!packed & 0xF_FFFF)
}

/// The distinct ranks of `cards`, the ace low (1 to 13), as a mask.
fn low_ranks(cards: &[Known]) -> u16 {
    cards.iter().fold(0, |m, c| m | 1 << ace_low(c.rank))
}

/// The `k` lowest ranks of a mask, packed highest first (four bits each,
/// from bit 4k - 4), or None when it has fewer.
fn lowest(mask: u16, k: usize) -> Option<u32> {
    let mut picked = [0u8; 5];
    let mut n = 0;
    for r in 1..=13u8 {
        if n < k && mask >> r & 1 == 1 {
            picked[n] = r;
            n += 1;
        }
    }
    (n == k).then(|| {
        picked[..k]
            .iter()
            .rev()
            .fold(0u32, |p, &r| (p << 4) | r as u32)
    })
}

/// The best eight-or-better low of any five of `cards`: the five lowest
/// ranks of 8 or below (equal to `best_of(cards, eight_or_better)`).
pub fn best_eight_low(cards: &[Known]) -> Option<u32> {
    lowest(low_ranks(cards) & 0x1FE, 5).map(|p| !p & 0xF_FFFF)
}

/// The best razz hand of any five of `cards`: with five ranks or more,
/// the five lowest; otherwise pairs count and every five is tried (equal
/// to `best_of(cards, |h| Some(ace_to_five(h)))`).
pub fn best_razz(cards: &[Known]) -> Option<u32> {
    match lowest(low_ranks(cards), 5) {
        Some(p) => Some(!(((Category::HighCard as u32) << 20) | p)),
        None => best_of(cards, |h| Some(ace_to_five(h))),
    }
}

/// Omaha's eight-or-better low: for each two hole cards of different low
/// ranks, the three lowest other low ranks of the board (equal to
/// `best_omaha(hole, board, eight_or_better)`).
pub fn best_omaha_low(hole: &[Known], board: &[Known]) -> Option<u32> {
    let board = low_ranks(board) & 0x1FE;
    let mut best = None;
    for i in 0..hole.len() {
        for j in i + 1..hole.len() {
            let (a, b) = (ace_low(hole[i].rank), ace_low(hole[j].rank));
            if a == b || a > 8 || b > 8 {
                continue;
            }
            let pair = (1u16 << a) | (1 << b);
            if let Some(three) = lowest(board & !pair, 3) {
                // The five ranks (all different), packed highest first.
                let board3 = (0..3).fold(0u16, |m, k| m | 1 << (three >> (4 * k) & 0xF));
                if let Some(p) = lowest(board3 | pair, 5) {
                    best = best.max(Some(!p & 0xF_FFFF));
                }
            }
        }
    }
    best
}

/// Ace-to-five lowball (razz) of five cards: the ace low, pairs count
/// against, straights and flushes do not. Lower hands have larger keys.
pub fn ace_to_five(cards: &[Known; 5]) -> u32 {
    let (category, ranks, _) = groups(cards.map(|c| ace_low(c.rank)));
    !(((category as u32) << 20) | ranks)
}

/// Deuce-to-seven lowball of five cards: the standard ranking with the ace
/// always high, turned around (the worst high hand is the best low).
pub fn deuce_to_seven(cards: &[Known; 5]) -> u32 {
    !five(cards, Ranking::AceHighOnly)
}

/// Badugi of four cards: the most cards of different ranks and different
/// suits, then the lowest (the ace low). More cards, then lower, have
/// larger keys.
pub fn badugi(cards: &[Known]) -> u32 {
    let mut best: Option<(usize, u32)> = None;
    for mask in 1u32..(1 << cards.len()) {
        let pick: Vec<Known> = (0..cards.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| cards[i])
            .collect();
        let distinct = pick.iter().enumerate().all(|(i, a)| {
            pick[i + 1..]
                .iter()
                .all(|b| a.suit != b.suit && ace_low(a.rank) != ace_low(b.rank))
        });
        if !distinct {
            continue;
        }
        let mut rs: Vec<u8> = pick.iter().map(|c| ace_low(c.rank)).collect();
        rs.sort_unstable_by(|a, b| b.cmp(a));
        let packed = rs.iter().fold(0u32, |k, &r| (k << 4) | r as u32) << (4 * (4 - rs.len()));
        let key = (pick.len(), !packed & 0xFFFF);
        best = best.max(Some(key));
    }
    best.map_or(0, |(n, k)| ((n as u32) << 16) | k)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A xorshift generator from `seed`: random hands, the same every run.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    #[test]
    fn the_direct_low_evaluators_are_best_of() {
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15u64);
        let d = deck(false);
        let mut draw = |n: usize, out: &mut Vec<Known>| {
            while out.len() < n {
                let c = d[(next() % 52) as usize];
                if !out.contains(&c) {
                    out.push(c);
                }
            }
        };
        for round in 0..40_000 {
            let mut hand = Vec::new();
            draw(5 + round % 3, &mut hand);
            assert_eq!(
                best_eight_low(&hand),
                best_of(&hand, eight_or_better),
                "{hand:?}"
            );
            assert_eq!(
                best_razz(&hand),
                best_of(&hand, |h| Some(ace_to_five(h))),
                "{hand:?}"
            );
            let mut cards = Vec::new();
            draw(9, &mut cards);
            let (hole, board) = cards.split_at(4);
            assert_eq!(
                best_omaha_low(hole, board),
                best_omaha(hole, board, eight_or_better),
                "{cards:?}"
            );
        }
    }

    #[test]
    fn the_direct_high_evaluator_is_best_high() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1Du64);
        for ranking in [Ranking::Standard, Ranking::ShortDeck] {
            let d = deck(ranking == Ranking::ShortDeck);
            for round in 0..60_000 {
                let n = 5 + round % 3;
                let mut hand: Vec<Known> = Vec::new();
                while hand.len() < n {
                    let c = d[(next() % d.len() as u64) as usize];
                    if !hand.contains(&c) {
                        hand.push(c);
                    }
                }
                assert_eq!(
                    best_high_direct(&hand, ranking),
                    best_high(&hand, ranking),
                    "{hand:?} {ranking:?}"
                );
            }
        }
    }
    use std::collections::{HashMap, HashSet};

    fn deck(short: bool) -> Vec<Known> {
        let low = if short { 6 } else { 2 };
        (low..=14u8)
            .flat_map(|rank| (0..4u8).map(move |suit| Known { rank, suit }))
            .collect()
    }

    fn cards(s: &str) -> Vec<Known> {
        s.as_bytes()
            .chunks(2)
            .map(|p| Known::of(Card::from_letters(p[0], p[1]).unwrap()).unwrap())
            .collect()
    }

    fn arr(s: &str) -> [Known; 5] {
        cards(s).try_into().unwrap()
    }

    /// Every five-card hand of a deck, counted by category, and the
    /// number of different keys.
    fn census(short: bool, ranking: Ranking) -> (HashMap<Category, u32>, usize) {
        let d = deck(short);
        let mut counts = HashMap::new();
        let mut keys = HashSet::new();
        choose(d.len(), 5, |ix| {
            let h = [d[ix[0]], d[ix[1]], d[ix[2]], d[ix[3]], d[ix[4]]];
            let k = five(&h, ranking);
            *counts.entry(category(k, ranking)).or_insert(0) += 1;
            keys.insert(k);
        });
        (counts, keys.len())
    }

    #[test]
    fn every_standard_hand_counted_by_category() {
        use Category::*;
        let (c, classes) = census(false, Ranking::Standard);
        let want = [
            (StraightFlush, 40),
            (FourOfAKind, 624),
            (FullHouse, 3744),
            (Flush, 5108),
            (Straight, 10200),
            (ThreeOfAKind, 54912),
            (TwoPair, 123552),
            (OnePair, 1098240),
            (HighCard, 1302540),
        ];
        for (cat, n) in want {
            assert_eq!(c[&cat], n, "{cat:?}");
        }
        // The 7,462 classes of equal hands.
        assert_eq!(classes, 7462);
    }

    #[test]
    fn every_short_deck_hand_counted_by_category() {
        use Category::*;
        let (c, _) = census(true, Ranking::ShortDeck);
        // 36 cards, ranks 6 to A: 6 straights (A-6-7-8-9 the lowest).
        let want = [
            (StraightFlush, 24),
            (FourOfAKind, 288),
            (FullHouse, 1728),
            (Flush, 480),
            (Straight, 6120),
            (ThreeOfAKind, 16128),
            (TwoPair, 36288),
            (OnePair, 193536),
            (HighCard, 122400),
        ];
        for (cat, n) in want {
            assert_eq!(c[&cat], n, "{cat:?}");
        }
        let k = |s: &str| five(&arr(s), Ranking::ShortDeck);
        assert!(k("AsKsQsJs9s") > k("AhAdAcKsKd"));
        assert!(k("As6d7c8h9s") > k("AhAdAcKsQd"));
        assert!(k("As6d7c8h9s") < k("6d7c8h9sTs"));
        assert_eq!(category(k("As6d7c8h9s"), Ranking::ShortDeck), Straight);
    }

    #[test]
    fn standard_orderings() {
        let k = |s: &str| five(&arr(s), Ranking::Standard);
        assert!(k("As2d3c4h5s") < k("2d3c4h5s6s"));
        assert_eq!(
            category(k("As2d3c4h5s"), Ranking::Standard),
            Category::Straight
        );
        assert!(k("AsKsQsJsTs") > k("9s9d9c9hAs"));
        assert_eq!(k("AsKdQcJhTs"), k("AdKcQhJsTd"));
        assert!(k("2s2d3c4h5s") > k("AsKdQcJh9s"));
        assert!(k("KsKdQcQh2s") > k("KsKdJcJhAs"));
        assert_eq!(
            best_high(&cards("AsKsQsJsTs2d3c"), Ranking::Standard),
            Some(k("AsKsQsJsTs"))
        );
        assert_eq!(best_high(&cards("AsKs"), Ranking::Standard), None);
    }

    #[test]
    fn omaha_uses_two_hole_cards_and_three_of_the_board() {
        let high = |h: &[Known; 5]| Some(five(h, Ranking::Standard));
        // One spade in hand and five on the board: no flush, no straight.
        let best = best_omaha(&cards("As2h3d4c"), &cards("KsQsJsTs9s"), high).unwrap();
        assert_eq!(category(best, Ranking::Standard), Category::HighCard);
        assert_eq!(best, five(&arr("As4cKsQsJs"), Ranking::Standard));
        // Two spades in hand: the royal flush.
        let best = best_omaha(&cards("AsKs2h3d"), &cards("QsJsTs4c5d"), high).unwrap();
        assert_eq!(category(best, Ranking::Standard), Category::StraightFlush);
        // Eight-or-better: two low hole cards needed.
        let low = |h: &[Known; 5]| eight_or_better(h);
        assert_eq!(
            best_omaha(&cards("AsKsQdJd"), &cards("2c3c4c5h9s"), low),
            None
        );
        assert_eq!(
            best_omaha(&cards("As2sQdJd"), &cards("3c4c5h9sKh"), low),
            eight_or_better(&arr("As2s3c4c5h"))
        );
    }

    #[test]
    fn eight_or_better_lows() {
        let d = deck(false);
        let mut keys = HashSet::new();
        let mut qualifying = 0u32;
        choose(d.len(), 5, |ix| {
            let h = [d[ix[0]], d[ix[1]], d[ix[2]], d[ix[3]], d[ix[4]]];
            if let Some(k) = eight_or_better(&h) {
                qualifying += 1;
                keys.insert(k);
            }
        });
        // C(8, 5) rank sets, each in 4^5 suits.
        assert_eq!(keys.len(), 56);
        assert_eq!(qualifying, 56 * 1024);
        let k = |s: &str| eight_or_better(&arr(s));
        assert!(k("As2d3c4h5s") > k("As2d3c4h6s"));
        assert!(k("8s7d6c4h3s") > k("8s7d6c5h2s").map(|_| 0));
        assert!(k("8s7d6c5h3s") < k("8s7d6c4h3s"));
        assert_eq!(k("9s2d3c4h5s"), None);
        assert_eq!(k("As2d3c4h4s"), None);
    }

    #[test]
    fn ace_to_five_lowball() {
        let d = deck(false);
        let mut keys = HashSet::new();
        choose(d.len(), 5, |ix| {
            keys.insert(ace_to_five(&[
                d[ix[0]], d[ix[1]], d[ix[2]], d[ix[3]], d[ix[4]],
            ]));
        });
        // The 6,175 classes of ace-to-five lowball.
        assert_eq!(keys.len(), 6175);
        let k = |s: &str| ace_to_five(&arr(s));
        assert!(k("As2s3s4s5s") > k("As2d3c4h6s"));
        assert!(k("KsQdJcTh9s") > k("AsAd2c3h4s"));
        assert!(k("AsAd2c3h4s") > k("2s2d3c4h5s"));
    }

    #[test]
    fn deuce_to_seven_lowball() {
        let k = |s: &str| deuce_to_seven(&arr(s));
        assert!(k("2s3d4c5h7s") > k("2s3d4c6h7s"));
        assert!(k("2s3d4c5h7s") > k("2s3s4s5s7s"));
        // The ace is high: A-2-3-4-5 is ace high, not a straight.
        assert!(k("As2d3c4h5s") < k("Ks2d3c4h5s"));
        assert!(k("As2d3c4h5s") > k("2s2d3c4h5s"));
        assert!(k("3s4d5c6h7s") < k("Ks2d3c4h5s"));
    }

    #[test]
    fn badugi_hands() {
        let d = deck(false);
        let mut keys = HashSet::new();
        choose(d.len(), 4, |ix| {
            keys.insert(badugi(&[d[ix[0]], d[ix[1]], d[ix[2]], d[ix[3]]]));
        });
        // 13 + 78 + 286 + 715 sets of different ranks, one class each.
        assert_eq!(keys.len(), 1092);
        let k = |s: &str| badugi(&cards(s));
        assert!(k("As2d3c4h") > k("As2d3c5h"));
        assert!(k("Ks Qd Jc Th".replace(' ', "").as_str()) > k("As2s3c4h"));
        // Carol's 8-high badugi beats Alice's 9-high (the highest card first).
        assert!(k("3s5d7c8h") > k("2s4c6d9h"));
        // A suited pair of cards plays one of them.
        assert_eq!(k("As2s"), k("As"));
        assert!(k("As2s3d") < k("As2d3c"));
    }
}
