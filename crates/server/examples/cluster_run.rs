//! The cluster run of issue 15, against a cluster that `deploy/cluster.sh up` started: rooms
//! of one person (a WebSocket client) and one computer seat, all played at once through nginx;
//! mid-way a node is killed (the `--kill` command); every client whose connection closes
//! reconnects with `since`. Then the node is started again (`--restart`) and must serve rooms
//! again (it takes them back). Every game must have a gap-free, duplicate-free event sequence
//! equal to the game its seed gives on a single server. Requests and sockets carry the
//! `Origin` a page served by nginx has, as a browser's would. Prints the time from the kill until
//! each moved room's first new event (median, max) and exits 1 on any failure.
//!
//! ```text
//! cargo run --release -p snl-server --example cluster_run -- --addr 127.0.0.1:8800 \
//!     --rooms 300 --kill "deploy/cluster.sh kill-node 2" \
//!     --restart "deploy/cluster.sh start-node 2" --node 127.0.0.1:8802
//! ```

#![allow(clippy::missing_panics_doc)]

use std::{net::SocketAddr, process::Command, time::Duration};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    time::Instant,
};
use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};

/// Pause of the person before each roll, so that games last long enough to be cut by the kill.
const THINK: Duration = Duration::from_millis(40);

async fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let status = response.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

fn request(seed: u64) -> String {
    json!({"seats": [{"kind": "human"}, {"kind": "easy", "name": "Robo"}], "seed": seed})
        .to_string()
}

/// What one room's person saw.
#[derive(Debug, Default)]
struct Played {
    frames: Vec<Value>,
    /// When the connection closed under the client after the kill, and when the first event
    /// came after it.
    moved: Option<(Instant, Option<Instant>)>,
    reconnects: u32,
}

/// Plays seat 0 of `room` to the end, reconnecting with `since` whenever the connection closes.
async fn person(addr: SocketAddr, room: String, token: String, think: Duration) -> Played {
    let mut played = Played::default();
    let mut attempts = 0;
    loop {
        // As the browser game's page connects: with its Origin, which the node compares with
        // the Host nginx passes on.
        let mut request = format!("ws://{addr}/api/rooms/{room}/ws").into_client_request().unwrap();
        request.headers_mut().insert("Origin", format!("http://{addr}").parse().unwrap());
        let Ok((mut socket, _)) = tokio_tungstenite::connect_async(request).await else {
            attempts += 1;
            assert!(attempts < 400, "room {room}: cannot reconnect");
            tokio::time::sleep(Duration::from_millis(25)).await;
            continue;
        };
        let since = played.frames.last().map_or(0, |f| f["seq"].as_u64().unwrap());
        let hello = json!({"type": "hello", "token": token, "since": since});
        if socket.send(Message::Text(hello.to_string().into())).await.is_err() {
            continue;
        }
        let mut awaiting = Value::Null;
        let mut seat = Value::Null;
        loop {
            if !seat.is_null() && awaiting["seat"] == seat {
                tokio::time::sleep(think).await;
                let intent = if awaiting["type"] == "roll" {
                    json!({"type": "roll"})
                } else {
                    json!({"type": "choose", "option": 0})
                };
                if socket.send(Message::Text(intent.to_string().into())).await.is_err() {
                    break;
                }
            }
            awaiting = Value::Null;
            let Some(Ok(message)) = socket.next().await else { break };
            let Message::Text(text) = message else { continue };
            let frame: Value = serde_json::from_str(&text).unwrap();
            match frame["type"].as_str() {
                Some("welcome") => {
                    seat = frame["seat"].clone();
                    awaiting = frame["state"]["awaiting"].clone();
                }
                Some("awaiting") => awaiting = frame["awaiting"].clone(),
                Some("event") => {
                    if let Some((_, first @ None)) = played.moved.as_mut() {
                        *first = Some(Instant::now());
                    }
                    let over = frame["event"]["type"] == "game_ended";
                    played.frames.push(frame);
                    if over {
                        let _ = socket.close(None).await;
                        return played;
                    }
                }
                _ => {}
            }
        }
        played.reconnects += 1;
        if played.moved.is_none() {
            played.moved = Some((Instant::now(), None));
        }
    }
}

/// The game's events, without who came and went (and the seats kept for them while away: a
/// person whose node died is away until the client reconnects elsewhere).
fn game(frames: &[Value]) -> Vec<Value> {
    frames
        .iter()
        .map(|f| f["event"].clone())
        .filter(|e| {
            !matches!(e["type"].as_str(), Some("presence" | "grace_started" | "seat_returned"))
        })
        .collect()
}

