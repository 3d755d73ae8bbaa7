//! Dice statistics against a count by hand: a game whose rolls are given (`--rolls`), and
//! seeded games recorded in a database, each face counted here from the events the games told.

use snl_analysis::fairness::FaceCounts;
use snl_engine::{
    Board, Dice, Event, FirstOption, Game, Preset, Rules, ScriptedDice, Seat, SeatKind, Status,
};
use snl_session::dice_stats::{game_faces, recorded_faces};
use snl_store::{Action, Database, DiceState, Save};
use snl_words::{dice_line, dice_verdict};

/// A folder of this test's own, removed at the end.
struct Dir(std::path::PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn game(names: &[&str]) -> Game {
    let rules = Rules::default();
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let seats = names.iter().map(|n| Seat::new(*n, SeatKind::Human)).collect();
    Game::new(board, rules, seats).unwrap()
}

/// Each seat's faces 1 to 6, counted from the `dice_rolled` events.
fn count_by_hand(events: &[Event<usize>], seats: usize) -> Vec<[u64; 6]> {
    let mut counts = vec![[0; 6]; seats];
    for event in events {
        if let Event::DiceRolled { player, dice, .. } = event {
            for &face in dice.dice() {
                counts[*player][usize::from(face) - 1] += 1;
            }
        }
    }
    counts
}

#[test]
fn a_games_faces_match_a_hand_count_and_a_p_value_worked_out_by_hand() {
    // Ann throws each face once; Bob six sixes; Cy nothing but ones.
    let rolls = "1,6,1,2,6,1,3,6,1,4,6,1,5,6,1,6,6,1";
    let mut game = game(&["Ann", "Bob", "Cy"]);
    let mut dice = ScriptedDice::parse(rolls, Dice::new(1, 6).unwrap()).unwrap();
    let mut events = Vec::new();
    for _ in 0..18 {
        game.play_turn(&mut dice, &mut FirstOption, &mut events).unwrap();
    }
    assert_eq!(game.status(), Status::Running);
    let faces = game_faces(game.rules(), 3, game.history());
    let by_hand = count_by_hand(&events, 3);
    assert_eq!(by_hand[0], [1, 1, 1, 1, 1, 1]);
    for (seat, counts) in faces.iter().enumerate() {
        assert_eq!(counts.counts(), &by_hand[seat], "seat {seat}");
    }

    // Each face once: no departure from even at all.
    let ann = faces[0].test();
    assert_eq!((ann.throws, ann.expected, ann.chi_square, ann.p_value), (6, 1.0, 0.0, 1.0));
    assert_eq!(dice_verdict(ann.p_value), "nothing unusual");
    assert_eq!(
        dice_line(faces[0].counts(), ann.expected, ann.p_value),
        "6 throws · 1:1 2:1 3:1 4:1 5:1 6:1 · expected 1.0 each · p 1.0000 · nothing unusual"
    );
    // Six sixes: chi² = (6 − 1)²/1 + 5 · (0 − 1)²/1 = 30 on 5 degrees of freedom, whose tail
    // for an odd count of degrees is erfc(√(x/2)) + √(2x/π) e^(−x/2) (1 + x/3) = 1.47486e-5.
    let bob = faces[1].test();
    assert!((bob.chi_square - 30.0).abs() < 1e-12, "{}", bob.chi_square);
    assert!((bob.p_value - 1.474_858_103_844_305e-5).abs() < 1e-12, "{}", bob.p_value);
    assert_eq!(dice_verdict(bob.p_value), "rarer than 1 in 10,000");
    assert!(
        dice_line(faces[1].counts(), bob.expected, bob.p_value)
            .ends_with("p <0.0001 · rarer than 1 in 10,000")
    );
}

#[test]
fn recorded_faces_match_a_hand_count_of_the_recorded_games_events() {
    let dir = Dir(std::env::temp_dir().join(format!("snl-dice-stats-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).unwrap();
    let mut db = Database::open(&dir.0.join("games.db")).unwrap();
    let mut ann = [0; 6];
    let mut bob = [0; 6];
    // Three seeded games of Ann's (with Bob in the first two), and one given by hand, not counted.
    for (seed, names) in [(1, &["Ann", "Bob"][..]), (2, &["Bob", "Ann"]), (3, &["Ann", "Cy"])] {
        let mut game = game(names);
        let mut dice = DiceState::seeded(seed);
        let id = db.new_game(&Save::new(&game, &dice, "classic"), 1).unwrap();
        let mut events = Vec::new();
        for _ in 0..30 {
            if game.status() == Status::Finished {
                break;
            }
            game.play_turn(&mut dice, &mut FirstOption, &mut events).unwrap();
        }
        db.record(id, Action::Turn, &Save::new(&game, &dice, "classic"), &[], 2).unwrap();
        for (seat, counts) in count_by_hand(&events, 2).into_iter().enumerate() {
            let tally = if names[seat] == "Ann" {
                &mut ann
            } else if names[seat] == "Bob" {
                &mut bob
            } else {
                continue;
            };
            for (total, more) in tally.iter_mut().zip(counts) {
                *total += more;
            }
        }
    }
    let mut by_hand = game(&["Ann", "Bob"]);
    let mut scripted =
        DiceState::Scripted(ScriptedDice::parse("6,6,6", Dice::new(1, 6).unwrap()).unwrap());
    let id = db.new_game(&Save::new(&by_hand, &scripted, "classic"), 1).unwrap();
    by_hand.play_turn(&mut scripted, &mut FirstOption, &mut Vec::new()).unwrap();
    db.record(id, Action::Turn, &Save::new(&by_hand, &scripted, "classic"), &[], 2).unwrap();

    let everyone = recorded_faces(&db, None, None).unwrap();
    assert_eq!((everyone.games, everyone.skipped), (4, 1));
    assert_eq!(everyone.of("Ann", 6).unwrap().counts(), &ann);
    assert_eq!(everyone.of("Bob", 6).unwrap().counts(), &bob);
    let of_bob = recorded_faces(&db, Some("Bob"), None).unwrap();
    assert_eq!((of_bob.games, of_bob.skipped), (3, 1));
    assert_eq!(of_bob.tallies.len(), 1);
    assert_eq!(of_bob.of("Bob", 6).unwrap().counts(), &bob);
    assert!(recorded_faces(&db, Some("Nobody"), None).unwrap().tallies.is_empty());
    // Each player's newest game, what the server's kept histories are checked against.
    let newest = |name: &str| db.newest_game_of(name).unwrap().map(|id| id.0);
    assert_eq!(
        (newest("Ann"), newest("Bob"), newest("Cy"), newest("Nobody")),
        (Some(4), Some(4), Some(3), None)
    );
    // The game being played is left out of its own players' history.
    let first = snl_store::GameId(1);
    let without = recorded_faces(&db, Some("Bob"), Some(first)).unwrap();
    assert_eq!(without.games, 2);
    let bob_first = without.of("Bob", 6).unwrap().counts().iter().sum::<u64>();
    assert!(bob_first < bob.iter().sum::<u64>());
    let mut merged = FaceCounts::new(6);
    merged.merge(everyone.of("Ann", 6).unwrap());
    assert_eq!(merged.test().throws, ann.iter().sum::<u64>());
}
