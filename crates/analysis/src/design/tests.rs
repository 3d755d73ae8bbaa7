//! Unit tests of the board designer: every number is recomputed from the board alone by the
//! exact analysis, not taken from the search.

use snl_engine::{Board, BoardSpec, FirstOption, Mode};

use super::*;
use crate::exact::{self, Options};

fn goal(target: f64, fair: bool, seed: u64) -> Goal {
    Goal { target_turns: target, fair, seed, ..Goal::default() }
}

fn run(goal: &Goal) -> Result<Design, DesignError> {
    design(goal, &Rules::default(), &|_| {}, &Budget::unlimited())
}

/// The exact analysis of the designed board, from its spec alone.
fn recheck(spec: &BoardSpec, rules: &Rules) -> exact::Analysis {
    let board = Board::new(spec, rules).unwrap();
    exact::analyze_with(&board, rules, &FirstOption, &Options::default()).unwrap()
}

fn gap(win: &[f64]) -> f64 {
    win.iter().copied().fold(f64::NEG_INFINITY, f64::max)
        - win.iter().copied().fold(f64::INFINITY, f64::min)
}

#[test]
fn a_designed_board_lasts_the_target_within_a_hundredth_of_a_turn_on_several_seeds() {
    for (target, seed) in [(12.0, 1), (30.0, 2), (30.0, 5), (47.3, 3), (60.0, 4)] {
        let d = run(&goal(target, false, seed)).unwrap();
        let again = recheck(&d.spec, &Rules::default());
        assert!((again.expected_turns - target).abs() <= 0.01, "{target} {seed}: {d:?}");
        assert!(d.goal_met() && (again.expected_turns - d.expected_turns).abs() < 1e-9);
    }
}

#[test]
fn the_standard_deviation_lands_in_the_band_asked() {
    for (min, max, seed) in [(12.0, 14.0, 1), (28.0, 32.0, 2)] {
        let g = Goal { spread: Spread::Band { min, max }, ..goal(30.0, false, seed) };
        let d = run(&g).unwrap();
        let again = recheck(&d.spec, &Rules::default());
        assert!((again.expected_turns - 30.0).abs() <= 0.01, "{d:?}");
        assert!((min..=max).contains(&again.std_dev_turns), "{} {d:?}", again.std_dev_turns);
    }
}

#[test]
fn a_low_spread_varies_less_than_a_high_one() {
    let low = run(&Goal { spread: Spread::Low, ..goal(30.0, false, 1) }).unwrap();
    let high = run(&Goal { spread: Spread::High, ..goal(30.0, false, 1) }).unwrap();
    assert!(low.met.length && high.met.length, "{low:?} {high:?}");
    assert!(low.std_dev_turns + 5.0 < high.std_dev_turns, "{low:?} {high:?}");
}

#[test]
fn the_seats_gap_stays_within_the_bound_asked() {
    for (seats, bound, seed) in [(2, 0.02, 1), (3, 0.03, 2)] {
        let g = Goal { seats, max_gap: Some(bound), ..goal(30.0, false, seed) };
        let d = run(&g).unwrap();
        let again = recheck(&d.spec, &Rules::default());
        let win = again.seats(seats).win_probability;
        assert!((again.expected_turns - 30.0).abs() <= 0.01, "{d:?}");
        assert!(gap(&win) <= bound && (gap(&win) - d.spread).abs() < 1e-9, "{win:?}");
    }
}

#[test]
fn effects_are_placed_and_judged_by_the_exact_analysis_with_effects() {
    let g = Goal { effects: 4, ..goal(30.0, false, 2) };
    let d = run(&g).unwrap();
    assert_eq!(d.spec.cells.len(), 4);
    let again = recheck(&d.spec, &Rules::default());
    assert!((again.expected_turns - 30.0).abs() <= 0.01, "{d:?}");
}

#[test]
fn a_race_is_judged_by_the_race_chances() {
    let rules = Rules {
        mode: Mode::Race { rounds: std::num::NonZeroU32::new(20).unwrap() },
        ..Rules::default()
    };
    let g = Goal { max_gap: Some(0.05), ..goal(30.0, false, 1) };
    let d = design(&g, &rules, &|_| {}, &Budget::unlimited()).unwrap();
    let board = Board::new(&d.spec, &rules).unwrap();
    let race = exact::race_on(&board, &rules, 2).unwrap();
    assert_eq!(race.win_probability, d.win_probability);
    assert!(d.goal_met() && d.spread <= 0.05, "{d:?}");
}

#[test]
fn the_same_seed_gives_the_same_board_and_another_seed_another() {
    let a = run(&goal(30.0, true, 7)).unwrap();
    assert_eq!(a, run(&goal(30.0, true, 7)).unwrap());
    assert_ne!(a.spec, run(&goal(30.0, true, 8)).unwrap().spec);
}

