// Long on purpose: the turn is one state machine; its phases, inputs and the order of §3/§3b within a roll read best in one file.
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
    moves::{Met, Next},
    record::{Decision, MoveKind, MoveOption, MoveRecord},
    rules::{AfterRoll, Finish},
    seat::SeatState,
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
    /// A draw: the token of `seat` entered the wormhole on `from`, and which of its `exits` it
    /// takes is drawn uniformly from the game's random stream. Answer with [`Input::Draw`] and
    /// an index into `exits` ([`crate::RollSource::draw`] gives one). Not a person's decision:
    /// every driver draws at once.
    Draw {
        /// Whose token.
        seat: usize,
        /// The wormhole's cell.
        from: u32,
        /// Its exits.
        exits: Vec<u32>,
    },
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
    /// The index of the exit drawn, in [`Pending::Draw`]'s `exits`.
    Draw {
        /// The exit's index.
        index: u32,
    },
    /// The game clock ran out: the round in play is completed, then the game ends ranked by
    /// position (SPEC §3b). The game ends at once when no turn of a new round has begun.
    TimeUp,
    /// The turn clock of the seat awaited ran out (SPEC §3b): tells `timed_out`, and the rest of
    /// that turn is the computer's ([`Game::turn_timed_out`]). The inputs that play it (rolls,
    /// the strategy's choices) come after it as usual, so a replay plays the turn alike.
    TurnTimeUp,
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
    /// A choice or a draw came while the game awaits a roll.
    #[error("the game awaits a roll, not a choice")]
    RollAwaited,
    /// A roll or a choice came while a wormhole awaits its draw.
    #[error("the game awaits a wormhole's draw among {count} exits")]
    DrawAwaited {
        /// How many exits there are.
        count: usize,
    },
    /// A draw came while none is awaited.
    #[error("the game awaits no wormhole draw")]
    NoDrawAwaited,
    /// The draw names no exit.
    #[error("there is no exit {index}: the exits are numbered 0 to {last}")]
    NoSuchExit {
        /// The index given.
        index: u32,
        /// The largest valid index.
        last: usize,
    },
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
    /// The turn clock ran out already in this turn: the computer is playing the rest of it.
    #[error("the turn clock ran out already in this turn")]
    TurnAlreadyTimedOut,
}

/// Where a turn stands: whose it is, where it began and the top-face streak so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Turn {
    pub(crate) seat: usize,
    pub(crate) begin: u32,
    pub(crate) streak: u32,
    /// False until the turn's first roll is applied.
    pub(crate) begun: bool,
    /// Whether the seat held a shield when the turn began (what on-max void gives back).
    pub(crate) shield: bool,
    /// Whether the turn clock ran out in this turn ([`Input::TurnTimeUp`]).
    pub(crate) timed_out: bool,
}

/// A roll being moved, stopped at a wormhole until its draw comes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Moving {
    pub(crate) turn: Turn,
    pub(crate) roll: Roll,
    pub(crate) chosen: Option<usize>,
    /// The bonus rule's verdict on the roll.
    pub(crate) after: AfterRoll,
    pub(crate) from: u32,
    /// Where the token is now.
    pub(crate) at: u32,
    pub(crate) jumps: Vec<Jump>,
}

/// The phase of a turn: the state behind [`Game::pending`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    Roll(Turn),
    Choice { turn: Turn, roll: Roll, options: Vec<MoveOption> },
    Draw(Box<Moving>),
    Over,
}

