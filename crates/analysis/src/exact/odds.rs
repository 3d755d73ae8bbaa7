//! Live odds: each seat's chance to win from where the tokens stand, for the full-screen game's
//! players panel and the server's odds endpoint (one copy for both).
//!
//! Seats are independent tokens taking one turn each in seating order, so the turn-level chain of
//! [`TurnChain`] carries each token's position turn by turn; a seat wins when it finishes before
//! every other seat still playing. The race is followed round by round until the chance that
//! nobody has finished yet falls below [`RaceLimits::tail`]; every chance is then within that
//! much of the exact value ([`Race::unresolved`] says how much is left). A token in the middle of
//! its turn (bonus rolls, a choice) counts from where its turn began, so the odds change once per
//! turn. In race mode (SPEC §3b), and once a game clock has run out, each seat has a number of
//! turns left ([`Standing`]) and [`race_within`] follows them all, then ranks the unfinished by
//! cell, ties to the earlier seat, as the engine ends such a game. Under 0.4 ms on the classic board with 4 seats to 1e-6; on very large boards the work is
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
            work += one_turn(chain, (k, seat), &mut dist, &mut next, &mut alive, &mut chances);
        }
        unresolved = alive.iter().product();
        if work > limits.max_work {
            return None;
        }
    }
    Some(Race { chances, unresolved })
}

/// The `k`th seat in turn order (seat number `seat`) takes one turn: its distribution moves on
/// by the chain, it wins what finishes now while every other seat is still playing, and it
/// stays in play less that. Returns the work done (transitions followed).
fn one_turn(
    chain: &TurnChain,
    (k, seat): (usize, usize),
    dist: &mut [Vec<f64>],
    next: &mut Vec<f64>,
    alive: &mut [f64],
    chances: &mut [f64],
) -> usize {
    let n = next.len();
    let mut work = 0;
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
    std::mem::swap(&mut dist[k], next);
    let others: f64 = alive.iter().enumerate().filter(|&(j, _)| j != k).map(|(_, a)| a).product();
    chances[seat] += finished * others;
    alive[k] = (alive[k] - finished).max(0.0);
    work
}

/// The chances of a race where no seat can take more turns than `turns_left` says (its own
/// count, the turn under way included), as [`race`] otherwise: a seat wins by finishing before
/// every other, and when nobody has finished once every seat has had its turns, the furthest
/// token wins, ties to the earlier seat in seating order (SPEC §3b, a race's last round or the
/// round a game clock ran out in). Exact: every turn left is followed (`unresolved` is 0), or
/// `None` past `limits.max_work`.
///
/// # Panics
///
/// Panics if `turns_left` is shorter than `starts`.
pub fn race_within(
    chain: &TurnChain,
    starts: &[Option<u32>],
    first: usize,
    turns_left: &[u32],
    limits: RaceLimits,
) -> Option<Race> {
    let seats = starts.len();
    let n = chain.size() as usize;
    let cells = chain.cell_of(chain.size()) as usize;
    let mut chances = vec![0.0; seats];
    let order: Vec<usize> =
        (0..seats).map(|k| (first + k) % seats).filter(|&s| starts[s].is_some()).collect();
    let mut dist: Vec<Vec<f64>> = Vec::with_capacity(order.len());
    for &s in &order {
        let at = starts[s]? as usize;
        if at > n {
            return None;
        }
        if at == n {
            chances[s] = 1.0; // already on N: it has won
            return Some(Race { chances, unresolved: 0.0 });
        }
        let mut d = vec![0.0; n];
        d[at] = 1.0;
        dist.push(d);
    }
    let mut alive = vec![1.0; order.len()];
    let mut next = vec![0.0; n];
    let mut work = 0;
    let most = order.iter().map(|&s| turns_left[s]).max().unwrap_or(0);
    for t in 0..most {
        for (k, &seat) in order.iter().enumerate() {
            if turns_left[seat] <= t {
                continue;
            }
            work += one_turn(chain, (k, seat), &mut dist, &mut next, &mut alive, &mut chances);
        }
        if work > limits.max_work {
            return None;
        }
    }
    // Nobody finished: ranked by cell, ties in seating order. Per seat, the chance of each cell
    // and of standing below (`below`) or at most (`upto`) each cell, unfinished.
    let mut by_seat: Vec<Option<(Vec<f64>, Vec<f64>)>> = vec![None; seats];
    for (k, &seat) in order.iter().enumerate() {
        let mut at = vec![0.0; cells];
        for (state, &p) in dist[k].iter().enumerate() {
            at[chain.cell_of(state as u32) as usize] += p;
        }
        let mut upto = at.clone();
        for c in 1..cells {
            upto[c] += upto[c - 1];
        }
        by_seat[seat] = Some((at, upto));
    }
    for seat in 0..seats {
        let Some((at, _)) = &by_seat[seat] else { continue };
        for (c, &p) in at.iter().enumerate().filter(|&(_, &p)| p > 0.0) {
            let mut beaten = p;
            for (other, table) in by_seat.iter().enumerate() {
                let Some((_, upto)) = table else { continue };
                if other < seat {
                    beaten *= if c == 0 { 0.0 } else { upto[c - 1] };
                } else if other > seat {
                    beaten *= upto[c];
                }
            }
            chances[seat] += beaten;
        }
    }
    Some(Race { chances, unresolved: 0.0 })
}

