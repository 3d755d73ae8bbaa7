//! Playing to win a two-seat game: the joint state of both tokens, solved exactly.
//!
//! [`HardPolicy`](super::HardPolicy) finishes as fast as it can on average, whatever the other
//! seat does. Against a known opponent, a player who wants to *win* does better by looking at
//! both tokens: ahead, it plays safe (it need not hurry, only avoid the snakes); behind, it takes
//! risks that lower its chance to finish soon on average but raise its chance to finish first.
//!
//! With seat A playing to win and seat B playing a fixed [`Policy`] (or also playing to win),
//! write `P_A(a, b)` for A's chance to win when A is to move, standing on `a` with B on `b`, and
//! `P_B(a, b)` for A's chance when B is to move. Without bonus rolls a turn is one roll, so
//!
//! ```text
//! P_A(a, b) = Σ_rolls p · max over A's options o of  (1 if o finishes, else P_B(y_o, b))
//! P_B(a, b) = Σ_b' K_B(b, b') · (0 if b' = N, else P_A(a, b'))     (B plays a fixed policy)
//!           = Σ_rolls p · min over B's options o of  (0 if o finishes, else P_A(a, y_o))   (B plays to win)
//! ```
//!
//! Value iteration from 0 climbs to the answer (the chance of winning within k rounds, then the
//! limit); each sweep goes over the N² pairs of positions, highest first, and it stops when no
//! value moves by more than 1e-14 (about as many sweeps as rounds a game can last: a few hundred
//! on a 100-cell board). With two seats the game ends when one finishes under either finish rule,
//! so the answer holds for both; bonus rolls are not covered (a turn would hold several
//! decisions, each weighing the other token too).

use snl_engine::{Board, Bonus, Decider, Decision, Game, MoveOption, Rules};

use crate::exact::{Policy, RollClass, TurnChain, roll_classes};

/// Sweeps at most.
const MAX_SWEEPS: usize = 1_000_000;

/// The iteration stops when no value moves by more than this.
const SETTLED: f64 = 1e-14;

/// How the other seat plays.
#[derive(Clone, Copy)]
pub enum Opponent<'a> {
    /// By a fixed policy (any strategy, random ones too).
    Plays(&'a dyn Policy),
    /// To win, against this player: the two-player zero-sum game, solved to its value.
    ToWin,
}

impl std::fmt::Debug for Opponent<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Opponent::Plays(_) => f.write_str("Plays(..)"),
            Opponent::ToWin => f.write_str("ToWin"),
        }
    }
}

/// Why a two-seat game cannot be solved here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum JointError {
    /// Bonus rolls make a turn hold several decisions; not covered.
    #[error("playing to win is solved without bonus rolls only")]
    BonusRolls,
}

/// The policy that maximises the chance to win a two-seat game against a known opponent.
///
/// ```
/// use snl_analysis::strategy::{HardPolicy, Opponent, WinningPolicy};
/// use snl_engine::{Board, Choice, Preset, Rules};
///
/// let rules = Rules { choice: Choice::MayPass, ..Rules::default() };
/// let board = Board::new(&Preset::Classic.spec(), &rules)?;
/// let fastest = HardPolicy::new(&board, &rules)?;
/// let winner = WinningPolicy::new(&board, &rules, Opponent::Plays(&fastest))?;
/// // Head to head, seats alternating: at least an even chance, by construction.
/// let p = (winner.win_probability(true) + winner.win_probability(false)) / 2.0;
/// assert!(p >= 0.5);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct WinningPolicy {
    board: Board,
    rules: Rules,
    classes: Vec<RollClass>,
    size: u32,
    /// `P_A(a, b)` at `a · (N + 1) + b`.
    to_move: Vec<f64>,
    /// `P_B(a, b)` at `a · (N + 1) + b`.
    waiting: Vec<f64>,
    sweeps: usize,
}

