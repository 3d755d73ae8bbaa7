//! `snl tournament`: computer strategies play many games against each other, seats rotated so
//! that no strategy keeps the first move's advantage, in parallel; win rates with 95% intervals.
//!
//! The games are played by [`snl_analysis::tournament`], with the engine itself, so each
//! strategy plays exactly as in `snl play`; a seed gives the same result on any number of threads.

use std::{io::Write, time::Instant};

use clap::Args;
use snl_analysis::{
    simulate::Z95,
    strategy::Strategy,
    tournament::{Entrant, Standings, Tournament, TournamentError},
};
use snl_engine::{Choice, SetupError};

use crate::{
    common::{
        CmdResult, Failure, GameArgs, OrFail, fresh_seed, game_count, parse_seats, thread_count,
        worker_pool,
    },
    format::{Align, Table, percent, percent_intervals},
    long_run::{LongRunArgs, OnCtrlC},
};
use snl_tui::console::Console;

/// Options of `snl tournament`.
#[derive(Args, Clone, Debug)]
pub(crate) struct TournamentArgs {
    #[command(flatten)]
    pub(crate) game: GameArgs,
    /// A player as NAME:KIND, KIND one of easy, greedy, hard, win; repeat for each player
    /// (default: one of easy, greedy and hard); at most 256 (2 to 4 when one is win).
    #[arg(long = "player", value_name = "NAME:KIND", help_heading = "Tournament")]
    pub(crate) players: Vec<String>,
    /// Games to play, 1 to 1000000000000; each player sits in each seat equally often over every
    /// n games.
    #[arg(long, value_name = "N", default_value_t = 10_000, allow_negative_numbers = true, value_parser = game_count,
          help_heading = "Tournament")]
    pub(crate) games: u64,
    /// Worker threads (default: all cores). The result for a seed is the same for any number.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = thread_count, help_heading = "Tournament")]
    pub(crate) threads: Option<usize>,
    /// Print one JSON object with the results instead of text.
    #[arg(long, help_heading = "Tournament")]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) long: LongRunArgs,
}

/// The players: `--player` seats, each a computer, or one of each strategy.
fn entrants(players: &[String]) -> CmdResult<Vec<Entrant>> {
    if players.is_empty() {
        return Ok(Strategy::SOLO
            .iter()
            .map(|&s| Entrant::new(capitalized(s.as_str()), s))
            .collect());
    }
    let seats = parse_seats(players)?;
    seats
        .into_iter()
        .map(|seat| match Strategy::of_kind(seat.kind) {
            Some(strategy) => Ok(Entrant::new(seat.name, strategy)),
            None => Err(Failure::bad(anyhow::anyhow!(
                "player '{}:human' cannot play a tournament: its players are computers (easy, \
                 greedy, hard or win)",
                seat.name
            ))),
        })
        .collect()
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
}

/// What was played and how it went: everything the outputs print.
struct Report<'a> {
    board_name: &'a str,
    rules: String,
    choice: Choice,
    players: &'a [Entrant],
    seed: u64,
    threads: usize,
    standings: Standings,
    seconds: f64,
    /// Games asked for: more than were played when `--max-seconds` stopped the tournament.
    requested: u64,
    max_seconds: Option<f64>,
}

