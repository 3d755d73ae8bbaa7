//! The fast exact analysis (dice diagonals summed then scaled, GMRES on many back cells, one solve
//! for turns and rolls when every turn is one roll, the geometric tail) against the plainest
//! reference there is: the start's distribution pushed through the chain's rows one transition
//! at a time, turn after turn, until less than 1e-14 is left. Expected turns, rolls and the
//! standard deviation come from that distribution's sums, so nothing is shared with the solvers.
//! Boards: printed ones under several rules, random ones of 10^3 cells and the 10^4-cell board
//! with one jump per 20 cells.

use snl_analysis::exact::{self, Options, TurnChain};
use snl_engine::{Board, FirstOption, Overshoot, Preset, RandomBoard, Rules};

/// What the reference gives: `P(T ≤ k)` for every k, E[T], E[rolls] and the standard deviation.
struct Reference {
    cdf: Vec<f64>,
    turns: f64,
    rolls: f64,
    std_dev: f64,
}

/// Propagates the start's distribution through the chain's rows until less than 1e-14 is left.
/// The boards used have no trap: every position can still finish.
fn reference(chain: &TurnChain) -> Reference {
    let n = chain.size() as usize;
    let mut now = vec![0.0; n + 1];
    now[chain.start() as usize] = 1.0;
    let mut next = vec![0.0; n + 1];
    let (mut finished, mut left) = (0.0, 1.0);
    let mut cdf = vec![0.0];
    // E[T] = Σ_k P(T > k), E[T²] = Σ_k (2k + 1) P(T > k), E[rolls] = Σ_k E[rolls in turn k+1].
    let (mut turns, mut square, mut rolls) = (0.0, 0.0, 0.0);
    let mut k = 0.0;
    while left >= 1e-14 {
        turns += left;
        square += (2.0 * k + 1.0) * left;
        next.fill(0.0);
        for (b, &m) in now[..n].iter().enumerate() {
            if m == 0.0 {
                continue;
            }
            rolls += m * chain.rolls(b as u32);
            for (e, p) in chain.row(b as u32) {
                next[e as usize] += p * m;
            }
        }
        finished += std::mem::take(&mut next[n]);
        left = next[..n].iter().sum();
        cdf.push(finished);
        std::mem::swap(&mut now, &mut next);
        k += 1.0;
    }
    Reference { cdf, turns, rolls, std_dev: (square - turns * turns).sqrt() }
}

#[track_caller]
fn close(what: &str, a: f64, b: f64, rel: f64) {
    assert!((a - b).abs() <= rel * b.abs(), "{what}: {a} vs {b}");
}

#[track_caller]
fn agrees(name: &str, board: &Board, rules: &Rules) {
    agrees_with(name, board, rules, &Options::default());
}

#[track_caller]
fn agrees_with(name: &str, board: &Board, rules: &Rules, options: &Options) {
    let fast = exact::analyze_with(board, rules, &FirstOption, options).unwrap();
    let chain = TurnChain::new(board, rules);
    let slow = reference(&chain);
    let d = &fast.distribution;
    assert!(d.is_complete(), "{name}: the distribution stopped early");
    assert!(fast.never_finish_probability == 0.0, "{name}: a trap");
    // Every P(T ≤ k) the fast analysis reports, to 1e-12 relative (the tail's promise) and
    // 1e-15 absolute (the reference's own rounding over thousands of turns).
    for (k, &want) in slow.cdf.iter().enumerate().take(d.turns() + 1) {
        let got = d.cdf(k);
        assert!((got - want).abs() <= 1e-12 * want + 1e-15, "{name}: P(T <= {k}) {got} vs {want}");
    }
    // The reference stops at 1e-14 left: its sums miss at most that tail times E[T].
    close(&format!("{name}: expected turns"), fast.expected_turns, slow.turns, 1e-9);
    close(&format!("{name}: expected rolls"), fast.expected_rolls, slow.rolls, 1e-9);
    close(&format!("{name}: standard deviation"), fast.std_dev_turns, slow.std_dev, 1e-9);
    for q in exact::QUANTILES {
        let want = slow.cdf.partition_point(|&p| p < q - 1e-12) as u32;
        assert_eq!(d.quantile(q), Some(want), "{name}: quantile {q}");
    }
}

