//! The diagnostic codes of Portable Pinochle Notation (prefix `P`): P001 to
//! P012 quarantine a record, P020 to P040 are warnings of the notation,
//! P050 to P064 of the rules engine (P060 and P061 are infos), P100 and
//! P101 of the bounds deckhand keeps.

use crate::diagnostics::Code;
use crate::error::Severity::{Error, Info, Warning};
use crate::notation::tagpair::unterminated_comment;

pub const CODES: &[Code] = &[
    Code {
        code: "P001",
        severity: Error,
        title: "unterminated string",
        explain: "A tag value's opening quote has no closing quote on its line (a value \
does not span lines). The record is quarantined with its raw text.",
    },
    Code {
        code: "P002",
        severity: Error,
        title: "missing ']'",
        explain: "A tag pair is not closed by ']' after its value.",
    },
    unterminated_comment("P003"),
    Code {
        code: "P004",
        severity: Error,
        title: "text outside a tag pair or section",
        explain: "Something other than a tag pair, a section token of the tag before, a \
comment or an escape line: stray text, binary bytes, a file in another encoding.",
    },
    Code {
        code: "P005",
        severity: Error,
        title: "missing tag name",
        explain: "A '[' is not followed by a tag name.",
    },
    Code {
        code: "P006",
        severity: Error,
        title: "tag value without quotes",
        explain: "A tag's value is not a quoted string. Portable Preferans Notation, \
another game's PPN, writes values unquoted: the message says so when the tag is one of \
its tags; convert such files with `--notation preferans-ppn`.",
    },
    Code {
        code: "P007",
        severity: Error,
        title: "segmental prefix without a tag",
        explain: "A segmental prefix ('@A1-P3=') is not followed by a tag pair.",
    },
    Code {
        code: "P008",
        severity: Error,
        title: "invalid segmental prefix",
        explain: "A segmental prefix is not '@' segment[.number[.number]]-[segment...]= \
with segments D, A, X, M, P or R.",
    },
    Code {
        code: "P009",
        severity: Error,
        title: "record over 64 MiB",
        explain: "A record this large is quarantined without being parsed, so that memory \
stays bounded; its raw text is cut at 1 MiB.",
    },
    Code {
        code: "P010",
        severity: Error,
        title: "record of over 100,000 tag pairs, tokens or comments",
        explain: "Quarantined unbuilt, so that memory stays bounded.",
    },
    Code {
        code: "P011",
        severity: Error,
        title: "too many hands without blank lines between them",
        explain: "A record is read as at most 10,000 hands not separated by blank lines, \
within its first 8 MiB; the rest of it is quarantined.",
    },
    Code {
        code: "P012",
        severity: Error,
        title: "record under another notation's file header",
        explain: "A '% PBN' header inside a pinochle file declares Portable Bridge Notation \
for the records after it: they are quarantined unparsed, raw text kept, until a '% PPN' \
header. (deckhand routes a file that starts with '% PBN' to PBN; convert one that starts \
as pinochle and holds bridge with --notation pbn.)",
    },
    Code {
        code: "P020",
        severity: Warning,
        title: "repeated tag",
        explain: "A single-valued tag comes again in a hand: the first value is used and \
the repeats go to other_tags.",
    },
    Code {
        code: "P021",
        severity: Warning,
        title: "unreadable value",
        explain: "A known tag's value cannot be read (`[Contract \"6x\"]`): the column is \
null and the tag is kept in other_tags as written.",
    },
    Code {
        code: "P022",
        severity: Warning,
        title: "seat not in the game",
        explain: "A tag names a seat that the game's number of players does not have.",
    },
    Code {
        code: "P023",
        severity: Warning,
        title: "players disagree",
        explain: "The Competition tag and the Deal tag disagree on the number of players.",
    },
    Code {
        code: "P024",
        severity: Warning,
        title: "invalid date",
        explain: "The Date tag is not YYYY.MM.DD (with '?' for unknown parts) or names no \
real day: `date` is null, `date_text` keeps the value.",
    },
    Code {
        code: "P025",
        severity: Warning,
        title: "tokens after a tag that opens no section",
        explain: "Text follows a tag that has no section (only Auction and Play do): it is \
kept in other_tags.",
    },
    Code {
        code: "P026",
        severity: Warning,
        title: "wrong number of hands",
        explain: "A Deal-like tag (Deal, Holding, Melds, Passed) lists another number of \
hands than the game has seats.",
    },
    Code {
        code: "P027",
        severity: Warning,
        title: "section without a start seat",
        explain: "An Auction or Play tag does not name the seat that starts it.",
    },
    Code {
        code: "P028",
        severity: Warning,
        title: "tokens after '*'",
        explain: "A section goes on after '*', which ends it.",
    },
    Code {
        code: "P029",
        severity: Warning,
        title: "auction line break inside a round",
        explain: "An Auction section's line ends before a round of calls does.",
    },
    Code {
        code: "P030",
        severity: Warning,
        title: "bad call",
        explain: "An auction token is not a bid, Pass, '-', '?' or '*'.",
    },
    Code {
        code: "P031",
        severity: Warning,
        title: "trick with the wrong number of cards",
        explain: "A trick of the Play section has other than one card a seat.",
    },
    Code {
        code: "P032",
        severity: Warning,
        title: "annotation without cards",
        explain: "A trick annotation '(W4)' comes before any card of its trick.",
    },
    Code {
        code: "P033",
        severity: Warning,
        title: "bad card",
        explain: "A token of the Play section or a card list is not a card of the deck.",
    },
    Code {
        code: "P034",
        severity: Warning,
        title: "bad trick annotation",
        explain: "A trick annotation is not '(' seat points ')'.",
    },
    Code {
        code: "P035",
        severity: Warning,
        title: "hand without a blank line before it",
        explain: "A hand starts without a blank line after the hand before (a tag comes \
again): it is read as a hand of its own.",
    },
    Code {
        code: "P036",
        severity: Warning,
        title: "the file ends inside a hand's play",
        explain: "The file's last hand runs to the end of the file (no blank line after it) \
and its play stops before its last trick, with no Termination tag and no '*' to say that \
play stopped: the file was probably cut off (a download or a copy that did not finish). \
The hand is converted as far as it goes; its computed score is null.",
    },
    Code {
        code: "P040",
        severity: Warning,
        title: "'#' with nothing to inherit",
        explain: "A value '#' takes the value of the same tag in the hand before; that hand \
has no such tag (or none comes before): the value is null.",
    },
    Code {
        code: "P050",
        severity: Warning,
        title: "not a full double-deck deal",
        explain: "A hand dealt with other than 20 cards a seat, or a deal that is not a \
double deck (missing and extra cards listed).",
    },
    Code {
        code: "P051",
        severity: Warning,
        title: "card not held",
        explain: "A card played that its player was not dealt or had already played.",
    },
    Code {
        code: "P052",
        severity: Warning,
        title: "play breaks the rules",
        explain: "A play breaking the follow, trump or head rules, or a first trick led by \
another seat than the declarer; the message names the suit led, the trump or the card \
winning.",
    },
    Code {
        code: "P053",
        severity: Warning,
        title: "trick winner disagrees with the cards",
        explain: "The annotated winner of a trick is not the one the cards give.",
    },
    Code {
        code: "P054",
        severity: Warning,
        title: "trick points disagree with the cards",
        explain: "The annotated points of a trick are not those of its cards.",
    },
    Code {
        code: "P055",
        severity: Warning,
        title: "meld disagrees with the cards",
        explain: "A seat's meld points, or meld cards shown in the Melds tag that the seat \
was not dealt.",
    },
    Code {
        code: "P056",
        severity: Warning,
        title: "scores disagree with the rules",
        explain: "MeldScores, PlayScores or HandScores are not those the rules compute.",
    },
    Code {
        code: "P057",
        severity: Warning,
        title: "result disagrees with the rules",
        explain: "The Result tag is not the one the rules compute.",
    },
    Code {
        code: "P058",
        severity: Warning,
        title: "declarer disagrees with the auction",
        explain: "The Declarer tag is not the last remaining bidder of the auction.",
    },
    Code {
        code: "P059",
        severity: Warning,
        title: "contract disagrees with the auction",
        explain: "The Contract tag is not the declarer's highest bid.",
    },
    Code {
        code: "P060",
        severity: Info,
        title: "the rules profile does not cover the hand",
        explain: "The profile applies to double-deck four-handed partnership games; other \
hands get null computed values.",
    },
    Code {
        code: "P061",
        severity: Info,
        title: "why computed values are null",
        explain: "Some computed values cannot be derived (no Deal tag and no play, an \
unknown card...): they are null and this row says why.",
    },
    Code {
        code: "P062",
        severity: Warning,
        title: "auction breaks the bidding rules",
        explain: "It does not start at the dealer's left, opens below the minimum bid, a \
bid does not rise, a seat calls after passing, '-' stands for a seat that has not passed, \
a call comes after the auction was won, or it stops while seats can still call.",
    },
    Code {
        code: "P063",
        severity: Warning,
        title: "trump disagrees with the declarer's cards",
        explain: "A suit named by a declarer dealt no marriage, or '-' from a declarer who \
holds one.",
    },
    Code {
        code: "P064",
        severity: Warning,
        title: "hand does not start where the one before ended",
        explain: "When [Hand \"n+1\"] follows [Hand \"n\"], its GameScores must be hand n's \
GameScores plus hand n's HandScores.",
    },
    Code {
        code: "P100",
        severity: Warning,
        title: "tag over 255 bytes",
        explain: "A tag name or value is longer than the spec allows; it is read all the same.",
    },
    Code::more_warnings("P101"),
];
