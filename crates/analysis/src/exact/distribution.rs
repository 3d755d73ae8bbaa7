// Long because propagation, the geometric tail and far quantiles share one loop; ~90 lines are unit tests.
//! The distribution of the number of turns one token takes to finish, by forward propagation of
//! its position's distribution, turn after turn.

use std::ops::Neg;

use crate::Budget;

use super::{
    QUANTILES,
    chain::TurnChain,
    far,
    solver::Class,
    tail::{self, Schedule, Tail, Traps, Turn, dot},
};

/// Multiply-adds of propagation between two looks at the budget (well under a millisecond).
const BUDGET_WORK: u64 = 1 << 18;

/// How many turns one token takes to finish: `P(T ≤ k)` for `k = 0, 1, …` until less than the
/// tail (1e-12 by default) of the mass that can still finish is left.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnDistribution {
    /// Index k: P(T ≤ k).
    cdf: Vec<f64>,
    /// Index k: P(T > k), mass that has not finished after k turns (including mass that never
    /// will), tracked on its own so that small values keep their relative accuracy over the
    /// propagated turns (past them, its absolute accuracy is `bound`).
    survival: Vec<f64>,
    /// Index k: the expected number of rolls in turn k + 1 counting 0 for a finished token,
    /// E[rolls in turn k+1; T > k].
    rolls: Vec<f64>,
    /// Mass that could still finish when the propagation stopped.
    residual: f64,
    /// Whether the propagation reached the tail (false when it ran out of its work budget).
    complete: bool,
    /// Turns propagated over the board; the later ones come from the geometric tail.
    propagated: usize,
    /// Bound on the absolute error of every mass past `propagated` (0 without a tail).
    bound: f64,
    /// When the distribution stopped before its tail: the [`QUANTILES`] past the computed
    /// turns, from its geometric law or, on a small chain, by squaring the chain ([`far`]), as
    /// (level, turns).
    far: Vec<(f64, u32)>,
    /// The geometric law followed past the propagated turns.
    geometric: Option<GeometricTail>,
}

/// The law the turn distribution follows past its [propagated
/// turns](TurnDistribution::propagated_turns) `p`: every turn the live mass (tokens that can
/// still finish) keeps the share `ratio` (λ) of itself and sends the share `finishing` (f) to the
/// last cell, so for every `k ≥ p`
///
/// ```text
/// P(T ≤ k) = P(T ≤ p) + f · L · (1 − λ^(k − p)) / (1 − λ)
/// ```
///
/// with `L` the live mass after turn `p`, within [`bound`](GeometricTail::bound) of propagating
/// every turn (the rest of the mass is in traps, which never finish).
/// [`TurnDistribution::p_finish_by`] holds these values turn by turn (λ^j in double-double);
/// this is the same law in closed form, for a reader that wants it beyond a list it cut.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct GeometricTail {
    /// `p`: the last turn propagated over the board.
    pub from: usize,
    /// `L`: the live mass after turn `p`.
    pub live: f64,
    /// `λ`: the share of the live mass still live after one more turn (rounded to a double).
    pub ratio: f64,
    /// `1 − λ`, from λ in double-double (so not cancelled by rounding λ).
    pub gap: f64,
    /// `f`: the share of the live mass that finishes each turn.
    pub finishing: f64,
    /// ε: how far every `P(T ≤ k)` or `P(T > k)` past `p` may be from full propagation
    /// ([`TurnDistribution::tail_bound`]).
    pub bound: f64,
}

impl GeometricTail {
    /// `P(T ≤ k) − P(T ≤ p)` for `k ≥ p`, what finishes after turn `p` and by turn `k`.
    pub fn finished_by(&self, k: usize) -> f64 {
        let j = k.saturating_sub(self.from) as f64;
        // 1 − λ^j without cancellation: −expm1(j ln λ).
        let share = -(j * (-self.gap).ln_1p()).exp_m1();
        self.finishing * self.live * share / self.gap
    }

    /// The smallest `k ≥ p` with `P(T ≤ k) ≥ level` (with the margin of 1e-12 of
    /// [`TurnDistribution::quantile`]), given `at_from = P(T ≤ p)`; `None` when the law never
    /// reaches it (the rest of the mass is trapped) or not within `u32::MAX` turns. Computed
    /// in closed form: `j = ⌈ln(1 − x (1 − λ) / (f L)) / ln λ⌉` for the mass `x` still missing
    /// at `p`; in doubles, so it may be a turn off where `P(T ≤ k)` is within about 1e-12 of
    /// the level.
    pub fn quantile(&self, at_from: f64, level: f64) -> Option<u32> {
        let missing = level - 1e-12 - at_from;
        if missing <= 0.0 {
            return u32::try_from(self.from).ok();
        }
        let total = self.finishing * self.live / self.gap;
        if !(self.gap > 0.0 && missing < total) {
            return None;
        }
        let j = ((-missing / total).ln_1p() / (-self.gap).ln_1p()).ceil();
        let k = self.from as f64 + j.max(0.0);
        (k <= f64::from(u32::MAX)).then_some(k as u32)
    }
}

