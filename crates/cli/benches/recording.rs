//! What recording costs `snl play`, the whole program timed: each game played by the binary
//! unrecorded (`--no-record`) and recorded into a new game database in a temporary folder, in
//! pairs (unrecorded, recorded, unrecorded, ...) so that a machine whose speed drifts moves both
//! alike; and recorded into one database that keeps every game (as a player's does, its
//! checkpoints included). Issue 10 asks recording to stay within 3× of unrecorded for the
//! 20,000-cell game (11,367 turns) and for a 4-seat classic game.
//!
//! Prints, for each game, the median wall time of each way and the median of the pairs' ratios,
//! and the ratio of the processor time (user + system) the runs took in all, from the kernel's
//! count for finished children (`/proc/self/stat`, in hundredths of a second: summed over every
//! run, so that a short run is still counted). Run with `cargo bench -p snl --bench recording`
//! (`-- RUNS` for another number of pairs than 15).

use std::{
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

const SNL: &str = env!("CARGO_BIN_EXE_snl");

/// The processor time this process's finished children have taken (user + system).
fn children_cpu() -> Duration {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return Duration::ZERO };
    // After the command's name in parentheses: fields 3 onwards; cutime and cstime are the
    // 16th and 17th fields.
    let fields: Vec<&str> =
        stat.rsplit_once(')').map_or(vec![], |(_, r)| r.split_whitespace().collect());
    let ticks = |i: usize| fields.get(i - 3).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
    Duration::from_millis((ticks(16) + ticks(17)) * 10)
}

/// Runs `snl` with `args`, checking it succeeds; its wall time and processor time.
fn run(args: &[&str]) -> (Duration, Duration) {
    let (start, cpu) = (Instant::now(), children_cpu());
    let status = Command::new(SNL)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .status()
        .expect("snl runs");
    let wall = start.elapsed();
    assert!(status.success(), "snl {args:?} failed");
    (wall, children_cpu().saturating_sub(cpu))
}

fn remove_database(db: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Plays `game` `pairs` times each way and prints what recording costs.
fn measure(name: &str, game: &[&str], dir: &Path, pairs: usize) {
    let fresh = dir.join("fresh.db");
    let kept = dir.join("kept.db");
    remove_database(&kept);
    let (fresh_arg, kept_arg) = (fresh.display().to_string(), kept.display().to_string());
    let plain_args: Vec<&str> = game.iter().copied().chain(["--no-record"]).collect();
    let fresh_args: Vec<&str> = game.iter().copied().chain(["--db", &fresh_arg]).collect();
    let kept_args: Vec<&str> = game.iter().copied().chain(["--db", &kept_arg]).collect();
    // One of each first, not counted: the binary and the files in the page cache.
    run(&plain_args);
    remove_database(&fresh);
    run(&fresh_args);
    let (mut plain, mut recorded, mut kept_walls) = (vec![], vec![], vec![]);
    let (mut ratios, mut kept_ratios) = (vec![], vec![]);
    let (mut plain_cpu, mut fresh_cpu, mut kept_cpu) =
        (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    for _ in 0..pairs {
        let (a, a_cpu) = run(&plain_args);
        remove_database(&fresh);
        let (b, b_cpu) = run(&fresh_args);
        let (c, c_cpu) = run(&kept_args);
        plain.push(a.as_secs_f64());
        recorded.push(b.as_secs_f64());
        kept_walls.push(c.as_secs_f64());
        ratios.push(b.as_secs_f64() / a.as_secs_f64());
        kept_ratios.push(c.as_secs_f64() / a.as_secs_f64());
        plain_cpu += a_cpu;
        fresh_cpu += b_cpu;
        kept_cpu += c_cpu;
    }
    let cpu_ratio = |c: Duration| c.as_secs_f64() / plain_cpu.as_secs_f64().max(0.01);
    println!(
        "{name}: median wall: unrecorded {:.1} ms, recorded into a new database {:.1} ms, into \
         one that keeps every game {:.1} ms",
        median(plain) * 1e3,
        median(recorded) * 1e3,
        median(kept_walls) * 1e3,
    );
    println!(
        "{name}: recorded/unrecorded, new database: wall {:.2} (median of {pairs} pairs), \
         processor {:.2} ({:.2} s against {:.2} s in all)",
        median(ratios),
        cpu_ratio(fresh_cpu),
        fresh_cpu.as_secs_f64(),
        plain_cpu.as_secs_f64(),
    );
    println!(
        "{name}: recorded/unrecorded, database keeping every game: wall {:.2} (median of {pairs} \
         pairs), processor {:.2} ({:.2} s in all)",
        median(kept_ratios),
        cpu_ratio(kept_cpu),
        kept_cpu.as_secs_f64(),
    );
}

fn main() {
    let pairs = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(15);
    let dir: PathBuf = std::env::temp_dir().join(format!("snl-bench-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let long = [
        "play",
        "--board",
        "random",
        "--size",
        "20000",
        "--snakes",
        "0",
        "--ladders",
        "0",
        "--seed",
        "1",
        "--fast",
        "--json",
    ];
    measure("long_game_20000_cells", &long, &dir, pairs);
    let classic = [
        "play", "--seed", "1", "--fast", "--json", "--player", "Ann:easy", "--player", "Bob:easy",
        "--player", "Cy:easy", "--player", "Di:easy",
    ];
    measure("classic_4_seats", &classic, &dir, pairs);
    let _ = std::fs::remove_dir_all(&dir);
}
