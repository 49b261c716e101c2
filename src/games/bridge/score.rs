//! Duplicate scoring: trick points, overtricks, undertricks doubled and
//! redoubled, the insult, part-score, game and slam bonuses, by
//! vulnerability (the Laws of Duplicate Bridge, Law 77).

use super::auction::{Contract, Risk};
use super::card::Strain;

/// The score of `contract` for the declaring side, with `tricks` won by
/// declarer (0 to 13), `vulnerable` the declaring side: positive when it
/// is made, negative when it is set. None for a level outside 1 to 7 or
/// more than 13 tricks.
pub fn duplicate(contract: Contract, vulnerable: bool, tricks: u8) -> Option<i32> {
    let Contract {
        level,
        strain,
        risk,
    } = contract;
    if !(1..=7).contains(&level) || tricks > 13 {
        return None;
    }
    let needed = level as i32 + 6;
    let tricks = tricks as i32;
    let factor = match risk {
        Risk::Undoubled => 1,
        Risk::Doubled => 2,
        Risk::Redoubled => 4,
    };
    if tricks < needed {
        let down = needed - tricks;
        return Some(-undertricks(down, vulnerable, risk));
    }
    let per_trick = |n: i32| match strain {
        Strain::C | Strain::D => 20 * n,
        Strain::H | Strain::S => 30 * n,
        Strain::NT => 30 * n + if n > 0 { 10 } else { 0 },
    };
    let contract_points = per_trick(level as i32) * factor;
    let mut score = contract_points;
    score += if contract_points >= 100 {
        if vulnerable { 500 } else { 300 }
    } else {
        50
    };
    score += match level {
        6 => {
            if vulnerable {
                750
            } else {
                500
            }
        }
        7 => {
            if vulnerable {
                1500
            } else {
                1000
            }
        }
        _ => 0,
    };
    let over = tricks - needed;
    score += match risk {
        Risk::Undoubled => match strain {
            Strain::C | Strain::D => 20 * over,
            _ => 30 * over,
        },
        Risk::Doubled => over * if vulnerable { 200 } else { 100 },
        Risk::Redoubled => over * if vulnerable { 400 } else { 200 },
    };
    score += match risk {
        Risk::Undoubled => 0,
        Risk::Doubled => 50,
        Risk::Redoubled => 100,
    };
    Some(score)
}

/// The penalty for `down` undertricks.
fn undertricks(down: i32, vulnerable: bool, risk: Risk) -> i32 {
    match risk {
        Risk::Undoubled => down * if vulnerable { 100 } else { 50 },
        Risk::Doubled | Risk::Redoubled => {
            let doubled = if vulnerable {
                200 + 300 * (down - 1)
            } else {
                // 100, then 200 for the 2nd and 3rd, 300 from the 4th.
                let mut p = 0;
                for k in 1..=down {
                    p += match k {
                        1 => 100,
                        2 | 3 => 200,
                        _ => 300,
                    };
                }
                p
            };
            if risk == Risk::Redoubled {
                2 * doubled
            } else {
                doubled
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(level: u8, strain: Strain, risk: Risk) -> Contract {
        Contract {
            level,
            strain,
            risk,
        }
    }

    #[test]
    fn scores_of_the_scoring_table() {
        use Risk::*;
        use Strain::*;
        let cases = [
            // (contract, vulnerable, tricks, score)
            (c(1, NT, Undoubled), false, 7, 90),
            (c(2, C, Undoubled), false, 9, 110),
            (c(4, S, Undoubled), false, 10, 420),
            (c(4, H, Undoubled), true, 11, 650),
            (c(3, NT, Undoubled), true, 10, 630),
            (c(5, D, Undoubled), false, 11, 400),
            (c(6, C, Undoubled), false, 12, 920),
            (c(6, S, Undoubled), true, 13, 1460),
            (c(7, NT, Undoubled), true, 13, 2220),
            (c(7, NT, Redoubled), true, 13, 2980),
            (c(1, C, Redoubled), false, 7, 230),
            (c(1, C, Redoubled), true, 8, 630),
            (c(2, S, Doubled), false, 8, 470),
            (c(2, S, Doubled), true, 9, 870),
            (c(5, H, Doubled), false, 9, -300),
            (c(4, H, Doubled), false, 7, -500),
            (c(4, H, Doubled), true, 7, -800),
            (c(4, H, Doubled), false, 6, -800),
            (c(4, H, Redoubled), true, 6, -2200),
            (c(3, NT, Undoubled), false, 7, -100),
            (c(3, NT, Undoubled), true, 0, -900),
            (c(7, C, Doubled), false, 0, -3500),
        ];
        for (k, vul, tricks, want) in cases {
            assert_eq!(
                duplicate(k, vul, tricks),
                Some(want),
                "{} vul {vul} {tricks} tricks",
                k.text()
            );
        }
        assert_eq!(duplicate(c(8, C, Undoubled), false, 13), None);
        assert_eq!(duplicate(c(1, C, Undoubled), false, 14), None);
    }
}
