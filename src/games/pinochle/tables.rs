//! The pinochle tables: `hands`, `seats`, `bids`, `tricks` and `notes`,
//! written under `OUT/pinochle/`.

use super::columns::MeldList;
use crate::columns::errors_table::ErrorsBuilder;
use crate::columns::lists::{CardCopy, CardList};

/// The game's name: its folder in a dataset.
pub const GAME: &str = "pinochle";

table!(
    /// One row per hand.
    HandsBuilder, Some(GAME), "hands", record hand_id, {
    /// `EXPORT` or `IMPORT`, from a `%` file header.
    format: str,
    /// The value of a `% ID` file header.
    file_id: str,
    /// Event tag.
    event: str,
    /// Site tag.
    site: str,
    /// Date tag, when year, month and day are all known.
    date: date,
    /// Date tag as written (`2024.??.??`).
    date_text: str,
    /// Round tag.
    round: str,
    /// Stage tag.
    stage: str,
    /// Room tag.
    room: str,
    /// Competition tag.
    competition: str,
    /// Scoring tag.
    scoring: str,
    /// Annotator tag.
    annotator: str,
    /// Language tag.
    language: str,
    /// TimeControl tag.
    time_control: str,
    /// Number of players (Players tag, else 4).
    players: i32 required,
    /// Name of the player in the North seat.
    north: str,
    /// Name of the player in the Northeast seat (tables of six or eight).
    northeast: str,
    /// Name of the player in the East seat.
    east: str,
    /// Name of the player in the Southeast seat.
    southeast: str,
    /// Name of the player in the South seat.
    south: str,
    /// Name of the player in the Southwest seat.
    southwest: str,
    /// Name of the player in the West seat.
    west: str,
    /// Name of the player in the Northwest seat.
    northwest: str,
    /// Hand tag: the hand's number in its game.
    hand_number: i32,
    /// Dealer tag: a seat.
    dealer: str,
    /// Declarer tag: a seat.
    declarer: str,
    /// Contract tag: the winning bid.
    contract: i32,
    /// Trump tag: a suit, or `No Trump`.
    trump: str,
    /// Result tag as written.
    result: str,
    /// Termination tag: the seat that stopped the hand.
    termination_seat: str,
    /// Termination tag: why the hand stopped.
    termination_cause: str,
    /// GameScores tag: each team's game score after the hand, in team order.
    game_scores: i32s,
    /// MeldScores tag: each team's meld points, in team order.
    meld_scores: i32s,
    /// PlayScores tag: each team's points from the play, in team order.
    play_scores: i32s,
    /// HandScores tag: each team's score for the hand, in team order.
    hand_scores: i32s,
    /// Victor tag: the team that won the game.
    victor: i32,
    /// Deal tag as written.
    deal: str unique nostats,
    /// Holding tag as written.
    holding: str unique nostats,
    /// Melds tag as written.
    melds: str unique nostats,
    /// Passed tag as written.
    passed: str unique nostats,
    /// Kitty tag: the widow's cards.
    kitty: cards,
    /// Discard tag: the declarer's discards.
    discard: cards,
    /// Points in the discards, as annotated.
    discard_points: i32,
    /// The declarer's partner's seat, when partners are called.
    partner_seat: str,
    /// The card that called the partner.
    partner_card: str,
    /// BidSystem tags, index = team - 1.
    bid_systems: strs,
    /// The Auction tag's value: the seat that starts the auction.
    auction_start: str,
    /// The auction ends with `*` (stopped before its end).
    auction_terminated: bool,
    /// The Play tag's value: the seat that leads the first trick.
    play_start: str,
    /// The play ends with `*` (stopped before its end).
    play_terminated: bool,
    /// Comments of the hand, in order.
    comments: strs nostats,
    /// Every tag without a column of its own, as written (name, value).
    other_tags: kvs nostats,
    /// The rules profile the computed columns follow.
    rules_profile: str,
    /// Computed: the declarer, from the auction.
    computed_declarer: str same_as(declarer),
    /// Computed: the contract, from the auction.
    computed_contract: i32 same_as(contract),
    /// Computed: each team's meld points, from the cards.
    computed_meld_scores: i32s same_as(meld_scores),
    /// Computed: each team's points from the play.
    computed_play_scores: i32s same_as(play_scores),
    /// Computed: each team's score for the hand.
    computed_hand_scores: i32s same_as(hand_scores),
    /// Computed: the Result tag's value.
    computed_result: str same_as(result),
});

