//! `--plot FILE.svg|png` of `snl analyze` and `snl simulate`: one look for both. The length of
//! the game as a distribution, the landings as a heat map on the board grid, and the seats'
//! chances, drawn with plotters.
//!
//! Text is laid out with a font compiled into the binary (Hack, a `DejaVu` descendant, from
//! `epaint_default_fonts`, drawn by plotters' pure-Rust `ab_glyph` renderer), so a PNG renders
//! the same on any machine without fontconfig, `FreeType` or system fonts. The font is registered
//! under its own family name, so it does not change other plots of the process.

mod board_map;
mod lengths;
mod seats;
mod style;

use std::path::{Path, PathBuf};

use plotters::{
    coord::Shift,
    prelude::*,
    style::{
        FontStyle, register_font,
        text_anchor::{HPos, Pos, VPos},
    },
};
use snl_analysis::{
    exact::{Analysis, EffectWorth},
    simulate::{Tally, Z95},
};
use snl_engine::{Board, Finish};

use crate::{
    common::{CmdResult, Failure},
    format::percent,
};
use lengths::Lengths;
use seats::SeatChance;
use style::{CAPTION_SIZE, FONT, TITLE_SIZE, font};

/// Writes the figure of `$size` pixels that `$draw` (an expression of `$root`, the drawing
/// area) draws into `$target`, in its format; evaluates to what `$draw` returns.
macro_rules! render {
    ($target:expr, $size:expr, |$root:ident| $draw:expr) => {{
        let target: &PlotTarget = $target;
        register_font(FONT, FontStyle::Normal, epaint_default_fonts::HACK_REGULAR)
            .map_err(|_| "the built-in font could not be loaded")?;
        match target.format {
            PlotFormat::Svg => {
                let $root = SVGBackend::new(&target.path, $size).into_drawing_area();
                let out = $draw?;
                $root.present()?;
                Ok(out)
            }
            PlotFormat::Png => {
                let $root = BitMapBackend::new(&target.path, $size).into_drawing_area();
                let out = $draw?;
                $root.present()?;
                Ok(out)
            }
        }
    }};
}

/// Why a plot could not be drawn.
pub(crate) type DrawError = Box<dyn std::error::Error>;

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

/// A file a plot can be written to: its extension names a format and its folder exists. Checked
/// before any work, so that a long analysis never ends in a plot that cannot be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PlotTarget {
    path: PathBuf,
    format: PlotFormat,
}

impl PlotTarget {
    /// Checks `path`.
    ///
    /// # Errors
    ///
    /// Bad input (exit 2) when the extension is neither .svg nor .png, the folder does not
    /// exist, or the path is a folder.
    pub(crate) fn check(path: &Path) -> CmdResult<PlotTarget> {
        let bad = |why: String| {
            Failure::bad(anyhow::anyhow!("cannot plot to '{}': {why}", path.display()))
        };
        let format = PlotFormat::of(path)
            .ok_or_else(|| bad("the file name must end in .svg or .png".to_owned()))?;
        if path.is_dir() {
            return Err(bad("it is a folder".to_owned()));
        }
        if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty())
            && !folder.is_dir()
        {
            return Err(bad(format!("the folder '{}' does not exist", folder.display())));
        }
        Ok(PlotTarget { path: path.to_owned(), format })
    }

    /// The file.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

/// What an analysis plot holds, for messages and tests.
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

const WIDTH: u32 = 1400;
/// The height of a row of panels.
const ROW: u32 = 640;
/// The height of the row of seats under an analysis.
const SEAT_ROW: u32 = 480;
/// The height of the title over the rows.
const TITLE: u32 = 40;
/// The left panel's share of the width, in twentieths.
const LEFT: u32 = 11;

/// The seats of an exact analysis.
pub(crate) struct AnalysisSeats<'a> {
    pub(crate) names: Vec<&'a str>,
    pub(crate) win_probability: &'a [f64],
    /// `by_round[seat][k]`: the chance to finish first on round k.
    pub(crate) by_round: Vec<Vec<f64>>,
    pub(crate) finish: Finish,
}

/// Draws the plot of `analysis` for `board`: the length and the heat map, and with seats a second
/// row of their chances.
pub(crate) fn draw_analysis(
    target: &PlotTarget,
    board: &Board,
    title: &str,
    analysis: &Analysis,
    seats: Option<&AnalysisSeats>,
    worth: &[EffectWorth],
) -> Result<PlotSummary, DrawError> {
    let height = TITLE + ROW + if seats.is_some() { SEAT_ROW } else { 0 };
    render!(target, (WIDTH, height), |root| {
        analysis_figure(&root, board, title, analysis, seats, worth)
    })
}

