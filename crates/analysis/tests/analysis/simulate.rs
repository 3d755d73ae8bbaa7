//! Simulation results: independent of the thread count, and in agreement with exact answers.

use snl_analysis::simulate::{Simulator, Tally, Z999};
use snl_engine::{Board, BoardSpec, Choice, JumpMode, Preset, Rules};

fn setup(spec: &BoardSpec, rules: &str) -> (Board, Rules) {
    let mut r = Rules::default();
    for option in rules.split_whitespace() {
        let (key, value) = option.split_once('=').expect("key=value");
        match key {
            "set" => r = Rules::named(value).unwrap(),
            "start" => r.start = value.parse().unwrap(),
            "dice" => r.dice = value.parse().unwrap(),
            "overshoot" => r.overshoot = value.parse().unwrap(),
            "jumps" => r.jumps = value.parse().unwrap(),
            "bonus" => r.bonus = value.parse().unwrap(),
            "max" => r.max_bonus = value.parse().unwrap(),
            "on-max" => r.on_max = value.parse().unwrap(),
            "finish" => r.finish = value.parse().unwrap(),
            "choice" => r.choice = value.parse().unwrap(),
            other => panic!("unknown option {other}"),
        }
    }
    (Board::new(spec, &r).unwrap(), r)
}

fn run_on_threads(sim: &Simulator, threads: usize, seed: u64, games: u64) -> Tally {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| sim.run(seed, games))
}

#[test]
fn a_seed_gives_the_same_tally_on_one_two_or_three_threads() {
    let cases = [
        (Preset::Classic.spec(), "set=standard", 2),
        (Preset::MiltonBradley.spec(), "set=strict-sixes", 3),
        (Preset::Kids.spec(), "set=three-sixes", 4),
        (Preset::Classic.spec(), "set=standard", 7),
    ];
    for (spec, rules, seats) in cases {
        let (board, rules) = setup(&spec, rules);
        let sim = Simulator::new(&board, &rules, seats).unwrap();
        // Not a multiple of the chunk size, so the short last chunk is exercised too.
        let one = run_on_threads(&sim, 1, 77, 20_500);
        assert_eq!(one.games(), 20_500);
        assert_eq!(one.wins().iter().sum::<u64>(), 20_500);
        assert_eq!(one, run_on_threads(&sim, 2, 77, 20_500));
        assert_eq!(one, run_on_threads(&sim, 3, 77, 20_500));
        assert_ne!(one, run_on_threads(&sim, 2, 78, 20_500), "another seed, other games");
    }
}

#[test]
fn progress_reports_every_game_once() {
    let (board, rules) = setup(&Preset::Classic.spec(), "set=standard");
    let sim = Simulator::new(&board, &rules, 2).unwrap();
    let done = std::sync::atomic::AtomicU64::new(0);
    let calls = std::sync::atomic::AtomicU64::new(0);
    let tally = sim.run_with_progress(1, 12_345, &|n| {
        done.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    });
    assert_eq!(tally.games(), 12_345);
    assert_eq!(done.into_inner(), 12_345);
    assert_eq!(calls.into_inner(), 13, "one call per chunk of 1000 games");
}

/// The exact expected number of rolls for one player to finish, by an independent linear solve
/// written here from the rules of SPEC §3 (not the simulator's code).
///
/// Without a void rule the turn structure does not change the rolls, so the chain is over
/// positions: `E(q) = 1 + Σ P(s)·E(end(q, s))`. With one, the chain is over the position at the
/// start of a turn, and each turn's rolls and end positions are enumerated to the cap's depth.
fn exact_single_player_rolls(board: &Board, rules: &Rules) -> f64 {
    let n = board.size() as usize;
    let faces = rules.dice.faces();
    // (steps, top face, probability) of one roll.
    let outcomes: Vec<(u32, bool, f64)> = if rules.choice == Choice::PickDie {
        (1..=faces).map(|d| (d, d == faces, 1.0 / f64::from(faces))).collect()
    } else {
        let weights = rules.dice.total_weights();
        let all: u64 = weights.iter().sum();
        let top = rules.dice.top_total() as usize;
        (0..weights.len())
            .filter(|&t| weights[t] > 0)
            .map(|t| (t as u32, t == top, weights[t] as f64 / all as f64))
            .collect()
    };
    let end = |q: usize, s: u32| board.advance(rules, q as u32, s).end as usize;
    let bonus = rules.bonus == snl_engine::Bonus::TopFace;
    let void =
        bonus && rules.on_max == snl_engine::OnMax::Void && rules.max_bonus.limit().is_some();
    // Rows: E(p) − Σ_q P(p→q)·E(q) = R(p); E(N) = 0.
    let mut matrix = vec![vec![0.0_f64; n + 1]; n + 1];
    let mut rhs = vec![0.0_f64; n + 1];
    for p in 0..=n {
        matrix[p][p] = 1.0;
        if p == n {
            continue;
        }
        if !void {
            rhs[p] = 1.0;
            for &(s, _, pr) in &outcomes {
                matrix[p][end(p, s)] -= pr;
            }
            continue;
        }
        let cap = rules.max_bonus.limit().unwrap();
        // Within-turn states (position, streak, probability).
        let mut states = vec![(p, 0_u32, 1.0_f64)];
        while let Some((q, streak, mass)) = states.pop() {
            rhs[p] += mass; // one roll from here
            for &(s, top, pr) in &outcomes {
                let m = mass * pr;
                if top && streak + 1 == cap {
                    matrix[p][p] -= m; // void: the turn ends where it began
                    continue;
                }
                let r = end(q, s);
                if r == n || !top {
                    matrix[p][r] -= m;
                } else {
                    states.push((r, streak + 1, m));
                }
            }
        }
    }
    solve(matrix, rhs)[rules.start_position() as usize]
}

