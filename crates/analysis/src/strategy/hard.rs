// Long because policy iteration and the within-turn values it needs under each bonus rule are one algorithm.
//! The optimal policy: the least expected number of turns to finish.
//!
//! A token's game is a Markov decision process on the position where each turn begins. A turn
//! costs 1; within it, the token decides at every roll, and with bonus rolls a turn holds several
//! rolls, so a decision also weighs the rest of the turn. Write `V(b)` for the expected turns
//! from a turn begun on `b` and `W_s(x; b)` for the expected turns still to come after the turn,
//! standing on `x` after `s` top-face rolls of a turn begun on `b`. Then
//!
//! ```text
//! V(b)      = 1 + W_0(b; b)
//! W_s(x; b) = Σ_rolls p · min over options o of  V(b)              if o is the capped top face (void)
//!                                                W_{s+1}(y_o; b)   if o earns a bonus roll
//!                                                V(y_o)            otherwise (0 at N)
//! ```
//!
//! Policy iteration solves it: start from the first option; evaluate the policy exactly (the
//! turn chain and the exact solver of [`crate::exact`], from every position); improve it by
//! taking, at every roll, the option with the least right-hand side under that evaluation; repeat
//! until the values stop changing (to 1e-11 relative; a handful of rounds). Each round can only
//! lower every `V(b)`, and at the end no option improves on the one taken: the policy is optimal
//! ([`HardPolicy::bellman_residual`] measures it).
//!
//! Within a turn, `W` is kept in the form the rules need: not at all without bonus rolls; one
//! value per cell with unlimited bonus rolls (a fixed point, by Gauss–Seidel sweeps, since a
//! top face can be followed by another); one per cell and streak under a cap with on-max pass;
//! and under on-max void, where `W` also depends on where the turn began, computed for the
//! decision at hand. Streaks so unlikely that the exact analysis cuts them off (below 1e-20) are
//! not followed either.

use std::collections::HashMap;

use snl_engine::{
    AfterRoll, Board, Bonus, Choice, Decider, Decision, Game, MoveOption, OnMax, Rules,
};

use super::effects::{At, EffectPolicy, shield_at_turn_start};
use crate::exact::{self, AnalysisError, BONUS_TAIL, Policy, RollClass, Situation, roll_classes};

/// Rounds of policy iteration at most (it converges in a handful).
const MAX_ROUNDS: u32 = 100;

/// How much better (relative) an option must be to replace an earlier one, so that rounding
/// cannot make the policy flicker between equally good options.
const TOLERANCE: f64 = 1e-13;

/// The iteration ends when no value moves by more than this (relative) in a round: far below
/// the 1e-9 promised, and above the rounding of an evaluation (which may be iterative, to
/// 1e-14, on boards with many cells reached by backward moves).
const SETTLED: f64 = 1e-11;

/// Gauss–Seidel sweeps for the values within a turn under unlimited bonus rolls stop once no
/// value moves by more than this (relative), a few units of rounding.
const SWEPT: f64 = 1e-15;

/// Sweeps at most; each shrinks the error by the chance of a top face (at most 3/4), so about
/// 120 reach [`SWEPT`].
const MAX_SWEEPS: usize = 10_000;

/// The optimal policy for one board and one set of rules: least expected turns to finish.
///
/// Computed once ([`HardPolicy::new`]) and then shared: it is a [`Policy`] for the exact analysis
/// and, through [`HardPolicy::choose_for`] or its [`Decider`], the `hard` computer player.
/// It holds only tables, so threads can share one.
#[derive(Clone, Debug)]
pub struct HardPolicy {
    board: Board,
    rules: Rules,
    classes: Vec<RollClass>,
    size: u32,
    bonus: bool,
    cap: Option<u32>,
    void: bool,
    /// Bonus levels followed within a turn.
    depth: u32,
    /// `V(b)` for b in 0..=N: expected turns to finish from a turn begun on b.
    values: Vec<f64>,
    within: Within,
    rounds: u32,
    /// On a board with cell effects: the tables over the extended state.
    effects: Option<Box<EffectPolicy>>,
}

/// The values within a turn that decisions need (`W` of the module documentation).
#[derive(Clone, Debug)]
enum Within {
    /// No bonus rolls: a decision ends the turn or not, whatever it is.
    Unused,
    /// Unlimited bonus rolls: `W(x)`, the same at any streak.
    Unlimited(Vec<f64>),
    /// A cap with on-max pass: `levels[s - 1][x]` = `W_s(x)` for streaks 1..=levels.
    Levels(Vec<Vec<f64>>),
    /// A cap with on-max void: per turn start, since a void sends the token back there.
    Void(VoidTable),
}

