// Long on purpose: every read of the database in one module, so each row is read strictly in one way.
//! Reading: a game back as a save, its status, its moves, the list of games, and the statistics
//! behind `snl stats` and `snl leaderboard`. Rows are read strictly: a value this snl does not
//! know is [`DbError::BadRow`] naming the game and the row, never a guess.

use rusqlite::{OptionalExtension, Row, params, types::FromSql};
use serde::Serialize;
use snl_engine::{GameState, Jump, MoveKind, Seat, SeatKind};

use super::{Database, DbError, GameId, GameStatus, GameSummary, SeriesId};
use crate::save::Save;

/// What the `actions` log says when a game's recording stopped part way; see
/// [`GameStatus::Incomplete`].
pub(super) const CUT: &str = "cut";

/// One roll of a recorded game (`snl history`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveRow {
    /// 1-based number in the game.
    pub number: u32,
    /// The game's turn.
    pub turn: u32,
    /// Who rolled.
    pub player: String,
    /// The total.
    pub roll: u32,
    /// Each die.
    pub dice: Vec<u8>,
    /// Position before.
    pub from: u32,
    /// Position after.
    pub to: u32,
    /// Snakes and ladders taken, in order.
    pub jumps: Vec<Jump>,
    /// What became of the roll: `moved`, `blocked`, `stayed` or `voided`.
    pub kind: MoveKind,
    /// When, in milliseconds since the Unix epoch.
    pub time_ms: Option<u64>,
}

impl MoveRow {
    /// The rows of a game's history, as the database would give them.
    pub fn from_history(state: &GameState) -> Vec<MoveRow> {
        state
            .history
            .iter()
            .enumerate()
            .map(|(i, m)| MoveRow {
                number: i as u32 + 1,
                turn: m.turn,
                player: state.seats[m.seat].name.clone(),
                roll: m.roll.total(),
                dice: m.roll.dice().to_vec(),
                from: m.from,
                to: m.to,
                jumps: m.jumps.clone(),
                kind: m.kind,
                time_ms: m.time_ms,
            })
            .collect()
    }
}

/// One player's record over every finished game (`snl stats`, `snl leaderboard`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerStats {
    /// The player's name (players are told apart by name).
    pub name: String,
    /// Finished games played.
    pub games: u32,
    /// Games won (rank 1).
    pub wins: u32,
    /// `wins / games`.
    pub win_rate: f64,
    /// Games in which the player reached the last cell.
    pub finished: u32,
    /// Mean rolls the player needed to reach the last cell, over those games.
    pub average_rolls_to_finish: Option<f64>,
    /// Snakes that took the player down.
    pub snakes: u64,
    /// Ladders that took the player up.
    pub ladders: u64,
    /// The longest way one snake took the player down, in cells.
    pub longest_slide: u32,
    /// Series played to their end.
    pub series: u32,
    /// Series won.
    pub series_won: u32,
}

/// The last action logged for a game, as an SQL expression over `games g`.
const LAST_ACTION: &str =
    "(SELECT a.action FROM actions a WHERE a.game_id = g.id ORDER BY a.seq DESC LIMIT 1)";

impl Database {
    /// Game `id` as it stood after its last recorded turn (not yet checked: see
    /// [`Save::restore`]).
    ///
    /// # Errors
    ///
    /// [`DbError::NoSuchGame`], [`DbError::BadGame`] when the stored save cannot be read.
    pub fn load(&self, id: GameId) -> Result<Save, DbError> {
        let text: String = self
            .conn
            .query_row("SELECT save FROM games WHERE id = ?1", [id.0], |r| r.get(0))
            .optional()?
            .ok_or(DbError::NoSuchGame(id))?;
        let base =
            Save::from_json(text.as_bytes()).map_err(|error| DbError::BadGame { id, error })?;
        Ok(self.load_progress(id, &base)?.unwrap_or(base))
    }

    /// The status of game `id`.
    ///
    /// # Errors
    ///
    /// [`DbError::NoSuchGame`], [`DbError::BadRow`] for a status this snl does not know.
    pub fn status(&self, id: GameId) -> Result<GameStatus, DbError> {
        let sql = format!("SELECT g.status, {LAST_ACTION} FROM games g WHERE g.id = ?1");
        let mut stmt = self.conn.prepare(&sql)?;
        let mut rows = stmt.query([id.0])?;
        let row = rows.next()?.ok_or(DbError::NoSuchGame(id))?;
        status_of(row, id, 0)
    }

