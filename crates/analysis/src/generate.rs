//! Random boards too large for a [`Board`](snl_engine::Board): 10^8 cells and millions of jumps,
//! drawn straight into a [`Track`].
//!
//! The draw is the engine's [`RandomBoard`] draw, face for face: the same seed and parameters give
//! the same jumps. Where the engine marks used cells in a table of one byte per cell, this keeps
//! two bitsets (an eighth of the memory), and it skips the engine's check that the board can be
//! won — the engine skips it too above 10^6 cells, and a [`Track`] search reports an
//! unreachable last cell anyway.
//!
//! ```
//! use snl_analysis::generate::random_track;
//! use snl_engine::{RandomBoard, Rules};
//!
//! let params = RandomBoard { size: 1_000_000, snakes: 25_000, ladders: 25_000, seed: 7, min_jump: 1 };
//! let track = random_track(&params, &Rules::default())?;
//! assert_eq!(track.jumps().len(), 50_000);
//! assert!(track.fewest_rolls().is_reachable());
//! # Ok::<_, snl_engine::RandomBoardError>(())
//! ```

use snl_engine::{Jump, RandomBoard, RandomBoardError, Rules, SeededDice};

use crate::solve::{Track, bits::Bits};

/// The jumps of `params`' first draw, in the order drawn: for more than 10^6 cells exactly the
/// jumps of [`RandomBoard::spec`]; below, its first attempt (which the engine keeps if the board
/// can be won).
///
/// No jump starts on cell 1 or N, and no jump starts where another starts or ends, so the jumps
/// never chain and the board is valid under every rule set.
///
/// # Errors
///
/// [`RandomBoardError`] when the parameters leave no room for the jumps
/// ([`RandomBoard::check`]).
pub fn random_jumps(params: &RandomBoard) -> Result<Vec<Jump>, RandomBoardError> {
    params.check()?;
    let n = params.size;
    let mut rng = SeededDice::new(params.seed);
    // The engine's table holds FREE, START or END per cell; START and END are these two sets.
    let mut starts = Bits::new(n as usize + 1);
    let mut ends = Bits::new(n as usize + 1);
    ends.insert(n); // no jump starts on N
    ends.insert(1); // nor on cell 1, so the board is valid whatever the start rule
    let pick = |rng: &mut SeededDice, lo: u32, hi: u32| lo + rng.face(hi - lo + 1) - 1;
    let total = params.snakes + params.ladders;
    let mut jumps = Vec::with_capacity(total as usize);
    for i in 0..total {
        let snake = i < params.snakes;
        loop {
            // A snake's head in 3..N−1, a ladder's foot in 2..N−2: the same draws, in the same
            // order, as RandomBoard.
            let from = if snake { pick(&mut rng, 3, n - 1) } else { pick(&mut rng, 2, n - 2) };
            let to = if snake { pick(&mut rng, 1, from - 1) } else { pick(&mut rng, from + 1, n) };
            if starts.contains(from)
                || ends.contains(from)
                || starts.contains(to)
                || from.abs_diff(to) < params.min_jump
            {
                continue;
            }
            starts.insert(from);
            ends.insert(to);
            jumps.push(Jump { from, to });
            break;
        }
    }
    Ok(jumps)
}

/// A random board drawn as [`random_jumps`] draws it, as a [`Track`] under `rules`.
///
/// # Errors
///
/// As [`random_jumps`].
pub fn random_track(params: &RandomBoard, rules: &Rules) -> Result<Track, RandomBoardError> {
    let mut jumps = random_jumps(params)?;
    jumps.sort_unstable();
    // No jump ends on a jump's start, so single and chained jumps rest on the same cell.
    let ends = jumps.iter().map(|j| j.to).collect();
    Ok(Track::from_parts(params.size, rules, jumps, ends))
}

#[cfg(test)]
mod tests {
    use snl_engine::{BoardSpec, JumpMode};

    use super::*;

    #[test]
    fn large_boards_match_the_engines_draw_jump_for_jump() {
        // Above 10^6 cells the engine keeps its first draw, so the two must agree exactly.
        let params =
            RandomBoard { size: 1_200_000, snakes: 300, ladders: 200, seed: 11, min_jump: 1 };
        let engine = params.spec(&Rules::default());
        let ours = BoardSpec::with_jumps(
            params.size,
            random_jumps(&params).unwrap().iter().map(|j| (j.from, j.to)),
        );
        assert_eq!(ours, engine);
    }

    #[test]
    fn small_boards_match_whenever_the_engine_keeps_its_first_draw() {
        let rules = Rules::default();
        let mut kept_first = 0;
        for seed in 0..40 {
            let params = RandomBoard { seed, ..RandomBoard::default() };
            let ours = random_jumps(&params).unwrap();
            let spec = BoardSpec::with_jumps(params.size, ours.iter().map(|j| (j.from, j.to)));
            if let Ok(board) = snl_engine::Board::new(&spec, &rules) {
                let reach = board.reach(&rules);
                if reach.finish_reachable && reach.trapped.is_empty() {
                    assert_eq!(spec, params.spec(&rules), "seed {seed}");
                    kept_first += 1;
                }
            }
        }
        assert!(kept_first > 20, "only {kept_first} first draws were winnable");
    }

    #[test]
    fn random_tracks_never_chain() {
        let params = RandomBoard { size: 5000, snakes: 600, ladders: 600, seed: 3, min_jump: 1 };
        let chain = Rules { jumps: JumpMode::Chain, ..Rules::default() };
        let track = random_track(&params, &chain).unwrap();
        for j in track.jumps() {
            assert_eq!(track.settle(j.from), j.to);
            assert_ne!(j.from, 1);
        }
        assert!(
            random_track(
                &RandomBoard { size: 20, snakes: 5, ladders: 5, seed: 0, min_jump: 1 },
                &chain
            )
            .is_err()
        );
    }
}
