//! The `seats` rows: each seat's player, team, cards and melds, by the
//! hand lists of the record.

use super::*;

impl<'g, 'a> Hand<'g, 'a> {
    /// Cards of a hand list by seat position, or a warning when it does not fit.
    pub(super) fn by_seat<'l>(&mut self, k: K, list: &'l Option<values::HandList>) -> BySeat<'l> {
        let n = self.players;
        let mut out = [None; MAX_PLAYERS];
        let Some(l) = list else { return out };
        let at = self.at(self.tag(k).unwrap());
        let Some(first) = seat_index(self.seats, l.first) else {
            let msg = format!(
                "{} starts at seat {}, which a {n}-player game does not use; its hands are not assigned to seats",
                TAG_NAMES[k as usize],
                l.first.as_str()
            );
            self.warn(at, "P022", msg);
            return out;
        };
        let all_unknown = l.entries.len() == 1 && l.entries.get(0).cards.is_none();
        if l.entries.len() != n && !all_unknown && !(k == K::Passed && l.entries.len() < n) {
            let msg = format!(
                "{} lists {} hands for {n} players",
                TAG_NAMES[k as usize],
                l.entries.len()
            );
            self.warn(at, "P026", msg);
        }
        for (j, e) in l.entries.iter().enumerate().take(n) {
            out[(first + j) % n] = Some(e);
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn seats_rows(
        &mut self,
        hand_id: i64,
        dealt: BySeat<'_>,
        holding: &Option<values::HandList>,
        passed: &Option<values::HandList>,
        melds: &Option<values::HandList>,
        computed: Option<&Computed>,
        teams: Option<usize>,
        out: &mut SeatsBuilder,
    ) {
        let held = self.by_seat(K::Holding, holding);
        let pass = self.by_seat(K::Passed, passed);
        let meld = self.by_seat(K::Melds, melds);
        fn cards(e: Option<HandEntry<'_>>) -> Option<&[Card]> {
            e.and_then(|e| e.cards)
        }
        for (pos, &s) in self.seats.iter().enumerate() {
            out.hand_id.append_value(hand_id);
            out.seat.append_value(s.as_str());
            out.player
                .append_option(self.slot(SEAT_BASE + s as usize).map(text));
            out.player_type
                .append_option(self.slot(TYPE_BASE + s as usize).map(text));
            out.team.append_option(
                teams
                    .and_then(|t| team_of(pos, self.players, t))
                    .map(|t| t as i32),
            );
            out.dealt.append_cards(cards(dealt[pos]));
            out.held.append_cards(cards(held[pos]));
            out.passed.append_cards(cards(pass[pos]));
            out.meld_cards.append_cards(cards(meld[pos]));
            out.meld_points
                .append_option(meld[pos].and_then(|e| e.points));
            let d = computed.map(|c| &c.derived);
            out.computed_dealt.append_cards(
                d.and_then(|d| d.dealt[pos].as_deref()),
                cards(dealt[pos]),
                &out.dealt,
            );
            let m = d.and_then(|d| d.melds[pos].as_ref());
            self.compare_meld(pos, meld[pos].and_then(|e| e.points), m.map(|m| m.0));
            if let Some(d) = d
                && d.shown_not_dealt & (1 << pos) != 0
                && let (Some(shown), Some(dealt)) = (cards(meld[pos]), d.dealt[pos].as_deref())
            {
                self.report_shown(pos, shown, dealt);
            }
            out.computed_meld_points.append_option(m.map(|m| m.0));
            out.computed_melds.append(m.map(|m| m.1.as_slice()));
        }
    }
}
