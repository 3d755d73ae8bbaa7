// Long on purpose: one roll resolved as the engine plays it, then the two searches (rolls, turns) that share it; a third of the file is their hand-derived tests.
//! Fewest rolls and fewest turns on a board with cell effects (SPEC §3b).
//!
//! A roll is resolved here exactly as the engine's turn plays it (`turn.rs`): target → overshoot
//! rule → landing cell → a shield stops a snake on the landing cell (the token stays, the shield
//! is used up) else the jumps (a wormhole is a jump whose end is drawn) → resting cell → finish
//! on N, else the resting cell's effect (`skip`, `extra`, `shield`). A blocked or declined move
//! triggers nothing. The engine's [`Board::outcomes`] gives every way one roll may end, each with
//! its chance (a wormhole's exits are equally likely), and the solver, `hard` and `greedy` all
//! read it.
//!
//! The searches:
//!
//! - **Fewest rolls**: breadth-first over (cell, shield held). Skipped turns cost no roll and an
//!   extra roll is a roll like any other, so neither changes the count; a shield changes which
//!   snakes bite. A wormhole leads to the best of its exits (the dice are the player's to choose,
//!   and so are the draws: the best case).
//! - **Fewest turns**: Dijkstra over (cell, shield, skip pending, bonus streak) as a roll is
//!   awaited within a turn already counted. A roll that keeps the turn going (a top-face bonus or
//!   an `extra` cell, one more roll either way) costs nothing, one that ends it costs the next
//!   turn, and a pending skip costs one turn more (a skipped turn counts as a turn with no roll).
//!   A voided turn is never part of a fewest-turns route (it spends a turn to go back).
//! - **Rolls to finish** (the hint per cell): the fewest rolls from every cell, for a token that
//!   holds no shield; backward breadth-first over the same (cell, shield) graph.

use std::{
    cmp::Reverse,
    collections::{BinaryHeap, VecDeque},
    fmt,
};

use snl_engine::{AfterRoll, Board, Bonus, Choice, Rules};
pub use snl_engine::{Met, Outcome};

use super::turns::{MAX_TURN_STATES, TurnsError};

/// Every `(steps, top_face)` one roll may be played as under `rules` (0 steps: declined), as the
/// fewest-turns search of boards without effects reads them.
pub(crate) fn roll_steps(rules: &Rules) -> Vec<(u32, bool)> {
    let bonus = rules.bonus == Bonus::TopFace;
    let top_step = match rules.choice {
        Choice::PickDie => rules.dice.faces(),
        _ => rules.dice.top_total(),
    };
    let mut steps: Vec<(u32, bool)> =
        rules.step_values().map(|s| (s, bonus && s == top_step)).collect();
    if rules.choice == Choice::MayPass {
        let declined: Vec<(u32, bool)> = steps.iter().map(|&(_, top)| (0, top)).collect();
        steps.extend(declined);
        steps.dedup();
    }
    steps
}

/// One roll of a shortest path on a board with effects.
#[derive(Clone, Debug, PartialEq)]
pub struct EffectMove {
    /// Where the token was.
    pub from: u32,
    /// Whether it held a shield before the roll.
    pub shield_before: bool,
    /// The roll, resolved (the wormhole exits taken are the best case).
    pub outcome: Outcome,
}

/// The answer of a fewest-rolls search on a board with effects: a shortest path with the
/// effects met along it, or unreachable.
#[derive(Clone, Debug, PartialEq)]
pub struct EffectSolution {
    from: u32,
    size: u32,
    moves: Option<Vec<EffectMove>>,
    // The board's wormhole cells, sorted.
    wormholes: Vec<u32>,
}

impl EffectSolution {
    /// The position the search started from.
    pub fn from(&self) -> u32 {
        self.from
    }

    /// N, the cell searched for.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// Whether cell N can be reached at all.
    pub fn is_reachable(&self) -> bool {
        self.moves.is_some()
    }

    /// The fewest rolls to reach N, or `None` when it cannot be reached.
    pub fn min_rolls(&self) -> Option<u32> {
        self.moves.as_ref().map(|m| m.len() as u32)
    }

    /// The rolls of one shortest path, in order (`None` when unreachable).
    pub fn moves(&self) -> Option<&[EffectMove]> {
        self.moves.as_deref()
    }

    /// Whether the board has wormholes, so the answer is the best case over their exits.
    pub fn best_case_wormholes(&self) -> bool {
        !self.wormholes.is_empty()
    }

