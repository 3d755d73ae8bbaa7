//! The board as a grid of text: cells, snake heads, ladder feet, cell effects and tokens.

use std::fmt::Write as _;

use snl_engine::{Board, Game, Seat};

use snl_words::{CellKind, Hue};

pub(super) const RED: &str = "\x1b[31m";
pub(super) const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[1;33m";
pub(super) const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

pub(super) fn paint(text: &str, code: &str, color: bool) -> String {
    if color && !text.trim().is_empty() { format!("{code}{text}{RESET}") } else { text.to_owned() }
}

/// One letter per seat: the first letter of its name, or its seat number when two names share one.
pub fn token_marks(seats: &[Seat]) -> Vec<char> {
    let firsts: Vec<char> = seats
        .iter()
        .map(|s| s.name.chars().next().map_or('?', |c| c.to_ascii_uppercase()))
        .collect();
    firsts
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let shared = firsts.iter().filter(|d| *d == c).count() > 1;
            if shared { char::from_digit(((i + 1) % 36) as u32, 36).unwrap_or('?') } else { *c }
        })
        .collect()
}

/// Draws `board` as a boustrophedon grid, cell 1 at the bottom-left, with snake heads (`v`), ladder
/// feet (`^`) and the tokens at `tokens` (`(cell, mark)`; position 0 is listed under the grid).
pub fn draw_board(board: &Board, tokens: &[(u32, char)], color: bool) -> String {
    let layout = board.layout();
    let digits = board.size().to_string().len().max(2);
    let inner = digits + 3; // number, jump mark, two token marks
    let rule: String = {
        let cell = "-".repeat(inner);
        let mut line = String::from("+");
        for _ in 0..layout.width() {
            line.push_str(&cell);
            line.push('+');
        }
        line
    };
    let mut out = String::new();
    for row in (0..layout.rows()).rev() {
        out.push_str(&rule);
        out.push('\n');
        out.push('|');
        for column in 0..layout.width() {
            let Some(cell) = layout.cell_at(row, column) else {
                out.push_str(&" ".repeat(inner));
                out.push('|');
                continue;
            };
            let number = format!("{cell:>digits$}");
            let number = if cell == board.size() { paint(&number, BOLD, color) } else { number };
            // The grid marks where a jump starts and each effect; where a jump ends is in the
            // lists under it.
            let mark = match CellKind::of(board, cell) {
                kind @ (CellKind::SnakeHead | CellKind::LadderFoot) => {
                    let picture = kind.picture();
                    paint(picture.mark, ansi(picture.hue), color)
                }
                CellKind::SnakeTail | CellKind::LadderTop | CellKind::Plain => " ".to_owned(),
                effect => paint(effect.picture().mark, BOLD, color),
            };
            let here: Vec<char> =
                tokens.iter().filter(|(c, _)| *c == cell).map(|(_, m)| *m).collect();
            let marks = match here.as_slice() {
                [] => "  ".to_owned(),
                [a] => format!("{a} "),
                [a, b] => format!("{a}{b}"),
                many => format!("{}", many.len().min(9)) + "*",
            };
            out.push_str(&number);
            out.push_str(&mark);
            out.push_str(&paint(&marks, YELLOW, color));
            out.push('|');
        }
        out.push('\n');
    }
    out.push_str(&rule);
    out.push('\n');
    let list = |snakes: bool| {
        let items: Vec<String> = board
            .jumps()
            .iter()
            .filter(|j| j.is_snake() == snakes)
            .map(|j| format!("{}→{}", j.from, j.to))
            .collect();
        if items.is_empty() { "none".to_owned() } else { items.join(" ") }
    };
    let _ = writeln!(out, "{} (v) {}", paint("Snakes ", RED, color), list(true));
    let _ = writeln!(out, "{} (^) {}", paint("Ladders", GREEN, color), list(false));
    if board.has_effects() {
        for kind in CellKind::EFFECTS {
            let picture = kind.picture();
            let items: Vec<String> = board
                .effects()
                .iter()
                .filter(|e| CellKind::of_effect(&e.effect) == kind)
                .map(|e| {
                    let exits: Vec<String> = e.effect.exits().iter().map(u32::to_string).collect();
                    if exits.is_empty() {
                        e.at.to_string()
                    } else {
                        format!("{}→{}", e.at, exits.join("|"))
                    }
                })
                .collect();
            if !items.is_empty() {
                let word = format!("{:<8}", capitalised(picture.name));
                let (word, mark) = (paint(&word, BOLD, color), picture.mark);
                let _ = writeln!(out, "{word} ({mark}) {}", items.join(" "));
            }
        }
        let meanings: Vec<&str> = snl_words::legend(board)
            .into_iter()
            .filter(|line| CellKind::EFFECTS.contains(&line.kind))
            .map(|line| line.meaning)
            .collect();
        for pair in meanings.chunks(2) {
            let _ = writeln!(out, "  {}", pair.join(" · "));
        }
    }
    let waiting: Vec<String> =
        tokens.iter().filter(|(c, _)| *c == 0).map(|(_, m)| m.to_string()).collect();
    if !waiting.is_empty() {
        let _ = writeln!(out, "Off the board: {}", waiting.join(" "));
    }
    out
}

