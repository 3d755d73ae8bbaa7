//! Playing to win with 2, 3 and 4 seats (`PlayToWin`): it agrees with the two-seat solver, with
//! independent tokens when every seat plays a fixed strategy, with games the engine plays, and
//! it refuses what it cannot solve in one sentence.

use rayon::prelude::*;
use snl_analysis::{
    exact::{self, Analysis, Options, Policy, seat_outcomes},
    simulate::{DiceStream, Z999, chunk_seed},
    strategy::{HardPolicy, Opponent, Play, PlayToWin, WinDecider, WinError, WinningPolicy},
};
use snl_engine::{
    Board, BoardSpec, CellSpec, Choice, Finish, Game, Preset, RuleSet, Rules, Seat, SeatKind,
};

fn analysis(board: &Board, rules: &Rules, policy: &dyn Policy) -> Analysis {
    exact::analyze_with(board, rules, policy, &Options::default()).unwrap()
}

/// 16 cells with snakes near the end, so that risk near the finish matters.
fn pit() -> BoardSpec {
    BoardSpec::with_jumps(16, [(2, 7), (5, 11), (14, 3), (13, 6), (15, 9)])
}

/// [`pit`] with `effects` of `(cell, effect)`; a wormhole leads to 1 or 12.
fn with(effects: &[(u32, &str)]) -> BoardSpec {
    let mut spec = pit();
    for &(at, effect) in effects {
        let exits = if effect == "wormhole" { vec![1, 12] } else { Vec::new() };
        spec.cells.push(CellSpec { at, effect: effect.to_owned(), exits });
    }
    spec
}

/// [`pit`] with one of each cell effect.
fn pit_with_effects() -> BoardSpec {
    with(&[(4, "skip"), (8, "extra"), (10, "shield"), (9, "wormhole")])
}

/// 10 cells, small enough for four seats, with the effects that add nothing to a token's
/// state (an extra roll, a wormhole to 1 or 8).
fn short() -> BoardSpec {
    let mut spec = BoardSpec::with_jumps(10, [(2, 6), (9, 3), (7, 4)]);
    spec.cells.push(CellSpec { at: 5, effect: "extra".to_owned(), exits: Vec::new() });
    spec.cells.push(CellSpec { at: 8, effect: "wormhole".to_owned(), exits: vec![1, 6] });
    spec
}

#[test]
fn two_seats_playing_to_win_is_the_two_seat_solvers_zero_sum_game() {
    for choice in [Choice::MayPass, Choice::PickDie] {
        let rules = Rules { choice, ..Rules::default() };
        let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        let win = PlayToWin::new(&board, &rules, &[Play::ToWin; 2]).unwrap();
        assert!(win.settled(), "{choice:?}: {} after {} sweeps", win.last_change(), win.sweeps());
        let zero_sum = WinningPolicy::new(&board, &rules, Opponent::ToWin).unwrap();
        let p = win.win_probability();
        assert!((p[0] - zero_sum.win_probability(true)).abs() < 1e-10, "{choice:?}: {p:?}");
        assert!((p[1] - zero_sum.win_probability(false)).abs() < 1e-10, "{choice:?}: {p:?}");
    }
}

#[test]
fn a_seat_playing_to_win_against_hard_wins_as_the_two_seat_solver_says() {
    let rules = Rules { choice: Choice::MayPass, ..Rules::default() };
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let hard = HardPolicy::new(&board, &rules).unwrap();
    let against = WinningPolicy::new(&board, &rules, Opponent::Plays(&hard)).unwrap();
    let first = PlayToWin::new(&board, &rules, &[Play::ToWin, Play::Fixed(&hard)]).unwrap();
    let second = PlayToWin::new(&board, &rules, &[Play::Fixed(&hard), Play::ToWin]).unwrap();
    assert!((first.win_probability()[0] - against.win_probability(true)).abs() < 1e-10);
    assert!((second.win_probability()[1] - against.win_probability(false)).abs() < 1e-10);
}

/// The boards of these tests, with their seats, and whether pick-die is tried on them (the
/// joint chain of 3 tokens each with a shield and a skip is 262,144 states a mover).
fn cases() -> [(BoardSpec, usize, bool); 3] {
    [(pit(), 3, true), (short(), 4, true), (pit_with_effects(), 3, false)]
}

#[test]
fn seats_playing_fixed_strategies_win_as_independent_tokens_do_with_and_without_effects() {
    for (spec, seats, pick) in cases() {
        for choice in [Choice::None, Choice::MayPass, Choice::PickDie] {
            if choice == Choice::PickDie && !pick {
                continue;
            }
            let rules = Rules { choice, ..Rules::default() };
            let board = Board::new(&spec, &rules).unwrap();
            let hard = HardPolicy::new(&board, &rules).unwrap();
            let a = analysis(&board, &rules, &hard);
            let plays = vec![Play::Fixed(&hard); seats];
            let joint = PlayToWin::new(&board, &rules, &plays).unwrap();
            assert!(joint.settled());
            let tokens = vec![&a; seats];
            let exact = seat_outcomes(&tokens, Finish::First).win_probability;
            for (s, (j, e)) in joint.win_probability().iter().zip(&exact).enumerate() {
                assert!((j - e).abs() < 1e-10, "{choice:?} {seats} seats, seat {s}: {j} {e}");
            }
        }
    }
}

