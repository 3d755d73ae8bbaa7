//! The browser game as served by `snl serve` (SPEC §10): the lobby at `/`, a room's page at
//! `/room/{room}`, assets under a versioned address with their content types and caching, over a
//! real socket. What the pages do is tested in Chromium (`web-tests/`).

use std::net::SocketAddr;

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

use crate::support::Server;

/// A response: status, headers (names lower case), body.
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

async fn get(addr: SocketAddr, path: &str, extra: &str) -> Reply {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}Connection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let mut lines = head.lines();
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Reply { status, headers, body: body.to_owned() }
}

/// The address of `name` under the assets' current version, read from the lobby page.
fn asset_address(page: &str, name: &str) -> String {
    let end = page.find(name).unwrap_or_else(|| panic!("{name} is not named by the page"));
    let start = page[..end].rfind("/assets/").unwrap();
    page[start..end + name.len()].to_owned()
}

#[tokio::test]
async fn the_lobby_and_a_rooms_page_are_served_with_their_assets() {
    let server = Server::start("web-pages").await;
    let lobby = get(server.addr, "/", "").await;
    assert_eq!(lobby.status, 200);
    assert_eq!(lobby.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(lobby.header("cache-control"), Some("no-cache"));
    assert!(lobby.header("content-security-policy").unwrap().contains("default-src 'self'"));
    assert!(lobby.body.contains("Create the room"), "{}", lobby.body);
    assert!(!lobby.body.contains("{{v}}"), "the version is filled in");

    let room =
        server.room(serde_json::json!({"seats": [{"kind": "human"}, {"kind": "easy"}]})).await;
    let page = get(server.addr, &format!("/room/{room}"), "").await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains(r#"id="roll""#));

    // The page's one script is the boot, which imports the modules `data-main` names beside it.
    let boot = asset_address(&lobby.body, "boot.js");
    assert!(lobby.body.contains(r#"data-main="lobby""#), "{}", lobby.body);
    let script = boot.replace("boot.js", "lobby.js");
    let js = get(server.addr, &script, "").await;
    assert_eq!(js.status, 200);
    assert_eq!(js.header("content-type"), Some("text/javascript; charset=utf-8"));
    assert_eq!(js.header("cache-control"), Some("public, max-age=31536000, immutable"));
    assert!(js.body.contains("import"));
    // The stylesheets are written into the page (nothing to wait for before the first paint),
    // allowed by their digests; the files are still served.
    assert!(
        !lobby.body.contains(r#"rel="stylesheet""#)
            && lobby.body.contains("<style>/* The browser game")
    );
    let policy = lobby.header("content-security-policy").unwrap();
    assert!(policy.contains("style-src 'self' 'sha256-"), "{policy}");
    let css = script.replace("lobby.js", "style.css");
    assert_eq!(
        get(server.addr, &css, "").await.header("content-type"),
        Some("text/css; charset=utf-8")
    );
    let icon = asset_address(&lobby.body, "icon.svg");
    assert_eq!(get(server.addr, &icon, "").await.header("content-type"), Some("image/svg+xml"));

    // A page or an asset the browser holds is not sent again.
    let etag = js.header("etag").unwrap().to_owned();
    let again = get(server.addr, &script, &format!("If-None-Match: {etag}\r\n")).await;
    assert_eq!((again.status, again.body.as_str()), (304, ""));
    let etag = lobby.header("etag").unwrap().to_owned();
    assert_eq!(get(server.addr, "/", &format!("If-None-Match: {etag}\r\n")).await.status, 304);

    // An older page's assets are still served, but not kept.
    let old = get(server.addr, "/assets/000000000000/lobby.js", "").await;
    assert_eq!((old.status, old.header("cache-control")), (200, Some("no-cache")));
}

#[tokio::test]
async fn addresses_that_name_nothing_are_a_json_404() {
    let server = Server::start("web-missing").await;
    for path in [
        "/nothing",
        "/nothing/here",
        "/assets/x/none.js",
        "/assets/x/../index.html",
        "/assets/x/.hidden",
        "/api/nothing",
    ] {
        let reply = get(server.addr, path, "").await;
        assert_eq!(reply.status, 404, "{path}");
        assert!(reply.body.contains(r#""code":"not_found""#), "{path}: {}", reply.body);
    }
    // The API is untouched by the pages' routes.
    let lobby = get(server.addr, "/api/rooms", "").await;
    assert_eq!((lobby.status, lobby.body.as_str()), (200, r#"{"rooms":[]}"#));
}
