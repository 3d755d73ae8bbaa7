// Long because the simulator, its kernels and the chunked parallel runner are one hot path, tuned together.
//! Monte Carlo simulation: many seeded games in parallel, with results that do not depend on the
//! number of threads.
//!
//! A [`Simulator`] plays games exactly as [`Game::play_turn`](snl_engine::Game::play_turn) does
//! with every seat taking the first option ([`FirstOption`](snl_engine::FirstOption): always move
//! by the roll, and under pick-die by the first die), but without events, history or allocation:
//! one tight loop per game, cell effects and race mode (SPEC §3b) included, a wormhole drawing
//! its exit from the same stream as the engine's driver does. Its dice are a [`DiceStream`] (fair
//! faces from the named generator [`Xoshiro256PlusPlus`]), which is also a
//! [`RollSource`](snl_engine::RollSource), so the engine can replay any simulated game face for
//! face.
//!
//! # Determinism
//!
//! `games` are split into chunks of [`CHUNK_GAMES`]; chunk `i` plays its games in order from the
//! stream seeded with [`chunk_seed`]`(seed, i)`, and every chunk's [`Tally`] is made of integer
//! sums, so adding them up gives the same result whichever thread played which chunk.
//!
//! # Example
//!
//! ```
//! use snl_analysis::simulate::{Simulator, Z95};
//! use snl_engine::{Board, Preset, Rules};
//!
//! let rules = Rules::default();
//! let board = Board::new(&Preset::Classic.spec(), &rules)?;
//! let sim = Simulator::new(&board, &rules, 2)?;
//! let tally = sim.run(42, 10_000);
//! assert_eq!(tally.games(), 10_000);
//! assert_eq!(tally, sim.run(42, 10_000)); // the same seed, the same result
//! let ci = tally.mean_rolls_interval(Z95);
//! assert!(ci.lo < tally.mean_rolls() && tally.mean_rolls() < ci.hi);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

mod dice;
mod tally;

#[cfg(feature = "parallel")]
use rayon::prelude::*;
use snl_engine::{
    AfterRoll, Board, Bonus, Choice, Effect, Finish, JumpMode, Met, Next, Rules, splitmix64,
};

use crate::Budget;
use dice::Xoshiro256PlusPlus as Rng;
use dice::{Cursor, Draw};
pub use dice::{DiceStream, Xoshiro256PlusPlus};
pub use tally::{GameOutcome, Interval, MAX_LENGTH_BIN, MAX_TURN_BIN, Tally, Z95, Z999};

/// Games per chunk. Part of what a seed means: changing it changes every seeded result.
pub const CHUNK_GAMES: u64 = 1000;

/// The largest move table (entries) built; on bigger boards the general kernel computes each
/// move, and the race kernel is not used.
const MAX_TABLE: usize = 1 << 22;

/// The seed of chunk `chunk` of a simulation seeded with `seed`: the `chunk + 1`-th output of
/// SplitMix64 started at `seed`, so chunks get unrelated streams.
pub fn chunk_seed(seed: u64, chunk: u64) -> u64 {
    let mut state = seed.wrapping_add(chunk.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    splitmix64(&mut state)
}

/// Which game loop a [`Simulator`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kernel {
    /// A plain board in classic mode, one die, one roll per turn, and the game ends at the first
    /// finish: one lookup in a table of (position, face) → position per roll.
    Race,
    /// Any rules and any number of seats: bonus rolls with their streak, the cap and its void,
    /// several dice, pick-die, finishing all, cell effects (SPEC §3b: skip, extra, shield,
    /// wormhole) and race mode. On a plain board in classic mode moves by one face are looked up
    /// in a table and sums of several dice are computed; with effects or a race every move is
    /// one lookup by landing cell, with a flag for what needs more (an effect, a wormhole's draw,
    /// a snake a shield may stop).
    General,
}

/// Why a simulation cannot be run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SimulateError {
    /// No seats.
    #[error("a simulation needs at least one seat")]
    NoSeats,
    /// Cell N cannot be reached from the start.
    #[error("cell {size} cannot be reached from the start on this board, so no game would end")]
    Unwinnable {
        /// N.
        size: u32,
    },
    /// Some reachable position can never reach N.
    #[error(
        "a token could be trapped on {position}, from where cell {size} cannot be reached, so \
         some games would never end"
    )]
    Trap {
        /// The first such position.
        position: u32,
        /// N.
        size: u32,
    },
}

