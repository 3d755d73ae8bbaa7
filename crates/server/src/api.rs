//! The HTTP side of SPEC §9: create a room, take a seat, the lobby, a room's public state, and
//! the door to a room's WebSocket; the routes of a room's odds (`odds`) and dice statistics
//! (`dice`), the board check (`boards`) and recorded games (`games`), whose handlers sit in those
//! modules. Every error is `{"error": {"code", "message"}}` with a 4xx status (`http.rs`, which
//! the endpoint modules share).

use std::sync::Arc;

use axum::{
    Json, Router,
    body::Bytes,
    extract::{
        Path, State, WebSocketUpgrade, rejection::BytesRejection,
        ws::rejection::WebSocketUpgradeRejection,
    },
    http::{HeaderMap, StatusCode},
    response::IntoResponse,
    routing::{get, post},
};
use snl_session::fairness::MAX_SEAT_SEED;
use snl_store::RoomWrite;
use snl_wire::rooms::{Claim, ClaimAnswer, Created, NextGame, Rooms};
use tokio::sync::oneshot;

use crate::{
    Shared,
    actor::{self, ClaimError, Msg},
    cluster::room_handle,
    http::{ApiError, ApiResult, body_json, check_origin, count_connection},
    room::{ClaimProblem, Room},
    setup::{CheckRoom, CreateRoom},
    token, ws,
};

/// The routes under `/api/`.
pub(crate) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/api/rooms", post(create).get(lobby))
        .route("/api/rooms/{room}", get(view))
        .route("/api/rooms/{room}/seats/{seat}", post(claim))
        .route("/api/rooms/{room}/ws", get(websocket))
        .route("/api/rooms/{room}/next", post(next))
        .route("/api/rooms/{room}/odds", get(crate::odds::endpoint))
        .route("/api/rooms/{room}/dice", get(dice))
        .route("/api/rooms/{room}/save", get(save))
        .route("/api/lobby/ws", get(crate::lobby::endpoint))
        .route("/api/boards/check", post(crate::boards::endpoint))
        .route("/api/games", get(crate::games::list))
        .route("/api/games/{id}", get(crate::games::one))
        .route("/api/games/{id}/at/{k}", get(crate::games::at))
        // Before the body is read: a cross-site form is refused whatever it holds.
        .route_layer(axum::middleware::from_fn_with_state(shared.clone(), crate::http::guard_post))
        .fallback(|| async {
            ApiError::new(StatusCode::NOT_FOUND, "not_found", "there is nothing at this address")
        })
        .layer(axum::extract::DefaultBodyLimit::max(crate::MAX_BODY))
        .with_state(shared)
}

async fn create(
    State(shared): State<Arc<Shared>>,
    client: Option<axum::Extension<axum::extract::ConnectInfo<std::net::SocketAddr>>>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    if let Some(axum::Extension(axum::extract::ConnectInfo(address))) = client {
        may_create(&shared, address.ip())?;
    }
    let request: CreateRoom = body_json(body)?;
    // A seed named makes the dice known to the room's creator; otherwise the room draws a
    // secret and publishes its commitment (docs/fairness.md).
    let named = request.seed.is_some();
    let mut setup =
        request.check(token::random_u64().map_err(no_randomness)?).map_err(ApiError::bad)?;
    if !named {
        setup.secret = Some(token::secret().map_err(no_randomness)?);
    }
    let (id, handle) = open(&shared, setup).await?;
    let seats = handle.summary.borrow().seats.clone();
    Ok((StatusCode::CREATED, Json(Created { room: id, seats })).into_response())
}

fn no_randomness(e: getrandom::Error) -> ApiError {
    ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "server_error", format!("no randomness: {e}"))
}

