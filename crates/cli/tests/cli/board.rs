//! `snl board show|validate` and every kind of bad board (SPEC §4, §7).

use crate::util::*;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn fixture(name: &str) -> String {
    format!("{FIXTURES}/{name}")
}

#[test]
fn show_draws_a_board_file_with_its_rules() {
    let run = snl(&["board", "show", &fixture("boards/tiny.toml")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let expected = "\
+-----+-----+-----+-----+
| 9   |10   |11v  |12   |
+-----+-----+-----+-----+
| 8   | 7   | 6   | 5   |
+-----+-----+-----+-----+
| 1   | 2^  | 3   | 4   |
+-----+-----+-----+-----+
Snakes  (v) 11→3
Ladders (^) 2→7
Rules: start off-board, dice 1d6, overshoot bounce, jumps single, bonus none, finish first, choice none
";
    eqnice!(expected, run.stdout);
}

#[test]
fn show_json_lists_the_jumps() {
    let run = snl(&["board", "show", "--board", "classic", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["size"], 100);
    assert_eq!(v["snakes"].as_array().unwrap().len(), 5);
    assert_eq!(v["ladders"][0], serde_json::json!({"foot": 6, "top": 25}));
}

#[test]
fn every_preset_validates() {
    for preset in ["classic", "milton-bradley", "kids", "empty", "random"] {
        let run = snl(&["board", "validate", preset]);
        assert_eq!(run.code, 0, "{preset}: {}", run.stderr);
        assert!(run.stdout.contains("is valid"), "{}", run.stdout);
    }
}

#[test]
fn validate_counts_one_snake_and_one_ladder_in_the_singular() {
    let dir = TempDir::new("validate-one");
    let file = dir.file("one.toml");
    std::fs::write(
        &file,
        "size = 10\n[[snake]]\nhead = 9\ntail = 2\n[[ladder]]\nfoot = 3\ntop = 7\n",
    )
    .unwrap();
    let run = snl(&["board", "validate", &file]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.ends_with("is valid: 10 cells, 1 snake, 1 ladder\n"), "{}", run.stdout);
    let run = snl(&["board", "validate", "empty"]);
    assert!(run.stdout.contains(": 100 cells, 0 snakes, 0 ladders"), "{}", run.stdout);
}

#[test]
fn random_boards_follow_seed_size_and_counts() {
    let args = [
        "board",
        "show",
        "random",
        "--seed",
        "9",
        "--size",
        "64",
        "--snakes",
        "5",
        "--ladders",
        "4",
        "--json",
    ];
    let a = snl(&args);
    let b = snl(&args);
    assert_eq!(a.stdout, b.stdout);
    let v: serde_json::Value = serde_json::from_str(&a.stdout).unwrap();
    assert_eq!((v["size"].as_u64(), v["width"].as_u64()), (Some(64), Some(8)));
    assert_eq!(v["snakes"].as_array().unwrap().len(), 5);
    assert_eq!(v["ladders"].as_array().unwrap().len(), 4);
}

#[test]
fn a_snake_going_up_and_a_ladder_going_down_are_both_named() {
    let run = snl(&["board", "validate", &fixture("bad/snake-up.toml")]);
    assert_fails(
        &run,
        2,
        &["2 problems", "snake 10→20 does not go down", "ladder 25→5 does not go up"],
    );
}

#[test]
fn off_board_shared_start_and_last_cell_jumps_are_all_listed() {
    let run = snl(&["board", "validate", &fixture("bad/everything.toml")]);
    assert_fails(
        &run,
        2,
        &[
            "3 problems",
            "ladder 7→31 leaves the board",
            "two jumps start on cell 12",
            "snake 30→4 starts on the last cell",
        ],
    );
}

#[test]
fn a_chain_cycle_is_refused_only_with_chained_jumps() {
    let run = snl(&["board", "validate", &fixture("bad/cycle.toml"), "--jumps", "chain"]);
    assert_fails(&run, 2, &["5→15→5 form a cycle"]);
    assert_eq!(snl(&["board", "validate", &fixture("bad/cycle.toml")]).code, 0);
}

#[test]
fn a_jump_on_the_start_cell_is_refused_when_tokens_start_there() {
    let run = snl(&["board", "validate", "milton-bradley", "--start", "first-cell"]);
    assert_fails(&run, 2, &["ladder 1→38 starts on cell 1"]);
}

#[test]
fn malformed_toml_names_the_line() {
    let run = snl(&["board", "validate", &fixture("bad/malformed.toml")]);
    assert_fails(&run, 2, &["malformed.toml", "line 5"]);
}

#[test]
fn a_toml_syntax_error_names_its_line_and_column_counted_in_characters() {
    let dir = TempDir::new("toml-column");
    let file = dir.file("accents.toml");
    std::fs::write(&file, "size = 20\n# café\n[[snake]]\nhead = 9 # tête\ntail = = 2\n").unwrap();
    let run = snl(&["board", "validate", &file]);
    assert_fails(&run, 2, &["accents.toml", "line 5, column 8: extra `=`"]);
    std::fs::write(&file, "size = 20\nname = \"Café\" width\n").unwrap();
    assert_fails(&snl(&["board", "show", &file]), 2, &["line 2, column 15: "]);
    // A key that is missing has no place in the file: no "line 0, column 0".
    std::fs::write(&file, "# no size\n").unwrap();
    let run = snl(&["board", "validate", &file]);
    assert_fails(&run, 2, &["is not a valid board: missing field `size`"]);
    assert!(!run.stderr.contains("line 0"), "{}", run.stderr);
}

#[test]
fn a_missing_file_is_named() {
    let run = snl(&["board", "show", "no/such/board.toml"]);
    assert_fails(&run, 2, &["cannot read board file 'no/such/board.toml'"]);
}

#[test]
fn unknown_keys_in_a_board_file_are_refused() {
    let dir = std::env::temp_dir().join(format!("snl-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("typo.toml");
    std::fs::write(&path, "size = 20\n[[snake]]\nhead = 9\ntial = 2\n").unwrap();
    let run = snl(&["board", "validate", path.to_str().unwrap()]);
    assert_fails(&run, 2, &["tial"]);
    let path = dir.join("rules.toml");
    std::fs::write(&path, "size = 20\n[rules]\novershoot = \"sideways\"\n").unwrap();
    let run = snl(&["board", "validate", path.to_str().unwrap()]);
    assert_fails(&run, 2, &["unknown overshoot 'sideways'"]);
}

#[test]
fn an_unreachable_board_validates_but_says_it_cannot_be_played() {
    let run = snl(&["board", "validate", &fixture("bad/unreachable.toml")]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("cell 20 cannot be reached from the start"), "{}", run.stdout);
}

#[test]
fn unknown_presets_and_rule_sets_are_named() {
    assert_fails(&snl(&["board", "show", "--board", "monopoly"]), 2, &["unknown board 'monopoly'"]);
    assert_fails(&snl(&["board", "show", "--rules", "chess"]), 2, &["unknown rule set 'chess'"]);
    assert_fails(&snl(&["board", "show", "--overshoot", "up"]), 2, &["unknown overshoot 'up'"]);
    assert_fails(&snl(&["board", "show", "--max-bonus", "0"]), 2, &["max-bonus '0'"]);
}

#[test]
fn crowded_random_boards_are_refused_with_the_numbers() {
    let run = snl(&["board", "show", "random", "--size", "20", "--snakes", "9", "--ladders", "9"]);
    assert_fails(&run, 2, &["9 snakes do not fit on 20 cells: use at most 6"]);
    let run = snl(&["board", "show", "random", "--size", "20", "--snakes", "4", "--ladders", "4"]);
    assert_fails(&run, 2, &["4 snakes and 4 ladders do not fit on 20 cells: use at most 6 in all"]);
    // Only what was asked for is blamed: not the 8 ladders the user left at their default.
    let run = snl(&["board", "generate", "--size", "4", "--snakes", "10"]);
    assert_fails(&run, 2, &["10 snakes do not fit on 4 cells: use at most 0"]);
}

#[test]
fn a_leetcode_matrix_converts_to_a_board_file_with_the_same_answer() {
    // LeetCode 909, example 1 of the problem statement: the answer is 4.
    let matrix = "[[-1,-1,-1,-1,-1,-1],[-1,-1,-1,-1,-1,-1],[-1,-1,-1,-1,-1,-1],\
                  [-1,35,-1,-1,13,-1],[-1,-1,-1,-1,-1,-1],[-1,15,-1,-1,-1,-1]]";
    let dir = std::env::temp_dir().join(format!("snl-convert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("lc.toml");
    let run = snl(&["board", "convert", "--leetcode", matrix, "-o", file.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("size = 36") && text.contains("start = \"first-cell\""), "{text}");
    let solved = snl(&["solve", "--board", file.to_str().unwrap(), "--json"]);
    let v: serde_json::Value = serde_json::from_str(&solved.stdout).unwrap();
    assert_eq!(v["min_rolls"], 4);
}

#[test]
fn a_square_board_converts_to_leetcode_and_back_to_the_same_answer() {
    let run = snl(&["board", "convert", "classic", "--format", "leetcode"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let answer = snl(&["solve", "--leetcode", run.stdout.trim()]);
    // LeetCode starts on square 1: the same as our classic board with start = first-cell.
    let ours = snl(&["solve", "--board", "classic", "--start", "first-cell", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&ours.stdout).unwrap();
    assert_eq!(answer.stdout.trim(), v["min_rolls"].to_string());
}

#[test]
fn a_board_that_is_not_square_has_no_leetcode_form() {
    let run = snl(&["board", "convert", "kids", "--format", "leetcode"]);
    assert_fails(&run, 2, &["50 cells is not square"]);
}

#[test]
fn validate_json_lists_every_problem_of_a_bad_board_on_stdout_and_exits_2() {
    let dir = TempDir::new("validate");
    let path = dir.file("bad.toml");
    std::fs::write(
        &path,
        "size = 20\n[[snake]]\nhead = 5\ntail = 9\n[[ladder]]\nfoot = 3\ntop = 40\n",
    )
    .unwrap();
    let run = snl(&["board", "validate", "--json", &path]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON object");
    assert_eq!(value["valid"], false);
    let problems = value["problems"].as_array().expect("problems");
    assert_eq!(problems.len(), 2, "{value}");
    assert!(problems[0].as_str().unwrap().contains("snake 5→9"), "{value}");
    assert!(problems[1].as_str().unwrap().contains("ladder 3→40"), "{value}");
    std::fs::write(&path, "size = 20\nsize = 30\n").unwrap();
    let run = snl(&["board", "validate", "--json", &path]);
    assert_eq!(run.code, 2);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON object");
    assert!(value["problems"][0].as_str().unwrap().contains("duplicate key 'size'"), "{value}");
}

#[test]
fn toml_problems_and_board_problems_of_a_file_are_listed_together() {
    let dir = TempDir::new("together");
    let path = dir.file("both.toml");
    std::fs::write(
        &path,
        "size = 20\ncolour = 'red'\n[[snake]]\nhead = 5\ntail = 9\n[[ladder]]\nfoot = 3\ntop = 'x'\n",
    )
    .unwrap();
    let run = snl(&["board", "validate", &path]);
    assert_fails(
        &run,
        2,
        &[
            "3 problems",
            "line 2, column 1: unknown field `colour`",
            "line 8",
            "snake 5→9 does not go down",
        ],
    );
    let run = snl(&["board", "validate", "--json", &path]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON object");
    let problems = value["problems"].as_array().expect("problems");
    assert_eq!(problems.len(), 3, "{value}");
    assert!(problems[2].as_str().unwrap().contains("snake 5→9"), "{value}");

    std::fs::write(
        &path,
        "size = 20\n[[snake]]\nhead = 5\ntail = 9\n[rules]\novershoot = 'sideways'\n",
    )
    .unwrap();
    let run = snl(&["board", "validate", &path]);
    assert_fails(&run, 2, &["2 problems", "unknown overshoot 'sideways'", "snake 5→9"]);
}

#[test]
fn random_boards_keep_every_jump_at_least_min_jump_long_and_refuse_a_minimum_that_cannot_fit() {
    for (min, args) in [
        (3, &["board", "generate", "--size", "200", "--snakes", "30", "--ladders", "30"][..]),
        (
            12,
            &[
                "board",
                "generate",
                "--size",
                "200",
                "--snakes",
                "30",
                "--ladders",
                "30",
                "--min-jump",
                "12",
            ][..],
        ),
    ] {
        let run = snl(args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let spec = snl_engine::BoardSpec::from_toml(&run.stdout).expect("a board file");
        let lengths: Vec<u32> = (spec.snakes.iter().map(|s| s.head - s.tail))
            .chain(spec.ladders.iter().map(|l| l.top - l.foot))
            .collect();
        assert_eq!(lengths.len(), 60);
        assert!(lengths.iter().all(|&l| l >= min), "min {min}: {lengths:?}");
    }
    let run = snl(&[
        "board",
        "show",
        "random",
        "--min-jump",
        "2",
        "--size",
        "20",
        "--snakes",
        "3",
        "--ladders",
        "3",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = snl(&["analyze", "--board", "random", "--min-jump", "26"]);
    assert_fails(&run, 2, &["--min-jump 26 does not fit on 100 cells: use 1 to 25"]);
    let run = snl(&["board", "generate", "--min-jump", "0"]);
    assert_fails(&run, 2, &["--min-jump 0"]);
    let run = snl(&["board", "generate", "--help"]);
    assert!(run.stdout.contains("--min-jump"), "{}", run.stdout);
}
