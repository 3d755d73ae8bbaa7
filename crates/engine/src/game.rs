//! The game state machine: seats, turns, ranks, history.
//!
//! The caller drives: [`Game::pending`] says what the game awaits (a roll from a seat, a choice
//! among options, nothing once it is over) and [`Game::apply`] takes one [`Input`] and returns the
//! events it caused. An input the game does not await is refused with an [`ApplyError`] and
//! changes nothing. [`Game::play_turn`] and [`Game::play_to_end`] are short drivers over that
//! door for callers that have the dice and the decisions at hand ([`RollSource`], [`Decider`]).

use std::{fmt, str::FromStr};

use serde::{Deserialize, Serialize};

use crate::{
    board::{Board, Jump},
    dice::Dice,
    dice::{Roll, RollError, RollSource},
    event::{Event, Observer},
    rules::{AfterRoll, Bonus, Choice, Finish, Overshoot, Rules},
};

/// What drives a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatKind {
    /// A person at the keyboard.
    Human,
    /// A computer that decides at random.
    Easy,
    /// A computer that takes the best immediate landing.
    Greedy,
    /// A computer that plays the optimal policy.
    Hard,
}

impl SeatKind {
    /// Every kind.
    pub const ALL: &'static [SeatKind] =
        &[SeatKind::Human, SeatKind::Easy, SeatKind::Greedy, SeatKind::Hard];

    /// The name used in `NAME:KIND`.
    pub fn as_str(self) -> &'static str {
        match self {
            SeatKind::Human => "human",
            SeatKind::Easy => "easy",
            SeatKind::Greedy => "greedy",
            SeatKind::Hard => "hard",
        }
    }

    /// True for every kind but [`SeatKind::Human`].
    pub fn is_computer(self) -> bool {
        self != SeatKind::Human
    }
}

impl fmt::Display for SeatKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for SeatKind {
    type Err = SeatError;
    fn from_str(s: &str) -> Result<SeatKind, SeatError> {
        SeatKind::ALL
            .iter()
            .copied()
            .find(|k| k.as_str() == s.trim().to_ascii_lowercase())
            .ok_or_else(|| SeatError::UnknownKind { kind: s.to_owned() })
    }
}

/// A seat at the table: a name and what plays it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Seat {
    /// Shown in every message; unique in a game.
    pub name: String,
    /// Who decides and rolls.
    pub kind: SeatKind,
}

impl Seat {
    /// A seat.
    pub fn new(name: impl Into<String>, kind: SeatKind) -> Seat {
        Seat { name: name.into(), kind }
    }
}

impl FromStr for Seat {
    type Err = SeatError;

    /// Parses `NAME:KIND`, e.g. `Alice:human`.
    fn from_str(s: &str) -> Result<Seat, SeatError> {
        let (name, kind) =
            s.rsplit_once(':').ok_or_else(|| SeatError::Malformed { text: s.to_owned() })?;
        let name = name.trim();
        if name.is_empty() {
            return Err(SeatError::Malformed { text: s.to_owned() });
        }
        Ok(Seat { name: name.to_owned(), kind: kind.parse()? })
    }
}

/// A seat that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SeatError {
    /// Not `NAME:KIND`.
    #[error("player '{text}' is not of the form NAME:KIND (for example Alice:human)")]
    Malformed {
        /// The text given.
        text: String,
    },
    /// An unknown KIND.
    #[error("unknown player kind '{kind}': expected human, easy, greedy or hard")]
    UnknownKind {
        /// The kind given.
        kind: String,
    },
}

/// Whether the game has begun or ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// No turn played yet.
    NotStarted,
    /// Turns are being played.
    Running,
    /// The game has ended.
    Finished,
}

/// One way to play a roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveOption {
    /// Cells to move; 0 means staying put.
    pub steps: u32,
    /// Where the token would rest (after overshoot and jumps).
    pub lands: u32,
    /// Whether this option counts as a top-face roll for the bonus rule.
    pub top_face: bool,
}

/// A choice put to a seat's strategy: only asked when there are two options or more.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The seat deciding.
    pub seat: usize,
    /// Where its token stands.
    pub position: u32,
    /// The roll being played.
    pub roll: Roll,
    /// The options, at least two.
    pub options: Vec<MoveOption>,
    /// Where the seat's turn began: where on-max void would send it back.
    pub turn_start: u32,
    /// Top-face rolls already made in this turn (the bonus streak before this roll).
    pub streak: u32,
}

