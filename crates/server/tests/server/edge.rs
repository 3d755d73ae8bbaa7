//! What the server's edge refuses of what a browser or a hostile client sends (issue 28): a
//! cross-site form's POST, a page of another origin, a method a route does not take, names that
//! hide characters, a flood of pings. Each request is sent as a browser sends it, `Origin` and
//! all, on a real socket; every refusal is the JSON error of SPEC §9.

use serde_json::{Value, json};

use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::support::{Client, Server, http_with};

const TWO_PEOPLE: &str = r#"{"seats": [{"kind": "human"}, {"kind": "human"}]}"#;

/// A POST as a browser sends it: `origin` (none when empty), `content_type` (none when empty).
async fn post(
    server: &Server,
    path: &str,
    origin: &str,
    content_type: &str,
    body: &str,
) -> (u16, Value) {
    let headers: Vec<&str> = [origin, content_type].into_iter().filter(|h| !h.is_empty()).collect();
    http_with(server.addr, "POST", path, &headers, Some(body)).await
}

fn code(body: &Value) -> Option<&str> {
    body["error"]["code"].as_str()
}

#[tokio::test]
async fn a_cross_site_form_creates_no_room_and_takes_no_seat() {
    let server = Server::start("edge-cross-site").await;
    let room = server.room(serde_json::from_str(TWO_PEOPLE).unwrap()).await;
    let claim = format!("/api/rooms/{room}/seats/0");
    let own = format!("Origin: http://{}", server.addr);
    // A form on another site posts its fields as text/plain (which can spell JSON), urlencoded
    // or multipart, with that site's Origin (`null` from a sandboxed frame); a program or the
    // server's own page may leave the type out or mistype it.
    for (origin, content_type, status, want) in [
        ("Origin: http://evil.example", "Content-Type: text/plain", 403, "bad_origin"),
        (
            "Origin: http://evil.example",
            "Content-Type: application/x-www-form-urlencoded",
            403,
            "bad_origin",
        ),
        ("Origin: null", "Content-Type: multipart/form-data; boundary=x", 403, "bad_origin"),
        ("Origin: http://evil.example", "Content-Type: application/json", 403, "bad_origin"),
        (&own, "Content-Type: text/plain;charset=UTF-8", 415, "bad_content_type"),
        ("", "Content-Type: text/plain", 415, "bad_content_type"),
        ("", "", 415, "bad_content_type"),
    ] {
        for (path, body) in [("/api/rooms", TWO_PEOPLE), (&claim[..], r#"{"name": "Mallory"}"#)] {
            let (got, answer) = post(&server, path, origin, content_type, body).await;
            assert_eq!(
                (got, code(&answer)),
                (status, Some(want)),
                "{origin} {content_type}: {answer}"
            );
            assert!(!answer["error"]["message"].as_str().unwrap().is_empty());
        }
    }
    let (_, lobby) = server.http("GET", "/api/rooms", None).await;
    let rooms = lobby["rooms"].as_array().unwrap();
    assert_eq!(rooms.len(), 1, "a cross-site POST made a room: {lobby}");
    assert_eq!(rooms[0]["seats"][0]["open"], json!(true), "a cross-site POST took a seat");
    // The server's own page (its Origin, a JSON body) and programs (no Origin) are served.
    let json = "Content-Type: application/json";
    let (got, answer) = post(&server, "/api/rooms", &own, json, TWO_PEOPLE).await;
    assert_eq!(got, 201, "{answer}");
    let (got, answer) = post(&server, &claim, &own, json, r#"{"name": "Ann"}"#).await;
    assert_eq!(got, 200, "{answer}");
    let (got, answer) = post(&server, "/api/rooms", "", json, TWO_PEOPLE).await;
    assert_eq!(got, 201, "{answer}");
}

/// The status a WebSocket upgrade to `path` with `origin` is answered (101: let in).
async fn upgrade(server: &Server, path: &str, origin: &str) -> u16 {
    let mut request = format!("ws://{}{path}", server.addr).into_client_request().unwrap();
    request.headers_mut().insert("Origin", origin.parse().unwrap());
    match tokio_tungstenite::connect_async(request).await {
        Ok((mut socket, response)) => {
            let _ = socket.close(None).await;
            response.status().as_u16()
        }
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => response.status().as_u16(),
        Err(e) => panic!("{path} with {origin}: {e}"),
    }
}

#[tokio::test]
async fn an_origin_is_the_servers_own_only_with_its_scheme_or_when_allowed() {
    let proxy = "https://snl.example.com";
    let server = Server::start_with("edge-origin", |c| {
        c.allow_origins = vec![snl_server::origin(proxy).unwrap()];
    })
    .await;
    let room = server.room(serde_json::from_str(TWO_PEOPLE).unwrap()).await;
    let host = server.addr;
    let own = format!("http://{host}");
    let json = "Content-Type: application/json";
    for (origin, let_in) in [
        (own.clone(), true),
        (proxy.to_owned(), true),
        (format!("https://{host}"), false),
        (format!("chrome-extension://{host}"), false),
        (format!("ws://{host}"), false),
        ("http://snl.example.com".to_owned(), false),
        (format!("{proxy}:8443"), false),
    ] {
        for path in [format!("/api/rooms/{room}/ws"), "/api/lobby/ws".to_owned()] {
            let status = upgrade(&server, &path, &origin).await;
            assert_eq!(status, if let_in { 101 } else { 403 }, "{path} from {origin}");
        }
        let header = format!("Origin: {origin}");
        let (status, answer) = post(&server, "/api/rooms", &header, json, TWO_PEOPLE).await;
        let want = if let_in { (201, None) } else { (403, Some("bad_origin")) };
        assert_eq!((status, code(&answer)), want, "POST from {origin}: {answer}");
    }
}

#[tokio::test]
async fn every_error_the_framework_makes_is_the_json_error_too() {
    let server = Server::start("edge-json-errors").await;
    let room = server.room(serde_json::from_str(TWO_PEOPLE).unwrap()).await;
    let json = ["Content-Type: application/json"];
    let own = format!("Origin: http://{}", server.addr);
    for (method, path, status, want) in [
        ("DELETE", "/api/rooms".to_owned(), 405, "method_not_allowed"),
        ("PUT", format!("/api/rooms/{room}"), 405, "method_not_allowed"),
        ("GET", "/api/boards/check".to_owned(), 405, "method_not_allowed"),
        ("PATCH", format!("/api/rooms/{room}/seats/0"), 405, "method_not_allowed"),
        ("POST", "/".to_owned(), 405, "method_not_allowed"),
        ("DELETE", format!("/room/{room}"), 405, "method_not_allowed"),
        ("GET", "/api/rooms/%FF".to_owned(), 400, "bad_request"),
        ("GET", "/api/nothing/at/all".to_owned(), 404, "not_found"),
        ("POST", "/api/nothing/at/all".to_owned(), 404, "not_found"),
        // `/{page}/{id}` is a page's address, which only GET takes.
        ("POST", "/api/nothing".to_owned(), 405, "method_not_allowed"),
    ] {
        let headers = [json[0], own.as_str()];
        let (got, answer) = http_with(server.addr, method, &path, &headers, Some("{}")).await;
        assert_eq!((got, code(&answer)), (status, Some(want)), "{method} {path}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(!message.is_empty() && !message.contains('\n'), "{message}");
        if status == 405 {
            assert!(message.contains(&format!("does not take {method}, only ")), "{message}");
        }
    }
}

#[tokio::test]
async fn a_refused_name_is_quoted_at_most_40_characters_and_hidden_characters_are_refused() {
    let server = Server::start("edge-names").await;
    let room = server.room(serde_json::from_str(TWO_PEOPLE).unwrap()).await;
    let seat = |n: usize| format!("/api/rooms/{room}/seats/{n}");
    let long = "N".repeat(10_000);
    let computer = json!({"seats": [{"kind": "human"}, {"kind": "easy", "name": long}]});
    for (path, body) in [
        (seat(0), json!({"name": long}).to_string()),
        ("/api/rooms".to_owned(), computer.to_string()),
        (format!("/api/rooms/{}/seats/0", "r".repeat(10_000)), json!({"name": "Ann"}).to_string()),
        (
            format!("/api/rooms/{room}/seats/{}", "s".repeat(10_000)),
            json!({"name": "Ann"}).to_string(),
        ),
    ] {
        let (status, answer) = server.http("POST", &path, Some(&body)).await;
        assert!(matches!(status, 400 | 404), "{answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.chars().count() < 120, "the whole value is echoed: {message}");
        assert!(message.contains('…'), "{message}");
    }
    for (name, hidden) in [
        ("A\u{200b}nn", "U+200B"),
        ("Ann\u{200d}", "U+200D"),
        ("\u{feff}Bob", "U+FEFF"),
        ("Eve\u{2060}", "U+2060"),
        ("\u{202e}nnA", "U+202E"),
        ("A\u{2067}nn\u{2069}", "U+2067"),
    ] {
        let (status, answer) =
            server.http("POST", &seat(0), Some(&json!({"name": name}).to_string())).await;
        assert_eq!((status, code(&answer)), (400, Some("bad_request")), "{name:?}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains(hidden), "{message}");
    }
    assert_eq!(server.state(&room).await["seats"][0]["open"], json!(true));
    // A name written composed or decomposed is one name.
    server.claim(&room, 0, "Zo\u{e9}").await;
    let (status, answer) =
        server.http("POST", &seat(1), Some(&json!({"name": "Zoe\u{301}"}).to_string())).await;
    assert_eq!((status, code(&answer)), (409, Some("name_taken")), "{answer}");
}

#[tokio::test]
async fn a_name_that_looks_like_a_seated_one_or_holds_only_blanks_is_refused() {
    let server = Server::start("edge-look-alikes").await;
    let three = json!({"seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]});
    let room = server.room(three).await;
    let seat = |n: usize| format!("/api/rooms/{room}/seats/{n}");
    server.claim(&room, 0, "Ann").await;
    // Cyrillic А, a full-width A, another case, digit one for l: each looks like Ann or Bill.
    for name in ["\u{0410}nn", "\u{ff21}nn", "ANN", "aNn"] {
        let (status, answer) =
            server.http("POST", &seat(1), Some(&json!({"name": name}).to_string())).await;
        assert_eq!((status, code(&answer)), (409, Some("name_taken")), "{name:?}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains("looks like 'Ann'"), "{message}");
    }
    // Blanks and invisible letters only, or a direction mark: refused as a bad name.
    for name in ["   ", "\u{3164}", "\u{2800}\u{2800}", "Bo\u{200f}b", "\u{00ad}"] {
        let (status, answer) =
            server.http("POST", &seat(1), Some(&json!({"name": name}).to_string())).await;
        assert_eq!((status, code(&answer)), (400, Some("bad_request")), "{name:?}: {answer}");
    }
    server.claim(&room, 1, "Bill").await;
    let (status, answer) =
        server.http("POST", &seat(2), Some(&json!({"name": "BiI1"}).to_string())).await;
    assert_eq!((status, code(&answer)), (409, Some("name_taken")), "{answer}");
    // Two computer seats named alike are refused when the room is created.
    let alike = json!({"seats": [{"kind": "human"}, {"kind": "easy", "name": "Robo"},
        {"kind": "easy", "name": "R\u{043e}bo"}]});
    let (status, answer) = server.http("POST", "/api/rooms", Some(&alike.to_string())).await;
    assert_eq!((status, code(&answer)), (400, Some("bad_request")), "{answer}");
    assert!(answer["error"]["message"].as_str().unwrap().contains("look alike"), "{answer}");
    // A name unlike any seated one is taken.
    server.claim(&room, 2, "Zoe").await;
}

#[tokio::test]
async fn a_flood_of_pings_is_rate_limited_then_cut_off_like_any_flood() {
    let server = Server::start_with("edge-pings", |c| {
        c.limits.rate = 1;
        c.limits.burst = 2;
        c.limits.flood = 20;
    })
    .await;
    let room = server.room(serde_json::from_str(TWO_PEOPLE).unwrap()).await;
    let mut flood = server.connect(&room).await;
    flood.hello(None, None).await;
    for _ in 0..100 {
        flood.send_ping().await;
    }
    // A spectator's chat, refused as not_a_player if the pings cost nothing.
    flood.send(json!({"type": "chat", "text": "hi"})).await;
    assert_eq!(flood.error_code().await, "rate_limited");
    let mut errors = 1;
    while let Some(frame) = flood.next().await {
        assert_eq!(frame["code"], "rate_limited", "{frame}");
        errors += 1;
    }
    assert!(errors < 100, "the ping flood was cut off: {errors} errors");
    // The lobby stream takes nothing but pings, and not a flood of them either.
    let mut lobby = Client::lobby(server.addr, None).await.unwrap();
    lobby.frame().await;
    for _ in 0..100 {
        lobby.send_ping().await;
    }
    assert_eq!(lobby.close_code().await, Some(1008));
}

/// A connection from `ip` (any of 127/8 on Linux's loopback) to `server`.
async fn connect_from(server: &Server, ip: [u8; 4]) -> tokio::net::TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind((std::net::Ipv4Addr::from(ip), 0).into()).unwrap();
    socket.connect(server.addr).await.unwrap()
}

/// Reads `stream` to its end (the server closed it); what it said.
async fn to_end(stream: &mut tokio::net::TcpStream) -> String {
    use tokio::io::AsyncReadExt;
    let mut said = Vec::new();
    let patience = std::time::Duration::from_secs(20);
    let read = tokio::time::timeout(patience, stream.read_to_end(&mut said)).await;
    assert!(read.is_ok(), "the server closes the connection: {}", String::from_utf8_lossy(&said));
    String::from_utf8_lossy(&said).into_owned()
}

/// One GET of `/api/rooms` on `stream`; its status.
async fn served(mut stream: tokio::net::TcpStream) -> u16 {
    use tokio::io::AsyncWriteExt;
    let request = "GET /api/rooms HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    stream.write_all(request.as_bytes()).await.unwrap();
    to_end(&mut stream).await[9..12].parse().unwrap()
}

#[tokio::test]
async fn one_address_holds_its_share_of_connections_and_idle_or_slow_headers_are_closed() {
    const CAP: usize = 8;
    let server = Server::start_with("edge-per-address", |c| {
        c.edge = snl_server::Edge {
            per_address: CAP,
            header_time: std::time::Duration::from_millis(500),
        };
    })
    .await;
    // One address opens its share of sockets and sends nothing (one a header a byte short):
    // its next connection is refused with the JSON error, another address is served.
    let mut idle = Vec::new();
    for _ in 0..CAP {
        idle.push(connect_from(&server, [127, 0, 0, 1]).await);
    }
    {
        use tokio::io::AsyncWriteExt;
        idle[0].write_all(b"GET /api/rooms HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    }
    let mut over = connect_from(&server, [127, 0, 0, 1]).await;
    let answer = to_end(&mut over).await;
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    let body: Value = serde_json::from_str(answer.split_once("\r\n\r\n").unwrap().1).unwrap();
    assert_eq!(code(&body), Some("connection_limit"), "{body}");
    assert!(body["error"]["message"].as_str().unwrap().contains("127.0.0.1"), "{body}");
    assert_eq!(served(connect_from(&server, [127, 0, 0, 2]).await).await, 200);
    // The idle sockets and the slow header are closed by the server, unanswered…
    for mut stream in idle {
        assert_eq!(to_end(&mut stream).await, "", "closed without an answer");
    }
    // …and the address is served again.
    assert_eq!(served(connect_from(&server, [127, 0, 0, 1]).await).await, 200);
}

#[tokio::test]
async fn a_room_refuses_a_win_computer_in_one_sentence() {
    let server = Server::start("edge-win").await;
    let body = json!({"seats": [{"kind": "human"}, {"kind": "win", "name": "Robo"}]});
    let (status, answer) = server.http("POST", "/api/rooms", Some(&body.to_string())).await;
    assert_eq!(status, 400, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("kind 'win' is not offered in rooms"), "{message}");
    assert!(!message.contains('\n'), "{message}");
}