/// Stores a new room with `setup` and starts its task: its id and handle.
async fn open(
    shared: &Arc<Shared>,
    setup: crate::setup::RoomSetup,
) -> Result<(String, actor::Handle), ApiError> {
    // Counted and reserved under one lock, so rooms created at once never pass the cap.
    let reserved = Reservation::take(shared)?;
    let id = format!("{:016x}", token::random_u64().map_err(no_randomness)?);
    let write = RoomWrite::Create {
        room: id.clone(),
        setup: serde_json::to_string(&setup).unwrap_or_default(),
        now_ms: crate::now_ms(),
    };
    let unavailable =
        |message: String| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "server_error", message);
    // The new room's lease first (on a shared storage): its every write carries the epoch.
    let lease = shared
        .writer
        .storage()
        .acquire(&id)
        .await
        .map_err(|e| unavailable(e.to_string()))?
        .ok_or_else(|| unavailable(format!("room {id} is held by another node")))?;
    let context = shared.context.under(lease);
    context.writer.write(vec![write], None).await.map_err(unavailable)?;
    let room = Room::new(id.clone(), setup);
    let handle = actor::spawn(room, context);
    crate::cluster::hold(shared, &id, &handle);
    drop(reserved);
    Ok((id, handle))
}

/// Asks a room's task and waits for its answer.
async fn ask<T>(
    handle: &actor::Handle,
    room: &str,
    msg: impl FnOnce(oneshot::Sender<T>) -> Msg,
) -> Result<T, ApiError> {
    let (reply, answer) = oneshot::channel();
    handle.tx.send(msg(reply)).await.map_err(|_| ApiError::gone(room))?;
    answer.await.map_err(|_| ApiError::gone(room))
}

/// `POST /api/rooms/{room}/next`: once a game of a series is over (and the series not
/// decided), opens the next game in a room of its own — the same people seated, each holding
/// the next room's seat with the token that held this room's, the seats moved on by one — and
/// tells this room's connections (a `next` frame). Asked again, it answers the same room.
async fn next(
    State(shared): State<Arc<Shared>>,
    client: Option<axum::Extension<axum::extract::ConnectInfo<std::net::SocketAddr>>>,
    Path(room): Path<String>,
) -> ApiResult {
    let handle = room_handle(&shared, &room).await?;
    let address = client.map(|axum::Extension(axum::extract::ConnectInfo(a))| a.ip());
    let refused =
        |r: crate::room::Refusal| ApiError::new(StatusCode::CONFLICT, "no_next_game", r.message);
    let (mut setup, carried, secret) =
        match ask(&handle, &room, |reply| Msg::NextPlan { reply }).await? {
            Ok(actor::NextPlan::Open(next)) => {
                return Ok(Json(NextGame { room: next }).into_response());
            }
            Ok(actor::NextPlan::New { setup, carried, secret }) => (setup, carried, secret),
            Err(refusal) => return Err(refused(refusal)),
        };
    // Opened on a task of its own: a caller who goes away midway leaves no half-open series
    // (those waiting for the next game are answered either way).
    let room_id = room.clone();
    let task = tokio::spawn(async move {
        let opened = async {
            if let Some(address) = address {
                may_create(&shared, address)?;
            }
            if secret {
                setup.secret = Some(token::secret().map_err(no_randomness)?);
            }
            let (id, next_handle) = open(&shared, *setup).await?;
            for (seat, name, hash) in carried {
                ask(&next_handle, &id, |reply| Msg::Carry { seat, name, hash, reply })
                    .await?
                    .map_err(|r| {
                        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "server_error", r.message)
                    })?;
            }
            Ok::<_, ApiError>(id)
        }
        .await;
        // The room is told either way (those waiting are answered); a failure to open is
        // answered as itself.
        let told = opened.as_ref().ok().cloned();
        let said = ask(&handle, &room_id, |reply| Msg::NextOpened { room: told, reply }).await?;
        let id = opened?;
        said.map_err(refused)?;
        Ok(id)
    });
    let id = task.await.map_err(|e| {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "server_error", format!("{e}"))
    })??;
    Ok((StatusCode::CREATED, Json(NextGame { room: id })).into_response())
}

