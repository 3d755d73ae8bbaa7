//! `snl play`: a game in the terminal, people and computers mixed.
//!
//! This module reads the options and sets the table: a new game (from the options, or the setup
//! questions) or one loaded from a save file, seated in a [`Session`] with its recorders — the
//! game database unless `--no-record`, a save file with `--save`. [`crate::table`] plays it.

use std::path::{Path, PathBuf};

use clap::Args;
use snl_engine::{Game, ScriptedDice, Seat, SeatKind, SetupError, Status};
use snl_session::Session;
use snl_store::{Action, Database, DiceState, GameId, GameStatus, Logged, Save};

use crate::{
    common::{
        CmdResult, Failure, GameArgs, OrFail, default_computer_seats, fresh_seed, parse_seats,
    },
    session::{keep, now_ms},
    setup::setup_questions,
    table::{TableArgs, play_on},
};
use snl_tui::{Choices, clocks::Clocks, console::Console, seated::Seated};

/// Options of `snl play`.
#[derive(Args, Clone, Debug, Default)]
pub(crate) struct PlayArgs {
    #[command(flatten)]
    pub(crate) game: GameArgs,
    /// A seat as NAME:KIND, KIND one of human, easy, greedy, hard; repeat for each seat
    /// (default: you against a hard computer in a terminal, two computers otherwise); 2 to 256
    /// seats.
    #[arg(long = "player", value_name = "NAME:KIND", help_heading = "Players and dice")]
    pub(crate) players: Vec<String>,
    /// Use these rolls in order, then stop: totals (3,6,1) or each die (2+5,6+6).
    #[arg(long, value_name = "LIST", help_heading = "Players and dice")]
    pub(crate) rolls: Option<String>,
    /// Ask for the board and the seats first, even when not in a terminal.
    #[arg(long, help_heading = "Players and dice")]
    pub(crate) setup: bool,
    /// Go on with the game saved in FILE: its board, rules, players and dice (every board, rules,
    /// players and dice option is refused with it). Turns are saved back to FILE unless --save
    /// names another; a game the game database recorded goes on in its record. At most 256 MiB: a save is rewritten whole before it passes half of that, so it holds a game of some 2.3 million turns (a longer game is told where its save stops); loading takes some 500 bytes a turn, the largest save within 1.5 GiB.
    #[arg(long, value_name = "FILE", help_heading = "Saving", conflicts_with_all = [
        "board", "size", "snakes", "ladders", "effects", "min_jump", "rules", "start", "dice",
        "overshoot", "jumps", "bonus", "max_bonus", "on_max", "finish", "choice", "mode", "rounds",
        "seed", "players", "rolls", "setup",
    ])]
    pub(crate) load: Option<PathBuf>,
    /// Do not record this game in the game database.
    #[arg(long, conflicts_with = "db", help_heading = "Game database")]
    pub(crate) no_record: bool,
    #[command(flatten)]
    pub(crate) series: crate::series::SeriesArgs,
    #[command(flatten)]
    pub(crate) table: TableArgs,
}

impl PlayArgs {
    /// What the setup form or questions start from: the board, rules, mode, clocks and players
    /// given.
    fn choices(&self) -> Choices {
        Choices {
            board: self.game.board.clone(),
            size: self.game.size,
            effects: self.game.effects,
            seed: self.game.seed,
            choice: self.game.choice.clone(),
            rules: self.game.rules.clone(),
            mode: self.game.mode.clone(),
            rounds: self.game.rounds,
            turn_time: self.table.turn_time,
            game_time: self.table.game_time,
            players: self.players.clone(),
        }
    }

    /// Takes what the setup form or questions chose, as the command line would give it.
    fn take(&mut self, choices: Choices) {
        let Choices {
            board,
            size,
            effects,
            seed,
            choice,
            rules,
            mode,
            rounds,
            turn_time,
            game_time,
            players,
        } = choices;
        (self.game.board, self.game.effects, self.game.rules) = (board, effects, rules);
        (self.game.size, self.game.seed, self.game.choice) = (size, seed, choice);
        (self.game.mode, self.game.rounds) = (mode, rounds);
        (self.table.turn_time, self.table.game_time) = (turn_time, game_time);
        self.players = players;
    }
}

