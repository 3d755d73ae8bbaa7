// Long because one table of online screens (join, watch, reconnects, the grace) shares one scripted room and its helpers.
//! The online screen without a network: a room's game played by a session as the server plays
//! it (seeded dice, the computer on the server), its events named and numbered as the server
//! sends them, fed to the screen through the same update the loop uses; keys go through the
//! action and update layer and come out as the intents the loop would send.

use crossterm::event::KeyCode;
use serde_json::json;
use snl_engine::{Board, Choice, Event, Game, Numbered, Preset, Rules, Seat, SeatKind};
use snl_session::{Awaiting, Intent, Session};
use snl_store::DiceState;
use snl_wire::{
    frames::ClientFrame,
    rooms::{AwardLine, RoomState},
};

use crate::client::Update;
use crate::{
    action::Action,
    app::{App, Options, Overlay, Stop},
    online::{Connection, Mirror, Online},
    tests::{press, screen, text},
    update::{room, update},
};

const URL: &str = "http://127.0.0.1:8080/room/5f0c2a9e81d34b07";

/// A room's game of Ann (a person, seat 1) and Robo (hard) as the server plays it: Ann rolls
/// when awaited and takes the last option of a choice; the events as the server sends them, and
/// the game at the end. `until`: stop once this many events were told.
pub(super) fn room_game(rules: Rules, seed: u64, until: usize) -> (Vec<Numbered<String>>, Game) {
    play_on(room_session(rules, seed), Vec::new(), until)
}

fn room_session(rules: Rules, seed: u64) -> Session {
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Robo", SeatKind::Hard)];
    let game = Game::new(board, rules, seats).unwrap();
    Session::new(game, DiceState::seeded(seed), "classic")
}

/// The events as the server sends them (players by name).
fn named(session: &Session, events: Vec<Numbered<usize>>) -> Vec<Numbered<String>> {
    let seats = session.game().seats();
    events.into_iter().map(|n| Numbered { seq: n.seq, event: n.event.named(seats) }).collect()
}

/// [`room_game`] from `session` on, after the events `told` already.
fn play_on(
    mut session: Session,
    mut told: Vec<Numbered<String>>,
    until: usize,
) -> (Vec<Numbered<String>>, Game) {
    while told.len() < until {
        let events = match session.awaiting() {
            Awaiting::Over => break,
            Awaiting::Computer { .. } => session.play_computer().unwrap(),
            Awaiting::Roll { seat } => session.act(seat, Intent::Roll).unwrap(),
            Awaiting::Choice(d) => {
                session.act(d.seat, Intent::Choose { option: d.options.len() - 1 }).unwrap()
            }
        };
        told.extend(named(&session, events));
    }
    (told, session.game().clone())
}

/// The room's public state as the welcome carries it, before anyone rolled.
fn state(rules: Rules) -> RoomState {
    let seat = |seat: usize, kind: &str, name: &str, online: bool| {
        json!({"seat": seat, "kind": kind, "name": name, "open": false, "online": online,
            "autopilot": false, "position": 0, "rank": null})
    };
    serde_json::from_value(json!({
        "room": "5f0c2a9e81d34b07",
        "status": "running",
        "board_name": "classic",
        "board": Preset::Classic.spec(),
        "rules": rules,
        "turn_time": null,
        "game_time": null,
        "time_up": false,
        "seats": [seat(0, "human", "Ann", true), seat(1, "hard", "Robo", false)],
        "awaiting": {"type": "roll", "seat": 0, "input": 0},
        "turns": 0,
        "ranking": [],
        "seq": 0,
        "turn_left_ms": null,
    }))
    .unwrap()
}

/// The screen of seat `me` (none: a watcher), welcomed.
pub(super) fn screen_of(me: Option<usize>, rules: Rules, fast: bool) -> App {
    let state = state(rules);
    let opts = Options { color: true, fast, quiet: true, ..Options::default() };
    let mut app = room::app(Online::new(URL, &state).unwrap(), me, opts);
    room::receive(&mut app, Update::Welcome { seat: me, seq: 0, state: Box::new(state) });
    app
}

