// Long because its last 55 lines are unit tests; the rest is the public entry points and their options, kept together.
//! Exact analysis of a board under any rules of SPEC §3: how long a game lasts, how that length
//! is distributed, which cells are landed on, and what each seat can expect.
//!
//! A token's game is an absorbing Markov chain on the position where each turn begins. Bonus
//! rolls, their cap and on-max void make a turn a small chain of its own, which
//! [`TurnChain`] resolves once per position, so the turn-level chain carries everything the rules
//! need. From it:
//!
//! - expected turns, rolls, the variance of the turn count and the expected landings per cell come
//!   from exact linear solves that exploit how the chain moves: mostly forward, so one backward
//!   sweep leaves a small dense system on the cells that backward moves reach, factored without
//!   cancellation (GTH elimination), or solved by GMRES where that is faster (past about a thousand of them); time
//!   and memory stay close to linear in the number of cells (10^6 cells with 1,000 jumps:
//!   about 0.6 s);
//! - the distribution of the turn count comes from propagating the position's distribution turn
//!   by turn until it keeps its shape, after which it follows a geometric tail (below) until
//!   less than 1e-12 of the mass can still finish. That costs the turns propagated times the
//!   cells holding mass: tens of microseconds for printed boards, about 15 ms for 10^4 cells
//!   with 500 jumps (1,126 of its 28,651 turns propagated), and beyond [`Options::max_work`] it
//!   stops and says so ([`TurnDistribution::is_complete`]); turns from the tail cost a few
//!   multiply-adds each, so a 10^5-cell board with games of 7,300 turns is followed to its end
//!   (196,896 turns, 1,959 of them propagated); on boards of at most a few hundred
//!   cells, where big dice make games of millions of turns, it stops after 65,536 turns and the
//!   quantiles past them come from powers of the chain (`far`);
//! - seats are independent tokens taking one turn per round, so their chances
//!   ([`seat_outcomes`]) are sums over rounds of products of that distribution; from a game
//!   under way, [`live_odds`] follows the same race from where the tokens stand.
//!
//! Answers are exact to about 1e-12 relative, far inside the 1e-9 the specification promises;
//! the tests compare them with exact rational arithmetic and with published results.
//!
//! # The geometric tail
//!
//! A long game spends most of its turns to the 1e-12 tail in one shape: the live part `v_k` of
//! the position's distribution settles on the quasi-stationary distribution, the dominant left
//! eigenvector of the chain restricted to live positions, and each turn keeps the same share `λ`
//! of it. Once it has (about 1,100 turns of 28,651 on a 10^4-cell board), the rest of the tail
//! is `λ^j v_k`: what finishes and what falls into traps each turn follow in O(1) per turn (traps
//! go on being followed exactly). No assumption is made: after each candidate turn the residual
//! `r = ‖v_{k+1} − λ v_k‖₁` is measured, and since the chain is stochastic, every mass reported
//! later (every `P(T ≤ k)`, `P(T > k)`) is then within `ε = r / (1 − λ)` of full propagation
//! (plus rounding). The tail is taken only when `ε ≤ 1e-12 · P(T ≤ k)`, so every `p_finish_by`
//! past it is exact to 1e-12 relative, seat chances to `seats × ε`; boards whose shape never
//! settles (nearly periodic ones) are propagated to the end. [`TurnDistribution::tail_bound`]
//! gives ε, [`Options::geometric_tail`] turns the tail off, and `tests/analysis/exact_tail.rs`
//! compares both ways on random boards under random rules.
//!
//! # Example
//!
//! ```
//! use snl_analysis::exact;
//! use snl_engine::{Board, Preset, Rules};
//!
//! let rules = Rules::default();
//! let board = Board::new(&Preset::MiltonBradley.spec(), &rules)?;
//! let analysis = exact::analyze(&board, &rules)?;
//! assert!((analysis.expected_turns - 39.225_122_308_2).abs() < 1e-9);
//! assert_eq!(analysis.min_turns(), Some(7));
//!
//! let seats = analysis.seats(2);
//! assert!(seats.win_probability[0] > seats.win_probability[1]); // the first seat's edge
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! # Infinity
//!
//! When a reached position can never finish (for instance overshoot stay next to a wall of
//! snakes), the expectations are infinite: they are [`f64::INFINITY`], and
//! [`Analysis::never_finish_probability`] says how likely a token is to be stuck for ever.

