//! The game database: every game recorded turn by turn in SQLite, for resume, replay, history,
//! statistics and the leaderboard.
//!
//! Each turn is one transaction in WAL mode with `synchronous = FULL`, so a game killed at any
//! moment (kill -9, a power cut) loses at most the turn in flight. The `games` row keeps the whole
//! game as a save (see [`Save`]) as it stood after its last recorded turn — what `resume` goes on
//! from — and the `moves`, `seats` and `actions` tables hold the same game in rows that SQL can
//! count.

use std::{
    fmt, fs,
    path::{Path, PathBuf},
    time::Duration,
};

use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, Transaction, params};
use serde::Serialize;
use snl_engine::{Event, GameState, Jump, MoveKind, MoveRecord, Seat, SeatKind, Status};

use crate::save::{Save, SaveError};

/// The schema this build writes; older databases are upgraded to it when opened for writing.
pub const SCHEMA_VERSION: u32 = 2;

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
];

/// How long a write waits for another snl (another game being recorded) to finish its turn.
const BUSY_TIMEOUT: Duration = Duration::from_millis(1500);

/// A game's number in the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct GameId(pub i64);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Where a recorded game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// Being played, or cut off (the program was killed): `resume` goes on with it.
    Playing,
    /// Stopped on purpose (quit, `--stop-after`, input ended): `resume` goes on with it.
    Stopped,
    /// Over.
    Finished,
}

impl GameStatus {
    /// The word stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Playing => "playing",
            GameStatus::Stopped => "stopped",
            GameStatus::Finished => "finished",
        }
    }

    fn parse(text: &str) -> GameStatus {
        match text {
            "finished" => GameStatus::Finished,
            "stopped" => GameStatus::Stopped,
            _ => GameStatus::Playing,
        }
    }
}

impl fmt::Display for GameStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What was done to a game, as the `actions` log records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// A turn was played.
    Turn,
    /// Turns were taken back.
    Undo,
    /// Taken-back turns were put back.
    Redo,
    /// The game was taken up again after a stop or a crash (`snl resume`).
    Resume,
}

impl Action {
    fn as_str(self) -> &'static str {
        match self {
            Action::Turn => "turn",
            Action::Undo => "undo",
            Action::Redo => "redo",
            Action::Resume => "resume",
        }
    }
}

/// One line of `snl games`.
#[derive(Clone, Debug, PartialEq, Serialize)]
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
}

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
}

/// Why the database could not be used. Messages complete the sentence "the game database PATH …"
/// or stand after its name.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DbError {
    /// The file does not exist (nothing was ever recorded there).
    #[error("does not exist yet: no game has been recorded there")]
    Missing,
    /// Written by a newer snl.
    #[error(
        "was written by a newer snl (schema {found}, this snl knows up to {supported}): \
         upgrade snl to use it"
    )]
    Newer {
        /// The database's schema version.
        found: u32,
        /// [`SCHEMA_VERSION`].
        supported: u32,
    },
    /// An older schema in a database that cannot be written, so it cannot be upgraded.
    #[error("has the older schema {found} and is read-only, so it cannot be upgraded")]
    Stale {
        /// The database's schema version.
        found: u32,
    },
    /// The file is marked read-only, or the disk refuses writes.
    #[error("is read-only")]
    ReadOnly,
    /// Another program holds the lock for longer than a turn takes.
    #[error("is locked by another program")]
    Locked,
    /// No such game.
    #[error("has no game {0}")]
    NoSuchGame(GameId),
    /// A game whose stored save cannot be read back.
    #[error("holds game {id}, but it cannot be read back: {error}")]
    BadGame {
        /// The game.
        id: GameId,
        /// Why.
        error: SaveError,
    },
    /// The folder for a new database could not be made.
    #[error("cannot be created: {0}")]
    Folder(std::io::Error),
    /// Anything else SQLite reports (a damaged file, a full disk).
    #[error("cannot be used: {0}")]
    Sqlite(rusqlite::Error),
}

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> DbError {
        match e.sqlite_error_code() {
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => DbError::Locked,
            Some(ErrorCode::ReadOnly) => DbError::ReadOnly,
            _ => DbError::Sqlite(e),
        }
    }
}

