//! Achievements earned in recorded games, listed by `snl stats --player NAME` with their dates.

use crate::util::{TempDir, snl, snl_json};

/// On the classic board the first seat wins in 21 rolls: Ann 6⇒25, …, 46⇒90, 94, 99⇒54 (bitten
/// on 99), 60⇒85, 91, 97, 100; Bob 5, 10, 16, 17⇒69 (a 52-cell ladder), 70⇒55, …, 60⇒85.
const FIRST_SEAT_WINS: &str = "6,5,6,5,6,6,6,1,3,1,4,1,5,1,6,1,6,1,6,1,3";

fn scripted_game(db: &str) {
    let run = snl(&[
        "play",
        "--rolls",
        FIRST_SEAT_WINS,
        "--player",
        "Ann:easy",
        "--player",
        "Bob:easy",
        "--db",
        db,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

fn keys(stats: &serde_json::Value) -> Vec<&str> {
    let list = stats["achievements"].as_array().expect("an achievements array");
    list.iter().map(|a| a["achievement"].as_str().unwrap()).collect()
}

#[test]
fn a_scripted_game_awards_a_first_win_and_a_ladder_of_fifty_with_their_dates() {
    let dir = TempDir::new("achievements");
    let db = dir.file("games.db");
    scripted_game(&db);
    let ann = snl_json(&["stats", "--player", "Ann", "--json", "--db", &db]);
    assert_eq!(keys(&ann), ["first_win", "bitten_and_won"]);
    let first = &ann["achievements"][0];
    assert_eq!((first["title"].as_str(), first["game"].as_u64()), (Some("First win"), Some(1)));
    assert!(first["at_ms"].as_u64().unwrap() > 1_700_000_000_000, "{first}");
    let bob = snl_json(&["stats", "--player", "Bob", "--json", "--db", &db]);
    assert_eq!(keys(&bob), ["long_ladder"]);

    let text = snl(&["stats", "--player", "Bob", "--db", &db]);
    let lines: Vec<&str> = text.stdout.lines().skip_while(|l| *l != "Achievements:").collect();
    assert_eq!(lines[1], "ACHIEVEMENT  FOR                                   EARNED (UTC)      IN");
    assert!(
        lines[2].starts_with("Sky ladder   climbed a ladder of 50 cells or more  20"),
        "{}",
        lines[2]
    );
    assert!(lines[2].ends_with("  game 1"), "{}", lines[2]);
}

#[test]
fn an_achievement_is_kept_once_with_the_game_it_was_first_earned_in() {
    let dir = TempDir::new("achievements-once");
    let db = dir.file("games.db");
    scripted_game(&db);
    scripted_game(&db);
    let ann = snl_json(&["stats", "--player", "Ann", "--json", "--db", &db]);
    assert_eq!(ann["wins"], 2);
    assert_eq!(keys(&ann), ["first_win", "bitten_and_won"]);
    assert_eq!(ann["achievements"][0]["game"], 1);
    // Someone seated only in a game not finished has none.
    let args = ["play", "--seed", "1", "--stop-after", "2", "--player", "Zed:easy", "--db", &db];
    assert_eq!(snl(&[&args[..], &["--player", "Cy:easy"]].concat()).code, 0);
    let zed = snl_json(&["stats", "--player", "Zed", "--json", "--db", &db]);
    assert_eq!(zed["achievements"], serde_json::json!([]));
}
