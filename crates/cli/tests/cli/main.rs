//! Drives the `snl` binary as a user would: arguments in, text, JSON and exit codes out.

#[macro_use]
mod util;

mod analyze;
mod board;
mod limits;
mod play;
mod records;
mod save;
mod simulate;
mod solve;
mod strategies;
mod tournament;