impl TurnDistribution {
    /// `P(T ≤ k)` for every computed k, from 0: the `p_finish_by` of SPEC §7.
    pub fn p_finish_by(&self) -> &[f64] {
        &self.cdf
    }

    /// `P(T ≤ k)`; past the computed turns, the last value.
    pub fn cdf(&self, k: usize) -> f64 {
        self.cdf.get(k).copied().unwrap_or(self.cdf[self.cdf.len() - 1])
    }

    /// `P(T > k)`, mass not finished after k turns; past the computed turns, the last value.
    ///
    /// Exact to about 1e-14 relative over the [propagated
    /// turns](TurnDistribution::propagated_turns), and past them to
    /// [`tail_bound`](TurnDistribution::tail_bound) absolute (at most 1e-12 of `P(T ≤ k)`):
    /// deep in the tail, where it is far below 1e-12, only to that absolute accuracy.
    pub fn survival(&self, k: usize) -> f64 {
        self.survival.get(k).copied().unwrap_or(self.survival[self.survival.len() - 1])
    }

    /// `P(T = k)` (0 for k = 0 and past the computed turns).
    pub fn probability(&self, k: usize) -> f64 {
        if k == 0 || k >= self.cdf.len() { 0.0 } else { self.cdf[k] - self.cdf[k - 1] }
    }

    /// The expected number of rolls the token makes in its turn `k` (from 1), counting 0 once it
    /// has finished; past the computed turns, the last value.
    pub fn rolls_in_turn(&self, k: usize) -> f64 {
        debug_assert!(k >= 1, "turns are counted from 1");
        self.rolls.get(k - 1).copied().unwrap_or_else(|| self.rolls.last().copied().unwrap_or(0.0))
    }

    /// The last turn computed: `p_finish_by` has `turns() + 1` entries.
    pub fn turns(&self) -> usize {
        self.cdf.len() - 1
    }

    /// Mass that could still finish after the last computed turn (below the tail when
    /// [`complete`](TurnDistribution::is_complete)).
    pub fn residual(&self) -> f64 {
        self.residual
    }

    /// Whether the distribution was followed until less than the tail was left. It is not when
    /// the work budget ran out first (huge boards with very long games), or the caller's
    /// [`Budget`] did ([`Options::budget`](super::Options::budget)).
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// The turns followed by propagating the distribution over the board: past them (up to
    /// [`turns`](TurnDistribution::turns)) it comes from its geometric tail, each turn losing
    /// the same share of the mass still live, exact to
    /// [`tail_bound`](TurnDistribution::tail_bound).
    pub fn propagated_turns(&self) -> usize {
        self.propagated
    }

    /// A bound on how far any `P(T ≤ k)` or `P(T > k)` past
    /// [`propagated_turns`](TurnDistribution::propagated_turns) may be from what propagating
    /// every turn would give (rounding aside): at most 1e-12 of `P(T ≤ k)`, 0 when every turn
    /// was propagated. See the module documentation of [`exact`](super).
    pub fn tail_bound(&self) -> f64 {
        self.bound
    }

    /// The geometric law past the [propagated turns](TurnDistribution::propagated_turns), when
    /// the distribution took its tail.
    pub fn geometric_tail(&self) -> Option<GeometricTail> {
        self.geometric
    }

    /// The smallest k with `P(T ≤ k) ≥ q`, or `None` if the token finishes with probability
    /// below q (or the computed turns do not reach q).
    ///
    /// Computed values are compared with a margin of 1e-12, the resolution of the
    /// distribution, so that a quantile that is exactly reached is not missed by rounding.
    ///
    /// When the distribution stopped before its end, the levels of
    /// [`QUANTILES`](super::QUANTILES) past the computed turns are known too if it had taken
    /// its geometric tail (from its law in closed form, [`GeometricTail::quantile`]) or its
    /// chain has at most a few hundred positions (from powers of the chain, exact as the rest).
    pub fn quantile(&self, q: f64) -> Option<u32> {
        let k = self.cdf.partition_point(|&p| p < q - 1e-12);
        if k < self.cdf.len() {
            return Some(k as u32);
        }
        self.far.iter().find(|&&(level, _)| level.to_bits() == q.to_bits()).map(|&(_, k)| k)
    }

