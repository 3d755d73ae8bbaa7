// Long because each published answer and each brute-force search is its own test, with the fixture it cites.
//! The solver against published answers, against independent brute-force searches on thousands of
//! random boards, and against games played by the engine.

use std::{
    collections::{BTreeMap, HashSet, VecDeque},
    num::NonZeroU32,
    path::Path,
};

use proptest::prelude::*;
use snl_analysis::{
    generate::{random_jumps, random_track},
    puzzles::{LeetCode, hackerrank_answers, parse_hackerrank},
    solve::{Track, rolls_to_finish, solve},
};
use snl_engine::{
    Board, BoardSpec, Bonus, Choice, Dice, FirstOption, Game, JumpMode, MaxBonus, OnMax, Overshoot,
    Preset, RandomBoard, Rules, Seat, SeatKind, SeededDice, Start, Status,
};

// ---------------------------------------------------------------------------------------------
// Independent searches. They share nothing with the solver but `Board::advance`: they enumerate
// the dice face by face, offer the options `Game::options` offers, and search cell by cell.

/// Every `(steps, top_face)` one roll may be played as, 0 steps meaning "stay" (may-pass).
fn roll_options(rules: &Rules) -> Vec<(u32, bool)> {
    let dice = rules.thrown_dice();
    let faces = dice.faces();
    let mut throws: Vec<Vec<u32>> = vec![Vec::new()];
    for _ in 0..dice.count() {
        throws = throws
            .into_iter()
            .flat_map(|t| (1..=faces).map(move |f| [t.clone(), vec![f]].concat()))
            .collect();
    }
    let mut options = HashSet::new();
    for throw in throws {
        let total: u32 = throw.iter().sum();
        let top = throw.iter().all(|&f| f == faces);
        match rules.choice {
            Choice::None => {
                options.insert((total, top));
            }
            Choice::MayPass => {
                options.insert((total, top));
                options.insert((0, top));
            }
            Choice::PickDie => {
                for &die in &throw {
                    options.insert((die, die == faces));
                }
            }
        }
    }
    let mut options: Vec<_> = options.into_iter().collect();
    options.sort_unstable();
    options
}

/// Fewest rolls from `from` to N by breadth-first search over cells.
fn brute_rolls(board: &Board, rules: &Rules, from: u32) -> Option<u32> {
    let n = board.size();
    let options = roll_options(rules);
    let mut rolls = vec![None; n as usize + 1];
    rolls[from as usize] = Some(0);
    let mut queue = VecDeque::from([from]);
    while let Some(p) = queue.pop_front() {
        let r = rolls[p as usize].unwrap();
        if p == n {
            return Some(r);
        }
        for &(steps, _) in &options {
            let q = if steps == 0 { p } else { board.advance(rules, p, steps).end };
            if rolls[q as usize].is_none() {
                rolls[q as usize] = Some(r + 1);
                queue.push_back(q);
            }
        }
    }
    None
}

/// Where one turn begun on `begin` can end: `None` for finishing, else the position.
fn turn_outcomes(board: &Board, rules: &Rules, begin: u32) -> HashSet<Option<u32>> {
    let n = board.size();
    let options = roll_options(rules);
    let cap = rules.max_bonus.limit();
    let mut outcomes = HashSet::new();
    // (position, streak) inside the turn; with no cap the streak never matters.
    let mut seen = HashSet::new();
    let mut stack = vec![(begin, 0_u32)];
    while let Some((p, streak)) = stack.pop() {
        if !seen.insert((p, if cap.is_some() { streak } else { 0 })) {
            continue;
        }
        for &(steps, top_face) in &options {
            let top = rules.bonus == Bonus::TopFace && top_face;
            let streak = streak + u32::from(top);
            let capped = top && cap == Some(streak);
            if capped && rules.on_max == OnMax::Void {
                outcomes.insert(Some(begin));
                continue;
            }
            let q = if steps == 0 { p } else { board.advance(rules, p, steps).end };
            if q == n {
                outcomes.insert(None);
            } else if top && !capped {
                stack.push((q, streak));
            } else {
                outcomes.insert(Some(q));
            }
        }
    }
    outcomes
}

/// Fewest turns from `from` to N: breadth-first over the positions where turns begin.
fn brute_turns(board: &Board, rules: &Rules, from: u32) -> Option<u32> {
    if from == board.size() {
        return Some(0);
    }
    let mut turns = BTreeMap::from([(from, 0_u32)]);
    let mut queue = VecDeque::from([from]);
    while let Some(p) = queue.pop_front() {
        let t = turns[&p];
        let outcomes = turn_outcomes(board, rules, p);
        if outcomes.contains(&None) {
            return Some(t + 1);
        }
        for q in outcomes.into_iter().flatten() {
            turns.entry(q).or_insert_with(|| {
                queue.push_back(q);
                t + 1
            });
        }
    }
    None
}

