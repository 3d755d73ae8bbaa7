//! The lobby: the rooms listed (`GET /api/rooms`) and the lobby stream (`/api/lobby/ws`), a
//! read-only WebSocket that sends the rooms listed now, then each change as it happens, so the
//! lobby page never polls. Changes come from this node's rooms (each room's summary, watched by
//! `cluster::watch`) and, on a shared storage, from the other nodes' (`NOTIFY snl_lobby`, heard
//! by `cluster::listen`); every connection reads them from one bounded broadcast channel, so a
//! slow client costs no memory of its own: one that falls a whole channel behind is closed
//! (`1013`, try again) and its page reconnects to a fresh list.

use std::{sync::Arc, time::Duration};

use axum::{
    extract::{
        State, WebSocketUpgrade,
        ws::{CloseFrame, Message, Utf8Bytes, close_code, rejection::WebSocketUpgradeRejection},
    },
    http::HeaderMap,
    response::Response,
};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use snl_wire::rooms::{LobbyEntry, RoomStatus};
use tokio::sync::broadcast::{self, error::RecvError};

use crate::{
    Limits, Shared,
    frames::LobbyFrame,
    http::{self, ApiError, ApiResult},
    ws::Bucket,
};

/// Changes kept for the connections that have not sent them yet; a connection further behind is
/// closed and reconnects.
const BACKLOG: usize = 1024;
/// The longest a connection may take to take one frame before it is closed (a client that stops
/// reading holds nothing but its socket, and that not for ever).
const WRITE_PATIENCE: Duration = Duration::from_secs(10);

/// This node's lobby changes, told to every lobby stream; cheap to clone.
#[derive(Clone, Debug)]
pub(crate) struct Lobby {
    changes: broadcast::Sender<Utf8Bytes>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby::with_backlog(BACKLOG)
    }
}

impl Lobby {
    fn with_backlog(backlog: usize) -> Lobby {
        Lobby { changes: broadcast::channel(backlog).0 }
    }

    /// Tells the streams a room's new lobby entry (a room over leaves the lobby).
    pub(crate) fn tell(&self, entry: &LobbyEntry) {
        if entry.status == RoomStatus::Over {
            self.gone(&entry.room);
        } else {
            self.send(&LobbyFrame::Room { entry: entry.clone() });
        }
    }

    /// Tells the streams that `room` left the lobby.
    pub(crate) fn gone(&self, room: &str) {
        self.send(&LobbyFrame::Gone { room: room.to_owned() });
    }

    fn send(&self, frame: &LobbyFrame) {
        if self.changes.receiver_count() > 0 {
            let _ = self.changes.send(frame.to_text().into());
        }
    }
}

/// The rooms the lobby lists (open seats or running), every node's, by id.
pub(crate) fn listing(shared: &Shared) -> Vec<LobbyEntry> {
    let rooms = shared.rooms.read().unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut listed: Vec<LobbyEntry> = rooms
        .values()
        // A room closed by a storage failure is not listed (it is read back when asked for).
        .filter(|h| !h.tx.is_closed())
        .map(|h| h.summary.borrow().clone())
        .filter(|s| s.status != RoomStatus::Over)
        .collect();
    listed.extend(shared.cluster.remote_lobby(&rooms));
    listed.sort_by(|a, b| a.room.cmp(&b.room));
    listed
}

/// `GET /api/lobby/ws`: the lobby stream, for this server's own pages and for programs.
pub(crate) async fn endpoint(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    http::check_origin(&headers, &shared.config.allow_origins)?;
    let upgrade = upgrade.map_err(|e| ApiError::new(e.status(), "bad_request", e.body_text()))?;
    let held = http::count_connection(&shared)?;
    let limits = shared.config.limits;
    Ok(upgrade
        // The client sends nothing but pings: the smallest buffers do.
        .max_message_size(1024)
        .max_frame_size(1024)
        .read_buffer_size(crate::READ_BUFFER)
        .write_buffer_size(4096)
        .on_upgrade(move |socket| {
            // Subscribed before the list is read, so no change falls between the two (one seen
            // in both is told twice: an entry replaces the one with its id, so no harm).
            let changes = held.0.lobby.changes.subscribe();
            let first = LobbyFrame::Lobby { rooms: listing(&held.0) }.to_text();
            let (sink, stream) = socket.split();
            async move {
                follow(sink, stream, first, changes, limits).await;
                drop(held);
            }
        }))
}

async fn send<K: Sink<Message> + Unpin>(sink: &mut K, message: Message) -> bool {
    matches!(tokio::time::timeout(WRITE_PATIENCE, sink.send(message)).await, Ok(Ok(())))
}

fn close(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame { code, reason: reason.into() }))
}