/// Plays many games of one board, one set of rules and a number of seats.
///
/// Built once, then shared by every thread: it holds only tables and rule flags.
// The flags are the rules unpacked for the game loop, where a bool test is cheapest.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Debug)]
pub struct Simulator {
    board: Board,
    rules: Rules,
    seats: usize,
    kernel: Kernel,
    size: u32,
    start: u32,
    faces: u32,
    /// Dice thrown per roll (2 under pick-die).
    dice: u32,
    pick_die: bool,
    bonus: bool,
    /// What a top-face roll does after `k` top faces in the turn: `after_top[k]`, the last entry
    /// for any longer streak — [`Rules::after_roll`] tabled once, so the kernel asks the one rule
    /// with a load.
    after_top: Vec<AfterRoll>,
    finish_first: bool,
    /// Whether a roll past N is blocked ([`snl_engine::Overshoot::land`] asked once).
    blocks: bool,
    /// `settle[c]`: where a token landing on `c` rests after its jumps.
    settle: Vec<u32>,
    /// When a move is by one face (one die, or pick-die): `table[row + face]` is the row of the
    /// position reached from the position of `row` by `face` cells, overshoot rule and jumps
    /// applied (a position's row is the position times `faces + 1`). Empty otherwise, or when
    /// the board is too big for it, or with effects or a race.
    table: Vec<u32>,
    /// With effects or a race: what landing on each cell leads to (see [`Landing`]). Empty on a
    /// plain board in classic mode.
    land: Vec<u32>,
    /// The wormholes, in the order [`Landing::DRAW`] entries name them.
    wormholes: Vec<Wormhole>,
    /// For [`Simulator::lean_rows`] (one die, no bonus, first to finish, no race, a table of
    /// at most [`MAX_TABLE`] entries), [`Simulator::land`] by position and face:
    /// `rows[row + face]` is the entry of the cell a token on the position of `row` lands on by
    /// `face` (a position's row is the position times `faces + 1`), its cell given as a row; a
    /// move blocked by the overshoot rule stays on its row, with no flag. Empty otherwise.
    rows: Vec<u32>,
    /// The rounds of a race; 0 in classic mode.
    rounds: u64,
}

/// The bits of an entry of [`Simulator::land`] for a token that lands on a cell (after the
/// overshoot rule): without [`Landing::DRAW`], the low bits are the cell it rests on when no
/// shield stops it, and [`Landing::EFFECT`] the effect that cell has; with it, the low bits are
/// the index of the wormhole whose draw comes next. [`Landing::SNAKE`] marks a snake's head,
/// which a shield stops. An entry with none of the flags is a plain move, as on a plain board.
struct Landing;

impl Landing {
    /// The resting cell, or the wormhole's index.
    const CELL: u32 = (1 << 28) - 1;
    /// Where the effect code sits: [`Landing::SKIP`], [`Landing::EXTRA`] or [`Landing::SHIELD`].
    const EFFECT_SHIFT: u32 = 28;
    const EFFECT: u32 = 3 << Self::EFFECT_SHIFT;
    const SKIP: u32 = 1;
    const EXTRA: u32 = 2;
    const SHIELD: u32 = 3;
    /// A wormhole's draw comes next.
    const DRAW: u32 = 1 << 30;
    /// The landing cell is a snake's head.
    const SNAKE: u32 = 1 << 31;

    /// The effect code of resting on `cell` (none for a wormhole: a token rests on one only
    /// when single jumps stop it there, and then nothing happens).
    fn effect(board: &Board, cell: u32) -> u32 {
        let code = match board.met(cell) {
            Met::Skip => Self::SKIP,
            Met::Extra => Self::EXTRA,
            Met::Shield => Self::SHIELD,
            Met::Nothing => 0,
        };
        cell | code << Self::EFFECT_SHIFT
    }
}

/// A wormhole as the kernel draws it: the draw among its exits, and for each exit what the
/// token does there (an entry of [`Simulator::land`] without [`Landing::SNAKE`]: a shield stops
/// only a snake landed on by the roll itself).
#[derive(Clone, Debug)]
struct Wormhole {
    draw: Draw,
    exits: Vec<u32>,
}

impl Simulator {
    /// A simulator for `seats` seats playing on `board` under `rules`. The board must have been
    /// validated for these rules ([`Board::new`] with the same rules).
    ///
    /// # Errors
    ///
    /// [`SimulateError`] for no seats, or a board on which a token could be stuck for ever (the
    /// engine's own [`Board::reach`] test, as [`Game::new`](snl_engine::Game::new) makes it).
    pub fn new(board: &Board, rules: &Rules, seats: usize) -> Result<Simulator, SimulateError> {
        if seats == 0 {
            return Err(SimulateError::NoSeats);
        }
        let size = board.size();
        let reach = board.reach(rules);
        if !reach.finish_reachable {
            return Err(SimulateError::Unwinnable { size });
        }
        if let Some(&position) = reach.trapped.first() {
            return Err(SimulateError::Trap { position, size });
        }
        let thrown = rules.thrown_dice();
        let mut sim = Simulator {
            board: board.clone(),
            rules: *rules,
            seats,
            kernel: Kernel::General,
            size,
            start: rules.start_position(),
            faces: thrown.faces(),
            dice: thrown.count(),
            pick_die: rules.choice == Choice::PickDie,
            bonus: rules.bonus == Bonus::TopFace,
            after_top: after_top(rules),
            finish_first: rules.finish == Finish::First || seats <= 2,
            settle: board.settle_table(rules.jumps).to_vec(),
            table: Vec::new(),
            land: Vec::new(),
            wormholes: Vec::new(),
            rows: Vec::new(),
            rounds: rules.mode.rounds().map_or(0, u64::from),
            blocks: rules.overshoot.land(size, size + 1).is_none(),
        };
        if board.has_effects() || sim.rounds > 0 {
            sim.build_landings();
            return Ok(sim);
        }
        let stride = sim.faces as usize + 1;
        let one_face = sim.dice == 1 || sim.pick_die;
        if one_face && (size as usize + 1) * stride <= MAX_TABLE {
            // Column 0 is never read (a face is at least 1); it keeps the row's own position.
            sim.table = vec![0; (size as usize + 1) * stride];
            for from in 0..=size {
                for face in 0..stride as u32 {
                    let to = if face == 0 { from } else { board.advance(rules, from, face).end };
                    sim.table[from as usize * stride + face as usize] = to * stride as u32;
                }
            }
            if sim.dice == 1 && !sim.bonus && sim.finish_first {
                sim.kernel = Kernel::Race;
            }
        }
        Ok(sim)
    }

