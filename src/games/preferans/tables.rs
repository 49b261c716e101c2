//! The preferans tables (docs/tables.md, preferans): `games`,
//! `deals`, `seats` and `tricks`, written under `OUT/preferans/`.

use super::card::{Card, Rank, Suit};
use crate::columns::errors_table::ErrorsBuilder;
use crate::columns::lists::CardName;

/// The game's name: its folder in a dataset.
pub const GAME: &str = "preferans";

impl Card {
    /// Its name in the tables: suit then rank, upper case, ten as `T`
    /// (`S7`, `DT`, `CA`).
    pub fn name(self) -> [u8; 2] {
        let s = match self.suit {
            Suit::Spades => b'S',
            Suit::Diamonds => b'D',
            Suit::Hearts => b'H',
            Suit::Clubs => b'C',
        };
        let r = match self.rank {
            Rank::Seven => b'7',
            Rank::Eight => b'8',
            Rank::Nine => b'9',
            Rank::Ten => b'T',
            Rank::Jack => b'J',
            Rank::Queen => b'Q',
            Rank::King => b'K',
            Rank::Ace => b'A',
        };
        [s, r]
    }
}

impl CardName for Card {
    #[inline(always)]
    fn name(self) -> [u8; 2] {
        Card::name(self)
    }

    fn same(a: &[Card], b: &[Card]) -> bool {
        a == b
    }
}

table!(
    /// One row per game (a tag section and its deal lines).
    GamesBuilder, Some(GAME), "games", record game_id, {
    /// The bula: the points each player starts from (`Bula`).
    bula: i32,
    /// The refas allowed (`Refe`).
    refe: i32,
    /// Player 1's name (`Player1`).
    player1: str,
    /// Player 2's name.
    player2: str,
    /// Player 3's name.
    player3: str,
    /// Player 1's result (`Result1`).
    result1: i32,
    /// Player 2's result.
    result2: i32,
    /// Player 3's result.
    result3: i32,
    /// Player 1's place (`Place1`).
    place1: i32,
    /// Player 2's place.
    place2: i32,
    /// Player 3's place.
    place3: i32,
    /// The date as written (`Date`).
    date_text: str,
    /// The deal lines read into `deals` rows.
    deals: i32,
    /// Comment lines (`;`, `{...}`, `%`) of the game, as written.
    comments: strs nostats,
    /// Every other tag (and a repeated tag, or a value that could not be
    /// read into its column), as written.
    other_tags: kvs nostats,
});

table!(
    /// One row per deal line.
    DealsBuilder, Some(GAME), "deals", {
    /// The game's key.
    game_id: i64 required unique,
    /// 0-based position of the deal line among the game's deal lines
    /// (a line that could not be read keeps its number).
    seq: i32 required,
    /// 1-based line of the deal in the file.
    line: i64,
    /// The deal's id, as written.
    deal: str,
    /// The deal order as written (`231`: player 2 first, player 1 deals).
    deal_order: str,
    /// The dealer: the deal order's last player.
    dealer: i32,
    /// The 32 card characters, as written.
    cards: str,
    /// The two talon cards (the card string's last two).
    talon: cards,
    /// The highest bids, as written (in deal order).
    bids: str,
    /// Every player passed: nobody played.
    passed_out: bool,
    /// The main player (who won the auction).
    main: i32,
    /// The two cards the main player discarded; empty for a game without
    /// the talon (`XX`).
    discarded: cards,
    /// The contract: 2 spades, 3 diamonds, 4 hearts, 5 clubs, 6 betl,
    /// 7 sans, 8 preferans.
    contract: i32,
    /// `spades`, `diamonds`, `hearts`, `clubs`, `betl`, `sans`, `preferans`.
    contract_name: str,
    /// A game: played without the talon (the contract's `G` prefix).
    without_talon: bool,
    /// Who follows: 0 nobody, 1-3 that player alone, 4 or more both
    /// followers (as written).
    accepted: i32,
    /// The kontra field as written (`0`, `K3`).
    kontra: str,
    /// `invitation`, `kontra`, `rekontra`, `subkontra` or `mortkontra`;
    /// null for none.
    kontra_level: str,
    /// The player who began the kontras (or invited).
    kontra_player: i32,
    /// A refa: the deal's value is doubled.
    refa: bool,
    /// The contract's value, as written.
    value: i32,
    /// The player who leads the first trick.
    starts: i32,
    /// The throws, as written.
    throws: str,
    /// The summary, as written.
    summary: str,
});

