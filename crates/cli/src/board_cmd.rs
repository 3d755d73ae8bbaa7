//! `snl board`: show, validate, generate, convert and design boards.

use std::io::Write;

use clap::{Args, Subcommand};

use crate::{
    common::{CmdResult, GameArgs, OrFail},
    format::{counted, shown_path},
};
use snl_tui::{console::Console, display::draw_board};

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
    /// Make a random board, as large as you like, as a board file or a LeetCode 909 matrix.
    Generate(GenerateArgs),
    /// Convert a board between a board file (TOML) and a LeetCode 909 matrix.
    Convert(ConvertArgs),
    /// Search for a board with the expected game length you ask for, and fair seats if asked.
    Design(crate::board_design::DesignArgs),
}

#[derive(Args, Clone, Debug)]
#[command(after_help = "\
Examples:
  snl board convert --leetcode '[[-1,-1],[-1,3]]'          # to a board file with LeetCode's rules
  snl board convert classic --format leetcode -o classic.json")]
struct ConvertArgs {
    /// A board file or preset name to convert (the same as --board).
    #[arg(value_name = "BOARD", conflicts_with = "leetcode")]
    file: Option<String>,
    /// Read a LeetCode 909 matrix instead: inline JSON, a file, or - for standard input.
    #[arg(long, value_name = "JSON_OR_FILE")]
    leetcode: Option<String>,
    #[command(flatten)]
    game: GameArgs,
    /// What to write.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "toml")]
    format: BoardFormat,
    /// Write to this file instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<std::path::PathBuf>,
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
        BoardAction::Generate(generate) => generate_board(generate, console),
        BoardAction::Convert(convert) => convert_board(convert, console),
        BoardAction::Design(design) => crate::board_design::run(design, console),
        BoardAction::Show(show) => {
            let setup = show.game().resolve()?;
            let board = &setup.board;
            if show.json {
                let spec = board.to_spec();
                let mut value = serde_json::json!({
                    "size": board.size(),
                    "width": board.width(),
                    "snakes": spec.snakes.iter().map(|s| serde_json::json!({"head": s.head, "tail": s.tail})).collect::<Vec<_>>(),
                    "ladders": spec.ladders.iter().map(|l| serde_json::json!({"foot": l.foot, "top": l.top})).collect::<Vec<_>>(),
                    "rules": setup.rules,
                });
                if !spec.cells.is_empty() {
                    value["cell"] = serde_json::to_value(&spec.cells).or_other()?;
                }
                writeln!(console.out, "{value}").or_other()?;
            } else {
                write!(console.out, "{}", draw_board(board, &[], console.color)).or_other()?;
                writeln!(console.out, "Rules: {}", snl_words::rules_in_words(&setup.rules))
                    .or_other()?;
            }
            Ok(())
        }
        BoardAction::Validate(check) => {
            let game = check.game();
            let setup = match game.resolve() {
                Ok(setup) => setup,
                Err(failure) if check.json => return Err(invalid_json(failure, console)),
                Err(failure) => return Err(failure),
            };
            let board = &setup.board;
            let reach = board.reach(&setup.rules);
            let verdict = snl_words::reach_verdict(&reach, board.size());
            let message = format!(
                "board '{}' is valid: {}{verdict}",
                game.board,
                snl_words::board_summary(board)
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

/// `board validate --json` on a board that is not valid: `{"valid": false, "message", "problems"}`
/// on standard output (each problem one string; a file that cannot be read or parsed is one
/// problem), and the failure goes on to standard error and the exit code.
fn invalid_json(failure: crate::common::Failure, console: &mut Console) -> crate::common::Failure {
    let board = failure.error.chain().find_map(|e| e.downcast_ref::<snl_engine::BoardError>());
    let file =
        failure.error.chain().find_map(|e| e.downcast_ref::<crate::common::BoardFileProblems>());
    let problems: Vec<String> = match (board, file) {
        (Some(e), _) => e.problems.iter().map(ToString::to_string).collect(),
        (None, Some(e)) => e.problems.clone(),
        (None, None) => vec![failure.to_string()],
    };
    let value = serde_json::json!({
        "valid": false,
        "message": failure.to_string(),
        "problems": problems,
    });
    match writeln!(console.out, "{value}").and_then(|()| console.out.flush()) {
        Ok(()) => failure,
        Err(e) => crate::common::Failure::other(e),
    }
}

/// The formats `snl board generate` writes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum BoardFormat {
    /// A board file (`--board FILE.toml`).
    Toml,
    /// A LeetCode 909 matrix (`snl solve --leetcode FILE`); the size must be a square.
    Leetcode,
}

/// Options of `snl board generate`.
#[derive(Args, Clone, Debug)]
#[command(after_help = "\
The same numbers always give the same board: with --format toml, the board of \
--board random --size N --snakes S --ladders L --seed X. Boards up to 10^6 cells are redrawn \
until they can be won (under standard rules, or LeetCode's for --format leetcode). No snake or \
ladder is shorter than --min-jump cells (3 by default, so none is a mere step aside).

Example: a 3000x3000 LeetCode board, one jump per 20 cells (about 30 MB):
  snl board generate --size 9000000 --snakes 225000 --ladders 225000 --format leetcode -o big.json")]
struct GenerateArgs {
    /// Cells on the board, at most 10000000 (for --format leetcode a square: 36, 100, 1000000, ...).
    #[arg(long, value_name = "N", default_value_t = 100, allow_negative_numbers = true,
        value_parser = crate::common::cell_count)]
    size: u32,
    /// Snakes to place.
    #[arg(long, value_name = "S", default_value_t = 8, allow_negative_numbers = true,
        value_parser = crate::common::zero_or_more::<u32>)]
    snakes: u32,
    /// Ladders to place.
    #[arg(long, value_name = "L", default_value_t = 8, allow_negative_numbers = true,
        value_parser = crate::common::zero_or_more::<u32>)]
    ladders: u32,
    /// Cell effects to place (skip, extra, shield, wormhole; 4 or more give each kind); board
    /// files only.
    #[arg(long, value_name = "K", default_value_t = 0, allow_negative_numbers = true,
        value_parser = crate::common::zero_or_more::<u32>)]
    effects: u32,
    /// No snake or ladder shorter than this many cells: 1 (any length) to a quarter of the
    /// cells (or 3).
    #[arg(long, value_name = "CELLS", default_value_t = snl_engine::RandomBoard::DEFAULT_MIN_JUMP,
        allow_negative_numbers = true, value_parser = crate::common::zero_or_more::<u32>)]
    min_jump: u32,
    /// Seed of the draw.
    #[arg(long, value_name = "X", default_value_t = 0, allow_negative_numbers = true,
        value_parser = crate::common::zero_or_more::<u64>)]
    seed: u64,
    /// What to write.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "toml")]
    format: BoardFormat,
    /// Write to this file instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<std::path::PathBuf>,
}

