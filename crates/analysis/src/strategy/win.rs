// Long because playing to win is one solver: the joint chain, its sweeps of best responses and its limits read together.
//! Playing to win with two, three or four seats: every seat that plays `win` chooses, at each
//! roll, the option after which its own chance of finishing first is highest, given that the
//! other seats do the same (or play a fixed strategy).
//!
//! The joint chain's state is every token's state — its cell and, on a board with cell effects,
//! the shield it holds and the skip it owes — seen from the seat to move: `(t_0, t_1, …)` with
//! `t_0` the mover's token and `t_j` the token of the seat `j` places after it. Its value is the
//! vector of each seat's chance to finish first, in the same order. Without bonus rolls a roll
//! ends the turn unless the token rests on an `extra` cell, so
//!
//! ```text
//! V(t_0, t_1, …, t_{k-1}) = V(t_1, …, t_{k-1}, t_0') rotated       the mover owes a skip
//!                                                                   (t_0' = t_0 without it)
//!                         = Σ_rolls p · Σ_outcomes q · after         else, the option o being the
//!                                                                   mover's choice
//! after = e_0                                  the token finishes (the mover wins)
//!       = V(t_0', t_1, …)                      it rests on an extra cell: it rolls again
//!       = V(t_1, …, t_{k-1}, t_0') rotated     the turn ends
//! ```
//!
//! where a seat playing `win` takes the option whose `after` has the largest first component (its
//! own chance; the first of equals), and a seat playing a fixed [`Policy`] takes what that
//! policy takes (mixing, for a random one). The outcomes are [`Board::outcomes`] (a wormhole's
//! draws), the options those the engine offers ([`MoveOption::ends_like`]).
//!
//! Each sweep (Gauss–Seidel, from the highest joint index down, every value updated in place)
//! makes every seat's choice its best response to the values the sweep has reached; the sweeps
//! stop when no seat's choice changed in a sweep and no value moved by more than [`SETTLED`].
//! This is value iteration from zero: the values are the chances to have won within ever more
//! rolls, and what they reach is an equilibrium — at every joint state, no seat can gain by
//! choosing otherwise at a roll (`tests/analysis/win_rational.rs` checks that in exact
//! rationals). A game of several players that all play to win need not have one value, and the
//! iteration need not settle: [`PlayToWin::settled`] says whether it did, and
//! [`PlayToWin::last_change`] and [`PlayToWin::flips`] how close it came.
//!
//! The game is decided when the first token finishes, under either finish rule: the chance to
//! win is the chance to finish first. Bonus rolls are not covered (a turn would hold decisions
//! that depend on its streak). The tables hold `k` values per joint state (seen from one mover
//! when every seat plays `win`, from each mover otherwise) and one byte per state and roll:
//! [`PlayToWin::new`] refuses more than [`MAX_BYTES`] of them, or more joint states times seats
//! than [`MAX_WORK`], before allocating.

use snl_engine::{
    Board, Bonus, Decider, Decision, Effect, Game, Met, Mode, MoveOption, Rules, Status,
};

use super::{HardPolicy, Strategy};
use crate::exact::{Policy, RollClass, Situation, roll_classes};

/// Seats at most.
pub const MAX_SEATS: usize = 4;

/// The tables' memory at most: 4 GB less room for the rest of the process.
pub const MAX_BYTES: u64 = 3_500_000_000;

/// Joint states (times the movers kept: one when every seat plays `win`, else one per seat)
/// times seats at most — each state's sweep updates one chance per seat —, so that what is
/// accepted is solved in about a minute of one core. Measured on this 2-core machine (processor
/// time, other work running), every seat playing `win` under may-pass: 3 seats on the classic
/// board (1.0 million states, 3.0 million here) 52–58 s; 4 seats on the bench's boards of 24
/// cells (0.33 million states) 13 s, of 28 cells (0.61 million, 2.5 million here) 40 s, of 29
/// cells 49 s, and of 32 cells (1.05 million) over seven minutes (stopped): the sweeps it needs
/// grow with the board as well as the states. So 3 seats are accepted up to 101 cells, 4 seats
/// up to 29.
pub const MAX_WORK: u64 = 3_100_000;

