//! How long exact analysis takes (issue 4 targets): a 100-cell board's full analysis with
//! 4 seats ≤ 1 ms; 10^4 cells with 500 jumps ≤ 50 ms; 10^6 cells with 1,000 jumps ≤ 2 s.
//!
//! "Full" is everything `snl analyze` prints: expectations, standard deviation, landings, the
//! turn distribution to a 1e-12 tail, and the seats. For the large random boards the
//! expectations (turns, rolls, standard deviation, landings: the linear solves the textbook
//! does with a dense `I − Q`) are measured apart from the turn distribution, whose cost is the
//! number of turns propagated (until the position's distribution keeps its shape, about 1,100 of
//! the 28,651 turns to a 1e-12 tail on the 10^4-cell board; the rest is a geometric tail) times
//! the cells holding mass.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use snl_analysis::exact::{self, Options, TurnChain};
use snl_engine::{Board, FirstOption, Preset, RandomBoard, Rules};

fn random(size: u32, jumps: u32, seed: u64) -> Board {
    let rules = Rules::default();
    let spec =
        RandomBoard { size, snakes: jumps / 2, ladders: jumps / 2, seed, min_jump: 1 }.spec(&rules);
    Board::new(&spec, &rules).unwrap()
}

fn expectations_only() -> Options {
    let mut options = Options::default();
    options.max_work = 0;
    options
}

fn hundred_cells(c: &mut Criterion) {
    let mut group = c.benchmark_group("full_analysis_4_seats");
    for (name, rules) in [
        ("standard", Rules::default()),
        ("strict-sixes", Rules::named("strict-sixes").unwrap()),
        ("three-sixes", Rules::named("three-sixes").unwrap()),
    ] {
        for preset in [Preset::MiltonBradley, Preset::Classic] {
            // The Milton Bradley board has a ladder on cell 1, where three-sixes starts.
            let Ok(board) = Board::new(&preset.spec(), &rules) else { continue };
            group.bench_function(BenchmarkId::new(name, preset), |b| {
                b.iter(|| {
                    let analysis = exact::analyze(&board, &rules).unwrap();
                    black_box(analysis.seats(4))
                });
            });
        }
    }
    group.finish();
}

fn large_boards(c: &mut Criterion) {
    let rules = Rules::default();
    let mut group = c.benchmark_group("expectations");
    group.sample_size(10);
    for (size, jumps) in [(10_000, 500), (1_000_000, 1_000)] {
        let board = random(size, jumps, 0);
        group.bench_function(
            BenchmarkId::new("random", format!("{size}_cells_{jumps}_jumps")),
            |b| {
                b.iter(|| {
                    exact::analyze_with(&board, &rules, &FirstOption, &expectations_only()).unwrap()
                });
            },
        );
    }
    let board = random(1_000_000, 1_000, 0);
    group.bench_function("turn_chain_1000000_cells", |b| {
        b.iter(|| TurnChain::new(&board, &rules).transitions());
    });
    group.finish();

    let mut group = c.benchmark_group("distribution");
    group.sample_size(10);
    let board = random(10_000, 500, 0);
    group.bench_function("random_10000_cells_500_jumps", |b| {
        b.iter(|| exact::analyze(&board, &rules).unwrap().distribution.turns());
    });
    // Everything `snl analyze` prints for four players: the "full analysis".
    group.bench_function("random_10000_cells_500_jumps_4_seats", |b| {
        b.iter(|| {
            let analysis = exact::analyze(&board, &rules).unwrap();
            black_box(analysis.seats(4))
        });
    });
    // The same distribution with every one of its 28,651 turns propagated (no geometric tail).
    let mut every_turn = Options::default();
    every_turn.geometric_tail = false;
    group.bench_function("random_10000_cells_500_jumps_every_turn", |b| {
        b.iter(|| {
            exact::analyze_with(&board, &rules, &FirstOption, &every_turn)
                .unwrap()
                .distribution
                .turns()
        });
    });
    group.finish();
}

/// Big dice on small boards (issue 16): games of millions of turns, whose quantiles come from
/// powers of the chain. Everything `snl analyze` computes. Before: 4d100 on kids 207 s, 4d50 on
/// classic over a minute; now some 0.07 s and 0.5 s (CPU, whole process).
fn big_dice(c: &mut Criterion) {
    let mut group = c.benchmark_group("big_dice");
    group.sample_size(10);
    for (preset, dice) in [(Preset::Kids, "4d100"), (Preset::Classic, "4d50")] {
        let rules = Rules { dice: dice.parse().unwrap(), ..Rules::default() };
        let board = Board::new(&preset.spec(), &rules).unwrap();
        group.bench_function(BenchmarkId::new(dice, preset), |b| {
            b.iter(|| exact::analyze(&board, &rules).unwrap().median_turns());
        });
    }
    group.finish();
}