/// Most client addresses whose buckets are kept; past it the full ones are forgotten.
const KEPT_CREATORS: usize = 10_000;

/// Takes a room from `address`'s token bucket (`Config::create_limit`), or says when to come
/// back.
fn may_create(shared: &Shared, address: std::net::IpAddr) -> Result<(), ApiError> {
    let limit = shared.config.create_limit;
    let (rate, burst) = (f64::from(limit.rate) / 60.0, f64::from(limit.burst));
    let now = std::time::Instant::now();
    let mut creators = shared.creators.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if creators.len() >= KEPT_CREATORS {
        creators.retain(|_, (tokens, at)| {
            *tokens + now.duration_since(*at).as_secs_f64() * rate < burst
        });
    }
    let (tokens, at) = creators.entry(address).or_insert((burst, now));
    *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * rate).min(burst);
    *at = now;
    if *tokens >= 1.0 {
        *tokens -= 1.0;
        return Ok(());
    }
    let wait = if rate > 0.0 { ((1.0 - *tokens) / rate).ceil() } else { f64::INFINITY };
    Err(ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "rate_limited",
        format!(
            "{address} created {} rooms lately, the most at once; the next in {wait} s",
            limit.burst
        ),
    ))
}

/// A room being created, counted against `--max-rooms` until it is held.
struct Reservation(Arc<Shared>);

impl Reservation {
    /// Reserves a place for a room: the rooms in memory (tasks that live: open, running, or
    /// over and lingering) and those being created stay within `--max-rooms`.
    fn take(shared: &Arc<Shared>) -> Result<Reservation, ApiError> {
        let mut rooms = shared.rooms.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        // Rooms whose task ended (left memory, or closed by a storage failure) count no more.
        rooms.retain(|_, h| !h.tx.is_closed());
        let creating = shared.creating.load(std::sync::atomic::Ordering::SeqCst);
        if rooms.len() + creating >= shared.config.max_rooms {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "room_limit",
                format!(
                    "the server holds its limit of {} rooms; try again later",
                    shared.config.max_rooms
                ),
            ));
        }
        shared.creating.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Ok(Reservation(shared.clone()))
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.0.creating.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

async fn lobby(State(shared): State<Arc<Shared>>) -> Json<Rooms> {
    Json(Rooms { rooms: crate::lobby::listing(&shared) })
}

async fn view(State(shared): State<Arc<Shared>>, Path(room): Path<String>) -> ApiResult {
    let handle = room_handle(&shared, &room).await?;
    let (reply, answer) = oneshot::channel();
    handle.tx.send(Msg::View { reply }).await.map_err(|_| ApiError::gone(&room))?;
    Ok(Json(answer.await.map_err(|_| ApiError::gone(&room))?).into_response())
}

/// `GET /api/rooms/{room}/save`: the room's game as a save file keeps it, its dice with the
/// revealed secret, once the game is over (`snl verify ROOM_URL` reads it).
async fn save(State(shared): State<Arc<Shared>>, Path(room): Path<String>) -> ApiResult {
    let handle = room_handle(&shared, &room).await?;
    let (reply, answer) = oneshot::channel();
    handle.tx.send(Msg::Save { reply }).await.map_err(|_| ApiError::gone(&room))?;
    match answer.await.map_err(|_| ApiError::gone(&room))? {
        Ok(save) => Ok(([(axum::http::header::CONTENT_TYPE, "application/json")], save.to_json())
            .into_response()),
        Err(message) => Err(ApiError::new(StatusCode::CONFLICT, "not_over", message)),
    }
}

