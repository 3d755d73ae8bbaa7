//! What keeping a game costs per turn: writing the save file atomically, recording the turn in
//! the database (one transaction, fsync'd), and reading a save back through its checks.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use snl_engine::{Board, FirstOption, Game, Preset, Rules, Seat, SeatKind};
use snl_store::{Action, Database, DiceState, Save};

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

criterion_group!(benches, keeping);
criterion_main!(benches);
