//! `snl play --save/--load/--stop-after`: a game cut in two is the same game; bad saves are
//! refused with one sentence, exit 2, and left as they were.

use crate::util::*;

/// Seats, rules and dice of a few kinds, so that every part of the saved state matters.
fn games() -> Vec<Vec<String>> {
    let scripted: Vec<String> =
        [3, 6, 1, 6, 6, 2, 5, 4].iter().cycle().take(400).map(u32::to_string).collect();
    let games: [&[&str]; 4] = [
        &["--seed", "3", "--player", "Ann:easy", "--player", "Bob:greedy"],
        &[
            "--seed",
            "8",
            "--rules",
            "three-sixes",
            "--player",
            "A:easy",
            "--player",
            "B:hard",
            "--player",
            "C:easy",
        ],
        &[
            "--seed",
            "5",
            "--rules",
            "strict-sixes",
            "--dice",
            "2d6",
            "--overshoot",
            "bounce",
            "--player",
            "A:easy",
            "--player",
            "B:easy",
        ],
        &[
            "--rolls",
            &scripted.join(","),
            "--rules",
            "bonus-six",
            "--overshoot",
            "win",
            "--player",
            "A:easy",
            "--player",
            "B:easy",
        ],
    ];
    games.iter().map(|g| g.iter().map(|s| (*s).to_owned()).collect()).collect()
}

fn with(base: &[&str], more: &[String]) -> Vec<String> {
    base.iter().map(|s| (*s).to_owned()).chain(more.iter().cloned()).collect()
}

fn run(args: &[String]) -> Run {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    snl(&args)
}

#[test]
fn a_game_cut_in_two_by_stop_after_and_load_is_the_uninterrupted_game() {
    let dir = TempDir::new("cut");
    for (i, game) in games().iter().enumerate() {
        let whole = run(&with(&["play", "--events", "jsonl", "--no-record"], game));
        assert_eq!(whole.code, 0, "{}", whole.stderr);
        for cut in [0, 1, 6] {
            let file = dir.file(&format!("game-{i}-{cut}.json"));
            let stop = cut.to_string();
            let first = run(&with(
                &[
                    "play",
                    "--events",
                    "jsonl",
                    "--no-record",
                    "--save",
                    &file,
                    "--stop-after",
                    &stop,
                ],
                game,
            ));
            assert_eq!(first.code, 0, "{}", first.stderr);
            let second = snl(&["play", "--load", &file, "--events", "jsonl", "--no-record"]);
            assert_eq!(second.code, 0, "{}", second.stderr);
            assert!(!second.stdout.is_empty());
            eqnice!(whole.stdout, format!("{}{}", first.stdout, second.stdout));
        }
    }
}

#[test]
fn stop_after_keeps_the_game_and_says_how_to_go_on() {
    let dir = TempDir::new("stop");
    let file = dir.file("game.json");
    let db = dir.file("games.db");
    let run = snl(&["play", "--seed", "2", "--save", &file, "--stop-after", "4", "--db", &db]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("Game stopped after 4 turns."), "{}", run.stdout);
    assert!(
        run.stdout.contains(&format!("Go on with: snl resume 1, or snl play --load {file}")),
        "{}",
        run.stdout
    );
    // The journal: the game as it began, then one line per turn, the last one with turn 4.
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<serde_json::Value> =
        text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!((lines.len(), &lines[0]["game"]["turns"]), (5, &serde_json::json!(0)));
    assert_eq!(lines[4]["head"]["turns"], 4);
    let json = snl(&["play", "--load", &file, "--stop-after", "3", "--json", "--no-record"]);
    let v: serde_json::Value = serde_json::from_str(json.stdout.trim()).unwrap();
    assert_eq!((v["turns"].as_u64(), v["finished"].as_bool()), (Some(7), Some(false)));
    assert_eq!(v["save"], file.as_str(), "the loaded file is saved back to");
}

