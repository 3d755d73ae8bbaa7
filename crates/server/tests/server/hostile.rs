//! Hostile input: many connections send thousands of random and malformed frames. Each gets
//! exactly one error frame back, nothing in the room changes, nothing panics, and the players
//! play on to the end.

use std::path::Path;

use serde_json::{Value, json};

use crate::support::{Client, Server};

/// xorshift64*: the frames are drawn from a fixed seed.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn frame(&mut self) -> String {
        const VALID: [&str; 6] = [
            r#"{"type":"roll"}"#,
            r#"{"type":"choose","option":1}"#,
            r#"{"type":"autopilot","on":true}"#,
            r#"{"type":"chat","text":"hi"}"#,
            r#"{"type":"hello","token":null,"since":null}"#,
            r#"{"type":"hello","token":"00","since":3}"#,
        ];
        let base = VALID[self.below(VALID.len() as u64) as usize];
        match self.below(6) {
            // Printable noise.
            0 => (0..self.below(200)).map(|_| char::from(32 + self.below(95) as u8)).collect(),
            // A valid frame cut short.
            1 => base[..self.below(base.len() as u64) as usize].to_owned(),
            // A byte of a valid frame replaced.
            2 => {
                let mut bytes = base.as_bytes().to_vec();
                let at = self.below(bytes.len() as u64) as usize;
                bytes[at] = 32 + self.below(95) as u8;
                String::from_utf8(bytes).unwrap()
            }
            // Wrong types and values.
            3 => {
                let values = [
                    json!(null),
                    json!(-1),
                    json!(1e300),
                    json!("x"),
                    json!([1]),
                    json!({"a": {}}),
                ];
                let value = &values[self.below(values.len() as u64) as usize];
                let field =
                    ["type", "option", "on", "text", "token", "since"][self.below(6) as usize];
                json!({"type": "choose", field: value}).to_string()
            }
            // Deep nesting and a frame too large.
            4 => "[".repeat(self.below(3000) as usize),
            // A valid frame, which a spectator may not send (or a second hello).
            _ => base.to_owned(),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousands_of_random_frames_change_nothing_and_the_game_goes_on() {
    const CONNECTIONS: usize = 20;
    const FRAMES: usize = 1000;
    let server = Server::start("hostile").await;
    let room =
        server.room(json!({"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 2})).await;
    let ann = server.claim(&room, 0, "Ann").await;
    let bob = server.claim(&room, 1, "Bob").await;
    let before = server.state(&room).await;
    let mut tasks = Vec::new();
    for c in 0..CONNECTIONS {
        let mut client = server.connect(&room).await;
        tasks.push(tokio::spawn(async move {
            client.hello(None, None).await;
            let mut draw = Draw(0x9e37_79b9_7f4a_7c15 ^ (c as u64 + 1));
            for _ in 0..FRAMES {
                client.send_text(&draw.frame()).await;
            }
            let mut codes = std::collections::BTreeMap::new();
            for _ in 0..FRAMES {
                let frame = client.frame().await;
                assert_eq!(frame["type"], "error", "{frame}");
                *codes.entry(frame["code"].as_str().unwrap().to_owned()).or_insert(0) += 1;
            }
            client.close().await;
            codes
        }));
    }
    let mut all = std::collections::BTreeMap::<String, usize>::new();
    for task in tasks {
        for (code, n) in task.await.unwrap() {
            *all.entry(code).or_default() += n;
        }
    }
    assert_eq!(all.values().sum::<usize>(), CONNECTIONS * FRAMES);
    assert!(all.contains_key("not_a_player") && all.contains_key("bad_message"), "{all:?}");
    assert_eq!(server.state(&room).await, before, "nothing changed");
    // The players play on.
    let mut a = server.connect(&room).await;
    let mut b = server.connect(&room).await;
    a.hello(Some(&ann), None).await;
    b.hello(Some(&bob), None).await;
    let mut awaiting = json!({"type": "roll", "seat": 0});
    loop {
        let mover = if awaiting["seat"] == 0 { &mut a } else { &mut b };
        mover.send(json!({"type": "roll"})).await;
        let next: Value = loop {
            let frame = a.frame().await;
            if frame["type"] == "awaiting" {
                break frame["awaiting"].clone();
            }
        };
        if next.is_null() {
            break;
        }
        awaiting = next;
    }
    assert_eq!(server.state(&room).await["status"], "over");
}

/// Each of `connections` (all holding `token`) sends `lines` chat lines, then a frame that is
/// not JSON; the lines not refused (each refusal `rate_limited`, all before the answer to that
/// last frame, as a connection answers in order).
async fn flood_chat(
    server: &Server,
    room: &str,
    token: &str,
    (connections, lines): (usize, usize),
) -> usize {
    let mut senders = Vec::new();
    for _ in 0..connections {
        let mut client = server.connect(room).await;
        client.hello(Some(token), None).await;
        senders.push(client);
    }
    for client in &mut senders {
        for i in 0..lines {
            client.send(json!({"type": "chat", "text": format!("spam {i}")})).await;
        }
        client.send_text("end").await;
    }
    let mut refused = 0;
    for client in &mut senders {
        loop {
            let frame = client.frame().await;
            match (frame["type"].as_str(), frame["code"].as_str()) {
                (Some("error"), Some("bad_message")) => break,
                (Some("error"), code) => {
                    assert_eq!(code, Some("rate_limited"), "{frame}");
                    refused += 1;
                }
                _ => {}
            }
        }
    }
    connections * lines - refused
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_flooding_chat_from_many_connections_says_no_more_than_its_share() {
    // Totals: a seat says at most 10 lines, the room holds at most 15, whatever the pace.
    let server = Server::start_with("chat-totals", |c| {
        c.chat = snl_server::ChatLimit { rate: 1000.0, burst: 1000, per_seat: 10, per_room: 15 };
    })
    .await;
    let room =
        server.room(json!({"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 2})).await;
    let ann = server.claim(&room, 0, "Ann").await;
    let bob = server.claim(&room, 1, "Bob").await;
    assert_eq!(flood_chat(&server, &room, &ann, (4, 10)).await, 10, "Ann's share");
    assert_eq!(flood_chat(&server, &room, &bob, (2, 10)).await, 5, "what the room has left");
    // The room's events hold exactly the lines told: 15, each once.
    let mut spectator = server.connect(&room).await;
    let welcome = spectator.hello(None, Some(0)).await;
    let last = welcome["seq"].as_u64().unwrap();
    let mut chats = 0;
    for _ in 0..last {
        let frame = spectator.frame().await;
        chats += usize::from(frame["event"]["type"] == "chat");
    }
    assert_eq!(chats, 15);

    // The pace: five at once, then one a second for the seat, across its connections.
    let server = Server::start_with("chat-rate", |c| {
        c.chat = snl_server::ChatLimit { rate: 1.0, burst: 5, per_seat: 1000, per_room: 1000 };
    })
    .await;
    let room =
        server.room(json!({"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 2})).await;
    let ann = server.claim(&room, 0, "Ann").await;
    let started = std::time::Instant::now();
    let told = flood_chat(&server, &room, &ann, (5, 20)).await;
    let allowed = 5 + started.elapsed().as_secs() as usize + 1;
    assert!((5..=allowed).contains(&told), "{told} lines told of 100, {allowed} allowed");
}

/// Every value of the database at `path` that holds `text`, as `table.column`, once per value.
fn kept(path: &Path, text: &str) -> Vec<String> {
    let db = rusqlite::Connection::open(path).unwrap();
    let names = |sql: &str| -> Vec<String> {
        let mut stmt = db.prepare(sql).unwrap();
        stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    let mut found = Vec::new();
    for table in names("SELECT name FROM sqlite_master WHERE type = 'table'") {
        for column in names(&format!("SELECT name FROM pragma_table_info('{table}')")) {
            let sql = format!(
                "SELECT COUNT(*) FROM \"{table}\" WHERE instr(CAST(\"{column}\" AS TEXT), ?1) > 0"
            );
            let count: u32 = db.query_row(&sql, [text], |r| r.get(0)).unwrap();
            found.extend(std::iter::repeat_n(format!("{table}.{column}"), count as usize));
        }
    }
    found
}

#[test]
fn a_chat_line_is_stored_once_and_still_told_after_a_restart_and_in_the_games_replay() {
    // Issue 28, V8: a line was kept in the room's log, in its events and, once the game was
    // recorded, in a table of the game's: three copies.
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let (dir, open_room, seq) = runtime.block_on(async {
        let server = Server::start("chat-once").await;
        // A game played to its end, with a line said before the first roll.
        let finished = server
            .room(
                json!({"seats": [{"kind": "human"}, {"kind": "easy", "name": "Robo"}], "seed": 3}),
            )
            .await;
        let ann = server.claim(&finished, 0, "Ann").await;
        let mut a = server.connect(&finished).await;
        a.hello(Some(&ann), None).await;
        a.send(json!({"type": "chat", "text": "said once: good luck"})).await;
        a.send(json!({"type": "autopilot", "on": true})).await;
        a.events_until("game_ended").await;
        // A room still open, with a line said in it.
        let open = server.room(json!({"seats": [{"kind": "human"}, {"kind": "human"}]})).await;
        let ann = server.claim(&open, 0, "Ann").await;
        let mut a = server.connect(&open).await;
        a.hello(Some(&ann), None).await;
        a.send(json!({"type": "chat", "text": "said once: anyone?"})).await;
        let told = a.events_until("chat").await;
        let seq = told.last().unwrap()["seq"].as_u64().unwrap();
        let Server { dir, .. } = server;
        (dir, open, seq)
    });
    drop(runtime);
    let path = dir.path().join("games.db");
    for line in ["said once: good luck", "said once: anyone?"] {
        assert_eq!(kept(&path, line), ["room_batches.events"], "{line}");
    }
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let server = Server::reopen(dir, |_| {}).await;
        // The open room is rebuilt from its log, the line read from the event that keeps it.
        let mut watcher = Client::connect(server.addr, &open_room, None).await.unwrap();
        let welcome = watcher.hello(None, Some(0)).await;
        assert_eq!(welcome["state"]["status"], "open", "{welcome}");
        let mut said = Vec::new();
        for _ in 0..welcome["seq"].as_u64().unwrap() {
            let frame = watcher.frame().await;
            if frame["event"]["type"] == "chat" {
                said.push((frame["seq"].as_u64().unwrap(), frame["event"]["text"].clone()));
            }
        }
        assert_eq!(said, [(seq, json!("said once: anyone?"))]);
        // The recorded game's replay says its line where it was said: before the first roll.
        let (_, games) = server.http("GET", "/api/games", None).await;
        let id = &games["games"][0]["id"];
        let (status, game) = server.http("GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(status, 200, "{game}");
        let chat = game["chat"].as_array().unwrap();
        assert_eq!(chat.len(), 1, "{chat:?}");
        assert_eq!(
            (&chat[0]["player"], &chat[0]["text"]),
            (&json!("Ann"), &json!("said once: good luck"))
        );
        let at = chat[0]["at"].as_u64().unwrap() as usize;
        let events = game["events"].as_array().unwrap();
        let first_roll = events.iter().position(|e| e["event"]["type"] == "dice_rolled");
        assert!(at < first_roll.unwrap(), "{chat:?}");
    });
}
