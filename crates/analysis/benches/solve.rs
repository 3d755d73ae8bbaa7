//! Fewest-rolls search speed, from LeetCode-sized boards to 10^8 cells, against the breadth-first
//! searches public solutions use; reading a 3000×3000 LeetCode matrix; and the backward search
//! behind hints.
//!
//! Boards are random with one jump per 20 cells (half snakes, half ladders), drawn as
//! `RandomBoard` draws them, under LeetCode's rules (start on cell 1, 1d6, single jumps).

use std::{
    collections::{HashSet, VecDeque},
    hint::black_box,
    time::Duration,
};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use snl_analysis::{
    generate::{random_jumps, random_track},
    puzzles::{LeetCode, puzzle_rules},
    solve::Track,
};
use snl_engine::{Jump, RandomBoard, Rules};

const SEED: u64 = 2024;

fn params(cells: u32) -> RandomBoard {
    let jumps = cells / 20;
    RandomBoard {
        size: cells,
        snakes: jumps / 2,
        ladders: jumps - jumps / 2,
        seed: SEED,
        min_jump: 1,
    }
}

fn track(cells: u32, rules: &Rules) -> Track {
    random_track(&params(cells), rules).expect("room for the jumps")
}

/// The same board with the six cells before the last turned into snakes to cell 1 (and no jump
/// ending near the last cell): the last cell is unreachable, so the search visits every cell it
/// can reach — the worst case, where a lucky ladder cannot end the search early.
fn walled(cells: u32, rules: &Rules) -> Track {
    let wall = cells - 6..cells;
    let mut jumps: Vec<Jump> = random_jumps(&params(cells))
        .expect("room for the jumps")
        .into_iter()
        .filter(|j| !wall.contains(&j.from) && !wall.contains(&j.to) && j.to != cells)
        .collect();
    jumps.extend(wall.map(|from| Jump { from, to: 1 }));
    Track::from_jumps(cells, jumps, rules).expect("a valid wall")
}

/// `dest[c]`: where a token landing on cell c rests — the table public solutions build.
fn dest_table(track: &Track) -> Vec<u32> {
    (0..=track.size()).map(|c| track.settle(c)).collect()
}

/// The usual public solution: a queue of boxed integers (Java's `Queue<Integer>`) and a hash set
/// of visited cells, level by level.
fn boxed_hashset_bfs(dest: &[u32]) -> i64 {
    let n = (dest.len() - 1) as u32;
    let mut queue: VecDeque<Box<u32>> = VecDeque::from([Box::new(1)]);
    let mut seen: HashSet<u32> = HashSet::from([1]);
    let mut moves = 0;
    while !queue.is_empty() {
        for _ in 0..queue.len() {
            let at = *queue.pop_front().expect("counted");
            if at == n {
                return moves;
            }
            for next in at + 1..=(at + 6).min(n) {
                let rest = dest[next as usize];
                if seen.insert(rest) {
                    queue.push_back(Box::new(rest));
                }
            }
        }
        moves += 1;
    }
    -1
}

/// A careful textbook BFS: a distance array and a flat queue.
fn dense_bfs(dest: &[u32]) -> i64 {
    let last = dest.len() - 1;
    let mut rolls = vec![u32::MAX; last + 1];
    let mut queue = Vec::with_capacity(last + 1);
    rolls[1] = 0;
    queue.push(1_u32);
    let mut head = 0;
    while let Some(&at) = queue.get(head) {
        head += 1;
        let d = rolls[at as usize];
        if at as usize == last {
            return i64::from(d);
        }
        for next in at + 1..=(at + 6).min(last as u32) {
            let rest = dest[next as usize];
            if rolls[rest as usize] == u32::MAX {
                rolls[rest as usize] = d + 1;
                queue.push(rest);
            }
        }
    }
    -1
}

