// Long because it is the PostgreSQL side of the Storage trait (leases, notices, lobby) in one place, mirroring the SQLite one.
//! PostgreSQL shared by several `snl serve` nodes.
//!
//! Each node keeps two connections. The writer's connection is the node: it holds a session
//! advisory lock on the node's key (random, new with each connection), renews the node's
//! **lease** (a row of `snl_nodes` that expires [`LEASE`] after its last renewal, by
//! PostgreSQL's clock) every [`RENEW`], and commits every write, in one task, batches of many
//! rooms in one transaction. A room's owner is written in `room_leases` with an **epoch** that
//! grows by one each time the room changes hands. A node takes a room whose owner let it go,
//! whose owner's lease expired (it stalled: paused, swapping, cut off) or whose owner's
//! connection is gone (it died: its key's lock is free). Every write for a room carries the
//! epoch it was taken under; the transaction begins with `snl_fence`, which locks the rooms'
//! lease rows and refuses the whole transaction when one room's owner or epoch is no longer
//! the writer's, so a node that stalled past its lease can never write for a room another node
//! took. A node that sees its own lease lapse, or its connection break, drops the connection
//! (its key dies with it), forgets every room and is told ([`Notice::Lost`]) so it stops
//! acting for them at once. The other connection reads (rooms, games, the lobby) and listens
//! for what other nodes say (`LISTEN`/`NOTIFY`).

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use futures_util::StreamExt;
use snl_store::{RoomWrite, Save, StoredRoom};
use tokio::{
    sync::{Mutex as AsyncMutex, broadcast, mpsc, oneshot},
    time::Instant,
};
use tokio_postgres::{AsyncMessage, Client, NoTls, Statement};

use super::{Notice, Pending, Storage, StorageError};

/// Most batches committed in one transaction.
const GROUP: usize = 512;

/// How long a node's lease lasts after its last renewal, by PostgreSQL's clock.
const LEASE: Duration = Duration::from_secs(3);
/// How often a node renews its lease.
const RENEW: Duration = Duration::from_millis(750);
/// How long a node counts its lease as its own after it sent a renewal: less than [`LEASE`],
/// so that it stops acting for its rooms before any other node may take them.
const TRUST: Duration = Duration::from_millis(2_500);

/// The schema version of the tables below.
const SCHEMA_VERSION: i32 = 2;

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
    // 2: leases. Each node's lease (its key, the lock it holds, and when its lease expires),
    // each room's owner and epoch, the epoch each command and event was stored under, and the
    // fence every write transaction begins with.
    "CREATE TABLE snl_nodes (
        node     BIGINT      PRIMARY KEY,
        expires  TIMESTAMPTZ NOT NULL
    );
    CREATE TABLE room_leases (
        room   TEXT    PRIMARY KEY,
        node   BIGINT  NOT NULL,
        epoch  BIGINT  NOT NULL
    );
    ALTER TABLE room_log ADD COLUMN epoch BIGINT;
    ALTER TABLE room_events ADD COLUMN epoch BIGINT;
    CREATE FUNCTION snl_fence(rooms TEXT[], epochs BIGINT[], holder BIGINT) RETURNS void
    LANGUAGE plpgsql AS $$
    DECLARE
        held  BIGINT;
        stale TEXT;
    BEGIN
        -- Locked until the transaction ends: no node takes these rooms meanwhile.
        SELECT count(*) INTO held FROM (
            SELECT 1 FROM room_leases l JOIN unnest(rooms, epochs) AS w (room, epoch)
                ON l.room = w.room AND l.epoch = w.epoch AND l.node = holder
            FOR SHARE OF l
        ) mine;
        IF held < cardinality(rooms) THEN
            SELECT w.room INTO stale FROM unnest(rooms, epochs) AS w (room, epoch)
            WHERE NOT EXISTS (SELECT 1 FROM room_leases l
                              WHERE l.room = w.room AND l.epoch = w.epoch AND l.node = holder)
            LIMIT 1;
            RAISE EXCEPTION 'room % is no longer held under this lease', stale
                USING ERRCODE = 'SNL01';
        END IF;
    END $$;",
];