    /// Fills [`Simulator::land`] and [`Simulator::wormholes`] from the board, as the engine's
    /// turn plays a move (`turn.rs`): a jump under single jumps is followed once (a wormhole is
    /// a jump), under chain on until a cell with no jump; the resting cell's effect applies.
    fn build_landings(&mut self) {
        let board = &self.board;
        let holes: Vec<u32> = board
            .effects()
            .iter()
            .filter(|e| matches!(e.effect, Effect::Wormhole { .. }))
            .map(|e| e.at)
            .collect();
        let hole = |cell: u32| holes.binary_search(&cell).ok().map(|i| i as u32);
        let chain = self.rules.jumps == JumpMode::Chain;
        // Where landing on `cell` leads, before any shield: the engine's next jump, after the
        // plain jumps settled under chain.
        let lands = |cell: u32| {
            let end = if chain { board.settle(cell, JumpMode::Chain) } else { cell };
            match board.next_jump(self.rules.jumps, end, 0) {
                Next::Jump(to) => Landing::effect(board, to),
                Next::Wormhole(_) => hole(end).map_or(0, |i| Landing::DRAW | i),
                Next::Rest => Landing::effect(board, end),
            }
        };
        let land: Vec<u32> = (0..=self.size)
            .map(|cell| {
                let snake = board.snake_at(cell);
                lands(cell) | if snake { Landing::SNAKE } else { 0 }
            })
            .collect();
        // After a wormhole's jump: under single jumps the token rests on the exit, under chain
        // it goes on as if it had landed there.
        let wormholes = holes
            .iter()
            .map(|&at| {
                let exits = board.wormhole_at(at).unwrap_or_default();
                let exits = exits
                    .iter()
                    .map(|&exit| if chain { lands(exit) } else { Landing::effect(board, exit) })
                    .collect();
                Wormhole {
                    draw: Draw::new(board.wormhole_at(at).map_or(1, |e| e.len() as u32)),
                    exits,
                }
            })
            .collect();
        self.land = land;
        self.wormholes = wormholes;
        let stride = self.faces + 1;
        let cells = (self.size as usize + 1) * stride as usize;
        let lean = self.simple() && self.finish_first && self.rounds == 0;
        if lean && cells <= MAX_TABLE {
            let mut rows = vec![0; cells];
            for from in 0..=self.size {
                for face in 1..stride {
                    let step = self.board.advance(&self.rules, from, face);
                    let entry = if step.blocked {
                        from * stride
                    } else {
                        let entry = self.land[step.landed as usize];
                        let cell = entry & Landing::CELL;
                        let cell = if entry & Landing::DRAW == 0 { cell * stride } else { cell };
                        (entry & !Landing::CELL) | cell
                    };
                    rows[(from * stride + face) as usize] = entry;
                }
            }
            self.rows = rows;
        }
    }

    /// The same simulator running the [`Kernel::General`] loop whatever the rules: the reference
    /// the race kernel is checked and benchmarked against.
    #[must_use]
    pub fn general(mut self) -> Simulator {
        self.kernel = Kernel::General;
        self
    }

    /// The game loop in use.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Seats per game.
    pub fn seats(&self) -> usize {
        self.seats
    }

    /// The rules played.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The board played on.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The dice a game of this simulator draws from for `seed` (faces of the rules' dice).
    pub fn dice(&self, seed: u64) -> DiceStream {
        DiceStream::new(seed, self.faces)
    }

    /// Plays games one after another from `dice`, for ever.
    ///
    /// # Panics
    ///
    /// Panics if `dice` has another number of faces than the rules' dice.
    pub fn games<'a>(&'a self, dice: &'a mut DiceStream) -> Games<'a> {
        assert_eq!(dice.faces(), self.faces, "dice of the wrong number of faces");
        Games { sim: self, dice, scratch: Scratch::new(self.seats) }
    }