impl WinningPolicy {
    /// The policy for a seat playing to win against `opponent` on `board` under `rules`.
    ///
    /// # Errors
    ///
    /// [`JointError::BonusRolls`] under bonus rolls.
    pub fn new(
        board: &Board,
        rules: &Rules,
        opponent: Opponent<'_>,
    ) -> Result<WinningPolicy, JointError> {
        if rules.bonus == Bonus::TopFace {
            return Err(JointError::BonusRolls);
        }
        let size = board.size();
        let m = size as usize + 1;
        let mut policy = WinningPolicy {
            board: board.clone(),
            rules: *rules,
            classes: roll_classes(rules, false),
            size,
            to_move: vec![0.0; m * m],
            waiting: vec![0.0; m * m],
            sweeps: 0,
        };
        let chain = match opponent {
            Opponent::Plays(p) => Some(TurnChain::with_policy(board, rules, p)),
            Opponent::ToWin => None,
        };
        let n = size as usize;
        for sweep in 1..=MAX_SWEEPS {
            let mut change = 0.0_f64;
            for a in (0..n).rev() {
                for b in (0..n).rev() {
                    let waiting = match &chain {
                        Some(chain) => chain
                            .row(b as u32)
                            .filter(|&(e, _)| e != size)
                            .map(|(e, p)| p * policy.to_move[a * m + e as usize])
                            .sum(),
                        None => policy.expect(b as u32, false, |y| {
                            if y == size { 0.0 } else { policy.to_move[a * m + y as usize] }
                        }),
                    };
                    change = change.max((waiting - policy.waiting[a * m + b]).abs());
                    policy.waiting[a * m + b] = waiting;
                    let to_move = policy.expect(a as u32, true, |y| {
                        if y == size { 1.0 } else { policy.waiting[y as usize * m + b] }
                    });
                    change = change.max((to_move - policy.to_move[a * m + b]).abs());
                    policy.to_move[a * m + b] = to_move;
                }
            }
            policy.sweeps = sweep;
            if change <= SETTLED {
                break;
            }
        }
        Ok(policy)
    }

    /// `Σ_rolls p · best over the options at x of value(resting cell)`: the best is the
    /// largest when `maximise`, else the smallest.
    fn expect(&self, x: u32, maximise: bool, value: impl Fn(u32) -> f64) -> f64 {
        let mut total = 0.0;
        for class in &self.classes {
            let mut best = if maximise { f64::NEG_INFINITY } else { f64::INFINITY };
            let mut seen = [u32::MAX; 2];
            for (i, s) in class.options().iter().enumerate() {
                let y =
                    if s.steps == 0 { x } else { self.board.advance(&self.rules, x, s.steps).end };
                if seen.contains(&y) {
                    continue;
                }
                seen[i] = y;
                let v = value(y);
                best = if maximise { best.max(v) } else { best.min(v) };
            }
            total += class.weight * best;
        }
        total
    }

    /// The chance to win from the start, moving first (`true`) or second.
    pub fn win_probability(&self, first: bool) -> f64 {
        let m = self.size as usize + 1;
        let s = self.rules.start_position() as usize;
        if first { self.to_move[s * m + s] } else { self.waiting[s * m + s] }
    }

    /// The chance to win when this seat is to move on `me` and the other token is on `them`.
    pub fn win_probability_at(&self, me: u32, them: u32) -> f64 {
        self.to_move[me as usize * (self.size as usize + 1) + them as usize]
    }

    /// Value-iteration sweeps made.
    pub fn sweeps(&self) -> usize {
        self.sweeps
    }

    /// The option taken with the other token on `them` (the options tell where each rests): the
    /// one after which the chance to win is highest (the first of equals).
    pub fn choose_at(&self, them: u32, options: &[MoveOption]) -> usize {
        let m = self.size as usize + 1;
        let value = |o: &MoveOption| {
            if o.lands == self.size {
                1.0
            } else {
                self.waiting[o.lands as usize * m + them as usize]
            }
        };
        let mut best = 0;
        for (i, o) in options.iter().enumerate().skip(1) {
            if value(o) > value(&options[best]) + 1e-13 {
                best = i;
            }
        }
        best
    }
}

impl Decider for WinningPolicy {
    /// In a game of two seats, the other token's position is read from `game`.
    fn decide(&mut self, game: &Game, decision: &Decision) -> usize {
        let them = game.positions()[1 - decision.seat.min(1)];
        self.choose_at(them, &decision.options)
    }
}
