//! Loading a board is linear in its jumps, chained or not: 300,000 ladders that each lead to the
//! next one's foot (one chain through the whole board) load within 2× of 300,000 ladders that
//! lead nowhere (issue 10, point 4).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use snl_engine::{Board, BoardSpec, JumpMode, Rules};

/// `count` ladders on a board of `2 * count + 2` cells: chained (each top is the next foot), or
/// not (each top is a plain cell).
pub fn ladders(count: u32, chained: bool) -> BoardSpec {
    let size = 2 * count + 2;
    let jumps = (0..count).map(|i| {
        let foot = 2 * i + 2;
        let top = if chained { foot + 2 } else { foot + 1 };
        (foot, top)
    });
    BoardSpec::with_jumps(size, jumps)
}

fn load(c: &mut Criterion) {
    let mut group = c.benchmark_group("board_load");
    group.sample_size(10);
    for (mode_name, mode) in [("single", JumpMode::Single), ("chain", JumpMode::Chain)] {
        let rules = Rules { jumps: mode, ..Rules::default() };
        for chained in [false, true] {
            let spec = ladders(300_000, chained);
            let id = format!("{mode_name}/{}", if chained { "chained" } else { "unchained" });
            group.bench_with_input(BenchmarkId::new(id, 300_000), &spec, |b, spec| {
                b.iter(|| black_box(Board::new(black_box(spec), &rules).unwrap()));
            });
        }
    }
    group.finish();
}

criterion_group!(benches, load);
criterion_main!(benches);
