//! `snl play`: a game in the terminal, people and computers mixed.

use std::{
    io::{BufRead, Write},
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use clap::Args;
use snl_engine::{
    Dice, FirstOption, Game, Observer, PlayError, Preset, Roll, RollError, RollSource,
    ScriptedDice, Seat, SeatKind, SeededDice, SetupError, Status,
};

use crate::{
    common::{CmdResult, Failure, GameArgs, OrFail, default_computer_seats, parse_seats},
    console::Console,
    display::{JsonLines, Narrator, draw_game},
};

/// Options of `snl play`.
#[derive(Args, Clone, Debug, Default)]
pub(crate) struct PlayArgs {
    #[command(flatten)]
    pub(crate) game: GameArgs,
    /// A seat as NAME:KIND, KIND one of human, easy, greedy, hard; repeat for each seat
    /// (default: you against a hard computer in a terminal, two computers otherwise).
    #[arg(long = "player", value_name = "NAME:KIND")]
    pub(crate) players: Vec<String>,
    /// Use these rolls in order, then stop: totals (3,6,1) or each die (2+5,6+6).
    #[arg(long, value_name = "LIST")]
    pub(crate) rolls: Option<String>,
    /// Print every event as one JSON object per line (SPEC §6) instead of the display.
    #[arg(long, value_name = "FORMAT", value_parser = ["jsonl"])]
    pub(crate) events: Option<String>,
    /// Print one JSON object with the result (ranking, positions, rolls, turns) at the end.
    #[arg(long)]
    pub(crate) json: bool,
    /// Do not pause between computer turns.
    #[arg(long)]
    pub(crate) fast: bool,
    /// Ask for the board and the seats first, even when not in a terminal.
    #[arg(long)]
    pub(crate) setup: bool,
}

/// How long a computer's turn stays on screen before the next, so people can follow.
const COMPUTER_PAUSE: Duration = Duration::from_millis(700);

pub(crate) fn run(args: &PlayArgs, console: &mut Console, bare: bool) -> CmdResult {
    let interactive = console.stdin_tty && console.stdout_tty;
    let mut args = args.clone();
    if args.setup || (bare && interactive) {
        setup_questions(&mut args, console)?;
    }
    let setup = args.game.resolve()?;
    let seats = if !args.players.is_empty() {
        parse_seats(&args.players)?
    } else if interactive && !args.json && args.events.is_none() {
        vec![Seat::new("You", SeatKind::Human), Seat::new("Computer", SeatKind::Hard)]
    } else {
        default_computer_seats()
    };
    let mut game = Game::new(setup.board, setup.rules, seats).map_err(|e| match e {
        SetupError::Unwinnable { .. } => {
            Failure::stuck(anyhow::anyhow!("board '{}' cannot be played: {e}", setup.board_name))
        }
        SetupError::Trap { .. } => Failure::stuck(anyhow::anyhow!(
            "board '{}' cannot be played with these rules: {e} (--overshoot bounce or win avoids that)",
            setup.board_name
        )),
        other => Failure::bad(other),
    })?;
    game.set_clock(now_ms);
    let seed = args.game.seed.unwrap_or_else(fresh_seed);
    let source = match &args.rolls {
        Some(list) => {
            Source::Scripted(ScriptedDice::parse(list, game.rules().thrown_dice()).or_bad()?)
        }
        None => Source::Seeded(SeededDice::new(seed)),
    };
    let text = !args.json && args.events.is_none();
    let pause = text && console.stdout_tty && !args.fast;
    let color = console.color;
    let mut table =
        Table { source, seats: game.seats().to_vec(), input: console.input.as_mut(), quit: None };
    let out: &mut dyn Write = console.out.as_mut();
    if text {
        writeln!(out, "{}", draw_game(&game, color)).or_other()?;
    }
    let mut view = if text {
        View::Text(Narrator::new(out, color))
    } else if args.events.is_some() {
        View::Events(JsonLines::new(out))
    } else {
        View::Quiet
    };
    let outcome = loop {
        if game.status() == Status::Finished {
            break Ok(());
        }
        let seat = game.current();
        let human = game.seats()[seat].kind == SeatKind::Human;
        if text && game.turns() > 0 {
            if human {
                view.raw(&draw_game(&game, color));
            } else if pause {
                std::thread::sleep(COMPUTER_PAUSE);
            }
        }
        let turn = game.play_turn(&mut table, &mut FirstOption, &mut view);
        if let Some(e) = view.take_error() {
            break Err(Failure::other(e).into());
        }
        match turn {
            Ok(_) => {}
            Err(PlayError::Roll(RollError::Stopped)) => break Err(Stop::Quit(table.quit)),
            Err(PlayError::Roll(RollError::Exhausted { used })) => {
                break Err(Stop::RollsRanOut(used));
            }
            Err(e) => break Err(Failure::other(e).into()),
        }
    };
    drop(view);
    let out = console.out.as_mut();
    match outcome {
        Ok(()) => {}
        Err(Stop::Quit(Some(Quit::Asked))) => {
            writeln!(out, "Game stopped after {} turns.", game.turns()).or_other()?;
            return Ok(());
        }
        Err(Stop::Quit(_)) => {
            return Err(Failure::stuck(anyhow::anyhow!(
                "input ended while waiting for {} to roll, so the game stopped after {} turns",
                game.seats()[game.current()].name,
                game.turns()
            )));
        }
        Err(Stop::RollsRanOut(used)) => {
            return Err(Failure::stuck(anyhow::anyhow!(
                "the scripted rolls ran out after {used} rolls, before the game ended (turn {})",
                game.turns()
            )));
        }
        Err(Stop::Failed(f)) => return Err(f),
    }
    if args.json {
        writeln!(out, "{}", result_json(&game, args.rolls.is_none().then_some(seed))).or_other()?;
    } else if text {
        writeln!(out, "\n{}", draw_game(&game, color)).or_other()?;
        if args.rolls.is_none() && args.game.seed.is_none() {
            writeln!(out, "This game was seed {seed}: play it again with --seed {seed}.")
                .or_other()?;
        }
    }
    Ok(())
}

/// Why the turn loop stopped early.
enum Stop {
    Quit(Option<Quit>),
    RollsRanOut(usize),
    Failed(Failure),
}

impl From<Failure> for Stop {
    fn from(f: Failure) -> Stop {
        Stop::Failed(f)
    }
}

/// The object `play --json` prints (SPEC §7).
fn result_json(game: &Game, seed: Option<u64>) -> serde_json::Value {
    let names: Vec<&str> = game.seats().iter().map(|s| s.name.as_str()).collect();
    let ranking: Vec<&str> = game.ranking().iter().map(|&s| names[s]).collect();
    serde_json::json!({
        "players": names,
        "ranking": ranking,
        "positions": game.positions(),
        "rolls": game.rolls(),
        "turns": game.turns(),
        "seed": seed,
    })
}

/// What the game is shown through.
enum View<'w> {
    Text(Narrator<'w>),
    Events(JsonLines<'w>),
    Quiet,
}

impl View<'_> {
    fn raw(&mut self, text: &str) {
        if let View::Text(n) = self {
            n.raw(text);
        }
    }

    fn take_error(&mut self) -> Option<std::io::Error> {
        match self {
            View::Text(n) => n.take_error(),
            View::Events(j) => j.take_error(),
            View::Quiet => None,
        }
    }
}

impl Observer for View<'_> {
    fn event(&mut self, game: &Game, event: &snl_engine::Event) {
        match self {
            View::Text(n) => n.event(game, event),
            View::Events(j) => j.event(game, event),
            View::Quiet => {}
        }
    }
}

