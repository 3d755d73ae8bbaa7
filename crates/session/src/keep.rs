//! Recorders: what keeps a session's game — the save file (`--save`) and the game database. The
//! session tells each one after every turn, undo and redo, and when it stops; a recorder that
//! fails says why in one sentence and is dropped, and the game goes on.

use std::{borrow::Cow, path::Path};

use snl_engine::{Game, Numbered, Status};
use snl_store::{Action, Database, DbError, DiceState, GameId, Logged, Save, SaveJournal};

/// The game as it stands after an action, as a recorder is told it.
#[derive(Debug)]
pub struct Kept<'a> {
    /// What was done: a turn played, an undo, a redo.
    pub action: Action,
    /// The game now.
    pub game: &'a Game,
    /// The dice now.
    pub dice: &'a DiceState,
    /// What the board is called.
    pub board_name: &'a str,
    /// The events of the action, as they were told, numbered (a turn's events; an undo's).
    pub events: &'a [Numbered<usize>],
    /// The number of the last event told.
    pub seq: u64,
    /// Whether someone waits on the game now (a person is to act, or it is over): what a
    /// recorder holds back must be kept now. Otherwise a computer plays next, and a recorder may
    /// gather a few turns into one write — turns it loses in a crash are played again the same
    /// way on resume, since computers and dice are reproducible.
    pub urgent: bool,
}

/// Keeps a game somewhere.
pub trait Recorder: std::fmt::Debug + Send {
    /// Keeps the game after an action.
    ///
    /// # Errors
    ///
    /// One sentence saying what failed and what it means; the session then drops the recorder.
    fn keep(&mut self, kept: &Kept<'_>) -> Result<(), String>;

    /// Keeps at once whatever the recorder held back, the game being as `kept` says (its
    /// action and events are not new: nothing is logged for them).
    ///
    /// # Errors
    ///
    /// As [`Recorder::keep`].
    fn flush(&mut self, kept: &Kept<'_>) -> Result<(), String> {
        let _ = kept;
        Ok(())
    }

    /// The session stopped before the game ended (it stays resumable).
    ///
    /// # Errors
    ///
    /// As [`Recorder::keep`].
    fn stopped(&mut self) -> Result<(), String>;
}

/// The save file of `--save`, kept as a journal ([`SaveJournal`]): written whole when the session
/// begins, then one line appended per action, flushed to the disk when someone waits on the game.
#[derive(Debug)]
pub struct SaveFile {
    journal: SaveJournal,
}

impl SaveFile {
    /// Writes the game to `path` at once (atomically), so that a path that cannot be written is
    /// refused before the first turn.
    ///
    /// # Errors
    ///
    /// The write's error.
    pub fn start(path: &Path, save: &Save) -> std::io::Result<SaveFile> {
        let journal = SaveJournal::create(path, save)?;
        Ok(SaveFile { journal })
    }

    /// Where the game is saved.
    pub fn path(&self) -> &Path {
        self.journal.path()
    }
}

impl Recorder for SaveFile {
    fn keep(&mut self, kept: &Kept<'_>) -> Result<(), String> {
        self.journal.append(kept.game, kept.dice, kept.seq, kept.urgent).map_err(|e| {
            format!(
                "cannot write the save file {}: {e}; it is not kept any more",
                self.journal.path().display()
            )
        })
    }

    fn stopped(&mut self) -> Result<(), String> {
        self.journal.sync().map_err(|e| {
            format!("cannot write the save file {}: {e}", self.journal.path().display())
        })
    }
}

/// A game recorded in the game database, turn by turn: each write holds what changed, never the
/// whole game, and turns computers play one after another are gathered into one write (at most
/// [`GameDb::GATHER`] turns or [`GameDb::GATHER_MS`] milliseconds), kept at once whenever a
/// person is to act or the game ends.
#[derive(Debug)]
pub struct GameDb {
    db: Database,
    id: GameId,
    clock: fn() -> u64,
    /// Log lines not yet written (turns played one after another are one line), the actions
    /// they hold, and when the last write was.
    held: Vec<Logged>,
    held_actions: usize,
    last_write_ms: u64,
    /// Whether the game's achievements were awarded (once, when it is over).
    awarded: bool,
}

impl GameDb {
    /// At most this many turns are gathered into one write.
    pub const GATHER: usize = 1024;
    /// A write happens at least this often while computers play.
    pub const GATHER_MS: u64 = 200;

