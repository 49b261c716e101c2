//! The play checked: in tricks in play order, leads out of turn, cards
//! not held and revokes; the computed result against the Result tag.

use super::*;

/// The play in tricks, in play order: as the notation ordered it, else
/// from the first leader by the trump (without one, the later tricks'
/// leaders and winners are not known).
pub(super) fn in_play_order(
    p: &Play<'_>,
    first: Seat,
    contract: Option<ContractValue>,
) -> Vec<Trick> {
    let by_seat: Vec<BySeat> = p
        .places
        .chunks(4)
        .map(|ch| {
            let mut t: BySeat = [None; 4];
            for pl in ch {
                t[pl.seat as usize] = pl.card;
            }
            t
        })
        .collect();
    let led = |k: usize| {
        p.places
            .get(k * 4..(k * 4 + 4).min(p.places.len()))
            .and_then(|ch| ch.iter().find(|pl| pl.led_out_of_turn))
            .map(|pl| pl.seat)
    };
    let strain = match contract {
        Some(ContractValue::Contract(k)) => Some(k.strain),
        Some(ContractValue::Strain(s)) => Some(s),
        _ => None,
    };
    match strain {
        _ if p.ordered.is_some() => p.ordered.clone().unwrap(),
        Some(s) => play::in_play_order_led(first, &by_seat, s.trump(), led),
        None => {
            // No trump known: the first trick is in order from the
            // leader, the later ones' leaders are not known.
            let mut t = play::in_play_order_led(first, &by_seat, None, led);
            for (k, tr) in t.iter_mut().enumerate() {
                tr.winner = None;
                if k > 0 && led(k).is_none() {
                    tr.leader = None;
                    tr.cards.sort_by_key(|x| x.0 as usize);
                }
            }
            t
        }
    }
}

