//! The HTTP side of SPEC §9: create a room, take a seat, the lobby, a room's public state, and
//! the door to a room's WebSocket; the routes of a room's odds (`odds`), the board check
//! (`boards`) and recorded games (`games`), whose handlers sit in those modules. Every error is `{"error": {"code", "message"}}` with a 4xx
//! status.

use std::sync::{Arc, atomic::Ordering};

use axum::{
    Json, Router,
    body::Bytes,
    extract::{
        Path, State, WebSocketUpgrade, rejection::BytesRejection,
        ws::rejection::WebSocketUpgradeRejection,
    },
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use serde::Deserialize;
use snl_store::RoomWrite;
use snl_wire::{
    api::{ErrorBody, ErrorDetail},
    rooms::{Claim, ClaimAnswer, Created, RoomStatus, Rooms},
};
use tokio::sync::oneshot;

use crate::{
    Shared,
    actor::{self, ClaimError, Handle, Msg},
    room::{ClaimProblem, Room},
    setup::{CheckRoom, CreateRoom},
    token, ws,
};

/// An HTTP error: status, code and one sentence.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError { status, code, message: message.into() }
    }

    pub(crate) fn bad(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    fn no_room(room: &str) -> Self {
        ApiError::new(StatusCode::NOT_FOUND, "no_such_room", format!("there is no room '{room}'"))
    }

    pub(crate) fn gone(room: &str) -> Self {
        ApiError::new(StatusCode::GONE, "room_closed", format!("room '{room}' is closed"))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body =
            ErrorBody { error: ErrorDetail { code: self.code.to_owned(), message: self.message } };
        (self.status, Json(body)).into_response()
    }
}

pub(crate) type ApiResult<T = Response> = Result<T, ApiError>;

/// The routes under `/api/`.
pub(crate) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/api/rooms", post(create).get(lobby))
        .route("/api/rooms/{room}", get(view))
        .route("/api/rooms/{room}/seats/{seat}", post(claim))
        .route("/api/rooms/{room}/ws", get(websocket))
        .route("/api/rooms/{room}/odds", get(crate::odds::endpoint))
        .route("/api/lobby/ws", get(crate::lobby::endpoint))
        .route("/api/boards/check", post(crate::boards::endpoint))
        .route("/api/games", get(crate::games::list))
        .route("/api/games/{id}", get(crate::games::one))
        .fallback(|| async {
            ApiError::new(StatusCode::NOT_FOUND, "not_found", "there is nothing at this address")
        })
        .layer(axum::extract::DefaultBodyLimit::max(crate::MAX_BODY))
        .with_state(shared)
}

pub(crate) fn body_json<T: for<'de> Deserialize<'de>>(
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<T> {
    let body = body.map_err(|e| {
        let status = e.status();
        let code =
            if status == StatusCode::PAYLOAD_TOO_LARGE { "too_large" } else { "bad_request" };
        ApiError::new(status, code, e.body_text())
    })?;
    serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad(format!("the request body is not valid: {e}")))
}

pub(crate) async fn room_handle(shared: &Arc<Shared>, room: &str) -> ApiResult<Handle> {
    match crate::cluster::handle(shared, room).await {
        Ok(handle) => handle.ok_or_else(|| ApiError::no_room(room)),
        Err(message) => {
            Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "server_error", message))
        }
    }
}

async fn create(
    State(shared): State<Arc<Shared>>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let request: CreateRoom = body_json(body)?;
    let randomness = |e: getrandom::Error| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "server_error",
            format!("no randomness: {e}"),
        )
    };
    let setup = request.check(token::random_u64().map_err(randomness)?).map_err(ApiError::bad)?;
    let live = {
        let rooms = shared.rooms.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        rooms.values().filter(|h| h.summary.borrow().status != RoomStatus::Over).count()
    };
    if live >= shared.config.max_rooms {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "room_limit",
            format!(
                "the server holds its limit of {} rooms; try again later",
                shared.config.max_rooms
            ),
        ));
    }
    let id = format!("{:016x}", token::random_u64().map_err(randomness)?);
    let write = RoomWrite::Create {
        room: id.clone(),
        setup: serde_json::to_string(&setup).unwrap_or_default(),
        now_ms: crate::now_ms(),
    };
    shared.writer.write(vec![write], None).await.map_err(|message| {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "server_error", message)
    })?;
    let room = Room::new(id.clone(), setup);
    let handle = actor::spawn(room, shared.writer.clone(), shared.config.bot_delay);
    let seats = handle.summary.borrow().seats.clone();
    crate::cluster::hold(&shared, &id, &handle);
    Ok((StatusCode::CREATED, Json(Created { room: id, seats })).into_response())
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

