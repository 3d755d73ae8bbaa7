// Long because the reference model is written whole from the specification (a second, independent copy on purpose, in exact rationals) beside the tests that hold the engine to it.
//! The exact analysis with cell effects (SPEC §3b) against a reference written from the
//! specification alone, in exact rationals on small boards (and in plain floats, by the same
//! code, on the 100-cell `party` preset, where rationals grow too long).
//!
//! The reference is independent of `exact`: its state is (cell, shield, skip pending) numbered
//! its own way, one turn is a chain on (position, streak, shield, skip gained) solved by
//! Gaussian elimination with every absorbing outcome as a column (finish, each end state, "void"
//! which goes back to where the turn began, the rolls and the landings), it throws every
//! combination of dice faces, reflects a bounce and follows jumps and wormholes itself. The
//! analysis must agree to 1e-9 relative.

// Matrix algebra reads best in its own notation: a x = b, indices i, j, k.
#![allow(
    clippy::many_single_char_names,
    clippy::needless_range_loop,
    clippy::cast_possible_wrap,
    clippy::doc_markdown
)]

use std::ops::{Add, Div, Mul, Sub};

use num_bigint::BigInt;
use num_rational::BigRational;
use snl_analysis::{
    exact::{self, Analysis, Options, Policy, Situation},
    strategy::{GreedyOn, HardPolicy},
};
use snl_engine::{
    Board, BoardSpec, Bonus, CellSpec, Choice, JumpMode, MoveOption, OnMax, Overshoot, Preset,
    RandomBoard, Rules,
};

type Q = BigRational;

/// The arithmetic the reference needs: exact rationals or floats.
trait Field:
    Clone
    + PartialEq
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + std::fmt::Debug
{
    fn int(v: i64) -> Self;
    fn ratio(a: i64, b: i64) -> Self {
        Self::int(a) / Self::int(b)
    }
    fn to_f64(&self) -> f64;
    /// How good a pivot is (exact: any non-zero; floats: the largest).
    fn size(&self) -> f64;
}

impl Field for Q {
    fn int(v: i64) -> Q {
        Q::from_integer(BigInt::from(v))
    }
    fn to_f64(&self) -> f64 {
        let scale = BigInt::from(10).pow(60);
        let scaled = (self.numer() * &scale) / self.denom();
        scaled.to_string().parse::<f64>().unwrap() / 1e60
    }
    fn size(&self) -> f64 {
        if *self == Q::int(0) { 0.0 } else { 1.0 }
    }
}

impl Field for f64 {
    fn int(v: i64) -> f64 {
        v as f64
    }
    fn to_f64(&self) -> f64 {
        *self
    }
    fn size(&self) -> f64 {
        self.abs()
    }
}

/// Solves `a x = b` (columns of `b` are right-hand sides) with the best pivot in each column.
fn solve<T: Field>(mut a: Vec<Vec<T>>, mut b: Vec<Vec<T>>) -> Vec<Vec<T>> {
    let n = a.len();
    for c in 0..n {
        let p = (c..n)
            .max_by(|&i, &j| a[i][c].size().partial_cmp(&a[j][c].size()).unwrap())
            .filter(|&r| a[r][c].size() > 0.0)
            .expect("a regular system");
        a.swap(c, p);
        b.swap(c, p);
        let pivot = a[c][c].clone();
        for r in 0..n {
            if r == c || a[r][c].size() == 0.0 {
                continue;
            }
            let f = a[r][c].clone() / pivot.clone();
            for k in c..n {
                if a[c][k].size() != 0.0 {
                    a[r][k] = a[r][k].clone() - f.clone() * a[c][k].clone();
                }
            }
            for k in 0..b[r].len() {
                if b[c][k].size() != 0.0 {
                    b[r][k] = b[r][k].clone() - f.clone() * b[c][k].clone();
                }
            }
        }
    }
    (0..n).map(|r| b[r].iter().map(|v| v.clone() / a[r][r].clone()).collect()).collect()
}

#[derive(Clone, Debug, PartialEq)]
enum Cell {
    Plain,
    Skip,
    Extra,
    Shield,
    Wormhole(Vec<usize>),
}

/// One turn begun in a state: where it ends (index: state, then finish last), rolls, landings.
struct Turn<T> {
    ends: Vec<T>,
    rolls: T,
    landings: Vec<T>,
}

