//! Broadcast capacity of `snl serve`, by the websocket-shootout method (issue 31): rooms of 4
//! seats, each watched by many spectators, a broadcast in flight in each room at once (a roll,
//! whose events and next awaited input reach every client of the room); a broadcast's time is
//! from the roll sent until the last client of the room has the frame announcing the next input.
//! For each number of spectators asked, it reports how many clients were connected and the
//! broadcasts' p50/p95/max; the capacity is the most clients for which 95% of broadcasts reach
//! every client within 500 ms.
//!
//! ```text
//! snl serve --addr 127.0.0.1:8080 --db /tmp/b.db --max-connections 1000000 \
//!     --connections-per-address 0 --rooms-per-minute 1000000 --rate 1000000 &
//! cargo run --release -p snl-server --example broadcast -- --addr 127.0.0.1:8080 \
//!     [--rooms 4] [--broadcasts 40] [--spectators 250,1000,2500]
//! ```
//!
//! Each client is a socket in this process and one in the server: `ulimit -n` in both bounds
//! the clients of a step.

#![allow(clippy::missing_panics_doc)]

use std::{
    collections::HashMap,
    net::SocketAddr,
    sync::{Arc, Mutex},
    time::Duration,
};

use futures_util::{SinkExt, StreamExt};

use serde_json::{Value, json};
use tokio::{sync::Notify, time::Instant};
use tokio_tungstenite::tungstenite::{Message, protocol::WebSocketConfig};

/// The load generator, for its HTTP request.
#[path = "load.rs"]
mod load;

/// One room's broadcasts: how many clients must have each, and when each was sent.
struct Room {
    clients: usize,
    /// Clients that have the awaiting frame of each input.
    received: Mutex<HashMap<u64, usize>>,
    /// The roll in flight: when it was sent.
    sent_at: Mutex<Option<Instant>>,
    /// Woken when a broadcast has reached every client.
    done: Notify,
    /// Each broadcast's time, in microseconds.
    times_us: Mutex<Vec<u64>>,
    /// Broadcasts still to make.
    left: Mutex<usize>,
    /// Set once the last broadcast has reached every client: every client leaves.
    over: std::sync::atomic::AtomicBool,
}

impl Room {
    /// A client has the frame awaiting `input`: the broadcast ends with the last client.
    fn received(&self, input: u64) {
        let mut received = self.received.lock().unwrap();
        let count = received.entry(input).or_insert(0);
        *count += 1;
        if *count == self.clients {
            if let Some(at) = self.sent_at.lock().unwrap().take() {
                self.times_us.lock().unwrap().push(at.elapsed().as_micros() as u64);
            }
            if *self.left.lock().unwrap() == 0 {
                self.over.store(true, std::sync::atomic::Ordering::SeqCst);
            }
            self.done.notify_waiters();
        }
    }

    fn complete(&self, input: u64) -> bool {
        self.received.lock().unwrap().get(&input).copied() == Some(self.clients)
    }

    /// Resolves once the room's last broadcast has reached every client.
    async fn ended(&self) {
        loop {
            let notified = self.done.notified();
            if self.over.load(std::sync::atomic::Ordering::SeqCst) {
                return;
            }
            notified.await;
        }
    }
}

