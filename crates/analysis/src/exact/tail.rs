// Long on purpose: the tail's a posteriori bound (plain and double-double) and its derivation belong with the code they justify; split, the proof would be read apart from what it proves.
//! The geometric tail of the turn distribution: once the position's distribution has taken the
//! shape it keeps for the rest of the game, every later turn loses the same share of it, and the
//! turns left until less than 1e-12 remains follow in O(1) each instead of a pass over the board.
//!
//! # Why the tail is geometric
//!
//! Let `Q` be the chain restricted to the live positions (those that can still finish), `v_k`
//! the live part of the distribution after `k` turns and `L_k = v_k · 1` its mass. Past the
//! first few hundred turns `v_k / L_k` settles on the quasi-stationary distribution, the left
//! eigenvector of `Q`'s dominant eigenvalue `λ`: from then on `v_{k+1} = λ v_k`, each turn finishes
//! the same share of the mass still live and sends the same share into traps. A 10^4-cell board
//! needs some 28,000 turns to go below 1e-12 but takes that shape after about 1,100.
//!
//! # Why it stays exact: an a posteriori bound
//!
//! After turn `k + 1` has been propagated, take `λ = L_{k+1} / L_k` and measure how far the board
//! is from that shape, `r = ‖v_{k+1} − λ v_k‖₁` (the residual of `v_k` as an eigenvector). The
//! tail replaces every later live part by `λ^j v_k` and keeps everything else exact: what
//! finishes or falls into a trap from it, and what the traps do. Writing `x_j` for that model's
//! state on all positions (cell N and traps included) and `y_j = v_k K^j` for the exact one,
//! `x_{j+1} = x_j K − λ^j R` with `R = v_k Q − λ v_k`, so
//!
//! ```text
//! y_j − x_j = Σ_{i<j} λ^i R K^{j−1−i}   and   ‖y_j − x_j‖₁ ≤ Σ_i λ^i ‖R‖₁ ≤ r / (1 − λ)
//! ```
//!
//! because `K` is stochastic, so no row vector grows under it in the 1-norm. Every mass the
//! distribution reports for every later turn (finished, `P(T ≤ k)`; not finished, `P(T > k)`;
//! live; trapped) is therefore within `ε = r / (1 − λ)` of what propagating every turn would
//! give. `r` is first measured on the step's own product, whose rounding is allowed for as a
//! few ulps of `L_k`; in long games that allowance, divided by `1 − λ`, alone can exceed
//! 1e-12 (a game of 7,300 turns on 10^5 cells never passed, one of 2,100 passed 400 turns after
//! its shape had settled), so when only the allowance stands in the way, `r` is measured again
//! from the chain's rows in double-double arithmetic, which needs none. Without traps the
//! measurement goes further ([`Refined`]): `λ` itself is taken in double-double, and the few
//! ulps of rounding every stored mass carries, which no `λ` removes and which alone kept a game
//! of 7,300 turns waiting some 1,900 turns for `P(T ≤ k)` to grow past them, are smoothed by a few
//! turns of the chain before they are counted. The tail is only
//! used when `ε ≤ 1e-12 · P(T ≤ k + 1)`: every later `P(T ≤ k)` is then within 1e-12 relative of
//! full propagation, a thousand times inside the 1e-9 the specification promises. Nothing is
//! assumed about the chain (not even that a dominant eigenvalue exists): when the shape never
//! settles (a periodic board, a board so long that rounding hides it), `r` stays large and every
//! turn is propagated as before.
//!
//! Figures built from the distribution inherit that bound. A seat's chance to finish first moves
//! by at most ε per seat: swapping one seat's distribution for one whose every `P(T ≤ k)` is
//! within ε changes the chance of an event "`T` at most a threshold set by the other seats" by at
//! most ε. The expected length of a game of `n` seats sums such chances over the `J` turns past
//! the cut, so it moves by at most `n ε J`; under finish first each turn's term is weighted by
//! the chance that every other seat is still playing, which brings it down to
//! `n ε Σ_k P(T > k)^(n−1) ≤ n ε (E[T] + 1)`. On the 10^4-cell board (ε = 6e-13, `J` = 27,525,
//! four seats, games of 1,347 turns) that is at most 5e-11 relative, 2e-12 under finish first.
//! The tests comparing both ways (`tests/analysis/exact_tail.rs`) hold every one of these figures
//! to 1e-12 relative; the largest difference seen is 2e-13.

