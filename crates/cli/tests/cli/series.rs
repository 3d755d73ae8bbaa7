//! `snl play --games K`: a series, best of K — rotation, standings, early stop, seeds, recording.

use crate::util::{Run, TempDir, assert_fails, snl, snl_json};

/// On the classic board the first seat wins in 21 rolls (A: 6⇒25, 31, 37, 43, 46⇒90, 94, 99⇒54,
/// 60⇒85, 91, 97, 100; B: 5, 10, 16, 17⇒69, 70⇒55, 56, 57, 58, 59, 60⇒85).
const FIRST_SEAT_WINS: &str = "6,5,6,5,6,6,6,1,3,1,4,1,5,1,6,1,6,1,6,1,3";
/// The same race with the seats' rolls the other way round: the second seat wins in 22 rolls
/// (the first one's extra roll takes it from 85 to 86).
const SECOND_SEAT_WINS: &str = "5,6,5,6,6,6,1,6,1,3,1,4,1,5,1,6,1,6,1,6,1,3";

fn series(rolls: &str, games: &str, extra: &[&str]) -> Run {
    let mut args = vec![
        "play", "--games", games, "--rolls", rolls, "--player", "Ann:easy", "--player", "Bob:easy",
    ];
    args.extend_from_slice(extra);
    snl(&args)
}

