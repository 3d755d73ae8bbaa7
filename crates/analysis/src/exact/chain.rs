// Long because a turn's model, its roll classes and the compact chain belong together; ~90 lines are unit tests.
//! The turn-level Markov chain of one token: from the position where a turn begins, where the
//! turn ends, with which probability, and how many rolls and landings it takes on the way.
//!
//! A turn is itself a small chain when bonus rolls are on: each top-face roll starts another roll
//! of the same turn, the cap counts them, and on-max void sends the token back to where the turn
//! began. [`TurnChain`] walks that sub-chain once per starting position, level by level (level
//! `s` = `s` top-face rolls so far), exactly as [`Game::play_turn`](snl_engine::Game::play_turn)
//! plays it.

use super::AnalysisError;
use crate::Budget;
use snl_engine::{AfterRoll, Board, Choice, MoveOption, Rules};

/// Mass below which an unlimited run of bonus rolls is cut off. Each further bonus level holds
/// at most 3/4 of the one before (a double 1 is never a top face), so the cut is reached after a
/// bounded number of levels; the mass cut off ends the turn where the token stands, which moves
/// every answer by far less than the promised 1e-9.
pub(crate) const BONUS_TAIL: f64 = 1e-20;

/// Where a token stands when the rules offer it a choice.
///
/// On a board with cell effects (SPEC §3b) it also says what the token holds, which the exact
/// chain knows from its state (cell, shield, skip pending): a policy that reads them is followed
/// over the extended state. On a board without effects they are always false.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Situation {
    /// Its position before this roll.
    pub position: u32,
    /// Where its turn began: where a voided turn sends it back.
    pub turn_start: u32,
    /// Top-face rolls already made in this turn (the bonus streak; it begins again after an
    /// `extra` cell's roll).
    pub streak: u32,
    /// Whether it holds a shield now.
    pub shield: bool,
    /// Whether its next turn is to be skipped (a `skip` cell rested on in this turn).
    pub skip: bool,
    /// Whether it held a shield when this turn began: what on-max void gives back.
    pub turn_start_shield: bool,
}

/// How a token chooses among the options of a roll, when the rules offer more than one
/// (`--choice may-pass` or `pick-die`).
///
/// The exact analysis needs a policy that depends only on what the token knows now (position,
/// turn start, streak, on a board with effects its shield and pending skip, and the options),
/// not on other seats: seats are independent tokens.
/// [`FirstOption`](snl_engine::FirstOption) always moves by the roll (or by the first die), as the
/// engine's decider of the same name does.
pub trait Policy {
    /// The index of the chosen option in `options` (at least two). An index past the end means
    /// the last option, as in the engine.
    fn choose(&self, at: Situation, options: &[MoveOption]) -> usize;

    /// True if and only if this policy always takes option 0; the chain then needs no choices
    /// and is built faster. The default is false, which is always correct.
    fn always_first(&self) -> bool {
        false
    }

    /// For a policy that chooses at random: writes the probability of each option into
    /// `weights` (one per option, adding up to 1) and returns true; the exact analysis then
    /// follows every option with its probability. The default returns false: the policy always
    /// takes [`Policy::choose`] (which a random policy should answer with its likeliest option).
    fn mix(&self, at: Situation, options: &[MoveOption], weights: &mut [f64]) -> bool {
        let _ = (at, options, weights);
        false
    }
}

impl Policy for snl_engine::FirstOption {
    fn choose(&self, _: Situation, _: &[MoveOption]) -> usize {
        0
    }

    fn always_first(&self) -> bool {
        true
    }
}

impl<P: Policy + ?Sized> Policy for &P {
    fn choose(&self, at: Situation, options: &[MoveOption]) -> usize {
        (**self).choose(at, options)
    }

    fn always_first(&self) -> bool {
        (**self).always_first()
    }

    fn mix(&self, at: Situation, options: &[MoveOption], weights: &mut [f64]) -> bool {
        (**self).mix(at, options, weights)
    }
}

/// A policy from a function or closure: `FnPolicy(|at, options| ...)`.
#[derive(Clone, Copy, Debug)]
pub struct FnPolicy<F>(pub F);