/// An open game database.
///
/// ```
/// use snl_engine::{Board, FirstOption, Game, Preset, Rules, Seat, SeatKind};
/// use snl_store::{Action, Database, DiceState, Save};
/// # let dir = std::env::temp_dir().join(format!("snl-doc-{}", std::process::id()));
/// # let path = dir.join("games.db");
/// let mut db = Database::open(&path)?;
/// let rules = Rules::default();
/// let board = Board::new(&Preset::Classic.spec(), &rules)?;
/// let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Bob", SeatKind::Easy)];
/// let (mut game, mut dice) = (Game::new(board, rules, seats)?, DiceState::seeded(5));
/// let id = db.new_game(&Save::new(&game, &dice, "classic"), 0)?;
/// while !game.ranking().first().is_some() {
///     let mut events = Vec::new();
///     game.play_turn(&mut dice, &mut FirstOption, &mut events)?;
///     db.record(id, Action::Turn, &Save::new(&game, &dice, "classic"), &events, 0)?;
/// }
/// assert_eq!(db.games()?[0].winner.as_deref(), Some(game.seats()[game.ranking()[0]].name.as_str()));
/// assert_eq!(db.load(id)?.game, game.state());
/// # drop(db); std::fs::remove_dir_all(dir)?;
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Database {
    pub(crate) conn: Connection,
    path: PathBuf,
}

