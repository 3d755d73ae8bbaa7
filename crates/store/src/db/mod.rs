// Long on purpose: the database's one writer (open, schema, durability, runs of turns, undo) kept with the reasons for its choices; reads live in query.rs.
//! The game database: every game recorded turn by turn in SQLite, for resume, replay, history,
//! statistics and the leaderboard.
//!
//! Durability: WAL with `synchronous = NORMAL` — a committed turn is in the WAL file as soon as
//! it is written, which a killed process (`kill -9`) cannot take back; only a power cut may lose
//! the last commits, never corrupt the file. Recording appends (`progress`): a write adds its
//! moves and its log line and rewrites only the game's small head, so a turn costs the same at
//! turn 10,000 as at turn 10. The `games` row keeps the save the game began with, the
//! `move_runs`, `seats` and `actions` tables the game as it stands; `load` puts them together
//! for `resume`.
//!
//! Rows per write, not per turn (`runs`, schema 4): the moves one write adds are one row of
//! `move_runs` (a JSON array of the moves), the turns it adds one `turn` line of the log (their
//! events together), and each seat keeps its snakes, ladders and longest slide in its row for
//! the statistics. With a row per move and a log line per turn, SQLite's inserts cost about ten
//! times what playing a turn costs (a 20,000-cell game of 11,367 turns took 0.22 s recorded
//! against 0.02 s unrecorded); with the session gathering up to 1024 computer turns into one
//! write, recording now costs a fraction of a row per turn. A person's turn is still written at
//! once, as its own run, so `kill -9` loses at most the turn in flight (computer turns held
//! back are played again the same way on resume). The indexes are the primary keys and the two
//! that `stats`, `leaderboard` and `resume` look up by, on tables of a row per game or seat.
//! Schema 3's rows (a row per move) become one run per game when the file is first opened for
//! writing, or for reading where it can be written.
//!
//! Many processes may record into one database at once: every write is a `BEGIN IMMEDIATE`
//! transaction, so writers queue for SQLite's one write lock (WAL lets readers go on meanwhile),
//! and a writer waits up to [`BUSY_TIMEOUT`] for its turn, retrying, before it gives up. A game
//! whose recording did stop is marked so ([`GameStatus::Incomplete`]) when the database lets that
//! mark be written, so it is never mistaken for a game cut off by a kill.
//!
//! Reading never writes: [`Database::open_existing`] opens the file read-only (or, in a folder
//! where SQLite cannot make its WAL index, as an immutable file), never creates a schema, and reads
//! every row strictly — a value it does not know is [`DbError::BadRow`], naming the game and row.
//!
//! The module is split by role: `schema` (versions and migrations), `write` (recording),
//! `progress` (recording that appends), `runs` (moves kept in runs, written and read back),
//! `query` (reading), `series` (series of games and achievements, schema 5).

mod progress;
mod query;
mod runs;
mod schema;
mod series;
mod write;

use std::{
    fs,
    path::{Path, PathBuf},
    time::Duration,
};

use rusqlite::{Connection, ErrorCode, OpenFlags};

pub use progress::Logged;
pub use query::{MoveRow, PlayerStats};
pub use schema::SCHEMA_VERSION;
pub use series::{Earned, NewSeries, SeriesSummary};
pub use snl_wire::records::{GameId, GameStatus, GameSummary, SeriesId};

use crate::save::SaveError;

/// How long a write waits, retrying, for other writers (other games being recorded into the same
/// database) before it gives up. A turn holds the write lock for milliseconds, so only a program
/// that keeps the lock for good makes a writer wait this long.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// The WAL is copied into the database (a checkpoint, which waits for the disk) once it holds
/// this many pages of 4 KiB.
const WAL_PAGES: u32 = 8192;

