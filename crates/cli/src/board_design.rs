//! `snl board design`: search for a board whose game lasts as long as asked (to a hundredth of a
//! turn), whose length varies within a band (`--sd-min/--sd-max`, `--spread`) and whose seats'
//! chances lie within a bound (`--max-gap`, `--fair`), with cell effects if asked (`--effects`).
//!
//! The search is [`snl_analysis::design`]; this module reads the options, shows progress, prints
//! the board and its numbers, and writes the board file.

use std::{io::Write, path::PathBuf, time::Instant};

use clap::Args;
use snl_analysis::design::{self, Design, DesignError, Goal, Length, Spread};
use snl_engine::{Board, RuleSpec};

use crate::{
    common::{CmdResult, Failure, GameArgs, OrFail, at_least_one},
    long_run::{LongRunArgs, OnCtrlC},
};
use snl_tui::{console::Console, display::draw_board};

/// Options of `snl board design`.
#[derive(Args, Clone, Debug)]
#[command(after_help = "\
Every board looked at is judged by the exact analysis (as `snl analyze`, cell effects \
included), every token taking the first option. Expected turns are one token's turns to finish; \
expected rounds (--target-rounds) the rounds a game of --seats seats lasts, until the first \
finishes (the last under --finish all), a race at most its --rounds; the spread is the standard deviation of that number; the gap is the highest seat's chance to win \
less the lowest (under --mode race, the race's chances). The search anneals for the rough shape \
(--steps), then tunes by trying every single move of a jump end or effect within 30 cells, each \
judged exactly, until the goal is met. The same options and seed give the same board. When no \
board meeting the goal is found, the closest is named and the exit code is 1.

Limits: 10 to 1000 cells, at most 5 expected turns per cell, 1 to 16 seats, at most a quarter of \
the cells with effects, at most 4294967295 steps.

Examples:
  snl board design --target-turns 30 --max-gap 2 --seed 4 -o fair30.toml
  snl board design --target-turns 40 --sd-min 20 --sd-max 22 --effects 4
  snl board design --target-turns 30 --spread low --seats 3
  snl board design --target-rounds 12 --seats 4 --mode race --rounds 15")]
#[command(mut_arg("board", |a| a.hide(true)))]
#[command(mut_arg("snakes", |a| a.hide(true)))]
#[command(mut_arg("ladders", |a| a.hide(true)))]
#[command(mut_arg("size", |a| a.help("Cells of the designed board (10 to 1000)")))]
#[command(mut_arg("seed", |a| a.help("Seed of the search: the same seed gives the same board [default: 0]")))]
pub(crate) struct DesignArgs {
    /// Expected turns for one player to finish (the board found is within --tolerance of it).
    #[arg(
        long,
        value_name = "T",
        help_heading = "Design",
        required_unless_present = "target_rounds",
        conflicts_with = "target_rounds"
    )]
    target_turns: Option<f64>,
    /// Expected rounds a game of --seats seats lasts instead: until the first finishes (under
    /// --finish all, the last), and under --mode race at most its --rounds.
    #[arg(long, value_name = "R", help_heading = "Design")]
    target_rounds: Option<f64>,
    /// How close to the target the expected turns (or rounds) must come.
    #[arg(long, value_name = "TURNS", default_value_t = design::TOLERANCE, help_heading = "Design")]
    tolerance: f64,
    /// The lowest standard deviation of the game's length accepted, in turns.
    #[arg(long, value_name = "TURNS", help_heading = "Design", conflicts_with = "spread")]
    sd_min: Option<f64>,
    /// The highest standard deviation of the game's length accepted, in turns.
    #[arg(long, value_name = "TURNS", help_heading = "Design", conflicts_with = "spread")]
    sd_max: Option<f64>,
    /// A game whose length varies as little (low) or as much (high) as the search finds.
    #[arg(long, value_enum, value_name = "HOW", help_heading = "Design")]
    spread: Option<SpreadArg>,
    /// The largest gap accepted between the seats' chances to win, in percentage points.
    #[arg(long, value_name = "POINTS", help_heading = "Design")]
    max_gap: Option<f64>,
    /// Seats whose chances to win are reported (and evened out with --fair): 1 to 16.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = at_least_one::<usize>,
          help_heading = "Design")]
    seats: usize,
    /// Make the seats' chances to win as even as the search finds.
    #[arg(long, help_heading = "Design")]
    fair: bool,
    /// Annealing steps for the rough shape (each analyses one board exactly).
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

/// `--spread`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum SpreadArg {
    /// As little variation as the search finds.
    Low,
    /// As much as the search finds.
    High,
}

impl DesignArgs {
    fn spread(&self) -> Spread {
        match (self.spread, self.sd_min, self.sd_max) {
            (Some(SpreadArg::Low), ..) => Spread::Low,
            (Some(SpreadArg::High), ..) => Spread::High,
            (None, None, None) => Spread::Any,
            (None, min, max) => {
                Spread::Band { min: min.unwrap_or(0.0), max: max.unwrap_or(f64::INFINITY) }
            }
        }
    }
}

