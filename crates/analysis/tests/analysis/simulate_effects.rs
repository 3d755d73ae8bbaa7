//! Simulation with cell effects and race mode (SPEC §3b): hand-derived answers on tiny boards,
//! agreement with games the engine plays from its own dice, and results that do not depend on
//! the thread count.
//!
//! The tiny boards all use one two-sided die and `overshoot = win` on 3 cells, so each game has a
//! handful of outcomes whose chances are worked out by hand in each test.

use std::num::NonZeroU32;

use snl_analysis::simulate::{GameOutcome, Simulator, Tally, Z999};
use snl_engine::{
    Board, BoardSpec, CellSpec, FirstOption, Game, Mode, MoveKind, Preset, Rules, Seat, SeatKind,
    SeededDice,
};

fn rules(text: &str) -> Rules {
    let mut rules = Rules::default();
    for option in text.split_whitespace() {
        let (key, value) = option.split_once('=').expect("key=value");
        match key {
            "set" => rules = Rules::named(value).unwrap(),
            "dice" => rules.dice = value.parse().unwrap(),
            "overshoot" => rules.overshoot = value.parse().unwrap(),
            "jumps" => rules.jumps = value.parse().unwrap(),
            "bonus" => rules.bonus = value.parse().unwrap(),
            "max" => rules.max_bonus = value.parse().unwrap(),
            "on-max" => rules.on_max = value.parse().unwrap(),
            "finish" => rules.finish = value.parse().unwrap(),
            "rounds" => {
                rules.mode =
                    Mode::Race { rounds: NonZeroU32::new(value.parse().unwrap()).unwrap() };
            }
            other => panic!("unknown option {other}"),
        }
    }
    rules
}

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

/// A simulator for a tiny board: 3 cells, one two-sided die, a roll past 3 finishes.
fn tiny(jumps: &[(u32, u32)], cells: &[(u32, &str, &[u32])], extra_rules: &str) -> Simulator {
    let rules = rules(&format!("dice=1d2 overshoot=win {extra_rules}"));
    let board = Board::new(&with_cells(3, jumps, cells), &rules).unwrap();
    Simulator::new(&board, &rules, 2).unwrap()
}

/// Games one after another from one seed, for checking each game's outcome.
fn games(sim: &Simulator, seed: u64, count: usize) -> Vec<GameOutcome> {
    let mut dice = sim.dice(seed);
    sim.games(&mut dice).take(count).collect()
}

/// Checks the tally's mean rolls and each seat's win rate against exact values, within 99.9%
/// intervals.
fn assert_agrees(tally: &Tally, mean_rolls: f64, win_rates: &[f64], what: &str) {
    let ci = tally.mean_rolls_interval(Z999);
    assert!(ci.contains(mean_rolls), "{what}: mean rolls {mean_rolls} outside {ci:?}");
    for (seat, &p) in win_rates.iter().enumerate() {
        let ci = tally.win_interval(seat, Z999);
        assert!(ci.contains(p), "{what}: seat {seat} wins with {p}, outside {ci:?}");
    }
}

#[test]
fn extra_cells_everywhere_make_the_whole_game_one_turn() {
    // Extra on 1 and 2: every roll that does not finish lands on an extra cell, so the first
    // seat finishes in its first turn. From 0: ½ to 2 then 1 roll; ½ to 1, then ½ finishes and
    // ½ goes to 2 and one roll more: rolls are 2 with chance ¾ and 3 with chance ¼ (mean 9/4).
    let sim = tiny(&[], &[(1, "extra", &[]), (2, "extra", &[])], "");
    let tally = sim.run(1, 100_000);
    assert_eq!(tally.wins(), &[100_000, 0]);
    assert_eq!(tally.total_turns(), 100_000, "one turn per game");
    let lengths = tally.length_counts();
    assert_eq!(lengths.len(), 4);
    assert_eq!(lengths[2] + lengths[3], 100_000);
    assert_agrees(&tally, 2.25, &[1.0, 0.0], "extra");
    let twos = lengths[2] as f64 / 1e5;
    assert!((twos - 0.75).abs() < 0.01, "two-roll games {twos}");
}