fn fewest_rolls(c: &mut Criterion) {
    let rules = puzzle_rules();
    let mut group = c.benchmark_group("fewest_rolls");
    group.sample_size(20).measurement_time(Duration::from_secs(3));
    for side in [100_u32, 316, 1000, 3000] {
        let cells = side * side;
        let track = track(cells, &rules);
        let dest = dest_table(&track);
        let answer = track.fewest_rolls().min_rolls().map_or(-1, i64::from);
        assert_eq!(dense_bfs(&dest), answer, "the baselines solve the same board");
        group.throughput(Throughput::Elements(u64::from(cells)));
        let id = |name| BenchmarkId::new(name, format!("{side}x{side}"));
        group.bench_function(id("run-bfs"), |b| b.iter(|| black_box(&track).fewest_rolls()));
        let worst = walled(cells, &rules);
        assert!(!worst.fewest_rolls().is_reachable());
        group.bench_function(id("run-bfs-walled"), |b| b.iter(|| black_box(&worst).fewest_rolls()));
        group.bench_function(id("dense-bfs-baseline"), |b| b.iter(|| dense_bfs(black_box(&dest))));
        if side <= 1000 {
            assert_eq!(boxed_hashset_bfs(&dest), answer);
            group.bench_function(id("boxed-hashset-bfs-baseline"), |b| {
                b.iter(|| boxed_hashset_bfs(black_box(&dest)));
            });
        }
    }
    group.finish();
}

fn leetcode_matrix(c: &mut Criterion) {
    let side = 3000;
    let jumps = random_jumps(&params(side * side)).expect("room for the jumps");
    let board = LeetCode::from_jumps(side, jumps).expect("a LeetCode board");
    let mut json = Vec::new();
    board.write_json(&mut json).expect("writing to memory");
    let mut group = c.benchmark_group("leetcode_3000x3000");
    group.sample_size(10).measurement_time(Duration::from_secs(6));
    group.throughput(Throughput::Bytes(json.len() as u64));
    group.bench_function("parse", |b| b.iter(|| LeetCode::parse(black_box(&json))));
    group.bench_function("parse-and-answer", |b| {
        b.iter(|| LeetCode::parse(black_box(&json)).expect("valid").answer());
    });
    group.bench_function("serde-json-parse-baseline", |b| {
        b.iter(|| serde_json::from_slice::<Vec<Vec<i64>>>(black_box(&json)).expect("valid"));
    });
    group.finish();
}

fn hundred_million(c: &mut Criterion) {
    let rules = Rules::default();
    let mut group = c.benchmark_group("cells_1e8");
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    group.bench_function("generate", |b| b.iter(|| track(black_box(100_000_000), &rules)));
    let track = track(100_000_000, &rules);
    group.bench_function("fewest-rolls", |b| b.iter(|| black_box(&track).fewest_rolls()));
    drop(track);
    let worst = walled(100_000_000, &rules);
    group.bench_function("fewest-rolls-walled", |b| b.iter(|| black_box(&worst).fewest_rolls()));
    group.finish();
}

fn rolls_to_finish(c: &mut Criterion) {
    let rules = Rules::default();
    let mut group = c.benchmark_group("rolls_to_finish");
    group.sample_size(20).measurement_time(Duration::from_secs(3));
    for cells in [100_u32, 1_000_000] {
        let track = track(cells, &rules);
        group.throughput(Throughput::Elements(u64::from(cells)));
        group.bench_function(BenchmarkId::from_parameter(cells), |b| {
            b.iter(|| black_box(&track).rolls_to_finish());
        });
    }
    group.finish();
}

/// The party preset (every cell effect): fewest rolls over (cell, shield), fewest turns over
/// (cell, shield, skip, streak), and the rolls left from every cell.
fn with_effects(c: &mut Criterion) {
    use snl_analysis::solve::effects;
    use snl_engine::{Board, Preset, RuleSet};
    let mut group = c.benchmark_group("solve_party");
    for set in [RuleSet::Standard, RuleSet::StrictSixes] {
        let rules = set.rules();
        let board = Board::new(&Preset::Party.spec(), &rules).unwrap();
        group.bench_function(BenchmarkId::new("fewest_rolls", set), |b| {
            b.iter(|| black_box(effects::fewest_rolls(&board, &rules, 0)));
        });
        group.bench_function(BenchmarkId::new("fewest_turns", set), |b| {
            b.iter(|| black_box(effects::fewest_turns(&board, &rules, 0)));
        });
        group.bench_function(BenchmarkId::new("rolls_to_finish", set), |b| {
            b.iter(|| black_box(effects::rolls_to_finish(&board, &rules)));
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    fewest_rolls,
    leetcode_matrix,
    hundred_million,
    rolls_to_finish,
    with_effects
);
criterion_main!(benches);
