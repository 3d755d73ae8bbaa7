//! `snl board design`: boards of the asked length, the same for a seed, refused when impossible.

use crate::util::{TempDir, assert_fails, snl, snl_json};

#[test]
fn a_designed_board_lasts_the_target_and_the_same_seed_gives_it_again() {
    let args = ["board", "design", "--target-turns", "30", "--fair", "--seed", "3", "--json"];
    let v = snl_json(&args);
    let turns = v["expected_turns"].as_f64().unwrap();
    assert!((turns - 30.0).abs() <= 0.5, "{turns}");
    assert_eq!((v["on_target"].clone(), v["complete"].clone()), (true.into(), true.into()));
    let chances: Vec<f64> =
        v["win_probability"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).collect();
    assert_eq!(chances.len(), 2);
    assert!((v["spread"].as_f64().unwrap() - (chances[0] - chances[1]).abs()).abs() < 1e-12);
    let again = snl_json(&args);
    assert_eq!((&v["snakes"], &v["ladders"]), (&again["snakes"], &again["ladders"]));
}

#[test]
fn the_written_board_file_analyses_to_the_printed_numbers() {
    let dir = TempDir::new("design");
    let file = dir.file("fair.toml");
    let run = snl(&[
        "board",
        "design",
        "--target-turns",
        "25",
        "--seats",
        "3",
        "--seed",
        "1",
        "-o",
        &file,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("Expected turns: ") && run.stdout.contains("seat 3 "),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains(&format!("Board file written to {file}.")), "{}", run.stdout);
    let analysed = snl_json(&["analyze", "--board", &file, "--json"]);
    let turns = analysed["expected_turns"].as_f64().unwrap();
    assert!((turns - 25.0).abs() <= 0.5, "{turns}");
    let shown = format!("Expected turns: {turns:.2} (target 25");
    assert!(run.stdout.contains(&shown), "{shown} not in {}", run.stdout);
}

#[test]
fn a_target_below_one_turn_is_refused_in_one_sentence() {
    let run = snl(&["board", "design", "--target-turns", "0.5"]);
    assert_fails(&run, 2, &["no game lasts 0.5 turns: every game takes at least one turn"]);
    let run = snl(&["board", "design", "--target-turns", "900"]);
    assert_fails(&run, 2, &["900 turns is longer than the designer searches on 100 cells"]);
    let run = snl(&["board", "design", "--target-turns", "30", "--seats", "1", "--fair"]);
    assert_fails(&run, 2, &["fairness needs two seats or more"]);
    let run = snl(&["board", "design", "--target-turns", "30", "--board", "kids"]);
    assert_fails(&run, 2, &["board design draws its own board"]);
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
fn the_search_shows_its_progress_and_says_when_it_missed_the_target() {
    let run =
        snl(&["board", "design", "--target-turns", "1.5", "--steps", "300", "--progress", "lines"]);
    assert!(run.stderr.starts_with("progress: 64 of 300 steps (21%)"), "{}", run.stderr);
    assert_fails(&run, 1, &["no board within 0.5 turns of 1.5 was found in 300 steps", "closest"]);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
}
