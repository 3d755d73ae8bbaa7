//! Recording: a new game, each turn, undo and redo, a stop — each one `BEGIN IMMEDIATE`
//! transaction, retried while other writers hold the lock.

use std::{
    thread,
    time::{Duration, Instant},
};

use rusqlite::{Connection, ErrorCode, Transaction, TransactionBehavior, params};
use serde::Serialize;
use snl_engine::{Event, Status};

use super::{
    Action, Database, DbError, GameId, GameStatus, NewSeries,
    query::CUT,
    runs::{SeatRow, int, write_moves_and_seats},
    series::insert_series,
};
use crate::save::Save;

/// How long marking a game incomplete may wait, after a write that already waited in vain.
const MARK_TIMEOUT: Duration = Duration::from_secs(1);

impl Database {
    /// Runs `work` (one transaction) until it gets through, trying again while another
    /// connection holds the lock — SQLite's busy handler waits within one try; this covers what
    /// it does not (switching to WAL, a snapshot gone stale) — for up to the busy timeout.
    pub(super) fn retrying<T>(
        &mut self,
        mut work: impl FnMut(&mut Connection) -> rusqlite::Result<T>,
    ) -> Result<T, DbError> {
        let deadline = Instant::now() + self.busy_timeout;
        let mut pause = Duration::from_millis(1);
        loop {
            match work(&mut self.conn) {
                Err(e) if is_busy(&e) && Instant::now() < deadline => {
                    thread::sleep(pause.min(deadline.saturating_duration_since(Instant::now())));
                    pause = (pause * 2).min(Duration::from_millis(50));
                }
                other => return other.map_err(DbError::from),
            }
        }
    }

    /// Records a game about to be played (new, or loaded from a file) and returns its number.
    ///
    /// # Errors
    ///
    /// [`DbError::Locked`], [`DbError::ReadOnly`], and whatever SQLite reports.
    pub fn new_game(&mut self, save: &Save, now_ms: u64) -> Result<GameId, DbError> {
        self.retrying(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let id = insert_game(&tx, save, now_ms)?;
            tx.commit()?;
            Ok(id)
        })
    }

    /// Records a new game of a series as its game `number` (1, 2, …), in the one transaction
    /// that also records the series when `series` has no number yet (its first game): a kill
    /// at any moment leaves either both or neither, never a series without games or a game
    /// that does not know its series. Returns the game's number; `series.id` is then set.
    ///
    /// # Errors
    ///
    /// As [`Database::new_game`].
    pub fn new_game_in_series(
        &mut self,
        save: &Save,
        series: &mut NewSeries,
        number: u32,
        now_ms: u64,
    ) -> Result<GameId, DbError> {
        let (id, series_id) = self.retrying(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let series_id = match series.id {
                Some(id) => id,
                None => insert_series(&tx, series, now_ms)?,
            };
            let id = insert_game(&tx, save, now_ms)?;
            tx.execute(
                "UPDATE games SET series_id = ?1, series_game = ?2 WHERE id = ?3",
                params![series_id.0, number, id.0],
            )?;
            tx.commit()?;
            Ok((id, series_id))
        })?;
        series.id = Some(series_id);
        Ok(id)
    }

    /// Records what was just done to game `id` — a turn played (with its events), an undo or a
    /// redo — and the game as it now stands, in one transaction.
    ///
    /// When this fails the caller is taken to go on unrecorded, so the game is marked
    /// [`GameStatus::Incomplete`] if the database lets that mark be written (a later record of
    /// the same game that gets through makes it whole again).
    ///
    /// # Errors
    ///
    /// [`DbError::Locked`], [`DbError::ReadOnly`], and whatever SQLite reports.
    pub fn record(
        &mut self,
        id: GameId,
        action: Action,
        save: &Save,
        events: &[Event],
        now_ms: u64,
    ) -> Result<(), DbError> {
        let events = (!events.is_empty()).then(|| json(events));
        let recorded = self.retrying(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            write_game(&tx, id, save, now_ms)?;
            log(&tx, id, action.as_str(), save.game.turns, now_ms, events.as_deref())?;
            tx.commit()
        });
        if recorded.is_err() {
            let _ = self.mark_incomplete_now(id, now_ms);
        }
        recorded
    }

    /// Marks game `id` as stopped on purpose (it stays resumable).
    ///
    /// # Errors
    ///
    /// As [`Database::record`].
    pub fn mark_stopped(&mut self, id: GameId, now_ms: u64) -> Result<(), DbError> {
        self.retrying(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute(
                "UPDATE games SET status = 'stopped', updated_ms = ?2
                 WHERE id = ?1 AND status <> 'finished'",
                params![id.0, int(now_ms)],
            )?;
            let turns: u32 =
                tx.query_row("SELECT turns FROM games WHERE id = ?1", [id.0], |r| r.get(0))?;
            log(&tx, id, "stop", turns, now_ms, None)?;
            tx.commit()
        })
    }

    /// Marks game `id` as [`GameStatus::Incomplete`]: its recording stops here while the game
    /// goes on unrecorded. A finished game stays finished.
    ///
    /// # Errors
    ///
    /// As [`Database::record`].
    pub fn mark_incomplete(&mut self, id: GameId, now_ms: u64) -> Result<(), DbError> {
        self.retrying(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let turns: Option<u32> = tx
                .query_row(
                    "SELECT turns FROM games WHERE id = ?1 AND status <> 'finished'",
                    [id.0],
                    |r| r.get(0),
                )
                .ok();
            if let Some(turns) = turns {
                log(&tx, id, CUT, turns, now_ms, None)?;
            }
            tx.commit()
        })
    }

    /// [`Database::mark_incomplete`] after a failed write: waiting a short while only.
    fn mark_incomplete_now(&mut self, id: GameId, now_ms: u64) -> Result<(), DbError> {
        let patience = self.busy_timeout;
        self.set_busy_timeout(MARK_TIMEOUT.min(patience))?;
        let marked = self.mark_incomplete(id, now_ms);
        self.set_busy_timeout(patience)?;
        marked
    }
}

