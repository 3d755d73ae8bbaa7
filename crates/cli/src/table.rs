// Long on purpose: the console's one loop over a session (prompts, clocks, pauses, display) is read top to bottom as the game goes.
//! The line-by-line console at the table: a short loop over a [`Session`]. It owns the keyboard,
//! the pause between computer turns and the display; the session owns the game, its dice, undo
//! and recording. `snl play` and `snl resume` both come here.

use std::{io::Write, path::PathBuf, sync::atomic::Ordering, time::Duration};

use clap::Args;

use snl_engine::{Event, Game, Numbered, Observer, RollError, Status};
use snl_server::setup::{MAX_GAME_TIME, MAX_TURN_TIME};
use snl_session::{Awaiting, Intent, Session, SessionError};
use snl_words::{describe_option, roll_words};

use crate::{
    after_turn::AfterTurn,
    common::{CmdResult, Failure, OrFail, whole_number, zero_or_more},
    session::DbArgs,
};
use snl_tui::{
    clocks::{Clocks, millis},
    console::Console,
    display::{JsonLines, Narrator, draw_game},
    keyboard::{Keyboard, Line},
    seated::{Kept, Seated},
};

/// How a game is shown and kept: the options `play` and `resume` share.
#[derive(Args, Clone, Debug, Default)]
#[command(next_help_heading = "Display")]
#[allow(clippy::struct_excessive_bools)] // independent command-line switches
pub(crate) struct TableArgs {
    /// Print every event as one JSON object per line (SPEC §6) instead of the display.
    #[arg(long, value_name = "FORMAT", value_parser = ["jsonl"])]
    pub(crate) events: Option<String>,
    /// Print one JSON object with the result (ranking, positions, rolls, turns) at the end.
    #[arg(long)]
    pub(crate) json: bool,
    /// Do not pause between computer turns (and do not animate moves).
    #[arg(long)]
    pub(crate) fast: bool,
    /// The line-by-line console even in a terminal, instead of the full-screen game.
    #[arg(long)]
    pub(crate) plain: bool,
    /// No bell on snakes, ladders and the win in the full-screen game.
    #[arg(long)]
    pub(crate) quiet: bool,
    /// Save the game to FILE after every turn (atomically), to go on later with --load FILE.
    #[arg(long, value_name = "FILE", help_heading = "Saving")]
    pub(crate) save: Option<PathBuf>,
    /// Turn clock: a person who has not acted within S seconds has the rest of that turn
    /// played by the computer (the hard strategy), told as `timed_out`; 1 to 86400. A computer
    /// never waits for it.
    #[arg(long, value_name = "S", help_heading = "Clocks", allow_negative_numbers = true,
        value_parser = turn_seconds)]
    pub(crate) turn_time: Option<u64>,
    /// Game clock: when S seconds have passed the round in play is completed, then the game
    /// ends ranked by position as a race ends (`time_up`); 1 to 604800.
    #[arg(long, value_name = "S", help_heading = "Clocks", allow_negative_numbers = true,
        value_parser = game_seconds)]
    pub(crate) game_time: Option<u64>,
    /// For tests only (hidden): the clocks read a pretend time that stands still, except that
    /// each wait for a person's key (a prompt's read, a tick of the full screen) moves it on by
    /// MS milliseconds, so a test says after how many waits a clock runs out, with no sleep.
    #[arg(long, value_name = "MS", hide = true, value_parser = zero_or_more::<u64>)]
    pub(crate) test_clock: Option<u64>,
    /// After each turn, show each player's fewest rolls to finish from where they stand (and
    /// what each carries from the cell effects).
    #[arg(long)]
    pub(crate) hint: bool,
    /// After each turn, show each player's chance to win from where the tokens stand (worked
    /// out exactly, on boards with cell effects and in races too).
    #[arg(long)]
    pub(crate) odds: bool,
    /// Stop cleanly after N turns (the game is kept first), to go on later.
    #[arg(long, value_name = "N", help_heading = "Saving")]
    pub(crate) stop_after: Option<u32>,
    #[command(flatten)]
    pub(crate) db: DbArgs,
}

/// Parses `--turn-time`: 1 to [`MAX_TURN_TIME`] seconds (as a room's `turn_time`).
fn turn_seconds(text: &str) -> Result<u64, String> {
    whole_number(text, 1, MAX_TURN_TIME).map_err(|e| format!("{e} (seconds, 1 to {MAX_TURN_TIME})"))
}

/// Parses `--game-time`: 1 to [`MAX_GAME_TIME`] seconds (as a room's `game_time`).
fn game_seconds(text: &str) -> Result<u64, String> {
    whole_number(text, 1, MAX_GAME_TIME).map_err(|e| format!("{e} (seconds, 1 to {MAX_GAME_TIME})"))
}

