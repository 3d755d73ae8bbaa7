// Long because it holds two parsers (LeetCode 909, HackerRank), every error they name, and their tests.
//! The two published puzzle formats: a LeetCode 909 matrix and HackerRank's "Snakes and Ladders:
//! The Quickest Way Up" input, read strictly and answered exactly as their judges expect.
//!
//! Both are the best-case game on our engine's terms — start on cell 1, one six-sided die, a roll
//! past the last cell is no move, at most one jump per move — so each becomes a [`Track`] under
//! [`puzzle_rules`] and is solved by the same search as our own boards.
//!
//! # Example
//!
//! ```
//! use snl_analysis::puzzles::{LeetCode, hackerrank_answers};
//!
//! // LeetCode 909, example 2.
//! assert_eq!(LeetCode::parse(b"[[-1,-1],[-1,3]]")?.answer(), 1);
//!
//! // One HackerRank test: a ladder 2→99, no snakes.
//! assert_eq!(hackerrank_answers("1\n1\n2 99\n0\n")?, [2]);
//! # Ok::<_, snl_analysis::puzzles::PuzzleError>(())
//! ```

use std::{fmt::Write as _, io};

use snl_engine::{Dice, Jump, JumpMode, Overshoot, Rules, Start};

use crate::solve::{Solution, Track};

/// The rules both puzzles play by: start on cell 1, 1d6, no move past the last cell, one jump per
/// move.
pub fn puzzle_rules() -> Rules {
    Rules {
        start: Start::FirstCell,
        dice: Dice::D6,
        overshoot: Overshoot::Stay,
        jumps: JumpMode::Single,
        ..Rules::default()
    }
}

/// Input a puzzle reader refuses, with where and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PuzzleError {
    /// The LeetCode text is not a JSON array of arrays of integers.
    #[error("LeetCode matrix, line {line}, column {column}: expected {expected}, found {found}")]
    Syntax {
        /// 1-based line of the text.
        line: usize,
        /// 1-based column (in bytes).
        column: usize,
        /// What the reader expected there.
        expected: &'static str,
        /// What it found, quoted, or "the end of the input".
        found: String,
    },
    /// A matrix that is not n×n with n ≥ 2.
    #[error("the LeetCode matrix {shape}: a LeetCode 909 board is n×n with n at least 2")]
    Shape {
        /// What is wrong with it, e.g. "has 5 rows of 6 values".
        shape: String,
    },
    /// A matrix value that is neither −1 nor a square of the board.
    #[error(
        "board[{row}][{column}] = {value} is out of range: use -1 or a square from 1 to {last}"
    )]
    Value {
        /// 0-based row, as LeetCode writes `board[r][c]`.
        row: usize,
        /// 0-based column.
        column: usize,
        /// The value.
        value: String,
        /// n².
        last: u32,
    },
    /// A snake or ladder on square 1 or n², which LeetCode 909 rules out.
    #[error(
        "board[{row}][{column}] puts a snake or ladder on square {square} (to {to}), but LeetCode \
         909 allows none on squares 1 and n²"
    )]
    Endpoint {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        column: usize,
        /// The square, 1 or n².
        square: u32,
        /// Its destination.
        to: u32,
    },
    /// HackerRank input that ends early or holds something other than a whole number.
    #[error("HackerRank input, {place}: expected {expected}, found {found}")]
    Token {
        /// Which test and which field, e.g. "test 2, ladder 3".
        place: String,
        /// What was expected.
        expected: &'static str,
        /// What was found, quoted, or "the end of the input".
        found: String,
    },
    /// A HackerRank snake or ladder that breaks the problem's constraints.
    #[error("HackerRank input, test {test}: {kind} {from} {to} {problem}")]
    Jump {
        /// 1-based test number.
        test: usize,
        /// "ladder" or "snake".
        kind: &'static str,
        /// Its start.
        from: i64,
        /// Its end.
        to: i64,
        /// What is wrong, e.g. "does not go up".
        problem: String,
    },
    /// Text after the last HackerRank test.
    #[error("HackerRank input: unexpected {found} after the last of {tests} tests")]
    Trailing {
        /// What was found, quoted.
        found: String,
        /// How many tests the input announced.
        tests: usize,
    },
}

