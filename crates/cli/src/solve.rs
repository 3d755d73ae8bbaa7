//! `snl solve`: the fewest rolls from the start to the last cell and one such path (SPEC §7), and
//! the two puzzle formats, LeetCode 909 and HackerRank "The Quickest Way Up".
//!
//! The search is [`snl_analysis::solve`]; this module reads the options and prints.

use std::io::Write;

use clap::Args;
use serde_json::json;
use snl_analysis::{
    generate::random_track,
    puzzles::{LeetCode, parse_hackerrank},
    solve::{Solution, Track, effects},
};
use snl_engine::{Board, Bonus, RandomBoard, RuleSpec, Rules};

use crate::{
    common::{CmdResult, Failure, GameArgs, OrFail},
    long_run::{LongRunArgs, OnCtrlC},
};
use snl_tui::console::Console;

/// Board and rule options a puzzle format fixes by itself, so giving one with a puzzle is a
/// mistake worth reporting rather than ignoring.
const PUZZLE_FIXES: [&str; 16] = [
    "board",
    "size",
    "snakes",
    "ladders",
    "rules",
    "start",
    "dice",
    "overshoot",
    "jumps",
    "bonus",
    "max_bonus",
    "on_max",
    "finish",
    "choice",
    "seed",
    "from",
];

/// Options of `snl solve`.
#[derive(Args, Clone, Debug)]
#[command(after_help = "\
The dice are the player's to choose: the answer is the best case, the fewest rolls any game on \
this board and these rules could take. Position 0 is off the board. On a board with cell effects \
the path shows the effects met along it, the fewest turns are given too (a skipped turn counts \
as a turn, an extra roll does not), and a wormhole leads to the best of its exits.

Examples:
  snl solve                                  the classic board, standard rules
  snl solve --board milton-bradley --dice 2d6 --overshoot bounce
  snl solve --board my.toml --from 42 --json
  snl solve --leetcode '[[-1,-1],[-1,3]]'    prints 1
  snl solve --leetcode board.json            a file (snl board generate --format leetcode)
  snl solve --hackerrank < input.txt")]
pub(crate) struct SolveArgs {
    #[command(flatten)]
    pub(crate) game: GameArgs,
    /// Search from this position instead of the start (0 = off the board).
    #[arg(long, value_name = "POS", help_heading = "Solve")]
    pub(crate) from: Option<u32>,
    // The keys are spelled as they print, so the text is given as `help`, not as a doc comment.
    #[arg(
        long,
        help_heading = "Solve",
        help = "Print one JSON object: min_rolls (null when unreachable), path (cells visited, \
                start first: each landing, then each jump's end), reachable, rolls (each roll's \
                number of cells), and min_turns when bonus rolls are on"
    )]
    pub(crate) json: bool,
    /// Solve a LeetCode 909 board: a JSON matrix given inline ('[[-1,-1],[-1,3]]'), a file, or
    /// '-' for standard input. Prints the single integer LeetCode expects (-1 when the last
    /// square cannot be reached). LeetCode's rules: start on square 1, one die, no move past the
    /// last square, one jump per move; any n from 2 up.
    #[arg(
        long,
        value_name = "JSON|FILE|-",
        help_heading = "Puzzles",
        conflicts_with_all = PUZZLE_FIXES,
        conflicts_with = "hackerrank"
    )]
    pub(crate) leetcode: Option<String>,
    /// Read HackerRank's "Snakes and Ladders: The Quickest Way Up" input on standard input (the
    /// number of tests, then for each: ladders, snakes) and print one integer per test, the
    /// fewest rolls or -1, exactly as that judge expects.
    #[arg(long, help_heading = "Puzzles", conflicts_with_all = PUZZLE_FIXES)]
    pub(crate) hackerrank: bool,
}

