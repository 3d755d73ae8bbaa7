// Long on purpose: one home for the options every command shares (board, rules, seats, limits) and their checks; split by command they would be copied.
//! What several commands share: choosing the board and rules, seats, and failures with exit codes.

use std::{fmt, path::Path};

use clap::Args;
use snl_engine::{Board, BoardSpec, Preset, RandomBoard, RuleSpec, Rules, Seat, SeatKind};
pub(crate) use snl_tui::failure::{CmdResult, Failure, FailureKind, OrFail};

/// The board and rule options every command takes (SPEC §3, §4, §7).
#[derive(Args, Clone, Debug, Default)]
#[command(next_help_heading = "Board and rules")]
pub(crate) struct GameArgs {
    /// Board: classic, milton-bradley, kids, party, empty, random, or a .toml board file (at most 64 MiB,
    /// 2000000 values - 500000 jumps - and 10000000 cells; a width at most its cells).
    #[arg(long, value_name = "NAME|FILE", default_value = "classic")]
    pub(crate) board: String,
    /// Cells of a random board (at most 10000000; for solve 100000000).
    #[arg(long, value_name = "N", default_value_t = 100, allow_negative_numbers = true,
        value_parser = cell_count)]
    pub(crate) size: u32,
    /// Snakes on a random board (with the ladders, at most a third of the cells).
    #[arg(long, value_name = "S", default_value_t = 8, allow_negative_numbers = true,
        value_parser = zero_or_more::<u32>)]
    pub(crate) snakes: u32,
    /// Ladders on a random board (with the snakes, at most a third of the cells).
    #[arg(long, value_name = "L", default_value_t = 8, allow_negative_numbers = true,
        value_parser = zero_or_more::<u32>)]
    pub(crate) ladders: u32,
    /// Cell effects on a random board (skip, extra, shield, wormhole; 4 or more give each kind).
    #[arg(long, value_name = "K", default_value_t = 0, allow_negative_numbers = true,
        value_parser = zero_or_more::<u32>)]
    pub(crate) effects: u32,
    /// No snake or ladder on a random board shorter than this many cells: 1 to a quarter of the
    /// cells (or 3).
    #[arg(long, value_name = "CELLS", default_value_t = RandomBoard::DEFAULT_MIN_JUMP,
        allow_negative_numbers = true, value_parser = zero_or_more::<u32>)]
    pub(crate) min_jump: u32,
    /// Named rule set: standard, bonus-six, three-sixes, strict-sixes (single options override it).
    #[arg(long, value_name = "NAME")]
    pub(crate) rules: Option<String>,
    /// Where tokens start: off-board (position 0) or first-cell.
    #[arg(long, value_name = "WHERE")]
    pub(crate) start: Option<String>,
    /// Dice thrown each roll, `NdF` (1-4 dice of 2-100 faces), e.g. 1d6, 2d6, 1d20.
    #[arg(long, value_name = "NdF")]
    pub(crate) dice: Option<String>,
    /// A roll past the last cell: stay, bounce or win.
    #[arg(long, value_name = "RULE")]
    pub(crate) overshoot: Option<String>,
    /// single (one jump per move) or chain (follow jumps while landing on one).
    #[arg(long, value_name = "MODE")]
    pub(crate) jumps: Option<String>,
    /// none, or top-face (every die on its top face earns another roll).
    #[arg(long, value_name = "RULE")]
    pub(crate) bonus: Option<String>,
    /// Cap on consecutive top-face rolls in a turn: unlimited or K >= 1.
    #[arg(long, value_name = "K")]
    pub(crate) max_bonus: Option<String>,
    /// What the capped roll does: pass (moved, turn ends) or void (turn undone).
    #[arg(long, value_name = "RULE")]
    pub(crate) on_max: Option<String>,
    /// first (first to finish wins) or all (everyone is ranked).
    #[arg(long, value_name = "RULE")]
    pub(crate) finish: Option<String>,
    /// Decisions for players: none, may-pass or pick-die.
    #[arg(long, value_name = "RULE")]
    pub(crate) choice: Option<String>,
    /// classic (reach the last cell) or race (the game also ends after --rounds K rounds).
    #[arg(long, value_name = "MODE")]
    pub(crate) mode: Option<String>,
    /// Rounds of a race (--mode race): every player still playing has had K turns.
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = zero_or_more::<u32>)]
    pub(crate) rounds: Option<u32>,
    /// Seed for dice and random boards; the same seed gives the same game.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = zero_or_more::<u64>)]
    pub(crate) seed: Option<u64>,
}