/// A LeetCode 909 board: `n × n` squares numbered boustrophedon from the bottom-left, each `-1`
/// or the destination of a snake or ladder. A square whose value is itself is a plain square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeetCode {
    side: u32,
    // Sorted by start; no jump leads to its own square.
    jumps: Vec<Jump>,
}

/// The largest side a LeetCode matrix may have here (LeetCode's own limit is 20): n² must be a
/// cell number of a [`Track`].
pub const MAX_LEETCODE_SIDE: u32 = 46_340;

impl LeetCode {
    /// Reads a matrix written as JSON (`[[-1,4],[-1,3]]`, any whitespace), checking everything
    /// LeetCode promises: n×n with n ≥ 2, every value −1 or in `1..=n²`, no snake or ladder on
    /// squares 1 and n².
    ///
    /// The reader is hand-written for speed: a 3000×3000 matrix (30 MB) reads in well under a
    /// second, where a general JSON parser building `Vec<Vec<i64>>` takes several times longer.
    ///
    /// # Errors
    ///
    /// [`PuzzleError::Syntax`] with the line and column of the first character that does not
    /// fit, [`PuzzleError::Shape`], [`PuzzleError::Value`] or [`PuzzleError::Endpoint`] naming
    /// the offending row and column.
    pub fn parse(text: &[u8]) -> Result<LeetCode, PuzzleError> {
        MatrixReader { text, at: 0, too_large: None }.read()
    }

    /// A board of side `n` with these jumps (`from` → `to`, squares `1..=n²`; a jump to its own
    /// square is dropped as a plain square).
    ///
    /// # Errors
    ///
    /// [`PuzzleError::Shape`] for `n` outside `2..=MAX_LEETCODE_SIDE`, [`PuzzleError::Value`] for
    /// a square outside the board, [`PuzzleError::Endpoint`] for a jump on square 1 or n²; two
    /// jumps on one square are a [`PuzzleError::Value`] too (a square holds one value).
    pub fn from_jumps(
        n: u32,
        jumps: impl IntoIterator<Item = Jump>,
    ) -> Result<LeetCode, PuzzleError> {
        if !(2..=MAX_LEETCODE_SIDE).contains(&n) {
            return Err(PuzzleError::Shape { shape: format!("is {n}×{n}") });
        }
        let last = n * n;
        let mut kept = Vec::new();
        for j in jumps {
            if !(1..=last).contains(&j.from) {
                return Err(PuzzleError::Shape { shape: format!("has no square {}", j.from) });
            }
            if !(1..=last).contains(&j.to) {
                let (row, column) = matrix_place(n, j.from);
                return Err(PuzzleError::Value { row, column, value: j.to.to_string(), last });
            }
            if j.from != j.to {
                kept.push(j);
            }
        }
        LeetCode::checked(n, kept)
    }

    fn checked(side: u32, mut jumps: Vec<Jump>) -> Result<LeetCode, PuzzleError> {
        let last = side * side;
        jumps.sort_unstable();
        for j in &jumps {
            if j.from == 1 || j.from == last {
                let (row, column) = matrix_place(side, j.from);
                return Err(PuzzleError::Endpoint { row, column, square: j.from, to: j.to });
            }
        }
        if let Some(pair) = jumps.windows(2).find(|p| p[0].from == p[1].from) {
            let (row, column) = matrix_place(side, pair[1].from);
            return Err(PuzzleError::Value { row, column, value: pair[1].to.to_string(), last });
        }
        Ok(LeetCode { side, jumps })
    }

    /// n, the side of the matrix.
    pub fn side(&self) -> u32 {
        self.side
    }

    /// n², the last square.
    pub fn size(&self) -> u32 {
        self.side * self.side
    }

    /// The snakes and ladders, sorted by start square.
    pub fn jumps(&self) -> &[Jump] {
        &self.jumps
    }

    /// The board as a [`Track`] under [`puzzle_rules`].
    pub fn track(&self) -> Track {
        // Checked on the way in: starts sorted and unique, on the board, none on n²; one jump per
        // move, so each rests where it leads.
        let ends = self.jumps.iter().map(|j| j.to).collect();
        Track::from_parts(self.size(), &puzzle_rules(), self.jumps.clone(), ends)
    }

