//! What a simulation counts, and the intervals drawn from the counts.

use std::ops::{Add, AddAssign};

/// The standard normal quantile for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;
/// The standard normal quantile for a two-sided 99.9% interval.
pub const Z999: f64 = 3.290_526_731_491_926;

/// Games longer than this many rolls are counted in [`Tally::length_counts`]'s last bin.
pub const MAX_LENGTH_BIN: usize = 1 << 16;

/// A seat's wins on its k-th turn are counted for k up to this; later wins in the last bin.
pub const MAX_TURN_BIN: usize = 1 << 14;

/// How one game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameOutcome {
    /// The seat that finished first.
    pub winner: usize,
    /// Rolls made in the whole game.
    pub rolls: u64,
    /// Turns played in the whole game.
    pub turns: u64,
    /// Turns the winner played: it finished on its `winner_turns`-th turn (its round).
    pub winner_turns: u64,
}

/// A closed interval `[lo, hi]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// The lower end.
    pub lo: f64,
    /// The upper end.
    pub hi: f64,
}

impl Interval {
    /// True if and only if `x` lies in the interval.
    pub fn contains(self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }
}

/// Counts over many games: every field is an integer sum, so tallies merge with `+=` in any order
/// and give the same totals, which is what makes a simulation independent of its thread count.
///
/// ```
/// use snl_analysis::simulate::{GameOutcome, Tally};
/// let mut a = Tally::new(2);
/// a.record(GameOutcome { winner: 0, rolls: 10, turns: 10, winner_turns: 5 });
/// let mut b = Tally::new(2);
/// b.record(GameOutcome { winner: 1, rolls: 20, turns: 19, winner_turns: 10 });
/// a += b;
/// assert_eq!((a.games(), a.total_rolls(), a.wins()), (2, 30, &[1, 1][..]));
/// assert_eq!(a.mean_rolls(), 15.0);
/// assert_eq!(a.win_turn_counts(1)[10], 1); // seat 1 won once, on its 10th turn
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    games: u64,
    rolls: u64,
    rolls_squared: u128,
    turns: u64,
    wins: Vec<u64>,
    lengths: Vec<u64>,
    /// `win_turns[seat][k]`: games the seat won on its k-th turn.
    win_turns: Vec<Vec<u64>>,
}

impl Tally {
    /// An empty tally for games of `seats` seats.
    pub fn new(seats: usize) -> Tally {
        Tally { wins: vec![0; seats], win_turns: vec![Vec::new(); seats], ..Tally::default() }
    }

    /// Counts one game.
    ///
    /// # Panics
    ///
    /// Panics if the winner is not one of the tally's seats.
    #[inline]
    pub fn record(&mut self, game: GameOutcome) {
        self.games += 1;
        self.rolls += game.rolls;
        self.rolls_squared += u128::from(game.rolls) * u128::from(game.rolls);
        self.turns += game.turns;
        self.wins[game.winner] += 1;
        let bin = (game.rolls as usize).min(MAX_LENGTH_BIN);
        if bin >= self.lengths.len() {
            self.lengths.resize(bin + 1, 0);
        }
        self.lengths[bin] += 1;
        let row = &mut self.win_turns[game.winner];
        let turn = (game.winner_turns as usize).min(MAX_TURN_BIN);
        if turn >= row.len() {
            row.resize(turn + 1, 0);
        }
        row[turn] += 1;
    }

    /// Index `k` holds the number of games `seat` won on its k-th turn (the last index,
    /// [`MAX_TURN_BIN`], on that turn or later). Trailing zeros are not stored.
    ///
    /// # Panics
    ///
    /// Panics if `seat` is not one of the tally's seats.
    pub fn win_turn_counts(&self, seat: usize) -> &[u64] {
        &self.win_turns[seat]
    }

    /// The mean turn on which `seat` finished in the games it won (NaN when it won none).
    ///
    /// # Panics
    ///
    /// Panics if `seat` is not one of the tally's seats.
    pub fn mean_win_turn(&self, seat: usize) -> f64 {
        let row = &self.win_turns[seat];
        let won: u64 = row.iter().sum();
        row.iter().enumerate().map(|(k, &c)| k as f64 * c as f64).sum::<f64>() / won as f64
    }

