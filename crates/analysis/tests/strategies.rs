//! The strategies compared exactly: `hard` is never beaten, it is optimal (no decision can be
//! improved), and games played by the engine with it agree with its exact numbers.

use snl_analysis::{
    exact::{self, Analysis, Options, Policy, seat_outcomes},
    simulate::Z999,
    strategy::{Easy, Greedy, HardPolicy, Strategy},
    tournament::{Entrant, Tournament},
};
use snl_engine::{Board, Choice, FirstOption, Preset, RuleSet, Rules};

fn analysis(board: &Board, rules: &Rules, policy: &dyn Policy) -> Analysis {
    exact::analyze_with(board, rules, policy, &Options::default()).unwrap()
}

/// Every preset under both choice rules, with the standard rules and with strict sixes (bonus
/// rolls, a cap and on-max void, where a decision also weighs the rest of the turn).
fn cases() -> Vec<(Preset, Rules)> {
    let mut cases = Vec::new();
    for &preset in Preset::ALL {
        for choice in [Choice::MayPass, Choice::PickDie] {
            for set in [RuleSet::Standard, RuleSet::StrictSixes, RuleSet::BonusSix] {
                cases.push((preset, Rules { choice, ..set.rules() }));
            }
        }
    }
    cases
}

#[test]
fn hard_expects_no_more_turns_than_greedy_easy_or_the_first_option_on_every_preset() {
    for (preset, rules) in cases() {
        let board = Board::new(&preset.spec(), &rules).unwrap();
        let hard = HardPolicy::new(&board, &rules).unwrap();
        let exact_hard = analysis(&board, &rules, &hard);
        // The policy's own values and the analysis of the chain it makes are one number.
        let gap = (exact_hard.expected_turns - hard.expected_turns()).abs();
        assert!(gap <= 1e-9 * hard.expected_turns(), "{preset} {rules}: {gap:e}");
        for (name, other) in [
            ("greedy", &Greedy as &dyn Policy),
            ("easy", &Easy { seed: 0 }),
            ("first option", &FirstOption),
        ] {
            let a = analysis(&board, &rules, other);
            assert!(
                exact_hard.expected_turns <= a.expected_turns * (1.0 + 1e-12),
                "{preset} {rules}: hard {} > {name} {}",
                exact_hard.expected_turns,
                a.expected_turns
            );
        }
    }
}

#[test]
fn policy_iteration_ends_where_no_decision_can_be_improved() {
    for (preset, rules) in cases() {
        let board = Board::new(&preset.spec(), &rules).unwrap();
        let hard = HardPolicy::new(&board, &rules).unwrap();
        let residual = hard.bellman_residual();
        assert!(residual < 1e-9, "{preset} {rules}: Bellman residual {residual:e}");
        assert!((1..20).contains(&hard.rounds()), "{preset} {rules}: {} rounds", hard.rounds());
        // Every position's value is a real expectation: finite, and at least one turn.
        let values = &hard.values()[..board.size() as usize];
        assert!(values.iter().all(|v| v.is_finite() && *v >= 1.0), "{preset} {rules}");
    }
}

/// The expected turns of the three strategies on the two printed boards (the numbers quoted in
/// the closing note); run with `--nocapture` to see them.
#[test]
fn the_three_strategies_on_the_printed_boards() {
    println!("{:<15} {:<9} {:>12} {:>12} {:>12}", "board", "choice", "easy", "greedy", "hard");
    for preset in [Preset::Classic, Preset::MiltonBradley] {
        for choice in [Choice::MayPass, Choice::PickDie] {
            let rules = Rules { choice, ..Rules::default() };
            let board = Board::new(&preset.spec(), &rules).unwrap();
            let hard = HardPolicy::new(&board, &rules).unwrap();
            let turns: Vec<f64> = Strategy::ALL
                .iter()
                .map(|s| analysis(&board, &rules, s.policy(&hard)).expected_turns)
                .collect();
            println!(
                "{:<15} {:<9} {:>12.6} {:>12.6} {:>12.6}",
                preset.as_str(),
                choice.to_string(),
                turns[0],
                turns[1],
                turns[2]
            );
            assert!(turns[2] <= turns[1] && turns[2] <= turns[0]);
            // Choosing well beats throwing one die: hard under pick-die beats the plain 1d6 game.
            let plain = exact::analyze(&board, &Rules::default()).unwrap().expected_turns;
            if choice == Choice::PickDie {
                assert!(turns[2] < plain, "{preset}: {} vs {plain}", turns[2]);
            } else {
                assert!(turns[2] <= plain, "{preset}: {} vs {plain}", turns[2]);
            }
        }
    }
}

