//! One move, decided once (SPEC §3, §3b).
//!
//! A roll of `steps` cells from `from`, for a token that holds a shield or not, plays out in this
//! order — and this file is the only place that says so:
//!
//! 1. **Entry** ([`Board::enter`]): the target `from + steps`; past N the overshoot rule
//!    ([`Overshoot::land`]) gives the landing cell, or blocks the move (the token stays, nothing
//!    below happens). A declined move (0 steps) is blocked too. A held shield stops a snake that
//!    starts on the landing cell: the token rests on its head and the shield is used up.
//! 2. **Jumps** ([`Board::next_jump`]): a ladder or a snake goes to its end, a wormhole to an exit
//!    drawn uniformly; once under single jumps, on under chained jumps.
//! 3. **Rest** ([`Board::met`]): on N the player finishes; elsewhere the resting cell's effect
//!    applies to a token that came there by moving (`skip`, `extra`, `shield`).
//!
//! The engine's turn (`turn.rs`) walks these steps one input at a time (a wormhole awaits its
//! draw); [`Board::outcomes`] enumerates every way they may end with its chance, for the solver,
//! the exact chains and the strategies; [`Board::options`] gives the ways to play a roll under a
//! choice rule, each with where it lands and what it meets ([`MoveOption`]), for the turn, the
//! strategies and every front end's option labels. Hot kernels (the simulation's tables, the
//! solver's runs of cells) precompute from these functions and never restate them.

use serde::{Deserialize, Serialize};

use crate::{
    board::{Board, Jump},
    dice::Roll,
    effects::Effect,
    rules::{Bonus, Choice, JumpMode, Overshoot, Rules},
};

impl Overshoot {
    /// Where a move towards `target` (a position plus a roll, past `n` or not) lands on a board
    /// of `n` cells, or `None` when the move is blocked (under [`Overshoot::Stay`], a target past
    /// N). Under [`Overshoot::Bounce`] a roll longer than the board keeps reflecting between
    /// cells 1 and `n`, like a ball between two walls.
    pub fn land(self, n: u32, target: u32) -> Option<u32> {
        if target <= n {
            return Some(target);
        }
        match self {
            Overshoot::Stay => None,
            Overshoot::Win => Some(n),
            Overshoot::Bounce if n == 1 => Some(1),
            Overshoot::Bounce => {
                let period = 2 * (n - 1);
                let offset = (target - 1) % period;
                Some(if offset < n { offset + 1 } else { period - offset + 1 })
            }
        }
    }
}

/// Where a move went, step by step, on a board without a shield held: [`Board::advance`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Advance {
    /// The position before the move.
    pub from: u32,
    /// `from + steps`, maybe past N.
    pub target: u32,
    /// Whether the target was past N.
    pub overshoot: bool,
    /// Whether the overshoot rule kept the token where it was.
    pub blocked: bool,
    /// The cell landed on after the overshoot rule, before jumps (`from` when blocked).
    pub landed: u32,
    /// The resting position after jumps (a wormhole's own cell: its end is drawn).
    pub end: u32,
}

/// The first part of a move, before any jump: [`Board::enter`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Cells to move (0: declined).
    pub steps: u32,
    /// Whether the target was past N (the overshoot rule applied).
    pub overshoot: bool,
    /// Whether the token stays where it is: declined, or blocked by the overshoot rule.
    pub blocked: bool,
    /// The cell landed on (the start cell when blocked).
    pub landed: u32,
    /// Whether a held shield stops the snake starting on the landing cell: the token rests there
    /// and the shield is used up.
    pub shield_stops: bool,
}

/// What comes next for a token standing on a cell in the middle of a move: [`Board::next_jump`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next<'a> {
    /// A ladder or a snake to this cell.
    Jump(u32),
    /// A wormhole: one of these exits, drawn uniformly.
    Wormhole(&'a [u32]),
    /// Nothing: the token rests here.
    Rest,
}

/// What the resting cell of a move does, as applied (after the move, unless the token finished).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Met {
    /// Nothing: a plain cell, N, or the move was blocked or declined.
    #[default]
    Nothing,
    /// A `skip` cell: the next turn is skipped.
    Skip,
    /// An `extra` cell: one more roll in this turn.
    Extra,
    /// A `shield` cell: a shield gained (or kept, when one was held already).
    Shield,
}

