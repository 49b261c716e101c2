//! Readers for PBN tag values and section tokens. Each returns an error
//! text (or None) when the text does not have the expected shape; callers
//! keep the text aside. Import format is read leniently: either case, ranks
//! in any order, `10` for a ten, `N` for notrump, white space around values.

use crate::games::bridge::auction::{Call, Contract, Risk};
use crate::games::bridge::card::{Card, Rank, Strain, Suit};
use crate::games::bridge::seat::{Seat, Side};

pub use crate::games::bridge::auction::{ContractValue, call_text};
/// The cards of each seat, N E S W; None for a hand not given.
pub use crate::games::bridge::deal::{Deal, deal_text, hand_text};
pub use crate::games::bridge::seat::vulnerable;

/// A seat letter, either case, white space around it aside.
pub fn parse_seat(v: &[u8]) -> Option<Seat> {
    match v.trim_ascii() {
        [b] => Seat::parse(*b),
        _ => None,
    }
}

/// A card token: suit then rank (`SA`, `h10`, `DT`).
pub fn parse_card(t: &[u8]) -> Option<Card> {
    let (&s, rest) = t.split_first()?;
    let suit = Suit::parse(s)?;
    let rank = match rest {
        [r] => Rank::parse(*r)?,
        b"10" => Rank::T,
        _ => return None,
    };
    Some(Card { suit, rank })
}

/// The Deal tag: `<first>:<hand> <hand> <hand> <hand>`, hands clockwise
/// from `first`, each `S.H.D.C` (ranks in any order), `-` for a hand not
/// given. A deal of fewer than four hands leaves the rest not given.
pub fn parse_deal(v: &[u8]) -> Result<Deal, String> {
    let v = v.trim_ascii();
    let (first, hands) = match v {
        [f, b':', rest @ ..] => (
            Seat::parse(*f).ok_or_else(|| format!("'{}' is not a seat", *f as char))?,
            rest,
        ),
        _ => return Err("expected a seat and ':' before the hands".into()),
    };
    let mut deal: Deal = Default::default();
    for (k, h) in hands
        .split(|b| b.is_ascii_whitespace())
        .filter(|h| !h.is_empty())
        .enumerate()
    {
        if k == 4 {
            return Err("more than four hands".into());
        }
        let seat = first.after(k);
        if h == b"-" {
            continue;
        }
        deal[seat as usize] = Some(parse_hand(h)?);
    }
    Ok(deal)
}

/// A hand `S.H.D.C`: the ranks of each suit, in any order.
fn parse_hand(h: &[u8]) -> Result<Vec<Card>, String> {
    let n = h.split(|&b| b == b'.').count();
    if n != 4 {
        return Err(format!(
            "hand '{}' has {n} suits (expected 4, separated by '.')",
            String::from_utf8_lossy(h),
        ));
    }
    let suits = h.split(|&b| b == b'.');
    let mut cards = Vec::with_capacity(13);
    for (suit, ranks) in Suit::ALL.into_iter().zip(suits) {
        let mut i = 0;
        while i < ranks.len() {
            let rank = if ranks[i..].starts_with(b"10") {
                i += 1;
                Rank::T
            } else {
                Rank::parse(ranks[i]).ok_or_else(|| {
                    format!(
                        "'{}' is not a rank (hand '{}')",
                        ranks[i] as char,
                        String::from_utf8_lossy(h)
                    )
                })?
            };
            i += 1;
            cards.push(Card { suit, rank });
        }
    }
    // Export form gives them in order already.
    if !cards.is_sorted() {
        cards.sort_unstable();
    }
    Ok(cards)
}

/// The Vulnerable tag, normalized: `None`, `NS`, `EW`, `All` (`Love`, `-`
/// and `Both` are synonyms; either case).
pub fn parse_vulnerable(v: &[u8]) -> Option<&'static str> {
    let v = v.trim_ascii();
    let is = |w: &str| v.eq_ignore_ascii_case(w.as_bytes());
    if is("None") || is("Love") || is("-") {
        Some("None")
    } else if is("NS") {
        Some("NS")
    } else if is("EW") {
        Some("EW")
    } else if is("All") || is("Both") {
        Some("All")
    } else {
        None
    }
}

