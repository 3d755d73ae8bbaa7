//! `snl play`: a game in the terminal, people and computers mixed.
//!
//! The game is kept after every turn — in the game database unless `--no-record`, and in a save
//! file with `--save` — and people can undo and redo their turns at their prompt. `snl resume`
//! goes on with a kept game through [`play_on`], the same turn loop.

use std::{
    cell::{Cell, RefCell},
    fmt::Write as _,
    io::{self, BufRead, Write},
    path::{Path, PathBuf},
    sync::mpsc,
    time::Duration,
};

use clap::Args;
use snl_analysis::{
    solve::rolls_to_finish,
    strategy::{Easy, HardPolicy, greedy_choice},
};
use snl_engine::{
    Bonus, Decider, Decision, Dice, Event, Game, MoveOption, Observer, OnMax, Overshoot, PlayError,
    Preset, Roll, RollError, RollSource, ScriptedDice, Seat, SeatKind, SetupError, Status,
};
use snl_store::{Action, DiceState, Save, Snapshot, Timeline};

use crate::{
    common::{
        CmdResult, Failure, GameArgs, OrFail, default_computer_seats, fresh_seed, parse_seats,
    },
    console::Console,
    display::{Narrator, draw_game, event_json},
    session::{DbArgs, Keeper, Origin, now_ms},
};

/// Options of `snl play`.
#[derive(Args, Clone, Debug, Default)]
pub(crate) struct PlayArgs {
    #[command(flatten)]
    pub(crate) game: GameArgs,
    /// A seat as NAME:KIND, KIND one of human, easy, greedy, hard; repeat for each seat
    /// (default: you against a hard computer in a terminal, two computers otherwise).
    #[arg(long = "player", value_name = "NAME:KIND", help_heading = "Players and dice")]
    pub(crate) players: Vec<String>,
    /// Use these rolls in order, then stop: totals (3,6,1) or each die (2+5,6+6).
    #[arg(long, value_name = "LIST", help_heading = "Players and dice")]
    pub(crate) rolls: Option<String>,
    /// Ask for the board and the seats first, even when not in a terminal.
    #[arg(long, help_heading = "Players and dice")]
    pub(crate) setup: bool,
    /// Go on with the game saved in FILE: its board, rules, players and dice. Turns are saved
    /// back to FILE unless --save names another.
    #[arg(long, value_name = "FILE", help_heading = "Saving", conflicts_with_all = [
        "board", "size", "snakes", "ladders", "rules", "start", "dice", "overshoot", "jumps",
        "bonus", "max_bonus", "on_max", "finish", "choice", "seed", "players", "rolls", "setup",
    ])]
    pub(crate) load: Option<PathBuf>,
    /// Do not record this game in the game database.
    #[arg(long, conflicts_with = "db", help_heading = "Game database")]
    pub(crate) no_record: bool,
    #[command(flatten)]
    pub(crate) table: TableArgs,
}

/// How a game is shown and kept: the options `play` and `resume` share.
#[derive(Args, Clone, Debug, Default)]
#[command(next_help_heading = "Display")]
pub(crate) struct TableArgs {
    /// Print every event as one JSON object per line (SPEC §6) instead of the display.
    #[arg(long, value_name = "FORMAT", value_parser = ["jsonl"])]
    pub(crate) events: Option<String>,
    /// Print one JSON object with the result (ranking, positions, rolls, turns) at the end.
    #[arg(long)]
    pub(crate) json: bool,
    /// Do not pause between computer turns.
    #[arg(long)]
    pub(crate) fast: bool,
    /// Save the game to FILE after every turn (atomically), to go on later with --load FILE.
    #[arg(long, value_name = "FILE", help_heading = "Saving")]
    pub(crate) save: Option<PathBuf>,
    /// After each turn, show each player's fewest rolls to finish from where they stand.
    #[arg(long)]
    pub(crate) hint: bool,
    /// Stop cleanly after N turns (the game is kept first), to go on later.
    #[arg(long, value_name = "N", help_heading = "Saving")]
    pub(crate) stop_after: Option<u32>,
    #[command(flatten)]
    pub(crate) db: DbArgs,
}

