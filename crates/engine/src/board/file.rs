//! A board file's text read as `snl board validate` reads it: the board and its rules, or every
//! problem (the TOML's, the `[rules]` table's and the board's own) as sentences. The command line
//! and the browser's engine (crates/wasm) both read files through [`check_board_file`], so a file
//! is refused in both with the same list.

use super::{Board, BoardProblem, BoardSpec};
use crate::rules::{RuleSpec, Rules};

/// The rules a board file's `[rules]` table sets over the defaults.
///
/// # Errors
///
/// One sentence naming the table and the value refused.
pub fn file_rules(spec: &RuleSpec) -> Result<Rules, String> {
    let mut rules = Rules::default();
    rules.apply(spec).map_err(|e| format!("the board file's [rules]: {e}"))?;
    Ok(rules)
}

/// Reads a board file's text into a board and the rules in force, which `rules_with` makes from
/// the file's `[rules]` table (a front end adds its own options over [`file_rules`]; the command
/// line its flags).
///
/// ```
/// use snl_engine::{check_board_file, file_rules};
/// let (board, _) = check_board_file("size = 20\n[[snake]]\nhead = 9\ntail = 2\n", &file_rules)?;
/// assert_eq!(board.size(), 20);
/// let problems = check_board_file("size = 20\ncolour = 3\n[[ladder]]\nfoot = 2\ntop = 30\n", &file_rules)
///     .unwrap_err();
/// assert_eq!(problems.len(), 2); // the unknown key, and the ladder off the board
/// # Ok::<_, Vec<String>>(())
/// ```
///
/// # Errors
///
/// Every problem, one sentence each: a file that is not well-formed TOML or not shaped like a
/// board lists each TOML problem and then the board's own problems in the parts that could be
/// read (a bad jump beside a bad key); a bad `[rules]` value is listed with the board's problems
/// under the rules `rules_with` gives for no table.
pub fn check_board_file(
    text: &str,
    rules_with: &dyn Fn(&RuleSpec) -> Result<Rules, String>,
) -> Result<(Board, Rules), Vec<String>> {
    let fallback = || rules_with(&RuleSpec::default()).unwrap_or_default();
    let Ok(spec) = BoardSpec::from_toml(text) else {
        let read = BoardSpec::from_toml_partial(text);
        let mut problems: Vec<String> = read.problems.iter().map(ToString::to_string).collect();
        let rules = rules_with(&read.spec.rules).unwrap_or_else(|e| {
            problems.push(e);
            fallback()
        });
        if let Err(e) = Board::new(&read.spec, &rules) {
            // Without a size read, "too small" would only repeat the size's own problem.
            let shown = e
                .problems
                .iter()
                .filter(|p| read.size_read || !matches!(p, BoardProblem::TooSmall { .. }));
            problems.extend(shown.map(ToString::to_string));
        }
        return Err(problems);
    };
    let rules = match rules_with(&spec.rules) {
        Ok(rules) => rules,
        // A bad [rules] value and a bad jump are listed together.
        Err(problem) => {
            let mut problems = vec![problem];
            if let Err(e) = Board::new(&spec, &fallback()) {
                problems.extend(e.problems.iter().map(ToString::to_string));
            }
            return Err(problems);
        }
    };
    match Board::new(&spec, &rules) {
        Ok(board) => Ok((board, rules)),
        Err(e) => Err(e.problems.iter().map(ToString::to_string).collect()),
    }
}
