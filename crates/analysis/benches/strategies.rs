//! How long the optimal (`hard`) policy takes to compute: policy iteration, each round an exact
//! evaluation of the turn chain from every position, on the printed boards and on a 10^4-cell
//! board, under both choice rules, with and without bonus rolls; and playing to win a two-seat
//! game (the joint state of both tokens).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use snl_analysis::strategy::{HardPolicy, Opponent, WinningPolicy};
use snl_engine::{Board, Choice, Preset, RandomBoard, RuleSet, Rules};

fn printed_boards(c: &mut Criterion) {
    let mut group = c.benchmark_group("hard_policy");
    for (set, choice) in [
        (RuleSet::Standard, Choice::MayPass),
        (RuleSet::Standard, Choice::PickDie),
        (RuleSet::StrictSixes, Choice::MayPass),
        (RuleSet::BonusSix, Choice::PickDie),
    ] {
        let rules = Rules { choice, ..set.rules() };
        for preset in [Preset::Classic, Preset::MiltonBradley] {
            let board = Board::new(&preset.spec(), &rules).unwrap();
            group.bench_function(BenchmarkId::new(format!("{set}_{choice}"), preset), |b| {
                b.iter(|| black_box(HardPolicy::new(&board, &rules).unwrap()));
            });
        }
    }
    group.finish();
}

fn large_board(c: &mut Criterion) {
    let mut group = c.benchmark_group("hard_policy_10000_cells");
    group.sample_size(10);
    for (set, choice) in [
        (RuleSet::Standard, Choice::MayPass),
        (RuleSet::Standard, Choice::PickDie),
        (RuleSet::StrictSixes, Choice::PickDie),
    ] {
        let rules = Rules { choice, ..set.rules() };
        let spec = RandomBoard { size: 10_000, snakes: 250, ladders: 250, seed: 0, min_jump: 1 }
            .spec(&rules);
        let board = Board::new(&spec, &rules).unwrap();
        group.bench_function(BenchmarkId::new(format!("{set}"), choice), |b| {
            b.iter(|| black_box(HardPolicy::new(&board, &rules).unwrap()));
        });
    }
    group.finish();
}

/// Playing to win a two-seat game: value iteration over the 101² pairs of positions.
fn two_seats(c: &mut Criterion) {
    let mut group = c.benchmark_group("winning_policy_2_seats");
    for choice in [Choice::MayPass, Choice::PickDie] {
        let rules = Rules { choice, ..Rules::default() };
        let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        let fastest = HardPolicy::new(&board, &rules).unwrap();
        group.bench_function(BenchmarkId::new("classic", choice), |b| {
            b.iter(|| {
                black_box(WinningPolicy::new(&board, &rules, Opponent::Plays(&fastest)).unwrap())
            });
        });
    }
    group.finish();
}

/// The party preset (every cell effect): value iteration over (cell, shield, skip, streak).
fn party(c: &mut Criterion) {
    let mut group = c.benchmark_group("hard_policy_party");
    for (set, choice) in [
        (RuleSet::Standard, Choice::MayPass),
        (RuleSet::Standard, Choice::PickDie),
        (RuleSet::BonusSix, Choice::PickDie),
        (RuleSet::StrictSixes, Choice::PickDie),
    ] {
        let rules = Rules { choice, ..set.rules() };
        let board = Board::new(&Preset::Party.spec(), &rules).unwrap();
        group.bench_function(BenchmarkId::new(format!("{set}"), choice), |b| {
            b.iter(|| black_box(HardPolicy::new(&board, &rules).unwrap()));
        });
    }
    group.finish();
}

criterion_group!(benches, printed_boards, large_board, two_seats, party);
criterion_main!(benches);
