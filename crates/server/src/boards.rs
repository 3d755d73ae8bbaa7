//! `POST /api/boards/check`: a board as the editor holds it, checked as `snl board validate`
//! checks it (every problem listed), and when it is valid its exact analysis: the expected
//! length of a game, each seat's chance to win, the fewest rolls and one shortest path. Boards
//! up to [`MAX_CHECK_CELLS`] cells; the analysis is bounded by [`MAX_SECONDS`] from when the
//! check begins, building the chain included (past it the answer says it is not exact, and
//! what was not worked out in time is left out).

use std::time::{Duration, Instant};

use serde_json::Value;
use snl_analysis::{Budget, Work, exact, solve};
use snl_engine::{Board, BoardSpec, RuleSet, Rules};
pub use snl_wire::api::{BoardCheck as CheckBoard, BoardCheckAnswer};

use crate::setup::{MAX_SEATS, RulesChoice};

/// Most cells on a board checked (as many as a room takes).
pub const MAX_CHECK_CELLS: u32 = crate::setup::MAX_CELLS;
/// Most time a check's analysis may take (the chain, the game length distribution), in
/// seconds.
pub const MAX_SECONDS: u64 = 2;

/// What was asked, checked: the board may still be invalid.
#[derive(Debug)]
pub(crate) struct Checked {
    spec: Result<BoardSpec, String>,
    rules: Option<RulesChoice>,
    seats: usize,
}

/// Checks what is not the board's own business: the seats and the size.
///
/// # Errors
///
/// One sentence naming the value refused.
pub(crate) fn check(request: CheckBoard) -> Result<Checked, String> {
    let seats = request.seats.unwrap_or(2);
    if !(1..=MAX_SEATS).contains(&seats) {
        return Err(format!("seats {seats} is outside 1..={MAX_SEATS}"));
    }
    // The size first, before anything is built for the board.
    if let Some(size) = request.board.get("size").and_then(Value::as_u64)
        && size > u64::from(MAX_CHECK_CELLS)
    {
        return Err(format!(
            "a board of {size} cells is larger than {MAX_CHECK_CELLS}, the most checked here \
             (snl board validate and snl analyze take larger ones)"
        ));
    }
    let spec = serde_json::from_value::<BoardSpec>(request.board)
        .map_err(|e| format!("the board is not a board file: {e}"));
    Ok(Checked { spec, rules: request.rules, seats })
}

/// The request's rules over the board's own.
fn rules_for(spec: &BoardSpec, choice: Option<&RulesChoice>) -> Result<Rules, String> {
    let mut rules = Rules::default();
    rules.apply(&spec.rules).map_err(|e| format!("the board's rules: {e}"))?;
    match choice {
        None => {}
        Some(RulesChoice::Name(name)) => {
            rules = name.parse::<RuleSet>().map_err(|e| e.to_string())?.rules();
        }
        Some(RulesChoice::Spec(s)) => rules.apply(s).map_err(|e| e.to_string())?,
    }
    Ok(rules)
}

impl Checked {
    /// The answer (blocking work).
    ///
    /// # Errors
    ///
    /// One sentence when the request's rules are not rules.
    pub(crate) fn answer(&self) -> Result<BoardCheckAnswer, String> {
        let invalid = |problems: Vec<String>| {
            let message = match problems.as_slice() {
                [one] => format!("invalid board: {one}"),
                many => format!("invalid board, {} problems", many.len()),
            };
            BoardCheckAnswer { valid: false, message, problems, ..BoardCheckAnswer::default() }
        };
        let spec = match &self.spec {
            Ok(spec) => spec,
            Err(problem) => return Ok(invalid(vec![problem.clone()])),
        };
        let rules = match rules_for(spec, self.rules.as_ref()) {
            Ok(rules) => rules,
            // The request's own rules are a bad request; the board's are one of its problems.
            Err(problem) if problem.starts_with("the board's") => {
                return Ok(invalid(vec![problem]));
            }
            Err(problem) => return Err(problem),
        };
        let board = match Board::new(spec, &rules) {
            Ok(board) => board,
            Err(e) => return Ok(invalid(e.problems.iter().map(ToString::to_string).collect())),
        };
        let budget =
            Budget::unlimited().with_deadline(Instant::now() + Duration::from_secs(MAX_SECONDS));
        Ok(analyse(&board, &rules, self.seats, budget))
    }
}

