//! The online game server of `snl serve` (SPEC §9): rooms over HTTP and WebSocket, each room
//! owned by one task around a [`snl_session::Session`]; seats proved by random tokens whose
//! hashes alone are kept; computer seats played on the server; every event stored in the game
//! database before it is sent, so a server killed and started again restores every unfinished
//! room and clients reconnecting with `since` miss nothing.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let config = snl_server::Config::new("games.db".into());
//! let app = snl_server::open(config).await?;
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! println!("listening on http://{}", listener.local_addr()?);
//! app.serve(listener).await?;
//! # Ok(())
//! # }
//! ```
//!
//! Where things are: `api` (HTTP routes and errors), `ws` (one connection: limits, hello,
//! intents), `actor` (a room's task, its clocks, store-then-send), `room` (a room as a state
//! machine and its command log), `setup` (what a room is created with), `store` (the storage
//! seam: store-then-send), [`storage`] (SQLite or PostgreSQL behind one trait), `cluster`
//! (nodes sharing PostgreSQL: room leases, take-overs, the lobby of every node), `lobby` (the
//! rooms listed and the lobby stream that tells their changes), `frames` (the
//! WebSocket frames), `token` (seat tokens), `web` (the browser game's pages and assets, embedded
//! from `web/`); `odds` (a room's live odds), `boards` (a board checked and analysed for the
//! editor), `games` (recorded games for replays), `policy` (the hard strategy's policies,
//! computed off the runtime under a deadline).
//!
//! With `db` a `postgres://…` URL, several servers share the rooms (see `docs/scaling.md`).

mod actor;
mod api;
pub mod boards;
mod chat;
mod cluster;
mod dice;
mod edge;
pub mod frames;
pub mod games;
mod http;
mod lobby;
mod odds;
mod policy;
mod quote;
mod recent;
mod room;
pub mod setup;
mod standing;
pub mod storage;
mod store;
mod token;
mod web;
mod ws;

use std::{
    collections::HashMap,
    net::SocketAddr,
    path::PathBuf,
    sync::{Arc, RwLock, atomic::AtomicUsize},
    time::Duration,
};

pub use chat::ChatLimit;
pub use edge::Edge;
pub use http::origin;
pub use policy::POLICY_SLOTS;
use storage::{Location, StorageError};
pub use web::export as export_web;

/// Largest HTTP request body, in bytes.
pub const MAX_BODY: usize = 64 * 1024;
/// Largest WebSocket message the protocol layer reads; larger ones close the connection.
pub const MAX_WS_MESSAGE: usize = 64 * 1024;

/// Bytes a WebSocket connection's read buffer starts with (and reads at most at once): a
/// client's frames are tens of bytes, and every connection holds this buffer for its life.
pub const READ_BUFFER: usize = 256;

/// Most bytes a WebSocket connection buffers for a client that does not read; past it the
/// connection ends (the client reconnects with `since` and misses nothing).
pub const MAX_WRITE_BUFFER: usize = 1024 * 1024;

/// Per-connection limits on what a client sends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Frames per second, sustained.
    pub rate: u32,
    /// Frames at once.
    pub burst: u32,
    /// Frames refused for the rate in a row before the connection is closed.
    pub flood: u32,
    /// Largest text frame answered (larger ones get a `too_large` error), in bytes.
    pub max_text: usize,
    /// How long the server waits for a client to take a page of frames (the events it missed,
    /// [`PAGE`] at a time, or one change of the room): a client that reads nothing for that
    /// long is cut off (it reconnects with `since` and misses nothing).
    pub send_time: Duration,
    /// How often the server pings a room's connection once it said hello (a browser answers
    /// each ping by itself).
    pub heartbeat: Duration,
    /// How long a room's connection may be silent — no frame, no pong — before the server
    /// takes it as gone (a cable pulled, a phone asleep: no TCP reset comes) and closes it, so
    /// that its seat is seen away; with the heartbeat, within `silence + heartbeat`.
    pub silence: Duration,
}

