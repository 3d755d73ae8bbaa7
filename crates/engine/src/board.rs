//! Boards: a spec (plain data, maybe invalid) becomes a [`Board`] only through [`Board::new`],
//! whose error lists every problem.
//!
//! (Long because the spec, its problems, the board, its layout and their tests belong together.)

use std::{collections::VecDeque, fmt};

use serde::{Deserialize, Serialize};

use crate::{
    effects::{self, CellEffect, CellSpec, Effect},
    rules::{Bonus, Choice, JumpMode, OnMax, RuleSpec, Rules, Start},
};

/// The most cells a board may have: every board table is a few bytes per cell, so ten million
/// cells stay within a few hundred megabytes for any command.
pub const MAX_CELLS: u32 = 10_000_000;

/// The longest board file (or standard input) that is read, in bytes: room for a jump on every
/// one of a million cells.
pub const MAX_BOARD_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// A board as written by a person or a file: not necessarily valid.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardSpec {
    /// Number of cells, N.
    pub size: u32,
    /// Cells per row when drawn; default √N when N is a square, else 10.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    /// Snakes, head → tail.
    #[serde(default, rename = "snake", skip_serializing_if = "Vec::is_empty")]
    pub snakes: Vec<SnakeSpec>,
    /// Ladders, foot → top.
    #[serde(default, rename = "ladder", skip_serializing_if = "Vec::is_empty")]
    pub ladders: Vec<LadderSpec>,
    /// Cell effects (SPEC §3b): `[[cell]] at = 30, effect = "skip"`.
    #[serde(default, rename = "cell", skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<CellSpec>,
    /// House rules that come with the board.
    #[serde(default, skip_serializing_if = "RuleSpec::is_empty")]
    pub rules: RuleSpec,
}

/// A snake as written: `head = 99, tail = 54`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SnakeSpec {
    /// Where it starts (the higher cell).
    pub head: u32,
    /// Where it leaves the token.
    pub tail: u32,
}

/// A ladder as written: `foot = 6, top = 25`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LadderSpec {
    /// Where it starts (the lower cell).
    pub foot: u32,
    /// Where it leaves the token.
    pub top: u32,
}

impl BoardSpec {
    /// A spec with these jumps: each `(from, to)` is a snake when `to < from`, else a ladder.
    pub fn with_jumps(size: u32, jumps: impl IntoIterator<Item = (u32, u32)>) -> BoardSpec {
        let mut spec = BoardSpec { size, ..BoardSpec::default() };
        for (from, to) in jumps {
            if to < from {
                spec.snakes.push(SnakeSpec { head: from, tail: to });
            } else {
                spec.ladders.push(LadderSpec { foot: from, top: to });
            }
        }
        spec
    }

    /// Reads a TOML board file's text.
    ///
    /// # Errors
    ///
    /// [`ParseBoardError`] with the line and column of the first problem.
    pub fn from_toml(text: &str) -> Result<BoardSpec, ParseBoardError> {
        toml::from_str(text).map_err(|e| describe(text, &e))
    }

    /// Reads as much of a board file as is well formed, with every TOML problem found (not only
    /// the first): a syntax error, a key that is not a board's, a value of the wrong kind. The
    /// spec holds the parts that were read, so that [`Board::new`] can list the board's own
    /// problems beside these.
    ///
    /// ```
    /// use snl_engine::BoardSpec;
    /// let read = BoardSpec::from_toml_partial(
    ///     "size = 20\ncolour = 3\n[[snake]]\nhead = 8\ntail = 'x'\n[[ladder]]\nfoot = 2\ntop = 30\n",
    /// );
    /// assert_eq!(read.problems.len(), 2); // colour, and the snake's tail
    /// assert_eq!(read.spec.size, 20);
    /// assert_eq!(read.spec.ladders.len(), 1); // kept for validation: its top is off the board
    /// assert!(read.size_read);
    /// ```
    pub fn from_toml_partial(text: &str) -> PartialBoard {
        use toml::de::{DeTable, DeValue};
        let (root, errors) = DeTable::parse_recoverable(text);
        let mut problems: Vec<ParseBoardError> = errors.iter().map(|e| describe(text, e)).collect();
        let mut spec = BoardSpec::default();
        let mut size_read = false;
        // Each top-level entry is read alone, and each snake or ladder alone, so that one bad
        // part does not hide the others.
        let mut read_one = |key: &toml::Spanned<toml::de::DeString<'_>>,
                            value: toml::Spanned<DeValue<'_>>,
                            problems: &mut Vec<ParseBoardError>| {
            let mut one = DeTable::new();
            one.insert(key.clone(), value);
            let table = toml::Spanned::new(key.span(), one);
            match Loose::deserialize(toml::de::Deserializer::from(table)) {
                Ok(part) => {
                    if let Some(size) = part.size {
                        spec.size = size;
                        size_read = true;
                    }
                    spec.width = part.width.or(spec.width);
                    spec.snakes.extend(part.snakes);
                    spec.ladders.extend(part.ladders);
                    if let Some(rules) = part.rules {
                        spec.rules = rules;
                    }
                }
                Err(e) => {
                    let mut problem = describe(text, &e);
                    if !problem.message.starts_with("unknown field") {
                        problem.message = format!("{}: {}", key.get_ref(), problem.message);
                    }
                    problems.push(problem);
                }
            }
        };
        for (key, value) in root.get_ref() {
            match value.get_ref() {
                DeValue::Array(items) if matches!(key.get_ref().as_ref(), "snake" | "ladder") => {
                    for item in items {
                        let mut one = toml::de::DeArray::new();
                        one.push(item.clone());
                        read_one(
                            key,
                            toml::Spanned::new(item.span(), DeValue::Array(one)),
                            &mut problems,
                        );
                    }
                }
                _ => read_one(key, value.clone(), &mut problems),
            }
        }
        if !root.get_ref().keys().any(|k| k.get_ref() == "size") {
            problems.push(ParseBoardError {
                line: 0,
                column: 0,
                message: "missing field `size`".to_owned(),
            });
        }
        problems.sort_by_key(|p| (p.line, p.column));
        PartialBoard { spec, problems, size_read }
    }

