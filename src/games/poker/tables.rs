//! The poker tables (docs/tables.md, poker): `hands`, `players` and
//! `actions`, written under `OUT/poker/`. Amounts are Decimal128(18, 6).

use crate::columns::decimal::{Dec, DecList};
use crate::columns::errors_table::ErrorsBuilder;

/// The game's name: its folder in a dataset.
pub const GAME: &str = "poker";

table!(
    /// One row per hand (a `.phh` file, a table of a `.phhs` file).
    HandsBuilder, Some(GAME), "hands", record hand_id, {
    /// The key of the hand's table in a `.phhs` file (`1` of `[1]`), as
    /// written; null for a `.phh` file.
    section: str,
    /// The variant code as written (`NT`, `FO/8` ...).
    variant: str,
    /// Whether antes are trimmed to what a short stack can pay; false when
    /// not given (the standard's default) or not a boolean.
    ante_trimming_status: bool,
    /// The antes, in player order, as written.
    antes: DecList,
    /// The blinds and straddles, in player order, as written.
    blinds_or_straddles: DecList,
    /// The bring-in (stud games).
    bring_in: Dec,
    /// The small bet (fixed-limit games).
    small_bet: Dec,
    /// The big bet (fixed-limit games).
    big_bet: Dec,
    /// The minimum bet (no-limit and pot-limit games).
    min_bet: Dec,
    /// The number of players: the length of `starting_stacks` (or of the
    /// first per-player array given).
    players: i32,
    /// The annotator.
    author: str,
    /// The event.
    event: str,
    /// A URL of the event or its organizer.
    url: str,
    /// The venue.
    venue: str,
    /// The venue's street address.
    address: str,
    /// The venue's city.
    city: str,
    /// The venue's region, state or province.
    region: str,
    /// The venue's postal code.
    postal_code: str,
    /// The venue's country.
    country: str,
    /// The time the hand began, as written (a TOML local time, `20:15:00`).
    time: str,
    /// The IANA time zone (`America/Toronto`).
    time_zone: str,
    /// The time zone's abbreviation (`EDT`).
    time_zone_abbreviation: str,
    /// Day of the month.
    day: i32,
    /// Month, 1 for January.
    month: i32,
    /// Year.
    year: i32,
    /// The hand's name or number, as written.
    hand: str,
    /// The tournament level.
    level: i32,
    /// The number of seats at the table.
    seat_count: i32,
    /// The table's name or number, as written.
    table: str,
    /// The currency (ISO 4217 code, `USD`).
    currency: str,
    /// The currency's symbol (`$`).
    currency_symbol: str,
    /// Seconds allowed a decision; null when `inf` (none).
    time_limit: Dec,
    /// The community cards dealt (`d db`), in order.
    board: cards,
    /// TOML comments of the hand (text after `#` outside strings), in order.
    comments: strs nostats,
    /// The chips in the pots awarded: everything put in, less uncalled
    /// bets returned (null when the replay did not reach the end).
    computed_pot: Dec,
    /// The betting rounds reached (dealing of a round begun), by the
    /// replay.
    computed_streets: i32,
    /// The pots were decided by hands: two players or more to the end.
    computed_showdown: bool,
    /// The rake: what the pots held and the record's winnings (or
    /// finishing stacks) do not give back, when it is the same fraction
    /// of every pot; 0 when they agree with the replay.
    computed_rake: Dec,
    /// `_`-prefixed and unknown fields, and fields whose value could not be
    /// read into their column, with their value as TOML text.
    user_fields: kvs nostats,
});

table!(
    /// One row per player per hand, in the hand's player order.
    PlayersBuilder, Some(GAME), "players", {
    /// The hand's key.
    hand_id: i64 required unique,
    /// 1-based position in the hand's per-player arrays (`p1` is 1).
    player: i32 required,
    /// The player's name (`players`).
    name: str,
    /// The seat number (`seats`).
    seat: i32,
    /// The starting stack; null when `inf` (unknown).
    starting_stack: Dec,
    /// The finishing stack, as written.
    finishing_stack: Dec,
    /// The winnings, as written.
    winnings: Dec,
    /// The ante at the player's position in `antes`, as written.
    ante: Dec,
    /// The blind or straddle at the player's position, as written.
    blind_or_straddle: Dec,
    /// Every card dealt to the player (`d dh`), in order, `??` kept
    /// (replacement cards of draws included); null when none was dealt.
    hole_cards: cards,
    /// The cards shown at showdown (`sm`, `-` expanded); null unless the
    /// player showed.
    shown_cards: cards,
    /// The player mucked (`sm` without cards).
    mucked: bool,
    /// The time bank at the start of the hand, as written.
    time_bank: Dec,
    /// The chips the player put in, less uncalled bets returned.
    computed_contribution: Dec,
    /// The starting stack plus the payoff (null for an `inf` stack).
    computed_finishing_stack: Dec,
    /// The chips won from the pots less the contribution.
    computed_payoff: Dec,
    /// The chips won from the pots.
    computed_winnings: Dec,
    /// The hand shown at the showdown: the category of a high hand
    /// (`flush`), a low's ranks (`8-6-4-2-A low`), both in hi/lo games
    /// (`two pair, no low`), a badugi's (`4-card badugi K-Q-2-A`).
    computed_hand: str,
});

table!(
    /// One row per string of a hand's `actions`, no-ops included.
    ActionsBuilder, Some(GAME), "actions", {
    /// The hand's key.
    hand_id: i64 required unique,
    /// 0-based position in `actions`.
    seq: i32 required,
    /// 0-based betting round: dealing belongs to the round it opens, a
    /// draw to the round after the betting before it, showdown actions
    /// to the last round reached (pokerkit's `street_index`).
    street: i32 required,
    /// The actor as written: `d` or `pN`; null for a no-op.
    actor: str,
    /// The player who acts, or for `dh` the player dealt to; null for
    /// `db`, no-ops and a player number out of range.
    player: i32,
    /// `db`, `dh`, `pb`, `cbr`, `cc`, `f`, `sd` or `sm`; null for a no-op
    /// or an action whose actor or code could not be read.
    action: str,
    /// The amount of a `cbr` (completion, bet or raise to).
    amount: Dec,
    /// The cards of `db`, `dh`, `sd` and `sm` (`-` expanded to the cards
    /// dealt to the player), `??` kept.
    cards: cards,
    /// The commentary: the text after `#`, trimmed.
    commentary: str nostats,
    /// The action as written.
    text: str,
    /// 1-based line of the action's string in the file.
    line: i64,
    /// What the action was by the rules: `check`, `call`, `bet`, `raise`,
    /// `complete`, `fold`, `bring-in`, `deal`, `discard`, `stand-pat`,
    /// `show`, `muck`; null for a no-op and after the replay stopped.
    computed_kind: str,
    /// The chips in the middle after the action (the pots and the bets of
    /// the round; an uncalled bet returned when its round ends).
    computed_pot_after: Dec,
});

game_tables!(
    /// The builders of every poker table for one group.
    POKER_TABLES, hand_id, {
    hands: HandsBuilder,
    players: PlayersBuilder,
    actions: ActionsBuilder,
});

impl Builders {
    /// Builders sized for `n` hands: about 6 players and 20 actions each.
    pub fn sized_for(n: usize) -> Builders {
        Builders {
            hands: HandsBuilder::with_rows(n),
            players: PlayersBuilder::with_rows(n * 6),
            actions: ActionsBuilder::with_rows(n * 20),
            errors: ErrorsBuilder::with_rows(n / 4 + 1),
        }
    }
}