/// How long a computer's turn stays on screen before the next, so people can follow.
pub(crate) const COMPUTER_PAUSE: Duration = Duration::from_millis(700);

pub(crate) fn run(args: &PlayArgs, console: &mut Console, bare: bool) -> CmdResult {
    let start = match &args.load {
        Some(path) => Start::load(path)?,
        None => Start::new_game(args, console, bare)?,
    };
    let save = args.table.save.as_deref().or(args.load.as_deref());
    let origin = match args.table.db.path() {
        _ if args.no_record => Origin::Unrecorded,
        Some(path) => Origin::New(path),
        None => {
            eprintln!(
                "snl: warning: no game database (HOME is not set); this game is not recorded"
            );
            Origin::Unrecorded
        }
    };
    let keeper = Keeper::start(&start.board_name, save, origin, &start.game, &start.dice)?;
    play_on(start, &args.table, console, keeper)
}

/// A game about to be played or gone on with.
pub(crate) struct Start {
    pub(crate) game: Game,
    pub(crate) dice: DiceState,
    /// What the board is called, for the save and the database.
    pub(crate) board_name: String,
    /// Whether to tell the seed at the end (a new game whose seed nobody chose).
    pub(crate) tell_seed: bool,
    /// A line to show before the first turn.
    pub(crate) intro: Option<String>,
}

impl Start {
    /// A new game from the command line (and the setup questions).
    fn new_game(args: &PlayArgs, console: &mut Console, bare: bool) -> CmdResult<Start> {
        let interactive = console.stdin_tty && console.stdout_tty;
        let mut args = args.clone();
        if args.setup || (bare && interactive) {
            setup_questions(&mut args, console)?;
        }
        let setup = args.game.resolve()?;
        let seats = if !args.players.is_empty() {
            parse_seats(&args.players)?
        } else if interactive && !args.table.json && args.table.events.is_none() {
            vec![Seat::new("You", SeatKind::Human), Seat::new("Computer", SeatKind::Hard)]
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
        Ok(Start { game, dice, board_name: setup.board_name, tell_seed, intro: None })
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
        })
    }
}

