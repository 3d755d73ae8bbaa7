//! Fewest turns when top-face rolls earn bonus rolls.
//!
//! A turn is a run of rolls: each top-face roll (every die on its top face; under pick-die, the
//! chosen die) earns another roll in the same turn, until the K-th in a row, which either moves
//! and ends the turn (`on-max pass`) or undoes the turn (`void`). So the state inside a turn is
//! the position and the streak of top-face rolls so far, and the search is a 0-1 BFS over those
//! states: a roll that keeps the turn going costs 0 turns, one that ends it costs 1. Reaching N
//! costs nothing more: the turn it happens in is already counted.
//!
//! A voided turn is never part of a fewest-turns route (it spends a turn to go back to where the
//! turn began), and neither is a declined roll that keeps the turn going; both are still
//! modelled as the engine plays them, so the answer needs no argument about them.

use std::collections::VecDeque;

use snl_engine::{AfterRoll, Bonus, Choice};

use super::track::Track;

/// The most (position, streak) states the fewest-turns search allocates: 2^25 states, 128 MB.
pub const MAX_TURN_STATES: u64 = 1 << 25;

/// Why the fewest turns were not computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TurnsError {
    /// The board times the bonus cap needs more states than [`MAX_TURN_STATES`].
    #[error(
        "counting turns on {cells} cells with a bonus cap of {cap} needs {states} states, more \
         than the {MAX_TURN_STATES} this search allows"
    )]
    TooLarge {
        /// Positions, N + 1.
        cells: u64,
        /// The bonus cap (streak states per position).
        cap: u64,
        /// `cells × cap`.
        states: u64,
    },
}

/// The fewest turns from `from` (as a turn begins) to cell N, or `None` if N cannot be reached.
pub(crate) fn fewest_turns(track: &Track, from: u32) -> Result<Option<u32>, TurnsError> {
    let rules = *track.rules();
    let n = track.size();
    if from == n {
        return Ok(Some(0));
    }
    let bonus = rules.bonus == Bonus::TopFace;
    // Streak states per position: with no cap (or no bonus) the streak never matters.
    let cap = if bonus { rules.max_bonus.limit() } else { None };
    let per = u64::from(cap.unwrap_or(1));
    let cells = u64::from(n) + 1;
    let states = cells * per;
    if states > MAX_TURN_STATES {
        return Err(TurnsError::TooLarge { cells, cap: per, states });
    }
    let per = per as usize;
    let id = |p: u32, streak: u32| p as usize * per + streak as usize;
    let finish = id(n, 0);

    let mut turns = vec![u32::MAX; states as usize];
    let mut queue = VecDeque::new();
    turns[id(from, 0)] = 1; // the first turn has begun
    queue.push_back(id(from, 0));
    let may_pass = rules.choice == Choice::MayPass;
    while let Some(state) = queue.pop_front() {
        let t = turns[state];
        if state == finish {
            return Ok(Some(t));
        }
        let (p, streak) = ((state / per) as u32, (state % per) as u32);
        for step in track.steps() {
            let top = bonus && step == track.top_step();
            let moved = track.advance(p, step).end;
            // Declining (may-pass) is one more way to play the same roll.
            let choices = [Some(moved), may_pass.then_some(p)];
            for dest in choices.into_iter().flatten() {
                let (next, cost) = match rules.after_roll(streak, top) {
                    // The turn is undone: back where it began, which costs a turn and gains
                    // nothing, so the search never takes it.
                    (AfterRoll::Void, _) => continue,
                    _ if dest == n => (finish, 0),
                    (AfterRoll::Again, streak) => {
                        (id(dest, if cap.is_some() { streak } else { 0 }), 0)
                    }
                    (AfterRoll::End, _) => (id(dest, 0), 1), // moved, and the turn ends
                };
                if t + cost < turns[next] {
                    turns[next] = t + cost;
                    if cost == 0 {
                        queue.push_front(next);
                    } else {
                        queue.push_back(next);
                    }
                }
            }
        }
    }
    Ok(None)
}
