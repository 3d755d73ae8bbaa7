//! The exact chain moves by the distribution of the dice's total, computed once by convolution,
//! and treats only the all-top-faces outcome as a top-face roll. These tests hold it to a chain
//! built the slow way, one outcome of the N dice at a time (`F^N` of them), under bonus rolls,
//! caps, void, and every overshoot rule, to 1e-12. Big dice on small boards make games of
//! millions of turns, whose quantiles come from powers of the chain.

use snl_analysis::exact::{self, TurnChain};
use snl_engine::{Board, BoardSpec, Bonus, Dice, OnMax, Overshoot, Preset, Rules};

/// Every outcome of the dice as (total, all top faces), each with probability `F^-N`.
fn outcomes(dice: Dice) -> Vec<(u32, bool)> {
    let (count, faces) = (dice.count(), dice.faces());
    let mut all = vec![(0_u32, true)];
    for _ in 0..count {
        all = all
            .iter()
            .flat_map(|&(total, top)| (1..=faces).map(move |f| (total + f, top && f == faces)))
            .collect();
    }
    all
}

/// Where a turn begun on `begin` ends, outcome by outcome, as the engine plays it: a top-face
/// roll rolls again until the cap, whose roll passes or voids the turn; an overshoot under
/// `stay` keeps the token where it stands. Unlimited bonus runs are cut below 1e-20 of mass, as
/// the chain does.
fn turn_by_outcome(board: &Board, rules: &Rules, begin: u32) -> Vec<f64> {
    let n = board.size();
    let all = outcomes(rules.dice);
    let each = 1.0 / all.len() as f64;
    let mut ends = vec![0.0; n as usize + 1];
    let mut level = vec![(begin, 1.0)];
    let mut streak = 0;
    while !level.is_empty() {
        if level.iter().map(|&(_, m)| m).sum::<f64>() < 1e-20 {
            for (x, m) in level {
                ends[x as usize] += m;
            }
            break;
        }
        let mut next = Vec::new();
        for &(x, m) in &level {
            for &(total, top) in &all {
                let p = m * each;
                let top = top && rules.bonus == Bonus::TopFace;
                let capped = top && rules.max_bonus.limit() == Some(streak + 1);
                if capped && rules.on_max == OnMax::Void {
                    ends[begin as usize] += p;
                    continue;
                }
                let a = board.advance(rules, x, total);
                let y = if a.overshoot && rules.overshoot == Overshoot::Stay { x } else { a.end };
                if top && !capped && y != n {
                    next.push((y, p));
                } else {
                    ends[y as usize] += p;
                }
            }
        }
        level = next;
        streak += 1;
    }
    ends
}

fn assert_chains_agree(spec: &BoardSpec, rules: &Rules) {
    let board = Board::new(spec, rules).unwrap();
    let chain = TurnChain::new(&board, rules);
    for b in 0..board.size() {
        let want = turn_by_outcome(&board, rules, b);
        let mut got = vec![0.0; want.len()];
        for (e, p) in chain.row(b) {
            got[e as usize] += p;
        }
        for (e, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!((g - w).abs() <= 1e-12 * w.max(1e-300), "{rules}: {b} -> {e}: {g} vs {w}");
        }
    }
}

#[test]
fn the_convolved_chain_is_the_chain_of_every_outcome() {
    let jumps = [(3, 21), (8, 2), (14, 30), (27, 9), (33, 38), (36, 12)];
    let spec = BoardSpec::with_jumps(40, jumps);
    for dice in ["2d6", "3d4", "4d3", "1d8", "2d2"] {
        for overshoot in [Overshoot::Stay, Overshoot::Bounce, Overshoot::Win] {
            for (bonus, cap, on_max) in [
                (Bonus::None, "unlimited", OnMax::Pass),
                (Bonus::TopFace, "unlimited", OnMax::Pass),
                (Bonus::TopFace, "1", OnMax::Pass),
                (Bonus::TopFace, "2", OnMax::Void),
                (Bonus::TopFace, "3", OnMax::Pass),
            ] {
                let rules = Rules {
                    dice: dice.parse().unwrap(),
                    overshoot,
                    bonus,
                    max_bonus: cap.parse().unwrap(),
                    on_max,
                    ..Rules::default()
                };
                assert_chains_agree(&spec, &rules);
            }
        }
    }
}

#[test]
fn only_every_die_on_its_top_face_rolls_again() {
    // 2d3 with bonus, cap 1 and void: the one outcome (3, 3) of nine voids the turn; a total of
    // 6 is never reached otherwise, and 5 (2+3, 3+2) is an ordinary roll.
    let rules = Rules {
        dice: "2d3".parse().unwrap(),
        bonus: Bonus::TopFace,
        max_bonus: "1".parse().unwrap(),
        on_max: OnMax::Void,
        ..Rules::default()
    };
    let board = Board::new(&BoardSpec::with_jumps(30, []), &rules).unwrap();
    let chain = TurnChain::new(&board, &rules);
    let row: Vec<(u32, f64)> = chain.row(10).collect();
    let p = |c: u32| row.iter().find(|&&(e, _)| e == c).map_or(0.0, |&(_, p)| p);
    assert!((p(10) - 1.0 / 9.0).abs() < 1e-15, "{row:?}");
    assert!((p(15) - 2.0 / 9.0).abs() < 1e-15, "{row:?}");
    assert!(row.iter().all(|&(e, _)| e != 16), "{row:?}");
}

#[test]
fn big_dice_on_small_boards_give_quantiles_millions_of_turns_out() {
    // Found before by propagating every turn (10^6 and more, minutes): the squared chain gives
    // the same turns, and the medians that propagation never reached.
    for (preset, dice, want) in [
        (Preset::Kids, "4d100", [Some(9_763), Some(781_439), Some(46_910_735), None]),
        (Preset::Classic, "4d50", [Some(528), Some(20_165), Some(2_226_893), None]),
    ] {
        let rules = Rules { dice: dice.parse().unwrap(), ..Rules::default() };
        let analysis =
            exact::analyze(&Board::new(&preset.spec(), &rules).unwrap(), &rules).unwrap();
        let d = &analysis.distribution;
        assert!(!d.is_complete());
        let got = [0.1, 0.25, 0.5, 0.75].map(|q| d.quantile(q));
        assert_eq!(got, want, "{preset} {dice}");
        assert!(analysis.never_finish_probability > 0.4);
    }
}
