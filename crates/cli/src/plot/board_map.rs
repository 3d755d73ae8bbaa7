//! The heat map: expected landings per cell on the board's own grid (cell 1 bottom-left,
//! boustrophedon), with a colour scale, the jumps as arrows under the cell numbers, a key, and a
//! caption that names the darkest square, found from the same numbers that colour it.

use plotters::{
    coord::Shift,
    prelude::*,
    style::text_anchor::{HPos, Pos, VPos},
};
use snl_analysis::exact::EffectWorth;
use snl_engine::Board;
use snl_words::CellKind;

use snl_tui::display::effect_mark;

use super::{
    DrawError,
    style::{
        CAPTION_SIZE, EFFECT, FINISH, LABEL_SIZE, LADDER, QUIET, SNAKE, Symbol, TEXT_SIZE,
        draw_arrow, draw_dot, draw_key, font, heat, px, short,
    },
};

/// Jumps drawn as arrows at most: more would hide the map.
const MAX_JUMP_LINES: usize = 40;
/// Heat-map squares per side at most: larger boards are shown in blocks of cells.
const MAX_SIDE: u32 = 100;
/// Cell numbers are written when a square is at least this many pixels wide.
const MIN_NUMBERED_SQUARE: i32 = 24;
/// An effect cell's worth is written when a square is at least this many pixels wide.
const MIN_WORTH_SQUARE: i32 = 32;

/// One square of the map: a cell, or a block of cells on a large board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Square {
    /// Row from the bottom and column from the left, in squares.
    pub(super) row: u32,
    pub(super) col: u32,
    /// The smallest cell in the square.
    pub(super) first_cell: u32,
    /// Mean expected landings per game over the square's cells, the last cell left out; `None`
    /// when the square holds the last cell only.
    pub(super) value: Option<f64>,
}

/// The squares and their scale.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct HeatMap {
    pub(super) cols: u32,
    pub(super) rows: u32,
    /// Cells per side of a square.
    pub(super) block: u32,
    pub(super) squares: Vec<Square>,
    /// The value coloured darkest: the largest.
    pub(super) top: f64,
    /// The index in `squares` of the darkest square (the first of equals), if any is landed on.
    pub(super) darkest: Option<usize>,
}

impl HeatMap {
    /// The map of `landings` (index = cell) on `board`. Every game lands on the last cell
    /// exactly once, at its end: that cell is left off the scale so the others stay readable.
    pub(super) fn of(board: &Board, landings: &[f64]) -> HeatMap {
        let layout = board.layout();
        let (width, rows) = (layout.width(), layout.rows());
        let block = width.max(rows).div_ceil(MAX_SIDE);
        let (cols_b, rows_b) = (width.div_ceil(block), rows.div_ceil(block));
        let n = (cols_b * rows_b) as usize;
        let (mut sum, mut count, mut first) = (vec![0.0; n], vec![0_u32; n], vec![0_u32; n]);
        let mut holds_finish = vec![false; n];
        for cell in 1..=board.size() {
            let (row, col) = layout.position(cell);
            let i = ((row / block) * cols_b + col / block) as usize;
            if first[i] == 0 {
                first[i] = cell;
            }
            if cell == board.size() {
                holds_finish[i] = true;
            } else {
                sum[i] += landings.get(cell as usize).copied().unwrap_or(0.0);
                count[i] += 1;
            }
        }
        let squares: Vec<Square> = (0..n)
            .filter(|&i| count[i] > 0 || holds_finish[i])
            .map(|i| Square {
                row: i as u32 / cols_b,
                col: i as u32 % cols_b,
                first_cell: first[i],
                value: (count[i] > 0).then(|| sum[i] / f64::from(count[i])),
            })
            .collect();
        let mut darkest: Option<usize> = None;
        for (i, s) in squares.iter().enumerate() {
            let best = darkest.and_then(|d| squares[d].value);
            if let Some(v) = s.value
                && v > 0.0
                && best.is_none_or(|b| v > b)
            {
                darkest = Some(i);
            }
        }
        let top = darkest.and_then(|d| squares[d].value).unwrap_or(0.0);
        HeatMap { cols: cols_b, rows: rows_b, block, squares, top, darkest }
    }

    /// The colour of a square: on the scale, or the finish's grey.
    pub(super) fn color(&self, square: &Square) -> RGBColor {
        match square.value {
            None => FINISH,
            Some(_) if self.top <= 0.0 => heat(0.0),
            Some(v) => heat(v / self.top),
        }
    }

    /// The sentence under the map naming its darkest square.
    pub(super) fn caption(&self) -> String {
        let Some(d) = self.darkest.map(|d| self.squares[d]) else {
            return "no landings".to_owned();
        };
        let v = short(d.value.unwrap_or(0.0));
        if self.block == 1 {
            format!("darkest: cell {}, {v} landings per game", d.first_cell)
        } else {
            format!("darkest: the square from cell {}, {v} per cell", d.first_cell)
        }
    }
}

