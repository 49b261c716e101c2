//! A board's rows: the `boards` row's stated and computed columns, the
//! seats, calls, plays and notes rows.

use super::*;

pub(super) fn stated_columns(b: &Board<'_>, c: &Computed, compute: bool, o: &mut BoardsBuilder) {
    let s = &b.stated;
    o.dealer.append_option(s.dealer.map(Seat::as_str));
    o.vulnerable.append_option(s.vulnerable);
    o.deal.append_option(s.deal.as_ref().map(deal_text));
    o.declarer.append_option(s.declarer.map(|d| d.0.as_str()));
    o.declarer_irregular.append_option(s.declarer.map(|d| d.1));
    let (contract, level, strain, risk) = match s.contract {
        Some(ContractValue::Pass) => (Some("Pass".to_string()), None, None, None),
        Some(ContractValue::Contract(k)) => (
            Some(k.text()),
            Some(k.level as i32),
            Some(k.strain.as_str()),
            Some(k.risk.as_str()),
        ),
        Some(ContractValue::Strain(st)) => (None, None, Some(st.as_str()), None),
        None => (None, None, None, None),
    };
    o.contract.append_option(contract);
    o.contract_level.append_option(level);
    o.contract_strain.append_option(strain);
    o.contract_risk.append_option(risk);
    o.result.append_option(s.result.map(|r| r.0));
    o.score_ns.append_option(s.score_ns);
    o.opening_leader
        .append_option(b.opening_leader.map(Seat::as_str));
    if compute {
        o.computed_declarer
            .append_option(c.declarer.map(Seat::as_str));
        o.computed_contract.append_option(c.contract.as_deref());
        o.computed_result.append_option(c.result);
        o.computed_score_ns.append_option(c.score_ns);
    } else {
        o.computed_declarer.append_null();
        o.computed_contract.append_null();
        o.computed_result.append_null();
        o.computed_score_ns.append_null();
    }
}

pub(super) fn seats_rows(b: &Board<'_>, id: i64, o: &mut BridgeSeatsBuilder) {
    for seat in Seat::ALL {
        o.board_id.append_value(id);
        o.seat.append_value(seat.as_str());
        o.player.append_option(b.players[seat as usize].as_deref());
        let cards = b
            .stated
            .deal
            .as_ref()
            .and_then(|d| d[seat as usize].as_deref());
        o.cards.append_cards(cards);
        o.hcp.append_option(cards.map(|c| deal::hcp(c) as i32));
    }
}

impl<'a> Checker<'_, 'a, '_> {
    #[allow(clippy::too_many_arguments)]
    /// The text of note `n` of `part` (or of the board's notes), with a
    /// warning when there is none (B026).
    pub(super) fn note_text(&mut self, n: u32, part: Part, at: u32) -> Option<Cow<'a, str>> {
        let find = |p: Part| {
            self.b
                .notes
                .iter()
                .find(|x| x.part == p && x.number == Some(n))
                .map(|x| x.text.clone())
        };
        let found = find(part).or_else(|| find(Part::Board));
        if found.is_none() {
            let (code, msg) = (self.b.missing_note)(n, part);
            self.warn(at as usize, code, msg);
        }
        found
    }

    pub(super) fn calls_rows(&mut self, id: i64, a: &Auction<'a>, o: &mut CallsBuilder) {
        for (seq, c) in a.calls.iter().enumerate() {
            o.board_id.append_value(id);
            o.seq.append_value(seq as i32);
            o.seat.append_value(c.seat.as_str());
            o.call.append_value(call_text(c.call));
            o.text.append_value(bytes_text(c.text, self.b.latin1));
            o.annotation
                .append_option((!c.marks.annotation.is_empty()).then_some(&c.marks.annotation));
            let note = c
                .marks
                .note
                .and_then(|n| self.note_text(n, Part::Auction, c.at));
            o.note.append_option(note);
            o.note_number.append_option(c.marks.note.map(|n| n as i32));
            o.alert.append_value(c.marks.note.is_some());
        }
    }

    pub(super) fn plays_rows(
        &mut self,
        id: i64,
        p: &Play<'a>,
        tricks: &[Trick],
        first: Seat,
        compute: bool,
        out: &mut Builders,
    ) {
        let mut seq = 0;
        for (k, t) in tricks.iter().enumerate() {
            let places = &p.places[k * 4..(k * 4 + 4).min(p.places.len())];
            for &(seat, _) in &t.cards {
                let column = (seat as usize + 4 - first as usize) % 4;
                let Some(pl) = places.get(column) else {
                    continue;
                };
                if pl.placeholder {
                    continue;
                }
                let note = pl
                    .marks
                    .note
                    .and_then(|n| self.note_text(n, Part::Play, pl.at));
                let o = &mut out.plays;
                o.board_id.append_value(id);
                o.seq.append_value(seq);
                seq += 1;
                o.trick.append_value(k as i32 + 1);
                o.seat.append_value(seat.as_str());
                o.card.append_option(pl.card.map(Card::as_str));
                o.text.append_value(bytes_text(pl.text, self.b.latin1));
                o.annotation.append_option(
                    (!pl.marks.annotation.is_empty()).then_some(&pl.marks.annotation),
                );
                o.note.append_option(note);
                o.note_number.append_option(pl.marks.note.map(|n| n as i32));
            }
            let o = &mut out.tricks;
            o.board_id.append_value(id);
            o.trick.append_value(k as i32 + 1);
            o.leader.append_option(t.leader.map(Seat::as_str));
            let mut cards = [None; 4];
            let n = t.cards.len().min(4);
            for (c, x) in cards.iter_mut().zip(&t.cards) {
                *c = x.1;
            }
            if places.len() < 4 || n < 4 || !o.cards.append_known(&cards[..n]) {
                o.cards.append_cards::<Card>(None);
            }
            o.computed_winner
                .append_option(t.winner.filter(|_| compute).map(Seat::as_str));
        }
    }

    pub(super) fn notes_rows(&self, id: i64, o: &mut BridgeNotesBuilder) {
        for n in &self.b.notes {
            o.board_id.append_value(id);
            o.section.append_value(n.part.as_str());
            o.number.append_option(n.number.map(|x| x as i32));
            o.text.append_value(&n.text);
        }
    }
}
