// Long on purpose: the form's fields, keys and the setup they make are one state machine, tested here field by field.
//! The setup form of a bare `snl` in a terminal: board (and, for a random board, its size and
//! cell effects), the seed, rules and the choice rule, mode (and a race's rounds), the clocks,
//! and each seat's name and who plays
//! it, every field with a default, so Enter alone starts the usual game. ↑↓ (Tab) move between
//! fields, ←→ change a choice, typing edits a name, Enter starts, Esc leaves.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use snl_engine::{Choice, Preset, RuleSet, SeatKind};
use snl_words::seat_default_name;

/// What the form sets, as the command line would give it (`--board`, `--size`, `--effects`,
/// `--seed`, `--rules`, `--choice`, `--mode`, `--rounds`, `--turn-time`, `--game-time`,
/// `--player`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Choices {
    pub board: String,
    pub size: u32,
    pub effects: u32,
    pub seed: Option<u64>,
    pub choice: Option<String>,
    pub rules: Option<String>,
    pub mode: Option<String>,
    pub rounds: Option<u32>,
    pub turn_time: Option<u64>,
    pub game_time: Option<u64>,
    pub players: Vec<String>,
}

/// Who can play a seat.
pub(crate) const KINDS: [SeatKind; 4] =
    [SeatKind::Human, SeatKind::Easy, SeatKind::Greedy, SeatKind::Hard];
/// The most seats the form offers.
pub(crate) const MAX_SEATS: usize = 8;
/// The longest name, in characters.
const MAX_NAME: usize = 24;
/// The sizes of a random board offered (`--size` takes others).
pub(crate) const SIZES: [u32; 9] = [20, 30, 50, 64, 100, 144, 200, 400, 1000];
/// The most cell effects the form places on a random board (`--effects` takes more).
pub(crate) const MAX_EFFECTS: u32 = 20;
/// The most rounds of a race the form offers (`--rounds` takes more).
pub(crate) const MAX_ROUNDS: u32 = 100;
/// The rounds of a race when the form first shows them.
const DEFAULT_ROUNDS: u32 = 10;
/// The turn clocks offered, in seconds (none: off).
pub(crate) const TURN_TIMES: [Option<u64>; 9] =
    [None, Some(10), Some(15), Some(20), Some(30), Some(45), Some(60), Some(90), Some(120)];
/// The game clocks offered, in seconds (none: off).
pub(crate) const GAME_TIMES: [Option<u64>; 9] =
    [None, Some(60), Some(120), Some(180), Some(300), Some(600), Some(900), Some(1800), Some(3600)];

/// One line of the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Field {
    Board,
    /// Cells of a random board (shown for `random` only).
    Size,
    /// Cell effects on a random board (shown for `random` only).
    Effects,
    /// The seed of the dice (and of a random board): digits, or none for a new one.
    Seed,
    Rules,
    /// The choice rule: none, may-pass, pick-die.
    Choice,
    /// Classic or race.
    Mode,
    /// Rounds of a race (shown for a race only).
    Rounds,
    TurnTime,
    GameTime,
    /// The number of players.
    Players,
    /// A seat's name and who plays it.
    Seat(usize),
}

/// The form's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Form {
    /// The boards offered: every preset (`Preset::ALL`, in the order every front end lists
    /// them), after the command line's board file if one was given.
    boards: Vec<String>,
    pub(crate) board: usize,
    /// The sizes offered: [`SIZES`], with the command line's among them.
    sizes: Vec<u32>,
    /// Index into `sizes`.
    pub(crate) size: usize,
    /// Cell effects placed on a random board.
    pub(crate) effects: u32,
    /// The seed typed (digits); empty: a new seed.
    pub(crate) seed: String,
    pub(crate) rules: usize,
    /// Index into [`Choice::ALL`].
    pub(crate) choice: usize,
    /// The rounds of a race; `None`: classic.
    pub(crate) race: Option<u32>,
    /// The turn clocks offered: [`TURN_TIMES`], with the command line's among them.
    turn_times: Vec<Option<u64>>,
    /// Index into `turn_times`.
    pub(crate) turn_time: usize,
    /// The game clocks offered: [`GAME_TIMES`], with the command line's among them.
    game_times: Vec<Option<u64>>,
    /// Index into `game_times`.
    pub(crate) game_time: usize,
    pub(crate) seats: Vec<(String, SeatKind)>,
    /// How many seats' names a person has typed in, by seat: a name still as the form made it
    /// ("You", "Computer 2 (hard)") is replaced by the first key typed, not added to, and
    /// follows what plays the seat.
    typed: Vec<bool>,
    /// The field the keys change.
    pub(crate) field: Field,
    /// What is wrong with the form, said when Enter is pressed.
    pub(crate) problem: Option<String>,
    /// `Some(true)`: start; `Some(false)`: leave.
    pub(crate) done: Option<bool>,
}