/// A strain: `C`, `D`, `H`, `S`, `NT` or `N`, either case.
fn parse_strain(s: &[u8]) -> Option<Strain> {
    Some(match s {
        [c] => match c.to_ascii_uppercase() {
            b'C' => Strain::C,
            b'D' => Strain::D,
            b'H' => Strain::H,
            b'S' => Strain::S,
            b'N' => Strain::NT,
            _ => return None,
        },
        _ if s.eq_ignore_ascii_case(b"NT") => Strain::NT,
        _ => return None,
    })
}

/// The Contract tag: `Pass`, `<level><strain><risk>` (`4S`, `3NTX`, `6NXX`)
/// or, for an end position, a strain alone.
pub fn parse_contract(v: &[u8]) -> Result<ContractValue, String> {
    let v = v.trim_ascii();
    if v.eq_ignore_ascii_case(b"Pass") {
        return Ok(ContractValue::Pass);
    }
    if let Some(s) = parse_strain(v) {
        return Ok(ContractValue::Strain(s));
    }
    let bad = || "expected Pass, or a level 1-7, a strain (C D H S NT) and X or XX".to_string();
    let (&l, rest) = v.split_first().ok_or_else(bad)?;
    if !(b'1'..=b'7').contains(&l) {
        return Err(bad());
    }
    let upper = rest.to_ascii_uppercase();
    // `R` for redoubled is not PBN's, but some programs write it (`3NR`).
    let (strain_text, risk) = if let Some(s) = upper.strip_suffix(b"XX") {
        (s, Risk::Redoubled)
    } else if let Some(s) = upper.strip_suffix(b"R") {
        (s, Risk::Redoubled)
    } else if let Some(s) = upper.strip_suffix(b"X") {
        (s, Risk::Doubled)
    } else {
        (&upper[..], Risk::Undoubled)
    };
    let strain = parse_strain(strain_text).ok_or_else(bad)?;
    Ok(ContractValue::Contract(Contract {
        level: l - b'0',
        strain,
        risk,
    }))
}

/// The Declarer tag: a seat, `^` before it for an irregular declarer
/// (declarer and dummy swapped); empty when every player passed.
pub fn parse_declarer(v: &[u8]) -> Result<Option<(Seat, bool)>, String> {
    let v = v.trim_ascii();
    if v.is_empty() {
        return Ok(None);
    }
    let (irregular, v) = match v.strip_prefix(b"^") {
        Some(rest) => (true, rest),
        None => (false, v),
    };
    parse_seat(v)
        .map(|s| Some((s, irregular)))
        .ok_or_else(|| "expected N, E, S or W (^ before it for an irregular declarer)".into())
}

/// A value of declarer's, of NS's, of EW's.
type Sided = (Option<i32>, Option<i32>, Option<i32>);

/// A number of points or tricks with an optional side: `<n>` (of
/// declarer), `NS <n>`, `EW <n>`, `NS <n> EW <m>`, `EW <n> NS <m>`.
/// Returns (the declarer's value, NS's value, EW's value) as written.
fn sided(v: &[u8]) -> Result<Sided, String> {
    let words: Vec<&[u8]> = v
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let num = |w: &[u8]| {
        crate::notation::number::parse_i32(w)
            .ok_or_else(|| format!("'{}' is not a number", String::from_utf8_lossy(w)))
    };
    match words[..] {
        [n] => Ok((Some(num(n)?), None, None)),
        [s, _] | [s, _, _, _] if s.eq_ignore_ascii_case(b"NS") || s.eq_ignore_ascii_case(b"EW") => {
            let mut ns = None;
            let mut ew = None;
            for pair in words.chunks(2) {
                let [side, n] = pair else {
                    return Err("expected a side and a number".into());
                };
                let n = num(n)?;
                if side.eq_ignore_ascii_case(b"NS") && ns.is_none() {
                    ns = Some(n);
                } else if side.eq_ignore_ascii_case(b"EW") && ew.is_none() {
                    ew = Some(n);
                } else {
                    return Err(format!(
                        "'{}' is not NS or EW (or comes twice)",
                        String::from_utf8_lossy(side)
                    ));
                }
            }
            Ok((None, ns, ew))
        }
        _ => Err("expected a number, or NS or EW and a number".into()),
    }
}

