//! Boards: a spec (plain data, maybe invalid) becomes a [`Board`] only through [`Board::new`],
//! whose error lists every problem.
//!
//! The spec and its TOML form are `spec.rs`, a board file read with its rules `file.rs`, the problems `problem.rs`, what a token can reach
//! `reach.rs`, the drawing geometry `layout.rs`, and one move on the board `crate::moves`.

mod file;
mod layout;
mod parts;
mod problem;
mod reach;
mod spec;

use std::fmt;

pub use file::{check_board_file, file_rules};
pub use layout::{Layout, default_width};
pub use problem::{BoardError, BoardProblem};
pub use reach::Reach;
pub use spec::{
    BoardSpec, CellSpec, LadderSpec, MAX_BOARD_FILE_BYTES, MAX_BOARD_FILE_TOKENS, ParseBoardError,
    PartialBoard, SnakeSpec,
};

use serde::{Deserialize, Serialize};

use crate::{
    effects::{self, CellEffect, Effect},
    rules::{JumpMode, Rules, Start},
};

/// The most cells a board may have: every board table is a few bytes per cell, so ten million
/// cells stay within a few hundred megabytes for any command.
pub const MAX_CELLS: u32 = 10_000_000;

/// A snake or a ladder: one kind of thing with a start and an end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Jump {
    /// The cell that triggers it.
    pub from: u32,
    /// The cell it leaves the token on.
    pub to: u32,
}

impl Jump {
    /// True if and only if it goes down.
    pub fn is_snake(self) -> bool {
        self.to < self.from
    }
}

impl fmt::Display for Jump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = if self.is_snake() { "snake" } else { "ladder" };
        write!(f, "{kind} {}→{}", self.from, self.to)
    }
}

/// A valid board: N cells and the jumps on them.
///
/// ```
/// use snl_engine::{Board, BoardSpec, Rules};
/// let spec = BoardSpec::with_jumps(10, [(3, 8), (9, 2)]);
/// let board = Board::new(&spec, &Rules::default())?;
/// assert_eq!(board.jump_at(3), Some(8));
/// assert_eq!(board.jump_at(4), None);
///
/// let bad = BoardSpec::with_jumps(10, [(10, 2), (4, 12)]);
/// let err = Board::new(&bad, &Rules::default()).unwrap_err();
/// assert_eq!(err.problems.len(), 2);
/// # Ok::<_, snl_engine::BoardError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    size: u32,
    width: u32,
    jumps: Vec<Jump>,
    // dest[c] is where a token landing on c ends after one jump (c itself when there is none).
    dest: Vec<u32>,
    // settled[c] is where it ends after following jumps as far as they go (for chain mode); a
    // wormhole is not in these tables (its end is drawn): a walk stops on it.
    settled: Vec<u32>,
    // Cell effects, sorted by cell.
    effects: Vec<CellEffect>,
    // Bit c of this set is on when cell c holds an effect: most cells hold none, and a move
    // asks of every cell it passes (a search of `effects` each time was most of the work of
    // checking a 10^6-cell board's reach with 1,000 effects).
    marked: Vec<u64>,
}

