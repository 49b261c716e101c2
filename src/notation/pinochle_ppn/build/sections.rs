//! The Auction and Play sections: their tokens read into calls and
//! tricks, the `bids`, `tricks` and `notes` rows, and the annotations
//! and tokens that fall outside them.

use super::*;

pub(super) fn lex_found(tok: &Token<'_>) -> String {
    format!("\"{}\"", String::from_utf8_lossy(tok.text))
}

impl<'g, 'a> Hand<'g, 'a> {
    /// P025 for tokens after tags that do not open a section (they are
    /// kept in `other_tags`).
    pub(super) fn warn_tokens_outside_sections(&mut self) {
        // Trailing tokens after tags that do not open a section.
        for ti in self.h.lexed.tags.start as usize..self.h.lexed.tags.end as usize {
            let t = &self.lists.tags[ti];
            if !t.tokens.is_empty() && !matches!(t.name, b"Auction" | b"Play") {
                let toks = self.tokens(t);
                let first = toks[0];
                let msg = format!(
                    "tag {} does not open a section; {} token(s) after it are kept in other_tags",
                    String::from_utf8_lossy(t.name),
                    toks.len()
                );
                self.warn(first.at as usize, "P025", msg);
            }
        }
    }

    /// P028: a token after a section's `*` termination.
    pub(super) fn after_termination(&mut self, tok: &Token<'a>, section: &str) {
        let msg = format!(
            "{} after the {section}'s '*' termination is ignored",
            lex_found(tok)
        );
        self.warn(tok.at as usize, "P028", msg);
    }

    /// The section's start seat, checked against the game's seats.
    pub(super) fn section_start(&mut self, t: &Tag<'a>) -> Option<usize> {
        if is_missing(t.value) {
            return None;
        }
        match Seat::parse(t.value.trim_ascii()) {
            Some(s) => {
                let i = seat_index(self.seats, s);
                if i.is_none() {
                    self.check_seat(s, self.at(t));
                }
                i
            }
            None => {
                let msg = format!(
                    "{} section must name the seat that starts it, found \"{}\"",
                    String::from_utf8_lossy(t.name),
                    text(t)
                );
                self.warn(self.at(t), "P027", msg);
                None
            }
        }
    }