/// Games played by the engine with `hard` seats agree with the exact numbers within their 99.9%
/// intervals: each seat's chance to win, hard against greedy (seats rotated), and the length.
#[test]
fn engine_games_with_hard_agree_with_its_exact_numbers() {
    for (preset, rules) in [
        (Preset::Classic, Rules { choice: Choice::MayPass, ..Rules::default() }),
        (Preset::MiltonBradley, Rules { choice: Choice::PickDie, ..RuleSet::StrictSixes.rules() }),
    ] {
        let board = Board::new(&preset.spec(), &rules).unwrap();
        let hard = HardPolicy::new(&board, &rules).unwrap();
        let (a_hard, a_greedy) =
            (analysis(&board, &rules, &hard), analysis(&board, &rules, &Greedy));

        let players = vec![Entrant::new("H", Strategy::Hard), Entrant::new("G", Strategy::Greedy)];
        let t = Tournament::with_policy(&board, &rules, players, hard.clone()).unwrap();
        let standings = t.run(2024, 40_000);
        // Hard sits first in even games, second in odd ones.
        let first = seat_outcomes(&[&a_hard, &a_greedy], rules.finish).win_probability[0];
        let second = seat_outcomes(&[&a_greedy, &a_hard], rules.finish).win_probability[1];
        let p = f64::midpoint(first, second);
        let ci = standings.win_interval(0, Z999);
        assert!(ci.contains(p), "{preset} {rules}: exact {p}, simulated {ci:?}");
        assert!(p > 0.5, "{preset} {rules}: hard should beat greedy, {p}");

        let players = vec![Entrant::new("A", Strategy::Hard), Entrant::new("B", Strategy::Hard)];
        let t = Tournament::with_policy(&board, &rules, players, hard.clone()).unwrap();
        let standings = t.run(7, 40_000);
        let exact = seat_outcomes(&[&a_hard, &a_hard], rules.finish);
        let ci = standings.seat_win_interval(0, Z999);
        assert!(ci.contains(exact.win_probability[0]), "{preset} {rules}: {ci:?} {exact:?}");
        let ci = standings.mean_rolls_interval(Z999);
        assert!(ci.contains(exact.expected_game_rolls), "{preset} {rules}: {ci:?} {exact:?}");
    }
}

/// Hundreds of cells reached by backward moves: each round's evaluation goes through GMRES, and
/// on-max void keeps a table of the values within a turn per turn start.
#[test]
fn a_large_board_with_many_backward_moves_is_solved_as_exactly() {
    let rules = Rules { choice: Choice::PickDie, ..RuleSet::StrictSixes.rules() };
    let spec =
        snl_engine::RandomBoard { size: 2000, snakes: 100, ladders: 100, seed: 3 }.spec(&rules);
    let board = Board::new(&spec, &rules).unwrap();
    let greedy = analysis(&board, &rules, &Greedy);
    assert!(greedy.back_cells > 256, "{} back cells", greedy.back_cells);
    let hard = HardPolicy::new(&board, &rules).unwrap();
    assert!(hard.bellman_residual() < 1e-9, "{:e}", hard.bellman_residual());
    let exact_hard = analysis(&board, &rules, &hard);
    assert!(
        (exact_hard.expected_turns - hard.expected_turns()).abs() < 1e-9 * hard.expected_turns()
    );
    assert!(exact_hard.expected_turns < greedy.expected_turns);
}
