// Long on purpose: options, progress, text, JSON and the plot of one command that share one result; a third is its unit tests.
//! `snl simulate`: Monte Carlo over many games, in parallel, with a progress bar.
//!
//! The games are played by [`snl_analysis::simulate`], whose results for a seed do not depend on
//! the number of threads; this module reads the options, shows progress on a terminal, and prints
//! the tally as text, JSON (SPEC §7) and, with `--plot`, a picture (see [`crate::plot`]).

use std::{
    io::Write,
    path::{Path, PathBuf},
    time::Instant,
};

use clap::Args;
use snl_analysis::{
    simulate::{Simulator, Tally, Z95},
    strategy::Strategy,
    tournament::{Entrant, Tournament, TournamentError},
};
use snl_engine::{Choice, Seat};

use crate::{
    common::{
        CmdResult, Failure, GameArgs, OrFail, default_computer_seats, fresh_seed, game_count,
        parse_seats, thread_count, worker_pool,
    },
    format::{Align, Table, percent, percent_intervals},
    long_run::{LongRunArgs, OnCtrlC},
    plot::{self, PlotTarget},
};
use snl_tui::console::Console;

/// Options of `snl simulate`.
#[derive(Args, Clone, Debug)]
pub(crate) struct SimulateArgs {
    #[command(flatten)]
    pub(crate) game: GameArgs,
    /// A seat as NAME:KIND; repeat for each seat (default: two seats). One seat measures how long
    /// a single player takes. Under a choice rule, two seats or more play their kind's strategy
    /// (a human counts as hard) in games played by the engine; a lone seat takes the first option.
    #[arg(long = "player", value_name = "NAME:KIND", help_heading = "Simulation")]
    pub(crate) players: Vec<String>,
    /// Games to play: 1 to 1000000000000.
    #[arg(long, value_name = "N", default_value_t = 100_000, allow_negative_numbers = true, value_parser = game_count,
          help_heading = "Simulation")]
    pub(crate) games: u64,
    /// Worker threads (default: all cores). The result for a seed is the same for any number.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = thread_count, help_heading = "Simulation")]
    pub(crate) threads: Option<usize>,
    /// Print one JSON object with the results instead of text.
    #[arg(long, help_heading = "Simulation")]
    pub(crate) json: bool,
    /// Also draw the distribution of the game length (in rolls) and each seat's share of wins
    /// into this file (.svg or .png).
    #[arg(long, value_name = "FILE.svg|png", help_heading = "Simulation")]
    pub(crate) plot: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) long: LongRunArgs,
}

/// What was simulated and how it went: everything the outputs print.
struct Report<'a> {
    board_name: &'a str,
    rules: String,
    choice: Choice,
    /// Whether the seats played their strategies (engine games) rather than the first option.
    strategies: bool,
    seats: &'a [Seat],
    seed: u64,
    threads: usize,
    tally: Tally,
    seconds: f64,
    /// Games asked for: more than the tally's when `--max-seconds` stopped the run.
    requested: u64,
    /// The rounds of a race (`--mode race --rounds K`).
    rounds: Option<u32>,
    max_seconds: Option<f64>,
}

impl Report<'_> {
    fn rolls_per_second(&self) -> f64 {
        if self.seconds > 0.0 { self.tally.total_rolls() as f64 / self.seconds } else { 0.0 }
    }
}