/// `W_s(x; b)` for each turn start `b` at the nodes `(s, x)` its turns can reach: `nodes[offsets
/// [b]..offsets[b + 1]]`, sorted by streak then cell.
#[derive(Clone, Debug)]
struct VoidTable {
    offsets: Vec<usize>,
    nodes: Vec<(u32, u32, f64)>,
}

impl VoidTable {
    fn get(&self, b: u32, streak: u32, x: u32) -> Option<f64> {
        let range = self.offsets[b as usize]..self.offsets[b as usize + 1];
        let nodes = &self.nodes[range];
        nodes.binary_search_by(|&(s, c, _)| (s, c).cmp(&(streak, x))).ok().map(|i| nodes[i].2)
    }
}

impl HardPolicy {
    /// The optimal policy for `board` under `rules`, by policy iteration.
    ///
    /// # Errors
    ///
    /// As [`exact::analyze`]: the exact solver could fail to converge on a board with thousands
    /// of cells reached by backward moves.
    ///
    /// On a board with cell effects, the policy is over the extended state (cell, shield, skip
    /// pending): value iteration, see the module `strategy::effects`.
    pub fn new(board: &Board, rules: &Rules) -> Result<HardPolicy, AnalysisError> {
        HardPolicy::new_within(board, rules, &crate::Budget::unlimited())
    }

    /// As [`HardPolicy::new`], stopped once `budget` is spent: it is looked at while each
    /// chain is built (before each row), between rounds of policy iteration and, on a board
    /// with cell effects, while the states are found and between sweeps. A server gives its
    /// computer players a deadline this way, and plays on with another strategy past it.
    ///
    /// # Errors
    ///
    /// As [`HardPolicy::new`], and [`AnalysisError::Stopped`] when the budget ran out first.
    pub fn new_within(
        board: &Board,
        rules: &Rules,
        budget: &crate::Budget,
    ) -> Result<HardPolicy, AnalysisError> {
        let spent = || budget.is_limited() && budget.is_spent();
        if board.has_effects() {
            let tables = EffectPolicy::new_within(board, rules, budget)?;
            let mut policy =
                HardPolicy::from_values(board, rules, tables.values_without_shield(), 0);
            policy.within = Within::Unused;
            policy.effects = Some(Box::new(tables));
            return Ok(policy);
        }
        let first = exact::turns_everywhere(board, rules, &snl_engine::FirstOption, budget)?;
        if rules.choice == Choice::None {
            return Ok(HardPolicy::from_values(board, rules, first, 0));
        }
        let mut policy = HardPolicy::from_values(board, rules, first, 0);
        for round in 1..=MAX_ROUNDS {
            if spent() {
                return Err(AnalysisError::Stopped);
            }
            let values = exact::turns_everywhere(board, rules, &policy, budget)?;
            let settled = values.iter().zip(&policy.values).all(|(&a, &b)| close(a, b, SETTLED));
            policy = HardPolicy::from_values(board, rules, values, round);
            if settled {
                break;
            }
        }
        Ok(policy)
    }

    /// The policy that decides by one step of look-ahead on `values` (`V`).
    fn from_values(board: &Board, rules: &Rules, values: Vec<f64>, rounds: u32) -> HardPolicy {
        let classes = roll_classes(rules, false);
        // The chance that a roll offers a top face: a streak of s has at most this to the s.
        let top: f64 = classes
            .iter()
            .filter(|c| c.options().iter().any(|s| s.top_face))
            .map(|c| c.weight)
            .sum();
        let depth = if top <= 0.0 {
            0
        } else {
            (BONUS_TAIL.ln() / top.ln()).ceil().clamp(1.0, 10_000.0) as u32
        };
        let mut policy = HardPolicy {
            board: board.clone(),
            rules: *rules,
            classes,
            size: board.size(),
            bonus: rules.bonus == Bonus::TopFace,
            cap: rules.max_bonus.limit(),
            void: rules.on_max == OnMax::Void,
            depth,
            values,
            within: Within::Unused,
            rounds,
            effects: None,
        };
        policy.within = policy.within_values();
        policy
    }

