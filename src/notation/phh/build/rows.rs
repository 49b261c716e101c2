//! The rows of a hand: one `actions` row per action string (its street,
//! player, kind, amount and cards), the `hands` row, one `players` row per
//! player with the cards the actions dealt, showed or mucked.

use super::replay::Play;
use super::streets::Streets;
use super::*;
use crate::games::poker::tables::{ActionsBuilder, HandsBuilder, PlayersBuilder};
use crate::notation::record_ref;

/// What the actions say of each player's cards and of the board.
pub(super) struct Seen<'s> {
    dealt: Vec<Vec<&'s str>>,
    was_dealt: Vec<bool>,
    /// The cards each player holds: dealt, less discards.
    held: Vec<Vec<&'s str>>,
    shown: Vec<Option<Vec<&'s str>>>,
    mucked: Vec<Option<bool>>,
    pub(super) board: Vec<&'s str>,
}

impl<'s> Seen<'s> {
    fn new(players: usize) -> Self {
        Seen {
            dealt: vec![Vec::new(); players],
            was_dealt: vec![false; players],
            held: vec![Vec::new(); players],
            shown: vec![None; players],
            mucked: vec![None; players],
            board: Vec::new(),
        }
    }

    /// An action's cards, taken into what its player holds or the board.
    fn take(&mut self, kind: Option<Kind>, slot: Option<usize>, cards: &Option<Vec<&'s str>>) {
        match (kind, slot) {
            (Some(Kind::DealHole), Some(i)) => {
                self.was_dealt[i] = true;
                self.dealt[i].extend(cards.iter().flatten().copied());
                self.held[i].extend(cards.iter().flatten().copied());
            }
            (Some(Kind::StandPatDiscard), Some(i)) => {
                for c in cards.iter().flatten() {
                    if let Some(k) = self.held[i].iter().position(|h| h == c) {
                        self.held[i].remove(k);
                    }
                }
            }
            (Some(Kind::ShowMuck), Some(i)) => match cards {
                Some(c) if c.is_empty() => self.mucked[i] = Some(true),
                Some(c) => {
                    self.mucked[i] = Some(false);
                    self.shown[i] = Some(c.clone());
                }
                None => {}
            },
            (Some(Kind::DealBoard), _) => self.board.extend(cards.iter().flatten().copied()),
            _ => {}
        }
    }
}

/// What runs from action to action while their rows are written.
struct Walk<'s> {
    seen: Seen<'s>,
    streets: Streets,
    /// The number of players, when known.
    n: Option<usize>,
    short_deck: bool,
    seq: i32,
    /// Diagnostics of the actions: where, code, message.
    bad: Vec<(usize, &'static str, String)>,
}

/// The replay's scratch: each action as the replay takes it, and the
/// cards they list.
type Scratch<'v> = (&'v mut Vec<Play>, &'v mut Vec<Card>);

