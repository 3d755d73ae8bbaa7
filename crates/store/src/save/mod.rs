//! Save files: one game as versioned JSON — board, rules, seats, seat states, history and the dice
//! generator's exact state — written atomically and read back through one checked door.
//!
//! Two forms are written, both version 4: a whole save (pretty JSON: [`Save::to_json`],
//! [`Save::write`]), and the journal that `--save` keeps turn by turn (see [`SaveJournal`]): the
//! save as recording began on line 1 (compact JSON), then one line per action with what it
//! changed. [`Save::from_json`] reads both, and versions 1 to 3.
//!
//! A save replays exactly or is refused with a sentence naming what disagrees: the history must
//! give the saved positions, ranking and turn ([`Game::restore`]), the dice must be where that
//! history leaves them (the seeded generator derived again from the seed and the history's rolls;
//! scripted rolls already used equal to the history's), and a digest over the whole content
//! (FNV-1a, 64 bits: against accidental edits and damage, not against forgery) turns any other
//! edit — a rule, a jump or a name that the replay does not reach — into "edited or damaged".

use std::{fs, io, path::Path};

use serde::{Deserialize, Serialize};
use snl_engine::{Game, GameState, ParseRollsError, RestoreError, SavedSeat};

use crate::{atomic::write_atomically, dice::DiceState};

mod journal;
pub use journal::SaveJournal;

/// What the `format` field of every save file says.
pub const SAVE_FORMAT: &str = "snl-save";

/// The newest save format this build writes and reads: 4, which keeps each seat's whole state
/// (`seat_states`) and the number of the last event told (`seq`), both as a journal
/// ([`SaveJournal`]) and as a whole save ([`Save::to_json`]). Version 3 was the journal with
/// each seat's cell alone (`positions`), version 2 the whole save that added the `digest`;
/// version 1 files (without one) are still read, with every other check.
pub const SAVE_VERSION: u32 = 4;

/// All of `reader` when it holds at most `limit` bytes, else `None`, having read at most `limit`
/// bytes plus one chunk. The buffer never grows past `limit` (doubling would reach twice it).
fn read_at_most(mut reader: impl io::Read, limit: u64) -> io::Result<Option<Vec<u8>>> {
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let mut bytes = Vec::new();
    let mut chunk = vec![0; 64 * 1024];
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => return Ok(Some(bytes)),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let needed = bytes.len() + n;
        if needed > limit {
            return Ok(None);
        }
        if needed > bytes.capacity() {
            let grown = needed.max(bytes.capacity() * 2).min(limit);
            bytes.reserve_exact(grown - bytes.len());
        }
        bytes.extend_from_slice(&chunk[..n]);
    }
}

/// Reads one line (with its newline) into `line`, growing it never past `limit` bytes (plain
/// doubling would reach twice that on an endless line); stops at `limit`.
fn read_line_at_most(
    reader: &mut impl io::BufRead,
    line: &mut Vec<u8>,
    limit: u64,
) -> io::Result<()> {
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() || line.len() >= limit {
            return Ok(());
        }
        let end = chunk.iter().position(|&b| b == b'\n').map_or(chunk.len(), |i| i + 1);
        let take = end.min(limit - line.len());
        if line.len() + take > line.capacity() {
            let grown = (line.len() + take).max(line.capacity() * 2).min(limit);
            line.reserve_exact(grown - line.len());
        }
        line.extend_from_slice(&chunk[..take]);
        let newline = chunk[take - 1] == b'\n';
        reader.consume(take);
        if newline {
            return Ok(());
        }
    }
}

/// The longest save file that is read, in bytes (256 MiB): room for a game of some 2.3 million
/// turns, the journal rewritten whole past half of it (a record is some 110 bytes of line 1,
/// a journal line some 550: [`SaveJournal::COMPACT_AT`]). A journal is read a line at a time,
/// so memory holds the game and one line, not the file: some 500 bytes a turn, so that the
/// largest save loads within 1.5 GiB. A longer file is refused before it is read (an endless
/// one such as `/dev/zero` after the limit).
pub const MAX_SAVE_BYTES: u64 = 256 * 1024 * 1024;

/// The version of a whole save ([`Save::to_json`]).
const WHOLE_VERSION: u32 = 4;

