//! The answers that carry analysis, worked out in one place for every front end that gives them:
//! the board check of `POST /api/boards/check` ([`board_check`]) and a game's live odds as
//! `GET /api/rooms/{room}/odds` answers them ([`OddsTables::answer`]). The server and the
//! browser's engine (crates/wasm) both call these, so the editor and the odds panel show the same
//! numbers whichever of them answered. Only with the `answers` feature (it brings
//! `snl-analysis`).

use serde_json::Value;
use snl_analysis::{Budget, Work, exact, solve};
use snl_engine::{Board, BoardSpec, RuleSet, Rules};

use crate::{BoardCheck, BoardCheckAnswer, OddsAnswer, OddsSeat, RulesChoice};

/// How large a board check may be: its seats and its cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckLimits {
    /// Most seats the chances are worked out for.
    pub max_seats: usize,
    /// Most cells on a board checked.
    pub max_cells: u32,
}

/// A board check as asked: the seats and the size checked, the board read (it may still be
/// invalid: its problems are part of the answer).
#[derive(Debug)]
pub struct Checked {
    spec: Result<BoardSpec, String>,
    rules: Option<RulesChoice>,
    seats: usize,
}

impl Checked {
    /// Checks what is not the board's own business: the seats and the size.
    ///
    /// # Errors
    ///
    /// One sentence naming the value refused.
    pub fn new(request: BoardCheck, limits: CheckLimits) -> Result<Checked, String> {
        let seats = request.seats.unwrap_or(2);
        if !(1..=limits.max_seats).contains(&seats) {
            return Err(format!("seats {seats} is outside 1..={}", limits.max_seats));
        }
        // The size first, before anything is built for the board.
        let size = request.board.get("size").and_then(Value::as_u64).unwrap_or(0);
        if size > u64::from(limits.max_cells) {
            return Err(format!(
                "a board of {size} cells is larger than {}, the most checked here \
                 (snl board validate and snl analyze take larger ones)",
                limits.max_cells
            ));
        }
        let spec = serde_json::from_value::<BoardSpec>(request.board)
            .map_err(|e| format!("the board is not a board file: {e}"));
        Ok(Checked { spec, rules: request.rules, seats })
    }

    /// The answer: the board's problems, or its analysis, cut short (and marked not exact) once
    /// `budget` is spent.
    ///
    /// # Errors
    ///
    /// One sentence when the request's rules are not rules.
    pub fn answer(&self, budget: Budget) -> Result<BoardCheckAnswer, String> {
        let invalid = |problems: Vec<String>| {
            let message = match problems.as_slice() {
                [one] => format!("invalid board: {one}"),
                many => format!("invalid board, {} problems", many.len()),
            };
            BoardCheckAnswer { valid: false, message, problems, ..BoardCheckAnswer::default() }
        };
        let spec = match &self.spec {
            Ok(spec) => spec,
            Err(problem) => return Ok(invalid(vec![problem.clone()])),
        };
        let rules = match rules_for(spec, self.rules.as_ref()) {
            Ok(rules) => rules,
            // The request's own rules are a bad request; the board's are one of its problems.
            Err(problem) if problem.starts_with("the board's") => {
                return Ok(invalid(vec![problem]));
            }
            Err(problem) => return Err(problem),
        };
        let board = match Board::new(spec, &rules) {
            Ok(board) => board,
            Err(e) => return Ok(invalid(e.problems.iter().map(ToString::to_string).collect())),
        };
        Ok(analyse(&board, &rules, self.seats, budget))
    }
}

/// A board check: [`Checked::new`] then [`Checked::answer`].
///
/// # Errors
///
/// One sentence naming the seats, the size or the rules refused.
pub fn board_check(
    request: BoardCheck,
    limits: CheckLimits,
    budget: Budget,
) -> Result<BoardCheckAnswer, String> {
    Checked::new(request, limits)?.answer(budget)
}

/// The request's rules over the board's own.
fn rules_for(spec: &BoardSpec, choice: Option<&RulesChoice>) -> Result<Rules, String> {
    let mut rules = Rules::default();
    rules.apply(&spec.rules).map_err(|e| format!("the board's rules: {e}"))?;
    match choice {
        None => {}
        Some(RulesChoice::Name(name)) => {
            rules = name.parse::<RuleSet>().map_err(|e| e.to_string())?.rules();
        }
        Some(RulesChoice::Spec(s)) => rules.apply(s).map_err(|e| e.to_string())?,
    }
    Ok(rules)
}

