//! The line-by-line console at the table: a short loop over a [`Session`]. It owns the keyboard,
//! the pause between computer turns and the display; the session owns the game, its dice, undo
//! and recording. `snl play` and `snl resume` both come here.

use std::{io::Write, path::PathBuf, sync::atomic::Ordering};

use snl_analysis::solve::rolls_to_finish;
use snl_engine::{Event, Game, Numbered, Observer, RollError, Status};
use snl_session::{Awaiting, Intent, Session, SessionError};
use snl_store::GameId;

use crate::{
    common::{CmdResult, Failure, OrFail},
    console::Console,
    display::{JsonLines, Narrator, draw_game},
    keyboard::{Keyboard, Line},
    play::{COMPUTER_PAUSE, TableArgs},
    prompts::{describe_option, roll_words},
};

/// A session ready to be played, and what to tell around it.
pub(crate) struct Seated {
    pub(crate) session: Session,
    /// Where the game is kept, to tell people how to go on.
    pub(crate) kept: Kept,
    /// Whether to tell the seed at the end (a new game whose seed nobody chose).
    pub(crate) tell_seed: bool,
    /// A line to show before the first turn.
    pub(crate) intro: Option<String>,
}

/// Where a game is kept.
#[derive(Clone, Debug, Default)]
pub(crate) struct Kept {
    pub(crate) game_id: Option<GameId>,
    pub(crate) db: Option<PathBuf>,
    pub(crate) save: Option<PathBuf>,
}

impl Kept {
    /// How to go on with a stopped game, for people.
    pub(crate) fn how_to_go_on(&self) -> Option<String> {
        let mut ways = Vec::new();
        if let Some(id) = self.game_id {
            ways.push(format!("snl resume {id}"));
        }
        if let Some(path) = &self.save {
            ways.push(format!("snl play --load {}", path.display()));
        }
        (!ways.is_empty()).then(|| format!("Go on with: {}", ways.join(", or ")))
    }
}

/// Why the loop stopped before the end.
enum Stop {
    /// `q`, or `--stop-after`: a clean stop.
    Asked,
    InputEnded,
    RollsRanOut(usize),
}