    /// Plays `games` games seeded with `seed` on the current rayon thread pool and counts them.
    pub fn run(&self, seed: u64, games: u64) -> Tally {
        self.run_with_progress(seed, games, &|_| {})
    }

    /// As [`Simulator::run`], calling `progress(n)` each time a chunk of `n` games is done (from
    /// whichever thread played it).
    pub fn run_with_progress(
        &self,
        seed: u64,
        games: u64,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Tally {
        self.run_within(seed, games, progress, &Budget::unlimited())
    }

    /// As [`Simulator::run_with_progress`], stopping early once `budget` is spent: the tally
    /// then holds the games of the first chunks only (at least the first chunk's, unless
    /// cancelled), exactly those a run of [`Tally::games`] games with this seed plays.
    pub fn run_within(
        &self,
        seed: u64,
        games: u64,
        progress: &(dyn Fn(u64) + Sync),
        budget: &Budget,
    ) -> Tally {
        in_chunks(
            games,
            CHUNK_GAMES,
            progress,
            budget,
            || Tally::new(self.seats),
            |chunk, count| self.play_chunk(seed, chunk, count),
        )
    }

    /// Plays chunk `chunk` of a simulation seeded with `seed`: `games` games in order from the
    /// stream [`chunk_seed`]`(seed, chunk)`.
    pub fn play_chunk(&self, seed: u64, chunk: u64, games: u64) -> Tally {
        let mut dice = self.dice(chunk_seed(seed, chunk));
        let mut tally = Tally::new(self.seats);
        let mut scratch = Scratch::new(self.seats);
        let table = !self.table.is_empty();
        // Each arm is a copy of a kernel made for its case: the seat count known at compile time
        // keeps positions in registers and removes bounds checks.
        let (dice, scratch) = (&mut dice, &mut scratch);
        if !self.land.is_empty() {
            match (self.seats, self.simple()) {
                (2, true) if !self.rows.is_empty() => {
                    repeat(&mut tally, games, || self.lean_rows::<2>(dice));
                }
                (3, true) if !self.rows.is_empty() => {
                    repeat(&mut tally, games, || self.lean_rows::<3>(dice));
                }
                (4, true) if !self.rows.is_empty() => {
                    repeat(&mut tally, games, || self.lean_rows::<4>(dice));
                }
                (2, true) => repeat(&mut tally, games, || self.full_game::<2, true>(dice, scratch)),
                (3, true) => repeat(&mut tally, games, || self.full_game::<3, true>(dice, scratch)),
                (4, true) => repeat(&mut tally, games, || self.full_game::<4, true>(dice, scratch)),
                (2, false) => {
                    repeat(&mut tally, games, || self.full_game::<2, false>(dice, scratch));
                }
                (3, false) => {
                    repeat(&mut tally, games, || self.full_game::<3, false>(dice, scratch));
                }
                (4, false) => {
                    repeat(&mut tally, games, || self.full_game::<4, false>(dice, scratch));
                }
                _ => repeat(&mut tally, games, || self.play(dice, scratch)),
            }
            return tally;
        }
        match (self.kernel, self.seats, table) {
            (Kernel::Race, 1, _) => repeat(&mut tally, games, || self.race::<1>(dice)),
            (Kernel::Race, 2, _) => repeat(&mut tally, games, || self.race::<2>(dice)),
            (Kernel::Race, 3, _) => repeat(&mut tally, games, || self.race::<3>(dice)),
            (Kernel::Race, 4, _) => repeat(&mut tally, games, || self.race::<4>(dice)),
            (Kernel::General, 2, true) => {
                repeat(&mut tally, games, || self.general_game::<2, true>(dice, scratch));
            }
            (Kernel::General, 3, true) => {
                repeat(&mut tally, games, || self.general_game::<3, true>(dice, scratch));
            }
            (Kernel::General, 4, true) => {
                repeat(&mut tally, games, || self.general_game::<4, true>(dice, scratch));
            }
            (Kernel::General, 2, false) => {
                repeat(&mut tally, games, || self.general_game::<2, false>(dice, scratch));
            }
            _ => repeat(&mut tally, games, || self.play(dice, scratch)),
        }
        tally
    }

    /// One game by whichever kernel is in use.
    fn play(&self, dice: &mut DiceStream, scratch: &mut Scratch) -> GameOutcome {
        match self.kernel {
            Kernel::General if !self.land.is_empty() => {
                if self.simple() {
                    self.full_game::<0, true>(dice, scratch)
                } else {
                    self.full_game::<0, false>(dice, scratch)
                }
            }
            Kernel::Race => self.race_any(dice, &mut scratch.positions),
            Kernel::General if self.table.is_empty() => {
                self.general_game::<0, false>(dice, scratch)
            }
            Kernel::General => self.general_game::<0, true>(dice, scratch),
        }
    }

    /// One die and no bonus rule: a turn is one roll unless an `extra` cell gives more.
    fn simple(&self) -> bool {
        self.dice == 1 && !self.pick_die && !self.bonus
    }

    /// The race kernel for `P` seats, positions held in registers.
    #[inline]
    fn race<const P: usize>(&self, dice: &mut DiceStream) -> GameOutcome {
        let mut dice = dice.cursor();
        let stride = self.faces + 1;
        let (table, goal) = (&self.table[..], self.size * stride);
        let mut rows = [self.start * stride; P];
        let mut rounds = 0_u64;
        loop {
            for (seat, row) in rows.iter_mut().enumerate() {
                *row = table[(*row + dice.face()) as usize];
                if *row == goal {
                    let rolls = rounds * P as u64 + seat as u64 + 1;
                    return GameOutcome {
                        winner: seat,
                        rolls,
                        turns: rolls,
                        winner_turns: rounds + 1,
                    };
                }
            }
            rounds += 1;
        }
    }

    /// The race kernel for any number of seats.
    fn race_any(&self, dice: &mut DiceStream, rows: &mut [u32]) -> GameOutcome {
        let mut dice = dice.cursor();
        let stride = self.faces + 1;
        let (table, goal) = (&self.table[..], self.size * stride);
        rows.fill(self.start * stride);
        let mut rolls = 0_u64;
        loop {
            for (seat, row) in rows.iter_mut().enumerate() {
                rolls += 1;
                *row = table[(*row + dice.face()) as usize];
                if *row == goal {
                    let winner_turns = rolls.div_ceil(rows.len() as u64);
                    return GameOutcome { winner: seat, rolls, turns: rolls, winner_turns };
                }
            }
        }
    }

    /// One throw: the cells to move and whether it earns a bonus roll (top face).
    #[inline]
    fn throw(&self, dice: &mut Cursor) -> (u32, bool) {
        let first = dice.face();
        if self.pick_die {
            dice.face(); // thrown, but the first option moves by the first die
            return (first, first == self.faces);
        }
        let (mut steps, mut top) = (first, first == self.faces);
        for _ in 1..self.dice {
            let face = dice.face();
            steps += face;
            top &= face == self.faces;
        }
        (steps, top)
    }

    /// Where a token on `from` rests after moving `steps` cells (overshoot rule, then jumps).
    #[inline]
    fn advance(&self, from: u32, steps: u32) -> u32 {
        let target = from + steps;
        if target <= self.size {
            self.settle[target as usize]
        } else if self.blocks {
            from
        } else {
            self.board.advance(&self.rules, from, steps).end
        }
    }

    /// The general kernel: `Game::play_turn` without events or history.
    ///
    /// `P` is the number of seats, or 0 for "read it at run time"; with `TABLE` a move is one
    /// lookup in [`Simulator::table`] and positions are held as rows of it, without it a move is
    /// [`Simulator::advance`] and positions are cells.
    fn general_game<const P: usize, const TABLE: bool>(
        &self,
        dice: &mut DiceStream,
        scratch: &mut Scratch,
    ) -> GameOutcome {
        let mut dice = dice.cursor();
        let seats = if P == 0 { self.seats } else { P };
        let stride = if TABLE { self.faces + 1 } else { 1 };
        let (goal, start) = (self.size * stride, self.start * stride);
        let positions = &mut scratch.positions[..seats];
        let finished = &mut scratch.finished[..seats];
        positions.fill(start);
        finished.fill(false);
        let (mut rolls, mut turns, mut playing) = (0_u64, 0_u64, seats);
        let mut winner = None;
        let mut seat = 0;
        loop {
            turns += 1;
            let begin = positions[seat];
            let mut at = begin;
            let mut streak = 0_usize;
            loop {
                let (steps, top) = self.throw(&mut dice);
                rolls += 1;
                let after = if top {
                    self.after_top[streak.min(self.after_top.len() - 1)]
                } else {
                    AfterRoll::End
                };
                streak += 1;
                if after == AfterRoll::Void {
                    at = begin;
                    break;
                }
                at =
                    if TABLE { self.table[(at + steps) as usize] } else { self.advance(at, steps) };
                if at == goal || after == AfterRoll::End {
                    break;
                }
            }
            positions[seat] = at;
            if at == goal {
                // No seat has finished before the first to finish, so every seat has had the
                // same number of turns up to it: its turn is the round the game is in.
                let first = winner.get_or_insert((seat, turns.div_ceil(seats as u64)));
                let (winner, winner_turns) = *first;
                finished[seat] = true;
                playing -= 1;
                if self.finish_first || playing <= 1 {
                    return GameOutcome { winner, rolls, turns, winner_turns };
                }
            }
            seat = if seat + 1 == seats { 0 } else { seat + 1 };
            // Only under finish all can a seat have finished while the game goes on.
            while !self.finish_first && finished[seat] {
                seat = if seat + 1 == seats { 0 } else { seat + 1 };
            }
        }
    }
}

/// A seat's state in the general kernel with effects, in one word: its cell (the low bits, as in
/// [`Landing::CELL`]), whether it holds a shield ([`HELD_SHIELD`], the bit of
/// [`Landing::SNAKE`], so that one mask tests "a snake, and a shield to stop it") and whether its
/// next turn is skipped ([`SKIP_NEXT`]).
const HELD_SHIELD: u32 = Landing::SNAKE;
/// See [`HELD_SHIELD`].
const SKIP_NEXT: u32 = Landing::DRAW;

impl Simulator {
    /// The general kernel with cell effects and race mode: `Game::play_turn` without events or
    /// history, each seat's shield and pending skip held beside its cell (SPEC §3b).
    ///
    /// `P` is the number of seats, or 0 for "read it at run time"; `SIMPLE` is one die with no
    /// bonus rule, where a turn is one roll unless an `extra` cell gives another. A move is one
    /// lookup in [`Simulator::land`] by landing cell, and only an entry flagged for an effect, a
    /// wormhole or (while the player holds a shield) a snake's head takes more work.
    fn full_game<const P: usize, const SIMPLE: bool>(
        &self,
        dice: &mut DiceStream,
        scratch: &mut Scratch,
    ) -> GameOutcome {
        let mut dice = dice.cursor();
        let seats = if P == 0 { self.seats } else { P };
        let goal = self.size;
        let land = &self.land[..=goal as usize];
        let (race, finish_first) = (self.rounds > 0, self.finish_first);
        let states = &mut scratch.positions[..seats];
        let finished = &mut scratch.finished[..seats];
        let turns_of = &mut scratch.turns_of[..seats];
        states.fill(self.start);
        finished.fill(false);
        turns_of.fill(0);
        let (mut rolls, mut turns, mut playing) = (0_u64, 0_u64, seats);
        let mut winner: Option<(usize, u64)> = None;
        let mut seat = 0;
        loop {
            turns += 1;
            if race {
                turns_of[seat] += 1;
            }
            let state = states[seat];
            if state & SKIP_NEXT != 0 {
                // A turn with no roll.
                states[seat] = state & !SKIP_NEXT;
            } else {
                let state = if SIMPLE {
                    self.simple_turn(state, land, &mut dice, &mut rolls)
                } else {
                    self.any_turn(state, land, &mut dice, &mut rolls)
                };
                states[seat] = state;
                if state & Landing::CELL == goal {
                    // No seat has finished before the first to finish, so every seat has had
                    // the same number of turns up to it (skipped ones too): its turn is the
                    // round the game is in.
                    winner.get_or_insert((seat, turns.div_ceil(seats as u64)));
                    finished[seat] = true;
                    playing -= 1;
                    if finish_first || playing <= 1 {
                        let (winner, winner_turns) = winner.unwrap_or((seat, 0));
                        return GameOutcome { winner, rolls, turns, winner_turns };
                    }
                }
            }
            let mut next = if seat + 1 == seats { 0 } else { seat + 1 };
            // Only under finish all can a seat have finished while the game goes on.
            while !finish_first && finished[next] {
                next = if next + 1 == seats { 0 } else { next + 1 };
            }
            // Turns go round the players still playing, so the next to play has had the fewest:
            // once it has had its rounds, so has everyone (the engine's test in `end_turn`), and
            // each exactly that many.
            if race && turns_of[next] >= self.rounds {
                let (winner, winner_turns) = winner.unwrap_or_else(|| {
                    // Ranked by position, ties by seating order: the first of the furthest.
                    let furthest = (0..seats)
                        .filter(|&s| !finished[s])
                        .fold(None, |best: Option<usize>, s| match best {
                            Some(b) if states[b] & Landing::CELL >= states[s] & Landing::CELL => {
                                Some(b)
                            }
                            _ => Some(s),
                        })
                        .unwrap_or(0);
                    (furthest, self.rounds)
                });
                return GameOutcome { winner, rolls, turns, winner_turns };
            }
            seat = next;
        }
    }