/// Plays `start` until the game ends or stops, showing it as `opts` asks and keeping it with
/// `keeper` after every turn, undo and redo.
pub(crate) fn play_on(
    start: Start,
    opts: &TableArgs,
    console: &mut Console,
    mut keeper: Keeper,
) -> CmdResult {
    let Start { mut game, dice, tell_seed, intro, .. } = start;
    let text = !opts.json && opts.events.is_none();
    let pause = text && console.stdout_tty && !opts.fast;
    let color = console.color;
    let mut timeline = Timeline::new(Snapshot { game: game.clone(), dice: dice.clone() });
    let keyboard =
        if console.stdin_tty { Keyboard::typed() } else { Keyboard::Lines(console.input.as_mut()) };
    let desk = Desk {
        keyboard: RefCell::new(keyboard),
        autopilot: vec![Cell::new(false); game.seats().len()],
        pending: RefCell::new(Vec::new()),
    };
    let mut deciders = Deciders {
        kinds: game.seats().iter().map(|s| s.kind).collect(),
        names: game.seats().iter().map(|s| s.name.clone()).collect(),
        easy: Easy { seed: dice.seed().unwrap_or(0) },
        hard: Lazy::NotYet,
        desk: &desk,
    };
    let mut table = Table {
        dice,
        seats: game.seats().to_vec(),
        desk: &desk,
        keys: Keys::default(),
        interrupt: None,
        fresh: false,
    };
    let out: &mut dyn Write = console.out.as_mut();
    if text {
        writeln!(out, "{}", draw_game(&game, color)).or_other()?;
        if let Some(intro) = &intro {
            writeln!(out, "{intro}").or_other()?;
        }
    }
    // Fewest rolls to finish from every position: one search, then a lookup per turn.
    let hints = (opts.hint && text).then(|| rolls_to_finish(game.board(), game.rules()));
    let mut view = View::new(out, opts.events.as_deref(), opts.json, color);
    let mut played = 0;
    let outcome = loop {
        if game.status() == Status::Finished {
            break Ok(());
        }
        if opts.stop_after.is_some_and(|n| played >= n) {
            break Err(Stop::Asked);
        }
        let human = game.seats()[game.current()].kind == SeatKind::Human
            && !desk.autopilot[game.current()].get();
        if text && game.turns() > 0 {
            if human {
                view.raw(&draw_game(&game, color));
            } else if pause {
                std::thread::sleep(COMPUTER_PAUSE);
            }
        }
        table.keys = Keys { undo: timeline.can_undo(), redo: timeline.can_redo() };
        table.fresh = true;
        let mut events = Vec::new();
        let mut told = Told { desk: &desk, view: &mut view, events: &mut events };
        let turn = game.play_turn(&mut table, &mut deciders, &mut told);
        told.flush(&game);
        if let Some(e) = view.take_error() {
            break Err(Failure::other(e).into());
        }
        match turn {
            Ok(_) => {
                played += 1;
                keeper.keep(Action::Turn, &game, &table.dice, &events);
                timeline.played(Snapshot { game: game.clone(), dice: table.dice.clone() }, events);
                if let Some(hints) = &hints
                    && game.status() != Status::Finished
                {
                    view.raw(&hint_line(&game, hints));
                }
            }
            Err(PlayError::Roll(RollError::Stopped)) => match table.interrupt.take() {
                Some(Interrupt::Undo) => {
                    let back = take_back(&mut timeline, &game);
                    (game, table.dice) = (back.game, back.dice);
                    keeper.keep(Action::Undo, &game, &table.dice, &[]);
                    view.undone(&game);
                }
                Some(Interrupt::Redo) => {
                    let Some((ahead, turns)) = timeline.redo() else { continue };
                    (game, table.dice) = (ahead.game.clone(), ahead.dice.clone());
                    let events: Vec<Event> = turns.iter().flatten().cloned().collect();
                    keeper.keep(Action::Redo, &game, &table.dice, &events);
                    view.redone(&game, turns);
                }
                Some(Interrupt::Quit) => break Err(Stop::Asked),
                Some(Interrupt::EndOfInput) | None => break Err(Stop::InputEnded),
            },
            Err(PlayError::Roll(RollError::Exhausted { used })) => {
                break Err(Stop::RollsRanOut(used));
            }
            Err(e) => break Err(Failure::other(e).into()),
        }
    };
    drop(view);
    let out = console.out.as_mut();
    let stopped_at = game.turns();
    match outcome {
        Ok(()) => {}
        Err(Stop::Asked) => {
            keeper.stopped();
            if text {
                writeln!(out, "Game stopped after {stopped_at} turns.").or_other()?;
                if let Some(how) = keeper.how_to_go_on() {
                    writeln!(out, "{how}").or_other()?;
                }
            } else if opts.json {
                writeln!(out, "{}", result_json(&game, &table.dice, &keeper)).or_other()?;
            }
            return Ok(());
        }
        Err(Stop::InputEnded) => {
            keeper.stopped();
            return Err(Failure::stuck(anyhow::anyhow!(
                "input ended while waiting for {} to roll, so the game stopped after {stopped_at} turns",
                game.seats()[game.current()].name,
            )));
        }
        Err(Stop::RollsRanOut(used)) => {
            keeper.stopped();
            return Err(Failure::stuck(anyhow::anyhow!(
                "the scripted rolls ran out after {used} rolls, before the game ended (turn {stopped_at})"
            )));
        }
        Err(Stop::Failed(f)) => {
            keeper.stopped();
            return Err(f);
        }
    }
    if opts.json {
        writeln!(out, "{}", result_json(&game, &table.dice, &keeper)).or_other()?;
    } else if text {
        writeln!(out, "\n{}", draw_game(&game, color)).or_other()?;
        if let (true, Some(seed)) = (tell_seed, table.dice.seed()) {
            writeln!(out, "This game was seed {seed}: play it again with --seed {seed}.")
                .or_other()?;
        }
    }
    Ok(())
}

