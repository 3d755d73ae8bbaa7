//! The module's calls, each a JSON request in and a JSON answer out; a request that cannot be
//! answered gets `{"error": "one sentence"}`. These are plain functions, tested on the host as
//! well as through the module.

use std::cell::RefCell;

use serde::{Deserialize, Serialize, de::DeserializeOwned};
use serde_json::json;
use snl_analysis::{Budget, commitment, exact};
use snl_engine::{Board, BoardSpec, Roll, RollMismatch, Rules, SeededDice, check_rolls};
use snl_wire::{
    BoardCheck,
    answers::{CheckLimits, OddsAsked, OddsTables},
};

/// The longest request read, in bytes: a board file's text is far shorter.
pub const MAX_REQUEST_BYTES: usize = 4 * 1024 * 1024;

/// What the editor's check takes here: as many seats and cells as a room of `snl serve`.
pub const CHECK_LIMITS: CheckLimits = CheckLimits { max_seats: 16, max_cells: 1000 };

/// `{"error": sentence}`.
pub(crate) fn error(sentence: impl std::fmt::Display) -> String {
    json!({ "error": sentence.to_string() }).to_string()
}

/// The request read as `T`, or the answer that refuses it.
pub(crate) fn read<T: DeserializeOwned>(request: &str) -> Result<T, String> {
    if request.len() > MAX_REQUEST_BYTES {
        return Err(error(format_args!(
            "the request is {} bytes, more than {MAX_REQUEST_BYTES}, the most read",
            request.len()
        )));
    }
    serde_json::from_str(request).map_err(|e| error(format_args!("the request is not one: {e}")))
}

/// `answer` as JSON.
pub(crate) fn write(answer: &impl Serialize) -> String {
    serde_json::to_string(answer).unwrap_or_else(error)
}

/// `check_board_file`'s request: a board file's text.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardFile {
    text: String,
}

/// A board file's text (TOML, SPEC §4) read as `snl board validate` reads it:
/// `{"valid": false, "problems": [...]}` with the very problems it lists, or
/// `{"valid": true, "playable", "summary", "board", "rules"}` with the board as the server takes
/// it and what it holds in words ("100 cells, 8 snakes, 8 ladders").
pub fn check_board_file(request: &str) -> String {
    let file: BoardFile = match read(request) {
        Ok(file) => file,
        Err(answer) => return answer,
    };
    if file.text.len() as u64 > snl_engine::MAX_BOARD_FILE_BYTES {
        return error(format_args!("the board file is longer than {} bytes", file.text.len()));
    }
    match snl_engine::check_board_file(&file.text, &snl_engine::file_rules) {
        Ok((board, rules)) => {
            let reach = board.reach(&rules);
            // The file's own table, as written: the server applies it over its defaults.
            let spec = BoardSpec::from_toml(&file.text).map(|s| s.rules).unwrap_or_default();
            let mut shape = board.to_spec();
            shape.rules = spec;
            json!({
                "valid": true,
                "playable": reach.finish_reachable && reach.trapped.is_empty(),
                "summary": snl_words::board_summary(&board),
                "board": shape,
                "rules": rules,
            })
            .to_string()
        }
        Err(problems) => json!({ "valid": false, "problems": problems }).to_string(),
    }
}

/// The board editor's check (`POST /api/boards/check`'s request and answer): the board's
/// problems, or its exact analysis, worked out by [`snl_wire::answers::board_check`] as the server
/// does (here without a deadline: a page has no clock to read).
pub fn board_check(request: &str) -> String {
    let check: BoardCheck = match read(request) {
        Ok(check) => check,
        Err(answer) => return answer,
    };
    match snl_wire::answers::board_check(check, CHECK_LIMITS, Budget::unlimited()) {
        Ok(answer) => write(&answer),
        Err(sentence) => error(sentence),
    }
}

/// `options`' request: a board, its rules, a token's cell, a roll and whether it holds a shield.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OptionsAsked {
    board: BoardSpec,
    #[serde(default)]
    rules: Rules,
    at: u32,
    roll: Roll,
    #[serde(default)]
    shield: bool,
}

