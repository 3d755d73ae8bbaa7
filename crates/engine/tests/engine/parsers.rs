//! Every parser of the engine under random input (issue 10, point 8): board TOML, scripted
//! `--rolls`, `NAME:KIND` seats and save files never panic; where a printer exists, printing then
//! parsing gives back what was printed. Bounded case counts, so they run as ordinary tests in CI.
//! The inputs that broke snl in issue 10's "Why" are kept below as named regression tests.

use proptest::prelude::*;
use snl_engine::{
    Board, BoardProblem, BoardSpec, Dice, FirstOption, Game, GameState, LadderSpec, MAX_CELLS,
    RollSource, Rules, ScriptedDice, Seat, SeatKind, SeededDice, SnakeSpec,
};

fn config() -> ProptestConfig {
    ProptestConfig { cases: 256, ..ProptestConfig::default() }
}

/// Sizes both small and past the limit (never a huge size that is allowed: that would only
/// test how fast the machine fills ten million cells).
fn size() -> impl Strategy<Value = u32> {
    prop_oneof![0_u32..300, (MAX_CELLS + 1)..=u32::MAX]
}

fn cell() -> impl Strategy<Value = u32> {
    prop_oneof![0_u32..320, any::<u32>()]
}

fn spec() -> impl Strategy<Value = BoardSpec> {
    (
        size(),
        prop::option::of(prop_oneof![0_u32..400, any::<u32>()]),
        prop::collection::vec((cell(), cell()), 0..20),
        prop::collection::vec((cell(), cell()), 0..20),
    )
        .prop_map(|(size, width, snakes, ladders)| BoardSpec {
            size,
            width,
            snakes: snakes.into_iter().map(|(head, tail)| SnakeSpec { head, tail }).collect(),
            ladders: ladders.into_iter().map(|(foot, top)| LadderSpec { foot, top }).collect(),
            ..BoardSpec::default()
        })
}

