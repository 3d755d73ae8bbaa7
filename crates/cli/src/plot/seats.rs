//! Seats: each seat's chance to finish first (with its 95% interval when simulated) as bars,
//! and, when known exactly, its chance to finish first on each round as a line.

use std::fmt::Write as _;

use plotters::{
    coord::Shift,
    element::DashedPathElement,
    prelude::*,
    style::text_anchor::{HPos, Pos, VPos},
};

use super::{
    DrawError,
    style::{
        CAPTION_SIZE, LABEL_SIZE, MAX_SEAT_LINES, QUIET, TEXT_SIZE, font, percent_decimals, px,
        round_up, seat_color,
    },
};
use crate::format::percent;

/// Seats given a bar at most; the panel says when more were left out.
const MAX_SEAT_BARS: usize = 16;

/// One seat's chance to finish first.
pub(super) struct SeatChance<'a> {
    pub(super) name: &'a str,
    pub(super) chance: f64,
    /// The 95% interval, for a simulated chance.
    pub(super) interval: Option<(f64, f64)>,
}

/// Draws the bars of `seats`' chances under `caption`.
pub(super) fn draw_chances<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    caption: &str,
    seats: &[SeatChance],
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w.cast_signed(), h.cast_signed());
    let centered = font(CAPTION_SIZE).pos(Pos::new(HPos::Center, VPos::Top));
    area.draw(&Text::new(caption.to_owned(), (w / 2, 8), centered))?;
    let shown = &seats[..seats.len().min(MAX_SEAT_BARS)];
    let longest = shown.iter().map(|s| s.name.chars().count()).max().unwrap_or(0).min(16);
    let x0 = 24 + (TEXT_SIZE * 0.62 * longest as f64) as i32;
    let bar_w = w - x0 - 120;
    let (top, bottom) = (64, 80);
    let row = ((h - top - bottom) / px(shown.len().max(1))).min(64);
    // A few bars sit in the middle of the panel rather than under its caption.
    let top = top.max((h - bottom - row * px(shown.len())) / 2);
    let top_value = shown
        .iter()
        .map(|s| s.interval.map_or(s.chance, |(_, hi)| hi))
        .fold(0.0, f64::max)
        .max(1e-9);
    // The scale ends on a round number, so that the bars compare at a glance.
    let scale = round_up(top_value).min(1.0);
    let x = |p: f64| x0 + (p / scale * f64::from(bar_w)).round() as i32;
    let name_style = font(TEXT_SIZE).pos(Pos::new(HPos::Right, VPos::Center));
    let value_style = font(TEXT_SIZE).pos(Pos::new(HPos::Left, VPos::Center));
    // The even share under the bars and their labels.
    let even = 1.0 / seats.len() as f64;
    let axis_y = top + row * px(shown.len()) + 4;
    if even <= scale * (1.0 + 1e-12) {
        area.draw(&DashedPathElement::new([(x(even), top - 4), (x(even), axis_y)], 4, 4, QUIET))?;
    }
    for (i, seat) in shown.iter().enumerate() {
        let y = top + row * px(i);
        let (y1, y2) = (y + row / 6, y + row - row / 6);
        let mid = i32::midpoint(y1, y2);
        let name: String = seat.name.chars().take(16).collect();
        area.draw(&Text::new(name, (x0 - 10, mid), name_style.clone()))?;
        area.draw(&Rectangle::new([(x0, y1), (x(seat.chance), y2)], seat_color(i).filled()))?;
        let mut end = x(seat.chance);
        if let Some((lo, hi)) = seat.interval {
            let whisker = QUIET.stroke_width(2);
            area.draw(&PathElement::new([(x(lo), mid), (x(hi), mid)], whisker))?;
            for p in [lo, hi] {
                area.draw(&PathElement::new([(x(p), mid - 6), (x(p), mid + 6)], whisker))?;
            }
            end = end.max(x(hi));
        }
        // On white, so that the even-share line does not cross the figure.
        let label = percent(seat.chance);
        let width = (TEXT_SIZE * 0.62 * label.len() as f64).ceil() as i32;
        let half = (TEXT_SIZE * 0.6) as i32;
        area.draw(&Rectangle::new(
            [(end + 5, mid - half), (end + 11 + width, mid + half)],
            WHITE.filled(),
        ))?;
        area.draw(&Text::new(label, (end + 8, mid), value_style.clone()))?;
    }
    // The axis: 0, the even share and the scale's end.
    area.draw(&PathElement::new([(x0, top - 4), (x0, axis_y)], QUIET))?;
    area.draw(&PathElement::new([(x0, axis_y), (x0 + bar_w, axis_y)], QUIET))?;
    let tick = font(LABEL_SIZE).pos(Pos::new(HPos::Center, VPos::Top));
    // The even share is drawn wherever it falls; the scale's end is labelled unless too close.
    let mut ticks = vec![0.0];
    if even <= scale * (1.0 + 1e-12) {
        ticks.push(even);
    }
    if (x(scale) - x(even)).abs() > 60 {
        ticks.push(scale);
    }
    for p in ticks {
        let x100 = 100.0 * p;
        let label = if (x100 - x100.round()).abs() < 1e-9 {
            format!("{x100:.0}%")
        } else {
            format!("{x100:.1}%")
        };
        area.draw(&PathElement::new([(x(p), axis_y), (x(p), axis_y + 5)], QUIET))?;
        area.draw(&Text::new(label, (x(p), axis_y + 8), tick.clone()))?;
    }
    let mut note = format!("dashed: an even share, {}", percent(even));
    if seats.iter().any(|s| s.interval.is_some()) {
        note.push_str("; whiskers: 95% intervals");
    }
    let no_winner = 1.0 - seats.iter().map(|s| s.chance).sum::<f64>();
    if no_winner > 1e-9 {
        let _ = write!(note, "; no winner ever: {}", percent(no_winner));
    }
    if seats.len() > shown.len() {
        let _ = write!(note, "; first {} of {} seats shown", shown.len(), seats.len());
    }
    let style = font(TEXT_SIZE).pos(Pos::new(HPos::Left, VPos::Top));
    area.draw(&Text::new(note, (x0, axis_y + 36), style))?;
    Ok(())
}

