//! The game database under strain: many processes recording at once, a database that another
//! user cannot write (a read-only folder, a read-only file), and damaged or edited files.

use std::{
    os::unix::fs::{MetadataExt, PermissionsExt},
    path::Path,
    process::{Command, Output, Stdio},
};

use serde_json::Value;

use crate::util::*;

/// A long game: two easy seats on a random board of 2000 cells (hundreds of turns).
fn long_game(seed: &str) -> Vec<&str> {
    let board = ["--board", "random", "--size", "2000", "--seed", seed];
    let seats = ["--player", "A:easy", "--player", "B:easy"];
    let mut args = vec!["play"];
    args.extend(board);
    args.extend(seats);
    args
}

/// What makes two results of the same game equal, whoever computed them.
fn game_facts(v: &Value) -> Value {
    serde_json::json!([v["ranking"], v["positions"], v["rolls"], v["turns"], v["seed"]])
}

fn output_json(out: &Output) -> Value {
    let stdout = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

#[test]
fn four_processes_recording_long_games_into_one_database_at_once_lose_nothing() {
    let dir = TempDir::new("writers");
    let db = dir.file("games.db");
    let seeds = ["11", "12", "13", "14"];
    // All four start before any is waited for: their turns interleave on the write lock.
    let children: Vec<_> = seeds
        .iter()
        .map(|seed| {
            let mut args = long_game(seed);
            args.extend(["--db", &db, "--json"]);
            Command::new(env!("CARGO_BIN_EXE_snl"))
                .args(&args)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("snl starts")
        })
        .collect();
    let outputs: Vec<Output> =
        children.into_iter().map(|c| c.wait_with_output().expect("snl ends")).collect();

    let games = snl_json(&["games", "--json", "--db", &db]);
    assert_eq!(games.as_array().unwrap().len(), 4, "{games}");
    for (seed, out) in seeds.iter().zip(&outputs) {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && stderr.is_empty(), "seed {seed}: {stderr}");
        let played = output_json(out);
        let number = played["game_id"].as_i64().expect("recorded");
        let id = number.to_string();
        let mut alone = long_game(seed);
        alone.extend(["--no-record", "--json"]);
        let alone = snl_json(&alone);
        assert!(alone["turns"].as_u64().unwrap() > 300, "a long game: {alone}");
        assert_eq!(game_facts(&played), game_facts(&alone), "seed {seed}");
        // Recorded complete and right: finished, every roll there, and it replays to that game.
        let listed = games.as_array().unwrap().iter().find(|g| g["id"] == number).unwrap();
        assert_eq!(listed["status"], "finished", "{listed}");
        assert_eq!(listed["turns"], alone["turns"]);
        let replayed = snl_json(&["replay", &id, "--json", "--db", &db]);
        assert_eq!(game_facts(&replayed), game_facts(&alone), "game {id}, seed {seed}");
        let history = snl_json(&["history", &id, "--json", "--db", &db]);
        assert_eq!(history.as_array().unwrap().len() as u64, alone["rolls"].as_u64().unwrap());
    }
}