/// "At best: Ann 4 rolls, Bob 7 rolls" for the players still in the game.
fn hint_line(game: &Game, hints: &[Option<u32>]) -> String {
    let parts: Vec<String> = game
        .seats()
        .iter()
        .enumerate()
        .filter(|&(seat, _)| game.is_playing(seat))
        .map(|(seat, s)| match hints[game.positions()[seat] as usize] {
            Some(1) => format!("{} 1 roll", s.name),
            Some(k) => format!("{} {k} rolls", s.name),
            None => format!("{} cannot finish", s.name),
        })
        .collect();
    format!("  (at best: {})", parts.join(", "))
}

/// Takes turns back for an undo: at a bonus roll, the turn so far; at the start of a turn, back
/// to the last state in which a person was to roll.
fn take_back(timeline: &mut Timeline, game: &Game) -> Snapshot {
    let mid_turn = game.rolls() > timeline.present().game.rolls();
    if !mid_turn {
        timeline.undo();
    }
    timeline.present().clone()
}

/// Why the turn loop stopped early.
enum Stop {
    /// `q`, or `--stop-after`: a clean stop.
    Asked,
    InputEnded,
    RollsRanOut(usize),
    Failed(Failure),
}

impl From<Failure> for Stop {
    fn from(f: Failure) -> Stop {
        Stop::Failed(f)
    }
}

/// The object `play --json` prints (SPEC §7), plus where the game is kept.
fn result_json(game: &Game, dice: &DiceState, keeper: &Keeper) -> serde_json::Value {
    let mut value = game_json(game, dice.seed());
    value["game_id"] = serde_json::json!(keeper.game_id());
    value["save"] = serde_json::json!(keeper.save_path());
    value
}

/// The whole game as one JSON object: `players`, `ranking`, `positions`, `rolls`, `turns`,
/// `seed` and `finished`.
pub(crate) fn game_json(game: &Game, seed: Option<u64>) -> serde_json::Value {
    let names: Vec<&str> = game.seats().iter().map(|s| s.name.as_str()).collect();
    let ranking: Vec<&str> = game.ranking().iter().map(|&s| names[s]).collect();
    serde_json::json!({
        "players": names,
        "ranking": ranking,
        "positions": game.positions(),
        "rolls": game.rolls(),
        "turns": game.turns(),
        "seed": seed,
        "finished": game.status() == Status::Finished,
    })
}

/// What a game is shown through: the narration, `--events jsonl`, or nothing (`--json`).
enum View<'w> {
    Text(Narrator<'w>),
    Events(EventLines<'w>),
    Quiet,
}

impl<'w> View<'w> {
    /// The view `--events` and `--json` ask for, writing to `out`.
    fn new(out: &'w mut dyn Write, events: Option<&str>, json: bool, color: bool) -> View<'w> {
        match (events, json) {
            (Some(_), _) => View::Events(EventLines { out, error: None }),
            (None, true) => View::Quiet,
            (None, false) => View::Text(Narrator::new(out, color)),
        }
    }

    /// Writes `text` as it is, in the narration only (a drawn board, a note).
    fn raw(&mut self, text: &str) {
        if let View::Text(n) = self {
            n.raw(text);
        }
    }

    /// The first write error, if any.
    fn take_error(&mut self) -> Option<io::Error> {
        match self {
            View::Text(n) => n.take_error(),
            View::Events(j) => j.error.take(),
            View::Quiet => None,
        }
    }

    /// Tells that turns were taken back; `game` is where the game now stands.
    fn undone(&mut self, game: &Game) {
        let (turn, name) = (game.turns() + 1, &game.seats()[game.current()].name);
        match self {
            View::Text(n) => n.raw(&format!("Undo: back to turn {turn}, {name} to roll.")),
            View::Events(j) => {
                j.line(&serde_json::json!({"type": "undo", "turn": turn, "player": name}));
            }
            View::Quiet => {}
        }
    }

    /// Tells that `turns` were put back, and tells them again.
    fn redone(&mut self, game: &Game, turns: &[Vec<Event>]) {
        let last = game.turns();
        let first = last + 1 - turns.len() as u32;
        match self {
            View::Text(n) => n.raw(&if first == last {
                format!("Redo: turn {last} again.")
            } else {
                format!("Redo: turns {first} to {last} again.")
            }),
            View::Events(j) => {
                j.line(&serde_json::json!({"type": "redo", "from_turn": first, "to_turn": last}));
            }
            View::Quiet => {}
        }
        // The game's start was told already, before the prompt at which redo was asked.
        let again = turns.iter().flatten().filter(|e| !matches!(e, Event::GameStarted { .. }));
        for event in again {
            self.event(game, event);
        }
    }
}

impl Observer for View<'_> {
    fn event(&mut self, game: &Game, event: &Event) {
        match self {
            View::Text(n) => n.event(game, event),
            View::Events(j) => j.event(game, event),
            View::Quiet => {}
        }
    }
}

/// `--events jsonl`: each event as one JSON object per line (SPEC §6), and the undo and redo
/// lines of a session.
struct EventLines<'w> {
    out: &'w mut dyn Write,
    error: Option<io::Error>,
}