/// How long a computer's turn stays on screen before the next, so people can follow.
pub(crate) const COMPUTER_PAUSE: Duration = Duration::from_millis(700);

/// Why the loop stopped before the end.
enum Stop {
    /// `q`, or `--stop-after`: a clean stop.
    Asked,
    InputEnded,
    /// The dice cannot give what the game awaits: retrying would meet the same refusal.
    Dice(RollError),
}

/// Plays `seated` at the console until the game ends or stops, showing it as `opts` asks.
pub(crate) fn play_on(seated: Seated, opts: &TableArgs, console: &mut Console) -> CmdResult {
    let Seated { mut session, kept, tell_seed, intro } = seated;
    let text = !opts.json && opts.events.is_none();
    let pause = text && console.stdout_tty && !opts.fast;
    let color = console.color;
    let interrupted = crate::interrupt::on_ctrl_c(&kept);
    let mut keyboard =
        if console.stdin_tty { Keyboard::typed() } else { Keyboard::Lines(console.input.as_mut()) };
    let out: &mut dyn Write = console.out.as_mut();
    if text {
        writeln!(out, "{}", draw_game(session.game(), color)).or_other()?;
        if let Some(intro) = &intro {
            writeln!(out, "{intro}").or_other()?;
        }
    }
    // Fewest rolls to finish from every position: one search, then a lookup per turn.
    let after_turn = text.then(|| AfterTurn::new(session.game(), opts.hint, opts.odds));
    let mut view = View::new(out, opts.events.is_some(), opts.json, color, session.game());
    let mut played = 0;
    // The game's turn count when the last turn ended (or this run began): a turn is counted once
    // it has ended, whatever number of steps (rolls, choices, draws) it took.
    let mut turns_at_end = session.game().turns() - u32::from(session.game().in_turn());
    let mut board_shown = true;
    let mut handed = None;
    let mut clocks = Clocks::new(opts.turn_time, opts.game_time, opts.test_clock);
    let outcome = loop {
        for note in session.take_notes() {
            snl_tui::stderr_line!("snl: warning: {note}");
        }
        interrupted.turns.store(session.game().turns(), Ordering::Relaxed);
        let turn_start = !session.game().in_turn();
        let expired = clocks.as_mut().and_then(|c| c.due(&session).map(|e| (c, e)));
        let step = match session.awaiting() {
            Awaiting::Over => break Ok(()),
            _ if turn_start && opts.stop_after.is_some_and(|n| played >= n) => {
                break Err(Stop::Asked);
            }
            _ if expired.is_some() => {
                let (clocks, expiry) = expired.expect("just matched");
                clocks.fire(&mut session, expiry)
            }
            Awaiting::Computer { seat } => {
                let person = !session.game().seats()[seat].kind.is_computer();
                // A seat handed over at this prompt plays this turn before it can be taken back.
                let just_handed = handed == Some((seat, session.game().turns()));
                if person && turn_start && !just_handed && keyboard.take_back() {
                    session.act(seat, Intent::Autopilot { on: false })
                } else {
                    if pause && turn_start && session.game().turns() > 0 {
                        std::thread::sleep(COMPUTER_PAUSE);
                    }
                    session.play_computer()
                }
            }
            Awaiting::Roll { seat } => {
                if text && turn_start && !board_shown {
                    view.raw(&draw_game(session.game(), color));
                }
                match ask_roll(&mut session, seat, &mut keyboard, clocks.as_mut())? {
                    Answer::Do(intent) => session.act(seat, intent),
                    Answer::Late => continue,
                    Answer::Ended => break Err(Stop::InputEnded),
                }
            }
            Awaiting::Choice(decision) => {
                match ask_choice(&mut session, &decision, &mut keyboard, clocks.as_mut())? {
                    Answer::Do(intent) => session.act(decision.seat, intent),
                    Answer::Late => continue,
                    Answer::Ended => break Err(Stop::InputEnded),
                }
            }
        };
        board_shown = false;
        if let Ok(events) = &step
            && let Some(seat) = events.iter().find_map(|e| match e.event {
                Event::Autopilot { player, on: true } => Some(player),
                _ => None,
            })
        {
            handed = Some((seat, session.game().turns()));
        }
        match step {
            Ok(events) => view.tell(&events),
            Err(SessionError::Dice(e)) => break Err(Stop::Dice(e)),
            Err(e) => snl_tui::stderr_line!("{e}."),
        }
        if let Some(e) = view.take_error() {
            session.stop();
            return Err(Failure::other(e));
        }
        if session.is_stopped() {
            break Err(Stop::Asked);
        }
        let game = session.game();
        if !game.in_turn() {
            if game.turns() > turns_at_end {
                played += 1;
                if let Some(after_turn) = &after_turn
                    && game.status() != Status::Finished
                {
                    for line in after_turn.lines(game, session.win_odds()) {
                        view.raw(&line);
                    }
                }
            }
            // After an undo the count goes down: the next turn ending is counted from there.
            turns_at_end = game.turns();
        }
    };
    drop(view);
    for note in session.take_notes() {
        snl_tui::stderr_line!("snl: warning: {note}");
    }
    let out = console.out.as_mut();
    let game = session.game();
    let stopped_at = game.turns();
    match outcome {
        Ok(()) => {}
        Err(Stop::Asked) => {
            session.stop();
            if text {
                writeln!(out, "Game stopped after {stopped_at} turns.").or_other()?;
                if let Some(how) = kept.how_to_go_on() {
                    writeln!(out, "{how}").or_other()?;
                }
            } else if opts.json {
                writeln!(out, "{}", result_json(&session, &kept)).or_other()?;
            }
            return Ok(());
        }
        Err(Stop::InputEnded) => {
            let who = game.seats()[game.current()].name.clone();
            session.stop();
            return Err(Failure::stuck(anyhow::anyhow!(
                "input ended while waiting for {who} to roll, so the game stopped after {stopped_at} turns",
            )));
        }
        Err(Stop::Dice(e)) => {
            session.stop();
            return Err(snl_tui::failure::dice_failure(&e, stopped_at));
        }
    }
    if opts.json {
        writeln!(out, "{}", result_json(&session, &kept)).or_other()?;
    } else if text {
        writeln!(out, "\n{}", draw_game(game, color)).or_other()?;
        if let (true, Some(seed)) = (tell_seed, session.dice().seed()) {
            writeln!(out, "This game was seed {seed}: play it again with --seed {seed}.")
                .or_other()?;
        }
    }
    Ok(())
}

