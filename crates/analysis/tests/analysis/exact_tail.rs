//! The geometric tail of the turn distribution against full propagation of every turn: on random
//! boards of every size under random rules, and on boards built to make it hard (long snakes,
//! bonus rolls and void, traps, the 10^4-cell benchmark board), every reported number must agree
//! to 1e-12 relative, and the tail must really be used.

use num_bigint::BigInt;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use snl_analysis::exact::{self, Analysis, Options, QUANTILES};
use snl_engine::{
    Board, BoardSpec, Bonus, Choice, Dice, Finish, FirstOption, JumpMode, MaxBonus, OnMax,
    Overshoot, RandomBoard, Rules, Start,
};

/// The analysis with and without the geometric tail.
fn both(board: &Board, rules: &Rules) -> (Analysis, Analysis) {
    let fast = exact::analyze_with(board, rules, &FirstOption, &Options::default()).unwrap();
    let mut options = Options::default();
    options.geometric_tail = false;
    let full = exact::analyze_with(board, rules, &FirstOption, &options).unwrap();
    (fast, full)
}

/// |a − b| within `rel` of the larger, or both the same infinity.
fn near(a: f64, b: f64, rel: f64) -> bool {
    if a.is_infinite() || b.is_infinite() {
        return a.to_bits() == b.to_bits();
    }
    (a - b).abs() <= rel * b.abs().max(a.abs())
}

/// Every number the analysis reports, from the tail and from full propagation, agrees to 1e-12
/// relative; returns whether the tail was used.
fn agree(fast: &Analysis, full: &Analysis) -> Result<bool, String> {
    let (f, p) = (&fast.distribution, &full.distribution);
    let fail = |what: &str| Err(format!("{what} (tail from turn {})", f.propagated_turns()));
    if f.turns() != p.turns() || f.is_complete() != p.is_complete() {
        return fail(&format!("turns {} vs {}", f.turns(), p.turns()));
    }
    if p.propagated_turns() != p.turns() || p.tail_bound() != 0.0 {
        return fail("full propagation used the tail");
    }
    let used = f.propagated_turns() < f.turns();
    for k in 0..=f.turns() {
        let (a, b) = (f.cdf(k), p.cdf(k));
        // The a posteriori bound holds (up to the rounding of 30,000 turns of propagation)...
        if (a - b).abs() > f.tail_bound() + 1e-14 * b {
            return fail(&format!("P(T <= {k}) = {a} vs {b}, beyond the bound {}", f.tail_bound()));
        }
        // ... and keeps every P(T ≤ k) within 1e-12.
        if !near(a, b, 1e-12) {
            return fail(&format!("P(T <= {k}) = {a} vs {b}"));
        }
        let (a, b) = (f.survival(k), p.survival(k));
        if (a - b).abs() > 1e-12 * (1.0 - p.survival(k)).max(b) + 1e-14 * b {
            return fail(&format!("P(T > {k}) = {a} vs {b}"));
        }
        // Rolls are a few per turn at most: the same bound, in rolls.
        if k >= 1 && (f.rolls_in_turn(k) - p.rolls_in_turn(k)).abs() > 1e-11 {
            let (a, b) = (f.rolls_in_turn(k), p.rolls_in_turn(k));
            return fail(&format!("rolls in turn {k}: {a} vs {b}"));
        }
    }
    if f.residual() >= 1e-12 && f.is_complete() {
        return fail("complete with more than the tail left");
    }
    if (fast.median_turns(), fast.mode_turns()) != (full.median_turns(), full.mode_turns()) {
        return fail("median or mode");
    }
    for q in QUANTILES {
        if f.quantile(q) != p.quantile(q) {
            return fail(&format!("quantile {q}"));
        }
    }
    for seats in [2, 3, 5] {
        let (a, b) = (fast.seats(seats), full.seats(seats));
        for (x, y) in a.win_probability.iter().zip(&b.win_probability) {
            if !near(*x, *y, 1e-12) {
                return fail(&format!("{seats} seats: P(win) {x} vs {y}"));
            }
        }
        if !near(a.expected_game_rolls, b.expected_game_rolls, 1e-12)
            || !near(a.expected_game_turns, b.expected_game_turns, 1e-12)
        {
            return fail(&format!(
                "{seats} seats: game rolls {} vs {}, turns {} vs {}",
                a.expected_game_rolls,
                b.expected_game_rolls,
                a.expected_game_turns,
                b.expected_game_turns
            ));
        }
        if let (Some(x), Some(y)) = (&a.rank_probability, &b.rank_probability) {
            for (u, v) in x.iter().flatten().zip(y.iter().flatten()) {
                if (u - v).abs() > 1e-12 * v.max(1e-3) {
                    return fail(&format!("{seats} seats: rank probability {u} vs {v}"));
                }
            }
        }
        if (a.unresolved - b.unresolved).abs() > 1e-12
            || a.never_ends.to_bits() != b.never_ends.to_bits()
        {
            return fail(&format!("{seats} seats: unresolved or never ends"));
        }
    }
    Ok(used)
}