/// A sweep that moves no value by more than this (absolute, on chances) has settled.
pub const SETTLED: f64 = 1e-13;

/// Sweeps at most.
const MAX_SWEEPS: usize = 20_000;

/// Sweeps that may follow a settled sweep while choices still flip between equal options.
const FLIP_SWEEPS: usize = 20;

/// How much better (absolute) an option must be to replace an earlier one, so that rounding
/// cannot make the choice flicker between equally good options.
const TOLERANCE: f64 = 1e-13;

/// How one seat plays.
#[derive(Clone, Copy)]
pub enum Play<'a> {
    /// To win: the option after which its chance to finish first is highest.
    ToWin,
    /// By a fixed policy (any strategy, random ones too), which sees only its own token.
    Fixed(&'a dyn Policy),
}

impl std::fmt::Debug for Play<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Play::ToWin => f.write_str("ToWin"),
            Play::Fixed(_) => f.write_str("Fixed(..)"),
        }
    }
}

/// Why playing to win cannot be solved for a board, rules and seats.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum WinError {
    /// Bonus rolls make a turn hold decisions that depend on its streak; not covered.
    #[error("playing to win is solved without bonus rolls only")]
    BonusRolls,
    /// A race (a number of rounds) ends otherwise than by the first token home; not covered.
    #[error("playing to win is solved for the classic mode, not a race")]
    Race,
    /// Fewer than two seats, or more than [`MAX_SEATS`].
    #[error("playing to win is solved for 2 to {MAX_SEATS} seats, not {0}")]
    Seats(usize),
    /// The joint chain is too large to solve within the limits.
    #[error(
        "playing to win with {seats} seats on {cells} cells needs {states} joint states \
         ({gigabytes:.1} GB); the limit is {limit_states} states and {limit_gb:.1} GB"
    )]
    TooLarge {
        /// Seats.
        seats: usize,
        /// The board's cells.
        cells: u32,
        /// Joint states.
        states: u64,
        /// The tables' memory, in GB.
        gigabytes: f64,
        /// [`MAX_BYTES`] in GB.
        limit_gb: f64,
        /// [`MAX_WORK`] over the seats.
        limit_states: u64,
    },
}

/// Where an outcome leaves the mover.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Next {
    /// It finished: it wins.
    Finish,
    /// Its turn ended with its token in this state.
    Rest(u32),
    /// It rests on an extra cell in this state and rolls again.
    Again(u32),
}

/// A token's state as a number: its cell times the flags' count, plus the flags (a shield held,
/// a skip owed), each only when the board has such cells.
#[derive(Clone, Copy, Debug)]
struct Token {
    flags: u32,
    shield_bit: u32,
    skip_bit: u32,
}

impl Token {
    fn of(board: &Board) -> Token {
        let has = |f: fn(&Effect) -> bool| board.effects().iter().any(|e| f(&e.effect));
        let shield = has(|e| matches!(e, Effect::Shield));
        let skip = has(|e| matches!(e, Effect::Skip));
        let shield_bit = u32::from(shield);
        let skip_bit = if skip { 1 + shield_bit } else { 0 };
        Token { flags: 1 << (u32::from(shield) + u32::from(skip)), shield_bit, skip_bit }
    }

    fn encode(self, cell: u32, shield: bool, skip: bool) -> u32 {
        cell * self.flags
            + if shield { self.shield_bit } else { 0 }
            + if skip { self.skip_bit } else { 0 }
    }

    fn cell(self, t: u32) -> u32 {
        t / self.flags
    }

    fn shield(self, t: u32) -> bool {
        (t % self.flags) & self.shield_bit != 0
    }

    fn skip(self, t: u32) -> bool {
        (t % self.flags) & self.skip_bit != 0
    }
}