/// Everything `snl analyze` computes for one player (`exact::analyze`), across sizes with sparse
/// (one per 100 cells, one per 1,000 at 10^6) and dense (one per 20 cells) jumps. Issue 16: the
/// 10^5-cell board with one jump per 20 cells within 0.6 s on one core.
///
/// The board here is `snl board generate --size 100000 --snakes 2500 --ladders 2500 --seed 0
/// --min-jump 1` (games of 7,300 turns); the figure was taken on `--seed 1` with the
/// default minimum jump (games of 2,100 turns). `snl analyze` on them, user CPU, median of 5
/// under `taskset -c 0` on a machine shared with other builds (load 9): seed 1, 0.88 s before,
/// 0.61 s after; the min of a few in-process runs is about 0.55 s. Seed 0: the tail's bound
/// never passed before (11,495 turns propagated to the work limit, 2.9 s in-process), it now
/// starts at turn 3,818 (1.1 s). This bench (wall time, same load): 5.3 s before, 2.2 s after;
/// `analyze/10000_cells_500_jumps` 78 ms.
///
/// Since the tail's bound is measured with λ in double-double and the stored distribution's
/// rounding smoothed (`exact/tail.rs`), seed 0's tail starts at turn 1,959 (3,818 before).
/// `snl analyze` CPU seconds, median of 7 pinned to one core (`farm-bench --pin 0`, paired with
/// the build before; machine shared with five other builds, wall ≈ 2.5 × CPU), seeds 0–5:
/// 0.675 (1.002 before), 0.642 (0.566), 0.559 (0.800), 0.548 (0.523), 0.727 (0.696), 0.657
/// (0.714); the tail starts at turns 1,959, 1,909, 1,211, 1,222, 2,176, 2,478. This group's
/// 10^5-cell boards (wall, same load, unpinned): seed 0 1.39 s, seeds 1–5 1.45, 1.49, 1.25, 1.57,
/// 1.59 s.
///
/// Since turns from the geometric tail are charged at their own cost (a few multiply-adds, not a
/// pass over the board), every board of the family is followed to its 1e-12 tail: seed 0 to
/// turn 196,896 (11,495 and 20% of the games still on before), with every quantile. `snl
/// analyze` CPU seconds, median of 5, `farm-bench -n 5 --pin 0` paired with the main build of
/// the day (load 10–13 on 2 cores): seeds 0–5 0.653 (0.692), 0.626 (0.635), 0.504 (0.470), 0.449
/// (0.448), 0.699 (0.717), 0.652 (0.639): the same cost, now for the complete answer.
fn analyze_sizes(c: &mut Criterion) {
    let rules = Rules::default();
    let mut group = c.benchmark_group("analyze");
    group.sample_size(10);
    for (size, jumps) in [
        (1_000, 10),
        (1_000, 50),
        (10_000, 100),
        (10_000, 500),
        (100_000, 1_000),
        (100_000, 5_000),
        (1_000_000, 1_000),
    ] {
        let board = random(size, jumps, 0);
        group.bench_function(format!("{size}_cells_{jumps}_jumps"), |b| {
            b.iter(|| exact::analyze(&board, &rules).unwrap().median_turns());
        });
    }
    // The rest of the family, as `snl board generate --size 100000 --snakes 2500
    // --ladders 2500 --seed S` draws it (minimum jump 3; seed 0 draws the board above).
    for seed in 1..=5 {
        let spec = RandomBoard {
            size: 100_000,
            snakes: 2_500,
            ladders: 2_500,
            seed,
            min_jump: RandomBoard::DEFAULT_MIN_JUMP,
        }
        .spec(&rules);
        let board = Board::new(&spec, &rules).unwrap();
        group.bench_function(format!("100000_cells_5000_jumps_seed_{seed}"), |b| {
            b.iter(|| exact::analyze(&board, &rules).unwrap().median_turns());
        });
    }
    group.finish();
}

/// Cell effects (issue 11): the party preset's full analysis with 4 seats (its chain has four
/// states per cell: shield held, skip pending), against the classic board; what every effect
/// cell is worth (one more analysis per effect cell, 10 on party); and a race of 20 rounds.
fn effects(c: &mut Criterion) {
    let rules = Rules::default();
    let party = Board::new(&Preset::Party.spec(), &rules).unwrap();
    let classic = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let mut group = c.benchmark_group("effects");
    for (name, board) in [("party", &party), ("classic", &classic)] {
        group.bench_function(BenchmarkId::new("full_analysis_4_seats", name), |b| {
            b.iter(|| {
                let analysis = exact::analyze(board, &rules).unwrap();
                black_box(analysis.seats(4))
            });
        });
    }
    group.bench_function("effect_worth_party_2_seats", |b| {
        b.iter(|| exact::effect_worth(&party, &rules, 2).unwrap());
    });
    let race = Rules {
        mode: snl_engine::Mode::Race { rounds: std::num::NonZeroU32::new(20).unwrap() },
        ..rules
    };
    group.bench_function("race_20_rounds_party_4_seats", |b| {
        b.iter(|| exact::race_on(&party, &race, 4).unwrap());
    });
    group.finish();
}

criterion_group!(benches, hundred_cells, large_boards, big_dice, analyze_sizes, effects);
criterion_main!(benches);
