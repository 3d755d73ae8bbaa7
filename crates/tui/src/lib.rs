//! Snakes and Ladders in a terminal, for the `snl` binary: the console's board drawing and
//! narration ([`display`], in the words of `snl_words`), its keyboard and clocks, and the full-screen game (SPEC §10) with
//! the replay viewer and the online terminal client ([`join`]).
//!
//! ```
//! use snl_engine::{Board, Game, Preset, Rules, Seat, SeatKind};
//!
//! let rules = Rules::default();
//! let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
//! let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Bob", SeatKind::Easy)];
//! let game = Game::new(board, rules, seats).unwrap();
//! let grid = snl_tui::display::draw_game(&game, false);
//! assert!(grid.lines().any(|row| row.starts_with("|100")));
//! ```
//!
//! The full screen follows the shape of ratatui's crates-tui: a terminal event or a tick becomes
//! an `Action` (`action.rs`), `update.rs` changes the `App` (`app.rs`: the state, holding the
//! [`snl_session::Session`] and the screen's `Mode`), and `ui/` draws the state; the widgets hold
//! no state and nothing is global but the panic hook's "restore the terminal" (`terminal.rs`).
//! The binary decides whether a game is played here or at the console ([`play`]).

#![warn(clippy::print_stderr, clippy::print_stdout)]

/// As `eprintln!`, but a line that cannot be written (standard error closed, or a full disk
/// behind it) is lost instead of panicking: a message about the game never stops the game.
#[macro_export]
macro_rules! stderr_line {
    () => {{
        use ::std::io::Write as _;
        let _ = ::std::io::stderr().write_all(b"\n");
    }};
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        // Formatted first, then written at once: stderr is unbuffered, and a message of 400,000
        // listed problems written piece by piece took millions of system calls (issue 29).
        let mut line = ::std::format!($($arg)*);
        line.push('\n');
        let _ = ::std::io::stderr().write_all(line.as_bytes());
    }};
}

/// As `eprint!` (a prompt that the answer follows on the same line), but never panicking: see
/// [`stderr_line!`].
#[macro_export]
macro_rules! stderr_text {
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        let _ = ::std::write!(::std::io::stderr(), $($arg)*);
    }};
}

mod action;
mod app;
mod client;
pub mod clocks;
pub mod console;
mod dice;
pub mod display;
pub mod failure;
pub mod join;
pub mod keyboard;
mod log;
mod odds;
mod online;
mod replay;
mod screen;
pub mod seated;
mod setup;
mod terminal;
mod ui;
mod update;

pub use client::{ClientError, RoomUrl, room_save};

#[cfg(test)]
mod dice_tests;
#[cfg(test)]
mod online_tests;
#[cfg(test)]
mod parity_tests;
#[cfg(test)]
mod replay_tests;
#[cfg(test)]
mod tests;

use std::io;

use crossterm::event;
use snl_engine::{Game, Status};
use snl_store::Save;

pub use self::{app::Options, setup::Choices};
use self::{
    app::{App, Stop},
    replay::{MAX_TURNS, Recording, Replay},
    terminal::Screen,
};
use crate::{
    clocks::Clocks,
    console::Console,
    failure::{CmdResult, Failure, OrFail},
    seated::{Kept, Seated},
};

/// Plays `seated` on the full screen until the game ends and the player leaves, or stops.
///
/// # Errors
///
/// The terminal was lost, a line could not be written, or the scripted rolls ran out.
pub fn play(
    seated: Seated,
    options: Options,
    clocks: Option<Clocks>,
    console: &mut Console,
) -> CmdResult {
    let Seated { session, kept, tell_seed, intro } = seated;
    let mut app = App::new(session, kept, options, tell_seed, intro);
    app.mode = app::Mode::Local { clocks };
    let outcome = screen::run(&mut app);
    // The terminal is back (the screen was dropped in `run`): tell how it ended.
    if outcome.is_err() {
        app.session.stop();
    }
    for note in app.session.take_notes() {
        crate::stderr_line!("snl: warning: {note}");
    }
    outcome.map_err(|e| {
        Failure::other(anyhow::anyhow!("the terminal was lost, so the game stopped: {e}"))
    })?;
    let game = app.session.game();
    let out = console.out.as_mut();
    match &app.stop {
        Some(Stop::Dice(e)) => Err(crate::failure::dice_failure(e, game.turns())),
        Some(Stop::Interrupted) => {
            Err(Failure::interrupted(anyhow::anyhow!("{}", interrupted(game.turns(), &app.kept))))
        }
        _ if game.status() != Status::Finished => {
            writeln!(out, "Game stopped after {} turns.", game.turns()).or_other()?;
            if let Some(how) = app.kept.how_to_go_on() {
                writeln!(out, "{how}").or_other()?;
            }
            Ok(())
        }
        _ => {
            for said in app
                .log
                .iter()
                .rev()
                .take_while(|s| s.tone == log::Tone::Win)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
            {
                writeln!(out, "{}", said.text).or_other()?;
            }
            if let (true, Some(seed)) = (app.tell_seed, app.session.dice().seed()) {
                writeln!(out, "This game was seed {seed}: play it again with --seed {seed}.")
                    .or_other()?;
            }
            Ok(())
        }
    }
}