pub(super) fn hear(app: &mut App, events: &[Numbered<String>]) {
    for numbered in events {
        room::receive(app, Update::Event(numbered.clone()));
    }
}

/// Ticks until the animation is over.
pub(super) fn settle(app: &mut App) {
    for _ in 0..100_000 {
        if !app.animating() {
            return;
        }
        update(app, Action::Tick);
    }
    panic!("the animation did not end");
}

fn online(app: &App) -> &Online {
    app.mode.room().unwrap()
}

fn outbox(app: &mut App) -> Vec<ClientFrame> {
    std::mem::take(&mut app.mode.room_mut().unwrap().outbox)
}

fn log(app: &App) -> String {
    app.log.iter().map(|s| s.text.as_str()).collect::<Vec<_>>().join("\n")
}

#[test]
fn the_screen_follows_a_whole_room_game_to_the_same_end_under_any_rules() {
    let rule_sets = [
        Rules::default(),
        Rules { choice: Choice::PickDie, ..Rules::default() },
        Rules::named("three-sixes").unwrap(),
    ];
    for (k, rules) in rule_sets.into_iter().enumerate() {
        for fast in [true, false] {
            let (events, end) = room_game(rules, 40 + k as u64, usize::MAX);
            let mut app = screen_of(Some(0), rules, fast);
            for numbered in &events {
                room::receive(&mut app, Update::Event(numbered.clone()));
                // The animation plays between the server's frames.
                update(&mut app, Action::Tick);
            }
            settle(&mut app);
            assert_eq!(online(&app).lost, None, "{rules:?}");
            let game = app.session.game();
            assert_eq!(game.positions(), end.positions(), "{rules:?}");
            assert_eq!(game.ranking(), end.ranking(), "{rules:?}");
            assert_eq!(app.shown, end.positions(), "the tokens settle where the game has them");
            assert!(matches!(app.session.awaiting(), Awaiting::Over));
            let shown = text(&app, 80, 24);
            assert!(shown.contains("wins!") && shown.contains("1. "), "{shown}");
            assert!(log(&app).contains("Final ranking:"), "{}", log(&app));
            // A Space meant to roll does not leave the end; q does.
            press(&mut app, KeyCode::Char(' '));
            assert_eq!(app.stop, None);
            press(&mut app, KeyCode::Char('q'));
            assert_eq!(app.stop, Some(Stop::Over));
        }
    }
}

#[test]
fn the_mirror_tells_each_input_once_and_refuses_an_event_the_game_does_not_play() {
    let (events, _) = room_game(Rules::default(), 3, 12);
    let board = Board::new(&Preset::Classic.spec(), &Rules::default()).unwrap();
    let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Robo", SeatKind::Hard)];
    let names = ["Ann".to_owned(), "Robo".to_owned()];
    let mut mirror = Mirror::new(Game::new(board, Rules::default(), seats).unwrap());
    let mut shown: Vec<Event> = Vec::new();
    for numbered in &events {
        let event = crate::client::indexed(&numbered.event, &names);
        shown.extend(mirror.follow(event).unwrap());
    }
    let sent: Vec<Event> =
        events.iter().map(|n| crate::client::indexed(&n.event, &names)).collect();
    // Every event the server sent, once, in order (the last input's may all be told already).
    assert_eq!(&shown[..sent.len()], &sent[..]);
    let wrong = Event::Snake { player: 0, from: 99, to: 1 };
    let mut bad = mirror.clone();
    let refused = bad.follow(wrong.clone()).and_then(|_| bad.follow(wrong));
    assert!(refused.is_err(), "a snake out of nowhere is refused");
}

