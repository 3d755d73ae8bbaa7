// Long because one load generator serves both patterns (lean back-to-back, paced and timed) with one report, so both are measured alike.
//! Load generator for `snl serve`: N rooms of two people, each person a WebSocket client, played
//! to the end over loopback.
//!
//! ```text
//! cargo run --release -p snl-server --example load -- --rooms 1000 [--paced] [--seed 1]
//!     [--duration SECONDS] [--rounds K] [--addr HOST:PORT --server-pid PID]
//! ```
//!
//! Patterns: back to back (each player rolls as soon as the server says it is awaited) or
//! `--paced` (each player waits 1–3 s, drawn from the seed, before each roll). Without `--addr`
//! a server runs in this process on a fresh database (computers at once, rate limits off).
//! With `--duration`, no player rolls once that many seconds have passed since the first roll:
//! each room then stops at its last event, and every player still checks that it received every
//! event up to it (so a steady window is measured without playing every game to the end).
//! With `--rounds K`, the rooms are played K times over, new rooms each round, on the same
//! server: back to back, a round of 500 rooms lasts about a second, K of them long enough to
//! steady; intents, events, errors and the server's CPU are summed over the rounds (its CPU
//! counted from each round's first roll), latencies are the worst round's, memory the first's.
//! Reports connections held, intents per second, intent→event latency p50/p95/p99/max, errors,
//! lost or duplicated events, and — with `--server-pid` — the server's resident memory per
//! connection (connected, at its peak during the run, and at the end).
//!
//! Each player is one socket in this process and one in the server: 10,000 connections need an
//! open-file limit above 10,000 in both (`ulimit -n 20000` in the shell that starts each).

#![allow(dead_code, unreachable_pub, clippy::missing_panics_doc)]

use std::{
    net::SocketAddr,
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
    sync::{Barrier, watch},
    time::Instant,
};
use tokio_tungstenite::tungstenite::Message;

/// What a run is asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    pub rooms: usize,
    pub paced: bool,
    pub seed: u64,
    /// Stop rolling this long after the first roll (each room ends at its last event).
    pub duration: Option<Duration>,
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
    /// Left at its room's last event because the run's duration was over.
    stopped: bool,
    /// A roll sent that no event answered.
    unanswered: u64,
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
    /// Events missing or repeated in some player's stream, and rolls that no event answered.
    pub lost_or_duplicated: u64,
    /// Players that neither reached `game_ended` nor stopped at their room's last event when
    /// the duration was over.
    pub unfinished: usize,
    /// Players stopped at their room's last event when the duration was over.
    pub stopped: usize,
    pub events: u64,
}

impl Report {
    /// Adds a round's report to this one: counts summed, latencies the worst round's.
    fn add(&mut self, round: &Report) {
        self.connections = self.connections.max(round.connections);
        self.intents += round.intents;
        self.seconds += round.seconds;
        self.p50_us = self.p50_us.max(round.p50_us);
        self.p95_us = self.p95_us.max(round.p95_us);
        self.p99_us = self.p99_us.max(round.p99_us);
        self.max_us = self.max_us.max(round.max_us);
        self.errors += round.errors;
        self.lost_or_duplicated += round.lost_or_duplicated;
        self.unfinished += round.unfinished;
        self.stopped += round.stopped;
        self.events += round.events;
    }
}