impl EventLines<'_> {
    fn line(&mut self, value: &serde_json::Value) {
        if self.error.is_none()
            && let Err(e) = writeln!(self.out, "{value}")
        {
            self.error = Some(e);
        }
    }
}

impl Observer for EventLines<'_> {
    fn event(&mut self, game: &Game, event: &Event) {
        self.line(&event_json(event, game.seats()));
    }
}

/// What the dice, the deciders and the display share during a turn: the keyboard, which seats
/// a person has handed to the computer, and the autopilot events waiting to be told.
struct Desk<'c> {
    keyboard: RefCell<Keyboard<'c>>,
    /// Per seat: whether a person's seat is played by `hard` for now.
    autopilot: Vec<Cell<bool>>,
    /// Autopilot events to tell before the next event of the game.
    pending: RefCell<Vec<Event>>,
}

impl Desk<'_> {
    /// Hands `seat` to the computer (`on`) or gives it back.
    fn autopilot(&self, seat: usize, on: bool) {
        if self.autopilot[seat].replace(on) != on {
            self.pending.borrow_mut().push(Event::Autopilot { player: seat, on });
        }
    }
}

/// Where a person's answers come from.
enum Keyboard<'c> {
    /// A pipe or a file: lines are read in order, at the prompts. While a seat is on autopilot,
    /// a next line `a` (looked at without waiting for more input) takes the seat back at its
    /// turn.
    Lines(&'c mut dyn BufRead),
    /// A terminal: a thread reads lines as they are typed, so a line typed while the computer
    /// plays a person's seat is there at the seat's next turn, and takes it back.
    Typed(mpsc::Receiver<String>),
}

impl Keyboard<'_> {
    /// Reads the terminal from a thread of its own (the only place the process's standard input
    /// is read directly: no other reader is left once the game starts).
    fn typed<'a>() -> Keyboard<'a> {
        let (send, receive) = mpsc::channel();
        std::thread::spawn(move || {
            for line in io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Keyboard::Typed(receive)
    }

    /// The next line, trimmed and in lower case; `None` at the end of input.
    fn line(&mut self) -> Option<String> {
        match self {
            Keyboard::Lines(input) => {
                let mut line = String::new();
                match input.read_line(&mut line) {
                    Ok(0) | Err(_) => None,
                    Ok(_) => Some(line.trim().to_ascii_lowercase()),
                }
            }
            Keyboard::Typed(lines) => lines.recv().ok().map(|l| l.trim().to_ascii_lowercase()),
        }
    }

    /// Whether the person asked for their seat back while the computer played it (the answer
    /// is taken).
    fn take_back(&mut self) -> bool {
        match self {
            Keyboard::Lines(input) => {
                let asked = input.fill_buf().is_ok_and(|b| {
                    let line = b.split(|&c| c == b'\n').next().unwrap_or_default();
                    line.trim_ascii().eq_ignore_ascii_case(b"a") && b.contains(&b'\n')
                });
                if asked {
                    let _ = input.read_line(&mut String::new());
                }
                asked
            }
            Keyboard::Typed(lines) => lines.try_recv().is_ok(),
        }
    }

    /// How a person takes a seat back, for the note shown when autopilot goes on.
    fn take_back_hint(&self) -> &'static str {
        match self {
            Keyboard::Lines(_) => "a line 'a' at its turn takes it back",
            Keyboard::Typed(_) => "press Enter at any time to take it back",
        }
    }
}