/// SPEC §3 and §3b for one token that always moves by the roll.
struct Reference<T> {
    n: usize,
    rules: Rules,
    jumps: Vec<usize>,
    cells: Vec<Cell>,
    turns: Vec<Turn<T>>,
}

impl<T: Field> Reference<T> {
    /// Under a choice rule, each roll's options are made here as SPEC §3 says (the move or
    /// declining it; either die), those that land alike being one, and `policy` picks among
    /// them, told the token's cell, streak, shield and skip gained. A policy that depends on
    /// where the turn began (under on-max void) is not modelled: a turn's chain here is shared
    /// by every start.
    fn choosing(spec: &BoardSpec, rules: Rules, policy: &dyn Policy) -> Reference<T> {
        let n = spec.size as usize;
        let mut jumps: Vec<usize> = (0..=n).collect();
        for s in &spec.snakes {
            jumps[s.head as usize] = s.tail as usize;
        }
        for l in &spec.ladders {
            jumps[l.foot as usize] = l.top as usize;
        }
        let mut cells = vec![Cell::Plain; n + 1];
        for c in &spec.cells {
            cells[c.at as usize] = match c.effect.as_str() {
                "skip" => Cell::Skip,
                "extra" => Cell::Extra,
                "shield" => Cell::Shield,
                "wormhole" => Cell::Wormhole(c.exits.iter().map(|&e| e as usize).collect()),
                other => panic!("unknown effect {other}"),
            };
        }
        let mut r = Reference { n, rules, jumps, cells, turns: Vec::new() };
        r.turns = r.all_turns(policy);
        r
    }

    /// Where a move of `steps` from `x` ends as an option shows it: the landing cell when a held
    /// shield stops a snake there, else after the ladders and snakes (a wormhole's cell itself,
    /// its exit being drawn later); `x` when blocked or declined.
    fn lands(&self, x: usize, steps: usize, shield: bool) -> usize {
        if steps == 0 {
            return x;
        }
        let Some(mut at) = self.land(x, steps) else { return x };
        if shield && self.jumps[at] < at {
            return at;
        }
        while self.jumps[at] != at {
            at = self.jumps[at];
            if self.rules.jumps == JumpMode::Single {
                break;
            }
        }
        at
    }

    /// The (steps, top face) a token on `x` plays for a throw of `faces`.
    fn play(&self, policy: &dyn Policy, at: Situation, faces: &[usize]) -> (usize, bool) {
        let top = self.rules.dice.faces() as usize;
        let all_top = faces.iter().all(|&f| f == top);
        let mut offered: Vec<(usize, bool)> = match self.rules.choice {
            Choice::None => return (faces.iter().sum(), all_top),
            Choice::MayPass => vec![(faces.iter().sum(), all_top), (0, all_top)],
            Choice::PickDie => faces.iter().map(|&f| (f, f == top)).collect(),
        };
        let bonus = self.rules.bonus == Bonus::TopFace;
        let x = at.position as usize;
        let end = |&(steps, top): &(usize, bool)| (self.lands(x, steps, at.shield), bonus && top);
        let mut kept: Vec<(usize, bool)> = Vec::new();
        for o in offered.drain(..) {
            if kept.iter().all(|k| end(k) != end(&o)) {
                kept.push(o);
            }
        }
        if kept.len() == 1 {
            return kept[0];
        }
        let options: Vec<MoveOption> = kept
            .iter()
            .map(|&(steps, top)| MoveOption {
                steps: steps as u32,
                lands: self.lands(x, steps, at.shield) as u32,
                top_face: top,
                ..MoveOption::default()
            })
            .collect();
        kept[policy.choose(at, &options).min(kept.len() - 1)]
    }

    /// State (cell, shield, skip) numbered here as cell·4 + 2·shield + skip; finish is 4n.
    fn state(c: usize, shield: bool, skip: bool) -> usize {
        4 * c + 2 * usize::from(shield) + usize::from(skip)
    }

    fn start(&self) -> usize {
        let cell = match self.rules.start {
            snl_engine::Start::OffBoard => 0,
            snl_engine::Start::FirstCell => 1,
        };
        Self::state(cell, false, false)
    }

