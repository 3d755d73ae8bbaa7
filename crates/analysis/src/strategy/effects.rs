// Long on purpose: the extended state, its value iteration and the policy that reads it are one model; split, each part would repeat the state's layout.
//! The optimal policy on a board with cell effects (SPEC §3b): least expected turns to finish,
//! over the extended state.
//!
//! With effects, where a turn begins is not enough to know the future: a held shield changes
//! which snakes bite, a pending skip costs one turn more when the turn ends, and an `extra`
//! cell keeps the turn going. So the turn-start state is `(b, shield)` and, within a turn, a roll
//! is awaited at a node `(x, shield, skip pending, bonus streak)` — with, under on-max void, the
//! turn's start `(b, shield at b)` too, where a void sends the token back (undoing shield and
//! skip gained). Write `V(b, h)` for the expected turns from a turn begun on `b` holding `h`, and
//! `Q(node)` for the expected turns still to come after the current one. Then
//!
//! ```text
//! V(b, h)  = 1 + Q(b, h, no skip, streak 0)
//! Q(node)  = Σ_rolls p · min over options o offered of  Σ_outcomes q · after(o, outcome)
//! after    = 0                              the token finishes
//!          = V(b, h_b)                      the capped top face voids the turn
//!          = Q(y, h', k', s')               a top-face bonus, or the token rests on an extra cell
//!          = [k'] + V(y, h')                the turn ends (a pending skip costs its turn)
//! ```
//!
//! where the options offered are the game's (`Game::options`: options of one roll that land
//! alike are one, the first — so a move that comes back to the cell it left, meeting that
//! cell's effect, leaves no choice to decline it), the outcomes of an option are its wormhole draws (`q` = their chances; 1 without
//! wormholes), resolved by [`crate::solve::effects::resolve`], the one copy of the order within a
//! roll that the solver shares. Value iteration solves it: Gauss–Seidel sweeps over every node,
//! the farthest cells first, from zero (a lower bound, so the values rise to the least fixed
//! point) until no value moves by more than [`SETTLED`] (relative). States from which N cannot
//! be reached are infinite from the start. [`EffectPolicy::bellman_residual`] measures how far the
//! result is from the fixed point.

use std::collections::HashMap;

use snl_engine::{AfterRoll, Board, Bonus, Game, Met, MoveKind, MoveOption, OnMax, Rules};

use crate::exact::{AnalysisError, RollClass, roll_classes};

/// Sweeps stop once no value moves by more than this (relative): a few units of rounding.
const SETTLED: f64 = 1e-14;

/// Sweeps at most.
const MAX_SWEEPS: usize = 200_000;

/// Nodes found between two looks at the caller's budget.
const LOOK_EVERY: usize = 256;

/// Where a roll is awaited within a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Node {
    x: u32,
    shield: bool,
    skip: bool,
    streak: u32,
    // The turn's start and the shield then: kept only under on-max void.
    b: u32,
    b_shield: bool,
}

/// What an outcome leads to.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Next {
    Finish,
    /// The turn ends on turn-start state `state`, `cost` turns (a skipped one) first.
    Turn {
        state: u32,
        cost: f64,
    },
    /// The turn goes on at node `node`.
    Within(u32),
}

/// The optimal policy's tables on a board with effects.
#[derive(Clone, Debug)]
pub(crate) struct EffectPolicy {
    board: Board,
    rules: Rules,
    classes: Vec<RollClass>,
    cap: Option<u32>,
    void: bool,
    bonus: bool,
    /// `V(b, h)` at index `2b + h`.
    values: Vec<f64>,
    nodes: Vec<Node>,
    index: HashMap<Node, u32>,
    /// `Q` per node.
    within: Vec<f64>,
    /// Options per node: every class's, in order (the same for every node).
    per_node: usize,
    /// Option `k` of node `i` is number `i · per_node + k`; its outcomes are
    /// `outcomes[option_at[o]..option_at[o + 1]]`.
    option_at: Vec<u32>,
    outcomes: Vec<(f64, Next)>,
    /// Per option number: whether the engine offers it. Options of one roll that end alike
    /// (the same cell, as `Game::options` says) are one option, the first, even where moving
    /// and staying differ under effects (a move back to the cell it left meets that cell's
    /// effect): the game has no second option there, so hard has no choice.
    offered: Vec<bool>,
    sweeps: usize,
}

