//! The one look of every plot: the font, its sizes, the colours, and the small pieces (keys,
//! captions) the panels share.

use plotters::{
    coord::Shift,
    element::DashedPathElement,
    prelude::*,
    style::text_anchor::{HPos, Pos, VPos},
};

use super::DrawError;

/// The family name the built-in font is registered under.
pub(super) const FONT: &str = "snl-hack";
/// The title of a whole figure.
pub(super) const TITLE_SIZE: f64 = 19.0;
/// The caption of a panel.
pub(super) const CAPTION_SIZE: f64 = 22.0;
/// Axis descriptions, keys and notes.
pub(super) const TEXT_SIZE: f64 = 18.0;
/// Tick labels.
pub(super) const LABEL_SIZE: f64 = 16.0;

/// Bars of a distribution.
pub(super) const BAR: RGBColor = RGBColor(0x3b, 0x6e, 0xa8);
/// The cumulative line over a distribution.
pub(super) const CUMULATIVE: RGBColor = RGBColor(0xd6, 0x5f, 0x00);
/// A mean marked on a distribution.
pub(super) const MEAN: RGBColor = RGBColor(0x22, 0x22, 0x22);
pub(super) const LADDER: RGBColor = RGBColor(0x1b, 0x8a, 0x3c);
pub(super) const SNAKE: RGBColor = RGBColor(0xb3, 0x1b, 0x1b);
/// The last cell, landed on once in every game and so left off the colour scale.
pub(super) const FINISH: RGBColor = RGBColor(0xc8, 0xc8, 0xc8);
/// Effect cells' marks on the heat map.
pub(super) const EFFECT: RGBColor = RGBColor(0x6a, 0x1b, 0x9a);
/// Grey text: cell numbers, notes.
pub(super) const QUIET: RGBColor = RGBColor(0x44, 0x44, 0x44);

/// Seat colours, in seating order (Okabe and Ito's palette, told apart by colour-blind eyes too).
const SEATS: [RGBColor; 8] = [
    RGBColor(0x00, 0x72, 0xb2),
    RGBColor(0xe6, 0x9f, 0x00),
    RGBColor(0x00, 0x9e, 0x73),
    RGBColor(0xd5, 0x5e, 0x00),
    RGBColor(0xcc, 0x79, 0xa7),
    RGBColor(0x56, 0xb4, 0xe9),
    RGBColor(0x8c, 0x6d, 0x00),
    RGBColor(0x00, 0x00, 0x00),
];

/// Seats drawn one by one at most; the key says when more were left out.
pub(super) const MAX_SEAT_LINES: usize = SEATS.len();

/// The colour of seat `i`.
pub(super) fn seat_color(i: usize) -> RGBColor {
    SEATS[i % SEATS.len()]
}

/// A count as pixels or rows: drawing coordinates are `i32`.
pub(super) fn px(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// A font of the plots' family at `size`.
pub(super) fn font(size: f64) -> TextStyle<'static> {
    (FONT, size).into_font().color(&BLACK)
}

/// White (0) through yellow and orange to dark red (1): the heat map's scale.
pub(super) fn heat(t: f64) -> RGBColor {
    const STOPS: [(f64, [f64; 3]); 4] = [
        (0.0, [255.0, 255.0, 255.0]),
        (0.35, [255.0, 221.0, 87.0]),
        (0.7, [240.0, 120.0, 32.0]),
        (1.0, [150.0, 0.0, 24.0]),
    ];
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let stop = STOPS.windows(2).position(|w| t <= w[1].0).unwrap_or(STOPS.len() - 2);
    let ((from, low), (to, high)) = (STOPS[stop], STOPS[stop + 1]);
    let along = if to > from { (t - from) / (to - from) } else { 0.0 };
    let mix = |k: usize| (low[k] + (high[k] - low[k]) * along).round() as u8;
    RGBColor(mix(0), mix(1), mix(2))
}

/// What a key entry shows before its words.
#[derive(Clone, Copy, Debug)]
pub(super) enum Symbol {
    /// A line with an arrowhead at its right end, dashed or not.
    Arrow { color: RGBColor, dashed: bool },
    /// A filled square.
    Swatch(RGBColor),
    /// A dot, as on a cell where a jump starts.
    Dot(RGBColor),
    /// Nothing: a note.
    Blank,
}

