//! Load generator for `snl serve`: N rooms of two people, each person a WebSocket client, played
//! to the end over loopback.
//!
//! ```text
//! cargo run --release -p snl-server --example load -- --rooms 1000 [--paced] [--seed 1]
//!     [--addr HOST:PORT --server-pid PID]
//! ```
//!
//! Patterns: back to back (each player rolls as soon as the server says it is awaited) or
//! `--paced` (each player waits 1–3 s, drawn from the seed, before each roll). Without `--addr`
//! a server runs in this process on a fresh database (computers at once, rate limits off).
//! Reports connections held, intents per second, intent→event latency p50/p95/p99/max, errors,
//! lost or duplicated events, and — with `--server-pid` — the server's resident memory per
//! connection (connected, and at the end).

#![allow(dead_code, unreachable_pub, clippy::missing_panics_doc)]

use std::{net::SocketAddr, time::Duration};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    sync::Barrier,
    time::Instant,
};
use tokio_tungstenite::tungstenite::Message;

/// What a run is asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    pub rooms: usize,
    pub paced: bool,
    pub seed: u64,
}

/// What one player saw.
#[derive(Debug, Default)]
struct Seen {
    intents: u64,
    latencies_us: Vec<u64>,
    errors: u64,
    /// Events whose seq was not the one after the last.
    out_of_order: u64,
    events: u64,
    finished: bool,
}

/// What a run measured.
#[derive(Debug, Default)]
pub struct Report {
    pub connections: usize,
    pub intents: u64,
    pub seconds: f64,
    pub p50_us: u64,
    pub p95_us: u64,
    pub p99_us: u64,
    pub max_us: u64,
    pub errors: u64,
    /// Events missing or repeated in some player's stream.
    pub lost_or_duplicated: u64,
    /// Games that did not reach `game_ended` for both players.
    pub unfinished: usize,
    pub events: u64,
}

async fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> Value {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {response}"))
}

/// SplitMix64: the pacing draws, from the seed.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

