//! Soak of `snl serve` under hostile clients (issue 28 point 6). One server process with its
//! default limits; two honest rooms of two people rolling at a person's pace are measured alone
//! (idle), then while, all at once:
//! - random and malformed frames (10,000 by default) from spectators of a third room, each
//!   connection sending as fast as it can and coming back when it is cut off;
//! - a seat of that room flooding chat from 20 connections;
//! - 30 spectators of a long game (thousands of events) that say `since: 0` and read nothing;
//! - a client creating rooms as fast as it can.
//!
//! Reports the honest rolls' latency (intent sent → first event back; p50, p99, max) idle and
//! hostile with their ratio, the honest events lost or repeated (must be 0), what the hostile
//! clients got, and the server's resident memory (before, and its peak). Exit 1 on a problem.
//!
//! ```text
//! cargo build --release -p snl
//! cargo run --release -p snl-server --example soak -- [--snl target/release/snl] [--seconds 20]
//!     [--frames 10000]
//! ```

#![allow(clippy::missing_panics_doc)]

use std::{
    io::{BufRead, BufReader},
    net::SocketAddr,
    process::{Command, Stdio},
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::Duration,
};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    time::Instant,
};
use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};

/// A person's pause before each roll.
const THINK: Duration = Duration::from_millis(100);

async fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, Value) {
    let Ok(mut stream) = TcpStream::connect(addr).await else { return (0, Value::Null) };
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    if stream.write_all(request.as_bytes()).await.is_err() {
        return (0, Value::Null);
    }
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response).await;
    let status = response.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// A room of `seats`, its human seats taken; (room, tokens).
