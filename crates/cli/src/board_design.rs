//! `snl board design`: search for a board whose game lasts as long as asked and, with `--fair`,
//! whose seats' chances are as even as the rules allow.
//!
//! The search is [`snl_analysis::design`]; this module reads the options, shows progress, prints
//! the board and its numbers, and writes the board file.

use std::{io::Write, path::PathBuf, time::Instant};

use clap::Args;
use snl_analysis::design::{self, Design, DesignError, Goal};
use snl_engine::{Board, RuleSpec};

use crate::{
    common::{CmdResult, Failure, GameArgs, OrFail, at_least_one},
    long_run::{LongRunArgs, OnCtrlC},
};
use snl_tui::{console::Console, display::draw_board};

/// Options of `snl board design`.
#[derive(Args, Clone, Debug)]
#[command(after_help = "\
The search is simulated annealing over snakes and ladders, each board judged by the exact \
analysis (as `snl analyze`), every token taking the first option. Expected turns are one \
token's turns to finish. The same options and seed give the same board. Effects (skip, extra, \
shield, wormhole) are not placed yet.

Limits: 10 to 1000 cells, at most 5 expected turns per cell, 1 to 16 seats, at most 4294967295 steps.

Example: a 100-cell board of about 30 turns, fair between 2 seats, written to a file:
  snl board design --target-turns 30 --fair --seed 4 -o fair30.toml")]
#[command(mut_arg("board", |a| a.hide(true)))]
#[command(mut_arg("snakes", |a| a.hide(true)))]
#[command(mut_arg("ladders", |a| a.hide(true)))]
#[command(mut_arg("size", |a| a.help("Cells of the designed board (10 to 1000)")))]
#[command(mut_arg("seed", |a| a.help("Seed of the search: the same seed gives the same board [default: 0]")))]
pub(crate) struct DesignArgs {
    /// Expected turns for one player to finish (the board found is within 0.5 of it).
    #[arg(long, value_name = "T", help_heading = "Design")]
    target_turns: f64,
    /// Seats whose chances to win are reported (and evened out with --fair): 1 to 16.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = at_least_one::<usize>,
          help_heading = "Design")]
    seats: usize,
    /// Make the seats' chances to win as even as the rules allow.
    #[arg(long, help_heading = "Design")]
    fair: bool,
    /// Search steps (each analyses one board exactly).
    #[arg(long, value_name = "N", default_value_t = 3000, value_parser = at_least_one::<u32>,
          help_heading = "Design")]
    steps: u32,
    /// Write the board file here (as `snl board generate` does) as well as printing it.
    #[arg(long, short, value_name = "FILE", help_heading = "Design")]
    output: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long, help_heading = "Design")]
    json: bool,
    /// Rules (and --size, --seed) as for every command.
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    long: LongRunArgs,
}

