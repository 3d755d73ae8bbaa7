//! Quantiles of the turn count far past the turns propagated, by repeated squaring of the chain.
//!
//! Big dice on a small board (4d100 on 50 cells, 4d50 on 100) make games that last millions of
//! turns: most rolls overshoot, and a token waits near the end until the one total that fits
//! comes up. Every live position then keeps almost all its mass each turn, the distribution's
//! shape never settles on a geometric tail, and following it turn by turn to a 1e-12 tail would
//! take some 10^8 turns. A chain of a few hundred positions is small enough to square instead:
//! `K^(2^j)` for `j ≤ 31` costs 31 products of `n × n` matrices, after which `P(T ≤ k)` for any
//! `k < 2^32` is `O(n²)` per power of two in `k`, so each quantile is found by binary lifting
//! (the largest `k` with `P(T ≤ k) < q`, bit by bit, highest first). Every entry is a sum of
//! products of non-negative numbers, so nothing cancels: each squaring adds at most about
//! `n` ulps of relative error, some 1e-11 after 31, and a quantile could only move where
//! `P(T ≤ k)` is within that of its level.

use super::{chain::TurnChain, solver::Class};

/// Most reached positions whose chain is squared (31 products of 256 × 256 cost about 0.3 s).
pub(crate) const MAX_POSITIONS: usize = 256;

/// Powers of two squared: quantiles up to 2^32 − 1 turns.
const DOUBLINGS: usize = 32;

/// For each level `q`, the smallest `k` with `P(T ≤ k) ≥ q` (compared with a margin of 1e-12,
/// as [`TurnDistribution::quantile`](super::TurnDistribution::quantile) does), `None` when even
/// `2^32 − 1` turns do not reach it. `None` overall when the chain has more than
/// [`MAX_POSITIONS`] reached positions.
pub(crate) fn quantiles(
    chain: &TurnChain,
    class: &[Class],
    levels: &[f64],
) -> Option<Vec<Option<u32>>> {
    let n = chain.size() as usize;
    // Compact indices: the reached positions below N, then N.
    let mut index = vec![usize::MAX; n + 1];
    let mut count = 0;
    for b in (0..n).filter(|&b| class[b] != Class::Unreached) {
        index[b] = count;
        count += 1;
    }
    let finish = count;
    index[n] = finish;
    let m = count + 1;
    if m > MAX_POSITIONS {
        return None;
    }
    let mut step = vec![0.0; m * m];
    for b in (0..n).filter(|&b| class[b] != Class::Unreached) {
        for (e, p) in chain.row(b as u32) {
            step[index[b] * m + index[e as usize]] += p;
        }
    }
    step[finish * m + finish] = 1.0;
    let mut powers = vec![step];
    while powers.len() < DOUBLINGS {
        let last = &powers[powers.len() - 1];
        powers.push(product(last, last, m));
    }
    let start = index[chain.start() as usize];
    let answers = levels
        .iter()
        .map(|&q| {
            // The largest `turns` with P(T ≤ turns) < q, bit by bit from the highest.
            let mut v = vec![0.0; m];
            v[start] = 1.0;
            let mut turns = 0_u64;
            for (j, power) in powers.iter().enumerate().rev() {
                let w = row_times(&v, power, m);
                if w[finish] < q - 1e-12 {
                    v = w;
                    turns += 1 << j;
                }
            }
            let next = row_times(&v, &powers[0], m);
            (next[finish] >= q - 1e-12).then(|| u32::try_from(turns + 1).ok()).flatten()
        })
        .collect();
    Some(answers)
}

/// `a · b` for `m × m` row-major matrices (rows of `b` added in, so the inner loop is a
/// contiguous multiply-add the compiler vectorises).
fn product(a: &[f64], b: &[f64], m: usize) -> Vec<f64> {
    let mut c = vec![0.0; m * m];
    for (row_a, row_c) in a.chunks_exact(m).zip(c.chunks_exact_mut(m)) {
        for (&x, row_b) in row_a.iter().zip(b.chunks_exact(m)) {
            if x != 0.0 {
                for (t, &y) in row_c.iter_mut().zip(row_b) {
                    *t += x * y;
                }
            }
        }
    }
    c
}

/// `v · a` for a row vector `v` and an `m × m` row-major matrix.
fn row_times(v: &[f64], a: &[f64], m: usize) -> Vec<f64> {
    let mut w = vec![0.0; m];
    for (&x, row) in v.iter().zip(a.chunks_exact(m)) {
        if x != 0.0 {
            for (t, &y) in w.iter_mut().zip(row) {
                *t += x * y;
            }
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::super::{QUANTILES, analyze, solver::classify};
    use super::*;
    use snl_engine::{Board, Preset, Rules};

    #[test]
    fn quantiles_by_squaring_are_those_of_the_propagated_distribution() {
        let mut compared = 0;
        for (preset, dice, rules) in [
            (Preset::Kids, "3d20", "standard"),
            (Preset::Kids, "2d20", "strict-sixes"),
            (Preset::Classic, "2d50", "standard"),
            (Preset::Classic, "1d6", "three-sixes"),
            (Preset::MiltonBradley, "4d6", "bonus-six"),
        ] {
            let rules = Rules { dice: dice.parse().unwrap(), ..Rules::named(rules).unwrap() };
            let Ok(board) = Board::new(&preset.spec(), &rules) else { continue };
            let analysis = analyze(&board, &rules).unwrap();
            let chain = TurnChain::new(&board, &rules);
            let squared = quantiles(&chain, &classify(&chain), &QUANTILES).unwrap();
            for (&q, &k) in QUANTILES.iter().zip(&squared) {
                if let Some(want) = analysis.distribution.quantile(q) {
                    assert_eq!(k, Some(want), "{preset} {rules} {q}");
                    compared += 1;
                }
            }
        }
        assert!(compared >= 20, "{compared}");
    }

    #[test]
    fn a_board_too_large_to_square_has_no_far_quantiles() {
        let rules = Rules::default();
        let spec =
            snl_engine::RandomBoard { size: 1000, snakes: 10, ladders: 10, seed: 1, min_jump: 1 }
                .spec(&rules);
        let chain = TurnChain::new(&Board::new(&spec, &rules).unwrap(), &rules);
        assert!(quantiles(&chain, &classify(&chain), &[0.5]).is_none());
    }
}
