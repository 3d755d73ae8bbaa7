// Long on purpose: the four read commands (games, history, stats, leaderboard) share their table and JSON shapes; split by command they would be copied.
//! What the game database remembers: `snl games`, `snl history`, `snl stats` and
//! `snl leaderboard`, as aligned text or `--json`.

use std::path::Path;

use clap::Args;
use snl_engine::MoveKind;
use snl_session::Achievement;
use snl_store::{Database, DbError, Earned, GameId, MoveRow, PlayerStats};

use crate::{
    common::{CmdResult, Failure, FailureKind, OrFail},
    format::{VALUE_SHOWN, shown, shown_cell, shown_name},
    session::{self, DbArgs},
};
use snl_tui::console::Console;

/// Options of `snl games`.
#[derive(Args, Clone, Debug, Default)]
#[command(
    after_help = "Limits: the database is read row by row, never written, up to SQLite's own limit (at most \
281 TB)."
)]
pub(crate) struct GamesArgs {
    /// Print one JSON array instead of the table.
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) db: DbArgs,
}

/// Options of `snl history`.
#[derive(Args, Clone, Debug, Default)]
#[command(
    after_help = "Limits: the database is read row by row, never written, up to SQLite's own limit (at most \
281 TB); ID at most 9223372036854775807 (SQLite's largest row number)."
)]
pub(crate) struct HistoryArgs {
    /// The game's number (see `snl games`).
    #[arg(value_name = "ID")]
    pub(crate) id: i64,
    /// Only this player's moves.
    #[arg(long, value_name = "NAME")]
    pub(crate) player: Option<String>,
    /// Print one JSON array instead of the table.
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) db: DbArgs,
}

/// Options of `snl stats`.
#[derive(Args, Clone, Debug, Default)]
#[command(
    after_help = "Limits: the database is read row by row, never written, up to SQLite's own limit (at most \
281 TB)."
)]
pub(crate) struct StatsArgs {
    /// Only this player.
    #[arg(long, value_name = "NAME")]
    pub(crate) player: Option<String>,
    /// Each player's dice instead: every face's count against even chances, with Pearson's
    /// chi-square test, its p-value and what it means (games with seeded dice only), over the
    /// newest 1,000 recorded games (with --player: the newest 1,000 that player played).
    #[arg(long)]
    pub(crate) dice: bool,
    /// Print JSON (an array, or one object with --player) instead of the table.
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) db: DbArgs,
}

/// Options of `snl leaderboard`.
#[derive(Args, Clone, Debug, Default)]
#[command(
    after_help = "Limits: the database is read row by row, never written, up to SQLite's own limit (at most \
281 TB)."
)]
pub(crate) struct LeaderboardArgs {
    /// Print one JSON array instead of the table.
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) db: DbArgs,
}

/// The database to read, or `None` when nothing has been recorded there yet (no file, or an
/// empty one). It is opened read-only and never written: not even a schema into an empty file.
pub(crate) fn open_read(db: &DbArgs) -> CmdResult<Option<Database>> {
    open(db)
}

fn open(db: &DbArgs) -> CmdResult<Option<Database>> {
    let path = db.required_path()?;
    match Database::open_existing(&path) {
        Ok(db) => Ok(Some(db)),
        Err(DbError::Missing | DbError::Empty) => Ok(None),
        Err(e) => Err(db_failure(&path, &e)),
    }
}

/// The database to read, which must exist (to read a game from it).
pub(crate) fn open_existing(db: &DbArgs) -> CmdResult<Database> {
    let path = db.required_path()?;
    Database::open_existing(&path).map_err(|e| db_failure(&path, &e))
}

/// A database error as one sentence naming the file, with its SPEC §7 exit code: 2 when the
/// fault is in the file or the request (missing, empty, damaged, edited, newer, no such game),
/// 1 when it is in the machine (locked, a full disk).
pub(crate) fn db_failure(path: &Path, error: &DbError) -> Failure {
    let mut failure = session::db_failure(path, error);
    if error.is_bad_input() {
        failure.kind = FailureKind::BadInput;
    }
    failure
}

fn read<T>(db: &Database, result: Result<T, DbError>) -> CmdResult<T> {
    result.map_err(|e| db_failure(db.path(), &e))
}

/// `result` of reading `db`, or its failure as one sentence naming the file.
pub(crate) fn read_rows<T>(db: &Database, result: Result<T, DbError>) -> CmdResult<T> {
    read(db, result)
}