    /// The fewest moves from square 1 to n², with a path.
    pub fn solve(&self) -> Solution {
        self.track().fewest_rolls()
    }

    /// The integer LeetCode expects: the fewest moves, or −1 when n² cannot be reached.
    pub fn answer(&self) -> i64 {
        self.solve().min_rolls().map_or(-1, i64::from)
    }

    /// Writes the matrix as JSON, one row per line.
    ///
    /// # Errors
    ///
    /// Any error of `out`.
    pub fn write_json<W: io::Write + ?Sized>(&self, out: &mut W) -> io::Result<()> {
        let n = self.side as usize;
        let mut values = vec![-1_i64; n * n]; // row-major, as printed
        for j in &self.jumps {
            let (row, column) = matrix_place(self.side, j.from);
            values[row * n + column] = i64::from(j.to);
        }
        let mut line = String::with_capacity(n * 4 + 4);
        for (r, row) in values.chunks(n).enumerate() {
            line.clear();
            line.push_str(if r == 0 { "[[" } else { " [" });
            for (c, v) in row.iter().enumerate() {
                if c > 0 {
                    line.push(',');
                }
                let _ = write!(line, "{v}"); // writing to a String cannot fail
            }
            line.push_str(if r + 1 == n { "]]\n" } else { "],\n" });
            out.write_all(line.as_bytes())?;
        }
        Ok(())
    }
}

/// The 0-based `(row, column)` of square `square` in an `n × n` LeetCode matrix: square 1 is
/// `board[n−1][0]`, and rows alternate direction going up.
pub fn matrix_place(n: u32, square: u32) -> (usize, usize) {
    let i = square - 1;
    let from_bottom = i / n;
    let along = i % n;
    let column = if from_bottom % 2 == 0 { along } else { n - 1 - along };
    ((n - 1 - from_bottom) as usize, column as usize)
}

/// The square at 0-based `(row, column)` of an `n × n` LeetCode matrix.
pub fn matrix_square(n: u32, row: u32, column: u32) -> u32 {
    let from_bottom = n - 1 - row;
    let along = if from_bottom % 2 == 0 { column } else { n - 1 - column };
    from_bottom * n + along + 1
}

/// A single-pass reader of a JSON matrix of integers.
struct MatrixReader<'a> {
    text: &'a [u8],
    at: usize,
    /// The first value too large for 64 bits, as written (cut to 40 characters): it is read
    /// as [`TOO_LARGE`] and reported as given, not as a saturated number.
    too_large: Option<String>,
}

/// The value a number too large for 64 bits is read as (no number written reads as it).
const TOO_LARGE: i64 = i64::MIN;