/// Gaussian elimination with partial pivoting.
fn solve(mut matrix: Vec<Vec<f64>>, mut rhs: Vec<f64>) -> Vec<f64> {
    let size = rhs.len();
    for col in 0..size {
        let pivot = (col..size)
            .max_by(|&r, &q| matrix[r][col].abs().total_cmp(&matrix[q][col].abs()))
            .unwrap();
        matrix.swap(col, pivot);
        rhs.swap(col, pivot);
        for row in col + 1..size {
            let factor = matrix[row][col] / matrix[col][col];
            if factor != 0.0 {
                let (above, below) = matrix.split_at_mut(row);
                for (value, top) in below[0][col..].iter_mut().zip(&above[col][col..]) {
                    *value -= factor * top;
                }
                rhs[row] -= factor * rhs[col];
            }
        }
    }
    let mut solution = vec![0.0; size];
    for row in (0..size).rev() {
        let known: f64 = (row + 1..size).map(|k| matrix[row][k] * solution[k]).sum();
        solution[row] = (rhs[row] - known) / matrix[row][row];
    }
    solution
}

#[test]
fn the_independent_solve_knows_published_answers() {
    // Milton Bradley's Chutes and Ladders, one player, exact landing on 100: the expected number
    // of moves is 225837582538403273407117496273279920181931269186581786048583 /
    // 5757472998140039232950575874628786131130999406013041613400 = 39.225122308234…
    // (S. C. Althoen, L. King and K. Schilling, "How long is a game of Snakes and Ladders?",
    // The Mathematical Gazette 77, 1993; quoted at
    // https://www.futilitycloset.com/2018/09/21/for-what-its-worth-5/).
    let (board, rules) = setup(&Preset::MiltonBradley.spec(), "set=standard");
    let e = exact_single_player_rolls(&board, &rules);
    assert!((e - 39.225_122_308_234_96).abs() < 1e-9, "{e}");
    // With no jumps and overshoot win, rolls to reach 100: the renewal count U(100) obeys
    // E(k) = 1 + (E(k−1) + … + E(k−6))/6 with E(k ≤ 0) = 0; computed here directly.
    let mut e = vec![0.0_f64; 101 + 6];
    for k in 6..e.len() {
        e[k] = 1.0 + e[k - 6..k].iter().sum::<f64>() / 6.0;
    }
    let (board, rules) = setup(&Preset::Empty.spec(), "overshoot=win");
    let got = exact_single_player_rolls(&board, &rules);
    assert!((got - e[100 + 5]).abs() < 1e-9, "{got} vs {}", e[105]);
}

#[test]
fn the_exact_mean_lies_inside_the_simulated_999_interval() {
    let small = BoardSpec::with_jumps(
        30,
        [(3, 22), (5, 8), (11, 26), (20, 29), (17, 4), (19, 7), (27, 1), (21, 9)],
    );
    let cases = [
        (Preset::Classic.spec(), "set=standard"),
        (Preset::Classic.spec(), "set=strict-sixes"),
        (Preset::Classic.spec(), "set=bonus-six overshoot=bounce"),
        (Preset::MiltonBradley.spec(), "set=standard"),
        (Preset::MiltonBradley.spec(), "bonus=top-face max=1 on-max=void"),
        (Preset::Kids.spec(), "set=three-sixes"),
        (Preset::Empty.spec(), "dice=2d6 bonus=top-face max=2 on-max=void overshoot=win"),
        (small.clone(), "dice=1d4 jumps=chain overshoot=bounce"),
        (small.clone(), "choice=pick-die bonus=top-face max=2 on-max=void"),
        (small, "dice=3d4 start=first-cell overshoot=bounce"),
    ];
    for (i, (spec, text)) in cases.into_iter().enumerate() {
        let (board, rules) = setup(&spec, text);
        assert!(rules.jumps == JumpMode::Chain || !text.contains("chain"));
        let exact = exact_single_player_rolls(&board, &rules);
        let sim = Simulator::new(&board, &rules, 1).unwrap();
        let tally = sim.run(1000 + i as u64, 200_000);
        let ci = tally.mean_rolls_interval(Z999);
        assert!(
            ci.contains(exact),
            "rules '{text}': exact {exact:.4} outside the simulated 99.9% interval [{:.4}, {:.4}]",
            ci.lo,
            ci.hi
        );
    }
}

