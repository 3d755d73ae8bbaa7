//! Designing boards: a search for a board whose game lasts as long as asked, to two decimals,
//! and, if asked, whose length varies within a band and whose seats' chances lie within a bound,
//! cell effects included.
//!
//! Every board the search looks at is judged by the exact analysis ([`crate::exact`]: tens of
//! microseconds on 100 cells, effects included), so every number it sees is exact, not sampled.
//! The search has two phases:
//!
//! 1. **Rough shape** — simulated annealing over jump (and effect) placements: a step moves one
//!    end of a jump (far, or by a few cells), adds one or removes one, or moves an effect. It aims
//!    at the length within [`ROUGH`] turns, the spread and the seats' gap; worse boards are kept
//!    with a probability that falls as the search cools, which lets it leave local optima.
//! 2. **Fine tuning** — a deterministic descent over every single move from the board found:
//!    each end of each jump to every cell within [`WINDOW`] of where it is, each jump removed,
//!    each effect moved. The expected length is a smooth, exactly computed function of where a
//!    jump leads (moving a ladder's top from `d` to `d'` changes it by the landings on its foot
//!    times `E(d') − E(d)` while no snake leads back below the foot), so the few thousand
//!    neighbours of a board spread their lengths a few hundredths of a turn apart around it;
//!    the best one is taken, and again, until the goal is met (or no neighbour is better).
//!
//! The goal is met when the expected game length (one token's turns to finish, as `snl analyze`
//! reports `expected_turns`) is within [`Goal::tolerance`] of the target (±[`TOLERANCE`] unless
//! said), the standard deviation of that length inside [`Goal::spread`]'s band, and the highest
//! chance to win less the lowest at most [`Goal::max_gap`]. With `fair`, `Spread::Low` or
//! `Spread::High` the search then goes on lowering the gap, or lowering or raising the standard
//! deviation, while the goal stays met. The first seat's edge cannot be removed (when two seats
//! would finish in the same round the earlier wins), only made small: a game whose length varies
//! more leaves fewer rounds where both would finish. Under a race (`--mode race --rounds K`) the
//! seats' chances are the race's, where the unfinished are ranked by position after K rounds.
//!
//! Everything is drawn from the seed: the same goal and rules give the same board.
//!
//! ```
//! use snl_analysis::{Budget, design::{Goal, design}};
//! use snl_engine::Rules;
//!
//! let goal = Goal { target_turns: 30.0, ..Goal::default() };
//! let found = design(&goal, &Rules::default(), &|_| {}, &Budget::unlimited())?;
//! assert!((found.expected_turns - 30.0).abs() <= 0.01);
//! # Ok::<_, snl_analysis::design::DesignError>(())
//! ```

use snl_engine::{BoardSpec, Rules};

use crate::Budget;

mod search;
mod tune;

use search::{Judged, Search};

/// How close to the target the expected length must come, in turns, unless the goal says.
pub const TOLERANCE: f64 = 0.01;
/// How close the annealing phase brings the length before fine tuning takes over, in turns.
pub const ROUGH: f64 = 0.3;
/// How far (in cells, each way) fine tuning moves one end of a jump or an effect.
pub const WINDOW: u32 = 30;
/// The largest board designed (each step analyses the whole board).
pub const MAX_SIZE: u32 = 1000;
/// The longest expected game asked for, in turns per cell of the board.
pub const MAX_TURNS_PER_CELL: f64 = 5.0;
/// The most seats whose fairness is weighed.
pub const MAX_SEATS: usize = 16;
/// The most rounds of fine tuning from one board (each looks at every neighbour of the board).
pub const MAX_TUNE_ROUNDS: u32 = 60;
/// How many times a board that tuning cannot bring to the goal is shaken by a short annealing
/// (half the steps, from a turn's temperature) and tuned again.
pub const RESTARTS: u32 = 3;

/// How much the game's length should vary: its standard deviation in turns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Spread {
    /// Whatever it comes to.
    Any,
    /// Within `min..=max` turns.
    Band {
        /// The lowest standard deviation accepted.
        min: f64,
        /// The highest.
        max: f64,
    },
    /// As low as the search finds (with the length and gap met).
    Low,
    /// As high as the search finds.
    High,
}

/// What the target length counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Length {
    /// One token's turns to finish (`snl analyze`'s `expected_turns`).
    #[default]
    Turns,
    /// Rounds the game lasts at a table of [`Goal::seats`] seats: until the first seat
    /// finishes (under finish all, the last), and under a race at most its K rounds.
    Rounds,
}

