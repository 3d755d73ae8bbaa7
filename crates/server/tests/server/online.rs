//! `snl serve` over real sockets on loopback: rooms, seats, spectators, refusals, reconnects.

use serde_json::{Value, json};

use crate::support::{Client, Server, gap_free};

const TWO_PEOPLE: &str = r#"{"seats":[{"kind":"human"},{"kind":"human"}],"seed":11}"#;

fn request(json: &str) -> Value {
    serde_json::from_str(json).unwrap()
}

/// Plays `name`'s seat to the end: rolls (or takes the first option) whenever the server says
/// the seat is awaited; returns every event frame seen.
async fn play(mut client: Client, name: &'static str, welcome: Value) -> Vec<Value> {
    let seat = welcome["seat"].clone();
    let mut seen = Vec::new();
    let mut awaiting = welcome["state"]["awaiting"].clone();
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
        let frame = client.frame().await;
        match frame["type"].as_str() {
            Some("awaiting") => awaiting = frame["awaiting"].clone(),
            Some("event") => {
                let over = frame["event"]["type"] == "game_ended";
                seen.push(frame);
                if over {
                    client.close().await;
                    return seen;
                }
            }
            _ => panic!("{name}: {frame}"),
        }
    }
}

async fn watch_to_end(client: &mut Client) -> Vec<Value> {
    client.events_until("game_ended").await
}

#[tokio::test]
async fn two_players_and_a_spectator_see_the_same_events_gap_free() {
    let server = Server::start("same-events").await;
    let room = server.room(request(TWO_PEOPLE)).await;
    let ann = server.claim(&room, 0, "Ann").await;
    let bob = server.claim(&room, 1, "Bob").await;
    let mut spectator = server.connect(&room).await;
    let welcome = spectator.hello(None, None).await;
    assert_eq!(welcome["seat"], Value::Null);
    assert!(!welcome.to_string().contains(&ann) && !welcome.to_string().contains(&bob));
    let mut a = server.connect(&room).await;
    let welcome_a = a.hello(Some(&ann), None).await;
    assert_eq!(welcome_a["seat"], 0);
    let mut b = server.connect(&room).await;
    let welcome_b = b.hello(Some(&bob), None).await;
    // Bob's presence comes after Ann's welcome: Ann reads it before playing.
    let presence = a.frame().await;
    assert_eq!(presence["event"], json!({"type": "presence", "player": "Bob", "online": true}));
    let ann_task = tokio::spawn(play(a, "Ann", welcome_a));
    let bob_task = tokio::spawn(play(b, "Bob", welcome_b));
    let watched = watch_to_end(&mut spectator).await;
    let (ann_saw, bob_saw) = (ann_task.await.unwrap(), bob_task.await.unwrap());
    // The spectator saw both presences (seq 1, 2) and everything after.
    assert!(gap_free(&watched, 1), "{watched:?}");
    assert_eq!(&watched[2..], &ann_saw[..], "Ann saw what the spectator saw after Bob came");
    assert_eq!(&watched[2..], &bob_saw[..]);
    // The players leave: the spectator is told.
    for _ in 0..2 {
        let left = spectator.events_until("presence").await;
        assert_eq!(left[0]["event"]["online"], false);
    }
    let state = server.state(&room).await;
    assert_eq!(state["status"], "over");
    assert_eq!(state["seq"], watched.len() as u64 + 2);
    let ranking = &watched.last().unwrap()["event"]["ranking"];
    assert_eq!(state["ranking"], *ranking);
    // The lobby lists rooms with open seats or running, not rooms that are over.
    let (_, lobby) = server.http("GET", "/api/rooms", None).await;
    assert!(lobby["rooms"].as_array().unwrap().iter().all(|r| r["room"] != room.as_str()));
}

