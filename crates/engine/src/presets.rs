// Long because it holds five preset boards as data plus the seeded generator they share; a quarter is tests.
//! The preset boards of SPEC §4 and the seeded random board generator.

use std::{fmt, str::FromStr};

use crate::{
    board::{Board, BoardSpec, CellSpec},
    dice::SeededDice,
    rules::Rules,
};

/// A named board (`--board NAME`). `random` needs [`RandomBoard`] parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Preset {
    /// 100 cells, 5 snakes and 5 ladders.
    Classic,
    /// The 1943 Milton Bradley "Chutes and Ladders" board.
    MiltonBradley,
    /// 50 cells, many ladders, short snakes.
    Kids,
    /// 100 cells, no jumps.
    Empty,
    /// 100 cells with every cell effect of SPEC §3b (skip, extra, shield, wormhole).
    Party,
    /// Generated from a seed.
    Random,
}

impl Preset {
    /// Every preset.
    pub const ALL: &'static [Preset] = &[
        Preset::Classic,
        Preset::MiltonBradley,
        Preset::Kids,
        Preset::Empty,
        Preset::Party,
        Preset::Random,
    ];

    /// The name used on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Preset::Classic => "classic",
            Preset::MiltonBradley => "milton-bradley",
            Preset::Kids => "kids",
            Preset::Empty => "empty",
            Preset::Party => "party",
            Preset::Random => "random",
        }
    }

    /// The preset's spec; for [`Preset::Random`], the default [`RandomBoard`] with seed 0.
    pub fn spec(self) -> BoardSpec {
        match self {
            Preset::Classic => BoardSpec::with_jumps(
                100,
                [
                    (99, 54),
                    (70, 55),
                    (52, 42),
                    (25, 2),
                    (95, 72),
                    (6, 25),
                    (11, 40),
                    (60, 85),
                    (46, 90),
                    (17, 69),
                ],
            ),
            Preset::MiltonBradley => BoardSpec::with_jumps(
                100,
                [
                    (1, 38),
                    (4, 14),
                    (9, 31),
                    (21, 42),
                    (28, 84),
                    (36, 44),
                    (51, 67),
                    (71, 91),
                    (80, 100),
                    (16, 6),
                    (47, 26),
                    (49, 11),
                    (56, 53),
                    (62, 19),
                    (64, 60),
                    (87, 24),
                    (93, 73),
                    (95, 75),
                    (98, 78),
                ],
            ),
            // Published with the first release; changing it would change every saved kids game.
            Preset::Kids => BoardSpec::with_jumps(
                50,
                [
                    (3, 11),
                    (6, 17),
                    (9, 18),
                    (14, 27),
                    (22, 35),
                    (30, 41),
                    (38, 46),
                    (19, 15),
                    (26, 21),
                    (33, 28),
                    (44, 39),
                    (48, 43),
                ],
            ),
            Preset::Empty => BoardSpec::with_jumps(100, []),
            Preset::Party => party(),
            Preset::Random => RandomBoard::default().spec(&Rules::default()),
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Preset {
    type Err = UnknownPreset;
    fn from_str(s: &str) -> Result<Preset, UnknownPreset> {
        Preset::ALL
            .iter()
            .copied()
            .find(|p| p.as_str() == s.trim())
            .ok_or_else(|| UnknownPreset { name: s.to_owned() })
    }
}

/// The `party` board, fixed once published (README.md prints it): six snakes and six ladders,
/// two skip cells, three extra-roll cells, three shields (the last one just below the 93 and 98
/// snakes) and two wormholes, one mid-board and one that may send a token to 96 or back to 30.
fn party() -> BoardSpec {
    let mut spec = BoardSpec::with_jumps(
        100,
        [
            (4, 14),
            (9, 31),
            (21, 42),
            (28, 84),
            (51, 67),
            (72, 91),
            (17, 7),
            (54, 34),
            (62, 19),
            (87, 36),
            (93, 68),
            (98, 78),
        ],
    );
    let cell = |at: u32, effect: &str, exits: &[u32]| CellSpec {
        at,
        effect: effect.to_owned(),
        exits: exits.to_vec(),
    };
    spec.cells = vec![
        cell(12, "extra", &[]),
        cell(24, "shield", &[]),
        cell(38, "extra", &[]),
        cell(45, "wormhole", &[20, 57, 76]),
        cell(47, "skip", &[]),
        cell(59, "shield", &[]),
        cell(66, "extra", &[]),
        cell(80, "wormhole", &[30, 63, 96]),
        cell(83, "skip", &[]),
        cell(89, "shield", &[]),
    ];
    spec
}

/// A `--board` name that is no preset.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown board '{name}': expected classic, milton-bradley, kids, empty, party, random, or a .toml file"
)]
pub struct UnknownPreset {
    /// The name given.
    pub name: String,
}