#[test]
fn stop_after_counts_turns_that_had_a_decision() {
    // Under may-pass every roll is a decision, each its own step for a computer seat.
    let seats = ["--player", "Amy:greedy", "--player", "Gus:easy", "--choice", "may-pass"];
    let v = snl_json(
        &[&["play", "--seed", "3", "--stop-after", "4"], &seats[..], &["--json"]].concat(),
    );
    assert_eq!((v["turns"].as_u64(), v["finished"].as_bool()), (Some(4), Some(false)), "{v}");
}

#[test]
fn the_save_is_versioned_json_with_board_rules_seats_history_and_the_dice_state() {
    let dir = TempDir::new("format");
    let file = dir.file("game.json");
    let run = snl(&[
        "play",
        "--seed",
        "9",
        "--rules",
        "bonus-six",
        "--player",
        "Ann:human",
        "--player",
        "Bob:hard",
        "--save",
        &file,
        "--no-record",
    ]);
    // Input ends at Ann's first roll: the save holds the game before it.
    assert_fails(&run, 3, &["input ended while waiting for Ann to roll"]);
    // No turn was played: the journal is its first line, the whole save on one line.
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!((v["format"].as_str(), v["version"].as_u64()), (Some("snl-save"), Some(4)));
    assert!(v["digest"].as_str().is_some_and(|d| d.starts_with("fnv1a64:")), "{v}");
    assert_eq!(v["board_name"], "classic");
    assert_eq!(v["game"]["rules"]["bonus"], "top-face");
    assert_eq!(v["game"]["seats"][0], serde_json::json!({"name": "Ann", "kind": "human"}));
    assert_eq!(v["game"]["board"]["size"], 100);
    assert_eq!(v["game"]["turns"], 0);
    assert_eq!(v["dice"]["seeded"]["seed"], 9);
    assert!(v["dice"]["seeded"]["generator"].is_object());
    // Each seat's whole state, and the number of the last event told (none yet).
    assert_eq!(v["game"]["seat_states"][1], serde_json::json!({"cell": 0, "turns": 0, "rolls": 0}));
    assert_eq!(v["seq"], 0);
    // Nothing but the save is left in the folder: the temporary files were renamed over it.
    let names: Vec<_> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["game.json"]);
}

