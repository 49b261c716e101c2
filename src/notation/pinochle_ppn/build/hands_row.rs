//! The `hands` row: provenance, the header tags, the outcome and score
//! tags, bid systems, sections, comments and the other tags.

use super::*;
use crate::notation::record_ref;

impl<'g, 'a> Hand<'g, 'a> {
    /// Where the hand comes from: its key, file, record, offset, line and
    /// the file headers' values.
    pub(super) fn provenance_columns(&self, file: &FileInfo, hand_id: i64, o: &mut HandsBuilder) {
        let h = self.h;
        let ctx = &h.ctx;
        let version = ctx.version.map(utf8_or_latin1);
        let at = (h.byte, h.line);
        let refr = record_ref(
            file,
            &super::super::ABOUT,
            h.bytes,
            at,
            h.index,
            Some(hand_id),
        );
        o.append_provenance(&refr.provenance(hand_id, version.as_deref()));
        o.format.append_option(ctx.format.map(utf8_or_latin1));
        o.file_id.append_option(ctx.id.map(utf8_or_latin1));
    }

    /// Event, Site, Date, the other single-valued header tags, the number of
    /// players and the seats' names (P024, P022).
    pub(super) fn header_columns(&mut self, o: &mut HandsBuilder) {
        for (k, b) in [(K::Event, &mut o.event), (K::Site, &mut o.site)] {
            b.append_option(self.str_of(k));
        }
        // Date: Date32 only when fully known.
        let date = match self.present(K::Date as usize) {
            None => None,
            Some(v) => match values::parse_date(v.trim_ascii()) {
                DateValue::Known(d) => Some(d),
                DateValue::Partial => None,
                DateValue::Invalid => {
                    let t = self.tag(K::Date).unwrap();
                    let msg = format!(
                        "invalid date \"{}\": expected YYYY.MM.DD (with ?? for unknown parts)",
                        text(t)
                    );
                    self.warn(self.at(t), "P024", msg);
                    None
                }
            },
        };
        o.date.append_option(date);
        o.date_text.append_option(self.str_of(K::Date));
        for (k, b) in [
            (K::Round, &mut o.round),
            (K::Stage, &mut o.stage),
            (K::Room, &mut o.room),
            (K::Competition, &mut o.competition),
            (K::Scoring, &mut o.scoring),
            (K::Annotator, &mut o.annotator),
            (K::Language, &mut o.language),
            (K::TimeControl, &mut o.time_control),
        ] {
            b.append_option(self.str_of(k));
        }
        o.players.append_value(self.players as i32);
        let seat_cols = [
            &mut o.north,
            &mut o.northeast,
            &mut o.east,
            &mut o.southeast,
            &mut o.south,
            &mut o.southwest,
            &mut o.west,
            &mut o.northwest,
        ];
        // Bit `s` for each seat `s` a seat or seat type tag names.
        let mut named = 0u8;
        for (s, col) in Seat::ALL.into_iter().zip(seat_cols) {
            let t = self.slot(SEAT_BASE + s as usize);
            col.append_option(t.map(text));
            if t.is_some() || self.slot(TYPE_BASE + s as usize).is_some() {
                named |= 1 << s as u8;
            }
        }
        for s in Seat::ALL {
            if named & !self.seat_mask & 1 << s as u8 != 0 {
                let t = self
                    .slot(SEAT_BASE + s as usize)
                    .or(self.slot(TYPE_BASE + s as usize))
                    .unwrap();
                let msg = format!(
                    "tag {} names a seat that a {}-player game does not use",
                    String::from_utf8_lossy(t.name),
                    self.players
                );
                self.warn(t.at as usize, "P022", msg);
            }
        }
    }