pub(crate) fn run(args: &SimulateArgs, console: &mut Console) -> CmdResult {
    // From here Ctrl-C stops the games (and the time limit counts).
    let budget = args.long.start(OnCtrlC::Stop, console.stderr_tty);
    let setup = args.game.resolve()?;
    setup.analysable(snl_analysis::Work::Simulate)?;
    let seats = if args.players.is_empty() {
        default_computer_seats()
    } else {
        parse_seats(&args.players)?
    };
    for (i, seat) in seats.iter().enumerate() {
        if seats[..i].iter().any(|s| s.name == seat.name) {
            return Err(Failure::bad(anyhow::anyhow!(
                "two players are named '{}': every player needs a name of its own",
                seat.name
            )));
        }
    }
    if setup.rules.choice != Choice::None && seats.len() > 1 {
        // The seats' strategies decide: they must know the board's effects and the race.
        setup.analysable(snl_analysis::Work::Strategy)?;
    }
    let plot_to = args.plot.as_deref().map(PlotTarget::check).transpose()?;
    let sim = Simulator::new(&setup.board, &setup.rules, seats.len()).map_err(|e| {
        Failure::stuck(anyhow::anyhow!("board '{}' cannot be simulated: {e}", setup.board_name))
    })?;
    let seed = args.game.seed.unwrap_or_else(fresh_seed);
    let pool = worker_pool(args.threads)?;

    // Under a choice rule the seats' strategies decide, so the engine plays the games; the fast
    // kernels take the first option, which is also what a lone seat does (a game needs two).
    let strategies = if setup.rules.choice != Choice::None && seats.len() > 1 {
        let players = seats
            .iter()
            .map(|s| Entrant::new(&s.name, Strategy::of_kind(s.kind).unwrap_or(Strategy::Hard)))
            .collect();
        let made = Tournament::new_within(&setup.board, &setup.rules, players, &budget);
        if let Err(TournamentError::Analysis(snl_analysis::exact::AnalysisError::Stopped)) = &made {
            if budget.is_cancelled() {
                return Err(Failure::interrupted(anyhow::anyhow!(
                    "interrupted by Ctrl-C while the hard strategy was being worked out, before any \
                     game"
                )));
            }
            return crate::long_run::no_game_in_time(
                args.long.max_seconds,
                args.json,
                &mut console.out,
            );
        }
        let tournament = made.map_err(|e| {
            let win = matches!(e, TournamentError::Win(_));
            let e = anyhow::anyhow!("board '{}' cannot be simulated: {e}", setup.board_name);
            if win { Failure::bad(e) } else { Failure::other(e) }
        })?;
        Some(tournament)
    } else {
        None
    };
    let bar = args.long.progress(args.games, "games", console.stderr_tty, true);
    let started = Instant::now();
    let tally = match &strategies {
        Some(t) => pool.install(|| t.simulate_within(seed, args.games, &|n| bar.inc(n), &budget)),
        None => pool.install(|| sim.run_within(seed, args.games, &|n| bar.inc(n), &budget)),
    };
    let seconds = started.elapsed().as_secs_f64();
    bar.finish();
    if budget.is_cancelled() {
        return Err(Failure::interrupted(anyhow::anyhow!(
            "interrupted by Ctrl-C after {} of {} games",
            tally.games(),
            args.games
        )));
    }

    let report = Report {
        board_name: &setup.board_name,
        rules: setup.rules.to_string(),
        choice: setup.rules.choice,
        strategies: strategies.is_some(),
        seats: &seats,
        seed,
        threads: pool.current_num_threads(),
        tally,
        seconds,
        requested: args.games,
        max_seconds: args.long.max_seconds,
        rounds: setup.rules.mode.rounds(),
    };
    if let Some(target) = &plot_to {
        let names: Vec<&str> = seats.iter().map(|s| s.name.as_str()).collect();
        let title = format!(
            "{} ({} cells), {} seats: {}",
            setup.board_name,
            setup.board.size(),
            seats.len(),
            report.rules
        );
        plot::draw_simulation(target, &title, &report.tally, &names).map_err(|e| {
            Failure::other(anyhow::anyhow!(
                "cannot draw the plot '{}': {e}",
                target.path().display()
            ))
        })?;
    }
    if args.json {
        writeln!(console.out, "{}", report_json(&report)).or_other()?;
    } else {
        write_text(console.out.as_mut(), &report, plot_to.as_ref().map(PlotTarget::path))
            .or_other()?;
    }
    Ok(())
}

