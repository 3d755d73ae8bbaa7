//! Designing boards: a search for a board whose game lasts as long as asked and, if asked, is as
//! even between seats as the rules allow.
//!
//! The search is simulated annealing over jump placements. A board is a set of snakes and
//! ladders; a step moves one end of a jump (far, or by a few cells), adds one or removes one, and
//! the new board is judged by the exact analysis ([`exact`]: tens of microseconds
//! on 100 cells), so every number the search sees is exact, not sampled. Worse boards are kept
//! with a probability that falls as the search cools, which lets it leave local optima.
//!
//! The goal is an expected game length within ±[`TOLERANCE`] turns of the target (one token's
//! turns to finish, as `snl analyze` reports `expected_turns`); with `fair`, among such boards the
//! one whose seats' chances to win are closest together. The first seat's edge cannot be removed
//! (when both seats would finish in the same round the first wins), only made small: a game
//! whose length varies more leaves fewer rounds where both would finish.
//!
//! Everything is drawn from the seed: the same goal and rules give the same board.
//!
//! ```
//! use snl_analysis::{Budget, design::{Goal, design}};
//! use snl_engine::Rules;
//!
//! let goal = Goal { target_turns: 30.0, ..Goal::default() };
//! let found = design(&goal, &Rules::default(), &|_| {}, &Budget::unlimited())?;
//! assert!((found.expected_turns - 30.0).abs() <= 0.5);
//! # Ok::<_, snl_analysis::design::DesignError>(())
//! ```

use snl_engine::{Board, BoardSpec, FirstOption, RandomBoard, Rules, splitmix64};

use crate::{
    Budget,
    exact::{self, Options},
};

/// How close to the target the expected length must come, in turns.
pub const TOLERANCE: f64 = 0.5;
/// The largest board designed (each step analyses the whole board).
pub const MAX_SIZE: u32 = 1000;
/// The longest expected game asked for, in turns per cell of the board.
pub const MAX_TURNS_PER_CELL: f64 = 5.0;
/// The most seats whose fairness is weighed.
pub const MAX_SEATS: usize = 16;

/// What the designed board should do (build it with `..Goal::default()`).
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    /// Expected turns for one token to finish.
    pub target_turns: f64,
    /// Cells of the board.
    pub size: u32,
    /// Seats whose chances to win are reported (and evened out with `fair`).
    pub seats: usize,
    /// Whether to make the seats' chances to win as even as possible.
    pub fair: bool,
    /// Seed of the search.
    pub seed: u64,
    /// Steps of the search (each analyses one board).
    pub steps: u32,
}