/// `snl board design`.
pub(crate) fn run(args: &DesignArgs, console: &mut Console) -> CmdResult {
    // The defaults of the hidden options: anything else was given.
    if (args.game.board.as_str(), args.game.snakes, args.game.ladders) != ("classic", 8, 8) {
        return Err(Failure::bad(anyhow::anyhow!(
            "board design draws its own board: leave out --board, --snakes and --ladders"
        )));
    }
    // Races are designed too (their chances come from the race analysis), effects placed.
    let rules = args.game.rules_with(&RuleSpec::default())?;
    let (target_turns, length) = match (args.target_turns, args.target_rounds) {
        (_, Some(rounds)) => (rounds, Length::Rounds),
        (turns, None) => (turns.unwrap_or_default(), Length::Turns),
    };
    let goal = Goal {
        target_turns,
        length,
        tolerance: args.tolerance,
        size: args.game.size,
        seats: args.seats,
        fair: args.fair,
        max_gap: args.max_gap.map(|points| points / 100.0),
        spread: args.spread(),
        effects: args.game.effects,
        seed: args.game.seed_or(0),
        steps: args.steps,
    };
    let bar = args.long.progress(goal.most_steps(), "steps", console.stderr_tty, !args.json);
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
    if found.complete && !found.goal_met() {
        return Err(Failure::other(anyhow::anyhow!(
            "no board meeting the goal ({}) was found in {} steps and {} rounds of tuning \
             ({seconds:.1} s): the closest lasts {}, standard deviation {:.2}, gap {:.2} \
             points (try another --seed or more --steps)",
            asked(&goal),
            found.steps,
            found.tune_rounds,
            lasts(&goal, &found),
            found.std_dev_turns,
            100.0 * found.spread
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
        "target_turns": (goal.length == Length::Turns).then_some(goal.target_turns),
        "target_rounds": (goal.length == Length::Rounds).then_some(goal.target_turns),
        "expected_turns": found.expected_turns,
        "expected_rounds": found.expected_rounds,
        "std_dev_turns": found.std_dev_turns,
        "tolerance": goal.tolerance,
        "on_target": found.met.length,
        "spread_met": found.met.spread,
        "gap_met": found.met.gap,
        "goal_met": found.goal_met(),
        "max_gap": goal.max_gap,
        "effects": spec.cells.iter().map(|c| serde_json::json!({"at": c.at, "effect": c.effect, "exits": c.exits})).collect::<Vec<_>>(),
        "tune_rounds": found.tune_rounds,
        "boards_judged": found.boards_judged,
        "win_probability": found.win_probability,
        "spread": found.spread,
        "gap": found.spread,
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
        "Designed for {} (seed {}): {} snakes, {} ladders, {} effects; {} annealing steps and {} \
         rounds of tuning, {} boards analysed in {seconds:.2} s.",
        asked(goal),
        goal.seed,
        found.spec.snakes.len(),
        found.spec.ladders.len(),
        found.spec.cells.len(),
        found.steps,
        found.tune_rounds,
        found.boards_judged
    )?;
    if !found.complete {
        let on = if found.goal_met() { "goal met" } else { "goal not yet met" };
        writeln!(
            out,
            "Partial: --max-seconds {} stopped the search after {} of {} steps; this is the best \
             board so far ({on}).",
            args.long.max_seconds.unwrap_or(0.0),
            found.steps,
            goal.steps
        )?;
    }
    let (name, length) = match goal.length {
        Length::Turns => ("turns", found.expected_turns),
        Length::Rounds => ("rounds", found.expected_rounds),
    };
    writeln!(
        out,
        "Expected {name}: {length:.4} (target {} ± {}, off by {:.4}).",
        goal.target_turns,
        goal.tolerance,
        (length - goal.target_turns).abs(),
    )?;
    let seats =
        if goal.seats == 1 { "1 seat".to_string() } else { format!("{} seats", goal.seats) };
    writeln!(
        out,
        "One player's turns: {:.4}, standard deviation {:.2}; a game of {seats} lasts {:.4} rounds.",
        found.expected_turns, found.std_dev_turns, found.expected_rounds
    )?;
    let chances: Vec<String> = found
        .win_probability
        .iter()
        .enumerate()
        .map(|(i, p)| format!("seat {} {:.2}%", i + 1, 100.0 * p))
        .collect();
    writeln!(
        out,
        "Chances to win: {}; gap {:.2} percentage points.",
        chances.join(", "),
        100.0 * found.spread
    )?;
    if let Some(path) = &args.output {
        writeln!(out, "Board file written to {}.", path.display())?;
    }
    Ok(())
}

/// The goal in words: "30 turns ± 0.01, standard deviation 10 to 12, gap at most 2 points".
fn asked(goal: &Goal) -> String {
    let unit = match goal.length {
        Length::Turns => "turns",
        Length::Rounds => "rounds",
    };
    let mut parts = vec![format!("{} {unit} ± {}", goal.target_turns, goal.tolerance)];
    match goal.spread {
        Spread::Band { min, max } if max.is_finite() => {
            parts.push(format!("standard deviation {min} to {max}"));
        }
        Spread::Band { min, .. } => parts.push(format!("standard deviation at least {min}")),
        Spread::Low => parts.push("standard deviation low".into()),
        Spread::High => parts.push("standard deviation high".into()),
        Spread::Any => {}
    }
    if let Some(gap) = goal.max_gap {
        parts.push(format!("gap at most {} points", 100.0 * gap));
    }
    parts.join(", ")
}

/// How long the closest board lasts, in the goal's measure: "30.4000 turns".
fn lasts(goal: &Goal, found: &Design) -> String {
    match goal.length {
        Length::Turns => format!("{:.4} turns", found.expected_turns),
        Length::Rounds => format!("{:.4} rounds", found.expected_rounds),
    }
}
