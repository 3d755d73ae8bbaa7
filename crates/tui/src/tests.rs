// Long because the layouts' snapshot tests and scripted games share their fixtures; each test is short.
//! Layouts and scripted games of the full-screen game, without a terminal: screens are drawn into
//! ratatui's test backend and compared whole (text and styles) with the insta snapshots in
//! `snapshots/`; games are played by feeding keys through the action and update layer.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::{Terminal, backend::TestBackend};
use snl_engine::{
    Board, BoardSpec, Choice, Game, Preset, RollError, Rules, ScriptedDice, Seat, SeatKind,
};
use snl_session::{Awaiting, Session};
use snl_store::DiceState;

use crate::seated::Kept;
use crate::{
    action::{Action, ViewAction, from_key},
    app::{App, Beat, Mode, Options, Overlay, Stop, marks},
    setup::{Field, Form},
    ui,
    update::update,
};

/// A table of `seats` on `spec` under `rules`, with scripted `rolls`.
fn table(
    spec: &BoardSpec,
    rules: Rules,
    seats: &[(&str, SeatKind)],
    rolls: &str,
    fast: bool,
) -> App {
    let board = Board::new(spec, &rules).unwrap();
    let seats = seats.iter().map(|(n, k)| Seat::new(*n, *k)).collect();
    let game = Game::new(board, rules, seats).unwrap();
    let dice = DiceState::Scripted(ScriptedDice::parse(rolls, rules.thrown_dice()).unwrap());
    let session = Session::new(game, dice, "classic");
    let opts = Options { color: true, fast, ..Options::default() };
    App::new(session, Kept::default(), opts, false, None)
}

fn classic(seats: &[(&str, SeatKind)], rolls: &str) -> App {
    table(&Preset::Classic.spec(), Rules::default(), seats, rolls, true)
}

const TWO: [(&str, SeatKind); 3] =
    [("Ann", SeatKind::Human), ("王小明", SeatKind::Hard), ("Bob", SeatKind::Easy)];

/// The whole screen, text and styles, at `width`×`height`.
pub(super) fn screen(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| ui::render(frame, app)).unwrap();
    format!("{:?}", terminal.backend().buffer())
}

/// The screen's text only, for assertions that read it.
pub(super) fn text(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| ui::render(frame, app)).unwrap();
    let buffer = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..height {
        let mut x = 0;
        while x < width {
            let symbol = buffer[(x, y)].symbol();
            out.push_str(symbol);
            x += unicode_width::UnicodeWidthStr::width(symbol).max(1) as u16;
        }
        out.push('\n');
    }
    out
}

pub(super) fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

/// Presses `code` as a person would: the key's action, if any, applied.
pub(super) fn press(app: &mut App, code: KeyCode) {
    if let Some(action) = from_key(key(code), app) {
        update(app, action);
    }
}

/// Ticks until a person is awaited, the animation is over, or the game ends.
fn settle(app: &mut App) {
    for _ in 0..10_000 {
        let busy = app.animating() || app.wait > 0;
        if !busy && !matches!(app.session.awaiting(), Awaiting::Computer { .. }) {
            return;
        }
        update(app, Action::Tick);
    }
    panic!("the game did not settle");
}

/// Eight players, seven of them on cell 3, two-wide names and an emoji.
fn crowded() -> App {
    let seats = [
        ("Ann", SeatKind::Human),
        ("王小明", SeatKind::Human),
        ("🐍 Snake Fan", SeatKind::Easy),
        ("Amy", SeatKind::Greedy),
        ("Zoë Ñandú with a very long name", SeatKind::Hard),
        ("Bob", SeatKind::Easy),
        ("Cy", SeatKind::Easy),
        ("Di", SeatKind::Easy),
    ];
    let mut app = classic(&seats, "3,3,3,3,3,3,3,5,4,2");
    for _ in 0..3 {
        press(&mut app, KeyCode::Char(' '));
        settle(&mut app);
    }
    app
}

