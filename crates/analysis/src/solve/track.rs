//! [`Track`]: a board and the rules of movement, in the compact form the solver reads.

use snl_engine::{Advance, Board, Choice, Jump, JumpMode, Rules};

use super::bits::Bits;

/// The largest number of cells a [`Track`] holds, so that twice a cell (where a bounce is
/// computed) still fits in a `u32`.
pub const MAX_TRACK_CELLS: u32 = i32::MAX as u32;

/// A board and the rules of movement compacted for search: the jumps sorted by start cell, one
/// bit per cell marking jump starts, and the resting cell after each jump.
///
/// About N/8 bytes plus 16 bytes per jump, where [`Board`] keeps two `u32` tables of N cells:
/// 25 MB for a board of 10^8 cells with 5·10^6 jumps, against 800 MB.
///
/// Every move resolves exactly as [`Board::advance`] does (overshoot, then single or chained
/// jumps); [`Track::advance`] says so in code and the tests check it cell by cell.
#[derive(Clone, Debug)]
pub struct Track {
    size: u32,
    rules: Rules,
    // Smallest and largest number of cells one roll moves.
    least: u32,
    most: u32,
    // The step that counts as a top-face roll for the bonus rule.
    top_step: u32,
    jumps: Vec<Jump>,
    // ends[i]: where a token that lands on jumps[i].from rests, under the jump mode.
    ends: Vec<u32>,
    starts: Bits,
}

/// Why jumps and a size do not make a [`Track`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TrackError {
    /// N outside `2..=MAX_TRACK_CELLS`.
    #[error("size {size} is out of range: a board has 2 to {MAX_TRACK_CELLS} cells")]
    Size {
        /// The size given.
        size: u32,
    },
    /// A start or end outside `1..=N`.
    #[error("jump {}→{} leaves the board: both ends must be cells 1 to {size}", jump.from, jump.to)]
    OffBoard {
        /// The jump.
        jump: Jump,
        /// N.
        size: u32,
    },
    /// A jump whose end is its start.
    #[error("jump {}→{} leads back to its own cell", jump.from, jump.to)]
    Loop {
        /// The jump.
        jump: Jump,
    },
    /// Two jumps start on one cell.
    #[error("two jumps start on cell {cell}: a cell may start one jump at most")]
    SharedStart {
        /// The cell.
        cell: u32,
    },
    /// A jump starts on cell N.
    #[error("jump {}→{} starts on the last cell, where the game is already over", jump.from, jump.to)]
    StartsOnLast {
        /// The jump.
        jump: Jump,
    },
    /// With chained jumps, following the jumps from `cell` never ends.
    #[error("the jumps from cell {cell} form a cycle, which chained jumps would follow forever")]
    Cycle {
        /// A cell of the cycle.
        cell: u32,
    },
}

impl Track {
    /// The track of a validated board under `rules`.
    pub fn new(board: &Board, rules: &Rules) -> Track {
        let jumps = board.jumps().to_vec();
        // Board::settle is what Board::advance applies, so the track cannot disagree with it.
        let ends = jumps.iter().map(|j| board.settle(j.from, rules.jumps)).collect();
        Track::from_parts(board.size(), rules, jumps, ends)
    }

    /// A track from a list of jumps, without building a [`Board`]: for puzzles whose rules differ
    /// from ours (LeetCode allows jump cycles) and for boards too large for a `Board`.
    ///
    /// Under single jumps, a jump may end on another jump's start (the token stops there) and
    /// jumps may form cycles; under chained jumps a cycle is refused.
    ///
    /// # Errors
    ///
    /// [`TrackError`] for the first jump that breaks a rule.
    pub fn from_jumps(
        size: u32,
        jumps: impl IntoIterator<Item = Jump>,
        rules: &Rules,
    ) -> Result<Track, TrackError> {
        if !(2..=MAX_TRACK_CELLS).contains(&size) {
            return Err(TrackError::Size { size });
        }
        let mut jumps: Vec<Jump> = jumps.into_iter().collect();
        for &jump in &jumps {
            let on_board = |c: u32| (1..=size).contains(&c);
            if !on_board(jump.from) || !on_board(jump.to) {
                return Err(TrackError::OffBoard { jump, size });
            }
            if jump.from == jump.to {
                return Err(TrackError::Loop { jump });
            }
            if jump.from == size {
                return Err(TrackError::StartsOnLast { jump });
            }
        }
        jumps.sort_unstable();
        if let Some(pair) = jumps.windows(2).find(|p| p[0].from == p[1].from) {
            return Err(TrackError::SharedStart { cell: pair[0].from });
        }
        let ends = match rules.jumps {
            JumpMode::Single => jumps.iter().map(|j| j.to).collect(),
            JumpMode::Chain => chain_ends(&jumps)?,
        };
        Ok(Track::from_parts(size, rules, jumps, ends))
    }

