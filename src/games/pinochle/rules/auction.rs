//! The bidding rules of `pinochle-rules.md`: the player on the dealer's left
//! calls first, bids rise from the profile's minimum, `Pass` leaves the
//! auction for good (later rounds show `-` for that seat), and the auction
//! ends when one bidder is left (or everyone has passed).

use super::{MAX_ISSUES, PLAYERS};

/// A call of the auction, as the rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Call {
    Bid(i32),
    Pass,
    /// `?` or a call that could not be read.
    Unknown,
}

/// Something an auction does that the rules do not allow. `call` is the
/// index of the call in the auction's calls (`-` entries are not calls).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AuctionIssue {
    /// The auction starts with `first`, not the dealer's left (`expected`).
    WrongStart { first: usize, expected: usize },
    /// The first bid is below the profile's minimum.
    LowOpening { call: usize, bid: i32, min: i32 },
    /// A bid not above the highest bid before it.
    NotHigher { call: usize, bid: i32, high: i32 },
    /// A call by a seat that had passed.
    AfterPass { call: usize, seat: usize },
    /// `-` in `round` for a seat that had not passed, at `pos` among all
    /// entries (`-` included).
    OutWithoutPass {
        seat: usize,
        round: usize,
        pos: usize,
    },
    /// A call after the auction was over.
    AfterEnd { call: usize },
    /// The auction stops (without `*`) while these seats can still call.
    Unfinished { still_in: Vec<usize> },
}

/// A call as the rules engine reads an auction: the caller (`None` when the
/// auction's first seat is unknown), its position among the auction's
/// entries (`-` included) from the first, and the call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatCall {
    pub seat: Option<usize>,
    pub pos: usize,
    pub call: Call,
}

/// What an auction comes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The declarer (`None` when the seats are unknown) at the contract.
    Won(Option<usize>, i32),
    /// The calls stop (`*`, or no more) while two or more seats are still
    /// in: the seat in with the latest bid, at it. Taken as the winner
    /// unless the hand was terminated (then the auction never finished).
    CutShort(usize, i32),
    /// Every seat passed before any bid: the hand is thrown in.
    ThrownIn,
    /// No bid counted, and not every seat is known to have passed (calls
    /// unknown, or the auction stops before a bid).
    NoBid,
}

/// The declarer and contract of an auction, as `pinochle-rules.md` says:
/// "the last remaining bidder wins at their highest bid". The calls count
/// as [`auction_issues`] reads them: a seat that passed (or shows `-`) is
/// out for good and its later calls do not count, nor do calls after the
/// auction is over; a `?` changes nothing. In a legal auction that is the
/// highest bid. While two or more seats are in (an auction cut short), the
/// seat in with the latest bid wins; with no bidder left in (or the seats
/// unknown), the highest bid that counted (the first to make it). With the
/// seats unknown, four passes and nothing else are a hand thrown in.
pub fn auction_outcome(calls: &[SeatCall]) -> Outcome {
    let mut table = Table::default();
    // Each seat's highest bid, and the order of its latest one (0: none).
    let mut best = [0i32; PLAYERS];
    let mut latest = [0usize; PLAYERS];
    let mut high: Option<(Option<usize>, i32)> = None;
    // Calls of unknown seats: passes, and whether any was unknown.
    let (mut unseated_passes, mut unseated_unknown) = (0usize, false);
    for (i, c) in calls.iter().enumerate() {
        if table.over(high.is_some()) {
            break;
        }
        let Some(seat) = c.seat else {
            match c.call {
                Call::Bid(b) => high = Some((None, high.map_or(b, |(_, h)| h.max(b)))),
                Call::Pass => unseated_passes += 1,
                Call::Unknown => unseated_unknown = true,
            }
            continue;
        };
        let start = (seat + PLAYERS - c.pos % PLAYERS) % PLAYERS;
        table.dashes_before(c.pos, start, |_, _| {});
        if !table.is_in(seat) {
            continue;
        }
        match c.call {
            Call::Pass => table.pass(seat),
            Call::Bid(b) => {
                best[seat] = if latest[seat] == 0 {
                    b
                } else {
                    best[seat].max(b)
                };
                latest[seat] = i + 1;
                if high.is_none_or(|(_, h)| b > h) {
                    high = Some((Some(seat), b));
                }
            }
            Call::Unknown => {}
        }
    }
    let winner = (0..PLAYERS)
        .filter(|&s| table.is_in(s) && latest[s] > 0)
        .max_by_key(|&s| latest[s])
        .map(|s| (Some(s), best[s]))
        .or(high);
    let cut_short = !table.over(high.is_some()) && table.still_in >= 2;
    match winner {
        Some((Some(seat), bid)) if cut_short && table.is_in(seat) => Outcome::CutShort(seat, bid),
        Some((seat, bid)) => Outcome::Won(seat, bid),
        None if table.still_in == 0 || (unseated_passes >= PLAYERS && !unseated_unknown) => {
            Outcome::ThrownIn
        }
        None => Outcome::NoBid,
    }
}