use super::solver::Class;

/// Relative accuracy the tail must keep on `P(T ≤ k)` (see the module documentation).
pub(super) const TOLERANCE: f64 = 1e-12;

/// The ratio of successive live masses must have settled this well before the residual is
/// measured (a cheap filter; the residual alone decides).
pub(super) const SETTLED: f64 = 1e-10;

/// When to measure the residual next. A measurement costs two passes over the board, a third
/// of a turn, so it is not made every turn: from how fast the bound fell between the last two
/// measurements, the next is planned shortly before the bound should pass.
#[derive(Debug)]
pub(super) struct Schedule {
    /// The turn of the next measurement.
    next: usize,
    /// Turns to the next measurement when nothing better is known.
    gap: usize,
    /// The last measurement: turn and how far the bound was from passing.
    last: Option<(usize, f64)>,
}

/// Fewest and most turns between two measurements.
const GAPS: (usize, usize) = (4, 256);

impl Schedule {
    pub(super) fn new() -> Schedule {
        Schedule { next: 0, gap: GAPS.0, last: None }
    }

    /// Whether to measure at `turn`.
    pub(super) fn due(&self, turn: usize) -> bool {
        turn >= self.next
    }

    /// The measurement at `turn` found the bound `miss` times too large.
    pub(super) fn missed(&mut self, turn: usize, miss: f64) {
        let gap = match self.last {
            // The bound falls geometrically with the second eigenvalue: plan for four fifths of
            // the turns it should take to pass.
            Some((at, was)) if miss < was && miss.is_finite() && turn > at => {
                let per_turn = (was / miss).ln() / (turn - at) as f64;
                (0.8 * miss.ln() / per_turn).ceil() as usize
            }
            _ => self.gap * 2,
        };
        self.gap = gap.clamp(GAPS.0, GAPS.1);
        self.last = Some((turn, miss));
        self.next = turn + self.gap;
    }
}

/// The trapped positions (live positions' moves into them and their own moves), which the tail
/// keeps following exactly: trapped tokens move on for ever among a few cells.
#[derive(Debug, Default)]
pub(super) struct Traps {
    /// The trapped positions; index i in the compact vectors below is `cells[i]`.
    cells: Vec<u32>,
    /// Moves from a trapped position to another, compact indices.
    inner: Vec<(u32, u32, f64)>,
    /// Moves from a live position (board index) into a trapped one (compact index).
    inflow: Vec<(u32, u32, f64)>,
}

impl Traps {
    pub(super) fn new(chain: &super::TurnChain, class: &[Class]) -> Traps {
        let cells: Vec<u32> =
            (0..chain.size()).filter(|&b| class[b as usize] == Class::Trapped).collect();
        if cells.is_empty() {
            return Traps::default();
        }
        let mut compact = vec![u32::MAX; class.len()];
        for (i, &c) in cells.iter().enumerate() {
            compact[c as usize] = i as u32;
        }
        let mut inner = Vec::new();
        let mut inflow = Vec::new();
        for b in 0..chain.size() {
            match class[b as usize] {
                Class::Trapped => inner.extend(
                    chain.row(b).map(|(e, p)| (compact[b as usize], compact[e as usize], p)),
                ),
                Class::Live => inflow.extend(
                    chain
                        .row(b)
                        .filter(|&(e, _)| class[e as usize] == Class::Trapped)
                        .map(|(e, p)| (b, compact[e as usize], p)),
                ),
                Class::Unreached | Class::Finish => {}
            }
        }
        Traps { cells, inner, inflow }
    }

    /// The moves the tail follows each turn.
    pub(super) fn moves(&self) -> usize {
        self.inner.len()
    }
}

/// The state of the extrapolated tail: the live part is `live · u` for a fixed shape `u`, what
/// it sends each turn to cell N and to the traps is fixed per unit of live mass, and the trapped
/// mass moves on exactly.
#[derive(Debug)]
pub(super) struct Tail<'t> {
    traps: &'t Traps,
    /// `λ`: the share of the live mass still live after one more turn, as `ratio + ratio_lo`
    /// (`ratio_lo` is 0 unless the residual was measured in double-double arithmetic).
    ratio: f64,
    ratio_lo: f64,
    /// Share of the live mass finishing each turn.
    finishing: f64,
    /// Expected rolls of a turn begun by a unit of live mass.
    rolls: f64,
    /// Per unit of live mass, what enters each trapped position each turn.
    inflow: Vec<f64>,
    /// Mass on each trapped position.
    trapped: Vec<f64>,
    next: Vec<f64>,
    /// Expected rolls of a turn begun on each trapped position.
    trap_rolls: Vec<f64>,
    /// Live mass now, as `live + live_lo` (`live_lo` stays 0 when `ratio_lo` is).
    live: f64,
    live_lo: f64,
    /// The bound ε on every later mass (see the module documentation).
    bound: f64,
}