/// Runs `snl` as a user who cannot write `folder`: when the tests run as root (who may write
/// anywhere), as the user `nobody` through `setpriv` (util-linux); otherwise as the same user,
/// the folder having no write permission for anyone.
fn as_reader(folder: &Path, args: &[&str]) -> Run {
    let probe = folder.join(".probe");
    std::fs::write(&probe, b"").unwrap();
    let root = std::fs::metadata(&probe).unwrap().uid() == 0;
    std::fs::remove_file(&probe).unwrap();
    let mut command = if root {
        // The other user runs a copy of snl beside the folder under test: the build's own folder
        // may be closed to other users (a clone in a private temporary folder).
        let parent = folder.parent().expect("a folder in a folder");
        let snl = parent.join(format!("snl-as-reader-{}", std::process::id()));
        if !snl.exists() {
            let copy = parent.join(format!(
                ".snl-copy-{}-{:?}",
                std::process::id(),
                std::thread::current().id()
            ));
            std::fs::copy(env!("CARGO_BIN_EXE_snl"), &copy).unwrap();
            set_mode(&copy, 0o755);
            let _ = std::fs::rename(&copy, &snl);
        }
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"]).arg(&snl);
        c
    } else {
        Command::new(env!("CARGO_BIN_EXE_snl"))
    };
    command.args(args).env_remove("NO_COLOR").env_remove("SNL_DB").stdin(Stdio::null());
    // The copy was just written: a process another test forks at that moment holds the written
    // file open until it execs, and executing the copy meanwhile fails with ETXTBSY ("Text file
    // busy", said by setpriv). That window closes as soon as the other child execs: try again.
    let mut out = command.output().expect("snl starts (setpriv is in util-linux)");
    for _ in 0..1000 {
        if !String::from_utf8_lossy(&out.stderr).contains("Text file busy") {
            break;
        }
        std::thread::yield_now();
        out = command.output().expect("snl starts (setpriv is in util-linux)");
    }
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn set_mode(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Every file in `folder` with its bytes.
fn contents(folder: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<_> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap())
        })
        .collect();
    all.sort();
    all
}

/// A database with a stopped game (1, seed 3, after 5 turns) and a finished one (2, seed 4), and
/// what each reading command prints for it while it can still be written.
fn recorded(dir: &TempDir) -> (String, Vec<(Vec<String>, String)>) {
    let db = dir.file("games.db");
    assert_eq!(snl(&["play", "--seed", "3", "--stop-after", "5", "--db", &db]).code, 0);
    assert_eq!(snl(&["play", "--seed", "4", "--db", &db]).code, 0);
    let reads: Vec<Vec<String>> = [
        &["games", "--json"][..],
        &["games"],
        &["history", "1", "--json"],
        &["history", "2"],
        &["stats", "--json"],
        &["leaderboard"],
        &["replay", "2", "--json"],
        &["replay", "1", "--events", "jsonl"],
    ]
    .iter()
    .map(|a| a.iter().map(|s| (*s).to_owned()).chain(["--db".into(), db.clone()]).collect())
    .collect();
    let expected = reads
        .into_iter()
        .map(|args| {
            let strs: Vec<&str> = args.iter().map(String::as_str).collect();
            let run = snl(&strs);
            assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
            (args, run.stdout)
        })
        .collect();
    (db, expected)
}

/// Every reading command gives what it gave before, with nothing on stderr, and `resume` plays
/// the stopped game on to the end it would have had, unrecorded, with one warning.
fn readable_and_resumable_by_another_user(
    dir: &TempDir,
    db: &str,
    expected: &[(Vec<String>, String)],
) {
    let before = contents(dir.path());
    for (args, stdout) in expected {
        let strs: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = as_reader(dir.path(), &strs);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{args:?}");
        eqnice!(stdout, run.stdout);
    }
    let run = as_reader(dir.path(), &["resume", "--json", "--db", db]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "snl: warning: the game database {db} is read-only; the rest of this game is not recorded\n"
        )
    );
    let whole = snl_json(&["play", "--seed", "3", "--no-record", "--json"]);
    let resumed: Value = serde_json::from_str(run.stdout.trim()).unwrap();
    let facts = |v: &Value| game_facts(v).as_array().unwrap()[..4].to_vec();
    assert_eq!(facts(&resumed), facts(&whole), "{resumed}");
    assert_eq!(contents(dir.path()), before, "nothing written");
}

#[test]
fn a_database_in_a_read_only_folder_can_be_read_and_its_game_resumed_unrecorded() {
    let dir = TempDir::shared("ro-folder");
    let (db, expected) = recorded(&dir);
    set_mode(dir.path(), 0o555);
    readable_and_resumable_by_another_user(&dir, &db, &expected);
    set_mode(dir.path(), 0o755);
}

#[test]
fn a_read_only_database_in_a_writable_folder_can_be_read_and_its_game_resumed_unrecorded() {
    let dir = TempDir::shared("ro-file");
    let (db, expected) = recorded(&dir);
    set_mode(Path::new(&db), 0o444);
    set_mode(dir.path(), 0o777);
    readable_and_resumable_by_another_user(&dir, &db, &expected);
    set_mode(dir.path(), 0o755);
}

