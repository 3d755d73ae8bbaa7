//! The `snl` command: thin glue between the command line, the engine and the analysis crate.

#![warn(clippy::print_stderr, clippy::print_stdout)]

mod after_turn;
mod analyze;
mod app;
mod board_cmd;
mod board_design;
mod common;
mod fairness;
mod format;
mod interrupt;
mod long_run;
mod play;
mod plot;
mod records;
mod replay;
mod resume;
mod series;
mod serve;
mod session;
mod setup;
mod simulate;
mod solve;
mod table;
mod tournament;
mod web;

use std::process::ExitCode;

fn main() -> ExitCode {
    let console = snl_tui::console::Console::from_environment();
    app::run(std::env::args_os(), console)
}
