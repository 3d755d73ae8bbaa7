//! Undo and redo in a few numbers per turn: a mark at the start of every turn a person plays
//! (the game's [`Checkpoint`] and where the dice stand), never a copy of the game. Redo keeps the
//! inputs that were taken back and plays them again, so what is redone is exactly what was undone.

use snl_engine::{Checkpoint, Event, Game, Input, Pending, SeatKind, SeededDice};
use snl_store::DiceState;

/// Where the dice stand, without the list of scripted rolls.
#[derive(Clone, Debug)]
#[expect(
    clippy::large_enum_variant,
    reason = "one per person's turn: a few hundred bytes, never the game"
)]
pub(crate) enum DiceMark {
    Seeded(SeededDice),
    Scripted(usize),
}

impl DiceMark {
    pub(crate) fn of(dice: &DiceState) -> DiceMark {
        match dice {
            DiceState::Seeded { generator, .. } => DiceMark::Seeded(generator.clone()),
            DiceState::Scripted(list) => DiceMark::Scripted(list.used()),
        }
    }

    pub(crate) fn restore(self, dice: &mut DiceState) {
        match (self, dice) {
            (DiceMark::Seeded(g), DiceState::Seeded { generator, .. }) => *generator = g,
            (DiceMark::Scripted(used), DiceState::Scripted(list)) => list.rewind_to(used),
            _ => debug_assert!(false, "a dice mark of another kind of dice"),
        }
    }
}

#[derive(Debug)]
pub(crate) struct Mark {
    checkpoint: Checkpoint,
    dice: DiceMark,
}

/// The marks of a session with a person at the table.
#[derive(Debug, Default)]
pub(crate) struct Undo {
    /// The start of each turn a person played, oldest first.
    marks: Vec<Mark>,
    /// What undo took back, latest last: the dice after it, and the inputs to play again.
    redo: Vec<(DiceMark, Vec<Input>)>,
}

impl Undo {
    /// Called before every input the session applies (with the dice before it): the mark to
    /// keep if the input starts a person's turn. Give it to [`Undo::after_input`] once the game
    /// took the input.
    pub(crate) fn before_input(game: &Game, dice: &DiceState) -> Option<Mark> {
        match game.pending() {
            // After a turn clock's expiry the turn is the computer's: its mark came before it.
            Pending::Roll { seat, again: false, .. }
                if game.seats()[seat].kind == SeatKind::Human && !game.turn_timed_out() =>
            {
                Some(Mark { checkpoint: game.checkpoint(), dice: DiceMark::of(dice) })
            }
            _ => None,
        }
    }

    /// After an input the game took: keeps the mark, and forgets what could be redone.
    pub(crate) fn after_input(&mut self, mark: Option<Mark>) {
        self.redo.clear();
        self.marks.extend(mark);
    }

    pub(crate) fn can_undo(&self, _game: &Game) -> bool {
        !self.marks.is_empty()
    }

    pub(crate) fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Takes back the turn in flight, or (between turns) back to the start of the last turn a
    /// person played; returns the dice to restore. What was taken back between turns can be
    /// redone.
    pub(crate) fn undo(&mut self, game: &mut Game, dice: DiceMark) -> Option<DiceMark> {
        let mark = self.marks.pop()?;
        if !game.in_turn() {
            self.redo.push((dice, game.inputs_since(&mark.checkpoint)));
        }
        game.rewind(&mark.checkpoint);
        Some(mark.dice)
    }

    /// Plays again what the last undo took back; returns its events and the dice to restore.
    pub(crate) fn redo(
        &mut self,
        game: &mut Game,
        dice: DiceMark,
    ) -> Option<(Vec<Event>, DiceMark)> {
        let (after, inputs) = self.redo.pop()?;
        self.marks.push(Mark { checkpoint: game.checkpoint(), dice });
        let mut events = Vec::new();
        for input in inputs {
            // The same inputs from the same state: the game accepted them before.
            events.extend(game.apply(input).unwrap_or_default());
        }
        Some((events, after))
    }
}
