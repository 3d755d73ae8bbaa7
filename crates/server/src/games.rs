//! `GET /api/games` and `GET /api/games/{id}`: the games recorded in the server's database —
//! those `snl play` recorded there and the online games that ended — listed in pages, and one
//! game whole for a replay: board, rules, seats and every event numbered from 1, told by
//! replaying its history exactly as `snl replay` does (a game that does not replay is refused).
//! Reads go through one read-only connection of their own, on the blocking pool, so they never
//! wait for the rooms' writer.

use std::{
    path::PathBuf,
    sync::{Mutex, PoisonError},
};

use serde::Serialize;
use snl_engine::{Event, Game};
use snl_store::{Database, DbError, DiceState, GameId, Save};
use snl_wire::{
    api::{DiceProof, GameEntry, GamePage, RecordedGame},
    rooms::RoomFairness,
};
use snl_words::Sentences;

/// Most games in one page of the list.
pub const MAX_PAGE: usize = 100;
/// Games in a page when the request does not say.
pub const DEFAULT_PAGE: usize = 20;
/// Most rolls in a game sent whole (a game of about 100,000 events, a few megabytes).
pub const MAX_REPLAY_MOVES: usize = 20_000;

/// Why a read failed: a status, a code and one sentence.
pub(crate) type ReadError = (u16, &'static str, String);

/// The server's reader of recorded games.
#[derive(Debug)]
pub(crate) struct Library {
    path: PathBuf,
    db: Mutex<Option<Database>>,
}

impl Library {
    pub(crate) fn new(path: PathBuf) -> Library {
        Library { path, db: Mutex::new(None) }
    }

    /// Runs `read` on the read-only connection, opening it the first time.
    fn with<T>(&self, read: impl FnOnce(&Database) -> Result<T, DbError>) -> Result<T, ReadError> {
        let mut db = self.db.lock().unwrap_or_else(PoisonError::into_inner);
        if db.is_none() {
            *db = Some(Database::open_existing(&self.path).map_err(|e| Library::failure(&e))?);
        }
        read(db.as_ref().expect("opened above")).map_err(|e| Library::failure(&e))
    }

    fn failure(error: &DbError) -> ReadError {
        match error {
            DbError::NoSuchGame(id) => {
                (404, "no_such_game", format!("there is no game {id} in the database"))
            }
            other => (503, "server_error", format!("the game database {other}")),
        }
    }

    /// A page of the list, newest first (blocking).
    pub(crate) fn page(&self, before: Option<i64>, limit: usize) -> Result<GamePage, ReadError> {
        let games = self.with(|db| db.games_page(before.map(GameId), limit))?;
        let next = (games.len() == limit).then(|| games.last().map(|g| g.id.0)).flatten();
        Ok(GamePage { games, next })
    }

    /// Game `id` whole, for a replay (blocking).
    pub(crate) fn game(&self, id: i64) -> Result<RecordedGame, ReadError> {
        let (save, summary, chat) = self.with(|db| {
            let save = db.load(GameId(id))?;
            let summary = db.games_page(Some(GameId(id + 1)), 1)?.pop();
            Ok((save, summary, db.chat(GameId(id))?))
        })?;
        let state = &save.game;
        if state.history.len() > MAX_REPLAY_MOVES {
            return Err((
                413,
                "too_large",
                format!(
                    "game {id} has {} rolls, more than the {MAX_REPLAY_MOVES} a replay is sent",
                    state.history.len()
                ),
            ));
        }
        let mut events: Vec<Event> = Vec::new();
        let end = Game::replay(state, &mut events)
            .map_err(|e| (409, "bad_game", format!("game {id} cannot be replayed: {e}")))?;
        // Told as every front end tells them, from the game's start.
        let start = Game::new(end.board().clone(), *end.rules(), end.seats().to_vec())
            .map_err(|e| (409, "bad_game", format!("game {id} cannot be replayed: {e}")))?;
        let mut sentences = Sentences::new(&start);
        let events = events
            .iter()
            .zip(1..)
            .map(|(e, seq)| GameEntry {
                seq,
                event: e.named(&state.seats),
                text: sentences.sentence(e),
            })
            .collect();
        let ranking = end.ranking().iter().map(|&s| state.seats[s].name.clone()).collect();
        Ok(RecordedGame {
            id,
            board_name: save.board_name.clone(),
            board: state.board.clone(),
            rules: state.rules,
            start: state.rules.start_position(),
            seats: state.seats.clone(),
            status: summary.map(|s| s.status.as_str().to_owned()),
            turns: end.turns(),
            positions: end.positions(),
            ranking,
            events,
            legend: crate::room::legend_entries(end.board()),
            chat,
            dice: dice_proof(&save),
        })
    }
}

/// What the replay page checks the game's dice with.
fn dice_proof(save: &Save) -> DiceProof {
    let history = save.game.history.clone();
    match &save.dice {
        DiceState::Seeded { seed, room, .. } => DiceProof {
            seed: Some(seed.to_string()),
            room: room.as_ref().map(|r| RoomFairness {
                commitment: r.commitment.clone(),
                seat_seeds: r.seat_seeds.iter().cloned().map(Some).collect(),
                secret: Some(r.secret.clone()),
                seed: Some(*seed),
            }),
            history,
        },
        DiceState::Scripted(_) => DiceProof { seed: None, room: None, history },
    }
}

impl Library {
    /// Game `id` as it stood after its first `k` events, worked out on `work` (blocking).
    pub(crate) fn at(
        &self,
        id: i64,
        k: u64,
        work: &crate::odds::Work,
    ) -> Result<snl_wire::api::GameAt, ReadError> {
        let save = self.with(|db| db.load(GameId(id)))?;
        let state = &save.game;
        if state.history.len() > MAX_REPLAY_MOVES {
            let too_many =
                format!("game {id} has {} rolls, more than a replay is sent", state.history.len());
            return Err((413, "too_large", too_many));
        }
        // The game after each roll, kept while its events are no more than k.
        let start = Game::new(
            snl_engine::Board::new(&state.board, &state.rules)
                .map_err(|e| (409, "bad_game", format!("game {id} cannot be replayed: {e}")))?,
            state.rules,
            state.seats.clone(),
        )
        .map_err(|e| (409, "bad_game", format!("game {id} cannot be replayed: {e}")))?;
        let mut at = (0, start);
        let mut events: Vec<Event> = Vec::new();
        Game::replay_stepwise(state, &mut events, |game, told| {
            if told.len() as u64 <= k {
                at = (told.len() as u64, game.clone());
            }
        })
        .map_err(|e| (409, "bad_game", format!("game {id} cannot be replayed: {e}")))?;
        let (seq, game) = at;
        let standing = crate::odds::Standing {
            seq,
            board: state.board.clone(),
            rules: state.rules,
            names: state.seats.iter().map(|s| Some(s.name.clone())).collect(),
            positions: game.positions(),
            from: snl_analysis::exact::Standing::of(&game),
            winner: game.ranking().first().copied(),
        };
        let odds = work
            .answer(&format!("game {id}"), &standing)
            .map_err(|e| (503, "server_error", format!("the odds of game {id}: {e}")))?;
        let faces =
            snl_session::dice_stats::game_faces(&state.rules, state.seats.len(), game.history());
        Ok(snl_wire::api::GameAt {
            id,
            at: seq,
            seats: snl_wire::views::seat_lines(&game),
            race: snl_words::race_status_of(&game),
            odds,
            faces: snl_session::dice_stats::die_faces(&state.rules),
            dice: faces.iter().map(crate::dice::dice_test).collect(),
        })
    }
}

/// The query of `GET /api/games`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PageQuery {
    /// Games numbered below this one.
    before: Option<i64>,
    /// How many, 1 to [`MAX_PAGE`].
    limit: Option<usize>,
}