/// A valid board's analysis.
fn analyse(board: &Board, rules: &Rules, seats: usize, budget: Budget) -> BoardCheckAnswer {
    let snakes = board.jumps().iter().filter(|j| j.is_snake()).count();
    let reach = board.reach(rules);
    let verdict = if !reach.finish_reachable {
        format!(
            ", but cell {} cannot be reached from the start: it can be analysed, not played",
            board.size()
        )
    } else if let Some(p) = reach.trapped.first() {
        format!(
            ", but a token can be trapped on {p}, from where cell {} cannot be reached",
            board.size()
        )
    } else {
        String::new()
    };
    let message = format!(
        "the board is valid: {} cells, {snakes} snakes, {} ladders{verdict}",
        board.size(),
        board.jumps().len() - snakes
    );
    let checked = BoardCheckAnswer {
        valid: true,
        playable: Some(reach.finish_reachable && reach.trapped.is_empty()),
        message,
        problems: Vec::new(),
        size: Some(board.size()),
        rules: Some(*rules),
        seats: Some(seats),
        ..BoardCheckAnswer::default()
    };
    // The check's numbers (fewest rolls, one player's exact length, each seat's chance) know cell
    // effects; a race's rounds they leave out, so a race gets no numbers rather than wrong ones.
    if let Err(e) = [Work::Exact, Work::Solve]
        .into_iter()
        .try_for_each(|work| snl_analysis::check_supported_for(work, board, rules))
        .and_then(|()| snl_analysis::check_supported_rules(rules))
    {
        return BoardCheckAnswer {
            exact: Some(false),
            analysis_error: Some(e.to_string()),
            ..checked
        };
    }
    let best = solve::solve(board, rules);
    let mut options = exact::Options::default();
    options.landings = false;
    options.budget = budget;
    let analysis = exact::analyze_with(board, rules, &snl_engine::FirstOption, &options);
    let solved = BoardCheckAnswer {
        min_rolls: Some(best.min_rolls()),
        path: Some(best.is_reachable().then(|| best.path())),
        ..checked
    };
    match &analysis {
        Ok(a) => {
            let outcomes = a.seats(seats);
            let finite = |x: f64| Some(x.is_finite().then_some(x));
            BoardCheckAnswer {
                expected_turns: finite(a.expected_turns),
                expected_rolls: finite(a.expected_rolls),
                median_turns: Some(a.median_turns()),
                min_turns: Some(a.min_turns()),
                never_finish_probability: Some(a.never_finish_probability),
                exact: Some(outcomes.is_exact() && a.distribution.is_complete()),
                win_probability: Some(outcomes.win_probability),
                expected_game_rolls: finite(outcomes.expected_game_rolls),
                ..solved
            }
        }
        Err(exact::AnalysisError::Stopped) => BoardCheckAnswer {
            exact: Some(false),
            analysis_error: Some(format!(
                "the exact analysis takes longer than {MAX_SECONDS} s on this board: it was stopped"
            )),
            ..solved
        },
        Err(e) => {
            BoardCheckAnswer { exact: Some(false), analysis_error: Some(e.to_string()), ..solved }
        }
    }
}

/// `POST /api/boards/check`.
pub(crate) async fn endpoint(
    axum::extract::State(shared): axum::extract::State<std::sync::Arc<crate::Shared>>,
    body: Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>,
) -> crate::http::ApiResult<axum::Json<BoardCheckAnswer>> {
    use crate::http::ApiError;
    let request: CheckBoard = crate::http::body_json(body)?;
    let checked = check(request).map_err(ApiError::bad)?;
    let unavailable = |message: String| {
        ApiError::new(axum::http::StatusCode::SERVICE_UNAVAILABLE, "server_error", message)
    };
    let _permit = shared
        .work
        .permits
        .acquire()
        .await
        .map_err(|_| unavailable("the server is stopping".into()))?;
    let answer = tokio::task::spawn_blocking(move || checked.answer())
        .await
        .map_err(|e| unavailable(format!("the check failed: {e}")))?
        .map_err(ApiError::bad)?;
    Ok(axum::Json(answer))
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::json;

    fn check(json: &str) -> Result<Value, String> {
        let request = serde_json::from_str::<CheckBoard>(json).map_err(|e| e.to_string())?;
        super::check(request)?.answer().map(|a| json!(a))
    }

    #[test]
    fn a_valid_board_gets_its_exact_analysis() {
        let answer = check(
            r#"{"board":{"size":100,"snake":[{"head":99,"tail":54},{"head":70,"tail":55},
                {"head":52,"tail":42},{"head":25,"tail":2},{"head":95,"tail":72}],
                "ladder":[{"foot":6,"top":25},{"foot":11,"top":40},{"foot":60,"top":85},
                {"foot":46,"top":90},{"foot":17,"top":69}]},"seats":3}"#,
        )
        .unwrap();
        assert_eq!(answer["valid"], true);
        assert_eq!(answer["min_rolls"], 5);
        assert_eq!(answer["path"], json!([0, 5, 11, 40, 46, 90, 94, 100]));
        assert_eq!(answer["win_probability"].as_array().unwrap().len(), 3);
        let sum: f64 =
            answer["win_probability"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).sum();
        assert!((sum - 1.0).abs() < 1e-9, "{answer}");
        assert!(answer["expected_turns"].as_f64().unwrap() > 20.0);
        assert_eq!(answer["exact"], true);
    }

    #[test]
    fn every_problem_is_listed_and_a_shape_error_is_one() {
        let answer = check(
            r#"{"board":{"size":10,"snake":[{"head":3,"tail":5},{"head":10,"tail":2}],
                "ladder":[{"foot":4,"top":12}]}}"#,
        )
        .unwrap();
        assert_eq!(answer["valid"], false);
        assert_eq!(answer["problems"].as_array().unwrap().len(), 3, "{answer}");
        let answer = check(r#"{"board":{"size":10,"snakes":[]}}"#).unwrap();
        assert_eq!(answer["problems"].as_array().unwrap().len(), 1);
        assert!(answer["problems"][0].as_str().unwrap().contains("snakes"), "{answer}");
    }

    #[test]
    fn huge_boards_bad_seats_and_bad_rules_are_refused() {
        for (json, needle) in [
            (r#"{"board":{"size":50000}}"#, "50000 cells"),
            (r#"{"board":{"size":10},"seats":0}"#, "seats 0"),
            (r#"{"board":{"size":10},"rules":"fast"}"#, "fast"),
        ] {
            let error = check(json).unwrap_err();
            assert!(error.contains(needle), "{json}: {error}");
        }
    }
}
