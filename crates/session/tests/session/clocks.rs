//! A person's turn clock running out in a session (`Session::time_out`): the expiry is an input
//! kept in the history, so the save file replays `timed_out` where it was told, a resumed
//! session numbers on from the same place, and undo and redo take it back and put it back.

use snl_engine::{
    Board, Event, Game, Numbered, Pending, Preset, RuleSpec, Rules, Seat, SeatKind, Status,
};
use snl_session::{Awaiting, Intent, SaveFile, Session, SessionError};
use snl_store::{DiceState, Save};

fn game(rules: Rules) -> Game {
    let board = Board::new(&Preset::Party.spec(), &rules).unwrap();
    let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Robo", SeatKind::Greedy)];
    Game::new(board, rules, seats).unwrap()
}

fn may_pass() -> Rules {
    let mut rules = Rules::default();
    rules.apply(&RuleSpec { choice: Some("may-pass".into()), ..RuleSpec::default() }).unwrap();
    rules
}

/// Plays until Ann is awaited (a roll or a choice), the computer's turns included.
fn to_ann(session: &mut Session, told: &mut Vec<Numbered<usize>>) {
    while let Awaiting::Computer { .. } = session.awaiting() {
        told.extend(session.play_computer().unwrap());
    }
}

fn events(told: &[Numbered<usize>]) -> Vec<Event> {
    told.iter().map(|n| n.event.clone()).collect()
}

#[test]
fn a_timed_out_turn_is_kept_in_the_save_and_replays_with_its_timed_out_line() {
    let dir = std::env::temp_dir().join(format!("snl-session-clocks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.snl");
    let g = game(may_pass());
    let dice = DiceState::seeded(11);
    let mut session = Session::new(g, dice, "party");
    let file = SaveFile::start(&path, &session.save()).unwrap();
    session.record_with(Box::new(file));
    let mut told = Vec::new();
    // Ann times out at her first turn (before the game's first roll), then rolls herself,
    // then times out at a choice.
    told.extend(session.time_out(0).unwrap());
    assert!(matches!(told[0].event, Event::GameStarted { .. }), "{told:?}");
    assert_eq!(told[1].event, Event::TimedOut { player: 0 });
    let mut at_choice = false;
    for _ in 0..40 {
        to_ann(&mut session, &mut told);
        match session.awaiting() {
            Awaiting::Roll { seat } => told.extend(session.act(seat, Intent::Roll).unwrap()),
            Awaiting::Choice(d) => {
                told.extend(session.time_out(d.seat).unwrap());
                at_choice = true;
                break;
            }
            _ => break,
        }
    }
    assert!(at_choice, "a choice came");
    let timed: Vec<u64> =
        told.iter().filter(|n| matches!(n.event, Event::TimedOut { .. })).map(|n| n.seq).collect();
    assert_eq!(timed.len(), 2);
    assert_eq!(session.game().timed_out().len(), 2);
    session.stop();

    // The save replays every event told, `timed_out` in its place.
    let save = Save::read(&path).unwrap();
    assert_eq!(save.game.timed_out, session.game().timed_out());
    let mut again = Vec::new();
    Game::replay(&save.game, &mut again).unwrap();
    assert_eq!(again, events(&told));
    // A session over the saved game numbers on after the last event told.
    let resumed = Session::new(save.restore().unwrap(), save.dice.clone(), "party");
    assert_eq!(resumed.seq(), told.last().unwrap().seq);
    // Opened at a number known already (no replay), it goes on from that number, and numbers
    // the lines a front end adds to its stream (presence, chat) in the same run.
    let last = told.last().unwrap().seq;
    let mut at = Session::at(save.restore().unwrap(), save.dice.clone(), "party", last + 5);
    assert_eq!(at.seq(), last + 5);
    let chat = at.tell_aside(Event::Chat { player: "Ann".to_owned(), text: "gg".to_owned() });
    assert_eq!(chat.seq, last + 6);
    assert_eq!(at.seq(), last + 6);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn undo_takes_back_a_timed_out_turn_with_its_expiry_and_redo_puts_both_back() {
    let mut session = Session::new(game(Rules::default()), DiceState::seeded(3), "party");
    session.act(0, Intent::Roll).unwrap();
    let mut told = Vec::new();
    to_ann(&mut session, &mut told);
    let before = session.game().state();
    let timed = session.time_out(0).unwrap();
    assert_eq!(timed[0].event, Event::TimedOut { player: 0 });
    to_ann(&mut session, &mut told);
    let after = session.game().state();
    assert_eq!(after.timed_out.len(), 1);

    session.act(0, Intent::Undo).unwrap();
    assert_eq!(session.game().state(), before, "the expiry went with the turn");
    let redone = session.act(0, Intent::Redo).unwrap();
    assert!(redone.iter().any(|n| n.event == Event::TimedOut { player: 0 }), "{redone:?}");
    assert_eq!(session.game().state(), after);
}

#[test]
fn a_timed_out_turn_is_the_computers_to_the_end_and_dice_that_cannot_roll_change_nothing() {
    let rules = Rules::default();
    let dice = DiceState::Scripted(snl_engine::ScriptedDice::parse("3, 2", rules.dice).unwrap());
    let mut session = Session::new(game(rules), dice, "party");
    session.act(0, Intent::Roll).unwrap();
    assert_eq!(session.awaiting(), Awaiting::Computer { seat: 1 });
    let _ = session.play_computer();
    // The scripted rolls ran out: Ann's clock runs out, but nothing can be played.
    if let Awaiting::Roll { seat: 0 } = session.awaiting() {
        let before = session.game().state();
        assert!(matches!(session.time_out(0), Err(SessionError::Dice(_))));
        assert_eq!(session.game().state(), before);
        assert!(!session.game().turn_timed_out());
    } else {
        panic!("Ann is awaited: {:?}", session.awaiting());
    }

    // A timed-out turn in play (restored mid-turn) is the computer's: Ann cannot act in it.
    let mut g = game(may_pass());
    let mut dice = DiceState::seeded(5);
    while let Pending::Roll { seat, dice: d, .. } = g.pending() {
        let roll = snl_engine::RollSource::roll(&mut dice, seat, d).unwrap();
        g.apply(snl_engine::Input::Roll { roll }).unwrap();
        assert!(g.status() != Status::Finished, "a choice comes before the end");
        if let Pending::Choice(d) = g.pending()
            && d.seat == 0
        {
            break;
        }
        while let Pending::Choice(_) = g.pending() {
            g.apply(snl_engine::Input::Choose { option: 0 }).unwrap();
        }
    }
    g.apply(snl_engine::Input::TurnTimeUp).unwrap();
    let restored = Game::restore(&g.state()).unwrap();
    let mut session = Session::new(restored, dice, "party");
    assert_eq!(session.awaiting(), Awaiting::Computer { seat: 0 });
    assert_eq!(
        session.act(0, Intent::Choose { option: 0 }),
        Err(SessionError::NotAPerson { seat: 0 })
    );
    let played = session.time_out(0).unwrap();
    assert!(played.iter().all(|n| n.event != Event::TimedOut { player: 0 }), "told once only");
    assert!(!session.game().turn_timed_out());
}
