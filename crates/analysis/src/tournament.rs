// Long because ~85 lines are unit tests; the runner and its tallies are kept together.
//! Tournaments: many games between computer strategies, played by the engine itself, in
//! parallel, with the seats rotated so that no strategy keeps the first move's advantage.
//!
//! Unlike [`crate::simulate`], whose kernels always take the first option, every game here is a
//! [`Game`] whose seats decide through [`Strategies`]: slower, but any strategy plays exactly as
//! it would in `snl play`.
//!
//! # Seats and determinism
//!
//! Game `g` (from 0) seats the players rotated by `g mod n`: seat `s` is player `(s + g) mod n`,
//! so over any `n` consecutive games every player has every seat once. Games are split into
//! chunks of [`CHUNK_GAMES`]; chunk `i` throws its dice from the stream seeded with
//! [`chunk_seed`]`(seed, i)`, easy players draw from a seed of their game's own, and the
//! [`Standings`] are integer sums merged with `+=`, so a seed gives the same result whatever the
//! number of threads.
//!
//! # Example
//!
//! ```
//! use snl_analysis::{strategy::Strategy, tournament::{Entrant, Tournament}};
//! use snl_engine::{Board, Choice, Preset, Rules};
//!
//! let rules = Rules { choice: Choice::PickDie, ..Rules::default() };
//! let board = Board::new(&Preset::Classic.spec(), &rules)?;
//! let players = vec![Entrant::new("Eve", Strategy::Easy), Entrant::new("Hal", Strategy::Hard)];
//! let tournament = Tournament::new(&board, &rules, players)?;
//! let standings = tournament.run(7, 400);
//! assert_eq!(standings.games(), 400);
//! assert_eq!(standings, tournament.run(7, 400)); // the same seed, the same result
//! assert!(standings.wins()[1] > standings.wins()[0]); // hard beats easy
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::{
    ops::{Add, AddAssign},
    sync::OnceLock,
};

use snl_engine::{Board, Game, PlayError, RollSource, Rules, Seat, SeatKind, SetupError, Status};

use crate::{
    Budget,
    exact::AnalysisError,
    simulate::{DiceStream, GameOutcome, Interval, Tally, chunk_seed, in_chunks},
    strategy::{HardPolicy, PlayToWin, Strategies, Strategy, WinError},
};

/// Games per chunk. Part of what a seed means: changing it changes every seeded result.
pub const CHUNK_GAMES: u64 = 250;

/// A player in a tournament: a name and a strategy.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Entrant {
    /// Shown in results; unique in a tournament.
    pub name: String,
    /// How it chooses.
    pub strategy: Strategy,
}

impl Entrant {
    /// A player.
    pub fn new(name: impl Into<String>, strategy: Strategy) -> Entrant {
        Entrant { name: name.into(), strategy }
    }
}