    /// [`Simulator::full_game`] for `P` seats when a turn is [`Simulator::simple_turn`], the first
    /// to finish wins and there is no race: each seat's state held in an array, turns counted by
    /// round, and positions held as rows of [`Simulator::rows`], so that a roll is one lookup by
    /// row and face, the overshoot rule included.
    fn lean_rows<const P: usize>(&self, dice: &mut DiceStream) -> GameOutcome {
        let mut dice = dice.cursor();
        let stride = self.faces + 1;
        let goal = self.size * stride;
        let rows = &self.rows[..];
        let mut states = [self.start * stride; P];
        let (mut rolls, mut rounds) = (0_u64, 0_u64);
        loop {
            for (seat, state) in states.iter_mut().enumerate() {
                if *state & SKIP_NEXT != 0 {
                    // A turn with no roll.
                    *state &= !SKIP_NEXT;
                    continue;
                }
                loop {
                    let face = dice.face();
                    rolls += 1;
                    let entry = rows[((*state & Landing::CELL) + face) as usize];
                    if entry & (Landing::EFFECT | Landing::DRAW | (*state & HELD_SHIELD)) == 0 {
                        *state = (*state & !Landing::CELL) | (entry & Landing::CELL);
                        break;
                    }
                    let at = *state & Landing::CELL;
                    let landed = || self.overshoot(at / stride, face) * stride;
                    let draws = || {
                        let rest = self.special(entry, dice.rng());
                        (rest & !Landing::CELL) | ((rest & Landing::CELL) * stride)
                    };
                    let extra;
                    (*state, extra) = Self::effect(*state, landed, entry, draws);
                    if !extra || *state & Landing::CELL == goal {
                        break;
                    }
                }
                if *state & Landing::CELL == goal {
                    let turns = rounds * P as u64 + seat as u64 + 1;
                    return GameOutcome { winner: seat, rolls, turns, winner_turns: rounds + 1 };
                }
            }
            rounds += 1;
        }
    }

