//! The turn clock's expiry as an input (SPEC §3b, `Input::TurnTimeUp`): it tells `timed_out`,
//! hands the rest of the turn to the computer, and is kept in the game's state at the input it
//! came after, so a save replays it event for event — at a turn's start, mid-turn, at a choice,
//! while a wormhole awaits its draw, under race, and beside the game clock's expiry.

use snl_engine::{
    ApplyError, Board, Event, Game, GameState, Input, Pending, Roll, RollSource, RuleSpec, Rules,
    Seat, SeatKind, SeededDice, Status,
};

use crate::common::{board_spec, rules};

fn game(rules: Rules) -> Game {
    let board = Board::new(&board_spec(), &rules).unwrap();
    let seats = ["Ann", "Bob", "Cat"].iter().map(|n| Seat::new(*n, SeatKind::Human)).collect();
    Game::new(board, rules, seats).unwrap()
}

fn roll(face: u8) -> Input {
    Input::Roll { roll: Roll::from_faces(&[face]) }
}

/// Applies `inputs`, returning every event told.
fn apply_all(game: &mut Game, inputs: &[Input]) -> Vec<Event> {
    let mut told = Vec::new();
    for &input in inputs {
        game.apply_to(input, &mut told).unwrap_or_else(|e| panic!("{input:?}: {e}"));
    }
    told
}

/// The state through JSON and back, replayed: it must tell `told` again, and the inputs the
/// game says it took must play it again on a new game, event for event.
fn replays_exactly(game: &Game, told: &[Event]) -> GameState {
    let text = serde_json::to_string(&game.state()).unwrap();
    let state: GameState = serde_json::from_str(&text).unwrap();
    assert_eq!(state, game.state());
    let mut again = Vec::new();
    let back = Game::replay(&state, &mut again).unwrap();
    assert_eq!(again, told, "replayed from the save");
    assert_eq!(back.state(), game.state());
    assert_eq!(back.turn_timed_out(), game.turn_timed_out());
    let mut fresh = Game::new(game.board().clone(), *game.rules(), game.seats().to_vec()).unwrap();
    let inputs = game.inputs_applied();
    assert_eq!(apply_all(&mut fresh, &inputs), told, "the inputs applied, played again");
    assert_eq!(fresh.state(), game.state());
    state
}

#[test]
fn a_turn_clock_expiry_at_a_turns_start_tells_timed_out_and_is_kept_at_that_input() {
    let mut g = game(Rules::default());
    let mut told = apply_all(&mut g, &[roll(1), Input::TurnTimeUp]);
    assert_eq!(told.last(), Some(&Event::TimedOut { player: 1 }));
    assert!(g.turn_timed_out(), "the rest of Bob's turn is the computer's");
    assert_eq!(g.pending(), Pending::Roll { seat: 1, dice: g.rules().dice, again: false });
    assert_eq!(g.apply(Input::TurnTimeUp), Err(ApplyError::TurnAlreadyTimedOut));
    assert_eq!(g.timed_out(), &[1]);
    assert_eq!(g.turns(), 1, "an expiry is not a turn");
    told.extend(apply_all(&mut g, &[roll(3)]));
    assert!(!g.turn_timed_out(), "Cat's turn is hers again");
    let state = replays_exactly(&g, &told);
    assert_eq!(state.timed_out, vec![1]);
    let text = serde_json::to_string(&state).unwrap();
    assert!(text.contains("\"timed_out\":[1]"), "{text}");
}

#[test]
fn a_turn_clock_expiry_before_the_first_roll_starts_the_game_first() {
    let mut g = game(Rules::default());
    let told = apply_all(&mut g, &[Input::TurnTimeUp]);
    assert!(matches!(told[0], Event::GameStarted { .. }), "{told:?}");
    assert_eq!(told[1..], [Event::TimedOut { player: 0 }]);
    assert_eq!(g.status(), Status::Running);
    replays_exactly(&g, &told);
}

