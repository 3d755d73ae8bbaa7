//! Several seats on one board: who finishes first, how the seats rank, how long the game lasts.
//!
//! Seats are independent tokens (nothing happens when two share a cell), and every seat still
//! playing has exactly one turn per round, in seating order. So seat i's turn count `T_i` follows
//! its own single-token distribution, and seat i finishes before seat j when `T_i < T_j`, or
//! `T_i = T_j` and `i < j`. Everything below is a sum over rounds of products of those
//! distributions.

use snl_engine::Finish;

use super::Analysis;

/// Beyond this many seats the rank table is not computed (its cost grows as seats³ × turns).
pub const MAX_RANKED_SEATS: usize = 256;

/// What several seats can expect from one game.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct SeatOutcomes {
    /// Per seat, in seating order: the probability of finishing first (of winning, under
    /// finish first; of rank 1, under finish all).
    pub win_probability: Vec<f64>,
    /// Rolls made by all seats together until the game ends (infinite when it may never end).
    pub expected_game_rolls: f64,
    /// Turns played by all seats together until the game ends (infinite when it may never end).
    pub expected_game_turns: f64,
    /// Under finish all, `rank_probability[seat][r]` = P(seat ends with rank r + 1); rows may add
    /// up to less than 1 when the game can go on forever. `None` under finish first, or beyond
    /// [`MAX_RANKED_SEATS`] seats.
    pub rank_probability: Option<Vec<Vec<f64>>>,
    /// Probability that the game never ends (every seat, or under finish all two seats, stuck
    /// where the last cell cannot be reached).
    pub never_ends: f64,
    /// Probability that the game is still undecided after the last turn the seats'
    /// distributions were followed to, games that can end but had not: the answers above may be
    /// off by about this much. Negligible (the tail to the power of the seats) unless a
    /// distribution stopped at its work limit.
    pub unresolved: f64,
}

impl SeatOutcomes {
    /// Whether the outcomes are exact to 1e-9: the undecided games left out weigh less.
    pub fn is_exact(&self) -> bool {
        self.unresolved <= 1e-9
    }
}

/// The outcomes of a game whose seat `i` plays as `seats[i]` describes (the same analysis
/// repeated for seats that play alike), under the finish rule `finish`.
///
/// # Panics
///
/// Panics if `seats` is empty.
pub fn seat_outcomes(seats: &[&Analysis], finish: Finish) -> SeatOutcomes {
    assert!(!seats.is_empty(), "a game has at least one seat");
    let n = seats.len();
    let turns = seats.iter().map(|a| a.distribution.turns()).max().unwrap_or(0);
    let dists: Vec<_> = seats.iter().map(|a| &a.distribution).collect();
    let never: Vec<f64> = seats.iter().map(|a| a.never_finish_probability).collect();

    // P(seat i is the first to finish).
    let mut win = vec![0.0; n];
    // Products of survivals before (this round) and after (last round) each seat.
    let mut before = vec![0.0; n];
    let mut after = vec![0.0; n];
    let mut game_turns = 0.0;
    let mut game_rolls = 0.0;
    for k in 1..=turns {
        still_on_at(&dists, k, &mut before, &mut after);
        for i in 0..n {
            win[i] += dists[i].probability(k) * before[i] * after[i];
        }
        // Seat j plays its turn k if it has not finished and the game is still on then.
        for j in 0..n {
            let on = match finish {
                Finish::First => before[j] * after[j],
                // The game is over once every other seat has finished.
                Finish::All if n > 1 => 1.0 - everyone_else_done(&dists, j, k),
                Finish::All => 1.0,
            };
            game_turns += dists[j].survival(k - 1) * on;
            game_rolls += dists[j].rolls_in_turn(k) * on;
        }
    }
    let never_ends = match finish {
        _ if n == 1 => never[0],
        Finish::First => never.iter().product(),
        Finish::All => {
            // Two or more seats never finish.
            let none: f64 = never.iter().map(|q| 1.0 - q).product();
            let one: f64 = (0..n)
                .map(|i| {
                    never[i] * (0..n).filter(|&j| j != i).map(|j| 1.0 - never[j]).product::<f64>()
                })
                .sum();
            (1.0 - none - one).max(0.0)
        }
    };
    if never_ends > 0.0 {
        game_turns = f64::INFINITY;
        game_rolls = f64::INFINITY;
    }
    if n == 1 {
        // A lone seat plays until it finishes: its own exact expectations.
        game_turns = seats[0].expected_turns;
        game_rolls = seats[0].expected_rolls;
    }
    // Games still on after the last round followed, less those that never end.
    let still_on = match finish {
        _ if n == 1 => dists[0].survival(turns),
        Finish::First => dists.iter().map(|d| d.survival(turns)).product(),
        Finish::All => {
            let left: Vec<f64> = dists.iter().map(|d| d.survival(turns)).collect();
            let none: f64 = left.iter().map(|q| 1.0 - q).product();
            let one: f64 = (0..n)
                .map(|i| {
                    left[i] * (0..n).filter(|&j| j != i).map(|j| 1.0 - left[j]).product::<f64>()
                })
                .sum();
            (1.0 - none - one).max(0.0)
        }
    };
    let unresolved = (still_on - never_ends).max(0.0);
    let rank_probability = (finish == Finish::All && n <= MAX_RANKED_SEATS)
        .then(|| (0..n).map(|i| ranks(&dists, &never, i, turns)).collect());
    SeatOutcomes {
        win_probability: win,
        expected_game_rolls: game_rolls,
        expected_game_turns: game_turns,
        rank_probability,
        never_ends,
        unresolved,
    }
}

