//! `snl analyze`: not built yet.

use clap::Args;

use crate::{
    common::{CmdResult, Failure, GameArgs},
    console::Console,
};

/// Options of `snl analyze`.
#[derive(Args, Clone, Debug)]
pub(crate) struct AnalyzeArgs {
    #[command(flatten)]
    pub(crate) game: GameArgs,
}

pub(crate) fn run(_args: &AnalyzeArgs, _console: &mut Console) -> CmdResult {
    Err(Failure::other(anyhow::anyhow!("'snl analyze' is not available yet")))
}