/// LeetCode 909 read literally from the problem statement, on the matrix itself.
fn leetcode_literal(board: &[Vec<i64>]) -> i64 {
    let n = board.len();
    let last = n * n;
    let value = |square: usize| {
        let from_bottom = (square - 1) / n;
        let along = (square - 1) % n;
        let column = if from_bottom % 2 == 0 { along } else { n - 1 - along };
        board[n - 1 - from_bottom][column]
    };
    let mut seen = vec![false; last + 1];
    seen[1] = true;
    let mut queue = VecDeque::from([(1_usize, 0_i64)]);
    while let Some((curr, moves)) = queue.pop_front() {
        for next in curr + 1..=(curr + 6).min(last) {
            let dest = if value(next) == -1 { next } else { value(next) as usize };
            if dest == last {
                return moves + 1;
            }
            if !seen[dest] {
                seen[dest] = true;
                queue.push_back((dest, moves + 1));
            }
        }
    }
    -1
}

// ---------------------------------------------------------------------------------------------
// Random boards and rules.

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (
        (any::<bool>(), 1_u32..=3, 2_u32..=7, 0_usize..3, any::<bool>()),
        (any::<bool>(), 0_u32..=3, any::<bool>(), 0_usize..3),
    )
        .prop_map(|((first, count, faces, over, chain), (bonus, cap, void, choice))| Rules {
            start: if first { Start::FirstCell } else { Start::OffBoard },
            dice: Dice::new(count, faces).unwrap(),
            overshoot: Overshoot::ALL[over],
            jumps: if chain { JumpMode::Chain } else { JumpMode::Single },
            bonus: if bonus { Bonus::TopFace } else { Bonus::None },
            max_bonus: NonZeroU32::new(cap).map_or(MaxBonus::Unlimited, MaxBonus::Limit),
            on_max: if void { OnMax::Void } else { OnMax::Pass },
            choice: Choice::ALL[choice],
            ..Rules::default()
        })
}

/// A valid board of up to `max` cells: random jumps, kept where they break no rule. A chain of
/// jumps that cycles makes the board invalid under chained jumps, so then the rules take single
/// jumps instead.
fn board_strategy(max: u32) -> impl Strategy<Value = (Board, Rules)> {
    (2..=max, rules_strategy()).prop_flat_map(|(n, rules)| {
        let jumps = prop::collection::vec((1..=n, 1..=n), 0..=(n as usize / 2));
        (Just(n), Just(rules), jumps).prop_map(|(n, mut rules, pairs)| {
            let mut kept = BTreeMap::new();
            for (from, to) in pairs {
                let on_start = rules.start == Start::FirstCell && from == 1;
                if from != to && from != n && !on_start {
                    kept.entry(from).or_insert(to);
                }
            }
            let spec = BoardSpec::with_jumps(n, kept);
            let board = Board::new(&spec, &rules).unwrap_or_else(|_| {
                rules.jumps = JumpMode::Single;
                Board::new(&spec, &rules).expect("without chaining, these jumps are valid")
            });
            (board, rules)
        })
    })
}

/// A LeetCode matrix of side 2 to 6: mostly −1, else any square (self-jumps, cycles and jumps
/// onto jump starts included), squares 1 and n² plain.
fn leetcode_strategy() -> impl Strategy<Value = Vec<Vec<i64>>> {
    (2_usize..=6).prop_flat_map(|n| {
        let cell = prop_oneof![3 => Just(-1_i64), 2 => 1..=i64::try_from(n * n).unwrap()];
        prop::collection::vec(prop::collection::vec(cell, n), n).prop_map(move |mut m| {
            m[n - 1][0] = -1; // square 1
            let top_row_rightwards = (n - 1) % 2 == 0;
            m[0][if top_row_rightwards { n - 1 } else { 0 }] = -1; // square n²
            m
        })
    })
}

