//! `snl play --turn-time S` and `--game-time S` (SPEC §3b) in the console, on the pretend clock
//! of the hidden `--test-clock MS`: time stands still except at each wait for a person's answer,
//! when it moves on by MS — so each test says at which prompt a clock runs out, with no sleep.

use serde_json::Value;

use crate::util::*;

fn lines(jsonl: &str) -> Vec<Value> {
    jsonl.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect()
}

#[test]
fn a_person_out_of_time_has_the_turn_played_by_the_computer_and_replay_gives_the_same_game() {
    let dir = TempDir::new("turn-time");
    let save = dir.path().join("game.json");
    let save = save.to_str().unwrap();
    // Every prompt moves the clock 5 s on: Ann's 5 s are up at her first prompt, each turn.
    let db = dir.path().join("games.db");
    let db = db.to_str().unwrap();
    let args = [
        "play",
        "--player",
        "Ann:human",
        "--player",
        "Bob:easy",
        "--seed",
        "3",
        "--turn-time",
        "5",
        "--test-clock",
        "5000",
        "--events",
        "jsonl",
        "--save",
        save,
        "--db",
        db,
    ];
    let run = snl_with_input(&args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let events = lines(&run.stdout);
    let timed: Vec<usize> =
        (0..events.len()).filter(|&i| events[i]["type"] == "timed_out").collect();
    let ann_turns =
        events.iter().filter(|e| e["type"] == "turn_started" && e["player"] == "Ann").count();
    assert!(ann_turns > 3, "{}", run.stdout);
    assert_eq!(timed.len(), ann_turns, "each of Ann's turns timed out");
    for &i in &timed {
        assert_eq!(events[i]["player"], "Ann");
        // The computer then plays Ann's turn: her dice are the next rolled.
        let next_roll = events[i..].iter().find(|e| e["type"] == "dice_rolled").unwrap();
        assert_eq!(next_roll["player"], "Ann", "{}", run.stdout);
    }
    assert_eq!(events.last().unwrap()["type"], "game_ended");
    // The game's start is told first, then that Ann ran out of time at her first turn.
    assert_eq!(
        (events[0]["type"].as_str(), events[0]["seq"].as_u64()),
        (Some("game_started"), Some(1))
    );
    assert_eq!(
        (events[1]["type"].as_str(), events[1]["seq"].as_u64()),
        (Some("timed_out"), Some(2))
    );
    assert!(run.stderr.contains("to act"), "the prompt tells the time left: {}", run.stderr);
    // The save and the database replay to the same game, event for event and number for
    // number: each turn clock's expiry is in the history, `timed_out` where it was told.
    for kept in [save, "1"] {
        let replay = snl(&["replay", kept, "--events", "jsonl", "--db", db]);
        assert_eq!(replay.code, 0, "{}", replay.stderr);
        assert_eq!(lines(&replay.stdout), events, "{kept}");
        let shown = snl(&["replay", kept, "--plain", "--speed", "0", "--db", db]);
        assert_eq!(shown.code, 0, "{}", shown.stderr);
        let said = shown.stdout.matches("Ann ran out of time").count();
        assert_eq!(said, timed.len(), "{kept}: {}", shown.stdout);
    }
    let saved: Value =
        serde_json::from_str(std::fs::read_to_string(save).unwrap().lines().last().unwrap())
            .unwrap();
    assert!(saved.to_string().contains("\"timed_out\":["), "the save keeps the expiries: {saved}");
    // The database's log keeps each timed_out with the turn it began.
    let conn = rusqlite::Connection::open(db).unwrap();
    let logged: Vec<String> = conn
        .prepare("SELECT events FROM actions WHERE events IS NOT NULL ORDER BY seq")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let logged: Vec<Value> =
        logged.iter().flat_map(|l| serde_json::from_str::<Vec<Value>>(l).unwrap()).collect();
    assert_eq!(logged[0]["type"], "game_started");
    let logged_timed = logged.iter().filter(|e| e["type"] == "timed_out").count();
    assert_eq!(logged_timed, timed.len());
}

#[test]
fn a_person_who_answers_in_time_plays_and_a_late_one_is_timed_out() {
    // 3 s a prompt, 5 s a turn: an answer at the first prompt is in time; a wrong key costs a
    // second prompt, at 6 s: too late.
    let args = [
        "play",
        "--player",
        "Ann:human",
        "--player",
        "Bob:easy",
        "--seed",
        "3",
        "--turn-time",
        "5",
        "--test-clock",
        "3000",
        "--events",
        "jsonl",
        "--stop-after",
        "4",
        "--no-record",
    ];
    let run = snl_with_input(&args, "\nx\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let types: Vec<String> = lines(&run.stdout)
        .iter()
        .filter(|e| matches!(e["type"].as_str(), Some("turn_started" | "timed_out")))
        .map(|e| format!("{} {}", e["type"].as_str().unwrap(), e["player"].as_str().unwrap()))
        .collect();
    assert_eq!(
        types,
        [
            "turn_started Ann",
            "turn_started Bob",
            "timed_out Ann",
            "turn_started Ann",
            "turn_started Bob",
        ],
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("'x' is not a key here"), "{}", run.stderr);
}

/// Ann (a computer) then Bob (a person); the game clock runs out at Bob's second prompt, in the
/// middle of round 2.
pub(crate) const GAME_TIME: [&str; 12] = [
    "play",
    "--player",
    "Ann:hard",
    "--player",
    "Bob:human",
    "--seed",
    "11",
    "--game-time",
    "5",
    "--test-clock",
    "3000",
    "--no-record",
];

#[test]
fn when_the_game_clock_runs_out_the_round_is_completed_and_players_are_ranked_by_position() {
    let mut args = GAME_TIME.to_vec();
    args.extend(["--events", "jsonl"]);
    let run = snl_with_input(&args, "\n\n\n\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let events = lines(&run.stdout);
    let at = events.iter().position(|e| e["type"] == "time_up").expect("time_up told");
    assert_eq!(events[at], serde_json::json!({"seq": events[at]["seq"], "type": "time_up"}));
    // Two of Ann's turns and one of Bob's before; Bob's turn completes the round after.
    let started = |from: usize, to: usize| {
        events[from..to]
            .iter()
            .filter(|e| e["type"] == "turn_started")
            .map(|e| e["player"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(started(0, at), ["Ann", "Bob", "Ann"]);
    assert_eq!(started(at, events.len()), ["Bob"]);
    let end = events.last().unwrap();
    assert_eq!(end["type"], "game_ended", "{}", run.stdout);

    let mut args = GAME_TIME.to_vec();
    args.push("--json");
    let run = snl_with_input(&args, "\n\n\n\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let result: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(result["time_up"], true);
    assert_eq!(result["turns"], 4);
    assert_eq!(result["ranking"], end["ranking"]);
    // Ranked by position, ties in seating order.
    let positions: Vec<u64> =
        result["positions"].as_array().unwrap().iter().map(|p| p.as_u64().unwrap()).collect();
    let first = if positions[1] > positions[0] { "Bob" } else { "Ann" };
    assert_eq!(result["ranking"][0], first, "{result}");
}

#[test]
fn a_game_saved_after_time_up_goes_on_to_the_same_end() {
    let dir = TempDir::new("time-up-save");
    let save = dir.path().join("game.json");
    let save = save.to_str().unwrap();
    // Ann and Cy are computers, Bob a person: time is up at Bob's first prompt (round 1).
    let seats = ["--player", "Ann:hard", "--player", "Bob:human", "--player", "Cy:easy"];
    let clocks = ["--seed", "5", "--game-time", "3", "--test-clock", "3000", "--no-record"];
    let mut whole: Vec<&str> = vec!["play", "--json"];
    whole.extend(seats.iter().chain(&clocks));
    let played = snl_with_input(&whole, "\n\n");
    assert_eq!(played.code, 0, "{}", played.stderr);
    let played: Value = serde_json::from_str(&played.stdout).unwrap();
    assert_eq!((played["time_up"].as_bool(), played["turns"].as_u64()), (Some(true), Some(3)));

    // The same game cut after Bob's turn, time already called, then loaded.
    let mut cut: Vec<&str> = vec!["play", "--json", "--stop-after", "2", "--save", save];
    cut.extend(seats.iter().chain(&clocks));
    let first = snl_with_input(&cut, "\n\n");
    assert_eq!(first.code, 0, "{}", first.stderr);
    let first: Value = serde_json::from_str(&first.stdout).unwrap();
    assert_eq!(
        (first["time_up"].as_bool(), first["finished"].as_bool()),
        (Some(true), Some(false))
    );
    let rest = snl(&["play", "--load", save, "--json", "--no-record"]);
    assert_eq!(rest.code, 0, "{}", rest.stderr);
    let rest: Value = serde_json::from_str(&rest.stdout).unwrap();
    for key in ["ranking", "positions", "rolls", "turns", "time_up", "finished"] {
        assert_eq!(rest[key], played[key], "{key}: {rest} against {played}");
    }
    let replay = snl(&["replay", save, "--events", "jsonl"]);
    assert!(replay.stdout.contains(r#""type":"time_up""#), "{}", replay.stdout);
}

#[test]
fn bad_clock_values_are_refused_with_one_sentence_and_exit_2() {
    for (flag, value, needle) in [
        ("--turn-time", "0", "'0' must be 1 or more"),
        ("--turn-time", "abc", "'abc' is not a whole number"),
        ("--turn-time", "-5", "'-5' must be 1 or more"),
        ("--turn-time", "86401", "'86401' is too large"),
        ("--game-time", "99999999999999999999999", "is too large"),
        ("--game-time", "0", "'0' must be 1 or more"),
    ] {
        let run = snl(&["play", flag, value, "--no-record"]);
        // Refused by the option parser, as every bad number is: one error line naming the
        // value and the option, then where to read more.
        assert_eq!(run.code, 2, "{flag} {value}: {run:?}");
        let first = run.stderr.lines().next().unwrap_or_default();
        assert!(first.contains(needle) && first.contains(flag), "{}", run.stderr);
        assert!(!run.stderr.contains("unexpected argument"), "{}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    }
}

#[test]
fn play_help_explains_both_clocks_and_hides_the_test_clock() {
    let run = snl(&["play", "--help"]);
    assert_eq!(run.code, 0);
    for needle in ["--turn-time <S>", "--game-time <S>", "timed_out", "time_up"] {
        assert!(run.stdout.contains(needle), "{needle}: {}", run.stdout);
    }
    assert!(!run.stdout.contains("--test-clock"));
}
