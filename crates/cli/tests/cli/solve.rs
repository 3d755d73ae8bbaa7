//! `snl solve` and `snl board generate`.

use crate::util::*;

const HACKERRANK_SAMPLE: &str =
    include_str!("../../../analysis/tests/fixtures/solve/hackerrank-sample-0.in");

#[test]
fn solve_prints_the_fewest_rolls_and_one_path() {
    let run = snl(&["solve"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    eqnice!(
        "5 rolls: 0 → 5 → 11 ⇒ 40 (ladder) → 46 ⇒ 90 (ladder) → 94 → 100\nRolls: 5, 6, 6, 4, 6\n",
        run.stdout
    );
}

#[test]
fn solve_json_has_the_spec_keys() {
    let run = snl(&["solve", "--board", "milton-bradley", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let rolls = value["min_rolls"].as_u64().unwrap();
    assert_eq!(value["reachable"], true);
    let path = value["path"].as_array().unwrap();
    assert_eq!(path.first().unwrap(), 0);
    assert_eq!(path.last().unwrap(), 100);
    assert_eq!(value["rolls"].as_array().unwrap().len() as u64, rolls);
    assert!(value.get("min_turns").is_none(), "no bonus rolls, no turns: {value}");
}

#[test]
fn an_unreachable_last_cell_is_an_answer_not_an_error() {
    let dir = TempDir::new("solve-unreachable");
    let file = dir.file("walled.toml");
    let snakes: Vec<String> = (4..=9).map(|c| format!("[[snake]]\nhead = {c}\ntail = 2")).collect();
    std::fs::write(&file, format!("size = 10\n{}\n", snakes.join("\n"))).unwrap();
    let run = snl(&["solve", "--board", &file, "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["reachable"], false);
    assert!(value["min_rolls"].is_null());
    assert_eq!(value["path"], serde_json::json!([]));
    let run = snl(&["solve", "--board", &file]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("Cell 10 cannot be reached from 0"), "{}", run.stdout);
}

#[test]
fn solve_from_a_position_and_under_other_rules() {
    let run = snl(&["solve", "--from", "94", "--json"]);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["min_rolls"], 1);
    assert_eq!(value["path"], serde_json::json!([94, 100]));
    // Two dice, and any roll past the end wins.
    let run = snl(&["solve", "--board", "empty", "--dice", "2d6", "--overshoot", "win", "--json"]);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["min_rolls"], 9); // 8 × 12 = 96, then anything past 100 wins
    assert_fails(&snl(&["solve", "--from", "101"]), 2, &["--from 101", "100 cells"]);
}

#[test]
fn bonus_rolls_add_the_fewest_turns() {
    let run = snl(&["solve", "--board", "empty", "--rules", "strict-sixes"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Two sixes and a non-six make at most 17 cells a turn (the third six is voided).
    assert!(run.stdout.contains("Fewest turns: 6 turns"), "{}", run.stdout);
    let run = snl(&["solve", "--board", "empty", "--rules", "strict-sixes", "--json"]);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["min_turns"], 6);
    assert_eq!(value["min_rolls"], 17);
}

#[test]
fn leetcode_examples_print_leetcodes_integers() {
    // LeetCode 909, examples 1 and 2 (https://leetcode.com/problems/snakes-and-ladders/).
    let example_1 = "[[-1,-1,-1,-1,-1,-1],[-1,-1,-1,-1,-1,-1],[-1,-1,-1,-1,-1,-1],\
                     [-1,35,-1,-1,13,-1],[-1,-1,-1,-1,-1,-1],[-1,15,-1,-1,-1,-1]]";
    eqnice!("4\n", snl(&["solve", "--leetcode", example_1]).stdout);
    eqnice!("1\n", snl(&["solve", "--leetcode", "[[-1,-1],[-1,3]]"]).stdout);
    eqnice!("-1\n", snl(&["solve", "--leetcode", "[[1,1,-1],[1,1,1],[-1,1,1]]"]).stdout);
    let run = snl_with_input(
        &["solve", "--leetcode", "-"],
        "[[-1, 4, -1],\n [6, 2, 6],\n [-1, 3, -1]]\n",
    );
    eqnice!("2\n", run.stdout);
}

#[test]
fn a_leetcode_file_is_read_and_answered() {
    let dir = TempDir::new("solve-leetcode");
    let file = dir.file("board.json");
    std::fs::write(&file, "[[-1,-1],[-1,3]]").unwrap();
    eqnice!("1\n", snl(&["solve", "--leetcode", &file]).stdout);
    let run = snl(&["solve", "--leetcode", &file, "--json"]);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["path"], serde_json::json!([1, 4]));
    assert_fails(&snl(&["solve", "--leetcode", &dir.file("missing.json")]), 2, &["missing.json"]);
}

#[test]
fn malformed_leetcode_boards_are_refused_with_the_reason() {
    let cases: [(&str, &[&str]); 6] = [
        ("[[-1,-1],[-1]]", &["1 value in row 1", "n×n"]),
        ("[[-1,-1,-1],[-1,-1,-1]]", &["2 rows of 3 values"]),
        ("[[-1,-1],[-1,5]]", &["board[1][1] = 5", "-1 or a square from 1 to 4"]),
        ("[[-1,-1],[0,-1]]", &["board[1][0] = 0"]),
        ("[[-1,-1],[-1,-1]", &["the end of the input"]),
        ("[[-1,-1],[-1,\"x\"]]", &["line 1, column 14", "an integer"]),
    ];
    for (matrix, needles) in cases {
        assert_fails(&snl(&["solve", "--leetcode", matrix]), 2, needles);
    }
    assert_fails(
        &snl(&["solve", "--leetcode", "[[-1,-1],[2,-1]]"]),
        2,
        &["square 1", "none on squares 1 and n²"],
    );
}

#[test]
fn hackerrank_input_gets_one_integer_per_test() {
    // The sample of https://www.hackerrank.com/challenges/the-quickest-way-up/problem.
    let run = snl_with_input(&["solve", "--hackerrank"], HACKERRANK_SAMPLE);
    assert_eq!(run.code, 0, "{}", run.stderr);
    eqnice!("3\n5\n", run.stdout);
    let run = snl_with_input(&["solve", "--hackerrank", "--json"], HACKERRANK_SAMPLE);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["tests"][1]["min_rolls"], 5);
}

#[test]
fn malformed_hackerrank_input_is_refused_with_the_test_named() {
    let run = snl_with_input(&["solve", "--hackerrank"], "1\n3\n32 62\n42 68\n");
    assert_fails(&run, 2, &["test 1, ladder 3 of 3", "the end of the input"]);
    let run = snl_with_input(&["solve", "--hackerrank"], "1\n1\n30 20\n0\n");
    assert_fails(&run, 2, &["test 1", "ladder 30 20", "does not go up"]);
    let run = snl_with_input(&["solve", "--hackerrank"], "1\n1\n30 120\n0\n");
    assert_fails(&run, 2, &["ladder 30 120", "leaves the board"]);
    let run = snl_with_input(&["solve", "--hackerrank"], "1\n0\n0\n7\n");
    assert_fails(&run, 2, &["'7' after the last of 1 tests"]);
    let run = snl_with_input(&["solve", "--hackerrank"], "2\nx\n");
    assert_fails(&run, 2, &["test 1, number of ladders", "'x'"]);
}

#[test]
fn puzzle_options_refuse_board_and_rule_options() {
    let run = snl(&["solve", "--leetcode", "[[-1,-1],[-1,3]]", "--dice", "2d6"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("cannot be used with"), "{}", run.stderr);
    let run = snl(&["solve", "--hackerrank", "--board", "kids"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

#[test]
fn solve_help_explains_every_option() {
    let run = snl(&["solve", "--help"]);
    assert_eq!(run.code, 0);
    for needle in ["--from", "--json", "--leetcode", "--hackerrank", "min_rolls", "best case"] {
        assert!(run.stdout.contains(needle), "{needle} missing from:\n{}", run.stdout);
    }
}

#[test]
fn generated_boards_are_the_random_preset_and_solve() {
    let dir = TempDir::new("generate");
    let toml = dir.file("big.toml");
    let args = ["--size", "400", "--snakes", "10", "--ladders", "10", "--seed", "3"];
    let run = snl(&[&["board", "generate", "-o", &toml][..], &args[..]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("Wrote a 400-cell board with 10 snakes and 10 ladders to ")
            && run.stdout.ends_with("/big.toml.\n")
            && run.stdout.lines().count() == 1,
        "{}",
        run.stdout
    );
    let from_file = snl(&["solve", "--board", &toml, "--json"]).stdout;
    let preset = snl(&[&["solve", "--board", "random"][..], &args[..], &["--json"][..]].concat());
    eqnice!(preset.stdout, from_file);
    // The same draw on stdout.
    let printed = snl(&[&["board", "generate"][..], &args[..]].concat()).stdout;
    eqnice!(std::fs::read_to_string(&toml).unwrap(), printed);
}

#[test]
fn generated_leetcode_boards_are_square_matrices_leetcode_accepts() {
    let dir = TempDir::new("generate-leetcode");
    let file = dir.file("board.json");
    let run = snl(&[
        "board",
        "generate",
        "--size",
        "10000",
        "--snakes",
        "250",
        "--ladders",
        "250",
        "--seed",
        "9",
        "--format",
        "leetcode",
        "-o",
        &file,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let matrix: Vec<Vec<i64>> =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(matrix.len(), 100);
    assert!(matrix.iter().all(|row| row.len() == 100));
    let jumps = matrix.iter().flatten().filter(|&&v| v != -1).count();
    assert_eq!(jumps, 500);
    let answer: i64 = snl(&["solve", "--leetcode", &file]).stdout.trim().parse().unwrap();
    assert!(answer > 0, "generated boards can be won");
    assert_fails(
        &snl(&["board", "generate", "--size", "50", "--format", "leetcode"]),
        2,
        &["size 50 is not a square", "--size 49 or 64"],
    );
    assert_fails(&snl(&["board", "generate", "--size", "20", "--snakes", "9"]), 2, &["do not fit"]);
}

#[test]
fn huge_random_boards_are_solved_without_building_a_board_and_agree_with_one() {
    // Beyond 10^6 cells `--board random` is drawn straight into the solver's compact form; the
    // same draw written as a board file goes through the engine's Board.
    let dir = TempDir::new("solve-huge");
    let file = dir.file("huge.toml");
    let args = ["--size", "1200000", "--snakes", "150", "--ladders", "150", "--seed", "8"];
    let run = snl(&[&["board", "generate", "-o", &file][..], &args[..]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let direct = snl(&[&["solve", "--json", "--board", "random"][..], &args[..]].concat());
    assert_eq!(direct.code, 0, "{}", direct.stderr);
    eqnice!(snl(&["solve", "--json", "--board", &file]).stdout, direct.stdout);
    // Counting turns with a cap of 40 sixes needs 40 states per cell, beyond the search's limit:
    // said, not fatal.
    let capped = ["--rules", "strict-sixes", "--max-bonus", "40", "--board", "random"];
    let bonus = snl(&[&["solve"][..], &capped[..], &args[..]].concat());
    assert_eq!(bonus.code, 0, "{}", bonus.stderr);
    let last = bonus.stdout.lines().last().unwrap_or_default();
    assert!(last.starts_with("Fewest turns: not computed: counting turns on"), "{last}");
}

#[test]
fn solve_plans_with_the_effects_of_the_party_board() {
    let run = snl(&["solve", "--board", "party"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // 6 rolls and 6 turns (checked against the engine's own games in the analysis tests).
    assert!(run.stdout.starts_with("6 rolls: 0 → "), "{}", run.stdout);
    assert!(run.stdout.contains("(wormhole)"), "{}", run.stdout);
    assert!(run.stdout.contains("Fewest turns: 6 turns"), "{}", run.stdout);
    assert!(run.stdout.contains("Wormholes count as the best case"), "{}", run.stdout);
    let run = snl(&["solve", "--board", "party", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["min_rolls"], 6);
    assert_eq!(value["min_turns"], 6);
    assert_eq!(value["reachable"], true);
    assert_eq!(value["best_case_wormholes"], true);
    assert_eq!(value["path"].as_array().unwrap().last().unwrap(), 100);
    assert!(value["effects_met"].as_array().unwrap().iter().any(|m| m["effect"] == "wormhole"));
}
