//! A distribution of lengths (turns of one player, rolls of a game): bars of P(k), grouped when
//! long, the cumulative P(≤ k) on a second axis, and the mean when it is known.

use plotters::{coord::Shift, element::DashedPathElement, prelude::*};

use super::{
    DrawError,
    style::{BAR, CUMULATIVE, LABEL_SIZE, MEAN, TEXT_SIZE, font, percent_decimals},
};

/// Bars drawn at most: longer distributions are grouped, several lengths to a bar.
const MAX_BARS: usize = 300;

/// What the panel shows.
pub(super) struct Lengths<'a> {
    pub(super) caption: String,
    /// The unit in the singular: "turn", "roll".
    pub(super) unit: &'a str,
    /// The x axis: "turns k".
    pub(super) x_desc: &'a str,
    /// `probability[k]` = P(length = k), from 0 to the last length shown.
    pub(super) probability: Vec<f64>,
    /// `cumulative[k]` = P(length ≤ k), as long as `probability`.
    pub(super) cumulative: Vec<f64>,
    /// The mean length, marked by a line, when known.
    pub(super) mean: Option<f64>,
}

/// Draws the panel; returns the bars drawn and the lengths each covers.
pub(super) fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    lengths: &Lengths,
) -> Result<(usize, usize), DrawError>
where
    DB::ErrorType: 'static,
{
    let last = lengths.probability.len().saturating_sub(1).max(1);
    let first = lengths.probability.iter().position(|&p| p > 0.0).unwrap_or(1).max(1);
    let per_bar = (last + 1 - first).div_ceil(MAX_BARS).max(1);
    let p = |k: usize| lengths.probability.get(k).copied().unwrap_or(0.0);
    let bars: Vec<(usize, f64)> =
        (first..=last).step_by(per_bar).map(|k| (k, (k..k + per_bar).map(p).sum())).collect();
    let top = bars.iter().map(|&(_, p)| p).fold(0.0, f64::max).max(1e-9) * 1.1;
    let x_end = (last + per_bar) as f64;
    let unit = lengths.unit;
    let what = if per_bar == 1 {
        format!("P(k {unit}s)")
    } else {
        format!("P(a bar of {per_bar} {unit}s)")
    };
    let mut chart = ChartBuilder::on(area)
        .caption(&lengths.caption, font(super::style::CAPTION_SIZE))
        .margin(14)
        .x_label_area_size(48)
        .y_label_area_size(76)
        .right_y_label_area_size(72)
        .build_cartesian_2d(0_f64..x_end, 0_f64..top)?
        .set_secondary_coord(0_f64..x_end, 0_f64..1.0);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(((last + per_bar) / per_bar).clamp(2, 10))
        .y_max_light_lines(1)
        .label_style(font(LABEL_SIZE))
        .axis_desc_style(font(TEXT_SIZE))
        .x_desc(lengths.x_desc)
        .y_desc(what)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{:.*}%", percent_decimals(top), 100.0 * y))
        .draw()?;
    chart
        .configure_secondary_axes()
        .label_style(font(LABEL_SIZE))
        .axis_desc_style(font(TEXT_SIZE))
        .y_desc(format!("P(k {unit}s or fewer)"))
        .y_label_formatter(&|y| format!("{:.0}%", 100.0 * y))
        .draw()?;
    chart
        .draw_series(bars.iter().map(|&(k, p)| {
            let x = k as f64;
            Rectangle::new([(x - 0.5, 0.0), (x - 0.5 + per_bar as f64, p)], BAR.filled())
        }))?
        .label(if per_bar == 1 {
            format!("chance of k {unit}s")
        } else {
            format!("chance, {per_bar} {unit}s to a bar")
        })
        .legend(|(x, y)| Rectangle::new([(x, y - 6), (x + 18, y + 6)], BAR.filled()));
    chart
        .draw_secondary_series(LineSeries::new(
            lengths.cumulative.iter().enumerate().map(|(k, &c)| (k as f64 + 0.5, c)),
            CUMULATIVE.stroke_width(3),
        ))?
        .label(format!("{unit}s or fewer (right axis)"))
        .legend(|(x, y)| PathElement::new([(x, y), (x + 18, y)], CUMULATIVE.stroke_width(3)));
    if let Some(mean) = lengths.mean.filter(|m| m.is_finite() && *m < x_end) {
        chart
            .draw_series([DashedPathElement::new(
                [(mean, 0.0), (mean, top)],
                6,
                4,
                MEAN.stroke_width(2),
            )])?
            .label(format!("mean {mean:.2} {unit}s"))
            .legend(|(x, y)| PathElement::new([(x, y), (x + 18, y)], MEAN.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::MiddleRight)
        .margin(12)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(font(TEXT_SIZE))
        .draw()?;
    Ok((bars.len(), per_bar))
}
