//! The WebSocket frames: what a client sends ([`ClientFrame`]), what the server sends
//! ([`ServerFrame`]), and what the lobby stream sends ([`LobbyFrame`]).

use serde::{Deserialize, Serialize};
use snl_engine::{Event, MoveOption};

use crate::rooms::{AwardLine, LobbyEntry, RoomState, SeatLine};

/// Longest chat line, in characters.
pub const MAX_CHAT: usize = 500;

/// Most events a hello's `recent` brings.
pub const MAX_RECENT: u64 = 500;

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
        /// With `since` null: how many of the room's last events to send after the welcome (at
        /// most [`MAX_RECENT`]), for a page that shows what happened before it came.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        recent: Option<u64>,
    },
    /// Throw the dice.
    Roll {
        /// The id of the awaited input this answers ([`Awaited::input`]); a roll for an input
        /// that has passed is refused. None: whatever is awaited now.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        input: Option<u64>,
    },
    /// Take option `option` of the decision awaited.
    Choose {
        /// Index into the decision's options.
        option: usize,
        /// The id of the awaited input this answers, as for [`ClientFrame::Roll`].
        #[serde(default, skip_serializing_if = "Option::is_none")]
        input: Option<u64>,
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

impl ClientFrame {
    /// A roll answering the input awaited now, whatever it is.
    pub const ROLL: ClientFrame = ClientFrame::Roll { input: None };

    /// The frame as JSON text.
    pub fn to_text(&self) -> String {
        // Plain data: serialising it cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The frame as the answer to the awaited input `input` (its id, [`Awaited::input`]): a roll
    /// or a choice carries it; other frames are unchanged.
    #[must_use]
    pub fn answering(self, input: Option<u64>) -> ClientFrame {
        match self {
            ClientFrame::Roll { .. } => ClientFrame::Roll { input },
            ClientFrame::Choose { option, .. } => ClientFrame::Choose { option, input },
            other => other,
        }
    }
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
    /// does not exist, a roll for a seat on autopilot, an answer to an input that has passed).
    Refused,
    /// The frame is larger than the server takes.
    TooLarge,
    /// The server could not keep the room; it is closed.
    ServerError,
}

impl ErrorCode {
    /// The code as written on the wire (`not_your_turn`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::BadMessage => "bad_message",
            ErrorCode::BadToken => "bad_token",
            ErrorCode::GameOver => "game_over",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::NotAPlayer => "not_a_player",
            ErrorCode::NotStarted => "not_started",
            ErrorCode::Refused => "refused",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::ServerError => "server_error",
        }
    }
}

/// What the game awaits: a roll or a choice from a seat, with the input's id.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Awaited {
    /// A roll from `seat`.
    Roll {
        /// The seat awaited.
        seat: usize,
        /// The input's id (see [`Awaited::input`]).
        input: u64,
    },
    /// A choice among `options` from `seat`.
    Choice {
        /// The seat awaited.
        seat: usize,
        /// The ways to play the roll.
        options: Vec<MoveOption>,
        /// Each option in words, as every front end labels it ("move 4 to 23 (ladder to 45)",
        /// "stay on 19"): `snl_words::describe_option`.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        labels: Vec<String>,
        /// The input's id (see [`Awaited::input`]).
        input: u64,
    },
}

impl Awaited {
    /// The seat awaited.
    pub fn seat(&self) -> usize {
        match self {
            Awaited::Roll { seat, .. } | Awaited::Choice { seat, .. } => *seat,
        }
    }

