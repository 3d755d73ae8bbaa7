//! Damaged and random saves, whole and as journals: every one is read or refused with one
//! sentence, never a panic; what is read replays or is refused the same way.

use proptest::prelude::*;
use snl_engine::{Board, FirstOption, Game, Preset, Rules, Seat, SeatKind};
use snl_store::{DiceState, Save, SaveJournal};

fn config() -> ProptestConfig {
    ProptestConfig { cases: 256, ..ProptestConfig::default() }
}

/// A game of `turns` turns on the classic board, with its dice.
fn game(seed: u64, turns: usize) -> (Game, DiceState) {
    let rules = Rules::default();
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Bob", SeatKind::Greedy)];
    let mut game = Game::new(board, rules, seats).unwrap();
    let mut dice = DiceState::seeded(seed);
    for _ in 0..turns {
        if game.play_turn(&mut dice, &mut FirstOption, &mut ()).is_err() {
            break;
        }
    }
    (game, dice)
}

/// The text of a whole save of a short game.
fn whole(seed: u64) -> Vec<u8> {
    let (game, dice) = game(seed, 8);
    Save::new(&game, &dice, "classic").to_json().into_bytes()
}

/// The text of a journal of a short game, written as `--save` writes it, a line a turn.
fn journal(seed: u64) -> Vec<u8> {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("snl-store-fuzz-{}-{seed}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.json");
    let (mut game, mut dice) = game(seed, 0);
    let mut file = SaveJournal::create(&path, &Save::new(&game, &dice, "classic")).unwrap();
    for _ in 0..6 {
        game.play_turn(&mut dice, &mut FirstOption, &mut ()).unwrap();
        file.append(&game, &dice, 0, false).unwrap();
    }
    drop(file);
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    bytes
}

/// What the reader makes of `bytes`: a game, or a refusal of one short line.
fn read_or_refused(bytes: &[u8]) -> Result<(), TestCaseError> {
    let message = match Save::from_json(bytes) {
        Ok(save) => match save.restore() {
            Ok(_) => return Ok(()),
            Err(e) => e.to_string(),
        },
        Err(e) => e.to_string(),
    };
    prop_assert!(!message.is_empty());
    prop_assert!(!message.contains('\n'), "more than one line: {message:?}");
    prop_assert!(message.chars().count() <= 300, "too long: {message:?}");
    Ok(())
}

/// A damage done to a save's bytes.
#[derive(Clone, Debug)]
enum Damage {
    /// One byte set to another value.
    Byte(prop::sample::Index, u8),
    /// Cut short at a point.
    Cut(prop::sample::Index),
    /// A run of bytes taken out.
    Hole(prop::sample::Index, usize),
    /// A long value planted at a point.
    Plant(prop::sample::Index, String),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| Damage::Byte(i, b)),
        any::<prop::sample::Index>().prop_map(Damage::Cut),
        (any::<prop::sample::Index>(), 1_usize..64).prop_map(|(i, n)| Damage::Hole(i, n)),
        (any::<prop::sample::Index>(), "[a-z0-9\"\\\\{}\\[\\],:]{50,120}")
            .prop_map(|(i, s)| Damage::Plant(i, s)),
    ]
}

fn damaged(mut bytes: Vec<u8>, damages: &[Damage]) -> Vec<u8> {
    for d in damages {
        match d {
            Damage::Byte(i, b) => {
                let i = i.index(bytes.len());
                bytes[i] = *b;
            }
            Damage::Cut(i) => bytes.truncate(i.index(bytes.len())),
            Damage::Hole(i, n) => {
                let i = i.index(bytes.len().max(1));
                let end = (i + n).min(bytes.len());
                bytes.drain(i.min(end)..end);
            }
            Damage::Plant(i, s) => {
                let i = i.index(bytes.len().max(1)).min(bytes.len());
                bytes.splice(i..i, s.bytes());
            }
        }
        if bytes.is_empty() {
            break;
        }
    }
    bytes
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn a_damaged_whole_save_is_read_or_refused_in_one_line(
        seed in 0_u64..50, damages in prop::collection::vec(damage(), 1..4),
    ) {
        read_or_refused(&damaged(whole(seed), &damages))?;
    }

    #[test]
    fn a_damaged_journal_is_read_or_refused_in_one_line(
        seed in 0_u64..50, damages in prop::collection::vec(damage(), 1..4),
    ) {
        read_or_refused(&damaged(journal(seed), &damages))?;
    }

    #[test]
    fn random_bytes_as_a_save_are_refused_in_one_line(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        read_or_refused(&bytes)?;
    }

    #[test]
    fn random_text_as_a_save_is_refused_in_one_line(text in "\\PC{0,200}") {
        read_or_refused(text.as_bytes())?;
    }
}

#[test]
fn an_undamaged_save_is_read_back_whole_and_as_a_journal() {
    for bytes in [whole(3), journal(3)] {
        let save = Save::from_json(&bytes).unwrap();
        assert!(save.restore().is_ok());
    }
}