/// `snl board generate`: draws the board as `--board random` does and writes it.
fn generate_board(args: &GenerateArgs, console: &mut Console) -> CmdResult {
    use snl_analysis::puzzles::{LeetCode, puzzle_rules};
    use snl_engine::{Jump, RandomBoard, Rules};

    let params = RandomBoard {
        size: args.size,
        snakes: args.snakes,
        ladders: args.ladders,
        seed: args.seed,
        min_jump: args.min_jump,
    };
    params.check().or_bad()?;
    params.check_effects(args.effects).or_bad()?;
    crate::common::check_board_size(params.size)?;
    if args.format == BoardFormat::Leetcode && args.effects > 0 {
        return Err(crate::common::Failure::bad(anyhow::anyhow!(
            "--effects {} cannot be written as a LeetCode matrix, which has snakes and ladders \
             only: use --format toml",
            args.effects
        )));
    }
    let side = f64::from(args.size).sqrt().floor() as u32;
    if args.format == BoardFormat::Leetcode && side * side != args.size {
        return Err(crate::common::Failure::bad(anyhow::anyhow!(
            "size {} is not a square, but a LeetCode board is n×n: use for example --size {} or {}",
            args.size,
            side * side,
            (side + 1) * (side + 1)
        )));
    }
    let mut file;
    let out: &mut dyn Write = match &args.output {
        None => &mut console.out,
        Some(path) => {
            let created = std::fs::File::create(path).map_err(|e| {
                crate::common::Failure::bad(anyhow::anyhow!(
                    "cannot create '{}': {e}",
                    path.display()
                ))
            })?;
            file = std::io::BufWriter::new(created);
            &mut file
        }
    };
    let spec = match args.format {
        BoardFormat::Toml => {
            let spec = params.spec_with_effects(&Rules::default(), args.effects);
            out.write_all(spec.to_toml().as_bytes()).or_other()?;
            spec
        }
        BoardFormat::Leetcode => {
            let spec = params.spec(&puzzle_rules());
            let jumps = spec
                .snakes
                .iter()
                .map(|s| Jump { from: s.head, to: s.tail })
                .chain(spec.ladders.iter().map(|l| Jump { from: l.foot, to: l.top }));
            let board = LeetCode::from_jumps(side, jumps).or_other()?;
            board.write_json(out).or_other()?;
            spec
        }
    };
    out.flush().or_other()?;
    if let Some(path) = &args.output {
        writeln!(console.out, "{}", wrote(&spec, path)).or_other()?;
    }
    Ok(())
}

