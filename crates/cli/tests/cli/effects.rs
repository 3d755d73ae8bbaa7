//! Cell effects and race mode at the command line (SPEC §3b): the party preset, `board show`'s
//! legend, `--board random --effects K`, `play --mode race --rounds K`, a save on a board with
//! wormholes loaded back, the analysis commands refusing what they do not handle yet, and
//! `analyze` pricing each power-up (and a race) exactly.

use crate::util::*;

#[test]
fn the_party_preset_shows_every_effect_with_a_legend() {
    let run = snl(&["board", "show", "party"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for needle in [
        "| 80@  |",
        "| 83x  |",
        "| 89#  |",
        "| 66+  |",
        "(x) 47 83\n",
        "(+) 12 38 66\n",
        "(#) 24 59 89\n",
        "(@) 45→20|57|76 80→30|63|96\n",
        "  skip: the next turn is missed · extra: one more roll in the turn\n",
    ] {
        assert!(run.stdout.contains(needle), "{needle:?} missing from\n{}", run.stdout);
    }
    let run = snl(&["board", "validate", "party"]);
    assert_eq!(
        run.stdout,
        "board 'party' is valid: 100 cells, 6 snakes, 6 ladders, 10 cell effects\n"
    );
    let v = snl_json(&["board", "show", "party", "--json"]);
    assert_eq!(
        v["cell"][3],
        serde_json::json!({"at": 45, "effect": "wormhole", "exits": [20, 57, 76]})
    );
}

#[test]
fn a_board_file_with_effects_converts_and_reads_back_and_a_bad_one_lists_every_problem() {
    let dir = TempDir::new("effects-convert");
    let file = dir.file("party.toml");
    let run = snl(&["board", "convert", "party", "-o", &file]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("[[cell]]\nat = 80\neffect = \"wormhole\"\nexits = [30, 63, 96]\n"),
        "{text}"
    );
    let a = snl(&["board", "show", "--board", &file, "--json"]);
    let b = snl(&["board", "show", "party", "--json"]);
    assert_eq!(a.stdout, b.stdout);
    let run = snl(&["board", "convert", "party", "--format", "leetcode"]);
    assert_fails(&run, 2, &["cell effects, which a LeetCode matrix cannot hold"]);

    let bad = dir.file("bad.toml");
    std::fs::write(
        &bad,
        "size = 30\n[[ladder]]\nfoot = 3\ntop = 20\n\
         [[cell]]\nat = 3\neffect = \"skip\"\n\
         [[cell]]\nat = 30\neffect = \"extra\"\n\
         [[cell]]\nat = 12\neffect = \"wormhole\"\nexits = [12, 40]\n\
         [[cell]]\nat = 14\neffect = \"jetpack\"\n",
    )
    .unwrap();
    let run = snl(&["board", "validate", &bad, "--json"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let problems: Vec<&str> =
        v["problems"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert_eq!(
        problems,
        [
            "skip cell 3 is the start of ladder 3→20: a cell holds a jump start or an effect, not both",
            "extra cell 30 is the last cell: no effect may sit on cell 30",
            "wormhole 12 has itself as an exit: an exit must be another cell",
            "wormhole 12 has exit 40, which is not on the board: use cells 1 to 30",
            "cell 14 has an unknown effect 'jetpack': expected one of skip, extra, shield, wormhole",
        ]
    );
}

#[test]
fn random_boards_take_effects_from_the_seed() {
    let args = ["board", "show", "random", "--seed", "4", "--effects", "6", "--json"];
    let v = snl_json(&args);
    let cells = v["cell"].as_array().unwrap();
    assert_eq!(cells.len(), 6);
    for kind in ["skip", "extra", "shield", "wormhole"] {
        assert!(cells.iter().any(|c| c["effect"] == kind), "no {kind} in {v}");
    }
    assert_eq!(snl_json(&args), v, "the same seed, the same board");
    let plain = snl_json(&["board", "show", "random", "--seed", "4", "--json"]);
    assert_eq!((&plain["snakes"], &plain["ladders"]), (&v["snakes"], &v["ladders"]));
    let generated = snl(&["board", "generate", "--seed", "4", "--effects", "6"]);
    assert_eq!(generated.stdout.matches("[[cell]]").count(), 6);
    assert_fails(
        &snl(&[
            "board",
            "show",
            "random",
            "--size",
            "20",
            "--snakes",
            "3",
            "--ladders",
            "3",
            "--effects",
            "9",
        ]),
        2,
        &["9 cell effects do not fit on 20 cells beside the jumps: use at most 6"],
    );
    assert_fails(
        &snl(&["play", "--board", "classic", "--effects", "2"]),
        2,
        &["--effects 2", "random board only"],
    );
}

#[test]
fn a_race_ends_after_its_rounds_and_play_json_says_so() {
    let v = snl_json(&[
        "play", "--board", "party", "--seed", "5", "--mode", "race", "--rounds", "4", "--player",
        "Ann:easy", "--player", "Bob:easy", "--player", "Cat:easy", "--json",
    ]);
    assert_eq!(v["turns"], 12, "{v}");
    let positions: Vec<u64> =
        v["positions"].as_array().unwrap().iter().map(|p| p.as_u64().unwrap()).collect();
    let ranking: Vec<&str> =
        v["ranking"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    let seat = |name: &str| ["Ann", "Bob", "Cat"].iter().position(|n| *n == name).unwrap();
    for pair in ranking.windows(2) {
        let (a, b) = (seat(pair[0]), seat(pair[1]));
        assert!(positions[a] > positions[b] || (positions[a] == positions[b] && a < b), "{v}");
    }
    let run = snl(&["play", "--mode", "race", "--seed", "5", "--rounds", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains(", race of 2 rounds."), "{}", run.stdout);
    assert!(run.stdout.contains("Final ranking:"), "{}", run.stdout);
    assert_fails(&snl(&["play", "--mode", "race"]), 2, &["mode race needs the number of rounds"]);
    assert_fails(&snl(&["play", "--rounds", "3"]), 2, &["rounds 3 only apply to mode race"]);
    assert_fails(
        &snl(&["play", "--mode", "sprint", "--rounds", "3"]),
        2,
        &["unknown mode 'sprint'"],
    );
}

#[test]
fn events_of_effects_are_told_in_words_and_as_json_lines() {
    let args = [
        "play", "--board", "party", "--seed", "11", "--player", "Ann:easy", "--player", "Bob:easy",
    ];
    let words = snl(&args);
    assert_eq!(words.code, 0, "{}", words.stderr);
    let mut jsonl_args = args.to_vec();
    jsonl_args.extend(["--events", "jsonl"]);
    let lines = snl(&jsonl_args);
    let types = event_types(&lines.stdout);
    // Seed 11 on party meets at least two kinds of effect; each is told in words too.
    let said = [
        ("extra_roll", "landed on an extra-roll cell and rolls again"),
        ("turn_skipped", "misses this turn (a skip cell)"),
        ("shield_gained", "picks up a shield"),
        ("shield_used", "shield stops the snake at"),
        ("wormhole", "Whoosh! A wormhole at"),
    ];
    let met: Vec<&str> =
        said.iter().filter(|(t, _)| types.iter().any(|x| x == t)).map(|(t, _)| *t).collect();
    assert!(met.len() >= 2, "only {met:?} in {types:?}");
    for (t, words_for) in said {
        assert_eq!(types.iter().any(|x| x == t), words.stdout.contains(words_for), "{t}");
    }
}

#[test]
fn a_game_on_the_party_board_cut_in_two_by_a_save_is_the_uninterrupted_game() {
    let dir = TempDir::new("effects-cut");
    let base = [
        "play",
        "--board",
        "party",
        "--events",
        "jsonl",
        "--no-record",
        "--player",
        "Ann:easy",
        "--player",
        "Bob:easy",
    ];
    for (seed, mode) in [("6", "classic"), ("8", "race")] {
        let mut game = base.to_vec();
        game.extend(["--seed", seed, "--mode", mode]);
        if mode == "race" {
            game.extend(["--rounds", "12"]);
        }
        let whole = snl(&game);
        assert_eq!(whole.code, 0, "{}", whole.stderr);
        assert!(
            whole.stdout.contains("\"type\":\"wormhole\"") || mode == "race",
            "seed {seed} meets a wormhole"
        );
        for cut in ["1", "5", "9"] {
            let file = dir.file(&format!("party-{seed}-{cut}.json"));
            let first = snl(&[&game[..], &["--save", &file, "--stop-after", cut]].concat());
            assert_eq!(first.code, 0, "{}", first.stderr);
            let second = snl(&["play", "--load", &file, "--events", "jsonl", "--no-record"]);
            assert_eq!(second.code, 0, "{}", second.stderr);
            eqnice!(whole.stdout, format!("{}{}", first.stdout, second.stdout));
        }
    }
}

#[test]
fn analysis_commands_refuse_only_what_they_cannot_analyse_in_one_sentence() {
    // Every analysis handles effects; strategies (tournaments) do not play races, and the board
    // designer places effects or designs a race, not both at once.
    let run = snl(&["tournament", "--mode", "race", "--rounds", "3"]);
    assert_fails(&run, 2, &["race mode (3 rounds) cannot be analysed yet"]);
    let race = ["board", "design", "--target-turns", "30", "--mode", "race", "--rounds", "20"];
    let run = snl(&[&race[..], &["--effects", "2"]].concat());
    assert_fails(&run, 2, &["a race is designed without cell effects: leave out --effects"]);
    let designed = snl_json(&[&race[..], &["--max-gap", "3", "--json"]].concat());
    assert_eq!(designed["goal_met"], true, "{designed}");
    assert!(designed["gap"].as_f64().unwrap() <= 0.03, "{designed}");
}

#[test]
fn analyze_follows_each_strategy_under_a_choice_rule_on_a_board_with_effects() {
    // The exact chain carries each token's shield and pending skip and tells them to the
    // strategies, so hard is followed as it plays: its numbers are the optimal ones.
    for choice in ["may-pass", "pick-die"] {
        let v = snl_json(&[
            "analyze",
            "--board",
            "party",
            "--choice",
            choice,
            "--player",
            "Hal:hard",
            "--player",
            "Gus:greedy",
            "--json",
        ]);
        assert_eq!(v["policy"], "hard", "{choice}");
        let turns = |s: &str| v["policies"][s]["expected_turns"].as_f64().unwrap();
        let hard = v["expected_turns"].as_f64().unwrap();
        assert!((turns("hard") - hard).abs() < 1e-12, "{choice}: {v}");
        assert!(hard < turns("greedy") && hard < turns("easy"), "{choice}: {v}");
        let wins: Vec<f64> =
            v["win_probability"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).collect();
        assert!((wins.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{choice}: {wins:?}");
        assert!(wins[0] > wins[1], "{choice}: hard first beats greedy, {wins:?}");
        if choice == "may-pass" {
            // Pinned: the optimal expected turns on party when a roll may be declined.
            assert!((hard - PARTY_MAY_PASS_HARD).abs() < 1e-9, "{hard}");
        }
    }
    let run = snl(&["analyze", "--board", "party", "--choice", "pick-die"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for needle in ["easy", "greedy", "hard", "over cell, shield and skip"] {
        assert!(run.stdout.contains(needle), "{needle} missing from\n{}", run.stdout);
    }
}

/// Expected turns of `hard` on party under `--choice may-pass` (standard rules otherwise).
const PARTY_MAY_PASS_HARD: f64 = 22.229_755_293_954_433;

#[test]
fn analyze_prices_every_power_up_of_party_in_text_and_json() {
    let v = snl_json(&[
        "analyze", "--board", "party", "--player", "Ann:easy", "--player", "Bob:easy", "--json",
    ]);
    let worth = v["effect_worth"].as_array().unwrap();
    let cells: Vec<u64> = worth.iter().map(|w| w["cell"].as_u64().unwrap()).collect();
    assert_eq!(cells, [12, 24, 38, 45, 47, 59, 66, 80, 83, 89]);
    let kind = |c: u64| worth.iter().find(|w| w["cell"] == c).unwrap();
    assert_eq!(kind(45)["effect"], "wormhole");
    for w in worth {
        let turns = w["expected_turns_delta"].as_f64().unwrap();
        let first = w["first_seat_win_delta"].as_f64().unwrap();
        assert!(turns.abs() < 10.0 && first.abs() < 0.1, "{w}");
        match w["effect"].as_str().unwrap() {
            // A skip only ever costs a turn; a shield only ever stops a snake.
            "skip" => assert!(turns > 0.0, "{w}"),
            "shield" => assert!(turns <= 1e-12, "{w}"),
            _ => {}
        }
    }
    let expected = v["expected_turns"].as_f64().unwrap();
    assert!(expected > 5.0 && expected < 100.0, "{expected}");
    let win: f64 =
        v["win_probability"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).sum();
    assert!((win - 1.0).abs() < 1e-12);

    let alone = snl_json(&["analyze", "--board", "party", "--json"]);
    assert!(alone["effect_worth"][0]["first_seat_win_delta"].is_null());
    assert_eq!(
        alone["effect_worth"][0]["expected_turns_delta"],
        v["effect_worth"][0]["expected_turns_delta"]
    );

    let run = snl(&["analyze", "--board", "party", "--player", "Ann:easy", "--player", "Bob:easy"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = &run.stdout;
    assert!(
        text.contains("What each effect is worth (each against the same cell left plain"),
        "{text}"
    );
    let header = text.lines().find(|l| l.contains("Δ expected turns")).expect(text);
    assert!(header.trim_end().ends_with("Δ Ann wins"), "{header}");
    let row = text.lines().find(|l| l.split_whitespace().take(2).eq(["47", "skip"])).expect(text);
    let delta = kind(47)["expected_turns_delta"].as_f64().unwrap();
    assert!(row.contains(&format!("{delta:+.4}")), "{row}");
    assert!(row.ends_with(" points"), "{row}");
    // No seats: no win column.
    let run = snl(&["analyze", "--board", "party"]);
    assert!(!run.stdout.contains("wins"), "{}", run.stdout);
}

#[test]
fn a_skip_on_a_four_cell_board_is_worth_three_quarters_of_a_turn() {
    // 1d2 on 4 cells, overshoot stay. Plain: E3 = 2, E2 = 1 + E3/2 = 2, E1 = 1 + E2/2 + E3/2 = 3,
    // E0 = 1 + E1/2 + E2/2 = 7/2. A skip on cell 2 adds one turn each time a token rests there:
    // from 0 with 1/2 and from 1 with 1/2 · 1/2, so 3/4 of a turn: 17/4.
    let dir = TempDir::new("effects-worth");
    let file = dir.file("skip.toml");
    std::fs::write(&file, "size = 4\n[[cell]]\nat = 2\neffect = \"skip\"\n").unwrap();
    let v = snl_json(&["analyze", "--board", &file, "--dice", "1d2", "--json"]);
    assert!((v["expected_turns"].as_f64().unwrap() - 4.25).abs() < 1e-12, "{v}");
    let worth = &v["effect_worth"][0];
    assert_eq!((worth["cell"].as_u64(), worth["effect"].as_str()), (Some(2), Some("skip")));
    assert!((worth["expected_turns_delta"].as_f64().unwrap() - 0.75).abs() < 1e-12, "{v}");
}

#[test]
fn analyze_a_race_gives_each_seat_its_chance_and_expected_rank() {
    let args = [
        "analyze", "--board", "party", "--mode", "race", "--rounds", "10", "--player", "Ann:easy",
        "--player", "Bob:easy", "--player", "Cat:easy",
    ];
    let v = snl_json(&[&args[..], &["--json"]].concat());
    assert_eq!(v["race"]["rounds"], 10);
    let win: Vec<f64> =
        v["win_probability"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).collect();
    assert!((win.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{win:?}");
    assert!(win[0] > win[1] && win[1] > win[2], "{win:?}");
    let ranks: Vec<f64> =
        v["expected_rank"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).collect();
    // Ranks 1, 2 and 3 are always handed out: their expectations add up to 6.
    assert!((ranks.iter().sum::<f64>() - 6.0).abs() < 1e-9, "{ranks:?}");
    assert!(ranks[0] < ranks[2], "{ranks:?}");
    let within = v["race"]["p_finish_within"].as_f64().unwrap();
    assert!((within - v["p_finish_by"][10].as_f64().unwrap()).abs() < 1e-12);
    assert!(v["expected_game_rolls"].is_null());

    let run = snl(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("Race of 10 rounds: chance to win and expected rank"),
        "{}",
        run.stdout
    );
    let header = run.stdout.lines().find(|l| l.trim_start().starts_with("seat")).unwrap();
    assert_eq!(
        header.split_whitespace().collect::<Vec<_>>(),
        ["seat", "win", "chance", "expected", "rank"]
    );
}

#[test]
fn the_heat_map_marks_each_effect_cell_with_its_worth() {
    let dir = TempDir::new("effects-plot");
    let file = dir.file("party.svg");
    let run = snl(&["analyze", "--board", "party", "--plot", &file]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.contains("effects: x skip, + extra, # shield, @ wormhole"), "no key");
    assert!(svg.contains("under each: Δ expected turns vs plain"), "no key");
    let v = snl_json(&["analyze", "--board", "party", "--json"]);
    let w = &v["effect_worth"][0];
    let mark = format!("{:+.1}", w["expected_turns_delta"].as_f64().unwrap());
    assert!(svg.lines().any(|l| l.trim() == mark), "{mark} not in the plot");
    assert!(svg.lines().any(|l| l.trim() == "@"), "no wormhole mark in the plot");
}

#[test]
fn a_scripted_item_that_does_not_fit_stops_the_game_with_one_sentence() {
    let dir = TempDir::new("misfit");
    let board = dir.file("hole.toml");
    std::fs::write(
        &board,
        "size = 20\n[[cell]]\nat = 3\neffect = \"wormhole\"\nexits = [10, 15]\n",
    )
    .unwrap();
    for (rolls, needle) in [
        // A wormhole's draw where the first roll is awaited.
        ("w2", "scripted item 1 (w2) does not fit: a roll of 1d6 is awaited"),
        // A roll where the wormhole on cell 3 awaits its draw.
        ("3,4", "scripted item 2 (4) does not fit: a wormhole awaits a draw"),
    ] {
        let args = ["play", "--board", &board, "--rolls", rolls, "--player", "A:easy"];
        let run = snl_bounded(&[&args[..], &["--player", "B:easy", "--no-record"]].concat(), 4096);
        assert_fails(&run, 3, &[needle, "so the game stopped after"]);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    }
}

#[test]
fn the_console_tells_who_carries_a_shield_and_each_players_chances_on_the_party_board() {
    let base = ["play", "--board", "party", "--rolls", "4,1,6,1,4,1,2,2"];
    let seats = ["--player", "Ann:easy", "--player", "Bob:easy"];
    // Ann climbs to 24 on her third roll and picks up its shield.
    let run = snl(&[&base[..], &seats[..], &["--stop-after", "5"]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let carrying: Vec<&str> = run.stdout.lines().filter(|l| l.starts_with("  (carrying")).collect();
    assert_eq!(carrying.first(), Some(&"  (carrying: Ann shield)"), "{}", run.stdout);
    let run = snl(&[&base[..], &seats[..], &["--stop-after", "6", "--hint", "--odds"]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let hints: Vec<&str> = run.stdout.lines().filter(|l| l.starts_with("  (at best")).collect();
    assert!(hints[4].starts_with("  (at best: Ann ") && hints[4].contains(" (shield), Bob "));
    let odds: Vec<&str> = run.stdout.lines().filter(|l| l.starts_with("  (chances")).collect();
    assert_eq!(odds.len(), 6, "a line after every turn: {}", run.stdout);
    let percents: u32 = odds[5]
        .split(' ')
        .filter_map(|w| w.trim_end_matches([',', ')']).strip_suffix('%'))
        .map(|p| p.parse::<u32>().unwrap())
        .sum();
    assert!((99..=101).contains(&percents), "{}", odds[5]);
    // In a race too: the chances are those of the race's rounds.
    let race = ["--mode", "race", "--rounds", "3", "--odds", "--stop-after", "2"];
    let run = snl(&[&base[..], &seats[..], &race[..]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("  (chances to win: Ann "), "{}", run.stdout);
}

#[test]
fn every_preset_a_random_board_and_a_board_file_play_to_the_end_at_the_console() {
    let dir = TempDir::new("every-board");
    let file = dir.file("mine.toml");
    std::fs::write(&file, "size = 30\nsnake = [{head = 27, tail = 4}]\nladder = [{foot = 2, top = 22}]\n[[cell]]\nat = 9\neffect = \"shield\"\n").unwrap();
    let boards = [
        ("classic", 100),
        ("milton-bradley", 100),
        ("kids", 50),
        ("party", 100),
        ("random", 64),
        ("empty", 100),
        (file.as_str(), 30),
    ];
    for (board, size) in boards {
        let args = ["play", "--board", board, "--size", "64", "--effects", "4", "--seed", "2"];
        let args = if board == "random" {
            &args[..]
        } else {
            &["play", "--board", board, "--seed", "2"][..]
        };
        let seats = ["--player", "Ann:easy", "--player", "Bob:easy", "--no-record"];
        let run = snl(&[args, &seats[..]].concat());
        assert_eq!(run.code, 0, "{board}: {}", run.stderr);
        // The board drawn with its last cell, the game told to its end and its final ranking.
        assert!(run.stdout.contains(&format!("{size}")), "{board}:\n{}", run.stdout);
        assert!(run.stdout.contains("Final ranking:"), "{board}:\n{}", run.stdout);
        assert!(run.stdout.contains(&format!("reached {size}")), "{board}:\n{}", run.stdout);
    }
}

#[test]
fn every_named_rule_set_and_choice_rule_is_told_and_played_at_the_console() {
    let mut rules: Vec<Vec<&str>> = ["standard", "bonus-six", "three-sixes", "strict-sixes"]
        .map(|r| vec!["--rules", r])
        .to_vec();
    rules.extend(["none", "may-pass", "pick-die"].map(|c| vec!["--choice", c]));
    rules.push(vec!["--mode", "race", "--rounds", "5"]);
    for options in rules {
        let base =
            ["play", "--seed", "4", "--player", "Ann:easy", "--player", "Bob:hard", "--no-record"];
        let run = snl(&[&base[..], &options[..]].concat());
        assert_eq!(run.code, 0, "{options:?}: {}", run.stderr);
        let told = match options[0] {
            "--choice" => format!("choice {}", options[1]),
            "--mode" => "race of 5 rounds".to_owned(),
            _ => String::new(),
        };
        assert!(run.stdout.contains(&told), "{options:?}: {told} is not told:\n{}", run.stdout);
        assert!(run.stdout.contains("Final ranking:"), "{options:?}:\n{}", run.stdout);
    }
}
