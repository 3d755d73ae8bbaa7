//! The turn as a state machine (its states are `phase.rs`): how one input plays out — a roll begins a
//! turn, is moved under the overshoot rule and along jumps, then the bonus rule says whether the
//! same seat rolls again, the turn ends, or the game does.

use crate::{
    board::Jump,
    dice::Roll,
    event::{Event, Observer},
    game::Game,
    moves::{Met, MoveOption, Next},
    phase::{ApplyError, Input, Moving, Pending, Phase, Status, Turn},
    record::{Decision, MoveKind, MoveRecord},
    rules::{AfterRoll, Finish},
};

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
