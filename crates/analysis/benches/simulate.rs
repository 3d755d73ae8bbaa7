//! Simulation speed in rolls per second (criterion's "elements"): the race kernel on the standard
//! rules, the general kernel on bonus and void rules, on one and two threads, and the engine's own
//! `Game` as the baseline a simulator without its own kernel would have.
//!
//! Every iteration plays the same seeded games, so the number of rolls per iteration is known
//! exactly and criterion's throughput is the true rolls per second.

use std::{hint::black_box, time::Duration};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use snl_analysis::simulate::Simulator;
use snl_engine::{
    Board, BoardSpec, Dice, FirstOption, Game, Overshoot, Preset, Rules, Seat, SeatKind, SeededDice,
};

const SEED: u64 = 2024;

fn setup(spec: &BoardSpec, set: &str) -> (Board, Rules) {
    let rules = Rules::named(set).expect("a rule set");
    (Board::new(spec, &rules).expect("a valid board"), rules)
}

fn simulators() -> Vec<(&'static str, Simulator, u64)> {
    let classic = Preset::Classic.spec();
    let (board, standard) = setup(&classic, "standard");
    let race = Simulator::new(&board, &standard, 2).expect("playable");
    let general = race.clone().general();
    let (board, strict) = setup(&classic, "strict-sixes");
    let strict = Simulator::new(&board, &strict, 2).expect("playable");
    let (board, three) = setup(&Preset::Kids.spec(), "three-sixes");
    let three = Simulator::new(&board, &three, 4).expect("playable");
    // Two dice summed, bouncing back from the end: moves are computed, not looked up.
    let (board, mut two_dice) = setup(&Preset::MiltonBradley.spec(), "bonus-six");
    two_dice.dice = Dice::new(2, 6).expect("2d6");
    two_dice.overshoot = Overshoot::Bounce;
    let two_dice = Simulator::new(&board, &two_dice, 3).expect("playable");
    vec![
        ("standard-classic-2-seats", race, 40_000),
        ("standard-classic-2-seats-general-kernel", general, 20_000),
        ("strict-sixes-classic-2-seats", strict, 20_000),
        ("three-sixes-kids-4-seats", three, 20_000),
        ("2d6-bonus-bounce-milton-bradley-3-seats", two_dice, 20_000),
    ]
}

fn simulate(c: &mut Criterion) {
    let mut group = c.benchmark_group("simulate");
    group.sample_size(20).measurement_time(Duration::from_secs(4));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
        for (name, sim, games) in simulators() {
            let rolls = sim.run(SEED, games).total_rolls();
            group.throughput(Throughput::Elements(rolls));
            let id = BenchmarkId::new(name, format!("{threads}-threads"));
            group.bench_function(id, |b| {
                b.iter(|| pool.install(|| black_box(sim.run(black_box(SEED), games))));
            });
        }
    }
    group.finish();
}

fn engine_baseline(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine-game");
    group.sample_size(10).measurement_time(Duration::from_secs(4));
    let (board, rules) = setup(&Preset::Classic.spec(), "standard");
    let seats = vec![Seat::new("A", SeatKind::Easy), Seat::new("B", SeatKind::Easy)];
    let play = |games: u64| {
        let mut dice = SeededDice::new(SEED);
        let mut rolls = 0;
        for _ in 0..games {
            let mut game = Game::new(board.clone(), rules, seats.clone()).expect("playable");
            game.play_to_end(&mut dice, &mut FirstOption, &mut ()).expect("no errors");
            rolls += u64::from(game.rolls());
        }
        rolls
    };
    let games = 2000;
    group.throughput(Throughput::Elements(play(games)));
    group
        .bench_function("standard-classic-2-seats/1-thread", |b| b.iter(|| black_box(play(games))));
    group.finish();
}

criterion_group!(benches, simulate, engine_baseline);
criterion_main!(benches);
