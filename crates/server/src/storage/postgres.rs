// Long because it is the PostgreSQL side of the Storage trait (leases, notices, lobby) in one place, mirroring the SQLite one.
//! PostgreSQL shared by several `snl serve` nodes.
//!
//! Each node keeps two connections. The writer's connection takes every room's lease (a
//! session advisory lock on the room id's hash) and commits every write, in one task, batches
//! of many rooms in one transaction; a write for a room whose lock this connection does not
//! hold is refused before it reaches the database, so no two nodes ever write for one room.
//! When that connection breaks, PostgreSQL lets every lock go at once, and the node is told
//! ([`Notice::Lost`]) so it stops acting for its rooms. The other connection reads (rooms,
//! games, the lobby) and listens for what other nodes say (`LISTEN`/`NOTIFY`).

use std::{collections::HashSet, sync::Arc};

use futures_util::StreamExt;
use snl_store::{RoomWrite, Save, StoredRoom};
use tokio::sync::{Mutex as AsyncMutex, broadcast, mpsc, oneshot};
use tokio_postgres::{AsyncMessage, Client, NoTls, Statement};

use super::{Notice, Pending, Storage, StorageError};

/// Most batches committed in one transaction.
const GROUP: usize = 512;

/// The schema version of the tables below.
const SCHEMA_VERSION: i32 = 1;

/// Every step from version `i` to `i + 1`. Several nodes may start at once: the migration
/// runs under a transaction-level advisory lock.
const MIGRATIONS: [&str; SCHEMA_VERSION as usize] = [
    // 1: rooms, their seats, command logs and events; the lobby entry of each; finished games.
    "CREATE TABLE rooms (
        id          TEXT    PRIMARY KEY,
        created_ms  BIGINT  NOT NULL,
        setup       TEXT    NOT NULL,
        over        BOOLEAN NOT NULL DEFAULT false,
        lobby       TEXT
    );
    CREATE TABLE room_seats (
        room        TEXT    NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
        seat        INTEGER NOT NULL,
        name        TEXT    NOT NULL,
        token_hash  BYTEA   NOT NULL,
        PRIMARY KEY (room, seat)
    );
    CREATE TABLE room_log (
        room     TEXT    NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
        number   BIGINT  NOT NULL,
        command  TEXT    NOT NULL,
        PRIMARY KEY (room, number)
    );
    CREATE TABLE room_events (
        room   TEXT    NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
        seq    BIGINT  NOT NULL,
        event  TEXT    NOT NULL,
        PRIMARY KEY (room, seq)
    );
    CREATE TABLE games (
        id           BIGSERIAL PRIMARY KEY,
        recorded_ms  BIGINT  NOT NULL,
        board        TEXT    NOT NULL,
        players      TEXT    NOT NULL,
        turns        BIGINT  NOT NULL,
        save         TEXT    NOT NULL
    );",
];

/// The key of the advisory lock that orders migrations (any number, the same on every node).
const MIGRATION_LOCK: i64 = 0x0073_6e6c_5f6d_6967;

/// The notification channels.
const RELEASE: &str = "snl_release";
const RELEASED: &str = "snl_released";
const LOBBY: &str = "snl_lobby";

type Done<T> = oneshot::Sender<Result<T, StorageError>>;

#[expect(clippy::large_enum_variant, reason = "a job lives for one commit; most are writes")]
enum Job {
    Write { writes: Vec<RoomWrite>, finished: Option<Save>, done: Done<()> },
    Acquire { room: String, done: Done<bool> },
    Release { room: String, done: Done<bool> },
}

/// PostgreSQL shared by the nodes of a cluster.
#[derive(Debug)]
pub struct PgStorage {
    url: String,
    jobs: mpsc::UnboundedSender<Job>,
    reader: AsyncMutex<Option<Arc<Client>>>,
    notices: broadcast::Sender<Notice>,
    /// This node's name in what it tells the others (random).
    node: String,
}