    /// Writes the spec as a TOML board file.
    ///
    /// # Panics
    ///
    /// Never: every spec has a TOML form.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a board spec is always representable in TOML")
    }
}

/// Everything of a board file that could be read: see [`BoardSpec::from_toml_partial`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartialBoard {
    /// The well-formed parts (a missing or bad size is 0).
    pub spec: BoardSpec,
    /// Every TOML problem, in the order of the file.
    pub problems: Vec<ParseBoardError>,
    /// Whether `size` was read (when not, the board's own "too small" would only repeat it).
    pub size_read: bool,
}

/// One top-level entry of a board file, every key optional (see `from_toml_partial`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Loose {
    size: Option<u32>,
    width: Option<u32>,
    #[serde(default, rename = "snake")]
    snakes: Vec<SnakeSpec>,
    #[serde(default, rename = "ladder")]
    ladders: Vec<LadderSpec>,
    rules: Option<RuleSpec>,
}

/// A TOML error as a line, a column and a message that names a duplicate key.
fn describe(text: &str, e: &toml::de::Error) -> ParseBoardError {
    let (line, column) = e.span().map_or((0, 0), |span| line_column(text, span.start));
    let mut message = e.message().trim_end().replace("expected u32", "expected a whole number");
    // The parser says only "duplicate key"; the key is the text at the error's span.
    if message == "duplicate key"
        && let Some(key) = e.span().and_then(|span| text.get(span)).map(str::trim)
        && !key.is_empty()
    {
        message = format!("duplicate key '{key}': each key may be given once");
    }
    ParseBoardError { line, column, message }
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, column)
}

