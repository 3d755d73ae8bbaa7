//! The full-screen terminal game (SPEC §10): `snl` and `snl play` when standard input and output
//! are both a terminal, unless `--plain` (or a machine output) asks for the line-by-line console.
//!
//! It follows the shape of ratatui's crates-tui: a terminal event or a tick becomes an
//! [`action::Action`], [`update::update`] changes the [`app::App`] (the state, holding the
//! [`snl_session::Session`]), and [`ui::render`] draws the state; the widgets hold no state and
//! nothing is global but the panic hook's "restore the terminal" ([`terminal`]).

mod action;
mod app;
mod odds;
pub(crate) mod online;
mod replay;
mod setup;
mod terminal;
mod ui;
mod update;

#[cfg(test)]
mod online_tests;
#[cfg(test)]
mod replay_tests;
#[cfg(test)]
mod tests;

use std::{
    io,
    time::{Duration, Instant},
};

use crossterm::event;
use snl_engine::{Game, Status};
use snl_store::Save;

pub(crate) use self::app::Options;
use self::{
    action::Action,
    app::{App, Stop},
    replay::{MAX_TURNS, Recording, Replay},
    terminal::Screen,
};
use crate::{
    clocks::Clocks,
    common::{CmdResult, Failure, OrFail},
    console::Console,
    play::{PlayArgs, TableArgs},
    table::{Kept, Seated},
};

/// One step of the animation and of the computers' play.
const TICK: Duration = Duration::from_millis(60);

/// Whether `opts` on `console` call for the full screen.
pub(crate) fn wanted(opts: &TableArgs, console: &Console) -> bool {
    console.stdin_tty && console.stdout_tty && !opts.plain && !opts.json && opts.events.is_none()
}

/// Plays `seated` on the full screen until the game ends and the player leaves, or stops.
pub(crate) fn play(seated: Seated, opts: &TableArgs, console: &mut Console) -> CmdResult {
    let Seated { session, kept, tell_seed, intro } = seated;
    let options = Options {
        color: console.color,
        fast: opts.fast,
        quiet: opts.quiet,
        save: opts.save.clone(),
        stop_after: opts.stop_after,
    };
    let mut app = App::new(session, kept, options, tell_seed, intro);
    app.clocks = Clocks::new(opts.turn_time, opts.game_time, opts.test_clock);
    let outcome = run(&mut app);
    // The terminal is back (the screen was dropped in `run`): tell how it ended.
    if outcome.is_err() {
        app.session.stop();
    }
    for note in app.session.take_notes() {
        eprintln!("snl: warning: {note}");
    }
    outcome.map_err(|e| {
        Failure::other(anyhow::anyhow!("the terminal was lost, so the game stopped: {e}"))
    })?;
    let game = app.session.game();
    let out = console.out.as_mut();
    match app.stop {
        Some(Stop::RollsRanOut(used)) => Err(Failure::stuck(anyhow::anyhow!(
            "the scripted rolls ran out after {used} rolls, before the game ended (turn {})",
            game.turns()
        ))),
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
                .take_while(|s| s.tone == app::Tone::Win)
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

/// Whether `snl replay` shows `end` on the full screen: in a terminal, as text, and at most
/// [`MAX_TURNS`] turns long (a longer game is told so on stderr and shown line by line).
pub(crate) fn replay_wanted(end: &Game, plain: bool, console: &Console) -> bool {
    if plain || !console.stdin_tty || !console.stdout_tty {
        return false;
    }
    if end.turns() > MAX_TURNS {
        eprintln!(
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
pub(crate) fn replay(
    end: &Game,
    save: &Save,
    title: &str,
    speed: f64,
    console: &mut Console,
) -> CmdResult {
    let recording =
        Recording::new(end, save.dice.clone(), &save.board_name).map_err(Failure::other)?;
    let intro = format!(
        "Replay of {title}: {} turns. Space plays, ← → step, ? shows the keys.",
        recording.turns()
    );
    let session = recording.session_at(0);
    let replay = Replay::new(recording, title, &intro, speed);
    // No bell: a replay is watched, often in jumps.
    let options = Options { color: console.color, quiet: true, ..Options::default() };
    let mut app = App::new(session, Kept::default(), options, false, Some(intro));
    app.replay = Some(replay);
    run(&mut app).map_err(|e| {
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

/// The setup form of a bare `snl` in a terminal; it fills `args`' board, effects, rules, mode,
/// clocks and players.
/// False when the player left without starting.
pub(crate) fn setup_form(args: &mut PlayArgs) -> CmdResult<bool> {
    let race = (args.game.mode.as_deref() == Some("race")).then_some(args.game.rounds).flatten();
    let mut form = setup::Form::new(&args.game.board, args.game.rules.as_deref()).with(
        args.game.effects,
        race,
        args.table.turn_time,
        args.table.game_time,
    );
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

/// The loop: draw, ring, wait for a key or the next tick, update. The screen is restored when it
/// returns, whatever happened.
fn run(app: &mut App) -> io::Result<()> {
    let mut screen = Screen::enter()?;
    let mut next_tick = Instant::now() + TICK;
    while app.stop.is_none() {
        screen.terminal.draw(|frame| ui::render(frame, app))?;
        if std::mem::take(&mut app.bells) > 0 && !app.opts.quiet {
            screen.bell()?;
        }
        let wait = next_tick.saturating_duration_since(Instant::now());
        let action = if event::poll(wait)? {
            action::from_event(&event::read()?, app)
        } else {
            next_tick = Instant::now() + TICK;
            Some(Action::Tick)
        };
        if let Some(action) = action {
            update::update(app, action);
        }
    }
    drop(screen);
    Ok(())
}
