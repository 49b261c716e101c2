//! Parsing PHH (`.phh` and `.phhs`) into Arrow batches (no writing): never
//! panics; every hand is a `hands` row or a quarantined record; reading
//! the input in pieces gives the same batches as reading it in place; and
//! wherever the hand-written TOML reader reads the input, the `toml` crate
//! reads exactly the same document.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    common::check(data, "phh", "phhs", "poker/hands");
    if let Ok(text) = std::str::from_utf8(data)
        && let Some(fast) = deckhand::notation::phh::doc::read(text)
    {
        let krate = toml::de::DeTable::parse(text).expect("the crate reads what the fast reader reads");
        assert_eq!(fast.fields, deckhand::notation::phh::doc::from_crate(&krate).fields);
    }
});
