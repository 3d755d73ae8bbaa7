//! Drawing the [`App`]: a header line, the board on the left, the players and the log on the
//! right, the keys at the bottom, and an overlay (help, the quit question, the end) on top. It
//! reads the state and never changes it.

mod board;
mod footer;
mod overlay;
pub(crate) mod setup;
mod side;
mod style;

use ratatui::{
    Frame,
    layout::{Alignment, Constraint, Layout, Rect},
    style::{Modifier, Style},
    text::{Line, Span},
    widgets::{Paragraph, Wrap},
};
use snl_session::Awaiting;
use snl_words::{agree, race_status_of};
use unicode_width::UnicodeWidthStr;

use self::style::{app_style, fit, player_style};
use super::{
    app::{App, Mode, Overlay},
    online::Connection,
    replay::Replay,
};

/// The smallest screen drawn; smaller ones are told so.
pub(crate) const MIN_WIDTH: u16 = 64;
pub(crate) const MIN_HEIGHT: u16 = 16;

/// Draws the whole screen.
pub(crate) fn render(frame: &mut Frame<'_>, app: &App) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        too_small(frame, area);
        return;
    }
    let [header, middle, footer_area] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0), Constraint::Length(1)])
            .areas(area);
    let game = app.session.game();
    let layout = game.board().layout();
    let wanted = layout.width() as u16 * 8 + 2;
    let side_width = area.width.saturating_sub(wanted).clamp(28, 48);
    let [board_area, side_area] =
        Layout::horizontal([Constraint::Min(0), Constraint::Length(side_width)]).areas(middle);
    header_line(frame, header, app);
    board::render(frame, board_area, app);
    side::render(frame, side_area, app);
    footer::render(frame, footer_area, app);
    match app.overlay {
        Overlay::Help => overlay::help(frame, area, app),
        Overlay::Dice => overlay::dice(frame, area, app),
        Overlay::ConfirmQuit => overlay::confirm_quit(frame, board_area, app),
        Overlay::None if app.stop.is_none() && !app.animating() => {
            if matches!(app.session.awaiting(), Awaiting::Over) {
                overlay::the_end(frame, board_area, app);
            }
        }
        Overlay::None => {}
    }
}

fn too_small(frame: &mut Frame<'_>, area: Rect) {
    let text = format!(
        "This terminal is {}×{}; the game needs at least {MIN_WIDTH}×{MIN_HEIGHT}. \
         Make the window larger (q leaves, the game is kept), or play with --plain.",
        area.width, area.height
    );
    let top = area.height / 2;
    let rect = Rect { y: area.y + top.saturating_sub(1), height: area.height - top + 1, ..area };
    frame.render_widget(
        Paragraph::new(text).alignment(Alignment::Center).wrap(Wrap { trim: true }),
        rect,
    );
}

/// "Turn 12 · Ann to roll" on the left (in a replay: which game, the turn shown of how many,
/// playing or paused and the speed), the die on the right.
fn header_line(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let left = match app.mode.replay() {
        Some(replay) => replay_header(app, replay),
        None => live_header(app),
    };
    let die = match &app.die {
        Some(faces) => {
            let faces: Vec<String> = faces.iter().map(u8::to_string).collect();
            format!("die [ {} ] ", faces.join(" + "))
        }
        None => "die [ · ] ".to_owned(),
    };
    let die_width = die.width() as u16;
    // A replay's header is longer: the die only where it does not cover it.
    let fits = match app.mode.replay() {
        Some(_) => area.width > left.width() as u16 + die_width,
        None => area.width > die_width + 40,
    };
    frame.render_widget(Paragraph::new(left), area);
    if fits {
        let rect = Rect { x: area.right() - die_width, width: die_width, ..area };
        frame.render_widget(Paragraph::new(Span::styled(die, Style::new().bold())), rect);
    }
}

/// "classic · game 7 · turn 12 of 40 · paused 1×".
fn replay_header(app: &App, replay: &Replay) -> Line<'static> {
    let game = app.session.game();
    let turn = if game.in_turn() {
        format!("turn {} in flight", game.turns())
    } else {
        format!("turn {} of {}", game.turns(), replay.recording.turns())
    };
    let state = if replay.typed.is_empty() {
        let doing = if replay.playing { "▶ playing" } else { "paused" };
        format!("{doing} {}", replay.speed_words())
    } else {
        format!("go to turn {}_", replay.typed)
    };
    Line::from(vec![
        Span::styled(" snl ", app_style(app).add_modifier(Modifier::REVERSED | Modifier::BOLD)),
        Span::raw(format!(
            " {} · {}{} · {turn} · ",
            fit(app.session.board_name(), 16),
            fit(&replay.title, 18),
            race_words(app)
        )),
        Span::styled(state, Style::new().add_modifier(Modifier::BOLD)),
    ])
}

/// " · race · round 2 of 5" (" · race over" at its end) in a race's header; nothing in a
/// classic game's.
fn race_words(app: &App) -> String {
    race_status_of(app.session.game()).map_or_else(String::new, |race| format!(" · {race}"))
}

/// "classic · turn 12 · Ann to roll" ("classic · race · round 2 of 5 · turn 12 · …" in a race).
fn live_header(app: &App) -> Line<'static> {
    let game = app.session.game();
    let seats = game.seats();
    let who = |seat: usize| seats[seat].name.as_str();
    let connection = app.mode.room().map(|o| &o.connection);
    let doing = match app.session.awaiting() {
        _ if connection == Some(&Connection::Reconnecting) => "reconnecting…".to_owned(),
        _ if matches!(connection, Some(Connection::Closed(_))) => "disconnected".to_owned(),
        _ if app.animating() => agree(who(game.current()), "is moving", "are moving"),
        Awaiting::Roll { seat } => format!("{} to roll", who(seat)),
        Awaiting::Choice(d) => format!("{} to choose", who(d.seat)),
        Awaiting::Computer { seat } if app.session.on_autopilot(seat) => {
            format!("{} on autopilot", who(seat))
        }
        Awaiting::Computer { seat } => agree(who(seat), "is playing", "are playing"),
        Awaiting::Over if app.session.is_stopped() => "stopped".to_owned(),
        Awaiting::Over => "game over".to_owned(),
    };
    let focus = app.focus();
    // The turn being played; once the game is over, the last one played.
    let over = matches!(app.session.awaiting(), Awaiting::Over);
    let turn = if over || game.in_turn() { game.turns().max(1) } else { game.turns() + 1 };
    let where_ = match app.mode {
        Mode::Seat { .. } => " · online",
        Mode::Spectator { .. } => " · watching",
        Mode::Local { .. } | Mode::Replay(_) => "",
    };
    Line::from(vec![
        Span::styled(" snl ", app_style(app).add_modifier(Modifier::REVERSED | Modifier::BOLD)),
        Span::raw(format!(
            " {}{where_}{} · turn {} · ",
            app.session.board_name(),
            race_words(app),
            turn
        )),
        Span::styled(doing, player_style(app, focus).add_modifier(Modifier::BOLD)),
    ])
}
