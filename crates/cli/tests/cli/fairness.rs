//! Fair play anyone can check: `snl verify` re-derives a game's rolls from its seed, and
//! `snl stats --dice` counts each player's faces against even chances.

use crate::util::{TempDir, assert_fails, snl, snl_json};

fn seeded_game(dir: &TempDir, seed: &str, board: &str) -> (String, String) {
    let (save, db) = (dir.file("game.json"), dir.file("games.db"));
    let run = snl(&[
        "play", "--seed", seed, "--board", board, "--player", "Ann:easy", "--player", "Bob:easy",
        "--save", &save, "--db", &db,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    (save, db)
}

#[test]
fn verify_rederives_every_roll_of_a_save_and_of_a_recorded_game_from_its_seed() {
    let dir = TempDir::new("verify");
    let (save, db) = seeded_game(&dir, "7", "party");
    let history = snl_json(&["history", "1", "--json", "--db", &db]);
    let rolls = history.as_array().unwrap().len();
    let run = snl(&["verify", &save]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let said = format!("all {rolls} rolls");
    assert!(run.stdout.contains(&said) && run.stdout.contains("seed 7 gives"), "{}", run.stdout);
    let run = snl(&["verify", "1", "--db", &db]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with(&format!("game 1: {said}")), "{}", run.stdout);
}

#[test]
fn verify_refuses_dice_that_are_not_what_the_seed_gives_and_rolls_given_by_hand() {
    let dir = TempDir::new("verify-bad");
    let (save, _) = seeded_game(&dir, "7", "classic");
    let text = std::fs::read_to_string(&save).unwrap();
    let edited =
        text.replacen("\"seed\":7", "\"seed\":8", 1).replacen("\"seed\": 7", "\"seed\": 8", 1);
    assert_ne!(edited, text, "the save names its seed");
    std::fs::write(&save, edited).unwrap();
    let run = snl(&["verify", &save]);
    assert_fails(&run, 1, &["is not verified", "seed 8"]);

    let db = dir.file("scripted.db");
    let run = snl(&[
        "play",
        "--rolls",
        "6,5,6",
        "--stop-after",
        "1",
        "--db",
        &db,
        "--player",
        "A:easy",
        "--player",
        "B:easy",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_fails(&snl(&["verify", "1", "--db", &db]), 1, &["given by hand (--rolls)"]);
    assert_fails(&snl(&["verify", "nothing-here", "--db", &db]), 2, &["'nothing-here'"]);
}

#[test]
fn dice_statistics_match_a_hand_count_of_the_recorded_rolls() {
    let dir = TempDir::new("dice-stats");
    let (_, db) = seeded_game(&dir, "11", "classic");
    let moves = snl_json(&["history", "1", "--json", "--db", &db]);
    let mut ann = [0_u64; 6];
    for m in moves.as_array().unwrap().iter().filter(|m| m["player"] == "Ann") {
        for face in m["dice"].as_array().unwrap() {
            ann[face.as_u64().unwrap() as usize - 1] += 1;
        }
    }
    let stats = snl_json(&["stats", "--dice", "--player", "Ann", "--json", "--db", &db]);
    let row = &stats[0];
    assert_eq!((row["player"].as_str(), row["faces"].as_u64()), (Some("Ann"), Some(6)));
    let counted: Vec<u64> =
        row["counts"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect();
    assert_eq!(counted, ann);
    let throws: u64 = ann.iter().sum();
    let expected = throws as f64 / 6.0;
    let chi: f64 = ann.iter().map(|&c| (c as f64 - expected).powi(2) / expected).sum();
    assert!((row["chi_square"].as_f64().unwrap() - chi).abs() < 1e-9, "{row}");
    let p = row["p_value"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&p));
    let verdict = if p >= 0.01 { "nothing unusual" } else { "rarer than" };
    assert!(row["verdict"].as_str().unwrap().starts_with(verdict), "{row}");

    let all = snl(&["stats", "--dice", "--db", &db]);
    assert_eq!(all.code, 0, "{}", all.stderr);
    let lines: Vec<&str> = all.stdout.lines().collect();
    assert!(lines[0].starts_with("PLAYER") && lines[0].contains("VERDICT"), "{}", all.stdout);
    assert!(lines.iter().any(|l| l.starts_with("everyone")), "{}", all.stdout);
    assert_fails(&snl(&["stats", "--dice", "--player", "Nobody", "--db", &db]), 2, &["'Nobody'"]);
}
