//! The line-by-line console tells each rule as it plays it (issue 26's parity table: the cases the
//! full-screen, join/watch and replay screens share in `crates/tui/src/parity_tests.rs`, where the
//! console had no test of its own): tokens starting on the first cell, a chain of jumps, everyone
//! ranked under `finish all`, and the game clock counting down in the prompt.

use crate::util::{TempDir, snl, snl_with_input};

/// A 30-cell board: ladders 3→8 and 8→15 (a chain), snake 27→5.
const PLAIN: &str = "size = 30\nwidth = 6\nladder = [{foot = 3, top = 8}, {foot = 8, top = 15}]\n\
    snake = [{head = 27, tail = 5}]\n";

/// `snl play --plain` on [`PLAIN`] with `args` and two or three computers: its sentences.
fn told(args: &[&str], seats: &[&str]) -> String {
    let dir = TempDir::new("console-rules");
    let board = dir.path().join("board.toml");
    std::fs::write(&board, PLAIN).unwrap();
    let mut all =
        vec!["play", "--plain", "--fast", "--no-record", "--board", board.to_str().unwrap()];
    all.extend(args);
    for seat in seats {
        all.extend(["--player", seat]);
    }
    let run = snl(&all);
    // Exit 3: the scripted rolls ran out before the end, as these games are cut short.
    assert!(run.code == 0 || run.code == 3, "{}", run.stderr);
    run.stdout.lines().filter(|l| !l.starts_with(['|', '+'])).collect::<Vec<_>>().join("\n")
}

#[test]
fn tokens_start_on_the_first_cell_and_move_from_there() {
    let out = told(&["--start", "first-cell", "--rolls", "1,2"], &["Ann:easy", "Bob:easy"]);
    assert!(out.contains("Rules: start first-cell"), "{out}");
    assert!(out.contains("Ann rolled a 1 and moved from 1 to 2"), "{out}");
    assert!(out.contains("Bob rolled a 2 and moved from 1 to 3"), "{out}");
}

#[test]
fn a_chain_of_jumps_is_told_jump_by_jump() {
    let out = told(&["--jumps", "chain", "--rolls", "3"], &["Ann:easy", "Bob:easy"]);
    let first = out.find("A ladder at 3 took Ann up to 8").expect(&out);
    let second = out.find("A ladder at 8 took Ann up to 15").expect(&out);
    assert!(first < second, "{out}");
    // Under single jumps the token stops at the first ladder's top.
    let single = told(&["--rolls", "3"], &["Ann:easy", "Bob:easy"]);
    assert!(!single.contains("A ladder at 8"), "{single}");
}

#[test]
fn under_finish_all_the_game_goes_on_after_the_winner_and_ranks_everyone() {
    let rolls = "6,1,1,6,1,1,6,1,1,6,1,1,6,6,1,5,1,6,1,6";
    let seats = ["Ann:easy", "Bob:easy", "Cy:easy"];
    let out = told(&["--finish", "all", "--overshoot", "win", "--rolls", rolls], &seats);
    let won = out.find("Ann reached 30 and wins!").expect(&out);
    let second = out.find("Bob reached 30 and finishes 2nd").expect(&out);
    assert!(won < second, "{out}");
    assert!(out.contains("  1. Ann (on 30)\n  2. Bob (on 30)\n  3. Cy (on 12)"), "{out}");
}

#[test]
fn the_game_clock_counts_down_in_the_prompt() {
    let mut args = crate::clocks::GAME_TIME.to_vec();
    args.push("--plain");
    let run = snl_with_input(&args, "\n\n\n\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The prompts go where the questions go (standard error), the story to standard output.
    let first = run.stderr.find("0:05 of the game left").expect(&run.stderr);
    let later = run.stderr.find("0:02 of the game left").expect(&run.stderr);
    assert!(first < later, "{}", run.stderr);
    assert!(run.stdout.contains("Time is up: the game ends with this round."), "{}", run.stdout);
}

#[test]
fn the_line_setup_offers_a_random_boards_size_and_effects_rules_a_race_clocks_and_the_seed() {
    // Ann (a person) and Bob; then "yes" to the rest: 64 cells with 6 effects, bonus-six,
    // may-pass, a race of 3 rounds, no turn clock, a game clock of 600 s and seed 42. A bad
    // answer is said in one sentence and asked again.
    let answers = "random\n2\nAnn\nhuman\nBob\neasy\nyes\n64\n6\nbonus-seven\nbonus-six\nmay-pass\n\
        race\n3\nnone\n600\n42\n";
    let rolls = "\n".repeat(200);
    let run =
        snl_with_input(&["play", "--setup", "--fast", "--no-record"], &format!("{answers}{rolls}"));
    assert_eq!(run.code, 0, "{}", run.stderr);
    for question in [
        "Change the rules, play a race, set clocks or the seed (yes/no) [no]: ",
        "Cells on the random board [100]: ",
        "Rules (standard, bonus-six, three-sixes, strict-sixes) [standard]: ",
        "Choice rule (none, may-pass, pick-die) [none]: ",
        "Rounds of the race [10]: ",
        "Game clock: seconds the whole game lasts, or none [none]: ",
        "Dice seed (a number, or fresh) [fresh]: ",
    ] {
        assert!(run.stdout.contains(question), "{question} not asked:\n{}", run.stdout);
    }
    assert!(run.stdout.contains("'bonus-seven'"), "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "New game on a board of 64 cells: Ann, Bob. Rules: start off-board, dice 1d6, \
             overshoot stay, jumps single, bonus top-face (max unlimited, on-max pass), finish \
             first, choice may-pass, race of 3 rounds."
        ),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("Skip     (x)"), "the effects are on the board:\n{}", run.stdout);
    assert!(run.stderr.contains("10:00 of the game left"), "{}", run.stderr);
    // The same seed, the same game.
    let again =
        snl_with_input(&["play", "--setup", "--fast", "--no-record"], &format!("{answers}{rolls}"));
    let story =
        |out: &str| out.lines().filter(|l| l.contains(" rolled ")).collect::<Vec<_>>().join("\n");
    assert_eq!(story(&again.stdout), story(&run.stdout));
    // Without "yes", or when the input ends before it, the setup keeps its defaults.
    let short = snl_with_input(
        &["play", "--setup", "--seed", "2", "--fast", "--no-record"],
        "kids\n2\nAnn\neasy\nBob\neasy\n",
    );
    assert_eq!(short.code, 0, "{}", short.stderr);
    assert!(
        short.stdout.contains("New game on a board of 50 cells: Ann, Bob. Rules: start off-board"),
        "{}",
        short.stdout
    );
}