/// A board file that is not valid TOML or not shaped like a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct ParseBoardError {
    /// 1-based line (0 when unknown).
    pub line: usize,
    /// 1-based column (0 when unknown).
    pub column: usize,
    /// What the parser said.
    pub message: String,
}

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
                "cell {at} has an unknown effect '{name}': expected one of skip, extra, shield, \
                 wormhole"
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
        Ok(Board { size, width, jumps, dest, settled, effects })
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
        Layout { size: self.size, width: self.width }
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

    /// Which positions a token can rest on from the start, and which of those can still reach N.
    ///
    /// This looks at single rolls only: bonus rules never make a cell reachable that single rolls
    /// cannot, choices only add staying put, and a top-face roll counts unless max-bonus 1 with
    /// on-max void undoes every one of them.
    pub fn reach(&self, rules: &Rules) -> Reach {
        let n = self.size as usize;
        // Under max-bonus 1 with on-max void, every top-face roll voids its turn: it never moves.
        let top_voids = rules.bonus == Bonus::TopFace
            && rules.max_bonus.limit() == Some(1)
            && rules.on_max == OnMax::Void;
        let top = match rules.choice {
            Choice::PickDie => rules.dice.faces(),
            _ => rules.dice.top_total(),
        };
        let steps: Vec<u32> = rules.step_values().filter(|&s| !(top_voids && s == top)).collect();
        if self.has_effects() {
            return self.reach_with_effects(rules, &steps);
        }
        let start = rules.start_position() as usize;
        let mut reachable = vec![false; n + 1];
        reachable[start] = true;
        let mut queue = VecDeque::from([start]);
        let mut edges: Vec<Vec<u32>> = vec![Vec::new(); n + 1];
        while let Some(p) = queue.pop_front() {
            if p == n {
                continue;
            }
            for &s in &steps {
                let q = self.advance(rules, p as u32, s).end as usize;
                edges[q].push(p as u32);
                if !reachable[q] {
                    reachable[q] = true;
                    queue.push_back(q);
                }
            }
        }
        let mut can_finish = vec![false; n + 1];
        can_finish[n] = true;
        let mut queue = VecDeque::from([n]);
        while let Some(q) = queue.pop_front() {
            for &p in &edges[q] {
                if !can_finish[p as usize] {
                    can_finish[p as usize] = true;
                    queue.push_back(p as usize);
                }
            }
        }
        let trapped =
            (0..=n).filter(|&c| reachable[c] && !can_finish[c]).map(|c| c as u32).collect();
        Reach { finish_reachable: reachable[n], trapped }
    }

    /// [`Board::reach`] on a board with effects: a state is a cell and whether the player holds
    /// a shield (which lets a token rest on a snake's head), and a wormhole leads to every exit.
    fn reach_with_effects(&self, rules: &Rules, steps: &[u32]) -> Reach {
        let n = self.size as usize;
        let states = 2 * (n + 1);
        let index = |cell: u32, shield: bool| 2 * cell as usize + usize::from(shield);
        let start = index(rules.start_position(), false);
        let mut reachable = vec![false; states];
        reachable[start] = true;
        let mut queue = VecDeque::from([start]);
        let mut edges: Vec<Vec<u32>> = vec![Vec::new(); states];
        while let Some(p) = queue.pop_front() {
            let (cell, shield) = ((p / 2) as u32, p % 2 == 1);
            if cell as usize == n {
                continue;
            }
            for &s in steps {
                for way in self.outcomes(rules, cell, s, shield) {
                    let q = index(way.to, way.shield);
                    edges[q].push(p as u32);
                    if !reachable[q] {
                        reachable[q] = true;
                        queue.push_back(q);
                    }
                }
            }
        }
        let mut can_finish = vec![false; states];
        let mut queue = VecDeque::new();
        for shield in [false, true] {
            can_finish[index(self.size, shield)] = true;
            queue.push_back(index(self.size, shield));
        }
        while let Some(q) = queue.pop_front() {
            for &p in &edges[q] {
                if !can_finish[p as usize] {
                    can_finish[p as usize] = true;
                    queue.push_back(p as usize);
                }
            }
        }
        let mut trapped: Vec<u32> = (0..states)
            .filter(|&c| reachable[c] && !can_finish[c])
            .map(|c| (c / 2) as u32)
            .collect();
        trapped.dedup();
        let finish_reachable =
            reachable[index(self.size, false)] || reachable[index(self.size, true)];
        Reach { finish_reachable, trapped }
    }
}

/// The answer of [`Board::reach`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Whether cell N can be reached from the start.
    pub finish_reachable: bool,
    /// Positions reachable from the start from which N can never be reached.
    pub trapped: Vec<u32>,
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

/// √N when N is a perfect square, else 10.
pub fn default_width(size: u32) -> u32 {
    let root = f64::from(size).sqrt().round() as u32;
    if root * root == size && root > 0 { root } else { 10.min(size.max(1)) }
}

/// Where cells are drawn: boustrophedon from the bottom-left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    size: u32,
    width: u32,
}

impl Layout {
    /// A layout of `size` cells, `width` to a row.
    ///
    /// # Panics
    ///
    /// Panics if `width` is 0.
    pub fn new(size: u32, width: u32) -> Layout {
        assert!(width > 0, "a row holds at least one cell");
        Layout { size, width }
    }

    /// Number of rows.
    pub fn rows(&self) -> u32 {
        self.size.div_ceil(self.width)
    }

    /// Cells per row.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// `(row, column)` of `cell`, row 0 at the bottom, column 0 at the left.
    pub fn position(&self, cell: u32) -> (u32, u32) {
        let i = cell - 1;
        let row = i / self.width;
        let along = i % self.width;
        let column = if row.is_multiple_of(2) { along } else { self.width - 1 - along };
        (row, column)
    }

    /// The cell at `(row, column)`, if that place holds one.
    pub fn cell_at(&self, row: u32, column: u32) -> Option<u32> {
        if column >= self.width {
            return None;
        }
        let along = if row.is_multiple_of(2) { column } else { self.width - 1 - column };
        let cell = row * self.width + along + 1;
        (cell <= self.size).then_some(cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Overshoot;

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
