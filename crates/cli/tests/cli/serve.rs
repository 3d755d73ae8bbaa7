//! `snl serve` as a process: its first line, and a server killed with SIGKILL mid-game and
//! started again on the same database — every unfinished room comes back, clients reconnecting
//! with `since` miss nothing, and the game goes on to the end.

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::TcpStream,
    process::{Child, Command, Stdio},
};

use serde_json::{Value, json};
use tungstenite::{Message, WebSocket, stream::MaybeTlsStream};

use crate::util::TempDir;

/// A running `snl serve` and the address it printed.
struct Served {
    child: Child,
    addr: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(db: &str) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_snl"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db, "--bot-delay-ms", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.trim().strip_prefix("listening on http://").expect(&line).to_owned();
    Served { child, addr }
}

fn http(addr: &str, method: &str, path: &str, body: &str) -> Value {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let body = response.split_once("\r\n\r\n").unwrap().1;
    serde_json::from_str(body).unwrap()
}

/// One player's connection and every event frame it has seen.
struct Player {
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    seat: u64,
    seen: Vec<Value>,
}

impl Player {
    /// Connects, says hello, reads the welcome and the events missed; returns the player and
    /// what the game awaits.
    fn join(
        addr: &str,
        room: &str,
        token: &str,
        since: Option<u64>,
        seen: Vec<Value>,
    ) -> (Player, Value) {
        let (mut socket, _) =
            tungstenite::connect(format!("ws://{addr}/api/rooms/{room}/ws")).unwrap();
        let hello = json!({"type": "hello", "token": token, "since": since});
        socket.send(Message::Text(hello.to_string().into())).unwrap();
        let welcome = read(&mut socket);
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        let mut player = Player { socket, seat: welcome["seat"].as_u64().unwrap(), seen };
        let last = welcome["seq"].as_u64().unwrap();
        let from = since.unwrap_or(last);
        for _ in from..last {
            let frame = read(&mut player.socket);
            assert_eq!(frame["type"], "event", "{frame}");
            player.seen.push(frame);
        }
        (player, welcome["state"]["awaiting"].clone())
    }

    /// Event frames up to the next awaiting frame; returns it.
    fn until_awaiting(&mut self) -> Value {
        loop {
            let frame = read(&mut self.socket);
            match frame["type"].as_str() {
                Some("awaiting") => return frame["awaiting"].clone(),
                Some("event") => self.seen.push(frame),
                _ => panic!("{frame}"),
            }
        }
    }

    /// The next frame, an event.
    fn next_event(&mut self) {
        let frame = read(&mut self.socket);
        assert_eq!(frame["type"], "event", "{frame}");
        self.seen.push(frame);
    }

    fn roll(&mut self) {
        self.socket.send(Message::Text(json!({"type": "roll"}).to_string().into())).unwrap();
    }
}

fn read(socket: &mut WebSocket<MaybeTlsStream<TcpStream>>) -> Value {
    loop {
        match socket.read().unwrap() {
            Message::Text(text) => return serde_json::from_str(&text).unwrap(),
            Message::Close(_) => panic!("the server closed the connection"),
            _ => {}
        }
    }
}

/// Plays `rolls` rolls (or to the end): whoever is awaited rolls; both read every batch.
fn play(players: &mut [Player; 2], mut awaiting: Value, rolls: usize) -> Value {
    for _ in 0..rolls {
        if awaiting.is_null() {
            break;
        }
        let seat = awaiting["seat"].as_u64().unwrap();
        players.iter_mut().find(|p| p.seat == seat).unwrap().roll();
        awaiting = players[0].until_awaiting();
        assert_eq!(players[1].until_awaiting(), awaiting);
    }
    awaiting
}

fn last_seq(player: &Player) -> Option<u64> {
    player.seen.last().map(|f| f["seq"].as_u64().unwrap())
}

