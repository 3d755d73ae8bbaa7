//! The replay viewer without a terminal: a game played to its end through a session (the tokens
//! noted after every turn as it was played), then replayed by keys through the action and update
//! layer, and drawn into ratatui's test backend.

use crossterm::event::KeyCode;
use snl_engine::{Board, Choice, Game, Preset, Rules, Seat, SeatKind};
use snl_session::{Awaiting, Intent, Session};
use snl_store::DiceState;

use crate::seated::Kept;
use crate::{
    action::Action,
    app::{App, Mode, Options, Stop},
    replay::{Recording, Replay},
    tests::{press, screen, text},
    update::update,
};

const SEATS: [(&str, SeatKind); 3] =
    [("Ann", SeatKind::Human), ("王小明", SeatKind::Hard), ("Bob", SeatKind::Easy)];

/// A game on the classic board played to its end with seeded dice (people take option 1), and
/// the tokens after each turn, as it was played.
fn played(rules: Rules, seed: u64) -> (Game, DiceState, Vec<Vec<u32>>) {
    played_until(rules, seed, |_| false)
}

/// As [`played`], stopping early where `stop` says.
fn played_until(
    rules: Rules,
    seed: u64,
    stop: impl Fn(&Session) -> bool,
) -> (Game, DiceState, Vec<Vec<u32>>) {
    let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
    let seats = SEATS.iter().map(|(n, k)| Seat::new(*n, *k)).collect();
    let game = Game::new(board, rules, seats).unwrap();
    let mut session = Session::new(game, DiceState::seeded(seed), "classic");
    let mut after = vec![session.game().positions()];
    while !stop(&session) {
        match session.awaiting() {
            Awaiting::Over => break,
            Awaiting::Computer { .. } => session.play_computer().unwrap(),
            Awaiting::Roll { seat } => session.act(seat, Intent::Roll).unwrap(),
            Awaiting::Choice(d) => session.act(d.seat, Intent::Choose { option: 0 }).unwrap(),
        };
        let game = session.game();
        if !game.in_turn() && game.turns() as usize == after.len() {
            after.push(game.positions());
        }
    }
    (session.game().clone(), session.dice().clone(), after)
}

/// The viewer of `game`, paused before its first turn.
fn viewer(game: &Game, dice: DiceState, fast: bool) -> App {
    let recording = Recording::new(game, dice, "classic").unwrap();
    let session = recording.session_at(0);
    let intro = "Replay of game 7.";
    let replay = Replay::new(recording, "game 7", intro, 1.0);
    let opts = Options { color: true, fast, quiet: true, ..Options::default() };
    let mut app = App::new(session, Kept::default(), opts, false, Some(intro.to_owned()));
    app.mode = Mode::Replay(replay);
    app
}

fn at(app: &App) -> usize {
    app.mode.replay().unwrap().at
}

fn playing(app: &App) -> bool {
    app.mode.replay().unwrap().playing
}

/// Ticks until the animation is over.
fn settle(app: &mut App) {
    for _ in 0..10_000 {
        if !app.animating() {
            return;
        }
        update(app, Action::Tick);
    }
    panic!("the animation did not end");
}

fn typed(app: &mut App, keys: &str) {
    for c in keys.chars() {
        press(app, KeyCode::Char(c));
    }
    press(app, KeyCode::Enter);
}

/// The viewer paused half-way through a seeded game.
fn mid_way() -> App {
    let (game, dice, after) = played(Rules::default(), 7);
    let mut app = viewer(&game, dice, false);
    typed(&mut app, &(after.len() / 2).to_string());
    app
}

#[test]
fn layout_replay_mid_way_paused() {
    let app = mid_way();
    insta::assert_snapshot!("layout_replay_mid_way_paused_80x24", screen(&app, 80, 24));
    insta::assert_snapshot!("layout_replay_mid_way_paused_120x40", screen(&app, 120, 40));
    let small = text(&app, 80, 24);
    let turns = app.mode.replay().unwrap().recording.turns();
    assert!(small.contains(&format!("turn {} of {turns}", turns.div_ceil(2))), "{small}");
    assert!(small.contains("paused 1×") && small.contains(" Space  play"), "{small}");
    assert!(small.contains(" ← →  step") && small.contains(" q  quit"), "{small}");
    let large = text(&app, 120, 40);
    assert!(large.contains(" Home End  ends"), "the larger screen has room for it:\n{large}");
}

