//! The full-screen game's dice panel (`d`) against a count by hand: rolls given in advance, and
//! a seeded game recorded in the database the game records into, its faces counted here from
//! the events it told.

use crossterm::event::KeyCode;
use snl_engine::{Board, Event, FirstOption, Game, Preset, Rules, ScriptedDice, Seat, SeatKind};
use snl_session::Session;
use snl_store::{Action, Database, DiceState, Save};

use crate::{
    app::{App, Options, Overlay},
    seated::Kept,
    tests::{press, screen, text},
};

/// A game of `names` (people) at the classic board.
fn game_of(names: [&str; 2]) -> Game {
    let rules = Rules::default();
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    Game::new(board, rules, names.map(|n| Seat::new(n, SeatKind::Human)).to_vec()).unwrap()
}

/// Ann and Bob at the classic board, with `rolls` given in advance, kept as `kept` says.
fn ann_and_bob(rolls: &str, kept: Kept) -> App {
    let game = game_of(["Ann", "Bob"]);
    let rules = *game.rules();
    let dice = DiceState::Scripted(ScriptedDice::parse(rolls, rules.thrown_dice()).unwrap());
    let opts = Options { color: true, fast: true, ..Options::default() };
    App::new(Session::new(game, dice, "classic"), kept, opts, false, None)
}

/// Rolls `n` times with Space, each seat in turn.
fn roll(app: &mut App, n: usize) {
    for _ in 0..n {
        press(app, KeyCode::Char(' '));
    }
}

#[test]
fn the_dice_panel_shows_each_seats_faces_as_counted_by_hand() {
    // Ann throws each face once; Bob 6, 6, 5, 6, 6, 6 (counted by hand: five sixes, one five).
    let mut app = ann_and_bob("1,6,2,6,3,5,4,6,5,6,6,6", Kept::default());
    roll(&mut app, 12);
    assert_eq!(app.session.game().history().len(), 12);
    press(&mut app, KeyCode::Char('d'));
    assert_eq!(app.overlay, Overlay::Dice);
    let shown = text(&app, 130, 40);
    let ann = "this game: 6 throws · 1:1 2:1 3:1 4:1 5:1 6:1 · expected 1.0 each · p 1.0000 · \
               nothing unusual";
    assert!(shown.contains(ann), "{shown}");
    // Bob: chi² = 4 · (0 − 1)² + (1 − 1)² + (5 − 1)² = 20 on 5 degrees: p ≈ 0.00125.
    assert!(
        shown.contains(
            "this game: 6 throws · 1:0 2:0 3:0 4:0 5:1 6:5 · expected 1.0 each · p 0.0012"
        ),
        "{shown}"
    );
    assert!(shown.contains("rarer than 1 in 100"), "{shown}");
    assert!(shown.contains("history: no recorded history"), "{shown}");
    assert!(shown.contains("recorded nowhere"), "{shown}");
    insta::assert_snapshot!("layout_dice_panel_130x40", screen(&app, 130, 40));
    // Any key goes back; the help and the footer name the key.
    press(&mut app, KeyCode::Char('x'));
    assert_eq!(app.overlay, Overlay::None);
    assert!(text(&app, 130, 40).contains(" d  dice"));
    press(&mut app, KeyCode::Char('?'));
    assert!(text(&app, 130, 40).contains("dice so far: each face against fair dice"));
}

/// A folder of this test's own, removed at the end.
struct Dir(std::path::PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn the_dice_panel_counts_the_players_recorded_games_but_not_the_game_being_played() {
    let dir = Dir(std::env::temp_dir().join(format!("snl-tui-dice-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).unwrap();
    let path = dir.0.join("games.db");
    let mut db = Database::open(&path).unwrap();
    // An earlier seeded game of Ann's against Cy, recorded; its faces counted here.
    let mut game = game_of(["Ann", "Cy"]);
    let mut dice = DiceState::seeded(5);
    let id = db.new_game(&Save::new(&game, &dice, "classic"), 1).unwrap();
    let mut events = Vec::new();
    for _ in 0..8 {
        game.play_turn(&mut dice, &mut FirstOption, &mut events).unwrap();
    }
    db.record(id, Action::Turn, &Save::new(&game, &dice, "classic"), &[], 2).unwrap();
    let mut faces = [0_u64; 6];
    for event in &events {
        if let Event::DiceRolled { player: 0, dice, .. } = event {
            for &face in dice.dice() {
                faces[usize::from(face) - 1] += 1;
            }
        }
    }
    let throws: u64 = faces.iter().sum();
    let counts: Vec<String> = faces.iter().zip(1..).map(|(c, f)| format!("{f}:{c}")).collect();
    // The game being played is recorded in the same database: it is not part of the history.
    let playing = Save::new(&game_of(["Ann", "Bob"]), &DiceState::seeded(1), "classic");
    let current = db.new_game(&playing, 3).unwrap();
    drop(db);

    let kept = Kept { game_id: Some(current), db: Some(path), save: None };
    let mut app = ann_and_bob("2,3", kept);
    roll(&mut app, 2);
    press(&mut app, KeyCode::Char('d'));
    let shown = text(&app, 130, 40);
    let ann = format!("history: 1 recorded game: {throws} throws · {}", counts.join(" "));
    assert!(shown.contains(&ann), "{ann}\n{shown}");
    assert!(shown.contains("history: no recorded game"), "Bob has none: {shown}");
    assert!(shown.contains("this game left out"), "{shown}");
}

#[test]
fn a_watchers_dice_panel_shows_the_rooms_faces_as_counted_from_its_events() {
    use crate::online_tests::{hear, room_game, screen_of, settle};
    let (events, _) = room_game(Rules::default(), 3, 60);
    let mut app = screen_of(None, Rules::default(), true);
    hear(&mut app, &events);
    settle(&mut app);
    // Counted here from the events the server sent, by name.
    let mut faces = [[0_u64; 6]; 2];
    for numbered in &events {
        if let Event::DiceRolled { player, dice, .. } = &numbered.event {
            let seat = usize::from(player != "Ann");
            for &face in dice.dice() {
                faces[seat][usize::from(face) - 1] += 1;
            }
        }
    }
    press(&mut app, KeyCode::Char('d'));
    assert_eq!(app.overlay, Overlay::Dice);
    let shown = text(&app, 130, 40);
    for counts in faces {
        let listed: Vec<String> = counts.iter().zip(1..).map(|(c, f)| format!("{f}:{c}")).collect();
        let want =
            format!("this game: {} throws · {}", counts.iter().sum::<u64>(), listed.join(" "));
        assert!(shown.contains(&want), "{want}\n{shown}");
    }
    assert!(shown.contains("the room's page shows it"), "{shown}");
}
