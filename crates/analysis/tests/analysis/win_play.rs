//! `win` at the table: the live odds of a solved game (`PlayToWin::chances_at`) are what the
//! next roll leads to on average, computer seats of kind `win` play the solved game
//! (`Computers`), and tournaments seat `win` players and win as the exact chances say.

use snl_analysis::{
    simulate::Z999,
    strategy::{Computers, HardPolicy, MAX_SEATS, PlayToWin, Strategy, WinDecider, WinError},
    tournament::{Entrant, Tournament, TournamentError},
};
use snl_engine::{
    Board, BoardSpec, CellSpec, Choice, Decider, Game, Input, Pending, Preset, Roll, RollSource,
    RuleSet, Rules, Seat, SeatKind, Status,
};

/// 16 cells with snakes near the end and an extra-roll cell.
fn pit() -> BoardSpec {
    let mut spec = BoardSpec::with_jumps(16, [(2, 7), (5, 11), (14, 3), (13, 6), (15, 9)]);
    spec.cells.push(CellSpec { at: 8, effect: "extra".to_owned(), exits: Vec::new() });
    spec
}

fn seats(kinds: &[SeatKind]) -> Vec<Seat> {
    kinds.iter().enumerate().map(|(i, k)| Seat::new(format!("P{i}"), *k)).collect()
}

/// Each seat's chance after one roll of the seat to move, its choice made as solved: 1 for a
/// seat that has won.
fn after_roll(win: &PlayToWin, hard: &HardPolicy, game: &Game, face: u8) -> Vec<f64> {
    let mut g = game.clone();
    g.apply(Input::Roll { roll: Roll::from_faces(&[face]) }).unwrap();
    if let Pending::Choice(decision) = g.pending() {
        let option = WinDecider { win, hard }.decide(&g, &decision);
        g.apply(Input::Choose { option }).unwrap();
    }
    if let Some(&winner) = g.ranking().first() {
        let mut won = vec![0.0; g.seats().len()];
        won[winner] = 1.0;
        return won;
    }
    win.chances_at(&g).unwrap()
}

