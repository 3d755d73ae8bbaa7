//! The setup form, drawn.

use ratatui::{
    Frame,
    layout::Rect,
    style::{Modifier, Style},
    text::{Line, Span},
    widgets::{Block, Paragraph},
};

use unicode_width::UnicodeWidthStr;

use super::style::fit;
use crate::setup::{Field, Form};

/// Draws `form` in the middle of the screen.
pub(crate) fn render(frame: &mut Frame<'_>, form: &Form) {
    let area = frame.area();
    let width = area.width.min(64);
    let fields = form.fields();
    // The fields, a blank line, the seats, a blank line, the keys, the border, one spare.
    let height = (fields.len() as u16 + 6).min(area.height);
    let rect = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    };
    let chosen = |field: Field| {
        if form.field == field {
            Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
        } else {
            Style::new()
        }
    };
    let pointer = |field: Field| if form.field == field { "▶ " } else { "  " };
    let choice = |field: Field, label: &str, value: String| {
        Line::from(vec![
            Span::raw(pointer(field)),
            Span::raw(format!("{label:<10}")),
            Span::styled(format!("◀ {value} ▶"), chosen(field)),
        ])
    };
    let seconds = |time: Option<u64>| match time {
        None => "off".to_owned(),
        Some(s) if s % 60 == 0 => format!("{} min", s / 60),
        Some(s) => format!("{s} s"),
    };
    let mut lines = Vec::new();
    for &field in &fields {
        let line = match field {
            Field::Board => choice(field, "Board", form.board_name().to_owned()),
            Field::Size => choice(field, "Size", format!("{} cells", form.size())),
            Field::Effects => choice(field, "Effects", form.effects.to_string()),
            Field::Seed => {
                let typing = form.field == field;
                let seed = match (form.seed.is_empty(), typing) {
                    (true, false) => "new each game".to_owned(),
                    (true, true) => "▏ type digits, or a new one each game".to_owned(),
                    (false, _) => format!("{}{}", form.seed, if typing { "▏" } else { "" }),
                };
                Line::from(vec![
                    Span::raw(pointer(field)),
                    Span::raw(format!("{:<10}", "Seed")),
                    Span::styled(seed, chosen(field)),
                ])
            }
            Field::Rules => choice(field, "Rules", form.rules_name().to_owned()),
            Field::Choice => choice(field, "Choices", form.choice_name().to_owned()),
            Field::Mode => {
                choice(field, "Mode", if form.race.is_some() { "race" } else { "classic" }.into())
            }
            Field::Rounds => choice(field, "Rounds", form.race.unwrap_or(0).to_string()),
            Field::TurnTime => choice(field, "Turn time", seconds(form.turn_time())),
            Field::GameTime => choice(field, "Game time", seconds(form.game_time())),
            Field::Players => {
                let line = choice(field, "Players", form.seats.len().to_string());
                lines.push(line);
                lines.push(Line::raw(""));
                continue;
            }
            Field::Seat(i) => {
                let (name, kind) = &form.seats[i];
                let cursor = if form.field == field { "▏" } else { "" };
                Line::from(vec![
                    Span::raw(pointer(field)),
                    Span::raw(format!("{:<10}", format!("Player {}", i + 1))),
                    Span::styled(format!("{}{cursor}", fit(name, 24)), chosen(field)),
                    Span::raw(
                        " ".repeat(26usize.saturating_sub(name.width().min(24) + cursor.width())),
                    ),
                    Span::styled(
                        format!("◀ {} ▶", kind.as_str()),
                        Style::new().add_modifier(Modifier::BOLD),
                    ),
                ])
            }
        };
        lines.push(line);
    }
    lines.push(Line::raw(""));
    match &form.problem {
        Some(problem) => lines.push(Line::styled(problem.clone(), Style::new().bold())),
        None => {
            lines.push(Line::raw("Enter starts · ↑↓ field · ←→ change · type a name · Esc leaves"));
        }
    }
    let block = Block::bordered().title(" New game ").title_bottom(" snl ");
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}
