//! What keeping a game costs per turn: writing the save file atomically, recording the turn in
//! the database (one transaction, fsync'd), and reading a save back through its checks; and
//! recording one turn into a save journal (what `--save` does) at turn 10 and at turn 10,000 —
//! the same, since a turn appends one line of what changed — beside writing the whole save.

use std::{
    hint::black_box,
    time::{Duration, Instant},
};

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use snl_engine::{Board, BoardSpec, FirstOption, Game, Preset, Rules, Seat, SeatKind};
use snl_store::{Action, Database, DiceState, Save, SaveJournal};

/// A 4-seat classic game after `turns` turns.
fn game_after(turns: u32) -> (Game, DiceState) {
    let rules = Rules::default();
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let seats = (0..4).map(|i| Seat::new(format!("P{i}"), SeatKind::Easy)).collect();
    let mut game = Game::new(board, rules, seats).unwrap();
    let mut dice = DiceState::seeded(1);
    while game.turns() < turns && game.ranking().is_empty() {
        game.play_turn(&mut dice, &mut FirstOption, &mut ()).unwrap();
    }
    (game, dice)
}

fn keeping(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("snl-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut group = c.benchmark_group("keep_one_turn");
    for turns in [10, 40, 80] {
        let (game, dice) = game_after(turns);
        let save = Save::new(&game, &dice, "classic");
        let path = dir.join("game.json");
        group.bench_with_input(BenchmarkId::new("save_file_write", turns), &save, |b, save| {
            b.iter(|| save.write(&path).unwrap());
        });
        let text = save.to_json();
        group.bench_with_input(BenchmarkId::new("save_file_load", turns), &text, |b, text| {
            b.iter(|| Save::from_json(black_box(text.as_bytes())).unwrap().restore().unwrap());
        });
        let mut db = Database::open(&dir.join(format!("games-{turns}.db"))).unwrap();
        let id = db.new_game(&save, 0).unwrap();
        group.bench_with_input(BenchmarkId::new("database_record", turns), &save, |b, save| {
            b.iter(|| db.record(id, Action::Turn, save, &[], 0).unwrap());
        });
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A 2-seat game on a board of 100,000 cells without jumps (long enough for 10,000 turns and
/// more) after `turns` turns, and the same game one turn later.
fn long_game_after(turns: u32) -> ((Game, DiceState), (Game, DiceState)) {
    let rules = Rules::default();
    let spec = BoardSpec { size: 100_000, ..BoardSpec::default() };
    let board = Board::new(&spec, &rules).unwrap();
    let seats = (0..2).map(|i| Seat::new(format!("P{i}"), SeatKind::Easy)).collect();
    let mut game = Game::new(board, rules, seats).unwrap();
    let mut dice = DiceState::seeded(1);
    while game.turns() < turns {
        game.play_turn(&mut dice, &mut FirstOption, &mut ()).unwrap();
    }
    let before = (game.clone(), dice.clone());
    game.play_turn(&mut dice, &mut FirstOption, &mut ()).unwrap();
    (before, (game, dice))
}

/// Recording one turn into a save journal at turn N: the turn's line is timed; an undo's line
/// (untimed) brings the game back to turn N before the next one, so every timed turn is the same.
fn journal(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("snl-bench-journal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut group = c.benchmark_group("save_one_turn");
    for turns in [10, 10_000] {
        let (before, after) = long_game_after(turns);
        let path = dir.join(format!("journal-{turns}.json"));
        let mut journal =
            SaveJournal::create(&path, &Save::new(&before.0, &before.1, "long")).unwrap();
        for (name, sync) in [("journal_append", false), ("journal_append_fdatasync", true)] {
            group.bench_function(BenchmarkId::new(name, turns), |b| {
                b.iter_custom(|iters| {
                    let mut spent = Duration::ZERO;
                    for _ in 0..iters {
                        let start = Instant::now();
                        journal.append(&after.0, &after.1, 0, sync).unwrap();
                        spent += start.elapsed();
                        journal.append(&before.0, &before.1, 0, false).unwrap();
                    }
                    spent
                });
            });
        }
        // What --save cost before: the whole save rewritten atomically (fsync'd) every turn.
        let whole = Save::new(&after.0, &after.1, "long");
        let whole_path = dir.join(format!("whole-{turns}.json"));
        group.sample_size(10);
        group.bench_function(BenchmarkId::new("whole_write", turns), |b| {
            b.iter(|| whole.write(&whole_path).unwrap());
        });
        group.sample_size(100);
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, keeping, journal);
criterion_main!(benches);
