//! Several `snl serve` nodes on one PostgreSQL, in this process on real loopback sockets: a room
//! asked of another node moves there, a dead node's rooms go on on another, and the players,
//! reconnecting with `since`, see every event once, in order, the same game their seed gives;
//! a lobby stream on one node tells the rooms of the others as they change.

use std::{net::SocketAddr, time::Duration};

use serde_json::{Value, json};

use crate::support::{Client, Server, gap_free, http, pg};

/// One person and one computer seat, seeded.
fn request(seed: u64) -> Value {
    json!({"seats": [{"kind": "human"}, {"kind": "greedy", "name": "Robo"}], "seed": seed})
}

/// A person who rolls (or takes the first option) whenever the room awaits them.
struct Player {
    room: String,
    token: String,
    /// Every event frame seen, over every connection.
    seen: Vec<Value>,
}

/// How a connection of a [`Player`] ended.
#[derive(Debug, PartialEq)]
enum Ended {
    /// The game ended.
    Over,
    /// The server closed the connection.
    Closed,
    /// The player stopped after the events asked for.
    Stopped,
}

impl Player {
    /// Connects to `addr`, says hello with the last seq seen, and plays until the game ends,
    /// the connection closes, or `more` events were seen on this connection.
    async fn play(&mut self, addr: SocketAddr, more: Option<usize>) -> Ended {
        let mut client = Client::connect(addr, &self.room, None).await.unwrap();
        let since = self.seen.last().map_or(0, |f| f["seq"].as_u64().unwrap());
        let welcome = client.hello(Some(&self.token), Some(since)).await;
        let seat = welcome["seat"].clone();
        let mut awaiting = welcome["state"]["awaiting"].clone();
        let mut here = 0;
        loop {
            if awaiting["seat"] == seat {
                let intent = if awaiting["type"] == "roll" {
                    json!({"type": "roll"})
                } else {
                    json!({"type": "choose", "option": 0})
                };
                client.send(intent).await;
            }
            awaiting = Value::Null;
            let Some(frame) = client.next().await else { return Ended::Closed };
            match frame["type"].as_str() {
                Some("awaiting") => awaiting = frame["awaiting"].clone(),
                Some("event") => {
                    let over = frame["event"]["type"] == "game_ended";
                    self.seen.push(frame);
                    here += 1;
                    if over {
                        client.close().await;
                        return Ended::Over;
                    }
                    if more == Some(here) {
                        return Ended::Stopped;
                    }
                }
                // A roll sent while the room was moving may be refused: the next awaiting
                // frame says what is awaited.
                _ => {}
            }
        }
    }

    /// The game's events, without who came and went.
    fn game(&self) -> Vec<Value> {
        // Not her comings and goings: presence, and the grace kept while she was away.
        let away = ["presence", "grace_started", "seat_returned"];
        self.seen
            .iter()
            .map(|f| f["event"].clone())
            .filter(|e| !away.iter().any(|t| e["type"] == *t))
            .collect()
    }
}

/// The game `seed` gives, played on one server alone.
async fn reference(seed: u64) -> Vec<Value> {
    let server = Server::start(&format!("cluster-reference-{seed}")).await;
    let room = server.room(request(seed)).await;
    let token = server.claim(&room, 0, "Ann").await;
    let mut ann = Player { room, token, seen: Vec::new() };
    assert_eq!(ann.play(server.addr, None).await, Ended::Over);
    ann.game()
}

async fn node(name: &str, url: &str) -> Server {
    Server::start_with(name, |config| config.db = url.into()).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_asked_of_another_node_moves_there_and_its_player_misses_nothing() {
    let postgres = pg::Postgres::start("moves");
    let url = postgres.database("moves").await;
    let (a, b) = (node("moves-a", &url).await, node("moves-b", &url).await);
    let room = a.room(request(7)).await;
    let token = a.claim(&room, 0, "Ann").await;
    let mut ann = Player { room: room.clone(), token, seen: Vec::new() };
    assert_eq!(ann.play(a.addr, Some(6)).await, Ended::Stopped);

    // Node B is asked for the room: A lets it go, and its connections close.
    let mut client = Client::connect(a.addr, &room, None).await.unwrap();
    client.hello(None, None).await;
    let (status, state) = b.http("GET", &format!("/api/rooms/{room}"), None).await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["seats"][0]["name"], "Ann");
    while client.next().await.is_some() {}

    // Ann goes on at B, from where she was.
    assert_eq!(ann.play(b.addr, None).await, Ended::Over);
    assert!(gap_free(&ann.seen, 1), "{:?}", ann.seen);
    assert_eq!(ann.game(), reference(7).await);
    let (status, _) = http(b.addr, "GET", &format!("/api/rooms/{room}"), None).await;
    assert_eq!(status, 200);
}

