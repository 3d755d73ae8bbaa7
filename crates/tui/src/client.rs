// Long on purpose: the URL, the HTTP calls and the WebSocket thread belong together as one client; about a tenth is its tests.
//! A small client of `snl serve` for front ends in the terminal: the room's address, its public
//! state and a seat taken over HTTP, and [`RoomClient`] — a WebSocket to the room on a thread of
//! its own that hands the front end numbered events (each once, in order) and sends its intents,
//! reconnecting with `since` when the connection drops. Blocking and thread-based, so the
//! line-by-line console and the full-screen game (a loop with a tick) can both poll it.

use std::{
    io::{self, Read, Write},
    net::{TcpStream, ToSocketAddrs},
    sync::mpsc,
    time::Duration,
};

use serde::de::DeserializeOwned;
use snl_engine::{Event, Numbered};
use snl_wire::{
    api::ErrorBody,
    frames::{Awaited, ClientFrame, ErrorCode, ServerFrame},
    rooms::{AwardLine, Claim, ClaimAnswer, RoomState},
};
use tungstenite::{Message, WebSocket};

/// How long a connection attempt may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How often the connection's thread looks for intents to send while it waits for frames.
const POLL: Duration = Duration::from_millis(20);
/// Largest HTTP answer read, in bytes.
const MAX_ANSWER: u64 = 1 << 20;
/// Attempts to reconnect before giving up (backing off from 100 ms to 2 s: about a minute).
const RECONNECTS: u32 = 35;

/// Why the client could not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The address is not a room's page address.
    #[error(
        "'{0}' is not a room's address: it looks like http://HOST:PORT/room/ID (the room page's address)"
    )]
    BadUrl(String),
    /// The server refused, with its code and sentence.
    #[error("{message}")]
    Refused {
        /// The HTTP status or `error` frame code.
        code: String,
        /// The server's sentence.
        message: String,
    },
    /// The server cannot be reached or answered something that is not the protocol.
    #[error("{0}")]
    Network(String),
}

impl ClientError {
    /// Whether the request was wrong (a bad address, an unknown room, a full room, a taken name)
    /// rather than the network or the server failing.
    pub fn is_bad_input(&self) -> bool {
        match self {
            ClientError::BadUrl(_) => true,
            ClientError::Refused { code, .. } => !code.starts_with("server") && code != "gone",
            ClientError::Network(_) => false,
        }
    }
}

/// A room's address: `http://HOST:PORT/room/ID`, as its page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomUrl {
    /// `HOST:PORT`.
    pub(crate) host: String,
    /// The room's id.
    pub(crate) room: String,
}

impl std::str::FromStr for RoomUrl {
    type Err = ClientError;

    fn from_str(text: &str) -> Result<RoomUrl, ClientError> {
        let bad = || ClientError::BadUrl(text.to_owned());
        let rest = text.trim().strip_prefix("http://").ok_or_else(bad)?;
        let rest = rest.split('#').next().unwrap_or_default();
        let (host, path) = rest.split_once('/').ok_or_else(bad)?;
        let room = path.strip_prefix("room/").ok_or_else(bad)?.trim_end_matches('/');
        let fine = |s: &str| {
            !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_.:[]".contains(c))
        };
        if !fine(host) || !fine(room) || room.contains(':') {
            return Err(bad());
        }
        Ok(RoomUrl { host: host.to_owned(), room: room.to_owned() })
    }
}

/// The seat token an address carries after `#token=` (as the room page's own link has it).
pub(crate) fn token_in(text: &str) -> Option<String> {
    let (_, fragment) = text.trim().split_once('#')?;
    let token = fragment.strip_prefix("token=")?;
    (!token.is_empty()).then(|| token.to_owned())
}

impl std::fmt::Display for RoomUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "http://{}/room/{}", self.host, self.room)
    }
}

fn network(url: &RoomUrl, e: impl std::fmt::Display) -> ClientError {
    ClientError::Network(format!("cannot reach the server at {}: {e}", url.host))
}

fn stream(url: &RoomUrl) -> Result<TcpStream, ClientError> {
    let addr = url
        .host
        .to_socket_addrs()
        .map_err(|e| network(url, e))?
        .next()
        .ok_or_else(|| network(url, "the host has no address"))?;
    let stream = TcpStream::connect_timeout(&addr, CONNECT_TIMEOUT).map_err(|e| network(url, e))?;
    stream.set_read_timeout(Some(CONNECT_TIMEOUT)).map_err(|e| network(url, e))?;
    let _ = stream.set_nodelay(true);
    Ok(stream)
}