fn choosing() -> App {
    let rules = Rules { choice: Choice::PickDie, ..Rules::default() };
    let mut app = table(&Preset::Classic.spec(), rules, &TWO, "5+1,2+3", true);
    press(&mut app, KeyCode::Enter);
    app
}

fn small_board() -> BoardSpec {
    BoardSpec::with_jumps(20, [(3, 12), (15, 5)])
}

fn ended() -> App {
    let seats = [("Ann", SeatKind::Human), ("Robo", SeatKind::Hard)];
    let mut app = table(&small_board(), Rules::default(), &seats, "6,1,6,1,6,1,2", true);
    while !matches!(app.session.awaiting(), Awaiting::Over) {
        press(&mut app, KeyCode::Char(' '));
        settle(&mut app);
    }
    app
}

macro_rules! layouts {
    ($($name:ident: $app:expr;)*) => {$(
        #[test]
        fn $name() {
            let app = $app;
            insta::assert_snapshot!(concat!(stringify!($name), "_80x24"), screen(&app, 80, 24));
            insta::assert_snapshot!(concat!(stringify!($name), "_120x40"), screen(&app, 120, 40));
        }
    )*};
}

layouts! {
    layout_start: classic(&TWO, "1");
    layout_mid_game_crowded_wide_names: crowded();
    layout_choice: choosing();
    layout_help: { let mut app = classic(&TWO, "1"); press(&mut app, KeyCode::Char('?')); app };
    layout_quit_question: { let mut app = classic(&TWO, "1"); press(&mut app, KeyCode::Char('q')); app };
    layout_end: ended();
    layout_party: party();
    layout_party_help: { let mut app = party(); press(&mut app, KeyCode::Char('?')); app };
}

#[test]
fn the_end_lists_what_the_game_earned_each_person() {
    let app = ended();
    for (width, height) in [(80, 24), (120, 40)] {
        let screen = text(&app, width, height);
        assert!(screen.contains("Achievements earned:"), "{width}x{height}:\n{screen}");
        assert!(screen.contains("A Ann — First win: won a game"), "{width}x{height}:\n{screen}");
    }
    // Robo, second, earned nothing; no line names him.
    assert!(app.awards.iter().all(|(seat, _)| *seat == 0), "{:?}", app.awards);
}

#[test]
fn a_choice_says_which_option_space_takes() {
    let app = choosing();
    for (width, height) in [(80, 24), (120, 40)] {
        let screen = text(&app, width, height);
        assert!(screen.contains("Space or Enter takes 1"), "{width}x{height}:\n{screen}");
    }
}

/// The party board (every cell effect), Ann holding the shield of cell 24.
fn party() -> App {
    let seats = [("Ann", SeatKind::Human), ("Robo", SeatKind::Easy)];
    let mut app = table(&Preset::Party.spec(), Rules::default(), &seats, "4,1,6,1,4,1", true);
    for _ in 0..3 {
        press(&mut app, KeyCode::Char(' '));
        settle(&mut app);
    }
    app
}