/// A connection that could write copies the WAL into the database when it closes once the WAL
/// is this large (bytes). Every process that opens the database first reads the whole WAL
/// through, checking each frame's checksum, to rebuild its index: with the log left to grow to
/// [`WAL_PAGES`] (32 MiB), a 4-seat classic game cost about three times as much just before the
/// checkpoint as on a fresh database (issue 29, 74% of its instructions in SQLite's
/// `walChecksumBytes`). Past 4 MiB, the copy at close (about one in a few hundred classic
/// games) costs less than what the next processes would spend reading the log.
const WAL_CHECKPOINT_AT_CLOSE: u64 = 4 << 20;

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
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Action::Turn => "turn",
            Action::Undo => "undo",
            Action::Redo => "redo",
            Action::Resume => "resume",
        }
    }
}

/// Why the database could not be used. Messages complete the sentence "the game database PATH …"
/// or stand after its name.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DbError {
    /// The file does not exist (nothing was ever recorded there).
    #[error("does not exist yet: no game has been recorded there")]
    Missing,
    /// The file is there but empty: nothing was ever recorded there.
    #[error("is empty: no game has been recorded there")]
    Empty,
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
    /// Another program held the lock for longer than [`BUSY_TIMEOUT`].
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
    /// A row holding a value this snl does not know (an unknown status, seat kind or move kind, a
    /// number out of range): the file was edited or damaged.
    #[error("holds game {id}, but its {row} {problem} (edited or damaged)")]
    BadRow {
        /// The game.
        id: GameId,
        /// Which row, in words ("games row", "move 5", "seat 2").
        row: String,
        /// What is wrong with it.
        problem: String,
    },
    /// Not an SQLite database, or a damaged one.
    #[error("is damaged or is not a game database ({0})")]
    Damaged(String),
    /// The folder for a new database could not be made.
    #[error("cannot be created: {0}")]
    Folder(std::io::Error),
    /// Anything else SQLite reports (a full disk, an I/O error), told without the statement it
    /// was running.
    #[error("cannot be used: {}", sqlite_message(.0))]
    Sqlite(rusqlite::Error),
}

impl DbError {
    /// Whether the fault lies in the file or in what was asked of it — a database that is missing,
    /// empty, damaged, edited, from a newer snl, or without the game asked for (bad input, exit 2
    /// in SPEC §7) — rather than in the machine at the moment (locked, read-only, a full disk).
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            DbError::Missing
                | DbError::Empty
                | DbError::Newer { .. }
                | DbError::Stale { .. }
                | DbError::NoSuchGame(_)
                | DbError::BadGame { .. }
                | DbError::BadRow { .. }
                | DbError::Damaged(_)
        )
    }
}

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> DbError {
        match e.sqlite_error_code() {
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => DbError::Locked,
            Some(ErrorCode::ReadOnly) => DbError::ReadOnly,
            Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => {
                DbError::Damaged(sqlite_message(&e))
            }
            // A table or column this snl needs is missing or of another shape: the file was
            // edited (or made by another program), which is the file's fault, not the machine's.
            _ if is_schema_problem(&sqlite_message(&e)) => {
                DbError::Damaged(format!("{}: its tables were edited", sqlite_message(&e)))
            }
            _ => DbError::Sqlite(e),
        }
    }
}

/// What SQLite said, without the SQL statement it was preparing (rusqlite's own message adds the
/// whole statement and an offset, which mean nothing to a user), cut to 40 characters.
fn sqlite_message(e: &rusqlite::Error) -> String {
    let message = match e {
        rusqlite::Error::SqlInputError { msg, .. }
        | rusqlite::Error::SqliteFailure(_, Some(msg)) => msg.clone(),
        other => other.to_string(),
    };
    match message.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &message[..cut]),
        None => message,
    }
}

/// Whether SQLite's message says the schema is not the one this snl made (a missing table or
/// column, a table of another shape).
fn is_schema_problem(message: &str) -> bool {
    ["no such column", "no such table", "has no column named", "columns but", "values for"]
        .iter()
        .any(|m| message.contains(m))
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
    busy_timeout: Duration,
    /// A schema-3 database that cannot be upgraded (read-only), read as it is: a row per move in
    /// `moves`, no tallies in `seats`.
    pub(crate) moves_by_row: bool,
    /// A database before schema 5 that cannot be upgraded (read-only), read as it is: no
    /// series, no achievements.
    pub(crate) before_series: bool,
    /// Opened for writing: when dropped, copies a large WAL into the database
    /// ([`WAL_CHECKPOINT_AT_CLOSE`]).
    writer: bool,
}