fn db(e: &tokio_postgres::Error) -> StorageError {
    match e.as_db_error() {
        Some(db) => StorageError::Db(format!("refused: {}", db.message())),
        None if e.is_closed() => StorageError::Unreachable("the connection closed".into()),
        None => StorageError::Unreachable(e.to_string()),
    }
}

impl PgStorage {
    /// Connects to `url`, creates or upgrades the tables, and starts the writer and the
    /// listener.
    ///
    /// # Errors
    ///
    /// [`StorageError::Unreachable`] when PostgreSQL cannot be reached, [`StorageError::Db`]
    /// when the tables cannot be made or are newer than this snl.
    pub async fn connect(url: &str) -> Result<PgStorage, StorageError> {
        let (mut client, connection) = tokio_postgres::connect(url, NoTls)
            .await
            .map_err(|e| StorageError::Unreachable(e.to_string()))?;
        tokio::spawn(connection);
        migrate(&mut client).await?;
        drop(client);
        let (notices, _) = broadcast::channel(4096);
        let (jobs, rx) = mpsc::unbounded_channel();
        let writer = Writer {
            url: url.to_owned(),
            conn: None,
            held: HashSet::new(),
            notices: notices.clone(),
        };
        tokio::spawn(writer.run(rx));
        let storage = PgStorage {
            url: url.to_owned(),
            jobs,
            reader: AsyncMutex::new(None),
            notices,
            node: format!("{:016x}", random()?),
        };
        storage.reader().await?;
        Ok(storage)
    }

    /// The reading and listening connection, connected again if it broke.
    async fn reader(&self) -> Result<Arc<Client>, StorageError> {
        let mut reader = self.reader.lock().await;
        if let Some(client) = reader.as_ref().filter(|c| !c.is_closed()) {
            return Ok(client.clone());
        }
        let (client, mut connection) = tokio_postgres::connect(&self.url, NoTls)
            .await
            .map_err(|e| StorageError::Unreachable(e.to_string()))?;
        let notices = self.notices.clone();
        let node = self.node.clone();
        tokio::spawn(async move {
            let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
            while let Some(Ok(message)) = messages.next().await {
                if let AsyncMessage::Notification(n) = message {
                    // "NODE ROOM" or "NODE ENTRY": what this node said itself is not news.
                    let Some((from, what)) = n.payload().split_once(' ') else { continue };
                    if from == node {
                        continue;
                    }
                    let room = what.to_owned();
                    let notice = match n.channel() {
                        RELEASE => Notice::Release(room),
                        RELEASED => Notice::Released(room),
                        LOBBY => Notice::Lobby(room),
                        _ => continue,
                    };
                    let _ = notices.send(notice);
                }
            }
        });
        client
            .batch_execute(&format!("LISTEN {RELEASE}; LISTEN {RELEASED}; LISTEN {LOBBY}"))
            .await
            .map_err(|e| db(&e))?;
        let client = Arc::new(client);
        *reader = Some(client.clone());
        Ok(client)
    }

    async fn ask<T>(&self, job: impl FnOnce(Done<T>) -> Job) -> Result<T, StorageError> {
        let (done, wait) = oneshot::channel();
        let stopped = || StorageError::Unreachable("the writer has stopped".into());
        self.jobs.send(job(done)).map_err(|_| stopped())?;
        wait.await.map_err(|_| stopped())?
    }

    async fn load(
        &self,
        client: &Client,
        id: String,
        setup: String,
    ) -> Result<StoredRoom, StorageError> {
        let (seats, log, events) = futures_util::future::try_join3(
            client.query(
                "SELECT seat, name, token_hash FROM room_seats WHERE room = $1 ORDER BY seat",
                &[&id],
            ),
            client.query("SELECT command FROM room_log WHERE room = $1 ORDER BY number", &[&id]),
            client.query("SELECT event FROM room_events WHERE room = $1 ORDER BY seq", &[&id]),
        )
        .await
        .map_err(|e| db(&e))?;
        Ok(StoredRoom {
            seats: seats
                .iter()
                .map(|r| (r.get::<_, i32>(0) as usize, r.get(1), r.get(2)))
                .collect(),
            log: log.iter().map(|r| r.get(0)).collect(),
            events: events.iter().map(|r| r.get(0)).collect(),
            id,
            setup,
        })
    }
}

