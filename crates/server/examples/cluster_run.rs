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
//!
//! With `--faults`, the lease run of issue 31 instead: `--rooms` people play one game after
//! another through nginx while the run pauses a random node past its lease (SIGSTOP, then
//! SIGCONT) `--pauses` times and kills a random node (SIGKILL, then starts it again)
//! `--kills` times, at random moments, through the cluster script given (`--cluster`, which
//! has `pause-node`, `resume-node`, `kill-node` and `start-node`). Every game must be its
//! seed's, gap-free and duplicate-free, and equal to what the database stored; no event or
//! command may be stored under an older epoch than one before it (a stale write); prints the
//! time from each kill to its rooms' next answer (p50, p99, max) and how many paused rooms went
//! on at another node during the pause.
//!
//! ```text
//! cargo run --release -p snl-server --example cluster_run -- --faults --addr 127.0.0.1:8800 \
//!     --rooms 30 --pauses 100 --kills 200 --nodes 3 --cluster deploy/cluster.sh \
//!     --db postgres://snl@127.0.0.1:8799/snl
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
    /// Each time the connection closed under the client: when, and when a node welcomed it
    /// again.
    episodes: Vec<(Instant, Option<Instant>)>,
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
            assert!(attempts < 2_400, "room {room}: cannot reconnect within a minute");
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
                    if let Some((_, welcomed @ None)) = played.episodes.last_mut() {
                        *welcomed = Some(Instant::now());
                    }
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
        // A connection that closes again before any welcome goes on with the same cut.
        if played.episodes.last().is_none_or(|(_, welcomed)| welcomed.is_some()) {
            played.episodes.push((Instant::now(), None));
        }
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