pub(crate) fn run(args: &PlayArgs, console: &mut Console, bare: bool) -> CmdResult {
    if let Some(games) = args.series.games {
        return crate::series::run(args, games, console);
    }
    let start = match &args.load {
        Some(path) => Start::load(path)?,
        None => match Start::new_game(args, console, bare)? {
            Some(start) => start,
            // The setup form was left without starting.
            None => return Ok(()),
        },
    };
    let save = args.table.save.as_deref().or(args.load.as_deref());
    let db = match args.table.db.path() {
        _ if args.no_record => None,
        Some(path) => Some(path),
        None => {
            snl_tui::stderr_line!(
                "snl: warning: no game database (HOME is not set); this game is not recorded"
            );
            None
        }
    };
    // A game loaded from a file that the database recorded goes on in its record.
    let mut session = Session::resume(start.game, start.dice, &start.board_name, start.seq);
    let resumed = match (&args.load, db.as_deref()) {
        (Some(_), Some(path)) => recorded_game_of(path, &session),
        _ => None,
    };
    let kept = keep(&mut session, save, db.as_deref(), resumed)?;
    let seated = Seated { session, kept, tell_seed: start.tell_seed, intro: start.intro };
    let mut table = args.table.clone();
    if let Some((turn_time, game_time)) = start.clocks {
        (table.turn_time, table.game_time) = (turn_time, game_time);
    }
    at_table(seated, &table, console)
}

/// Whether `opts` on `console` call for the full screen: both ends a terminal, and neither
/// `--plain` nor a machine output.
pub(crate) fn full_screen(opts: &TableArgs, console: &Console) -> bool {
    console.stdin_tty && console.stdout_tty && !opts.plain && !opts.json && opts.events.is_none()
}

/// Plays `seated` until the game ends or stops: on the full screen when `opts` on `console` call
/// for it ([`full_screen`]), else at the console's table.
pub(crate) fn at_table(seated: Seated, opts: &TableArgs, console: &mut Console) -> CmdResult {
    if !full_screen(opts, console) {
        return play_on(seated, opts, console);
    }
    let options = snl_tui::Options {
        color: console.color,
        fast: opts.fast,
        quiet: opts.quiet,
        save: opts.save.clone(),
        stop_after: opts.stop_after,
    };
    let clocks = Clocks::new(opts.turn_time, opts.game_time, opts.test_clock);
    snl_tui::play(seated, options, clocks, console)
}

/// A game about to be played or gone on with.
pub(crate) struct Start {
    pub(crate) game: Game,
    pub(crate) dice: DiceState,
    /// What the board is called, for the save and the database.
    pub(crate) board_name: String,
    /// Whether to tell the seed at the end (a new game whose seed nobody chose).
    tell_seed: bool,
    /// A line to show before the first turn.
    intro: Option<String>,
    /// The number of the last event told, when a loaded save kept it.
    seq: Option<u64>,
    /// The turn and game clocks the setup (form or questions) chose, over the command line's.
    clocks: Option<(Option<u64>, Option<u64>)>,
}

impl Start {
    /// A new game from the command line (and the setup questions, or the setup form in a
    /// terminal); `None` when the form was left without starting.
    pub(crate) fn new_game(
        args: &PlayArgs,
        console: &mut Console,
        bare: bool,
    ) -> CmdResult<Option<Start>> {
        let interactive = console.stdin_tty && console.stdout_tty;
        let mut args = args.clone();
        let asked = args.setup || (bare && interactive);
        if asked {
            if full_screen(&args.table, console) {
                let mut choices = args.choices();
                if !snl_tui::setup_form(&mut choices)? {
                    return Ok(None);
                }
                args.take(choices);
            } else {
                let mut choices = args.choices();
                setup_questions(&mut choices, console)?;
                args.take(choices);
            }
        }
        let setup = args.game.resolve()?;
        let seats = if !args.players.is_empty() {
            parse_seats(&args.players)?
        } else if interactive && !args.table.json && args.table.events.is_none() {
            vec![
                Seat::new("You", SeatKind::Human),
                Seat::new(snl_words::seat_default_name(1, SeatKind::Hard), SeatKind::Hard),
            ]
        } else {
            default_computer_seats()
        };
        let mut game = Game::new(setup.board, setup.rules, seats).map_err(|e| match e {
            SetupError::Unwinnable { .. } => Failure::stuck(anyhow::anyhow!(
                "board '{}' cannot be played: {e}",
                setup.board_name
            )),
            SetupError::Trap { .. } => Failure::stuck(anyhow::anyhow!(
                "board '{}' cannot be played with these rules: {e} (--overshoot bounce or win avoids that)",
                setup.board_name
            )),
            other => Failure::bad(other),
        })?;
        game.set_clock(now_ms);
        let dice = match &args.rolls {
            Some(list) => {
                DiceState::Scripted(ScriptedDice::parse(list, game.rules().thrown_dice()).or_bad()?)
            }
            None => DiceState::seeded(args.game.seed.unwrap_or_else(fresh_seed)),
        };
        let tell_seed = args.rolls.is_none() && args.game.seed.is_none();
        let board_name = setup.board_name;
        let clocks = asked.then_some((args.table.turn_time, args.table.game_time));
        Ok(Some(Start { game, dice, board_name, tell_seed, intro: None, seq: None, clocks }))
    }