    /// The median: the smallest k with `P(T ≤ k) ≥ ½`.
    pub fn median(&self) -> Option<u32> {
        self.quantile(0.5)
    }

    /// The most likely number of turns (the smallest if several tie), `None` if the token never
    /// finishes, or if the distribution stopped before the mass left fell below the best
    /// probability seen (a later turn could then be likelier).
    pub fn mode(&self) -> Option<u32> {
        let mut best: Option<(usize, f64)> = None;
        for k in 1..self.cdf.len() {
            let p = self.probability(k);
            if p > 0.0 && best.is_none_or(|(_, b)| p > b) {
                best = Some((k, p));
            }
        }
        best.filter(|&(_, p)| self.complete || p > self.residual).map(|(k, _)| k as u32)
    }

    /// The fewest turns with a positive probability of finishing.
    pub fn min(&self) -> Option<u32> {
        (1..self.cdf.len()).find(|&k| self.cdf[k] > 0.0).map(|k| k as u32)
    }
}

/// Propagates the start's distribution turn by turn until less than `tail` of the mass that can
/// still finish is left, or `max_work` transitions have been followed. With `extrapolate`, the
/// turns past the point where the distribution keeps its shape follow from the geometric tail
/// ([`super::tail`]) and are charged at their own cost, O(1) each (plus the traps' moves); they
/// stop at [`MAX_TAIL_TURNS`] turns if the work limit would not have stopped them before, and
/// the quantiles past that come from the tail's law. Once `budget` is spent it stops as at
/// `max_work` (the clock is read about every [`BUDGET_WORK`] multiply-adds).
pub(crate) fn propagate(
    chain: &TurnChain,
    class: &[Class],
    tail: f64,
    max_work: u64,
    extrapolate: bool,
    budget: &Budget,
) -> TurnDistribution {
    let n = chain.size() as usize;
    let start = chain.start() as usize;
    let live = if class[start] == Class::Live { 1.0 } else { 0.0 };
    // Laying the step out is a pass over every transition (seconds on 10^7 cells): the budget
    // may run out in it, and then no turn is followed.
    let Some(step) = Step::within(chain, class, budget) else {
        return TurnDistribution {
            cdf: vec![0.0],
            survival: vec![1.0],
            rolls: Vec::new(),
            residual: live,
            complete: live < tail,
            propagated: 0,
            bound: 0.0,
            far: Vec::new(),
            geometric: None,
        };
    };
    let trap = class.contains(&Class::Trapped);
    let rolls: Vec<f64> = (0..n)
        .map(|b| if class[b] == Class::Unreached { 0.0 } else { chain.rolls(b as u32) })
        .collect();
    // Without bonus rolls every turn is one roll: the rolls of a turn are the mass that plays it.
    #[expect(clippy::float_cmp, reason = "a turn without bonus rolls counts exactly 1.0 rolls")]
    let one_roll = (0..n).all(|b| class[b] == Class::Unreached || rolls[b] == 1.0);
    let live_mask: Option<Vec<f64>> =
        trap.then(|| (0..=n).map(|b| if class[b] == Class::Live { 1.0 } else { 0.0 }).collect());
    let traps = if trap && extrapolate { Traps::new(chain, class) } else { Traps::default() };
    // A tail that follows a trap as large as the board saves nothing.
    let extrapolate = extrapolate && 4 * traps.moves() as u64 <= step.transitions;
    let mut now = vec![0.0; n + 1];
    let mut next = vec![0.0; n + 1];
    now[start] = 1.0;
    let mut live = live;
    let mut finished = 0.0;
    let mut cdf = vec![0.0];
    let mut survival = vec![1.0];
    let mut turn_rolls = Vec::new();
    let per_turn = step.work();
    let mut work = 0_u64;
    // The work at which the budget is next looked at, and whether it ran out.
    let mut next_check = 0_u64;
    let mut spent = false;
    let mut over_budget = |work: u64| {
        if budget.is_limited() && work >= next_check {
            next_check = work + BUDGET_WORK;
            spent = spent || budget.is_spent();
        }
        spent
    };
    let mut ratio = f64::NAN;
    let mut schedule = Schedule::new();
    let mut geometric = None;
    // A chain small enough to square gives its far quantiles without propagating every turn.
    let squarable = n < far::MAX_POSITIONS;
    while live >= tail
        && work < max_work
        && !over_budget(work)
        && !(squarable && cdf.len() > MAX_SQUARABLE_TURNS)
    {
        work += per_turn;
        let left = survival[survival.len() - 1];
        turn_rolls.push(if one_roll { left } else { dot(&now[..n], &rolls) });
        let left = step.apply(&now, &mut next);
        if cdf.len() % FLUSH_EVERY == 0 {
            flush_tiny(&mut next);
        }
        // Cell N only collects: what reached it this turn has finished.
        let gained = std::mem::take(&mut next[n]);
        finished += gained;
        let before = live;
        live = match &live_mask {
            Some(mask) => dot(&next, mask),
            None => left,
        };
        cdf.push(finished);
        survival.push(left);
        // The geometric tail, once the ratio of successive masses has settled.
        let settled = (live / before - ratio).abs() <= tail::SETTLED;
        ratio = live / before;
        if extrapolate && settled && schedule.due(cdf.len()) {
            let turn = Turn {
                chain,
                now: &now,
                next: &next,
                live_mask: live_mask.as_deref(),
                live_before: before,
                live_after: live,
                gained,
                finished,
                rolls: &rolls,
                one_roll,
                apply: &|now: &[f64], next: &mut [f64]| {
                    step.apply(now, next);
                },
            };
            match Tail::try_cut(&turn, &traps) {
                Ok(cut) => {
                    geometric = Some(cut);
                    break;
                }
                Err(miss) => schedule.missed(cdf.len(), miss),
            }
        }
        std::mem::swap(&mut now, &mut next);
    }
    let propagated = cdf.len() - 1;
    let mut bound = 0.0;
    let mut law = None;
    if let Some(mut geometric) = geometric {
        bound = geometric.bound();
        live = geometric.live();
        let (ratio, ratio_lo) = geometric.ratio();
        law = Some(GeometricTail {
            from: propagated,
            live,
            ratio: ratio + ratio_lo,
            gap: (1.0 - ratio) - ratio_lo,
            finishing: geometric.finishing(),
            bound,
        });
        // Never fewer turns than charging them as propagated turns would have allowed.
        let most = (max_work / per_turn.max(1)).max(MAX_TAIL_TURNS as u64);
        let per_tail_turn = geometric.work();
        while live >= tail && work < max_work && (cdf.len() as u64) <= most && !over_budget(work) {
            work += per_tail_turn;
            turn_rolls.push(geometric.turn_rolls());
            let (gained, left) = geometric.advance();
            finished += gained;
            live = geometric.live();
            cdf.push(finished);
            survival.push(left);
        }
    }
    let complete = live < tail;
    let far = if complete {
        Vec::new()
    } else if let Some(law) = &law {
        let at_from = cdf[law.from];
        let last = cdf[cdf.len() - 1];
        QUANTILES
            .iter()
            .filter(|&&q| last < q - 1e-12)
            .filter_map(|&q| Some((q, law.quantile(at_from, q)?)))
            .collect()
    } else {
        let known = far::quantiles(chain, class, &QUANTILES).unwrap_or_default();
        QUANTILES.iter().zip(known).filter_map(|(&q, k)| Some((q, k?))).collect()
    };
    TurnDistribution {
        cdf,
        survival,
        rolls: turn_rolls,
        residual: live,
        complete,
        propagated,
        bound,
        far,
        geometric: law,
    }
}

