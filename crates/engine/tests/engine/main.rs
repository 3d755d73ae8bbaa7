//! The engine's integration tests, in one binary (one link for `cargo test`, as ripgrep's
//! `tests/tests.rs`): one module per subject, `common` the board and rules they share.
//!
//! Proptest keeps the failing cases it finds in `tests/proptest-regressions/MODULE.txt` (its place
//! for a source file beside a `main.rs`), where they are run again first.

mod common;

mod dice_fairness;
mod effects;
mod parsers;
mod properties;
mod rules;
mod turn_clock;