    /// The smallest turn k by which at least a share `q` of `seat`'s wins had come (`None` when it
    /// won no game).
    ///
    /// # Panics
    ///
    /// Panics if `seat` is not one of the tally's seats.
    pub fn win_turn_quantile(&self, seat: usize, q: f64) -> Option<usize> {
        let row = &self.win_turns[seat];
        let won: u64 = row.iter().sum();
        let mut seen = 0;
        row.iter().position(|&c| {
            seen += c;
            won > 0 && seen as f64 >= q * won as f64
        })
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Seats per game.
    pub fn seats(&self) -> usize {
        self.wins.len()
    }

    /// Rolls made in all games together.
    pub fn total_rolls(&self) -> u64 {
        self.rolls
    }

    /// Turns played in all games together.
    pub fn total_turns(&self) -> u64 {
        self.turns
    }

    /// Games won by each seat, in seating order.
    pub fn wins(&self) -> &[u64] {
        &self.wins
    }

    /// Index `k` holds the number of games that took exactly `k` rolls (the last index,
    /// [`MAX_LENGTH_BIN`], those that took that many or more). Trailing zeros are not stored.
    pub fn length_counts(&self) -> &[u64] {
        &self.lengths
    }

    /// The mean number of rolls in a game (NaN with no games).
    pub fn mean_rolls(&self) -> f64 {
        self.rolls as f64 / self.games as f64
    }

    /// The sample standard deviation of the number of rolls in a game (NaN below 2 games).
    pub fn std_dev_rolls(&self) -> f64 {
        let n = u128::from(self.games);
        if n < 2 {
            return f64::NAN;
        }
        let sum = u128::from(self.rolls);
        // n·Σx² − (Σx)² is computed exactly; it cannot be negative.
        let spread = match (n.checked_mul(self.rolls_squared), sum.checked_mul(sum)) {
            (Some(a), Some(b)) => (a - b) as f64,
            _ => n as f64 * self.rolls_squared as f64 - (sum as f64).powi(2),
        };
        (spread / (n * (n - 1)) as f64).sqrt()
    }

    /// The interval `mean ± z·s/√n` for the mean number of rolls in a game (the normal
    /// approximation with the sample standard deviation `s`); `z` is e.g. [`Z95`].
    pub fn mean_rolls_interval(&self, z: f64) -> Interval {
        let mean = self.mean_rolls();
        let half = z * self.std_dev_rolls() / (self.games as f64).sqrt();
        Interval { lo: mean - half, hi: mean + half }
    }

    /// The mean number of turns each player played in a game: all turns over games × seats.
    pub fn mean_turns_per_player(&self) -> f64 {
        self.turns as f64 / (self.games as f64 * self.seats() as f64)
    }

    /// The share of games `seat` won (NaN with no games).
    ///
    /// # Panics
    ///
    /// Panics if `seat` is not a seat of the tally.
    pub fn win_rate(&self, seat: usize) -> f64 {
        self.wins[seat] as f64 / self.games as f64
    }

    /// Every seat's share of wins, in seating order.
    pub fn win_rates(&self) -> Vec<f64> {
        (0..self.seats()).map(|s| self.win_rate(s)).collect()
    }

    /// The Wilson score interval for `seat`'s chance to win (E. B. Wilson, JASA 1927), which
    /// stays inside `[0, 1]` and behaves for rates near 0 or 1; `z` is e.g. [`Z95`].
    ///
    /// # Panics
    ///
    /// Panics if `seat` is not a seat of the tally.
    pub fn win_interval(&self, seat: usize, z: f64) -> Interval {
        wilson(self.wins[seat], self.games, z)
    }
}

/// The Wilson score interval for `successes` out of `trials`.
fn wilson(successes: u64, trials: u64, z: f64) -> Interval {
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Interval { lo: (center - half).max(0.0), hi: (center + half).min(1.0) }
}

impl AddAssign<&Tally> for Tally {
    fn add_assign(&mut self, other: &Tally) {
        self.games += other.games;
        self.rolls += other.rolls;
        self.rolls_squared += other.rolls_squared;
        self.turns += other.turns;
        if self.wins.len() < other.wins.len() {
            self.wins.resize(other.wins.len(), 0);
        }
        for (mine, theirs) in self.wins.iter_mut().zip(&other.wins) {
            *mine += theirs;
        }
        if self.lengths.len() < other.lengths.len() {
            self.lengths.resize(other.lengths.len(), 0);
        }
        for (mine, theirs) in self.lengths.iter_mut().zip(&other.lengths) {
            *mine += theirs;
        }
        if self.win_turns.len() < other.win_turns.len() {
            self.win_turns.resize(other.win_turns.len(), Vec::new());
        }
        for (mine, theirs) in self.win_turns.iter_mut().zip(&other.win_turns) {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m += t;
            }
        }
    }
}

