use super::*;

#[test]
fn a_broken_board_file_gets_the_problems_snl_board_validate_lists() {
    let text = "size = 20\ncolour = 3\n[[ladder]]\nfoot = 2\ntop = 30\n";
    let answer = value(&check_board_file(&json!({ "text": text }).to_string()));
    assert_eq!(answer["valid"], false);
    let problems = snl_engine::check_board_file(text, &snl_engine::file_rules).unwrap_err();
    assert_eq!(problems.len(), 2);
    assert_eq!(answer["problems"], json!(problems));
}

#[test]
fn a_good_board_file_comes_back_as_the_board_the_server_takes() {
    let text = "size = 20\n[[snake]]\nhead = 9\ntail = 2\n[rules]\novershoot = \"bounce\"\n";
    let answer = value(&check_board_file(&json!({ "text": text }).to_string()));
    assert_eq!(answer["valid"], true, "{answer}");
    assert_eq!(answer["playable"], true);
    assert_eq!(answer["board"]["size"], 20);
    assert_eq!(answer["board"]["snake"], json!([{ "head": 9, "tail": 2 }]));
    assert_eq!(answer["board"]["rules"]["overshoot"], "bounce");
    assert_eq!(answer["rules"]["overshoot"], "bounce");
}

#[test]
fn requests_that_are_not_requests_get_one_sentence() {
    for (request, needle) in [
        ("{", "the request is not one"),
        (r#"{"txt": "size = 3"}"#, "unknown field"),
        (r#"{"board": {"size": 10}, "at": 11, "roll": [3]}"#, "cell 11 is not on a board of 10"),
        (r#"{"board": {"size": 10}, "at": 1, "roll": [7]}"#, "is not one of"),
        (r#"{"board": {"size": 100000}, "seats": 2}"#, "100000 cells is larger"),
        (r#"{"seats": 2}"#, "names no board"),
    ] {
        let f = if request.contains("roll") {
            options
        } else if request.contains("txt") || request == "{" {
            check_board_file
        } else {
            odds
        };
        let answer = value(&f(request));
        let sentence = answer["error"].as_str().unwrap_or_default();
        assert!(sentence.contains(needle), "{request}: {answer}");
    }
    let long = "x".repeat(MAX_REQUEST_BYTES + 1);
    assert!(value(&board_check(&long))["error"].as_str().unwrap().contains("the most read"));
}

#[test]
fn the_options_of_a_roll_are_the_engines() {
    let answer = value(&options(
        r#"{"board": {"size": 20, "snake": [{"head": 9, "tail": 2}]}, "at": 5, "roll": [4]}"#,
    ));
    assert_eq!(answer[0]["landed"], 9, "{answer}");
    assert_eq!(answer[0]["lands"], 2);
    assert_eq!(answer[0]["meets"], "snake");
}

#[test]
fn the_classic_board_odds_at_the_start_are_the_servers() {
    let board = snl_engine::Preset::Classic.spec();
    let request = json!({ "board": board, "seats": 2, "names": ["Ann", null] }).to_string();
    let answer = value(&odds(&request));
    let rules = Rules::default();
    let expected = OddsTables::new(&board, &rules).unwrap().answer(&OddsAsked {
        room: "",
        seq: 0,
        names: &[Some("Ann".into()), None],
        positions: &[0, 0],
        from: &exact::Standing::at_start(2, &rules),
        winner: None,
    });
    // Both through JSON text: serde_json reads a float back to within one last bit.
    assert_eq!(answer, value(&serde_json::to_string(&expected).unwrap()));
    assert_eq!(answer["exact"], true);
    let first: f64 = answer["seats"][0]["win"].as_f64().unwrap();
    assert!(first > 0.5 && first < 0.53, "the first seat's edge: {first}");
    assert_eq!(value(&analysable(&json!({ "board": board }).to_string()))["analysable"], true);
}

#[test]
fn the_editor_check_is_the_servers() {
    let board = snl_engine::Preset::Classic.spec();
    let answer = value(&board_check(&json!({ "board": board, "seats": 2 }).to_string()));
    assert_eq!(answer["valid"], true);
    assert_eq!(answer["exact"], true);
    assert!(answer["expected_turns"].as_f64().unwrap() > 20.0);
}

#[test]
fn odds_follow_the_tokens_and_a_winner_takes_all() {
    let board = snl_engine::Preset::Classic.spec();
    let near =
        value(&odds(&json!({ "board": board, "positions": [98, 1], "first": 1 }).to_string()));
    assert!(near["seats"][0]["win"].as_f64().unwrap() > 0.5, "{near}");
    assert_eq!(near["seats"][0]["fewest_rolls"], 1);
    let won =
        value(&odds(&json!({ "board": board, "positions": [100, 1], "winner": 0 }).to_string()));
    assert_eq!(won["seats"][0]["win"], 1.0);
    assert_eq!(won["seats"][0]["fewest_rolls"], 0);
    let bad = value(&odds(&json!({ "board": board, "positions": [101, 1] }).to_string()));
    assert!(bad["error"].as_str().unwrap().contains("positions [101, 1]"), "{bad}");
}

/// A party game (wormholes draw from the dice's stream) played to its end with seed `seed`.
fn party_game(seed: u64) -> snl_engine::GameState {
    use snl_engine::{FirstOption, Game, Preset, Seat, SeatKind};
    let rules = Rules::default();
    let board = Board::new(&Preset::Party.spec(), &rules).unwrap();
    let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Bob", SeatKind::Easy)];
    let mut game = Game::new(board, rules, seats).unwrap();
    game.play_to_end(&mut SeededDice::new(seed), &mut FirstOption, &mut Vec::new()).unwrap();
    game.state()
}

#[test]
fn the_page_verifies_a_seeded_games_rolls_and_draws_and_names_the_first_changed_roll() {
    // A seed whose game takes a wormhole, so the draws are checked too.
    let (seed, state) = (1..100)
        .map(|seed| (seed, party_game(seed)))
        .find(|(_, s)| {
            let board = Board::new(&s.board, &s.rules).unwrap();
            s.history.iter().any(|m| !board.draws_of(&m.jumps).is_empty())
        })
        .unwrap();
    let request = |history: &[snl_engine::MoveRecord], seed: Option<String>| {
        json!({ "board": state.board, "rules": state.rules, "seed": seed, "history": history })
            .to_string()
    };
    let good = value(&verify(&request(&state.history, Some(seed.to_string()))));
    assert_eq!(good["verified"], true, "{good}");
    assert_eq!(good["rolls"], state.history.len());
    assert!(good["draws"].as_u64().unwrap() > 0, "{good}");
    let text = good["text"].as_str().unwrap();
    assert!(text.starts_with(&format!("all {} rolls and ", state.history.len())), "{text}");
    assert!(text.contains(&format!("seed {seed} gives")), "{text}");

    // Move 3's roll changed by one pip: named, with what the seed gives.
    let mut changed = state.history.clone();
    let face = changed[2].roll.dice()[0];
    let other = if face == 6 { 5 } else { face + 1 };
    changed[2].roll = snl_engine::Roll::from_faces(&[other]);
    let bad = value(&verify(&request(&changed, Some(seed.to_string()))));
    assert_eq!(bad["verified"], false, "{bad}");
    let why = bad["why"].as_str().unwrap();
    assert!(why.contains("for move 3 of the history"), "{why}");

    let by_hand = value(&verify(&request(&state.history, None)));
    assert_eq!(by_hand["verified"], false);
    assert!(by_hand["why"].as_str().unwrap().contains("given by hand"));
    let junk = value(&verify(&request(&state.history, Some("12x".into()))));
    assert!(junk["error"].as_str().unwrap().contains("12x"), "{junk}");
}

#[test]
fn the_page_checks_an_online_rooms_secret_against_its_commitment_and_seats_seeds() {
    use snl_analysis::commitment::{commitment as commit, hex, room_seed};
    let secret = [3_u8; 32];
    let seats = vec![Some("ann".to_owned()), Some(String::new())];
    let plain: Vec<String> = seats.iter().map(|s| s.clone().unwrap()).collect();
    let seed = room_seed(&secret, &plain);
    let state = party_game(seed);
    let request = |secret: Option<String>, published: String| {
        json!({
            "board": state.board, "rules": state.rules, "seed": seed.to_string(),
            "history": state.history,
            "room": { "commitment": published, "seat_seeds": seats, "secret": secret, "seed": 1 },
        })
        .to_string()
    };
    let good = value(&verify(&request(Some(hex(&secret)), commit(&secret))));
    assert_eq!(good["verified"], true, "{good}");
    assert!(good["text"].as_str().unwrap().contains(&commit(&secret)));
    let hidden = value(&verify(&request(None, commit(&secret))));
    assert!(hidden["why"].as_str().unwrap().contains("not revealed yet"), "{hidden}");
    let other = value(&verify(&request(Some(hex(&secret)), commit(b"another secret"))));
    assert!(other["why"].as_str().unwrap().contains("not the commitment"), "{other}");
}

#[test]
fn the_board_a_setup_makes_is_the_servers_for_every_preset_and_a_random_one() {
    for preset in snl_engine::Preset::ALL {
        let asked =
            json!({ "setup": { "board": preset.as_str(), "seats": [] }, "seed": 7 }).to_string();
        let answer = value(&board_of(&asked));
        let setup: snl_wire::CreateRoom =
            serde_json::from_value(json!({ "board": preset.as_str(), "seats": [] })).unwrap();
        let (name, spec, rules) = setup.board_and_rules(7, CHECK_LIMITS.max_cells).unwrap();
        assert_eq!(answer["name"], name, "{answer}");
        let board = Board::new(&spec, &rules).unwrap();
        assert_eq!(answer["board"], serde_json::to_value(board.to_spec()).unwrap());
        assert_eq!(answer["summary"], snl_words::board_summary(&board));
    }
    // A random board of the size asked, from the seed; a start on the first cell is said.
    let asked =
        json!({ "setup": { "board": "random", "random": { "size": 64 }, "seats": [] }, "seed": 3 });
    let answer = value(&board_of(&asked.to_string()));
    assert_eq!(answer["board"]["size"], 64, "{answer}");
    let again = value(&board_of(&asked.to_string()));
    assert_eq!(answer, again);
    let asked = json!({ "setup": { "rules": { "set": "standard", "start": "first-cell" }, "seats": [] }, "seed": 1 })
        .to_string();
    assert_eq!(value(&board_of(&asked))["start"], 1);
    let refused = value(&board_of(
        &json!({ "setup": { "board": "chess", "seats": [] }, "seed": 1 }).to_string(),
    ));
    assert!(refused["error"].as_str().unwrap().contains("chess"), "{refused}");
}