/// Parameters of a generated board: `--size`, `--snakes`, `--ladders`, `--seed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomBoard {
    /// N.
    pub size: u32,
    /// How many snakes.
    pub snakes: u32,
    /// How many ladders.
    pub ladders: u32,
    /// The seed; the same parameters always give the same board.
    pub seed: u64,
    /// No snake or ladder is shorter than this many cells (`--min-jump`, default
    /// [`RandomBoard::DEFAULT_MIN_JUMP`]); 1 allows every length.
    pub min_jump: u32,
}

impl Default for RandomBoard {
    fn default() -> RandomBoard {
        RandomBoard { size: 100, snakes: 8, ladders: 8, seed: 0, min_jump: Self::DEFAULT_MIN_JUMP }
    }
}

impl RandomBoard {
    /// Whether the parameters leave room for the jumps: each needs its own start and end cell
    /// among cells 2..N−1, and some plain cells must remain.
    ///
    /// # Errors
    ///
    /// [`RandomBoardError`] naming the value that does not fit.
    pub fn check(&self) -> Result<(), RandomBoardError> {
        if self.size < 4 {
            return Err(RandomBoardError::TooSmall { size: self.size });
        }
        let most = self.most_min_jump();
        if self.min_jump == 0 || self.min_jump > most {
            let (min_jump, size) = (self.min_jump, self.size);
            return Err(RandomBoardError::MinJump { min_jump, size, most });
        }
        let jumps = u64::from(self.snakes) + u64::from(self.ladders);
        let room = u64::from(self.size - 2) / 3;
        if jumps > room {
            let (snakes, ladders) = (self.snakes, self.ladders);
            return Err(RandomBoardError::TooMany { snakes, ladders, size: self.size, room });
        }
        Ok(())
    }

    /// The generated spec: always valid, and winnable under `rules` from every cell a token can
    /// reach whenever such a board exists — draws that fail are redrawn, up to
    /// [`RandomBoard::MAX_DRAWS`] times (checked for boards up to 10^6 cells; larger boards are
    /// returned as first drawn). When the rules themselves make every board unplayable (say, 3d2
    /// with overshoot stay, which can never reach N from N − 1), the last draw is returned and
    /// [`Board::reach`] tells why.
    ///
    /// # Panics
    ///
    /// Panics if [`RandomBoard::check`] fails.
    pub fn spec(&self, rules: &Rules) -> BoardSpec {
        self.check().expect("random board parameters checked by the caller");
        let mut rng = SeededDice::new(self.seed);
        let mut draws = 0;
        loop {
            let spec = self.draw(&mut rng);
            draws += 1;
            if self.size > 1_000_000 || draws >= Self::MAX_DRAWS {
                return spec;
            }
            let Ok(board) = Board::new(&spec, rules) else { continue };
            let reach = board.reach(rules);
            if reach.finish_reachable && reach.trapped.is_empty() {
                return spec;
            }
        }
    }

    /// Whether `effects` cell effects fit besides the jumps: each needs a cell of its own among
    /// cells 2..N−1 that starts no jump.
    ///
    /// # Errors
    ///
    /// [`RandomBoardError::TooManyEffects`] naming the numbers.
    pub fn check_effects(&self, effects: u32) -> Result<(), RandomBoardError> {
        self.check()?;
        let jumps = u64::from(self.snakes) + u64::from(self.ladders);
        let room = u64::from(self.size - 2).saturating_sub(2 * jumps);
        if u64::from(effects) > room {
            return Err(RandomBoardError::TooManyEffects { effects, size: self.size, room });
        }
        Ok(())
    }