/// What [`Tail::try_cut`] needs to know about the turn just propagated, `now · K = next`.
pub(super) struct Turn<'a> {
    /// The chain `K`, whose rows give the residual exactly when the step's rounding is in doubt.
    pub(super) chain: &'a super::TurnChain,
    /// The distribution before the turn, on 0..=N (N empty).
    pub(super) now: &'a [f64],
    /// The distribution after the turn, on 0..=N (N emptied into `finished`).
    pub(super) next: &'a [f64],
    /// 1 on live positions, 0 elsewhere; `None` when every reached position below N is live.
    pub(super) live_mask: Option<&'a [f64]>,
    /// Live mass of `now` and `next` (summed in lanes: right to a few ulps per hundred cells).
    pub(super) live_before: f64,
    pub(super) live_after: f64,
    /// Mass that reached N in this turn.
    pub(super) gained: f64,
    /// `P(T ≤ k + 1)`.
    pub(super) finished: f64,
    /// Expected rolls of a turn begun on each position (0 where never reached).
    pub(super) rolls: &'a [f64],
    /// Whether every turn is one roll (then the rolls of a turn are the live mass).
    pub(super) one_roll: bool,
    /// The step `now · K` on 0..=N, for vectors of any sign.
    pub(super) apply: &'a dyn Fn(&[f64], &mut [f64]),
}

impl std::fmt::Debug for Turn<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Turn").field("finished", &self.finished).finish_non_exhaustive()
    }
}

