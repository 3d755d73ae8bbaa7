//! Analysis of Snakes and Ladders boards: fewest rolls, exact Markov chains, strategies and
//! simulation.
//!
//! Built on [`snl_engine`]; it reads boards and rules and does no I/O.
//!
//! ```
//! use snl_analysis::{exact, simulate::Simulator, solve};
//! use snl_engine::{Board, Preset, Rules};
//!
//! let rules = Rules::default();
//! let board = Board::new(&Preset::MiltonBradley.spec(), &rules)?;
//!
//! // Fewest rolls from the start, and one shortest path.
//! assert_eq!(solve::solve(&board, &rules).min_rolls(), Some(7));
//!
//! // The exact chain: 39.2251 expected moves (Althoen, King & Schilling 1993).
//! let analysis = exact::analyze(&board, &rules)?;
//! assert!((analysis.expected_turns - 39.2251).abs() < 1e-4);
//! let two = analysis.seats(2);
//! assert!(two.win_probability[0] > 0.5); // the first seat's small advantage
//!
//! // Monte Carlo, the same tally for a seed whatever the thread count.
//! let tally = Simulator::new(&board, &rules, 1)?.run(7, 10_000);
//! assert_eq!(tally.games(), 10_000);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! - [`solve`]: breadth-first search for the fewest rolls (and turns), the path, puzzle formats in
//!   [`puzzles`], large random boards in [`generate`].
//! - [`exact`]: the turn-level Markov chain for any rules: expectations, the distribution of game
//!   length, landings per cell, each seat's chance to win.
//! - [`strategy`]: easy, greedy and hard (optimal) decisions under the choice rules.
//! - [`simulate`] and [`tournament`]: parallel Monte Carlo, deterministic for a seed.
//! - [`design`]: boards searched for a game length and fairness asked for.
//! - [`commitment`]: the commit–reveal derivation of an online room's dice seed.
//! - [`fairness`]: dice counts against even chances (chi-square and its p-value).
//! - [`Budget`]: the caller's cancel flag and deadline, which long work checks to stop early.

pub use snl_engine;

mod support;
pub use support::{Unsupported, Work, check_supported, check_supported_for, check_supported_rules};

mod budget;
pub use budget::Budget;

pub mod commitment;
pub mod design;
pub mod exact;
pub mod fairness;

pub mod generate;
pub mod puzzles;
pub mod simulate;
pub mod solve;
pub mod strategy;
pub mod tournament;
