//! The strategies compared exactly: `hard` is never beaten, it is optimal (no decision can be
//! improved), and games played by the engine with it agree with its exact numbers.

use rayon::prelude::*;
use snl_analysis::{
    exact::{self, Analysis, Options, Policy, Situation, seat_outcomes},
    simulate::{DiceStream, Z999, chunk_seed},
    strategy::{Easy, Greedy, GreedyOn, HardPolicy, JointError, Opponent, Strategy, WinningPolicy},
    tournament::{Entrant, Tournament},
};
use snl_engine::{
    Board, BoardSpec, Choice, Decider, Decision, FirstOption, Game, MoveOption, Preset, RuleSet,
    Rules, Seat, SeatKind,
};

fn analysis(board: &Board, rules: &Rules, policy: &dyn Policy) -> Analysis {
    exact::analyze_with(board, rules, policy, &Options::default()).unwrap()
}

/// Every preset, `party` with its cell effects too, under both choice rules, with the standard
/// rules, with unlimited bonus rolls and with strict sixes (bonus rolls, a cap and on-max void,
/// where a decision also weighs the rest of the turn). On `party` the exact chain follows `hard`
/// over the extended state (cell, shield, skip pending), as games play it.
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
            ("greedy on the board", &GreedyOn::new(&board, &rules)),
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
        if board.has_effects() {
            // Value iteration over the extended state: it settled before running out of sweeps.
            assert!((1..10_000).contains(&hard.sweeps()), "{preset} {rules}: {}", hard.sweeps());
        } else {
            assert!((1..20).contains(&hard.rounds()), "{preset} {rules}: {}", hard.rounds());
        }
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
            let turns: Vec<f64> = Strategy::SOLO
                .iter()
                .map(|s| analysis(&board, &rules, &*s.policy(&hard)).expected_turns)
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
        MoveOption { steps: 4, lands: 4, ..MoveOption::default() },
        MoveOption { steps: 0, lands: 0, ..MoveOption::default() },
    ];
    let at = Situation { position: 0, turn_start: 0, streak: 0, ..Situation::default() };
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

// ---------------------------------------------------------------------------------------------
// Cell effects (SPEC §3b): `hard` over the extended state, `greedy`'s worth of a shield and an
// extra roll, and tournaments on a board with effects.

mod with_effects {
    use snl_analysis::{
        exact::{FnPolicy, Policy, Situation, seat_outcomes},
        simulate::Z999,
        strategy::{GreedyOn, HardPolicy, Strategy, greedy_choice, greedy_choice_in},
        tournament::{Entrant, Tournament},
    };
    use snl_engine::{
        Board, BoardSpec, CellSpec, Choice, Dice, Game, Input, MoveOption, Pending, Preset,
        RandomBoard, Roll, RuleSet, Rules, Seat, SeatKind,
    };

    fn cell(at: u32, effect: &str) -> CellSpec {
        CellSpec { at, effect: effect.into(), exits: Vec::new() }
    }

    fn board(size: u32, jumps: &[(u32, u32)], cells: Vec<CellSpec>, rules: &Rules) -> Board {
        let mut spec = BoardSpec::with_jumps(size, jumps.iter().copied());
        spec.cells = cells;
        Board::new(&spec, rules).unwrap()
    }

    fn one_d2() -> Rules {
        Rules { dice: Dice::new(1, 2).unwrap(), ..Rules::default() }
    }

