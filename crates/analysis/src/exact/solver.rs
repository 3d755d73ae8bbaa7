// Long because the direct and the iterative (GMRES) solves and the cost model that picks one are one decision.
//! Exact linear solves on a turn chain that moves mostly forward.
//!
//! Expected values satisfy `x = c + K x` on the positions that can still finish. Sorted by
//! position, `K` is nearly upper triangular: dice, ladders and snakes whose tail lies ahead move
//! forward, a stay is a self-loop, and only a few moves go back (a snake whose tail lies behind
//! the turn's start, a bounce). Call their targets the *back cells* `S`.
//!
//! One backward sweep, highest position first, writes every position's value as
//! `x_b = α_b + β_b · u`, where `u` are the (unknown) values at the back cells and `β_b[j]` is the
//! probability that, from `b`, the first backward move goes to back cell `j`. The back cells'
//! own rows form a small dense system `(I − B) u = α_S`, solved by Gaussian elimination in the
//! GTH form (Grassmann, Taksar & Heyman 1985): every pivot is computed as a sum of exit
//! probabilities rather than as `1 − B_jj`, so nothing cancels and the result keeps its relative
//! accuracy whatever the expected lengths. After that, each right-hand side costs one or two
//! scalar sweeps and a triangular solve.
//!
//! Cost: the sweep does `O(nnz · |S| / 2)` work and keeps only the forms still needed (the dice
//! window and jump ends), so memory is `O(N + |S| · (window + jumps) + |S|²)`; the elimination is
//! `O(|S|³ / 3)`. Boards have as many back cells as snakes pointing backward, a few more with
//! bounce: tens for printed boards, hundreds for large generated ones. The back cells' system
//! can instead be solved by restarted GMRES, whose products `B v` are one scalar sweep each, so
//! memory stays linear in the cells. [`Method::Auto`] picks whichever costs less by
//! [`direct_is_cheaper`], a cost model fitted to measurements (`benches/solver.rs`).

use super::{AnalysisError, chain::TurnChain};
use crate::Budget;

/// What a position is to the solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// Never reached from the start.
    Unreached,
    /// Reached, and N can still be reached from it.
    Live,
    /// Reached, but N can never be reached from it.
    Trapped,
    /// Cell N.
    Finish,
}

const NONE: u32 = u32::MAX;

/// The most back cells whose system is ever factored densely (72 MiB, about 10^10 operations at
/// the limit). Beyond it the back cells' system is solved by restarted GMRES, each product
/// costing one sweep over the chain, so memory stays linear in the cells however many snakes
/// there are. Below it, [`Method::Auto`] still takes GMRES where that is faster.
pub const MAX_BACK_CELLS: usize = 3000;

/// How the exact analysis solves the back cells' system (see [`Options`](super::Options)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Method {
    /// Whichever is faster by a measured cost model: the direct solve for up to about 500 back
    /// cells on 10^4 cells, 1,000 on 10^5 and 1,900 on 10^6; GMRES beyond.
    #[default]
    Auto,
    /// GTH elimination whenever there are at most `max_dense_back_cells` back cells.
    Direct,
    /// Restarted GMRES, one sweep over the chain per product.
    Iterative,
}

/// Multiply-adds per transition that GMRES spends, over the four solves of an analysis
/// (expected turns, rolls, variance, visits): a few hundred sweeps of the chain in all, each
/// about two multiply-adds per transition. Fitted to where the two solvers cost the same on
/// random boards of 10^4, 10^5 and 10^6 cells (about 500, 1,050 and 1,900 back cells; it
/// grows slowly with the cells as GMRES needs more iterations: 950, 1,170 and 1,330).
const ITERATIVE_COST_PER_TRANSITION: f64 = 1200.0;

/// Whether factoring the system of `back` back cells costs less than GMRES on a chain of
/// `transitions` transitions. The direct solve's backward sweep costs about `transitions ·
/// back / 2` multiply-adds (each form holds the back cells seen so far) and the elimination
/// `back³ / 3`; GMRES about [`ITERATIVE_COST_PER_TRANSITION`] per transition.
pub(crate) fn direct_is_cheaper(back: usize, transitions: usize) -> bool {
    let (m, t) = (back as f64, transitions as f64);
    t * m / 2.0 + m * m * m / 3.0 <= ITERATIVE_COST_PER_TRANSITION * t
}

