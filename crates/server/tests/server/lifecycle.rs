//! Rooms have a life cycle (issue 28, V4, V7, V16): a finished room leaves memory after a
//! linger but stays readable from the storage — its events by `since` and its replay, after it
//! left and after a restart —; the room cap counts the rooms in memory, finished ones
//! lingering included, and holds when rooms are created at once.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{Client, Server, gap_free};

/// Two computers: the game is played to its end as the room is created.
fn computers() -> Value {
    json!({"seats": [{"kind": "easy", "name": "Ann"}, {"kind": "greedy", "name": "Bob"}], "seed": 5})
}

/// The events after `since` that a connection gets, and the close code once the room leaves.
async fn read_from(server: &Server, room: &str, since: u64) -> (u64, Vec<Value>, Option<u16>) {
    let mut client = Client::connect(server.addr, room, None).await.unwrap();
    let welcome = client.hello(None, Some(since)).await;
    let last = welcome["seq"].as_u64().unwrap();
    let mut events = Vec::new();
    for _ in since..last {
        events.push(client.frame().await);
    }
    (last, events, client.close_code().await)
}

#[test]
fn a_finished_room_leaves_memory_and_is_read_back_after_it_left_and_after_a_restart() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let (dir, room, last) = runtime.block_on(async {
        let server = Server::start_with("life-finished", |c| {
            c.linger = Duration::from_millis(300);
        })
        .await;
        let room = server.room(computers()).await;
        // Its game is over; a watcher gets every event, then the room leaves memory and
        // closes the connection saying so (1000: nothing more to wait for).
        let (last, events, code) = read_from(&server, &room, 0).await;
        assert!(last > 6 && gap_free(&events, 1), "{events:?}");
        assert_eq!(code, Some(1000));
        // Read back from the storage: its state, and the events after 6.
        let state = server.state(&room).await;
        assert_eq!((&state["status"], state["seq"].as_u64()), (&json!("over"), Some(last)));
        let (again, events, code) = read_from(&server, &room, 6).await;
        assert_eq!(again, last);
        assert!(events.len() as u64 == last - 6 && gap_free(&events, 7), "{events:?}");
        assert_eq!(code, Some(1000), "it left again");
        let Server { dir, .. } = server;
        (dir, room, last)
    });
    drop(runtime);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let server = Server::reopen(dir, |c| c.linger = Duration::from_millis(300)).await;
        let (again, events, code) = read_from(&server, &room, 6).await;
        assert_eq!(code, Some(1000));
        assert_eq!(again, last, "after a restart");
        assert!(events.len() as u64 == last - 6 && gap_free(&events, 7), "{events:?}");
        // Its game was recorded once, and replays.
        let (status, games) = server.http("GET", "/api/games", None).await;
        assert_eq!((status, games["games"].as_array().map(Vec::len)), (200, Some(1)), "{games}");
        let id = &games["games"][0]["id"];
        let (status, game) = server.http("GET", &format!("/api/games/{id}"), None).await;
        assert_eq!((status, &game["status"]), (200, &json!("finished")), "{game}");
    });
}

#[tokio::test]
async fn the_room_cap_counts_finished_rooms_until_they_leave_memory() {
    let server = Server::start_with("life-cap", |c| {
        c.max_rooms = 2;
        c.linger = Duration::from_secs(3);
    })
    .await;
    let finished = server.room(computers()).await;
    let mut watcher = Client::connect(server.addr, &finished, None).await.unwrap();
    watcher.hello(None, None).await;
    server.room(json!({"seats": [{"kind": "human"}, {"kind": "human"}]})).await;
    let request = json!({"seats": [{"kind": "human"}, {"kind": "easy"}]}).to_string();
    let (status, answer) = server.http("POST", "/api/rooms", Some(&request)).await;
    assert_eq!((status, &answer["error"]["code"]), (429, &json!("room_limit")), "{answer}");
    // The finished room leaves memory (its watcher is told), and its place is free.
    assert_eq!(watcher.close_code().await, Some(1000));
    let (status, answer) = server.http("POST", "/api/rooms", Some(&request)).await;
    assert_eq!(status, 201, "{answer}");
}

#[tokio::test]
async fn rooms_created_at_once_never_pass_the_cap() {
    let server = Server::start_with("life-atomic-cap", |c| c.max_rooms = 5).await;
    let request = json!({"seats": [{"kind": "human"}, {"kind": "human"}]}).to_string();
    let asks = (0..24).map(|_| server.http("POST", "/api/rooms", Some(&request)));
    let answers = futures_util::future::join_all(asks).await;
    let created = answers.iter().filter(|(status, _)| *status == 201).count();
    let refused = answers.iter().filter(|(s, a)| *s == 429 && a["error"]["code"] == "room_limit");
    assert_eq!((created, refused.count()), (5, 19), "{answers:?}");
    let (_, lobby) = server.http("GET", "/api/rooms", None).await;
    assert_eq!(lobby["rooms"].as_array().map(Vec::len), Some(5));
}

#[tokio::test]
async fn an_open_room_nobody_joins_expires_for_good() {
    let server =
        Server::start_with("life-expire", |c| c.open_for = Duration::from_millis(300)).await;
    let mut lobby = Client::lobby(server.addr, None).await.unwrap();
    assert_eq!(lobby.frame().await["type"], "lobby");
    let room = server.room(json!({"seats": [{"kind": "human"}, {"kind": "hard"}]})).await;
    assert_eq!(lobby.change_of(&room).await["type"], "room");
    // Nobody takes the seat: the room expires, leaves the lobby and is no room any more.
    assert_eq!(lobby.change_of(&room).await["type"], "gone");
    let (status, answer) = server.http("GET", &format!("/api/rooms/{room}"), None).await;
    assert_eq!((status, &answer["error"]["code"]), (404, &json!("no_such_room")), "{answer}");
    let claim = json!({"name": "Ann"}).to_string();
    let (status, _) =
        server.http("POST", &format!("/api/rooms/{room}/seats/0"), Some(&claim)).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn one_address_creates_rooms_at_its_own_pace() {
    let server = Server::start_with("life-pace", |c| {
        c.create_limit = snl_server::CreateLimit { rate: 0, burst: 3 };
    })
    .await;
    let request = json!({"seats": [{"kind": "human"}, {"kind": "human"}]});
    for _ in 0..3 {
        server.room(request.clone()).await;
    }
    let (status, answer) = server.http("POST", "/api/rooms", Some(&request.to_string())).await;
    assert_eq!((status, &answer["error"]["code"]), (429, &json!("rate_limited")), "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("127.0.0.1 created 3 rooms"), "{message}");
}