#[test]
fn serve_killed_mid_game_restores_the_room_and_reconnecting_clients_miss_nothing() {
    let dir = TempDir::new("serve-kill");
    let db = dir.file("games.db");
    let mut first = serve(&db);
    let request = json!({"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 5});
    let room = http(&first.addr, "POST", "/api/rooms", &request.to_string())["room"]
        .as_str()
        .unwrap()
        .to_owned();
    let claim = |addr: &str, seat: usize, name: &str| {
        let path = format!("/api/rooms/{room}/seats/{seat}");
        http(addr, "POST", &path, &json!({"name": name}).to_string())["token"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let (ann, bob) = (claim(&first.addr, 0, "Ann"), claim(&first.addr, 1, "Bob"));
    let (a, _) = Player::join(&first.addr, &room, &ann, Some(0), Vec::new());
    let (b, awaiting) = Player::join(&first.addr, &room, &bob, Some(0), Vec::new());
    let mut players = [a, b];
    // Ann was welcomed before Bob came: she reads his presence.
    players[0].next_event();
    play(&mut players, awaiting, 12);
    let before = players[0].seen.len();
    assert!(before > 12, "some turns were played: {before} events");

    first.child.kill().unwrap(); // SIGKILL
    first.child.wait().unwrap();
    let [a, b] = players;
    let (since_a, since_b) = (last_seq(&a), last_seq(&b));

    let second = serve(&db);
    let (a, _) = Player::join(&second.addr, &room, &ann, since_a, a.seen);
    let (b, awaiting) = Player::join(&second.addr, &room, &bob, since_b, b.seen);
    let mut players = [a, b];
    players[0].next_event();
    assert!(play(&mut players, awaiting, 10_000).is_null(), "the game went on to its end");

    for player in &players {
        let seqs: Vec<u64> = player.seen.iter().map(|f| f["seq"].as_u64().unwrap()).collect();
        let expected: Vec<u64> = (1..=seqs.len() as u64).collect();
        assert_eq!(seqs, expected, "seat {}: every event once, in order", player.seat);
    }
    assert_eq!(players[0].seen, players[1].seen);
    let kinds: Vec<&str> =
        players[0].seen.iter().map(|f| f["event"]["type"].as_str().unwrap()).collect();
    assert_eq!(kinds.iter().filter(|k| **k == "game_started").count(), 1);
    assert_eq!(kinds.last(), Some(&"game_ended"));
    // After the restart both were told away (nobody was connected), each seat kept for its
    // grace (issue 30, point 3), then back.
    let told: Vec<&Value> = players[0].seen[before..].iter().take(4).map(|f| &f["event"]).collect();
    assert_eq!(
        told,
        [
            &json!({"type": "presence", "player": "Ann", "online": false}),
            &json!({"type": "grace_started", "player": "Ann", "seconds": 120}),
            &json!({"type": "presence", "player": "Bob", "online": false}),
            &json!({"type": "grace_started", "player": "Bob", "seconds": 120}),
        ]
    );
    // The finished game is in the database like any other.
    drop(second);
    let games = crate::util::snl_json(&["games", "--db", &db, "--json"]);
    assert!(games.to_string().contains("Ann"), "{games}");
}

#[test]
fn serve_refuses_an_address_it_cannot_read_or_listen_on() {
    let dir = TempDir::new("serve-bad-addr");
    let db = dir.file("games.db");
    let run = crate::util::snl(&["serve", "--addr", "localhost-ish", "--db", &db]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("'localhost-ish'"), "{}", run.stderr);
    // A port already taken: exit 1, naming the address.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let run = crate::util::snl(&["serve", "--addr", &addr, "--db", &db]);
    crate::util::assert_fails(&run, 1, &[&addr]);
}

#[test]
fn serve_help_groups_each_option_under_its_own_heading() {
    let run = crate::util::snl(&["serve", "--help"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Each heading, then the options under it, up to the next heading.
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for line in run.stdout.lines() {
        if line.ends_with(':') && !line.starts_with(' ') {
            groups.push((line.trim_end_matches(':').to_owned(), Vec::new()));
        } else if let (Some(last), Some(option)) =
            (groups.last_mut(), line.trim_start().strip_prefix("--"))
        {
            last.1.push(option.split([' ', '=']).next().unwrap_or_default().to_owned());
        }
    }
    let under = |heading: &str| {
        groups.iter().find(|(h, _)| h == heading).map(|(_, o)| o.clone()).unwrap_or_default()
    };
    assert_eq!(under("Listening"), ["addr", "open"], "{}", run.stdout);
    assert_eq!(under("Game database"), ["db", "fsync"], "{}", run.stdout);
    assert_eq!(
        under("Rooms"),
        ["bot-delay-ms", "grace", "max-rooms", "rooms-per-minute"],
        "{}",
        run.stdout
    );
    assert_eq!(
        under("Connections"),
        ["max-connections", "connections-per-address", "rate", "allow-origin"],
        "{}",
        run.stdout
    );
}
