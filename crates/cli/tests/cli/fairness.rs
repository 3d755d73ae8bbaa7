//! Fair play anyone can check: `snl verify` re-derives a game's rolls from its seed, and
//! `snl stats --dice` counts each player's faces against even chances.

use serde_json::{Value, json};
use snl_session::fairness::{commitment, room_seed, unhex};

use crate::{
    online::{Served, http, serve},
    util::{TempDir, assert_fails, snl, snl_json, snl_with_input},
};

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

/// A room of a person's seat and a hard computer, its dice drawn by the server (no seed named):
/// its address, its id and the commitment its state publishes.
fn committed_room(served: &Served) -> (String, String, String) {
    let request = json!({"seats": [{"kind": "human"}, {"kind": "hard", "name": "Robo"}]});
    let answer = http(&served.addr, "POST", "/api/rooms", &request.to_string());
    let id = answer["room"].as_str().unwrap().to_owned();
    let state = http(&served.addr, "GET", &format!("/api/rooms/{id}"), "");
    let fairness = &state["fairness"];
    let published = fairness["commitment"].as_str().unwrap().to_owned();
    assert_eq!(published.len(), 64, "{fairness}");
    assert_eq!((&fairness["secret"], &fairness["seed"]), (&Value::Null, &Value::Null));
    assert_eq!(fairness["seat_seeds"], json!([null, ""]), "the person's seat is open");
    (format!("http://{}/room/{id}", served.addr), id, published)
}

#[test]
fn verify_checks_a_finished_online_room_by_its_address_from_the_commitment_published_first() {
    let mut served = serve();
    let (url, id, published) = committed_room(&served);
    let lobby = http(&served.addr, "GET", "/api/rooms", "");
    assert_eq!(lobby["rooms"][0]["commitment"].as_str(), Some(published.as_str()));
    assert_fails(&snl(&["verify", &url]), 2, &["is not over", "revealed at the end"]);
    // Stored: the same commitment after a restart, and the secret behind it.
    served.kill_and_restart();
    let state = http(&served.addr, "GET", &format!("/api/rooms/{id}"), "");
    assert_eq!(state["fairness"]["commitment"].as_str(), Some(published.as_str()));
    assert_eq!(state["turns"], 0, "published before the first roll");

    let joined = snl_with_input(&["join", &url, "--name", "Ann"], &"\n".repeat(2000));
    assert_eq!(joined.code, 0, "{}", joined.stderr);
    let state = http(&served.addr, "GET", &format!("/api/rooms/{id}"), "");
    let fairness = &state["fairness"];
    let secret = unhex(fairness["secret"].as_str().expect("revealed at the end")).unwrap();
    assert_eq!(commitment(&secret), published, "the revealed secret is the one committed to");
    let seeds: Vec<String> = fairness["seat_seeds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(seeds[0].len(), 32, "snl join gives a seed of its own: {seeds:?}");
    assert_eq!(fairness["seed"].as_u64(), Some(room_seed(&secret, &seeds)));

    let run = snl(&["verify", &url]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rolls =
        snl_json(&["history", "1", "--json", "--db", served.db()]).as_array().unwrap().len();
    let said = format!("room {url}: all {rolls} rolls verified");
    assert!(run.stdout.starts_with(&said), "{}", run.stdout);
    assert!(run.stdout.contains(&published), "{}", run.stdout);
    let run = snl(&["verify", "1", "--db", served.db()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with(&format!("game 1: all {rolls} rolls")), "{}", run.stdout);
}

#[test]
fn verify_fails_on_an_online_rooms_game_whose_stored_roll_was_changed() {
    let mut served = serve();
    let (url, _, _) = committed_room(&served);
    let joined = snl_with_input(&["join", &url, "--name", "Ann"], &"\n".repeat(2000));
    assert_eq!(joined.code, 0, "{}", joined.stderr);
    served.kill();
    // The third move's roll changed to another move's, in the recorded game's row (written
    // again whole, its digest too, as someone editing it would: the digest catches accidents).
    let db = rusqlite::Connection::open(served.db()).unwrap();
    let text: String =
        db.query_row("SELECT save FROM games WHERE id = 1", [], |r| r.get(0)).unwrap();
    let mut save = snl_store::Save::from_json(text.as_bytes()).unwrap();
    assert!(save.dice.room().is_some_and(|r| !r.secret.is_empty()), "the secret is recorded");
    let history = &mut save.game.history;
    let other = history.iter().map(|m| m.roll).find(|&r| r != history[2].roll).unwrap();
    history[2].roll = other;
    db.execute("UPDATE games SET save = ?1 WHERE id = 1", [save.to_json()]).unwrap();
    drop(db);
    let run = snl(&["verify", "1", "--db", served.db()]);
    assert_fails(&run, 1, &["game 1 is not verified", "for move 3 of the history"]);
}
