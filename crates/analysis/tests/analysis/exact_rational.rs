//! The exact analysis against exact rational arithmetic on small boards, for every kind of rule.
//!
//! The reference here is written from SPEC §3 alone, independently of `exact`: it throws every
//! combination of dice faces, follows the bonus streak, the cap and void roll by roll, reflects a
//! bounce and follows jumps itself, and solves every linear system by Gaussian elimination over
//! `BigRational`. The analysis must agree to 1e-9 relative (it does to about 1e-14).

// Matrix algebra reads best in its own notation: a x = b, indices i, j, k.
#![allow(clippy::many_single_char_names, clippy::needless_range_loop)]

use num_bigint::BigInt;
use snl_analysis::exact::{self, Analysis};
use snl_engine::{Board, BoardSpec, Bonus, Choice, JumpMode, OnMax, Overshoot, Rules};

use crate::rational::{Q, int, to_f64};

/// Solves `a x = b` for several right-hand sides (columns of `b`).
fn solve(mut a: Vec<Vec<Q>>, mut b: Vec<Vec<Q>>) -> Vec<Vec<Q>> {
    let n = a.len();
    let zero = int(0);
    for c in 0..n {
        let p = (c..n).find(|&r| a[r][c] != zero).expect("a regular system");
        a.swap(c, p);
        b.swap(c, p);
        let pivot = a[c][c].clone();
        for r in 0..n {
            if r == c || a[r][c] == zero {
                continue;
            }
            let f = &a[r][c] / &pivot;
            for k in c..n {
                let v = &f * &a[c][k];
                a[r][k] -= v;
            }
            for k in 0..b[r].len() {
                let v = &f * &b[c][k];
                b[r][k] -= v;
            }
        }
    }
    (0..n).map(|r| b[r].iter().map(|v| v / &a[r][r]).collect()).collect()
}

/// One turn of one token, exactly: where it ends, how many rolls and landings it takes.
struct Turn {
    ends: Vec<Q>,
    rolls: Q,
    landings: Vec<Q>,
}

/// The reference model of SPEC §3 for one token that always moves by the roll (or first die).
struct Reference {
    n: usize,
    start: usize,
    rules: Rules,
    jumps: Vec<usize>,
    turns: Vec<Turn>,
}

impl Reference {
    fn new(size: u32, jumps: &[(u32, u32)], rules: Rules) -> Reference {
        let n = size as usize;
        let mut to: Vec<usize> = (0..=n).collect();
        for &(a, b) in jumps {
            to[a as usize] = b as usize;
        }
        let start = match rules.start {
            snl_engine::Start::OffBoard => 0,
            snl_engine::Start::FirstCell => 1,
        };
        let mut r = Reference { n, start, rules, jumps: to, turns: Vec::new() };
        r.turns = (0..n).map(|b| r.turn(b)).collect();
        r
    }

    /// Every throw of the dice, as (steps moved, whether it is a top-face roll).
    fn throws(&self) -> Vec<(usize, bool)> {
        let faces = self.rules.dice.faces() as usize;
        let count = if self.rules.choice == Choice::PickDie { 2 } else { self.rules.dice.count() };
        let mut all = vec![Vec::<usize>::new()];
        for _ in 0..count {
            all = all
                .into_iter()
                .flat_map(|t| (1..=faces).map(move |f| [t.clone(), vec![f]].concat()))
                .collect();
        }
        all.into_iter()
            .map(|t| {
                if self.rules.choice == Choice::PickDie {
                    (t[0], t[0] == faces)
                } else {
                    (t.iter().sum(), t.iter().all(|&f| f == faces))
                }
            })
            .collect()
    }

    /// (landed cell or None when blocked, resting position) of a move.
    fn step(&self, x: usize, steps: usize) -> (Option<usize>, usize) {
        let n = self.n;
        let mut t = x + steps;
        if t > n {
            match self.rules.overshoot {
                Overshoot::Stay => return (None, x),
                Overshoot::Win => t = n,
                Overshoot::Bounce => {
                    // Reflect off N and off cell 1 until the target is on the board.
                    let top = i64::try_from(n).unwrap();
                    let mut at = i64::try_from(t).unwrap();
                    while at > top || at < 1 {
                        at = if at > top { 2 * top - at } else { 2 - at };
                    }
                    t = usize::try_from(at).unwrap();
                }
            }
        }
        let landed = t;
        let mut at = t;
        if self.jumps[at] != at {
            at = self.jumps[at];
            if self.rules.jumps == JumpMode::Chain {
                while self.jumps[at] != at {
                    at = self.jumps[at];
                }
            }
        }
        (Some(landed), at)
    }

