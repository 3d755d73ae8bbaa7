//! The dice are fair: chi-square goodness of fit over 600,000 rolls (SPEC §8, issue 2).

use snl_engine::{Dice, RollSource, SeededDice};

/// Pearson's chi-square statistic of `observed` counts against `expected` probabilities.
fn chi_square(observed: &[u64], expected: &[f64]) -> f64 {
    let n: u64 = observed.iter().sum();
    observed
        .iter()
        .zip(expected)
        .map(|(&o, &p)| {
            let e = p * n as f64;
            (o as f64 - e).powi(2) / e
        })
        .sum()
}

// Critical values of the chi-square distribution at significance 0.001 (any statistics table,
// e.g. NIST/SEMATECH e-Handbook of Statistical Methods, table 1.3.6.7.4).
const CRITICAL_5_DF: f64 = 20.515;
const CRITICAL_10_DF: f64 = 29.588;
const CRITICAL_19_DF: f64 = 43.820;

fn counts(dice: Dice, rolls: usize, seed: u64) -> Vec<u64> {
    let mut source = SeededDice::new(seed);
    let mut counts = vec![0_u64; dice.top_total() as usize + 1];
    for _ in 0..rolls {
        counts[source.roll(0, dice).unwrap().total() as usize] += 1;
    }
    counts
}

#[test]
fn each_face_of_1d6_is_equally_likely_over_600000_rolls() {
    let c = counts(Dice::D6, 600_000, 2024);
    let stat = chi_square(&c[1..], &[1.0 / 6.0; 6]);
    assert!(stat < CRITICAL_5_DF, "chi-square {stat} with counts {c:?}");
}

#[test]
fn the_2d6_sum_follows_the_triangle_over_600000_rolls() {
    let dice = Dice::new(2, 6).unwrap();
    let c = counts(dice, 600_000, 77);
    let ways = dice.total_weights();
    let p: Vec<f64> = ways[2..].iter().map(|&w| w as f64 / 36.0).collect();
    let stat = chi_square(&c[2..], &p);
    assert!(stat < CRITICAL_10_DF, "chi-square {stat} with counts {c:?}");
}

#[test]
fn a_d20_is_fair_too_where_modulo_would_be_biased() {
    let dice = Dice::new(1, 20).unwrap();
    let c = counts(dice, 600_000, 5);
    let stat = chi_square(&c[1..], &[1.0 / 20.0; 20]);
    assert!(stat < CRITICAL_19_DF, "chi-square {stat} with counts {c:?}");
}

#[test]
fn the_statistic_does_catch_a_biased_die() {
    // A modulo-biased "die": (byte % 6) + 1 favours 1..4 over 5 and 6 (256 = 42·6 + 4).
    let c: Vec<u64> = {
        let mut c = vec![0_u64; 6];
        for i in 0..600_000_u32 {
            let byte = (i.wrapping_mul(2_654_435_761) >> 24) as u8;
            c[(byte % 6) as usize] += 1;
        }
        c
    };
    assert!(chi_square(&c, &[1.0 / 6.0; 6]) > CRITICAL_5_DF);
}
