//! The full-screen game end to end: the real binary in a tmux pane (a real terminal), keys sent
//! with `send-keys`, the screen read with `capture-pane`. Each wait polls the screen for a
//! string, a bounded number of times. `.ci/run` installs tmux; without it these tests fail.

use std::{
    process::{Command, Output},
    time::Duration,
};

/// A private tmux server (its own socket) holding one pane that runs `snl`, then tells its exit
/// code and whether the terminal is back in cooked mode.
struct Pane {
    socket: String,
    /// The pane's own game database.
    db: std::path::PathBuf,
}

impl Pane {
    fn start(name: &str, args: &str) -> Pane {
        let pane = Pane::new(name);
        pane.run(args);
        pane
    }

    /// The pane's socket and empty database, before anything runs.
    fn new(name: &str) -> Pane {
        let socket = format!("snl-e2e-{name}-{}", std::process::id());
        let db = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{socket}.db"));
        let _ = std::fs::remove_file(&db);
        Pane { socket, db }
    }

    /// Runs `snl args` in the pane.
    fn run(&self, args: &str) {
        let bin = env!("CARGO_BIN_EXE_snl");
        let script = format!(
            "{bin} {args}; code=$?; \
             echo \"SNL-EXIT=$code MODE=$(stty -a | tr ' ' '\\n' | grep -x -- '-\\?icanon')\"; sleep 600"
        );
        let started = self.tmux(&["new-session", "-d", "-x", "80", "-y", "24", "-s", "g", &script]);
        assert!(started.status.success(), "tmux did not start: {started:?}");
    }

    fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .env_remove("NO_COLOR")
            .env("SNL_DB", &self.db)
            .output()
            .expect("tmux runs (.ci/run installs it: apt-get install -y tmux)")
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.tmux(&["capture-pane", "-p", "-t", "g"]).stdout).into_owned()
    }

    /// The screen with lines the terminal wrapped joined again (to read a long address).
    fn joined(&self) -> String {
        let out = self.tmux(&["capture-pane", "-p", "-J", "-t", "g"]).stdout;
        String::from_utf8_lossy(&out).into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "g"];
        args.extend_from_slice(keys);
        self.tmux(&args);
    }

    /// Polls the screen until it shows `text`; the screen at that moment. tmux gives no event for
    /// "the screen now shows X", so the wait is a bounded poll of capture-pane on that condition,
    /// never a fixed sleep standing in for it.
    #[track_caller]
    fn wait_for(&self, text: &str) -> String {
        let mut screen = String::new();
        for _ in 0..600 {
            screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("the screen never showed {text:?}; it shows:\n{screen}");
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
        let _ = std::fs::remove_file(&self.db);
    }
}

