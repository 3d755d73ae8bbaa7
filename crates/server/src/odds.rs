//! `GET /api/rooms/{room}/odds`: each seat's exact chance to win from where the tokens stand
//! ([`snl_analysis::exact::live_odds`], the same work as the full-screen game's panel) and the
//! fewest rolls each still needs. The chain and the fewest-rolls table are worked out once per
//! board and rules and kept; an answer is kept per room until its next event; the work runs on
//! the blocking pool, two at a time at most, so it never holds up a room.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use snl_analysis::{
    exact::{self, RaceLimits, TurnChain},
    solve::rolls_to_finish,
};
use snl_engine::{Board, BoardSpec, Rules};
use snl_wire::api::{OddsAnswer, OddsSeat};
use tokio::sync::Semaphore;

pub(crate) use crate::standing::Standing;

/// Most time the chain of a board may take to build for its odds, in seconds: past it the
/// odds are not worked out (`win` null, `exact` false), and the slot is free again.
pub(crate) const ODDS_SECONDS: u64 = 1;

/// Boards (with their rules) whose tables are kept; past it the oldest half is dropped.
const KEPT_BOARDS: usize = 64;

/// A board's tables under some rules.
#[derive(Debug)]
struct Tables {
    chain: TurnChain,
    rolls_left: Vec<Option<u32>>,
}

/// The kept tables and answers, and the permits for the work.
#[derive(Debug)]
pub(crate) struct Work {
    tables: Mutex<HashMap<String, (u64, Arc<Tables>)>>,
    answers: Mutex<HashMap<String, (u64, OddsAnswer)>>,
    uses: std::sync::atomic::AtomicU64,
    /// Analyses running at once (odds and board checks): the machine's other work goes on.
    pub(crate) permits: Semaphore,
}

impl Default for Work {
    fn default() -> Work {
        Work {
            tables: Mutex::default(),
            answers: Mutex::default(),
            uses: std::sync::atomic::AtomicU64::new(0),
            permits: Semaphore::new(2),
        }
    }
}

impl Work {
    /// The answer kept for `room` at `seq`, if any.
    pub(crate) fn kept(&self, room: &str, seq: u64) -> Option<OddsAnswer> {
        let answers = self.answers.lock().unwrap_or_else(PoisonError::into_inner);
        answers.get(room).filter(|(s, _)| *s == seq).map(|(_, v)| v.clone())
    }

    /// Keeps `answer` for `room` at `seq` (rooms that are gone are dropped with it).
    pub(crate) fn keep(
        &self,
        room: &str,
        seq: u64,
        answer: &OddsAnswer,
        live: &dyn Fn(&str) -> bool,
    ) {
        let mut answers = self.answers.lock().unwrap_or_else(PoisonError::into_inner);
        if answers.len() >= 4 * KEPT_BOARDS {
            answers.retain(|r, _| live(r));
        }
        answers.insert(room.to_owned(), (seq, answer.clone()));
    }

    /// The tables of `board` under `rules`, worked out when not kept; none when building the
    /// chain takes longer than [`ODDS_SECONDS`].
    fn tables(&self, board: &BoardSpec, rules: &Rules) -> Result<Option<Arc<Tables>>, String> {
        let key = serde_json::to_string(&(board, rules)).unwrap_or_default();
        let now = self.uses.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if let Some((used, tables)) =
            self.tables.lock().unwrap_or_else(PoisonError::into_inner).get_mut(&key)
        {
            *used = now;
            return Ok(Some(tables.clone()));
        }
        let board = Board::new(board, rules).map_err(|e| e.to_string())?;
        // Live odds need both the exact chain and the fewest rolls left.
        snl_analysis::check_supported_for(snl_analysis::Work::Exact, &board, rules)
            .and_then(|()| {
                snl_analysis::check_supported_for(snl_analysis::Work::Solve, &board, rules)
            })
            .map_err(|e| e.to_string())?;
        let budget = snl_analysis::Budget::unlimited()
            .with_deadline(std::time::Instant::now() + Duration::from_secs(ODDS_SECONDS));
        let Ok(chain) = TurnChain::new_within(&board, rules, &budget) else { return Ok(None) };
        let tables = Arc::new(Tables { chain, rolls_left: rolls_to_finish(&board, rules) });
        let mut kept = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.len() >= KEPT_BOARDS {
            let mut ages: Vec<u64> = kept.values().map(|(used, _)| *used).collect();
            ages.sort_unstable();
            let cut = ages[ages.len() / 2];
            kept.retain(|_, (used, _)| *used > cut);
        }
        kept.insert(key, (now, tables.clone()));
        Ok(Some(tables))
    }