    /// Every throw of the dice, as faces (two dice under pick-die).
    fn throws(&self) -> Vec<Vec<usize>> {
        let faces = self.rules.dice.faces() as usize;
        let count = if self.rules.choice == Choice::PickDie { 2 } else { self.rules.dice.count() };
        let mut all = vec![Vec::<usize>::new()];
        for _ in 0..count {
            all = all
                .into_iter()
                .flat_map(|t| (1..=faces).map(move |f| [t.clone(), vec![f]].concat()))
                .collect();
        }
        all
    }

    /// The landing cell of a move, or None when the overshoot rule blocks it.
    fn land(&self, x: usize, steps: usize) -> Option<usize> {
        let n = self.n;
        let t = x + steps;
        if t <= n {
            return Some(t);
        }
        match self.rules.overshoot {
            Overshoot::Stay => None,
            Overshoot::Win => Some(n),
            Overshoot::Bounce => {
                let (top, mut at) = (n as i64, t as i64);
                while at > top || at < 1 {
                    at = if at > top { 2 * top - at } else { 2 - at };
                }
                Some(at as usize)
            }
        }
    }

    /// Where a token that landed on `at` rests, with probability: jumps and wormholes, once under
    /// single jumps, on under chain.
    fn follow(&self, at: usize, jumped: bool, p: T, out: &mut Vec<(usize, T)>) {
        if jumped && self.rules.jumps == JumpMode::Single {
            out.push((at, p));
        } else if self.jumps[at] != at {
            self.follow(self.jumps[at], true, p, out);
        } else if let Cell::Wormhole(exits) = &self.cells[at] {
            let share = p / T::int(exits.len() as i64);
            for &e in exits {
                self.follow(e, true, share.clone(), out);
            }
        } else {
            out.push((at, p));
        }
    }

    /// Every turn, from one system on (position, streak, shield, skip gained) whose absorbing
    /// outcomes are columns: the 4n states, finish, void; then rolls and landings.
    fn all_turns(&self, policy: &dyn Policy) -> Vec<Turn<T>> {
        let n = self.n;
        let throws = self.throws();
        let p = T::ratio(1, throws.len() as i64);
        let bonus = self.rules.bonus == Bonus::TopFace;
        let cap = self.rules.max_bonus.limit().map(|k| k as usize);
        let levels = cap.unwrap_or(1);
        let w = |x: usize, s: usize, sh: bool, g: bool| {
            ((s * (n + 1) + x) * 2 + usize::from(sh)) * 2 + usize::from(g)
        };
        let size = levels * (n + 1) * 4;
        let (finish, void, rolls, land0) = (4 * n, 4 * n + 1, 4 * n + 2, 4 * n + 3);
        let cols = land0 + n + 1;
        let mut a = vec![vec![T::int(0); size]; size];
        let mut b = vec![vec![T::int(0); cols]; size];
        for s in 0..levels {
            for x in 0..=n {
                for sh in [false, true] {
                    for g in [false, true] {
                        let i = w(x, s, sh, g);
                        a[i][i] = T::int(1);
                        if x == n {
                            continue;
                        }
                        b[i][rolls] = T::int(1);
                        for faces in &throws {
                            let at = Situation {
                                position: x as u32,
                                turn_start: x as u32,
                                streak: s as u32,
                                shield: sh,
                                skip: g,
                                turn_start_shield: false,
                            };
                            let (steps, top) = self.play(policy, at, faces);
                            let top = bonus && top;
                            let streak = s + usize::from(top);
                            let capped = top && cap == Some(streak);
                            if capped && self.rules.on_max == OnMax::Void {
                                b[i][void] = b[i][void].clone() + p.clone();
                                continue;
                            }
                            let again = top && !capped;
                            let next = if cap.is_some() { streak } else { 0 };
                            // (rest cell, shield, moved, probability)
                            let mut rests: Vec<(usize, bool, bool, T)> = Vec::new();
                            // A declined move (0 steps) is no move, as a blocked one.
                            match self.land(x, steps).filter(|_| steps > 0) {
                                None => rests.push((x, sh, false, p.clone())),
                                Some(t) => {
                                    b[i][land0 + t] = b[i][land0 + t].clone() + p.clone();
                                    if sh && self.jumps[t] < t {
                                        rests.push((t, false, true, p.clone()));
                                    } else {
                                        let mut out = Vec::new();
                                        self.follow(t, false, p.clone(), &mut out);
                                        rests
                                            .extend(out.into_iter().map(|(y, q)| (y, sh, true, q)));
                                    }
                                }
                            }
                            for (y, mut sh2, moved, q) in rests {
                                if y == n {
                                    b[i][finish] = b[i][finish].clone() + q;
                                    continue;
                                }
                                let (mut g2, mut extra) = (g, false);
                                if moved {
                                    match self.cells[y] {
                                        Cell::Skip => g2 = true,
                                        Cell::Extra => extra = true,
                                        Cell::Shield => sh2 = true,
                                        _ => {}
                                    }
                                }
                                if again || extra {
                                    let j = w(y, if again { next } else { 0 }, sh2, g2);
                                    a[i][j] = a[i][j].clone() - q;
                                } else {
                                    let e = Self::state(y, sh2, g2);
                                    b[i][e] = b[i][e].clone() + q;
                                }
                            }
                        }
                    }
                }
            }
        }
        let x = solve(a, b);
        (0..4 * n)
            .map(|st| {
                let (c, sh, skip) = (st / 4, st & 2 != 0, st & 1 != 0);
                let mut ends = vec![T::int(0); 4 * n + 1];
                if skip {
                    ends[Self::state(c, sh, false)] = T::int(1);
                    return Turn { ends, rolls: T::int(0), landings: vec![T::int(0); n + 1] };
                }
                let row = &x[w(c, 0, sh, false)];
                ends[..=4 * n].clone_from_slice(&row[..=4 * n]);
                let back = Self::state(c, sh, false);
                ends[back] = ends[back].clone() + row[void].clone();
                Turn { ends, rolls: row[rolls].clone(), landings: row[land0..].to_vec() }
            })
            .collect()
    }

