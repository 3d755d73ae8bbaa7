//! How an [`Action`] changes the [`App`]: intents go to the session, its events become beats,
//! ticks play the beats and the computers' turns. No terminal here, so scripted games run in tests.

use snl_engine::Numbered;
use snl_session::{Awaiting, Intent, SaveFile, SessionError};
use snl_words::agree;

pub(crate) mod room;
mod viewer;

use crate::{
    action::{Action, GameAction, ViewAction},
    app::{App, Overlay, Stop, TURN_PAUSE_TICKS},
};

/// Applies `action` to `app`.
pub(crate) fn update(app: &mut App, action: Action) {
    apply(app, action);
    app.refresh_chances();
    app.refresh_awards();
}

fn apply(app: &mut App, action: Action) {
    match action {
        Action::Tick if app.mode.replay().is_some() => viewer::tick(app),
        // Online, the server plays the computers: time only plays the animation.
        Action::Tick if app.mode.room().is_some() => room::tick(app),
        Action::Tick => tick(app),
        Action::Game(game) if app.mode.room().is_some() => room::key(app, game),
        Action::Game(game) => play(app, game),
        Action::View(view) => look(app, view),
        Action::Replay(control) => viewer::apply(app, control),
        Action::Chat(key) => room::chat(app, key),
        Action::Leave => leave(app),
        Action::NextGame => {
            if let Some(room) = app.mode.room_mut() {
                room.next.get_or_insert(crate::online::Next::Asked);
            }
            app.stop = Some(Stop::Over);
        }
        Action::Interrupt => {
            leave(app);
            // A game left part way is interrupted; an ended game or a replay just ends.
            if app.stop == Some(Stop::Asked) {
                app.stop = Some(Stop::Interrupted);
            }
        }
        Action::Unknown(c) => app.note(&format!("'{c}' is not a key here: ? shows the keys.")),
    }
}

/// A change of view: the overlay, the board's scroll; the game stays as it is.
fn look(app: &mut App, view: ViewAction) {
    match view {
        ViewAction::Resize => {}
        ViewAction::Help => {
            app.overlay = if app.overlay == Overlay::Help { Overlay::None } else { Overlay::Help };
        }
        ViewAction::Dice if app.overlay == Overlay::Dice => app.overlay = Overlay::None,
        ViewAction::Dice => {
            app.dice_history = Some(crate::dice::history(app));
            app.overlay = Overlay::Dice;
        }
        ViewAction::Quit => app.overlay = Overlay::ConfirmQuit,
        ViewAction::Stay => app.overlay = Overlay::None,
        // The drawing clamps the view to the board.
        ViewAction::Scroll(rows) => {
            app.scroll = app.scroll.saturating_add(rows).clamp(-10_000, 10_000);
        }
        ViewAction::Follow => app.scroll = 0,
    }
}

/// A move of the person at the keyboard in the game played here.
fn play(app: &mut App, action: GameAction) {
    match action {
        GameAction::Roll => match app.session.awaiting() {
            Awaiting::Roll { seat } => act(app, seat, Intent::Roll),
            Awaiting::Choice(d) => act(app, d.seat, Intent::Choose { option: 0 }),
            Awaiting::Computer { seat } => {
                let name = app.session.game().seats()[seat].name.clone();
                let played = agree(&name, "is played", "are played");
                app.note(&format!("{played} by the computer: wait, or press a."));
            }
            Awaiting::Over => {}
        },
        GameAction::Choose(option) => match app.session.awaiting() {
            Awaiting::Choice(d) if option < d.options.len() => {
                act(app, d.seat, Intent::Choose { option });
            }
            Awaiting::Choice(d) => {
                app.note(&format!(
                    "{} is not one of the options: 1 to {}.",
                    option + 1,
                    d.options.len()
                ));
            }
            _ => app.note("There is nothing to choose now: Space rolls."),
        },
        GameAction::Undo | GameAction::Redo => {
            let undo = action == GameAction::Undo;
            let (can_undo, can_redo) = app.session.can_undo_redo();
            match app.person() {
                Some(seat) if (undo && can_undo) || (!undo && can_redo) => {
                    let intent = if undo { Intent::Undo } else { Intent::Redo };
                    act(app, seat, intent);
                }
                _ if undo => app.note("There is nothing to undo."),
                _ => app.note("There is nothing to redo."),
            }
        }
        GameAction::Autopilot => autopilot(app),
        GameAction::Save => save(app),
    }
}

