//! Save files as journals (format version 4; 3 is read too): recording a turn costs the same at turn 10,000 as
//! at turn 10, because a turn appends one line holding only what changed and never rewrites the
//! save.
//!
//! # The file
//!
//! - Line 1 is the save as recording began: the [`Save`] JSON shape on one line, `"version": 3`,
//!   with its digest (as a version 2 file has, over the same content).
//! - Every action recorded after it (a turn, an undo, a redo) appends one line: the history
//!   records added since the line before (`"records"`), or after an undo the number of records
//!   kept (`"kept"`), then the game's *head* — status, turns, whose turn, positions, ranking, a
//!   pending roll, and the dice where they stand (a seeded generator's state; for scripted dice
//!   only how many are used: the list itself is on line 1) — and last a digest chained over the
//!   line before: FNV-1a 64 of the previous line's digest followed by this line's content.
//!
//! Loading replays the lines onto line 1 and gives the [`Save`] to the same checks as any other
//! ([`Save::restore`]): an edit anywhere is refused, by the first thing the replay finds wrong or
//! else as "edited or damaged".
//!
//! # Durability
//!
//! Appending a line is one `write` of the whole line with its newline; it is flushed to the disk
//! (`fdatasync`) when someone waits on the game (a person is to act, or the game is over) and when
//! the session stops ([`SaveJournal::sync`]), not between computers' turns, which a load plays
//! again the same way. A process killed (`kill -9`)
//! at any moment leaves every line it wrote, and at most one line cut short: the turn in flight.
//! A last line without its newline is exactly that, and is dropped on load without a word: the
//! game goes on from the line before. A complete line that does not match its digest is not a
//! turn in flight but an edit or damage, and is refused. After many undos the file can grow
//! large beside the game it holds; it is then rewritten whole, atomically, once (see
//! [`SaveJournal::append`]).

use std::{
    fs::{File, OpenOptions},
    io::{self, Write},
    path::{Path, PathBuf},
};

use serde::{Deserialize, Serialize};
use snl_engine::{Game, MoveRecord};

use super::{MAX_SAVE_BYTES, SAVE_FORMAT, Save, SaveError, Wire, as_written, digest, fnv1a64};
use crate::{
    atomic::write_atomically,
    dice::DiceState,
    head::{Head, HeadDice},
};

/// The version of journal save files written: 4, whose heads keep each seat's state and the
/// number of the last event. Version 3 journals (a list of `positions`, no number) are read too.
pub(super) const JOURNAL_VERSION: u32 = 4;

/// Whether a file whose line 1 is a save of `version` is a journal.
pub(super) fn is_journal(version: u64) -> bool {
    version == 3 || version == u64::from(JOURNAL_VERSION)
}

/// One appended line: what an action changed.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    /// After an undo: how many records of the history stay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kept: Option<usize>,
    /// Records added since the line before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    records: Vec<MoveRecord>,
    head: Head,
    /// Chained digest: see [`chained`]. Empty while the content is digested.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    digest: String,
}

/// `fnv1a64:` and the FNV-1a 64 hash of `previous` (the line before's digest) followed by the
/// compact JSON of `entry` without its digest.
fn chained(previous: &str, entry: &Entry) -> String {
    let content = serde_json::to_vec(entry).expect("a journal line is always JSON");
    let content = as_written(content, &entry.head.seat_states);
    let mut bytes = Vec::with_capacity(previous.len() + content.len());
    bytes.extend_from_slice(previous.as_bytes());
    bytes.extend_from_slice(&content);
    format!("fnv1a64:{:016x}", fnv1a64(&bytes))
}

/// Line 1 of a journal for `save`, with its newline, and its digest.
fn first_line(save: &Save) -> (String, String) {
    let mut wire = Wire {
        format: SAVE_FORMAT.to_owned(),
        version: JOURNAL_VERSION,
        board_name: save.board_name.clone(),
        game: save.game.clone(),
        dice: save.dice.clone(),
        seq: save.seq,
        digest: None,
    };
    let line_digest = digest(&wire);
    wire.digest = Some(line_digest.clone());
    let mut text = serde_json::to_string(&wire).expect("a save is always JSON");
    text.push('\n');
    (text, line_digest)
}

