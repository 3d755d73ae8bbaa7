//! Each seat's chance to win from where the tokens stand, for the players panel.
//!
//! Seats are independent tokens taking one turn each in seating order, so the turn-level chain of
//! [`TurnChain`] (a token that takes the first option) carries each token's position turn by turn;
//! a seat wins when it finishes before every other seat still playing. A token in the middle of
//! its turn counts from where its turn began. Under 0.4 ms on the classic board with 4 seats,
//! worked out once per position; on very large boards the work is capped and no chance is shown.

use snl_analysis::exact::TurnChain;
use snl_engine::{Game, Status};

/// Transitions followed at most, summed over turns and seats, before giving up: about 25 ms
/// (a 10,000-cell board gives up; the classic board with 4 seats needs under 0.4 ms).
const MAX_WORK: usize = 4_000_000;
/// Mass still unfinished below which the chances are final (they are shown in whole percents).
const EPSILON: f64 = 1e-6;

/// Each seat's chance to be the first of those still playing to finish (0 for seats already
/// out), or `None` when that is too much work to work out.
pub(crate) fn win_chances(chain: &TurnChain, game: &Game) -> Option<Vec<f64>> {
    let seats = game.seats().len();
    let mut chances = vec![0.0; seats];
    if game.status() == Status::Finished {
        if let Some(&winner) = game.ranking().first() {
            chances[winner] = 1.0;
        }
        return Some(chances);
    }
    if let Some(&winner) = game.ranking().first() {
        chances[winner] = 1.0;
        return Some(chances);
    }
    let n = chain.size() as usize;
    let current = game.current();
    let order: Vec<usize> =
        (0..seats).map(|k| (current + k) % seats).filter(|&s| game.is_playing(s)).collect();
    let mut dist: Vec<Vec<f64>> = order
        .iter()
        .map(|&s| {
            let mut d = vec![0.0; n];
            let at = if s == current && game.in_turn() {
                game.turn_start()
            } else {
                game.positions()[s]
            };
            if (at as usize) < n {
                d[at as usize] = 1.0;
            }
            d
        })
        .collect();
    let mut alive: Vec<f64> = dist.iter().map(|d| d.iter().sum()).collect();
    let mut next = vec![0.0; n];
    let mut work = 0;
    while alive.iter().product::<f64>() > EPSILON {
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
        if work > MAX_WORK {
            return None;
        }
    }
    Some(chances)
}

#[cfg(test)]
mod tests {
    use snl_analysis::exact;
    use snl_engine::{Board, Preset, Rules, Seat, SeatKind};

    use super::*;

    #[test]
    fn from_the_start_the_chances_are_the_exact_analysis() {
        let rules = Rules::default();
        let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        let seats = vec![
            Seat::new("Ann", SeatKind::Human),
            Seat::new("Bob", SeatKind::Easy),
            Seat::new("Cy", SeatKind::Easy),
        ];
        let game = Game::new(board.clone(), rules, seats).unwrap();
        let got = win_chances(&TurnChain::new(&board, &rules), &game).unwrap();
        let want = exact::analyze(&board, &rules).unwrap().seats(3).win_probability;
        for (g, w) in got.iter().zip(&want) {
            assert!((g - w).abs() < 1e-5, "{got:?} vs {want:?}");
        }
        assert!(got[0] > got[1] && got[1] > got[2], "{got:?}");
    }
}
