//! Series and achievements (schema 5).
//!
//! A series (`snl play --games K`, best of K) is a row of `series` — how many games it is the
//! best of, its seed, how many were played, where it stands and who won it — and each of its
//! games, recorded as any other game, carries the series' number and its own number in it
//! (`games.series_id`, `games.series_game`).
//!
//! An achievement is a row of `achievements` per player and achievement: each is earned once,
//! the first time (with the game and the time), and earning it again changes nothing — so "first
//! win" is simply the win achievement, and the date shown is the day it was first earned. The
//! names of achievements are the caller's (the session's achievements module); the store keeps
//! them as text.
//!
//! A database before schema 5 that cannot be upgraded is read as it is: no series, no
//! achievements.

use std::collections::HashMap;

use rusqlite::{OptionalExtension, TransactionBehavior, params};
use serde::Serialize;

use super::{
    Database, DbError, GameId, SeriesId,
    query::{bad, field, millis},
    runs::int,
};

/// A recorded series.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeriesSummary {
    /// The series' number.
    pub id: SeriesId,
    /// When it began, in milliseconds since the Unix epoch.
    pub started_ms: u64,
    /// K: the series is the best of K games.
    pub best_of: u32,
    /// The seed the games' seeds come from (none with scripted rolls).
    pub seed: Option<u64>,
    /// Games finished so far.
    pub played: u32,
    /// Whether the series is decided (or drawn) and over.
    pub finished: bool,
    /// Who won it, once it is over (none for a drawn series).
    pub winner: Option<String>,
    /// Its games, in the order they were played.
    pub games: Vec<GameId>,
    /// How it sets up its next game where its games cannot tell (the caller's text, given to
    /// [`Database::new_game_in_series`]; none before schema 6).
    pub setup: Option<String>,
}

/// A series about to get a game ([`Database::new_game_in_series`]): recorded with its first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewSeries {
    /// Its number, once recorded.
    pub id: Option<SeriesId>,
    /// K: the series is the best of K games.
    pub best_of: u32,
    /// The seed the games' seeds come from (none with scripted rolls).
    pub seed: Option<u64>,
    /// How it sets up its next game where its games cannot tell (kept as given).
    pub setup: Option<String>,
}

/// An achievement a player earned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Earned {
    /// Which (the name the caller gave it).
    pub achievement: String,
    /// The game it was earned in.
    pub game: GameId,
    /// When, in milliseconds since the Unix epoch.
    pub at_ms: u64,
}

