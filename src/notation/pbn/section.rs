//! The Auction and Play sections of PBN (2.1 sections 3.5 to 3.9): the
//! lexer's white-space separated tokens cut into PBN's own tokens (calls
//! and cards, suffixes, note references, NAGs, `*`, `+`, irregularities),
//! then read in order: the seat of each call, `AP` as the passes it stands
//! for, `-` placeholders, annotations after a call or card, and the play's
//! seat columns.

use crate::error::{Diag, Diags};
use crate::games::bridge::auction::Call;
use crate::games::bridge::seat::Seat;
use crate::notation::tagpair::lex::Token;

use super::values::{parse_call, parse_card};
pub use crate::notation::bridge_board::{Auction, CallRow, End, Marks, Place, Play};

/// A PBN token inside a lexer token (`1S!!=1=$25` is four).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    /// A call or card token: letters, digits and `-` (`1S`, `Pass`, `AP`,
    /// `HK`, `-`).
    Word(&'a [u8]),
    /// `!`, `?`, `!!`, `??`, `!?`, `?!`.
    Suffix(&'a [u8]),
    /// `=n=`: a reference to note `n`.
    NoteRef(u32),
    /// `$n`.
    Nag(&'a [u8]),
    /// `*`: the section ends here.
    End,
    /// `+`: the next call or card, to be made.
    Next,
    /// `^I`, `^S`, `^R` or `^L` (the letter, upper case).
    Irregular(u8),
    /// Anything else.
    Other(&'a [u8]),
}

/// The pieces of a token, with their offsets in the record and their text.
pub struct Pieces<'a> {
    text: &'a [u8],
    at: u32,
    i: usize,
}

impl<'a> Pieces<'a> {
    pub fn new(t: &Token<'a>) -> Self {
        Pieces {
            text: t.text,
            at: t.at,
            i: 0,
        }
    }
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-'
}

/// Bytes that start a piece other than [`Piece::Other`].
fn starts_piece(b: u8) -> bool {
    is_word(b) || matches!(b, b'!' | b'?' | b'=' | b'$' | b'*' | b'+' | b'^')
}

impl<'a> Iterator for Pieces<'a> {
    /// The piece, its offset in the record, its text.
    type Item = (Piece<'a>, u32, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        let r = self.text;
        let i = self.i;
        let &b = r.get(i)?;
        let run = |from: usize, f: fn(u8) -> bool| {
            from + r[from..]
                .iter()
                .position(|&c| !f(c))
                .unwrap_or(r.len() - from)
        };
        let digits = |from: usize| run(from, |c: u8| c.is_ascii_digit());
        let (piece, end) = match b {
            _ if is_word(b) => {
                let end = run(i, is_word);
                (Piece::Word(&r[i..end]), end)
            }
            b'!' | b'?' => {
                let end = if matches!(r.get(i + 1), Some(b'!' | b'?')) {
                    i + 2
                } else {
                    i + 1
                };
                (Piece::Suffix(&r[i..end]), end)
            }
            b'=' => {
                let d = digits(i + 1);
                match crate::notation::number::parse_u32(&r[i + 1..d]) {
                    Some(n) if r.get(d) == Some(&b'=') => (Piece::NoteRef(n), d + 1),
                    _ => (Piece::Other(&r[i..i + 1]), i + 1),
                }
            }
            b'$' => {
                let d = digits(i + 1);
                if d > i + 1 {
                    (Piece::Nag(&r[i..d]), d)
                } else {
                    (Piece::Other(&r[i..i + 1]), i + 1)
                }
            }
            b'*' => (Piece::End, i + 1),
            b'+' => (Piece::Next, i + 1),
            b'^' => match r.get(i + 1).map(u8::to_ascii_uppercase) {
                Some(l @ (b'I' | b'S' | b'R' | b'L')) => (Piece::Irregular(l), i + 2),
                _ => (Piece::Other(&r[i..i + 1]), i + 1),
            },
            _ => {
                // Up to the next byte that starts a piece (always ASCII, so
                // the text stays whole UTF-8 characters).
                let end = i
                    + 1
                    + r[i + 1..]
                        .iter()
                        .position(|&c| starts_piece(c))
                        .unwrap_or(r.len() - i - 1);
                (Piece::Other(&r[i..end]), end)
            }
        };
        self.i = end;
        Some((piece, self.at + i as u32, &r[i..end]))
    }
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Reads an Auction section whose first call is `first`'s.
pub fn read_auction<'a>(first: Seat, tokens: &[Token<'a>], diags: &mut Diags) -> Auction<'a> {
    let mut a = Auction::default();
    let mut seat = first;
    // Marks written before the call they belong to (`^I`, `^S`).
    let mut before = Marks::default();
    let mut insufficient = false;
    let mut warned_after_end = false;
    for t in tokens {
        for (piece, at, text) in Pieces::new(t) {
            if a.end != End::Open {
                if !warned_after_end {
                    warned_after_end = true;
                    diags.push(Diag::warning(
                        at as usize,
                        "B027",
                        format!(
                            "'{}' after the auction's '{}' (which ends it): ignored",
                            lossy(text),
                            if a.end == End::Star { "*" } else { "+" }
                        ),
                    ));
                }
                continue;
            }
            if a.first_turn.is_none()
                && matches!(piece, Piece::Word(_) | Piece::Irregular(b'S'))
                && piece != Piece::Word(b"-")
            {
                a.first_turn = Some((seat, at));
            }
            match piece {
                Piece::Word(b"-") => {
                    if !a.calls.is_empty() {
                        diags.push(Diag::warning(
                            at as usize,
                            "B024",
                            "'-' (not yet the player's turn) after the first call: read as a turn without a call".to_string(),
                        ));
                    }
                    seat = seat.next();
                }
                Piece::Word(w) if w.eq_ignore_ascii_case(b"AP") => {
                    let passes = passes_left(&a.calls);
                    if passes == 0 {
                        diags.push(Diag::warning(
                            at as usize,
                            "B024",
                            "'AP' (all pass) after the auction had ended: no call".to_string(),
                        ));
                    }
                    for k in 0..passes {
                        let marks = if k == 0 {
                            std::mem::take(&mut before)
                        } else {
                            Marks::default()
                        };
                        a.calls.push(CallRow {
                            seat,
                            call: Call::Pass,
                            text,
                            at,
                            marks,
                            insufficient: false,
                        });
                        seat = seat.next();
                    }
                }
                Piece::Word(w) => match parse_call(w) {
                    Some(call) => {
                        let canonical = super::values::call_text(call);
                        if !w.eq_ignore_ascii_case(canonical.as_bytes()) {
                            diags.push(Diag::info(
                                at as usize,
                                "B032",
                                format!("call '{}' read as {canonical}", lossy(w)),
                            ));
                        }
                        a.calls.push(CallRow {
                            seat,
                            call,
                            text,
                            at,
                            marks: std::mem::take(&mut before),
                            insufficient: std::mem::take(&mut insufficient),
                        });
                        seat = seat.next();
                    }
                    None => unknown(diags, at, text, "a call (Pass, X, XX, 1C ... 7NT, AP, -)"),
                },
                Piece::Irregular(b'S') => {
                    // A call out of rotation skipped this player's turn.
                    before.add(text);
                    seat = seat.next();
                }
                Piece::Irregular(b'I') => {
                    if insufficient {
                        unknown(diags, at, text, "a call: a second ^I before one call");
                    }
                    before.add(text);
                    insufficient = true;
                }
                Piece::Irregular(_) => unknown(diags, at, text, "a call (^R and ^L mark cards)"),
                Piece::Suffix(_) | Piece::Nag(_) | Piece::NoteRef(_) => match a.calls.last_mut() {
                    Some(c) => annotate(&mut c.marks, piece, at, text, true, diags),
                    None => unknown(diags, at, text, "a call before its annotation"),
                },
                Piece::End => a.end = End::Star,
                Piece::Next => a.end = End::Plus,
                Piece::Other(_) => unknown(diags, at, text, "a call or its annotation"),
            }
        }
    }
    leftover(diags, tokens, &before, "auction", "call");
    a
}