/// One HTTP request with a JSON body, its answer's JSON (also for `examples/broadcast.rs`).
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> Value {
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

/// What the players of a run share: the start, and the end of rolling.
struct Run {
    start: Barrier,
    /// Set once the duration is over: nobody rolls again.
    stop: AtomicBool,
}

/// Plays one seat until its game ends, or — once the run stops — until it has received its
/// room's last event: the first player of the room asked to roll after the stop does not roll
/// and tells `end` the last seq it saw; nobody rolls after it, so that is the room's last
/// event and the other player reads on to it.
async fn player(
    addr: SocketAddr,
    room: String,
    token: String,
    paced: Option<u64>,
    run: Arc<Run>,
    end: Arc<watch::Sender<Option<u64>>>,
) -> Seen {
    let mut ended = end.subscribe();
    let url = format!("ws://{addr}/api/rooms/{room}/ws");
    // tungstenite's default 128 KiB buffers, zero-filled at the first read, would make 10,000
    // players a gigabyte and a core of memset in this process: frames here are small.
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(4096);
    let (mut socket, _) =
        tokio_tungstenite::connect_async_with_config(url, Some(config), true).await.unwrap();
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
    run.start.wait().await;
    let mut pace = paced.unwrap_or(0);
    let mut rolled_at: Option<Instant> = None;
    loop {
        if awaiting["seat"] == seat && awaiting["type"] == "roll" {
            if paced.is_some() {
                let ms = 1000 + splitmix(&mut pace) % 2001;
                tokio::time::sleep(Duration::from_millis(ms)).await;
            }
            if run.stop.load(Ordering::SeqCst) {
                end.send_replace(Some(last));
                seen.stopped = true;
                break;
            }
            rolled_at = Some(Instant::now());
            seen.intents += 1;
            let roll = Message::Text(r#"{"type":"roll"}"#.into());
            if socket.send(roll).await.is_err() {
                break;
            }
        }
        awaiting = Value::Null;
        let seen_up_to = last;
        let message = tokio::select! {
            message = socket.next() => message,
            _ = ended.wait_for(|end| end.is_some_and(|end| seen_up_to >= end)) => {
                seen.stopped = true;
                break;
            }
        };
        let Some(Ok(message)) = message else { break };
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
                if ended.borrow().is_some_and(|end| last >= end) {
                    seen.stopped = true;
                    break;
                }
            }
            Some("awaiting") => awaiting = frame["awaiting"].clone(),
            _ => seen.errors += 1,
        }
    }
    seen.unanswered = u64::from(rolled_at.is_some());
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
    use super::{Instant, Message, Seen, SinkExt, SocketAddr, StreamExt, Value, json};
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
                && let Some((seat, rest)) = digits(seat)
                && (rest == "}}" || rest.starts_with(r#","input":"#))
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
        run: std::sync::Arc<super::Run>,
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
        run.start.wait().await;
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
        use snl_server::frames::{Awaited, ErrorCode, ServerFrame};

        #[test]
        fn frames_read_by_shape_as_in_full() {
            let event = |seq, event| ServerFrame::Event { seq, event, text: None }.to_text();
            let ended = Event::GameEnded { ranking: vec!["Ann".into(), "Bob".into()] };
            assert_eq!(read(&event(12, Event::TimeUp {})), Frame::Event { seq: 12, ended: false });
            assert_eq!(read(&event(7, ended)), Frame::Event { seq: 7, ended: true });
            let awaiting = |awaiting| {
                ServerFrame::Awaiting {
                    seq: 3,
                    awaiting,
                    seats: vec![],
                    race: None,
                    awards: vec![],
                    series: None,
                    turn_left_ms: None,
                }
                .to_text()
            };
            let roll = Awaited::Roll { seat: 1, input: 3 };
            assert_eq!(read(&awaiting(Some(roll))), Frame::Roll { seat: 1 });
            assert_eq!(read(&awaiting(None)), Frame::Other);
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
    let shared =
        Arc::new(Run { start: Barrier::new(options.rooms * 2 + 1), stop: AtomicBool::new(false) });
    let mut players = Vec::with_capacity(options.rooms * 2);
    let mut draws = options.seed;
    for _ in 0..options.rooms {
        let room =
            http(addr, "POST", "/api/rooms", &request).await["room"].as_str().unwrap().to_owned();
        let end = Arc::new(watch::Sender::new(None));
        for (seat, name) in [(0, "Ann"), (1, "Bob")] {
            let path = format!("/api/rooms/{room}/seats/{seat}");
            let body = json!({"name": name}).to_string();
            let token =
                http(addr, "POST", &path, &body).await["token"].as_str().unwrap().to_owned();
            let pace = options.paced.then(|| splitmix(&mut draws));
            // The lean client plays back to back to the end; a paced run, or one with a
            // duration, takes the general player.
            players.push(if options.paced || options.duration.is_some() {
                tokio::spawn(player(addr, room.clone(), token, pace, shared.clone(), end.clone()))
            } else {
                tokio::spawn(back_to_back::player(addr, room.clone(), token, shared.clone()))
            });
        }
    }
    shared.start.wait().await;
    connected();
    let start = Instant::now();
    if let Some(duration) = options.duration {
        let shared = shared.clone();
        tokio::spawn(async move {
            tokio::time::sleep(duration).await;
            shared.stop.store(true, Ordering::SeqCst);
        });
    }
    let mut report = Report { connections: players.len(), ..Report::default() };
    let mut latencies = Vec::new();
    let mut finished = 0;
    for player in players {
        let seen = player.await.unwrap();
        report.intents += seen.intents;
        report.errors += seen.errors;
        report.lost_or_duplicated += seen.out_of_order + seen.unanswered;
        report.events += seen.events;
        finished += usize::from(seen.finished);
        report.stopped += usize::from(seen.stopped);
        latencies.extend(seen.latencies_us);
    }
    report.seconds = start.elapsed().as_secs_f64();
    report.unfinished = options.rooms * 2 - finished - report.stopped;
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
    config.edge.per_address = 0;
    config.max_rooms = 1_000_000;
    // One address creates every room here.
    config.create_limit = snl_server::CreateLimit { rate: 1_000_000, burst: 1_000_000 };
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

/// CPU time (user and system) process `pid` has used, in seconds (Linux `/proc`; clock ticks
/// of 1/100 s, as on every Linux this runs on).
pub fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name (which may hold spaces) in parentheses.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let user: u64 = fields.get(11)?.parse().ok()?;
    let system: u64 = fields.get(12)?.parse().ok()?;
    Some((user + system) as f64 / 100.0)
}

/// The soft limit on open files of this process (Linux `/proc`).
fn open_files_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// Samples the resident memory of `pid` every 100 ms until `done`; returns the largest, in KiB.
fn sample_peak(pid: u32, done: Arc<AtomicBool>) -> std::thread::JoinHandle<u64> {
    std::thread::spawn(move || {
        let peak = AtomicU64::new(0);
        while !done.load(Ordering::SeqCst) {
            peak.fetch_max(rss_kib(pid).unwrap_or(0), Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(100));
        }
        peak.into_inner()
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // Against a server of its own process the players run on one thread: two threads handing
    // thousands of small wake-ups back and forth cost this process more than the frames do, and
    // the second core is the server's. With the server in this process, both are shared.
    let mut runtime = if args.iter().any(|a| a == "--addr") {
        tokio::runtime::Builder::new_current_thread()
    } else {
        tokio::runtime::Builder::new_multi_thread()
    };
    runtime.enable_all().build().expect("a tokio runtime").block_on(run_load(args));
}

async fn run_load(args: Vec<String>) {
    let options = Options {
        rooms: arg(&args, "--rooms").unwrap_or(100),
        paced: args.iter().any(|a| a == "--paced"),
        seed: arg(&args, "--seed").unwrap_or(1),
        duration: arg::<f64>(&args, "--duration").map(Duration::from_secs_f64),
    };
    let pid: Option<u32> = arg(&args, "--server-pid");
    let needed = options.rooms as u64 * 2 + 64;
    if let Some(limit) = open_files_limit().filter(|&limit| limit < needed) {
        eprintln!(
            "--rooms {} needs {needed} open files but this process may open {limit}: raise the \
             limit with `ulimit -n {}` (and the server's too)",
            options.rooms,
            needed.max(20_000)
        );
        std::process::exit(2);
    }
    let dir = std::env::temp_dir().join(format!("snl-load-{}", std::process::id()));
    let addr = if let Some(addr) = arg::<SocketAddr>(&args, "--addr") {
        addr
    } else {
        let _ = std::fs::create_dir_all(&dir);
        local_server(&dir).await
    };
    let before = pid.and_then(rss_kib);
    let done = Arc::new(AtomicBool::new(false));
    let sampler = pid.map(|pid| sample_peak(pid, done.clone()));
    let rounds: usize = arg(&args, "--rounds").unwrap_or(1).max(1);
    let mut at_connect = None;
    let mut report = Report::default();
    let mut cpu = Some(0.0);
    for round in 0..rounds {
        let mut cpu_at_connect = None;
        let played = run(addr, &options, || {
            if round == 0 {
                at_connect = pid.and_then(rss_kib);
            }
            cpu_at_connect = pid.and_then(cpu_seconds);
        })
        .await;
        let spent = pid.and_then(cpu_seconds).zip(cpu_at_connect).map(|(end, start)| end - start);
        cpu = cpu.zip(spent).map(|(sum, spent)| sum + spent);
        report.add(&played);
    }
    let after = pid.and_then(rss_kib);
    done.store(true, Ordering::SeqCst);
    let peak = sampler.map(|sampler| sampler.join().unwrap());
    let pattern = if options.paced { "paced 1-3 s" } else { "back to back" };
    println!("pattern               {pattern}");
    if let Some(duration) = options.duration {
        println!("rolling stopped after {:.0} s", duration.as_secs_f64());
    }
    println!("rooms                 {} ({rounds} rounds)", options.rooms);
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
    if let Some(cpu) = cpu {
        println!(
            "server CPU            {cpu:.1} s while playing: {:.0} us per intent, {:.0}% of a core",
            cpu * 1e6 / report.intents.max(1) as f64,
            cpu * 100.0 / report.seconds
        );
    }
    println!("errors                {}", report.errors);
    println!("lost or duplicated    {}", report.lost_or_duplicated);
    println!("stopped players       {} (at their room's last event)", report.stopped);
    println!("unfinished players    {}", report.unfinished);
    if let (Some(before), Some(connected), Some(peak), Some(after)) =
        (before, at_connect, peak, after)
    {
        let peak = peak.max(connected);
        let per =
            |kib: u64| (kib.saturating_sub(before)) as f64 * 1024.0 / report.connections as f64;
        println!(
            "server RSS            {before} KiB idle, {connected} KiB connected, {peak} KiB at peak, \
             {after} KiB at the end"
        );
        println!(
            "bytes per connection  {:.0} connected, {:.0} at peak, {:.0} at the end",
            per(connected),
            per(peak),
            per(after)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