fn json(matrix: &[Vec<i64>]) -> String {
    let rows: Vec<String> = matrix
        .iter()
        .map(|r| format!("[{}]", r.iter().map(i64::to_string).collect::<Vec<_>>().join(",")))
        .collect();
    format!("[{}]", rows.join(","))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn fewest_rolls_agree_with_a_brute_force_search_on_random_boards(
        (board, rules) in board_strategy(40),
    ) {
        let track = Track::new(&board, &rules);
        let start = rules.start_position();
        let solution = track.fewest_rolls();
        prop_assert_eq!(solution.min_rolls(), brute_rolls(&board, &rules, start));
        if let Some(moves) = solution.moves() {
            // The path is a real game: each roll one the dice allow, resolved by the engine.
            let mut at = start;
            for m in moves {
                prop_assert_eq!(m.from, at);
                prop_assert!(rules.step_values().contains(&m.steps));
                let step = board.advance(&rules, at, m.steps);
                prop_assert_eq!((step.target, step.landed, step.end), (m.target(), m.landed, m.to));
                prop_assert_eq!(&board.jump_path(m.landed, rules.jumps), &m.jumps);
                at = m.to;
            }
            prop_assert_eq!(at, board.size());
            let path = solution.path();
            prop_assert_eq!(path.first(), Some(&start));
            prop_assert_eq!(path.last(), Some(&board.size()));
        } else {
            prop_assert!(solution.path().is_empty());
        }
    }

    #[test]
    fn fewest_turns_agree_with_a_turn_by_turn_search(
        (board, rules) in board_strategy(30),
    ) {
        let track = Track::new(&board, &rules);
        let start = rules.start_position();
        prop_assert_eq!(track.fewest_turns().unwrap(), brute_turns(&board, &rules, start));
    }

    #[test]
    fn leetcode_answers_agree_with_the_statement_read_literally(matrix in leetcode_strategy()) {
        let board = LeetCode::parse(json(&matrix).as_bytes()).unwrap();
        prop_assert_eq!(board.answer(), leetcode_literal(&matrix));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn rolls_to_finish_agree_with_a_search_from_every_position(
        (board, rules) in board_strategy(40),
    ) {
        let table = rolls_to_finish(&board, &rules);
        let track = Track::new(&board, &rules);
        prop_assert_eq!(table.len(), board.size() as usize + 1);
        for p in 0..=board.size() {
            let brute = brute_rolls(&board, &rules, p);
            prop_assert_eq!(table[p as usize], brute, "position {}", p);
            prop_assert_eq!(track.fewest_rolls_from(p).min_rolls(), brute, "position {}", p);
        }
    }

    #[test]
    fn fewest_turns_from_every_position_agree_with_the_turn_by_turn_search(
        (board, rules) in board_strategy(25),
    ) {
        let track = Track::new(&board, &rules);
        for p in 0..=board.size() {
            prop_assert_eq!(
                track.fewest_turns_from(p).unwrap(),
                brute_turns(&board, &rules, p),
                "position {}", p
            );
        }
    }
}

/// Turns a game of [`no_game_played_by_the_engine_beats_the_fewest_rolls_or_turns`] may take:
/// far past any game that ends (those take tens to a few thousand), and a bound on its memory.
const TURNS_AT_MOST: u32 = 200_000;

proptest! {
    // The same 300 cases on every run (a random case once made a game that did not end, and the
    // test, keeping every event, ran out of memory instead of saying which).
    #![proptest_config(ProptestConfig {
        cases: 300,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed_2026),
        ..ProptestConfig::default()
    })]

    #[test]
    fn no_game_played_by_the_engine_beats_the_fewest_rolls_or_turns(
        rules in rules_strategy(),
        size in 20_u32..=150,
        jumps in 0_u32..=12,
        seed in any::<u64>(),
    ) {
        let jumps = jumps.min((size - 2) / 3); // the room RandomBoard leaves
        let params = RandomBoard { size, snakes: jumps / 2, ladders: jumps - jumps / 2, seed, min_jump: 1 };
        // RandomBoard::spec would redraw until the game can be played, forever under rules where
        // no board can (3d2 with overshoot stay never lands on N from N − 1): draw once instead,
        // and skip boards the engine will not play.
        let drawn = random_jumps(&params).unwrap();
        let spec = BoardSpec::with_jumps(size, drawn.iter().map(|j| (j.from, j.to)));
        let board = Board::new(&spec, &rules).unwrap();
        let seats = vec![Seat::new("A", SeatKind::Easy), Seat::new("B", SeatKind::Easy)];
        let Ok(mut game) = Game::new(board.clone(), rules, seats) else { return Ok(()) };
        let left = rolls_to_finish(&board, &rules);
        let track = Track::new(&board, &rules);
        let min_rolls = track.fewest_rolls().min_rolls().unwrap();
        // With max-bonus 1 and on-max void every top-face roll is undone, so a board that single
        // rolls can finish may still be unwinnable from some cell; the engine's setup check does
        // not see it, and such a game might never end.
        let undone = rules.bonus == Bonus::TopFace && rules.max_bonus.limit() == Some(1);
        if undone && rules.on_max == OnMax::Void {
            return Ok(());
        }
        let min_turns = track.fewest_turns().unwrap().unwrap();
        let mut dice = SeededDice::new(seed);
        for _ in 0..TURNS_AT_MOST {
            if game.status() == Status::Finished {
                break;
            }
            game.play_turn(&mut dice, &mut FirstOption, &mut ()).unwrap();
        }
        prop_assert_eq!(
            game.status(),
            Status::Finished,
            "no end in {} turns: size {}, jumps {:?}, rules {:?}, seed {}",
            TURNS_AT_MOST, size, drawn, rules, seed
        );
        let winner = game.ranking()[0];
        prop_assert!(game.rolls_of(winner) >= min_rolls);
        prop_assert!(game.turns_of(winner) >= min_turns);
        // From every position where one of its turns began, the winner needed at least the
        // hint's rolls and the fewest turns from there. (Not from every roll: a voided turn takes
        // the token back, which no single roll does.)
        let rolls: Vec<(u32, u32)> = game.history_of(winner).map(|m| (m.turn, m.from)).collect();
        let turns_left = |k: usize| {
            let mut turns: Vec<u32> = rolls[k..].iter().map(|r| r.0).collect();
            turns.dedup();
            turns.len() as u32
        };
        for (k, &(turn, from)) in rolls.iter().enumerate() {
            if k > 0 && rolls[k - 1].0 == turn {
                continue;
            }
            let still = (rolls.len() - k) as u32;
            prop_assert!(left[from as usize].is_some_and(|best| best <= still));
            let best_turns = track.fewest_turns_from(from).unwrap();
            prop_assert!(best_turns.is_some_and(|best| best <= turns_left(k)));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Published answers.

/// Reads `leetcode909.txt`: `<matrix> => <answer>` lines, `#` comments. Yields (line, matrix,
/// answer).
fn leetcode_fixture() -> Vec<(usize, String, i64)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/solve/leetcode909.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let (matrix, answer) =
                l.split_once("=>").unwrap_or_else(|| panic!("line {}: no =>", i + 1));
            (i + 1, matrix.trim().to_owned(), answer.trim().parse().unwrap())
        })
        .collect()
}

