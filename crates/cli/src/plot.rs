//! `snl analyze --plot FILE.svg|png`: the distribution of the game length and a heat map of the
//! landings, drawn on the board grid, with plotters.
//!
//! Text is laid out with a font compiled into the binary (Hack, a `DejaVu` descendant, from
//! `epaint_default_fonts`, drawn by plotters' pure-Rust `ab_glyph` renderer), so a PNG renders
//! the same on any machine without fontconfig, `FreeType` or system fonts. The font is registered
//! under its own family name, so it does not change other plots of the process.

use std::path::Path;

use plotters::{
    coord::Shift,
    prelude::*,
    style::{FontStyle, register_font},
};
use snl_analysis::exact::Analysis;
use snl_engine::Board;

/// The image formats `--plot` writes, chosen by the file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PlotFormat {
    Svg,
    Png,
}

impl PlotFormat {
    /// The format a path's extension names, if any.
    pub(crate) fn of(path: &Path) -> Option<PlotFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "svg" => Some(PlotFormat::Svg),
            "png" => Some(PlotFormat::Png),
            _ => None,
        }
    }
}

/// What a plot holds, for messages and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PlotSummary {
    /// Bars of the length distribution.
    pub(crate) bars: usize,
    /// How many turns each bar covers.
    pub(crate) turns_per_bar: usize,
    /// Squares of the heat map (cells, or blocks of cells on large boards).
    pub(crate) squares: usize,
    /// Cells per side of a heat-map square (1: one square per cell).
    pub(crate) block: u32,
}

/// Bars drawn at most: longer distributions are grouped, several turns to a bar.
const MAX_BARS: usize = 300;
/// Jumps drawn as lines at most: more would hide the map.
const MAX_JUMP_LINES: usize = 40;
/// Heat-map squares per side at most: larger boards are shown in blocks of cells.
const MAX_SIDE: u32 = 100;

/// The family name the built-in font is registered under.
const FONT: &str = "snl-hack";
const WIDTH: u32 = 1400;
const HEIGHT: u32 = 640;
const BAR: RGBColor = RGBColor(0x3b, 0x6e, 0xa8);
const CUMULATIVE: RGBColor = RGBColor(0xd6, 0x5f, 0x00);
const LADDER: RGBColor = RGBColor(0x1b, 0x8a, 0x3c);
const SNAKE: RGBColor = RGBColor(0xb3, 0x1b, 0x1b);

/// Draws the plot of `analysis` for `board` into `path` in `format`.
pub(crate) fn draw(
    path: &Path,
    format: PlotFormat,
    board: &Board,
    title: &str,
    analysis: &Analysis,
) -> Result<PlotSummary, Box<dyn std::error::Error>> {
    register_font(FONT, FontStyle::Normal, epaint_default_fonts::HACK_REGULAR)
        .map_err(|_| "the built-in font could not be loaded")?;
    match format {
        PlotFormat::Svg => {
            let root = SVGBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
            let summary = draw_on(&root, board, title, analysis)?;
            root.present()?;
            Ok(summary)
        }
        PlotFormat::Png => {
            let root = BitMapBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
            let summary = draw_on(&root, board, title, analysis)?;
            root.present()?;
            Ok(summary)
        }
    }
}

type Failure = Box<dyn std::error::Error>;

fn draw_on<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    board: &Board,
    title: &str,
    analysis: &Analysis,
) -> Result<PlotSummary, Failure>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let root = root.titled(title, (FONT, 16))?;
    let (left, right) = root.split_horizontally(WIDTH * 11 / 20);
    let (bars, turns_per_bar) = draw_lengths(&left, analysis)?;
    let (squares, block) = draw_heat_map(&right, board, analysis)?;
    Ok(PlotSummary { bars, turns_per_bar, squares, block })
}