/// One HTTP/1.1 request to the room's server: its JSON answer; a 4xx or 5xx is
/// [`ClientError::Refused`] with the server's code and sentence.
fn http<T: DeserializeOwned>(
    url: &RoomUrl,
    method: &str,
    path: &str,
    body: Option<String>,
) -> Result<T, ClientError> {
    let mut stream = stream(url)?;
    let body = body.unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        url.host,
        body.len()
    );
    stream.write_all(request.as_bytes()).map_err(|e| network(url, e))?;
    let mut answer = Vec::new();
    (&mut stream).take(MAX_ANSWER).read_to_end(&mut answer).map_err(|e| network(url, e))?;
    let answer = String::from_utf8_lossy(&answer);
    let not_http = || network(url, "the answer is not HTTP");
    let status: u16 = answer.get(9..12).and_then(|s| s.parse().ok()).ok_or_else(not_http)?;
    let json = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    if status >= 400 {
        let ErrorBody { error } = serde_json::from_str(json).map_err(|_| not_http())?;
        let code = if status >= 500 { format!("server {}", error.code) } else { error.code };
        return Err(ClientError::Refused { code, message: error.message });
    }
    serde_json::from_str(json)
        .map_err(|e| network(url, format!("the answer is not the protocol's: {e}")))
}

/// The room's public state (`GET /api/rooms/{room}`).
///
/// # Errors
///
/// [`ClientError::Refused`] (`no_such_room`) for a room the server does not hold.
pub(crate) fn room_state(url: &RoomUrl) -> Result<RoomState, ClientError> {
    http(url, "GET", &format!("/api/rooms/{}", url.room), None)
}

/// Opens the next game of the room's series (`POST /api/rooms/{room}/next`: the room already
/// opened if it was), returning its address.
///
/// # Errors
///
/// [`ClientError::Refused`] when there is no next game (the series is decided, the game not
/// over, no series), or the server cannot be reached.
pub(crate) fn open_next(url: &RoomUrl) -> Result<RoomUrl, ClientError> {
    let next: snl_wire::rooms::NextGame =
        http(url, "POST", &format!("/api/rooms/{}/next", url.room), None)?;
    Ok(RoomUrl { room: next.room, ..url.clone() })
}

/// Takes the first open seat of the room as `name`; returns the seat and its token.
///
/// # Errors
///
/// [`ClientError::Refused`] when no seat is open (code `room_full`), or the server refuses the
/// name or the seat.
pub(crate) fn take_seat(url: &RoomUrl, name: &str) -> Result<(usize, String), ClientError> {
    let state = room_state(url)?;
    let open = state.seats.iter().find(|s| s.open).map(|s| s.seat);
    let Some(seat) = open else {
        return Err(ClientError::Refused {
            code: "room_full".into(),
            message: format!("room {} has no open seat", url.room),
        });
    };
    let path = format!("/api/rooms/{}/seats/{seat}", url.room);
    // The seat's own seed for the room's dice (docs/fairness.md): 16 random bytes in hex.
    let mut bytes = [0_u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| network(url, format!("no randomness: {e}")))?;
    let seed = Some(snl_session::fairness::hex(&bytes));
    let claim = serde_json::to_string(&Claim { name: name.to_owned(), seed }).unwrap_or_default();
    let answer: ClaimAnswer = http(url, "POST", &path, Some(claim))?;
    Ok((answer.seat, answer.token))
}

/// The room's game once over, as a save file keeps it, its dice's secret revealed
/// (`GET /api/rooms/{room}/save`): what `snl verify ROOM_URL` checks.
///
/// # Errors
///
/// [`ClientError`] when the server cannot be reached or refuses (the game is not over).
pub fn room_save(url: &RoomUrl) -> Result<snl_store::Save, ClientError> {
    let save: serde_json::Value = http(url, "GET", &format!("/api/rooms/{}/save", url.room), None)?;
    snl_store::Save::from_json(save.to_string().as_bytes())
        .map_err(|e| network(url, format!("its saved game cannot be read: {e}")))
}

/// What the room tells the front end.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Update {
    /// The answer to hello (again after each reconnection): the seat held, the last event's
    /// number, the room's public state.
    Welcome {
        /// The seat, or none for a spectator.
        seat: Option<usize>,
        /// The last event's number then.
        seq: u64,
        /// As `GET /api/rooms/{room}`.
        state: Box<RoomState>,
    },
    /// An event, each once and in order (events told again after a reconnection are dropped).
    Event(Numbered<String>),
    /// What the game awaits now (none once the game is over, with the achievements the game
    /// earned its seats).
    Awaiting(Option<Awaited>, Vec<AwardLine>),
    /// Once the game is over, where the room's series stands (sent before the last
    /// [`Update::Awaiting`]).
    Series(snl_wire::rooms::SeriesLine),
    /// The next game of the room's series is open in this room.
    Next(String),
    /// An intent was refused; nothing changed.
    Refused {
        /// Why.
        code: ErrorCode,
        /// The server's sentence.
        message: String,
    },
    /// The connection dropped; the client is connecting again.
    Reconnecting(String),
    /// The connection is over for good (the server refused it, or could not be reached again).
    Closed(String),
}