/// Tells the game's events to the display and keeps them for the record; autopilot events,
/// which are the table's and not the game's, go to the display only, told in their place.
struct Told<'a, 'w, 'c> {
    desk: &'a Desk<'c>,
    view: &'a mut View<'w>,
    events: &'a mut Vec<Event>,
}

impl Told<'_, '_, '_> {
    /// Tells the autopilot events waiting.
    fn flush(&mut self, game: &Game) {
        let pending = std::mem::take(&mut *self.desk.pending.borrow_mut());
        for event in &pending {
            self.view.event(game, event);
        }
    }
}

impl Observer for Told<'_, '_, '_> {
    fn event(&mut self, game: &Game, event: &Event) {
        self.flush(game);
        self.view.event(game, event);
        self.events.push(event.clone());
    }
}

/// Chooses for every seat when the rules offer a choice: computers by their strategy, people by
/// asking them (or by `hard` while their seat is on autopilot).
struct Deciders<'d, 'c> {
    kinds: Vec<SeatKind>,
    names: Vec<String>,
    /// Draws from the game's seed and its roll count: a saved game goes on with the same draws.
    easy: Easy,
    /// The optimal policy, computed at the first decision that needs it.
    hard: Lazy,
    desk: &'d Desk<'c>,
}

/// The optimal policy, once asked for.
enum Lazy {
    NotYet,
    Ready(Box<HardPolicy>),
    /// It could not be computed (the solver gave up on a huge board): greedy plays instead.
    Failed,
}

impl Deciders<'_, '_> {
    fn hard(&mut self, game: &Game, decision: &Decision) -> usize {
        if matches!(self.hard, Lazy::NotYet) {
            self.hard = match HardPolicy::new(game.board(), game.rules()) {
                Ok(policy) => Lazy::Ready(Box::new(policy)),
                Err(e) => {
                    eprintln!(
                        "snl: warning: the hard strategy cannot be computed ({e}); greedy plays \
                         instead"
                    );
                    Lazy::Failed
                }
            };
        }
        match &self.hard {
            Lazy::Ready(hard) => hard.choose_for(decision),
            Lazy::NotYet | Lazy::Failed => greedy_choice(&decision.options),
        }
    }

    /// Asks a person which option to take; `a` hands the seat to the computer.
    fn ask(&mut self, game: &Game, decision: &Decision) -> usize {
        let seat = decision.seat;
        let name = &self.names[seat];
        let count = decision.options.len();
        let list: Vec<String> = decision
            .options
            .iter()
            .enumerate()
            .map(|(i, o)| format!("{}) {}", i + 1, describe_option(game, decision, o)))
            .collect();
        eprintln!("{name} rolled {}: {}", roll_words(decision.roll), list.join("  "));
        loop {
            eprint!("{name}, choose 1 to {count} (Enter for 1, a for autopilot): ");
            let Some(answer) = self.desk.keyboard.borrow_mut().line() else {
                eprintln!();
                return 0;
            };
            match answer.as_str() {
                "" => return 0,
                "a" => {
                    self.desk.autopilot(seat, true);
                    eprintln!(
                        "({name} is on autopilot: {})",
                        self.desk.keyboard.borrow().take_back_hint()
                    );
                    return self.hard(game, decision);
                }
                other => match other.parse::<usize>() {
                    Ok(k) if (1..=count).contains(&k) => return k - 1,
                    _ => eprintln!("'{other}' is not one of the options."),
                },
            }
        }
    }
}

impl Decider for Deciders<'_, '_> {
    fn decide(&mut self, game: &Game, decision: &Decision) -> usize {
        let seat = decision.seat;
        match self.kinds[seat] {
            SeatKind::Human if !self.desk.autopilot[seat].get() => self.ask(game, decision),
            SeatKind::Human | SeatKind::Hard => self.hard(game, decision),
            SeatKind::Greedy => greedy_choice(&decision.options),
            SeatKind::Easy => self.easy.decide(game, decision),
        }
    }
}

/// The dice as a person reads them: `4`, or `4+2`.
fn roll_words(roll: Roll) -> String {
    let faces: Vec<String> = roll.dice().iter().map(u8::to_string).collect();
    faces.join("+")
}