#[test]
fn published_leetcode_boards_get_leetcodes_answers() {
    let cases = leetcode_fixture();
    assert!(cases.len() >= 6);
    for (line, matrix, expected) in cases {
        let board = LeetCode::parse(matrix.as_bytes())
            .unwrap_or_else(|e| panic!("leetcode909.txt line {line}: {e}"));
        assert_eq!(board.answer(), expected, "leetcode909.txt line {line}");
    }
}

#[test]
fn leetcode_example_one_has_a_path_as_short_as_the_published_route() {
    let (_, matrix, _) = &leetcode_fixture()[0];
    let board = LeetCode::parse(matrix.as_bytes()).unwrap();
    let track = board.track();
    // The statement's explanation: 1 → 2 ⇒ 15, → 17 ⇒ 13, → 14 ⇒ 35, → 36; it is one of several
    // routes of 4 moves.
    let mut at = 1;
    for (to, rests) in [(2, 15), (17, 13), (14, 35), (36, 36)] {
        assert_eq!(track.advance(at, to - at).end, rests);
        at = rests;
    }
    let solution = board.solve();
    assert_eq!(solution.min_rolls(), Some(4));
    assert_eq!(solution.path().first(), Some(&1));
    assert_eq!(solution.path().last(), Some(&36));
}

#[test]
fn hackerrank_sample_gets_the_published_output() {
    // Sample input and output of https://www.hackerrank.com/challenges/the-quickest-way-up/problem
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/solve");
    let input = std::fs::read_to_string(dir.join("hackerrank-sample-0.in")).unwrap();
    let output = std::fs::read_to_string(dir.join("hackerrank-sample-0.out")).unwrap();
    let expected: Vec<i64> = output.lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(hackerrank_answers(&input).unwrap(), expected);
}