/// Why a tournament cannot be held.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum TournamentError {
    /// The players cannot play a game on this board (too few, the same name twice, or a board
    /// on which a token could be stuck for ever).
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The optimal policy for `hard` could not be computed.
    #[error("the hard strategy cannot be computed: {0}")]
    Analysis(#[from] AnalysisError),
    /// Playing to win cannot be solved for these players on this board and rules.
    #[error(transparent)]
    Win(#[from] WinError),
}

/// Many games of one board and rules between the same players.
#[derive(Clone, Debug)]
pub struct Tournament {
    board: Board,
    rules: Rules,
    players: Vec<Entrant>,
    hard: Option<HardPolicy>,
    /// When a player is `win`: the game solved for each rotation of the seats, when a game
    /// first needs it (the first only, when every player is `win`).
    wins: Vec<OnceLock<PlayToWin>>,
}

impl Tournament {
    /// A tournament of `players` on `board` under `rules` (the board validated for them). The
    /// optimal policy is computed here, once, when a player is `hard` or `win`, and when a
    /// player is `win` the game is solved for each rotation of the seats ([`PlayToWin`]; one
    /// when all are `win`), when a game first needs it.
    ///
    /// # Errors
    ///
    /// [`TournamentError::Setup`] when the players could not play a game ([`Game::new`]'s
    /// checks), [`TournamentError::Analysis`] when the optimal policy cannot be computed,
    /// [`TournamentError::Win`] when playing to win is not solved for these players (before
    /// any work).
    pub fn new(
        board: &Board,
        rules: &Rules,
        players: Vec<Entrant>,
    ) -> Result<Tournament, TournamentError> {
        Tournament::new_within(board, rules, players, &crate::Budget::unlimited())
    }

    /// As [`Tournament::new`], the optimal policy worked out until `budget` is spent
    /// ([`HardPolicy::new_within`]).
    ///
    /// # Errors
    ///
    /// As [`Tournament::new`], and [`TournamentError::Analysis`] holding
    /// [`AnalysisError::Stopped`] when the budget ran out first.
    pub fn new_within(
        board: &Board,
        rules: &Rules,
        players: Vec<Entrant>,
        budget: &crate::Budget,
    ) -> Result<Tournament, TournamentError> {
        let seats = players.iter().map(|p| Seat::new(p.name.clone(), kind(p.strategy))).collect();
        Game::new(board.clone(), *rules, seats)?;
        let strategies: Vec<Strategy> = players.iter().map(|p| p.strategy).collect();
        if strategies.contains(&Strategy::Win) {
            // Before the optimal policy's work.
            PlayToWin::check_strategies(board, rules, &strategies)?;
        }
        let hard = if strategies.iter().any(|s| matches!(s, Strategy::Hard | Strategy::Win)) {
            Some(HardPolicy::new_within(board, rules, budget)?)
        } else {
            None
        };
        let mut tournament =
            Tournament { board: board.clone(), rules: *rules, players, hard, wins: Vec::new() };
        tournament.solve_wins()?;
        Ok(tournament)
    }

    /// Makes room for the game solved for each rotation of the seats when a player is `win`
    /// (checked to be solvable; it is solved when a game first needs it).
    fn solve_wins(&mut self) -> Result<(), WinError> {
        let strategies: Vec<Strategy> = self.players.iter().map(|p| p.strategy).collect();
        if strategies.contains(&Strategy::Win) {
            PlayToWin::check_strategies(&self.board, &self.rules, &strategies)?;
            self.wins = (0..strategies.len()).map(|_| OnceLock::new()).collect();
        }
        Ok(())
    }

    /// The game solved for the seats rotated by `rotation`, when a player is `win`.
    fn win_for(&self, rotation: usize) -> Option<&PlayToWin> {
        let n = self.players.len();
        let hard = self.hard.as_ref()?;
        let all = self.players.iter().all(|p| p.strategy == Strategy::Win);
        let rotation = if all { 0 } else { rotation };
        let slot = self.wins.get(rotation)?;
        Some(slot.get_or_init(|| {
            let seated: Vec<Strategy> =
                (0..n).map(|s| self.players[seat_player(s, rotation as u64, n)].strategy).collect();
            PlayToWin::for_strategies(hard, &seated)
                .expect("playing to win was checked to be solvable when the tournament was made")
        }))
    }

    /// As [`Tournament::new`] with an optimal policy already computed for this board and rules.
    ///
    /// # Errors
    ///
    /// [`TournamentError::Setup`] and [`TournamentError::Win`] as [`Tournament::new`].
    pub fn with_policy(
        board: &Board,
        rules: &Rules,
        players: Vec<Entrant>,
        hard: HardPolicy,
    ) -> Result<Tournament, TournamentError> {
        let seats = players.iter().map(|p| Seat::new(p.name.clone(), kind(p.strategy))).collect();
        Game::new(board.clone(), *rules, seats)?;
        let mut tournament = Tournament {
            board: board.clone(),
            rules: *rules,
            players,
            hard: Some(hard),
            wins: Vec::new(),
        };
        tournament.solve_wins()?;
        Ok(tournament)
    }

    /// The players, in the order results are given.
    pub fn players(&self) -> &[Entrant] {
        &self.players
    }

    /// The optimal policy the hard players use, if any plays.
    pub fn hard_policy(&self) -> Option<&HardPolicy> {
        self.hard.as_ref()
    }

    /// The rules played.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Plays `games` games seeded with `seed` on the current rayon thread pool.
    pub fn run(&self, seed: u64, games: u64) -> Standings {
        self.run_with_progress(seed, games, &|_| {})
    }

    /// As [`Tournament::run`], calling `progress(n)` each time a chunk of `n` games is done.
    pub fn run_with_progress(
        &self,
        seed: u64,
        games: u64,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Standings {
        self.run_within(seed, games, progress, &Budget::unlimited())
    }

    /// As [`Tournament::run_with_progress`], stopping early once `budget` is spent: the
    /// standings then count the games of the first chunks only (at least the first chunk's,
    /// unless cancelled), exactly those a tournament of [`Standings::games`] games plays.
    pub fn run_within(
        &self,
        seed: u64,
        games: u64,
        progress: &(dyn Fn(u64) + Sync),
        budget: &Budget,
    ) -> Standings {
        let empty = || Standings::new(self.players.len());
        in_chunks(games, CHUNK_GAMES, progress, budget, empty, |chunk, count| {
            self.play_chunk(seed, chunk, count)
        })
    }

    /// Plays chunk `chunk` of a tournament seeded with `seed`: games `chunk × CHUNK_GAMES`
    /// onwards, `games` of them, dice from the stream [`chunk_seed`]`(seed, chunk)`.
    pub fn play_chunk(&self, seed: u64, chunk: u64, games: u64) -> Standings {
        let faces = self.rules.thrown_dice().faces();
        let mut dice = DiceStream::new(chunk_seed(seed, chunk), faces);
        let mut standings = Standings::new(self.players.len());
        for i in 0..games {
            let index = chunk * CHUNK_GAMES + i;
            let easy_seed = chunk_seed(!seed, index);
            let game = self.play_game(index, &mut dice, easy_seed);
            standings.record(&game, index);
        }
        standings
    }

    /// Plays `games` games with every player in its own seat (player i moves i-th, as
    /// `snl simulate` seats them) and counts them as a simulation [`Tally`] by seat: the
    /// strategies' counterpart of [`Simulator::run`](crate::simulate::Simulator::run), whose
    /// kernels take the first option. Deterministic as [`Tournament::run`].
    pub fn simulate_with_progress(
        &self,
        seed: u64,
        games: u64,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Tally {
        self.simulate_within(seed, games, progress, &Budget::unlimited())
    }

    /// As [`Tournament::simulate_with_progress`], stopping early once `budget` is spent, as
    /// [`Simulator::run_within`](crate::simulate::Simulator::run_within) does.
    pub fn simulate_within(
        &self,
        seed: u64,
        games: u64,
        progress: &(dyn Fn(u64) + Sync),
        budget: &Budget,
    ) -> Tally {
        let n = self.players.len();
        let faces = self.rules.thrown_dice().faces();
        in_chunks(
            games,
            CHUNK_GAMES,
            progress,
            budget,
            || Tally::new(n),
            |chunk, count| {
                let mut dice = DiceStream::new(chunk_seed(seed, chunk), faces);
                let mut tally = Tally::new(n);
                for i in 0..count {
                    let index = chunk * CHUNK_GAMES + i;
                    let game = self.play_seated(0, &mut dice, chunk_seed(!seed, index));
                    let winner = game.ranking()[0];
                    tally.record(GameOutcome {
                        winner,
                        rolls: u64::from(game.rolls()),
                        turns: u64::from(game.turns()),
                        winner_turns: u64::from(game.turns_of(winner)),
                    });
                }
                tally
            },
        )
    }

    /// Plays game number `index` (which fixes the seating) to the end with `dice`, easy players
    /// drawing from `easy_seed`.
    ///
    /// # Panics
    ///
    /// Panics if `dice` runs out (the tournament's own dice never do).
    pub fn play_game(&self, index: u64, dice: &mut impl RollSource, easy_seed: u64) -> Game {
        let n = self.players.len();
        self.play_seated((index % n as u64) as usize, dice, easy_seed)
    }

    /// Plays one game with the players rotated by `rotation` seats.
    fn play_seated(&self, rotation: usize, dice: &mut impl RollSource, easy_seed: u64) -> Game {
        let n = self.players.len();
        let order: Vec<&Entrant> =
            (0..n).map(|s| &self.players[seat_player(s, rotation as u64, n)]).collect();
        let seats = order.iter().map(|p| Seat::new(p.name.clone(), kind(p.strategy))).collect();
        let mut game = Game::new(self.board.clone(), self.rules, seats)
            .expect("the players were checked when the tournament was made");
        let mut deciders = Strategies::new(
            order.iter().map(|p| p.strategy).collect(),
            easy_seed,
            self.hard.as_ref(),
        );
        if let Some(win) = self.win_for(rotation) {
            deciders = deciders.with_win(win);
        }
        match game.play_to_end(dice, &mut deciders, &mut ()) {
            Ok(()) => {}
            Err(PlayError::Roll(e)) => panic!("the dice stopped: {e}"),
            Err(e) => panic!("the game could not go on: {e}"),
        }
        game
    }
}

/// The player sitting in seat `seat` of game `index` among `n` players.
pub fn seat_player(seat: usize, index: u64, n: usize) -> usize {
    (seat + (index % n as u64) as usize) % n
}

fn kind(strategy: Strategy) -> SeatKind {
    match strategy {
        Strategy::Easy => SeatKind::Easy,
        Strategy::Greedy => SeatKind::Greedy,
        Strategy::Hard => SeatKind::Hard,
        Strategy::Win => SeatKind::Win,
    }
}

/// What a tournament counts: integer sums only, so standings merge with `+=` in any order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standings {
    games: u64,
    /// Per player: games won (rank 1).
    wins: Vec<u64>,
    /// Per seat: games won from that seat.
    seat_wins: Vec<u64>,
    /// Per player: the sum of its ranks.
    ranks: Vec<u64>,
    /// Per player: turns it played.
    turns: Vec<u64>,
    rolls: u64,
    rolls_squared: u128,
}

impl Standings {
    /// Nothing counted yet, for `players` players.
    pub fn new(players: usize) -> Standings {
        Standings {
            wins: vec![0; players],
            seat_wins: vec![0; players],
            ranks: vec![0; players],
            turns: vec![0; players],
            ..Standings::default()
        }
    }

    /// Counts `game`, played as game number `index` (which tells who sat where).
    ///
    /// # Panics
    ///
    /// Panics if the game is not over or has another number of seats.
    pub fn record(&mut self, game: &Game, index: u64) {
        assert_eq!(game.status(), Status::Finished, "only finished games are counted");
        let n = self.wins.len();
        assert_eq!(game.seats().len(), n, "a game of another number of players");
        let winner = game.ranking()[0];
        self.games += 1;
        self.wins[seat_player(winner, index, n)] += 1;
        self.seat_wins[winner] += 1;
        for (seat, rank) in game.ranks().iter().enumerate() {
            let player = seat_player(seat, index, n);
            self.ranks[player] += u64::from(rank.unwrap_or(n as u32));
            self.turns[player] += u64::from(game.turns_of(seat));
        }
        let rolls = u64::from(game.rolls());
        self.rolls += rolls;
        self.rolls_squared += u128::from(rolls) * u128::from(rolls);
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Games won by each player, in the tournament's order.
    pub fn wins(&self) -> &[u64] {
        &self.wins
    }

    /// Games won from each seat (seat 0 moves first), whoever sat there.
    pub fn seat_wins(&self) -> &[u64] {
        &self.seat_wins
    }

    /// Player `player`'s share of wins.
    pub fn win_rate(&self, player: usize) -> f64 {
        self.wins[player] as f64 / self.games as f64
    }

    /// The Wilson score interval for `player`'s chance to win (E. B. Wilson, "Probable
    /// inference, the law of succession, and statistical inference", JASA 22, 1927); `z` is
    /// e.g. [`Z95`](crate::simulate::Z95).
    pub fn win_interval(&self, player: usize, z: f64) -> Interval {
        wilson(self.wins[player], self.games, z)
    }

    /// As [`Standings::win_interval`] for the seat `seat`, whoever sat there.
    pub fn seat_win_interval(&self, seat: usize, z: f64) -> Interval {
        wilson(self.seat_wins[seat], self.games, z)
    }

    /// Player `player`'s mean rank (1 is first; under finish first, every player but the
    /// winner is ranked by how far it got).
    pub fn mean_rank(&self, player: usize) -> f64 {
        self.ranks[player] as f64 / self.games as f64
    }

    /// The mean number of turns player `player` played in a game.
    pub fn mean_turns(&self, player: usize) -> f64 {
        self.turns[player] as f64 / self.games as f64
    }

    /// The mean number of rolls in a game, all players together.
    pub fn mean_rolls(&self) -> f64 {
        self.rolls as f64 / self.games as f64
    }

    /// The interval `mean ± z·s/√n` for the mean number of rolls in a game.
    pub fn mean_rolls_interval(&self, z: f64) -> Interval {
        let n = self.games as f64;
        let mean = self.mean_rolls();
        let variance = (self.rolls_squared as f64 - n * mean * mean).max(0.0) / (n - 1.0);
        let half = z * (variance / n).sqrt();
        Interval { lo: mean - half, hi: mean + half }
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

impl AddAssign<&Standings> for Standings {
    fn add_assign(&mut self, other: &Standings) {
        let add = |mine: &mut Vec<u64>, theirs: &[u64]| {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m += t;
            }
        };
        self.games += other.games;
        add(&mut self.wins, &other.wins);
        add(&mut self.seat_wins, &other.seat_wins);
        add(&mut self.ranks, &other.ranks);
        add(&mut self.turns, &other.turns);
        self.rolls += other.rolls;
        self.rolls_squared += other.rolls_squared;
    }
}

impl AddAssign for Standings {
    fn add_assign(&mut self, other: Standings) {
        *self += &other;
    }
}

impl Add for Standings {
    type Output = Standings;
    fn add(mut self, other: Standings) -> Standings {
        self += other;
        self
    }
}

#[cfg(test)]
mod tests {
    use snl_engine::{Choice, Preset};

    use super::*;

    fn classic(choice: Choice) -> (Board, Rules) {
        let rules = Rules { choice, ..Rules::default() };
        (Board::new(&Preset::Classic.spec(), &rules).unwrap(), rules)
    }

    #[test]
    fn every_player_sits_in_every_seat_once_in_n_games() {
        for n in 2..6 {
            for seat in 0..n {
                let mut players: Vec<usize> =
                    (0..n as u64).map(|g| seat_player(seat, g, n)).collect();
                players.sort_unstable();
                assert_eq!(players, (0..n).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn the_result_does_not_depend_on_the_thread_count() {
        let (board, rules) = classic(Choice::MayPass);
        let players = vec![
            Entrant::new("E", Strategy::Easy),
            Entrant::new("G", Strategy::Greedy),
            Entrant::new("H", Strategy::Hard),
        ];
        let t = Tournament::new(&board, &rules, players).unwrap();
        let pool = |threads| rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let one = pool(1).install(|| t.run(3, 700));
        let two = pool(2).install(|| t.run(3, 700));
        assert_eq!(one, two);
        assert_eq!(one.games(), 700);
        assert_eq!(one.wins().iter().sum::<u64>(), 700);
        assert_eq!(one.seat_wins().iter().sum::<u64>(), 700);
        assert_ne!(one, t.run(4, 700));
    }

    #[test]
    fn chunks_add_up_to_the_whole_run() {
        let (board, rules) = classic(Choice::PickDie);
        let players = vec![Entrant::new("A", Strategy::Easy), Entrant::new("B", Strategy::Greedy)];
        let t = Tournament::new(&board, &rules, players).unwrap();
        let mut sum = Standings::new(2);
        for chunk in 0..3 {
            sum += t.play_chunk(9, chunk, CHUNK_GAMES.min(600 - chunk * CHUNK_GAMES));
        }
        assert_eq!(sum, t.run(9, 600));
    }

    #[test]
    fn a_simulation_keeps_the_seats_and_does_not_depend_on_the_thread_count() {
        let (board, rules) = classic(Choice::MayPass);
        let players = vec![Entrant::new("H", Strategy::Hard), Entrant::new("E", Strategy::Easy)];
        let t = Tournament::new(&board, &rules, players).unwrap();
        let pool = |threads| rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let one = pool(1).install(|| t.simulate_with_progress(5, 600, &|_| {}));
        let two = pool(2).install(|| t.simulate_with_progress(5, 600, &|_| {}));
        assert_eq!(one, two);
        assert_eq!(one.games(), 600);
        // Hard in the first seat wins nearly every game against easy.
        assert!(one.wins()[0] > 540, "{:?}", one.wins());
    }

    #[test]
    fn one_player_or_two_of_the_same_name_cannot_hold_a_tournament() {
        let (board, rules) = classic(Choice::None);
        let one = Tournament::new(&board, &rules, vec![Entrant::new("A", Strategy::Easy)]);
        assert!(matches!(one, Err(TournamentError::Setup(SetupError::TooFewSeats { .. }))));
        let twins = vec![Entrant::new("A", Strategy::Easy), Entrant::new("A", Strategy::Hard)];
        let err = Tournament::new(&board, &rules, twins).unwrap_err();
        assert!(err.to_string().contains("two players are named 'A'"), "{err}");
    }

    #[test]
    fn the_wilson_interval_holds_the_rate_and_stays_in_zero_one() {
        let i = wilson(0, 10, 1.96);
        assert!(i.lo == 0.0 && i.hi > 0.0 && i.hi < 0.35, "{i:?}");
        let i = wilson(50, 100, 1.96);
        assert!(i.contains(0.5) && (i.hi - 0.5 - (0.5 - i.lo)).abs() < 1e-12);
    }
}