/// What the designed board should do (build it with `..Goal::default()`).
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    /// The expected length aimed at: one token's turns to finish, or with
    /// [`Length::Rounds`] the table's rounds.
    pub target_turns: f64,
    /// What `target_turns` counts.
    pub length: Length,
    /// How close to the target the expected length must be.
    pub tolerance: f64,
    /// Cells of the board.
    pub size: u32,
    /// Seats whose chances to win are reported (and weighed with `fair` or `max_gap`).
    pub seats: usize,
    /// Whether to make the seats' chances to win as even as possible.
    pub fair: bool,
    /// The largest gap accepted between the highest and the lowest chance to win (0 to 1).
    pub max_gap: Option<f64>,
    /// How much the game's length should vary.
    pub spread: Spread,
    /// Cell effects placed (skip, extra, shield, wormhole, as `--board random --effects`).
    pub effects: u32,
    /// Seed of the search.
    pub seed: u64,
    /// Steps of the annealing phase (each analyses one board).
    pub steps: u32,
}

impl Default for Goal {
    fn default() -> Goal {
        Goal {
            target_turns: 30.0,
            length: Length::Turns,
            tolerance: TOLERANCE,
            size: 100,
            seats: 2,
            fair: false,
            max_gap: None,
            spread: Spread::Any,
            effects: 0,
            seed: 0,
            steps: 3000,
        }
    }
}

impl Goal {
    /// The most steps [`design`] reports to `progress`: annealing, its restarts and every
    /// round of tuning.
    pub fn most_steps(&self) -> u64 {
        let restarts = u64::from(RESTARTS);
        u64::from(self.steps)
            + restarts * u64::from(self.steps / 2)
            + (restarts + 1) * u64::from(MAX_TUNE_ROUNDS)
    }

    /// Whether, once met, the search goes on improving something (the gap or the spread).
    fn has_aim(&self) -> bool {
        self.fair || matches!(self.spread, Spread::Low | Spread::High)
    }
}

/// Why no board can be designed for a goal.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DesignError {
    /// Below one turn, or not a number.
    #[error("no game lasts {target} turns: every game takes at least one turn")]
    TooShort {
        /// The target asked for.
        target: f64,
    },
    /// Beyond [`MAX_TURNS_PER_CELL`] turns per cell.
    #[error(
        "{target} turns is longer than the designer searches on {size} cells (at most {most} \
         turns, {MAX_TURNS_PER_CELL} per cell)"
    )]
    TooLong {
        /// The target asked for.
        target: f64,
        /// Cells of the board.
        size: u32,
        /// The longest target on this board.
        most: f64,
    },
    /// The board is smaller than 10 or larger than [`MAX_SIZE`] cells.
    #[error("a designed board has 10 to {MAX_SIZE} cells, not {0}")]
    Size(u32),
    /// No seats, too many, or fairness asked of one seat.
    #[error("{0}")]
    Seats(&'static str),
    /// A tolerance, band or gap that is not a number or cannot be met by any board.
    #[error("{0}")]
    Bound(String),
    /// Every board tried could leave a token stuck for ever under the rules.
    #[error("no board tried in {steps} steps lets every game end under these rules")]
    NothingFound {
        /// Steps taken.
        steps: u32,
    },
}

/// A designed board and its exact numbers.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Design {
    /// The board (no rules of its own).
    pub spec: BoardSpec,
    /// Expected turns for one token to finish.
    pub expected_turns: f64,
    /// Standard deviation of one token's turns.
    pub std_dev_turns: f64,
    /// Expected rounds a game of [`Goal::seats`] seats lasts (under a race, at most its
    /// rounds).
    pub expected_rounds: f64,
    /// Each seat's chance to win (finish first, or be ranked first after a race), in seating
    /// order.
    pub win_probability: Vec<f64>,
    /// The highest chance to win less the lowest.
    pub spread: f64,
    /// Which parts of the goal the board meets.
    pub met: Met,
    /// Annealing steps taken: all of them unless the budget ran out or the goal was met early.
    pub steps: u32,
    /// Rounds of fine tuning, each over every neighbour of the board.
    pub tune_rounds: u32,
    /// Boards analysed exactly in all.
    pub boards_judged: u64,
    /// Whether the search ran to its end (false when the budget ran out first).
    pub complete: bool,
}

/// Which parts of a goal a designed board meets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Met {
    /// The expected length is within the tolerance of the target.
    pub length: bool,
    /// The standard deviation is within the band asked (always, without one).
    pub spread: bool,
    /// The seats' gap is within the bound asked (always, without one).
    pub gap: bool,
}

impl Design {
    /// Whether every part of the goal is met.
    pub fn goal_met(&self) -> bool {
        self.met.length && self.met.spread && self.met.gap
    }

    fn new(spec: BoardSpec, judged: &Judged, goal: &Goal) -> Design {
        Design {
            spec,
            expected_turns: judged.expected_turns,
            std_dev_turns: judged.std_dev_turns,
            expected_rounds: judged.expected_rounds,
            win_probability: judged.win_probability.clone(),
            spread: judged.gap,
            met: Met {
                length: judged.distance <= goal.tolerance,
                spread: judged.sd_miss == 0.0,
                gap: judged.gap_miss == 0.0,
            },
            steps: 0,
            tune_rounds: 0,
            boards_judged: 0,
            complete: true,
        }
    }
}