table!(
    /// One row per player (1 to 3) per deal line.
    SeatsBuilder, Some(GAME), "seats", {
    /// The game's key.
    game_id: i64 required unique,
    /// The deal's `seq`.
    seq: i32 required,
    /// The player, 1 to 3.
    player: i32 required,
    /// The 10 cards dealt to the player, in the order dealt.
    dealt: cards,
    /// The player's highest bid, as written (`P`, `2`, `G4`, `M3`).
    highest_bid: str,
    /// `main`, `follower` (a player who followed) or `none`, from the
    /// summary (`M`, `F`, `0`); from the main and accepted fields when the
    /// summary gives none; null for a deal without either.
    role: str,
    /// Tricks taken, from the summary.
    tricks: i32,
    /// The summary's entry in the left column (a follower's `L`).
    left: i32,
    /// The summary's entry in the middle column (the main player's, a
    /// follower's failure).
    middle: i32,
    /// The summary's entry in the right column (a follower's `R`).
    right: i32,
    /// Tricks won in the throws, by the rules (null when they cannot be
    /// told: see the `errors` table's info).
    computed_tricks: i32,
});

table!(
    /// One row per throw (trick) of a deal.
    TricksBuilder, Some(GAME), "tricks", {
    /// The game's key.
    game_id: i64 required unique,
    /// The deal's `seq`.
    seq: i32 required,
    /// 1-based.
    trick: i32 required,
    /// The player who leads: the deal's `starts`, then the annotated
    /// winner of the trick before.
    leader: i32,
    /// The cards in play order (two or three); null when the throw could
    /// not be read.
    cards: cards,
    /// The winner as annotated (the throw's last character).
    winner: i32,
    /// The winner by the rules (null when the contract's rules are not
    /// known or the players of the throw cannot be told).
    computed_winner: i32,
});

game_tables!(
    /// The builders of every preferans table for one group.
    PREFERANS_TABLES, game_id, {
    games: GamesBuilder,
    deals: DealsBuilder,
    seats: SeatsBuilder,
    tricks: TricksBuilder,
});

impl Builders {
    /// Builders sized for `n` games of about 30 deals each (8 throws a
    /// deal), their card lists for the cards of each row, so that they
    /// rarely grow.
    pub fn sized_for(n: usize) -> Builders {
        use crate::columns::lists::CardList;
        use crate::columns::strings::StrBuilder;
        let (deals, tricks) = (n * 30, n * 240);
        let mut b = Builders {
            games: GamesBuilder::with_rows(n),
            deals: DealsBuilder::with_rows(deals),
            seats: SeatsBuilder::with_rows(deals * 3),
            tricks: TricksBuilder::with_rows(tricks),
            errors: ErrorsBuilder::with_rows(n / 4 + 1),
        };
        // The text columns by their usual lengths.
        b.deals.cards = StrBuilder::with_capacity(deals, deals * 32);
        b.deals.throws = StrBuilder::with_capacity(deals, deals * 40);
        b.deals.summary = StrBuilder::with_capacity(deals, deals * 16);
        b.deals.bids = StrBuilder::with_capacity(deals, deals * 6);
        b.deals.talon = CardList::with_items(deals, 2);
        b.deals.discarded = CardList::with_items(deals, 2);
        b.seats.dealt = CardList::with_items(deals * 3, 10);
        b.tricks.cards = CardList::with_items(tricks, 3);
        b
    }
}