#[test]
fn a_hackerrank_board_walled_off_by_snakes_answers_minus_one() {
    // Squares 93 to 99 are all snake heads and 100 is more than 6 past 92: no exact landing.
    let input = "1\n1\n3 90\n7\n99 10\n97 20\n98 30\n96 40\n95 50\n94 60\n93 70\n";
    let tests = parse_hackerrank(input).unwrap();
    assert_eq!(tests[0].answer(), -1);
    let board = Board::new(
        &BoardSpec::with_jumps(
            100,
            tests[0].ladders.iter().chain(&tests[0].snakes).map(|j| (j.from, j.to)),
        ),
        &snl_analysis::puzzles::puzzle_rules(),
    )
    .unwrap();
    assert_eq!(brute_rolls(&board, &snl_analysis::puzzles::puzzle_rules(), 1), None);
}

// ---------------------------------------------------------------------------------------------
// Our boards and large ones.

#[test]
fn the_classic_board_takes_five_rolls_at_best_and_milton_bradley_seven() {
    let rules = Rules::default();
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let solution = solve(&board, &rules);
    assert_eq!(solution.min_rolls(), brute_rolls(&board, &rules, 0));
    assert_eq!(solution.min_rolls(), Some(5));
    assert!(solution.to_string().starts_with("5 rolls: 0 → "), "{solution}");
    let board = Board::new(&Preset::MiltonBradley.spec(), &rules).unwrap();
    let solution = solve(&board, &rules);
    assert_eq!(solution.min_rolls(), brute_rolls(&board, &rules, 0));
    assert_eq!(solution.min_rolls(), Some(7));
}

#[test]
fn an_unreachable_last_cell_is_reported_as_such() {
    // Every landing from 4 to 9 is a snake back to 2, and 10 is out of reach from 3.
    let rules = Rules::default();
    let board = Board::new(&BoardSpec::with_jumps(10, (4..=9).map(|c| (c, 2))), &rules).unwrap();
    let solution = solve(&board, &rules);
    assert!(!solution.is_reachable());
    assert_eq!(solution.min_rolls(), None);
    assert_eq!(solution.to_string(), "cell 10 cannot be reached from 0");
    assert_eq!(rolls_to_finish(&board, &rules)[0], None);
    assert_eq!(rolls_to_finish(&board, &rules)[5], Some(1));
}

#[test]
fn bonus_rolls_make_fewer_turns_than_rolls() {
    // Empty 100-cell board, 1d6: 17 rolls at best (16 sixes and a 4), but with a bonus roll on
    // every six they all fit in one turn; capped at 3 sixes a turn, every turn moves at most
    // 6 + 6 + 6 (the third six passes) — 100 / 18 → 6 turns.
    let mut rules = Rules { bonus: Bonus::TopFace, ..Rules::default() };
    let board = Board::new(&Preset::Empty.spec(), &rules).unwrap();
    let track = Track::new(&board, &rules);
    assert_eq!(track.fewest_rolls().min_rolls(), Some(17));
    assert_eq!(track.fewest_turns(), Ok(Some(1)));
    rules.max_bonus = MaxBonus::Limit(NonZeroU32::new(3).unwrap());
    assert_eq!(Track::new(&board, &rules).fewest_turns(), Ok(Some(6)));
    assert_eq!(brute_turns(&board, &rules, 0), Some(6));
}

#[test]
fn top_faces_undone_by_a_cap_of_one_can_leave_a_board_unwinnable_in_turns() {
    // 1d2 with every 2 voided moves one cell a turn, and the snake 3→1 then loops forever; single
    // rolls win in three (2, 2, 2).
    let rules = Rules {
        dice: Dice::new(1, 2).unwrap(),
        bonus: Bonus::TopFace,
        max_bonus: MaxBonus::Limit(NonZeroU32::new(1).unwrap()),
        on_max: OnMax::Void,
        ..Rules::default()
    };
    let board = Board::new(&BoardSpec::with_jumps(6, [(3, 1)]), &rules).unwrap();
    let track = Track::new(&board, &rules);
    assert_eq!(track.fewest_rolls().min_rolls(), Some(3));
    assert_eq!(track.fewest_turns(), Ok(None));
    assert_eq!(brute_turns(&board, &rules, 0), None);
}

#[test]
fn a_million_cell_board_agrees_with_the_brute_force_search() {
    let rules = Rules::default();
    let params =
        RandomBoard { size: 1_000_000, snakes: 25_000, ladders: 25_000, seed: 5, min_jump: 1 };
    let spec = params.spec(&rules);
    let board = Board::new(&spec, &rules).unwrap();
    let ours = random_track(&params, &rules).unwrap();
    assert_eq!(ours.jumps(), board.jumps());
    let solution = ours.fewest_rolls();
    assert_eq!(solution.min_rolls(), brute_rolls(&board, &rules, 0));
    assert_eq!(solve(&board, &rules), solution);
}

