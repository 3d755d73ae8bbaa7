// Long because ~230 lines are unit tests of every kind of edited state.
//! Games as plain data: a [`GameState`] is what a save file or a database holds, and
//! [`Game::restore`] is the one door back to a [`Game`].
//!
//! A state repeats itself on purpose: it holds the positions, the ranking and whose turn it is,
//! and also the history of every roll. [`Game::restore`] replays the history from the start on
//! the saved board and rules and requires it to give exactly the saved positions, ranking and turn
//! — so a truncated, corrupted or hand-edited state is refused with a sentence naming what is
//! wrong, instead of becoming a game no one could have played.
//!
//! ```
//! use snl_engine::{Board, FirstOption, Game, Preset, Rules, SeededDice, Seat, SeatKind};
//! let rules = Rules::default();
//! let board = Board::new(&Preset::Classic.spec(), &rules)?;
//! let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Bob", SeatKind::Easy)];
//! let mut game = Game::new(board, rules, seats)?;
//! let mut dice = SeededDice::new(7);
//! for _ in 0..6 {
//!     game.play_turn(&mut dice, &mut FirstOption, &mut ())?;
//! }
//!
//! let state = game.state(); // plain data: serde, files, databases
//! let back = Game::restore(&state)?;
//! assert_eq!(back.positions(), game.positions());
//!
//! let mut edited = state.clone();
//! edited.seat_states[0] = snl_engine::SavedSeat::Cell(edited.seat_states[0].cell() + 1);
//! let err = Game::restore(&edited).unwrap_err();
//! assert!(err.to_string().starts_with("the saved position of Ann"), "{err}");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use serde::{Deserialize, Serialize};

use crate::{
    board::{Board, BoardError, BoardSpec},
    dice::Roll,
    event::Observer,
    game::{Game, SetupError},
    moves::MoveOption,
    phase::{Input, Pending, Phase, Status},
    record::{Decision, MoveKind, MoveRecord},
    rules::Rules,
    seat::{SavedSeat, Seat, SeatState},
    time_up::Expiries,
};

/// A game as plain data. Not necessarily valid: it becomes a [`Game`] only through
/// [`Game::restore`], which checks every field against the history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameState {
    /// The board, jumps in sorted order.
    pub board: BoardSpec,
    /// The rules in force.
    pub rules: Rules,
    /// The seats, in seating order.
    pub seats: Vec<Seat>,
    /// Not started, running or finished.
    pub status: Status,
    /// Turns played in the whole game.
    pub turns: u32,
    /// Whose turn is next (by seat index).
    pub current: usize,
    /// Every seat's state, in seating order. Saves written before seat states were kept hold
    /// each seat's cell alone, in a list named `positions`.
    #[serde(alias = "positions")]
    pub seat_states: Vec<SavedSeat>,
    /// Seats that have a rank, in rank order.
    pub ranking: Vec<usize>,
    /// Every roll of the game, in order.
    pub history: Vec<MoveRecord>,
    /// A roll made but not yet played to its end: the game awaits the seat's choice among its
    /// options, or a wormhole's draw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_roll: Option<Roll>,
    /// The option chosen for the pending roll, when a wormhole's draw is awaited after a choice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_choice: Option<usize>,
    /// The wormhole draws already made in the pending roll's move (exit indexes, in order).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending_draws: Vec<u32>,
    /// The game clock ran out after this many inputs (rolls, choices made, and a roll awaiting
    /// a choice): replayed there, so the game ends with that round as it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_up: Option<u32>,
    /// Where each turn clock ran out, in order: the number of inputs before it (counting earlier
    /// expiries of a turn clock as inputs). Replayed there, so `timed_out` is told again and the
    /// rest of the turn is the computer's as it was. Absent from saves without one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timed_out: Vec<u32>,
}