#[test]
fn stepping_back_and_forth_lands_on_the_positions_of_each_turn_as_played() {
    let (game, dice, after) = played(Rules::default(), 7);
    let last = after.len() - 1;
    assert!(last > 10, "a game of {last} turns");
    let mut app = viewer(&game, dice, false);
    assert_eq!(app.session.game().positions(), after[0]);
    for (k, positions) in after.iter().enumerate().skip(1) {
        press(&mut app, KeyCode::Right);
        settle(&mut app);
        assert_eq!(at(&app), k);
        assert_eq!(&app.session.game().positions(), positions, "after turn {k}");
        assert_eq!(app.shown, *positions, "the tokens drawn after turn {k}");
    }
    press(&mut app, KeyCode::Right);
    assert_eq!(at(&app), last, "no step past the end");
    for k in (0..last).rev() {
        press(&mut app, KeyCode::Left);
        assert_eq!(app.session.game().positions(), after[k], "back to turn {k}");
        assert_eq!(app.shown, after[k]);
        assert_eq!(app.session.game().turns() as usize, k);
    }
    press(&mut app, KeyCode::Left);
    assert_eq!(at(&app), 0, "no step before the start");
    press(&mut app, KeyCode::Char(']'));
    assert_eq!(app.session.game().positions(), after[10]);
    press(&mut app, KeyCode::Char(','));
    assert_eq!(app.session.game().positions(), after[9]);
    press(&mut app, KeyCode::Char('['));
    assert_eq!(app.session.game().positions(), after[0]);
}

#[test]
fn a_point_reached_by_a_jump_shows_what_stepping_there_shows() {
    let (game, dice, after) = played(Rules::default(), 7);
    let k = after.len() / 3;
    let mut stepped = viewer(&game, dice.clone(), true);
    for _ in 0..k {
        press(&mut stepped, KeyCode::Char('.'));
    }
    let mut jumped = viewer(&game, dice, true);
    press(&mut jumped, KeyCode::End);
    typed(&mut jumped, &k.to_string());
    assert_eq!(at(&jumped), k);
    assert_eq!(jumped.log, stepped.log, "the log at turn {k}");
    assert_eq!(jumped.die, stepped.die);
    assert_eq!(text(&jumped, 80, 24), text(&stepped, 80, 24));
}

#[test]
fn seeking_to_the_end_shows_the_ranking_and_home_goes_back_to_the_start() {
    let (game, dice, after) = played(Rules::default(), 7);
    let mut app = viewer(&game, dice, false);
    press(&mut app, KeyCode::End);
    assert_eq!(app.session.game().positions(), *after.last().unwrap());
    assert!(matches!(app.session.awaiting(), Awaiting::Over));
    let end = text(&app, 80, 24);
    let names = ["Ann", "王小明", "Bob"];
    let winner = names[game.ranking()[0]];
    assert!(end.contains(&format!("{winner} wins!")), "{end}");
    for (rank, &seat) in game.ranking().iter().enumerate() {
        assert!(end.contains(&format!("{}. ", rank + 1)) && end.contains(names[seat]), "{end}");
    }
    assert!(end.contains("← steps back"), "{end}");
    assert!(app.log.iter().any(|s| s.text.contains(&format!("{winner} reached 100"))));
    press(&mut app, KeyCode::Home);
    assert_eq!(app.session.game().positions(), [0, 0, 0]);
    assert_eq!(app.log.len(), 1, "only the introduction: {:?}", app.log);
    assert_eq!(app.die, None);
    assert!(!text(&app, 80, 24).contains("wins!"));
}

#[test]
fn a_typed_turn_number_goes_there_and_one_past_the_end_says_so() {
    let (game, dice, after) = played(Rules::default(), 7);
    let mut app = viewer(&game, dice, true);
    press(&mut app, KeyCode::Char('1'));
    press(&mut app, KeyCode::Char('9'));
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::Char('2'));
    assert!(text(&app, 80, 24).contains("go to turn 12_"));
    assert!(text(&app, 80, 24).contains(" Enter  go there"));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.session.game().positions(), after[12]);
    assert!(text(&app, 80, 24).contains(&format!("turn 12 of {}", after.len() - 1)));
    typed(&mut app, "9999");
    assert_eq!(at(&app), after.len() - 1);
    let said = &app.log.back().unwrap().text;
    assert_eq!(*said, format!("The game has {} turns: 9999 is past its end.", after.len() - 1));
    press(&mut app, KeyCode::Char('3'));
    press(&mut app, KeyCode::Esc);
    assert!(app.mode.replay().unwrap().typed.is_empty());
    assert_eq!(app.stop, None, "Esc forgot the number and stayed");
}