#[test]
fn space_rolls_on_our_turn_once_and_not_on_the_computers() {
    let mut app = screen_of(Some(0), Rules::default(), true);
    let shown = text(&app, 80, 24);
    assert!(shown.contains(" Space  roll") && shown.contains("online"), "{shown}");
    assert!(shown.contains("human, you"), "{shown}");
    press(&mut app, KeyCode::Char(' '));
    press(&mut app, KeyCode::Enter);
    // The roll answers the input the welcome said is awaited (its id echoed).
    let roll = ClientFrame::Roll { input: Some(0) };
    assert_eq!(outbox(&mut app), vec![roll], "one roll until the server answers");
    // Ann's first turn, then Robo's roll: Robo is awaited.
    let (events, _) = room_game(Rules::default(), 5, usize::MAX);
    let robo = events
        .iter()
        .position(|n| matches!(&n.event, Event::TurnStarted { player, .. } if player == "Robo"))
        .unwrap();
    hear(&mut app, &events[..=robo]);
    assert!(matches!(app.session.awaiting(), Awaiting::Computer { seat: 1 }));
    press(&mut app, KeyCode::Char(' '));
    assert!(outbox(&mut app).is_empty());
    assert!(log(&app).ends_with("Robo's turn: yours comes."), "{}", log(&app));
    assert!(!text(&app, 80, 24).contains(" Space  roll"));
}

#[test]
fn a_turn_whose_clock_ran_out_is_the_servers_computers_on_the_screen_too() {
    // Ann's clock runs out before her first roll: the server tells `timed_out`, and its computer
    // plays her turn.
    let mut session = room_session(Rules::default(), 8);
    let turn = session.time_out(0).unwrap();
    let turn = named(&session, turn);
    let expired = turn.iter().position(|n| matches!(n.event, Event::TimedOut { .. })).unwrap();
    let (events, end) = play_on(session, turn, usize::MAX);
    let mut app = screen_of(Some(0), Rules::default(), true);
    hear(&mut app, &events[..=expired]);
    assert!(matches!(app.session.awaiting(), Awaiting::Computer { seat: 0 }));
    press(&mut app, KeyCode::Char(' '));
    assert!(outbox(&mut app).is_empty(), "no roll for a turn the computer plays");
    assert!(!text(&app, 80, 24).contains(" Space  roll"));
    assert!(
        log(&app).contains("Ann ran out of time: the computer plays the rest"),
        "{}",
        log(&app)
    );
    hear(&mut app, &events[expired + 1..]);
    settle(&mut app);
    assert_eq!(online(&app).lost, None);
    assert_eq!(app.session.game().positions(), end.positions());
    assert_eq!(app.session.game().timed_out(), end.timed_out());
}

#[test]
fn digits_choose_at_a_choice_and_a_hands_the_seat_to_the_servers_computer() {
    let rules = Rules { choice: Choice::PickDie, ..Rules::default() };
    let (events, _) = room_game(rules, 8, usize::MAX);
    let mut app = screen_of(Some(0), rules, true);
    let rolled = events.iter().position(|n| matches!(n.event, Event::DiceRolled { .. })).unwrap();
    hear(&mut app, &events[..=rolled]);
    let Awaiting::Choice(decision) = app.session.awaiting() else { panic!("a choice") };
    let shown = text(&app, 120, 40);
    assert!(shown.contains("choose 1-2") && shown.contains("Choose"), "{shown}");
    press(&mut app, KeyCode::Char('9'));
    assert!(outbox(&mut app).is_empty());
    assert!(log(&app).ends_with("9 is not one of the options: 1 to 2."), "{}", log(&app));
    press(&mut app, KeyCode::Char('2'));
    assert_eq!(outbox(&mut app), vec![ClientFrame::Choose { option: 1, input: None }]);
    assert_eq!(decision.options.len(), 2);
    // The choice played (the server's events), then autopilot asked for and told.
    hear(&mut app, &events[rolled + 1..rolled + 2]);
    press(&mut app, KeyCode::Char('a'));
    assert_eq!(outbox(&mut app), vec![ClientFrame::Autopilot { on: true }]);
    let on = Numbered { seq: 1000, event: Event::Autopilot { player: "Ann".into(), on: true } };
    room::receive(&mut app, Update::Event(on));
    assert!(online(&app).autopilot[0]);
    let shown = text(&app, 120, 40);
    assert!(shown.contains(" a  take back") && shown.contains("autopilot"), "{shown}");
    press(&mut app, KeyCode::Char('a'));
    assert_eq!(outbox(&mut app), vec![ClientFrame::Autopilot { on: false }]);
}

