//! The session's integration tests, in one binary (one link for `cargo test`, as ripgrep's
//! `tests/tests.rs`): one module per subject.

mod clocks;
mod dice;
mod effects;
mod numbering;
