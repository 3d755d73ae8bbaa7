//! What recording costs: a game played the way `snl play --fast` plays it (a session, computers
//! only), once unrecorded and once recorded into a new game database in a temporary folder (the
//! database created, the game started in it, every turn kept through the session's `GameDb`).
//! Two games: the two-computer game on a 20,000-cell board without jumps (11,367 turns, seed
//! 1: `snl play --board random --size 20000 --snakes 0 --ladders 0 --seed 1`) and a 4-seat game
//! on the classic board.
//!
//! After criterion's figures, each game is played again in pairs (unrecorded, recorded, ...),
//! and the median of the pairs' ratios is printed: pairs keep the ratio meaningful on a machine
//! whose speed drifts.
//!
//! In one process the ratio is far above the whole program's (about 10× against about 2.6×): the
//! game alone takes 0.3 µs a turn, less than writing its events as JSON, so what recording
//! costs per turn (a few µs: the turn's events and move as JSON, and their bytes through SQLite
//! into the WAL) is set against nothing else. `crates/cli/benches/recording.rs` times
//! `snl play` itself, as issue 10 does.

use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

use criterion::{Criterion, criterion_group, criterion_main};
use snl_engine::{Board, Game, Preset, RandomBoard, Rules, Seat, SeatKind};
use snl_session::{Awaiting, GameDb, Session};
use snl_store::{Database, DiceState};

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// The 20,000-cell game of `snl play --board random --size 20000 --snakes 0 --ladders 0`.
fn long_game() -> Game {
    let rules = Rules::default();
    let spec =
        RandomBoard { size: 20_000, snakes: 0, ladders: 0, seed: 1, min_jump: 1 }.spec(&rules);
    let board = Board::new(&spec, &rules).expect("a valid board");
    let seats = vec![Seat::new("Red", SeatKind::Easy), Seat::new("Blue", SeatKind::Easy)];
    Game::new(board, rules, seats).expect("a playable game")
}

/// Four computers on the classic board.
fn classic_game() -> Game {
    let rules = Rules::default();
    let board = Board::new(&Preset::Classic.spec(), &rules).expect("a valid board");
    let seats = ["Ann", "Bob", "Cy", "Di"].iter().map(|n| Seat::new(*n, SeatKind::Easy)).collect();
    Game::new(board, rules, seats).expect("a playable game")
}

/// Plays `template` to its end through a session, recorded into a new database at `db` when it
/// is given; returns the turns played.
fn play(template: &Game, db: Option<&Path>) -> u32 {
    let mut session = Session::new(template.clone(), DiceState::seeded(1), "random");
    if let Some(path) = db {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
        let db = Database::open(path).expect("a new database");
        let recorder = GameDb::start(db, &session.save(), now_ms).expect("the game recorded");
        session.record_with(Box::new(recorder));
    }
    while let Awaiting::Computer { .. } = session.awaiting() {
        session.play_computer().expect("computers play");
    }
    assert!(session.take_notes().is_empty(), "the recorder kept every turn");
    session.game().turns()
}

fn folder() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("snl-bench-recording-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

fn recording(c: &mut Criterion) {
    let dir = folder();
    let db = dir.join("games.db");
    for (name, template) in
        [("long_game_20000_cells", long_game()), ("classic_4_seats", classic_game())]
    {
        let mut group = c.benchmark_group(name);
        group.sample_size(20);
        group.bench_function("unrecorded", |b| b.iter(|| play(&template, None)));
        group.bench_function("recorded", |b| b.iter(|| play(&template, Some(&db))));
        group.finish();
        let (plain, recorded, ratio) = paired(&template, &db, 15);
        println!(
            "{name}: unrecorded {plain:.2?}, recorded {recorded:.2?}, recorded/unrecorded \
             {ratio:.2} (medians of 15 pairs)"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `runs` pairs of one unrecorded and one recorded game: the median wall time of each, and the
/// median of the pairs' ratios.
fn paired(template: &Game, db: &Path, runs: usize) -> (Duration, Duration, f64) {
    let time = |db: Option<&Path>| {
        let start = Instant::now();
        std::hint::black_box(play(template, db));
        start.elapsed()
    };
    let (mut plain, mut recorded, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        let (a, b) = (time(None), time(Some(db)));
        plain.push(a);
        recorded.push(b);
        ratios.push(b.as_secs_f64() / a.as_secs_f64());
    }
    plain.sort();
    recorded.sort();
    ratios.sort_by(f64::total_cmp);
    (plain[runs / 2], recorded[runs / 2], ratios[runs / 2])
}

criterion_group!(benches, recording);
criterion_main!(benches);
