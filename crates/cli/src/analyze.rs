//! `snl analyze`: exact numbers for a board, rules and seats (SPEC §7), as tables, JSON, and a
//! plot of the game length and of the landings.
//!
//! The numbers come from [`snl_analysis::exact`]; this module reads the options and works them
//! out, [`report`] writes them.

use std::{
    io::Write,
    path::PathBuf,
    time::{Duration, Instant},
};

use clap::Args;
use snl_analysis::{
    exact::{self, Analysis},
    strategy::{self, HardPolicy, Play, PlayToWin, Strategy},
};
use snl_engine::{Board, Choice, FirstOption, Rules, Seat};

use crate::{
    common::{CmdResult, Failure, GameArgs, OrFail, parse_seats},
    long_run::{LongRunArgs, OnCtrlC},
    plot::{self, AnalysisSeats, PlotTarget},
};
use snl_tui::console::Console;

mod report;

use report::{Report, StoppedBy, Summary, ToWin};

/// Options of `snl analyze`.
#[derive(Args, Clone, Debug)]
pub(crate) struct AnalyzeArgs {
    #[command(flatten)]
    pub(crate) game: GameArgs,
    /// A seat as NAME:KIND; repeat for each seat, in seating order. Adds each seat's chance to
    /// finish first and the length of the whole game. Under a choice rule each seat plays its
    /// kind's strategy (a human counts as hard). At most 256 seats.
    #[arg(long = "player", value_name = "NAME:KIND", help_heading = "Analysis")]
    pub(crate) players: Vec<String>,
    /// Under --choice may-pass or pick-die: the strategy of the one-player numbers, easy,
    /// greedy or hard (default: a table of all three, then hard in detail). `win`, with 2 to 4
    /// seats: each seat of kind `win` (every seat, when none is) chooses to maximise its own
    /// chance to finish first, given that the others do the same or play their kinds; the
    /// one-player numbers are then hard's. Not with bonus rolls or races; 3 seats on 100 cells
    /// (a minute) and 4 seats on up to 29 cells are solved (larger ones are refused).
    #[arg(long, value_name = "STRATEGY", value_parser = parse_policy, help_heading = "Analysis")]
    pub(crate) policy: Option<PolicyArg>,
    /// Print one JSON object (SPEC §7) instead of tables. On a board with cell effects it has
    /// `effect_worth`: per effect cell `{cell, effect, expected_turns_delta,
    /// first_seat_win_delta}`, the change against the same cell left plain (the second null
    /// with fewer than two seats). Under `--mode race` with seats, `win_probability` and
    /// `expected_rank` are the race's, also in `race: {rounds, p_finish_within,
    /// win_probability, expected_rank}`. `p_finish_by` lists at most 65,536 turns past those
    /// propagated over the board; a longer distribution (a 10^5-cell board with games of
    /// thousands of turns: some 197,000 turns to the 1e-12 tail) adds `p_finish_by_tail`, with
    /// `from`, `live`, `ratio`, `finishing`, `bound` and `last_turn`: for k ≥ `from`, P(T ≤ k)
    /// is `p_finish_by[from] + finishing · live · (1 − ratio^(k − from)) / (1 − ratio)`,
    /// within `bound`, up to `last_turn`.
    #[arg(long, help_heading = "Analysis")]
    pub(crate) json: bool,
    /// Draw the distribution of the game length and a heat map of the landings into this file
    /// (.svg or .png).
    #[arg(long, value_name = "FILE.svg|png", help_heading = "Analysis")]
    pub(crate) plot: Option<PathBuf>,
    /// `--max-seconds` stops following the distribution (the expectations are always exact).
    #[command(flatten)]
    pub(crate) long: LongRunArgs,
}

/// What `--policy` asks for: a strategy of one token, or playing to win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PolicyArg {
    /// `easy`, `greedy` or `hard`.
    Plays(Strategy),
    /// `win`: every seat of kind `win` (or every seat) plays to win.
    Win,
}

