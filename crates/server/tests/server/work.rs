//! Long analysis never holds the server (issue 28, V1 and V5): the hard strategy's policy, a
//! board check and the live odds run off the runtime's workers under a deadline that covers
//! building the chain (snl-analysis's `a_chain_and_the_hard_policy_stop_once_their_budget_is_
//! spent_and_not_before` shows the chain stops); a room whose policy is late plays greedy and
//! says so; a restarted server serves while its rooms are rebuilt. The huge board is the audit's: 1,000 cells, 240 wormholes
//! of 25 exits, 1d100, may-pass. Each test runs on a one-thread runtime, so anything done on
//! its worker would stop every other request (the patience of the clients fails the test).

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{Client, Server, TestDir};

/// The audit's huge board: 240 wormholes of 25 exits each on 1,000 cells.
pub(crate) fn huge_board() -> Value {
    let cells: Vec<Value> = (0..240u64)
        .map(|i| {
            let at = 4 * i + 3;
            let mut exits: Vec<u64> = (0..25u64)
                .map(|j| (at * 7 + j * 37 + (25 * i + j + 1) * 13) % 497 * 2 + 2)
                .collect();
            exits.sort_unstable();
            exits.dedup();
            json!({"at": at, "effect": "wormhole", "exits": exits})
        })
        .collect();
    json!({"size": 1000, "cell": cells})
}

fn huge_room(seats: &Value) -> Value {
    json!({"board": huge_board(), "rules": {"dice": "1d100", "choice": "may-pass"}, "seats": seats,
        "seed": 7})
}

/// Plays a classic room of two people a few turns over its WebSocket: every roll is answered.
async fn play_a_small_room(server: &Server, turns: usize) {
    let room = server.room(json!({"seats": [{"kind": "human"}, {"kind": "human"}]})).await;
    let tokens = [server.claim(&room, 0, "Ann").await, server.claim(&room, 1, "Bob").await];
    let mut ann = server.connect(&room).await;
    let mut bob = server.connect(&room).await;
    ann.hello(Some(&tokens[0]), None).await;
    bob.hello(Some(&tokens[1]), None).await;
    for turn in 0..turns {
        let player = if turn % 2 == 0 { &mut ann } else { &mut bob };
        player.send(json!({"type": "roll"})).await;
        let told = player.events_until("dice_rolled").await;
        assert!(!told.is_empty());
    }
}

#[tokio::test]
async fn a_hard_seat_whose_policy_is_late_plays_greedy_and_says_so_while_other_rooms_play() {
    let server = Server::start_with("work-late-policy", |c| {
        c.policy_time = Duration::from_millis(300);
    })
    .await;
    let seats = json!([{"kind": "hard", "name": "Robo"}, {"kind": "hard", "name": "Bot"}]);
    let room = server.room(huge_room(&seats)).await;
    let mut watcher = server.connect(&room).await;
    watcher.hello(None, Some(0)).await;
    // Other rooms are served while the policy is computed.
    play_a_small_room(&server, 6).await;
    let told = watcher.events_until("game_ended").await;
    let said: Vec<&Value> = told.iter().filter(|f| f["event"]["type"] == "chat").collect();
    assert_eq!(said.len(), 2, "each hard seat says it plays greedy: {said:?}");
    for (frame, name) in said.iter().zip(["Robo", "Bot"]) {
        assert_eq!(frame["event"]["player"], name);
        let text = frame["event"]["text"].as_str().unwrap();
        assert!(text.contains("greedy") && text.contains("0.3 s"), "{text}");
    }
    let chat_at = told.iter().position(|f| f["event"]["type"] == "chat").unwrap();
    let first_roll = told.iter().position(|f| f["event"]["type"] == "dice_rolled").unwrap();
    assert!(first_roll > chat_at, "nothing was played before it was said");
    assert_eq!(server.state(&room).await["status"], "over");
}