/// The room's state without who is online (which connections change).
async fn game_state(server: &Server, room: &str) -> Value {
    let mut state = server.state(room).await;
    for seat in state["seats"].as_array_mut().unwrap() {
        seat.as_object_mut().unwrap().remove("online");
    }
    state
}

#[tokio::test]
async fn every_intent_without_the_right_token_is_refused_and_changes_nothing() {
    let server = Server::start("tokens").await;
    let room = server.room(request(TWO_PEOPLE)).await;
    let other_room = server.room(request(TWO_PEOPLE)).await;
    let ann = server.claim(&room, 0, "Ann").await;
    let bob = server.claim(&room, 1, "Bob").await;
    let ann_elsewhere = server.claim(&other_room, 0, "Ann").await;
    let mut a = server.connect(&room).await;
    a.hello(Some(&ann), None).await;
    let mut b = server.connect(&room).await;
    b.hello(Some(&bob), None).await;
    let before = game_state(&server, &room).await;
    let intents = [
        json!({"type": "roll"}),
        json!({"type": "choose", "option": 0}),
        json!({"type": "autopilot", "on": true}),
        json!({"type": "chat", "text": "hi"}),
    ];
    // Wrong tokens: refused at hello, and no intent is taken before a hello succeeds.
    for token in ["", "00000000000000000000000000000000", &ann[..31], &ann_elsewhere] {
        let mut c = server.connect(&room).await;
        c.send(json!({"type": "hello", "token": token, "since": null})).await;
        assert_eq!(c.error_code().await, "bad_token", "token {token:?}");
        for intent in &intents {
            c.send(intent.clone()).await;
            assert_eq!(c.error_code().await, "bad_message");
        }
    }
    // No token: a spectator, who can do nothing.
    let mut spectator = server.connect(&room).await;
    spectator.hello(None, None).await;
    for intent in &intents {
        spectator.send(intent.clone()).await;
        assert_eq!(spectator.error_code().await, "not_a_player");
    }
    // The other seat's token: not its turn.
    b.send(json!({"type": "roll"})).await;
    assert_eq!(b.error_code().await, "not_your_turn");
    b.send(json!({"type": "choose", "option": 0})).await;
    assert_eq!(b.error_code().await, "not_your_turn");
    // Ann's own choose with no choice awaited is refused too.
    a.send(json!({"type": "choose", "option": 0})).await;
    assert_eq!(a.error_code().await, "refused");
    assert_eq!(game_state(&server, &room).await, before);
    // The right seat at the right time is taken.
    a.send(json!({"type": "roll"})).await;
    let events = b.events_until("dice_rolled").await;
    assert!(events.iter().any(|f| f["event"]["type"] == "game_started"));
    assert_ne!(game_state(&server, &room).await, before);
}