    /// States reachable from the start: the reference's unknowns.
    fn reachable(&self) -> Vec<usize> {
        let mut seen = vec![false; 4 * self.n];
        let mut stack = vec![self.start()];
        seen[self.start()] = true;
        while let Some(s) = stack.pop() {
            for (e, q) in self.turns[s].ends.iter().enumerate() {
                if e < 4 * self.n && q.size() != 0.0 && !seen[e] {
                    seen[e] = true;
                    stack.push(e);
                }
            }
        }
        (0..4 * self.n).filter(|&s| seen[s]).collect()
    }

    /// `(I − Q) x = c` over the reachable states, `c` given per state.
    fn expectation(&self, cost: impl Fn(usize) -> T) -> Vec<(usize, T)> {
        let live = self.reachable();
        let m = live.len();
        let mut a = vec![vec![T::int(0); m]; m];
        for (i, &s) in live.iter().enumerate() {
            a[i][i] = T::int(1);
            for (j, &e) in live.iter().enumerate() {
                a[i][j] = a[i][j].clone() - self.turns[s].ends[e].clone();
            }
        }
        let x = solve(a, live.iter().map(|&s| vec![cost(s)]).collect());
        live.into_iter().zip(x.into_iter().map(|r| r[0].clone())).collect()
    }

    fn at_start(&self, values: &[(usize, T)]) -> T {
        values.iter().find(|(s, _)| *s == self.start()).unwrap().1.clone()
    }

    /// P(T ≤ k) for k = 0..=turns.
    fn cdf(&self, turns: usize) -> Vec<T> {
        let n4 = 4 * self.n;
        let mut v = vec![T::int(0); n4 + 1];
        v[self.start()] = T::int(1);
        let mut out = vec![T::int(0)];
        for _ in 0..turns {
            let mut next = vec![T::int(0); n4 + 1];
            next[n4] = v[n4].clone();
            for s in 0..n4 {
                if v[s].size() == 0.0 {
                    continue;
                }
                for e in 0..=n4 {
                    if self.turns[s].ends[e].size() != 0.0 {
                        next[e] = next[e].clone() + v[s].clone() * self.turns[s].ends[e].clone();
                    }
                }
            }
            v = next;
            out.push(v[n4].clone());
        }
        out
    }