#[test]
fn playing_runs_to_the_end_and_pauses_there_at_any_speed() {
    let (game, dice, after) = played(Rules::default(), 7);
    let mut app = viewer(&game, dice, false);
    press(&mut app, KeyCode::Char(' '));
    assert!(playing(&app));
    assert!(text(&app, 80, 24).contains("▶ playing 1×"));
    for _ in 0..200 {
        update(&mut app, Action::Tick);
    }
    let early = at(&app);
    assert!(early > 0 && early < after.len() - 1, "at turn {early} after 200 ticks at 1×");
    press(&mut app, KeyCode::Char(' '));
    assert!(!playing(&app) && !app.animating(), "a pause settles the move in flight");
    assert_eq!(app.shown, after[early]);
    for _ in 0..10 {
        press(&mut app, KeyCode::Char('+'));
    }
    assert!(text(&app, 80, 24).contains("paused 64×"));
    press(&mut app, KeyCode::Char(' '));
    for _ in 0..10_000 {
        if !playing(&app) {
            break;
        }
        update(&mut app, Action::Tick);
    }
    assert_eq!(at(&app), after.len() - 1);
    settle(&mut app);
    assert_eq!(app.shown, *after.last().unwrap());
    assert!(text(&app, 80, 24).contains("wins!"));
    for _ in 0..10 {
        press(&mut app, KeyCode::Char('-'));
    }
    assert!(text(&app, 80, 24).contains("paused ¼×"));
    press(&mut app, KeyCode::Char(' '));
    assert_eq!((at(&app), playing(&app)), (0, true), "at the end, Space plays from the start");
}

#[test]
fn a_game_kept_at_a_choice_replays_to_the_roll_awaiting_it() {
    let rules = Rules { choice: Choice::PickDie, ..Rules::default() };
    // Stopped at the first person's choice after turn 4.
    let at_choice =
        |s: &Session| s.game().turns() >= 4 && matches!(s.awaiting(), Awaiting::Choice(_));
    let (cut, dice, after) = played_until(rules, 3, at_choice);
    assert!(cut.in_turn());
    let mut app = viewer(&cut, dice, true);
    press(&mut app, KeyCode::End);
    assert!(app.session.game().in_turn());
    let shown = text(&app, 80, 24);
    assert!(shown.contains("in flight") && !shown.contains("Choose"), "{shown}");
    assert_eq!(app.session.game().positions(), cut.positions());
    press(&mut app, KeyCode::Left);
    assert_eq!(app.session.game().positions(), *after.last().unwrap());
    assert_eq!(app.session.game().turns(), cut.turns() - 1, "the turn in flight is gone");
}

#[test]
fn the_help_lists_the_replay_keys_and_q_leaves_without_a_question() {
    let (game, dice, _) = played(Rules::default(), 7);
    let mut app = viewer(&game, dice, true);
    press(&mut app, KeyCode::Char('?'));
    let help = text(&app, 80, 24);
    for keys in
        ["play, pause", "one turn back", "go to a turn", "faster, slower", "leave the replay"]
    {
        assert!(help.contains(keys), "{keys} missing:\n{help}");
    }
    insta::assert_snapshot!("layout_replay_help_80x24", screen(&app, 80, 24));
    press(&mut app, KeyCode::Char('x'));
    assert!(!text(&app, 80, 24).contains("leave the replay"));
    press(&mut app, KeyCode::Char('q'));
    assert_eq!(app.stop, Some(Stop::Over));
}

#[test]
fn a_game_whose_clock_ran_out_replays_to_where_it_ended() {
    let stop = |s: &Session| s.game().turns() >= 6 && !s.game().in_turn();
    let (mut game, dice, _) = played_until(Rules::default(), 7, stop);
    game.apply(snl_engine::Input::TimeUp).unwrap();
    let game = Game::restore(&game.state()).unwrap();
    assert!(game.time_up().is_some());
    let mut app = viewer(&game, dice, true);
    press(&mut app, KeyCode::End);
    assert_eq!(app.session.game().positions(), game.positions());
    assert_eq!(app.session.game().status(), game.status());
    assert_eq!(app.session.game().ranking(), game.ranking());
}

#[test]
fn a_turn_whose_clock_ran_out_replays_with_its_timed_out_line() {
    let stop = |s: &Session| s.game().turns() >= 4 && !s.game().in_turn();
    let (mut game, mut dice, _) = played_until(Rules::default(), 7, stop);
    let seat = game.current();
    game.apply(snl_engine::Input::TurnTimeUp).unwrap();
    while let snl_engine::Pending::Roll { seat, dice: d, .. } = game.pending() {
        let roll = snl_engine::RollSource::roll(&mut dice, seat, d).unwrap();
        game.apply(snl_engine::Input::Roll { roll }).unwrap();
        if !game.in_turn() {
            break;
        }
    }
    let game = Game::restore(&game.state()).unwrap();
    assert_eq!(game.timed_out().len(), 1);
    let mut app = viewer(&game, dice, true);
    press(&mut app, KeyCode::End);
    assert_eq!(app.session.game().state(), game.state());
    let name = &game.seats()[seat].name;
    let line = format!("{name} ran out of time");
    assert!(app.log.iter().any(|s| s.text.contains(&line)), "{:?}", app.log);
}