/// The options of a roll ([`Board::options`]): for each, the steps, where it lands (`landed`,
/// before any jump), where it rests (`lands`) and what it meets.
pub fn options(request: &str) -> String {
    let asked: OptionsAsked = match read(request) {
        Ok(asked) => asked,
        Err(answer) => return answer,
    };
    let board = match Board::new(&asked.board, &asked.rules) {
        Ok(board) => board,
        Err(e) => return error(e),
    };
    if asked.at > board.size() {
        return error(format_args!(
            "cell {} is not on a board of {} cells",
            asked.at,
            board.size()
        ));
    }
    let dice = asked.rules.thrown_dice();
    if !asked.roll.fits(dice) {
        return error(format_args!("the roll {:?} is not one of {dice}", asked.roll));
    }
    write(&board.options(&asked.rules, asked.at, &asked.roll, asked.shield))
}

/// `odds`' request: a board, its rules and its seats; where each token stands (the start when
/// absent), who plays next, and who won once someone has; the names shown, the room and the event
/// the odds follow.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct OddsRequest {
    room: String,
    seq: u64,
    board: Option<BoardSpec>,
    rules: Rules,
    seats: Option<usize>,
    names: Option<Vec<Option<String>>>,
    positions: Option<Vec<u32>>,
    first: usize,
    winner: Option<usize>,
}

thread_local! {
    /// The tables of the last board asked about (a page asks about one board many times).
    static TABLES: RefCell<Option<(String, std::rc::Rc<OddsTables>)>> = const { RefCell::new(None) };
}

/// The odds tables of `board` under `rules`, kept for the next call.
pub(crate) fn tables(board: &BoardSpec, rules: &Rules) -> Result<std::rc::Rc<OddsTables>, String> {
    let key = serde_json::to_string(&(board, rules)).unwrap_or_default();
    if let Some(kept) = TABLES.with_borrow(|t| t.as_ref().filter(|(k, _)| *k == key).cloned()) {
        return Ok(kept.1);
    }
    let tables = std::rc::Rc::new(OddsTables::new(board, rules)?);
    TABLES.set(Some((key, tables.clone())));
    Ok(tables)
}

/// Each seat's exact chance to win from where the game stands and the fewest rolls it still
/// needs, as `GET /api/rooms/{room}/odds` answers ([`OddsTables::answer`]); when they cannot be
/// worked out, the sentence why.
pub fn odds(request: &str) -> String {
    let asked: OddsRequest = match read(request) {
        Ok(asked) => asked,
        Err(answer) => return answer,
    };
    let Some(board) = asked.board else {
        return error("the request names no board");
    };
    let rules = asked.rules;
    let seats = asked.seats.unwrap_or(2);
    if !(1..=CHECK_LIMITS.max_seats).contains(&seats) {
        return error(format_args!("seats {seats} is outside 1..={}", CHECK_LIMITS.max_seats));
    }
    let positions = asked.positions.unwrap_or_else(|| vec![rules.start_position(); seats]);
    if positions.len() != seats || positions.iter().any(|&p| p > board.size) {
        return error(format_args!(
            "the positions {positions:?} are not one per seat on the board"
        ));
    }
    if asked.first >= seats || asked.winner.is_some_and(|w| w >= seats) {
        return error(format_args!(
            "seat {} is not one of {seats}",
            asked.first.max(asked.winner.unwrap_or(0))
        ));
    }
    // Each token counted from its cell at the start of its next turn, no shield nor skip.
    let mut from = exact::Standing::at_start(seats, &rules);
    from.starts =
        positions.iter().map(|&p| (p < board.size).then_some((p, false, false))).collect();
    from.first = asked.first;
    let winner = asked.winner;
    if board.size > CHECK_LIMITS.max_cells {
        return error(format_args!(
            "a board of {} cells is larger than {}, the most worked out here",
            board.size, CHECK_LIMITS.max_cells
        ));
    }
    let names = asked.names.unwrap_or_default();
    let names: Vec<Option<String>> = (0..seats).map(|s| names.get(s).cloned().flatten()).collect();
    match tables(&board, &rules) {
        Ok(tables) => write(&tables.answer(&OddsAsked {
            room: &asked.room,
            seq: asked.seq,
            names: &names,
            positions: &positions,
            from: &from,
            winner,
        })),
        Err(sentence) => error(sentence),
    }
}

/// `analysable`'s request: a board and its rules.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Analysable {
    board: BoardSpec,
    #[serde(default)]
    rules: Rules,
}

/// Whether live odds can be worked out for a game on this board under these rules:
/// `{"analysable": true}`, or `{"analysable": false, "reason": sentence}`.
pub fn analysable(request: &str) -> String {
    let asked: Analysable = match read(request) {
        Ok(asked) => asked,
        Err(answer) => return answer,
    };
    if asked.board.size > CHECK_LIMITS.max_cells {
        let reason = format!(
            "a board of {} cells is larger than {}",
            asked.board.size, CHECK_LIMITS.max_cells
        );
        return json!({ "analysable": false, "reason": reason }).to_string();
    }
    match tables(&asked.board, &asked.rules) {
        Ok(_) => json!({ "analysable": true }).to_string(),
        Err(reason) => json!({ "analysable": false, "reason": reason }).to_string(),
    }
}