/// What one backup gathers, per number of cells moved.
#[derive(Debug)]
struct Scratch {
    /// The mover's own chance after the move (NaN: not worked out yet).
    own: Vec<f64>,
    /// The weight of the rolls that take the move.
    take: Vec<f64>,
    /// An option of the move (their outcomes are the same).
    option: Vec<usize>,
    /// The moves with a weight.
    touched: Vec<usize>,
}

impl Scratch {
    fn new(moves: &Moves) -> Scratch {
        let most = moves.options.iter().map(|o| o.0 as usize).max().unwrap_or(0) + 1;
        Scratch {
            own: vec![f64::NAN; most],
            take: vec![0.0; most],
            option: vec![0; most],
            touched: Vec::with_capacity(most),
        }
    }
}

/// Every token state's rolls: the options offered for each roll class and their outcomes.
#[derive(Clone, Debug)]
struct Moves {
    /// Options of token state `t`, class `c`: `options[option_at[t·C + c]..option_at[t·C + c + 1]]`.
    option_at: Vec<u32>,
    /// Per option: its steps, and where its outcomes begin in `outcomes` (ending where the next
    /// option's begin).
    options: Vec<(u32, u32)>,
    outcomes: Vec<(f64, Next)>,
}

/// The equilibrium of seats playing to win (some may play fixed strategies), solved on the
/// joint chain of every token.
///
/// ```
/// use snl_analysis::strategy::{Play, PlayToWin};
/// use snl_engine::{Board, BoardSpec, Choice, Rules};
///
/// let rules = Rules { choice: Choice::MayPass, ..Rules::default() };
/// let board = Board::new(&BoardSpec::with_jumps(12, [(3, 9), (11, 2)]), &rules)?;
/// let win = PlayToWin::new(&board, &rules, &[Play::ToWin; 3])?;
/// assert!(win.settled());
/// let chances = win.win_probability();
/// assert!((chances.iter().sum::<f64>() - 1.0).abs() < 1e-9);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct PlayToWin {
    board: Board,
    rules: Rules,
    token: Token,
    classes: Vec<RollClass>,
    seats: usize,
    /// Whether every seat plays to win: the values are then the same from every mover, and one
    /// mover's are kept.
    symmetric: bool,
    /// Per seat: whether it plays to win.
    to_win: Vec<bool>,
    /// Per seat playing a fixed policy: the weight of each option of `moves`.
    weights: Vec<Option<Vec<f64>>>,
    moves: Moves,
    /// Token states.
    tokens: usize,
    /// Joint states per mover: the mover's token is the most significant digit, the token of
    /// the seat after it the next, …, so the states after the mover's rolls lie close together.
    states: usize,
    /// Joint states per token state of the mover: `states / tokens`.
    rest: usize,
    /// Each seat's chance at `((mover · states) + joint) · seats + j`, seat `j` after the mover.
    values: Vec<f64>,
    sweeps: usize,
    settled: bool,
    last_change: f64,
    flips: u64,
    /// Whether a budget stopped the sweeps.
    stopped: bool,
}

impl std::fmt::Debug for PlayToWin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlayToWin")
            .field("seats", &self.seats)
            .field("states", &self.states)
            .field("sweeps", &self.sweeps)
            .field("settled", &self.settled)
            .finish_non_exhaustive()
    }
}

/// The joint chain's size for `seats` seats on `board` under `rules` with `movers` movers kept:
/// (joint states, bytes of tables).
fn size_of(board: &Board, rules: &Rules, seats: usize, movers: u64) -> (u64, u64) {
    let tokens = u64::from(board.size()) * u64::from(Token::of(board).flags);
    let classes = roll_classes(rules, false).len() as u64;
    let states = (0..seats).fold(1_u64, |a, _| a.saturating_mul(tokens)).saturating_mul(movers);
    let bytes = states.saturating_mul(8 * seats as u64 + classes);
    (states, bytes)
}

