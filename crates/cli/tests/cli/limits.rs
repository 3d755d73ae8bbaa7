//! A limit on every input (issue 10, points 4 and 7): huge numbers in board files and on the
//! command line are refused with one sentence before anything is allocated, endless inputs are
//! read only up to a bound, and numbers out of range say which way they are wrong.

use std::process::Command;

use crate::util::*;

/// Runs `snl` under an address-space cap of 512 MB (`prlimit` from util-linux), so that a command
/// that tried to allocate for 4294967295 cells would abort instead of passing.
fn snl_capped(args: &[&str]) -> Run {
    snl_under(536_870_912, args)
}

/// Runs `snl` under an address-space cap of `bytes`.
fn snl_under(bytes: u64, args: &[&str]) -> Run {
    let scratch = TempDir::new("capped");
    let out = Command::new("prlimit")
        .arg(format!("--as={bytes}"))
        .arg(env!("CARGO_BIN_EXE_snl"))
        .args(args)
        .env("SNL_DB", scratch.path().join("games.db"))
        .output()
        .expect("prlimit (util-linux) runs snl");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Exit 2 with `needle` on the first line of standard error, and (unless it is clap's usage
/// message, which adds its usage lines) nothing more.
fn one_sentence(run: &Run, needle: &str) {
    assert_eq!(run.code, 2, "{run:?}");
    let first = run.stderr.lines().next().unwrap_or_default();
    assert!(first.contains(needle), "{needle:?} missing from {:?}", run.stderr);
    if !first.starts_with("error: invalid value") {
        assert_eq!(run.stderr.trim_end().lines().count(), 1, "{:?}", run.stderr);
    }
    assert!(!run.stderr.contains("panicked") && !run.stderr.contains("memory"), "{run:?}");
}

#[test]
fn a_board_file_of_4294967295_cells_is_refused_under_a_memory_cap() {
    let dir = TempDir::new("limits");
    let path = dir.file("big.toml");
    std::fs::write(&path, "size = 4294967295\n[[ladder]]\nfoot = 2\ntop = 4294967000\n").unwrap();
    for command in [&["board", "show"][..], &["board", "validate"], &["analyze", "--board"]] {
        let mut args = command.to_vec();
        args.push(&path);
        one_sentence(&snl_capped(&args), "size 4294967295 is too large: a board has at most");
    }
    let run = snl_capped(&["play", "--board", &path, "--fast", "--seed", "1"]);
    one_sentence(&run, "size 4294967295 is too large");
}

#[test]
fn a_board_file_of_width_4294967295_is_refused_under_a_memory_cap() {
    let dir = TempDir::new("limits");
    let path = dir.file("wide.toml");
    std::fs::write(&path, "size = 100\nwidth = 4294967295\n").unwrap();
    for command in [&["board", "show"][..], &["board", "validate"]] {
        let mut args = command.to_vec();
        args.push(&path);
        one_sentence(&snl_capped(&args), "width 4294967295 is too large: use at most 100");
    }
}

#[test]
fn a_random_board_larger_than_the_limit_is_refused_before_it_is_drawn() {
    let run = snl_capped(&["board", "show", "--board", "random", "--size", "4294967295"]);
    one_sentence(&run, "'4294967295' is too large: use at most 100000000");
    let run = snl_capped(&["board", "show", "--board", "random", "--size", "20000000"]);
    one_sentence(&run, "size 20000000 is too large: a board has at most 10000000 cells");
    let run = snl_capped(&["board", "generate", "--size", "10000001"]);
    one_sentence(&run, "size 10000001 is too large");
}

#[test]
fn an_endless_board_file_is_read_only_up_to_the_limit() {
    one_sentence(&snl_capped(&["board", "show", "/dev/zero"]), "longer than 67108864 bytes");
    one_sentence(&snl_capped(&["solve", "--leetcode", "/dev/zero"]), "longer than 67108864 bytes");
}

#[test]
fn negative_numbers_must_be_0_or_more() {
    for (args, needle) in [
        (&["play", "--fast", "--seed", "-1"][..], "'-1' must be 0 or more"),
        (&["simulate", "--games", "-5"], "'-5' must be 1 or more"),
        (&["board", "show", "--board", "random", "--size", "-3"], "'-3' must be 0 or more"),
        (&["board", "show", "--board", "random", "--snakes", "-2"], "'-2' must be 0 or more"),
        (&["board", "generate", "--ladders", "-7"], "'-7' must be 0 or more"),
        (&["tournament", "--threads", "-1"], "'-1' must be 1 or more"),
    ] {
        let run = snl(args);
        assert_eq!(run.code, 2, "{args:?}: {run:?}");
        assert!(run.stderr.contains(needle), "{args:?}: {needle:?} missing from {}", run.stderr);
        assert!(!run.stderr.contains("unexpected argument"), "{}", run.stderr);
    }
}

#[test]
fn numbers_too_large_say_the_most_allowed_not_that_they_are_no_number() {
    for (args, needle) in [
        (&["simulate", "--games", "99999999999999999999999"][..], "at most 1000000000000"),
        (&["play", "--fast", "--seed", "18446744073709551616"], "at most 18446744073709551615"),
        (&["board", "generate", "--snakes", "4294967296"], "at most 4294967295"),
        (&["simulate", "--threads", "1025"], "at most 1024"),
    ] {
        let run = snl(args);
        assert_eq!(run.code, 2, "{args:?}: {run:?}");
        assert!(run.stderr.contains(needle), "{args:?}: {needle:?} missing from {}", run.stderr);
        assert!(!run.stderr.contains("not a"), "{}", run.stderr);
    }
    let run = snl(&["simulate", "--games", "lots"]);
    assert!(run.stderr.contains("'lots' is not a whole number"), "{}", run.stderr);
}

#[test]
fn every_command_states_its_limits_in_its_help() {
    for command in [
        &["play"][..],
        &["solve"],
        &["analyze"],
        &["simulate"],
        &["tournament"],
        &["board", "show"],
        &["board", "validate"],
        &["board", "generate"],
        &["board", "convert"],
        &["board", "design"],
        &["resume"],
        &["games"],
        &["replay"],
        &["history"],
        &["stats"],
        &["leaderboard"],
        &["serve"],
    ] {
        let run = snl(&[command, &["--help"][..]].concat());
        assert_eq!(run.code, 0, "{command:?}: {}", run.stderr);
        assert!(
            run.stdout.contains("at most"),
            "{command:?} --help states no limit:\n{}",
            run.stdout
        );
    }
    let run = snl(&["simulate", "--help"]);
    assert!(run.stdout.contains("1 to 1000000000000"), "{}", run.stdout);
}

#[test]
fn more_games_or_seats_than_the_limits_are_refused_in_one_sentence() {
    one_sentence(&snl_capped(&["simulate", "--games", "1000000000001"]), "at most 1000000000000");
    one_sentence(&snl_capped(&["tournament", "--games", "1000000000001"]), "at most 1000000000000");
    let players: Vec<String> = (0..257).map(|i| format!("--player=P{i}:easy")).collect();
    for command in ["play", "analyze", "simulate", "tournament"] {
        let mut args = vec![command, "--seed", "1"];
        args.extend(players.iter().map(String::as_str));
        one_sentence(&snl_capped(&args), "257 players are too many: use at most 256");
    }
}

#[test]
fn an_endless_save_file_is_read_only_up_to_the_limit() {
    // Zeros are no save from their first byte: refused before an endless line is read.
    let run = snl_capped(&["play", "--load", "/dev/zero", "--fast"]);
    one_sentence(&run, "cannot load the save file /dev/zero: it is cut short or damaged");
}

/// Issue 29, finding 13: messages that did not name the value, or echoed a huge one.
#[test]
fn a_seat_without_a_kind_and_a_huge_leetcode_cell_are_named_in_one_sentence() {
    let run = snl(&["play", "--player", "A:", "--player", "B:easy", "--no-record"]);
    assert_fails(&run, 2, &["player 'A:' has no kind after its ':'"]);
    // A cell of 23 digits is reported as given, not as a saturated 9223372036854775807.
    let run = snl(&["solve", "--leetcode", "[[-1,-1],[-1,12345678901234567890123]]"]);
    assert_fails(&run, 2, &["board[1][1] = 12345678901234567890123 is out of range"]);
    // One of 100 digits is cut to 40 characters.
    let cell = "9".repeat(100);
    let run = snl(&["solve", "--leetcode", &format!("[[-1,-1],[-1,{cell}]]")]);
    assert_fails(&run, 2, &[&format!("board[1][1] = {}… is out of range", &cell[..40])]);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    let long = "x".repeat(100);
    let run = snl(&["play", "--player", &format!("{long}:"), "--player", "B:easy"]);
    assert_fails(&run, 2, &[&format!("player '{}…' has no kind", &long[..40])]);
}

/// Issue 29, finding 13: a setup answer that is not UTF-8 is said so in one sentence and asked
/// again; a 5 MB typed line is not echoed back whole.
#[test]
fn a_setup_answer_not_utf8_is_asked_again_and_a_huge_one_is_cut_when_echoed() {
    let scratch = TempDir::new("setup-bytes");
    let answer = |input: &[u8]| {
        use std::io::Write;
        let mut child = Command::new(env!("CARGO_BIN_EXE_snl"))
            .args(["play", "--setup", "--no-record"])
            .env("SNL_DB", scratch.path().join("games.db"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input).unwrap();
        let out = child.wait_with_output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let (code, out) = answer(b"\xff\xfe\n\n2\nAnn\neasy\nBob\neasy\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("that answer is not UTF-8 text (byte 0 is not); try again."), "{out}");
    let mut huge = vec![b'x'; 5_000_000];
    huge.push(b'\n');
    let (code, out) = answer(&huge);
    assert_eq!(code, Some(3), "input ends after the one line");
    assert!(out.contains(&format!("'{}…' is not a board name", "x".repeat(39))), "{out}");
    assert!(out.len() < 10_000, "the line is not echoed whole: {} bytes", out.len());
}

/// Issue 29, finding 4: a 64 MiB board file of one long array (33 million values) took 5 GB and
/// aborted under a 4 GiB cap; its tokens are counted as it is cut into parts, and it is refused
/// in one sentence under a 512 MB cap.
#[test]
fn a_board_file_of_too_many_tokens_in_one_part_is_refused_before_it_is_parsed() {
    let dir = TempDir::new("values");
    let path = dir.file("ones.toml");
    let mut text = String::from("size = 100\nx = [");
    text.push_str(&"1,".repeat(33_000_000));
    text.push_str("1]\n");
    std::fs::write(&path, text).unwrap();
    for command in [&["board", "validate"][..], &["analyze", "--board"]] {
        let mut args = command.to_vec();
        args.push(&path);
        one_sentence(
            &snl_capped(&args),
            "it holds 66000015 TOML tokens (values, punctuation, line ends) in one part",
        );
    }
}

/// A board file of 10^7 cells with `jumps` jumps written as `[[snake]]` and `[[ladder]]` tables
/// (a ladder up 2 and a snake down 3 in turn, 5 cells apart: every cell can be reached).
fn tables_file(jumps: u32) -> String {
    use std::fmt::Write as _;
    let mut text = String::from("size = 10000000\n");
    for k in 0..jumps {
        let start = 5 * k + 5;
        if k % 2 == 0 {
            writeln!(text, "[[ladder]]\nfoot = {start}\ntop = {}", start + 2).unwrap();
        } else {
            writeln!(text, "[[snake]]\nhead = {start}\ntail = {}", start - 3).unwrap();
        }
    }
    text
}

/// Issue 29, finding 4: the largest board files the limits let in are read under a 512 MB
/// address-space cap (an exact analysis of 10^7 cells needs more: its chain alone is 480 MB). Read whole, the TOML reader took about 50 bytes a byte (a 20 MB file
/// of 500,000 jumps 979 MB); read in parts (a batch of tables at a time), the file of 1,680,000
/// jumps in 64 MiB (near the most bytes) and one whose wormhole lists 999,000 exits (near the most
/// tokens one part may hold) are each read, and solved or checked.
#[test]
fn the_largest_board_files_allowed_are_read_under_a_memory_cap() {
    let dir = TempDir::new("largest");
    let tables = dir.file("tables.toml");
    let text = tables_file(1_680_000);
    assert!(text.len() as u64 <= snl_engine::MAX_BOARD_FILE_BYTES, "{} bytes", text.len());
    assert!(text.len() > 63 << 20, "{} bytes", text.len());
    std::fs::write(&tables, text).unwrap();
    // Solved as well: the fewest rolls is a breadth-first search over the 10^7 cells.
    let run = snl_capped(&["solve", "--board", &tables, "--json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let answer: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(answer["min_rolls"].as_u64().is_some_and(|r| r > 1_000_000), "{answer:?}");
    let exits = dir.file("exits.toml");
    let list: Vec<String> = (1_000..1_000_000).map(|c| c.to_string()).collect();
    let text = format!(
        "size = 1000000\n[[cell]]\nat = 500\neffect = \"wormhole\"\nexits = [{}]\n",
        list.join(",")
    );
    std::fs::write(&exits, text).unwrap();
    let run = snl_capped(&["board", "validate", &exits]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("1 cell effect"), "{run:?}");
}

/// Issue 29, finding 4: cell effects on 10^7 cells took 10 GB, then aborted; over 10^6 cells
/// they are refused up front, in one sentence, under a 512 MB cap.
#[test]
fn an_analysis_of_effects_on_too_many_cells_is_refused_up_front() {
    let run =
        snl_capped(&["analyze", "--size", "10000000", "--effects", "1000", "--board", "random"]);
    one_sentence(
        &run,
        "a board with cell effects is analysed up to 1000000 cells, and 'random' has 10000000",
    );
}

/// Issue 29, finding 4: the largest board analysed whole (10^7 cells) fits in the memory the
/// README states, 3.5 GiB of address space (it peaks at some 2.5 GB resident).
#[test]
fn the_largest_board_is_analysed_exactly_under_the_memory_the_readme_states() {
    let run = snl_under(
        3_758_096_384,
        &["analyze", "--board", "random", "--size", "10000000", "--seed", "4", "--json"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(v["expected_turns"].as_f64().is_some_and(f64::is_finite), "{v}");
    assert_eq!(v["landings_complete"], true);
}

/// Issue 29, findings 4 and 9: the largest save is written so that it loads (its journal
/// rewritten whole before it passes its bound: a 1.9-million-turn game once wrote a save of
/// 1.14 GB that `--load` refused), and loading it fits in the 1.5 GiB of address space the README
/// states.
#[test]
fn the_largest_save_is_written_loadable_and_loads_under_the_memory_the_readme_states() {
    let dir = TempDir::new("long-save");
    let save = dir.file("long.json");
    // Three easy players on the largest board, all to be ranked: millions of turns to play.
    let game = ["--board", "random", "--size", "10000000", "--seed", "3", "--finish", "all"];
    let players = ["--player", "A:easy", "--player", "B:easy", "--player", "C:easy"];
    let made = Command::new(env!("CARGO_BIN_EXE_snl"))
        .arg("play")
        .args(game)
        .args(players)
        .args(["--no-record", "--fast", "--plain", "--stop-after", "2000000", "--save", &save])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&made.stderr);
    assert_eq!(made.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    let len = std::fs::metadata(&save).unwrap().len();
    let max = snl_store::MAX_SAVE_BYTES;
    assert!((max / 2..=max).contains(&len), "{len} bytes: near the limit and within it");
    let run = snl_under(
        1_610_612_736,
        &["play", "--load", &save, "--stop-after", "1", "--no-record", "--fast", "--plain"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("2000001"),
        "{}",
        &run.stdout[run.stdout.len().saturating_sub(300)..]
    );
}
