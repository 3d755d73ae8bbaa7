//! The HTTP bodies of rooms: creating one (`POST /api/rooms`), taking a seat, the lobby
//! (`GET /api/rooms`, and the lobby stream's entries) and a room's public state
//! (`GET /api/rooms/{room}`, and a welcome's `state`).

use serde::{Deserialize, Serialize};
use snl_engine::{BoardSpec, Preset, RandomBoard, RuleSet, RuleSpec, Rules, SeatKind};

use crate::frames::Awaited;

/// `POST /api/rooms` as sent.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRoom {
    /// A preset's name, or a board file as JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardChoice>,
    /// A named rule set, or options by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<RulesChoice>,
    /// The seats in seating order.
    pub seats: Vec<SeatRequest>,
    /// `classic` or `race` (overrides the rules' mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// Rounds of a race (with `mode: race`, or rules already in race mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// Seconds a person has for each input before the computer plays the rest of the turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_time: Option<u64>,
    /// Seconds the game lasts from when its last seat is taken: then the round in play is
    /// completed and the game ends ranked by position (SPEC §3b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_time: Option<u64>,
    /// The dice's seed (a fresh one from the operating system when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// How a `random` board is drawn (its size, jumps, cell effects, seed); only with `board:
    /// "random"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random: Option<RandomRequest>,
    /// Games of a series between the same people (best of K, 1 to 99; 1 or absent: one game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games: Option<u32>,
}

impl CreateRoom {
    /// The game's board (its name and cells) and rules as the request asks for them: a named
    /// rule set or options over the defaults, a preset, a board file (its own rules first, the
    /// request's over them) or a random board drawn from `seed`, then `mode` and `rounds` over
    /// all. An online room (`snl serve`) and a game on the page (the browser's engine) read a
    /// request alike through this one function.
    ///
    /// # Errors
    ///
    /// One sentence naming the value refused (a board larger than `max_cells` among them).
    pub fn board_and_rules(
        &self,
        seed: u64,
        max_cells: u32,
    ) -> Result<(String, BoardSpec, Rules), String> {
        let mut rules = Rules::default();
        match &self.rules {
            None => {}
            Some(RulesChoice::Name(name)) => {
                rules = name.parse::<RuleSet>().map_err(|e| e.to_string())?.rules();
            }
            Some(RulesChoice::Spec(spec)) => rules.apply(spec).map_err(|e| e.to_string())?,
        }
        let random = matches!(&self.board, Some(BoardChoice::Name(n)) if n == "random");
        if self.random.is_some() && !random {
            return Err("random board settings (random) need board \"random\"".to_owned());
        }
        let (board_name, board) = match &self.board {
            None => ("classic".to_owned(), Preset::Classic.spec()),
            Some(BoardChoice::Name(name)) => {
                let preset: Preset =
                    name.parse().map_err(|e: snl_engine::UnknownPreset| e.to_string())?;
                let spec = if preset == Preset::Random {
                    random_board(self.random.as_ref(), seed, &rules, max_cells)?
                } else {
                    preset.spec()
                };
                (preset.as_str().to_owned(), spec)
            }
            Some(BoardChoice::Spec(spec)) => {
                // The board's own rules come first; the request's rules override them.
                let mut with_board = Rules::default();
                with_board.apply(&spec.rules).map_err(|e| format!("the board's rules: {e}"))?;
                if let Some(choice) = &self.rules {
                    match choice {
                        RulesChoice::Name(name) => {
                            with_board =
                                name.parse::<RuleSet>().map_err(|e| e.to_string())?.rules();
                        }
                        RulesChoice::Spec(s) => with_board.apply(s).map_err(|e| e.to_string())?,
                    }
                }
                rules = with_board;
                ("custom".to_owned(), (**spec).clone())
            }
        };
        // `mode` and `rounds` beside the rules override what the rules and the board say.
        if self.mode.is_some() || self.rounds.is_some() {
            let spec =
                RuleSpec { mode: self.mode.clone(), rounds: self.rounds, ..RuleSpec::default() };
            rules.apply(&spec).map_err(|e| e.to_string())?;
        }
        if board.size > max_cells {
            return Err(too_large(board.size, max_cells));
        }
        Ok((board_name, board, rules))
    }
}

fn too_large(size: u32, max_cells: u32) -> String {
    format!("a board of {size} cells is larger than {max_cells}, the most a room takes")
}

/// The random board asked for: each setting checked (its size no larger than `max_cells`)
/// before it is drawn.
fn random_board(
    asked: Option<&RandomRequest>,
    seed: u64,
    rules: &Rules,
    max_cells: u32,
) -> Result<BoardSpec, String> {
    let asked = asked.cloned().unwrap_or_default();
    let defaults = RandomBoard::default();
    let params = RandomBoard {
        size: asked.size.unwrap_or(defaults.size),
        snakes: asked.snakes.unwrap_or(defaults.snakes),
        ladders: asked.ladders.unwrap_or(defaults.ladders),
        seed: asked.seed.unwrap_or(seed),
        ..defaults
    };
    if params.size > max_cells {
        return Err(too_large(params.size, max_cells));
    }
    let effects = asked.effects.unwrap_or(0);
    params.check_effects(effects).map_err(|e| e.to_string())?;
    Ok(params.spec_with_effects(rules, effects))
}