table!(
    /// One row per seat per hand.
    SeatsBuilder, Some(GAME), "seats", {
    /// The hand's key.
    hand_id: i64 required unique,
    /// The seat: `N`, `E`, `S`, `W` (and `NE` ... at larger tables).
    seat: str required,
    /// The player's name.
    player: str,
    /// The player's type (PlayerType tags: `human`, `program`).
    player_type: str,
    /// The seat's team (1-based).
    team: i32,
    /// The cards dealt to the seat (Deal tag).
    dealt: cards,
    /// The cards held after the pass (Holding tag).
    held: cards,
    /// The cards the seat passed (Passed tag).
    passed: cards,
    /// The cards the seat melded (Melds tag).
    meld_cards: cards,
    /// The seat's meld points, as annotated.
    meld_points: i32,
    /// Computed: the cards dealt (the Deal tag's, or rebuilt from a complete
    /// play), suits C D S H, ranks A T K Q J.
    computed_dealt: copy same_as(dealt),
    /// Computed: the seat's meld points, from its cards and the trump.
    computed_meld_points: i32 same_as(meld_points),
    /// Computed: the seat's melds (meld, count, points).
    computed_melds: MeldList nostats,
});

table!(
    /// One row per call of the auction (`-` placeholders are not calls).
    BidsBuilder, Some(GAME), "bids", {
    /// The hand's key.
    hand_id: i64 required unique,
    /// 0-based position of the call in the auction.
    seq: i32 required,
    /// 1-based round of the auction.
    round: i32 required,
    /// The seat that called.
    seat: str,
    /// The call as written.
    call: str required,
    /// The bid, null for Pass.
    bid: i32,
});

table!(
    /// One row per trick of the play.
    TricksBuilder, Some(GAME), "tricks", {
    /// The hand's key.
    hand_id: i64 required unique,
    /// 1-based trick number.
    trick: i32 required,
    /// The seat that led.
    leader: str,
    /// The cards in play order.
    cards: cards,
    /// The winner, as annotated.
    winner: str,
    /// The trick's points, as annotated.
    points: i32,
    /// Every seat played to the trick.
    complete: bool required,
    /// Computed: the trick's winner by the cards (the leader of trick k+1 is
    /// the computed winner of trick k).
    computed_winner: str same_as(winner),
    /// Computed: the trick's points by the cards.
    computed_points: i32 same_as(points),
});

table!(
    /// Note and Chat tags and every segmental tag.
    NotesBuilder, Some(GAME), "notes", {
    /// The hand's key.
    hand_id: i64 required unique,
    /// 0-based position among the hand's notes.
    seq: i32 required,
    /// The tag's name.
    tag: str required,
    /// Chat's speaker.
    seat: str,
    /// The text of a Note or Chat.
    text: str nostats,
    /// The tag's value as written.
    value: str nostats,
    /// The segmental prefix as written (`@A1-P3=`).
    segment: str,
    /// The prefix's start: segment letter.
    start_segment: str,
    /// The prefix's start: number.
    start_number: i32,
    /// The prefix's start: sub-number.
    start_sub: i32,
    /// The prefix's end: segment letter.
    end_segment: str,
    /// The prefix's end: number.
    end_number: i32,
    /// The prefix's end: sub-number.
    end_sub: i32,
});

game_tables!(
    /// The builders of every pinochle table for one group.
    PINOCHLE_TABLES, hand_id, {
    hands: HandsBuilder,
    seats: SeatsBuilder,
    bids: BidsBuilder,
    tricks: TricksBuilder,
    notes: NotesBuilder,
});

impl Builders {
    /// Builders sized for `n` records: 4 seats, about 8 calls and 20 tricks
    /// each; the card lists by what a four-handed hand holds (20 cards
    /// dealt, about 10 in meld, 4 in a trick; other lists are mostly null).
    pub fn sized_for(n: usize) -> Builders {
        let mut seats = SeatsBuilder::with_rows(n * 4);
        seats.dealt = CardList::with_items(n * 4, 20);
        let dealt = SeatsBuilder::schema()
            .index_of("dealt")
            .expect("seats has dealt");
        seats.computed_dealt = CardCopy::of(dealt, n * 4, 20);
        seats.meld_cards = CardList::with_items(n * 4, 10);
        let mut tricks = TricksBuilder::with_rows(n * 20);
        tricks.cards = CardList::with_items(n * 20, 4);
        Builders {
            hands: HandsBuilder::with_rows(n),
            seats,
            bids: BidsBuilder::with_rows(n * 8),
            tricks,
            notes: NotesBuilder::with_rows(n / 4 + 1),
            errors: ErrorsBuilder::with_rows(n / 8 + 1),
        }
    }
}