async fn player(
    addr: SocketAddr,
    room: String,
    token: String,
    paced: Option<u64>,
    start: std::sync::Arc<Barrier>,
) -> Seen {
    let url = format!("ws://{addr}/api/rooms/{room}/ws");
    let (mut socket, _) =
        tokio_tungstenite::connect_async_with_config(url, None, true).await.unwrap();
    let hello = json!({"type": "hello", "token": token, "since": null});
    socket.send(Message::Text(hello.to_string().into())).await.unwrap();
    let mut seen = Seen::default();
    let mut last = 0;
    let mut seat = Value::Null;
    let mut awaiting = Value::Null;
    while let Some(Ok(message)) = socket.next().await {
        let Message::Text(text) = message else { continue };
        let frame: Value = serde_json::from_str(&text).unwrap();
        if frame["type"] == "welcome" {
            last = frame["seq"].as_u64().unwrap();
            seat = frame["seat"].clone();
            awaiting = frame["state"]["awaiting"].clone();
            break;
        }
    }
    start.wait().await;
    let mut pace = paced.unwrap_or(0);
    let mut rolled_at: Option<Instant> = None;
    loop {
        if awaiting["seat"] == seat && awaiting["type"] == "roll" {
            if paced.is_some() {
                let ms = 1000 + splitmix(&mut pace) % 2001;
                tokio::time::sleep(Duration::from_millis(ms)).await;
            }
            rolled_at = Some(Instant::now());
            seen.intents += 1;
            let roll = Message::Text(r#"{"type":"roll"}"#.into());
            if socket.send(roll).await.is_err() {
                break;
            }
        }
        awaiting = Value::Null;
        let Some(Ok(message)) = socket.next().await else { break };
        let Message::Text(text) = message else { continue };
        let frame: Value = serde_json::from_str(&text).unwrap();
        match frame["type"].as_str() {
            Some("event") => {
                seen.events += 1;
                let seq = frame["seq"].as_u64().unwrap();
                if seq != last + 1 {
                    seen.out_of_order += 1;
                }
                last = seq;
                if let Some(at) = rolled_at.take() {
                    seen.latencies_us.push(at.elapsed().as_micros() as u64);
                }
                if frame["event"]["type"] == "game_ended" {
                    seen.finished = true;
                    break;
                }
            }
            Some("awaiting") => awaiting = frame["awaiting"].clone(),
            _ => seen.errors += 1,
        }
    }
    let _ = socket.close(None).await;
    seen
}

/// The back-to-back player, kept cheap: the generator shares the machine with the server, so
/// every microsecond it spends is one the server does not get. Small WebSocket buffers (the
/// default read buffer, 128 KiB, is zeroed at every read) and frames read by their known shape
/// (`{"type":"event","seq":N,"event":{"type":…` as the server writes them) instead of building
/// a `serde_json::Value` for each; a frame of another shape is read in full.
///
/// To measure the server's throughput back to back, on a quiet machine:
///
/// ```text
/// cargo build --release -p snl -p snl-server --example load
/// ./target/release/examples/load --rooms 500          # server in this process
/// rm -f /tmp/load.db*
/// snl serve --addr 127.0.0.1:8080 --db /tmp/load.db --bot-delay-ms 0 --rate 1000000 \
///     --max-rooms 1000000 --max-connections 1000000 &
/// ./target/release/examples/load --rooms 500 --addr 127.0.0.1:8080 --server-pid $!
/// ```
mod back_to_back {
    use super::{Barrier, Instant, Message, Seen, SinkExt, SocketAddr, StreamExt, Value, json};
    use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

    /// A frame, as far as the player needs it.
    #[derive(Debug, PartialEq, Eq)]
    pub(super) enum Frame {
        /// An event with its seq; whether it ends the game.
        Event { seq: u64, ended: bool },
        /// A roll is awaited from this seat.
        Roll { seat: u64 },
        /// Something else is awaited (a choice, or nothing).
        Other,
        /// An error frame, or one that is not of the protocol.
        Error,
    }

    fn digits(text: &str) -> Option<(u64, &str)> {
        let end = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
        Some((text[..end].parse().ok()?, &text[end..]))
    }

    /// Reads a server frame: by its shape when it has the server's, else in full.
    pub(super) fn read(text: &str) -> Frame {
        if let Some(rest) = text.strip_prefix(r#"{"type":"event","seq":"#)
            && let Some((seq, rest)) = digits(rest)
            && let Some(event) = rest.strip_prefix(r#","event":{"type":""#)
        {
            return Frame::Event { seq, ended: event.starts_with(r#"game_ended""#) };
        }
        if let Some(rest) = text.strip_prefix(r#"{"type":"awaiting","seq":"#)
            && let Some((_, rest)) = digits(rest)
            && let Some(awaiting) = rest.strip_prefix(r#","awaiting":"#)
        {
            if let Some(seat) = awaiting.strip_prefix(r#"{"type":"roll","seat":"#)
                && let Some((seat, "}}")) = digits(seat)
            {
                return Frame::Roll { seat };
            }
            return Frame::Other;
        }
        let Ok(frame) = serde_json::from_str::<Value>(text) else { return Frame::Error };
        match frame["type"].as_str() {
            Some("event") => Frame::Event {
                seq: frame["seq"].as_u64().unwrap_or(0),
                ended: frame["event"]["type"] == "game_ended",
            },
            Some("awaiting") if frame["awaiting"]["type"] == "roll" => {
                Frame::Roll { seat: frame["awaiting"]["seat"].as_u64().unwrap_or(u64::MAX) }
            }
            Some("awaiting") => Frame::Other,
            _ => Frame::Error,
        }
    }

    pub(super) async fn player(
        addr: SocketAddr,
        room: String,
        token: String,
        start: std::sync::Arc<Barrier>,
    ) -> Seen {
        let url = format!("ws://{addr}/api/rooms/{room}/ws");
        let config = WebSocketConfig::default().read_buffer_size(4096).write_buffer_size(4096);
        let (mut socket, _) =
            tokio_tungstenite::connect_async_with_config(url, Some(config), true).await.unwrap();
        let hello = json!({"type": "hello", "token": token, "since": null});
        socket.send(Message::Text(hello.to_string().into())).await.unwrap();
        let mut seen = Seen::default();
        let mut last = 0;
        let mut seat = u64::MAX;
        let mut roll_now = false;
        while let Some(Ok(message)) = socket.next().await {
            let Message::Text(text) = message else { continue };
            let frame: Value = serde_json::from_str(&text).unwrap();
            if frame["type"] == "welcome" {
                last = frame["seq"].as_u64().unwrap();
                seat = frame["seat"].as_u64().unwrap();
                let awaiting = &frame["state"]["awaiting"];
                roll_now = awaiting["type"] == "roll" && awaiting["seat"].as_u64() == Some(seat);
                break;
            }
        }
        start.wait().await;
        let mut rolled_at: Option<Instant> = None;
        loop {
            if std::mem::take(&mut roll_now) {
                rolled_at = Some(Instant::now());
                seen.intents += 1;
                let roll = Message::Text(r#"{"type":"roll"}"#.into());
                if socket.send(roll).await.is_err() {
                    break;
                }
            }
            let Some(Ok(message)) = socket.next().await else { break };
            let Message::Text(text) = message else { continue };
            match read(&text) {
                Frame::Event { seq, ended } => {
                    seen.events += 1;
                    if seq != last + 1 {
                        seen.out_of_order += 1;
                    }
                    last = seq;
                    if let Some(at) = rolled_at.take() {
                        seen.latencies_us.push(at.elapsed().as_micros() as u64);
                    }
                    if ended {
                        seen.finished = true;
                        break;
                    }
                }
                Frame::Roll { seat: awaited } => roll_now = awaited == seat,
                Frame::Other => {}
                Frame::Error => seen.errors += 1,
            }
        }
        let _ = socket.close(None).await;
        seen
    }

    #[cfg(test)]
    mod tests {
        use super::{Frame, read};
        use snl_engine::Event;
        use snl_server::frames::{ErrorCode, ServerFrame};

        #[test]
        fn frames_read_by_shape_as_in_full() {
            let event = |seq, event| ServerFrame::Event { seq, event }.to_text();
            let ended = Event::GameEnded { ranking: vec!["Ann".into(), "Bob".into()] };
            assert_eq!(read(&event(12, Event::TimeUp {})), Frame::Event { seq: 12, ended: false });
            assert_eq!(read(&event(7, ended)), Frame::Event { seq: 7, ended: true });
            let awaiting = |awaiting| ServerFrame::Awaiting { seq: 3, awaiting }.to_text();
            let roll = serde_json::json!({"type": "roll", "seat": 1});
            assert_eq!(read(&awaiting(roll)), Frame::Roll { seat: 1 });
            assert_eq!(read(&awaiting(serde_json::Value::Null)), Frame::Other);
            let error = ServerFrame::error(ErrorCode::NotYourTurn, "it is Ann's turn");
            assert_eq!(read(&error.to_text()), Frame::Error);
            // Another order of fields is read in full.
            let reordered = r#"{"seq":4,"type":"event","event":{"type":"game_ended"}}"#;
            assert_eq!(read(reordered), Frame::Event { seq: 4, ended: true });
            assert_eq!(read("not json"), Frame::Error);
        }
    }
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// Resident memory of process `pid`, in KiB.
pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Plays `options.rooms` rooms on the server at `addr`; `connected` is called once every player
/// is connected (to sample memory), before the first roll.
pub async fn run(addr: SocketAddr, options: &Options, connected: impl FnOnce()) -> Report {
    let request = json!({"seats": [{"kind": "human"}, {"kind": "human"}]}).to_string();
    let barrier = std::sync::Arc::new(Barrier::new(options.rooms * 2 + 1));
    let mut players = Vec::with_capacity(options.rooms * 2);
    let mut draws = options.seed;
    for _ in 0..options.rooms {
        let room =
            http(addr, "POST", "/api/rooms", &request).await["room"].as_str().unwrap().to_owned();
        for (seat, name) in [(0, "Ann"), (1, "Bob")] {
            let path = format!("/api/rooms/{room}/seats/{seat}");
            let body = json!({"name": name}).to_string();
            let token =
                http(addr, "POST", &path, &body).await["token"].as_str().unwrap().to_owned();
            let pace = options.paced.then(|| splitmix(&mut draws));
            let start = barrier.clone();
            players.push(if options.paced {
                tokio::spawn(player(addr, room.clone(), token, pace, start))
            } else {
                tokio::spawn(back_to_back::player(addr, room.clone(), token, start))
            });
        }
    }
    barrier.wait().await;
    connected();
    let start = Instant::now();
    let mut report = Report { connections: players.len(), ..Report::default() };
    let mut latencies = Vec::new();
    let mut finished = 0;
    for player in players {
        let seen = player.await.unwrap();
        report.intents += seen.intents;
        report.errors += seen.errors;
        report.lost_or_duplicated += seen.out_of_order;
        report.events += seen.events;
        finished += usize::from(seen.finished);
        latencies.extend(seen.latencies_us);
    }
    report.seconds = start.elapsed().as_secs_f64();
    report.unfinished = options.rooms * 2 - finished;
    latencies.sort_unstable();
    report.p50_us = percentile(&latencies, 0.50);
    report.p95_us = percentile(&latencies, 0.95);
    report.p99_us = percentile(&latencies, 0.99);
    report.max_us = latencies.last().copied().unwrap_or(0);
    report
}

/// A server in this process on a fresh database; returns its address.
pub async fn local_server(dir: &std::path::Path) -> SocketAddr {
    let mut config = snl_server::Config::new(dir.join("games.db"));
    config.bot_delay = Duration::ZERO;
    config.limits.rate = 1_000_000;
    config.limits.burst = 1_000_000;
    config.max_connections = 1_000_000;
    config.max_rooms = 1_000_000;
    let app = snl_server::open(config).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(app.serve(listener));
    addr
}

fn arg<T: std::str::FromStr>(args: &[String], name: &str) -> Option<T> {
    let at = args.iter().position(|a| a == name)?;
    args.get(at + 1)?.parse().ok()
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let options = Options {
        rooms: arg(&args, "--rooms").unwrap_or(100),
        paced: args.iter().any(|a| a == "--paced"),
        seed: arg(&args, "--seed").unwrap_or(1),
    };
    let pid: Option<u32> = arg(&args, "--server-pid");
    let dir = std::env::temp_dir().join(format!("snl-load-{}", std::process::id()));
    let addr = if let Some(addr) = arg::<SocketAddr>(&args, "--addr") {
        addr
    } else {
        let _ = std::fs::create_dir_all(&dir);
        local_server(&dir).await
    };
    let before = pid.and_then(rss_kib);
    let mut at_connect = None;
    let report = run(addr, &options, || at_connect = pid.and_then(rss_kib)).await;
    let after = pid.and_then(rss_kib);
    let pattern = if options.paced { "paced 1-3 s" } else { "back to back" };
    println!("pattern               {pattern}");
    println!("rooms                 {}", options.rooms);
    println!("connections held      {}", report.connections);
    println!("intents               {}", report.intents);
    println!("events received       {}", report.events);
    println!("seconds               {:.2}", report.seconds);
    println!("intents per second    {:.0}", report.intents as f64 / report.seconds);
    println!(
        "latency p50/p95/p99/max  {:.2} / {:.2} / {:.2} / {:.2} ms",
        report.p50_us as f64 / 1e3,
        report.p95_us as f64 / 1e3,
        report.p99_us as f64 / 1e3,
        report.max_us as f64 / 1e3
    );
    println!("errors                {}", report.errors);
    println!("lost or duplicated    {}", report.lost_or_duplicated);
    println!("unfinished players    {}", report.unfinished);
    if let (Some(before), Some(connected), Some(after)) = (before, at_connect, after) {
        let per =
            |kib: u64| (kib.saturating_sub(before)) as f64 * 1024.0 / report.connections as f64;
        println!(
            "server RSS            {before} KiB idle, {connected} KiB connected, {after} KiB at the end"
        );
        println!(
            "bytes per connection  {:.0} connected, {:.0} at the end",
            per(connected),
            per(after)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