#[test]
fn the_party_board_draws_and_explains_every_cell_effect_and_who_holds_a_shield() {
    let app = party();
    assert!(app.session.game().has_shield(0), "Ann stands on the shield of 24");
    for (width, height) in [(80, 24), (130, 40)] {
        let screen = text(&app, width, height);
        // Each effect's glyph on its cells, and in the legend with its name.
        for cell in ["47✕", "12+", "59◆", "45@"] {
            assert!(screen.contains(cell), "{cell} missing at {width}x{height}:\n{screen}");
        }
        // Snakes and ladders too: over the board where they do not fit under it (80x24).
        for entry in ["✕ skip", "+ extra", "◆ shield", "@ wormhole", "▼ snake", "▲ ladder"]
        {
            assert!(screen.contains(entry), "{entry} missing at {width}x{height}:\n{screen}");
        }
        // Ann's shield in the list of players: its glyph, or the word where there is room.
        let players: String = screen.lines().map(|l| l.split('│').nth(3).unwrap_or("")).collect();
        let ann = players.split(" Robo ").next().unwrap_or_default();
        assert!(ann.contains('◆') || ann.contains("· shield"), "{width}x{height}:\n{screen}");
        assert!(!players.split(" Robo ").nth(1).unwrap_or_default().contains('◆'), "{screen}");
    }
    let mut help = party();
    press(&mut help, KeyCode::Char('?'));
    let screen = text(&help, 80, 24);
    for meaning in ["skip: the next turn is missed", "wormhole: to one of its exits"] {
        assert!(screen.contains(meaning), "{meaning} missing from the help:\n{screen}");
    }
}

#[test]
fn layout_setup_form() {
    // A random board with 4 effects, a race of 3 rounds, both clocks, three players.
    // A seed typed and the pick-die choice rule.
    let mut form = Form::new("classic", None);
    let (left, right) = (KeyCode::Left, KeyCode::Right);
    let steps: [(Option<Field>, &[KeyCode]); 10] = [
        (None, &[left]),
        (Some(Field::Effects), &[right; 4]),
        (Some(Field::Seed), &[KeyCode::Char('4'), KeyCode::Char('2')]),
        (Some(Field::Choice), &[right, right]),
        (Some(Field::Mode), &[right]),
        (Some(Field::Rounds), &[left; 7]),
        (Some(Field::TurnTime), &[right; 4]),
        (Some(Field::GameTime), &[right; 5]),
        (Some(Field::Players), &[right]),
        (Some(Field::Seat(0)), &[]),
    ];
    for (field, keys) in steps {
        if let Some(field) = field {
            form.go_to(field);
        }
        for &code in keys {
            form.key(key(code));
        }
    }
    for size in [(80, 24), (120, 40)] {
        let mut terminal = Terminal::new(TestBackend::new(size.0, size.1)).unwrap();
        terminal.draw(|frame| ui::setup::render(frame, &form)).unwrap();
        let name = format!("layout_setup_{}x{}", size.0, size.1);
        insta::assert_snapshot!(name, format!("{:?}", terminal.backend().buffer()));
    }
}

#[test]
fn layout_setup_form_with_every_field_and_eight_players_fits_80x24() {
    let mut form = Form::new("random", None).with(6, Some(3), Some(30), Some(600));
    while form.field != Field::Players {
        form.key(key(KeyCode::Down));
    }
    for _ in 0..6 {
        form.key(key(KeyCode::Right));
    }
    assert_eq!(form.seats.len(), 8);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|frame| ui::setup::render(frame, &form)).unwrap();
    let shown = format!("{:?}", terminal.backend().buffer());
    let needles = ["Effects", "◀ 6 ▶", "Size", "Seed", "Choices", "◀ race ▶", "Rounds"];
    for needle in needles.into_iter().chain(["◀ 30 s ▶", "◀ 10 min ▶", "Player 8"]) {
        assert!(shown.contains(needle), "{needle} is not shown:\n{shown}");
    }
    insta::assert_snapshot!("layout_setup_full_80x24", shown);
}

#[test]
fn layout_too_small_says_so() {
    let app = classic(&TWO, "1");
    insta::assert_snapshot!("layout_too_small_50x12", screen(&app, 50, 12));
    let shown = text(&app, 50, 12);
    assert!(shown.contains("50×12") && shown.contains("64×16"), "{shown}");
}

#[test]
fn layout_without_colour_tells_players_apart_by_letter() {
    let mut app = crowded();
    app.opts.color = false;
    let shown = screen(&app, 80, 24);
    insta::assert_snapshot!("layout_no_color_80x24", shown);
    assert!(!shown.contains("fg: Yellow") && !shown.contains("fg: Red"), "{shown}");
}

