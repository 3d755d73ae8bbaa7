//! The forward search: breadth-first by rolls, over runs of cells instead of single cells.
//!
//! Every roll moves a token by one of a contiguous range of steps `a..=b`, so the cells one roll
//! can land on from a run of cells `lo..=hi` form the run `lo+a..=hi+b`. Layer k of the search
//! (the positions first reached after k rolls) is kept as sorted, disjoint runs; the next layer
//! is the landing runs, less the cells already reached and the jump starts (a token never rests
//! on a jump start it rolled onto), plus the ends of the jumps whose starts fall in the landing
//! runs. Reached cells and untaken jumps are bitsets worked a word at a time, so a layer costs
//! about its landing runs' length / 64 plus its number of runs and jumps — not six probes per
//! cell as in a textbook BFS — and memory stays at a few bits per cell.

use snl_engine::{Jump, Overshoot};

use super::{bits::Bits, track::Track};

/// A run of cells `.0..=.1`.
pub(crate) type Run = (u32, u32);

/// The layers of a forward search, kept to recover a shortest path.
#[derive(Debug, Default)]
pub(crate) struct Layers {
    // Layer k's runs are runs[run_at[k]..run_at[k + 1]].
    runs: Vec<Run>,
    run_at: Vec<u32>,
    // Layer k's cells first reached by a jump, as (cell, jump index), sorted by cell:
    // arrivals[arrival_at[k]..arrival_at[k + 1]].
    arrivals: Vec<(u32, u32)>,
    arrival_at: Vec<u32>,
}

impl Layers {
    fn runs(&self, k: usize) -> &[Run] {
        &self.runs[self.run_at[k] as usize..self.run_at[k + 1] as usize]
    }

    fn arrivals(&self, k: usize) -> &[(u32, u32)] {
        &self.arrivals[self.arrival_at[k] as usize..self.arrival_at[k + 1] as usize]
    }

    /// Number of layers after the first: the fewest rolls, when the search reached its goal.
    fn depth(&self) -> usize {
        self.run_at.len() - 2
    }
}

/// Appends `run` to sorted runs, merging it with the last one when they touch or overlap.
#[inline]
fn push_run(runs: &mut Vec<Run>, run: Run) {
    match runs.last_mut() {
        Some(last) if u64::from(last.1) + 1 >= u64::from(run.0) => last.1 = last.1.max(run.1),
        _ => runs.push(run),
    }
}

/// Searches from `from` until cell N is reached (the layers, whose depth is the fewest rolls)
/// or no new cell can be (`None`).
pub(crate) fn search(track: &Track, from: u32) -> Option<Layers> {
    let n = track.size();
    let (shortest, longest) = (track.least(), track.most());
    let ends = track.ends();
    let mut reached = Bits::new(n as usize + 1);
    let mut untaken = track.starts().clone(); // jump starts no roll has landed on yet
    let mut layers = Layers {
        runs: vec![(from, from)],
        run_at: vec![0, 1],
        arrivals: Vec::new(),
        arrival_at: vec![0, 0],
    };
    reached.insert(from);
    if from == n {
        return Some(layers);
    }
    let mut landing: Vec<Run> = Vec::new();
    let mut reflected: Vec<Run> = Vec::new();
    let mut plain: Vec<Run> = Vec::new();
    let mut jumped: Vec<Run> = Vec::new();
    let mut next: Vec<Run> = Vec::new();
    loop {
        let k = layers.depth();
        // Where one more roll can land.
        landing.clear();
        reflected.clear();
        for &(lo, hi) in layers.runs(k) {
            let (first, last) = (lo + shortest, hi + longest);
            if first <= n {
                push_run(&mut landing, (first, last.min(n)));
            }
            if last > n {
                let first = first.max(n + 1);
                match track.rules().overshoot {
                    Overshoot::Stay => {} // no move: nothing new
                    Overshoot::Win => reflected.push((n, n)),
                    Overshoot::Bounce => reflect(n, first, last, &mut reflected),
                }
            }
        }
        if !reflected.is_empty() {
            reflected.sort_unstable();
            let direct = std::mem::take(&mut landing);
            merge_runs(&direct, &reflected, &mut landing);
        }
        // Which landings are new resting cells, and which take a jump.
        plain.clear();
        let arrivals_from = layers.arrivals.len();
        for &(x, y) in &landing {
            reached.claim_runs(track.starts(), x, y, |lo, hi| push_run(&mut plain, (lo, hi)));
            untaken.take_range(x, y, |start| {
                let i = track.starts().rank(start);
                let end = ends[i];
                if !reached.contains(end) {
                    reached.insert(end);
                    layers.arrivals.push((end, i as u32));
                }
            });
        }
        layers.arrival_at.push(layers.arrivals.len() as u32);
        let arrived = &mut layers.arrivals[arrivals_from..];
        if arrived.is_empty() {
            layers.runs.extend_from_slice(&plain);
        } else {
            arrived.sort_unstable();
            jumped.clear();
            jumped.extend(arrived.iter().map(|&(c, _)| (c, c)));
            // Merged apart from the earlier layers, so a run never joins one of theirs.
            next.clear();
            merge_runs(&plain, &jumped, &mut next);
            layers.runs.extend_from_slice(&next);
        }
        layers.run_at.push(layers.runs.len() as u32);
        if reached.contains(n) {
            return Some(layers);
        }
        if layers.run_at[k + 2] == layers.run_at[k + 1] {
            return None;
        }
    }
}

