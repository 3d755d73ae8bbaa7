//! `GET /api/rooms/{room}/dice` over real sockets: each seat's faces equal a count by hand of
//! the dice its events rolled, in the room's game and over the player's recorded games, and
//! the chi-square worked out here from those counts.

use std::collections::HashMap;

use serde_json::{Value, json};

use crate::{insight::record_local_game, support::Server};

/// Each player's faces 1 to 6, counted from `events` (`dice_rolled`, by name).
fn count_by_hand(events: &[Value]) -> HashMap<String, [u64; 6]> {
    let mut counts: HashMap<String, [u64; 6]> = HashMap::new();
    for event in events.iter().filter(|e| e["type"] == "dice_rolled") {
        let player = event["player"].as_str().unwrap().to_owned();
        for face in event["dice"].as_array().unwrap() {
            counts.entry(player.clone()).or_default()[face.as_u64().unwrap() as usize - 1] += 1;
        }
    }
    counts
}

/// Pearson's chi-square of `counts` against even chances, worked out here.
fn chi_square(counts: &[u64; 6]) -> f64 {
    let expected = counts.iter().sum::<u64>() as f64 / 6.0;
    counts.iter().map(|&c| (c as f64 - expected).powi(2) / expected).sum()
}

fn assert_test(test: &Value, counts: &[u64; 6], what: &str) {
    let want: Vec<Value> = counts.iter().map(|&c| json!(c)).collect();
    assert_eq!(test["counts"].as_array().unwrap(), &want, "{what}: {test}");
    assert_eq!(test["throws"], counts.iter().sum::<u64>(), "{what}: {test}");
    let chi = test["chi_square"].as_f64().unwrap();
    assert!((chi - chi_square(counts)).abs() < 1e-9, "{what}: {chi} vs {}", chi_square(counts));
    let verdict = test["verdict"].as_str().unwrap();
    assert!(test["text"].as_str().unwrap().ends_with(verdict), "{what}: {test}");
}

#[tokio::test]
async fn a_rooms_dice_match_a_hand_count_of_its_rolls_and_the_players_recorded_games() {
    let server = Server::start("dice").await;
    // Ann's recorded history: a seeded local game of hers in the server's database.
    let (_, recorded) = record_local_game(&server.dir.path().join("games.db"));
    let history = count_by_hand(&recorded);

    let room =
        server.room(json!({"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 11})).await;
    let path = format!("/api/rooms/{room}/dice");
    let (status, before) = server.http("GET", &path, None).await;
    assert_eq!(status, 200, "{before}");
    assert_eq!(before["faces"], 6);
    assert_eq!(before["seats"][0]["name"], Value::Null);
    assert_eq!(before["seats"][0]["game"]["text"], "no throws");

    let ann = server.claim(&room, 0, "Ann").await;
    let zed = server.claim(&room, 1, "Zed").await;
    let mut a = server.connect(&room).await;
    let mut z = server.connect(&room).await;
    a.hello(Some(&ann), None).await;
    z.hello(Some(&zed), None).await;
    let mut events = Vec::new();
    // Every event read from Ann's connection: each turn's roll, then the next input announced.
    for turn in 0..10 {
        let client = if turn % 2 == 0 { &mut a } else { &mut z };
        client.send(json!({"type": "roll"})).await;
        let mut rolled = false;
        loop {
            let frame = a.frame().await;
            if frame["type"] == "event" {
                rolled |= frame["event"]["type"] == "dice_rolled";
                events.push(frame["event"].clone());
            }
            if rolled && frame["type"] == "awaiting" {
                break;
            }
        }
    }
    let game = count_by_hand(&events);
    let (status, dice) = server.http("GET", &path, None).await;
    assert_eq!(status, 200, "{dice}");
    assert!(dice["history_over"].as_str().unwrap().contains("1,000"), "{dice}");
    let seats = dice["seats"].as_array().unwrap();
    assert_eq!((seats[0]["name"].as_str(), seats[1]["name"].as_str()), (Some("Ann"), Some("Zed")));
    assert_test(&seats[0]["game"], &game["Ann"], "Ann's game");
    assert_test(&seats[1]["game"], &game["Zed"], "Zed's game");
    assert_test(&seats[0]["history"], &history["Ann"], "Ann's history");
    assert_eq!(seats[0]["history_games"], 1);
    // Zed never played a recorded game: an empty history, said so.
    assert_eq!(seats[1]["history_games"], 0);
    assert_eq!(seats[1]["history"]["throws"], 0);
    assert_eq!(seats[1]["history"]["text"], "no throws");

    // Another game of Ann's recorded: her kept history is read again, both games counted.
    let (_, more) = record_local_game(&server.dir.path().join("games.db"));
    let mut both = history["Ann"];
    for (total, more) in both.iter_mut().zip(count_by_hand(&more)["Ann"]) {
        *total += more;
    }
    let (_, dice) = server.http("GET", &path, None).await;
    assert_test(&dice["seats"][0]["history"], &both, "Ann's two games");
    assert_eq!(dice["seats"][0]["history_games"], 2);

    let (status, missing) = server.http("GET", "/api/rooms/nosuchroom/dice", None).await;
    assert_eq!(status, 404, "{missing}");
    assert_eq!(missing["error"]["code"], "no_such_room", "{missing}");
}