#[test]
fn a_damaged_database_is_bad_input_for_every_reading_command_and_is_left_alone() {
    let dir = TempDir::new("damaged");
    let db = dir.file("games.db");
    let garbage: Vec<u8> = (0..8192_u32).map(|i| (i * 31 + 7) as u8).collect();
    std::fs::write(&db, &garbage).unwrap();
    let sentence = format!(
        "the game database {db} is damaged or is not a game database (file is not a database)"
    );
    for args in [
        &["games"][..],
        &["history", "1"],
        &["stats"],
        &["leaderboard"],
        &["replay", "1"],
        &["resume"],
    ] {
        let mut args = args.to_vec();
        args.extend(["--db", &db]);
        assert_fails(&snl(&args), 2, &[&sentence]);
    }
    let run = snl(&["play", "--seed", "1", "--db", &db]);
    assert_eq!(run.code, 0, "a game is never stopped by its database: {}", run.stderr);
    assert!(run.stderr.contains(&sentence) && run.stderr.lines().count() == 1, "{}", run.stderr);
    assert_eq!(std::fs::read(&db).unwrap(), garbage);
}

#[test]
fn reading_commands_never_create_a_schema_in_an_empty_or_missing_file() {
    let dir = TempDir::new("empty");
    let empty = dir.file("empty.db");
    std::fs::write(&empty, b"").unwrap();
    let missing = dir.file("missing.db");
    for db in [&empty, &missing] {
        for (args, out) in [
            (&["games"][..], "No game has been recorded yet.\n"),
            (&["games", "--json"], "[]\n"),
            (&["stats"], "No finished game has been recorded yet.\n"),
            (&["leaderboard", "--json"], "[]\n"),
        ] {
            let mut args = args.to_vec();
            args.extend(["--db", db]);
            let run = snl(&args);
            assert_eq!((run.code, run.stdout.as_str(), run.stderr.as_str()), (0, out, ""));
        }
        assert_fails(&snl(&["history", "1", "--db", db]), 2, &["has no game 1"]);
        assert_fails(&snl(&["replay", "1", "--db", db]), 2, &[db]);
        assert_fails(&snl(&["resume", "--db", db]), 2, &[db]);
    }
    let names: Vec<String> = contents(dir.path()).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["empty.db"]);
    assert_eq!(std::fs::metadata(&empty).unwrap().len(), 0);
}

/// A database with one stopped game, edited by `sql` as another program might.
fn edited(dir: &TempDir, sql: &str) -> String {
    let db = dir.file("games.db");
    let _ = std::fs::remove_file(&db);
    assert_eq!(snl(&["play", "--seed", "5", "--stop-after", "4", "--db", &db]).code, 0);
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(&format!("PRAGMA ignore_check_constraints = ON; {sql}")).unwrap();
    db
}

#[test]
fn an_unknown_status_kind_or_move_kind_is_named_with_its_game_and_row() {
    let dir = TempDir::new("strict");
    let db = edited(&dir, "UPDATE games SET status = 'paused'");
    let sentence = format!(
        "the game database {db} holds game 1, but its games row has an unknown status 'paused' \
         (edited or damaged)"
    );
    for args in [&["games"][..], &["resume"], &["history", "1"], &["stats"], &["leaderboard"]] {
        let mut args = args.to_vec();
        args.extend(["--db", &db]);
        assert_fails(&snl(&args), 2, &[&sentence]);
    }
    let db = edited(&dir, "UPDATE seats SET kind = 'wizard' WHERE seat = 0");
    assert_fails(
        &snl(&["games", "--db", &db]),
        2,
        &["holds game 1, but its seat 0 has an unknown kind 'wizard' (edited or damaged)"],
    );
    // Move 3's kind, in the run of moves that holds it.
    let db = edited(
        &dir,
        "UPDATE move_runs SET moves = json_set(moves, '$[' || (3 - first) || '][5]', 'flew')
         WHERE first <= 3 AND first + count > 3",
    );
    assert_fails(
        &snl(&["history", "1", "--db", &db]),
        2,
        &["holds game 1, but its move 3 has an unknown kind 'flew' (edited or damaged)"],
    );
}

