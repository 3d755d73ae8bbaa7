//! How long the board designer takes on 100 cells (each board it looks at analysed exactly) for
//! the three kinds of target: a length alone (30 turns ± 0.01), a length with the standard
//! deviation in a band (30 ± 0.01 turns, 14 to 16), and a length with the seats' chances even
//! (30 ± 0.01 turns, 3 seats within 2.5 points); the old fair two-seat search (every
//! annealing step, then tuning the gap); and a length in rounds (a game of 4 seats lasting
//! 12 ± 0.01 rounds).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use snl_analysis::{
    Budget,
    design::{Goal, Length, Spread, design},
};
use snl_engine::Rules;

fn designer(c: &mut Criterion) {
    let mut group = c.benchmark_group("design_100_cells");
    group.sample_size(10);
    let rules = Rules::default();
    let length = Goal { target_turns: 30.0, ..Goal::default() };
    let goals = [
        ("length", length.clone()),
        ("spread_14_16", Goal { spread: Spread::Band { min: 14.0, max: 16.0 }, ..length.clone() }),
        ("gap_3_seats_2.5pt", Goal { seats: 3, max_gap: Some(0.025), ..length.clone() }),
        ("fair_2_seats", Goal { fair: true, ..length.clone() }),
        (
            "rounds_4_seats_12",
            Goal { length: Length::Rounds, seats: 4, target_turns: 12.0, ..length },
        ),
    ];
    for (name, goal) in goals {
        let found = design(&goal, &rules, &|_| {}, &Budget::unlimited()).unwrap();
        assert!(found.goal_met(), "{name}: {found:?}");
        eprintln!(
            "{name}: {:.4} turns, {:.4} rounds, sd {:.2}, gap {:.2} points, {} boards",
            found.expected_turns,
            found.expected_rounds,
            found.std_dev_turns,
            100.0 * found.spread,
            found.boards_judged
        );
        group.bench_function(BenchmarkId::new(name, 30), |b| {
            b.iter(|| black_box(design(&goal, &rules, &|_| {}, &Budget::unlimited()).unwrap()));
        });
    }
    group.finish();
}

criterion_group!(benches, designer);
criterion_main!(benches);