/// Who is still in an auction as its entries come, read the same way for
/// the declarer ([`auction_outcome`]) and for the checks
/// ([`auction_issues`]): a seat that passes, or shows `-`, is out for good.
struct Table {
    passed: [bool; PLAYERS],
    still_in: usize,
    /// The position of the next entry (`-` included) not yet read.
    next: usize,
}

impl Default for Table {
    fn default() -> Self {
        Table {
            passed: [false; PLAYERS],
            still_in: PLAYERS,
            next: 0,
        }
    }
}

impl Table {
    /// Reads the `-` entries before the call at `pos` (the auction's first
    /// entry being `start`'s): each counts its seat out, and `out(seat,
    /// pos)` hears of those that had not passed.
    fn dashes_before(&mut self, pos: usize, start: usize, mut out: impl FnMut(usize, usize)) {
        for gap in self.next..pos {
            let seat = (start + gap) % PLAYERS;
            if self.is_in(seat) {
                self.pass(seat);
                out(seat, gap);
            }
        }
        self.next = pos + 1;
    }

    fn is_in(&self, seat: usize) -> bool {
        !self.passed[seat]
    }

    /// `seat`, which is in, leaves the auction.
    fn pass(&mut self, seat: usize) {
        self.passed[seat] = true;
        self.still_in -= 1;
    }

    /// Whether the auction is over: every seat out, or one left in once a
    /// bid has counted.
    fn over(&self, bid_counted: bool) -> bool {
        self.still_in == 0 || (self.still_in == 1 && bid_counted)
    }
}

/// Checks `calls`, each `(position, call)` where position counts every
/// entry of the auction (`-` included) from the first, whose seat is
/// `start`; seats are clockwise positions `0..PLAYERS`. Stops at the first
/// unknown call (what follows cannot be judged) and after the first call
/// made when the auction was already over. Lists [`MAX_ISSUES`] issues at
/// most (an auction can hold millions of calls) and returns how many more
/// there were.
pub fn auction_issues(
    calls: impl IntoIterator<Item = (usize, Call)>,
    start: usize,
    dealer: Option<usize>,
    min_bid: i32,
    terminated: bool,
    out: &mut Vec<AuctionIssue>,
) -> u64 {
    let mut unlisted = 0u64;
    let mut note = |issue: AuctionIssue| {
        if out.len() < MAX_ISSUES {
            out.push(issue);
        } else {
            unlisted += 1;
        }
    };
    if let Some(d) = dealer
        && (d + 1) % PLAYERS != start
    {
        note(AuctionIssue::WrongStart {
            first: start,
            expected: (d + 1) % PLAYERS,
        });
    }
    let mut table = Table::default();
    let mut high: Option<i32> = None;
    for (i, (pos, call)) in calls.into_iter().enumerate() {
        if call == Call::Unknown {
            return unlisted;
        }
        if table.over(high.is_some()) {
            note(AuctionIssue::AfterEnd { call: i });
            return unlisted;
        }
        table.dashes_before(pos, start, |seat, gap| {
            note(AuctionIssue::OutWithoutPass {
                seat,
                round: gap / PLAYERS + 1,
                pos: gap,
            })
        });
        let seat = (start + pos) % PLAYERS;
        if !table.is_in(seat) {
            note(AuctionIssue::AfterPass { call: i, seat });
            continue;
        }
        match call {
            Call::Pass => table.pass(seat),
            Call::Bid(bid) => {
                match high {
                    Some(h) if bid <= h => note(AuctionIssue::NotHigher {
                        call: i,
                        bid,
                        high: h,
                    }),
                    None if bid < min_bid => note(AuctionIssue::LowOpening {
                        call: i,
                        bid,
                        min: min_bid,
                    }),
                    _ => {}
                }
                high = Some(high.map_or(bid, |h| h.max(bid)));
            }
            Call::Unknown => unreachable!("returned above"),
        }
    }
    if !table.over(high.is_some()) && !terminated {
        let still_in = (0..PLAYERS).filter(|&s| table.is_in(s)).collect();
        note(AuctionIssue::Unfinished { still_in });
    }
    unlisted
}

