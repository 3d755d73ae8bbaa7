//! Whether recording slows as the database's write-ahead log fills (issue 29, finding 12): 1,000
//! 4-seat classic games recorded into one database, each through a fresh `Database::open` and
//! dropped after it, as 1,000 `snl play` processes would (the turns gathered into one write, as
//! the session's `GameDb` writes a game of computers), every game the same game so that they
//! cost alike. Before the checkpoint at close, each open read the whole WAL through (up to
//! 32 MiB) and the last games cost about three times the first.
//!
//! Prints the wall time of game 1, game 1,000 and the medians of games 2-11 and of the last 10;
//! the processor time per game (this thread's, `/proc/thread-self/schedstat`) over the first and
//! the last 50; and the same game played unrecorded. The issue asks game 1,000 within 1.5× of
//! game 1 and recorded within 2× of unrecorded (for whole `snl play` processes: here, in one
//! process, an unrecorded game costs microseconds and the open most of a recorded one). Run with
//! `cargo bench -p snl-store --bench wal` (`-- GAMES` for another count, at least 100).

use std::{
    path::Path,
    time::{Duration, Instant},
};

use snl_engine::{Board, FirstOption, Game, Numbered, Preset, Rules, Seat, SeatKind, Status};
use snl_store::{Action, Database, DiceState, Logged, Save};

/// This thread's processor time so far (`None` where the kernel does not say). The kernel brings
/// it up to date at its ticks only, so it is read around blocks of games, not one game.
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok().map(Duration::from_nanos)
}

/// Plays `count` games (recorded into `db`, or not) and returns each one's wall time and the
/// processor time per game over them all (wall where the kernel does not say).
fn block(count: usize, db: Option<&Path>) -> (Vec<Duration>, Duration) {
    let (cpu, start) = (thread_cpu(), Instant::now());
    let walls = (0..count)
        .map(|_| {
            let wall = Instant::now();
            play(db);
            wall.elapsed()
        })
        .collect();
    let spent = match (cpu, thread_cpu()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => start.elapsed(),
    };
    (walls, spent / u32::try_from(count).unwrap())
}

fn new_game() -> (Game, DiceState) {
    let rules = Rules::default();
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let seats = ["Ann", "Bob", "Cy", "Di"].map(|n| Seat::new(n, SeatKind::Easy)).to_vec();
    (Game::new(board, rules, seats).unwrap(), DiceState::seeded(7))
}

/// Plays the game to its end; with `db`, records it as `snl play` does: the new game, then
/// every turn's log line in one write.
fn play(db: Option<&Path>) {
    let (mut game, mut dice) = new_game();
    let mut recording = db.map(|path| {
        let mut db = Database::open(path).unwrap();
        let id = db.new_game(&Save::new(&game, &dice, "classic"), 0).unwrap();
        (db, id, Vec::new())
    });
    let mut seq = 0;
    while game.status() != Status::Finished {
        let mut events = Vec::new();
        game.play_turn(&mut dice, &mut FirstOption, &mut events).unwrap();
        if let Some((_, _, lines)) = &mut recording {
            let numbered: Vec<Numbered<usize>> = events
                .into_iter()
                .map(|event| {
                    seq += 1;
                    Numbered { seq, event }
                })
                .collect();
            let turns = game.turns();
            let joined =
                lines.last_mut().is_some_and(|l: &mut Logged| l.add_turn(turns, &numbered, 0));
            if !joined {
                lines.push(Logged::new(Action::Turn, turns, &numbered, 0));
            }
        }
    }
    if let Some((mut db, id, lines)) = recording {
        db.record_turns(id, &game, &dice, seq, &lines, 0).unwrap();
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

fn main() {
    let games: usize =
        std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(1000).max(100);
    let dir = std::env::temp_dir().join(format!("snl-bench-wal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.db");
    let window = 50;
    let (first, first_cpu) = block(window, Some(&path));
    let (middle, _) = block(games - 2 * window, Some(&path));
    let (last, last_cpu) = block(window, Some(&path));
    let wal = std::fs::metadata(dir.join("games.db-wal")).map_or(0, |m| m.len());
    let db = std::fs::metadata(&path).map_or(0, |m| m.len());
    let (bare, bare_cpu) = block(games, None);
    let _ = std::fs::remove_dir_all(&dir);

    let all: Vec<Duration> = [&first[..], &middle, &last].concat();
    let (one, end) = (all[0], all[games - 1]);
    let (second, end_ten) = (median(all[1..11].to_vec()), median(all[games - 10..].to_vec()));
    println!("{games} 4-seat classic games, each through a fresh Database::open");
    println!("  wall: game 1 (a new file) {}, game {games} {}", ms(one), ms(end));
    println!(
        "  wall, median of games 2-11: {}, of the last 10: {} ({:.2}x)",
        ms(second),
        ms(end_ten),
        ratio(end_ten, second)
    );
    println!(
        "  processor per game, first {window}: {}, last {window}: {} ({:.2}x)",
        ms(first_cpu),
        ms(last_cpu),
        ratio(last_cpu, first_cpu)
    );
    println!(
        "  processor per game unrecorded: {}; recorded (last {window}): {} ({:.1}x); wall \
         median unrecorded {}, recorded {}",
        ms(bare_cpu),
        ms(last_cpu),
        ratio(last_cpu, bare_cpu),
        ms(median(bare)),
        ms(median(all))
    );
    println!("  at the end: database {db} bytes, WAL {wal} bytes");
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-12)
}
