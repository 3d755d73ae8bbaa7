//! Race mode's exact numbers against brute force: the engine's own game, played from its start
//! through every dice outcome and every wormhole draw with its probability, on tiny boards with
//! every cell effect, until the race's last round ends it. Also checks a one-seat race against
//! the turn distribution of the classic analysis.

use std::num::NonZeroU32;

use snl_analysis::exact;
use snl_engine::{
    Board, BoardSpec, Bonus, CellSpec, Finish, Game, Input, Mode, OnMax, Pending, Preset, Roll,
    Rules, Seat, SeatKind,
};

/// Every way the game can go on from here, weighted: adds P(ranking) into `wins` and `ranks`.
fn explore(game: &Game, p: f64, wins: &mut [f64], ranks: &mut [f64], depth: u32) {
    assert!(depth < 200, "a game this long is not tiny");
    match game.pending() {
        Pending::Over => {
            let ranking = game.ranking();
            wins[ranking[0]] += p;
            for (r, &s) in ranking.iter().enumerate() {
                ranks[s] += p * (r + 1) as f64;
            }
        }
        Pending::Roll { dice, .. } => {
            let faces = dice.faces() as u8;
            let mut throws = vec![Vec::<u8>::new()];
            for _ in 0..dice.count() {
                throws = throws
                    .into_iter()
                    .flat_map(|t| (1..=faces).map(move |f| [t.clone(), vec![f]].concat()))
                    .collect();
            }
            let share = p / throws.len() as f64;
            for t in throws {
                let mut g = game.clone();
                g.apply(Input::Roll { roll: Roll::from_faces(&t) }).unwrap();
                explore(&g, share, wins, ranks, depth + 1);
            }
        }
        Pending::Draw { exits, .. } => {
            let share = p / exits.len() as f64;
            for index in 0..exits.len() {
                let mut g = game.clone();
                g.apply(Input::Draw { index: index as u32 }).unwrap();
                explore(&g, share, wins, ranks, depth + 1);
            }
        }
        Pending::Choice(_) => {
            let mut g = game.clone();
            g.apply(Input::Choose { option: 0 }).unwrap();
            explore(&g, p, wins, ranks, depth + 1);
        }
    }
}

fn race(rules: Rules, rounds: u32) -> Rules {
    Rules { mode: Mode::Race { rounds: NonZeroU32::new(rounds).unwrap() }, ..rules }
}

fn check(spec: &BoardSpec, rules: Rules, seats: usize) {
    let board = Board::new(spec, &rules).unwrap();
    let players = (0..seats).map(|i| Seat::new(format!("P{i}"), SeatKind::Easy)).collect();
    let game = Game::new(board.clone(), rules, players).unwrap();
    let (mut wins, mut ranks) = (vec![0.0; seats], vec![0.0; seats]);
    explore(&game, 1.0, &mut wins, &mut ranks, 0);
    let got = exact::race_on(&board, &rules, seats).unwrap();
    for s in 0..seats {
        let what = format!("seat {s} of {seats} with {rules}");
        assert!((got.win_probability[s] - wins[s]).abs() < 1e-12, "{what}: {got:?} vs {wins:?}");
        assert!((got.expected_rank[s] - ranks[s]).abs() < 1e-12, "{what}: {got:?} vs {ranks:?}");
    }
    assert!((got.win_probability.iter().sum::<f64>() - 1.0).abs() < 1e-12);
}

fn tiny() -> BoardSpec {
    let mut spec = BoardSpec::with_jumps(7, [(5, 1), (2, 4)]);
    spec.cells = [(1, "skip", vec![]), (3, "shield", vec![]), (4, "wormhole", vec![1, 6])]
        .into_iter()
        .map(|(at, effect, exits)| CellSpec { at, effect: effect.into(), exits })
        .collect();
    spec
}

#[test]
fn a_race_on_a_tiny_board_matches_every_game_the_engine_can_play() {
    let d2 = Rules { dice: "1d2".parse().unwrap(), ..Rules::default() };
    for finish in [Finish::First, Finish::All] {
        for rounds in [1, 2, 4] {
            check(&tiny(), race(Rules { finish, ..d2 }, rounds), 2);
        }
        check(&tiny(), race(Rules { finish, ..d2 }, 3), 3);
    }
    let mut extra = tiny();
    extra.cells.push(CellSpec { at: 6, effect: "extra".into(), exits: vec![] });
    let strict =
        Rules { bonus: Bonus::TopFace, max_bonus: "2".parse().unwrap(), on_max: OnMax::Void, ..d2 };
    check(&extra, race(strict, 3), 2);
    check(&extra, race(Rules { finish: Finish::All, ..strict }, 2), 3);
}

