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
        let mut reachable = vec![false; n + 1];
        reachable[start] = true;
        let mut queue = VecDeque::from([start]);
        let mut edges: Vec<Vec<u32>> = vec![Vec::new(); n + 1];
        while let Some(p) = queue.pop_front() {
            if p == n {
                continue;
            }
            for &s in &steps {
                let q = self.advance(rules, p as u32, s).end as usize;
                edges[q].push(p as u32);
                if !reachable[q] {
                    reachable[q] = true;
                    queue.push_back(q);
                }
            }
        }
        let mut can_finish = vec![false; n + 1];
        can_finish[n] = true;
        let mut queue = VecDeque::from([n]);
        while let Some(q) = queue.pop_front() {
            for &p in &edges[q] {
                if !can_finish[p as usize] {
                    can_finish[p as usize] = true;
                    queue.push_back(p as usize);
                }
            }
        }
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
        let mut reachable = vec![false; states];
        reachable[start] = true;
        let mut queue = VecDeque::from([start]);
        let mut edges: Vec<Vec<u32>> = vec![Vec::new(); states];
        while let Some(p) = queue.pop_front() {
            let (cell, shield) = ((p / 2) as u32, p % 2 == 1);
            if cell as usize == n {
                continue;
            }
            for &s in steps {
                for way in self.outcomes(rules, cell, s, shield) {
                    let q = index(way.to, way.shield);
                    edges[q].push(p as u32);
                    if !reachable[q] {
                        reachable[q] = true;
                        queue.push_back(q);
                    }
                }
            }
        }
        let mut can_finish = vec![false; states];
        let mut queue = VecDeque::new();
        for shield in [false, true] {
            can_finish[index(self.size, shield)] = true;
            queue.push_back(index(self.size, shield));
        }
        while let Some(q) = queue.pop_front() {
            for &p in &edges[q] {
                if !can_finish[p as usize] {
                    can_finish[p as usize] = true;
                    queue.push_back(p as usize);
                }
            }
        }
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

/// The answer of [`Board::reach`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Whether cell N can be reached from the start.
    pub finish_reachable: bool,
    /// Positions reachable from the start from which N can never be reached.
    pub trapped: Vec<u32>,
}