// ---------------------------------------------------------------------------------------------
// Cell effects (SPEC §3b): hand-made boards, each answer derived in its comment, and the party
// preset against a search over the engine's own games.

mod with_effects {
    use std::{
        cmp::Reverse,
        collections::{BinaryHeap, HashMap, VecDeque},
    };

    use snl_analysis::solve::{effects, rolls_to_finish};
    use snl_engine::{
        Board, BoardSpec, CellSpec, Game, Input, Pending, Preset, RandomBoard, Roll, RuleSet,
        Rules, Seat, SeatKind,
    };

    fn cell(at: u32, effect: &str, exits: &[u32]) -> CellSpec {
        CellSpec { at, effect: effect.into(), exits: exits.to_vec() }
    }

    fn board(size: u32, jumps: &[(u32, u32)], cells: Vec<CellSpec>) -> Board {
        let mut spec = BoardSpec::with_jumps(size, jumps.iter().copied());
        spec.cells = cells;
        Board::new(&spec, &Rules::default()).unwrap()
    }

    #[test]
    fn a_skip_costs_a_turn_not_a_roll() {
        // 20 cells, a ladder 2 → 19 and a skip on 19. Rolls: 0 → 2 ⇒ 19 → 20 is 2 (nothing
        // shorter: no roll reaches 20 from 0). Turns: that route is 1 turn to 19, 1 skipped,
        // 1 to finish = 3; walking (6, 6, 6, 2: 0 → 6 → 12 → 18 → 20) is 4 turns. So 2 rolls
        // and 3 turns, where the same board without the skip takes 2 turns.
        let rules = Rules::default();
        let skip = board(20, &[(2, 19)], vec![cell(19, "skip", &[])]);
        let best = effects::fewest_rolls(&skip, &rules, 0);
        assert_eq!(best.min_rolls(), Some(2));
        assert_eq!(best.path(), [0, 2, 19, 20]);
        assert_eq!(best.met(), [(19, "skip")]);
        assert_eq!(best.to_string(), "2 rolls: 0 → 2 ⇒ 19 (ladder) (skip) → 20");
        assert_eq!(effects::fewest_turns(&skip, &rules, 0), Ok(Some(3)));
        let plain = board(20, &[(2, 19)], Vec::new());
        assert_eq!(effects::fewest_turns(&plain, &rules, 0), Ok(Some(2)));
        assert!(!best.best_case_wormholes());
    }

    #[test]
    fn a_shield_lets_the_path_pass_a_snake_head_once() {
        // A wall of snakes on 7..=12, all to 1: from 6 or below every roll lands on one, so
        // without a shield cell 20 cannot be reached. A shield on 3: 0 → 3 (shield) → 9 (the
        // shield stops the snake) → 15 → 20 = 4 rolls (9 is the farthest from 3, 15 from 9; 3
        // rolls would need 3 → 20 in two, but the first lands on the wall, at 9 at most).
        let rules = Rules::default();
        let wall: Vec<(u32, u32)> = (7..=12).map(|h| (h, 1)).collect();
        let walled = board(20, &wall, Vec::new());
        assert_eq!(effects::fewest_rolls(&walled, &rules, 0).min_rolls(), None);
        let shielded = board(20, &wall, vec![cell(3, "shield", &[])]);
        let best = effects::fewest_rolls(&shielded, &rules, 0);
        assert_eq!(best.min_rolls(), Some(4));
        let path = best.path();
        assert_eq!(path[..2], [0, 3]);
        let met = best.met();
        assert_eq!(met.len(), 2, "{met:?}");
        assert_eq!(met[0], (3, "shield"));
        assert_eq!(met[1], (path[2], "shield used"));
        assert!((7..=12).contains(&path[2]), "{path:?}");
        assert!(best.to_string().starts_with("4 rolls: 0 → 3 (shield) → "), "{best}");
        assert_eq!(effects::fewest_turns(&shielded, &rules, 0), Ok(Some(4)));
        // Rolls left per cell assume no shield is held: from 6, 7 ⇒ 1 → 3 → 9 → 15 → 20 is 5.
        let left = rolls_to_finish(&shielded, &rules);
        assert_eq!(left[0], Some(4));
        assert_eq!(left[6], Some(5));
        assert_eq!(left[15], Some(1));
        // Once: a second wall on 17..=22 (to 1) needs a second shield, and the only shield cell
        // lies behind the first wall; going back for it spends the one held to pass it again.
        let mut walls = wall.clone();
        walls.extend((17..=22).map(|h| (h, 1)));
        let twice = board(30, &walls, vec![cell(3, "shield", &[])]);
        assert_eq!(effects::fewest_rolls(&twice, &rules, 0).min_rolls(), None);
        assert_eq!(effects::fewest_turns(&twice, &rules, 0), Ok(None));
    }