impl PlayToWin {
    /// Solves the game of `plays.len()` seats on `board` under `rules`, seat `i` playing
    /// `plays[i]`.
    ///
    /// # Errors
    ///
    /// [`WinError::BonusRolls`] under bonus rolls, [`WinError::Race`] in a race, [`WinError::Seats`] for fewer than 2 or more
    /// than [`MAX_SEATS`] seats, [`WinError::TooLarge`] past the limits (before allocating).
    pub fn new(board: &Board, rules: &Rules, plays: &[Play<'_>]) -> Result<PlayToWin, WinError> {
        PlayToWin::new_within(board, rules, plays, &crate::Budget::unlimited())
    }

    /// As [`PlayToWin::new`], the sweeps stopped once `budget` is spent (looked at after each
    /// sweep, so at least one is made): the answer is then not settled, and says it was stopped
    /// ([`PlayToWin::stopped`]).
    ///
    /// # Errors
    ///
    /// As [`PlayToWin::new`].
    pub fn new_within(
        board: &Board,
        rules: &Rules,
        plays: &[Play<'_>],
        budget: &crate::Budget,
    ) -> Result<PlayToWin, WinError> {
        PlayToWin::check(board, rules, plays)?;
        let seats = plays.len();
        let symmetric = plays.iter().all(|p| matches!(p, Play::ToWin));
        let token = Token::of(board);
        let classes = roll_classes(rules, false);
        let moves = Moves::build(board, rules, token, &classes);
        let tokens = (board.size() * token.flags) as usize;
        let states = tokens.pow(seats as u32);
        let kept = if symmetric { 1 } else { seats };
        let weights = plays
            .iter()
            .map(|p| match p {
                Play::ToWin => None,
                Play::Fixed(policy) => Some(moves.weights(board, rules, token, &classes, *policy)),
            })
            .collect();
        let mut win = PlayToWin {
            board: board.clone(),
            rules: *rules,
            token,
            classes,
            seats,
            symmetric,
            to_win: plays.iter().map(|p| matches!(p, Play::ToWin)).collect(),
            weights,
            moves,
            tokens,
            states,
            rest: states / tokens,
            values: vec![0.0; kept * states * seats],
            sweeps: 0,
            settled: false,
            last_change: f64::INFINITY,
            flips: 0,
            stopped: false,
        };
        win.iterate(kept, budget);
        Ok(win)
    }

    /// Solves the game of seats playing `strategies` (seat `i` plays `strategies[i]`): the `win`
    /// seats play to win, the others their strategy's policy on `hard`'s board and rules
    /// ([`Strategy::policy`]).
    ///
    /// # Errors
    ///
    /// As [`PlayToWin::new`].
    pub fn for_strategies(
        hard: &HardPolicy,
        strategies: &[Strategy],
    ) -> Result<PlayToWin, WinError> {
        let policies: Vec<Box<dyn Policy + '_>> =
            strategies.iter().map(|s| s.policy(hard)).collect();
        let plays = plays_of(strategies, &policies);
        PlayToWin::new(hard.board(), hard.rules(), &plays)
    }

    /// [`PlayToWin::check`] for seats playing `strategies`.
    ///
    /// # Errors
    ///
    /// As [`PlayToWin::check`].
    pub fn check_strategies(
        board: &Board,
        rules: &Rules,
        strategies: &[Strategy],
    ) -> Result<(), WinError> {
        let fixed = super::Greedy;
        let plays: Vec<Play<'_>> = strategies
            .iter()
            .map(|s| if *s == Strategy::Win { Play::ToWin } else { Play::Fixed(&fixed) })
            .collect();
        PlayToWin::check(board, rules, &plays)
    }

    /// Refuses what [`PlayToWin::new`] cannot solve, before any allocation.
    ///
    /// # Errors
    ///
    /// As [`PlayToWin::new`].
    pub fn check(board: &Board, rules: &Rules, plays: &[Play<'_>]) -> Result<(), WinError> {
        if rules.bonus == Bonus::TopFace {
            return Err(WinError::BonusRolls);
        }
        if rules.mode != Mode::Classic {
            return Err(WinError::Race);
        }
        let seats = plays.len();
        if !(2..=MAX_SEATS).contains(&seats) {
            return Err(WinError::Seats(seats));
        }
        let movers = if plays.iter().all(|p| matches!(p, Play::ToWin)) { 1 } else { seats };
        let (states, bytes) = size_of(board, rules, seats, movers as u64);
        if bytes > MAX_BYTES || states.saturating_mul(seats as u64) > MAX_WORK {
            return Err(WinError::TooLarge {
                seats,
                cells: board.size(),
                states,
                gigabytes: bytes as f64 / 1e9,
                limit_gb: MAX_BYTES as f64 / 1e9,
                limit_states: MAX_WORK / seats as u64,
            });
        }
        Ok(())
    }

    fn iterate(&mut self, movers: usize, budget: &crate::Budget) {
        let c = self.classes.len();
        let mut choices = vec![u8::MAX; movers * self.states * c];
        let mut vector = vec![0.0; self.seats];
        let mut scratch = Scratch::new(&self.moves);
        let mut quiet = 0;
        let rests = self.moves.rests(self.token, self.rules.start_position(), self.tokens);
        // A token never rests on a ladder's foot, a wormhole or (without a shield) a snake's
        // head: joint states with one there are never reached, and are not swept.
        let reached = |joint: usize| {
            let mut j = joint;
            (0..self.seats).all(|_| {
                let ok = rests[j % self.tokens];
                j /= self.tokens;
                ok
            })
        };
        for sweep in 1..=MAX_SWEEPS {
            let mut change = 0.0_f64;
            let mut flips = 0_u64;
            for m in 0..movers {
                for joint in (0..self.states).rev() {
                    if !reached(joint) {
                        continue;
                    }
                    let picks = &mut choices[(m * self.states + joint) * c..][..c];
                    flips += self.backup(m, joint, &mut vector, picks, &mut scratch);
                    let at = (m * self.states + joint) * self.seats;
                    for (old, &new) in self.values[at..at + self.seats].iter_mut().zip(&vector) {
                        change = change.max((new - *old).abs());
                        *old = new;
                    }
                }
            }
            self.sweeps = sweep;
            self.last_change = change;
            self.flips = flips;
            if change > SETTLED && budget.is_limited() && budget.is_spent() {
                self.stopped = true;
                return;
            }
            if change <= SETTLED {
                if flips == 0 {
                    self.settled = true;
                    return;
                }
                quiet += 1;
                if quiet > FLIP_SWEEPS {
                    return;
                }
            } else {
                quiet = 0;
            }
        }
    }

    /// The seat that moves at mover index `m` plays to win, or its fixed weights.
    fn seat_of(&self, m: usize) -> usize {
        if self.symmetric { 0 } else { m }
    }

    /// Where the values after `next` begin, for the mover at `(m, joint)`, and whether they are
    /// seen from the next mover (the turn ended) rather than from this one; `None` when the
    /// mover finished.
    fn after(&self, m: usize, joint: usize, next: Next) -> Option<(usize, bool)> {
        let k = self.seats;
        match next {
            Next::Finish => None,
            Next::Again(t) => {
                let joint = joint % self.rest + t as usize * self.rest;
                Some(((m * self.states + joint) * k, false))
            }
            Next::Rest(t) => {
                let next_mover = if self.symmetric { 0 } else { (m + 1) % k };
                let joint = (joint % self.rest) * self.tokens + t as usize;
                Some(((next_mover * self.states + joint) * k, true))
            }
        }
    }

    /// `w` times the values after `next` (seen from the mover at `(m, joint)`), added to `out`.
    fn add_after(&self, m: usize, joint: usize, next: Next, w: f64, out: &mut [f64]) {
        let k = self.seats;
        match self.after(m, joint, next) {
            None => out[0] += w,
            Some((at, false)) => {
                for (o, v) in out.iter_mut().zip(&self.values[at..at + k]) {
                    *o += w * v;
                }
            }
            Some((at, true)) => {
                // Seat j after this mover is seat j − 1 after the next one; this mover is the
                // last.
                let next = &self.values[at..at + k];
                out[0] += w * next[k - 1];
                for j in 1..k {
                    out[j] += w * next[j - 1];
                }
            }
        }
    }

    /// The mover's own chance after `next`.
    fn own_after(&self, m: usize, joint: usize, next: Next) -> f64 {
        match self.after(m, joint, next) {
            None => 1.0,
            Some((at, false)) => self.values[at],
            Some((at, true)) => self.values[at + self.seats - 1],
        }
    }

    fn outcomes(&self, option: usize) -> &[(f64, Next)] {
        let start = self.moves.options[option].1 as usize;
        let end =
            self.moves.options.get(option + 1).map_or(self.moves.outcomes.len(), |o| o.1 as usize);
        &self.moves.outcomes[start..end]
    }

    /// One backup of `(m, joint)` into `out`; the choices of a seat playing to win are written
    /// into `picks` (one per roll class), and how many changed is returned.
    ///
    /// Rolls offer few distinct moves (1 to 6 cells and staying, under 1d6), so each move's
    /// value for the mover is worked out once per state (`scratch.own`) and the weight of the
    /// rolls that take it gathered (`scratch.take`) before its values are added once.
    fn backup(
        &self,
        m: usize,
        joint: usize,
        out: &mut [f64],
        picks: &mut [u8],
        scratch: &mut Scratch,
    ) -> u64 {
        out.fill(0.0);
        let t0 = (joint / self.rest) as u32;
        if self.token.skip(t0) {
            let owed = self.token.encode(self.token.cell(t0), self.token.shield(t0), false);
            self.add_after(m, joint, Next::Rest(owed), 1.0, out);
            return 0;
        }
        let seat = self.seat_of(m);
        let c = self.classes.len();
        let mut flips = 0;
        let Scratch { own, take, option, touched } = scratch;
        let mut note = |o: usize, w: f64, take: &mut Vec<f64>| {
            let steps = self.moves.options[o].0 as usize;
            if take[steps] == 0.0 {
                touched.push(steps);
                option[steps] = o;
            }
            take[steps] += w;
        };
        for (ci, class) in self.classes.iter().enumerate() {
            let at = t0 as usize * c + ci;
            let options = self.moves.option_at[at] as usize..self.moves.option_at[at + 1] as usize;
            if !self.to_win[seat] {
                let weights = self.weights[seat].as_ref().expect("a fixed seat has weights");
                for o in options {
                    if weights[o] > 0.0 {
                        note(o, class.weight * weights[o], take);
                    }
                }
                continue;
            }
            let (mut best, mut best_own) = (options.start, f64::NEG_INFINITY);
            if options.len() > 1 {
                for o in options.clone() {
                    let steps = self.moves.options[o].0 as usize;
                    if own[steps].is_nan() {
                        own[steps] = self
                            .outcomes(o)
                            .iter()
                            .map(|&(q, n)| q * self.own_after(m, joint, n))
                            .sum();
                    }
                    if own[steps] > best_own + TOLERANCE {
                        (best, best_own) = (o, own[steps]);
                    }
                }
            }
            note(best, class.weight, take);
            let pick = (best - options.start) as u8;
            if picks[ci] != pick {
                flips += 1;
                picks[ci] = pick;
            }
        }
        for steps in touched.drain(..) {
            for &(q, next) in self.outcomes(option[steps]) {
                self.add_after(m, joint, next, take[steps] * q, out);
            }
            take[steps] = 0.0;
        }
        own.fill(f64::NAN);
        flips
    }

    /// Each seat's chance to finish first from the start, in seating order.
    pub fn win_probability(&self) -> Vec<f64> {
        let start = self.token.encode(self.rules.start_position(), false, false) as usize;
        let joint = (0..self.seats).fold(0, |a, _| a * self.tokens + start);
        let at = joint * self.seats;
        self.values[at..at + self.seats].to_vec()
    }

    /// Each seat's chance to finish first from where the tokens of `game` stand, the seat to
    /// move next about to roll (in seating order): the live odds when the seats play as solved.
    /// `None` when the tables do not cover the game as it stands (another number of seats, a
    /// seat finished, the game over).
    pub fn chances_at(&self, game: &Game) -> Option<Vec<f64>> {
        if game.seats().len() != self.seats
            || !game.ranking().is_empty()
            || game.status() == Status::Finished
        {
            return None;
        }
        let mover = game.current();
        let mut joint = 0;
        for j in 0..self.seats {
            let s = (mover + j) % self.seats;
            let cell = game.position(s);
            if cell >= self.board.size() {
                return None;
            }
            let t = self.token.encode(cell, game.has_shield(s), game.skips_next_turn(s));
            joint = joint * self.tokens + t as usize;
        }
        let m = if self.symmetric { 0 } else { mover };
        let at = (m * self.states + joint) * self.seats;
        let seen = &self.values[at..at + self.seats];
        let mut chances = vec![0.0; self.seats];
        for (j, &v) in seen.iter().enumerate() {
            chances[(mover + j) % self.seats] = v;
        }
        Some(chances)
    }

    /// Whether the last sweep changed no seat's choice and moved no value by more than
    /// [`SETTLED`].
    pub fn settled(&self) -> bool {
        self.settled
    }

    /// Whether the budget of [`PlayToWin::new_within`] stopped the sweeps before they settled.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Sweeps made.
    pub fn sweeps(&self) -> usize {
        self.sweeps
    }

    /// The most a value moved in the last sweep.
    pub fn last_change(&self) -> f64 {
        self.last_change
    }

    /// Choices changed in the last sweep (0 when settled).
    pub fn flips(&self) -> u64 {
        self.flips
    }

    /// Seats.
    pub fn seats(&self) -> usize {
        self.seats
    }

    /// The option seat `seat` takes at `decision` in `game` when it plays to win, `None` when
    /// the tables do not cover the game as it stands (another number of seats, a seat finished
    /// under finish = all: nothing is left to win).
    pub fn choose_in(&self, game: &Game, decision: &Decision) -> Option<usize> {
        if game.seats().len() != self.seats || !game.ranking().is_empty() {
            return None;
        }
        if game.status() == Status::Finished || !self.to_win[decision.seat] {
            return None;
        }
        let mut joint = 0;
        for j in 0..self.seats {
            let s = (decision.seat + j) % self.seats;
            let cell = if j == 0 { decision.position } else { game.positions()[s] };
            let t = self.token.encode(cell, game.has_shield(s), j != 0 && game.skips_next_turn(s));
            joint = joint * self.tokens + t as usize;
        }
        let m = if self.symmetric { 0 } else { decision.seat };
        let t0 = (joint / self.rest) as u32;
        let mut best: Option<(usize, f64)> = None;
        for (i, option) in decision.options.iter().enumerate() {
            let own: f64 =
                Moves::successors(&self.board, &self.rules, self.token, t0, option.steps)
                    .into_iter()
                    .map(|(q, next)| q * self.own_after(m, joint, next))
                    .sum();
            if best.is_none_or(|(_, b)| own > b + TOLERANCE) {
                best = Some((i, own));
            }
        }
        best.map(|(i, _)| i)
    }
}

/// The plays of seats playing `strategies`, the fixed ones by `policies` (one per seat).
fn plays_of<'a>(strategies: &[Strategy], policies: &'a [Box<dyn Policy + 'a>]) -> Vec<Play<'a>> {
    strategies
        .iter()
        .zip(policies)
        .map(|(s, p)| if *s == Strategy::Win { Play::ToWin } else { Play::Fixed(&**p) })
        .collect()
}

impl Moves {
    /// Every token state's options and outcomes (the engine's options for each roll class).
    fn build(board: &Board, rules: &Rules, token: Token, classes: &[RollClass]) -> Moves {
        let mut moves = Moves { option_at: vec![0], options: Vec::new(), outcomes: Vec::new() };
        let tokens = board.size() * token.flags;
        for t in 0..tokens {
            for class in classes {
                for steps in offered(board, rules, token, t, class) {
                    moves.options.push((steps, moves.outcomes.len() as u32));
                    moves.outcomes.extend(Moves::successors(board, rules, token, t, steps));
                }
                moves.option_at.push(moves.options.len() as u32);
            }
        }
        moves
    }

    /// Per token state: whether a token can be in it between rolls (the start, where a roll
    /// leaves it, and where a skip owed leaves it once the skip is served).
    fn rests(&self, token: Token, start: u32, tokens: usize) -> Vec<bool> {
        let mut rests = vec![false; tokens];
        rests[token.encode(start, false, false) as usize] = true;
        for &(_, next) in &self.outcomes {
            if let Next::Rest(t) | Next::Again(t) = next {
                rests[t as usize] = true;
                rests[token.encode(token.cell(t), token.shield(t), false) as usize] = true;
            }
        }
        rests
    }

    /// Where a move of `steps` from token state `t` leaves the mover, with chances.
    fn successors(
        board: &Board,
        rules: &Rules,
        token: Token,
        t: u32,
        steps: u32,
    ) -> Vec<(f64, Next)> {
        let shield = token.shield(t);
        let skip = token.skip(t);
        board
            .outcomes(rules, token.cell(t), steps, shield)
            .into_iter()
            .map(|o| {
                let owes = skip || o.met == Met::Skip;
                let state = token.encode(o.to, o.shield, owes);
                let next = if o.to == board.size() {
                    Next::Finish
                } else if o.met == Met::Extra {
                    Next::Again(state)
                } else {
                    Next::Rest(state)
                };
                (o.chance, next)
            })
            .collect()
    }

    /// The weight a fixed policy gives each option, as the exact chain asks it.
    fn weights(
        &self,
        board: &Board,
        rules: &Rules,
        token: Token,
        classes: &[RollClass],
        policy: &dyn Policy,
    ) -> Vec<f64> {
        let mut weights = vec![0.0; self.options.len()];
        let c = classes.len();
        for t in 0..board.size() * token.flags {
            let (cell, shield, skip) = (token.cell(t), token.shield(t), token.skip(t));
            let at = Situation {
                position: cell,
                turn_start: cell,
                streak: 0,
                shield,
                skip,
                turn_start_shield: shield,
            };
            for (ci, class) in classes.iter().enumerate() {
                let i = t as usize * c + ci;
                let range = self.option_at[i] as usize..self.option_at[i + 1] as usize;
                let options: Vec<MoveOption> = range
                    .clone()
                    .map(|o| {
                        let steps = self.options[o].0;
                        let top = class.options().iter().any(|s| s.steps == steps && s.top_face);
                        board.option(rules, cell, steps, top, shield)
                    })
                    .collect();
                let w = &mut weights[range];
                if options.len() == 1 {
                    w[0] = 1.0;
                } else if !policy.mix(at, &options, w) {
                    w.fill(0.0);
                    w[policy.choose(at, &options).min(options.len() - 1)] = 1.0;
                }
            }
        }
        weights
    }
}

/// The steps of the options the engine offers for `class` to token state `t`: of options that
/// end alike, the first.
fn offered(board: &Board, rules: &Rules, token: Token, t: u32, class: &RollClass) -> Vec<u32> {
    let (cell, shield) = (token.cell(t), token.shield(t));
    let mut kept: Vec<(u32, MoveOption)> = Vec::with_capacity(2);
    for s in class.options() {
        let option = board.option(rules, cell, s.steps, s.top_face, shield);
        if kept.iter().all(|(_, k)| !k.ends_like(&option, rules)) {
            kept.push((s.steps, option));
        }
    }
    kept.into_iter().map(|(s, _)| s).collect()
}

/// A `win` computer seat in games: the option [`PlayToWin::choose_in`] takes, or the optimal
/// policy's ([`HardPolicy`]) where the tables do not cover the game as it stands.
#[derive(Debug)]
pub struct WinDecider<'a> {
    /// The solved game.
    pub win: &'a PlayToWin,
    /// What plays where nothing is left to win.
    pub hard: &'a HardPolicy,
}

impl Decider for WinDecider<'_> {
    fn decide(&mut self, game: &Game, decision: &Decision) -> usize {
        self.win.choose_in(game, decision).unwrap_or_else(|| self.hard.choose_in(game, decision))
    }
}