/// Sources laid out between two looks at the budget while a [`Step`] is built.
const BUDGET_SOURCES: u32 = 1 << 16;

/// Turns followed in the geometric tail at most (unless the work limit would have allowed more
/// propagated turns): 48 MB of `P(T ≤ k)`, `P(T > k)` and rolls, games of up to some 75,000
/// turns on average to a 1e-12 tail. Past them the quantiles come from the tail's law.
pub(crate) const MAX_TAIL_TURNS: usize = 1 << 21;

/// Turns propagated at most on a chain small enough to square ([`far`]): games on it that last
/// longer (big dice on a small board: millions of turns) show `P(T ≤ k)` this far, and their
/// quantiles come from powers of the chain. Under half a second on 100 cells.
const MAX_SQUARABLE_TURNS: usize = 1 << 16;

/// One turn of the chain as an operator on distributions, `next = now · K`, split for speed:
/// most moves go a fixed number of cells (the dice), so the transitions that share an offset
/// `e − b` held by many positions are stored as dense diagonals, indexed by target, and each
/// target sums its diagonals in registers, a block of targets at a time (contiguous
/// multiply-adds the compiler vectorises, one store per target); the rest (jumps, stays near the
/// end, bounces) are a short list of single transitions.
#[derive(Debug)]
struct Step {
    /// The offsets `d = e − b` of the dense diagonals, increasing.
    offsets: Vec<isize>,
    /// The probabilities along the diagonals.
    weights: Weights,
    /// The targets whose every diagonal has its source on the board, `0 ≤ e − d ≤ N`.
    core: std::ops::Range<usize>,
    /// The other transitions as `(from, probability)`, by target...
    rest: Vec<(u32, f64)>,
    /// ... each target with the end of its transitions in `rest`.
    rest_targets: Vec<(u32, usize)>,
    transitions: u64,
    size: u64,
}

