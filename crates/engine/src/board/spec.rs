//! A board as written: [`BoardSpec`] (plain data, maybe invalid) and its TOML form, read whole
//! ([`BoardSpec::from_toml`]) or in part, every problem listed ([`BoardSpec::from_toml_partial`]).

use serde::{Deserialize, Serialize};

use super::parts::{Parts, REPEATED};
use crate::rules::RuleSpec;

/// The longest board file (or standard input) that is read, in bytes: room for a jump on every
/// one of a million cells.
pub const MAX_BOARD_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// The most TOML tokens (values, punctuation, line ends, runs of spaces, comments) one part of
/// a board file may hold: its `[[snake]]`, `[[ladder]]` and `[[cell]]` tables are read a batch
/// of 1,024 at a time, the rest of the file at once, and the TOML reader keeps every token of
/// what it reads with its place (about 75 bytes a token), so this bounds its memory to about
/// 150 MB, whatever the file's length (issue 29). Any number of jumps written as tables fits (a
/// table holds 18); a wormhole's `exits` list, or jumps written in one inline array, hold about
/// 2 tokens a number.
pub const MAX_BOARD_FILE_TOKENS: usize = 2_000_000;

/// The problem of a file with a part of too many tokens to read, if it is one (`whole`: when the
/// file is read whole).
fn too_many_tokens(parts: &Parts<'_>, whole: bool) -> Option<ParseBoardError> {
    let tokens = if whole { parts.tokens } else { parts.most_tokens };
    (tokens > MAX_BOARD_FILE_TOKENS).then(|| ParseBoardError {
        line: 0,
        column: 0,
        message: format!(
            "it holds {tokens} TOML tokens (values, punctuation, line ends) in one part (a \
             [[snake]], [[ladder]] or [[cell]] table, or the rest), more than the \
             {MAX_BOARD_FILE_TOKENS} one part may hold"
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

    /// Reads a TOML board file's text, in parts (see `parts.rs`): its `[[snake]]`, `[[ladder]]`
    /// and `[[cell]]` tables a batch at a time, so that the memory it takes is the text's and
    /// the board's, not the TOML reader's for the whole file.
    ///
    /// # Errors
    ///
    /// [`ParseBoardError`] with the line and column of the first problem found.
    pub fn from_toml(text: &str) -> Result<BoardSpec, ParseBoardError> {
        use toml::de::DeTable;
        let parts = Parts::of(text);
        if let Some(problem) = too_many_tokens(&parts, false) {
            return Err(problem);
        }
        let fail = |e: &toml::de::Error, place: &dyn Fn(usize) -> usize| {
            describe(&Lines::of(text), e, place)
        };
        let in_rest = |o| parts.in_file(o);
        let root = DeTable::parse(&parts.rest).map_err(|e| fail(&e, &in_rest))?;
        if parts.names_repeated(root.get_ref().keys().map(|k| k.get_ref().as_ref())) {
            if let Some(problem) = too_many_tokens(&parts, true) {
                return Err(problem);
            }
            return toml::from_str(text).map_err(|e| fail(&e, &|o| o));
        }
        let mut spec = BoardSpec::deserialize(toml::de::Deserializer::from(root))
            .map_err(|e| fail(&e, &in_rest))?;
        for batch in &parts.batches {
            let part: Loose =
                toml::from_str(&text[batch.clone()]).map_err(|e| fail(&e, &|o| o + batch.start))?;
            spec.snakes.extend(part.snakes);
            spec.ladders.extend(part.ladders);
            spec.cells.extend(part.cells);
        }
        Ok(spec)
    }

    /// Reads as much of a board file as is well formed, with every TOML problem found (not only
    /// the first): a syntax error, a key that is not a board's, a value of the wrong kind. The
    /// spec holds the parts that were read, so that [`crate::Board::new`] can list the board's own
    /// problems beside these. Read in parts, as [`BoardSpec::from_toml`] reads.
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
        use toml::de::DeTable;
        let mut read =
            PartialBoard { spec: BoardSpec::default(), problems: Vec::new(), size_read: false };
        let parts = Parts::of(text);
        if let Some(problem) = too_many_tokens(&parts, false) {
            read.problems.push(problem);
            return read;
        }
        // Indexed once: each problem's line and column is then found without reading the file
        // from its start (20,000 unknown keys took 11 s that way, issue 29).
        let lines = Lines::of(text);
        let (root, errors) = DeTable::parse_recoverable(&parts.rest);
        let whole = parts.names_repeated(root.get_ref().keys().map(|k| k.get_ref().as_ref()));
        let in_rest = |o| parts.in_file(o);
        let parsed: Vec<(_, &dyn Fn(usize) -> usize)> = if whole {
            if let Some(problem) = too_many_tokens(&parts, true) {
                read.problems.push(problem);
                return read;
            }
            vec![(DeTable::parse_recoverable(text), &|o| o)]
        } else {
            vec![((root, errors), &in_rest)]
        };
        for ((root, errors), place) in parsed {
            read.problems.extend(errors.iter().map(|e| describe(&lines, e, place)));
            if !root.get_ref().keys().any(|k| k.get_ref() == "size") {
                read.problems.push(ParseBoardError {
                    line: 0,
                    column: 0,
                    message: "missing field `size`".to_owned(),
                });
            }
            read_entries(root, &lines, place, &mut read);
        }
        if !whole {
            for batch in &parts.batches {
                let (root, errors) = DeTable::parse_recoverable(&text[batch.clone()]);
                let place = |o| o + batch.start;
                read.problems.extend(errors.iter().map(|e| describe(&lines, e, &place)));
                read_entries(root, &lines, &place, &mut read);
            }
        }
        read.problems.sort_by_key(|p| (p.line, p.column));
        read
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

/// Reads each top-level entry of a part of a board file (`place` gives the file's byte for
/// each of its bytes) into `read`:
/// each alone, and each snake, ladder or cell alone, so that one bad part does not hide the
/// others.
fn read_entries(
    root: toml::Spanned<toml::de::DeTable<'_>>,
    lines: &Lines<'_>,
    place: &dyn Fn(usize) -> usize,
    read: &mut PartialBoard,
) {
    use toml::de::{DeTable, DeValue};
    let mut read_one = |key: &toml::Spanned<toml::de::DeString<'_>>,
                        value: toml::Spanned<DeValue<'_>>| {
        let mut one = DeTable::new();
        one.insert(key.clone(), value);
        let table = toml::Spanned::new(key.span(), one);
        match Loose::deserialize(toml::de::Deserializer::from(table)) {
            Ok(part) => {
                if let Some(size) = part.size {
                    read.spec.size = size;
                    read.size_read = true;
                }
                read.spec.width = part.width.or(read.spec.width);
                read.spec.snakes.extend(part.snakes);
                read.spec.ladders.extend(part.ladders);
                read.spec.cells.extend(part.cells);
                if let Some(rules) = part.rules {
                    read.spec.rules = rules;
                }
            }
            Err(e) => {
                let mut problem = describe(lines, &e, place);
                if !problem.message.starts_with("unknown field") {
                    problem.message = format!("{}: {}", key.get_ref(), problem.message);
                }
                read.problems.push(problem);
            }
        }
    };
    for (key, value) in root.into_inner() {
        match value.get_ref() {
            DeValue::Array(items) if REPEATED.contains(&key.get_ref().as_ref()) => {
                for item in items {
                    let mut one = toml::de::DeArray::new();
                    one.push(item.clone());
                    read_one(&key, toml::Spanned::new(item.span(), DeValue::Array(one)));
                }
            }
            _ => read_one(&key, value),
        }
    }
}

/// A TOML error (in a part of the file whose bytes `place` finds in it) as a line, a column and
/// a message that names a duplicate key.
fn describe(
    lines: &Lines<'_>,
    e: &toml::de::Error,
    place: &dyn Fn(usize) -> usize,
) -> ParseBoardError {
    let span = e.span().map(|span| place(span.start)..place(span.end));
    let (line, column) = span.clone().map_or((0, 0), |span| lines.line_column(span.start));
    let mut message = e.message().trim_end().replace("expected u32", "expected a whole number");
    // The parser says only "duplicate key"; the key is the text at the error's span.
    let key = span.and_then(|span| lines.text.get(span)).map(str::trim).unwrap_or_default();
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

/// A text indexed for places: for every [`Lines::STRIDE`]-th byte, how many characters and line
/// ends come before it and where its line starts, so that a place is found in a few steps
/// whatever the file's size and however many problems it has (reading the text from its start
/// for each problem was quadratic), in memory a small part of the text's (a line start kept for
/// every line took 8 bytes a line: 512 MiB for a 64 MiB file of line ends).
struct Lines<'a> {
    text: &'a str,
    /// For the char boundary at or just before each `k · STRIDE`: that byte, the characters and
    /// the line ends before it, and the byte where its line starts.
    marks: Vec<Mark>,
}

/// One entry of [`Lines`]'s index.
#[derive(Clone, Copy)]
struct Mark {
    at: usize,
    chars: usize,
    lines: usize,
    line_start: usize,
}

impl<'a> Lines<'a> {
    const STRIDE: usize = 4096;

    fn of(text: &'a str) -> Lines<'a> {
        let mut mark = Mark { at: 0, chars: 0, lines: 0, line_start: 0 };
        let mut marks = vec![mark];
        for k in 1..=text.len() / Self::STRIDE {
            let mut next = k * Self::STRIDE;
            while !text.is_char_boundary(next) {
                next -= 1;
            }
            let block = &text[mark.at..next];
            mark.chars += block.chars().count();
            let ends = block.bytes().filter(|&b| b == b'\n').count();
            mark.lines += ends;
            if ends > 0 {
                mark.line_start = mark.at + block.rfind('\n').map_or(0, |i| i + 1);
            }
            mark.at = next;
            marks.push(mark);
        }
        Lines { text, marks }
    }

    /// The index entry at or before byte `offset` (a char boundary).
    fn mark(&self, offset: usize) -> Mark {
        // Entry k is at most 3 bytes before k · STRIDE, so never past `offset`.
        self.marks[(offset / Self::STRIDE).min(self.marks.len() - 1)]
    }

    /// The characters before byte `offset` (a char boundary).
    fn chars_before(&self, offset: usize) -> usize {
        let mark = self.mark(offset);
        mark.chars + self.text[mark.at..offset].chars().count()
    }

    /// The 1-based line and column of byte `offset`, the column counted in characters as an
    /// editor counts them (not bytes: "ü" is one column).
    fn line_column(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let mark = self.mark(offset);
        let block = &self.text[mark.at..offset];
        let line = mark.lines + block.bytes().filter(|&b| b == b'\n').count() + 1;
        let start = block.rfind('\n').map_or(mark.line_start, |i| mark.at + i + 1);
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
        // A line over several strides, and lines of nothing but their end.
        text.push_str(&"y€".repeat(9000));
        text.push_str("\n\n\n\nz");
        let lines = Lines::of(&text);
        let places = (0..=text.len()).step_by(997).chain([0, text.len()]);
        for offset in places.filter(|&o| text.is_char_boundary(o)) {
            assert_eq!(lines.line_column(offset), by_reading(&text, offset), "byte {offset}");
        }
        assert_eq!(Lines::of("").line_column(0), (1, 1));
    }
}