/// The Result tag: declarer's tricks (given directly, or by the side's
/// tricks: 13 less the other side's), and whether it was marked as not
/// matching the tricks won (`^`). Empty when every player passed.
pub fn parse_result(v: &[u8], declarer: Option<Seat>) -> Result<Option<(i32, bool)>, String> {
    let v = v.trim_ascii();
    if v.is_empty() {
        return Ok(None);
    }
    let (marked, v) = match v.strip_prefix(b"^") {
        Some(rest) => (true, rest),
        None => (false, v),
    };
    let (own, ns, ew) = sided(v)?;
    let tricks = match (own, declarer.map(Seat::side)) {
        (Some(n), _) => n,
        (None, Some(Side::NS)) => ns.or(ew.map(|t| 13 - t)).ok_or("no tricks of a side")?,
        (None, Some(Side::EW)) => ew.or(ns.map(|t| 13 - t)).ok_or("no tricks of a side")?,
        // Tricks of a side with no declarer: not declarer's tricks (the
        // text is kept as written).
        (None, None) => {
            for n in [ns, ew].into_iter().flatten() {
                if !(0..=13).contains(&n) {
                    return Err(format!("{n} tricks (expected 0 to 13)"));
                }
            }
            return Ok(None);
        }
    };
    if !(0..=13).contains(&tricks) {
        return Err(format!("{tricks} tricks (expected 0 to 13)"));
    }
    Ok(Some((tricks, marked)))
}

/// The Score tag, as the score of North-South: `<n>` is declarer's,
/// `NS <n>` or `EW <n>` a side's (the other's is its negative).
pub fn parse_score(v: &[u8], declarer: Option<Seat>) -> Result<Option<i32>, String> {
    let v = v.trim_ascii();
    if v.is_empty() {
        return Ok(None);
    }
    let (own, ns, ew) = sided(v)?;
    Ok(match (own, ns, ew, declarer.map(Seat::side)) {
        (Some(n), _, _, Some(Side::NS)) => Some(n),
        (Some(n), _, _, Some(Side::EW)) => Some(-n),
        // Declarer's score with no declarer: not North-South's (the text is
        // kept as written).
        (Some(_), _, _, None) => None,
        (None, Some(n), _, _) => Some(n),
        (None, None, Some(n), _) => Some(-n),
        (None, None, None, _) => None,
    })
}

