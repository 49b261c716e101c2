//! Writes simulated hands as PPN, EXPORT (every mandatory tag, in the spec's
//! order) or IMPORT (only what the rules need to rebuild the hand).

use std::fmt::Write;

use super::game::{Call, SEATS, SimHand};
use super::rng::Rng;
use crate::games::pinochle::Card;

const SEAT: [&str; 4] = ["N", "E", "S", "W"];

/// Dot syntax: clubs.diamonds.spades.hearts, ranks A T K Q J (cards are sorted).
pub fn dot(cards: &[Card]) -> String {
    let mut sorted = cards.to_vec();
    sorted.sort();
    let mut s = String::with_capacity(24);
    for (i, suit) in crate::games::pinochle::Suit::DOT_ORDER
        .into_iter()
        .enumerate()
    {
        if i > 0 {
            s.push('.');
        }
        for c in sorted.iter().filter(|c| c.suit == suit) {
            s.push(c.as_str().as_bytes()[1] as char);
        }
    }
    s
}

fn scores(v: &[i32]) -> String {
    format!("{}:{}", v[0], v[1])
}

/// What one game shares across its hands.
pub struct GameInfo<'a> {
    pub site: &'a str,
    pub date: String,
    pub names: [String; 4],
}

#[derive(Clone, Debug, Default)]
pub struct Style {
    pub import: bool,
    /// Probability of a comment before a hand (some span lines with empty lines).
    pub comments: f64,
    /// Probability of segmental Chat and Note tags.
    pub chat: f64,
    /// Use `#` and `##` for values repeated from the previous hand.
    pub inherit: bool,
    /// Write a seat that shows no meld as its points alone, `(0)`, as some
    /// annotators do (else `...(0)`).
    pub points_alone: bool,
}

/// Appends one hand record (no separator) to `out`.
#[allow(clippy::too_many_arguments)]
pub fn hand(
    out: &mut String,
    h: &SimHand,
    number: usize,
    game_scores: [i32; 2],
    game: &GameInfo<'_>,
    first_of_file: bool,
    first_of_game: bool,
    victor: Option<usize>,
    style: &Style,
    rng: &mut Rng,
) {
    if style.comments > 0.0 && rng.chance(style.comments) {
        if rng.chance(0.5) {
            let _ = writeln!(out, "{{ Hand {number}: comment before the tags }}");
        } else {
            let _ = writeln!(
                out,
                "{{ Hand {number}, a longer note\n\n  with an empty line inside }}"
            );
        }
    }
    let played = !h.tricks.is_empty();
    let unplayed_no_trump = !played && h.trump.is_none();
    if style.import {
        tag(out, "Dealer", SEAT[h.dealer]);
        if !played {
            tag(out, "Deal", &deal_value(h));
        }
    } else {
        let inherit = style.inherit;
        if first_of_file && inherit {
            tag(out, "Site", &format!("##{}", game.site));
        } else if !inherit {
            tag(out, "Site", game.site);
        }
        tag(
            out,
            "Date",
            if inherit && !first_of_game {
                "#"
            } else {
                &game.date
            },
        );
        for (s, name) in ["North", "East", "South", "West"].iter().enumerate() {
            tag(
                out,
                name,
                if inherit && !first_of_game {
                    "#"
                } else {
                    &game.names[s]
                },
            );
        }
        tag(out, "Hand", &number.to_string());
        tag(out, "GameScores", &scores(&game_scores));
        tag(out, "Dealer", SEAT[h.dealer]);
        tag(out, "Deal", &deal_value(h));
        tag(out, "Declarer", SEAT[h.declarer]);
        tag(out, "Contract", &h.contract.to_string());
    }
    if !style.import || played || !unplayed_no_trump {
        tag(
            out,
            "Trump",
            h.trump.map_or("-", |t| ["C", "D", "S", "H"][t as usize]),
        );
    }
    outcome_tags(out, h, victor, style);
    sections(out, h, played, style, rng);
}

/// A tag pair on its own line.
fn tag(out: &mut String, name: &str, value: &str) {
    for piece in ["[", name, " \"", value, "\"]\n"] {
        out.push_str(piece);
    }
}