    /// Solves the turn begun on `begin` as a chain on (position, streak) with absorbing ends.
    fn turn(&self, begin: usize) -> Turn {
        let n = self.n;
        let throws = self.throws();
        let p = Q::new(BigInt::from(1), BigInt::from(throws.len()));
        let bonus = self.rules.bonus == Bonus::TopFace;
        let cap = self.rules.max_bonus.limit().map(|k| k as usize);
        // Streaks that matter: 0..cap, or 0 and "one or more" when unlimited.
        let levels = cap.unwrap_or(2);
        let index = |x: usize, s: usize| s * (n + 1) + x;
        let states = levels * (n + 1);
        // Unknowns per state: ends (n+1), rolls, landings (n+1).
        let cols = 2 * (n + 1) + 1;
        let mut a = vec![vec![int(0); states]; states];
        let mut b = vec![vec![int(0); cols]; states];
        for s in 0..levels {
            for x in 0..=n {
                let i = index(x, s);
                a[i][i] += int(1);
                if x == n {
                    continue; // unused
                }
                b[i][n + 1] += int(1); // a roll
                for &(steps, top_face) in &throws {
                    let top = bonus && top_face;
                    let streak = s + usize::from(top);
                    let capped = top && cap == Some(streak);
                    if capped && self.rules.on_max == OnMax::Void {
                        b[i][begin] += &p;
                        continue;
                    }
                    let (landed, y) = self.step(x, steps);
                    if let Some(c) = landed {
                        b[i][n + 2 + c] += &p;
                    }
                    if top && !capped && y != n {
                        let next = if cap.is_some() { streak } else { 1 };
                        a[i][index(y, next)] -= &p;
                    } else {
                        b[i][y] += &p;
                    }
                }
            }
        }
        let x = solve(a, b);
        let row = &x[index(begin, 0)];
        Turn {
            ends: row[..=n].to_vec(),
            rolls: row[n + 1].clone(),
            landings: row[n + 2..].to_vec(),
        }
    }

    /// `(I − Q) x = c` over positions 0..n (those never reached cost nothing).
    fn expectation(&self, cost: &[Q]) -> Vec<Q> {
        let n = self.n;
        let mut a = vec![vec![int(0); n]; n];
        for b in 0..n {
            a[b][b] += int(1);
            for e in 0..n {
                a[b][e] -= &self.turns[b].ends[e];
            }
        }
        solve(a, cost.iter().map(|c| vec![c.clone()]).collect())
            .into_iter()
            .map(|r| r[0].clone())
            .collect()
    }

    fn cdf(&self, turns: usize) -> Vec<Q> {
        let n = self.n;
        let mut v = vec![int(0); n + 1];
        v[self.start] = int(1);
        let mut out = vec![int(0)];
        for _ in 0..turns {
            let mut w = vec![int(0); n + 1];
            w[n] = v[n].clone();
            for b in 0..n {
                for e in 0..=n {
                    w[e] += &v[b] * &self.turns[b].ends[e];
                }
            }
            v = w;
            out.push(v[n].clone());
        }
        out
    }

    /// Expected landings per cell in a whole game.
    fn landings(&self) -> Vec<Q> {
        let n = self.n;
        // Visits y solve y (I − Q) = e_start.
        let mut a = vec![vec![int(0); n]; n];
        for b in 0..n {
            a[b][b] += int(1);
            for e in 0..n {
                a[e][b] -= &self.turns[b].ends[e];
            }
        }
        let mut rhs = vec![vec![int(0)]; n];
        rhs[self.start] = vec![int(1)];
        let y = solve(a, rhs);
        (0..=n).map(|c| (0..n).map(|b| &y[b][0] * &self.turns[b].landings[c]).sum()).collect()
    }

    /// Two seats, finish first: P(seat 0 wins) and the expected rolls of the whole game, from
    /// the chain on (position of seat 0, position of seat 1, whose turn).
    fn two_seats(&self) -> (Q, Q) {
        let n = self.n;
        let idx = |a: usize, b: usize, who: usize| (who * n + a) * n + b;
        let size = 2 * n * n;
        let mut m = vec![vec![int(0); size]; size];
        let mut rhs = vec![vec![int(0), int(0)]; size];
        for a in 0..n {
            for b in 0..n {
                for who in 0..2 {
                    let i = idx(a, b, who);
                    m[i][i] += int(1);
                    let (mover, other) = if who == 0 { (a, b) } else { (b, a) };
                    rhs[i][1] += &self.turns[mover].rolls;
                    for e in 0..=n {
                        let p = &self.turns[mover].ends[e];
                        if e == n {
                            if who == 0 {
                                rhs[i][0] += p;
                            }
                            continue;
                        }
                        let j = if who == 0 { idx(e, other, 1) } else { idx(other, e, 0) };
                        m[i][j] -= p;
                    }
                }
            }
        }
        let x = solve(m, rhs);
        let s = idx(self.start, self.start, 0);
        (x[s][0].clone(), x[s][1].clone())
    }
}

#[track_caller]
fn close(what: &str, got: f64, want: &Q) {
    let want = to_f64(want);
    let err = (got - want).abs() / want.abs().max(1e-300);
    assert!(err <= 1e-9 || (got - want).abs() < 1e-15, "{what}: got {got}, exact {want}");
}