/// Appends the merge of two sorted run lists to `out`, joining runs that touch.
fn merge_runs(x: &[Run], y: &[Run], out: &mut Vec<Run>) {
    let (mut i, mut j) = (0, 0);
    while i < x.len() || j < y.len() {
        let next = if j == y.len() || (i < x.len() && x[i] <= y[j]) {
            i += 1;
            x[i - 1]
        } else {
            j += 1;
            y[j - 1]
        };
        push_run(out, next);
    }
}

/// Adds where targets `first..=last` (all past `n`) bounce back to.
fn reflect(n: u32, first: u32, last: u32, out: &mut Vec<Run>) {
    // Up to 2n − 1 a target reflects once, to 2n − target; beyond (a roll longer than the
    // board), each target is reflected on its own.
    let once = last.min(2 * n - 1);
    if first <= once {
        out.push((2 * n - once, 2 * n - first));
    }
    for t in first.max(2 * n)..=last {
        let c = Overshoot::Bounce.land(n, t).unwrap_or(n);
        out.push((c, c));
    }
}

/// One roll of a shortest path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// Where the token was.
    pub from: u32,
    /// Cells rolled.
    pub steps: u32,
    /// The cell landed on after the overshoot rule.
    pub landed: u32,
    /// The jumps taken from there, in order.
    pub jumps: Vec<Jump>,
    /// Where the token rests.
    pub to: u32,
}

impl Move {
    /// `from + steps`, maybe past N.
    pub fn target(&self) -> u32 {
        self.from + self.steps
    }
}

/// A shortest path through the layers, from the first layer's cell to cell N.
pub(crate) fn path(track: &Track, layers: &Layers) -> Vec<Move> {
    let n = track.size();
    let mut at = n;
    let mut moves = Vec::with_capacity(layers.depth());
    for k in (1..=layers.depth()).rev() {
        // How `at` was first reached in layer k: by a jump, or by landing on it.
        let arrivals = layers.arrivals(k);
        let landed = match arrivals.binary_search_by_key(&at, |&(c, _)| c) {
            Ok(i) => track.jumps()[arrivals[i].1 as usize].from,
            Err(_) => at,
        };
        let (from, target) = predecessor(track, layers.runs(k - 1), landed)
            .expect("every cell of a layer is one roll from the layer before");
        moves.push(Move {
            from,
            steps: target - from,
            landed,
            jumps: track.jump_path(landed),
            to: at,
        });
        at = from;
    }
    moves.reverse();
    moves
}

/// A cell of `runs` and a target one roll from it that lands on `landed`.
fn predecessor(track: &Track, runs: &[Run], landed: u32) -> Option<(u32, u32)> {
    let n = track.size();
    let (a, b) = (track.least(), track.most());
    // Any cell of `runs` within lo..=hi.
    let find = |lo: u32, hi: u32| {
        let i = runs.partition_point(|r| r.1 < lo);
        runs.get(i).filter(|r| r.0 <= hi).map(|r| r.0.max(lo))
    };
    let from_for = |target: u32| {
        if target < a {
            return None;
        }
        find(target.saturating_sub(b), (target - a).min(n - 1)).map(|p| (p, target))
    };
    from_for(landed).or_else(|| {
        // Past N: the targets the overshoot rule turns into `landed`.
        let overshot = |t: &u32| match track.rules().overshoot {
            Overshoot::Stay => false,
            Overshoot::Win => landed == n,
            Overshoot::Bounce => Overshoot::Bounce.land(n, *t) == Some(landed),
        };
        (n + 1..n + b).filter(overshot).find_map(from_for)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merged_runs_join_where_they_touch() {
        let mut out = Vec::new();
        merge_runs(&[(1, 3), (10, 12)], &[(4, 4), (8, 8), (13, 20)], &mut out);
        assert_eq!(out, [(1, 4), (8, 8), (10, 20)]);
    }

    #[test]
    fn long_rolls_reflect_like_the_engine() {
        let mut out = Vec::new();
        reflect(10, 11, 30, &mut out);
        let mut cells: Vec<u32> = out.iter().flat_map(|&(lo, hi)| lo..=hi).collect();
        cells.sort_unstable();
        cells.dedup();
        let mut expected: Vec<u32> =
            (11..=30).filter_map(|t| Overshoot::Bounce.land(10, t)).collect();
        expected.sort_unstable();
        expected.dedup();
        assert_eq!(cells, expected);
    }
}