fn parse_policy(text: &str) -> Result<PolicyArg, String> {
    if text.trim().eq_ignore_ascii_case("win") {
        return Ok(PolicyArg::Win);
    }
    text.parse::<Strategy>().map(PolicyArg::Plays).map_err(|_| {
        format!("unknown strategy '{}': expected easy, greedy, hard or win", cut(text))
    })
}

/// At most 40 characters of a value quoted in an error.
fn cut(text: &str) -> String {
    text.chars().take(40).collect()
}

/// The seats of `--player`, and which are of kind `win` (read as hard by the rest of the
/// analysis).
fn seats_and_winners(values: &[String]) -> CmdResult<(Vec<Seat>, Vec<bool>)> {
    let mut texts = Vec::with_capacity(values.len());
    let mut winners = Vec::with_capacity(values.len());
    for v in values {
        match v.rsplit_once(':') {
            Some((name, kind)) if kind.trim().eq_ignore_ascii_case("win") => {
                texts.push(format!("{name}:hard"));
                winners.push(true);
            }
            _ => {
                texts.push(v.clone());
                winners.push(false);
            }
        }
    }
    Ok((parse_seats(&texts)?, winners))
}

/// Seats playing to win, solved on the joint chain: `None` unless `--policy win` or a seat of
/// kind `win` asks for it.
fn to_win(
    setup: &crate::common::Setup,
    analyses: &mut Analyses<'_>,
    strategies: &[Strategy],
    winners: &[bool],
    asked: bool,
) -> CmdResult<Option<ToWin>> {
    if !asked && !winners.contains(&true) {
        return Ok(None);
    }
    let bad = |text: String| Failure::bad(anyhow::anyhow!(text));
    if strategies.len() < 2 || strategies.len() > strategy::MAX_SEATS {
        return Err(bad(format!(
            "playing to win needs 2 to {} seats (--player NAME:KIND), not {}",
            strategy::MAX_SEATS,
            strategies.len()
        )));
    }
    if setup.rules.mode != snl_engine::Mode::Classic {
        return Err(bad("playing to win is solved for the classic mode, not a race".to_owned()));
    }
    let all = !winners.contains(&true);
    let wins: Vec<bool> = winners.iter().map(|&w| w || all).collect();
    // Within `--max-seconds`: the sweeps stop with it, the answer then not settled.
    let budget = analyses.options.budget.clone();
    let max_seconds = analyses.max_seconds.unwrap_or_default();
    let hard = analyses.hard()?;
    let policies: Vec<Box<dyn exact::Policy + '_>> =
        strategies.iter().map(|s| s.policy(hard)).collect();
    let plays: Vec<Play<'_>> = policies
        .iter()
        .zip(&wins)
        .map(|(p, &w)| if w { Play::ToWin } else { Play::Fixed(&**p) })
        .collect();
    PlayToWin::check(&setup.board, &setup.rules, &plays)
        .map_err(|e| bad(format!("board '{}': {e}", setup.board_name)))?;
    let began = std::time::Instant::now();
    let solved = PlayToWin::new_within(&setup.board, &setup.rules, &plays, &budget)
        .map_err(|e| bad(format!("board '{}': {e}", setup.board_name)))?;
    Ok(Some(ToWin {
        plays: strategies
            .iter()
            .zip(&wins)
            .map(|(s, &w)| if w { "win" } else { s.as_str() })
            .collect(),
        win_probability: solved.win_probability(),
        settled: solved.settled(),
        stopped_by: solved.stopped().then_some(max_seconds),
        sweeps: solved.sweeps(),
        last_change: solved.last_change(),
        seconds: began.elapsed().as_secs_f64(),
    }))
}

/// The exact analyses a report needs, one per strategy, each computed once: under no choice
/// rule every strategy plays the same game (the roll decides), so there is one.
struct Analyses<'a> {
    board: &'a Board,
    rules: &'a Rules,
    board_name: &'a str,
    hard: Option<HardPolicy>,
    done: Vec<(Option<Strategy>, Analysis)>,
    /// How far to compute (the budget of `--max-seconds`).
    options: exact::Options,
    /// `--max-seconds`, to name it when it stops the work.
    max_seconds: Option<f64>,
}

