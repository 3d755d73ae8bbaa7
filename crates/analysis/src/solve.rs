//! The fewest rolls from a position to cell N, with one shortest path; the fewest rolls from every
//! position (for hints during a game); and, with bonus rolls, the fewest turns.
//!
//! The board is a graph: from each position, one roll leads to `advance(position, step).end` for
//! every step the dice can show. The answers treat the dice as the player's to choose — the best
//! case, as in the puzzles (LeetCode 909, HackerRank "The Quickest Way Up") — under any
//! [`Rules`]: start, dice `NdF` (every total they can show) or pick-die (every face), overshoot
//! stay, bounce or win, single or chained jumps. Declining a roll (may-pass) never shortens a
//! route, so it does not change the fewest rolls.
//!
//! A board with cell effects (SPEC §3b) is searched over more than cells — whether a shield is
//! held, a skip pending — by [`effects`]: [`effects::fewest_rolls`] and [`effects::fewest_turns`].
//! A [`Track`] holds jumps only, so [`Track::new`] of such a board ignores its effects;
//! [`rolls_to_finish`] takes them into account.
//!
//! Everything else runs on a [`Track`], a compact copy of the board (a sorted jump list and a bitset),
//! so boards of 10^8 cells fit in well under a gigabyte; see [`sweep`] for how the search works.
//!
//! # Example
//!
//! ```
//! use snl_analysis::solve::{Track, rolls_to_finish};
//! use snl_engine::{Board, Preset, Rules};
//!
//! let rules = Rules::default();
//! let board = Board::new(&Preset::Classic.spec(), &rules)?;
//! let track = Track::new(&board, &rules);
//!
//! let best = track.fewest_rolls();
//! assert_eq!(best.min_rolls(), Some(5));
//! assert_eq!(best.to_string(), "5 rolls: 0 → 5 → 11 ⇒ 40 (ladder) → 46 ⇒ 90 (ladder) → 94 → 100");
//! assert_eq!(best.path(), [0, 5, 11, 40, 46, 90, 94, 100]);
//!
//! // During a game: the fewest rolls left from every position.
//! let left = rolls_to_finish(&board, &rules);
//! assert_eq!(left[0], Some(5));
//! assert_eq!(left[94], Some(1));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

pub(crate) mod bits;
pub mod effects;
mod finish;
pub mod sweep;
mod track;
mod turns;

use std::fmt;

use snl_engine::{Board, Rules};

pub use sweep::Move;
pub use track::{MAX_TRACK_CELLS, Track, TrackError};
pub use turns::{MAX_TURN_STATES, TurnsError};

/// The answer of a fewest-rolls search: a shortest path, or unreachable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    from: u32,
    size: u32,
    // None when cell N cannot be reached.
    moves: Option<Vec<Move>>,
}

impl Solution {
    /// The position the search started from.
    pub fn from(&self) -> u32 {
        self.from
    }

    /// N, the cell searched for.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// Whether cell N can be reached at all.
    pub fn is_reachable(&self) -> bool {
        self.moves.is_some()
    }

    /// The fewest rolls to reach N, or `None` when it cannot be reached.
    pub fn min_rolls(&self) -> Option<u32> {
        self.moves.as_ref().map(|m| m.len() as u32)
    }

    /// The rolls of one shortest path, in order (`None` when unreachable).
    pub fn moves(&self) -> Option<&[Move]> {
        self.moves.as_deref()
    }

    /// The cells the token visits on the path, the start first: after each roll the cell it lands
    /// on, then the end of each jump it takes. Empty when N cannot be reached.
    pub fn path(&self) -> Vec<u32> {
        let Some(moves) = &self.moves else { return Vec::new() };
        let mut cells = vec![self.from];
        for m in moves {
            cells.push(m.landed);
            cells.extend(m.jumps.iter().map(|j| j.to));
        }
        cells
    }
}