/// Draws the map panel; returns the squares drawn and the cells per side of a square.
pub(super) fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    board: &Board,
    landings: Option<&[f64]>,
    worth: &[EffectWorth],
) -> Result<(usize, u32), DrawError>
where
    DB::ErrorType: 'static,
{
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w.cast_signed(), h.cast_signed());
    let Some(landings) = landings else {
        let note = "Expected landings: infinite (a token can be stuck for ever)";
        area.draw(&Text::new(note, (20, h / 2), font(TEXT_SIZE)))?;
        return Ok((0, 1));
    };
    let map = HeatMap::of(board, landings);
    let caption = if map.block == 1 {
        "Expected landings per game".to_owned()
    } else {
        format!("Landings per cell per game, {0}×{0} to a square", map.block)
    };
    let centered = font(CAPTION_SIZE).pos(Pos::new(HPos::Center, VPos::Top));
    area.draw(&Text::new(caption, (w / 2, 8), centered))?;

    // The grid, with room above for the caption, right for the scale, below for the key (a
    // line more for effects).
    let marked = map.block == 1 && board.has_effects();
    let bottom = if marked { 172 } else { 128 };
    let (top, left, right) = (44, 16, 128);
    let square = ((w - left - right) / map.cols.cast_signed())
        .min((h - top - bottom) / map.rows.cast_signed())
        .max(1);
    let (gw, gh) = (square * map.cols.cast_signed(), square * map.rows.cast_signed());
    let (x0, y0) = (left + (w - left - right - gw) / 2, top);
    let corner = |row: u32, col: u32| {
        (x0 + square * col.cast_signed(), y0 + square * (map.rows - 1 - row).cast_signed())
    };
    for s in &map.squares {
        let (x, y) = corner(s.row, s.col);
        area.draw(&Rectangle::new([(x, y), (x + square, y + square)], map.color(s).filled()))?;
    }
    area.draw(&Rectangle::new([(x0, y0), (x0 + gw, y0 + gh)], QUIET))?;

    // Jumps first, then the numbers on white labels above them, so no line hides a number.
    let layout = board.layout();
    let center = |cell: u32| {
        let (row, col) = layout.position(cell);
        let (x, y) = corner(row, col);
        (x + square / 2, y + square / 2)
    };
    let jumps = board.jumps();
    let arrows = map.block == 1 && jumps.len() <= MAX_JUMP_LINES;
    for j in jumps.iter().filter(|_| map.block == 1) {
        let color = if j.is_snake() { SNAKE } else { LADDER };
        if arrows {
            draw_arrow(area, center(j.from), center(j.to), color, j.is_snake())?;
        } else {
            draw_dot(area, center(j.from), color)?;
        }
    }
    if map.block == 1 && square >= MIN_NUMBERED_SQUARE {
        let size = (f64::from(square) * 0.36).clamp(11.0, LABEL_SIZE);
        for s in &map.squares {
            let (x, y) = corner(s.row, s.col);
            let text = s.first_cell.to_string();
            let label_w = (size * 0.62 * text.len() as f64).ceil() as i32 + 4;
            let label_h = size as i32 + 1;
            let backing = WHITE.mix(0.75).filled();
            area.draw(&Rectangle::new(
                [(x + 1, y + 1), (x + 1 + label_w, y + 1 + label_h)],
                backing,
            ))?;
            area.draw(&Text::new(text, (x + 3, y + 2), font(size).color(&QUIET)))?;
        }
    }

    // Effect cells: their mark (as `board show` draws them) in the square's upper right corner,
    // and under it what each is worth, in expected turns against the cell left plain.
    if marked {
        let size = (f64::from(square) * 0.3).clamp(10.0, LABEL_SIZE);
        let label = |text: &str, (x, y): (i32, i32)| -> Result<(), DrawError> {
            let w = (size * 0.62 * text.chars().count() as f64).ceil() as i32 + 4;
            let h = size as i32 + 2;
            let backing = [(x - w, y), (x, y + h)];
            area.draw(&Rectangle::new(backing, WHITE.filled()))?;
            area.draw(&Rectangle::new(backing, EFFECT))?;
            area.draw(&Text::new(text.to_owned(), (x - w + 2, y + 1), font(size).color(&EFFECT)))?;
            Ok(())
        };
        for e in board.effects() {
            let (row, col) = layout.position(e.at);
            let (x, y) = corner(row, col);
            label(effect_mark(&e.effect), (x + square - 1, y + 1))?;
            let delta = worth.iter().find(|w| w.cell == e.at).map(|w| w.expected_turns_delta);
            if let Some(d) = delta.filter(|d| d.is_finite())
                && square >= MIN_WORTH_SQUARE
            {
                let h = size as i32 + 2;
                label(&format!("{d:+.1}"), (x + square - 1, y + square - 1 - h))?;
            }
        }
    }

    // The colour scale, as thin lines so that squares stay the only large rectangles.
    let (bx, bw) = (x0 + gw + 22, 20);
    for i in 0..gh {
        let t = 1.0 - f64::from(i) / f64::from((gh - 1).max(1));
        area.draw(&PathElement::new([(bx, y0 + i), (bx + bw, y0 + i)], heat(t)))?;
    }
    area.draw(&Rectangle::new([(bx, y0), (bx + bw, y0 + gh)], QUIET))?;
    let tick = font(LABEL_SIZE).pos(Pos::new(HPos::Left, VPos::Center));
    for f in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let y = y0 + gh - 1 - (f * f64::from(gh - 1)).round() as i32;
        area.draw(&PathElement::new([(bx + bw, y), (bx + bw + 5, y)], QUIET))?;
        area.draw(&Text::new(short(f * map.top), (bx + bw + 8, y), tick.clone()))?;
    }

    // The key and the caption naming the darkest square, under the grid.
    let mut key = Vec::new();
    if arrows {
        key.push((
            Symbol::Arrow { color: LADDER, dashed: false },
            "ladder: foot to top".to_owned(),
        ));
        key.push((Symbol::Arrow { color: SNAKE, dashed: true }, "snake: head to tail".to_owned()));
    } else if map.block == 1 && !jumps.is_empty() {
        let arrows_left_out = format!("ladder foot ({} jumps: too many arrows)", jumps.len());
        key.push((Symbol::Dot(LADDER), arrows_left_out));
        key.push((Symbol::Dot(SNAKE), "snake head".to_owned()));
    } else if !jumps.is_empty() {
        key.push((Symbol::Blank, format!("{} jumps, not drawn on blocks", jumps.len())));
    }
    if marked {
        let effects: Vec<String> = snl_words::legend(board)
            .into_iter()
            .filter(|line| CellKind::EFFECTS.contains(&line.kind))
            .map(|line| format!("{} {}", line.kind.picture().mark, line.name))
            .collect();
        key.push((Symbol::Blank, format!("effects: {}", effects.join(", "))));
        if !worth.is_empty() {
            key.push((Symbol::Blank, "under each: Δ expected turns vs plain".to_owned()));
        }
    }
    key.push((
        Symbol::Swatch(FINISH),
        format!("cell {}: the finish, once per game, off the scale", board.size()),
    ));
    draw_key(area, (x0, y0 + gh + 10), &key)?;
    let below_key = y0 + gh + 18 + (TEXT_SIZE * 1.25) as i32 * px(key.len());
    let note = font(TEXT_SIZE).pos(Pos::new(HPos::Left, VPos::Top));
    area.draw(&Text::new(map.caption(), (x0, below_key.min(h - 24)), note))?;
    Ok((map.squares.len(), map.block))
}

