//! Race mode (`--mode race --rounds K`, SPEC §3b): the game also ends after round K, and the
//! players who have not finished are ranked by position, ties by seating order.
//!
//! Seats are still independent tokens with one turn per round (a skipped turn counts), so all
//! that is needed of one token is, after each number of turns t ≤ K, the chance `S_t` that it
//! has not finished and the distribution of its cell if not (`pos_t`). Then:
//!
//! - under finish first the game ends at the first finish: seat i finishing on its turn r ends
//!   it when the seats before it have not finished in r turns and those after it in r − 1;
//!   failing that, after K rounds the furthest token wins, ties to the earlier seat;
//! - a seat's expected rank is 1 + the chance that each other seat is ranked before it, a sum
//!   over when the game ends of products of the tokens' own chances (under finish all, a pair's
//!   finishing turns alone decide, then their cells after K turns).
//!
//! The cost is K turns of the chain plus K × seats³ small products.

// Seats index each other's chances: l, i, j read best as in the formulas above.
#![allow(clippy::needless_range_loop)]

use snl_engine::{Board, Finish, Rules};

use super::TurnChain;

/// What each seat can expect from a race.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct RaceOutcomes {
    /// K.
    pub rounds: u32,
    /// Per seat, in seating order: the chance to be ranked first (to win).
    pub win_probability: Vec<f64>,
    /// Per seat: the expected rank at the end of the game (1 = first).
    pub expected_rank: Vec<f64>,
    /// The chance that one token finishes within K turns.
    pub finish_within: f64,
    /// Index c: the chance that one token is on cell c after K turns without having finished.
    pub position_after: Vec<f64>,
}

/// The race of `seats` seats playing as `chain` says for `rounds` rounds under `finish`.
///
/// # Panics
///
/// Panics if `seats` is 0.
pub fn race_outcomes(chain: &TurnChain, seats: usize, rounds: u32, finish: Finish) -> RaceOutcomes {
    assert!(seats > 0, "a game has at least one seat");
    let m = seats;
    let n = chain.size() as usize;
    let cells = chain.cell_of(chain.size()) as usize;
    let mut dist = vec![0.0; n];
    dist[chain.start() as usize] = 1.0;
    let mut next = vec![0.0; n];
    let by_cell = |dist: &[f64]| {
        let mut pos = vec![0.0; cells];
        for (s, &p) in dist.iter().enumerate() {
            pos[chain.cell_of(s as u32) as usize] += p;
        }
        pos
    };
    let mut before = Token::new(by_cell(&dist));
    let mut win = vec![0.0; m];
    // beats[l][j]: the chance that l is ranked before j.
    let mut beats = vec![vec![0.0; m]; m];
    let pow = |x: f64, k: usize| x.powi(i32::try_from(k).unwrap_or(i32::MAX));
    for _ in 0..rounds {
        next.fill(0.0);
        let mut finished = 0.0;
        for (s, &p) in dist.iter().enumerate() {
            if p == 0.0 {
                continue;
            }
            for (e, q) in chain.row(s as u32) {
                if (e as usize) < n {
                    next[e as usize] += p * q;
                } else {
                    finished += p * q;
                }
            }
        }
        std::mem::swap(&mut dist, &mut next);
        let after = Token::new(by_cell(&dist));
        let (s_r, s_q) = (after.alive, before.alive);
        for i in 0..m {
            // Seat i finishes on its turn of this round: earlier seats have had this round's
            // turn, later ones not yet.
            let ends = finished * pow(s_r, i) * pow(s_q, m - 1 - i);
            win[i] += ends;
            if finish == Finish::All {
                continue;
            }
            for l in 0..m {
                if l == i {
                    continue;
                }
                beats[i][l] += ends;
                for j in (0..m).filter(|&j| j != i && j != l) {
                    // Both l and j still on the board when i ends the game: by position.
                    let seen = |o: usize| if o < i { &after } else { &before };
                    let others_before = (0..i).filter(|&o| o != l && o != j).count();
                    let others_after = (i + 1..m).filter(|&o| o != l && o != j).count();
                    let rest = finished * pow(s_r, others_before) * pow(s_q, others_after);
                    beats[l][j] += rest * ahead(seen(l), seen(j), l < j);
                }
            }
        }
        if finish == Finish::All {
            // A pair's finishing turns decide between them: on the same turn the earlier seat.
            for l in 0..m {
                for j in (0..m).filter(|&j| j != l) {
                    let same = if l < j { finished } else { 0.0 };
                    beats[l][j] += finished * (s_r + same);
                }
            }
        }
        before = after;
    }
    // Nobody (under finish all: neither of a pair) has finished after K rounds: by position.
    let last = &before;
    let mut below = 0.0;
    for x in 0..cells {
        let p = last.pos[x];
        let up_to = below + p;
        for (i, w) in win.iter_mut().enumerate() {
            *w += p * pow(below, i) * pow(up_to, m - 1 - i);
        }
        below = up_to;
    }
    for l in 0..m {
        for j in (0..m).filter(|&j| j != l) {
            let others = if finish == Finish::All { 0 } else { m - 2 };
            beats[l][j] += pow(last.alive, others) * ahead(last, last, l < j);
        }
    }
    let expected_rank = (0..m)
        .map(|j| 1.0 + (0..m).filter(|&l| l != j).map(|l| beats[l][j]).sum::<f64>())
        .collect();
    let mut position_after = last.pos.clone();
    position_after.push(0.0);
    RaceOutcomes {
        rounds,
        win_probability: win,
        expected_rank,
        finish_within: 1.0 - last.alive,
        position_after,
    }
}

/// The race of `seats` seats on `board` under `rules` (all moving by the roll), or `None` when
/// the rules are not a race.
///
/// # Panics
///
/// Panics if `seats` is 0.
pub fn race_on(board: &Board, rules: &Rules, seats: usize) -> Option<RaceOutcomes> {
    let rounds = rules.mode.rounds()?;
    let chain = TurnChain::new(board, rules);
    Some(race_outcomes(&chain, seats, rounds, rules.finish))
}

/// One token after some turns: its cell if it has not finished, and the chance it has not.
struct Token {
    pos: Vec<f64>,
    /// `below[x]`: the chance to be unfinished on a cell below x.
    below: Vec<f64>,
    alive: f64,
}

impl Token {
    fn new(pos: Vec<f64>) -> Token {
        let mut below = Vec::with_capacity(pos.len() + 1);
        let mut sum = 0.0;
        for &p in &pos {
            below.push(sum);
            sum += p;
        }
        below.push(sum);
        Token { pos, below, alive: sum }
    }
}

/// The chance that token `a` is unfinished and ahead of unfinished token `b`: further on, or on
/// the same cell when `a_first` (a sits before b).
fn ahead(a: &Token, b: &Token, a_first: bool) -> f64 {
    a.pos
        .iter()
        .enumerate()
        .map(|(x, &p)| p * if a_first { b.below[x + 1] } else { b.below[x] })
        .sum()
}
