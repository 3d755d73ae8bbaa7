//! Checking a board file is linear in the file (issue 29, finding 11): each shape that was
//! quadratic — unknown keys (20,000 took 10.6 s), empty tables (40,000 took 41 s), one wormhole
//! with many exits (400,000 took 6.1 s) — read and checked at n and at 2n, so the figures show
//! how the cost grows (about 2× for 2n when linear, 4× when quadratic).
//!
//! Run with `cargo bench -p snl-engine --bench board_check`.

use std::{fmt::Write as _, hint::black_box};

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use snl_engine::{Board, BoardSpec, Rules};

/// A board file of `n` unknown keys.
fn unknown_keys(n: usize) -> String {
    let mut text = String::from("size = 100\n");
    for i in 0..n {
        let _ = writeln!(text, "k{i} = 1");
    }
    text
}

/// A board file of `n` empty tables.
fn empty_tables(n: usize) -> String {
    let mut text = String::from("size = 100\n");
    for i in 0..n {
        let _ = writeln!(text, "[t{i}]");
    }
    text
}

/// A board file of one wormhole with `n` exits (most of them listed again).
fn wormhole(n: usize) -> String {
    let exits: Vec<String> = (0..n).map(|i| (2 + i % 90).to_string()).collect();
    format!("size = 100\n[[cell]]\nat = 95\neffect = \"wormhole\"\nexits = [{}]\n", exits.join(","))
}

/// Everything `snl board validate` does with a file: read it whole, else every problem in it,
/// then the board's own problems, written out.
fn check(text: &str) -> usize {
    if let Ok(spec) = BoardSpec::from_toml(text) {
        return Board::new(&spec, &Rules::default()).map_or_else(|e| e.to_string().len(), |_| 0);
    }
    let read = BoardSpec::from_toml_partial(text);
    let board =
        Board::new(&read.spec, &Rules::default()).map_or_else(|e| e.to_string().len(), |_| 0);
    read.problems.iter().map(|p| p.to_string().len()).sum::<usize>() + board
}

/// A board file of a shape, for a count.
type Shape = fn(usize) -> String;

fn board_check(c: &mut Criterion) {
    let mut group = c.benchmark_group("board_check");
    group.sample_size(10);
    let shapes: [(&str, Shape, usize); 3] = [
        ("unknown_keys", unknown_keys, 20_000),
        ("empty_tables", empty_tables, 40_000),
        ("wormhole_exits", wormhole, 400_000),
    ];
    for (name, make, n) in shapes {
        for size in [n / 2, n] {
            let text = make(size);
            group.bench_with_input(BenchmarkId::new(name, size), &text, |b, text| {
                b.iter(|| black_box(check(black_box(text))));
            });
        }
    }
    group.finish();
}

criterion_group!(benches, board_check);
criterion_main!(benches);
