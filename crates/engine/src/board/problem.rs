//! Why a board spec is not a board: one [`BoardProblem`] per reason, all of them in a
//! [`BoardError`].

use std::fmt;

use super::{Jump, MAX_CELLS};

/// One reason a board spec is not a valid board.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BoardProblem {
    /// N < 2.
    TooSmall {
        /// The size given.
        size: u32,
    },
    /// Width 0.
    ZeroWidth,
    /// N > [`MAX_CELLS`].
    TooLarge {
        /// The size given.
        size: u32,
    },
    /// A width larger than the board (or than [`MAX_CELLS`]).
    TooWide {
        /// The width given.
        width: u32,
        /// The most it may be.
        max: u32,
    },
    /// A start or end outside `1..=N`.
    OffBoard {
        /// The jump as written.
        jump: Jump,
        /// Whether it was written as a snake.
        snake: bool,
        /// N.
        size: u32,
    },
    /// A snake whose tail is not below its head.
    SnakeNotDown {
        /// The snake.
        jump: Jump,
    },
    /// A ladder whose top is not above its foot.
    LadderNotUp {
        /// The ladder.
        jump: Jump,
    },
    /// Two jumps start on one cell.
    SharedStart {
        /// The cell.
        cell: u32,
    },
    /// A jump starts on the last cell.
    StartsOnLast {
        /// The jump.
        jump: Jump,
    },
    /// A jump starts on the start cell (start = first-cell).
    StartsOnStart {
        /// The jump.
        jump: Jump,
    },
    /// With chained jumps, following jumps (and any wormhole exit) from `cells[0]` comes back to
    /// it.
    Cycle {
        /// The cells of the cycle, in order.
        cells: Vec<u32>,
    },
    /// An effect name that is not `skip`, `extra`, `shield` or `wormhole`.
    UnknownEffect {
        /// The cell.
        at: u32,
        /// The name as written.
        name: String,
    },
    /// An effect on a cell outside `1..=N`.
    EffectOffBoard {
        /// The cell.
        at: u32,
        /// The effect.
        effect: &'static str,
        /// N.
        size: u32,
    },
    /// An effect on cell N.
    EffectOnLast {
        /// The cell.
        at: u32,
        /// The effect.
        effect: &'static str,
    },
    /// An effect on the start cell (start = first-cell).
    EffectOnStart {
        /// The cell.
        at: u32,
        /// The effect.
        effect: &'static str,
    },
    /// An effect on a cell where a jump starts.
    EffectOnJump {
        /// The cell.
        at: u32,
        /// The effect.
        effect: &'static str,
        /// The jump starting there.
        jump: Jump,
    },
    /// Two effects on one cell.
    SharedEffect {
        /// The cell.
        at: u32,
    },
    /// A wormhole without exits.
    NoExits {
        /// The wormhole's cell.
        at: u32,
    },
    /// A wormhole exit outside `1..=N`.
    ExitOffBoard {
        /// The wormhole's cell.
        at: u32,
        /// The exit.
        exit: u32,
        /// N.
        size: u32,
    },
    /// A wormhole exit on the wormhole itself.
    ExitOnItself {
        /// The wormhole's cell.
        at: u32,
    },
    /// A wormhole exit listed twice.
    RepeatedExit {
        /// The wormhole's cell.
        at: u32,
        /// The exit.
        exit: u32,
    },
    /// `exits` given for an effect that is not a wormhole.
    ExitsNotWormhole {
        /// The cell.
        at: u32,
        /// The effect.
        effect: &'static str,
    },
}

impl fmt::Display for BoardProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = |snake: bool| if snake { "snake" } else { "ladder" };
        match self {
            BoardProblem::TooSmall { size } => {
                write!(f, "size {size} is too small: a board needs at least 2 cells")
            }
            BoardProblem::ZeroWidth => f.write_str("width 0 is not allowed: use 1 or more"),
            BoardProblem::TooLarge { size } => {
                write!(f, "size {size} is too large: a board has at most {MAX_CELLS} cells")
            }
            BoardProblem::TooWide { width, max } => {
                write!(f, "width {width} is too large: use at most {max}, the number of cells")
            }
            BoardProblem::OffBoard { jump, snake, size } => write!(
                f,
                "{} {}→{} leaves the board: both ends must be cells 1 to {size}",
                kind(*snake),
                jump.from,
                jump.to
            ),
            BoardProblem::SnakeNotDown { jump } => write!(
                f,
                "snake {}→{} does not go down: a snake's tail must be below its head",
                jump.from, jump.to
            ),
            BoardProblem::LadderNotUp { jump } => write!(
                f,
                "ladder {}→{} does not go up: a ladder's top must be above its foot",
                jump.from, jump.to
            ),
            BoardProblem::SharedStart { cell } => {
                write!(f, "two jumps start on cell {cell}: a cell may start one jump at most")
            }
            BoardProblem::StartsOnLast { jump } => {
                write!(f, "{jump} starts on the last cell: no jump may start on cell {}", jump.from)
            }
            BoardProblem::StartsOnStart { jump } => {
                write!(f, "{jump} starts on cell 1, where tokens start under start = first-cell")
            }
            BoardProblem::Cycle { cells } => {
                let path: Vec<String> = cells.iter().map(u32::to_string).collect();
                write!(
                    f,
                    "jumps {}→{} form a cycle, which chained jumps would follow forever",
                    path.join("→"),
                    cells[0]
                )
            }
            BoardProblem::UnknownEffect { at, name } => write!(
                f,
                "cell {at} has an unknown effect '{}': expected one of skip, extra, shield, \
                 wormhole",
                crate::seat::cut(name)
            ),
            BoardProblem::EffectOffBoard { at, effect, size } => {
                write!(f, "{effect} cell {at} is not on the board: use cells 1 to {size}")
            }
            BoardProblem::EffectOnLast { at, effect } => {
                write!(f, "{effect} cell {at} is the last cell: no effect may sit on cell {at}")
            }
            BoardProblem::EffectOnStart { at, effect } => {
                write!(f, "{effect} cell {at} is where tokens start under start = first-cell")
            }
            BoardProblem::EffectOnJump { at, effect, jump } => write!(
                f,
                "{effect} cell {at} is the start of {jump}: a cell holds a jump start or an effect, \
                 not both"
            ),
            BoardProblem::SharedEffect { at } => {
                write!(f, "two effects on cell {at}: a cell may hold one effect at most")
            }
            BoardProblem::NoExits { at } => {
                write!(f, "wormhole {at} has no exits: give exits = [cell, ...]")
            }
            BoardProblem::ExitOffBoard { at, exit, size } => write!(
                f,
                "wormhole {at} has exit {exit}, which is not on the board: use cells 1 to {size}"
            ),
            BoardProblem::ExitOnItself { at } => {
                write!(f, "wormhole {at} has itself as an exit: an exit must be another cell")
            }
            BoardProblem::RepeatedExit { at, exit } => {
                write!(f, "wormhole {at} lists exit {exit} twice: give each exit once")
            }
            BoardProblem::ExitsNotWormhole { at, effect } => {
                write!(f, "{effect} cell {at} has exits: only a wormhole has exits")
            }
        }
    }
}

/// Every problem found in a board spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardError {
    /// The problems, in the order found.
    pub problems: Vec<BoardProblem>,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.problems.as_slice() {
            [one] => write!(f, "invalid board: {one}"),
            many => {
                write!(f, "invalid board, {} problems:", many.len())?;
                for p in many {
                    write!(f, "\n  - {p}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for BoardError {}