pub(crate) fn games(args: &GamesArgs, console: &mut Console) -> CmdResult {
    let games = match open(&args.db)? {
        Some(db) => read(&db, db.games())?,
        None => Vec::new(),
    };
    let out = console.out.as_mut();
    if args.json {
        return writeln!(out, "{}", serde_json::json!(games)).or_other();
    }
    if games.is_empty() {
        return writeln!(out, "No game has been recorded yet.").or_other();
    }
    // The series column is shown once some game belongs to a series: "3 #2" is game 2 of
    // series 3.
    let series = games.iter().any(|g| g.series.is_some());
    let rows = games.iter().map(|g| {
        let seats: Vec<String> =
            g.seats.iter().map(|s| format!("{} ({})", shown_name(&s.name), s.kind)).collect();
        let mut row = vec![
            g.id.to_string(),
            utc_minutes(g.started_ms),
            g.board.clone(),
            seats.join(", "),
            g.winner.as_deref().map_or_else(|| "-".into(), shown_name),
            g.status.to_string(),
            g.turns.to_string(),
        ];
        if series {
            row.push(match (g.series, g.series_game) {
                (Some(id), Some(number)) => format!("{id} #{number}"),
                _ => "-".into(),
            });
        }
        row
    });
    let mut header = vec!["ID", "DATE (UTC)", "BOARD", "SEATS", "WINNER", "STATE", "TURNS"];
    let mut right = vec![true, false, false, false, false, false, true];
    if series {
        header.push("SERIES");
        right.push(false);
    }
    write!(out, "{}", table(&header, &right, rows)).or_other()
}

pub(crate) fn history(args: &HistoryArgs, console: &mut Console) -> CmdResult {
    let id = GameId(args.id);
    let Some(db) = open(&args.db)? else {
        return Err(db_failure(&args.db.required_path()?, &DbError::NoSuchGame(id)));
    };
    let save = read(&db, db.load(id))?;
    // The moves shown are the ones `snl replay` plays: a game that does not replay to what it
    // claims (an edited move, say) is refused here with the very sentence replay gives, rather
    // than listed as if it had been played.
    save.restore()
        .map_err(|e| Failure::bad(anyhow::anyhow!("game {id} cannot be replayed: {e}")))?;
    if let Some(name) = &args.player
        && !save.game.seats.iter().any(|s| &s.name == name)
    {
        let names: Vec<String> = save.game.seats.iter().map(|s| shown_name(&s.name)).collect();
        return Err(Failure::bad(anyhow::anyhow!(
            "game {id} has no player named '{}' (its players: {})",
            shown(name, VALUE_SHOWN),
            names.join(", ")
        )));
    }
    let moves = read(&db, db.moves(id, args.player.as_deref()))?;
    let out = console.out.as_mut();
    if args.json {
        return writeln!(out, "{}", serde_json::json!(moves)).or_other();
    }
    let seats: Vec<String> =
        save.game.seats.iter().map(|s| format!("{} ({})", shown_name(&s.name), s.kind)).collect();
    let board = shown(&save.board_name, VALUE_SHOWN);
    let rounds = save.game.rules.mode.rounds();
    // "a race of 3 rounds", in the words the lobby uses (`snl_words::room_traits`).
    let race = rounds.map_or_else(String::new, |k| {
        format!(", a {}", snl_words::room_traits(Some(k), None, None))
    });
    writeln!(out, "Game {id} on {board}{race}: {}", seats.join(", ")).or_other()?;
    if moves.is_empty() {
        return writeln!(out, "No moves yet.").or_other();
    }
    let wormholes = save.game.board.wormholes();
    let rows = moves.iter().map(|m| {
        vec![
            m.turn.to_string(),
            shown_name(&m.player),
            roll_text(m),
            m.from.to_string(),
            m.to.to_string(),
            what_happened(m, &wormholes),
            m.time_ms.map_or_else(|| "-".into(), utc_seconds),
        ]
    });
    let header = ["TURN", "PLAYER", "ROLL", "FROM", "TO", "JUMP", "TIME (UTC)"];
    write!(out, "{}", table(&header, &[true, false, true, true, true, false, false], rows))
        .or_other()?;
    match race_end(&save.game) {
        Some(end) if args.player.is_none() => writeln!(out, "{end}").or_other(),
        _ => Ok(()),
    }
}

/// How a race that is over ended, in the words of every screen: "Race over: Bob finished 1st,
/// Ann 2nd on 41." (the unfinished ranked by position); `None` for a classic game or a race
/// still running.
fn race_end(game: &snl_engine::GameState) -> Option<String> {
    game.rules.mode.rounds()?;
    if game.status != snl_engine::Status::Finished {
        return None;
    }
    let size = game.board.size;
    let seats: Vec<String> = (1..)
        .zip(&game.ranking)
        .map(|(rank, &seat)| {
            let cell = game.seat_states.get(seat).map_or(0, snl_engine::SavedSeat::cell);
            let name = game.seats.get(seat).map_or("?", |s| s.name.as_str());
            format!("{} {}", shown_name(name), snl_words::standing(Some(rank), cell, size))
        })
        .collect();
    Some(format!("Race over: {}.", seats.join(", ")))
}

