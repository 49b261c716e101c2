//! The pinochle tables: `hands`, `seats`, `bids`, `tricks` and `notes`.

table!(
    /// One row per hand.
    HandsBuilder, "hands", {
    hand_id: u64 required,
    source_file: str required,
    record_index: u64 required,
    byte_offset: u64 required,
    line: u64 required,
    notation_version: str,
    format: str,
    file_id: str,
    event: str,
    site: str,
    date: date,
    date_text: str,
    round: str,
    stage: str,
    room: str,
    competition: str,
    scoring: str,
    annotator: str,
    language: str,
    time_control: str,
    players: i32 required,
    north: str,
    northeast: str,
    east: str,
    southeast: str,
    south: str,
    southwest: str,
    west: str,
    northwest: str,
    hand_number: i32,
    dealer: str,
    declarer: str,
    contract: i32,
    trump: str,
    result: str,
    termination_seat: str,
    termination_cause: str,
    game_scores: i32s,
    meld_scores: i32s,
    play_scores: i32s,
    hand_scores: i32s,
    victor: i32,
    deal: str,
    holding: str,
    melds: str,
    passed: str,
    kitty: cards,
    discard: cards,
    discard_points: i32,
    partner_seat: str,
    partner_card: str,
    bid_systems: strs,
    auction_start: str,
    auction_terminated: bool,
    play_start: str,
    play_terminated: bool,
    comments: strs,
    other_tags: kvs,
    rules_profile: str,
    computed_declarer: str,
    computed_contract: i32,
    computed_meld_scores: i32s,
    computed_play_scores: i32s,
    computed_hand_scores: i32s,
    computed_result: str,
});

table!(
    /// One row per seat per hand.
    SeatsBuilder, "seats", {
    hand_id: u64 required,
    seat: str required,
    player: str,
    player_type: str,
    team: i32,
    dealt: cards,
    held: cards,
    passed: cards,
    meld_cards: cards,
    meld_points: i32,
    computed_dealt: copy,
    computed_meld_points: i32,
    computed_melds: melds,
});

table!(
    /// One row per call of the auction (`-` placeholders are not calls).
    BidsBuilder, "bids", {
    hand_id: u64 required,
    seq: i32 required,
    round: i32 required,
    seat: str,
    call: str required,
    bid: i32,
});

table!(
    /// One row per trick of the play.
    TricksBuilder, "tricks", {
    hand_id: u64 required,
    trick: i32 required,
    leader: str,
    cards: cards,
    winner: str,
    points: i32,
    complete: bool required,
    computed_winner: str,
    computed_points: i32,
});

table!(
    /// Note and Chat tags and every segmental tag.
    NotesBuilder, "notes", {
    hand_id: u64 required,
    seq: i32 required,
    tag: str required,
    seat: str,
    text: str,
    value: str,
    segment: str,
    start_segment: str,
    start_number: i32,
    start_sub: i32,
    end_segment: str,
    end_number: i32,
    end_sub: i32,
});