    fn is_wormhole(&self, cell: u32) -> bool {
        self.wormholes.binary_search(&cell).is_ok()
    }

    /// The cells the token visits, the start first: each landing, then each jump's end.
    pub fn path(&self) -> Vec<u32> {
        let Some(moves) = &self.moves else { return Vec::new() };
        let mut cells = vec![self.from];
        for m in moves {
            cells.push(m.outcome.landed);
            cells.extend(m.outcome.jumps.iter().map(|j| j.to));
        }
        cells
    }

    /// The effects met along the path, in order, as `(cell, what)`: `shield used`, `shield`,
    /// `extra roll`, `skip`, `wormhole`.
    pub fn met(&self) -> Vec<(u32, &'static str)> {
        let mut met = Vec::new();
        for m in self.moves.iter().flatten() {
            let o = &m.outcome;
            if o.shield_used {
                met.push((o.landed, "shield used"));
            }
            for j in &o.jumps {
                if self.is_wormhole(j.from) {
                    met.push((j.from, "wormhole"));
                }
            }
            if let Some(word) = met_word(o.met, m.shield_before) {
                met.push((o.to, word));
            }
        }
        met
    }
}

fn met_word(met: Met, shield_before: bool) -> Option<&'static str> {
    match met {
        Met::Nothing => None,
        Met::Skip => Some("skip"),
        Met::Extra => Some("extra roll"),
        Met::Shield if shield_before => None,
        Met::Shield => Some("shield"),
    }
}

/// `7 rolls: 0 → 5 (shield) → 11 ⇒ 40 (ladder) → …`, or `cell 100 cannot be reached from 0`.
impl fmt::Display for EffectSolution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(moves) = &self.moves else {
            return write!(f, "cell {} cannot be reached from {}", self.size, self.from);
        };
        let plural = if moves.len() == 1 { "" } else { "s" };
        write!(f, "{} roll{plural}: {}", moves.len(), self.from)?;
        for m in moves {
            let o = &m.outcome;
            write!(f, " → {}", o.landed)?;
            if m.from + o.steps > self.size {
                f.write_str(if o.landed == self.size { " (overshot)" } else { " (bounced)" })?;
            }
            if o.shield_used {
                f.write_str(" (shield used)")?;
            }
            for j in &o.jumps {
                let kind = if self.is_wormhole(j.from) {
                    "wormhole"
                } else if j.is_snake() {
                    "snake"
                } else {
                    "ladder"
                };
                write!(f, " ⇒ {} ({kind})", j.to)?;
            }
            if let Some(word) = met_word(o.met, m.shield_before) {
                write!(f, " ({word})")?;
            }
        }
        Ok(())
    }
}

fn state(cell: u32, shield: bool) -> usize {
    2 * cell as usize + usize::from(shield)
}

/// The fewest rolls from `from` (holding no shield) to cell N on a board with effects, and one
/// shortest path with the effects met along it. Wormholes: the best case over their exits.
///
/// # Panics
///
/// Panics if `from` is past N.
pub fn fewest_rolls(board: &Board, rules: &Rules, from: u32) -> EffectSolution {
    let n = board.size();
    assert!(from <= n, "position {from} is past the last cell {n}");
    let wormholes =
        board.effects().iter().filter(|e| board.wormhole_at(e.at).is_some()).map(|e| e.at);
    let wormholes: Vec<u32> = wormholes.collect();
    let states = 2 * (n as usize + 1);
    // parent[s]: the state before and the roll that first reached s.
    let mut parent: Vec<Option<(usize, EffectMove)>> = vec![None; states];
    let mut seen = vec![false; states];
    let first = state(from, false);
    seen[first] = true;
    let mut queue = VecDeque::from([first]);
    let mut goal = (from == n).then_some(first);
    'search: while let Some(s) = queue.pop_front() {
        let (cell, shield) = ((s / 2) as u32, s % 2 == 1);
        if cell == n {
            continue;
        }
        for steps in rules.step_values() {
            for outcome in board.outcomes(rules, cell, steps, shield) {
                let next = state(outcome.to, outcome.shield);
                if seen[next] {
                    continue;
                }
                seen[next] = true;
                let reached = outcome.to == n;
                parent[next] = Some((s, EffectMove { from: cell, shield_before: shield, outcome }));
                if reached {
                    goal = Some(next);
                    break 'search;
                }
                queue.push_back(next);
            }
        }
    }
    let moves = goal.map(|mut s| {
        let mut moves = Vec::new();
        while let Some((before, m)) = parent[s].take() {
            moves.push(m);
            s = before;
        }
        moves.reverse();
        moves
    });
    EffectSolution { from, size: n, moves, wormholes }
}