/// Where the game's rolls come from.
#[derive(Debug)]
enum Source {
    Seeded(SeededDice),
    Scripted(ScriptedDice),
}

/// The dice on the table: asks a person to press Enter before their roll.
struct Table<'c> {
    source: Source,
    seats: Vec<Seat>,
    input: &'c mut dyn BufRead,
    quit: Option<Quit>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quit {
    Asked,
    EndOfInput,
}

impl RollSource for Table<'_> {
    fn roll(&mut self, seat: usize, dice: Dice) -> Result<Roll, RollError> {
        if self.seats[seat].kind == SeatKind::Human {
            eprint!("{}, press Enter to roll (q to quit): ", self.seats[seat].name);
            let mut line = String::new();
            match self.input.read_line(&mut line) {
                Ok(0) | Err(_) => {
                    eprintln!();
                    self.quit = Some(Quit::EndOfInput);
                    return Err(RollError::Stopped);
                }
                Ok(_) if line.trim().eq_ignore_ascii_case("q") => {
                    self.quit = Some(Quit::Asked);
                    return Err(RollError::Stopped);
                }
                Ok(_) => {}
            }
        }
        match &mut self.source {
            Source::Seeded(d) => d.roll(seat, dice),
            Source::Scripted(d) => d.roll(seat, dice),
        }
    }
}

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// A seed for a game without `--seed`: from the clock, mixed so that close times differ.
fn fresh_seed() -> u64 {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let mut state = nanos ^ u64::from(std::process::id()).rotate_left(32);
    snl_engine::splitmix64(&mut state) % 1_000_000
}

/// The short setup of SPEC §7: board, number of seats, names and kinds, each with a default.
fn setup_questions(args: &mut PlayArgs, console: &mut Console) -> CmdResult {
    let ask = |console: &mut Console, q: &str, d: &str| console.ask(q, d);
    loop {
        let board = ask(
            console,
            "Board (classic, milton-bradley, kids, empty, random, or a .toml file)",
            "classic",
        )?;
        let is_file = board.ends_with(".toml");
        if is_file || board.parse::<Preset>().is_ok() {
            args.game.board = board;
            break;
        }
        writeln!(console.out, "  '{board}' is not a board name or a .toml file; try again.")
            .or_other()?;
    }
    let count = loop {
        let answer = ask(console, "How many players", "2")?;
        match answer.parse::<usize>() {
            Ok(n) if n >= 2 => break n,
            _ => writeln!(
                console.out,
                "  '{answer}' is not a number of players (2 or more); try again."
            )
            .or_other()?,
        }
    };
    args.players.clear();
    for i in 1..=count {
        let (default_name, default_kind) = if i == 1 {
            ("You".to_owned(), "human")
        } else {
            (format!("Computer {}", i - 1), "hard")
        };
        let default_name = if count == 2 && i == 2 { "Computer".to_owned() } else { default_name };
        let name = loop {
            let name = ask(console, &format!("Player {i} name"), &default_name)?;
            let taken =
                args.players.iter().any(|p| p.rsplit_once(':').is_some_and(|(n, _)| n == name));
            if taken || name.contains(':') {
                writeln!(console.out, "  '{name}' is taken or contains ':'; pick another name.")
                    .or_other()?;
            } else {
                break name;
            }
        };
        let kind = loop {
            let kind = ask(
                console,
                &format!("Who plays {name}: human, easy, greedy or hard"),
                default_kind,
            )?;
            match kind.parse::<SeatKind>() {
                Ok(k) => break k,
                Err(e) => writeln!(console.out, "  {e}; try again.").or_other()?,
            }
        };
        args.players.push(format!("{name}:{kind}"));
    }
    Ok(())
}
