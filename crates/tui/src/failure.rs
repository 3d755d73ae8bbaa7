//! How a command failed, and so which exit code it ends with (SPEC §7): what the binary's commands
//! and this crate's screens return.

use std::fmt;

/// The exit code of a command ended by Ctrl-C (128 + SIGINT, as shells report it).
pub const INTERRUPTED_EXIT: u8 = 130;

/// How a command failed, and so which exit code it ends with (SPEC §7).
#[derive(Debug)]
pub struct Failure {
    pub kind: FailureKind,
    pub error: anyhow::Error,
}

/// The exit-code classes of SPEC §7.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// Exit 2: usage, board, rules, file.
    BadInput,
    /// Exit 3: a game could not go on.
    Stuck,
    /// Exit 1: anything else.
    Other,
    /// Exit 130: stopped by Ctrl-C.
    Interrupted,
}

impl Failure {
    pub fn bad(error: impl Into<anyhow::Error>) -> Failure {
        Failure { kind: FailureKind::BadInput, error: error.into() }
    }

    pub fn stuck(error: impl Into<anyhow::Error>) -> Failure {
        Failure { kind: FailureKind::Stuck, error: error.into() }
    }

    pub fn other(error: impl Into<anyhow::Error>) -> Failure {
        Failure { kind: FailureKind::Other, error: error.into() }
    }

    /// Ctrl-C stopped the work; `error` says how far it got.
    pub fn interrupted(error: impl Into<anyhow::Error>) -> Failure {
        Failure { kind: FailureKind::Interrupted, error: error.into() }
    }

    pub fn exit_code(&self) -> u8 {
        match self.kind {
            FailureKind::BadInput => 2,
            FailureKind::Stuck => 3,
            FailureKind::Other => 1,
            FailureKind::Interrupted => INTERRUPTED_EXIT,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#}", self.error)
    }
}

/// The failure of a game whose dice cannot go on (SPEC §7: exit 3): the scripted rolls ran out,
/// or the next scripted item does not fit what the game awaits (a wormhole draw `w2` where a
/// roll is awaited). Going on would only meet the same refusal again.
pub fn dice_failure(error: &snl_engine::RollError, turns: u32) -> Failure {
    match error {
        snl_engine::RollError::Exhausted { used } => Failure::stuck(anyhow::anyhow!(
            "the scripted rolls ran out after {used} rolls, before the game ended (turn {turns})"
        )),
        other => {
            Failure::stuck(anyhow::anyhow!("{other}, so the game stopped after {turns} turns"))
        }
    }
}

/// Turns any error into a failure of a given class: `.or_bad()?`.
pub trait OrFail<T> {
    /// As a failure of bad input (exit 2).
    ///
    /// # Errors
    ///
    /// The error, as [`FailureKind::BadInput`].
    fn or_bad(self) -> Result<T, Failure>;
    /// As any other failure (exit 1).
    ///
    /// # Errors
    ///
    /// The error, as [`FailureKind::Other`].
    fn or_other(self) -> Result<T, Failure>;
}

impl<T, E: Into<anyhow::Error>> OrFail<T> for Result<T, E> {
    fn or_bad(self) -> Result<T, Failure> {
        self.map_err(Failure::bad)
    }
    fn or_other(self) -> Result<T, Failure> {
        self.map_err(Failure::other)
    }
}

pub type CmdResult<T = ()> = Result<T, Failure>;
