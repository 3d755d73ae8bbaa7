//! Rounds and the end of a game by time (SPEC §3b): a round is complete when the turn comes back
//! round the table; when the game clock runs out ([`Input::TimeUp`](crate::Input::TimeUp)) the round in play is
//! completed and the game ends with the unfinished players ranked by position, ties by seating
//! order — the ranking a race ends with too ([`Game::end_by_position`]).
//!
//! A turn clock's expiry ([`Input::TurnTimeUp`](crate::Input::TurnTimeUp)) is an input too: it
//! tells `timed_out` and hands the rest of that turn to the computer, whose rolls and choices
//! come after it as usual.
//!
//! The clocks are the caller's: the engine only takes their expiries as inputs, recorded in the
//! game's state ([`GameState::time_up`](crate::GameState::time_up),
//! [`GameState::timed_out`](crate::GameState::timed_out)) at the input they came after, so a
//! replay gives the same game event for event. A turn clock's expiry counts as an input itself
//! (so where the game clock ran out says whether it came before or after it); the game clock's
//! does not (it comes once, and saves written before turn clocks count without it).

use crate::{
    event::{Event, Observer},
    game::Game,
    phase::{ApplyError, Checkpoint, Input, Phase, Status},
};

impl Game {
    /// Rounds completed: every seat still playing has had its turn that many times.
    pub fn rounds(&self) -> u32 {
        self.rounds.done
    }

    /// The number of inputs applied before time was called
    /// ([`Input::TimeUp`](crate::Input::TimeUp)), once it was.
    pub fn time_up(&self) -> Option<u32> {
        self.rounds.time_up
    }

    /// Where each turn clock expiry came ([`Input::TurnTimeUp`]): the number of inputs applied
    /// before it (earlier expiries count as inputs), in order.
    pub fn timed_out(&self) -> &[u32] {
        &self.timed_out
    }

    /// True when the turn clock ran out in the turn in play: the rest of it is the computer's.
    pub fn turn_timed_out(&self) -> bool {
        match &self.phase {
            Phase::Roll(turn) | Phase::Choice { turn, .. } => turn.timed_out,
            Phase::Draw(moving) => moving.turn.timed_out,
            Phase::Over => false,
        }
    }

    /// Counts a round when the turn passing from `seat` to `next` goes back round the table;
    /// returns whether it did.
    pub(crate) fn count_round(&mut self, seat: usize, next: usize) -> bool {
        let ends = next <= seat;
        if ends {
            self.rounds.done += 1;
            self.rounds.at_start = true;
        }
        ends
    }

    /// Inputs applied so far: each roll, each choice made, each wormhole's draw, those of the
    /// roll still in play (awaiting a choice or a draw), and each turn clock expiry.
    pub(crate) fn inputs(&self) -> u32 {
        let played = self.played_inputs(self.history.len(), &self.phase);
        (played.len() + self.timed_out.len()) as u32
    }

    /// The rolls, choices and draws of the first `records` records of the history, then those
    /// of the roll in play in `phase` (awaiting a choice or a draw), in order.
    fn played_inputs(&self, records: usize, phase: &Phase) -> Vec<Input> {
        let mut inputs = Vec::new();
        let mut add = |roll, chosen: Option<usize>, jumps: &[crate::Jump]| {
            inputs.push(Input::Roll { roll });
            if let Some(option) = chosen {
                inputs.push(Input::Choose { option });
            }
            for (index, _) in self.board.draws_of(jumps) {
                inputs.push(Input::Draw { index });
            }
        };
        for m in &self.history[..records] {
            add(m.roll, m.chosen, &m.jumps);
        }
        match phase {
            Phase::Choice { roll, .. } => add(*roll, None, &[]),
            Phase::Draw(moving) => add(moving.roll, moving.chosen, &moving.jumps),
            Phase::Roll(_) | Phase::Over => {}
        }
        inputs
    }

    /// Every input of the game so far, in the order it was applied: rolls, choices, draws and
    /// the clocks' expiries. Applied one by one to a new game with the same board, rules and
    /// seats, they play this game again event for event.
    pub fn inputs_applied(&self) -> Vec<Input> {
        let played = self.played_inputs(self.history.len(), &self.phase);
        let mut clock = Expiries::new(self.rounds.time_up, &self.timed_out);
        let mut inputs = Vec::with_capacity(played.len() + self.timed_out.len() + 1);
        for input in played {
            inputs.extend(clock.due());
            inputs.push(input);
            clock.count();
        }
        inputs.extend(clock.due());
        inputs
    }

    /// The inputs applied since `checkpoint` (an earlier point of this game's line of play), in
    /// order: what plays the game again from there (redo).
    pub fn inputs_since(&self, checkpoint: &Checkpoint) -> Vec<Input> {
        let before = self.played_inputs(checkpoint.history_len, &checkpoint.phase).len()
            + checkpoint.timed_out;
        let mut inputs = self.inputs_applied();
        // Time was called before the checkpoint when it says so; it counts as no input.
        let called = usize::from(checkpoint.rounds.time_up.is_some());
        inputs.drain(..(before + called).min(inputs.len()));
        inputs
    }