/// Creates a room through `addr`, takes seat 0; returns (room, token). A request refused for
/// now (too many rooms made at once, a node that is down or paused, a room that stopped as it
/// moved: `room_closed`) is made again. A claim whose answer was lost (its node killed as it
/// answered) may have taken the seat with a token never seen: then a new room is made.
async fn room(addr: SocketAddr, seed: u64) -> (String, String) {
    let again = |status: u16| matches!(status, 410 | 429) || status >= 500;
    let mut tries = 0;
    loop {
        let mut ask = async |path: &str, body: &str, ok: u16| loop {
            let (status, answer) = http(addr, "POST", path, body).await;
            if status == ok || status == 409 {
                return (status, answer);
            }
            tries += 1;
            assert!(again(status) && tries < 100, "{path}: {status} {answer}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        let (_, created) = ask("/api/rooms", &request(seed), 201).await;
        let room = created["room"].as_str().unwrap().to_owned();
        let (status, claimed) =
            ask(&format!("/api/rooms/{room}/seats/0"), r#"{"name":"Ann"}"#, 200).await;
        if status == 200 {
            return (room, claimed["token"].as_str().unwrap().to_owned());
        }
        assert!(tries > 0, "seat 0 of a new room {room} is taken: {claimed}");
    }
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
    if args.iter().any(|a| a == "--faults") {
        faults::run(&args).await;
        return;
    }
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

/// The lease run: pauses and kills at random moments while games go on.
mod faults {
    use std::{
        net::SocketAddr,
        sync::{
            Arc,
            atomic::{AtomicBool, Ordering},
        },
        time::Duration,
    };

    use serde_json::Value;
    use tokio::{sync::Mutex, time::Instant};

    use super::{Played, arg, game, person, references, room, shell};

    /// How long a node stays paused: past its lease (3 s) and past the time nginx takes to see
    /// it silent (the 6 s nginx waits on a silent room connection), so that its rooms move meanwhile.
    const PAUSE: Duration = Duration::from_secs(12);

    fn random_below(n: u64) -> u64 {
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes).unwrap();
        u64::from_le_bytes(bytes) % n
    }

    /// A random pause between two faults, 300 to 1,500 ms.
    fn moment() -> Duration {
        Duration::from_millis(300 + random_below(1_200))
    }

    /// A game played through nginx, with its room and seed.
    struct Finished {
        room: String,
        seed: u64,
        played: Played,
    }

    fn percentile(sorted: &[f64], p: f64) -> f64 {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss
        )]
        let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
        sorted[i]
    }

    pub(super) async fn run(args: &[String]) {
        let addr: SocketAddr =
            arg(args, "--addr").unwrap_or("127.0.0.1:8800".into()).parse().unwrap();
        let players: u64 = arg(args, "--rooms").map_or(30, |r| r.parse().unwrap());
        let pauses: u32 = arg(args, "--pauses").map_or(2, |r| r.parse().unwrap());
        let kills: u32 = arg(args, "--kills").map_or(10, |r| r.parse().unwrap());
        let nodes: u64 = arg(args, "--nodes").map_or(3, |r| r.parse().unwrap());
        let cluster = arg(args, "--cluster").unwrap_or("deploy/cluster.sh".into());
        let db = arg(args, "--db").expect("--db: the cluster's PostgreSQL URL");

        // People play game after game (seeds 1, 2, …) until the faults are over.
        let stop = Arc::new(AtomicBool::new(false));
        let finished = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for p in 0..players {
            let (stop, finished) = (stop.clone(), finished.clone());
            tasks.push(tokio::spawn(async move {
                let mut seed = p + 1;
                while !stop.load(Ordering::Relaxed) {
                    let (room, token) = room(addr, seed).await;
                    let played = person(addr, room.clone(), token, super::THINK).await;
                    finished.lock().await.push(Finished { room, seed, played });
                    seed += players;
                }
            }));
        }

        let started = Instant::now();
        let mut paused_at = Vec::new();
        for i in 0..pauses {
            tokio::time::sleep(moment()).await;
            let node = 1 + random_below(nodes);
            shell(&format!("{cluster} pause-node {node} >/dev/null"));
            let at = Instant::now();
            tokio::time::sleep(PAUSE).await;
            shell(&format!("{cluster} resume-node {node} >/dev/null"));
            paused_at.push((at, Instant::now()));
            eprintln!("pause {}/{pauses}: node {node}", i + 1);
        }
        let mut killed_at = Vec::new();
        for i in 0..kills {
            tokio::time::sleep(moment()).await;
            let node = 1 + random_below(nodes);
            shell(&format!("{cluster} kill-node {node} >/dev/null"));
            killed_at.push(Instant::now());
            // The node's rooms go on elsewhere meanwhile; it comes back and rejoins.
            tokio::time::sleep(Duration::from_millis(500)).await;
            shell(&format!("{cluster} start-node {node} >/dev/null"));
            if (i + 1) % 10 == 0 || i + 1 == kills {
                eprintln!("kill {}/{kills}", i + 1);
            }
        }
        stop.store(true, Ordering::Relaxed);
        for task in tasks {
            task.await.unwrap();
        }
        let seconds = started.elapsed().as_secs_f64();
        let finished = std::mem::take(&mut *finished.lock().await);

        // Each game against its seed's on one server alone, and against what was stored: every
        // event told is the one stored at its number.
        let seeds: Vec<u64> = finished.iter().map(|f| f.seed).collect();
        let expected = references(&seeds).await;
        let (client, connection) =
            tokio_postgres::connect(&db, tokio_postgres::NoTls).await.unwrap();
        tokio::spawn(connection);
        let mut failures = 0;
        let mut events = 0;
        for (f, expected) in finished.iter().zip(&expected) {
            let frames = &f.played.frames;
            events += frames.len();
            let seqs: Vec<u64> = frames.iter().map(|f| f["seq"].as_u64().unwrap()).collect();
            if seqs.iter().enumerate().any(|(j, &s)| s != j as u64 + 1) {
                failures += 1;
                eprintln!("room {} (seed {}): events not 1, 2, …: {seqs:?}", f.room, f.seed);
            }
            if game(frames) != *expected {
                failures += 1;
                eprintln!("room {} (seed {}): not the game its seed gives", f.room, f.seed);
            }
            let stored: Vec<Value> = client
                .query("SELECT event FROM room_events WHERE room = $1 ORDER BY seq", &[&f.room])
                .await
                .unwrap()
                .iter()
                .map(|r| serde_json::from_str(r.get::<_, &str>(0)).unwrap())
                .collect();
            // (After the game ended, the person's leaving is stored too.)
            if !stored.starts_with(frames) {
                failures += 1;
                eprintln!(
                    "room {} (seed {}): told events the database does not hold",
                    f.room, f.seed
                );
            }
        }
        // A stale write: a command or event stored under an older epoch than one before it.
        let stale: i64 = client
            .query_one(
                "SELECT (SELECT count(*) FROM (SELECT epoch < max(epoch) OVER (PARTITION BY room
                        ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS s
                        FROM room_events) e WHERE s)
                      + (SELECT count(*) FROM (SELECT epoch < max(epoch) OVER (PARTITION BY room
                        ORDER BY number ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS s
                        FROM room_log) l WHERE s)",
                &[],
            )
            .await
            .unwrap()
            .get(0);
        let handovers: i64 = client
            .query_one("SELECT coalesce(sum(epoch - 1), 0)::bigint FROM room_leases", &[])
            .await
            .unwrap()
            .get(0);
        failures += usize::try_from(stale).unwrap_or(usize::MAX);

        // Kills: from each kill to the next welcome of each connection that closed within a
        // second after it.
        let mut failover: Vec<f64> = Vec::new();
        let episodes = finished.iter().flat_map(|f| f.played.episodes.iter());
        let mut unanswered = 0;
        for &(closed, welcomed) in episodes.clone() {
            let Some(&kill) = killed_at
                .iter()
                .rev()
                .find(|&&k| k <= closed && closed < k + Duration::from_secs(1))
            else {
                continue;
            };
            match welcomed {
                Some(w) => failover.push(w.duration_since(kill).as_secs_f64()),
                None => unanswered += 1,
            }
        }
        failover.sort_by(f64::total_cmp);
        // Pauses: connections closed during a pause, welcomed again before it ended.
        let (mut during, mut went_on) = (0, 0);
        for &(closed, welcomed) in episodes {
            if paused_at.iter().any(|&(from, to)| from <= closed && closed < to) {
                during += 1;
                if welcomed.is_some_and(|w| paused_at.iter().any(|&(from, to)| from <= w && w < to))
                {
                    went_on += 1;
                }
            }
        }

        println!(
            "games {}, events {events}, {seconds:.1} s; {pauses} pauses, {kills} kills",
            finished.len()
        );
        println!("rooms handed from one node to another (epochs past the first): {handovers}");
        println!("stale writes stored (older epoch after a newer one): {stale}");
        println!(
            "connections cut by a pause: {during}; welcomed at another node while it was paused: {went_on}"
        );
        if !failover.is_empty() {
            println!(
                "from a kill to the room's next answer, {} connections: p50 {:.3} s, p99 {:.3} s, max {:.3} s",
                failover.len(),
                percentile(&failover, 0.5),
                percentile(&failover, 0.99),
                failover[failover.len() - 1]
            );
            if percentile(&failover, 0.99) > 5.0 {
                failures += 1;
                eprintln!("the p99 failover is over 5 s");
            }
        }
        if unanswered > 0 {
            failures += 1;
            eprintln!("{unanswered} connections cut by a kill were never answered again");
        }
        if pauses > 0 && went_on == 0 {
            failures += 1;
            eprintln!("no room went on at another node while its node was paused");
        }
        println!("lease run: {failures} problems");
        if failures > 0 {
            std::process::exit(1);
        }
    }
}
