//! Cell effects (SPEC §3b) in the turn-level chain: a position becomes a state (cell, shield
//! held, skip pending), and a turn is played as the engine plays it (`turn.rs`):
//!
//! - a turn begun with a skip pending is a turn with no roll that clears it;
//! - one roll: overshoot rule → landing cell → a held shield stops a snake starting there (the
//!   token rests on its head) else the jumps, where a wormhole's end is each exit with equal
//!   chance (followed once under single jumps, on under chain) → finish on N, else the resting
//!   cell's effect when the token came there by moving (skip pending, shield held, or one more
//!   roll on `extra`);
//! - one more roll when the roll was a top face (the bonus streak goes on) or else when the token
//!   rests on `extra` (the streak starts again): one more, never two;
//! - on-max void sends the token back to the state its turn began in (position, shield; the
//!   skip pending then was none);
//! - under a choice rule the policy is told the shield held, the skip pending and the shield
//!   the turn began with ([`Situation`]), so a policy over the extended state (`hard`'s) is
//!   followed as it plays.
//!
//! The states are numbered so that the chain keeps moving mostly forward ([`StateLayout`]), and
//! the result is an ordinary [`TurnChain`]: expectations, the turn distribution and the seats'
//! chances run over it unchanged.

use snl_engine::{AfterRoll, Met, MoveOption};

use super::chain::{BONUS_TAIL, Situation, StateLayout, TurnChain, TurnModel, merge};

/// Rolls within one turn after which the mass still rolling ends the turn where it stands: only
/// a board where `extra` cells feed each other with certainty gets there (a turn that never
/// ends in the engine too).
const MAX_ROLLS_PER_TURN: u32 = 100_000;

/// A turn under cell effects.
pub(crate) struct EffectModel<'a> {
    model: TurnModel<'a>,
    layout: StateLayout,
    /// Per landing cell 0..=N: where the token rests after the jumps, with probability.
    rests: Vec<Vec<(u32, f64)>>,
}

/// A token within a turn: position, streak, shield held, skip gained, packed to sort and merge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Rolling {
    at: u32,
    streak: u32,
    shield: bool,
    skip: bool,
}

/// Reusable buffers for [`EffectModel::turn`].
#[derive(Debug, Default)]
pub(crate) struct EffectScratch {
    pub(crate) ends: Vec<(u32, f64)>,
    level: Vec<(Rolling, f64)>,
    next: Vec<(Rolling, f64)>,
    options: Vec<MoveOption>,
}

