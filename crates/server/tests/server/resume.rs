//! Issue 30 point 4: exact resume, proven by a soak. Rooms of two people whose clients drop and
//! come back at random moments (drawn from a seed), each drop one of: a clean close, a TCP
//! connection dropped with no close, a frame half sent and then the connection dropped, a
//! connection gone silent (found by the server's heartbeat), a roll sent and the connection
//! dropped at once (the roll sent again after the resume, with the same input id), and a second
//! tab of the same seat that comes and goes. After every resume the client checks that the
//! events it is given start right after the last it had (none lost, none twice) and that the
//! welcome's state is the server's at that point (when the room has not moved on before the
//! server is asked); at the end of each game every client's events
//! equal a fresh spectator's, and no roll was applied twice (the two seats' rolls alternate:
//! one die, no bonus).
//!
//! Bounded in CI (`SNL_RESUME_CYCLES`, default 300 drops); by hand:
//! `SNL_RESUME_CYCLES=10000 cargo test --release -p snl-server --test server resume -- --nocapture`.

use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::{io::AsyncWriteExt, net::TcpStream};
use tokio_tungstenite::{
    WebSocketStream,
    tungstenite::{Message, client::IntoClientRequest},
};

use crate::support::{Server, gap_free};

type Socket = WebSocketStream<TcpStream>;

/// How long a test waits for a frame (a guard against hangs, not a timing).
const PATIENCE: Duration = Duration::from_secs(30);

/// xorshift64: the soak's moments and kinds of drop, from a seed.
struct Draw(u64);