    /// The game saved in `path`, checked; a file that does not hold a playable game is refused
    /// (exit 2) and left as it is.
    fn load(path: &Path) -> CmdResult<Start> {
        let refuse =
            |e| Failure::bad(anyhow::anyhow!("cannot load the save file {}: {e}", path.display()));
        let save = Save::read(path).map_err(refuse)?;
        let mut game = save.restore().map_err(refuse)?;
        if game.status() == Status::Finished {
            return Err(Failure::bad(anyhow::anyhow!(
                "the game saved in {name} is over: see it again with snl replay {name}",
                name = path.display()
            )));
        }
        game.set_clock(now_ms);
        let intro = format!(
            "Going on with the game saved in {}, after turn {}.",
            path.display(),
            game.turns()
        );
        Ok(Start {
            game,
            dice: save.dice,
            board_name: save.board_name,
            tell_seed: false,
            intro: Some(intro),
            seq: save.seq,
            clocks: None,
        })
    }
}

/// The unfinished game in the database at `path` that the session's game goes on from — same board, rules and
/// seats, its recorded history the beginning of the game's — recorded as resumed from here; the
/// latest such game. `None` when there is none, or the database cannot be written.
fn recorded_game_of(path: &Path, session: &Session) -> Option<(Database, GameId)> {
    if !path.exists() {
        return None;
    }
    let game = session.game();
    let mut db = Database::open(path).ok()?;
    let state = game.state();
    let found = db.games().ok()?.into_iter().rev().find_map(|summary| {
        if matches!(summary.status, GameStatus::Finished | GameStatus::Incomplete) {
            return None;
        }
        let kept = db.load(summary.id).ok()?.game;
        let same =
            kept.board == state.board && kept.rules == state.rules && kept.seats == state.seats;
        (same && state.history.starts_with(&kept.history)).then_some(summary.id)
    })?;
    let line = Logged::new::<String>(Action::Resume, game.turns(), &[], now_ms());
    db.record_turn(found, &line, game, session.dice(), session.seq(), now_ms()).ok()?;
    Some((db, found))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `snl play`'s options as the command line gives them with none written.
    fn play_args() -> PlayArgs {
        #[derive(clap::Parser)]
        struct Play {
            #[command(flatten)]
            play: PlayArgs,
        }
        <Play as clap::Parser>::parse_from(["snl"]).play
    }

    #[test]
    fn the_setup_forms_choices_are_taken_as_the_command_line_would_give_them() {
        let mut args = play_args();
        args.take(Choices {
            board: "party".to_owned(),
            rules: Some("standard".to_owned()),
            mode: Some("race".to_owned()),
            rounds: Some(3),
            players: vec!["You:human".to_owned(), "Computer:hard".to_owned()],
            ..args.choices()
        });
        let setup = args.game.resolve().unwrap();
        assert_eq!(setup.board_name, "party");
        assert!(!setup.board.effects().is_empty(), "the party board has effects");
        assert_eq!(setup.rules.mode.rounds(), Some(3));
        assert_eq!(args.players, ["You:human", "Computer:hard"]);

        let mut args = play_args();
        args.take(Choices {
            board: "random".to_owned(),
            effects: 5,
            mode: Some("classic".to_owned()),
            turn_time: Some(10),
            game_time: Some(3600),
            ..args.choices()
        });
        args.game.seed = Some(4);
        assert_eq!((args.table.turn_time, args.table.game_time), (Some(10), Some(3600)));
        let setup = args.game.resolve().unwrap();
        assert_eq!(setup.board.effects().len(), 5);
        assert!(setup.rules.mode.is_classic());
        assert_eq!(args.choices().effects, 5, "what was taken is what the form starts from");
    }
}
