//! Moves kept in runs: the moves one write adds are one row of `move_runs` (a JSON array, one
//! array per move), and each seat's snakes, ladders and longest slide are added to its row as the
//! moves come. A row per move cost SQLite about ten times what playing the move costs; a run
//! costs one row per write (up to 1024 turns of computers, or one turn of a person), so
//! recording stays within a small factor of playing, and a turn costs the same whatever the
//! game's length. An undo deletes the runs that reach past the history and writes again the
//! part of the last one it keeps.

use std::fmt::{self, Write as _};

use rusqlite::{OptionalExtension, Transaction, params};
use serde::{Deserialize, Serialize, Serializer};
use snl_engine::{GameState, Jump, MoveKind, MoveRecord, Roll, SavedSeat, SeatState};

use super::{
    Database, DbError, GameId,
    query::{bad, field},
};

/// One move as a run stores it: turn, seat, dice ("3" or "2+5"), from, to, kind, jumps,
/// `time_ms`, chosen.
#[derive(Serialize)]
struct Stored<'a>(
    u32,
    usize,
    Faces<'a>,
    u32,
    u32,
    MoveKind,
    &'a [Jump],
    Option<u64>,
    Option<usize>,
);

/// The dice of a roll as text, each die's face joined by `+`.
struct Faces<'a>(&'a [u8]);

impl fmt::Display for Faces<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, face) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_char('+')?;
            }
            write!(f, "{face}")?;
        }
        Ok(())
    }
}

impl Serialize for Faces<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Moves as the JSON text of a run.
struct Run<'a>(&'a [MoveRecord]);

impl Serialize for Run<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|m| {
            Stored(
                m.turn,
                m.seat,
                Faces(m.roll.dice()),
                m.from,
                m.to,
                m.kind,
                &m.jumps,
                m.time_ms,
                m.chosen,
            )
        }))
    }
}

/// One move as read back, each value still to be checked.
#[derive(Deserialize)]
struct Raw(u32, usize, String, u32, u32, String, serde_json::Value, Option<i64>, Option<i64>);

/// What a seat's moves met: snakes, ladders (a wormhole's jump is neither) and the longest way
/// one snake took it down.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Tally {
    snakes: i64,
    ladders: i64,
    longest_slide: u32,
}

/// Each of `seats` seats' tally over `moves`; jumps out of the `wormholes` cells do not count.
fn tallies(moves: &[MoveRecord], seats: usize, wormholes: &[u32]) -> Vec<Tally> {
    let mut tally = vec![Tally::default(); seats];
    for m in moves {
        let Some(t) = tally.get_mut(m.seat) else { continue };
        for j in m.jumps.iter().filter(|j| !wormholes.contains(&j.from)) {
            if j.is_snake() {
                t.snakes += 1;
                t.longest_slide = t.longest_slide.max(j.from - j.to);
            } else {
                t.ladders += 1;
            }
        }
    }
    tally
}

/// Where one seat stands, as its row keeps it.
pub(super) struct SeatRow {
    pub position: u32,
    pub rank: Option<i64>,
    pub finished: bool,
    pub rolls: i64,
}

impl SeatRow {
    /// The row of a seat in `state` on a board of `size` cells.
    pub(super) fn of(state: &SeatState, size: u32) -> SeatRow {
        SeatRow {
            position: state.cell,
            rank: state.rank.map(i64::from),
            finished: state.cell == size,
            rolls: i64::from(state.rolls),
        }
    }

    /// The row of seat `seat` of a saved game: from its saved state, or — for an older save that
    /// holds only the cell — with its rank read from the ranking and its rolls counted.
    pub(super) fn saved(game: &GameState, seat: usize) -> SeatRow {
        let size = game.board.size;
        match game.seat_states[seat] {
            SavedSeat::Whole(state) => SeatRow::of(&state, size),
            SavedSeat::Cell(cell) => SeatRow {
                position: cell,
                rank: game.ranking.iter().position(|&s| s == seat).map(|r| int(r + 1)),
                finished: cell == size,
                rolls: int(game.history.iter().filter(|m| m.seat == seat).count()),
            },
        }
    }
}

