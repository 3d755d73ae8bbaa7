//! The floor for the load generator's back-to-back pattern: a WebSocket server with the paths and
//! frame shapes of `snl serve` that answers each roll at once with frames like a real roll's (three
//! events and the next awaited input, to both players; the game ends after 52 rolls, about a real
//! game's length), with no engine, no storage and no checks. What `load --addr` measures against it
//! is what this machine and this load generator can reach at all with this pattern; the real
//! server's figure sits below it.
//!
//! ```text
//! cargo run --release -p snl-server --example floor -- 127.0.0.1:8090
//! cargo run --release -p snl-server --example load -- --rooms 500 --addr 127.0.0.1:8090 --server-pid PID
//! ```

#![allow(clippy::missing_panics_doc)]

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use axum::{
    Json, Router,
    extract::{
        Path, State,
        ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade},
    },
    http::StatusCode,
    response::IntoResponse,
    routing::{get, post},
    serve::ListenerExt,
};
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::sync::mpsc;

/// Rolls in a game.
const ROLLS: u64 = 52;

type Batch = Arc<Vec<Utf8Bytes>>;

/// A room: its last seq, whose roll it awaits, rolls so far, and its connections.
#[derive(Debug, Default)]
struct Room {
    seq: u64,
    turn: u64,
    rolls: u64,
    connections: Vec<mpsc::UnboundedSender<Batch>>,
}

impl Room {
    /// Seat `seat` rolls: the frames both players get.
    fn roll(&mut self, seat: u64) -> Batch {
        self.rolls += 1;
        let player = if seat == 0 { "Ann" } else { "Bob" };
        let at = self.rolls;
        let mut events = vec![
            format!(r#"{{"type":"dice_rolled","player":"{player}","faces":[4],"total":4}}"#),
            format!(
                r#"{{"type":"moved","player":"{player}","from":{at},"to":{},"roll":4}}"#,
                at + 4
            ),
        ];
        let over = self.rolls >= ROLLS;
        if over {
            events.push(r#"{"type":"game_ended","ranking":["Ann","Bob"]}"#.to_owned());
        } else {
            events.push(format!(r#"{{"type":"turn_ended","player":"{player}"}}"#));
            self.turn = 1 - seat;
        }
        let mut frames: Vec<Utf8Bytes> = events
            .into_iter()
            .map(|event| {
                self.seq += 1;
                format!(r#"{{"type":"event","seq":{},"event":{event}}}"#, self.seq).into()
            })
            .collect();
        if !over {
            let (seq, turn) = (self.seq, self.turn);
            let awaiting = r#""awaiting":{"type":"roll","seat":"#;
            frames.push(format!(r#"{{"type":"awaiting","seq":{seq},{awaiting}{turn}}}}}"#).into());
        }
        Arc::new(frames)
    }
}

#[derive(Debug, Default)]
struct App {
    rooms: Mutex<HashMap<String, Arc<Mutex<Room>>>>,
}

async fn create(State(app): State<Arc<App>>) -> impl IntoResponse {
    let mut rooms = app.rooms.lock().unwrap();
    let id = format!("{:016x}", rooms.len() as u64 + 1);
    rooms.insert(id.clone(), Arc::default());
    (StatusCode::CREATED, Json(json!({"room": id, "seats": []})))
}

async fn claim(Path((_, seat)): Path<(String, u64)>) -> impl IntoResponse {
    Json(json!({"token": format!("token{seat}")}))
}

async fn socket(
    State(app): State<Arc<App>>,
    Path(room): Path<String>,
    upgrade: WebSocketUpgrade,
) -> impl IntoResponse {
    let room = app.rooms.lock().unwrap().get(&room).cloned().unwrap_or_default();
    upgrade
        // The server's buffers (`snl_server::READ_BUFFER`, a 1 KiB write buffer).
        .read_buffer_size(snl_server::READ_BUFFER)
        .write_buffer_size(1024)
        .on_upgrade(move |socket| connection(socket, room))
}

async fn connection(socket: WebSocket, room: Arc<Mutex<Room>>) {
    let (mut sink, mut stream) = socket.split();
    let Some(Ok(Message::Text(hello))) = stream.next().await else { return };
    let seat = u64::from(hello.as_str().contains("token1"));
    let (tx, mut rx) = mpsc::unbounded_channel();
    let seq = {
        let mut room = room.lock().unwrap();
        room.connections.push(tx);
        room.seq
    };
    let state = json!({"awaiting": {"type": "roll", "seat": 0}, "status": "running"});
    let welcome = json!({"type": "welcome", "seat": seat, "seq": seq, "state": state});
    if sink.send(Message::Text(welcome.to_string().into())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            batch = rx.recv() => {
                let Some(batch) = batch else { break };
                let mut ok = true;
                for frame in batch.iter() {
                    ok = ok && sink.feed(Message::Text(frame.clone())).await.is_ok();
                }
                if !ok || sink.flush().await.is_err() {
                    break;
                }
            }
            message = stream.next() => {
                let Some(Ok(Message::Text(text))) = message else { break };
                // Read as the real server reads a frame.
                let _: serde_json::Value = serde_json::from_str(text.as_str()).unwrap_or_default();
                let mut room = room.lock().unwrap();
                if room.turn == seat {
                    let batch = room.roll(seat);
                    for connection in &room.connections {
                        let _ = connection.send(batch.clone());
                    }
                }
            }
        }
    }
}

#[tokio::main]
async fn main() {
    let addr = std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:8090".into());
    let app = Router::new()
        .route("/api/rooms", post(create))
        .route("/api/rooms/{room}/seats/{seat}", post(claim))
        .route("/api/rooms/{room}/ws", get(socket))
        .with_state(Arc::new(App::default()));
    // Each frame sent at once, as the server sends them (its edge sets TCP_NODELAY too): without
    // it the floor's sockets wait on Nagle's delay and its CPU per intent is not comparable.
    let listener = tokio::net::TcpListener::bind(&addr).await.unwrap().tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    println!("floor server on {addr}");
    axum::serve(listener, app).await.unwrap();
}