#[test]
fn a_game_played_with_keys_reaches_its_end_and_gives_the_terminal_back() {
    let pane = Pane::start(
        "end",
        "play --no-record --fast --quiet --seed 11 --player Ann:human --player Robo:hard",
    );
    let first = pane.wait_for("Ann to roll");
    assert!(first.contains("100 cells") && first.contains("Players"), "{first}");
    assert!(first.contains("▶A Ann") && first.contains("R Robo"), "{first}");
    let mut end = String::new();
    for _ in 0..400 {
        end = pane.screen();
        if end.contains("wins!") {
            break;
        }
        if end.contains("Ann to roll") {
            pane.keys(&["Space"]);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(end.contains("wins!") && end.contains("q or Enter leaves"), "{end}");
    pane.keys(&["q"]);
    let after = pane.wait_for("MODE=");
    assert!(after.contains("SNL-EXIT=0"), "{after}");
    assert!(after.contains("reached 100 and win"), "the result stays on screen:\n{after}");
    assert!(after.contains("MODE=icanon"), "the terminal is back in cooked mode:\n{after}");
    assert!(!after.contains("Players"), "the full screen is gone:\n{after}");
}

#[test]
fn bare_snl_in_a_terminal_starts_with_the_setup_form_and_enter_takes_the_defaults() {
    let pane = Pane::start("setup", "");
    pane.wait_for("New game");
    pane.keys(&["Enter"]);
    let game = pane.wait_for("You to roll");
    assert!(game.contains("▶Y You") && game.contains("C Computer"), "{game}");
    pane.keys(&["q"]);
    pane.wait_for("Leave the game?");
    pane.keys(&["y"]);
    let after = pane.wait_for("MODE=");
    assert!(
        after.contains("Game stopped after 0 turns.") && after.contains("snl resume"),
        "{after}"
    );
    assert!(after.contains("MODE=icanon"), "{after}");
}

#[test]
fn q_asks_first_and_ctrl_c_leaves_at_once_giving_the_terminal_back() {
    let pane = Pane::start("quit", "play --no-record --seed 5 --player Ann:human --player Bo:easy");
    pane.wait_for("Ann to roll");
    pane.keys(&["q"]);
    pane.wait_for("Leave the game?");
    pane.keys(&["n"]);
    pane.wait_for("Ann to roll");
    // A resize at any moment draws again: too small says so, large enough plays on.
    pane.tmux(&["resize-window", "-t", "g", "-x", "50", "-y", "12"]);
    let small = pane.wait_for("50×12");
    assert!(small.contains("needs at least") && !small.contains("Players"), "{small}");
    pane.tmux(&["resize-window", "-t", "g", "-x", "100", "-y", "30"]);
    pane.wait_for("100 cells");
    pane.keys(&["C-c"]);
    let after = pane.wait_for("MODE=");
    assert!(
        after.contains("interrupted by Ctrl-C after 0 turns; the game is not kept")
            && after.contains("SNL-EXIT=130"),
        "{after}"
    );
    assert!(after.contains("MODE=icanon"), "{after}");
}

#[test]
fn ctrl_c_in_a_game_ends_with_130_and_says_the_turn_resume_goes_on_from() {
    let pane =
        Pane::start("ctrl-c", "play --fast --rolls 1,2,3 --player Ann:human --player Bo:easy");
    pane.wait_for("turn 1 · Ann to roll");
    pane.keys(&["Space"]);
    pane.wait_for("turn 3 · Ann to roll");
    pane.keys(&["C-c"]);
    let after = pane.wait_for("MODE=");
    assert!(after.contains("SNL-EXIT=130") && after.contains("MODE=icanon"), "{after}");
    assert!(
        after.contains("snl: interrupted by Ctrl-C after 2 turns; go on with: snl resume 1"),
        "{after}"
    );
    let games = std::process::Command::new(env!("CARGO_BIN_EXE_snl"))
        .args(["games", "--json", "--db"])
        .arg(&pane.db)
        .output()
        .unwrap();
    let games: serde_json::Value = serde_json::from_slice(&games.stdout).unwrap();
    assert_eq!((&games[0]["turns"], &games[0]["status"]), (&2.into(), &"stopped".into()));
}

/// Records one game of two computers into the pane's database (game 1), as `snl play` does
/// without a terminal.
fn record_a_game(pane: &Pane) {
    let recorded = Command::new(env!("CARGO_BIN_EXE_snl"))
        .args(["play", "--fast", "--seed", "4", "--player", "Ann:easy", "--player", "Bob:easy"])
        .env("SNL_DB", &pane.db)
        .output()
        .unwrap();
    assert!(recorded.status.success(), "{recorded:?}");
}

#[test]
fn a_recorded_game_replays_on_the_full_screen_stepped_sought_and_played_by_keys() {
    let pane = Pane::new("replay");
    record_a_game(&pane);
    pane.run("replay 1");
    // The footer is the last line a frame draws: once it shows, the whole first frame is there.
    let first = pane.wait_for(" Space  play");
    assert!(first.contains("game 1 · turn 0 of") && first.contains("Replay of game 1"), "{first}");
    assert!(first.contains(" Space  play") && first.contains("▶A Ann"), "{first}");
    pane.keys(&["Right"]);
    // The move is animated; the log tells it once it has been seen.
    let one = pane.wait_for("Ann rolled");
    assert!(one.contains("turn 1 of"), "{one}");
    pane.keys(&["End"]);
    let end = pane.wait_for("wins!");
    assert!(end.contains("1. ") && end.contains("2. "), "the ranking:\n{end}");
    pane.keys(&["Home"]);
    pane.wait_for("turn 0 of");
    pane.keys(&["1", "0"]);
    pane.wait_for("go to turn 10_");
    pane.keys(&["Enter"]);
    pane.wait_for("turn 10 of");
    pane.keys(&["Left"]);
    pane.wait_for("turn 9 of");
    pane.keys(&["?"]);
    pane.wait_for("leave the replay");
    pane.keys(&["Space"]);
    pane.wait_for(" Space  play");
    for _ in 0..6 {
        pane.keys(&["+"]);
    }
    pane.wait_for("paused 64×");
    pane.keys(&["Space"]);
    // Played to the end at 64×, then paused there with the ranking.
    let played = pane.wait_for("wins!");
    assert!(!played.contains("turn 9 of"), "{played}");
    pane.wait_for("paused 64×");
    pane.keys(&["q"]);
    let after = pane.wait_for("MODE=");
    assert!(after.contains("Left the replay of game 1 at turn"), "{after}");
    assert!(after.contains("SNL-EXIT=0") && after.contains("MODE=icanon"), "{after}");
    assert!(!after.contains("Players"), "the full screen is gone:\n{after}");
}

#[test]
fn replay_with_plain_keeps_the_line_output_in_a_terminal() {
    let pane = Pane::new("replay-plain");
    record_a_game(&pane);
    pane.run("replay 1 --plain --speed 0");
    let after = pane.wait_for("MODE=");
    // The line output ends with the board as printed text and its list of jumps.
    assert!(after.contains("SNL-EXIT=0") && after.contains("Ladders (^) 6→25"), "{after}");
    assert!(!after.contains("paused") && !after.contains("Left the replay"), "{after}");
}

/// Presses Space whenever the screen says `name` is to roll, until someone wins; the screen then.
fn roll_to_the_end(pane: &Pane, name: &str) -> String {
    let mut end = String::new();
    for _ in 0..1000 {
        end = pane.screen();
        if end.contains("wins!") {
            return end;
        }
        if end.contains(&format!("{name} to roll")) {
            pane.keys(&["Space"]);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("the game did not end; the screen shows:\n{end}");
}

#[test]
fn join_plays_a_room_on_the_full_screen_to_the_end_against_a_computer_seat() {
    let served = crate::online::serve();
    let (url, _) = crate::online::room(&served, 11);
    let pane = Pane::start("join", &format!("join {url} --name Ann --quiet"));
    let first = pane.wait_for("Ann to roll");
    assert!(first.contains("classic · online · turn 1"), "{first}");
    assert!(first.contains("human, you") && first.contains("R Robo"), "{first}");
    assert!(first.contains(" Space  roll") && first.contains("You sit at"), "{first}");
    pane.keys(&["?"]);
    pane.wait_for("the seat stays yours");
    pane.keys(&["Escape"]);
    pane.wait_for(" Space  roll");
    let end = roll_to_the_end(&pane, "Ann");
    assert!(
        end.contains("1. ") && end.contains("2. ") && end.contains("q or Enter leaves"),
        "{end}"
    );
    pane.keys(&["q"]);
    let after = pane.wait_for("MODE=");
    assert!(after.contains("SNL-EXIT=0") && after.contains("MODE=icanon"), "{after}");
    assert!(after.contains("Final ranking:"), "the result stays:\n{after}");
    assert!(!after.contains("Players"), "the full screen is gone:\n{after}");
    // A watcher afterwards sees the same end on its own full screen.
    let watcher = Pane::start("watch", &format!("watch {url} --fast --quiet"));
    let end = watcher.wait_for("wins!");
    assert!(end.contains("watching") && !end.contains(" Space  roll"), "{end}");
}

#[test]
fn leaving_a_room_keeps_the_seat_and_the_printed_address_takes_it_back() {
    let served = crate::online::serve();
    let (url, _) = crate::online::room(&served, 4);
    let pane = Pane::start("leave", &format!("join {url} --name Ann --fast --quiet"));
    pane.wait_for("Ann to roll");
    pane.keys(&["Space"]);
    pane.wait_for("Ann rolled");
    pane.wait_for("Ann to roll");
    pane.keys(&["q"]);
    pane.wait_for("Leave the room?");
    pane.keys(&["y"]);
    pane.wait_for("MODE=");
    let after = pane.joined();
    assert!(after.contains("SNL-EXIT=0") && after.contains("MODE=icanon"), "{after}");
    let back = after
        .split('\'')
        .find(|part| part.starts_with(&url) && part.contains("#token="))
        .unwrap_or_else(|| panic!("no address to come back with:\n{after}"))
        .to_owned();
    let again = Pane::start("back", &format!("join '{back}' --fast --quiet"));
    // The turn played before leaving is there, and the seat is Ann's to roll.
    again.wait_for("Ann rolled");
    let screen = again.wait_for("Ann to roll");
    assert!(screen.contains("human, you") && screen.contains(" Space  roll"), "{screen}");
    let header = screen.lines().find(|l| l.contains("Ann to roll")).unwrap().to_owned();
    again.keys(&["Space"]);
    // The seat plays on: Ann's next turn comes.
    for _ in 0..600 {
        let now = again.screen();
        if now.contains("Ann to roll") && !now.contains(&header) {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("Ann's next turn never came:\n{}", again.screen());
}

#[test]
fn the_full_screen_says_reconnecting_while_the_server_is_down_and_plays_on_once_it_is_back() {
    let mut served = crate::online::serve();
    let (url, _) = crate::online::room(&served, 9);
    let pane = Pane::start("reconnect", &format!("join {url} --name Ann --fast --quiet"));
    pane.wait_for("Ann to roll");
    pane.keys(&["Space"]);
    pane.wait_for("Ann rolled");
    pane.wait_for("Ann to roll");
    // Killed with SIGKILL: the screen says so and keeps trying.
    served.kill();
    let down = pane.wait_for("reconnecting…");
    assert!(down.contains("The connection was lost"), "{down}");
    served.start_again();
    pane.wait_for("Connected again");
    let end = roll_to_the_end(&pane, "Ann");
    assert!(end.contains("1. ") && end.contains("2. "), "{end}");
    pane.keys(&["q"]);
    let after = pane.wait_for("MODE=");
    assert!(after.contains("SNL-EXIT=0") && after.contains("Final ranking:"), "{after}");
    // The screen's copy of the game followed every event (a missed or doubled one stops it):
    // its ranking is the one a watcher is told afterwards, each player where the server has them.
    let watched = crate::util::snl_with_input(&["watch", &url, "--plain"], "");
    let ranking = watched.stdout.split("Final ranking:").nth(1).unwrap_or_default();
    // The ranking ends where what the game earned is told.
    let ranking = ranking.split("Achievements earned:").next().unwrap_or_default().to_owned();
    for line in ranking.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let (_, who) = line.split_once(". ").unwrap();
        assert!(end.contains(who), "{who} missing:\n{end}");
    }
    assert!(ranking.contains("(on 100)"), "{}", watched.stdout);
}

#[test]
fn a_series_stays_on_the_full_screen_from_one_game_to_the_next() {
    let pane = Pane::start(
        "series",
        "play --games 3 --fast --quiet --seed 8 --player Ann:human --player Robo:easy",
    );
    let first = pane.wait_for("Game 1 of a best of 3");
    assert!(first.contains("Players"), "game 1 on the full screen:\n{first}");
    let end = roll_to_the_end(&pane, "Ann");
    assert!(end.contains("q or Enter leaves"), "{end}");
    pane.keys(&["Enter"]);
    // Robo starts game 2 and plays at once; then Ann is awaited, on the full screen again.
    let second = pane.wait_for("Game 2 of a");
    assert!(second.contains("Players") && second.contains("│"), "{second}");
    pane.keys(&["C-c"]);
    let after = pane.wait_for("MODE=");
    assert!(after.contains("Standings after game 1 of a best of 3"), "{after}");
    assert!(after.contains("MODE=icanon"), "{after}");
}

#[test]
fn a_series_online_goes_on_to_its_next_game_with_n_on_the_full_screen() {
    let served = crate::online::serve();
    let request = serde_json::json!({
        "seats": [{"kind": "human"}, {"kind": "hard", "name": "Robo"}],
        "games": 3,
        "seed": 5
    });
    let answer = crate::online::http(&served.addr, "POST", "/api/rooms", &request.to_string());
    let url = format!("http://{}/room/{}", served.addr, answer["room"].as_str().unwrap());
    let pane = Pane::start("series-online", &format!("join {url} --name Ann --fast --quiet"));
    pane.wait_for("Game 1 of a best of 3");
    roll_to_the_end(&pane, "Ann");
    let end = pane.wait_for("n next game");
    assert!(end.contains("After game 1"), "{end}");
    pane.keys(&["n"]);
    let next = pane.wait_for("Game 2 of a best of 3");
    assert!(next.contains("human, you"), "the same seat is held:\n{next}");
    pane.wait_for("Ann to roll");
    pane.keys(&["q"]);
    pane.wait_for("Leave the room?");
    pane.keys(&["y"]);
    let after = pane.wait_for("MODE=");
    assert!(after.contains("SNL-EXIT=0") && after.contains("MODE=icanon"), "{after}");
}