impl<F: Fn(Situation, &[MoveOption]) -> usize> Policy for FnPolicy<F> {
    fn choose(&self, at: Situation, options: &[MoveOption]) -> usize {
        (self.0)(at, options)
    }
}

/// One way to play a roll, before the position is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    /// Cells to move; 0 stays put.
    pub(crate) steps: u32,
    /// Whether it counts as a top-face roll.
    pub(crate) top_face: bool,
}

/// A class of equally treated rolls: their total probability and the options they offer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RollClass {
    pub(crate) weight: f64,
    options: [Step; 2],
    len: usize,
}

impl RollClass {
    fn single(weight: f64, step: Step) -> RollClass {
        RollClass { weight, options: [step; 2], len: 1 }
    }

    pub(crate) fn options(&self) -> &[Step] {
        &self.options[..self.len]
    }
}

/// The roll classes of `rules`: the options each roll offers, in the engine's order. When the
/// policy always takes the first option, rolls are grouped by that option alone.
pub(crate) fn roll_classes(rules: &Rules, first_only: bool) -> Vec<RollClass> {
    let dice = rules.thrown_dice();
    let faces = dice.faces();
    match rules.choice {
        Choice::PickDie if first_only => {
            // Moving by the first die is throwing one die.
            let weight = 1.0 / f64::from(faces);
            (1..=faces)
                .map(|d| RollClass::single(weight, Step { steps: d, top_face: d == faces }))
                .collect()
        }
        Choice::PickDie => {
            let weight = 1.0 / f64::from(faces * faces);
            let mut classes = Vec::with_capacity((faces * faces) as usize);
            for first in 1..=faces {
                for second in 1..=faces {
                    let a = Step { steps: first, top_face: first == faces };
                    let b = Step { steps: second, top_face: second == faces };
                    classes.push(if first == second {
                        RollClass::single(weight, a)
                    } else {
                        RollClass { weight, options: [a, b], len: 2 }
                    });
                }
            }
            classes
        }
        Choice::None | Choice::MayPass => {
            let ways = dice.total_weights();
            let all: u64 = ways.iter().sum();
            let top = dice.top_total();
            let mut classes = Vec::new();
            for (total, &w) in ways.iter().enumerate() {
                if w == 0 {
                    continue;
                }
                let total = total as u32;
                // Only all dice on their top face make the top total.
                let step = Step { steps: total, top_face: total == top };
                let weight = w as f64 / all as f64;
                classes.push(if rules.choice == Choice::MayPass && !first_only {
                    RollClass { weight, options: [step, Step { steps: 0, ..step }], len: 2 }
                } else {
                    RollClass::single(weight, step)
                });
            }
            classes
        }
    }
}

/// Reusable buffers for [`TurnModel::turn`].
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    /// Where the turn ends, with probability (unsorted, may repeat).
    pub(crate) ends: Vec<(u32, f64)>,
    level: Vec<(u32, f64)>,
    next: Vec<(u32, f64)>,
    options: Vec<MoveOption>,
}

/// What the rules and a policy make of one turn.
pub(crate) struct TurnModel<'a> {
    pub(crate) board: &'a Board,
    pub(crate) rules: Rules,
    policy: &'a dyn Policy,
    pub(crate) classes: Vec<RollClass>,
    pub(crate) size: u32,
}

impl std::fmt::Debug for TurnModel<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TurnModel").field("rules", &self.rules).finish_non_exhaustive()
    }
}