fn random(size: u32, jumps: u32, seed: u64, rules: &Rules) -> Board {
    let spec =
        RandomBoard { size, snakes: jumps / 2, ladders: jumps / 2, seed, min_jump: 1 }.spec(rules);
    Board::new(&spec, rules).unwrap()
}

#[test]
fn the_fast_analysis_agrees_with_plain_propagation_on_printed_boards() {
    for rules in ["standard", "bonus-six", "strict-sixes"] {
        let rules = Rules::named(rules).unwrap();
        for preset in [Preset::Classic, Preset::MiltonBradley] {
            let Ok(board) = Board::new(&preset.spec(), &rules) else { continue };
            agrees(&format!("{preset} under {rules}"), &board, &rules);
        }
    }
}

#[test]
fn the_fast_analysis_agrees_with_plain_propagation_on_random_boards() {
    let two_dice =
        Rules { dice: "2d6".parse().unwrap(), overshoot: Overshoot::Bounce, ..Rules::default() };
    for (i, rules) in
        [Rules::default(), Rules::named("bonus-six").unwrap(), two_dice].iter().enumerate()
    {
        for seed in 0..2 {
            let board = random(1_000, 50, seed + 10 * i as u64, rules);
            agrees(&format!("1000 cells, seed {seed}, {rules}"), &board, rules);
        }
    }
}

/// 10^4-cell boards: with one jump per 20 cells (248 back cells, solved directly; a
/// distribution of some 30,000 turns, most of them from the tail), and with one per 5 cells
/// (more than 900 back cells, solved by GMRES).
#[test]
fn the_fast_analysis_agrees_with_plain_propagation_on_ten_thousand_cells() {
    let rules = Rules::default();
    for jumps in [500, 2_000] {
        let board = random(10_000, jumps, 0, &rules);
        let analysis = exact::analyze(&board, &rules).unwrap();
        assert!(analysis.distribution.propagated_turns() < analysis.distribution.turns() / 4);
        assert!(
            analysis.back_cells > if jumps == 500 { 200 } else { 900 },
            "{}",
            analysis.back_cells
        );
        agrees(&format!("10^4 cells, {jumps} jumps"), &board, &rules);
    }
}

/// A slow tail: snakes every 25 cells over the last fifth of the board send tokens back to its
/// first third, so games last some thousands of turns (E[T] ≈ 2,686; 1 − λ is small, 12,035 of
/// 70,209 turns propagated). There the tail's bound is measured in double-double, with λ in
/// double-double and the rounding of the distribution smoothed by the chain; every `P(T ≤ k)`
/// still agrees with plain propagation to 1e-12.
#[test]
fn the_fast_analysis_agrees_with_plain_propagation_where_the_tail_is_slow() {
    let rules = Rules::default();
    let ladders = [(5, 120), (30, 200), (77, 260), (340, 520), (610, 700)];
    let snakes = (0..8).map(|i| (805 + 25 * i, 110 + 23 * i));
    let spec = snl_engine::BoardSpec::with_jumps(1_000, ladders.into_iter().chain(snakes));
    let board = Board::new(&spec, &rules).unwrap();
    let analysis = exact::analyze(&board, &rules).unwrap();
    let d = &analysis.distribution;
    assert!(analysis.expected_turns > 1_000.0, "{}", analysis.expected_turns);
    assert!(d.propagated_turns() < d.turns() / 4);
    agrees("slow tail", &board, &rules);
}

/// The slow tail's board (above).
fn slow_tail() -> Board {
    let ladders = [(5, 120), (30, 200), (77, 260), (340, 520), (610, 700)];
    let snakes = (0..8).map(|i| (805 + 25 * i, 110 + 23 * i));
    let spec = snl_engine::BoardSpec::with_jumps(1_000, ladders.into_iter().chain(snakes));
    Board::new(&spec, &Rules::default()).unwrap()
}

