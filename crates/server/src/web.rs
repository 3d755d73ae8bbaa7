//! The browser game (SPEC §10): pages and assets embedded in the binary from `web/`, so
//! `snl serve` needs no other file. A page `web/NAME.html` is served at `/NAME` and
//! `/NAME/{id}` (`/` is `index.html`, `/room/{room}` is `room.html`); each asset `web/assets/PATH`
//! at `/assets/{version}/PATH`, where the version is a digest of every embedded file: an asset's
//! address changes whenever any file does, so browsers keep assets for a year and revalidate only
//! the pages, which name the current version.
//!
//! A page's stylesheets are written into the page as it is served (`<style>`, allowed by the
//! digest of its text in the page's `Content-Security-Policy`): a first visit paints as soon as
//! the page itself is in, with no stylesheet to wait for. Its PNG images are written in the
//! same way, as `data:` addresses, so they are there for the first paint too.

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

use crate::http::ApiError;

#[derive(RustEmbed)]
#[folder = "web/"]
struct Files;

/// What pages allow: their own scripts, styles, images and WebSocket, nothing else (and the
/// styles written into the page, by digest: see [`inline_styles`]); their own engine compiled to
/// WebAssembly ('wasm-unsafe-eval' allows compiling wasm, not `eval` of script text).
const POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
                      img-src 'self' data:; connect-src 'self'; \
                      object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/// `bytes` in standard base64 (with padding), as CSP digests are written.