/// One client: a seat (with its token and number) or a spectator. It reads every frame; a seat
/// awaited rolls once the previous broadcast has reached every client.
async fn client(
    addr: SocketAddr,
    id: String,
    seat: Option<(String, u64)>,
    room: Arc<Room>,
    ready: Arc<tokio::sync::Barrier>,
) {
    let url = format!("ws://{addr}/api/rooms/{id}/ws");
    let config = WebSocketConfig::default().read_buffer_size(4096).write_buffer_size(4096);
    let (mut socket, _) =
        tokio_tungstenite::connect_async_with_config(url, Some(config), true).await.unwrap();
    let token = seat.as_ref().map(|(t, _)| t.clone());
    let hello = json!({"type": "hello", "token": token, "since": null});
    socket.send(Message::Text(hello.to_string().into())).await.unwrap();
    let mine = seat.map(|(_, s)| s);
    let mut first: Option<Value> = None;
    while let Some(Ok(message)) = socket.next().await {
        let Message::Text(text) = message else { continue };
        let frame: Value = serde_json::from_str(&text).unwrap();
        if frame["type"] == "welcome" {
            first = Some(frame["state"]["awaiting"].clone());
            break;
        }
    }
    let mut awaiting = first.unwrap_or(Value::Null);
    // Every client has the first input's frame once it has its welcome: the first roll waits
    // for all of them to be connected.
    room.received(awaiting["input"].as_u64().unwrap_or(0));
    ready.wait().await;
    loop {
        if !awaiting.is_null() && mine.is_some() && awaiting["seat"].as_u64() == mine {
            let input = awaiting["input"].as_u64().unwrap_or(0);
            // One broadcast in flight per room: the last one first reaches everyone.
            loop {
                let notified = room.done.notified();
                if room.complete(input) {
                    break;
                }
                notified.await;
            }
            {
                let mut left = room.left.lock().unwrap();
                if *left == 0 {
                    break;
                }
                *left -= 1;
            }
            *room.sent_at.lock().unwrap() = Some(Instant::now());
            if socket.send(Message::Text(r#"{"type":"roll"}"#.into())).await.is_err() {
                break;
            }
        }
        awaiting = Value::Null;
        let next = tokio::select! {
            next = tokio::time::timeout(Duration::from_mins(1), socket.next()) => next,
            () = room.ended() => break,
        };
        let Ok(Some(Ok(message))) = next else { break };
        let Message::Text(text) = message else { continue };
        if !text.starts_with(r#"{"type":"awaiting""#) {
            continue;
        }
        let frame: Value = serde_json::from_str(&text).unwrap();
        awaiting = frame["awaiting"].clone();
        if awaiting.is_null() {
            break;
        }
        room.received(awaiting["input"].as_u64().unwrap_or(0));
    }
    let _ = socket.close(None).await;
}

fn arg<T: std::str::FromStr>(args: &[String], name: &str) -> Option<T> {
    let at = args.iter().position(|a| a == name)?;
    args.get(at + 1)?.parse().ok()
}

fn quantile(sorted: &[u64], q: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let addr: SocketAddr = arg(&args, "--addr").expect("--addr HOST:PORT of a running snl serve");
    let rooms: usize = arg(&args, "--rooms").unwrap_or(4);
    let broadcasts: usize = arg(&args, "--broadcasts").unwrap_or(40);
    let steps: Vec<usize> = arg::<String>(&args, "--spectators")
        .unwrap_or_else(|| "250,1000,2500".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    println!(
        "clients  broadcasts  p50 ms  p95 ms  max ms  (rooms {rooms}, one broadcast in flight each)"
    );
    for spectators in steps {
        let clients = rooms * (4 + spectators);
        let ready = Arc::new(tokio::sync::Barrier::new(clients));
        let mut tasks = Vec::new();
        let mut all = Vec::new();
        for r in 0..rooms {
            let request =
                json!({"seats": vec![json!({"kind": "human"}); 4], "seed": r}).to_string();
            let made = load::http(addr, "POST", "/api/rooms", &request).await;
            let id = made["room"].as_str().unwrap().to_owned();
            let room = Arc::new(Room {
                clients: 4 + spectators,
                received: Mutex::new(HashMap::new()),
                sent_at: Mutex::new(None),
                done: Notify::new(),
                times_us: Mutex::new(Vec::new()),
                left: Mutex::new(broadcasts),
                over: std::sync::atomic::AtomicBool::new(false),
            });
            all.push(room.clone());
            let mut tokens = Vec::new();
            for seat in 0..4_u64 {
                let name = json!({"name": format!("P{seat}")}).to_string();
                let claim =
                    load::http(addr, "POST", &format!("/api/rooms/{id}/seats/{seat}"), &name).await;
                tokens.push((claim["token"].as_str().unwrap().to_owned(), seat));
            }
            for _ in 0..spectators {
                tasks.push(tokio::spawn(client(
                    addr,
                    id.clone(),
                    None,
                    room.clone(),
                    ready.clone(),
                )));
            }
            for token in tokens {
                let (room, ready) = (room.clone(), ready.clone());
                tasks.push(tokio::spawn(client(addr, id.clone(), Some(token), room, ready)));
            }
        }
        for task in tasks {
            let _ = task.await;
        }
        let mut times: Vec<u64> =
            all.iter().flat_map(|r| r.times_us.lock().unwrap().clone()).collect();
        times.sort_unstable();
        println!(
            "{clients:>7}  {:>10}  {:>6.1}  {:>6.1}  {:>6.1}",
            times.len(),
            quantile(&times, 0.5) as f64 / 1e3,
            quantile(&times, 0.95) as f64 / 1e3,
            times.last().copied().unwrap_or(0) as f64 / 1e3
        );
    }
}