pub(crate) fn run(args: &TournamentArgs, console: &mut Console) -> CmdResult {
    // From here Ctrl-C stops the games (and the time limit counts).
    let budget = args.long.start(OnCtrlC::Stop, console.stderr_tty);
    let setup = args.game.resolve()?;
    setup.analysable(snl_analysis::Work::Strategy)?;
    let players = entrants(&args.players)?;
    let made = Tournament::new_within(&setup.board, &setup.rules, players.clone(), &budget);
    if let Err(TournamentError::Analysis(snl_analysis::exact::AnalysisError::Stopped)) = &made {
        if budget.is_cancelled() {
            return Err(Failure::interrupted(anyhow::anyhow!(
                "interrupted by Ctrl-C while the hard strategy was being worked out, before any game"
            )));
        }
        return crate::long_run::no_game_in_time(
            args.long.max_seconds,
            args.json,
            &mut console.out,
        );
    }
    let tournament = made.map_err(|e| match e {
        TournamentError::Setup(e @ (SetupError::Unwinnable { .. } | SetupError::Trap { .. })) => {
            Failure::stuck(anyhow::anyhow!(
                "board '{}' cannot be played with these rules: {e}",
                setup.board_name
            ))
        }
        TournamentError::Setup(e) => Failure::bad(e),
        TournamentError::Win(e) => {
            Failure::bad(anyhow::anyhow!("board '{}': {e}", setup.board_name))
        }
        other => Failure::other(other),
    })?;
    let seed = args.game.seed.unwrap_or_else(fresh_seed);
    let pool = worker_pool(args.threads)?;
    let bar = args.long.progress(args.games, "games", console.stderr_tty, !args.json);
    let started = Instant::now();
    let standings =
        pool.install(|| tournament.run_within(seed, args.games, &|n| bar.inc(n), &budget));
    let seconds = started.elapsed().as_secs_f64();
    bar.finish();
    if budget.is_cancelled() {
        return Err(Failure::interrupted(anyhow::anyhow!(
            "interrupted by Ctrl-C after {} of {} games",
            standings.games(),
            args.games
        )));
    }
    let report = Report {
        board_name: &setup.board_name,
        rules: setup.rules.to_string(),
        choice: setup.rules.choice,
        players: &players,
        seed,
        threads: pool.current_num_threads(),
        standings,
        seconds,
        requested: args.games,
        max_seconds: args.long.max_seconds,
    };
    if args.json {
        writeln!(console.out, "{}", report_json(&report)).or_other()?;
    } else {
        write_text(console.out.as_mut(), &report).or_other()?;
    }
    Ok(())
}

/// Wins of every player of each strategy together, for strategies that more than one player
/// plays (and every strategy, for the JSON).
fn by_strategy(report: &Report) -> Vec<(Strategy, u64, usize)> {
    Strategy::ALL
        .iter()
        .filter_map(|&s| {
            let mine: Vec<usize> =
                (0..report.players.len()).filter(|&p| report.players[p].strategy == s).collect();
            let wins = mine.iter().map(|&p| report.standings.wins()[p]).sum();
            (!mine.is_empty()).then_some((s, wins, mine.len()))
        })
        .collect()
}

/// The object `tournament --json` prints.
fn report_json(report: &Report) -> serde_json::Value {
    let s = &report.standings;
    let games = s.games();
    let players: Vec<serde_json::Value> = report
        .players
        .iter()
        .enumerate()
        .map(|(p, e)| {
            let ci = s.win_interval(p, Z95);
            serde_json::json!({
                "name": e.name,
                "strategy": e.strategy.as_str(),
                "wins": s.wins()[p],
                "win_rate": s.win_rate(p),
                "ci95_win_rate": [ci.lo, ci.hi],
                "mean_rank": s.mean_rank(p),
                "mean_turns": s.mean_turns(p),
            })
        })
        .collect();
    let strategies: serde_json::Map<String, serde_json::Value> = by_strategy(report)
        .into_iter()
        .map(|(strategy, wins, count)| {
            let rate = wins as f64 / games as f64;
            let ci = wilson(wins, games);
            let value = serde_json::json!({
                "players": count,
                "wins": wins,
                "win_rate": rate,
                "ci95_win_rate": [ci.0, ci.1],
            });
            (strategy.as_str().to_owned(), value)
        })
        .collect();
    let ci = s.mean_rolls_interval(Z95);
    serde_json::json!({
        "games": games,
        "seed": report.seed,
        "threads": report.threads,
        "board": report.board_name,
        "rules": report.rules,
        "players": players,
        "strategies": strategies,
        "seat_wins": s.seat_wins(),
        "mean_game_rolls": s.mean_rolls(),
        "ci95_game_rolls": [ci.lo, ci.hi],
        "games_per_second": if report.seconds > 0.0 { (games as f64 / report.seconds).round() } else { 0.0 },
        "complete": games == report.requested,
        "games_requested": report.requested,
    })
}

/// The 95% Wilson score interval (E. B. Wilson, JASA 1927) of `wins` out of `games`, as
/// [`Standings::win_interval`] gives for one player.
fn wilson(wins: u64, games: u64) -> (f64, f64) {
    let n = games as f64;
    let p = wins as f64 / n;
    let z2 = Z95 * Z95;
    let d = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / d;
    let half = Z95 / d * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((center - half).max(0.0), (center + half).min(1.0))
}