/// Marks left at the end of a section that mark nothing (B024).
fn leftover(diags: &mut Diags, tokens: &[Token<'_>], before: &Marks, section: &str, item: &str) {
    if !before.annotation.is_empty() {
        diags.push(Diag::warning(
            tokens.last().map_or(0, |t| t.at as usize),
            "B024",
            format!(
                "'{}' at the end of the {section} marks no {item}: ignored",
                before.annotation
            ),
        ));
    }
}

/// The passes `AP` stands for after `calls`: three after a bid, double or
/// redouble (less those made since), four when nobody has bid.
fn passes_left(calls: &[CallRow<'_>]) -> usize {
    let trailing = calls
        .iter()
        .rev()
        .take_while(|c| c.call == Call::Pass)
        .count();
    if trailing == calls.len() {
        4usize.saturating_sub(trailing)
    } else {
        3usize.saturating_sub(trailing)
    }
}

/// Adds a suffix, NAG or note reference to the marks of the call or card
/// before it: at most one suffix (or NAG that stands for one), NAGs of its
/// section ($1 to $6 and $13 for calls, $7 to $12 and $14 for cards), up to
/// $255, one note reference (B028, B026).
fn annotate(
    marks: &mut Marks,
    piece: Piece<'_>,
    at: u32,
    text: &[u8],
    call: bool,
    diags: &mut Diags,
) {
    let mut warn = |code, msg: String| diags.push(Diag::warning(at as usize, code, msg));
    match piece {
        Piece::NoteRef(n) => {
            if let Some(old) = marks.note {
                warn(
                    "B026",
                    format!(
                        "a second note reference '{}' after one call or card (it refers to note {old}): the first is used",
                        lossy(text)
                    ),
                );
                marks.add(text);
            } else {
                marks.note = Some(n);
            }
            return;
        }
        Piece::Nag(t) => {
            let n = crate::notation::number::parse_u32(&t[1..]).unwrap_or(u32::MAX);
            let (own, other) = if call { ((1..=6), 13) } else { ((7..=12), 14) };
            if n > 255 {
                warn("B028", format!("NAG {} is over $255", lossy(t)));
            } else if (1..=14).contains(&n) && !own.contains(&n) && n != other {
                warn(
                    "B028",
                    format!(
                        "NAG {} is for {} (PBN 3.7)",
                        lossy(t),
                        if call {
                            "cards, not calls"
                        } else {
                            "calls, not cards"
                        }
                    ),
                );
            }
            if (1..=12).contains(&n) {
                marks.suffixes += 1;
            }
        }
        _ => marks.suffixes += 1,
    }
    if marks.suffixes == 2 {
        warn(
            "B028",
            format!(
                "a second suffix '{}' after one {} (a suffix, or the NAG that stands for one, comes once)",
                lossy(text),
                if call { "call" } else { "card" }
            ),
        );
    }
    marks.add(text);
}

fn unknown(diags: &mut Diags, at: u32, text: &[u8], expected: &str) {
    diags.push(Diag::warning(
        at as usize,
        "B024",
        format!("'{}' is not {expected}: ignored", lossy(text)),
    ));
}

/// Reads a Play section whose first card is `first`'s: cards in seat
/// columns (the k-th place of a trick is the k-th seat clockwise from
/// `first`), `-` and `+` holding a place without a card.
pub fn read_play<'a>(first: Seat, tokens: &[Token<'a>], diags: &mut Diags) -> Play<'a> {
    let mut p = Play::default();
    let (mut revoke, mut led) = (false, false);
    let mut before = Marks::default();
    let mut warned_after_end = false;
    for t in tokens {
        for (piece, at, text) in Pieces::new(t) {
            if p.end == End::Star {
                if !warned_after_end {
                    warned_after_end = true;
                    diags.push(Diag::warning(
                        at as usize,
                        "B027",
                        format!(
                            "'{}' after the play's '*' (which ends it): ignored",
                            lossy(text)
                        ),
                    ));
                }
                continue;
            }
            let place = |card, placeholder, marks, revoke, led| Place {
                seat: first.after(p.places.len() % 4),
                card,
                text,
                at,
                marks,
                revoke,
                led_out_of_turn: led,
                placeholder,
            };
            match piece {
                Piece::Word(b"-") | Piece::Next => {
                    if piece == Piece::Next {
                        p.end = End::Plus;
                    }
                    let pl = place(None, true, std::mem::take(&mut before), false, false);
                    p.places.push(pl);
                }
                Piece::Word(w) => {
                    let card = parse_card(w);
                    if card.is_none() {
                        diags.push(Diag::warning(
                            at as usize,
                            "B025",
                            format!(
                                "'{}' is not a card (suit S H D C, then rank A K Q J T 9 ... 2): its place is kept without a card",
                                lossy(w)
                            ),
                        ));
                    }
                    let pl = place(
                        card,
                        false,
                        std::mem::take(&mut before),
                        std::mem::take(&mut revoke),
                        std::mem::take(&mut led),
                    );
                    p.places.push(pl);
                }
                Piece::Irregular(l @ (b'R' | b'L')) => {
                    if revoke || led {
                        diags.push(Diag::warning(
                            at as usize,
                            "B025",
                            format!(
                                "'{}' after {} before one card: a card is a revoke (^R) or a lead out of turn (^L), once",
                                lossy(text),
                                if revoke { "^R" } else { "^L" }
                            ),
                        ));
                    }
                    before.add(text);
                    if l == b'R' {
                        revoke = true;
                    } else {
                        led = true;
                    }
                }
                Piece::Irregular(_) => unknown(diags, at, text, "a card (^I and ^S mark calls)"),
                Piece::Suffix(_) | Piece::Nag(_) | Piece::NoteRef(_) => match p.places.last_mut() {
                    Some(c) => annotate(&mut c.marks, piece, at, text, false, diags),
                    None => unknown(diags, at, text, "a card before its annotation"),
                },
                Piece::End => {
                    if p.end == End::Plus {
                        diags.push(Diag::warning(
                            at as usize,
                            "B027",
                            "'*' after a '+': a play to be continued does not end with '*'"
                                .to_string(),
                        ));
                    }
                    p.end = End::Star;
                }
                Piece::Other(_) => unknown(diags, at, text, "a card or its annotation"),
            }
        }
    }
    leftover(diags, tokens, &before, "play", "card");
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Token<'_>> {
        let mut out = Vec::new();
        let mut at = 0;
        for (line, l) in s.split('\n').enumerate() {
            for w in l.split(' ') {
                if !w.is_empty() {
                    let off = at + (w.as_ptr() as usize - l.as_ptr() as usize);
                    out.push(Token {
                        text: w.as_bytes(),
                        at: off as u32,
                        line: line as u32,
                    });
                }
            }
            at += l.len() + 1;
        }
        out
    }

    fn pieces(s: &str) -> Vec<Piece<'_>> {
        let t = Token {
            text: s.as_bytes(),
            at: 0,
            line: 0,
        };
        Pieces::new(&t).map(|p| p.0).collect()
    }

    #[test]
    fn tokens_cut_into_pbn_tokens() {
        use Piece::*;
        assert_eq!(
            pieces("1S!!=1=$25"),
            [Word(b"1S"), Suffix(b"!!"), NoteRef(1), Nag(b"$25")]
        );
        assert_eq!(pieces("^I1C"), [Irregular(b'I'), Word(b"1C")]);
        assert_eq!(pieces("HK?!*"), [Word(b"HK"), Suffix(b"?!"), End]);
        assert_eq!(pieces("!?!"), [Suffix(b"!?"), Suffix(b"!")]);
        assert_eq!(
            pieces("=x=$"),
            [Other(b"="), Word(b"x"), Other(b"="), Other(b"$")]
        );
        assert_eq!(pieces("^r"), [Irregular(b'R')]);
        assert_eq!(
            pieces("\u{e9}\u{e9}1S"),
            [Other("\u{e9}\u{e9}".as_bytes()), Word(b"1S")]
        );
    }

    fn calls(a: &Auction<'_>) -> Vec<(Seat, String, String, Option<u32>)> {
        a.calls
            .iter()
            .map(|c| {
                (
                    c.seat,
                    super::super::values::call_text(c.call).to_string(),
                    lossy(c.text),
                    c.marks.note,
                )
            })
            .collect()
    }

    #[test]
    fn the_spec_example_auction() {
        // PBN 2.1 chapter 1.2.
        let t = toks(
            "1D      1S   3H =1= 4S\n4NT =2= X    Pass   Pass\n5C      X    5H     X\nPass    Pass Pass",
        );
        let mut d = Diags::default();
        let a = read_auction(Seat::N, &t, &mut d);
        assert!(d.finish().is_empty());
        let got = calls(&a);
        assert_eq!(got.len(), 15);
        assert_eq!(got[2], (Seat::S, "3H".into(), "3H".into(), Some(1)));
        assert_eq!(got[4], (Seat::N, "4NT".into(), "4NT".into(), Some(2)));
        assert_eq!(got[14], (Seat::S, "Pass".into(), "Pass".into(), None));
        assert_eq!(a.end, End::Open);
    }

    #[test]
    fn ap_placeholders_and_irregularities() {
        use Seat::*;
        // West's table of four columns, North dealer: '-' before it; AP
        // after 1S X is three passes.
        let t = toks("- 1S ! $15 X AP");
        let mut d = Diags::default();
        let a = read_auction(W, &t, &mut d);
        assert!(d.finish().is_empty());
        let got: Vec<(Seat, String, String)> =
            calls(&a).into_iter().map(|c| (c.0, c.1, c.2)).collect();
        assert_eq!(
            got,
            [
                (N, "1S".into(), "1S".into()),
                (E, "X".into(), "X".into()),
                (S, "Pass".into(), "AP".into()),
                (W, "Pass".into(), "AP".into()),
                (N, "Pass".into(), "AP".into()),
            ]
        );
        assert_eq!(a.calls[0].marks.annotation, "! $15");
        // PBN 3.9 (B): West is dealer, South bids 1C after West's 1D; (A)
        // an accepted insufficient bid.
        let t = toks("1D ^S ^S ^I 1C AP");
        let mut d = Diags::default();
        let a = read_auction(W, &t, &mut d);
        assert_eq!(a.calls[1].seat, S);
        assert!(a.calls[1].insufficient);
        assert_eq!(a.calls[1].marks.annotation, "^S ^S ^I");
        assert_eq!(a.calls.len(), 5);
        // Nobody bid: AP is four passes; '*' ends, what follows warns.
        let t = toks("AP * 1S");
        let mut d = Diags::default();
        let a = read_auction(E, &t, &mut d);
        assert_eq!((a.calls.len(), a.end), (4, End::Star));
        let w = d.finish();
        assert_eq!(w.iter().map(|w| w.code).collect::<Vec<_>>(), ["B027"]);
    }

    #[test]
    fn the_spec_example_play_places() {
        let t = toks("SK =1= H3 S4 S3\nC5 C2 C6 CK\n-  -  -  H2\n*");
        let mut d = Diags::default();
        let p = read_play(Seat::W, &t, &mut d);
        assert!(d.finish().is_empty());
        assert_eq!(p.places.len(), 12);
        assert_eq!(p.end, End::Star);
        assert_eq!(
            (p.places[0].seat, p.places[0].marks.note),
            (Seat::W, Some(1))
        );
        assert_eq!(p.places[5].seat, Seat::N);
        assert_eq!(lossy(p.places[5].text), "C2");
        assert!(p.places[8].placeholder && p.places[8].card.is_none());
        assert_eq!(p.places[11].seat, Seat::S);
    }

    #[test]
    fn play_irregularities_and_continuation() {
        // PBN 3.9 (C) and (D); '+' holds West's place in the second trick.
        let t = toks("CA ^R S6 C3 C4\n+ - - ^L CQ");
        let mut d = Diags::default();
        let p = read_play(Seat::W, &t, &mut d);
        assert!(d.finish().is_empty());
        assert!(p.places[1].revoke && p.places[1].marks.annotation == "^R");
        assert_eq!(p.places.len(), 8);
        assert!(p.places[7].led_out_of_turn);
        assert_eq!(p.places[7].seat, Seat::S);
        assert_eq!(p.end, End::Plus);
        // A token that is not a card keeps its place.
        let t = toks("S1 H2");
        let mut d = Diags::default();
        let p = read_play(Seat::N, &t, &mut d);
        assert_eq!(p.places.len(), 2);
        assert_eq!(p.places[1].seat, Seat::E);
        assert_eq!(d.finish()[0].code, "B025");
    }
}
