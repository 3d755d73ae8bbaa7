//! Unit tests of the board designer.

use super::*;

fn goal(target: f64, fair: bool, seed: u64) -> Goal {
    Goal { target_turns: target, fair, seed, ..Goal::default() }
}

fn run(goal: &Goal) -> Result<Design, DesignError> {
    design(goal, &Rules::default(), &|_| {}, &Budget::unlimited())
}

#[test]
fn a_designed_board_lasts_the_target_within_half_a_turn_and_is_valid() {
    for target in [12.0, 30.0, 60.0] {
        let d = run(&goal(target, false, 1)).unwrap();
        assert!(d.on_target && (d.expected_turns - target).abs() <= TOLERANCE, "{d:?}");
        let board = Board::new(&d.spec, &Rules::default()).unwrap();
        let again = exact::analyze(&board, &Rules::default()).unwrap();
        assert!((again.expected_turns - d.expected_turns).abs() < 1e-9);
    }
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
    let empty = exact::analyze(
        &Board::new(&BoardSpec::with_jumps(100, []), &Rules::default()).unwrap(),
        &Rules::default(),
    )
    .unwrap()
    .seats(2);
    let empty_spread = empty.win_probability[0] - empty.win_probability[1];
    assert!(d.on_target && d.spread < empty_spread, "{} vs {empty_spread}", d.spread);
    assert!((d.win_probability.iter().sum::<f64>() - 1.0).abs() < 1e-9);
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
}

#[test]
fn a_spent_budget_returns_the_start_marked_incomplete() {
    let budget = Budget::unlimited().with_deadline(std::time::Instant::now());
    let d = design(&goal(30.0, true, 0), &Rules::default(), &|_| {}, &budget).unwrap();
    assert!(!d.complete && d.steps == 0);
    let first = Search::new(&goal(30.0, true, 0), &Rules::default()).first_board();
    assert_eq!(d.spec, BoardSpec::with_jumps(100, first));
}