    /// When game `id` was last written, in milliseconds since the Unix epoch.
    ///
    /// # Errors
    ///
    /// [`DbError::NoSuchGame`], and whatever SQLite reports.
    pub fn updated_ms(&self, id: GameId) -> Result<u64, DbError> {
        let at: Option<i64> = self
            .conn
            .query_row("SELECT updated_ms FROM games WHERE id = ?1", [id.0], |r| r.get(0))
            .optional()?;
        Ok(at.ok_or(DbError::NoSuchGame(id))?.max(0).cast_unsigned())
    }

    /// The unfinished game recorded last that can be resumed (not [`GameStatus::Incomplete`]),
    /// if any.
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports.
    pub fn latest_unfinished(&self) -> Result<Option<GameId>, DbError> {
        let sql = format!(
            "SELECT g.id FROM games g
             WHERE g.status <> 'finished' AND COALESCE({LAST_ACTION}, '') <> '{CUT}'
             ORDER BY g.updated_ms DESC, g.id DESC LIMIT 1"
        );
        Ok(self.conn.query_row(&sql, [], |r| r.get(0).map(GameId)).optional()?)
    }

    /// Every game, newest first.
    ///
    /// # Errors
    ///
    /// [`DbError::BadRow`] for a value this snl does not know, and whatever SQLite reports.
    pub fn games(&self) -> Result<Vec<GameSummary>, DbError> {
        self.games_page(None, usize::MAX)
    }

    /// At most `limit` games, newest first, those numbered below `before` when it is given: a
    /// page of [`Database::games`] (the next page is the one before the last game of this one).
    ///
    /// # Errors
    ///
    /// As [`Database::games`].
    pub fn games_page(
        &self,
        before: Option<GameId>,
        limit: usize,
    ) -> Result<Vec<GameSummary>, DbError> {
        let mut seats_of = self
            .conn
            .prepare("SELECT seat, name, kind FROM seats WHERE game_id = ?1 ORDER BY seat")?;
        // Before schema 5 (read as it is) there are no series.
        let series = if self.before_series { "NULL, NULL" } else { "g.series_id, g.series_game" };
        let sql = format!(
            "SELECT g.status, {LAST_ACTION}, g.id, g.started_ms, g.updated_ms, g.board,
                    g.board_size, g.rules, g.winner, g.turns, {series}
             FROM games g WHERE ?1 IS NULL OR g.id < ?1 ORDER BY g.id DESC LIMIT ?2"
        );
        let mut stmt = self.conn.prepare(&sql)?;
        // SQLite reads a negative limit as none.
        let limit = i64::try_from(limit).unwrap_or(-1);
        let mut rows = stmt.query(params![before.map(|b| b.0), limit])?;
        let mut games = Vec::new();
        while let Some(r) = rows.next()? {
            let id = GameId(r.get(2)?);
            let row = "games row";
            let mut seats = Vec::new();
            let mut seat_rows = seats_of.query([id.0])?;
            while let Some(s) = seat_rows.next()? {
                let seat: i64 = s.get(0)?;
                let row = format!("seat {seat}");
                let kind: String = field(s, 2, id, &row)?;
                let Ok(kind) = kind.parse::<SeatKind>() else {
                    return Err(bad(id, row, format!("has an unknown kind '{kind}'")));
                };
                seats.push(Seat::new(field::<String>(s, 1, id, &row)?, kind));
            }
            games.push(GameSummary {
                id,
                status: status_of(r, id, 0)?,
                started_ms: millis(r, 3, id, row)?.unwrap_or_default(),
                updated_ms: millis(r, 4, id, row)?.unwrap_or_default(),
                board: field(r, 5, id, row)?,
                board_size: field(r, 6, id, row)?,
                rules: field(r, 7, id, row)?,
                seats,
                winner: field(r, 8, id, row)?,
                turns: field(r, 9, id, row)?,
                series: field::<Option<i64>>(r, 10, id, row)?.map(SeriesId),
                series_game: field(r, 11, id, row)?,
            });
        }
        Ok(games)
    }