impl<'a> Hand<'_, 'a> {
    /// The `actions` rows (but the computed columns), the replay's view
    /// of each action in `scratch`, and what the actions say of the cards.
    pub(super) fn actions_rows<'s>(
        &mut self,
        id: i64,
        n: Option<usize>,
        actions: &'s [(Option<Cow<'a, str>>, Range<usize>)],
        scratch: Scratch<'_>,
        a: &mut ActionsBuilder,
    ) -> Seen<'s> {
        let players = n.unwrap_or(0);
        let short_deck = self
            .variant
            .as_deref()
            .and_then(Variant::from_code)
            .is_some_and(Variant::short_deck);
        let mut walk = Walk {
            seen: Seen::new(players),
            streets: Streets::new(players),
            n,
            short_deck,
            seq: 0,
            bad: Vec::new(),
        };
        let mut locate = Locator::new(
            self.rec.raw,
            self.rec.item.start,
            self.rec.item.line,
            self.rec.index,
        );
        let (plays, deck) = scratch;
        for (s, span) in actions {
            a.hand_id.append_value(id);
            a.seq.append_value(walk.seq);
            a.line.append_value(locate.position(span.start).line as i64);
            walk.seq = walk.seq.saturating_add(1);
            let Some(s) = s else {
                a.street.append_value(walk.streets.street);
                a.text.append_value(self.raw(span.clone()));
                for_noop(a);
                plays.push(Play::Unread);
                continue;
            };
            let play = self.action_row(&mut walk, s, span, a, deck);
            if self.compute {
                plays.push(play);
            }
        }
        for (at, code, m) in std::mem::take(&mut walk.bad) {
            self.warn(at, code, m);
        }
        walk.seen
    }

    /// The row of one action string; what the replay takes of it, its
    /// cards added to `deck`.
    fn action_row<'s>(
        &mut self,
        walk: &mut Walk<'s>,
        s: &'s str,
        span: &Range<usize>,
        a: &mut ActionsBuilder,
        deck: &mut Vec<Card>,
    ) -> Play {
        let seq = walk.seq;
        // Offsets in the string are offsets in the file after the
        // opening quote(s) when it holds no escapes.
        let quote = if self.raw(span.clone()).starts_with("\"\"\"")
            || self.raw(span.clone()).starts_with("'''")
        {
            3
        } else {
            1
        };
        let base = span.start + quote;
        let (act, err) = action::parse(s);
        if let Some(e) = &err {
            walk.bad.push((
                base + e.at,
                codes::BAD_ACTION,
                format!("action {}: {}", seq - 1, e.message),
            ));
        }
        let kind = act.kind;
        let street = walk.streets.next(kind, act.player);
        a.street.append_value(street);
        a.actor.append_option(act.actor);
        a.action.append_option(kind.map(Kind::code));
        a.amount.append_option(act.amount);
        a.commentary.append_option(act.commentary);
        a.text.append_value(s);
        let players = walk.n.unwrap_or(0);
        // The player, in range.
        let p = act.player.and_then(|p| {
            let ok = walk.n.is_none_or(|n| (p as usize) <= n);
            if !ok {
                let m = format!(
                    "action {}: player p{p} of {} players: the row's player is null",
                    seq - 1,
                    players
                );
                walk.bad.push((base, codes::NO_PLAYER, m));
            }
            ok.then_some(p)
        });
        a.player.append_option(
            p.filter(|_| kind != Some(Kind::DealBoard))
                .map(|p| p as i32),
        );
        let slot = p.map(|p| p as usize - 1).filter(|&i| i < players);
        let cards = action_cards(walk, &act, s, base, slot);
        walk.seen.take(kind, slot, &cards);
        a.cards.append(cards.as_deref().filter(|_| kind.is_some()));
        // The replay's view of the action.
        if !self.compute {
            return Play::Unread;
        }
        let from = deck.len();
        deck.extend(cards.iter().flatten().filter_map(|t| {
            let b = t.as_bytes();
            Card::from_letters(*b.first()?, *b.get(1)?)
        }));
        let listed = from..deck.len();
        if kind == Some(Kind::CompleteBetRaise)
            && s.bytes()
                .take_while(|&b| b != b'#')
                .any(|b| matches!(b, b'.' | b'e' | b'E'))
        {
            self.floats = true;
        }
        match (kind, slot, err.is_some()) {
            (None, _, false) if act.actor.is_none() => Play::Noop,
            (Some(Kind::DealBoard), _, false) => Play::Act(kind, 0, None, listed, true),
            (Some(k), Some(i), false) => Play::Act(Some(k), i, act.amount, listed, cards.is_some()),
            _ => Play::Unread,
        }
    }

    /// The `hands` row.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn hands_row(
        &self,
        file: &FileInfo,
        id: i64,
        n: Option<usize>,
        board: &[&str],
        replay: Option<&Replay>,
        rake: Option<i128>,
        h: &mut HandsBuilder,
    ) {
        let outcome = replay.and_then(|r| r.outcome.as_ref());
        let (r, at) = (self.rec, (self.rec.item.start, self.rec.item.line));
        let refr = record_ref(file, &PHH, r.raw, at, r.index, Some(id));
        h.append_provenance(&refr.provenance(id, None));
        h.section.append_option(self.section.as_deref());
        h.variant.append_option(self.variant.as_deref());
        // The standard's default when the field is not given.
        h.ante_trimming_status
            .append_value(self.trimming.unwrap_or(false));
        h.antes
            .append(self.arrays[ANTES].as_ref().map(|a| a.0.as_slice()));
        h.blinds_or_straddles
            .append(self.arrays[BLINDS].as_ref().map(|a| a.0.as_slice()));
        h.bring_in.append_option(self.amounts[0]);
        h.small_bet.append_option(self.amounts[1]);
        h.big_bet.append_option(self.amounts[2]);
        h.min_bet.append_option(self.amounts[3]);
        h.players.append_option(n.map(|n| n as i32));
        let t = &self.texts;
        for (b, v) in [
            &mut h.author,
            &mut h.event,
            &mut h.url,
            &mut h.venue,
            &mut h.address,
            &mut h.city,
            &mut h.region,
            &mut h.postal_code,
            &mut h.country,
        ]
        .into_iter()
        .zip(&t[..9])
        {
            b.append_option(v.as_deref());
        }
        h.time.append_option(self.time.as_deref());
        h.time_zone.append_option(t[9].as_deref());
        h.time_zone_abbreviation.append_option(t[10].as_deref());
        h.day.append_option(self.ints[0]);
        h.month.append_option(self.ints[1]);
        h.year.append_option(self.ints[2]);
        h.hand.append_option(self.hand.as_deref());
        h.level.append_option(self.ints[3]);
        h.seat_count.append_option(self.ints[4]);
        h.table.append_option(self.table.as_deref());
        h.currency.append_option(t[11].as_deref());
        h.currency_symbol.append_option(t[12].as_deref());
        h.time_limit.append_option(self.amounts[4]);
        h.board.append(Some(board.iter()));
        h.computed_pot.append_option(outcome.map(|o| o.pot));
        h.computed_streets.append_option(replay.map(|r| r.streets));
        h.computed_showdown
            .append_option(outcome.map(|o| o.showdown));
        h.computed_rake.append_option(rake);
        match &self.comments {
            Some(c) => append_strs(&mut h.comments, Some(c)),
            None => append_strs(&mut h.comments, Some(comments(self.text))),
        }
        append_kv(
            &mut h.user_fields,
            self.user
                .iter()
                .map(|(k, v)| (k.as_str(), Some(v.as_str()))),
        );
    }

    /// The `players` rows, one per player.
    pub(super) fn players_rows(
        &self,
        id: i64,
        seen: &Seen<'_>,
        outcome: Option<&rules::Outcome>,
        p: &mut PlayersBuilder,
    ) {
        let at = |i: usize, k: usize| self.arrays[k].as_ref().and_then(|a| a.0[i]);
        for i in 0..seen.dealt.len() {
            p.hand_id.append_value(id);
            p.player.append_value(i as i32 + 1);
            p.name
                .append_option(self.names.as_ref().and_then(|n| n.0[i].as_deref()));
            p.seat
                .append_option(self.seats.as_ref().and_then(|s| s.0[i]));
            p.starting_stack.append_option(at(i, STACKS));
            p.finishing_stack.append_option(at(i, 3));
            p.winnings.append_option(at(i, 4));
            p.ante.append_option(at(i, ANTES));
            p.blind_or_straddle.append_option(at(i, BLINDS));
            p.hole_cards
                .append(seen.was_dealt[i].then_some(seen.dealt[i].iter()));
            p.shown_cards
                .append(seen.shown[i].as_ref().map(|c| c.iter()));
            p.mucked.append_option(seen.mucked[i]);
            p.time_bank.append_option(at(i, 5));
            let o = outcome.filter(|o| i < o.won.len());
            p.computed_contribution
                .append_option(o.map(|o| o.contribution[i]));
            p.computed_payoff.append_option(o.map(|o| o.payoff(i)));
            p.computed_winnings.append_option(o.map(|o| o.won[i]));
            p.computed_finishing_stack
                .append_option(o.and_then(|o| Some(at(i, STACKS)? + o.payoff(i))));
            p.computed_hand
                .append_option(o.and_then(|o| o.hands[i].as_deref()));
        }
    }
}

