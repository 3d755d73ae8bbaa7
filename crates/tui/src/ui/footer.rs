//! The bottom line: the keys that do something now (in a game, or in the replay viewer).

use ratatui::{
    Frame,
    layout::Rect,
    style::{Modifier, Style},
    text::{Line, Span},
    widgets::Paragraph,
};
use snl_session::Awaiting;

use unicode_width::UnicodeWidthStr;

use crate::{
    app::{App, Mode, Overlay},
    online::Online,
    replay::Replay,
};

pub(super) fn render(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let mut keys = match &app.mode {
        Mode::Replay(replay) => replay_keys(app, replay, area.width),
        Mode::Seat { room, seat } => online_keys(app, room, Some(*seat)),
        Mode::Spectator { room } => online_keys(app, room, None),
        Mode::Local { .. } => live_keys(app),
    };
    // Where the keys do not all fit, the dice panel's is left to the help.
    if used(&keys) > usize::from(area.width) {
        keys.retain(|(k, _)| *k != "d");
    }
    let mut spans = vec![Span::raw(" ")];
    if let Some(line) = app.mode.room().and_then(|room| room.chat.as_deref()) {
        // The end of the line typed, as much as leaves room for its two keys.
        let room = usize::from(area.width).saturating_sub(36);
        let skip = line.chars().count().saturating_sub(room);
        let shown: String = line.chars().skip(skip).collect();
        spans.push(Span::styled("Say: ", Style::new().add_modifier(Modifier::BOLD)));
        spans.push(Span::raw(format!("{shown}▏ ")));
    }
    for (key, what) in keys {
        spans.push(Span::styled(format!(" {key} "), Style::new().add_modifier(Modifier::REVERSED)));
        spans.push(Span::raw(format!(" {what}  ")));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The columns `keys` take on the line.
fn used(keys: &[(&str, String)]) -> usize {
    1 + keys.iter().map(|(k, w)| k.width() + w.width() + 4).sum::<usize>()
}

/// The replay viewer's keys; where they do not all fit, Home and End are left to the help.
fn replay_keys(app: &App, replay: &Replay, width: u16) -> Vec<(&'static str, String)> {
    let mut keys: Vec<(&str, String)> = Vec::new();
    if app.overlay == Overlay::Help {
        keys.push(("any key", "back to the replay".to_owned()));
        return keys;
    }
    if !replay.typed.is_empty() {
        keys.push(("0-9", format!("turn {}", replay.typed)));
        keys.push(("Enter", "go there".to_owned()));
        keys.push(("Esc", "never mind".to_owned()));
        return keys;
    }
    let play = if replay.playing { "pause" } else { "play" };
    keys.push(("Space", play.to_owned()));
    keys.push(("← →", "step".to_owned()));
    keys.push(("0-9", "turn".to_owned()));
    keys.push(("+ -", "speed".to_owned()));
    keys.push(("Home End", "ends".to_owned()));
    keys.push(("?", "help".to_owned()));
    keys.push(("q", "quit".to_owned()));
    if used(&keys) > usize::from(width) {
        keys.retain(|(k, _)| *k != "Home End");
    }
    keys
}

fn live_keys(app: &App) -> Vec<(&'static str, String)> {
    let (undo, redo) = app.session.can_undo_redo();
    let mut keys: Vec<(&str, String)> = Vec::new();
    match (app.overlay, app.session.awaiting()) {
        (Overlay::Help | Overlay::Dice, _) => {
            keys.push(("any key", "back to the game".to_owned()));
        }
        (Overlay::ConfirmQuit, _) => {
            keys.push(("y", "leave".to_owned()));
            keys.push(("n", "stay".to_owned()));
        }
        (_, Awaiting::Over) => keys.push(("q Enter", "leave".to_owned())),
        (_, awaiting) => {
            match &awaiting {
                Awaiting::Roll { .. } => keys.push(("Space", "roll".to_owned())),
                Awaiting::Choice(d) => {
                    keys.push(("digit", format!("choose 1-{}", d.options.len())));
                }
                _ => {}
            }
            if undo {
                keys.push(("u", "undo".to_owned()));
            }
            if redo {
                keys.push(("r", "redo".to_owned()));
            }
            let autopilot = match awaiting {
                Awaiting::Computer { seat } if app.session.on_autopilot(seat) => "take back",
                _ => "autopilot",
            };
            if app.person().is_some() {
                keys.push(("a", autopilot.to_owned()));
            }
            keys.push(("s", "save".to_owned()));
        }
    }
    if app.overlay == Overlay::None {
        keys.push(("d", "dice".to_owned()));
        keys.push(("?", "help".to_owned()));
        if !matches!(app.session.awaiting(), Awaiting::Over) {
            keys.push(("q", "quit".to_owned()));
        }
    }
    keys
}

/// Online: the seat's keys when it is awaited (a watcher has none), autopilot, help and quit.
fn online_keys(app: &App, online: &Online, me: Option<usize>) -> Vec<(&'static str, String)> {
    let mut keys: Vec<(&str, String)> = Vec::new();
    if online.chat.is_some() {
        keys.push(("Enter", "send".to_owned()));
        keys.push(("Esc", "never mind".to_owned()));
        return keys;
    }
    let awaiting = app.session.awaiting();
    match (app.overlay, &awaiting) {
        (Overlay::Help | Overlay::Dice, _) => {
            keys.push(("any key", "back to the game".to_owned()));
        }
        (Overlay::ConfirmQuit, _) => {
            keys.push(("y", "leave".to_owned()));
            keys.push(("n", "stay".to_owned()));
        }
        (_, Awaiting::Over) => keys.push(("q Enter", "leave".to_owned())),
        (_, awaiting) => {
            let mine = |seat: usize| me == Some(seat);
            match awaiting {
                Awaiting::Roll { seat } if mine(*seat) => keys.push(("Space", "roll".to_owned())),
                Awaiting::Choice(d) if mine(d.seat) => {
                    keys.push(("digit", format!("choose 1-{}", d.options.len())));
                }
                _ => {}
            }
            if let Some(me) = me {
                let what = if online.autopilot[me] { "take back" } else { "autopilot" };
                keys.push(("a", what.to_owned()));
                keys.push(("c", "chat".to_owned()));
            }
        }
    }
    if app.overlay == Overlay::None {
        keys.push(("?", "help".to_owned()));
        if !matches!(awaiting, Awaiting::Over) {
            keys.push(("q", "quit".to_owned()));
        }
    }
    keys
}