/// A node on a runtime of its own, so that it can die whole.
fn doomed_node(url: &str) -> (SocketAddr, tokio::runtime::Runtime) {
    let url = url.to_owned();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let addr = runtime.block_on(async {
            let mut config = snl_server::Config::new(url.into());
            config.bot_delay = Duration::ZERO;
            let app = snl_server::open(config).await.unwrap();
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            tokio::spawn(app.serve(listener));
            addr
        });
        (addr, runtime)
    })
    .join()
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_nodes_room_goes_on_at_another_node_with_nothing_lost() {
    let postgres = pg::Postgres::start("dies");
    let url = postgres.database("dies").await;
    let (doomed, runtime) = doomed_node(&url);
    let other = node("dies-b", &url).await;
    let (status, created) = http(doomed, "POST", "/api/rooms", Some(&request(9).to_string())).await;
    assert_eq!(status, 201, "{created}");
    let room = created["room"].as_str().unwrap().to_owned();
    let path = format!("/api/rooms/{room}/seats/0");
    let (status, claimed) = http(doomed, "POST", &path, Some(r#"{"name":"Ann"}"#)).await;
    assert_eq!(status, 200, "{claimed}");
    let token = claimed["token"].as_str().unwrap().to_owned();
    let mut ann = Player { room: room.clone(), token, seen: Vec::new() };
    assert_eq!(ann.play(doomed, Some(5)).await, Ended::Stopped);

    // The node dies with every task and connection: its database connections close, so its
    // leases go with them.
    runtime.shutdown_background();
    assert_eq!(ann.play(other.addr, None).await, Ended::Over);
    assert!(gap_free(&ann.seen, 1), "{:?}", ann.seen);
    assert_eq!(ann.game(), reference(9).await);
    let (status, lobby) = other.http("GET", "/api/rooms", None).await;
    assert_eq!(status, 200);
    assert!(lobby["rooms"].as_array().unwrap().iter().all(|r| r["room"] != room.as_str()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_nodes_lobby_lists_the_rooms_of_the_others() {
    use futures_util::StreamExt;
    let postgres = pg::Postgres::start("lobby");
    let url = postgres.database("lobby").await;
    let (a, b) = (node("lobby-a", &url).await, node("lobby-b", &url).await);
    // Listen as the nodes do, to know when A has told its room.
    let (listener, mut connection) =
        tokio_postgres::connect(&url, tokio_postgres::NoTls).await.unwrap();
    let (told, mut heard) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
        while let Some(Ok(message)) = messages.next().await {
            if let tokio_postgres::AsyncMessage::Notification(n) = message {
                let _ = told.send(n.payload().to_owned());
            }
        }
    });
    listener.batch_execute("LISTEN snl_lobby").await.unwrap();
    let room = a.room(request(3)).await;
    while !heard.recv().await.unwrap().contains(&room) {}
    // B heard it too, at the same moment or a little later: ask until it lists it.
    let mut listed = false;
    for _ in 0..1000 {
        let (_, lobby) = b.http("GET", "/api/rooms", None).await;
        let rooms = lobby["rooms"].as_array().unwrap().clone();
        if let Some(entry) = rooms.iter().find(|r| r["room"] == room.as_str()) {
            assert_eq!(entry["status"], "open");
            assert_eq!(entry["seats"][1]["name"], "Robo");
            listed = true;
            break;
        }
    }
    assert!(listed, "B's lobby lists A's room");
    // Listed once on A too (its own entry, not the one it published).
    let (_, lobby) = a.http("GET", "/api/rooms", None).await;
    let on_a = lobby["rooms"].as_array().unwrap().iter().filter(|r| r["room"] == room.as_str());
    assert_eq!(on_a.count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lobby_stream_on_one_node_tells_the_rooms_of_another_as_they_change() {
    let postgres = pg::Postgres::start("stream");
    let url = postgres.database("stream").await;
    let (a, b) = (node("stream-a", &url).await, node("stream-b", &url).await);
    let mut stream = Client::lobby(a.addr, None).await.unwrap();
    let first = stream.frame().await;
    assert_eq!(first, json!({"type": "lobby", "rooms": []}));

    // A room opened on B reaches A's stream through NOTIFY, and so does each change of it.
    let room = b.room(request(5)).await;
    let opened = stream.change_of(&room).await;
    assert_eq!(opened["type"], "room", "{opened}");
    assert_eq!(opened["entry"]["status"], "open");
    assert_eq!(opened["entry"]["seats"][0]["open"], true);
    assert_eq!(opened["entry"]["seats"][1]["name"], "Robo");
    let token = b.claim(&room, 0, "Ann").await;
    let claimed = stream.change_of(&room).await;
    assert_eq!(claimed["entry"]["seats"][0]["name"], "Ann", "{claimed}");
    assert_eq!(claimed["entry"]["status"], "running", "the last open seat taken starts the game");

    // Ann plays to the end on B: A's stream tells the room gone.
    let mut ann = Player { room: room.clone(), token, seen: Vec::new() };
    assert_eq!(ann.play(b.addr, None).await, Ended::Over);
    loop {
        let change = stream.change_of(&room).await;
        if change["type"] == "gone" {
            break;
        }
        assert_eq!(change["entry"]["status"], "running", "{change}");
    }
}
