//! A board as written: [`BoardSpec`] (plain data, maybe invalid) and its TOML form, read whole
//! ([`BoardSpec::from_toml`]) or in part, every problem listed ([`BoardSpec::from_toml_partial`]).

use serde::{Deserialize, Serialize};

use crate::rules::RuleSpec;

/// The longest board file (or standard input) that is read, in bytes: room for a jump on every
/// one of a million cells.
pub const MAX_BOARD_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// The most values (counted as the `=`, `,` and `[` in the file, which bound them from above) a
/// board file may hold: a snake or ladder written as a `[[snake]]` table counts 4, so 500,000
/// jumps fit (a 20 MB file, validated in under 1 GB). The TOML reader keeps every value it reads
/// with its span and table, so this, not the file's length, bounds its memory: a 64 MiB file of
/// one long array held 33 million values and took 5 GB before it was refused up front, in 70 MB
/// (issue 29).
pub const MAX_BOARD_FILE_VALUES: usize = 2_000_000;

/// The values `text` may hold at most (see [`MAX_BOARD_FILE_VALUES`]), counted without parsing.
fn values_bound(text: &str) -> usize {
    text.bytes().filter(|&b| matches!(b, b'=' | b',' | b'[')).count()
}

/// The problem of a file with too many values to read, if it is one.
fn too_many_values(text: &str) -> Option<ParseBoardError> {
    let values = values_bound(text);
    (values > MAX_BOARD_FILE_VALUES).then(|| ParseBoardError {
        line: 0,
        column: 0,
        message: format!(
            "it holds up to {values} values (its '=', ',' and '[' counted), more than the \
             {MAX_BOARD_FILE_VALUES} a board file may hold"
        ),
    })
}

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
        if let Some(problem) = too_many_values(text) {
            return Err(problem);
        }
        toml::from_str(text).map_err(|e| describe(&Lines::of(text), &e))
    }

    /// Reads as much of a board file as is well formed, with every TOML problem found (not only
    /// the first): a syntax error, a key that is not a board's, a value of the wrong kind. The
    /// spec holds the parts that were read, so that [`crate::Board::new`] can list the board's own
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
        if let Some(problem) = too_many_values(text) {
            return PartialBoard {
                spec: BoardSpec::default(),
                problems: vec![problem],
                size_read: false,
            };
        }
        let (root, errors) = DeTable::parse_recoverable(text);
        // Indexed once: each problem's line and column is then found without reading the file
        // from its start (20,000 unknown keys took 11 s that way, issue 29).
        let lines = Lines::of(text);
        let mut problems: Vec<ParseBoardError> =
            errors.iter().map(|e| describe(&lines, e)).collect();
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
                    spec.cells.extend(part.cells);
                    if let Some(rules) = part.rules {
                        spec.rules = rules;
                    }
                }
                Err(e) => {
                    let mut problem = describe(&lines, &e);
                    if !problem.message.starts_with("unknown field") {
                        problem.message = format!("{}: {}", key.get_ref(), problem.message);
                    }
                    problems.push(problem);
                }
            }
        };
        for (key, value) in root.get_ref() {
            match value.get_ref() {
                DeValue::Array(items)
                    if matches!(key.get_ref().as_ref(), "snake" | "ladder" | "cell") =>
                {
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

    /// The cells written as wormholes: a jump out of one of them is the wormhole's, neither a
    /// snake nor a ladder, whichever way its drawn exit goes.
    pub fn wormholes(&self) -> Vec<u32> {
        self.cells.iter().filter(|c| c.effect.trim() == "wormhole").map(|c| c.at).collect()
    }
}

/// "line L, column C: " for a place in the file; nothing for line 0, which is none.
fn place(line: usize, column: usize) -> String {
    if line == 0 { String::new() } else { format!("line {line}, column {column}: ") }
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
    #[serde(default, rename = "cell")]
    cells: Vec<CellSpec>,
    rules: Option<RuleSpec>,
}

/// A TOML error as a line, a column and a message that names a duplicate key.
fn describe(lines: &Lines<'_>, e: &toml::de::Error) -> ParseBoardError {
    let (line, column) = e.span().map_or((0, 0), |span| lines.line_column(span.start));
    let mut message = e.message().trim_end().replace("expected u32", "expected a whole number");
    // The parser says only "duplicate key"; the key is the text at the error's span.
    let key = e.span().and_then(|span| lines.text.get(span)).map(str::trim).unwrap_or_default();
    if message == "duplicate key" && !key.is_empty() {
        message = format!("duplicate key '{}': each key may be given once", crate::seat::cut(key));
    }
    ParseBoardError { line, column, message: cut_quoted(&message) }
}

/// `message` with each value it quotes (between backticks or double quotes) cut to 40
/// characters: the parser and serde quote a key or value whole, however long.
fn cut_quoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(400));
    let mut rest = message;
    while let Some(open) = rest.find(['`', '"']) {
        let quote = rest[open..].chars().next().unwrap_or('"');
        out.push_str(&rest[..=open]);
        rest = &rest[open + 1..];
        // The closing quote: not one escaped inside (serde writes `\"` in a quoted string).
        let bytes = rest.as_bytes();
        let close =
            rest.match_indices(quote).map(|(i, _)| i).find(|&i| i == 0 || bytes[i - 1] != b'\\');
        let Some(close) = close else { break };
        out.push_str(&crate::seat::cut(&rest[..close]));
        out.push(quote);
        rest = &rest[close + 1..];
    }
    out.push_str(&crate::seat::cut_to(rest, 200));
    out
}

