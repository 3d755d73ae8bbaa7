//! A session on a board with cell effects: its dice give the wormholes' draws exactly as the
//! engine's driver draws them, and undo and redo take back and put back turns with draws, shields
//! and skips.

use snl_engine::{Board, FirstOption, Game, Preset, Rules, Seat, SeatKind, SeededDice, Status};
use snl_session::{Awaiting, Intent, Session};
use snl_store::DiceState;

fn party_game(kinds: [SeatKind; 2]) -> Game {
    let rules = Rules::default();
    let board = Board::new(&Preset::Party.spec(), &rules).unwrap();
    let seats = vec![Seat::new("Ann", kinds[0]), Seat::new("Bob", kinds[1])];
    Game::new(board, rules, seats).unwrap()
}

/// Plays the session to the end, a person's seat rolling whenever awaited.
fn play_out(session: &mut Session) {
    loop {
        match session.awaiting() {
            Awaiting::Over => break,
            Awaiting::Computer { .. } => {
                session.play_computer().unwrap();
            }
            Awaiting::Roll { seat } => {
                session.act(seat, Intent::Roll).unwrap();
            }
            Awaiting::Choice(d) => {
                session.act(d.seat, Intent::Choose { option: 0 }).unwrap();
            }
        }
    }
}

#[test]
fn a_session_plays_the_game_the_engine_driver_plays_for_the_seed_wormholes_and_all() {
    for seed in [1, 2, 6, 9] {
        let mut driven = party_game([SeatKind::Easy, SeatKind::Easy]);
        driven.play_to_end(&mut SeededDice::new(seed), &mut FirstOption, &mut ()).unwrap();
        let wormholes = driven
            .history()
            .iter()
            .filter(|m| !driven.board().draws_of(&m.jumps).is_empty())
            .count();
        let mut session = Session::new(
            party_game([SeatKind::Easy, SeatKind::Easy]),
            DiceState::seeded(seed),
            "party",
        );
        play_out(&mut session);
        assert_eq!(session.game().state(), driven.state(), "seed {seed}");
        if seed == 6 {
            assert!(wormholes > 0, "seed 6 meets a wormhole");
        }
    }
}

#[test]
fn undo_and_redo_with_effects_give_back_exactly_the_game_taken_back() {
    let mut session =
        Session::new(party_game([SeatKind::Human, SeatKind::Easy]), DiceState::seeded(6), "party");
    let mut checked = 0;
    while session.game().status() != Status::Finished && checked < 40 {
        match session.awaiting() {
            Awaiting::Roll { seat } if session.game().in_turn() => {
                // An extra or bonus roll within Ann's turn: the checks start between turns.
                session.act(seat, Intent::Roll).unwrap();
            }
            Awaiting::Roll { seat } => {
                let before = session.game().state();
                let told = session.act(seat, Intent::Roll).unwrap();
                // Play on to the person's next roll, then take it all back and put it back.
                while let Awaiting::Computer { .. } = session.awaiting() {
                    session.play_computer().unwrap();
                }
                let later = session.game().state();
                if session.game().status() == Status::Finished {
                    break;
                }
                if session.game().in_turn() {
                    // An extra or bonus roll is awaited: undo would take back the turn in
                    // flight, which has nothing to redo. Roll on.
                    continue;
                }
                session.act(0, Intent::Undo).unwrap();
                assert_eq!(session.game().state(), before, "undo gives back the turn's start");
                let redone = session.act(0, Intent::Redo).unwrap();
                assert_eq!(session.game().state(), later, "redo puts back every turn");
                let plain = |e: &&snl_engine::Numbered<usize>| {
                    !matches!(e.event, snl_engine::Event::GameStarted { .. })
                };
                let events: Vec<_> =
                    redone.iter().skip(1).filter(plain).map(|n| n.event.clone()).collect();
                let first: Vec<_> = told.iter().filter(plain).map(|n| n.event.clone()).collect();
                assert_eq!(&events[..first.len()], &first[..]);
                checked += 1;
            }
            Awaiting::Computer { .. } => {
                session.play_computer().unwrap();
            }
            Awaiting::Choice(d) => {
                session.act(d.seat, Intent::Choose { option: 0 }).unwrap();
            }
            Awaiting::Over => break,
        }
    }
    assert!(checked > 5);
    let met = session
        .game()
        .history()
        .iter()
        .any(|m| !session.game().board().draws_of(&m.jumps).is_empty());
    assert!(met, "the game met a wormhole, so undo and redo went through draws");
}
