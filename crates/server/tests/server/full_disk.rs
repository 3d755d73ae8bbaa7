//! Issue 28 V15: a room closed by a storage failure comes back when the storage works again.
//! The failure is real: the server runs in a process of its own whose file-size limit is
//! lowered to 0 from outside (`prlimit`), so its next write to the database fails as a write to
//! a full disk does; the limit is then lifted, as when the disk has room again.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{Client, TestDir, gap_free, http, process::ServerProcess};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_closed_by_a_full_disk_is_not_listed_and_plays_on_once_the_disk_has_room() {
    let dir = TestDir::new("full-disk");
    let mut server = ServerProcess::start(dir.path(), Duration::from_secs(20));
    let addr = server.addr;
    let request = json!({"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 3});
    let (status, created) = http(addr, "POST", "/api/rooms", Some(&request.to_string())).await;
    assert_eq!(status, 201, "{created}");
    let room = created["room"].as_str().unwrap().to_owned();
    let mut tokens = Vec::new();
    for (seat, name) in ["Ann", "Bob"].iter().enumerate() {
        let path = format!("/api/rooms/{room}/seats/{seat}");
        let body = json!({ "name": name }).to_string();
        let (status, claimed) = http(addr, "POST", &path, Some(&body)).await;
        assert_eq!(status, 200, "{claimed}");
        tokens.push(claimed["token"].as_str().unwrap().to_owned());
    }
    let mut ann = Client::connect(addr, &room, None).await.unwrap();
    ann.hello(Some(&tokens[0]), None).await;
    let mut bob = Client::connect(addr, &room, None).await.unwrap();
    bob.hello(Some(&tokens[1]), None).await;
    ann.send(json!({"type": "roll"})).await;
    let (_, stored) = until_awaiting(&mut bob).await;

    // The disk is full: Bob's roll cannot be stored, so it is refused and never shown, and
    // the room closes.
    server.limit_file_size(Some(0));
    bob.send(json!({"type": "roll"})).await;
    let refused = bob.frame().await;
    assert_eq!((&refused["type"], &refused["code"]), (&json!("error"), &json!("server_error")));
    server.line_with(&format!("room {room} is closed")).await;
    // Not listed as a room being played while it is closed.
    let (_, lobby) = http(addr, "GET", "/api/rooms", None).await;
    let listed = |lobby: &Value| {
        lobby["rooms"].as_array().unwrap().iter().any(|r| r["room"] == room.as_str())
    };
    assert!(!listed(&lobby), "a closed room is not listed: {lobby}");

    // The disk has room again: the room is read back from the storage as it was stored, and
    // the game goes on from there, every event once.
    server.limit_file_size(None);
    let (status, state) = http(addr, "GET", &format!("/api/rooms/{room}"), None).await;
    assert_eq!(status, 200, "{state}");
    // Bob's refused roll left nothing: he is still awaited, at the start.
    assert_eq!(state["awaiting"]["seat"], 1, "{state}");
    assert_eq!(state["seats"][1]["position"], 0, "{state}");
    assert_eq!(state["turns"], 1, "{state}");
    let mut bob = Client::connect(addr, &room, None).await.unwrap();
    let welcome = bob.hello(Some(&tokens[1]), Some(stored)).await;
    let last = welcome["seq"].as_u64().unwrap();
    bob.send(json!({"type": "roll"})).await;
    let (events, _) = until_awaiting(&mut bob).await;
    assert!(gap_free(&events, stored + 1), "every event once, in order: {events:?}");
    // Only who came and went (and the seats kept for them) was stored while the room was
    // closed (its seats' connections ended); then Bob's roll.
    let (closed, played) = events.split_at(usize::try_from(last - stored).unwrap());
    let coming_and_going = |e: &Value| {
        matches!(e["event"]["type"].as_str(), Some("presence" | "grace_started" | "seat_returned"))
    };
    assert!(closed.iter().all(coming_and_going), "{closed:?}");
    assert!(played.iter().any(|e| e["event"]["type"] == "dice_rolled"), "{played:?}");
    let (_, lobby) = http(addr, "GET", "/api/rooms", None).await;
    assert!(listed(&lobby), "listed again once it plays: {lobby}");
    assert!(server.stop());
}

/// The event frames up to the next awaiting frame, and that frame's `seq`.
async fn until_awaiting(client: &mut Client) -> (Vec<Value>, u64) {
    let mut events = Vec::new();
    loop {
        let frame = client.frame().await;
        match frame["type"].as_str() {
            Some("awaiting") => return (events, frame["seq"].as_u64().unwrap()),
            Some("event") => events.push(frame),
            _ => panic!("neither an event nor awaiting: {frame}"),
        }
    }
}
