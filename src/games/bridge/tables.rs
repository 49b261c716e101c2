//! The bridge tables (docs/tables.md, bridge): `boards`, `seats`,
//! `calls`, `plays`, `tricks`, `notes`, `score_tables` and `double_dummy`,
//! written under `OUT/bridge/`, whatever the notation (PBN, RBN, RBX).

use crate::columns::errors_table::ErrorsBuilder;
use crate::columns::lists::CardList;

/// The game's name: its folder in a dataset.
pub const GAME: &str = "bridge";

table!(
    /// One row per board (a PBN game, an RBN or RBX record).
    BoardsBuilder, Some(GAME), "boards", record board_id, {
    /// `EXPORT` or `IMPORT`, from a file header.
    format: str,
    /// Event.
    event: str,
    /// Site.
    site: str,
    /// The date, when year, month and day are all known.
    date: date,
    /// The date as written (`1995.06.??`).
    date_text: str,
    /// The board number or name as written (`01`, `7`).
    board: str,
    /// The board number, when numeric.
    board_number: i32,
    /// North's name.
    north: str,
    /// East's name.
    east: str,
    /// South's name.
    south: str,
    /// West's name.
    west: str,
    /// The room (`Open`, `Closed`) or table.
    room: str,
    /// The scoring as written (`IMP`, `MP`, `Rubber` ...).
    scoring: str,
    /// The dealer: `N`, `E`, `S` or `W`.
    dealer: str,
    /// The vulnerability, normalized: `None`, `NS`, `EW`, `All`; null when
    /// unknown.
    vulnerable: str,
    /// The vulnerability as written (`Love`, `Both`, `-` ...).
    vulnerable_text: str same_as(vulnerable),
    /// The deal, normalized: `N:` then the hands clockwise from North, suits
    /// S.H.D.C, ranks high to low, `-` for a hand not given.
    deal: str,
    /// The deal as written.
    deal_text: str,
    /// The declarer as written, without a `^` mark.
    declarer: str,
    /// The declarer was marked irregular (`^S`: declarer and dummy swapped).
    declarer_irregular: bool,
    /// The contract, normalized: level, strain, `X` or `XX` (`4S`, `3NT`,
    /// `6NTXX`); `Pass` when passed out.
    contract: str,
    /// The contract's level.
    contract_level: i32,
    /// The contract's strain: `C`, `D`, `H`, `S` or `NT`.
    contract_strain: str,
    /// The contract's risk: ``, `X` or `XX`.
    contract_risk: str,
    /// The contract as written.
    contract_text: str,
    /// Tricks won by declarer, as the record states it.
    result: i32,
    /// The result as written (`9`, `NS 9`, `^9`).
    result_text: str,
    /// The score for North-South as written (PBN Score, RBN raw score).
    score_ns: i32,
    /// The score as written (`NS 620`, `-100`).
    score_text: str,
    /// The seat that leads the first trick.
    opening_leader: str,
    /// Comments of the board, in order.
    comments: strs nostats,
    /// Every tag or label without a column of its own, as written.
    other_tags: kvs nostats,
    /// Computed: the declarer, from the auction.
    computed_declarer: str same_as(declarer),
    /// Computed: the contract, from the auction.
    computed_contract: str same_as(contract),
    /// Computed: declarer's tricks, from a complete play (or the claim the
    /// notation states).
    computed_result: i32 same_as(result),
    /// Computed: the duplicate score for North-South, from the contract,
    /// the vulnerability and the result.
    computed_score_ns: i32 same_as(score_ns),
});

table!(
    /// One row per seat per board.
    BridgeSeatsBuilder, Some(GAME), "seats", {
    /// The board's key.
    board_id: i64 required unique,
    /// `N`, `E`, `S` or `W`.
    seat: str required,
    /// The player's name.
    player: str,
    /// The cards dealt, S H D C, high to low; null when the deal does not
    /// give the hand.
    cards: cards,
    /// Computed: high-card points (A 4, K 3, Q 2, J 1).
    hcp: i32,
});

