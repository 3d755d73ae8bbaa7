//! What a key means: terminal events become [`Action`]s, depending on what the screen shows (an
//! overlay, a choice, the end). Keys are read nowhere else.

use crossterm::event::{Event as TermEvent, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::{
    app::{App, Overlay},
    replay::Control,
};

/// Everything that can happen to the screen: time, a move in the game, a change of view, a key
/// of the replay viewer, leaving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Action {
    /// Time passes (~60 ms): the animation steps, computers play.
    Tick,
    /// A move in the game: played in the session, or asked of the room online.
    Game(GameAction),
    /// What the screen shows; the game stays as it is.
    View(ViewAction),
    /// A key of the replay viewer.
    Replay(Control),
    /// A key of the chat line of a seat held online (`c` opens it).
    Chat(ChatKey),
    /// Leave now, keeping the game (Ctrl-D, or `y` at the question).
    Leave,
    /// At the end of a game of a series online: go on to the series' next game.
    NextGame,
    /// Ctrl-C: leave now, keeping the game, and end as an interrupt does (SPEC §7: 130).
    Interrupt,
    /// A key that means nothing here.
    Unknown(char),
}

/// A move in the game, by the person at the keyboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GameAction {
    Roll,
    /// Take option `0`-based.
    Choose(usize),
    Undo,
    Redo,
    /// Hand the seat to the computer, or take it back.
    Autopilot,
    Save,
}

/// A key of the chat line: it opens, takes a character, rubs one out, is sent or dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ChatKey {
    Open,
    Type(char),
    RubOut,
    Send,
    Cancel,
}

/// A change of what the screen shows, which leaves the game as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ViewAction {
    /// The terminal changed size: draw again.
    Resize,
    /// Show or hide the help.
    Help,
    /// Show or hide the dice panel.
    Dice,
    /// Ask to leave (`q`).
    Quit,
    /// Stay (`n` at the question, Esc).
    Stay,
    /// Scroll the board by rows (negative: up).
    Scroll(i32),
    /// Follow the current player again.
    Follow,
}

/// The action of one terminal event, if any.
pub(crate) fn from_event(event: &TermEvent, app: &App) -> Option<Action> {
    match event {
        TermEvent::Key(key) if key.kind != KeyEventKind::Release => from_key(*key, app),
        TermEvent::Resize(..) => Some(Action::View(ViewAction::Resize)),
        _ => None,
    }
}

/// The action of one key press.
pub(crate) fn from_key(key: KeyEvent, app: &App) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    if ctrl && key.code == KeyCode::Char('c') {
        return Some(Action::Interrupt);
    }
    if ctrl && key.code == KeyCode::Char('d') {
        return Some(Action::Leave);
    }
    match app.overlay {
        Overlay::ConfirmQuit => {
            return Some(match key.code {
                KeyCode::Char('y' | 'Y' | 'q') | KeyCode::Enter => Action::Leave,
                _ => Action::View(ViewAction::Stay),
            });
        }
        Overlay::Help => return Some(Action::View(ViewAction::Help)),
        Overlay::Dice => return Some(Action::View(ViewAction::Dice)),
        Overlay::None => {}
    }
    if let Some(room) = app.mode.room() {
        // While a chat line is open every key is its own; `c` opens it at a seat held.
        if room.chat.is_some() {
            return chat_key(key.code);
        }
        if key.code == KeyCode::Char('c') && app.mode.seat().is_some() {
            return Some(Action::Chat(ChatKey::Open));
        }
    }
    if let Some(replay) = app.mode.replay() {
        return replay_key(key.code, !replay.typed.is_empty());
    }
    if app.stop.is_none() && matches!(app.session.awaiting(), snl_session::Awaiting::Over) {
        // The end: any of these leaves; nothing else is left to do. Online the end comes from
        // the server, maybe just after a Space meant to roll: Space does not leave there.
        return match key.code {
            KeyCode::Char(' ') if app.mode.room().is_some() => None,
            // A game of a series not yet decided: `n` goes on to the next one.
            KeyCode::Char('n')
                if app.mode.room().and_then(|r| r.series.as_ref()).is_some_and(|s| !s.decided) =>
            {
                Some(Action::NextGame)
            }
            KeyCode::Char('q' | ' ') | KeyCode::Enter | KeyCode::Esc => Some(Action::Leave),
            KeyCode::Char('?') => Some(Action::View(ViewAction::Help)),
            KeyCode::Char('d') => Some(Action::View(ViewAction::Dice)),
            _ => scroll(key.code),
        };
    }
    match key.code {
        KeyCode::Char(' ') | KeyCode::Enter => Some(Action::Game(GameAction::Roll)),
        KeyCode::Char(c @ '1'..='9') => {
            Some(Action::Game(GameAction::Choose(c as usize - '1' as usize)))
        }
        KeyCode::Char('u') => Some(Action::Game(GameAction::Undo)),
        KeyCode::Char('r') => Some(Action::Game(GameAction::Redo)),
        KeyCode::Char('a') => Some(Action::Game(GameAction::Autopilot)),
        KeyCode::Char('s') => Some(Action::Game(GameAction::Save)),
        KeyCode::Char('?' | 'h') | KeyCode::F(1) => Some(Action::View(ViewAction::Help)),
        KeyCode::Char('d') => Some(Action::View(ViewAction::Dice)),
        KeyCode::Char('q') | KeyCode::Esc => Some(Action::View(ViewAction::Quit)),
        KeyCode::Char('f') => Some(Action::View(ViewAction::Follow)),
        KeyCode::Char(c) => Some(Action::Unknown(c)),
        code => scroll(code),
    }
}

