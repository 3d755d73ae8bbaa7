//! `snl replay`: a recorded or saved game again, event by event, shown as `play` shows it: in a
//! terminal, the full-screen viewer (`tui`: play, pause, step, seek); with `--plain` or output
//! that is not a terminal, line by line.

use std::{io::Write, path::Path, time::Duration};

use clap::Args;
use snl_engine::{Board, Event, Game, Numbered, Observer, SeatKind, Status};
use snl_store::{GameId, Save};
use snl_wire::ChatEntry;

use crate::{
    common::{CmdResult, Failure, OrFail},
    records::{db_failure, open_existing},
    session::DbArgs,
    table::{COMPUTER_PAUSE, game_json},
};
use snl_tui::{
    console::Console,
    display::{JsonLines, Narrator, draw_board, draw_game, token_marks},
};

/// Options of `snl replay`.
#[derive(Args, Clone, Debug)]
#[command(
    after_help = "Limits: a save file of at most 268435456 bytes (256 MiB: a save is rewritten \
whole before it passes half of that, so it holds some 2.3 million turns, read a line at a time: \
some 500 bytes a turn, the largest within 1.5 GiB); ID \
at most 9223372036854775807 (SQLite's largest row number)."
)]
pub(crate) struct ReplayArgs {
    /// A game's number in the game database (see `snl games`), or a save file.
    #[arg(value_name = "ID|FILE")]
    pub(crate) game: String,
    /// How fast, in a terminal: 1 is the pace of play, 2 twice as fast, 0 without pauses (the
    /// full-screen viewer: its nearest speed, ¼ to 64).
    #[arg(long, value_name = "FACTOR", default_value_t = 1.0, value_parser = speed)]
    pub(crate) speed: f64,
    /// Print every event as one JSON object per line (SPEC §6) instead of the display.
    #[arg(long, value_name = "FORMAT", value_parser = ["jsonl"])]
    pub(crate) events: Option<String>,
    /// Print one JSON object describing the whole game instead of the display.
    #[arg(long)]
    pub(crate) json: bool,
    /// The game line by line even in a terminal, instead of the full-screen viewer (which takes
    /// games of up to 100,000 turns).
    #[arg(long)]
    pub(crate) plain: bool,
    #[command(flatten)]
    pub(crate) db: DbArgs,
}

fn speed(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!("'{text}' is not a speed: use a number 0 or more (0: no pauses)")),
    }
}

pub(crate) fn run(args: &ReplayArgs, console: &mut Console) -> CmdResult {
    let (save, from) = read(args)?;
    // Check the whole game first, so that a bad one is refused before anything is shown.
    let end = save
        .restore()
        .map_err(|e| Failure::bad(anyhow::anyhow!("{from} cannot be replayed: {e}")))?;
    let text = !args.json && args.events.is_none();
    // The chat said in the room of a game played online, where it was said (none for a file).
    let chat = match &from {
        From::Database(id) if text => {
            let db = open_existing(&args.db)?;
            db.chat(*id).map_err(|e| db_failure(db.path(), &e))?
        }
        _ => Vec::new(),
    };
    if text && snl_tui::replay_wanted(&end, args.plain, console) {
        return snl_tui::replay(&end, &save, &chat, &from.to_string(), args.speed, console);
    }
    let color = console.color;
    let pause = (text && console.stdout_tty && args.speed > 0.0)
        .then(|| COMPUTER_PAUSE.div_f64(args.speed));
    let out: &mut dyn Write = console.out.as_mut();
    // The game before the first turn: a new game on the same board with the same seats.
    let state = &save.game;
    let board = Board::new(&state.board, &state.rules).or_other()?;
    let first = Game::new(board, state.rules, state.seats.clone()).or_other()?;
    if text {
        writeln!(out, "{}", draw_game(&first, color)).or_other()?;
    }
    let view = if args.events.is_some() {
        View::Events(JsonLines::new(out, first.seats()))
    } else if args.json {
        View::Quiet
    } else {
        View::Text(Narrator::new(out, color, &first))
    };
    let mut paced = Paced {
        view,
        pause,
        color,
        turns: 0,
        seq: 0,
        marks: token_marks(first.seats()),
        kinds: first.seats().iter().map(|s| s.kind).collect(),
        positions: first.positions(),
        board: first.board().clone(),
        chat: chat.iter().peekable(),
    };
    paced.chat_until(0);
    Game::replay(&save.game, &mut paced).or_other()?;
    let error = match &mut paced.view {
        View::Text(n) => n.take_error(),
        View::Events(j) => j.take_error(),
        View::Quiet => None,
    };
    if let Some(e) = error {
        return Err(Failure::other(e));
    }
    drop(paced);
    let out = console.out.as_mut();
    if args.json {
        writeln!(out, "{}", game_json(&end, save.dice.seed())).or_other()?;
    } else if text {
        writeln!(out, "\n{}", draw_game(&end, color)).or_other()?;
        if end.status() != Status::Finished {
            writeln!(
                out,
                "The game stands after turn {}; go on with {}.",
                end.turns(),
                from.go_on()
            )
            .or_other()?;
        }
    }
    Ok(())
}