    /// Expected landings per cell: visits y solve y (I − Q) = e_start.
    fn landings(&self) -> Vec<T> {
        let live = self.reachable();
        let m = live.len();
        let mut a = vec![vec![T::int(0); m]; m];
        for (i, &s) in live.iter().enumerate() {
            a[i][i] = T::int(1);
            for (j, &e) in live.iter().enumerate() {
                a[j][i] = a[j][i].clone() - self.turns[s].ends[e].clone();
            }
        }
        let rhs = live.iter().map(|&s| vec![T::int(i64::from(s == self.start()))]).collect();
        let y = solve(a, rhs);
        (0..=self.n)
            .map(|c| {
                live.iter().enumerate().fold(T::int(0), |acc, (i, &s)| {
                    acc + y[i][0].clone() * self.turns[s].landings[c].clone()
                })
            })
            .collect()
    }

    /// Two seats, finish first: P(seat 0 wins) = Σ_k P(T₀ = k) P(T₁ ≥ k), from the chain on both
    /// tokens' states after the same number of turns.
    fn first_seat_wins(&self) -> T {
        let live = self.reachable();
        let m = live.len();
        let n4 = 4 * self.n;
        let idx = |i: usize, j: usize| i * m + j;
        // u(i, j) = P(seat 0 from i finishes on a turn where seat 1 from j has not yet finished):
        // u = f(i) + Σ Q(i,i') Q(j,j') u(i', j') — seat 1 has had one turn fewer when seat 0
        // finishes.
        let mut a = vec![vec![T::int(0); m * m]; m * m];
        let mut b = vec![vec![T::int(0)]; m * m];
        for (i, &s) in live.iter().enumerate() {
            for (j, &t) in live.iter().enumerate() {
                let r = idx(i, j);
                a[r][r] = T::int(1);
                b[r][0] = self.turns[s].ends[n4].clone();
                for (i2, &s2) in live.iter().enumerate() {
                    let q = &self.turns[s].ends[s2];
                    if q.size() == 0.0 {
                        continue;
                    }
                    for (j2, &t2) in live.iter().enumerate() {
                        let q2 = &self.turns[t].ends[t2];
                        if q2.size() != 0.0 {
                            a[r][idx(i2, j2)] = a[r][idx(i2, j2)].clone() - q.clone() * q2.clone();
                        }
                    }
                }
            }
        }
        let x = solve(a, b);
        let s = live.iter().position(|&s| s == self.start()).unwrap();
        x[idx(s, s)][0].clone()
    }
}

#[track_caller]
fn close(what: &str, got: f64, want: f64) {
    let err = (got - want).abs() / want.abs().max(1e-300);
    assert!(err <= 1e-9 || (got - want).abs() < 1e-15, "{what}: got {got}, reference {want}");
}

fn check_with<T: Field>(spec: &BoardSpec, rules: Rules, seats: bool) {
    check_policy::<T>(spec, rules, &snl_engine::FirstOption, seats);
}

fn check_policy<T: Field>(spec: &BoardSpec, rules: Rules, policy: &dyn Policy, seats: bool) {
    let board = Board::new(spec, &rules).unwrap();
    let a: Analysis = exact::analyze_with(&board, &rules, policy, &Options::default()).unwrap();
    let r = Reference::<T>::choosing(spec, rules, policy);
    let what = |s: &str| format!("{s} on {} cells with {rules}", spec.size);

    let turns = r.expectation(|_| T::int(1));
    close(&what("expected turns"), a.expected_turns, r.at_start(&turns).to_f64());
    let rolls = r.expectation(|s| r.turns[s].rolls.clone());
    close(&what("expected rolls"), a.expected_rolls, r.at_start(&rolls).to_f64());
    // E[T²]: m_s = 1 + 2 Σ K(s,e) x_e + Σ K(s,e) m_e.
    let at = |s: usize| turns.iter().find(|(t, _)| *t == s).map(|(_, v)| v.clone());
    let second = r.expectation(|s| {
        let sum = turns
            .iter()
            .fold(T::int(0), |acc, (e, x)| acc + r.turns[s].ends[*e].clone() * x.clone());
        T::int(1) + T::int(2) * sum
    });
    let mean = at(r.start()).unwrap();
    let var = r.at_start(&second) - mean.clone() * mean;
    close(&what("variance of turns"), a.std_dev_turns.powi(2), var.to_f64());
    for (k, want) in r.cdf(12).iter().enumerate() {
        close(&what(&format!("P(T <= {k})")), a.distribution.cdf(k), want.to_f64());
    }
    let landings = a.expected_landings.as_ref().expect("finite");
    for (c, want) in r.landings().iter().enumerate() {
        close(&what(&format!("landings on {c}")), landings[c], want.to_f64());
    }
    if seats {
        let win = r.first_seat_wins().to_f64();
        let s = a.seats(2);
        close(&what("P(first seat wins)"), s.win_probability[0], win);
        close(&what("P(second seat wins)"), s.win_probability[1], 1.0 - win);
    }
}