/// 64 random bits.
fn random() -> Result<u64, StorageError> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes)
        .map_err(|e| StorageError::Unreachable(format!("no randomness for a node name: {e}")))?;
    Ok(u64::from_le_bytes(bytes))
}

async fn migrate(client: &mut Client) -> Result<(), StorageError> {
    let tx = client.transaction().await.map_err(|e| db(&e))?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).await.map_err(|e| db(&e))?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS snl_schema (version INTEGER NOT NULL)")
        .await
        .map_err(|e| db(&e))?;
    let found: Option<i32> = tx
        .query_opt("SELECT version FROM snl_schema", &[])
        .await
        .map_err(|e| db(&e))?
        .map(|r| r.get(0));
    if found.is_none() {
        tx.execute("INSERT INTO snl_schema (version) VALUES (0)", &[]).await.map_err(|e| db(&e))?;
    }
    let found = found.unwrap_or(0);
    if found > SCHEMA_VERSION {
        return Err(StorageError::Db(format!(
            "has schema version {found}, newer than this snl's {SCHEMA_VERSION}: use a newer snl"
        )));
    }
    for sql in &MIGRATIONS[found as usize..] {
        tx.batch_execute(sql).await.map_err(|e| db(&e))?;
    }
    tx.execute("UPDATE snl_schema SET version = $1", &[&SCHEMA_VERSION])
        .await
        .map_err(|e| db(&e))?;
    tx.commit().await.map_err(|e| db(&e))
}

/// The statements the writer runs, prepared once per connection.
struct Statements {
    lock: Statement,
    unlock: Statement,
    rooms: Statement,
    seats: Statement,
    log: Statement,
    events: Statement,
    over: Statement,
    game: Statement,
}

impl Statements {
    async fn prepare(client: &Client) -> Result<Statements, tokio_postgres::Error> {
        Ok(Statements {
            lock: client
                .prepare("SELECT pg_try_advisory_lock(hashtextextended($1::text, 0))")
                .await?,
            unlock: client
                .prepare("SELECT pg_advisory_unlock(hashtextextended($1::text, 0))")
                .await?,
            rooms: client
                .prepare(
                    "INSERT INTO rooms (id, created_ms, setup)
                     SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[])",
                )
                .await?,
            seats: client
                .prepare(
                    "INSERT INTO room_seats (room, seat, name, token_hash)
                     SELECT * FROM unnest($1::text[], $2::integer[], $3::text[], $4::bytea[])",
                )
                .await?,
            log: client
                .prepare(
                    "INSERT INTO room_log (room, number, command)
                     SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[])",
                )
                .await?,
            events: client
                .prepare(
                    "INSERT INTO room_events (room, seq, event)
                     SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[])",
                )
                .await?,
            over: client.prepare("UPDATE rooms SET over = true WHERE id = ANY($1::text[])").await?,
            game: client
                .prepare(
                    "INSERT INTO games (recorded_ms, board, players, turns, save)
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .await?,
        })
    }
}

/// The writer task: the one connection that holds this node's leases and writes.
struct Writer {
    url: String,
    conn: Option<(Client, Statements, oneshot::Receiver<()>)>,
    held: HashSet<String>,
    notices: broadcast::Sender<Notice>,
}

type WriteJob = (Vec<RoomWrite>, Option<Save>, Done<()>);