    #[test]
    fn expected_turns_with_an_extra_or_a_skip_cell_match_the_hand_derivation() {
        // 4 cells, one die of 2 faces, overshoot stay. V(p): expected turns from a turn begun
        // on p. V(3) = 1 + ½·0 + ½·V(3) = 2 (a 2 is blocked); V(2) = 1 + ½·V(3) + ½·0 = 2.
        // Extra on 2: resting there gives one more roll, worth W = ½·V(3) + ½·0 = 1 more turns.
        // V(1) = 1 + ½·W + ½·V(3) = 2.5; V(0) = 1 + ½·V(1) + ½·W = 2.75.
        let rules = one_d2();
        let extra =
            HardPolicy::new(&board(4, &[], vec![cell(2, "extra")], &rules), &rules).unwrap();
        assert!((extra.expected_turns() - 2.75).abs() < 1e-12, "{}", extra.expected_turns());
        assert!((extra.values()[1] - 2.5).abs() < 1e-12);
        // Skip on 2 instead: resting there costs the skipped turn, 1 + V(2) = 3 after the turn.
        // V(1) = 1 + ½·3 + ½·V(3) = 3.5; V(0) = 1 + ½·V(1) + ½·3 = 4.25.
        let skip = HardPolicy::new(&board(4, &[], vec![cell(2, "skip")], &rules), &rules).unwrap();
        assert!((skip.expected_turns() - 4.25).abs() < 1e-12, "{}", skip.expected_turns());
        // A wormhole on 1 to 2 or 4, 5 cells: V(4) = 2, V(3) = 1 + ½·V(4) = 2, V(2) = 1 +
        // ½·V(3) + ½·V(4) = 3; from 0 a 1 enters the wormhole, worth ½·V(2) + ½·V(4) = 2.5,
        // and a 2 lands on 2: V(0) = 1 + ½·2.5 + ½·3 = 3.75.
        let mut hole = BoardSpec::with_jumps(5, []);
        hole.cells = vec![CellSpec { at: 1, effect: "wormhole".into(), exits: vec![2, 4] }];
        let hole = Board::new(&hole, &rules).unwrap();
        let hard = HardPolicy::new(&hole, &rules).unwrap();
        assert!((hard.expected_turns() - 3.75).abs() < 1e-12, "{}", hard.expected_turns());
        // Shield on 1 and a snake 3 → 1, 5 cells: with a shield held on 3 the snake is stopped.
        // Held or not, from 4: V(4) = 1 + ½·0 + ½·V(4) = 2. With a shield, from 3: a 1 goes to
        // 4, a 2 finishes: V(3, shield) = 1 + ½·2 = 2. So the shield's worth shows on 2: a 1
        // lands on the snake's head, stopped with a shield (then V(3, shield) = 2).
        let shield_board = board(5, &[(3, 1)], vec![cell(1, "shield")], &rules);
        let shield = HardPolicy::new(&shield_board, &rules).unwrap();
        assert!((shield.value_with_shield(3, true) - 2.0).abs() < 1e-12);
        assert!(shield.value_with_shield(2, true) < shield.value_with_shield(2, false));
    }

    /// Party and small effect boards under both choice rules, with and without bonus rolls,
    /// and under strict sixes (on-max void, where a void undoes shield and skip).
    fn effect_cases() -> Vec<(Board, Rules)> {
        let mut cases = Vec::new();
        for choice in [Choice::MayPass, Choice::PickDie] {
            for set in [RuleSet::Standard, RuleSet::BonusSix, RuleSet::StrictSixes] {
                let rules = Rules { choice, ..set.rules() };
                cases.push((Board::new(&Preset::Party.spec(), &rules).unwrap(), rules));
                let cells = vec![cell(3, "shield"), cell(9, "extra"), cell(14, "skip")];
                let small = board(20, &[(5, 2), (12, 4), (7, 16), (17, 8)], cells, &rules);
                cases.push((small, rules));
            }
        }
        cases
    }

    #[test]
    fn hard_is_a_fixed_point_of_the_bellman_equation_over_cell_shield_and_skip() {
        for (board, rules) in effect_cases() {
            let hard = HardPolicy::new(&board, &rules).unwrap();
            let residual = hard.bellman_residual();
            assert!(residual <= 1e-9, "{rules}: Bellman residual {residual:e}");
            // It settled, rather than ran out of sweeps (run with --nocapture to see them).
            assert!((1..10_000).contains(&hard.sweeps()), "{rules}: {} sweeps", hard.sweeps());
            eprintln!(
                "{} cells, {rules}: {:.6} turns, {} sweeps, residual {residual:.1e}",
                board.size(),
                hard.expected_turns(),
                hard.sweeps()
            );
            let values = &hard.values()[..board.size() as usize];
            assert!(values.iter().all(|v| v.is_finite() && *v >= 1.0), "{rules}");
            // A shield never hurts: it may be left unused.
            for b in 0..board.size() {
                let (with, without) =
                    (hard.value_with_shield(b, true), hard.value_with_shield(b, false));
                assert!(with <= without * (1.0 + 1e-12), "{rules} at {b}: {with} > {without}");
            }
        }
    }