    fn within_values(&self) -> Within {
        if !self.bonus || self.rules.choice == Choice::None || self.board.has_effects() {
            return Within::Unused;
        }
        let n = self.size as usize;
        match self.cap {
            None => {
                // W(x) = Σ p · min(top ? W(y) : V(y)): a fixed point, each sweep shrinking the
                // error by the chance of a top face at least. Gauss–Seidel from the top down.
                let mut w: Vec<f64> = self.values.clone();
                w[n] = 0.0;
                for _ in 0..MAX_SWEEPS {
                    let mut change = 0.0_f64;
                    for x in (0..n as u32).rev() {
                        let at = Situation {
                            position: x,
                            turn_start: x,
                            streak: 0,
                            ..Situation::default()
                        };
                        let value = self.expect(at, |y, _| w[y as usize]);
                        change = change.max(gap(value, w[x as usize]));
                        w[x as usize] = value;
                    }
                    if change <= SWEPT {
                        break;
                    }
                }
                Within::Unlimited(w)
            }
            Some(cap) if self.void => Within::Void(self.void_table(cap)),
            Some(cap) => {
                // Streaks 1..=count; past the deepest, a bonus roll's value is where it lands
                // (the capped roll passes, or the streak is one the analysis cuts off).
                let count = (cap - 1).min(self.depth) as usize;
                let mut levels: Vec<Vec<f64>> = vec![Vec::new(); count];
                for s in (1..=count).rev() {
                    let row: Vec<f64> = (0..n as u32)
                        .map(|x| {
                            let at = Situation {
                                position: x,
                                turn_start: x,
                                streak: s as u32,
                                ..Situation::default()
                            };
                            self.expect(at, |y, streak| match levels.get(streak as usize - 1) {
                                Some(next) if streak as usize <= count => next[y as usize],
                                _ => self.v(y),
                            })
                        })
                        .collect();
                    levels[s - 1] = row;
                }
                Within::Levels(levels)
            }
        }
    }

    /// `W_s(x; b)` under on-max void for every turn start `b` and every node `(s, x)` with
    /// `1 ≤ s < cap` that a turn from `b` can reach, whatever the decisions.
    fn void_table(&self, cap: u32) -> VoidTable {
        let deepest = (cap - 1).min(self.depth);
        let mut table = VoidTable { offsets: vec![0], nodes: Vec::new() };
        let mut levels: Vec<Vec<u32>> = Vec::new();
        let mut values: Vec<Vec<f64>> = Vec::new();
        for b in 0..self.size {
            // The cells each streak can stand on.
            levels.clear();
            levels.push(vec![b]);
            for s in 0..deepest as usize {
                let mut next = Vec::new();
                for &x in &levels[s] {
                    for class in &self.classes {
                        let (options, count) = self.options_at(x, class);
                        next.extend(
                            options[..count]
                                .iter()
                                .filter(|o| self.bonus && o.top_face && o.lands != self.size)
                                .map(|o| o.lands),
                        );
                    }
                }
                next.sort_unstable();
                next.dedup();
                levels.push(next);
            }
            // Their values, deepest first.
            values.clear();
            values.resize(levels.len(), Vec::new());
            for s in (1..levels.len()).rev() {
                let row: Vec<f64> = levels[s]
                    .iter()
                    .map(|&x| {
                        let at = Situation {
                            position: x,
                            turn_start: b,
                            streak: s as u32,
                            ..Situation::default()
                        };
                        self.expect(at, |y, streak| {
                            let t = streak as usize;
                            match levels.get(t).and_then(|l| l.binary_search(&y).ok()) {
                                Some(i) if t < values.len() && !values[t].is_empty() => {
                                    values[t][i]
                                }
                                _ => self.v(y), // a streak cut off: the turn ends there
                            }
                        })
                    })
                    .collect();
                values[s] = row;
            }
            for s in 1..levels.len() {
                let nodes = levels[s].iter().zip(&values[s]).map(|(&x, &w)| (s as u32, x, w));
                table.nodes.extend(nodes);
            }
            table.offsets.push(table.nodes.len());
        }
        table
    }

    /// `Σ_rolls p · min over the options at at.position of what each leaves to come`, where
    /// `within(y, streak)` is `W_streak(y)` for an option that earns a bonus roll.
    fn expect(&self, at: Situation, mut within: impl FnMut(u32, u32) -> f64) -> f64 {
        let mut total = 0.0;
        for class in &self.classes {
            let (options, count) = self.options_at(at.position, class);
            let best = options[..count]
                .iter()
                .map(|o| self.outcome(at, o, &mut within))
                .fold(f64::INFINITY, f64::min);
            total += class.weight * best;
        }
        total
    }