impl Writer {
    async fn run(mut self, mut rx: mpsc::UnboundedReceiver<Job>) {
        loop {
            let closed = async {
                match self.conn.as_mut() {
                    Some((_, _, closed)) => {
                        let _ = closed.await;
                    }
                    None => std::future::pending().await,
                }
            };
            let first = tokio::select! {
                job = rx.recv() => match job {
                    Some(job) => job,
                    None => return,
                },
                () = closed => {
                    self.lose();
                    continue;
                }
            };
            let mut next = Some(first);
            let mut group: Vec<WriteJob> = Vec::new();
            while let Some(job) = next.take() {
                match job {
                    Job::Write { writes, finished, done } => group.push((writes, finished, done)),
                    Job::Acquire { room, done } => {
                        self.commit(std::mem::take(&mut group)).await;
                        let _ = done.send(self.acquire(&room).await);
                    }
                    Job::Release { room, done } => {
                        self.commit(std::mem::take(&mut group)).await;
                        let _ = done.send(self.release(&room).await);
                    }
                }
                if group.len() < GROUP {
                    next = rx.try_recv().ok();
                }
            }
            self.commit(group).await;
        }
    }

    /// The connection lost: every lock with it.
    fn lose(&mut self) {
        self.conn = None;
        self.held.clear();
        let _ = self.notices.send(Notice::Lost);
    }

    /// The connection, made again if there is none.
    async fn connection(
        &mut self,
    ) -> Result<&(Client, Statements, oneshot::Receiver<()>), StorageError> {
        if self.conn.as_ref().is_some_and(|(c, _, _)| c.is_closed()) {
            self.lose();
        }
        if self.conn.is_none() {
            let (client, connection) = tokio_postgres::connect(&self.url, NoTls)
                .await
                .map_err(|e| StorageError::Unreachable(e.to_string()))?;
            let (tell, closed) = oneshot::channel();
            tokio::spawn(async move {
                let _ = connection.await;
                let _ = tell.send(());
            });
            let statements = Statements::prepare(&client).await.map_err(|e| db(&e))?;
            self.conn = Some((client, statements, closed));
        }
        Ok(self.conn.as_ref().expect("connected just above"))
    }

    async fn acquire(&mut self, room: &str) -> Result<bool, StorageError> {
        if self.held.contains(room) {
            return Ok(true);
        }
        let (client, statements, _) = self.connection().await?;
        let row = client.query_one(&statements.lock, &[&room]).await.map_err(|e| db(&e))?;
        let got: bool = row.get(0);
        if got {
            self.held.insert(room.to_owned());
        }
        Ok(got)
    }

    async fn release(&mut self, room: &str) -> Result<bool, StorageError> {
        if !self.held.remove(room) {
            return Ok(false);
        }
        let (client, statements, _) = self.connection().await?;
        client.query_one(&statements.unlock, &[&room]).await.map_err(|e| db(&e))?;
        Ok(true)
    }

    /// Commits `group` in one transaction, or batch by batch when the database refuses it
    /// whole; a batch for a room not held is refused before.
    async fn commit(&mut self, group: Vec<WriteJob>) {
        let mut ready = Vec::with_capacity(group.len());
        for (writes, finished, done) in group {
            match self.check(&writes).await {
                Ok(()) => ready.push((writes, finished, done)),
                Err(e) => {
                    let _ = done.send(Err(e));
                }
            }
        }
        if ready.is_empty() {
            return;
        }
        let together =
            self.transaction(ready.iter().map(|(w, f, _)| (w.as_slice(), f.as_ref()))).await;
        if together.is_ok() || ready.len() == 1 {
            for (_, _, done) in ready {
                let _ = done.send(together.clone());
            }
            return;
        }
        for (writes, finished, done) in ready {
            let alone =
                self.transaction(std::iter::once((writes.as_slice(), finished.as_ref()))).await;
            let _ = done.send(alone);
        }
    }