/// A factored turn chain, ready to give exact expectations for any per-turn cost.
#[derive(Debug)]
pub(crate) struct Solver<'c> {
    chain: &'c TurnChain,
    class: Vec<Class>,
    /// Index of each back cell in `S`, `NONE` for other cells.
    back: Vec<u32>,
    /// The back cells, in index order.
    back_cells: Vec<u32>,
    /// The live rows as the sweeps read them.
    rows: LiveRows,
    reduced: Reduced,
    /// When to give up a solve (checked between GMRES iterations and while factoring).
    budget: Budget,
}

/// The live positions' moves among live positions, compact for the sweeps (every GMRES product
/// is one): per live position, its forward moves, farthest first (in the backward sweep the
/// nearest value is the one just computed, so it is added last and the rest need not wait
/// for it), then its backward moves by back-cell index; and `1 / leave`.
#[derive(Debug, Default)]
struct LiveRows {
    /// The live positions, increasing.
    cells: Vec<u32>,
    /// Row i holds entries `ends[i]..ends[i + 1]`, forward before `split[i]`, backward after.
    ends: Vec<usize>,
    split: Vec<usize>,
    /// Forward: the target cell; backward: the target's back-cell index.
    to: Vec<u32>,
    prob: Vec<f64>,
    /// `1 / leave` of each live position, in `cells` order.
    inv_leave: Vec<f64>,
}

impl LiveRows {
    fn new(chain: &TurnChain, class: &[Class], leave: &[f64], back: &[u32]) -> LiveRows {
        let mut rows = LiveRows { ends: vec![0], ..LiveRows::default() };
        let mut backward = Vec::new();
        for b in (0..chain.size()).filter(|&b| class[b as usize] == Class::Live) {
            rows.cells.push(b);
            rows.inv_leave.push(1.0 / leave[b as usize]);
            backward.clear();
            let live = chain.row(b).filter(|&(e, _)| e != b && class[e as usize] == Class::Live);
            for (e, p) in live.collect::<Vec<_>>().into_iter().rev() {
                if e > b {
                    rows.to.push(e);
                    rows.prob.push(p);
                } else {
                    backward.push((back[e as usize], p));
                }
            }
            rows.split.push(rows.to.len());
            for &(j, p) in &backward {
                rows.to.push(j);
                rows.prob.push(p);
            }
            rows.ends.push(rows.to.len());
        }
        rows
    }
}

/// How the back cells' system `(I − B) u = r` is solved.
#[derive(Debug)]
enum Reduced {
    /// Factored, with the start's form `β_start` (length |S|).
    Dense { lu: Lu, beta_start: Vec<f64> },
    /// By GMRES, `B v` being one sweep.
    Iterative,
    /// The budget ran out while factoring: every solve answers [`AnalysisError::Stopped`].
    Stopped,
}

impl<'c> Solver<'c> {
    /// Classifies the positions and prepares the back cells' system: factored when there are
    /// at most `limit` back cells and `method` says so, else left to GMRES.
    /// Work stops once `budget` is spent: the solves then answer [`AnalysisError::Stopped`].
    pub(crate) fn new(
        chain: &'c TurnChain,
        method: Method,
        limit: usize,
        budget: &Budget,
    ) -> Solver<'c> {
        Solver::with_classes(chain, method, limit, classify(chain), budget)
    }

    /// [`Solver::new`] with [`Method::Direct`]: factored when there are at most `limit` back
    /// cells.
    #[cfg(test)]
    pub(crate) fn with_dense_limit(chain: &'c TurnChain, limit: usize) -> Solver<'c> {
        Solver::new(chain, Method::Direct, limit, &Budget::unlimited())
    }

    /// As [`Solver::with_dense_limit`], every position counting as reached: then
    /// [`Solver::everywhere`] gives the value from every position that can still finish, not only
    /// from those the start leads to (what a policy needs, since a game may stand anywhere).
    pub(crate) fn from_every_position(
        chain: &'c TurnChain,
        limit: usize,
        budget: &Budget,
    ) -> Solver<'c> {
        Solver::with_classes(chain, Method::Direct, limit, classify_from(chain, true), budget)
    }

    fn with_classes(
        chain: &'c TurnChain,
        method: Method,
        limit: usize,
        class: Vec<Class>,
        budget: &Budget,
    ) -> Solver<'c> {
        let n = chain.size() as usize;
        let mut leave = vec![0.0; n];
        let mut back_src = vec![NONE; n + 1]; // highest live source of a backward move into a cell
        let mut min_src = vec![NONE; n + 1]; // lowest live source of a forward move into a cell
        for b in 0..n {
            if class[b] != Class::Live {
                continue;
            }
            for (e, p) in chain.row(b as u32) {
                let e = e as usize;
                if e != b {
                    leave[b] += p;
                }
                if class[e] != Class::Live {
                    continue;
                }
                if e < b {
                    back_src[e] = b as u32; // rows are visited upwards: the last is the highest
                } else if e > b && min_src[e] == NONE {
                    min_src[e] = b as u32;
                }
            }
        }
        // Back cells ordered by their highest source, highest first: at position b, only those
        // whose highest source is ≥ b can appear in β_b, a prefix of this order.
        let mut back_cells: Vec<u32> =
            (0..=n as u32).filter(|&c| back_src[c as usize] != NONE).collect();
        back_cells.sort_by_key(|&c| std::cmp::Reverse(back_src[c as usize]));
        let mut back = vec![NONE; n + 1];
        for (j, &c) in back_cells.iter().enumerate() {
            back[c as usize] = j as u32;
        }
        let m = back_cells.len();
        let direct = m <= limit
            && match method {
                Method::Auto => direct_is_cheaper(m, chain.transitions()),
                Method::Direct => true,
                Method::Iterative => false,
            };
        let reduced = if direct {
            factor(chain, &class, &leave, &back, &back_cells, &back_src, &min_src, budget)
        } else {
            Reduced::Iterative
        };
        let rows = LiveRows::new(chain, &class, &leave, &back);
        Solver { chain, class, back, back_cells, rows, reduced, budget: budget.clone() }
    }
}

