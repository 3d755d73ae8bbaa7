//! Hostile input: many connections send thousands of random and malformed frames. Each gets
//! exactly one error frame back, nothing in the room changes, nothing panics, and the players
//! play on to the end.

use serde_json::{Value, json};

use crate::support::Server;

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
