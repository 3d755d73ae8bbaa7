//! The rules of Snakes and Ladders as a library: boards, dice, rule options, and a game state
//! machine that reports what happens as events. No I/O, no clock, no global random generator.
//!
//! # Example
//!
//! ```
//! use snl_engine::{Board, FirstOption, Game, Preset, Rules, SeededDice, Seat, SeatKind, Status};
//!
//! let rules = Rules::named("bonus-six")?;
//! let board = Board::new(&Preset::Classic.spec(), &rules)?;
//! let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Bob", SeatKind::Greedy)];
//! let mut game = Game::new(board, rules, seats)?;
//!
//! let mut events = Vec::new(); // any `Observer`: a display, a recorder, statistics
//! game.play_to_end(&mut SeededDice::new(7), &mut FirstOption, &mut events)?;
//! assert_eq!(game.status(), Status::Finished);
//! assert_eq!(game.positions()[game.ranking()[0]], 100);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! # Where things are
//!
//! - [`BoardSpec`] (plain data, from files) → [`Board`] through [`Board::new`], whose
//!   [`BoardError`] lists every problem; [`Preset`] and [`RandomBoard`] make specs.
//! - [`Rules`]: every option of the game, each a closed enum; [`RuleSpec`] is their unchecked
//!   text form and [`RuleSet`] the named sets.
//! - [`Dice`], [`Roll`], and the [`RollSource`] trait: [`SeededDice`] (ChaCha8, unbiased) and
//!   [`ScriptedDice`].
//! - [`Game`]: seats, turns, ranks and history; a turn calls a [`RollSource`], a [`Decider`] when
//!   the rules offer a choice, and an [`Observer`] for every [`Event`].
//! - [`GameState`]: a game as plain data (save files, databases); [`Game::restore`] is the one
//!   door back, replaying the history to check it, and [`RestoreError`] names what is wrong.
//! - [`check_rolls`]: whether a [`RollSource`] gives a recorded history's rolls and wormhole
//!   draws (how seeded dice are verified).

mod board;
mod dice;
mod effects;
mod event;
mod game;
mod moves;
mod phase;
mod presets;
mod proof;
mod record;
mod rules;
mod save;
mod seat;
mod time_up;
mod turn;

pub use board::{
    Board, BoardError, BoardProblem, BoardSpec, CellSpec, Jump, LadderSpec, Layout,
    MAX_BOARD_FILE_BYTES, MAX_BOARD_FILE_TOKENS, MAX_CELLS, ParseBoardError, PartialBoard, Reach,
    SnakeSpec, check_board_file, default_width, file_rules,
};
pub use dice::{
    Dice, DiceError, MAX_DICE, MAX_FACES, ParseRollsError, Roll, RollError, RollSource, Scripted,
    ScriptedDice, SeededDice, splitmix64, uniform_below,
};
pub use effects::{CellEffect, Effect};
pub use event::{Event, Numbered, Observer, Subscribers, Transcript};
pub use game::{Decider, FirstOption, Game, PlayError, SetupError};
pub use moves::{Advance, Entry, Meets, Met, MoveOption, Next, Outcome};
pub use phase::{ApplyError, Checkpoint, Input, Pending, Status};
pub use presets::{Preset, RandomBoard, RandomBoardError, UnknownPreset};
pub use proof::{RollMismatch, RollsChecked, check_rolls};
pub use record::{Decision, MoveKind, MoveRecord, TurnReport};
pub use rules::{
    AfterRoll, Bonus, Choice, Finish, JumpMode, MaxBonus, Mode, OnMax, Overshoot, RuleSet,
    RuleSpec, Rules, RulesError, Start,
};
pub use save::{GameState, RestoreError};
pub use seat::{SavedSeat, Seat, SeatError, SeatKind, SeatState};

/// `rand_core`, re-exported so callers can drive [`uniform_below`] with their own generator.
pub use rand_chacha::rand_core;
