//! Computer seats of kind `win` (SPEC §5): they play a game to the end with their chances shown
//! after each turn, enter tournaments and simulations, and are refused, in one sentence with
//! exit code 2, where playing to win is not solved.

use crate::{strategies::pit_board, util::*};

#[test]
fn win_computers_play_a_game_to_the_end_with_their_chances_after_each_turn() {
    let dir = TempDir::new("win-play");
    let board = pit_board(&dir);
    let args = [
        "play",
        "--no-record",
        "--board",
        &board,
        "--choice",
        "may-pass",
        "--seed",
        "8",
        "--odds",
        "--player",
        "Ann:win",
        "--player",
        "Bob:hard",
        "--player",
        "Cy:win",
    ];
    let run = snl(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let odds: Vec<&str> = run.stdout.lines().filter(|l| l.starts_with("  (chances")).collect();
    assert!(odds.len() > 2, "{}", run.stdout);
    for line in &odds {
        assert!(line.contains("Ann ") && line.contains("Bob ") && line.contains("Cy "), "{line}");
        let percents: u32 = line
            .split(' ')
            .filter_map(|w| w.trim_end_matches([',', ')']).strip_suffix('%'))
            .filter_map(|p| p.parse::<u32>().ok())
            .sum();
        assert!((98..=102).contains(&percents), "{line}");
    }
    assert!(!run.stderr.contains("hard plays instead"), "{}", run.stderr);
    // The same seed plays the same game.
    assert_eq!(snl(&args).stdout, run.stdout);
}

#[test]
fn a_tournament_and_a_simulation_seat_win_players() {
    let dir = TempDir::new("win-tournament");
    let board = pit_board(&dir);
    let v = snl_json(&[
        "tournament",
        "--board",
        &board,
        "--choice",
        "may-pass",
        "--games",
        "2000",
        "--seed",
        "3",
        "--player",
        "W:win",
        "--player",
        "H:hard",
        "--json",
    ]);
    let wins: u64 =
        v["players"].as_array().unwrap().iter().map(|p| p["wins"].as_u64().unwrap()).sum();
    assert_eq!(wins, 2000, "{v}");
    assert_eq!(v["players"][0]["strategy"], "win", "{v}");
    let sim = snl(&[
        "simulate", "--board", &board, "--choice", "may-pass", "--games", "2000", "--player",
        "W:win", "--player", "H:greedy", "--player", "E:easy",
    ]);
    assert_eq!(sim.code, 0, "{}", sim.stderr);
    assert!(sim.stdout.contains("easy, greedy, hard or win"), "{}", sim.stdout);
}

#[test]
fn win_players_are_refused_where_playing_to_win_is_not_solved() {
    let mut five = vec!["tournament", "--choice", "may-pass", "--games", "10"];
    for p in ["A:win", "B:easy", "C:easy", "D:easy", "E:easy"] {
        five.extend(["--player", p]);
    }
    let run = snl(&five);
    assert_fails(&run, 2, &["playing to win is solved for 2 to 4 seats, not 5"]);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    let mut four = vec!["simulate", "--choice", "may-pass", "--games", "10"];
    for p in ["A:win", "B:win", "C:win", "D:win"] {
        four.extend(["--player", p]);
    }
    let run = snl(&four);
    assert_fails(&run, 2, &["playing to win with 4 seats on 100 cells needs"]);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}