/// Why a [`GameState`] is not a game that could have been played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RestoreError {
    /// The board breaks a rule of SPEC §4.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// The seats cannot play on this board.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// There is not one position per seat.
    #[error("{positions} positions are given for {seats} players")]
    PositionCount {
        /// Positions given.
        positions: usize,
        /// Seats.
        seats: usize,
    },
    /// A position off the board.
    #[error("{name} stands on {position}, which is not on a board of {size} cells")]
    OffBoard {
        /// The seat's name.
        name: String,
        /// The position given.
        position: u32,
        /// N.
        size: u32,
    },
    /// A seat index that names no seat.
    #[error("the {field} names player number {index}, but the players are numbered 0 to {last}")]
    NoSuchSeat {
        /// Where the index was found.
        field: &'static str,
        /// The index.
        index: usize,
        /// The largest valid index.
        last: usize,
    },
    /// One roll of the history cannot be replayed as written.
    #[error("move {number} of the history {problem}")]
    History {
        /// The move's 1-based number in the history.
        number: usize,
        /// What is wrong with it.
        problem: String,
    },
    /// The roll awaiting a choice cannot be one.
    #[error("the roll awaiting a choice, {faces:?}, {problem}")]
    PendingRoll {
        /// Its faces.
        faces: Vec<u8>,
        /// What is wrong with it.
        problem: String,
    },
    /// The history ends with a clock's expiry the game cannot take.
    #[error("the end of the history {problem}")]
    End {
        /// What is wrong with it.
        problem: String,
    },
    /// A saved field disagrees with what the history gives.
    #[error("the saved {what} is {saved}, but the history gives {replayed}")]
    Mismatch {
        /// The field, in words ("position of Ann").
        what: String,
        /// Its saved value.
        saved: String,
        /// The value the history gives.
        replayed: String,
    },
}

impl Game {
    /// This game as plain data, for a save file or a database.
    pub fn state(&self) -> GameState {
        GameState {
            board: self.board().to_spec(),
            rules: *self.rules(),
            seats: self.seats().to_vec(),
            status: self.status(),
            turns: self.turns(),
            current: self.current(),
            seat_states: self.seat_states().iter().map(|&s| SavedSeat::Whole(s)).collect(),
            ranking: self.ranking().to_vec(),
            history: self.history().to_vec(),
            pending_roll: match &self.phase {
                Phase::Choice { roll, .. } => Some(*roll),
                Phase::Draw(moving) => Some(moving.roll),
                _ => None,
            },
            pending_choice: match &self.phase {
                Phase::Draw(moving) => moving.chosen,
                _ => None,
            },
            pending_draws: match &self.phase {
                Phase::Draw(moving) => {
                    self.board().draws_of(&moving.jumps).into_iter().map(|(i, _)| i).collect()
                }
                _ => Vec::new(),
            },
            time_up: self.time_up(),
            timed_out: self.timed_out().to_vec(),
        }
    }

    /// The game `state` describes, after checking it: the board and seats as [`Board::new`] and
    /// [`Game::new`] would, then the history replayed from the start must give exactly the
    /// saved positions, ranking, status, turn count and next player. The history keeps its time
    /// stamps; set a clock again with [`Game::set_clock`] to go on playing.
    ///
    /// # Errors
    ///
    /// [`RestoreError`] naming the first thing that does not hold.
    pub fn restore(state: &GameState) -> Result<Game, RestoreError> {
        Game::replay(state, &mut ())
    }

    /// As [`Game::restore`], telling `observer` every event of the history as it is replayed:
    /// the game again, event for event.
    ///
    /// # Errors
    ///
    /// As [`Game::restore`]; the observer may have heard part of the game when the history turns
    /// out to be inconsistent.
    pub fn replay(state: &GameState, observer: &mut impl Observer) -> Result<Game, RestoreError> {
        Game::replay_stepwise(state, observer, |_, _| {})
    }