impl Analyses<'_> {
    /// The analysis of one token playing `strategy` (any, when the rules offer no choice).
    fn of(&mut self, strategy: Strategy) -> CmdResult<&Analysis> {
        let key = (self.rules.choice != Choice::None).then_some(strategy);
        if let Some(i) = self.done.iter().position(|(k, _)| *k == key) {
            return Ok(&self.done[i].1);
        }
        let (name, size) = (self.board_name, self.board.size());
        let max_seconds = self.max_seconds;
        let fail = |e: exact::AnalysisError| {
            let (why, advice) = match e {
                exact::AnalysisError::Stopped => (
                    format!(
                        "--max-seconds {} ran out while the exact chain of {size} cells was being \
                     built or solved",
                        max_seconds.unwrap_or_default()
                    ),
                    "give it more time, or use snl simulate for estimates",
                ),
                exact::AnalysisError::NoConvergence { iterations, residual } => (
                    format!(
                        "the exact solver could not reach the accuracy it promises on this board \
                     ({iterations} iterations left a relative residual of {residual:.1e}: its \
                     games are too long for exact numbers in double precision)"
                    ),
                    "use snl simulate for estimates",
                ),
                e => {
                    return Failure::other(anyhow::anyhow!(
                        "board '{name}' cannot be analysed: {e}"
                    ));
                }
            };
            Failure::other(ExactStopped { board: name.to_owned(), size, why, advice })
        };
        let analysis = match key {
            None => exact::analyze_with(self.board, self.rules, &FirstOption, &self.options)
                .map_err(fail)?,
            Some(strategy) => {
                let (board, rules, options) = (self.board, self.rules, self.options.clone());
                let policy = strategy.policy(self.hard()?);
                exact::analyze_with(board, rules, &*policy, &options).map_err(fail)?
            }
        };
        self.done.push((key, analysis));
        Ok(&self.done.last().expect("just pushed").1)
    }

    /// The optimal policy, computed once.
    fn hard(&mut self) -> CmdResult<&HardPolicy> {
        if self.hard.is_none() {
            // Worked out within the chain's budget: `--max-seconds` and its grace on a large
            // board (a 10^6-cell board with effects once went on for minutes past 2 s).
            let budget = &self.options.chain_budget;
            let policy = HardPolicy::new_within(self.board, self.rules, budget).map_err(|e| {
                if matches!(e, exact::AnalysisError::Stopped) {
                    return Failure::other(ExactStopped {
                        board: self.board_name.to_owned(),
                        size: self.board.size(),
                        why: format!(
                            "--max-seconds {} ran out while the hard strategy on {} cells was \
                             being worked out",
                            self.max_seconds.unwrap_or_default(),
                            self.board.size()
                        ),
                        advice: "give it more time, or use snl simulate for estimates",
                    });
                }
                Failure::other(anyhow::anyhow!(
                    "board '{}' cannot be analysed: {e}",
                    self.board_name
                ))
            })?;
            self.hard = Some(policy);
        }
        Ok(self.hard.as_ref().expect("computed above"))
    }
}

/// The exact expectations were not found before `--max-seconds` (and its grace) ran out.
#[derive(Debug)]
struct ExactStopped {
    board: String,
    size: u32,
    /// Why, as the start of a sentence.
    why: String,
    /// What to do instead.
    advice: &'static str,
}

impl std::fmt::Display for ExactStopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.why)
    }
}

impl std::error::Error for ExactStopped {}

/// How long past `--max-seconds S` the exact expectations may go on (S/20 + 0.5 s), so that the
/// command still ends within the 10% plus one second it promises: what comes before the chain
/// (the board and its check) and after it (letting go of it, the answer) has the rest.
fn exact_grace(seconds: f64) -> Duration {
    Duration::from_secs_f64(seconds / 20.0 + 0.5)
}