/// Ctrl-C's sentence: how many turns were played, so where `resume` goes on from, and how.
fn interrupted(turns: u32, kept: &Kept) -> String {
    let plural = if turns == 1 { "" } else { "s" };
    let text = format!("interrupted by Ctrl-C after {turns} turn{plural}");
    match kept.how_to_go_on() {
        Some(how) => format!("{text}; {}", how.replacen("Go on", "go on", 1)),
        None => format!("{text}; the game is not kept"),
    }
}

/// Whether `snl replay` shows `end` on the full screen: in a terminal, as text, and at most
/// `MAX_TURNS` turns long (a longer game is told so on stderr and shown line by line).
pub fn replay_wanted(end: &Game, plain: bool, console: &Console) -> bool {
    if plain || !console.stdin_tty || !console.stdout_tty {
        return false;
    }
    if end.turns() > MAX_TURNS {
        crate::stderr_line!(
            "snl: note: this game has {} turns, more than the {MAX_TURNS} the full-screen viewer \
             takes: it is shown line by line.",
            end.turns()
        );
        return false;
    }
    true
}

/// Shows the recorded game `end` (restored from `save`) on the full screen, from before its first
/// turn, paused, until the viewer leaves; `title` names it ("game 7"), `speed` is `--speed`.
///
/// # Errors
///
/// The recording cannot be replayed, or the terminal was lost.
pub fn replay(
    end: &Game,
    save: &Save,
    chat: &[snl_wire::ChatEntry],
    title: &str,
    speed: f64,
    console: &mut Console,
) -> CmdResult {
    let recording = Recording::new(end, save.dice.clone(), &save.board_name)
        .map_err(Failure::other)?
        .with_chat(chat);
    let intro = format!(
        "Replay of {title}: {} turns. Space plays, ← → step, ? shows the keys.",
        recording.turns()
    );
    let session = recording.session_at(0);
    let replay = Replay::new(recording, title, &intro, speed);
    // No bell: a replay is watched, often in jumps.
    let options = Options { color: console.color, quiet: true, ..Options::default() };
    let mut app = App::new(session, Kept::default(), options, false, Some(intro));
    app.mode = app::Mode::Replay(replay);
    screen::run(&mut app).map_err(|e| {
        Failure::other(anyhow::anyhow!("the terminal was lost, so the replay stopped: {e}"))
    })?;
    let game = app.session.game();
    writeln!(
        console.out.as_mut(),
        "Left the replay of {title} at turn {} of {}.",
        game.turns(),
        end.turns()
    )
    .or_other()
}

/// The setup form of a bare `snl` in a terminal; it fills `args`' board (a random one's size and
/// effects), seed, rules, choice rule, mode, clocks and players.
/// False when the player left without starting.
///
/// # Errors
///
/// The terminal was lost.
pub fn setup_form(args: &mut Choices) -> CmdResult<bool> {
    let race = (args.mode.as_deref() == Some("race")).then_some(args.rounds).flatten();
    let mut form = setup::Form::new(&args.board, args.rules.as_deref())
        .with(args.effects, race, args.turn_time, args.game_time)
        .with_more(args.size, args.seed, args.choice.as_deref());
    let mut run = || -> io::Result<()> {
        let mut screen = Screen::enter()?;
        while form.done.is_none() {
            screen.terminal.draw(|frame| ui::setup::render(frame, &form))?;
            if let event::Event::Key(key) = event::read()?
                && key.kind != event::KeyEventKind::Release
            {
                form.key(key);
            }
        }
        Ok(())
    };
    run().map_err(|e| {
        Failure::other(anyhow::anyhow!("the terminal was lost during the setup: {e}"))
    })?;
    if form.done != Some(true) {
        return Ok(false);
    }
    form.fill(args);
    Ok(true)
}
