//! Keeping a game as it is played: the save file (`--save`) and the game database, each written
//! after every turn, undo and redo. Keeping never stops a game: when the database cannot be
//! written the game goes on with one warning.

use std::{
    ffi::OsString,
    path::{Path, PathBuf},
    time::{SystemTime, UNIX_EPOCH},
};

use clap::Args;
use snl_engine::{Event, Game};
use snl_store::{Action, Database, DbError, DiceState, GameId, Save};

use crate::common::{CmdResult, Failure};

/// Where the game database is: `--db`, else `SNL_DB`, else the user's data folder.
#[derive(Args, Clone, Debug, Default)]
#[command(next_help_heading = "Game database")]
pub(crate) struct DbArgs {
    #[arg(
        long,
        value_name = "PATH",
        help = "The game database (default: $SNL_DB, else $XDG_DATA_HOME/snl/games.db or \
                ~/.local/share/snl/games.db)"
    )]
    pub(crate) db: Option<PathBuf>,
}

impl DbArgs {
    /// The database path in force. The environment is read here, at the edge, and nowhere in
    /// the libraries.
    pub(crate) fn path(&self) -> Option<PathBuf> {
        database_path(self.db.as_deref(), |name| std::env::var_os(name))
    }

    /// The database path, or a failure saying why there is none.
    pub(crate) fn required_path(&self) -> CmdResult<PathBuf> {
        self.path().ok_or_else(|| {
            Failure::bad(anyhow::anyhow!(
                "no game database: give one with --db PATH or SNL_DB (HOME is not set)"
            ))
        })
    }

    /// Opens the database to read it (upgrading an old schema when it can be written).
    pub(crate) fn open_existing(&self) -> CmdResult<Database> {
        let path = self.required_path()?;
        Database::open_existing(&path).map_err(|e| db_failure(&path, &e))
    }
}

/// `flag`, else `$SNL_DB`, else `$XDG_DATA_HOME/snl/games.db` (an absolute one), else
/// `$HOME/.local/share/snl/games.db`, else none.
fn database_path(flag: Option<&Path>, env: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let set = |name: &str| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(path) = flag {
        return Some(path.to_owned());
    }
    if let Some(path) = set("SNL_DB") {
        return Some(path);
    }
    let data = set("XDG_DATA_HOME")
        .filter(|p| p.is_absolute())
        .or_else(|| set("HOME").map(|home| home.join(".local").join("share")))?;
    Some(data.join("snl").join("games.db"))
}

/// A database error as one sentence naming the file, with the exit code it deserves.
pub(crate) fn db_failure(path: &Path, error: &DbError) -> Failure {
    let sentence = anyhow::anyhow!("the game database {} {error}", path.display());
    match error {
        DbError::Missing
        | DbError::NoSuchGame(_)
        | DbError::BadGame { .. }
        | DbError::Newer { .. }
        | DbError::Stale { .. } => Failure::bad(sentence),
        _ => Failure::other(sentence),
    }
}

/// Milliseconds since the Unix epoch, from the system clock.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// Writes a game everywhere it is kept, after every turn, undo and redo.
pub(crate) struct Keeper {
    board_name: String,
    save: Option<PathBuf>,
    save_warned: bool,
    db: Option<(Database, GameId)>,
}

/// Where a game comes from, for the database.
pub(crate) enum Origin {
    /// Not recorded (`--no-record`, or no database could be found).
    Unrecorded,
    /// A game that starts being recorded now (new, or loaded from a file).
    New(PathBuf),
    /// A recorded game going on (`snl resume`); `None` when the database cannot be written.
    Recorded(Option<(Database, GameId)>),
}

