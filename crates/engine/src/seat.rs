//! Seats: who sits at the table and what plays each one.

use std::{fmt, str::FromStr};

use serde::{Deserialize, Serialize};

/// What drives a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatKind {
    /// A person at the keyboard.
    Human,
    /// A computer that decides at random.
    Easy,
    /// A computer that takes the best immediate landing.
    Greedy,
    /// A computer that plays the optimal policy.
    Hard,
    /// A computer that plays to finish first: each choice maximises its own chance to win
    /// against the others at the table (solved on the joint chain of every token).
    Win,
}

impl SeatKind {
    /// Every kind.
    pub const ALL: &'static [SeatKind] =
        &[SeatKind::Human, SeatKind::Easy, SeatKind::Greedy, SeatKind::Hard, SeatKind::Win];

    /// The name used in `NAME:KIND`.
    pub fn as_str(self) -> &'static str {
        match self {
            SeatKind::Human => "human",
            SeatKind::Easy => "easy",
            SeatKind::Greedy => "greedy",
            SeatKind::Hard => "hard",
            SeatKind::Win => "win",
        }
    }

    /// True for every kind but [`SeatKind::Human`].
    pub fn is_computer(self) -> bool {
        self != SeatKind::Human
    }
}

impl fmt::Display for SeatKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for SeatKind {
    type Err = SeatError;
    fn from_str(s: &str) -> Result<SeatKind, SeatError> {
        SeatKind::ALL
            .iter()
            .copied()
            .find(|k| k.as_str() == s.trim().to_ascii_lowercase())
            .ok_or_else(|| SeatError::UnknownKind { kind: cut(s) })
    }
}

/// A seat at the table: a name and what plays it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Seat {
    /// Shown in every message; unique in a game.
    pub name: String,
    /// Who decides and rolls.
    pub kind: SeatKind,
}

impl Seat {
    /// A seat.
    pub fn new(name: impl Into<String>, kind: SeatKind) -> Seat {
        Seat { name: name.into(), kind }
    }
}

impl FromStr for Seat {
    type Err = SeatError;

    /// Parses `NAME:KIND`, e.g. `Alice:human`.
    fn from_str(s: &str) -> Result<Seat, SeatError> {
        let (name, kind) =
            s.rsplit_once(':').ok_or_else(|| SeatError::Malformed { text: cut(s) })?;
        let name = name.trim();
        if name.is_empty() {
            return Err(SeatError::Malformed { text: cut(s) });
        }
        if kind.trim().is_empty() {
            return Err(SeatError::NoKind { text: cut(s) });
        }
        Ok(Seat { name: name.to_owned(), kind: kind.parse()? })
    }
}

/// A seat that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SeatError {
    /// Not `NAME:KIND`.
    #[error("player '{text}' is not of the form NAME:KIND (for example Alice:human)")]
    Malformed {
        /// The text given.
        text: String,
    },
    /// `NAME:` with no KIND after the colon.
    #[error(
        "player '{text}' has no kind after its ':': use NAME:KIND, KIND one of human, easy, greedy, hard or win"
    )]
    NoKind {
        /// The text given (at most 40 characters of it).
        text: String,
    },
    /// An unknown KIND.
    #[error("unknown player kind '{kind}': expected human, easy, greedy, hard or win")]
    UnknownKind {
        /// The kind given.
        kind: String,
    },
}

/// One seat's state in a game: everything a turn changes about a seat, in one place. The game
/// keeps one per seat, undo's checkpoints copy them, and [`crate::Game::seat_states`] shows them;
/// a new kind of per-seat state is a field here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatState {
    /// The cell the token stands on (0: off the board).
    pub cell: u32,
    /// Whether the seat holds a shield (SPEC §3b).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shield: bool,
    /// Whether the seat's next turn is to be skipped (SPEC §3b).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub skip: bool,
    /// The seat's rank, once it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<u32>,
    /// Turns the seat has played (a skipped turn counts).
    pub turns: u32,
    /// Rolls the seat has made.
    pub rolls: u32,
}

impl SeatState {
    /// A seat about to play, its token on `cell`.
    pub fn at(cell: u32) -> SeatState {
        SeatState { cell, ..SeatState::default() }
    }
}

/// A seat's state as a save or a database row holds it: the whole [`SeatState`] (`{"cell": 12,
/// "turns": 4, "rolls": 5}`), or, in what was written before seat states were kept (a list named
/// `positions`), the cell alone — the rest is then taken from the replayed history unchecked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum SavedSeat {
    /// Everything a turn changes about the seat.
    Whole(SeatState),
    /// Only the cell (older saves).
    Cell(u32),
}

impl SavedSeat {
    /// The cell the token stands on.
    pub fn cell(&self) -> u32 {
        match *self {
            SavedSeat::Whole(state) => state.cell,
            SavedSeat::Cell(cell) => cell,
        }
    }
}

impl From<SeatState> for SavedSeat {
    fn from(state: SeatState) -> SavedSeat {
        SavedSeat::Whole(state)
    }
}

/// A number is an older save's cell, a map a whole state: read by hand rather than `untagged`, so
/// that a damaged state is named by serde's own message (a missing field, a wrong type).
impl<'de> Deserialize<'de> for SavedSeat {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<SavedSeat, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = SavedSeat;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a seat's state (a map) or a cell number")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<SavedSeat, E> {
                u32::try_from(v)
                    .map(SavedSeat::Cell)
                    .map_err(|_| E::custom(format_args!("cell {v} is out of range")))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<SavedSeat, E> {
                u32::try_from(v)
                    .map(SavedSeat::Cell)
                    .map_err(|_| E::custom(format_args!("cell {v} is out of range")))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<SavedSeat, A::Error> {
                let de = serde::de::value::MapAccessDeserializer::new(map);
                SeatState::deserialize(de).map(SavedSeat::Whole)
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// At most 40 characters of `text`, control characters escaped, "…" when cut: how an error
/// message quotes a value, never echoing a huge one.
pub(crate) fn cut(text: &str) -> String {
    cut_to(text, 40)
}

/// As [`cut`], to `max` characters.
pub(crate) fn cut_to(text: &str, max: usize) -> String {
    let mut shown: String = text
        .chars()
        .take(max)
        .map(|c| if c.is_control() { c.escape_default().to_string() } else { c.to_string() })
        .collect();
    if text.chars().nth(max).is_some() {
        shown.push('…');
    }
    shown
}