pub(crate) fn run(args: &SolveArgs, console: &mut Console) -> CmdResult {
    // The search takes under a second at its largest (10^8 cells), so it has no time budget;
    // Ctrl-C ends it at once with one line.
    let _ = LongRunArgs::default().start(OnCtrlC::Exit, console.stderr_tty);
    if let Some(source) = &args.leetcode {
        return leetcode(source, args.json, console);
    }
    if args.hackerrank {
        return hackerrank(args.json, console);
    }
    let (track, board_name) = if let Some(track) = huge_random(&args.game)? {
        (track, args.game.board.clone())
    } else {
        let setup = args.game.resolve()?;
        setup.analysable(snl_analysis::Work::Solve)?;
        if setup.board.has_effects() {
            return with_effects(args, &setup.board, &setup.rules, &setup.board_name, console);
        }
        (Track::new(&setup.board, &setup.rules), setup.board_name)
    };
    let size = track.size();
    let from = args.from.unwrap_or(track.start());
    if from > size {
        return Err(Failure::bad(anyhow::anyhow!(
            "--from {from} is past the last cell of board '{board_name}', which has {size} cells"
        )));
    }
    let solution = track.fewest_rolls_from(from);
    // The fewest turns are a second answer: when they cannot be computed, say why and still
    // give the first.
    let turns = (track.rules().bonus == Bonus::TopFace).then(|| track.fewest_turns_from(from));
    if args.json {
        let mut value = solution_json(&solution);
        match turns {
            None => {}
            Some(Ok(turns)) => value["min_turns"] = json!(turns),
            Some(Err(e)) => value["min_turns_error"] = json!(e.to_string()),
        }
        writeln!(console.out, "{value}").or_other()?;
        return Ok(());
    }
    if !solution.is_reachable() {
        writeln!(
            console.out,
            "Cell {size} cannot be reached from {from} on board '{board_name}' under these rules."
        )
        .or_other()?;
        return Ok(());
    }
    writeln!(console.out, "{solution}").or_other()?;
    let rolls: Vec<String> =
        solution.moves().unwrap_or_default().iter().map(|m| m.steps.to_string()).collect();
    if !rolls.is_empty() {
        writeln!(console.out, "Rolls: {}", rolls.join(", ")).or_other()?;
    }
    match turns {
        None => {}
        Some(Ok(Some(turns))) => {
            let plural = if turns == 1 { "" } else { "s" };
            writeln!(
                console.out,
                "Fewest turns: {turns} turn{plural} (a top-face roll earns another roll in the turn)"
            )
            .or_other()?;
        }
        Some(Ok(None)) => writeln!(
            console.out,
            "Fewest turns: none: with these bonus rules, cell {size} cannot be reached"
        )
        .or_other()?,
        Some(Err(e)) => writeln!(console.out, "Fewest turns: not computed: {e}").or_other()?,
    }
    Ok(())
}

/// A board with cell effects: fewest rolls with the effects met along the path, and fewest
/// turns (a skipped turn counts, an extra roll does not), both the best case over wormholes.
fn with_effects(
    args: &SolveArgs,
    board: &Board,
    rules: &Rules,
    board_name: &str,
    console: &mut Console,
) -> CmdResult {
    let size = board.size();
    let from = args.from.unwrap_or(rules.start_position());
    if from > size {
        return Err(Failure::bad(anyhow::anyhow!(
            "--from {from} is past the last cell of board '{board_name}', which has {size} cells"
        )));
    }
    let solution = effects::fewest_rolls(board, rules, from);
    let turns = effects::fewest_turns(board, rules, from);
    if args.json {
        let rolls: Vec<u32> =
            solution.moves().unwrap_or_default().iter().map(|m| m.outcome.steps).collect();
        let met: Vec<serde_json::Value> =
            solution.met().iter().map(|&(at, what)| json!({ "at": at, "effect": what })).collect();
        let mut value = json!({
            "min_rolls": solution.min_rolls(),
            "path": solution.path(),
            "reachable": solution.is_reachable(),
            "from": solution.from(),
            "size": solution.size(),
            "rolls": rolls,
            "effects_met": met,
            "best_case_wormholes": solution.best_case_wormholes(),
        });
        match turns {
            Ok(turns) => value["min_turns"] = json!(turns),
            Err(e) => value["min_turns_error"] = json!(e.to_string()),
        }
        writeln!(console.out, "{value}").or_other()?;
        return Ok(());
    }
    if !solution.is_reachable() {
        writeln!(
            console.out,
            "Cell {size} cannot be reached from {from} on board '{board_name}' under these rules."
        )
        .or_other()?;
        return Ok(());
    }
    writeln!(console.out, "{solution}").or_other()?;
    let rolls: Vec<String> =
        solution.moves().unwrap_or_default().iter().map(|m| m.outcome.steps.to_string()).collect();
    if !rolls.is_empty() {
        writeln!(console.out, "Rolls: {}", rolls.join(", ")).or_other()?;
    }
    match turns {
        Ok(Some(turns)) => {
            let plural = if turns == 1 { "" } else { "s" };
            writeln!(
                console.out,
                "Fewest turns: {turns} turn{plural} (a skipped turn counts as a turn; an extra \
                 cell or a top-face bonus gives another roll in the turn)"
            )
            .or_other()?;
        }
        Ok(None) => {
            writeln!(console.out, "Fewest turns: none: cell {size} cannot be reached")
                .or_other()?;
        }
        Err(e) => writeln!(console.out, "Fewest turns: not computed: {e}").or_other()?,
    }
    if solution.best_case_wormholes() {
        writeln!(
            console.out,
            "Wormholes count as the best case: the path takes the exit it needs, which in a game \
             is drawn at random."
        )
        .or_other()?;
    }
    Ok(())
}

