//! The bottom line: the keys that do something now.

use ratatui::{
    Frame,
    layout::Rect,
    style::{Modifier, Style},
    text::{Line, Span},
    widgets::Paragraph,
};
use snl_session::Awaiting;

use crate::tui::app::{App, Overlay};

pub(super) fn render(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let (undo, redo) = app.session.can_undo_redo();
    let mut keys: Vec<(&str, String)> = Vec::new();
    match (app.overlay, app.session.awaiting()) {
        (Overlay::Help, _) => keys.push(("any key", "back to the game".to_owned())),
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
        keys.push(("?", "help".to_owned()));
        if !matches!(app.session.awaiting(), Awaiting::Over) {
            keys.push(("q", "quit".to_owned()));
        }
    }
    let mut spans = vec![Span::raw(" ")];
    for (key, what) in keys {
        spans.push(Span::styled(format!(" {key} "), Style::new().add_modifier(Modifier::REVERSED)));
        spans.push(Span::raw(format!(" {what}  ")));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