impl Form {
    /// The form with the command line's board and rules when the form offers them.
    pub(crate) fn new(board: &str, rules: Option<&str>) -> Form {
        let mut boards: Vec<String> = Preset::ALL.iter().map(|p| p.as_str().to_owned()).collect();
        if !boards.iter().any(|b| b == board) {
            boards.insert(0, board.to_owned());
        }
        Form {
            board: boards.iter().position(|b| b == board).unwrap_or(0),
            boards,
            sizes: SIZES.to_vec(),
            size: SIZES.iter().position(|&n| n == 100).unwrap_or(0),
            effects: 0,
            seed: String::new(),
            choice: 0,
            rules: rules
                .and_then(|r| RuleSet::ALL.iter().position(|s| s.as_str() == r))
                .unwrap_or(0),
            race: None,
            turn_times: TURN_TIMES.to_vec(),
            turn_time: 0,
            game_times: GAME_TIMES.to_vec(),
            game_time: 0,
            seats: vec![
                ("You".to_owned(), SeatKind::Human),
                (seat_default_name(1, SeatKind::Hard), SeatKind::Hard),
            ],
            typed: Vec::new(),
            field: Field::Board,
            problem: None,
            done: None,
        }
    }

    /// Starts from the rest of the command line: `--effects`, a race's `--rounds` and the
    /// clocks, kept as given (the keys then move within the form's ranges).
    pub(crate) fn with(
        mut self,
        effects: u32,
        race: Option<u32>,
        turn_time: Option<u64>,
        game_time: Option<u64>,
    ) -> Form {
        self.effects = effects;
        self.race = race;
        let place = |times: &mut Vec<Option<u64>>, time: Option<u64>| {
            if !times.contains(&time) {
                times.push(time);
                times.sort_unstable();
            }
            times.iter().position(|&t| t == time).unwrap_or(0)
        };
        self.turn_time = place(&mut self.turn_times, turn_time);
        self.game_time = place(&mut self.game_times, game_time);
        self
    }

    /// Starts from the command line's `--size`, `--seed` and `--choice` (a choice rule the form
    /// does not know is left as the form's first).
    pub(crate) fn with_more(mut self, size: u32, seed: Option<u64>, choice: Option<&str>) -> Form {
        if !self.sizes.contains(&size) {
            self.sizes.push(size);
            self.sizes.sort_unstable();
        }
        self.size = self.sizes.iter().position(|&n| n == size).unwrap_or(0);
        self.seed = seed.map_or_else(String::new, |n| n.to_string());
        self.choice =
            choice.and_then(|c| Choice::ALL.iter().position(|k| k.as_str() == c)).unwrap_or(0);
        self
    }

    /// The cells of a random board.
    pub(crate) fn size(&self) -> u32 {
        self.sizes[self.size]
    }

    /// The seed typed, if any.
    pub(crate) fn seed(&self) -> Option<u64> {
        self.seed.parse().ok()
    }

