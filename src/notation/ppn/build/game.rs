//! Rule 6 of `pinochle-rules.md` across hands: `GameScores` holds the game's
//! scores before the hand, and the hand's scores are added to them; so the
//! hand after `[Hand "n"]`, when it is `[Hand "n+1"]`, starts where hand n
//! ended: hand n's GameScores plus its HandScores (P064 when not). Only
//! values as written are compared (a hand's computed scores are not known to
//! the hand after it, which may be built on another thread).

use smallvec::SmallVec;

use crate::notation::ppn::values::{self, ScoreList};

type Scores = SmallVec<[i32; 4]>;

/// How the hand before ended, when it says so completely.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ended {
    number: i32,
    game: Scores,
    hand: Scores,
    end: Scores,
}

fn known(s: &[Option<i32>]) -> Option<Scores> {
    s.iter().copied().collect()
}

fn join(v: &[i32]) -> String {
    let parts: Vec<String> = v.iter().map(i32::to_string).collect();
    parts.join(":")
}

/// The end of a hand from its Hand number, GameScores and HandScores: `None`
/// unless all three are there with every score known, one per team.
pub fn ended(
    number: Option<i32>,
    game: Option<&[Option<i32>]>,
    hand: Option<&[Option<i32>]>,
) -> Option<Ended> {
    let (game, hand) = (known(game?)?, known(hand?)?);
    if game.len() != hand.len() {
        return None;
    }
    let end = game
        .iter()
        .zip(&hand)
        .map(|(g, h)| g.checked_add(*h))
        .collect::<Option<Scores>>()?;
    Some(Ended {
        number: number?,
        game,
        hand,
        end,
    })
}

/// [`ended`] from the tags' values as written.
pub fn ended_from_text(
    number: Option<&[u8]>,
    game: Option<&[u8]>,
    hand: Option<&[u8]>,
) -> Option<Ended> {
    let game: Option<ScoreList> = game.and_then(values::parse_scores);
    let hand: Option<ScoreList> = hand.and_then(values::parse_scores);
    ended(
        number.and_then(values::parse_i32),
        game.as_deref(),
        hand.as_deref(),
    )
}

/// The P064 message when the hand numbered `number`, whose GameScores are
/// `game`, follows `before` in the same game and does not start where it ended.
pub fn check(
    before: Option<&Ended>,
    number: Option<i32>,
    game: Option<&[Option<i32>]>,
) -> Option<String> {
    let b = before?;
    if number? != b.number.checked_add(1)? {
        return None;
    }
    let game = known(game?)?;
    if game.len() != b.end.len() || game == b.end {
        return None;
    }
    Some(format!(
        "GameScores is {}, but hand {} ended at {} (its GameScores {} plus its HandScores {})",
        join(&game),
        b.number,
        join(&b.end),
        join(&b.game),
        join(&b.hand)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[i32]) -> Vec<Option<i32>> {
        v.iter().map(|x| Some(*x)).collect()
    }

    #[test]
    fn the_next_hand_starts_where_the_last_ended() {
        let b = ended(Some(3), Some(&s(&[100, -20])), Some(&s(&[29, 63])));
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
    }

    #[test]
    fn a_hand_ends_only_when_it_says_all() {
        assert!(ended(Some(1), Some(&s(&[0, 0])), None).is_none());
        assert!(ended(None, Some(&s(&[0, 0])), Some(&s(&[1, 1]))).is_none());
        assert!(ended(Some(1), Some(&[Some(0), None]), Some(&s(&[1, 1]))).is_none());
        assert!(ended(Some(1), Some(&s(&[0, 0])), Some(&s(&[1, 1, 1]))).is_none());
        assert!(ended(Some(1), Some(&s(&[i32::MAX, 0])), Some(&s(&[1, 1]))).is_none());
        assert_eq!(
            ended_from_text(Some(b"2"), Some(b"10:20"), Some(b"-5:7")),
            ended(Some(2), Some(&s(&[10, 20])), Some(&s(&[-5, 7])))
        );
    }
}