/// `7 rolls: 0 → 1 ⇒ 38 (ladder) → …`, or `cell 100 cannot be reached from 0`.
impl fmt::Display for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(moves) = &self.moves else {
            return write!(f, "cell {} cannot be reached from {}", self.size, self.from);
        };
        let plural = if moves.len() == 1 { "" } else { "s" };
        write!(f, "{} roll{plural}: {}", moves.len(), self.from)?;
        for m in moves {
            write!(f, " → {}", m.landed)?;
            if m.target() > self.size {
                f.write_str(if m.landed == self.size { " (overshot)" } else { " (bounced)" })?;
            }
            for j in &m.jumps {
                write!(f, " ⇒ {} ({})", j.to, if j.is_snake() { "snake" } else { "ladder" })?;
            }
        }
        Ok(())
    }
}

impl Track {
    /// The fewest rolls from the start position to cell N, and one shortest path.
    pub fn fewest_rolls(&self) -> Solution {
        self.fewest_rolls_from(self.start())
    }

    /// The fewest rolls from position `from` (0 = off the board) to cell N, and one shortest path.
    ///
    /// # Panics
    ///
    /// Panics if `from` is past N.
    pub fn fewest_rolls_from(&self, from: u32) -> Solution {
        assert!(from <= self.size(), "position {from} is past the last cell {}", self.size());
        let moves = sweep::search(self, from).map(|layers| sweep::path(self, &layers));
        Solution { from, size: self.size(), moves }
    }

    /// For every position `0..=N` (index = position), the fewest rolls to reach N from there, or
    /// `None` where N cannot be reached. Position 0 is off the board.
    pub fn rolls_to_finish(&self) -> Vec<Option<u32>> {
        finish::rolls_to_finish(self)
    }

    /// The fewest turns from the start to cell N when top-face rolls earn bonus rolls (the rules'
    /// bonus, max-bonus and on-max options, played as the engine plays them); without bonus rolls,
    /// the fewest rolls. `None` when N cannot be reached.
    ///
    /// # Errors
    ///
    /// [`TurnsError::TooLarge`] when the board times the bonus cap would need more than
    /// [`MAX_TURN_STATES`] states.
    pub fn fewest_turns(&self) -> Result<Option<u32>, TurnsError> {
        self.fewest_turns_from(self.start())
    }

    /// [`Track::fewest_turns`] from position `from`, as a turn begins there.
    ///
    /// # Errors
    ///
    /// As [`Track::fewest_turns`].
    ///
    /// # Panics
    ///
    /// Panics if `from` is past N.
    pub fn fewest_turns_from(&self, from: u32) -> Result<Option<u32>, TurnsError> {
        assert!(from <= self.size(), "position {from} is past the last cell {}", self.size());
        turns::fewest_turns(self, from)
    }
}

/// The fewest rolls from the start to cell N on `board` under `rules`, and one shortest path.
pub fn solve(board: &Board, rules: &Rules) -> Solution {
    Track::new(board, rules).fewest_rolls()
}

/// For every position `0..=N` of `board` (index = position), the fewest rolls to reach N from
/// there, or `None` where N cannot be reached: "how many rolls from here at best", for hints.
///
/// On a board with effects, for a token that holds no shield, and the best case over each
/// wormhole's exits ([`effects::rolls_to_finish`]).
///
/// ```
/// use snl_analysis::solve::rolls_to_finish;
/// use snl_engine::{Board, BoardSpec, Rules};
///
/// let rules = Rules::default();
/// let board = Board::new(&BoardSpec::with_jumps(10, [(4, 9)]), &rules)?;
/// let left = rolls_to_finish(&board, &rules);
/// assert_eq!(left.len(), 11);
/// assert_eq!(left[0], Some(2)); // 0 → 4 ⇒ 9 → 10
/// assert_eq!(left[9], Some(1));
/// assert_eq!(left[10], Some(0));
/// # Ok::<_, snl_engine::BoardError>(())
/// ```
pub fn rolls_to_finish(board: &Board, rules: &Rules) -> Vec<Option<u32>> {
    if board.has_effects() {
        return effects::rolls_to_finish(board, rules);
    }
    Track::new(board, rules).rolls_to_finish()
}
