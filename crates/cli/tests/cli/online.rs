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
pub(crate) struct Served {
    child: Child,
    pub(crate) addr: String,
    /// The server's game database.
    pub(crate) db: String,
    _dir: TempDir,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `snl serve` on `db` at `addr`; the process and the address it listens on.
fn start_server(db: &str, addr: &str) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_snl"))
        .args(["serve", "--addr", addr, "--db", db, "--bot-delay-ms", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.trim().strip_prefix("listening on http://").expect(&line).to_owned();
    (child, addr)
}

pub(crate) fn serve() -> Served {
    let dir = TempDir::new("online");
    let db = dir.file("games.db");
    let (child, addr) = start_server(&db, "127.0.0.1:0");
    Served { child, addr, db, _dir: dir }
}

impl Served {
    /// Kills the server with SIGKILL and starts it again on the same database and address.
    pub(crate) fn kill_and_restart(&mut self) {
        self.kill();
        self.start_again();
    }

    /// Kills the server with SIGKILL.
    pub(crate) fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// The server's game database.
    pub(crate) fn db(&self) -> &str {
        &self.db
    }

    /// Starts the server again on the same database and address.
    pub(crate) fn start_again(&mut self) {
        let (child, addr) = start_server(&self.db, &self.addr);
        assert_eq!(addr, self.addr);
        self.child = child;
    }
}

pub(crate) fn http(addr: &str, method: &str, path: &str, body: &str) -> Value {
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
pub(crate) fn room(served: &Served, seed: u64) -> (String, String) {
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
    // The end: the ranking, then what the game earned each seat, as the server awarded it.
    let end: Vec<&str> = told.lines().skip_while(|l| *l != "Final ranking:").collect();
    assert_eq!(end.get(3), Some(&"Achievements earned:"), "{told}");
    let winner = end[1].trim().trim_start_matches("1. ").split(" (").next().unwrap();
    assert!(end.contains(&format!("  {winner} — First win: won a game").as_str()), "{told}");

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
        (vec!["join", &url], "snl join needs --name NAME to take a seat"),
        (vec!["join", &format!("{url}#token=0123")], "token"),
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
    (Served { child, addr, db, _dir: dir }, said)
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

/// What a process writes on one of its streams, gathered by a thread; `wait_for` blocks on
/// the thread's news until the text holds a string.
struct Gathered {
    text: std::sync::Arc<std::sync::Mutex<String>>,
    news: std::sync::mpsc::Receiver<()>,
}

impl Gathered {
    fn new(mut stream: impl Read + Send + 'static) -> Gathered {
        let text = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let (tx, news) = std::sync::mpsc::channel();
        let shared = text.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stream.read(&mut buf) {
                if n == 0 {
                    break;
                }
                shared.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
                let _ = tx.send(());
            }
        });
        Gathered { text, news }
    }

    fn now(&self) -> String {
        self.text.lock().unwrap().clone()
    }

    /// Waits until `needle` was written `times` times.
    #[track_caller]
    fn wait_for(&self, needle: &str, times: usize) {
        while self.now().matches(needle).count() < times {
            let news = self.news.recv_timeout(std::time::Duration::from_mins(1));
            assert!(news.is_ok(), "{needle:?} never came {times} times; so far:\n{}", self.now());
        }
    }
}

#[test]
fn a_seat_played_from_the_console_reconnects_when_the_server_is_killed_and_misses_nothing() {
    let mut served = serve();
    let (url, _) = room(&served, 6);
    let scratch = TempDir::new("reconnect");
    let mut join = Command::new(env!("CARGO_BIN_EXE_snl"))
        .args(["join", &url, "--name", "Ann"])
        .env("SNL_DB", scratch.file("games.db"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut keys = join.stdin.take().unwrap();
    let told = Gathered::new(join.stdout.take().unwrap());
    let said = Gathered::new(join.stderr.take().unwrap());
    said.wait_for("Ann, press Enter to roll", 1);
    keys.write_all(b"\n").unwrap();
    // Ann's turn and Robo's are played: Ann is asked again.
    said.wait_for("Ann, press Enter to roll", 2);
    served.kill_and_restart();
    keys.write_all("\n".repeat(2000).as_bytes()).unwrap();
    drop(keys);
    let status = join.wait().unwrap();
    told.wait_for("Final ranking:", 1);
    let (told, said) = (told.now(), said.now());
    assert_eq!(status.code(), Some(0), "{said}");
    assert!(said.contains("(connection lost") && said.contains("(connected again)"), "{said}");
    // Every event once, in order: as a watcher of the restarted server is told the game.
    let after = snl_with_input(&["watch", &url], "");
    assert_eq!(after.code, 0, "{}", after.stderr);
    eqnice!(after.stdout, told);
}

#[test]
fn a_seat_left_from_the_console_is_taken_back_with_the_address_printed() {
    let served = serve();
    let (url, _) = room(&served, 3);
    let left = snl_with_input(&["join", &url, "--name", "Ann"], "\nq\n");
    assert_eq!(left.code, 0, "{}", left.stderr);
    assert!(left.stderr.contains("the seat stays yours"), "{}", left.stderr);
    let back = left
        .stderr
        .split('\'')
        .find(|part| part.starts_with(&url) && part.contains("#token="))
        .unwrap_or_else(|| panic!("no address to come back with:\n{}", left.stderr))
        .to_owned();
    let again = snl_with_input(&["join", &back], &"\n".repeat(2000));
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(again.stderr.contains("You are back at seat 1 of room"), "{}", again.stderr);
    assert!(again.stdout.contains("Final ranking:"), "{}", again.stdout);
    // The whole game, the turn played before leaving included, as a watcher is told it.
    let watched = snl_with_input(&["watch", &url], "");
    eqnice!(watched.stdout, again.stdout);
}

/// A series of rooms (best of 3) played from the line console: each game's end opens the next
/// room, the same token holds the seat there, the seats move on by one, until it is decided.
#[test]
fn join_plays_a_series_of_rooms_from_game_to_game_until_it_is_decided() {
    let served = serve();
    let request = json!({"seats": [{"kind": "human"}, {"kind": "hard", "name": "Robo"}], "games": 3, "seed": 5});
    let answer = http(&served.addr, "POST", "/api/rooms", &request.to_string());
    let url = format!("http://{}/room/{}", served.addr, answer["room"].as_str().unwrap());
    let live = spawn_watch(&url);
    let joined = snl_with_input(&["join", &url, "--name", "Ann"], &"\n".repeat(3000));
    assert_eq!(joined.code, 0, "{}", joined.stderr);
    let told = &joined.stdout;
    assert!(told.contains("Game 1 of a best of 3: Ann starts."), "{told}");
    assert!(told.contains("Game 2 of a best of 3: Robo starts. Wins so far: "), "{told}");
    assert!(joined.stderr.contains("You sit at seat 2 of room"), "{}", joined.stderr);
    assert!(told.contains("After game 1 of a best of 3: "), "{told}");
    let last =
        told.lines().rfind(|l| l.contains(" the series ")).unwrap_or_else(|| panic!("{told}"));
    assert!(
        last.ends_with(" wins the series 2-0.") || last.ends_with(" wins the series 2-1."),
        "{last}"
    );
    // The watcher follows the same games to the same end.
    let live = live.wait_with_output().unwrap();
    assert_eq!(live.status.code(), Some(0), "{}", String::from_utf8_lossy(&live.stderr));
    let watched = String::from_utf8(live.stdout).unwrap();
    assert!(watched.contains(last), "{watched}");
}