    /// Whether every room `writes` touches is held (a room created here is taken first).
    async fn check(&mut self, writes: &[RoomWrite]) -> Result<(), StorageError> {
        for write in writes {
            if let RoomWrite::Create { room, .. } = write
                && !self.acquire(room).await?
            {
                return Err(StorageError::NotHeld(room.clone()));
            }
        }
        for write in writes {
            let (RoomWrite::Create { room, .. }
            | RoomWrite::Seat { room, .. }
            | RoomWrite::Log { room, .. }
            | RoomWrite::Event { room, .. }
            | RoomWrite::Over { room }) = write
            else {
                continue;
            };
            if !self.held.contains(room) {
                return Err(StorageError::NotHeld(room.clone()));
            }
        }
        Ok(())
    }

    async fn transaction<'a>(
        &mut self,
        batches: impl Iterator<Item = (&'a [RoomWrite], Option<&'a Save>)>,
    ) -> Result<(), StorageError> {
        let mut rooms = (Vec::new(), Vec::new(), Vec::new());
        let mut seats = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut log = (Vec::new(), Vec::new(), Vec::new());
        let mut events = (Vec::new(), Vec::new(), Vec::new());
        let mut over = Vec::new();
        let mut games = Vec::new();
        for (writes, finished) in batches {
            for write in writes {
                match write {
                    RoomWrite::Create { room, setup, now_ms } => {
                        rooms.0.push(room.as_str());
                        rooms.1.push(now_ms.cast_signed());
                        rooms.2.push(setup.as_str());
                    }
                    RoomWrite::Seat { room, seat, name, token_hash } => {
                        seats.0.push(room.as_str());
                        seats.1.push(i32::try_from(*seat).unwrap_or(i32::MAX));
                        seats.2.push(name.as_str());
                        seats.3.push(token_hash.as_slice());
                    }
                    RoomWrite::Log { room, number, command } => {
                        log.0.push(room.as_str());
                        log.1.push(number.cast_signed());
                        log.2.push(command.as_str());
                    }
                    RoomWrite::Event { room, seq, event } => {
                        events.0.push(room.as_str());
                        events.1.push(seq.cast_signed());
                        events.2.push(event.as_str());
                    }
                    RoomWrite::Over { room } => over.push(room.as_str()),
                    _ => {}
                }
            }
            games.extend(finished);
        }
        let (client, statements, _) = self.connection().await?;
        let run = async {
            client.batch_execute("BEGIN").await?;
            if !rooms.0.is_empty() {
                client.execute(&statements.rooms, &[&rooms.0, &rooms.1, &rooms.2]).await?;
            }
            if !seats.0.is_empty() {
                client
                    .execute(&statements.seats, &[&seats.0, &seats.1, &seats.2, &seats.3])
                    .await?;
            }
            if !log.0.is_empty() {
                client.execute(&statements.log, &[&log.0, &log.1, &log.2]).await?;
            }
            if !events.0.is_empty() {
                client.execute(&statements.events, &[&events.0, &events.1, &events.2]).await?;
            }
            if !over.is_empty() {
                client.execute(&statements.over, &[&over]).await?;
            }
            for save in &games {
                let players: Vec<&str> = save.game.seats.iter().map(|s| s.name.as_str()).collect();
                let turns = i64::from(save.game.turns);
                let now = crate::now_ms().cast_signed();
                client
                    .execute(
                        &statements.game,
                        &[&now, &save.board_name, &players.join(", "), &turns, &save.to_json()],
                    )
                    .await?;
            }
            client.batch_execute("COMMIT").await
        };
        match run.await {
            Ok(()) => Ok(()),
            Err(e) => {
                let _ = client.batch_execute("ROLLBACK").await;
                Err(db(&e))
            }
        }
    }
}