/// The object `simulate --json` prints (SPEC §7), with the seat names and the 95% intervals of
/// the win rates added.
fn report_json(report: &Report) -> serde_json::Value {
    let tally = &report.tally;
    let ci = tally.mean_rolls_interval(Z95);
    let win_ci: Vec<[f64; 2]> = (0..tally.seats())
        .map(|s| {
            let ci = tally.win_interval(s, Z95);
            [ci.lo, ci.hi]
        })
        .collect();
    serde_json::json!({
        "games": tally.games(),
        "seed": report.seed,
        "threads": report.threads,
        "players": report.seats.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        "mean_game_rolls": tally.mean_rolls(),
        "ci95_game_rolls": [ci.lo, ci.hi],
        "win_rate": tally.win_rates(),
        "ci95_win_rate": win_ci,
        "mean_turns_per_player": tally.mean_turns_per_player(),
        "mean_win_turn": (0..tally.seats()).map(|s| finite(tally.mean_win_turn(s))).collect::<Vec<_>>(),
        "win_turn_quantiles": (0..tally.seats()).map(|s| win_turn_quantiles(tally, s)).collect::<Vec<_>>(),
        "win_turn_counts": (0..tally.seats()).map(|s| tally.win_turn_counts(s)).collect::<Vec<_>>(),
        "rolls_per_second": report.rolls_per_second().round(),
        "complete": tally.games() == report.requested,
        "games_requested": report.requested,
        "rounds": report.rounds,
    })
}

/// The quantiles a seat's winning turn is summed up by, in text and JSON.
const WIN_TURN_QUANTILES: [(f64, &str); 5] =
    [(0.1, "10%"), (0.25, "25%"), (0.5, "median"), (0.75, "75%"), (0.9, "90%")];