/// Plays `seated` until the game ends or stops, showing it as `opts` asks.
pub(crate) fn play_on(seated: Seated, opts: &TableArgs, console: &mut Console) -> CmdResult {
    if crate::tui::wanted(opts, console) {
        return crate::tui::play(seated, opts, console);
    }
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
    let hints = (opts.hint && text)
        .then(|| rolls_to_finish(session.game().board(), session.game().rules()));
    let mut view = View::new(out, opts.events.is_some(), opts.json, color, session.game());
    let mut played = 0;
    let mut board_shown = true;
    let mut handed = None;
    let outcome = loop {
        for note in session.take_notes() {
            eprintln!("snl: warning: {note}");
        }
        interrupted.turns.store(session.game().turns(), Ordering::Relaxed);
        let turn_start = !session.game().in_turn();
        let before = session.game().turns();
        let step = match session.awaiting() {
            Awaiting::Over => break Ok(()),
            _ if turn_start && opts.stop_after.is_some_and(|n| played >= n) => {
                break Err(Stop::Asked);
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
                match ask_roll(&mut session, seat, &mut keyboard)? {
                    Some(intent) => session.act(seat, intent),
                    None => break Err(Stop::InputEnded),
                }
            }
            Awaiting::Choice(decision) => {
                match ask_choice(&mut session, &decision, &mut keyboard)? {
                    Some(intent) => session.act(decision.seat, intent),
                    None => break Err(Stop::InputEnded),
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
            Err(SessionError::Dice(RollError::Exhausted { used })) => {
                break Err(Stop::RollsRanOut(used));
            }
            Err(e) => eprintln!("{e}."),
        }
        if let Some(e) = view.take_error() {
            session.stop();
            return Err(Failure::other(e));
        }
        if session.is_stopped() {
            break Err(Stop::Asked);
        }
        let game = session.game();
        if !game.in_turn() && game.turns() > before {
            played += 1;
            if let Some(hints) = &hints
                && game.status() != Status::Finished
            {
                view.raw(&hint_line(game, hints));
            }
        }
    };
    drop(view);
    for note in session.take_notes() {
        eprintln!("snl: warning: {note}");
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
        Err(Stop::RollsRanOut(used)) => {
            session.stop();
            return Err(Failure::stuck(anyhow::anyhow!(
                "the scripted rolls ran out after {used} rolls, before the game ended (turn {stopped_at})"
            )));
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

/// Asks a person to roll: Enter rolls, `q` quits, `a` hands the seat to the computer, `u` and `r`
/// undo and redo. `None` when the input ended.
fn ask_roll(
    session: &mut Session,
    seat: usize,
    keyboard: &mut Keyboard<'_>,
) -> CmdResult<Option<Intent>> {
    let name = session.game().seats()[seat].name.clone();
    let (undo, redo) = session.can_undo_redo();
    loop {
        match (undo, redo) {
            (true, true) => eprintln!("(u to undo, r to redo)"),
            (true, false) => eprintln!("(u to undo)"),
            (false, true) => eprintln!("(r to redo)"),
            (false, false) => {}
        }
        eprint!("{name}, press Enter to roll (q to quit, a for autopilot): ");
        let Some(key) = answer(keyboard)? else { return Ok(None) };
        match key.as_str() {
            "" => return Ok(Some(Intent::Roll)),
            "q" => return Ok(Some(Intent::Quit)),
            "a" => {
                eprintln!("({name} is on autopilot: {})", keyboard.take_back_hint());
                return Ok(Some(Intent::Autopilot { on: true }));
            }
            "u" if undo => return Ok(Some(Intent::Undo)),
            "r" if redo => return Ok(Some(Intent::Redo)),
            "u" => eprintln!("There is nothing to undo."),
            "r" => eprintln!("There is nothing to redo."),
            other => {
                eprintln!("'{other}' is not a key here: Enter rolls, q quits, a is autopilot.");
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
) -> CmdResult<Option<Intent>> {
    let game = session.game();
    let name = game.seats()[decision.seat].name.clone();
    let count = decision.options.len();
    let list: Vec<String> = decision
        .options
        .iter()
        .enumerate()
        .map(|(i, o)| format!("{}) {}", i + 1, describe_option(game, decision, o)))
        .collect();
    eprintln!("{name} rolled {}: {}", roll_words(decision.roll), list.join("  "));
    let (undo, _) = session.can_undo_redo();
    loop {
        let more = if undo { ", u to undo" } else { "" };
        eprint!("{name}, choose 1 to {count} (Enter for 1, a for autopilot{more}, q to quit): ");
        let Some(answer) = answer(keyboard)? else { return Ok(None) };
        match answer.as_str() {
            "" => return Ok(Some(Intent::Choose { option: 0 })),
            "q" => return Ok(Some(Intent::Quit)),
            "u" if undo => return Ok(Some(Intent::Undo)),
            "a" => {
                eprintln!("({name} is on autopilot: {})", keyboard.take_back_hint());
                return Ok(Some(Intent::Autopilot { on: true }));
            }
            other => match other.parse::<usize>() {
                Ok(k) if (1..=count).contains(&k) => {
                    return Ok(Some(Intent::Choose { option: k - 1 }));
                }
                _ => eprintln!("'{other}' is not one of the options."),
            },
        }
    }
}

/// The next answer at a prompt; `None` at the end of input. A line that is not text is bad input.
fn answer(keyboard: &mut Keyboard<'_>) -> CmdResult<Option<String>> {
    match keyboard.line() {
        Line::Text(text) => Ok(Some(text)),
        Line::End => {
            eprintln!();
            Ok(None)
        }
        Line::NotText => {
            eprintln!();
            Err(Failure::bad(anyhow::anyhow!("the answer typed at the prompt is not UTF-8 text")))
        }
    }
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

/// The object `play --json` prints (SPEC §7), plus where the game is kept.
fn result_json(session: &Session, kept: &Kept) -> serde_json::Value {
    let mut value = game_json(session.game(), session.dice().seed());
    value["game_id"] = serde_json::json!(kept.game_id);
    value["save"] = serde_json::json!(kept.save);
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