/// Issue 29, finding 13: a table that lacks a column (dropped by another program) is a damaged
/// database told in one sentence, exit 2, never SQLite's raw statement.
#[test]
fn a_table_without_its_column_is_one_sentence_and_never_raw_sql() {
    let dir = TempDir::new("schema");
    let db = edited(&dir, "ALTER TABLE games DROP COLUMN save");
    for args in [&["games"][..], &["history", "1"], &["replay", "1"], &["resume"], &["stats"]] {
        let mut args = args.to_vec();
        args.extend(["--db", &db]);
        let run = snl(&args);
        if run.code == 0 {
            // A command that never reads the column is not hurt by its absence.
            continue;
        }
        assert_fails(&run, 2, &["is damaged or is not a game database", "save"]);
        assert!(!run.stderr.contains("SELECT") && !run.stderr.contains("offset"), "{}", run.stderr);
        assert_eq!(run.stderr.trim_end().lines().count(), 1, "{}", run.stderr);
    }
    let run = snl(&["resume", "--db", &db]);
    assert_fails(&run, 2, &["no such column: save"]);
}

/// Issue 29, finding 13: `history` and `replay` agree on an edited move: both refuse the game with
/// the same sentence, rather than history listing a move that was never played.
#[test]
fn history_refuses_an_edited_move_as_replay_does() {
    let dir = TempDir::new("edited-move");
    // Move 3 now ends on cell 57, which its roll cannot reach.
    let db = edited(
        &dir,
        "UPDATE move_runs SET moves = json_set(moves, '$[' || (3 - first) || '][4]', 57)
         WHERE first <= 3 AND first + count > 3",
    );
    let replay = snl(&["replay", "1", "--db", &db]);
    assert_fails(&replay, 2, &["game 1 cannot be replayed: "]);
    let history = snl(&["history", "1", "--db", &db]);
    assert_fails(&history, 2, &["game 1 cannot be replayed: "]);
    assert_eq!(history.stderr, replay.stderr);
    assert_eq!(history.stdout, "");
}

#[test]
fn a_game_whose_recording_stopped_is_marked_incomplete_and_not_resumed() {
    let dir = TempDir::new("incomplete");
    let db = dir.file("games.db");
    assert_eq!(snl(&["play", "--seed", "5", "--stop-after", "1", "--db", &db]).code, 0);
    // From its sixth roll on, the database refuses game 2 new moves (as a full disk would); the log
    // still takes a line.
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch(
            "CREATE TRIGGER refuse BEFORE INSERT ON move_runs
             WHEN NEW.game_id = 2 AND NEW.first + NEW.count - 1 > 5
             BEGIN SELECT RAISE(ABORT, 'no room left'); END;",
        )
        .unwrap();
    let run = snl(&["play", "--seed", "6", "--db", &db, "--json"]);
    assert_eq!(run.code, 0, "the game goes on: {}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "snl: warning: the game database {db} cannot be used: no room left; the rest of this \
             game is not recorded (--no-record plays without it)\n"
        )
    );
    let played: Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(played["finished"], true);
    let games = snl_json(&["games", "--json", "--db", &db]);
    assert_eq!(games[0]["id"], 2);
    assert_eq!(games[0]["status"], "incomplete", "never left playing: {games}");
    let turns = games[0]["turns"].as_u64().unwrap();
    assert!(turns < played["turns"].as_u64().unwrap());
    assert_fails(
        &snl(&["resume", "2", "--db", &db]),
        2,
        &[&format!(
            "game 2 cannot be resumed: its recording stopped after turn {turns} while the game \
             went on unrecorded, so its record is incomplete (snl replay 2 shows that part)"
        )],
    );
    // The default is the game that can be resumed: game 1, stopped on purpose.
    let run = snl(&["resume", "--db", &db, "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("\"game_id\":1"), "{}", run.stdout);
}