/// A valid board's analysis.
fn analyse(board: &Board, rules: &Rules, seats: usize, budget: Budget) -> BoardCheckAnswer {
    let reach = board.reach(rules);
    let verdict = snl_words::reach_verdict(&reach, board.size());
    let message = format!("the board is valid: {}{verdict}", snl_words::board_summary(board));
    let checked = BoardCheckAnswer {
        valid: true,
        playable: Some(reach.finish_reachable && reach.trapped.is_empty()),
        message,
        problems: Vec::new(),
        size: Some(board.size()),
        rules: Some(*rules),
        seats: Some(seats),
        ..BoardCheckAnswer::default()
    };
    // The check's numbers (fewest rolls, one player's exact length, each seat's chance) know cell
    // effects; a race's rounds they leave out, so a race gets no numbers rather than wrong ones.
    if let Err(e) = [Work::Exact, Work::Solve]
        .into_iter()
        .try_for_each(|work| snl_analysis::check_supported_for(work, board, rules))
        .and_then(|()| snl_analysis::check_supported_rules(rules))
    {
        return BoardCheckAnswer {
            exact: Some(false),
            analysis_error: Some(e.to_string()),
            ..checked
        };
    }
    let best = solve::solve(board, rules);
    let mut options = exact::Options::default();
    options.landings = false;
    // The check's deadline covers building the chain too.
    options.chain_budget = budget.clone();
    options.budget = budget;
    let analysis = exact::analyze_with(board, rules, &snl_engine::FirstOption, &options);
    let solved = BoardCheckAnswer {
        min_rolls: Some(best.min_rolls()),
        path: Some(best.is_reachable().then(|| best.path())),
        ..checked
    };
    match &analysis {
        Ok(a) => {
            let outcomes = a.seats(seats);
            let finite = |x: f64| Some(x.is_finite().then_some(x));
            BoardCheckAnswer {
                expected_turns: finite(a.expected_turns),
                expected_rolls: finite(a.expected_rolls),
                median_turns: Some(a.median_turns()),
                min_turns: Some(a.min_turns()),
                never_finish_probability: Some(a.never_finish_probability),
                exact: Some(outcomes.is_exact() && a.distribution.is_complete()),
                win_probability: Some(outcomes.win_probability),
                expected_game_rolls: finite(outcomes.expected_game_rolls),
                ..solved
            }
        }
        Err(exact::AnalysisError::Stopped) => BoardCheckAnswer {
            exact: Some(false),
            analysis_error: Some(
                "the exact analysis takes longer than this check may take on this board: it was \
                 stopped"
                    .to_owned(),
            ),
            ..solved
        },
        Err(e) => {
            BoardCheckAnswer { exact: Some(false), analysis_error: Some(e.to_string()), ..solved }
        }
    }
}

/// A board's tables for live odds under some rules: the turn chain and the fewest rolls left
/// from each cell, worked out once and asked many times.
#[derive(Debug)]
pub struct OddsTables {
    size: u32,
    /// None when it took longer to build than the budget allowed: no chances then.
    chain: Option<exact::TurnChain>,
    rolls_left: Vec<Option<u32>>,
}

/// What a game's odds are worked out from.
#[derive(Clone, Debug)]
pub struct OddsAsked<'a> {
    /// The room's id (the browser's own games: any name).
    pub room: &'a str,
    /// The game's last event.
    pub seq: u64,
    /// Each seat's name, once it has one.
    pub names: &'a [Option<String>],
    /// Where each token stands.
    pub positions: &'a [u32],
    /// Where each seat still playing begins its next turn.
    pub from: &'a exact::Standing,
    /// Who won, once someone has.
    pub winner: Option<usize>,
}

impl OddsTables {
    /// The tables of `board` under `rules`.
    ///
    /// # Errors
    ///
    /// One sentence when the board is not valid or its odds cannot be worked out (the exact
    /// chain or the fewest rolls do not support it).
    pub fn new(board: &BoardSpec, rules: &Rules) -> Result<OddsTables, String> {
        OddsTables::new_within(board, rules, &Budget::unlimited())
    }

    /// [`OddsTables::new`] within `budget`: past it the tables have the fewest rolls but no
    /// chances (answers say `win` null, `exact` false).
    ///
    /// # Errors
    ///
    /// As [`OddsTables::new`].
    pub fn new_within(
        board: &BoardSpec,
        rules: &Rules,
        budget: &Budget,
    ) -> Result<OddsTables, String> {
        let board = Board::new(board, rules).map_err(|e| e.to_string())?;
        // Live odds need both the exact chain and the fewest rolls left.
        snl_analysis::check_supported_for(Work::Exact, &board, rules)
            .and_then(|()| snl_analysis::check_supported_for(Work::Solve, &board, rules))
            .map_err(|e| e.to_string())?;
        Ok(OddsTables {
            size: board.size(),
            chain: exact::TurnChain::new_within(&board, rules, budget).ok(),
            rolls_left: solve::rolls_to_finish(&board, rules),
        })
    }

    /// Each seat's chance to win from where the game stands and the fewest rolls it still
    /// needs.
    pub fn answer(&self, asked: &OddsAsked<'_>) -> OddsAnswer {
        let race = match asked.winner {
            Some(winner) => {
                let mut chances = vec![0.0; asked.names.len()];
                chances[winner] = 1.0;
                Some(exact::Race { chances, unresolved: 0.0 })
            }
            // On a board with effects the chain's positions are states (cell, shield, skip),
            // and a race is followed to its last round.
            None => self.chain.as_ref().and_then(|chain| {
                exact::standing_odds(chain, asked.from, exact::RaceLimits::EXACT)
            }),
        };
        let size = self.size;
        let seats = asked
            .names
            .iter()
            .enumerate()
            .map(|(seat, name)| {
                let position = asked.positions[seat];
                let win = race.as_ref().map(|r| r.chances[seat]);
                let fewest_rolls = if position == size {
                    Some(0)
                } else {
                    self.rolls_left.get(position as usize).copied().flatten()
                };
                OddsSeat {
                    seat,
                    name: name.clone(),
                    position,
                    win,
                    fewest_rolls,
                    chance: win.map(snl_words::chance),
                    fewest: snl_words::fewest_rolls_at_best(fewest_rolls),
                }
            })
            .collect();
        OddsAnswer {
            room: asked.room.to_owned(),
            seq: asked.seq,
            exact: race.is_some(),
            unresolved: race.as_ref().map(|r| r.unresolved),
            seats,
        }
    }
}
