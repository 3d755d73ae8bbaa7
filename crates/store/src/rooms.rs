// Long because the room tables, their migrations and the batched write are one schema read together; a fifth is tests.
//! Online rooms kept in the game database (`snl serve`): each room's setup, its seats with the
//! hashes of their tokens (never a token), the log of commands that rebuilds its game, and every
//! event it sent, numbered. The server writes a batch of rooms' changes in one transaction
//! before it sends their events, and reads the unfinished rooms back when it starts.
//!
//! The room tables have their own schema step ([`ROOM_SCHEMA_VERSION`], kept in the table
//! `room_schema`), so they change independently of the game tables.
//!
//! ```
//! use snl_store::{RoomStore, RoomWrite};
//! # let dir = std::env::temp_dir().join(format!("snl-rooms-doc-{}", std::process::id()));
//! # let _ = std::fs::remove_dir_all(&dir);
//! let mut store = RoomStore::open(&dir.join("games.db"))?;
//! store.write(&[
//!     RoomWrite::Create { room: "r1".into(), setup: "{}".into(), now_ms: 0 },
//!     RoomWrite::Log { room: "r1".into(), number: 1, command: "c1".into() },
//!     RoomWrite::Event { room: "r1".into(), seq: 1, event: "e1".into() },
//! ])?;
//! let rooms = store.unfinished()?;
//! assert_eq!(rooms[0].log, ["c1"]);
//! assert_eq!(rooms[0].events, ["e1"]);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::{collections::HashMap, path::Path};

use rusqlite::{OptionalExtension, params};

use snl_engine::Event;
use snl_wire::{ChatEntry, GameId, ServerFrame};

use crate::db::{Database, DbError};

/// The room tables' schema version.
pub const ROOM_SCHEMA_VERSION: u32 = 5;

/// Each step takes the room tables from its index to the next version.
const ROOM_MIGRATIONS: [&str; ROOM_SCHEMA_VERSION as usize] = [
    // 1: rooms, their seats, their command logs and their events.
    "CREATE TABLE rooms (
        id          TEXT    PRIMARY KEY,
        created_ms  INTEGER NOT NULL,
        setup       TEXT    NOT NULL,
        over        INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE room_seats (
        room        TEXT    NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
        seat        INTEGER NOT NULL,
        name        TEXT    NOT NULL,
        token_hash  BLOB    NOT NULL,
        PRIMARY KEY (room, seat)
    ) WITHOUT ROWID;
    CREATE TABLE room_log (
        room     TEXT    NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
        number   INTEGER NOT NULL,
        command  TEXT    NOT NULL,
        PRIMARY KEY (room, number)
    ) WITHOUT ROWID;
    CREATE TABLE room_events (
        room   TEXT    NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
        seq    INTEGER NOT NULL,
        event  TEXT    NOT NULL,
        PRIMARY KEY (room, seq)
    ) WITHOUT ROWID;",
    // 2: the log and the events in rowid tables, with their (room, number) and (room, seq)
    // unique in an index. Rows kept by room (version 1) put each room's new rows on a page of
    // its own, so a commit of many rooms' moves wrote about 8 pages per move; appended rows
    // share the last pages, and only the small index entries stay by room.
    "CREATE TABLE room_log_2 (
        room     TEXT    NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
        number   INTEGER NOT NULL,
        command  TEXT    NOT NULL,
        UNIQUE (room, number)
    );
    INSERT INTO room_log_2 (room, number, command)
        SELECT room, number, command FROM room_log ORDER BY room, number;
    DROP TABLE room_log;
    ALTER TABLE room_log_2 RENAME TO room_log;
    CREATE TABLE room_events_2 (
        room   TEXT    NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
        seq    INTEGER NOT NULL,
        event  TEXT    NOT NULL,
        UNIQUE (room, seq)
    );
    INSERT INTO room_events_2 (room, seq, event)
        SELECT room, seq, event FROM room_events ORDER BY room, seq;
    DROP TABLE room_events;
    ALTER TABLE room_events_2 RENAME TO room_events;",
    // 3: the chat said in a room whose game is recorded, by the game's id, each line with the
    // number of the game's events told before it (for the game's replay).
    "CREATE TABLE game_chat (
        game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        number   INTEGER NOT NULL,
        at       INTEGER NOT NULL,
        player   TEXT    NOT NULL,
        text     TEXT    NOT NULL,
        PRIMARY KEY (game_id, number)
    );",
    // 4: the room each recorded online game was played in. Its chat is read from the room's
    // events, where it is already kept: a line is stored once (`game_chat` stays for the
    // games recorded before, and gets no new rows).
    "CREATE TABLE game_rooms (
        game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        room     TEXT    NOT NULL REFERENCES rooms (id)
    );",
    // 5: a room's commands and events of one commit in one row, not a row and an index entry
    // each: a commit of many rooms wrote a page of each of two indexes for every room in it
    // (their entries are kept by room), now of one. A row holds its commands numbered
    // `first_number..=last_number` and its events numbered `first_seq..=last_seq` (an empty
    // range, `first = last + 1`, when it has none), each column one item or several joined by
    // line breaks (an item with a line break is its column's only one). Each room's numbers go
    // on from its last row's, each once: the index is unique and the trigger refuses a gap.
    "CREATE TABLE room_batches (
        room          TEXT    NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
        first_seq     INTEGER NOT NULL,
        last_seq      INTEGER NOT NULL,
        first_number  INTEGER NOT NULL,
        last_number   INTEGER NOT NULL,
        commands      TEXT    NOT NULL,
        events        TEXT    NOT NULL
    );
    INSERT INTO room_batches
        SELECT room, seq, seq, 1, 0, '', event FROM room_events ORDER BY room, seq;
    INSERT INTO room_batches
        SELECT l.room, s.seq + 1, s.seq, l.number, l.number, l.command, ''
        FROM room_log l,
             (SELECT coalesce((SELECT max(seq) FROM room_events e WHERE e.room = r.id), 0) AS seq,
                     r.id AS room FROM rooms r) s
        WHERE s.room = l.room ORDER BY l.room, l.number;
    DROP TABLE room_events;
    DROP TABLE room_log;
    CREATE UNIQUE INDEX room_batches_numbers ON room_batches (room, last_seq, last_number);
    CREATE TRIGGER room_batches_numbered BEFORE INSERT ON room_batches
    BEGIN
        SELECT RAISE(ABORT, 'a room''s numbers are out of order')
        FROM (SELECT
            coalesce((SELECT last_seq FROM room_batches WHERE room = NEW.room
                      ORDER BY last_seq DESC, last_number DESC LIMIT 1), 0) AS seq,
            coalesce((SELECT last_number FROM room_batches WHERE room = NEW.room
                      ORDER BY last_seq DESC, last_number DESC LIMIT 1), 0) AS number)
        WHERE NEW.first_seq <> seq + 1 OR NEW.first_number <> number + 1
           OR NEW.last_seq < seq OR NEW.last_number < number;
    END;",
];