impl<'a> TurnModel<'a> {
    pub(crate) fn new(board: &'a Board, rules: &Rules, policy: &'a dyn Policy) -> TurnModel<'a> {
        TurnModel {
            board,
            rules: *rules,
            policy,
            classes: roll_classes(rules, policy.always_first()),
            size: board.size(),
        }
    }

    /// Plays out one turn begun on `begin` (not N): fills `scratch.ends` and returns the
    /// expected number of rolls. With `landings`, adds `weight` × the expected number of times
    /// each cell is landed on (the cell a move reaches before any jump; blocked and voided rolls
    /// land nowhere).
    pub(crate) fn turn(
        &self,
        begin: u32,
        scratch: &mut Scratch,
        mut landings: Option<(&mut [f64], f64)>,
    ) -> f64 {
        let Scratch { ends, level, next, options } = scratch;
        ends.clear();
        level.clear();
        level.push((begin, 1.0));
        let mut rolls = 0.0;
        let mut streak = 0_u32;
        while !level.is_empty() {
            next.clear();
            let mass: f64 = level.iter().map(|&(_, m)| m).sum();
            if mass < BONUS_TAIL {
                ends.extend_from_slice(level);
                break;
            }
            rolls += mass;
            for &(x, m) in level.iter() {
                let at =
                    Situation { position: x, turn_start: begin, streak, ..Situation::default() };
                for class in &self.classes {
                    let picked = self.pick(at, class, options);
                    for &(step, share) in picked.as_slice() {
                        let p = m * class.weight * share;
                        let (after, _) = self.rules.after_roll(streak, step.top_face);
                        if after == AfterRoll::Void {
                            ends.push((begin, p));
                            continue;
                        }
                        let y = if step.steps == 0 {
                            x
                        } else {
                            let a = self.board.advance(&self.rules, x, step.steps);
                            if a.blocked {
                                x
                            } else {
                                if let Some((cells, w)) = landings.as_mut() {
                                    cells[a.landed as usize] += *w * p;
                                }
                                a.end
                            }
                        };
                        if after == AfterRoll::Again && y != self.size {
                            next.push((y, p));
                        } else {
                            ends.push((y, p));
                        }
                    }
                }
            }
            merge(next);
            std::mem::swap(level, next);
            streak += 1;
        }
        rolls
    }

    /// The option the policy takes for `class` at `at`, or the options with their
    /// probabilities for a policy that chooses at random. Options that end alike are one option,
    /// the first, as in [`Game::options`](snl_engine::Game::options).
    pub(crate) fn pick(
        &self,
        at: Situation,
        class: &RollClass,
        options: &mut Vec<MoveOption>,
    ) -> Picked {
        self.pick_shielded(at, class, options, false)
    }

    /// As [`TurnModel::pick`] for a token that holds a shield or not: a shield stops a snake on
    /// the landing cell, so the option lands on its head (as `Game::options` says).
    pub(crate) fn pick_shielded(
        &self,
        at: Situation,
        class: &RollClass,
        options: &mut Vec<MoveOption>,
        shield: bool,
    ) -> Picked {
        let steps = class.options();
        if steps.len() == 1 {
            return Picked::one(steps[0]);
        }
        options.clear();
        let mut kept = [steps[0]; 2];
        for &s in steps {
            let option = self.board.option(&self.rules, at.position, s.steps, s.top_face, shield);
            if options.iter().all(|k| !k.ends_like(&option, &self.rules)) {
                kept[options.len()] = s;
                options.push(option);
            }
        }
        let count = options.len();
        if count == 1 {
            return Picked::one(kept[0]);
        }
        let mut weights = [0.0; 2];
        if self.policy.mix(at, options, &mut weights[..count]) {
            return Picked { options: [(kept[0], weights[0]), (kept[1], weights[1])], len: count };
        }
        let chosen = self.policy.choose(at, options).min(count - 1);
        Picked::one(kept[chosen])
    }
}

/// What a policy does with one roll: one option for sure, or up to two with probabilities.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Picked {
    options: [(Step, f64); 2],
    len: usize,
}

impl Picked {
    fn one(step: Step) -> Picked {
        Picked { options: [(step, 1.0); 2], len: 1 }
    }

    pub(crate) fn as_slice(&self) -> &[(Step, f64)] {
        &self.options[..self.len]
    }
}

/// Sorts `(position, mass)` pairs by position and adds up repeats.
pub(crate) fn merge(pairs: &mut Vec<(u32, f64)>) {
    if pairs.len() < 2 {
        return;
    }
    pairs.sort_unstable_by_key(|&(c, _)| c);
    let mut w = 0;
    for r in 1..pairs.len() {
        if pairs[r].0 == pairs[w].0 {
            pairs[w].1 += pairs[r].1;
        } else {
            w += 1;
            pairs[w] = pairs[r];
        }
    }
    pairs.truncate(w + 1);
}

