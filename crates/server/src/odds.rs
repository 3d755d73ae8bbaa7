//! `GET /api/rooms/{room}/odds`: each seat's exact chance to win from where the tokens stand
//! ([`snl_wire::answers::OddsTables`], the same work as the full-screen game's panel and the
//! browser's engine) and the
//! fewest rolls each still needs. The chain and the fewest-rolls table are worked out once per
//! board and rules and kept; an answer is kept per room until its next event; the work runs on
//! the blocking pool, two at a time at most, so it never holds up a room.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, PoisonError},
};

use snl_engine::{BoardSpec, Rules};
use snl_wire::{
    answers::{OddsAsked, OddsTables as Tables},
    api::OddsAnswer,
};
use tokio::sync::Semaphore;

pub(crate) use crate::standing::Standing;

/// Most time the chain of a board may take to build for its odds, in seconds: past it the
/// odds are not worked out (`win` null, `exact` false), and the slot is free again.
pub(crate) const ODDS_SECONDS: u64 = 1;

/// Boards (with their rules) whose tables are kept; past it the oldest half is dropped.
const KEPT_BOARDS: usize = 64;

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

    /// The tables of `board` under `rules`, worked out when not kept.
    fn tables(&self, board: &BoardSpec, rules: &Rules) -> Result<Arc<Tables>, String> {
        let key = serde_json::to_string(&(board, rules)).unwrap_or_default();
        let now = self.uses.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if let Some((used, tables)) =
            self.tables.lock().unwrap_or_else(PoisonError::into_inner).get_mut(&key)
        {
            *used = now;
            return Ok(tables.clone());
        }
        let budget = snl_analysis::Budget::unlimited().with_deadline(
            std::time::Instant::now() + std::time::Duration::from_secs(ODDS_SECONDS),
        );
        let tables = Arc::new(Tables::new_within(board, rules, &budget)?);
        let mut kept = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.len() >= KEPT_BOARDS {
            let mut ages: Vec<u64> = kept.values().map(|(used, _)| *used).collect();
            ages.sort_unstable();
            let cut = ages[ages.len() / 2];
            kept.retain(|_, (used, _)| *used > cut);
        }
        kept.insert(key, (now, tables.clone()));
        Ok(tables)
    }

    /// The odds of `standing` in room `room`, as the endpoint answers (blocking work).
    pub(crate) fn answer(&self, room: &str, standing: &Standing) -> Result<OddsAnswer, String> {
        let tables = self.tables(&standing.board, &standing.rules)?;
        Ok(tables.answer(&OddsAsked {
            room,
            seq: standing.seq,
            names: &standing.names,
            positions: &standing.positions,
            from: &standing.from,
            winner: standing.winner,
        }))
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
