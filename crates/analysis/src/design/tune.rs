//! The fine-tuning phase of the designer: a deterministic descent over every single move of a
//! board, each neighbour judged exactly.
//!
//! Why it reaches a hundredth of a turn where annealing stops at about half a turn: moving one
//! end of a jump by one cell changes the expected length by a small, exactly computed amount. Moving the end of a jump
//! from `f` from `d` to `d'` is a rank-one change of the turn chain (without bonus rolls: what
//! landed on `f` now rests on `d'`), and when neither `d` nor `d'` can lead back to `f` the new
//! length is exactly `E + L_f · (E(d') − E(d))`, with `L_f` the expected landings on `f` and
//! `E(x)` the expected turns from `x` (Sherman–Morrison; with a way back the same formula is
//! divided by one less the landings on `f` that `d'` gains over `d`). Across the jumps of a board, `L_f` ranges over about a tenth to one and
//! `E(d') − E(d)` over a few tenths of a turn per cell, so the few thousand neighbours of a
//! board close to the target cover the turns around it a few hundredths apart: one round
//! usually lands within 0.01, and a second corrects what the first could not.

use super::{Goal, MAX_TUNE_ROUNDS, WINDOW, search::Judged, search::Layout, search::Search};
use crate::Budget;

/// Every layout one move from `layout`: each end of each jump to every cell within [`WINDOW`],
/// each jump removed, each effect moved within [`WINDOW`], in a fixed order.
fn neighbours(layout: &Layout, size: u32) -> impl Iterator<Item = Layout> + '_ {
    let window = move |at: u32| at.saturating_sub(WINDOW).max(1)..=(at + WINDOW).min(size);
    let moved = (0..layout.jumps.len()).flat_map(move |i| {
        let (from, to) = layout.jumps[i];
        let starts = window(from).filter(move |&c| c != from && c < size).map(move |c| (c, to));
        let ends = window(to).filter(move |&c| c != to).map(move |c| (from, c));
        starts.chain(ends).map(move |jump| {
            let mut next = layout.clone();
            next.jumps[i] = jump;
            next
        })
    });
    let removed = (0..layout.jumps.len()).map(move |i| {
        let mut next = layout.clone();
        next.jumps.remove(i);
        next
    });
    let effects = (0..layout.cells.len()).flat_map(move |i| {
        let at = layout.cells[i].at;
        window(at).filter(move |&c| c != at && c > 1 && c < size).map(move |c| {
            let mut next = layout.clone();
            next.cells[i].at = c;
            next
        })
    });
    moved.chain(removed).chain(effects)
}

/// Descends from `start` to the best neighbour while it is better (see
/// [`Judged::better_than`]), at most [`MAX_TUNE_ROUNDS`] rounds, stopping once the goal is met
/// when it has no aim. Returns the board, its numbers, the rounds and whether the budget lasted.
pub(super) fn tune(
    search: &mut Search,
    start: (Layout, Judged),
    steps: u32,
    progress: &dyn Fn(u32),
    budget: &Budget,
) -> (Layout, Judged, u32, bool) {
    let goal: &Goal = search.goal;
    let (mut layout, mut judged) = start;
    let mut rounds = 0;
    while rounds < MAX_TUNE_ROUNDS {
        if judged.miss(goal.tolerance) == 0.0 && !goal.has_aim() {
            break;
        }
        rounds += 1;
        let mut best: Option<(Layout, Judged)> = None;
        let around: Vec<Layout> = neighbours(&layout, goal.size).collect();
        for next in around {
            if budget.is_spent() {
                let (layout, judged) = best_of(layout, judged, best, goal);
                return (layout, judged, rounds, false);
            }
            let Some(j) = search.judge(&next) else { continue };
            let bar = best.as_ref().map_or(&judged, |(_, b)| b);
            if j.better_than(bar, goal) {
                best = Some((next, j));
            }
        }
        progress(steps + rounds);
        match best {
            Some((l, j)) => (layout, judged) = (l, j),
            None => break,
        }
    }
    (layout, judged, rounds, true)
}

fn best_of(
    layout: Layout,
    judged: Judged,
    best: Option<(Layout, Judged)>,
    goal: &Goal,
) -> (Layout, Judged) {
    match best {
        Some((l, j)) if j.better_than(&judged, goal) => (l, j),
        _ => (layout, judged),
    }
}