/// `board_of`'s request: a room's setup (as `POST /api/rooms` takes it) and the seed a random
/// board is drawn from.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardOf {
    setup: snl_wire::CreateRoom,
    seed: u64,
}

/// The board and rules a room's setup makes, as the server makes them (presets, a random board
/// from its seed and settings, a board file's own rules): `{"name", "board", "rules", "start",
/// "summary"}` (`start`: the cell tokens start on), or `{"error": sentence}`. The lobby draws its
/// preview from it, so no preset is written out in the page.
pub fn board_of(request: &str) -> String {
    let asked: BoardOf = match read(request) {
        Ok(asked) => asked,
        Err(answer) => return answer,
    };
    let (name, spec, rules) = match asked.setup.board_and_rules(asked.seed, CHECK_LIMITS.max_cells)
    {
        Ok(made) => made,
        Err(sentence) => return error(sentence),
    };
    let board = match Board::new(&spec, &rules) {
        Ok(board) => board,
        Err(e) => return error(e),
    };
    json!({
        "name": name,
        "summary": snl_words::board_summary(&board),
        "start": rules.start_position(),
        "board": board.to_spec(),
        "rules": rules,
    })
    .to_string()
}

/// The answer as a value (for tests).
#[cfg(test)]
fn value(answer: &str) -> serde_json::Value {
    serde_json::from_str(answer).unwrap()
}

/// `verify`'s request: a recorded game's board, rules and dice (`GET /api/games/{id}`'s
/// `dice`, [`snl_wire::api::DiceProof`]).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct VerifyAsked {
    board: BoardSpec,
    #[serde(default)]
    rules: Rules,
    seed: Option<String>,
    #[serde(default)]
    room: Option<RoomAsked>,
    history: Vec<snl_engine::MoveRecord>,
}

/// An online room's commit–reveal material, as the room's `fairness` has it (its derived
/// `seed`, if sent, is not trusted: it is derived here).
#[derive(Debug, Deserialize)]
struct RoomAsked {
    commitment: String,
    seat_seeds: Vec<Option<String>>,
    secret: Option<String>,
}

/// A recorded game's dice checked as `snl verify` checks them: an online room's revealed secret
/// against its commitment and, with the seats' seeds, against the seed; then every roll and
/// wormhole draw against what the seed's ChaCha8 dice give. `{"verified": true, "rolls",
/// "draws", "text"}` with `snl verify`'s sentence, or `{"verified": false, "why": sentence}`.
pub fn verify(request: &str) -> String {
    let asked: VerifyAsked = match read(request) {
        Ok(asked) => asked,
        Err(answer) => return answer,
    };
    let refused = |why: String| json!({ "verified": false, "why": why }).to_string();
    let Some(seed) = asked.seed else {
        return refused(
            "its rolls were given by hand (--rolls), so no seed stands behind them".into(),
        );
    };
    let Ok(seed) = seed.parse::<u64>() else {
        return error(format_args!("the seed {seed:.40} is not a whole number below 2^64"));
    };
    if let Some(room) = &asked.room {
        let Some(secret) = &room.secret else {
            return refused("its secret is not revealed yet: it is, once the game is over".into());
        };
        let seats: Vec<String> =
            room.seat_seeds.iter().map(|s| s.clone().unwrap_or_default()).collect();
        if let Err(why) = commitment::check_room(&room.commitment, secret, &seats, seed) {
            return refused(why);
        }
    }
    match check_rolls(&asked.board, &asked.rules, &asked.history, &mut SeededDice::new(seed)) {
        Ok(checked) => {
            let room = asked.room.as_ref().map(|r| (r.commitment.as_str(), r.seat_seeds.len()));
            json!({
                "verified": true,
                "rolls": checked.rolls,
                "draws": checked.draws,
                "text": snl_words::dice_verified(checked.rolls, checked.draws, seed, room),
            })
            .to_string()
        }
        Err(e @ (RollMismatch::Roll { .. } | RollMismatch::Draw { .. })) => {
            refused(format!("seed {seed} {e}"))
        }
        Err(e) => refused(e.to_string()),
    }
}

#[cfg(test)]
mod tests;