async fn room(addr: SocketAddr, request: &Value, names: &[&str]) -> (String, Vec<String>) {
    let (status, created) = http(addr, "POST", "/api/rooms", &request.to_string()).await;
    assert_eq!(status, 201, "{created}");
    let room = created["room"].as_str().unwrap().to_owned();
    let mut tokens = Vec::new();
    for (seat, name) in names.iter().enumerate() {
        let body = json!({ "name": name }).to_string();
        let (status, claimed) =
            http(addr, "POST", &format!("/api/rooms/{room}/seats/{seat}"), &body).await;
        assert_eq!(status, 200, "{claimed}");
        tokens.push(claimed["token"].as_str().unwrap().to_owned());
    }
    (room, tokens)
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

async fn connect(addr: SocketAddr, room: &str) -> Option<Socket> {
    let request = format!("ws://{addr}/api/rooms/{room}/ws").into_client_request().ok()?;
    tokio_tungstenite::connect_async(request).await.ok().map(|(s, _)| s)
}

/// What an honest person saw.
#[derive(Debug, Default)]
struct Honest {
    idle_us: Vec<u64>,
    hostile_us: Vec<u64>,
    /// Events whose seq was not the one after the last, and closes the person did not ask for.
    problems: Vec<String>,
}

/// Plays `seat` of `room` at a person's pace until `stop`; each roll's latency is counted in
/// the phase it was sent in.
async fn person(
    addr: SocketAddr,
    room: String,
    token: String,
    seat: u64,
    hostile: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
) -> Honest {
    let mut seen = Honest::default();
    let Some(mut socket) = connect(addr, &room).await else {
        seen.problems.push(format!("room {room}: cannot connect"));
        return seen;
    };
    let hello = json!({"type": "hello", "token": token, "since": 0});
    socket.send(Message::Text(hello.to_string().into())).await.unwrap();
    let mut last = 0;
    let mut rolled: Option<(Instant, bool)> = None;
    loop {
        let Ok(Some(Ok(message))) =
            tokio::time::timeout(Duration::from_secs(5), socket.next()).await
        else {
            if !stop.load(Ordering::Relaxed) {
                seen.problems.push(format!("room {room} seat {seat}: the connection ended"));
            }
            return seen;
        };
        let Message::Text(text) = message else { continue };
        let frame: Value = serde_json::from_str(&text).unwrap();
        let awaited = match frame["type"].as_str() {
            Some("welcome") => frame["state"]["awaiting"].clone(),
            Some("awaiting") => frame["awaiting"].clone(),
            Some("event") => {
                let seq = frame["seq"].as_u64().unwrap();
                if seq != last + 1 {
                    seen.problems.push(format!("room {room}: event {seq} after {last}"));
                }
                last = seq;
                if let Some((at, in_hostile)) = rolled.take() {
                    let us = u64::try_from(at.elapsed().as_micros()).unwrap_or(u64::MAX);
                    if in_hostile { &mut seen.hostile_us } else { &mut seen.idle_us }.push(us);
                }
                if frame["event"]["type"] == "game_ended" {
                    seen.problems.push(format!("room {room}: the game ended; make it longer"));
                    return seen;
                }
                Value::Null
            }
            Some("error") => {
                seen.problems.push(format!("room {room} seat {seat}: {frame}"));
                Value::Null
            }
            _ => Value::Null,
        };
        if awaited["seat"] == seat && awaited["type"] == "roll" {
            if stop.load(Ordering::Relaxed) {
                let _ = socket.close(None).await;
                return seen;
            }
            tokio::time::sleep(THINK).await;
            rolled = Some((Instant::now(), hostile.load(Ordering::Relaxed)));
            let roll = json!({"type": "roll"}).to_string();
            if socket.send(Message::Text(roll.into())).await.is_err() {
                seen.problems.push(format!("room {room} seat {seat}: cannot send"));
                return seen;
            }
        }
    }
}

/// A hostile frame drawn from `draw` (xorshift).
fn noise(draw: &mut u64) -> String {
    *draw ^= *draw << 13;
    *draw ^= *draw >> 7;
    *draw ^= *draw << 17;
    let n = *draw;
    match n % 7 {
        0 => r#"{"type":"roll"}"#.to_owned(),
        1 => r#"{"type":"choose","option":-1}"#.to_owned(),
        2 => "[".repeat(usize::try_from(n % 5000).unwrap()),
        3 => format!(r#"{{"type":"hello","token":"{n:x}","since":{n}}}"#),
        4 => "x".repeat(usize::try_from(n % 100_000).unwrap()),
        5 => r#"{"type":"chat","text":"not seated"}"#.to_owned(),
        _ => format!(r#"{{"type":{n}}}"#),
    }
}

/// Sends `frames` hostile frames in all from `connections` spectators of `room`, each as fast
/// as it can, reading what comes back; (error frames got, connections cut off).
async fn frames(addr: SocketAddr, room: String, frames: u64, connections: u64) -> (u64, u64) {
    let left = Arc::new(AtomicU64::new(frames));
    let errors = Arc::new(AtomicU64::new(0));
    let cut = Arc::new(AtomicU64::new(0));
    let tasks: Vec<_> = (0..connections)
        .map(|k| {
            let (left, errors, cut, room) =
                (left.clone(), errors.clone(), cut.clone(), room.clone());
            tokio::spawn(async move {
                let mut draw = 0x9e37_79b9_7f4a_7c15 ^ (k + 1);
                while left.load(Ordering::Relaxed) > 0 {
                    let Some(socket) = connect(addr, &room).await else {
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        continue;
                    };
                    let (mut sink, mut stream) = socket.split();
                    let errors = errors.clone();
                    let reader = tokio::spawn(async move {
                        while let Some(Ok(message)) = stream.next().await {
                            if let Message::Text(text) = message
                                && text.contains(r#""type":"error""#)
                            {
                                errors.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                    });
                    let take = || {
                        left.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |v| {
                            v.checked_sub(1)
                        })
                    };
                    while take().is_ok() {
                        if sink.send(Message::Text(noise(&mut draw).into())).await.is_err() {
                            cut.fetch_add(1, Ordering::Relaxed);
                            break;
                        }
                        tokio::task::yield_now().await;
                    }
                    let _ = sink.close().await;
                    let _ = reader.await;
                }
            })
        })
        .collect();
    for task in tasks {
        let _ = task.await;
    }
    (errors.load(Ordering::Relaxed), cut.load(Ordering::Relaxed))
}

/// A seat flooding chat from `connections` connections until `stop`; chat lines the room told.
async fn chat(addr: SocketAddr, room: String, token: String, stop: Arc<AtomicBool>) -> u64 {
    let told = Arc::new(AtomicU64::new(0));
    let tasks: Vec<_> = (0..20)
        .map(|k| {
            let (room, token, stop, told) = (room.clone(), token.clone(), stop.clone(), told.clone());
            tokio::spawn(async move {
                let Some(socket) = connect(addr, &room).await else { return };
                let (mut sink, mut stream) = socket.split();
                let hello = json!({"type": "hello", "token": token, "since": null});
                let _ = sink.send(Message::Text(hello.to_string().into())).await;
                let reader = tokio::spawn(async move {
                    let mut lines = 0;
                    while let Some(Ok(message)) = stream.next().await {
                        if let Message::Text(text) = message
                            && text.contains(r#""type":"chat""#)
                        {
                            lines += 1;
                        }
                    }
                    lines
                });
                let mut n = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    n += 1;
                    let line = json!({"type": "chat", "text": format!("flood {k} {n} {}", "z".repeat(200))});
                    if sink.send(Message::Text(line.to_string().into())).await.is_err() {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
                let _ = sink.close().await;
                if k == 0 {
                    told.store(reader.await.unwrap_or(0), Ordering::Relaxed);
                }
            })
        })
        .collect();
    for task in tasks {
        let _ = task.await;
    }
    told.load(Ordering::Relaxed)
}

/// 30 spectators of `room` that say `since: 0` and read nothing; kept open until dropped.
async fn non_readers(
    addr: SocketAddr,
    room: &str,
) -> Vec<tokio_tungstenite::WebSocketStream<TcpStream>> {
    let mut held = Vec::new();
    for _ in 0..30 {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(1024).unwrap();
        let tcp = socket.connect(addr).await.unwrap();
        let request = format!("ws://{addr}/api/rooms/{room}/ws").into_client_request().unwrap();
        let (mut ws, _) = tokio_tungstenite::client_async(request, tcp).await.unwrap();
        let hello = json!({"type": "hello", "token": null, "since": 0}).to_string();
        ws.send(Message::Text(hello.into())).await.unwrap();
        held.push(ws);
    }
    held
}

/// Creates rooms as fast as it may until `stop`; (created, refused).
async fn room_flood(addr: SocketAddr, stop: Arc<AtomicBool>) -> (u64, u64) {
    let body = json!({"seats": [{"kind": "human"}, {"kind": "human"}]}).to_string();
    let (mut made, mut refused) = (0, 0);
    while !stop.load(Ordering::Relaxed) {
        match http(addr, "POST", "/api/rooms", &body).await.0 {
            201 => made += 1,
            _ => refused += 1,
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    (made, refused)
}

fn memory_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with(field)).unwrap_or("");
    line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).unwrap_or(0)
}

fn percentiles(us: &mut [u64]) -> (f64, f64, f64) {
    us.sort_unstable();
    if us.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    let at = |q: f64| us[((us.len() - 1) as f64 * q).round() as usize] as f64 / 1000.0;
    (at(0.5), at(0.99), at(1.0))
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned()
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let snl = arg(&args, "--snl").unwrap_or_else(|| "target/release/snl".to_owned());
    let seconds: u64 = arg(&args, "--seconds").map_or(20, |s| s.parse().unwrap());
    let hostile_frames: u64 = arg(&args, "--frames").map_or(10_000, |s| s.parse().unwrap());

    let dir = std::env::temp_dir().join(format!("snl-soak-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut server = Command::new(&snl)
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(dir.join("games.db"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{snl}: {e} (cargo build --release -p snl first)"));
    let mut first = String::new();
    BufReader::new(server.stdout.take().unwrap()).read_line(&mut first).unwrap();
    let addr: SocketAddr =
        first.trim().strip_prefix("listening on http://").unwrap().parse().unwrap();
    let pid = server.id();

    // Long games (1,000 cells, the most a room takes, and two long snakes), so the honest rooms
    // play through both phases.
    let long = json!({"size": 1000, "snake": [{"head": 900, "tail": 100}, {"head": 950, "tail": 400}], "ladder": []});
    let honest_request =
        json!({"board": long, "seats": [{"kind": "human"}, {"kind": "human"}], "seed": 1});
    let mut honest = Vec::new();
    for _ in 0..2 {
        honest.push(room(addr, &honest_request, &["Ann", "Bob"]).await);
    }
    let target_request = json!({"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 2});
    let (target, target_tokens) = room(addr, &target_request, &["Eve"]).await;
    let computers: Vec<Value> = (0..16).map(|_| json!({"kind": "easy"})).collect();
    let history =
        json!({"board": {"size": 1000, "snake": [], "ladder": []}, "seats": computers, "seed": 5});
    let (history_room, _) = room(addr, &history, &[]).await;

    let hostile = Arc::new(AtomicBool::new(false));
    let stop = Arc::new(AtomicBool::new(false));
    let people: Vec<_> = honest
        .iter()
        .flat_map(|(room, tokens)| {
            tokens.iter().enumerate().map(|(seat, token)| {
                tokio::spawn(person(
                    addr,
                    room.clone(),
                    token.clone(),
                    seat as u64,
                    hostile.clone(),
                    stop.clone(),
                ))
            })
        })
        .collect();

    println!("idle: two honest rooms for {seconds} s");
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    let before_kib = memory_kib(pid, "VmRSS:");
    println!(
        "hostile: {hostile_frames} frames, a chat flood, 30 non-readers, a room flood; {seconds} s at least"
    );
    hostile.store(true, Ordering::Relaxed);
    let flood_stop = Arc::new(AtomicBool::new(false));
    let held = non_readers(addr, &history_room).await;
    let chat_task =
        tokio::spawn(chat(addr, target.clone(), target_tokens[0].clone(), flood_stop.clone()));
    let rooms_task = tokio::spawn(room_flood(addr, flood_stop.clone()));
    let frames_task = tokio::spawn(frames(addr, target, hostile_frames, 16));
    let started = Instant::now();
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    let (errors, cut) = frames_task.await.unwrap();
    let hostile_seconds = started.elapsed().as_secs_f64();
    flood_stop.store(true, Ordering::Relaxed);
    let told = chat_task.await.unwrap();
    let (made, refused) = rooms_task.await.unwrap();
    stop.store(true, Ordering::Relaxed);
    drop(held);

    let mut idle = Vec::new();
    let mut under = Vec::new();
    let mut problems = Vec::new();
    for p in people {
        let mut seen = p.await.unwrap();
        idle.append(&mut seen.idle_us);
        under.append(&mut seen.hostile_us);
        problems.append(&mut seen.problems);
    }
    let peak_kib = memory_kib(pid, "VmHWM:");
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);

    let (i50, i99, imax) = percentiles(&mut idle);
    let (h50, h99, hmax) = percentiles(&mut under);
    println!(
        "honest rolls idle:    {} rolls, p50 {i50:.2} ms, p99 {i99:.2} ms, max {imax:.2} ms",
        idle.len()
    );
    println!(
        "honest rolls hostile: {} rolls, p50 {h50:.2} ms, p99 {h99:.2} ms, max {hmax:.2} ms",
        under.len()
    );
    println!(
        "ratio hostile/idle: p50 {:.2}x, p99 {:.2}x",
        h50 / i50.max(1e-9),
        h99 / i99.max(1e-9)
    );
    println!(
        "hostile frames: {hostile_frames} sent in {hostile_seconds:.1} s, {errors} error frames back, {cut} connections cut off"
    );
    println!("chat flood: 20 connections of one seat; the room told {told} of its lines");
    println!("room flood: {made} rooms created, {refused} refused");
    println!("server memory: {before_kib} KiB before the hostile phase, peak {peak_kib} KiB");
    for p in &problems {
        eprintln!("problem: {p}");
    }
    println!("soak: {} problems", problems.len());
    if !problems.is_empty() {
        std::process::exit(1);
    }
}
