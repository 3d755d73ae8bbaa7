//! The command line: parse, dispatch, and map the outcome to an exit code (SPEC §7).

use std::{ffi::OsString, io::Write, process::ExitCode};

use clap::{Parser, Subcommand};

use crate::{
    analyze, board_cmd,
    common::{CmdResult, Failure},
    play, simulate, solve, tournament,
};
use crate::{records, replay, resume, serve, web};
use snl_tui::console::Console;
use snl_tui::join;

/// Snakes and Ladders: play in the terminal, and learn exactly what a board does.
///
/// With no command, `snl` plays a game (the same as `snl play`).
#[derive(Debug, Parser)]
#[command(name = "snl", version, args_conflicts_with_subcommands = true, max_term_width = 100)]
#[command(
    after_help = "Exit codes: 0 success, 1 other failure, 2 bad input, 3 the game could not go on, \
                  130 stopped by Ctrl-C."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: play::PlayArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play a game: people and computers, any board, any house rules.
    Play(play::PlayArgs),
    /// Fewest rolls from the start to the last cell, and one such path.
    Solve(solve::SolveArgs),
    /// Exact numbers for a board: expected length, distribution, each seat's chance to win.
    Analyze(analyze::AnalyzeArgs),
    /// Monte Carlo over many games, in parallel.
    Simulate(simulate::SimulateArgs),
    /// Computer strategies against each other: many games, seats rotated, win rates.
    Tournament(tournament::TournamentArgs),
    /// Show, validate, generate, convert and design boards.
    Board(board_cmd::BoardArgs),
    /// Go on with a recorded game: one cut off or stopped (default: the last unfinished one); a
    /// game of a series goes on with the rest of the series.
    Resume(resume::ResumeArgs),
    /// List the recorded games: number, date, board, seats, winner, state.
    Games(records::GamesArgs),
    /// Show a recorded or saved game again, event by event.
    Replay(replay::ReplayArgs),
    /// Every move of a recorded game: roll, from, to, jump, time.
    History(records::HistoryArgs),
    /// Each player's record: games, wins, win rate, rolls to finish, snakes, ladders, slides;
    /// with --dice, each player's dice against even chances.
    Stats(records::StatsArgs),
    /// Checks a recorded game's dice: every roll and wormhole draw re-derived from its seed.
    Verify(crate::fairness::VerifyArgs),
    /// Players ranked by wins, then win rate.
    Leaderboard(records::LeaderboardArgs),
    /// The online game server: rooms, seats, spectators, computer seats (SPEC §9).
    Serve(serve::ServeArgs),
    /// Take an open seat in a room of `snl serve` and play it here: snl join http://HOST:PORT/room/ID --name NAME.
    Join(join::JoinArgs),
    /// Watch a room of `snl serve`, told event by event: snl watch http://HOST:PORT/room/ID.
    Watch(join::WatchArgs),
    /// The browser game without a server: snl web export DIR writes it as a static site.
    Web(web::WebArgs),
}

/// Runs `snl` with these arguments (the first is the program name) on this console.
pub(crate) fn run(
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
    mut console: Console,
) -> ExitCode {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let outcome =
        dispatch(cli, &mut console).and_then(|()| console.out.flush().map_err(Failure::other));
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            // A closed pipe (`snl ... | head`) is the reader's choice, not a failure.
            if is_broken_pipe(&failure.error) {
                return ExitCode::SUCCESS;
            }
            let _ = console.out.flush();
            snl_tui::stderr_line!("snl: {failure}");
            ExitCode::from(failure.exit_code())
        }
    }
}

fn dispatch(cli: Cli, console: &mut Console) -> CmdResult {
    match cli.command {
        None => play::run(&cli.play, console, true),
        Some(Command::Play(args)) => play::run(&args, console, false),
        Some(Command::Solve(args)) => solve::run(&args, console),
        Some(Command::Analyze(args)) => analyze::run(&args, console),
        Some(Command::Simulate(args)) => simulate::run(&args, console),
        Some(Command::Tournament(args)) => tournament::run(&args, console),
        Some(Command::Board(args)) => board_cmd::run(&args, console),
        Some(Command::Resume(args)) => resume::run(&args, console),
        Some(Command::Games(args)) => records::games(&args, console),
        Some(Command::Replay(args)) => replay::run(&args, console),
        Some(Command::History(args)) => records::history(&args, console),
        Some(Command::Stats(args)) if args.dice => crate::fairness::dice_stats(&args, console),
        Some(Command::Stats(args)) => records::stats(&args, console),
        Some(Command::Verify(args)) => crate::fairness::verify(&args, console),
        Some(Command::Leaderboard(args)) => records::leaderboard(&args, console),
        Some(Command::Serve(args)) => serve::run(&args, console),
        Some(Command::Join(args)) => join::join(&args, console),
        Some(Command::Watch(args)) => join::watch(&args, console),
        Some(Command::Web(args)) => web::run(&args, console),
    }
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("snl").chain(args.iter().copied()))
    }

    #[test]
    fn bare_snl_and_flags_without_a_command_mean_play() {
        let cli = parse(&[]).unwrap();
        assert!(cli.command.is_none());
        let cli = parse(&["--seed", "7", "--fast"]).unwrap();
        assert_eq!(cli.play.game.seed, Some(7));
    }

    #[test]
    fn play_takes_every_common_option() {
        let cli = parse(&[
            "play",
            "--board",
            "kids",
            "--rules",
            "three-sixes",
            "--dice",
            "2d6",
            "--overshoot",
            "bounce",
            "--jumps",
            "chain",
            "--bonus",
            "top-face",
            "--max-bonus",
            "2",
            "--on-max",
            "void",
            "--finish",
            "all",
            "--choice",
            "none",
            "--start",
            "first-cell",
            "--player",
            "A:human",
            "--player",
            "B:easy",
            "--seed",
            "3",
            "--rolls",
            "1,2",
            "--events",
            "jsonl",
            "--json",
        ])
        .unwrap();
        let Some(Command::Play(p)) = cli.command else { panic!("not play") };
        assert_eq!(p.players, ["A:human", "B:easy"]);
        assert_eq!(p.game.max_bonus.as_deref(), Some("2"));
    }
}