impl Board {
    /// Validates `spec` for play under `rules` (the start cell and the jump mode matter).
    ///
    /// # Errors
    ///
    /// [`BoardError`] listing every rule of SPEC §4 the spec breaks.
    pub fn new(spec: &BoardSpec, rules: &Rules) -> Result<Board, BoardError> {
        let size = spec.size;
        let mut problems = Vec::new();
        if size < 2 {
            problems.push(BoardProblem::TooSmall { size });
        }
        if size > MAX_CELLS {
            problems.push(BoardProblem::TooLarge { size });
        }
        let max_width = size.clamp(1, MAX_CELLS);
        match spec.width {
            Some(0) => problems.push(BoardProblem::ZeroWidth),
            Some(width) if width > max_width => {
                problems.push(BoardProblem::TooWide { width, max: max_width });
            }
            _ => {}
        }
        let written = spec
            .snakes
            .iter()
            .map(|s| (Jump { from: s.head, to: s.tail }, true))
            .chain(spec.ladders.iter().map(|l| (Jump { from: l.foot, to: l.top }, false)));
        let mut jumps = Vec::new();
        for (jump, snake) in written {
            let on_board = |c: u32| (1..=size).contains(&c);
            if !on_board(jump.from) || !on_board(jump.to) {
                problems.push(BoardProblem::OffBoard { jump, snake, size });
                continue;
            }
            if snake && jump.to >= jump.from {
                problems.push(BoardProblem::SnakeNotDown { jump });
                continue;
            }
            if !snake && jump.to <= jump.from {
                problems.push(BoardProblem::LadderNotUp { jump });
                continue;
            }
            if jump.from == size {
                problems.push(BoardProblem::StartsOnLast { jump });
            }
            if rules.start == Start::FirstCell && jump.from == 1 {
                problems.push(BoardProblem::StartsOnStart { jump });
            }
            jumps.push(jump);
        }
        jumps.sort_unstable();
        let effects = effects::check_cells(&spec.cells, size, &jumps, rules, &mut problems);
        // Sorted, so a shared start is a run of equal starts: name each cell once.
        let mut named = None;
        for pair in jumps.windows(2) {
            if pair[0].from == pair[1].from && named != Some(pair[0].from) {
                named = Some(pair[0].from);
                problems.push(BoardProblem::SharedStart { cell: pair[0].from });
            }
        }
        if !problems.is_empty() {
            return Err(BoardError { problems });
        }
        let mut dest: Vec<u32> = (0..=size).collect();
        for j in &jumps {
            dest[j.from as usize] = j.to;
        }
        let settled = match settle_all(&dest) {
            Ok(settled) => settled,
            Err(cycle) if rules.jumps == JumpMode::Chain => {
                return Err(BoardError { problems: vec![BoardProblem::Cycle { cells: cycle }] });
            }
            // Without chaining a cycle is harmless; `settled` is then never consulted.
            Err(_) => dest.clone(),
        };
        if let Some(cells) = effects::wormhole_cycle(&dest, &effects, rules.jumps) {
            return Err(BoardError { problems: vec![BoardProblem::Cycle { cells }] });
        }
        let width = spec.width.unwrap_or_else(|| default_width(size));
        let mut marked = vec![0_u64; size as usize / 64 + 1];
        for e in &effects {
            marked[e.at as usize / 64] |= 1_u64 << (e.at % 64);
        }
        Ok(Board { size, width, jumps, dest, settled, effects, marked })
    }

    /// N, the number of cells (and the cell to reach).
    pub fn size(&self) -> u32 {
        self.size
    }

    /// Cells per drawn row.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Every jump, sorted by start cell.
    pub fn jumps(&self) -> &[Jump] {
        &self.jumps
    }

    /// Every cell effect, sorted by cell.
    pub fn effects(&self) -> &[CellEffect] {
        &self.effects
    }

    /// True if and only if some cell has an effect.
    pub fn has_effects(&self) -> bool {
        !self.effects.is_empty()
    }

    /// The effect on `cell`, if any.
    pub fn effect_at(&self, cell: u32) -> Option<&Effect> {
        let word = self.marked.get(cell as usize / 64)?;
        if word & (1_u64 << (cell % 64)) == 0 {
            return None;
        }
        let i = self.effects.binary_search_by_key(&cell, |e| e.at).ok()?;
        Some(&self.effects[i].effect)
    }

    /// The exits of the wormhole on `cell`, if `cell` holds one.
    pub fn wormhole_at(&self, cell: u32) -> Option<&[u32]> {
        match self.effect_at(cell)? {
            Effect::Wormhole { exits } => Some(exits),
            _ => None,
        }
    }

