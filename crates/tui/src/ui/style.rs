//! The screen's colours and text measures: each seat's colour, tints that vanish without colour,
//! and text cut or wrapped to a width in columns.

use ratatui::style::{Color, Style};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use snl_words::Hue;

use crate::app::App;

/// The players' colours, in seating order (then again).
const PALETTE: [Color; 8] = [
    Color::Yellow,
    Color::Cyan,
    Color::Magenta,
    Color::LightBlue,
    Color::White,
    Color::LightRed,
    Color::LightGreen,
    Color::Blue,
];

pub(super) fn app_style(app: &App) -> Style {
    if app.opts.color { Style::new().fg(Color::Green) } else { Style::new() }
}

/// A seat's colour (none without colour).
pub(super) fn player_style(app: &App, seat: usize) -> Style {
    if app.opts.color { Style::new().fg(PALETTE[seat % PALETTE.len()]) } else { Style::new() }
}

/// `fg` when colours are on.
pub(super) fn tint(app: &App, fg: Color) -> Style {
    if app.opts.color { Style::new().fg(fg) } else { Style::new() }
}

/// The style of a picture's hue (`snl_words::Hue`): its colour, or plain without colours.
pub(super) fn hue_style(app: &App, hue: Hue) -> Style {
    let colour = match hue {
        Hue::Red => Color::Red,
        Hue::Green => Color::Green,
        Hue::Yellow => Color::Yellow,
        Hue::Cyan => Color::Cyan,
        Hue::Blue => Color::LightBlue,
        Hue::Magenta => Color::Magenta,
        Hue::Plain => return Style::new(),
    };
    tint(app, colour)
}

/// `text` cut to `width` columns (wide characters count two), with `…` when cut.
pub(super) fn fit(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_owned();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// `text` broken into lines of at most `width` columns, at spaces where it can.
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    wrap_hanging(text, width, 0)
}

/// [`wrap`] with the lines after the first `indent` columns narrower, so that they fit in
/// `width` once indented: no character is lost at the edge.
pub(super) fn wrap_hanging(text: &str, width: usize, indent: usize) -> Vec<String> {
    let first = width.max(1);
    let rest = width.saturating_sub(indent).max(1);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let room = |lines: &Vec<String>| if lines.is_empty() { first } else { rest };
    for word in text.split(' ') {
        let sep = usize::from(!line.is_empty());
        if line.width() + sep + word.width() <= room(&lines) {
            if sep == 1 {
                line.push(' ');
            }
            line.push_str(word);
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        // A word longer than a line is cut.
        for c in word.chars() {
            if line.width() + c.width().unwrap_or(0) > room(&lines) {
                lines.push(std::mem::take(&mut line));
            }
            line.push(c);
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}