/// The SQLSTATE `snl_fence` refuses a transaction with.
const FENCED: &str = "SNL01";

/// The key of the advisory lock that orders migrations (any number, the same on every node).
const MIGRATION_LOCK: i64 = 0x0073_6e6c_5f6d_6967;

/// The notification channels.
const RELEASE: &str = "snl_release";
const RELEASED: &str = "snl_released";
const LOBBY: &str = "snl_lobby";

type Done<T> = oneshot::Sender<Result<T, StorageError>>;

#[expect(clippy::large_enum_variant, reason = "a job lives for one commit; most are writes")]
enum Job {
    Write { writes: Vec<RoomWrite>, finished: Option<Save>, lease: Option<u64>, done: Done<()> },
    Acquire { room: String, done: Done<Option<u64>> },
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
    /// Until when this node's lease is its own (`None`: it holds none now).
    trusted: Arc<Mutex<Option<Instant>>>,
}

fn db(e: &tokio_postgres::Error) -> StorageError {
    match e.as_db_error() {
        Some(db) if db.code().code() == FENCED => StorageError::Fenced(db.message().to_owned()),
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
        let trusted = Arc::new(Mutex::new(None));
        let mut writer = Writer {
            url: url.to_owned(),
            conn: None,
            held: HashMap::new(),
            notices: notices.clone(),
            trusted: trusted.clone(),
        };
        // The node's lease from the start.
        writer.connection().await?;
        tokio::spawn(writer.run(rx));
        let storage = PgStorage {
            url: url.to_owned(),
            jobs,
            reader: AsyncMutex::new(None),
            notices,
            node: format!("{:016x}", random()?),
            trusted,
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
    renew: Statement,
    acquire: Statement,
    release: Statement,
    fence: Statement,
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
            // A lease that expired is not renewed: other nodes may have taken its rooms.
            renew: client
                .prepare(
                    "UPDATE snl_nodes SET expires = clock_timestamp() + $2::bigint * interval '1 ms'
                     WHERE node = $1 AND expires > clock_timestamp()",
                )
                .await?,
            // A room nobody holds, or whose holder let it go (node 0), or whose holder's lease
            // expired or whose holder's connection is gone (its key's lock is free), is taken
            // under the next epoch.
            acquire: client
                .prepare(
                    "INSERT INTO room_leases AS l (room, node, epoch) VALUES ($1, $2, 1)
                     ON CONFLICT (room) DO UPDATE SET node = EXCLUDED.node, epoch = l.epoch + 1
                     WHERE l.node = EXCLUDED.node OR l.node = 0
                        OR NOT EXISTS (SELECT 1 FROM snl_nodes n
                                       WHERE n.node = l.node AND n.expires > clock_timestamp())
                        OR pg_try_advisory_xact_lock(l.node)
                     RETURNING epoch",
                )
                .await?,
            release: client
                .prepare("UPDATE room_leases SET node = 0 WHERE room = $1 AND node = $2 AND epoch = $3")
                .await?,
            fence: client.prepare("SELECT snl_fence($1::text[], $2::bigint[], $3)").await?,
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
                    "INSERT INTO room_log (room, number, command, epoch)
                     SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[])",
                )
                .await?,
            events: client
                .prepare(
                    "INSERT INTO room_events (room, seq, event, epoch)
                     SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[])",
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

/// The writer's connection: the node itself, under its key.
struct Conn {
    client: Client,
    statements: Statements,
    closed: oneshot::Receiver<()>,
    /// The node's key: its lock, and its name in `snl_nodes` and `room_leases`.
    node: i64,
}

/// The writer task: the one connection that holds this node's lease and writes.
struct Writer {
    url: String,
    conn: Option<Conn>,
    /// The rooms this node holds, with the epoch each was taken under.
    held: HashMap<String, u64>,
    notices: broadcast::Sender<Notice>,
    /// Until when the lease is trusted (shared with [`PgStorage::leased`]).
    trusted: Arc<Mutex<Option<Instant>>>,
}

type WriteJob = (Vec<RoomWrite>, Option<Save>, Option<u64>, Done<()>);

impl Writer {
    async fn run(mut self, mut rx: mpsc::UnboundedReceiver<Job>) {
        let mut renew_at = Instant::now() + RENEW;
        loop {
            // The lease first: it is renewed on time however busy the writer is, and a lease
            // that lapsed (the node was paused past it) stops everything before any job runs.
            if self.conn.is_some() && Instant::now() >= renew_at {
                self.renew().await;
                renew_at = Instant::now() + RENEW;
            }
            let closed = async {
                match self.conn.as_mut() {
                    Some(conn) => {
                        let _ = (&mut conn.closed).await;
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
                    self.lose("the connection to the database broke");
                    continue;
                }
                () = tokio::time::sleep_until(renew_at) => continue,
            };
            let mut next = Some(first);
            let mut group: Vec<WriteJob> = Vec::new();
            while let Some(job) = next.take() {
                match job {
                    Job::Write { writes, finished, lease, done } => {
                        group.push((writes, finished, lease, done));
                    }
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

    /// The lease lost, or the connection: the connection is dropped (the node's key dies with
    /// it, so its rooms are free at once), every room forgotten, and the node told.
    fn lose(&mut self, why: &str) {
        if self.conn.take().is_some() {
            eprintln!("snl serve: {why}: every room here stops");
        }
        self.held.clear();
        *self.trusted.lock().unwrap_or_else(PoisonError::into_inner) = None;
        let _ = self.notices.send(Notice::Lost);
    }

    /// Whether the lease is past the time it is trusted (the node stalled, or could not renew).
    fn lapsed(&self) -> bool {
        self.trusted
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_none_or(|t| Instant::now() >= t)
    }

    /// Renews the lease, or loses everything if it lapsed or cannot be renewed.
    async fn renew(&mut self) {
        if self.lapsed() {
            self.lose("this node's lease lapsed");
            return;
        }
        let Some(conn) = self.conn.as_ref() else { return };
        let sent = Instant::now();
        let ms = i64::try_from(LEASE.as_millis()).unwrap_or(i64::MAX);
        match conn.client.execute(&conn.statements.renew, &[&conn.node, &ms]).await {
            Ok(1) => self.trust(sent),
            Ok(_) => self.lose("this node's lease expired in the database"),
            Err(e) => self.lose(&format!("this node's lease was not renewed ({e})")),
        }
    }

    fn trust(&self, sent: Instant) {
        *self.trusted.lock().unwrap_or_else(PoisonError::into_inner) = Some(sent + TRUST);
    }

    /// The connection, made again if there is none: a new key, its lock, its lease.
    async fn connection(&mut self) -> Result<&Conn, StorageError> {
        if self.conn.as_ref().is_some_and(|c| c.client.is_closed()) {
            self.lose("the connection to the database broke");
        } else if self.conn.is_some() && self.lapsed() {
            self.lose("this node's lease lapsed");
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
            // A key no other node has (0 is nobody).
            let node = loop {
                let key = random()?.cast_signed();
                if key != 0 {
                    break key;
                }
            };
            // A node that stalls inside a transaction would keep its rooms' lease rows locked
            // (the fence's `FOR SHARE`) and so keep every other node from taking them:
            // PostgreSQL ends such a session, freeing its key and its rooms.
            client
                .batch_execute("SET idle_in_transaction_session_timeout = '2s'")
                .await
                .map_err(|e| db(&e))?;
            let sent = Instant::now();
            let ms = i64::try_from(LEASE.as_millis()).unwrap_or(i64::MAX);
            client.execute("SELECT pg_advisory_lock($1)", &[&node]).await.map_err(|e| db(&e))?;
            client
                .execute(
                    "INSERT INTO snl_nodes (node, expires)
                     VALUES ($1, clock_timestamp() + $2::bigint * interval '1 ms')",
                    &[&node, &ms],
                )
                .await
                .map_err(|e| db(&e))?;
            // Leases that ended long ago are forgotten.
            client
                .execute(
                    "DELETE FROM snl_nodes WHERE expires < clock_timestamp() - interval '1 hour'",
                    &[],
                )
                .await
                .map_err(|e| db(&e))?;
            self.trust(sent);
            self.conn = Some(Conn { client, statements, closed, node });
        }
        Ok(self.conn.as_ref().expect("connected just above"))
    }

    async fn acquire(&mut self, room: &str) -> Result<Option<u64>, StorageError> {
        // Connected first: a lease that lapsed forgets every room held under it.
        self.connection().await?;
        if let Some(&epoch) = self.held.get(room) {
            return Ok(Some(epoch));
        }
        let conn = self.connection().await?;
        let row = conn
            .client
            .query_opt(&conn.statements.acquire, &[&room, &conn.node])
            .await
            .map_err(|e| db(&e))?;
        let epoch = row.map(|r| r.get::<_, i64>(0).cast_unsigned());
        if let Some(epoch) = epoch {
            self.held.insert(room.to_owned(), epoch);
        }
        Ok(epoch)
    }

    async fn release(&mut self, room: &str) -> Result<bool, StorageError> {
        let Some(epoch) = self.held.remove(room) else { return Ok(false) };
        let conn = self.connection().await?;
        conn.client
            .execute(&conn.statements.release, &[&room, &conn.node, &epoch.cast_signed()])
            .await
            .map_err(|e| db(&e))?;
        Ok(true)
    }

    /// Commits `group` in one transaction, or batch by batch when the database refuses it
    /// whole; a batch for a room not held is refused before.
    async fn commit(&mut self, group: Vec<WriteJob>) {
        if group.is_empty() {
            return;
        }
        if self.conn.is_some() && self.lapsed() {
            self.lose("this node's lease lapsed");
        }
        let mut ready = Vec::with_capacity(group.len());
        for (writes, finished, lease, done) in group {
            match self.check(&writes, lease).await {
                Ok(rooms) => ready.push((writes, finished, rooms, done)),
                Err(e) => {
                    let _ = done.send(Err(e));
                }
            }
        }
        if ready.is_empty() {
            return;
        }
        let together = self
            .transaction(ready.iter().map(|(w, f, r, _)| (w.as_slice(), f.as_ref(), r.as_slice())))
            .await;
        if together.is_ok() || ready.len() == 1 {
            for (_, _, rooms, done) in ready {
                if let Err(StorageError::Fenced(_)) = &together {
                    self.forget(&rooms);
                }
                let _ = done.send(together.clone());
            }
            return;
        }
        for (writes, finished, rooms, done) in ready {
            let alone = self
                .transaction(std::iter::once((
                    writes.as_slice(),
                    finished.as_ref(),
                    rooms.as_slice(),
                )))
                .await;
            if let Err(StorageError::Fenced(_)) = &alone {
                self.forget(&rooms);
            }
            let _ = done.send(alone);
        }
    }

    /// The rooms `writes` touches, each with the epoch it is written under: `lease` when the
    /// writer said, else the one this node holds (a room created here is taken first).
    async fn check(
        &mut self,
        writes: &[RoomWrite],
        lease: Option<u64>,
    ) -> Result<Vec<(String, u64)>, StorageError> {
        for write in writes {
            if let RoomWrite::Create { room, .. } = write
                && self.acquire(room).await?.is_none()
            {
                return Err(StorageError::NotHeld(room.clone()));
            }
        }
        let mut rooms: Vec<(String, u64)> = Vec::new();
        for write in writes {
            let (RoomWrite::Create { room, .. }
            | RoomWrite::Seat { room, .. }
            | RoomWrite::Log { room, .. }
            | RoomWrite::Event { room, .. }
            | RoomWrite::Over { room }) = write
            else {
                continue;
            };
            if rooms.iter().any(|(r, _)| r == room) {
                continue;
            }
            match self.held.get(room) {
                Some(&epoch) if lease.is_none_or(|l| l == epoch) => {
                    rooms.push((room.clone(), epoch));
                }
                _ => return Err(StorageError::NotHeld(room.clone())),
            }
        }
        Ok(rooms)
    }

    async fn transaction<'a>(
        &mut self,
        batches: impl Iterator<Item = (&'a [RoomWrite], Option<&'a Save>, &'a [(String, u64)])>,
    ) -> Result<(), StorageError> {
        let mut fence = (Vec::new(), Vec::new());
        let mut rooms = (Vec::new(), Vec::new(), Vec::new());
        let mut seats = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut log = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut events = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut over = Vec::new();
        let mut games = Vec::new();
        for (writes, finished, leases) in batches {
            for (room, epoch) in leases {
                fence.0.push(room.as_str());
                fence.1.push(epoch.cast_signed());
            }
            let epoch_of = |room: &str| {
                leases.iter().find(|(r, _)| r == room).map_or(0, |(_, e)| e.cast_signed())
            };
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
                        log.3.push(epoch_of(room));
                    }
                    RoomWrite::Event { room, seq, event } => {
                        events.0.push(room.as_str());
                        events.1.push(seq.cast_signed());
                        events.2.push(event.as_str());
                        events.3.push(epoch_of(room));
                    }
                    RoomWrite::Over { room } => over.push(room.as_str()),
                    _ => {}
                }
            }
            games.extend(finished);
        }
        let conn = self.connection().await?;
        let (client, statements, node) = (&conn.client, &conn.statements, conn.node);
        let run = async {
            client.batch_execute("BEGIN").await?;
            // First the fence: every room's lease is this node's, under the epoch written.
            if !fence.0.is_empty() {
                client.execute(&statements.fence, &[&fence.0, &fence.1, &node]).await?;
            }
            if !rooms.0.is_empty() {
                client.execute(&statements.rooms, &[&rooms.0, &rooms.1, &rooms.2]).await?;
            }
            if !seats.0.is_empty() {
                client
                    .execute(&statements.seats, &[&seats.0, &seats.1, &seats.2, &seats.3])
                    .await?;
            }
            if !log.0.is_empty() {
                client.execute(&statements.log, &[&log.0, &log.1, &log.2, &log.3]).await?;
            }
            if !events.0.is_empty() {
                client
                    .execute(&statements.events, &[&events.0, &events.1, &events.2, &events.3])
                    .await?;
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

    /// After a batch was fenced, its rooms (under the epochs written) are not this node's.
    fn forget(&mut self, rooms: &[(String, u64)]) {
        for (room, epoch) in rooms {
            if self.held.get(room) == Some(epoch) {
                self.held.remove(room);
            }
        }
    }
}

impl Storage for PgStorage {
    fn write(&self, writes: Vec<RoomWrite>, finished: Option<Save>) -> Pending<'_, ()> {
        Box::pin(self.ask(|done| Job::Write { writes, finished, lease: None, done }))
    }

    fn write_under(
        &self,
        lease: u64,
        writes: Vec<RoomWrite>,
        finished: Option<Save>,
    ) -> Pending<'_, ()> {
        Box::pin(self.ask(move |done| Job::Write { writes, finished, lease: Some(lease), done }))
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

    fn leased(&self) -> bool {
        self.trusted
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_some_and(|t| Instant::now() < t)
    }

    fn acquire<'a>(&'a self, room: &'a str) -> Pending<'a, Option<u64>> {
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
