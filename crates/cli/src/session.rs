//! Where games are kept: the game database's path (`--db`, `SNL_DB`, the data folder), its
//! errors as sentences, and the recorders a session is given (the save file of `--save`, the game
//! database). Keeping never stops a game: when the database cannot be written the game goes on
//! with one warning.

use std::{
    ffi::OsString,
    path::{Path, PathBuf},
    time::{SystemTime, UNIX_EPOCH},
};

use clap::Args;
use snl_session::{GameDb, SaveFile, Session};
use snl_store::{Database, DbError, GameId};

use snl_tui::seated::Kept;

use crate::{
    common::{CmdResult, Failure},
    format::shown_path,
};

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

/// Seats the recorders of `session`: the save file at `save` (written at once, so that a path
/// that cannot be written — a folder, a device, a pipe — is refused before the first turn; a
/// symbolic link is followed and the file it leads to replaced), and the game database at `db` — a
/// new record, or `resumed`, the record of a game going on. A database that cannot be written is
/// one warning and the game is played unrecorded.
///
/// # Errors
///
/// A save file that cannot be written (exit 2).
pub(crate) fn keep(
    session: &mut Session,
    save: Option<&Path>,
    db: Option<&Path>,
    resumed: Option<(Database, GameId)>,
) -> CmdResult<Kept> {
    let mut kept = Kept { save: save.map(Path::to_owned), ..Kept::default() };
    if let Some(path) = save {
        let file = SaveFile::start(path, &session.save()).map_err(|e| {
            Failure::bad(anyhow::anyhow!("cannot write the save file {}: {e}", shown_path(path)))
        })?;
        session.record_with(Box::new(file));
    }
    let recorder = match (resumed, db) {
        (Some((db, id)), _) => {
            kept.db = Some(db.path().to_owned());
            Some(GameDb::resume(db, id, now_ms))
        }
        (None, Some(path)) => {
            let started =
                Database::open(path).and_then(|db| GameDb::start(db, &session.save(), now_ms));
            match started {
                Ok(recorder) => {
                    kept.db = Some(path.to_owned());
                    Some(recorder)
                }
                Err(e) => {
                    warn_unrecorded(path, &e, "this game is not recorded");
                    None
                }
            }
        }
        (None, None) => None,
    };
    if let Some(recorder) = recorder {
        kept.game_id = Some(recorder.id());
        session.record_with(Box::new(recorder));
    }
    Ok(kept)
}

/// One warning: the game database failed, and what that means for the game.
pub(crate) fn warn_unrecorded(path: &Path, error: &DbError, consequence: &str) {
    snl_tui::stderr_line!(
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
