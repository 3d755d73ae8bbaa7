//! Invariants of the exact analysis on random small boards under random rules: the solves, the
//! distribution and the seat sums must tell one consistent story.

use proptest::prelude::*;
use snl_analysis::exact::{self, Analysis};
use snl_engine::{
    Board, BoardSpec, Bonus, Choice, Dice, Finish, JumpMode, MaxBonus, OnMax, Overshoot, Rules,
    Start,
};

fn rules() -> impl Strategy<Value = Rules> {
    (
        (any::<bool>(), 0..6_usize, 0..3_usize, any::<bool>()),
        (any::<bool>(), 0..4_u32, any::<bool>(), any::<bool>(), 0..3_usize),
    )
        .prop_map(|((first_cell, dice, overshoot, chain), (bonus, cap, void, all, choice))| {
            Rules {
                start: if first_cell { Start::FirstCell } else { Start::OffBoard },
                dice: ["1d2", "1d3", "1d4", "1d6", "2d2", "2d3"][dice].parse::<Dice>().unwrap(),
                overshoot: [Overshoot::Stay, Overshoot::Bounce, Overshoot::Win][overshoot],
                jumps: if chain { JumpMode::Chain } else { JumpMode::Single },
                bonus: if bonus { Bonus::TopFace } else { Bonus::None },
                max_bonus: if cap == 0 {
                    MaxBonus::Unlimited
                } else {
                    cap.to_string().parse().unwrap()
                },
                on_max: if void { OnMax::Void } else { OnMax::Pass },
                finish: if all { Finish::All } else { Finish::First },
                choice: [Choice::None, Choice::MayPass, Choice::PickDie][choice],
                mode: snl_engine::Mode::Classic,
            }
        })
}

fn board() -> impl Strategy<Value = BoardSpec> {
    (4..16_u32).prop_flat_map(|size| {
        prop::collection::vec((1..=size, 1..=size), 0..5).prop_map(move |jumps| {
            let jumps = jumps.into_iter().filter(|(a, b)| a != b);
            BoardSpec::with_jumps(size, jumps)
        })
    })
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

fn check(a: &Analysis) -> Result<(), TestCaseError> {
    let d = &a.distribution;
    let by = a.p_finish_by();
    prop_assert!(d.is_complete());
    prop_assert!(by.windows(2).all(|w| w[0] <= w[1] + 1e-15));
    prop_assert!((by[d.turns()] + a.never_finish_probability - 1.0).abs() < 1e-11);
    if let Some(min) = a.min_turns() {
        prop_assert!(by[min as usize - 1] <= 0.0 && by[min as usize] > 0.0);
    }
    for seats in [2_i32, 3] {
        let s = a.seats(seats as usize);
        // Someone finishes first unless every seat is stuck.
        let total: f64 = s.win_probability.iter().sum();
        let nobody = a.never_finish_probability.powi(seats);
        prop_assert!((total + nobody - 1.0).abs() < 1e-9, "{:?}", s);
        if let Some(ranks) = &s.rank_probability {
            // Each seat's ranks, and "never ranked" when it is stuck along with another seat.
            let q = a.never_finish_probability;
            let stuck_with_another = q * (1.0 - (1.0 - q).powi(seats - 1));
            for row in ranks {
                let sum: f64 = row.iter().sum();
                prop_assert!((sum + stuck_with_another - 1.0).abs() < 1e-9, "{row:?}");
            }
        }
        // Ties go to the earlier seat, and all seats play alike.
        prop_assert!(s.win_probability.windows(2).all(|w| w[0] >= w[1] - 1e-12));
    }
    if !a.is_finite() {
        prop_assert!(a.never_finish_probability > 0.0);
        return Ok(());
    }
    prop_assert!(a.never_finish_probability <= 0.0);
    // E[T] = Σ P(T > k), E[T²] = Σ (2k + 1) P(T > k).
    let mean: f64 = (0..d.turns()).map(|k| d.survival(k)).sum();
    let square: f64 = (0..d.turns()).map(|k| (2 * k + 1) as f64 * d.survival(k)).sum();
    prop_assert!(close(mean, a.expected_turns), "{mean} vs {}", a.expected_turns);
    let var = square - mean * mean;
    prop_assert!((var - a.std_dev_turns.powi(2)).abs() <= 1e-7 * square.max(1.0));
    // Rolls: at least one a turn, and the distribution's turn-by-turn rolls add up.
    prop_assert!(a.expected_rolls >= a.expected_turns * (1.0 - 1e-12));
    let rolls: f64 = (1..=d.turns()).map(|k| d.rolls_in_turn(k)).sum();
    prop_assert!(close(rolls, a.expected_rolls), "{rolls} vs {}", a.expected_rolls);
    // Every turn begins somewhere; every roll lands at most once.
    let visits: f64 = a.expected_turn_starts.as_ref().unwrap().iter().sum();
    prop_assert!(close(visits, a.expected_turns));
    let landings: f64 = a.expected_landings.as_ref().unwrap().iter().sum();
    prop_assert!(landings <= a.expected_rolls * (1.0 + 1e-12));
    // One seat's game is its own; several seats end sooner than one seat's expected length.
    let one = a.seats(1);
    prop_assert!(close(one.expected_game_rolls, a.expected_rolls));
    if a.rules.finish == Finish::First {
        let two = a.seats(2);
        prop_assert!(two.expected_game_turns <= 2.0 * a.expected_turns * (1.0 + 1e-12));
        prop_assert!(two.expected_game_turns >= f64::from(a.min_turns().unwrap()));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn solves_distribution_and_seats_agree_on_random_boards(spec in board(), rules in rules()) {
        let Ok(board) = Board::new(&spec, &rules) else { return Ok(()) };
        let a = exact::analyze(&board, &rules).unwrap();
        check(&a)?;
    }
}