/// "Wrote a 100-cell board with 8 snakes and 8 ladders to FILE.": what `generate -o` put where.
fn wrote(spec: &snl_engine::BoardSpec, path: &std::path::Path) -> String {
    let mut things = vec![
        counted(spec.snakes.len(), "snake", "snakes"),
        counted(spec.ladders.len(), "ladder", "ladders"),
    ];
    if !spec.cells.is_empty() {
        things.push(counted(spec.cells.len(), "cell effect", "cell effects"));
    }
    let last = things.pop().unwrap_or_default();
    format!(
        "Wrote a {}-cell board with {} and {last} to {}.",
        spec.size,
        things.join(", "),
        shown_path(path)
    )
}

/// `snl board convert`: a board file or preset to TOML or LeetCode, or a LeetCode matrix to TOML
/// (with LeetCode's rules in its `[rules]` table: start on cell 1, one jump per move).
fn convert_board(args: &ConvertArgs, console: &mut Console) -> CmdResult {
    use snl_analysis::puzzles::{LeetCode, puzzle_rules};
    use snl_engine::{BoardSpec, Jump};

    let (spec, jumps, size) = if let Some(source) = &args.leetcode {
        let matrix = crate::solve::read_leetcode(source, console)?;
        let jumps: Vec<Jump> = matrix.jumps().to_vec();
        let mut spec = BoardSpec::with_jumps(matrix.size(), jumps.iter().map(|j| (j.from, j.to)));
        spec.width = Some(matrix.side());
        spec.rules = puzzle_rules().to_spec();
        (spec, jumps, matrix.size())
    } else {
        let mut game = args.game.clone();
        if let Some(file) = &args.file {
            game.board.clone_from(file);
        }
        let setup = game.resolve()?;
        let mut spec = setup.board.to_spec();
        spec.rules = setup.rules.to_spec();
        (spec, setup.board.jumps().to_vec(), setup.board.size())
    };
    let mut text = Vec::new();
    match args.format {
        BoardFormat::Toml => text.extend_from_slice(spec.to_toml().as_bytes()),
        BoardFormat::Leetcode => {
            if !spec.cells.is_empty() {
                return Err(crate::common::Failure::bad(anyhow::anyhow!(
                    "this board has cell effects, which a LeetCode matrix cannot hold: convert it \
                     to a board file (--format toml)"
                )));
            }
            let n = f64::from(size).sqrt().round() as u32;
            if n * n != size {
                return Err(crate::common::Failure::bad(anyhow::anyhow!(
                    "a board of {size} cells is not square, so it has no LeetCode form (n×n)"
                )));
            }
            let matrix = LeetCode::from_jumps(n, jumps).map_err(|e| {
                crate::common::Failure::bad(anyhow::anyhow!("this board has no LeetCode form: {e}"))
            })?;
            matrix.write_json(&mut text).or_other()?;
        }
    }
    match &args.output {
        None => console.out.write_all(&text).or_other(),
        Some(path) => std::fs::write(path, &text).map_err(|e| {
            crate::common::Failure::bad(anyhow::anyhow!("cannot write '{}': {e}", path.display()))
        }),
    }
}
