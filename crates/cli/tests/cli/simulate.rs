//! `snl simulate`: SPEC §7 keys, the same numbers on any thread count, text, plots and failures.

use std::fmt::Write as _;

use crate::util::*;

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["simulate", "--json"];
    all.extend_from_slice(args);
    snl_json(&all)
}

/// A file in cargo's scratch directory for integration tests.
fn scratch(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("simulate-{name}"))
}

#[test]
fn json_has_every_key_of_the_spec() {
    let v = json(&["--seed", "5", "--games", "3000"]);
    for key in [
        "games",
        "seed",
        "threads",
        "mean_game_rolls",
        "ci95_game_rolls",
        "win_rate",
        "mean_turns_per_player",
        "rolls_per_second",
    ] {
        assert!(v.get(key).is_some(), "{key} missing from {v}");
    }
    assert_eq!((v["games"].as_u64(), v["seed"].as_u64()), (Some(3000), Some(5)));
    assert!(v["threads"].as_u64().unwrap() >= 1);
    let mean = v["mean_game_rolls"].as_f64().unwrap();
    let ci = v["ci95_game_rolls"].as_array().unwrap();
    let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
    assert!(lo < mean && mean < hi && hi - lo < 5.0, "{lo} {mean} {hi}");
    let rates: Vec<f64> =
        v["win_rate"].as_array().unwrap().iter().map(|r| r.as_f64().unwrap()).collect();
    assert_eq!(rates.len(), 2, "two seats by default");
    assert!((rates.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    // Two seats that alternate: each plays about half the rolls.
    let turns = v["mean_turns_per_player"].as_f64().unwrap();
    assert!((turns - mean / 2.0).abs() < 0.5, "{turns} turns per player for {mean} rolls");
    assert!(v["rolls_per_second"].as_f64().unwrap() > 0.0);
}

#[test]
fn a_seed_gives_the_same_numbers_on_one_two_or_three_threads() {
    let without_timing = |threads: &str| {
        let mut v = json(&[
            "--seed",
            "11",
            "--games",
            "4321",
            "--rules",
            "three-sixes",
            "--board",
            "kids",
            "--player",
            "A:easy",
            "--player",
            "B:easy",
            "--player",
            "C:easy",
            "--threads",
            threads,
        ]);
        assert_eq!(v["threads"].as_u64().unwrap().to_string(), threads);
        let map = v.as_object_mut().unwrap();
        map.remove("threads");
        map.remove("rolls_per_second");
        v
    };
    let one = without_timing("1");
    assert_eq!(one, without_timing("2"));
    assert_eq!(one, without_timing("3"));
    assert_ne!(one["win_rate"], serde_json::json!([0.0, 0.0, 0.0]));
}

#[test]
fn text_lists_every_seat_with_a_95_percent_interval() {
    let run = snl(&[
        "simulate",
        "--seed",
        "3",
        "--games",
        "5000",
        "--player",
        "Ann:easy",
        "--player",
        "Bob:hard",
        "--player",
        "Cyrus:greedy",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert!(
        out.starts_with("Simulated 5000 games on board classic with 3 seats (seed 3).\n"),
        "{out}"
    );
    assert!(
        out.contains("Game length: ") && out.contains("rolls on average (95% interval "),
        "{out}"
    );
    for name in ["Ann", "Bob", "Cyrus"] {
        let line = out.lines().find(|l| l.trim_start().starts_with(name)).expect(name);
        assert!(line.contains("% to ") && line.ends_with('%'), "{line}");
    }
    let wins = table(out, "seat ");
    assert_eq!(wins.len(), 4, "{out}");
    assert!(wins[0].starts_with("  seat    wins   win rate"), "{out}");
    assert_right_edge_lines_up(&wins);
    assert_no_scientific_notation(out);
    assert!(out.contains("million rolls per second"), "{out}");
    // No terminal on stderr in tests, so no progress bar either.
    assert_eq!(run.stderr, "");
}

#[test]
fn text_says_how_seats_choose_when_the_rules_offer_a_choice() {
    let run = snl(&["simulate", "--seed", "1", "--games", "1000", "--choice", "pick-die"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("Each seat plays its kind's strategy"), "{}", run.stdout);
    let solo = ["simulate", "--seed", "1", "--games", "1000", "--choice", "pick-die"];
    let run = snl(&[&solo[..], &["--player", "Solo:hard"]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("Every seat takes the first option"), "{}", run.stdout);
}

#[test]
fn under_a_choice_rule_each_seat_plays_its_strategy() {
    let v = json(&[
        "--seed",
        "3",
        "--games",
        "4000",
        "--choice",
        "may-pass",
        "--player",
        "Easy:easy",
        "--player",
        "Hard:hard",
    ]);
    let win: Vec<f64> =
        v["win_rate"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).collect();
    // Easy moves first but stays put half the time; hard avoids the snakes. Exactly, hard wins
    // 94.876% (snl analyze --choice may-pass --player E:easy --player H:hard); 3.29 standard
    // errors of 4000 games (99.9%) are 0.0115.
    assert!((win[1] - 0.948_762).abs() < 0.0115, "{win:?}");
}

#[test]
fn one_seat_measures_a_single_players_game() {
    let v = json(&[
        "--seed",
        "2",
        "--games",
        "20000",
        "--board",
        "milton-bradley",
        "--player",
        "Solo:easy",
    ]);
    assert_eq!(v["win_rate"], serde_json::json!([1.0]));
    // Althoen, King and Schilling (Mathematical Gazette, 1993): 39.2251 expected moves. The 95%
    // interval widened to 99.9% (z 3.29 instead of 1.96) must hold it.
    let ci = v["ci95_game_rolls"].as_array().unwrap();
    let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
    let (mid, half) = (f64::midpoint(lo, hi), (hi - lo) / 2.0 * 3.2905 / 1.96);
    assert!((mid - 39.2251).abs() < half, "{mid} ± {half}");
}

#[test]
fn plot_writes_an_svg_of_game_lengths_and_wins() {
    let path = scratch("histogram.svg");
    let _ = std::fs::remove_file(&path);
    let run = snl(&[
        "simulate",
        "--seed",
        "4",
        "--games",
        "2000",
        "--rules",
        "bonus-six",
        "--player",
        "Ann:easy",
        "--player",
        "Bob:easy",
        "--plot",
        path.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("Plot of the game length, the wins and the turns they came on written"),
        "{}",
        run.stdout
    );
    let svg = std::fs::read_to_string(&path).expect("the plot was written");
    assert!(svg.starts_with("<svg"), "{}", &svg[..100.min(svg.len())]);
    for text in [
        "rolls in the game",
        "mean ",
        "2000 games",
        "Who wins",
        "95% intervals",
        "Who wins, and on which of their turns",
        "each seat&apos;s k-th turn",
    ] {
        assert!(svg.contains(text), "{text:?} not in the plot");
    }
    // The same style as analyze: bars in its colour, the seats in theirs.
    assert!(svg.matches("fill=\"#3B6EA8\"").count() > 20, "bars are drawn");
    for color in ["#0072B2", "#E69F00"] {
        assert!(svg.contains(&format!("fill=\"{color}\"")), "seat bar {color}");
    }
    // Each seat's share as the text prints it.
    let share = |name: &str| {
        let line = run.stdout.lines().find(|l| l.starts_with(&format!("  {name} "))).unwrap();
        line.split_whitespace().nth(2).unwrap().to_owned()
    };
    for name in ["Ann", "Bob"] {
        assert!(svg.contains(&format!("\n{}\n", share(name))), "{name}: {}", share(name));
    }
}

#[test]
fn plot_to_a_png_file_writes_a_png() {
    let path = scratch("plot.png");
    let _ = std::fs::remove_file(&path);
    let run =
        snl(&["simulate", "--seed", "1", "--games", "3000", "--plot", path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "PNG magic bytes");
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    // Two seats: the length and the wins, then the turns the wins came on.
    assert_eq!((width, height), (1400, 1160));
    let run = snl(&[
        "simulate",
        "--seed",
        "1",
        "--games",
        "300",
        "--player",
        "Solo:easy",
        "--plot",
        path.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let bytes = std::fs::read(&path).unwrap();
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!(height, 680, "one seat: no row of seats");
}

#[test]
fn each_seat_s_win_chance_comes_with_the_turns_its_wins_came_on() {
    let args = [
        "simulate", "--seed", "3", "--games", "5000", "--player", "Ann:easy", "--player",
        "Bob:easy",
    ];
    let run = snl(&[&args[..], &["--json"]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let mut all = 0;
    for seat in 0..2 {
        let counts: Vec<u64> = v["win_turn_counts"][seat]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .collect();
        let won: u64 = counts.iter().sum();
        let rate = v["win_rate"][seat].as_f64().unwrap();
        assert!((won as f64 / 5000.0 - rate).abs() < 1e-12, "seat {seat}: {won} wins, rate {rate}");
        all += won;
        // No one wins before the fewest rolls that reach the last cell (one roll a turn here).
        let fewest = snl_json(&["solve", "--json"])["min_rolls"].as_u64().unwrap() as usize;
        assert_eq!(counts[..fewest].iter().sum::<u64>(), 0, "{counts:?}");
        let mean = counts.iter().enumerate().map(|(k, &c)| (k as u64 * c) as f64).sum::<f64>()
            / won as f64;
        assert!((v["mean_win_turn"][seat].as_f64().unwrap() - mean).abs() < 1e-9);
        let median = v["win_turn_quantiles"][seat]["0.5"].as_u64().unwrap();
        let below: u64 = counts[..=median as usize].iter().sum();
        assert!(2 * below >= won && 2 * (below - counts[median as usize]) < won);
    }
    assert_eq!(all, 5000);
    let text = snl(&args);
    let lines: Vec<&str> = text.stdout.lines().collect();
    let at = lines.iter().position(|l| l.starts_with("The turn each seat won on")).unwrap();
    let table = &lines[at + 1..at + 4];
    assert!(table[0].contains("median"), "{}", text.stdout);
    let median = v["win_turn_quantiles"][0]["0.5"].as_u64().unwrap().to_string();
    assert_eq!(table[1].split_whitespace().nth(4), Some(median.as_str()), "{}", text.stdout);
}

#[test]
fn a_plot_that_cannot_be_written_is_refused_before_any_game() {
    // A trillion games would take hours: the refusal comes at once.
    let run = snl(&["simulate", "--games", "1000000000000", "--plot", "/no/such/dir/h.svg"]);
    assert_fails(
        &run,
        2,
        &["cannot plot to '/no/such/dir/h.svg'", "'/no/such/dir' does not exist"],
    );
    let run = snl(&["simulate", "--games", "1000000000000", "--plot", "h.jpg"]);
    assert_fails(&run, 2, &["'h.jpg'", ".svg or .png"]);
}

#[test]
fn bad_options_are_refused_with_exit_2() {
    let usage = |args: &[&str], needle: &str| {
        let run = snl(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(needle), "{needle:?} not in: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    };
    usage(&["simulate", "--games", "0"], "'0' must be 1 or more");
    usage(&["simulate", "--games", "many"], "'many' is not a whole number");
    usage(
        &["simulate", "--threads", "0"],
        "'0' must be 1 or more (a number of threads from 1 to 1024)",
    );
    usage(&["simulate", "--threads", "5000"], "'5000' is too large: use at most 1024");
    assert_fails(&snl(&["simulate", "--player", "nobody"]), 2, &["'nobody'"]);
    assert_fails(&snl(&["simulate", "--player", "A:easy", "--player", "A:hard"]), 2, &["'A'"]);
    assert_fails(&snl(&["simulate", "--rules", "sideways"]), 2, &["'sideways'"]);
}

#[test]
fn a_board_where_no_game_ends_is_refused_with_exit_3() {
    // Six snakes in a row: a six-sided die can never jump over them.
    let path = scratch("wall.toml");
    let mut text = String::from("size = 20\n");
    for head in 14..20 {
        writeln!(text, "[[snake]]\nhead = {head}\ntail = {}", head - 13).unwrap();
    }
    std::fs::write(&path, text).unwrap();
    let run = snl(&["simulate", "--board", path.to_str().unwrap()]);
    assert_fails(&run, 3, &["cannot be simulated", "20"]);
}

#[test]
fn the_party_board_is_simulated_with_its_effects() {
    let args = ["--board", "party", "--seed", "8", "--games", "20000"];
    let without_timing = |threads: &str| {
        let mut v = json(&[&args[..], &["--threads", threads]].concat());
        let map = v.as_object_mut().unwrap();
        map.remove("threads");
        map.remove("rolls_per_second");
        v
    };
    let v = without_timing("1");
    assert_eq!(v, without_timing("2"), "the same numbers on any thread count");
    assert_eq!(v["games"].as_u64(), Some(20000));
    assert_eq!(v["rounds"], serde_json::Value::Null);
    let rates: Vec<f64> =
        v["win_rate"].as_array().unwrap().iter().map(|r| r.as_f64().unwrap()).collect();
    assert_eq!(rates.len(), 2);
    assert!((rates.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!(rates[0] > 0.4 && rates[1] > 0.4, "{rates:?}");
    let mean = v["mean_game_rolls"].as_f64().unwrap();
    assert!(mean > 10.0 && mean < 200.0, "{mean}");

    let run = snl(&["simulate", "--board", "party", "--seed", "8", "--games", "2000"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("Simulated 2000 games on board party with 2 seats (seed 8).\n"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("Wins (first to finish), with 95% intervals:"), "{}", run.stdout);
    assert_no_scientific_notation(&run.stdout);
}

#[test]
fn a_race_ends_after_its_rounds() {
    let run =
        snl(&["simulate", "--mode", "race", "--rounds", "5", "--seed", "4", "--games", "3000"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert!(out.contains("race of 5 rounds"), "{out}");
    assert!(
        out.contains(
            "Wins (first to finish, else furthest after 5 rounds, ties to the earlier seat), \
             with 95% intervals:"
        ),
        "{out}"
    );
    let v = json(&["--mode", "race", "--rounds", "5", "--seed", "4", "--games", "3000"]);
    assert_eq!(v["rounds"].as_u64(), Some(5));
    // Two seats, one roll a turn, five rounds: 10 rolls, fewer only when someone reaches 100 in
    // five rolls (5, 6, 6, 6, 4 by the ladders 11→40 and 46→90 does it).
    let mean = v["mean_game_rolls"].as_f64().unwrap();
    assert!(mean > 9.9 && mean <= 10.0, "{mean}");

    // One round on the classic board: cells 1 to 5 or 25 (the ladder on 6), the higher wins and
    // a tie goes to the first seat: 21/36, in exactly 2 rolls.
    let v = json(&["--mode", "race", "--rounds", "1", "--seed", "1", "--games", "40000"]);
    assert_eq!(v["mean_game_rolls"].as_f64(), Some(2.0));
    let first = v["win_rate"][0].as_f64().unwrap();
    // 3.29 standard errors of 40000 games (99.9%): 0.0081.
    assert!((first - 21.0 / 36.0).abs() < 0.0081, "{first}");
}