/// The probabilities of a [`Step`]'s diagonals.
#[derive(Debug)]
enum Weights {
    /// Diagonal i at target e, `probs[i · (N + 1) + e]`: the probability of `e − d → e`, 0 when
    /// there is no such transition (or no such source).
    Table(Vec<f64>),
    /// Diagonal i moves `coef[i]` of its source's mass into every target e with `mask[e] = 1`
    /// and nothing into the others, whose transitions are in the rest. Dice without bonus rolls
    /// are this: each total has its probability, and only jump heads take no move. Half the
    /// loads of a table, with the same products and sums.
    ///
    /// When every diagonal has the same coefficient (a fair die), `scaled` holds `coef · mask`:
    /// a block of targets adds up its sources and multiplies once (a third fewer operations).
    Uniform { coef: Vec<f64>, mask: Vec<f64>, scaled: Option<Box<Scaled>> },
}

/// `coef · mask` for one coefficient, the mask as bits (a 64th of the memory a vector of
/// factors takes, which a turn would otherwise stream through once more).
#[derive(Debug)]
struct Scaled {
    /// Bit `e % 64` of word `e / 64`: `mask[e]`.
    bits: Vec<u64>,
    /// For every 4 bits of mask, the 4 factors `coef · mask`.
    table: [[f64; 4]; 16],
}

impl Scaled {
    fn new(coef: f64, mask: &[f64]) -> Scaled {
        let mut bits = vec![0_u64; mask.len() / 64 + 2];
        for (e, &k) in mask.iter().enumerate() {
            if k > 0.0 {
                bits[e / 64] |= 1 << (e % 64);
            }
        }
        let table = std::array::from_fn(|nibble| {
            std::array::from_fn(|i| if nibble >> i & 1 == 1 { 1.0 * coef } else { 0.0 * coef })
        });
        Scaled { bits, table }
    }

    /// Multiplies the block of targets from `e` by their factors.
    fn apply(&self, e: usize, sums: &mut [f64; BLOCK]) {
        let (word, shift) = (e / 64, e % 64);
        let mut bits = self.bits[word] >> shift;
        if shift > 0 {
            bits |= self.bits[word + 1] << (64 - shift);
        }
        for (k, quarter) in sums.chunks_exact_mut(4).enumerate() {
            let factors = &self.table[(bits >> (4 * k)) as usize & 15];
            for (s, f) in quarter.iter_mut().zip(factors) {
                *s *= f;
            }
        }
    }
}

/// Targets summed together in [`Step::apply`]: sixteen running sums fill half the vector
/// registers.
const BLOCK: usize = 16;

impl Step {
    /// The step, or `None` once `budget` is spent (read every [`BUDGET_SOURCES`] sources).
    fn within(chain: &TurnChain, class: &[Class], budget: &Budget) -> Option<Step> {
        Step::build(chain, class, true, budget)
    }