impl Database {
    /// Opens (creating it and its folder if needed) the database at `path` for recording, and
    /// upgrades its schema.
    ///
    /// # Errors
    ///
    /// [`DbError::ReadOnly`] for a file marked read-only, [`DbError::Locked`],
    /// [`DbError::Newer`], and whatever SQLite reports.
    pub fn open(path: &Path) -> Result<Database, DbError> {
        if fs::metadata(path).is_ok_and(|m| m.permissions().readonly()) {
            // Root could write anyway; a file marked read-only is the user's wish all the same.
            return Err(DbError::ReadOnly);
        }
        if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            fs::create_dir_all(folder).map_err(DbError::Folder)?;
        }
        let conn = Connection::open(path)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let mut db = Database { conn, path: path.to_owned() };
        db.check_version()?;
        db.conn.pragma_update(None, "journal_mode", "WAL")?;
        db.conn.pragma_update(None, "synchronous", "FULL")?;
        db.conn.pragma_update(None, "foreign_keys", true)?;
        db.migrate(SCHEMA_VERSION)?;
        Ok(db)
    }

    /// Opens an existing database to read it: for writing when possible (so an old schema is
    /// upgraded), else read-only.
    ///
    /// # Errors
    ///
    /// [`DbError::Missing`] when there is no file, [`DbError::Newer`], [`DbError::Stale`], and
    /// whatever SQLite reports.
    pub fn open_existing(path: &Path) -> Result<Database, DbError> {
        if !path.exists() {
            return Err(DbError::Missing);
        }
        match Database::open(path) {
            Err(DbError::ReadOnly | DbError::Locked) => {}
            other => return other,
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let db = Database { conn, path: path.to_owned() };
        match db.check_version()? {
            SCHEMA_VERSION => Ok(db),
            found => Err(DbError::Stale { found }),
        }
    }

    /// Where the database is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema version the database has.
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports.
    pub fn schema_version(&self) -> Result<u32, DbError> {
        Ok(self.conn.pragma_query_value(None, "user_version", |row| row.get(0))?)
    }

    fn check_version(&self) -> Result<u32, DbError> {
        let found = self.schema_version()?;
        if found > SCHEMA_VERSION {
            return Err(DbError::Newer { found, supported: SCHEMA_VERSION });
        }
        Ok(found)
    }

    /// Upgrades the schema to `target`, one migration at a time, in one transaction.
    fn migrate(&mut self, target: u32) -> Result<(), DbError> {
        if self.check_version()? >= target {
            return Ok(());
        }
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        // Read again under the lock: another snl may have upgraded it meanwhile.
        let found: u32 = tx.pragma_query_value(None, "user_version", |row| row.get(0))?;
        for sql in &MIGRATIONS[found as usize..target as usize] {
            tx.execute_batch(sql)?;
        }
        tx.pragma_update(None, "user_version", target)?;
        tx.commit()?;
        Ok(())
    }

    /// Records a game about to be played (new, or loaded from a file) and returns its number.
    ///
    /// # Errors
    ///
    /// [`DbError::Locked`], [`DbError::ReadOnly`], and whatever SQLite reports.
    pub fn new_game(&mut self, save: &Save, now_ms: u64) -> Result<GameId, DbError> {
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
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
        write_game(&tx, id, save, now_ms)?;
        log(&tx, id, "start", game.turns, now_ms, None)?;
        tx.commit()?;
        Ok(id)
    }

    /// Records what was just done to game `id` — a turn played (with its events), an undo or a
    /// redo — and the game as it now stands, in one transaction.
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
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        write_game(&tx, id, save, now_ms)?;
        let events = (!events.is_empty()).then(|| json(events));
        log(&tx, id, action.as_str(), save.game.turns, now_ms, events.as_deref())?;
        tx.commit()?;
        Ok(())
    }

    /// Marks game `id` as stopped on purpose (it stays resumable).
    ///
    /// # Errors
    ///
    /// As [`Database::record`].
    pub fn mark_stopped(&mut self, id: GameId, now_ms: u64) -> Result<(), DbError> {
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        tx.execute(
            "UPDATE games SET status = 'stopped', updated_ms = ?2
             WHERE id = ?1 AND status <> 'finished'",
            params![id.0, int(now_ms)],
        )?;
        let turns: u32 =
            tx.query_row("SELECT turns FROM games WHERE id = ?1", [id.0], |r| r.get(0))?;
        log(&tx, id, "stop", turns, now_ms, None)?;
        tx.commit()?;
        Ok(())
    }

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
        Save::from_json(text.as_bytes()).map_err(|error| DbError::BadGame { id, error })
    }

    /// The status of game `id`.
    ///
    /// # Errors
    ///
    /// [`DbError::NoSuchGame`].
    pub fn status(&self, id: GameId) -> Result<GameStatus, DbError> {
        let text: String = self
            .conn
            .query_row("SELECT status FROM games WHERE id = ?1", [id.0], |r| r.get(0))
            .optional()?
            .ok_or(DbError::NoSuchGame(id))?;
        Ok(GameStatus::parse(&text))
    }

    /// The unfinished game recorded last, if any.
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports.
    pub fn latest_unfinished(&self) -> Result<Option<GameId>, DbError> {
        Ok(self
            .conn
            .query_row(
                "SELECT id FROM games WHERE status <> 'finished'
                 ORDER BY updated_ms DESC, id DESC LIMIT 1",
                [],
                |r| r.get(0).map(GameId),
            )
            .optional()?)
    }

    /// Every game, newest first.
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports.
    pub fn games(&self) -> Result<Vec<GameSummary>, DbError> {
        let mut seats_of =
            self.conn.prepare("SELECT name, kind FROM seats WHERE game_id = ?1 ORDER BY seat")?;
        let mut stmt = self.conn.prepare(
            "SELECT id, started_ms, updated_ms, board, board_size, rules, winner, status, turns
             FROM games ORDER BY id DESC",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(GameSummary {
                id: GameId(r.get(0)?),
                started_ms: r.get::<_, i64>(1)? as u64,
                updated_ms: r.get::<_, i64>(2)? as u64,
                board: r.get(3)?,
                board_size: r.get(4)?,
                rules: r.get(5)?,
                seats: Vec::new(),
                winner: r.get(6)?,
                status: GameStatus::parse(&r.get::<_, String>(7)?),
                turns: r.get(8)?,
            })
        })?;
        let mut games = rows.collect::<Result<Vec<_>, _>>()?;
        for game in &mut games {
            game.seats = seats_of
                .query_map([game.id.0], |r| {
                    let kind: String = r.get(1)?;
                    Ok(Seat::new(r.get::<_, String>(0)?, kind.parse().unwrap_or(SeatKind::Human)))
                })?
                .collect::<Result<_, _>>()?;
        }
        Ok(games)
    }

    /// The moves of game `id` as it stands (taken-back turns are not in it), all players' or
    /// one's.
    ///
    /// # Errors
    ///
    /// [`DbError::NoSuchGame`], and whatever SQLite reports.
    pub fn moves(&self, id: GameId, player: Option<&str>) -> Result<Vec<MoveRow>, DbError> {
        self.status(id)?;
        let mut stmt = self.conn.prepare(
            "SELECT m.number, m.turn, s.name, m.roll, m.dice, m.from_pos, m.to_pos, m.jumps,
                    m.kind, m.time_ms
             FROM moves m JOIN seats s ON s.game_id = m.game_id AND s.seat = m.seat
             WHERE m.game_id = ?1 AND (?2 IS NULL OR s.name = ?2)
             ORDER BY m.number",
        )?;
        let rows = stmt.query_map(params![id.0, player], |r| {
            let dice: String = r.get(4)?;
            let jumps: String = r.get(7)?;
            let kind: String = r.get(8)?;
            Ok(MoveRow {
                number: r.get(0)?,
                turn: r.get(1)?,
                player: r.get(2)?,
                roll: r.get(3)?,
                dice: dice.split('+').filter_map(|d| d.parse().ok()).collect(),
                from: r.get(5)?,
                to: r.get(6)?,
                jumps: serde_json::from_str(&jumps).unwrap_or_default(),
                kind: serde_json::from_value(serde_json::Value::String(kind))
                    .unwrap_or(MoveKind::Moved),
                time_ms: r.get::<_, Option<i64>>(9)?.map(|t| t as u64),
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Every player's record over finished games, by name; or one player's (empty when the
    /// name never finished a game).
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports.
    pub fn stats(&self, player: Option<&str>) -> Result<Vec<PlayerStats>, DbError> {
        let mut stmt = self.conn.prepare(
            "SELECT s.name, COUNT(*), COALESCE(SUM(s.rank = 1), 0), SUM(s.finished),
                    AVG(CASE WHEN s.finished = 1 THEN s.rolls END),
                    TOTAL(m.snakes), TOTAL(m.ladders), MAX(COALESCE(m.slide, 0))
             FROM seats s
             JOIN games g ON g.id = s.game_id AND g.status = 'finished'
             LEFT JOIN (SELECT game_id, seat, SUM(snakes) AS snakes, SUM(ladders) AS ladders,
                               MAX(longest_slide) AS slide
                        FROM moves GROUP BY game_id, seat) m
                    ON m.game_id = s.game_id AND m.seat = s.seat
             WHERE ?1 IS NULL OR s.name = ?1
             GROUP BY s.name
             ORDER BY s.name",
        )?;
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
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
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

    /// The log of game `id`: each action (`start`, `turn`, `undo`, `redo`, `stop`, `resume`) and the
    /// game's turn count after it.
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

/// A count or a time as SQLite's integer (saturating: such values never come near the limit).
fn int<T: TryInto<i64>>(n: T) -> i64 {
    n.try_into().unwrap_or(i64::MAX)
}

fn json<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).expect("plain data is always JSON")
}

/// Brings game `id`'s rows in line with `save`: the game row, the seats, and the moves (rows
/// past the history are deleted — taken back — and missing ones added).
fn write_game(tx: &Transaction<'_>, id: GameId, save: &Save, now_ms: u64) -> rusqlite::Result<()> {
    let game = &save.game;
    let status =
        if game.status == Status::Finished { GameStatus::Finished } else { GameStatus::Playing };
    let winner = (status == GameStatus::Finished)
        .then(|| game.ranking.first().map(|&s| game.seats[s].name.clone()))
        .flatten();
    let changed = tx.execute(
        "UPDATE games SET updated_ms = ?2, status = ?3, turns = ?4, winner = ?5, save = ?6
         WHERE id = ?1",
        params![id.0, int(now_ms), status.as_str(), game.turns, winner, save.to_json()],
    )?;
    if changed == 0 {
        return Err(rusqlite::Error::QueryReturnedNoRows);
    }
    let size = game.board.size;
    for (seat, &position) in game.positions.iter().enumerate() {
        let rank = game.ranking.iter().position(|&s| s == seat).map(|r| r + 1);
        let rolls = game.history.iter().filter(|m| m.seat == seat).count();
        tx.execute(
            "UPDATE seats SET position = ?3, rank = ?4, finished = ?5, rolls = ?6
             WHERE game_id = ?1 AND seat = ?2",
            params![id.0, int(seat), position, rank.map(int), position == size, int(rolls)],
        )?;
    }
    tx.execute(
        "DELETE FROM moves WHERE game_id = ?1 AND number > ?2",
        params![id.0, int(game.history.len())],
    )?;
    let stored: i64 =
        tx.query_row("SELECT COUNT(*) FROM moves WHERE game_id = ?1", [id.0], |r| r.get(0))?;
    let mut insert = tx.prepare_cached(
        "INSERT INTO moves (game_id, number, turn, seat, roll, dice, from_pos, to_pos, kind, jumps,
                            snakes, ladders, longest_slide, time_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
    )?;
    for (i, m) in game.history.iter().enumerate().skip(stored as usize) {
        insert.execute(params![
            id.0,
            int(i + 1),
            m.turn,
            int(m.seat),
            m.roll.total(),
            dice_text(m),
            m.from,
            m.to,
            kind_text(m.kind),
            json(&m.jumps),
            int(m.jumps.iter().filter(|j| j.is_snake()).count()),
            int(m.jumps.iter().filter(|j| !j.is_snake()).count()),
            m.jumps.iter().filter(|j| j.is_snake()).map(|j| j.from - j.to).max().unwrap_or(0),
            m.time_ms.map(int),
        ])?;
    }
    Ok(())
}

fn log(
    tx: &Transaction<'_>,
    id: GameId,
    action: &str,
    turns: u32,
    now_ms: u64,
    events: Option<&str>,
) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO actions (game_id, seq, action, turns, at_ms, events)
         VALUES (?1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?1),
                 ?2, ?3, ?4, ?5)",
        params![id.0, action, turns, int(now_ms), events],
    )?;
    Ok(())
}

fn dice_text(m: &MoveRecord) -> String {
    let faces: Vec<String> = m.roll.dice().iter().map(u8::to_string).collect();
    faces.join("+")
}

fn kind_text(kind: MoveKind) -> String {
    serde_json::to_value(kind).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use snl_engine::{Board, FirstOption, Game, Preset, Rules, ScriptedDice, Seat, SeatKind};

    use super::*;
    use crate::{dice::DiceState, test_dir::TestDir};

    struct Table {
        game: Game,
        dice: DiceState,
    }

    impl Table {
        fn new(names: &[&str], dice: DiceState) -> Table {
            let rules = Rules::default();
            let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
            let seats = names.iter().map(|n| Seat::new(*n, SeatKind::Easy)).collect();
            Table { game: Game::new(board, rules, seats).unwrap(), dice }
        }

        fn save(&self) -> Save {
            Save::new(&self.game, &self.dice, "classic")
        }

        fn turn(&mut self, db: &mut Database, id: GameId) {
            let mut events = Vec::new();
            self.game.play_turn(&mut self.dice, &mut FirstOption, &mut events).unwrap();
            db.record(id, Action::Turn, &self.save(), &events, 1_000).unwrap();
        }

        fn play_out(&mut self, db: &mut Database, id: GameId) {
            while self.game.status() != Status::Finished {
                self.turn(db, id);
            }
        }
    }

    /// On the classic board — Ann: 0→6⇒25 (ladder), 31, 37, 43, 46⇒90 (ladder), 94, 99⇒54 (snake,
    /// 45 down), 60⇒85 (ladder), 91, 97, 100 in 11 rolls; Bob: 5, 10, 16, 17⇒69 (ladder), 70⇒55
    /// (snake, 15 down), 56, 57, 58, 59, 60⇒85 (ladder).
    const FIRST_SEAT_WINS: &str = "6,5,6,5,6,6,6,1,3,1,4,1,5,1,6,1,6,1,6,1,3";

    fn scripted(rolls: &str) -> DiceState {
        DiceState::Scripted(ScriptedDice::parse(rolls, snl_engine::Dice::D6).unwrap())
    }

    #[test]
    fn a_recorded_game_loads_back_as_it_stood_after_each_turn() {
        let dir = TestDir::new("db-record");
        let mut db = Database::open(&dir.path().join("games.db")).unwrap();
        let mut table = Table::new(&["Ann", "Bob"], DiceState::seeded(9));
        let id = db.new_game(&table.save(), 0).unwrap();
        for _ in 0..5 {
            table.turn(&mut db, id);
            assert_eq!(db.load(id).unwrap(), table.save());
        }
        assert_eq!(db.status(id).unwrap(), GameStatus::Playing);
        assert_eq!(db.latest_unfinished().unwrap(), Some(id));
        table.play_out(&mut db, id);
        assert_eq!(db.status(id).unwrap(), GameStatus::Finished);
        assert_eq!(db.latest_unfinished().unwrap(), None);
        let moves = db.moves(id, None).unwrap();
        assert_eq!(moves, MoveRow::from_history(&table.game.state()));
        let bob = db.moves(id, Some("Bob")).unwrap();
        assert!(bob.iter().all(|m| m.player == "Bob") && !bob.is_empty());
    }

    #[test]
    fn the_list_shows_seats_winner_and_status_newest_first() {
        let dir = TestDir::new("db-list");
        let mut db = Database::open(&dir.path().join("games.db")).unwrap();
        let mut first = Table::new(&["Ann", "Bob"], scripted("6,1,1,1"));
        let a = db.new_game(&first.save(), 10).unwrap();
        first.turn(&mut db, a);
        db.mark_stopped(a, 20).unwrap();
        let mut second = Table::new(&["Cy", "Di"], DiceState::seeded(1));
        let b = db.new_game(&second.save(), 30).unwrap();
        second.play_out(&mut db, b);
        let games = db.games().unwrap();
        assert_eq!(games.iter().map(|g| g.id).collect::<Vec<_>>(), [b, a]);
        assert_eq!(games[1].status, GameStatus::Stopped);
        assert_eq!(games[1].turns, 1);
        assert_eq!(games[1].seats[0], Seat::new("Ann", SeatKind::Easy));
        assert_eq!(games[0].status, GameStatus::Finished);
        let winner = &second.game.seats()[second.game.ranking()[0]].name;
        assert_eq!(games[0].winner.as_ref(), Some(winner));
        assert_eq!(games[0].board, "classic");
        assert_eq!(
            db.actions(a).unwrap(),
            [("start".into(), 0), ("turn".into(), 1), ("stop".into(), 1)]
        );
    }

    #[test]
    fn an_undo_deletes_the_taken_back_moves_and_a_redo_puts_them_back() {
        let dir = TestDir::new("db-undo");
        let mut db = Database::open(&dir.path().join("games.db")).unwrap();
        let mut table = Table::new(&["Ann", "Bob"], DiceState::seeded(2));
        let id = db.new_game(&table.save(), 0).unwrap();
        table.turn(&mut db, id);
        let back = table.save();
        table.turn(&mut db, id);
        table.turn(&mut db, id);
        let ahead = table.save();
        db.record(id, Action::Undo, &back, &[], 5).unwrap();
        assert_eq!(db.moves(id, None).unwrap().len(), 1);
        assert_eq!(db.load(id).unwrap(), back);
        db.record(id, Action::Redo, &ahead, &[], 6).unwrap();
        assert_eq!(db.moves(id, None).unwrap().len(), 3);
        let log: Vec<String> = db.actions(id).unwrap().into_iter().map(|(a, _)| a).collect();
        assert_eq!(log, ["start", "turn", "turn", "turn", "undo", "redo"]);
    }

    #[test]
    fn stats_count_finished_games_wins_rolls_snakes_ladders_and_the_longest_slide() {
        let dir = TestDir::new("db-stats");
        let mut db = Database::open(&dir.path().join("games.db")).unwrap();
        let mut game = Table::new(&["Ann", "Bob"], scripted(FIRST_SEAT_WINS));
        let id = db.new_game(&game.save(), 0).unwrap();
        game.play_out(&mut db, id);
        assert_eq!(game.game.ranking(), [0, 1], "{:?}", game.game.history());
        // An unfinished game does not count.
        let mut cut = Table::new(&["Ann", "Bob"], DiceState::seeded(3));
        let other = db.new_game(&cut.save(), 0).unwrap();
        cut.turn(&mut db, other);

        let stats = db.stats(None).unwrap();
        let ann = &stats[0];
        assert_eq!((ann.name.as_str(), ann.games, ann.wins, ann.finished), ("Ann", 1, 1, 1));
        assert_eq!(ann.average_rolls_to_finish, Some(f64::from(game.game.rolls_of(0))));
        assert_eq!((ann.snakes, ann.ladders, ann.longest_slide), (1, 3, 45));
        let bob = &stats[1];
        assert_eq!((bob.wins, bob.finished, bob.average_rolls_to_finish), (0, 0, None));
        assert_eq!((bob.snakes, bob.ladders, bob.longest_slide), (1, 2, 15));
        assert_eq!(db.stats(Some("Bob")).unwrap(), std::slice::from_ref(bob));
        assert!(db.stats(Some("Zed")).unwrap().is_empty());
    }

    #[test]
    fn the_leaderboard_ranks_by_wins_then_win_rate() {
        let dir = TestDir::new("db-board");
        let mut db = Database::open(&dir.path().join("games.db")).unwrap();
        let wins_for = |db: &mut Database, names: &[&str]| {
            let mut t = Table::new(names, scripted(FIRST_SEAT_WINS));
            let id = db.new_game(&t.save(), 0).unwrap();
            t.play_out(db, id);
            assert_eq!(t.game.ranking()[0], 0);
        };
        wins_for(&mut db, &["Ann", "Bob"]);
        wins_for(&mut db, &["Ann", "Cy"]);
        wins_for(&mut db, &["Bob", "Ann"]);
        wins_for(&mut db, &["Cy", "Di"]);
        let board: Vec<(String, u32, u32)> =
            db.leaderboard().unwrap().into_iter().map(|p| (p.name, p.wins, p.games)).collect();
        // Ann 2 of 3; Cy 1 of 2 and Bob 1 of 2 (tied: by name); Di 0 of 1.
        assert_eq!(
            board,
            [("Ann".into(), 2, 3), ("Bob".into(), 1, 2), ("Cy".into(), 1, 2), ("Di".into(), 0, 1)]
        );
    }

    #[test]
    fn an_old_schema_is_upgraded_and_keeps_its_games() {
        let dir = TestDir::new("db-migrate");
        let path = dir.path().join("games.db");
        let mut db = Database::open(&path).unwrap();
        db.conn
            .execute_batch(
                "DROP INDEX seats_by_name; DROP INDEX games_by_status; PRAGMA user_version = 1;",
            )
            .unwrap();
        let table = Table::new(&["Ann", "Bob"], DiceState::seeded(1));
        let id = db.new_game(&table.save(), 0).unwrap();
        drop(db);
        let db = Database::open(&path).unwrap();
        assert_eq!(db.schema_version().unwrap(), SCHEMA_VERSION);
        let indexes: u32 = db
            .conn
            .query_row("SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = 'seats_by_name'", [], |r| r.get(0))
            .unwrap();
        assert_eq!(indexes, 1);
        assert_eq!(db.load(id).unwrap(), table.save());
    }

    #[test]
    fn a_database_from_a_newer_snl_is_refused_with_its_version() {
        let dir = TestDir::new("db-newer");
        let path = dir.path().join("games.db");
        Connection::open(&path).unwrap().execute_batch("PRAGMA user_version = 7;").unwrap();
        let e = Database::open(&path).unwrap_err();
        assert_eq!(
            e.to_string(),
            "was written by a newer snl (schema 7, this snl knows up to 2): upgrade snl to use it"
        );
        assert!(matches!(Database::open_existing(&path), Err(DbError::Newer { found: 7, .. })));
    }

    #[test]
    fn a_read_only_file_is_refused_for_writing_but_can_be_read() {
        let dir = TestDir::new("db-readonly");
        let path = dir.path().join("games.db");
        let mut db = Database::open(&path).unwrap();
        let table = Table::new(&["Ann", "Bob"], DiceState::seeded(1));
        let id = db.new_game(&table.save(), 0).unwrap();
        drop(db);
        let mut perms = fs::metadata(&path).unwrap().permissions();
        perms.set_readonly(true);
        fs::set_permissions(&path, perms).unwrap();
        assert!(matches!(Database::open(&path), Err(DbError::ReadOnly)));
        let db = Database::open_existing(&path).unwrap();
        assert_eq!(db.games().unwrap().len(), 1);
        assert_eq!(db.load(id).unwrap(), table.save());
    }

    #[test]
    fn a_locked_database_says_so() {
        let dir = TestDir::new("db-locked");
        let path = dir.path().join("games.db");
        let mut db = Database::open(&path).unwrap();
        let holder = Connection::open(&path).unwrap();
        holder.execute_batch("BEGIN EXCLUSIVE;").unwrap();
        let table = Table::new(&["Ann", "Bob"], DiceState::seeded(1));
        let e = db.new_game(&table.save(), 0).unwrap_err();
        assert!(matches!(e, DbError::Locked), "{e}");
        assert_eq!(e.to_string(), "is locked by another program");
        holder.execute_batch("ROLLBACK;").unwrap();
        assert!(db.new_game(&table.save(), 0).is_ok());
    }

    #[test]
    fn a_missing_database_is_not_created_just_to_read_it() {
        let dir = TestDir::new("db-missing");
        let path = dir.path().join("games.db");
        assert!(matches!(Database::open_existing(&path), Err(DbError::Missing)));
        assert!(!path.exists());
    }

    #[test]
    fn a_big_seed_is_kept_bit_for_bit() {
        let dir = TestDir::new("db-seed");
        let mut db = Database::open(&dir.path().join("games.db")).unwrap();
        let table = Table::new(&["Ann", "Bob"], DiceState::seeded(u64::MAX - 1));
        let id = db.new_game(&table.save(), 0).unwrap();
        let seed: i64 = db
            .conn
            .query_row("SELECT seed FROM games WHERE id = ?1", [id.0], |r| r.get(0))
            .unwrap();
        assert_eq!(seed as u64, u64::MAX - 1);
    }
}
