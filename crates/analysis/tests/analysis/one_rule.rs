//! One copy of each rule: the bonus, cap and void rule ([`Rules::after_roll`]) and the overshoot
//! rule ([`Board::advance`]) are decided once, in the engine, and everything else asks them. This
//! checks that what the exact chain makes of a turn is what the engine plays, over random boards ×
//! every rule option: the chain's row for the start is the engine's first turn, enumerated
//! outcome by outcome through `Game::apply`.

use std::collections::BTreeMap;

use proptest::prelude::*;
use snl_analysis::exact::TurnChain;
use snl_engine::{
    Board, BoardSpec, Bonus, Dice, Finish, Game, Input, JumpMode, MaxBonus, OnMax, Overshoot,
    Pending, Roll, Rules, Seat, SeatKind, Start,
};

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (
        prop::sample::select(vec![Start::OffBoard, Start::FirstCell]),
        prop::sample::select(vec!["1d2", "1d3", "2d2", "1d4", "1d6"]),
        prop::sample::select(Overshoot::ALL.to_vec()),
        prop::sample::select(JumpMode::ALL.to_vec()),
        prop::sample::select(Bonus::ALL.to_vec()),
        0_u32..4,
        prop::sample::select(OnMax::ALL.to_vec()),
    )
        .prop_map(|(start, dice, overshoot, jumps, bonus, cap, on_max)| Rules {
            start,
            dice: dice.parse().unwrap(),
            overshoot,
            jumps,
            bonus,
            max_bonus: if cap == 0 {
                MaxBonus::Unlimited
            } else {
                cap.to_string().parse().unwrap()
            },
            on_max,
            finish: Finish::First,
            ..Rules::default()
        })
}

fn board_strategy() -> impl Strategy<Value = BoardSpec> {
    (8_u32..30).prop_flat_map(|size| {
        prop::collection::vec((2..size, 1..=size), 0..(size as usize / 4)).prop_map(move |raw| {
            let mut seen = Vec::new();
            let jumps: Vec<(u32, u32)> = raw
                .into_iter()
                .filter(|&(from, to)| {
                    from != to && !seen.contains(&from) && {
                        seen.push(from);
                        true
                    }
                })
                .collect();
            BoardSpec::with_jumps(size, jumps)
        })
    })
}

/// Every roll `dice` can show, each with its probability.
fn outcomes(dice: Dice) -> Vec<(Roll, f64)> {
    let (count, faces) = (dice.count() as usize, dice.faces());
    let mut all = vec![Vec::new()];
    for _ in 0..count {
        all = all
            .into_iter()
            .flat_map(|prefix: Vec<u8>| {
                (1..=faces as u8).map(move |f| [prefix.clone(), vec![f]].concat())
            })
            .collect();
    }
    let p = 1.0 / all.len() as f64;
    all.into_iter().map(|faces| (Roll::from_faces(&faces), p)).collect()
}

/// Where the first seat's first turn ends, with its probability, as the engine plays it: every
/// roll outcome applied in turn, down to a probability of 1e-13.
fn engine_turn(game: &Game, p: f64, ends: &mut BTreeMap<u32, f64>) {
    match game.pending() {
        Pending::Roll { seat: 0, dice, .. } if p > 1e-13 => {
            for (roll, q) in outcomes(dice) {
                let mut next = game.clone();
                next.apply(Input::Roll { roll }).unwrap();
                engine_turn(&next, p * q, ends);
            }
        }
        Pending::Roll { seat: 0, .. } => {} // the far tail of a bonus streak: negligible
        _ => *ends.entry(game.positions()[0]).or_default() += p,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, max_global_rejects: 20_000, ..ProptestConfig::default() })]

    #[test]
    fn the_exact_chain_plays_a_turn_as_the_engine_does(
        spec in board_strategy(),
        rules in rules_strategy(),
    ) {
        let board = Board::new(&spec, &rules);
        prop_assume!(board.is_ok());
        let board = board.unwrap();
        let seats = vec![Seat::new("A", SeatKind::Easy), Seat::new("B", SeatKind::Easy)];
        let game = Game::new(board.clone(), rules, seats);
        prop_assume!(game.is_ok());
        let mut engine = BTreeMap::new();
        engine_turn(&game.unwrap(), 1.0, &mut engine);
        let chain = TurnChain::new(&board, &rules);
        let row: BTreeMap<u32, f64> = chain.row(rules.start_position()).collect();
        for (cell, p) in &engine {
            let q = row.get(cell).copied().unwrap_or(0.0);
            prop_assert!((p - q).abs() < 1e-9, "end {}: engine {} chain {} ({:?})", cell, p, q, row);
        }
        for (cell, q) in &row {
            prop_assert!(engine.contains_key(cell) || *q < 1e-9, "chain ends on {} ({})", cell, q);
        }
    }
}