/// What an option meets on its way, as its label says it: [`MoveOption::meets`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Meets {
    /// Nothing: it lands and rests on the same cell (or stays put, declined).
    #[default]
    Nothing,
    /// The roll goes past N and the overshoot rule keeps the token where it is.
    Blocked,
    /// A snake starts on the landing cell.
    Snake,
    /// A ladder starts on the landing cell.
    Ladder,
    /// A wormhole is on the landing cell: where it leads is drawn.
    Wormhole,
    /// A snake starts on the landing cell, and the shield held stops it.
    Shield,
}

/// One way to play a roll, as [`crate::Board::option`] decides it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveOption {
    /// Cells to move; 0 means staying put.
    pub steps: u32,
    /// Where the token would rest (after overshoot and jumps; a wormhole's own cell, as its end
    /// is drawn).
    pub lands: u32,
    /// Whether this option counts as a top-face roll for the bonus rule.
    pub top_face: bool,
    /// The cell landed on after the overshoot rule, before any jump (the cell left when the
    /// move is blocked or declined).
    #[serde(default)]
    pub landed: u32,
    /// What the move meets on the landing cell (what an option's label says).
    #[serde(default)]
    pub meets: Meets,
}

/// One way a roll may end: [`Board::outcomes`].
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Cells rolled (0: declined).
    pub steps: u32,
    /// The cell landed on after the overshoot rule (the start cell when blocked or declined).
    pub landed: u32,
    /// Whether a held shield stopped the snake on the landing cell.
    pub shield_used: bool,
    /// The jumps taken, in order; a wormhole's is the exit drawn.
    pub jumps: Vec<Jump>,
    /// Where the token rests.
    pub to: u32,
    /// Whether the token came to rest by moving (a blocked or declined move did not).
    pub moved: bool,
    /// The resting cell's effect, as applied.
    pub met: Met,
    /// Whether a shield is held after the roll.
    pub shield: bool,
    /// The chance of this outcome given the roll: 1 unless wormhole draws split it.
    pub chance: f64,
}

impl Outcome {
    /// Whether a jump of this move left a wormhole.
    pub fn through_wormhole(&self, board: &Board) -> bool {
        self.jumps.iter().any(|j| board.wormhole_at(j.from).is_some())
    }
}

impl Board {
    /// Resolves one move of `steps` cells from `from` for a token without a shield: the
    /// overshoot rule, then the jumps as far as they are settled (a walk stops on a wormhole).
    pub fn advance(&self, rules: &Rules, from: u32, steps: u32) -> Advance {
        let target = from + steps;
        match rules.overshoot.land(self.size(), target) {
            None => {
                Advance { from, target, overshoot: true, blocked: true, landed: from, end: from }
            }
            Some(landed) => Advance {
                from,
                target,
                overshoot: target > self.size(),
                blocked: false,
                landed,
                end: self.settle(landed, rules.jumps),
            },
        }
    }

    /// The first part of a move of `steps` (0: declined) from `from`, holding a shield or not.
    pub fn enter(&self, rules: &Rules, from: u32, steps: u32, shield: bool) -> Entry {
        if steps == 0 {
            let landed = from;
            return Entry { steps, overshoot: false, blocked: true, landed, shield_stops: false };
        }
        let target = from + steps;
        let overshoot = target > self.size();
        match rules.overshoot.land(self.size(), target) {
            None => Entry { steps, overshoot, blocked: true, landed: from, shield_stops: false },
            Some(landed) => {
                let shield_stops = shield && self.snake_at(landed);
                Entry { steps, overshoot, blocked: false, landed, shield_stops }
            }
        }
    }

    /// Whether a snake starts on `cell` (what a held shield stops).
    pub fn snake_at(&self, cell: u32) -> bool {
        self.jump_at(cell).is_some_and(|to| to < cell)
    }

