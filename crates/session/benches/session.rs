//! What the session adds to the engine: the same two-computer game on a 20,000-cell empty board
//! (11,367 turns), played by the engine alone and through a session (dice, seats, numbered
//! events; no person, so no undo timeline). The session should stay within 2× the engine.

use criterion::{Criterion, criterion_group, criterion_main};
use snl_engine::{Board, FirstOption, Game, RandomBoard, Rules, Seat, SeatKind, SeededDice};
use snl_session::{Awaiting, Session};
use snl_store::DiceState;

fn game() -> Game {
    let rules = Rules::default();
    let spec =
        RandomBoard { size: 20_000, snakes: 0, ladders: 0, seed: 1, min_jump: 1 }.spec(&rules);
    let board = Board::new(&spec, &rules).expect("a valid board");
    let seats = vec![Seat::new("Red", SeatKind::Easy), Seat::new("Blue", SeatKind::Easy)];
    Game::new(board, rules, seats).expect("a playable game")
}

fn long_game(c: &mut Criterion) {
    let template = game();
    let mut group = c.benchmark_group("long_game_20000_cells");
    group.sample_size(20);
    group.bench_function("engine_alone", |b| {
        b.iter(|| {
            let mut g = template.clone();
            g.play_to_end(&mut SeededDice::new(1), &mut FirstOption, &mut ()).unwrap();
            g.turns()
        });
    });
    group.bench_function("session", |b| {
        b.iter(|| {
            let mut session = Session::new(template.clone(), DiceState::seeded(1), "random");
            let mut told = 0;
            while let Awaiting::Computer { .. } = session.awaiting() {
                told += session.play_computer().unwrap().len();
            }
            told
        });
    });
    group.finish();
}

criterion_group!(benches, long_game);
criterion_main!(benches);
