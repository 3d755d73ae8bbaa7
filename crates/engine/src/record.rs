//! What a turn is made of: the ways to play a roll, the choices put to a seat, and the history
//! of every roll.

use serde::{Deserialize, Serialize};

use crate::{board::Jump, dice::Roll, game::Game, moves::Meets};

/// One way to play a roll, as [`crate::Board::option`] decides it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveOption {
    /// Cells to move; 0 means staying put.
    pub steps: u32,
    /// Where the token would rest (after overshoot and jumps; a wormhole's own cell, as its end
    /// is drawn).
    pub lands: u32,
    /// Whether this option counts as a top-face roll for the bonus rule.
    pub top_face: bool,
    /// The cell landed on after the overshoot rule, before any jump (the cell left when the
    /// move is blocked or declined).
    #[serde(default)]
    pub landed: u32,
    /// What the move meets on the landing cell (what an option's label says).
    #[serde(default)]
    pub meets: Meets,
}

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

/// Chooses among options when the rules offer a choice.
pub trait Decider {
    /// Returns the index of the chosen option in `decision.options` (clamped if out of range).
    fn decide(&mut self, game: &Game, decision: &Decision) -> usize;
}

/// Always takes the first option: the move by the roll (or the first die).
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstOption;

impl Decider for FirstOption {
    fn decide(&mut self, _: &Game, _: &Decision) -> usize {
        0
    }
}

impl<D: Decider + ?Sized> Decider for &mut D {
    fn decide(&mut self, game: &Game, decision: &Decision) -> usize {
        (**self).decide(game, decision)
    }
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
    /// Milliseconds since the Unix epoch, from the clock given with [`Game::set_clock`].
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