mod chain;
mod distribution;
mod effects;
mod far;
mod odds;
mod race;
mod seats;
mod solver;
mod tail;
mod worth;

use snl_engine::{Board, Rules};

pub(crate) use chain::{BONUS_TAIL, RollClass, roll_classes};
pub use chain::{FnPolicy, Policy, Situation, TurnChain};
pub use distribution::{GeometricTail, TurnDistribution};
pub use odds::{Race, RaceLimits, Standing, live_odds, race, race_within, standing_odds};
pub use race::{RaceOutcomes, race_on, race_outcomes};
pub use seats::{MAX_RANKED_SEATS, SeatOutcomes, seat_outcomes, win_by_round};
pub use solver::{MAX_BACK_CELLS, Method};
pub use worth::{EffectWorth, effect_worth, effect_worth_within};

use chain::{Scratch, TurnModel};
use solver::{Class, Solver};

/// The quantile levels reported by `snl analyze` (SPEC §7).
pub const QUANTILES: [f64; 6] = [0.1, 0.25, 0.5, 0.75, 0.9, 0.99];

/// How far and how hard to compute.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Options {
    /// Follow the turn distribution until less than this mass can still finish (SPEC: 1e-12).
    pub tail: f64,
    /// The most multiply-adds the turn distribution may spend before it stops (see
    /// [`TurnDistribution::is_complete`]); 10^10 by default, a few seconds. Expectations are
    /// exact whatever this is.
    pub max_work: u64,
    /// Whether to compute the expected landings per cell.
    pub landings: bool,
    /// Up to this many back cells (cells reached by a backward move) their system may be
    /// factored densely; beyond, it is solved by GMRES. Both are exact to far below 1e-9.
    pub max_dense_back_cells: usize,
    /// How the back cells' system is solved: by default whichever is faster.
    pub method: Method,
    /// Whether the turn distribution may switch to its geometric tail once the position's
    /// distribution keeps its shape (exact to 1e-12 relative by an a posteriori bound, see
    /// [`TurnDistribution::tail_bound`]); false propagates every turn. True by default. Turns
    /// from the tail are charged to `max_work` at their own cost, a few multiply-adds each, so
    /// with it a distribution whose tail is long but settled is followed to its end where
    /// propagating every turn would stop at the work limit.
    pub geometric_tail: bool,
    /// When to stop following the turn distribution early (a cancel flag, a deadline): it then
    /// stops as at `max_work`, incomplete and marked so. Unlimited by default. Expectations are
    /// exact whatever this is.
    pub budget: crate::Budget,
    /// When to stop building the chain and solving it for the expectations (most of the work on
    /// a huge board): the analysis then fails with [`AnalysisError::Stopped`]. Unlimited by
    /// default, so that expectations are always given; a server answering within a deadline
    /// sets it, and `snl analyze --max-seconds` a little past its limit.
    pub chain_budget: crate::Budget,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            tail: 1e-12,
            max_work: 10_000_000_000,
            landings: true,
            max_dense_back_cells: MAX_BACK_CELLS,
            method: Method::Auto,
            geometric_tail: true,
            budget: crate::Budget::unlimited(),
            chain_budget: crate::Budget::unlimited(),
        }
    }
}

impl Options {
    /// These options with `budget` (see [`Options::budget`]).
    #[must_use]
    pub fn with_budget(mut self, budget: crate::Budget) -> Options {
        self.budget = budget;
        self
    }
}