/// What a person answered at a prompt.
enum Answer {
    Do(Intent),
    /// The input ended.
    Ended,
    /// A clock ran out first.
    Late,
}

/// Asks a person to roll: Enter rolls, `q` quits, `a` hands the seat to the computer, `u` and `r`
/// undo and redo.
fn ask_roll(
    session: &mut Session,
    seat: usize,
    keyboard: &mut Keyboard<'_>,
    mut clocks: Option<&mut Clocks>,
) -> CmdResult<Answer> {
    let name = session.game().seats()[seat].name.clone();
    let (undo, redo) = session.can_undo_redo();
    loop {
        match (undo, redo) {
            (true, true) => snl_tui::stderr_line!("(u to undo, r to redo)"),
            (true, false) => snl_tui::stderr_line!("(u to undo)"),
            (false, true) => snl_tui::stderr_line!("(r to redo)"),
            (false, false) => {}
        }
        let left = time_left(clocks.as_deref());
        snl_tui::stderr_text!("{name}, press Enter to roll (q to quit, a for autopilot{left}): ");
        let key = match answer(keyboard, session, clocks.as_deref_mut())? {
            Heard::Text(text) => text,
            Heard::Ended => return Ok(Answer::Ended),
            Heard::Late => return Ok(Answer::Late),
        };
        let intent = |i| Ok(Answer::Do(i));
        match key.as_str() {
            "" => return intent(Intent::Roll),
            "q" => return intent(Intent::Quit),
            "a" => {
                let who = snl_words::agree(&name, "is", "are");
                snl_tui::stderr_line!("({who} on autopilot: {})", keyboard.take_back_hint());
                return intent(Intent::Autopilot { on: true });
            }
            "u" if undo => return intent(Intent::Undo),
            "r" if redo => return intent(Intent::Redo),
            "u" => snl_tui::stderr_line!("There is nothing to undo."),
            "r" => snl_tui::stderr_line!("There is nothing to redo."),
            other => {
                snl_tui::stderr_line!(
                    "'{other}' is not a key here: Enter rolls, q quits, a is autopilot."
                );
            }
        }
    }
}

