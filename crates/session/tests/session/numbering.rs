//! One numbering: the number the session gives an event is the number the save file, the game
//! database and a resumed session go on with — an undo's events included, so a resumed game does
//! not number again from a replay of its history.

use snl_engine::{Board, Game, Numbered, Preset, Rules, Seat, SeatKind};
use snl_session::{Awaiting, GameDb, Intent, SaveFile, Session};
use snl_store::{Database, DiceState, Save};

/// A folder of this test's own, removed at the end.
struct Dir(std::path::PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn now() -> u64 {
    1_700_000_000_000
}

#[test]
fn a_resumed_game_numbers_on_from_the_last_event_told_undos_included() {
    let dir = Dir(std::env::temp_dir().join(format!("snl-numbering-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).unwrap();
    let (save_path, db_path) = (dir.0.join("game.snl"), dir.0.join("games.db"));
    let rules = Rules::default();
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Robo", SeatKind::Greedy)];
    let game = Game::new(board, rules, seats).unwrap();
    let mut session = Session::new(game, DiceState::seeded(8), "classic");
    session.record_with(Box::new(SaveFile::start(&save_path, &session.save()).unwrap()));
    let db = Database::open(&db_path).unwrap();
    let recorder = GameDb::start(db, &session.save(), now).unwrap();
    let id = recorder.id();
    session.record_with(Box::new(recorder));

    let mut told: Vec<Numbered<usize>> = Vec::new();
    for round in 0..6 {
        while let Awaiting::Computer { .. } = session.awaiting() {
            told.extend(session.play_computer().unwrap());
        }
        told.extend(session.act(0, Intent::Roll).unwrap());
        if round == 3 {
            told.extend(session.act(0, Intent::Undo).unwrap());
        }
    }
    session.stop();
    let last = session.seq();
    assert!(told.iter().map(|n| n.seq).eq(1..=last), "{told:?}");

    // The save file and the database keep the number, not just the game.
    let saved = Save::read(&save_path).unwrap();
    assert_eq!(saved.seq, Some(last));
    let in_db = Database::open(&db_path).unwrap().load(id).unwrap();
    assert_eq!(in_db.seq, Some(last));

    // Counting again by replaying the history would give less: the undone turn's events and the
    // undo itself were told too.
    let recounted = Session::new(saved.restore().unwrap(), saved.dice.clone(), "classic").seq();
    assert!(recounted < last, "{recounted} < {last}");

    let mut resumed = Session::resume(saved.restore().unwrap(), saved.dice, "classic", saved.seq);
    assert_eq!(resumed.seq(), last);
    let mut next = Vec::new();
    while let Awaiting::Computer { .. } = resumed.awaiting() {
        next.extend(resumed.play_computer().unwrap());
    }
    next.extend(resumed.act(0, Intent::Roll).unwrap());
    assert!(next.iter().map(|n| n.seq).eq(last + 1..=resumed.seq()), "{next:?}");
}