    /// Reads the tags of the hand's outcome, scores and cards but the hand
    /// lists (rejected
    /// values are kept in `other_tags` with P021), checks GameScores against
    /// the hand before (P064) and records this hand's end for the next.
    pub(super) fn read_hand_tags(
        &mut self,
        cfg: &RulesConfig,
        before: &mut Option<game::Ended>,
    ) -> HandTags {
        let hand_number = self.int(K::Hand);
        let dealer = self.seat(K::Dealer);
        self.dealer = dealer;
        let declarer = self.seat(K::Declarer);
        let contract = self.int(K::Contract);
        let trump = self.present(K::Trump as usize).and_then(|v| {
            let v = v.trim_ascii();
            let r = match v {
                b"C" | b"c" => Some("C"),
                b"D" | b"d" => Some("D"),
                b"S" | b"s" => Some("S"),
                b"H" | b"h" => Some("H"),
                b"-" => Some("-"),
                _ => None,
            };
            if r.is_none() {
                self.reject(K::Trump as usize, "expected C, D, S, H or -");
            }
            r
        });
        let result = self.present(K::Result as usize).and_then(|v| {
            let r = ["Saved", "Set", "No Board", "No Trump"]
                .into_iter()
                .find(|c| c.as_bytes().eq_ignore_ascii_case(v.trim_ascii()));
            if r.is_none() {
                self.reject(
                    K::Result as usize,
                    "expected Saved, Set, No Board or No Trump",
                );
            }
            r
        });
        let termination = self.present(K::Termination as usize).and_then(|v| {
            match values::parse_termination(v) {
                Ok((seat, cause)) => Some((
                    seat,
                    bytes_text(cause, self.tag(K::Termination).unwrap().latin1).into_owned(),
                )),
                Err(e) => {
                    self.reject(K::Termination as usize, &e);
                    None
                }
            }
        });
        if let Some((Some(s), _)) = &termination {
            let at = self.at(self.tag(K::Termination).unwrap());
            self.check_seat(*s, at);
        }
        let game_scores = self.scores(K::GameScores);
        let meld_scores = self.scores(K::MeldScores);
        let play_scores = self.scores(K::PlayScores);
        let hand_scores = self.scores(K::HandScores);
        if cfg.compute
            && let Some(msg) = game::check(before.as_ref(), hand_number, game_scores.as_deref())
        {
            let at = self.at(self.tag(K::GameScores).unwrap());
            self.warn(at, "P064", msg);
        }
        let victor_tag = self.present(K::Victor as usize).is_some();
        *before = game::ended(
            hand_number,
            game_scores.as_ref(),
            hand_scores.as_ref(),
            victor_tag,
        );
        // Team count from the score tags when they say, else the usual default.
        let teams = self.teams([&game_scores, &meld_scores, &play_scores, &hand_scores]);
        let victor = self.int(K::Victor);
        let kitty =
            self.present(K::Kitty as usize)
                .and_then(|v| match values::parse_card_list(v) {
                    Ok(c) => Some(c),
                    Err(e) => {
                        self.reject(K::Kitty as usize, &e);
                        None
                    }
                });
        let discard = self.present(K::Discard as usize).and_then(|v| {
            match values::parse_dot_with_points(v) {
                Ok(d) => Some(d),
                Err(e) => {
                    self.reject(K::Discard as usize, &e);
                    None
                }
            }
        });
        let partner =
            self.present(K::Partner as usize)
                .and_then(|v| match values::parse_partner(v) {
                    Ok(p) => Some(p),
                    Err(e) => {
                        self.reject(K::Partner as usize, &e);
                        None
                    }
                });
        HandTags {
            hand_number,
            dealer,
            declarer,
            contract,
            trump,
            result,
            termination,
            game_scores,
            meld_scores,
            play_scores,
            hand_scores,
            teams,
            victor,
            kitty,
            discard,
            partner,
        }
    }

    /// The `hands` columns of the tags [`Hand::read_hand_tags`] read.
    pub(super) fn hand_tag_columns(&self, t: &HandTags, o: &mut HandsBuilder) {
        o.hand_number.append_option(t.hand_number);
        o.dealer.append_option(t.dealer.map(Seat::as_str));
        o.declarer.append_option(t.declarer.map(Seat::as_str));
        o.contract.append_option(t.contract);
        o.trump.append_option(t.trump);
        o.result.append_option(t.result);
        match &t.termination {
            Some((seat, cause)) => {
                o.termination_seat.append_option(seat.map(Seat::as_str));
                o.termination_cause.append_value(cause);
            }
            None => {
                o.termination_seat.append_null();
                o.termination_cause.append_null();
            }
        }
        for (s, b) in [
            (&t.game_scores, &mut o.game_scores),
            (&t.meld_scores, &mut o.meld_scores),
            (&t.play_scores, &mut o.play_scores),
            (&t.hand_scores, &mut o.hand_scores),
        ] {
            append_i32s(b, s.as_ref().map(|v| v.iter().copied()));
        }
        o.victor.append_option(t.victor);
        // Texts as written for the dot-syntax tags that were read (rejected ones are in other_tags).
        for (k, b) in [
            (K::Deal, &mut o.deal),
            (K::Holding, &mut o.holding),
            (K::Melds, &mut o.melds),
            (K::Passed, &mut o.passed),
        ] {
            b.append_option(self.known[k as usize].map(|i| text(&self.lists.tags[i])));
        }
        o.kitty.append_cards(t.kitty.as_deref());
        let discard = t.discard.as_ref().map(|d| d.get(0));
        o.discard.append_cards(discard.and_then(|d| d.cards));
        o.discard_points
            .append_option(discard.and_then(|d| d.points));
        o.partner_seat
            .append_option(t.partner.map(|p| p.0.as_str()));
        o.partner_card
            .append_option(t.partner.map(|p| p.1.as_str()));
    }