#[test]
fn a_watcher_has_no_roll_keys_and_its_keys_send_nothing() {
    let mut app = screen_of(None, Rules::default(), true);
    let shown = text(&app, 80, 24);
    assert!(shown.contains("watching") && !shown.contains("Space"), "{shown}");
    assert!(!shown.contains(" a  autopilot") && shown.contains(" ?  help"), "{shown}");
    for code in [KeyCode::Char(' '), KeyCode::Char('1'), KeyCode::Char('a'), KeyCode::Char('u')] {
        press(&mut app, code);
    }
    assert!(outbox(&mut app).is_empty());
    assert!(log(&app).contains("You are watching this room"), "{}", log(&app));
    press(&mut app, KeyCode::Char('?'));
    assert!(text(&app, 80, 24).contains("stop watching"));
}

#[test]
fn q_asks_first_then_leaves_keeping_the_seat() {
    let mut app = screen_of(Some(0), Rules::default(), true);
    press(&mut app, KeyCode::Char('q'));
    assert_eq!(app.overlay, Overlay::ConfirmQuit);
    let shown = text(&app, 80, 24);
    assert!(shown.contains("Leave the room?") && shown.contains("seat stays yours"), "{shown}");
    press(&mut app, KeyCode::Char('n'));
    assert_eq!((app.overlay, app.stop.clone()), (Overlay::None, None));
    press(&mut app, KeyCode::Char('q'));
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(app.stop, Some(Stop::Asked));
    assert!(outbox(&mut app).is_empty(), "leaving sends nothing: the seat is not given up");
}

#[test]
fn a_lost_connection_says_reconnecting_and_the_events_missed_are_shown_at_once() {
    let (events, _) = room_game(Rules::default(), 13, 40);
    let mut app = screen_of(Some(0), Rules::default(), false);
    hear(&mut app, &events[..10]);
    settle(&mut app);
    room::receive(&mut app, Update::Reconnecting("connection reset".into()));
    assert_eq!(online(&app).connection, Connection::Reconnecting);
    let shown = text(&app, 80, 24);
    assert!(shown.contains("reconnecting…"), "{shown}");
    let state = state(Rules::default());
    let last = events[29].seq;
    let state = Box::new(state);
    room::receive(&mut app, Update::Welcome { seat: Some(0), seq: last, state });
    for numbered in &events[10..30] {
        room::receive(&mut app, Update::Event(numbered.clone()));
        assert!(!app.animating(), "a missed event is not animated");
    }
    assert!(log(&app).contains("Connected again"), "{}", log(&app));
    assert!(!text(&app, 80, 24).contains("reconnecting"));
    room::receive(&mut app, Update::Event(events[30].clone()));
    room::receive(&mut app, Update::Event(events[31].clone()));
    room::receive(&mut app, Update::Event(events[32].clone()));
    assert_eq!(online(&app).lost, None);
    room::receive(&mut app, Update::Closed("the server could not be reached again".into()));
    assert_eq!(app.stop, Some(Stop::Asked));
}

#[test]
fn a_watcher_before_the_seats_are_taken_learns_the_names_when_the_game_starts() {
    let mut state = state(Rules::default());
    state.seats[0].name = None;
    state.seats[0].open = true;
    let opts = Options { color: true, fast: true, quiet: true, ..Options::default() };
    let mut app = room::app(Online::new(URL, &state).unwrap(), None, opts);
    assert!(text(&app, 120, 40).contains("Seat 1"));
    let (events, _) = room_game(Rules::default(), 2, 6);
    hear(&mut app, &events);
    let shown = text(&app, 120, 40);
    assert!(shown.contains("A Ann") && !shown.contains("Seat 1"), "{shown}");
    assert_eq!(online(&app).lost, None);
}

/// Ann's screen a few turns in, the animation over.
fn mid_way(me: Option<usize>) -> App {
    let (events, _) = room_game(Rules::default(), 21, 30);
    let mut app = screen_of(me, Rules::default(), true);
    let chat =
        Numbered { seq: 31, event: Event::Chat { player: "Ann".into(), text: "gl hf".into() } };
    hear(&mut app, &events);
    room::receive(&mut app, Update::Event(chat));
    settle(&mut app);
    app
}

