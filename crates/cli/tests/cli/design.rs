//! `snl board design`: boards of the asked length (to a hundredth of a turn), spread and seat
//! gap, every figure recomputed by `snl analyze` from the written board file; the same for a
//! seed; refused when impossible, the closest named when not found.

use crate::util::{TempDir, assert_fails, snl, snl_json};

/// Designs into a file and returns the design's JSON and `snl analyze`'s of that file with
/// `seats` hard seats (the first option, when the rules offer no choice).
fn design_and_analyze(
    dir: &TempDir,
    name: &str,
    args: &[&str],
    seats: usize,
) -> (serde_json::Value, serde_json::Value) {
    let file = dir.file(name);
    let mut all = vec!["board", "design", "--json", "-o", &file];
    all.extend_from_slice(args);
    let designed = snl_json(&all);
    let players: Vec<String> = (0..seats).map(|i| format!("p{i}:hard")).collect();
    let mut analyze = vec!["analyze", "--board", &file, "--json"];
    for p in &players {
        analyze.extend(["--player", p]);
    }
    (designed, snl_json(&analyze))
}

fn chances(v: &serde_json::Value) -> Vec<f64> {
    v["win_probability"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).collect()
}

#[test]
fn designed_boards_last_the_target_within_a_hundredth_on_several_seeds() {
    let dir = TempDir::new("design-length");
    for (target, seed) in [("30", "1"), ("42.5", "2"), ("18", "3")] {
        let args = ["--target-turns", target, "--seed", seed];
        let (designed, analysed) = design_and_analyze(&dir, "length.toml", &args, 2);
        let turns = analysed["expected_turns"].as_f64().unwrap();
        let target: f64 = target.parse().unwrap();
        assert!((turns - target).abs() <= 0.01, "{target}: {turns}");
        assert_eq!(designed["goal_met"], true);
        assert!((designed["expected_turns"].as_f64().unwrap() - turns).abs() < 1e-9);
    }
}

#[test]
fn the_spread_lands_in_the_band_and_the_gap_within_the_bound() {
    let dir = TempDir::new("design-band");
    let args = ["--target-turns", "30", "--sd-min", "14", "--sd-max", "16", "--seed", "2"];
    let (_, analysed) = design_and_analyze(&dir, "band.toml", &args, 2);
    let sd = analysed["std_dev_turns"].as_f64().unwrap();
    assert!((14.0..=16.0).contains(&sd), "{sd}");
    assert!((analysed["expected_turns"].as_f64().unwrap() - 30.0).abs() <= 0.01);
    let args = ["--target-turns", "30", "--seats", "3", "--max-gap", "2.5", "--seed", "5"];
    let (designed, analysed) = design_and_analyze(&dir, "gap.toml", &args, 3);
    let win = chances(&analysed);
    assert_eq!(win.len(), 3);
    let gap = win.iter().copied().fold(0.0, f64::max) - win.iter().copied().fold(1.0, f64::min);
    assert!(gap <= 0.025, "{win:?}");
    assert_eq!(chances(&designed), win);
}

#[test]
fn effects_are_placed_and_reported() {
    let v = snl_json(&["board", "design", "--target-turns", "35", "--effects", "3", "--json"]);
    assert_eq!(v["effects"].as_array().unwrap().len(), 3, "{v}");
    assert!((v["expected_turns"].as_f64().unwrap() - 35.0).abs() <= 0.01, "{v}");
}

#[test]
fn the_same_seed_gives_the_same_board() {
    let args = ["board", "design", "--target-turns", "30", "--fair", "--seed", "3", "--json"];
    let v = snl_json(&args);
    let chances = chances(&v);
    assert_eq!(chances.len(), 2);
    assert!((v["spread"].as_f64().unwrap() - (chances[0] - chances[1]).abs()).abs() < 1e-12);
    let again = snl_json(&args);
    assert_eq!((&v["snakes"], &v["ladders"]), (&again["snakes"], &again["ladders"]));
}

