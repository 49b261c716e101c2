//! The diagnostic codes of Poker Hand History (prefix `H`): H001 to H003
//! quarantine a hand (it cannot be read at all), the others are warnings
//! of a hand that is converted.

use crate::diagnostics::Code;
use crate::error::Severity::{Error, Info, Warning};

pub const CODES: &[Code] = &[
    Code {
        code: "H001",
        severity: Error,
        title: "not TOML",
        explain: "A PHH hand is a TOML document (a .phh file) or a TOML table (a hand of a \
.phhs file); this one breaks TOML's syntax (the message is the toml crate's, at the \
place it names: an unclosed string or array, a key given twice, a value TOML has not). \
The hand is quarantined with its raw text; the other hands of the file are read.",
    },
    Code {
        code: "H002",
        severity: Error,
        title: "hand too large",
        explain: "A hand runs past what deckhand reads of one hand (16 MiB; real hands are a \
few KB, so this is a file that is no PHH or a table header missing): it is quarantined \
with the start of its text.",
    },
    Code {
        code: "H003",
        severity: Error,
        title: "not UTF-8",
        explain: "TOML files are UTF-8; this hand holds bytes that are not (a file saved in \
another encoding). It is quarantined with its raw text.",
    },
    Code {
        code: "H004",
        severity: Warning,
        title: "a table given twice",
        explain: "A `.phhs` file gives a table key (`[2]`) a second time. A TOML reader \
refuses the whole file; deckhand, like the lenient readers, keeps both hands, each its own \
row, and warns on the second, naming the first's record_index.",
    },
    Code {
        code: "H010",
        severity: Warning,
        title: "required field missing",
        explain: "The variant requires fields this hand does not give (every variant: \
variant, antes, starting_stacks, actions; button games blinds_or_straddles; stud \
bring_in; fixed-limit small_bet and big_bet; no-limit and pot-limit min_bet). Their \
columns are null; the hand is converted.",
    },
    Code {
        code: "H011",
        severity: Warning,
        title: "field the variant does not use",
        explain: "The standard says min_bet is never given in fixed-limit games, small_bet \
and big_bet only in fixed-limit ones, bring_in only in stud and blinds_or_straddles \
never with a bring-in. The value is kept in its column all the same.",
    },
    Code {
        code: "H012",
        severity: Warning,
        title: "value of the wrong type",
        explain: "A field's TOML value is not of the type the standard gives it (a float \
where an integer is required, a string where a number is, a number where a string \
is, a time that is not a local time). Its column is null and the field is kept in \
user_fields as written. An action that is not a string keeps its TOML text in \
actions.text and does nothing.",
    },
    Code {
        code: "H013",
        severity: Warning,
        title: "array of the wrong length",
        explain: "A per-player array (antes, blinds_or_straddles, starting_stacks, \
finishing_stacks, winnings, time_banks, seats, players) has another length than the \
number of players (the length of starting_stacks). Which value belongs to which \
player is not known: the array is kept in user_fields and not placed in players.",
    },
    Code {
        code: "H014",
        severity: Warning,
        title: "value out of range",
        explain: "An amount deckhand cannot hold exactly (more than 6 decimal places, 10^12 \
or more, nan, inf where a known amount is required), a negative amount, or an integer \
beyond 32 bits where one is expected. A value that cannot be held is kept in \
user_fields; a negative one stays in its column.",
    },
    Code {
        code: "H015",
        severity: Warning,
        title: "unknown variant",
        explain: "The variant code is none of the standard's 11 (FT, NT, NS, PO, FO/8, F7S, \
F7S/8, FR, N2L1D, F2L3D, FB; codes are case-sensitive). The hand is converted with the \
variant as written; which fields it requires is not known, so that is not checked.",
    },
    Code {
        code: "H020",
        severity: Warning,
        title: "action not read",
        explain: "An action string breaks the standard's grammar ([[Actor Action[ \
Arguments...]][ # Commentary]]): an actor that is not d or pN, an action code the \
actor has not, the wrong number of arguments, an amount that is no number, cards \
that are not rank-suit pairs. The row keeps the text, the commentary, the actor and, \
when only its amount or cards cannot be read, the action (with a null amount or null \
cards); otherwise its action is null.",
    },
    Code {
        code: "H021",
        severity: Warning,
        title: "card not in the variant's deck",
        explain: "Short-deck hold'em (NS) is played without deuces to fives; a card of \
those ranks cannot have been dealt. The cards are kept as written.",
    },
    Code {
        code: "H022",
        severity: Warning,
        title: "player out of range",
        explain: "An action names player pN beyond the number of players (the length of \
starting_stacks). The row's player column is null; the actor column keeps pN.",
    },
    Code {
        code: "H023",
        severity: Warning,
        title: "'-' with no cards dealt",
        explain: "pN sm - shows the cards dealt to the player, and the hand deals the \
player none before it (or the player is out of range): the row's cards are null.",
    },
    Code {
        code: "H030",
        severity: Warning,
        title: "unknown field",
        explain: "A field that is none of the standard's and does not start with '_' (the \
mark of a user-defined field): it is kept in user_fields as written.",
    },
    Code {
        code: "H040",
        severity: Warning,
        title: "action out of turn",
        explain: "By the rules another player is to act (the order of play: position, \
stud by up cards, draws in player order). deckhand does not guess what the record left \
out: the replay stops at this action and the hand's computed values are null (the rows \
are converted as written).",
    },
    Code {
        code: "H041",
        severity: Warning,
        title: "amount outside the betting limits",
        explain: "A completion, bet or raise to less than the minimum (the big blind or \
min_bet, the last full raise; small_bet or big_bet in fixed-limit rounds) or more than \
the maximum (the fixed amount, the pot in pot-limit games), an all-in for less aside. \
The amount is replayed as written.",
    },
    Code {
        code: "H042",
        severity: Warning,
        title: "card dealt twice",
        explain: "A known card dealt or shown that is in play already (in a player's hand or \
on the board). The replay goes on with the cards as written.",
    },
    Code {
        code: "H043",
        severity: Warning,
        title: "action after the hand is over",
        explain: "Everyone but one player folded, or the pots were awarded, and the record \
goes on. The action is converted and not replayed; the hand's outcome stands.",
    },
    Code {
        code: "H044",
        severity: Warning,
        title: "finishing stacks or winnings disagree",
        explain: "The record's winnings (the chips each player won from the pots) or \
finishing_stacks are not those of the replay, and the difference is not the same \
fraction of every winner's share (a rake, reported in hands.computed_rake). The \
message gives both values of each player who differs.",
    },
    Code {
        code: "H045",
        severity: Info,
        title: "replay stopped: action not allowed",
        explain: "The rules allow no such action at this point (a bet while cards are being \
dealt, a call where the bring-in is due, a raise beyond the cap or by a player covered \
by the bet, more chips than the stack, a discard of cards not held, an action by a \
player who folded) or the action could not be read. The replay stops; the hand's \
computed values are null.",
    },
    Code {
        code: "H046",
        severity: Info,
        title: "no outcome",
        explain: "The record ends before the hand is over (the standard allows partial \
histories), or unknown hole cards would decide a pot at the showdown. Nothing is \
guessed: the pot, payoffs, finishing stacks and hands are null; the kinds of the \
actions replayed and computed_streets are kept.",
    },
    Code {
        code: "H047",
        severity: Info,
        title: "hand not replayed",
        explain: "The replay needs the variant (one of the 11), the forced bets and betting \
amounts it requires and the starting stacks, of the right lengths; or the hand breaks a \
rule of its setup (fewer than 2 players, a stack of 0, no forced bet, a bring-in not \
below the small bet). Its computed values are null.",
    },
    Code::more_warnings("H101"),
];
