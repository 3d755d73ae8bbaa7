//! A game's head: the few things a turn changes, kept beside its history. One type for the save
//! journal's lines and the database's progress rows, so a game's state is spelled out once here
//! (and each seat's, once, in the engine's [`snl_engine::SeatState`]).

use serde::{Deserialize, Serialize};
use snl_engine::{Game, Pending, Roll, SavedSeat, SeededDice, Status};

use crate::dice::DiceState;

/// A game's state beside its history: the few things a turn changes.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Head {
    pub(crate) status: Status,
    pub(crate) turns: u32,
    pub(crate) current: usize,
    /// Each seat's state (older heads: `positions`, the cells alone).
    #[serde(alias = "positions")]
    pub(crate) seat_states: Vec<SavedSeat>,
    pub(crate) ranking: Vec<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) pending_roll: Option<Roll>,
    /// Where the game clock ran out, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) time_up: Option<u32>,
    /// Where each turn clock ran out, if one did.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) timed_out: Vec<u32>,
    pub(crate) dice: HeadDice,
    /// The number of the last event told (absent from heads written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) seq: Option<u64>,
}

/// The dice where they stand, without the list of scripted rolls (kept once: a journal's line 1,
/// the database's game row).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[expect(clippy::large_enum_variant, reason = "one per head, written once per record")]
pub(crate) enum HeadDice {
    Seeded { generator: SeededDice },
    Scripted { used: usize },
}

impl Head {
    /// The head of `game` with its `dice`, its last event told being number `seq`.
    pub(crate) fn of(game: &Game, dice: &DiceState, seq: u64) -> Head {
        Head {
            status: game.status(),
            turns: game.turns(),
            current: game.current(),
            seat_states: game.seat_states().iter().map(|&s| SavedSeat::Whole(s)).collect(),
            ranking: game.ranking().to_vec(),
            pending_roll: match game.pending() {
                Pending::Choice(decision) => Some(decision.roll),
                _ => None,
            },
            time_up: game.time_up(),
            timed_out: game.timed_out().to_vec(),
            dice: match dice {
                DiceState::Seeded { generator, .. } => {
                    HeadDice::Seeded { generator: generator.clone() }
                }
                DiceState::Scripted(list) => HeadDice::Scripted { used: list.used() },
            },
            seq: Some(seq),
        }
    }
}
