//! Numbers and tables for people: percentages that read at a glance (`0.0257%`, `< 0.0001%`,
//! never `2.57e-2%`) and tables whose columns line up whatever their contents.

use std::io::Write;

/// The most characters of a value that a message shows (SPEC §7: one sentence naming the value).
pub(crate) const VALUE_SHOWN: usize = 40;

/// The most characters of a player's name that a table shows (as many as a room's seat takes).
pub(crate) const NAME_SHOWN: usize = 32;

/// The most characters of any one cell of a table: a guard, so that no column is ever wider
/// than a screen can show or `format!` can pad.
const CELL_SHOWN: usize = 200;

/// A player's name as a table or a message shows it ([`shown`], [`NAME_SHOWN`] characters).
pub(crate) fn shown_name(name: &str) -> String {
    shown(name, NAME_SHOWN)
}

/// A table's cell as every table shows it ([`shown`], at most [`CELL_SHOWN`] characters): names
/// recorded by any version, of any length, with any characters, never break a table.
pub(crate) fn shown_cell(cell: &str) -> String {
    shown(cell, CELL_SHOWN)
}

/// `text` as a table or a message shows it: each control character written as an escape
/// (`\n`, `\u{1b}`), so that nothing read from a file or a database can move the cursor or
/// break a line, and cut to `max` characters, the last one `…` when it was cut.
pub(crate) fn shown(text: &str, max: usize) -> String {
    let mut out = String::new();
    let mut count = 0;
    for c in text.chars() {
        let piece = escaped(c);
        let len = piece.chars().count();
        if count + len > max {
            let mut cut: String = out.chars().take(max.saturating_sub(1)).collect();
            cut.push('…');
            return cut;
        }
        out.push_str(&piece);
        count += len;
    }
    out
}

/// A path as a message names it: as [`shown`] with [`VALUE_SHOWN`] characters, but a long path
/// keeps its end (the file's name and the folders nearest it), cut at the front with `…`.
pub(crate) fn shown_path(path: &std::path::Path) -> String {
    let text = path.to_string_lossy();
    let whole = shown(&text, usize::MAX);
    if whole.chars().count() <= VALUE_SHOWN {
        return whole;
    }
    let mut kept = Vec::new();
    let mut count = 1; // the `…`
    for piece in text.chars().rev().map(escaped) {
        let len = piece.chars().count();
        if count + len > VALUE_SHOWN {
            break;
        }
        count += len;
        kept.push(piece);
    }
    std::iter::once("…".to_owned()).chain(kept.into_iter().rev()).collect()
}

/// A character as [`shown`] writes it: itself, or its escape when it is a control character.
fn escaped(c: char) -> String {
    if c.is_control() { c.escape_debug().collect() } else { String::from(c) }
}

/// A count and its noun, singular for one: "1 snake", "0 snakes", "8 snakes".
pub(crate) use snl_words::counted;

/// The smallest percentage written as a number; anything smaller (but not zero) is `< 0.0001%`.
const SMALLEST_PERCENT: f64 = 0.0001;

/// A probability as a percentage: two decimals from 1% up, three significant digits below (at
/// most four decimals), `< 0.0001%` for the tiny tails, `> 99.99%` for what is almost but not
/// quite certain, and `0%` and `100%` only when exact.
pub(crate) fn percent(p: f64) -> String {
    if p.is_nan() {
        return "-".to_owned();
    }
    if p <= 0.0 {
        return "0%".to_owned();
    }
    if p >= 1.0 {
        return "100%".to_owned();
    }
    let x = 100.0 * p;
    if x < SMALLEST_PERCENT {
        return format!("< {SMALLEST_PERCENT}%");
    }
    let decimals = if x >= 1.0 { 2 } else { (2 - x.log10().floor() as i32).clamp(2, 4) as usize };
    let text = format!("{x:.decimals$}");
    if text.starts_with("100") {
        return "> 99.99%".to_owned();
    }
    format!("{text}%")
}

/// Intervals of probabilities as `lo% to hi%`, each end padded so that the ends line up in a
/// column.
pub(crate) fn percent_intervals(intervals: &[(f64, f64)]) -> Vec<String> {
    let ends: Vec<(String, String)> =
        intervals.iter().map(|&(lo, hi)| (percent(lo), percent(hi))).collect();
    let lo_width = ends.iter().map(|(lo, _)| lo.chars().count()).max().unwrap_or(0);
    let hi_width = ends.iter().map(|(_, hi)| hi.chars().count()).max().unwrap_or(0);
    ends.iter().map(|(lo, hi)| format!("{lo:>lo_width$} to {hi:>hi_width$}")).collect()
}

/// How a column's cells sit in its width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Align {
    /// Text: names, kinds.
    Left,
    /// Numbers, so that their last digits line up.
    Right,
}