    /// The wormhole draws a move made, in order: for each jump of `jumps` that leaves a wormhole,
    /// the index of its exit among the wormhole's exits (the number of exits when the jump's end
    /// is none of them) and the number of exits.
    pub fn draws_of(&self, jumps: &[Jump]) -> Vec<(u32, u32)> {
        jumps
            .iter()
            .filter_map(|j| {
                let exits = self.wormhole_at(j.from)?;
                let n = exits.len() as u32;
                let index = exits.iter().position(|&e| e == j.to).map_or(n, |i| i as u32);
                Some((index, n))
            })
            .collect()
    }

    /// The jump starting on `cell`, as its end cell.
    pub fn jump_at(&self, cell: u32) -> Option<u32> {
        let to = *self.dest.get(cell as usize)?;
        (to != cell).then_some(to)
    }

    /// Where a token that lands on `cell` rests after the jumps `mode` allows.
    pub fn settle(&self, cell: u32, mode: JumpMode) -> u32 {
        match mode {
            JumpMode::Single => self.dest[cell as usize],
            JumpMode::Chain => self.settled[cell as usize],
        }
    }

    /// The table behind [`Board::settle`]: index c holds where a token landing on c rests.
    pub fn settle_table(&self, mode: JumpMode) -> &[u32] {
        match mode {
            JumpMode::Single => &self.dest,
            JumpMode::Chain => &self.settled,
        }
    }

    /// The spec this board was built from (jumps in sorted order, no rules).
    pub fn to_spec(&self) -> BoardSpec {
        let mut spec = BoardSpec::with_jumps(self.size, self.jumps.iter().map(|j| (j.from, j.to)));
        if self.width != default_width(self.size) {
            spec.width = Some(self.width);
        }
        spec.cells = self.effects.iter().map(CellEffect::to_spec).collect();
        spec
    }

    /// The boustrophedon layout used to draw this board.
    pub fn layout(&self) -> Layout {
        Layout::new(self.size, self.width)
    }

    /// The jumps a token takes after landing on `cell`, in order.
    pub fn jump_path(&self, cell: u32, mode: JumpMode) -> Vec<Jump> {
        let mut path = Vec::new();
        let mut at = cell;
        while let Some(to) = self.jump_at(at) {
            path.push(Jump { from: at, to });
            at = to;
            if mode == JumpMode::Single {
                break;
            }
        }
        path
    }
}