#[test]
fn a_series_rotates_who_starts_and_shows_the_standings_after_each_game() {
    // The first seat wins each game: Ann starts game 1, Bob game 2, Ann game 3.
    let rolls = [FIRST_SEAT_WINS; 3].join(",");
    let run = series(&rolls, "3", &["--no-record"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    for (g, first) in [(1, "Ann"), (2, "Bob"), (3, "Ann")] {
        assert!(out.contains(&format!("Game {g} of a best of 3: {first} starts.")), "{out}");
    }
    let after = |g: u32| {
        let heading = format!("Standings after game {g} of a best of 3:\n");
        let at = out.find(&heading).unwrap_or_else(|| panic!("no {heading:?} in {out}"));
        out[at + heading.len()..].lines().take(3).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(after(1), "  PLAYER   WINS\n  Ann         1\n  Bob         0");
    assert_eq!(after(2), "  PLAYER   WINS\n  Ann         1\n  Bob         1");
    assert_eq!(after(3), "  PLAYER   WINS\n  Ann         2\n  Bob         1");
    assert!(out.trim_end().ends_with("Ann wins the series 2-1."), "{out}");
}

#[test]
fn a_series_stops_once_no_seat_can_catch_the_leader() {
    // Ann wins game 1 (she starts) and game 2 (Bob starts): 2-0 with one to play is decided.
    let rolls = format!("{FIRST_SEAT_WINS},{SECOND_SEAT_WINS}");
    let run = series(&rolls, "3", &["--no-record", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!((v["best_of"].as_u64(), v["played"].as_u64()), (Some(3), Some(2)));
    assert_eq!((v["over"].as_bool(), v["winner"].as_str()), (Some(true), Some("Ann")));
    assert_eq!(
        v["standings"],
        serde_json::json!([{"name": "Ann", "wins": 2}, {"name": "Bob", "wins": 0}])
    );
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(
        (games[0]["first"].as_str(), games[1]["first"].as_str()),
        (Some("Ann"), Some("Bob"))
    );
    assert_eq!(games[1]["players"], serde_json::json!(["Bob", "Ann"]));
    assert_eq!(games[1]["ranking"], serde_json::json!(["Ann", "Bob"]));
    assert_eq!((games[0]["turns"].as_u64(), games[1]["turns"].as_u64()), (Some(21), Some(22)));
}

#[test]
fn a_series_that_ends_level_is_drawn() {
    let rolls = [FIRST_SEAT_WINS; 2].join(",");
    let run = series(&rolls, "2", &["--no-record"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.trim_end().ends_with("The series is drawn 1-1."), "{}", run.stdout);
    let v = snl_json(&[
        "play",
        "--games",
        "2",
        "--rolls",
        &rolls,
        "--player",
        "Ann:easy",
        "--player",
        "Bob:easy",
        "--no-record",
        "--json",
    ]);
    assert_eq!((v["over"].as_bool(), v["winner"].is_null()), (Some(true), true));
}

#[test]
fn a_series_is_recorded_once_and_shown_by_games_and_stats() {
    let dir = TempDir::new("series-recorded");
    let db = dir.file("games.db");
    let rolls = [FIRST_SEAT_WINS; 3].join(",");
    let run = series(&rolls, "3", &["--db", &db, "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let played: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(played["series_id"], 1);

    let games = snl_json(&["games", "--json", "--db", &db]);
    let games = games.as_array().unwrap();
    assert_eq!(games.len(), 3, "each game recorded once");
    for (g, game) in games.iter().rev().enumerate() {
        assert_eq!(
            (game["series"].as_u64(), game["series_game"].as_u64()),
            (Some(1), Some(g as u64 + 1))
        );
        assert_eq!(game["id"], played["games"][g]["game_id"]);
    }
    let text = snl(&["games", "--db", &db]);
    let lines: Vec<&str> = text.stdout.lines().collect();
    assert!(lines[0].ends_with("TURNS  SERIES"), "{}", lines[0]);
    assert!(lines[2].ends_with("1 #2"), "{}", lines[2]);

    let ann = snl_json(&["stats", "--player", "Ann", "--json", "--db", &db]);
    assert_eq!((ann["games"].as_u64(), ann["wins"].as_u64()), (Some(3), Some(2)));
    assert_eq!((ann["series"].as_u64(), ann["series_won"].as_u64()), (Some(1), Some(1)));
    let bob = snl_json(&["stats", "--player", "Bob", "--json", "--db", &db]);
    assert_eq!((bob["series"].as_u64(), bob["series_won"].as_u64()), (Some(1), Some(0)));
    let text = snl(&["stats", "--db", &db]);
    let lines: Vec<&str> = text.stdout.lines().collect();
    assert!(lines[0].ends_with("LONGEST SLIDE  SERIES  SERIES WON"), "{}", lines[0]);
    assert!(
        lines[1].starts_with("Ann ") && lines[1].ends_with("       1           1"),
        "{}",
        lines[1]
    );
}

#[test]
fn the_same_seed_gives_the_same_series_and_game_one_is_the_game_play_plays_with_it() {
    let args = [
        "play",
        "--games",
        "3",
        "--seed",
        "11",
        "--player",
        "Ann:easy",
        "--player",
        "Bob:greedy",
        "--no-record",
        "--json",
    ];
    let once = snl_json(&args);
    assert_eq!(once, snl_json(&args));
    assert_eq!(once["seed"], 11);
    let alone = |seed: &str, first: &str, second: &str| {
        snl_json(&[
            "play",
            "--seed",
            seed,
            "--player",
            first,
            "--player",
            second,
            "--no-record",
            "--json",
        ])
    };
    // Game g is seeded 11 + g - 1, the seats rotated.
    let first = alone("11", "Ann:easy", "Bob:greedy");
    let second = alone("12", "Bob:greedy", "Ann:easy");
    for (g, game) in [(0, first), (1, second)] {
        let played = &once["games"][g];
        assert_eq!(played["seed"], game["seed"]);
        assert_eq!(played["ranking"], game["ranking"]);
        assert_eq!((&played["turns"], &played["positions"]), (&game["turns"], &game["positions"]));
    }
}

#[test]
fn bad_series_options_are_refused_with_one_sentence() {
    let play = |extra: &[&str]| {
        let mut args = vec!["play", "--player", "A:easy", "--player", "B:easy", "--no-record"];
        args.extend_from_slice(extra);
        snl(&args)
    };
    assert_fails(&play(&["--games", "0"]), 2, &["--games 0", "1 to 1000000"]);
    assert_fails(&play(&["--games", "1000001"]), 2, &["--games 1000001"]);
    assert_fails(&play(&["--games", "3", "--save", "x.json"]), 2, &["--save", "series"]);
    assert_fails(&play(&["--games", "3", "--stop-after", "2"]), 2, &["--stop-after"]);
    let run = snl(&["play", "--games", "3", "--load", "x.json"]);
    assert_fails(&run, 2, &["--load"]);
}

#[test]
fn scripted_rolls_that_run_out_part_way_through_a_series_stop_it_with_exit_3() {
    let run = series(FIRST_SEAT_WINS, "3", &["--no-record"]);
    assert_fails(&run, 3, &["scripted rolls ran out"]);
    assert!(run.stdout.contains("Standings after game 1 of a best of 3:"), "{}", run.stdout);
}

#[test]
fn a_series_stopped_mid_game_is_resumed_with_the_rest_of_its_games_as_one_series() {
    let dir = TempDir::new("series-resume");
    let (whole, cut) = (dir.file("whole.db"), dir.file("cut.db"));
    let enters = "\n".repeat(3000);
    let args = |db: &str| {
        [
            "play",
            "--games",
            "3",
            "--seed",
            "5",
            "--player",
            "Ann:human",
            "--player",
            "Bob:easy",
            "--db",
            db,
        ]
        .map(str::to_owned)
    };
    // The series played at one go, Ann pressing Enter at every prompt.
    let run = |db: &str, input: &str| {
        let args = args(db);
        crate::util::snl_with_input(&args.iter().map(String::as_str).collect::<Vec<_>>(), input)
    };
    let at_once = run(&whole, &enters);
    assert_eq!(at_once.code, 0, "{}", at_once.stderr);
    // The same series, Ann quitting at her third prompt of game 1, then resumed.
    let stopped = run(&cut, "\n\nq\n");
    assert_eq!(stopped.code, 0, "{}", stopped.stderr);
    assert!(stopped.stdout.contains("The series stopped during game 1."), "{}", stopped.stdout);
    let resumed = crate::util::snl_with_input(&["resume", "--db", &cut], &enters);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    let out = &resumed.stdout;
    assert!(out.contains("Game 1 of a best of 3: Ann started it."), "{out}");
    assert!(out.contains("Game 2 of a best of 3: Bob starts."), "{out}");
    // The standings after each game and the end are those of the series played at one go.
    let tail = |text: &str| text[text.find("Standings after game 1").unwrap()..].to_owned();
    let wanted = tail(&at_once.stdout);
    let got = tail(out);
    let standings = |t: &str| {
        t.lines()
            .filter(|l| l.starts_with("Standings") || l.starts_with("  ") || l.contains("series"))
            .filter(|l| !l.contains("ran out") && !l.contains('|'))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(standings(&got), standings(&wanted));
    assert!(got.trim_end().ends_with(wanted.trim_end().lines().last().unwrap()), "{got}");

    // Recorded as the same series: its games linked in order, the series' standing kept.
    let json = |db: &str| snl_json(&["games", "--json", "--db", db]);
    let (cut_games, whole_games) = (json(&cut), json(&whole));
    let linked = |games: &serde_json::Value| {
        let mut v: Vec<(u64, u64, serde_json::Value)> = games
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                (
                    g["series"].as_u64().unwrap(),
                    g["series_game"].as_u64().unwrap(),
                    g["winner"].clone(),
                )
            })
            .collect();
        v.sort_by_key(|(_, n, _)| *n);
        v
    };
    assert_eq!(linked(&cut_games), linked(&whole_games));
    let stats = |db: &str| snl_json(&["stats", "--player", "Ann", "--json", "--db", db]);
    let (a, b) = (stats(&cut), stats(&whole));
    for key in ["games", "wins", "series", "series_won"] {
        assert_eq!(a[key], b[key], "{key}: {a} against {b}");
    }
    assert_eq!(a["series"], 1);

    // Stopped in game 2: game 1's win, read back from the database, counts in the standings.
    let again = dir.file("again.db");
    let replay = snl(&["replay", "1", "--events", "jsonl", "--db", &whole]);
    let ann_turns =
        replay.stdout.lines().filter(|l| l.contains(r#""turn_started","player":"Ann""#)).count();
    assert!(ann_turns > 0, "{}", replay.stdout);
    let stopped = run(&again, &format!("{}\nq\n", "\n".repeat(ann_turns)));
    assert!(stopped.stdout.contains("The series stopped during game 2."), "{}", stopped.stdout);
    let resumed = crate::util::snl_with_input(&["resume", "--db", &again], &enters);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    assert!(
        resumed.stdout.contains("Game 2 of a best of 3: Bob started it."),
        "{}",
        resumed.stdout
    );
    let got = &resumed.stdout[resumed.stdout.find("Standings after game 2").unwrap()..];
    let wanted = &wanted[wanted.find("Standings after game 2").unwrap()..];
    assert_eq!(standings(got), standings(wanted));
    assert_eq!(linked(&json(&again)), linked(&whole_games));
}

/// Reads `from` until `text` has been seen `times` times (prompts of a person's seat).
fn wait_for(from: &mut impl std::io::Read, text: &str, times: usize) {
    let mut seen = Vec::new();
    let mut byte = [0_u8];
    while String::from_utf8_lossy(&seen).matches(text).count() < times {
        let n = from.read(&mut byte).expect("stderr readable");
        assert!(n == 1, "the series ended early: {}", String::from_utf8_lossy(&seen));
        seen.push(byte[0]);
    }
}

/// Runs `snl args` with Ann pressing Enter at her prompts and kills it (SIGKILL) at her
/// `prompt`-th prompt, before she answers it.
fn killed_at_prompt(args: &[&str], prompt: usize) {
    use std::io::{BufReader, Write};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_snl"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let asks = "Ann, press Enter to roll";
    for _ in 1..prompt {
        wait_for(&mut stderr, asks, 1);
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }
    wait_for(&mut stderr, asks, 1);
    child.kill().unwrap(); // SIGKILL: no chance to clean up
    assert!(!child.wait().unwrap().success());
}

/// Issue 29, finding 3: a series on random boards killed in the middle of a game, then killed
/// again as its next game began, then (a copy of it) cut off between two games — the next
/// game not yet recorded — is resumed each time and ends as the series played at one go: the
/// same games, each on its own board (event for event), the same standings.
#[test]
fn a_series_on_random_boards_survives_kill_9_mid_game_and_between_games() {
    let dir = TempDir::new("series-kill");
    let (whole, cut) = (dir.file("whole.db"), dir.file("cut.db"));
    let series = |db: &str| {
        [
            "play",
            "--games",
            "5",
            "--board",
            "random",
            "--seed",
            "5",
            "--player",
            "Ann:human",
            "--player",
            "Bob:easy",
            "--db",
            db,
        ]
        .map(str::to_owned)
    };
    let args = |db: &str| series(db).to_vec();
    let enters = "\n".repeat(5000);
    let run = |a: &[String], input: &str| {
        crate::util::snl_with_input(&a.iter().map(String::as_str).collect::<Vec<_>>(), input)
    };
    let at_once = run(&args(&whole), &enters);
    assert_eq!(at_once.code, 0, "{}", at_once.stderr);
    let games = |db: &str| snl_json(&["games", "--json", "--db", db]);
    let events = |db: &str, id: u64| {
        snl(&["replay", &id.to_string(), "--events", "jsonl", "--db", db]).stdout
    };
    // Ann's turns in game 1: her prompts in it.
    let ann_turns_1 = events(&whole, 1)
        .lines()
        .filter(|l| l.contains(r#""turn_started","player":"Ann""#))
        .count();
    assert!(ann_turns_1 >= 3, "game 1 is long enough to be cut in its middle");

    // Killed at Ann's third prompt of game 1, then the resumed series killed at Ann's first
    // prompt of game 2 (game 1 over, game 2 recorded with no turn yet).
    killed_at_prompt(&args(&cut).iter().map(String::as_str).collect::<Vec<_>>(), 3);
    let resume = ["resume", "--db", cut.as_str()];
    killed_at_prompt(&resume, ann_turns_1 - 2 + 1);
    let listed = games(&cut);
    assert_eq!(listed.as_array().map(Vec::len), Some(2), "{listed}");

    // The same state a moment earlier: game 1 over, game 2 not yet recorded.
    let between = dir.file("between.db");
    std::fs::copy(&cut, &between).unwrap();
    let copy_wal = |from: &str, to: &str| {
        let wal = format!("{from}-wal");
        if std::path::Path::new(&wal).exists() {
            std::fs::copy(&wal, format!("{to}-wal")).unwrap();
        }
    };
    copy_wal(&cut, &between);
    let conn = rusqlite::Connection::open(&between).unwrap();
    conn.execute_batch(
        "PRAGMA foreign_keys = ON; DELETE FROM actions WHERE game_id = 2;
         DELETE FROM games WHERE id = 2;",
    )
    .unwrap();
    drop(conn);

    for db in [&cut, &between] {
        let rest = crate::util::snl_with_input(&["resume", "--db", db], &enters);
        assert_eq!(rest.code, 0, "{}", rest.stderr);
        let tail = |text: &str| {
            let from = text.find("Standings after game 1").map_or(0, |i| i);
            let last = text.trim_end().lines().last().unwrap_or_default().to_owned();
            (text[from..].matches("Standings after game").count(), last)
        };
        // Every game's standings after game 2, and the same last line.
        let (_, wanted_last) = tail(&at_once.stdout);
        assert_eq!(tail(&rest.stdout).1, wanted_last, "{db}: {}", rest.stdout);
        let (a, b) = (games(db), games(&whole));
        let key = |g: &serde_json::Value| {
            (g["series_game"].clone(), g["winner"].clone(), g["turns"].clone(), g["status"].clone())
        };
        let mut a: Vec<_> = a.as_array().unwrap().iter().map(key).collect();
        let mut b: Vec<_> = b.as_array().unwrap().iter().map(key).collect();
        a.sort_by_key(|k| k.0.as_u64());
        b.sort_by_key(|k| k.0.as_u64());
        assert_eq!(a, b, "{db}");
        for (id, number) in a.iter().enumerate().map(|(i, k)| (i as u64 + 1, k.0.clone())) {
            let theirs = games(db)
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["series_game"] == number)
                .and_then(|g| g["id"].as_u64())
                .unwrap();
            assert_eq!(events(db, theirs), events(&whole, id), "{db}: game {number}");
        }
        let stats = |db: &str| snl_json(&["stats", "--player", "Ann", "--json", "--db", db]);
        let (x, y) = (stats(db), stats(&whole));
        for key in ["games", "wins", "series", "series_won"] {
            assert_eq!(x[key], y[key], "{db} {key}: {x} against {y}");
        }
    }
}
