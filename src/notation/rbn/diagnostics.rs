//! The diagnostic codes of Richard's Bridge Notation and RBX (prefix `R`):
//! R001 and R002 quarantine a record, R010 to R022 are warnings of the
//! notation, R101 counts warnings not listed. The bridge rules' warnings
//! are PBN's (B050 to B060: the rules are the same whatever the notation).

use crate::diagnostics::Code;
use crate::error::Severity::{Error, Warning};

pub const CODES: &[Code] = &[
    Code {
        code: "R001",
        severity: Error,
        title: "not an RBX line",
        explain: "An RBX record is one line of fields, each a label (or a note digit, or \
'%') and its value in braces, or free text in braces; this line's braces do not pair \
(a '{' without its '}', a character where a field's '{' belongs). The record is \
quarantined with its raw text.",
    },
    Code {
        code: "R002",
        severity: Error,
        title: "record too large",
        explain: "A record runs past what deckhand keeps of one record (RBN allows 16,384 \
bytes; a file without blank lines can make one record of the whole file): it is \
quarantined with the start of its text.",
    },
    Code {
        code: "R010",
        severity: Warning,
        title: "a line that is no RBN line",
        explain: "A line is not a label and a space, a note digit, free text in braces, or \
a '%' line: it is kept in other_tags (named \"\") and the record is read on.",
    },
    Code {
        code: "R011",
        severity: Warning,
        title: "label given twice",
        explain: "A record gives a label more than once: the first counts, the later ones \
are kept in other_tags.",
    },
    Code {
        code: "R012",
        severity: Warning,
        title: "line or record over RBN's limits",
        explain: "RBN allows lines of 128 characters (504 for the I label) and records of \
16,384 bytes; a longer one is read whole all the same.",
    },
    Code {
        code: "R013",
        severity: Warning,
        title: "free text left open",
        explain: "A '{' free-text paragraph has no '}' at the end of any of its lines: it \
runs to the end of the record, and is kept as a comment.",
    },
    Code {
        code: "R020",
        severity: Warning,
        title: "label value not read",
        explain: "A label's value does not follow RBN 3.2 (a hand of more than 13 cards, a \
call that is none, a contract without a strain...): the message says what was expected; \
the value is kept in other_tags under its label (D's text stays in date_text).",
    },
    Code {
        code: "R021",
        severity: Warning,
        title: "note reference without its note",
        explain: "A call or play refers to note n (^n) but no note line \"n ...\" follows \
the A or P label.",
    },
    Code {
        code: "R022",
        severity: Warning,
        title: "plays that cannot be placed",
        explain: "RBN gives plays in play order, each trick led by the winner of the one \
before: with no C label naming a declarer or leader, or after a trick with a card not \
known, the seats of the plays are not known. The P label is kept in other_tags.",
    },
    Code::more_warnings("R101"),
];