    /// Assembles a track from jumps sorted by start (unique starts) and their resting cells.
    pub(crate) fn from_parts(size: u32, rules: &Rules, jumps: Vec<Jump>, ends: Vec<u32>) -> Track {
        debug_assert!(jumps.windows(2).all(|p| p[0].from < p[1].from));
        let mut starts = Bits::new(size as usize + 1);
        for j in &jumps {
            starts.insert(j.from);
        }
        starts.index_ranks();
        let steps = rules.step_values();
        let top_step = match rules.choice {
            Choice::PickDie => rules.dice.faces(),
            _ => rules.dice.top_total(),
        };
        Track {
            size,
            rules: *rules,
            least: *steps.start(),
            most: *steps.end(),
            top_step,
            jumps,
            ends,
            starts,
        }
    }

    /// N, the cell to reach.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The rules the track was made for.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The position tokens start on.
    pub fn start(&self) -> u32 {
        self.rules.start_position()
    }

    /// Every jump, sorted by start cell.
    pub fn jumps(&self) -> &[Jump] {
        &self.jumps
    }

    /// Every number of cells one roll may move a token: each total the dice can show, or each
    /// face under pick-die.
    pub fn steps(&self) -> std::ops::RangeInclusive<u32> {
        self.least..=self.most
    }

    /// Bytes of memory the track holds (not counting the struct itself).
    pub fn heap_bytes(&self) -> usize {
        self.jumps.capacity() * size_of::<Jump>()
            + self.ends.capacity() * size_of::<u32>()
            + self.starts.heap_bytes()
    }

    pub(crate) fn least(&self) -> u32 {
        self.least
    }

    pub(crate) fn most(&self) -> u32 {
        self.most
    }

    pub(crate) fn top_step(&self) -> u32 {
        self.top_step
    }

    pub(crate) fn starts(&self) -> &Bits {
        &self.starts
    }

    pub(crate) fn ends(&self) -> &[u32] {
        &self.ends
    }

    /// The index in [`Track::jumps`] of the jump starting on `cell`, if any.
    #[inline]
    pub(crate) fn jump_index(&self, cell: u32) -> Option<usize> {
        self.starts.contains(cell).then(|| self.starts.rank(cell))
    }

    /// Where a token that lands on `cell` rests, after the jumps the rules allow.
    #[inline]
    pub fn settle(&self, cell: u32) -> u32 {
        match self.jump_index(cell) {
            Some(i) => self.ends[i],
            None => cell,
        }
    }

    /// The jumps a token takes after landing on `cell`, in order.
    pub fn jump_path(&self, cell: u32) -> Vec<Jump> {
        let mut path = Vec::new();
        let mut at = cell;
        while let Some(i) = self.jump_index(at) {
            path.push(self.jumps[i]);
            at = self.jumps[i].to;
            if self.rules.jumps == JumpMode::Single {
                break;
            }
        }
        path
    }

    /// Resolves one move of `steps` cells from `from`, as [`Board::advance`] does: the
    /// engine's overshoot rule ([`snl_engine::Overshoot::land`]), then this track's settled jumps.
    pub fn advance(&self, from: u32, steps: u32) -> Advance {
        let target = from + steps;
        let overshoot = target > self.size;
        match self.rules.overshoot.land(self.size, target) {
            None => Advance { from, target, overshoot, blocked: true, landed: from, end: from },
            Some(landed) => Advance {
                from,
                target,
                overshoot,
                blocked: false,
                landed,
                end: self.settle(landed),
            },
        }
    }
}