    /// The input's id: the `seq` of the room's last event when this input became awaited. A
    /// client echoes it in its roll or choose frame; an answer to an input that has passed (its
    /// id is not the one awaited now) is refused and changes nothing.
    pub fn input(&self) -> u64 {
        match self {
            Awaited::Roll { input, .. } | Awaited::Choice { input, .. } => *input,
        }
    }
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
        state: Box<RoomState>,
    },
    /// One event of the room.
    Event {
        /// Its sequence number: 1, 2, … without gaps.
        seq: u64,
        /// The event (SPEC §6).
        event: Event<String>,
        /// The event's sentence, as every front end tells it (`snl_words::Sentences`); absent for
        /// an event told with the next one (a roll is told with its move) or told otherwise (chat).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// What the game awaits now, after the events up to `seq`: sent once each time a new input
    /// is awaited (not numbered, not stored; a welcome's state holds what is awaited then).
    Awaiting {
        /// The last event's sequence number.
        seq: u64,
        /// What is awaited, or null (the game is over).
        awaiting: Option<Awaited>,
        /// Each seat's words now ([`SeatLine`]: standing, what it carries), in seat order.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        seats: Vec<SeatLine>,
        /// A race's status line now (as [`RoomState::race`](crate::RoomState::race)).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        race: Option<String>,
        /// Once the game is over (`awaiting` null): the achievements it earned each seat, in
        /// seat order (`snl_session::achievements`); empty while it runs.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        awards: Vec<AwardLine>,
        /// Once the game is over, where the room's series stands (as
        /// [`RoomState::series`](crate::RoomState::series)); absent otherwise.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        series: Option<crate::rooms::SeriesLine>,
        /// The milliseconds left of the turn clock of the person awaited (as
        /// [`RoomState::turn_left_ms`](crate::RoomState::turn_left_ms)); absent when nobody's
        /// turn is timed (no turn clock, a computer's or an autopilot's turn), so a page never
        /// works out who is timed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        turn_left_ms: Option<u64>,
    },
    /// The next game of the room's series is open in `room` (the same seats hold it: a seated
    /// client goes on there with the same token).
    Next {
        /// The next game's room.
        room: String,
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
        rooms: Vec<LobbyEntry>,
    },
    /// A room opened or changed (a seat taken, the game started, its turn count): its new entry,
    /// which replaces the one the client has for the same `room`.
    Room {
        /// The room's lobby entry, as in `GET /api/rooms`.
        entry: LobbyEntry,
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
        assert_eq!(hello, ClientFrame::Hello { token: None, since: None, recent: None });
        let roll: ClientFrame = serde_json::from_str(r#"{"type":"roll"}"#).unwrap();
        assert_eq!(roll, ClientFrame::ROLL);
        assert_eq!(roll.to_text(), r#"{"type":"roll"}"#);
        let roll: ClientFrame = serde_json::from_str(r#"{"type":"roll","input":7}"#).unwrap();
        assert_eq!(roll, ClientFrame::Roll { input: Some(7) });
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
        let event = ServerFrame::Event { seq: 3, event: Event::TimeUp {}, text: None };
        assert_eq!(event.to_text(), r#"{"type":"event","seq":3,"event":{"type":"time_up"}}"#);
        let awaiting = ServerFrame::Awaiting {
            seq: 4,
            awaiting: Some(Awaited::Roll { seat: 1, input: 4 }),
            seats: vec![],
            race: None,
            awards: vec![],
            series: None,
            turn_left_ms: None,
        };
        assert_eq!(
            awaiting.to_text(),
            r#"{"type":"awaiting","seq":4,"awaiting":{"type":"roll","seat":1,"input":4}}"#
        );
        for code in [ErrorCode::NotYourTurn, ErrorCode::ServerError, ErrorCode::Refused] {
            assert_eq!(serde_json::to_value(code).unwrap(), code.as_str());
        }
    }

    #[test]
    fn lobby_frames_write_as_the_protocol_document_reads_them() {
        let gone = LobbyFrame::Gone { room: "5f0c2a9e81d34b07".into() };
        assert_eq!(gone.to_text(), r#"{"type":"gone","room":"5f0c2a9e81d34b07"}"#);
        let lobby = LobbyFrame::Lobby { rooms: Vec::new() };
        assert_eq!(lobby.to_text(), r#"{"type":"lobby","rooms":[]}"#);
    }
}
