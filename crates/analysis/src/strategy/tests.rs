//! Unit tests of the strategies on hand-made positions.

use snl_engine::{
    Board, BoardSpec, Choice, Decider, Decision, Dice, Game, MoveOption, Preset, Roll, Rules, Seat,
    SeatKind,
};

use super::*;
use crate::exact::{self, Situation};

fn option(steps: u32, lands: u32) -> MoveOption {
    MoveOption { steps, lands, ..MoveOption::default() }
}

fn at(position: u32) -> Situation {
    Situation { position, turn_start: position, streak: 0, ..Situation::default() }
}

#[test]
fn greedy_takes_the_highest_landing_and_breaks_ties_toward_the_smaller_move() {
    // A ladder beats a longer plain move; a snake loses to staying put.
    assert_eq!(greedy_choice(&[option(2, 12), option(5, 30)]), 1);
    assert_eq!(greedy_choice(&[option(4, 2), option(0, 19)]), 1);
    assert_eq!(greedy_choice(&[option(3, 22), option(0, 19)]), 0);
    // Both dice blocked on the same cell: the smaller die.
    assert_eq!(greedy_choice(&[option(5, 97), option(3, 97)]), 1);
    assert_eq!(greedy_choice(&[option(3, 97), option(5, 97)]), 0);
    assert_eq!(Greedy.choose(at(19), &[option(4, 2), option(0, 19)]), 1);
}

#[test]
fn strategies_parse_and_name_themselves() {
    for s in Strategy::ALL {
        assert_eq!(s.as_str().parse::<Strategy>(), Ok(s));
    }
    assert_eq!(" Hard ".parse::<Strategy>(), Ok(Strategy::Hard));
    let err = "clever".parse::<Strategy>().unwrap_err();
    assert_eq!(err.to_string(), "unknown strategy 'clever': expected easy, greedy, hard or win");
    assert_eq!(Strategy::of_kind(SeatKind::Win), Some(Strategy::Win));
    assert_eq!(Strategy::of_kind(SeatKind::Human), None);
    assert_eq!(Strategy::of_kind(SeatKind::Greedy), Some(Strategy::Greedy));
}

#[test]
fn easy_weighs_every_option_alike_and_its_draws_follow_the_seed() {
    let mut weights = [0.0; 2];
    assert!(Easy { seed: 1 }.mix(at(0), &[option(1, 1), option(0, 0)], &mut weights));
    assert!(weights.iter().all(|w| (w - 0.5).abs() < 1e-15), "{weights:?}");
    let draws = |seed| (1..=400).map(|r| Easy { seed }.draw(r, 2)).collect::<Vec<_>>();
    assert_eq!(draws(5), draws(5));
    assert_ne!(draws(5), draws(6));
    let ones = draws(5).iter().filter(|&&d| d == 1).count();
    assert!((150..=250).contains(&ones), "{ones} of 400 draws took the second option");
}

/// A 20-cell board: ladder 5→15, snake 10→2.
fn small(choice: Choice) -> (Board, Rules) {
    let rules = Rules { choice, ..Rules::default() };
    (Board::new(&BoardSpec::with_jumps(20, [(5, 15), (10, 2)]), &rules).unwrap(), rules)
}

#[test]
fn every_strategy_decides_as_defined_in_a_real_game() {
    let (board, rules) = small(Choice::PickDie);
    let seats = vec![Seat::new("A", SeatKind::Greedy), Seat::new("B", SeatKind::Easy)];
    let game = Game::new(board.clone(), rules, seats).unwrap();
    // From 3, dice 2 and 4: 2 climbs the ladder at 5 to 15, 4 reaches 7.
    let roll = Roll::from_faces(&[4, 2]);
    let options = game.options(3, &roll);
    let ends: Vec<(u32, u32)> = options.iter().map(|o| (o.steps, o.lands)).collect();
    assert_eq!(ends, [(4, 7), (2, 15)]);
    assert_eq!(options[1].meets, snl_engine::Meets::Ladder);
    let decision = Decision { seat: 0, position: 3, roll, options, turn_start: 3, streak: 0 };
    assert_eq!(Greedy.decide(&game, &decision), 1);
    let hard = HardPolicy::new(&board, &rules).unwrap();
    assert_eq!(hard.choose_for(&decision), 1);
    // From 4, dice 6 and 1: 6 reaches 10 and the snake to 2; 1 climbs the ladder at 5.
    let options = game.options(4, &Roll::from_faces(&[6, 1]));
    assert_eq!(greedy_choice(&options), 1);
    assert_eq!(hard.choose(at(4), &options), 1);
}

#[test]
fn hard_stays_off_a_snake_that_greedy_would_also_avoid_and_values_only_fall() {
    let (board, rules) = small(Choice::MayPass);
    let hard = HardPolicy::new(&board, &rules).unwrap();
    // On 8 a 2 lands on the snake at 10: staying is better.
    assert_eq!(hard.choose(at(8), &[option(2, 2), option(0, 8)]), 1);
    assert!(hard.rounds() >= 1);
    assert!(hard.bellman_residual() < 1e-12, "{}", hard.bellman_residual());
    let first = exact::analyze(&board, &rules).unwrap();
    assert!(hard.expected_turns() < first.expected_turns);
}