/// Why a board could not be analysed exactly.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum AnalysisError {
    /// On a board with many cells reached by backward moves (see [`Method`]), the
    /// iterative solver did not reach the required accuracy.
    #[error(
        "the exact solver did not converge ({iterations} iterations, relative residual \
         {residual:.1e})"
    )]
    NoConvergence {
        /// Iterations made.
        iterations: usize,
        /// The relative residual reached.
        residual: f64,
    },
    /// The caller's [`crate::Budget`] ran out (its deadline passed or it was cancelled) before
    /// the work was done: nothing partial is returned.
    #[error("the work was stopped: its deadline passed or it was cancelled")]
    Stopped,
}

/// What one token can expect on a board under some rules and a policy.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Analysis {
    /// The rules analysed (their finish rule decides [`Analysis::seats`]).
    pub rules: Rules,
    /// N.
    pub size: u32,
    /// Expected turns to finish; [`f64::INFINITY`] when a reached position can never finish.
    pub expected_turns: f64,
    /// Expected rolls to finish (more than turns with bonus rolls); infinite as above.
    pub expected_rolls: f64,
    /// Standard deviation of the number of turns; infinite as above.
    pub std_dev_turns: f64,
    /// Probability that the token never finishes: 0 on a sound board, 1 when cell N is out of
    /// reach.
    pub never_finish_probability: f64,
    /// The distribution of the number of turns.
    pub distribution: TurnDistribution,
    /// Index c: the expected number of times a move lands on cell c (before any jump) in one
    /// token's game; `None` when expectations are infinite or landings were not asked for.
    pub expected_landings: Option<Vec<f64>>,
    /// Index c: the expected number of turns begun on position c; `None` as above.
    pub expected_turn_starts: Option<Vec<f64>>,
    /// Whether the landings were asked for but [`Options::budget`] ran out before them, or the
    /// chain's budget while they were solved, on a chain built under a limited budget (they are
    /// then `None`).
    pub landings_cut: bool,
    /// Distinct cells reached by backward moves: the size of the back cells' system.
    pub back_cells: usize,
    min_turns: Option<u32>,
}

impl Analysis {
    /// Whether the expectations are finite: every reached position can still finish.
    pub fn is_finite(&self) -> bool {
        self.expected_turns.is_finite()
    }

    /// The fewest turns to finish with a positive probability, `None` if N is out of reach
    /// (found by a search over the chain, so known even when the distribution is not followed
    /// that far).
    pub fn min_turns(&self) -> Option<u32> {
        self.min_turns
    }

    /// The median number of turns: the smallest k with `P(T ≤ k) ≥ ½`.
    pub fn median_turns(&self) -> Option<u32> {
        self.distribution.median()
    }

    /// The most likely number of turns.
    pub fn mode_turns(&self) -> Option<u32> {
        self.distribution.mode()
    }

    /// `P(T ≤ k)` for k = 0, 1, … (SPEC §7 `p_finish_by`).
    pub fn p_finish_by(&self) -> &[f64] {
        self.distribution.p_finish_by()
    }

    /// The outcomes of a game of `seats` seats that all play as this token does, under the
    /// analysed finish rule.
    ///
    /// # Panics
    ///
    /// Panics if `seats` is 0.
    pub fn seats(&self, seats: usize) -> SeatOutcomes {
        seat_outcomes(&vec![self; seats], self.rules.finish)
    }
}

/// Analyses one token that always takes the first option, with the default [`Options`].
///
/// # Errors
///
/// [`AnalysisError::NoConvergence`] in the unlikely case that the iterative solver used for
/// boards with many back cells (see [`Method`]) cannot reach the required accuracy.
pub fn analyze(board: &Board, rules: &Rules) -> Result<Analysis, AnalysisError> {
    analyze_with(board, rules, &snl_engine::FirstOption, &Options::default())
}

