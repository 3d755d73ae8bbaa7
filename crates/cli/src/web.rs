//! `snl web export DIR`: the browser game as a static site (issue 27, point 4): the pages, the
//! assets and the engine in the page (engine.wasm), from the files `snl serve` embeds, written into
//! DIR for any static file server. The game on this device, the board editor (its check and exact
//! analysis by the engine in the page) and watching a game on this device again work there; online
//! rooms and recorded games need `snl serve`, and their parts of the pages say so.

use std::{io::Write, path::PathBuf};

use clap::{Args, Subcommand};
use snl_tui::console::Console;

use crate::common::{CmdResult, Failure};

/// Options of `snl web`.
#[derive(Args, Clone, Debug)]
pub(crate) struct WebArgs {
    #[command(subcommand)]
    command: WebCommand,
}

#[derive(Subcommand, Clone, Debug)]
enum WebCommand {
    /// Write the pages, assets and engine into DIR, a static site (served by any static file
    /// server, as `python3 -m http.server`).
    Export {
        /// The folder to write into (made when missing; files already there are replaced).
        dir: PathBuf,
    },
}

/// Runs `snl web`.
pub(crate) fn run(args: &WebArgs, console: &mut Console) -> CmdResult {
    match &args.command {
        WebCommand::Export { dir } => {
            if dir.exists() && !dir.is_dir() {
                let shown: String = dir.display().to_string().chars().take(40).collect();
                return Err(Failure::bad(anyhow::anyhow!("'{shown}' is a file, not a folder")));
            }
            let written =
                snl_server::export_web(dir).map_err(|e| Failure::other(anyhow::anyhow!(e)))?;
            writeln!(
                console.out,
                "wrote {} files into {}: serve that folder with any static file server",
                written.len(),
                dir.display()
            )
            .map_err(Failure::other)?;
            Ok(())
        }
    }
}