    /// The odds of `standing` in room `room`, as the endpoint answers (blocking work).
    pub(crate) fn answer(&self, room: &str, standing: &Standing) -> Result<OddsAnswer, String> {
        let tables = self.tables(&standing.board, &standing.rules)?;
        let race = match (standing.winner, &tables) {
            (Some(winner), _) => {
                let mut chances = vec![0.0; standing.names.len()];
                chances[winner] = 1.0;
                Some(snl_analysis::exact::Race { chances, unresolved: 0.0 })
            }
            // On a board with effects the chain's positions are states (cell, shield, skip),
            // and a race is followed to its last round.
            (None, Some(tables)) => {
                exact::standing_odds(&tables.chain, &standing.from, RaceLimits::EXACT)
            }
            (None, None) => None,
        };
        let seats = standing
            .names
            .iter()
            .enumerate()
            .map(|(seat, name)| {
                let position = standing.positions[seat];
                OddsSeat {
                    seat,
                    name: name.clone(),
                    position,
                    win: race.as_ref().map(|r| r.chances[seat]),
                    fewest_rolls: if position == standing.board.size {
                        Some(0)
                    } else {
                        tables
                            .as_ref()
                            .and_then(|t| t.rolls_left.get(position as usize).copied().flatten())
                    },
                }
            })
            .collect();
        Ok(OddsAnswer {
            room: room.to_owned(),
            seq: standing.seq,
            exact: race.is_some(),
            unresolved: race.as_ref().map(|r| r.unresolved),
            seats,
        })
    }
}

/// `GET /api/rooms/{room}/odds`.
pub(crate) async fn endpoint(
    axum::extract::State(shared): axum::extract::State<Arc<crate::Shared>>,
    axum::extract::Path(room): axum::extract::Path<String>,
) -> crate::http::ApiResult<axum::Json<OddsAnswer>> {
    use crate::http::ApiError;
    let handle = crate::cluster::room_handle(&shared, &room).await?;
    let (reply, answer) = tokio::sync::oneshot::channel();
    handle
        .tx
        .send(crate::actor::Msg::Standing { reply })
        .await
        .map_err(|_| ApiError::gone(&room))?;
    let standing = answer.await.map_err(|_| ApiError::gone(&room))?;
    if let Some(kept) = shared.work.kept(&room, standing.seq) {
        return Ok(axum::Json(kept));
    }
    let busy = |_| {
        ApiError::new(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            "server_error",
            "the server is stopping",
        )
    };
    let _permit = shared.work.permits.acquire().await.map_err(busy)?;
    let work = shared.clone();
    let id = room.clone();
    let answer = tokio::task::spawn_blocking(move || {
        work.work.answer(&id, &standing).map(|a| (standing.seq, a))
    })
    .await
    .map_err(|e| {
        ApiError::new(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            "server_error",
            format!("the odds failed: {e}"),
        )
    })?
    .map_err(ApiError::bad)?;
    let live =
        |r: &str| shared.rooms.read().unwrap_or_else(PoisonError::into_inner).contains_key(r);
    shared.work.keep(&room, answer.0, &answer.1, &live);
    Ok(axum::Json(answer.1))
}
