//! Live odds: each seat's chance to win from where the tokens stand, for the full-screen game's
//! players panel and the server's odds endpoint (one copy for both).
//!
//! Seats are independent tokens taking one turn each in seating order, so the turn-level chain of
//! [`TurnChain`] carries each token's position turn by turn; a seat wins when it finishes before
//! every other seat still playing. The race is followed round by round until the chance that
//! nobody has finished yet falls below [`RaceLimits::tail`]; every chance is then within that
//! much of the exact value ([`Race::unresolved`] says how much is left). A token in the middle of
//! its turn (bonus rolls, a choice) counts from where its turn began, so the odds change once per
//! turn. Under 0.4 ms on the classic board with 4 seats to 1e-6; on very large boards the work is
//! capped ([`RaceLimits::max_work`]) and no answer is given.

use snl_engine::{Game, Status};

use super::TurnChain;

/// How far a race is followed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaceLimits {
    /// Stop once the chance that nobody has finished is below this.
    pub tail: f64,
    /// Transitions followed at most, summed over turns and seats, before giving up.
    pub max_work: usize,
}

impl RaceLimits {
    /// For a glance in whole percents: to 1e-6, about 25 ms of work at most (a 10,000-cell
    /// board gives up; the classic board with 4 seats needs under 0.4 ms).
    pub const GLANCE: RaceLimits = RaceLimits { tail: 1e-6, max_work: 4_000_000 };
    /// Exact to 1e-12, about a second of work at most.
    pub const EXACT: RaceLimits = RaceLimits { tail: 1e-12, max_work: 150_000_000 };
}

/// Each seat's chance to win from a standing.
#[derive(Clone, Debug, PartialEq)]
pub struct Race {
    /// Per seat, in seating order: the chance to be the first of those still playing to finish
    /// (0 for seats already out; 1 for a seat that has already won).
    pub chances: Vec<f64>,
    /// The chance that nobody had finished when the race stopped being followed: each chance is
    /// within this of its exact value.
    pub unresolved: f64,
}

/// The chances of a race where seat `s` begins its next turn on `starts[s]` (`None`: out of
/// the race, finished or not playing), seat `first` playing next, then the others in seating
/// order; `None` when that is more work than `limits` allow (or a position is past the chain).
pub fn race(
    chain: &TurnChain,
    starts: &[Option<u32>],
    first: usize,
    limits: RaceLimits,
) -> Option<Race> {
    let seats = starts.len();
    let n = chain.size() as usize;
    let mut chances = vec![0.0; seats];
    let order: Vec<usize> =
        (0..seats).map(|k| (first + k) % seats).filter(|&s| starts[s].is_some()).collect();
    let mut dist: Vec<Vec<f64>> = Vec::with_capacity(order.len());
    for &s in &order {
        let at = starts[s]? as usize;
        if at > n {
            return None;
        }
        let mut d = vec![0.0; n];
        if at < n {
            d[at] = 1.0;
        }
        dist.push(d);
    }
    let mut alive: Vec<f64> = dist.iter().map(|d| d.iter().sum()).collect();
    if order.is_empty() {
        return Some(Race { chances, unresolved: 0.0 });
    }
    // A token already on cell N (it cannot be: it would have finished) wins at once.
    if let Some(k) = alive.iter().position(|&a| a == 0.0) {
        chances[order[k]] = 1.0;
        return Some(Race { chances, unresolved: 0.0 });
    }
    let mut next = vec![0.0; n];
    let mut work = 0;
    let mut unresolved: f64 = alive.iter().product();
    while unresolved > limits.tail {
        for (k, &seat) in order.iter().enumerate() {
            next.fill(0.0);
            let mut finished = 0.0;
            for (from, &p) in dist[k].iter().enumerate() {
                if p == 0.0 {
                    continue;
                }
                let row = chain.row(from as u32);
                work += row.len();
                for (to, q) in row {
                    if (to as usize) < n {
                        next[to as usize] += p * q;
                    } else {
                        finished += p * q;
                    }
                }
            }
            std::mem::swap(&mut dist[k], &mut next);
            let others: f64 =
                alive.iter().enumerate().filter(|&(j, _)| j != k).map(|(_, a)| a).product();
            chances[seat] += finished * others;
            alive[k] = (alive[k] - finished).max(0.0);
        }
        unresolved = alive.iter().product();
        if work > limits.max_work {
            return None;
        }
    }
    Some(Race { chances, unresolved })
}

