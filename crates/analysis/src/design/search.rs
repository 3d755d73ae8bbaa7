//! The annealing phase of the designer and what every phase shares: a layout of jumps and
//! effects, the seeded random stream, and the exact judgement of a board against the goal.

use snl_engine::{Board, BoardSpec, CellSpec, Finish, FirstOption, RandomBoard, Rules, splitmix64};

use super::{Goal, Length, ROUGH, Spread};
use crate::{
    Budget,
    exact::{self, Options, race_on},
};

/// Jumps (start, end) and cell effects: what the designer places.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Layout {
    pub(super) jumps: Vec<(u32, u32)>,
    pub(super) cells: Vec<CellSpec>,
}

impl Layout {
    pub(super) fn spec(&self, size: u32) -> BoardSpec {
        let mut spec = BoardSpec::with_jumps(size, self.jumps.iter().copied());
        spec.cells.clone_from(&self.cells);
        spec
    }
}

/// A board's exact numbers and how far they are from the goal.
#[derive(Clone, Debug)]
pub(super) struct Judged {
    pub(super) expected_turns: f64,
    pub(super) std_dev_turns: f64,
    pub(super) expected_rounds: f64,
    pub(super) win_probability: Vec<f64>,
    /// The highest chance to win less the lowest.
    pub(super) gap: f64,
    /// How far the expected length is from the target, in turns.
    pub(super) distance: f64,
    /// How far the standard deviation is outside the band, in turns.
    pub(super) sd_miss: f64,
    /// How far the gap is over the bound (0 to 1).
    pub(super) gap_miss: f64,
}

impl Judged {
    /// How far the board is from meeting the goal with the length within `tolerance`: turns of
    /// length and of standard deviation, points of gap.
    pub(super) fn miss(&self, tolerance: f64) -> f64 {
        (self.distance - tolerance).max(0.0) + self.sd_miss + 100.0 * self.gap_miss
    }

    /// What the search lowers once the goal is met: the gap with `fair`, the standard deviation
    /// (or its opposite) for a low (high) spread, else the distance to the target.
    pub(super) fn aim(&self, goal: &Goal) -> f64 {
        match goal.spread {
            _ if goal.fair => 100.0 * self.gap,
            Spread::Low => self.std_dev_turns,
            Spread::High => -self.std_dev_turns,
            _ => self.distance,
        }
    }

    /// Whether this board is a better answer than `other`: closer to meeting the goal, then
    /// (both as close) better on its aim.
    pub(super) fn better_than(&self, other: &Judged, goal: &Goal) -> bool {
        let (mine, theirs) = (self.miss(goal.tolerance), other.miss(goal.tolerance));
        if (mine - theirs).abs() > 1e-12 {
            return mine < theirs;
        }
        self.aim(goal) < other.aim(goal) - 1e-12
    }

    /// What annealing lowers: twenty per turn or point of miss with the length within
    /// [`ROUGH`], then the aim.
    fn cost(&self, goal: &Goal) -> f64 {
        20.0 * self.miss(ROUGH.max(goal.tolerance)) + self.aim(goal)
    }
}

/// The state of one search: the goal, the rules and the random stream.
pub(super) struct Search<'a> {
    pub(super) goal: &'a Goal,
    rules: &'a Rules,
    options: Options,
    state: u64,
    /// The shortest jump placed, in cells.
    min_length: u32,
    /// The most jumps on the board.
    max_jumps: usize,
    /// Boards analysed so far.
    pub(super) judged: u64,
}

