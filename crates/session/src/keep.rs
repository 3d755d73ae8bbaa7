//! Recorders: what keeps a session's game — the save file (`--save`) and the game database. The
//! session tells each one after every turn, undo and redo, and when it stops; a recorder that
//! fails says why in one sentence and is dropped, and the game goes on.

use std::path::{Path, PathBuf};

use snl_engine::{Event, Game};
use snl_store::{Action, Database, DbError, DiceState, GameId, Save};

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
    /// The events of the action (a turn's events; none for an undo).
    pub events: &'a [Event],
}

/// Keeps a game somewhere.
pub trait Recorder: std::fmt::Debug + Send {
    /// Keeps the game after an action.
    ///
    /// # Errors
    ///
    /// One sentence saying what failed and what it means; the session then drops the recorder.
    fn keep(&mut self, kept: &Kept<'_>) -> Result<(), String>;

    /// The session stopped before the game ended (it stays resumable).
    ///
    /// # Errors
    ///
    /// As [`Recorder::keep`].
    fn stopped(&mut self) -> Result<(), String>;
}

/// The save file of `--save`, written whole and atomically after every action.
#[derive(Debug)]
pub struct SaveFile {
    path: PathBuf,
}

impl SaveFile {
    /// Writes the game to `path` at once, so that a path that cannot be written is refused before
    /// the first turn.
    ///
    /// # Errors
    ///
    /// The write's error.
    pub fn start(
        path: &Path,
        game: &Game,
        dice: &DiceState,
        board_name: &str,
    ) -> std::io::Result<SaveFile> {
        Save::new(game, dice, board_name).write(path)?;
        Ok(SaveFile { path: path.to_owned() })
    }

    /// Where the game is saved.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Recorder for SaveFile {
    fn keep(&mut self, kept: &Kept<'_>) -> Result<(), String> {
        Save::new(kept.game, kept.dice, kept.board_name).write(&self.path).map_err(|e| {
            format!(
                "cannot write the save file {}: {e}; it is not kept any more",
                self.path.display()
            )
        })
    }

    fn stopped(&mut self) -> Result<(), String> {
        Ok(())
    }
}

/// A game recorded in the game database, turn by turn.
#[derive(Debug)]
pub struct GameDb {
    db: Database,
    id: GameId,
    clock: fn() -> u64,
}

impl GameDb {
    /// Records a new game (new, or loaded from a file) in `db`; `clock` gives milliseconds since
    /// the Unix epoch for the records' times.
    ///
    /// # Errors
    ///
    /// The database's error.
    pub fn start(
        mut db: Database,
        game: &Game,
        dice: &DiceState,
        board_name: &str,
        clock: fn() -> u64,
    ) -> Result<GameDb, DbError> {
        let id = db.new_game(&Save::new(game, dice, board_name), clock())?;
        Ok(GameDb { db, id, clock })
    }

    /// Goes on recording game `id` of `db` (a resumed game).
    pub fn resume(db: Database, id: GameId, clock: fn() -> u64) -> GameDb {
        GameDb { db, id, clock }
    }

    /// The game's number in the database.
    pub fn id(&self) -> GameId {
        self.id
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
        let save = Save::new(kept.game, kept.dice, kept.board_name);
        self.db
            .record(self.id, kept.action, &save, kept.events, (self.clock)())
            .map_err(|e| self.failed(&e, "the rest of this game is not recorded"))
    }

    fn stopped(&mut self) -> Result<(), String> {
        self.db
            .mark_stopped(self.id, (self.clock)())
            .map_err(|e| self.failed(&e, "its stop is not recorded"))
    }
}
