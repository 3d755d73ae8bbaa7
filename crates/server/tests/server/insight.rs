//! The endpoints behind the browser's live odds, board editor and replays, over real sockets on
//! loopback: a room's odds after every move, a board checked and analysed, recorded games (a
//! local one and an online one) listed in pages and replayed event for event.

use serde_json::{Value, json};
use snl_analysis::{exact, solve::rolls_to_finish};
use snl_engine::{Board, FirstOption, Game, Preset, Rules, Seat, SeatKind, Status};
use snl_store::{Action, Database, DiceState, Save};

use crate::support::Server;

fn win_chances(odds: &Value) -> Vec<f64> {
    odds["seats"].as_array().unwrap().iter().map(|s| s["win"].as_f64().unwrap()).collect()
}

#[tokio::test]
async fn a_rooms_odds_follow_every_move_and_sum_to_one() {
    let server = Server::start("odds").await;
    let room =
        server.room(json!({"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 3})).await;
    // Before anyone sits down: the odds of a game from the start, the exact analysis.
    let (status, odds) = server.http("GET", &format!("/api/rooms/{room}/odds"), None).await;
    assert_eq!(status, 200, "{odds}");
    let rules = Rules::default();
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let want = exact::analyze(&board, &rules).unwrap().seats(2).win_probability;
    for (got, want) in win_chances(&odds).iter().zip(&want) {
        assert!((got - want).abs() < 1e-9, "{odds} vs {want:?}");
    }
    assert_eq!(odds["exact"], true);
    assert_eq!(odds["seats"][0]["fewest_rolls"], 5);

    let ann = server.claim(&room, 0, "Ann").await;
    let bob = server.claim(&room, 1, "Bob").await;
    let mut a = server.connect(&room).await;
    let mut b = server.connect(&room).await;
    a.hello(Some(&ann), None).await;
    b.hello(Some(&bob), None).await;
    let left = rolls_to_finish(&board, &rules);
    let mut seen = 0;
    for turn in 0..12 {
        let (client, player) = if turn % 2 == 0 { (&mut a, "Ann") } else { (&mut b, "Bob") };
        client.send(json!({"type": "roll"})).await;
        // Every event of the turn is stored and sent before the next input is announced.
        let seq = loop {
            let frame = client.frame().await;
            if frame["type"] == "awaiting" {
                break frame["seq"].as_u64().unwrap();
            }
        };
        let (status, odds) = server.http("GET", &format!("/api/rooms/{room}/odds"), None).await;
        assert_eq!(status, 200, "{odds}");
        assert!(odds["seq"].as_u64().unwrap() >= seq, "{player}: {odds}");
        let chances = win_chances(&odds);
        assert!((chances.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{odds}");
        let state = server.state(&room).await;
        for seat in 0..2 {
            let position = state["seats"][seat]["position"].as_u64().unwrap();
            assert_eq!(odds["seats"][seat]["position"], position);
            let fewest = left[position as usize].map_or(Value::Null, Value::from);
            assert_eq!(odds["seats"][seat]["fewest_rolls"], fewest, "{odds}");
        }
        seen += 1;
    }
    assert_eq!(seen, 12);
}

#[tokio::test]
async fn a_finished_rooms_odds_give_the_winner_everything() {
    let server = Server::start("odds-over").await;
    let room = server
        .room(json!({"seats": [{"kind": "easy", "name": "E"}, {"kind": "hard", "name": "H"}], "seed": 8}))
        .await;
    let mut watcher = server.connect(&room).await;
    watcher.hello(None, Some(0)).await;
    let ended = watcher.events_until("game_ended").await;
    let winner = ended.last().unwrap()["event"]["ranking"][0].clone();
    let (status, odds) = server.http("GET", &format!("/api/rooms/{room}/odds"), None).await;
    assert_eq!(status, 200, "{odds}");
    let seat = odds["seats"].as_array().unwrap().iter().find(|s| s["name"] == winner).unwrap();
    assert_eq!(seat["win"], 1.0);
    assert_eq!(seat["fewest_rolls"], 0);
    let (status, missing) = server.http("GET", "/api/rooms/nope/odds", None).await;
    assert_eq!((status, missing["error"]["code"].as_str()), (404, Some("no_such_room")));
}

#[tokio::test]
async fn odds_on_a_board_with_effects_and_in_a_race_are_exact() {
    let server = Server::start("odds-race").await;
    let odds_of = |room: String| {
        let server = &server;
        async move {
            let (status, odds) = server.http("GET", &format!("/api/rooms/{room}/odds"), None).await;
            assert_eq!(status, 200, "{odds}");
            assert_eq!(odds["exact"], true, "{odds}");
            odds
        }
    };
    let humans = json!([{"kind": "human"}, {"kind": "human"}]);
    // On party the chain's positions are states (cell, shield, skip pending): from the start,
    // the exact analysis's seat chances.
    let room = server.room(json!({"board": "party", "seats": humans, "seed": 5})).await;
    let rules = Rules::default();
    let party = Board::new(&Preset::Party.spec(), &rules).unwrap();
    let want = exact::analyze(&party, &rules).unwrap().seats(2).win_probability;
    let odds = odds_of(room).await;
    for (got, want) in win_chances(&odds).iter().zip(&want) {
        assert!((got - want).abs() < 1e-9, "{odds} vs {want:?}");
    }

    // A race of one round on the classic board: from the start, the race's exact chances.
    let race = json!({"mode": "race", "rounds": 1});
    let room = server.room(json!({"seats": humans, "rules": race, "seed": 4})).await;
    let rules = Rules {
        mode: snl_engine::Mode::Race { rounds: std::num::NonZeroU32::new(1).unwrap() },
        ..Rules::default()
    };
    let classic = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let want = exact::race_on(&classic, &rules, 2).unwrap().win_probability;
    let odds = odds_of(room.clone()).await;
    for (got, want) in win_chances(&odds).iter().zip(&want) {
        assert!((got - want).abs() < 1e-12, "{odds} vs {want:?}");
    }
    // After Ann's one roll, Bob wins only by resting beyond her with his one roll (a tie is
    // hers, the earlier seat): a count of his six faces.
    let ann = server.claim(&room, 0, "Ann").await;
    server.claim(&room, 1, "Bob").await;
    let mut a = server.connect(&room).await;
    a.hello(Some(&ann), None).await;
    a.send(json!({"type": "roll"})).await;
    // A roll is one input: once its first event is out, the room has played all of it.
    a.events_until("dice_rolled").await;
    let state = server.state(&room).await;
    let at = u32::try_from(state["seats"][0]["position"].as_u64().unwrap()).unwrap();
    let beyond = (1..=6).filter(|&f| classic.advance(&rules, 0, f).end > at).count();
    let bob = beyond as f64 / 6.0;
    let odds = odds_of(room).await;
    let chances = win_chances(&odds);
    assert!((chances[1] - bob).abs() < 1e-12, "Ann on {at}: {odds}");
    assert!((chances[0] - (1.0 - bob)).abs() < 1e-12, "Ann on {at}: {odds}");
}

fn classic_json() -> Value {
    json!({
        "size": 100,
        "snake": [{"head": 99, "tail": 54}, {"head": 70, "tail": 55}, {"head": 52, "tail": 42},
                  {"head": 25, "tail": 2}, {"head": 95, "tail": 72}],
        "ladder": [{"foot": 6, "top": 25}, {"foot": 11, "top": 40}, {"foot": 60, "top": 85},
                   {"foot": 46, "top": 90}, {"foot": 17, "top": 69}]
    })
}

#[tokio::test]
async fn a_board_is_checked_with_every_problem_or_analysed_exactly() {
    let server = Server::start("board-check").await;
    let check = |body: Value| {
        let server = &server;
        async move { server.http("POST", "/api/boards/check", Some(&body.to_string())).await }
    };
    let (status, answer) = check(json!({"board": classic_json(), "seats": 4})).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["valid"], true);
    assert_eq!(answer["playable"], true);
    assert_eq!(answer["min_rolls"], 5);
    assert_eq!(answer["path"], json!([0, 5, 11, 40, 46, 90, 94, 100]));
    let rules = Rules::default();
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let analysis = exact::analyze(&board, &rules).unwrap();
    let got = answer["expected_turns"].as_f64().unwrap();
    assert!((got - analysis.expected_turns).abs() < 1e-9 * got, "{answer}");
    let want = analysis.seats(4).win_probability;
    let chances: Vec<f64> =
        answer["win_probability"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).collect();
    assert_eq!(chances.len(), 4);
    for (g, w) in chances.iter().zip(&want) {
        assert!((g - w).abs() < 1e-9, "{chances:?} vs {want:?}");
    }

    // Rules over the board's: three-sixes starts on cell 1.
    let (_, answer) = check(json!({"board": classic_json(), "rules": "three-sixes"})).await;
    assert_eq!(answer["path"][0], 1, "{answer}");

    let bad = json!({"size": 20,
                     "snake": [{"head": 5, "tail": 9}, {"head": 20, "tail": 3}, {"head": 12, "tail": 2}],
                     "ladder": [{"foot": 7, "top": 30}, {"foot": 12, "top": 15}]});
    let (status, answer) = check(json!({"board": bad})).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["valid"], false);
    let problems: Vec<&str> =
        answer["problems"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert_eq!(problems.len(), 4, "{problems:?}");
    for needle in ["snake 5→9", "7→30", "cell 12", "last cell"] {
        assert!(problems.iter().any(|p| p.contains(needle)), "{needle}: {problems:?}");
    }

    let (status, answer) = check(json!({"board": {"size": 2_000_000}})).await;
    assert_eq!((status, answer["error"]["code"].as_str()), (400, Some("bad_request")));
    assert!(answer["error"]["message"].as_str().unwrap().contains("2000000 cells"), "{answer}");
    let (status, answer) = server.http("POST", "/api/boards/check", Some("{\"board\":")).await;
    assert_eq!((status, answer["error"]["code"].as_str()), (400, Some("bad_request")));
}

/// Records a game of two easy computers on the classic board as `snl play` does, seeded.
pub(crate) fn record_local_game(db_path: &std::path::Path) -> (i64, Vec<Value>) {
    let mut db = Database::open(db_path).unwrap();
    let rules = Rules::default();
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Bob", SeatKind::Easy)];
    let mut game = Game::new(board, rules, seats).unwrap();
    let mut dice = DiceState::seeded(21);
    let id = db.new_game(&Save::new(&game, &dice, "classic"), 1).unwrap();
    let mut told = Vec::new();
    while game.status() != Status::Finished {
        let mut events = Vec::new();
        game.play_turn(&mut dice, &mut FirstOption, &mut events).unwrap();
        db.record(id, Action::Turn, &Save::new(&game, &dice, "classic"), &events, 2).unwrap();
        told.extend(events.iter().map(|e| serde_json::to_value(e.named(game.seats())).unwrap()));
    }
    (id.0, told)
}

#[tokio::test]
async fn recorded_games_local_and_online_are_listed_in_pages_and_replay_event_for_event() {
    let server = Server::start("games").await;
    let (local, local_events) = record_local_game(&server.dir.path().join("games.db"));

    // An online game of two computers, watched from its first event; its tokens start on cell 1.
    let room = server
        .room(json!({"seats": [{"kind": "greedy", "name": "G"}, {"kind": "hard", "name": "H"}], "seed": 4,
            "rules": {"set": "standard", "start": "first-cell"}}))
        .await;
    let mut watcher = server.connect(&room).await;
    watcher.hello(None, Some(0)).await;
    let online_events: Vec<Value> = watcher
        .events_until("game_ended")
        .await
        .into_iter()
        .map(|f| f["event"].clone())
        .filter(|e| e["type"] != "presence")
        .collect();
    // A finished game is recorded in the same commit as its last events, before they are sent.
    let (status, list) = server.http("GET", "/api/games", None).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["games"].as_array().unwrap().len(), 2, "{list}");
    let online = list["games"][0]["id"].as_i64().unwrap();
    assert_eq!(list["games"][1]["id"], local);
    assert_eq!(list["next"], Value::Null);

    let (_, page) = server.http("GET", "/api/games?limit=1", None).await;
    assert_eq!(page["games"].as_array().unwrap().len(), 1);
    assert_eq!(page["next"], online);
    let (_, page) = server.http("GET", &format!("/api/games?limit=1&before={online}"), None).await;
    assert_eq!(page["games"][0]["id"], local);

    let local_count = local_events.len();
    for (id, told) in [(local, local_events), (online, online_events)] {
        let (status, game) = server.http("GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(status, 200, "{game}");
        let events = game["events"].as_array().unwrap();
        assert!(crate::support::gap_free(events, 1), "game {id}");
        let replayed: Vec<Value> = events.iter().map(|e| e["event"].clone()).collect();
        assert_eq!(replayed, told, "game {id}");
        assert_eq!(game["board"]["size"], 100);
        assert_eq!(game["seats"].as_array().unwrap().len(), 2);
        assert_eq!(game["ranking"][0], told.last().unwrap()["ranking"][0]);
        // Where the tokens start, as the rules say, so a replay never works it out.
        assert_eq!(game["start"], i32::from(id == online), "game {id}");
    }

    for (path, status, code) in [
        ("/api/games/999", 404, "no_such_game"),
        ("/api/games/abc", 404, "no_such_game"),
        ("/api/games?limit=0", 400, "bad_request"),
        ("/api/games?limit=5000", 400, "bad_request"),
        ("/api/games?page=2", 400, "bad_request"),
        ("/api/games/999/at/3", 404, "no_such_game"),
        ("/api/games/abc/at/3", 404, "no_such_game"),
    ] {
        let (got, body) = server.http("GET", path, None).await;
        assert_eq!((got, body["error"]["code"].as_str()), (status, Some(code)), "{path}: {body}");
    }
    // A point that is not a number of events is one sentence naming it, cut to 40 characters.
    let long = "x".repeat(200);
    let (got, body) = server.http("GET", &format!("/api/games/{local}/at/{long}"), None).await;
    assert_eq!((got, body["error"]["code"].as_str()), (400, Some("bad_request")), "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("is not a number of events") && message.len() < 120, "{message}");
    // A point past the end is the game's end.
    let (got, end) = server.http("GET", &format!("/api/games/{local}/at/999999"), None).await;
    assert_eq!(got, 200, "{end}");
    assert_eq!(end["at"], local_count, "{end}");
}