/// What the game awaits next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// A throw of `dice` by `seat`: the first roll of its turn, or a bonus roll.
    Roll {
        /// Who rolls.
        seat: usize,
        /// What to throw (two dice under pick-die).
        dice: Dice,
        /// True for a roll within a turn already begun (a bonus roll).
        again: bool,
    },
    /// A choice among the options of the roll just made: answer with [`Input::Choose`].
    Choice(Decision),
    /// Nothing: the game is over.
    Over,
}

/// One input to a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "input", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Input {
    /// The dice the awaited seat threw.
    Roll {
        /// Each die.
        roll: Roll,
    },
    /// The index of the chosen option in [`Decision::options`].
    Choose {
        /// The option.
        option: usize,
    },
}

/// Why an input was refused; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ApplyError {
    /// The game has already ended.
    #[error("the game is over")]
    GameOver,
    /// A roll came while the game awaits a choice.
    #[error("the game awaits a choice among {count} options, not a roll")]
    ChoiceAwaited {
        /// How many options there are.
        count: usize,
    },
    /// A choice came while the game awaits a roll.
    #[error("the game awaits a roll, not a choice")]
    RollAwaited,
    /// The roll is not one the dice in play can show.
    #[error("a roll of {faces:?} cannot be thrown with {dice}")]
    BadRoll {
        /// The faces given.
        faces: Vec<u8>,
        /// The dice in play.
        dice: Dice,
    },
    /// The option index names no option.
    #[error("there is no option {option}: the options are numbered 0 to {last}")]
    NoSuchOption {
        /// The index given.
        option: usize,
        /// The largest valid index.
        last: usize,
    },
}

/// Where a turn stands: whose it is, where it began and the top-face streak so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Turn {
    seat: usize,
    begin: u32,
    streak: u32,
    /// False until the turn's first roll is applied.
    begun: bool,
}

/// The phase of a turn: the state behind [`Game::pending`].
#[derive(Clone, Debug, PartialEq, Eq)]
enum Phase {
    Roll(Turn),
    Choice { turn: Turn, roll: Roll, options: Vec<MoveOption> },
    Over,
}

/// A game's state between inputs in a few numbers per seat (never the history): what undo keeps
/// per turn. [`Game::rewind`] goes back to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    positions: Vec<u32>,
    ranks: Vec<Option<u32>>,
    ranking: Vec<usize>,
    current: usize,
    status: Status,
    turns: u32,
    turns_by_seat: Vec<u32>,
    rolls_by_seat: Vec<u32>,
    history_len: usize,
    phase: Phase,
}

impl Checkpoint {
    /// Rolls in the history at this point.
    pub fn history_len(&self) -> usize {
        self.history_len
    }

    /// Turns played at this point.
    pub fn turns(&self) -> u32 {
        self.turns
    }
}

/// Chooses among options when the rules offer a choice.
pub trait Decider {
    /// Returns the index of the chosen option in `decision.options` (clamped if out of range).
    fn decide(&mut self, game: &Game, decision: &Decision) -> usize;
}

/// Always takes the first option: the move by the roll (or the first die).
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstOption;

impl Decider for FirstOption {
    fn decide(&mut self, _: &Game, _: &Decision) -> usize {
        0
    }
}

impl<D: Decider + ?Sized> Decider for &mut D {
    fn decide(&mut self, game: &Game, decision: &Decision) -> usize {
        (**self).decide(game, decision)
    }
}

/// What became of one roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    /// The token moved (and maybe jumped).
    Moved,
    /// The roll passed cell N and the overshoot rule kept the token where it was.
    Blocked,
    /// The player chose not to move.
    Stayed,
    /// The capped roll voided the turn; `to` is where the turn began.
    Voided,
}

/// One roll in the history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The game's turn number, from 1.
    pub turn: u32,
    /// Who rolled.
    pub seat: usize,
    /// The dice.
    pub roll: Roll,
    /// Position before the roll.
    pub from: u32,
    /// Position after it.
    pub to: u32,
    /// Jumps taken, in order.
    pub jumps: Vec<Jump>,
    /// What became of the roll.
    pub kind: MoveKind,
    /// The option the seat chose, when the roll offered two or more ([`Decision::options`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen: Option<usize>,
    /// Milliseconds since the Unix epoch, from the clock given with [`Game::set_clock`].
    pub time_ms: Option<u64>,
}