impl<'a> Checker<'_, 'a, '_> {
    /// The play in tricks, in play order, checked against the deal (B053)
    /// and the opening lead (B057); computed_result, compared with the
    /// Result tag (B054).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn tricks_of(
        &mut self,
        p: &Play<'a>,
        first: Seat,
        contract: Option<ContractValue>,
        declarer: Option<Seat>,
        stated: &Stated,
        compute: bool,
        c: &mut Computed,
    ) -> Vec<Trick> {
        let tricks = in_play_order(p, first, contract);
        self.check_leads(p, &tricks, first, contract, declarer);
        if let Some(deal) = stated.deal.as_ref().filter(|_| !self.b.partial_hands) {
            self.check_cards_held(p, &tricks, deal);
        }
        if compute {
            self.computed_result(p, &tricks, contract, declarer, stated, c);
        }
        tricks
    }

    /// Leads out of turn marked where the lead was the seat's (B053), a
    /// play of more than 13 tricks (B025), an opening lead by another
    /// seat than declarer's left-hand opponent, unmarked (B057).
    pub(super) fn check_leads(
        &mut self,
        p: &Play<'a>,
        tricks: &[Trick],
        first: Seat,
        contract: Option<ContractValue>,
        declarer: Option<Seat>,
    ) {
        // `^L` marks a lead out of turn: by the seat whose lead it was, it
        // is odd.
        for k in 0..tricks.len() {
            let Some(pl) = p.places[k * 4..]
                .iter()
                .take(4)
                .find(|pl| pl.led_out_of_turn)
            else {
                continue;
            };
            let due = if k == 0 {
                match (contract, declarer) {
                    (Some(ContractValue::Contract(_)), Some(d)) => Some(d.next()),
                    _ => None,
                }
            } else {
                tricks[k - 1].winner
            };
            if due == Some(pl.seat) {
                let msg = format!(
                    "trick {}: {}'s card is marked ^L (a lead out of turn) but the lead was {}'s",
                    k + 1,
                    pl.seat.as_str(),
                    pl.seat.as_str()
                );
                self.warn(pl.at as usize, "B053", msg);
            }
        }
        let played = p.places.len().div_ceil(4);
        if played > 13 {
            let at = p.places[52].at as usize;
            self.warn(
                at,
                "B025",
                format!("the play has {played} tricks; a deal has 13"),
            );
        }
        // The opening lead is declarer's left-hand opponent's.
        if let (Some(ContractValue::Contract(_)), Some(d)) = (contract, declarer)
            && first != d.next()
            && !p.places.first().is_some_and(|pl| pl.led_out_of_turn)
        {
            let at = self.b.at.play;
            let msg = format!(
                "the play starts with {}, but the opening lead is {}'s (declarer {}'s left-hand opponent; ^L marks a lead out of turn)",
                first.as_str(),
                d.next().as_str(),
                d.as_str()
            );
            self.warn(at, "B057", msg);
        }
    }

    /// Cards not held, revokes (B053): the first impossible card by name,
    /// and how many follow it.
    pub(super) fn check_cards_held(&mut self, p: &Play<'a>, tricks: &[Trick], deal: &Deal) {
        let revoke_marked = |t: usize, s: Seat| {
            p.places
                .get(t * 4..(t * 4 + 4).min(p.places.len()))
                .is_some_and(|ch| ch.iter().any(|pl| pl.seat == s && pl.revoke))
        };
        // The first impossible card by name, and how many follow it, in
        // one warning: a play whose seat columns are out of step from
        // some trick on makes every card after it impossible too.
        let issues = play::issues(deal, tricks, revoke_marked);
        if let Some(&first) = issues.first() {
            let (t, seat, card, what) = match first {
                play::Issue::NotHeld { trick, seat, card } => (
                    trick,
                    seat,
                    card,
                    "was not dealt to it, or was played before",
                ),
                play::Issue::Revoke { trick, seat, card } => (
                    trick,
                    seat,
                    card,
                    "does not follow suit though it holds the suit led (a revoke; ^R marks one)",
                ),
                play::Issue::FalseRevoke { trick, seat, card } => (
                    trick,
                    seat,
                    card,
                    "is marked ^R but is no revoke (a lead, a card of the suit led, or a discard with none of it left)",
                ),
            };
            let at = p.places[t * 4..]
                .iter()
                .take(4)
                .find(|pl| pl.seat == seat)
                .map_or(0, |pl| pl.at as usize);
            let mut msg = format!(
                "trick {}: {}'s {} {what}",
                t + 1,
                seat.as_str(),
                card.as_str()
            );
            if issues.len() > 1 {
                use std::fmt::Write;
                let _ = write!(
                    msg,
                    "; and {} more impossible cards after it (not dealt to their seat or played before, or revokes{})",
                    issues.len() - 1,
                    if issues.len() > 4 {
                        ": is the play out of step with its seat columns?"
                    } else {
                        ""
                    }
                );
            }
            self.warn(at, "B053", msg);
        }
    }

    pub(super) fn computed_result(
        &mut self,
        p: &Play<'a>,
        tricks: &[Trick],
        contract: Option<ContractValue>,
        declarer: Option<Seat>,
        stated: &Stated,
        c: &mut Computed,
    ) {
        let full = full_play(stated);
        let done: Vec<&Trick> = tricks
            .iter()
            .take(full)
            .take_while(|t| t.winner.is_some())
            .collect();
        c.partial_result = p.end == End::Plus && done.len() < full;
        // A result the play so far rules out: fewer tricks than declarer
        // has won, or more than declarer can still win; with '+', a
        // result that is not the tricks won so far.
        if let (Some((r, false)), Some(d), Some(ContractValue::Contract(_))) =
            (stated.result, declarer, contract)
            && done.len() < full
        {
            let won = done
                .iter()
                .filter(|t| t.winner.is_some_and(|w| w.side() == d.side()))
                .count() as i32;
            let most = won + (full - done.len()) as i32;
            if c.partial_result && r != won {
                let msg = format!(
                    "Result \"{}\", but the play is to be continued ('+') and declarer has won {won} of the {} tricks played (PBN 3.4.15: the Result of a play not ended counts the tricks played)",
                    self.b.written.result.as_deref().unwrap_or_default(),
                    done.len()
                );
                self.warn(self.b.at.result, "B054", msg);
            } else if r < won || r > most {
                let msg = format!(
                    "Result \"{}\", but declarer has won {won} of the first {} tricks played and can win {most} at most",
                    self.b.written.result.as_deref().unwrap_or_default(),
                    done.len()
                );
                self.warn(self.b.at.result, "B054", msg);
            }
        }
        let why = if contract.is_none() || declarer.is_none() {
            Some("no contract and declarer")
        } else if tricks.len() < full
            || tricks[..full]
                .iter()
                .any(|t| t.cards.iter().any(|c| c.1.is_none()))
        {
            Some(match p.end {
                End::Star => "the play stops at '*' before its last trick",
                End::Plus => "the play is to be continued ('+')",
                End::Open => "the play is not complete",
            })
        } else if tricks[..full].iter().any(|t| t.winner.is_none()) {
            Some("a trick's winner is not known")
        } else {
            None
        };
        if let Some(why) = why {
            c.why.push(format!("computed_result: {why}"));
            return;
        }
        let side = declarer.unwrap().side();
        let won = tricks[..full]
            .iter()
            .filter(|t| t.winner.is_some_and(|w| w.side() == side))
            .count() as i32;
        c.result = Some(won);
        if let Some((r, marked)) = stated.result
            && r != won
            && !marked
        {
            let msg = format!(
                "Result \"{}\" but declarer won {won} tricks in the play (a '^' before the Result marks a result agreed otherwise)",
                self.b.written.result.as_deref().unwrap_or_default()
            );
            self.warn(self.b.at.result, "B054", msg);
        }
    }
}