#[test]
fn layout_online_mid_way() {
    let app = mid_way(Some(0));
    insta::assert_snapshot!("layout_online_mid_way_80x24", screen(&app, 80, 24));
    insta::assert_snapshot!("layout_online_mid_way_120x40", screen(&app, 120, 40));
}

#[test]
fn layout_online_watcher() {
    let app = mid_way(None);
    insta::assert_snapshot!("layout_online_watcher_80x24", screen(&app, 80, 24));
    insta::assert_snapshot!("layout_online_watcher_120x40", screen(&app, 120, 40));
}

#[test]
fn join_and_watch_end_with_the_achievements_the_server_says_the_game_earned() {
    let (events, end) = room_game(Rules::default(), 40, usize::MAX);
    // The end's awaiting frame as the server writes it (`snl_wire::views::award_line`).
    let awards: Vec<_> = snl_session::achievements::of_game(&end)
        .into_iter()
        .map(|a| {
            let key = a.achievement.key();
            AwardLine { seat: a.seat, achievement: key.into(), text: snl_words::earned(key) }
        })
        .collect();
    let winner = end.ranking()[0];
    assert!(awards.iter().any(|a| a.seat == winner && a.achievement == "first_win"), "{awards:?}");
    let name = &end.seats()[winner].name;
    for me in [Some(0), None] {
        let mut app = screen_of(me, Rules::default(), true);
        hear(&mut app, &events);
        settle(&mut app);
        // Until the server says what the game earned, the end shows none (nothing is guessed).
        assert!(!text(&app, 80, 24).contains("Achievements"), "{}", text(&app, 80, 24));
        room::receive(&mut app, Update::Awaiting(None, awards.clone()));
        for (width, height) in [(80, 24), (120, 40)] {
            let shown = text(&app, width, height);
            assert!(shown.contains("Achievements earned:"), "{shown}");
            assert!(shown.contains(&format!("{name} — First win: won a game")), "{shown}");
        }
    }
}

#[test]
fn join_and_watch_say_a_race_is_one_and_when_it_is_over() {
    let rules = crate::tests::race_rules(2);
    let (events, end) = room_game(rules, 5, usize::MAX);
    assert_eq!(end.turns(), 4, "two rounds of two seats");
    for me in [Some(0), None] {
        let mut app = screen_of(me, rules, true);
        let first = text(&app, 80, 24);
        assert!(first.lines().next().unwrap().contains("race · round 1 of 2"), "{first}");
        hear(&mut app, &events);
        settle(&mut app);
        let last = text(&app, 120, 40);
        assert!(last.lines().next().unwrap().contains("race over"), "{last}");
        for seat in 0..2 {
            let words = snl_words::standing(end.ranks()[seat], end.position(seat), 100);
            assert!(last.contains(&words), "{words}:\n{last}");
        }
    }
}

/// A room of [`state`] with a 30-second turn clock and a 10-minute game clock, welcomed with
/// `turn_left_ms` and `game_left_ms` left; the screen's clocks read a pretend time that moves
/// 5 seconds at each [`crate::clocks::Clock::waited`].
fn timed_screen(me: Option<usize>, turn_left_ms: u64, game_left_ms: u64) -> App {
    let mut state = state(Rules::default());
    (state.turn_time, state.game_time) = (Some(30), Some(600));
    (state.turn_left_ms, state.game_left_ms) = (Some(turn_left_ms), Some(game_left_ms));
    let opts = Options { color: true, fast: true, quiet: true, ..Options::default() };
    let mut online = Online::new(URL, &state).unwrap();
    online.clocks = crate::clocks::Clocks::new(Some(30), Some(600), Some(5_000));
    let mut app = room::app(online, me, opts);
    room::receive(&mut app, Update::Welcome { seat: me, seq: 0, state: Box::new(state) });
    app
}