/// How a random board is drawn (`snl play --board random --size … --effects …`): each part
/// absent takes the default (100 cells, 8 snakes, 8 ladders, no effects, the dice's seed).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RandomRequest {
    /// Its cells.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u32>,
    /// How many snakes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snakes: Option<u32>,
    /// How many ladders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ladders: Option<u32>,
    /// How many cell effects (skip, extra, shield, wormhole; 4 or more give each kind).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effects: Option<u32>,
    /// The board's seed (the dice's when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

/// A board by name or as data.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum BoardChoice {
    /// `classic`, `milton-bradley`, `kids`, `empty`, `random`.
    Name(String),
    /// A board file's contents as JSON.
    Spec(Box<BoardSpec>),
}

/// Rules by set name or by options.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum RulesChoice {
    /// `standard`, `bonus-six`, `three-sixes`, `strict-sixes`.
    Name(String),
    /// Options by name, as in a board file's `[rules]`.
    Spec(Box<RuleSpec>),
}

/// One seat as asked for.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    /// `human`, `easy`, `greedy` or `hard` (`win` is refused: [`SeatRequest::offered`]).
    pub kind: SeatKind,
    /// The name (a computer's; a person gives theirs when taking the seat).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl SeatRequest {
    /// Whether a room (online, or played in the browser) seats this kind: every kind but
    /// `win`, whose solution of the whole table takes up to a minute of one core (a room's
    /// computers answer at once); one sentence naming the kind otherwise.
    ///
    /// # Errors
    ///
    /// The sentence, for `win`.
    pub fn offered(&self) -> Result<(), String> {
        if self.kind == SeatKind::Win {
            return Err("kind 'win' is not offered in rooms (it is solved for the whole table \
                        by snl play, analyze and tournament): use human, easy, greedy or hard"
                .to_owned());
        }
        Ok(())
    }
}

/// The answer to `POST /api/rooms` (`201 Created`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Created {
    /// The room's id.
    pub room: String,
    /// Its seats.
    pub seats: Vec<SeatEntry>,
}

/// `POST /api/rooms/{room}/seats/{seat}` as sent.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// The name taken at the table.
    pub name: String,
    /// The seat's own seed for the room's dice (docs/fairness.md), at most 64 characters; the
    /// page makes one with `crypto.getRandomValues`. None: the empty string.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
}

/// The answer to a seat taken.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimAnswer {
    /// The seat.
    pub seat: usize,
    /// Its token: the only proof of holding the seat.
    pub token: String,
}

/// Where a room stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RoomStatus {
    /// Seats are open.
    Open,
    /// The game is being played.
    Running,
    /// The game is over.
    Over,
}

/// A seat as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SeatEntry {
    /// Its number, from 0.
    pub seat: usize,
    /// What plays it.
    pub kind: SeatKind,
    /// Its name (none for a person's seat still open).
    pub name: Option<String>,
    /// Whether a person may take it.
    pub open: bool,
}

/// A room as the lobby lists it (`GET /api/rooms`, the lobby stream).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LobbyEntry {
    /// The room's id.
    pub room: String,
    /// Where it stands.
    pub status: RoomStatus,
    /// What its board is called.
    pub board_name: String,
    /// Its seats.
    pub seats: Vec<SeatEntry>,
    /// Turns played.
    pub turns: u32,
    /// What sets its game apart, in words: `race of 3 rounds · game clock 10:00 · turn clock
    /// 0:30` (`snl_words::room_traits`); absent for a classic game without clocks.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub about: String,
    /// SHA-256 of the room's secret seed, published before any roll ([`RoomFairness`]); absent
    /// for a room created with a seed named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commitment: Option<String>,
}

/// How a room's dice can be checked (commit–reveal, docs/fairness.md): in its state from
/// its creation.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RoomFairness {
    /// SHA-256 of the room's secret, lowercase hex: published before any roll.
    pub commitment: String,
    /// Each seat's own seed as it was given when taken (a computer's, or a person's who gave
    /// none, is empty), in seating order; null for a seat still open.
    pub seat_seeds: Vec<Option<String>>,
    /// The secret, lowercase hex, once revealed: when the game is over.
    pub secret: Option<String>,
    /// The dice's seed derived from the secret and the seats' seeds, once revealed.
    pub seed: Option<u64>,
}

/// The answer to `GET /api/rooms`: the rooms with open seats or running.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Rooms {
    /// Their lobby entries.
    pub rooms: Vec<LobbyEntry>,
}