/// What [`GameArgs::resolve`] produces.
#[derive(Clone, Debug)]
pub(crate) struct Setup {
    pub(crate) board: Board,
    pub(crate) rules: Rules,
    /// What `--board` named, for messages.
    pub(crate) board_name: String,
}

impl GameArgs {
    /// The seed in use: `--seed`, or `default` when none was given.
    pub(crate) fn seed_or(&self, default: u64) -> u64 {
        self.seed.unwrap_or(default)
    }

    /// The board spec `--board` names, unvalidated, and its own rules table.
    pub(crate) fn board_spec(&self, rules: &Rules) -> CmdResult<BoardSpec> {
        let name = self.board.as_str();
        let looks_like_file =
            Path::new(name).extension().is_some_and(|e| e.eq_ignore_ascii_case("toml"))
                || name.contains('/')
                || Path::new(name).is_file();
        if looks_like_file {
            self.no_effects_asked()?;
            let bytes = read_file_bounded(name, snl_engine::MAX_BOARD_FILE_BYTES, "board file")?;
            let text = String::from_utf8(bytes).map_err(|e| {
                Failure::bad(anyhow::anyhow!(
                    "board file '{name}' is not UTF-8 text (byte {})",
                    e.utf8_error().valid_up_to()
                ))
            })?;
            return BoardSpec::from_toml(&text).map_err(|_| self.file_problems(name, &text));
        }
        let preset: Preset = name.parse().or_bad()?;
        if preset == Preset::Random {
            let params = RandomBoard {
                size: self.size,
                snakes: self.snakes,
                ladders: self.ladders,
                seed: self.seed_or(0),
                min_jump: self.min_jump,
            };
            params.check().or_bad()?;
            params.check_effects(self.effects).or_bad()?;
            check_board_size(params.size)?;
            return Ok(params.spec_with_effects(rules, self.effects));
        }
        self.no_effects_asked()?;
        Ok(preset.spec())
    }

    /// `--effects` places effects on a random board only.
    fn no_effects_asked(&self) -> CmdResult {
        if self.effects > 0 {
            return Err(Failure::bad(anyhow::anyhow!(
                "--effects {} places cell effects on a random board only: add --board random, \
                 or write [[cell]] entries in a board file",
                self.effects
            )));
        }
        Ok(())
    }

    /// A board file that is not well-formed TOML or not shaped like a board: every TOML problem,
    /// then the board's own problems in the parts that could be read (a bad jump beside a bad key),
    /// as [`snl_engine::check_board_file`] lists them for every front end.
    fn file_problems(&self, name: &str, text: &str) -> Failure {
        let rules_with = |spec: &RuleSpec| self.rules_with(spec).map_err(|e| e.to_string());
        let problems = snl_engine::check_board_file(text, &rules_with).err().unwrap_or_default();
        Failure::bad(BoardFileProblems { name: name.to_owned(), problems })
    }

    /// The rule options given on the command line.
    pub(crate) fn rule_spec(&self) -> RuleSpec {
        RuleSpec {
            set: self.rules.clone(),
            start: self.start.clone(),
            dice: self.dice.clone(),
            overshoot: self.overshoot.clone(),
            jumps: self.jumps.clone(),
            bonus: self.bonus.clone(),
            max_bonus: None,
            on_max: self.on_max.clone(),
            finish: self.finish.clone(),
            choice: self.choice.clone(),
            mode: self.mode.clone(),
            rounds: self.rounds,
        }
    }

    /// The rules in force: the defaults, then the board file's `[rules]`, then `--rules`, then each
    /// single option.
    pub(crate) fn rules_with(&self, file_rules: &RuleSpec) -> CmdResult<Rules> {
        let mut rules =
            snl_engine::file_rules(file_rules).map_err(|e| Failure::bad(anyhow::anyhow!(e)))?;
        rules.apply(&self.rule_spec()).or_bad()?;
        if let Some(k) = &self.max_bonus {
            rules.max_bonus = k.parse().or_bad()?;
        }
        Ok(rules)
    }