impl Draw {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

async fn open(addr: std::net::SocketAddr, room: &str) -> Socket {
    let tcp = TcpStream::connect(addr).await.unwrap();
    let request = format!("ws://{addr}/api/rooms/{room}/ws").into_client_request().unwrap();
    tokio_tungstenite::client_async(request, tcp).await.unwrap().0
}

async fn send(socket: &mut Socket, frame: &Value) -> bool {
    socket.send(Message::Text(frame.to_string().into())).await.is_ok()
}

/// The next JSON frame, or `None` once the connection is closed.
async fn next(socket: &mut Socket) -> Option<Value> {
    loop {
        let message = tokio::time::timeout(PATIENCE, socket.next()).await.expect("a frame in time");
        match message? {
            Ok(Message::Text(text)) => return Some(serde_json::from_str(&text).unwrap()),
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

/// How a connection ends.
#[derive(Clone, Copy, Debug)]
enum Leave {
    Close,
    Reset,
    HalfFrame,
    Silent,
    AfterRoll,
}

/// What one person saw over every connection of one game.
#[derive(Debug, Default)]
struct Seen {
    events: Vec<Value>,
    resumes: u64,
    /// Welcomes whose state was compared with the server's.
    compared: u64,
    problems: Vec<String>,
}

impl Seen {
    fn last(&self) -> u64 {
        self.events.last().map_or(0, |f| f["seq"].as_u64().unwrap())
    }

    /// Takes an event frame: it must be the one after the last.
    fn take(&mut self, frame: Value) {
        let seq = frame["seq"].as_u64().unwrap();
        if seq != self.last() + 1 {
            self.problems.push(format!("event {seq} after {}", self.last()));
        }
        self.events.push(frame);
    }
}

/// Plays `seat` of `room` to the game's end, dropping its connection at random moments while
/// `drops` lasts.
async fn person(
    server: Arc<Server>,
    room: String,
    token: String,
    seat: u64,
    draw_from: u64,
    drops: Arc<AtomicU64>,
) -> Seen {
    let mut draw = Draw(draw_from | 1);
    let mut seen = Seen::default();
    // A roll sent just before a drop, sent again after the resume with the same input id.
    let mut pending: Option<Value> = None;
    // Connections gone silent, held unread to the end.
    let mut silent = Vec::new();
    loop {
        let mut socket = open(server.addr, &room).await;
        let since = seen.last();
        send(&mut socket, &json!({"type": "hello", "token": token, "since": since})).await;
        let welcome = next(&mut socket).await.expect("a welcome");
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        // The welcome's point is not before what the client had, and its state is the
        // server's at that point (compared when the room has not moved on meanwhile).
        let at = welcome["seq"].as_u64().unwrap();
        if at < since {
            seen.problems.push(format!("welcome at {at} after the client saw {since}"));
        }
        let now = server.state(&room).await;
        if now["seq"].as_u64() == Some(at) {
            seen.compared += 1;
            let fields = |s: &Value| {
                let at: Vec<Value> =
                    s["seats"].as_array().unwrap().iter().map(|x| x["position"].clone()).collect();
                (at, s["awaiting"].clone(), s["turns"].clone(), s["status"].clone())
            };
            if fields(&welcome["state"]) != fields(&now) {
                seen.problems.push(format!(
                    "the welcome's state at {at} is not the server's: {} vs {now}",
                    welcome["state"]
                ));
            }
        }
        let mut awaiting = welcome["state"]["awaiting"].clone();
        if let Some(roll) = pending.take() {
            send(&mut socket, &roll).await;
        }
        // A second tab of the same seat, now and then: it says hello and leaves.
        if draw.below(8) == 0 {
            let mut tab = open(server.addr, &room).await;
            send(&mut tab, &json!({"type": "hello", "token": token, "since": null})).await;
            let welcome = next(&mut tab).await.expect("the second tab's welcome");
            assert_eq!(welcome["type"], "welcome", "{welcome}");
            let _ = tab.close(None).await;
        }
        let dropping = drops.load(Ordering::Relaxed) > 0;
        let mut left = if dropping { 1 + draw.below(12) } else { u64::MAX };
        let how = match draw.below(5) {
            0 => Leave::Close,
            1 => Leave::Reset,
            2 => Leave::HalfFrame,
            3 => Leave::Silent,
            _ => Leave::AfterRoll,
        };
        let mut over = false;
        loop {
            if awaiting["seat"] == seat && awaiting["type"] == "roll" && !over {
                let roll = json!({"type": "roll", "input": awaiting["input"]});
                awaiting = Value::Null;
                if left <= 1 && matches!(how, Leave::AfterRoll) {
                    send(&mut socket, &roll).await;
                    pending = Some(roll);
                    break;
                }
                send(&mut socket, &roll).await;
            }
            if left == 0 || over {
                break;
            }
            let Some(frame) = next(&mut socket).await else { break };
            match frame["type"].as_str() {
                Some("event") => {
                    over = frame["event"]["type"] == "game_ended";
                    seen.take(frame);
                    left = left.saturating_sub(1);
                }
                Some("awaiting") => awaiting = frame["awaiting"].clone(),
                // A roll sent again after a resume that the server had already played.
                Some("error") if frame["code"] == "refused" => {}
                _ => seen.problems.push(format!("unexpected: {frame}")),
            }
        }
        if over {
            let _ = socket.close(None).await;
            return seen;
        }
        if dropping {
            let _ = drops.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |d| d.checked_sub(1));
        }
        seen.resumes += 1;
        match how {
            Leave::Close => {
                let _ = socket.close(None).await;
            }
            Leave::Reset | Leave::AfterRoll => drop(socket),
            Leave::HalfFrame => {
                // A masked text frame's header announcing 100 bytes, then 10 of them.
                let mut half = vec![0x81, 0x80 | 0x64, 1, 2, 3, 4];
                half.extend_from_slice(b"{\"type\":\"r");
                let _ = socket.get_mut().write_all(&half).await;
                drop(socket);
            }
            Leave::Silent => {
                // Says nothing and reads nothing (answers no ping): the server's heartbeat finds
                // it; it is held, never read, until the game ends, the next connection opened
                // meanwhile.
                silent.push(socket);
            }
        }
    }
}

/// Every event of `room` from the start, as a fresh spectator gets them.
async fn all_events(server: &Server, room: &str) -> Vec<Value> {
    let mut socket = open(server.addr, room).await;
    send(&mut socket, &json!({"type": "hello", "token": null, "since": 0})).await;
    let welcome = next(&mut socket).await.unwrap();
    let last = welcome["seq"].as_u64().unwrap();
    let mut events = Vec::new();
    while (events.len() as u64) < last {
        let frame = next(&mut socket).await.unwrap();
        if frame["type"] == "event" {
            events.push(frame);
        }
    }
    events
}

/// The game's events (who came and went, and the seats kept for them, left out).
fn game(events: &[Value]) -> Vec<Value> {
    events
        .iter()
        .filter(|f| {
            !matches!(
                f["event"]["type"].as_str(),
                Some("presence" | "grace_started" | "seat_returned")
            )
        })
        .map(|f| f["event"].clone())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_dropped_at_random_moments_resume_exactly_every_time() {
    let cycles: u64 =
        std::env::var("SNL_RESUME_CYCLES").ok().and_then(|c| c.parse().ok()).unwrap_or(300);
    let server = Arc::new(
        Server::start_with("resume-soak", |c| {
            c.limits.heartbeat = Duration::from_millis(50);
            c.limits.silence = Duration::from_millis(200);
        })
        .await,
    );
    let drops = Arc::new(AtomicU64::new(cycles));
    let (mut games, mut resumes, mut compared, mut problems) = (0u64, 0u64, 0u64, Vec::new());
    let mut seed = 0u64;
    while drops.load(Ordering::Relaxed) > 0 {
        // Eight rooms at once, each of two people.
        let mut rooms = Vec::new();
        for _ in 0..8 {
            seed += 1;
            let request = json!({"seats": [{"kind": "human"}, {"kind": "human"}], "seed": seed});
            let room = server.room(request).await;
            let tokens = [server.claim(&room, 0, "Ann").await, server.claim(&room, 1, "Bob").await];
            let people: Vec<_> = tokens
                .into_iter()
                .enumerate()
                .map(|(seat, token)| {
                    let (server, room, drops) = (server.clone(), room.clone(), drops.clone());
                    tokio::spawn(person(
                        server,
                        room,
                        token,
                        seat as u64,
                        seed * 2 + seat as u64,
                        drops,
                    ))
                })
                .collect();
            rooms.push((room, people));
        }
        for (room, people) in rooms {
            let mut seens = Vec::new();
            for person in people {
                seens.push(person.await.unwrap());
            }
            let truth = all_events(&server, &room).await;
            assert!(gap_free(&truth, 1));
            for seen in seens {
                resumes += seen.resumes;
                compared += seen.compared;
                problems.extend(seen.problems.iter().map(|p| format!("room {room}: {p}")));
                // The person saw the room's events, each once, in order, up to its end.
                let upto = seen.events.len().min(truth.len());
                if seen.events.len() > truth.len() || seen.events[..] != truth[..upto] {
                    problems.push(format!("room {room}: the events seen differ from the room's"));
                }
            }
            // No roll applied twice: one die and no bonus, so the seats' rolls alternate.
            let rolls: Vec<Value> = game(&truth)
                .into_iter()
                .filter(|e| e["type"] == "dice_rolled")
                .map(|e| e["player"].clone())
                .collect();
            if rolls.windows(2).any(|w| w[0] == w[1]) {
                problems.push(format!("room {room}: a seat rolled twice in a row: {rolls:?}"));
            }
            games += 1;
        }
    }
    eprintln!(
        "resume soak: {resumes} resumes over {games} games, {compared} welcomes compared with the server's state, {} problems",
        problems.len()
    );
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(resumes >= cycles, "{resumes} resumes of the {cycles} asked");
    assert!(compared > 0, "no welcome was compared");
}
