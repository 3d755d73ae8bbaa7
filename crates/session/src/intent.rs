//! What goes into a session and what it waits for: a person's [`Intent`]s, what the session is
//! [`Awaiting`], and why it refuses an intent ([`SessionError`]).

use snl_engine::{ApplyError, Decision, RollError};

/// What a person may ask of the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Intent {
    /// Throw the dice for the seat's awaited roll.
    Roll,
    /// Take option `option` of the awaited choice.
    Choose {
        /// Index into [`Decision::options`].
        option: usize,
    },
    /// Take back turns: to the start of the turn in flight, else to just before the last turn a
    /// person played (the computers' turns after it go with it).
    Undo,
    /// Put back what the last undo took back, with the same rolls.
    Redo,
    /// Hand the seat to the computer (`on`), or take it back.
    Autopilot {
        /// True to hand it over.
        on: bool,
    },
    /// Stop here; the game stays resumable.
    Quit,
}

/// What the session waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Awaiting {
    /// A person at `seat` to roll ([`Intent::Roll`]).
    Roll {
        /// The seat.
        seat: usize,
    },
    /// A person to choose ([`Intent::Choose`]).
    Choice(Decision),
    /// A computer seat, or a person's seat on autopilot: [`Session::play_computer`](crate::Session::play_computer) plays its
    /// next input when the front end is ready to show it.
    Computer {
        /// The seat.
        seat: usize,
    },
    /// Nothing more: the game is over, or the session was stopped.
    Over,
}

/// Why an intent was refused; the session is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SessionError {
    /// Another seat is awaited.
    #[error("it is not seat {seat}'s turn")]
    NotYourTurn {
        /// The seat that asked.
        seat: usize,
    },
    /// The seat is played by the computer (its kind, or autopilot).
    #[error("seat {seat} is played by the computer")]
    NotAPerson {
        /// The seat.
        seat: usize,
    },
    /// No person's turn to take back.
    #[error("there is nothing to undo")]
    NothingToUndo,
    /// Nothing was taken back.
    #[error("there is nothing to redo")]
    NothingToRedo,
    /// The game is over or the session stopped.
    #[error("the game is over")]
    Over,
    /// The game refused the input.
    #[error(transparent)]
    Refused(#[from] ApplyError),
    /// The dice could not roll (scripted rolls ran out).
    #[error(transparent)]
    Dice(#[from] RollError),
}