/// Where the replayed game comes from.
pub(crate) enum From {
    Database(GameId),
    File(String),
}

impl From {
    fn go_on(&self) -> String {
        match self {
            From::Database(id) => format!("snl resume {id}"),
            From::File(path) => format!("snl play --load {path}"),
        }
    }
}

impl std::fmt::Display for From {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            From::Database(id) => write!(f, "game {id}"),
            From::File(path) => write!(f, "the save file {path}"),
        }
    }
}

/// Reads the game: a save file when one exists by that name, else a game number.
fn read(args: &ReplayArgs) -> CmdResult<(Save, From)> {
    read_game(&args.game, &args.db)
}

/// The game `name` names: a save file, else a game's number in the database `db`.
pub(crate) fn read_game(name: &str, db: &DbArgs) -> CmdResult<(Save, From)> {
    if Path::new(name).is_file() {
        let save = Save::read(Path::new(name))
            .map_err(|e| Failure::bad(anyhow::anyhow!("cannot load the save file {name}: {e}")))?;
        return Ok((save, From::File(name.to_owned())));
    }
    let Ok(id) = name.parse::<i64>() else {
        return Err(Failure::bad(anyhow::anyhow!(
            "'{name}' is neither a game number (see snl games) nor a save file"
        )));
    };
    let db = open_existing(db)?;
    let save = db.load(GameId(id)).map_err(|e| db_failure(db.path(), &e))?;
    Ok((save, From::Database(GameId(id))))
}

/// What the replay is shown through.
enum View<'w> {
    Text(Narrator<'w>),
    Events(JsonLines<'w>),
    Quiet,
}

/// Shows a replayed game at the pace of play: the board before each person's turn, as `play`
/// does, and a pause before every turn in a terminal.
struct Paced<'w> {
    view: View<'w>,
    pause: Option<Duration>,
    color: bool,
    turns: u32,
    seq: u64,
    marks: Vec<char>,
    kinds: Vec<SeatKind>,
    /// Where the tokens stand, followed from the events.
    positions: Vec<u32>,
    board: Board,
    /// The room's chat still to say, each line after the events told before it.
    chat: std::iter::Peekable<std::slice::Iter<'w, ChatEntry>>,
}

impl Paced<'_> {
    /// Says the chat lines said once `told` events had been told.
    fn chat_until(&mut self, told: u64) {
        while let Some(line) = self.chat.next_if(|line| line.at <= told) {
            if let View::Text(n) = &mut self.view {
                n.raw(&format!("{}: {}", line.player, line.text));
            }
        }
    }
}

impl Observer for Paced<'_> {
    fn event(&mut self, event: &Event) {
        match *event {
            Event::TurnStarted { player, .. } => {
                self.turns += 1;
                if self.turns > 1 {
                    if let View::Text(n) = &mut self.view
                        && self.kinds[player] == SeatKind::Human
                    {
                        let tokens: Vec<(u32, char)> = self
                            .positions
                            .iter()
                            .copied()
                            .zip(self.marks.iter().copied())
                            .collect();
                        n.raw(&draw_board(&self.board, &tokens, self.color));
                    }
                    if let Some(pause) = self.pause {
                        std::thread::sleep(pause);
                    }
                }
            }
            Event::Moved { player, to, .. }
            | Event::Snake { player, to, .. }
            | Event::Ladder { player, to, .. }
            | Event::Wormhole { player, to, .. }
            | Event::TurnVoided { player, back_to: to } => self.positions[player] = to,
            _ => {}
        }
        self.seq += 1;
        match &mut self.view {
            View::Text(n) => n.event(event),
            View::Events(j) => j.write(&Numbered { seq: self.seq, event: event.clone() }),
            View::Quiet => {}
        }
        self.chat_until(self.seq);
    }
}