    /// As [`Game::replay`], handing the game and the observer to `after` once each record of
    /// the history has been replayed: the game as it stood after every roll (a replay's points,
    /// the odds at any of them).
    ///
    /// # Errors
    ///
    /// As [`Game::replay`].
    pub fn replay_stepwise<O: Observer>(
        state: &GameState,
        observer: &mut O,
        mut after: impl FnMut(&Game, &O),
    ) -> Result<Game, RestoreError> {
        let board = Board::new(&state.board, &state.rules)?;
        let size = board.size();
        let mut game = Game::new(board, state.rules, state.seats.clone())?;
        check_shape(state, size)?;

        let records = state.history.as_slice();
        let mut clock = Clocks(Expiries::new(state.time_up, &state.timed_out));
        for (index, record) in records.iter().enumerate() {
            let number = index + 1;
            let history = |problem: String| RestoreError::History { number, problem };
            clock.tick(&mut game, observer).map_err(history)?;
            let seat = match game.pending() {
                Pending::Over => return Err(history("comes after the game had ended".to_owned())),
                Pending::Roll { seat, .. }
                | Pending::Choice(Decision { seat, .. })
                | Pending::Draw { seat, .. } => seat,
            };
            if record.seat != seat {
                let by = state
                    .seats
                    .get(record.seat)
                    .map_or_else(|| format!("player number {}", record.seat), |s| s.name.clone());
                let problem = format!("is by {by}, but it was {}'s turn", state.seats[seat].name);
                return Err(history(problem));
            }
            let before = game.history().len();
            let dice = game.rules().thrown_dice();
            if !record.roll.fits(dice) {
                let problem = format!("rolls {:?}, which {dice} cannot throw", record.roll.dice());
                return Err(history(problem));
            }
            game.apply_to(Input::Roll { roll: record.roll }, observer)
                .map_err(|e| history(e.to_string()))?;
            if let Pending::Choice(decision) = game.pending() {
                let option = match record.chosen {
                    Some(option) => option,
                    None => legacy_choice(records, index, &decision.options),
                };
                clock.tick(&mut game, observer).map_err(history)?;
                game.apply_to(Input::Choose { option }, observer)
                    .map_err(|e| history(format!("chooses option {option}, but {e}")))?;
            } else if record.chosen.is_some_and(|c| c != 0) {
                return Err(history(format!(
                    "chooses option {}, but the roll offered no choice",
                    record.chosen.unwrap_or(0)
                )));
            }
            // The wormholes' draws are in the record's jumps: each jump out of a wormhole ends
            // on the exit drawn.
            let mut draws = game.board().draws_of(&record.jumps).into_iter();
            while let Pending::Draw { from, exits, .. } = game.pending() {
                let Some((index, _)) = draws.next() else {
                    let problem = format!(
                        "says {}, but the roll enters wormhole {from}",
                        describe(record, &state.seats)
                    );
                    return Err(history(problem));
                };
                clock.tick(&mut game, observer).map_err(history)?;
                game.apply_to(Input::Draw { index }, observer).map_err(|_| {
                    let exits: Vec<String> = exits.iter().map(u32::to_string).collect();
                    history(format!(
                        "leaves wormhole {from} to a cell that is none of its exits ({})",
                        exits.join(", ")
                    ))
                })?;
            }
            let replayed = &game.history()[before];
            if !same_move(record, replayed) {
                let names = &state.seats;
                return Err(history(format!(
                    "says {}, but the roll gives {}",
                    describe(record, names),
                    describe(replayed, names)
                )));
            }
            after(&game, observer);
        }
        if let Some(roll) = state.pending_roll {
            let refused = |problem: String| RestoreError::PendingRoll {
                faces: roll.dice().to_vec(),
                problem,
            };
            clock.tick(&mut game, observer).map_err(refused)?;
            game.apply_to(Input::Roll { roll }, observer).map_err(|e| refused(e.to_string()))?;
            if let Some(option) = state.pending_choice {
                clock.tick(&mut game, observer).map_err(refused)?;
                game.apply_to(Input::Choose { option }, observer)
                    .map_err(|e| refused(format!("chooses option {option}, but {e}")))?;
            }
            for &index in &state.pending_draws {
                clock.tick(&mut game, observer).map_err(refused)?;
                game.apply_to(Input::Draw { index }, observer)
                    .map_err(|e| refused(format!("draws exit {index}, but {e}")))?;
            }
            if !matches!(game.pending(), Pending::Choice(_) | Pending::Draw { .. }) {
                return Err(refused("offers no choice".to_owned()));
            }
        }
        clock.expire(&mut game, observer).map_err(|problem| RestoreError::End { problem })?;
        match clock.0.left() {
            (Some(at), _) => {
                return Err(RestoreError::Mismatch {
                    what: "time up".into(),
                    saved: format!("after input {at}"),
                    replayed: format!("only {} inputs", clock.0.inputs()),
                });
            }
            (None, [at, ..]) => {
                return Err(RestoreError::Mismatch {
                    what: "turn clock expiry".into(),
                    saved: format!("after input {at}"),
                    replayed: format!("only {} inputs", clock.0.inputs()),
                });
            }
            (None, []) => {}
        }
        for (i, record) in records.iter().enumerate() {
            game.stamp(i, record.time_ms);
        }
        check_outcome(state, &game)?;
        Ok(game)
    }
}