#[tokio::test]
async fn a_malformed_frame_gets_an_error_frame_and_nothing_else_happens() {
    let server = Server::start("malformed").await;
    let room = server.room(request(TWO_PEOPLE)).await;
    let ann = server.claim(&room, 0, "Ann").await;
    server.claim(&room, 1, "Bob").await;
    let mut a = server.connect(&room).await;
    a.send(json!({"type": "roll"})).await;
    assert_eq!(a.error_code().await, "bad_message", "an intent before hello");
    a.hello(Some(&ann), None).await;
    let before = game_state(&server, &room).await;
    for text in [
        "garbage",
        "{",
        "[]",
        "null",
        r#"{"type":"roll","extra":1}"#,
        r#"{"type":"fly"}"#,
        r#"{"type":"choose","option":-1}"#,
        r#"{"type":"autopilot","on":"yes"}"#,
        r#"{"type":"chat","text":""}"#,
        r#"{"type":"hello","token":null,"since":null}"#,
    ] {
        a.send_text(text).await;
        assert_eq!(a.error_code().await, "bad_message", "{text}");
    }
    a.send_text(&format!(r#"{{"type":"chat","text":"{}"}}"#, "x".repeat(5000))).await;
    assert_eq!(a.error_code().await, "too_large");
    a.send_binary(vec![0xff; 10]).await;
    assert_eq!(a.error_code().await, "bad_message");
    assert_eq!(game_state(&server, &room).await, before);
    // The connection still plays.
    a.send(json!({"type": "roll"})).await;
    let events = a.events_until("dice_rolled").await;
    assert_eq!(events.last().unwrap()["event"]["player"], "Ann");
}

#[tokio::test]
async fn a_reconnect_with_since_gets_exactly_the_missed_events() {
    let server = Server::start("since").await;
    let room = server
        .room(request(r#"{"seats":[{"kind":"human"},{"kind":"greedy","name":"Robo"}],"seed":3}"#))
        .await;
    let ann = server.claim(&room, 0, "Ann").await;
    let mut a = server.connect(&room).await;
    // Her own presence (seq 1) is in the welcome's state.
    assert_eq!(a.hello(Some(&ann), None).await["seq"], 1);
    let mut seen = Vec::new();
    for _ in 0..3 {
        a.send(json!({"type": "roll"})).await;
        // Ann's turn, then Robo's (played at once), until Ann is awaited again.
        loop {
            let frame = a.frame().await;
            if frame["type"] == "awaiting" {
                if frame["awaiting"]["seat"] == 0 {
                    break;
                }
                continue;
            }
            seen.push(frame);
        }
    }
    assert!(gap_free(&seen, 2));
    a.close().await;
    // A spectator plays no part; Ann comes back having kept only the first 4 events.
    let mut back = server.connect(&room).await;
    let welcome = back.hello(Some(&ann), Some(4)).await;
    let last = welcome["seq"].as_u64().unwrap();
    let mut replayed = Vec::new();
    for _ in 4..last {
        replayed.push(back.frame().await);
    }
    assert!(gap_free(&replayed, 5));
    // Everything she had seen after 4, then her going away (her seat kept for the grace) and
    // coming back within it.
    assert_eq!(replayed[..seen.len() - 3], seen[3..]);
    let tail: Vec<&Value> = replayed[seen.len() - 3..].iter().map(|f| &f["event"]).collect();
    assert_eq!(
        tail,
        [
            &json!({"type": "presence", "player": "Ann", "online": false}),
            &json!({"type": "grace_started", "player": "Ann", "seconds": 120}),
            &json!({"type": "presence", "player": "Ann", "online": true}),
            &json!({"type": "seat_returned", "player": "Ann"})
        ]
    );
    // A since past the end is refused.
    let mut c = server.connect(&room).await;
    c.send(json!({"type": "hello", "token": null, "since": last + 1})).await;
    assert_eq!(c.error_code().await, "bad_message");
}

#[tokio::test]
async fn a_foreign_origin_is_refused_and_the_servers_own_is_taken() {
    let server = Server::start("origin").await;
    let room = server.room(request(TWO_PEOPLE)).await;
    let refused = Client::connect(server.addr, &room, Some("http://evil.example")).await;
    let Err(tokio_tungstenite::tungstenite::Error::Http(response)) = refused else {
        panic!("a foreign origin was let in");
    };
    assert_eq!(response.status(), 403);
    let own = format!("http://{}", server.addr);
    let mut c = Client::connect(server.addr, &room, Some(&own)).await.unwrap();
    c.hello(None, None).await;
}

#[tokio::test]
async fn the_caps_on_rooms_and_connections_refuse_clearly() {
    let server = Server::start_with("caps", |c| {
        c.max_rooms = 1;
        c.max_connections = 1;
    })
    .await;
    let room = server.room(request(TWO_PEOPLE)).await;
    let (status, body) = server.http("POST", "/api/rooms", Some(TWO_PEOPLE)).await;
    assert_eq!((status, body["error"]["code"].as_str()), (429, Some("room_limit")));
    let mut first = server.connect(&room).await;
    first.hello(None, None).await;
    let Err(tokio_tungstenite::tungstenite::Error::Http(response)) =
        Client::connect(server.addr, &room, None).await
    else {
        panic!("a second connection was let in");
    };
    assert_eq!(response.status(), 429);
    first.close().await;
}

#[tokio::test]
async fn a_flood_is_rate_limited_then_cut_off_while_others_play_on() {
    let server = Server::start_with("flood", |c| {
        c.limits.rate = 1;
        c.limits.burst = 3;
        c.limits.flood = 20;
    })
    .await;
    let room = server.room(request(TWO_PEOPLE)).await;
    let ann = server.claim(&room, 0, "Ann").await;
    let mut flood = server.connect(&room).await;
    flood.hello(None, None).await;
    for _ in 0..40 {
        flood.send(json!({"type": "chat", "text": "spam"})).await;
    }
    let mut codes = Vec::new();
    while let Some(frame) = flood.next().await {
        codes.push(frame["code"].as_str().unwrap().to_owned());
    }
    assert!(codes.iter().any(|c| c == "rate_limited"), "{codes:?}");
    assert!(codes.len() < 40, "the flood was cut off: {codes:?}");
    let mut a = server.connect(&room).await;
    a.hello(Some(&ann), None).await;
}

#[tokio::test]
async fn http_errors_are_json_with_a_code_and_a_sentence() {
    let server = Server::start("http-errors").await;
    let room = server.room(request(TWO_PEOPLE)).await;
    for (method, path, body, status, code) in [
        ("POST", "/api/rooms", Some("{"), 400, "bad_request"),
        ("POST", "/api/rooms", Some(r#"{"seats":[{"kind":"wizard"}]}"#), 400, "bad_request"),
        ("GET", "/api/rooms/nope", None, 404, "no_such_room"),
        (
            "POST",
            &format!("/api/rooms/{room}/seats/7"),
            Some(r#"{"name":"Ann"}"#),
            404,
            "no_such_seat",
        ),
        ("POST", &format!("/api/rooms/{room}/seats/0"), Some(r#"{"name":""}"#), 400, "bad_request"),
        ("GET", "/api/elsewhere", None, 404, "not_found"),
    ] {
        let (got, body) = server.http(method, path, body).await;
        assert_eq!((got, body["error"]["code"].as_str()), (status, Some(code)), "{path}: {body}");
        assert!(!body["error"]["message"].as_str().unwrap().is_empty());
    }
    server.claim(&room, 0, "Ann").await;
    let taken = format!("/api/rooms/{room}/seats/0");
    let (status, body) = server.http("POST", &taken, Some(r#"{"name":"Eve"}"#)).await;
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("seat_taken")));
    let other = format!("/api/rooms/{room}/seats/1");
    let (status, body) = server.http("POST", &other, Some(r#"{"name":"Ann"}"#)).await;
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("name_taken")));
    let (_, lobby) = server.http("GET", "/api/rooms", None).await;
    let listed = &lobby["rooms"][0];
    assert_eq!(
        (listed["room"].as_str(), &listed["seats"][1]["open"]),
        (Some(&room[..]), &json!(true))
    );
}

#[tokio::test]
async fn computer_rooms_play_to_the_end_on_the_server_and_chat_is_told() {
    let server = Server::start("computers").await;
    let room = server
        .room(request(r#"{"seats":[{"kind":"human"},{"kind":"easy"},{"kind":"hard"}],"rules":{"choice":"may-pass"}}"#))
        .await;
    let ann = server.claim(&room, 0, "Ann").await;
    let mut a = server.connect(&room).await;
    a.hello(Some(&ann), None).await;
    a.send(json!({"type": "chat", "text": "good luck"})).await;
    a.send(json!({"type": "autopilot", "on": true})).await;
    let events = a.events_until("game_ended").await;
    // Her own presence (seq 1) is in the welcome's state; what follows comes as events.
    assert!(gap_free(&events, 2), "{events:#?}");
    let kinds: Vec<&str> = events.iter().map(|f| f["event"]["type"].as_str().unwrap()).collect();
    assert_eq!(kinds[..2], ["chat", "autopilot"]);
    assert!(events.iter().any(|f| f["event"]["player"] == "Computer (easy)"));
    assert!(events.iter().any(|f| f["event"]["player"] == "Computer 2 (hard)"));
    // The game's end is followed by the awaiting frame that says so, with what it earned.
    let end = a.frame().await;
    assert_eq!((&end["type"], &end["awaiting"]), (&json!("awaiting"), &Value::Null), "{end}");
    let ranking = &events.last().unwrap()["event"]["ranking"];
    let names = ["Ann", "Computer (easy)", "Computer 2 (hard)"];
    let winner = names.iter().position(|n| ranking[0] == *n).unwrap();
    let first_win =
        json!({"seat": winner, "achievement": "first_win", "text": "First win: won a game"});
    assert!(end["awards"].as_array().unwrap().contains(&first_win), "{end}");
}

#[tokio::test]
async fn a_second_quick_roll_for_an_input_that_has_passed_is_refused_and_changes_nothing() {
    let server = Server::start("stale-input").await;
    // A top face (2) earns a bonus roll; with this seed Ann's first roll is a 2.
    let room = server
        .room(request(
            r#"{"seats":[{"kind":"human"},{"kind":"human"}],
                "rules":{"dice":"1d2","bonus":"top-face"},"seed":5}"#,
        ))
        .await;
    let ann = server.claim(&room, 0, "Ann").await;
    server.claim(&room, 1, "Bob").await;
    let mut a = server.connect(&room).await;
    let welcome = a.hello(Some(&ann), None).await;
    let awaited = welcome["state"]["awaiting"].clone();
    assert_eq!((&awaited["type"], &awaited["seat"]), (&json!("roll"), &json!(0)), "{welcome}");
    let input = awaited["input"].clone();
    // Two quick rolls, both answering the input awaited at the welcome.
    let roll = json!({"type": "roll", "input": input});
    a.send(roll.clone()).await;
    a.send(roll).await;
    // The first is played; the second is refused (the two answers may come in either order).
    let (mut events, mut awaiting, mut error) = (Vec::new(), None, None);
    while awaiting.is_none() || error.is_none() {
        let frame = a.frame().await;
        match frame["type"].as_str() {
            Some("event") => events.push(frame),
            Some("awaiting") => awaiting = Some(frame),
            Some("error") => error = Some(frame),
            _ => panic!("{frame}"),
        }
    }
    let (awaiting, error) = (awaiting.unwrap(), error.unwrap());
    assert_eq!(error["code"], "refused", "{error}");
    let rolled: Vec<&Value> =
        events.iter().filter(|f| f["event"]["type"] == "dice_rolled").collect();
    assert_eq!(rolled.len(), 1, "one roll played: {events:?}");
    assert_eq!(rolled[0]["event"]["roll"], 2, "a top face: pick another seed: {events:?}");
    // Ann's bonus roll is awaited, with a new id: the last event's number.
    let bonus = &awaiting["awaiting"];
    assert_eq!((&bonus["seat"], &bonus["input"]), (&json!(0), &awaiting["seq"]), "{awaiting}");
    assert_ne!(bonus["input"], input);
    // Nothing changed after the first roll: no event, the same input awaited.
    let state = game_state(&server, &room).await;
    assert_eq!(state["seq"], events.last().unwrap()["seq"]);
    assert_eq!(&state["awaiting"], bonus);
    // A roll answering the bonus roll's id is taken.
    a.send(json!({"type": "roll", "input": bonus["input"]})).await;
    let next = a.events_until("dice_rolled").await;
    assert_eq!(next.last().unwrap()["event"]["player"], "Ann");
}