    /// As [`RandomBoard::spec`], with `effects` cell effects placed too: the jumps are drawn as
    /// without effects, then from the same seeded stream each effect's cell (2..N−1, no jump
    /// start), its kind (skip, extra, shield, wormhole — the first four in that order, so that
    /// 4 or more give every kind, then uniformly) and a wormhole's 2 or 3 exits (cells that
    /// start no jump and hold no wormhole, so no cycle can pass through an exit). Valid, and
    /// redrawn while not winnable, as for jumps.
    ///
    /// # Panics
    ///
    /// Panics if [`RandomBoard::check_effects`] fails.
    pub fn spec_with_effects(&self, rules: &Rules, effects: u32) -> BoardSpec {
        if effects == 0 {
            return self.spec(rules);
        }
        self.check_effects(effects).expect("random board parameters checked by the caller");
        let mut rng = SeededDice::new(self.seed);
        let mut draws = 0;
        loop {
            let mut spec = self.draw(&mut rng);
            spec.cells = self.draw_effects(&spec, effects, &mut rng);
            draws += 1;
            if self.size > 1_000_000 || draws >= Self::MAX_DRAWS {
                return spec;
            }
            let Ok(board) = Board::new(&spec, rules) else { continue };
            let reach = board.reach(rules);
            if reach.finish_reachable && reach.trapped.is_empty() {
                return spec;
            }
        }
    }

    fn draw_effects(&self, spec: &BoardSpec, effects: u32, rng: &mut SeededDice) -> Vec<CellSpec> {
        const KINDS: [&str; 4] = ["skip", "extra", "shield", "wormhole"];
        let n = self.size;
        let mut taken = vec![false; n as usize + 1];
        for s in &spec.snakes {
            taken[s.head as usize] = true;
        }
        for l in &spec.ladders {
            taken[l.foot as usize] = true;
        }
        let starts = taken.clone();
        let pick = |rng: &mut SeededDice, lo: u32, hi: u32| lo + rng.face(hi - lo + 1) - 1;
        let mut cells = Vec::with_capacity(effects as usize);
        for i in 0..effects {
            let at = loop {
                let at = pick(rng, 2, n - 1);
                if !taken[at as usize] {
                    taken[at as usize] = true;
                    break at;
                }
            };
            let kind = if i < 4 { KINDS[i as usize] } else { KINDS[rng.face(4) as usize - 1] };
            cells.push(CellSpec { at, effect: kind.to_owned(), exits: Vec::new() });
        }
        let wormholes: Vec<u32> =
            cells.iter().filter(|c| c.effect == "wormhole").map(|c| c.at).collect();
        // Exits: any cell that starts no jump and holds no wormhole; with so few excluded on a
        // board this size, a few tries always find one.
        let open = (n as usize + 1) - starts.iter().filter(|&&s| s).count() - wormholes.len() - 1;
        for cell in cells.iter_mut().filter(|c| c.effect == "wormhole") {
            let want = (2 + rng.face(2) - 1).min(open as u32);
            while (cell.exits.len() as u32) < want {
                let exit = pick(rng, 1, n);
                let free = !starts[exit as usize] && !wormholes.contains(&exit);
                if free && !cell.exits.contains(&exit) {
                    cell.exits.push(exit);
                }
            }
        }
        cells.sort_by_key(|c| c.at);
        cells
    }

    /// The shortest snake or ladder on a random board unless asked otherwise: 3 cells, the
    /// shortest chute of the Milton Bradley board, so that no jump is a mere step aside.
    pub const DEFAULT_MIN_JUMP: u32 = 3;

    /// The largest `min_jump` allowed on this board: a quarter of its cells (3 on boards under 16
    /// cells), which leaves every jump room to be drawn quickly.
    pub fn most_min_jump(&self) -> u32 {
        (self.size / 4).max(3)
    }

    /// How many boards [`RandomBoard::spec`] draws at most while looking for a playable one.
    pub const MAX_DRAWS: u32 = 200;

    fn draw(&self, rng: &mut SeededDice) -> BoardSpec {
        const FREE: u8 = 0;
        const START: u8 = 1;
        const END: u8 = 2;
        let n = self.size;
        let mut used = vec![FREE; n as usize + 1];
        used[n as usize] = END; // no jump starts on N
        used[1] = END; // nor on cell 1, so the board is valid whatever the start rule
        let mut jumps = Vec::with_capacity((self.snakes + self.ladders) as usize);
        let pick = |rng: &mut SeededDice, lo: u32, hi: u32| lo + rng.face(hi - lo + 1) - 1;
        for i in 0..self.snakes + self.ladders {
            let snake = i < self.snakes;
            loop {
                // A snake's head in 3..N−1, a ladder's foot in 2..N−2.
                let from = if snake { pick(rng, 3, n - 1) } else { pick(rng, 2, n - 2) };
                let to = if snake { pick(rng, 1, from - 1) } else { pick(rng, from + 1, n) };
                // A short jump is drawn again, so boards without one keep their draw.
                if used[from as usize] != FREE
                    || used[to as usize] == START
                    || from.abs_diff(to) < self.min_jump
                {
                    continue;
                }
                used[from as usize] = START;
                used[to as usize] = END;
                jumps.push((from, to));
                break;
            }
        }
        BoardSpec::with_jumps(n, jumps)
    }
}