fn state(cell: u32, shield: bool) -> usize {
    2 * cell as usize + usize::from(shield)
}

impl EffectPolicy {
    /// The optimal policy for `board` (with effects) under `rules`, by value iteration;
    /// stopped once `budget` is spent: it is looked at every [`LOOK_EVERY`] nodes found, and
    /// between passes and sweeps.
    pub(crate) fn new_within(
        board: &Board,
        rules: &Rules,
        budget: &crate::Budget,
    ) -> Result<EffectPolicy, AnalysisError> {
        let bonus = rules.bonus == Bonus::TopFace;
        let cap = if bonus { rules.max_bonus.limit() } else { None };
        let void = cap.is_some() && rules.on_max == OnMax::Void;
        let classes = roll_classes(rules, false);
        let per_node = classes.iter().map(|c| c.options().len()).sum();
        let mut policy = EffectPolicy {
            board: board.clone(),
            rules: *rules,
            classes,
            cap,
            void,
            bonus,
            values: vec![0.0; 2 * (board.size() as usize + 1)],
            nodes: Vec::new(),
            index: HashMap::new(),
            within: Vec::new(),
            per_node,
            option_at: vec![0],
            outcomes: Vec::new(),
            offered: Vec::new(),
            sweeps: 0,
        };
        policy.build(budget).ok_or(AnalysisError::Stopped)?;
        policy.iterate(budget).ok_or(AnalysisError::Stopped)?;
        Ok(policy)
    }

    fn start_node(&self, b: u32, shield: bool) -> Node {
        let (b_kept, b_shield) = if self.void { (b, shield) } else { (0, false) };
        Node { x: b, shield, skip: false, streak: 0, b: b_kept, b_shield }
    }

    fn intern(&mut self, node: Node, queue: &mut Vec<u32>) -> u32 {
        if let Some(&i) = self.index.get(&node) {
            return i;
        }
        let i = self.nodes.len() as u32;
        self.nodes.push(node);
        self.index.insert(node, i);
        queue.push(i);
        i
    }

    /// Every node some turn reaches, with its outcomes, breadth-first from every turn start.
    fn build(&mut self, budget: &crate::Budget) -> Option<()> {
        let n = self.board.size();
        let mut queue = Vec::new();
        for b in 0..n {
            for shield in [false, true] {
                let node = self.start_node(b, shield);
                self.intern(node, &mut queue);
            }
        }
        // Nodes are numbered as found; their outcomes are laid out in that order.
        let mut next = 0;
        while next < self.nodes.len() {
            if next % LOOK_EVERY == 0 && budget.is_limited() && budget.is_spent() {
                return None;
            }
            let node = self.nodes[next];
            next += 1;
            let classes = self.classes.clone();
            for class in &classes {
                let mut ends: Vec<(u32, bool)> = Vec::with_capacity(2);
                for step in class.options() {
                    let end = (self.lands(node, step.steps), self.bonus && step.top_face);
                    self.offered.push(!ends.contains(&end));
                    ends.push(end);
                    let found = self.successors(node, step.steps, step.top_face);
                    for (chance, succ) in found {
                        let succ = match succ {
                            Err(within) => Next::Within(self.intern(within, &mut queue)),
                            Ok(next) => next,
                        };
                        self.outcomes.push((chance, succ));
                    }
                    self.option_at.push(self.outcomes.len() as u32);
                }
            }
        }
        self.within = vec![0.0; self.nodes.len()];
        Some(())
    }

    /// Where the engine says an option of `steps` at `node` lands (`MoveOption::lands`): the
    /// landing cell when a held shield stops a snake there, else where the jumps end (a
    /// wormhole's cell itself), the cell left when the move is blocked or declined.
    fn lands(&self, node: Node, steps: u32) -> u32 {
        self.board.option(&self.rules, node.x, steps, false, node.shield).lands
    }

