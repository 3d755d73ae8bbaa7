//! A series of online rooms (best of K, `games` in `POST /api/rooms`): each game is a room of
//! its own; `POST /api/rooms/{room}/next` opens the next one once a game is over, the same
//! people seated with the same tokens, every seat moved on by one so that the next one starts;
//! the wins are counted in each room's state, and the series stops when it is decided.

use serde_json::{Value, json};

use crate::support::Server;

/// Plays `room`'s game to its end with every person on autopilot; returns the room's state.
async fn play_out(server: &Server, room: &str, tokens: &[(&str, &str)]) -> Value {
    let mut watcher = server.connect(room).await;
    let welcome = watcher.hello(None, None).await;
    let mut seats = Vec::new();
    for (_, token) in tokens {
        let mut c = server.connect(room).await;
        let w = c.hello(Some(token), None).await;
        assert!(w["seat"].is_u64(), "{w}");
        c.send(json!({"type": "autopilot", "on": true})).await;
        seats.push(c);
    }
    if welcome["state"]["status"] != "over" {
        watcher.events_until("game_ended").await;
    }
    let state = server.state(room).await;
    assert_eq!(state["status"], "over", "{state}");
    state
}

fn names(state: &Value) -> Vec<String> {
    state["seats"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap().into()).collect()
}

fn wins(state: &Value) -> Vec<u64> {
    let wins = state["series"]["wins"].as_array().unwrap();
    wins.iter().map(|w| w.as_u64().unwrap()).collect()
}

#[tokio::test]
async fn a_series_of_rooms_seats_the_same_people_moved_on_by_one_and_counts_the_wins() {
    let server = Server::start("series").await;
    let seats = json!([{"kind": "human"}, {"kind": "hard", "name": "Robo"}, {"kind": "human"}]);
    let mut room = server.room(json!({"seats": seats, "games": 3, "seed": 7})).await;
    let ann = server.claim(&room, 0, "Ann").await;
    let next = format!("/api/rooms/{room}/next");
    let (status, body) = server.http("POST", &next, None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("no_next_game")), "{body}");
    let bob = server.claim(&room, 2, "Bob").await;
    let tokens = [("Ann", ann.as_str()), ("Bob", bob.as_str())];
    let mut order = vec!["Ann".to_string(), "Robo".into(), "Bob".into()];
    let mut total = [0_u64; 3]; // by person, in the first game's order
    for game in 1..=3_u64 {
        let state = play_out(&server, &room, &tokens).await;
        assert_eq!(names(&state), order, "game {game}");
        let series = &state["series"];
        assert_eq!((series["game"].as_u64(), series["best_of"].as_u64()), (Some(game), Some(3)));
        let winner = state["ranking"][0].as_str().unwrap();
        let first = ["Ann", "Robo", "Bob"].iter().position(|n| *n == winner).unwrap();
        total[first] += 1;
        // The room's wins, in its seat order, are the person's wins so far.
        let by_seat: Vec<u64> = order
            .iter()
            .map(|n| total[["Ann", "Robo", "Bob"].iter().position(|m| m == n).unwrap()])
            .collect();
        assert_eq!(wins(&state), by_seat, "{state}");
        let text = series["text"].as_str().unwrap();
        let path = format!("/api/rooms/{room}/next");
        if series["decided"] == true {
            assert!(text.contains(&format!("{winner} wins the series")), "{text}");
            let (status, body) = server.http("POST", &path, None).await;
            assert_eq!(status, 409, "{body}");
            let message = body["error"]["message"].as_str().unwrap();
            assert!(message.starts_with("the series is over: "), "{message}");
            assert!(total.iter().any(|&w| w >= 2) || game == 3, "{total:?}");
            return;
        }
        assert!(text.starts_with(&format!("After game {game} of a best of 3: ")), "{text}");
        // A spectator still connected hears where the next game is.
        let mut watcher = server.connect(&room).await;
        watcher.hello(None, None).await;
        let (status, body) = server.http("POST", &path, None).await;
        assert_eq!(status, 201, "{body}");
        let opened = body["room"].as_str().unwrap().to_owned();
        let told = loop {
            let frame = watcher.frame().await;
            if frame["type"] == "next" {
                break frame;
            }
        };
        assert_eq!(told["room"], opened.as_str());
        // Asked again: the same room.
        let (status, again) = server.http("POST", &path, None).await;
        assert_eq!((status, again["room"].as_str()), (200, Some(opened.as_str())));
        assert_eq!(server.state(&room).await["series"]["next_room"], opened.as_str());
        // The next room: the seats moved on by one, its first seat starts; the tokens hold them.
        order.rotate_left(1);
        let state = server.state(&opened).await;
        assert_eq!(names(&state), order);
        assert_ne!(state["status"], "open", "{state}");
        let text = state["series"]["text"].as_str().unwrap();
        let intro = format!("Game {} of a best of 3: {} starts. Wins so far: ", game + 1, order[0]);
        assert!(text.starts_with(&intro), "{text}");
        room = opened;
    }
    panic!("a best of 3 is decided after 3 games");
}

#[tokio::test]
async fn games_outside_the_limits_and_next_for_a_single_game_are_refused() {
    let server = Server::start("series-refused").await;
    let seats = json!([{"kind": "easy"}, {"kind": "hard"}]);
    for games in [0, 100] {
        let request = json!({"seats": seats, "games": games}).to_string();
        let (status, body) = server.http("POST", "/api/rooms", Some(&request)).await;
        assert_eq!(status, 400, "{body}");
        let message = body["error"]["message"].as_str().unwrap();
        assert_eq!(message, format!("games {games} is outside 1..=99"));
    }
    let room = server.room(json!({"seats": seats})).await;
    let state = play_out(&server, &room, &[]).await;
    assert!(state.get("series").is_none(), "{state}");
    let (status, body) = server.http("POST", &format!("/api/rooms/{room}/next"), None).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"]["message"], "this room plays one game, not a series");
}

#[tokio::test]
async fn a_next_game_the_server_cannot_hold_is_refused_as_such_and_can_be_asked_again() {
    let server = Server::start_with("series-full", |c| c.max_rooms = 1).await;
    let seats = json!([{"kind": "easy"}, {"kind": "hard"}]);
    let room = server.room(json!({"seats": seats, "games": 3, "seed": 1})).await;
    play_out(&server, &room, &[]).await;
    let path = format!("/api/rooms/{room}/next");
    let (status, body) = server.http("POST", &path, None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (429, Some("room_limit")), "{body}");
    // Nothing was half opened: the room has no next game, and asking again asks anew.
    assert!(server.state(&room).await["series"].get("next_room").is_none());
    let (status, body) = server.http("POST", &path, None).await;
    assert_eq!(status, 429, "{body}");
}