/// A call token: `Pass`, `X`, `XX`, `<level><strain>` (`1S`, `3NT`, `7N`),
/// either case. (`AP` and `-` are the section's to read.)
pub fn parse_call(t: &[u8]) -> Option<Call> {
    match t {
        [l @ b'1'..=b'7', rest @ ..] => Some(Call::Bid {
            level: l - b'0',
            strain: parse_strain(rest)?,
        }),
        _ if t.eq_ignore_ascii_case(b"Pass") || t.eq_ignore_ascii_case(b"P") => Some(Call::Pass),
        _ if t.eq_ignore_ascii_case(b"X") => Some(Call::Double),
        _ if t.eq_ignore_ascii_case(b"XX") => Some(Call::Redouble),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deals_in_import_form_normalize() {
        let d =
            parse_deal(b"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85")
                .unwrap();
        assert_eq!(
            deal_text(&d),
            "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"
        );
        // Another first seat, ranks in any order, lower case, `10`, hands
        // not given.
        let d = parse_deal(b" w:2tqk.ta.2456j.58 - 45A86.qk5.10.T6JQ -").unwrap();
        assert_eq!(deal_text(&d), "N:- A8654.KQ5.T.QJT6 - KQT2.AT.J6542.85");
        assert!(parse_deal(b"X:...").is_err());
        assert!(parse_deal(b"N:AK.Q").unwrap_err().contains("2 suits"));
        assert!(
            parse_deal(b"N:AZ...")
                .unwrap_err()
                .contains("'Z' is not a rank")
        );
        assert!(parse_deal(b"N:... ... ... ... ...").is_err());
    }

    #[test]
    fn tags_of_the_outcome() {
        assert_eq!(parse_vulnerable(b"Love"), Some("None"));
        assert_eq!(parse_vulnerable(b"both"), Some("All"));
        assert_eq!(parse_vulnerable(b"-"), Some("None"));
        assert_eq!(parse_vulnerable(b"NSEW"), None);
        let c = |l, strain, risk| {
            ContractValue::Contract(Contract {
                level: l,
                strain,
                risk,
            })
        };
        assert_eq!(parse_contract(b"5HX"), Ok(c(5, Strain::H, Risk::Doubled)));
        assert_eq!(
            parse_contract(b"3nt"),
            Ok(c(3, Strain::NT, Risk::Undoubled))
        );
        assert_eq!(parse_contract(b"1N"), Ok(c(1, Strain::NT, Risk::Undoubled)));
        assert_eq!(
            parse_contract(b"6NTXX"),
            Ok(c(6, Strain::NT, Risk::Redoubled))
        );
        assert_eq!(
            parse_contract(b"3NR"),
            Ok(c(3, Strain::NT, Risk::Redoubled))
        );
        assert!(parse_contract(b"3R").is_err());
        assert_eq!(parse_contract(b"Pass"), Ok(ContractValue::Pass));
        assert_eq!(parse_contract(b"NT"), Ok(ContractValue::Strain(Strain::NT)));
        assert!(parse_contract(b"8S").is_err() && parse_contract(b"4Z").is_err());
        assert_eq!(parse_declarer(b"^S"), Ok(Some((Seat::S, true))));
        assert_eq!(parse_declarer(b""), Ok(None));
        let s = Some(Seat::S);
        assert_eq!(parse_result(b"9", s), Ok(Some((9, false))));
        assert_eq!(parse_result(b"NS 9", s), Ok(Some((9, false))));
        assert_eq!(parse_result(b"EW 4", s), Ok(Some((9, false))));
        assert_eq!(
            parse_result(b"EW 4 NS 9", Some(Seat::E)),
            Ok(Some((4, false)))
        );
        assert_eq!(parse_result(b"^9", s), Ok(Some((9, true))));
        assert!(parse_result(b"14", s).is_err());
        assert_eq!(parse_score(b"NS 500", s), Ok(Some(500)));
        assert_eq!(parse_score(b"-500", Some(Seat::E)), Ok(Some(500)));
        assert_eq!(parse_score(b"EW 620", s), Ok(Some(-620)));
        assert_eq!(parse_score(b"NS 420 EW -420", s), Ok(Some(420)));
    }

    #[test]
    fn calls_and_cards() {
        assert_eq!(parse_call(b"pass"), Some(Call::Pass));
        assert_eq!(parse_call(b"XX"), Some(Call::Redouble));
        assert_eq!(
            parse_call(b"7nt"),
            Some(Call::Bid {
                level: 7,
                strain: Strain::NT
            })
        );
        assert_eq!(parse_call(b"8C"), None);
        assert_eq!(call_text(parse_call(b"3n").unwrap()), "3NT");
        for level in 1..=7u8 {
            for strain in [Strain::C, Strain::D, Strain::H, Strain::S, Strain::NT] {
                let want = format!("{level}{}", strain.as_str());
                assert_eq!(call_text(Call::Bid { level, strain }), want);
            }
        }
        assert_eq!(parse_card(b"h10").unwrap().name(), *b"HT");
        assert_eq!(parse_card(b"SA").unwrap().name(), *b"SA");
        assert_eq!(parse_card(b"S1"), None);
    }
}