    /// The outcomes of playing `steps` (top face or not) at `node`: where each leads, a node
    /// still to intern as `Err`.
    fn successors(&self, node: Node, steps: u32, top: bool) -> Vec<(f64, Result<Next, Node>)> {
        let n = self.board.size();
        let (after, streak) = self.rules.after_roll(node.streak, top);
        if after == AfterRoll::Void {
            let state = state(node.b, node.b_shield) as u32;
            return vec![(1.0, Ok(Next::Turn { state, cost: 0.0 }))];
        }
        let streak = if self.cap.is_some() { streak } else { 0 };
        self.board
            .outcomes(&self.rules, node.x, steps, node.shield)
            .into_iter()
            .map(|o| {
                let skip = node.skip || o.met == Met::Skip;
                let within = |streak| Node { x: o.to, shield: o.shield, skip, streak, ..node };
                let next = if o.to == n {
                    Ok(Next::Finish)
                } else if after == AfterRoll::Again {
                    Err(within(streak))
                } else if o.met == Met::Extra {
                    Err(within(0))
                } else {
                    let state = state(o.to, o.shield) as u32;
                    Ok(Next::Turn { state, cost: f64::from(u8::from(skip)) })
                };
                (o.chance, next)
            })
            .collect()
    }

    fn value_of(&self, next: Next) -> f64 {
        match next {
            Next::Finish => 0.0,
            Next::Turn { state, cost } => cost + self.values[state as usize],
            Next::Within(i) => self.within[i as usize],
        }
    }

    fn option_value(&self, option: usize) -> f64 {
        let range = self.option_at[option] as usize..self.option_at[option + 1] as usize;
        self.outcomes[range].iter().map(|&(q, next)| q * self.value_of(next)).sum()
    }

    /// One Bellman backup of node `i`: `Σ p · min over the options offered`.
    fn backup(&self, i: usize) -> f64 {
        let mut total = 0.0;
        let mut option = i * self.per_node;
        for class in &self.classes {
            let mut best = f64::INFINITY;
            for _ in class.options() {
                if self.offered[option] {
                    best = best.min(self.option_value(option));
                }
                option += 1;
            }
            total += class.weight * best;
        }
        total
    }

    /// Which turn-start states can reach N at all; the others are infinite.
    fn can_finish(&self, budget: &crate::Budget) -> Option<Vec<bool>> {
        let mut nodes_ok = vec![false; self.nodes.len()];
        let mut states_ok = vec![false; self.values.len()];
        loop {
            if budget.is_limited() && budget.is_spent() {
                return None;
            }
            let mut changed = false;
            for i in 0..self.nodes.len() {
                if nodes_ok[i] {
                    continue;
                }
                let options = i * self.per_node..(i + 1) * self.per_node;
                let reaches = options.filter(|&o| self.offered[o]).any(|o| {
                    let outcomes = self.option_at[o] as usize..self.option_at[o + 1] as usize;
                    self.outcomes[outcomes].iter().any(|&(_, next)| match next {
                        Next::Finish => true,
                        Next::Turn { state, .. } => states_ok[state as usize],
                        Next::Within(j) => nodes_ok[j as usize],
                    })
                });
                if reaches {
                    nodes_ok[i] = true;
                    changed = true;
                    let node = self.nodes[i];
                    if node.streak == 0
                        && !node.skip
                        && self.start_node(node.x, node.shield) == node
                    {
                        states_ok[state(node.x, node.shield)] = true;
                    }
                }
            }
            if !changed {
                return Some(states_ok);
            }
        }
    }