#[test]
fn the_exact_analysis_lies_inside_the_simulated_999_intervals_for_several_seats() {
    // Against `snl_analysis::exact`: the expected game length in rolls, and each seat's chance
    // to finish first, for boards × rule sets × seat counts (finish all with 3 and 4 seats).
    let cases = [
        (Preset::Classic.spec(), "set=standard", 2),
        (Preset::Classic.spec(), "set=strict-sixes", 2),
        (Preset::MiltonBradley.spec(), "set=bonus-six", 3),
        (Preset::Kids.spec(), "set=three-sixes", 3),
        (Preset::Kids.spec(), "set=three-sixes", 4),
        (Preset::Empty.spec(), "dice=2d6 overshoot=bounce jumps=chain", 2),
        (Preset::MiltonBradley.spec(), "choice=pick-die bonus=top-face max=2 on-max=void", 2),
        (Preset::Classic.spec(), "dice=1d4 finish=all bonus=top-face max=1 on-max=void", 4),
    ];
    for (i, (spec, text, seats)) in cases.into_iter().enumerate() {
        let (board, rules) = setup(&spec, text);
        let exact = snl_analysis::exact::analyze(&board, &rules).unwrap().seats(seats);
        let sim = Simulator::new(&board, &rules, seats).unwrap();
        let tally = sim.run(7000 + i as u64, 200_000);
        let what = format!("rules '{text}', {seats} seats");
        let ci = tally.mean_rolls_interval(Z999);
        assert!(
            ci.contains(exact.expected_game_rolls),
            "{what}: exact {:.4} rolls outside the simulated 99.9% interval [{:.4}, {:.4}]",
            exact.expected_game_rolls,
            ci.lo,
            ci.hi
        );
        for (seat, &p) in exact.win_probability.iter().enumerate() {
            let ci = tally.win_interval(seat, Z999);
            assert!(
                ci.contains(p),
                "{what}: seat {seat} exact win chance {p:.5} outside [{:.5}, {:.5}]",
                ci.lo,
                ci.hi
            );
        }
    }
}

#[test]
fn the_exact_analysis_and_the_independent_solve_agree_for_one_player() {
    let small = BoardSpec::with_jumps(30, [(3, 22), (11, 26), (17, 4), (27, 1)]);
    for (spec, text) in [
        (Preset::Classic.spec(), "set=strict-sixes"),
        (Preset::Kids.spec(), "set=three-sixes"),
        (small, "choice=pick-die bonus=top-face max=2 on-max=void overshoot=bounce"),
    ] {
        let (board, rules) = setup(&spec, text);
        let exact = snl_analysis::exact::analyze(&board, &rules).unwrap().expected_rolls;
        let ours = exact_single_player_rolls(&board, &rules);
        assert!((exact - ours).abs() < 1e-9 * ours, "rules '{text}': {exact} vs {ours}");
    }
}

#[test]
fn a_seeded_simulation_is_pinned_so_releases_cannot_change_it() {
    // Chunking, chunk seeds, the dice stream and both kernels together: if any of them changes,
    // a published seed would give other numbers.
    let (board, rules) = setup(&Preset::Classic.spec(), "set=standard");
    let tally = Simulator::new(&board, &rules, 2).unwrap().run(42, 2500);
    assert_eq!((tally.total_rolls(), tally.wins()), PINNED_STANDARD);
    let (board, rules) = setup(&Preset::Kids.spec(), "set=three-sixes");
    let tally = Simulator::new(&board, &rules, 3).unwrap().run(42, 2500);
    assert_eq!((tally.total_rolls(), tally.total_turns(), tally.wins()), PINNED_THREE_SIXES);
}
const PINNED_STANDARD: (u64, &[u64]) = (139_577, &[1297, 1203]);
const PINNED_THREE_SIXES: (u64, u64, &[u64]) = (106_788, 89_283, &[891, 868, 741]);