impl<'a> Search<'a> {
    pub(super) fn new(goal: &'a Goal, rules: &'a Rules) -> Search<'a> {
        Search {
            goal,
            rules,
            options: Options { landings: false, ..Options::default() },
            state: goal.seed,
            min_length: (goal.size / 25).clamp(2, 10),
            max_jumps: (goal.size / 4) as usize,
            judged: 0,
        }
    }

    /// Simulated annealing from `start` for `steps` steps, the temperature falling
    /// geometrically from `hot` turns to a thousandth of a turn, until the goal is met within
    /// [`ROUGH`] (with no aim to improve) or the steps or budget run out: the best board seen,
    /// the steps taken and whether the budget lasted. Progress counts from `done`.
    pub(super) fn anneal(
        &mut self,
        start: Layout,
        (steps_asked, hot, done): (u32, f64, u32),
        progress: &dyn Fn(u32),
        budget: &Budget,
    ) -> (Option<(Layout, Judged)>, u32, bool) {
        let goal = self.goal;
        let mut current = start;
        let first = self.judge(&current);
        let mut current_cost = first.as_ref().map_or(f64::INFINITY, |j| j.cost(goal));
        let mut best = first.map(|j| (current.clone(), j));
        let cooling = (1e-3 / hot).powf(1.0 / f64::from(steps_asked.max(1)));
        let mut temperature = hot;
        let mut steps = 0;
        while steps < steps_asked {
            if budget.is_spent() {
                return (best, steps, false);
            }
            steps += 1;
            if (done + steps) % 64 == 0 {
                progress(done + steps);
            }
            temperature *= cooling;
            let candidate = self.mutate(&current);
            let Some(judged) = self.judge(&candidate) else { continue };
            let cost = judged.cost(goal);
            let accept = cost <= current_cost
                || self.uniform() < ((current_cost - cost) / temperature).exp();
            if best.as_ref().is_none_or(|(_, b)| cost < b.cost(goal)) {
                best = Some((candidate.clone(), judged.clone()));
            }
            if accept {
                current = candidate;
                current_cost = cost;
            }
            // Without an aim, a board this close is for fine tuning to finish.
            if !goal.has_aim() && best.as_ref().is_some_and(|(_, b)| b.miss(ROUGH) == 0.0) {
                break;
            }
        }
        progress(done + steps);
        (best, steps, true)
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

    /// The random board of the engine for the goal's size, seed and effects.
    pub(super) fn first_board(&self) -> Layout {
        let each = self.goal.size / 12;
        let random = RandomBoard {
            size: self.goal.size,
            snakes: each,
            ladders: each,
            seed: self.goal.seed,
            min_jump: RandomBoard::DEFAULT_MIN_JUMP,
        };
        let spec = if random.check_effects(self.goal.effects).is_ok() {
            random.spec_with_effects(self.rules, self.goal.effects)
        } else {
            random.spec(self.rules)
        };
        let snakes = spec.snakes.iter().map(|s| (s.head, s.tail));
        let jumps: Vec<(u32, u32)> =
            snakes.chain(spec.ladders.iter().map(|l| (l.foot, l.top))).collect();
        // Without the jumps the designer would not place itself.
        let starts: Vec<u32> = jumps.iter().map(|j| j.0).collect();
        let jumps = jumps.iter().copied().filter(|&j| self.allows(j, &starts)).collect();
        Layout { jumps, cells: spec.cells }
    }

    /// Whether the designer places `jump` among jumps starting on `starts`: at least
    /// `min_length` cells long, not ending on a jump's start.
    fn allows(&self, (from, to): (u32, u32), starts: &[u32]) -> bool {
        from.abs_diff(to) >= self.min_length && !starts.contains(&to)
    }

    /// One step away from `layout`: a jump moved (one end far or near), added or removed, or an
    /// effect moved.
    fn mutate(&mut self, layout: &Layout) -> Layout {
        let mut next = layout.clone();
        let n = self.goal.size;
        let cell = |s: &mut Search| 1 + s.below(n); // 1..=N (Board::new refuses a start on N)
        if !next.cells.is_empty() && self.below(4) == 0 {
            let i = self.below(next.cells.len() as u32) as usize;
            next.cells[i].at = 2 + self.below(n - 2); // 2..N-1
            return next;
        }
        let jumps = &mut next.jumps;
        let kind = if jumps.is_empty() { 0 } else { self.below(5) };
        match kind {
            0 if jumps.len() < self.max_jumps => {
                let (a, b) = (cell(self), cell(self));
                jumps.push((a, b));
            }
            0 | 1 if !jumps.is_empty() => {
                let i = self.below(jumps.len() as u32) as usize;
                jumps.swap_remove(i);
            }
            2 => {
                let i = self.below(jumps.len() as u32) as usize;
                let far = cell(self);
                if self.below(2) == 0 { jumps[i].0 = far } else { jumps[i].1 = far }
            }
            _ => {
                let i = self.below(jumps.len() as u32) as usize;
                let by = 1 + self.below(3);
                let up = self.below(2) == 0;
                let end = if self.below(2) == 0 { &mut jumps[i].0 } else { &mut jumps[i].1 };
                *end = if up { (*end + by).min(n) } else { end.saturating_sub(by).max(1) };
            }
        }
        next
    }

    /// The exact numbers of a board, or `None` when it breaks a rule of the board or of the
    /// designer (jumps at least `min_length` long, no jump ending on another's start) or a token
    /// could be stuck for ever.
    pub(super) fn judge(&mut self, layout: &Layout) -> Option<Judged> {
        let starts: Vec<u32> = layout.jumps.iter().map(|j| j.0).collect();
        if !layout.jumps.iter().all(|&j| self.allows(j, &starts)) {
            return None;
        }
        let goal = self.goal;
        let board = Board::new(&layout.spec(goal.size), self.rules).ok()?;
        self.judged += 1;
        let analysis = exact::analyze_with(&board, self.rules, &FirstOption, &self.options).ok()?;
        if !analysis.is_finite() {
            return None;
        }
        let win = match race_on(&board, self.rules, goal.seats) {
            Some(race) => race.win_probability,
            None => analysis.seats(goal.seats).win_probability,
        };
        let gap = win.iter().copied().fold(f64::NEG_INFINITY, f64::max)
            - win.iter().copied().fold(f64::INFINITY, f64::min);
        let sd = analysis.std_dev_turns;
        let sd_miss = match goal.spread {
            Spread::Band { min, max } => (min - sd).max(sd - max).max(0.0),
            _ => 0.0,
        };
        let rounds = expected_rounds(&analysis, goal.seats, self.rules);
        let length = match goal.length {
            Length::Turns => analysis.expected_turns,
            Length::Rounds => rounds,
        };
        Some(Judged {
            expected_turns: analysis.expected_turns,
            std_dev_turns: sd,
            expected_rounds: rounds,
            win_probability: win,
            gap,
            distance: (length - goal.target_turns).abs(),
            sd_miss,
            gap_miss: goal.max_gap.map_or(0.0, |most| (gap - most).max(0.0)),
        })
    }
}

/// The expected rounds a game of `seats` seats playing as `analysis` lasts: every seat has one
/// turn a round, so the game ends in round `min` of the seats' turns to finish (under finish
/// all, the `max`), and a race after its K rounds at the latest. With `S(k) = P(T > k)`, that is
/// the sum over `k` of `S(k)^seats` (of `1 − (1 − S(k))^seats` under finish all), over `k < K`
/// in a race, and over the turns the distribution was followed to otherwise (its tail left out
/// weighs under 1e-12).
pub(crate) fn expected_rounds(analysis: &exact::Analysis, seats: usize, rules: &Rules) -> f64 {
    let dist = &analysis.distribution;
    let last = match rules.mode.rounds() {
        Some(k) => k as usize,
        None => dist.turns() + 1,
    };
    let seats = i32::try_from(seats).unwrap_or(i32::MAX);
    (0..last)
        .map(|k| {
            let s = dist.survival(k);
            match rules.finish {
                Finish::First => s.powi(seats),
                Finish::All => 1.0 - (1.0 - s).powi(seats),
            }
        })
        .sum()
}