    #[test]
    fn extra_cells_shorten_the_turns_not_the_rolls() {
        // 20 cells, extra on 6 and 12: 0 → 6 → 12 → 18 is one turn (two extra rolls), 18 → 20
        // a second; 4 rolls as on the plain board, which takes 4 turns.
        let rules = Rules::default();
        let extra = board(20, &[], vec![cell(6, "extra", &[]), cell(12, "extra", &[])]);
        let best = effects::fewest_rolls(&extra, &rules, 0);
        assert_eq!(best.min_rolls(), Some(4));
        assert_eq!(effects::fewest_turns(&extra, &rules, 0), Ok(Some(2)));
        let plain = board(20, &[], vec![cell(5, "skip", &[])]);
        assert_eq!(effects::fewest_turns(&plain, &rules, 0), Ok(Some(4)));
    }

    #[test]
    fn a_wormhole_is_the_best_case_over_its_exits_and_says_so() {
        // 30 cells, a wormhole on 3 to 1 or 27: 0 → 3 ⇒ 27 → 30 is 2 rolls, taking the better
        // exit (walking takes 5). The answer says it is the best case.
        let rules = Rules::default();
        let hole = board(30, &[], vec![cell(3, "wormhole", &[1, 27])]);
        let best = effects::fewest_rolls(&hole, &rules, 0);
        assert_eq!(best.min_rolls(), Some(2));
        assert_eq!(best.path(), [0, 3, 27, 30]);
        assert_eq!(best.met(), [(3, "wormhole")]);
        assert!(best.best_case_wormholes());
        assert_eq!(best.to_string(), "2 rolls: 0 → 3 ⇒ 27 (wormhole) → 30");
        assert_eq!(effects::fewest_turns(&hole, &rules, 0), Ok(Some(2)));
        assert_eq!(rolls_to_finish(&hole, &rules)[0], Some(2));
    }

    /// Where a game of one seat may stand: position, shield, skip pending, mid-turn.
    type Key = (u32, bool, bool, bool);

    fn key(game: &Game) -> Key {
        (game.positions()[0], game.has_shield(0), game.skips_next_turn(0), game.in_turn())
    }

    /// Every game one roll of `game` may lead to: each total (each face under pick-die, each
    /// option offered), then each wormhole exit, all played by the engine itself.
    fn next_games(game: &Game) -> Vec<Game> {
        let rules = *game.rules();
        let faces = rules.thrown_dice().faces();
        let count = rules.thrown_dice().count();
        let mut throws: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..count {
            throws = throws
                .into_iter()
                .flat_map(|t| (1..=faces).map(move |f| [t.clone(), vec![f as u8]].concat()))
                .collect();
        }
        let mut out = Vec::new();
        for throw in throws {
            let mut g = game.clone();
            g.apply(Input::Roll { roll: Roll::from_faces(&throw) }).unwrap();
            let mut open = vec![g];
            while let Some(g) = open.pop() {
                match g.pending() {
                    Pending::Draw { exits, .. } => {
                        for index in 0..exits.len() as u32 {
                            let mut h = g.clone();
                            h.apply(Input::Draw { index }).unwrap();
                            open.push(h);
                        }
                    }
                    Pending::Choice(decision) => {
                        for option in 0..decision.options.len() {
                            let mut h = g.clone();
                            h.apply(Input::Choose { option }).unwrap();
                            open.push(h);
                        }
                    }
                    Pending::Roll { seat: 1, .. } => out.push(pass_the_other(g, faces)),
                    Pending::Roll { .. } | Pending::Over => out.push(g),
                }
            }
        }
        out
    }

    /// Plays the other seat's turns (a second seat is needed for a game) until seat 0 is to
    /// roll, so that it never finishes: each roll is the first face that keeps it off N.
    fn pass_the_other(mut game: Game, faces: u32) -> Game {
        loop {
            match game.pending() {
                Pending::Roll { seat: 1, dice, .. } => {
                    let count = dice.count() as usize;
                    let tried = (1..=faces).find_map(|f| {
                        let mut g = game.clone();
                        g.apply(Input::Roll { roll: Roll::from_faces(&vec![f as u8; count]) })
                            .unwrap();
                        let g = settle(g);
                        g.ranks()[1].is_none().then_some(g)
                    });
                    game = tried.expect("a roll that keeps the other seat off the last cell");
                }
                _ => return game,
            }
        }
    }

