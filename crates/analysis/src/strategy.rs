//! Computer players (SPEC §5): how `easy`, `greedy` and `hard` choose when the rules offer a
//! choice (`--choice may-pass` or `pick-die`).
//!
//! Each strategy is both a [`Policy`] — what the exact analysis follows, every position at once —
//! and a [`Decider`] — what a [`Game`] asks, one roll at a time — and the two always agree:
//!
//! - [`Easy`] takes one of the options uniformly at random. Its draws come from a [`SeededDice`]
//!   keyed by a seed and the game's roll count, so a game is reproducible from its seed and
//!   needs no random state of its own to be saved. Exactly, it is the average over the options.
//! - [`Greedy`] takes the option whose resting cell (after any jump) is highest, ties to the
//!   smaller move. On a board with cell effects it plays [`greedy_choice_in`]: an extra roll and
//!   a shield count as one mean roll of cells (3.5 on 1d6), a skip as minus one.
//! - [`HardPolicy`] plays the optimal policy: the least expected number of turns to finish,
//!   found by policy iteration on the turn-level chain (see its documentation); on a board with
//!   cell effects, by value iteration over the extended state — cell, shield held, skip pending,
//!   bonus streak — with [`HardPolicy::choose_in`] reading the seat's shield and skip from the
//!   game.
//!
//! On a board with effects, the [`Policy`] side (what the exact analysis follows) reads the
//! shield held, the skip pending and the shield the turn began with from the [`Situation`] the
//! chain gives it (the chain's state carries them), so `hard` and [`GreedyOn`] make the choices
//! their [`Decider`] side makes in games; the unit [`Greedy`] policy plays as on a board without
//! effects.
//!
//! A strategy is only asked when the options differ ([`Game::options`]).
//!
//! # Example
//!
//! ```
//! use snl_analysis::{exact, strategy::{Greedy, HardPolicy}};
//! use snl_engine::{Board, Choice, Preset, Rules};
//!
//! let rules = Rules { choice: Choice::MayPass, ..Rules::default() };
//! let board = Board::new(&Preset::Classic.spec(), &rules)?;
//! let hard = HardPolicy::new(&board, &rules)?;
//! let options = exact::Options::default();
//! let greedy = exact::analyze_with(&board, &rules, &Greedy, &options)?;
//! assert!(hard.expected_turns() <= greedy.expected_turns);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

mod computers;
mod effects;
mod hard;
mod joint;
#[cfg(test)]
mod tests;
mod win;

use std::{fmt, str::FromStr};

use snl_engine::{
    Board, Decider, Decision, Game, Met, MoveOption, Rules, SeatKind, SeededDice, splitmix64,
};

use crate::exact::{Policy, Situation};

pub use computers::Computers;
pub(crate) use effects::shield_at_turn_start;
pub use hard::HardPolicy;
pub use joint::{JointError, Opponent, WinningPolicy};
pub use win::{MAX_BYTES, MAX_SEATS, MAX_WORK, Play, PlayToWin, SETTLED, WinDecider, WinError};

/// A computer player's way of choosing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Strategy {
    /// Uniformly at random among the options.
    Easy,
    /// The highest resting cell, ties to the smaller move.
    Greedy,
    /// The least expected turns to finish.
    Hard,
    /// The greatest chance to finish first against the others at the table ([`PlayToWin`],
    /// solved on the joint chain of every token; where it is not solved, `hard`).
    Win,
}

impl Strategy {
    /// Every strategy, weakest first.
    pub const ALL: [Strategy; 4] =
        [Strategy::Easy, Strategy::Greedy, Strategy::Hard, Strategy::Win];

    /// The strategies that play one token on its own, whatever the others do (all but `win`,
    /// whose choices depend on every token): the ones with an expected number of turns.
    pub const SOLO: [Strategy; 3] = [Strategy::Easy, Strategy::Greedy, Strategy::Hard];