fn roll_text(m: &MoveRow) -> String {
    match m.dice.as_slice() {
        [_] => m.roll.to_string(),
        faces => {
            let faces: Vec<String> = faces.iter().map(u8::to_string).collect();
            format!("{} ({})", m.roll, faces.join("+"))
        }
    }
}

/// What became of a roll; a jump out of one of the `wormholes` cells is named a wormhole, not
/// a snake or a ladder by the way it went.
fn what_happened(m: &MoveRow, wormholes: &[u32]) -> String {
    match m.kind {
        MoveKind::Blocked => "overshoot, stays".into(),
        MoveKind::Stayed => "chose to stay".into(),
        MoveKind::Voided => "turn void".into(),
        MoveKind::Moved if m.jumps.is_empty() => String::new(),
        MoveKind::Moved => {
            let jumps: Vec<String> = m
                .jumps
                .iter()
                .map(|j| {
                    if wormholes.contains(&j.from) {
                        format!("wormhole {}→{}", j.from, j.to)
                    } else {
                        j.to_string()
                    }
                })
                .collect();
            jumps.join(", ")
        }
    }
}

pub(crate) fn stats(args: &StatsArgs, console: &mut Console) -> CmdResult {
    let db = open(&args.db)?;
    if let Some(name) = &args.player {
        let known = match &db {
            Some(db) => read(db, db.has_player(name))?,
            None => false,
        };
        if !known {
            return Err(Failure::bad(anyhow::anyhow!(
                "no recorded game has a player named '{}'",
                shown(name, VALUE_SHOWN)
            )));
        }
    }
    let mut all = match &db {
        Some(db) => read(db, db.stats(args.player.as_deref()))?,
        None => Vec::new(),
    };
    let earned = match (&db, &args.player) {
        (Some(db), Some(name)) => read(db, db.achievements(name))?,
        _ => Vec::new(),
    };
    let out = console.out.as_mut();
    if let Some(name) = &args.player {
        // Someone seated only in games not finished yet has finished none: zeros.
        let one = all.pop().unwrap_or_else(|| nobody(name));
        if args.json {
            let mut value = serde_json::json!(one);
            value["achievements"] = earned.iter().map(achievement_json).collect();
            return writeln!(out, "{value}").or_other();
        }
        all = vec![one];
    } else if args.json {
        return writeln!(out, "{}", serde_json::json!(all)).or_other();
    }
    if all.is_empty() {
        return writeln!(out, "No finished game has been recorded yet.").or_other();
    }
    // The series columns are shown once someone has played a series to its end.
    let series = all.iter().any(|p| p.series > 0);
    let rows = all.iter().map(|p| {
        let mut row = vec![
            shown_name(&p.name),
            p.games.to_string(),
            p.wins.to_string(),
            percent(p.win_rate),
            p.average_rolls_to_finish.map_or_else(|| "-".into(), |r| format!("{r:.1}")),
            p.snakes.to_string(),
            p.ladders.to_string(),
            p.longest_slide.to_string(),
        ];
        if series {
            row.extend([p.series.to_string(), p.series_won.to_string()]);
        }
        row
    });
    let mut header = vec![
        "PLAYER",
        "GAMES",
        "WINS",
        "WIN RATE",
        "AVG ROLLS TO FINISH",
        "SNAKES",
        "LADDERS",
        "LONGEST SLIDE",
    ];
    let mut right = vec![false, true, true, true, true, true, true, true];
    if series {
        header.extend(["SERIES", "SERIES WON"]);
        right.extend([true, true]);
    }
    write!(out, "{}", table(&header, &right, rows)).or_other()?;
    writeln!(out, "Counted over finished games.").or_other()?;
    if args.player.is_some() && !earned.is_empty() {
        writeln!(out, "\nAchievements:").or_other()?;
        let rows = earned.iter().map(|e| {
            let known = Achievement::from_key(&e.achievement);
            vec![
                known.map_or_else(|| e.achievement.clone(), |a| a.title().to_owned()),
                known.map_or("-", Achievement::description).to_owned(),
                utc_minutes(e.at_ms),
                format!("game {}", e.game),
            ]
        });
        let header = ["ACHIEVEMENT", "FOR", "EARNED (UTC)", "IN"];
        write!(out, "{}", table(&header, &[false, false, false, false], rows)).or_other()?;
    }
    Ok(())
}

