//! What the server's socket tests share: a server on a loopback port with a fresh database, a
//! tiny HTTP client, and a WebSocket client that reads frames as JSON.

pub(crate) mod pg;
pub(crate) mod process;

use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
    time::Duration,
};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
};
use tokio_tungstenite::{
    MaybeTlsStream, WebSocketStream,
    tungstenite::{Message, client::IntoClientRequest},
};

/// A fresh folder, removed when dropped.
pub(crate) struct TestDir(PathBuf);

impl TestDir {
    pub(crate) fn new(name: &str) -> TestDir {
        let path = std::env::temp_dir().join(format!("snl-server-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TestDir(path)
    }

    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TestDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A server on a free loopback port, with computers playing at once.
pub(crate) struct Server {
    pub(crate) addr: SocketAddr,
    pub(crate) dir: TestDir,
}

impl Server {
    pub(crate) async fn start(name: &str) -> Server {
        Server::start_with(name, |_| {}).await
    }

    pub(crate) async fn start_with(
        name: &str,
        adjust: impl FnOnce(&mut snl_server::Config),
    ) -> Server {
        Server::serve(TestDir::new(name), adjust).await
    }

    /// A server on the database a stopped server left in `dir` (as after a restart).
    pub(crate) async fn reopen(
        dir: TestDir,
        adjust: impl FnOnce(&mut snl_server::Config),
    ) -> Server {
        Server::serve(dir, adjust).await
    }

    async fn serve(dir: TestDir, adjust: impl FnOnce(&mut snl_server::Config)) -> Server {
        let mut config = snl_server::Config::new(dir.path().join("games.db"));
        config.bot_delay = Duration::ZERO;
        config.limits.rate = 10_000;
        config.limits.burst = 10_000;
        config.create_limit = snl_server::CreateLimit { rate: 1_000_000, burst: 100_000 };
        adjust(&mut config);
        let app = snl_server::open(config).await.unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(app.serve(listener));
        Server { addr, dir }
    }

    pub(crate) async fn http(&self, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
        http(self.addr, method, path, body).await
    }

    /// A room of these seats; returns its id.
    pub(crate) async fn room(&self, request: Value) -> String {
        let (status, body) = self.http("POST", "/api/rooms", Some(&request.to_string())).await;
        assert_eq!(status, 201, "{body}");
        body["room"].as_str().unwrap().to_owned()
    }

    /// Takes seat `seat` of `room` as `name`; returns the token.
    pub(crate) async fn claim(&self, room: &str, seat: usize, name: &str) -> String {
        let path = format!("/api/rooms/{room}/seats/{seat}");
        let (status, body) =
            self.http("POST", &path, Some(&json!({"name": name}).to_string())).await;
        assert_eq!(status, 200, "{body}");
        body["token"].as_str().unwrap().to_owned()
    }

    pub(crate) async fn state(&self, room: &str) -> Value {
        let (status, body) = self.http("GET", &format!("/api/rooms/{room}"), None).await;
        assert_eq!(status, 200, "{body}");
        body
    }

    pub(crate) async fn connect(&self, room: &str) -> Client {
        Client::connect(self.addr, room, None).await.unwrap()
    }
}

/// One HTTP/1.1 request, the connection closed after it.
pub(crate) async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> (u16, Value) {
    http_with(addr, method, path, &["Content-Type: application/json"], body).await
}

/// One HTTP/1.1 request with these header lines (besides `Host`, `Content-Length` and
/// `Connection`) as a browser sends them, the connection closed after it.
pub(crate) async fn http_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[&str],
    body: Option<&str>,
) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let body = body.unwrap_or("");
    let headers: String = headers.iter().flat_map(|h| [h, "\r\n"]).collect();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{headers}\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let status = response[9..12].parse().unwrap();
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(body).unwrap_or(Value::String(body.to_owned())))
}

/// A WebSocket client that reads frames as JSON.
pub(crate) struct Client {
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

/// How long a test waits for a frame before it fails (a guard against hangs, not a timing).
const PATIENCE: Duration = Duration::from_secs(20);

impl Client {
    pub(crate) async fn connect(
        addr: SocketAddr,
        room: &str,
        origin: Option<&str>,
    ) -> Result<Client, tokio_tungstenite::tungstenite::Error> {
        let mut request = format!("ws://{addr}/api/rooms/{room}/ws").into_client_request()?;
        if let Some(origin) = origin {
            request.headers_mut().insert("Origin", origin.parse().unwrap());
        }
        let (socket, _) = tokio_tungstenite::connect_async(request).await?;
        Ok(Client { socket })
    }