fn analysis_figure<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    board: &Board,
    title: &str,
    analysis: &Analysis,
    seats: Option<&AnalysisSeats>,
    worth: &[EffectWorth],
) -> Result<PlotSummary, DrawError>
where
    DB::ErrorType: 'static,
{
    {
        let root = titled(root, title)?;
        let (top, bottom) = root.split_vertically(ROW);
        let (left, right) = top.split_horizontally(WIDTH * LEFT / 20);
        let dist = &analysis.distribution;
        // Up to the turn by which 99.9% of the games that finish have finished.
        let finishing = 1.0 - analysis.never_finish_probability;
        let last = (1..=dist.turns())
            .find(|&k| dist.cdf(k) >= 0.999 * finishing)
            .unwrap_or(dist.turns())
            .max(1);
        let caption = if !dist.is_complete() {
            format!("Turns to finish, first {} turns only (work limit)", dist.turns())
        } else if analysis.never_finish_probability > 0.0 {
            let never = percent(analysis.never_finish_probability);
            format!("Turns for one player to finish ({never} never do)")
        } else {
            "Turns for one player to finish".to_owned()
        };
        let (bars, turns_per_bar) = if analysis.never_finish_probability >= 1.0 {
            let note = format!("No one ever finishes: cell {} cannot be reached", board.size());
            let style = font(CAPTION_SIZE).pos(Pos::new(HPos::Center, VPos::Center));
            let (w, h) = left.dim_in_pixel();
            left.draw(&Text::new(note, ((w / 2).cast_signed(), (h / 2).cast_signed()), style))?;
            (0, 1)
        } else {
            lengths::draw(
                &left,
                &Lengths {
                    caption,
                    unit: "turn",
                    x_desc: "turns k",
                    probability: (0..=last).map(|k| dist.probability(k)).collect(),
                    cumulative: (0..=last).map(|k| dist.cdf(k)).collect(),
                    mean: analysis.is_finite().then_some(analysis.expected_turns),
                },
            )?
        };
        let (squares, block) =
            board_map::draw(&right, board, analysis.expected_landings.as_deref(), worth)?;
        if let Some(s) = seats {
            let (left, right) = bottom.split_horizontally(WIDTH * LEFT / 20);
            let first = match s.finish {
                Finish::First => "Who wins",
                Finish::All => "Who finishes first",
            };
            seats::draw_rounds(
                &left,
                &format!("{first}, and on which round"),
                &s.names,
                &s.by_round,
            )?;
            let chances: Vec<SeatChance> = s
                .names
                .iter()
                .zip(s.win_probability)
                .map(|(&name, &chance)| SeatChance { name, chance, interval: None })
                .collect();
            seats::draw_chances(&right, &format!("{first}: each seat's chance"), &chances)?;
        }
        Ok(PlotSummary { bars, turns_per_bar, squares, block })
    }
}

/// Draws the plot of a simulation: the game length in rolls, and each seat's share of wins with
/// its 95% interval; with two seats or more, a second row of each seat's share of the games won
/// on each of its turns (as `analyze` draws the exact chances).
pub(crate) fn draw_simulation(
    target: &PlotTarget,
    title: &str,
    tally: &Tally,
    names: &[&str],
) -> Result<(), DrawError> {
    let height = TITLE + ROW + if names.len() > 1 { SEAT_ROW } else { 0 };
    render!(target, (WIDTH, height), |root| simulation_figure(&root, title, tally, names))
}

fn simulation_figure<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    tally: &Tally,
    names: &[&str],
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    {
        let root = titled(root, title)?;
        let (top, bottom) = root.split_vertically(ROW);
        let (left, right) = top.split_horizontally(WIDTH * LEFT / 20);
        let counts = tally.length_counts();
        let games = tally.games() as f64;
        // The longest 0.1% of games are left out so the shape stays readable.
        let mut seen = 0;
        let last = counts
            .iter()
            .position(|&c| {
                seen += c;
                seen as f64 >= games * 0.999
            })
            .unwrap_or(counts.len().saturating_sub(1));
        let mut running = 0;
        let cumulative = counts[..=last]
            .iter()
            .map(|&c| {
                running += c;
                running as f64 / games
            })
            .collect();
        lengths::draw(
            &left,
            &Lengths {
                caption: format!("Rolls in a game, {} games", tally.games()),
                unit: "roll",
                x_desc: "rolls in the game (all seats together)",
                probability: counts[..=last].iter().map(|&c| c as f64 / games).collect(),
                cumulative,
                mean: Some(tally.mean_rolls()),
            },
        )?;
        let chances: Vec<SeatChance> = names
            .iter()
            .enumerate()
            .map(|(i, &name)| {
                let ci = tally.win_interval(i, Z95);
                SeatChance { name, chance: tally.win_rate(i), interval: Some((ci.lo, ci.hi)) }
            })
            .collect();
        seats::draw_chances(&right, "Who wins: each seat's share of the games", &chances)?;
        if names.len() > 1 {
            let by_turn: Vec<Vec<f64>> = (0..names.len())
                .map(|i| tally.win_turn_counts(i).iter().map(|&c| c as f64 / games).collect())
                .collect();
            seats::draw_rounds(&bottom, "Who wins, and on which of their turns", names, &by_turn)?;
        }
        Ok(())
    }
}

/// The figure's title, over everything.
fn titled<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
) -> Result<DrawingArea<DB, Shift>, DrawError>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let style = font(TITLE_SIZE).pos(Pos::new(HPos::Center, VPos::Center));
    root.draw(&Text::new(
        title.to_owned(),
        ((WIDTH / 2).cast_signed(), (TITLE / 2).cast_signed()),
        style,
    ))?;
    Ok(root.margin(TITLE, 0, 0, 0))
}
