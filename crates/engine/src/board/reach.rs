//! Which cells a token can rest on from the start, and which of them can still reach N: what
//! [`Board::new`] and [`crate::Game::new`] check before a game can begin.

use std::collections::VecDeque;

use super::Board;
use crate::rules::{Bonus, Choice, OnMax, Rules};

impl Board {
    /// Which positions a token can rest on from the start, and which of those can still reach N.
    ///
    /// This looks at single rolls only: bonus rules never make a cell reachable that single rolls
    /// cannot, choices only add staying put, and a top-face roll counts unless max-bonus 1 with
    /// on-max void undoes every one of them.
    pub fn reach(&self, rules: &Rules) -> Reach {
        let n = self.size as usize;
        // Under max-bonus 1 with on-max void, every top-face roll voids its turn: it never moves.
        let top_voids = rules.bonus == Bonus::TopFace
            && rules.max_bonus.limit() == Some(1)
            && rules.on_max == OnMax::Void;
        let top = match rules.choice {
            Choice::PickDie => rules.dice.faces(),
            _ => rules.dice.top_total(),
        };
        let steps: Vec<u32> = rules.step_values().filter(|&s| !(top_voids && s == top)).collect();
        if self.has_effects() {
            return self.reach_with_effects(rules, &steps);
        }
        let start = rules.start_position() as usize;
        let (reachable, can_finish) = search(n + 1, start, &[n], |p, push| {
            for &s in &steps {
                push(self.advance(rules, p as u32, s).end as usize);
            }
        });
        let trapped =
            (0..=n).filter(|&c| reachable[c] && !can_finish[c]).map(|c| c as u32).collect();
        Reach { finish_reachable: reachable[n], trapped }
    }

    /// [`Board::reach`] on a board with effects: a state is a cell and whether the player holds
    /// a shield (which lets a token rest on a snake's head), and a wormhole leads to every exit.
    fn reach_with_effects(&self, rules: &Rules, steps: &[u32]) -> Reach {
        let n = self.size as usize;
        let states = 2 * (n + 1);
        let index = |cell: u32, shield: bool| 2 * cell as usize + usize::from(shield);
        let start = index(rules.start_position(), false);
        let goals = [index(self.size, false), index(self.size, true)];
        let (reachable, can_finish) = search(states, start, &goals, |p, push| {
            let (cell, shield) = ((p / 2) as u32, p % 2 == 1);
            for &s in steps {
                self.each_outcome(rules, cell, s, shield, &mut |way, _| {
                    push(index(way.to, way.shield));
                });
            }
        });
        let mut trapped: Vec<u32> = (0..states)
            .filter(|&c| reachable[c] && !can_finish[c])
            .map(|c| (c / 2) as u32)
            .collect();
        trapped.dedup();
        let finish_reachable =
            reachable[index(self.size, false)] || reachable[index(self.size, true)];
        Reach { finish_reachable, trapped }
    }
}

/// Which of `states` states can be reached from `start` (the goals end a game: nothing leads on
/// from them), and which of those can reach a goal. `next(p, push)` pushes each state one roll
/// leads to from state `p`. It is asked twice for each state reached: once to count the ways
/// into each state, once to lay them out in one flat array, read back from the goals — a few
/// bytes a way, where a list per state cost some 80 bytes a state (800 MB on 10^7 cells).
fn search(
    states: usize,
    start: usize,
    goals: &[usize],
    next: impl Fn(usize, &mut dyn FnMut(usize)),
) -> (Vec<bool>, Vec<bool>) {
    let mut reachable = vec![false; states];
    // The ways into each state: first counted, then where they begin in `from`, then, once laid
    // out, where they end (so state q's ways are `from[end[q - 1]..end[q]]`).
    let mut end = vec![0_usize; states];
    reachable[start] = true;
    let mut queue = VecDeque::from([start]);
    while let Some(p) = queue.pop_front() {
        if goals.contains(&p) {
            continue;
        }
        next(p, &mut |q| {
            end[q] += 1;
            if !reachable[q] {
                reachable[q] = true;
                queue.push_back(q);
            }
        });
    }
    let mut total = 0;
    for count in &mut end {
        let ways = *count;
        *count = total;
        total += ways;
    }
    let mut from = vec![0_u32; total];
    for p in (0..states).filter(|&p| reachable[p] && !goals.contains(&p)) {
        next(p, &mut |q| {
            from[end[q]] = p as u32;
            end[q] += 1;
        });
    }
    let mut can_finish = vec![false; states];
    let mut queue = VecDeque::new();
    for &goal in goals {
        can_finish[goal] = true;
        queue.push_back(goal);
    }
    while let Some(q) = queue.pop_front() {
        let begin = if q == 0 { 0 } else { end[q - 1] };
        for &p in &from[begin..end[q]] {
            if !can_finish[p as usize] {
                can_finish[p as usize] = true;
                queue.push_back(p as usize);
            }
        }
    }
    (reachable, can_finish)
}

/// The answer of [`Board::reach`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Whether cell N can be reached from the start.
    pub finish_reachable: bool,
    /// Positions reachable from the start from which N can never be reached.
    pub trapped: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::search;

    /// On random graphs with cycles, the flat reverse search finds what a naive fixpoint over the
    /// forward ways finds: the states reached, and which of them reach a goal.
    #[test]
    fn the_flat_search_agrees_with_a_fixpoint_over_the_forward_ways() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut random = |below: usize| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize % below
        };
        for _ in 0..300 {
            let states = 1 + random(40);
            let ways: Vec<Vec<usize>> =
                (0..states).map(|_| (0..random(4)).map(|_| random(states)).collect()).collect();
            let goals: Vec<usize> = (0..random(3)).map(|_| random(states)).collect();
            let start = random(states);
            let (reachable, can_finish) =
                search(states, start, &goals, |p, push| ways[p].iter().for_each(|&q| push(q)));

            let mut seen = vec![false; states];
            seen[start] = true;
            let mut todo = vec![start];
            while let Some(p) = todo.pop() {
                if goals.contains(&p) {
                    continue;
                }
                for &q in &ways[p] {
                    if !seen[q] {
                        seen[q] = true;
                        todo.push(q);
                    }
                }
            }
            assert_eq!(reachable, seen);
            let mut finish: Vec<bool> = (0..states).map(|p| goals.contains(&p)).collect();
            loop {
                let before = finish.clone();
                for p in 0..states {
                    if seen[p] && !goals.contains(&p) && ways[p].iter().any(|&q| finish[q]) {
                        finish[p] = true;
                    }
                }
                if finish == before {
                    break;
                }
            }
            for p in (0..states).filter(|&p| seen[p]) {
                assert_eq!(can_finish[p], finish[p], "state {p} of {ways:?}, goals {goals:?}");
            }
        }
    }
}