/// Brings game `id`'s moves in line with `history` — runs reaching past it deleted (taken back),
/// the missing moves added as one run — and its seats with `seats` and the tallies of the moves.
pub(super) fn write_moves_and_seats(
    tx: &Transaction<'_>,
    id: GameId,
    history: &[MoveRecord],
    wormholes: &[u32],
    seats: &[SeatRow],
) -> rusqlite::Result<()> {
    let mut stored = stored_end(tx, id)?;
    let taken_back = stored > history.len();
    if taken_back {
        tx.prepare_cached("DELETE FROM move_runs WHERE game_id = ?1 AND first + count - 1 > ?2")?
            .execute(params![id.0, int(history.len())])?;
        stored = stored_end(tx, id)?;
    }
    let new = history.get(stored..).unwrap_or_default();
    if !new.is_empty() {
        let text = serde_json::to_string(&Run(new)).expect("moves are always JSON");
        tx.prepare_cached(
            "INSERT INTO move_runs (game_id, first, count, moves) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(params![id.0, int(stored + 1), int(new.len()), text])?;
    }
    // After an undo each seat's tally is counted again from the start; otherwise the new moves'
    // tally is added.
    let tally = tallies(if taken_back { history } else { new }, seats.len(), wormholes);
    let mut update = tx.prepare_cached(
        "UPDATE seats SET position = ?3, rank = ?4, finished = ?5, rolls = ?6,
                          snakes = IIF(?10, 0, snakes) + ?7,
                          ladders = IIF(?10, 0, ladders) + ?8,
                          longest_slide = MAX(IIF(?10, 0, longest_slide), ?9)
         WHERE game_id = ?1 AND seat = ?2",
    )?;
    for (seat, (row, t)) in seats.iter().zip(&tally).enumerate() {
        update.execute(params![
            id.0,
            int(seat),
            row.position,
            row.rank,
            row.finished,
            row.rolls,
            t.snakes,
            t.ladders,
            t.longest_slide,
            taken_back,
        ])?;
    }
    Ok(())
}

/// The number of game `id`'s last stored move (0 for none).
fn stored_end(tx: &Transaction<'_>, id: GameId) -> rusqlite::Result<usize> {
    // The number written into the statement, as in `next_seq`.
    let end: Option<i64> = tx
        .prepare_cached(&format!(
            "SELECT first + count - 1 FROM move_runs WHERE game_id = {}
             ORDER BY first DESC LIMIT 1",
            id.0
        ))?
        .query_row([], |r| r.get(0))
        .optional()?;
    Ok(end.and_then(|e| usize::try_from(e).ok()).unwrap_or(0))
}

impl Database {
    /// Every move of game `id` as it stands, as the engine's history, each value checked: one
    /// this snl does not know is [`DbError::BadRow`] naming the game and the move.
    pub(super) fn stored_history(&self, id: GameId) -> Result<Vec<MoveRecord>, DbError> {
        if self.moves_by_row {
            return self.history_by_row(id);
        }
        let mut stmt = self.conn.prepare_cached(
            "SELECT first, count, moves FROM move_runs WHERE game_id = ?1 ORDER BY first",
        )?;
        let mut rows = stmt.query([id.0])?;
        let mut history = Vec::new();
        while let Some(r) = rows.next()? {
            let first: i64 = r.get(0)?;
            let row = format!("move {first}");
            if usize::try_from(first).ok() != Some(history.len() + 1) {
                return Err(bad(id, row, format!("comes where move {} should", history.len() + 1)));
            }
            let count: u32 = field(r, 1, id, &row)?;
            let text: String = field(r, 2, id, &row)?;
            let last = i64::from(count) + first - 1;
            let raw: Vec<Raw> = serde_json::from_str(&text).map_err(|e| {
                bad(id, format!("moves {first} to {last}"), format!("cannot be read ({e})"))
            })?;
            if raw.len() != count as usize {
                return Err(bad(
                    id,
                    format!("moves {first} to {last}"),
                    format!("are {} moves, not {count}", raw.len()),
                ));
            }
            for m in raw {
                let row = format!("move {}", history.len() + 1);
                history.push(checked(m, id, &row)?);
            }
        }
        Ok(history)
    }
}

impl Database {
    /// [`Database::stored_history`] of a schema-3 database (a row per move), read as it is.
    fn history_by_row(&self, id: GameId) -> Result<Vec<MoveRecord>, DbError> {
        let mut stmt = self.conn.prepare(
            "SELECT number, turn, seat, dice, from_pos, to_pos, kind, jumps, time_ms, chosen
             FROM moves WHERE game_id = ?1 ORDER BY number",
        )?;
        let mut rows = stmt.query([id.0])?;
        let mut history = Vec::new();
        while let Some(r) = rows.next()? {
            let number: i64 = r.get(0)?;
            let row = format!("move {number}");
            if usize::try_from(number).ok() != Some(history.len() + 1) {
                return Err(bad(id, row, format!("comes where move {} should", history.len() + 1)));
            }
            let jumps: String = field(r, 7, id, &row)?;
            let raw = Raw(
                field(r, 1, id, &row)?,
                usize::from(field::<u16>(r, 2, id, &row)?),
                field(r, 3, id, &row)?,
                field(r, 4, id, &row)?,
                field(r, 5, id, &row)?,
                field(r, 6, id, &row)?,
                serde_json::from_str(&jumps).unwrap_or(serde_json::Value::String(jumps)),
                field(r, 8, id, &row)?,
                field(r, 9, id, &row)?,
            );
            history.push(checked(raw, id, &row)?);
        }
        Ok(history)
    }
}

/// A stored move as a [`MoveRecord`], each value checked.
fn checked(m: Raw, id: GameId, row: &str) -> Result<MoveRecord, DbError> {
    let Raw(turn, seat, dice, from, to, kind, jumps, time_ms, chosen) = m;
    let Some(faces) = faces_of(&dice) else {
        return Err(bad(id, row, format!("has dice '{dice}', which no throw shows")));
    };
    let Ok(jumps) = serde_json::from_value::<Vec<Jump>>(jumps.clone()) else {
        return Err(bad(id, row, format!("has jumps '{jumps}' that cannot be read")));
    };
    let Some(kind) = kind_of(&kind) else {
        return Err(bad(id, row, format!("has an unknown kind '{kind}'")));
    };
    let time_ms = match time_ms.map(u64::try_from) {
        None => None,
        Some(Ok(ms)) => Some(ms),
        Some(Err(_)) => {
            let ms = time_ms.unwrap_or_default();
            return Err(bad(id, row, format!("has {ms} as its time_ms, which is out of range")));
        }
    };
    let chosen = match chosen.map(usize::try_from) {
        None => None,
        Some(Ok(c)) => Some(c),
        Some(Err(_)) => return Err(bad(id, row, "has a negative chosen option")),
    };
    Ok(MoveRecord {
        turn,
        seat,
        roll: Roll::from_faces(&faces),
        from,
        to,
        jumps,
        kind,
        chosen,
        time_ms,
    })
}

/// The faces of stored dice ("3", "2+5"): one to four dice, each 1 or more.
pub(super) fn faces_of(dice: &str) -> Option<Vec<u8>> {
    dice.split('+')
        .map(|d| d.parse::<u8>().ok().filter(|&f| f >= 1))
        .collect::<Option<Vec<u8>>>()
        .filter(|f| (1..=4).contains(&f.len()))
}

/// The move kind a stored word names, if any.
pub(super) fn kind_of(word: &str) -> Option<MoveKind> {
    serde_json::from_value(serde_json::Value::String(word.to_owned())).ok()
}

/// A count or a time as SQLite's integer (saturating: such values never come near the limit).
pub(super) fn int<T: TryInto<i64>>(n: T) -> i64 {
    n.try_into().unwrap_or(i64::MAX)
}
