//! Keeping Snakes and Ladders games: save files (versioned JSON, written atomically, read back
//! through one checked door), the game database (SQLite: every game turn by turn, for resume,
//! replay, history, statistics and the leaderboard). Undo lives with the session (`snl-session`),
//! in a few numbers per turn.
//!
//! No terminal, no environment, no clock: callers pass paths and times in.
//!
//! # Example
//!
//! ```
//! use snl_engine::{Board, FirstOption, Game, Preset, Rules, Seat, SeatKind};
//! use snl_store::{DiceState, Save};
//!
//! let rules = Rules::default();
//! let board = Board::new(&Preset::Classic.spec(), &rules)?;
//! let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Bob", SeatKind::Easy)];
//! let (mut game, mut dice) = (Game::new(board, rules, seats)?, DiceState::seeded(7));
//! for _ in 0..10 {
//!     game.play_turn(&mut dice, &mut FirstOption, &mut ())?;
//! }
//! # let path = std::env::temp_dir().join(format!("snl-doc-{}.json", std::process::id()));
//! Save::new(&game, &dice, "classic").write(&path)?; // atomically
//!
//! let save = Save::read(&path)?;
//! let (mut back, mut back_dice) = (save.restore()?, save.dice);
//! # std::fs::remove_file(&path)?;
//! let (mut a, mut b) = (Vec::new(), Vec::new());
//! game.play_to_end(&mut dice, &mut FirstOption, &mut a)?;
//! back.play_to_end(&mut back_dice, &mut FirstOption, &mut b)?;
//! assert_eq!(a, b); // the same game as without the break, event for event
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! # Where things are
//!
//! - [`Save`]: one game as a file, whole or as a [`SaveJournal`] that `--save` appends to; [`Save::restore`] checks it (see
//!   [`snl_engine::Game::restore`]) and [`SaveError`] says what is wrong.
//! - [`DiceState`]: seeded or scripted dice where they stand — part of every save.
//! - [`Database`]: the SQLite game database, its schema migrations ([`SCHEMA_VERSION`]), and
//!   the queries behind `snl games`, `history`, `stats` and `leaderboard`.
//! - [`RoomStore`]: the online rooms of `snl serve` (setup, seats by token hash, command log,
//!   events), in tables of their own beside the games.
//! - [`write_atomically`]: temporary file, fsync, rename, fsync of the folder.

mod atomic;
mod db;
mod dice;
mod head;
mod rooms;
mod save;

pub use atomic::write_atomically;
pub use db::{
    Action, BUSY_TIMEOUT, Database, DbError, Earned, GameId, GameStatus, GameSummary, Logged,
    MoveRow, NewSeries, PlayerStats, SCHEMA_VERSION, SeriesId, SeriesSummary,
};
pub use dice::{DiceState, RoomDice};
pub use rooms::{
    CHECKPOINT_PAGES, Checkpointer, ROOM_SCHEMA_VERSION, RoomStore, RoomWrite, StoredRoom,
};
pub use save::{MAX_SAVE_BYTES, SAVE_FORMAT, SAVE_VERSION, Save, SaveError, SaveJournal};

#[cfg(test)]
mod test_dir {
    use std::path::{Path, PathBuf};

    /// A fresh folder for one test, removed when dropped.
    pub(crate) struct TestDir(PathBuf);

    impl TestDir {
        pub(crate) fn new(name: &str) -> TestDir {
            let path =
                std::env::temp_dir().join(format!("snl-store-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&path);
            std::fs::create_dir_all(&path).unwrap();
            TestDir(path)
        }

        pub(crate) fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for TestDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}
