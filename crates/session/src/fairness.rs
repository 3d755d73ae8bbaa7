//! Dice a player can verify online: the commit–reveal derivation lives in
//! [`snl_analysis::commitment`] (one copy, also in the browser's wasm engine); here a stored
//! room's material ([`snl_store::RoomDice`]) is checked against it.

pub use snl_analysis::commitment::{
    DERIVATION, MAX_SEAT_SEED, SECRET_BYTES, commitment, hex, room_seed, unhex,
};

/// Checks that `seed` is what an online room's revealed material gives
/// ([`snl_analysis::commitment::check_room`]).
///
/// # Errors
///
/// One sentence naming what does not agree.
pub fn check_room(room: &snl_store::RoomDice, seed: u64) -> Result<(), String> {
    snl_analysis::commitment::check_room(&room.commitment, &room.secret, &room.seat_seeds, seed)
}
