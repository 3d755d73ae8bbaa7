//! How a game looks in a terminal: the board as a grid, and each event as a line of plain words.

use std::{
    fmt::Write as _,
    io::{self, Write},
};

use snl_engine::{Board, Event, Game, Observer, Roll, Seat};

const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[1;33m";
const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

fn paint(text: &str, code: &str, color: bool) -> String {
    if color && !text.trim().is_empty() { format!("{code}{text}{RESET}") } else { text.to_owned() }
}

/// One letter per seat: the first letter of its name, or its seat number when two names share one.
pub(crate) fn token_marks(seats: &[Seat]) -> Vec<char> {
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
pub(crate) fn draw_board(board: &Board, tokens: &[(u32, char)], color: bool) -> String {
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
            let mark = match board.jump_at(cell) {
                Some(to) if to < cell => paint("v", RED, color),
                Some(_) => paint("^", GREEN, color),
                None => " ".to_owned(),
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
    let waiting: Vec<String> =
        tokens.iter().filter(|(c, _)| *c == 0).map(|(_, m)| m.to_string()).collect();
    if !waiting.is_empty() {
        let _ = writeln!(out, "Off the board: {}", waiting.join(" "));
    }
    out
}

/// The board with every token of `game` on it.
pub(crate) fn draw_game(game: &Game, color: bool) -> String {
    let marks = token_marks(game.seats());
    let tokens: Vec<(u32, char)> =
        game.positions().iter().copied().zip(marks.iter().copied()).collect();
    draw_board(game.board(), &tokens, color)
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn a_roll(roll: Roll) -> String {
    match roll.dice() {
        [one] if matches!(one, 8 | 11 | 18) => format!("an {one}"),
        [one] => format!("a {one}"),
        many => {
            let parts: Vec<String> = many.iter().map(u8::to_string).collect();
            format!("{} = {}", parts.join("+"), roll.total())
        }
    }
}

fn place(position: u32) -> String {
    if position == 0 { "the start".to_owned() } else { position.to_string() }
}

/// Tells a game in plain words, one line per thing that happens.
pub(crate) struct Narrator<'w> {
    out: &'w mut dyn Write,
    color: bool,
    rolled: Option<Roll>,
    // A bounce or a win past N is told together with the move it causes.
    overshoot: Option<u32>,
    error: Option<io::Error>,
}

impl<'w> Narrator<'w> {
    pub(crate) fn new(out: &'w mut dyn Write, color: bool) -> Narrator<'w> {
        Narrator { out, color, rolled: None, overshoot: None, error: None }
    }

    /// The first write error, if any (an observer cannot fail, so it keeps it for the caller).
    pub(crate) fn take_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }

    /// Writes `text` as it is (a drawn board).
    pub(crate) fn raw(&mut self, text: &str) {
        self.line(text);
    }

    fn line(&mut self, text: &str) {
        if self.error.is_none()
            && let Err(e) = writeln!(self.out, "{text}")
        {
            self.error = Some(e);
        }
    }

    /// The sentence for `event`, if it has one of its own (rolls are told with their move).
    fn sentence(&mut self, game: &Game, event: &Event) -> Option<String> {
        let name = |seat: usize| game.seats()[seat].name.clone();
        let n = game.board().size();
        let rolled = |me: &mut Narrator<'_>| me.rolled.take().map_or_else(String::new, a_roll);
        Some(match event {
            Event::GameStarted { players, board_size } => {
                let names: Vec<String> = players.iter().map(|&p| name(p)).collect();
                format!(
                    "New game on a board of {board_size} cells: {}. Rules: {}.",
                    names.join(", "),
                    game.rules()
                )
            }
            Event::DiceRolled { dice, .. } => {
                self.rolled = Some(*dice);
                return None;
            }
            Event::Moved { player, from, to } => {
                let who = name(*player);
                let what = rolled(self);
                match self.overshoot.take() {
                    Some(_) if *to == n => format!(
                        "{who} rolled {what}, more than enough: moved from {} to {n}",
                        place(*from)
                    ),
                    Some(excess) => format!(
                        "{who} rolled {what}, {excess} past {n}: bounced back from {} to {to}",
                        place(*from)
                    ),
                    None => format!("{who} rolled {what} and moved from {} to {to}", place(*from)),
                }
            }
            Event::Overshoot { player, position, roll } => {
                if game.rules().overshoot != snl_engine::Overshoot::Stay {
                    self.overshoot = Some(position + roll - n);
                    return None;
                }
                format!(
                    "{} rolled {} but needs exactly {} to reach {n}: stays on {}",
                    name(*player),
                    rolled(self),
                    n - position,
                    place(*position)
                )
            }
            Event::Snake { player, from, to } => {
                format!("Oh no! A snake at {from} took {} down to {to}", name(*player))
            }
            Event::Ladder { player, from, to } => {
                format!("Yes! A ladder at {from} took {} up to {to}", name(*player))
            }
            Event::BonusRoll { player } => format!("{} rolls again", name(*player)),
            Event::TurnVoided { player, back_to } => format!(
                "{} rolled {}: too many top faces in a row, the turn is void and the token goes back to {}",
                name(*player),
                rolled(self),
                place(*back_to)
            ),
            Event::Stayed { player, position } => {
                format!(
                    "{} rolled {} and chose to stay on {}",
                    name(*player),
                    rolled(self),
                    place(*position)
                )
            }
            Event::Autopilot { player, on: true } => {
                format!("{} hands the seat to the computer (autopilot on)", name(*player))
            }
            Event::Autopilot { player, on: false } => {
                format!("{} takes the seat back (autopilot off)", name(*player))
            }
            Event::PlayerFinished { player, rank } => {
                if *rank == 1 {
                    format!("{} reached {n} and wins!", name(*player))
                } else {
                    format!("{} reached {n} and finishes {}", name(*player), ordinal(*rank))
                }
            }
            Event::GameEnded { ranking } => {
                let mut text = String::from("Final ranking:");
                for (i, &seat) in ranking.iter().enumerate() {
                    let _ = write!(
                        text,
                        "
  {}. {} (on {})",
                        i + 1,
                        name(seat),
                        place(game.positions()[seat])
                    );
                }
                text
            }
            _ => return None,
        })
    }
}

impl Observer for Narrator<'_> {
    fn event(&mut self, game: &Game, event: &Event) {
        if let Some(text) = self.sentence(game, event) {
            let text = match event {
                Event::Snake { .. } => paint(&text, RED, self.color),
                Event::Ladder { .. } => paint(&text, GREEN, self.color),
                Event::PlayerFinished { .. } => paint(&text, BOLD, self.color),
                _ => text,
            };
            self.line(&text);
        }
    }
}

/// Writes each event as one JSON object per line, players by name (SPEC §6).
pub(crate) struct JsonLines<'w> {
    out: &'w mut dyn Write,
    error: Option<io::Error>,
}

impl<'w> JsonLines<'w> {
    pub(crate) fn new(out: &'w mut dyn Write) -> JsonLines<'w> {
        JsonLines { out, error: None }
    }

    pub(crate) fn take_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }
}

/// The JSON form of an event: seat indices become names.
pub(crate) fn event_json(event: &Event, seats: &[Seat]) -> serde_json::Value {
    let mut value = serde_json::to_value(event).expect("events serialize");
    let name = |v: &serde_json::Value| {
        v.as_u64()
            .and_then(|i| seats.get(i as usize))
            .map_or(serde_json::Value::Null, |s| serde_json::Value::String(s.name.clone()))
    };
    if let Some(map) = value.as_object_mut() {
        if let Some(p) = map.get_mut("player") {
            *p = name(p);
        }
        for key in ["players", "ranking"] {
            if let Some(serde_json::Value::Array(list)) = map.get_mut(key) {
                for p in list.iter_mut() {
                    *p = name(p);
                }
            }
        }
    }
    value
}

impl Observer for JsonLines<'_> {
    fn event(&mut self, game: &Game, event: &Event) {
        if self.error.is_none() {
            let value = event_json(event, game.seats());
            if let Err(e) = writeln!(self.out, "{value}") {
                self.error = Some(e);
            }
        }
    }
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
    fn shared_initials_fall_back_to_seat_numbers() {
        let seats = vec![
            Seat::new("ann", SeatKind::Human),
            Seat::new("Al", SeatKind::Easy),
            Seat::new("Bo", SeatKind::Easy),
        ];
        assert_eq!(token_marks(&seats), vec!['1', '2', 'B']);
    }

    #[test]
    fn event_json_names_players() {
        let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Bob", SeatKind::Easy)];
        let v = event_json(&Event::Snake { player: 1, from: 52, to: 42 }, &seats);
        assert_eq!(v.to_string(), r#"{"type":"snake","player":"Bob","from":52,"to":42}"#);
        let v = event_json(&Event::GameEnded { ranking: vec![1, 0] }, &seats);
        assert_eq!(v["ranking"], serde_json::json!(["Bob", "Ann"]));
    }

    #[test]
    fn autopilot_is_told_in_words_and_as_json() {
        let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Bob", SeatKind::Easy)];
        let v = event_json(&Event::Autopilot { player: 0, on: true }, &seats);
        assert_eq!(v.to_string(), r#"{"type":"autopilot","player":"Ann","on":true}"#);
        let board = Board::new(&Preset::Classic.spec(), &Rules::default()).unwrap();
        let game = Game::new(board, Rules::default(), seats).unwrap();
        let mut out = Vec::new();
        let mut narrator = Narrator::new(&mut out, false);
        narrator.event(&game, &Event::Autopilot { player: 0, on: true });
        narrator.event(&game, &Event::Autopilot { player: 0, on: false });
        drop(narrator);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "Ann hands the seat to the computer (autopilot on)\n\
             Ann takes the seat back (autopilot off)\n"
        );
    }

    #[test]
    fn ordinals_read_naturally() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal).to_vec();
        assert_eq!(
            got,
            ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
        );
    }
}
