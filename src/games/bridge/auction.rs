//! The auction: which calls are legal, when it ends, the final contract
//! and its declarer.

use super::card::Strain;
use super::seat::{Seat, Side};

/// A call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Call {
    Pass,
    Double,
    Redouble,
    Bid { level: u8, strain: Strain },
}

/// A contract's risk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Risk {
    #[default]
    Undoubled,
    Doubled,
    Redoubled,
}

/// A contract: level 1 to 7, strain, risk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contract {
    pub level: u8,
    pub strain: Strain,
    pub risk: Risk,
}

impl Risk {
    /// As contracts write it: ``, `X`, `XX`.
    pub fn as_str(self) -> &'static str {
        match self {
            Risk::Undoubled => "",
            Risk::Doubled => "X",
            Risk::Redoubled => "XX",
        }
    }
}

impl Contract {
    /// The normalized text: level, strain, risk (`4S`, `3NT`, `6NTXX`).
    pub fn text(self) -> String {
        let mut s = String::with_capacity(6);
        s.push(char::from(b'0' + self.level % 10));
        s.push_str(self.strain.as_str());
        s.push_str(self.risk.as_str());
        s
    }
}

/// A call made at the table, as the notation read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Made {
    pub seat: Seat,
    pub call: Call,
    /// An insufficient bid the opponents accepted (PBN's `^I`): not an
    /// issue, and it stands.
    pub accepted_insufficient: bool,
}

/// Why a call breaks the rules of the auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Issue {
    /// A bid not higher than the bid before (and not marked accepted).
    Insufficient { index: usize },
    /// A double of no bid, of one's own side's bid, or of a bid already
    /// doubled.
    BadDouble { index: usize },
    /// A redouble of no double, or of one's own side's double.
    BadRedouble { index: usize },
    /// A call after the auction was over.
    AfterEnd { index: usize },
    /// A level outside 1 to 7.
    BadLevel { index: usize },
}

/// What the calls of an auction come to.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Outcome {
    /// The final contract: None when every player passed, or no bid was made.
    pub contract: Option<Contract>,
    /// The first player of the declaring side to name the contract's strain.
    pub declarer: Option<Seat>,
    /// Four passes and no bid.
    pub passed_out: bool,
    /// The auction ended (three passes after a call, or four at the start).
    pub complete: bool,
    pub issues: Vec<Issue>,
}

/// Reads `calls` in order: the legality of each call, where the auction
/// ends, the contract and the declarer. Calls after the end are issues and
/// do not count.
pub fn outcome(calls: &[Made]) -> Outcome {
    let mut o = Outcome::default();
    // The last bid, by whom; its risk and who doubled or redoubled last.
    let mut last_bid: Option<(usize, Seat, u8, Strain)> = None;
    let mut risk = Risk::Undoubled;
    let mut risk_by: Option<Seat> = None;
    let mut passes = 0;
    let mut counted = 0;
    for (i, m) in calls.iter().enumerate() {
        if o.complete {
            o.issues.push(Issue::AfterEnd { index: i });
            continue;
        }
        counted = i + 1;
        match m.call {
            Call::Pass => passes += 1,
            Call::Bid { level, strain } => {
                passes = 0;
                if !(1..=7).contains(&level) {
                    o.issues.push(Issue::BadLevel { index: i });
                }
                if let Some((_, _, l, s)) = last_bid
                    && (level, strain) <= (l, s)
                    && !m.accepted_insufficient
                {
                    o.issues.push(Issue::Insufficient { index: i });
                }
                last_bid = Some((i, m.seat, level, strain));
                risk = Risk::Undoubled;
                risk_by = None;
            }
            Call::Double => {
                passes = 0;
                let ok = matches!(last_bid, Some((_, by, _, _)) if by.side() != m.seat.side())
                    && risk == Risk::Undoubled;
                if !ok {
                    o.issues.push(Issue::BadDouble { index: i });
                }
                risk = Risk::Doubled;
                risk_by = Some(m.seat);
            }
            Call::Redouble => {
                passes = 0;
                let ok =
                    risk == Risk::Doubled && risk_by.is_some_and(|by| by.side() != m.seat.side());
                if !ok {
                    o.issues.push(Issue::BadRedouble { index: i });
                }
                risk = Risk::Redoubled;
                risk_by = Some(m.seat);
            }
        }
        o.complete = match last_bid {
            None => passes == 4,
            Some(_) => passes == 3,
        };
    }
    let Some((_, by, level, strain)) = last_bid else {
        o.passed_out = o.complete;
        return o;
    };
    o.contract = Some(Contract {
        level,
        strain,
        risk,
    });
    let side: Side = by.side();
    o.declarer = calls[..counted]
        .iter()
        .find(|m| {
            m.seat.side() == side && matches!(m.call, Call::Bid { strain: s, .. } if s == strain)
        })
        .map(|m| m.seat);
    o
}

