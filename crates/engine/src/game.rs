//! The game state machine: seats, turns, ranks, history.
//!
//! A turn asks three things of the caller, each through a trait: a [`RollSource`] for the dice, a
//! [`Decider`] when the rules offer a choice, and an [`Observer`] for the events.

use std::{fmt, str::FromStr};

use serde::{Deserialize, Serialize};

use crate::{
    board::{Board, Jump},
    dice::{Roll, RollError, RollSource},
    event::{Event, Observer},
    rules::{Bonus, Choice, Finish, OnMax, Overshoot, Rules},
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

    /// Whose turn is next (meaningless once finished).
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

    /// Plays one whole turn of the current seat.
    ///
    /// # Errors
    ///
    /// [`PlayError::GameOver`] after the game has ended; [`PlayError::Roll`] when `dice` cannot
    /// roll, in which case the turn stops where it is (moves already made stand).
    pub fn play_turn(
        &mut self,
        dice: &mut impl RollSource,
        decider: &mut impl Decider,
        observer: &mut impl Observer,
    ) -> Result<TurnReport, PlayError> {
        if self.status == Status::Finished {
            return Err(PlayError::GameOver);
        }
        if self.status == Status::NotStarted {
            self.status = Status::Running;
            let players = (0..self.seats.len()).collect();
            self.emit(observer, &Event::GameStarted { players, board_size: self.board.size() });
        }
        let seat = self.current;
        let begin = self.positions[seat];
        self.turns += 1;
        self.turns_by_seat[seat] += 1;
        self.emit(observer, &Event::TurnStarted { player: seat, position: begin });

        let mut report =
            TurnReport { seat, from: begin, to: begin, rolls: 0, finished: false, voided: false };
        let mut streak = 0; // consecutive top-face rolls in this turn
        loop {
            let roll = dice.roll(seat, self.rules.thrown_dice())?;
            report.rolls += 1;
            self.rolls_by_seat[seat] += 1;
            self.emit(
                observer,
                &Event::DiceRolled { player: seat, roll: roll.total(), dice: roll },
            );

            let position = self.positions[seat];
            let options = self.options(position, &roll);
            let chosen = if options.len() > 1 {
                let decision = Decision {
                    seat,
                    position,
                    roll,
                    options: options.clone(),
                    turn_start: begin,
                    streak,
                };
                decider.decide(self, &decision).min(options.len() - 1)
            } else {
                0
            };
            let option = options[chosen];
            let top = self.rules.bonus == Bonus::TopFace && option.top_face;
            if top {
                streak += 1;
            }
            let capped = top && self.rules.max_bonus.limit() == Some(streak);
            if capped && self.rules.on_max == OnMax::Void {
                self.positions[seat] = begin;
                self.record(seat, roll, position, begin, Vec::new(), MoveKind::Voided);
                self.emit(observer, &Event::TurnVoided { player: seat, back_to: begin });
                report.voided = true;
                break;
            }
            if option.steps == 0 {
                self.record(seat, roll, position, position, Vec::new(), MoveKind::Stayed);
                self.emit(observer, &Event::Stayed { player: seat, position });
            } else {
                self.apply_move(seat, roll, option.steps, observer);
            }
            if self.positions[seat] == self.board.size() {
                report.finished = true;
                self.finish(seat, observer);
                break;
            }
            if top && !capped {
                self.emit(observer, &Event::BonusRoll { player: seat });
                continue;
            }
            break;
        }
        report.to = self.positions[seat];
        if self.status != Status::Finished {
            self.current = self.next_seat(seat);
        }
        Ok(report)
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

    fn apply_move(&mut self, seat: usize, roll: Roll, steps: u32, observer: &mut impl Observer) {
        let from = self.positions[seat];
        let step = self.board.advance(&self.rules, from, steps);
        if step.overshoot {
            self.emit(observer, &Event::Overshoot { player: seat, position: from, roll: steps });
            if self.rules.overshoot == Overshoot::Stay {
                self.record(seat, roll, from, from, Vec::new(), MoveKind::Blocked);
                return;
            }
        }
        self.positions[seat] = step.landed;
        self.emit(observer, &Event::Moved { player: seat, from, to: step.landed });
        let jumps = self.board.jump_path(step.landed, self.rules.jumps);
        for jump in &jumps {
            self.positions[seat] = jump.to;
            let (player, from, to) = (seat, jump.from, jump.to);
            let event = if jump.is_snake() {
                Event::Snake { player, from, to }
            } else {
                Event::Ladder { player, from, to }
            };
            self.emit(observer, &event);
        }
        debug_assert_eq!(self.positions[seat], step.end);
        self.record(seat, roll, from, step.end, jumps, MoveKind::Moved);
    }

    fn finish(&mut self, seat: usize, observer: &mut impl Observer) {
        let rank = self.ranking.len() as u32 + 1;
        self.ranks[seat] = Some(rank);
        self.ranking.push(seat);
        self.emit(observer, &Event::PlayerFinished { player: seat, rank });
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
        self.emit(observer, &Event::GameEnded { ranking });
    }

    fn next_seat(&self, seat: usize) -> usize {
        let n = self.seats.len();
        (1..=n).map(|k| (seat + k) % n).find(|&s| self.ranks[s].is_none()).unwrap_or(seat)
    }

    fn record(
        &mut self,
        seat: usize,
        roll: Roll,
        from: u32,
        to: u32,
        jumps: Vec<Jump>,
        kind: MoveKind,
    ) {
        let time_ms = self.clock.map(|now| now());
        let turn = self.turns;
        self.history.push(MoveRecord { turn, seat, roll, from, to, jumps, kind, time_ms });
    }

    fn emit(&self, observer: &mut impl Observer, event: &Event) {
        observer.event(self, event);
    }

    /// Sets the time stamp of history record `index` (a restored game keeps its saved times).
    pub(crate) fn stamp(&mut self, index: usize, time_ms: Option<u64>) {
        self.history[index].time_ms = time_ms;
    }
}