/// Analyses one token that chooses with `policy`.
///
/// # Errors
///
/// As [`analyze`].
pub fn analyze_with(
    board: &Board,
    rules: &Rules,
    policy: &dyn Policy,
    options: &Options,
) -> Result<Analysis, AnalysisError> {
    let model = TurnModel::new(board, rules, policy);
    // On a board with effects a position is a state (cell, shield, skip): see `effects`.
    let effects = board.has_effects().then(|| effects::EffectModel::new(model));
    let model = TurnModel::new(board, rules, policy);
    // Building the chain is bounded by its own budget: on a huge board it is most of the work.
    let chain = match &effects {
        Some(e) => e.chain(&options.chain_budget),
        None => TurnChain::from_model(&model, rules, &options.chain_budget),
    }
    .ok_or(AnalysisError::Stopped)?;
    let solver =
        Solver::new(&chain, options.method, options.max_dense_back_cells, &options.chain_budget);
    let n = chain.size() as usize;
    let class = solver.classes();
    // The exact numbers first; the distribution and the landings as the time allows.
    let exact = expectations(&chain, &solver, class)?;
    let distribution = distribution::propagate(
        &chain,
        class,
        options.tail,
        options.max_work,
        options.geometric_tail,
        &options.budget,
    );
    let mut analysis = Analysis {
        rules: *rules,
        size: board.size(),
        expected_turns: exact.turns,
        expected_rolls: exact.rolls,
        std_dev_turns: exact.std_dev,
        never_finish_probability: exact.never,
        distribution,
        expected_landings: None,
        expected_turn_starts: None,
        landings_cut: false,
        back_cells: solver.back_cells(),
        min_turns: fewest_turns(&chain),
    };
    if !(options.landings && analysis.is_finite()) {
        return Ok(analysis);
    }
    // On a chain whose building has a deadline of its own (a board large enough for time to
    // matter), landings past the time given, or stopped by it, are left out and said to be;
    // elsewhere they cost about what the expectations did, and are always computed.
    let spent = options.chain_budget.is_limited()
        && options.budget.is_limited()
        && options.budget.is_spent();
    let visits = if spent { Err(AnalysisError::Stopped) } else { solver.visits() };
    let visits = match visits {
        Ok(visits) => visits,
        Err(AnalysisError::Stopped) => {
            analysis.landings_cut = true;
            return Ok(analysis);
        }
        Err(e) => return Err(e),
    };
    let cells = board.size() as usize;
    let mut landings = vec![0.0; cells + 1];
    if let Some(e) = &effects {
        let mut scratch = effects::EffectScratch::default();
        let mut starts = vec![0.0; cells];
        for b in (0..n).filter(|&b| visits[b] > 0.0) {
            e.turn(b as u32, &mut scratch, Some((&mut landings, visits[b])));
            starts[chain.cell_of(b as u32) as usize] += visits[b];
        }
        analysis.expected_turn_starts = Some(starts);
    } else {
        let mut scratch = Scratch::default();
        for b in (0..n).filter(|&b| visits[b] > 0.0) {
            model.turn(b as u32, &mut scratch, Some((&mut landings, visits[b])));
        }
        analysis.expected_turn_starts = Some(visits);
    }
    analysis.expected_landings = Some(landings);
    Ok(analysis)
}

/// The exact numbers of one token's game: [`expectations`].
struct Expectations {
    never: f64,
    turns: f64,
    rolls: f64,
    std_dev: f64,
}