impl Database {
    /// Opens (creating it and its folder if needed) the database at `path` for recording, and
    /// upgrades its schema. Waits up to [`BUSY_TIMEOUT`] for other writers.
    ///
    /// # Errors
    ///
    /// [`DbError::ReadOnly`] for a file marked read-only or that cannot be written,
    /// [`DbError::Locked`], [`DbError::Newer`], [`DbError::Damaged`], and whatever SQLite
    /// reports.
    pub fn open(path: &Path) -> Result<Database, DbError> {
        Database::open_at(path, SCHEMA_VERSION)
    }

    /// [`Database::open`] with the schema taken to `version` only (tests build older databases).
    pub(crate) fn open_at(path: &Path, version: u32) -> Result<Database, DbError> {
        if fs::metadata(path).is_ok_and(|m| m.permissions().readonly()) {
            // Root could write anyway; a file marked read-only is the user's wish all the same.
            return Err(DbError::ReadOnly);
        }
        if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            fs::create_dir_all(folder).map_err(DbError::Folder)?;
        }
        let new = !fs::metadata(path).is_ok_and(|m| m.len() > 0);
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)?;
        let mut db = Database {
            conn,
            path: path.to_owned(),
            busy_timeout: BUSY_TIMEOUT,
            moves_by_row: false,
            before_series: false,
            writer: true,
        };
        db.conn.busy_timeout(BUSY_TIMEOUT)?;
        if db.conn.is_readonly("main")? {
            // SQLite opens a file the system will not let it write read-only, without a word.
            return Err(DbError::ReadOnly);
        }
        db.check_version()?;
        if new {
            // A file that holds nothing yet is set up (WAL, then the schema) without waiting for
            // the disk: six fsyncs, more than the whole of a long game costs otherwise. A power
            // cut in those milliseconds could only lose a database without a game in it.
            db.conn.pragma_update(None, "synchronous", "OFF")?;
        }
        db.retrying(|conn| {
            // Asked first: switching needs every other connection gone, staying does not.
            let mode: String = conn.pragma_query_value(None, "journal_mode", |r| r.get(0))?;
            if !mode.eq_ignore_ascii_case("wal") {
                conn.pragma_update(None, "journal_mode", "WAL")?;
            }
            Ok(())
        })?;
        // WAL with synchronous = NORMAL: a commit is in the WAL file once written, which a killed
        // process cannot undo; only checkpoints wait for the disk. Closing leaves a small WAL to
        // a later checkpoint, so a game seldom waits for the disk at all: one comes once the WAL
        // holds `WAL_PAGES` pages (32 MiB: about ten 20,000-cell games) while writing, or at
        // close past `WAL_CHECKPOINT_AT_CLOSE` (4 MiB), since every process that opens the file
        // reads the whole WAL through first (`Drop`).
        db.conn
            .set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)?;
        db.conn.pragma_update(None, "wal_autocheckpoint", WAL_PAGES)?;
        db.conn.pragma_update(None, "foreign_keys", true)?;
        db.migrate(version)?;
        db.conn.pragma_update(None, "synchronous", "NORMAL")?;
        Ok(db)
    }

    /// Opens an existing database to read it, never writing to it: read-only, or as an immutable
    /// file when SQLite cannot make its WAL index beside it (a read-only folder). An older schema
    /// is upgraded first when the file can be written; an empty file is left empty.
    ///
    /// # Errors
    ///
    /// [`DbError::Missing`] when there is no file, [`DbError::Empty`] for an empty one,
    /// [`DbError::Damaged`] for one that is not a database, [`DbError::Newer`],
    /// [`DbError::Stale`], and whatever SQLite reports.
    pub fn open_existing(path: &Path) -> Result<Database, DbError> {
        if !path.exists() {
            return Err(DbError::Missing);
        }
        let db = Database::read_only(path)?;
        match db.check_version()? {
            SCHEMA_VERSION => Ok(db),
            0 if db.is_empty()? => Err(DbError::Empty),
            0 => Err(DbError::Damaged("it has tables but no snl schema version".into())),
            found => {
                drop(db);
                match Database::open(path) {
                    Ok(_) => Database::open_existing(path),
                    // Schemas 3 (before runs of moves), 4 (before series and achievements) and 5
                    // (before a series' setup) are read as they are where they cannot be
                    // upgraded; older ones lack what the readers need.
                    Err(DbError::ReadOnly | DbError::Locked) if matches!(found, 3..=5) => {
                        let mut db = Database::read_only(path)?;
                        db.moves_by_row = found == 3;
                        db.before_series = found < 5;
                        Ok(db)
                    }
                    Err(DbError::ReadOnly | DbError::Locked) => Err(DbError::Stale { found }),
                    Err(e) => Err(e),
                }
            }
        }
    }

    /// The database at `path`, opened read-only.
    fn read_only(path: &Path) -> Result<Database, DbError> {
        let conn = match connect_read_only(path, false) {
            Err(e) if cannot_make_wal_index(&e) => connect_read_only(path, true)?,
            other => other?,
        };
        Ok(Database {
            conn,
            path: path.to_owned(),
            busy_timeout: BUSY_TIMEOUT,
            moves_by_row: false,
            before_series: false,
            writer: false,
        })
    }

    /// Where the database is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Changes how long a write waits for other writers (default [`BUSY_TIMEOUT`]).
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports.
    pub fn set_busy_timeout(&mut self, timeout: Duration) -> Result<(), DbError> {
        self.conn.busy_timeout(timeout)?;
        self.busy_timeout = timeout;
        Ok(())
    }
}

