//! The state of a game between inputs, as types: what the game awaits ([`Pending`]), the inputs
//! it takes ([`Input`]), why it refuses one ([`ApplyError`]), where a turn stands (`Turn`,
//! `Phase`, `Moving`), where the game stands in rounds (`Rounds`), and what undo keeps
//! ([`Checkpoint`]). The code that moves between these states is `turn.rs` (a roll, a choice, a
//! draw) and `time_up.rs` (the clocks); `game.rs` holds the state. Kept apart from the code so
//! that each of those files imports these, and none imports another's (no import circle).

use serde::{Deserialize, Serialize};

use crate::{
    board::Jump,
    dice::{Dice, Roll},
    moves::MoveOption,
    record::Decision,
    rules::AfterRoll,
    seat::SeatState,
};

/// Whether the game has begun or ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// No turn played yet.
    NotStarted,
    /// Turns are being played.
    Running,
    /// The game has ended.
    Finished,
}

/// What the game awaits next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// A throw of `dice` by `seat`: the first roll of its turn, or a bonus roll.
    Roll {
        /// Who rolls.
        seat: usize,
        /// What to throw (two dice under pick-die).
        dice: Dice,
        /// True for a roll within a turn already begun (a bonus roll).
        again: bool,
    },
    /// A choice among the options of the roll just made: answer with [`Input::Choose`].
    Choice(Decision),
    /// A draw: the token of `seat` entered the wormhole on `from`, and which of its `exits` it
    /// takes is drawn uniformly from the game's random stream. Answer with [`Input::Draw`] and
    /// an index into `exits` ([`crate::RollSource::draw`] gives one). Not a person's decision:
    /// every driver draws at once.
    Draw {
        /// Whose token.
        seat: usize,
        /// The wormhole's cell.
        from: u32,
        /// Its exits.
        exits: Vec<u32>,
    },
    /// Nothing: the game is over.
    Over,
}

/// One input to a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "input", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Input {
    /// The dice the awaited seat threw.
    Roll {
        /// Each die.
        roll: Roll,
    },
    /// The index of the chosen option in [`Decision::options`].
    Choose {
        /// The option.
        option: usize,
    },
    /// The index of the exit drawn, in [`Pending::Draw`]'s `exits`.
    Draw {
        /// The exit's index.
        index: u32,
    },
    /// The game clock ran out: the round in play is completed, then the game ends ranked by
    /// position (SPEC §3b). The game ends at once when no turn of a new round has begun.
    TimeUp,
    /// The turn clock of the seat awaited ran out (SPEC §3b): tells `timed_out`, and the rest of
    /// that turn is the computer's ([`crate::Game::turn_timed_out`]). The inputs that play it (rolls,
    /// the strategy's choices) come after it as usual, so a replay plays the turn alike.
    TurnTimeUp,
}

/// Why an input was refused; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ApplyError {
    /// The game has already ended.
    #[error("the game is over")]
    GameOver,
    /// A roll came while the game awaits a choice.
    #[error("the game awaits a choice among {count} options, not a roll")]
    ChoiceAwaited {
        /// How many options there are.
        count: usize,
    },
    /// A choice or a draw came while the game awaits a roll.
    #[error("the game awaits a roll, not a choice")]
    RollAwaited,
    /// A roll or a choice came while a wormhole awaits its draw.
    #[error("the game awaits a wormhole's draw among {count} exits")]
    DrawAwaited {
        /// How many exits there are.
        count: usize,
    },
    /// A draw came while none is awaited.
    #[error("the game awaits no wormhole draw")]
    NoDrawAwaited,
    /// The draw names no exit.
    #[error("there is no exit {index}: the exits are numbered 0 to {last}")]
    NoSuchExit {
        /// The index given.
        index: u32,
        /// The largest valid index.
        last: usize,
    },
    /// The roll is not one the dice in play can show.
    #[error("a roll of {faces:?} cannot be thrown with {dice}")]
    BadRoll {
        /// The faces given.
        faces: Vec<u8>,
        /// The dice in play.
        dice: Dice,
    },
    /// The option index names no option.
    #[error("there is no option {option}: the options are numbered 0 to {last}")]
    NoSuchOption {
        /// The index given.
        option: usize,
        /// The largest valid index.
        last: usize,
    },
    /// Time was called already: the game ends with this round.
    #[error("time is up already: the game ends with this round")]
    TimeAlreadyUp,
    /// The turn clock ran out already in this turn: the computer is playing the rest of it.
    #[error("the turn clock ran out already in this turn")]
    TurnAlreadyTimedOut,
}

/// Where a turn stands: whose it is, where it began and the top-face streak so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Turn {
    pub(crate) seat: usize,
    pub(crate) begin: u32,
    pub(crate) streak: u32,
    /// False until the turn's first roll is applied.
    pub(crate) begun: bool,
    /// Whether the seat held a shield when the turn began (what on-max void gives back).
    pub(crate) shield: bool,
    /// Whether the turn clock ran out in this turn ([`Input::TurnTimeUp`]).
    pub(crate) timed_out: bool,
}

/// A roll being moved, stopped at a wormhole until its draw comes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Moving {
    pub(crate) turn: Turn,
    pub(crate) roll: Roll,
    pub(crate) chosen: Option<usize>,
    /// The bonus rule's verdict on the roll.
    pub(crate) after: AfterRoll,
    pub(crate) from: u32,
    /// Where the token is now.
    pub(crate) at: u32,
    pub(crate) jumps: Vec<Jump>,
}

/// The phase of a turn: the state behind [`Game::pending`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    Roll(Turn),
    Choice { turn: Turn, roll: Roll, options: Vec<MoveOption> },
    Draw(Box<Moving>),
    Over,
}

/// A game's state between inputs in a few numbers per seat (never the history): what undo keeps
/// per turn. [`crate::Game::rewind`] goes back to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    pub(crate) seat_states: Vec<SeatState>,
    pub(crate) ranking: Vec<usize>,
    pub(crate) current: usize,
    pub(crate) status: Status,
    pub(crate) turns: u32,
    pub(crate) history_len: usize,
    pub(crate) phase: Phase,
    pub(crate) rounds: Rounds,
    /// How many turn clock expiries the game had taken.
    pub(crate) timed_out: usize,
}

impl Checkpoint {
    /// Rolls in the history at this point.
    pub fn history_len(&self) -> usize {
        self.history_len
    }

    /// Turns played at this point.
    pub fn turns(&self) -> u32 {
        self.turns
    }
}

/// Where a game stands in rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rounds {
    /// Rounds completed.
    pub(crate) done: u32,
    /// True between rounds: no turn of the round in play has begun.
    pub(crate) at_start: bool,
    /// The number of inputs applied before time was called, once it was.
    pub(crate) time_up: Option<u32>,
}

impl Default for Rounds {
    fn default() -> Rounds {
        Rounds { done: 0, at_start: true, time_up: None }
    }
}
