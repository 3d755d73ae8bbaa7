//! The WebSocket frames of SPEC §9, as typed values: what a client sends ([`ClientFrame`]) and
//! what the server sends ([`ServerFrame`]), and what the lobby stream sends ([`LobbyFrame`]).
//! `docs/protocol.md` shows each with an example.

use serde::{Deserialize, Serialize};
use snl_engine::Event;

/// Longest chat line, in characters.
pub const MAX_CHAT: usize = 500;

/// A frame from a client.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientFrame {
    /// The first frame: the seat's token (none for a spectator), and the last event seen.
    Hello {
        /// The seat's token, or null to watch.
        token: Option<String>,
        /// The sequence number of the last event the client has, or null for none.
        since: Option<u64>,
    },
    /// Throw the dice.
    Roll {},
    /// Take option `option` of the decision awaited.
    Choose {
        /// Index into the decision's options.
        option: usize,
    },
    /// Hand the seat to the computer, or take it back.
    Autopilot {
        /// True to hand it over.
        on: bool,
    },
    /// Say something to the room.
    Chat {
        /// At most [`MAX_CHAT`] characters.
        text: String,
    },
}

/// Why a frame or an intent was refused (the `code` of an error frame).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorCode {
    /// Another seat is awaited.
    NotYourTurn,
    /// The frame is not one of the protocol's, or a value in it is out of range.
    BadMessage,
    /// The token holds no seat of this room.
    BadToken,
    /// The game is over.
    GameOver,
    /// Too many frames too fast.
    RateLimited,
    /// A spectator asked for something only a seat can do.
    NotAPlayer,
    /// Seats are still open: the game has not begun.
    NotStarted,
    /// The game does not await that input now (a roll while a choice is awaited, an option that
    /// does not exist, a roll for a seat on autopilot).
    Refused,
    /// The frame is larger than the server takes.
    TooLarge,
    /// The server could not keep the room; it is closed.
    ServerError,
}

/// A frame from the server.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ServerFrame {
    /// The answer to hello.
    Welcome {
        /// The seat the token holds, or null for a spectator.
        seat: Option<usize>,
        /// The last event's sequence number (0 before any).
        seq: u64,
        /// The room's public state (as `GET /api/rooms/{room}`).
        state: serde_json::Value,
    },
    /// One event of the room.
    Event {
        /// Its sequence number: 1, 2, … without gaps.
        seq: u64,
        /// The event (SPEC §6).
        event: Event<String>,
    },
    /// What the game awaits now, after the events up to `seq`: sent once each time a new input
    /// is awaited (not numbered, not stored; a welcome's state holds what is awaited then).
    Awaiting {
        /// The last event's sequence number.
        seq: u64,
        /// `{"type": "roll", "seat": N}`, `{"type": "choice", "seat": N, "options": [...]}`,
        /// or null.
        awaiting: serde_json::Value,
    },
    /// A refused frame; nothing changed.
    Error {
        /// Why.
        code: ErrorCode,
        /// One sentence.
        message: String,
    },
}

impl ServerFrame {
    /// The frame as JSON text.
    pub fn to_text(&self) -> String {
        // Plain data: serialising it cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// An error frame.
    pub fn error(code: ErrorCode, message: impl Into<String>) -> ServerFrame {
        ServerFrame::Error { code, message: message.into() }
    }
}

/// A frame of the lobby stream (`/api/lobby/ws`): the server sends them, the client sends none.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum LobbyFrame {
    /// The first frame: every room listed now (as `GET /api/rooms`).
    Lobby {
        /// The rooms' lobby entries.
        rooms: Vec<serde_json::Value>,
    },
    /// A room opened or changed (a seat taken, the game started, its turn count): its new entry,
    /// which replaces the one the client has for the same `room`.
    Room {
        /// The room's lobby entry, as in `GET /api/rooms`.
        entry: serde_json::Value,
    },
    /// A room left the lobby: its game is over, or no node lists it any more.
    Gone {
        /// The room's id.
        room: String,
    },
}

impl LobbyFrame {
    /// The frame as JSON text.
    pub fn to_text(&self) -> String {
        // Plain data: serialising it cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_frames_read_as_the_spec_writes_them() {
        let hello: ClientFrame =
            serde_json::from_str(r#"{"type":"hello","token":null,"since":null}"#).unwrap();
        assert_eq!(hello, ClientFrame::Hello { token: None, since: None });
        let roll: ClientFrame = serde_json::from_str(r#"{"type":"roll"}"#).unwrap();
        assert_eq!(roll, ClientFrame::Roll {});
        assert!(serde_json::from_str::<ClientFrame>(r#"{"type":"roll","x":1}"#).is_err());
        assert!(serde_json::from_str::<ClientFrame>(r#"{"type":"fly"}"#).is_err());
    }

    #[test]
    fn server_frames_write_as_the_spec_reads_them() {
        let frame = ServerFrame::error(ErrorCode::NotYourTurn, "it is Bob's turn");
        assert_eq!(
            frame.to_text(),
            r#"{"type":"error","code":"not_your_turn","message":"it is Bob's turn"}"#
        );
        let event = ServerFrame::Event { seq: 3, event: Event::TimeUp {} };
        assert_eq!(event.to_text(), r#"{"type":"event","seq":3,"event":{"type":"time_up"}}"#);
    }

    #[test]
    fn lobby_frames_write_as_the_protocol_document_reads_them() {
        let gone = LobbyFrame::Gone { room: "5f0c2a9e81d34b07".into() };
        assert_eq!(gone.to_text(), r#"{"type":"gone","room":"5f0c2a9e81d34b07"}"#);
        let lobby = LobbyFrame::Lobby { rooms: Vec::new() };
        assert_eq!(lobby.to_text(), r#"{"type":"lobby","rooms":[]}"#);
    }
}