    /// The name used on the command line (`easy`, `greedy`, `hard`).
    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::Easy => "easy",
            Strategy::Greedy => "greedy",
            Strategy::Hard => "hard",
            Strategy::Win => "win",
        }
    }

    /// The strategy a computer seat of `kind` plays; `None` for a person.
    pub fn of_kind(kind: SeatKind) -> Option<Strategy> {
        match kind {
            SeatKind::Human => None,
            SeatKind::Easy => Some(Strategy::Easy),
            SeatKind::Greedy => Some(Strategy::Greedy),
            SeatKind::Hard => Some(Strategy::Hard),
            SeatKind::Win => Some(Strategy::Win),
        }
    }

    /// The exact analysis's policy for this strategy on the board and rules of `hard` (the
    /// policy given for `hard`): the choices it makes in games, on a board with cell effects
    /// too (greedy then as [`GreedyOn`]). `win` has no policy of one token: this is `hard`,
    /// what a `win` seat plays where nothing is left to win ([`WinDecider`]).
    pub fn policy(self, hard: &HardPolicy) -> Box<dyn Policy + '_> {
        match self {
            Strategy::Easy => Box::new(Easy { seed: 0 }),
            Strategy::Greedy => Box::new(GreedyOn::new(hard.board(), hard.rules())),
            Strategy::Hard | Strategy::Win => Box::new(hard),
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A strategy name that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown strategy '{0}': expected easy, greedy, hard or win")]
pub struct UnknownStrategy(pub String);

impl FromStr for Strategy {
    type Err = UnknownStrategy;
    fn from_str(s: &str) -> Result<Strategy, UnknownStrategy> {
        let name = s.trim().to_ascii_lowercase();
        Strategy::ALL
            .into_iter()
            .find(|k| k.as_str() == name)
            .ok_or_else(|| UnknownStrategy(s.to_owned()))
    }
}

/// The index of the option `greedy` takes: the highest resting cell, ties to the smaller move.
///
/// # Panics
///
/// Panics if `options` is empty.
pub fn greedy_choice(options: &[MoveOption]) -> usize {
    assert!(!options.is_empty(), "a choice needs options");
    let mut best = 0;
    for (i, o) in options.iter().enumerate().skip(1) {
        let b = &options[best];
        if o.lands > b.lands || (o.lands == b.lands && o.steps < b.steps) {
            best = i;
        }
    }
    best
}

/// Takes the highest resting cell, ties to the smaller move ([`greedy_choice`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Greedy;

impl Policy for Greedy {
    fn choose(&self, _: Situation, options: &[MoveOption]) -> usize {
        greedy_choice(options)
    }
}

impl Decider for Greedy {
    fn decide(&mut self, game: &Game, decision: &Decision) -> usize {
        greedy_choice_in(game, decision)
    }
}

/// The index of the option `greedy` takes at `decision` in `game`.
///
/// On a board without cell effects, [`greedy_choice`]. With effects, each option is scored as
/// the cell where it leaves the token (the mean over a wormhole's exits), plus the worth of what
/// the resting cell does, counted in cells as one mean roll `m` (3.5 on 1d6, the middle of the
/// dice's totals or, under pick-die, of one die's faces):
///
/// - an `extra` cell: **+m** (it is one more roll);
/// - a `shield` cell when no shield is held: **+m** (a snake it stops is worth at least a roll;
///   nothing when a shield is held already, as a player holds one at most);
/// - a `skip` cell: **−m** (a lost turn is a roll forgone);
///
/// a shield that stops a snake is counted by the cell itself (the token stays on the snake's
/// head). The highest score wins, ties to the option listed first (the smaller move).
pub fn greedy_choice_in(game: &Game, decision: &Decision) -> usize {
    let shield = game.has_shield(decision.seat);
    greedy_choice_at(game.board(), game.rules(), decision.position, shield, &decision.options)
}

/// [`greedy_choice_in`] for a token on `position` of `board` under `rules`, holding a shield or
/// not, among `options`.
pub(crate) fn greedy_choice_at(
    board: &Board,
    rules: &Rules,
    position: u32,
    shield: bool,
    options: &[MoveOption],
) -> usize {
    if !board.has_effects() {
        return greedy_choice(options);
    }
    let steps = rules.step_values();
    let roll = f64::from(steps.start() + steps.end()) / 2.0;
    let score = |o: &MoveOption| -> f64 {
        board
            .outcomes(rules, position, o.steps, shield)
            .iter()
            .map(|out| {
                let worth = match out.met {
                    Met::Nothing => 0.0,
                    // A player holds one shield at most.
                    Met::Shield if shield => 0.0,
                    Met::Extra | Met::Shield => roll,
                    Met::Skip => -roll,
                };
                out.chance * (f64::from(out.to) + worth)
            })
            .sum()
    };
    let mut best = (0, f64::NEG_INFINITY);
    for (i, o) in options.iter().enumerate() {
        let s = score(o);
        if s > best.1 {
            best = (i, s);
        }
    }
    best.0
}

/// `greedy` on one board, as it plays in games ([`greedy_choice_in`]): on a board with cell
/// effects it scores what each resting cell does, knowing the shield the token holds (which the
/// exact chain tells it, [`Situation::shield`]). Without effects it is [`Greedy`].
#[derive(Clone, Copy, Debug)]
pub struct GreedyOn<'a> {
    board: &'a Board,
    rules: &'a Rules,
}

