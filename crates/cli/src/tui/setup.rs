//! The setup form of a bare `snl` in a terminal: board, rules, and each seat's name and who plays
//! it, every field with a default, so Enter alone starts the usual game. ↑↓ (Tab) move between
//! fields, ←→ change a choice, typing edits a name, Enter starts, Esc leaves.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use snl_engine::{RuleSet, SeatKind};

/// The boards the form offers (a board file is given with `--board FILE`).
pub(crate) const BOARDS: [&str; 5] = ["classic", "milton-bradley", "kids", "empty", "random"];
/// Who can play a seat.
pub(crate) const KINDS: [SeatKind; 4] =
    [SeatKind::Human, SeatKind::Easy, SeatKind::Greedy, SeatKind::Hard];
/// The most seats the form offers.
pub(crate) const MAX_SEATS: usize = 8;
/// The longest name, in characters.
const MAX_NAME: usize = 24;

/// The form's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Form {
    /// The boards offered: [`BOARDS`], after the command line's board file if one was given.
    boards: Vec<String>,
    pub(crate) board: usize,
    pub(crate) rules: usize,
    pub(crate) seats: Vec<(String, SeatKind)>,
    /// 0 board, 1 rules, 2 number of players, then one per seat.
    pub(crate) field: usize,
    /// What is wrong with the form, said when Enter is pressed.
    pub(crate) problem: Option<String>,
    /// `Some(true)`: start; `Some(false)`: leave.
    pub(crate) done: Option<bool>,
}

impl Form {
    /// The form with the command line's board and rules when the form offers them.
    pub(crate) fn new(board: &str, rules: Option<&str>) -> Form {
        let mut boards: Vec<String> = BOARDS.iter().map(|b| (*b).to_owned()).collect();
        if !boards.iter().any(|b| b == board) {
            boards.insert(0, board.to_owned());
        }
        Form {
            board: boards.iter().position(|b| b == board).unwrap_or(0),
            boards,
            rules: rules
                .and_then(|r| RuleSet::ALL.iter().position(|s| s.as_str() == r))
                .unwrap_or(0),
            seats: vec![
                ("You".to_owned(), SeatKind::Human),
                ("Computer".to_owned(), SeatKind::Hard),
            ],
            field: 0,
            problem: None,
            done: None,
        }
    }

    pub(crate) fn board_name(&self) -> &str {
        &self.boards[self.board]
    }

    pub(crate) fn rules_name(&self) -> &'static str {
        RuleSet::ALL[self.rules].as_str()
    }

    /// The seats as `--player` gives them.
    pub(crate) fn players(&self) -> Vec<String> {
        self.seats.iter().map(|(name, kind)| format!("{}:{}", name.trim(), kind.as_str())).collect()
    }

    /// One key.
    pub(crate) fn key(&mut self, key: KeyEvent) {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let fields = 3 + self.seats.len();
        match key.code {
            KeyCode::Char('c' | 'd') if ctrl => self.done = Some(false),
            KeyCode::Esc => self.done = Some(false),
            KeyCode::Enter => match self.problem() {
                Some(problem) => self.problem = Some(problem),
                None => self.done = Some(true),
            },
            KeyCode::Up | KeyCode::BackTab => self.field = (self.field + fields - 1) % fields,
            KeyCode::Down | KeyCode::Tab => self.field = (self.field + 1) % fields,
            KeyCode::Left => self.change(-1),
            KeyCode::Right | KeyCode::Char(' ') if self.field < 3 || key.code == KeyCode::Right => {
                self.change(1);
            }
            KeyCode::Backspace if self.field >= 3 => {
                self.seats[self.field - 3].0.pop();
            }
            KeyCode::Char(c) if self.field >= 3 && !ctrl => {
                let name = &mut self.seats[self.field - 3].0;
                if name.chars().count() < MAX_NAME && !c.is_control() {
                    name.push(c);
                }
            }
            _ => {}
        }
    }

    /// Moves the field's choice `by` (−1 or 1) with wrap-around; the count stops at its ends.
    fn change(&mut self, by: i32) {
        let step = |i: usize, n: usize| if by < 0 { (i + n - 1) % n } else { (i + 1) % n };
        match self.field {
            0 => self.board = step(self.board, self.boards.len()),
            1 => self.rules = step(self.rules, RuleSet::ALL.len()),
            2 => {
                let count = if by < 0 { self.seats.len() - 1 } else { self.seats.len() + 1 };
                let count = count.clamp(2, MAX_SEATS);
                while self.seats.len() < count {
                    let name = format!("Computer {}", self.seats.len());
                    self.seats.push((name, SeatKind::Hard));
                }
                self.seats.truncate(count);
            }
            seat => {
                let kind = &mut self.seats[seat - 3].1;
                let at = KINDS.iter().position(|k| k == kind).unwrap_or(0);
                *kind = KINDS[step(at, KINDS.len())];
            }
        }
        self.problem = None;
    }

    /// Why the form cannot start, if it cannot.
    fn problem(&self) -> Option<String> {
        for (i, (name, _)) in self.seats.iter().enumerate() {
            let name = name.trim();
            if name.is_empty() {
                return Some(format!("Player {} needs a name.", i + 1));
            }
            if name.contains(':') {
                return Some(format!("'{name}' contains ':'; pick another name."));
            }
            if self.seats[..i].iter().any(|(other, _)| other.trim() == name) {
                return Some(format!("'{name}' is taken; pick another name."));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(form: &mut Form, code: KeyCode) {
        form.key(KeyEvent::new(code, KeyModifiers::NONE));
    }

    #[test]
    fn a_board_file_from_the_command_line_is_the_default() {
        let mut form = Form::new("my.toml", Some("bonus-six"));
        press(&mut form, KeyCode::Enter);
        assert_eq!((form.board_name(), form.rules_name()), ("my.toml", "bonus-six"));
    }

    #[test]
    fn enter_alone_starts_the_usual_game() {
        let mut form = Form::new("classic", None);
        press(&mut form, KeyCode::Enter);
        assert_eq!(form.done, Some(true));
        assert_eq!((form.board_name(), form.rules_name()), ("classic", "standard"));
        assert_eq!(form.players(), ["You:human", "Computer:hard"]);
    }

    #[test]
    fn keys_change_the_board_the_rules_the_seats_and_the_names() {
        let mut form = Form::new("classic", None);
        press(&mut form, KeyCode::Right);
        press(&mut form, KeyCode::Down);
        press(&mut form, KeyCode::Left);
        press(&mut form, KeyCode::Down);
        press(&mut form, KeyCode::Right);
        press(&mut form, KeyCode::Down);
        for _ in 0..3 {
            press(&mut form, KeyCode::Backspace);
        }
        for c in "王小明".chars() {
            press(&mut form, KeyCode::Char(c));
        }
        press(&mut form, KeyCode::Down);
        press(&mut form, KeyCode::Left);
        assert_eq!(form.board_name(), "milton-bradley");
        assert_eq!(form.rules_name(), RuleSet::ALL.last().unwrap().as_str());
        assert_eq!(form.players(), ["王小明:human", "Computer:greedy", "Computer 2:hard"]);
        press(&mut form, KeyCode::Down);
        for _ in 0..10 {
            press(&mut form, KeyCode::Backspace);
        }
        for c in "Computer".chars() {
            press(&mut form, KeyCode::Char(c));
        }
        press(&mut form, KeyCode::Enter);
        assert_eq!(form.done, None);
        assert_eq!(form.problem.as_deref(), Some("'Computer' is taken; pick another name."));
        press(&mut form, KeyCode::Esc);
        assert_eq!(form.done, Some(false));
    }
}