/// A key of the replay viewer; `typing`: a turn number is being typed.
fn replay_key(code: KeyCode, typing: bool) -> Option<Action> {
    if code == KeyCode::Char('d') {
        return Some(Action::View(ViewAction::Dice));
    }
    let control = match code {
        KeyCode::Char(c @ '0'..='9') => Control::Digit(c as u8 - b'0'),
        KeyCode::Backspace if typing => Control::RubOut,
        KeyCode::Enter if typing => Control::GoTo,
        KeyCode::Esc if typing => Control::Cancel,
        KeyCode::Char(' ' | 'p') | KeyCode::Enter => Control::PlayPause,
        KeyCode::Right | KeyCode::Char('.') => Control::Step(1),
        KeyCode::Left | KeyCode::Char(',') => Control::Step(-1),
        KeyCode::Char(']') => Control::Step(10),
        KeyCode::Char('[') => Control::Step(-10),
        KeyCode::Home | KeyCode::Char('g') => Control::Start,
        KeyCode::End | KeyCode::Char('G') => Control::End,
        KeyCode::Char('+' | '=') => Control::Faster,
        KeyCode::Char('-' | '_') => Control::Slower,
        KeyCode::Char('?' | 'h') | KeyCode::F(1) => return Some(Action::View(ViewAction::Help)),
        // Nothing is lost by leaving a replay: no question.
        KeyCode::Char('q') | KeyCode::Esc => return Some(Action::Leave),
        KeyCode::Char('f') => return Some(Action::View(ViewAction::Follow)),
        KeyCode::Char(c) => return Some(Action::Unknown(c)),
        code => return scroll(code),
    };
    Some(Action::Replay(control))
}

/// A key while the chat line is open.
fn chat_key(code: KeyCode) -> Option<Action> {
    let key = match code {
        KeyCode::Enter => ChatKey::Send,
        KeyCode::Esc => ChatKey::Cancel,
        KeyCode::Backspace => ChatKey::RubOut,
        KeyCode::Char(c) if !c.is_control() => ChatKey::Type(c),
        _ => return None,
    };
    Some(Action::Chat(key))
}

fn scroll(code: KeyCode) -> Option<Action> {
    match code {
        KeyCode::Up => Some(Action::View(ViewAction::Scroll(-1))),
        KeyCode::Down => Some(Action::View(ViewAction::Scroll(1))),
        KeyCode::PageUp => Some(Action::View(ViewAction::Scroll(-5))),
        KeyCode::PageDown => Some(Action::View(ViewAction::Scroll(5))),
        KeyCode::Home => Some(Action::View(ViewAction::Follow)),
        _ => None,
    }
}
