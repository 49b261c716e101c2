//! Rule 6 of `pinochle-rules.md` across hands: `GameScores` holds the game's
//! scores before the hand, and the hand's scores are added to them; so the
//! hand after `[Hand "n"]`, when it is `[Hand "n+1"]`, starts where hand n
//! ended: hand n's GameScores plus its HandScores (P064 when not). Only
//! values as written are compared (a hand's computed scores are not known to
//! the hand after it, which may be built on another thread).

use super::compute::{join, join_opt};
use crate::notation::pinochle_ppn::values::{self, ScoreList};

/// How the hand before ended, as written: its number and its score lists
/// (compared only when the next hand is numbered one more).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ended {
    number: i32,
    game: ScoreList,
    hand: ScoreList,
}

/// The end of a hand from its Hand number, GameScores and HandScores: `None`
/// unless all three are there, and when the hand has a Victor tag (the game
/// is over: the next hand begins another).
pub fn ended(
    number: Option<i32>,
    game: Option<&ScoreList>,
    hand: Option<&ScoreList>,
    victor: bool,
) -> Option<Ended> {
    if victor {
        return None;
    }
    Some(Ended {
        number: number?,
        game: game?.clone(),
        hand: hand?.clone(),
    })
}

/// [`ended`] from the tags' values as written (`victor`: a Victor tag's).
pub fn ended_from_text(
    number: Option<&[u8]>,
    game: Option<&[u8]>,
    hand: Option<&[u8]>,
    victor: Option<&[u8]>,
) -> Option<Ended> {
    ended(
        number.and_then(values::parse_i32),
        game.and_then(values::parse_scores).as_ref(),
        hand.and_then(values::parse_scores).as_ref(),
        victor.is_some(),
    )
}

/// The P064 message when the hand numbered `number`, whose GameScores are
/// `game`, follows `before` in the same game and does not start where it
/// ended. Nothing is compared unless every score is known, one per team
/// in all three lists, and their sums fit 32 bits; GameScores of all zeros
/// start a new game (files that number hands on across games).
pub fn check(
    before: Option<&Ended>,
    number: Option<i32>,
    game: Option<&[Option<i32>]>,
) -> Option<String> {
    let b = before?;
    if number? != b.number.checked_add(1)? {
        return None;
    }
    let game = game?;
    if game.len() != b.game.len()
        || game.len() != b.hand.len()
        || game.iter().all(|g| *g == Some(0))
    {
        return None;
    }
    let mut differs = false;
    for ((now, g), h) in game.iter().zip(&b.game).zip(&b.hand) {
        let end = (*g)?.checked_add((*h)?)?;
        differs |= (*now)? != end;
    }
    if !differs {
        return None;
    }
    // Every score is known here (checked above).
    let end: Vec<i32> = b
        .game
        .iter()
        .zip(&b.hand)
        .flat_map(|(g, h)| g.zip(*h).map(|(g, h)| g + h))
        .collect();
    Some(format!(
        "GameScores is {}, but hand {} ended at {} (its GameScores {} plus its HandScores {})",
        join_opt(game),
        b.number,
        join(&end),
        join_opt(&b.game),
        join_opt(&b.hand)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[i32]) -> ScoreList {
        v.iter().map(|x| Some(*x)).collect()
    }

    #[test]
    fn the_next_hand_starts_where_the_last_ended() {
        let b = ended(Some(3), Some(&s(&[100, -20])), Some(&s(&[29, 63])), false);
        assert_eq!(check(b.as_ref(), Some(4), Some(&s(&[129, 43]))), None);
        assert_eq!(
            check(b.as_ref(), Some(4), Some(&s(&[129, 44]))).unwrap(),
            "GameScores is 129:44, but hand 3 ended at 129:43 (its GameScores 100:-20 plus its HandScores 29:63)"
        );
        // Not the next hand of the same game, or not comparable: no check.
        assert_eq!(check(b.as_ref(), Some(1), Some(&s(&[0, 0]))), None);
        assert_eq!(check(b.as_ref(), Some(5), Some(&s(&[0, 0]))), None);
        assert_eq!(check(b.as_ref(), None, Some(&s(&[0, 0]))), None);
        assert_eq!(check(b.as_ref(), Some(4), Some(&[Some(1), None])), None);
        assert_eq!(check(b.as_ref(), Some(4), Some(&s(&[1, 2, 3]))), None);
        assert_eq!(check(None, Some(4), Some(&s(&[1, 2]))), None);
        // A new game numbered on, or after a hand with a Victor tag.
        assert_eq!(check(b.as_ref(), Some(4), Some(&s(&[0, 0]))), None);
        let over = ended(Some(3), Some(&s(&[100, -20])), Some(&s(&[29, 63])), true);
        assert_eq!(over, None);
    }

    #[test]
    fn nothing_is_compared_without_every_score() {
        let unknown: ScoreList = [Some(0), None].into_iter().collect();
        for (game, hand) in [
            (unknown.clone(), s(&[1, 1])),
            (s(&[0, 0]), unknown),
            (s(&[0, 0]), s(&[1, 1, 1])),
            (s(&[i32::MAX, 0]), s(&[1, 1])),
        ] {
            let b = ended(Some(1), Some(&game), Some(&hand), false);
            assert_eq!(check(b.as_ref(), Some(2), Some(&s(&[7, 7]))), None);
        }
        assert!(ended(Some(1), Some(&s(&[0, 0])), None, false).is_none());
        assert!(ended(None, Some(&s(&[0, 0])), Some(&s(&[1, 1])), false).is_none());
        assert_eq!(
            ended_from_text(Some(b"2"), Some(b"10:20"), Some(b"-5:7"), None),
            ended(Some(2), Some(&s(&[10, 20])), Some(&s(&[-5, 7])), false)
        );
        assert_eq!(
            ended_from_text(Some(b"2"), Some(b"10:20"), Some(b"-5:7"), Some(b"1")),
            None
        );
    }
}