/// The fewest turns from `from` (as a turn begins, holding no shield, no skip pending) to cell N
/// on a board with effects, or `None` if N cannot be reached: a skipped turn counts as a turn,
/// an extra cell or a top-face bonus gives one more roll in the turn, a shield stops one snake,
/// a wormhole leads to the best of its exits.
///
/// # Errors
///
/// [`TurnsError::TooLarge`] when the states would be more than [`MAX_TURN_STATES`].
///
/// # Panics
///
/// Panics if `from` is past N.
pub fn fewest_turns(board: &Board, rules: &Rules, from: u32) -> Result<Option<u32>, TurnsError> {
    let n = board.size();
    assert!(from <= n, "position {from} is past the last cell {n}");
    if from == n {
        return Ok(Some(0));
    }
    let bonus = rules.bonus == Bonus::TopFace;
    let cap = if bonus { rules.max_bonus.limit() } else { None };
    let per = u64::from(cap.unwrap_or(1));
    let cells = u64::from(n) + 1;
    let states = cells * 4 * per;
    if states > MAX_TURN_STATES {
        return Err(TurnsError::TooLarge { cells, cap: per, states });
    }
    let per = per as usize;
    let id = |cell: u32, shield: bool, skip: bool, streak: u32| {
        (state(cell, shield) * 2 + usize::from(skip)) * per + streak as usize
    };
    let finish = states as usize; // one more node: finished
    let mut turns = vec![u32::MAX; finish + 1];
    let mut heap = BinaryHeap::new();
    let start = id(from, false, false, 0);
    turns[start] = 1; // the first turn has begun
    heap.push(Reverse((1, start)));
    let steps = roll_steps(rules);
    while let Some(Reverse((t, s))) = heap.pop() {
        if s == finish {
            return Ok(Some(t));
        }
        if t > turns[s] {
            continue;
        }
        let streak = (s % per) as u32;
        let rest = s / per;
        let skip = rest % 2 == 1;
        let (cell, shield) = ((rest / 4) as u32, (rest / 2) % 2 == 1);
        for &(step, top) in &steps {
            let (after, next_streak) = rules.after_roll(streak, top);
            if after == AfterRoll::Void {
                continue; // back where the turn began, a turn later: never shorter
            }
            for o in board.outcomes(rules, cell, step, shield) {
                let skip = skip || o.met == Met::Skip;
                let (next, cost) = if o.to == n {
                    (finish, 0)
                } else if after == AfterRoll::Again {
                    let streak = if cap.is_some() { next_streak } else { 0 };
                    (id(o.to, o.shield, skip, streak), 0)
                } else if o.met == Met::Extra {
                    (id(o.to, o.shield, skip, 0), 0)
                } else {
                    // The turn ends; the next begins, after a skipped one if a skip is pending.
                    (id(o.to, o.shield, false, 0), 1 + u32::from(skip))
                };
                if t + cost < turns[next] {
                    turns[next] = t + cost;
                    heap.push(Reverse((t + cost, next)));
                }
            }
        }
    }
    Ok(None)
}

/// For every position `0..=N` of a board with effects, the fewest rolls to reach N from there
/// for a token that holds no shield, or `None` where N cannot be reached. Wormholes: the best
/// case over their exits.
pub fn rolls_to_finish(board: &Board, rules: &Rules) -> Vec<Option<u32>> {
    let n = board.size();
    let states = 2 * (n as usize + 1);
    let mut back: Vec<Vec<u32>> = vec![Vec::new(); states];
    for cell in 0..n {
        for shield in [false, true] {
            let s = state(cell, shield);
            for steps in rules.step_values() {
                for o in board.outcomes(rules, cell, steps, shield) {
                    back[state(o.to, o.shield)].push(s as u32);
                }
            }
        }
    }
    let mut rolls = vec![u32::MAX; states];
    let mut queue = VecDeque::new();
    for shield in [false, true] {
        rolls[state(n, shield)] = 0;
        queue.push_back(state(n, shield));
    }
    while let Some(s) = queue.pop_front() {
        let next = rolls[s] + 1;
        for &p in &back[s] {
            if rolls[p as usize] == u32::MAX {
                rolls[p as usize] = next;
                queue.push_back(p as usize);
            }
        }
    }
    (0..=n).map(|c| Some(rolls[state(c, false)]).filter(|&r| r != u32::MAX)).collect()
}