/// Bars of P(T = k) (grouped when long) and the line of P(T ≤ k) on a second axis.
fn draw_lengths<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    analysis: &Analysis,
) -> Result<(usize, usize), Failure>
where
    DB::ErrorType: 'static,
{
    let dist = &analysis.distribution;
    let last = dist.quantile(0.999).map_or(dist.turns(), |k| k as usize).max(1);
    let per_bar = last.div_ceil(MAX_BARS);
    let bars: Vec<(usize, f64)> = (1..=last)
        .step_by(per_bar)
        .map(|k| (k, (k..k + per_bar).map(|j| dist.probability(j)).sum()))
        .collect();
    let top = bars.iter().map(|&(_, p)| p).fold(0.0, f64::max).max(1e-9) * 1.1;
    let x_end = (last + per_bar) as f64;
    let what = if per_bar == 1 {
        "P(finish on turn k)".to_owned()
    } else {
        format!("P(finish within a bar of {per_bar} turns)")
    };
    let caption = if dist.is_complete() {
        "Turns for one player to finish".to_owned()
    } else {
        format!("Turns to finish, first {} turns only (work limit)", dist.turns())
    };
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 20))
        .margin(14)
        .x_label_area_size(40)
        .y_label_area_size(64)
        .right_y_label_area_size(56)
        .build_cartesian_2d(0_f64..x_end, 0_f64..top)?
        .set_secondary_coord(0_f64..x_end, 0_f64..1.0);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .x_desc("turns k")
        .y_desc(what)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{:.1}%", 100.0 * y))
        .draw()?;
    chart
        .configure_secondary_axes()
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .y_desc("P(finished within k turns)")
        .y_label_formatter(&|y| format!("{:.0}%", 100.0 * y))
        .draw()?;
    chart
        .draw_series(bars.iter().map(|&(k, p)| {
            let x = k as f64;
            Rectangle::new([(x - 0.5, 0.0), (x - 0.5 + per_bar as f64, p)], BAR.filled())
        }))?
        .label("probability")
        .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], BAR.filled()));
    chart
        .draw_secondary_series(LineSeries::new(
            (0..=last).map(|k| (k as f64 + 0.5, dist.cdf(k))),
            CUMULATIVE.stroke_width(2),
        ))?
        .label("cumulative")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], CUMULATIVE.stroke_width(2)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::MiddleRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font((FONT, 15))
        .draw()?;
    Ok((bars.len(), per_bar))
}

