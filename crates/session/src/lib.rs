// Long on purpose: the session is the one door for every front end; its intents, seats and numbering are one type.
//! One door for every front end: a [`Session`] is a game with its dice, its seats (people,
//! computers, people on autopilot), undo and redo, and the recorders that keep it. Intents go in
//! ([`Session::act`] for a person, [`Session::play_computer`] for a computer seat), numbered
//! events come out; nothing inside blocks, reads a clock or a keyboard. The console, the
//! full-screen terminal game and the server are loops around it, each owning its own keyboard,
//! clock or socket.
//!
//! ```
//! use snl_engine::{Board, Preset, Rules, Seat, SeatKind};
//! use snl_session::{Awaiting, Intent, Session};
//! use snl_store::DiceState;
//!
//! let rules = Rules::default();
//! let board = Board::new(&Preset::Classic.spec(), &rules)?;
//! let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Robo", SeatKind::Hard)];
//! let game = snl_engine::Game::new(board, rules, seats)?;
//! let mut session = Session::new(game, DiceState::seeded(7), "classic");
//! let mut told = Vec::new();
//! loop {
//!     let events = match session.awaiting() {
//!         Awaiting::Over => break,
//!         Awaiting::Computer { .. } => session.play_computer()?,
//!         Awaiting::Roll { seat } => session.act(seat, Intent::Roll)?,
//!         Awaiting::Choice(decision) => session.act(decision.seat, Intent::Choose { option: 0 })?,
//!     };
//!     told.extend(events);
//! }
//! assert_eq!(told[0].seq, 1);
//! assert!(told.windows(2).all(|w| w[1].seq == w[0].seq + 1));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

pub mod achievements;
pub mod dice_stats;
pub mod fairness;
mod intent;
mod keep;
pub mod series;
mod undo;

use snl_analysis::strategy::{Computers, Strategy};
use snl_engine::{Event, Game, Input, Numbered, Pending, RollSource, SeatKind, Status};
use snl_store::{Action, DiceState, Save};

pub use achievements::{Achievement, Achievements, Award};
pub use intent::{Awaiting, Intent, SessionError};
pub use keep::{GameDb, Kept, Recorder, SaveFile};
use undo::{DiceMark, Undo};

/// A game being played: see the crate documentation.
#[derive(Debug)]
pub struct Session {
    game: Game,
    dice: DiceState,
    board_name: String,
    autopilot: Vec<bool>,
    computers: Computers,
    /// Only with a person at the table.
    undo: Option<Undo>,
    recorders: Vec<Box<dyn Recorder>>,
    /// The sequence number of the last event told.
    seq: u64,
    /// The game's events since the last turn ended, for the recorders.
    turn: Vec<Numbered<usize>>,
    notes: Vec<String>,
    stopped: bool,
    /// Whether the stream told the game's start.
    started: bool,
}

impl Session {
    /// A session around `game` (new, loaded or resumed) and its dice where they stand. Events
    /// are numbered after the game's history: a resumed game goes on with the numbers it had
    /// (counted by replaying the history; [`Session::at`] takes the number when it is known).
    pub fn new(game: Game, dice: DiceState, board_name: &str) -> Session {
        let seq = if game.history().is_empty() {
            0
        } else {
            let mut count = Count(0);
            // The history replays to the same game: it was checked when the game was restored.
            let _ = Game::replay(&game.state(), &mut count);
            count.0
        };
        Session::at(game, dice, board_name, seq)
    }

    /// A session around a game read back from a save or the database, whose last event told was
    /// number `seq` when that was kept ([`Save::seq`]); counted by replaying the history when it
    /// was not (files written before it was kept).
    pub fn resume(game: Game, dice: DiceState, board_name: &str, seq: Option<u64>) -> Session {
        match seq {
            Some(seq) => Session::at(game, dice, board_name, seq),
            None => Session::new(game, dice, board_name),
        }
    }

    /// A session around `game` and its dice, whose last event told was number `seq`: its next
    /// event is `seq + 1`. As [`Session::new`] without replaying the history to count its
    /// events, for a caller that knows the number (a room whose stream told presence and chat
    /// before the game began, the replay viewer at each point).
    pub fn at(game: Game, dice: DiceState, board_name: &str, seq: u64) -> Session {
        let people = game.seats().iter().any(|s| s.kind == SeatKind::Human);
        Session {
            autopilot: vec![false; game.seats().len()],
            computers: Computers::new(dice.seed().unwrap_or(0)),
            undo: people.then(Undo::default),
            recorders: Vec::new(),
            seq,
            turn: Vec::new(),
            notes: Vec::new(),
            stopped: false,
            started: game.status() != Status::NotStarted,
            board_name: board_name.to_owned(),
            game,
            dice,
        }
    }