#[test]
fn the_live_odds_of_seats_playing_to_win_are_what_the_next_roll_leads_to_on_average() {
    let rules = Rules { choice: Choice::MayPass, ..Rules::default() };
    let board = Board::new(&pit(), &rules).unwrap();
    let hard = HardPolicy::new(&board, &rules).unwrap();
    let strategies = [Strategy::Win, Strategy::Hard, Strategy::Win];
    let win = PlayToWin::for_strategies(&hard, &strategies).unwrap();
    let kinds = [SeatKind::Win, SeatKind::Hard, SeatKind::Win];
    let start = Game::new(board, rules, seats(&kinds)).unwrap();
    assert_eq!(win.chances_at(&start).unwrap(), win.win_probability());
    // Follow five games of seeded rolls, and at each roll check the chances against the six
    // rolls that could come.
    let mut checked = 0;
    for seed in 0..5 {
        let mut dice = snl_analysis::simulate::DiceStream::new(seed, 6);
        let mut game = start.clone();
        while game.status() != Status::Finished {
            let now = win.chances_at(&game).unwrap();
            assert!((now.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{now:?}");
            let mut mean = vec![0.0; 3];
            for face in 1..=6 {
                for (m, p) in mean.iter_mut().zip(after_roll(&win, &hard, &game, face)) {
                    *m += p / 6.0;
                }
            }
            for (m, n) in mean.iter().zip(&now) {
                assert!((m - n).abs() < 1e-9, "{mean:?} after a roll, {now:?} before");
            }
            checked += 1;
            let roll = dice.roll(game.current(), rules.thrown_dice()).unwrap();
            game.apply(Input::Roll { roll }).unwrap();
            if let Pending::Choice(decision) = game.pending() {
                let option = WinDecider { win: &win, hard: &hard }.decide(&game, &decision);
                game.apply(Input::Choose { option }).unwrap();
            }
        }
    }
    assert!(checked > 30, "{checked} positions checked");
}

#[test]
fn a_computer_of_kind_win_plays_the_game_of_the_whole_table_solved() {
    let rules = Rules { choice: Choice::MayPass, ..Rules::default() };
    let board = Board::new(&pit(), &rules).unwrap();
    let hard = HardPolicy::new(&board, &rules).unwrap();
    // A person counts as hard.
    let kinds = [SeatKind::Win, SeatKind::Human, SeatKind::Greedy];
    let solved =
        PlayToWin::for_strategies(&hard, &[Strategy::Win, Strategy::Hard, Strategy::Greedy])
            .unwrap();
    let mut game = Game::new(board, rules, seats(&kinds)).unwrap();
    let mut computers = Computers::new(5);
    let mut dice = snl_analysis::simulate::DiceStream::new(11, 6);
    let mut compared = 0;
    while game.status() != Status::Finished && compared < 200 {
        match game.pending() {
            Pending::Choice(decision) => {
                let strategy = Strategy::of_kind(kinds[decision.seat]).unwrap_or(Strategy::Hard);
                let option = computers.choose(strategy, &game, &decision);
                if strategy == Strategy::Win {
                    assert_eq!(Some(option), solved.choose_in(&game, &decision));
                    compared += 1;
                }
                game.apply(Input::Choose { option }).unwrap();
            }
            Pending::Roll { seat, dice: thrown, .. } => {
                let roll = dice.roll(seat, thrown).unwrap();
                game.apply(Input::Roll { roll }).unwrap();
            }
            other => panic!("no wormhole here: {other:?}"),
        }
    }
    assert!(compared > 0);
    assert!(computers.take_notes().is_empty());
    let theirs = computers.to_win().unwrap().win_probability();
    assert_eq!(theirs, solved.win_probability());
}

#[test]
fn a_computer_of_kind_win_plays_hard_where_the_game_is_not_solved_and_says_why_once() {
    let rules = Rules { choice: Choice::MayPass, ..RuleSet::BonusSix.rules() };
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let hard = HardPolicy::new(&board, &rules).unwrap();
    let mut game =
        Game::new(board, rules, seats(&[SeatKind::Win, SeatKind::Win, SeatKind::Easy])).unwrap();
    game.apply(Input::Roll { roll: Roll::from_faces(&[4]) }).unwrap();
    let Pending::Choice(decision) = game.pending() else { panic!("may-pass offers a choice") };
    let mut computers = Computers::new(5);
    let option = computers.choose(Strategy::Win, &game, &decision);
    assert_eq!(option, hard.choose_in(&game, &decision));
    assert!(computers.to_win().is_none());
    let notes = computers.take_notes();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("bonus rolls") && notes[0].contains("hard plays instead"));
    computers.choose(Strategy::Win, &game, &decision);
    assert!(computers.take_notes().is_empty());
}

#[test]
fn a_tournament_seats_win_players_and_they_win_as_the_exact_chances_say() {
    let rules = Rules { choice: Choice::MayPass, ..Rules::default() };
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let hard = HardPolicy::new(&board, &rules).unwrap();
    let players = vec![Entrant::new("W", Strategy::Win), Entrant::new("H", Strategy::Hard)];
    let tournament = Tournament::new(&board, &rules, players).unwrap();
    let games = 40_000;
    let standings = tournament.run(3, games);
    // Over the two seatings, W sits first in half the games and second in the other half.
    let first = PlayToWin::for_strategies(&hard, &[Strategy::Win, Strategy::Hard]).unwrap();
    let second = PlayToWin::for_strategies(&hard, &[Strategy::Hard, Strategy::Win]).unwrap();
    let exact = f64::midpoint(first.win_probability()[0], second.win_probability()[1]);
    let rate = standings.wins()[0] as f64 / games as f64;
    let half = Z999 * (exact * (1.0 - exact) / games as f64).sqrt();
    assert!((rate - exact).abs() < half, "W won {rate}, exactly {exact} ± {half}");
    // Playing to win is a best response: never worse than hard in its place.
    assert!(exact >= 0.5 - 1e-12, "{exact}");
}

#[test]
fn a_tournament_refuses_win_players_it_cannot_solve_before_any_work() {
    let rules = Rules { choice: Choice::MayPass, ..Rules::default() };
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let five: Vec<Entrant> = (0..=MAX_SEATS)
        .map(|i| Entrant::new(format!("P{i}"), if i == 0 { Strategy::Win } else { Strategy::Easy }))
        .collect();
    let err = Tournament::new(&board, &rules, five).unwrap_err();
    assert_eq!(err, TournamentError::Win(WinError::Seats(MAX_SEATS + 1)));
    let four: Vec<Entrant> = (0..4).map(|i| Entrant::new(format!("P{i}"), Strategy::Win)).collect();
    let err = Tournament::new(&board, &rules, four).unwrap_err();
    assert!(err.to_string().starts_with("playing to win with 4 seats on 100 cells needs"), "{err}");
}
