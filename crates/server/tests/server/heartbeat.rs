//! Issue 30 point 4: a connection that goes silent — no close, no TCP reset, as when a phone
//! sleeps or a cable is pulled — is found by the server's heartbeat (a ping every
//! `Limits::heartbeat`, gone after `Limits::silence` without a frame or a pong), so the seat is
//! seen away; a client that reads (and so answers pings) stays however long nothing happens.

use std::time::Duration;

use serde_json::json;

use crate::support::{Client, Server};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_connection_is_found_by_the_heartbeat_and_its_seat_comes_back_exactly() {
    let server = Server::start_with("heartbeat", |c| {
        c.limits.heartbeat = Duration::from_millis(50);
        c.limits.silence = Duration::from_millis(300);
    })
    .await;
    let room =
        server.room(json!({"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 9})).await;
    let ann_token = server.claim(&room, 0, "Ann").await;
    let bob_token = server.claim(&room, 1, "Bob").await;
    let mut bob = Client::connect(server.addr, &room, None).await.unwrap();
    bob.hello(Some(&bob_token), None).await;
    // Ann's page says hello, then hears nothing and answers nothing (its socket stays open).
    let mut ann = Client::connect(server.addr, &room, None).await.unwrap();
    let welcome = ann.hello(Some(&ann_token), None).await;
    let seen = welcome["seq"].as_u64().unwrap();
    // Bob reads on (answering the pings) and sees Ann come, then go: the heartbeat found her.
    let mut presence = Vec::new();
    while presence.len() < 2 {
        let frame = bob.frame().await;
        if frame["type"] == "event" && frame["event"]["type"] == "presence" {
            presence.push(frame);
        }
    }
    assert_eq!(presence[0]["event"], json!({"type": "presence", "player": "Ann", "online": true}));
    assert_eq!(presence[1]["event"], json!({"type": "presence", "player": "Ann", "online": false}));
    // Bob, who read all along, is still here: his page keeps the seat online.
    let state = server.state(&room).await;
    assert_eq!(
        (&state["seats"][0]["online"], &state["seats"][1]["online"]),
        (&json!(false), &json!(true))
    );
    // Ann's silent socket was closed by the server: what was queued for it, then its end.
    while ann.next().await.is_some() {}
    drop(ann);
    // Ann comes back with what she saw: exactly the events she missed, then she plays.
    let mut ann = Client::connect(server.addr, &room, None).await.unwrap();
    let welcome = ann.hello(Some(&ann_token), Some(seen)).await;
    let last = welcome["seq"].as_u64().unwrap();
    let mut missed = Vec::new();
    for _ in seen..last {
        missed.push(ann.frame().await);
    }
    assert!(crate::support::gap_free(&missed, seen + 1), "{missed:?}");
    ann.send(json!({"type": "roll"})).await;
    let rolled = ann.events_until("dice_rolled").await;
    assert!(crate::support::gap_free(&rolled, last + 1), "{rolled:?}");
}