#[test]
fn the_text_report_names_the_time_and_how_close_it_came() {
    let dir = TempDir::new("design");
    let file = dir.file("fair.toml");
    let args = ["board", "design", "--target-turns", "25", "--seats", "3", "--seed", "1", "-o"];
    let run = snl(&[&args[..], &[file.as_str()]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("seat 3 ") && run.stdout.contains(" s.\n"), "{}", run.stdout);
    assert!(run.stdout.contains(&format!("Board file written to {file}.")), "{}", run.stdout);
    let analysed = snl_json(&["analyze", "--board", &file, "--json"]);
    let turns = analysed["expected_turns"].as_f64().unwrap();
    let shown = format!("Expected turns: {turns:.4} (target 25 ± 0.01, off by ");
    assert!(run.stdout.contains(&shown), "{shown} not in {}", run.stdout);
}

#[test]
fn impossible_goals_are_refused_in_one_sentence() {
    let run = snl(&["board", "design", "--target-turns", "0.5"]);
    assert_fails(&run, 2, &["no game lasts 0.5 turns: every game takes at least one turn"]);
    let run = snl(&["board", "design", "--target-turns", "900"]);
    assert_fails(&run, 2, &["900 turns is longer than the designer searches on 100 cells"]);
    let run = snl(&["board", "design", "--target-turns", "30", "--seats", "1", "--fair"]);
    assert_fails(&run, 2, &["fairness needs two seats or more"]);
    let run = snl(&["board", "design", "--target-turns", "30", "--board", "kids"]);
    assert_fails(&run, 2, &["board design draws its own board"]);
    let run = snl(&["board", "design", "--target-turns", "30", "--sd-min", "9", "--sd-max", "3"]);
    assert_fails(&run, 2, &["the standard deviation band 9 to 3 is empty"]);
    let run = snl(&["board", "design", "--target-turns", "30", "--max-gap", "150"]);
    assert_fails(&run, 2, &["a gap between seats is 0 to 100 points, not 150"]);
}

#[test]
fn a_design_out_of_time_gives_its_best_board_so_far_marked() {
    let v = snl_json(&["board", "design", "--target-turns", "30", "--max-seconds", "0", "--json"]);
    assert_eq!((v["complete"].clone(), v["steps"].clone()), (false.into(), 0.into()));
    let run = snl(&["board", "design", "--target-turns", "30", "--max-seconds", "0"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("Partial: --max-seconds 0 stopped the search after 0 of 3000"),
        "{}",
        run.stdout
    );
}

#[test]
fn an_unreachable_goal_shows_progress_and_names_the_closest_board() {
    let args = ["board", "design", "--target-turns", "30", "--sd-max", "1", "--steps", "300"];
    let run = snl(&[&args[..], &["--progress", "lines"]].concat());
    assert!(run.stderr.starts_with("progress: 64 of 990 steps"), "{}", run.stderr);
    assert_fails(
        &run,
        1,
        &[
            "no board meeting the goal (30 turns ± 0.01, standard deviation 0 to 1) was found",
            "the closest lasts",
        ],
    );
    assert!(run.stdout.is_empty(), "{}", run.stdout);
}

#[test]
fn a_race_is_designed_by_the_rounds_it_lasts() {
    let args = ["board", "design", "--target-rounds", "12", "--seats", "4", "--mode", "race"];
    let v = snl_json(&[&args[..], &["--rounds", "15", "--seed", "2", "--json"]].concat());
    let rounds = v["expected_rounds"].as_f64().unwrap();
    assert!((rounds - 12.0).abs() <= 0.01 && v["goal_met"] == true, "{v}");
    assert_eq!((v["target_rounds"].as_f64(), v["target_turns"].as_f64()), (Some(12.0), None));
    assert!(v["expected_turns"].as_f64().unwrap() > rounds, "{v}");
    let run = snl(&[&args[..], &["--rounds", "15", "--seed", "2"]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let shown = format!("Expected rounds: {rounds:.4} (target 12 ± 0.01, off by ");
    assert!(run.stdout.contains(&shown), "{shown} not in {}", run.stdout);
    assert!(run.stdout.contains(&format!("a game of 4 seats lasts {rounds:.4} rounds")));
    let run = snl(&[&args[..], &["--rounds", "10"]].concat());
    assert_fails(&run, 2, &["a race of 10 rounds lasts at most 10 rounds, not 12"]);
    let run = snl(&["board", "design", "--target-rounds", "12", "--target-turns", "30"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let run = snl(&["board", "design", "--seats", "3"]);
    assert!(run.code == 2 && run.stderr.contains("--target-turns"), "{}", run.stderr);
}