impl<'a> GreedyOn<'a> {
    /// `greedy` on `board` under `rules`.
    pub fn new(board: &'a Board, rules: &'a Rules) -> GreedyOn<'a> {
        GreedyOn { board, rules }
    }
}

impl Policy for GreedyOn<'_> {
    fn choose(&self, at: Situation, options: &[MoveOption]) -> usize {
        greedy_choice_at(self.board, self.rules, at.position, at.shield, options)
    }
}

/// Takes an option uniformly at random.
///
/// As a [`Decider`], the draw for a decision comes from a [`SeededDice`] (ChaCha8) seeded by
/// mixing `seed` with the number of rolls made so far in the game, so the same seed gives the
/// same choices in the same game, also after a save and a load. As a [`Policy`], it weighs every
/// option equally ([`Policy::mix`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Easy {
    /// Fixes the draws.
    pub seed: u64,
}

impl Easy {
    /// The option drawn for the decision put at roll number `roll` of a game (1 for the first
    /// roll), among `count` options.
    pub fn draw(&self, roll: u32, count: usize) -> usize {
        let mut state = self.seed ^ u64::from(roll).wrapping_mul(0xD1B5_4A32_D192_ED03);
        let mut dice = SeededDice::new(splitmix64(&mut state));
        dice.face(count as u32) as usize - 1
    }
}

impl Policy for Easy {
    fn choose(&self, _: Situation, _: &[MoveOption]) -> usize {
        0
    }

    fn mix(&self, _: Situation, options: &[MoveOption], weights: &mut [f64]) -> bool {
        weights.fill(1.0 / options.len() as f64);
        true
    }
}

impl Decider for Easy {
    fn decide(&mut self, game: &Game, decision: &Decision) -> usize {
        self.draw(game.rolls(), decision.options.len())
    }
}

/// The deciders of a whole table of computer seats: seat `i` plays `seats[i]`.
#[derive(Clone, Debug)]
pub struct Strategies<'p> {
    seats: Vec<Strategy>,
    easy: Easy,
    hard: Option<&'p HardPolicy>,
    win: Option<&'p PlayToWin>,
}

impl<'p> Strategies<'p> {
    /// Seat `i` plays `seats[i]`; `easy_seed` fixes the easy seats' draws, and `hard` is the
    /// optimal policy for the game's board and rules (needed when a seat is hard).
    ///
    /// # Panics
    ///
    /// Panics if a seat is hard or win and `hard` is `None`.
    pub fn new(
        seats: Vec<Strategy>,
        easy_seed: u64,
        hard: Option<&'p HardPolicy>,
    ) -> Strategies<'p> {
        assert!(
            hard.is_some() || !seats.iter().any(|s| matches!(s, Strategy::Hard | Strategy::Win)),
            "a hard or win seat needs the optimal policy"
        );
        Strategies { seats, easy: Easy { seed: easy_seed }, hard, win: None }
    }

    /// The `win` seats play `win` (solved for these seats, in this order); without it, or
    /// where it does not cover the game, they play `hard`.
    #[must_use]
    pub fn with_win(mut self, win: &'p PlayToWin) -> Strategies<'p> {
        self.win = Some(win);
        self
    }

    /// The strategy of each seat.
    pub fn seats(&self) -> &[Strategy] {
        &self.seats
    }
}

impl Decider for Strategies<'_> {
    fn decide(&mut self, game: &Game, decision: &Decision) -> usize {
        match self.seats.get(decision.seat) {
            Some(Strategy::Easy) => self.easy.decide(game, decision),
            Some(Strategy::Greedy) => greedy_choice_in(game, decision),
            Some(Strategy::Hard) => self.hard.map_or(0, |h| h.choose_in(game, decision)),
            Some(Strategy::Win) => self
                .win
                .and_then(|w| w.choose_in(game, decision))
                .or_else(|| self.hard.map(|h| h.choose_in(game, decision)))
                .unwrap_or(0),
            None => 0,
        }
    }
}