#[test]
fn asking_for_fairness_gives_a_smaller_spread_than_the_empty_board() {
    let d = run(&goal(33.0, true, 3)).unwrap();
    let empty = recheck(&BoardSpec::with_jumps(100, []), &Rules::default()).seats(2);
    let empty_spread = empty.win_probability[0] - empty.win_probability[1];
    assert!(d.met.length && d.spread < empty_spread, "{} vs {empty_spread}", d.spread);
    assert!((d.win_probability.iter().sum::<f64>() - 1.0).abs() < 1e-9);
}

#[test]
fn an_unreachable_goal_returns_the_closest_board_marked_as_missed() {
    let g =
        Goal { spread: Spread::Band { min: 0.0, max: 1.0 }, steps: 300, ..goal(30.0, false, 1) };
    let d = run(&g).unwrap();
    assert!(!d.met.spread && !d.goal_met() && d.complete, "{d:?}");
    assert!(d.std_dev_turns > 1.0);
}

#[test]
fn impossible_goals_are_refused_with_the_reason() {
    let short = run(&goal(0.5, false, 0)).unwrap_err();
    assert_eq!(short, DesignError::TooShort { target: 0.5 });
    assert!(short.to_string().contains("at least one turn"));
    assert!(matches!(run(&goal(501.0, false, 0)), Err(DesignError::TooLong { .. })));
    let alone = Goal { seats: 1, ..goal(30.0, true, 0) };
    assert!(run(&alone).unwrap_err().to_string().contains("two seats"));
    assert_eq!(run(&Goal { size: 5, ..goal(3.0, false, 0) }), Err(DesignError::Size(5)));
    let band = Goal { spread: Spread::Band { min: 9.0, max: 3.0 }, ..goal(30.0, false, 0) };
    assert_eq!(run(&band).unwrap_err().to_string(), "the standard deviation band 9 to 3 is empty");
    let many = Goal { effects: 30, ..goal(30.0, false, 0) };
    assert!(run(&many).unwrap_err().to_string().contains("30 effects do not fit on 100 cells"));
}

#[test]
fn a_spent_budget_returns_the_start_marked_incomplete() {
    let budget = Budget::unlimited().with_deadline(std::time::Instant::now());
    let d = design(&goal(30.0, true, 0), &Rules::default(), &|_| {}, &budget).unwrap();
    assert!(!d.complete && d.steps == 0 && d.tune_rounds == 0);
    let first = Search::new(&goal(30.0, true, 0), &Rules::default()).first_board();
    assert_eq!(d.spec, first.spec(100));
}

/// Rounds a game lasted: the first seat plays in every round, the race's last one included.
fn rounds_played(board: &Board, rules: &Rules, seats: usize, seed: u64) -> f64 {
    let names: Vec<snl_engine::Seat> = (0..seats)
        .map(|i| snl_engine::Seat::new(format!("s{i}"), snl_engine::SeatKind::Easy))
        .collect();
    let mut game = snl_engine::Game::new(board.clone(), *rules, names).unwrap();
    let mut dice = crate::simulate::DiceStream::new(seed, 6);
    game.play_to_end(&mut dice, &mut FirstOption, &mut ()).unwrap();
    f64::from(game.turns_of(0))
}

#[test]
fn a_board_designed_for_a_number_of_rounds_lasts_them_in_the_engines_games() {
    let race = Rules {
        mode: Mode::Race { rounds: std::num::NonZeroU32::new(15).unwrap() },
        ..Rules::default()
    };
    let cases = [(Rules::default(), 3, 20.0, 1), (race, 4, 12.0, 2)];
    for (rules, seats, target, seed) in cases {
        let g = Goal { length: Length::Rounds, seats, ..goal(target, false, seed) };
        let d = design(&g, &rules, &|_| {}, &Budget::unlimited()).unwrap();
        assert!(d.goal_met() && (d.expected_rounds - target).abs() <= 0.01, "{d:?}");
        // The exact analysis of the board alone says the same; one token lasts longer.
        let again = recheck(&d.spec, &rules);
        let rounds = search::expected_rounds(&again, seats, &rules);
        assert!((rounds - d.expected_rounds).abs() < 1e-9 && again.expected_turns > rounds);
        // 100,000 games the engine plays last as long on average, within the 99.9% interval.
        let board = Board::new(&d.spec, &rules).unwrap();
        let games = 100_000_u64;
        let played: Vec<f64> =
            (0..games).map(|i| rounds_played(&board, &rules, seats, (seed << 32) + i)).collect();
        let mean = played.iter().sum::<f64>() / games as f64;
        let var = played.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (games - 1) as f64;
        let half = crate::simulate::Z999 * (var / games as f64).sqrt();
        assert!((mean - target).abs() < half + 0.01, "{mean} ± {half} for {target}: {d:?}");
    }
}

#[test]
fn a_race_is_not_asked_to_last_longer_than_its_rounds() {
    let race = Rules {
        mode: Mode::Race { rounds: std::num::NonZeroU32::new(10).unwrap() },
        ..Rules::default()
    };
    let g = Goal { length: Length::Rounds, ..goal(12.0, false, 0) };
    let err = design(&g, &race, &|_| {}, &Budget::unlimited()).unwrap_err();
    assert_eq!(err.to_string(), "a race of 10 rounds lasts at most 10 rounds, not 12");
}
