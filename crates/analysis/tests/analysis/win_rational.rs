//! Three seats playing to win on a tiny board, solved again in exact rationals: best responses
//! iterated until no seat's choice changes, each policy profile evaluated by Gaussian
//! elimination over `BigRational`, every comparison exact. The reference is written from SPEC §3
//! alone (its own overshoot, jumps and options) and knows nothing of `PlayToWin`; at its end no
//! seat can gain by choosing otherwise at any roll (checked exactly), and `PlayToWin`'s chances
//! agree with it to 1e-12.

// Matrix algebra reads best in its own notation: a x = b, indices i, j, k.
#![allow(clippy::many_single_char_names, clippy::needless_range_loop)]

use num_bigint::BigInt;
use snl_analysis::strategy::{Play, PlayToWin};
use snl_engine::{Board, BoardSpec, Choice, Dice, Overshoot, Rules};

use crate::rational::{Q, int, to_f64};

/// Solves `a x = b` (one right-hand side), skipping zeros: the rows are sparse.
fn solve(mut a: Vec<Vec<Q>>, mut b: Vec<Q>) -> Vec<Q> {
    let n = a.len();
    let zero = int(0);
    for c in 0..n {
        let p = (c..n).find(|&r| a[r][c] != zero).expect("a regular system");
        a.swap(c, p);
        b.swap(c, p);
        let pivot = a[c][c].clone();
        let nonzero: Vec<usize> = (c..n).filter(|&k| a[c][k] != zero).collect();
        for r in 0..n {
            if r == c || a[r][c] == zero {
                continue;
            }
            let f = &a[r][c] / &pivot;
            for &k in &nonzero {
                let v = &f * &a[c][k];
                a[r][k] -= v;
            }
            let v = &f * &b[c];
            b[r] -= v;
        }
    }
    (0..n).map(|r| &b[r] / &a[r][r]).collect()
}

const N: usize = 5;
const FACES: usize = 3;
const SEATS: usize = 3;

/// Where a token on `x` rests after moving `r` (SPEC §3: bounce, then the one jump).
fn rest(x: usize, r: usize, jumps: &[usize]) -> usize {
    let target = x + r;
    let landed = if target > N { 2 * N - target } else { target };
    jumps[landed]
}

/// A joint state seen from the mover: tokens (mover, next, last) on cells 0..N.
fn index(t: [usize; SEATS]) -> usize {
    (t[0] * N + t[1]) * N + t[2]
}

/// The options of a roll of `r` on `x` under may-pass: move, then pass, of those that rest
/// alike the first.
fn options(x: usize, r: usize, jumps: &[usize]) -> Vec<usize> {
    let moved = rest(x, r, jumps);
    if moved == x { vec![x] } else { vec![moved, x] }
}

/// The chance of the seat `j` places after the mover of `s`, every seat playing `choice`
/// (per state and roll: the resting cell chosen).
fn evaluate(choice: &[Vec<usize>]) -> Vec<Q> {
    let states = N.pow(SEATS as u32);
    let unknowns = states * SEATS;
    let mut a = vec![vec![int(0); unknowns]; unknowns];
    let mut b = vec![int(0); unknowns];
    let third = Q::new(BigInt::from(1), BigInt::from(FACES));
    for s in 0..states {
        let t = [s / (N * N), s / N % N, s % N];
        for j in 0..SEATS {
            let row = s * SEATS + j;
            a[row][row] += int(1);
            for r in 0..FACES {
                let y = choice[s][r];
                if y == N {
                    if j == 0 {
                        b[row] += third.clone();
                    }
                } else {
                    // Seat j after this mover is seat j - 1 after the next one.
                    let next = index([t[1], t[2], y]);
                    a[row][next * SEATS + (j + SEATS - 1) % SEATS] -= third.clone();
                }
            }
        }
    }
    solve(a, b)
}

#[test]
fn three_seats_playing_to_win_reach_the_equilibrium_found_in_exact_rationals() {
    // 5 cells, 1d3, bounce, a snake from 4 to 1: waiting, moving down a bounce and the snake
    // all matter.
    let jumps: Vec<usize> = vec![0, 1, 2, 3, 1, 5];
    let rules = Rules {
        choice: Choice::MayPass,
        dice: "1d3".parse::<Dice>().unwrap(),
        overshoot: Overshoot::Bounce,
        ..Rules::default()
    };
    let board = Board::new(&BoardSpec::with_jumps(5, [(4, 1)]), &rules).unwrap();
    let states = N.pow(SEATS as u32);
    // Start by always moving; then every seat's best response, until no choice changes.
    let mut choice: Vec<Vec<usize>> = (0..states)
        .map(|s| (1..=FACES).map(|r| options(s / (N * N), r, &jumps)[0]).collect())
        .collect();
    let mut values = evaluate(&choice);
    let mut rounds = 0;
    loop {
        rounds += 1;
        assert!(rounds < 50, "best responses did not settle");
        let mut changed = false;
        for s in 0..states {
            let t = [s / (N * N), s / N % N, s % N];
            for r in 0..FACES {
                // The mover's own chance after resting on y: it is the last seat after the next.
                let own = |y: usize| {
                    if y == N { int(1) } else { values[index([t[1], t[2], y]) * SEATS + 2].clone() }
                };
                let now = own(choice[s][r]);
                for y in options(t[0], r + 1, &jumps) {
                    if own(y) > now {
                        choice[s][r] = y;
                        changed = true;
                        break;
                    }
                }
            }
        }
        if !changed {
            break;
        }
        values = evaluate(&choice);
    }
    // No seat gains by choosing otherwise at any roll: checked exactly by the loop's last round.
    let total: Q = (0..SEATS).map(|j| values[j].clone()).sum();
    assert_eq!(total, int(1));
    let win = PlayToWin::new(&board, &rules, &[Play::ToWin; SEATS]).unwrap();
    assert!(win.settled());
    for (j, p) in win.win_probability().iter().enumerate() {
        let exact = to_f64(&values[j]);
        assert!((p - exact).abs() < 1e-12, "seat {j}: {p} against {exact} ({})", values[j]);
    }
    // The choices are not all "move": the equilibrium holds back somewhere.
    let held = (0..states).any(|s| {
        (0..FACES)
            .any(|r| choice[s][r] == s / (N * N) && options(s / (N * N), r + 1, &jumps).len() > 1)
    });
    assert!(held);
}