/// The clocks' expiries while the history is replayed: [`Clocks::tick`] before each input (and
/// [`Clocks::expire`] once after the last) applies those whose moment has come.
struct Clocks<'a>(Expiries<'a>);

impl Clocks<'_> {
    /// Before an input: the expiries due, then the input is counted.
    fn tick(&mut self, game: &mut Game, observer: &mut impl Observer) -> Result<(), String> {
        self.expire(game, observer)?;
        self.0.count();
        Ok(())
    }

    /// The expiries due now, or why the game refuses one.
    fn expire(&mut self, game: &mut Game, observer: &mut impl Observer) -> Result<(), String> {
        for input in self.0.due() {
            game.apply_to(input, observer).map_err(|e| {
                let clock = if input == Input::TimeUp { "game" } else { "turn" };
                format!("follows an expiry of the {clock} clock that cannot be: {e}")
            })?;
        }
        Ok(())
    }
}

/// The checks that need no replay, so that a hand-edited number is named as such.
fn check_shape(state: &GameState, size: u32) -> Result<(), RestoreError> {
    let seats = state.seats.len();
    if state.seat_states.len() != seats {
        return Err(RestoreError::PositionCount { positions: state.seat_states.len(), seats });
    }
    for (seat, saved) in state.seats.iter().zip(&state.seat_states) {
        let position = saved.cell();
        if position > size {
            return Err(RestoreError::OffBoard { name: seat.name.clone(), position, size });
        }
    }
    let no_such = |field, index| RestoreError::NoSuchSeat { field, index, last: seats - 1 };
    if state.current >= seats {
        return Err(no_such("player to move", state.current));
    }
    if let Some(&index) = state.ranking.iter().find(|&&s| s >= seats) {
        return Err(no_such("ranking", index));
    }
    Ok(())
}

/// The saved summary fields against the replayed game.
fn check_outcome(state: &GameState, game: &Game) -> Result<(), RestoreError> {
    let names = |seats: &[usize]| {
        let list: Vec<&str> = seats.iter().map(|&s| state.seats[s].name.as_str()).collect();
        format!("[{}]", list.join(", "))
    };
    let mismatch = |what: String, saved: String, replayed: String| {
        Err(RestoreError::Mismatch { what, saved, replayed })
    };
    for (seat, (saved, replayed)) in state.seat_states.iter().zip(game.seat_states()).enumerate() {
        let name = &state.seats[seat].name;
        if saved.cell() != replayed.cell {
            let what = format!("position of {name}");
            return mismatch(what, saved.cell().to_string(), replayed.cell.to_string());
        }
        if let SavedSeat::Whole(saved) = saved {
            if saved != replayed {
                let (saved, replayed) = (seat_words(saved), seat_words(replayed));
                return mismatch(format!("state of {name}"), saved, replayed);
            }
        }
    }
    if state.ranking != game.ranking() {
        return mismatch("ranking".into(), names(&state.ranking), names(game.ranking()));
    }
    if state.status != game.status() {
        let word = |s: Status| format!("{s:?}").to_lowercase();
        return mismatch("status".into(), word(state.status), word(game.status()));
    }
    if state.turns != game.turns() {
        return mismatch(
            "number of turns".into(),
            state.turns.to_string(),
            game.turns().to_string(),
        );
    }
    if game.status() != Status::Finished && state.current != game.current() {
        let name = |s: usize| state.seats[s].name.clone();
        return mismatch("player to move".into(), name(state.current), name(game.current()));
    }
    Ok(())
}

