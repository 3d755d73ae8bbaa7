//! One copy of each rule: the bonus, cap and void rule ([`Rules::after_roll`]) and one move
//! (`snl_engine`'s `moves.rs`: [`Board::enter`], [`Board::next_jump`], [`Board::met`], and from
//! them [`Board::outcomes`] and [`Board::options`]) are decided once, in the engine, and
//! everything else asks them. These properties check, over random boards (with every cell effect)
//! × every rule option (finish rules and races included) × every choice rule:
//!
//! - that the engine's turn plays each option of each roll as [`Board::outcomes`] says, outcome
//!   by outcome with its chance (wormhole draws enumerated), from seat states met in random games;
//! - that what the exact chain makes of a turn is what the engine plays: the chain's row for the
//!   start is the engine's first turn, enumerated outcome by outcome through `Game::apply`.

use std::collections::BTreeMap;

use proptest::prelude::*;
use snl_analysis::exact::TurnChain;
use snl_engine::{
    Board, BoardSpec, Bonus, CellSpec, Choice, Dice, Event, Finish, Game, Input, JumpMode,
    MaxBonus, Met, Mode, OnMax, Overshoot, Pending, Roll, RollSource, Rules, Seat, SeatKind,
    SeededDice, Start,
};

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (rules_without_choice(), prop::sample::select(Choice::ALL.to_vec()))
        .prop_map(|(rules, choice)| Rules { choice, ..rules })
}

fn rules_without_choice() -> impl Strategy<Value = Rules> {
    (
        prop::sample::select(vec![Start::OffBoard, Start::FirstCell]),
        prop::sample::select(vec!["1d2", "1d3", "2d2", "1d4", "1d6"]),
        prop::sample::select(Overshoot::ALL.to_vec()),
        prop::sample::select(JumpMode::ALL.to_vec()),
        prop::sample::select(Bonus::ALL.to_vec()),
        0_u32..4,
        prop::sample::select(OnMax::ALL.to_vec()),
        (prop::sample::select(Finish::ALL.to_vec()), 0_u32..3),
    )
        .prop_map(|(start, dice, overshoot, jumps, bonus, cap, on_max, (finish, rounds))| {
            Rules {
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
                finish,
                // A race ends after `rounds` rounds; 0 plays to the end.
                mode: std::num::NonZeroU32::new(rounds)
                    .map_or(Mode::Classic, |rounds| Mode::Race { rounds }),
                ..Rules::default()
            }
        })
}