/// A game's state between inputs in a few numbers per seat (never the history): what undo keeps
/// per turn. [`Game::rewind`] goes back to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    pub(crate) seat_states: Vec<SeatState>,
    pub(crate) ranking: Vec<usize>,
    pub(crate) current: usize,
    pub(crate) status: Status,
    pub(crate) turns: u32,
    pub(crate) history_len: usize,
    pub(crate) phase: Phase,
    pub(crate) rounds: crate::time_up::Rounds,
    /// How many turn clock expiries the game had taken.
    pub(crate) timed_out: usize,
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
                position: self.seat_states[turn.seat].cell,
                roll: *roll,
                options: options.clone(),
                turn_start: turn.begin,
                streak: turn.streak,
            }),
            Phase::Draw(moving) => Pending::Draw {
                seat: moving.turn.seat,
                from: moving.at,
                exits: self.board.wormhole_at(moving.at).unwrap_or_default().to_vec(),
            },
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
            (_, Input::TurnTimeUp) => self.turn_time_up(observer),
            (Phase::Choice { options, .. }, Input::Roll { .. }) => {
                Err(ApplyError::ChoiceAwaited { count: options.len() })
            }
            (Phase::Roll(_), Input::Choose { .. }) => Err(ApplyError::RollAwaited),
            (Phase::Roll(_) | Phase::Choice { .. }, Input::Draw { .. }) => {
                Err(ApplyError::NoDrawAwaited)
            }
            (Phase::Draw(moving), Input::Roll { .. } | Input::Choose { .. }) => {
                let count = self.board.wormhole_at(moving.at).map_or(0, <[u32]>::len);
                Err(ApplyError::DrawAwaited { count })
            }
            (Phase::Draw(moving), Input::Draw { index }) => {
                let count = self.board.wormhole_at(moving.at).map_or(0, <[u32]>::len);
                if index as usize >= count {
                    let last = count.saturating_sub(1);
                    return Err(ApplyError::NoSuchExit { index, last });
                }
                if let Phase::Draw(moving) = std::mem::replace(&mut self.phase, Phase::Over) {
                    self.drawn(*moving, index as usize, observer);
                }
                Ok(())
            }
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
            turn.begin = self.seat_states[seat].cell;
            turn.shield = self.seat_states[seat].shield;
            self.turns += 1;
            self.seat_states[seat].turns += 1;
            observer.event(&Event::TurnStarted { player: seat, position: turn.begin });
        }
        self.seat_states[seat].rolls += 1;
        observer.event(&Event::DiceRolled { player: seat, roll: roll.total(), dice: roll });
        let options = self.options(self.seat_states[seat].cell, &roll);
        if options.len() > 1 {
            self.phase = Phase::Choice { turn, roll, options };
        } else {
            self.resolve(turn, roll, options[0], None, observer);
        }
    }

    /// Plays the chosen option of a roll, then says what comes next: another roll in the same
    /// turn, the next seat's turn, or the end (or, at a wormhole, a draw).
    pub(crate) fn resolve(
        &mut self,
        mut turn: Turn,
        roll: Roll,
        option: MoveOption,
        chosen: Option<usize>,
        observer: &mut impl Observer,
    ) {
        let seat = turn.seat;
        let position = self.seat_states[seat].cell;
        let (after, streak) = self.rules.after_roll(turn.streak, option.top_face);
        turn.streak = streak;
        let made = |to, kind| MoveRecord {
            turn: 0,
            seat,
            roll,
            from: position,
            to,
            jumps: Vec::new(),
            kind,
            chosen,
            time_ms: None,
        };
        if after == AfterRoll::Void {
            // The whole turn is undone: position, shield gained or used, skip gained.
            self.seat_states[seat].cell = turn.begin;
            self.seat_states[seat].shield = turn.shield;
            self.seat_states[seat].skip = false;
            self.record(made(turn.begin, MoveKind::Voided));
            observer.event(&Event::TurnVoided { player: seat, back_to: turn.begin });
            self.end_turn(seat, observer);
            return;
        }
        let moving =
            Moving { turn, roll, chosen, after, from: position, at: position, jumps: Vec::new() };
        if option.steps == 0 {
            self.record(made(position, MoveKind::Stayed));
            observer.event(&Event::Stayed { player: seat, position });
            self.after_move(&moving, false, observer);
            return;
        }
        let entry =
            self.board.enter(&self.rules, position, option.steps, self.seat_states[seat].shield);
        if entry.overshoot {
            let rule = self.rules.overshoot;
            let event = Event::Overshoot { player: seat, position, roll: option.steps, rule };
            observer.event(&event);
        }
        if entry.blocked {
            self.record(made(position, MoveKind::Blocked));
            self.after_move(&moving, false, observer);
            return;
        }
        self.seat_states[seat].cell = entry.landed;
        observer.event(&Event::Moved {
            player: seat,
            from: position,
            to: entry.landed,
            steps: option.steps,
        });
        let moving = Moving { at: entry.landed, ..moving };
        if entry.shield_stops {
            self.seat_states[seat].shield = false;
            observer.event(&Event::ShieldUsed { player: seat, at: entry.landed });
            self.rest(moving, observer);
            return;
        }
        self.follow(moving, observer);
    }

    /// Follows jumps from where the token is (once under single jumps, on under chain) until it
    /// rests, or a wormhole awaits its draw.
    fn follow(&mut self, mut moving: Moving, observer: &mut impl Observer) {
        let seat = moving.turn.seat;
        loop {
            let at = moving.at;
            match self.board.next_jump(self.rules.jumps, at, moving.jumps.len()) {
                Next::Jump(to) => {
                    moving.jumps.push(Jump { from: at, to });
                    moving.at = to;
                    self.seat_states[seat].cell = to;
                    let (player, from) = (seat, at);
                    let event = if to < from {
                        Event::Snake { player, from, to }
                    } else {
                        Event::Ladder { player, from, to }
                    };
                    observer.event(&event);
                }
                Next::Wormhole(_) => {
                    self.phase = Phase::Draw(Box::new(moving));
                    return;
                }
                Next::Rest => break,
            }
        }
        self.rest(moving, observer);
    }

    /// The wormhole's exit `index` was drawn: the token goes there and the move goes on.
    fn drawn(&mut self, mut moving: Moving, index: usize, observer: &mut impl Observer) {
        let seat = moving.turn.seat;
        let from = moving.at;
        let to = self.board.wormhole_at(from).map_or(from, |exits| exits[index]);
        moving.jumps.push(Jump { from, to });
        moving.at = to;
        self.seat_states[seat].cell = to;
        observer.event(&Event::Wormhole { player: seat, from, to });
        self.follow(moving, observer);
    }

    /// The token rests: the move is recorded, then the player finishes on N or the resting
    /// cell's effect applies, and the turn goes on or ends.
    fn rest(&mut self, mut moving: Moving, observer: &mut impl Observer) {
        let record = MoveRecord {
            turn: 0,
            seat: moving.turn.seat,
            roll: moving.roll,
            from: moving.from,
            to: moving.at,
            jumps: std::mem::take(&mut moving.jumps),
            kind: MoveKind::Moved,
            chosen: moving.chosen,
            time_ms: None,
        };
        self.record(record);
        self.after_move(&moving, true, observer);
    }

    /// After a roll is played (`moved`: the token came to rest by moving): finish, the resting
    /// cell's effect, then one more roll (top-face bonus or extra cell, never two) or the turn
    /// ends.
    fn after_move(&mut self, moving: &Moving, moved: bool, observer: &mut impl Observer) {
        let mut turn = moving.turn;
        let seat = turn.seat;
        let at = self.seat_states[seat].cell;
        if at == self.board.size() {
            self.finish(seat, observer);
            self.end_turn(seat, observer);
            return;
        }
        let mut extra = false;
        if moved {
            match self.board.met(at) {
                Met::Skip => self.seat_states[seat].skip = true,
                Met::Extra => extra = true,
                Met::Shield if !self.seat_states[seat].shield => {
                    self.seat_states[seat].shield = true;
                    observer.event(&Event::ShieldGained { player: seat });
                }
                Met::Shield | Met::Nothing => {}
            }
        }
        if moving.after == AfterRoll::Again {
            observer.event(&Event::BonusRoll { player: seat });
            self.phase = Phase::Roll(turn);
            return;
        }
        if extra {
            // Independent of the bonus: the next top-face roll begins a new streak.
            turn.streak = 0;
            observer.event(&Event::ExtraRoll { player: seat });
            self.phase = Phase::Roll(turn);
            return;
        }
        self.end_turn(seat, observer);
    }

    /// After `seat`'s turn: the next seat's turn awaits, unless the game is over. Turns skipped
    /// by a `skip` cell pass here (each counts as a turn with no roll), and a race ends once every
    /// player still playing has had its rounds.
    pub(crate) fn end_turn(&mut self, mut seat: usize, observer: &mut impl Observer) {
        loop {
            if self.status == Status::Finished {
                self.phase = Phase::Over;
                return;
            }
            if let Some(rounds) = self.rules.mode.rounds() {
                let playing = (0..self.seats.len()).filter(|&s| self.seat_states[s].rank.is_none());
                if playing.clone().all(|s| self.seat_states[s].turns >= rounds) {
                    self.end_by_position(observer);
                    self.phase = Phase::Over;
                    return;
                }
            }
            let next = self.next_seat(seat);
            if self.count_round(seat, next) && self.rounds.time_up.is_some() {
                self.end_by_position(observer);
                self.phase = Phase::Over;
                return;
            }
            self.current = next;
            if self.seat_states[next].skip {
                self.seat_states[next].skip = false;
                self.turns += 1;
                self.seat_states[next].turns += 1;
                observer.event(&Event::TurnSkipped { player: next });
                seat = next;
                continue;
            }
            let (begin, shield) = (self.seat_states[next].cell, self.seat_states[next].shield);
            let turn =
                Turn { seat: next, begin, streak: 0, begun: false, shield, timed_out: false };
            self.phase = Phase::Roll(turn);
            return;
        }
    }

    pub(crate) fn finish(&mut self, seat: usize, observer: &mut impl Observer) {
        let rank = self.ranking.len() as u32 + 1;
        self.seat_states[seat].rank = Some(rank);
        self.ranking.push(seat);
        observer.event(&Event::PlayerFinished { player: seat, rank });
        let left: Vec<usize> =
            (0..self.seats.len()).filter(|&s| self.seat_states[s].rank.is_none()).collect();
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
        (1..=n)
            .map(|k| (seat + k) % n)
            .find(|&s| self.seat_states[s].rank.is_none())
            .unwrap_or(seat)
    }

    pub(crate) fn record(&mut self, mut record: MoveRecord) {
        record.turn = self.turns;
        record.time_ms = self.clock.map(|now| now());
        self.history.push(record);
    }
}
