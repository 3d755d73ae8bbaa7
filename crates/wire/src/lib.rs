//! The protocol of `snl serve` (SPEC §9, `docs/protocol.md`) as types: every WebSocket frame
//! ([`frames`]) and every HTTP body ([`rooms`], [`api`]), shared by the server and the terminal
//! client (`snl join`, `snl watch`), so neither writes nor guesses JSON by hand; and recorded
//! games as lists show them ([`records`]), which the game database reads into the same types. A test reads
//! every example of `docs/protocol.md` into these types and writes it back unchanged. With the
//! `answers` feature, the answers that carry analysis (module `answers`) are worked out here too; with `views`, a game under way in
//! the words of every front end (module `views`).

#[cfg(feature = "answers")]
pub mod answers;
pub mod api;
pub mod frames;
pub mod names;
pub mod records;
pub mod rooms;
#[cfg(feature = "views")]
pub mod views;

pub use api::{
    BoardCheck, BoardCheckAnswer, ChatEntry, ErrorBody, ErrorDetail, GameEntry, GamePage,
    OddsAnswer, OddsSeat, RecordedGame,
};
pub use frames::{Awaited, ClientFrame, ErrorCode, LobbyFrame, MAX_CHAT, ServerFrame};
pub use records::{GameId, GameStatus, GameSummary, SeriesId};
pub use rooms::{
    AwardLine, BoardChoice, Claim, ClaimAnswer, CreateRoom, Created, LegendEntry, LobbyEntry,
    NextGame, RandomRequest, RoomState, RoomStatus, Rooms, RulesChoice, SeatEntry, SeatLine,
    SeatRequest, SeatState, SeriesLine,
};