/// The tags of the hand's outcome: melds, scores, result, termination,
/// victor (an import-format hand has only its termination).
fn outcome_tags(out: &mut String, h: &SimHand, victor: Option<usize>, style: &Style) {
    if !style.import {
        let melds: Vec<String> = (0..SEATS)
            .map(|s| match &h.melds[s] {
                (points, cards) if cards.is_empty() && style.points_alone => format!("({points})"),
                (points, cards) => format!("{}({points})", dot(cards)),
            })
            .collect();
        tag(out, "Melds", &format!("N:{}", melds.join(" ")));
        match &h.score {
            Some(sc) => {
                tag(out, "MeldScores", &scores(&sc.meld_scores));
                tag(out, "PlayScores", &scores(&sc.play_scores));
                tag(out, "Result", sc.outcome.as_str());
                tag(out, "HandScores", &scores(&sc.hand_scores));
            }
            None => {
                for t in ["MeldScores", "PlayScores", "Result", "HandScores"] {
                    tag(out, t, "*");
                }
            }
        }
        if let Some(stop) = &h.stop {
            tag(
                out,
                "Termination",
                &format!("{}:{}", SEAT[stop.seat], stop.cause),
            );
        }
        if let Some(v) = victor {
            tag(out, "Victor", &(v + 1).to_string());
        }
    } else if let Some(stop) = &h.stop {
        tag(
            out,
            "Termination",
            &format!("{}:{}", SEAT[stop.seat], stop.cause),
        );
    }
}

/// The Auction section, a round per line, and the Play section.
fn sections(out: &mut String, h: &SimHand, played: bool, style: &Style, rng: &mut Rng) {
    // Auction, a round per line.
    tag(out, "Auction", SEAT[(h.dealer + 1) % SEATS]);
    for round in h.calls.chunks(SEATS) {
        let row: Vec<String> = round
            .iter()
            .map(|c| match c {
                Call::Pass => "Pass".to_string(),
                Call::Bid(b) => b.to_string(),
                Call::Out => "-".to_string(),
            })
            .collect();
        let _ = writeln!(out, "{}", row.join(" "));
    }
    if played {
        tag(out, "Play", SEAT[h.declarer]);
        for t in &h.tricks {
            for c in &t.cards {
                out.push_str(c.as_str());
                out.push(' ');
            }
            if t.cards.len() < SEATS
                || (h.stop.is_some() && std::ptr::eq(t, h.tricks.last().unwrap()))
            {
                // `*` alone, or after the cards played.
                out.push_str("*\n");
            } else {
                let _ = writeln!(out, "({}{})", SEAT[t.winner], t.points);
            }
        }
        if style.chat > 0.0 && rng.chance(style.chat) && h.tricks.len() == 20 {
            let _ = writeln!(out, "@P.20.1-R=[Chat \"{}:gg\"]", SEAT[rng.below(4)]);
            let _ = writeln!(
                out,
                "@A.1.1-M=[Note \"{} opened the bidding\"]",
                SEAT[(h.dealer + 1) % 4]
            );
        }
    } else if !style.import {
        tag(out, "Play", "*");
    }
}

fn deal_value(h: &SimHand) -> String {
    let first = (h.dealer + 1) % SEATS;
    let hands: Vec<String> = (0..SEATS)
        .map(|i| dot(&h.dealt[(first + i) % SEATS]))
        .collect();
    format!("{}:{}", SEAT[first], hands.join(" "))
}

/// Breaks a written hand so that it cannot be converted (for `--malformed`).
pub fn corrupt(text: &str, rng: &mut Rng) -> String {
    match rng.below(3) {
        // An unterminated string.
        0 => text.replacen("\"]", "]", 1),
        // Text before the first tag.
        1 => format!("stray text {text}"),
        // A tag value without quotes.
        _ => text.replacen("[Trump \"", "[Trump ", 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_syntax() {
        let cards: Vec<Card> = ["HJ", "CA", "CT", "SQ", "HA"]
            .iter()
            .map(|c| Card::parse(c.as_bytes()).unwrap())
            .collect();
        assert_eq!(dot(&cards), "AT..Q.AJ");
        assert_eq!(dot(&[]), "...");
    }
}
