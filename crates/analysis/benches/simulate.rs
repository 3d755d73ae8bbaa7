//! Simulation speed in rolls per second (criterion's "elements"): the race kernel on the standard
//! rules, the general kernel on bonus and void rules, on one and two threads, and the engine's own
//! `Game` as the baseline a simulator without its own kernel would have. The `kernel` group runs
//! on one thread: the plain classic board beside the general kernel with cell effects (the party
//! preset) and in race mode, so their figures come from the same run.
//!
//! Every iteration plays the same seeded games, so the number of rolls per iteration is known
//! exactly and criterion's throughput is the true rolls per second.

use std::{hint::black_box, time::Duration};

use criterion::{
    BenchmarkId, Criterion, Throughput, criterion_group, criterion_main,
    measurement::{Measurement, ValueFormatter},
};
use snl_analysis::simulate::{CHUNK_GAMES, Simulator};
use snl_engine::{
    Board, BoardSpec, Dice, FirstOption, Game, Mode, Overshoot, Preset, Rules, Seat, SeatKind,
    SeededDice,
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

/// One thread: plain boards beside cell effects and races.
fn kernels() -> Vec<(&'static str, Simulator, u64)> {
    let (classic, standard) = setup(&Preset::Classic.spec(), "standard");
    let (party, _) = setup(&Preset::Party.spec(), "standard");
    let (party_strict, strict) = setup(&Preset::Party.spec(), "strict-sixes");
    let race = Rules { mode: Mode::Race { rounds: 10.try_into().expect("10 > 0") }, ..standard };
    let sim =
        |board: &Board, rules: &Rules, seats| Simulator::new(board, rules, seats).expect("ok");
    vec![
        ("classic", sim(&classic, &standard, 2), 40_000),
        ("classic-general", sim(&classic, &standard, 2).general(), 20_000),
        ("party", sim(&party, &standard, 2), 20_000),
        ("party-4-seats", sim(&party, &standard, 4), 10_000),
        ("party-strict-sixes", sim(&party_strict, &strict, 2), 20_000),
        ("classic-race-10-rounds", sim(&classic, &race, 2), 40_000),
    ]
}

/// Plays `games` games on the calling thread, chunk after chunk: what one worker thread does.
fn one_thread(sim: &Simulator, games: u64) -> u64 {
    (0..games.div_ceil(CHUNK_GAMES))
        .map(|chunk| {
            let count = CHUNK_GAMES.min(games - chunk * CHUNK_GAMES);
            sim.play_chunk(black_box(SEED), chunk, count).total_rolls()
        })
        .sum()
}

fn kernel<M: Measurement + 'static>(c: &mut Criterion<M>, group: &str) {
    let mut group = c.benchmark_group(group);
    group.sample_size(20).measurement_time(Duration::from_secs(4));
    for (name, sim, games) in kernels() {
        let rolls = one_thread(&sim, games);
        assert_eq!(rolls, sim.run(SEED, games).total_rolls(), "one thread plays the run's games");
        group.throughput(Throughput::Elements(rolls));
        group.bench_function(name, |b| b.iter(|| black_box(one_thread(&sim, games))));
    }
    group.finish();
}

/// The kernels in wall-clock time.
fn kernel_wall(c: &mut Criterion) {
    kernel(c, "kernel");
}

/// The kernels in the CPU time of the thread that plays them: on a machine shared with other
/// work, wall-clock time counts the time the thread waited for a core; this does not.
fn kernel_cpu(c: &mut Criterion<ThreadCpuTime>) {
    kernel(c, "kernel-cpu");
}

/// Criterion's measurement by the CPU time of the calling thread, read from Linux's
/// `/proc/thread-self/schedstat` (its first field: nanoseconds run on a CPU).
struct ThreadCpuTime;

impl ThreadCpuTime {
    fn now() -> u64 {
        let text = std::fs::read_to_string("/proc/thread-self/schedstat")
            .expect("kernel-cpu needs Linux's /proc/thread-self/schedstat");
        text.split_whitespace().next().and_then(|ns| ns.parse().ok()).expect("a time in ns")
    }
}

impl Measurement for ThreadCpuTime {
    type Intermediate = u64;
    type Value = u64;

    fn start(&self) -> u64 {
        Self::now()
    }
    fn end(&self, start: u64) -> u64 {
        Self::now().saturating_sub(start)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, value: &u64) -> f64 {
        *value as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &Nanoseconds
    }
}

/// Values in nanoseconds, throughputs in elements per second.
struct Nanoseconds;

impl ValueFormatter for Nanoseconds {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = if typical < 1e3 {
            (1.0, "ns")
        } else if typical < 1e6 {
            (1e-3, "µs")
        } else if typical < 1e9 {
            (1e-6, "ms")
        } else {
            (1e-9, "s")
        };
        for value in values {
            *value *= factor;
        }
        unit
    }

    fn scale_throughputs(
        &self,
        _typical: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str {
        let per = match *throughput {
            Throughput::Elements(n)
            | Throughput::Bytes(n)
            | Throughput::BytesDecimal(n)
            | Throughput::Bits(n) => n,
        };
        for value in values {
            *value = per as f64 * 1e9 / *value / 1e6;
        }
        "Melem/s (CPU time)"
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
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

criterion_group!(benches, simulate, kernel_wall, engine_baseline);
criterion_group! {
    name = cpu;
    config = Criterion::default().with_measurement(ThreadCpuTime);
    targets = kernel_cpu
}
criterion_main!(benches, cpu);