    /// The step, with [`Weights::Uniform`] when `uniform` and it pays; `None` once `budget` is
    /// spent.
    fn build(
        chain: &TurnChain,
        class: &[Class],
        uniform_ok: bool,
        budget: &Budget,
    ) -> Option<Step> {
        let n = chain.size();
        let sources = || (0..n).filter(|&b| class[b as usize] != Class::Unreached);
        let spent = |b: u32| budget.is_limited() && b % BUDGET_SOURCES == 0 && budget.is_spent();
        if budget.is_limited() && budget.is_spent() {
            return None;
        }
        let offset = |b: u32, e: u32| i64::from(e) - i64::from(b);
        // How many reached sources use each offset.
        let mut uses = std::collections::HashMap::<i64, u64>::new();
        let mut transitions = 0_u64;
        for b in sources() {
            if spent(b) {
                return None;
            }
            for (e, _) in chain.row(b) {
                *uses.entry(offset(b, e)).or_default() += 1;
                transitions += 1;
            }
        }
        // Sources b with 0 ≤ b < N and 0 ≤ b + d ≤ N.
        let range = |d: i64| (d.neg().max(0), i64::from(n).min(i64::from(n) - d + 1));
        // A diagonal pays when most of its length carries a transition.
        let dense = |d: i64, count: u64| {
            let (lo, hi) = range(d);
            count >= 16 && 2 * count >= (hi - lo).unsigned_abs()
        };
        let mut offsets: Vec<i64> =
            uses.iter().filter(|&(&d, &c)| dense(d, c)).map(|(&d, _)| d).collect();
        offsets.sort_unstable();
        let stride = n as usize + 1;
        let mut probs = vec![0.0; offsets.len() * stride];
        let mut rest = Vec::new();
        for b in sources() {
            if spent(b) {
                return None;
            }
            for (e, p) in chain.row(b) {
                match offsets.binary_search(&offset(b, e)) {
                    Ok(i) => probs[i * stride + e as usize] = p,
                    Err(_) => rest.push((b, e, p)),
                }
            }
        }
        let weights = uniform_ok
            .then(|| uniform(&probs, &offsets, class, &mut rest))
            .flatten()
            .unwrap_or(Weights::Table(probs));
        let index = |v: i64| usize::try_from(v.clamp(0, i64::from(n) + 1)).unwrap_or(0);
        let core = match (offsets.first(), offsets.last()) {
            (Some(&low), Some(&high)) => index(high)..index(i64::from(n) + 1 + low),
            _ => 0..0,
        };
        let offsets = offsets.into_iter().map(|d| d as isize).collect();
        rest.sort_by_key(|&(_, e, _)| e);
        let mut rest_targets: Vec<(u32, usize)> = Vec::new();
        for (i, &(_, e, _)) in rest.iter().enumerate() {
            match rest_targets.last_mut() {
                Some((last, end)) if *last == e => *end = i + 1,
                _ => rest_targets.push((e, i + 1)),
            }
        }
        let rest = rest.into_iter().map(|(b, _, p)| (b, p)).collect();
        Some(Step { offsets, weights, core, rest, rest_targets, transitions, size: u64::from(n) })
    }

    /// Multiply-adds per turn, for the work budget (each transition once, plus a few passes
    /// over the positions).
    fn work(&self) -> u64 {
        self.transitions + 3 * self.size
    }

    /// `next = now · K`; returns the mass left below N, `Σ next[..N]` (summed on the way, in
    /// lanes).
    fn apply(&self, now: &[f64], next: &mut [f64]) -> f64 {
        let stride = next.len();
        let n = stride - 1;
        let source = |e: usize, d: isize| e.checked_add_signed(-d).filter(|&b| b < stride);
        let weight = |i: usize, e: usize| match &self.weights {
            Weights::Table(probs) => probs[i * stride + e],
            Weights::Uniform { coef, mask, .. } => coef[i] * mask[e],
        };
        // Targets near the ends, where some diagonals have no source.
        let edge = |e: usize| -> f64 {
            let mut sum = 0.0;
            for (i, &d) in self.offsets.iter().enumerate() {
                if let Some(b) = source(e, d) {
                    sum += weight(i, e) * now[b];
                }
            }
            sum
        };
        let mut left = 0.0;
        let (lo, hi) = (self.core.start.min(n), self.core.end.clamp(self.core.start, n));
        for (e, t) in next[..lo].iter_mut().enumerate() {
            *t = edge(e);
            left += *t;
        }
        let mut lanes = [0.0; BLOCK];
        let mut e = lo;
        while e + BLOCK <= hi {
            let mut sums = [0.0; BLOCK];
            match &self.weights {
                Weights::Table(probs) => {
                    for (i, &d) in self.offsets.iter().enumerate() {
                        let p = block(probs, i * stride + e);
                        let m = block(now, e.wrapping_add_signed(-d));
                        for ((s, p), m) in sums.iter_mut().zip(p).zip(m) {
                            *s += p * m;
                        }
                    }
                }
                Weights::Uniform { scaled: Some(scaled), .. } => {
                    for &d in &self.offsets {
                        let m = block(now, e.wrapping_add_signed(-d));
                        for (s, m) in sums.iter_mut().zip(m) {
                            *s += m;
                        }
                    }
                    scaled.apply(e, &mut sums);
                }
                Weights::Uniform { coef, mask, scaled: None } => {
                    for (&p, &d) in coef.iter().zip(&self.offsets) {
                        let m = block(now, e.wrapping_add_signed(-d));
                        for (s, m) in sums.iter_mut().zip(m) {
                            *s += p * m;
                        }
                    }
                    for (s, k) in sums.iter_mut().zip(block(mask, e)) {
                        *s *= k;
                    }
                }
            }
            next[e..e + BLOCK].copy_from_slice(&sums);
            for (l, s) in lanes.iter_mut().zip(&sums) {
                *l += s;
            }
            e += BLOCK;
        }
        left += pairwise(&lanes);
        for (e, t) in next.iter_mut().enumerate().skip(e) {
            *t = edge(e);
            if e < n {
                left += *t;
            }
        }
        left + self.apply_rest(now, next)
    }

