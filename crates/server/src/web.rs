//! The browser game (SPEC §10): pages and assets embedded in the binary from `web/`, so
//! `snl serve` needs no other file. A page `web/NAME.html` is served at `/NAME` and
//! `/NAME/{id}` (`/` is `index.html`, `/room/{room}` is `room.html`); each asset `web/assets/PATH`
//! at `/assets/{version}/PATH`, where the version is a digest of every embedded file: an asset's
//! address changes whenever any file does, so browsers keep assets for a year and revalidate only
//! the pages, which name the current version.

use std::sync::OnceLock;

use axum::{
    Router,
    extract::Path,
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
    routing::get,
};
use rust_embed::RustEmbed;
use sha2::{Digest, Sha256};

use crate::api::ApiError;

#[derive(RustEmbed)]
#[folder = "web/"]
struct Files;

/// What pages allow: their own scripts, styles, images and WebSocket, nothing else.
const POLICY: &str = "default-src 'self'; img-src 'self' data:; connect-src 'self'; \
                      object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/// `bytes` as lower-case hex digits.
fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

/// The assets' version: the first 12 hex digits of a digest over every embedded file.
fn version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        let mut names: Vec<_> = Files::iter().collect();
        names.sort();
        let mut digest = Sha256::new();
        for name in names {
            digest.update(name.as_bytes());
            if let Some(file) = Files::get(&name) {
                digest.update(file.metadata.sha256_hash());
            }
        }
        hex(&digest.finalize()[..6])
    })
}

/// The content type of a file, by its extension.
fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map_or("", |(_, ext)| ext) {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" | "map" => "application/json",
        "webmanifest" => "application/manifest+json",
        "toml" | "txt" => "text/plain; charset=utf-8",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

/// The routes of the pages and the assets.
pub(crate) fn router() -> Router {
    Router::new()
        .route("/", get(|headers: HeaderMap| async move { page("index", &headers) }))
        .route(
            "/{page}",
            get(
                |Path(name): Path<String>, headers: HeaderMap| async move { page(&name, &headers) },
            ),
        )
        .route(
            "/{page}/{id}",
            get(|Path((name, _)): Path<(String, String)>, headers: HeaderMap| async move {
                page(&name, &headers)
            }),
        )
        .route("/assets/{version}/{*path}", get(asset))
}

fn not_found() -> Response {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", "there is nothing at this address")
        .into_response()
}

/// Whether the request already holds `etag`.
fn fresh(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"))
}

fn respond(
    headers: &HeaderMap,
    etag: &str,
    kind: &'static str,
    cache: &'static str,
    body: Vec<u8>,
) -> Response {
    let mut response = if fresh(headers, etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        ([(header::CONTENT_TYPE, kind)], body).into_response()
    };
    let h = response.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if let Ok(etag) = HeaderValue::from_str(etag) {
        h.insert(header::ETAG, etag);
    }
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
}

/// Page `name` (`web/NAME.html`), with `{{v}}` replaced by the assets' version.
fn page(name: &str, headers: &HeaderMap) -> Response {
    let ok = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let Some(file) = ok.then(|| Files::get(&format!("{name}.html"))).flatten() else {
        return not_found();
    };
    let html = String::from_utf8_lossy(&file.data).replace("{{v}}", version());
    let etag = format!("\"{}-{name}\"", version());
    let mut response =
        respond(headers, &etag, content_type(".html"), "no-cache", html.into_bytes());
    let h = response.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(POLICY));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}

async fn asset(Path((asked, path)): Path<(String, String)>, headers: HeaderMap) -> Response {
    if path.split('/').any(|part| part.is_empty() || part.starts_with('.')) {
        return not_found();
    }
    let Some(file) = Files::get(&format!("assets/{path}")) else { return not_found() };
    let hash = hex(&file.metadata.sha256_hash()[..8]);
    // An address of the current version never changes; an older page's asks again each time.
    let cache = if asked == version() { "public, max-age=31536000, immutable" } else { "no-cache" };
    respond(&headers, &format!("\"{hash}\""), content_type(&path), cache, file.data.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_and_asset_has_a_known_content_type() {
        for name in Files::iter() {
            assert_ne!(content_type(&name), "application/octet-stream", "{name}");
        }
        assert!(Files::get("index.html").is_some() && Files::get("room.html").is_some());
        assert_eq!(version().len(), 12);
    }

    #[test]
    fn an_etag_in_if_none_match_is_fresh() {
        let mut h = HeaderMap::new();
        assert!(!fresh(&h, "\"a\""));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_static("\"b\", \"a\""));
        assert!(fresh(&h, "\"a\""));
        assert!(!fresh(&h, "\"c\""));
    }
}