#[test]
fn a_one_seat_race_finishes_as_the_turn_distribution_says() {
    let rules = Rules::default();
    let board = Board::new(&Preset::Party.spec(), &rules).unwrap();
    let a = exact::analyze(&board, &rules).unwrap();
    for rounds in [5, 20, 60] {
        let r = exact::race_on(&board, &race(rules, rounds), 1).unwrap();
        assert!((r.finish_within - a.distribution.cdf(rounds as usize)).abs() < 1e-12);
        assert!(
            (r.win_probability[0] - 1.0).abs() < 1e-12 && (r.expected_rank[0] - 1.0).abs() < 1e-12
        );
        let on_board: f64 = r.position_after.iter().sum();
        assert!((on_board + r.finish_within - 1.0).abs() < 1e-12);
    }
    // A long race is the classic game: the same seat chances.
    let long = exact::race_on(&board, &race(rules, 3000), 2).unwrap();
    let classic = a.seats(2).win_probability;
    assert!((long.win_probability[0] - classic[0]).abs() < 1e-9, "{long:?} vs {classic:?}");
}

/// Walks every game from `game` and, at each point between turns, compares the live odds with
/// every game the engine can play from there; with `call_time`, also after the game clock runs
/// out at that point. Returns the points compared.
fn check_live_odds(game: &Game, chain: &exact::TurnChain, call_time: bool, depth: u32) -> usize {
    let mut compared = 0;
    let mut compare = |game: &Game| {
        let seats = game.seats().len();
        let (mut wins, mut ranks) = (vec![0.0; seats], vec![0.0; seats]);
        explore(game, 1.0, &mut wins, &mut ranks, 0);
        let odds = exact::live_odds(chain, game, exact::RaceLimits::EXACT).unwrap();
        assert!(odds.unresolved <= 1e-12, "{odds:?}");
        for s in 0..seats {
            let gap = (odds.chances[s] - wins[s]).abs();
            assert!(gap < 1e-12, "{}: {odds:?} vs {wins:?}", game.rules());
        }
        compared += 1;
    };
    let between = matches!(game.pending(), Pending::Roll { .. }) && !game.in_turn();
    if between && game.rules().mode.rounds().is_some() {
        compare(game);
    }
    if between && call_time && game.time_up().is_none() {
        let mut timed = game.clone();
        timed.apply(Input::TimeUp).unwrap();
        if !matches!(timed.pending(), Pending::Over) {
            compare(&timed);
        }
    }
    if depth == 0 {
        return compared;
    }
    let next: Vec<Input> = match game.pending() {
        Pending::Over => Vec::new(),
        Pending::Roll { dice, .. } => (1..=dice.faces() as u8)
            .map(|f| Input::Roll { roll: Roll::from_faces(&vec![f; dice.count() as usize]) })
            .collect(),
        Pending::Draw { exits, .. } => {
            (0..exits.len()).map(|i| Input::Draw { index: i as u32 }).collect()
        }
        Pending::Choice(_) => vec![Input::Choose { option: 0 }],
    };
    for input in next {
        let mut g = game.clone();
        g.apply(input).unwrap();
        compared += check_live_odds(&g, chain, call_time, depth - 1);
    }
    compared
}

#[test]
fn live_odds_in_a_race_match_every_game_the_engine_can_play_from_each_turn() {
    // At each point between turns of a race on the tiny board (shields held, skips pending,
    // rounds and turns left differing by seat), the live odds follow the race to its last
    // round; and once the game clock has run out, to the end of the round in play, in a
    // classic game too.
    let d2 = Rules { dice: "1d2".parse().unwrap(), ..Rules::default() };
    for (rules, seats) in [
        (race(d2, 3), 2),
        (race(Rules { finish: Finish::All, ..d2 }, 2), 3),
        (race(Rules { bonus: Bonus::TopFace, max_bonus: "2".parse().unwrap(), ..d2 }, 3), 2),
    ] {
        let board = Board::new(&tiny(), &rules).unwrap();
        let chain = exact::TurnChain::new(&board, &rules);
        let players = (0..seats).map(|i| Seat::new(format!("P{i}"), SeatKind::Easy)).collect();
        let game = Game::new(board, rules, players).unwrap();
        let compared = check_live_odds(&game, &chain, true, 6);
        assert!(compared > 20, "{rules}: only {compared} points");
    }
    let board = Board::new(&tiny(), &d2).unwrap();
    let chain = exact::TurnChain::new(&board, &d2);
    let players = (0..2).map(|i| Seat::new(format!("P{i}"), SeatKind::Easy)).collect();
    let game = Game::new(board, d2, players).unwrap();
    assert!(check_live_odds(&game, &chain, true, 6) > 10);
}
