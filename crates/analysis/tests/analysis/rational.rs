//! Exact rational numbers for the reference solvers (`exact_rational`, `win_rational`).

use num_bigint::BigInt;
use num_rational::BigRational;

pub(crate) type Q = BigRational;

pub(crate) fn int(v: i64) -> Q {
    Q::from_integer(BigInt::from(v))
}

pub(crate) fn to_f64(q: &Q) -> f64 {
    // Ten significant digits are not enough; divide with 60 extra decimal digits of precision.
    let scale = BigInt::from(10).pow(60);
    let scaled = (q.numer() * &scale) / q.denom();
    scaled.to_string().parse::<f64>().unwrap() / 1e60
}