/// Where each seat of a game stands for its odds: the turn under way counts from where it
/// began, with the shield held then and no skip pending (so the odds change once per turn).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Standing {
    /// Per seat: the cell it begins its next turn on, whether it holds a shield and whether
    /// that turn is to be skipped; `None` for a seat out of the race.
    pub starts: Vec<Option<(u32, bool, bool)>>,
    /// The seat that plays next.
    pub first: usize,
    /// When the game ends after some rounds (race mode, or the round a game clock ran out in):
    /// the turns each seat has left, the turn under way included.
    pub turns_left: Option<Vec<u32>>,
}

impl Standing {
    /// A game of `seats` seats under `rules` before its first roll.
    pub fn at_start(seats: usize, rules: &snl_engine::Rules) -> Standing {
        let start = rules.start_position();
        Standing {
            starts: vec![Some((start, false, false)); seats],
            first: 0,
            turns_left: rules.mode.rounds().map(|k| vec![k; seats]),
        }
    }

    /// `game` as it stands.
    pub fn of(game: &Game) -> Standing {
        let seats = game.seats().len();
        let current = game.current();
        let mid = |s: usize| s == current && game.in_turn();
        let starts = (0..seats)
            .map(|s| {
                game.is_playing(s).then(|| {
                    if mid(s) {
                        let shield = crate::strategy::shield_at_turn_start(game, s);
                        (game.turn_start(), shield, false)
                    } else {
                        (game.positions()[s], game.has_shield(s), game.skips_next_turn(s))
                    }
                })
            })
            .collect();
        let rounds: Option<Vec<u32>> = game.rules().mode.rounds().map(|k| {
            (0..seats).map(|s| k.saturating_sub(game.turns_of(s)) + u32::from(mid(s))).collect()
        });
        // Time called: the round in play is the last, so only the seats from the current one
        // to the end of the table have a turn left in it.
        let clock: Option<Vec<u32>> =
            game.time_up().map(|_| (0..seats).map(|s| u32::from(s >= current)).collect());
        let turns_left = match (rounds, clock) {
            (Some(a), Some(b)) => Some(a.iter().zip(&b).map(|(&x, &y)| x.min(y)).collect()),
            (a, b) => a.or(b),
        };
        Standing { starts, first: current, turns_left }
    }
}

/// The chances from `standing` on `chain` (see [`race`] and [`race_within`]).
pub fn standing_odds(chain: &TurnChain, standing: &Standing, limits: RaceLimits) -> Option<Race> {
    let cells = chain.cell_of(chain.size());
    let starts: Vec<Option<u32>> = standing
        .starts
        .iter()
        .map(|s| {
            s.map(
                |(cell, shield, skip)| {
                    if cell >= cells { chain.size() } else { chain.state(cell, shield, skip) }
                },
            )
        })
        .collect();
    match &standing.turns_left {
        None => race(chain, &starts, standing.first, limits),
        Some(left) => race_within(chain, &starts, standing.first, left, limits),
    }
}

/// The chances of `game` as it stands (see the module documentation), or `None` when that is
/// more work than `limits` allow. In race mode, and once the game clock has run out, the race
/// is followed to its last round ([`race_within`]).
pub fn live_odds(chain: &TurnChain, game: &Game, limits: RaceLimits) -> Option<Race> {
    let seats = game.seats().len();
    if let Some(&winner) = game.ranking().first() {
        let mut chances = vec![0.0; seats];
        chances[winner] = 1.0;
        return Some(Race { chances, unresolved: 0.0 });
    }
    if game.status() == Status::Finished {
        return Some(Race { chances: vec![0.0; seats], unresolved: 0.0 });
    }
    // On a board with effects the chain's positions are states (SPEC §3b).
    standing_odds(chain, &Standing::of(game), limits)
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