/// What a board states of its contract (PBN Contract, RBN C).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContractValue {
    /// Every player passed.
    Pass,
    Contract(Contract),
    /// The denomination alone, of an end position (PBN 3.10, RBN's C without a level).
    Strain(Strain),
}

/// A call as the tables write it: `Pass`, `X`, `XX`, `1C` ... `7NT`.
pub fn call_text(c: Call) -> &'static str {
    /// Every bid, by level and strain (C D H S NT).
    const BIDS: [[&str; 5]; 7] = [
        ["1C", "1D", "1H", "1S", "1NT"],
        ["2C", "2D", "2H", "2S", "2NT"],
        ["3C", "3D", "3H", "3S", "3NT"],
        ["4C", "4D", "4H", "4S", "4NT"],
        ["5C", "5D", "5H", "5S", "5NT"],
        ["6C", "6D", "6H", "6S", "6NT"],
        ["7C", "7D", "7H", "7S", "7NT"],
    ];
    match c {
        Call::Pass => "Pass",
        Call::Double => "X",
        Call::Redouble => "XX",
        Call::Bid { level, strain } => BIDS[(level as usize).clamp(1, 7) - 1][strain as usize],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Calls from `first` clockwise: `P`, `X`, `XX`, `1S`, `3NT`...
    fn made(first: Seat, calls: &[&str]) -> Vec<Made> {
        calls
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let call = match *c {
                    "P" => Call::Pass,
                    "X" => Call::Double,
                    "XX" => Call::Redouble,
                    b => {
                        let level = b.as_bytes()[0] - b'0';
                        let strain = match &b[1..] {
                            "C" => Strain::C,
                            "D" => Strain::D,
                            "H" => Strain::H,
                            "S" => Strain::S,
                            _ => Strain::NT,
                        };
                        Call::Bid { level, strain }
                    }
                };
                Made {
                    seat: first.after(i),
                    call,
                    accepted_insufficient: false,
                }
            })
            .collect()
    }

    #[test]
    fn the_spec_example_auction_ends_in_five_hearts_doubled_by_south() {
        // PBN 2.1, chapter 1.2: dealer North.
        let calls = made(
            Seat::N,
            &[
                "1D", "1S", "3H", "4S", "4NT", "X", "P", "P", "5C", "X", "5H", "X", "P", "P", "P",
            ],
        );
        let o = outcome(&calls);
        assert_eq!(
            o.contract,
            Some(Contract {
                level: 5,
                strain: Strain::H,
                risk: Risk::Doubled
            })
        );
        // South bid hearts first (3H), and then 5H.
        assert_eq!(o.declarer, Some(Seat::S));
        assert!(o.complete && !o.passed_out && o.issues.is_empty());
        assert_eq!(o.contract.unwrap().text(), "5HX");
    }

    #[test]
    fn passed_out_incomplete_and_broken_auctions() {
        let o = outcome(&made(Seat::E, &["P", "P", "P", "P"]));
        assert!(o.passed_out && o.complete && o.contract.is_none() && o.declarer.is_none());
        let o = outcome(&made(Seat::E, &["1C", "P", "P"]));
        assert!(!o.complete);
        assert_eq!(o.declarer, Some(Seat::E));
        // 1S then 1H is insufficient; S doubles it and W redoubles (both
        // legal); a call after the end.
        let o = outcome(&made(Seat::N, &["1S", "1H", "X", "XX", "P", "P", "P", "P"]));
        assert_eq!(
            o.issues,
            [
                Issue::Insufficient { index: 1 },
                Issue::AfterEnd { index: 7 }
            ]
        );
        assert_eq!(
            (o.contract.unwrap().text(), o.declarer),
            ("1HXX".into(), Some(Seat::E))
        );
        // S doubles its partner's bid; W redoubles its partner's double; a
        // double of nothing.
        let o = outcome(&made(Seat::N, &["1S", "P", "X"]));
        assert_eq!(o.issues, [Issue::BadDouble { index: 2 }]);
        let o = outcome(&made(Seat::N, &["1S", "X", "P", "XX"]));
        assert_eq!(o.issues, [Issue::BadRedouble { index: 3 }]);
        let o = outcome(&made(Seat::N, &["X"]));
        assert_eq!(o.issues, [Issue::BadDouble { index: 0 }]);
        // An accepted insufficient bid stands and is no issue.
        let mut calls = made(Seat::N, &["1S", "1H", "P", "P", "P"]);
        calls[1].accepted_insufficient = true;
        let o = outcome(&calls);
        assert!(o.issues.is_empty());
        assert_eq!(
            (o.contract.unwrap().text(), o.declarer),
            ("1H".into(), Some(Seat::E))
        );
        // Redoubled contract; the declarer is the first of the side to bid the strain.
        let o = outcome(&made(Seat::W, &["1NT", "X", "XX", "P", "P", "P"]));
        assert_eq!(
            (o.contract.unwrap().text(), o.declarer),
            ("1NTXX".into(), Some(Seat::W))
        );
    }
}