fn write_text(out: &mut dyn Write, report: &Report) -> std::io::Result<()> {
    let s = &report.standings;
    let n = report.players.len();
    writeln!(
        out,
        "Tournament of {} games on board {} between {n} players (seed {}).",
        s.games(),
        report.board_name,
        report.seed
    )?;
    writeln!(out, "Rules: {}.", report.rules)?;
    if s.games() < report.requested {
        writeln!(
            out,
            "Partial: --max-seconds {} stopped the tournament after {} of {} games; the numbers \
             are exactly those of --games {} with this seed.",
            report.max_seconds.unwrap_or(0.0),
            s.games(),
            report.requested,
            s.games()
        )?;
    }
    writeln!(out, "Seats rotate every game, so each player moves first in 1 game of {n}.")?;
    if report.choice == Choice::None {
        writeln!(
            out,
            "These rules offer no choice, so every strategy plays alike: try --choice may-pass or \
             --choice pick-die."
        )?;
    }
    let mut table = Table::new(&[
        ("player", Align::Left),
        ("strategy", Align::Left),
        ("wins", Align::Right),
        ("win rate", Align::Right),
        ("95% interval", Align::Right),
        ("mean rank", Align::Right),
        ("turns", Align::Right),
    ]);
    let intervals: Vec<(f64, f64)> = (0..report.players.len())
        .map(|p| {
            let ci = s.win_interval(p, Z95);
            (ci.lo, ci.hi)
        })
        .collect();
    for ((p, e), interval) in report.players.iter().enumerate().zip(percent_intervals(&intervals)) {
        table.row([
            e.name.clone(),
            e.strategy.as_str().to_owned(),
            s.wins()[p].to_string(),
            percent(s.win_rate(p)),
            interval,
            format!("{:.2}", s.mean_rank(p)),
            format!("{:.1}", s.mean_turns(p)),
        ]);
    }
    writeln!(out)?;
    table.write(out)?;
    let shared: Vec<(Strategy, u64, usize)> =
        by_strategy(report).into_iter().filter(|&(_, _, count)| count > 1).collect();
    if !shared.is_empty() {
        writeln!(out, "\nBy strategy (its players together):")?;
        let mut table = Table::new(&[
            ("strategy", Align::Left),
            ("players", Align::Right),
            ("wins", Align::Right),
            ("win rate", Align::Right),
            ("95% interval", Align::Right),
        ]);
        let intervals: Vec<(f64, f64)> =
            shared.iter().map(|&(_, wins, _)| wilson(wins, s.games())).collect();
        for ((strategy, wins, count), interval) in
            shared.into_iter().zip(percent_intervals(&intervals))
        {
            table.row([
                strategy.as_str().to_owned(),
                count.to_string(),
                wins.to_string(),
                percent(wins as f64 / s.games() as f64),
                interval,
            ]);
        }
        table.write(out)?;
    }
    let ci = s.mean_rolls_interval(Z95);
    writeln!(
        out,
        "\nGames lasted {:.2} rolls on average (95% interval {:.2} to {:.2}); {:.2} s on {} \
         thread{}.",
        s.mean_rolls(),
        ci.lo,
        ci.hi,
        report.seconds,
        report.threads,
        if report.threads == 1 { "" } else { "s" }
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_players_one_of_each_strategy_plays() {
        let players = entrants(&[]).unwrap();
        let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["Easy", "Greedy", "Hard"]);
    }

    #[test]
    fn a_person_cannot_enter_a_tournament() {
        let err = entrants(&["Ann:human".to_owned(), "B:hard".to_owned()]).unwrap_err();
        assert_eq!(err.exit_code(), 2);
        assert!(err.to_string().contains("'Ann:human' cannot play a tournament"), "{err}");
    }

    #[test]
    fn counts_and_threads_are_checked() {
        assert_eq!(game_count("5"), Ok(5));
        assert!(game_count("0").is_err());
        assert!(thread_count("0").unwrap_err().contains("1 to 1024"));
    }

    #[test]
    fn the_strategy_interval_holds_its_rate() {
        let (lo, hi) = wilson(300, 1000);
        assert!(lo < 0.3 && 0.3 < hi && hi - lo < 0.06, "{lo} {hi}");
    }
}