/// Turns from the geometric tail cost a few operations each, not a turn's pass over the board:
/// with a work limit that propagating every turn of the slow tail (70,209 turns) exceeds four
/// times over, the distribution is still followed to its 1e-12 tail, and every `P(T ≤ k)` and
/// every quantile agree with plain propagation.
#[test]
fn a_work_limit_that_stops_propagation_does_not_stop_the_tail() {
    let (board, rules) = (slow_tail(), Rules::default());
    let mut limited = Options::default();
    limited.max_work = 150_000_000;
    let mut every_turn = limited.clone();
    every_turn.geometric_tail = false;
    let cut = exact::analyze_with(&board, &rules, &FirstOption, &every_turn).unwrap();
    assert!(!cut.distribution.is_complete(), "the limit does not stop plain propagation");
    assert!(4 * cut.distribution.turns() < 70_209, "{}", cut.distribution.turns());
    let fast = exact::analyze_with(&board, &rules, &FirstOption, &limited).unwrap();
    let d = &fast.distribution;
    assert!(d.is_complete() && d.turns() > 70_000, "{} turns", d.turns());
    assert!(d.turns() > 4 * d.propagated_turns(), "{} of {}", d.propagated_turns(), d.turns());
    agrees_with("slow tail, limited work", &board, &rules, &limited);
}

/// The tail's law in closed form (what `--json` gives past its list) against the distribution
/// it summarises, turn by turn, and its quantiles against the distribution's (levels past the
/// propagated turns: on this board the 99% quantile is still propagated).
#[test]
fn the_tails_law_in_closed_form_gives_the_tails_turns() {
    let (board, rules) = (slow_tail(), Rules::default());
    let a = exact::analyze(&board, &rules).unwrap();
    let d = &a.distribution;
    let law = d.geometric_tail().expect("a geometric tail");
    assert_eq!(law.from, d.propagated_turns());
    assert!(
        (law.gap - (1.0 - law.ratio)).abs() < 1e-15
            && law.bound.to_bits() == d.tail_bound().to_bits()
    );
    let at_from = d.cdf(law.from);
    for k in law.from..=d.turns() {
        let got = at_from + law.finished_by(k);
        assert!((got - d.cdf(k)).abs() <= 1e-12 * d.cdf(k), "P(T <= {k}): {got} vs {}", d.cdf(k));
    }
    for q in [0.999, 0.9999, 0.999_99, 0.999_999, 0.999_999_9] {
        let k = d.quantile(q).unwrap();
        assert!(k as usize > law.from, "quantile {q}: {k}");
        assert_eq!(law.quantile(at_from, q), Some(k), "quantile {q}");
    }
}

/// Issue 16's board (`snl board generate --size 100000 --snakes 2500 --ladders 2500 --seed 0`):
/// games of 7,300 turns, some 197,000 turns to the 1e-12 tail, of which about 2,000 propagated.
/// Plain propagation of every turn is out of reach here (10^11 multiply-adds), so the whole
/// distribution is checked against the linear solves: its mean `Σ P(T > k)` and standard
/// deviation from `Σ (2k + 1) P(T > k)` agree with them to 1e-9, and every quantile is known.
#[test]
fn a_hundred_thousand_cell_board_is_followed_to_its_tail() {
    let rules = Rules::default();
    let spec = RandomBoard {
        size: 100_000,
        snakes: 2_500,
        ladders: 2_500,
        seed: 0,
        min_jump: RandomBoard::DEFAULT_MIN_JUMP,
    }
    .spec(&rules);
    let a = exact::analyze(&Board::new(&spec, &rules).unwrap(), &rules).unwrap();
    let d = &a.distribution;
    assert!(d.is_complete() && d.turns() > 150_000, "{} turns", d.turns());
    assert!(d.propagated_turns() < 5_000, "{}", d.propagated_turns());
    let (mut mean, mut square) = (0.0, 0.0);
    for k in 0..=d.turns() {
        mean += d.survival(k);
        square += (2.0 * k as f64 + 1.0) * d.survival(k);
    }
    close("mean", mean, a.expected_turns, 1e-9);
    close("standard deviation", (square - mean * mean).sqrt(), a.std_dev_turns, 1e-9);
    assert!(exact::QUANTILES.iter().all(|&q| d.quantile(q).is_some()));
    assert!(a.mode_turns().is_some());
}
