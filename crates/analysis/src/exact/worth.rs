//! What a power-up is worth (issue 11 point 5): for each effect cell, how much it changes the
//! expected game length and the first seat's chance to win, against the same board with that
//! cell left plain. Both boards are analysed exactly, so each delta is exact to 1e-9 too.

use snl_engine::{Board, Rules};

use super::{AnalysisError, Options, analyze_with, race::race_on};
use crate::Budget;

/// One effect cell's worth: the board with it minus the board without it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct EffectWorth {
    /// The cell.
    pub cell: u32,
    /// Its effect, as written in board files.
    pub effect: &'static str,
    /// Expected turns of one player with the effect minus without (negative: it shortens the
    /// game); NaN when either is infinite.
    pub expected_turns_delta: f64,
    /// With two seats or more: the first seat's chance to win with the effect minus without
    /// (of the race, under race mode).
    pub first_seat_win_delta: Option<f64>,
}

/// The worth of every effect cell of `board` (in cell order) for `seats` seats that move by the
/// roll; none when the board has no effects.
///
/// # Errors
///
/// As [`super::analyze`].
pub fn effect_worth(
    board: &Board,
    rules: &Rules,
    seats: usize,
) -> Result<Vec<EffectWorth>, AnalysisError> {
    Ok(effect_worth_within(board, rules, seats, &Budget::unlimited())?.0)
}

/// As [`effect_worth`], stopping once `budget` is spent (each cell weighs two exact analyses,
/// a board of many effects many of them): the cells weighed by then, in cell order, and whether
/// every cell was. A cell whose analyses the budget cut short is left out, so every delta given
/// is exact.
///
/// # Errors
///
/// As [`super::analyze`].
pub fn effect_worth_within(
    board: &Board,
    rules: &Rules,
    seats: usize,
    budget: &Budget,
) -> Result<(Vec<EffectWorth>, bool), AnalysisError> {
    if !board.has_effects() {
        return Ok((Vec::new(), true));
    }
    let options = Options { landings: false, ..Options::default() }.with_budget(budget.clone());
    let numbers = |board: &Board| -> Result<Option<(f64, Option<f64>)>, AnalysisError> {
        let a = analyze_with(board, rules, &snl_engine::FirstOption, &options)?;
        if !a.distribution.is_complete() && budget.is_spent() {
            return Ok(None);
        }
        let first = (seats >= 2).then(|| match race_on(board, rules, seats) {
            Some(race) => race.win_probability[0],
            None => a.seats(seats).win_probability[0],
        });
        Ok(Some((a.expected_turns, first)))
    };
    if budget.is_spent() {
        return Ok((Vec::new(), false));
    }
    let Some((turns, first)) = numbers(board)? else { return Ok((Vec::new(), false)) };
    let spec = board.to_spec();
    let mut worth = Vec::with_capacity(board.effects().len());
    for effect in board.effects() {
        if budget.is_spent() {
            return Ok((worth, false));
        }
        let mut plain = spec.clone();
        plain.cells.retain(|c| c.at != effect.at);
        // Fewer effects never make a valid board invalid.
        let Ok(plain) = Board::new(&plain, rules) else { continue };
        let Some((plain_turns, plain_first)) = numbers(&plain)? else {
            return Ok((worth, false));
        };
        let delta = turns - plain_turns;
        worth.push(EffectWorth {
            cell: effect.at,
            effect: effect.effect.name(),
            expected_turns_delta: if delta.is_finite() { delta } else { f64::NAN },
            first_seat_win_delta: first.zip(plain_first).map(|(a, b)| a - b),
        });
    }
    Ok((worth, true))
}
