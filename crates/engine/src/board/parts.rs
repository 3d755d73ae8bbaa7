//! A board file cut into parts that are read one after another (issue 29): its `[[snake]]`,
//! `[[ladder]]` and `[[cell]]` tables, a batch of [`BATCH`] at a time, and the rest of the file.
//! The TOML reader keeps every token, event and value of what it reads with its place (about 50
//! bytes of memory a byte of file), so a 20 MB file of 500,000 jumps took 984 MB read whole; read
//! in parts, only one batch is held at once, and the memory is the text and the board.
//!
//! The cut is TOML's own: the file is lexed (strings and comments are single tokens, so a `[` in
//! them is not seen), and a table starts at a `[[snake]]`, `[[ladder]]` or `[[cell]]` header at
//! the start of a line outside any array or inline table, and runs to the next header. Such a
//! table means the same read alone as in the file, unless the rest of the file gives the same
//! name another way (`snake = [...]`, `[snake.x]`): then the file is read whole (see
//! [`Parts::names_repeated`]).

use std::{borrow::Cow, ops::Range};

use toml_parser::{Source, lexer::TokenKind};

/// The names of the tables a board file repeats once for each jump or effect.
pub(super) const REPEATED: [&str; 3] = ["snake", "ladder", "cell"];

/// At most this many repeated tables are read at once.
pub(super) const BATCH: usize = 1024;

/// A board file cut for reading: see the module's comment.
#[derive(Debug)]
pub(super) struct Parts<'a> {
    /// The file without its repeated tables.
    pub(super) rest: Cow<'a, str>,
    /// Where each piece of the rest begins, in the rest and in the file (see
    /// [`Parts::in_file`]): a problem's line and column are the file's.
    segments: Vec<(usize, usize)>,
    /// The repeated tables, in batches of consecutive ones, as byte ranges of the file.
    pub(super) batches: Vec<Range<usize>>,
    /// The most tokens one part holds (the rest, or a batch): what the TOML reader's memory
    /// grows with.
    pub(super) most_tokens: usize,
    /// The tokens of the whole file.
    pub(super) tokens: usize,
}

impl<'a> Parts<'a> {
    /// Cuts `text`.
    pub(super) fn of(text: &'a str) -> Parts<'a> {
        let (tables, tokens) = repeated_tables(text);
        // Consecutive tables (each ends where the next begins) make one run, blanked as one.
        let mut runs: Vec<Range<usize>> = Vec::new();
        let mut batches: Vec<Range<usize>> = Vec::new();
        let (mut in_batch, mut batch_tokens, mut most_tokens, mut table_tokens) = (0, 0, 0, 0);
        for (table, count) in tables {
            table_tokens += count;
            match runs.last_mut() {
                Some(run) if run.end == table.start => run.end = table.end,
                _ => runs.push(table.clone()),
            }
            match batches.last_mut() {
                Some(batch) if batch.end == table.start && in_batch < BATCH => {
                    batch.end = table.end;
                    in_batch += 1;
                    batch_tokens += count;
                }
                _ => {
                    batches.push(table);
                    in_batch = 1;
                    batch_tokens = count;
                }
            }
            most_tokens = most_tokens.max(batch_tokens);
        }
        let most_tokens = most_tokens.max(tokens - table_tokens);
        if runs.is_empty() {
            let segments = Vec::new();
            return Parts { rest: Cow::Borrowed(text), segments, batches, most_tokens, tokens };
        }
        // The rest is the text between the runs: each run began at the start of a line, so what
        // is left before it ends a line (or only indents one), and the header after it starts one.
        let mut rest = String::new();
        let mut segments = Vec::with_capacity(runs.len() + 1);
        let mut at = 0;
        for run in runs {
            segments.push((rest.len(), at));
            rest.push_str(&text[at..run.start]);
            at = run.end;
        }
        segments.push((rest.len(), at));
        rest.push_str(&text[at..]);
        Parts { rest: Cow::Owned(rest), segments, batches, most_tokens, tokens }
    }

    /// The file's byte for byte `offset` of the rest.
    pub(super) fn in_file(&self, offset: usize) -> usize {
        let k = self.segments.partition_point(|&(rest, _)| rest <= offset);
        self.segments.get(k.wrapping_sub(1)).map_or(offset, |&(rest, file)| file + offset - rest)
    }

    /// Whether the rest of the file gives a repeated table's name too (`snake = [...]`, a
    /// `[snake.x]` header) while tables of that kind were cut out: then the parts would not
    /// mean what the file means (TOML refuses such a file, or reads them as one), and the file
    /// is read whole.
    pub(super) fn names_repeated<'k>(&self, mut rest_keys: impl Iterator<Item = &'k str>) -> bool {
        !self.batches.is_empty() && rest_keys.any(|k| REPEATED.contains(&k))
    }
}