    /// What taking `option` at `at` leaves to come, in expected turns after this one.
    fn outcome(
        &self,
        at: Situation,
        option: &MoveOption,
        within: &mut impl FnMut(u32, u32) -> f64,
    ) -> f64 {
        match self.rules.after_roll(at.streak, option.top_face) {
            (AfterRoll::End, _) => self.v(option.lands),
            (AfterRoll::Void, _) => self.v(at.turn_start),
            // A player who finishes rolls no more.
            (AfterRoll::Again, _) if option.lands == self.size => 0.0,
            (AfterRoll::Again, streak) => within(option.lands, streak),
        }
    }

    /// The distinct options of a roll of `class` from `x`, as the engine offers them.
    fn options_at(&self, x: u32, class: &RollClass) -> ([MoveOption; 2], usize) {
        let mut options = [self.board.option(&self.rules, x, 0, false, false); 2];
        let mut count = 0;
        for s in class.options() {
            let option = self.board.option(&self.rules, x, s.steps, s.top_face, false);
            if options[..count].iter().all(|k| !k.ends_like(&option, &self.rules)) {
                options[count] = option;
                count += 1;
            }
        }
        (options, count)
    }

    fn v(&self, position: u32) -> f64 {
        self.values[position as usize]
    }

    /// `W_streak(y)` in a turn begun on `b`, from the tables (or, for a node no turn reaches,
    /// worked out afresh).
    fn within(&self, y: u32, streak: u32, b: u32) -> f64 {
        match &self.within {
            Within::Unused => self.v(y),
            Within::Unlimited(w) => w[y as usize],
            Within::Levels(levels) => match levels.get(streak as usize - 1) {
                Some(row) => row[y as usize],
                None => self.v(y),
            },
            Within::Void(table) => match table.get(b, streak, y) {
                Some(w) => w,
                None => self.void_within(y, streak, b, &mut HashMap::new()),
            },
        }
    }

    /// `W_s(x; b)` under on-max void by recursion, remembering values in `memo`.
    fn void_within(&self, x: u32, s: u32, b: u32, memo: &mut HashMap<(u32, u32), f64>) -> f64 {
        if s > self.depth {
            return self.v(x); // a streak the analysis cuts off: the turn ends where it stands
        }
        if let Some(&v) = memo.get(&(x, s)) {
            return v;
        }
        let at = Situation { position: x, turn_start: b, streak: s, ..Situation::default() };
        let mut total = 0.0;
        for class in &self.classes {
            let (options, count) = self.options_at(x, class);
            let mut best = f64::INFINITY;
            for o in &options[..count] {
                let value = self.outcome(at, o, &mut |y, t| self.void_within(y, t, b, memo));
                best = best.min(value);
            }
            total += class.weight * best;
        }
        memo.insert((x, s), total);
        total
    }

    /// The option taken at `at` among `options`, and the expected turns after this one. On a
    /// board with cell effects, over the extended state: the shield held, the skip pending and
    /// the shield the turn began with are read from `at`, so the exact chain (which knows them
    /// from its state) and a game ([`HardPolicy::choose_in`]) make the same choice.
    fn best(&self, at: Situation, options: &[MoveOption]) -> (usize, f64) {
        if let Some(tables) = &self.effects {
            let node = At {
                position: at.position,
                shield: at.shield,
                skip: at.skip,
                streak: at.streak,
                turn_start: at.turn_start,
                turn_start_shield: self.void && at.turn_start_shield,
            };
            // A point no turn reaches (none the chain or a game meets): greedy, as in a game.
            return tables.best(node, options).unwrap_or_else(|| {
                let greedy = super::greedy_choice_at(
                    &self.board,
                    &self.rules,
                    at.position,
                    at.shield,
                    options,
                );
                (greedy, f64::NAN)
            });
        }
        let mut best = (0, f64::INFINITY);
        for (i, option) in options.iter().enumerate() {
            let value = self.outcome(at, option, &mut |y, t| self.within(y, t, at.turn_start));
            if i == 0 || better(value, best.1) {
                best = (i, value);
            }
        }
        best
    }

