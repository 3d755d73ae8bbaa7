//! Generates a random board in memory (default 10^8 cells, one jump per 20 cells) and solves it,
//! printing the time of each step. Run it under `/usr/bin/time -v` for the peak memory:
//!
//! ```text
//! cargo run --release -p snl-analysis --example solve_huge -- [CELLS] [SEED] [JUMPS]
//! ```

use std::time::Instant;

use snl_analysis::generate::random_track;
use snl_engine::{RandomBoard, Rules};

fn main() {
    let mut args = std::env::args().skip(1);
    let size: u32 = args.next().map_or(100_000_000, |a| a.parse().expect("CELLS is a number"));
    let seed: u64 = args.next().map_or(1, |a| a.parse().expect("SEED is a number"));
    let jumps: u32 = args.next().map_or(size / 20, |a| a.parse().expect("JUMPS is a number"));
    let params = RandomBoard { size, snakes: jumps / 2, ladders: jumps - jumps / 2, seed };
    let rules = Rules::default();

    let clock = Instant::now();
    let track = random_track(&params, &rules).expect("room for one jump per 20 cells");
    let generated = clock.elapsed();
    println!(
        "generated {size} cells, {} jumps in {:.3} s ({:.1} MB)",
        track.jumps().len(),
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
