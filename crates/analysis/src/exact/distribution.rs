//! The distribution of the number of turns one token takes to finish, by forward propagation of
//! its position's distribution, turn after turn.

use super::{chain::TurnChain, solver::Class};

/// How many turns one token takes to finish: `P(T ≤ k)` for `k = 0, 1, …` until less than the
/// tail (1e-12 by default) of the mass that can still finish is left.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnDistribution {
    /// Index k: P(T ≤ k).
    cdf: Vec<f64>,
    /// Index k: P(T > k), mass that has not finished after k turns (including mass that never
    /// will), tracked on its own so that small values keep their relative accuracy.
    survival: Vec<f64>,
    /// Index k: the expected number of rolls in turn k + 1 counting 0 for a finished token,
    /// E[rolls in turn k+1; T > k].
    rolls: Vec<f64>,
    /// Mass that could still finish when the propagation stopped.
    residual: f64,
    /// Whether the propagation reached the tail (false when it ran out of its work budget).
    complete: bool,
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
    /// the work budget ran out first (huge boards with very long games).
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// The smallest k with `P(T ≤ k) ≥ q`, or `None` if the token finishes with probability
    /// below q (or the computed turns do not reach q).
    ///
    /// Computed values are compared with a margin of 1e-12, the resolution of the
    /// distribution, so that a quantile that is exactly reached is not missed by rounding.
    pub fn quantile(&self, q: f64) -> Option<u32> {
        let k = self.cdf.partition_point(|&p| p < q - 1e-12);
        (k < self.cdf.len()).then_some(k as u32)
    }

    /// The median: the smallest k with `P(T ≤ k) ≥ ½`.
    pub fn median(&self) -> Option<u32> {
        self.quantile(0.5)
    }

    /// The most likely number of turns (the smallest if several tie), `None` if the token never
    /// finishes.
    pub fn mode(&self) -> Option<u32> {
        let mut best: Option<(usize, f64)> = None;
        for k in 1..self.cdf.len() {
            let p = self.probability(k);
            if p > 0.0 && best.is_none_or(|(_, b)| p > b) {
                best = Some((k, p));
            }
        }
        best.map(|(k, _)| k as u32)
    }

    /// The fewest turns with a positive probability of finishing.
    pub fn min(&self) -> Option<u32> {
        (1..self.cdf.len()).find(|&k| self.cdf[k] > 0.0).map(|k| k as u32)
    }
}

/// Propagates the start's distribution turn by turn until less than `tail` of the mass that can
/// still finish is left, or `max_work` transitions have been followed.
///
/// Each turn pulls every position's new mass from the positions that move to it (the chain's
/// transposed rows), so the work per turn is one multiply-add per transition, without scattered
/// writes.
pub(crate) fn propagate(
    chain: &TurnChain,
    class: &[Class],
    tail: f64,
    max_work: u64,
) -> TurnDistribution {
    let n = chain.size() as usize;
    let start = chain.start() as usize;
    let incoming = Incoming::new(chain, class);
    let trap = class.contains(&Class::Trapped);
    let rolls: Vec<f64> = (0..n)
        .map(|b| if class[b] == Class::Unreached { 0.0 } else { chain.rolls(b as u32) })
        .collect();
    let mut now = vec![0.0; n + 1];
    let mut next = vec![0.0; n + 1];
    now[start] = 1.0;
    let mut live = if class[start] == Class::Live { 1.0 } else { 0.0 };
    let mut finished = 0.0;
    let mut cdf = vec![0.0];
    let mut survival = vec![1.0];
    let mut turn_rolls = Vec::new();
    let per_turn = incoming.sources.len() as u64 + 1;
    let mut work = 0_u64;
    while live >= tail && work < max_work {
        work += per_turn;
        turn_rolls.push(now[..n].iter().zip(&rolls).map(|(m, r)| m * r).sum());
        for (e, mass) in next.iter_mut().enumerate() {
            let r = incoming.offsets[e]..incoming.offsets[e + 1];
            *mass = incoming.probs[r.clone()]
                .iter()
                .zip(&incoming.sources[r])
                .map(|(p, &b)| p * now[b as usize])
                .sum();
        }
        // Cell N only collects: what reached it this turn has finished.
        finished += std::mem::take(&mut next[n]);
        std::mem::swap(&mut now, &mut next);
        let left: f64 = now.iter().sum();
        live = if trap {
            now.iter().zip(class).filter(|&(_, c)| *c == Class::Live).map(|(m, _)| m).sum()
        } else {
            left
        };
        cdf.push(finished);
        survival.push(left);
    }
    TurnDistribution { cdf, survival, rolls: turn_rolls, residual: live, complete: live < tail }
}

/// The chain's transitions grouped by where they lead, from reached positions only.
#[derive(Debug)]
struct Incoming {
    offsets: Vec<usize>,
    sources: Vec<u32>,
    probs: Vec<f64>,
}

impl Incoming {
    fn new(chain: &TurnChain, class: &[Class]) -> Incoming {
        let n = chain.size() as usize;
        let reached = |b: usize| class[b] != Class::Unreached;
        let mut offsets = vec![0_usize; n + 2];
        for b in (0..n).filter(|&b| reached(b)) {
            for (e, _) in chain.row(b as u32) {
                offsets[e as usize + 1] += 1;
            }
        }
        for i in 1..offsets.len() {
            offsets[i] += offsets[i - 1];
        }
        let mut fill = offsets.clone();
        let mut sources = vec![0_u32; offsets[n + 1]];
        let mut probs = vec![0.0; offsets[n + 1]];
        for b in (0..n).filter(|&b| reached(b)) {
            for (e, p) in chain.row(b as u32) {
                let slot = &mut fill[e as usize];
                sources[*slot] = b as u32;
                probs[*slot] = p;
                *slot += 1;
            }
        }
        Incoming { offsets, sources, probs }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dist(cdf: &[f64]) -> TurnDistribution {
        TurnDistribution {
            cdf: cdf.to_vec(),
            survival: cdf.iter().map(|p| 1.0 - p).collect(),
            rolls: vec![1.0; cdf.len() - 1],
            residual: 1.0 - cdf[cdf.len() - 1],
            complete: true,
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
