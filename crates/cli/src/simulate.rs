//! `snl simulate`: Monte Carlo over many games, in parallel, with a progress bar.
//!
//! The games are played by [`snl_analysis::simulate`], whose results for a seed do not depend on
//! the number of threads; this module reads the options, shows progress on a terminal, and prints
//! the tally as text, JSON (SPEC §7) or an SVG histogram.

use std::{
    io::Write,
    path::{Path, PathBuf},
    time::Instant,
};

use clap::Args;
use snl_analysis::{
    simulate::{Simulator, Tally, Z95},
    strategy::Strategy,
    tournament::{Entrant, Tournament},
};
use snl_engine::{Choice, Seat};

use crate::{
    common::{
        CmdResult, Failure, GameArgs, OrFail, at_least_one, default_computer_seats, fresh_seed,
        parse_seats, progress_bar, thread_count, worker_pool,
    },
    console::Console,
};

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
    /// Games to play.
    #[arg(long, value_name = "N", default_value_t = 100_000, allow_negative_numbers = true, value_parser = at_least_one::<u64>,
          help_heading = "Simulation")]
    pub(crate) games: u64,
    /// Worker threads (default: all cores). The result for a seed is the same for any number.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = thread_count, help_heading = "Simulation")]
    pub(crate) threads: Option<usize>,
    /// Print one JSON object with the results instead of text.
    #[arg(long, help_heading = "Simulation")]
    pub(crate) json: bool,
    /// Also draw a histogram of the game length (in rolls) into this SVG file.
    #[arg(long, value_name = "FILE.svg", help_heading = "Simulation")]
    pub(crate) plot: Option<PathBuf>,
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
}

impl Report<'_> {
    fn rolls_per_second(&self) -> f64 {
        if self.seconds > 0.0 { self.tally.total_rolls() as f64 / self.seconds } else { 0.0 }
    }
}

pub(crate) fn run(args: &SimulateArgs, console: &mut Console) -> CmdResult {
    let setup = args.game.resolve()?;
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
        let tournament = Tournament::new(&setup.board, &setup.rules, players).map_err(|e| {
            Failure::other(anyhow::anyhow!("board '{}' cannot be simulated: {e}", setup.board_name))
        })?;
        Some(tournament)
    } else {
        None
    };
    let bar = progress_bar(args.games, console.stderr_tty);
    let started = Instant::now();
    let tally = match &strategies {
        Some(t) => pool.install(|| t.simulate_with_progress(seed, args.games, &|n| bar.inc(n))),
        None => pool.install(|| sim.run_with_progress(seed, args.games, &|n| bar.inc(n))),
    };
    let seconds = started.elapsed().as_secs_f64();
    bar.finish_and_clear();

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
    };
    if let Some(path) = &args.plot {
        plot_lengths(path, &report).map_err(|e| {
            Failure::other(anyhow::anyhow!("cannot draw the histogram '{}': {e}", path.display()))
        })?;
    }
    if args.json {
        writeln!(console.out, "{}", report_json(&report)).or_other()?;
    } else {
        write_text(console.out.as_mut(), &report, args.plot.as_deref()).or_other()?;
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
        "rolls_per_second": report.rolls_per_second().round(),
    })
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
    if report.strategies {
        writeln!(
            out,
            "Each seat plays its kind's strategy (easy, greedy or hard; a human counts as hard), \
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
    let width = report.seats.iter().map(|s| s.name.chars().count()).max().unwrap_or(0);
    if seats > 1 {
        writeln!(out, "\nWins (first to finish), with 95% intervals:")?;
    }
    for (i, seat) in report.seats.iter().enumerate().filter(|_| seats > 1) {
        let ci = tally.win_interval(i, Z95);
        writeln!(
            out,
            "  {:<width$}  {:>6.2}%  ({:.2}% to {:.2}%)",
            seat.name,
            100.0 * tally.win_rate(i),
            100.0 * ci.lo,
            100.0 * ci.hi
        )?;
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
        writeln!(out, "Histogram of the game length written to {}.", path.display())?;
    }
    Ok(())
}

/// Draws the distribution of game lengths (share of games per number of rolls) as an SVG file,
/// with the mean marked. The longest 0.1% of games are left out so the shape stays readable.
fn plot_lengths(path: &Path, report: &Report) -> Result<(), Box<dyn std::error::Error>> {
    use plotters::prelude::*;

    // plotters lays text out with a font of its own: register one that is compiled in.
    plotters::style::register_font(
        "sans-serif",
        FontStyle::Normal,
        epaint_default_fonts::UBUNTU_LIGHT,
    )
    .map_err(|_| "the built-in font could not be loaded")?;
    let tally = &report.tally;
    let counts = tally.length_counts();
    let games = tally.games() as f64;
    let keep = (games * 0.999).ceil() as u64;
    let mut seen = 0;
    let last = counts
        .iter()
        .position(|&c| {
            seen += c;
            seen >= keep
        })
        .unwrap_or(counts.len().saturating_sub(1));
    let share = |k: usize| counts[k] as f64 / games;
    let top = (0..=last).map(share).fold(0.0, f64::max) * 1.1;

    let root = SVGBackend::new(path, (900, 520)).into_drawing_area();
    root.fill(&WHITE)?;
    let seats = report.seats.len();
    let caption = format!(
        "Game length on {}: {} games, {seats} seat{}",
        report.board_name,
        tally.games(),
        if seats == 1 { "" } else { "s" }
    );
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d(0_f64..(last + 1) as f64, 0_f64..top.max(f64::MIN_POSITIVE))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("rolls in the game")
        .y_desc("share of games")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{:.1}%", 100.0 * y))
        .draw()?;
    chart.draw_series((0..=last).filter(|&k| counts[k] > 0).map(|k| {
        let x = k as f64;
        Rectangle::new([(x, 0.0), (x + 1.0, share(k))], BLUE.mix(0.6).filled())
    }))?;
    let mean = tally.mean_rolls() + 0.5; // bar k spans k..k+1
    chart
        .draw_series(LineSeries::new([(mean, 0.0), (mean, top)], RED.stroke_width(2)))?
        .label(format!("mean {:.2} rolls", tally.mean_rolls()))
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], RED.stroke_width(2)));
    chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw()?;
    root.present()?;
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
        }
    }

    #[test]
    fn counts_must_be_whole_numbers_of_one_or_more() {
        assert_eq!(at_least_one::<u64>("12"), Ok(12));
        assert!(at_least_one::<u64>("0").unwrap_err().contains("'0'"));
        assert!(at_least_one::<u64>("-3").is_err());
        assert_eq!(thread_count("1024"), Ok(1024));
        assert!(thread_count("1025").unwrap_err().contains("1 to 1024"));
    }

    #[test]
    fn the_progress_bar_is_hidden_when_stderr_is_not_a_terminal() {
        assert!(progress_bar(100, false).is_hidden());
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