/// Text that looks like a board file: the right keys and tables in any order, with junk.
fn toml_like() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        Just("[[snake]]".to_owned()),
        Just("[[ladder]]".to_owned()),
        Just("[rules]".to_owned()),
        (
            prop::sample::select(vec!["size", "width", "head", "tail", "foot", "top", "dice", "x"]),
            prop_oneof![any::<i64>().prop_map(|n| n.to_string()), "[a-z0-9\"=. -]{0,8}"]
        )
            .prop_map(|(k, v)| format!("{k} = {v}")),
        "\\PC{0,12}",
    ];
    prop::collection::vec(line, 0..12).prop_map(|lines| lines.join("\n"))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_text_as_a_board_file_is_an_answer_never_a_panic(text in "\\PC{0,200}") {
        if let Ok(spec) = BoardSpec::from_toml(&text) {
            let _ = Board::new(&spec, &Rules::default());
        }
    }

    #[test]
    fn board_file_shaped_text_is_an_answer_never_a_panic(text in toml_like()) {
        match BoardSpec::from_toml(&text) {
            Ok(spec) => { let _ = Board::new(&spec, &Rules::default()); }
            Err(e) => prop_assert!(!e.message.is_empty()),
        }
    }

    #[test]
    fn every_spec_prints_as_toml_and_reads_back_the_same(spec in spec()) {
        let text = spec.to_toml();
        prop_assert_eq!(BoardSpec::from_toml(&text).unwrap(), spec.clone());
        // And as JSON (serde; the CLI has no JSON board reader yet).
        let json = serde_json::to_string(&spec).unwrap();
        prop_assert_eq!(serde_json::from_str::<BoardSpec>(&json).unwrap(), spec);
    }

    #[test]
    fn any_spec_is_a_board_or_a_list_of_problems(spec in spec()) {
        match Board::new(&spec, &Rules::default()) {
            Ok(board) => {
                prop_assert!(board.size() <= MAX_CELLS && board.width() <= board.size());
                prop_assert_eq!(Board::new(&board.to_spec(), &Rules::default()).unwrap(), board);
            }
            Err(e) => prop_assert!(!e.problems.is_empty()),
        }
    }

    #[test]
    fn any_rolls_text_is_an_answer_never_a_panic(text in "[0-9+, -]{0,30}|\\PC{0,30}", dice in "[1-4]d([2-9]|[1-9][0-9])") {
        let dice: Dice = dice.parse().unwrap();
        let _ = ScriptedDice::parse(&text, dice);
    }

    #[test]
    fn rolls_printed_as_text_replay_in_order(totals in prop::collection::vec(1_u32..=6, 1..20)) {
        let dice: Dice = "1d6".parse().unwrap();
        let text = totals.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        let mut rolls = ScriptedDice::parse(&text, dice).unwrap();
        for &t in &totals {
            prop_assert_eq!(rolls.roll(0, dice).unwrap().total(), t);
        }
        prop_assert!(rolls.roll(0, dice).is_err());
    }

    #[test]
    fn any_seat_text_is_an_answer_never_a_panic(text in "\\PC{0,30}") {
        let _ = text.parse::<Seat>();
    }

    #[test]
    fn a_seat_printed_as_name_kind_reads_back(name in "[A-Za-z][A-Za-z0-9 _-]{0,10}[A-Za-z0-9]",
        kind in prop::sample::select(vec![SeatKind::Human, SeatKind::Easy, SeatKind::Greedy, SeatKind::Hard])) {
        let seat: Seat = format!("{name}:{kind}").parse().unwrap();
        prop_assert_eq!(seat.name, name);
        prop_assert_eq!(seat.kind, kind);
    }

    #[test]
    fn any_edit_of_a_save_file_is_restored_or_refused_never_a_panic(
        seed in 0_u64..1000, at in any::<prop::sample::Index>(), byte in any::<u8>(),
    ) {
        let text = save_text(seed);
        let mut bytes = text.into_bytes();
        let i = at.index(bytes.len());
        bytes[i] = byte;
        if let Ok(text) = String::from_utf8(bytes)
            && let Ok(state) = serde_json::from_str::<GameState>(&text)
        {
            let _ = Game::restore(&state);
        }
    }

    #[test]
    fn any_text_as_a_save_file_is_an_answer_never_a_panic(text in "\\PC{0,200}") {
        if let Ok(state) = serde_json::from_str::<GameState>(&text) {
            let _ = Game::restore(&state);
        }
    }
}

/// A save of a short game on the classic board, as JSON.
fn save_text(seed: u64) -> String {
    let board = Board::new(&snl_engine::Preset::Classic.spec(), &Rules::default()).unwrap();
    let seats = vec![Seat::new("A", SeatKind::Easy), Seat::new("B", SeatKind::Easy)];
    let mut game = Game::new(board, Rules::default(), seats).unwrap();
    let mut dice = SeededDice::new(seed);
    for _ in 0..6 {
        if game.play_turn(&mut dice, &mut FirstOption, &mut Vec::new()).is_err() {
            break;
        }
    }
    serde_json::to_string(&game.state()).unwrap()
}

#[test]
fn a_save_file_restores_to_the_game_it_was_taken_from() {
    let state: GameState = serde_json::from_str(&save_text(7)).unwrap();
    assert_eq!(Game::restore(&state).unwrap().state(), state);
}

// Regression inputs from issue 10's "Why".

#[test]
fn regression_size_4294967295_is_refused_without_allocating() {
    let spec = BoardSpec::from_toml("size = 4294967295\n").unwrap();
    let err = Board::new(&spec, &Rules::default()).unwrap_err();
    assert_eq!(err.problems, vec![BoardProblem::TooLarge { size: u32::MAX }]);
}

#[test]
fn regression_width_4294967295_is_refused_without_allocating() {
    let spec = BoardSpec::from_toml("size = 100\nwidth = 4294967295\n").unwrap();
    let err = Board::new(&spec, &Rules::default()).unwrap_err();
    assert_eq!(err.problems, vec![BoardProblem::TooWide { width: u32::MAX, max: 100 }]);
}