#[test]
fn the_start_shows_all_100_cells_the_jumps_and_the_key_at_80x24() {
    let app = classic(&TWO, "1");
    let screen = text(&app, 80, 24);
    for cell in ["100", " 1 ", " 50", " 51"] {
        assert!(screen.contains(cell), "{cell} missing:\n{screen}");
    }
    assert!(screen.contains("→25") && screen.contains('▼') && screen.contains('△'), "{screen}");
    assert!(screen.contains("▶A Ann") && screen.contains("C 王小明"), "{screen}");
    assert!(screen.contains(" Space  roll"), "{screen}");
}

#[test]
fn crowded_cells_say_how_many_and_the_panel_says_who() {
    let app = crowded();
    let small = text(&app, 80, 24);
    assert!(small.contains("×6"), "{small}");
    let large = text(&app, 120, 40);
    assert!(large.lines().any(|l| l.contains("ESMZBC")), "{large}");
    assert!(large.contains("Zoë Ñandú"), "{large}");
}

#[test]
fn each_seat_gets_its_own_letter() {
    assert_eq!(marks(["Ann", "Amy", "王小明", "Bob"].into_iter()), ['A', 'M', 'C', 'B']);
    assert_eq!(marks(["You", "Computer"].into_iter()), ['Y', 'C']);
    assert_eq!(marks(["1", "2"].into_iter()), ['A', 'B']);
}

#[test]
fn keys_play_a_whole_game_to_the_end_and_leave() {
    let seats = [("Ann", SeatKind::Human), ("Robo", SeatKind::Hard)];
    let mut app = table(&small_board(), Rules::default(), &seats, "6,1,6,1,6,1,2", false);
    for _ in 0..100 {
        if matches!(app.session.awaiting(), Awaiting::Over) {
            break;
        }
        press(&mut app, KeyCode::Char(' '));
        settle(&mut app);
    }
    assert_eq!(app.session.game().ranking(), [0, 1]);
    assert_eq!(app.shown, app.session.game().positions());
    assert!(app.log.iter().any(|s| s.text == "Ann reached 20 and wins!"), "{:?}", app.log);
    assert!(text(&app, 80, 24).contains("Ann wins!"));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.stop, Some(Stop::Over));
}

#[test]
fn quitting_asks_first_and_ctrl_c_does_not() {
    let mut app = classic(&TWO, "1,2,3");
    press(&mut app, KeyCode::Char('q'));
    assert_eq!(app.overlay, Overlay::ConfirmQuit);
    assert!(text(&app, 80, 24).contains("Leave the game?"));
    press(&mut app, KeyCode::Char('n'));
    assert_eq!((app.overlay, app.stop.clone()), (Overlay::None, None));
    press(&mut app, KeyCode::Char(' '));
    assert_eq!(app.session.game().positions()[0], 1);
    press(&mut app, KeyCode::Char('q'));
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(app.stop, Some(Stop::Asked));
    assert!(app.session.is_stopped());

    let mut app = classic(&TWO, "1");
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    let action = from_key(ctrl_c, &app).unwrap();
    update(&mut app, action);
    assert_eq!(app.stop, Some(Stop::Interrupted));
    assert!(app.session.is_stopped());
}

#[test]
fn digits_choose_and_each_option_says_where_it_lands() {
    let mut app = choosing();
    let screen = text(&app, 80, 24);
    assert!(screen.contains("1 move 5 to 5"), "{screen}");
    assert!(screen.contains("2 move 1 to 1"), "{screen}");
    press(&mut app, KeyCode::Char('7'));
    assert!(app.log.back().unwrap().text.contains("not one of the options"));
    press(&mut app, KeyCode::Char('2'));
    assert_eq!(app.session.game().positions()[0], 1);
}

