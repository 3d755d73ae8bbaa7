//! Issue 29, finding 9: a save of a million turns is written and loads again, within the limit.

use std::num::NonZeroU32;

use snl_engine::{Board, BoardSpec, FirstOption, Game, Mode, Rules, Seat, SeatKind, Status};
use snl_store::{DiceState, MAX_SAVE_BYTES, Save, SaveJournal};

/// A race of 500,000 rounds between two seats on an empty board of 2·10^6 cells, where no one
/// can finish: a game of exactly a million turns, kept as `--save` keeps it, a line a turn.
#[test]
fn a_game_of_a_million_turns_is_saved_under_the_limit_and_loads() {
    let rules = Rules {
        mode: Mode::Race { rounds: NonZeroU32::new(500_000).unwrap() },
        ..Rules::default()
    };
    let spec = BoardSpec { size: 2_000_000, ..BoardSpec::default() };
    let board = Board::new(&spec, &rules).unwrap();
    let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Bob", SeatKind::Easy)];
    let mut game = Game::new(board, rules, seats).unwrap();
    let mut dice = DiceState::seeded(9);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("snl-store-million-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("long.json");
    let mut journal = SaveJournal::create(&path, &Save::new(&game, &dice, "empty")).unwrap();
    while game.status() != Status::Finished {
        game.play_turn(&mut dice, &mut FirstOption, &mut ()).unwrap();
        journal.append(&game, &dice, 0, false).unwrap();
    }
    journal.sync().unwrap();
    drop(journal);
    assert_eq!(game.turns(), 1_000_000);
    let bytes = std::fs::metadata(&path).unwrap().len();
    assert!(bytes <= MAX_SAVE_BYTES, "a million turns took {bytes} bytes");
    let back = Save::read(&path).unwrap();
    let restored = back.restore().unwrap();
    assert_eq!(restored.positions(), game.positions());
    assert_eq!(restored.turns(), 1_000_000);
    std::fs::remove_dir_all(&dir).unwrap();
}
