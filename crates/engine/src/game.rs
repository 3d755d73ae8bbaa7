// Long because the game's accessors and its drivers are documented one by one; the turn itself is in turn.rs.
//! The game state machine: seats, turns, ranks, history.
//!
//! The caller drives: [`Game::pending`] says what the game awaits (a roll from a seat, a choice
//! among options, nothing once it is over) and [`Game::apply`] takes one [`Input`] and returns the
//! events it caused. An input the game does not await is refused with an [`ApplyError`] and
//! changes nothing. [`Game::play_turn`] and [`Game::play_to_end`] are short drivers over that
//! door for callers that have the dice and the decisions at hand ([`RollSource`], [`Decider`]).

use crate::{
    board::Board,
    dice::{Roll, RollError, RollSource},
    event::Observer,
    moves::MoveOption,
    phase::{Checkpoint, Input, Pending, Phase, Rounds, Status, Turn},
    record::{Decision, MoveKind, MoveRecord, TurnReport},
    rules::Rules,
    seat::{Seat, SeatState},
};

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
    /// The roll source drew an exit the wormhole does not have; the draw is still awaited.
    #[error("the wormhole draw was refused: {0}")]
    Draw(String),
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
    pub(crate) board: Board,
    pub(crate) rules: Rules,
    pub(crate) seats: Vec<Seat>,
    /// Each seat's state: cell, shield, pending skip, rank, turns and rolls ([`SeatState`]).
    pub(crate) seat_states: Vec<SeatState>,
    pub(crate) ranking: Vec<usize>,
    pub(crate) current: usize,
    pub(crate) status: Status,
    pub(crate) turns: u32,
    pub(crate) history: Vec<MoveRecord>,
    pub(crate) phase: Phase,
    pub(crate) clock: Option<fn() -> u64>,
    /// Where the game stands in rounds, and whether time was called (`time_up.rs`).
    pub(crate) rounds: Rounds,
    /// Where each turn clock expiry came ([`Input::TurnTimeUp`]): the number of inputs applied
    /// before it, in order (`time_up.rs`).
    pub(crate) timed_out: Vec<u32>,
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
            seat_states: vec![SeatState::at(rules.start_position()); n],
            ranking: Vec::new(),
            current: 0,
            status: Status::NotStarted,
            turns: 0,
            history: Vec::new(),
            phase: Phase::Roll(Turn {
                seat: 0,
                begin: rules.start_position(),
                streak: 0,
                begun: false,
                shield: false,
                timed_out: false,
            }),
            clock: None,
            rounds: Rounds::default(),
            timed_out: Vec::new(),
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
    pub fn positions(&self) -> Vec<u32> {
        self.seat_states.iter().map(|s| s.cell).collect()
    }

    /// Where `seat`'s token stands.
    pub fn position(&self, seat: usize) -> u32 {
        self.seat_states[seat].cell
    }

    /// Each seat's rank, once it has one.
    pub fn ranks(&self) -> Vec<Option<u32>> {
        self.seat_states.iter().map(|s| s.rank).collect()
    }

    /// Each seat's state, in seating order: everything a turn changes about a seat.
    pub fn seat_states(&self) -> &[SeatState] {
        &self.seat_states
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
        self.seat_states.iter().map(|s| s.rolls).sum()
    }

    /// Turns played by `seat`.
    pub fn turns_of(&self, seat: usize) -> u32 {
        self.seat_states[seat].turns
    }

    /// Rolls made by `seat`.
    pub fn rolls_of(&self, seat: usize) -> u32 {
        self.seat_states[seat].rolls
    }

    /// Every roll of the game, in order.
    pub fn history(&self) -> &[MoveRecord] {
        &self.history
    }

    /// Every roll made by `seat`, in order.
    pub fn history_of(&self, seat: usize) -> impl Iterator<Item = &MoveRecord> {
        self.history.iter().filter(move |m| m.seat == seat)
    }

    /// The snakes `seat` has met (a wormhole's jump is neither a snake nor a ladder).
    pub fn snakes_of(&self, seat: usize) -> usize {
        let board = &self.board;
        let jumps = self.history_of(seat).flat_map(|m| &m.jumps);
        jumps.filter(|j| j.is_snake() && board.wormhole_at(j.from).is_none()).count()
    }

    /// The ladders `seat` has climbed.
    pub fn ladders_of(&self, seat: usize) -> usize {
        let board = &self.board;
        let jumps = self.history_of(seat).flat_map(|m| &m.jumps);
        jumps.filter(|j| !j.is_snake() && board.wormhole_at(j.from).is_none()).count()
    }

    /// Whether `seat` holds a shield (SPEC §3b).
    pub fn has_shield(&self, seat: usize) -> bool {
        self.seat_states[seat].shield
    }

    /// Whether `seat`'s next turn will be skipped (SPEC §3b).
    pub fn skips_next_turn(&self, seat: usize) -> bool {
        self.seat_states[seat].skip
    }

    /// True if and only if `seat` still takes turns.
    pub fn is_playing(&self, seat: usize) -> bool {
        self.seat_states[seat].rank.is_none() && self.status != Status::Finished
    }

    /// The ways to play `roll` from `position` under the rules for the seat whose turn it is
    /// (its shield counts): [`Board::options`].
    pub fn options(&self, position: u32, roll: &Roll) -> Vec<MoveOption> {
        let shield = self.status != Status::Finished && self.seat_states[self.current].shield;
        self.board.options(&self.rules, position, roll, shield)
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
            Phase::Draw(moving) => (moving.turn.seat, true),
        };
        let from = if turn_begun { self.turn_start() } else { self.seat_states[seat].cell };
        let rolls_before = self.seat_states[seat].rolls;
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
                Phase::Draw(moving) => {
                    let count = self.board.wormhole_at(moving.at).map_or(1, |e| e.len() as u32);
                    let index = dice.draw(seat, count)?;
                    self.apply_to(Input::Draw { index }, observer)
                        .map_err(|e| PlayError::Draw(e.to_string()))?;
                }
            }
            first = false;
        }
        let voided = self.history[history_before..].iter().any(|m| m.kind == MoveKind::Voided);
        Ok(TurnReport {
            seat,
            from,
            to: self.seat_states[seat].cell,
            rolls: self.seat_states[seat].rolls - rolls_before,
            finished: self.seat_states[seat].rank.is_some(),
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
            Phase::Draw(moving) => moving.turn.begin,
            _ => self.seat_states[self.current].cell,
        }
    }

    /// True while a turn has begun and not ended: between bonus rolls, or at a choice.
    pub fn in_turn(&self) -> bool {
        match &self.phase {
            Phase::Roll(t) | Phase::Choice { turn: t, .. } => t.begun,
            Phase::Draw(_) => true,
            Phase::Over => false,
        }
    }

    /// The game as it stands, in a few numbers per seat, for [`Game::rewind`].
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            seat_states: self.seat_states.clone(),
            ranking: self.ranking.clone(),
            current: self.current,
            status: self.status,
            turns: self.turns,
            history_len: self.history.len(),
            phase: self.phase.clone(),
            rounds: self.rounds,
            timed_out: self.timed_out.len(),
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
                && checkpoint.timed_out <= self.timed_out.len()
                && checkpoint.seat_states.len() == self.seats.len(),
            "a checkpoint from another game"
        );
        let c = checkpoint.clone();
        self.seat_states = c.seat_states;
        self.ranking = c.ranking;
        self.current = c.current;
        self.status = c.status;
        self.turns = c.turns;
        self.history.truncate(c.history_len);
        self.phase = c.phase;
        self.rounds = c.rounds;
        self.timed_out.truncate(c.timed_out);
    }

    /// Sets the time stamp of history record `index` (a restored game keeps its saved times).
    pub(crate) fn stamp(&mut self, index: usize, time_ms: Option<u64>) {
        self.history[index].time_ms = time_ms;
    }
}