    #[test]
    fn with_a_shield_but_no_snake_hard_agrees_with_policy_iteration_on_the_exact_chain() {
        // A shield does nothing without snakes, so the value iteration over (cell, shield,
        // skip) must find what policy iteration on the exact chain (another algorithm, another
        // code) finds for the same board without the shield cell: under each choice rule, with
        // bonus rolls, a cap with pass, and on-max void.
        let classic = Preset::Classic.spec();
        let ladders: Vec<(u32, u32)> = classic.ladders.iter().map(|l| (l.foot, l.top)).collect();
        let free = (2..100).find(|c| ladders.iter().all(|&(f, t)| f != *c && t != *c)).unwrap();
        for choice in [Choice::MayPass, Choice::PickDie] {
            for set in
                [RuleSet::Standard, RuleSet::BonusSix, RuleSet::ThreeSixes, RuleSet::StrictSixes]
            {
                let rules = Rules { choice, ..set.rules() };
                let plain =
                    HardPolicy::new(&board(100, &ladders, Vec::new(), &rules), &rules).unwrap();
                let shielded = HardPolicy::new(
                    &board(100, &ladders, vec![cell(free, "shield")], &rules),
                    &rules,
                )
                .unwrap();
                for (b, (&a, &e)) in plain.values().iter().zip(shielded.values()).enumerate() {
                    assert!((a - e).abs() <= 1e-9 * a.max(1.0), "{rules} at {b}: {a} vs {e}");
                }
            }
        }
    }

    /// A random board of 60 cells with twelve effects of every kind.
    fn random_with_effects(seed: u64, rules: &Rules) -> Board {
        let random = RandomBoard { size: 60, snakes: 6, ladders: 5, seed, min_jump: 1 };
        Board::new(&random.spec_with_effects(rules, 12), rules).unwrap()
    }

    /// `party` and random boards with effects under each choice rule, plain and under strict
    /// sixes (a void gives back the shield the turn began with).
    fn agreement_cases() -> Vec<(String, Board, Rules)> {
        let mut cases = Vec::new();
        for (i, choice) in [Choice::MayPass, Choice::PickDie].into_iter().enumerate() {
            for (j, set) in [RuleSet::Standard, RuleSet::StrictSixes].into_iter().enumerate() {
                let rules = Rules { choice, ..set.rules() };
                let party = Board::new(&Preset::Party.spec(), &rules).unwrap();
                cases.push(("party".to_owned(), party, rules));
                let seed = (2 * i + j) as u64;
                cases.push((format!("random {seed}"), random_with_effects(seed, &rules), rules));
            }
        }
        cases
    }

