//! Every example in `docs/protocol.md` is a value of its type in `snl-wire`, read and written
//! back unchanged (field for field, in order), and one the server takes: requests are sent to a
//! real server, client frames are sent on a real connection.

use crate::support::Server;
use serde::{Serialize, de::DeserializeOwned};
use serde_json::{Value, json};
use snl_wire::{
    api::{
        BoardCheck, BoardCheckAnswer, DiceAnswer, ErrorBody, GameAt, GamePage, OddsAnswer,
        RecordedGame,
    },
    frames::{ClientFrame, LobbyFrame, ServerFrame},
    rooms::{Claim, ClaimAnswer, CreateRoom, Created, RoomState, Rooms},
};

/// `text` read as a `T` and written back: the same JSON, field for field and in order.
fn round_trip<T: Serialize + DeserializeOwned>(text: &str) {
    let typed: T = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let written = serde_json::to_string(&typed).unwrap();
    // Read as plain JSON (which keeps the order of fields), the text written compactly.
    let original = serde_json::to_string(&serde_json::from_str::<Value>(text).unwrap()).unwrap();
    assert_eq!(written, original, "the example does not come back unchanged from its type");
}

/// Reads the example labelled `label` into its type and back.
fn round_trip_labelled(label: &str, text: &str) {
    match label {
        "create-room" => round_trip::<CreateRoom>(text),
        "claim" => round_trip::<Claim>(text),
        "board-check" => round_trip::<BoardCheck>(text),
        "client" => round_trip::<ClientFrame>(text),
        "server" => round_trip::<ServerFrame>(text),
        "lobby" => round_trip::<LobbyFrame>(text),
        "response error" => round_trip::<ErrorBody>(text),
        "response created" => round_trip::<Created>(text),
        "response claimed" => round_trip::<ClaimAnswer>(text),
        "response next" => round_trip::<snl_wire::rooms::NextGame>(text),
        "response rooms" => round_trip::<Rooms>(text),
        "response room" => round_trip::<RoomState>(text),
        "response odds" => round_trip::<OddsAnswer>(text),
        "response dice" => round_trip::<DiceAnswer>(text),
        "response board-check" => round_trip::<BoardCheckAnswer>(text),
        "response games" => round_trip::<GamePage>(text),
        "response game" => round_trip::<RecordedGame>(text),
        "response game-at" => round_trip::<GameAt>(text),
        other => panic!("an example labelled '{other}'"),
    }
}

#[test]
fn every_example_in_the_protocol_document_comes_back_unchanged_from_its_type() {
    let blocks = examples();
    assert!(blocks.iter().filter(|(l, _)| l.starts_with("response ")).count() >= 10);
    for (label, text) in &blocks {
        round_trip_labelled(label, text);
    }
}

/// Each fenced block's label (`json client`, …) and text.
fn examples() -> Vec<(String, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/protocol.md");
    let text = std::fs::read_to_string(path).unwrap();
    let mut blocks = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if let Some(label) = line.strip_prefix("```json") {
            let body: Vec<&str> = lines.by_ref().take_while(|l| !l.starts_with("```")).collect();
            blocks.push((label.trim().to_owned(), body.join("\n")));
        }
    }
    blocks
}

#[tokio::test]
async fn every_example_in_the_protocol_document_is_accepted() {
    let blocks = examples();
    let count = |label: &str| blocks.iter().filter(|(l, _)| l == label).count();
    assert!(count("client") >= 6 && count("server") >= 6 && count("create-room") >= 3);
    assert!(count("board-check") >= 2 && count("lobby") >= 3);
    let server = Server::start("protocol-doc").await;
    let mut rooms = Vec::new();
    for (label, text) in &blocks {
        serde_json::from_str::<Value>(text).unwrap_or_else(|e| panic!("{e}: {text}"));
        match label.as_str() {
            "create-room" => {
                let (status, body) = server.http("POST", "/api/rooms", Some(text)).await;
                assert_eq!(status, 201, "{text}: {body}");
                rooms.push(body["room"].as_str().unwrap().to_owned());
            }
            "claim" => {
                let path = format!("/api/rooms/{}/seats/0", rooms[0]);
                let (status, body) = server.http("POST", &path, Some(text)).await;
                assert_eq!(status, 200, "{text}: {body}");
            }
            // Read into their types above.
            "client" | "server" | "lobby" => {}
            "board-check" => {
                let (status, body) = server.http("POST", "/api/boards/check", Some(text)).await;
                assert_eq!(status, 200, "{text}: {body}");
                assert!(body["valid"].is_boolean(), "{text}: {body}");
            }
            other if other.starts_with("response ") => {}
            other => panic!("an example labelled '{other}'"),
        }
    }
    // The client frames on a real connection: hello first, then each intent is answered as a
    // frame of the protocol (never bad_message).
    let room = server.room(json!({"seats": [{"kind": "human"}, {"kind": "human"}]})).await;
    let token = server.claim(&room, 0, "Ann").await;
    server.claim(&room, 1, "Bob").await;
    let mut client = server.connect(&room).await;
    client.hello(Some(&token), None).await;
    for (label, text) in &blocks {
        if label != "client" || text.contains("hello") {
            continue;
        }
        client.send_text(text).await;
        let answer = loop {
            let frame = client.frame().await;
            if frame["type"] == "error"
                || (frame["type"] == "event" && frame["event"]["type"] != "presence")
            {
                break frame;
            }
        };
        assert_ne!(answer["code"], "bad_message", "{text}: {answer}");
    }
}
