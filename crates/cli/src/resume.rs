//! `snl resume`: go on with a recorded game — one cut off (the program killed, the power gone)
//! or stopped on purpose — from its last recorded turn; a game of a series goes on with the
//! rest of the series (`series::go_on`).

use clap::Args;
use snl_store::{Action, Database, DbError, GameId, GameStatus, Logged};

use snl_session::Session;

use crate::{
    common::{CmdResult, Failure},
    play::at_table,
    records::db_failure,
    session::{keep, now_ms, warn_unrecorded},
    table::TableArgs,
};
use snl_tui::{console::Console, seated::Seated};

/// Options of `snl resume`.
#[derive(Args, Clone, Debug, Default)]
#[command(
    after_help = "Limits: ID at most 9223372036854775807 (SQLite's largest row number); the \
game goes on with the board, rules and seats it was recorded with (at most 10000000 cells and \
256 seats)."
)]
pub(crate) struct ResumeArgs {
    /// The game's number (see `snl games`); default: the unfinished game recorded last.
    #[arg(value_name = "ID")]
    pub(crate) id: Option<i64>,
    #[command(flatten)]
    pub(crate) table: TableArgs,
}

pub(crate) fn run(args: &ResumeArgs, console: &mut Console) -> CmdResult {
    let path = args.table.db.required_path()?;
    if !path.exists() {
        return Err(db_failure(&path, &DbError::Missing));
    }
    if std::fs::metadata(&path).is_ok_and(|m| m.len() == 0) {
        return Err(db_failure(&path, &DbError::Empty));
    }
    // A database that cannot be written (read-only, in a read-only folder, locked for good) can
    // still be read: the game goes on unrecorded, with this one warning.
    let (db, writable) = match Database::open(&path) {
        Ok(db) => (db, true),
        Err(e @ (DbError::ReadOnly | DbError::Locked)) => {
            snl_tui::stderr_line!(
                "snl: warning: the game database {} {e}; the rest of this game is not recorded",
                path.display()
            );
            (args.table.db.open_existing()?, false)
        }
        Err(e) => return Err(db_failure(&path, &e)),
    };
    let failed = |e: DbError| db_failure(&path, &e);
    let waiting = db.latest_waiting_series().map_err(failed)?;
    let id = if let Some(id) = args.id {
        GameId(id)
    } else {
        let game = db.latest_unfinished().map_err(failed)?;
        let game_at = game.map(|id| db.updated_ms(id)).transpose().map_err(failed)?;
        match (game, waiting) {
            // A series cut off between two games, later than any game cut off in its middle.
            (_, Some((series, at))) if game_at.is_none_or(|g| at >= g) => {
                let summary = db.series(series).map_err(failed)?;
                return crate::series::go_on_between(&summary, &db, &args.table, console);
            }
            (Some(id), _) => id,
            (None, _) => {
                return Err(Failure::bad(anyhow::anyhow!(
                    "there is no unfinished game to resume in the game database {}",
                    path.display()
                )));
            }
        }
    };
    let status = db.status(id).map_err(failed)?;
    let save = db.load(id).map_err(failed)?;
    // The last game of a series cut off before its next game: the series goes on.
    if let (GameStatus::Finished, Some((series, _))) = (status, waiting)
        && db.series_of(id).map_err(failed)?.is_some_and(|(s, _)| s == series)
    {
        let summary = db.series(series).map_err(failed)?;
        return crate::series::go_on_between(&summary, &db, &args.table, console);
    }
    match status {
        GameStatus::Finished => {
            return Err(Failure::bad(anyhow::anyhow!(
                "game {id} is over, so there is nothing to resume: see it again with snl replay {id}"
            )));
        }
        GameStatus::Incomplete => {
            return Err(Failure::bad(anyhow::anyhow!(
                "game {id} cannot be resumed: its recording stopped after turn {} while the game \
                 went on unrecorded, so its record is incomplete (snl replay {id} shows that part)",
                save.game.turns
            )));
        }
        GameStatus::Playing | GameStatus::Stopped => {}
    }
    // A game of a series goes on with the series (unless the series is over already).
    let series = match db.series_of(id) {
        Ok(Some((series, number))) => match db.series(series) {
            Ok(summary) if !summary.finished => Some((summary, number)),
            Ok(_) => None,
            Err(e) => return Err(db_failure(&path, &e)),
        },
        Ok(None) => None,
        Err(e) => return Err(db_failure(&path, &e)),
    };
    let mut game = save.restore().map_err(|e| {
        Failure::bad(anyhow::anyhow!(
            "game {id} in the game database {} cannot be resumed: {e}",
            path.display()
        ))
    })?;
    game.set_clock(now_ms);
    let intro = format!("Going on with game {id}, after turn {}.", game.turns());
    let mut session = Session::resume(game, save.dice, &save.board_name, save.seq);
    // The resume is logged as a turn is (`record_turn`: the head and the log line), so the row
    // keeps the save the game began with; writing the whole save here once copied the history
    // into the row, and every later turn rewrote it (issue 29).
    let mut recorder = writable.then_some((db, id));
    if let Some((db, id)) = &mut recorder {
        let game = session.game();
        let line = Logged::new::<String>(Action::Resume, game.turns(), &[], now_ms());
        if let Err(e) = db.record_turn(*id, &line, game, session.dice(), session.seq(), now_ms()) {
            warn_unrecorded(&path, &e, "the rest of this game is not recorded");
            recorder = None;
        }
    }
    let kept = keep(&mut session, args.table.save.as_deref(), None, recorder)?;
    let seated = Seated { session, kept, tell_seed: false, intro: Some(intro) };
    match series {
        Some((summary, number)) => {
            crate::series::go_on(&summary, number, seated, &args.table, console)
        }
        None => at_table(seated, &args.table, console),
    }
}
