//! One string of a hand's `actions`: `[[Actor Action[ Arguments...]][ # Commentary]]`
//! (`phh.txt`, actions), read on borrowed bytes.

use crate::columns::decimal::{self, DecError};
use crate::games::poker::Card;

/// What an action does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `d db`: community cards.
    DealBoard,
    /// `d dh pN`: hole cards.
    DealHole,
    /// `pN pb`: the bring-in.
    BringIn,
    /// `pN cbr X`: complete, bet or raise to X.
    CompleteBetRaise,
    /// `pN cc`: check or call.
    CheckCall,
    /// `pN f`: fold.
    Fold,
    /// `pN sd [cards]`: stand pat or discard.
    StandPatDiscard,
    /// `pN sm [cards|-]`: show or muck.
    ShowMuck,
}

impl Kind {
    pub fn code(self) -> &'static str {
        match self {
            Kind::DealBoard => "db",
            Kind::DealHole => "dh",
            Kind::BringIn => "pb",
            Kind::CompleteBetRaise => "cbr",
            Kind::CheckCall => "cc",
            Kind::Fold => "f",
            Kind::StandPatDiscard => "sd",
            Kind::ShowMuck => "sm",
        }
    }

    /// A betting action: it makes what follows a later round.
    pub fn bets(self) -> bool {
        matches!(
            self,
            Kind::BringIn | Kind::CompleteBetRaise | Kind::CheckCall | Kind::Fold
        )
    }
}

/// The cards of an action: their text (two bytes a card) and what they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cards<'s> {
    /// None given.
    None,
    /// Cards as written.
    Listed(&'s str),
    /// `-` in `sm`: the cards dealt to the player.
    Dealt,
}

/// An action read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action<'s> {
    /// `d` or `pN` as written; None for a no-op.
    pub actor: Option<&'s str>,
    /// N of `pN` (the actor, or for `dh` the player dealt to).
    pub player: Option<u32>,
    pub kind: Option<Kind>,
    /// The amount of `cbr`, in millionths.
    pub amount: Option<i128>,
    pub cards: Cards<'s>,
    /// The text after `#`, trimmed.
    pub commentary: Option<&'s str>,
}

/// Why an action cannot be read: the offset in the string and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bad {
    pub at: usize,
    pub message: String,
}

/// Offset of `word` in `s` (a subslice of it).
fn at(s: &str, word: &str) -> usize {
    word.as_ptr() as usize - s.as_ptr() as usize
}

/// `pN`: N (1 or more).
fn player(w: &str) -> Option<u32> {
    let n = w.strip_prefix('p')?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) || n.len() > 9 {
        return None;
    }
    n.parse().ok().filter(|&n| n >= 1)
}

