//! The board: boustrophedon rows, cell 1 at the bottom-left, each cell its number, a mark for a
//! snake's head (▼) and tail (▽) or a ladder's foot (▲) and top (△), where a jump goes (→), and
//! the tokens on it. A board larger than the screen shows the rows and columns around the
//! current player, and scrolls with the arrows and PageUp/PageDown.

use ratatui::{
    Frame,
    layout::Rect,
    style::{Color, Modifier, Style},
    text::{Line, Span},
    widgets::Block,
};
use snl_engine::Board;

use unicode_width::UnicodeWidthStr;

use super::style::{fit, player_style, tint};
use crate::app::App;

/// What a cell is to the jumps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    Plain,
    /// A snake's head, going down to the cell.
    Head(u32),
    Tail,
    /// A ladder's foot, going up to the cell.
    Foot(u32),
    Top,
}

fn mark_of(board: &Board, cell: u32) -> Mark {
    match board.jump_at(cell) {
        Some(to) if to < cell => Mark::Head(to),
        Some(to) => Mark::Foot(to),
        None => {
            let end = board.jumps().iter().find(|j| j.to == cell);
            match end {
                Some(j) if j.is_snake() => Mark::Tail,
                Some(_) => Mark::Top,
                None => Mark::Plain,
            }
        }
    }
}

/// Which part of a large board is on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct View {
    /// Columns and lines of one cell.
    pub(crate) cell_width: u16,
    pub(crate) cell_height: u16,
    /// First display row (0 = the top row of the board) and column shown.
    pub(crate) top: u32,
    pub(crate) left: u32,
    pub(crate) rows: u32,
    pub(crate) columns: u32,
}

/// The view of `app`'s board in `inner` (the board's frame excluded).
pub(crate) fn view(app: &App, inner: Rect) -> View {
    let board = app.session.game().board();
    let layout = board.layout();
    let (rows, columns) = (layout.rows(), layout.width());
    let digits = board.size().to_string().len() as u16;
    let min_width = (digits + 1).max(4);
    let cell_width = (inner.width / columns.max(1) as u16).clamp(min_width, 8);
    let cell_height = (inner.height / rows.max(1) as u16).clamp(2, 3);
    let shown_rows = (u32::from(inner.height / cell_height)).min(rows).max(1);
    let shown_columns = (u32::from(inner.width / cell_width)).min(columns).max(1);
    let focus = app.shown.get(app.focus()).copied().unwrap_or(1).max(1);
    let (row, column) = layout.position(focus);
    let display_row = rows - 1 - row;
    let top = i64::from(display_row) - i64::from(shown_rows / 2) + i64::from(app.scroll);
    let top = top.clamp(0, i64::from(rows - shown_rows)) as u32;
    let left = i64::from(column) - i64::from(shown_columns / 2);
    let left = left.clamp(0, i64::from(columns - shown_columns)) as u32;
    View { cell_width, cell_height, top, left, rows: shown_rows, columns: shown_columns }
}

pub(super) fn render(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let game = app.session.game();
    let board = game.board();
    let layout = board.layout();
    let snake = tint(app, Color::Red);
    let ladder = tint(app, Color::Green);
    let legend = Line::from(vec![
        Span::raw(" "),
        Span::styled("▼", snake),
        Span::raw(" snake "),
        Span::styled("▽", snake),
        Span::raw(" its tail  "),
        Span::styled("▲", ladder),
        Span::raw(" ladder "),
        Span::styled("△", ladder),
        Span::raw(" its top "),
    ]);
    let mut block = Block::bordered()
        .title(format!(" {} cells ", board.size()))
        .title_bottom(legend)
        .border_style(tint(app, Color::DarkGray));
    let inner = block.inner(area);
    let view = view(app, inner);
    if view.rows < layout.rows() || view.columns < layout.width() {
        let hidden = Line::from(" ↑↓ PgUp PgDn scroll, f follows ").right_aligned();
        block = block.title(hidden);
    }
    frame.render_widget(block, area);
    let (cw, ch) = (view.cell_width, view.cell_height);
    let x0 = inner.x + (inner.width - view.columns as u16 * cw) / 2;
    let y0 = inner.y + (inner.height - view.rows as u16 * ch) / 2;
    let focus = app.focus();
    let buf = frame.buffer_mut();
    for dr in 0..view.rows {
        let row = layout.rows() - 1 - (view.top + dr);
        for dc in 0..view.columns {
            let Some(cell) = layout.cell_at(row, view.left + dc) else { continue };
            let x = x0 + dc as u16 * cw;
            let y = y0 + dr as u16 * ch;
            let mark = mark_of(board, cell);
            let (glyph, style) = match mark {
                Mark::Head(_) => ("▼", snake),
                Mark::Tail => ("▽", snake),
                Mark::Foot(_) => ("▲", ladder),
                Mark::Top => ("△", ladder),
                Mark::Plain => (" ", Style::new()),
            };
            let number_style = match mark {
                Mark::Head(_) | Mark::Foot(_) => style.add_modifier(Modifier::BOLD),
                _ if cell == board.size() => Style::new().add_modifier(Modifier::BOLD),
                _ => tint(app, Color::DarkGray),
            };
            let number = format!("{cell:>w$}", w = usize::from(cw - 1));
            buf.set_string(x, y, number, number_style);
            buf.set_string(x + cw - 1, y, glyph, style);
            let goes = match mark {
                // Where the jump goes; the arrow only when there is room for it.
                Mark::Head(to) | Mark::Foot(to) if to.to_string().len() < usize::from(cw - 1) => {
                    Some(format!("→{to}"))
                }
                Mark::Head(to) | Mark::Foot(to) => Some(to.to_string()),
                _ => None,
            };
            let here: Vec<usize> = (0..app.shown.len()).filter(|&s| app.shown[s] == cell).collect();
            let token_line = y + ch - 1;
            // Under the number, right-aligned: where a jump goes, the tokens.
            let room = usize::from(cw - 1);
            if let Some(goes) = &goes
                && (ch == 3 || here.is_empty())
            {
                let text = fit(goes, room);
                let at = x + cw - text.width() as u16;
                buf.set_string(at, y + 1, text, style.add_modifier(Modifier::DIM));
            }
            if here.len() > room {
                let text = fit(&format!("×{}", here.len()), room);
                let at = x + cw - text.width() as u16;
                buf.set_string(at, token_line, text, Style::new().add_modifier(Modifier::BOLD));
            } else {
                for (k, &seat) in here.iter().enumerate() {
                    let mut style = player_style(app, seat).add_modifier(Modifier::BOLD);
                    if seat == focus {
                        style = style.add_modifier(Modifier::REVERSED);
                    }
                    let letter = app.marks[seat].to_string();
                    let at = x + cw - (here.len() - k) as u16;
                    buf.set_string(at, token_line, letter, style);
                }
            }
        }
    }
}