/// Random board parameters that cannot give a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RandomBoardError {
    /// N < 4.
    #[error("size {size} is too small for a random board: use 4 or more")]
    TooSmall {
        /// N.
        size: u32,
    },
    /// A minimum jump length of 0, or too long for the board.
    #[error(
        "--min-jump {min_jump} does not fit on {size} cells: use 1 to {most} (a quarter of the cells, or 3)"
    )]
    MinJump {
        /// The minimum asked for.
        min_jump: u32,
        /// N.
        size: u32,
        /// The most allowed ([`RandomBoard::most_min_jump`]).
        most: u32,
    },
    /// More jumps than the board has room for. The message names only what does not fit: the
    /// snakes alone, the ladders alone, or both together.
    #[error("{}", too_many(*snakes, *ladders, *size, *room))]
    TooMany {
        /// Snakes asked for.
        snakes: u32,
        /// Ladders asked for.
        ladders: u32,
        /// N.
        size: u32,
        /// The most that fit.
        room: u64,
    },
    /// More effects than the board has room for beside its jumps.
    #[error(
        "{effects} cell effects do not fit on {size} cells beside the jumps: use at most {room}"
    )]
    TooManyEffects {
        /// Effects asked for.
        effects: u32,
        /// N.
        size: u32,
        /// The most that fit.
        room: u64,
    },
}

