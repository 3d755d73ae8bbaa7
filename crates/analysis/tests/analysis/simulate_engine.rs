//! The simulator plays exactly the engine's games: the same dice stream fed to
//! `snl_engine::Game` (through `DiceStream`'s `RollSource`) and to the simulator's kernels gives the
//! same winner, rolls and turns, game after game, for every kind of rule, with cell effects
//! (SPEC §3b: the wormhole's draw from the same stream) and in race mode.

use std::num::NonZeroU32;

use snl_analysis::simulate::{DiceStream, GameOutcome, Kernel, Simulator, Tally, chunk_seed};
use snl_engine::{
    Board, BoardSpec, CellSpec, FirstOption, Game, Mode, Preset, RandomBoard, Rules, Seat, SeatKind,
};

const GAMES: usize = 150;

fn rules(text: &str) -> Rules {
    let mut rules = Rules::default();
    for option in text.split_whitespace() {
        let (key, value) = option.split_once('=').expect("key=value");
        match key {
            "set" => rules = Rules::named(value).unwrap(),
            "start" => rules.start = value.parse().unwrap(),
            "dice" => rules.dice = value.parse().unwrap(),
            "overshoot" => rules.overshoot = value.parse().unwrap(),
            "jumps" => rules.jumps = value.parse().unwrap(),
            "bonus" => rules.bonus = value.parse().unwrap(),
            "max" => rules.max_bonus = value.parse().unwrap(),
            "on-max" => rules.on_max = value.parse().unwrap(),
            "finish" => rules.finish = value.parse().unwrap(),
            "choice" => rules.choice = value.parse().unwrap(),
            "rounds" => {
                rules.mode =
                    Mode::Race { rounds: NonZeroU32::new(value.parse().unwrap()).unwrap() };
            }
            other => panic!("unknown option {other}"),
        }
    }
    rules
}

const RULES: &[&str] = &[
    "set=standard",
    "set=bonus-six",
    "set=three-sixes",
    "set=strict-sixes",
    "overshoot=bounce jumps=chain",
    "overshoot=win start=first-cell",
    "dice=2d6 bonus=top-face max=2 on-max=void",
    "dice=1d4 bonus=top-face max=1 on-max=pass",
    "dice=1d4 bonus=top-face max=1 on-max=void finish=all",
    "choice=pick-die bonus=top-face max=3 on-max=void",
    "choice=pick-die dice=1d8 finish=all overshoot=bounce",
    "choice=may-pass bonus=top-face",
    "dice=3d4 finish=all jumps=chain",
    "dice=1d20 overshoot=bounce",
    "dice=1d2 bonus=top-face finish=all start=first-cell",
];

fn boards() -> Vec<(&'static str, BoardSpec)> {
    vec![
        ("classic", Preset::Classic.spec()),
        ("milton-bradley", Preset::MiltonBradley.spec()),
        ("kids", Preset::Kids.spec()),
        ("empty", Preset::Empty.spec()),
        ("small", BoardSpec::with_jumps(12, [(3, 9), (11, 2), (7, 4), (5, 8)])),
    ]
}

fn engine_games(board: &Board, rules: Rules, seats: usize, seed: u64) -> Vec<GameOutcome> {
    let seats: Vec<Seat> = (0..seats).map(|i| Seat::new(format!("P{i}"), SeatKind::Easy)).collect();
    let mut dice = DiceStream::new(seed, rules.thrown_dice().faces());
    (0..GAMES)
        .map(|_| {
            let mut game = Game::new(board.clone(), rules, seats.clone()).unwrap();
            game.play_to_end(&mut dice, &mut FirstOption, &mut ()).unwrap();
            let winner = game.ranking()[0];
            GameOutcome {
                winner,
                rolls: u64::from(game.rolls()),
                turns: u64::from(game.turns()),
                winner_turns: u64::from(game.turns_of(winner)),
            }
        })
        .collect()
}

fn kernel_games(sim: &Simulator, seed: u64) -> Vec<GameOutcome> {
    let mut dice = sim.dice(seed);
    sim.games(&mut dice).take(GAMES).collect()
}

