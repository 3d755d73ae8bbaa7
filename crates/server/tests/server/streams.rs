//! A connection's memory is bounded (issue 28 V2): the events a connection missed are read from
//! the storage and sent a page at a time, each page when the client took the last; a client that
//! reads nothing is cut off; a late page asks for the room's last events only, which the room
//! keeps in memory. Run against a server process of its own, so its peak memory is measured.

use std::time::Duration;

use futures_util::SinkExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};

use crate::support::{Client, TestDir, gap_free, http, process::ServerProcess};

/// Sixteen computers on a long board with no ladder: a game of many thousand events, played at
/// once.
fn long_game() -> Value {
    let seats: Vec<Value> = (0..16).map(|_| json!({"kind": "easy"})).collect();
    json!({"board": {"size": 1000, "snake": [], "ladder": []}, "seats": seats, "seed": 5})
}

/// A WebSocket that says hello with `since` 0 and then reads nothing, its receive buffer as
/// small as the system allows.
async fn non_reader(
    addr: std::net::SocketAddr,
    room: &str,
) -> tokio_tungstenite::WebSocketStream<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(1024).unwrap();
    let tcp = socket.connect(addr).await.unwrap();
    let request = format!("ws://{addr}/api/rooms/{room}/ws").into_client_request().unwrap();
    let (mut ws, _) = tokio_tungstenite::client_async(request, tcp).await.unwrap();
    let hello = json!({"type": "hello", "token": null, "since": 0}).to_string();
    ws.send(Message::Text(hello.into())).await.unwrap();
    ws
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_that_read_nothing_are_cut_off_and_hold_no_history_while_others_read_it_all() {
    const NON_READERS: usize = 30;
    let dir = TestDir::new("streams");
    let mut server = ServerProcess::start(dir.path(), Duration::from_millis(500));
    let addr = server.addr;
    let (status, created) = http(addr, "POST", "/api/rooms", Some(&long_game().to_string())).await;
    assert_eq!(status, 201, "{created}");
    let room = created["room"].as_str().unwrap().to_owned();
    let (_, state) = http(addr, "GET", &format!("/api/rooms/{room}"), None).await;
    let last = state["seq"].as_u64().unwrap();
    assert!(last > 10_000, "a long history: {last} events");
    let before = server.peak_kib();

    let mut idle = Vec::new();
    for _ in 0..NON_READERS {
        idle.push(non_reader(addr, &room).await);
    }
    // Each is cut off once it has read nothing for the send time.
    for _ in 0..NON_READERS {
        server.line_with(&format!("a connection to room {room} is cut off")).await;
    }
    // A spectator that reads gets the whole history, in order, none lost.
    let mut reader = Client::connect(addr, &room, None).await.unwrap();
    let welcome = reader.hello(None, Some(0)).await;
    assert_eq!(welcome["seq"], last);
    let mut frames = Vec::new();
    while frames.len() < usize::try_from(last).unwrap() {
        let frame = reader.frame().await;
        if frame["type"] == "event" {
            frames.push(frame);
        }
    }
    assert!(gap_free(&frames, 1), "every event once, in order");
    // A late page asks for the last events only, and gets those after the welcome.
    let mut page = Client::connect(addr, &room, None).await.unwrap();
    page.send(json!({"type": "hello", "token": null, "since": null, "recent": 20})).await;
    assert_eq!(page.frame().await["type"], "welcome");
    let recent: Vec<Value> = {
        let mut recent = Vec::new();
        for _ in 0..20 {
            recent.push(page.frame().await);
        }
        recent
    };
    assert!(gap_free(&recent, last - 19), "the last 20 events");
    page.send(json!({"type": "roll"})).await;
    assert_eq!(page.frame().await["type"], "error", "nothing more came before the answer");
    // The non-readers' histories were never held whole: the server grew by less than the
    // history's size for each of them (a page and a write buffer at most).
    let grown_kib = server.peak_kib().saturating_sub(before);
    let history_kib = frames.iter().map(|f| f.to_string().len() as u64).sum::<u64>() / 1024;
    eprintln!("history {history_kib} KiB; server peak {before} KiB before, grew {grown_kib} KiB");
    assert!(
        grown_kib < NON_READERS as u64 * history_kib / 4,
        "{NON_READERS} non-readers of a {history_kib} KiB history grew the server by {grown_kib} KiB"
    );
    drop(idle);
    assert!(server.stop());
}
