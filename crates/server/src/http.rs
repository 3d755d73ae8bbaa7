//! The edge of the HTTP API: its error (one JSON shape, SPEC §9), reading a JSON body, the Origin
//! check and the connection count — what every endpoint module shares, kept apart from the router
//! (`api.rs`) so that the endpoints import this and the router imports them, never the reverse.

use std::sync::{Arc, atomic::Ordering};

use axum::{
    Json,
    body::Bytes,
    extract::rejection::BytesRejection,
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::Deserialize;
use snl_wire::api::{ErrorBody, ErrorDetail};

use crate::{Shared, ws};

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

    pub(crate) fn no_room(room: &str) -> Self {
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