/// Draws each seat's chance to finish first on each round (`by_round[seat][k]`), up to the
/// round by which 99.9% of the games are decided.
pub(super) fn draw_rounds<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    caption: &str,
    names: &[&str],
    by_round: &[Vec<f64>],
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    let rounds = by_round.iter().map(Vec::len).max().unwrap_or(1);
    let total: f64 = by_round.iter().flatten().sum();
    let mut decided = 0.0;
    let last = (0..rounds)
        .find(|&k| {
            decided += by_round.iter().map(|r| r.get(k).copied().unwrap_or(0.0)).sum::<f64>();
            decided >= 0.999 * total
        })
        .unwrap_or(rounds - 1)
        .max(2);
    let top = by_round
        .iter()
        .flat_map(|r| r.iter().take(last + 1))
        .copied()
        .fold(0.0, f64::max)
        .max(1e-9)
        * 1.1;
    let caption = if names.len() > MAX_SEAT_LINES {
        format!("{caption} (first {MAX_SEAT_LINES} of {} seats)", names.len())
    } else {
        caption.to_owned()
    };
    let mut chart = ChartBuilder::on(area)
        .caption(caption, font(CAPTION_SIZE))
        .margin(14)
        .x_label_area_size(48)
        .y_label_area_size(76)
        .build_cartesian_2d(0_f64..(last + 1) as f64, 0_f64..top)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels((last + 1).clamp(2, 10))
        .y_max_light_lines(1)
        .label_style(font(LABEL_SIZE))
        .axis_desc_style(font(TEXT_SIZE))
        .x_desc("round k (each seat's k-th turn)")
        .y_desc("P(first to finish, on round k)")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{:.*}%", percent_decimals(top), 100.0 * y))
        .draw()?;
    for (i, (name, row)) in names.iter().zip(by_round).enumerate().take(MAX_SEAT_LINES) {
        let color = seat_color(i);
        let won: f64 = row.iter().sum();
        chart
            .draw_series(LineSeries::new(
                row.iter().enumerate().take(last + 1).map(|(k, &p)| (k as f64, p)),
                color.stroke_width(3),
            ))?
            .label(format!("{name}: {}", percent(won)))
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], color.stroke_width(3)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .margin(12)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(font(TEXT_SIZE))
        .draw()?;
    Ok(())
}