#[test]
fn a_turn_clock_expiry_mid_turn_after_a_bonus_roll_and_at_a_choice_replays_alike() {
    // Bonus on a top face and may-pass: Ann rolls 6 (bonus), times out, then the computer's
    // roll of 2 awaits its choice; Bob times out at his choice.
    let may_pass = rules(&RuleSpec {
        bonus: Some("top-face".into()),
        choice: Some("may-pass".into()),
        ..RuleSpec::default()
    });
    let mut g = game(may_pass);
    let mut told = apply_all(&mut g, &[roll(6)]);
    assert!(matches!(g.pending(), Pending::Choice(_)));
    told.extend(apply_all(&mut g, &[Input::Choose { option: 0 }]));
    assert!(g.in_turn(), "the bonus roll is awaited");
    told.extend(apply_all(&mut g, &[Input::TurnTimeUp, roll(2), Input::Choose { option: 1 }]));
    assert!(told.contains(&Event::TimedOut { player: 0 }));
    told.extend(apply_all(&mut g, &[roll(4)]));
    assert!(matches!(g.pending(), Pending::Choice(ref d) if d.seat == 1));
    told.extend(apply_all(&mut g, &[Input::TurnTimeUp]));
    assert!(g.turn_timed_out());
    assert!(matches!(g.pending(), Pending::Choice(ref d) if d.seat == 1), "still Bob's choice");
    told.extend(apply_all(&mut g, &[Input::Choose { option: 0 }]));
    let state = replays_exactly(&g, &told);
    // Ann: roll, choice, (expiry), roll, choice; Bob: roll, (expiry), choice.
    assert_eq!(state.timed_out, vec![2, 6]);

    // Saved at the choice that follows the expiry: restored there, still timed out.
    let mut at_choice = game(may_pass);
    let told = apply_all(&mut at_choice, &[roll(3), Input::TurnTimeUp]);
    let state = replays_exactly(&at_choice, &told);
    assert_eq!((state.pending_roll, &state.timed_out), (Some(Roll::from_faces(&[3])), &vec![1]));
    assert!(Game::restore(&state).unwrap().turn_timed_out());
}

#[test]
fn a_turn_clock_expiry_while_a_wormhole_awaits_its_draw_and_with_a_shield_held() {
    let chain = rules(&RuleSpec { jumps: Some("chain".into()), ..RuleSpec::default() });
    // Ann: 6 (extra roll), 5 → 11, a shield. Bob and Cat 1. Ann's clock runs out; her roll of
    // 1 enters the wormhole on 12, and the game is saved while it awaits its draw.
    let mut g = game(chain);
    let mut told =
        apply_all(&mut g, &[roll(6), roll(5), roll(1), roll(1), Input::TurnTimeUp, roll(1)]);
    assert!(g.has_shield(0));
    assert!(matches!(g.pending(), Pending::Draw { seat: 0, from: 12, .. }), "{:?}", g.pending());
    assert!(g.turn_timed_out());
    let state = replays_exactly(&g, &told);
    assert_eq!(state.timed_out, vec![4]);
    told.extend(apply_all(&mut g, &[Input::Draw { index: 2 }]));
    assert!(told.contains(&Event::Wormhole { player: 0, from: 12, to: 16 }));
    replays_exactly(&g, &told);

    // The clock runs out while the draw is awaited: Ann 6 (extra), 6 → 12.
    let mut g = game(chain);
    let mut told = apply_all(&mut g, &[roll(6), roll(6)]);
    assert!(matches!(g.pending(), Pending::Draw { seat: 0, .. }));
    told.extend(apply_all(&mut g, &[Input::TurnTimeUp]));
    assert_eq!(told.last(), Some(&Event::TimedOut { player: 0 }));
    let state = replays_exactly(&g, &told);
    assert_eq!(state.timed_out, vec![2]);
    told.extend(apply_all(&mut g, &[Input::Draw { index: 1 }]));
    assert!(g.has_shield(0), "the exit 11 holds a shield");
    replays_exactly(&g, &told);
}