#[test]
fn a_board_where_every_game_meets_a_skip() {
    // Skip on 1 and 2: every first roll lands on one, so each seat's second turn is skipped.
    // A seat finishes on its third turn (from 2, or from 1 by a 2: chance ¾, after 2 rolls) or
    // else on its fifth (from 1 by a 1 to 2, which skips again: after 3 rolls). The game:
    //   seat 0 on turn 3 (¾): 3 rolls, 5 turns;
    //   seat 0 later, seat 1 on turn 3 (3/16): 4 rolls, 6 turns;
    //   both on turn 5 (1/16): seat 0 wins, 5 rolls, 9 turns.
    // Seat 0 wins 13/16; rolls 53/16; turns 87/16.
    let sim = tiny(&[], &[(1, "skip", &[]), (2, "skip", &[])], "");
    for game in games(&sim, 3, 10_000) {
        let shape = (game.winner, game.rolls, game.turns, game.winner_turns);
        assert!(
            [(0, 3, 5, 3), (1, 4, 6, 3), (0, 5, 9, 5)].contains(&shape),
            "a game that did not go as derived: {game:?}"
        );
    }
    let tally = sim.run(2, 100_000);
    assert_agrees(&tally, 53.0 / 16.0, &[13.0 / 16.0, 3.0 / 16.0], "skip");
    let turns = tally.total_turns() as f64 / 1e5;
    assert!((turns - 87.0 / 16.0).abs() < 0.03, "mean turns per game {turns}");
}

#[test]
fn a_shield_stops_the_snake_that_would_loop_for_ever() {
    // Shield on 1, snake 2→1. The first roll always ends on 1 with a shield (a 2 lands on the
    // snake, whose tail is the shield cell). From 1 a 2 finishes; a 1 lands on the snake's head,
    // the shield is used up and the token stays on 2, from where any roll finishes. So a seat
    // takes 2 or 3 rolls (one a turn), each with chance ½: seat 0 wins ½ + ¼ = ¾, and the game
    // takes 3 rolls (½), 4 (¼) or 5 (¼): 15/4.
    let sim = tiny(&[(2, 1)], &[(1, "shield", &[])], "");
    for game in games(&sim, 4, 10_000) {
        assert!((3..=5).contains(&game.rolls), "{game:?}");
        assert_eq!(game.rolls, game.turns);
    }
    let tally = sim.run(5, 100_000);
    assert_agrees(&tally, 3.75, &[0.75, 0.25], "shield");
}

#[test]
fn a_wormhole_draws_its_exit_uniformly() {
    // Wormhole on 1 with exits 3 (the end) and 2. A seat finishes on its first roll with chance
    // ¼ (a 1, then exit 3), else on its second. Seat 0 wins ¼ + ¾·¾ = 13/16; the game takes
    // 1 roll (¼), 2 (3/16) or 3 (9/16): 37/16.
    let sim = tiny(&[], &[(1, "wormhole", &[3, 2])], "");
    let tally = sim.run(6, 100_000);
    assert_agrees(&tally, 37.0 / 16.0, &[13.0 / 16.0, 3.0 / 16.0], "wormhole");
    assert_eq!(tally.length_counts().len(), 4, "no game takes more than 3 rolls");
}

#[test]
fn voided_turns_move_nothing_and_the_kernel_plays_them_as_the_engine() {
    // Shield on 1 and snake 2→1 as above, with 1d2's top face (a 2) voiding its turn at once
    // (bonus top-face, max-bonus 1, on-max void): a 2 is never moved. So the winner moves on
    // exactly three turns: a 1 to the shield cell, a 1 onto the snake that the shield stops, a 1
    // to the end; every other turn of its was voided.
    let sim = tiny(&[(2, 1)], &[(1, "shield", &[])], "bonus=top-face max=1 on-max=void");
    let rules = *sim.rules();
    let board = sim.board().clone();
    let seats = vec![Seat::new("A", SeatKind::Easy), Seat::new("B", SeatKind::Easy)];
    let mut dice = sim.dice(9);
    let mut voided = 0;
    for expected in games(&sim, 9, 2000) {
        let mut game = Game::new(board.clone(), rules, seats.clone()).unwrap();
        game.play_to_end(&mut dice, &mut FirstOption, &mut ()).unwrap();
        let winner = game.ranking()[0];
        assert_eq!(expected.winner, winner);
        assert_eq!(expected.rolls, u64::from(game.rolls()));
        assert_eq!(expected.turns, u64::from(game.turns()));
        let moves: Vec<MoveKind> = game.history_of(winner).map(|m| m.kind).collect();
        assert_eq!(moves.iter().filter(|&&k| k == MoveKind::Moved).count(), 3, "{moves:?}");
        voided += moves.iter().filter(|&&k| k == MoveKind::Voided).count();
        assert_eq!(u64::from(game.turns_of(winner)), expected.winner_turns);
    }
    assert!(voided > 1000, "only {voided} voided turns");
}

