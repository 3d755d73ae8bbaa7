//! Long runs: `--max-seconds` gives a marked partial result, Ctrl-C ends with one line and 130.

use std::{
    io::{BufRead, BufReader, Read},
    process::{Command, Stdio},
};

use crate::util::{snl, snl_json};

#[test]
fn a_simulation_out_of_time_is_a_marked_exact_prefix_with_exit_0() {
    let cut = snl_json(&[
        "simulate",
        "--games",
        "100000000",
        "--seed",
        "5",
        "--max-seconds",
        "0",
        "--json",
    ]);
    assert_eq!(cut["complete"], false);
    assert_eq!(cut["games_requested"], 100_000_000);
    let played = cut["games"].as_u64().unwrap();
    assert!((1000..100_000_000).contains(&played), "{played}");
    // Exactly the games a run of that many plays with the same seed.
    let same = snl_json(&["simulate", "--games", &played.to_string(), "--seed", "5", "--json"]);
    assert_eq!(same["complete"], true);
    assert_eq!(cut["mean_game_rolls"], same["mean_game_rolls"]);
    assert_eq!(cut["win_rate"], same["win_rate"]);
}

#[test]
fn a_simulation_out_of_time_says_so_in_its_text() {
    let run = snl(&["simulate", "--games", "100000000", "--seed", "5", "--max-seconds", "0"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("Partial: --max-seconds 0 stopped the run after"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_tournament_out_of_time_is_marked_partial() {
    let v = snl_json(&[
        "tournament",
        "--games",
        "10000000",
        "--seed",
        "2",
        "--max-seconds",
        "0",
        "--json",
    ]);
    assert_eq!(v["complete"], false);
    assert!(v["games"].as_u64().unwrap() < 10_000_000);
}

#[test]
fn an_analysis_out_of_time_has_exact_expectations_and_a_marked_distribution() {
    let large = ["analyze", "--board", "random", "--size", "20000", "--snakes", "500"];
    let args: Vec<&str> = large.iter().copied().chain(["--ladders", "500", "--json"]).collect();
    let full = snl_json(&args);
    let cut = snl_json(&[&args[..], &["--max-seconds", "0"]].concat());
    assert_eq!(
        (cut["complete"].clone(), cut["distribution_complete"].clone()),
        (false.into(), false.into())
    );
    assert_eq!(full["complete"], true);
    assert_eq!(cut["expected_turns"], full["expected_turns"]);
    let text = snl(&[&args[..args.len() - 1], &["--max-seconds", "0"]].concat());
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.contains("(partial: the distribution was followed for"), "{}", text.stdout);
    assert!(text.stdout.contains("then --max-seconds 0 stopped it;"), "{}", text.stdout);
}

/// Issue 29, finding 10: on a board with cell effects, weighing each effect (two exact analyses
/// per cell) once went on whatever `--max-seconds` said (46 s for 5 s on 100 effects); it now
/// stops with the time, marked partial, every delta it gives exact.
#[test]
fn an_analysis_of_effects_out_of_time_stops_weighing_them_and_says_so() {
    let board = ["analyze", "--board", "random", "--size", "50000", "--effects", "100"];
    let args: Vec<&str> =
        board.iter().copied().chain(["--seed", "3", "--max-seconds", "0"]).collect();
    let cut = snl_json(&[&args[..], &["--json"]].concat());
    assert_eq!(cut["complete"], false, "{cut}");
    assert_eq!(cut["effect_worth_complete"], false, "{cut}");
    assert!(cut["effect_worth"].as_array().is_some_and(|rows| rows.len() < 100), "{cut}");
    let text = snl(&args);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout.contains("Partial: --max-seconds 0 stopped the weighing of effect cells after"),
        "{}",
        text.stdout
    );
    // Without a time limit, nothing blames one: the small board is weighed whole.
    let whole = snl_json(&["analyze", "--board", "party", "--json"]);
    assert_eq!(
        (whole["complete"].clone(), whole["effect_worth_complete"].clone()),
        (true.into(), true.into())
    );
    let text = snl(&["analyze", "--board", "party"]);
    assert!(!text.stdout.contains("--max-seconds"), "{}", text.stdout);
}

/// Issue 29, finding 10: the exact phase (building and solving the chain) honours
/// `--max-seconds` too: on a board of 10^7 cells it cannot end within the limit and its short
/// grace, so the answer is an honest partial one (no exact number, and it says so), exit 0,
/// where it once ran on for as long as the solve took.
#[test]
fn an_exact_solve_out_of_time_says_that_nothing_exact_was_computed() {
    let args = ["analyze", "--board", "random", "--size", "10000000", "--seed", "4"];
    let cut = snl_json(&[&args[..], &["--max-seconds", "0", "--json"]].concat());
    assert_eq!(
        (cut["complete"].clone(), cut["expectations_complete"].clone()),
        (false.into(), false.into()),
        "{cut}"
    );
    assert!(cut["expected_turns"].is_null(), "{cut}");
    let partial = cut["partial"].as_str().unwrap();
    assert!(partial.starts_with("--max-seconds 0 ran out while the exact chain"), "{partial}");
    assert!(partial.contains("no exact number was computed"), "{partial}");
    let text = snl(&[&args[..], &["--max-seconds", "0"]].concat());
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.contains("Partial: --max-seconds 0 ran out"), "{}", text.stdout);
    assert_eq!(text.stdout.lines().count(), 2, "{}", text.stdout);
}

/// Issue 29, finding 10: past `--max-seconds` a large board's exact numbers come first; the
/// landings (one more solve and a pass over every position: seconds on 10^7 cells, which once
/// ran 3 s past the limit) are then left out, and the answer says so.
#[test]
fn a_large_analysis_out_of_time_leaves_out_the_landings_and_says_so() {
    // Above the size whose chain is always built whole, small enough to be built at once.
    let args = ["analyze", "--board", "random", "--size", "150000", "--seed", "6"];
    let full = snl_json(&[&args[..], &["--json"]].concat());
    assert_eq!(full["landings_complete"], true, "{}", full["landings_complete"]);
    assert!(full["expected_landings"].as_array().is_some_and(|l| l.len() == 150_001));
    let cut = snl_json(&[&args[..], &["--max-seconds", "0", "--json"]].concat());
    assert_eq!(
        (
            cut["landings_complete"].clone(),
            cut["expected_landings"].clone(),
            cut["complete"].clone()
        ),
        (false.into(), serde_json::Value::Null, false.into())
    );
    assert_eq!(cut["expected_turns"], full["expected_turns"], "the expectations are exact");
    let text = snl(&[&args[..], &["--max-seconds", "0"]].concat());
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout.contains("Partial: --max-seconds 0 stopped the analysis before the landings"),
        "{}",
        text.stdout
    );
    assert!(!text.stdout.contains("Most landed-on cells"), "{}", text.stdout);
}