/// Asks a person to choose among the options of their roll; the roll prompt's `q`, `u` and `a`
/// work here too. `None` when the input ended.
fn ask_choice(
    session: &mut Session,
    decision: &snl_engine::Decision,
    keyboard: &mut Keyboard<'_>,
    mut clocks: Option<&mut Clocks>,
) -> CmdResult<Answer> {
    let game = session.game();
    let name = game.seats()[decision.seat].name.clone();
    let count = decision.options.len();
    let list: Vec<String> = decision
        .options
        .iter()
        .enumerate()
        .map(|(i, o)| format!("{}) {}", i + 1, describe_option(game, decision, o)))
        .collect();
    snl_tui::stderr_line!("{name} rolled {}: {}", roll_words(decision.roll), list.join("  "));
    let (undo, _) = session.can_undo_redo();
    loop {
        let more = if undo { ", u to undo" } else { "" };
        let left = time_left(clocks.as_deref());
        snl_tui::stderr_text!(
            "{name}, choose 1 to {count} (Enter for 1, a for autopilot{more}, q to quit{left}): "
        );
        let answer = match answer(keyboard, session, clocks.as_deref_mut())? {
            Heard::Text(text) => text,
            Heard::Ended => return Ok(Answer::Ended),
            Heard::Late => return Ok(Answer::Late),
        };
        let intent = |i| Ok(Answer::Do(i));
        match answer.as_str() {
            "" => return intent(Intent::Choose { option: 0 }),
            "q" => return intent(Intent::Quit),
            "u" if undo => return intent(Intent::Undo),
            "a" => {
                let who = snl_words::agree(&name, "is", "are");
                snl_tui::stderr_line!("({who} on autopilot: {})", keyboard.take_back_hint());
                return intent(Intent::Autopilot { on: true });
            }
            other => match other.parse::<usize>() {
                Ok(k) if (1..=count).contains(&k) => {
                    return intent(Intent::Choose { option: k - 1 });
                }
                _ => snl_tui::stderr_line!("'{other}' is not one of the options."),
            },
        }
    }
}

/// What came at a prompt.
enum Heard {
    Text(String),
    /// The input ended.
    Ended,
    /// A clock ran out before an answer came.
    Late,
}

/// The next answer at a prompt, unless a clock runs out first. A line that is not text is bad
/// input.
fn answer(
    keyboard: &mut Keyboard<'_>,
    session: &Session,
    clocks: Option<&mut Clocks>,
) -> CmdResult<Heard> {
    // How long the answer may take: until the next clock runs out. A pretend clock moves on
    // once per wait, then the answer is awaited without a limit.
    let limit = match clocks {
        None => None,
        Some(clocks) => {
            clocks.clock().waited();
            if clocks.due(session).is_some() {
                snl_tui::stderr_line!();
                return Ok(Heard::Late);
            }
            if clocks.clock().is_pretend() { None } else { clocks.until_next(session) }
        }
    };
    let Some(line) = keyboard.line_within(limit) else {
        snl_tui::stderr_line!();
        return Ok(Heard::Late);
    };
    match line {
        Line::Text(text) => Ok(Heard::Text(text)),
        Line::End => {
            snl_tui::stderr_line!();
            Ok(Heard::Ended)
        }
        Line::NotText => {
            snl_tui::stderr_line!();
            Err(Failure::bad(anyhow::anyhow!("the answer typed at the prompt is not UTF-8 text")))
        }
    }
}

/// `, 0:25 to act` when the person's clock runs (and `, 9:10 of the game left` with the game
/// clock), for a prompt, as of the clocks' last look.
fn time_left(clocks: Option<&Clocks>) -> String {
    let Some(clocks) = clocks else { return String::new() };
    let (turn, game) = clocks.left();
    snl_words::clock_prompt(turn.map(millis), game.map(millis))
}

/// The object `play --json` prints (SPEC §7), plus where the game is kept.
fn result_json(session: &Session, kept: &Kept) -> serde_json::Value {
    let mut value = game_json(session.game(), session.dice().seed());
    value["game_id"] = serde_json::json!(kept.game_id);
    value["save"] = serde_json::json!(kept.save);
    value
}

/// The whole game as one JSON object: `players`, `ranking`, `positions`, `rolls`, `turns`,
/// `seed`, `finished` and `time_up` (whether the game clock ran out).
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
        "time_up": game.time_up().is_some(),
    })
}

/// What a game is shown through: the narration, `--events jsonl`, or nothing (`--json`).
enum View<'w> {
    Text(Narrator<'w>),
    Events(JsonLines<'w>),
    Quiet,
}

impl<'w> View<'w> {
    fn new(out: &'w mut dyn Write, events: bool, json: bool, color: bool, game: &Game) -> View<'w> {
        match (events, json) {
            (true, _) => View::Events(JsonLines::new(out, game.seats())),
            (false, true) => View::Quiet,
            (false, false) => View::Text(Narrator::new(out, color, game)),
        }
    }

    fn tell(&mut self, events: &[Numbered<usize>]) {
        for numbered in events {
            match self {
                View::Text(n) => n.event(&numbered.event),
                View::Events(j) => j.write(numbered),
                View::Quiet => {}
            }
        }
    }

    /// Writes `text` as it is, in the narration only (a drawn board, a note).
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
