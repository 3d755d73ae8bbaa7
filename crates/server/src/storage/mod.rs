//! What the server keeps, behind one trait: rooms, their seats (token hashes only), their
//! command logs, their events (one per `(room, seq)`, never two), and the finished games
//! recorded as `snl play` records them. Two stores implement it: [`SqliteStorage`], the game
//! database on one machine (the default), and [`PgStorage`], PostgreSQL shared by several
//! `snl serve` nodes, where a node acts for a room only while it holds the room's lease.
//!
//! ```no_run
//! use snl_server::storage::{Location, Storage};
//! # async fn demo() -> Result<(), snl_server::storage::StorageError> {
//! let storage = Location::parse("postgres://snl@127.0.0.1:5432/snl".as_ref()).open().await?;
//! for room in storage.unfinished().await? {
//!     println!("{} has {} events", room.id, room.events.len());
//! }
//! # Ok(())
//! # }
//! ```

mod postgres;
mod sqlite;

use std::{future::Future, path::Path, pin::Pin, sync::Arc};

pub use postgres::PgStorage;
use snl_store::{RoomWrite, Save, StoredRoom};
pub use sqlite::SqliteStorage;
use tokio::sync::broadcast;

/// What a [`Storage`] call gives back, later.
pub type Pending<'a, T> = Pin<Box<dyn Future<Output = Result<T, StorageError>> + Send + 'a>>;

/// Why a storage call failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StorageError {
    /// The database refused or failed (nothing of the batch is stored).
    #[error("the database {0}")]
    Db(String),
    /// This node does not hold the room's lease: another node may act for it.
    #[error("this node no longer holds room {0}")]
    NotHeld(String),
    /// The database refused the batch: a room's lease was taken by another node (a newer
    /// epoch) since this node took it.
    #[error("the database refused the batch: {0}")]
    Fenced(String),
    /// The database cannot be reached.
    #[error("the database cannot be reached: {0}")]
    Unreachable(String),
}

/// What another node said, for the nodes sharing one [`Storage`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Notice {
    /// A node asks whichever node holds `room` to let it go.
    Release(String),
    /// The node that held `room` has let it go.
    Released(String),
    /// A room's lobby entry changed: the entry (JSON, with its `room`).
    Lobby(String),
    /// This node lost every lease it held (its lease lapsed or its connection broke).
    Lost,
}

/// Where the rooms are kept.
pub trait Storage: Send + Sync + std::fmt::Debug {
    /// Stores every change in one transaction (all of them or none), then records `finished`,
    /// a game that ended, in the game records. Changes from several callers may be committed
    /// together, but one caller's refused batch never fails another's.
    ///
    /// # Errors
    ///
    /// [`StorageError::NotHeld`] when a room written is not this node's (a new room is this
    /// node's from its `Create`), [`StorageError::Db`] when the database refuses (a sequence or
    /// command number written twice), [`StorageError::Unreachable`].
    fn write(&self, writes: Vec<RoomWrite>, finished: Option<Save>) -> Pending<'_, ()>;

