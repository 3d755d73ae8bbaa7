//! The board: boustrophedon rows, cell 1 at the bottom-left, each cell its number, the glyph of
//! what it is (a snake's head ▼ and tail ▽, a ladder's foot ▲ and top △, a cell effect: the
//! pictures of `snl_words::CellKind`), where a jump goes (→), and the tokens on it. A board larger than the screen shows the rows and columns around the
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

use super::style::{fit, hue_style, player_style, tint};
use snl_words::CellKind;

use crate::app::App;

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

/// The legend: the glyph and name of each kind of cell the board has, under the board in at
/// most `width` columns, and over it (at its top right) what did not fit under it, in at most
/// `top` columns. Where a jump ends is left out first, then snakes and ladders move over the
/// board (left out when they do not fit there: the help explains them), then the names go.
fn legend(
    app: &App,
    board: &Board,
    width: usize,
    top: usize,
) -> (Line<'static>, Option<Line<'static>>) {
    let kinds: Vec<CellKind> = CellKind::ALL.into_iter().filter(|k| k.on(board)).collect();
    let ends = |k: &CellKind| matches!(k, CellKind::SnakeTail | CellKind::LadderTop);
    let named = |kinds: &[CellKind]| -> usize {
        1 + kinds.iter().map(|k| k.picture().name.width() + 3).sum::<usize>()
    };
    let mut shown = kinds.clone();
    if named(&shown) > width {
        shown.retain(|k| !ends(k));
    }
    // Then snakes and ladders, so that the effects keep their names.
    let jumps = |k: &CellKind| matches!(k, CellKind::SnakeHead | CellKind::LadderFoot);
    let mut over = None;
    if named(&shown) > width && shown.iter().any(|k| !jumps(k)) {
        let moved: Vec<CellKind> = shown.iter().copied().filter(jumps).collect();
        shown.retain(|k| !jumps(k));
        if !moved.is_empty() && named(&moved) <= top {
            over = Some(legend_line(app, &moved, true).right_aligned());
        }
    }
    let with_names = named(&shown) <= width;
    (legend_line(app, &shown, with_names), over)
}

/// The glyphs of `kinds`, each with its name when `with_names`.
fn legend_line(app: &App, kinds: &[CellKind], with_names: bool) -> Line<'static> {
    let mut spans = vec![Span::raw(" ")];
    for kind in kinds {
        let picture = kind.picture();
        spans.push(Span::styled(picture.glyph, hue_style(app, picture.hue)));
        spans.push(Span::raw(if with_names { format!(" {} ", picture.name) } else { " ".into() }));
    }
    Line::from(spans)
}

pub(super) fn render(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let game = app.session.game();
    let board = game.board();
    let layout = board.layout();
    let title = format!(" {} cells ", board.size());
    let mut block = Block::bordered().border_style(tint(app, Color::DarkGray));
    let view = view(app, block.inner(area));
    let scrolled = view.rows < layout.rows() || view.columns < layout.width();
    // Over the board, right of its title: the scroll keys when it scrolls, else what of the
    // legend did not fit under it.
    let top = if scrolled { 0 } else { usize::from(area.width.saturating_sub(6)) - title.width() };
    let (under, over) = legend(app, board, usize::from(area.width.saturating_sub(4)), top);
    block = block.title(title).title_bottom(under);
    if scrolled {
        block = block.title(Line::from(" ↑↓ PgUp PgDn scroll, f follows ").right_aligned());
    } else if let Some(over) = over {
        block = block.title(over);
    }
    let inner = block.inner(area);
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
            let kind = CellKind::of(board, cell);
            let picture = kind.picture();
            let style = hue_style(app, picture.hue);
            let number_style = match kind {
                CellKind::Plain | CellKind::SnakeTail | CellKind::LadderTop
                    if cell == board.size() =>
                {
                    Style::new().add_modifier(Modifier::BOLD)
                }
                CellKind::Plain | CellKind::SnakeTail | CellKind::LadderTop => {
                    tint(app, Color::DarkGray)
                }
                _ => style.add_modifier(Modifier::BOLD),
            };
            let number = format!("{cell:>w$}", w = usize::from(cw - 1));
            buf.set_string(x, y, number, number_style);
            buf.set_string(x + cw - 1, y, picture.glyph, style);
            // Where a jump goes, or how many exits a wormhole has; the arrow only when there is
            // room for it.
            let goes = match (kind, board.jump_at(cell)) {
                (CellKind::SnakeHead | CellKind::LadderFoot, Some(to))
                    if to.to_string().len() < usize::from(cw - 1) =>
                {
                    Some(format!("→{to}"))
                }
                (CellKind::SnakeHead | CellKind::LadderFoot, Some(to)) => Some(to.to_string()),
                (CellKind::Wormhole, _) => {
                    let exits = board.effect_at(cell).map_or(0, |e| e.exits().len());
                    Some(format!("→{exits}?"))
                }
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