    /// A turn under one die and no bonus rule: one roll, and one more each time the token comes
    /// to rest on an `extra` cell. Returns the seat's state after it.
    #[allow(clippy::inline_always, reason = "part of each game loop's copy; measured faster")]
    #[inline(always)]
    fn simple_turn(&self, mut state: u32, land: &[u32], dice: &mut Cursor, rolls: &mut u64) -> u32 {
        let goal = self.size;
        loop {
            let steps = dice.face();
            *rolls += 1;
            let at = state & Landing::CELL;
            let target = at + steps;
            let landed = if target <= goal {
                target
            } else if self.blocks {
                // Blocked: no move, so no effect, and no bonus rule to roll again.
                return state;
            } else {
                // Never past N: `min` only tells the compiler so (no bounds check below).
                self.overshoot(at, steps).min(goal)
            };
            let entry = land[landed as usize];
            if entry & (Landing::EFFECT | Landing::DRAW | (state & HELD_SHIELD)) == 0 {
                return (state & !Landing::CELL) | (entry & Landing::CELL);
            }
            let extra;
            (state, extra) =
                Self::effect(state, || landed, entry, || self.special(entry, dice.rng()));
            if !extra || state & Landing::CELL == goal {
                return state;
            }
        }
    }

    /// A turn under any rules: bonus rolls with their streak, the cap and its void, several
    /// dice, pick-die (the first die), and `extra` cells. Returns the seat's state after it.
    #[allow(clippy::inline_always, reason = "part of each game loop's copy; measured faster")]
    #[inline(always)]
    fn any_turn(&self, begin: u32, land: &[u32], dice: &mut Cursor, rolls: &mut u64) -> u32 {
        let goal = self.size;
        let mut state = begin;
        let mut streak = 0_usize;
        loop {
            let (steps, top) = self.throw(dice);
            *rolls += 1;
            let after = if top {
                self.after_top[streak.min(self.after_top.len() - 1)]
            } else {
                AfterRoll::End
            };
            streak += 1;
            if after == AfterRoll::Void {
                // The whole turn is undone: position, shield gained or used, skip gained (none
                // was pending when the turn began, or it would have been skipped).
                return begin;
            }
            let mut extra = false;
            let at = state & Landing::CELL;
            let target = at + steps;
            let landed = if target <= goal {
                target
            } else if self.blocks {
                // Blocked: no move, so no effect.
                u32::MAX
            } else {
                // Never past N: `min` only tells the compiler so (no bounds check below).
                self.overshoot(at, steps).min(goal)
            };
            if landed != u32::MAX {
                let entry = land[landed as usize];
                if entry & (Landing::EFFECT | Landing::DRAW | (state & HELD_SHIELD)) == 0 {
                    state = (state & !Landing::CELL) | (entry & Landing::CELL);
                } else {
                    (state, extra) =
                        Self::effect(state, || landed, entry, || self.special(entry, dice.rng()));
                }
            }
            if state & Landing::CELL == goal {
                return state;
            }
            if after == AfterRoll::Again {
                continue;
            }
            if extra {
                // Independent of the bonus: the next top face begins a new streak.
                streak = 0;
                continue;
            }
            return state;
        }
    }

