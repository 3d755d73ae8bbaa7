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
/// still finish is left, or `max_work` position updates have been spent.
pub(crate) fn propagate(
    chain: &TurnChain,
    class: &[Class],
    tail: f64,
    max_work: u64,
) -> TurnDistribution {
    let n = chain.size() as usize;
    let start = chain.start() as usize;
    let (targets, probs) = (chain.targets(), chain.probs());
    let mut now = vec![0.0; n + 1];
    let mut next = vec![0.0; n + 1];
    now[start] = 1.0;
    let (mut lo, mut hi) = (start, start);
    let mut live = if class[start] == Class::Live { 1.0 } else { 0.0 };
    let mut finished = 0.0;
    let mut cdf = vec![0.0];
    let mut survival = vec![1.0];
    let mut rolls = Vec::new();
    let mut work = 0_u64;
    while live >= tail && work <= max_work {
        let (mut new_lo, mut new_hi) = (usize::MAX, 0);
        let (mut left, mut new_live, mut turn_rolls) = (0.0, 0.0, 0.0);
        for b in lo..=hi {
            let mass = std::mem::take(&mut now[b]);
            if mass == 0.0 {
                continue;
            }
            turn_rolls += mass * chain.rolls(b as u32);
            let range = chain.range(b as u32);
            work += range.len() as u64;
            for i in range {
                let e = targets[i] as usize;
                let m = mass * probs[i];
                if e == n {
                    finished += m;
                    continue;
                }
                next[e] += m;
                left += m;
                if class[e] == Class::Live {
                    new_live += m;
                }
                new_lo = new_lo.min(e);
                new_hi = new_hi.max(e);
            }
        }
        work += (hi - lo + 1) as u64;
        rolls.push(turn_rolls);
        cdf.push(finished);
        survival.push(left);
        live = new_live;
        std::mem::swap(&mut now, &mut next);
        if new_lo > new_hi {
            break;
        }
        (lo, hi) = (new_lo, new_hi);
    }
    TurnDistribution { cdf, survival, rolls, residual: live, complete: live < tail }
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