/// The turn-level chain of one token on a board under rules and a policy: for every position
/// where a turn can begin (0..N, N being absorbing), where the turn ends and with which
/// probability, and the expected number of rolls the turn takes.
///
/// Rows are stored compressed (CSR), a few entries per position, so memory is linear in cells.
///
/// On a board with cell effects (SPEC §3b) a position is a state (cell, shield held, skip
/// pending): see [`TurnChain::state`]; without them a position is a cell.
#[derive(Clone, Debug)]
pub struct TurnChain {
    size: u32,
    start: u32,
    offsets: Vec<usize>,
    targets: Vec<u32>,
    probs: Vec<f64>,
    rolls: Vec<f64>,
    layout: StateLayout,
}

/// How a state of the chain packs (cell, shield held, skip pending): `cell × per_cell + flags`,
/// with a pending skip numbered before the same cell without one, so that passing a skipped
/// turn moves forward.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StateLayout {
    /// States per cell: 1, 2 or 4.
    pub(crate) per_cell: u32,
    /// The flag of a held shield (0: the board has no shield cell).
    pub(crate) shield: u32,
    /// The flag of no pending skip (0: the board has no skip cell).
    pub(crate) no_skip: u32,
}

impl StateLayout {
    /// One state per cell.
    pub(crate) const CELLS: StateLayout = StateLayout { per_cell: 1, shield: 0, no_skip: 0 };

    pub(crate) fn state(self, cell: u32, shield: bool, skip: bool) -> u32 {
        let mut s = cell * self.per_cell;
        if shield {
            s += self.shield;
        }
        if !skip {
            s += self.no_skip;
        }
        s
    }

    /// (cell, shield held, skip pending) of a state.
    pub(crate) fn decode(self, state: u32) -> (u32, bool, bool) {
        let (cell, flags) = (state / self.per_cell, state % self.per_cell);
        let shield = self.shield != 0 && flags & self.shield != 0;
        let skip = self.no_skip != 0 && flags & self.no_skip == 0;
        (cell, shield, skip)
    }
}

impl TurnChain {
    /// The chain of a token that always takes the first option.
    pub fn new(board: &Board, rules: &Rules) -> TurnChain {
        TurnChain::with_policy(board, rules, &snl_engine::FirstOption)
    }

    /// The chain of a token that chooses with `policy`.
    pub fn with_policy(board: &Board, rules: &Rules, policy: &dyn Policy) -> TurnChain {
        TurnChain::with_policy_within(board, rules, policy, &Budget::unlimited())
            .unwrap_or_else(|_| unreachable!("an unlimited budget is never spent"))
    }

    /// As [`TurnChain::new`], stopped once `budget` is spent (looked at before each row).
    ///
    /// # Errors
    ///
    /// [`AnalysisError::Stopped`] when the budget ran out first.
    pub fn new_within(
        board: &Board,
        rules: &Rules,
        budget: &Budget,
    ) -> Result<TurnChain, AnalysisError> {
        TurnChain::with_policy_within(board, rules, &snl_engine::FirstOption, budget)
    }

    /// As [`TurnChain::with_policy`], stopped once `budget` is spent (looked at before each
    /// row).
    ///
    /// # Errors
    ///
    /// [`AnalysisError::Stopped`] when the budget ran out first.
    pub fn with_policy_within(
        board: &Board,
        rules: &Rules,
        policy: &dyn Policy,
        budget: &Budget,
    ) -> Result<TurnChain, AnalysisError> {
        let model = TurnModel::new(board, rules, policy);
        let chain = if board.has_effects() {
            super::effects::EffectModel::new(model).chain(budget)
        } else {
            TurnChain::from_model(&model, rules, budget)
        };
        chain.ok_or(AnalysisError::Stopped)
    }