/// The byte range of each `[[snake]]`, `[[ladder]]` or `[[cell]]` table of `text` (from its
/// header's `[` to the next header at the start of a line outside any value) with its tokens,
/// and the tokens of the whole text.
fn repeated_tables(text: &str) -> (Vec<(Range<usize>, usize)>, usize) {
    let mut tables = Vec::new();
    // The start of the table being read and the tokens before it.
    let mut open: Option<(usize, usize)> = None;
    // Arrays and inline tables open; whether only whitespace came since the last line end.
    let (mut depth, mut line_start) = (0_usize, true);
    let mut lexer = Counted { lexer: Source::new(text).lex(), tokens: 0 };
    while let Some(token) = lexer.next() {
        match token.kind() {
            TokenKind::Eof => break,
            TokenKind::Newline => line_start = true,
            TokenKind::Whitespace => {}
            TokenKind::LeftSquareBracket if depth == 0 && line_start => {
                let (start, before) = (token.span().start(), lexer.tokens - 1);
                let repeated = read_header(&mut lexer, text);
                if let Some((begun, earlier)) = open.take() {
                    tables.push((begun..start, before - earlier));
                }
                if repeated {
                    open = Some((start, before));
                }
                // The header was read to its line end.
                line_start = true;
            }
            TokenKind::LeftSquareBracket | TokenKind::LeftCurlyBracket => {
                depth += 1;
                line_start = false;
            }
            TokenKind::RightSquareBracket | TokenKind::RightCurlyBracket => {
                depth = depth.saturating_sub(1);
                line_start = false;
            }
            _ => line_start = false,
        }
    }
    if let Some((begun, earlier)) = open {
        tables.push((begun..text.len(), lexer.tokens - earlier));
    }
    (tables, lexer.tokens)
}

/// A lexer that counts the tokens it gave.
struct Counted<'i> {
    lexer: toml_parser::lexer::Lexer<'i>,
    tokens: usize,
}

impl Iterator for Counted<'_> {
    type Item = toml_parser::lexer::Token;

    fn next(&mut self) -> Option<Self::Item> {
        let token = self.lexer.next()?;
        self.tokens += 1;
        Some(token)
    }
}

/// Reads a header's tokens after its first `[` through its line end; whether it is exactly
/// `[[snake]]`, `[[ladder]]` or `[[cell]]` (whitespace and a comment allowed).
fn read_header(lexer: &mut Counted<'_>, text: &str) -> bool {
    let mut seen = 0;
    let mut repeated = true;
    for token in lexer.by_ref() {
        let kind = token.kind();
        if matches!(kind, TokenKind::Newline | TokenKind::Eof) {
            break;
        }
        if matches!(kind, TokenKind::Whitespace | TokenKind::Comment) {
            continue;
        }
        let span = token.span();
        let fits = match seen {
            0 => kind == TokenKind::LeftSquareBracket,
            1 => {
                kind == TokenKind::Atom
                    && text.get(span.start()..span.end()).is_some_and(|w| REPEATED.contains(&w))
            }
            2 | 3 => kind == TokenKind::RightSquareBracket,
            _ => false,
        };
        repeated &= fits;
        seen += 1;
    }
    repeated && seen == 4
}

#[cfg(test)]
mod tests {
    use super::Parts;

    #[test]
    fn repeated_tables_are_cut_out_and_every_byte_of_the_rest_is_found_in_the_file() {
        let text = "size = 100 # [[snake]]\n[[snake]]\nhead = 99\ntail = 5\n  [[ladder]] # x\n\
                    foot = 2\ntop = 30\n[rules]\nexact = 'x\n[[snake]]'\nnote = \"\"\"\n\
                    [[snake]]\n\"\"\"\nlist = [\n[[1]],\n]\n[[cell]]\nat = 3\neffect = 'skip'";
        let parts = Parts::of(text);
        let batches: Vec<&str> = parts.batches.iter().map(|b| &text[b.clone()]).collect();
        assert_eq!(
            batches,
            [
                "[[snake]]\nhead = 99\ntail = 5\n  [[ladder]] # x\nfoot = 2\ntop = 30\n",
                "[[cell]]\nat = 3\neffect = 'skip'"
            ]
        );
        assert!(parts.rest.starts_with("size = 100 # [[snake]]\n[rules]\nexact = 'x\n[[snake]]'"));
        assert!(parts.rest.ends_with("list = [\n[[1]],\n]\n"));
        assert!(!parts.rest.contains("head") && !parts.rest.contains("effect"));
        for offset in 0..parts.rest.len() {
            assert_eq!(
                parts.rest.as_bytes()[offset],
                text.as_bytes()[parts.in_file(offset)],
                "byte {offset}"
            );
        }
        let rules = parts.rest.find("[rules]").unwrap();
        assert_eq!(parts.in_file(rules), text.find("[rules]").unwrap());
        // A header that is not exactly a repeated table's belongs to the rest.
        let other = Parts::of("size = 9\n[[snake.x]]\na = 1\n[[ snake ]]\nhead = 3\ntail = 1\n");
        assert_eq!(other.batches.len(), 1);
        assert!(other.rest.contains("[[snake.x]]"));
        assert!(other.names_repeated(["snake"].into_iter()));
    }

    #[test]
    fn batches_hold_at_most_batch_tables() {
        let text = "size = 9\n".to_owned() + &"[[snake]]\nhead = 3\ntail = 1\n".repeat(2500);
        let parts = Parts::of(&text);
        assert_eq!(parts.batches.len(), 3);
        // 18 tokens a table ([, [, snake, ], ], its line end, then two lines of 6), the rest 6,
        // and the end.
        assert_eq!(parts.tokens, 6 + 18 * 2500 + 1);
        assert_eq!(parts.most_tokens, 18 * 1024);
        assert_eq!(parts.rest, "size = 9\n");
    }
}