/// Creates a room through `addr`, takes seat 0; returns (room, token).
async fn room(addr: SocketAddr, seed: u64) -> (String, String) {
    let (status, created) = http(addr, "POST", "/api/rooms", &request(seed)).await;
    assert_eq!(status, 201, "{created}");
    let room = created["room"].as_str().unwrap().to_owned();
    let path = format!("/api/rooms/{room}/seats/0");
    let (status, claimed) = http(addr, "POST", &path, r#"{"name":"Ann"}"#).await;
    assert_eq!(status, 200, "{claimed}");
    (room, claimed["token"].as_str().unwrap().to_owned())
}

/// Every seed's game on one server alone (in this process, SQLite).
async fn references(seeds: &[u64]) -> Vec<Vec<Value>> {
    let dir = std::env::temp_dir().join(format!("snl-cluster-run-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = snl_server::Config::new(dir.join("games.db"));
    config.create_limit = snl_server::CreateLimit { rate: 1_000_000, burst: 1_000_000 };
    config.bot_delay = Duration::ZERO;
    config.limits.rate = 100_000;
    config.limits.burst = 100_000;
    // Every reference game plays at once from this one address: no per-address cap.
    config.edge.per_address = 0;
    let app = snl_server::open(config).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(app.serve(listener));
    let games = seeds.iter().map(|&seed| {
        tokio::spawn(async move {
            let (room, token) = room(addr, seed).await;
            game(&person(addr, room, token, Duration::ZERO).await.frames)
        })
    });
    let mut out = Vec::new();
    for g in games.collect::<Vec<_>>() {
        out.push(g.await.unwrap());
    }
    let _ = std::fs::remove_dir_all(&dir);
    out
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned()
}

fn shell(command: &str) {
    let status = Command::new("sh").arg("-c").arg(command).status().unwrap();
    assert!(status.success(), "`{command}` failed");
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let addr: SocketAddr = arg(&args, "--addr").unwrap_or("127.0.0.1:8800".into()).parse().unwrap();
    let rooms: u64 = arg(&args, "--rooms").map_or(300, |r| r.parse().unwrap());
    let seeds: Vec<u64> = (1..=rooms).collect();
    let expected = references(&seeds).await;

    let started = Instant::now();
    let mut made = Vec::new();
    for &seed in &seeds {
        made.push(room(addr, seed).await);
    }
    let players: Vec<_> = made
        .iter()
        .cloned()
        .map(|(room, token)| tokio::spawn(person(addr, room, token, THINK)))
        .collect();
    // Mid-way: the games last a few seconds; the node dies one second in.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let killed_at = Instant::now();
    if let Some(kill) = arg(&args, "--kill") {
        shell(&kill);
    }
    let mut played = Vec::new();
    for p in players {
        played.push(p.await.unwrap());
    }
    let seconds = started.elapsed().as_secs_f64();

    let mut failures = 0;
    let mut moves: Vec<f64> = Vec::new();
    let mut moved_rooms = 0;
    for (i, p) in played.iter().enumerate() {
        let seqs: Vec<u64> = p.frames.iter().map(|f| f["seq"].as_u64().unwrap()).collect();
        if seqs.iter().enumerate().any(|(j, &s)| s != j as u64 + 1) {
            failures += 1;
            eprintln!("room {} (seed {}): events not 1, 2, …: {seqs:?}", made[i].0, seeds[i]);
        }
        if game(&p.frames) != expected[i] {
            failures += 1;
            eprintln!("room {} (seed {}): not the game its seed gives", made[i].0, seeds[i]);
        }
        if let Some((closed, first)) = p.moved {
            moved_rooms += 1;
            if closed >= killed_at
                && let Some(first) = first
            {
                moves.push(first.duration_since(killed_at).as_secs_f64());
            }
        }
    }
    moves.sort_by(f64::total_cmp);
    let events: usize = played.iter().map(|p| p.frames.len()).sum();
    println!("rooms {rooms}, events {events}, {seconds:.1} s");
    println!("rooms whose connection closed and that went on elsewhere: {moved_rooms}");
    if !moves.is_empty() {
        println!(
            "from the kill to a moved room's next event: median {:.3} s, max {:.3} s",
            moves[moves.len() / 2],
            moves[moves.len() - 1]
        );
    }

    // The killed node comes back and serves rooms again (it takes them back from their holders).
    if let (Some(restart), Some(node)) = (arg(&args, "--restart"), arg(&args, "--node")) {
        shell(&restart);
        let node: SocketAddr = node.parse().unwrap();
        let mut served = 0;
        for (room, _) in &made {
            let (status, state) = http(node, "GET", &format!("/api/rooms/{room}"), "").await;
            if status == 200 && state["room"] == room.as_str() {
                served += 1;
            }
        }
        println!("rooms the restarted node serves: {served} of {rooms}");
        if served != made.len() {
            failures += 1;
        }
        // And a new game through nginx plays to the end.
        let (room_id, token) = room(addr, 1).await;
        let last = person(addr, room_id, token, Duration::ZERO).await;
        if game(&last.frames) != expected[0] {
            failures += 1;
            eprintln!("a game after the restart is not the game its seed gives");
        }
    }
    println!("cluster run: {failures} problems");
    if failures > 0 {
        std::process::exit(1);
    }
}
