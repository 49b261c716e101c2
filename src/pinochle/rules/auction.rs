//! The bidding rules of `pinochle-rules.md`: the player on the dealer's left
//! calls first, bids rise from the profile's minimum, `Pass` leaves the
//! auction for good (later rounds show `-` for that seat), and the auction
//! ends when one bidder is left (or everyone has passed).

use super::hand::{MAX_ISSUES, PLAYERS};

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
    let mut passed = [false; PLAYERS];
    let mut still_in = PLAYERS;
    let mut high: Option<i32> = None;
    let mut ended = false;
    let mut next = 0usize;
    for (i, (pos, call)) in calls.into_iter().enumerate() {
        if call == Call::Unknown {
            return unlisted;
        }
        if ended {
            note(AuctionIssue::AfterEnd { call: i });
            return unlisted;
        }
        for gap in next..pos {
            let seat = (start + gap) % PLAYERS;
            if !passed[seat] {
                note(AuctionIssue::OutWithoutPass {
                    seat,
                    round: gap / PLAYERS + 1,
                    pos: gap,
                });
                // Counted out from here on, so that one `-` is reported once.
                passed[seat] = true;
                still_in -= 1;
            }
        }
        next = pos + 1;
        let seat = (start + pos) % PLAYERS;
        if passed[seat] {
            note(AuctionIssue::AfterPass { call: i, seat });
        } else {
            match call {
                Call::Pass => {
                    passed[seat] = true;
                    still_in -= 1;
                }
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
        ended = still_in == 0 || (still_in == 1 && high.is_some());
    }
    if !ended && !terminated {
        let still_in = (0..PLAYERS).filter(|s| !passed[*s]).collect();
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