/// A save file kept as a journal: created with the game as it stands, then told every action.
///
/// ```
/// use snl_engine::{Board, FirstOption, Game, Preset, Rules, Seat, SeatKind};
/// use snl_store::{DiceState, Save, SaveJournal};
///
/// let rules = Rules::default();
/// let board = Board::new(&Preset::Classic.spec(), &rules)?;
/// let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Bob", SeatKind::Easy)];
/// let (mut game, mut dice) = (Game::new(board, rules, seats)?, DiceState::seeded(3));
/// # let path = std::env::temp_dir().join(format!("snl-doc-journal-{}.json", std::process::id()));
/// let mut journal = SaveJournal::create(&path, &Save::new(&game, &dice, "classic"))?;
/// for _ in 0..5 {
///     game.play_turn(&mut dice, &mut FirstOption, &mut ())?;
///     journal.append(&game, &dice, 0, false)?; // one line per turn
/// }
/// let back = Save::read(&path)?;
/// # std::fs::remove_file(&path)?;
/// assert_eq!(back, Save::numbered(&game, &dice, "classic", 0));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct SaveJournal {
    path: PathBuf,
    file: File,
    board_name: String,
    /// The digest of the last line written.
    last_digest: String,
    /// How many history records the file holds now, and the last of them.
    records: usize,
    last_record: Option<MoveRecord>,
    /// Records written and then taken back by undos since line 1 was written.
    undone: usize,
    /// The file's length now, and line 1's.
    written: u64,
    first: u64,
    /// The length past which the file is rewritten whole ([`SaveJournal::COMPACT_AT`]), and
    /// the most it may hold ([`MAX_SAVE_BYTES`]).
    compact_at: u64,
    max: u64,
}

impl SaveJournal {
    /// Records taken back beyond which (and beyond the history's length) the file is rewritten
    /// whole: its cost, spread over the undos that made it due, stays the same per action.
    pub const REWRITE_AFTER_UNDONE: usize = 1024;

    /// The length (bytes) past which the file is rewritten whole, line 1 then holding every
    /// record — or past twice line 1, when that is more, up to what is read back
    /// ([`MAX_SAVE_BYTES`], 256 MiB). An appended line carries the game's head (some 550 bytes
    /// a turn on a large board), line 1 about 110 bytes a record: a 1.9-million-turn game once
    /// wrote 1.14 GB that `--load` refused. Rewritten so, a save holds a game of some 2.3
    /// million turns, where line 1 alone nears the limit; a longer game is told that its save
    /// stops there (the append's error), never written past what loads.
    pub const COMPACT_AT: u64 = MAX_SAVE_BYTES / 2;

    /// Writes line 1 — the game as it stands — to `path` atomically, so that a path that cannot
    /// be written is refused at once, and opens the file for appending.
    ///
    /// # Errors
    ///
    /// Any I/O error; the file at `path` is then as it was.
    pub fn create(path: &Path, save: &Save) -> io::Result<SaveJournal> {
        SaveJournal::create_within(path, save, Self::COMPACT_AT, MAX_SAVE_BYTES)
    }

    /// As [`SaveJournal::create`], rewritten whole past `compact_at` bytes and holding at most
    /// `max` (smaller than the defaults in tests).
    #[doc(hidden)]
    pub fn create_within(
        path: &Path,
        save: &Save,
        compact_at: u64,
        max: u64,
    ) -> io::Result<SaveJournal> {
        let (text, last_digest) = first_line(save);
        if text.len() as u64 > max {
            return Err(past_the_limit(max, save.game.turns));
        }
        write_atomically(path, text.as_bytes())?;
        let file = OpenOptions::new().append(true).open(path)?;
        let first = text.len() as u64;
        Ok(SaveJournal {
            written: first,
            first,
            compact_at,
            max,
            path: path.to_owned(),
            file,
            board_name: save.board_name.clone(),
            last_digest,
            records: save.game.history.len(),
            last_record: save.game.history.last().cloned(),
            undone: 0,
        })
    }

    /// Where the journal is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records the game as it stands after an action: one line with the records added since
    /// the last line (or how many were kept, after an undo) and the head, written at once, and
    /// flushed to the disk when `sync`. The game must have come from the last recorded one by
    /// adding records or taking some back (a turn, a redo, an undo); if its history disagrees
    /// with the last record written, or undos have taken back more than
    /// [`SaveJournal::REWRITE_AFTER_UNDONE`] records and more than the history holds, the file is
    /// rewritten whole, atomically, instead.
    ///
    /// # Errors
    ///
    /// Any I/O error. A failed append may leave a torn last line, which loading drops.
    ///
    /// # Panics
    ///
    /// Never: every line has a JSON form.
    pub fn append(
        &mut self,
        game: &Game,
        dice: &DiceState,
        seq: u64,
        sync: bool,
    ) -> io::Result<()> {
        let history = game.history();
        let mut entry = Entry {
            kept: None,
            records: Vec::new(),
            head: Head::of(game, dice, seq),
            digest: String::new(),
        };
        if history.len() < self.records {
            entry.kept = Some(history.len());
            self.undone += self.records - history.len();
        } else if self.records > 0 && history.get(self.records - 1) != self.last_record.as_ref() {
            return self.rewrite(game, dice, seq);
        } else {
            entry.records = history[self.records..].to_vec();
        }
        if self.undone > Self::REWRITE_AFTER_UNDONE && self.undone > history.len() {
            return self.rewrite(game, dice, seq);
        }
        let line_digest = chained(&self.last_digest, &entry);
        entry.digest.clone_from(&line_digest);
        let mut line = serde_json::to_vec(&entry).expect("a journal line is always JSON");
        line.push(b'\n');
        // Past its bound the file is rewritten whole: the bound is at least twice line 1, so
        // that a rewrite's cost is spread over as many bytes appended, and at most what is
        // read back; once line 1 alone passes that, the game is longer than a save holds.
        let bound = self.max.min(self.compact_at.max(2 * self.first));
        if self.written + line.len() as u64 > bound {
            if self.first < bound {
                return self.rewrite(game, dice, seq);
            }
            if self.written + line.len() as u64 > self.max {
                return Err(past_the_limit(self.max, game.turns()));
            }
        }
        self.file.write_all(&line)?;
        self.written += line.len() as u64;
        if sync {
            self.file.sync_data()?;
        }
        self.last_digest = line_digest;
        self.records = history.len();
        self.last_record = history.last().cloned();
        Ok(())
    }

