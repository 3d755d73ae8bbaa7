//! `snl simulate`: not built yet.

use clap::Args;

use crate::{
    common::{CmdResult, Failure, GameArgs},
    console::Console,
};

/// Options of `snl simulate`.
#[derive(Args, Clone, Debug)]
pub(crate) struct SimulateArgs {
    #[command(flatten)]
    pub(crate) game: GameArgs,
}

pub(crate) fn run(_args: &SimulateArgs, _console: &mut Console) -> CmdResult {
    Err(Failure::other(anyhow::anyhow!("'snl simulate' is not available yet")))
}