async fn claim(
    State(shared): State<Arc<Shared>>,
    Path((room, seat)): Path<(String, String)>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let handle = room_handle(&shared, &room).await?;
    let seat: usize = seat.parse().map_err(|_| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no_such_seat",
            format!("there is no seat '{}'", crate::quote::shown(&seat)),
        )
    })?;
    let Claim { name, seed } = body_json(body)?;
    if let Some(seed) = seed.as_deref().filter(|s| s.chars().count() > MAX_SEAT_SEED) {
        return Err(ApiError::bad(format!(
            "seed '{}' is longer than {MAX_SEAT_SEED} characters",
            crate::quote::shown(seed)
        )));
    }
    let (reply, answer) = oneshot::channel();
    handle
        .tx
        .send(Msg::Claim { seat, name, seed, reply })
        .await
        .map_err(|_| ApiError::gone(&room))?;
    match answer.await.map_err(|_| ApiError::gone(&room))? {
        Ok(token) => Ok(Json(ClaimAnswer { seat, token }).into_response()),
        Err(ClaimError::BadName(message)) => Err(ApiError::bad(message)),
        Err(ClaimError::Problem(problem)) => {
            let (status, code) = match problem {
                ClaimProblem::NoSuchSeat(_) => (StatusCode::NOT_FOUND, "no_such_seat"),
                ClaimProblem::NotOpen(_) => (StatusCode::CONFLICT, "seat_taken"),
                ClaimProblem::NameTaken(_) | ClaimProblem::LooksLike(..) => {
                    (StatusCode::CONFLICT, "name_taken")
                }
            };
            Err(ApiError::new(status, code, problem.to_string()))
        }
        Err(ClaimError::Server(message)) => {
            Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "server_error", message))
        }
    }
}

async fn websocket(
    State(shared): State<Arc<Shared>>,
    Path(room): Path<String>,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult {
    check_origin(&headers, &shared.config.allow_origins)?;
    let handle = room_handle(&shared, &room).await?;
    let upgrade = upgrade.map_err(|e| ApiError::new(e.status(), "bad_request", e.body_text()))?;
    let guard = count_connection(&shared)?;
    let limits = shared.config.limits;
    Ok(upgrade
        .max_message_size(crate::MAX_WS_MESSAGE)
        .max_frame_size(crate::MAX_WS_MESSAGE)
        // tungstenite's default buffers are 128 KiB each: far more than these frames need. The
        // read buffer is made at its size with the connection and zero-filled at the first
        // read, so its size is paid by every connection: client frames are tens of bytes (an
        // intent about 30, a hello with its token about 100; a larger one grows it as needed),
        // and 256 bytes hold any of them in one read. Writes go out once a batch passes 1 KiB
        // (a turn's frames stay one write), so the buffer a connection keeps is that plus its
        // largest frame; a client that stops reading is cut off at `MAX_WRITE_BUFFER` rather
        // than buffered without end.
        .read_buffer_size(crate::READ_BUFFER)
        .write_buffer_size(1024)
        .max_write_buffer_size(crate::MAX_WRITE_BUFFER)
        .on_upgrade(move |socket| {
            let id = room.clone();
            let read_back = move || -> ws::ReadBack {
                let (shared, room) = (shared.clone(), id.clone());
                Box::pin(async move { room_handle(&shared, &room).await.ok() })
            };
            ws::connection(socket, (room, handle), limits, guard, read_back)
        }))
}

/// `GET /api/rooms/{room}/dice`.
async fn dice(
    axum::extract::State(shared): axum::extract::State<Arc<crate::Shared>>,
    axum::extract::Path(room): axum::extract::Path<String>,
) -> crate::http::ApiResult<axum::Json<snl_wire::api::DiceAnswer>> {
    let handle = room_handle(&shared, &room).await?;
    let (reply, answer) = tokio::sync::oneshot::channel();
    handle.tx.send(crate::actor::Msg::Dice { reply }).await.map_err(|_| ApiError::gone(&room))?;
    let faces = answer.await.map_err(|_| ApiError::gone(&room))?;
    let answer = tokio::task::spawn_blocking(move || shared.dice.answer(&room, &faces))
        .await
        .map_err(|e| {
            ApiError::new(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                "server_error",
                format!("the dice statistics failed: {e}"),
            )
        })?;
    Ok(axum::Json(answer))
}