    /// Reads the Auction section: calls with their seats (by position, clockwise
    /// from the tag's seat, `players` entries per round).
    pub(super) fn parse_auction(&mut self, scratch: &mut Scratch) -> Option<AuctionParse<'a>> {
        let t = self.tag(K::Auction)?;
        let start = self.section_start(t);
        let n = self.players;
        let latin1 = self.h.lexed.latin1;
        let mut a = scratch.auction(start);
        let mut pos = 0usize;
        let mut last_line = None;
        let mut misaligned = false;
        a.calls.reserve_exact(self.tokens(t).len());
        for tok in self.tokens(t) {
            if a.terminated {
                self.after_termination(tok, "auction");
                continue;
            }
            let txt = tok.text;
            if txt == b"*" {
                a.terminated = true;
                continue;
            }
            if last_line.is_some_and(|l| l != tok.line) && !pos.is_multiple_of(n) && !misaligned {
                misaligned = true;
                let msg = format!(
                    "auction line break inside round {}: each round should have {n} entries",
                    pos / n + 1
                );
                self.warn(tok.at as usize, "P029", msg);
            }
            last_line = Some(tok.line);
            if txt == b"-" {
                a.outs.push((pos as u32, tok.at));
            } else {
                let bid = values::parse_i32(txt).filter(|b| *b >= 0);
                let is_pass = txt.eq_ignore_ascii_case(b"pass");
                if bid.is_none() && !is_pass && txt != b"?" {
                    let msg = format!(
                        "expected Pass, a bid, '-' or '*' in the auction, found \"{}\"",
                        bytes_text(txt, latin1)
                    );
                    self.warn(tok.at as usize, "P030", msg);
                }
                a.calls.push(CallParse {
                    seat: start.map(|s| (s + pos) % n),
                    at: tok.at,
                    pass: is_pass,
                    round: (pos / n) as i32 + 1,
                    text: bytes_text(txt, latin1),
                    bid,
                });
            }
            pos += 1;
        }
        Some(a)
    }

    /// Reads the Play section into cards and tricks: a trick ends at its
    /// annotation, after `players` cards, or at `*`.
    pub(super) fn parse_play(&mut self, scratch: &mut Scratch) -> Option<PlayParse<'a>> {
        let t = self.tag(K::Play)?;
        let start = self.section_start(t);
        let n = self.players;
        let latin1 = self.h.lexed.latin1;
        let mut p = scratch.play(start);
        let mut from = 0usize;
        let tokens = self.tokens(t).len();
        p.cards.reserve_exact(tokens);
        p.card_at.reserve_exact(tokens);
        p.tricks.reserve_exact(tokens / n.max(1) + 1);
        let close = |this: &mut Self,
                     p: &mut PlayParse<'a>,
                     from: &mut usize,
                     ann: Option<(Option<Seat>, Option<i32>, u32)>,
                     end: bool| {
            let range = *from..p.cards.len();
            if range.len() != n && !end {
                let msg = format!(
                    "trick {} has {} cards for {n} players",
                    p.tricks.len() + 1,
                    range.len()
                );
                this.warn(p.card_at[range.start] as usize, "P031", msg);
            }
            p.tricks.push(TrickParse {
                range,
                winner: ann.and_then(|a| a.0),
                points: ann.and_then(|a| a.1),
                ann_at: ann.map(|a| a.2),
            });
            *from = p.cards.len();
        };
        for tok in self.tokens(t) {
            if p.terminated {
                self.after_termination(tok, "play");
                continue;
            }
            let txt = tok.text;
            // Most tokens are cards: two bytes, read first.
            if let [s, r] = *txt
                && let (Some(suit), Some(rank)) = (Suit::parse(s), Rank::parse(r))
            {
                if p.cards.len() - from == n {
                    close(self, &mut p, &mut from, None, false);
                }
                p.cards.push(Some(Card { suit, rank }));
                p.card_at.push(tok.at);
                continue;
            }
            if txt == b"*" {
                p.terminated = true;
                if p.cards.len() > from {
                    close(self, &mut p, &mut from, None, true);
                }
                continue;
            }
            if txt.first() == Some(&b'(') {
                let (w, pts) = self.annotation(tok, latin1);
                if p.cards.len() == from {
                    let msg = "trick annotation without cards before it".to_string();
                    self.warn(tok.at as usize, "P032", msg);
                    continue;
                }
                close(self, &mut p, &mut from, Some((w, pts, tok.at)), false);
                continue;
            }
            if p.cards.len() - from == n {
                close(self, &mut p, &mut from, None, false);
            }
            let card = Card::parse(txt);
            if card.is_none() {
                if txt != b"-" && txt != b"?" {
                    let msg = format!(
                        "expected a card like CA, '-', '?' or '*' in the play, found \"{}\"",
                        bytes_text(txt, latin1)
                    );
                    self.warn(tok.at as usize, "P033", msg);
                }
                p.unread.push((p.cards.len(), bytes_text(txt, latin1)));
            }
            p.cards.push(card);
            p.card_at.push(tok.at);
        }
        if p.cards.len() > from {
            close(self, &mut p, &mut from, None, false);
        }
        Some(p)
    }

    pub(super) fn bids_rows(&self, hand_id: i64, a: &AuctionParse<'a>, out: &mut BidsBuilder) {
        for (seq, c) in a.calls.iter().enumerate() {
            out.hand_id.append_value(hand_id);
            out.seq.append_value(seq as i32);
            out.round.append_value(c.round);
            out.seat
                .append_option(c.seat.map(|s| self.seats[s].as_str()));
            out.call.append_value(&c.text);
            out.bid.append_option(c.bid);
        }
    }

    pub(super) fn tricks_rows(
        &mut self,
        hand_id: i64,
        p: &PlayParse<'a>,
        computed: Option<&Derived>,
        out: &mut TricksBuilder,
    ) {
        let n = self.players;
        // Annotated leaders: the Play tag's seat, then each annotated winner.
        let mut leader = p.start.map(|s| self.seats[s]);
        let rows = p.tricks.len();
        out.hand_id
            .extend_values(std::iter::repeat_n(hand_id, rows));
        out.trick.extend_values(1..rows as i32 + 1);
        for (k, t) in p.tricks.iter().enumerate() {
            out.leader.append_option(leader.map(Seat::as_str));
            out.complete.append_value(t.range.len() == n);
            if !out.cards.append_known(&p.cards[t.range.clone()]) {
                out.cards.append(Some(p.shown(t.range.clone())));
            }
            out.winner.append_option(t.winner.map(Seat::as_str));
            out.points.append_option(t.points);
            let c = computed.and_then(|d| d.tricks.get(k));
            if let Some(c) = c {
                self.compare_trick(k, t, c);
            }

            out.computed_winner
                .append_option(c.and_then(|c| c.winner).map(|s| self.seats[s].as_str()));
            out.computed_points.append_option(c.and_then(|c| c.points));
            leader = t.winner;
        }
    }

    /// `(S2)`: the trick's winner and its points, either may be left out.
    pub(super) fn annotation(
        &mut self,
        tok: &Token<'a>,
        latin1: bool,
    ) -> (Option<Seat>, Option<i32>) {
        let txt = tok.text;
        // The usual shape first: a one-letter seat and one or two digits.
        let seat_digits = match *txt {
            [b'(', s, d, b')'] if d.is_ascii_digit() => Some((s, (d - b'0') as i32)),
            [b'(', s, d, e, b')'] if d.is_ascii_digit() && e.is_ascii_digit() => {
                Some((s, ((d - b'0') * 10 + (e - b'0')) as i32))
            }
            _ => None,
        };
        if let Some((s, pts)) = seat_digits
            && let Some(seat) = Seat::parse(&[s])
        {
            self.check_seat(seat, tok.at as usize);
            return (Some(seat), Some(pts));
        }
        let inner = txt.strip_prefix(b"(").and_then(|s| s.strip_suffix(b")"));
        let parsed = inner.and_then(|inner| {
            let split = inner
                .iter()
                .position(|b| !b.is_ascii_alphabetic())
                .unwrap_or(inner.len());
            let (seat, pts) = inner.split_at(split);
            // `?` marks an unknown winner or points: `(?)`, `(?2)`, `(S?)`.
            let (seat, pts) = match inner.strip_prefix(b"?") {
                Some(rest) => (&b""[..], rest),
                None => (seat, pts),
            };
            let unknown = inner.first() == Some(&b'?') || pts == b"?";
            let seat = if seat.is_empty() {
                None
            } else {
                Some(Seat::parse(seat)?)
            };
            let pts = if pts.is_empty() || pts == b"?" {
                None
            } else {
                Some(values::parse_i32(pts)?)
            };
            (seat.is_some() || pts.is_some() || unknown).then_some((seat, pts))
        });
        match parsed {
            Some((seat, pts)) => {
                if let Some(s) = seat {
                    self.check_seat(s, tok.at as usize);
                }
                (seat, pts)
            }
            None => {
                let msg = format!(
                    "expected a trick annotation like (S2), found \"{}\"",
                    bytes_text(txt, latin1)
                );
                self.warn(tok.at as usize, "P034", msg);
                (None, None)
            }
        }
    }

    pub(super) fn notes_rows(&mut self, hand_id: i64, out: &mut NotesBuilder) {
        let point = |p: Option<crate::notation::tagpair::lex::SegPoint>| {
            p.map(|p| {
                (
                    (p.segment as char).to_string(),
                    p.number.map(|n| n as i32),
                    p.sub.map(|n| n as i32),
                )
            })
        };
        for (seq, &ti) in self.notes.iter().enumerate() {
            let t = &self.lists.tags[ti];
            let value = text(t);
            let (seat, body) = if t.name == b"Chat" {
                match values::split_seat(t.value).and_then(|(s, _)| Seat::parse(s)) {
                    Some(s) => {
                        let colon = value.find(':').unwrap();
                        (Some(s.as_str()), Cow::Owned(value[colon + 1..].to_string()))
                    }
                    None => (None, value.clone()),
                }
            } else {
                (None, value.clone())
            };
            out.hand_id.append_value(hand_id);
            out.seq.append_value(seq as i32);
            out.tag.append_value(String::from_utf8_lossy(t.name));
            out.seat.append_option(seat);
            out.text.append_value(body);
            out.value.append_value(&value);
            let seg = t.segment;
            out.segment
                .append_option(seg.map(|s| String::from_utf8_lossy(s.text)));
            let (ss, sn, su) = match point(seg.map(|s| s.start)) {
                Some((a, b, c)) => (Some(a), b, c),
                None => (None, None, None),
            };
            let (es, en, eu) = match point(seg.and_then(|s| s.end)) {
                Some((a, b, c)) => (Some(a), b, c),
                None => (None, None, None),
            };
            out.start_segment.append_option(ss);
            out.start_number.append_option(sn);
            out.start_sub.append_option(su);
            out.end_segment.append_option(es);
            out.end_number.append_option(en);
            out.end_sub.append_option(eu);
        }
    }
}