impl<'t> Tail<'t> {
    /// The tail from the turn `now → next`, if the residual bound shows that the extrapolation
    /// keeps every later `P(T ≤ k)` within [`TOLERANCE`] relative; otherwise how far the bound
    /// is from that (a factor above 1, for [`Schedule`]).
    pub(super) fn try_cut(turn: &Turn<'_>, traps: &'t Traps) -> Result<Tail<'t>, f64> {
        let n = turn.now.len() - 1;
        let (now, next) = (&turn.now[..n], &turn.next[..n]);
        let before = turn.live_before;
        // Nothing finished yet, or nothing left to lose (NaN included).
        let losing = turn.live_after < before;
        if turn.finished <= 0.0 || before <= 0.0 || !losing {
            return Err(f64::INFINITY);
        }
        // λ: the masses' ratio, corrected by Σ (next − λ₀ now), a sum of terms as small as the
        // residual, so that rounding in the masses does not show up in the residual.
        let rough = turn.live_after / before;
        let ratio = rough
            + match turn.live_mask {
                None => sum_by(now, next, |m, x| x - rough * m),
                Some(mask) => {
                    now.iter().zip(next).zip(mask).map(|((m, x), k)| k * (x - rough * m)).sum()
                }
            } / before;
        let residual: f64 = match turn.live_mask {
            None => sum_by(now, next, |m, x| (x - ratio * m).abs()),
            Some(mask) => {
                now.iter().zip(next).zip(mask).map(|((m, x), k)| k * (x - ratio * m).abs()).sum()
            }
        };
        // The step's own rounding: a few ulps of every mass it moved.
        let rounding = 4.0 * f64::EPSILON * before;
        let miss = |residual: f64| {
            let bound = residual / (1.0 - ratio);
            let miss =
                if ratio < 1.0 { bound / (TOLERANCE * turn.finished) } else { f64::INFINITY };
            (bound, miss)
        };
        let (mut bound, mut missed) = miss(residual + rounding);
        let (mut ratio, mut ratio_lo, mut before) = (ratio, 0.0, before);
        if missed > 1.0 && turn.live_mask.is_none() && turn.one_roll {
            // Without traps, the rounding in the distribution itself (a few ulps per cell,
            // which no λ removes) is smoothed by the chain: measure the residual again in
            // double-double and bound what it does over the turns to come (see `refined`).
            if miss(residual - rounding).1 <= REFINE_WITHIN {
                let refined = Refined::measure(turn);
                let target = TOLERANCE * turn.finished;
                missed = refined.bound / target;
                if missed <= 1.0 {
                    bound = refined.bound;
                    (ratio, ratio_lo) = refined.ratio;
                    before = refined.mass;
                }
            }
        } else if missed > 1.0 && miss(residual - rounding).1 <= 1.0 {
            // When only that allowance for rounding stands in the way (long games, where 1 − λ
            // is small, hit it before the shape has settled to 1e-12), measure the residual
            // again, from the chain's rows in twice the precision: then no allowance is needed.
            (bound, missed) = miss(exact_residual(turn, ratio));
        }
        if missed > 1.0 {
            return Err(missed);
        }
        let rolls = match turn.live_mask {
            None => dot(now, &turn.rolls[..n]),
            Some(mask) => now.iter().zip(mask).zip(turn.rolls).map(|((m, k), r)| m * k * r).sum(),
        };
        let mut inflow = vec![0.0; traps.cells.len()];
        for &(b, t, p) in &traps.inflow {
            inflow[t as usize] += turn.now[b as usize] * p / before;
        }
        let trapped: Vec<f64> = traps.cells.iter().map(|&c| turn.next[c as usize]).collect();
        let trap_rolls = traps.cells.iter().map(|&c| turn.rolls[c as usize]).collect();
        let (live, live_lo) = two_product(ratio, before);
        Ok(Tail {
            traps,
            ratio,
            ratio_lo,
            finishing: turn.gained / before,
            rolls: rolls / before,
            inflow,
            next: vec![0.0; trapped.len()],
            trapped,
            trap_rolls,
            // The model's live mass after the turn (`live_after` up to rounding).
            live,
            live_lo: if ratio_lo == 0.0 { 0.0 } else { live_lo },
            bound,
        })
    }

    /// The bound ε on every mass reported past the cut.
    pub(super) fn bound(&self) -> f64 {
        self.bound
    }

    /// Live mass now.
    pub(super) fn live(&self) -> f64 {
        self.live
    }

    /// `λ` as `(hi, lo)` (`lo` is 0 unless it was measured in double-double).
    pub(super) fn ratio(&self) -> (f64, f64) {
        (self.ratio, self.ratio_lo)
    }

    /// The share of the live mass that finishes each turn.
    pub(super) fn finishing(&self) -> f64 {
        self.finishing
    }

    /// Multiply-adds of one [`advance`](Tail::advance): a few for the live mass and what
    /// finishes, and the trapped positions' own moves.
    pub(super) fn work(&self) -> u64 {
        (TURN_WORK + self.trapped.len() + self.traps.inner.len()) as u64
    }

    /// Expected rolls of the coming turn (0 for finished tokens).
    pub(super) fn turn_rolls(&self) -> f64 {
        self.live * self.rolls + dot(&self.trapped, &self.trap_rolls)
    }

    /// Plays one turn; returns the mass that finished in it and the mass left unfinished.
    pub(super) fn advance(&mut self) -> (f64, f64) {
        let gained = self.live * self.finishing;
        if !self.trapped.is_empty() {
            for (x, g) in self.next.iter_mut().zip(&self.inflow) {
                *x = self.live * g;
            }
            for &(b, e, p) in &self.traps.inner {
                self.next[e as usize] += p * self.trapped[b as usize];
            }
            std::mem::swap(&mut self.trapped, &mut self.next);
        }
        if self.ratio_lo == 0.0 {
            self.live *= self.ratio;
        } else {
            // λ^j in double-double: a λ rounded to double would be off by half an ulp, which
            // over the 1 / (1 − λ) turns of a long tail grows past the bound.
            let (h, l) = two_product(self.live, self.ratio);
            let l = l + (self.live * self.ratio_lo + self.live_lo * self.ratio);
            (self.live, self.live_lo) = fast_two_sum(h, l);
        }
        (gained, self.live + self.trapped.iter().sum::<f64>())
    }
}

/// Multiply-adds of a turn from the tail without traps (the live mass in double-double, what
/// finishes, the rolls).
const TURN_WORK: usize = 16;