/// What one turn did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnReport {
    /// Who played.
    pub seat: usize,
    /// Position when the turn began.
    pub from: u32,
    /// Position when it ended.
    pub to: u32,
    /// Rolls made in the turn.
    pub rolls: u32,
    /// Whether the player finished.
    pub finished: bool,
    /// Whether the turn was voided.
    pub voided: bool,
}

/// Why a game cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SetupError {
    /// Fewer than 2 seats.
    #[error("a game needs at least 2 players, got {count}")]
    TooFewSeats {
        /// Seats given.
        count: usize,
    },
    /// Two seats share a name.
    #[error("two players are named '{name}': every player needs a name of its own")]
    DuplicateName {
        /// The name.
        name: String,
    },
    /// Cell N cannot be reached from the start.
    #[error("cell {size} cannot be reached from the start on this board, so no one could win")]
    Unwinnable {
        /// N.
        size: u32,
    },
    /// Some reachable position can never reach N.
    #[error("a token could be trapped on {position}, from where cell {size} cannot be reached")]
    Trap {
        /// The first such position.
        position: u32,
        /// N.
        size: u32,
    },
}

/// Why a turn could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlayError {
    /// The game has already ended.
    #[error("the game is over")]
    GameOver,
    /// The dice could not be thrown; the turn stops where it is.
    #[error(transparent)]
    Roll(#[from] RollError),
}

/// A game in progress: board, rules, seats, positions, ranks and history.
///
/// ```
/// use snl_engine::{Board, Game, Preset, Rules, ScriptedDice, Seat, SeatKind, FirstOption, Dice};
/// let rules = Rules::default();
/// let board = Board::new(&Preset::Classic.spec(), &rules)?;
/// let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Bob", SeatKind::Easy)];
/// let mut game = Game::new(board, rules, seats)?;
/// let mut dice = ScriptedDice::parse("6, 1", Dice::D6)?;
/// let mut events = Vec::new();
/// game.play_turn(&mut dice, &mut FirstOption, &mut events)?; // Ann: 0 → 6, ladder to 25
/// game.play_turn(&mut dice, &mut FirstOption, &mut events)?; // Bob: 0 → 1
/// assert_eq!(game.positions(), &[25, 1]);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    rules: Rules,
    seats: Vec<Seat>,
    positions: Vec<u32>,
    ranks: Vec<Option<u32>>,
    ranking: Vec<usize>,
    current: usize,
    status: Status,
    turns: u32,
    turns_by_seat: Vec<u32>,
    rolls_by_seat: Vec<u32>,
    history: Vec<MoveRecord>,
    phase: Phase,
    clock: Option<fn() -> u64>,
}

impl Game {
    /// A game about to start, every token on the start position.
    ///
    /// # Errors
    ///
    /// [`SetupError`] for fewer than 2 seats, duplicate names, or a board on which a token could
    /// end up where cell N cannot be reached.
    pub fn new(board: Board, rules: Rules, seats: Vec<Seat>) -> Result<Game, SetupError> {
        if seats.len() < 2 {
            return Err(SetupError::TooFewSeats { count: seats.len() });
        }
        for (i, seat) in seats.iter().enumerate() {
            if seats[..i].iter().any(|s| s.name == seat.name) {
                return Err(SetupError::DuplicateName { name: seat.name.clone() });
            }
        }
        let reach = board.reach(&rules);
        if !reach.finish_reachable {
            return Err(SetupError::Unwinnable { size: board.size() });
        }
        if let Some(&position) = reach.trapped.first() {
            return Err(SetupError::Trap { position, size: board.size() });
        }
        let n = seats.len();
        Ok(Game {
            positions: vec![rules.start_position(); n],
            ranks: vec![None; n],
            ranking: Vec::new(),
            current: 0,
            status: Status::NotStarted,
            turns: 0,
            turns_by_seat: vec![0; n],
            rolls_by_seat: vec![0; n],
            history: Vec::new(),
            phase: Phase::Roll(Turn {
                seat: 0,
                begin: rules.start_position(),
                streak: 0,
                begun: false,
            }),
            clock: None,
            board,
            rules,
            seats,
        })
    }