/// A random board with cell effects: jumps, then `skip`, `extra`, `shield` and wormholes on
/// cells that start no jump (the board's own checks refuse what is still wrong).
fn effect_board_strategy() -> impl Strategy<Value = BoardSpec> {
    board_strategy().prop_flat_map(|spec| {
        let size = spec.size;
        let cell = (1..size, 0_usize..4, prop::collection::vec(1..=size, 1..4));
        prop::collection::vec(cell, 0..(size as usize / 3)).prop_map(move |raw| {
            let mut spec = spec.clone();
            let starts: Vec<u32> = spec
                .snakes
                .iter()
                .map(|s| s.head)
                .chain(spec.ladders.iter().map(|l| l.foot))
                .collect();
            let mut used = starts.clone();
            for (at, kind, mut exits) in raw {
                if used.contains(&at) {
                    continue;
                }
                used.push(at);
                exits.sort_unstable();
                exits.dedup();
                exits.retain(|&e| e != at && e != size);
                let effect = ["skip", "extra", "shield", "wormhole"][kind];
                if effect == "wormhole" && exits.is_empty() {
                    continue;
                }
                let exits = if effect == "wormhole" { exits } else { Vec::new() };
                spec.cells.push(CellSpec { at, effect: effect.into(), exits });
            }
            spec
        })
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

/// Where the first seat's first turn ends, as a state of `chain`, with its probability, as the
/// engine plays it taking the first option of every choice: every roll outcome and every
/// wormhole draw applied in turn, down to a probability of `cut` (the mass of the far tail left
/// out is `1 − Σ ends`).
fn engine_turn(game: &Game, chain: &TurnChain, p: f64, cut: f64, ends: &mut BTreeMap<u32, f64>) {
    match game.pending() {
        Pending::Roll { seat: 0, dice, .. } if p > cut => {
            for (roll, q) in outcomes(dice) {
                let mut next = game.clone();
                next.apply(Input::Roll { roll }).unwrap();
                engine_turn(&next, chain, p * q, cut, ends);
            }
        }
        Pending::Roll { seat: 0, .. } => {} // the far tail of a long turn
        Pending::Choice(_) => {
            let mut next = game.clone();
            next.apply(Input::Choose { option: 0 }).unwrap();
            engine_turn(&next, chain, p, cut, ends);
        }
        Pending::Draw { exits, .. } => {
            for index in 0..exits.len() as u32 {
                let mut next = game.clone();
                next.apply(Input::Draw { index }).unwrap();
                engine_turn(&next, chain, p / exits.len() as f64, cut, ends);
            }
        }
        _ => {
            let at = game.positions()[0];
            let state = if at == game.board().size() {
                chain.size()
            } else {
                chain.state(at, game.has_shield(0), game.skips_next_turn(0))
            };
            *ends.entry(state).or_default() += p;
        }
    }
}

/// The engine's turn from `game` (seat `seat` awaiting a roll): `roll`, then option `option`,
/// then every wormhole draw, down to where the move rests — each way as (cell, shield held,
/// what the resting cell did) with its chance. A voided turn gives nothing. A `skip` cell is seen
/// only by a seat without a skip pending already (within a turn, after a bonus roll, it may be).
fn engine_move(
    game: &Game,
    seat: usize,
    roll: Roll,
    option: usize,
) -> Vec<((u32, bool, Met), f64)> {
    fn walk(
        game: &Game,
        seat: usize,
        skip_before: bool,
        events: &[Event],
        p: f64,
        out: &mut Vec<((u32, bool, Met), f64)>,
    ) {
        if let Pending::Draw { exits, .. } = game.pending() {
            for index in 0..exits.len() as u32 {
                let mut next = game.clone();
                let more = next.apply(Input::Draw { index }).unwrap();
                walk(
                    &next,
                    seat,
                    skip_before,
                    &[events, &more].concat(),
                    p / exits.len() as f64,
                    out,
                );
            }
            return;
        }
        if events.iter().any(|e| matches!(e, Event::TurnVoided { .. })) {
            return;
        }
        let at = game.positions()[seat];
        let moved = events.iter().any(|e| matches!(e, Event::Moved { .. }));
        let met = if !moved || at == game.board().size() {
            Met::Nothing
        } else if !skip_before
            && (game.skips_next_turn(seat)
                || events
                    .iter()
                    .any(|e| matches!(e, Event::TurnSkipped { player } if *player == seat)))
        {
            // (A skip is spent at once when the other seats' turns pass by being skipped.)
            Met::Skip
        } else if events.iter().any(|e| matches!(e, Event::ExtraRoll { .. }))
            || (events.iter().any(|e| matches!(e, Event::BonusRoll { .. }))
                && game.board().met(at) == Met::Extra)
        {
            // (One more roll, never two: a top face's bonus roll covers an `extra` cell's.)
            Met::Extra
        } else if game.board().met(at) == Met::Shield {
            Met::Shield
        } else {
            Met::Nothing
        };
        out.push(((at, game.has_shield(seat), met), p));
    }
    let mut next = game.clone();
    let mut events = next.apply(Input::Roll { roll }).unwrap();
    if let Pending::Choice(_) = next.pending() {
        events.extend(next.apply(Input::Choose { option }).unwrap());
    }
    let mut out = Vec::new();
    walk(&next, seat, game.skips_next_turn(seat), &events, 1.0, &mut out);
    out
}

/// Adds up equal ways.
fn merged(ways: Vec<((u32, bool, Met), f64)>) -> BTreeMap<(u32, bool, u8), f64> {
    let mut out = BTreeMap::new();
    for ((cell, shield, met), p) in ways {
        *out.entry((cell, shield, met as u8)).or_default() += p;
    }
    out
}

/// Checks that the exact chain's row for the start is the engine's first turn, enumerated down
/// to a probability of `cut` (the mass left out bounds the difference).
fn chain_agrees(spec: &BoardSpec, rules: Rules, cut: f64) -> Result<(), TestCaseError> {
    let board = Board::new(spec, &rules);
    prop_assume!(board.is_ok());
    let board = board.unwrap();
    let seats = vec![Seat::new("A", SeatKind::Easy), Seat::new("B", SeatKind::Easy)];
    let game = Game::new(board.clone(), rules, seats);
    prop_assume!(game.is_ok());
    let chain = TurnChain::new(&board, &rules);
    let mut engine = BTreeMap::new();
    engine_turn(&game.unwrap(), &chain, 1.0, cut, &mut engine);
    let lost = 1.0 - engine.values().sum::<f64>();
    let row: BTreeMap<u32, f64> = chain.row(chain.start()).collect();
    for (state, p) in &engine {
        let q = row.get(state).copied().unwrap_or(0.0);
        prop_assert!((p - q).abs() < lost + 1e-9, "end {state}: engine {p} chain {q} ({row:?})");
    }
    for (state, q) in &row {
        prop_assert!(engine.contains_key(state) || *q < lost + 1e-9, "chain ends on {state} ({q})");
    }
    prop_assert!(lost < 0.5, "the enumeration left out {lost} of the turn");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, max_global_rejects: 20_000, ..ProptestConfig::default() })]

    #[test]
    fn the_engines_turn_plays_each_option_as_the_one_move_says(
        spec in effect_board_strategy(),
        rules in rules_strategy(),
        seed in any::<u64>(),
    ) {
        let board = Board::new(&spec, &rules);
        prop_assume!(board.is_ok());
        let board = board.unwrap();
        let seats = vec![Seat::new("A", SeatKind::Easy), Seat::new("B", SeatKind::Easy)];
        let game = Game::new(board.clone(), rules, seats);
        prop_assume!(game.is_ok());
        let mut game = game.unwrap();
        let mut dice = SeededDice::new(seed);
        // Seat states met in a random game: at each awaited roll, every roll and every option.
        for _ in 0..40 {
            match game.pending() {
                Pending::Roll { seat, dice: thrown, .. } => {
                    let (at, shield) = (game.positions()[seat], game.has_shield(seat));
                    for (roll, _) in outcomes(thrown) {
                        let options = game.options(at, &roll);
                        prop_assert_eq!(&options, &board.options(&rules, at, &roll, shield));
                        for (i, option) in options.iter().enumerate() {
                            let played = merged(engine_move(&game, seat, roll, i));
                            if played.is_empty() {
                                continue; // the turn was voided: nothing of the move stands
                            }
                            let said = merged(
                                board.outcomes(&rules, at, option.steps, shield)
                                    .into_iter()
                                    .map(|o| {
                                        let unseen = o.met == Met::Skip && game.skips_next_turn(seat);
                                        let met = if unseen { Met::Nothing } else { o.met };
                                        ((o.to, o.shield, met), o.chance)
                                    })
                                    .collect(),
                            );
                            prop_assert_eq!(played.keys().collect::<Vec<_>>(), said.keys().collect::<Vec<_>>(),
                                "from {} shield {} roll {:?} option {:?}", at, shield, roll, option);
                            for (way, p) in &played {
                                prop_assert!((p - said[way]).abs() < 1e-12, "{:?}: {} vs {}", way, p, said[way]);
                            }
                            let rests: Vec<u32> = said.keys().map(|k| k.0).collect();
                            // `lands` is where the move rests, or the wormhole whose draw ends it.
                            let wormhole = board.wormhole_at(option.lands).is_some();
                            prop_assert!(wormhole || rests == [option.lands],
                                "option {:?} rests on {:?}", option, rests);
                        }
                    }
                    let roll = dice.roll(seat, thrown).unwrap();
                    game.apply(Input::Roll { roll }).unwrap();
                }
                Pending::Choice(decision) => {
                    let option = dice.draw(decision.seat, decision.options.len() as u32).unwrap() as usize;
                    game.apply(Input::Choose { option }).unwrap();
                }
                Pending::Draw { seat, exits, .. } => {
                    let index = dice.draw(seat, exits.len() as u32).unwrap();
                    game.apply(Input::Draw { index }).unwrap();
                }
                Pending::Over => break,
            }
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, max_global_rejects: 20_000, ..ProptestConfig::default() })]

    #[test]
    fn the_exact_chain_plays_a_turn_with_effects_and_choices_as_the_engine_does(
        spec in effect_board_strategy(),
        rules in rules_strategy(),
    ) {
        // Extra cells and bonus rolls make a turn branch on: the engine's turn is enumerated
        // down to 1e-7, and the mass left out bounds the difference.
        chain_agrees(&spec, rules, 1e-7)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, max_global_rejects: 20_000, ..ProptestConfig::default() })]

    #[test]
    fn the_exact_chain_plays_a_turn_as_the_engine_does(
        spec in board_strategy(),
        rules in rules_without_choice(),
    ) {
        chain_agrees(&spec, rules, 1e-13)?;
    }
}