/// `r = ‖v_k K − λ v_k‖₁` on the live positions, with `v_k K` from the chain's rows in
/// double-double arithmetic (error-free products and sums): accurate to about 1e-30 of the
/// masses moved, where the step's own product (`turn.next`) is only accurate to a few ulps. The
/// result is rounded up by the few ulps its final sum may lose, so it bounds the true residual.
fn exact_residual(turn: &Turn<'_>, ratio: f64) -> f64 {
    let chain = turn.chain;
    let n = chain.size() as usize;
    let live = |c: usize| c < n && turn.live_mask.is_none_or(|mask| mask[c] > 0.0);
    // v_k K as hi + lo per position.
    let mut hi = vec![0.0; n];
    let mut lo = vec![0.0; n];
    for (b, &m) in turn.now[..n].iter().enumerate() {
        if m == 0.0 || !live(b) {
            continue;
        }
        for (e, p) in chain.row(b as u32) {
            let e = e as usize;
            if !live(e) {
                continue;
            }
            let (ph, pl) = two_product(p, m);
            let (s, err) = two_sum(hi[e], ph);
            hi[e] = s;
            lo[e] += err + pl;
        }
    }
    let mut residual = 0.0;
    let mut terms = 0_u32;
    for e in (0..n).filter(|&e| live(e)) {
        let (qh, ql) = two_product(ratio, turn.now[e]);
        let (d, err) = two_sum(hi[e], -qh);
        residual += (d + (err + (lo[e] - ql))).abs();
        terms += 1;
    }
    // Summing `terms` non-negative numbers loses at most `terms` half-ulps of the total; each
    // term is exact to a few ulps of itself plus ~1e-31 of the masses (`before` bounds them).
    residual * (1.0 + f64::from(terms + 4) * f64::EPSILON)
        + 64.0 * f64::EPSILON * f64::EPSILON * turn.live_before
}

/// When the bound from the step's own product misses by at most this factor (its rounding
/// allowance aside), it is measured again by [`Refined::measure`].
const REFINE_WITHIN: f64 = 1.0;

/// Most turns over which [`Refined::measure`] follows the residual (each a step over the board).
const MAX_SMOOTHING: usize = 4;

/// The tail's bound measured without the rounding of the distribution getting in the way.
///
/// With `x = v_k` the live distribution as stored (doubles), `λ = (x Q · 1) / (x · 1)` and
/// `R = x Q − λ x`, both in double-double arithmetic, the error of every reported mass `J` turns
/// past the cut is `E_J = Σ_{i<J} λ^i R K^{J−1−i}` (module documentation). Without traps, what
/// `R` sends to N within `T` turns is `R · 1 − R Q^T · 1` (K keeps mass), and what it leaves live
/// is `R Q^T · 1`, so both errors are at most
///
/// ```text
/// ε = (|R · 1| + ‖R Q^s‖₁) / (1 − λ) + s ‖R‖₁      for any s ≥ 0
/// ```
///
/// (the `s` most recent terms bounded by `‖R‖₁`, the others by `‖R Q^s‖₁` since `Q` keeps no
/// row vector from shrinking... in the 1-norm: it never grows one). `R · 1` is about 1e-32 of the
/// mass with `λ` in double-double, and the ulps of rounding that make up most of `R` once the
/// shape has settled cancel within a few turns of the chain, so `‖R Q^s‖₁` falls far below
/// `‖R‖₁`: the tail is taken as soon as the shape itself has settled, not when `P(T ≤ k)` has
/// grown past a floor set by rounding. `R Q^s` is computed by the step in doubles (its rounding,
/// a few ulps of `‖R‖₁` per turn, is added).
struct Refined {
    /// ε (above), the smallest over `s`.
    bound: f64,
    /// λ in double-double.
    ratio: (f64, f64),
    /// `x · 1`.
    mass: f64,
}