#[test]
fn a_race_of_one_round_on_the_classic_board_is_won_by_the_higher_roll() {
    // One roll each: cells 1 to 5, or 25 by the ladder on 6 (single jumps: the snake on 25 does
    // not follow). All different, so seat 0 wins when its roll is at least seat 1's: 21/36.
    let rules = rules("rounds=1");
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let sim = Simulator::new(&board, &rules, 2).unwrap();
    for game in games(&sim, 1, 1000) {
        assert_eq!((game.rolls, game.turns, game.winner_turns), (2, 2, 1), "{game:?}");
    }
    let tally = sim.run(7, 100_000);
    assert_agrees(&tally, 2.0, &[21.0 / 36.0, 15.0 / 36.0], "race of one round");
}

#[test]
fn a_race_ends_after_its_rounds_counting_skipped_turns() {
    // The skip board in a race of 2 rounds: each seat's one roll ends on 1 or 2, its second turn
    // is skipped, and the furthest wins, ties to seat 0: ¾.
    let sim = tiny(&[], &[(1, "skip", &[]), (2, "skip", &[])], "rounds=2");
    for game in games(&sim, 8, 1000) {
        assert_eq!((game.rolls, game.turns, game.winner_turns), (2, 4, 2), "{game:?}");
    }
    let tally = sim.run(8, 100_000);
    assert_agrees(&tally, 2.0, &[0.75, 0.25], "race with skips");
}

/// `games` games played by the engine from its own seeded dice (ChaCha8, not the simulator's
/// stream), each seat taking the first option.
fn engine_tally(board: &Board, rules: Rules, seats: usize, seed: u64, games: u64) -> Tally {
    let seats: Vec<Seat> = (0..seats).map(|i| Seat::new(format!("P{i}"), SeatKind::Easy)).collect();
    let mut dice = SeededDice::new(seed);
    let mut tally = Tally::new(seats.len());
    for _ in 0..games {
        let mut game = Game::new(board.clone(), rules, seats.clone()).unwrap();
        game.play_to_end(&mut dice, &mut FirstOption, &mut ()).unwrap();
        let winner = game.ranking()[0];
        tally.record(GameOutcome {
            winner,
            rolls: u64::from(game.rolls()),
            turns: u64::from(game.turns()),
            winner_turns: u64::from(game.turns_of(winner)),
        });
    }
    tally
}

/// Two independent samples agree: the difference of the means and of each seat's win rate lies
/// within its 99.9% interval.
fn assert_same_law(a: &Tally, b: &Tally, what: &str) {
    let (na, nb) = (a.games() as f64, b.games() as f64);
    let se = (a.std_dev_rolls().powi(2) / na + b.std_dev_rolls().powi(2) / nb).sqrt();
    let diff = a.mean_rolls() - b.mean_rolls();
    assert!(
        diff.abs() <= Z999 * se,
        "{what}: mean rolls {} against {} (difference {diff:.4}, allowed {:.4})",
        a.mean_rolls(),
        b.mean_rolls(),
        Z999 * se
    );
    for seat in 0..a.seats() {
        let (pa, pb) = (a.win_rate(seat), b.win_rate(seat));
        let pooled = (a.wins()[seat] + b.wins()[seat]) as f64 / (na + nb);
        let se = (pooled * (1.0 - pooled) * (1.0 / na + 1.0 / nb)).sqrt();
        assert!(
            (pa - pb).abs() <= Z999 * se,
            "{what}: seat {seat} wins {pa:.4} against {pb:.4} (allowed {:.4})",
            Z999 * se
        );
    }
}

#[test]
fn the_kernel_agrees_with_engine_games_from_other_dice() {
    let jumps: &[(u32, u32)] = &[(3, 11), (8, 16), (14, 4), (19, 6), (22, 10)];
    let cases: Vec<(&str, BoardSpec, &str, usize)> = vec![
        ("party", Preset::Party.spec(), "", 2),
        ("party", Preset::Party.spec(), "set=strict-sixes", 4),
        ("party", Preset::Party.spec(), "jumps=chain finish=all", 3),
        ("skip", with_cells(24, jumps, &[(5, "skip", &[]), (12, "skip", &[])]), "", 2),
        ("extra", with_cells(24, jumps, &[(2, "extra", &[]), (13, "extra", &[])]), "", 2),
        ("shield", with_cells(24, jumps, &[(6, "shield", &[]), (16, "shield", &[])]), "", 2),
        ("wormhole", with_cells(24, jumps, &[(9, "wormhole", &[1, 15, 21])]), "", 2),
        ("race classic", Preset::Classic.spec(), "rounds=10", 3),
        ("race party", Preset::Party.spec(), "set=bonus-six rounds=8", 2),
    ];
    for (i, (name, spec, text, seats)) in cases.into_iter().enumerate() {
        let rules = rules(text);
        let board = Board::new(&spec, &rules).unwrap();
        let sim = Simulator::new(&board, &rules, seats).unwrap();
        let what = format!("{name} '{text}' {seats} seats");
        let engine = engine_tally(&board, rules, seats, i as u64, 20_000);
        let kernel = sim.run(1000 + i as u64, 200_000);
        assert_same_law(&kernel, &engine, &what);
    }
}