#[test]
fn hard_under_no_choice_is_the_plain_game() {
    let rules = Rules::default();
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let hard = HardPolicy::new(&board, &rules).unwrap();
    let plain = exact::analyze(&board, &rules).unwrap();
    assert_eq!(hard.rounds(), 0);
    assert!((hard.expected_turns() - plain.expected_turns).abs() < 1e-9);
}

#[test]
fn hard_with_bonus_rolls_is_optimal_under_each_cap() {
    // may-pass with a 1d4 and bonus rolls: staying on a top face rolls again for free.
    for (cap, void) in [(None, false), (Some(1), false), (Some(3), false), (Some(2), true)] {
        let mut rules = Rules::named("bonus-six").unwrap();
        rules.choice = Choice::MayPass;
        rules.dice = Dice::new(1, 4).unwrap();
        if let Some(k) = cap {
            rules.max_bonus = k.to_string().parse().unwrap();
        }
        if void {
            rules.on_max = snl_engine::OnMax::Void;
        }
        let board =
            Board::new(&BoardSpec::with_jumps(30, [(3, 20), (12, 1), (27, 4)]), &rules).unwrap();
        let hard = HardPolicy::new(&board, &rules).unwrap();
        assert!(hard.bellman_residual() < 1e-11, "{rules}: {}", hard.bellman_residual());
        let exact = exact::analyze_with(&board, &rules, &hard, &exact::Options::default()).unwrap();
        assert!((exact.expected_turns - hard.expected_turns()).abs() < 1e-9 * exact.expected_turns);
        for other in [&Greedy as &dyn Policy, &Easy { seed: 0 }, &snl_engine::FirstOption] {
            let a = exact::analyze_with(&board, &rules, other, &exact::Options::default()).unwrap();
            assert!(hard.expected_turns() <= a.expected_turns + 1e-9, "{rules}");
        }
    }
}

#[test]
fn the_shield_a_turn_began_with_is_read_back_from_the_history() {
    // Strict sixes under pick-die, a shield on 6: a throw of two sixes moves Ann to 6 (one
    // option), where she gains a shield and rolls again. Her turn began without one, which is
    // what a void would give back; at her next turn she begins with it.
    use snl_engine::{CellSpec, Input, Pending, RuleSet};
    let rules = Rules { choice: Choice::PickDie, ..RuleSet::StrictSixes.rules() };
    let mut spec = BoardSpec::with_jumps(30, []);
    spec.cells = vec![CellSpec { at: 6, effect: "shield".into(), exits: Vec::new() }];
    let board = Board::new(&spec, &rules).unwrap();
    let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Bob", SeatKind::Human)];
    let mut game = Game::new(board, rules, seats).unwrap();
    let roll = |game: &mut Game, faces: &[u8]| {
        game.apply(Input::Roll { roll: Roll::from_faces(faces) }).unwrap();
    };
    roll(&mut game, &[6, 6]);
    assert!(matches!(game.pending(), Pending::Roll { seat: 0, again: true, .. }));
    assert!(game.has_shield(0));
    assert!(!effects::shield_at_turn_start(&game, 0));
    roll(&mut game, &[1, 1]); // to 7; the turn ends
    roll(&mut game, &[1, 1]); // Bob
    assert!(effects::shield_at_turn_start(&game, 0));
    assert!(!effects::shield_at_turn_start(&game, 1));
}

#[test]
fn a_chain_and_the_hard_policy_stop_once_their_budget_is_spent_and_not_before() {
    use std::sync::{Arc, atomic::AtomicBool};

    use crate::{Budget, exact::AnalysisError};
    let rules = Rules { choice: Choice::MayPass, ..Rules::default() };
    let plain = Board::new(&BoardSpec::with_jumps(60, [(3, 40), (55, 2)]), &rules).unwrap();
    let mut spec = BoardSpec::with_jumps(60, [(3, 40)]);
    spec.cells = vec![
        snl_engine::CellSpec { at: 20, effect: "wormhole".into(), exits: vec![5, 45] },
        snl_engine::CellSpec { at: 30, effect: "shield".into(), exits: Vec::new() },
    ];
    let effects = Board::new(&spec, &rules).unwrap();
    let past = Budget::unlimited().with_deadline(std::time::Instant::now());
    let cancelled = Budget::unlimited().with_cancel(Arc::new(AtomicBool::new(true)));
    for board in [&plain, &effects] {
        for spent in [&past, &cancelled] {
            // Stopped while building the chain: the first row already looks at the budget.
            let chain = exact::TurnChain::new_within(board, &rules, spent);
            assert_eq!(chain.unwrap_err(), AnalysisError::Stopped);
            let policy = HardPolicy::new_within(board, &rules, spent);
            assert_eq!(policy.unwrap_err(), AnalysisError::Stopped);
        }
        // A budget not spent changes nothing.
        let later = Budget::unlimited()
            .with_deadline(std::time::Instant::now() + std::time::Duration::from_hours(1));
        let within = HardPolicy::new_within(board, &rules, &later).unwrap();
        assert_eq!(within.values(), HardPolicy::new(board, &rules).unwrap().values());
        let chain = exact::TurnChain::new_within(board, &rules, &later).unwrap();
        assert_eq!(chain.transitions(), exact::TurnChain::new(board, &rules).transitions());
    }
}