impl Drop for Database {
    /// Copies the WAL into the database and empties it when this connection could write and the
    /// WAL is past `WAL_CHECKPOINT_AT_CLOSE` (4 MiB), so the next process does not read it all
    /// through again. Never waits: when another connection is at work (busy) the WAL is left to
    /// it, to its own close or to the checkpoint at `WAL_PAGES`; a failure here loses nothing.
    fn drop(&mut self) {
        if !self.writer {
            return;
        }
        let mut wal = self.path.clone().into_os_string();
        wal.push("-wal");
        if fs::metadata(&wal).map_or(0, |m| m.len()) <= WAL_CHECKPOINT_AT_CLOSE {
            return;
        }
        if self.conn.busy_timeout(Duration::ZERO).is_ok() {
            let _ =
                self.conn.wal_checkpoint_v2(None::<&str>, rusqlite::wal::CheckpointMode::TRUNCATE);
        }
    }
}

/// A read-only connection to `path` that has read the schema once, so that a file that is not a
/// database, or whose WAL index cannot be made, fails here. `immutable` tells SQLite that no one
/// changes the file meanwhile, so it needs no WAL index (nor reads a WAL left beside it).
fn connect_read_only(path: &Path, immutable: bool) -> rusqlite::Result<Connection> {
    let uri =
        format!("file:{}?mode=ro{}", uri_path(path), if immutable { "&immutable=1" } else { "" });
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
        | OpenFlags::SQLITE_OPEN_URI
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(uri, flags)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| r.get::<_, i64>(0))?;
    Ok(conn)
}

/// Whether opening read-only failed because SQLite could not make the WAL index (`-shm`) beside
/// the file: a WAL database in a folder the reader cannot write.
fn cannot_make_wal_index(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::CannotOpen | ErrorCode::ReadOnly | ErrorCode::SystemIoFailure)
    )
}

/// `path` for an SQLite `file:` URI: every byte but the unreserved ones and `/` percent-encoded.
fn uri_path(path: &Path) -> String {
    use std::fmt::Write;
    let mut text = String::new();
    for &b in path.as_os_str().as_encoded_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            text.push(b as char);
        } else {
            let _ = write!(text, "%{b:02X}");
        }
    }
    text
}

#[cfg(test)]
mod tests;