impl Refined {
    fn measure(turn: &Turn<'_>) -> Refined {
        let chain = turn.chain;
        let n = chain.size() as usize;
        let x = &turn.now[..n];
        // x Q as hi + lo per position (below N: what reaches N has left Q).
        let mut hi = vec![0.0; n + 1];
        let mut lo = vec![0.0; n + 1];
        for (b, &m) in x.iter().enumerate() {
            if m == 0.0 {
                continue;
            }
            for (e, p) in chain.row(b as u32) {
                let e = e as usize;
                if e < n {
                    let (ph, pl) = two_product(p, m);
                    let (s, err) = two_sum(hi[e], ph);
                    hi[e] = s;
                    lo[e] += err + pl;
                }
            }
        }
        let (mut after, mut mass) = ((0.0, 0.0), (0.0, 0.0));
        for e in 0..n {
            after = dd_add(dd_add(after, hi[e]), lo[e]);
            mass = dd_add(mass, x[e]);
        }
        let ratio = dd_div(after, mass);
        // R rounded to doubles, into `hi`; its 1-norm and sum.
        let (mut norm, mut sum) = (0.0, 0.0);
        for e in 0..n {
            let (qh, ql) = two_product(ratio.0, x[e]);
            let ql = ql + ratio.1 * x[e];
            let (d, err) = two_sum(hi[e], -qh);
            let r = d + (err + (lo[e] - ql));
            hi[e] = r;
            norm += r.abs();
            sum += r;
        }
        hi[n] = 0.0;
        let eps = f64::EPSILON;
        let terms = (n + 4) as f64 * eps;
        // What rounding R to doubles and the double-double products left out, as a mass.
        let dropped = 2.0 * eps * norm + 64.0 * eps * eps * mass.0;
        let norm = norm * (1.0 + terms) + dropped;
        let sum = sum.abs() + terms * norm + dropped;
        // 1 / (1 − λ), rounded up; no bound unless λ < 1.
        let gap = 1.0 - ratio.0 - ratio.1;
        let scale = if gap > 0.0 { (1.0 + 4.0 * eps) / gap } else { f64::INFINITY };
        let target = TOLERANCE * turn.finished;
        let mut bound = norm * scale;
        let mut w = hi;
        let mut next = lo;
        for s in 1..=MAX_SMOOTHING {
            if bound <= target || s as f64 * norm >= target {
                break;
            }
            (turn.apply)(&w, &mut next);
            next[n] = 0.0;
            std::mem::swap(&mut w, &mut next);
            // The step's rounding: a few ulps of the mass it moved, at most ‖R‖₁ each turn;
            // and what R lost to its rounding to doubles, which the chain does not grow.
            let smoothed = w.iter().map(|v| v.abs()).sum::<f64>() * (1.0 + terms)
                + 32.0 * eps * norm * s as f64
                + dropped;
            bound = bound.min((sum + smoothed) * scale + s as f64 * norm);
        }
        let bound = if gap > 0.0 && bound.is_finite() { bound } else { f64::INFINITY };
        Refined { bound, ratio, mass: mass.0 + mass.1 }
    }
}

/// `(a.0 + a.1) + b` in double-double.
fn dd_add(a: (f64, f64), b: f64) -> (f64, f64) {
    let (s, e) = two_sum(a.0, b);
    fast_two_sum(s, e + a.1)
}

/// `a / b` in double-double (b > 0).
fn dd_div(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    let q = a.0 / b.0;
    // a − q b, exactly enough: q b as a double-double product.
    let (ph, pl) = two_product(q, b.0);
    let rest = ((a.0 - ph) - pl + a.1 - q * b.1) / b.0;
    fast_two_sum(q, rest)
}

/// `a + b` as `s + e` exactly, when `|a| ≥ |b|`.
fn fast_two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    (s, b - (s - a))
}

/// `a · b` as `h + l` exactly (the fused multiply-add computes `l` without rounding `a · b`).
fn two_product(a: f64, b: f64) -> (f64, f64) {
    let h = a * b;
    (h, a.mul_add(b, -h))
}

/// `a + b` as `s + e` exactly (Knuth's `TwoSum`).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let v = s - a;
    (s, (a - (s - v)) + (b - v))
}

/// `Σ f(a_i, b_i)` in eight independent lanes, which the compiler vectorises (a single running
/// sum would wait on each addition in turn).
pub(super) fn sum_by(a: &[f64], b: &[f64], f: impl Fn(f64, f64) -> f64) -> f64 {
    const LANES: usize = 8;
    let len = a.len().min(b.len());
    let (a, b) = (&a[..len], &b[..len]);
    let mut acc = [0.0; LANES];
    let (ca, cb) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for i in 0..LANES {
            acc[i] += f(x[i], y[i]);
        }
    }
    let mut total =
        ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (&x, &y) in ra.iter().zip(rb) {
        total += f(x, y);
    }
    total
}

/// `a · b`, vectorised.
pub(super) fn dot(a: &[f64], b: &[f64]) -> f64 {
    sum_by(a, b, |x, y| x * y)
}