    pub(crate) fn choice_name(&self) -> &'static str {
        Choice::ALL[self.choice].as_str()
    }

    pub(crate) fn board_name(&self) -> &str {
        &self.boards[self.board]
    }

    pub(crate) fn rules_name(&self) -> &'static str {
        RuleSet::ALL[self.rules].as_str()
    }

    /// The cell effects asked for: on a random board only.
    pub(crate) fn effects(&self) -> u32 {
        if self.board_name() == "random" { self.effects } else { 0 }
    }

    /// The turn clock, in seconds.
    pub(crate) fn turn_time(&self) -> Option<u64> {
        self.turn_times[self.turn_time]
    }

    /// The game clock, in seconds.
    pub(crate) fn game_time(&self) -> Option<u64> {
        self.game_times[self.game_time]
    }

    /// The seats as `--player` gives them.
    pub(crate) fn players(&self) -> Vec<String> {
        self.seats.iter().map(|(name, kind)| format!("{}:{}", name.trim(), kind.as_str())).collect()
    }

    /// Writes the form's choices into `args`, as the command line would give them.
    pub(crate) fn fill(&self, args: &mut Choices) {
        self.board_name().clone_into(&mut args.board);
        if self.board_name() == "random" {
            args.size = self.size();
        }
        args.effects = self.effects();
        args.seed = self.seed();
        args.rules = Some(self.rules_name().to_owned());
        args.choice = Some(self.choice_name().to_owned());
        args.mode = Some(if self.race.is_some() { "race" } else { "classic" }.to_owned());
        args.rounds = self.race;
        args.turn_time = self.turn_time();
        args.game_time = self.game_time();
        args.players = self.players();
    }

    /// The fields shown, top to bottom: size and effects for a random board only, rounds for a
    /// race only.
    pub(crate) fn fields(&self) -> Vec<Field> {
        let mut fields = vec![Field::Board];
        if self.board_name() == "random" {
            fields.extend([Field::Size, Field::Effects]);
        }
        fields.extend([Field::Seed, Field::Rules, Field::Choice, Field::Mode]);
        if self.race.is_some() {
            fields.push(Field::Rounds);
        }
        fields.extend([Field::TurnTime, Field::GameTime, Field::Players]);
        fields.extend((0..self.seats.len()).map(Field::Seat));
        fields
    }

    /// One key.
    pub(crate) fn key(&mut self, key: KeyEvent) {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let fields = self.fields();
        let at = fields.iter().position(|&f| f == self.field).unwrap_or(0);
        let seat = match self.field {
            Field::Seat(i) => Some(i),
            _ => None,
        };
        match key.code {
            KeyCode::Char('c' | 'd') if ctrl => self.done = Some(false),
            KeyCode::Esc => self.done = Some(false),
            KeyCode::Enter => match self.problem() {
                Some(problem) => self.problem = Some(problem),
                None => self.done = Some(true),
            },
            KeyCode::Up | KeyCode::BackTab => {
                self.field = fields[(at + fields.len() - 1) % fields.len()];
            }
            KeyCode::Down | KeyCode::Tab => self.field = fields[(at + 1) % fields.len()],
            KeyCode::Left => self.change(-1),
            KeyCode::Right => self.change(1),
            KeyCode::Char(c @ '0'..='9') if self.field == Field::Seed => {
                // Digits while they make a seed (a u64).
                let longer = format!("{}{c}", self.seed);
                if longer.parse::<u64>().is_ok() {
                    self.seed = longer;
                }
            }
            KeyCode::Backspace if self.field == Field::Seed => {
                self.seed.pop();
            }
            KeyCode::Char(' ') if seat.is_none() => self.change(1),
            KeyCode::Backspace => {
                if let Some(i) = seat {
                    self.type_into(i);
                    self.seats[i].0.pop();
                }
            }
            KeyCode::Char(c) if !ctrl => {
                if let Some(i) = seat
                    && !c.is_control()
                {
                    // The form's own name goes at the first key typed.
                    if !self.typed.get(i).copied().unwrap_or(false) {
                        self.seats[i].0.clear();
                    }
                    self.type_into(i);
                    let name = &mut self.seats[i].0;
                    if name.chars().count() < MAX_NAME {
                        name.push(c);
                    }
                }
            }
            _ => {}
        }
    }

    /// Marks seat `i`'s name as a person's.
    fn type_into(&mut self, i: usize) {
        if self.typed.len() <= i {
            self.typed.resize(i + 1, false);
        }
        self.typed[i] = true;
    }

    /// Moves the field's choice `by` (−1 or 1): lists wrap around, numbers stop at their ends.
    fn change(&mut self, by: i32) {
        let step = |i: usize, n: usize| if by < 0 { (i + n - 1) % n } else { (i + 1) % n };
        let count = |n: u32, min: u32, max: u32| {
            if by < 0 { n.saturating_sub(1).max(min) } else { (n + 1).min(max) }
        };
        match self.field {
            Field::Board => self.board = step(self.board, self.boards.len()),
            Field::Size => self.size = step(self.size, self.sizes.len()),
            // A seed is typed; an arrow clears it (a new seed each game).
            Field::Seed => self.seed.clear(),
            Field::Choice => self.choice = step(self.choice, Choice::ALL.len()),
            Field::Effects => self.effects = count(self.effects, 0, MAX_EFFECTS.max(self.effects)),
            Field::Rules => self.rules = step(self.rules, RuleSet::ALL.len()),
            Field::Mode => {
                self.race = match self.race {
                    None => Some(DEFAULT_ROUNDS),
                    Some(_) => None,
                };
            }
            Field::Rounds => {
                self.race = self.race.map(|k| count(k, 1, MAX_ROUNDS.max(k)));
            }
            Field::TurnTime => self.turn_time = step(self.turn_time, self.turn_times.len()),
            Field::GameTime => self.game_time = step(self.game_time, self.game_times.len()),
            Field::Players => {
                let count = if by < 0 { self.seats.len() - 1 } else { self.seats.len() + 1 };
                let count = count.clamp(2, MAX_SEATS);
                while self.seats.len() < count {
                    let name = seat_default_name(self.seats.len(), SeatKind::Hard);
                    self.seats.push((name, SeatKind::Hard));
                }
                self.seats.truncate(count);
                self.typed.truncate(count);
            }
            Field::Seat(i) => {
                let kind = &mut self.seats[i].1;
                let at = KINDS.iter().position(|k| k == kind).unwrap_or(0);
                *kind = KINDS[step(at, KINDS.len())];
                // A name nobody typed says what plays the seat.
                if !self.typed.get(i).copied().unwrap_or(false) {
                    self.seats[i].0 = seat_default_name(i, self.seats[i].1);
                }
            }
        }
        self.problem = None;
    }

    /// Moves down to `field` (for tests, which then read as the fields they change).
    #[cfg(test)]
    pub(crate) fn go_to(&mut self, field: Field) {
        for _ in 0..self.fields().len() {
            if self.field == field {
                return;
            }
            self.key(KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
        }
        panic!("{field:?} is not shown");
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
        assert_eq!(form.players(), ["You:human", "Computer (hard):hard"]);
    }

    #[test]
    fn keys_change_the_board_the_rules_the_seats_and_the_names() {
        let mut form = Form::new("classic", None);
        press(&mut form, KeyCode::Right);
        form.go_to(Field::Rules);
        press(&mut form, KeyCode::Left);
        form.go_to(Field::Players);
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
        assert_eq!(
            form.players(),
            ["王小明:human", "Computer (greedy):greedy", "Computer 2 (hard):hard"]
        );
        press(&mut form, KeyCode::Down);
        for _ in 0..20 {
            press(&mut form, KeyCode::Backspace);
        }
        for c in "Computer (greedy)".chars() {
            press(&mut form, KeyCode::Char(c));
        }
        press(&mut form, KeyCode::Enter);
        assert_eq!(form.done, None);
        assert_eq!(
            form.problem.as_deref(),
            Some("'Computer (greedy)' is taken; pick another name.")
        );
        press(&mut form, KeyCode::Esc);
        assert_eq!(form.done, Some(false));
    }

    #[test]
    fn a_name_typed_over_the_forms_own_replaces_it_and_then_is_added_to() {
        let mut form = Form::new("classic", None);
        while form.field != Field::Seat(0) {
            press(&mut form, KeyCode::Down);
        }
        for c in "Ann".chars() {
            press(&mut form, KeyCode::Char(c));
        }
        press(&mut form, KeyCode::Down);
        press(&mut form, KeyCode::Backspace);
        press(&mut form, KeyCode::Char('X'));
        assert_eq!(form.players()[0], "Ann:human", "not 'YouAnn'");
        assert_eq!(
            form.players()[1],
            "Computer (hardX:hard",
            "a name edited is edited, not replaced"
        );
    }

    #[test]
    fn keys_pick_the_party_board_and_a_race_of_three_rounds() {
        let mut form = Form::new("classic", None);
        for _ in 0..4 {
            press(&mut form, KeyCode::Right); // milton-bradley, kids, empty, party
        }
        form.go_to(Field::Mode);
        press(&mut form, KeyCode::Right); // race: rounds appear
        press(&mut form, KeyCode::Down); // rounds
        for _ in 0..7 {
            press(&mut form, KeyCode::Left); // 10 down to 3
        }
        press(&mut form, KeyCode::Enter);
        assert_eq!(form.done, Some(true));
        let mut args = Choices::default();
        form.fill(&mut args);
        assert_eq!(args.board, "party");
        assert_eq!((args.mode.as_deref(), args.rounds), (Some("race"), Some(3)));
        assert_eq!(args.players, ["You:human", "Computer (hard):hard"]);
        assert_eq!((args.turn_time, args.game_time), (None, None));
    }

    #[test]
    fn a_random_board_takes_effects_and_the_clocks_are_offered() {
        let mut form = Form::new("classic", None);
        assert!(!form.fields().contains(&Field::Effects));
        press(&mut form, KeyCode::Left); // random: size and effects appear
        press(&mut form, KeyCode::Down);
        assert_eq!(form.field, Field::Size);
        press(&mut form, KeyCode::Left); // 64 cells
        press(&mut form, KeyCode::Down);
        assert_eq!(form.field, Field::Effects);
        for _ in 0..5 {
            press(&mut form, KeyCode::Right);
        }
        form.go_to(Field::TurnTime);
        press(&mut form, KeyCode::Right);
        press(&mut form, KeyCode::Down);
        press(&mut form, KeyCode::Left);
        press(&mut form, KeyCode::Enter);
        let mut args = Choices::default();
        form.fill(&mut args);
        assert_eq!((args.board.as_str(), args.size, args.effects), ("random", 64, 5));
        assert_eq!(args.mode.as_deref(), Some("classic"));
        assert_eq!((args.turn_time, args.game_time), (Some(10), Some(3600)));
        // Another board after all: the effects go with random.
        form.field = Field::Board;
        press(&mut form, KeyCode::Right);
        form.fill(&mut args);
        assert_eq!((args.board.as_str(), args.effects), ("classic", 0));
    }

    #[test]
    fn the_command_lines_effects_rounds_and_clocks_are_kept_as_given() {
        let form = Form::new("random", None).with(30, Some(250), Some(7), Some(100_000));
        let mut args = Choices::default();
        form.fill(&mut args);
        assert_eq!((args.effects, args.rounds), (30, Some(250)));
        assert_eq!((args.turn_time, args.game_time), (Some(7), Some(100_000)));
        let mut form = form;
        form.field = Field::TurnTime;
        press(&mut form, KeyCode::Right);
        assert_eq!(form.turn_time(), Some(10), "7 s sits in order among the choices");
    }

    #[test]
    fn the_seed_is_typed_in_digits_and_the_choice_rule_is_offered() {
        let mut form = Form::new("classic", None).with_more(100, None, Some("may-pass"));
        assert_eq!(form.choice_name(), "may-pass", "the command line's choice rule");
        form.go_to(Field::Seed);
        for c in "42x7".chars() {
            press(&mut form, KeyCode::Char(c));
        }
        press(&mut form, KeyCode::Backspace);
        press(&mut form, KeyCode::Char('1'));
        form.go_to(Field::Choice);
        press(&mut form, KeyCode::Right);
        let mut args = Choices { size: 100, ..Choices::default() };
        form.fill(&mut args);
        assert_eq!((args.seed, args.choice.as_deref()), (Some(421), Some("pick-die")));
        assert_eq!(args.size, 100, "a size only for a random board");
        // A seed past u64's range is not taken; an arrow clears the seed: a new one each game.
        form.go_to(Field::Seed);
        for _ in 0..30 {
            press(&mut form, KeyCode::Char('9'));
        }
        assert_eq!(form.seed().map(|s| s.to_string().len()), Some(19));
        press(&mut form, KeyCode::Right);
        form.fill(&mut args);
        assert_eq!(args.seed, None);
        // Every choice rule the engine has is offered, in turn.
        let offered: Vec<&str> = (0..Choice::ALL.len())
            .map(|_| {
                form.go_to(Field::Choice);
                press(&mut form, KeyCode::Right);
                form.choice_name()
            })
            .collect();
        assert_eq!(offered.len(), Choice::ALL.len());
        assert!(Choice::ALL.iter().all(|c| offered.contains(&c.as_str())), "{offered:?}");
    }
}
