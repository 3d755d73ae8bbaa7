//! `snl join` and `snl watch` as processes against a real `snl serve` on loopback: a person's
//! seat played from the terminal to the end against a computer seat, watchers told the same
//! events, and the wrong address, an unknown room or a full room refused in one sentence.

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::TcpStream,
    process::{Child, Command, Stdio},
};

use serde_json::{Value, json};

use crate::util::{TempDir, snl_with_input};

/// A running `snl serve` (computers play at once) and its address.
struct Served {
    child: Child,
    addr: String,
    _dir: TempDir,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve() -> Served {
    let dir = TempDir::new("online");
    let db = dir.file("games.db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_snl"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", &db, "--bot-delay-ms", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.trim().strip_prefix("listening on http://").expect(&line).to_owned();
    Served { child, addr, _dir: dir }
}

fn http(addr: &str, method: &str, path: &str, body: &str) -> Value {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    serde_json::from_str(response.split_once("\r\n\r\n").unwrap().1).unwrap()
}

/// A room of a person's seat and a hard computer; its page's address.
fn room(served: &Served, seed: u64) -> (String, String) {
    let request =
        json!({"seats": [{"kind": "human"}, {"kind": "hard", "name": "Robo"}], "seed": seed});
    let answer = http(&served.addr, "POST", "/api/rooms", &request.to_string());
    let id = answer["room"].as_str().unwrap().to_owned();
    (format!("http://{}/room/{id}", served.addr), id)
}

fn spawn_watch(url: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_snl"))
        .args(["watch", url])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn join_plays_a_seat_to_the_end_and_watchers_are_told_the_same_game() {
    let served = serve();
    let (url, _) = room(&served, 11);
    // A watcher from before anyone sits down (told the events it missed, if any, then each
    // as it happens).
    let live = spawn_watch(&url);
    let enter = "\n".repeat(2000);
    let joined = snl_with_input(&["join", &url, "--name", "Ann"], &enter);
    assert_eq!(joined.code, 0, "{}", joined.stderr);
    assert!(joined.stderr.contains("You sit at seat 1 of room"), "{}", joined.stderr);
    assert!(joined.stderr.contains("Ann, press Enter to roll"), "{}", joined.stderr);
    assert!(!joined.stderr.contains("autopilot on") && !joined.stdout.contains("autopilot"));
    let told = &joined.stdout;
    assert!(told.contains("New game on a board of 100 cells: Ann, Robo."), "{told}");
    assert!(told.contains("Ann rolled "), "{told}");
    assert!(told.contains("Robo rolled "), "{told}");
    assert!(told.trim_end().lines().rev().take(3).any(|l| l == "Final ranking:"), "{told}");

    let live = live.wait_with_output().unwrap();
    assert_eq!(live.status.code(), Some(0), "{}", String::from_utf8_lossy(&live.stderr));
    let after = snl_with_input(&["watch", &url], "");
    assert_eq!(after.code, 0, "{}", after.stderr);
    // The same events in the same words: live, afterwards, and at the seat.
    eqnice!(String::from_utf8(live.stdout).unwrap(), told.clone());
    eqnice!(after.stdout, told.clone());
}

#[test]
fn a_bad_address_an_unknown_room_or_a_full_room_is_one_sentence_and_exit_2() {
    let served = serve();
    let (url, id) = room(&served, 2);
    http(&served.addr, "POST", &format!("/api/rooms/{id}/seats/0"), r#"{"name":"Ann"}"#);
    let unknown = format!("http://{}/room/nope", served.addr);
    for (args, needle) in [
        (
            vec!["join", "localhost:8080/room/x", "--name", "Bo"],
            "'localhost:8080/room/x' is not a room's address",
        ),
        (vec!["watch", "http://h/rooms/x"], "'http://h/rooms/x' is not a room's address"),
        (vec!["join", &unknown, "--name", "Bo"], "there is no room 'nope'"),
        (vec!["watch", &unknown], "there is no room 'nope'"),
        (vec!["join", &url, "--name", "Bo"], &format!("room {id} has no open seat")),
    ] {
        let run = snl_with_input(&args, "");
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(needle), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}: {}", run.stdout);
    }
}

/// `snl serve --open` with this `$BROWSER` and `PATH`; returns the process, its address and the
/// first line it writes on standard error.
fn serve_open(browser: Option<&str>, path: &str) -> (Served, String) {
    let dir = TempDir::new("open");
    let db = dir.file("games.db");
    let mut command = Command::new(env!("CARGO_BIN_EXE_snl"));
    command
        .args(["serve", "--addr", "127.0.0.1:0", "--db", &db, "--open"])
        .env("PATH", path)
        .env_remove("BROWSER")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(browser) = browser {
        command.env("BROWSER", browser);
    }
    let mut child = command.spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.trim().strip_prefix("listening on http://").expect(&line).to_owned();
    let mut said = String::new();
    BufReader::new(child.stderr.take().unwrap()).read_line(&mut said).unwrap();
    (Served { child, addr, _dir: dir }, said)
}

#[test]
fn serve_open_opens_the_lobby_in_the_browser_or_says_it_cannot_and_keeps_serving() {
    // A "browser" that tells which address it was given, on the server's standard error.
    let scripts = TempDir::new("browser");
    let browser = scripts.file("browser");
    std::fs::write(&browser, "#!/bin/sh\necho opened \"$1\" >&2\n").unwrap();
    let mode = std::os::unix::fs::PermissionsExt::from_mode(0o755);
    std::fs::set_permissions(&browser, mode).unwrap();
    let (served, said) = serve_open(Some(&format!("{browser}:firefox")), "/usr/bin:/bin");
    assert_eq!(said.trim(), format!("opened http://{}/", served.addr));

    let empty = TempDir::new("no-browser");
    let (served, said) = serve_open(None, &empty.file(""));
    assert!(said.starts_with("snl: no browser could be opened (xdg-open: "), "{said}");
    assert!(said.trim_end().ends_with(&format!("visit http://{}/", served.addr)), "{said}");
    let lobby = http(&served.addr, "GET", "/api/rooms", "");
    assert_eq!(lobby, json!({"rooms": []}), "the server keeps serving");
}
