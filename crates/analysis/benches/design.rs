//! How long the board designer takes: 3,000 annealing steps on 100 cells, each an exact analysis,
//! for a length alone (it may stop early once within 0.05 turns) and for a fair two-seat game
//! (every step taken).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use snl_analysis::{
    Budget,
    design::{Goal, design},
};
use snl_engine::Rules;

fn designer(c: &mut Criterion) {
    let mut group = c.benchmark_group("design_100_cells");
    group.sample_size(10);
    let rules = Rules::default();
    for (name, fair) in [("length", false), ("fair_2_seats", true)] {
        let goal = Goal { target_turns: 30.0, fair, ..Goal::default() };
        group.bench_function(BenchmarkId::new(name, 30), |b| {
            b.iter(|| black_box(design(&goal, &rules, &|_| {}, &Budget::unlimited()).unwrap()));
        });
    }
    group.finish();
}

criterion_group!(benches, designer);
criterion_main!(benches);