#[test]
fn every_kernel_plays_the_engines_games_roll_for_roll() {
    let mut compared = 0;
    let mut raced = 0;
    for (name, spec) in boards() {
        for (r, text) in RULES.iter().enumerate() {
            let rules = rules(text);
            let Ok(board) = Board::new(&spec, &rules) else { continue };
            for seats in [2, 3, 4, 5] {
                let Ok(sim) = Simulator::new(&board, &rules, seats) else { continue };
                let seed = 1000 * r as u64 + seats as u64;
                let expected = engine_games(&board, rules, seats, seed);
                if sim.kernel() == Kernel::Race {
                    raced += 1;
                }
                // A chunk runs a copy of the kernel made for its seat count: it too must tally
                // exactly the engine's games from the chunk's stream.
                let chunk_games = engine_games(&board, rules, seats, chunk_seed(seed, 0));
                let mut expected_chunk = Tally::new(seats);
                for game in chunk_games {
                    expected_chunk.record(game);
                }
                for sim in [sim.clone(), sim.general()] {
                    let got = kernel_games(&sim, seed);
                    for (i, (e, g)) in expected.iter().zip(&got).enumerate() {
                        assert_eq!(
                            e,
                            g,
                            "board {name}, rules '{text}', {seats} seats, {:?} kernel, game {i}",
                            sim.kernel()
                        );
                    }
                    assert_eq!(
                        sim.play_chunk(seed, 0, GAMES as u64),
                        expected_chunk,
                        "board {name}, rules '{text}', {seats} seats, {:?} kernel, chunk",
                        sim.kernel()
                    );
                }
                compared += 1;
            }
        }
    }
    assert!(compared >= 240, "only {compared} combinations compared");
    assert!(raced >= 20, "the race kernel ran on only {raced} combinations");
}

#[test]
fn a_random_board_plays_the_same_in_the_engine_and_the_simulator() {
    for seed in 0..5 {
        let rules = rules("set=strict-sixes overshoot=bounce");
        let spec = RandomBoard { size: 60, snakes: 6, ladders: 5, seed, min_jump: 1 }.spec(&rules);
        let board = Board::new(&spec, &rules).unwrap();
        let sim = Simulator::new(&board, &rules, 4).unwrap();
        assert_eq!(engine_games(&board, rules, 4, seed), kernel_games(&sim, seed));
    }
}

#[test]
fn a_chunk_is_its_games_played_in_order_from_the_chunk_seed() {
    let rules = Rules::default();
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let sim = Simulator::new(&board, &rules, 2).unwrap();
    let tally = sim.play_chunk(9, 3, 500);
    let mut dice = sim.dice(chunk_seed(9, 3));
    let mut expected = Tally::new(2);
    for game in sim.games(&mut dice).take(500) {
        expected.record(game);
    }
    assert_eq!(tally, expected);
}

/// A board of `size` cells with these jumps and `[[cell]]` effects (`(at, name, exits)`).
fn with_cells(size: u32, jumps: &[(u32, u32)], cells: &[(u32, &str, &[u32])]) -> BoardSpec {
    let mut spec = BoardSpec::with_jumps(size, jumps.iter().copied());
    spec.cells = cells
        .iter()
        .map(|&(at, effect, exits)| CellSpec {
            at,
            effect: effect.to_owned(),
            exits: exits.to_vec(),
        })
        .collect();
    spec
}

/// Boards with effects: the party preset, one small board per effect, and small boards where
/// effects meet (a wormhole leading to a ladder, a snake, another wormhole, an effect or N).
fn effect_boards() -> Vec<(&'static str, BoardSpec)> {
    let snakes_and_ladders: &[(u32, u32)] = &[(3, 11), (8, 16), (14, 4), (19, 6), (22, 10)];
    vec![
        ("party", Preset::Party.spec()),
        ("skip", with_cells(24, snakes_and_ladders, &[(5, "skip", &[]), (12, "skip", &[])])),
        ("extra", with_cells(24, snakes_and_ladders, &[(2, "extra", &[]), (13, "extra", &[])])),
        ("shield", with_cells(24, snakes_and_ladders, &[(6, "shield", &[]), (16, "shield", &[])])),
        ("wormhole", with_cells(24, snakes_and_ladders, &[(9, "wormhole", &[1, 15, 21])])),
        (
            "mixed",
            with_cells(
                24,
                snakes_and_ladders,
                &[
                    (2, "shield", &[]),
                    (5, "wormhole", &[3, 14, 17, 24]),
                    (13, "extra", &[]),
                    (17, "wormhole", &[7, 20]),
                    (20, "skip", &[]),
                    (11, "shield", &[]),
                    (16, "extra", &[]),
                ],
            ),
        ),
    ]
}

const EFFECT_RULES: &[&str] = &[
    "set=standard",
    "set=bonus-six",
    "set=three-sixes",
    "set=strict-sixes",
    "overshoot=bounce jumps=chain",
    "overshoot=win start=first-cell jumps=chain bonus=top-face max=2 on-max=void",
    "dice=2d6 bonus=top-face max=2 on-max=void overshoot=bounce",
    "dice=1d4 bonus=top-face max=1 on-max=void finish=all",
    "choice=pick-die bonus=top-face max=3 on-max=void",
    "choice=may-pass bonus=top-face jumps=chain",
    "dice=1d2 bonus=top-face finish=all start=first-cell",
    "rounds=1",
    "set=strict-sixes rounds=5",
    "rounds=7 finish=all jumps=chain",
    "rounds=3 dice=2d6 overshoot=bounce bonus=top-face",
];