#[cfg(test)]
mod tests {
    use snl_engine::{BoardSpec, Preset, Rules};

    use super::*;

    fn board(preset: Preset) -> Board {
        Board::new(&preset.spec(), &Rules::default()).unwrap()
    }

    #[test]
    fn the_darkest_square_is_the_one_the_caption_names() {
        let b = board(Preset::MiltonBradley);
        let mut landings = vec![0.1; 101];
        landings[47] = 0.9;
        landings[100] = 1.0;
        let map = HeatMap::of(&b, &landings);
        assert_eq!(map.caption(), "darkest: cell 47, 0.900 landings per game");
        let darkest = map.squares[map.darkest.unwrap()];
        assert_eq!(darkest.first_cell, 47);
        assert_eq!(map.color(&darkest), heat(1.0));
        // The finish is landed on more, but is grey, off the scale.
        let finish = map.squares.iter().find(|s| s.first_cell == 100).unwrap();
        assert_eq!(map.color(finish), FINISH);
        let others = map.squares.iter().filter(|s| s.first_cell != 47 && s.value.is_some());
        assert!(others.into_iter().all(|s| map.color(s) == heat(0.1 / 0.9)));
    }

    #[test]
    fn large_boards_are_drawn_in_blocks_named_by_their_first_cell() {
        let spec = BoardSpec { size: 40_000, ..BoardSpec::default() };
        let b = Board::new(&spec, &Rules::default()).unwrap();
        let mut landings = vec![0.0; 40_001];
        landings[20_000] = 5.0;
        let map = HeatMap::of(&b, &landings);
        assert_eq!((map.block, map.cols, map.rows), (2, 100, 100));
        let darkest = map.squares[map.darkest.unwrap()];
        assert_eq!(
            map.caption(),
            format!("darkest: the square from cell {}, 1.25 per cell", darkest.first_cell)
        );
        let (row, col) = b.layout().position(20_000);
        assert_eq!((darkest.row, darkest.col), (row / 2, col / 2));
        assert_eq!(darkest.value, Some(5.0 / 4.0));
    }

    #[test]
    fn a_board_without_landings_has_no_darkest_square() {
        let b = board(Preset::Kids);
        let map = HeatMap::of(&b, &[0.0; 51]);
        assert!(map.top == 0.0 && map.darkest.is_none());
        assert!(map.squares.iter().filter(|s| s.value.is_some()).all(|s| map.color(s) == WHITE));
    }
}