    /// The lobby stream, `/api/lobby/ws`.
    pub(crate) async fn lobby(
        addr: SocketAddr,
        origin: Option<&str>,
    ) -> Result<Client, tokio_tungstenite::tungstenite::Error> {
        let mut request = format!("ws://{addr}/api/lobby/ws").into_client_request()?;
        if let Some(origin) = origin {
            request.headers_mut().insert("Origin", origin.parse().unwrap());
        }
        let (socket, _) = tokio_tungstenite::connect_async(request).await?;
        Ok(Client { socket })
    }

    /// The lobby stream's next change about `room` (changes of other rooms are skipped).
    pub(crate) async fn change_of(&mut self, room: &str) -> Value {
        loop {
            let frame = self.frame().await;
            match frame["type"].as_str() {
                Some("room") if frame["entry"]["room"] == room => return frame,
                Some("gone") if frame["room"] == room => return frame,
                Some("room" | "gone") => {}
                _ => panic!("not a lobby change: {frame}"),
            }
        }
    }

    /// The code of the server's close frame, once it comes (text frames before it are
    /// skipped); `None` when the connection ends without one.
    pub(crate) async fn close_code(&mut self) -> Option<u16> {
        loop {
            let message = tokio::time::timeout(PATIENCE, self.socket.next())
                .await
                .expect("a frame within the patience");
            match message? {
                Ok(Message::Close(frame)) => return frame.map(|f| u16::from(f.code)),
                Err(_) => return None,
                Ok(_) => {}
            }
        }
    }

    pub(crate) async fn send(&mut self, frame: Value) {
        self.send_text(&frame.to_string()).await;
    }

    pub(crate) async fn send_text(&mut self, text: &str) {
        self.socket.send(Message::Text(text.into())).await.unwrap();
    }

    pub(crate) async fn send_ping(&mut self) {
        self.socket.send(Message::Ping(b"ping".to_vec().into())).await.unwrap();
    }

    pub(crate) async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.socket.send(Message::Binary(bytes.into())).await.unwrap();
    }

    /// The next frame, or `None` when the server closed the connection.
    pub(crate) async fn next(&mut self) -> Option<Value> {
        loop {
            let message = tokio::time::timeout(PATIENCE, self.socket.next())
                .await
                .expect("a frame within the patience");
            match message? {
                Ok(Message::Text(text)) => return Some(serde_json::from_str(&text).unwrap()),
                Ok(Message::Close(_)) | Err(_) => return None,
                Ok(_) => {}
            }
        }
    }

    pub(crate) async fn frame(&mut self) -> Value {
        self.next().await.expect("the connection is open")
    }

    /// Says hello; returns the welcome.
    pub(crate) async fn hello(&mut self, token: Option<&str>, since: Option<u64>) -> Value {
        self.send(json!({"type": "hello", "token": token, "since": since})).await;
        let welcome = self.frame().await;
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        welcome
    }

    /// Event frames until one whose event has type `kind` (included); awaiting frames skipped.
    pub(crate) async fn events_until(&mut self, kind: &str) -> Vec<Value> {
        let mut events = Vec::new();
        loop {
            let frame = self.frame().await;
            if frame["type"] == "awaiting" {
                continue;
            }
            assert_eq!(frame["type"], "event", "{frame}");
            let done = frame["event"]["type"] == kind;
            events.push(frame);
            if done {
                return events;
            }
        }
    }

    /// The next error frame's code (events before it are skipped).
    pub(crate) async fn error_code(&mut self) -> String {
        loop {
            let frame = self.frame().await;
            if frame["type"] == "error" {
                return frame["code"].as_str().unwrap().to_owned();
            }
        }
    }

    pub(crate) async fn close(mut self) {
        let _ = self.socket.close(None).await;
        while let Some(Ok(_)) = self.socket.next().await {}
    }
}

/// Whether the frames' `seq` run 1, 2, … (from `first`) with no gap and no repeat.
pub(crate) fn gap_free(frames: &[Value], first: u64) -> bool {
    frames.iter().enumerate().all(|(i, f)| f["seq"].as_u64() == Some(first + i as u64))
}
