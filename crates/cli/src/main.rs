//! The `snl` command: thin glue between the command line, the engine and the analysis crate.

mod analyze;
mod app;
mod board_cmd;
mod board_design;
mod clocks;
mod common;
mod console;
mod display;
mod format;
mod interrupt;
mod keyboard;
mod long_run;
mod online;
mod play;
mod plot;
mod prompts;
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
mod tui;

use std::process::ExitCode;

fn main() -> ExitCode {
    let console = console::Console::from_environment();
    app::run(std::env::args_os(), console)
}