/// Reads an action string. Errors leave the commentary and what could be
/// read of the actor and the action; an amount or cards that cannot be
/// read are None.
pub fn parse(s: &str) -> (Action<'_>, Option<Bad>) {
    let (body, commentary) = match s.find('#') {
        Some(p) => (&s[..p], Some(s[p + 1..].trim())),
        None => (s, None),
    };
    let mut a = Action {
        actor: None,
        player: None,
        kind: None,
        amount: None,
        cards: Cards::None,
        commentary,
    };
    let words: smallvec::SmallVec<[&str; 4]> = body.split_ascii_whitespace().collect();
    let Some(&actor) = words.first() else {
        return (a, None);
    };
    let bad = |w: &str, message: String| Bad {
        at: at(s, w),
        message,
    };
    let dealer = actor == "d";
    let p = player(actor);
    if !dealer && p.is_none() {
        let m = format!("'{actor}' is no actor: the dealer is 'd', player N is 'pN' (N from 1)");
        return (a, Some(bad(actor, m)));
    }
    a.actor = Some(actor);
    a.player = p;
    let Some(&code) = words.get(1) else {
        return (a, Some(bad(actor, format!("'{actor}' without an action"))));
    };
    let kind = match (dealer, code) {
        (true, "db") => Kind::DealBoard,
        (true, "dh") => Kind::DealHole,
        (false, "pb") => Kind::BringIn,
        (false, "cbr") => Kind::CompleteBetRaise,
        (false, "cc") => Kind::CheckCall,
        (false, "f") => Kind::Fold,
        (false, "sd") => Kind::StandPatDiscard,
        (false, "sm") => Kind::ShowMuck,
        _ => {
            let which = if dealer {
                "the dealer's are db and dh"
            } else {
                "a player's are pb, cbr, cc, f, sd and sm"
            };
            return (
                a,
                Some(bad(
                    code,
                    format!("'{code}' is no action of '{actor}': {which}"),
                )),
            );
        }
    };
    let args = &words[2..];
    let (min, max) = match kind {
        Kind::DealBoard | Kind::CompleteBetRaise => (1, 1),
        Kind::DealHole => (2, 2),
        Kind::BringIn | Kind::CheckCall | Kind::Fold => (0, 0),
        Kind::StandPatDiscard | Kind::ShowMuck => (0, 1),
    };
    if args.len() < min || args.len() > max {
        let want = match (min, max) {
            (0, 0) => "no argument".to_string(),
            (0, 1) => "at most one argument".to_string(),
            (1, 1) => "one argument".to_string(),
            _ => format!("{min} arguments"),
        };
        let w = args.get(max).or(words.last()).copied().unwrap_or(code);
        let m = format!("'{actor} {code}' takes {want}, found {}", args.len());
        return (a, Some(bad(w, m)));
    }
    let mut cards = args.first().copied();
    match kind {
        Kind::DealHole => {
            let Some(n) = player(args[0]) else {
                let m = format!("'{}' is no player to deal to (pN, N from 1)", args[0]);
                return (a, Some(bad(args[0], m)));
            };
            a.player = Some(n);
            cards = Some(args[1]);
        }
        Kind::CompleteBetRaise => {
            cards = None;
            match decimal::parse(args[0].as_bytes(), true) {
                Ok(v) => a.amount = Some(v),
                Err(e) => {
                    a.kind = Some(kind);
                    let why = match e {
                        DecError::Syntax => "is no amount",
                        DecError::Precision => "has more than 6 decimal places",
                        DecError::Range => "is too large (10^12 or more)",
                    };
                    let m = format!("'{}' {why}", args[0]);
                    return (a, Some(bad(args[0], m)));
                }
            }
        }
        Kind::ShowMuck if cards == Some("-") => {
            a.kind = Some(kind);
            a.cards = Cards::Dealt;
            return (a, None);
        }
        _ => {}
    }
    a.kind = Some(kind);
    if let Some(c) = cards {
        if let Some(e) = check_cards(c) {
            let m = format!("'{c}' is no list of cards: {e}");
            return (a, Some(bad(c, m)));
        }
        a.cards = Cards::Listed(c);
    }
    (a, None)
}

/// Why `c` is not two-byte cards (rank `23456789TJQKA?`, suit `cdhs?`).
fn check_cards(c: &str) -> Option<String> {
    let b = c.as_bytes();
    if !b.len().is_multiple_of(2) {
        return Some("an odd number of characters (a card is a rank and a suit)".into());
    }
    for (i, pair) in b.chunks_exact(2).enumerate() {
        if Card::from_letters(pair[0], pair[1]).is_none() {
            return Some(format!(
                "card {} '{}' is not a rank (23456789TJQKA or ?) and a suit (cdhs or ?)",
                i + 1,
                String::from_utf8_lossy(pair)
            ));
        }
    }
    None
}