/// `snl board design`.
pub(crate) fn run(args: &DesignArgs, console: &mut Console) -> CmdResult {
    // The defaults of the hidden options: anything else was given.
    if (args.game.board.as_str(), args.game.snakes, args.game.ladders) != ("classic", 8, 8) {
        return Err(Failure::bad(anyhow::anyhow!(
            "board design draws its own board: leave out --board, --snakes and --ladders"
        )));
    }
    let rules = args.game.rules_with(&RuleSpec::default())?;
    args.game.analysable_rules(&rules)?;
    let goal = Goal {
        target_turns: args.target_turns,
        size: args.game.size,
        seats: args.seats,
        fair: args.fair,
        seed: args.game.seed_or(0),
        steps: args.steps,
    };
    let bar = args.long.progress(u64::from(goal.steps), "steps", console.stderr_tty, !args.json);
    let budget = args.long.start(OnCtrlC::Stop, console.stderr_tty);
    let started = Instant::now();
    let found = design::design(&goal, &rules, &|steps| bar.set(u64::from(steps)), &budget);
    let seconds = started.elapsed().as_secs_f64();
    bar.finish();
    let found = found.map_err(|e| match e {
        DesignError::NothingFound { .. } => Failure::stuck(e),
        e => Failure::bad(e),
    })?;
    if budget.is_cancelled() {
        return Err(Failure::interrupted(anyhow::anyhow!(
            "interrupted by Ctrl-C after {} of {} steps",
            found.steps,
            goal.steps
        )));
    }
    if found.complete && !found.on_target {
        return Err(Failure::other(anyhow::anyhow!(
            "no board within {} turns of {} was found in {} steps: the closest lasts {:.2} turns \
             (try another --seed or more --steps)",
            design::TOLERANCE,
            goal.target_turns,
            goal.steps,
            found.expected_turns
        )));
    }
    let mut spec = found.spec.clone();
    spec.rules = rules.to_spec();
    let board = Board::new(&spec, &rules).or_other()?;
    if let Some(path) = &args.output {
        std::fs::write(path, spec.to_toml())
            .map_err(|e| Failure::bad(anyhow::anyhow!("cannot write '{}': {e}", path.display())))?;
    }
    let out = console.out.as_mut();
    if args.json {
        writeln!(out, "{}", json(&goal, &found, &board, &rules, seconds)).or_other()?;
        return Ok(());
    }
    write!(out, "{}", draw_board(&board, &[], console.color)).or_other()?;
    write_text(out, args, &goal, &found, &rules, seconds).or_other()
}

fn json(
    goal: &Goal,
    found: &Design,
    board: &Board,
    rules: &snl_engine::Rules,
    seconds: f64,
) -> serde_json::Value {
    let spec = &found.spec;
    serde_json::json!({
        "size": board.size(),
        "width": board.width(),
        "snakes": spec.snakes.iter().map(|s| serde_json::json!({"head": s.head, "tail": s.tail})).collect::<Vec<_>>(),
        "ladders": spec.ladders.iter().map(|l| serde_json::json!({"foot": l.foot, "top": l.top})).collect::<Vec<_>>(),
        "rules": rules,
        "target_turns": goal.target_turns,
        "expected_turns": found.expected_turns,
        "std_dev_turns": found.std_dev_turns,
        "on_target": found.on_target,
        "win_probability": found.win_probability,
        "spread": found.spread,
        "fair": goal.fair,
        "seed": goal.seed,
        "steps": found.steps,
        "complete": found.complete,
        "seconds": seconds,
    })
}

fn write_text(
    out: &mut dyn Write,
    args: &DesignArgs,
    goal: &Goal,
    found: &Design,
    rules: &snl_engine::Rules,
    seconds: f64,
) -> std::io::Result<()> {
    writeln!(out, "Rules: {rules}.")?;
    writeln!(
        out,
        "Designed for {} turns (seed {}): {} snakes, {} ladders, {} steps in {seconds:.2} s.",
        goal.target_turns,
        goal.seed,
        found.spec.snakes.len(),
        found.spec.ladders.len(),
        found.steps
    )?;
    if !found.complete {
        let on = if found.on_target { "on target" } else { "not yet on target" };
        writeln!(
            out,
            "Partial: --max-seconds {} stopped the search after {} of {} steps; this is the best \
             board so far ({on}).",
            args.long.max_seconds.unwrap_or(0.0),
            found.steps,
            goal.steps
        )?;
    }
    writeln!(
        out,
        "Expected turns: {:.2} (target {} ± {}), standard deviation {:.2}.",
        found.expected_turns,
        goal.target_turns,
        design::TOLERANCE,
        found.std_dev_turns
    )?;
    let chances: Vec<String> = found
        .win_probability
        .iter()
        .enumerate()
        .map(|(i, p)| format!("seat {} {:.2}%", i + 1, 100.0 * p))
        .collect();
    writeln!(
        out,
        "Chances to win: {}; spread {:.2} percentage points.",
        chances.join(", "),
        100.0 * found.spread
    )?;
    if let Some(path) = &args.output {
        writeln!(out, "Board file written to {}.", path.display())?;
    }
    Ok(())
}
