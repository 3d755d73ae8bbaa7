//! A fair clock for a dropped player (issue 30, point 3): a person whose socket drops keeps
//! the seat for the grace (`--grace`), told to everyone; then the computer plays it until they
//! take it back with one frame; every step an event that the room's stored log replays.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::Server;

/// Event frames until `done` says one is the last (included); awaiting frames skipped.
async fn events_until(
    client: &mut crate::support::Client,
    done: impl Fn(&Value) -> bool,
) -> Vec<Value> {
    let mut events = Vec::new();
    loop {
        let frame = client.frame().await;
        if frame["type"] != "event" {
            continue;
        }
        let last = done(&frame["event"]);
        events.push(frame["event"].clone());
        if last {
            return events;
        }
    }
}

fn types(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["type"].as_str().unwrap()).collect()
}

#[tokio::test]
async fn a_dropped_person_keeps_the_seat_for_the_grace_then_the_computer_plays_until_taken_back() {
    let server = Server::start_with("grace", |c| {
        c.grace = Duration::from_secs(1);
        // The computers pause, so the game is still on when she comes back.
        c.bot_delay = Duration::from_millis(300);
    })
    .await;
    // No turn clock: a person who left used to hang such a room for ever.
    let request =
        json!({"seats": [{"kind": "human"}, {"kind": "easy", "name": "Robo"}], "seed": 5});
    let room = server.room(request).await;
    let token = server.claim(&room, 0, "Ann").await;
    let mut watcher = server.connect(&room).await;
    watcher.hello(None, None).await;
    let mut ann = server.connect(&room).await;
    ann.hello(Some(&token), None).await;
    ann.send(json!({"type": "roll"})).await;
    // Her move, then Robo's: she is awaited again.
    loop {
        let frame = ann.frame().await;
        if frame["type"] == "awaiting" && frame["awaiting"]["seat"] == 0 {
            break;
        }
    }
    // The socket drops: no close frame.
    drop(ann);
    let away = events_until(&mut watcher, |e| e["type"] == "seat_autoplayed").await;
    let tail = &away[away.len() - 3..];
    assert_eq!(
        tail,
        [
            json!({"type": "presence", "player": "Ann", "online": false}),
            json!({"type": "grace_started", "player": "Ann", "seconds": 1}),
            json!({"type": "seat_autoplayed", "player": "Ann"}),
        ]
    );
    // The computer plays her turn: the room does not hang.
    let played =
        events_until(&mut watcher, |e| e["type"] == "dice_rolled" && e["player"] == "Ann").await;
    assert_eq!(played[0], json!({"type": "autopilot", "player": "Ann", "on": true}));

    // She comes back: the computer keeps her seat until she takes it back, with one frame.
    let mut ann = server.connect(&room).await;
    let welcome = ann.hello(Some(&token), None).await;
    let seat = &welcome["state"]["seats"][0];
    assert_eq!((&seat["autoplayed"], &seat["autopilot"]), (&json!(true), &json!(true)), "{seat}");
    ann.send(json!({"type": "autopilot", "on": false})).await;
    let back = events_until(&mut watcher, |e| e["type"] == "seat_returned").await;
    // The computer may play on meanwhile.
    assert!(back.contains(&json!({"type": "presence", "player": "Ann", "online": true})));
    assert_eq!(
        back[back.len() - 2..],
        [
            json!({"type": "autopilot", "player": "Ann", "on": false}),
            json!({"type": "seat_returned", "player": "Ann"}),
        ]
    );
    let state = server.state(&room).await;
    assert_eq!(state["seats"][0].get("autoplayed"), None, "{state}");
    assert_eq!(state["seats"][0]["autopilot"], false);

    // What was stored is what was told, in order: a new connection from the start reads it.
    let mut later = server.connect(&room).await;
    let welcome = later.hello(None, Some(0)).await;
    let last = welcome["seq"].as_u64().unwrap();
    let mut stored = Vec::new();
    while stored.len() < last as usize {
        let frame = later.frame().await;
        if frame["type"] == "event" {
            stored.push(frame["event"].clone());
        }
    }
    let seen: Vec<Value> = [away, played, back].concat();
    let kinds = types(&stored);
    for kind in ["grace_started", "seat_autoplayed", "seat_returned"] {
        assert_eq!(kinds.iter().filter(|k| **k == kind).count(), 1, "{kinds:?}");
    }
    assert_eq!(stored[..seen.len()], seen[..], "the stored events are those told live");
}
