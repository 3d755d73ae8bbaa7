//! The edge of the HTTP API: its error (one JSON shape, SPEC §9), reading a JSON body, the Origin
//! check, the guard on every POST and the connection count — what every endpoint module shares,
//! kept apart from the router (`api.rs`) so that the endpoints import this and the router imports
//! them, never the reverse.

use std::sync::{Arc, atomic::Ordering};

use axum::{
    Json,
    body::Bytes,
    extract::{Request, State, rejection::BytesRejection},
    http::{HeaderMap, Method, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use serde::Deserialize;
use snl_wire::api::{ErrorBody, ErrorDetail};

use crate::{Shared, quote::shown, ws};

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
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no_such_room",
            format!("there is no room '{}'", shown(room)),
        )
    }

    pub(crate) fn gone(room: &str) -> Self {
        ApiError::new(StatusCode::GONE, "room_closed", format!("room '{}' is closed", shown(room)))
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

/// `origin` as two origins are compared: lower case, without the scheme's default port
/// (`http://a:80` is `http://a`, as a browser writes it).
fn canonical(origin: &str) -> String {
    let origin = origin.to_ascii_lowercase();
    for (scheme, port) in [("http://", ":80"), ("https://", ":443")] {
        if origin.starts_with(scheme) && origin.ends_with(port) {
            return origin[..origin.len() - port.len()].to_owned();
        }
    }
    origin
}

/// Whether the request's `Origin` (if any) may use the API: the server's own — `http://` and the
/// request's `Host` (the server speaks plain HTTP, so `https://HOST` or `chrome-extension://HOST`
/// is another origin) — or one of `allowed` (`--allow-origin`, in [`origin`]'s form).
fn same_origin(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else { return true };
    let Ok(origin) = origin.to_str() else { return false };
    let origin = canonical(origin);
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    host.is_some_and(|h| canonical(&format!("http://{h}")) == origin)
        || allowed.iter().any(|a| canonical(a) == origin)
}

/// An origin as `--allow-origin` takes it: `scheme://host[:port]` (a final `/` is dropped),
/// written as the server compares it.
///
/// # Errors
///
/// One sentence naming the value when it is not of that form (a path, a query, a user, a
/// space, no scheme or no host).
pub fn origin(text: &str) -> Result<String, String> {
    let text = match text.strip_suffix('/') {
        Some(bare) if !bare.ends_with(":/") => bare,
        _ => text,
    };
    let shape = text.split_once("://").is_some_and(|(scheme, host)| {
        let mut scheme_chars = scheme.chars();
        scheme_chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && scheme_chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
            && !host.is_empty()
            && !host.starts_with(':')
            && host.chars().all(|c| c.is_ascii_graphic() && !"/?#@\\".contains(c))
    });
    if !shape {
        return Err(format!(
            "'{}' is not an origin: write scheme://host[:port], as https://snl.example.com",
            shown(text)
        ));
    }
    Ok(canonical(text))
}

/// Refuses a page from another origin (`403 bad_origin`); `allowed` as in [`same_origin`].
pub(crate) fn check_origin(headers: &HeaderMap, allowed: &[String]) -> ApiResult<()> {
    if same_origin(headers, allowed) {
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
pub(crate) async fn guard_post(
    State(shared): State<Arc<Shared>>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() == Method::POST {
        let headers = request.headers();
        let allowed = &shared.config.allow_origins;
        if let Err(refused) = check_origin(headers, allowed).and_then(|()| check_json(headers)) {
            return refused.into_response();
        }
    }
    next.run(request).await
}

/// Every error the server answers is the JSON error of SPEC §9: one that the framework made
/// (a method a route does not take, an address it cannot read), with no body or a text one, is
/// written again as JSON with a code for its status; its other headers (`Allow`) are kept.
/// (Requests that hyper cannot parse at all, a head too large or not HTTP, are answered by hyper
/// itself, with no body, before any of this runs.)
pub(crate) async fn json_errors(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let response = next.run(request).await;
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let at = shown(&path);
    let (code, message) = match status {
        StatusCode::METHOD_NOT_ALLOWED => {
            let allow = response.headers().get(header::ALLOW).and_then(|v| v.to_str().ok());
            let message = match allow.filter(|a| !a.is_empty()) {
                Some(allow) => format!("'{at}' does not take {method}, only {allow}"),
                None => format!("'{at}' does not take {method}"),
            };
            ("method_not_allowed", message)
        }
        StatusCode::NOT_FOUND => ("not_found", format!("there is nothing at '{at}'")),
        StatusCode::PAYLOAD_TOO_LARGE => {
            ("too_large", format!("the request to '{at}' is larger than the server takes"))
        }
        _ if status.is_server_error() => {
            ("server_error", format!("the server could not answer {method} '{at}' ({status})"))
        }
        _ => ("bad_request", format!("{method} '{at}' is refused ({status})")),
    };
    let (parts, _) = response.into_parts();
    let mut answer = ApiError::new(status, code, message).into_response();
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            answer.headers_mut().append(name, value.clone());
        }
    }
    answer
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
        let own = |origin| same_origin(&headers(origin, "127.0.0.1:8080"), &[]);
        assert!(own(None));
        assert!(own(Some("http://127.0.0.1:8080")));
        assert!(own(Some("HTTP://127.0.0.1:8080")));
        assert!(!own(Some("http://evil.example")));
        assert!(!own(Some("http://127.0.0.1:9999")));
        assert!(!own(Some("null")));
        assert!(!own(Some("https://127.0.0.1:8080")));
        assert!(!own(Some("chrome-extension://127.0.0.1:8080")));
        assert!(!own(Some("127.0.0.1:8080")));
        assert!(same_origin(&headers(Some("http://snl.example"), "snl.example:80"), &[]));
    }

    #[test]
    fn an_allowed_origin_is_let_in_with_its_own_scheme_only() {
        let allowed = [origin("https://Snl.Example.com/").unwrap()];
        let at = |o| same_origin(&headers(Some(o), "127.0.0.1:8080"), &allowed);
        assert!(at("https://snl.example.com"));
        assert!(at("https://snl.example.com:443"));
        assert!(!at("http://snl.example.com"));
        assert!(!at("https://snl.example.com:8443"));
        assert!(at("http://127.0.0.1:8080"));
    }

    #[test]
    fn an_origin_to_allow_is_a_scheme_and_a_host() {
        assert_eq!(origin("http://proxy.lan:8443").as_deref(), Ok("http://proxy.lan:8443"));
        assert_eq!(origin("https://snl.example.com:443").as_deref(), Ok("https://snl.example.com"));
        for bad in
            ["snl.example.com", "https://", "https://a/path", "https://u@a", "://a", "1x://a"]
        {
            let refused = origin(bad).unwrap_err();
            assert!(refused.contains(bad), "{refused}");
        }
        assert!(origin(&format!("https://{}", " ".repeat(10_000))).unwrap_err().len() < 120);
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