    /// Flushes what was appended to the disk (`fdatasync`).
    ///
    /// # Errors
    ///
    /// Any I/O error.
    pub fn sync(&self) -> io::Result<()> {
        self.file.sync_data()
    }

    /// Replaces the file with line 1 for the game as it stands.
    fn rewrite(&mut self, game: &Game, dice: &DiceState, seq: u64) -> io::Result<()> {
        let save = Save::numbered(game, dice, &self.board_name, seq);
        *self = SaveJournal::create_within(&self.path, &save, self.compact_at, self.max)?;
        Ok(())
    }
}

/// Why turn `turn` of a game is not saved: the file would pass `max` bytes, what is read back.
fn past_the_limit(max: u64, turn: u32) -> io::Error {
    io::Error::other(format!(
        "the game has grown past what a save file holds ({max} bytes, some 2.3 million turns at \
         the default limit), so its turn {turn} is not saved"
    ))
}

/// Reads a journal whose line 1 is `first` (already found to be a version 3 or 4 save), the rest
/// following in `rest`, one line at a time (so memory holds the game, not the file): line 1's
/// digest, each line's chained digest, and the lines replayed onto line 1. A last line without
/// its newline is dropped.
pub(super) fn read(first: &[u8], rest: &mut dyn io::BufRead) -> Result<Save, SaveError> {
    // Straight into its types, never a tree of JSON values: line 1 of a journal rewritten whole
    // holds the whole history (see [`SaveJournal::COMPACT_AT`]).
    let mut wire: Wire = serde_json::from_slice(first).map_err(|e| {
        let place = format!(" at line {} column {}", e.line(), e.column());
        SaveError::Shape(e.to_string().trim_end_matches(&place).to_owned())
    })?;
    let Some(written) = wire.digest.take() else {
        return Err(SaveError::Shape(
            "it has no \"digest\" (every save since version 2 has one)".into(),
        ));
    };
    let mut edited = written != digest(&wire);
    let mut save =
        Save { board_name: wire.board_name, game: wire.game, dice: wire.dice, seq: wire.seq };
    let mut previous = written;
    let mut number = 1;
    let mut line = Vec::new();
    loop {
        line.clear();
        rest.read_until(b'\n', &mut line)?;
        number += 1;
        if line.last() != Some(&b'\n') {
            break; // After the last newline: empty, or a line cut short (the turn in flight).
        }
        line.pop();
        let mut entry: Entry = serde_json::from_slice(&line)
            .map_err(|e| SaveError::Corrupt(format!("line {number}: {e}")))?;
        let written = std::mem::take(&mut entry.digest);
        if written.is_empty() {
            return Err(SaveError::Shape(format!("line {number} has no \"digest\"")));
        }
        edited |= written != chained(&previous, &entry);
        previous = written;
        apply(&mut save, entry).map_err(|why| SaveError::Shape(format!("line {number} {why}")))?;
    }
    if edited {
        return Err(save.restore().err().unwrap_or(SaveError::Edited));
    }
    Ok(save)
}

/// Puts one line's change into `save`, or says why it cannot be.
fn apply(save: &mut Save, entry: Entry) -> Result<(), String> {
    let game = &mut save.game;
    if let Some(kept) = entry.kept {
        if kept > game.history.len() {
            return Err(format!(
                "keeps {kept} records of the history, which has only {}",
                game.history.len()
            ));
        }
        game.history.truncate(kept);
    }
    game.history.extend(entry.records);
    let head = entry.head;
    game.status = head.status;
    game.turns = head.turns;
    game.current = head.current;
    game.seat_states = head.seat_states;
    game.ranking = head.ranking;
    game.pending_roll = head.pending_roll;
    game.time_up = head.time_up;
    game.timed_out = head.timed_out;
    save.seq = head.seq;
    match (head.dice, &mut save.dice) {
        (HeadDice::Seeded { generator: new }, DiceState::Seeded { generator, .. }) => {
            *generator = new;
        }
        (HeadDice::Scripted { used }, DiceState::Scripted(list)) => {
            if used > list.rolls().len() {
                return Err(format!(
                    "says {used} scripted rolls are used, but there are only {}",
                    list.rolls().len()
                ));
            }
            list.rewind_to(used);
        }
        _ => return Err("has dice of another kind than line 1".into()),
    }
    Ok(())
}

#[cfg(test)]
mod tests;
