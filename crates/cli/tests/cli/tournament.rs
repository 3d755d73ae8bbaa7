//! `snl tournament`: strategies against each other, seats rotated, win rates with intervals.

use crate::util::*;

const GAME: [&str; 12] = [
    "tournament",
    "--choice",
    "pick-die",
    "--player",
    "A:easy",
    "--player",
    "B:greedy",
    "--player",
    "C:hard",
    "--games",
    "3000",
    "--json",
];

#[test]
fn json_gives_each_player_its_wins_and_a_95_percent_interval() {
    let v = snl_json(&[&GAME[..], &["--seed", "11"]].concat());
    assert_eq!(v["games"], 3000);
    assert_eq!(v["seed"], 11);
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), 3);
    let wins: u64 = players.iter().map(|p| p["wins"].as_u64().unwrap()).sum();
    assert_eq!(wins, 3000);
    for p in players {
        let rate = p["win_rate"].as_f64().unwrap();
        let ci = p["ci95_win_rate"].as_array().unwrap();
        assert!(ci[0].as_f64().unwrap() < rate && rate < ci[1].as_f64().unwrap(), "{p}");
    }
    assert_eq!(players[2]["strategy"], "hard");
    // Hard beats greedy beats easy, beyond their intervals.
    let lo = |p: &serde_json::Value| p["ci95_win_rate"][0].as_f64().unwrap();
    let hi = |p: &serde_json::Value| p["ci95_win_rate"][1].as_f64().unwrap();
    assert!(lo(&players[2]) > hi(&players[1]) && lo(&players[1]) > hi(&players[0]), "{v}");
    assert_eq!(v["strategies"]["hard"]["wins"], players[2]["wins"]);
    assert_eq!(v["seat_wins"].as_array().unwrap().len(), 3);
}

#[test]
fn a_seed_gives_the_same_standings_on_one_thread_or_two() {
    let run = |threads: &str| {
        let mut v = snl_json(&[&GAME[..], &["--seed", "4", "--threads", threads]].concat());
        let map = v.as_object_mut().unwrap();
        map.remove("threads");
        map.remove("games_per_second");
        v
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn text_lists_the_players_and_says_the_seats_rotate() {
    let run = snl(&["tournament", "--choice", "may-pass", "--games", "600", "--seed", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("Tournament of 600 games on board classic between 3 players (seed 2).")
    );
    assert!(run.stdout.contains("each player moves first in 1 game of 3"), "{}", run.stdout);
    for name in ["Easy", "Greedy", "Hard"] {
        assert!(run.stdout.lines().any(|l| l.trim_start().starts_with(name)), "{}", run.stdout);
    }
    let plain = snl(&["tournament", "--games", "300", "--seed", "2"]);
    assert!(plain.stdout.contains("These rules offer no choice"), "{}", plain.stdout);
}

#[test]
fn players_who_share_a_strategy_are_also_counted_together() {
    let run = snl(&[
        "tournament",
        "--choice",
        "may-pass",
        "--player",
        "A:hard",
        "--player",
        "B:hard",
        "--player",
        "C:easy",
        "--games",
        "300",
        "--seed",
        "1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("By strategy (its players together):"), "{}", run.stdout);
    let by_strategy = table(&run.stdout, "strategy   players");
    assert_eq!(by_strategy.len(), 2, "{}", run.stdout);
    assert!(by_strategy[1].starts_with("  hard             2   "), "{}", run.stdout);
    assert_right_edge_lines_up(&by_strategy);
    let players = table(&run.stdout, "player ");
    assert_eq!(players.len(), 4, "{}", run.stdout);
    assert_right_edge_lines_up(&players);
    assert_no_scientific_notation(&run.stdout);
}

#[test]
fn people_and_lone_players_cannot_hold_a_tournament() {
    let run = snl(&["tournament", "--player", "Ann:human", "--player", "B:easy"]);
    assert_fails(&run, 2, &["'Ann:human' cannot play a tournament"]);
    let run = snl(&["tournament", "--player", "B:easy"]);
    assert_fails(&run, 2, &["at least 2 players"]);
    let run = snl(&["tournament", "--games", "0"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

#[test]
fn a_tournament_on_the_party_board_plays_its_effects_from_the_seed() {
    let args = [
        "tournament",
        "--board",
        "party",
        "--choice",
        "pick-die",
        "--player",
        "E:easy",
        "--player",
        "H:hard",
        "--games",
        "2000",
        "--seed",
        "5",
        "--json",
    ];
    let first = snl_json(&args);
    let players = first["players"].as_array().unwrap();
    assert_eq!(first["games"], 2000);
    // Hard beats easy beyond their intervals on a board with effects too.
    assert!(players[1]["ci95_win_rate"][0].as_f64() > players[0]["ci95_win_rate"][1].as_f64());
    // Dice and wormhole draws come from the seed: the same seed, the same standings.
    let again = snl_json(&args);
    assert_eq!(first["players"], again["players"]);
    let run = snl(&["solve", "--board", "party", "--mode", "race", "--rounds", "3", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}