    /// Reads, merges and validates board and rules.
    pub(crate) fn resolve(&self) -> CmdResult<Setup> {
        // A random board is generated for the rules in force, but its spec has no rules of its
        // own; files carry theirs. So: rules from the command line first, then the spec.
        let cli_rules = self.rules_with(&RuleSpec::default())?;
        let spec = self.board_spec(&cli_rules)?;
        let rules = match self.rules_with(&spec.rules) {
            Ok(rules) => rules,
            // A bad [rules] value and a bad jump are listed together.
            Err(failure) => match Board::new(&spec, &cli_rules) {
                Ok(_) => return Err(failure),
                Err(e) => {
                    let mut problems = vec![failure.to_string()];
                    problems.extend(e.problems.iter().map(ToString::to_string));
                    let name = self.board.clone();
                    return Err(Failure::bad(BoardFileProblems { name, problems }));
                }
            },
        };
        // Kept as a typed error under the context, so `board validate --json` can list problems.
        let board = Board::new(&spec, &rules).map_err(|e| {
            Failure::bad(anyhow::Error::new(e).context(format!("board '{}'", self.board)))
        })?;
        Ok(Setup { board, rules, board_name: self.board.clone() })
    }
}

impl Setup {
    /// Refuses, with one sentence and exit 2, a board or rules the analysis cannot handle yet
    /// (cell effects, race mode): see `snl_analysis::check_supported`.
    pub(crate) fn analysable(&self, work: snl_analysis::Work) -> CmdResult {
        snl_analysis::check_supported_for(work, &self.board, &self.rules).or_bad()
    }
}

impl GameArgs {
    /// As [`Setup::analysable`] for work that draws its own boards: the rules, and no
    /// `--effects`.
    pub(crate) fn analysable_rules(&self, rules: &Rules) -> CmdResult {
        snl_analysis::check_supported_rules(rules).or_bad()?;
        if self.effects > 0 {
            return Err(Failure::bad(anyhow::anyhow!(
                "boards with cell effects (--effects {}) cannot be analysed yet: they can be \
                 played with snl play",
                self.effects
            )));
        }
        Ok(())
    }
}

/// Every problem of a board file that could not be read as a board (see
/// [`GameArgs::board_spec`]), for people and for `board validate --json`.
#[derive(Debug)]
pub(crate) struct BoardFileProblems {
    pub(crate) name: String,
    pub(crate) problems: Vec<String>,
}

impl fmt::Display for BoardFileProblems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = &self.name;
        match self.problems.as_slice() {
            [one] => write!(f, "board file '{name}' is not a valid board: {one}"),
            many => {
                write!(f, "board file '{name}' is not a valid board, {} problems:", many.len())?;
                for p in many {
                    write!(f, "\n  - {p}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for BoardFileProblems {}

/// Reads at most `limit` bytes from `reader`; more is refused with a sentence naming `what` and
/// the limit, so that no input (`/dev/zero`, an endless pipe) is read until memory runs out.
pub(crate) fn read_bounded(
    reader: &mut dyn std::io::Read,
    limit: u64,
    what: &str,
) -> CmdResult<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    reader
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::bad(anyhow::anyhow!("cannot read {what}: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(Failure::bad(anyhow::anyhow!(
            "{what} is longer than {limit} bytes, the most that is read"
        )));
    }
    Ok(bytes)
}

/// Reads the file at `path`, at most `limit` bytes (see [`read_bounded`]).
pub(crate) fn read_file_bounded(path: &str, limit: u64, what: &str) -> CmdResult<Vec<u8>> {
    let mut file = std::fs::File::open(path)
        .map_err(|e| Failure::bad(anyhow::anyhow!("cannot read {what} '{path}': {e}")))?;
    read_bounded(&mut file, limit, &format!("{what} '{path}'"))
}

/// The most seats (`--player`) a game, an analysis, a simulation or a tournament takes: the
/// exact seat figures rank up to this many, and every table stays a few KB per seat.
pub(crate) const MAX_SEATS: usize = 256;

/// The most games `simulate` and `tournament` play: 10^12, days of work on many cores; the
/// tallies are counts, so no memory grows with the number.
pub(crate) const MAX_GAMES: u64 = 1_000_000_000_000;

/// Parses `--games`: 1 to [`MAX_GAMES`].
pub(crate) fn game_count(text: &str) -> Result<u64, String> {
    whole_number(text, 1, MAX_GAMES)
}

/// Parses every `--player NAME:KIND`; more than [`MAX_SEATS`] are refused before any is read.
pub(crate) fn parse_seats(values: &[String]) -> CmdResult<Vec<Seat>> {
    if values.len() > MAX_SEATS {
        return Err(Failure::bad(anyhow::anyhow!(
            "{} players are too many: use at most {MAX_SEATS}",
            values.len()
        )));
    }
    values.iter().map(|v| v.parse::<Seat>().or_bad()).collect()
}

/// The seats when none are given: two computers.
pub(crate) fn default_computer_seats() -> Vec<Seat> {
    vec![Seat::new("Red", SeatKind::Hard), Seat::new("Blue", SeatKind::Hard)]
}

/// A seed when none is given: from the clock and the process, mixed so that close times differ.
/// Commands print it with their results so that a run can be repeated.
pub(crate) fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut state = nanos ^ u64::from(std::process::id()).rotate_left(32);
    snl_engine::splitmix64(&mut state) % 1_000_000
}