fn wait_5s(app: &mut App) {
    app.mode.room_mut().unwrap().clocks.as_mut().unwrap().clock().waited();
    update(app, Action::Tick);
}

#[test]
fn join_and_watch_show_the_turn_and_game_clocks_counting_from_what_the_server_says() {
    for me in [Some(0), None] {
        let mut app = timed_screen(me, 17_500, 587_500);
        let screen = text(&app, 120, 40);
        assert!(screen.contains("⏱ turn 0:18 · game 9:48"), "{screen}");
        wait_5s(&mut app);
        wait_5s(&mut app);
        let screen = text(&app, 80, 24);
        assert!(screen.contains("⏱ turn 0:08 · game 9:38"), "{screen}");
        // Ann rolls and Robo plays: Ann's next roll has the whole 30 seconds again.
        let (events, _) = room_game(Rules::default(), 21, usize::MAX);
        let mut anns = events.iter().enumerate().filter(
            |(_, n)| matches!(&n.event, Event::TurnStarted { player, .. } if player == "Ann"),
        );
        let back = anns.nth(1).unwrap().0;
        hear(&mut app, &events[..=back]);
        settle(&mut app);
        update(&mut app, Action::Tick);
        let screen = text(&app, 120, 40);
        assert!(screen.contains("⏱ turn 0:30 · game 9:38"), "{screen}");
    }
}

#[test]
fn c_opens_a_chat_line_that_enter_sends_and_esc_drops() {
    let mut app = mid_way(Some(0));
    assert!(text(&app, 80, 24).contains(" c  chat"), "{}", text(&app, 80, 24));
    press(&mut app, KeyCode::Char('c'));
    for c in "gg wp q".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::Backspace);
    let screen = text(&app, 80, 24);
    assert!(screen.contains("Say: gg wp▏") && screen.contains(" Enter  send"), "{screen}");
    assert!(app.stop.is_none(), "q went into the line, not to the quit question");
    press(&mut app, KeyCode::Enter);
    assert_eq!(outbox(&mut app), vec![ClientFrame::Chat { text: "gg wp".into() }]);
    press(&mut app, KeyCode::Char('c'));
    press(&mut app, KeyCode::Char('x'));
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('c'));
    press(&mut app, KeyCode::Enter);
    assert_eq!(outbox(&mut app), vec![], "a dropped line and an empty one send nothing");
    assert!(!text(&app, 80, 24).contains("Say:"));
    // A watcher has no seat to speak from: c is not a key there.
    let mut watcher = mid_way(None);
    press(&mut watcher, KeyCode::Char('c'));
    assert!(watcher.mode.room().unwrap().chat.is_none());
}

#[test]
fn join_and_watch_draw_every_preset_a_random_board_and_a_board_file() {
    for (spec, name) in crate::tests::every_board() {
        for me in [Some(0), None] {
            let mut state = state(Rules::default());
            (state.board, state.board_name) = (spec.clone(), name.to_owned());
            let opts = Options { color: true, fast: true, quiet: true, ..Options::default() };
            let mut app = room::app(Online::new(URL, &state).unwrap(), me, opts);
            room::receive(&mut app, Update::Welcome { seat: me, seq: 0, state: Box::new(state) });
            let screen = text(&app, 130, 40);
            let header = screen.lines().next().unwrap_or_default();
            let place = if me.is_some() { "online" } else { "watching" };
            assert!(header.contains(&format!(" {name} · {place} · turn 1")), "{header}");
            assert!(screen.contains(&format!("{} cells", spec.size)), "{name}:\n{screen}");
        }
    }
}

