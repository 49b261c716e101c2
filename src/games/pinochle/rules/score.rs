//! Scoring a hand under a profile (the "Scoring a hand" rules).

use smallvec::SmallVec;

use super::profile::Profile;

/// One number per team, in team order (no allocation for up to four teams).
pub type PerTeam = SmallVec<[i32; 4]>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Saved,
    Set,
    NoBoard,
    NoTrump,
}

impl Outcome {
    /// As the `Result` tag writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Saved => "Saved",
            Outcome::Set => "Set",
            Outcome::NoBoard => "No Board",
            Outcome::NoTrump => "No Trump",
        }
    }
}

/// What scoring needs, per team in team order (team 1 holds North).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandFacts {
    /// 0-based team of the declarer.
    pub declarer_team: usize,
    pub contract: i32,
    /// Summed meld of each team's players.
    pub meld: PerTeam,
    /// Points each team took in tricks; `None` when the hand was not played.
    pub play: Option<PerTeam>,
    /// The declarer holds no marriage, so cannot name trump.
    pub declarer_without_marriage: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandScore {
    pub outcome: Outcome,
    /// What the `MeldScores`, `PlayScores` and `HandScores` tags hold.
    pub meld_scores: PerTeam,
    pub play_scores: PerTeam,
    pub hand_scores: PerTeam,
}

/// The outcome a hand has before play: `No Trump`, `No Board`, or `None` when
/// it is to be played.
pub fn unplayed_outcome(f: &HandFacts, p: &Profile) -> Option<Outcome> {
    if f.declarer_without_marriage {
        Some(Outcome::NoTrump)
    } else if f.meld[f.declarer_team] < p.min_meld {
        Some(Outcome::NoBoard)
    } else {
        None
    }
}

/// Scores a hand. `None` when it should have been played but no play is
/// given, or when the declaring team scores minus a contract of `i32::MIN`
/// (not a 32-bit number).
pub fn score(f: &HandFacts, p: &Profile) -> Option<HandScore> {
    let teams = f.meld.len();
    let lost = f.contract.checked_neg();
    if let Some(outcome) = unplayed_outcome(f, p) {
        // Not played: the declaring team loses the contract; the others score
        // their meld if it reaches min_meld.
        let meld_scores: PerTeam = (0..teams)
            .map(|t| {
                if t != f.declarer_team && f.meld[t] >= p.min_meld {
                    f.meld[t]
                } else {
                    0
                }
            })
            .collect();
        let hand_scores = (0..teams)
            .map(|t| {
                if t == f.declarer_team {
                    lost
                } else {
                    Some(meld_scores[t])
                }
            })
            .collect::<Option<_>>()?;
        return Some(HandScore {
            outcome,
            meld_scores,
            play_scores: smallvec::smallvec![0; teams],
            hand_scores,
        });
    }
    let play = f.play.as_ref()?;
    let saved = |t: usize| play[t] >= p.min_play_to_save;
    let meld_scores: PerTeam = (0..teams)
        .map(|t| if saved(t) { f.meld[t] } else { 0 })
        .collect();
    let play_scores: PerTeam = (0..teams)
        .map(|t| if saved(t) { play[t] } else { 0 })
        .collect();
    let declared = meld_scores[f.declarer_team] + play_scores[f.declarer_team];
    let outcome = if declared >= f.contract {
        Outcome::Saved
    } else {
        Outcome::Set
    };
    let hand_scores = (0..teams)
        .map(|t| {
            if t == f.declarer_team && outcome == Outcome::Set {
                lost
            } else {
                Some(meld_scores[t] + play_scores[t])
            }
        })
        .collect::<Option<_>>()?;
    Some(HandScore {
        outcome,
        meld_scores,
        play_scores,
        hand_scores,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(declarer_team: usize, contract: i32, meld: &[i32], play: Option<&[i32]>) -> HandFacts {
        HandFacts {
            declarer_team,
            contract,
            meld: meld.into(),
            play: play.map(|p| p.into()),
            declarer_without_marriage: false,
        }
    }

    fn s(f: &HandFacts) -> (&'static str, Vec<i32>, Vec<i32>, Vec<i32>) {
        let h = score(f, &Profile::standard()).unwrap();
        (
            h.outcome.as_str(),
            h.meld_scores.to_vec(),
            h.play_scores.to_vec(),
            h.hand_scores.to_vec(),
        )
    }

    #[test]
    fn saved_and_set() {
        assert_eq!(
            s(&facts(1, 65, &[21, 44], Some(&[18, 32]))),
            ("Saved", vec![0, 44], vec![0, 32], vec![0, 76])
        );
        assert_eq!(
            s(&facts(0, 70, &[40, 30], Some(&[25, 25]))),
            ("Set", vec![40, 30], vec![25, 25], vec![-70, 55])
        );
        // Exactly the contract saves.
        assert_eq!(s(&facts(0, 65, &[40, 30], Some(&[25, 25]))).0, "Saved");
    }

    #[test]
    fn minimum_20_play_points_to_save_meld() {
        // Declaring team with 19 play points keeps neither meld nor play: set.
        assert_eq!(
            s(&facts(0, 50, &[60, 10], Some(&[19, 31]))),
            ("Set", vec![0, 10], vec![0, 31], vec![-50, 41])
        );
        // 20 is enough.
        assert_eq!(
            s(&facts(0, 50, &[60, 10], Some(&[20, 30]))),
            ("Saved", vec![60, 10], vec![20, 30], vec![80, 40])
        );
    }

    #[test]
    fn no_trump_and_no_board() {
        let mut f = facts(0, 50, &[30, 25], None);
        f.declarer_without_marriage = true;
        assert_eq!(s(&f), ("No Trump", vec![0, 25], vec![0, 0], vec![-50, 25]));
        // Other team's meld under 20 scores nothing.
        let f = facts(1, 55, &[19, 12], None);
        assert_eq!(s(&f), ("No Board", vec![0, 0], vec![0, 0], vec![0, -55]));
        let f = facts(1, 55, &[20, 12], Some(&[25, 25]));
        assert_eq!(s(&f), ("No Board", vec![20, 0], vec![0, 0], vec![20, -55]));
        // The declaring team's meld at exactly min_meld (20) is a board: the
        // hand is played (rule 5: No Board is meld below 20).
        let f = facts(1, 55, &[12, 20], Some(&[15, 35]));
        assert_eq!(s(&f), ("Saved", vec![0, 20], vec![0, 35], vec![0, 55]));
        assert_eq!(unplayed_outcome(&f, &Profile::standard()), None);
    }

    #[test]
    fn three_teams_in_team_order() {
        assert_eq!(
            s(&facts(2, 50, &[10, 30, 40], Some(&[10, 20, 20]))),
            ("Saved", vec![0, 30, 40], vec![0, 20, 20], vec![0, 50, 60])
        );
    }

    #[test]
    fn played_hand_without_play_cannot_be_scored() {
        assert_eq!(
            score(&facts(0, 50, &[40, 0], None), &Profile::standard()),
            None
        );
    }
}
