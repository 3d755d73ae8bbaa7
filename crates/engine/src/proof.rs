//! Does a source of dice give a recorded history? Every roll, and every wormhole exit drawn on
//! the way, asked of the source in the order the game asked them: the check behind `snl verify`,
//! a save's dice, and the browser's replay page (through the wasm module), one copy for all.
//!
//! ```
//! use snl_engine::{Board, FirstOption, Game, Preset, Rules, SeededDice, Seat, SeatKind, check_rolls};
//!
//! let rules = Rules::default();
//! let board = Board::new(&Preset::Classic.spec(), &rules)?;
//! let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Bob", SeatKind::Easy)];
//! let mut game = Game::new(board, rules, seats)?;
//! game.play_to_end(&mut SeededDice::new(7), &mut FirstOption, &mut Vec::new())?;
//! let state = game.state();
//! let (board, rules, history) = (&state.board, &state.rules, &state.history);
//! let checked = check_rolls(board, rules, history, &mut SeededDice::new(7))?;
//! assert_eq!(checked.rolls, history.len());
//! assert!(check_rolls(board, rules, history, &mut SeededDice::new(8)).is_err());
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use crate::{
    board::{Board, BoardSpec},
    dice::{Roll, RollError, RollSource},
    record::MoveRecord,
    rules::Rules,
};

/// What a source was found to give: every roll of a history and its wormhole draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RollsChecked {
    /// Rolls checked (the history's moves).
    pub rolls: usize,
    /// Wormhole exits drawn on the way.
    pub draws: usize,
}

/// Where a source and a history part ways, numbered from the history's first move (1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RollMismatch {
    /// The source gives another roll than the history's move.
    Roll {
        /// The move, from 1.
        number: usize,
        /// What the source gives.
        given: Roll,
        /// What the history has.
        recorded: Roll,
    },
    /// The source draws another wormhole exit than the move took (exits from 0).
    Draw {
        /// The move, from 1.
        number: usize,
        /// The exit the source draws.
        given: u32,
        /// The exit the move took.
        recorded: u32,
    },
    /// The source gives nothing more (scripted rolls ran out).
    Source(RollError),
    /// The board cannot be built, so the draws cannot be read.
    Board(String),
}

impl fmt::Display for RollMismatch {
    /// Said after what the source is ("seed 5 gives …"); the last two stand alone.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RollMismatch::Roll { number, given, recorded } => write!(
                f,
                "gives {given:?} for move {number} of the history, which has {recorded:?}"
            ),
            RollMismatch::Draw { number, given, recorded } => write!(
                f,
                "draws wormhole exit {} for move {number} of the history, which took exit {}",
                given + 1,
                recorded + 1
            ),
            RollMismatch::Source(e) => write!(f, "{e}"),
            RollMismatch::Board(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for RollMismatch {}

/// Asks `source` for `history`'s rolls and wormhole draws in the game's order (a draw right after
/// the roll of its move, as [`crate::Game`] asks them) and compares each with what was recorded.
///
/// # Errors
///
/// The first [`RollMismatch`].
pub fn check_rolls(
    board: &BoardSpec,
    rules: &Rules,
    history: &[MoveRecord],
    source: &mut impl RollSource,
) -> Result<RollsChecked, RollMismatch> {
    let dice = rules.thrown_dice();
    // The wormholes' draws are read from each move's jumps, which need the board's exits.
    let board = if board.cells.is_empty() {
        None
    } else {
        Some(Board::new(board, rules).map_err(|e| RollMismatch::Board(e.to_string()))?)
    };
    let mut draws = 0;
    for (i, m) in history.iter().enumerate() {
        let number = i + 1;
        let roll = source.roll(m.seat, dice).map_err(RollMismatch::Source)?;
        if roll != m.roll {
            return Err(RollMismatch::Roll { number, given: roll, recorded: m.roll });
        }
        for (index, count) in board.as_ref().map(|b| b.draws_of(&m.jumps)).unwrap_or_default() {
            let exit = source.draw(m.seat, count).map_err(RollMismatch::Source)?;
            if exit != index {
                return Err(RollMismatch::Draw { number, given: exit, recorded: index });
            }
            draws += 1;
        }
    }
    Ok(RollsChecked { rolls: history.len(), draws })
}
