//! The diagnostic codes of Portable Preferans Notation (prefix `F`): F001
//! and F002 quarantine a game, F003 and F004 are warnings that a line of a
//! converted game was not read (its text in `raw`), F010 to F019 are
//! warnings of the notation, F020 to F029 of the rules, F040 an info, F101 the bound on
//! warnings.

use crate::diagnostics::Code;
use crate::error::Severity::{Error, Info, Warning};

pub const CODES: &[Code] = &[
    Code {
        code: "F001",
        severity: Error,
        title: "game too large",
        explain: "A game runs past what deckhand reads of one game (64 MiB; a game of a \
hundred deals is about 10 KB, so this is a file that is no Preferans notation). It is \
quarantined with the start of its text.",
    },
    Code {
        code: "F002",
        severity: Error,
        title: "no game",
        explain: "A record holds neither a tag pair nor a deal line (stray text, binary \
bytes), or it is a hand of Portable Pinochle Notation (its quoted tags, no deal line) in \
a file read as Preferans: a file that mixes the two PPNs. It is quarantined with its raw \
text; convert a pinochle file on its own (or with `--notation ppn`).",
    },
    Code {
        code: "F003",
        severity: Warning,
        title: "line not read",
        explain: "A line of a game that is neither a tag pair, a deal line nor a comment \
(`;`, `%`, `{...}`), or a '[' without its ']'. The line is not read: its text is the \
row's `raw`, and the rest of the game is converted.",
    },
    Code {
        code: "F004",
        severity: Warning,
        title: "deal line not read",
        explain: "A deal line has 14 fields (id, deal order, cards, bids, main, discarded, \
contract, accepted, kontra, refa, value, starts, throws, summary), or 4 when every player \
passed (`[2 312 <cards> P,P,P]`). One with 13 is read when exactly one field can be \
missing so that every other reads in its place (F013); any other count, or 13 that fit \
several ways or none, and the line is not read: its text is the row's `raw`, and the \
rest of the game is converted. The line keeps its `seq` number: the game's next deal is \
one more.",
    },
    Code {
        code: "F005",
        severity: Error,
        title: "a comment that never closes",
        explain: "A '{' comment opened in a game never closes: it runs to the end of the \
file, and whatever games stand after it would be read as the comment. The game it opens \
in ends before it (its rows are written), and the text from the comment's line to the end \
of the file is quarantined as one record, with its raw text; the message names the \
comment's line. Close the comment and convert the file again.",
    },
    Code {
        code: "F010",
        severity: Warning,
        title: "required tag missing",
        explain: "The spec requires Bula, Refe, Player1 to Player3 and Result1 to Result3 \
in every game. Their columns are null.",
    },
    Code {
        code: "F011",
        severity: Warning,
        title: "tag value not a number",
        explain: "Bula, Refe, Result1 to Result3 and Place1 to Place3 are integers; this one \
is not (or is out of range). Its column is null and the tag is kept in `other_tags` as \
written.",
    },
    Code {
        code: "F012",
        severity: Warning,
        title: "tag repeated",
        explain: "A tag given twice in one game: the first value is its column's, the \
later ones are kept in `other_tags`.",
    },
    Code {
        code: "F013",
        severity: Warning,
        title: "deal line with a field missing",
        explain: "A deal line of 13 fields read with the one field missing that lets every \
other read in its place (the spec's own example writes its first deal without the \
refa). The missing field's column is null.",
    },
    Code {
        code: "F014",
        severity: Warning,
        title: "field not read",
        explain: "A field of a deal line does not read as its kind (a deal order that is no \
order of the three players, a card string that is not 32 cards of the table, a player \
other than 1 to 3, a contract outside 2 to 8, a kontra that is not `0` or a letter and a \
player, a refa other than 0 or 1, a summary entry of another form, a throw that is not \
two or three cards and its winner). Its column is null (the field's text stays in the \
deal's text columns), and what depends on it is not computed.",
    },
    Code {
        code: "F015",
        severity: Warning,
        title: "quote not closed",
        explain: "A tag value opens a quote that does not close before the ']'; the value \
is read from after the quote to the line's last ']'.",
    },
    Code {
        code: "F016",
        severity: Warning,
        title: "text after the ']'",
        explain: "A tag pair or deal line is followed on its line by text that is not a \
comment. The text is kept in the game's `comments`.",
    },
    Code {
        code: "F017",
        severity: Warning,
        title: "passed out or not",
        explain: "A deal line's form and its bids disagree: the short form (4 fields) with \
a bid that is not a pass, or a full line whose three bids are passes. `passed_out` \
follows the bids.",
    },
    Code {
        code: "F018",
        severity: Warning,
        title: "summary and roles disagree",
        explain: "A summary entry's role (`M` main, `F` follower, `0` did not play) is not \
the one the main and accepted fields give the player (an `M` for a player who is not the \
main player, a follower's entry for the main player). `seats.role` follows the summary. \
The player a follower invites (`I1` to `I3`) may have `0` or an `F` entry: the spec writes \
both for the same deal; neither is warned about.",
    },
    Code {
        code: "F020",
        severity: Warning,
        title: "cards dealt wrong",
        explain: "The 32 cards dealt are not the deck: a card given twice (and so another \
missing). The message names both.",
    },
    Code {
        code: "F021",
        severity: Warning,
        title: "discard not held",
        explain: "The main player discards a card that was neither dealt to them nor in the \
talon (or discards two cards while playing without the talon, or `XX` with it). The \
message names the card and the cards the main player held.",
    },
    Code {
        code: "F022",
        severity: Warning,
        title: "card not held",
        explain: "A card played that the player does not hold: not dealt to them (the main \
player's hand is the cards dealt, with the talon, less the discards), or played already \
in an earlier trick. The rules take it as played.",
    },
    Code {
        code: "F023",
        severity: Warning,
        title: "suit not followed",
        explain: "A card of another suit while the player holds the suit led (or, in a \
trump contract, neither the suit led nor a trump while the player holds a trump).",
    },
    Code {
        code: "F024",
        severity: Warning,
        title: "winner not the rules'",
        explain: "A throw's annotated winner (its last character) is not the player whose \
card wins by the rules (the highest trump, else the highest card of the suit led). The \
message gives both; `tricks.winner` is the annotation, `tricks.computed_winner` the \
rules'. The next trick's leader is the annotated winner, as the notation writes it.",
    },
    Code {
        code: "F025",
        severity: Warning,
        title: "tricks not the rules'",
        explain: "A summary's tricks for a player are not those the player won in the throws \
by the rules (when all ten tricks were played; when play stopped early, only fewer than \
the throws give). The message gives both.",
    },
    Code {
        code: "F026",
        severity: Warning,
        title: "throw's players not told",
        explain: "Throws of two cards when the players who play cannot be told (both \
followers accepted, or no follower was named), or whose leader does not play (one \
warning a deal, with the first and the count): their cards are kept, and the deal's \
computed winners are null.",
    },
    Code {
        code: "F040",
        severity: Info,
        title: "tricks not computed",
        explain: "The rules could not replay the deal's throws: the contract is preferans \
(8), whose rules the spec does not give, or the contract, the deal order, the cards or a \
throw could not be read, or no card was played though a follower accepted. The deal's \
computed winners and tricks are null. (A deal nobody follows, `accepted` 0 and `0` \
throws, has null computed tricks too, without this info: nothing was played.)",
    },
    Code::more_warnings("F101"),
];