/// The chance of never finishing and, when it is 0, the expected turns and rolls and the
/// turns' standard deviation (all infinite otherwise), solved on `chain`.
fn expectations(
    chain: &TurnChain,
    solver: &Solver<'_>,
    class: &[Class],
) -> Result<Expectations, AnalysisError> {
    let mut found = Expectations {
        never: 1.0,
        turns: f64::INFINITY,
        rolls: f64::INFINITY,
        std_dev: f64::INFINITY,
    };
    if !solver.start_is_live() {
        return Ok(found);
    }
    if solver.has_trap() {
        // Chance of ending up where N is out of reach, summed without cancellation.
        let trapped = per_position(chain, class, |e| class[e as usize] == Class::Trapped);
        found.never = solver.at_start(&trapped)?;
        return Ok(found);
    }
    found.never = 0.0;
    let n = chain.size() as usize;
    let live = |b: usize| class[b] == Class::Live;
    let ones: Vec<f64> = (0..n).map(|b| if live(b) { 1.0 } else { 0.0 }).collect();
    let turns = solver.everywhere(&ones)?;
    let rolls: Vec<f64> =
        (0..n).map(|b| if live(b) { chain.rolls(b as u32) } else { 0.0 }).collect();
    // Without bonus rolls every turn is one roll: the rolls' cost is the turns' own, and so is
    // its solve (a whole GMRES solve on boards with many back cells).
    let one_roll = rolls.iter().zip(&ones).all(|(r, o)| r.to_bits() == o.to_bits());
    // Var T_b = Σ_e K(b,e) Var T_e + Σ_e K(b,e) (E T_e + 1 − E T_b)²: a non-negative cost per
    // turn, so the variance is found like an expectation, without E[T²] − E[T]² cancelling.
    let spread: Vec<f64> = (0..n)
        .map(|b| {
            if !live(b) {
                return 0.0;
            }
            chain.row(b as u32).map(|(e, p)| p * (turns[e as usize] + 1.0 - turns[b]).powi(2)).sum()
        })
        .collect();
    let start = chain.start() as usize;
    found.turns = turns[start];
    found.rolls = if one_roll { turns[start] } else { solver.at_start(&rolls)? };
    found.std_dev = solver.at_start(&spread)?.sqrt();
    Ok(found)
}

/// Back cells up to which [`turns_everywhere`] factors their system; beyond, GMRES.
const EVERYWHERE_DENSE_BACK_CELLS: usize = 256;

/// Expected turns to finish from every position 0..=N (N holding 0) for a token that chooses
/// with `policy`; infinite where N can no longer be reached. On a board with effects, from each
/// cell holding no shield and no skip pending.
pub(crate) fn turns_everywhere(
    board: &Board,
    rules: &Rules,
    policy: &dyn Policy,
    budget: &crate::Budget,
) -> Result<Vec<f64>, AnalysisError> {
    let chain = TurnChain::with_policy_within(board, rules, policy, budget)?;
    // Policy iteration solves this several times: past a few hundred back cells, GMRES (to
    // 1e-14) is much faster than factoring their system each time.
    let solver = Solver::from_every_position(&chain, EVERYWHERE_DENSE_BACK_CELLS, budget);
    let class = solver.classes();
    let ones: Vec<f64> = class.iter().map(|&c| f64::from(u8::from(c == Class::Live))).collect();
    let mut turns = solver.everywhere(&ones)?;
    turns.resize(class.len(), 0.0);
    for (t, &c) in turns.iter_mut().zip(class) {
        match c {
            Class::Live => {}
            Class::Finish => *t = 0.0,
            Class::Trapped | Class::Unreached => *t = f64::INFINITY,
        }
    }
    if board.has_effects() {
        // Per cell, as a policy sees it: for a token holding no shield, no skip pending.
        let n = board.size();
        let cell = |c: u32| if c == n { 0.0 } else { turns[chain.state(c, false, false) as usize] };
        return Ok((0..=n).map(cell).collect());
    }
    Ok(turns)
}

/// The fewest turns from the start to N, by breadth-first search over the chain.
fn fewest_turns(chain: &TurnChain) -> Option<u32> {
    let n = chain.size() as usize;
    let mut turns = vec![u32::MAX; n + 1];
    let mut queue = std::collections::VecDeque::from([chain.start() as usize]);
    turns[chain.start() as usize] = 0;
    while let Some(b) = queue.pop_front() {
        if b == n {
            return Some(turns[n]);
        }
        for (e, _) in chain.row(b as u32) {
            if turns[e as usize] == u32::MAX {
                turns[e as usize] = turns[b] + 1;
                queue.push_back(e as usize);
            }
        }
    }
    None
}