#[test]
fn undo_redo_and_autopilot_by_key() {
    let mut app = classic(&TWO, "4,2,2,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5");
    press(&mut app, KeyCode::Char(' '));
    settle(&mut app);
    assert_eq!(app.session.game().positions(), [4, 2, 2]);
    press(&mut app, KeyCode::Char('u'));
    assert_eq!(app.session.game().positions(), [0, 0, 0]);
    assert_eq!(app.shown, [0, 0, 0]);
    press(&mut app, KeyCode::Char('r'));
    assert_eq!(app.session.game().positions(), [4, 2, 2]);
    press(&mut app, KeyCode::Char('r'));
    assert_eq!(app.log.back().unwrap().text, "There is nothing to redo.");
    press(&mut app, KeyCode::Char('a'));
    assert!(app.session.on_autopilot(0));
    update(&mut app, Action::Tick);
    assert!(app.session.game().turns() > 3, "without animation the computers play on");

    let mut app = table(&Preset::Classic.spec(), Rules::default(), &TWO, "5,5,5,5,5,5", false);
    press(&mut app, KeyCode::Char('a'));
    assert!(app.session.on_autopilot(0));
    update(&mut app, Action::Tick);
    assert_eq!(app.log.back().unwrap().text, "Ann hands the seat to the computer (autopilot on)");
    update(&mut app, Action::Tick);
    assert_eq!(app.session.game().positions()[0], 5, "the computer rolled for Ann");
    press(&mut app, KeyCode::Char('a'));
    assert!(!app.session.on_autopilot(0));
}

#[test]
fn tokens_walk_cell_by_cell_and_jumps_follow_their_path() {
    // Ann rolls 6 from the start: steps 1..6, then the ladder 6→25 flies up the board.
    let mut app = table(&Preset::Classic.spec(), Rules::default(), &TWO, "6,1,1", false);
    press(&mut app, KeyCode::Char(' '));
    let mut seen = Vec::new();
    let mut faces = Vec::new();
    while app.animating() {
        update(&mut app, Action::Tick);
        faces.push(app.die.clone().unwrap_or_default());
        if seen.last() != Some(&app.shown[0]) {
            seen.push(app.shown[0]);
        }
    }
    assert_eq!(&seen[..7], [0, 1, 2, 3, 4, 5, 6], "{seen:?}");
    assert_eq!(seen.last(), Some(&25));
    assert!(seen.len() > 8, "the ladder moves through cells between 6 and 25: {seen:?}");
    assert!(
        faces.iter().filter(|f| !f.is_empty()).collect::<std::collections::HashSet<_>>().len() > 1
    );
    assert_eq!(app.bells, 1, "one bell for the ladder");
    assert!(app.log.back().unwrap().text.starts_with("Yes! A ladder at 6"));
}

#[test]
fn the_log_tells_a_move_only_after_it_is_seen() {
    let mut app = table(&Preset::Classic.spec(), Rules::default(), &TWO, "3", false);
    press(&mut app, KeyCode::Char(' '));
    let says = |app: &App| app.beats.iter().filter(|b| matches!(b, Beat::Say(_))).count();
    assert!(says(&app) > 0);
    assert!(!app.log.iter().any(|s| s.text.starts_with("Ann rolled")));
    while app.animating() {
        update(&mut app, Action::Tick);
    }
    assert!(app.log.iter().any(|s| s.text == "Ann rolled a 3 and moved from the start to 3"));
}