    /// Adds the rest's transitions to `next`; returns what they moved below N.
    fn apply_rest(&self, now: &[f64], next: &mut [f64]) -> f64 {
        let n = next.len() - 1;
        let mut left = 0.0;
        let mut from = 0;
        for &(e, to) in &self.rest_targets {
            let sum: f64 = self.rest[from..to].iter().map(|&(b, p)| p * now[b as usize]).sum();
            next[e as usize] += sum;
            left += if (e as usize) < n { sum } else { 0.0 };
            from = to;
        }
        left
    }
}

/// The diagonals as [`Weights::Uniform`], if that moves few transitions to the rest: per
/// diagonal its majority probability, and a mask of the targets where every diagonal
/// carries exactly it (or has a source that never holds mass); the transitions into the other
/// targets join `rest`.
fn uniform(
    probs: &[f64],
    offsets: &[i64],
    class: &[Class],
    rest: &mut Vec<(u32, u32, f64)>,
) -> Option<Weights> {
    let stride = class.len();
    // Each diagonal's majority probability (Boyer and Moore's vote; without a majority, any of
    // its values, and the mask below then rejects the uniform form).
    let coef: Vec<f64> = (0..offsets.len())
        .map(|i| {
            let (mut candidate, mut votes) = (0.0_f64, 0_usize);
            for &p in probs[i * stride..(i + 1) * stride].iter().filter(|&&p| p > 0.0) {
                if votes == 0 {
                    candidate = p;
                }
                votes = if p.to_bits() == candidate.to_bits() { votes + 1 } else { votes - 1 };
            }
            candidate
        })
        .collect();
    // A source that never holds mass: off the board, never reached, or N (emptied every turn).
    let source = |e: usize, d: i64| e.checked_add_signed(-(d as isize));
    let empty = |e: usize, d: i64| {
        source(e, d).is_none_or(|b| b + 1 >= stride || class[b] == Class::Unreached)
    };
    let mut mask = vec![0.0; stride];
    let mut moved = Vec::new();
    for (e, k) in mask.iter_mut().enumerate() {
        let fits = offsets.iter().enumerate().all(|(i, &d)| {
            let p = probs[i * stride + e];
            p.to_bits() == coef[i].to_bits() || (p <= 0.0 && empty(e, d))
        });
        if fits {
            *k = 1.0;
        } else {
            for (i, &d) in offsets.iter().enumerate() {
                let p = probs[i * stride + e];
                if let Some(b) = source(e, d).filter(|_| p > 0.0) {
                    moved.push((b as u32, e as u32, p));
                }
            }
            if moved.len() > stride / 4 {
                return None;
            }
        }
    }
    rest.append(&mut moved);
    let scaled = coef
        .first()
        .filter(|&c| coef.iter().all(|p| p.to_bits() == c.to_bits()))
        .map(|&c| Box::new(Scaled::new(c, &mask)));
    Some(Weights::Uniform { coef, mask, scaled })
}

/// Masses below this are set to 0 every [`FLUSH_EVERY`] turns. Far below anything reported (1e-12 of a
/// probability), it keeps the masses out of the subnormal numbers, on which every arithmetic
/// operation is some hundred times slower: a long game on dice that mostly overshoot (4d50 on
/// 100 cells, where a token waits on the last cells for millions of turns) leaves the cells it
/// has left with masses that shrink for ever. What is dropped over a whole distribution, at most
/// 10^-250 per cell and turn, moves no figure.
const TINY: f64 = 1e-250;

/// Turns between two flushes: a pass over the board each time, an eighth of a pass per turn
/// (a mass would have to shrink by 10^58 in that many turns to become subnormal in between).
const FLUSH_EVERY: usize = 8;