/// A seat's state in words, for a mismatch: `cell 12, shield, 4 turns, 5 rolls`.
fn seat_words(s: &SeatState) -> String {
    let mut words = vec![format!("cell {}", s.cell)];
    if s.shield {
        words.push("shield".into());
    }
    if s.skip {
        words.push("skips its next turn".into());
    }
    if let Some(rank) = s.rank {
        words.push(format!("rank {rank}"));
    }
    words.push(format!("{} turns, {} rolls", s.turns, s.rolls));
    words.join(", ")
}

fn same_move(a: &MoveRecord, b: &MoveRecord) -> bool {
    (a.turn, a.seat, a.roll, a.from, a.to, &a.jumps, a.kind)
        == (b.turn, b.seat, b.roll, b.from, b.to, &b.jumps, b.kind)
}

/// The choice a record made before saves kept it (format 1): the option that lands where the
/// record says, and that was a top face when a bonus roll followed in the same turn. Saves
/// written since keep the chosen option itself, so nothing is guessed for them.
fn legacy_choice(records: &[MoveRecord], index: usize, options: &[MoveOption]) -> usize {
    let record = &records[index];
    let bonus_followed = records.get(index + 1).is_some_and(|next| next.turn == record.turn);
    let fits = |o: &MoveOption| match record.kind {
        MoveKind::Stayed => o.steps == 0,
        MoveKind::Voided => o.top_face,
        MoveKind::Moved | MoveKind::Blocked => o.steps > 0 && o.lands == record.to,
    };
    let want_top = bonus_followed || record.kind == MoveKind::Voided;
    options
        .iter()
        .position(|o| fits(o) && o.top_face == want_top)
        .or_else(|| options.iter().position(fits))
        .unwrap_or(0)
}