/// One option in words: `move 4 to 23 (ladder to 45)`, `stay on 19`, `move 5: too far, stay on
/// 98`, with what a top face does under bonus rolls.
fn describe_option(game: &Game, decision: &Decision, option: &MoveOption) -> String {
    let (rules, position) = (game.rules(), decision.position);
    let place = |p: u32| if p == 0 { "the start".to_owned() } else { p.to_string() };
    let mut text = if option.steps == 0 {
        format!("stay on {}", place(position))
    } else {
        let step = game.board().advance(rules, position, option.steps);
        let mut text = if step.overshoot && rules.overshoot == Overshoot::Stay {
            format!("move {}: too far, stay on {}", option.steps, place(position))
        } else if step.overshoot && rules.overshoot == Overshoot::Bounce {
            format!("move {}: bounce back to {}", option.steps, step.landed)
        } else {
            format!("move {} to {}", option.steps, step.landed)
        };
        let blocked = step.overshoot && rules.overshoot == Overshoot::Stay;
        if step.end > step.landed {
            let _ = write!(text, " (ladder to {})", step.end);
        } else if step.end < step.landed && !blocked {
            let _ = write!(text, " (snake to {})", step.end);
        }
        text
    };
    if rules.bonus == Bonus::TopFace && option.top_face && option.lands != game.board().size() {
        let capped = rules.max_bonus.limit() == Some(decision.streak + 1);
        if !capped {
            text.push_str(", roll again");
        } else if rules.on_max == OnMax::Void {
            text.push_str(", which voids the turn");
        }
    }
    text
}

/// The dice on the table: asks a person to press Enter before their roll.
struct Table<'d, 'c> {
    dice: DiceState,
    seats: Vec<Seat>,
    desk: &'d Desk<'c>,
    /// What a person may ask for at the next prompt, besides rolling and quitting.
    keys: Keys,
    /// What a person asked for instead of a roll.
    interrupt: Option<Interrupt>,
    /// Whether the next roll is the first of a turn.
    fresh: bool,
}

#[derive(Clone, Copy, Debug, Default)]
struct Keys {
    undo: bool,
    redo: bool,
}

