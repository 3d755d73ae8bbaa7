//! `snl play`: whole games compared as text, determinism, people at the keyboard, bad input.

use crate::util::*;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn fixture(name: &str) -> String {
    format!("{FIXTURES}/{name}")
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let a = snl(&["play", "--seed", "7"]);
    let b = snl(&["play", "--seed", "7"]);
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert_eq!(a.stdout, b.stdout);
    assert_ne!(a.stdout, snl(&["play", "--seed", "8"]).stdout);
}

#[test]
fn a_seeded_game_on_the_kids_board_reads_as_expected() {
    let run = snl(&[
        "play",
        "--board",
        "kids",
        "--seed",
        "3",
        "--player",
        "Ann:easy",
        "--player",
        "Bob:greedy",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let expected = std::fs::read_to_string(fixture("transcripts/kids-seed-3.txt")).unwrap();
    eqnice!(expected, run.stdout);
}

#[test]
fn a_scripted_game_on_a_small_board_is_told_in_plain_words() {
    let run = snl(&[
        "play",
        "--board",
        &fixture("boards/tiny.toml"),
        "--rolls",
        "2,1,6,5,4,6,3",
        "--player",
        "Ann:easy",
        "--player",
        "Bob:hard",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Ann: 0→2⇒7; Bob: 0→1; Ann: 7+6 = 13 bounces to 11⇒3; Bob: 1→6; Ann: 3→7; Bob: 6→12 wins.
    // The last scripted roll (3) is never needed.
    let story: Vec<&str> = run.stdout.lines().filter(|l| !l.starts_with(['+', '|'])).collect();
    let expected = [
        "Snakes  (v) 11→3",
        "Ladders (^) 2→7",
        "Off the board: A B",
        "",
        "New game on a board of 12 cells: Ann, Bob. Rules: start off-board, dice 1d6, overshoot bounce, jumps single, bonus none, finish first, choice none.",
        "Ann rolled a 2 and moved from the start to 2",
        "Yes! A ladder at 2 took Ann up to 7",
        "Bob rolled a 1 and moved from the start to 1",
        "Ann rolled a 6, 1 past 12: bounced back from 7 to 11",
        "Oh no! A snake at 11 took Ann down to 3",
        "Bob rolled a 5 and moved from 1 to 6",
        "Ann rolled a 4 and moved from 3 to 7",
        "Bob rolled a 6 and moved from 6 to 12",
        "Bob reached 12 and wins!",
        "Final ranking:",
        "  1. Bob (on 12)",
        "  2. Ann (on 7)",
    ];
    assert_eq!(&story[..expected.len()], &expected);
}

#[test]
fn json_output_has_the_spec_keys() {
    let run = snl(&["play", "--seed", "11", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    for key in ["ranking", "positions", "rolls", "turns"] {
        assert!(v.get(key).is_some(), "{key} missing: {v}");
    }
    let winner = v["ranking"][0].as_str().unwrap();
    let seat = v["players"].as_array().unwrap().iter().position(|p| p == winner).unwrap();
    assert_eq!(v["positions"][seat], 100);
}

#[test]
fn events_jsonl_is_one_object_per_line_with_names() {
    let run = snl(&[
        "play", "--seed", "5", "--events", "jsonl", "--player", "Ann:easy", "--player", "Bob:easy",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let events: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object per line"))
        .collect();
    assert_eq!(
        events[0],
        serde_json::json!({"seq": 1, "type": "game_started", "players": ["Ann", "Bob"], "board_size": 100})
    );
    assert_eq!(
        events[1],
        serde_json::json!({"seq": 2, "type": "turn_started", "player": "Ann", "position": 0})
    );
    assert_eq!(events.last().unwrap()["type"], "game_ended");
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e["seq"], i + 1, "every event is numbered in order");
    }
    let types: std::collections::BTreeSet<&str> =
        events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    for t in ["dice_rolled", "moved", "player_finished"] {
        assert!(types.contains(t), "{t} missing");
    }
}

#[test]
fn with_no_terminal_two_computers_play_to_the_end() {
    let run = snl(&[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("Red") && run.stdout.contains("Blue"));
    assert!(run.stdout.contains("Final ranking:"));
    assert!(run.stdout.contains("play it again with --seed"));
}

#[test]
fn a_human_presses_enter_to_roll_and_can_quit() {
    let args = ["play", "--seed", "1", "--player", "Me:human", "--player", "Cpu:easy"];
    let run = snl_with_input(&args, "\n\nq\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stderr.matches("Me, press Enter to roll (q to quit, a for autopilot): ").count(),
        3
    );
    // Two rolls of Me's and two of Cpu's: four turns (the prompt at which Me quit began none).
    assert!(run.stdout.contains("Game stopped after 4 turns."), "{}", run.stdout);
    // The board is shown before each of Me's rolls after the first.
    assert!(run.stdout.matches("Snakes  (v)").count() >= 3);
}

#[test]
fn input_ending_while_a_human_should_roll_exits_3() {
    let run = snl_with_input(&["play", "--player", "Me:human", "--player", "Cpu:easy"], "\n");
    assert_fails(&run, 3, &["input ended while waiting for Me to roll"]);
}

#[test]
fn the_setup_asks_each_question_with_a_default() {
    let run = snl_with_input(
        &["play", "--setup", "--seed", "2", "--fast"],
        "kids\n3\n\neasy\nZoe\n\nMax\ngreedy\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains(
        "Board (classic, milton-bradley, kids, party, empty, random, or a .toml file) [classic]: "
    ));
    assert!(run.stdout.contains("How many players [2]: "));
    assert!(run.stdout.contains("Player 1 name [You]: "));
    assert!(
        run.stdout.contains("New game on a board of 50 cells: You, Zoe, Max."),
        "{}",
        run.stdout
    );
}

#[test]
fn the_setup_offers_the_party_board() {
    let run = snl_with_input(
        &["play", "--setup", "--seed", "2", "--events", "jsonl"],
        "party\n2\nAnn\neasy\nBob\neasy\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("party"), "{}", run.stdout);
    // The party board has every effect: a game played out on it shows at least one.
    let effects = ["turn_skipped", "extra_roll", "shield_gained", "wormhole"];
    assert!(effects.iter().any(|e| run.stdout.contains(e)), "{}", run.stdout);
}

#[test]
fn the_setup_takes_a_board_file_at_the_board_question() {
    let tiny = fixture("boards/tiny.toml");
    let answers = format!("{tiny}\n2\nAnn\neasy\nBob\nhard\n");
    let args = ["play", "--setup", "--rolls", "2,1,6,5,4,6,3"];
    let run = snl_with_input(&args, &answers);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("Board (classic, milton-bradley"), "{}", run.stdout);
    // The file's board is played: 12 cells, its ladder 2→7 and its snake 11→3.
    assert!(run.stdout.contains("New game on a board of 12 cells: Ann, Bob."), "{}", run.stdout);
    assert!(run.stdout.contains("Yes! A ladder at 2 took Ann up to 7"), "{}", run.stdout);
    assert!(run.stdout.contains("Bob rolled a 6 and moved from 6 to 12"), "{}", run.stdout);
    // A file that is not there is named, as `--board` names it.
    let gone = snl_with_input(&args[..2], "no-such-board.toml\n\n\n\n\n\n");
    assert_fails(&gone, 2, &["no-such-board.toml"]);
}

#[test]
fn the_setup_explains_a_bad_answer_and_asks_again() {
    let run =
        snl_with_input(&["play", "--setup", "--seed", "2"], "monopoly\n\none\n\n\neasy\n\n\n");
    assert!(run.stdout.contains("'monopoly' is not a board name"), "{}", run.stdout);
    assert!(run.stdout.contains("'one' is not a number of players"), "{}", run.stdout);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn bad_dice_are_named_with_exit_2() {
    assert_fails(&snl(&["play", "--dice", "0d6"]), 2, &["'0d6'", "1 to 4"]);
    assert_fails(&snl(&["play", "--dice", "1d1"]), 2, &["'1d1'", "2 to 100"]);
    assert_fails(&snl(&["play", "--dice", "5d6"]), 2, &["'5d6'"]);
    assert_fails(&snl(&["play", "--dice", "six"]), 2, &["'six'", "NdF"]);
}

#[test]
fn bad_seats_are_named_with_exit_2() {
    assert_fails(
        &snl(&["play", "--player", "Ann:wizard", "--player", "Bob:easy"]),
        2,
        &["unknown player kind 'wizard'"],
    );
    assert_fails(&snl(&["play", "--player", "Ann:easy"]), 2, &["at least 2 players, got 1"]);
    assert_fails(
        &snl(&["play", "--player", "Ann", "--player", "Bob:easy"]),
        2,
        &["'Ann'", "NAME:KIND"],
    );
    assert_fails(
        &snl(&["play", "--player", "Ann:easy", "--player", "Ann:hard"]),
        2,
        &["two players are named 'Ann'"],
    );
}

#[test]
fn bad_scripted_rolls_are_named_with_exit_2() {
    assert_fails(&snl(&["play", "--rolls", "3,x,1"]), 2, &["roll 'x'", "not a number"]);
    assert_fails(
        &snl(&["play", "--rolls", "3,7"]),
        2,
        &["roll '7'", "impossible", "1d6 shows totals from 1 to 6"],
    );
    assert_fails(&snl(&["play", "--dice", "2d6", "--rolls", "1"]), 2, &["roll '1'"]);
}

#[test]
fn scripted_rolls_running_out_mid_game_exit_3() {
    let run = snl(&["play", "--rolls", "3,4,5"]);
    assert_fails(&run, 3, &["scripted rolls ran out after 3 rolls"]);
    assert!(run.stdout.contains("Red rolled a 5"), "the game so far is shown: {}", run.stdout);
}

#[test]
fn an_unplayable_board_exits_3_and_says_why() {
    let run = snl(&["play", "--board", &fixture("bad/unreachable.toml")]);
    assert_fails(&run, 3, &["cannot be played", "cell 20 cannot be reached"]);
}

#[test]
fn unknown_options_and_values_are_usage_errors() {
    assert_eq!(snl(&["play", "--colour"]).code, 2);
    assert_eq!(snl(&["play", "--events", "xml"]).code, 2);
    assert_eq!(snl(&["play", "--seed", "-1"]).code, 2);
    let help = snl(&["play", "--help"]);
    assert_eq!(help.code, 0);
    assert!(help.stdout.contains("--rolls") && help.stdout.contains("--overshoot"));
}

#[test]
fn rules_that_can_trap_a_token_are_refused_instead_of_playing_forever() {
    let run = snl(&[
        "play",
        "--board",
        "random",
        "--size",
        "20",
        "--snakes",
        "0",
        "--ladders",
        "0",
        "--dice",
        "3d2",
    ]);
    assert_fails(&run, 3, &["trapped on 18", "--overshoot bounce or win"]);
    // Max-bonus 1 with void undoes every top face, so 1d2 only ever moves one cell.
    let run = snl(&[
        "play",
        "--board",
        &fixture("boards/tiny.toml"),
        "--dice",
        "1d2",
        "--bonus",
        "top-face",
        "--max-bonus",
        "1",
        "--on-max",
        "void",
    ]);
    assert_fails(&run, 3, &["cell 12 cannot be reached"]);
}

#[test]
fn hint_tells_each_players_fewest_rolls_after_every_turn() {
    let run = snl(&[
        "play",
        "--board",
        &fixture("boards/tiny.toml"),
        "--rolls",
        "2,1,6,5,4,6",
        "--player",
        "Ann:easy",
        "--player",
        "Bob:hard",
        "--hint",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let hints: Vec<&str> = run.stdout.lines().filter(|l| l.starts_with("  (at best")).collect();
    // After Ann's 0→2⇒7 she needs 1 roll (7+5); Bob, off the board, needs 2 (0→2⇒7→12).
    assert_eq!(hints[0], "  (at best: Ann 1 roll, Bob 2 rolls)");
    assert_eq!(hints.len(), 5, "a hint after every turn but the last: {hints:?}");
}

/// Runs `snl` with `args`, its standard error a full disk (`/dev/full`, opened for writing,
/// which writing to never changes): every write to it fails.
fn snl_with_full_stderr(args: &[&str]) -> Run {
    let full = std::fs::File::options().write(true).open("/dev/full").expect("/dev/full opens");
    let scratch = TempDir::new("full");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_snl"))
        .args(args)
        .env("SNL_DB", scratch.path().join("games.db"))
        .stdin(std::process::Stdio::null())
        .stderr(full)
        .output()
        .expect("snl runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).expect("utf-8 stdout"),
        stderr: String::new(),
    }
}

#[test]
fn a_standard_error_that_cannot_be_written_neither_panics_nor_stops_a_saved_game() {
    let dir = TempDir::new("stderr-full");
    // The error of a refused command is lost, and its exit code is still the command's.
    let missing = dir.file("missing.toml");
    assert_eq!(snl_with_full_stderr(&["board", "validate", &missing]).code, 2);
    // A game that warns (its database is a folder) plays to its end and is saved.
    let save = dir.file("game.json");
    let folder = dir.file("folder.db");
    std::fs::create_dir(&folder).unwrap();
    let run =
        snl_with_full_stderr(&["play", "--seed", "5", "--save", &save, "--db", &folder, "--json"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(v["finished"], true, "{v}");
    let journal = std::fs::read_to_string(&save).unwrap();
    let last: serde_json::Value = serde_json::from_str(journal.lines().last().unwrap()).unwrap();
    assert_eq!(last["head"]["turns"], v["turns"], "{journal}");
}