#[track_caller]
fn check(board: &Board, rules: &Rules) -> Analysis {
    let (fast, full) = both(board, rules);
    match agree(&fast, &full) {
        Ok(used) => assert!(used, "the tail was not used with {rules}"),
        Err(e) => panic!("{e} with {rules}"),
    }
    fast
}

fn rules() -> impl Strategy<Value = Rules> {
    (
        (any::<bool>(), 0..7_usize, 0..3_usize, any::<bool>()),
        (any::<bool>(), 0..4_u32, any::<bool>(), any::<bool>(), 0..3_usize),
    )
        .prop_map(|((first_cell, dice, overshoot, chain), (bonus, cap, void, all, choice))| {
            Rules {
                start: if first_cell { Start::FirstCell } else { Start::OffBoard },
                dice: ["1d2", "1d3", "1d4", "1d6", "2d2", "2d3", "2d6"][dice]
                    .parse::<Dice>()
                    .unwrap(),
                overshoot: [Overshoot::Stay, Overshoot::Bounce, Overshoot::Win][overshoot],
                jumps: if chain { JumpMode::Chain } else { JumpMode::Single },
                bonus: if bonus { Bonus::TopFace } else { Bonus::None },
                max_bonus: if cap == 0 {
                    MaxBonus::Unlimited
                } else {
                    cap.to_string().parse().unwrap()
                },
                on_max: if void { OnMax::Void } else { OnMax::Pass },
                finish: if all { Finish::All } else { Finish::First },
                choice: [Choice::None, Choice::MayPass, Choice::PickDie][choice],
                mode: snl_engine::Mode::Classic,
            }
        })
}

/// Small boards with hand-drawn jumps (snakes of any length, chains, traps).
fn small_board() -> impl Strategy<Value = BoardSpec> {
    (4..40_u32).prop_flat_map(|size| {
        prop::collection::vec((1..=size, 1..=size), 0..8).prop_map(move |jumps| {
            let jumps = jumps.into_iter().filter(|(a, b)| a != b);
            BoardSpec::with_jumps(size, jumps)
        })
    })
}