/// A text indexed for places: where each line starts, and how many characters come before
/// every [`Lines::STRIDE`]-th byte, so that a place is found in a few steps whatever the file's
/// size and however many problems it has (reading the text from its start for each problem was
/// quadratic).
struct Lines<'a> {
    text: &'a str,
    /// The byte where each line starts (line 1 at 0).
    starts: Vec<usize>,
    /// The byte at the char boundary at or just before `k · STRIDE`, and the characters before it.
    chars_at: Vec<(usize, usize)>,
}

impl<'a> Lines<'a> {
    const STRIDE: usize = 4096;

    fn of(text: &'a str) -> Lines<'a> {
        let mut starts = vec![0];
        starts.extend(text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i + 1));
        let mut chars_at = vec![(0, 0)];
        let (mut at, mut chars) = (0, 0);
        for k in 1..=text.len() / Self::STRIDE {
            let mut next = k * Self::STRIDE;
            while !text.is_char_boundary(next) {
                next -= 1;
            }
            chars += text[at..next].chars().count();
            at = next;
            chars_at.push((at, chars));
        }
        Lines { text, starts, chars_at }
    }

    /// The characters before byte `offset` (a char boundary).
    fn chars_before(&self, offset: usize) -> usize {
        // Entry k is at most 3 bytes before k · STRIDE, so never past `offset`.
        let (at, chars) = self.chars_at[(offset / Self::STRIDE).min(self.chars_at.len() - 1)];
        chars + self.text[at..offset].chars().count()
    }

    /// The 1-based line and column of byte `offset`, the column counted in characters as an
    /// editor counts them (not bytes: "ü" is one column).
    fn line_column(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&start| start <= offset);
        let start = self.starts[line - 1];
        (line, self.chars_before(offset) - self.chars_before(start) + 1)
    }
}

/// A board file that is not valid TOML or not shaped like a board: "line L, column C: what",
/// or only what when it has no place in the file (a key that is missing).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", place(*line, *column))]
pub struct ParseBoardError {
    /// 1-based line (0 when unknown).
    pub line: usize,
    /// 1-based column (0 when unknown).
    pub column: usize,
    /// What the parser said.
    pub message: String,
}

/// An effect as written: `[[cell]] at = 30, effect = "wormhole", exits = [3, 48, 81]`. The name
/// stays text until [`crate::Board::new`] checks it, so an unknown name is listed with every other
/// problem of the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellSpec {
    /// The cell.
    pub at: u32,
    /// `skip`, `extra`, `shield` or `wormhole`.
    pub effect: String,
    /// A wormhole's exits (none for the other effects).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exits: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::Lines;

    /// Line and column read from the start of the text, as the index must answer.
    fn by_reading(text: &str, offset: usize) -> (usize, usize) {
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let column = before[before.rfind('\n').map_or(0, |i| i + 1)..].chars().count() + 1;
        (line, column)
    }

    #[test]
    fn the_line_index_finds_every_place_as_reading_from_the_start_does() {
        // Lines long and short, multi-byte characters across the index's strides.
        let mut text = String::new();
        for i in 0..3000 {
            text.push_str(&"ü€a𝄞".repeat(i % 7));
            text.push_str(&"x".repeat((i * 37) % 5000));
            text.push('\n');
        }
        let lines = Lines::of(&text);
        let places = (0..=text.len()).step_by(997).chain([0, text.len()]);
        for offset in places.filter(|&o| text.is_char_boundary(o)) {
            assert_eq!(lines.line_column(offset), by_reading(&text, offset), "byte {offset}");
        }
        assert_eq!(Lines::of("").line_column(0), (1, 1));
    }
}