    /// [`Input::TurnTimeUp`]: tells `timed_out` (after the game's start, before the first roll)
    /// and marks the turn in play as the computer's.
    pub(crate) fn turn_time_up(&mut self, observer: &mut impl Observer) -> Result<(), ApplyError> {
        let at = self.inputs();
        let (turn, seat) = match &mut self.phase {
            Phase::Roll(turn) | Phase::Choice { turn, .. } => (&mut turn.timed_out, turn.seat),
            Phase::Draw(moving) => (&mut moving.turn.timed_out, moving.turn.seat),
            Phase::Over => return Err(ApplyError::GameOver),
        };
        if std::mem::replace(turn, true) {
            return Err(ApplyError::TurnAlreadyTimedOut);
        }
        self.timed_out.push(at);
        if self.status == Status::NotStarted {
            self.status = Status::Running;
            let players = (0..self.seats.len()).collect();
            observer.event(&Event::GameStarted { players, board_size: self.board.size() });
        }
        observer.event(&Event::TimedOut { player: seat });
        Ok(())
    }

    /// [`Input::TimeUp`](crate::Input::TimeUp): tells `time_up`, then ends the game at once between rounds, else
    /// marks the round in play as the last.
    pub(crate) fn call_time(&mut self, observer: &mut impl Observer) -> Result<(), ApplyError> {
        if self.rounds.time_up.is_some() {
            return Err(ApplyError::TimeAlreadyUp);
        }
        self.rounds.time_up = Some(self.inputs());
        if self.status == Status::NotStarted {
            self.status = Status::Running;
            let players = (0..self.seats.len()).collect();
            observer.event(&Event::GameStarted { players, board_size: self.board.size() });
        }
        observer.event(&Event::TimeUp {});
        if self.rounds.at_start && !self.in_turn() {
            self.end_by_position(observer);
            self.phase = Phase::Over;
        }
        Ok(())
    }

    /// Ends the game: the players not yet ranked are ranked by how far they got, ties in seating
    /// order; tells `game_ended`.
    pub(crate) fn end_by_position(&mut self, observer: &mut impl Observer) {
        let mut rest: Vec<usize> =
            (0..self.seats.len()).filter(|&s| self.seat_states[s].rank.is_none()).collect();
        // A stable sort: ties keep seating order.
        rest.sort_by_key(|&s| std::cmp::Reverse(self.seat_states[s].cell));
        for s in rest {
            self.seat_states[s].rank = Some(self.ranking.len() as u32 + 1);
            self.ranking.push(s);
        }
        self.status = Status::Finished;
        let ranking = self.ranking.clone();
        observer.event(&Event::GameEnded { ranking });
    }
}

/// The clocks' expiries of a game being played again, due by the count of inputs applied: the
/// game clock's after `time_up` inputs, each turn clock's at its place in `timed_out` (counting
/// as an input itself).
pub(crate) struct Expiries<'a> {
    time_up: Option<u32>,
    timed_out: &'a [u32],
    inputs: u32,
}

impl<'a> Expiries<'a> {
    pub(crate) fn new(time_up: Option<u32>, timed_out: &'a [u32]) -> Expiries<'a> {
        Expiries { time_up, timed_out, inputs: 0 }
    }

    /// The expiries due before the next input, in the order they came: the game clock's before
    /// a turn clock's at the same count (a turn clock's after it would count one more).
    pub(crate) fn due(&mut self) -> Vec<Input> {
        let mut due = Vec::new();
        loop {
            if self.time_up == Some(self.inputs) {
                self.time_up = None;
                due.push(Input::TimeUp);
            }
            match self.timed_out.split_first() {
                Some((&at, rest)) if at == self.inputs => {
                    self.timed_out = rest;
                    self.inputs += 1;
                    due.push(Input::TurnTimeUp);
                }
                _ => return due,
            }
        }
    }

    /// Counts the input just applied.
    pub(crate) fn count(&mut self) {
        self.inputs += 1;
    }

    /// Inputs counted so far.
    pub(crate) fn inputs(&self) -> u32 {
        self.inputs
    }

    /// The expiries that never came due: (the game clock's, the turn clocks').
    pub(crate) fn left(&self) -> (Option<u32>, &'a [u32]) {
        (self.time_up, self.timed_out)
    }
}

#[cfg(test)]
mod tests {
    use crate::{
        Board, Event, Finish, Game, Input, Pending, Preset, Roll, Rules, Seat, SeatKind, Status,
    };

    fn game(seats: &[&str], rules: Rules) -> Game {
        let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        let seats = seats.iter().map(|n| Seat::new(*n, SeatKind::Easy)).collect();
        Game::new(board, rules, seats).unwrap()
    }