#[test]
fn under_race_an_expiry_is_no_turn_and_the_race_ends_after_its_rounds_as_it_did() {
    let race =
        rules(&RuleSpec { mode: Some("race".into()), rounds: Some(2), ..RuleSpec::default() });
    let mut g = game(race);
    let mut dice = SeededDice::new(5);
    let mut told = Vec::new();
    let mut n = 0;
    while g.status() != Status::Finished {
        // Every other seat's clock runs out at its turn's start.
        if !g.in_turn() && g.current() != 0 && !g.turn_timed_out() {
            g.apply_to(Input::TurnTimeUp, &mut told).unwrap();
        }
        let input = match g.pending() {
            Pending::Roll { seat, dice: d, .. } => {
                Input::Roll { roll: dice.roll(seat, d).unwrap() }
            }
            Pending::Draw { seat, exits, .. } => {
                Input::Draw { index: dice.draw(seat, exits.len() as u32).unwrap() }
            }
            Pending::Choice(_) | Pending::Over => unreachable!(),
        };
        g.apply_to(input, &mut told).unwrap();
        n += 1;
        assert!(n < 100, "a race of 2 rounds ends");
    }
    assert!(g.rounds() <= 2);
    assert!(g.turns() <= 6, "expiries are not turns: {}", g.turns());
    let timed = told.iter().filter(|e| matches!(e, Event::TimedOut { .. })).count();
    assert!(timed >= 2, "{told:?}");
    assert_eq!(g.timed_out().len(), timed);
    replays_exactly(&g, &told);
}

#[test]
fn the_game_clock_and_a_turn_clock_at_the_same_point_replay_in_the_order_they_came() {
    for order in [[Input::TimeUp, Input::TurnTimeUp], [Input::TurnTimeUp, Input::TimeUp]] {
        let mut g = game(Rules::default());
        let mut told = apply_all(&mut g, &[roll(2)]);
        told.extend(apply_all(&mut g, &order));
        told.extend(apply_all(&mut g, &[roll(3), roll(4)]));
        assert_eq!(g.status(), Status::Finished, "the round was completed");
        let state = replays_exactly(&g, &told);
        let (time_up, timed_out) = match order[0] {
            Input::TimeUp => (1, 1),
            _ => (2, 1),
        };
        assert_eq!((state.time_up, state.timed_out), (Some(time_up), vec![timed_out]));
    }
}

#[test]
fn undo_takes_an_expiry_back_and_the_inputs_since_play_it_again() {
    let mut g = game(Rules::default());
    apply_all(&mut g, &[roll(1), roll(2), roll(3)]);
    let mark = g.checkpoint();
    let after: Vec<Input> =
        vec![Input::TurnTimeUp, roll(4), roll(5), Input::TimeUp, Input::TurnTimeUp];
    let told = apply_all(&mut g, &after);
    assert_eq!(g.inputs_since(&mark), after);
    let end = g.state();
    g.rewind(&mark);
    assert!(g.timed_out().is_empty() && g.time_up().is_none() && !g.turn_timed_out());
    assert_eq!(apply_all(&mut g, &after), told);
    assert_eq!(g.state(), end);
}

#[test]
fn a_save_whose_turn_clock_expiry_never_comes_or_comes_twice_in_a_turn_is_refused() {
    let mut g = game(Rules::default());
    apply_all(&mut g, &[roll(1), Input::TurnTimeUp, roll(2)]);
    let mut edited = g.state();
    edited.timed_out = vec![1, 7];
    assert_eq!(
        Game::restore(&edited).unwrap_err().to_string(),
        "the saved turn clock expiry is after input 7, but the history gives only 3 inputs"
    );
    edited.timed_out = vec![1, 2];
    assert_eq!(
        Game::restore(&edited).unwrap_err().to_string(),
        "move 2 of the history follows an expiry of the turn clock that cannot be: the turn clock ran out already in this turn"
    );
    // Saves written before turn clocks have no such field, and load as they did.
    let mut plain = game(Rules::default());
    apply_all(&mut plain, &[roll(1), roll(2)]);
    let text = serde_json::to_string(&plain.state()).unwrap();
    assert!(!text.contains("timed_out"), "{text}");
    Game::restore(&serde_json::from_str(&text).unwrap()).unwrap();
}