/// An achievement earned, for `stats --player NAME --json`.
fn achievement_json(e: &Earned) -> serde_json::Value {
    let known = Achievement::from_key(&e.achievement);
    serde_json::json!({
        "achievement": e.achievement,
        "title": known.map(Achievement::title),
        "description": known.map(Achievement::description),
        "game": e.game,
        "at_ms": e.at_ms,
        "date": utc_minutes(e.at_ms),
    })
}

fn nobody(name: &str) -> PlayerStats {
    PlayerStats {
        name: name.to_owned(),
        games: 0,
        wins: 0,
        win_rate: 0.0,
        finished: 0,
        average_rolls_to_finish: None,
        snakes: 0,
        ladders: 0,
        longest_slide: 0,
        series: 0,
        series_won: 0,
    }
}

pub(crate) fn leaderboard(args: &LeaderboardArgs, console: &mut Console) -> CmdResult {
    let board = match open(&args.db)? {
        Some(db) => read(&db, db.leaderboard())?,
        None => Vec::new(),
    };
    let out = console.out.as_mut();
    if args.json {
        let ranked: Vec<serde_json::Value> = board
            .iter()
            .enumerate()
            .map(|(i, p)| {
                serde_json::json!({
                    "rank": i + 1, "name": p.name, "wins": p.wins, "games": p.games,
                    "win_rate": p.win_rate,
                })
            })
            .collect();
        return writeln!(out, "{}", serde_json::json!(ranked)).or_other();
    }
    if board.is_empty() {
        return writeln!(out, "No finished game has been recorded yet.").or_other();
    }
    let rows = board.iter().enumerate().map(|(i, p)| {
        vec![
            (i + 1).to_string(),
            shown_name(&p.name),
            p.wins.to_string(),
            p.games.to_string(),
            percent(p.win_rate),
        ]
    });
    let header = ["RANK", "PLAYER", "WINS", "GAMES", "WIN RATE"];
    write!(out, "{}", table(&header, &[true, false, true, true, true], rows)).or_other()
}

fn percent(rate: f64) -> String {
    format!("{:.0}%", rate * 100.0)
}

/// Columns aligned with two spaces between them; `right[i]` right-aligns column `i`. Each cell
/// is shown as every table shows it ([`shown_cell`]).
pub(crate) fn table(
    header: &[&str],
    right: &[bool],
    rows: impl Iterator<Item = Vec<String>>,
) -> String {
    let rows = rows.map(|row| row.iter().map(|cell| shown_cell(cell)).collect());
    let rows: Vec<Vec<String>> =
        std::iter::once(header.iter().map(|h| (*h).to_owned()).collect()).chain(rows).collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut text = String::new();
    for row in &rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .zip(right)
            .map(
                |((cell, &w), &right)| {
                    if right { format!("{cell:>w$}") } else { format!("{cell:<w$}") }
                },
            )
            .collect();
        text.push_str(cells.join("  ").trim_end());
        text.push('\n');
    }
    text
}

/// `2026-11-20 22:03` for milliseconds since the Unix epoch, in UTC.
fn utc_minutes(ms: u64) -> String {
    let (date, h, m, _) = utc(ms);
    format!("{date} {h:02}:{m:02}")
}

/// `22:03:05` for milliseconds since the Unix epoch, in UTC.
fn utc_seconds(ms: u64) -> String {
    let (_, h, m, s) = utc(ms);
    format!("{h:02}:{m:02}:{s:02}")
}

fn utc(ms: u64) -> (String, u64, u64, u64) {
    let secs = ms / 1000;
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, mo, d) = civil_from_days(days.cast_signed());
    (format!("{y:04}-{mo:02}-{d:02}"), rest / 3600, rest % 3600 / 60, rest % 60)
}

/// The calendar date of a day counted from 1970-01-01, by Howard Hinnant's `civil_from_days`
/// (<https://howardhinnant.github.io/date_algorithms.html#civil_from_days>).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_calendar_dates_in_utc() {
        assert_eq!(utc_minutes(0), "1970-01-01 00:00");
        // 2000-02-29 12:34:56 UTC is 951827696 seconds after the epoch.
        assert_eq!(utc_minutes(951_827_696_000), "2000-02-29 12:34");
        assert_eq!(utc_seconds(951_827_696_789), "12:34:56");
        assert_eq!(utc_minutes(1_735_689_600_000), "2025-01-01 00:00");
    }

    #[test]
    fn tables_align_columns_and_trim_line_ends() {
        let rows =
            vec![vec!["1".to_owned(), "Ann".to_owned()], vec!["10".to_owned(), "Bo".to_owned()]];
        let text = table(&["ID", "NAME"], &[true, false], rows.into_iter());
        assert_eq!(text, "ID  NAME\n 1  Ann\n10  Bo\n");
    }
}