    /// The exact chain follows `hard` over the extended state: its expected turns are the
    /// policy's own value from the start, and games the engine plays with `hard` seats (which
    /// read each seat's shield and skip from the game) and `greedy` seats agree with the exact
    /// numbers within their 99.9% intervals — each seat's chance to win, hard against greedy
    /// with the seats rotated, and the length of a game between two hard seats.
    #[test]
    fn engine_games_with_hard_agree_with_the_exact_chain_on_boards_with_effects() {
        for (name, board, rules) in agreement_cases() {
            let what = format!("{name}, {rules}");
            let hard = HardPolicy::new(&board, &rules).unwrap();
            let a_hard = super::analysis(&board, &rules, &hard);
            let gap = (a_hard.expected_turns - hard.expected_turns()).abs();
            assert!(gap <= 1e-9 * hard.expected_turns(), "{what}: {gap:e}");
            let a_greedy = super::analysis(&board, &rules, &GreedyOn::new(&board, &rules));
            assert!(a_hard.expected_turns < a_greedy.expected_turns, "{what}");

            let players =
                vec![Entrant::new("H", Strategy::Hard), Entrant::new("G", Strategy::Greedy)];
            let t = Tournament::with_policy(&board, &rules, players, hard.clone()).unwrap();
            let standings = t.run(2026, 20_000);
            // Hard sits first in even games, second in odd ones.
            let first = seat_outcomes(&[&a_hard, &a_greedy], rules.finish).win_probability[0];
            let second = seat_outcomes(&[&a_greedy, &a_hard], rules.finish).win_probability[1];
            let p = f64::midpoint(first, second);
            let ci = standings.win_interval(0, Z999);
            assert!(ci.contains(p), "{what}: hard against greedy, exact {p}, simulated {ci:?}");

            let players =
                vec![Entrant::new("A", Strategy::Hard), Entrant::new("B", Strategy::Hard)];
            let t = Tournament::with_policy(&board, &rules, players, hard.clone()).unwrap();
            let standings = t.run(11, 20_000);
            let exact = seat_outcomes(&[&a_hard, &a_hard], rules.finish);
            let ci = standings.seat_win_interval(0, Z999);
            assert!(ci.contains(exact.win_probability[0]), "{what}: {ci:?} {exact:?}");
            let ci = standings.mean_rolls_interval(Z999);
            assert!(ci.contains(exact.expected_game_rolls), "{what}: {ci:?} {exact:?}");
        }
    }

    #[test]
    fn the_exact_chain_follows_hard_holding_a_shield() {
        // The board of `hard_plays_knowing_the_shield_its_seat_holds`: on 2 with 6 and 5, hard
        // takes the snake's head on 8 when it holds the shield, 7 when it does not. The chain
        // tells the policy the shield its state holds, so following hard it gets hard's value;
        // a policy told no shield (as the chain once did) makes a worse game.
        let rules = Rules { choice: Choice::PickDie, ..Rules::default() };
        let b = board(20, &[(8, 1)], vec![cell(2, "shield")], &rules);
        let hard = HardPolicy::new(&b, &rules).unwrap();
        let followed = super::analysis(&b, &rules, &hard);
        let gap = (followed.expected_turns - hard.expected_turns()).abs();
        assert!(gap < 1e-12 * hard.expected_turns(), "{gap:e}");
        let blind = FnPolicy(|at: Situation, options: &[MoveOption]| {
            hard.choose(Situation { shield: false, ..at }, options)
        });
        let unaware = super::analysis(&b, &rules, &blind);
        assert!(
            unaware.expected_turns > followed.expected_turns + 1e-6,
            "{} against {}",
            unaware.expected_turns,
            followed.expected_turns
        );
    }

    #[test]
    fn hard_has_no_choice_where_the_game_offers_none() {
        // One die of 2 faces under may-pass, a skip on 3 and a snake 5 → 3. On 3 a 2 lands on
        // the snake and slides back to 3, meeting the skip again; declining would stay on 3
        // without it, but the game offers one option there (both end on 3), so hard's values
        // are those of moving: the chain, which plays the game's options, gets the same.
        let rules = Rules { choice: Choice::MayPass, ..one_d2() };
        let b = board(8, &[(5, 3)], vec![cell(3, "skip")], &rules);
        let hard = HardPolicy::new(&b, &rules).unwrap();
        let followed = super::analysis(&b, &rules, &hard);
        let gap = (followed.expected_turns - hard.expected_turns()).abs();
        assert!(gap < 1e-12 * hard.expected_turns(), "{gap:e}");
        // From 3 (no skip pending): a 1 goes to 4; a 2 costs the skipped turn and comes back.
        // V(3) = 1 + ½·V(4) + ½·(1 + V(3)), so V(3) = 3 + V(4).
        let (v3, v4) = (hard.value_with_shield(3, false), hard.value_with_shield(4, false));
        assert!((v3 - 3.0 - v4).abs() < 1e-12, "V(3) = {v3}, V(4) = {v4}");
    }