    /// Answers the other seat's draws and choices with the first.
    fn settle(mut game: Game) -> Game {
        loop {
            match game.pending() {
                Pending::Draw { seat: 1, .. } => game.apply(Input::Draw { index: 0 }).unwrap(),
                Pending::Choice(d) if d.seat == 1 => {
                    game.apply(Input::Choose { option: 0 }).unwrap()
                }
                _ => return game,
            };
        }
    }

    /// Fewest rolls and fewest turns by searching the engine's games (one seat).
    fn brute(board: &Board, rules: &Rules) -> (Option<u32>, Option<u32>) {
        let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Bob", SeatKind::Human)];
        let start = Game::new(board.clone(), *rules, seats).expect("a game");
        // Rolls: breadth-first, a state being where the token stands and whether it holds a
        // shield (what the dice can still do depends on nothing else).
        let mut rolls = None;
        let mut seen = HashMap::from([((start.positions()[0], false), 0_u32)]);
        let mut queue = VecDeque::from([(start.clone(), 0_u32)]);
        while let Some((game, r)) = queue.pop_front() {
            if game.ranks()[0].is_some() {
                rolls = Some(r);
                break;
            }
            for next in next_games(&game) {
                let k = (next.positions()[0], next.has_shield(0));
                if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(k) {
                    e.insert(r + 1);
                    queue.push_back((next, r + 1));
                }
            }
        }
        // Turns: Dijkstra on the games' own turn count (skipped turns included).
        let mut turns = None;
        let mut best: HashMap<Key, u32> = HashMap::new();
        let mut games: Vec<Game> = vec![start];
        let mut heap = BinaryHeap::from([Reverse((0_u32, 0_usize))]);
        while let Some(Reverse((t, i))) = heap.pop() {
            let game = games[i].clone();
            if game.ranks()[0].is_some() {
                turns = Some(t);
                break;
            }
            for next in next_games(&game) {
                let k = key(&next);
                let cost = next.turns_of(0);
                if best.get(&k).is_none_or(|&b| cost < b) {
                    best.insert(k, cost);
                    games.push(next);
                    heap.push(Reverse((cost, games.len() - 1)));
                }
            }
        }
        (rolls, turns)
    }

    #[test]
    fn party_agrees_with_a_search_over_the_engines_own_games() {
        for set in [RuleSet::Standard, RuleSet::BonusSix] {
            let rules = set.rules();
            let party = Board::new(&Preset::Party.spec(), &rules).unwrap();
            let (rolls, turns) = brute(&party, &rules);
            let best = effects::fewest_rolls(&party, &rules, 0);
            assert_eq!(best.min_rolls(), rolls, "{set:?}");
            assert_eq!(effects::fewest_turns(&party, &rules, 0).unwrap(), turns, "{set:?}");
            assert!(best.best_case_wormholes());
            assert_eq!(rolls_to_finish(&party, &rules)[0], rolls);
        }
        // The published preset's numbers under standard rules, as the search above finds them.
        let rules = Rules::default();
        let party = Board::new(&Preset::Party.spec(), &rules).unwrap();
        let best = effects::fewest_rolls(&party, &rules, 0);
        assert_eq!(best.min_rolls(), Some(6));
        assert_eq!(effects::fewest_turns(&party, &rules, 0), Ok(Some(6)));
        assert_eq!(best.path().last(), Some(&100));
    }

    #[test]
    fn random_boards_with_effects_agree_with_the_engines_games() {
        let mut tried = 0;
        for seed in 0..12 {
            let params = RandomBoard { size: 40, snakes: 5, ladders: 4, seed, min_jump: 2 };
            for set in [RuleSet::Standard, RuleSet::BonusSix] {
                let rules = set.rules();
                let spec = params.spec_with_effects(&rules, 6);
                let Ok(b) = Board::new(&spec, &rules) else { continue };
                let seats = vec![Seat::new("A", SeatKind::Human), Seat::new("B", SeatKind::Human)];
                if Game::new(b.clone(), rules, seats).is_err() {
                    continue;
                }
                tried += 1;
                let (rolls, turns) = brute(&b, &rules);
                assert_eq!(effects::fewest_rolls(&b, &rules, 0).min_rolls(), rolls, "seed {seed}");
                assert_eq!(effects::fewest_turns(&b, &rules, 0).unwrap(), turns, "seed {seed}");
            }
        }
        assert!(tried >= 12, "only {tried} boards could be played");
    }
}
