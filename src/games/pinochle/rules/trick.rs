//! Who wins a trick, what it is worth, and which cards a player may play.

use super::meld::{Counts, counts};
use super::profile::Profile;
use crate::games::pinochle::{Card, Rank, Suit};

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

/// Whether a card counts in tricks: A, T and K.
#[inline]
pub fn is_counter(card: Card) -> bool {
    matches!(card.rank, Rank::A | Rank::T | Rank::K)
}

/// Points of a trick: counters (A, T, K) plus the last-trick bonus.
pub fn points(cards: &[Card], last: bool, p: &Profile) -> i32 {
    let counters = cards.iter().filter(|&&c| is_counter(c)).count() as i32;
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
/// A count saturates at 255, which then stands for "255 or more" (only a
/// malformed Deal gives a player that many copies of a card).
pub type Holding = [[u8; 8]; 4];

pub fn holding(hand: &[Card]) -> Holding {
    holding_of_counts(&counts(hand))
}

/// [`holding`] of cards already counted.
pub fn holding_of_counts(c: &Counts) -> Holding {
    let mut h = [[0u8; 8]; 4];
    for (hs, cs) in h.iter_mut().zip(c) {
        for (n, &k) in hs.iter_mut().zip(cs) {
            *n = k.min(u8::MAX.into()) as u8;
        }
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
    // A suit's counts as one word, rank `r` in byte `r`.
    let word = |s: Suit| u64::from_le_bytes(held[s as usize]);
    let has = |s: Suit| word(s) != 0;
    // Whether a held card of suit `s` beats `best`: a lower rank (a better
    // card) of its suit, or any card of trump over another suit.
    let can_beat = |s: Suit| {
        if s == best.suit {
            word(s) & ((1u64 << (8 * best.rank as u32)) - 1) != 0
        } else {
            Some(s) == trump && has(s)
        }
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

/// [`check_held`] after an unknown card (`?`) in the trick, where only a
/// violation that stands whatever the unknown cards were is returned. The
/// card winning is unknown (it could be one that no card beats: the ace of
/// trump, or of the suit led without trump), so no heading is asked. And
/// `unseen` of the unknown cards were the player's own (in a trick of more
/// than four cards), so it may hold any `unseen` fewer cards than `held`
/// counts (though still `card`): it must follow when it holds the suit led
/// more than `unseen` times, and trump when void in it (no card of it
/// counted) and holding trump more than `unseen` times.
pub fn check_held_after_unknown(
    held: &Holding,
    led: Suit,
    card: Card,
    trump: Option<Suit>,
    unseen: u32,
) -> Result<(), Violation> {
    let v = check_held(held, led, card, card, trump, false);
    let count = |s: Suit| -> u32 { held[s as usize].iter().map(|&n| u32::from(n)).sum() };
    let stands = match v {
        Err(Violation::MustFollow) => count(led) > unseen,
        Err(Violation::MustTrump) => trump.is_some_and(|t| count(t) > unseen),
        Ok(()) | Err(Violation::MustHead) => true,
    };
    if stands { v } else { Ok(()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RANKS: [Rank; 6] = Rank::ALL;
    const SUITS: [Suit; 4] = Suit::DOT_ORDER;

    /// `check_held` as the rules say it, card by card.
    fn check_held_by_cards(
        held: &Holding,
        led: Suit,
        best: Card,
        card: Card,
        trump: Option<Suit>,
        must_head: bool,
    ) -> Result<(), Violation> {
        let cards = |s: Suit| {
            RANKS
                .into_iter()
                .filter(move |&r| held[s as usize][r as usize] > 0)
                .map(move |rank| Card { suit: s, rank })
        };
        let has = |s: Suit| cards(s).next().is_some();
        let can_beat = |s: Suit| cards(s).any(|c| beats(c, best, trump));
        let must = if has(led) {
            Some((led, Violation::MustFollow))
        } else {
            trump.filter(|&t| has(t)).map(|t| (t, Violation::MustTrump))
        };
        match must {
            Some((s, _)) if card.suit == s => {
                if must_head && !beats(card, best, trump) && can_beat(s) {
                    Err(Violation::MustHead)
                } else {
                    Ok(())
                }
            }
            Some((_, v)) => Err(v),
            None => Ok(()),
        }
    }

    #[test]
    fn held_cards_are_checked_as_card_by_card() {
        // Every led suit, winning card, card played, trump and heading
        // rule, against holdings from a fixed generator (each suit empty,
        // one card, or several).
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let all: Vec<Card> = SUITS
            .into_iter()
            .flat_map(|suit| RANKS.into_iter().map(move |rank| Card { suit, rank }))
            .collect();
        let mut checked = [0usize; 4];
        for _ in 0..300 {
            let mut held: Holding = [[0; 8]; 4];
            for suit in &mut held {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let bits = match x % 4 {
                    0 => 0,
                    1 => 1 << ((x >> 8) % 6),
                    _ => (x >> 8) & 0x3f,
                };
                for (r, n) in suit[..6].iter_mut().enumerate() {
                    *n = ((bits >> r) & 1) as u8 * (1 + (x >> (20 + r)) as u8 % 2);
                }
            }
            for led in SUITS {
                for &best in &all {
                    for &card in &all {
                        for trump in [None, Some(Suit::H), Some(led)] {
                            for must_head in [false, true] {
                                let want =
                                    check_held_by_cards(&held, led, best, card, trump, must_head);
                                let got = check_held(&held, led, best, card, trump, must_head);
                                assert_eq!(got, want, "{held:?} {led:?} {best:?} {card:?}");
                                checked[match want {
                                    Ok(()) => 0,
                                    Err(Violation::MustFollow) => 1,
                                    Err(Violation::MustTrump) => 2,
                                    Err(Violation::MustHead) => 3,
                                }] += 1;
                            }
                        }
                    }
                }
            }
        }
        // Every outcome was met.
        assert!(checked.iter().all(|&n| n > 1000), "{checked:?}");
    }

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
        // A profile's own counter value and bonus (10 a counter, 10 last).
        let p = Profile {
            counter_points: 10,
            last_trick_bonus: 10,
            ..Profile::standard()
        };
        assert_eq!(points(&cards("HA HT HK HQ"), false, &p), 30);
        assert_eq!(points(&cards("HA HT HK HQ"), true, &p), 40);
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