impl Keys {
    /// The line shown above the prompt when undo or redo is possible.
    fn hint(self) -> Option<&'static str> {
        match (self.undo, self.redo) {
            (true, true) => Some("(u to undo, r to redo)"),
            (true, false) => Some("(u to undo)"),
            (false, true) => Some("(r to redo)"),
            (false, false) => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Interrupt {
    Quit,
    EndOfInput,
    Undo,
    Redo,
}

impl Table<'_, '_> {
    /// Waits for a person to press Enter; any other answer than `q`, `u`, `r` or `a` rolls too.
    fn ask(&mut self, seat: usize) -> Result<(), RollError> {
        let name = &self.seats[seat].name;
        loop {
            if let Some(hint) = self.keys.hint() {
                eprintln!("{hint}");
            }
            eprint!("{name}, press Enter to roll (q to quit, a for autopilot): ");
            let Some(key) = self.desk.keyboard.borrow_mut().line() else {
                eprintln!();
                return self.interrupt(Interrupt::EndOfInput);
            };
            match key.as_str() {
                "q" => return self.interrupt(Interrupt::Quit),
                "a" => {
                    self.desk.autopilot(seat, true);
                    eprintln!(
                        "({name} is on autopilot: {})",
                        self.desk.keyboard.borrow().take_back_hint()
                    );
                    return Ok(());
                }
                "u" if self.keys.undo => return self.interrupt(Interrupt::Undo),
                "r" if self.keys.redo => return self.interrupt(Interrupt::Redo),
                "u" => eprintln!("There is nothing to undo."),
                "r" => eprintln!("There is nothing to redo."),
                _ => return Ok(()),
            }
        }
    }

    fn interrupt(&mut self, why: Interrupt) -> Result<(), RollError> {
        self.interrupt = Some(why);
        Err(RollError::Stopped)
    }
}

impl RollSource for Table<'_, '_> {
    fn roll(&mut self, seat: usize, dice: Dice) -> Result<Roll, RollError> {
        let fresh = std::mem::replace(&mut self.fresh, false);
        if self.seats[seat].kind == SeatKind::Human {
            let on = self.desk.autopilot[seat].get();
            if on && fresh && self.desk.keyboard.borrow_mut().take_back() {
                self.desk.autopilot(seat, false);
            }
            if !self.desk.autopilot[seat].get() {
                self.ask(seat)?;
                // Any later prompt in this turn is for a bonus roll: undo restarts the turn.
                self.keys = Keys { undo: true, redo: false };
            }
        }
        self.dice.roll(seat, dice)
    }
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
        let is_file = Path::new(&board).extension().is_some_and(|e| e.eq_ignore_ascii_case("toml"));
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

#[cfg(test)]
mod tests {
    use snl_engine::{Board, Choice, Preset, Rules};

    use super::*;

    #[test]
    fn a_line_typed_while_the_computer_plays_takes_the_seat_back_at_its_turn() {
        let (send, receive) = mpsc::channel();
        let desk = Desk {
            keyboard: RefCell::new(Keyboard::Typed(receive)),
            autopilot: vec![Cell::new(true), Cell::new(false)],
            pending: RefCell::new(Vec::new()),
        };
        let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Bob", SeatKind::Easy)];
        let mut table = Table {
            dice: DiceState::seeded(1),
            seats,
            desk: &desk,
            keys: Keys::default(),
            interrupt: None,
            fresh: true,
        };
        // Nothing typed: the computer rolls for Ann without asking.
        table.roll(0, Dice::D6).unwrap();
        assert!(desk.autopilot[0].get());
        assert!(desk.pending.borrow().is_empty());
        // Enter typed while it played, then Enter at her prompt: Ann has her seat back.
        send.send(String::new()).unwrap();
        send.send(String::new()).unwrap();
        table.fresh = true;
        table.roll(0, Dice::D6).unwrap();
        assert!(!desk.autopilot[0].get());
        assert_eq!(*desk.pending.borrow(), [Event::Autopilot { player: 0, on: false }]);
        assert!(!desk.keyboard.borrow_mut().take_back(), "both lines were used");
    }

    #[test]
    fn in_a_pipe_only_a_line_a_takes_the_seat_back() {
        let mut input: &[u8] = b"\nx\n";
        let mut keyboard = Keyboard::Lines(&mut input);
        assert!(!keyboard.take_back());
        assert_eq!(keyboard.line().as_deref(), Some(""));
        let mut input: &[u8] = b"A\n\n";
        let mut keyboard = Keyboard::Lines(&mut input);
        assert!(keyboard.take_back());
        assert_eq!(keyboard.line().as_deref(), Some(""));
        assert_eq!(keyboard.line(), None);
    }

    #[test]
    fn options_say_where_they_land_and_what_a_top_face_does() {
        let mut rules = Rules { choice: Choice::MayPass, ..Rules::named("strict-sixes").unwrap() };
        let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Bob", SeatKind::Easy)];
        let game = Game::new(board.clone(), rules, seats.clone()).unwrap();
        let say = |game: &Game, position: u32, faces: &[u8], streak: u32| -> Vec<String> {
            let roll = Roll::from_faces(faces);
            let options = game.options(position, &roll);
            let decision =
                Decision { seat: 0, position, roll, options, turn_start: position, streak };
            decision.options.iter().map(|o| describe_option(game, &decision, o)).collect()
        };
        assert_eq!(say(&game, 3, &[3], 0), ["move 3 to 6 (ladder to 25)", "stay on 3"]);
        assert_eq!(say(&game, 22, &[3], 0), ["move 3 to 25 (snake to 2)", "stay on 22"]);
        assert_eq!(
            say(&game, 0, &[6], 0),
            ["move 6 to 6 (ladder to 25), roll again", "stay on the start, roll again"]
        );
        assert_eq!(say(&game, 7, &[6], 2)[1], "stay on 7, which voids the turn");
        rules.choice = Choice::PickDie;
        let game = Game::new(board, rules, seats).unwrap();
        assert_eq!(
            say(&game, 97, &[5, 2], 0),
            ["move 5: too far, stay on 97", "move 2 to 99 (snake to 54)"]
        );
    }
}