fn check(spec: &BoardSpec, rules: Rules, seats: bool) {
    check_with::<Q>(spec, rules, seats);
}

fn board(size: u32, jumps: &[(u32, u32)], cells: &[(u32, &str, &[u32])]) -> BoardSpec {
    let mut spec = BoardSpec::with_jumps(size, jumps.iter().copied());
    spec.cells = cells
        .iter()
        .map(|&(at, effect, exits)| CellSpec { at, effect: effect.into(), exits: exits.to_vec() })
        .collect();
    spec
}

fn rules(f: impl FnOnce(&mut Rules)) -> Rules {
    let mut r = Rules::default();
    f(&mut r);
    r
}

#[test]
fn a_skip_on_a_four_cell_board_costs_what_a_hand_count_says() {
    // 1d2 on 4 cells, start off the board, skip on cell 2, overshoot stay. E_c: expected turns
    // from cell c (no skip pending), S: from cell 2 with the skip pending (S = 1 + E_2).
    //   E_3 = 1 + ½ E_3 (a 2 overshoots)            → E_3 = 2
    //   E_2 = 1 + ½ E_3 + ½·0                       → E_2 = 2, S = 3
    //   E_1 = 1 + ½ S + ½ E_3                       → E_1 = 1 + 3/2 + 1 = 7/2
    //   E_0 = 1 + ½ E_1 + ½ S                       → E_0 = 1 + 7/4 + 3/2 = 17/4
    let spec = board(4, &[], &[(2, "skip", &[])]);
    let rules = rules(|r| r.dice = "1d2".parse().unwrap());
    let a = exact::analyze(&Board::new(&spec, &rules).unwrap(), &rules).unwrap();
    assert!((a.expected_turns - 17.0 / 4.0).abs() < 1e-12, "{}", a.expected_turns);
    // A skipped turn throws nothing: rolls are the turns less the expected skips, ¾ of a skip
    // (cell 2 is reached from 0 with ½ and from 1 with ½ · ½).
    assert!((a.expected_rolls - (17.0 / 4.0 - 0.75)).abs() < 1e-12, "{}", a.expected_rolls);
    check(&spec, rules, true);
}

#[test]
fn each_effect_alone_matches_exact_fractions() {
    let d3 = rules(|r| r.dice = "1d3".parse().unwrap());
    check(&board(9, &[(7, 2)], &[(3, "skip", &[])]), d3, true);
    check(&board(9, &[(7, 2)], &[(3, "extra", &[])]), d3, true);
    check(&board(9, &[(7, 2), (5, 1)], &[(3, "shield", &[])]), d3, true);
    check(&board(9, &[(7, 2)], &[(3, "wormhole", &[1, 6, 8])]), d3, true);
    check(&board(8, &[(6, 2)], &[(2, "extra", &[]), (3, "extra", &[])]), d3, false);
}

#[test]
fn wormholes_under_single_and_chain_jumps_match_exact_fractions() {
    let spec = board(10, &[(6, 9), (8, 1)], &[(3, "wormhole", &[6, 8]), (4, "shield", &[])]);
    let single = rules(|r| r.dice = "1d3".parse().unwrap());
    check(&spec, single, true);
    let chain = rules(|r| {
        r.dice = "1d3".parse().unwrap();
        r.jumps = JumpMode::Chain;
    });
    check(&spec, chain, true);
    // A chain through a ladder into a wormhole, and a wormhole exit on a snake.
    let spec = board(10, &[(2, 5), (7, 3)], &[(5, "wormhole", &[7, 9]), (6, "skip", &[])]);
    check(&spec, chain, true);
    check(&spec, single, true);
}

