//! What a power-up is worth (issue 11 point 5): for each effect cell, how much it changes the
//! expected game length and the first seat's chance to win, against the same board with that
//! cell left plain. Both boards are analysed exactly, so each delta is exact to 1e-9 too.

use snl_engine::{Board, Rules};

use super::{AnalysisError, Options, analyze_with, race::race_on};

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
    if !board.has_effects() {
        return Ok(Vec::new());
    }
    let options = Options { landings: false, ..Options::default() };
    let numbers = |board: &Board| -> Result<(f64, Option<f64>), AnalysisError> {
        let a = analyze_with(board, rules, &snl_engine::FirstOption, &options)?;
        let first = (seats >= 2).then(|| match race_on(board, rules, seats) {
            Some(race) => race.win_probability[0],
            None => a.seats(seats).win_probability[0],
        });
        Ok((a.expected_turns, first))
    };
    let (turns, first) = numbers(board)?;
    let spec = board.to_spec();
    let mut worth = Vec::with_capacity(board.effects().len());
    for effect in board.effects() {
        let mut plain = spec.clone();
        plain.cells.retain(|c| c.at != effect.at);
        // Fewer effects never make a valid board invalid.
        let Ok(plain) = Board::new(&plain, rules) else { continue };
        let (plain_turns, plain_first) = numbers(&plain)?;
        let delta = turns - plain_turns;
        worth.push(EffectWorth {
            cell: effect.at,
            effect: effect.effect.name(),
            expected_turns_delta: if delta.is_finite() { delta } else { f64::NAN },
            first_seat_win_delta: first.zip(plain_first).map(|(a, b)| a - b),
        });
    }
    Ok(worth)
}
