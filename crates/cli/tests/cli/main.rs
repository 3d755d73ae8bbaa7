//! Drives the `snl` binary as a user would: arguments in, text, JSON and exit codes out.

#[macro_use]
mod util;

mod achievements;
mod analyze;
mod board;
mod clocks;
mod console_rules;
mod database;
mod design;
mod effects;
mod fairness;
mod limits;
mod long_run;
mod online;
mod play;
mod records;
mod replay_online;
mod save;
mod save_edits;
mod series;
mod serve;
mod simulate;
mod solve;
mod strategies;
mod table;
mod tournament;
mod tui;
mod web;
mod win_seats;