/// The commands and events of one room in one commit, gathered into its row of
/// `room_batches`.
#[derive(Default)]
struct Batch {
    /// The first and last command's numbers, and the commands joined by line breaks.
    commands: Option<(u64, u64, String)>,
    /// The first and last event's numbers, and the events joined by line breaks.
    events: Option<(u64, u64, String)>,
    /// Whether an item holds a line break: it must be its column's only one.
    sealed: bool,
}

impl Batch {
    /// Adds command or event `number` to this row; `false` when it must begin a row of its
    /// own (it does not follow the last one, or a line break is in one of them).
    fn add(&mut self, events: bool, number: u64, item: &str) -> bool {
        let broken = item.contains('\n');
        let column = if events { &mut self.events } else { &mut self.commands };
        match column {
            None => {
                *column = Some((number, number, item.to_owned()));
                self.sealed |= broken;
                true
            }
            Some((_, last, text)) if !self.sealed && !broken && number == *last + 1 => {
                *last = number;
                text.push('\n');
                text.push_str(item);
                true
            }
            Some(_) => false,
        }
    }
}

/// Inserts a [`Batch`]'s row; a column it has nothing in is an empty range after the room's
/// last row's.
const INSERT_BATCH: &str = "INSERT INTO room_batches
        (room, first_number, last_number, commands, first_seq, last_seq, events)
    VALUES (?1,
        coalesce(?2, coalesce((SELECT last_number FROM room_batches WHERE room = ?1
                               ORDER BY last_seq DESC, last_number DESC LIMIT 1), 0) + 1),
        coalesce(?3, coalesce((SELECT last_number FROM room_batches WHERE room = ?1
                               ORDER BY last_seq DESC, last_number DESC LIMIT 1), 0)),
        coalesce(?4, ''),
        coalesce(?5, coalesce((SELECT last_seq FROM room_batches WHERE room = ?1
                               ORDER BY last_seq DESC, last_number DESC LIMIT 1), 0) + 1),
        coalesce(?6, coalesce((SELECT last_seq FROM room_batches WHERE room = ?1
                               ORDER BY last_seq DESC, last_number DESC LIMIT 1), 0)),
        coalesce(?7, ''))";

/// A column of a [`Batch`] as its row's values (none when the row has nothing in it).
fn range(column: Option<&(u64, u64, String)>) -> (Option<i64>, Option<i64>, Option<&str>) {
    match column {
        Some((first, last, text)) => {
            (Some(first.cast_signed()), Some(last.cast_signed()), Some(text.as_str()))
        }
        None => (None, None, None),
    }
}

/// Splits a column of `count` items as [`Batch`] joined them.
fn items(text: String, count: u64) -> rusqlite::Result<Vec<String>> {
    if count == 1 {
        return Ok(vec![text]);
    }
    let items: Vec<String> = text.split('\n').map(str::to_owned).collect();
    if items.len() as u64 == count {
        Ok(items)
    } else {
        Err(rusqlite::Error::InvalidColumnType(
            0,
            "a batch of the wrong length".into(),
            rusqlite::types::Type::Text,
        ))
    }
}

