//! The game database: every game recorded turn by turn; `resume` (also after a kill -9),
//! `games`, `replay`, `history`, `stats`, `leaderboard`; undo and redo; a database that cannot
//! be written never stops a game.

use std::{
    io::{BufReader, Read, Write},
    process::{Command, Stdio},
};

use serde_json::json;

use crate::util::*;

fn json(run: &Run) -> serde_json::Value {
    assert_eq!(run.code, 0, "{}", run.stderr);
    serde_json::from_str(run.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

/// On the classic board the first seat wins: A 0→6⇒25, 31, 37, 43, 46⇒90, 94, 99⇒54, 60⇒85, 91,
/// 97, 100 in 11 rolls; B 5, 10, 16, 17⇒69, 70⇒55, 56, 57, 58, 59, 60⇒85.
const FIRST_SEAT_WINS: &str = "6,5,6,5,6,6,6,1,3,1,4,1,5,1,6,1,6,1,6,1,3";

fn scripted_win(db: &str, first: &str, second: &str) {
    let run = snl(&[
        "play",
        "--rolls",
        FIRST_SEAT_WINS,
        "--player",
        &format!("{first}:easy"),
        "--player",
        &format!("{second}:hard"),
        "--db",
        db,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains(&format!("{first} reached 100 and wins!")), "{}", run.stdout);
}

#[test]
fn every_game_is_recorded_with_each_move() {
    let dir = TempDir::new("recorded");
    let db = dir.file("games.db");
    let played = json(&snl(&["play", "--seed", "6", "--json", "--db", &db]));
    let games = json(&snl(&["games", "--json", "--db", &db]));
    let game = &games[0];
    assert_eq!(game["id"], played["game_id"]);
    assert_eq!(game["status"], "finished");
    assert_eq!(game["board"], "classic");
    assert_eq!(game["turns"], played["turns"]);
    assert_eq!(game["winner"], played["ranking"][0]);
    assert_eq!(game["seats"][0], serde_json::json!({"name": "Red", "kind": "hard"}));
    let moves = json(&snl(&["history", "1", "--json", "--db", &db]));
    assert_eq!(moves.as_array().unwrap().len() as u64, played["rolls"].as_u64().unwrap());
    assert_eq!(moves[0]["number"], 1);
    assert_eq!(moves[0]["from"], 0);
    assert!(moves[0]["time_ms"].as_u64().unwrap() > 1_600_000_000_000);
}

#[test]
fn snl_db_chooses_the_database_and_no_record_records_nothing() {
    let dir = TempDir::new("env");
    let db = dir.file("env.db");
    let run = Command::new(env!("CARGO_BIN_EXE_snl"))
        .args(["play", "--seed", "1"])
        .env("SNL_DB", &db)
        .output()
        .unwrap();
    assert!(run.status.success());
    assert_eq!(json(&snl(&["games", "--json", "--db", &db])).as_array().unwrap().len(), 1);
    let none = dir.file("none.db");
    assert_eq!(snl(&["play", "--seed", "1", "--no-record", "--db", &none]).code, 2, "conflict");
    let run = Command::new(env!("CARGO_BIN_EXE_snl"))
        .args(["play", "--seed", "1", "--no-record"])
        .env("SNL_DB", &none)
        .output()
        .unwrap();
    assert!(run.status.success());
    assert!(!std::path::Path::new(&none).exists());
}

#[test]
fn games_lists_id_date_board_seats_winner_and_state() {
    let dir = TempDir::new("games");
    let db = dir.file("games.db");
    assert_eq!(snl(&["games", "--db", &db]).stdout, "No game has been recorded yet.\n");
    assert_eq!(snl(&["games", "--json", "--db", &db]).stdout, "[]\n");
    scripted_win(&db, "Ann", "Bob");
    let run = snl(&["play", "--board", "kids", "--seed", "2", "--stop-after", "3", "--db", &db]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let list = snl(&["games", "--db", &db]);
    let lines: Vec<&str> = list.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "ID  DATE (UTC)        BOARD    SEATS                    WINNER  STATE     TURNS"
    );
    assert!(lines[1].starts_with(" 2  20"), "{}", lines[1]);
    assert!(
        lines[1].ends_with("  kids     Red (hard), Blue (hard)  -       stopped       3"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].ends_with("  classic  Ann (easy), Bob (hard)   Ann     finished     21"),
        "{}",
        lines[2]
    );
}

#[test]
fn history_shows_each_roll_and_jump_of_a_game_or_a_player() {
    let dir = TempDir::new("history");
    let db = dir.file("games.db");
    scripted_win(&db, "Ann", "Bob");
    let run = snl(&["history", "1", "--player", "Ann", "--db", &db]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "Game 1 on classic: Ann (easy), Bob (hard)");
    assert_eq!(lines[1], "TURN  PLAYER  ROLL  FROM   TO  JUMP          TIME (UTC)");
    assert!(lines[2].starts_with("   1  Ann        6     0   25  ladder 6→25   "), "{}", lines[2]);
    assert!(lines[8].starts_with("  13  Ann        5    94   54  snake 99→54   "), "{}", lines[8]);
    assert_eq!(lines.len(), 2 + 11, "Ann rolled 11 times");
    let moves = json(&snl(&["history", "1", "--json", "--db", &db]));
    assert_eq!(moves.as_array().unwrap().len(), 21);
    assert_eq!(moves[9]["jumps"], serde_json::json!([{"from": 70, "to": 55}]));
    assert_fails(
        &snl(&["history", "1", "--player", "Zed", "--db", &db]),
        2,
        &["game 1 has no player named 'Zed' (its players: Ann, Bob)"],
    );
    assert_fails(&snl(&["history", "7", "--db", &db]), 2, &["has no game 7"]);
}

#[test]
fn history_names_a_wormhole_jump_a_wormhole_whichever_way_it_goes() {
    let dir = TempDir::new("history-wormhole");
    let db = dir.file("games.db");
    let board = dir.file("hole.toml");
    std::fs::write(&board, "size = 20\n[[cell]]\nat = 3\neffect = \"wormhole\"\nexits = [2, 15]\n")
        .unwrap();
    // Ann: 3, out at 15 (up); Bob: 3, out at 2 (down); Ann: 5, to 20.
    let args = ["play", "--board", &board, "--rolls", "3,w2,3,w1,5", "--db", &db];
    let run = snl(&[&args[..], &["--player", "Ann:easy", "--player", "Bob:easy"]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = snl(&["history", "1", "--db", &db]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines[2].contains("  wormhole 3→15  "), "{}", run.stdout);
    assert!(lines[3].contains("  wormhole 3→2  "), "{}", run.stdout);
    assert!(!run.stdout.contains("ladder") && !run.stdout.contains("snake"), "{}", run.stdout);
}

#[test]
fn stats_of_a_player_no_game_has_says_so_and_one_only_in_unfinished_games_has_zeros() {
    let dir = TempDir::new("stats-nobody");
    let db = dir.file("games.db");
    let never = snl(&["stats", "--player", "Nobody", "--db", &db]);
    assert_fails(&never, 2, &["no recorded game has a player named 'Nobody'"]);
    assert_eq!((never.stdout.as_str(), never.stderr.lines().count()), ("", 1), "{}", never.stderr);
    scripted_win(&db, "Ann", "Bob");
    let run = snl(&["stats", "--player", "Nobody", "--db", &db]);
    assert_fails(&run, 2, &["snl: no recorded game has a player named 'Nobody'"]);
    assert!(run.stdout.is_empty(), "no table: {}", run.stdout);
    let args = ["play", "--seed", "1", "--stop-after", "3", "--player", "Dee:easy", "--db", &db];
    assert_eq!(snl(&[&args[..], &["--player", "Cy:easy"]].concat()).code, 0);
    let dee = json(&snl(&["stats", "--player", "Dee", "--json", "--db", &db]));
    assert_eq!((dee["name"].as_str(), dee["games"].as_u64()), (Some("Dee"), Some(0)));
}

#[test]
fn stats_and_the_leaderboard_count_finished_games() {
    let dir = TempDir::new("stats");
    let db = dir.file("games.db");
    scripted_win(&db, "Ann", "Bob");
    scripted_win(&db, "Ann", "Cy");
    scripted_win(&db, "Bob", "Ann");
    // An unfinished game counts for nothing.
    let run = snl(&[
        "play",
        "--seed",
        "1",
        "--player",
        "Ann:easy",
        "--player",
        "Cy:easy",
        "--stop-after",
        "9",
        "--db",
        &db,
    ]);
    assert_eq!(run.code, 0);

    let ann = json(&snl(&["stats", "--player", "Ann", "--json", "--db", &db]));
    assert_eq!((ann["games"].as_u64(), ann["wins"].as_u64()), (Some(3), Some(2)));
    assert_eq!(ann["average_rolls_to_finish"], 11.0);
    // As winner: 3 ladders and a 45-cell slide each time; as loser: 2 ladders, a 15-cell slide.
    assert_eq!((ann["ladders"].as_u64(), ann["snakes"].as_u64()), (Some(8), Some(3)));
    assert_eq!(ann["longest_slide"], 45);
    let text = snl(&["stats", "--db", &db]);
    let lines: Vec<&str> = text.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "PLAYER  GAMES  WINS  WIN RATE  AVG ROLLS TO FINISH  SNAKES  LADDERS  LONGEST SLIDE"
    );
    assert_eq!(
        lines[1],
        "Ann         3     2       67%                 11.0       3        8             45"
    );
    assert_eq!(
        lines[3],
        "Cy          1     0        0%                    -       1        2             15"
    );
    let zed = snl(&["stats", "--player", "Zed", "--json", "--db", &db]);
    assert_fails(&zed, 2, &["no recorded game has a player named 'Zed'"]);

    let board = snl(&["leaderboard", "--db", &db]);
    assert_eq!(
        board.stdout,
        "RANK  PLAYER  WINS  GAMES  WIN RATE\n   1  Ann        2      3       67%\n   2  Bob        1      2       50%\n   3  Cy         0      1        0%\n"
    );
    let v = json(&snl(&["leaderboard", "--json", "--db", &db]));
    assert_eq!(
        v[1],
        serde_json::json!({"rank": 2, "name": "Bob", "wins": 1, "games": 2, "win_rate": 0.5})
    );
}

#[test]
fn replay_tells_a_recorded_or_saved_game_event_for_event() {
    let dir = TempDir::new("replay");
    let db = dir.file("games.db");
    let file = dir.file("game.json");
    let args = [
        "--rules",
        "three-sixes",
        "--player",
        "A:easy",
        "--player",
        "B:greedy",
        "--player",
        "C:hard",
    ];
    let played = snl(&[
        &["play", "--seed", "13", "--events", "jsonl", "--db", &db, "--save", &file][..],
        &args,
    ]
    .concat());
    assert_eq!(played.code, 0, "{}", played.stderr);
    let from_db = snl(&["replay", "1", "--events", "jsonl", "--db", &db]);
    eqnice!(played.stdout, from_db.stdout);
    let from_file = snl(&["replay", &file, "--events", "jsonl"]);
    eqnice!(played.stdout, from_file.stdout);

    let shown = snl(&[&["play", "--seed", "13", "--no-record"][..], &args].concat());
    let replayed = snl(&["replay", "1", "--speed", "4", "--db", &db]);
    eqnice!(
        shown.stdout.replace("This game was seed 13: play it again with --seed 13.\n", ""),
        replayed.stdout
    );
    let whole = json(&snl(&["replay", "1", "--json", "--db", &db]));
    assert_eq!(whole["seed"], 13);
    assert_eq!(whole["finished"], true);
}

/// The chat said in an online room is read from the room's events, the recorded game linked
/// to its room (as the server's store does); `snl replay` says each line after the events told
/// before it.
#[test]
fn replay_says_the_chat_of_a_room_game_where_it_was_said() {
    let dir = TempDir::new("replay-chat");
    let db = dir.file("games.db");
    let played =
        snl(&["play", "--seed", "8", "--player", "Ann:easy", "--player", "Bob:easy", "--db", &db]);
    assert_eq!(played.code, 0, "{}", played.stderr);
    let events = snl(&["replay", "1", "--events", "jsonl", "--db", &db]);
    let kinds = event_types(&events.stdout);
    // After three whole turns: the event before the fourth turn starts.
    let third = kinds.iter().enumerate().filter(|(_, k)| *k == "turn_started").nth(3).unwrap().0;
    let said = |player: &str, text: &str| json!({"type": "chat", "player": player, "text": text});
    let chat = [(0, said("Ann", "good luck")), (third, said("Bob", "nice ladder"))];
    // The room's events as the server stores them: the game's, with the chat among them.
    let mut told = Vec::new();
    for (at, line) in events.stdout.lines().enumerate() {
        told.extend(chat.iter().filter(|(before, _)| *before == at).map(|(_, e)| e.clone()));
        let mut event: serde_json::Value = serde_json::from_str(line).unwrap();
        event.as_object_mut().unwrap().remove("seq");
        told.push(event);
    }
    told.push(said("Ann", "gg"));
    let mut writes =
        vec![snl_store::RoomWrite::Create { room: "r".into(), setup: "{}".into(), now_ms: 0 }];
    for (seq, event) in (1..).zip(told) {
        let event = json!({"type": "event", "seq": seq, "event": event}).to_string();
        writes.push(snl_store::RoomWrite::Event { room: "r".into(), seq, event });
    }
    let mut store = snl_store::RoomStore::open(std::path::Path::new(&db)).unwrap();
    store.write(&writes).unwrap();
    store.link_game(snl_store::GameId(1), "r").unwrap();
    drop(store);

    let replayed = snl(&["replay", "1", "--plain", "--speed", "0", "--db", &db]);
    assert_eq!(replayed.code, 0, "{}", replayed.stderr);
    let out = &replayed.stdout;
    let place = |text: &str| out.find(text).unwrap_or_else(|| panic!("{text} missing:\n{out}"));
    let rolled_before = |at: usize| out[..at].matches(" rolled ").count();
    assert_eq!(rolled_before(place("Ann: good luck")), 0, "{out}");
    assert_eq!(rolled_before(place("Bob: nice ladder")), 3, "{out}");
    assert_eq!(rolled_before(place("Ann: gg")), out.matches(" rolled ").count(), "{out}");
    assert!(place("Ann: gg") > place(" wins!"), "{out}");
}

#[test]
fn replay_of_an_unfinished_game_says_how_to_go_on_and_refuses_bad_input() {
    let dir = TempDir::new("replay-cut");
    let db = dir.file("games.db");
    assert_eq!(snl(&["play", "--seed", "2", "--stop-after", "5", "--db", &db]).code, 0);
    let run = snl(&["replay", "1", "--db", &db]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.ends_with("The game stands after turn 5; go on with snl resume 1.\n"),
        "{}",
        run.stdout
    );
    assert_fails(&snl(&["replay", "9", "--db", &db]), 2, &["has no game 9"]);
    assert_fails(
        &snl(&["replay", "nothing.json"]),
        2,
        &["'nothing.json' is neither a game number"],
    );
    assert_eq!(snl(&["replay", "1", "--speed", "-1"]).code, 2);
}

#[test]
fn resume_goes_on_with_the_last_unfinished_game_as_if_never_stopped() {
    let dir = TempDir::new("resume");
    let db = dir.file("games.db");
    let game = ["--seed", "21", "--rules", "bonus-six", "--player", "A:easy", "--player", "B:easy"];
    let whole = snl(&[&["play", "--events", "jsonl", "--no-record"][..], &game].concat());
    let first = snl(
        &[&["play", "--events", "jsonl", "--stop-after", "8", "--db", &db][..], &game].concat()
    );
    assert_eq!(snl(&["play", "--seed", "1", "--db", &db]).code, 0, "a finished game in between");
    let second = snl(&["resume", "--events", "jsonl", "--db", &db]);
    assert_eq!(second.code, 0, "{}", second.stderr);
    eqnice!(whole.stdout, format!("{}{}", first.stdout, second.stdout));
    let games = json(&snl(&["games", "--json", "--db", &db]));
    assert_eq!(games[1]["status"], "finished");

    let v = json(&snl(&["replay", "1", "--json", "--db", &db]));
    assert_eq!(v["turns"], games[1]["turns"], "--json describes the whole game");
    assert_fails(&snl(&["resume", "1", "--db", &db]), 2, &["game 1 is over", "snl replay 1"]);
    assert_fails(&snl(&["resume", "--db", &db]), 2, &["there is no unfinished game to resume"]);
    assert_fails(&snl(&["resume", "--db", &dir.file("none.db")]), 2, &["does not exist yet"]);
}

/// The length of game 1's `save` column and whether it has a head (the progress form).
fn stored_save(db: &str) -> (i64, bool) {
    rusqlite::Connection::open(db)
        .unwrap()
        .query_row("SELECT length(save), head IS NOT NULL FROM games WHERE id = 1", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap()
}

/// Issue 29, finding 8: a resume once wrote the whole save (the history with it) into the game's
/// row and dropped its head, so every later turn rewrote the whole game.
#[test]
fn resume_keeps_the_game_in_progress_form_without_copying_its_history_into_its_row() {
    let dir = TempDir::new("resume-progress");
    let db = dir.file("games.db");
    let game = ["--board", "random", "--size", "600", "--seed", "4", "--player", "A:easy"];
    let game = [&game[..], &["--player", "B:easy"]].concat();
    let whole = snl(&[&["play", "--events", "jsonl", "--no-record"][..], &game].concat());
    let mut parts =
        snl(&[&["play", "--events", "jsonl", "--stop-after", "30", "--db", &db][..], &game]
            .concat())
        .stdout;
    let (start, progress) = stored_save(&db);
    assert!(progress, "recorded with a head");
    let again = snl(&["resume", "--events", "jsonl", "--stop-after", "30", "--db", &db]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    parts.push_str(&again.stdout);
    assert_eq!(stored_save(&db), (start, true), "the row still holds the save it began with");
    let last = snl(&["resume", "--events", "jsonl", "--db", &db]);
    assert_eq!(last.code, 0, "{}", last.stderr);
    parts.push_str(&last.stdout);
    assert_eq!(stored_save(&db), (start, true), "and does after the game ends");
    eqnice!(whole.stdout, parts);
    let games = json(&snl(&["games", "--json", "--db", &db]));
    assert_eq!(games[0]["status"], "finished");
    let replayed = json(&snl(&["replay", "1", "--json", "--db", &db]));
    let played = json(&snl(&[&["play", "--json", "--no-record"][..], &game].concat()));
    for key in ["ranking", "positions", "rolls", "turns"] {
        assert_eq!(replayed[key], played[key], "{key}: the game loads back exactly");
    }
}

/// Reads `from` until `text` has appeared `times` times; panics if the stream ends first.
fn wait_for(from: &mut impl Read, text: &str, times: usize) -> String {
    let mut seen = Vec::new();
    let mut byte = [0_u8];
    while String::from_utf8_lossy(&seen).matches(text).count() < times {
        let n = from.read(&mut byte).expect("stderr readable");
        assert!(n == 1, "the game ended early: {}", String::from_utf8_lossy(&seen));
        seen.push(byte[0]);
    }
    String::from_utf8_lossy(&seen).into_owned()
}

#[test]
fn a_game_killed_mid_way_is_resumed_and_is_the_uninterrupted_game() {
    let dir = TempDir::new("kill");
    let db = dir.file("games.db");
    let game = [
        "play",
        "--seed",
        "12",
        "--player",
        "Ann:human",
        "--player",
        "Cpu:easy",
        "--player",
        "Bot:greedy",
        "--events",
        "jsonl",
    ];
    let enters = "\n".repeat(400);
    let whole = snl_with_input(&[&game[..], &["--no-record"]].concat(), &enters);
    assert_eq!(whole.code, 0, "{}", whole.stderr);

    // Ann presses Enter for four turns; at her fifth prompt (turn 13) the program is killed.
    let mut child = Command::new(env!("CARGO_BIN_EXE_snl"))
        .args([&game[..], &["--db", &db]].concat())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let prompt = "Ann, press Enter to roll (q to quit, a for autopilot): ";
    for _ in 1..=4 {
        wait_for(&mut stderr, prompt, 1);
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }
    wait_for(&mut stderr, prompt, 1);
    child.kill().unwrap(); // SIGKILL: no chance to clean up
    assert!(!child.wait().unwrap().success());

    let games = json(&snl(&["games", "--json", "--db", &db]));
    assert_eq!(
        (games[0]["status"].as_str(), games[0]["turns"].as_u64()),
        (Some("playing"), Some(12))
    );
    let rest = snl_with_input(&["resume", "--events", "jsonl", "--db", &db], &enters);
    assert_eq!(rest.code, 0, "{}", rest.stderr);
    let first = rest.stdout.lines().next().unwrap_or_default();
    assert!(first.contains(r#""type":"turn_started","player":"Ann","#), "{}", rest.stdout);
    assert!(whole.stdout.ends_with(&rest.stdout) && whole.stdout.len() > rest.stdout.len());
    let again = snl(&["replay", "1", "--events", "jsonl", "--db", &db]);
    eqnice!(whole.stdout, again.stdout);
}

#[test]
fn undo_takes_back_a_persons_turn_and_redo_puts_back_the_same_rolls() {
    let dir = TempDir::new("undo");
    let db = dir.file("games.db");
    let game = [
        "play", "--seed", "4", "--player", "Me:human", "--player", "Cpu:easy", "--events", "jsonl",
    ];
    let plain = snl_with_input(&[&game[..], &["--no-record"]].concat(), &"\n".repeat(300));
    // Two turns, back two, forward two, then on to the end.
    let input = format!("\n\nu\nu\nr\nr\n{}", "\n".repeat(300));
    let undone = snl_with_input(&[&game[..], &["--db", &db]].concat(), &input);
    assert_eq!(undone.code, 0, "{}", undone.stderr);
    assert!(undone.stderr.contains("(u to undo, r to redo)\nMe, press Enter"), "{}", undone.stderr);
    let marks: Vec<String> = undone
        .stdout
        .lines()
        .filter(|l| l.contains("\"undo\"") || l.contains("\"redo\""))
        .map(without_seq)
        .collect();
    assert_eq!(
        marks,
        [
            r#"{"type":"undo","turn":3,"player":"Me"}"#,
            r#"{"type":"undo","turn":1,"player":"Me"}"#,
            r#"{"type":"redo","from_turn":1,"to_turn":2}"#,
            r#"{"type":"redo","from_turn":3,"to_turn":4}"#,
        ]
    );
    // The game as recorded is the game without the undo: same rolls, same end.
    let again = snl(&["replay", "1", "--events", "jsonl", "--db", &db]);
    eqnice!(plain.stdout, again.stdout);
    // The live stream numbers the undone and redone events too, so only the seq differs.
    let final_state = |text: &str| without_seq(text.lines().last().unwrap());
    assert_eq!(final_state(&undone.stdout), final_state(&plain.stdout));
    let conn = rusqlite::Connection::open(&db).unwrap();
    let actions: Vec<String> = conn
        .prepare("SELECT action || ' ' || turns FROM actions WHERE game_id = 1 AND action <> 'turn' ORDER BY seq")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(actions, ["start 0", "undo 2", "undo 0", "redo 2", "redo 4"]);
}

#[test]
fn undo_with_nothing_to_take_back_says_so() {
    let run = snl_with_input(
        &["play", "--seed", "4", "--player", "Me:human", "--player", "Cpu:easy"],
        "u\nr\nq\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("There is nothing to undo."), "{}", run.stderr);
    assert!(run.stderr.contains("There is nothing to redo."), "{}", run.stderr);
    assert!(!run.stdout.contains("rolled"), "{}", run.stdout);
}

#[test]
fn undo_at_a_bonus_roll_starts_the_turn_again_with_the_same_dice() {
    // Me rolls 6 (bonus), undoes at the bonus prompt, and rolls the same 6 again.
    let run = snl_with_input(
        &[
            "play",
            "--rolls",
            "6,2,3,4",
            "--rules",
            "bonus-six",
            "--player",
            "Me:human",
            "--player",
            "Cpu:easy",
            "--events",
            "jsonl",
            "--no-record",
        ],
        "\nu\n\n\n",
    );
    let rolls: Vec<&str> = run.stdout.lines().filter(|l| l.contains("dice_rolled")).collect();
    assert_eq!(rolls.len(), 4, "6, then again 6 and 2, then Cpu's 3: {}", run.stdout);
    assert!(rolls[0].contains("\"roll\":6") && rolls[1].contains("\"roll\":6"), "{}", run.stdout);
    let undo: Vec<String> =
        run.stdout.lines().filter(|l| l.contains("undo")).map(without_seq).collect();
    assert_eq!(undo, [r#"{"type":"undo","turn":1,"player":"Me"}"#], "{}", run.stdout);
}

/// A database holding one finished game.
fn database_with_a_game(dir: &TempDir) -> String {
    let db = dir.file("games.db");
    assert_eq!(snl(&["play", "--seed", "1", "--db", &db]).code, 0);
    db
}

#[test]
fn a_read_only_database_warns_and_the_game_is_played() {
    let dir = TempDir::new("readonly");
    let db = database_with_a_game(&dir);
    let mut perms = std::fs::metadata(&db).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&db, perms).unwrap();
    let run = snl(&["play", "--seed", "2", "--db", &db]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "snl: warning: the game database {db} is read-only; this game is not recorded (--no-record plays without it)\n"
        )
    );
    assert!(run.stdout.contains("Final ranking:"));
    let games = json(&snl(&["games", "--json", "--db", &db]));
    assert_eq!(games.as_array().unwrap().len(), 1, "still readable");
}

#[test]
fn a_game_waits_for_a_database_locked_by_another_program_and_is_recorded() {
    let dir = TempDir::new("locked");
    let db = database_with_a_game(&dir);
    let holder = rusqlite::Connection::open(&db).unwrap();
    holder.execute_batch("BEGIN EXCLUSIVE;").unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_snl"))
        .args(["play", "--seed", "2", "--db", &db, "--json"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The lock is let go while the game waits for it (or before it asks): either way it queues.
    holder.execute_batch("ROLLBACK;").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "", "no warning: it waited its turn");
    let games = json(&snl(&["games", "--json", "--db", &db]));
    assert_eq!(games.as_array().unwrap().len(), 2);
    assert_eq!(games[0]["status"], "finished");
}

#[test]
fn a_database_from_a_newer_snl_is_refused_by_name_and_play_goes_on_unrecorded() {
    let dir = TempDir::new("newer-db");
    let db = dir.file("games.db");
    rusqlite::Connection::open(&db).unwrap().execute_batch("PRAGMA user_version = 9;").unwrap();
    let sentence =
        "was written by a newer snl (schema 9, this snl knows up to 6): upgrade snl to use it";
    assert_fails(
        &snl(&["games", "--db", &db]),
        2,
        &[&format!("the game database {db} {sentence}")],
    );
    assert_fails(&snl(&["stats", "--db", &db]), 2, &[sentence]);
    let run = snl(&["play", "--seed", "2", "--db", &db]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains(sentence), "{}", run.stderr);
}

/// An event line without its sequence number, to compare the rest as text.
fn without_seq(line: &str) -> String {
    let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
    value.as_object_mut().unwrap().shift_remove("seq");
    value.to_string()
}

#[test]
fn names_of_any_length_and_with_control_characters_are_cut_and_escaped_in_every_table() {
    let dir = TempDir::new("names");
    let db = dir.file("games.db");
    let long = format!("{}\u{1b}[2J", "x".repeat(70_000));
    let run = snl(&[
        "play",
        "--rolls",
        FIRST_SEAT_WINS,
        "--player",
        &format!("{long}:easy"),
        "--player",
        "Bo\nb:hard",
        "--db",
        &db,
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for command in [&["games"][..], &["stats"], &["leaderboard"], &["history", "1"]] {
        let run = snl(&[command, &["--db", &db][..]].concat());
        assert_eq!(run.code, 0, "{command:?}: {}", run.stderr);
        assert!(!run.stdout.contains('\u{1b}'), "{command:?}: an escape is printed raw");
        assert!(run.stdout.contains("xxx…"), "{command:?}: {}", run.stdout);
        assert!(run.stdout.contains("Bo\\nb"), "{command:?}: {}", run.stdout);
        for line in run.stdout.lines() {
            assert!(line.chars().count() < 200, "{command:?}: a line of {}", line.len());
        }
    }
    let run = snl(&["history", "1", "--player", &long, "--db", &db]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("xxx…") && !run.stdout.contains('\u{1b}'), "{}", run.stdout);
}

#[test]
fn history_of_a_race_says_it_is_one_and_ranks_the_unfinished_by_position() {
    let dir = TempDir::new("history-race");
    let db = dir.file("games.db");
    let args = ["play", "--mode", "race", "--rounds", "2", "--rolls", "2,4,1,1", "--db", &db];
    let run = snl(&[&args[..], &["--player", "Ann:easy", "--player", "Bob:easy"]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = snl(&["history", "1", "--db", &db]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "Game 1 on classic, a race of 2 rounds: Ann (easy), Bob (easy)");
    // Ann 2 then 1: on 3; Bob 4 then 1: on 5.
    assert_eq!(lines.last(), Some(&"Race over: Bob 1st on 5, Ann 2nd on 3."), "{}", run.stdout);
    assert!(!run.stdout.contains("finished"), "{}", run.stdout);
}
