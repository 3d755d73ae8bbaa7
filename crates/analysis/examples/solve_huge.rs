//! Generates a random board in memory (default 10^8 cells, one jump per 20 cells) and solves it,
//! printing the time of each step. Run it under `/usr/bin/time -v` for the peak memory:
//!
//! ```text
//! cargo run --release -p snl-analysis --example solve_huge -- [CELLS] [SEED] [JUMPS] [walled]
//! ```
//!
//! With `walled`, the six cells before the last become snakes to cell 1 (and no jump ends near
//! the last cell), so the last cell cannot be reached and the search must visit every cell it
//! can reach before saying so: the worst case.

use std::time::Instant;

use snl_analysis::{
    generate::{random_jumps, random_track},
    solve::Track,
};
use snl_engine::{Jump, RandomBoard, Rules};

fn main() {
    let mut args = std::env::args().skip(1);
    let size: u32 = args.next().map_or(100_000_000, |a| a.parse().expect("CELLS is a number"));
    let seed: u64 = args.next().map_or(1, |a| a.parse().expect("SEED is a number"));
    let jumps: u32 = args.next().map_or(size / 20, |a| a.parse().expect("JUMPS is a number"));
    let walled = args.next().is_some_and(|a| a == "walled");
    let params = RandomBoard { size, snakes: jumps / 2, ladders: jumps - jumps / 2, seed };
    let rules = Rules::default();

    let clock = Instant::now();
    let track = if walled {
        let wall = size - 6..size;
        let mut kept: Vec<Jump> = random_jumps(&params)
            .expect("room for the jumps")
            .into_iter()
            .filter(|j| !wall.contains(&j.from) && !wall.contains(&j.to) && j.to != size)
            .collect();
        kept.extend(wall.map(|from| Jump { from, to: 1 }));
        Track::from_jumps(size, kept, &rules).expect("a valid wall")
    } else {
        random_track(&params, &rules).expect("room for the jumps")
    };
    let generated = clock.elapsed();
    println!(
        "generated {size} cells, {} jumps{} in {:.3} s ({:.1} MB)",
        track.jumps().len(),
        if walled { ", walled off" } else { "" },
        generated.as_secs_f64(),
        track.heap_bytes() as f64 / 1e6
    );

    let clock = Instant::now();
    let solution = track.fewest_rolls();
    let solved = clock.elapsed();
    match solution.min_rolls() {
        Some(rolls) => println!("fewest rolls {rolls}, found in {:.3} s", solved.as_secs_f64()),
        None => println!("cell {size} unreachable, found in {:.3} s", solved.as_secs_f64()),
    }
}