/// Time passes: a clock that ran out plays its expiry, else one beat of the animation, else the
/// pause after a turn, else a computer's input.
fn tick(app: &mut App) {
    if app.stop.is_some() {
        return;
    }
    let expired = app.mode.clocks_mut().and_then(|clocks| {
        clocks.clock().waited();
        clocks.due(&app.session)
    });
    if let Some(expiry) = expired {
        app.finish_beats();
        app.wait = 0;
        let step = app.mode.clocks_mut().map(|clocks| clocks.fire(&mut app.session, expiry));
        if let Some(step) = step {
            take(app, step);
        }
        return;
    }
    if app.animating() {
        app.next_beat();
        return;
    }
    if app.wait > 0 {
        app.wait -= 1;
        return;
    }
    // Without animation, computers play until a person is awaited (bounded, to keep drawing).
    let inputs = if app.opts.fast { 10_000 } else { 1 };
    for _ in 0..inputs {
        if app.stop.is_some() || !matches!(app.session.awaiting(), Awaiting::Computer { .. }) {
            break;
        }
        let turns = app.session.game().turns();
        let step = app.session.play_computer();
        take(app, step);
        if app.session.game().turns() > turns && !app.opts.fast {
            app.wait = TURN_PAUSE_TICKS;
        }
    }
}

/// A person's intent; the animation in flight ends first.
fn act(app: &mut App, seat: usize, intent: Intent) {
    app.finish_beats();
    app.wait = 0;
    let step = app.session.act(seat, intent);
    take(app, step);
}

/// The outcome of one step: events to show, or why it was refused.
fn take(app: &mut App, step: Result<Vec<Numbered<usize>>, SessionError>) {
    match step {
        Ok(events) => app.take(&events),
        // Dice that cannot give what the game awaits would refuse again at every tick.
        Err(SessionError::Dice(e)) => {
            app.finish_beats();
            app.session.stop();
            app.stop = Some(Stop::Dice(e));
        }
        Err(e) => app.note(&format!("{}.", capitalised(&e.to_string()))),
    }
    for note in app.session.take_notes() {
        app.note(&format!("Warning: {note}."));
    }
    let game = app.session.game();
    let ended = !game.in_turn() && game.turns() > app.turns_at_end;
    if !game.in_turn() {
        // After an undo the count goes down: the next turn ending is counted from there.
        app.turns_at_end = game.turns();
    }
    if ended {
        app.played += 1;
        if app.opts.stop_after.is_some_and(|n| app.played >= n)
            && game.status() != snl_engine::Status::Finished
        {
            app.finish_beats();
            app.session.stop();
            app.stop = Some(Stop::Asked);
        }
    }
}

/// Leaves the screen: the game is kept when it is not over.
fn leave(app: &mut App) {
    app.finish_beats();
    app.overlay = Overlay::None;
    // A replay keeps nothing: it just ends.
    let over = matches!(app.session.awaiting(), Awaiting::Over) && !app.session.is_stopped();
    if app.mode.replay().is_some() || over {
        app.stop = Some(Stop::Over);
    } else {
        app.session.stop();
        app.stop = Some(Stop::Asked);
    }
}

/// `a`: the awaited person hands the seat to the computer; a seat on autopilot is taken back.
fn autopilot(app: &mut App) {
    let seats = app.session.game().seats();
    let on_autopilot = (0..seats.len()).find(|&s| app.session.on_autopilot(s));
    match (app.session.awaiting(), on_autopilot) {
        (Awaiting::Roll { seat }, _) => {
            app.handed = Some(seat);
            act(app, seat, Intent::Autopilot { on: true });
        }
        (Awaiting::Choice(d), _) => {
            app.handed = Some(d.seat);
            act(app, d.seat, Intent::Autopilot { on: true });
        }
        (_, Some(_)) => {
            let seat = app.handed.filter(|&s| app.session.on_autopilot(s)).or(on_autopilot);
            if let Some(seat) = seat {
                act(app, seat, Intent::Autopilot { on: false });
            }
        }
        _ => app.note("Autopilot is for people's seats: wait for your turn, then press a."),
    }
}

/// `s`: writes the game where it stands: to `--save`, else to a file named after the game.
fn save(app: &mut App) {
    let path = app.opts.save.clone().or_else(|| app.saved_to.clone()).unwrap_or_else(|| {
        let name = match (app.kept.game_id, app.session.dice().seed()) {
            (Some(id), _) => format!("snl-game-{id}.json"),
            (None, Some(seed)) => format!("snl-seed-{seed}.json"),
            (None, None) => "snl-game.json".to_owned(),
        };
        name.into()
    });
    let session = &app.session;
    match SaveFile::start(&path, &session.save()) {
        Ok(_) => {
            if app.opts.save.is_none() {
                app.saved_to = Some(path.clone());
            }
            app.note(&format!(
                "Saved to {}: go on later with snl play --load {}.",
                path.display(),
                path.display()
            ));
        }
        Err(e) => app.note(&format!("Could not save to {}: {e}.", path.display())),
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}
