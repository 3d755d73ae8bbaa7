//! Which solver for the back cells' system, at every size (issue 16): the direct GTH
//! elimination, restarted GMRES, and [`Method::Auto`], which should always be about the faster of
//! the two. Random boards of 10^3 to 10^6 cells, with sparse jumps (one per 100 cells; one per
//! 1,000 at 10^6) and dense ones (one per 20 cells), expectations only (the linear solves; the
//! turn distribution is measured in `benches/exact.rs`).
//!
//! Measured on this machine (min of a few runs, one core, other work running):
//!
//! | cells | jumps | back cells | direct | GMRES |
//! |---|---|---|---|---|
//! | 10^4 | 500 | 248 | 11 ms | 42 ms |
//! | 10^4 | 1,000 | 479 | 41 ms | 45 ms |
//! | 10^4 | 1,428 | 676 | 100 ms | 53 ms |
//! | 10^5 | 2,000 | 993 | 0.78 s | 0.83 s |
//! | 10^5 | 2,500 | 1,238 | 1.23 s | 0.81 s |
//! | 10^5 | 5,000 | 2,441 | 5.4 s | 0.36 s (CPU) |
//! | 10^6 | 3,333 | 1,662 | 6.8 s | 9.7 s |
//! | 10^6 | 5,000 | 2,490 | 23 s | 11 s |
//!
//! The crossover grows with the cells (about 500, 1,050 and 1,900 back cells at 10^4, 10^5 and
//! 10^6), as GMRES's sweeps cost more on longer boards while the elimination does not: hence a
//! cost model ([`snl_analysis::exact::Method::Auto`]) rather than one fixed number of back cells.
//! The whole `snl analyze` of the 10^5-cell board (one jump per 20 cells) is
//! `analyze_100000_cells_5000_jumps`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use snl_analysis::exact::{self, Method, Options};
use snl_engine::{Board, FirstOption, RandomBoard, Rules};

fn random(size: u32, jumps: u32) -> Board {
    let rules = Rules::default();
    let spec = RandomBoard { size, snakes: jumps / 2, ladders: jumps / 2, seed: 0, min_jump: 1 }
        .spec(&rules);
    Board::new(&spec, &rules).unwrap()
}

fn expectations(method: Method) -> Options {
    let mut options = Options::default();
    options.max_work = 0;
    options.method = method;
    options
}

fn solvers(c: &mut Criterion) {
    let rules = Rules::default();
    let methods =
        [("auto", Method::Auto), ("direct", Method::Direct), ("gmres", Method::Iterative)];
    // (cells, jumps, whether direct and GMRES are measured apart: at 10^6 cells with a jump per
    // 20 cells there are 24,375 back cells, past the direct solve's limit, so auto is GMRES).
    let cases = [
        (1_000, 10, true),
        (1_000, 50, true),
        (10_000, 100, true),
        (10_000, 500, true),
        (100_000, 1_000, true),
        (100_000, 5_000, true),
        (1_000_000, 1_000, true),
        (1_000_000, 50_000, false),
    ];
    for (size, jumps, direct) in cases {
        let board = random(size, jumps);
        let mut group = c.benchmark_group(format!("solver_{size}_cells"));
        if size >= 100_000 {
            group.sample_size(10);
        }
        for (name, method) in methods {
            if !direct && method != Method::Auto {
                continue;
            }
            let options = expectations(method);
            group.bench_function(BenchmarkId::new(name, format!("{jumps}_jumps")), |b| {
                b.iter(|| exact::analyze_with(&board, &rules, &FirstOption, &options).unwrap());
            });
        }
        group.finish();
    }

    // Everything `snl analyze` computes, on the board.
    let board = random(100_000, 5_000);
    let mut group = c.benchmark_group("analyze");
    group.sample_size(10);
    group.bench_function("analyze_100000_cells_5000_jumps", |b| {
        b.iter(|| exact::analyze(&board, &rules).unwrap().expected_turns);
    });
    group.finish();
}

criterion_group!(benches, solvers);
criterion_main!(benches);