impl Default for Goal {
    fn default() -> Goal {
        Goal { target_turns: 30.0, size: 100, seats: 2, fair: false, seed: 0, steps: 3000 }
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
    /// Each seat's chance to win (finish first), in seating order.
    pub win_probability: Vec<f64>,
    /// The highest chance to win less the lowest.
    pub spread: f64,
    /// Whether the expected length is within [`TOLERANCE`] of the target.
    pub on_target: bool,
    /// Steps taken: all of them unless the budget ran out.
    pub steps: u32,
    /// Whether the search took every step (false when the budget ran out first).
    pub complete: bool,
}

/// Searches for a board that meets `goal` under `rules` (every token taking the first option),
/// calling `progress(steps)` now and then, and stopping early (with the best board so far) once
/// `budget` is spent.
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
    check(goal)?;
    let mut search = Search::new(goal, rules);
    // The search starts from the seed's random board with a jump per 12 cells of each kind
    // (`--board random`), so that what it finds looks like a board to play on.
    let mut current = search.first_board();
    let mut current_cost = search.judge(&current).map_or(f64::INFINITY, |j| j.cost);
    let mut best: Option<(Vec<(u32, u32)>, Judged)> =
        search.judge(&current).map(|j| (current.clone(), j));
    // The temperature falls geometrically from a tenth of the target to a thousandth of a turn.
    let hot = (goal.target_turns / 10.0).max(0.5);
    let cooling = (1e-3 / hot).powf(1.0 / f64::from(goal.steps.max(1)));
    let mut temperature = hot;
    let mut steps = 0;
    let mut complete = true;
    while steps < goal.steps {
        if budget.is_spent() {
            complete = false;
            break;
        }
        steps += 1;
        if steps % 64 == 0 {
            progress(steps);
        }
        temperature *= cooling;
        let candidate = search.mutate(&current);
        let Some(judged) = search.judge(&candidate) else { continue };
        let accept = judged.cost <= current_cost
            || search.uniform() < ((current_cost - judged.cost) / temperature).exp();
        if best.as_ref().is_none_or(|(_, b)| judged.better_than(b)) {
            best = Some((candidate.clone(), judged.clone()));
        }
        if accept {
            current = candidate;
            current_cost = judged.cost;
        }
        // Without fairness to weigh, a board this close is as good as any.
        if !goal.fair && best.as_ref().is_some_and(|(_, b)| b.distance <= 0.05) {
            break;
        }
    }
    progress(steps);
    let (jumps, judged) = best.ok_or(DesignError::NothingFound { steps })?;
    Ok(Design {
        spec: BoardSpec::with_jumps(goal.size, jumps),
        expected_turns: judged.expected_turns,
        std_dev_turns: judged.std_dev_turns,
        on_target: judged.distance <= TOLERANCE,
        win_probability: judged.win_probability,
        spread: judged.spread,
        steps,
        complete,
    })
}

fn check(goal: &Goal) -> Result<(), DesignError> {
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
        0 => Err(DesignError::Seats("a game has at least one seat")),
        s if s > MAX_SEATS => Err(DesignError::Seats("the designer weighs at most 16 seats")),
        1 if goal.fair => Err(DesignError::Seats("fairness needs two seats or more")),
        _ => Ok(()),
    }
}

/// A board's exact numbers and what they cost the search.
#[derive(Clone, Debug)]
struct Judged {
    expected_turns: f64,
    std_dev_turns: f64,
    win_probability: Vec<f64>,
    spread: f64,
    /// How far the expected length is from the target.
    distance: f64,
    /// What the search lowers.
    cost: f64,
    fair: bool,
}

impl Judged {
    /// Whether this board is a better answer than `other`: on target beats off target; then the
    /// fairer (with fairness asked for) or the closer.
    fn better_than(&self, other: &Judged) -> bool {
        let (mine, theirs) = (self.distance <= TOLERANCE, other.distance <= TOLERANCE);
        if mine != theirs {
            return mine;
        }
        if mine && self.fair { self.spread < other.spread } else { self.distance < other.distance }
    }
}

/// The state of one search: the goal, the rules and the random stream.
struct Search<'a> {
    goal: &'a Goal,
    rules: &'a Rules,
    options: Options,
    state: u64,
    /// The shortest jump placed, in cells.
    min_length: u32,
    /// The most jumps on the board.
    max_jumps: usize,
}