    /// A chain from its rows: `rows[b]` is where a turn begun on b ends (ends sorted, no
    /// repeats) and its expected rolls.
    pub(crate) fn from_rows(
        start: u32,
        layout: StateLayout,
        rows: impl ExactSizeIterator<Item = (Vec<(u32, f64)>, f64)>,
    ) -> TurnChain {
        let size = rows.len() as u32;
        let mut offsets = vec![0];
        let (mut targets, mut probs, mut rolls) = (Vec::new(), Vec::new(), Vec::new());
        for (ends, r) in rows {
            rolls.push(r);
            for (e, p) in ends {
                if p > 0.0 {
                    targets.push(e);
                    probs.push(p);
                }
            }
            offsets.push(targets.len());
        }
        TurnChain { size, start, offsets, targets, probs, rolls, layout }
    }

    /// The state of a token on `cell` (below N; N itself is [`TurnChain::size`]), holding a
    /// shield or not, with a skipped turn pending or not: the cell itself on boards without
    /// effects (where shield and skip never happen).
    pub fn state(&self, cell: u32, shield: bool, skip: bool) -> u32 {
        self.layout.state(cell, shield, skip)
    }

    /// The cell of a state.
    pub fn cell_of(&self, state: u32) -> u32 {
        state / self.layout.per_cell
    }

    /// The chain of `model`; none once `budget` is spent (looked at before each row).
    pub(crate) fn from_model(
        model: &TurnModel<'_>,
        rules: &Rules,
        budget: &Budget,
    ) -> Option<TurnChain> {
        let n = model.size;
        let mut offsets = Vec::with_capacity(n as usize + 1);
        let per_row = model.classes.len().min(16);
        let mut targets = Vec::with_capacity(n as usize * per_row);
        let mut probs = Vec::with_capacity(n as usize * per_row);
        let mut rolls = Vec::with_capacity(n as usize);
        let mut scratch = Scratch::default();
        offsets.push(0);
        for b in 0..n {
            if budget.is_limited() && budget.is_spent() {
                return None;
            }
            rolls.push(model.turn(b, &mut scratch, None));
            merge(&mut scratch.ends);
            for &(e, p) in &scratch.ends {
                if p > 0.0 {
                    targets.push(e);
                    probs.push(p);
                }
            }
            offsets.push(targets.len());
        }
        let layout = StateLayout::CELLS;
        let start = rules.start_position();
        Some(TurnChain { size: n, start, offsets, targets, probs, rolls, layout })
    }

    /// N: the cell to reach, an absorbing state (on a board with effects, the number of
    /// states below it: see [`TurnChain::state`]).
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The position every token starts on.
    pub fn start(&self) -> u32 {
        self.start
    }