fn read_error((status, code, message): ReadError) -> crate::http::ApiError {
    let status = axum::http::StatusCode::from_u16(status)
        .unwrap_or(axum::http::StatusCode::SERVICE_UNAVAILABLE);
    crate::http::ApiError::new(status, code, message)
}

async fn blocking<T: Serialize + Send + 'static>(
    shared: std::sync::Arc<crate::Shared>,
    read: impl FnOnce(&Library) -> Result<T, ReadError> + Send + 'static,
) -> crate::http::ApiResult<axum::Json<T>> {
    let answer = tokio::task::spawn_blocking(move || read(&shared.library))
        .await
        .map_err(|e| read_error((503, "server_error", format!("the read failed: {e}"))))?;
    answer.map(axum::Json).map_err(read_error)
}

/// `GET /api/games?before=ID&limit=N`.
pub(crate) async fn list(
    axum::extract::State(shared): axum::extract::State<std::sync::Arc<crate::Shared>>,
    query: Result<axum::extract::Query<PageQuery>, axum::extract::rejection::QueryRejection>,
) -> crate::http::ApiResult<axum::Json<GamePage>> {
    let axum::extract::Query(query) = query.map_err(|e| {
        crate::http::ApiError::bad(format!("the query is not valid: {}", e.body_text()))
    })?;
    let limit = query.limit.unwrap_or(DEFAULT_PAGE);
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(crate::http::ApiError::bad(format!("limit {limit} is outside 1..={MAX_PAGE}")));
    }
    let before = query.before;
    blocking(shared, move |library| library.page(before, limit)).await
}

/// `GET /api/games/{id}`.
pub(crate) async fn one(
    axum::extract::State(shared): axum::extract::State<std::sync::Arc<crate::Shared>>,
    axum::extract::Path(id): axum::extract::Path<String>,
) -> crate::http::ApiResult<axum::Json<RecordedGame>> {
    let Ok(number) = id.parse::<i64>() else {
        return Err(read_error((
            404,
            "no_such_game",
            format!("there is no game '{}'", crate::quote::shown(&id)),
        )));
    };
    blocking(shared, move |library| library.game(number)).await
}

/// `GET /api/games/{id}/at/{k}`.
pub(crate) async fn at(
    axum::extract::State(shared): axum::extract::State<std::sync::Arc<crate::Shared>>,
    axum::extract::Path((id, k)): axum::extract::Path<(String, String)>,
) -> crate::http::ApiResult<axum::Json<snl_wire::api::GameAt>> {
    let Ok(number) = id.parse::<i64>() else {
        let unknown = format!("there is no game '{}'", crate::quote::shown(&id));
        return Err(read_error((404, "no_such_game", unknown)));
    };
    let Ok(k) = k.parse::<u64>() else {
        let bad = format!("'{}' is not a number of events", crate::quote::shown(&k));
        return Err(crate::http::ApiError::bad(bad));
    };
    let busy = |_| read_error((503, "server_error", "the server is stopping".to_owned()));
    let work = shared.clone();
    let _permit = work.work.permits.acquire().await.map_err(busy)?;
    let odds = shared.clone();
    blocking(shared, move |library| library.at(number, k, &odds.work)).await
}
