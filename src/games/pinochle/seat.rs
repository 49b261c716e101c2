//! Seats, the clockwise seat sets for 2 to 8 players, and team numbering.

/// A compass seat. The discriminant is the clockwise position among all eight seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

use Seat::*;

const SETS: [&[Seat]; 9] = [
    &[],
    &[],
    &[N, S],
    &[N, SE, SW],
    &[N, E, S, W],
    &[N, NE, SE, SW, NW],
    &[N, NE, SE, S, SW, NW],
    &[N, NE, E, SE, SW, W, NW],
    &[N, NE, E, SE, S, SW, W, NW],
];

impl Seat {
    pub const ALL: [Seat; 8] = [N, NE, E, SE, S, SW, W, NW];

    /// The seat letters as written in PPN (`N`, `NE`, ...).
    #[inline]
    pub fn as_str(self) -> &'static str {
        // A static table: the array literal was built on the stack per call.
        static NAMES: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
        NAMES[self as usize]
    }

    /// The seat's tag name (`North`, `Northeast`, ...).
    pub fn tag_name(self) -> &'static str {
        [
            "North",
            "Northeast",
            "East",
            "Southeast",
            "South",
            "Southwest",
            "West",
            "Northwest",
        ][self as usize]
    }

    /// Parses seat letters, ignoring ASCII case.
    pub fn parse(b: &[u8]) -> Option<Seat> {
        let mut up = [0u8; 2];
        if b.is_empty() || b.len() > 2 {
            return None;
        }
        for (d, s) in up.iter_mut().zip(b) {
            *d = s.to_ascii_uppercase();
        }
        Some(match &up[..b.len()] {
            b"N" => N,
            b"NE" => NE,
            b"E" => E,
            b"SE" => SE,
            b"S" => S,
            b"SW" => SW,
            b"W" => W,
            b"NW" => NW,
            _ => return None,
        })
    }

    /// Parses a seat tag name (`North`, ...) exactly as the spec spells it.
    pub fn from_tag_name(name: &[u8]) -> Option<Seat> {
        Seat::ALL
            .into_iter()
            .find(|s| s.tag_name().as_bytes() == name)
    }
}

/// The seats used by a game of `players` players, clockwise from North
/// (the spec's Seat Tags section), or `None` outside 2..=8.
pub fn seats_for(players: usize) -> Option<&'static [Seat]> {
    SETS.get(players).copied().filter(|s| !s.is_empty())
}

/// The smallest standard seat set that holds every seat in `present`.
pub fn players_for_seats(present: &[Seat]) -> Option<usize> {
    (2..=8).find(|&n| present.iter().all(|s| SETS[n].contains(s)))
}

/// Team number (1-based) of the seat at clockwise `position` (0 = North) when
/// `players` players form `teams` teams of alternating seats: team 1 holds North
/// and numbering proceeds clockwise, as the spec prescribes. `None` when the
/// players cannot be split evenly.
pub fn team_of(position: usize, players: usize, teams: usize) -> Option<u32> {
    if teams == 0 || !players.is_multiple_of(teams) || position >= players {
        return None;
    }
    Some((position % teams) as u32 + 1)
}

/// The number of teams a game has when no score tag says otherwise.
pub fn default_teams(players: usize) -> Option<usize> {
    match players {
        2 => Some(2),
        3 => Some(3),
        4 => Some(2),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_seats_in_any_case() {
        assert_eq!(Seat::parse(b"se"), Some(SE));
        assert_eq!(Seat::parse(b"W"), Some(W));
        assert_eq!(Seat::parse(b"X"), None);
        assert_eq!(Seat::parse(b""), None);
        assert_eq!(Seat::parse(b"NNE"), None);
        assert_eq!(Seat::from_tag_name(b"Southwest"), Some(SW));
        assert_eq!(Seat::from_tag_name(b"southwest"), None);
    }

    #[test]
    fn seat_sets_follow_the_spec() {
        assert_eq!(seats_for(4), Some(&[N, E, S, W][..]));
        assert_eq!(seats_for(3), Some(&[N, SE, SW][..]));
        assert_eq!(seats_for(7), Some(&[N, NE, E, SE, SW, W, NW][..]));
        assert_eq!(seats_for(1), None);
        assert_eq!(seats_for(9), None);
        assert_eq!(players_for_seats(&[N, E, S, W]), Some(4));
        assert_eq!(players_for_seats(&[N, SE]), Some(3));
        assert_eq!(players_for_seats(&[S, NE]), Some(6));
    }

    #[test]
    fn teams_alternate_from_north() {
        assert_eq!(team_of(0, 4, 2), Some(1));
        assert_eq!(team_of(1, 4, 2), Some(2));
        assert_eq!(team_of(2, 4, 2), Some(1));
        assert_eq!(team_of(3, 6, 3), Some(1));
        assert_eq!(team_of(4, 6, 3), Some(2));
        assert_eq!(team_of(1, 5, 2), None);
    }
}