impl Storage for PgStorage {
    fn write(&self, writes: Vec<RoomWrite>, finished: Option<Save>) -> Pending<'_, ()> {
        Box::pin(self.ask(|done| Job::Write { writes, finished, done }))
    }

    fn unfinished(&self) -> Pending<'_, Vec<StoredRoom>> {
        Box::pin(async {
            let client = self.reader().await?;
            let heads = client
                .query("SELECT id, setup FROM rooms WHERE NOT over ORDER BY created_ms, id", &[])
                .await
                .map_err(|e| db(&e))?;
            let mut rooms = Vec::with_capacity(heads.len());
            for head in heads {
                rooms.push(self.load(&client, head.get(0), head.get(1)).await?);
            }
            Ok(rooms)
        })
    }

    fn room<'a>(&'a self, id: &'a str) -> Pending<'a, Option<StoredRoom>> {
        Box::pin(async move {
            let client = self.reader().await?;
            let head = client
                .query_opt("SELECT setup FROM rooms WHERE id = $1", &[&id])
                .await
                .map_err(|e| db(&e))?;
            match head {
                None => Ok(None),
                Some(head) => Ok(Some(self.load(&client, id.to_owned(), head.get(0)).await?)),
            }
        })
    }

    fn events_between<'a>(
        &'a self,
        id: &'a str,
        after: u64,
        upto: u64,
    ) -> Pending<'a, Vec<String>> {
        Box::pin(async move {
            let client = self.reader().await?;
            let (after, upto) = (after.cast_signed(), upto.cast_signed());
            let rows = client
                .query(
                    "SELECT event FROM room_events WHERE room = $1 AND seq > $2 AND seq <= $3
                     ORDER BY seq",
                    &[&id, &after, &upto],
                )
                .await
                .map_err(|e| db(&e))?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    fn games(&self) -> Pending<'_, Vec<Save>> {
        Box::pin(async {
            let client = self.reader().await?;
            let rows = client
                .query("SELECT id, save FROM games ORDER BY id", &[])
                .await
                .map_err(|e| db(&e))?;
            rows.iter()
                .map(|r| {
                    let id: i64 = r.get(0);
                    Save::from_json(r.get::<_, &str>(1).as_bytes()).map_err(|e| {
                        StorageError::Db(format!("has a game {id} that cannot be read: {e}"))
                    })
                })
                .collect()
        })
    }

    fn shared(&self) -> bool {
        true
    }

    fn acquire<'a>(&'a self, room: &'a str) -> Pending<'a, bool> {
        Box::pin(self.ask(|done| Job::Acquire { room: room.to_owned(), done }))
    }

    fn release<'a>(&'a self, room: &'a str) -> Pending<'a, bool> {
        Box::pin(self.ask(|done| Job::Release { room: room.to_owned(), done }))
    }

    fn notify(&self, notice: Notice) -> Pending<'_, ()> {
        Box::pin(async move {
            let (channel, room) = match notice {
                Notice::Release(room) => (RELEASE, room),
                Notice::Released(room) => (RELEASED, room),
                Notice::Lobby(room) => (LOBBY, room),
                Notice::Lost => return Ok(()),
            };
            let client = self.reader().await?;
            let payload = format!("{} {room}", self.node);
            client
                .execute("SELECT pg_notify($1, $2)", &[&channel, &payload])
                .await
                .map_err(|e| db(&e))?;
            Ok(())
        })
    }

    fn notices(&self) -> Option<broadcast::Receiver<Notice>> {
        Some(self.notices.subscribe())
    }

    fn publish<'a>(&'a self, room: &'a str, entry: &'a str) -> Pending<'a, ()> {
        Box::pin(async move {
            let client = self.reader().await?;
            client
                .execute(
                    "WITH entry AS (UPDATE rooms SET lobby = $2 WHERE id = $1)
                     SELECT pg_notify($3, $4 || ' ' || $2)",
                    &[&room, &entry, &LOBBY, &self.node],
                )
                .await
                .map_err(|e| db(&e))?;
            Ok(())
        })
    }

    fn lobby(&self) -> Pending<'_, Vec<(String, String)>> {
        Box::pin(async move {
            let client = self.reader().await?;
            let rows = client
                .query("SELECT id, lobby FROM rooms WHERE NOT over AND lobby IS NOT NULL", &[])
                .await
                .map_err(|e| db(&e))?;
            Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
        })
    }
}