impl<'a> EffectModel<'a> {
    pub(crate) fn new(model: TurnModel<'a>) -> EffectModel<'a> {
        let board = model.board;
        let has = |name: &str| board.effects().iter().any(|e| e.effect.name() == name);
        let skip = u32::from(has("skip"));
        let shield = u32::from(has("shield"));
        let layout = StateLayout {
            per_cell: (1 + skip) * (1 + shield),
            shield: (1 + skip) * shield,
            no_skip: skip,
        };
        let rests = (0..=model.size).map(|c| rests_from(&model, c)).collect();
        EffectModel { model, layout, rests }
    }

    /// The turn-level chain over states; none once `budget` is spent (looked at before each
    /// row).
    pub(crate) fn chain(&self, budget: &crate::Budget) -> Option<TurnChain> {
        let states = self.model.size * self.layout.per_cell;
        let mut scratch = EffectScratch::default();
        let mut rows = Vec::with_capacity(states as usize);
        for s in 0..states {
            if budget.is_limited() && budget.is_spent() {
                return None;
            }
            let rolls = self.turn(s, &mut scratch, None);
            merge(&mut scratch.ends);
            rows.push((scratch.ends.clone(), rolls));
        }
        let start = self.layout.state(self.model.rules.start_position(), false, false);
        Some(TurnChain::from_rows(start, self.layout, rows.into_iter()))
    }

    fn finish(&self) -> u32 {
        self.model.size * self.layout.per_cell
    }

    fn end(&self, at: u32, shield: bool, skip: bool) -> u32 {
        if at == self.model.size { self.finish() } else { self.layout.state(at, shield, skip) }
    }

    /// Plays out one turn begun in `state`: fills `scratch.ends` (unsorted, may repeat) and
    /// returns the expected rolls; with `landings`, adds `weight` × the expected landings per
    /// cell (blocked and voided rolls land nowhere).
    pub(crate) fn turn(
        &self,
        state: u32,
        scratch: &mut EffectScratch,
        mut landings: Option<(&mut [f64], f64)>,
    ) -> f64 {
        let EffectScratch { ends, level, next, options } = scratch;
        ends.clear();
        let (begin, shield0, skip0) = self.layout.decode(state);
        if skip0 {
            ends.push((self.layout.state(begin, shield0, false), 1.0));
            return 0.0;
        }
        let (model, board, rules) = (&self.model, self.model.board, &self.model.rules);
        let n = model.size;
        level.clear();
        level.push((Rolling { at: begin, streak: 0, shield: shield0, skip: false }, 1.0));
        let mut rolls = 0.0;
        let mut made = 0;
        while !level.is_empty() {
            next.clear();
            let mass: f64 = level.iter().map(|&(_, m)| m).sum();
            if mass < BONUS_TAIL || made == MAX_ROLLS_PER_TURN {
                ends.extend(level.iter().map(|&(r, m)| (self.end(r.at, r.shield, r.skip), m)));
                break;
            }
            made += 1;
            rolls += mass;
            for &(token, m) in level.iter() {
                // What the token holds is part of where it stands: a policy over the
                // extended state (hard's) decides by it.
                let at = Situation {
                    position: token.at,
                    turn_start: begin,
                    streak: token.streak,
                    shield: token.shield,
                    skip: token.skip,
                    turn_start_shield: shield0,
                };
                for class in &model.classes {
                    let picked = model.pick_shielded(at, class, options, token.shield);
                    for &(step, share) in picked.as_slice() {
                        let p = m * class.weight * share;
                        let (after, streak) = rules.after_roll(token.streak, step.top_face);
                        if after == AfterRoll::Void {
                            ends.push((self.layout.state(begin, shield0, false), p));
                            continue;
                        }
                        let mut rest = |y: u32, shield: bool, moved: bool, q: f64| {
                            if y == n {
                                ends.push((self.finish(), q));
                                return;
                            }
                            let (mut shield, mut skip, mut extra) = (shield, token.skip, false);
                            if moved {
                                match board.met(y) {
                                    Met::Skip => skip = true,
                                    Met::Extra => extra = true,
                                    Met::Shield => shield = true,
                                    Met::Nothing => {}
                                }
                            }
                            if after == AfterRoll::Again {
                                next.push((Rolling { at: y, streak, shield, skip }, q));
                            } else if extra {
                                next.push((Rolling { at: y, streak: 0, shield, skip }, q));
                            } else {
                                ends.push((self.layout.state(y, shield, skip), q));
                            }
                        };
                        let entry = board.enter(rules, token.at, step.steps, token.shield);
                        if entry.blocked {
                            rest(token.at, token.shield, false, p);
                            continue;
                        }
                        if let Some((cells, w)) = landings.as_mut() {
                            cells[entry.landed as usize] += *w * p;
                        }
                        if entry.shield_stops {
                            rest(entry.landed, false, true, p);
                            continue;
                        }
                        for &(y, q) in &self.rests[entry.landed as usize] {
                            rest(y, token.shield, true, p * q);
                        }
                    }
                }
            }
            next.sort_unstable_by_key(|&(r, _)| r);
            next.dedup_by(|b, a| {
                let same = a.0 == b.0;
                if same {
                    a.1 += b.1;
                }
                same
            });
            std::mem::swap(level, next);
        }
        rolls
    }
}

/// Where a token landing on `cell` rests after its jumps, with probability: the engine's walk
/// ([`snl_engine::Board::walks`]) tabled per landing cell.
fn rests_from(model: &TurnModel<'_>, cell: u32) -> Vec<(u32, f64)> {
    let mut out = Vec::new();
    model.board.walks(model.rules.jumps, cell, &mut |_, to, p| out.push((to, p)));
    merge(&mut out);
    out
}