/// Whether another connection holds the lock (so trying again may get through).
fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(e.sqlite_error_code(), Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked))
}

fn json<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).expect("plain data is always JSON")
}

/// Brings game `id`'s rows in line with `save`: the game row, the seats, and the moves (runs
/// past the history are deleted — taken back — and missing moves added).
/// Inserts a new game's rows (the game, its seats, its save and the log's start line).
fn insert_game(tx: &Transaction<'_>, save: &Save, now_ms: u64) -> rusqlite::Result<GameId> {
    let game = &save.game;
    tx.execute(
        "INSERT INTO games (started_ms, updated_ms, board, board_size, rules, seed, status,
                                turns, save)
             VALUES (?1, ?1, ?2, ?3, ?4, ?5, 'playing', 0, '')",
        params![
            int(now_ms),
            save.board_name,
            game.board.size,
            game.rules.to_string(),
            // Stored bit for bit: a seed above i64::MAX reads back as itself.
            save.dice.seed().map(u64::cast_signed),
        ],
    )?;
    let id = GameId(tx.last_insert_rowid());
    for (seat, s) in game.seats.iter().enumerate() {
        tx.execute(
            "INSERT INTO seats (game_id, seat, name, kind, position, finished, rolls)
                 VALUES (?1, ?2, ?3, ?4, 0, 0, 0)",
            params![id.0, int(seat), s.name, s.kind.as_str()],
        )?;
    }
    write_game(tx, id, save, now_ms)?;
    log(tx, id, "start", game.turns, now_ms, None)?;
    Ok(id)
}

fn write_game(tx: &Transaction<'_>, id: GameId, save: &Save, now_ms: u64) -> rusqlite::Result<()> {
    let game = &save.game;
    let status =
        if game.status == Status::Finished { GameStatus::Finished } else { GameStatus::Playing };
    let winner = (status == GameStatus::Finished)
        .then(|| game.ranking.first().map(|&s| game.seats[s].name.clone()))
        .flatten();
    let changed = tx.execute(
        "UPDATE games SET updated_ms = ?2, status = ?3, turns = ?4, winner = ?5, save = ?6,
                          head = NULL
         WHERE id = ?1",
        params![id.0, int(now_ms), status.as_str(), game.turns, winner, save.to_json()],
    )?;
    if changed == 0 {
        return Err(rusqlite::Error::QueryReturnedNoRows);
    }
    let seats: Vec<SeatRow> =
        (0..game.seats.len()).map(|seat| SeatRow::saved(game, seat)).collect();
    let wormholes = game.board.wormholes();
    write_moves_and_seats(tx, id, &game.history, &wormholes, &seats)
}

pub(super) fn log(
    tx: &Transaction<'_>,
    id: GameId,
    action: &str,
    turns: u32,
    now_ms: u64,
    events: Option<&str>,
) -> rusqlite::Result<()> {
    let seq = next_seq(tx, id)?;
    log_at(tx, id, seq, action, turns, now_ms, events)
}

/// The number the next line of game `id`'s log takes.
pub(super) fn next_seq(tx: &Transaction<'_>, id: GameId) -> rusqlite::Result<i64> {
    // The game's number is written into the statement, not bound: a bound one made SQLite
    // prepare the statement again at every execution (a tenth of the cost of a write).
    tx.prepare_cached(&format!(
        "SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = {}",
        id.0
    ))?
    .query_row([], |r| r.get(0))
}

/// Adds line `seq` to game `id`'s log. A plain insert: an insert that looked the number up in a
/// subquery was prepared again at every execution (its plan depends on the bound game, with
/// SQLite's STAT4), which was half the cost of recording a turn.
pub(super) fn log_at(
    tx: &Transaction<'_>,
    id: GameId,
    seq: i64,
    action: &str,
    turns: u32,
    now_ms: u64,
    events: Option<&str>,
) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT INTO actions (game_id, seq, action, turns, at_ms, events)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![id.0, seq, action, turns, int(now_ms), events])?;
    Ok(())
}