async fn claim(
    State(shared): State<Arc<Shared>>,
    Path((room, seat)): Path<(String, String)>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let handle = room_handle(&shared, &room).await?;
    let seat: usize = seat.parse().map_err(|_| {
        ApiError::new(StatusCode::NOT_FOUND, "no_such_seat", format!("there is no seat '{seat}'"))
    })?;
    let Claim { name } = body_json(body)?;
    let (reply, answer) = oneshot::channel();
    handle.tx.send(Msg::Claim { seat, name, reply }).await.map_err(|_| ApiError::gone(&room))?;
    match answer.await.map_err(|_| ApiError::gone(&room))? {
        Ok(token) => Ok(Json(ClaimAnswer { seat, token }).into_response()),
        Err(ClaimError::BadName(message)) => Err(ApiError::bad(message)),
        Err(ClaimError::Problem(problem)) => {
            let (status, code) = match problem {
                ClaimProblem::NoSuchSeat(_) => (StatusCode::NOT_FOUND, "no_such_seat"),
                ClaimProblem::NotOpen(_) => (StatusCode::CONFLICT, "seat_taken"),
                ClaimProblem::NameTaken(_) => (StatusCode::CONFLICT, "name_taken"),
            };
            Err(ApiError::new(status, code, problem.to_string()))
        }
        Err(ClaimError::Server(message)) => {
            Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "server_error", message))
        }
    }
}

/// Whether `origin` (if any) is this server's own: same host and port as the request's `Host`.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else { return true };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin = origin.to_str().ok().and_then(|o| o.split_once("://")).map(|(_, rest)| rest);
    matches!((origin, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
}

/// Refuses a page from another origin (`403 bad_origin`).
pub(crate) fn check_origin(headers: &HeaderMap) -> ApiResult<()> {
    if same_origin(headers) {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::FORBIDDEN,
        "bad_origin",
        "a page from another origin cannot open this server's WebSockets",
    ))
}

/// Counts one more WebSocket connection, or refuses it past `--max-connections`.
pub(crate) fn count_connection(shared: &Arc<Shared>) -> ApiResult<ws::Held> {
    let max = shared.config.max_connections;
    let held = shared.connections.fetch_add(1, Ordering::SeqCst);
    let guard = ws::Held(shared.clone());
    if held >= max {
        drop(guard);
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "connection_limit",
            format!("the server holds its limit of {max} connections; try again later"),
        ));
    }
    Ok(guard)
}

async fn websocket(
    State(shared): State<Arc<Shared>>,
    Path(room): Path<String>,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult {
    check_origin(&headers)?;
    let handle = room_handle(&shared, &room).await?;
    let upgrade = upgrade.map_err(|e| ApiError::new(e.status(), "bad_request", e.body_text()))?;
    let guard = count_connection(&shared)?;
    let limits = shared.config.limits;
    Ok(upgrade
        .max_message_size(crate::MAX_WS_MESSAGE)
        .max_frame_size(crate::MAX_WS_MESSAGE)
        // tungstenite's default buffers are 128 KiB each: far more than these frames need. The
        // read buffer is zero-filled to its size at the first read, so its size is paid by every
        // connection: client frames are tens of bytes (a larger one grows it as needed). Writes
        // go out once a batch passes 1 KiB (a turn's frames stay one write), so the buffer a
        // connection keeps is that plus its largest frame; a client that stops reading is cut
        // off at `MAX_WRITE_BUFFER` rather than buffered without end.
        .read_buffer_size(1024)
        .write_buffer_size(1024)
        .max_write_buffer_size(crate::MAX_WRITE_BUFFER)
        .on_upgrade(move |socket| ws::connection(socket, (room, handle), limits, guard)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, host.parse().unwrap());
        if let Some(o) = origin {
            h.insert(header::ORIGIN, o.parse().unwrap());
        }
        h
    }

    #[test]
    fn only_the_servers_own_origin_or_none_may_open_a_websocket() {
        assert!(same_origin(&headers(None, "127.0.0.1:8080")));
        assert!(same_origin(&headers(Some("http://127.0.0.1:8080"), "127.0.0.1:8080")));
        assert!(!same_origin(&headers(Some("http://evil.example"), "127.0.0.1:8080")));
        assert!(!same_origin(&headers(Some("http://127.0.0.1:9999"), "127.0.0.1:8080")));
        assert!(!same_origin(&headers(Some("null"), "127.0.0.1:8080")));
    }
}