#[test]
fn regression_a_duplicate_toml_key_is_named() {
    let err = BoardSpec::from_toml("size = 100\nsize = 100\n").unwrap_err();
    assert!(err.to_string().contains("duplicate key 'size'"), "{err}");
}

#[test]
fn regression_300000_chained_ladders_load_and_settle_at_the_top() {
    let count = 300_000_u32;
    let spec = BoardSpec::with_jumps(2 * count + 4, (0..count).map(|i| (2 * i + 2, 2 * i + 4)));
    let rules = Rules { jumps: snl_engine::JumpMode::Chain, ..Rules::default() };
    let board = Board::new(&spec, &rules).unwrap();
    assert_eq!(board.settle(2, snl_engine::JumpMode::Chain), 2 * count + 2);
}

/// A valid board file, for mutations.
const BOARD_FILE: &str = "size = 30\nwidth = 6\n[[snake]]\nhead = 27\ntail = 3\n[[ladder]]\n\
foot = 2\ntop = 20\n[[cell]]\nat = 9\neffect = \"wormhole\"\nexits = [4, 14]\n[rules]\novershoot = \"bounce\"\n";

/// Every message of `problems` is one line of at most 300 characters, and quotes at most 40
/// characters of `token` (a long value planted in the input).
fn one_short_line_each(problems: &[String], token: &str) -> Result<(), TestCaseError> {
    for p in problems {
        prop_assert!(!p.contains('\n'), "two lines: {p}");
        prop_assert!(p.chars().count() <= 300, "{} characters: {p}", p.chars().count());
        prop_assert!(!p.contains(&token[..41]), "quotes more than 40 characters: {p}");
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    /// Issue 29, point 6: a board file mutated (a byte changed, cut short, a long value planted
    /// anywhere) is read or refused with problems of one short line each, never a panic.
    #[test]
    fn a_mutated_board_file_gets_short_one_line_problems(
        at in any::<prop::sample::Index>(), cut in any::<prop::sample::Index>(), byte in any::<u8>(),
        token in "[a-z]{50,120}", plant in any::<prop::sample::Index>(), quoted in any::<bool>(),
    ) {
        let mut bytes = BOARD_FILE.as_bytes().to_vec();
        let i = at.index(bytes.len());
        bytes[i] = byte;
        let planted = if quoted { format!("\"{token}\"") } else { token.clone() };
        let p = plant.index(bytes.len());
        bytes.splice(p..p, planted.bytes());
        bytes.truncate(bytes.len() - cut.index(bytes.len() / 4));
        let text = String::from_utf8_lossy(&bytes);
        let read = BoardSpec::from_toml_partial(&text);
        let mut problems: Vec<String> = read.problems.iter().map(ToString::to_string).collect();
        if let Err(e) = Board::new(&read.spec, &Rules::default()) {
            problems.extend(e.problems.iter().map(ToString::to_string));
        }
        if let Err(e) = BoardSpec::from_toml(&text) {
            problems.push(e.to_string());
        }
        one_short_line_each(&problems, &token)?;
    }

    /// Issue 29, point 6: `--rolls` text with a long value planted is refused in one short line.
    #[test]
    fn rolls_with_a_long_value_get_one_short_line(
        before in "[0-9, ]{0,10}", token in "[0-9a-z]{50,120}", after in "[0-9, ]{0,10}",
    ) {
        let dice: Dice = "1d6".parse().unwrap();
        if let Err(e) = ScriptedDice::parse(&format!("{before}{token}{after}"), dice) {
            one_short_line_each(&[e.to_string()], &token)?;
        }
    }

    /// Issue 29, point 6: a seat with a long value planted is refused in one short line.
    #[test]
    fn seats_with_a_long_value_get_one_short_line(token in "[a-z]{50,120}", colon in 0_usize..3) {
        let text = match colon { 0 => token.clone(), 1 => format!("{token}:"), _ => format!("A:{token}") };
        if let Err(e) = text.parse::<Seat>() {
            one_short_line_each(&[e.to_string()], &token)?;
        }
    }
}
