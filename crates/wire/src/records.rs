//! Recorded games as lists show them: the one shape the game database reads (`snl games`) and
//! `GET /api/games` sends, with the numbers and words that name a game, a series and where a game
//! stands. The store re-exports these; the server sends them as they are.

use std::fmt;

use serde::{Deserialize, Serialize};
use snl_engine::Seat;

/// A game's number in the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GameId(pub i64);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Where a recorded game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// Being played, or cut off (the program was killed): `resume` goes on with it.
    Playing,
    /// Stopped on purpose (quit, `--stop-after`, input ended): `resume` goes on with it.
    Stopped,
    /// Over.
    Finished,
    /// Its recording stopped part way (the database could not be written) while the game went on
    /// unrecorded: the record ends before the game did, so it cannot be resumed.
    Incomplete,
}

impl GameStatus {
    /// The word stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Playing => "playing",
            GameStatus::Stopped => "stopped",
            GameStatus::Finished => "finished",
            GameStatus::Incomplete => "incomplete",
        }
    }

    /// The status a stored word names, if any.
    pub fn parse(text: &str) -> Option<GameStatus> {
        [GameStatus::Playing, GameStatus::Stopped, GameStatus::Finished, GameStatus::Incomplete]
            .into_iter()
            .find(|s| s.as_str() == text)
    }
}

impl fmt::Display for GameStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A series' number in the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SeriesId(pub i64);

impl fmt::Display for SeriesId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// One line of `snl games`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSummary {
    /// The game's number.
    pub id: GameId,
    /// When it began, in milliseconds since the Unix epoch.
    pub started_ms: u64,
    /// When it was last recorded.
    pub updated_ms: u64,
    /// The board's name.
    pub board: String,
    /// N.
    pub board_size: u32,
    /// The rules, in words.
    pub rules: String,
    /// The seats.
    pub seats: Vec<Seat>,
    /// Who won, once it is over.
    pub winner: Option<String>,
    /// Where it stands.
    pub status: GameStatus,
    /// Turns played.
    pub turns: u32,
    /// The series the game belongs to (`snl play --games K`), if any.
    pub series: Option<SeriesId>,
    /// Its number in that series (1, 2, …).
    pub series_game: Option<u32>,
}