impl MatrixReader<'_> {
    fn read(mut self) -> Result<LeetCode, PuzzleError> {
        self.expect(b'[', "'[' to open the matrix")?;
        let mut side = 0_u32; // known once the first row is read
        let mut row = 0_u32;
        let mut jumps = Vec::new();
        let mut first_row: Vec<i64> = Vec::new();
        if self.peek() == Some(b']') {
            return Err(PuzzleError::Shape { shape: "is empty".to_owned() });
        }
        loop {
            self.expect(b'[', "'[' to open a row")?;
            if row == 0 {
                // The first row fixes n; its values wait until n is known.
                self.read_row(|reader, value_at| {
                    first_row.push(reader.integer(value_at)?);
                    Ok(())
                })?;
                side = first_row.len() as u32;
                if !(2..=MAX_LEETCODE_SIDE).contains(&side) {
                    return Err(PuzzleError::Shape {
                        shape: format!(
                            "has rows of {side} value{}",
                            if side == 1 { "" } else { "s" }
                        ),
                    });
                }
                for (c, &v) in first_row.iter().enumerate() {
                    let written = self.too_large.as_deref();
                    MatrixReader::place(side, (0, c as u32), v, written, &mut jumps)?;
                }
            } else {
                if row == side {
                    return Err(PuzzleError::Shape {
                        shape: format!("has more than {side} rows of {side} values"),
                    });
                }
                let mut column = 0_u32;
                self.read_row(|reader, value_at| {
                    if column == side {
                        return Err(PuzzleError::Shape {
                            shape: format!(
                                "has a row {row} longer than its first row of {side} values"
                            ),
                        });
                    }
                    let value = reader.integer(value_at)?;
                    let written = reader.too_large.as_deref();
                    MatrixReader::place(side, (row, column), value, written, &mut jumps)?;
                    column += 1;
                    Ok(())
                })?;
                if column != side {
                    return Err(PuzzleError::Shape {
                        shape: format!(
                            "has {column} value{} in row {row} but {side} in its first row",
                            if column == 1 { "" } else { "s" }
                        ),
                    });
                }
            }
            row += 1;
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    break;
                }
                _ => return Err(self.unexpected(self.at, "',' or ']' after a row")),
            }
        }
        if row != side {
            return Err(PuzzleError::Shape { shape: format!("has {row} rows of {side} values") });
        }
        self.skip_space();
        if self.at < self.text.len() {
            return Err(self.unexpected(self.at, "nothing after the matrix"));
        }
        LeetCode::checked(side, jumps)
    }

    /// Reads one row's values up to its `]`, calling `value` with the byte offset of each.
    fn read_row(
        &mut self,
        mut value: impl FnMut(&mut Self, usize) -> Result<(), PuzzleError>,
    ) -> Result<(), PuzzleError> {
        self.skip_space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(());
        }
        loop {
            self.skip_space();
            let start = self.at;
            value(self, start)?;
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(());
                }
                _ => return Err(self.unexpected(self.at, "',' or ']' in a row")),
            }
        }
    }

    /// Reads the integer starting at byte `start`.
    #[inline]
    fn integer(&mut self, start: usize) -> Result<i64, PuzzleError> {
        let text = self.text;
        let mut i = start;
        let negative = text.get(i) == Some(&b'-');
        if negative {
            i += 1;
        }
        let digits_from = i;
        let mut value: Option<i64> = Some(0);
        while let Some(&d) = text.get(i) {
            if !d.is_ascii_digit() {
                break;
            }
            // Any value this large is out of range, and reported as written.
            value = value.and_then(|v| v.checked_mul(10)?.checked_add(i64::from(d - b'0')));
            i += 1;
        }
        let ends_well =
            matches!(text.get(i), None | Some(b',' | b']' | b' ' | b'\t' | b'\n' | b'\r'));
        if i == digits_from || !ends_well {
            let end = text[start..]
                .iter()
                .position(|&c| matches!(c, b',' | b']' | b'[' | b' ' | b'\n' | b'\r' | b'\t'))
                .map_or(text.len(), |p| start + p)
                .max(start + 1)
                .min(text.len());
            return Err(self.unexpected_span(start, end, "an integer"));
        }
        self.at = i;
        let Some(value) = value else {
            if self.too_large.is_none() {
                let written = String::from_utf8_lossy(&text[start..i]);
                let mut shown: String = written.chars().take(40).collect();
                if written.chars().count() > 40 {
                    shown.push('…');
                }
                self.too_large = Some(shown);
            }
            return Ok(TOO_LARGE);
        };
        Ok(if negative { -value } else { value })
    }

    /// Records the value of board[row][column] as a jump, after checking its range.
    #[inline]
    fn place(
        side: u32,
        (row, column): (u32, u32),
        value: i64,
        too_large: Option<&str>,
        jumps: &mut Vec<Jump>,
    ) -> Result<(), PuzzleError> {
        let last = side * side;
        if value == -1 {
            return Ok(());
        }
        if !(1..=i64::from(last)).contains(&value) {
            return Err(PuzzleError::Value {
                row: row as usize,
                column: column as usize,
                value: match (value, too_large) {
                    (TOO_LARGE, Some(written)) => written.to_owned(),
                    _ => value.to_string(),
                },
                last,
            });
        }
        let from = matrix_square(side, row, column);
        let to = value as u32;
        if to != from {
            jumps.push(Jump { from, to });
        }
        Ok(())
    }

    #[inline]
    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.text.get(self.at) {
            self.at += 1;
        }
    }

    #[inline]
    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.text.get(self.at).copied()
    }

    fn expect(&mut self, want: u8, expected: &'static str) -> Result<(), PuzzleError> {
        match self.peek() {
            Some(c) if c == want => {
                self.at += 1;
                Ok(())
            }
            _ => Err(self.unexpected(self.at, expected)),
        }
    }

    fn unexpected(&self, at: usize, expected: &'static str) -> PuzzleError {
        let end = (at + 1).min(self.text.len());
        self.unexpected_span(at, end, expected)
    }

    fn unexpected_span(&self, at: usize, end: usize, expected: &'static str) -> PuzzleError {
        let before = &self.text[..at.min(self.text.len())];
        let line = before.split(|&c| c == b'\n').count();
        let column =
            before.len() - before.iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1) + 1;
        let found = if at >= self.text.len() {
            "the end of the input".to_owned()
        } else {
            let shown = &self.text[at..end.min(at + 20)];
            format!("'{}'", String::from_utf8_lossy(shown))
        };
        PuzzleError::Syntax { line, column, expected, found }
    }
}