    /// Gauss–Seidel sweeps, the farthest cells first, until the values settle.
    fn iterate(&mut self, budget: &crate::Budget) -> Option<()> {
        let n = self.board.size();
        let ok = self.can_finish(budget)?;
        for (s, v) in self.values.iter_mut().enumerate() {
            *v = if s / 2 == n as usize || ok[s] { 0.0 } else { f64::INFINITY };
        }
        let mut order: Vec<usize> = (0..self.nodes.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.nodes[i].x));
        for sweep in 1..=MAX_SWEEPS {
            if budget.is_limited() && budget.is_spent() {
                return None;
            }
            let mut change = 0.0_f64;
            for &i in &order {
                let q = self.backup(i);
                change = change.max(gap(q, self.within[i]));
                self.within[i] = q;
                let node = self.nodes[i];
                if self.start_node(node.x, node.shield) == node {
                    let s = state(node.x, node.shield);
                    if ok[s] {
                        change = change.max(gap(1.0 + q, self.values[s]));
                        self.values[s] = 1.0 + q;
                    }
                }
            }
            self.sweeps = sweep;
            if change <= SETTLED {
                break;
            }
        }
        Some(())
    }

    /// `V(b, no shield)` for b in 0..=N.
    pub(crate) fn values_without_shield(&self) -> Vec<f64> {
        (0..=self.board.size()).map(|b| self.values[state(b, false)]).collect()
    }

    /// `V(b, h)`: expected turns to finish from a turn begun on `b` holding a shield or not.
    pub(crate) fn value(&self, b: u32, shield: bool) -> f64 {
        self.values[state(b, shield)]
    }

    /// Sweeps made.
    pub(crate) fn sweeps(&self) -> usize {
        self.sweeps
    }

    /// The largest relative gap between a value and its Bellman backup, over every node and
    /// every turn-start state that can finish.
    pub(crate) fn bellman_residual(&self) -> f64 {
        let mut worst = 0.0_f64;
        for i in 0..self.nodes.len() {
            let q = self.within[i];
            if !q.is_finite() {
                continue;
            }
            worst = worst.max((self.backup(i) - q).abs() / (1.0 + q));
            let node = self.nodes[i];
            if self.start_node(node.x, node.shield) == node {
                let v = self.values[state(node.x, node.shield)];
                if v.is_finite() {
                    worst = worst.max(((1.0 + q) - v).abs() / v);
                }
            }
        }
        worst
    }

    /// The expected turns after this one when `option` is taken at a node, `None` if the node
    /// is none a turn reaches.
    fn option_after(&self, node: Node, option: &MoveOption) -> Option<f64> {
        let mut total = 0.0;
        for (q, next) in self.successors(node, option.steps, option.top_face) {
            let value = match next {
                Ok(next) => self.value_of(next),
                Err(within) => self.within[*self.index.get(&within)? as usize],
            };
            total += q * value;
        }
        Some(total)
    }

    /// The best option at the position `x`, shield, skip pending, streak and turn start given,
    /// with the expected turns after this one; `None` if that is no node a turn reaches.
    pub(crate) fn best(&self, at: At, options: &[MoveOption]) -> Option<(usize, f64)> {
        let node = Node {
            x: at.position,
            shield: at.shield,
            skip: at.skip,
            streak: if self.cap.is_some() { at.streak } else { 0 },
            b: if self.void { at.turn_start } else { 0 },
            b_shield: self.void && at.turn_start_shield,
        };
        let mut best: Option<(usize, f64)> = None;
        for (i, option) in options.iter().enumerate() {
            let value = self.option_after(node, option)?;
            if best.is_none_or(|(_, b)| super::hard::better(value, b)) {
                best = Some((i, value));
            }
        }
        best
    }
}

/// Where a decision is made on a board with effects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct At {
    pub(crate) position: u32,
    pub(crate) shield: bool,
    pub(crate) skip: bool,
    pub(crate) streak: u32,
    pub(crate) turn_start: u32,
    pub(crate) turn_start_shield: bool,
}

/// Whether `seat` held a shield when its turn in progress began, read from the game's history
/// (the game keeps it privately, for on-max void): its shield now, unless a move of this turn
/// gained or used one.
pub(crate) fn shield_at_turn_start(game: &Game, seat: usize) -> bool {
    let board = game.board();
    let mut shield = false;
    let mut at_start = false;
    let mut turn = u32::MAX;
    for record in game.history_of(seat) {
        if record.turn != turn {
            turn = record.turn;
            at_start = shield;
        }
        match record.kind {
            MoveKind::Voided => shield = at_start,
            MoveKind::Moved => {
                let landed = record.jumps.first().map_or(record.to, |j| j.from);
                let bitten = board.jump_at(landed).is_some_and(|to| to < landed);
                if shield && bitten && record.jumps.is_empty() {
                    shield = false;
                } else if record.to != board.size()
                    && matches!(board.effect_at(record.to), Some(snl_engine::Effect::Shield))
                {
                    shield = true;
                }
            }
            _ => {}
        }
    }
    let this_turn = game.in_turn() && game.current() == seat && turn == game.turns();
    if this_turn { at_start } else { game.has_shield(seat) }
}

/// The relative change from `old` to `new` (infinite values count as settled once they stay).
#[expect(clippy::float_cmp, reason = "equal values, infinite ones too, have not moved")]
fn gap(new: f64, old: f64) -> f64 {
    if new == old {
        0.0
    } else if new.is_finite() && old.is_finite() {
        (new - old).abs() / new.abs().max(1e-300)
    } else {
        f64::INFINITY
    }
}