    /// [`Storage::write`] under the epoch `lease` of the rooms written (what
    /// [`Storage::acquire`] gave): refused when this node no longer holds them under it. Alone
    /// on its storage, a node writes as [`Storage::write`] does.
    ///
    /// # Errors
    ///
    /// As [`Storage::write`]; [`StorageError::Fenced`] when the database finds a room taken
    /// under a newer epoch.
    fn write_under(
        &self,
        lease: u64,
        writes: Vec<RoomWrite>,
        finished: Option<Save>,
    ) -> Pending<'_, ()> {
        let _ = lease;
        self.write(writes, finished)
    }

    /// Every room whose game is not over, oldest first.
    ///
    /// # Errors
    ///
    /// [`StorageError::Db`], [`StorageError::Unreachable`].
    fn unfinished(&self) -> Pending<'_, Vec<StoredRoom>>;

    /// Room `id`, over or not; `None` when there is no such room.
    ///
    /// # Errors
    ///
    /// [`StorageError::Db`], [`StorageError::Unreachable`].
    fn room<'a>(&'a self, id: &'a str) -> Pending<'a, Option<StoredRoom>>;

    /// Room `id`'s events numbered `after + 1 ..= upto`, in order: what a connection that says
    /// `since` missed (every event is stored before it is sent, so all of them are here).
    ///
    /// # Errors
    ///
    /// [`StorageError::Db`], [`StorageError::Unreachable`].
    fn events_between<'a>(&'a self, id: &'a str, after: u64, upto: u64)
    -> Pending<'a, Vec<String>>;

    /// The finished games recorded, oldest first, as they began and were played.
    ///
    /// # Errors
    ///
    /// [`StorageError::Db`], [`StorageError::Unreachable`].
    fn games(&self) -> Pending<'_, Vec<Save>>;

    /// Whether other nodes share this storage (then rooms are held by leases and loaded on
    /// demand, not all restored at start).
    fn shared(&self) -> bool {
        false
    }

    /// Whether this node's lease is its own now (alone on its storage, always): a node whose
    /// lease lapsed acts for no room until it has a new one.
    fn leased(&self) -> bool {
        true
    }

    /// Takes `room`'s lease for this node: the epoch it holds the room under now (it may have
    /// held it already), `None` when another node holds it. Alone on its storage, a node
    /// holds every room, under epoch 0.
    ///
    /// # Errors
    ///
    /// [`StorageError::Unreachable`], [`StorageError::Db`].
    fn acquire<'a>(&'a self, room: &'a str) -> Pending<'a, Option<u64>> {
        let _ = room;
        Box::pin(async { Ok(Some(0)) })
    }

    /// Lets `room`'s lease go: writes for it are refused from now on. `true` when this node
    /// held it.
    ///
    /// # Errors
    ///
    /// [`StorageError::Unreachable`].
    fn release<'a>(&'a self, room: &'a str) -> Pending<'a, bool> {
        let _ = room;
        Box::pin(async { Ok(false) })
    }

    /// Tells every node sharing the storage (this one too) `notice`.
    ///
    /// # Errors
    ///
    /// [`StorageError::Unreachable`].
    fn notify(&self, notice: Notice) -> Pending<'_, ()> {
        let _ = notice;
        Box::pin(async { Ok(()) })
    }

    /// What the nodes sharing the storage say, from now on (`None` alone on a storage).
    fn notices(&self) -> Option<broadcast::Receiver<Notice>> {
        None
    }

    /// Stores `room`'s lobby entry (JSON) for the nodes that start later, and tells the
    /// others ([`Notice::Lobby`]).
    ///
    /// # Errors
    ///
    /// [`StorageError::Unreachable`], [`StorageError::Db`].
    fn publish<'a>(&'a self, room: &'a str, entry: &'a str) -> Pending<'a, ()> {
        let _ = (room, entry);
        Box::pin(async { Ok(()) })
    }

    /// The lobby entries stored for rooms not over, by room, every node's.
    ///
    /// # Errors
    ///
    /// [`StorageError::Unreachable`], [`StorageError::Db`].
    fn lobby(&self) -> Pending<'_, Vec<(String, String)>> {
        Box::pin(async { Ok(Vec::new()) })
    }
}

/// Where `--db` points: a SQLite file, or a PostgreSQL URL (`postgres://…` or
/// `postgresql://…`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// The game database file.
    Sqlite(std::path::PathBuf),
    /// A PostgreSQL connection string.
    Postgres(String),
}

impl Location {
    /// Reads `--db`: a URL that begins `postgres://` or `postgresql://` is PostgreSQL, anything
    /// else a file.
    pub fn parse(db: &Path) -> Location {
        match db.to_str() {
            Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
                Location::Postgres(url.to_owned())
            }
            _ => Location::Sqlite(db.to_owned()),
        }
    }

    /// Opens the storage (creating its tables if needed); `fsync` as [`crate::Config::fsync`]
    /// (PostgreSQL's own setting rules there).
    ///
    /// # Errors
    ///
    /// [`StorageError`] when the database cannot be opened, reached or upgraded.
    pub async fn open_with(&self, fsync: bool) -> Result<Arc<dyn Storage>, StorageError> {
        Ok(match self {
            Location::Sqlite(path) => {
                Arc::new(SqliteStorage::open(path, fsync, crate::now_ms)?) as Arc<dyn Storage>
            }
            Location::Postgres(url) => Arc::new(PgStorage::connect(url).await?),
        })
    }

    /// [`Location::open_with`] without waiting for the disk at every SQLite commit.
    ///
    /// # Errors
    ///
    /// As [`Location::open_with`].
    pub async fn open(&self) -> Result<Arc<dyn Storage>, StorageError> {
        self.open_with(false).await
    }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::Sqlite(path) => write!(f, "{}", path.display()),
            // The password, if any, is not shown.
            Location::Postgres(url) => match url.split_once('@') {
                Some((head, tail)) if head.contains(':') && head.matches(':').count() > 1 => {
                    let user = head.rsplit_once(':').map_or(head, |(u, _)| u);
                    write!(f, "{user}:…@{tail}")
                }
                _ => write!(f, "{url}"),
            },
        }
    }
}