/// The cards of a checked card text.
pub fn cards(c: &str) -> impl Iterator<Item = (&str, Card)> + '_ {
    (0..c.len() / 2).map(move |i| {
        let t = &c[2 * i..2 * i + 2];
        let b = t.as_bytes();
        let card = Card::from_letters(b[0], b[1]).unwrap_or(Card {
            rank: None,
            suit: None,
        });
        (t, card)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> Action<'_> {
        let (a, bad) = parse(s);
        assert_eq!(bad, None, "{s}");
        a
    }

    fn err(s: &str) -> (usize, String) {
        let (_, bad) = parse(s);
        let b = bad.unwrap_or_else(|| panic!("{s} read"));
        (b.at, b.message)
    }

    #[test]
    fn every_action_of_the_grammar() {
        let a = ok("d db Jc3d5c");
        assert_eq!(
            (a.actor, a.player, a.kind),
            (Some("d"), None, Some(Kind::DealBoard))
        );
        assert_eq!(a.cards, Cards::Listed("Jc3d5c"));
        let a = ok("  d   dh p12 ????  # Antonius ");
        assert_eq!((a.player, a.kind), (Some(12), Some(Kind::DealHole)));
        assert_eq!(
            (a.cards, a.commentary),
            (Cards::Listed("????"), Some("Antonius"))
        );
        let a = ok("p3 cbr 232600");
        assert_eq!((a.player, a.amount), (Some(3), Some(232_600_000_000)));
        assert_eq!(ok("p1 cbr 1.25").amount, Some(1_250_000));
        assert_eq!(ok("p5 pb").kind, Some(Kind::BringIn));
        assert_eq!(ok("p2 f").kind, Some(Kind::Fold));
        assert_eq!(ok("p2 cc # call").commentary, Some("call"));
        let a = ok("p4 sd AsQs");
        assert_eq!(
            (a.kind, a.cards),
            (Some(Kind::StandPatDiscard), Cards::Listed("AsQs"))
        );
        assert_eq!(ok("p1 sd").cards, Cards::None);
        assert_eq!(ok("p1 sm").cards, Cards::None);
        assert_eq!(ok("p1 sm -").cards, Cards::Dealt);
        assert_eq!(ok("p1 sm ??Ad").cards, Cards::Listed("??Ad"));
        // No-ops.
        for s in ["", "   ", "# Burn card 6s is exposed", " #"] {
            let a = ok(s);
            assert_eq!((a.actor, a.kind), (None, None));
        }
        assert_eq!(
            ok("# Burn card 6s is exposed").commentary,
            Some("Burn card 6s is exposed")
        );
    }

    #[test]
    fn errors_say_where_and_why() {
        assert_eq!(
            err("x cc"),
            (
                0,
                "'x' is no actor: the dealer is 'd', player N is 'pN' (N from 1)".into()
            )
        );
        assert_eq!(err("p0 cc").0, 0);
        assert_eq!(err("p1").1, "'p1' without an action");
        assert_eq!(
            err("p1 db As").1,
            "'db' is no action of 'p1': a player's are pb, cbr, cc, f, sd and sm"
        );
        assert_eq!(
            err("d cc").1,
            "'cc' is no action of 'd': the dealer's are db and dh"
        );
        assert_eq!(
            err("p1 cc 5"),
            (6, "'p1 cc' takes no argument, found 1".into())
        );
        assert_eq!(
            err("p1 cbr"),
            (3, "'p1 cbr' takes one argument, found 0".into())
        );
        assert_eq!(
            err("d dh p1"),
            (5, "'d dh' takes 2 arguments, found 1".into())
        );
        assert_eq!(err("p1 cbr x1"), (7, "'x1' is no amount".into()));
        assert_eq!(
            err("p1 cbr 0.0000001").1,
            "'0.0000001' has more than 6 decimal places"
        );
        assert_eq!(
            err("d dh x1 As").1,
            "'x1' is no player to deal to (pN, N from 1)"
        );
        assert_eq!(
            err("d db AsK"),
            (5, "'AsK' is no list of cards: an odd number of characters (a card is a rank and a suit)".into())
        );
        assert_eq!(
            err("d db As1s").1,
            "'As1s' is no list of cards: card 2 '1s' is not a rank (23456789TJQKA or ?) and a suit (cdhs or ?)"
        );
        // The commentary stays with an error.
        let (a, _) = parse("p1 zz # why");
        assert_eq!(
            (a.actor, a.kind, a.commentary),
            (Some("p1"), None, Some("why"))
        );
    }
}
