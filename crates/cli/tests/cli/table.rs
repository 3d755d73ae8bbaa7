//! The console at the table, as a new user tries it: quitting and undoing at a choice, Ctrl-C,
//! a board drawn once when a game goes on.

use std::{
    io::{BufReader, Read, Write},
    process::{Command, Stdio},
};

use crate::util::{TempDir, snl, snl_json, snl_with_input};

/// Reads `from` until `text` has appeared, and returns what was read.
fn wait_for(from: &mut impl Read, text: &str) -> String {
    let mut seen = Vec::new();
    let mut byte = [0_u8];
    while !String::from_utf8_lossy(&seen).contains(text) {
        let n = from.read(&mut byte).expect("readable");
        assert!(n == 1, "ended before '{text}': {}", String::from_utf8_lossy(&seen));
        seen.push(byte[0]);
    }
    String::from_utf8_lossy(&seen).into_owned()
}

const CHOICE: [&str; 10] = [
    "play",
    "--rolls",
    "6,2,3,4",
    "--choice",
    "may-pass",
    "--player",
    "Ann:human",
    "--player",
    "Bob:easy",
    "--events",
];

#[test]
fn q_at_a_choice_stops_the_game_like_at_the_roll_prompt() {
    let args = [&CHOICE[..], &["jsonl", "--no-record"]].concat();
    let run = snl_with_input(&args, "\nq\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("Ann, choose 1 to 2"), "{}", run.stderr);
    // The roll was made; the choice was not: no move, and the game stopped where it stood.
    assert!(run.stdout.contains("dice_rolled") && !run.stdout.contains("moved"), "{}", run.stdout);
}

#[test]
fn u_at_a_choice_takes_the_roll_back_and_the_same_roll_comes_again() {
    let args = [&CHOICE[..], &["jsonl", "--no-record"]].concat();
    let run = snl_with_input(&args, "\nu\n\n2\n");
    let rolls: Vec<&str> = run.stdout.lines().filter(|l| l.contains("dice_rolled")).collect();
    assert!(rolls.len() >= 2, "{}", run.stdout);
    assert!(rolls[0].contains(r#""roll":6"#) && rolls[1].contains(r#""roll":6"#), "{}", run.stdout);
    assert!(run.stdout.contains(r#""type":"undo","turn":1,"player":"Ann""#), "{}", run.stdout);
    assert!(run.stdout.contains(r#""type":"stayed","player":"Ann""#), "{}", run.stdout);
}

#[test]
fn quitting_at_the_first_prompt_says_no_turn_was_played() {
    let run = snl_with_input(
        &["play", "--no-record", "--seed", "4", "--player", "A:human", "--player", "B:easy"],
        "q\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("Game stopped after 0 turns."), "{}", run.stdout);
    let run = snl_with_input(
        &[
            "play",
            "--no-record",
            "--seed",
            "4",
            "--player",
            "A:human",
            "--player",
            "B:easy",
            "--json",
        ],
        "\n\nq\n",
    );
    let result: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!((result["rolls"].as_u64(), result["turns"].as_u64()), (Some(4), Some(4)));
}

#[test]
fn ctrl_c_marks_the_game_stopped_and_says_how_to_go_on() {
    let dir = TempDir::new("ctrl-c");
    let db = dir.file("games.db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_snl"))
        .args(["play", "--seed", "4", "--player", "Ann:human", "--player", "Bob:easy", "--db", &db])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let prompt = "Ann, press Enter to roll";
    wait_for(&mut stderr, prompt);
    stdin.write_all(b"\n").unwrap();
    stdin.flush().unwrap();
    // Ann's second prompt: two turns are recorded (hers and Bob's); then Ctrl-C.
    wait_for(&mut stderr, prompt);
    let pid = child.id().to_string();
    assert!(Command::new("kill").args(["-INT", &pid]).status().unwrap().success());
    let status = child.wait().unwrap();
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    assert_eq!(status.code(), Some(130), "{rest}");
    assert!(
        rest.contains("Interrupted: the game is stopped after 2 turns. Go on with: snl resume 1"),
        "{rest}"
    );
    drop(stdin);
    let games = snl_json(&["games", "--json", "--db", &db]);
    assert_eq!(games[0]["status"], "stopped", "{games}");
    assert_eq!(games[0]["turns"], 2, "{games}");
}

#[test]
fn a_loaded_game_draws_its_board_once_before_the_first_prompt() {
    let dir = TempDir::new("load-once");
    let save = dir.file("game.json");
    let args = ["play", "--seed", "4", "--player", "Ann:human", "--player", "Bob:easy"];
    let first = snl_with_input(
        &[&args[..], &["--no-record", "--save", &save, "--stop-after", "2"]].concat(),
        "\n\n",
    );
    assert_eq!(first.code, 0, "{}", first.stderr);
    let run = snl_with_input(&["play", "--no-record", "--load", &save], "q\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let before_stop = run.stdout.split("Game stopped").next().unwrap();
    assert_eq!(before_stop.matches("Snakes  (v)").count(), 1, "{}", run.stdout);
    assert!(
        snl(&["play", "--no-record", "--load", &save, "--json", "--stop-after", "0"]).code == 0
    );
}

#[test]
fn the_database_logs_events_in_their_wire_form_with_names() {
    let dir = TempDir::new("wire-log");
    let db = dir.file("games.db");
    let run =
        snl(&["play", "--seed", "2", "--player", "Ann:easy", "--player", "Bob:easy", "--db", &db]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let conn = rusqlite::Connection::open(&db).unwrap();
    let first: String = conn
        .query_row(
            "SELECT events FROM actions WHERE action = 'turn' ORDER BY seq LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let events: Vec<snl_engine::Event<String>> = serde_json::from_str(&first).unwrap();
    let names = vec!["Ann".to_owned(), "Bob".to_owned()];
    assert_eq!(events[0], snl_engine::Event::GameStarted { players: names, board_size: 100 });
    assert!(first.contains(r#""player":"Ann""#), "{first}");
}

#[test]
fn an_answer_that_is_not_utf8_text_is_bad_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_snl"))
        .args([
            "play",
            "--no-record",
            "--seed",
            "4",
            "--player",
            "Ann:human",
            "--player",
            "Bob:easy",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"\xff\xfe\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("snl: the answer typed at the prompt is not UTF-8 text"), "{stderr}");
}

#[test]
fn a_recorded_game_loaded_from_its_save_goes_on_in_its_own_record() {
    let dir = TempDir::new("load-record");
    let (db, save) = (dir.file("games.db"), dir.file("game.json"));
    let args = ["play", "--seed", "5", "--player", "Ann:easy", "--player", "Bob:easy", "--json"];
    let first = snl(&[&args[..], &["--db", &db, "--save", &save, "--stop-after", "3"]].concat());
    assert_eq!(first.code, 0, "{}", first.stderr);
    let rest = snl(&["play", "--load", &save, "--db", &db, "--json"]);
    assert_eq!(rest.code, 0, "{}", rest.stderr);
    let games = snl_json(&["games", "--json", "--db", &db]);
    assert_eq!(games.as_array().unwrap().len(), 1, "one record, not two: {games}");
    assert_eq!(games[0]["status"], "finished", "{games}");
    let whole = snl_json(&[&args[..], &["--no-record"]].concat());
    let replayed = snl_json(&["replay", "1", "--json", "--db", &db]);
    assert_eq!(
        (replayed["ranking"].clone(), replayed["turns"].clone()),
        (whole["ranking"].clone(), whole["turns"].clone())
    );
}

#[test]
fn a_player_named_you_is_spoken_to_in_the_second_person() {
    let rolls = "6,5,6,5,6,6,6,1,3,1,4,1,5,1,6,1,6,1,6,1,3";
    let args = ["play", "--no-record", "--games", "1", "--rolls", rolls];
    let run = snl_with_input(
        &[&args[..], &["--player", "You:human", "--player", "Bo:hard"]].concat(),
        "a\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("(You are on autopilot: "), "{}", run.stderr);
    for said in [
        "A ladder at 6 took you up to 25",
        "A snake at 99 took you down to 54",
        "You win the series 1-0.",
    ] {
        assert!(run.stdout.contains(said), "{said:?} not in:\n{}", run.stdout);
    }
    for wrong in ["You is", "You wins", "took You"] {
        assert!(
            !run.stdout.contains(wrong) && !run.stderr.contains(wrong),
            "{wrong:?} in:\n{}",
            run.stdout
        );
    }
}