/// The chances of `game` as it stands (see the module documentation), or `None` when that is
/// more work than `limits` allow, or in race mode (SPEC §3b), whose last round these odds do
/// not follow yet: no numbers rather than wrong ones.
pub fn live_odds(chain: &TurnChain, game: &Game, limits: RaceLimits) -> Option<Race> {
    if game.rules().mode.rounds().is_some() && game.status() != Status::Finished {
        return None;
    }
    let seats = game.seats().len();
    if let Some(&winner) = game.ranking().first() {
        let mut chances = vec![0.0; seats];
        chances[winner] = 1.0;
        return Some(Race { chances, unresolved: 0.0 });
    }
    if game.status() == Status::Finished {
        return Some(Race { chances: vec![0.0; seats], unresolved: 0.0 });
    }
    let current = game.current();
    let starts: Vec<Option<u32>> = (0..seats)
        .map(|s| {
            game.is_playing(s).then(|| {
                let mid_turn = s == current && game.in_turn();
                let cell = if mid_turn { game.turn_start() } else { game.positions()[s] };
                // On a board with effects the chain's positions are states (SPEC §3b); a turn
                // under way counts from its start with no skip pending, and the shield as held
                // now (the odds change once per turn).
                chain.state(cell, game.has_shield(s), !mid_turn && game.skips_next_turn(s))
            })
        })
        .collect();
    race(chain, &starts, current, limits)
}

#[cfg(test)]
mod tests {
    use snl_engine::{Board, Preset, Rules, Seat, SeatKind};

    use super::*;
    use crate::exact;

    fn classic(seats: usize) -> (TurnChain, Game) {
        let rules = Rules::default();
        let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        let seats = (0..seats).map(|i| Seat::new(format!("P{i}"), SeatKind::Easy)).collect();
        let chain = TurnChain::new(&board, &rules);
        (chain, Game::new(board, rules, seats).unwrap())
    }

    #[test]
    fn from_the_start_the_chances_are_the_exact_analysis() {
        let (chain, game) = classic(3);
        let board = game.board().clone();
        let want = exact::analyze(&board, game.rules()).unwrap().seats(3).win_probability;
        let glance = live_odds(&chain, &game, RaceLimits::GLANCE).unwrap();
        for (g, w) in glance.chances.iter().zip(&want) {
            assert!((g - w).abs() < 1e-5, "{glance:?} vs {want:?}");
        }
        let exact = live_odds(&chain, &game, RaceLimits::EXACT).unwrap();
        assert!(exact.unresolved <= 1e-12);
        for (g, w) in exact.chances.iter().zip(&want) {
            assert!((g - w).abs() < 1e-10, "{exact:?} vs {want:?}");
        }
        assert!(exact.chances[0] > exact.chances[1] && exact.chances[1] > exact.chances[2]);
    }

    #[test]
    fn a_token_nearer_the_end_is_likelier_to_win_and_out_seats_get_nothing() {
        let (chain, _) = classic(3);
        let odds = race(&chain, &[Some(3), Some(94), None], 0, RaceLimits::EXACT).unwrap();
        assert!(odds.chances[1] > odds.chances[0], "{odds:?}");
        assert!(odds.chances[2].abs() < f64::EPSILON);
        assert!((odds.chances.iter().sum::<f64>() - 1.0).abs() < 1e-11);
        // Seat 1 moving first from the same cells does better than moving second.
        let first = race(&chain, &[Some(50), Some(50)], 1, RaceLimits::EXACT).unwrap();
        assert!(first.chances[1] > first.chances[0], "{first:?}");
    }

    #[test]
    fn on_a_board_with_effects_the_odds_follow_shield_and_skip() {
        let rules = Rules::default();
        let board = Board::new(&Preset::Party.spec(), &rules).unwrap();
        let seats = vec![Seat::new("A", SeatKind::Easy), Seat::new("B", SeatKind::Easy)];
        let chain = TurnChain::new(&board, &rules);
        let game = Game::new(board.clone(), rules, seats).unwrap();
        let want = exact::analyze(&board, &rules).unwrap().seats(2).win_probability;
        let got = live_odds(&chain, &game, RaceLimits::EXACT).unwrap();
        assert!((got.chances[0] - want[0]).abs() < 1e-10, "{got:?} vs {want:?}");
        // On the same cell, a pending skip costs and a shield helps.
        let cell = 60;
        let plain = chain.state(cell, false, false);
        let skip = chain.state(cell, false, true);
        let shield = chain.state(cell, true, false);
        let odds = |a: u32| race(&chain, &[Some(a), Some(plain)], 0, RaceLimits::EXACT).unwrap();
        assert!(odds(skip).chances[0] < odds(plain).chances[0]);
        assert!(odds(shield).chances[0] > odds(plain).chances[0]);
    }

    #[test]
    fn too_much_work_gives_no_answer() {
        let (chain, _) = classic(2);
        let tiny = RaceLimits { tail: 1e-12, max_work: 10 };
        assert_eq!(race(&chain, &[Some(0), Some(0)], 0, tiny), None);
        assert_eq!(race(&chain, &[Some(0), Some(101)], 0, RaceLimits::EXACT), None);
    }
}