impl Keeper {
    /// Starts keeping `game`: writes the save file at once (so a path that cannot be written is
    /// refused before the first turn) and records the game in the database.
    pub(crate) fn start(
        board_name: &str,
        save: Option<&Path>,
        origin: Origin,
        game: &Game,
        dice: &DiceState,
    ) -> CmdResult<Keeper> {
        let mut keeper = Keeper {
            board_name: board_name.to_owned(),
            save: save.map(Path::to_owned),
            save_warned: false,
            db: None,
        };
        let state = Save::new(game, dice, board_name);
        if let Some(path) = &keeper.save {
            state.write(path).map_err(|e| {
                Failure::bad(anyhow::anyhow!("cannot write the save file {}: {e}", path.display()))
            })?;
        }
        keeper.db = match origin {
            Origin::Unrecorded => None,
            Origin::Recorded(db) => db,
            Origin::New(path) => {
                let opened = Database::open(&path)
                    .and_then(|mut db| db.new_game(&state, now_ms()).map(|id| (db, id)));
                match opened {
                    Ok(db) => Some(db),
                    Err(e) => {
                        warn_unrecorded(&path, &e, "this game is not recorded");
                        None
                    }
                }
            }
        };
        Ok(keeper)
    }

    /// The game's number in the database, while it is being recorded.
    pub(crate) fn game_id(&self) -> Option<GameId> {
        self.db.as_ref().map(|(_, id)| *id)
    }

    /// The save file, if there is one.
    pub(crate) fn save_path(&self) -> Option<&Path> {
        self.save.as_deref()
    }

    /// Keeps the game as it stands after `action` (a turn told by `events`, an undo, a redo).
    pub(crate) fn keep(&mut self, action: Action, game: &Game, dice: &DiceState, events: &[Event]) {
        let state = Save::new(game, dice, &self.board_name);
        if let Some(path) = &self.save
            && let Err(e) = state.write(path)
            && !self.save_warned
        {
            eprintln!("snl: warning: cannot write the save file {}: {e}", path.display());
            self.save_warned = true;
        }
        if let Some((db, id)) = &mut self.db
            && let Err(e) = db.record(*id, action, &state, events, now_ms())
        {
            warn_unrecorded(db.path(), &e, "the rest of this game is not recorded");
            self.db = None;
        }
    }

    /// Marks the game as stopped on purpose (it stays resumable).
    pub(crate) fn stopped(&mut self) {
        if let Some((db, id)) = &mut self.db
            && let Err(e) = db.mark_stopped(*id, now_ms())
        {
            warn_unrecorded(db.path(), &e, "its stop is not recorded");
        }
    }

    /// How to go on with a stopped game, for people.
    pub(crate) fn how_to_go_on(&self) -> Option<String> {
        let mut ways = Vec::new();
        if let Some(id) = self.game_id() {
            ways.push(format!("snl resume {id}"));
        }
        if let Some(path) = &self.save {
            ways.push(format!("snl play --load {}", path.display()));
        }
        (!ways.is_empty()).then(|| format!("Go on with: {}", ways.join(", or ")))
    }
}

fn warn_unrecorded(path: &Path, error: &DbError, consequence: &str) {
    eprintln!(
        "snl: warning: the game database {} {error}; {consequence} (--no-record plays without it)",
        path.display()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |name| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| OsString::from(v))
    }

    #[test]
    fn the_database_path_follows_flag_then_snl_db_then_the_data_folder() {
        let all = [("SNL_DB", "/e/games.db"), ("XDG_DATA_HOME", "/xdg"), ("HOME", "/home/ann")];
        let flag = Path::new("/f/my.db");
        assert_eq!(database_path(Some(flag), env(&all)), Some(flag.to_owned()));
        assert_eq!(database_path(None, env(&all)), Some("/e/games.db".into()));
        assert_eq!(database_path(None, env(&all[1..])), Some("/xdg/snl/games.db".into()));
        let home = [("XDG_DATA_HOME", "relative"), ("HOME", "/home/ann")];
        assert_eq!(
            database_path(None, env(&home)),
            Some("/home/ann/.local/share/snl/games.db".into())
        );
        assert_eq!(database_path(None, env(&[("SNL_DB", "")])), None);
    }
}