/// A seat in a room's public state.
#[expect(clippy::struct_excessive_bools, reason = "each flag is a field of the wire a page reads")]
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SeatState {
    /// Its number, from 0.
    pub seat: usize,
    /// What plays it.
    pub kind: SeatKind,
    /// Its name (none for a person's seat still open).
    pub name: Option<String>,
    /// Whether a person may take it.
    pub open: bool,
    /// Whether a connection holds it now.
    pub online: bool,
    /// Whether the computer plays it for its person.
    pub autopilot: bool,
    /// While its person is away in their grace (`snl serve --grace`): the milliseconds left
    /// before the computer plays the seat; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grace_left_ms: Option<u64>,
    /// Whether the computer plays it because its person's grace ran out (they take it back
    /// with the `autopilot` frame, `on` false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub autoplayed: bool,
    /// Its token's cell.
    pub position: u32,
    /// Its rank once finished (or, at a race's or the game clock's end, ranked by position).
    pub rank: Option<u32>,
    /// Where it stands in words, as every front end says it (`snl_words::standing_at`):
    /// "finished 2nd", "1st, on 87" (ranked by position, not finished), "on 41".
    #[serde(default)]
    pub standing: String,
    /// What the cell effects left it, one mark each (`snl_words::carried_marks`): "shield",
    /// "skips next turn"; absent when nothing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carried: Vec<String>,
}

/// A seat's words after an input (an awaiting frame's `seats`): as in [`SeatState`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SeatLine {
    /// Where it stands in words ([`SeatState::standing`]).
    pub standing: String,
    /// What the cell effects left it ([`SeatState::carried`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carried: Vec<String>,
}

/// An achievement a finished game earned a seat (the last awaiting frame's `awards`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AwardLine {
    /// The seat that earned it.
    pub seat: usize,
    /// Its key (`first_win`: `snl_words::ACHIEVEMENTS`).
    pub achievement: String,
    /// It in words, as every front end shows it ("First win: won a game": `snl_words::earned`).
    pub text: String,
}

/// One line of a board's legend: a kind of cell on it (`snl_words::legend`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LegendEntry {
    /// `snake`, `ladder`, `skip`, `extra`, `shield` or `wormhole`: the board's drawing's name
    /// of it (its icon).
    pub kind: String,
    /// Its name in the legend.
    pub name: String,
    /// What it does.
    pub meaning: String,
}

/// A room's public state (`GET /api/rooms/{room}`, a welcome's `state`): never a token.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RoomState {
    /// The room's id.
    pub room: String,
    /// Where it stands.
    pub status: RoomStatus,
    /// What its board is called.
    pub board_name: String,
    /// The board.
    pub board: BoardSpec,
    /// The rules.
    pub rules: Rules,
    /// The turn clock, in seconds.
    pub turn_time: Option<u64>,
    /// The game clock, in seconds.
    pub game_time: Option<u64>,
    /// Whether the game clock has run out.
    pub time_up: bool,
    /// The seats.
    pub seats: Vec<SeatState>,
    /// What the game awaits (null while seats are open or once it is over).
    pub awaiting: Option<Awaited>,
    /// Turns played.
    pub turns: u32,
    /// The players finished, best first.
    pub ranking: Vec<String>,
    /// The last event's number.
    pub seq: u64,
    /// What is left of the awaited person's turn clock, in milliseconds.
    pub turn_left_ms: Option<u64>,
    /// What is left of the game clock, in milliseconds, while it runs (not written when no
    /// game clock runs, and read as none from a server that did not write it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_left_ms: Option<u64>,
    /// A race's status line (`snl_words::race_status`): "race · round 2 of 5", "race over after
    /// 5 rounds"; null in a classic game.
    #[serde(default)]
    pub race: Option<String>,
    /// The legend of the board: each kind of cell on it, with what it does.
    #[serde(default)]
    pub legend: Vec<LegendEntry>,
    /// Once the game is over, what it earned each seat (as the awaiting frame at its end says);
    /// absent while it runs or when it earned nothing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub awards: Vec<AwardLine>,
    /// How its dice can be checked; absent for a room created with a seed named (whose seed
    /// its creator knows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fairness: Option<RoomFairness>,
    /// How many dice a roll throws (`Rules::thrown_dice`: two under `pick-die`), so that a
    /// page shows as many before the first roll.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thrown_dice: Option<u32>,
    /// Where the series stands, for a room that plays one of its games; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<SeriesLine>,
}

/// The answer to `POST /api/rooms/{room}/next`: the room of the series' next game.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NextGame {
    /// Its id.
    pub room: String,
}

/// A room's game in a series (`POST /api/rooms` with `games`): best of K between the same
/// people, the seat who starts moving on by one each game; each game is a room of its own,
/// the next one opened by `POST /api/rooms/{room}/next` once this one is over.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SeriesLine {
    /// K.
    pub best_of: u32,
    /// This room's game (from 1).
    pub game: u32,
    /// Each seat's wins, in this room's seat order: the games before this one, and this one
    /// once it is over.
    pub wins: Vec<u64>,
    /// Whether the series is decided (no one can catch the leader, or no game is left).
    pub decided: bool,
    /// The room of the next game, once it is opened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_room: Option<String>,
    /// Where the series stands in words (`snl_words::series_intro` while the game runs,
    /// `snl_words::series_standing` once it is over).
    pub text: String,
}