#[test]
fn three_and_four_seats_playing_to_win_settle_and_share_the_whole_game() {
    for (spec, seats, pick) in cases() {
        for choice in [Choice::MayPass, Choice::PickDie] {
            if choice == Choice::PickDie && !pick {
                continue;
            }
            let rules = Rules { choice, ..Rules::default() };
            let board = Board::new(&spec, &rules).unwrap();
            let hard = HardPolicy::new(&board, &rules).unwrap();
            let win = PlayToWin::new(&board, &rules, &vec![Play::ToWin; seats]).unwrap();
            assert!(win.settled(), "{choice:?} {seats}: {}", win.last_change());
            let p = win.win_probability();
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{p:?}");
            // One seat playing to win against hard players wins at least as often as hard.
            let mut plays = vec![Play::Fixed(&hard); seats];
            plays[1] = Play::ToWin;
            let mixed = PlayToWin::new(&board, &rules, &plays).unwrap();
            let all_hard = PlayToWin::new(&board, &rules, &vec![Play::Fixed(&hard); seats])
                .unwrap()
                .win_probability();
            assert!(mixed.win_probability()[1] >= all_hard[1] - 1e-12);
        }
    }
}

/// Three seats playing to win: ten million games the engine plays with the `win` decider end as
/// the exact chances say, within the simulation's 99.9% interval for each seat (3.29 standard
/// errors: ±0.00049 for a chance near a third).
#[test]
fn three_seats_playing_to_win_win_in_games_as_the_exact_chances_say() {
    let rules = Rules { choice: Choice::MayPass, ..Rules::default() };
    let board = Board::new(&pit_with_effects(), &rules).unwrap();
    let hard = HardPolicy::new(&board, &rules).unwrap();
    let win = PlayToWin::new(&board, &rules, &[Play::ToWin; 3]).unwrap();
    let exact = win.win_probability();
    assert!(win.settled(), "{} after {} sweeps", win.last_change(), win.sweeps());
    let games: u64 = 10_000_000;
    let wins = (0..games / 1000)
        .into_par_iter()
        .map(|chunk| {
            let mut dice = DiceStream::new(chunk_seed(32, chunk), 6);
            let mut wins = [0_u64; 3];
            for _ in 0..1000 {
                let seats: Vec<Seat> =
                    ["A", "B", "C"].iter().map(|n| Seat::new(*n, SeatKind::Win)).collect();
                let mut game = Game::new(board.clone(), rules, seats).unwrap();
                let mut decider = WinDecider { win: &win, hard: &hard };
                game.play_to_end(&mut dice, &mut decider, &mut ()).unwrap();
                wins[game.ranking()[0]] += 1;
            }
            wins
        })
        .reduce(|| [0; 3], |a, b| [a[0] + b[0], a[1] + b[1], a[2] + b[2]]);
    for seat in 0..3 {
        let p = wins[seat] as f64 / games as f64;
        let half = Z999 * (exact[seat] * (1.0 - exact[seat]) / games as f64).sqrt();
        assert!((p - exact[seat]).abs() < half, "seat {seat}: simulated {p}, exact {exact:?}");
    }
}

#[test]
fn playing_to_win_refuses_bonus_rolls_one_seat_and_tables_past_its_limits() {
    let bonus = Rules { choice: Choice::MayPass, ..RuleSet::BonusSix.rules() };
    let board = Board::new(&pit(), &bonus).unwrap();
    let err = PlayToWin::new(&board, &bonus, &[Play::ToWin; 3]).unwrap_err();
    assert_eq!(err, WinError::BonusRolls);
    let rules = Rules { choice: Choice::MayPass, ..Rules::default() };
    let board = Board::new(&pit(), &rules).unwrap();
    assert_eq!(PlayToWin::new(&board, &rules, &[Play::ToWin]).unwrap_err(), WinError::Seats(1));
    let big = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    PlayToWin::check(&big, &rules, &[Play::ToWin; 3]).unwrap();
    let err = PlayToWin::check(&big, &rules, &[Play::ToWin; 4]).unwrap_err();
    assert!(matches!(err, WinError::TooLarge { seats: 4, cells: 100, .. }), "{err}");
    let text = err.to_string();
    assert!(text.starts_with("playing to win with 4 seats on 100 cells needs"), "{text}");
    // 4 seats are solved up to 29 cells (4 seats on 32 cells ran over seven minutes).
    let cells = |n| Board::new(&BoardSpec::with_jumps(n, [(3, 10), (n - 2, 6)]), &rules).unwrap();
    PlayToWin::check(&cells(29), &rules, &[Play::ToWin; 4]).unwrap();
    let err = PlayToWin::check(&cells(30), &rules, &[Play::ToWin; 4]).unwrap_err();
    assert!(matches!(err, WinError::TooLarge { seats: 4, cells: 30, .. }), "{err}");
    assert!(err.to_string().ends_with("the limit is 775000 states and 3.5 GB"), "{err}");
    assert!(!text.contains('\n'));
}