    /// Records a new game (new, or loaded from a file) in `db`; `clock` gives milliseconds since
    /// the Unix epoch for the records' times.
    ///
    /// # Errors
    ///
    /// The database's error.
    pub fn start(mut db: Database, save: &Save, clock: fn() -> u64) -> Result<GameDb, DbError> {
        let now = clock();
        let id = db.new_game(save, now)?;
        Ok(GameDb {
            db,
            id,
            clock,
            held: Vec::new(),
            held_actions: 0,
            last_write_ms: now,
            awarded: false,
        })
    }

    /// Goes on recording game `id` of `db` (a resumed game).
    pub fn resume(db: Database, id: GameId, clock: fn() -> u64) -> GameDb {
        GameDb {
            db,
            id,
            clock,
            held: Vec::new(),
            held_actions: 0,
            last_write_ms: clock(),
            awarded: false,
        }
    }

    /// The game's number in the database.
    pub fn id(&self) -> GameId {
        self.id
    }

    /// Awards the achievements of `game` once it is over (once: see [`crate::achievements`]),
    /// after its last turn is written.
    fn award(&mut self, game: &Game, now: u64) -> Result<(), String> {
        if self.awarded || game.status() != Status::Finished {
            return Ok(());
        }
        self.awarded = true;
        let awards = crate::achievements::named(game);
        if awards.is_empty() {
            return Ok(());
        }
        self.db
            .award(self.id, &awards, now)
            .map(drop)
            .map_err(|e| self.failed(&e, "its achievements are not recorded"))
    }

    fn failed(&self, e: &DbError, consequence: &str) -> String {
        format!(
            "the game database {} {e}; {consequence} (--no-record plays without it)",
            self.db.path().display()
        )
    }
}

impl Recorder for GameDb {
    fn keep(&mut self, kept: &Kept<'_>) -> Result<(), String> {
        let now = (self.clock)();
        // The log keeps events in their wire form: players by name, as `--events jsonl` and the
        // network give them (borrowed: a seat's name is not copied for every event).
        let seats = kept.game.seats();
        let named: Vec<_> = kept
            .events
            .iter()
            .map(|told| Numbered {
                seq: told.seq,
                event: told.event.map_players(|&s| {
                    seats.get(s).map_or_else(
                        || Cow::Owned(format!("#{s}")),
                        |x| Cow::Borrowed(x.name.as_str()),
                    )
                }),
            })
            .collect();
        let turns = kept.game.turns();
        let joined = kept.action == Action::Turn
            && self.held.last_mut().is_some_and(|last| last.add_turn(turns, &named, now));
        if !joined {
            self.held.push(Logged::new(kept.action, turns, &named, now));
        }
        self.held_actions += 1;
        let due = kept.urgent
            || self.held_actions >= GameDb::GATHER
            || now.saturating_sub(self.last_write_ms) >= GameDb::GATHER_MS;
        if !due {
            return Ok(());
        }
        let held = std::mem::take(&mut self.held);
        self.held_actions = 0;
        self.last_write_ms = now;
        self.db
            .record_turns(self.id, kept.game, kept.dice, kept.seq, &held, now)
            .map_err(|e| self.failed(&e, "the rest of this game is not recorded"))?;
        self.award(kept.game, now)
    }

    fn flush(&mut self, kept: &Kept<'_>) -> Result<(), String> {
        if self.held.is_empty() {
            return Ok(());
        }
        let now = (self.clock)();
        let held = std::mem::take(&mut self.held);
        self.held_actions = 0;
        self.last_write_ms = now;
        self.db
            .record_turns(self.id, kept.game, kept.dice, kept.seq, &held, now)
            .map_err(|e| self.failed(&e, "the rest of this game is not recorded"))
    }

    fn stopped(&mut self) -> Result<(), String> {
        self.db
            .mark_stopped(self.id, (self.clock)())
            .map_err(|e| self.failed(&e, "its stop is not recorded"))
    }
}