#[cfg(test)]
mod tests {
    use super::*;
    use AuctionIssue::*;
    use Call::*;

    /// Issues of an auction written as in PPN, from seat 0 (dealer 3).
    fn issues(text: &str, terminated: bool) -> Vec<AuctionIssue> {
        let calls: Vec<(usize, Call)> = text
            .split_whitespace()
            .enumerate()
            .filter(|(_, t)| *t != "-")
            .map(|(pos, t)| {
                let call = match t {
                    "Pass" => Pass,
                    "?" => Unknown,
                    b => Bid(b.parse().unwrap()),
                };
                (pos, call)
            })
            .collect();
        let mut out = Vec::new();
        auction_issues(calls, 0, Some(3), 50, terminated, &mut out);
        out
    }

    /// The winner of an auction written as in PPN, from seat 0.
    fn winner(text: &str) -> Option<(Option<usize>, i32)> {
        match outcome(text) {
            Outcome::Won(seat, bid) => Some((seat, bid)),
            Outcome::CutShort(seat, bid) => Some((Some(seat), bid)),
            _ => None,
        }
    }

    fn outcome(text: &str) -> Outcome {
        let calls: Vec<SeatCall> = text
            .split_whitespace()
            .enumerate()
            .filter(|(_, t)| *t != "-")
            .map(|(pos, t)| SeatCall {
                seat: Some(pos % PLAYERS),
                pos,
                call: match t {
                    "Pass" => Pass,
                    "?" => Unknown,
                    b => Bid(b.parse().unwrap()),
                },
            })
            .collect();
        auction_outcome(&calls)
    }

    #[test]
    fn the_last_remaining_bidder_wins_at_their_highest_bid() {
        // Legal auctions: the highest bid.
        assert_eq!(
            winner("Pass 52 59 60 - Pass 65 70 - - Pass"),
            Some((Some(3), 70))
        );
        assert_eq!(winner("Pass Pass Pass 50"), Some((Some(3), 50)));
        assert_eq!(winner("Pass Pass Pass Pass"), None);
        assert_eq!(winner(""), None);
        // A bid that does not rise: the seat left in wins, at its own
        // highest bid, not the seat that passed after the highest bid.
        assert_eq!(winner("60 55 Pass Pass Pass"), Some((Some(1), 55)));
        assert_eq!(winner("50 55 Pass Pass 54 Pass"), Some((Some(0), 54)));
        assert_eq!(winner("60 Pass Pass Pass"), Some((Some(0), 60)));
        assert_eq!(winner("60 61 Pass Pass 58 Pass"), Some((Some(0), 60)));
        // An equal bid: the seat left in.
        assert_eq!(winner("50 50 Pass Pass Pass"), Some((Some(1), 50)));
        assert_eq!(winner("50 50 Pass Pass 50 Pass"), Some((Some(0), 50)));
        // A seat that passed is out: its later bid does not count.
        assert_eq!(winner("Pass 50 51 Pass 70 52 Pass"), Some((Some(1), 52)));
        // `-` for a seat that had not passed counts it out.
        assert_eq!(winner("50 51 Pass Pass - 52"), Some((Some(1), 52)));
        // Long auctions: seats by position, round after round.
        assert_eq!(
            winner("50 51 52 53 54 55 56 57 58 59 60 61 62 Pass Pass Pass"),
            Some((Some(0), 62))
        );
        assert_eq!(
            winner("50 51 52 53 54 55 56 57 Pass Pass 60 61 - - 62 Pass"),
            Some((Some(2), 62))
        );
        // Calls after the auction is over do not count.
        assert_eq!(winner("50 Pass Pass Pass 55"), Some((Some(0), 50)));
        assert_eq!(winner("50 Pass Pass Pass Pass"), Some((Some(0), 50)));
        // Cut short with two or more in: the latest bid of a seat in.
        assert_eq!(winner("50 51"), Some((Some(1), 51)));
        assert_eq!(winner("50 51 49"), Some((Some(2), 49)));
        assert_eq!(winner("50 51 Pass Pass 49"), Some((Some(0), 50)));
        // A `?` changes nothing.
        assert_eq!(winner("50 ? Pass Pass"), Some((Some(0), 50)));
        assert_eq!(winner("50 ? 70"), Some((Some(2), 70)));
        // No bidder left in: the highest bid that counted, the first to
        // make it (the last bidder's `-` came before its own pass).
        assert_eq!(winner("50 Pass Pass - Pass"), Some((Some(0), 50)));
        assert_eq!(winner("50 60 Pass Pass - Pass"), Some((Some(1), 60)));
        assert_eq!(winner("50 50 Pass Pass - Pass"), Some((Some(0), 50)));
        // Seats unknown: the highest bid, the first to make it.
        let unseated = |bids: &[Call]| {
            let calls: Vec<SeatCall> = bids
                .iter()
                .enumerate()
                .map(|(pos, &call)| SeatCall {
                    seat: None,
                    pos,
                    call,
                })
                .collect();
            auction_outcome(&calls)
        };
        assert_eq!(
            unseated(&[Bid(50), Bid(60), Pass, Bid(60), Bid(55)]),
            Outcome::Won(None, 60)
        );
        assert_eq!(unseated(&[Pass, Pass, Pass, Pass]), Outcome::ThrownIn);
        assert_eq!(unseated(&[Pass, Pass, Pass]), Outcome::NoBid);
        assert_eq!(unseated(&[Pass, Unknown, Pass, Pass, Pass]), Outcome::NoBid);
    }

