//! `snl solve`: not built yet.

use clap::Args;

use crate::{
    common::{CmdResult, Failure, GameArgs},
    console::Console,
};

/// Options of `snl solve`.
#[derive(Args, Clone, Debug)]
pub(crate) struct SolveArgs {
    #[command(flatten)]
    pub(crate) game: GameArgs,
}

pub(crate) fn run(_args: &SolveArgs, _console: &mut Console) -> CmdResult {
    Err(Failure::other(anyhow::anyhow!("'snl solve' is not available yet")))
}
