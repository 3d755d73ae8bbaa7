//! The strategies compared exactly: `hard` is never beaten, it is optimal (no decision can be
//! improved), and games played by the engine with it agree with its exact numbers.

use rayon::prelude::*;
use snl_analysis::{
    exact::{self, Analysis, Options, Policy, Situation, seat_outcomes},
    simulate::{DiceStream, Z999, chunk_seed},
    strategy::{Easy, Greedy, HardPolicy, JointError, Opponent, Strategy, WinningPolicy},
    tournament::{Entrant, Tournament},
};
use snl_engine::{
    Board, BoardSpec, Choice, Decider, Decision, FirstOption, Game, MoveOption, Preset, RuleSet,
    Rules, Seat, SeatKind,
};

fn analysis(board: &Board, rules: &Rules, policy: &dyn Policy) -> Analysis {
    exact::analyze_with(board, rules, policy, &Options::default()).unwrap()
}

/// Every preset under both choice rules, with the standard rules and with strict sixes (bonus
/// rolls, a cap and on-max void, where a decision also weighs the rest of the turn).
fn cases() -> Vec<(Preset, Rules)> {
    let mut cases = Vec::new();
    for &preset in Preset::ALL {
        // Strategies do not plan with cell effects yet (support.rs, Work::Strategy), while the
        // exact chain now plays them: the two would answer different games.
        if !preset.spec().cells.is_empty() {
            continue;
        }
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
        snl_engine::RandomBoard { size: 2000, snakes: 100, ladders: 100, seed: 3, min_jump: 1 }
            .spec(&rules);
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

/// A 36-cell board where waiting matters (found by searching random boards for the largest
/// gain of playing to win over playing fast): ladders 2→26 and 7→30 near the start, a wall of
/// snakes from 20 to 25, and 35→31 before the end.
fn gamble() -> (Board, Rules) {
    let rules = Rules { choice: Choice::MayPass, ..Rules::default() };
    let jumps = [
        (35, 31),
        (25, 9),
        (20, 13),
        (22, 14),
        (23, 11),
        (24, 19),
        (10, 16),
        (2, 26),
        (7, 30),
        (34, 36),
    ];
    (Board::new(&BoardSpec::with_jumps(36, jumps), &rules).unwrap(), rules)
}

/// Seat `winner` plays to win, the other seat plays the fastest policy.
struct HeadToHead<'a> {
    winner: usize,
    to_win: &'a WinningPolicy,
    fastest: &'a HardPolicy,
}

impl Decider for HeadToHead<'_> {
    fn decide(&mut self, game: &Game, decision: &Decision) -> usize {
        if decision.seat == self.winner {
            let them = game.positions()[1 - decision.seat];
            self.to_win.choose_at(them, &decision.options)
        } else {
            self.fastest.choose_for(decision)
        }
    }
}

#[test]
fn playing_to_win_beats_the_fastest_policy_head_to_head() {
    let (board, rules) = gamble();
    let fastest = HardPolicy::new(&board, &rules).unwrap();
    let to_win = WinningPolicy::new(&board, &rules, Opponent::Plays(&fastest)).unwrap();
    let exact = f64::midpoint(to_win.win_probability(true), to_win.win_probability(false));
    assert!(exact > 0.515, "{exact}");
    // The engine plays it out: the winner moves first in even games, second in odd ones.
    let games: u64 = 40_000;
    let wins: u64 = (0..games / 1000)
        .into_par_iter()
        .map(|chunk| {
            let mut dice = DiceStream::new(chunk_seed(99, chunk), 6);
            let mut wins = 0;
            for i in 0..1000 {
                let winner = (i % 2) as usize;
                let seats = vec![Seat::new("A", SeatKind::Hard), Seat::new("B", SeatKind::Hard)];
                let mut game = Game::new(board.clone(), rules, seats).unwrap();
                let mut deciders = HeadToHead { winner, to_win: &to_win, fastest: &fastest };
                game.play_to_end(&mut dice, &mut deciders, &mut ()).unwrap();
                wins += u64::from(game.ranking()[0] == winner);
            }
            wins
        })
        .sum();
    let (p, n) = (wins as f64 / games as f64, games as f64);
    let half = Z999 * (p * (1.0 - p) / n).sqrt();
    assert!((p - exact).abs() < half, "simulated {p}, exact {exact}");
    assert!(p - half > 0.5, "simulated {p} ± {half} should beat an even chance");
}

#[test]
fn playing_to_win_weighs_where_the_other_token_stands() {
    let (board, rules) = gamble();
    let fastest = HardPolicy::new(&board, &rules).unwrap();
    let to_win = WinningPolicy::new(&board, &rules, Opponent::Plays(&fastest)).unwrap();
    // On the start with a 4: the fastest play waits for a 2 (the ladder to 26) whatever the
    // other token does. Playing to win, one waits too while the other token is on 7 to 19, but
    // moves to 4 when it is still near the start or already past the snakes.
    let options = [
        MoveOption { steps: 4, lands: 4, top_face: false },
        MoveOption { steps: 0, lands: 0, top_face: false },
    ];
    let at = Situation { position: 0, turn_start: 0, streak: 0 };
    assert_eq!(fastest.choose(at, &options), 1);
    let chosen: Vec<usize> = (0..36).map(|them| to_win.choose_at(them, &options)).collect();
    assert_eq!(chosen[..7], [0; 7]);
    assert_eq!(chosen[7..20], [1; 13]);
    assert_eq!(chosen[20..], [0; 16]);
}

#[test]
fn the_joint_game_agrees_with_independent_tokens_when_no_one_chooses() {
    // Without a choice both tokens just roll: the joint answer is the seats' exact outcome.
    for preset in [Preset::Classic, Preset::MiltonBradley, Preset::Kids] {
        let rules = Rules::default();
        let board = Board::new(&preset.spec(), &rules).unwrap();
        let joint = WinningPolicy::new(&board, &rules, Opponent::Plays(&FirstOption)).unwrap();
        let a = exact::analyze(&board, &rules).unwrap();
        let seats = a.seats(2);
        for (first, seat) in [(true, 0), (false, 1)] {
            let gap = (joint.win_probability(first) - seats.win_probability[seat]).abs();
            assert!(gap < 1e-12, "{preset}: {gap:e}");
        }
    }
}

#[test]
fn two_players_playing_to_win_share_the_game_between_them() {
    let (board, rules) = gamble();
    let zero_sum = WinningPolicy::new(&board, &rules, Opponent::ToWin).unwrap();
    // The mover's chance and the waiting player's chance of the same game add up to 1.
    let total = zero_sum.win_probability(true) + zero_sum.win_probability(false);
    assert!((total - 1.0).abs() < 1e-12, "{total}");
    let fastest = HardPolicy::new(&board, &rules).unwrap();
    let against = WinningPolicy::new(&board, &rules, Opponent::Plays(&fastest)).unwrap();
    // Against a player who also plays to win, one wins less than against the fastest one.
    assert!(zero_sum.win_probability(true) < against.win_probability(true));
    let bonus = Rules { choice: Choice::MayPass, ..RuleSet::BonusSix.rules() };
    let err = WinningPolicy::new(&board, &bonus, Opponent::ToWin).unwrap_err();
    assert_eq!(err, JointError::BonusRolls);
}