/// Follows every chain of jumps to its end, or returns a cycle.
///
/// Linear in the number of cells: each cell is walked once, and a cell on the current walk is
/// marked so that a cycle is seen at once rather than by searching the walk.
fn settle_all(dest: &[u32]) -> Result<Vec<u32>, Vec<u32>> {
    const UNKNOWN: u32 = u32::MAX;
    const ON_PATH: u32 = u32::MAX - 1;
    let mut settled = vec![UNKNOWN; dest.len()];
    let mut path = Vec::new();
    for start in 0..dest.len() {
        path.clear();
        let mut at = start;
        while settled[at] == UNKNOWN && dest[at] as usize != at {
            settled[at] = ON_PATH;
            path.push(at as u32);
            at = dest[at] as usize;
        }
        if settled[at] == ON_PATH {
            let i = path.iter().position(|&c| c == at as u32).unwrap_or(0);
            return Err(path[i..].to_vec());
        }
        let end = if settled[at] == UNKNOWN { at as u32 } else { settled[at] };
        settled[at] = end;
        for &c in &path {
            settled[c as usize] = end;
        }
    }
    Ok(settled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Bonus, OnMax, Overshoot};

    fn rules() -> Rules {
        Rules::default()
    }

    #[test]
    fn every_problem_is_listed_with_its_jump() {
        let spec = BoardSpec {
            size: 20,
            snakes: vec![SnakeSpec { head: 5, tail: 9 }, SnakeSpec { head: 20, tail: 3 }],
            ladders: vec![
                LadderSpec { foot: 8, top: 4 },
                LadderSpec { foot: 2, top: 25 },
                LadderSpec { foot: 6, top: 12 },
                LadderSpec { foot: 6, top: 14 },
            ],
            ..BoardSpec::default()
        };
        let err = Board::new(&spec, &rules()).unwrap_err();
        let text = err.to_string();
        assert_eq!(err.problems.len(), 5, "{text}");
        for needle in ["snake 5→9", "snake 20→3", "ladder 8→4", "ladder 2→25", "cell 6"] {
            assert!(text.contains(needle), "{needle} missing from {text}");
        }
    }

    #[test]
    fn a_cycle_is_refused_only_when_jumps_chain() {
        let spec = BoardSpec::with_jumps(30, [(5, 12), (12, 5)]);
        let mut chain = rules();
        chain.jumps = JumpMode::Chain;
        let err = Board::new(&spec, &chain).unwrap_err();
        assert!(matches!(&err.problems[0], BoardProblem::Cycle { cells } if cells.len() == 2));
        assert!(err.to_string().contains("cycle"));
        assert!(Board::new(&spec, &rules()).is_ok());
    }

    #[test]
    fn a_jump_on_the_start_cell_is_refused_only_when_tokens_start_there() {
        let spec = BoardSpec::with_jumps(30, [(1, 12)]);
        assert!(Board::new(&spec, &rules()).is_ok());
        let mut first = rules();
        first.start = Start::FirstCell;
        assert!(Board::new(&spec, &first).unwrap_err().to_string().contains("cell 1"));
    }

    #[test]
    fn a_huge_size_or_width_is_refused_before_any_table_is_built() {
        let spec = BoardSpec { size: u32::MAX, ..BoardSpec::default() };
        let err = Board::new(&spec, &rules()).unwrap_err();
        assert_eq!(err.problems, vec![BoardProblem::TooLarge { size: u32::MAX }]);
        assert!(err.to_string().contains("at most 10000000 cells"), "{err}");
        let spec = BoardSpec { size: 100, width: Some(u32::MAX), ..BoardSpec::default() };
        let err = Board::new(&spec, &rules()).unwrap_err();
        assert_eq!(err.problems, vec![BoardProblem::TooWide { width: u32::MAX, max: 100 }]);
        assert!(err.to_string().contains("width 4294967295"), "{err}");
        let spec = BoardSpec { size: 100, width: Some(100), ..BoardSpec::default() };
        assert!(Board::new(&spec, &rules()).is_ok());
        assert!(
            Board::new(&BoardSpec { size: MAX_CELLS, ..BoardSpec::default() }, &rules()).is_ok()
        );
    }

    #[test]
    fn a_long_chain_settles_to_its_end_and_a_long_cycle_is_found() {
        // 2 → 4 → 6 → … → 2k + 2, one chain through the board.
        let k = 50_000;
        let spec = BoardSpec::with_jumps(2 * k + 4, (0..k).map(|i| (2 * i + 2, 2 * i + 4)));
        let mut chain = rules();
        chain.jumps = JumpMode::Chain;
        let b = Board::new(&spec, &chain).unwrap();
        assert_eq!(b.settle(2, JumpMode::Chain), 2 * k + 2);
        assert_eq!(b.settle(2 * k, JumpMode::Chain), 2 * k + 2);
        assert_eq!(b.settle(2, JumpMode::Single), 4);
        let mut jumps: Vec<(u32, u32)> = (0..k).map(|i| (2 * i + 2, 2 * i + 4)).collect();
        jumps.push((2 * k + 2, 3));
        jumps.push((3, 2));
        let err = Board::new(&BoardSpec::with_jumps(2 * k + 4, jumps), &chain).unwrap_err();
        assert!(
            matches!(&err.problems[0], BoardProblem::Cycle { cells } if cells.len() == k as usize + 2)
        );
    }

    #[test]
    fn many_jumps_on_one_cell_name_it_once() {
        let spec = BoardSpec::with_jumps(1000, (10..900).map(|t| (5, t)));
        let err = Board::new(&spec, &rules()).unwrap_err();
        assert_eq!(err.problems, vec![BoardProblem::SharedStart { cell: 5 }]);
    }

    #[test]
    fn chain_settles_through_every_jump() {
        let spec = BoardSpec::with_jumps(30, [(3, 10), (10, 20), (20, 4)]);
        let b = Board::new(&spec, &rules()).unwrap();
        assert_eq!(b.settle(3, JumpMode::Single), 10);
        assert_eq!(b.settle(3, JumpMode::Chain), 4);
        assert_eq!(b.jump_path(3, JumpMode::Chain).len(), 3);
    }

    #[test]
    fn overshoot_rules_resolve_as_specified() {
        let b = Board::new(&BoardSpec::with_jumps(10, [(8, 3)]), &rules()).unwrap();
        let mut r = rules();
        assert_eq!(b.advance(&r, 8, 4).end, 8);
        r.overshoot = Overshoot::Win;
        assert_eq!(b.advance(&r, 8, 4).end, 10);
        r.overshoot = Overshoot::Bounce;
        assert_eq!(b.advance(&r, 7, 5).landed, 8); // 12 → 10 − 2 = 8, then the snake
        assert_eq!(b.advance(&r, 7, 5).end, 3);
        assert_eq!(Overshoot::Bounce.land(10, 29), Some(9)); // a long roll keeps reflecting: 10 back to 1 then up
    }

    #[test]
    fn layout_is_boustrophedon_from_the_bottom_left() {
        let l = Layout::new(100, 10);
        assert_eq!(l.position(1), (0, 0));
        assert_eq!(l.position(10), (0, 9));
        assert_eq!(l.position(11), (1, 9));
        assert_eq!(l.position(20), (1, 0));
        assert_eq!(l.position(100), (9, 0));
        for c in 1..=100 {
            let (r, col) = l.position(c);
            assert_eq!(l.cell_at(r, col), Some(c));
        }
        assert_eq!(Layout::new(12, 5).cell_at(2, 4), None);
        assert_eq!(default_width(49), 7);
        assert_eq!(default_width(50), 10);
    }

    #[test]
    fn toml_errors_name_the_line() {
        let err = BoardSpec::from_toml("size = 100\n[[snake]]\nhead = 99\ntail = \n").unwrap_err();
        assert_eq!(err.line, 4, "{err}");
        let err = BoardSpec::from_toml("size = 100\ncolour = 3\n").unwrap_err();
        assert_eq!(err.line, 2, "{err}");
        let err = BoardSpec::from_toml("size = 100\nsize = 50\n").unwrap_err();
        assert_eq!(
            (err.line, err.message.as_str()),
            (2, "duplicate key 'size': each key may be given once")
        );
        let err = BoardSpec::from_toml("size = 9\n[[snake]]\nhead = 8\nhead = 7\ntail = 2\n")
            .unwrap_err();
        assert!(err.message.contains("'head'"), "{err}");
    }

    #[test]
    fn toml_errors_name_line_and_column_in_characters_and_no_place_when_there_is_none() {
        let text = "size = 20\n[[snake]]\nhead = 9\ntail = \"ééé\" x\n";
        let err = BoardSpec::from_toml(text).unwrap_err();
        assert_eq!((err.line, err.column), (4, 14), "{err}");
        assert!(err.to_string().starts_with("line 4, column 14: "), "{err}");
        let read = BoardSpec::from_toml_partial("width = 3\n");
        assert_eq!(read.problems[0].to_string(), "missing field `size`");
    }

    #[test]
    fn every_cell_effect_is_found_where_it_is_and_nowhere_else_on_a_long_board() {
        let held = [2, 31, 32, 33, 63, 64, 65, 127, 128, 1000, 4095, 4096, 9998];
        let mut spec = BoardSpec::with_jumps(9999, []);
        spec.cells = held
            .iter()
            .map(|&at| CellSpec { at, effect: "skip".into(), exits: Vec::new() })
            .collect();
        let board = Board::new(&spec, &Rules::default()).unwrap();
        for cell in 0..=10_100 {
            let found = board.effect_at(cell).is_some();
            assert_eq!(found, held.contains(&cell), "cell {cell}");
        }
    }

    #[test]
    fn a_partial_read_keeps_cell_effects_and_lists_only_the_real_problems() {
        let text = "size = 20\n[[cell]]\nat = 3\neffect = \"wormhole\"\nexits = [2, 15]\n\
                    [[cell]]\nat = 5\neffect = 7\nwidth = = 4\n";
        let read = BoardSpec::from_toml_partial(text);
        let said: Vec<String> = read.problems.iter().map(ToString::to_string).collect();
        assert!(said.iter().all(|p| !p.contains("unknown field `cell`")), "{said:?}");
        assert_eq!(read.spec.cells.len(), 1, "{said:?}");
        assert_eq!(read.spec.cells[0].exits, [2, 15]);
        assert!(said.iter().any(|p| p.starts_with("line 9, column 9: ")), "{said:?}");
    }

    #[test]
    fn a_partial_read_lists_every_toml_problem_and_keeps_the_good_parts() {
        let text = "size = 30\ncolour = 3\n[[snake]]\nhead = 9\ntail = 'x'\n\
                    [[snake]]\nhead = 8\ntail = 20\n[[ladder]]\nfoot = 2\ntop = 9\n";
        let read = BoardSpec::from_toml_partial(text);
        let lines: Vec<usize> = read.problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [2, 5], "{:?}", read.problems);
        assert!(read.problems[0].message.contains("colour"), "{:?}", read.problems);
        assert_eq!(read.spec.size, 30);
        assert_eq!(read.spec.snakes, [SnakeSpec { head: 8, tail: 20 }]);
        assert_eq!(read.spec.ladders, [LadderSpec { foot: 2, top: 9 }]);
        // The board's own problem is there to be found beside them.
        let err = Board::new(&read.spec, &rules()).unwrap_err();
        assert_eq!(err.problems, [BoardProblem::SnakeNotDown { jump: Jump { from: 8, to: 20 } }]);

        let read = BoardSpec::from_toml_partial("width = 'a'\nsize = 'b'\n[x\n");
        assert!(!read.size_read);
        let lines: Vec<usize> = read.problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [1, 2, 3, 3], "{:?}", read.problems);
        assert_eq!(
            read.problems[1].message,
            "size: invalid type: string \"b\", expected a whole number"
        );
        let read = BoardSpec::from_toml_partial("width = 5\n");
        assert_eq!(read.problems.len(), 1);
        assert!(read.problems[0].message.contains("size"), "{:?}", read.problems);
    }

    #[test]
    fn reach_knows_that_max_bonus_1_with_void_never_moves_a_top_face() {
        // 1d2 on 6 cells with a snake on 3: only 1-steps move, and 3 sends the token back.
        let b = Board::new(&BoardSpec::with_jumps(6, [(3, 1)]), &rules()).unwrap();
        let mut r = rules();
        r.dice = "1d2".parse().unwrap();
        assert!(b.reach(&r).finish_reachable);
        r.bonus = Bonus::TopFace;
        r.max_bonus = "1".parse().unwrap();
        r.on_max = OnMax::Void;
        assert!(!b.reach(&r).finish_reachable);
    }

    #[test]
    fn reach_finds_unreachable_and_trapped_positions() {
        // Every landing 4..=9 is a snake back to 2, so 10 is out of reach.
        let jumps = (4..=9).map(|c| (c, 2));
        let b = Board::new(&BoardSpec::with_jumps(10, jumps), &rules()).unwrap();
        let reach = b.reach(&rules());
        assert!(!reach.finish_reachable);
        assert!(reach.trapped.contains(&0));
    }
}