    /// What comes next for a token on `at` that has taken `taken` jumps in this move: under
    /// single jumps nothing after the first.
    pub fn next_jump(&self, mode: JumpMode, at: u32, taken: usize) -> Next<'_> {
        if taken > 0 && mode == JumpMode::Single {
            return Next::Rest;
        }
        if let Some(to) = self.jump_at(at) {
            Next::Jump(to)
        } else if let Some(exits) = self.wormhole_at(at) {
            Next::Wormhole(exits)
        } else {
            Next::Rest
        }
    }

    /// What the cell `at` does to a token that came to rest on it by moving (nothing on N).
    pub fn met(&self, at: u32) -> Met {
        if at == self.size() {
            return Met::Nothing;
        }
        match self.effect_at(at) {
            Some(Effect::Skip) => Met::Skip,
            Some(Effect::Extra) => Met::Extra,
            Some(Effect::Shield) => Met::Shield,
            _ => Met::Nothing,
        }
    }

    /// Every way the jumps from `landed` may end: `rest(jumps, cell, chance)` once per way, a
    /// wormhole's exits each with an equal share, in the engine's order.
    pub fn walks(&self, mode: JumpMode, landed: u32, rest: &mut impl FnMut(&[Jump], u32, f64)) {
        fn walk(
            board: &Board,
            mode: JumpMode,
            mut at: u32,
            jumps: &mut Vec<Jump>,
            chance: f64,
            rest: &mut impl FnMut(&[Jump], u32, f64),
        ) {
            let depth = jumps.len();
            loop {
                match board.next_jump(mode, at, jumps.len()) {
                    Next::Jump(to) => {
                        jumps.push(Jump { from: at, to });
                        at = to;
                    }
                    Next::Wormhole(exits) => {
                        let share = chance / exits.len() as f64;
                        for &exit in exits {
                            jumps.push(Jump { from: at, to: exit });
                            walk(board, mode, exit, jumps, share, rest);
                            jumps.pop();
                        }
                        jumps.truncate(depth);
                        return;
                    }
                    Next::Rest => break,
                }
            }
            rest(jumps, at, chance);
            jumps.truncate(depth);
        }
        walk(self, mode, landed, &mut Vec::new(), 1.0, rest);
    }

    /// Every way a roll of `steps` cells (0: declined) from `from`, holding a shield or not, may
    /// end, each with its chance, as the engine's turn plays it.
    pub fn outcomes(&self, rules: &Rules, from: u32, steps: u32, shield: bool) -> Vec<Outcome> {
        let mut out = Vec::new();
        self.each_outcome(rules, from, steps, shield, &mut |mut outcome, jumps| {
            outcome.jumps = jumps.to_vec();
            out.push(outcome);
        });
        out
    }

    /// The ways of [`Board::outcomes`], told one at a time to `way` with their jumps lent
    /// beside them (the outcome's own `jumps` left empty): nothing is allocated for the search
    /// of a large board, which asks of every cell and step.
    pub fn each_outcome(
        &self,
        rules: &Rules,
        from: u32,
        steps: u32,
        shield: bool,
        way: &mut impl FnMut(Outcome, &[Jump]),
    ) {
        let entry = self.enter(rules, from, steps, shield);
        let landed = entry.landed;
        let outcome = |to: u32, chance: f64| Outcome {
            steps,
            landed,
            shield_used: false,
            jumps: Vec::new(),
            to,
            moved: true,
            met: Met::Nothing,
            shield,
            chance,
        };
        if entry.blocked {
            // A token that did not move meets nothing where it stays.
            way(Outcome { moved: false, ..outcome(from, 1.0) }, &[]);
            return;
        }
        let mut tell = |mut o: Outcome, jumps: &[Jump]| {
            o.met = self.met(o.to);
            o.shield |= o.met == Met::Shield;
            way(o, jumps);
        };
        if entry.shield_stops {
            tell(Outcome { shield_used: true, shield: false, ..outcome(landed, 1.0) }, &[]);
        } else {
            self.walks(rules.jumps, landed, &mut |jumps, to, chance| {
                tell(outcome(to, chance), jumps);
            });
        }
    }

    /// One way to play a roll: `steps` cells from `from` (0: stay), counting as a top face or
    /// not, holding a shield or not — where it lands and what it meets.
    pub fn option(
        &self,
        rules: &Rules,
        from: u32,
        steps: u32,
        top_face: bool,
        shield: bool,
    ) -> MoveOption {
        let entry = self.enter(rules, from, steps, shield);
        let (lands, meets) = if steps == 0 {
            (from, Meets::Nothing)
        } else if entry.blocked {
            (from, Meets::Blocked)
        } else if entry.shield_stops {
            (entry.landed, Meets::Shield)
        } else {
            let meets = match self.next_jump(rules.jumps, entry.landed, 0) {
                Next::Jump(to) if to < entry.landed => Meets::Snake,
                Next::Jump(_) => Meets::Ladder,
                Next::Wormhole(_) => Meets::Wormhole,
                Next::Rest => Meets::Nothing,
            };
            (self.settle(entry.landed, rules.jumps), meets)
        };
        MoveOption { steps, lands, top_face, landed: entry.landed, meets }
    }

    /// The ways to play `roll` from `position` under the rules, holding a shield or not: one
    /// option unless a choice rule applies and the options differ.
    ///
    /// Options that end alike — the same resting cell and, with bonus rolls on, the same
    /// top-face status, such as a move blocked by overshoot and staying put — are one option: the
    /// first of them is kept, so a strategy is only asked when its answer can change the game.
    pub fn options(
        &self,
        rules: &Rules,
        position: u32,
        roll: &Roll,
        shield: bool,
    ) -> Vec<MoveOption> {
        let top = roll.is_top_face(rules.thrown_dice());
        let by = |steps: u32, top_face: bool| self.option(rules, position, steps, top_face, shield);
        let mut options: Vec<MoveOption> = match rules.choice {
            Choice::None => vec![by(roll.total(), top)],
            Choice::MayPass => vec![by(roll.total(), top), by(0, top)],
            Choice::PickDie => {
                let faces = rules.dice.faces();
                let mut options: Vec<MoveOption> = Vec::with_capacity(2);
                for &die in roll.dice() {
                    let die = u32::from(die);
                    if options.iter().all(|o| o.steps != die) {
                        options.push(by(die, die == faces));
                    }
                }
                options
            }
        };
        let mut kept = 0;
        for i in 0..options.len() {
            let o = options[i];
            if options[..kept].iter().all(|k| !k.ends_like(&o, rules)) {
                options[kept] = o;
                kept += 1;
            }
        }
        options.truncate(kept);
        options
    }
}