/// The backward sweep of the forms β (see the module comment) and of γ, the chance of leaving
/// the forward region (finishing or getting trapped) before any backward move; then the GTH
/// factors of the back cells' system; [`Reduced::Stopped`] once `budget` is spent.
#[expect(clippy::too_many_arguments, reason = "the sweep's tables, built once by the caller")]
fn factor(
    chain: &TurnChain,
    class: &[Class],
    leave: &[f64],
    back: &[u32],
    back_cells: &[u32],
    back_src: &[u32],
    min_src: &[u32],
    budget: &Budget,
) -> Reduced {
    let n = chain.size() as usize;
    let m = back_cells.len();
    let start = chain.start() as usize;
    let mut forms = Forms::new(n);
    let mut gamma = vec![0.0; n + 1];
    let mut reduced = vec![0.0; m * m];
    let mut exit = vec![0.0; m];
    let mut beta_start = vec![0.0; m];
    let mut beta: Vec<f64> = Vec::with_capacity(m);
    let mut active = 0;
    for b in (0..n).rev() {
        // Each row costs up to |S| multiply-adds per transition: look at the clock now and then.
        if b % 1024 == 0 && budget.is_spent() {
            return Reduced::Stopped;
        }
        while active < m && back_src[back_cells[active] as usize] as usize >= b {
            active += 1;
        }
        if class[b] != Class::Live {
            continue;
        }
        beta.clear();
        beta.resize(active, 0.0);
        let mut g = 0.0;
        for (e, p) in chain.row(b as u32) {
            let e = e as usize;
            match class[e] {
                _ if e == b => {}
                Class::Finish | Class::Trapped => g += p,
                Class::Live if e > b => {
                    g += p * gamma[e];
                    for (t, v) in beta.iter_mut().zip(forms.get(e)) {
                        *t += p * v;
                    }
                }
                Class::Live => beta[back[e] as usize] += p,
                Class::Unreached => {
                    unreachable!("a reached position only moves to reached ones")
                }
            }
        }
        let inv = 1.0 / leave[b];
        for v in &mut beta {
            *v *= inv;
        }
        gamma[b] = g * inv;
        if let Some(j) = index(back[b]) {
            reduced[j * m..j * m + active].copy_from_slice(&beta);
            exit[j] = gamma[b];
        }
        if b == start {
            beta_start[..active].copy_from_slice(&beta);
        }
        if min_src[b] != NONE {
            forms.keep(b, &beta);
        }
        for (e, _) in chain.row(b as u32) {
            if min_src[e as usize] == b as u32 {
                forms.release(e as usize);
            }
        }
    }
    match Lu::factor(reduced, exit, m, budget) {
        Some(lu) => Reduced::Dense { lu, beta_start },
        None => Reduced::Stopped,
    }
}