/// A move in words, for messages: `turn 3, Ann rolls 4: 2 → 6, ladder 6→25`.
fn describe(m: &MoveRecord, seats: &[Seat]) -> String {
    let who = seats.get(m.seat).map_or_else(|| format!("player {}", m.seat), |s| s.name.clone());
    let what = match m.kind {
        MoveKind::Moved => {
            let landed = m.jumps.first().map_or(m.to, |j| j.from);
            let jumps = m.jumps.iter().map(|j| format!(", {j}"));
            std::iter::once(format!("{} → {landed}", m.from)).chain(jumps).collect()
        }
        MoveKind::Blocked => format!("blocked on {}", m.from),
        MoveKind::Stayed => format!("stays on {}", m.from),
        MoveKind::Voided => format!("void, back to {}", m.to),
    };
    format!("turn {}, {who} rolls {}: {what}", m.turn, m.roll.total())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        BoardSpec, Choice, Decider, Dice, Event, FirstOption, JumpMode, Overshoot, Preset, RuleSet,
        ScriptedDice, SeatKind, SeededDice,
    };

    /// Takes option `k mod len` with a rotating `k`, so that every choice gets made.
    struct Rotate(usize);
    impl Decider for Rotate {
        fn decide(&mut self, _: &Game, decision: &Decision) -> usize {
            self.0 += 1;
            self.0 % decision.options.len()
        }
    }

    fn every_kind_of_rules() -> Vec<Rules> {
        let mut list: Vec<Rules> = RuleSet::ALL.iter().map(|s| s.rules()).collect();
        let strict = RuleSet::StrictSixes.rules();
        list.push(Rules { choice: Choice::PickDie, ..strict });
        list.push(Rules { choice: Choice::MayPass, overshoot: Overshoot::Bounce, ..strict });
        list.push(Rules { jumps: JumpMode::Chain, overshoot: Overshoot::Win, ..Rules::default() });
        list.push(Rules { dice: Dice::new(2, 3).unwrap(), ..RuleSet::ThreeSixes.rules() });
        list
    }

    fn new_game(rules: Rules, seats: usize) -> Game {
        let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        let seats = (0..seats).map(|i| Seat::new(format!("P{i}"), SeatKind::Easy)).collect();
        Game::new(board, rules, seats).unwrap()
    }

    /// A few turns of a seeded game with rotating choices, and its dice where they stand.
    fn played(rules: Rules, seed: u64, turns: usize) -> (Game, SeededDice, Rotate) {
        let mut game = new_game(rules, 3);
        let (mut dice, mut decider) = (SeededDice::new(seed), Rotate(seed as usize));
        for _ in 0..turns {
            if game.status() == Status::Finished {
                break;
            }
            game.play_turn(&mut dice, &mut decider, &mut ()).unwrap();
        }
        (game, dice, decider)
    }

    #[test]
    fn every_turn_of_every_kind_of_game_restores_to_the_same_state() {
        for rules in every_kind_of_rules() {
            for seed in 0..12 {
                let mut game = new_game(rules, 3);
                let (mut dice, mut decider) = (SeededDice::new(seed), Rotate(seed as usize));
                while game.status() != Status::Finished {
                    let state = game.state();
                    let back = Game::restore(&state)
                        .unwrap_or_else(|e| panic!("{rules}, seed {seed}: {e}"));
                    assert_eq!(back.state(), state, "{rules}, seed {seed}");
                    game.play_turn(&mut dice, &mut decider, &mut ()).unwrap();
                }
                assert_eq!(Game::restore(&game.state()).unwrap().state(), game.state());
            }
        }
    }

    #[test]
    fn a_restored_game_goes_on_exactly_as_the_uninterrupted_one() {
        for rules in every_kind_of_rules() {
            let (mut whole, mut dice, mut decider) = played(rules, 5, 0);
            let mut events = Vec::new();
            whole.play_to_end(&mut dice, &mut decider, &mut events).unwrap();

            let (cut, mut dice, mut decider) = played(rules, 5, 9);
            let mut before = Vec::new();
            Game::replay(&cut.state(), &mut before).unwrap();
            let mut back = Game::restore(&cut.state()).unwrap();
            let mut after = Vec::new();
            back.play_to_end(&mut dice, &mut decider, &mut after).unwrap();
            before.extend(after);
            assert_eq!(before, events, "{rules}");
            assert_eq!(back.state(), whole.state(), "{rules}");
        }
    }

    #[test]
    fn a_state_round_trips_through_serde_with_its_time_stamps() {
        let (mut game, mut dice, mut decider) = played(RuleSet::BonusSix.rules(), 3, 0);
        game.set_clock(|| 1_700_000_000_000);
        for _ in 0..5 {
            game.play_turn(&mut dice, &mut decider, &mut ()).unwrap();
        }
        // The engine has no JSON dependency; TOML exercises the same serde derives.
        let text = toml::to_string(&game.state()).unwrap();
        let back: GameState = toml::from_str(&text).unwrap();
        let restored = Game::restore(&back).unwrap();
        assert_eq!(restored.state(), game.state());
        assert!(restored.history().iter().all(|m| m.time_ms == Some(1_700_000_000_000)));
    }

    fn refused(edit: impl FnOnce(&mut GameState)) -> String {
        let (game, ..) = played(Rules::default(), 11, 8);
        let mut state = game.state();
        edit(&mut state);
        Game::restore(&state).unwrap_err().to_string()
    }

    #[test]
    fn an_edited_position_is_named_with_the_value_the_history_gives() {
        let (game, ..) = played(Rules::default(), 11, 8);
        let truth = game.positions()[1];
        let e = refused(|s| s.seat_states[1] = SavedSeat::Cell(if truth == 50 { 51 } else { 50 }));
        assert!(e.starts_with("the saved position of P1 is 5"), "{e}");
        assert!(e.ends_with(&format!("but the history gives {truth}")), "{e}");
    }

    #[test]
    fn an_edited_seat_state_is_named_whole() {
        let e = refused(|s| {
            if let SavedSeat::Whole(seat) = &mut s.seat_states[2] {
                seat.shield = true;
                seat.rolls += 1;
            }
        });
        assert!(e.starts_with("the saved state of P2 is cell "), "{e}");
        assert!(e.contains(", shield, "), "{e}");
        assert!(e.contains(" rolls, but the history gives cell "), "{e}");
    }

    #[test]
    fn an_older_state_with_positions_only_is_read_and_checked_by_its_cells() {
        let (game, ..) = played(Rules::default(), 11, 8);
        let text = toml::to_string(&game.state()).unwrap();
        let mut value: toml::Table = toml::from_str(&text).unwrap();
        let cells: Vec<toml::Value> =
            game.positions().iter().map(|&c| toml::Value::Integer(c.into())).collect();
        value.remove("seat_states");
        value.insert("positions".into(), toml::Value::Array(cells.clone()));
        let old: GameState = toml::from_str(&toml::to_string(&value).unwrap()).unwrap();
        assert!(old.seat_states.iter().all(|s| matches!(s, SavedSeat::Cell(_))));
        assert_eq!(Game::restore(&old).unwrap().state(), game.state());

        let mut wrong = cells;
        wrong[0] = toml::Value::Integer(if game.positions()[0] == 7 { 8 } else { 7 });
        value.insert("positions".into(), toml::Value::Array(wrong));
        let old: GameState = toml::from_str(&toml::to_string(&value).unwrap()).unwrap();
        let e = Game::restore(&old).unwrap_err().to_string();
        assert!(e.starts_with("the saved position of P0"), "{e}");
    }

    #[test]
    fn positions_off_the_board_or_missing_are_refused_before_any_replay() {
        let e = refused(|s| s.seat_states[0] = SavedSeat::Cell(101));
        assert_eq!(e, "P0 stands on 101, which is not on a board of 100 cells");
        let e = refused(|s| {
            s.seat_states.pop();
        });
        assert_eq!(e, "2 positions are given for 3 players");
        let e = refused(|s| s.current = 3);
        assert_eq!(
            e,
            "the player to move names player number 3, but the players are numbered 0 to 2"
        );
        let e = refused(|s| s.ranking = vec![7]);
        assert!(e.starts_with("the ranking names player number 7"), "{e}");
    }

    #[test]
    fn summary_fields_must_agree_with_the_history() {
        let e = refused(|s| s.turns += 1);
        assert_eq!(e, "the saved number of turns is 9, but the history gives 8");
        let e = refused(|s| s.current = (s.current + 1) % 3);
        assert!(e.starts_with("the saved player to move is"), "{e}");
        let e = refused(|s| s.status = Status::Finished);
        assert_eq!(e, "the saved status is finished, but the history gives running");
        let e = refused(|s| s.ranking = vec![0]);
        assert_eq!(e, "the saved ranking is [P0], but the history gives []");
    }

    #[test]
    fn an_edited_roll_or_landing_names_the_move() {
        let e = refused(|s| s.history[3].to += 1);
        assert!(e.starts_with("move 4 of the history says turn 4, P0 rolls"), "{e}");
        assert!(e.contains("but the roll gives turn 4, P0 rolls"), "{e}");
        let e = refused(|s| s.history[2].roll = Roll::from_faces(&[9]));
        assert_eq!(e, "move 3 of the history rolls [9], which 1d6 cannot throw");
        let e = refused(|s| s.history[2].seat = 0);
        assert_eq!(e, "move 3 of the history is by P0, but it was P2's turn");
        let e = refused(|s| s.history[2].seat = 9);
        assert_eq!(e, "move 3 of the history is by player number 9, but it was P2's turn");
    }

    #[test]
    fn a_history_cut_inside_a_bonus_turn_awaits_the_bonus_roll() {
        // 6 then 2: P0's first turn has a bonus roll; drop it.
        let rules = RuleSet::BonusSix.rules();
        let mut game = new_game(rules, 2);
        let mut dice = ScriptedDice::parse("6,2,3", Dice::D6).unwrap();
        game.play_turn(&mut dice, &mut FirstOption, &mut ()).unwrap();
        let mut state = game.state();
        state.history.pop();
        state.seat_states[0] = SavedSeat::Cell(25);
        let e = Game::restore(&state).unwrap_err().to_string();
        assert_eq!(e, "the saved player to move is P1, but the history gives P0");
        state.current = 0;
        let back = Game::restore(&state).unwrap();
        assert_eq!(back.pending(), Pending::Roll { seat: 0, dice: Dice::D6, again: true });
        assert!(back.in_turn());
        assert_eq!(back.turn_start(), 0);
    }

    #[test]
    fn a_game_saved_at_a_choice_awaits_the_same_choice() {
        let rules = Rules { choice: Choice::MayPass, ..Rules::default() };
        let mut game = new_game(rules, 2);
        game.apply(Input::Roll { roll: Roll::from_faces(&[4]) }).unwrap();
        let Pending::Choice(decision) = game.pending() else { panic!("a choice is awaited") };
        let state = game.state();
        assert_eq!(state.pending_roll, Some(Roll::from_faces(&[4])));
        let mut back = Game::restore(&state).unwrap();
        assert_eq!(back.pending(), Pending::Choice(decision));
        let events = back.apply(Input::Choose { option: 1 }).unwrap();
        assert_eq!(events, [Event::Stayed { player: 0, position: 0 }]);
        assert_eq!(back.history()[0].chosen, Some(1));

        let mut edited = state.clone();
        edited.pending_roll = Some(Roll::from_faces(&[9]));
        let e = Game::restore(&edited).unwrap_err().to_string();
        assert_eq!(e, "the roll awaiting a choice, [9], a roll of [9] cannot be thrown with 1d6");
    }

    #[test]
    fn a_move_after_the_end_is_refused() {
        let (game, ..) = played(Rules::default(), 2, 10_000);
        assert_eq!(game.status(), Status::Finished);
        let mut state = game.state();
        let mut extra = state.history.last().unwrap().clone();
        extra.turn += 1;
        state.history.push(extra);
        let e = Game::restore(&state).unwrap_err().to_string();
        assert_eq!(
            e,
            format!("move {} of the history comes after the game had ended", state.history.len())
        );
    }

    #[test]
    fn a_bad_board_or_seats_fail_as_the_board_and_the_game_would() {
        let e = refused(|s| s.board = BoardSpec::with_jumps(100, [(100, 3)]));
        assert!(e.starts_with("invalid board: snake 100→3 starts on the last cell"), "{e}");
        let e = refused(|s| s.seats[1].name = "P0".into());
        assert_eq!(e, "two players are named 'P0': every player needs a name of its own");
    }

    #[test]
    fn replay_tells_the_events_of_the_game() {
        let (mut game, mut dice, mut decider) = played(RuleSet::ThreeSixes.rules(), 8, 0);
        let mut heard = Vec::new();
        game.play_to_end(&mut dice, &mut decider, &mut heard).unwrap();
        let mut again: Vec<Event> = Vec::new();
        let back = Game::replay(&game.state(), &mut again).unwrap();
        assert_eq!(again, heard);
        assert_eq!(back.status(), Status::Finished);
    }
}