table!(
    /// One row per call, in auction order.
    CallsBuilder, Some(GAME), "calls", {
    /// The board's key.
    board_id: i64 required unique,
    /// 0-based position in the auction.
    seq: i32 required,
    /// The seat that called.
    seat: str,
    /// The call, normalized: `Pass`, `X`, `XX`, `1C` ... `7NT` (PBN `AP`
    /// becomes the passes it stands for).
    call: str required,
    /// The call as written.
    text: str,
    /// Its suffix, NAGs or notation mark, as written.
    annotation: str,
    /// The text of the note it refers to.
    note: str nostats,
    /// The number of the note it refers to (`=2=` is 2).
    note_number: i32,
    /// The call is alerted (it refers to a note).
    alert: bool,
});

table!(
    /// One row per card, in the order played.
    PlaysBuilder, Some(GAME), "plays", {
    /// The board's key.
    board_id: i64 required unique,
    /// 0-based position in the play.
    seq: i32 required,
    /// 1-based trick.
    trick: i32 required,
    /// The seat that played.
    seat: str,
    /// The card: suit then rank (`SA`, `HT`); null when not known.
    card: str,
    /// The card as written.
    text: str same_as(card),
    /// Its suffix, NAGs or irregularity mark, as written.
    annotation: str,
    /// The text of the note it refers to.
    note: str nostats,
    /// The number of the note it refers to (`=1=` is 1).
    note_number: i32,
});

table!(
    /// One row per trick.
    BridgeTricksBuilder, Some(GAME), "tricks", {
    /// The board's key.
    board_id: i64 required unique,
    /// 1-based trick.
    trick: i32 required,
    /// The seat that led.
    leader: str,
    /// The cards in play order.
    cards: cards,
    /// Computed: the trick's winner by the cards.
    computed_winner: str,
});

table!(
    /// The notes of a board: of its auction, its play, or itself.
    BridgeNotesBuilder, Some(GAME), "notes", {
    /// The board's key.
    board_id: i64 required unique,
    /// `auction`, `play` or `board`.
    section: str required,
    /// The note's number (`=1=` refers to note 1).
    number: i32,
    /// The note's text.
    text: str nostats,
});

table!(
    /// One row per cell of a board's tables (ScoreTable,
    /// OptimumResultTable ... in PBN; the I items of RBN).
    ScoreTablesBuilder, Some(GAME), "score_tables", {
    /// The board's key.
    board_id: i64 required unique,
    /// The table's name.
    table: str required,
    /// 0-based row.
    row: i32 required,
    /// The column's name as the table declares it.
    column: str required,
    /// The cell as written.
    value: str nostats,
});

table!(
    /// Tricks makable by each declarer in each strain (PBN
    /// OptimumResultTable, RBN M).
    DoubleDummyBuilder, Some(GAME), "double_dummy", {
    /// The board's key.
    board_id: i64 required unique,
    /// The declarer: `N`, `E`, `S` or `W`.
    declarer: str required,
    /// The strain: `C`, `D`, `H`, `S` or `NT`.
    strain: str required,
    /// Tricks makable.
    tricks: i32,
    /// Where it was read: the tag or label.
    source: str required,
});

game_tables!(
    /// The builders of every bridge table for one group. The table list
    /// is that of every bridge notation.
    BRIDGE_TABLES, board_id, {
    boards: BoardsBuilder,
    seats: BridgeSeatsBuilder,
    calls: CallsBuilder,
    plays: PlaysBuilder,
    tricks: BridgeTricksBuilder,
    notes: BridgeNotesBuilder,
    score_tables: ScoreTablesBuilder,
    double_dummy: DoubleDummyBuilder,
});

impl Builders {
    /// Builders sized for `n` games: 4 seats, about 12 calls, 52 cards and
    /// 13 tricks each.
    pub fn sized_for(n: usize) -> Builders {
        let mut seats = BridgeSeatsBuilder::with_rows(n * 4);
        seats.cards = CardList::with_items(n * 4, 13);
        let mut tricks = BridgeTricksBuilder::with_rows(n * 13);
        tricks.cards = CardList::with_items(n * 13, 4);
        Builders {
            boards: BoardsBuilder::with_rows(n),
            seats,
            calls: CallsBuilder::with_rows(n * 12),
            plays: PlaysBuilder::with_rows(n * 52),
            tricks,
            notes: BridgeNotesBuilder::with_rows(n / 4 + 1),
            score_tables: ScoreTablesBuilder::with_rows(n),
            double_dummy: DoubleDummyBuilder::with_rows(n),
            errors: ErrorsBuilder::with_rows(n / 4 + 1),
        }
    }
}