/// A progress bar of `games` on standard error when `show` (a terminal that is not asked for
/// JSON); hidden otherwise, so pipes and logs stay clean.
pub(crate) fn progress_bar(games: u64, show: bool) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{spinner} {bar:24} {human_pos}/{human_len} games, {eta} left",
    )
    .expect("a valid progress template");
    bar.set_style(style);
    bar
}

/// The most worker threads `--threads` accepts.
pub(crate) const MAX_THREADS: usize = 1024;

/// Parses a whole number from `min` to `max`, with one sentence for each way it can be wrong:
/// "must be 0 or more" for a negative number, "at most X" for one too large, "not a whole
/// number" for anything else.
pub(crate) fn whole_number(text: &str, min: u64, max: u64) -> Result<u64, String> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("'{text}' is not a whole number"));
    }
    let negative = text.starts_with('-') && digits.bytes().any(|b| b != b'0');
    if negative {
        return Err(format!("'{text}' must be {min} or more"));
    }
    match digits.parse::<u64>() {
        Ok(n) if n < min => Err(format!("'{text}' must be {min} or more")),
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!("'{text}' is too large: use at most {max}")),
    }
}

/// Parses a whole number of 0 or more that fits `T` (clap value parser).
pub(crate) fn zero_or_more<T: TryFrom<u64> + Bounded>(text: &str) -> Result<T, String> {
    whole_number(text, 0, T::MAX_U64).map(|n| T::try_from(n).ok().expect("checked against MAX_U64"))
}

/// Parses a whole number of 1 or more that fits `T` (clap value parser).
pub(crate) fn at_least_one<T: TryFrom<u64> + Bounded>(text: &str) -> Result<T, String> {
    whole_number(text, 1, T::MAX_U64).map(|n| T::try_from(n).ok().expect("checked against MAX_U64"))
}

/// The largest random board: `solve` draws random boards this large straight into its track;
/// every other command stops at [`snl_engine::MAX_CELLS`].
pub(crate) const MAX_RANDOM_CELLS: u32 = 100_000_000;

/// Parses `--size`: 0 to [`MAX_RANDOM_CELLS`] (smaller boards get their own message later).
pub(crate) fn cell_count(text: &str) -> Result<u32, String> {
    whole_number(text, 0, u64::from(MAX_RANDOM_CELLS)).map(|n| n as u32)
}

/// Refuses a random board of more than [`snl_engine::MAX_CELLS`] cells before it is drawn.
pub(crate) fn check_board_size(size: u32) -> CmdResult {
    let max = snl_engine::MAX_CELLS;
    if size > max {
        return Err(Failure::bad(anyhow::anyhow!(
            "size {size} is too large: a board has at most {max} cells \
             (solve alone takes random boards up to {MAX_RANDOM_CELLS})"
        )));
    }
    Ok(())
}

/// The largest value of an unsigned integer type, as a `u64`.
pub(crate) trait Bounded {
    const MAX_U64: u64;
}

impl Bounded for u32 {
    const MAX_U64: u64 = u32::MAX as u64;
}

impl Bounded for u64 {
    const MAX_U64: u64 = u64::MAX;
}

impl Bounded for usize {
    const MAX_U64: u64 = usize::MAX as u64;
}

/// Parses `--threads`: 1 to [`MAX_THREADS`] (clap value parser).
pub(crate) fn thread_count(text: &str) -> Result<usize, String> {
    whole_number(text, 1, MAX_THREADS as u64)
        .map(|n| n as usize)
        .map_err(|e| format!("{e} (a number of threads from 1 to {MAX_THREADS})"))
}

/// A rayon pool of `threads` workers (all cores when `None`).
pub(crate) fn worker_pool(threads: Option<usize>) -> CmdResult<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| Failure::other(anyhow::anyhow!("cannot start the worker threads: {e}")))
}