/// Boards up to this many cells always get their exact expectations, whatever `--max-seconds`
/// says: they take milliseconds (a 10^5-cell board with 1,000 jumps, some 50 ms), so the answer
/// does not depend on how busy the machine is. Larger ones stop at the limit and its grace.
const ALWAYS_EXACT_CELLS: u32 = 100_000;

pub(crate) fn run(args: &AnalyzeArgs, console: &mut Console) -> CmdResult {
    let began = Instant::now();
    match analyze(args, console, began) {
        Err(f) if f.error.is::<ExactStopped>() => {
            let stop = f.error.downcast::<ExactStopped>().expect("checked above");
            stopped(&stop, args.json, console)
        }
        other => other,
    }
}

/// The honest partial answer of an analysis whose exact solve ran out of time: what it is, and
/// that none of the exact numbers were computed.
fn stopped(stop: &ExactStopped, json: bool, console: &mut Console) -> CmdResult {
    let sentence = format!(
        "{}: no exact number was computed (expected turns and rolls, their spread, the \
         distribution, the landings and the seats' chances are all missing); {}",
        stop.why, stop.advice
    );
    if json {
        let v = serde_json::json!({
            "board": stop.board,
            "size": stop.size,
            "complete": false,
            "expectations_complete": false,
            "expected_turns": null,
            "expected_rolls": null,
            "std_dev_turns": null,
            "partial": sentence,
        });
        writeln!(console.out, "{v}").or_other()
    } else {
        let board = crate::format::shown(&stop.board, 40);
        writeln!(console.out, "Board: {board} ({} cells)", stop.size).or_other()?;
        writeln!(console.out, "Partial: {sentence}.").or_other()
    }
}

/// The most cells of a board with cell effects that `analyze` takes: its chain has up to four
/// states a cell (shield, skip), each with its own row, so memory grows some 40 times faster
/// than on a plain board (10^7 cells took 10 GB before being refused, issue 29).
pub(crate) const MAX_EFFECT_ANALYSIS_CELLS: u32 = 1_000_000;