impl Solver<'_> {
    /// Each position's class.
    pub(crate) fn classes(&self) -> &[Class] {
        &self.class
    }

    /// Number of back cells (the size of the dense system).
    pub(crate) fn back_cells(&self) -> usize {
        self.back_cells.len()
    }

    /// Whether some reached position can never finish.
    pub(crate) fn has_trap(&self) -> bool {
        self.class.contains(&Class::Trapped)
    }

    /// Whether the start can finish at all.
    pub(crate) fn start_is_live(&self) -> bool {
        self.class[self.chain.start() as usize] == Class::Live
    }

    /// The expected total of the per-turn cost `cost[b]` (indexed by the position the turn
    /// begins on) until the token leaves the live positions, from the start. 0 if the start is
    /// not live.
    pub(crate) fn at_start(&self, cost: &[f64]) -> Result<f64, AnalysisError> {
        let start = self.chain.start() as usize;
        if !self.start_is_live() {
            return Ok(0.0);
        }
        let mut x = vec![0.0; self.class.len()];
        self.sweep(Some(cost), None, &mut x);
        match &self.reduced {
            Reduced::Dense { lu, beta_start } => {
                let u = lu.solve(&self.gather(&x));
                Ok(x[start] + dot(beta_start, &u))
            }
            Reduced::Iterative | Reduced::Stopped => {
                let u = self.solve_back(&self.gather(&x), false)?;
                self.sweep(Some(cost), Some(&u), &mut x);
                Ok(x[start])
            }
        }
    }

    /// As [`Solver::at_start`], from every live position (other positions hold 0).
    pub(crate) fn everywhere(&self, cost: &[f64]) -> Result<Vec<f64>, AnalysisError> {
        let mut x = vec![0.0; self.class.len()];
        self.sweep(Some(cost), None, &mut x);
        if !self.back_cells.is_empty() {
            let u = self.solve_back(&self.gather(&x), false)?;
            self.sweep(Some(cost), Some(&u), &mut x);
        }
        Ok(x)
    }

    /// The expected number of turns begun on each position, from the start until the token
    /// leaves the live positions (the occupation measure; the adjoint of [`Solver::everywhere`]).
    pub(crate) fn visits(&self) -> Result<Vec<f64>, AnalysisError> {
        let n = self.chain.size() as usize;
        let mut y = vec![0.0; n + 1];
        if !self.start_is_live() {
            return Ok(y);
        }
        let inflow = self.push(true, None, &mut y);
        if !self.back_cells.is_empty() {
            let z = self.solve_back(&inflow, true)?;
            self.push(true, Some(&z), &mut y);
        }
        Ok(y)
    }

    /// Solves the back cells' system `(I − B) u = rhs`, or its transpose.
    fn solve_back(&self, rhs: &[f64], transposed: bool) -> Result<Vec<f64>, AnalysisError> {
        match &self.reduced {
            Reduced::Dense { lu, .. } if transposed => Ok(lu.solve_transposed(rhs)),
            Reduced::Dense { lu, .. } => Ok(lu.solve(rhs)),
            Reduced::Stopped => Err(AnalysisError::Stopped),
            Reduced::Iterative => {
                let n = self.class.len();
                // (I − B) v, or (I − Bᵀ) v: one sweep each.
                let apply = |v: &[f64]| -> Vec<f64> {
                    let mut x = vec![0.0; n];
                    let bv = if transposed {
                        self.push(false, Some(v), &mut x)
                    } else {
                        self.sweep(None, Some(v), &mut x);
                        self.gather(&x)
                    };
                    v.iter().zip(&bv).map(|(a, b)| a - b).collect()
                };
                gmres(apply, rhs, || self.budget.is_spent()).map_err(|e| match e {
                    Unsolved::Stopped => AnalysisError::Stopped,
                    Unsolved::NoConvergence { iterations, residual } => {
                        AnalysisError::NoConvergence { iterations, residual }
                    }
                })
            }
        }
    }

    /// The values of `x` at the back cells, in index order.
    fn gather(&self, x: &[f64]) -> Vec<f64> {
        self.back_cells.iter().map(|&c| x[c as usize]).collect()
    }

    /// One backward sweep: `x_b = (cost_b + Σ_{e≠b} K(b,e) x_e) / leave_b` for live `b` (no cost
    /// when `cost` is `None`), where a backward move to back cell `j` counts `back[j]` (0 when
    /// `back` is `None`) and moves out of the live positions count 0.
    fn sweep(&self, cost: Option<&[f64]>, back: Option<&[f64]>, x: &mut [f64]) {
        let rows = &self.rows;
        for (i, &b) in rows.cells.iter().enumerate().rev() {
            let b = b as usize;
            let mut acc = cost.map_or(0.0, |c| c[b]);
            let (forward, backward) =
                (rows.ends[i]..rows.split[i], rows.split[i]..rows.ends[i + 1]);
            if let Some(u) = back {
                for k in backward {
                    acc += rows.prob[k] * u[rows.to[k] as usize];
                }
            }
            // Farthest first: x[b + 1], just computed, comes last.
            for k in forward {
                acc += rows.prob[k] * x[rows.to[k] as usize];
            }
            x[b] = acc * rows.inv_leave[i];
        }
    }

    /// One forward sweep of expected visits from one arrival at the start (when `source`) and
    /// `inject[j]` arrivals at back cell `j` (none when `inject` is `None`); backward moves are
    /// not followed but returned as the expected number of arrivals at each back cell.
    fn push(&self, source: bool, inject: Option<&[f64]>, y: &mut [f64]) -> Vec<f64> {
        let n = self.chain.size() as usize;
        let start = self.chain.start() as usize;
        let rows = &self.rows;
        let mut inflow = vec![0.0; n + 1];
        let mut arrivals = vec![0.0; self.back_cells.len()];
        for (i, &b) in rows.cells.iter().enumerate() {
            let b = b as usize;
            let mut into = inflow[b];
            if source && b == start {
                into += 1.0;
            }
            if let (Some(z), Some(j)) = (inject, index(self.back[b])) {
                into += z[j];
            }
            let visits = into * rows.inv_leave[i];
            y[b] = visits;
            for k in rows.ends[i]..rows.split[i] {
                inflow[rows.to[k] as usize] += visits * rows.prob[k];
            }
            for k in rows.split[i]..rows.ends[i + 1] {
                arrivals[rows.to[k] as usize] += visits * rows.prob[k];
            }
        }
        arrivals
    }
}

