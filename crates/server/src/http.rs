//! The edge of the HTTP API: its error (one JSON shape, SPEC §9), reading a JSON body, the Origin
//! check, the guard on every POST and the connection count — what every endpoint module shares,
//! kept apart from the router (`api.rs`) so that the endpoints import this and the router imports
//! them, never the reverse.

use std::sync::{Arc, atomic::Ordering};

use axum::{
    Json,
    body::Bytes,
    extract::{Request, rejection::BytesRejection},
    http::{HeaderMap, Method, StatusCode, header},
    middleware::Next,
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
    let origin = headers.get(header::ORIGIN).map_or("", |o| o.to_str().unwrap_or("?"));
    Err(ApiError::new(
        StatusCode::FORBIDDEN,
        "bad_origin",
        format!("a page from '{}' is not this server's own and cannot use its API", shown(origin)),
    ))
}

/// Refuses a body not declared as JSON (`415 bad_content_type`): a page of another site may send
/// a form or plain text anywhere without asking, but `application/json` only to its own origin
/// (or one that lets it, which this server never does).
fn check_json(headers: &HeaderMap) -> ApiResult<()> {
    let declared = headers.get(header::CONTENT_TYPE).map(|v| v.to_str().unwrap_or("?"));
    let media = declared.map(|v| v.split(';').next().unwrap_or_default().trim());
    if media.is_some_and(|m| m.eq_ignore_ascii_case("application/json")) {
        return Ok(());
    }
    let message = match declared {
        None => "a POST with no Content-Type is refused: send its body as application/json".into(),
        Some(v) => format!("a POST's body must be application/json, not '{}'", shown(v)),
    };
    Err(ApiError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, "bad_content_type", message))
}

/// Every POST passes here first: from this server's own origin (or a program, which sends none)
/// and with a JSON body, so that a cross-site form can neither create a room nor take a seat.
pub(crate) async fn guard_post(request: Request, next: Next) -> Response {
    if request.method() == Method::POST {
        let headers = request.headers();
        if let Err(refused) = check_origin(headers).and_then(|()| check_json(headers)) {
            return refused.into_response();
        }
    }
    next.run(request).await
}

/// The most characters of a value that an error message quotes.
pub(crate) const VALUE_SHOWN: usize = 40;

/// `value` as an error message quotes it: at most [`VALUE_SHOWN`] characters (the last `…` when it
/// was cut), control and invisible characters written as escapes (`\u{200b}`), so that what a
/// client sent can neither fill a message nor hide in it.
pub(crate) fn shown(value: &str) -> String {
    let mut out = String::new();
    let mut count = 0;
    for c in value.chars() {
        let piece = if c.is_control() || hidden(c) {
            c.escape_unicode().to_string()
        } else {
            c.to_string()
        };
        let len = piece.chars().count();
        if count + len > VALUE_SHOWN {
            let mut cut: String = out.chars().take(VALUE_SHOWN - 1).collect();
            cut.push('…');
            return cut;
        }
        out.push_str(&piece);
        count += len;
    }
    out
}

/// Whether `c` is drawn as nothing (zero-width spaces and joiners, the word joiner, the byte
/// order mark) or changes the direction of the text around it (bidi embeddings, overrides and
/// isolates): a name holding one can look like another.
pub(crate) fn hidden(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
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

    #[test]
    fn a_value_quoted_is_cut_to_40_characters_with_its_hidden_characters_escaped() {
        assert_eq!(shown("Ann"), "Ann");
        let long = "x".repeat(10_000);
        assert_eq!(shown(&long), format!("{}…", "x".repeat(39)));
        assert_eq!(shown("A\u{200b}n\u{202e}n\n"), "A\\u{200b}n\\u{202e}n\\u{a}");
    }

    #[test]
    fn only_a_body_declared_json_is_taken() {
        let mut h = HeaderMap::new();
        assert!(check_json(&h).is_err());
        for (value, ok) in [
            ("application/json", true),
            ("Application/JSON; charset=utf-8", true),
            ("text/plain", false),
            ("application/x-www-form-urlencoded", false),
            ("multipart/form-data; boundary=x", false),
            ("application/jsonx", false),
        ] {
            h.insert(header::CONTENT_TYPE, value.parse().unwrap());
            assert_eq!(check_json(&h).is_ok(), ok, "{value}");
        }
    }
}