/// Searches for a board that meets `goal` under `rules` (every token taking the first option),
/// calling `progress(steps)` now and then (annealing steps, then each round of fine tuning as
/// one more step), and stopping early (with the best board so far) once `budget` is spent.
///
/// # Errors
///
/// [`DesignError`] for a goal no board can meet or that the designer does not search.
pub fn design(
    goal: &Goal,
    rules: &Rules,
    progress: &dyn Fn(u32),
    budget: &Budget,
) -> Result<Design, DesignError> {
    check(goal, rules)?;
    let mut search = Search::new(goal, rules);
    // The search starts from the seed's random board with a jump per 12 cells of each kind
    // (`--board random`, effects as `--effects`), so that what it finds looks like a board to
    // play on; the temperature starts at a tenth of the target.
    let hot = (goal.target_turns / 10.0).max(0.5);
    let first = search.first_board();
    let (rough, mut steps, mut complete) =
        search.anneal(first, (goal.steps, hot, 0), progress, budget);
    let Some(mut from) = rough else {
        return Err(DesignError::NothingFound { steps });
    };
    let mut best = from.clone();
    let mut tune_rounds = 0;
    // Tuning ends on a board no single move improves; when that board misses the goal, a short
    // cooler annealing from it finds another shape to tune, a few times.
    for again in 0..=RESTARTS {
        if !complete {
            break;
        }
        let (layout, judged, rounds, done) =
            tune::tune(&mut search, from, steps + tune_rounds, progress, budget);
        tune_rounds += rounds;
        complete = done;
        if judged.better_than(&best.1, goal) {
            best = (layout.clone(), judged);
        }
        if again == RESTARTS || best.1.miss(goal.tolerance) == 0.0 || !complete {
            break;
        }
        let restart = (goal.steps / 2, 1.0, steps + tune_rounds);
        let (next, taken, done) = search.anneal(layout, restart, progress, budget);
        steps += taken;
        complete = done;
        match next {
            Some(next) => from = next,
            None => break,
        }
    }
    let (layout, judged) = best;
    let mut found = Design::new(layout.spec(goal.size), &judged, goal);
    found.steps = steps;
    found.tune_rounds = tune_rounds;
    found.boards_judged = search.judged;
    found.complete = complete;
    Ok(found)
}

fn check(goal: &Goal, rules: &Rules) -> Result<(), DesignError> {
    if !(10..=MAX_SIZE).contains(&goal.size) {
        return Err(DesignError::Size(goal.size));
    }
    if goal.target_turns.is_nan() || goal.target_turns < 1.0 {
        return Err(DesignError::TooShort { target: goal.target_turns });
    }
    let most = MAX_TURNS_PER_CELL * f64::from(goal.size);
    if goal.target_turns > most {
        return Err(DesignError::TooLong { target: goal.target_turns, size: goal.size, most });
    }
    match goal.seats {
        0 => return Err(DesignError::Seats("a game has at least one seat")),
        s if s > MAX_SEATS => {
            return Err(DesignError::Seats("the designer weighs at most 16 seats"));
        }
        1 if goal.fair || goal.max_gap.is_some() => {
            return Err(DesignError::Seats("fairness needs two seats or more"));
        }
        _ => {}
    }
    let bound = |s: String| Err(DesignError::Bound(s));
    if !(goal.tolerance > 0.0 && goal.tolerance.is_finite()) {
        return bound(format!("the tolerance must be above 0 turns, not {}", goal.tolerance));
    }
    // Not `if let … &&`: the analysis builds for the browser with rustc 1.85.
    if let Some(gap) = goal.max_gap.filter(|gap| !(0.0..=1.0).contains(gap)) {
        return bound(format!("a gap between seats is 0 to 100 points, not {}", 100.0 * gap));
    }
    if let Spread::Band { min, max } = goal.spread {
        if !(min >= 0.0 && min <= max) {
            return bound(format!("the standard deviation band {min} to {max} is empty"));
        }
    }
    if goal.effects > goal.size / 4 {
        return bound(format!(
            "{} effects do not fit on {} cells: at most {} (a quarter of the cells)",
            goal.effects,
            goal.size,
            goal.size / 4
        ));
    }
    if let (Length::Rounds, Some(rounds)) = (goal.length, rules.mode.rounds()) {
        if goal.target_turns > f64::from(rounds) {
            return bound(format!(
                "a race of {rounds} rounds lasts at most {rounds} rounds, not {}",
                goal.target_turns
            ));
        }
    }
    if rules.mode.rounds().is_some() && goal.effects > 0 {
        return bound("a race is designed without cell effects: leave out --effects".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests;
