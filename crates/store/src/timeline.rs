//! The turns of a session, kept so that people can take them back (undo) and put them back (redo).

use snl_engine::{Event, Game, SeatKind, Status};

use crate::dice::DiceState;

/// A game and its dice between two turns: everything needed to go on from there.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The game.
    pub game: Game,
    /// The dice, where they stand: restoring them makes the same rolls come again.
    pub dice: DiceState,
}

impl Snapshot {
    /// True if and only if the game is on and a person is to roll next.
    pub fn person_to_move(&self) -> bool {
        self.game.status() != Status::Finished
            && self.game.seats()[self.game.current()].kind == SeatKind::Human
    }
}

/// Every state a session has passed through between turns, and where it stands among them.
///
/// Undo goes back to the last state before the present in which a person was to roll — taking
/// back that person's turn and the computers' turns after it; redo goes forward again to the next
/// such state (or the furthest one). Because the dice are part of each state, what is redone is
/// exactly what was undone. Playing a turn from an earlier state forgets the states after it.
///
/// ```
/// use snl_engine::{Board, FirstOption, Game, Preset, Rules, Seat, SeatKind};
/// use snl_store::{DiceState, Snapshot, Timeline};
///
/// let rules = Rules::default();
/// let board = Board::new(&Preset::Classic.spec(), &rules)?;
/// let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Cpu", SeatKind::Easy)];
/// let (mut game, mut dice) = (Game::new(board, rules, seats)?, DiceState::seeded(1));
/// let mut timeline = Timeline::new(Snapshot { game: game.clone(), dice: dice.clone() });
/// for _ in 0..4 {
///     let mut events = Vec::new();
///     game.play_turn(&mut dice, &mut FirstOption, &mut events)?;
///     timeline.played(Snapshot { game: game.clone(), dice: dice.clone() }, events);
/// }
/// // Back over the computer's turn 4 and Ann's turn 3, to Ann's roll of turn 3.
/// assert_eq!(timeline.undo().unwrap().game.turns(), 2);
/// let (present, redone) = timeline.redo().unwrap();
/// assert_eq!((present.game.turns(), redone.len()), (4, 2));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Timeline {
    states: Vec<Snapshot>,
    // turns[i] holds the events of the turn from states[i] to states[i + 1].
    turns: Vec<Vec<Event>>,
    at: usize,
}

impl Timeline {
    /// A timeline that begins at `start` (a new game, or one loaded or resumed).
    pub fn new(start: Snapshot) -> Timeline {
        Timeline { states: vec![start], turns: Vec::new(), at: 0 }
    }

    /// Where the session stands.
    pub fn present(&self) -> &Snapshot {
        &self.states[self.at]
    }

    /// A turn was played from the present and gave `after`, telling `events`. States after the
    /// present, kept for redo, are forgotten.
    pub fn played(&mut self, after: Snapshot, events: Vec<Event>) {
        self.states.truncate(self.at + 1);
        self.turns.truncate(self.at);
        self.states.push(after);
        self.turns.push(events);
        self.at += 1;
    }

    fn undo_target(&self) -> Option<usize> {
        (0..self.at).rev().find(|&i| self.states[i].person_to_move())
    }

    fn redo_target(&self) -> Option<usize> {
        let last = self.states.len() - 1;
        (self.at < last)
            .then(|| (self.at + 1..last).find(|&i| self.states[i].person_to_move()).unwrap_or(last))
    }

    /// Whether there is a person's turn to take back.
    pub fn can_undo(&self) -> bool {
        self.undo_target().is_some()
    }

    /// Whether there is an undone turn to put back.
    pub fn can_redo(&self) -> bool {
        self.redo_target().is_some()
    }

    /// Goes back to the last state before the present in which a person was to roll, and returns
    /// it; `None` (and no change) when there is none.
    pub fn undo(&mut self) -> Option<&Snapshot> {
        self.at = self.undo_target()?;
        Some(self.present())
    }

    /// Goes forward to the next state in which a person is to roll (or the furthest state), and
    /// returns it with the events of every turn put back; `None` when nothing was undone.
    pub fn redo(&mut self) -> Option<(&Snapshot, &[Vec<Event>])> {
        let from = self.at;
        self.at = self.redo_target()?;
        Some((&self.states[self.at], &self.turns[from..self.at]))
    }
}

#[cfg(test)]
mod tests {
    use snl_engine::{Board, FirstOption, Preset, Rules, Seat};

    use super::*;

    /// A timeline of `turns` turns with seats of these kinds, and the live game at its end.
    fn session(kinds: &[SeatKind], turns: usize) -> (Timeline, Snapshot) {
        let rules = Rules::default();
        let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        let seats = kinds.iter().enumerate().map(|(i, &k)| Seat::new(format!("S{i}"), k)).collect();
        let mut now =
            Snapshot { game: Game::new(board, rules, seats).unwrap(), dice: DiceState::seeded(4) };
        let mut timeline = Timeline::new(now.clone());
        for _ in 0..turns {
            let mut events = Vec::new();
            now.game.play_turn(&mut now.dice, &mut FirstOption, &mut events).unwrap();
            timeline.played(now.clone(), events);
        }
        (timeline, now)
    }

    const HUMAN: SeatKind = SeatKind::Human;
    const CPU: SeatKind = SeatKind::Easy;

    #[test]
    fn undo_steps_back_one_persons_turn_at_a_time_over_computer_turns() {
        let (mut t, _) = session(&[HUMAN, CPU, CPU], 7);
        // Turns 1, 4, 7 are the person's; the present (7 turns played) is a computer's turn.
        assert_eq!(t.undo().unwrap().game.turns(), 6);
        assert_eq!(t.undo().unwrap().game.turns(), 3);
        assert_eq!(t.undo().unwrap().game.turns(), 0);
        assert!(!t.can_undo());
        assert!(t.undo().is_none());
        assert_eq!(t.present().game.turns(), 0);
    }

    #[test]
    fn redo_puts_back_exactly_what_undo_took_with_its_events() {
        let (mut t, live) = session(&[HUMAN, CPU], 6);
        t.undo();
        t.undo();
        assert_eq!(t.present().game.turns(), 2);
        let (state, turns) = t.redo().unwrap();
        assert_eq!(state.game.turns(), 4);
        assert_eq!(turns.len(), 2);
        let (state, _) = t.redo().unwrap();
        assert_eq!(state.game.state(), live.game.state());
        assert_eq!(state.dice, live.dice);
        assert!(!t.can_redo());
    }

    #[test]
    fn two_people_each_undo_the_last_persons_turn() {
        let (mut t, _) = session(&[HUMAN, HUMAN], 4);
        assert_eq!(t.undo().unwrap().game.turns(), 3);
        assert_eq!(t.undo().unwrap().game.turns(), 2);
    }

    #[test]
    fn playing_after_an_undo_forgets_what_could_be_redone() {
        let (mut t, _) = session(&[HUMAN, CPU], 4);
        t.undo();
        let mut now = t.present().clone();
        now.game.play_turn(&mut now.dice, &mut FirstOption, &mut ()).unwrap();
        t.played(now, Vec::new());
        assert!(!t.can_redo());
        assert!(t.can_undo());
    }

    #[test]
    fn computers_alone_have_nothing_to_undo() {
        let (t, _) = session(&[CPU, CPU], 5);
        assert!(!t.can_undo());
    }
}