/// Events a connection that missed them reads from the storage and sends at once; the next page
/// is read when the client has taken this one.
pub const PAGE: u64 = 256;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            rate: 20,
            burst: 40,
            flood: 200,
            max_text: 4096,
            send_time: Duration::from_secs(20),
            heartbeat: Duration::from_secs(3),
            silence: Duration::from_secs(7),
        }
    }
}

/// How many rooms one client address may create (a token bucket per address).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CreateLimit {
    /// Rooms a minute, sustained.
    pub rate: u32,
    /// Rooms at once.
    pub burst: u32,
}

impl Default for CreateLimit {
    fn default() -> CreateLimit {
        CreateLimit { rate: 10, burst: 20 }
    }
}

/// How long a dropped person's seat is kept by default, in seconds (`--grace`).
pub const DEFAULT_GRACE_SECS: u64 = 120;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The game database: a SQLite file, or a `postgres://…` URL shared by several servers.
    pub db: PathBuf,
    /// The pause before a computer seat plays (0 in tests).
    pub bot_delay: Duration,
    /// Most rooms in memory at once: open, running, or over and lingering ([`Config::linger`]).
    pub max_rooms: usize,
    /// Most WebSocket connections at once.
    pub max_connections: usize,
    /// Connections per client address and the time to send a request's header lines.
    pub edge: Edge,
    /// Chat lines each seat (across all its connections) and each room may send.
    pub chat: ChatLimit,
    /// Per-connection limits.
    pub limits: Limits,
    /// Origins besides the server's own (`http://` and the request's `Host`) whose pages may use
    /// the API, as [`origin`] writes them: a reverse proxy that serves the game under another
    /// name or over `https` (`--allow-origin`).
    pub allow_origins: Vec<String>,
    /// How long the hard strategy's policy may take to compute for a room (waiting for one of
    /// [`POLICY_SLOTS`] included); past it the room's computers play greedy and say so.
    pub policy_time: Duration,
    /// How long a finished room stays in memory (its connections open); then it leaves and
    /// is read back from the storage when asked for.
    pub linger: Duration,
    /// How long a room waits for its open seats to be taken (since it was created or a seat
    /// was last taken) before it expires for good.
    pub open_for: Duration,
    /// Rooms one client address may create: `burst` at once, then `rate` a minute.
    pub create_limit: CreateLimit,
    /// How long a person whose connection dropped keeps their seat while the game runs (their
    /// turn clock paused) before the computer (hard) plays it (`--grace`).
    pub grace: Duration,
    /// Whether every commit waits for the disk (safe against a power cut) rather than for the
    /// operating system only (safe against the process being killed, the default).
    pub fsync: bool,
}