    #[test]
    fn thrown_in_only_when_every_seat_passed() {
        assert_eq!(outcome("Pass Pass Pass Pass"), Outcome::ThrownIn);
        assert_eq!(outcome("Pass Pass - Pass"), Outcome::ThrownIn);
        assert_eq!(outcome("? Pass Pass Pass Pass"), Outcome::ThrownIn);
        // Calls unknown, or stopped before every seat passed: not known to
        // be thrown in.
        assert_eq!(outcome("? ? ? ?"), Outcome::NoBid);
        assert_eq!(outcome("Pass Pass Pass"), Outcome::NoBid);
        assert_eq!(outcome(""), Outcome::NoBid);
        assert_eq!(outcome("Pass 50 Pass Pass"), Outcome::Won(Some(1), 50));
    }

    #[test]
    fn issues_past_the_cap_are_counted() {
        let calls = (0..3000).map(|pos| (pos, Bid(50)));
        let mut out = Vec::new();
        let unlisted = auction_issues(calls, 0, None, 50, true, &mut out);
        assert_eq!(out.len(), MAX_ISSUES);
        assert_eq!(unlisted, 2999 - MAX_ISSUES as u64);
        assert_eq!(
            out[MAX_ISSUES - 1],
            NotHigher {
                call: MAX_ISSUES,
                bid: 50,
                high: 50
            }
        );
    }

    #[test]
    fn legal_auctions_have_no_issue() {
        for a in [
            "Pass 52 59 60 - Pass 65 70 - - Pass",
            "50 Pass Pass 51 52 - - Pass",
            "Pass Pass Pass 50",
            "Pass Pass Pass Pass",
            "50 Pass Pass Pass",
            "Pass 50 51 Pass - 52 Pass",
        ] {
            assert_eq!(issues(a, false), vec![], "{a}");
        }
        assert_eq!(issues("50 51", true), vec![]);
        assert_eq!(issues("50 ? 70", false), vec![]);
    }

    #[test]
    fn each_broken_rule_is_named() {
        assert_eq!(
            issues("45 Pass Pass Pass", false),
            vec![LowOpening {
                call: 0,
                bid: 45,
                min: 50
            }]
        );
        assert_eq!(
            issues("60 55 Pass Pass Pass", false),
            vec![NotHigher {
                call: 1,
                bid: 55,
                high: 60
            }]
        );
        assert_eq!(
            issues("Pass 50 51 Pass 52 Pass", false),
            vec![AfterPass { call: 4, seat: 0 }]
        );
        assert_eq!(
            issues("50 51 Pass Pass - 52", false),
            vec![OutWithoutPass {
                seat: 0,
                round: 2,
                pos: 4
            }]
        );
        assert_eq!(
            issues("50 Pass Pass Pass 55", false),
            vec![AfterEnd { call: 4 }]
        );
        assert_eq!(
            issues("50 51 Pass", false),
            vec![Unfinished {
                still_in: vec![0, 1, 3]
            }]
        );
        assert_eq!(
            issues("Pass Pass Pass", false),
            vec![Unfinished { still_in: vec![3] }]
        );
        let mut out = Vec::new();
        auction_issues([(0, Pass)], 1, Some(1), 50, true, &mut out);
        assert_eq!(
            out,
            vec![WrongStart {
                first: 1,
                expected: 2
            }]
        );
    }
}