/// Issue 29, finding 10: under a choice rule the hard strategy is worked out within the time
/// too: on a 10^6-cell board with effects it once went on for minutes past `--max-seconds 2`.
#[test]
fn a_hard_strategy_out_of_time_says_that_nothing_exact_was_computed() {
    let args = ["analyze", "--board", "random", "--size", "1000000", "--effects", "1000"];
    let args: Vec<&str> =
        args.iter().copied().chain(["--choice", "may-pass", "--seed", "2"]).collect();
    let cut = snl_json(&[&args[..], &["--max-seconds", "0", "--json"]].concat());
    assert_eq!(cut["complete"], false, "{cut}");
    assert!(cut["expected_turns"].is_null(), "{cut}");
    let partial = cut["partial"].as_str().unwrap();
    assert!(partial.contains("ran out while the hard strategy on 1000000 cells"), "{partial}");
}

/// Issue 29, finding 10: `tournament` and `simulate` with hard players work out the hard
/// strategy within the time too (on a 10^6-cell board with effects both went on past a minute
/// for 2 s): no game is played, and the answer says so, exit 0.
#[test]
fn games_that_need_a_hard_strategy_out_of_time_say_none_was_played() {
    let board = ["--board", "random", "--size", "1000000", "--effects", "1000", "--seed", "2"];
    let time = ["--choice", "may-pass", "--games", "1000", "--max-seconds", "0", "--json"];
    let tournament = snl_json(&[&["tournament"][..], &board, &time].concat());
    let players = ["--player", "A:hard", "--player", "B:greedy"];
    let simulated = snl_json(&[&["simulate"][..], &board, &players, &time].concat());
    for cut in [tournament, simulated] {
        assert_eq!((&cut["complete"], &cut["games"]), (&false.into(), &0.into()), "{cut}");
        let partial = cut["partial"].as_str().unwrap();
        assert!(partial.contains("ran out while the hard strategy the players need"), "{partial}");
    }
}

/// Issue 29, finding 10: three seats playing to win are solved within `--max-seconds` too
/// (the classic board took some 60 s whatever the limit): the sweeps stop with it, and the
/// answer says they did not settle.
#[test]
fn playing_to_win_out_of_time_stops_its_sweeps_and_says_so() {
    let args = ["analyze", "--board", "classic", "--choice", "may-pass", "--policy", "win"];
    let seats = ["--player", "A:win", "--player", "B:win", "--player", "C:win"];
    let cut = snl_json(&[&args[..], &seats, &["--max-seconds", "0", "--json"]].concat());
    let to_win = &cut["to_win"];
    assert_eq!((&to_win["stopped"], &to_win["settled"]), (&true.into(), &false.into()), "{cut}");
    assert_eq!(cut["complete"], false);
    let text = snl(&[&args[..], &seats, &["--max-seconds", "0"]].concat());
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout.contains("Partial: --max-seconds 0 stopped the sweeps after"),
        "{}",
        text.stdout
    );
}

#[test]
fn max_seconds_must_be_a_number_of_seconds() {
    let run = snl(&["simulate", "--max-seconds=-1"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("'-1' is not a number of seconds"), "{}", run.stderr);
}

#[test]
fn ctrl_c_ends_a_simulation_with_one_line_and_exit_130() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_snl"))
        .args(["simulate", "--games", "1000000000", "--seed", "1", "--progress", "lines"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("snl starts");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    // The first progress line: the games are under way, and Ctrl-C is taken.
    let mut first = String::new();
    stderr.read_line(&mut first).expect("a progress line");
    assert!(first.starts_with("progress: "), "{first}");
    let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status();
    assert!(sent.expect("kill runs").success());
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).expect("stderr to the end");
    let status = child.wait().expect("snl ends");
    let mut out = String::new();
    child.stdout.take().expect("stdout").read_to_string(&mut out).expect("stdout");
    assert_eq!(status.code(), Some(130), "stderr: {rest}");
    let last = rest.lines().last().unwrap_or_default();
    assert!(last.starts_with("snl: interrupted by Ctrl-C after "), "{rest}");
    assert!(last.ends_with(" of 1000000000 games"), "{last}");
    assert_eq!(rest.lines().filter(|l| l.starts_with("snl: ")).count(), 1, "{rest}");
    assert!(out.is_empty(), "{out}");
}