    /// Where a move of `steps` from `from` lands (the overshoot rule applied; before jumps).
    #[cold]
    #[inline(never)]
    fn overshoot(&self, from: u32, steps: u32) -> u32 {
        self.board.advance(&self.rules, from, steps).landed
    }

    /// A landing whose entry is flagged: a shield stopping a snake, the resting cell's effect,
    /// or (by `draws`) a wormhole's draws. Returns the seat's state after it and whether an
    /// `extra` cell gives one more roll.
    #[allow(clippy::inline_always, reason = "part of each game loop's copy; measured faster")]
    #[inline(always)]
    fn effect(
        state: u32,
        landed: impl FnOnce() -> u32,
        entry: u32,
        draws: impl FnOnce() -> u32,
    ) -> (u32, bool) {
        if state & HELD_SHIELD != 0 && entry & Landing::SNAKE != 0 {
            // The shield stops the snake: the token stays on its head, which holds no effect.
            return ((state & !(Landing::CELL | HELD_SHIELD)) | landed(), false);
        }
        let rest = if entry & Landing::DRAW != 0 { draws() } else { entry };
        let state = (state & !Landing::CELL) | (rest & Landing::CELL);
        match (rest & Landing::EFFECT) >> Landing::EFFECT_SHIFT {
            Landing::SKIP => (state | SKIP_NEXT, false),
            Landing::EXTRA => (state, true),
            Landing::SHIELD => (state | HELD_SHIELD, false),
            _ => (state, false),
        }
    }

