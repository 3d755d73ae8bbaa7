//! The analysis's integration tests, in one binary (one link for `cargo test`, as ripgrep's
//! `tests/tests.rs`): one module per subject. Fixtures are in `tests/fixtures/`.
//!
//! Proptest keeps the failing cases it finds in `tests/proptest-regressions/MODULE.txt` (its place
//! for a source file beside a `main.rs`), where they are run again first.

mod exact_dice;
mod exact_properties;
mod exact_published;
mod exact_race;
mod exact_rational;
mod exact_rational_effects;
mod exact_reference;
mod exact_tail;
mod one_rule;
mod puzzle_parsers;
mod rational;
mod simulate;
mod simulate_effects;
mod simulate_engine;
mod solve;
mod strategies;
mod win;
mod win_play;
mod win_rational;