/// Sets every mass below [`TINY`] to 0 (branch-free, vectorised).
fn flush_tiny(masses: &mut [f64]) {
    for m in masses {
        *m = if *m < TINY { 0.0 } else { *m };
    }
}

/// The sum of a block's lanes, pairwise.
fn pairwise(lanes: &[f64; BLOCK]) -> f64 {
    let mut half = *lanes;
    let mut len = BLOCK;
    while len > 1 {
        len /= 2;
        for i in 0..len {
            half[i] += half[i + len];
        }
    }
    half[0]
}

/// The [`BLOCK`] values of `v` from `at`.
fn block(v: &[f64], at: usize) -> &[f64; BLOCK] {
    v[at..at + BLOCK].try_into().expect("a block inside the vector")
}

#[cfg(test)]
mod tests {
    use super::*;
    use snl_engine::{Board, BoardSpec, Rules};

    /// `now · K` from the chain's rows, one transition at a time.
    fn product(chain: &TurnChain, class: &[Class], now: &[f64]) -> Vec<f64> {
        let mut next = vec![0.0; now.len()];
        for b in (0..chain.size()).filter(|&b| class[b as usize] != Class::Unreached) {
            for (e, p) in chain.row(b) {
                next[e as usize] += p * now[b as usize];
            }
        }
        next
    }

    #[test]
    fn a_step_by_diagonals_is_the_chains_product_in_either_form() {
        let jumps = [(3, 40), (17, 2), (29, 60), (44, 5), (58, 90), (71, 33), (97, 20), (99, 1)];
        for name in ["standard", "bonus-six", "strict-sixes", "three-sixes"] {
            for dice in ["1d6", "2d6", "1d2"] {
                let rules = Rules { dice: dice.parse().unwrap(), ..Rules::named(name).unwrap() };
                let Ok(board) = Board::new(&BoardSpec::with_jumps(100, jumps), &rules) else {
                    continue;
                };
                let chain = TurnChain::new(&board, &rules);
                let class = super::super::solver::classify(&chain);
                // Mass everywhere it may be (not on N, which every turn empties).
                let now: Vec<f64> = (0..=100)
                    .map(|b| {
                        let reached = b < 100 && class[b] != Class::Unreached;
                        if reached { 1.0 / (1.0 + b as f64) } else { 0.0 }
                    })
                    .collect();
                let want = product(&chain, &class, &now);
                let unlimited = Budget::unlimited();
                let forms = [true, false]
                    .map(|uniform| Step::build(&chain, &class, uniform, &unlimited).unwrap());
                if name == "standard" {
                    assert!(matches!(forms[0].weights, Weights::Uniform { .. }), "{rules}");
                }
                for step in forms {
                    let mut next = vec![f64::NAN; 101];
                    let left = step.apply(&now, &mut next);
                    for (e, (got, want)) in next.iter().zip(&want).enumerate() {
                        assert!(
                            (got - want).abs() <= 1e-15 * want,
                            "{rules}: {e}: {got} vs {want}"
                        );
                    }
                    let below: f64 = want[..100].iter().sum();
                    assert!((left - below).abs() <= 1e-14 * below, "{rules}: {left} vs {below}");
                }
            }
        }
    }

    fn dist(cdf: &[f64]) -> TurnDistribution {
        TurnDistribution {
            cdf: cdf.to_vec(),
            survival: cdf.iter().map(|p| 1.0 - p).collect(),
            rolls: vec![1.0; cdf.len() - 1],
            residual: 1.0 - cdf[cdf.len() - 1],
            complete: true,
            propagated: cdf.len() - 1,
            bound: 0.0,
            far: Vec::new(),
            geometric: None,
        }
    }

    #[test]
    fn quantiles_are_the_smallest_turn_reaching_the_level() {
        let d = dist(&[0.0, 0.0, 0.25, 0.5, 0.9, 1.0]);
        assert_eq!(d.median(), Some(3));
        assert_eq!(d.quantile(0.1), Some(2));
        assert_eq!(d.quantile(0.91), Some(5));
        assert_eq!(d.min(), Some(2));
        assert_eq!(d.mode(), Some(4));
        assert!((d.probability(4) - 0.4).abs() < 1e-15);
    }

    #[test]
    fn a_token_that_never_finishes_has_no_median_or_mode() {
        let d = dist(&[0.0, 0.0, 0.2, 0.3]);
        assert_eq!(d.median(), None);
        assert_eq!(d.quantile(0.25), Some(3));
        let never = dist(&[0.0]);
        assert_eq!((never.median(), never.mode(), never.min()), (None, None, None));
    }
}
