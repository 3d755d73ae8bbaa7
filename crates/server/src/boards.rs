//! `POST /api/boards/check`: a board as the editor holds it, checked as `snl board validate`
//! checks it (every problem listed), and when it is valid its exact analysis
//! ([`snl_wire::answers`], as the browser's engine works it out): the expected
//! length of a game, each seat's chance to win, the fewest rolls and one shortest path. Boards
//! up to [`MAX_CHECK_CELLS`] cells; the work is bounded by [`MAX_SECONDS`] (past it the answer
//! says it is not exact).

use std::time::{Duration, Instant};

use snl_analysis::Budget;
use snl_wire::answers::{CheckLimits, Checked};
pub use snl_wire::api::{BoardCheck as CheckBoard, BoardCheckAnswer};

use crate::setup::MAX_SEATS;

/// Most cells on a board checked (as many as a room takes).
pub const MAX_CHECK_CELLS: u32 = crate::setup::MAX_CELLS;
/// Most time the exact game length distribution may take, in seconds.
pub const MAX_SECONDS: u64 = 2;

/// What is asked of a check here: as many seats and cells as a room takes.
const LIMITS: CheckLimits = CheckLimits { max_seats: MAX_SEATS, max_cells: MAX_CHECK_CELLS };

/// The answer to a checked request (blocking work), cut short after [`MAX_SECONDS`].
fn answer(checked: &Checked) -> Result<BoardCheckAnswer, String> {
    let deadline = Instant::now() + Duration::from_secs(MAX_SECONDS);
    checked.answer(Budget::unlimited().with_deadline(deadline))
}

/// `POST /api/boards/check`.
pub(crate) async fn endpoint(
    axum::extract::State(shared): axum::extract::State<std::sync::Arc<crate::Shared>>,
    body: Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>,
) -> crate::http::ApiResult<axum::Json<BoardCheckAnswer>> {
    use crate::http::ApiError;
    let request: CheckBoard = crate::http::body_json(body)?;
    let checked = Checked::new(request, LIMITS).map_err(ApiError::bad)?;
    let unavailable = |message: String| {
        ApiError::new(axum::http::StatusCode::SERVICE_UNAVAILABLE, "server_error", message)
    };
    let _permit = shared
        .work
        .permits
        .acquire()
        .await
        .map_err(|_| unavailable("the server is stopping".into()))?;
    let answer = tokio::task::spawn_blocking(move || answer(&checked))
        .await
        .map_err(|e| unavailable(format!("the check failed: {e}")))?
        .map_err(ApiError::bad)?;
    Ok(axum::Json(answer))
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::json;

    fn check(json: &str) -> Result<serde_json::Value, String> {
        let request = serde_json::from_str::<CheckBoard>(json).map_err(|e| e.to_string())?;
        answer(&Checked::new(request, LIMITS)?).map(|a| json!(a))
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
