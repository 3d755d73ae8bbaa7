//! The turn as a state machine: what the game awaits ([`Pending`]), the inputs it takes
//! ([`Input`]), why it refuses one ([`ApplyError`]), and how one input plays out — a roll begins a
//! turn, is moved under the overshoot rule and along jumps, then the bonus rule says whether the
//! same seat rolls again, the turn ends, or the game does.

use serde::{Deserialize, Serialize};

use crate::{
    board::Jump,
    dice::{Dice, Roll},
    event::{Event, Observer},
    game::{Game, Status},
    record::{Decision, MoveKind, MoveOption, MoveRecord},
    rules::{AfterRoll, Finish, Overshoot},
};

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
    /// The game clock ran out: the round in play is completed, then the game ends ranked by
    /// position (SPEC §3b). The game ends at once when no turn of a new round has begun.
    TimeUp,
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
    /// Time was called already: the game ends with this round.
    #[error("time is up already: the game ends with this round")]
    TimeAlreadyUp,
}

/// Where a turn stands: whose it is, where it began and the top-face streak so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Turn {
    pub(crate) seat: usize,
    pub(crate) begin: u32,
    pub(crate) streak: u32,
    /// False until the turn's first roll is applied.
    pub(crate) begun: bool,
}

/// The phase of a turn: the state behind [`Game::pending`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    Roll(Turn),
    Choice { turn: Turn, roll: Roll, options: Vec<MoveOption> },
    Over,
}

/// A game's state between inputs in a few numbers per seat (never the history): what undo keeps
/// per turn. [`Game::rewind`] goes back to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    pub(crate) positions: Vec<u32>,
    pub(crate) ranks: Vec<Option<u32>>,
    pub(crate) ranking: Vec<usize>,
    pub(crate) current: usize,
    pub(crate) status: Status,
    pub(crate) turns: u32,
    pub(crate) turns_by_seat: Vec<u32>,
    pub(crate) rolls_by_seat: Vec<u32>,
    pub(crate) history_len: usize,
    pub(crate) phase: Phase,
    pub(crate) rounds: crate::time_up::Rounds,
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

impl Game {
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
        // A turn's first roll tells about three events; a jump or a bonus one or two more.
        let mut events = Vec::with_capacity(6);
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
            (_, Input::TimeUp) => self.call_time(observer),
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
    pub(crate) fn roll(&mut self, mut turn: Turn, roll: Roll, observer: &mut impl Observer) {
        let seat = turn.seat;
        if !turn.begun {
            if self.status == Status::NotStarted {
                self.status = Status::Running;
                let players = (0..self.seats.len()).collect();
                observer.event(&Event::GameStarted { players, board_size: self.board.size() });
            }
            turn.begun = true;
            self.rounds.at_start = false;
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
    pub(crate) fn resolve(
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
            self.end_turn(seat, observer);
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
            self.end_turn(seat, observer);
            return;
        }
        if after == AfterRoll::Again {
            observer.event(&Event::BonusRoll { player: seat });
            self.phase = Phase::Roll(turn);
            return;
        }
        self.end_turn(seat, observer);
    }

    /// Moves `seat` by `steps` under the overshoot rule, then along any jumps; returns where it
    /// rests, the jumps taken and what became of the move.
    pub(crate) fn walk(
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

    /// After `seat`'s turn: the next seat's turn awaits, unless the game is over (or time was
    /// called and this turn completes the round).
    pub(crate) fn end_turn(&mut self, seat: usize, observer: &mut impl Observer) {
        if self.status == Status::Finished {
            self.phase = Phase::Over;
            return;
        }
        let next = self.next_seat(seat);
        if self.count_round(seat, next) && self.rounds.time_up.is_some() {
            self.end_by_position(observer);
            self.phase = Phase::Over;
            return;
        }
        self.current = next;
        let begin = self.positions[next];
        self.phase = Phase::Roll(Turn { seat: next, begin, streak: 0, begun: false });
    }

    pub(crate) fn finish(&mut self, seat: usize, observer: &mut impl Observer) {
        let rank = self.ranking.len() as u32 + 1;
        self.ranks[seat] = Some(rank);
        self.ranking.push(seat);
        observer.event(&Event::PlayerFinished { player: seat, rank });
        let left: Vec<usize> = (0..self.seats.len()).filter(|&s| self.ranks[s].is_none()).collect();
        let over = match self.rules.finish {
            Finish::First => true,
            Finish::All => left.len() <= 1,
        };
        if over {
            self.end_by_position(observer);
        }
    }

    pub(crate) fn next_seat(&self, seat: usize) -> usize {
        let n = self.seats.len();
        (1..=n).map(|k| (seat + k) % n).find(|&s| self.ranks[s].is_none()).unwrap_or(seat)
    }

    pub(crate) fn record(&mut self, mut record: MoveRecord) {
        record.turn = self.turns;
        record.time_ms = self.clock.map(|now| now());
        self.history.push(record);
    }
}