type Socket = WebSocket<TcpStream>;

/// The connection's thread has ended (after [`Update::Closed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ended;

/// A connection to one room, on a thread of its own: see the module documentation. Dropping it
/// closes the connection.
#[derive(Debug)]
pub(crate) struct RoomClient {
    updates: mpsc::Receiver<Update>,
    intents: mpsc::Sender<ClientFrame>,
}

impl RoomClient {
    /// Connects to the room with `token` (none to watch) and says hello; the welcome is the
    /// first update, then every event of the room from the first.
    ///
    /// # Errors
    ///
    /// [`ClientError::Refused`] when the server refuses the connection or the token;
    /// [`ClientError::Network`] when it cannot be reached.
    pub(crate) fn connect(url: &RoomUrl, token: Option<String>) -> Result<RoomClient, ClientError> {
        let (socket, welcome) = open(url, token.as_deref(), Some(0))?;
        let (updates_tx, updates) = mpsc::channel();
        let (intents, intents_rx) = mpsc::channel();
        let _ = updates_tx.send(welcome);
        // The events from the first follow the welcome.
        let link =
            Link { url: url.clone(), token, seq: 0, updates: updates_tx, intents: intents_rx };
        std::thread::Builder::new()
            .name("snl-room".into())
            .spawn(move || link.run(socket))
            .map_err(|e| ClientError::Network(format!("cannot start a thread: {e}")))?;
        Ok(RoomClient { updates, intents })
    }

    /// The next update, waiting for it; `None` once the connection's thread has ended.
    pub(crate) fn next(&self) -> Option<Update> {
        self.updates.recv().ok()
    }

    /// The next update if one comes within `wait`.
    ///
    /// # Errors
    ///
    /// [`Ended`] once the connection's thread has ended.
    pub(crate) fn next_within(&self, wait: Duration) -> Result<Option<Update>, Ended> {
        match self.updates.recv_timeout(wait) {
            Ok(update) => Ok(Some(update)),
            Err(mpsc::RecvTimeoutError::Timeout) => Ok(None),
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(Ended),
        }
    }

    /// Sends an intent (`roll`, `choose`, `autopilot`, `chat`); a refusal comes back as
    /// [`Update::Refused`].
    pub(crate) fn send(&self, intent: ClientFrame) {
        let _ = self.intents.send(intent);
    }
}

/// Opens a WebSocket to the room, says hello and reads the welcome (the events missed come
/// after it).
fn open(
    url: &RoomUrl,
    token: Option<&str>,
    since: Option<u64>,
) -> Result<(Socket, Update), ClientError> {
    let tcp = stream(url)?;
    let address = format!("ws://{}/api/rooms/{}/ws", url.host, url.room);
    let (mut socket, _) = tungstenite::client(address.as_str(), tcp).map_err(|e| match e {
        tungstenite::HandshakeError::Failure(tungstenite::Error::Http(answer)) => {
            let body = answer.body().as_deref().unwrap_or_default();
            match serde_json::from_slice::<ErrorBody>(body) {
                Ok(ErrorBody { error }) => {
                    ClientError::Refused { code: error.code, message: error.message }
                }
                Err(_) => ClientError::Refused {
                    code: "refused".into(),
                    message: format!("the server answered {}", answer.status()),
                },
            }
        }
        other => network(url, other),
    })?;
    let hello = ClientFrame::Hello { token: token.map(str::to_owned), since, recent: None };
    socket.send(Message::Text(hello.to_text().into())).map_err(|e| network(url, e))?;
    loop {
        let message = socket.read().map_err(|e| network(url, e))?;
        let Message::Text(text) = message else { continue };
        match serde_json::from_str::<ServerFrame>(text.as_str()) {
            Ok(ServerFrame::Welcome { seat, seq, state }) => {
                socket.get_ref().set_read_timeout(Some(POLL)).map_err(|e| network(url, e))?;
                return Ok((socket, Update::Welcome { seat, seq, state }));
            }
            Ok(ServerFrame::Error { code, message }) => {
                return Err(ClientError::Refused { code: code.as_str().to_owned(), message });
            }
            _ => return Err(network(url, "the server did not answer hello with welcome")),
        }
    }
}

/// The connection's thread.
struct Link {
    url: RoomUrl,
    token: Option<String>,
    /// The last event handed on.
    seq: u64,
    updates: mpsc::Sender<Update>,
    intents: mpsc::Receiver<ClientFrame>,
}

/// Why a connection ended.
enum End {
    /// The front end dropped the client.
    Done,
    /// The connection dropped: connect again.
    Dropped(String),
}