/// A table of text cells printed with every column as wide as its widest cell, indented by two
/// spaces, columns three spaces apart, trailing spaces trimmed.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    columns: Vec<(String, Align)>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column headings (an empty heading is allowed).
    pub(crate) fn new(columns: &[(&str, Align)]) -> Table {
        Table {
            columns: columns.iter().map(|&(h, a)| (h.to_owned(), a)).collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row; missing cells are empty, extra cells are an error of the caller.
    ///
    /// # Panics
    ///
    /// Panics if the row has more cells than the table has columns.
    pub(crate) fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) {
        let row: Vec<String> = cells.into_iter().map(Into::into).collect();
        assert!(row.len() <= self.columns.len(), "a row has more cells than the table columns");
        self.rows.push(row);
    }

    /// The table's lines, heading first.
    pub(crate) fn lines(&self) -> Vec<String> {
        let rows: Vec<Vec<String>> =
            self.rows.iter().map(|r| r.iter().map(|cell| shown_cell(cell)).collect()).collect();
        let width = |i: usize| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .chain([&self.columns[i].0])
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..self.columns.len()).map(width).collect();
        let line = |cells: Vec<&str>| {
            let parts: Vec<String> = cells
                .iter()
                .zip(&self.columns)
                .zip(&widths)
                .map(|((cell, (_, align)), &w)| match align {
                    Align::Left => format!("{cell:<w$}"),
                    Align::Right => format!("{cell:>w$}"),
                })
                .collect();
            format!("  {}", parts.join("   ")).trim_end().to_owned()
        };
        let heading = self.columns.iter().map(|(h, _)| h.as_str()).collect();
        let mut lines = vec![line(heading)];
        for row in &rows {
            let cells = (0..self.columns.len()).map(|i| row.get(i).map_or("", String::as_str));
            lines.push(line(cells.collect()));
        }
        lines
    }

    /// Writes the table's lines.
    pub(crate) fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        for line in self.lines() {
            writeln!(out, "{line}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_read_as_plain_decimals_down_to_the_tiny_tails() {
        assert_eq!(percent(0.5), "50.00%");
        assert_eq!(percent(0.025_03), "2.50%");
        assert_eq!(percent(0.001_52), "0.152%");
        assert_eq!(percent(0.000_257), "0.0257%");
        assert_eq!(percent(0.000_057_1), "0.0057%");
        assert_eq!(percent(0.000_001_2), "0.0001%");
        assert_eq!(percent(0.000_000_9), "< 0.0001%");
        assert_eq!(percent(1e-300), "< 0.0001%");
    }

    #[test]
    fn zero_and_certainty_are_written_only_when_exact() {
        assert_eq!(percent(0.0), "0%");
        assert_eq!(percent(-1e-18), "0%");
        assert_eq!(percent(1.0), "100%");
        assert_eq!(percent(0.999_999_9), "> 99.99%");
        assert_eq!(percent(0.9999), "99.99%");
        assert_eq!(percent(f64::NAN), "-");
    }

    #[test]
    fn no_percentage_is_in_scientific_notation() {
        for e in -320..=0 {
            for m in [1.0, 2.57, 9.99] {
                let p = m * 10_f64.powi(e);
                let text = percent(p);
                assert!(!text.contains('e') && text.ends_with('%'), "{p}: {text}");
            }
        }
    }

    #[test]
    fn interval_ends_line_up() {
        assert_eq!(
            percent_intervals(&[(0.0199, 0.0339), (0.4562, 0.4999)]),
            ["1.99% to  3.39%", "45.62% to 49.99%"].map(|s| format!("{s:>16}"))
        );
    }

    #[test]
    fn table_columns_line_up_whatever_their_width() {
        let mut t = Table::new(&[("player", Align::Left), ("win rate", Align::Right)]);
        t.row(["Ann", "50.79%"]);
        t.row(["Bartholomew", "< 0.0001%"]);
        t.row(["Cy", "0%"]);
        assert_eq!(
            t.lines(),
            [
                "  player         win rate",
                "  Ann              50.79%",
                "  Bartholomew   < 0.0001%",
                "  Cy                   0%",
            ]
        );
    }

    #[test]
    fn shown_text_escapes_control_characters_and_is_cut_with_an_ellipsis() {
        assert_eq!(shown("Ann", 5), "Ann");
        assert_eq!(shown("a\u{1b}[2Jb\nc", 40), "a\\u{1b}[2Jb\\nc");
        assert_eq!(shown("abcdefgh", 5), "abcd…");
        assert_eq!(shown("abcde", 5), "abcde");
        // An escape is never cut in half.
        assert_eq!(shown("abc\u{1b}", 5), "abc…");
        assert_eq!(shown(&"x".repeat(70_000), NAME_SHOWN).chars().count(), NAME_SHOWN);
    }

    #[test]
    fn a_long_path_keeps_its_end() {
        use std::path::Path;
        assert_eq!(shown_path(Path::new("/tmp/game.json")), "/tmp/game.json");
        let long = format!("/{}/saves/game.json", "d".repeat(60));
        let cut = shown_path(Path::new(&long));
        assert_eq!(cut.chars().count(), VALUE_SHOWN);
        assert!(cut.starts_with('…') && cut.ends_with("ddd/saves/game.json"), "{cut}");
    }

    #[test]
    fn a_huge_cell_does_not_stop_a_table() {
        let mut t = Table::new(&[("name", Align::Left), ("n", Align::Right)]);
        t.row(["x".repeat(70_000), "1".to_owned()]);
        t.row(["y".to_owned(), "22".to_owned()]);
        let lines = t.lines();
        assert_eq!(lines[1].chars().count(), lines[2].chars().count());
        assert!(lines[1].chars().count() < 300);
    }

    #[test]
    fn missing_cells_are_blank_and_lines_have_no_trailing_spaces() {
        let mut t = Table::new(&[("a", Align::Right), ("b", Align::Left), ("", Align::Left)]);
        t.row(["1", "x"]);
        t.row(["22", "yy", "note"]);
        assert_eq!(t.lines(), ["   a   b", "   1   x", "  22   yy   note"]);
    }
}