/// One test of HackerRank's "The Quickest Way Up": ladders and snakes on a 100-square board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HackerRankTest {
    /// Ladders, in input order.
    pub ladders: Vec<Jump>,
    /// Snakes, in input order.
    pub snakes: Vec<Jump>,
}

/// The squares of a HackerRank board.
pub const HACKERRANK_SQUARES: u32 = 100;

impl HackerRankTest {
    /// The board as a [`Track`] under [`puzzle_rules`].
    pub fn track(&self) -> Track {
        // Checked on the way in: unique starts on squares 2 to 99, each jump up or down.
        let mut jumps: Vec<Jump> = self.ladders.iter().chain(&self.snakes).copied().collect();
        jumps.sort_unstable();
        let ends = jumps.iter().map(|j| j.to).collect();
        Track::from_parts(HACKERRANK_SQUARES, &puzzle_rules(), jumps, ends)
    }

    /// The integer HackerRank expects: the fewest rolls from square 1 to 100, or −1.
    pub fn answer(&self) -> i64 {
        self.track().fewest_rolls().min_rolls().map_or(-1, i64::from)
    }
}

/// Reads HackerRank input: `t`, then for each test `n`, n ladders `start end`, `m`, m snakes
/// `start end` (whitespace between numbers is free, as in the judge's readers).
///
/// Beyond the shape, it checks the problem's constraints on each jump: both ends on squares
/// 1 to 100, ladders go up and snakes down, none starts on square 1 or 100, and no two start on
/// the same square. (A jump ending on another's start breaks the problem's promise that a square
/// holds one endpoint at most; it is accepted and, as in the judge's solutions, taken as one jump
/// per move.)
///
/// # Errors
///
/// [`PuzzleError::Token`] naming the test and field where a number is missing or malformed,
/// [`PuzzleError::Jump`] for a jump that breaks a constraint, [`PuzzleError::Trailing`] for text
/// after the last test.
pub fn parse_hackerrank(text: &str) -> Result<Vec<HackerRankTest>, PuzzleError> {
    let mut words = text.split_ascii_whitespace();
    let mut number =
        |place: &dyn Fn() -> String, expected: &'static str| -> Result<i64, PuzzleError> {
            match words.next() {
                None => Err(PuzzleError::Token {
                    place: place(),
                    expected,
                    found: "the end of the input".to_owned(),
                }),
                Some(w) => w.parse::<i64>().map_err(|_| PuzzleError::Token {
                    place: place(),
                    expected,
                    found: format!("'{w}'"),
                }),
            }
        };
    let count = |n: i64, place: &dyn Fn() -> String, what: &'static str| {
        usize::try_from(n).ok().filter(|&n| n <= 10_000).ok_or_else(|| PuzzleError::Token {
            place: place(),
            expected: what,
            found: format!("'{n}'"),
        })
    };
    let tests = number(&|| "first line".to_owned(), "the number of tests")?;
    let tests = count(tests, &|| "first line".to_owned(), "a number of tests from 0 to 10000")?;
    let mut out = Vec::with_capacity(tests);
    for test in 1..=tests {
        let mut parsed = HackerRankTest { ladders: Vec::new(), snakes: Vec::new() };
        for (kind, list) in [("ladder", &mut parsed.ladders), ("snake", &mut parsed.snakes)] {
            let place = || format!("test {test}, number of {kind}s");
            let n = number(&place, "a number of snakes or ladders")?;
            let n = count(n, &place, "a count from 0 to 10000")?;
            for i in 1..=n {
                let place = || format!("test {test}, {kind} {i} of {n}");
                let from = number(&place, "a start square")?;
                let to = number(&place, "an end square")?;
                let problem =
                    |p: &str| PuzzleError::Jump { test, kind, from, to, problem: p.to_owned() };
                let square = 1..=i64::from(HACKERRANK_SQUARES);
                if !square.contains(&from) || !square.contains(&to) {
                    return Err(problem("leaves the board: squares are 1 to 100"));
                }
                if kind == "ladder" && to <= from {
                    return Err(problem("does not go up: a ladder's end must be above its start"));
                }
                if kind == "snake" && to >= from {
                    return Err(problem("does not go down: a snake's end must be below its start"));
                }
                if from == 1 || from == 100 {
                    return Err(problem("starts on square 1 or 100, which the problem rules out"));
                }
                list.push(Jump { from: from as u32, to: to as u32 });
            }
        }
        let mut starts: Vec<(u32, &str)> = parsed
            .ladders
            .iter()
            .map(|j| (j.from, "ladder"))
            .chain(parsed.snakes.iter().map(|j| (j.from, "snake")))
            .collect();
        starts.sort_unstable();
        if let Some(pair) = starts.windows(2).find(|p| p[0].0 == p[1].0) {
            let jump = parsed.ladders.iter().chain(&parsed.snakes).find(|j| j.from == pair[1].0);
            let to = jump.map_or(0, |j| j.to);
            return Err(PuzzleError::Jump {
                test,
                kind: pair[1].1,
                from: i64::from(pair[1].0),
                to: i64::from(to),
                problem: "starts on a square where another snake or ladder starts".to_owned(),
            });
        }
        out.push(parsed);
    }
    if let Some(extra) = words.next() {
        return Err(PuzzleError::Trailing { found: format!("'{extra}'"), tests });
    }
    Ok(out)
}