#[test]
fn each_point_opens_its_session_at_the_number_a_replay_of_its_history_counts() {
    let (game, dice, _) = played(Rules::default(), 4);
    let recording = Recording::new(&game, dice.clone(), "classic").unwrap();
    let last = recording.last();
    for k in [0, 1, 2, last / 2, last - 1, last] {
        let at = recording.session_at(k);
        let counted = Session::new(at.game().clone(), dice.clone(), "classic");
        assert_eq!(at.seq(), counted.seq(), "point {k} of {last}");
    }
    assert!(recording.session_at(last).seq() > 0);
}

#[test]
fn a_replayed_race_says_its_round_and_that_it_is_over_at_the_end() {
    let (game, dice, after) = played(crate::tests::race_rules(3), 7);
    assert_eq!(after.len() - 1, 9, "three rounds of three seats");
    let mut app = viewer(&game, dice, false);
    let header = |app: &App| text(app, 80, 24).lines().next().unwrap_or_default().to_owned();
    assert!(header(&app).contains("race · round 1 of 3"), "{}", header(&app));
    typed(&mut app, "4");
    assert!(header(&app).contains("race · round 2 of 3 · turn 4 of 9"), "{}", header(&app));
    press(&mut app, KeyCode::End);
    settle(&mut app);
    let screen = text(&app, 120, 40);
    assert!(screen.lines().next().unwrap().contains("race over"), "{screen}");
    let ranked = app.session.game().ranks().iter().filter(|r| r.is_some()).count();
    assert_eq!(ranked, 3, "everyone ranked at the race's end");
}

#[test]
fn the_chat_said_in_the_room_is_in_the_log_after_the_events_told_before_it() {
    let (game, dice, _) = played(Rules::default(), 3);
    let plain = Recording::new(&game, dice.clone(), "classic").unwrap();
    let end_of_third = plain.steps[2].last().unwrap().seq;
    let line = |at: u64, player: &str, text: &str| snl_wire::ChatEntry {
        at,
        player: player.into(),
        text: text.into(),
    };
    let chat =
        [line(0, "Ann", "hi"), line(end_of_third, "Bob", "nice"), line(end_of_third, "Ann", "ty")];
    let with = Recording::new(&game, dice, "classic").unwrap().with_chat(&chat);
    let texts = |k: usize| with.said[k].iter().map(|s| s.text.clone()).collect::<Vec<_>>();
    assert_eq!(texts(0)[0], "Ann: hi");
    assert_eq!(texts(0)[1..], plain.said[0].iter().map(|s| s.text.clone()).collect::<Vec<_>>()[..]);
    let third = texts(2);
    assert_eq!(third[third.len() - 2..], ["Bob: nice".to_owned(), "Ann: ty".to_owned()]);
    assert_eq!(third.len(), plain.said[2].len() + 2);
    for k in [1, 3, 4] {
        assert_eq!(with.said[k].len(), plain.said[k].len(), "step {k} has no chat");
    }
}

#[test]
fn in_a_replay_d_shows_each_seats_faces_up_to_the_turn_shown_counted_by_hand() {
    let (game, dice, _) = played(Rules::default(), 7);
    let mut app = viewer(&game, dice, true);
    for _ in 0..6 {
        press(&mut app, KeyCode::Right);
    }
    assert_eq!(at(&app), 6);
    press(&mut app, KeyCode::Char('d'));
    let shown = text(&app, 130, 40);
    // Counted here from the record: the rolls of the first six turns, seat by seat.
    for (seat, s) in game.seats().iter().enumerate() {
        let mut counts = [0_u64; 6];
        for m in game.history().iter().filter(|m| m.turn <= 6 && m.seat == seat) {
            for &face in m.roll.dice() {
                counts[usize::from(face) - 1] += 1;
            }
        }
        let throws: u64 = counts.iter().sum();
        let faces: Vec<String> = counts.iter().zip(1..).map(|(c, f)| format!("{f}:{c}")).collect();
        let line =
            format!("{throws} throw{} · {}", if throws == 1 { "" } else { "s" }, faces.join(" "));
        assert!(throws == 0 || shown.contains(&line), "{} {line} missing:\n{shown}", s.name);
    }
    assert!(shown.contains("snl stats --dice counts each player's history"), "{shown}");
    press(&mut app, KeyCode::Char('x'));
    assert_eq!(at(&app), 6, "the panel's key changes nothing else");
    press(&mut app, KeyCode::Char('?'));
    assert!(text(&app, 80, 24).contains("dice so far"));
}
