//! Computer players that think: `analyze --policy`, decisions asked of people in `snl play`,
//! and autopilot.

use crate::util::*;

fn events(stdout: &str) -> Vec<serde_json::Value> {
    stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

#[test]
fn analyze_with_a_policy_gives_that_strategys_numbers_and_names_it() {
    let greedy = snl_json(&["analyze", "--choice", "may-pass", "--policy", "greedy", "--json"]);
    let hard = snl_json(&["analyze", "--choice", "may-pass", "--policy", "hard", "--json"]);
    assert_eq!(greedy["policy"], "greedy");
    assert_eq!(hard["policy"], "hard");
    let (g, h) =
        (greedy["expected_turns"].as_f64().unwrap(), hard["expected_turns"].as_f64().unwrap());
    assert!(h < g, "hard {h} should need fewer turns than greedy {g}");
    assert!(greedy.get("policies").is_none(), "one policy asked, no table");
    // Easy picks a die at random: exactly one 1d6 throw per turn, the plain game.
    let easy = snl_json(&["analyze", "--choice", "pick-die", "--policy", "easy", "--json"]);
    let plain = snl_json(&["analyze", "--json"]);
    let gap = easy["expected_turns"].as_f64().unwrap() - plain["expected_turns"].as_f64().unwrap();
    assert!(gap.abs() < 1e-9, "{gap}");
    assert!(plain.get("policy").is_none());
}

#[test]
fn analyze_under_a_choice_rule_compares_the_three_strategies() {
    let v = snl_json(&["analyze", "--board", "milton-bradley", "--choice", "pick-die", "--json"]);
    assert_eq!(v["policy"], "hard");
    let turns = |s: &str| v["policies"][s]["expected_turns"].as_f64().unwrap();
    assert!(
        turns("hard") <= turns("greedy") && turns("greedy") <= turns("easy"),
        "{}",
        v["policies"]
    );
    assert!((turns("hard") - v["expected_turns"].as_f64().unwrap()).abs() < 1e-12);
    // Easy on Milton Bradley is the plain game: Althoen, King & Schilling (1993), 39.2251…
    assert!((turns("easy") - 39.225_122_308_2).abs() < 1e-9);

    let run = snl(&["analyze", "--choice", "may-pass"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("Strategies (one player)"), "{}", run.stdout);
    for name in ["easy", "greedy", "hard"] {
        assert!(
            run.stdout.lines().any(|l| l.trim_start().starts_with(name)),
            "{name}: {}",
            run.stdout
        );
    }
    assert!(run.stdout.contains("Below, one player plays hard."), "{}", run.stdout);
}

#[test]
fn analyze_seats_play_their_kinds_strategy() {
    let v = snl_json(&[
        "analyze", "--choice", "may-pass", "--player", "E:easy", "--player", "H:hard", "--json",
    ]);
    let win: Vec<f64> =
        v["win_probability"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).collect();
    // Easy moves first but stays put half the time: hard wins most games.
    assert!(win[1] > 0.8, "{win:?}");
    let run = snl(&["analyze", "--policy", "clever"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("unknown strategy 'clever'"), "{}", run.stderr);
}

#[test]
fn a_person_is_shown_the_options_and_where_each_lands() {
    let args = [
        "play",
        "--no-record",
        "--rolls",
        "6,3,2,5",
        "--choice",
        "may-pass",
        "--player",
        "Ann:human",
        "--player",
        "Bob:greedy",
        "--events",
        "jsonl",
    ];
    // Enter to roll, 2 to stay; Enter to roll, Enter for option 1; then the rolls run out.
    let run = snl_with_input(&args, "\n2\n\n\n");
    assert_fails(&run, 3, &["input ended while waiting for Ann to roll"]);
    assert!(
        run.stderr.contains("Ann rolled 6: 1) move 6 to 6 (ladder to 25)  2) stay on the start\n"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("Ann, choose 1 to 2 (Enter for 1, a for autopilot, u to undo, q to quit): "),
        "{}",
        run.stderr
    );
    let events = events(&run.stdout);
    let ann: Vec<&str> = events
        .iter()
        .filter(|e| {
            e["player"] == "Ann" && e["type"] != "turn_started" && e["type"] != "dice_rolled"
        })
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(ann, ["stayed", "moved"]);
}

#[test]
fn an_answer_that_is_not_an_option_is_asked_again() {
    let args = [
        "play",
        "--no-record",
        "--rolls",
        "1+4",
        "--choice",
        "pick-die",
        "--player",
        "Ann:human",
        "--player",
        "Bob:easy",
        "--json",
    ];
    let run = snl_with_input(&args, "\n7\nx\n2\n");
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(run.stderr.contains("snl: the scripted rolls ran out after 1 rolls"), "{}", run.stderr);
    assert!(run.stderr.contains("'7' is not one of the options."), "{}", run.stderr);
    assert!(run.stderr.contains("'x' is not one of the options."), "{}", run.stderr);
    assert!(
        run.stderr.contains("Ann rolled 1+4: 1) move 1 to 1  2) move 4 to 4\n"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_person_hands_the_seat_to_the_computer_and_takes_it_back() {
    let args = [
        "play",
        "--no-record",
        "--seed",
        "3",
        "--choice",
        "may-pass",
        "--player",
        "Ann:human",
        "--player",
        "Bob:easy",
        "--events",
        "jsonl",
    ];
    // Turn 1: Enter, then option 1. Turn 3: a (autopilot). Turn 5: a takes it back, then Ann
    // presses Enter for the rest of the game.
    let input = format!("\n1\na\na\n{}", "\n".repeat(400));
    let run = snl_with_input(&args, &input);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("(q to quit, a for autopilot)"));
    assert!(run.stderr.contains("(Ann is on autopilot: a line 'a' at its turn takes it back)"));
    let events = events(&run.stdout);
    let pilot: Vec<(usize, &serde_json::Value)> =
        events.iter().enumerate().filter(|(_, e)| e["type"] == "autopilot").collect();
    assert_eq!(pilot.len(), 2, "{}", run.stdout);
    let mut first = pilot[0].1.clone();
    first.as_object_mut().unwrap().shift_remove("seq");
    assert_eq!(first, serde_json::json!({"type": "autopilot", "player": "Ann", "on": true}));
    assert_eq!(pilot[1].1["on"], false);
    // Each comes at Ann's prompt, right before her turn begins: her 2nd and 3rd turns.
    for &(i, _) in &pilot {
        assert_eq!(events[i + 1]["type"], "turn_started");
        assert_eq!(events[i + 1]["player"], "Ann");
        assert_eq!(events[i + 2]["type"], "dice_rolled");
    }
    let turn = |i: usize| events[..i].iter().filter(|e| e["type"] == "turn_started").count();
    assert_eq!((turn(pilot[0].0), turn(pilot[1].0)), (2, 4));
    // The same seed and answers give the same game.
    assert_eq!(snl_with_input(&args, &input).stdout, run.stdout);
}

#[test]
fn the_narration_tells_when_a_seat_is_handed_over() {
    let args = [
        "play",
        "--no-record",
        "--seed",
        "3",
        "--choice",
        "may-pass",
        "--player",
        "Ann:human",
        "--player",
        "Bob:easy",
        "--fast",
    ];
    let run = snl_with_input(&args, "a\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("Ann hands the seat to the computer (autopilot on)"),
        "{}",
        run.stdout
    );
    // Once handed over, the computer plays Ann's seat to the end: no more prompts.
    assert_eq!(run.stderr.matches("press Enter to roll").count(), 1, "{}", run.stderr);
    assert!(run.stdout.contains("Final ranking:"));
}

#[test]
fn computers_decide_the_same_way_after_a_save_and_a_load() {
    let dir = TempDir::new("strategies-save");
    let save = dir.file("game.json");
    let game = [
        "play",
        "--no-record",
        "--seed",
        "5",
        "--choice",
        "pick-die",
        "--player",
        "A:easy",
        "--player",
        "B:greedy",
        "--player",
        "C:hard",
        "--events",
        "jsonl",
    ];
    let whole = snl(&game);
    assert_eq!(whole.code, 0, "{}", whole.stderr);
    let first = snl(&[&game[..], &["--stop-after", "9", "--save", &save]].concat());
    assert_eq!(first.code, 0, "{}", first.stderr);
    let rest = snl(&["play", "--no-record", "--load", &save, "--events", "jsonl"]);
    assert_eq!(rest.code, 0, "{}", rest.stderr);
    eqnice!(whole.stdout, format!("{}{}", first.stdout, rest.stdout));
}

/// A 16-cell board with a snake pit near the end, as a board file.
pub(crate) fn pit_board(dir: &TempDir) -> String {
    let path = dir.file("pit.toml");
    std::fs::write(
        &path,
        "size = 16\n[[ladder]]\nfoot = 2\ntop = 7\n[[ladder]]\nfoot = 5\ntop = 11\n\
         [[snake]]\nhead = 14\ntail = 3\n[[snake]]\nhead = 13\ntail = 6\n\
         [[snake]]\nhead = 15\ntail = 9\n",
    )
    .unwrap();
    path
}

#[test]
fn analyze_policy_win_gives_each_of_three_seats_its_chance_when_all_play_to_win() {
    let dir = TempDir::new("win-three");
    let board = pit_board(&dir);
    let seats = ["--player", "A:hard", "--player", "B:hard", "--player", "C:greedy"];
    let mut args = vec!["analyze", "--board", &board, "--choice", "may-pass", "--json"];
    args.extend(seats);
    let kinds = snl_json(&args);
    args.extend(["--policy", "win"]);
    let v = snl_json(&args);
    let win = &v["to_win"];
    assert_eq!(win["settled"], true, "{win}");
    assert_eq!(win["plays"], serde_json::json!(["win", "win", "win"]));
    let p: Vec<f64> =
        v["win_probability"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    assert_eq!(p.len(), 3);
    assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{p:?}");
    // The seats' kinds' chances are kept beside the equilibrium's.
    assert_eq!(win["win_probability_as_kinds"], kinds["win_probability"]);
    // One seat of kind win against the others' kinds: only it plays to win, and it wins at
    // least as often as hard did in its place.
    let mixed = snl_json(&[
        "analyze", "--board", &board, "--choice", "may-pass", "--json", "--player", "A:hard",
        "--player", "B:win", "--player", "C:greedy",
    ]);
    assert_eq!(mixed["to_win"]["plays"], serde_json::json!(["hard", "win", "greedy"]));
    let b = mixed["win_probability"][1].as_f64().unwrap();
    assert!(b >= kinds["win_probability"][1].as_f64().unwrap() - 1e-12);
    let text = snl(&[
        "analyze", "--board", &board, "--choice", "pick-die", "--policy", "win", "--player",
        "Ann:hard", "--player", "Bob:hard", "--player", "Cy:hard",
    ]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.contains("Playing to win"), "{}", text.stdout);
    assert!(text.stdout.contains("no seat's choice changes"), "{}", text.stdout);
}

#[test]
fn analyze_policy_win_refuses_one_seat_bonus_rolls_and_four_seats_on_a_hundred_cells() {
    let one = snl(&["analyze", "--choice", "may-pass", "--policy", "win", "--player", "A:hard"]);
    assert_fails(&one, 2, &["playing to win needs 2 to 4 seats"]);
    let four = [
        "analyze", "--choice", "may-pass", "--policy", "win", "--player", "A:hard", "--player",
        "B:hard", "--player", "C:hard", "--player", "D:hard",
    ];
    let run = snl(&four);
    assert_fails(&run, 2, &["playing to win with 4 seats on 100 cells needs"]);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    let bonus = snl(&[
        "analyze",
        "--rules",
        "bonus-six",
        "--choice",
        "may-pass",
        "--policy",
        "win",
        "--player",
        "A:hard",
        "--player",
        "B:hard",
        "--player",
        "C:hard",
    ]);
    assert_fails(&bonus, 2, &["without bonus rolls"]);
    let unknown = snl(&["analyze", "--policy", "winner"]);
    assert_eq!(unknown.code, 2, "{}", unknown.stderr);
    assert!(unknown.stderr.contains("expected easy, greedy, hard or win"), "{}", unknown.stderr);
}