#[test]
fn saving_says_where() {
    let dir = std::env::temp_dir().join(format!("snl-tui-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("g.json");
    let mut app = classic(&TWO, "1");
    app.opts.save = Some(path.clone());
    press(&mut app, KeyCode::Char('s'));
    assert!(path.exists());
    assert!(app.log.back().unwrap().text.starts_with(&format!("Saved to {}", path.display())));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn unknown_keys_say_so_and_scripted_rolls_running_out_stop() {
    let mut app = classic(&TWO, "1");
    press(&mut app, KeyCode::Char('x'));
    assert_eq!(app.log.back().unwrap().text, "'x' is not a key here: ? shows the keys.");
    press(&mut app, KeyCode::Char(' '));
    settle(&mut app);
    assert_eq!(app.stop, Some(Stop::Dice(RollError::Exhausted { used: 1 })));
}

#[test]
fn stop_after_counts_turns_that_had_a_decision() {
    let rules = Rules { choice: Choice::MayPass, ..Rules::default() };
    let seats = [("Amy", SeatKind::Greedy), ("Gus", SeatKind::Greedy)];
    let mut app = table(&Preset::Classic.spec(), rules, &seats, "3,4,2,1,5,3,2,4", true);
    app.opts.stop_after = Some(3);
    settle(&mut app);
    assert_eq!(app.stop, Some(Stop::Asked));
    assert_eq!(app.session.game().turns(), 3);
}

#[test]
fn a_large_board_follows_the_current_player_and_scrolls() {
    let spec = BoardSpec::with_jumps(400, [(390, 12), (30, 395)]);
    let mut app = table(&spec, Rules::default(), &TWO, "1", true);
    let bottom = text(&app, 80, 24);
    assert!(bottom.contains("scroll, f follows"), "{bottom}");
    assert!(!bottom.contains("400 399"), "{bottom}");
    update(&mut app, Action::View(ViewAction::Scroll(-100)));
    let top = text(&app, 80, 24);
    assert!(top.contains("400 399"), "{top}");
    press(&mut app, KeyCode::Char('f'));
    assert_eq!(text(&app, 80, 24), bottom);
    insta::assert_snapshot!("layout_large_board_80x24", screen(&app, 80, 24));
}

#[test]
fn the_clocks_show_under_the_players_and_a_late_person_has_the_turn_played() {
    let seats = [("Ann", SeatKind::Human), ("Robo", SeatKind::Hard)];
    let mut app = classic(&seats, "3,4,5,2");
    // Pretend time: one second a tick.
    app.mode = Mode::Local { clocks: crate::clocks::Clocks::new(Some(5), Some(60), Some(1000)) };
    update(&mut app, Action::Tick);
    let shown = text(&app, 80, 24);
    assert!(shown.contains("⏱ turn 0:05 · game 1:00"), "{shown}");
    for _ in 0..4 {
        update(&mut app, Action::Tick);
    }
    assert_eq!(app.session.game().rolls(), 0, "Ann still has a second");
    update(&mut app, Action::Tick);
    assert!(app.log.iter().any(|s| s.text.starts_with("Ann ran out of time")), "{:?}", app.log);
    assert_eq!(app.session.game().positions()[0], 3, "the computer rolled Ann's 3");
    settle(&mut app);
    assert_eq!(app.session.game().turns(), 2, "then Robo played");
    assert_eq!(app.session.awaiting(), Awaiting::Roll { seat: 0 });
    // Ann's clock starts again in full; the game's goes on.
    update(&mut app, Action::Tick);
    assert!(text(&app, 80, 24).contains("⏱ turn 0:05"), "{}", text(&app, 80, 24));
}

#[test]
fn when_the_game_clock_runs_out_the_screen_ends_the_game_after_the_round() {
    let seats = [("Ann", SeatKind::Human), ("Robo", SeatKind::Hard)];
    let mut app = classic(&seats, "3,4,5,2");
    // One second of game, one a tick: it starts at the first tick and runs out at the next.
    app.mode = Mode::Local { clocks: crate::clocks::Clocks::new(None, Some(1), Some(1000)) };
    update(&mut app, Action::Tick);
    press(&mut app, KeyCode::Char(' '));
    // Robo's turn: the game clock runs out at its first tick; Robo completes the round.
    settle(&mut app);
    let game = app.session.game();
    assert!(game.time_up().is_some());
    assert_eq!(app.session.awaiting(), Awaiting::Over);
    assert_eq!((game.turns(), game.ranking()), (2, &[1, 0][..]), "Robo on 4 ahead of Ann on 3");
    assert!(app.log.iter().any(|s| s.text.starts_with("Time is up")), "{:?}", app.log);
}

/// A race of `rounds` rounds on the small board.
pub(super) fn race_rules(rounds: u32) -> Rules {
    let mut rules = Rules::default();
    let spec = snl_engine::RuleSpec {
        mode: Some("race".into()),
        rounds: Some(rounds),
        ..Default::default()
    };
    rules.apply(&spec).unwrap();
    rules
}

#[test]
fn a_race_says_its_round_then_that_it_is_over_and_ranks_the_unfinished_by_position() {
    let seats = [("Ann", SeatKind::Human), ("Robo", SeatKind::Easy)];
    let mut app = table(&small_board(), race_rules(2), &seats, "1,2,1,4", true);
    let header = |app: &App| text(app, 80, 24).lines().next().unwrap_or_default().to_owned();
    assert!(header(&app).contains("classic · race · round 1 of 2 · turn 1"), "{}", header(&app));
    press(&mut app, KeyCode::Char(' '));
    settle(&mut app);
    assert!(header(&app).contains("race · round 2 of 2 · turn 3"), "{}", header(&app));
    press(&mut app, KeyCode::Char(' '));
    settle(&mut app);
    assert!(matches!(app.session.awaiting(), Awaiting::Over));
    for (width, height) in [(80, 24), (120, 40)] {
        let screen = text(&app, width, height);
        assert!(screen.lines().next().unwrap().contains("race over"), "{screen}");
        // Robo on 6 leads Ann on 2; neither reached 20, so neither "finished".
        assert!(!screen.contains("finished"), "{width}x{height}:\n{screen}");
        if width == 120 {
            assert!(screen.contains("1st on 6") && screen.contains("2nd on 2"), "{screen}");
        }
    }
}

#[test]
fn the_80_column_log_wraps_without_losing_a_character() {
    let words = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike \
        november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu";
    for (width, height) in [(80, 24), (100, 30), (120, 40)] {
        let mut app = classic(&TWO, "1");
        app.note(words);
        let screen = text(&app, width, height);
        let shown: Vec<&str> = screen.split(|c: char| c.is_whitespace() || c == '│').collect();
        for word in words.split_whitespace() {
            assert!(shown.contains(&word), "{word} is cut at {width}x{height}:\n{screen}");
        }
    }
}

#[test]
fn after_undo_and_redo_the_die_shows_the_roll_of_the_game_as_it_now_stands() {
    let mut app = classic(&TWO, "4,2,3,5,6,1,5,5,5");
    press(&mut app, KeyCode::Char(' '));
    settle(&mut app);
    press(&mut app, KeyCode::Char(' '));
    settle(&mut app);
    assert_eq!(app.die, Some(vec![1]), "Bob's roll ends the second round");
    press(&mut app, KeyCode::Char('u'));
    settle(&mut app);
    assert_eq!(app.session.game().turns(), 3);
    assert_eq!(app.die, Some(vec![3]), "Bob's roll of the first round, not the 1 undone");
    assert!(text(&app, 80, 24).lines().next().unwrap().contains("die [ 3 ]"));
    press(&mut app, KeyCode::Char('r'));
    settle(&mut app);
    assert_eq!(app.die, Some(vec![1]));
    press(&mut app, KeyCode::Char('u'));
    press(&mut app, KeyCode::Char('u'));
    settle(&mut app);
    assert_eq!((app.session.game().turns(), app.die.clone()), (0, None));
}

/// A table of Ann (a person) and Robo on `spec` named `name`.
fn on_board(spec: &BoardSpec, name: &str, rules: Rules) -> App {
    let board = Board::new(spec, &rules).unwrap();
    let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Robo", SeatKind::Easy)];
    let game = Game::new(board, rules, seats).unwrap();
    let dice = DiceState::seeded(1);
    let session = Session::new(game, dice, name);
    App::new(session, Kept::default(), Options { fast: true, ..Options::default() }, false, None)
}

/// Every preset, a random board with effects and a board file, with the names they are given.
pub(super) fn every_board() -> [(BoardSpec, &'static str); 7] {
    let file = "size = 30\nwidth = 6\nsnake = [{head = 27, tail = 4}]\nladder = [{foot = 2, top = 22}]\n\
        [[cell]]\nat = 9\neffect = \"shield\"\n";
    let random = snl_engine::RandomBoard { seed: 3, ..Default::default() };
    [
        (Preset::Classic.spec(), "classic"),
        (Preset::MiltonBradley.spec(), "milton-bradley"),
        (Preset::Kids.spec(), "kids"),
        (Preset::Party.spec(), "party"),
        (Preset::Empty.spec(), "empty"),
        (random.spec_with_effects(&Rules::default(), 4), "random"),
        (BoardSpec::from_toml(file).unwrap(), "my-board.toml"),
    ]
}

#[test]
fn every_preset_a_random_board_and_a_board_file_are_drawn_with_their_name_cells_and_key() {
    for (spec, name) in every_board() {
        let app = on_board(&spec, name, Rules::default());
        let board = app.session.game().board();
        for (width, height) in [(80, 24), (130, 40)] {
            let screen = text(&app, width, height);
            let header = screen.lines().next().unwrap_or_default();
            assert!(header.contains(&format!(" {name} · turn 1 · Ann to roll")), "{header}");
            assert!(screen.contains(&format!("{} cells", spec.size)), "{name}:\n{screen}");
            // The last cell is drawn, and each kind of cell the board has is in the key.
            assert!(screen.contains(&spec.size.to_string()), "{name}:\n{screen}");
            for kind in snl_words::CellKind::ALL.into_iter().filter(|k| k.on(board)) {
                let picture = kind.picture();
                let entry = format!("{} {}", picture.glyph, picture.name);
                let mut help = on_board(&spec, name, Rules::default());
                press(&mut help, KeyCode::Char('?'));
                let shown = text(&help, width, height);
                assert!(
                    screen.contains(&entry) || shown.contains(picture.meaning),
                    "{name} {width}x{height}: {entry} is neither in the key nor the help:\n{screen}\n{shown}"
                );
            }
        }
    }
}

#[test]
fn every_named_rule_set_choice_rule_and_mode_is_played_and_told_in_the_help() {
    let mut sets: Vec<(String, Rules)> = snl_engine::RuleSet::ALL
        .iter()
        .map(|set| (set.as_str().to_owned(), Rules::named(set.as_str()).unwrap()))
        .collect();
    for choice in Choice::ALL {
        sets.push((choice.as_str().to_owned(), Rules { choice: *choice, ..Rules::default() }));
    }
    sets.push(("race".to_owned(), race_rules(4)));
    for (name, rules) in sets {
        let mut app = on_board(&Preset::Classic.spec(), "classic", rules);
        // Ann rolls (taking option 1 at a choice) until Robo has played.
        for _ in 0..4 {
            press(&mut app, KeyCode::Char(' '));
            settle(&mut app);
        }
        assert!(app.session.game().turns() >= 2, "{name}: the game goes on");
        press(&mut app, KeyCode::Char('?'));
        let help = text(&app, 130, 40);
        assert!(help.contains(" Rules: "), "{name}:\n{help}");
        // Every word of the rules in words, wherever the box wraps them.
        let shown: Vec<&str> = help.split(|c: char| c.is_whitespace() || c == '│').collect();
        for word in snl_words::rules_in_words(&rules).split_whitespace() {
            assert!(shown.contains(&word), "{name}: {word} missing:\n{help}");
        }
    }
}