/// A save of a game in progress, whole on one line (the journal of a session loaded from the
/// save after 6 turns and stopped before playing any), and its text.
fn saved_game(dir: &TempDir) -> (String, String) {
    let journal = dir.file("journal.json");
    let run = snl(&["play", "--seed", "4", "--save", &journal, "--stop-after", "6", "--no-record"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let file = dir.file("game.json");
    let run =
        snl(&["play", "--load", &journal, "--save", &file, "--stop-after", "0", "--no-record"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    (file, text)
}

/// Writes `text` as the save, loads it, and checks the refusal and that the file is untouched.
#[track_caller]
fn refused(dir: &TempDir, text: &str, needles: &[&str]) {
    let file = dir.file("edited.json");
    std::fs::write(&file, text).unwrap();
    let run = snl(&["play", "--load", &file, "--no-record"]);
    assert_fails(&run, 2, &[&format!("cannot load the save file {file}: ")]);
    assert_fails(&run, 2, needles);
    assert_eq!(run.stderr.lines().count(), 1, "one sentence: {}", run.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text, "the file is untouched");
}

#[test]
fn a_truncated_save_is_refused_and_left_untouched() {
    let dir = TempDir::new("truncated");
    let (_, text) = saved_game(&dir);
    refused(&dir, &text[..text.len() * 2 / 3], &["it is cut short or damaged (EOF while parsing"]);
    refused(&dir, "", &["it is cut short or damaged"]);
}

#[test]
fn a_corrupted_save_is_refused_and_left_untouched() {
    let dir = TempDir::new("corrupt");
    let (_, text) = saved_game(&dir);
    refused(&dir, &text.replacen(':', "#", 7), &["it is cut short or damaged"]);
    refused(&dir, "{\"size\": 100}", &["it is not an snl save file"]);
    refused(&dir, &text.replace("\"turns\"", "\"turnz\""), &["unknown field `turnz`"]);
}

#[test]
fn hand_edited_positions_that_the_history_does_not_give_are_named() {
    let dir = TempDir::new("edited");
    let (_, text) = saved_game(&dir);
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let truth = v["game"]["seat_states"][1]["cell"].as_u64().unwrap();
    v["game"]["seat_states"][1]["cell"] = serde_json::json!(truth + 3);
    refused(
        &dir,
        &v.to_string(),
        &[&format!("the saved position of Blue is {}, but the history gives {truth}", truth + 3)],
    );
    v["game"]["seat_states"][1]["cell"] = serde_json::json!(140);
    refused(&dir, &v.to_string(), &["Blue stands on 140, which is not on a board of 100 cells"]);
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["game"]["current"] = serde_json::json!(5);
    refused(&dir, &v.to_string(), &["the player to move names player number 5"]);
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["game"]["history"][2]["roll"] = serde_json::json!([7]);
    refused(&dir, &v.to_string(), &["move 3 of the history rolls [7], which 1d6 cannot throw"]);
}

#[test]
fn an_unknown_rule_in_a_save_is_named() {
    let dir = TempDir::new("rule");
    let (_, text) = saved_game(&dir);
    let edited = text.replace("\"finish\":\"first\"", "\"finish\":\"never\"");
    assert_ne!(edited, text);
    refused(&dir, &edited, &["unknown finish 'never': expected one of first, all"]);
}

#[test]
fn a_save_from_a_newer_snl_is_refused() {
    let dir = TempDir::new("newer");
    let (_, text) = saved_game(&dir);
    refused(
        &dir,
        &text.replace("\"version\":4", "\"version\":5"),
        &["written by a newer snl (save format 5, this snl reads up to 4): upgrade snl"],
    );
}

#[test]
fn a_missing_save_or_a_finished_game_cannot_be_loaded() {
    let dir = TempDir::new("missing");
    let file = dir.file("nowhere.json");
    assert_fails(&snl(&["play", "--load", &file]), 2, &[&file, "No such file"]);
    let done = dir.file("done.json");
    assert_eq!(snl(&["play", "--seed", "1", "--save", &done]).code, 0);
    let run = snl(&["play", "--load", &done]);
    assert_fails(&run, 2, &["is over: see it again with snl replay"]);
}

#[test]
fn load_takes_everything_from_the_file_so_game_options_are_refused() {
    let dir = TempDir::new("conflict");
    let (file, _) = saved_game(&dir);
    // Every option the README names as refused with --load.
    let options: [&[&str]; 11] = [
        &["--seed", "3"],
        &["--board", "kids"],
        &["--player", "A:easy"],
        &["--rolls", "1"],
        &["--snakes", "3"],
        &["--ladders", "3"],
        &["--effects", "2"],
        &["--mode", "race"],
        &["--rounds", "3"],
        &["--choice", "pick-die"],
        &["--setup"],
    ];
    for option in options {
        let mut args = vec!["play", "--load", &file];
        args.extend(option);
        let run = snl(&args);
        assert_eq!(run.code, 2, "{option:?}: {}", run.stderr);
        assert!(run.stderr.contains("cannot be used with"), "{}", run.stderr);
    }
}

#[test]
fn a_save_path_that_cannot_be_written_is_refused_before_the_first_turn() {
    let dir = TempDir::new("unwritable");
    let file = dir.file("no/such/folder/game.json");
    let run = snl(&["play", "--seed", "1", "--save", &file, "--no-record"]);
    assert_fails(&run, 2, &[&format!("cannot write the save file {}", named(&file))]);
    assert!(!run.stdout.contains("rolled"), "{}", run.stdout);
}

/// What a message shows of a path: all of it up to 40 characters, else `…` and its last 39.
fn named(file: &str) -> String {
    let chars: Vec<char> = file.chars().collect();
    if chars.len() <= 40 {
        return file.to_owned();
    }
    std::iter::once('…').chain(chars[chars.len() - 39..].iter().copied()).collect()
}

#[test]
fn a_save_onto_a_pipe_or_a_folder_is_refused_and_leaves_them_as_they_were() {
    use std::os::unix::fs::FileTypeExt;
    let dir = TempDir::new("not-a-file");
    let pipe = dir.file("pipe");
    let made = std::process::Command::new("mkfifo").arg(&pipe).status().expect("mkfifo runs");
    assert!(made.success());
    let folder = dir.file("folder");
    std::fs::create_dir(&folder).unwrap();
    for (path, why) in [(&pipe, "it is a pipe"), (&folder, "it is a folder")] {
        let run = snl(&["play", "--seed", "1", "--save", path, "--no-record"]);
        assert_fails(&run, 2, &[&format!("cannot write the save file {}: {why}", named(path))]);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        assert!(!run.stdout.contains("rolled"), "{}", run.stdout);
    }
    assert!(std::fs::symlink_metadata(&pipe).unwrap().file_type().is_fifo());
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 0);
    let mut names: Vec<_> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    assert_eq!(names, ["folder", "pipe"]);
}

#[test]
fn a_save_through_a_link_replaces_the_file_it_leads_to_and_the_link_stays() {
    let dir = TempDir::new("link");
    std::fs::create_dir(dir.path().join("real")).unwrap();
    std::fs::write(dir.path().join("real/game.json"), "old").unwrap();
    let link = dir.file("link.json");
    std::os::unix::fs::symlink("real/game.json", &link).unwrap();
    let game = ["--player", "A:easy", "--player", "B:easy", "--no-record"];
    let first =
        snl(&[&["play", "--seed", "4", "--save", &link, "--stop-after", "3"], &game[..]].concat());
    assert_eq!(first.code, 0, "{}", first.stderr);
    let is_link = || std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink();
    assert!(is_link());
    let saved = std::fs::read_to_string(dir.path().join("real/game.json")).unwrap();
    assert!(saved.contains("\"snl-save\""), "{saved}");
    // Going on from the link keeps saving through it.
    let rest = snl(&["play", "--load", &link, "--no-record", "--json"]);
    assert_eq!(rest.code, 0, "{}", rest.stderr);
    assert!(is_link());
    let names: Vec<_> = std::fs::read_dir(dir.path().join("real"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["game.json"]);
}

#[test]
fn a_save_removes_the_temporary_file_a_killed_save_left() {
    let dir = TempDir::new("stale");
    // A process that has ended, as a save killed between writing and renaming would have.
    let mut ended = std::process::Command::new("true").spawn().unwrap();
    let pid = ended.id();
    ended.wait().unwrap();
    std::fs::write(dir.path().join(format!(".game.json.{pid}.tmp")), "{\"format\": \"snl-sa")
        .unwrap();
    let file = dir.file("game.json");
    let run = snl(&["play", "--seed", "1", "--save", &file, "--stop-after", "2", "--no-record"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let names: Vec<_> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["game.json"]);
}

#[test]
fn a_last_line_cut_short_by_a_kill_is_dropped_and_the_game_goes_on_from_the_line_before() {
    let dir = TempDir::new("torn");
    let game = ["play", "--seed", "7", "--player", "A:easy", "--player", "B:hard", "--no-record"];
    let save = |file: &str, turns: &str| {
        let run = snl(&[&game[..], &["--save", file, "--stop-after", turns]].concat());
        assert_eq!(run.code, 0, "{}", run.stderr);
        std::fs::read(file).unwrap()
    };
    let five = save(&dir.file("five.json"), "5");
    let six = save(&dir.file("six.json"), "6");
    let lines = String::from_utf8(six.clone()).unwrap().lines().count();
    assert_eq!(lines, 7, "line 1 and a line per turn");
    // Cut in the middle of the last line: a turn in flight when the process was killed.
    let last = six[..six.len() - 1].iter().rposition(|&b| b == b'\n').unwrap() + 1;
    let torn = &six[..usize::midpoint(last, six.len())];
    assert!(!torn.ends_with(b"\n"));
    let loaded = dir.file("game.json");
    let go_on = |bytes: &[u8]| {
        std::fs::write(&loaded, bytes).unwrap();
        let run = snl(&["play", "--load", &loaded, "--no-record", "--events", "jsonl"]);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{}", run.stdout);
        run.stdout
    };
    let from_torn = go_on(torn);
    assert_eq!(from_torn, go_on(&five), "the game goes on from turn 5, as if cut there");
    assert_ne!(from_torn, go_on(&six), "not from turn 6");
}