/// One change to a room, written with others in one transaction by [`RoomStore::write`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RoomWrite {
    /// A new room and its setup (opaque text, JSON by the server).
    Create {
        /// The room's id.
        room: String,
        /// What the room was created with.
        setup: String,
        /// Milliseconds since the Unix epoch.
        now_ms: u64,
    },
    /// A seat taken: the player's name and the hash of the seat's token.
    Seat {
        /// The room.
        room: String,
        /// The seat's index.
        seat: usize,
        /// Who took it.
        name: String,
        /// The token's hash (never the token).
        token_hash: Vec<u8>,
    },
    /// The next command of the room's log (numbered from 1).
    Log {
        /// The room.
        room: String,
        /// The command's number.
        number: u64,
        /// The command (opaque text).
        command: String,
    },
    /// An event sent to the room's clients, with its sequence number.
    Event {
        /// The room.
        room: String,
        /// The event's sequence number (1, 2, …).
        seq: u64,
        /// The event (opaque text).
        event: String,
    },
    /// The room's game is over: it is not restored any more.
    Over {
        /// The room.
        room: String,
    },
}

/// Pages in the WAL (of 4 KiB) past which [`RoomStore::checkpoint_elsewhere`] asks for a
/// checkpoint: 128 MiB. The pages a busy server changes again and again (the index's page of
/// each room in play) are copied once per checkpoint however often they were written: with
/// 5,000 rooms in play the CPU per move was 9% less than with 32 MiB.
pub const CHECKPOINT_PAGES: i32 = 32768;

/// A connection of its own that copies the WAL into the database (a passive checkpoint), on a
/// thread beside the writer's; see [`RoomStore::checkpoint_elsewhere`].
#[derive(Debug)]
pub struct Checkpointer {
    conn: rusqlite::Connection,
}

impl Checkpointer {
    /// Copies into the database what the log holds and no reader still needs, without waiting
    /// for the writer (it goes on appending meanwhile); the log starts again from its
    /// beginning at the first commit after a pass that copied all of it. Returns the pages in
    /// the log and the pages copied so far.
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports.
    pub fn run(&self) -> Result<(i32, i32), DbError> {
        Ok(self.conn.wal_checkpoint_v2(None::<&str>, rusqlite::wal::CheckpointMode::PASSIVE)?)
    }
}

/// A room as stored: what rebuilds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredRoom {
    /// The room's id.
    pub id: String,
    /// Its setup.
    pub setup: String,
    /// Seats taken: index, name, token hash.
    pub seats: Vec<(usize, String, Vec<u8>)>,
    /// Its commands in order (command `i + 1` at index `i`).
    pub log: Vec<String>,
    /// Its events in order (event `seq` at index `seq - 1`).
    pub events: Vec<String>,
}

/// The game database opened for the server's rooms.
#[derive(Debug)]
pub struct RoomStore {
    db: Database,
}

impl RoomStore {
    /// Opens (creating if needed) the database at `path` and its room tables.
    ///
    /// # Errors
    ///
    /// As [`Database::open`].
    pub fn open(path: &Path) -> Result<RoomStore, DbError> {
        let mut db = Database::open(path)?;
        migrate(&mut db)?;
        // One plan per statement, whatever is bound to it. Without this SQLite compiles the
        // batch insert (its subqueries and the trigger that checks the numbers) again at
        // every row: a parameter it compares with a value marks the statement to be prepared
        // anew whenever that parameter's value changes, and every row binds another room
        // (a profile of `snl serve` found 7% of its CPU re-preparing).
        db.conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
        Ok(RoomStore { db })
    }

    /// Whether every commit waits for the disk (`FULL`, as `snl play` records: safe against a
    /// power cut) or only for the operating system (`NORMAL` in WAL mode: safe against the
    /// process being killed at any moment, which is what a server must survive; a power cut may
    /// lose the last commits). The server's default is `NORMAL`, for throughput.
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports.
    pub fn set_fsync(&mut self, every_commit: bool) -> Result<(), DbError> {
        let mode = if every_commit { "FULL" } else { "NORMAL" };
        self.db.conn.pragma_update(None, "synchronous", mode)?;
        Ok(())
    }