impl Link {
    fn run(mut self, mut socket: Socket) {
        loop {
            let reason = match self.serve(&mut socket) {
                End::Done => {
                    let _ = socket.close(None);
                    let _ = socket.flush();
                    return;
                }
                End::Dropped(reason) => reason,
            };
            match self.reconnect(reason) {
                Some(again) => socket = again,
                None => return,
            }
        }
    }

    /// Hands frames on and sends intents until the connection drops or the front end leaves.
    fn serve(&mut self, socket: &mut Socket) -> End {
        loop {
            match socket.read() {
                Ok(Message::Text(text)) => {
                    let Ok(frame) = serde_json::from_str::<ServerFrame>(text.as_str()) else {
                        continue;
                    };
                    if !self.hand_on(frame) {
                        return End::Done;
                    }
                }
                Ok(Message::Close(_)) => {
                    return End::Dropped("the server closed the connection".into());
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => {}
                Err(e) => return End::Dropped(e.to_string()),
            }
            loop {
                match self.intents.try_recv() {
                    Ok(intent) => {
                        if let Err(e) = socket.send(Message::Text(intent.to_text().into())) {
                            return End::Dropped(e.to_string());
                        }
                    }
                    Err(mpsc::TryRecvError::Empty) => break,
                    Err(mpsc::TryRecvError::Disconnected) => return End::Done,
                }
            }
        }
    }

    /// Passes a frame to the front end; false when it has gone.
    fn hand_on(&mut self, frame: ServerFrame) -> bool {
        let update = match frame {
            ServerFrame::Event { seq, event, .. } => {
                if seq <= self.seq {
                    return true;
                }
                self.seq = seq;
                Update::Event(Numbered { seq, event })
            }
            ServerFrame::Awaiting { awaiting, awards, series, .. } => {
                if let Some(series) = series
                    && self.updates.send(Update::Series(series)).is_err()
                {
                    return false;
                }
                Update::Awaiting(awaiting, awards)
            }
            ServerFrame::Next { room } => Update::Next(room),
            ServerFrame::Error { code, message } => Update::Refused { code, message },
            ServerFrame::Welcome { seat, seq, state } => Update::Welcome { seat, seq, state },
        };
        self.updates.send(update).is_ok()
    }

    /// Connects again with `since`, backing off; `None` when it gave up or the front end left.
    fn reconnect(&mut self, reason: String) -> Option<Socket> {
        self.updates.send(Update::Reconnecting(reason)).ok()?;
        let mut wait = Duration::from_millis(100);
        let mut last = String::new();
        for _ in 0..RECONNECTS {
            match open(&self.url, self.token.as_deref(), Some(self.seq)) {
                Ok((socket, welcome)) => {
                    self.updates.send(welcome).ok()?;
                    return Some(socket);
                }
                Err(e @ ClientError::Refused { .. }) => {
                    let _ = self.updates.send(Update::Closed(e.to_string()));
                    return None;
                }
                Err(e) => last = e.to_string(),
            }
            // Backing off between attempts (a pause in the connection's own thread).
            std::thread::sleep(wait);
            wait = (wait * 2).min(Duration::from_secs(2));
        }
        let _ = self.updates.send(Update::Closed(last));
        None
    }
}

/// The event's players back to seat numbers by `names` (an unknown name becomes a new number
/// past the seats, which the narration shows as `#N`).
pub(crate) fn indexed(event: &Event<String>, names: &[String]) -> Event<usize> {
    event.map_players(|name| names.iter().position(|n| n == name).unwrap_or(names.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_room_address_is_the_room_pages_address() {
        let url: RoomUrl = "http://127.0.0.1:8080/room/5f0c2a9e81d34b07".parse().unwrap();
        assert_eq!(url.host, "127.0.0.1:8080");
        assert_eq!(url.room, "5f0c2a9e81d34b07");
        assert_eq!(url.to_string(), "http://127.0.0.1:8080/room/5f0c2a9e81d34b07");
        let with_token: RoomUrl = "http://localhost:80/room/ab#token=xyz".parse().unwrap();
        assert_eq!(with_token.room, "ab");
        assert_eq!(token_in("http://localhost:80/room/ab#token=xyz").as_deref(), Some("xyz"));
        assert_eq!(token_in("http://localhost:80/room/ab"), None);
        assert_eq!(token_in("http://localhost:80/room/ab#token="), None);
        for bad in [
            "",
            "127.0.0.1:8080/room/ab",
            "https://h:1/room/ab",
            "http://h:1/rooms/ab",
            "http://h:1/room/",
            "http://h:1/room/a b",
            "ftp://x",
        ] {
            let error = bad.parse::<RoomUrl>().unwrap_err();
            assert!(error.is_bad_input());
            assert!(error.to_string().contains(&format!("'{bad}'")), "{error}");
        }
    }
}
