//! The loops of the full screen: draw, ring, wait for a key or the next tick, update; online,
//! the room's messages come in and the intents go out between. The screen is restored when a
//! loop returns, whatever happened.

use std::{
    io,
    time::{Duration, Instant},
};

use crossterm::event;
use snl_wire::rooms::RoomState;

use crate::{
    action::{self, Action},
    app::{App, Options, TICK},
    client::{self, RoomClient, RoomUrl, Update},
    log::Tone,
    online::{Connection, Online},
    terminal::Screen,
    ui,
    update::{self, room},
};

/// The loop of a game played here or of a replay: draw, ring, wait for a key or the next tick,
/// update.
pub(crate) fn run(app: &mut App) -> io::Result<()> {
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

/// How the full screen ended.
pub(crate) struct Ended {
    /// Whether the game was over when the screen closed.
    pub(crate) over: bool,
    /// The sentences of the end (the winner and the ranking) once it was.
    pub(crate) result: Vec<String>,
    /// Why the connection ended for good, if it did.
    pub(crate) closed: Option<String>,
    /// The series' next game, asked for or opened while the screen was up.
    pub(crate) next: Option<crate::online::Next>,
}

/// Plays (or watches) the room on the full screen until the game ends and the person leaves,
/// or leaves before; `state` is the welcome's.
///
/// # Errors
///
/// The terminal failed.
pub(crate) fn run_room(
    client: &RoomClient,
    url: &RoomUrl,
    me: Option<usize>,
    state: &RoomState,
    opts: Options,
) -> Result<Ended, String> {
    let online = Online::new(&url.to_string(), state)?;
    let mut app = room::app(online, me, opts);
    if let Some(online) = app.mode.room_mut() {
        online.caught_up_to = state.seq;
    }
    room_loop(client, &mut app).map_err(|e| format!("the terminal was lost: {e}"))?;
    // Leaving stops the screen's session: the game's own status says whether it ended.
    let over = app.session.game().status() == snl_engine::Status::Finished;
    let result = if over {
        let tail: Vec<String> = app
            .log
            .iter()
            .rev()
            .take_while(|s| s.tone == Tone::Win)
            .map(|s| s.text.clone())
            .collect();
        tail.into_iter().rev().collect()
    } else {
        Vec::new()
    };
    let closed = app.mode.room().and_then(|o| match &o.connection {
        Connection::Closed(why) => Some(why.clone()),
        _ => None,
    });
    let next = app.mode.room_mut().and_then(|o| o.next.take());
    Ok(Ended { over, result, closed, next })
}

/// The loop: take the room's messages, send the intents, draw, ring, wait for a key or the
/// next tick, update. The screen is restored when it returns.
fn room_loop(client: &RoomClient, app: &mut App) -> io::Result<()> {
    let mut screen = Screen::enter()?;
    let mut next_tick = Instant::now() + TICK;
    while app.stop.is_none() {
        // The room's messages wait while a move is animated, so that each is seen in turn.
        while !app.animating() && app.stop.is_none() {
            match client.next_within(Duration::ZERO) {
                Ok(Some(update)) => room::receive(app, update),
                Ok(None) => break,
                Err(client::Ended) => {
                    room::receive(app, Update::Closed("the connection's thread ended".into()));
                    break;
                }
            }
        }
        if let Some(online) = app.mode.room_mut() {
            for frame in online.outbox.drain(..) {
                client.send(frame);
            }
        }
        if app.stop.is_some() {
            break;
        }
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
    // The intents of the last keys still go.
    if let Some(online) = app.mode.room_mut() {
        for frame in online.outbox.drain(..) {
            client.send(frame);
        }
    }
    drop(screen);
    Ok(())
}
