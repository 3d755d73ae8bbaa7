//! The setup form, drawn.

use ratatui::{
    Frame,
    layout::Rect,
    style::{Modifier, Style},
    text::{Line, Span},
    widgets::{Block, Paragraph},
};

use unicode_width::UnicodeWidthStr;

use super::fit;
use crate::tui::setup::Form;

/// Draws `form` in the middle of the screen.
pub(crate) fn render(frame: &mut Frame<'_>, form: &Form) {
    let area = frame.area();
    let width = area.width.min(64);
    let height = (form.seats.len() as u16 + 9).min(area.height);
    let rect = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    };
    let chosen = |field: usize| {
        if form.field == field {
            Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
        } else {
            Style::new()
        }
    };
    let pointer = |field: usize| if form.field == field { "▶ " } else { "  " };
    let choice = |field: usize, label: &str, value: String| {
        Line::from(vec![
            Span::raw(pointer(field)),
            Span::raw(format!("{label:<10}")),
            Span::styled(format!("◀ {value} ▶"), chosen(field)),
        ])
    };
    let mut lines = vec![
        choice(0, "Board", form.board_name().to_owned()),
        choice(1, "Rules", form.rules_name().to_owned()),
        choice(2, "Players", form.seats.len().to_string()),
        Line::raw(""),
    ];
    for (i, (name, kind)) in form.seats.iter().enumerate() {
        let field = 3 + i;
        let cursor = if form.field == field { "▏" } else { "" };
        lines.push(Line::from(vec![
            Span::raw(pointer(field)),
            Span::raw(format!("{:<10}", format!("Player {}", i + 1))),
            Span::styled(format!("{}{cursor}", fit(name, 24)), chosen(field)),
            Span::raw(" ".repeat(26usize.saturating_sub(name.width().min(24) + cursor.width()))),
            Span::styled(
                format!("◀ {} ▶", kind.as_str()),
                Style::new().add_modifier(Modifier::BOLD),
            ),
        ]));
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
