//! What a turn is made of: the ways to play a roll, the choices put to a seat, and the history
//! of every roll.

use serde::{Deserialize, Serialize};

use crate::{board::Jump, dice::Roll, moves::MoveOption};

/// A choice put to a seat's strategy: only asked when there are two options or more.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The seat deciding.
    pub seat: usize,
    /// Where its token stands.
    pub position: u32,
    /// The roll being played.
    pub roll: Roll,
    /// The options, at least two.
    pub options: Vec<MoveOption>,
    /// Where the seat's turn began: where on-max void would send it back.
    pub turn_start: u32,
    /// Top-face rolls already made in this turn (the bonus streak before this roll).
    pub streak: u32,
}

/// What became of one roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    /// The token moved (and maybe jumped).
    Moved,
    /// The roll passed cell N and the overshoot rule kept the token where it was.
    Blocked,
    /// The player chose not to move.
    Stayed,
    /// The capped roll voided the turn; `to` is where the turn began.
    Voided,
}

/// One roll in the history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The game's turn number, from 1.
    pub turn: u32,
    /// Who rolled.
    pub seat: usize,
    /// The dice.
    pub roll: Roll,
    /// Position before the roll.
    pub from: u32,
    /// Position after it.
    pub to: u32,
    /// Jumps taken, in order.
    pub jumps: Vec<Jump>,
    /// What became of the roll.
    pub kind: MoveKind,
    /// The option the seat chose, when the roll offered two or more ([`Decision::options`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen: Option<usize>,
    /// Milliseconds since the Unix epoch, from the clock given with [`crate::Game::set_clock`].
    pub time_ms: Option<u64>,
}

/// What one turn did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnReport {
    /// Who played.
    pub seat: usize,
    /// Position when the turn began.
    pub from: u32,
    /// Position when it ended.
    pub to: u32,
    /// Rolls made in the turn.
    pub rolls: u32,
    /// Whether the player finished.
    pub finished: bool,
    /// Whether the turn was voided.
    pub voided: bool,
}