/// An action's cards: as listed (each checked against the deck), the
/// player's (for `-`), none for a stand pat or a muck.
fn action_cards<'s>(
    walk: &mut Walk<'s>,
    act: &action::Action<'s>,
    s: &'s str,
    base: usize,
    slot: Option<usize>,
) -> Option<Vec<&'s str>> {
    let seq = walk.seq;
    match &act.cards {
        Cards::None if matches!(act.kind, Some(Kind::StandPatDiscard | Kind::ShowMuck)) => {
            Some(Vec::new())
        }
        Cards::None => None,
        Cards::Listed(c) => {
            let list: Vec<&str> = action::cards(c).map(|(t, _)| t).collect();
            if let Some((i, (t, _))) = action::cards(c)
                .enumerate()
                .find(|(_, (_, card))| !card.in_deck(walk.short_deck))
            {
                let at = base + (c.as_ptr() as usize - s.as_ptr() as usize) + 2 * i;
                let m = format!(
                    "action {}: {t} is not in the short deck (no deuces to fives)",
                    seq - 1
                );
                walk.bad.push((at, codes::NOT_IN_DECK, m));
            }
            Some(list)
        }
        Cards::Dealt => match slot {
            Some(i) if walk.seen.was_dealt[i] => Some(walk.seen.held[i].clone()),
            _ => {
                let m = format!(
                    "action {}: '-' shows the cards dealt to the player, and none were: the row's cards are null",
                    seq - 1
                );
                walk.bad.push((base, codes::NO_CARDS_DEALT, m));
                None
            }
        },
    }
}