/// The resting cell after each jump when jumps chain, or the cycle that makes it endless.
fn chain_ends(jumps: &[Jump]) -> Result<Vec<u32>, TrackError> {
    const UNKNOWN: u32 = 0;
    const VISITING: u32 = u32::MAX;
    let index = |cell: u32| jumps.binary_search_by_key(&cell, |j| j.from).ok();
    let mut ends = vec![UNKNOWN; jumps.len()];
    let mut path = Vec::new();
    for first in 0..jumps.len() {
        let mut i = first;
        // Walk forward until a known end, a cell with no jump, or a cell already on this walk.
        let end = loop {
            match ends[i] {
                VISITING => return Err(TrackError::Cycle { cell: jumps[i].from }),
                UNKNOWN => {}
                known => break known,
            }
            ends[i] = VISITING;
            path.push(i);
            match index(jumps[i].to) {
                Some(next) => i = next,
                None => break jumps[i].to,
            }
        };
        for j in path.drain(..) {
            ends[j] = end;
        }
    }
    Ok(ends)
}

#[cfg(test)]
mod tests {
    use snl_engine::{BoardSpec, Overshoot, Preset, RuleSet};

    use super::*;

    #[test]
    fn every_move_resolves_as_the_engine_resolves_it() {
        let spec = BoardSpec::with_jumps(30, [(3, 10), (10, 20), (20, 4), (28, 2), (7, 29)]);
        for overshoot in Overshoot::ALL {
            for jumps in JumpMode::ALL {
                let rules = Rules { overshoot: *overshoot, jumps: *jumps, ..Rules::default() };
                let board = Board::new(&spec, &rules).unwrap();
                let track = Track::new(&board, &rules);
                for from in 0..30 {
                    for steps in 1..=70 {
                        assert_eq!(
                            track.advance(from, steps),
                            board.advance(&rules, from, steps),
                            "{overshoot} {jumps} from {from} by {steps}"
                        );
                    }
                    assert_eq!(track.jump_path(from), board.jump_path(from, *jumps));
                }
            }
        }
    }

    #[test]
    fn from_jumps_agrees_with_a_board_of_the_same_jumps() {
        let rules = RuleSet::Standard.rules();
        let board = Board::new(&Preset::MiltonBradley.spec(), &rules).unwrap();
        let track = Track::from_jumps(100, board.jumps().iter().copied(), &rules).unwrap();
        for c in 0..=100 {
            assert_eq!(track.settle(c), board.settle(c, rules.jumps));
        }
    }

    #[test]
    fn bad_jump_lists_are_refused_with_the_jump_named() {
        let single = Rules::default();
        let chain = Rules { jumps: JumpMode::Chain, ..single };
        let j = |from, to| Jump { from, to };
        let err = |size, jumps: &[Jump], rules| {
            Track::from_jumps(size, jumps.iter().copied(), rules).unwrap_err().to_string()
        };
        assert!(err(1, &[], &single).contains("size 1"));
        assert!(err(10, &[j(3, 11)], &single).contains("3→11 leaves the board"));
        assert!(err(10, &[j(4, 4)], &single).contains("own cell"));
        assert!(err(10, &[j(4, 8), j(4, 2)], &single).contains("cell 4"));
        assert!(err(10, &[j(10, 2)], &single).contains("last cell"));
        assert!(err(10, &[j(2, 5), j(5, 2)], &chain).contains("cycle"));
        // The same cycle is harmless when a move takes one jump at most.
        assert!(Track::from_jumps(10, [j(2, 5), j(5, 2)], &single).is_ok());
    }

    #[test]
    fn chained_ends_follow_every_jump() {
        let rules = Rules { jumps: JumpMode::Chain, ..Rules::default() };
        let j = |from, to| Jump { from, to };
        let track =
            Track::from_jumps(30, [j(3, 10), j(10, 20), j(20, 4), j(25, 3)], &rules).unwrap();
        assert_eq!(track.settle(25), 4);
        assert_eq!(track.settle(3), 4);
        assert_eq!(track.jump_path(25).len(), 4);
    }
}