impl Config {
    /// The defaults, on database `db`.
    pub fn new(db: PathBuf) -> Config {
        Config {
            db,
            bot_delay: Duration::from_millis(600),
            max_rooms: 10_000,
            max_connections: 20_000,
            edge: Edge::default(),
            chat: ChatLimit::default(),
            limits: Limits::default(),
            allow_origins: Vec::new(),
            policy_time: Duration::from_secs(5),
            linger: Duration::from_mins(1),
            open_for: Duration::from_mins(30),
            create_limit: CreateLimit::default(),
            grace: Duration::from_secs(DEFAULT_GRACE_SECS),
            fsync: false,
        }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// The database cannot be opened or read.
    #[error("cannot open {location}: {error}")]
    Db {
        /// Where it is.
        location: Location,
        /// What is wrong.
        error: StorageError,
    },
    /// A stored room does not replay.
    #[error("cannot restore {0}")]
    Restore(String),
    /// The address cannot be listened on.
    #[error("cannot listen on {addr}: {error}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        error: std::io::Error,
    },
    /// Serving failed.
    #[error("the server stopped: {0}")]
    Io(#[from] std::io::Error),
}

/// What every request handler shares.
#[derive(Debug)]
struct Shared {
    rooms: RwLock<HashMap<String, actor::Handle>>,
    writer: store::Writer,
    /// What every room's task shares.
    context: actor::Context,
    config: Config,
    connections: AtomicUsize,
    /// Rooms being created (reserved against `max_rooms`, not yet held).
    creating: AtomicUsize,
    /// Each client address's rooms created, as a token bucket.
    creators: std::sync::Mutex<HashMap<std::net::IpAddr, (f64, std::time::Instant)>>,
    /// The live odds' kept tables and the permits for analysis work.
    work: odds::Work,
    /// Recorded games, read for replays.
    library: games::Library,
    /// Players' dice histories, read from the recorded games.
    dice: dice::Histories,
    cluster: cluster::Cluster,
    /// The lobby's changes, for the lobby streams.
    lobby: lobby::Lobby,
}

/// The server, with its rooms restored, ready to serve.
#[derive(Debug)]
pub struct App {
    shared: Arc<Shared>,
    restored: usize,
}

/// Milliseconds since the Unix epoch (the database's times).
fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Opens the database and restores every unfinished room (on the current tokio runtime): each
/// room's task starts at once and replays the room's log on the blocking pool, so the server
/// serves while its rooms are rebuilt (what is asked of a room waits until it is). On a
/// database shared by several servers (PostgreSQL), rooms are not restored at start but each
/// when it is first asked for, by the server it is routed to.
///
/// # Errors
///
/// [`ServeError::Db`] when the database cannot be opened or read, [`ServeError::Restore`] when a
/// stored room does not replay to the events it stored.
pub async fn open(config: Config) -> Result<App, ServeError> {
    let location = Location::parse(&config.db);
    let db_error = |error| ServeError::Db { location: location.clone(), error };
    let storage = location.open_with(config.fsync).await.map_err(db_error)?;
    let stored =
        if storage.shared() { Vec::new() } else { storage.unfinished().await.map_err(db_error)? };
    let writer = store::Writer::new(storage);
    let mut context = actor::Context::new(
        writer.clone(),
        config.bot_delay,
        config.policy_time,
        (config.linger, config.open_for),
    );
    context.chat = config.chat;
    context.grace = config.grace;
    let mut rooms = HashMap::new();
    let restored = stored.len();
    for room in stored {
        let id = room.id.clone();
        let handle = actor::restore(room, context.clone()).map_err(ServeError::Restore)?;
        rooms.insert(id, handle);
    }
    let shared = Arc::new(Shared {
        rooms: RwLock::new(rooms),
        writer,
        context,
        library: games::Library::new(config.db.clone()),
        dice: dice::Histories::new(config.db.clone()),
        config,
        connections: AtomicUsize::new(0),
        creating: AtomicUsize::new(0),
        creators: std::sync::Mutex::default(),
        work: odds::Work::default(),
        cluster: cluster::Cluster::default(),
        lobby: lobby::Lobby::default(),
    });
    {
        let rooms = shared.rooms.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        for (id, handle) in rooms.iter() {
            cluster::watch(&shared, id, handle);
        }
    }
    cluster::listen(&shared);
    Ok(App { shared, restored })
}

impl App {
    /// How many unfinished rooms were restored from the database.
    pub fn restored(&self) -> usize {
        self.restored
    }

    /// The routes (the API and the browser game), for serving or for tests.
    pub fn router(&self) -> axum::Router {
        let routes = api::router(self.shared.clone()).merge(web::router());
        // Around the whole router, not each route: a 405 has its `Allow` header by then.
        axum::Router::new()
            .fallback_service(routes)
            .layer(axum::middleware::from_fn(http::json_errors))
    }

    /// Serves on `listener` until the process ends.
    ///
    /// # Errors
    ///
    /// When accepting connections fails.
    pub async fn serve(self, listener: tokio::net::TcpListener) -> Result<(), ServeError> {
        let edge = self.shared.config.edge;
        edge::serve(listener, self.router(), edge).await;
        Ok(())
    }
}

/// Runs the server on `addr` on a runtime of its own: `listening` is told the address once it
/// listens (the caller prints it), then this serves until the process ends.
///
/// # Errors
///
/// As [`open`], [`ServeError::Bind`], and [`ServeError::Io`].
pub fn run(
    config: Config,
    addr: SocketAddr,
    listening: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async move {
        let app = open(config).await?;
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|error| ServeError::Bind { addr, error })?;
        listening(listener.local_addr()?);
        app.serve(listener).await
    })
}
