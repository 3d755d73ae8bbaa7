//! How long whole games take: the issue-2 target is a 4-seat computer game well under 50 ms.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use snl_engine::{Board, FirstOption, Game, Preset, Rules, Seat, SeatKind, SeededDice, Transcript};

fn game(preset: Preset, rules: Rules, seats: usize) -> Game {
    let board = Board::new(&preset.spec(), &rules).unwrap();
    let seats = (0..seats).map(|i| Seat::new(format!("P{i}"), SeatKind::Easy)).collect();
    Game::new(board, rules, seats).unwrap()
}

fn whole_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("whole_game");
    for (name, rules) in
        [("standard", Rules::default()), ("three-sixes", Rules::named("three-sixes").unwrap())]
    {
        for seats in [2, 4, 8] {
            let template = game(Preset::Classic, rules, seats);
            // New game, seeded dice, events collected in memory: what `snl play --fast` does
            // apart from writing to the terminal.
            group.bench_with_input(BenchmarkId::new(name, seats), &seats, |b, _| {
                let mut seed = 0_u64;
                b.iter(|| {
                    seed += 1;
                    let mut g = template.clone();
                    let mut events = Vec::new();
                    g.play_to_end(&mut SeededDice::new(seed), &mut FirstOption, &mut events)
                        .unwrap();
                    black_box(events.len())
                });
            });
        }
    }
    // With a text transcript: formatting every event as a line of text.
    let template = game(Preset::Classic, Rules::default(), 4);
    group.bench_function("standard_4_seats_with_transcript", |b| {
        let mut seed = 0_u64;
        b.iter(|| {
            seed += 1;
            let mut g = template.clone();
            let mut t = Transcript::new(template.seats());
            g.play_to_end(&mut SeededDice::new(seed), &mut FirstOption, &mut t).unwrap();
            black_box(t.text().len())
        });
    });
    group.finish();
}

fn setup(c: &mut Criterion) {
    // Building and validating the board and game (reachability check included).
    c.bench_function("new_game_classic_4_seats", |b| {
        b.iter(|| black_box(game(Preset::Classic, Rules::default(), 4)));
    });
}

criterion_group!(benches, whole_games, setup);
criterion_main!(benches);