    /// BidSystem tags by team (a team out of range goes to `other_tags`).
    pub(super) fn bid_systems_column(&mut self, o: &mut HandsBuilder) {
        let o = &mut o.bid_systems;
        if self.bid_systems.is_empty() {
            o.append(false);
        } else {
            let max = self
                .bid_systems
                .iter()
                .map(|b| b.0)
                .max()
                .unwrap_or(0)
                .min(64);
            for team in 1..=max {
                let v = self
                    .bid_systems
                    .iter()
                    .find(|b| b.0 == team)
                    .map(|b| text(&self.lists.tags[b.1]));
                o.values().append_option(v);
            }
            o.append(true);
            for &(team, ti) in &self.bid_systems {
                if team == 0 || team > 64 {
                    self.others.push(ti);
                }
            }
        }
    }

    /// The meld cards each seat shows (Melds tag), for the rules; the seats
    /// rows report what does not fit the seats.
    pub(super) fn shown_melds<'l>(
        &self,
        melds: &'l Option<values::HandList>,
    ) -> [Option<&'l [Card]>; PLAYERS] {
        let mut shown: [Option<&[Card]>; PLAYERS] = [None; PLAYERS];
        if self.players == PLAYERS
            && let Some(l) = melds
            && let Some(first) = seat_index(self.seats, l.first)
        {
            for (j, e) in l.entries.iter().enumerate().take(PLAYERS) {
                shown[(first + j) % PLAYERS] = e.cards;
            }
        }
        shown
    }

    /// Where the auction and the play start, and whether they were cut short.
    pub(super) fn section_columns(
        &self,
        auction: Option<&AuctionParse<'a>>,
        play: Option<&PlayParse<'a>>,
        o: &mut HandsBuilder,
    ) {
        o.auction_start.append_option(
            auction
                .and_then(|a| a.start)
                .map(|s| self.seats[s].as_str()),
        );
        o.auction_terminated
            .append_option(auction.map(|a| a.terminated));
        o.play_start
            .append_option(play.and_then(|p| p.start).map(|s| self.seats[s].as_str()));
        o.play_terminated.append_option(play.map(|p| p.terminated));
    }

    /// The hand's comments, and `other_tags` in the order written (section
    /// tokens of non-section tags ride along).
    pub(super) fn comment_and_other_tag_columns(&mut self, o: &mut HandsBuilder) {
        let comments: Vec<Cow<str>> = self.lists.comments
            [self.h.lexed.comments.start as usize..self.h.lexed.comments.end as usize]
            .iter()
            .map(|c| comment_text(c.text, self.h.lexed.latin1))
            .collect();
        append_strs(&mut o.comments, (!comments.is_empty()).then_some(comments));

        self.others.sort_unstable();
        let pairs: Vec<(Cow<str>, Option<Cow<str>>)> = self
            .others
            .iter()
            .map(|&ti| {
                let t = &self.lists.tags[ti];
                (String::from_utf8_lossy(t.name), Some(text(t)))
            })
            .chain(
                (self.h.lexed.tags.start as usize..self.h.lexed.tags.end as usize)
                    .map(|ti| &self.lists.tags[ti])
                    .filter(|t| !t.tokens.is_empty() && !matches!(t.name, b"Auction" | b"Play"))
                    .map(|t| {
                        let toks: Vec<Cow<str>> = self
                            .tokens(t)
                            .iter()
                            .map(|k| bytes_text(k.text, self.h.lexed.latin1))
                            .collect();
                        (
                            Cow::Owned(format!("{}#section", String::from_utf8_lossy(t.name))),
                            Some(Cow::Owned(toks.join(" "))),
                        )
                    }),
            )
            .collect();
        append_kv(
            &mut o.other_tags,
            pairs.iter().map(|(n, v)| (n.as_ref(), v.as_deref())),
        );
    }

    pub(super) fn teams(&self, lists: [&Option<values::ScoreList>; 4]) -> Option<usize> {
        lists
            .into_iter()
            .find_map(|s| s.as_ref().map(|v| v.len()))
            .filter(|&n| n >= 2)
            .or_else(|| default_teams(self.players))
    }
}