    /// Where a turn begun on `position` (below N) ends: `(end, probability)` pairs, ends
    /// increasing, probabilities adding up to 1.
    pub fn row(&self, position: u32) -> impl ExactSizeIterator<Item = (u32, f64)> + '_ {
        let range = self.range(position);
        self.targets[range.clone()].iter().copied().zip(self.probs[range].iter().copied())
    }

    /// The expected number of rolls in a turn begun on `position` (below N).
    pub fn rolls(&self, position: u32) -> f64 {
        self.rolls[position as usize]
    }

    /// Number of stored transitions.
    pub fn transitions(&self) -> usize {
        self.targets.len()
    }

    pub(crate) fn range(&self, position: u32) -> std::ops::Range<usize> {
        self.offsets[position as usize]..self.offsets[position as usize + 1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use snl_engine::{BoardSpec, Bonus, Dice, MaxBonus};

    fn board(size: u32, jumps: &[(u32, u32)], rules: &Rules) -> Board {
        Board::new(&BoardSpec::with_jumps(size, jumps.iter().copied()), rules).unwrap()
    }

    fn row(chain: &TurnChain, b: u32) -> Vec<(u32, f64)> {
        chain.row(b).collect()
    }

    #[test]
    fn a_plain_turn_moves_by_each_total_and_jumps_once() {
        let rules = Rules::default();
        let chain = TurnChain::new(&board(10, &[(3, 8), (9, 2)], &rules), &rules);
        let sixth = 1.0 / 6.0;
        assert_eq!(
            row(&chain, 0),
            [(1, sixth), (2, sixth), (4, sixth), (5, sixth), (6, sixth), (8, sixth)]
        );
        // From 7: 8, then 9 is a snake to 2, 10 finishes, 11..13 overshoot and stay on 7.
        assert_eq!(row(&chain, 7), [(2, sixth), (7, 3.0 * sixth), (8, sixth), (10, sixth)]);
        assert!((0..10).all(|b| (chain.rolls(b) - 1.0).abs() < 1e-15));
    }

    #[test]
    fn a_bonus_turn_keeps_rolling_on_sixes_until_the_cap_passes() {
        let max_bonus = "2".parse::<MaxBonus>().unwrap();
        let rules = Rules { bonus: Bonus::TopFace, max_bonus, ..Rules::default() };
        let chain = TurnChain::new(&board(30, &[], &rules), &rules);
        // From 0: a 6 then anything; a second 6 is capped and passes: ends at 12.
        let r = row(&chain, 0);
        let p = |c: u32| r.iter().find(|&&(e, _)| e == c).map_or(0.0, |&(_, p)| p);
        assert!((p(5) - 1.0 / 6.0).abs() < 1e-15);
        assert!((p(7) - 1.0 / 36.0).abs() < 1e-15);
        assert!((p(12) - 1.0 / 36.0).abs() < 1e-15);
        assert!((chain.rolls(0) - 7.0 / 6.0).abs() < 1e-15);
    }

    #[test]
    fn a_voided_turn_goes_back_to_where_it_began() {
        let mut rules = Rules::named("strict-sixes").unwrap();
        rules.dice = Dice::new(1, 2).unwrap();
        let chain = TurnChain::new(&board(20, &[], &rules), &rules);
        // 1d2 from 4: 1 → 5 (1/2); 2,1 → 7 (1/4); 2,2,1 → 9 (1/8); 2,2,2 → void, back to 4 (1/8).
        assert_eq!(row(&chain, 4), [(4, 0.125), (5, 0.5), (7, 0.25), (9, 0.125)]);
        assert!((chain.rolls(4) - 1.75).abs() < 1e-15);
    }

    #[test]
    fn unlimited_bonus_on_a_blocked_cell_sums_the_geometric_series() {
        let rules = Rules::named("bonus-six").unwrap();
        let chain = TurnChain::new(&board(10, &[], &rules), &rules);
        // From 8: 1 → 9, 2 → 10; 3..6 overshoot and stay, a 6 rolls again from 8.
        // P(end 9) = (1/6) / (1 − 1/6) = 1/5, P(finish) = 1/5, P(stay) = 3/5.
        let r = row(&chain, 8);
        assert_eq!(r.len(), 3);
        assert!((r[0].1 - 0.6).abs() < 1e-15 && (r[1].1 - 0.2).abs() < 1e-15, "{r:?}");
        assert!((chain.rolls(8) - 1.2).abs() < 1e-15);
    }

    #[test]
    fn pick_die_with_the_first_option_is_one_die() {
        let dice = Dice::new(1, 4).unwrap();
        let rules = Rules { choice: Choice::PickDie, dice, ..Rules::default() };
        let b = board(12, &[(5, 11)], &rules);
        let first = TurnChain::new(&b, &rules);
        let general =
            TurnChain::with_policy(&b, &rules, &FnPolicy(|_: Situation, _: &[MoveOption]| 0));
        for p in 0..12 {
            let (x, y) = (row(&first, p), row(&general, p));
            assert_eq!(x.len(), y.len());
            assert!(x.iter().zip(&y).all(|(a, b)| a.0 == b.0 && (a.1 - b.1).abs() < 1e-15));
        }
    }

    #[test]
    fn a_policy_that_passes_on_snakes_never_takes_them() {
        let rules = Rules { choice: Choice::MayPass, ..Rules::default() };
        let b = board(20, &[(4, 1)], &rules);
        let avoid = FnPolicy(|at: Situation, o: &[MoveOption]| {
            usize::from(o[0].lands < at.position + o[0].steps)
        });
        let chain = TurnChain::with_policy(&b, &rules, &avoid);
        // From 0, a 4 would slide to 1: the policy stays on 0 instead.
        assert_eq!(row(&chain, 0).iter().map(|&(e, _)| e).collect::<Vec<_>>(), [0, 1, 2, 3, 5, 6]);
    }
}