/// One game as plain data, ready to be written or just read. Not necessarily valid:
/// [`Save::restore`] is the door to a playable [`Game`].
///
/// ```
/// use snl_engine::{Board, FirstOption, Game, Preset, Rules, Seat, SeatKind};
/// use snl_store::{DiceState, Save};
///
/// let rules = Rules::default();
/// let board = Board::new(&Preset::Classic.spec(), &rules)?;
/// let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Bob", SeatKind::Easy)];
/// let mut game = Game::new(board, rules, seats)?;
/// let mut dice = DiceState::seeded(3);
/// game.play_turn(&mut dice, &mut FirstOption, &mut ())?;
///
/// let text = Save::new(&game, &dice, "classic").to_json();
/// let back = Save::from_json(text.as_bytes())?;
/// assert_eq!(back.restore()?.positions(), game.positions());
/// assert_eq!(back.dice, dice);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Save {
    /// What the board was called when the game began (`classic`, a file name), for people.
    pub board_name: String,
    /// The game.
    pub game: GameState,
    /// The dice, where they stand.
    pub dice: DiceState,
    /// The number of the last event told when this was kept, so that the game's events go on
    /// with the numbers they had (see `snl_session::Session::at`); `None` in files written before
    /// it was kept, whose events are counted again by replaying the history.
    pub seq: Option<u64>,
}

/// What a whole save's format and version say, every other field skipped.
#[derive(Deserialize)]
struct Header {
    #[serde(default)]
    format: Option<serde_json::Value>,
    #[serde(default)]
    version: Option<serde_json::Value>,
}

/// The file's JSON shape: [`Save`] with the format name and version first.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Wire {
    format: String,
    version: u32,
    board_name: String,
    game: GameState,
    dice: DiceState,
    /// [`Save::seq`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seq: Option<u64>,
    /// [`digest`] of everything above, written last.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    digest: Option<String>,
}

