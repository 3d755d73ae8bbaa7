//! The WebSocket frames of SPEC §9, as typed values: what a client sends ([`ClientFrame`]),
//! what the server sends ([`ServerFrame`]), and what the lobby stream sends ([`LobbyFrame`]).
//! They live in `snl-wire`, shared with the terminal client; `docs/protocol.md` shows each
//! with an example.

pub use snl_wire::frames::{Awaited, ClientFrame, ErrorCode, LobbyFrame, MAX_CHAT, ServerFrame};
