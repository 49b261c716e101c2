//! Rules profiles: every number `pinochle-rules.md` marks configurable.
//! The default is `Standard`; users pass their own as TOML (`--rules FILE`).

use serde::{Deserialize, Serialize};

/// Points for 1, 2, 3 and 4 complete sets of a meld.
pub type SetPoints = [i32; 4];

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Melds {
    pub run: SetPoints,
    pub royal_marriage: SetPoints,
    pub marriage: SetPoints,
    pub aces_around: SetPoints,
    pub kings_around: SetPoints,
    pub queens_around: SetPoints,
    pub jacks_around: SetPoints,
    pub pinochle: SetPoints,
}

impl Default for Melds {
    fn default() -> Self {
        Melds {
            run: [15, 150, 225, 300],
            royal_marriage: [4, 8, 12, 16],
            marriage: [2, 4, 6, 8],
            aces_around: [10, 100, 150, 200],
            kings_around: [8, 80, 120, 160],
            queens_around: [6, 60, 90, 120],
            jacks_around: [4, 40, 60, 80],
            pinochle: [4, 30, 60, 90],
        }
    }
}

/// A rules profile for double-deck four-handed partnership pinochle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Profile {
    /// The name that `Scoring` or `Competition` tags use to pick this profile.
    pub name: String,
    /// Other names that pick it.
    pub aliases: Vec<String>,
    pub min_bid: i32,
    /// A player able to beat the winning card must (following suit or trumping).
    pub must_head: bool,
    /// Points of an ace, a ten and a king in tricks (queens and jacks count 0).
    pub counter_points: i32,
    /// Extra points for the last trick.
    pub last_trick_bonus: i32,
    /// A team with fewer play points scores neither play nor meld.
    pub min_play_to_save: i32,
    /// A team needs this much meld to score it when the hand is not played,
    /// and the declaring team needs it to play the hand at all (else No Board).
    pub min_meld: i32,
    pub melds: Melds,
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            name: "Standard".into(),
            aliases: vec!["Double-deck Four-handed".into()],
            min_bid: 50,
            must_head: true,
            counter_points: 1,
            last_trick_bonus: 2,
            min_play_to_save: 20,
            min_meld: 20,
            melds: Melds::default(),
        }
    }
}

impl Profile {
    pub fn standard() -> Profile {
        Profile::default()
    }

    /// Reads a profile from TOML; keys left out keep the Standard values.
    /// Its numbers must lie within
    /// [`Profile::LIMIT`] of zero, so that every score the rules add up from
    /// them fits a 32-bit integer: a hand's score is at most a team's meld
    /// (two seats, ten table entries each: 20 x LIMIT) plus a complete play
    /// (20 tricks of four counters and the bonus: 81 x LIMIT).
    pub fn from_toml(text: &str) -> Result<Profile, String> {
        let p: Profile = toml::from_str(text).map_err(|e| e.to_string())?;
        p.check_limits()?;
        Ok(p)
    }

    /// The largest magnitude a profile's number may have.
    pub const LIMIT: i32 = 1_000_000;

    fn check_limits(&self) -> Result<(), String> {
        let m = &self.melds;
        let scalars = [
            ("min_bid", self.min_bid),
            ("counter_points", self.counter_points),
            ("last_trick_bonus", self.last_trick_bonus),
            ("min_play_to_save", self.min_play_to_save),
            ("min_meld", self.min_meld),
        ];
        let tables = [
            ("melds.run", m.run),
            ("melds.royal_marriage", m.royal_marriage),
            ("melds.marriage", m.marriage),
            ("melds.aces_around", m.aces_around),
            ("melds.kings_around", m.kings_around),
            ("melds.queens_around", m.queens_around),
            ("melds.jacks_around", m.jacks_around),
            ("melds.pinochle", m.pinochle),
        ];
        let numbers = scalars.into_iter().chain(
            tables
                .iter()
                .flat_map(|&(k, t)| t.into_iter().map(move |v| (k, v))),
        );
        for (key, v) in numbers {
            if v.unsigned_abs() > Self::LIMIT as u32 {
                return Err(format!(
                    "{key} has {v}: numbers in a rules profile must lie between -{l} and {l}",
                    l = Self::LIMIT
                ));
            }
        }
        Ok(())
    }

    /// Whether a `Scoring` or `Competition` value names this profile.
    pub fn answers_to(&self, value: &str) -> bool {
        let v = value.trim();
        v.eq_ignore_ascii_case(&self.name) || self.aliases.iter().any(|a| v.eq_ignore_ascii_case(a))
    }

    /// Total points in play: 48 counters of a double deck times their value, plus the bonus.
    pub fn total_play_points(&self) -> i32 {
        48 * self.counter_points + self.last_trick_bonus
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_numbers() {
        let p = Profile::standard();
        assert_eq!(p.total_play_points(), 50);
        assert_eq!(p.melds.run, [15, 150, 225, 300]);
        assert!(p.answers_to("standard"));
        assert!(p.answers_to("Double-deck Four-handed"));
        assert!(!p.answers_to("Yahoo.com"));
    }

    #[test]
    fn toml_overrides_keep_the_rest() {
        let p = Profile::from_toml(
            "name = \"House\"\nmin_bid = 60\nmust_head = false\n[melds]\nrun = [15, 150, 225, 300]\npinochle = [4, 30, 90, 120]\n",
        )
        .unwrap();
        assert_eq!(p.name, "House");
        assert_eq!(p.min_bid, 60);
        assert!(!p.must_head);
        assert_eq!(p.melds.pinochle, [4, 30, 90, 120]);
        assert_eq!(p.melds.aces_around, [10, 100, 150, 200]);
        assert_eq!(p.min_play_to_save, 20);
        let e = Profile::from_toml("min_bids = 3").unwrap_err();
        assert!(e.contains("unknown field `min_bids`"), "{e}");
    }

    #[test]
    fn numbers_out_of_range_are_refused() {
        let e = Profile::from_toml("counter_points = 2000000000").unwrap_err();
        assert_eq!(
            e,
            "counter_points has 2000000000: numbers in a rules profile must lie between -1000000 and 1000000"
        );
        let e = Profile::from_toml("[melds]\npinochle = [4, 30, 60, -1000001]").unwrap_err();
        assert!(e.starts_with("melds.pinochle has -1000001:"), "{e}");
        let p = Profile::from_toml("min_meld = -1000000\ncounter_points = 1000000").unwrap();
        assert_eq!((p.min_meld, p.counter_points), (-1_000_000, 1_000_000));
    }
}