    /// Takes the WAL's checkpoints off this connection's commits, for a writer that must not
    /// stall: after each commit that leaves `pages` or more pages in the log (the server uses
    /// [`CHECKPOINT_PAGES`]), `due` is called, and another thread copies the log into the
    /// database through the returned [`Checkpointer`], pass after pass while it stays that
    /// long, as this connection goes on committing. The log starts again from its beginning
    /// once a pass has copied all of it before the next commit; if commits never leave it that
    /// moment, a commit that finds four times `pages` copies the few pages left itself, so the
    /// log cannot grow without bound.
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports opening the checkpointer's connection.
    pub fn checkpoint_elsewhere(
        &mut self,
        pages: i32,
        mut due: impl FnMut() + Send + 'static,
    ) -> Result<Checkpointer, DbError> {
        let flags =
            rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = rusqlite::Connection::open_with_flags(self.db.path(), flags)?;
        conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)?;
        // A connection finds the database in WAL mode at its first read; until then it would
        // refuse every checkpoint.
        let _: String = conn.pragma_query_value(None, "journal_mode", |r| r.get(0))?;
        self.db.conn.wal_hook(Some(move |wal: &mut rusqlite::hooks::Wal, held: i32| {
            if held >= pages.saturating_mul(4) {
                // A checkpointer that cannot keep up: the log is copied here (the few pages it
                // has not copied yet), and the next commit starts it again. Never an error of
                // the commit, which is done: while the checkpointer is at work this one is
                // refused (busy), and a later commit tries again.
                let _ = wal.checkpoint();
            } else if held >= pages {
                due();
            }
            Ok(())
        }))?;
        Ok(Checkpointer { conn })
    }

    /// The game database itself (to record finished games as `snl play` does).
    pub fn database(&mut self) -> &mut Database {
        &mut self.db
    }

    /// Writes every change in one transaction: all of them or none.
    ///
    /// # Errors
    ///
    /// [`DbError::Locked`], [`DbError::ReadOnly`], and whatever SQLite reports (a command number
    /// or sequence number written twice among them).
    pub fn write(&mut self, writes: &[RoomWrite]) -> Result<(), DbError> {
        self.write_all(writes)
    }

    /// [`RoomStore::write`] for changes gathered from several places (the server's group
    /// commit), without copying them into one slice.
    ///
    /// # Errors
    ///
    /// As [`RoomStore::write`].
    pub fn write_all<'a>(
        &mut self,
        writes: impl IntoIterator<Item = &'a RoomWrite>,
    ) -> Result<(), DbError> {
        let tx =
            self.db.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        // Each room's commands and events, gathered into its rows, in the order the rooms came.
        let mut order: Vec<&str> = Vec::new();
        let mut batches: HashMap<&str, Vec<Batch>> = HashMap::new();
        let mut gather = |room: &'a str, number: u64, item: &str, events: bool| {
            let rows = batches.entry(room).or_insert_with(|| {
                order.push(room);
                Vec::new()
            });
            if !rows.last_mut().is_some_and(|row| row.add(events, number, item)) {
                let mut row = Batch::default();
                row.add(events, number, item);
                rows.push(row);
            }
        };
        for write in writes {
            match write {
                RoomWrite::Create { room, setup, now_ms } => {
                    tx.prepare_cached(
                        "INSERT INTO rooms (id, created_ms, setup) VALUES (?1, ?2, ?3)",
                    )?
                    .execute(params![room, now_ms.cast_signed(), setup])?;
                }
                RoomWrite::Seat { room, seat, name, token_hash } => {
                    tx.prepare_cached(
                        "INSERT INTO room_seats (room, seat, name, token_hash)
                         VALUES (?1, ?2, ?3, ?4)",
                    )?
                    .execute(params![
                        room,
                        i64::try_from(*seat).unwrap_or(i64::MAX),
                        name,
                        token_hash
                    ])?;
                }
                RoomWrite::Log { room, number, command } => gather(room, *number, command, false),
                RoomWrite::Event { room, seq, event } => gather(room, *seq, event, true),
                RoomWrite::Over { room } => {
                    tx.prepare_cached("UPDATE rooms SET over = 1 WHERE id = ?1")?
                        .execute([room])?;
                }
            }
        }
        // A column a row has nothing in is an empty range after the room's last row's.
        let mut insert = tx.prepare_cached(INSERT_BATCH)?;
        for room in order {
            for row in batches.remove(room).unwrap_or_default() {
                let (first_number, last_number, commands) = range(row.commands.as_ref());
                let (first_seq, last_seq, events) = range(row.events.as_ref());
                insert.execute(params![
                    room,
                    first_number,
                    last_number,
                    commands,
                    first_seq,
                    last_seq,
                    events
                ])?;
            }
        }
        drop(insert);
        tx.commit()?;
        Ok(())
    }

    /// Every room whose game is not over, oldest first, with its seats, log and events.
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports.
    pub fn unfinished(&self) -> Result<Vec<StoredRoom>, DbError> {
        let mut rooms = self
            .db
            .conn
            .prepare("SELECT id, setup FROM rooms WHERE over = 0 ORDER BY created_ms, id")?;
        let heads = rooms
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?
            .collect::<Result<Vec<_>, _>>()?;
        heads.into_iter().map(|(id, setup)| self.rest_of(id, setup)).collect()
    }

    /// Links recorded game `game` to `room`, the room it was played in: its chat is then read
    /// from the room's events ([`Database::chat`]).
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports (a game linked twice among them).
    pub fn link_game(&mut self, game: GameId, room: &str) -> Result<(), DbError> {
        self.db.conn.execute(
            "INSERT INTO game_rooms (game_id, room) VALUES (?1, ?2)",
            params![game.0, room],
        )?;
        Ok(())
    }

    /// Keeps `lines` as the chat of recorded game `game` in the table the games recorded
    /// before room schema 4 used (for tests of the databases they left).
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports (a line kept twice among them).
    #[doc(hidden)]
    pub fn keep_chat_as_before(
        &mut self,
        game: GameId,
        lines: &[ChatEntry],
    ) -> Result<(), DbError> {
        let tx = self.db.conn.transaction()?;
        {
            let mut insert = tx.prepare_cached(
                "INSERT INTO game_chat (game_id, number, at, player, text) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?;
            for (number, line) in (1_i64..).zip(lines) {
                insert.execute(params![
                    game.0,
                    number,
                    line.at.cast_signed(),
                    line.player,
                    line.text
                ])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Room `id` with its seats, log and events, whether its game is over or not; `None` when
    /// there is no such room.
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports.
    pub fn room(&self, id: &str) -> Result<Option<StoredRoom>, DbError> {
        let setup: Option<String> = self
            .db
            .conn
            .query_row("SELECT setup FROM rooms WHERE id = ?1", [id], |r| r.get(0))
            .optional()?;
        setup.map(|setup| self.rest_of(id.to_owned(), setup)).transpose()
    }

    /// Room `id`'s events with sequence numbers in `after + 1 ..= upto`, in order (what a
    /// connection resuming with `since` missed). Fewer than asked when fewer are stored.
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports.
    pub fn events_between(&self, id: &str, after: u64, upto: u64) -> Result<Vec<String>, DbError> {
        let mut rows = self.db.conn.prepare_cached(
            "SELECT first_seq, last_seq, events FROM room_batches
             WHERE room = ?1 AND last_seq > ?2 AND first_seq <= ?3 AND last_seq >= first_seq
             ORDER BY last_seq, last_number",
        )?;
        let mut events = Vec::new();
        let mut found = rows.query(params![id, after.cast_signed(), upto.cast_signed()])?;
        while let Some(row) = found.next()? {
            let (first, last): (i64, i64) = (row.get(0)?, row.get(1)?);
            let (first, last) = (first.cast_unsigned(), last.cast_unsigned());
            for (seq, event) in (first..=last).zip(items(row.get(2)?, last + 1 - first)?) {
                if seq > after && seq <= upto {
                    events.push(event);
                }
            }
        }
        Ok(events)
    }

    /// A room's seats, log and events read around its id and setup.
    fn rest_of(&self, id: String, setup: String) -> Result<StoredRoom, DbError> {
        let conn = &self.db.conn;
        let mut seats = conn.prepare_cached(
            "SELECT seat, name, token_hash FROM room_seats WHERE room = ?1 ORDER BY seat",
        )?;
        let seats = seats
            .query_map([&id], |r| Ok((r.get::<_, i64>(0)? as usize, r.get(1)?, r.get(2)?)))?
            .collect::<Result<Vec<_>, _>>()?;
        let log = column(
            conn,
            "SELECT last_number - first_number + 1, commands FROM room_batches
             WHERE room = ?1 AND last_number >= first_number ORDER BY last_seq, last_number",
            &id,
        )?;
        let events = room_events(conn, &id)?;
        Ok(StoredRoom { id, setup, seats, log, events })
    }

    /// The room tables' schema version (0 before they exist).
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports.
    pub fn schema_version(&self) -> Result<u32, DbError> {
        Ok(room_version(&self.db.conn)?.unwrap_or(0))
    }
}

/// Every item of the rows `sql` gives (each row its count of items, then the items) for
/// `room`, in order.
fn column(conn: &rusqlite::Connection, sql: &str, room: &str) -> Result<Vec<String>, DbError> {
    let mut rows = conn.prepare_cached(sql)?;
    let mut found = rows.query([room])?;
    let mut all = Vec::new();
    while let Some(row) = found.next()? {
        all.extend(items(row.get(1)?, row.get::<_, i64>(0)?.cast_unsigned())?);
    }
    Ok(all)
}

/// Every event of `room`, in order.
fn room_events(conn: &rusqlite::Connection, room: &str) -> Result<Vec<String>, DbError> {
    column(
        conn,
        "SELECT last_seq - first_seq + 1, events FROM room_batches
         WHERE room = ?1 AND last_seq >= first_seq ORDER BY last_seq, last_number",
        room,
    )
}

fn room_version(conn: &rusqlite::Connection) -> rusqlite::Result<Option<u32>> {
    let exists: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'room_schema')",
        [],
        |r| r.get(0),
    )?;
    if !exists {
        return Ok(None);
    }
    conn.query_row("SELECT version FROM room_schema", [], |r| r.get(0)).optional()
}

impl Database {
    /// The chat said in the room of recorded game `game`, in order, each line with the number
    /// of the game's events told before it: read from the room's events
    /// ([`RoomStore::link_game`]), or for a game recorded before room schema 4 from the table
    /// it was copied to. None for a game played elsewhere, or in a database that has no room
    /// tables.
    ///
    /// # Errors
    ///
    /// Whatever SQLite reports.
    pub fn chat(&self, game: GameId) -> Result<Vec<ChatEntry>, DbError> {
        let has = |table: &str| -> Result<bool, DbError> {
            Ok(self.conn.query_row(
                "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1)",
                [table],
                |r| r.get(0),
            )?)
        };
        if has("game_rooms")? {
            let room: Option<String> = self
                .conn
                .query_row("SELECT room FROM game_rooms WHERE game_id = ?1", [game.0], |r| r.get(0))
                .optional()?;
            if let Some(room) = room {
                let mut lines = ChatLines::default();
                for frame in room_events(&self.conn, &room)? {
                    lines.read(&frame);
                }
                return Ok(lines.lines);
            }
        }
        if !has("game_chat")? {
            return Ok(Vec::new());
        }
        let mut stmt = self
            .conn
            .prepare("SELECT at, player, text FROM game_chat WHERE game_id = ?1 ORDER BY number")?;
        let lines = stmt
            .query_map([game.0], |r| {
                Ok(ChatEntry {
                    at: r.get::<_, i64>(0)?.cast_unsigned(),
                    player: r.get(1)?,
                    text: r.get(2)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(lines)
    }
}

/// The chat lines among a room's event frames as stored, each after the game's events before
/// it (presence and chat are the room's, not the game's: the game's replay tells none of them).
#[derive(Default)]
struct ChatLines {
    /// The game's events read so far.
    at: u64,
    lines: Vec<ChatEntry>,
}

impl ChatLines {
    fn read(&mut self, frame: &str) {
        let Ok(ServerFrame::Event { event, .. }) = serde_json::from_str::<ServerFrame>(frame)
        else {
            return;
        };
        match event {
            Event::Chat { player, text } => {
                self.lines.push(ChatEntry { at: self.at, player, text });
            }
            Event::Presence { .. } => {}
            _ => self.at += 1,
        }
    }
}

/// Takes the room tables to [`ROOM_SCHEMA_VERSION`], one step at a time, in one transaction.
fn migrate(db: &mut Database) -> Result<(), DbError> {
    let tx = db.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let found = room_version(&tx)?;
    if found.is_none() {
        tx.execute_batch("CREATE TABLE room_schema (version INTEGER NOT NULL)")?;
        tx.execute("INSERT INTO room_schema (version) VALUES (0)", [])?;
    }
    let found = found.unwrap_or(0);
    if found > ROOM_SCHEMA_VERSION {
        return Err(DbError::Newer { found, supported: ROOM_SCHEMA_VERSION });
    }
    for sql in &ROOM_MIGRATIONS[found as usize..] {
        tx.execute_batch(sql)?;
    }
    tx.execute("UPDATE room_schema SET version = ?1", [ROOM_SCHEMA_VERSION])?;
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_dir::TestDir;

    fn create(room: &str) -> RoomWrite {
        RoomWrite::Create { room: room.into(), setup: format!("setup {room}"), now_ms: 1 }
    }

    #[test]
    fn rooms_come_back_with_seats_log_and_events_until_over() {
        let dir = TestDir::new("rooms-back");
        let path = dir.path().join("games.db");
        let mut store = RoomStore::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), ROOM_SCHEMA_VERSION);
        store
            .write(&[
                create("a"),
                create("b"),
                RoomWrite::Seat {
                    room: "a".into(),
                    seat: 1,
                    name: "Ann".into(),
                    token_hash: vec![7; 32],
                },
                RoomWrite::Log { room: "a".into(), number: 1, command: "roll".into() },
                RoomWrite::Event { room: "a".into(), seq: 1, event: "e1".into() },
                RoomWrite::Event { room: "a".into(), seq: 2, event: "e2".into() },
            ])
            .unwrap();
        store.write(&[RoomWrite::Over { room: "b".into() }]).unwrap();
        drop(store);
        let store = RoomStore::open(&path).unwrap();
        let rooms = store.unfinished().unwrap();
        assert_eq!(rooms.len(), 1);
        assert_eq!(rooms[0].id, "a");
        assert_eq!(rooms[0].setup, "setup a");
        assert_eq!(rooms[0].seats, [(1, "Ann".to_owned(), vec![7; 32])]);
        assert_eq!(rooms[0].log, ["roll"]);
        assert_eq!(rooms[0].events, ["e1", "e2"]);
        assert_eq!(store.room("a").unwrap().as_ref(), Some(&rooms[0]));
        assert_eq!(store.room("b").unwrap().map(|r| r.setup), Some("setup b".to_owned()));
        assert_eq!(store.room("c").unwrap(), None);
    }

    #[test]
    fn a_checkpoint_asked_by_the_writer_is_made_by_the_other_connection() {
        use std::sync::{
            Arc,
            atomic::{AtomicUsize, Ordering},
        };
        let dir = std::env::temp_dir().join(format!("snl-rooms-ckpt-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut store = RoomStore::open(&dir.join("games.db")).unwrap();
        let asked = Arc::new(AtomicUsize::new(0));
        let counter = asked.clone();
        let checkpointer = store
            .checkpoint_elsewhere(8, move || {
                counter.fetch_add(1, Ordering::SeqCst);
            })
            .unwrap();
        store.write(&[create("r")]).unwrap();
        let mut seq = 0;
        // Commits go on; past 8 pages each asks for a checkpoint, none makes it.
        while asked.load(Ordering::SeqCst) < 3 {
            seq += 1;
            let event = "x".repeat(3000);
            store.write(&[RoomWrite::Event { room: "r".into(), seq, event }]).unwrap();
            assert!(seq < 100, "no checkpoint was asked for");
        }
        let (log, copied) = checkpointer.run().unwrap();
        assert!((8..32).contains(&log), "the writer made none itself: {log}");
        assert_eq!(copied, log, "a passive checkpoint with nobody reading copies it all");
        // The next commit starts the log again from its beginning.
        seq += 1;
        store.write(&[RoomWrite::Event { room: "r".into(), seq, event: "y".into() }]).unwrap();
        let (log, _) = checkpointer.run().unwrap();
        assert!(log < 8, "{log}");
        assert_eq!(store.events_between("r", seq - 1, seq).unwrap(), ["y"]);
        // Nobody checkpoints now: past four times 8 pages the writer copies the log itself, so
        // the log's file stays a little over 32 pages however much is written.
        for _ in 0..300 {
            seq += 1;
            let event = "z".repeat(3000);
            store.write(&[RoomWrite::Event { room: "r".into(), seq, event }]).unwrap();
        }
        let wal = std::fs::metadata(dir.join("games.db-wal")).unwrap().len();
        assert!(wal < 40 * 4120, "{wal} bytes");
        assert_eq!(store.events_between("r", 0, seq).unwrap().len() as u64, seq);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn events_between_two_sequence_numbers_come_back_in_order() {
        let dir = std::env::temp_dir().join(format!("snl-rooms-between-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut store = RoomStore::open(&dir.join("games.db")).unwrap();
        let mut writes = vec![create("a"), create("b")];
        for seq in 1..=5 {
            for room in ["a", "b"] {
                let event = format!("{room}{seq}");
                writes.push(RoomWrite::Event { room: room.into(), seq, event });
            }
        }
        store.write(&writes).unwrap();
        assert_eq!(store.events_between("a", 1, 4).unwrap(), ["a2", "a3", "a4"]);
        assert_eq!(store.events_between("b", 0, 9).unwrap(), ["b1", "b2", "b3", "b4", "b5"]);
        assert!(store.events_between("a", 5, 5).unwrap().is_empty());
        assert!(store.events_between("c", 0, 5).unwrap().is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_commits_commands_and_events_of_a_room_are_one_row_and_come_back_one_by_one() {
        let dir = TestDir::new("rooms-batches");
        let mut store = RoomStore::open(&dir.path().join("games.db")).unwrap();
        let log = |number, command: &str| RoomWrite::Log {
            room: "a".into(),
            number,
            command: command.into(),
        };
        let event =
            |seq, event: &str| RoomWrite::Event { room: "a".into(), seq, event: event.into() };
        store
            .write(&[create("a"), log(1, "c1"), event(1, "e1"), event(2, "e2"), event(3, "e3")])
            .unwrap();
        // Items with line breaks (the store's text is opaque) each take a row of their own.
        store
            .write(&[
                log(2, "c\n2"),
                event(4, "e4"),
                event(5, "e\n5"),
                event(6, "e6"),
                log(3, "c3"),
            ])
            .unwrap();
        let rows: i64 = store
            .database()
            .conn
            .query_row("SELECT count(*) FROM room_batches WHERE room = 'a'", [], |r| r.get(0))
            .unwrap();
        assert_eq!(rows, 4, "one row for the first commit, three for the second");
        let room = store.room("a").unwrap().unwrap();
        assert_eq!(room.log, ["c1", "c\n2", "c3"]);
        assert_eq!(room.events, ["e1", "e2", "e3", "e4", "e\n5", "e6"]);
        assert_eq!(store.events_between("a", 2, 5).unwrap(), ["e3", "e4", "e\n5"]);
    }

    #[test]
    fn a_rooms_numbers_go_on_from_its_last_without_a_gap_or_a_repeat() {
        let dir = TestDir::new("rooms-numbered");
        let mut store = RoomStore::open(&dir.path().join("games.db")).unwrap();
        let event = |seq| RoomWrite::Event { room: "a".into(), seq, event: format!("e{seq}") };
        let log = |number| RoomWrite::Log { room: "a".into(), number, command: "c".into() };
        store.write(&[create("a"), create("b"), log(1), event(1), event(2)]).unwrap();
        let refused = |store: &mut RoomStore, writes: &[RoomWrite]| {
            let error = store.write(writes).unwrap_err().to_string();
            assert!(error.contains("are out of order"), "{error}");
        };
        refused(&mut store, &[event(4)]);
        refused(&mut store, &[event(2)]);
        refused(&mut store, &[log(1)]);
        refused(&mut store, &[log(3)]);
        // Refused whole: room b's event of the same commit is not kept either.
        let b = RoomWrite::Event { room: "b".into(), seq: 1, event: "b1".into() };
        refused(&mut store, &[b.clone(), event(3), event(5)]);
        assert!(store.room("b").unwrap().unwrap().events.is_empty());
        store.write(&[b, log(2), event(3)]).unwrap();
        assert_eq!(store.room("a").unwrap().unwrap().events, ["e1", "e2", "e3"]);
    }

    #[test]
    fn the_batch_insert_is_prepared_once_whatever_rooms_it_writes() {
        let dir = TestDir::new("rooms-prepared");
        let mut store = RoomStore::open(&dir.path().join("games.db")).unwrap();
        store.write(&[create("a"), create("b")]).unwrap();
        for seq in 1..=10 {
            let event = |room: &str| RoomWrite::Event { room: room.into(), seq, event: "e".into() };
            store.write(&[event("a"), event("b")]).unwrap();
        }
        // Each row bound another room: without one plan per statement (QPSG) SQLite compiled
        // the statement again at each of these rows.
        let insert = store.db.conn.prepare_cached(INSERT_BATCH).unwrap();
        assert_eq!(insert.get_status(rusqlite::StatementStatus::RePrepare), 0);
        assert_eq!(store.room("b").unwrap().unwrap().events.len(), 10);
    }

    #[test]
    fn a_batch_with_a_repeated_sequence_number_writes_nothing() {
        let dir = TestDir::new("rooms-atomic");
        let mut store = RoomStore::open(&dir.path().join("games.db")).unwrap();
        store.write(&[create("a")]).unwrap();
        let event = |seq| RoomWrite::Event { room: "a".into(), seq, event: "e".into() };
        assert!(store.write(&[event(1), event(2), event(2)]).is_err());
        assert!(store.unfinished().unwrap()[0].events.is_empty());
    }

    #[test]
    fn rooms_kept_by_version_1_come_back_from_the_versions_after() {
        let dir = TestDir::new("rooms-v1");
        let path = dir.path().join("games.db");
        let db = Database::open(&path).unwrap();
        db.conn
            .execute_batch(&format!(
                "CREATE TABLE room_schema (version INTEGER NOT NULL);
                 INSERT INTO room_schema (version) VALUES (1);
                 {}
                 INSERT INTO rooms (id, created_ms, setup) VALUES ('a', 1, 'setup a');
                 INSERT INTO room_log (room, number, command) VALUES ('a', 2, 'c2'), ('a', 1, 'c1');
                 INSERT INTO room_events (room, seq, event) VALUES ('a', 2, 'e2'), ('a', 1, 'e1');",
                ROOM_MIGRATIONS[0]
            ))
            .unwrap();
        drop(db);
        let mut store = RoomStore::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), ROOM_SCHEMA_VERSION);
        let room = store.room("a").unwrap().unwrap();
        assert_eq!(room.log, ["c1", "c2"]);
        assert_eq!(room.events, ["e1", "e2"]);
        let again = RoomWrite::Event { room: "a".into(), seq: 2, event: "e".into() };
        assert!(store.write(&[again]).is_err(), "(room, seq) is still unique");
        store.write(&[RoomWrite::Event { room: "a".into(), seq: 3, event: "e3".into() }]).unwrap();
        assert_eq!(store.unfinished().unwrap()[0].events, ["e1", "e2", "e3"]);
    }

    #[test]
    fn a_recorded_games_chat_is_read_from_its_rooms_events_and_an_older_copy_still_reads() {
        use snl_engine::{Board, Game, Preset, Rules, Seat, SeatKind};
        let dir = TestDir::new("rooms-chat");
        let path = dir.path().join("games.db");
        let rules = Rules::default();
        let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Robo", SeatKind::Easy)];
        let game = Game::new(board, rules, seats).unwrap();
        let save = crate::Save::new(&game, &crate::DiceState::seeded(1), "classic");
        // A game recorded by `snl play`, before any room table: no chat, and no error.
        let plain = Database::open(&path).unwrap().new_game(&save, 0).unwrap();
        assert_eq!(Database::open_existing(&path).unwrap().chat(plain).unwrap(), vec![]);

        let mut store = RoomStore::open(&path).unwrap();
        let said = |text: &str| Event::Chat { player: "Ann".to_owned(), text: text.into() };
        let turn = Event::TurnStarted { player: "Ann".to_owned(), position: 0 };
        let here = Event::Presence { player: "Robo".to_owned(), online: true };
        let told = [said("hello"), here, turn.clone(), turn.clone(), said("gg"), turn];
        let mut writes = vec![create("r")];
        for (seq, event) in (1..).zip(told) {
            let event = ServerFrame::Event { seq, event, text: None }.to_text();
            writes.push(RoomWrite::Event { room: "r".into(), seq, event });
        }
        store.write(&writes).unwrap();
        let id = store.database().new_game(&save, 0).unwrap();
        store.link_game(id, "r").unwrap();
        assert!(store.link_game(id, "r").is_err(), "a game is played in one room");
        let line = |at: u64, text: &str| ChatEntry { at, player: "Ann".into(), text: text.into() };
        // Each after the game's events told before it: presence and chat are not the game's.
        assert_eq!(store.database().chat(id).unwrap(), [line(0, "hello"), line(2, "gg")]);
        assert_eq!(store.database().chat(plain).unwrap(), vec![]);

        // A game recorded before schema 4 kept its chat in a table of its own.
        let older = store.database().new_game(&save, 0).unwrap();
        let lines = [line(0, "hi"), line(7, "wp")];
        store.keep_chat_as_before(older, &lines).unwrap();
        assert!(store.keep_chat_as_before(older, &lines[..1]).is_err(), "a line is kept once");
        assert_eq!(store.database().chat(older).unwrap(), lines);
    }

    #[test]
    fn the_game_tables_are_untouched_by_the_room_tables() {
        let dir = TestDir::new("rooms-games");
        let path = dir.path().join("games.db");
        drop(RoomStore::open(&path).unwrap());
        let db = Database::open_existing(&path).unwrap();
        assert_eq!(db.schema_version().unwrap(), crate::SCHEMA_VERSION);
        assert!(db.games().unwrap().is_empty());
    }
}