impl<'a> Search<'a> {
    fn new(goal: &'a Goal, rules: &'a Rules) -> Search<'a> {
        Search {
            goal,
            rules,
            options: Options { landings: false, ..Options::default() },
            state: goal.seed,
            min_length: (goal.size / 25).clamp(2, 10),
            max_jumps: (goal.size / 4) as usize,
        }
    }

    fn next(&mut self) -> u64 {
        splitmix64(&mut self.state)
    }

    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: u32) -> u32 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u32
    }

    /// A number in `[0, 1)`.
    fn uniform(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1_u64 << 53) as f64
    }

    /// The random board of the engine for the goal's size and seed.
    fn first_board(&self) -> Vec<(u32, u32)> {
        let each = self.goal.size / 12;
        let random = RandomBoard {
            size: self.goal.size,
            snakes: each,
            ladders: each,
            seed: self.goal.seed,
            min_jump: RandomBoard::DEFAULT_MIN_JUMP,
        };
        let spec = random.spec(self.rules);
        let snakes = spec.snakes.iter().map(|s| (s.head, s.tail));
        let jumps: Vec<(u32, u32)> =
            snakes.chain(spec.ladders.iter().map(|l| (l.foot, l.top))).collect();
        // Without the jumps the designer would not place itself.
        let starts: Vec<u32> = jumps.iter().map(|j| j.0).collect();
        jumps.iter().copied().filter(|&j| self.allows(j, &starts)).collect()
    }

    /// Whether the designer places `jump` among jumps starting on `starts`: at least
    /// `min_length` cells long, not ending on a jump's start.
    fn allows(&self, (from, to): (u32, u32), starts: &[u32]) -> bool {
        from.abs_diff(to) >= self.min_length && !starts.contains(&to)
    }

    /// One step away from `jumps`: a jump moved (one end far or near), added or removed.
    fn mutate(&mut self, jumps: &[(u32, u32)]) -> Vec<(u32, u32)> {
        let mut next = jumps.to_vec();
        let n = self.goal.size;
        let cell = |s: &mut Search| 1 + s.below(n); // 1..=N (Board::new refuses a start on N)
        let kind = if next.is_empty() { 0 } else { self.below(5) };
        match kind {
            0 if next.len() < self.max_jumps => {
                let (a, b) = (cell(self), cell(self));
                next.push((a, b));
            }
            0 | 1 if !next.is_empty() => {
                let i = self.below(next.len() as u32) as usize;
                next.swap_remove(i);
            }
            2 => {
                let i = self.below(next.len() as u32) as usize;
                let far = cell(self);
                if self.below(2) == 0 { next[i].0 = far } else { next[i].1 = far }
            }
            _ => {
                let i = self.below(next.len() as u32) as usize;
                let by = 1 + self.below(3);
                let up = self.below(2) == 0;
                let end = if self.below(2) == 0 { &mut next[i].0 } else { &mut next[i].1 };
                *end = if up { (*end + by).min(n) } else { end.saturating_sub(by).max(1) };
            }
        }
        next
    }

    /// The exact numbers of a board, or `None` when it breaks a rule of the board or of the
    /// designer (jumps at least `min_length` long, no jump ending on another's start) or a token
    /// could be stuck for ever.
    fn judge(&self, jumps: &[(u32, u32)]) -> Option<Judged> {
        let starts: Vec<u32> = jumps.iter().map(|j| j.0).collect();
        let fine = jumps.iter().all(|&j| self.allows(j, &starts));
        if !fine {
            return None;
        }
        let board =
            Board::new(&BoardSpec::with_jumps(self.goal.size, jumps.iter().copied()), self.rules)
                .ok()?;
        let analysis = exact::analyze_with(&board, self.rules, &FirstOption, &self.options).ok()?;
        if !analysis.is_finite() {
            return None;
        }
        let outcomes = analysis.seats(self.goal.seats);
        let win = outcomes.win_probability;
        let spread = win.iter().copied().fold(f64::NEG_INFINITY, f64::max)
            - win.iter().copied().fold(f64::INFINITY, f64::min);
        let distance = (analysis.expected_turns - self.goal.target_turns).abs();
        // Past 60% of the tolerance, each turn away costs twenty points; a percentage point of
        // spread costs one.
        let cost = if self.goal.fair {
            20.0 * (distance - 0.6 * TOLERANCE).max(0.0) + 100.0 * spread
        } else {
            distance
        };
        Some(Judged {
            expected_turns: analysis.expected_turns,
            std_dev_turns: analysis.std_dev_turns,
            win_probability: win,
            spread,
            distance,
            cost,
            fair: self.goal.fair,
        })
    }
}

#[cfg(test)]
mod tests;