/// Runs `cases` random cases of `strategy` × rules and returns (valid boards, boards whose
/// distribution used the tail). The cases are the same on every run, so that how many use the
/// tail can be asserted.
fn run(cases: u32, strategy: impl Strategy<Value = BoardSpec>) -> (u32, u32) {
    let counts = std::cell::Cell::new((0, 0));
    let rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let mut runner = TestRunner::new_with_rng(Config { cases, ..Config::default() }, rng);
    let result = runner.run(&(strategy, rules()), |(spec, rules)| {
        let Ok(board) = Board::new(&spec, &rules) else { return Ok(()) };
        let (fast, full) = both(&board, &rules);
        let used = agree(&fast, &full).map_err(TestCaseError::fail)?;
        let (valid, tail) = counts.get();
        counts.set((valid + 1, tail + u32::from(used)));
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    counts.get()
}

#[test]
fn the_tail_agrees_with_full_propagation_on_random_small_boards_under_random_rules() {
    let (valid, tail) = run(400, small_board());
    // Most boards settle into their shape before the tail; the rest (periodic ones, games
    // over in a few turns) are propagated to the end.
    assert!(valid >= 100 && tail * 2 >= valid, "{tail} of {valid} boards used the tail");
}

#[test]
fn the_tail_agrees_with_full_propagation_on_random_medium_boards_under_random_rules() {
    let boards = (100..1500_u32, 0..40_u32, any::<u64>()).prop_map(|(size, jumps, seed)| {
        let jumps = jumps.min(size / 8);
        RandomBoard { size, snakes: jumps / 2, ladders: jumps - jumps / 2, seed, min_jump: 1 }
            .spec(&Rules::default())
    });
    let (valid, tail) = run(32, boards);
    // Some boards never settle into one shape: with one die of two faces a few snakes can make
    // two slow modes of nearly the same size, whose beat keeps the ratio of successive masses
    // moving; they are propagated to the end.
    assert!(valid >= 16 && tail * 2 >= valid, "{tail} of {valid} boards used the tail");
}

fn board(size: u32, jumps: &[(u32, u32)], rules: &Rules) -> Board {
    Board::new(&BoardSpec::with_jumps(size, jumps.iter().copied()), rules).unwrap()
}

#[test]
fn long_snakes_keep_the_tail_exact() {
    // Snakes from near the end back to the start, one of them over the whole board.
    let rules = Rules::default();
    let a = check(&board(200, &[(199, 1), (190, 3), (150, 100), (120, 20)], &rules), &rules);
    assert!(a.distribution.turns() > 2 * a.distribution.propagated_turns());
    let bounce = Rules { overshoot: Overshoot::Bounce, ..Rules::default() };
    check(&board(120, &[(119, 2), (117, 60), (5, 90)], &bounce), &bounce);
}

#[test]
fn bonus_rolls_caps_and_void_keep_the_tail_exact() {
    let jumps = [(97, 2), (80, 30), (45, 5), (12, 70), (63, 88)];
    for name in ["bonus-six", "three-sixes", "strict-sixes"] {
        let rules = Rules::named(name).unwrap();
        check(&board(100, &jumps, &rules), &rules);
    }
    let void_two = Rules {
        bonus: Bonus::TopFace,
        max_bonus: "2".parse().unwrap(),
        on_max: OnMax::Void,
        overshoot: Overshoot::Bounce,
        dice: "2d3".parse().unwrap(),
        ..Rules::default()
    };
    check(&board(100, &jumps, &void_two), &void_two);
}

#[test]
fn trapped_tokens_keep_moving_exactly_in_the_tail() {
    // 2d6 never shows a 1: under overshoot stay a token on 99 is stuck for ever, and a snake
    // wall makes a larger trap that tokens go on moving around in.
    let rules = Rules { dice: "2d6".parse().unwrap(), ..Rules::default() };
    let a = check(&board(100, &[(40, 3), (61, 10), (75, 20)], &rules), &rules);
    assert!(a.never_finish_probability > 0.0 && a.never_finish_probability < 1.0);
    let bonus = Rules { bonus: Bonus::TopFace, ..rules };
    let a = check(&board(100, &[(40, 3), (61, 10), (75, 20)], &bonus), &bonus);
    assert!(a.never_finish_probability > 0.0);
}

#[test]
fn a_coin_game_follows_its_geometric_law_exactly_in_the_tail() {
    // 1d2 from cell 1 of 2: T ~ Geometric(½), P(T ≤ k) = 1 − 2^−k for every k.
    let rules = Rules { start: Start::FirstCell, dice: "1d2".parse().unwrap(), ..Rules::default() };
    let a = exact::analyze(&board(2, &[], &rules), &rules).unwrap();
    let d = &a.distribution;
    assert!(d.propagated_turns() < d.turns(), "the tail was not used");
    for k in 0..=d.turns() {
        let exact = 0.5_f64.powi(i32::try_from(k).unwrap());
        assert!((d.survival(k) - exact).abs() <= 1e-15 * exact, "P(T > {k})");
        assert!((d.cdf(k) - (1.0 - exact)).abs() <= 1e-15, "P(T <= {k})");
    }
}

/// The benchmark board of issue 4 (10^4 cells, 500 jumps): some 28,000 turns to a 1e-12 tail,
/// of which about a thousand are propagated.
#[test]
fn the_ten_thousand_cell_board_needs_a_twentieth_of_its_turns_propagated() {
    let rules = Rules::default();
    let spec =
        RandomBoard { size: 10_000, snakes: 250, ladders: 250, seed: 0, min_jump: 1 }.spec(&rules);
    let a = check(&Board::new(&spec, &rules).unwrap(), &rules);
    let d = &a.distribution;
    assert!(d.turns() > 20 * d.propagated_turns(), "{} of {}", d.propagated_turns(), d.turns());
    assert!(d.tail_bound() <= 1e-12 * d.cdf(d.propagated_turns()));
}

/// `numer / denom` to f64, through 40 exact decimal digits.
fn ratio(numer: &BigInt, denom: &BigInt) -> f64 {
    let digits = numer * BigInt::from(10).pow(40) / denom;
    digits.to_string().parse::<f64>().unwrap() / 1e40
}

#[test]
fn the_tail_matches_exact_rational_arithmetic_to_the_last_turn() {
    // Standard rules on 20 cells: one die, overshoot stays, single jumps. After k turns every
    // probability is a whole number of 6^−k, so the distribution is followed exactly in integers.
    let jumps = [(3, 11), (8, 16), (13, 2), (17, 6), (19, 9)];
    let rules = Rules::default();
    let a = exact::analyze(&board(20, &jumps, &rules), &rules).unwrap();
    let d = &a.distribution;
    assert!(3 * d.propagated_turns() < d.turns(), "{} of {}", d.propagated_turns(), d.turns());
    let mut to: Vec<usize> = (0..=20).collect();
    for (from, end) in jumps {
        to[from as usize] = end as usize;
    }
    // Positions 0..=20 in units of 6^−k; cell 20 collects what has finished.
    let mut now = vec![BigInt::from(0); 21];
    now[0] = BigInt::from(1);
    let mut denom = BigInt::from(1);
    for k in 1..=d.turns() {
        let mut next = vec![BigInt::from(0); 21];
        next[20] = &now[20] * 6;
        for b in 0..20 {
            for face in 1..=6 {
                let e = if b + face > 20 { b } else { to[b + face] };
                next[e] += &now[b];
            }
        }
        now = next;
        denom *= 6;
        let exact = ratio(&now[20], &denom);
        let got = d.cdf(k);
        assert!((got - exact).abs() <= 1e-12 * exact, "P(T <= {k}) = {got}, exactly {exact}");
    }
    assert!(1.0 - ratio(&now[20], &denom) < 1e-12, "followed to the 1e-12 tail");
}

/// Long games (1 − λ small): an allowance of a few ulps for the step's rounding, divided by
/// 1 − λ, would keep the bound above 1e-12 long after the shape has settled, or for ever; the
/// residual measured again in double-double precision lets the tail start where the shape has
/// settled, and every number still agrees with full propagation.
#[test]
fn long_games_take_the_tail_once_their_shape_has_settled() {
    let rules = Rules::default();
    // Games of 1,760 to 7,970 turns on average, 47,540 to 218,678 turns to the 1e-12 tail, of
    // which 467 to 4,513 are propagated.
    for (size, snakes, seed) in [(400, 60, 1), (300, 40, 4), (500, 70, 5)] {
        let spec = RandomBoard { size, snakes, ladders: 5, seed, min_jump: 1 }.spec(&rules);
        let a = check(&Board::new(&spec, &rules).unwrap(), &rules);
        let d = &a.distribution;
        let k = d.propagated_turns();
        // λ from the tail, and the allowance for rounding the bound used to carry.
        let lambda = d.survival(k + 2) / d.survival(k + 1);
        let allowance = 4.0 * f64::EPSILON * d.survival(k - 1) / (1.0 - lambda);
        assert!(allowance > 1e-12 * d.cdf(k), "{size} cells: the allowance would pass");
        assert!(d.tail_bound() <= 1e-12 * d.cdf(k));
    }
}