    /// The moves of game `id` as it stands (taken-back turns are not in it), all players' or
    /// one's.
    ///
    /// # Errors
    ///
    /// [`DbError::NoSuchGame`], [`DbError::BadRow`] for a value this snl does not know, and
    /// whatever SQLite reports.
    pub fn moves(&self, id: GameId, player: Option<&str>) -> Result<Vec<MoveRow>, DbError> {
        self.status(id)?;
        let mut stmt =
            self.conn.prepare_cached("SELECT seat, name FROM seats WHERE game_id = ?1")?;
        let mut rows = stmt.query([id.0])?;
        let mut names: Vec<Option<String>> = Vec::new();
        while let Some(r) = rows.next()? {
            let seat: i64 = r.get(0)?;
            let row = format!("seat {seat}");
            let seat = usize::from(field::<u16>(r, 0, id, &row)?);
            if names.len() <= seat {
                names.resize(seat + 1, None);
            }
            names[seat] = Some(field(r, 1, id, &row)?);
        }
        let mut moves = Vec::new();
        for (i, m) in self.stored_history(id)?.into_iter().enumerate() {
            let Some(name) = names.get(m.seat).cloned().flatten() else {
                let problem = format!("is by seat {}, which the game does not have", m.seat);
                return Err(bad(id, format!("move {}", i + 1), problem));
            };
            if player.is_some_and(|p| p != name) {
                continue;
            }
            moves.push(MoveRow {
                number: i as u32 + 1,
                turn: m.turn,
                player: name,
                roll: m.roll.total(),
                dice: m.roll.dice().to_vec(),
                from: m.from,
                to: m.to,
                jumps: m.jumps,
                kind: m.kind,
                time_ms: m.time_ms,
            });
        }
        Ok(moves)
    }

    /// Every player's record over finished games, by name; or one player's (empty when the
    /// name never finished a game).
    ///
    /// # Errors
    ///
    /// [`DbError::BadRow`] for a game whose status this snl does not know, and whatever SQLite
    /// reports.
    pub fn stats(&self, player: Option<&str>) -> Result<Vec<PlayerStats>, DbError> {
        // Counted over finished games: a status this snl does not know cannot be left out quietly.
        let unknown: Option<(i64, String)> = self
            .conn
            .query_row(
                "SELECT id, status FROM games
                 WHERE status NOT IN ('playing', 'stopped', 'finished') ORDER BY id LIMIT 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        if let Some((id, status)) = unknown {
            return Err(bad(GameId(id), "games row", format!("has an unknown status '{status}'")));
        }
        // Schema 3 (read as it is) has no tallies in `seats`: they are counted from its moves.
        let tallies = if self.moves_by_row {
            "(SELECT game_id, seat, SUM(snakes) AS snakes, SUM(ladders) AS ladders,
                     MAX(longest_slide) AS longest_slide
              FROM moves GROUP BY game_id, seat)"
        } else {
            "(SELECT game_id, seat, snakes, ladders, longest_slide FROM seats)"
        };
        let mut stmt = self.conn.prepare(&format!(
            "SELECT s.name, COUNT(*), COALESCE(SUM(s.rank = 1), 0), SUM(s.finished),
                    AVG(CASE WHEN s.finished = 1 THEN s.rolls END),
                    TOTAL(t.snakes), TOTAL(t.ladders), MAX(COALESCE(t.longest_slide, 0))
             FROM seats s
             JOIN games g ON g.id = s.game_id AND g.status = 'finished'
             LEFT JOIN {tallies} t ON t.game_id = s.game_id AND t.seat = s.seat
             WHERE ?1 IS NULL OR s.name = ?1
             GROUP BY s.name
             ORDER BY s.name"
        ))?;
        let rows = stmt.query_map([player], |r| {
            let games: u32 = r.get(1)?;
            let wins: u32 = r.get(2)?;
            Ok(PlayerStats {
                name: r.get(0)?,
                games,
                wins,
                win_rate: f64::from(wins) / f64::from(games.max(1)),
                finished: r.get(3)?,
                average_rolls_to_finish: r.get(4)?,
                snakes: r.get::<_, f64>(5)? as u64,
                ladders: r.get::<_, f64>(6)? as u64,
                longest_slide: r.get(7)?,
                series: 0,
                series_won: 0,
            })
        })?;
        let mut all: Vec<PlayerStats> = rows.collect::<Result<_, _>>()?;
        let series = self.series_tallies(player)?;
        for p in &mut all {
            (p.series, p.series_won) = series.get(&p.name).copied().unwrap_or_default();
        }
        Ok(all)
    }