fn check(size: u32, jumps: &[(u32, u32)], rules: Rules, seats: bool) {
    let board = Board::new(&BoardSpec::with_jumps(size, jumps.iter().copied()), &rules).unwrap();
    let a: Analysis = exact::analyze(&board, &rules).unwrap();
    let r = Reference::new(size, jumps, rules);
    let n = r.n;
    let what = |s: &str| format!("{s} on {size} cells {jumps:?} with {rules}");

    let ones = vec![int(1); n];
    let turns = r.expectation(&ones);
    close(&what("expected turns"), a.expected_turns, &turns[r.start]);
    let rolls: Vec<Q> = r.turns.iter().map(|t| t.rolls.clone()).collect();
    close(&what("expected rolls"), a.expected_rolls, &r.expectation(&rolls)[r.start]);
    // E[T²]: m_b = 1 + 2 Σ K(b,e) x_e + Σ K(b,e) m_e.
    let second: Vec<Q> = (0..n)
        .map(|b| int(1) + int(2) * (0..n).map(|e| &r.turns[b].ends[e] * &turns[e]).sum::<Q>())
        .collect();
    let m2 = &r.expectation(&second)[r.start];
    let var = m2 - &turns[r.start] * &turns[r.start];
    close(&what("variance of turns"), a.std_dev_turns.powi(2), &var);

    let cdf = r.cdf(10);
    for (k, want) in cdf.iter().enumerate() {
        close(&what(&format!("P(T <= {k})")), a.distribution.cdf(k), want);
    }
    let landings = a.expected_landings.as_ref().expect("finite");
    for (c, want) in r.landings().iter().enumerate() {
        close(&what(&format!("landings on {c}")), landings[c], want);
    }
    if seats {
        let (win, game_rolls) = r.two_seats();
        let s = a.seats(2);
        close(&what("P(first seat wins)"), s.win_probability[0], &win);
        close(&what("P(second seat wins)"), s.win_probability[1], &(int(1) - &win));
        close(&what("expected game rolls"), s.expected_game_rolls, &game_rolls);
    }
}

fn rules(f: impl FnOnce(&mut Rules)) -> Rules {
    let mut r = Rules::default();
    f(&mut r);
    r
}

#[test]
fn standard_rules_match_exact_fractions() {
    check(10, &[(3, 8), (9, 2), (6, 4)], Rules::default(), true);
    check(12, &[(2, 11), (10, 1)], rules(|r| r.dice = "1d4".parse().unwrap()), true);
}

#[test]
fn overshoot_rules_and_chained_jumps_match_exact_fractions() {
    let bounce = rules(|r| r.overshoot = Overshoot::Bounce);
    check(10, &[(3, 8), (9, 2), (6, 4)], bounce, true);
    let chain = rules(|r| {
        r.overshoot = Overshoot::Bounce;
        r.jumps = JumpMode::Chain;
    });
    check(10, &[(2, 7), (7, 9), (9, 3)], chain, true);
    let win = rules(|r| {
        r.overshoot = Overshoot::Win;
        r.dice = "2d3".parse().unwrap();
    });
    check(9, &[(4, 2), (5, 8)], win, true);
    // Two dice of two faces on six cells bounce back and forth.
    let small = rules(|r| {
        r.overshoot = Overshoot::Bounce;
        r.dice = "2d2".parse().unwrap();
    });
    check(5, &[(3, 1)], small, true);
}

#[test]
fn bonus_rolls_caps_and_void_match_exact_fractions() {
    check(10, &[(3, 8), (9, 2)], Rules::named("bonus-six").unwrap(), true);
    check(10, &[(4, 9), (8, 3)], Rules::named("three-sixes").unwrap(), false);
    let strict = rules(|r| {
        *r = Rules::named("strict-sixes").unwrap();
        r.dice = "1d3".parse().unwrap();
    });
    check(9, &[(2, 6), (8, 1)], strict, true);
    let void_two = rules(|r| {
        r.bonus = Bonus::TopFace;
        r.max_bonus = "2".parse().unwrap();
        r.on_max = OnMax::Void;
        r.overshoot = Overshoot::Bounce;
        r.dice = "2d3".parse().unwrap();
    });
    check(8, &[(5, 2)], void_two, false);
    let pass_one = rules(|r| {
        r.bonus = Bonus::TopFace;
        r.max_bonus = "1".parse().unwrap();
        r.dice = "1d4".parse().unwrap();
    });
    check(9, &[(3, 7), (6, 2)], pass_one, true);
}

#[test]
fn choice_rules_with_the_first_option_match_exact_fractions() {
    let pick = rules(|r| {
        r.choice = Choice::PickDie;
        r.dice = "1d4".parse().unwrap();
        r.bonus = Bonus::TopFace;
    });
    check(9, &[(3, 7), (6, 2)], pick, true);
    let pass = rules(|r| {
        r.choice = Choice::MayPass;
        r.bonus = Bonus::TopFace;
        r.max_bonus = "2".parse().unwrap();
    });
    check(10, &[(3, 8), (9, 2)], pass, false);
}