/// Expected landings per cell on the board grid (cell 1 bottom-left, boustrophedon).
fn draw_heat_map<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    board: &Board,
    analysis: &Analysis,
) -> Result<(usize, u32), Failure>
where
    DB::ErrorType: 'static,
{
    let layout = board.layout();
    let (width, rows) = (layout.width(), layout.rows());
    let block = width.max(rows).div_ceil(MAX_SIDE);
    let (cols_b, rows_b) = (width.div_ceil(block), rows.div_ceil(block));
    let caption = if block == 1 {
        "Expected landings per game".to_owned()
    } else {
        format!("Expected landings per game, {block}×{block} cells to a square")
    };
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 20))
        .margin(14)
        .x_label_area_size(30)
        .build_cartesian_2d(0_f64..f64::from(cols_b), 0_f64..f64::from(rows_b))?;
    let Some(landings) = &analysis.expected_landings else {
        let note = "infinite: a token can be stuck for ever";
        chart.draw_series([Text::new(
            note,
            (0.05 * f64::from(cols_b), 0.5 * f64::from(rows_b)),
            (FONT, 18),
        )])?;
        return Ok((0, block));
    };
    // Mean landings per cell of each square.
    let mut sum = vec![0.0; (cols_b * rows_b) as usize];
    let mut count = vec![0_u32; sum.len()];
    for cell in 1..=board.size() {
        let (row, col) = layout.position(cell);
        let i = ((row / block) * cols_b + col / block) as usize;
        sum[i] += landings[cell as usize];
        count[i] += 1;
    }
    let mean: Vec<f64> = sum
        .iter()
        .zip(&count)
        .map(|(&s, &c)| if c == 0 { 0.0 } else { s / f64::from(c) })
        .collect();
    // Every game lands on N exactly once at the end; scale the colours on the other squares.
    let last = layout.position(board.size());
    let last = ((last.0 / block) * cols_b + last.1 / block) as usize;
    let top = mean
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != last || block > 1)
        .map(|(_, &v)| v)
        .fold(0.0, f64::max)
        .max(f64::MIN_POSITIVE);
    let squares: Vec<(u32, u32, f64)> = (0..rows_b)
        .flat_map(|r| (0..cols_b).map(move |c| (r, c)))
        .filter(|&(r, c)| count[(r * cols_b + c) as usize] > 0)
        .map(|(r, c)| (r, c, mean[(r * cols_b + c) as usize]))
        .collect();
    chart.draw_series(squares.iter().map(|&(r, c, v)| {
        let (x, y) = (f64::from(c), f64::from(r));
        Rectangle::new([(x, y), (x + 1.0, y + 1.0)], heat(v / top).filled())
    }))?;
    let center = |cell: u32| {
        let (row, col) = layout.position(cell);
        (f64::from(col / block) + 0.5, f64::from(row / block) + 0.5)
    };
    if block == 1 && width <= 16 && rows <= 16 {
        let size = if width <= 10 { 13 } else { 10 };
        chart.draw_series((1..=board.size()).map(|cell| {
            let (row, col) = layout.position(cell);
            let at = (f64::from(col) + 0.06, f64::from(row) + 0.94);
            Text::new(cell.to_string(), at, (FONT, size).into_font().color(&BLACK.mix(0.7)))
        }))?;
    }
    if block == 1 && board.jumps().len() <= MAX_JUMP_LINES {
        chart.draw_series(board.jumps().iter().map(|j| {
            let color = if j.is_snake() { SNAKE } else { LADDER };
            PathElement::new([center(j.from), center(j.to)], color.mix(0.8).stroke_width(2))
        }))?;
        chart.draw_series(board.jumps().iter().map(|j| {
            let color = if j.is_snake() { SNAKE } else { LADDER };
            Circle::new(center(j.from), 3, color.filled())
        }))?;
    }
    let (hot_cell, hot) = landings[..board.size() as usize]
        .iter()
        .enumerate()
        .skip(1)
        .fold((0, 0.0), |best, (c, &v)| if v > best.1 { (c, v) } else { best });
    area.draw(&Text::new(
        format!("darkest: cell {hot_cell}, {hot:.3} landings per game; white: none"),
        (16, area.dim_in_pixel().1.cast_signed() - 26),
        (FONT, 15),
    ))?;
    Ok((squares.len(), block))
}

/// White (0) through yellow and orange to dark red (1).
fn heat(t: f64) -> RGBColor {
    const STOPS: [(f64, [f64; 3]); 4] = [
        (0.0, [255.0, 255.0, 255.0]),
        (0.35, [255.0, 221.0, 87.0]),
        (0.7, [240.0, 120.0, 32.0]),
        (1.0, [150.0, 0.0, 24.0]),
    ];
    let t = t.clamp(0.0, 1.0);
    let stop = STOPS.windows(2).position(|w| t <= w[1].0).unwrap_or(STOPS.len() - 2);
    let ((from, low), (to, high)) = (STOPS[stop], STOPS[stop + 1]);
    let along = if to > from { (t - from) / (to - from) } else { 0.0 };
    let mix = |k: usize| (low[k] + (high[k] - low[k]) * along).round() as u8;
    RGBColor(mix(0), mix(1), mix(2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_format_follows_the_extension() {
        assert_eq!(PlotFormat::of(Path::new("a/b.SVG")), Some(PlotFormat::Svg));
        assert_eq!(PlotFormat::of(Path::new("b.png")), Some(PlotFormat::Png));
        assert_eq!(PlotFormat::of(Path::new("b.jpg")), None);
        assert_eq!(PlotFormat::of(Path::new("b")), None);
    }

    #[test]
    fn heat_runs_from_white_to_dark_red() {
        assert_eq!(heat(0.0), RGBColor(255, 255, 255));
        assert_eq!(heat(1.0), RGBColor(150, 0, 24));
        assert_eq!(heat(0.35), RGBColor(255, 221, 87));
    }
}