/// Per seat `i`, index `k`: the probability that seat i finishes first on round k (its k-th
/// turn), for rounds 1 to `rounds` (index 0 is 0). Over every round the distributions reach, a
/// row adds up to the seat's [`SeatOutcomes::win_probability`].
///
/// # Panics
///
/// Panics if `seats` is empty.
pub fn win_by_round(seats: &[&Analysis], rounds: usize) -> Vec<Vec<f64>> {
    assert!(!seats.is_empty(), "a game has at least one seat");
    let n = seats.len();
    let dists: Vec<_> = seats.iter().map(|a| &a.distribution).collect();
    let (mut before, mut after) = (vec![0.0; n], vec![0.0; n]);
    let mut rows = vec![vec![0.0; rounds + 1]; n];
    for k in 1..=rounds {
        still_on_at(&dists, k, &mut before, &mut after);
        for (i, row) in rows.iter_mut().enumerate() {
            row[k] = dists[i].probability(k) * before[i] * after[i];
        }
    }
    rows
}

/// The chance that every other seat is still playing when seat i takes its turn k:
/// `before[i]` = Π over j < i of P(`T_j` > k), and `after[i]` = Π over j > i of P(`T_j` > k − 1).
fn still_on_at(
    dists: &[&super::TurnDistribution],
    k: usize,
    before: &mut [f64],
    after: &mut [f64],
) {
    let mut acc = 1.0;
    for (i, d) in dists.iter().enumerate() {
        before[i] = acc;
        acc *= d.survival(k);
    }
    acc = 1.0;
    for (i, d) in dists.iter().enumerate().rev() {
        after[i] = acc;
        acc *= d.survival(k - 1);
    }
}

/// P(every seat but `j` has finished before seat j's turn k): seats before j within round k,
/// seats after j by round k − 1.
fn everyone_else_done(dists: &[&super::TurnDistribution], j: usize, k: usize) -> f64 {
    dists
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != j)
        .map(|(i, d)| if i < j { d.cdf(k) } else { d.cdf(k - 1) })
        .product()
}

/// P(seat i ends with rank r + 1) for every r.
fn ranks(dists: &[&super::TurnDistribution], never: &[f64], i: usize, turns: usize) -> Vec<f64> {
    let n = dists.len();
    let mut rank = vec![0.0; n];
    let mut count = vec![0.0; n];
    for k in 1..=turns {
        let p = dists[i].probability(k);
        if p == 0.0 {
            continue;
        }
        // Distribution of the number of seats ranked before seat i, given T_i = k: seat j < i
        // is before when T_j ≤ k, seat j > i when T_j ≤ k − 1.
        count.fill(0.0);
        count[0] = 1.0;
        let others = dists.iter().enumerate().filter(|&(j, _)| j != i);
        for (seen, (j, d)) in (1..).zip(others) {
            // `seen` seats counted so far, including this one.
            let q = if j < i { d.cdf(k) } else { d.cdf(k - 1) };
            for c in (1..=seen).rev() {
                count[c] = count[c] * (1.0 - q) + count[c - 1] * q;
            }
            count[0] *= 1.0 - q;
        }
        for (r, c) in rank.iter_mut().zip(&count) {
            *r += p * c;
        }
    }
    // A seat that never finishes while all the others do is left last.
    rank[n - 1] += never[i] * (0..n).filter(|&j| j != i).map(|j| 1.0 - never[j]).product::<f64>();
    rank
}

#[cfg(test)]
mod tests {
    use snl_engine::{Board, Preset, Rules};

    use super::*;

    #[test]
    fn each_seats_wins_by_round_add_up_to_its_win_probability() {
        let rules = Rules::default();
        let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        let one = super::super::analyze(&board, &rules).unwrap();
        let seats = [&one, &one, &one];
        let rows = win_by_round(&seats, one.distribution.turns());
        let outcomes = seat_outcomes(&seats, rules.finish);
        for (row, &win) in rows.iter().zip(&outcomes.win_probability) {
            assert!(row[0] == 0.0, "no one finishes before the first round");
            assert!((row.iter().sum::<f64>() - win).abs() < 1e-12, "{win}");
        }
        // The first seat moves first: on the fewest turns it alone can have won.
        let first = one.min_turns().unwrap() as usize;
        assert!(rows[0][first] > rows[1][first] && rows[1][first] > rows[2][first]);
        assert_eq!(win_by_round(&seats, 3)[0].len(), 4);
    }
}
