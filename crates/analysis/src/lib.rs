//! Analysis of Snakes and Ladders boards: fewest rolls, exact Markov chains and simulation.
//!
//! Built on [`snl_engine`]; it reads boards and rules and never plays through I/O.

pub use snl_engine;

pub mod exact;

pub mod generate;
pub mod puzzles;
pub mod simulate;
pub mod solve;
pub mod strategy;
pub mod tournament;