fn index(j: u32) -> Option<usize> {
    (j != NONE).then_some(j as usize)
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Which positions are reached from the start, and which of those can still reach N.
pub(crate) fn classify(chain: &TurnChain) -> Vec<Class> {
    classify_from(chain, false)
}

/// As [`classify`], from the start, or from every position when `every`.
fn classify_from(chain: &TurnChain, every: bool) -> Vec<Class> {
    let n = chain.size() as usize;
    let start = chain.start() as usize;
    let mut reached = vec![every; n + 1];
    reached[start] = true;
    let mut stack = if every { Vec::new() } else { vec![start] };
    while let Some(b) = stack.pop() {
        if b == n {
            continue;
        }
        for (e, _) in chain.row(b as u32) {
            if !reached[e as usize] {
                reached[e as usize] = true;
                stack.push(e as usize);
            }
        }
    }
    // Reverse edges of the reached part, then a search back from N.
    let mut offsets = vec![0_usize; n + 2];
    for b in (0..n).filter(|&b| reached[b]) {
        for (e, _) in chain.row(b as u32) {
            offsets[e as usize + 1] += 1;
        }
    }
    for i in 1..offsets.len() {
        offsets[i] += offsets[i - 1];
    }
    let mut fill = offsets.clone();
    let mut sources = vec![0_u32; offsets[n + 1]];
    for b in (0..n).filter(|&b| reached[b]) {
        for (e, _) in chain.row(b as u32) {
            sources[fill[e as usize]] = b as u32;
            fill[e as usize] += 1;
        }
    }
    let mut finishes = vec![false; n + 1];
    if reached[n] {
        finishes[n] = true;
        stack.push(n);
    }
    while let Some(e) = stack.pop() {
        for &b in &sources[offsets[e]..offsets[e + 1]] {
            if !finishes[b as usize] {
                finishes[b as usize] = true;
                stack.push(b as usize);
            }
        }
    }
    (0..=n)
        .map(|c| match (c == n, reached[c], finishes[c]) {
            (true, _, _) => Class::Finish,
            (false, false, _) => Class::Unreached,
            (false, true, true) => Class::Live,
            (false, true, false) => Class::Trapped,
        })
        .collect()
}

/// The forms `β_e` still needed by positions below the sweep, in reusable buffers.
#[derive(Debug)]
struct Forms {
    slot: Vec<u32>,
    pool: Vec<Vec<f64>>,
    free: Vec<u32>,
}

impl Forms {
    fn new(n: usize) -> Forms {
        Forms { slot: vec![NONE; n + 1], pool: Vec::new(), free: Vec::new() }
    }

    fn get(&self, cell: usize) -> &[f64] {
        &self.pool[self.slot[cell] as usize]
    }

    fn keep(&mut self, cell: usize, form: &[f64]) {
        let slot = self.free.pop().unwrap_or_else(|| {
            self.pool.push(Vec::new());
            (self.pool.len() - 1) as u32
        });
        let buffer = &mut self.pool[slot as usize];
        buffer.clear();
        buffer.extend_from_slice(form);
        self.slot[cell] = slot;
    }

    fn release(&mut self, cell: usize) {
        let slot = std::mem::replace(&mut self.slot[cell], NONE);
        if slot != NONE {
            self.free.push(slot);
        }
    }
}

/// `I − B` for a substochastic `B` with known exits, factored as `L U` by GTH elimination.
///
/// Stored in one `m × m` array: above the diagonal, `U`'s off-diagonal entries negated (the
/// censored transition probabilities, all ≥ 0); below it, `L`'s multipliers negated (≥ 0); and
/// the pivots in `pivot`. Every step adds non-negative numbers, so no digits cancel.
#[derive(Debug)]
struct Lu {
    m: usize,
    a: Vec<f64>,
    pivot: Vec<f64>,
}

impl Lu {
    /// Factors `I − B` given `B` (row-major, `m × m`) and each row's exit probability
    /// `1 − Σ_j B_ij`.
    /// `None` once `budget` is spent (each pivot costs up to `m²` multiply-adds).
    fn factor(mut a: Vec<f64>, mut exit: Vec<f64>, m: usize, budget: &Budget) -> Option<Lu> {
        let mut pivot = vec![0.0; m];
        for k in 0..m {
            if k % 16 == 0 && budget.is_spent() {
                return None;
            }
            let (upper, lower) = a.split_at_mut((k + 1) * m);
            let row_k = &upper[k * m..];
            // 1 − B_kk of the chain censored to {k, …, m−1}, without subtraction.
            let d = exit[k] + row_k[k + 1..].iter().sum::<f64>();
            pivot[k] = d;
            for (i, row_i) in lower.chunks_exact_mut(m).enumerate() {
                let b_ik = row_i[k];
                if b_ik == 0.0 {
                    continue;
                }
                let f = b_ik / d;
                row_i[k] = f;
                for (t, &v) in row_i[k + 1..].iter_mut().zip(&row_k[k + 1..]) {
                    *t += f * v;
                }
                exit[k + 1 + i] += f * exit[k];
            }
        }
        Some(Lu { m, a, pivot })
    }

    /// Solves `(I − B) u = rhs`.
    fn solve(&self, rhs: &[f64]) -> Vec<f64> {
        let m = self.m;
        let mut y = rhs.to_vec();
        for i in 0..m {
            let row = &self.a[i * m..i * m + i];
            y[i] += row.iter().zip(&y[..i]).map(|(f, v)| f * v).sum::<f64>();
        }
        for k in (0..m).rev() {
            let row = &self.a[k * m + k + 1..(k + 1) * m];
            let s: f64 = row.iter().zip(&y[k + 1..]).map(|(b, v)| b * v).sum();
            y[k] = (y[k] + s) / self.pivot[k];
        }
        y
    }

    /// Solves `(I − B)ᵀ z = rhs`.
    fn solve_transposed(&self, rhs: &[f64]) -> Vec<f64> {
        let m = self.m;
        let mut w = rhs.to_vec();
        for k in 0..m {
            w[k] /= self.pivot[k];
            let wk = w[k];
            let row = &self.a[k * m + k + 1..(k + 1) * m];
            for (t, b) in w[k + 1..].iter_mut().zip(row) {
                *t += b * wk;
            }
        }
        for k in (0..m).rev() {
            let zk = w[k];
            for (t, f) in w[..k].iter_mut().zip(&self.a[k * m..k * m + k]) {
                *t += f * zk;
            }
        }
        w
    }
}

/// Why GMRES gave no answer.
enum Unsolved {
    /// Its budget ran out.
    Stopped,
    /// It made `iterations` and reached only `residual` (relative).
    NoConvergence { iterations: usize, residual: f64 },
}

/// Most GMRES iterations (sweeps) before giving up.
const MAX_ITERATIONS: usize = 5000;
/// Krylov vectors kept between restarts.
const RESTART: usize = 60;

/// Solves `A x = b` by restarted GMRES with modified Gram–Schmidt (applied twice) and Givens
/// rotations, where `apply(v)` is `A v`. Stops when the true residual is below 1e-14 ‖b‖, or
/// returns the iterations made and the residual reached, or as soon as `stop()` says so.
#[expect(clippy::many_single_char_names, reason = "the textbook's notation (Saad, §6.5)")]
fn gmres(
    apply: impl Fn(&[f64]) -> Vec<f64>,
    b: &[f64],
    stop: impl Fn() -> bool,
) -> Result<Vec<f64>, Unsolved> {
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    let target = 1e-14 * norm(b);
    let mut x = b.to_vec(); // A = I − B with B small: b is a fair first guess
    let mut iterations = 0;
    let mut stalled = 0;
    let mut best = f64::INFINITY;
    loop {
        let ax = apply(&x);
        let r: Vec<f64> = b.iter().zip(&ax).map(|(b, a)| b - a).collect();
        let beta = norm(&r);
        if beta <= target || b.is_empty() {
            return Ok(x);
        }
        // Rounding puts a floor under the residual: stop once restarts no longer lower it.
        if beta < 0.5 * best {
            best = beta;
            stalled = 0;
        } else {
            stalled += 1;
        }
        if iterations >= MAX_ITERATIONS || stalled >= 3 {
            return if beta <= 1e-11 * norm(b) {
                Ok(x)
            } else {
                Err(Unsolved::NoConvergence { iterations, residual: beta / norm(b) })
            };
        }
        let mut basis: Vec<Vec<f64>> = vec![r.iter().map(|v| v / beta).collect()];
        let mut h: Vec<Vec<f64>> = Vec::new(); // columns of the Hessenberg matrix
        let mut rotations: Vec<(f64, f64)> = Vec::new();
        let mut g = vec![beta];
        for j in 0..RESTART {
            if stop() {
                return Err(Unsolved::Stopped);
            }
            iterations += 1;
            let mut w = apply(&basis[j]);
            let mut col = vec![0.0; j + 2];
            for _ in 0..2 {
                for (i, v) in basis.iter().enumerate() {
                    let c: f64 = w.iter().zip(v).map(|(a, b)| a * b).sum();
                    col[i] += c;
                    for (t, q) in w.iter_mut().zip(v) {
                        *t -= c * q;
                    }
                }
            }
            col[j + 1] = norm(&w);
            for (i, &(c, s)) in rotations.iter().enumerate() {
                let (a, b) = (col[i], col[i + 1]);
                col[i] = c * a + s * b;
                col[i + 1] = -s * a + c * b;
            }
            let (a, b) = (col[j], col[j + 1]);
            let r = a.hypot(b);
            let (c, s) = if r == 0.0 { (1.0, 0.0) } else { (a / r, b / r) };
            col[j] = r;
            col[j + 1] = 0.0;
            rotations.push((c, s));
            g.push(-s * g[j]);
            g[j] *= c;
            let next = norm(&w);
            h.push(col);
            if g[j + 1].abs() <= target || next == 0.0 {
                break;
            }
            basis.push(w.iter().map(|v| v / next).collect());
        }
        // Back substitution for the coefficients, then x += V y.
        let k = h.len();
        let mut y = vec![0.0; k];
        for i in (0..k).rev() {
            let s: f64 = (i + 1..k).map(|j| h[j][i] * y[j]).sum();
            y[i] = (g[i] - s) / h[i][i];
        }
        for (v, c) in basis.iter().zip(&y) {
            for (t, q) in x.iter_mut().zip(v) {
                *t += c * q;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use snl_engine::{Board, RandomBoard, Rules};

    #[test]
    fn gmres_on_the_back_cells_agrees_with_the_dense_factors() {
        for (rules, seed) in [(Rules::default(), 1), (Rules::named("strict-sixes").unwrap(), 2)] {
            let spec = RandomBoard { size: 3000, snakes: 300, ladders: 300, seed, min_jump: 1 }
                .spec(&rules);
            let board = Board::new(&spec, &rules).unwrap();
            let chain = TurnChain::new(&board, &rules);
            let dense = Solver::with_dense_limit(&chain, MAX_BACK_CELLS);
            let iterative = Solver::with_dense_limit(&chain, 0);
            assert!(matches!(dense.reduced, Reduced::Dense { .. }));
            assert!(matches!(iterative.reduced, Reduced::Iterative));
            assert!(dense.back_cells() > 250, "{}", dense.back_cells());
            let ones: Vec<f64> =
                (0..3000).map(|b| f64::from(u8::from(dense.class[b] == Class::Live))).collect();
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-11 * b.abs().max(1e-300);
            let (x, y) = (dense.everywhere(&ones).unwrap(), iterative.everywhere(&ones).unwrap());
            assert!(x.iter().zip(&y).all(|(a, b)| close(*a, *b)));
            let (x, y) = (dense.at_start(&ones).unwrap(), iterative.at_start(&ones).unwrap());
            assert!(close(x, y), "{x} {y}");
            let (x, y) = (dense.visits().unwrap(), iterative.visits().unwrap());
            assert!(x.iter().zip(&y).all(|(a, b)| (a - b).abs() <= 1e-11 * b.abs().max(1e-12)));
        }
    }

    #[test]
    fn the_cost_model_switches_where_the_solvers_were_measured_to_cost_the_same() {
        // (transitions of a random board with a jump per 20 to 1,000 cells, back cells where
        // GMRES was measured faster, back cells where the direct solve was).
        for (transitions, slower, faster) in
            [(60_000, 676, 352), (600_000, 1_238, 993), (6_000_000, 2_490, 1_662)]
        {
            assert!(direct_is_cheaper(faster, transitions), "{transitions} {faster}");
            assert!(!direct_is_cheaper(slower, transitions), "{transitions} {slower}");
        }
        // Printed boards: always direct.
        assert!(direct_is_cheaper(20, 600));
    }

    #[test]
    fn a_spent_budget_stops_the_factoring_and_gmres_with_stopped() {
        // Issue 29, finding 10: the solves once ran on whatever the deadline (39 s for 5 s).
        let rules = Rules::default();
        let spec =
            RandomBoard { size: 10_000, snakes: 1_000, ladders: 1_000, seed: 0, min_jump: 1 }
                .spec(&rules);
        let chain = TurnChain::new(&Board::new(&spec, &rules).unwrap(), &rules);
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let spent = Budget::unlimited().with_cancel(flag);
        let ones = vec![1.0; chain.size() as usize];
        for method in [Method::Direct, Method::Iterative] {
            let solver = Solver::new(&chain, method, MAX_BACK_CELLS, &spent);
            assert_eq!(solver.at_start(&ones), Err(AnalysisError::Stopped), "{method:?}");
            assert_eq!(solver.visits(), Err(AnalysisError::Stopped), "{method:?}");
            let free = Solver::new(&chain, method, MAX_BACK_CELLS, &Budget::unlimited());
            assert!(free.at_start(&ones).unwrap() > 1.0, "{method:?}");
        }
    }

    #[test]
    fn auto_takes_gmres_on_many_back_cells_and_the_direct_solve_on_few() {
        let rules = Rules::default();
        for (size, jumps, direct) in [(10_000, 2_000, false), (10_000, 500, true)] {
            let spec =
                RandomBoard { size, snakes: jumps / 2, ladders: jumps / 2, seed: 0, min_jump: 1 }
                    .spec(&rules);
            let chain = TurnChain::new(&Board::new(&spec, &rules).unwrap(), &rules);
            let solver = Solver::new(&chain, Method::Auto, MAX_BACK_CELLS, &Budget::unlimited());
            assert_eq!(matches!(solver.reduced, Reduced::Dense { .. }), direct, "{jumps}");
        }
    }

    /// A dense 3×3 check of both solves against a hand-computed inverse.
    #[test]
    fn the_gth_factors_solve_both_ways() {
        // B = [[0, .5, .25], [.5, 0, 0], [.25, .25, .25]]; exits .25, .5, .25.
        let b = vec![0.0, 0.5, 0.25, 0.5, 0.0, 0.0, 0.25, 0.25, 0.25];
        let lu = Lu::factor(b.clone(), vec![0.25, 0.5, 0.25], 3, &Budget::unlimited()).unwrap();
        let u = lu.solve(&[1.0, 2.0, 3.0]);
        // Check (I − B) u = rhs.
        for i in 0..3 {
            let r = u[i] - (0..3).map(|j| b[i * 3 + j] * u[j]).sum::<f64>();
            assert!((r - [1.0, 2.0, 3.0][i]).abs() < 1e-14, "{u:?}");
        }
        let z = lu.solve_transposed(&[1.0, 2.0, 3.0]);
        for j in 0..3 {
            let r = z[j] - (0..3).map(|i| b[i * 3 + j] * z[i]).sum::<f64>();
            assert!((r - [1.0, 2.0, 3.0][j]).abs() < 1e-14, "{z:?}");
        }
    }
}