/// Reads HackerRank input and answers every test, in order.
///
/// # Errors
///
/// As [`parse_hackerrank`].
pub fn hackerrank_answers(text: &str) -> Result<Vec<i64>, PuzzleError> {
    Ok(parse_hackerrank(text)?.iter().map(HackerRankTest::answer).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_matrix_places_are_inverse() {
        for n in [2, 3, 6, 7] {
            for sq in 1..=n * n {
                let (r, c) = matrix_place(n, sq);
                assert_eq!(matrix_square(n, r as u32, c as u32), sq);
            }
        }
        assert_eq!(matrix_place(6, 1), (5, 0));
        assert_eq!(matrix_place(6, 12), (4, 0));
        assert_eq!(matrix_place(6, 36), (0, 0));
    }

    #[test]
    fn a_written_matrix_reads_back_the_same() {
        let board =
            LeetCode::from_jumps(5, [Jump { from: 3, to: 22 }, Jump { from: 24, to: 2 }]).unwrap();
        let mut text = Vec::new();
        board.write_json(&mut text).unwrap();
        assert_eq!(LeetCode::parse(&text).unwrap(), board);
    }

    #[test]
    fn syntax_errors_name_the_line_and_column() {
        let err = LeetCode::parse(b"[[-1,-1],\n [-1, x]]").unwrap_err().to_string();
        assert!(err.contains("line 2, column 7") && err.contains("'x'"), "{err}");
        let err = LeetCode::parse(b"[[-1,-1],[-1,1.5]]").unwrap_err().to_string();
        assert!(err.contains("'1.5'"), "{err}");
        let err = LeetCode::parse(b"[[-1,-1],[-1,-1]] 7").unwrap_err().to_string();
        assert!(err.contains("nothing after the matrix"), "{err}");
        let err = LeetCode::parse(b"[[-1,-1],[-1,-1]").unwrap_err().to_string();
        assert!(err.contains("the end of the input"), "{err}");
    }
}
