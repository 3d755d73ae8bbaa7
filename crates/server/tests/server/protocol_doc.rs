//! Every example in `docs/protocol.md` is one the server takes: requests are sent to a real
//! server, client frames are sent on a real connection, server frames read into the server's
//! frame types (the lobby stream's too), responses are JSON.

use serde_json::{Value, json};
use snl_server::frames::{ClientFrame, LobbyFrame, ServerFrame};

use crate::support::Server;

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
        let value: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
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
            "client" => {
                serde_json::from_value::<ClientFrame>(value)
                    .unwrap_or_else(|e| panic!("{e}: {text}"));
            }
            "server" => {
                serde_json::from_value::<ServerFrame>(value)
                    .unwrap_or_else(|e| panic!("{e}: {text}"));
            }
            "lobby" => {
                serde_json::from_value::<LobbyFrame>(value)
                    .unwrap_or_else(|e| panic!("{e}: {text}"));
            }
            "board-check" => {
                let (status, body) = server.http("POST", "/api/boards/check", Some(text)).await;
                assert_eq!(status, 200, "{text}: {body}");
                assert!(body["valid"].is_boolean(), "{text}: {body}");
            }
            "response" => {}
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
