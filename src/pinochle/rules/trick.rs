//! Who wins a trick, what it is worth, and which cards a player may play.

use super::profile::Profile;
use crate::pinochle::{Card, Rank, Suit};

/// Whether `challenger` beats the card currently winning, `best`.
/// Of two identical cards the one played first wins, so equal does not beat.
pub fn beats(challenger: Card, best: Card, trump: Option<Suit>) -> bool {
    if challenger.suit == best.suit {
        challenger.rank < best.rank
    } else {
        Some(challenger.suit) == trump
    }
}

/// Index of the winning card of a trick (cards in play order).
pub fn winner(cards: &[Card], trump: Option<Suit>) -> usize {
    let mut best = 0;
    for (i, &c) in cards.iter().enumerate().skip(1) {
        if beats(c, cards[best], trump) {
            best = i;
        }
    }
    best
}

/// Points of a trick: counters (A, T, K) plus the last-trick bonus.
pub fn points(cards: &[Card], last: bool, p: &Profile) -> i32 {
    let counters = cards
        .iter()
        .filter(|c| matches!(c.rank, Rank::A | Rank::T | Rank::K))
        .count() as i32;
    counters * p.counter_points + if last { p.last_trick_bonus } else { 0 }
}

/// Why a card may not be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Violation {
    /// The player holds the suit led but played another.
    MustFollow,
    /// The player is void in the suit led, holds trump, and played neither.
    MustTrump,
    /// The player could have beaten the winning card but did not.
    MustHead,
}

impl Violation {
    pub fn as_str(self) -> &'static str {
        match self {
            Violation::MustFollow => "must follow the suit led",
            Violation::MustTrump => "must play a trump when void in the suit led",
            Violation::MustHead => "must beat the winning card when able",
        }
    }
}

/// How many of each card a player holds: `[suit][rank]`, ranks A T K Q J 9
/// and two bytes left zero, so a suit reads as one `u64` (non-zero: held).
pub type Holding = [[u8; 8]; 4];

pub fn holding(hand: &[Card]) -> Holding {
    let mut h = [[0u8; 8]; 4];
    for c in hand {
        h[c.suit as usize][c.rank as usize] += 1;
    }
    h
}

/// Checks `card`, played from `hand` (the player's cards before this play,
/// `card` among them) onto the cards already in the trick.
pub fn check_play(
    hand: &[Card],
    trick: &[Card],
    card: Card,
    trump: Option<Suit>,
    must_head: bool,
) -> Result<(), Violation> {
    let Some(&led) = trick.first() else {
        return Ok(());
    };
    let best = trick[winner(trick, trump)];
    check_held(&holding(hand), led.suit, best, card, trump, must_head)
}

/// [`check_play`] on a holding, given the suit led and the card winning so far.
pub fn check_held(
    held: &Holding,
    led: Suit,
    best: Card,
    card: Card,
    trump: Option<Suit>,
    must_head: bool,
) -> Result<(), Violation> {
    let has = |s: Suit| u64::from_ne_bytes(held[s as usize]) != 0;
    let can_beat = |s: Suit| {
        held[s as usize][..RANKS.len()]
            .iter()
            .enumerate()
            .any(|(r, &n)| {
                n > 0
                    && beats(
                        Card {
                            suit: s,
                            rank: RANKS[r],
                        },
                        best,
                        trump,
                    )
            })
    };
    if has(led) {
        if card.suit != led {
            return Err(Violation::MustFollow);
        }
        if must_head && !beats(card, best, trump) && can_beat(led) {
            return Err(Violation::MustHead);
        }
        return Ok(());
    }
    if let Some(t) = trump
        && has(t)
    {
        if card.suit != t {
            return Err(Violation::MustTrump);
        }
        if must_head && !beats(card, best, trump) && can_beat(t) {
            return Err(Violation::MustHead);
        }
    }
    Ok(())
}

const RANKS: [Rank; 6] = [Rank::A, Rank::T, Rank::K, Rank::Q, Rank::J, Rank::Nine];

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace()
            .map(|c| Card::parse(c.as_bytes()).unwrap())
            .collect()
    }

    #[test]
    fn identical_cards_first_one_wins() {
        assert_eq!(winner(&cards("DQ DT DJ DT"), Some(Suit::H)), 1);
        assert_eq!(winner(&cards("CA CK CA CJ"), Some(Suit::H)), 0);
    }

    #[test]
    fn trump_beats_and_highest_trump_wins() {
        assert_eq!(winner(&cards("HA HJ HK SK"), Some(Suit::S)), 3);
        assert_eq!(winner(&cards("CA ST SA CJ"), Some(Suit::S)), 2);
        assert_eq!(winner(&cards("CA ST SA SA"), Some(Suit::S)), 2);
        // Off-suit cards never win without trump.
        assert_eq!(winner(&cards("HT SA DA CA"), None), 0);
    }

    #[test]
    fn trick_points_and_last_trick() {
        let p = Profile::standard();
        assert_eq!(points(&cards("CA CJ CK CJ"), false, &p), 2);
        assert_eq!(points(&cards("SQ DQ SJ SJ"), true, &p), 2);
        assert_eq!(points(&cards("HA HT HK HQ"), false, &p), 3);
        assert_eq!(points(&cards("HA HT HK HQ"), true, &p), 5);
        assert_eq!(points(&cards("HQ HJ SQ DJ"), false, &p), 0);
    }

    #[test]
    fn follow_trump_and_head() {
        let t = Some(Suit::H);
        // Holds clubs: must follow.
        assert_eq!(
            check_play(
                &cards("CJ DA"),
                &cards("CK"),
                Card::parse(b"DA").unwrap(),
                t,
                true
            ),
            Err(Violation::MustFollow)
        );
        // Could head with CA but played CJ.
        assert_eq!(
            check_play(
                &cards("CJ CA"),
                &cards("CK"),
                Card::parse(b"CJ").unwrap(),
                t,
                true
            ),
            Err(Violation::MustHead)
        );
        assert_eq!(
            check_play(
                &cards("CJ CA"),
                &cards("CK"),
                Card::parse(b"CJ").unwrap(),
                t,
                false
            ),
            Ok(())
        );
        // Void in clubs, holds trump: must trump.
        assert_eq!(
            check_play(
                &cards("HJ DA"),
                &cards("CK"),
                Card::parse(b"DA").unwrap(),
                t,
                true
            ),
            Err(Violation::MustTrump)
        );
        // Trick already trumped with HK: must overtrump with HA if able.
        assert_eq!(
            check_play(
                &cards("HJ HA"),
                &cards("CK HK"),
                Card::parse(b"HJ").unwrap(),
                t,
                true
            ),
            Err(Violation::MustHead)
        );
        assert_eq!(
            check_play(
                &cards("HJ HQ"),
                &cards("CK HK"),
                Card::parse(b"HJ").unwrap(),
                t,
                true
            ),
            Ok(())
        );
        // Following suit cannot beat a trumped trick: any club is fine.
        assert_eq!(
            check_play(
                &cards("CJ CA"),
                &cards("CK HJ"),
                Card::parse(b"CJ").unwrap(),
                t,
                true
            ),
            Ok(())
        );
        // Void in the suit and in trump: anything goes.
        assert_eq!(
            check_play(
                &cards("DA SA"),
                &cards("CK"),
                Card::parse(b"SA").unwrap(),
                t,
                true
            ),
            Ok(())
        );
        // Leading is always legal.
        assert_eq!(
            check_play(&cards("DA"), &[], Card::parse(b"DA").unwrap(), t, true),
            Ok(())
        );
    }
}
