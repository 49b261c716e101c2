//! The diagnostic codes of Portable Bridge Notation (prefix `B`): B003, B004 and
//! B009 to B012 quarantine a record (B001, B002 and B005 to B007 are the
//! warnings of broken tag pairs read on), B020 to B041 are warnings (and an info) of the
//! notation, B050 to B060 of the bridge rules (B060 is an info), B100 and
//! B101 of the bounds deckhand keeps.

use crate::diagnostics::Code;
use crate::error::Severity::{Error, Info, Warning};
use crate::notation::tagpair::unterminated_comment;

pub const CODES: &[Code] = &[
    Code {
        code: "B001",
        severity: Warning,
        title: "unterminated string",
        explain: "A tag value's opening quote has no closing quote on its line (a value \
does not span lines): the value is read to the last ']' on the line (or the line's end) \
and the game is read on.",
    },
    Code {
        code: "B002",
        severity: Warning,
        title: "missing ']'",
        explain: "A tag pair is not closed by ']' after its value: it is read as closed \
there, and the game is read on.",
    },
    unterminated_comment("B003"),
    Code {
        code: "B004",
        severity: Error,
        title: "a record of stray text",
        explain: "A record (text between blank lines) holds no tag pair at all, only text \
that is neither a comment nor a '%' line (binary bytes, say): nothing of it can be read, \
so it is quarantined with its raw text.",
    },
    Code {
        code: "B005",
        severity: Warning,
        title: "missing tag name",
        explain: "A '[' is not followed by a tag name: the tag pair is skipped (to its \
']' on the line) and the game is read on.",
    },
    Code {
        code: "B006",
        severity: Warning,
        title: "tag value without quotes",
        explain: "A tag's value is not a quoted string (`[Event]`, `[Event No_quotes]`): \
the value is what stands before the ']' on the line (empty for `[Event]`), and the game is \
read on.",
    },
    Code {
        code: "B007",
        severity: Warning,
        title: "stray text in a game",
        explain: "A line of a game that has tag pairs starts with something other than a \
tag pair, a section element of the tag before, a comment or a '%' line (text typed \
before the first tag, say): the line is skipped and named here.",
    },
    Code {
        code: "B009",
        severity: Error,
        title: "record over 64 MiB",
        explain: "A record this large is quarantined without being parsed, so that memory \
stays bounded; its raw text is cut at 1 MiB.",
    },
    Code {
        code: "B010",
        severity: Error,
        title: "record of over 100,000 tag pairs, tokens or comments",
        explain: "Quarantined unbuilt, so that memory stays bounded.",
    },
    Code {
        code: "B011",
        severity: Error,
        title: "too many games without blank lines between them",
        explain: "A record is read as at most 10,000 games not separated by blank lines, \
within its first 8 MiB; the rest of it is quarantined.",
    },
    Code {
        code: "B012",
        severity: Error,
        title: "record under another notation's file header",
        explain: "A '% PPN' header inside a bridge file declares Portable Pinochle \
Notation for the records after it: they are quarantined unparsed, raw text kept, until a \
'% PBN' header. Convert such a file with --notation ppn.",
    },
    Code {
        code: "B020",
        severity: Warning,
        title: "repeated tag",
        explain: "A tag with a column of its own comes again in a game: the first value is \
used and the repeats go to other_tags (PBN 3.4: in import format a repeated tag is \
ignored). An empty tag without section data gives way to a later one of its name (an \
empty Auction tag followed by the real one).",
    },
    Code {
        code: "B021",
        severity: Warning,
        title: "unreadable value",
        explain: "A known tag's value cannot be read (`[Contract \"8S\"]`, `[Deal \"N:AKQ\"]`, \
a date that is not YYYY.MM.DD): the normalized column is null; the `*_text` column, or \
other_tags for a tag without one, keeps the value as written. Also an Auction or Play tag \
that names no seat (the auction is then read from the dealer, when there is one).",
    },
    Code {
        code: "B022",
        severity: Warning,
        title: "'#' where PBN forbids it",
        explain: "PBN 4.8 forbids '#' (inherit the value of the game before) for Dealer, \
Vulnerable, Deal, Declarer, Contract, Auction and Play. Real files write [Deal \"#\"] all \
the same: the value of the game before is used, and this warning says so.",
    },
    Code {
        code: "B023",
        severity: Warning,
        title: "text after a tag that opens no section",
        explain: "Elements follow a tag other than Auction, Play and the tables (`*Table`): \
PBN 5 calls such data a supplemental section. It is kept in score_tables, one row an \
element, under the tag's name and a column named \"\".",
    },
    Code {
        code: "B024",
        severity: Warning,
        title: "unreadable auction element",
        explain: "An element of the Auction section is not a call, an annotation of one \
(suffix, NAG, note reference), an irregularity or '*'/'+': it is left out of the calls \
and named in the message. Also '-' after the first call, 'AP' after the auction ended, \
and marks at the end of a section that mark nothing.",
    },
    Code {
        code: "B025",
        severity: Warning,
        title: "unreadable play element",
        explain: "An element of the Play section is not a card: its place in the seat \
columns is kept (a plays row with a null card and the text as written). Also a play of \
more than 13 tricks.",
    },
    Code {
        code: "B026",
        severity: Warning,
        title: "note problem",
        explain: "A note reference (=n=) has no Note tag \"n:...\" in its section or the \
game's; a call or card has two references; or a Note tag does not start with its number \
and ':' (kept in notes without a number).",
    },
    Code {
        code: "B027",
        severity: Warning,
        title: "elements after the end of a section",
        explain: "Calls or cards follow the '*' that ends the section (or the '+' that ends \
an auction to be continued): they are not read. Also a '*' after a '+' in the play (a \
play to be continued does not end).",
    },
    Code {
        code: "B028",
        severity: Warning,
        title: "annotation problem",
        explain: "A call or card has more than one suffix (or a suffix and the NAG that \
stands for one), a NAG of the other section ($1-$6 and $13 are for calls, $7-$12 and $14 \
for cards) or a NAG over $255. The annotation is kept as written.",
    },
    Code {
        code: "B029",
        severity: Warning,
        title: "table problem",
        explain: "A supplemental table's elements do not fill its last row, or an \
OptimumResultTable lacks the Declarer, Denomination or Result column or holds a row that \
is not a declarer, a strain and 0 to 13 tricks. The cells are in score_tables all the \
same.",
    },
    Code {
        code: "B030",
        severity: Info,
        title: "tags PBN does not define",
        explain: "The game has tags that PBN 2.1 does not define (program-specific ones \
such as BridgeComposer's BCFlags): they are kept in other_tags, and named here, one row a \
game.",
    },
    Code {
        code: "B031",
        severity: Warning,
        title: "tab in a tag value",
        explain: "PBN 2.3 allows no tab inside a string; the value is kept as written.",
    },
    Code {
        code: "B032",
        severity: Info,
        title: "value in a loose form",
        explain: "A value read all the same, though not as PBN writes it: a call or \
contract written '1N' or 'P', a Deal with extra white space, a value of Room, FrenchMP, \
Competition, Mode, Scoring, Hidden or the *Type tags outside the ones PBN names.",
    },
    Code {
        code: "B033",
        severity: Info,
        title: "note before the sections",
        explain: "A Note tag comes before the Auction and Play sections (PBN places a \
note after the calls or cards that refer to it): it is kept as a note of the board \
(notes.section 'board'), and references from either section find it.",
    },
    Code {
        code: "B035",
        severity: Warning,
        title: "game without a blank line before it",
        explain: "A new game starts (its first tag comes again) with no blank line after \
the game before: it is read as a game of its own.",
    },
    Code {
        code: "B036",
        severity: Warning,
        title: "the file ends inside a board's play",
        explain: "The file's last game runs to the end of the file (no blank line after it) \
and its Play section stops before 13 tricks without the '*' that PBN 3.4.15 requires of a \
play not complete: the file was probably cut off. The game is converted as far as it goes; \
its computed result is null.",
    },
    Code {
        code: "B040",
        severity: Warning,
        title: "'#' with nothing to inherit",
        explain: "A tag's value is '#' but no game before gives that tag: the tag is \
treated as absent (PBN would use \"\"; deckhand does not invent a value).",
    },
    Code {
        code: "B041",
        severity: Info,
        title: "board taken from the game before",
        explain: "A game gives none of Board, Dealer, Vulnerable and Deal: it is the same \
board played at another table, and takes them from the game before (endplay's \
example3.pbn writes the second table so).",
    },
    Code {
        code: "B050",
        severity: Warning,
        title: "impossible deal",
        explain: "A hand holds other than 13 cards (and the deal is not an end position, \
where every hand holds the same number of cards), or a card is dealt twice.",
    },
    Code {
        code: "B051",
        severity: Warning,
        title: "call breaks the rules of the auction",
        explain: "An insufficient bid not marked ^I, a double of no opponent's bid or of a \
doubled one, a redouble of no opponent's double, a bid above 7, or a call after the \
auction ended.",
    },
    Code {
        code: "B052",
        severity: Warning,
        title: "Contract or Declarer disagrees with the auction",
        explain: "The auction ends in another contract, or names another declarer, than \
the Contract and Declarer tags: both are kept (contract, computed_contract ...).",
    },
    Code {
        code: "B053",
        severity: Warning,
        title: "impossible play",
        explain: "A card played was not dealt to its seat (or was played before), or a \
seat did not follow suit though it held the suit led and the play does not mark the \
revoke with ^R. One warning a play: it names the first such card and counts the ones \
after it (a play whose seat columns are out of step from some trick on makes every card \
after it impossible).",
    },
    Code {
        code: "B054",
        severity: Warning,
        title: "Result disagrees with the play",
        explain: "A complete play gives declarer another number of tricks than the Result \
tag, or a play that stops early has already given declarer more tricks, or lost \
declarer more, than the Result allows; and the Result is not marked '^' (a result the \
players agreed on otherwise).",
    },
    Code {
        code: "B055",
        severity: Warning,
        title: "Score disagrees with duplicate scoring",
        explain: "The contract, vulnerability and result score another number of points \
for North-South than the Score tag (not checked under Rubber or Chicago scoring).",
    },
    Code {
        code: "B056",
        severity: Warning,
        title: "auction does not start with the dealer",
        explain: "The first call (after any '-' placeholders) is not the dealer's.",
    },
    Code {
        code: "B057",
        severity: Warning,
        title: "opening lead by the wrong seat",
        explain: "The Play tag names a seat other than declarer's left-hand opponent, and \
the first card is not marked ^L (a lead out of turn).",
    },
    Code {
        code: "B058",
        severity: Warning,
        title: "section without the tags it needs",
        explain: "PBN 3.1: an Auction section needs a Dealer tag, a Play section the Deal, \
Declarer and Contract tags. What can be read is read.",
    },
    Code {
        code: "B060",
        severity: Info,
        title: "why computed values are null",
        explain: "Some computed values cannot be derived (no auction, an auction or play \
that stops early, no result or vulnerability to score...): they are null and this row \
says why, one row a game.",
    },
    Code {
        code: "B100",
        severity: Warning,
        title: "tag over 255 bytes",
        explain: "A tag is longer than PBN's 255-character lines allow; it is read all the \
same.",
    },
    Code::more_warnings("B101"),
    Code {
        code: "B102",
        severity: Info,
        title: "line over 255 bytes",
        explain: "PBN 2.3 allows lines of 255 characters, line end included; a longer one \
is read all the same (one row a game, at its first long line).",
    },
];