/// Sends `first`, then every change, until the client goes, falls behind (closed with `1013`),
/// or sends a data frame (closed with `1008`: the stream is read-only).
async fn follow<K, M>(
    mut sink: K,
    mut stream: M,
    first: String,
    mut changes: broadcast::Receiver<Utf8Bytes>,
    limits: Limits,
) where
    K: Sink<Message> + Unpin,
    M: Stream<Item = Result<Message, axum::Error>> + Unpin,
{
    let mut ok = send(&mut sink, Message::Text(first.into())).await;
    // Pings are the only frames a lobby client sends: as many as a room's connection may send.
    let mut pings = Bucket::new(limits);
    while ok {
        tokio::select! {
            change = changes.recv() => match change {
                Ok(frame) => ok = send(&mut sink, Message::Text(frame)).await,
                Err(RecvError::Lagged(_)) => {
                    let reason = "this connection fell behind the lobby: reconnect";
                    send(&mut sink, close(close_code::AGAIN, reason)).await;
                    return;
                }
                Err(RecvError::Closed) => ok = false,
            },
            message = stream.next() => match message {
                None | Some(Err(_) | Ok(Message::Close(_))) => return,
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {
                    if !pings.take() {
                        let reason = "too many pings: slow down";
                        send(&mut sink, close(close_code::POLICY, reason)).await;
                        return;
                    }
                }
                Some(Ok(Message::Text(_) | Message::Binary(_))) => {
                    let reason = "the lobby stream is read-only: it takes no frames";
                    send(&mut sink, close(close_code::POLICY, reason)).await;
                    return;
                }
            },
        }
    }
    send(&mut sink, Message::Close(None)).await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn entry(room: &str, status: RoomStatus) -> LobbyEntry {
        LobbyEntry {
            room: room.into(),
            status,
            board_name: "classic".into(),
            seats: Vec::new(),
            turns: 0,
            about: String::new(),
            commitment: None,
        }
    }

    fn text(message: &Message) -> Value {
        match message {
            Message::Text(text) => serde_json::from_str(text.as_str()).unwrap(),
            other => panic!("not a text frame: {other:?}"),
        }
    }

    #[tokio::test]
    async fn a_stream_gets_the_list_then_each_change_and_a_room_over_leaves() {
        let lobby = Lobby::with_backlog(8);
        let changes = lobby.changes.subscribe();
        lobby.tell(&entry("a", RoomStatus::Open));
        lobby.tell(&entry("a", RoomStatus::Over));
        drop(lobby); // the server stops: the stream ends after the changes told
        let mut sent: Vec<Message> = Vec::new();
        let first = LobbyFrame::Lobby { rooms: Vec::new() }.to_text();
        follow(&mut sent, futures_util::stream::pending(), first, changes, Limits::default()).await;
        assert_eq!(text(&sent[0])["type"], "lobby");
        assert_eq!(text(&sent[1])["entry"]["room"], "a");
        assert_eq!(text(&sent[2]), serde_json::json!({"type": "gone", "room": "a"}));
        assert!(matches!(sent[3], Message::Close(None)));
        assert_eq!(sent.len(), 4);
    }

    #[tokio::test]
    async fn a_stream_that_falls_a_backlog_behind_is_closed_to_reconnect() {
        let lobby = Lobby::with_backlog(4);
        let changes = lobby.changes.subscribe();
        // Five changes before the connection takes any: the oldest is gone from the channel,
        // which holds four whatever the client does.
        for i in 0..5 {
            lobby.tell(&entry(&format!("r{i}"), RoomStatus::Open));
        }
        assert_eq!(lobby.changes.len(), 4);
        let mut sent: Vec<Message> = Vec::new();
        let first = LobbyFrame::Lobby { rooms: Vec::new() }.to_text();
        follow(&mut sent, futures_util::stream::pending(), first, changes, Limits::default()).await;
        assert_eq!(sent.len(), 2, "{sent:?}");
        assert_eq!(text(&sent[0])["type"], "lobby");
        match &sent[1] {
            Message::Close(Some(frame)) => {
                assert_eq!(frame.code, close_code::AGAIN);
                assert!(frame.reason.as_str().contains("reconnect"));
            }
            other => panic!("not a close frame: {other:?}"),
        }
    }

    #[tokio::test]
    async fn a_data_frame_from_the_client_closes_the_read_only_stream() {
        let lobby = Lobby::with_backlog(4);
        let changes = lobby.changes.subscribe();
        let mut sent: Vec<Message> = Vec::new();
        let hostile = futures_util::stream::iter([Ok(Message::Text("{\"type\":\"roll\"}".into()))])
            .chain(futures_util::stream::pending());
        let first = LobbyFrame::Lobby { rooms: Vec::new() }.to_text();
        follow(&mut sent, Box::pin(hostile), first, changes, Limits::default()).await;
        assert!(matches!(&sent[1], Message::Close(Some(f)) if f.code == close_code::POLICY));
        drop(lobby);
    }
}