    /// Stamps every history record with `clock()` (milliseconds since the Unix epoch). The engine
    /// reads no clock of its own.
    pub fn set_clock(&mut self, clock: fn() -> u64) {
        self.clock = Some(clock);
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The seats, in seating order.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// Every token's position, in seating order.
    pub fn positions(&self) -> &[u32] {
        &self.positions
    }

    /// Each seat's rank, once it has one.
    pub fn ranks(&self) -> &[Option<u32>] {
        &self.ranks
    }

    /// Seats that have finished, in finishing order (the whole ranking once the game is over).
    pub fn ranking(&self) -> &[usize] {
        &self.ranking
    }

    /// Whose turn it is: the seat the game awaits (meaningless once finished).
    pub fn current(&self) -> usize {
        self.current
    }

    /// Not started, running or finished.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Turns played in the whole game.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// Rolls made in the whole game.
    pub fn rolls(&self) -> u32 {
        self.rolls_by_seat.iter().sum()
    }

    /// Turns played by `seat`.
    pub fn turns_of(&self, seat: usize) -> u32 {
        self.turns_by_seat[seat]
    }

    /// Rolls made by `seat`.
    pub fn rolls_of(&self, seat: usize) -> u32 {
        self.rolls_by_seat[seat]
    }

    /// Every roll of the game, in order.
    pub fn history(&self) -> &[MoveRecord] {
        &self.history
    }

    /// Every roll made by `seat`, in order.
    pub fn history_of(&self, seat: usize) -> impl Iterator<Item = &MoveRecord> {
        self.history.iter().filter(move |m| m.seat == seat)
    }

    /// The snakes `seat` has met.
    pub fn snakes_of(&self, seat: usize) -> usize {
        self.history_of(seat).flat_map(|m| &m.jumps).filter(|j| j.is_snake()).count()
    }

    /// The ladders `seat` has climbed.
    pub fn ladders_of(&self, seat: usize) -> usize {
        self.history_of(seat).flat_map(|m| &m.jumps).filter(|j| !j.is_snake()).count()
    }

    /// True if and only if `seat` still takes turns.
    pub fn is_playing(&self, seat: usize) -> bool {
        self.ranks[seat].is_none() && self.status != Status::Finished
    }

    /// The ways to play `roll` from `position` under the rules (one option unless a choice rule
    /// applies and the options differ).
    ///
    /// Options that end alike — the same resting cell and, with bonus rolls on, the same
    /// top-face status, such as a move blocked by overshoot and staying put — are one option: the first of them is kept, so
    /// a strategy is only asked when its answer can change the game.
    pub fn options(&self, position: u32, roll: &Roll) -> Vec<MoveOption> {
        let mut options = self.all_options(position, *roll);
        let bonus = self.rules.bonus == Bonus::TopFace;
        let ends = |o: &MoveOption| (o.lands, bonus && o.top_face);
        let mut kept = 0;
        for i in 0..options.len() {
            let o = options[i];
            if options[..kept].iter().all(|k| ends(k) != ends(&o)) {
                options[kept] = o;
                kept += 1;
            }
        }
        options.truncate(kept);
        options
    }

    fn all_options(&self, position: u32, roll: Roll) -> Vec<MoveOption> {
        let top = roll.is_top_face(self.rules.thrown_dice());
        let by = |steps: u32, top_face: bool| MoveOption {
            steps,
            lands: self.board.advance(&self.rules, position, steps).end,
            top_face,
        };
        match self.rules.choice {
            Choice::None => vec![by(roll.total(), top)],
            Choice::MayPass => {
                vec![by(roll.total(), top), MoveOption { steps: 0, lands: position, top_face: top }]
            }
            Choice::PickDie => {
                let faces = self.rules.dice.faces();
                let mut options: Vec<MoveOption> = Vec::with_capacity(2);
                for &die in roll.dice() {
                    let die = u32::from(die);
                    if options.iter().all(|o| o.steps != die) {
                        options.push(by(die, die == faces));
                    }
                }
                options
            }
        }
    }

    /// What the game awaits next.
    pub fn pending(&self) -> Pending {
        match &self.phase {
            Phase::Over => Pending::Over,
            Phase::Roll(turn) => {
                Pending::Roll { seat: turn.seat, dice: self.rules.thrown_dice(), again: turn.begun }
            }
            Phase::Choice { turn, roll, options } => Pending::Choice(Decision {
                seat: turn.seat,
                position: self.positions[turn.seat],
                roll: *roll,
                options: options.clone(),
                turn_start: turn.begin,
                streak: turn.streak,
            }),
        }
    }

    /// Applies one input and returns the events it caused, in order.
    ///
    /// # Errors
    ///
    /// [`ApplyError`] when the game does not await this input (a roll while a choice is awaited,
    /// a choice while a roll is, anything once the game is over), when the roll cannot be thrown
    /// with the dice in play, or when the option names none; the game is then unchanged.
    pub fn apply(&mut self, input: Input) -> Result<Vec<Event>, ApplyError> {
        let mut events = Vec::new();
        self.apply_to(input, &mut events)?;
        Ok(events)
    }

    /// As [`Game::apply`], telling `observer` each event instead of collecting them.
    ///
    /// # Errors
    ///
    /// As [`Game::apply`]; the observer has heard nothing then.
    pub fn apply_to(
        &mut self,
        input: Input,
        observer: &mut impl Observer,
    ) -> Result<(), ApplyError> {
        match (&self.phase, input) {
            (Phase::Over, _) => Err(ApplyError::GameOver),
            (Phase::Choice { options, .. }, Input::Roll { .. }) => {
                Err(ApplyError::ChoiceAwaited { count: options.len() })
            }
            (Phase::Roll(_), Input::Choose { .. }) => Err(ApplyError::RollAwaited),
            (Phase::Roll(turn), Input::Roll { roll }) => {
                let dice = self.rules.thrown_dice();
                if !roll.fits(dice) {
                    return Err(ApplyError::BadRoll { faces: roll.dice().to_vec(), dice });
                }
                let turn = *turn;
                self.roll(turn, roll, observer);
                Ok(())
            }
            (Phase::Choice { options, .. }, Input::Choose { option }) => {
                if option >= options.len() {
                    let last = options.len() - 1;
                    return Err(ApplyError::NoSuchOption { option, last });
                }
                if let Phase::Choice { turn, roll, options } =
                    std::mem::replace(&mut self.phase, Phase::Over)
                {
                    self.resolve(turn, roll, options[option], Some(option), observer);
                }
                Ok(())
            }
        }
    }

    /// A roll the game awaited: begins the turn if it is its first roll, then plays the roll at
    /// once unless the seat has a real choice to make.
    fn roll(&mut self, mut turn: Turn, roll: Roll, observer: &mut impl Observer) {
        let seat = turn.seat;
        if !turn.begun {
            if self.status == Status::NotStarted {
                self.status = Status::Running;
                let players = (0..self.seats.len()).collect();
                observer.event(&Event::GameStarted { players, board_size: self.board.size() });
            }
            turn.begun = true;
            turn.begin = self.positions[seat];
            self.turns += 1;
            self.turns_by_seat[seat] += 1;
            observer.event(&Event::TurnStarted { player: seat, position: turn.begin });
        }
        self.rolls_by_seat[seat] += 1;
        observer.event(&Event::DiceRolled { player: seat, roll: roll.total(), dice: roll });
        let options = self.options(self.positions[seat], &roll);
        if options.len() > 1 {
            self.phase = Phase::Choice { turn, roll, options };
        } else {
            self.resolve(turn, roll, options[0], None, observer);
        }
    }

    /// Plays the chosen option of a roll, then says what comes next: another roll in the same
    /// turn, the next seat's turn, or the end.
    fn resolve(
        &mut self,
        mut turn: Turn,
        roll: Roll,
        option: MoveOption,
        chosen: Option<usize>,
        observer: &mut impl Observer,
    ) {
        let seat = turn.seat;
        let position = self.positions[seat];
        let (after, streak) = self.rules.after_roll(turn.streak, option.top_face);
        turn.streak = streak;
        let made = |to, jumps, kind| MoveRecord {
            turn: 0,
            seat,
            roll,
            from: position,
            to,
            jumps,
            kind,
            chosen,
            time_ms: None,
        };
        if after == AfterRoll::Void {
            self.positions[seat] = turn.begin;
            self.record(made(turn.begin, Vec::new(), MoveKind::Voided));
            observer.event(&Event::TurnVoided { player: seat, back_to: turn.begin });
            self.end_turn(seat);
            return;
        }
        if option.steps == 0 {
            self.record(made(position, Vec::new(), MoveKind::Stayed));
            observer.event(&Event::Stayed { player: seat, position });
        } else {
            let (to, jumps, kind) = self.walk(seat, option.steps, observer);
            self.record(made(to, jumps, kind));
        }
        if self.positions[seat] == self.board.size() {
            self.finish(seat, observer);
            self.end_turn(seat);
            return;
        }
        if after == AfterRoll::Again {
            observer.event(&Event::BonusRoll { player: seat });
            self.phase = Phase::Roll(turn);
            return;
        }
        self.end_turn(seat);
    }

    /// Moves `seat` by `steps` under the overshoot rule, then along any jumps; returns where it
    /// rests, the jumps taken and what became of the move.
    fn walk(
        &mut self,
        seat: usize,
        steps: u32,
        observer: &mut impl Observer,
    ) -> (u32, Vec<Jump>, MoveKind) {
        let from = self.positions[seat];
        let step = self.board.advance(&self.rules, from, steps);
        if step.overshoot {
            let rule = self.rules.overshoot;
            let event = Event::Overshoot { player: seat, position: from, roll: steps, rule };
            observer.event(&event);
            if rule == Overshoot::Stay {
                return (from, Vec::new(), MoveKind::Blocked);
            }
        }
        self.positions[seat] = step.landed;
        observer.event(&Event::Moved { player: seat, from, to: step.landed, steps });
        let jumps = self.board.jump_path(step.landed, self.rules.jumps);
        for jump in &jumps {
            self.positions[seat] = jump.to;
            let (player, from, to) = (seat, jump.from, jump.to);
            let event = if jump.is_snake() {
                Event::Snake { player, from, to }
            } else {
                Event::Ladder { player, from, to }
            };
            observer.event(&event);
        }
        debug_assert_eq!(self.positions[seat], step.end);
        (step.end, jumps, MoveKind::Moved)
    }

    /// After `seat`'s turn: the next seat's turn awaits, unless the game is over.
    fn end_turn(&mut self, seat: usize) {
        if self.status == Status::Finished {
            self.phase = Phase::Over;
            return;
        }
        let next = self.next_seat(seat);
        self.current = next;
        let begin = self.positions[next];
        self.phase = Phase::Roll(Turn { seat: next, begin, streak: 0, begun: false });
    }

    /// Plays the rest of the current seat's turn (all of it, between turns): rolls from `dice`,
    /// decisions from `decider`, events to `observer`. A short driver over [`Game::apply`].
    ///
    /// # Errors
    ///
    /// [`PlayError::GameOver`] after the game has ended; [`PlayError::Roll`] when `dice` cannot
    /// roll, in which case the game still awaits that roll (moves already made stand).
    pub fn play_turn(
        &mut self,
        dice: &mut impl RollSource,
        decider: &mut impl Decider,
        observer: &mut impl Observer,
    ) -> Result<TurnReport, PlayError> {
        let (seat, turn_begun) = match &self.phase {
            Phase::Over => return Err(PlayError::GameOver),
            Phase::Roll(turn) | Phase::Choice { turn, .. } => (turn.seat, turn.begun),
        };
        let from = if turn_begun { self.turn_start() } else { self.positions[seat] };
        let rolls_before = self.rolls_by_seat[seat];
        let history_before = self.history.len();
        let mut first = true;
        loop {
            match &self.phase {
                Phase::Over => break,
                Phase::Roll(turn) if !first && !turn.begun => break,
                Phase::Roll(turn) => {
                    let turn = *turn;
                    let roll = dice.roll(seat, self.rules.thrown_dice())?;
                    self.roll(turn, roll, observer);
                }
                Phase::Choice { .. } => {
                    let Pending::Choice(decision) = self.pending() else { break };
                    let option = decider.decide(self, &decision).min(decision.options.len() - 1);
                    let Phase::Choice { turn, roll, options } =
                        std::mem::replace(&mut self.phase, Phase::Over)
                    else {
                        break;
                    };
                    self.resolve(turn, roll, options[option], Some(option), observer);
                }
            }
            first = false;
        }
        let voided = self.history[history_before..].iter().any(|m| m.kind == MoveKind::Voided);
        Ok(TurnReport {
            seat,
            from,
            to: self.positions[seat],
            rolls: self.rolls_by_seat[seat] - rolls_before,
            finished: self.ranks[seat].is_some(),
            voided,
        })
    }

    /// Plays turns until the game ends.
    ///
    /// # Errors
    ///
    /// As [`Game::play_turn`].
    pub fn play_to_end(
        &mut self,
        dice: &mut impl RollSource,
        decider: &mut impl Decider,
        observer: &mut impl Observer,
    ) -> Result<(), PlayError> {
        while self.status != Status::Finished {
            self.play_turn(dice, decider, observer)?;
        }
        Ok(())
    }

    /// Where the turn in progress began (the current position between turns).
    pub fn turn_start(&self) -> u32 {
        match &self.phase {
            Phase::Roll(turn) | Phase::Choice { turn, .. } if turn.begun => turn.begin,
            _ => self.positions[self.current],
        }
    }

    /// True while a turn has begun and not ended: between bonus rolls, or at a choice.
    pub fn in_turn(&self) -> bool {
        matches!(&self.phase, Phase::Roll(t) | Phase::Choice { turn: t, .. } if t.begun)
    }

    /// The game as it stands, in a few numbers per seat, for [`Game::rewind`].
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            positions: self.positions.clone(),
            ranks: self.ranks.clone(),
            ranking: self.ranking.clone(),
            current: self.current,
            status: self.status,
            turns: self.turns,
            turns_by_seat: self.turns_by_seat.clone(),
            rolls_by_seat: self.rolls_by_seat.clone(),
            history_len: self.history.len(),
            phase: self.phase.clone(),
        }
    }

    /// Goes back to `checkpoint`, dropping the history recorded since. The checkpoint must come
    /// from this game's line of play (an earlier point of it, taken with [`Game::checkpoint`]).
    ///
    /// # Panics
    ///
    /// If the checkpoint holds more history than the game, or another number of seats: it then
    /// belongs to another game.
    pub fn rewind(&mut self, checkpoint: &Checkpoint) {
        assert!(
            checkpoint.history_len <= self.history.len()
                && checkpoint.positions.len() == self.seats.len(),
            "a checkpoint from another game"
        );
        let c = checkpoint.clone();
        self.positions = c.positions;
        self.ranks = c.ranks;
        self.ranking = c.ranking;
        self.current = c.current;
        self.status = c.status;
        self.turns = c.turns;
        self.turns_by_seat = c.turns_by_seat;
        self.rolls_by_seat = c.rolls_by_seat;
        self.history.truncate(c.history_len);
        self.phase = c.phase;
    }

    fn finish(&mut self, seat: usize, observer: &mut impl Observer) {
        let rank = self.ranking.len() as u32 + 1;
        self.ranks[seat] = Some(rank);
        self.ranking.push(seat);
        observer.event(&Event::PlayerFinished { player: seat, rank });
        let left: Vec<usize> = (0..self.seats.len()).filter(|&s| self.ranks[s].is_none()).collect();
        let over = match self.rules.finish {
            Finish::First => true,
            Finish::All => left.len() <= 1,
        };
        if !over {
            return;
        }
        // Those who did not finish are ranked by how far they got; ties keep seating order.
        let mut rest = left;
        rest.sort_by_key(|&s| std::cmp::Reverse(self.positions[s]));
        for s in rest {
            self.ranks[s] = Some(self.ranking.len() as u32 + 1);
            self.ranking.push(s);
        }
        self.status = Status::Finished;
        let ranking = self.ranking.clone();
        observer.event(&Event::GameEnded { ranking });
    }

    fn next_seat(&self, seat: usize) -> usize {
        let n = self.seats.len();
        (1..=n).map(|k| (seat + k) % n).find(|&s| self.ranks[s].is_none()).unwrap_or(seat)
    }

    fn record(&mut self, mut record: MoveRecord) {
        record.turn = self.turns;
        record.time_ms = self.clock.map(|now| now());
        self.history.push(record);
    }

    /// Sets the time stamp of history record `index` (a restored game keeps its saved times).
    pub(crate) fn stamp(&mut self, index: usize, time_ms: Option<u64>) {
        self.history[index].time_ms = time_ms;
    }
}
