//! The lobby stream (`/api/lobby/ws`) on one server, on real loopback sockets: the rooms listed
//! first, then each change as another client makes it — a room opened, a seat taken, a game
//! started, a game over — with no polling; and the stream takes nothing from its clients.

use serde_json::json;

use crate::support::{Client, Server};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_stream_tells_rooms_opened_seats_taken_and_games_over_as_they_happen() {
    let server = Server::start("lobby-stream").await;
    let two = json!({"seats": [{"kind": "human"}, {"kind": "human"}]});
    let earlier = server.room(two.clone()).await;
    let mut stream = Client::lobby(server.addr, None).await.unwrap();
    let first = stream.frame().await;
    assert_eq!(first["type"], "lobby", "{first}");
    let rooms = first["rooms"].as_array().unwrap();
    assert_eq!(rooms.len(), 1, "{first}");
    assert_eq!(rooms[0]["room"], earlier.as_str());

    // Another client opens a room and takes its seats: the stream tells each change.
    let room = server.room(two).await;
    let opened = stream.change_of(&room).await;
    assert_eq!(opened["type"], "room");
    assert_eq!(opened["entry"]["status"], "open");
    assert_eq!(opened["entry"]["seats"][0]["open"], true);
    server.claim(&room, 0, "Ann").await;
    let taken = stream.change_of(&room).await;
    assert_eq!(taken["entry"]["seats"][0]["name"], "Ann");
    assert_eq!(taken["entry"]["seats"][0]["open"], false);
    assert_eq!(taken["entry"]["status"], "open");
    server.claim(&room, 1, "Bob").await;
    let started = stream.change_of(&room).await;
    assert_eq!(started["entry"]["status"], "running");
    let (_, lobby) = server.http("GET", "/api/rooms", None).await;
    let listed = lobby["rooms"].as_array().unwrap().iter().find(|r| r["room"] == room.as_str());
    assert_eq!(Some(&started["entry"]), listed, "the stream tells what the list says");

    // A room of computers plays at once (no pause in tests) and leaves the lobby when over.
    let bots = json!({"seats": [{"kind": "easy", "name": "E"}, {"kind": "greedy", "name": "G"}]});
    let played = server.room(bots).await;
    loop {
        let frame = stream.change_of(&played).await;
        if frame["type"] == "gone" {
            break;
        }
        assert_ne!(frame["entry"]["status"], "open", "{frame}");
    }
    let (_, lobby) = server.http("GET", "/api/rooms", None).await;
    assert!(lobby["rooms"].as_array().unwrap().iter().all(|r| r["room"] != played.as_str()));
}

#[tokio::test]
async fn the_lobby_stream_is_read_only_and_only_for_the_servers_own_pages() {
    let server = Server::start("lobby-hostile").await;
    let mut stream = Client::lobby(server.addr, None).await.unwrap();
    assert_eq!(stream.frame().await["type"], "lobby");
    stream.send(json!({"type": "hello", "token": null, "since": null})).await;
    assert_eq!(stream.close_code().await, Some(1008), "a data frame closes it (policy)");

    let foreign = Client::lobby(server.addr, Some("http://evil.example")).await;
    let refused = foreign.err().expect("a page from another origin is refused").to_string();
    assert!(refused.contains("403"), "{refused}");
    let own = format!("http://{}", server.addr);
    let mut page = Client::lobby(server.addr, Some(&own)).await.unwrap();
    assert_eq!(page.frame().await["type"], "lobby");
}