impl Database {
    /// Records a new series, the best of `best_of` games, whose games are about to be played.
    ///
    /// # Errors
    ///
    /// [`DbError::Locked`], [`DbError::ReadOnly`], and whatever SQLite reports.
    pub fn new_series(
        &mut self,
        best_of: u32,
        seed: Option<u64>,
        now_ms: u64,
    ) -> Result<SeriesId, DbError> {
        let series = NewSeries { id: None, best_of, seed, setup: None };
        self.retrying(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let id = insert_series(&tx, &series, now_ms)?;
            tx.commit()?;
            Ok(id)
        })
    }

    /// Links game `game` to `series` as its game `number` (1, 2, …).
    ///
    /// # Errors
    ///
    /// As [`Database::new_series`].
    pub fn add_to_series(
        &mut self,
        series: SeriesId,
        game: GameId,
        number: u32,
    ) -> Result<(), DbError> {
        self.retrying(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute(
                "UPDATE games SET series_id = ?1, series_game = ?2 WHERE id = ?3",
                params![series.0, number, game.0],
            )?;
            tx.commit()
        })
    }

    /// Records where `series` stands: `played` games finished, and, once it is `over`, its
    /// `winner` (none when drawn).
    ///
    /// # Errors
    ///
    /// As [`Database::new_series`].
    pub fn update_series(
        &mut self,
        series: SeriesId,
        played: u32,
        over: bool,
        winner: Option<&str>,
        now_ms: u64,
    ) -> Result<(), DbError> {
        let status = if over { "finished" } else { "playing" };
        self.retrying(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute(
                "UPDATE series SET played = ?2, status = ?3, winner = ?4, updated_ms = ?5
                 WHERE id = ?1",
                params![series.0, played, status, winner, int(now_ms)],
            )?;
            tx.commit()
        })
    }

    /// Series `id`.
    ///
    /// # Errors
    ///
    /// [`DbError::BadRow`] for a value this snl does not know (named with the series' first
    /// game), [`DbError::Damaged`] when there is no such series, and whatever SQLite reports.
    pub fn series(&self, id: SeriesId) -> Result<SeriesSummary, DbError> {
        let missing = || DbError::Damaged(format!("it has no series {id}"));
        if self.before_series {
            return Err(missing());
        }
        let mut games = Vec::new();
        let mut stmt = self
            .conn
            .prepare("SELECT id FROM games WHERE series_id = ?1 ORDER BY series_game, id")?;
        let mut rows = stmt.query([id.0])?;
        while let Some(r) = rows.next()? {
            games.push(GameId(r.get(0)?));
        }
        let first = games.first().copied().unwrap_or(GameId(0));
        let row = format!("series {id}");
        // A schema-5 file read as it is (it could not be upgraded) has no setup.
        let mut stmt = self.conn.prepare(if self.schema_version()? < 6 {
            "SELECT started_ms, best_of, seed, played, status, winner, NULL FROM series
                 WHERE id = ?1"
        } else {
            "SELECT started_ms, best_of, seed, played, status, winner, setup FROM series
                 WHERE id = ?1"
        })?;
        let mut rows = stmt.query([id.0])?;
        let r = rows.next()?.ok_or_else(missing)?;
        let status: String = field(r, 4, first, &row)?;
        let finished = match status.as_str() {
            "playing" => false,
            "finished" => true,
            other => return Err(bad(first, row, format!("has an unknown status '{other}'"))),
        };
        Ok(SeriesSummary {
            id,
            started_ms: millis(r, 0, first, &row)?.unwrap_or_default(),
            best_of: field(r, 1, first, &row)?,
            seed: field::<Option<i64>>(r, 2, first, &row)?.map(i64::cast_unsigned),
            played: field(r, 3, first, &row)?,
            finished,
            winner: field(r, 5, first, &row)?,
            games,
            setup: field(r, 6, first, &row)?,
        })
    }

    /// Awards achievements earned in game `game`: each `(player name, achievement)` not yet
    /// earned by that player is kept with the game and `now_ms`; one already earned is left as
    /// it was. Returns those newly earned, in the order given.
    ///
    /// # Errors
    ///
    /// As [`Database::new_series`].
    pub fn award(
        &mut self,
        game: GameId,
        awards: &[(String, String)],
        now_ms: u64,
    ) -> Result<Vec<(String, String)>, DbError> {
        self.retrying(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut new = Vec::new();
            {
                let mut insert = tx.prepare_cached(
                    "INSERT OR IGNORE INTO achievements (name, achievement, game_id, at_ms)
                     VALUES (?1, ?2, ?3, ?4)",
                )?;
                for (name, achievement) in awards {
                    if insert.execute(params![name, achievement, game.0, int(now_ms)])? == 1 {
                        new.push((name.clone(), achievement.clone()));
                    }
                }
            }
            tx.commit()?;
            Ok(new)
        })
    }

    /// The achievements `player` earned, first earned first.
    ///
    /// # Errors
    ///
    /// [`DbError::BadRow`] for a time out of range, and whatever SQLite reports.
    pub fn achievements(&self, player: &str) -> Result<Vec<Earned>, DbError> {
        if self.before_series {
            return Ok(Vec::new());
        }
        let mut stmt = self.conn.prepare(
            "SELECT achievement, game_id, at_ms FROM achievements WHERE name = ?1
             ORDER BY at_ms, rowid",
        )?;
        let mut rows = stmt.query([player])?;
        let mut earned = Vec::new();
        while let Some(r) = rows.next()? {
            let game = GameId(r.get(1)?);
            let row = format!("achievement of {player}");
            earned.push(Earned {
                achievement: field(r, 0, game, &row)?,
                game,
                at_ms: millis(r, 2, game, &row)?.unwrap_or_default(),
            });
        }
        Ok(earned)
    }

    /// Each player's finished series and series won, by name (`player` only, when given).
    pub(super) fn series_tallies(
        &self,
        player: Option<&str>,
    ) -> Result<HashMap<String, (u32, u32)>, DbError> {
        if self.before_series {
            return Ok(HashMap::new());
        }
        let mut stmt = self.conn.prepare(
            "SELECT s.name, COUNT(DISTINCT r.id),
                    COUNT(DISTINCT CASE WHEN r.winner = s.name THEN r.id END)
             FROM seats s
             JOIN games g ON g.id = s.game_id
             JOIN series r ON r.id = g.series_id AND r.status = 'finished'
             WHERE ?1 IS NULL OR s.name = ?1
             GROUP BY s.name",
        )?;
        let rows = stmt.query_map([player], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?))))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The series not over whose games are all over, and when it or one of its games last
    /// changed, the latest first: a series cut off between two games (killed, or a game whose
    /// end was recorded and the series' standing not), waiting for its next game or its end.
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports.
    pub fn latest_waiting_series(&self) -> Result<Option<(SeriesId, u64)>, DbError> {
        if self.before_series {
            return Ok(None);
        }
        let found: Option<(i64, i64)> = self
            .conn
            .query_row(
                "SELECT s.id, MAX(s.updated_ms, MAX(g.updated_ms)) AS at
                 FROM series s JOIN games g ON g.series_id = s.id
                 WHERE s.status = 'playing'
                 GROUP BY s.id
                 HAVING SUM(g.status <> 'finished') = 0
                 ORDER BY at DESC, s.id DESC LIMIT 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        Ok(found.map(|(id, at)| (SeriesId(id), at.max(0).cast_unsigned())))
    }

    /// The series game `game` belongs to and its number in it, if any.
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports.
    pub fn series_of(&self, game: GameId) -> Result<Option<(SeriesId, u32)>, DbError> {
        if self.before_series {
            return Ok(None);
        }
        let found: Option<(Option<i64>, Option<u32>)> = self
            .conn
            .query_row("SELECT series_id, series_game FROM games WHERE id = ?1", [game.0], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?;
        Ok(match found {
            Some((Some(id), Some(number))) => Some((SeriesId(id), number)),
            _ => None,
        })
    }
}

/// Inserts a new series' row.
pub(super) fn insert_series(
    tx: &rusqlite::Transaction<'_>,
    series: &NewSeries,
    now_ms: u64,
) -> rusqlite::Result<SeriesId> {
    tx.execute(
        "INSERT INTO series (started_ms, updated_ms, best_of, seed, status, played, setup)
         VALUES (?1, ?1, ?2, ?3, 'playing', 0, ?4)",
        params![int(now_ms), series.best_of, series.seed.map(u64::cast_signed), series.setup],
    )?;
    Ok(SeriesId(tx.last_insert_rowid()))
}