#[tokio::test]
async fn a_board_check_and_odds_on_a_huge_board_stop_at_their_deadline_and_others_are_served() {
    let server = Server::start("work-check").await;
    let check = json!({"board": huge_board(), "rules": {"dice": "1d100", "choice": "may-pass"}});
    let body = check.to_string();
    let seats = json!([{"kind": "human"}, {"kind": "human"}]);
    let huge = server.room(huge_room(&seats)).await;
    // Two checks and the huge room's odds at once: they take every analysis slot.
    let odds_path = format!("/api/rooms/{huge}/odds");
    let (first, second, odds, ()) = tokio::join!(
        server.http("POST", "/api/boards/check", Some(&body)),
        server.http("POST", "/api/boards/check", Some(&body)),
        server.http("GET", &odds_path, None),
        play_a_small_room(&server, 4),
    );
    for (status, answer) in [first, second] {
        // Done, or stopped at its deadline (then marked not exact): answered either way.
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["valid"], true, "{answer}");
        assert!(answer["min_rolls"].is_u64() && answer["exact"].is_boolean(), "{answer}");
    }
    let (status, odds) = odds;
    assert_eq!(status, 200, "{odds}");
    assert_eq!(odds["seats"].as_array().map(Vec::len), Some(2), "{odds}");
    // The slots are free again: a small board's check is exact.
    let classic = json!({"board": {"size": 30, "snake": [{"head": 27, "tail": 3}]}}).to_string();
    let (status, answer) = server.http("POST", "/api/boards/check", Some(&classic)).await;
    assert_eq!((status, &answer["exact"]), (200, &json!(true)), "{answer}");
}

/// Rooms on the huge board with hard seats, stored by a server on a runtime of its own that
/// then stops (as a killed server leaves them); the database's folder is returned.
fn store_huge_rooms(name: &str, rooms: usize) -> (TestDir, Vec<(String, u64)>, String) {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let stopped = runtime.block_on(async {
        let server = Server::start_with(name, |c| c.policy_time = Duration::from_millis(200)).await;
        let mut stored = Vec::new();
        let mut online = Vec::new();
        for _ in 0..rooms {
            let seats = json!([{"kind": "human"}, {"kind": "hard"}, {"kind": "hard"}]);
            let room = server.room(huge_room(&seats)).await;
            let token = server.claim(&room, 0, "Ann").await;
            let mut ann = server.connect(&room).await;
            ann.hello(Some(&token), None).await;
            ann.send(json!({"type": "roll"})).await;
            // Her move (may-pass: she takes it), then the computers' turns (greedy, once their
            // policy is late), then her turn again.
            loop {
                let frame = ann.frame().await;
                match (frame["type"].as_str(), frame["awaiting"]["type"].as_str()) {
                    (Some("awaiting"), Some("choice")) if frame["awaiting"]["seat"] == 0 => {
                        ann.send(json!({"type": "choose", "option": 0})).await;
                    }
                    (Some("awaiting"), Some("roll")) if frame["awaiting"]["seat"] == 0 => break,
                    _ => {}
                }
            }
            stored.push((room.clone(), server.state(&room).await["seq"].as_u64().unwrap()));
            // Ann stays online: the restarted server tells she is gone.
            online.push(ann);
        }
        let small = server.room(json!({"seats": [{"kind": "human"}, {"kind": "easy"}]})).await;
        let Server { dir, .. } = server;
        (dir, stored, small, online)
    });
    // The server stops as a killed one does, before Ann's connections close: were they closed
    // first, it could store that she left (and not yet her grace) on its way down.
    let (dir, stored, small, online) = stopped;
    drop(runtime);
    drop(online);
    (dir, stored, small)
}

#[test]
fn a_restarted_server_serves_at_once_while_its_rooms_are_rebuilt() {
    let (dir, stored, small) = store_huge_rooms("work-restart", 4);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let server = Server::reopen(dir, |_| {}).await;
        // The small room answers at once, whatever the huge ones cost to rebuild.
        let state = server.state(&small).await;
        assert_eq!(state["status"], "open");
        for (room, seq) in &stored {
            let state = server.state(room).await;
            // Its events, then Ann gone and her seat kept for the grace.
            assert_eq!(
                state["seq"].as_u64(),
                Some(*seq + 2),
                "{room}: its events and Ann gone {state}"
            );
            assert!(state["seats"][0]["grace_left_ms"].as_u64().is_some(), "{state}");
            assert_eq!(state["awaiting"]["seat"], 0, "{state}");
        }
        let mut ann = Client::connect(server.addr, &stored[0].0, None).await.unwrap();
        let welcome = ann.hello(None, Some(0)).await;
        assert_eq!(welcome["seq"].as_u64(), Some(stored[0].1 + 2));
    });
}
