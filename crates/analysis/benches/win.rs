//! How long playing to win takes (`PlayToWin`, every seat playing `win`): the joint chain of 2,
//! 3 and 4 tokens, under may-pass and pick-die, on boards whose size shows how the cost grows
//! with the joint states (cells to the power of the seats); then the largest sizes it solves
//! (group `play_to_win_largest`, may-pass): 3 seats on the classic board (1.0 million joint
//! states) and 4 seats on 28 cells (0.61 million; 29 cells are the most `MAX_WORK` accepts).
//! Those take tens of seconds a run; run them alone with
//! `cargo bench -p snl-analysis --bench win -- play_to_win_largest`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use snl_analysis::strategy::{Play, PlayToWin};
use snl_engine::{Board, BoardSpec, Choice, Preset, Rules};

/// `size` cells with a ladder near the start and a snake near the end.
fn board(size: u32, rules: &Rules) -> Board {
    Board::new(&BoardSpec::with_jumps(size, [(3, size / 2), (size - 2, size / 3)]), rules).unwrap()
}

fn to_win(c: &mut Criterion) {
    let mut group = c.benchmark_group("play_to_win");
    group.sample_size(10);
    for choice in [Choice::MayPass, Choice::PickDie] {
        let rules = Rules { choice, ..Rules::default() };
        let cases = [
            (2, Board::new(&Preset::Classic.spec(), &rules).unwrap(), "classic"),
            (3, board(30, &rules), "30 cells"),
            (3, board(50, &rules), "50 cells"),
            (4, board(16, &rules), "16 cells"),
            (4, board(24, &rules), "24 cells"),
        ];
        for (seats, board, name) in cases {
            let id = BenchmarkId::new(format!("{choice:?}_{seats}_seats"), name);
            group.bench_function(id, |b| {
                b.iter(|| black_box(PlayToWin::new(&board, &rules, &vec![Play::ToWin; seats])));
            });
        }
    }
    group.finish();
}

fn largest(c: &mut Criterion) {
    let mut group = c.benchmark_group("play_to_win_largest");
    group.sample_size(10);
    let rules = Rules { choice: Choice::MayPass, ..Rules::default() };
    let cases = [
        (3, Board::new(&Preset::Classic.spec(), &rules).unwrap(), "classic (100 cells)"),
        (4, Board::new(&twenty_eight(), &rules).unwrap(), "28 cells"),
    ];
    for (seats, board, name) in cases {
        let id = BenchmarkId::new(format!("MayPass_{seats}_seats"), name);
        group.bench_function(id, |b| {
            b.iter(|| black_box(PlayToWin::new(&board, &rules, &vec![Play::ToWin; seats])));
        });
    }
    group.finish();
}

/// 28 cells with the classic board's kind of jumps: three ladders and three snakes.
fn twenty_eight() -> BoardSpec {
    BoardSpec::with_jumps(28, [(3, 10), (8, 17), (14, 24), (19, 6), (23, 12), (26, 18)])
}

criterion_group!(benches, to_win, largest);
criterion_main!(benches);