fn base64(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(DIGITS[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A page's HTML with each `<link rel="stylesheet" href="/assets/{{v}}/NAME.css">` replaced by
/// the stylesheet's text in a `<style>` element, and the page's policy allowing exactly those
/// (`style-src 'self' 'sha256-…'`). A link to a file that is not embedded is left as it is.
fn inline_styles(html: &str) -> (String, String) {
    const OPEN: &str = r#"<link rel="stylesheet" href="/assets/{{v}}/"#;
    let mut out = String::with_capacity(html.len() + 32 * 1024);
    let mut digests = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find(OPEN) {
        let after = &rest[at + OPEN.len()..];
        let Some(end) = after.find("\">") else { break };
        let name = &after[..end];
        let css = Files::get(&format!("assets/{name}"))
            .filter(|_| content_type(name).starts_with("text/css"));
        out.push_str(&rest[..at]);
        match css {
            Some(file) => {
                let text = String::from_utf8_lossy(&file.data);
                digests.push(format!("'sha256-{}'", base64(&Sha256::digest(text.as_bytes()))));
                out.push_str("<style>");
                out.push_str(&text);
                out.push_str("</style>");
            }
            None => out.push_str(&rest[at..at + OPEN.len() + end + 2]),
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    let policy = if digests.is_empty() {
        POLICY.to_owned()
    } else {
        format!("{POLICY}; style-src 'self' {}", digests.join(" "))
    };
    (out, policy)
}

/// A page's HTML with each `src="/assets/{{v}}/NAME.png"` replaced by the picture itself as a
/// `data:` address (allowed by `img-src`): an image the first paint needs is then in the page,
/// not a request away. A name that is not embedded is left as it is.
fn inline_images(html: &str) -> String {
    const OPEN: &str = r#"src="/assets/{{v}}/"#;
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find(OPEN) {
        let after = &rest[at + OPEN.len()..];
        let Some(end) = after.find('"') else { break };
        let name = &after[..end];
        out.push_str(&rest[..at]);
        match Files::get(&format!("assets/{name}")).filter(|_| content_type(name) == "image/png") {
            Some(file) => {
                out.push_str(r#"src="data:image/png;base64,"#);
                out.push_str(&base64(&file.data));
                out.push('"');
            }
            None => out.push_str(&rest[at..=at + OPEN.len() + end]),
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

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
        "wasm" => "application/wasm",
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
        .route("/sw.js", get(|headers: HeaderMap| async move { app_file("sw.js", &headers) }))
        .route(
            "/manifest.webmanifest",
            get(|headers: HeaderMap| async move { app_file("manifest.webmanifest", &headers) }),
        )
}

/// The pages the service worker keeps for use offline, at the addresses `snl serve` gives them.
const SERVED_PAGES: [&str; 4] = ["/", "/local", "/editor", "/replay"];

/// `web/app/NAME` (the service worker, the web app manifest) with the version, the pages to keep
/// (`pages`) and every asset's address written in.
fn app_text(name: &str, pages: &[&str]) -> Option<String> {
    let file = Files::get(&format!("app/{name}"))?;
    let mut assets: Vec<String> = Files::iter()
        .filter_map(|n| n.strip_prefix("assets/").map(|p| format!("/assets/{}/{p}", version())))
        .collect();
    assets.sort();
    let list = |items: &[String]| serde_json::to_string(items).unwrap_or_else(|_| "[]".into());
    let pages: Vec<String> = pages.iter().map(|&p| p.to_owned()).collect();
    Some(
        String::from_utf8_lossy(&file.data)
            .replace("{{pages}}", &list(&pages))
            .replace("{{assets}}", &list(&assets))
            .replace("{{v}}", version()),
    )
}

/// The service worker or the manifest, as `snl serve` serves them (never kept by the browser's
/// HTTP cache: a new version must reach the worker).
fn app_file(name: &str, headers: &HeaderMap) -> Response {
    let Some(text) = app_text(name, &SERVED_PAGES) else { return not_found() };
    let etag = format!("\"{}-{name}\"", version());
    respond(headers, &etag, content_type(name), "no-cache", text.into_bytes())
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

/// The page file shown at `/NAME`: `web/NAME.html`, but the game on this device (`/local`) is
/// the room page, driven by the engine in the page instead of a server's room.
fn page_file(name: &str) -> &str {
    if name == "local" { "room" } else { name }
}

/// Page `name` as served: `web/NAME.html` with its styles and pictures written in and `{{v}}`
/// replaced by the assets' version, and its content security policy.
fn page_text(name: &str) -> Option<(String, String)> {
    let ok = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let file = ok.then(|| Files::get(&format!("{}.html", page_file(name)))).flatten()?;
    let (html, policy) = inline_styles(&String::from_utf8_lossy(&file.data));
    Some((inline_images(&html).replace("{{v}}", version()), policy))
}

/// Page `name` (`web/NAME.html`), with `{{v}}` replaced by the assets' version.
fn page(name: &str, headers: &HeaderMap) -> Response {
    let Some((html, policy)) = page_text(name) else { return not_found() };
    let etag = format!("\"{}-{name}\"", version());
    let mut response =
        respond(headers, &etag, content_type(".html"), "no-cache", html.into_bytes());
    let h = response.headers_mut();
    if let Ok(policy) = HeaderValue::from_str(&policy) {
        h.insert(header::CONTENT_SECURITY_POLICY, policy);
    }
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

/// Writes the browser game into `dir` as a static site (`snl web export`): each page as
/// `NAME/index.html` (the lobby as `index.html`), the assets under `assets/{version}/`, the
/// service worker and the manifest, so any static file server serves it (`/editor` is
/// `/editor/`). Online rooms and recorded games need `snl serve`: those parts of the pages say so.
/// Returns the files written, relative to `dir`.
///
/// # Errors
///
/// The first file that could not be written, with the reason.
pub fn export(dir: &std::path::Path) -> Result<Vec<String>, String> {
    const PAGES: [(&str, &str); 4] = [
        ("index", "index.html"),
        ("local", "local/index.html"),
        ("editor", "editor/index.html"),
        ("replay", "replay/index.html"),
    ];
    const EXPORTED_PAGES: [&str; 4] = ["/", "/local/", "/editor/", "/replay/"];
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for (name, path) in PAGES {
        let (html, _) = page_text(name).ok_or_else(|| format!("page {name} is not embedded"))?;
        files.push((path.to_owned(), html.into_bytes()));
    }
    for name in ["sw.js", "manifest.webmanifest"] {
        let text =
            app_text(name, &EXPORTED_PAGES).ok_or_else(|| format!("{name} is not embedded"))?;
        files.push((name.to_owned(), text.into_bytes()));
    }
    for name in Files::iter() {
        if let (Some(path), Some(file)) = (name.strip_prefix("assets/"), Files::get(&name)) {
            files.push((format!("assets/{}/{path}", version()), file.data.into_owned()));
        }
    }
    let mut written = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        let target = dir.join(&path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot make folder {}: {e}", parent.display()))?;
        }
        std::fs::write(&target, bytes)
            .map_err(|e| format!("cannot write {}: {e}", target.display()))?;
        written.push(path);
    }
    Ok(written)
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
    fn base64_is_the_standard_alphabet_with_padding() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64(&[0xfb, 0xff]), "+/8=");
    }

    #[test]
    fn every_pages_stylesheets_are_written_in_with_their_digests_allowed() {
        for name in Files::iter().filter(|n| n.ends_with(".html")) {
            let file = Files::get(&name).unwrap();
            let (html, policy) = inline_styles(&String::from_utf8_lossy(&file.data));
            assert!(!html.contains(r#"rel="stylesheet""#), "{name} still links a stylesheet");
            let styles: Vec<&str> = html
                .split("<style>")
                .skip(1)
                .map(|s| s.split_once("</style>").unwrap().0)
                .collect();
            assert!(!styles.is_empty(), "{name} has its styles");
            for text in styles {
                let digest = format!("'sha256-{}'", base64(&Sha256::digest(text.as_bytes())));
                assert!(policy.contains(&digest), "{name}: {policy}");
            }
            assert!(policy.starts_with(POLICY) && policy.contains("style-src 'self' 'sha256-"));
        }
        let (html, policy) =
            inline_styles(r#"<link rel="stylesheet" href="/assets/{{v}}/no.css">"#);
        assert_eq!(
            (html.as_str(), policy.as_str()),
            (r#"<link rel="stylesheet" href="/assets/{{v}}/no.css">"#, POLICY)
        );
    }

    #[test]
    fn a_pages_png_images_are_written_in_as_data_addresses() {
        let table = Files::get("assets/table.png").unwrap();
        let data = format!(r#"src="data:image/png;base64,{}""#, base64(&table.data));
        for name in ["index.html", "room.html", "editor.html", "replay.html"] {
            let file = Files::get(name).unwrap();
            let html = inline_images(&String::from_utf8_lossy(&file.data));
            assert!(html.contains(&data), "{name} has the table's light in it");
            assert!(!html.contains(".png\""), "{name} names no PNG left");
        }
        // Other assets, and names that are not embedded, stay addresses.
        for html in [
            r#"<script src="/assets/{{v}}/lobby.js"></script>"#,
            r#"<img src="/assets/{{v}}/none.png" alt="">"#,
            r#"<img src="/assets/{{v}}/icon.svg" alt="">"#,
        ] {
            assert_eq!(inline_images(html), html);
        }
    }

    #[test]
    fn every_page_has_one_script_the_boot_naming_modules_that_are_embedded() {
        for name in Files::iter().filter(|n| n.ends_with(".html")) {
            let html = String::from_utf8_lossy(&Files::get(&name).unwrap().data).into_owned();
            assert_eq!(html.matches("<script").count(), 1, "{name}");
            assert!(
                html.contains(r#"<script type="module" src="/assets/{{v}}/boot.js"></script>"#),
                "{name} starts with the boot script"
            );
            assert!(!html.contains("modulepreload"), "{name} preloads nothing");
            let (main, _) = html
                .split_once(r#"data-main=""#)
                .and_then(|(_, rest)| rest.split_once('"'))
                .unwrap_or_else(|| panic!("{name} names its modules"));
            assert!(!main.trim().is_empty(), "{name}");
            for module in main.split(' ') {
                assert!(
                    Files::get(&format!("assets/{module}.js")).is_some(),
                    "{name} names {module}, which is not embedded"
                );
            }
        }
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
