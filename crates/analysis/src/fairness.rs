//! Are these dice fair? Each face's count against its expectation, Pearson's chi-square test and
//! its p-value: the chance that fair dice give counts at least this far from even.
//!
//! ```
//! use snl_analysis::fairness::FaceCounts;
//!
//! let mut counts = FaceCounts::new(6);
//! for face in [1, 2, 3, 4, 5, 6, 6, 5, 4, 3, 2, 1] {
//!     counts.add(face);
//! }
//! let test = counts.test();
//! assert_eq!(test.expected, 2.0);
//! assert_eq!(test.chi_square, 0.0);
//! assert!((test.p_value - 1.0).abs() < 1e-12);
//! ```

/// How many times each face of a die with `faces` faces came up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaceCounts {
    counts: Vec<u64>,
}

/// Pearson's chi-square test of counts against even chances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FaceTest {
    /// Faces thrown in all.
    pub throws: u64,
    /// Each face's expected count: `throws / faces`.
    pub expected: f64,
    /// Σ (count − expected)² / expected.
    pub chi_square: f64,
    /// Degrees of freedom: faces − 1.
    pub freedom: u32,
    /// The chance that fair dice give a chi-square at least this large (1 with no throws).
    pub p_value: f64,
}

impl FaceCounts {
    /// No throws yet of a die with `faces` faces (at least 2).
    pub fn new(faces: u8) -> FaceCounts {
        FaceCounts { counts: vec![0; usize::from(faces.max(2))] }
    }

    /// The die's number of faces.
    pub fn faces(&self) -> u8 {
        self.counts.len() as u8
    }

    /// Counts one throw showing `face` (1-based); a face the die does not have is ignored.
    pub fn add(&mut self, face: u8) {
        if let Some(count) = self.counts.get_mut(usize::from(face).wrapping_sub(1)) {
            *count += 1;
        }
    }

    /// Each face's count, face 1 first.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// Adds `other`'s counts (the same die).
    pub fn merge(&mut self, other: &FaceCounts) {
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            *mine += theirs;
        }
    }

    /// The test of these counts against even chances.
    pub fn test(&self) -> FaceTest {
        let throws: u64 = self.counts.iter().sum();
        let freedom = self.counts.len() as u32 - 1;
        if throws == 0 {
            return FaceTest { throws, expected: 0.0, chi_square: 0.0, freedom, p_value: 1.0 };
        }
        let expected = throws as f64 / self.counts.len() as f64;
        let chi_square =
            self.counts.iter().map(|&c| (c as f64 - expected).powi(2) / expected).sum::<f64>();
        FaceTest {
            throws,
            expected,
            chi_square,
            freedom,
            p_value: chi_square_p(chi_square, freedom),
        }
    }
}

/// P(X ≥ `x`) for X chi-square distributed with `freedom` degrees of freedom: the regularized
/// upper incomplete gamma function Q(freedom/2, x/2).
pub fn chi_square_p(x: f64, freedom: u32) -> f64 {
    if freedom == 0 || x <= 0.0 {
        return 1.0;
    }
    upper_gamma(f64::from(freedom) / 2.0, x / 2.0)
}

/// Q(a, x) = Γ(a, x) / Γ(a), by its series below a + 1 and its continued fraction above
/// (Press et al., Numerical Recipes, §6.2), to about 1e-14. The names are the book's.
#[expect(clippy::many_single_char_names, reason = "the formulas' own letters")]
fn upper_gamma(a: f64, x: f64) -> f64 {
    let log_front = a * x.ln() - x - ln_gamma(a);
    if x < a + 1.0 {
        // P(a, x) = e^(−x) x^a / Γ(a) · Σ x^n / (a (a+1) … (a+n))
        let (mut term, mut sum, mut denominator) = (1.0 / a, 1.0 / a, a);
        for _ in 0..10_000 {
            denominator += 1.0;
            term *= x / denominator;
            sum += term;
            if term.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        (1.0 - sum * log_front.exp()).clamp(0.0, 1.0)
    } else {
        // Lentz's method for the continued fraction of Γ(a, x).
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -f64::from(i) * (f64::from(i) - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let step = d * c;
            h *= step;
            if (step - 1.0).abs() < 1e-16 {
                break;
            }
        }
        (log_front.exp() * h).clamp(0.0, 1.0)
    }
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9; about 15 digits).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1 − x) = π / sin(πx).
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut sum = G[0];
    for (i, g) in G.iter().enumerate().skip(1) {
        sum += g / (x + i as f64);
    }
    let t = x + 7.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Upper critical values of the chi-square distribution, from the NIST/SEMATECH
    /// e-Handbook of Statistical Methods, §1.3.6.7.4 ("Critical Values of the Chi-Square
    /// Distribution"): P(X ≥ value) for the degrees of freedom given.
    #[test]
    fn p_values_match_the_published_critical_values() {
        let table = [
            (5, 11.070, 0.05),
            (5, 15.086, 0.01),
            (5, 20.515, 0.001),
            (1, 3.841, 0.05),
            (1, 10.828, 0.001),
            (11, 19.675, 0.05),
            (35, 49.802, 0.05),
            (99, 123.225, 0.05),
            (5, 1.145, 0.95),
            (5, 0.554, 0.99),
        ];
        for (freedom, value, p) in table {
            let got = chi_square_p(value, freedom);
            // The table gives three decimals: the p-values agree to within 1% of each.
            assert!((got - p).abs() < 0.01 * p, "{freedom} {value}: {got} vs {p}");
        }
    }

    #[test]
    fn ln_gamma_is_exact_at_integers_and_halves() {
        // Γ(n) = (n − 1)!, Γ(½) = √π.
        assert!((ln_gamma(5.0) - 24_f64.ln()).abs() < 1e-12);
        assert!((ln_gamma(1.0)).abs() < 1e-12);
        assert!((ln_gamma(0.5) - std::f64::consts::PI.sqrt().ln()).abs() < 1e-12);
        assert!((ln_gamma(30.0) - 71.257_038_967_168_01).abs() < 1e-9);
    }

    #[test]
    fn counts_are_tallied_and_tested_by_hand() {
        let mut counts = FaceCounts::new(6);
        for face in [1, 1, 1, 1, 2, 3, 4, 5, 6, 6, 7, 0] {
            counts.add(face);
        }
        assert_eq!(counts.counts(), [4, 1, 1, 1, 1, 2], "faces 7 and 0 are not a d6's");
        let test = counts.test();
        // expected 10/6; χ² = Σ (c − 5/3)² / (5/3) = (49/9 + 4·4/9 + 1/9)·(3/5) = 66/9 · 3/5 = 4.4
        assert_eq!(test.throws, 10);
        assert!((test.chi_square - 4.4).abs() < 1e-12, "{}", test.chi_square);
        assert_eq!(test.freedom, 5);
        assert!(test.p_value > 0.49 && test.p_value < 0.50, "{}", test.p_value);
        assert!((FaceCounts::new(6).test().p_value - 1.0).abs() < f64::EPSILON);
    }
}