    #[test]
    fn hard_beats_easy_and_greedy_in_tournaments_on_party() {
        for choice in [Choice::MayPass, Choice::PickDie] {
            let rules = Rules { choice, ..Rules::default() };
            let party = Board::new(&Preset::Party.spec(), &rules).unwrap();
            let players =
                vec![Entrant::new("Eve", Strategy::Easy), Entrant::new("Hal", Strategy::Hard)];
            let tournament = Tournament::new(&party, &rules, players).unwrap();
            let standings = tournament.run(11, 4000);
            // Wormhole draws come from the seeded dice: the same seed, the same games.
            assert_eq!(standings, tournament.run(11, 4000));
            assert_ne!(standings, tournament.run(12, 4000));
            assert!(standings.wins()[1] > standings.wins()[0], "{choice}: {:?}", standings.wins());
        }
    }

    /// A game under pick-die where Ann has rolled `faces` from the start.
    fn decision_after(board: &Board, rules: &Rules, faces: &[u8]) -> (Game, snl_engine::Decision) {
        let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Bob", SeatKind::Human)];
        let mut game = Game::new(board.clone(), *rules, seats).unwrap();
        game.apply(Input::Roll { roll: Roll::from_faces(faces) }).unwrap();
        let Pending::Choice(decision) = game.pending() else { panic!("no choice") };
        (game, decision)
    }

    #[test]
    fn greedy_counts_a_shield_and_an_extra_roll_as_a_mean_roll_and_avoids_a_skip() {
        let rules = Rules { choice: Choice::PickDie, ..Rules::default() };
        // From 0 with dice 5 and 6: an extra cell on 5 scores 5 + 3.5 against 6, a shield on 5
        // the same; a skip on 6 scores 6 − 3.5 against 5. Plain greedy would take 6 each time.
        for (cells, want) in [
            (vec![cell(5, "extra")], 5),
            (vec![cell(5, "shield")], 5),
            (vec![cell(6, "skip")], 5),
            (vec![cell(20, "extra")], 6),
        ] {
            let b = board(30, &[], cells.clone(), &rules);
            let (game, decision) = decision_after(&b, &rules, &[5, 6]);
            let took = decision.options[greedy_choice_in(&game, &decision)].steps;
            assert_eq!(took, want, "{cells:?}");
            assert_eq!(decision.options[greedy_choice(&decision.options)].steps, 6);
        }
        // An extra cell is worth 3.5 cells, not more: 2 (extra) scores 5.5 against 6.
        let b = board(30, &[], vec![cell(2, "extra")], &rules);
        let (game, decision) = decision_after(&b, &rules, &[2, 6]);
        assert_eq!(decision.options[greedy_choice_in(&game, &decision)].steps, 6);
    }

    #[test]
    fn hard_plays_knowing_the_shield_its_seat_holds() {
        // Pick-die, 20 cells, a shield on 2 and a snake 8 → 1. Ann takes the 2 (the shield),
        // Bob plays, then Ann on 2 throws 6 and 5: to 8, where the shield stops the snake, or 7.
        // Holding the shield, 8 is better; without one (what `choose_for` assumes), 7.
        let rules = Rules { choice: Choice::PickDie, ..Rules::default() };
        let b = board(20, &[(8, 1)], vec![cell(2, "shield")], &rules);
        let hard = HardPolicy::new(&b, &rules).unwrap();
        let (mut game, decision) = decision_after(&b, &rules, &[2, 1]);
        let two = decision.options.iter().position(|o| o.steps == 2).unwrap();
        game.apply(Input::Choose { option: two }).unwrap();
        assert!(game.has_shield(0));
        game.apply(Input::Roll { roll: Roll::from_faces(&[1, 1]) }).unwrap(); // Bob: one option
        game.apply(Input::Roll { roll: Roll::from_faces(&[6, 5]) }).unwrap();
        let Pending::Choice(decision) = game.pending() else { panic!("no choice") };
        assert_eq!(decision.options[hard.choose_in(&game, &decision)].steps, 6);
        assert_eq!(decision.options[hard.choose_for(&decision)].steps, 5);
    }
}