    /// The same session without undo and redo: no mark is kept at each person's turn (a
    /// server's rooms offer no undo, and a mark per turn is memory that only grows).
    #[must_use]
    pub fn without_undo(mut self) -> Session {
        self.undo = None;
        self
    }

    /// Adds a recorder: it is told after every turn, undo and redo, and when the session stops.
    /// A recorder that fails is dropped with a note ([`Session::take_notes`]); the game goes on.
    pub fn record_with(&mut self, recorder: Box<dyn Recorder>) {
        self.recorders.push(recorder);
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The dice where they stand.
    pub fn dice(&self) -> &DiceState {
        &self.dice
    }

    /// The game as a save keeps it, with the number of its last event.
    pub fn save(&self) -> Save {
        Save::numbered(&self.game, &self.dice, &self.board_name, self.seq)
    }

    /// What the board is called (for saves and the database).
    pub fn board_name(&self) -> &str {
        &self.board_name
    }

    /// The last event's sequence number (0 before any).
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// Numbers an event the front end adds to the stream that is no part of the game (an
    /// online room's presence and chat lines): the next number, as for the game's own events.
    /// The recorders are not told it.
    pub fn tell_aside<P>(&mut self, event: Event<P>) -> Numbered<P> {
        self.seq += 1;
        Numbered { seq: self.seq, event }
    }

    /// Whether `seat` is handed to the computer.
    pub fn on_autopilot(&self, seat: usize) -> bool {
        self.autopilot[seat]
    }

    /// Whether an undo, and a redo, would be accepted now.
    pub fn can_undo_redo(&self) -> (bool, bool) {
        self.undo.as_ref().map_or((false, false), |u| (u.can_undo(&self.game), u.can_redo()))
    }

    /// Notes for people since the last call: a recorder that stopped working, a strategy that
    /// could not be computed.
    pub fn take_notes(&mut self) -> Vec<String> {
        let mut notes = std::mem::take(&mut self.notes);
        notes.extend(self.computers.take_notes());
        notes
    }

    /// Whether a computer's next choice would first compute the hard strategy's policy: the
    /// game offers choices, is not over, has a seat the hard strategy may play (a hard
    /// computer, or a person whose turn clock runs out or who hands over), and the policy is
    /// neither given nor given up. A server computes it off its event loop, under a deadline,
    /// then calls [`Session::give_policy`] or [`Session::policy_unavailable`].
    pub fn wants_policy(&self) -> bool {
        self.computers.hard_pending()
            && self.game.rules().choice != snl_engine::Choice::None
            && self.game.status() != Status::Finished
            && self
                .game
                .seats()
                .iter()
                .any(|s| matches!(s.kind, SeatKind::Hard | SeatKind::Win | SeatKind::Human))
    }

    /// Each seat's chance to win from where the tokens stand, in seating order, when `win`
    /// computers play and their game is solved (at their first choice): every seat playing as
    /// solved (a person as `hard`). `None` otherwise, or when the solution does not cover the
    /// game as it stands (a seat has finished): the race of independent tokens
    /// ([`snl_analysis::exact::live_odds`]) is the answer then.
    pub fn win_odds(&self) -> Option<Vec<f64>> {
        self.computers.to_win()?.chances_at(&self.game)
    }

    /// The hard strategy plays with `policy`, computed for this game's board and rules.
    pub fn give_policy(&mut self, policy: std::sync::Arc<snl_analysis::strategy::HardPolicy>) {
        self.computers.give_hard(policy);
    }

    /// The hard strategy's policy is given up: greedy plays in its place.
    pub fn policy_unavailable(&mut self) {
        self.computers.hard_unavailable();
    }

    /// Whether the session was stopped with [`Intent::Quit`] (or [`Session::stop`]).
    pub fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// What the session waits for.
    pub fn awaiting(&self) -> Awaiting {
        if self.stopped {
            return Awaiting::Over;
        }
        match self.game.pending() {
            Pending::Over => Awaiting::Over,
            Pending::Roll { seat, .. } | Pending::Draw { seat, .. } if self.is_computer(seat) => {
                Awaiting::Computer { seat }
            }
            Pending::Choice(d) if self.is_computer(d.seat) => Awaiting::Computer { seat: d.seat },
            // A draw is awaited only when the dice could not give one (scripted rolls ran out):
            // rolling again asks the dice for it.
            Pending::Roll { seat, .. } | Pending::Draw { seat, .. } => Awaiting::Roll { seat },
            Pending::Choice(decision) => Awaiting::Choice(decision),
        }
    }

    /// A computer seat, a person on autopilot, or a person whose turn clock ran out in the turn
    /// in play.
    fn is_computer(&self, seat: usize) -> bool {
        self.game.seats()[seat].kind.is_computer()
            || self.autopilot[seat]
            || (self.game.turn_timed_out() && seat == self.game.current())
    }

    /// A person at `seat` asks for `intent`; returns the events it caused, numbered.
    ///
    /// # Errors
    ///
    /// [`SessionError`] when the intent is not the seat's to make now; nothing changes then.
    pub fn act(
        &mut self,
        seat: usize,
        intent: Intent,
    ) -> Result<Vec<Numbered<usize>>, SessionError> {
        if self.stopped || self.game.status() == Status::Finished {
            return Err(SessionError::Over);
        }
        if seat >= self.autopilot.len() || self.game.seats()[seat].kind.is_computer() {
            return Err(SessionError::NotAPerson { seat });
        }
        match intent {
            Intent::Roll | Intent::Choose { .. } => {
                if self.autopilot[seat] {
                    return Err(SessionError::NotAPerson { seat });
                }
                let awaited = match self.game.pending() {
                    Pending::Roll { seat, .. } | Pending::Draw { seat, .. } => seat,
                    Pending::Choice(d) => d.seat,
                    Pending::Over => return Err(SessionError::Over),
                };
                if awaited != seat {
                    return Err(SessionError::NotYourTurn { seat });
                }
                if self.game.turn_timed_out() {
                    // The clock ran out: the rest of the turn is the computer's.
                    return Err(SessionError::NotAPerson { seat });
                }
                match intent {
                    Intent::Choose { option } => self.input(Input::Choose { option }),
                    _ => self.roll(),
                }
            }
            Intent::Autopilot { on } => Ok(self.autopilot(seat, on)),
            Intent::Undo => self.undo(),
            Intent::Redo => self.redo(),
            Intent::Quit => {
                self.stop();
                Ok(Vec::new())
            }
        }
    }

    /// Plays the next input of the computer seat the session awaits: a roll, or its strategy's
    /// choice (`hard` for a person on autopilot).
    ///
    /// # Errors
    ///
    /// [`SessionError::NotAPerson`] reversed: [`SessionError::NotYourTurn`] when a person is
    /// awaited; [`SessionError::Over`] when nothing is; [`SessionError::Dice`] when the dice
    /// cannot roll.
    pub fn play_computer(&mut self) -> Result<Vec<Numbered<usize>>, SessionError> {
        let seat = match self.awaiting() {
            Awaiting::Computer { seat } => seat,
            Awaiting::Over => return Err(SessionError::Over),
            Awaiting::Roll { seat } => return Err(SessionError::NotYourTurn { seat }),
            Awaiting::Choice(d) => return Err(SessionError::NotYourTurn { seat: d.seat }),
        };
        self.play_for(seat)
    }

    /// Plays `seat`'s awaited input as the computer does: a roll, or the choice of the seat's
    /// strategy (`hard` for a person).
    fn play_for(&mut self, seat: usize) -> Result<Vec<Numbered<usize>>, SessionError> {
        match self.game.pending() {
            Pending::Choice(decision) => {
                let kind = self.game.seats()[seat].kind;
                let strategy = Strategy::of_kind(kind).unwrap_or(Strategy::Hard);
                let option = self.computers.choose(strategy, &self.game, &decision);
                self.input(Input::Choose { option })
            }
            _ => self.roll(),
        }
    }

    /// A person's turn clock ran out (`--turn-time`, a room's `turn_time`): the game takes the
    /// expiry ([`Input::TurnTimeUp`]: it tells `timed_out` and is kept in the history), then the
    /// rest of `seat`'s turn is played as [`Session::play_computer`] would (the hard strategy
    /// for a person). The front end owns the clock; the expiry and what the computer plays
    /// (rolls, choices) go into the history, so a replay plays the turn alike, and recorders
    /// are told `timed_out` with the turn's events. Undo takes the expiry back with the turn.
    ///
    /// When the dice cannot roll (scripted rolls ran out) before anything was played, nothing
    /// changes and the dice's error is returned; later in the turn, what was played is returned
    /// and the rest of the turn stays the computer's ([`Awaiting::Computer`]; calling this again
    /// plays on).
    ///
    /// # Errors
    ///
    /// [`SessionError::Over`] when the game is over or the session stopped;
    /// [`SessionError::NotYourTurn`] when `seat` is not the person awaited;
    /// [`SessionError::Dice`] as said above.
    pub fn time_out(&mut self, seat: usize) -> Result<Vec<Numbered<usize>>, SessionError> {
        let expired = match self.awaiting() {
            Awaiting::Over => return Err(SessionError::Over),
            Awaiting::Roll { seat: s } if s == seat => false,
            Awaiting::Choice(d) if d.seat == seat => false,
            // The clock ran out in this turn already: the computer plays on.
            Awaiting::Computer { seat: s } if s == seat && self.game.turn_timed_out() => true,
            _ => return Err(SessionError::NotYourTurn { seat }),
        };
        let mut told = Vec::new();
        if !expired {
            // Dice that cannot play the turn's next input leave the clock's expiry untaken.
            match self.game.pending() {
                Pending::Roll { dice, .. } => {
                    self.dice.clone().roll(seat, dice)?;
                }
                Pending::Draw { exits, .. } => {
                    self.dice.clone().draw(seat, exits.len() as u32)?;
                }
                Pending::Choice(_) | Pending::Over => {}
            }
            let mark = self.undo.as_ref().and_then(|_| Undo::before_input(&self.game, &self.dice));
            told = self.apply(Input::TurnTimeUp, mark)?;
        }
        while self.game.turn_timed_out() {
            match self.play_for(seat) {
                Ok(events) => told.extend(events),
                Err(e) if told.is_empty() => return Err(e),
                Err(_) => break,
            }
        }
        Ok(told)
    }

    /// The game clock ran out (`--game-time`, a room's `game_time`): the round in play is
    /// completed, then the game ends ranked by position ([`Input::TimeUp`]). The front end owns
    /// the clock; the expiry goes into the game's history, so a replay ends the game alike.
    ///
    /// # Errors
    ///
    /// [`SessionError::Over`] when the game is over or the session stopped;
    /// [`SessionError::Refused`] when time was called already.
    pub fn time_up(&mut self) -> Result<Vec<Numbered<usize>>, SessionError> {
        if self.stopped || self.game.status() == Status::Finished {
            return Err(SessionError::Over);
        }
        self.apply(Input::TimeUp, None)
    }

    /// Throws the dice for the awaited roll and plays it. Dice that cannot roll change nothing.
    fn roll(&mut self) -> Result<Vec<Numbered<usize>>, SessionError> {
        if let Pending::Draw { .. } = self.game.pending() {
            // A wormhole's draw the dice could not give before: ask them again.
            let mut events = Vec::new();
            self.draw_into(&mut events)?;
            return Ok(self.tell(events));
        }
        // Taken before the dice move: undo brings back the dice as they were before this roll.
        let mark = self.undo.as_ref().and_then(|_| Undo::before_input(&self.game, &self.dice));
        let roll = self.dice.roll(self.game.current(), self.game.rules().thrown_dice())?;
        // The dice threw what they can throw, for the seat the game awaits: the game takes it.
        self.apply(Input::Roll { roll }, mark)
    }

    /// Applies a choice.
    fn input(&mut self, input: Input) -> Result<Vec<Numbered<usize>>, SessionError> {
        let mark = self.undo.as_ref().and_then(|_| Undo::before_input(&self.game, &self.dice));
        self.apply(input, mark)
    }

    /// Applies one input to the game; `mark` is what undo keeps if the input is taken.
    fn apply(
        &mut self,
        input: Input,
        mark: Option<undo::Mark>,
    ) -> Result<Vec<Numbered<usize>>, SessionError> {
        let mut events = self.game.apply(input)?;
        if let Some(undo) = &mut self.undo {
            undo.after_input(mark);
        }
        // A wormhole's draw comes from the dice at once: it is no one's decision. Dice that
        // cannot draw (scripted rolls ran out) leave it awaited; the next roll asks again and
        // reports the dice's error.
        let _ = self.draw_into(&mut events);
        Ok(self.tell(events))
    }

    /// Draws from the dice while a wormhole awaits its exit, adding the events to `events`.
    fn draw_into(&mut self, events: &mut Vec<Event>) -> Result<(), SessionError> {
        while let Pending::Draw { seat, exits, .. } = self.game.pending() {
            let index = self.dice.draw(seat, exits.len() as u32)?;
            events.extend(self.game.apply(Input::Draw { index })?);
        }
        Ok(())
    }

    /// Numbers a played input's events and hands them to the recorders (once a turn is over).
    fn tell(&mut self, events: Vec<Event>) -> Vec<Numbered<usize>> {
        let told = self.number(events);
        if !self.recorders.is_empty() {
            self.turn.extend(told.iter().cloned());
            // A turn timed out before its first roll is kept with that turn.
            if !self.game.in_turn() && !self.game.turn_timed_out() {
                let events = std::mem::take(&mut self.turn);
                self.keep(Action::Turn, &events);
            }
        }
        told
    }

    fn autopilot(&mut self, seat: usize, on: bool) -> Vec<Numbered<usize>> {
        if std::mem::replace(&mut self.autopilot[seat], on) == on {
            return Vec::new();
        }
        self.number(vec![Event::Autopilot { player: seat, on }])
    }

    fn undo(&mut self) -> Result<Vec<Numbered<usize>>, SessionError> {
        let undo = self.undo.as_mut().ok_or(SessionError::NothingToUndo)?;
        let dice = undo.undo(&mut self.game, DiceMark::of(&self.dice));
        dice.ok_or(SessionError::NothingToUndo)?.restore(&mut self.dice);
        self.turn.clear();
        let (player, turn) = (self.game.current(), self.game.turns() + 1);
        let told = self.number(vec![Event::Undone { player, turn }]);
        self.keep(Action::Undo, &told);
        Ok(told)
    }

    fn redo(&mut self) -> Result<Vec<Numbered<usize>>, SessionError> {
        let undo = self.undo.as_mut().ok_or(SessionError::NothingToRedo)?;
        let first = self.game.turns() + 1;
        let redone = undo.redo(&mut self.game, DiceMark::of(&self.dice));
        let (events, dice) = redone.ok_or(SessionError::NothingToRedo)?;
        dice.restore(&mut self.dice);
        let mut told = vec![Event::Redone { from_turn: first, to_turn: self.game.turns() }];
        told.extend(events);
        let told = self.number(told);
        self.keep(Action::Redo, &told);
        Ok(told)
    }

    /// Stops the session: recorders mark the game stopped (it stays resumable).
    pub fn stop(&mut self) {
        if std::mem::replace(&mut self.stopped, true) || self.game.status() == Status::Finished {
            return;
        }
        let kept = Kept {
            action: Action::Turn,
            game: &self.game,
            dice: &self.dice,
            board_name: &self.board_name,
            events: &[],
            seq: self.seq,
            urgent: true,
        };
        let mut failed = Vec::new();
        for (i, recorder) in self.recorders.iter_mut().enumerate() {
            if let Err(note) = recorder.flush(&kept).and_then(|()| recorder.stopped()) {
                failed.push(i);
                self.notes.push(note);
            }
        }
        for i in failed.into_iter().rev() {
            self.recorders.remove(i);
        }
    }

    fn keep(&mut self, action: Action, events: &[Numbered<usize>]) {
        let urgent = action != Action::Turn
            || self.stopped
            || !matches!(self.awaiting(), Awaiting::Computer { .. });
        let kept = Kept {
            action,
            game: &self.game,
            dice: &self.dice,
            board_name: &self.board_name,
            events,
            seq: self.seq,
            urgent,
        };
        let mut failed = Vec::new();
        for (i, recorder) in self.recorders.iter_mut().enumerate() {
            if let Err(note) = recorder.keep(&kept) {
                failed.push(i);
                self.notes.push(note);
            }
        }
        for i in failed.into_iter().rev() {
            self.recorders.remove(i);
        }
    }

    fn number(&mut self, events: Vec<Event>) -> Vec<Numbered<usize>> {
        let mut told = Vec::with_capacity(events.len());
        for event in events {
            // After an undo back to before the first turn, the game starts again: the stream
            // told its start already.
            let start = matches!(event, Event::GameStarted { .. });
            if start && std::mem::replace(&mut self.started, true) {
                continue;
            }
            self.seq += 1;
            told.push(Numbered { seq: self.seq, event });
        }
        told
    }
}

/// Counts events (to number a resumed game's events after its history).
struct Count(u64);

impl snl_engine::Observer for Count {
    fn event(&mut self, _: &Event) {
        self.0 += 1;
    }
}
