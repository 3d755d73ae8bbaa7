//! Cell effects (SPEC §3b): `skip`, `extra`, `shield` and `wormhole` on plain cells, as written
//! in a board file (`[[cell]] at = 30, effect = "skip"`; a wormhole also has `exits`), their
//! checked form, and the checks of [`crate::Board::new`] that concern them.
//!
//! The data model is deliberately small: a [`CellSpec`] (in the board's spec) is text as written, a [`CellEffect`] is
//! one checked cell (`at` and an [`Effect`]), and a board keeps its effects sorted by cell. What an
//! effect does in a move is in `moves.rs` ([`crate::Board::met`]); where a wormhole leads is drawn
//! by the caller's
//! [`crate::RollSource`] (the engine asks for the draw with [`crate::Pending::Draw`]).

use std::fmt;

use crate::{
    board::{BoardProblem, CellSpec, Jump},
    rules::{JumpMode, Rules, Start},
};

/// What a cell does to a token that comes to rest on it by moving (a wormhole: that lands on it).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// The player's next turn is skipped (it counts as a turn with no roll).
    Skip,
    /// The turn goes on with one more roll.
    Extra,
    /// The player holds a shield (at most one), which stops the next snake landed on.
    Shield,
    /// A jump whose end is drawn uniformly from `exits`.
    Wormhole {
        /// Where it may lead, as written (distinct cells, none the wormhole itself).
        exits: Vec<u32>,
    },
}

impl Effect {
    /// Every effect name, as written in board files.
    pub const NAMES: [&'static str; 4] = ["skip", "extra", "shield", "wormhole"];

    /// The name written in board files.
    pub fn name(&self) -> &'static str {
        match self {
            Effect::Skip => "skip",
            Effect::Extra => "extra",
            Effect::Shield => "shield",
            Effect::Wormhole { .. } => "wormhole",
        }
    }

    /// A wormhole's exits; empty for the other effects.
    pub fn exits(&self) -> &[u32] {
        match self {
            Effect::Wormhole { exits } => exits,
            _ => &[],
        }
    }
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One checked effect cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CellEffect {
    /// The cell.
    pub at: u32,
    /// What it does.
    pub effect: Effect,
}

impl CellEffect {
    /// The written form.
    pub fn to_spec(&self) -> CellSpec {
        CellSpec {
            at: self.at,
            effect: self.effect.name().to_owned(),
            exits: self.effect.exits().to_vec(),
        }
    }
}

/// Checks the written effects against the board's size, jumps and rules, pushing every problem
/// found; returns the effects that are well formed, sorted by cell.
pub(crate) fn check_cells(
    cells: &[CellSpec],
    size: u32,
    jumps: &[Jump],
    rules: &Rules,
    problems: &mut Vec<BoardProblem>,
) -> Vec<CellEffect> {
    let on_board = |c: u32| (1..=size).contains(&c);
    let mut effects: Vec<CellEffect> = Vec::with_capacity(cells.len());
    for cell in cells {
        let at = cell.at;
        let effect = match cell.effect.trim() {
            "skip" => Effect::Skip,
            "extra" => Effect::Extra,
            "shield" => Effect::Shield,
            "wormhole" => Effect::Wormhole { exits: cell.exits.clone() },
            other => {
                problems.push(BoardProblem::UnknownEffect { at, name: other.to_owned() });
                continue;
            }
        };
        let name = effect.name();
        if !on_board(at) {
            problems.push(BoardProblem::EffectOffBoard { at, effect: name, size });
            continue;
        }
        let mut ok = true;
        if at == size {
            problems.push(BoardProblem::EffectOnLast { at, effect: name });
            ok = false;
        }
        if rules.start == Start::FirstCell && at == 1 {
            problems.push(BoardProblem::EffectOnStart { at, effect: name });
            ok = false;
        }
        if let Ok(i) = jumps.binary_search_by_key(&at, |j| j.from) {
            problems.push(BoardProblem::EffectOnJump { at, effect: name, jump: jumps[i] });
            ok = false;
        }
        match &effect {
            Effect::Wormhole { exits } => {
                if exits.is_empty() {
                    problems.push(BoardProblem::NoExits { at });
                    ok = false;
                }
                for (i, &exit) in exits.iter().enumerate() {
                    if !on_board(exit) {
                        problems.push(BoardProblem::ExitOffBoard { at, exit, size });
                        ok = false;
                    } else if exit == at {
                        problems.push(BoardProblem::ExitOnItself { at });
                        ok = false;
                    } else if exits[..i].contains(&exit) {
                        problems.push(BoardProblem::RepeatedExit { at, exit });
                        ok = false;
                    }
                }
            }
            _ if !cell.exits.is_empty() => {
                problems.push(BoardProblem::ExitsNotWormhole { at, effect: name });
                ok = false;
            }
            _ => {}
        }
        if ok {
            effects.push(CellEffect { at, effect });
        }
    }
    effects.sort_by_key(|e| e.at);
    // Sorted, so effects sharing a cell are a run: name each cell once.
    let mut named = None;
    for pair in effects.windows(2) {
        if pair[0].at == pair[1].at && named != Some(pair[0].at) {
            named = Some(pair[0].at);
            problems.push(BoardProblem::SharedEffect { at: pair[0].at });
        }
    }
    effects
}

// The colours of the cycle search.
const NEW: u8 = 0;
const ON_PATH: u8 = 1;
const DONE: u8 = 2;

/// Under chained jumps, a cycle through a wormhole's exits (any exit, since any may be drawn):
/// the cells of the first cycle found, in order. `dest[c]` is the end of the jump starting on c
/// (c itself when none); `effects` are sorted by cell.
///
/// An iterative depth-first search over the cells that start a jump or hold a wormhole, each
/// cell visited once: linear in cells plus exits.
pub(crate) fn wormhole_cycle(
    dest: &[u32],
    effects: &[CellEffect],
    mode: JumpMode,
) -> Option<Vec<u32>> {
    if mode != JumpMode::Chain
        || !effects.iter().any(|e| matches!(e.effect, Effect::Wormhole { .. }))
    {
        return None;
    }
    let exits_of = |c: u32| -> Option<&[u32]> {
        let i = effects.binary_search_by_key(&c, |e| e.at).ok()?;
        match &effects[i].effect {
            Effect::Wormhole { exits } => Some(exits),
            _ => None,
        }
    };
    let next = |c: u32, k: usize| -> Option<u32> {
        if dest[c as usize] != c {
            return (k == 0).then_some(dest[c as usize]);
        }
        exits_of(c).and_then(|exits| exits.get(k).copied())
    };
    let mut colour = vec![NEW; dest.len()];
    let starts = (0..dest.len() as u32).filter(|&c| dest[c as usize] != c || exits_of(c).is_some());
    for start in starts {
        if colour[start as usize] != NEW {
            continue;
        }
        // The path, each cell with the index of the next edge to follow.
        let mut stack: Vec<(u32, usize)> = vec![(start, 0)];
        colour[start as usize] = ON_PATH;
        while let Some(&mut (cell, ref mut k)) = stack.last_mut() {
            if let Some(to) = next(cell, *k) {
                *k += 1;
                match colour[to as usize] {
                    NEW => {
                        colour[to as usize] = ON_PATH;
                        stack.push((to, 0));
                    }
                    ON_PATH => {
                        let i = stack.iter().position(|&(c, _)| c == to).unwrap_or(0);
                        return Some(stack[i..].iter().map(|&(c, _)| c).collect());
                    }
                    _ => {}
                }
            } else {
                colour[cell as usize] = DONE;
                stack.pop();
            }
        }
    }
    None
}