/// Draws a key: one row per entry, a symbol then its words, from `(x, y)` down.
pub(super) fn draw_key<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    entries: &[(Symbol, String)],
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    let step = (TEXT_SIZE * 1.25) as i32;
    for (i, (symbol, words)) in entries.iter().enumerate() {
        let y = y + step * px(i) + step / 2;
        match *symbol {
            Symbol::Arrow { color, dashed } => {
                draw_arrow(area, (x, y), (x + 34, y), color, dashed)?;
            }
            Symbol::Swatch(color) => {
                area.draw(&Rectangle::new([(x + 9, y - 8), (x + 25, y + 8)], color.filled()))?;
                area.draw(&Rectangle::new([(x + 9, y - 8), (x + 25, y + 8)], QUIET))?;
            }
            Symbol::Dot(color) => draw_dot(area, (x + 17, y), color)?,
            Symbol::Blank => {}
        }
        let style = font(TEXT_SIZE).pos(Pos::new(HPos::Left, VPos::Center));
        area.draw(&Text::new(words.clone(), (x + 44, y), style))?;
    }
    Ok(())
}

/// A line from `from` to `to` in pixels, solid or dashed, with a dot at its start and an
/// arrowhead at its end: the way a jump goes.
pub(super) fn draw_arrow<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    from: (i32, i32),
    to: (i32, i32),
    color: RGBColor,
    dashed: bool,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    let line = color.mix(0.9).stroke_width(3);
    if dashed {
        area.draw(&DashedPathElement::new([from, to], 7, 5, line))?;
    } else {
        area.draw(&PathElement::new([from, to], line))?;
    }
    area.draw(&Circle::new(from, 4, color.filled()))?;
    let (dx, dy) = (f64::from(to.0 - from.0), f64::from(to.1 - from.1));
    let length = dx.hypot(dy);
    if length >= 1.0 {
        let (ux, uy) = (dx / length, dy / length);
        let (back, side) = (11.0, 6.0);
        let at = |along: f64, across: f64| {
            let x = f64::from(to.0) - ux * along - uy * across;
            let y = f64::from(to.1) - uy * along + ux * across;
            (x.round() as i32, y.round() as i32)
        };
        area.draw(&Polygon::new(vec![to, at(back, side), at(back, -side)], color.filled()))?;
    }
    Ok(())
}

/// A dot with a white rim: where a jump starts when its arrow is not drawn.
pub(super) fn draw_dot<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    at: (i32, i32),
    color: RGBColor,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    area.draw(&Circle::new(at, 6, WHITE.filled()))?;
    area.draw(&Circle::new(at, 4, color.filled()))?;
    Ok(())
}

/// The decimals an axis of percentages up to `top` (a probability) needs for its ticks to differ.
pub(super) fn percent_decimals(top: f64) -> usize {
    match 100.0 * top {
        x if x < 0.1 => 3,
        x if x < 1.0 => 2,
        _ => 1,
    }
}

/// The smallest round number (1, 1.5, 2, 3, 4, 5, 6 or 8 times a power of ten) at or above `x`,
/// where a scale can end.
pub(super) fn round_up(x: f64) -> f64 {
    if x <= 0.0 || !x.is_finite() {
        return 1.0;
    }
    let power = 10_f64.powi(x.log10().floor() as i32);
    [1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|&v| v >= x * (1.0 - 1e-12))
        .unwrap_or(10.0 * power)
}

/// A number of landings or a probability with three significant digits, for scales.
pub(super) fn short(x: f64) -> String {
    if x == 0.0 {
        return "0".to_owned();
    }
    let digits = (2 - x.abs().log10().floor() as i32).clamp(0, 6) as usize;
    format!("{x:.digits$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heat_runs_from_white_to_dark_red() {
        assert_eq!(heat(0.0), RGBColor(255, 255, 255));
        assert_eq!(heat(1.0), RGBColor(150, 0, 24));
        assert_eq!(heat(0.35), RGBColor(255, 221, 87));
        assert_eq!(heat(f64::NAN), heat(0.0));
    }

    #[test]
    fn heat_darkens_as_it_rises() {
        let darkness = |c: RGBColor| 765 - (u32::from(c.0) + u32::from(c.1) + u32::from(c.2));
        for i in 0..100 {
            let (a, b) = (heat(f64::from(i) / 100.0), heat(f64::from(i + 1) / 100.0));
            assert!(darkness(a) <= darkness(b), "{i}: {a:?} {b:?}");
        }
    }

    #[test]
    fn scales_end_on_round_numbers() {
        assert!((round_up(0.0295) - 0.03).abs() < 1e-12);
        assert!((round_up(0.343) - 0.4).abs() < 1e-12);
        assert!((round_up(0.5079) - 0.6).abs() < 1e-12);
        assert!((round_up(0.3) - 0.3).abs() < 1e-12);
        assert!((round_up(0.9) - 1.0).abs() < 1e-12);
        assert_eq!(percent_decimals(0.005), 2);
        assert_eq!(percent_decimals(0.016), 1);
        assert_eq!(percent_decimals(0.0005), 3);
    }

    #[test]
    fn scale_labels_keep_three_digits() {
        assert_eq!(short(0.673_4), "0.673");
        assert_eq!(short(12.34), "12.3");
        assert_eq!(short(0.001_234), "0.00123");
        assert_eq!(short(0.0), "0");
    }
}
