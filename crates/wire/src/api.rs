//! The other HTTP bodies: errors, a room's live odds and dice statistics, the board check of the editor, and the
//! recorded games.

use serde::{Deserialize, Deserializer, Serialize};
use snl_engine::{BoardSpec, Event, MoveRecord, Rules, Seat};

use crate::{records::GameSummary, rooms::RulesChoice};

/// Every HTTP error's body (with a 4xx or 5xx status).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorBody {
    /// The error.
    pub error: ErrorDetail,
}

/// An HTTP error's code and sentence.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorDetail {
    /// `bad_request`, `no_such_room`, … (`docs/protocol.md` lists them).
    pub code: String,
    /// One sentence.
    pub message: String,
}

/// `GET /api/rooms/{room}/odds`: each seat's chance to win from where the tokens stand.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct OddsAnswer {
    /// The room's id.
    pub room: String,
    /// The room's last event when they were worked out.
    pub seq: u64,
    /// Whether the chances were worked out (false when it would take too long).
    pub exact: bool,
    /// The chance left undecided where the race stopped being followed.
    pub unresolved: Option<f64>,
    /// Each seat's.
    pub seats: Vec<OddsSeat>,
}

/// One seat's odds.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct OddsSeat {
    /// Its number.
    pub seat: usize,
    /// Its name, once it has one.
    pub name: Option<String>,
    /// Its token's cell.
    pub position: u32,
    /// Its chance to win, 0 to 1 (null when not worked out).
    pub win: Option<f64>,
    /// The fewest rolls it still needs (null when the last cell cannot be reached).
    pub fewest_rolls: Option<u32>,
    /// Its chance in words, as every front end shows it ("54%", "<1%"; null with `win`).
    pub chance: Option<String>,
    /// Its fewest rolls in words ("4 rolls at best", "finished", "cannot finish").
    pub fewest: String,
}

/// `GET /api/rooms/{room}/dice`: each seat's faces in this game and over its player's recorded
/// games, against even chances (docs/fairness.md).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DiceAnswer {
    /// The room's id.
    pub room: String,
    /// The room's last event when they were counted.
    pub seq: u64,
    /// The faces of the die the room's game throws.
    pub faces: u8,
    /// Which recorded games the histories count, in words ("the newest 1,000 recorded games
    /// each player played").
    pub history_over: String,
    /// Each seat's.
    pub seats: Vec<DiceSeat>,
}

/// One seat's dice statistics.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DiceSeat {
    /// Its number.
    pub seat: usize,
    /// Its name, once it has one.
    pub name: Option<String>,
    /// Its faces in this game.
    pub game: DiceTest,
    /// Its player's faces of this die over the recorded games (no throws when none was
    /// recorded, or the seat has no name yet).
    pub history: DiceTest,
    /// How many recorded games of the player's were read for it.
    pub history_games: usize,
}

/// Faces counted and their test against even chances (Pearson's chi-square).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DiceTest {
    /// Each face's count, face 1 first.
    pub counts: Vec<u64>,
    /// Faces thrown in all.
    pub throws: u64,
    /// Each face's expected count.
    pub expected: f64,
    /// The chi-square statistic.
    pub chi_square: f64,
    /// The chance that fair dice look at least this uneven (1 with no throws).
    pub p_value: f64,
    /// The p-value as every front end writes it ("0.4159", "<0.0001").
    pub p_text: String,
    /// What the p-value means ("nothing unusual", "rarer than 1 in 100", …).
    pub verdict: String,
    /// The whole line, as every front end shows it.
    pub text: String,
}

/// `POST /api/boards/check` as sent.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BoardCheck {
    /// A board file as JSON (read later, so that a shape error is one of the problems).
    pub board: serde_json::Value,
    /// A named set or options by name; over the board's own `[rules]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<RulesChoice>,
    /// How many seats the chances are for (2 by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<usize>,
}

