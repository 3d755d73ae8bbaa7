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
        let socket = format!("snl-e2e-{name}-{}", std::process::id());
        let db = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{socket}.db"));
        let _ = std::fs::remove_file(&db);
        let bin = env!("CARGO_BIN_EXE_snl");
        let script = format!(
            "{bin} {args}; code=$?; \
             echo \"SNL-EXIT=$code MODE=$(stty -a | tr ' ' '\\n' | grep -x -- '-\\?icanon')\"; sleep 600"
        );
        let pane = Pane { socket, db };
        let started = pane.tmux(&["new-session", "-d", "-x", "80", "-y", "24", "-s", "g", &script]);
        assert!(started.status.success(), "tmux did not start: {started:?}");
        pane
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

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "g"];
        args.extend_from_slice(keys);
        self.tmux(&args);
    }

    /// Polls the screen until it shows `text`; the screen at that moment.
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
        after.contains("Game stopped after 0 turns.") && after.contains("SNL-EXIT=0"),
        "{after}"
    );
    assert!(after.contains("MODE=icanon"), "{after}");
}
