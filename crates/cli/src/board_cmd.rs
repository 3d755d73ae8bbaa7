//! `snl board`: show and validate boards.

use std::io::Write;

use clap::{Args, Subcommand};

use crate::{
    common::{CmdResult, GameArgs, OrFail},
    console::Console,
    display::draw_board,
};

/// Options of `snl board`.
#[derive(Args, Clone, Debug)]
pub(crate) struct BoardArgs {
    #[command(subcommand)]
    action: BoardAction,
}

#[derive(Subcommand, Clone, Debug)]
enum BoardAction {
    /// Draw a board as a grid (cell 1 bottom-left), with its snakes, ladders and rules.
    Show(ShowArgs),
    /// Check a board: print every problem and exit 2, or say it is valid.
    Validate(ShowArgs),
}

#[derive(Args, Clone, Debug)]
struct ShowArgs {
    /// A board file or preset name (the same as --board).
    #[arg(value_name = "BOARD")]
    file: Option<String>,
    #[command(flatten)]
    game: GameArgs,
    /// Print the board as one JSON object.
    #[arg(long)]
    json: bool,
}

impl ShowArgs {
    fn game(&self) -> GameArgs {
        let mut game = self.game.clone();
        if let Some(file) = &self.file {
            game.board.clone_from(file);
        }
        game
    }
}

pub(crate) fn run(args: &BoardArgs, console: &mut Console) -> CmdResult {
    match &args.action {
        BoardAction::Show(show) => {
            let setup = show.game().resolve()?;
            let board = &setup.board;
            if show.json {
                let spec = board.to_spec();
                let value = serde_json::json!({
                    "size": board.size(),
                    "width": board.width(),
                    "snakes": spec.snakes.iter().map(|s| serde_json::json!({"head": s.head, "tail": s.tail})).collect::<Vec<_>>(),
                    "ladders": spec.ladders.iter().map(|l| serde_json::json!({"foot": l.foot, "top": l.top})).collect::<Vec<_>>(),
                    "rules": setup.rules,
                });
                writeln!(console.out, "{value}").or_other()?;
            } else {
                write!(console.out, "{}", draw_board(board, &[], console.color)).or_other()?;
                writeln!(console.out, "Rules: {}", setup.rules).or_other()?;
            }
            Ok(())
        }
        BoardAction::Validate(check) => {
            let game = check.game();
            let setup = game.resolve()?;
            let board = &setup.board;
            let snakes = board.jumps().iter().filter(|j| j.is_snake()).count();
            let reach = board.reach(&setup.rules);
            let verdict = if !reach.finish_reachable {
                format!(
                    ", but cell {} cannot be reached from the start: it can be analysed, not played",
                    board.size()
                )
            } else if let Some(p) = reach.trapped.first() {
                format!(
                    ", but a token can be trapped on {p}, from where cell {} cannot be reached",
                    board.size()
                )
            } else {
                String::new()
            };
            let message = format!(
                "board '{}' is valid: {} cells, {} snakes, {} ladders{verdict}",
                game.board,
                board.size(),
                snakes,
                board.jumps().len() - snakes
            );
            if check.json {
                let value = serde_json::json!({
                    "valid": true,
                    "playable": reach.finish_reachable && reach.trapped.is_empty(),
                    "message": message,
                });
                writeln!(console.out, "{value}").or_other()?;
            } else {
                writeln!(console.out, "{message}").or_other()?;
            }
            Ok(())
        }
    }
}