/// Compares the kernel with the engine game for game (from one stream) and chunk for chunk.
fn compare(name: &str, board: &Board, rules: Rules, text: &str, seats: usize, seed: u64) {
    let Ok(sim) = Simulator::new(board, &rules, seats) else { return };
    assert_eq!(sim.kernel(), Kernel::General, "board {name}, rules '{text}'");
    let expected = engine_games(board, rules, seats, seed);
    let got = kernel_games(&sim, seed);
    for (i, (e, g)) in expected.iter().zip(&got).enumerate() {
        assert_eq!(e, g, "board {name}, rules '{text}', {seats} seats, game {i}");
    }
    let mut expected_chunk = Tally::new(seats);
    for game in engine_games(board, rules, seats, chunk_seed(seed, 0)) {
        expected_chunk.record(game);
    }
    assert_eq!(
        sim.play_chunk(seed, 0, GAMES as u64),
        expected_chunk,
        "board {name}, rules '{text}', {seats} seats, chunk"
    );
}

#[test]
fn the_kernel_plays_the_engines_games_with_effects_and_races_roll_for_roll() {
    let mut compared = 0;
    let boards = effect_boards().into_iter().chain(boards());
    for (b, (name, spec)) in boards.enumerate() {
        for (r, text) in EFFECT_RULES.iter().enumerate() {
            let rules = rules(text);
            // Races are played on the plain boards too; classic mode there is the old kernels'.
            if spec.cells.is_empty() && rules.mode.rounds().is_none() {
                continue;
            }
            let board = match Board::new(&spec, &rules) {
                Ok(board) => board,
                Err(e) => {
                    assert!(r != 0, "board {name} is refused under the standard rules: {e}");
                    continue;
                }
            };
            for seats in [2, 3, 4, 5] {
                let seed = 100_000 * b as u64 + 1000 * r as u64 + seats as u64;
                if Simulator::new(&board, &rules, seats).is_ok() {
                    compare(name, &board, rules, text, seats, seed);
                    compared += 1;
                }
            }
        }
    }
    assert!(compared >= 400, "only {compared} combinations compared");
}

#[test]
fn random_boards_with_effects_play_the_same_in_the_engine_and_the_simulator() {
    let mut compared = 0;
    for seed in 0..12 {
        let text = ["set=strict-sixes overshoot=bounce", "jumps=chain set=bonus-six", "rounds=9"]
            [seed as usize % 3];
        let rules = rules(text);
        let random = RandomBoard { size: 60, snakes: 6, ladders: 5, seed, min_jump: 1 };
        let spec = random.spec_with_effects(&rules, 12);
        assert!(!spec.cells.is_empty());
        let Ok(board) = Board::new(&spec, &rules) else { continue };
        if Simulator::new(&board, &rules, 3).is_ok() {
            compare("random", &board, rules, text, 3, seed);
            compared += 1;
        }
    }
    assert!(compared >= 8, "only {compared} random boards compared");
}

#[test]
fn party_games_meet_every_effect() {
    // The agreement above means something only if the games played go through every effect:
    // count the engine's events over some party games.
    use snl_engine::Event;
    let rules = Rules::default();
    let board = Board::new(&Preset::Party.spec(), &rules).unwrap();
    let seats: Vec<Seat> = (0..3).map(|i| Seat::new(format!("P{i}"), SeatKind::Easy)).collect();
    let mut dice = DiceStream::new(5, 6);
    let mut events: Vec<Event> = Vec::new();
    for _ in 0..50 {
        let mut game = Game::new(board.clone(), rules, seats.clone()).unwrap();
        game.play_to_end(&mut dice, &mut FirstOption, &mut events).unwrap();
    }
    let count = |f: fn(&Event) -> bool| events.iter().filter(|e| f(e)).count();
    assert!(count(|e| matches!(e, Event::TurnSkipped { .. })) > 10);
    assert!(count(|e| matches!(e, Event::ExtraRoll { .. })) > 10);
    assert!(count(|e| matches!(e, Event::ShieldGained { .. })) > 10);
    assert!(count(|e| matches!(e, Event::ShieldUsed { .. })) > 5);
    assert!(count(|e| matches!(e, Event::Wormhole { .. })) > 10);
}