/// Why a save file could not be read or used. Messages complete the sentence "cannot load the
/// save file NAME: …".
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SaveError {
    /// The file could not be read.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// Longer than [`MAX_SAVE_BYTES`].
    #[error("it is longer than {limit} bytes, the most that is read")]
    TooLarge {
        /// [`MAX_SAVE_BYTES`].
        limit: u64,
    },
    /// Not JSON: cut short or damaged (the reader's message, its quoted values cut short).
    #[error("it is cut short or damaged ({})", quoted_short(.0))]
    Corrupt(String),
    /// JSON, but not an snl save.
    #[error("it is not an snl save file (no \"format\": \"{SAVE_FORMAT}\")")]
    NotASave,
    /// Written by a newer snl.
    #[error(
        "it was written by a newer snl (save format {found}, this snl reads up to {supported}): \
         upgrade snl to load it"
    )]
    Newer {
        /// The file's version.
        found: u64,
        /// [`SAVE_VERSION`].
        supported: u32,
    },
    /// A save, but a field is missing, unknown or has an unknown value (an unknown rule).
    #[error("{}", quoted_short(.0))]
    Shape(String),
    /// Well formed, but not a game that could have been played.
    #[error("the game in it does not add up: {0}")]
    Invalid(#[from] RestoreError),
    /// Scripted dice that the game's rules cannot throw.
    #[error("its scripted rolls do not fit the rules: {0}")]
    Dice(#[from] ParseRollsError),
    /// Dice that are not where the game's history leaves them (see [`DiceState`]).
    #[error("its dice do not agree with its history: {0}")]
    DiceHistory(String),
    /// The content does not match its digest, though it replays: an edit the checks of the game
    /// cannot see, or damage.
    #[error("it was edited or damaged: its content does not match its digest")]
    Edited,
}

impl Save {
    /// The save of `game` with its `dice`, without the number of its last event.
    pub fn new(game: &Game, dice: &DiceState, board_name: &str) -> Save {
        Save {
            board_name: board_name.to_owned(),
            game: game.state(),
            dice: dice.clone(),
            seq: None,
        }
    }

    /// As [`Save::new`], the last event told being number `seq`.
    pub fn numbered(game: &Game, dice: &DiceState, board_name: &str, seq: u64) -> Save {
        Save { seq: Some(seq), ..Save::new(game, dice, board_name) }
    }

    /// The text of a whole save (version 4): pretty JSON, format and version first.
    ///
    /// # Panics
    ///
    /// Never: every save has a JSON form.
    pub fn to_json(&self) -> String {
        let mut wire = Wire {
            format: SAVE_FORMAT.to_owned(),
            version: WHOLE_VERSION,
            board_name: self.board_name.clone(),
            game: self.game.clone(),
            dice: self.dice.clone(),
            seq: self.seq,
            digest: None,
        };
        wire.digest = Some(digest(&wire));
        let mut text = serde_json::to_string_pretty(&wire).expect("a save is always JSON");
        text.push('\n');
        text
    }

    /// Reads a file's text — a journal (versions 3 and 4: see [`SaveJournal`]; a last line cut
    /// short is dropped) or a whole save (versions 1, 2 and 4) — checking its format and version before its
    /// shape, so that a file from a newer snl is refused as such, and then its digest (each
    /// line's, in a journal): content that does not match it
    /// is refused with the first thing [`Save::restore`] finds wrong, else as
    /// [`SaveError::Edited`]. The game is not checked further yet: see [`Save::restore`].
    ///
    /// # Errors
    ///
    /// [`SaveError::Corrupt`], [`SaveError::NotASave`], [`SaveError::Newer`],
    /// [`SaveError::Shape`] (a version 2 file without a digest), or for content that does not
    /// match its digest, [`SaveError::Edited`] or what [`Save::restore`] says.
    pub fn from_json(bytes: &[u8]) -> Result<Save, SaveError> {
        // A journal's line 1 is a save on its own; a whole save's first line is not (pretty).
        let (first, rest) = match bytes.iter().position(|&b| b == b'\n') {
            Some(end) => (&bytes[..end], &bytes[end + 1..]),
            None => (bytes, &[][..]),
        };
        if let Ok(header) = serde_json::from_slice::<Header>(first) {
            if header.format.as_ref().and_then(serde_json::Value::as_str) != Some(SAVE_FORMAT) {
                return Err(SaveError::NotASave);
            }
            match header.version.as_ref().and_then(serde_json::Value::as_u64) {
                Some(found) if found > u64::from(SAVE_VERSION) => {
                    return Err(SaveError::Newer { found, supported: SAVE_VERSION });
                }
                Some(found) if journal::is_journal(found) => {
                    return journal::read(first, &mut &rest[..]);
                }
                _ => {}
            }
        }
        // Format and version first, every other field skipped unread; then the save itself,
        // straight into its types: never a tree of JSON values, which took some 35 bytes of
        // memory per byte of a long history (a 256 MiB save took 9.7 GB, issue 29).
        let header: Header =
            serde_json::from_slice(bytes).map_err(|e| SaveError::Corrupt(e.to_string()))?;
        if header.format.as_ref().and_then(serde_json::Value::as_str) != Some(SAVE_FORMAT) {
            return Err(SaveError::NotASave);
        }
        match header.version.as_ref().and_then(serde_json::Value::as_u64) {
            Some(found) if found > u64::from(SAVE_VERSION) => {
                return Err(SaveError::Newer { found, supported: SAVE_VERSION });
            }
            Some(1..) => {}
            _ => return Err(SaveError::Shape("its \"version\" is not a format number".into())),
        }
        let mut wire: Wire = serde_json::from_slice(bytes).map_err(|e| {
            // As serde says it, without the line and column (the file is one object).
            let place = format!(" at line {} column {}", e.line(), e.column());
            SaveError::Shape(e.to_string().trim_end_matches(&place).to_owned())
        })?;
        let written = wire.digest.take();
        let save = Save {
            board_name: wire.board_name.clone(),
            game: wire.game.clone(),
            dice: wire.dice.clone(),
            seq: wire.seq,
        };
        match written {
            None if wire.version >= 2 => Err(SaveError::Shape(
                "it has no \"digest\" (every save since version 2 has one)".into(),
            )),
            Some(written) if written != digest(&wire) => {
                Err(save.restore().err().unwrap_or(SaveError::Edited))
            }
            _ => Ok(save),
        }
    }

    /// Reads the save file at `path` (see [`Save::from_json`]).
    ///
    /// # Errors
    ///
    /// [`SaveError::Io`] when it cannot be read, else as [`Save::from_json`].
    pub fn read(path: &Path) -> Result<Save, SaveError> {
        let too_large = SaveError::TooLarge { limit: MAX_SAVE_BYTES };
        let file = fs::File::open(path)?;
        if file.metadata()?.len() > MAX_SAVE_BYTES {
            return Err(too_large); // refused before a byte is read
        }
        // A journal is read a line at a time, so that memory holds the game and one line, not
        // the file; a whole save (one JSON object) is read whole. Neither reads past the limit
        // (a device such as /dev/zero has no length to refuse up front).
        let mut reader = io::BufReader::new(io::Read::take(file, MAX_SAVE_BYTES + 1));
        // Every save begins with `{`: anything else (the zeros of /dev/zero) is refused from its
        // first bytes, before an endless line is read.
        let head = io::BufRead::fill_buf(&mut reader)?;
        if let Some(&b) = head.iter().find(|b| !b.is_ascii_whitespace())
            && b != b'{'
        {
            let end = head.len().min(64);
            return Save::from_json(&head[..end]);
        }
        let mut first = Vec::new();
        read_line_at_most(&mut reader, &mut first, MAX_SAVE_BYTES)?;
        // Its format and version only, every other field skipped unread.
        let journal = serde_json::from_slice::<Header>(&first).ok().is_some_and(|h| {
            h.format.as_ref().and_then(serde_json::Value::as_str) == Some(SAVE_FORMAT)
                && h.version
                    .as_ref()
                    .and_then(serde_json::Value::as_u64)
                    .is_some_and(journal::is_journal)
        });
        let save = if journal {
            journal::read(&first, &mut reader)
        } else {
            match read_at_most(&mut reader, MAX_SAVE_BYTES - first.len() as u64)? {
                Some(rest) => {
                    first.extend_from_slice(&rest);
                    Save::from_json(&first)
                }
                None => return Err(too_large),
            }
        };
        if reader.get_ref().limit() == 0 {
            return Err(too_large);
        }
        save
    }

    /// Writes the save to `path` atomically, whole (see [`Save::to_json`]): a crash leaves the
    /// old file or the new one.
    ///
    /// # Errors
    ///
    /// Any I/O error; the file at `path` is then as it was.
    pub fn write(&self, path: &Path) -> io::Result<()> {
        write_atomically(path, self.to_json().as_bytes())
    }

    /// The game, checked: board, rules and seats as a new game would be, the history replayed to
    /// give exactly the saved positions, ranking and turn (see [`Game::restore`]), scripted
    /// dice that the rules can throw, and dice where the history leaves them.
    ///
    /// # Errors
    ///
    /// [`SaveError::Invalid`], [`SaveError::Dice`] or [`SaveError::DiceHistory`] naming the first
    /// problem.
    pub fn restore(&self) -> Result<Game, SaveError> {
        let game = Game::restore(&self.game)?;
        self.dice.check(game.rules())?;
        self.dice.agrees_with(&self.game).map_err(SaveError::DiceHistory)?;
        Ok(game)
    }
}

/// `fnv1a64:` and the 64-bit FNV-1a hash, in hex, of the compact JSON of `wire` without its
/// digest. FNV-1a is a few lines, needs no dependency and catches any accidental change of the
/// content; it is no defence against someone who edits the file and the digest together (the
/// checks of [`Save::restore`] are what catch edits that change the game).
///
/// A save written before seat states were kept holds the cells alone, under `positions`: its
/// digest is of that text (see [`as_written`]).
fn digest(wire: &Wire) -> String {
    let content = Wire { digest: None, ..wire.clone() };
    let bytes = serde_json::to_vec(&content).expect("a save is always JSON");
    format!("fnv1a64:{:016x}", fnv1a64(&as_written(bytes, &wire.game.seat_states)))
}

/// The compact JSON `bytes` of content holding `seats` as it was written: when every seat is a
/// cell alone (written before seat states were kept), its key is `positions` again.
fn as_written(bytes: Vec<u8>, seats: &[SavedSeat]) -> Vec<u8> {
    if !seats.iter().all(|s| matches!(s, SavedSeat::Cell(_))) {
        return bytes;
    }
    // Only a key can hold an unescaped quote, and only one holds this one.
    let text = String::from_utf8(bytes).expect("JSON is UTF-8");
    text.replacen("\"seat_states\":", "\"positions\":", 1).into_bytes()
}

fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Most characters of a value a message quotes (the JSON reader quotes field names and values
/// as they were written, and a damaged file can hold a long one).
const QUOTED_SHOWN: usize = 40;

/// `message` with each value quoted in backticks cut to [`QUOTED_SHOWN`] characters.
fn quoted_short(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(400));
    for (i, part) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        let shown = if i % 2 == 1 { QUOTED_SHOWN } else { usize::MAX };
        for (n, c) in part.chars().enumerate() {
            if n == shown {
                out.push('…');
                break;
            }
            // A quoted value may hold a line break or another control character (a
            // field named "\n"): it is written as its escape, so the message stays one line.
            if c.is_control() {
                out.extend(c.escape_default());
            } else {
                out.push(c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