/// `--board random` beyond 10^6 cells: drawn straight into a [`Track`], jump for jump the board
/// the engine would draw (it skips its winnability check at that size too), without building a
/// `Board` and its two tables of 4 bytes per cell. 10^8 cells take about 100 MB this way.
fn huge_random(game: &GameArgs) -> CmdResult<Option<Track>> {
    const ENGINE_CHECKS_UP_TO: u32 = 1_000_000;
    // A track holds jumps only: a board with effects is built whole (and solved with them).
    if game.board != "random" || game.size <= ENGINE_CHECKS_UP_TO || game.effects > 0 {
        return Ok(None);
    }
    let rules = game.rules_with(&RuleSpec::default())?;
    game.analysable_rules(&rules)?;
    let params = RandomBoard {
        size: game.size,
        snakes: game.snakes,
        ladders: game.ladders,
        seed: game.seed_or(0),
        min_jump: game.min_jump,
    };
    random_track(&params, &rules).map(Some).or_bad()
}

/// The SPEC §7 keys, and the rolls.
fn solution_json(solution: &Solution) -> serde_json::Value {
    let rolls: Vec<u32> = solution.moves().unwrap_or_default().iter().map(|m| m.steps).collect();
    json!({
        "min_rolls": solution.min_rolls(),
        "path": solution.path(),
        "reachable": solution.is_reachable(),
        "from": solution.from(),
        "size": solution.size(),
        "rolls": rolls,
    })
}

/// `--leetcode`: inline JSON, a file, or standard input.
fn leetcode(source: &str, as_json: bool, console: &mut Console) -> CmdResult {
    let board = read_leetcode(source, console)?;
    let solution = board.solve();
    if as_json {
        writeln!(console.out, "{}", solution_json(&solution)).or_other()?;
    } else {
        writeln!(console.out, "{}", solution.min_rolls().map_or(-1, i64::from)).or_other()?;
    }
    Ok(())
}

/// Reads a LeetCode 909 matrix given inline (`[[...]]`), as a file, or as `-` (standard input).
pub(crate) fn read_leetcode(source: &str, console: &mut Console) -> CmdResult<LeetCode> {
    let text = if source == "-" {
        crate::common::read_bounded(
            &mut console.input,
            snl_engine::MAX_BOARD_FILE_BYTES,
            "the LeetCode board on standard input",
        )?
    } else if source.trim_start().starts_with('[') {
        source.as_bytes().to_vec()
    } else {
        crate::common::read_file_bounded(
            source,
            snl_engine::MAX_BOARD_FILE_BYTES,
            "LeetCode board file",
        )?
    };
    LeetCode::parse(&text).or_bad()
}

/// `--hackerrank`: the judge's input on standard input, one answer per line.
fn hackerrank(as_json: bool, console: &mut Console) -> CmdResult {
    let bytes = crate::common::read_bounded(
        &mut console.input,
        snl_engine::MAX_BOARD_FILE_BYTES,
        "HackerRank input on standard input",
    )?;
    let text = String::from_utf8(bytes).map_err(|e| {
        Failure::bad(anyhow::anyhow!(
            "HackerRank input is not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    let tests = parse_hackerrank(&text).or_bad()?;
    let solutions: Vec<Solution> = tests.iter().map(|t| t.track().fewest_rolls()).collect();
    if as_json {
        let tests: Vec<serde_json::Value> = solutions.iter().map(solution_json).collect();
        writeln!(console.out, "{}", json!({ "tests": tests })).or_other()?;
    } else {
        for s in &solutions {
            writeln!(console.out, "{}", s.min_rolls().map_or(-1, i64::from)).or_other()?;
        }
    }
    Ok(())
}