    fn roll(game: &mut Game, face: u8) -> Vec<Event> {
        let roll = Roll::from_faces(&[face]);
        game.apply(Input::Roll { roll }).unwrap()
    }

    #[test]
    fn time_up_mid_round_lets_the_round_finish_then_ranks_by_position() {
        let mut g = game(&["Ann", "Bob", "Cy"], Rules::default());
        roll(&mut g, 2); // Ann 2
        let told = g.apply(Input::TimeUp).unwrap();
        assert_eq!(told, vec![Event::TimeUp {}]);
        assert_eq!(g.time_up(), Some(1));
        assert_eq!(g.apply(Input::TimeUp), Err(crate::ApplyError::TimeAlreadyUp));
        roll(&mut g, 4); // Bob 4
        assert_eq!(g.status(), Status::Running);
        let told = roll(&mut g, 2); // Cy 2: the round is complete
        assert_eq!(told.last(), Some(&Event::GameEnded { ranking: vec![1, 0, 2] }));
        assert_eq!(g.status(), Status::Finished);
        assert_eq!(g.pending(), Pending::Over);
        assert_eq!(g.ranks(), &[Some(2), Some(1), Some(3)]);
        assert_eq!(g.rounds(), 1);
    }

    #[test]
    fn time_up_between_rounds_ends_the_game_at_once() {
        let mut g = game(&["Ann", "Bob"], Rules::default());
        roll(&mut g, 3);
        roll(&mut g, 5);
        assert_eq!(g.rounds(), 1);
        let told = g.apply(Input::TimeUp).unwrap();
        assert_eq!(told, vec![Event::TimeUp {}, Event::GameEnded { ranking: vec![1, 0] }]);
        assert_eq!(g.status(), Status::Finished);
    }

    #[test]
    fn time_up_before_any_roll_starts_and_ends_the_game_in_seating_order() {
        let mut g = game(&["Ann", "Bob"], Rules::default());
        let told = g.apply(Input::TimeUp).unwrap();
        assert!(matches!(told[0], Event::GameStarted { .. }));
        assert_eq!(told[1..], [Event::TimeUp {}, Event::GameEnded { ranking: vec![0, 1] }]);
    }

    #[test]
    fn under_finish_all_a_player_finishing_mid_round_does_not_end_the_round() {
        let rules = Rules { finish: Finish::All, ..Rules::default() };
        let mut g = game(&["Ann", "Bob", "Cy"], rules);
        for (state, cell) in g.seat_states.iter_mut().zip([97, 12, 20]) {
            state.cell = cell;
        }
        g.apply(Input::TimeUp).unwrap();
        assert_eq!(g.status(), Status::Finished, "between rounds: at once");

        let mut g = game(&["Ann", "Bob", "Cy"], rules);
        for (state, cell) in g.seat_states.iter_mut().zip([97, 12, 20]) {
            state.cell = cell;
        }
        roll(&mut g, 3); // Ann finishes on 100: rank 1, the round goes on
        g.apply(Input::TimeUp).unwrap();
        roll(&mut g, 1); // Bob 13
        assert_eq!(g.status(), Status::Running);
        let told = roll(&mut g, 1); // Cy 21: round complete
        assert_eq!(told.last(), Some(&Event::GameEnded { ranking: vec![0, 2, 1] }));
    }

    #[test]
    fn a_saved_game_replays_its_time_up_at_the_same_input_event_for_event() {
        use crate::{Choice, RollSource, SeededDice};
        let rules = Rules { choice: Choice::MayPass, ..Rules::default() };
        // Time called at every input point of the first rounds, between inputs and at a choice.
        for at in 0..12 {
            let mut g = game(&["Ann", "Bob", "Cy"], rules);
            let mut dice = SeededDice::new(at);
            let mut told = Vec::new();
            let mut inputs = 0;
            while g.status() != Status::Finished {
                if inputs == at {
                    g.apply_to(Input::TimeUp, &mut told).unwrap();
                    if g.status() == Status::Finished {
                        break;
                    }
                }
                let input = match g.pending() {
                    Pending::Roll { seat, dice: d, .. } => {
                        Input::Roll { roll: dice.roll(seat, d).unwrap() }
                    }
                    Pending::Choice(d) => Input::Choose { option: d.options.len() - 1 },
                    Pending::Draw { .. } | Pending::Over => unreachable!(),
                };
                g.apply_to(input, &mut told).unwrap();
                inputs += 1;
            }
            assert!(told.contains(&Event::TimeUp {}), "time up at {at}");
            let state = g.state();
            assert_eq!(state.time_up, Some(at as u32));
            let mut again = Vec::new();
            let back = Game::replay(&state, &mut again).unwrap();
            assert_eq!(again, told, "time up at {at}");
            assert_eq!(back.ranking(), g.ranking());
            let text = serde_json::to_string(&state).unwrap();
            assert!(text.contains(&format!("\"time_up\":{at}")), "{text}");
        }
    }
}