    /// Whether any recorded game, finished or not, has a seat named `player`.
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports.
    pub fn has_player(&self, player: &str) -> Result<bool, DbError> {
        let found = self.conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM seats WHERE name = ?1)",
            [player],
            |r| r.get(0),
        )?;
        Ok(found)
    }

    /// The newest recorded game with a seat named `player`, if any (cheap: the seats are
    /// indexed by name) — what a kept count of that player's games is checked against.
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports.
    pub fn newest_game_of(&self, player: &str) -> Result<Option<GameId>, DbError> {
        let newest: Option<i64> = self.conn.query_row(
            "SELECT MAX(game_id) FROM seats WHERE name = ?1",
            [player],
            |r| r.get(0),
        )?;
        Ok(newest.map(GameId))
    }

    /// Every player over finished games, by wins, then win rate, then fewer games, then name.
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports.
    pub fn leaderboard(&self) -> Result<Vec<PlayerStats>, DbError> {
        let mut all = self.stats(None)?;
        all.sort_by(|a, b| {
            b.wins
                .cmp(&a.wins)
                .then(b.win_rate.total_cmp(&a.win_rate))
                .then(a.games.cmp(&b.games))
                .then_with(|| a.name.cmp(&b.name))
        });
        Ok(all)
    }

    /// The log of game `id`: each action (`start`, `turn`, `undo`, `redo`, `stop`, `resume`,
    /// and `cut` where its recording stopped) and the game's turn count after it.
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports.
    pub fn actions(&self, id: GameId) -> Result<Vec<(String, u32)>, DbError> {
        let mut stmt = self
            .conn
            .prepare("SELECT action, turns FROM actions WHERE game_id = ?1 ORDER BY seq")?;
        let rows = stmt.query_map([id.0], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

/// A row's stored status (column `at`) and last action (column `at + 1`) as a [`GameStatus`].
fn status_of(r: &Row<'_>, id: GameId, at: usize) -> Result<GameStatus, DbError> {
    let text: String = field(r, at, id, "games row")?;
    let last: Option<String> = r.get(at + 1)?;
    match GameStatus::parse(&text) {
        Some(GameStatus::Playing | GameStatus::Stopped) if last.as_deref() == Some(CUT) => {
            Ok(GameStatus::Incomplete)
        }
        // Incomplete is never stored: the log tells it.
        Some(status) if status != GameStatus::Incomplete => Ok(status),
        _ => Err(bad(id, "games row", format!("has an unknown status '{text}'"))),
    }
}

pub(super) fn bad(id: GameId, row: impl Into<String>, problem: impl Into<String>) -> DbError {
    DbError::BadRow { id, row: row.into(), problem: problem.into() }
}

/// A time (column `i`, milliseconds since the Unix epoch, maybe NULL); a negative one is
/// [`DbError::BadRow`].
pub(super) fn millis(r: &Row<'_>, i: usize, id: GameId, row: &str) -> Result<Option<u64>, DbError> {
    let ms: Option<i64> = field(r, i, id, row)?;
    ms.map(|ms| {
        u64::try_from(ms).map_err(|_| {
            let column = r.as_ref().column_name(i).unwrap_or("?").to_owned();
            bad(id, row, format!("has {ms} as its {column}, which is out of range"))
        })
    })
    .transpose()
}

/// Column `i` of `r`, a value of the wrong type or out of range being [`DbError::BadRow`].
pub(super) fn field<T: FromSql>(
    r: &Row<'_>,
    i: usize,
    id: GameId,
    row: &str,
) -> Result<T, DbError> {
    r.get(i).map_err(|e| {
        let column = r.as_ref().column_name(i).unwrap_or("?").to_owned();
        match e {
            rusqlite::Error::IntegralValueOutOfRange(_, value) => {
                bad(id, row, format!("has {value} as its {column}, which is out of range"))
            }
            rusqlite::Error::InvalidColumnType(_, _, kind) => {
                bad(id, row, format!("has a value of type {kind} as its {column}"))
            }
            rusqlite::Error::FromSqlConversionFailure(..) => {
                bad(id, row, format!("has an unreadable {column}"))
            }
            other => other.into(),
        }
    })
}
