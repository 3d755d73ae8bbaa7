//! The database's schema: its version (`PRAGMA user_version`) and the migrations that bring an
//! older database up to it.

use rusqlite::TransactionBehavior;

use super::{Database, DbError};

/// The schema this build writes; older databases are upgraded to it when opened for writing.
pub const SCHEMA_VERSION: u32 = 6;

/// Each migration takes the schema from its index to the next version (`MIGRATIONS[0]`: 0 → 1).
const MIGRATIONS: [&str; SCHEMA_VERSION as usize] = [
    // 1: the games, their seats, their moves and the log of what was done to them.
    "CREATE TABLE games (
        id          INTEGER PRIMARY KEY,
        started_ms  INTEGER NOT NULL,
        updated_ms  INTEGER NOT NULL,
        board       TEXT    NOT NULL,
        board_size  INTEGER NOT NULL,
        rules       TEXT    NOT NULL,
        seed        INTEGER,
        status      TEXT    NOT NULL CHECK (status IN ('playing', 'stopped', 'finished')),
        turns       INTEGER NOT NULL,
        winner      TEXT,
        save        TEXT    NOT NULL
    );
    CREATE TABLE seats (
        game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat      INTEGER NOT NULL,
        name      TEXT    NOT NULL,
        kind      TEXT    NOT NULL,
        position  INTEGER NOT NULL,
        rank      INTEGER,
        finished  INTEGER NOT NULL,
        rolls     INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE moves (
        game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        number         INTEGER NOT NULL,
        turn           INTEGER NOT NULL,
        seat           INTEGER NOT NULL,
        roll           INTEGER NOT NULL,
        dice           TEXT    NOT NULL,
        from_pos       INTEGER NOT NULL,
        to_pos         INTEGER NOT NULL,
        kind           TEXT    NOT NULL,
        jumps          TEXT    NOT NULL,
        snakes         INTEGER NOT NULL,
        ladders        INTEGER NOT NULL,
        longest_slide  INTEGER NOT NULL,
        time_ms        INTEGER,
        PRIMARY KEY (game_id, number)
    );
    CREATE TABLE actions (
        game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq      INTEGER NOT NULL,
        action   TEXT    NOT NULL,
        turns    INTEGER NOT NULL,
        at_ms    INTEGER NOT NULL,
        events   TEXT,
        PRIMARY KEY (game_id, seq)
    );",
    // 2: what statistics, the leaderboard and resume look up by.
    "CREATE INDEX seats_by_name ON seats (name);
    CREATE INDEX games_by_status ON games (status, updated_ms);",
    // 3: recording that appends: a game's head beside its history (the `save` column keeps the
    // game as it began), and the option each move chose.
    "ALTER TABLE games ADD COLUMN head TEXT;
    ALTER TABLE moves ADD COLUMN chosen INTEGER;",
    // 4: moves kept in runs, one row for the moves one write added (a JSON array, one array per
    // move: turn, seat, dice, from, to, kind, jumps, time_ms, chosen), and each seat's snakes,
    // ladders and longest slide kept with the seat: a row per move cost SQLite more than the
    // game itself. The moves of schema 3 become one run per game, read as strictly as before
    // (a damaged value is copied as it is, and refused when read; a gap in the numbers makes
    // the run's count disagree with its moves).
    "CREATE TABLE move_runs (
        game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        first    INTEGER NOT NULL,
        count    INTEGER NOT NULL,
        moves    TEXT    NOT NULL,
        PRIMARY KEY (game_id, first)
    );
    ALTER TABLE seats ADD COLUMN snakes INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN ladders INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN longest_slide INTEGER NOT NULL DEFAULT 0;
    UPDATE seats SET (snakes, ladders, longest_slide) = (
        SELECT COALESCE(SUM(m.snakes), 0), COALESCE(SUM(m.ladders), 0),
               COALESCE(MAX(m.longest_slide), 0)
        FROM moves m WHERE m.game_id = seats.game_id AND m.seat = seats.seat);
    INSERT INTO move_runs (game_id, first, count, moves)
        SELECT game_id, MIN(number), MAX(number) - MIN(number) + 1,
               json_group_array(json_array(turn, seat, dice, from_pos, to_pos, kind,
                                           json(IIF(json_valid(jumps), jumps, json_quote(jumps))),
                                           time_ms, chosen) ORDER BY number)
        FROM moves GROUP BY game_id;
    DROP TABLE moves;",
    // 5: series (`snl play --games K`: a row per series, each of its games linked to it with its
    // number in the series) and achievements (a row per player and achievement: each is earned
    // once, the first time, with the game and the time it was earned in).
    "CREATE TABLE series (
        id          INTEGER PRIMARY KEY,
        started_ms  INTEGER NOT NULL,
        updated_ms  INTEGER NOT NULL,
        best_of     INTEGER NOT NULL,
        seed        INTEGER,
        status      TEXT    NOT NULL CHECK (status IN ('playing', 'finished')),
        played      INTEGER NOT NULL,
        winner      TEXT
    );
    ALTER TABLE games ADD COLUMN series_id INTEGER REFERENCES series (id);
    ALTER TABLE games ADD COLUMN series_game INTEGER;
    CREATE INDEX games_by_series ON games (series_id, series_game);
    CREATE TABLE achievements (
        name         TEXT    NOT NULL,
        achievement  TEXT    NOT NULL,
        game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        at_ms        INTEGER NOT NULL,
        PRIMARY KEY (name, achievement)
    );",
    // 6: how a series sets up its next game where its games' rows cannot tell (the caller's
    // text: a random board's parameters, redrawn for each game from that game's seed), so a
    // series resumed after a kill deals each later game its own board.
    "ALTER TABLE series ADD COLUMN setup TEXT;",
];

impl Database {
    /// The schema version the database has.
    ///
    /// # Errors
    ///
    /// [`DbError::Damaged`] for a file that is not a database, and whatever SQLite reports.
    pub fn schema_version(&self) -> Result<u32, DbError> {
        Ok(self.conn.pragma_query_value(None, "user_version", |row| row.get(0))?)
    }

    /// The schema version, refused when it is newer than this build knows.
    pub(super) fn check_version(&self) -> Result<u32, DbError> {
        let found = self.schema_version()?;
        if found > SCHEMA_VERSION {
            return Err(DbError::Newer { found, supported: SCHEMA_VERSION });
        }
        Ok(found)
    }

    /// Whether the file holds nothing at all (no table, no index).
    pub(super) fn is_empty(&self) -> Result<bool, DbError> {
        let objects: i64 =
            self.conn.query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| r.get(0))?;
        Ok(objects == 0)
    }

    /// Upgrades the schema to `target`, one migration at a time, in one transaction.
    pub(super) fn migrate(&mut self, target: u32) -> Result<(), DbError> {
        if self.check_version()? >= target {
            return Ok(());
        }
        self.retrying(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            // Read again under the lock: another snl may have upgraded it meanwhile.
            let found: u32 = tx.pragma_query_value(None, "user_version", |row| row.get(0))?;
            for sql in MIGRATIONS.get(found as usize..target as usize).unwrap_or_default() {
                tx.execute_batch(sql)?;
            }
            if found < target {
                tx.pragma_update(None, "user_version", target)?;
            }
            tx.commit()
        })
    }
}