impl MoveOption {
    /// Whether two options of one roll end alike under `rules`: the same resting cell and, with
    /// bonus rolls on, the same top-face status. Of options that end alike only the first is
    /// offered ([`Board::options`]).
    pub fn ends_like(&self, other: &MoveOption, rules: &Rules) -> bool {
        let bonus = rules.bonus == Bonus::TopFace;
        self.lands == other.lands && (!bonus || self.top_face == other.top_face)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{BoardSpec, CellSpec};

    #[test]
    fn a_bounce_reflects_between_the_walls_and_a_one_cell_board_holds_still() {
        assert_eq!(Overshoot::Bounce.land(100, 103), Some(97));
        assert_eq!(Overshoot::Bounce.land(5, 12), Some(4));
        assert_eq!(Overshoot::Bounce.land(1, 6), Some(1));
        assert_eq!(Overshoot::Stay.land(100, 103), None);
        assert_eq!(Overshoot::Win.land(100, 103), Some(100));
        assert_eq!(Overshoot::Stay.land(100, 100), Some(100));
    }

    #[test]
    fn an_option_says_where_it_lands_and_what_it_meets() {
        let mut spec = BoardSpec::with_jumps(30, [(5, 2), (7, 20)]);
        spec.cells = vec![
            CellSpec { at: 10, effect: "wormhole".into(), exits: vec![3, 25] },
            CellSpec { at: 12, effect: "shield".into(), exits: vec![] },
        ];
        let rules = Rules::default();
        let board = Board::new(&spec, &rules).unwrap();
        let meets = |from, steps, shield| {
            let o = board.option(&rules, from, steps, false, shield);
            (o.landed, o.lands, o.meets)
        };
        assert_eq!(meets(1, 4, false), (5, 2, Meets::Snake));
        assert_eq!(meets(1, 4, true), (5, 5, Meets::Shield));
        assert_eq!(meets(1, 6, true), (7, 20, Meets::Ladder));
        assert_eq!(meets(4, 6, false), (10, 10, Meets::Wormhole));
        assert_eq!(meets(28, 5, false), (28, 28, Meets::Blocked));
        assert_eq!(meets(8, 4, false), (12, 12, Meets::Nothing));
        let ways: Vec<(u32, f64)> =
            board.outcomes(&rules, 4, 6, false).iter().map(|o| (o.to, o.chance)).collect();
        assert_eq!(ways, [(3, 0.5), (25, 0.5)]);
        let shield = board.outcomes(&rules, 8, 4, false);
        assert_eq!((shield[0].met, shield[0].shield), (Met::Shield, true));
    }
}