/// `{"0.1": k, …}`: the turn by which that share of the seat's wins had come (null if none).
fn win_turn_quantiles(tally: &Tally, seat: usize) -> serde_json::Value {
    WIN_TURN_QUANTILES
        .iter()
        .map(|&(q, _)| (q.to_string(), serde_json::json!(tally.win_turn_quantile(seat, q))))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// A number for JSON: null for NaN (a seat that won no game has no mean turn).
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

fn write_text(out: &mut dyn Write, report: &Report, plot: Option<&Path>) -> std::io::Result<()> {
    let tally = &report.tally;
    let seats = report.seats.len();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    writeln!(
        out,
        "Simulated {} games on board {} with {} (seed {}).",
        tally.games(),
        report.board_name,
        plural(seats, "seat"),
        report.seed
    )?;
    writeln!(out, "Rules: {}.", report.rules)?;
    if tally.games() < report.requested {
        writeln!(
            out,
            "Partial: --max-seconds {} stopped the run after {} of {} games; the numbers are \
             exactly those of --games {} with this seed.",
            report.max_seconds.unwrap_or(0.0),
            tally.games(),
            report.requested,
            tally.games()
        )?;
    }
    if report.strategies {
        writeln!(
            out,
            "Each seat plays its kind's strategy (easy, greedy, hard or win; a human counts as hard), \
             in games played by the engine."
        )?;
    } else if report.choice != Choice::None {
        writeln!(
            out,
            "Every seat takes the first option: it always moves by the roll (the first die under \
             pick-die)."
        )?;
    }
    let ci = tally.mean_rolls_interval(Z95);
    writeln!(
        out,
        "\nGame length: {:.2} rolls on average (95% interval {:.2} to {:.2}), standard deviation \
         {:.2}; {:.2} turns per player.",
        tally.mean_rolls(),
        ci.lo,
        ci.hi,
        tally.std_dev_rolls(),
        tally.mean_turns_per_player()
    )?;
    if seats > 1 {
        match report.rounds {
            Some(k) => writeln!(
                out,
                "\nWins (first to finish, else furthest after {k} round{}, ties to the earlier \
                 seat), with 95% intervals:",
                if k == 1 { "" } else { "s" }
            )?,
            None => writeln!(out, "\nWins (first to finish), with 95% intervals:")?,
        }
        let mut table = Table::new(&[
            ("seat", Align::Left),
            ("wins", Align::Right),
            ("win rate", Align::Right),
            ("95% interval", Align::Right),
        ]);
        let intervals: Vec<(f64, f64)> = (0..seats)
            .map(|i| {
                let ci = tally.win_interval(i, Z95);
                (ci.lo, ci.hi)
            })
            .collect();
        for ((i, seat), interval) in
            report.seats.iter().enumerate().zip(percent_intervals(&intervals))
        {
            table.row([
                seat.name.clone(),
                tally.wins()[i].to_string(),
                percent(tally.win_rate(i)),
                interval,
            ]);
        }
        table.write(out)?;
        writeln!(out, "\nThe turn each seat won on (its own k-th turn), over the games it won:")?;
        let mut columns = vec![("seat", Align::Left), ("mean", Align::Right)];
        columns.extend(WIN_TURN_QUANTILES.iter().map(|&(_, name)| (name, Align::Right)));
        let mut table = Table::new(&columns);
        for (i, seat) in report.seats.iter().enumerate() {
            let mean = tally.mean_win_turn(i);
            let mut row = vec![
                seat.name.clone(),
                if mean.is_finite() { format!("{mean:.2}") } else { "-".to_owned() },
            ];
            row.extend(WIN_TURN_QUANTILES.iter().map(|&(q, _)| {
                tally.win_turn_quantile(i, q).map_or_else(|| "-".to_owned(), |k| k.to_string())
            }));
            table.row(row);
        }
        table.write(out)?;
    }
    writeln!(
        out,
        "\nSpeed: {:.1} million rolls per second ({} rolls in {:.3} s on {}).",
        report.rolls_per_second() / 1e6,
        tally.total_rolls(),
        report.seconds,
        plural(report.threads, "thread")
    )?;
    if let Some(path) = plot {
        writeln!(
            out,
            "Plot of the game length, the wins and the turns they came on written to {}.",
            path.display()
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use snl_engine::{Board, Preset, Rules, SeatKind};

    use super::*;

    fn seats(n: usize) -> Vec<Seat> {
        (0..n).map(|i| Seat::new(format!("Seat{i}"), SeatKind::Easy)).collect()
    }

    fn report(seats: &[Seat]) -> Report<'_> {
        let rules = Rules::default();
        let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        let tally = Simulator::new(&board, &rules, seats.len()).unwrap().run(1, 2000);
        Report {
            board_name: "classic",
            rules: rules.to_string(),
            choice: rules.choice,
            strategies: false,
            seats,
            seed: 1,
            threads: 2,
            tally,
            seconds: 0.5,
            requested: 2000,
            max_seconds: None,
            rounds: None,
        }
    }

    #[test]
    fn counts_must_be_whole_numbers_of_one_or_more() {
        assert_eq!(game_count("12"), Ok(12));
        assert!(game_count("0").unwrap_err().contains("'0'"));
        assert!(game_count("-3").is_err());
        assert!(game_count("1000000000001").unwrap_err().contains("at most 1000000000000"));
        assert_eq!(thread_count("1024"), Ok(1024));
        assert!(thread_count("1025").unwrap_err().contains("1 to 1024"));
    }

    #[test]
    fn the_progress_bar_is_hidden_when_stderr_is_not_a_terminal() {
        assert!(crate::common::progress_bar(100, false).is_hidden());
    }

    #[test]
    fn json_speed_is_rolls_over_seconds() {
        let seats = seats(2);
        let r = report(&seats);
        let v = report_json(&r);
        assert_eq!(v["rolls_per_second"], (r.tally.total_rolls() as f64 * 2.0).round());
        assert_eq!(v["players"], serde_json::json!(["Seat0", "Seat1"]));
        assert_eq!(v["win_rate"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn text_for_one_seat_has_no_table_of_wins() {
        let mut out = Vec::new();
        write_text(&mut out, &report(&seats(1)), None).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("with 1 seat (seed 1)"), "{text}");
        assert!(!text.contains("Wins") && !text.contains("Seat0"), "{text}");
        assert!(text.contains("on 2 threads)"), "{text}");
    }
}