#[test]
fn when_the_game_clock_runs_out_the_watchers_screen_says_so_and_ends_with_the_round() {
    // The server's game clock runs out once five turns were played: it tells `time_up`, the
    // round in play is completed and the game ends, everyone ranked by position.
    let mut session = room_session(Rules::default(), 12);
    let mut events = Vec::new();
    while session.game().turns() < 5 || session.game().in_turn() {
        let batch = match session.awaiting() {
            Awaiting::Computer { .. } => session.play_computer().unwrap(),
            Awaiting::Roll { seat } => session.act(seat, Intent::Roll).unwrap(),
            other => panic!("{other:?}"),
        };
        events.extend(named(&session, batch));
    }
    let up = session.time_up().unwrap();
    events.extend(named(&session, up));
    let (events, end) = play_on(session, events, usize::MAX);
    assert!(end.time_up().is_some());
    let mut app = screen_of(None, Rules::default(), true);
    hear(&mut app, &events);
    settle(&mut app);
    assert_eq!(online(&app).lost, None);
    assert_eq!(app.session.game().ranking(), end.ranking());
    assert!(matches!(app.session.awaiting(), Awaiting::Over));
    let time_up = "Time is up: the game ends with this round.";
    assert!(log(&app).contains(time_up), "{}", log(&app));
    let shown = text(&app, 130, 40);
    assert!(shown.contains("Time is up"), "{shown}");
}

/// One event of the room as the server numbers it.
fn told(seq: u64, event: Event<String>) -> Numbered<String> {
    Numbered { seq, event }
}

#[test]
fn join_and_watch_show_a_dropped_seat_kept_counting_down_its_turn_clock_paused_and_its_return() {
    // A watcher's screen (a seated person's is the same screen, `snl join`).
    {
        let mut app = timed_screen(None, 17_500, 587_500);
        let step = std::time::Duration::from_secs(5);
        online_mut(&mut app).time =
            crate::clocks::Clock::Pretend { now: std::time::Duration::ZERO, step };
        let ann = || "Ann".to_owned();
        hear(
            &mut app,
            &[
                told(1, Event::Presence { player: ann(), online: false }),
                told(2, Event::GraceStarted { player: ann(), seconds: 120 }),
            ],
        );
        update(&mut app, Action::Tick);
        let screen = text(&app, 120, 40);
        assert!(screen.contains("seat kept 2:00"), "{screen}");
        assert!(screen.contains("⏱ turn 0:18 paused · game 9:48"), "{screen}");
        assert!(log(&app).contains("Ann dropped: the seat is kept for 2:00"), "{}", log(&app));
        // Time passes: the grace counts down, Ann's turn clock stays where it was.
        online_mut(&mut app).time.waited();
        wait_5s(&mut app);
        let screen = text(&app, 120, 40);
        assert!(screen.contains("seat kept 1:55"), "{screen}");
        assert!(screen.contains("⏱ turn 0:18 paused · game 9:43"), "{screen}");

        // She is back within the grace: the seat is hers, her clock runs on from 0:18.
        hear(
            &mut app,
            &[
                told(3, Event::Presence { player: ann(), online: true }),
                told(4, Event::SeatReturned { player: ann() }),
            ],
        );
        wait_5s(&mut app);
        let screen = text(&app, 120, 40);
        assert!(!screen.contains("seat kept"), "{screen}");
        assert!(screen.contains("⏱ turn 0:13 · game 9:38"), "{screen}");
        assert!(log(&app).contains("Ann is back"), "{}", log(&app));
        assert!(log(&app).contains("Ann took the seat back"), "{}", log(&app));
        assert_eq!(online(&app).lost, None, "the screen follows the game on");
    }
}

#[test]
fn a_screen_that_joins_during_a_grace_counts_from_what_the_server_says() {
    let mut state = state(Rules::default());
    state.seats[0].online = false;
    state.seats[0].grace_left_ms = Some(61_500);
    let opts = Options { color: true, fast: true, quiet: true, ..Options::default() };
    let mut online = Online::new(URL, &state).unwrap();
    // The graces count on a clock standing at 0: the welcome's 61.5 s show as 1:02.
    let (now, step) = (std::time::Duration::ZERO, std::time::Duration::ZERO);
    online.time = crate::clocks::Clock::Pretend { now, step };
    let mut app = room::app(online, None, opts);
    room::receive(&mut app, Update::Welcome { seat: None, seq: 0, state: Box::new(state) });
    let screen = text(&app, 120, 40);
    assert!(screen.contains("away, seat kept 1:02"), "{screen}");
}

fn online_mut(app: &mut App) -> &mut Online {
    app.mode.room_mut().unwrap()
}