#[test]
fn bonus_caps_and_void_with_effects_match_exact_fractions() {
    let spec = board(
        9,
        &[(7, 2), (5, 8)],
        &[(2, "skip", &[]), (3, "extra", &[]), (4, "shield", &[]), (6, "wormhole", &[1, 8])],
    );
    let void = rules(|r| {
        r.dice = "1d3".parse().unwrap();
        r.bonus = Bonus::TopFace;
        r.max_bonus = "2".parse().unwrap();
        r.on_max = OnMax::Void;
    });
    check(&spec, void, true);
    let pass = rules(|r| {
        r.dice = "1d3".parse().unwrap();
        r.bonus = Bonus::TopFace;
        r.max_bonus = "1".parse().unwrap();
        r.overshoot = Overshoot::Bounce;
    });
    check(&spec, pass, true);
    let unlimited = rules(|r| {
        r.dice = "1d3".parse().unwrap();
        r.bonus = Bonus::TopFace;
        r.overshoot = Overshoot::Win;
    });
    check(&spec, unlimited, false);
}

#[test]
fn random_boards_with_effects_match_exact_fractions() {
    let d4 = rules(|r| r.dice = "1d4".parse().unwrap());
    let chain = rules(|r| {
        r.dice = "1d4".parse().unwrap();
        r.jumps = JumpMode::Chain;
        r.overshoot = Overshoot::Bounce;
        r.bonus = Bonus::TopFace;
        r.max_bonus = "2".parse().unwrap();
        r.on_max = OnMax::Void;
    });
    for seed in 0..6 {
        let rules = if seed % 2 == 0 { d4 } else { chain };
        let random = RandomBoard { size: 14, snakes: 2, ladders: 2, seed, min_jump: 1 };
        let spec = random.spec_with_effects(&rules, 4);
        assert_eq!(spec.cells.len(), 4);
        check(&spec, rules, false);
    }
}

#[test]
fn the_party_preset_matches_the_reference_in_floats() {
    for rules in [Rules::default(), Rules::named("strict-sixes").unwrap()] {
        check_with::<f64>(&Preset::Party.spec(), rules, false);
    }
}

#[test]
fn hard_and_greedy_under_a_choice_rule_match_exact_fractions() {
    // The chain follows a policy over (cell, shield, skip pending): the reference builds each
    // roll's options itself and asks the same policy, told what the token holds, so hard's
    // choices (which hold a shield for a snake, pass a skip by, wait for an extra cell) give
    // the same exact numbers. Without on-max void, where a choice does not depend on where
    // the turn began.
    let boards = [
        board(10, &[(7, 2), (8, 4)], &[(3, "shield", &[]), (5, "skip", &[]), (6, "extra", &[])]),
        board(9, &[(5, 3)], &[(3, "skip", &[]), (2, "wormhole", &[6, 1]), (7, "shield", &[])]),
    ];
    for choice in [Choice::MayPass, Choice::PickDie] {
        let plain = rules(|r| {
            r.dice = "1d3".parse().unwrap();
            r.choice = choice;
        });
        let capped = rules(|r| {
            r.dice = "1d3".parse().unwrap();
            r.choice = choice;
            r.bonus = Bonus::TopFace;
            r.max_bonus = "2".parse().unwrap();
            r.overshoot = Overshoot::Bounce;
        });
        for (i, spec) in boards.iter().enumerate() {
            for (j, rules) in [plain, capped].into_iter().enumerate() {
                let b = Board::new(spec, &rules).unwrap();
                let hard = HardPolicy::new(&b, &rules).unwrap();
                // The seats' chances (a system on pairs of states) once per choice rule: in
                // rationals they cost most of the time.
                check_policy::<Q>(spec, rules, &hard, i + j == 0);
                if j == 0 {
                    check_policy::<Q>(spec, rules, &GreedyOn::new(&b, &rules), false);
                }
                // And the reference's value is hard's own.
                let r = Reference::<Q>::choosing(spec, rules, &hard);
                let turns = r.at_start(&r.expectation(|_| Q::int(1))).to_f64();
                close(&format!("hard's value with {rules}"), hard.expected_turns(), turns);
            }
        }
    }
}