/// Per live position b, the probability that its turn ends on a position where `target` holds.
fn per_position(chain: &TurnChain, class: &[Class], target: impl Fn(u32) -> bool) -> Vec<f64> {
    (0..chain.size())
        .map(|b| {
            if class[b as usize] != Class::Live {
                return 0.0;
            }
            chain.row(b).filter(|&(e, _)| target(e)).map(|(_, p)| p).sum()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use snl_engine::{BoardSpec, Preset};

    fn analyze_spec(spec: &BoardSpec, rules: &Rules) -> Analysis {
        analyze(&Board::new(spec, rules).unwrap(), rules).unwrap()
    }

    #[test]
    fn a_two_cell_board_with_a_coin_is_a_geometric_game() {
        // 1d2 from cell 1 on 2 cells: a 1 finishes, a 2 overshoots and stays. T ~ Geometric(½).
        let mut rules = Rules::named("standard").unwrap();
        rules.start = snl_engine::Start::FirstCell;
        rules.dice = "1d2".parse().unwrap();
        let a = analyze_spec(&BoardSpec::with_jumps(2, []), &rules);
        assert!((a.expected_turns - 2.0).abs() < 1e-14);
        assert!((a.std_dev_turns - 2.0_f64.sqrt()).abs() < 1e-14);
        assert!((a.p_finish_by()[3] - 0.875).abs() < 1e-15);
        assert_eq!((a.min_turns(), a.median_turns(), a.mode_turns()), (Some(1), Some(1), Some(1)));
        assert_eq!(a.expected_landings.as_deref(), Some(&[0.0, 0.0, 1.0][..]));
    }

    #[test]
    fn expected_visits_add_up_to_expected_turns() {
        let rules = Rules::named("strict-sixes").unwrap();
        let a = analyze_spec(&Preset::Classic.spec(), &rules);
        let visits: f64 = a.expected_turn_starts.as_ref().unwrap().iter().sum();
        assert!((visits - a.expected_turns).abs() < 1e-9 * a.expected_turns);
        let mean: f64 = (1..=a.distribution.turns()).map(|k| a.distribution.survival(k - 1)).sum();
        assert!((mean - a.expected_turns).abs() < 1e-9 * a.expected_turns);
    }

    #[test]
    fn an_unreachable_last_cell_means_no_one_ever_finishes() {
        // 1d2 and snakes on cells 3 and 4 back to 1: cell 5 cannot be reached from 2 either.
        let rules = Rules { dice: "1d2".parse().unwrap(), ..Rules::default() };
        let a = analyze_spec(&BoardSpec::with_jumps(6, [(3, 1), (4, 1)]), &rules);
        assert!(a.expected_turns.is_infinite() && !a.is_finite());
        assert!(a.never_finish_probability >= 1.0);
        assert_eq!(a.min_turns(), None);
        assert_eq!(a.p_finish_by(), [0.0]);
    }

    #[test]
    fn a_trap_makes_expectations_infinite_with_the_chance_of_being_stuck() {
        // 2d6 never shows 1, so under overshoot stay a token on 9 of 10 cells is stuck for
        // ever, while other positions can still finish.
        let rules = Rules { dice: "2d6".parse().unwrap(), ..Rules::default() };
        let a = analyze_spec(&BoardSpec::with_jumps(10, []), &rules);
        assert!(a.expected_turns.is_infinite());
        assert!(a.never_finish_probability > 0.0 && a.never_finish_probability < 1.0);
        let finished = a.p_finish_by()[a.distribution.turns()];
        assert!((finished + a.never_finish_probability - 1.0).abs() < 1e-11);
    }
}