impl AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        *self += &other;
    }
}

impl Add for Tally {
    type Output = Tally;
    fn add(mut self, other: Tally) -> Tally {
        self += other;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(winner: usize, rolls: u64) -> GameOutcome {
        GameOutcome { winner, rolls, turns: rolls, winner_turns: rolls.div_ceil(2) }
    }

    #[test]
    fn merging_in_any_order_gives_the_same_tally() {
        let parts: Vec<Tally> = (0..5)
            .map(|i| {
                let mut t = Tally::new(3);
                for k in 0..=i {
                    t.record(game(k % 3, 7 + 3 * k as u64 + i as u64));
                }
                t
            })
            .collect();
        let forward = parts.iter().fold(Tally::new(3), |mut a, b| {
            a += b;
            a
        });
        let backward = parts.iter().rev().fold(Tally::new(3), |mut a, b| {
            a += b;
            a
        });
        assert_eq!(forward, backward);
        assert_eq!(forward.games(), 15);
    }

    #[test]
    fn mean_and_sample_deviation_match_the_textbook_formulas() {
        let mut t = Tally::new(2);
        for r in [2, 4, 4, 4, 5, 5, 7, 9] {
            t.record(game(0, r));
        }
        assert!((t.mean_rolls() - 5.0).abs() < 1e-12);
        // Σ(x − 5)² = 32 over n − 1 = 7.
        assert!((t.std_dev_rolls() - (32.0_f64 / 7.0).sqrt()).abs() < 1e-12);
        let ci = t.mean_rolls_interval(Z95);
        let half = Z95 * (32.0_f64 / 7.0).sqrt() / 8.0_f64.sqrt();
        assert!((ci.lo - (5.0 - half)).abs() < 1e-12 && (ci.hi - (5.0 + half)).abs() < 1e-12);
        assert_eq!(t.length_counts()[4], 3);
        assert_eq!(t.length_counts().len(), 10);
    }

    #[test]
    fn wilson_interval_matches_a_published_example() {
        // 81 successes in 263 trials, 95%: Wilson interval 0.2553 to 0.3662
        // (Newcombe, "Two-sided confidence intervals for the single proportion", Statistics in
        // Medicine 1998, table I, example 81/263: 0.2553–0.3662).
        let ci = wilson(81, 263, Z95);
        assert!((ci.lo - 0.2553).abs() < 5e-5 && (ci.hi - 0.3662).abs() < 5e-5, "{ci:?}");
        // A rate of 0 still gets an interval of positive width.
        let ci = wilson(0, 10, Z95);
        assert!(ci.lo.abs() < 1e-15);
        assert!(ci.hi > 0.2 && ci.hi < 0.35);
    }

    #[test]
    fn very_long_games_share_the_last_bin() {
        let mut t = Tally::new(2);
        t.record(game(1, 10_000_000));
        assert_eq!(t.length_counts().len(), MAX_LENGTH_BIN + 1);
        assert_eq!(t.length_counts()[MAX_LENGTH_BIN], 1);
        assert_eq!(t.total_rolls(), 10_000_000);
    }
}