/// The grid's mark of a cell effect (SPEC §3b), listed in the legend under the grid.
pub fn effect_mark(effect: &snl_engine::Effect) -> &'static str {
    CellKind::of_effect(effect).picture().mark
}

/// The ANSI colour of a hue.
fn ansi(hue: Hue) -> &'static str {
    match hue {
        Hue::Red => RED,
        Hue::Green => GREEN,
        Hue::Yellow | Hue::Cyan | Hue::Blue | Hue::Magenta | Hue::Plain => BOLD,
    }
}

/// `word` with its first letter in capitals.
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

/// The board with every token of `game` on it.
pub fn draw_game(game: &Game, color: bool) -> String {
    let marks = token_marks(game.seats());
    let tokens: Vec<(u32, char)> =
        game.positions().iter().copied().zip(marks.iter().copied()).collect();
    draw_board(game.board(), &tokens, color)
}

#[cfg(test)]
mod tests {
    use snl_engine::{Preset, Rules, SeatKind};

    use super::*;

    #[test]
    fn a_100_cell_board_fits_in_80_columns_with_cell_1_bottom_left() {
        let board = Board::new(&Preset::Classic.spec(), &Rules::default()).unwrap();
        let text = draw_board(&board, &[(1, 'A'), (1, 'B'), (100, 'C')], false);
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        let rows: Vec<&str> = text.lines().filter(|l| l.starts_with('|')).collect();
        assert_eq!(rows.len(), 10);
        assert!(rows[9].starts_with("|  1 AB|  2   |"), "{}", rows[9]);
        assert!(rows[0].starts_with("|100 C |"), "{}", rows[0]);
        assert!(rows[0].contains(" 99v  "), "{}", rows[0]);
        assert!(rows[9].contains("  6^  "), "{}", rows[9]);
        assert!(text.contains("99→54") && text.contains("6→25"));
    }

    #[test]
    fn effects_are_marked_on_the_grid_and_explained_under_it_within_80_columns() {
        let board = Board::new(&Preset::Party.spec(), &Rules::default()).unwrap();
        let text = draw_board(&board, &[], false);
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        for mark in [" 47x ", " 12+ ", " 24# ", " 45@ "] {
            assert!(text.contains(mark), "{mark} missing from\n{text}");
        }
        assert!(text.contains("(@) 45→20|57|76 80→30|63|96\n"), "{text}");
        assert!(text.contains("(x) 47 83\n") && text.contains("(#) 24 59 89\n"), "{text}");
        let classic = Board::new(&Preset::Classic.spec(), &Rules::default()).unwrap();
        assert!(
            !draw_board(&classic, &[], false).contains("wormhole"),
            "no legend without effects"
        );
    }

    #[test]
    fn shared_initials_fall_back_to_seat_numbers() {
        let seats = vec![
            Seat::new("ann", SeatKind::Human),
            Seat::new("Al", SeatKind::Easy),
            Seat::new("Bo", SeatKind::Easy),
        ];
        assert_eq!(token_marks(&seats), vec!['1', '2', 'B']);
    }
}