fn too_many(snakes: u32, ladders: u32, size: u32, room: u64) -> String {
    let count = |n: u32, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    if u64::from(snakes) > room {
        format!("{} do not fit on {size} cells: use at most {room}", count(snakes, "snake"))
    } else if u64::from(ladders) > room {
        format!("{} do not fit on {size} cells: use at most {room}", count(ladders, "ladder"))
    } else {
        format!(
            "{} and {} do not fit on {size} cells: use at most {room} in all",
            count(snakes, "snake"),
            count(ladders, "ladder")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fixed_preset_is_valid_under_the_default_rules() {
        for p in Preset::ALL {
            let board = Board::new(&p.spec(), &Rules::default()).unwrap();
            assert!(board.reach(&Rules::default()).finish_reachable, "{p}");
        }
        assert_eq!(Preset::MiltonBradley.spec().snakes.len(), 10);
        assert_eq!(Preset::MiltonBradley.spec().ladders.len(), 9);
        assert_eq!(Preset::Kids.spec().size, 50);
    }

    #[test]
    fn random_boards_repeat_for_a_seed_and_are_valid_and_winnable() {
        let rules = Rules::default();
        for seed in 0..50 {
            let params = RandomBoard { seed, ..RandomBoard::default() };
            let spec = params.spec(&rules);
            assert_eq!(spec, params.spec(&rules));
            let board = Board::new(&spec, &rules).unwrap();
            assert_eq!(board.jumps().len(), 16);
            let reach = board.reach(&rules);
            assert!(reach.finish_reachable && reach.trapped.is_empty());
        }
        let a = RandomBoard { seed: 1, ..RandomBoard::default() }.spec(&rules);
        let b = RandomBoard { seed: 2, ..RandomBoard::default() }.spec(&rules);
        assert_ne!(a, b);
    }

    #[test]
    fn rules_that_no_board_can_satisfy_end_the_search_with_a_valid_board() {
        // 3d2 shows 3..=6: it never reaches N from N − 1 under overshoot stay.
        let rules = Rules { dice: "3d2".parse().unwrap(), ..Rules::default() };
        let params = RandomBoard { size: 20, snakes: 0, ladders: 0, seed: 1, min_jump: 1 };
        let board = Board::new(&params.spec(&rules), &rules).unwrap();
        assert!(!board.reach(&rules).trapped.is_empty());
    }

    #[test]
    fn random_boards_have_no_jump_shorter_than_the_minimum() {
        let rules = Rules::default();
        for (size, min_jump) in [(100, 3), (100, 25), (16, 4), (6, 3), (1000, 250)] {
            for seed in 0..20 {
                let jumps = (size - 2) / 3;
                let params = RandomBoard {
                    size,
                    snakes: jumps / 2,
                    ladders: jumps - jumps / 2,
                    seed,
                    min_jump,
                };
                let board = Board::new(&params.spec(&rules), &rules).unwrap();
                assert_eq!(board.jumps().len() as u32, jumps);
                let shortest = board.jumps().iter().map(|j| j.from.abs_diff(j.to)).min();
                assert!(shortest.unwrap_or(min_jump) >= min_jump, "{params:?}: {shortest:?}");
            }
        }
        // With no minimum, one-cell jumps do come up (this is what the default prevents).
        let any =
            RandomBoard { size: 40, snakes: 6, ladders: 6, min_jump: 1, ..RandomBoard::default() };
        assert!((0..50).any(|seed| {
            let spec = RandomBoard { seed, ..any }.spec(&rules);
            let board = Board::new(&spec, &rules).unwrap();
            board.jumps().iter().any(|j| j.from.abs_diff(j.to) < 3)
        }));
    }

    #[test]
    fn a_minimum_jump_that_cannot_fit_is_refused_with_the_range() {
        let e = RandomBoard { min_jump: 26, ..RandomBoard::default() }.check().unwrap_err();
        assert_eq!(
            e.to_string(),
            "--min-jump 26 does not fit on 100 cells: use 1 to 25 (a quarter of the cells, or 3)"
        );
        assert!(RandomBoard { min_jump: 0, ..RandomBoard::default() }.check().is_err());
        assert!(
            RandomBoard { size: 6, snakes: 1, ladders: 0, seed: 0, min_jump: 3 }.check().is_ok()
        );
    }

    #[test]
    fn crowded_random_boards_are_refused_with_the_numbers() {
        let e = RandomBoard { size: 20, snakes: 5, ladders: 5, ..RandomBoard::default() }
            .check()
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "5 snakes and 5 ladders do not fit on 20 cells: use at most 6 in all"
        );
        let e = RandomBoard { size: 4, snakes: 10, ladders: 8, ..RandomBoard::default() }
            .check()
            .unwrap_err();
        assert_eq!(e.to_string(), "10 snakes do not fit on 4 cells: use at most 0");
        let e = RandomBoard { size: 20, snakes: 0, ladders: 7, ..RandomBoard::default() }
            .check()
            .unwrap_err();
        assert_eq!(e.to_string(), "7 ladders do not fit on 20 cells: use at most 6");
    }

    #[test]
    fn the_party_board_has_every_effect_and_is_winnable_under_every_rule_set() {
        let spec = Preset::Party.spec();
        for name in crate::Effect::NAMES {
            assert!(spec.cells.iter().any(|c| c.effect == name), "no {name} on party");
        }
        for set in crate::RuleSet::ALL {
            for jumps in crate::JumpMode::ALL {
                let rules = Rules { jumps: *jumps, ..set.rules() };
                let board = Board::new(&spec, &rules).unwrap();
                let reach = board.reach(&rules);
                assert!(reach.finish_reachable && reach.trapped.is_empty(), "{rules}");
            }
        }
    }

    #[test]
    fn random_effects_repeat_for_a_seed_are_valid_and_leave_the_jumps_alone() {
        let rules = Rules::default();
        for seed in 0..30 {
            let params = RandomBoard { seed, ..RandomBoard::default() };
            let spec = params.spec_with_effects(&rules, 6);
            assert_eq!(spec, params.spec_with_effects(&rules, 6));
            assert_eq!(spec.cells.len(), 6);
            for name in crate::Effect::NAMES {
                assert!(spec.cells.iter().any(|c| c.effect == name), "seed {seed}: no {name}");
            }
            let chain = Rules { jumps: crate::JumpMode::Chain, ..rules };
            let board = Board::new(&spec, &chain).unwrap();
            assert!(board.reach(&chain).finish_reachable);
            assert_eq!(params.spec_with_effects(&rules, 0), params.spec(&rules));
        }
        let e =
            RandomBoard { size: 20, snakes: 3, ladders: 3, seed: 0, min_jump: 1 }.check_effects(7);
        assert_eq!(
            e.unwrap_err().to_string(),
            "7 cell effects do not fit on 20 cells beside the jumps: use at most 6"
        );
    }

    #[test]
    fn unknown_preset_names_the_value() {
        assert!("monopoly".parse::<Preset>().unwrap_err().to_string().contains("'monopoly'"));
    }
}