/// A value that may be absent (outer `None`) or null (`Some(None)`).
#[expect(clippy::option_option, reason = "absent and null are two answers on the wire")]
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// The answer to a board check: an invalid board's problems, or a valid board's analysis. A
/// field absent is one the answer has no business with (an invalid board has no analysis, a
/// board the analysis does not support gets `analysis_error` instead of numbers); a null one is
/// a number that does not exist (no path to the last cell, an infinite expectation).
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BoardCheckAnswer {
    /// Whether the board is valid.
    pub valid: bool,
    /// Whether it can be played: the last cell reached, no token trapped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playable: Option<bool>,
    /// One sentence.
    pub message: String,
    /// Every problem, as `snl board validate` lists them.
    pub problems: Vec<String>,
    /// Its cells.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u32>,
    /// The rules it was analysed under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<Rules>,
    /// The seats the chances are for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<usize>,
    /// The fewest rolls to the last cell.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub min_rolls: Option<Option<u32>>,
    /// One shortest path: the cells visited, the start first.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub path: Option<Option<Vec<u32>>>,
    /// One token's expected turns.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub expected_turns: Option<Option<f64>>,
    /// One token's expected rolls.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub expected_rolls: Option<Option<f64>>,
    /// One token's median turns.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub median_turns: Option<Option<u32>>,
    /// One token's fewest turns.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub min_turns: Option<Option<u32>>,
    /// The chance a token never finishes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub never_finish_probability: Option<f64>,
    /// Each seat's chance to win.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win_probability: Option<Vec<f64>>,
    /// The whole game's expected rolls.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub expected_game_rolls: Option<Option<f64>>,
    /// Whether the numbers are exact (false when the work was cut short).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<bool>,
    /// Why the analysis could not be made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analysis_error: Option<String>,
}

/// `GET /api/games`: a page of recorded games, newest first.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GamePage {
    /// The games.
    pub games: Vec<GameSummary>,
    /// The `before` of the next page, when there may be more.
    pub next: Option<i64>,
}

/// One numbered event of a recorded game.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GameEntry {
    /// 1 for the game's first event.
    pub seq: u64,
    /// The event, players by name.
    pub event: Event<String>,
    /// Its sentence, as every front end tells it (`snl_words::Sentences`), when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// A line of chat said during a recorded online game, where it was said.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ChatEntry {
    /// How many of the game's events (its `events`) had been told when it was said.
    pub at: u64,
    /// Who said it.
    pub player: String,
    /// What they said.
    pub text: String,
}

/// `GET /api/games/{id}/at/{k}`: a recorded game as it stood after its first `k` events (the last
/// roll whose events all came by then), for a replay's panels.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GameAt {
    /// The game's number.
    pub id: i64,
    /// The events this standing is after: `k`, or fewer when event `k` is inside a roll.
    pub at: u64,
    /// Each seat's words: where it stands, what the cell effects left it.
    pub seats: Vec<crate::rooms::SeatLine>,
    /// A race's status line (none in a classic game).
    pub race: Option<String>,
    /// Each seat's chance to win and fewest rolls from there.
    pub odds: OddsAnswer,
    /// The faces of the die the game throws.
    pub faces: u8,
    /// Each seat's faces thrown up to this standing, in seat order, against even chances (as a
    /// room's [`DiceSeat::game`]).
    pub dice: Vec<DiceTest>,
}

/// `GET /api/games/{id}`: one recorded game, for a replay.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedGame {
    /// Its number.
    pub id: i64,
    /// The board's name.
    pub board_name: String,
    /// The board.
    pub board: BoardSpec,
    /// The rules.
    pub rules: Rules,
    /// The cell every token starts on (0 off the board, 1 on the first cell), as its rules say.
    #[serde(default)]
    pub start: u32,
    /// The seats.
    pub seats: Vec<Seat>,
    /// `playing`, `stopped`, `finished` or `incomplete`.
    pub status: Option<String>,
    /// Turns played.
    pub turns: u32,
    /// Each seat's cell.
    pub positions: Vec<u32>,
    /// The players finished, best first.
    pub ranking: Vec<String>,
    /// Every event, numbered from 1.
    pub events: Vec<GameEntry>,
    /// The legend of the board: each kind of cell on it, with what it does (as a room's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub legend: Vec<crate::rooms::LegendEntry>,
    /// The chat said in the game's room, in order, each line where it was said (absent when
    /// none: always for a game played with `snl play`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chat: Vec<ChatEntry>,
    /// What the page needs to check the game's dice itself (docs/fairness.md).
    pub dice: DiceProof,
}

/// A recorded game's dice, for a check in the page (the wasm engine's `verify`, the same check
/// as `snl verify`): the seed, an online room's commit–reveal material, and every roll.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DiceProof {
    /// The dice's seed in decimal — text, as a page's numbers keep only 53 bits — or absent
    /// when the rolls were given by hand (`--rolls`), so no seed stands behind them.
    pub seed: Option<String>,
    /// The room's commitment, seats' seeds and revealed secret, for a game played online.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<crate::rooms::RoomFairness>,
    /// Every roll of the game with its jumps, as the engine records them.
    pub history: Vec<MoveRecord>,
}