    /// The option `hard` takes for the engine's `decision` in `game`: on a board with cell
    /// effects, knowing whether the seat holds a shield and has a turn to skip.
    pub fn choose_in(&self, game: &Game, decision: &Decision) -> usize {
        if self.effects.is_none() {
            return self.choose_for(decision);
        }
        let seat = decision.seat;
        let at = Situation {
            position: decision.position,
            turn_start: decision.turn_start,
            streak: decision.streak,
            shield: game.has_shield(seat),
            skip: game.skips_next_turn(seat),
            turn_start_shield: self.void && shield_at_turn_start(game, seat),
        };
        self.best(at, &decision.options).0
    }

    /// The option `hard` takes for the engine's `decision`. On a board with cell effects this
    /// assumes the seat holds no shield and has no turn to skip: [`HardPolicy::choose_in`]
    /// reads them from the game.
    pub fn choose_for(&self, decision: &Decision) -> usize {
        let at = Situation {
            position: decision.position,
            turn_start: decision.turn_start,
            streak: decision.streak,
            ..Situation::default()
        };
        self.best(at, &decision.options).0
    }

    /// Expected turns to finish from a turn begun on `position` holding a shield or not (on a
    /// board without effects a shield changes nothing).
    pub fn value_with_shield(&self, position: u32, shield: bool) -> f64 {
        match &self.effects {
            Some(tables) => tables.value(position, shield),
            None => self.v(position),
        }
    }

    /// Sweeps of value iteration made on a board with effects (0 on a board without).
    pub fn sweeps(&self) -> usize {
        self.effects.as_ref().map_or(0, |t| t.sweeps())
    }

    /// Expected turns to finish from the start, playing this policy.
    pub fn expected_turns(&self) -> f64 {
        self.v(self.rules.start_position())
    }

    /// Expected turns to finish from a turn begun on each position 0..=N (0 at N, infinite where
    /// N can no longer be reached); with effects, holding no shield.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// Rounds of policy iteration made (0 when the rules offer no choice).
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// The rules the policy is for.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The board the policy is for.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// How far the values are from optimal: the largest relative gap, over every position that
    /// can finish, between `V(b)` and `1 + min over the whole turn's decisions` computed from
    /// the same values. Zero (to rounding) exactly when no decision can be improved.
    ///
    /// On a board with cell effects, over every state of the extended chain: each turn start
    /// (cell, shield) and each point of a turn (cell, shield, skip pending, streak).
    pub fn bellman_residual(&self) -> f64 {
        if let Some(tables) = &self.effects {
            return tables.bellman_residual();
        }
        let mut worst = 0.0_f64;
        let mut memo = HashMap::new();
        for b in 0..self.size {
            let v = self.v(b);
            if !v.is_finite() {
                continue;
            }
            let at = Situation { position: b, turn_start: b, streak: 0, ..Situation::default() };
            // Under void, the values within the turn are worked out afresh, which also checks
            // the tables decisions are made from.
            memo.clear();
            let after = self.expect(at, |y, t| match self.within {
                Within::Void(_) => self.void_within(y, t, b, &mut memo),
                _ => self.within(y, t, b),
            });
            worst = worst.max(((1.0 + after) - v).abs() / v);
        }
        worst
    }
}

impl Policy for HardPolicy {
    fn choose(&self, at: Situation, options: &[MoveOption]) -> usize {
        self.best(at, options).0
    }
}

impl Decider for HardPolicy {
    fn decide(&mut self, game: &Game, decision: &Decision) -> usize {
        self.choose_in(game, decision)
    }
}

/// Whether two values are equal to [`TOLERANCE`] (both infinite counts as equal).
fn same(a: f64, b: f64) -> bool {
    close(a, b, TOLERANCE)
}

/// Whether two values are equal to `tolerance`, relative (both infinite counts as equal).
#[expect(clippy::float_cmp, reason = "equal values, infinite ones too, are the same")]
fn close(a: f64, b: f64, tolerance: f64) -> bool {
    a == b || (a.is_finite() && b.is_finite() && (a - b).abs() <= tolerance * a.abs().max(b.abs()))
}

/// Whether `value` beats `incumbent` by more than [`TOLERANCE`].
pub(super) fn better(value: f64, incumbent: f64) -> bool {
    value < incumbent && !same(value, incumbent)
}

/// The relative change from `old` to `new`, for convergence (infinite values count as settled
/// once they stay infinite).
#[expect(clippy::float_cmp, reason = "equal values, infinite ones too, have not moved")]
fn gap(new: f64, old: f64) -> f64 {
    if new == old {
        0.0
    } else if new.is_finite() && old.is_finite() {
        (new - old).abs() / new.abs().max(1e-300)
    } else {
        f64::INFINITY
    }
}