fn run_on_threads(sim: &Simulator, threads: usize, seed: u64, games: u64) -> Tally {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| sim.run(seed, games))
}

#[test]
fn a_seed_gives_the_same_tally_on_one_two_or_three_threads_with_effects_and_races() {
    let cases = [
        (Preset::Party.spec(), "", 2),
        (Preset::Party.spec(), "set=three-sixes jumps=chain", 5),
        (Preset::Classic.spec(), "rounds=12", 4),
        (Preset::Party.spec(), "rounds=6 finish=all", 3),
    ];
    for (spec, text, seats) in cases {
        let rules = rules(text);
        let board = Board::new(&spec, &rules).unwrap();
        let sim = Simulator::new(&board, &rules, seats).unwrap();
        let one = run_on_threads(&sim, 1, 77, 20_500);
        assert_eq!(one.games(), 20_500);
        assert_eq!(one.wins().iter().sum::<u64>(), 20_500);
        assert_eq!(one, run_on_threads(&sim, 2, 77, 20_500), "'{text}'");
        assert_eq!(one, run_on_threads(&sim, 3, 77, 20_500), "'{text}'");
        assert_ne!(one, run_on_threads(&sim, 2, 78, 20_500), "another seed, other games");
    }
}

/// The exact analysis (its chain over cell, shield and pending skip; `exact::race_on` for races)
/// against the simulation: every exact number lies inside the simulated 99.9% interval, on the
/// party preset under several rule sets, on random boards with effects, and in races.
#[test]
fn the_exact_analysis_lies_inside_the_simulated_999_intervals_with_effects_and_races() {
    use snl_analysis::exact;
    use snl_engine::RandomBoard;
    let mut cases: Vec<(String, BoardSpec, &str, usize)> = [
        ("set=standard", 2),
        ("set=bonus-six", 3),
        ("set=strict-sixes", 2),
        ("dice=2d6 overshoot=bounce jumps=chain", 2),
        ("finish=all", 3),
    ]
    .into_iter()
    .map(|(text, seats)| ("party".to_owned(), Preset::Party.spec(), text, seats))
    .collect();
    for seed in 0..3 {
        let text = ["set=strict-sixes overshoot=bounce", "jumps=chain set=bonus-six", ""][seed % 3];
        let random =
            RandomBoard { size: 60, snakes: 6, ladders: 5, seed: seed as u64, min_jump: 1 };
        cases.push((format!("random {seed}"), random.spec_with_effects(&rules(text), 12), text, 2));
    }
    for (i, (name, spec, text, seats)) in cases.into_iter().enumerate() {
        let rules = rules(text);
        let board = Board::new(&spec, &rules).unwrap();
        let exact = exact::analyze(&board, &rules).unwrap().seats(seats);
        let tally = Simulator::new(&board, &rules, seats).unwrap().run(9100 + i as u64, 200_000);
        assert_agrees(
            &tally,
            exact.expected_game_rolls,
            &exact.win_probability,
            &format!("{name}, rules '{text}', {seats} seats"),
        );
    }
    let races = [
        (Preset::Classic.spec(), "rounds=10", 3),
        (Preset::Party.spec(), "set=bonus-six rounds=8", 2),
        (Preset::Party.spec(), "rounds=20", 4),
    ];
    for (i, (spec, text, seats)) in races.into_iter().enumerate() {
        let rules = rules(text);
        let board = Board::new(&spec, &rules).unwrap();
        let race = exact::race_on(&board, &rules, seats).unwrap();
        let tally = Simulator::new(&board, &rules, seats).unwrap().run(9200 + i as u64, 200_000);
        for (seat, &p) in race.win_probability.iter().enumerate() {
            let ci = tally.win_interval(seat, Z999);
            assert!(ci.contains(p), "race '{text}': seat {seat} exact {p:.5} outside {ci:?}");
        }
    }
}