fn analyze(args: &AnalyzeArgs, console: &mut Console, began: Instant) -> CmdResult {
    let setup = args.game.resolve()?;
    setup.analysable(snl_analysis::Work::Exact)?;
    if setup.board.has_effects() && setup.board.size() > MAX_EFFECT_ANALYSIS_CELLS {
        return Err(Failure::bad(anyhow::anyhow!(
            "a board with cell effects is analysed up to {MAX_EFFECT_ANALYSIS_CELLS} cells, and \
             '{}' has {}: use snl simulate for its numbers",
            crate::format::shown(&setup.board_name, 40),
            setup.board.size()
        )));
    }
    let (seats, winners) = seats_and_winners(&args.players)?;
    for (i, seat) in seats.iter().enumerate() {
        if seats[..i].iter().any(|s| s.name == seat.name) {
            return Err(Failure::bad(anyhow::anyhow!(
                "two players are named '{}': every player needs a name of its own",
                seat.name
            )));
        }
    }
    let plot_to = args.plot.as_deref().map(PlotTarget::check).transpose()?;
    let choosing = setup.rules.choice != Choice::None;
    if choosing {
        // Under a choice rule the seats play strategies.
        // On a board with cell effects the chain's state carries the shield and the skip
        // pending, and tells them to each strategy's policy: it follows them as games do.
        setup.analysable(snl_analysis::Work::Strategy)?;
    }
    let mut analyses = Analyses {
        board: &setup.board,
        rules: &setup.rules,
        board_name: &setup.board_name,
        hard: None,
        done: Vec::new(),
        max_seconds: args.long.max_seconds,
        options: exact::Options::default()
            .with_budget(args.long.start(OnCtrlC::Exit, console.stderr_tty)),
    };
    if let Some(s) = args.long.max_seconds
        && setup.board.size() > ALWAYS_EXACT_CELLS
    {
        // The chain and its solves stop a little past the limit (see `exact_grace`).
        let deadline = began + Duration::from_secs_f64(s) + exact_grace(s);
        analyses.options.chain_budget = snl_analysis::Budget::unlimited().with_deadline(deadline);
    }
    let spinner = args.long.spinner("analysing exactly", console.stderr_tty, true);
    // One player under --policy, or hard after a table of all three.
    let main = match args.policy {
        Some(PolicyArg::Plays(strategy)) => strategy,
        Some(PolicyArg::Win) | None => Strategy::Hard,
    };
    let comparison = if choosing && args.policy.is_none() {
        let mut rows = Vec::new();
        for strategy in Strategy::SOLO {
            rows.push((strategy, Summary::of(analyses.of(strategy)?)));
        }
        Some(rows)
    } else {
        None
    };
    let strategies: Vec<Strategy> =
        seats.iter().map(|s| Strategy::of_kind(s.kind).unwrap_or(Strategy::Hard)).collect();
    for &strategy in strategies.iter().chain([&main]) {
        analyses.of(strategy)?;
    }
    let to_win =
        to_win(&setup, &mut analyses, &strategies, &winners, args.policy == Some(PolicyArg::Win))?;
    let find = |strategy: Strategy| {
        let key = choosing.then_some(strategy);
        &analyses.done.iter().find(|(k, _)| *k == key).expect("analysed above").1
    };
    let one = find(main);
    let fail = |e: exact::AnalysisError| {
        Failure::other(anyhow::anyhow!("board '{}' cannot be analysed: {e}", setup.board_name))
    };
    // What each effect cell is worth against the same cell left plain (issue 11 point 5).
    let budget = &analyses.options.budget;
    let (worth, worth_complete) =
        exact::effect_worth_within(&setup.board, &setup.rules, seats.len(), budget)
            .map_err(fail)?;
    // What stopped the work short, if anything did: named only when it is the one given.
    let stopped_by = match (args.long.max_seconds, budget.is_out_of_time()) {
        (Some(s), true) => StoppedBy::MaxSeconds(s),
        _ => StoppedBy::WorkLimit,
    };
    let race = if seats.is_empty() {
        None
    } else {
        exact::race_on(&setup.board, &setup.rules, seats.len())
    };
    spinner.finish_and_clear();
    let outcomes = (!seats.is_empty()).then(|| {
        let per_seat: Vec<&Analysis> = strategies.iter().map(|&s| find(s)).collect();
        exact::seat_outcomes(&per_seat, setup.rules.finish)
    });
    let plotted = match &plot_to {
        None => None,
        Some(target) => {
            let title =
                format!("{} ({} cells): {}", setup.board_name, setup.board.size(), setup.rules);
            let seat_plot = outcomes.as_ref().filter(|o| o.is_exact() && race.is_none()).map(|o| {
                let per_seat: Vec<&Analysis> = strategies.iter().map(|&s| find(s)).collect();
                let rounds = per_seat.iter().map(|a| a.distribution.turns()).max().unwrap_or(0);
                AnalysisSeats {
                    names: seats.iter().map(|s| s.name.as_str()).collect(),
                    win_probability: &o.win_probability,
                    by_round: exact::win_by_round(&per_seat, rounds),
                    finish: setup.rules.finish,
                }
            });
            let summary =
                plot::draw_analysis(target, &setup.board, &title, one, seat_plot.as_ref(), &worth)
                    .map_err(|e| {
                        Failure::other(anyhow::anyhow!(
                            "cannot draw the plot '{}': {e}",
                            target.path().display()
                        ))
                    })?;
            Some((target.path(), summary))
        }
    };
    let report = Report {
        board_name: &setup.board_name,
        board: &setup.board,
        analysis: one,
        seats: &seats,
        outcomes: outcomes.as_ref(),
        policy: (choosing || args.policy.is_some()).then_some(main),
        to_win: to_win.as_ref(),
        comparison: comparison.as_deref(),
        race: race.as_ref(),
        worth: &worth,
        worth_complete,
        stopped_by,
    };
    if args.json {
        writeln!(console.out, "{}", report.json()).or_other()?;
    } else {
        report.text(console.out.as_mut(), plotted).or_other()?;
    }
    Ok(())
}