    /// Follows a landing entry with [`Landing::DRAW`] through its wormholes' draws from `rng`
    /// (several under chain jumps) to the entry of the cell the token rests on.
    #[cold]
    #[inline(never)]
    fn special(&self, mut entry: u32, rng: &mut Rng) -> u32 {
        while entry & Landing::DRAW != 0 {
            let hole = &self.wormholes[(entry & Landing::CELL) as usize];
            entry = hole.exits[hole.draw.from(rng) as usize];
        }
        entry
    }
}

/// Counts `games` games, each played by `play`.
#[inline]
fn repeat(tally: &mut Tally, games: u64, mut play: impl FnMut() -> GameOutcome) {
    for _ in 0..games {
        tally.record(play());
    }
}

/// Per-thread working space of the general kernel, made once and reused by every game.
#[derive(Clone, Debug)]
struct Scratch {
    /// Each seat's position (with effects, its whole state: see [`HELD_SHIELD`]).
    positions: Vec<u32>,
    finished: Vec<bool>,
    /// In a race: turns each seat has had (skipped ones too).
    turns_of: Vec<u64>,
}

impl Scratch {
    fn new(seats: usize) -> Scratch {
        Scratch {
            positions: vec![0; seats],
            finished: vec![false; seats],
            turns_of: vec![0; seats],
        }
    }
}

/// Games played one after another from one dice stream: see [`Simulator::games`].
#[derive(Debug)]
pub struct Games<'a> {
    sim: &'a Simulator,
    dice: &'a mut DiceStream,
    scratch: Scratch,
}

impl Iterator for Games<'_> {
    type Item = GameOutcome;

    fn next(&mut self) -> Option<GameOutcome> {
        Some(self.sim.play(self.dice, &mut self.scratch))
    }
}

/// Plays `games` in chunks of `chunk_games` on the current rayon pool: `play(chunk, count)` plays
/// chunk `chunk` (its seed comes from the chunk's index, never from the thread), `progress(count)`
/// reports it, and the results are added up. Which thread plays a chunk cannot change the sum,
/// because results that merge with `+` hold counts, not running floating-point sums.
///
/// Once `budget` is spent no chunk starts (but the first is always played, unless cancelled), and
/// the result adds up the chunks before the first one that did not run: the same as a run of
/// that many games, whichever chunks were in flight when the budget ran out.
pub(crate) fn in_chunks<T: std::ops::Add<Output = T> + Send>(
    games: u64,
    chunk_games: u64,
    progress: &(dyn Fn(u64) + Sync),
    budget: &Budget,
    empty: impl Fn() -> T + Sync + Send,
    play: impl Fn(u64, u64) -> T + Sync + Send,
) -> T {
    // The longest run of played chunks from the first: `(sum, whether every chunk was played)`.
    // Joining a prefix with what follows it is associative, and rayon joins neighbours in order.
    let join = |(a, a_full): (T, bool), (b, b_full): (T, bool)| {
        if a_full { (a + b, b_full) } else { (a, false) }
    };
    let chunks = 0..games.div_ceil(chunk_games);
    // Without the `parallel` feature (the wasm build) the chunks are played in order, joined the
    // same way: the same sum.
    #[cfg(feature = "parallel")]
    let chunks = chunks.into_par_iter();
    let played = chunks.map(|chunk| {
        let stop = if chunk == 0 { budget.is_cancelled() } else { budget.is_spent() };
        if stop {
            return (empty(), false);
        }
        let count = chunk_games.min(games - chunk * chunk_games);
        let result = play(chunk, count);
        progress(count);
        (result, true)
    });
    #[cfg(feature = "parallel")]
    let sum = played.reduce(|| (empty(), true), join);
    #[cfg(not(feature = "parallel"))]
    let sum = played.fold((empty(), true), join);
    sum.0
}

/// [`Rules::after_roll`] for a top-face roll after each streak that can occur in a turn: one
/// entry when there is no cap (the streak never changes the answer), `K` under a cap of `K`.
pub(crate) fn after_top(rules: &Rules) -> Vec<AfterRoll> {
    let len = rules.max_bonus.limit().map_or(1, |k| k as usize);
    (0..len as u32).map(|k| rules.after_roll(k, true).0).collect()
}
