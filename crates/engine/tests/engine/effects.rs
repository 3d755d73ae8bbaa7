//! Cell effects and race mode (SPEC §3b), each shown with scripted rolls and compared as a whole
//! transcript, in the style of `rules.rs`.

use snl_engine::{
    Board, BoardSpec, CellSpec, FirstOption, Game, Pending, RuleSpec, Rules, ScriptedDice, Seat,
    SeatKind, Status, Transcript,
};

use crate::common::{board_spec, rules};

fn game(rules: Rules, seats: usize) -> Game {
    let board = Board::new(&board_spec(), &rules).unwrap();
    let names = ["Ann", "Bob", "Cat"];
    let seats = names[..seats].iter().map(|n| Seat::new(*n, SeatKind::Easy)).collect();
    Game::new(board, rules, seats).unwrap()
}

/// Plays `turns` turns (or to the end) with `rolls` (wormhole draws written `wK`).
fn play(rules: Rules, seats: usize, rolls: &str, turns: usize) -> (Game, String) {
    let mut game = game(rules, seats);
    let mut dice = ScriptedDice::parse(rolls, rules.thrown_dice()).unwrap();
    let mut transcript = Transcript::new(game.seats());
    for _ in 0..turns {
        if game.status() == Status::Finished {
            break;
        }
        game.play_turn(&mut dice, &mut FirstOption, &mut transcript).unwrap();
    }
    assert_eq!(dice.remaining(), 0, "every scripted roll is used");
    (game, transcript.text().to_owned())
}

#[test]
fn a_skip_cell_skips_the_next_turn_which_counts_as_a_turn() {
    let (game, text) = play(Rules::default(), 2, "5,1,2,3", 4);
    let expected = "\
start Ann Bob on 20
turn Ann at 0
  roll 5
  move 0 -> 5
turn Bob at 0
  roll 1
  move 0 -> 1
skip Ann
turn Bob at 1
  roll 2
  move 1 -> 3
turn Ann at 5
  roll 3
  move 5 -> 8
";
    assert_eq!(text, expected);
    assert_eq!((game.turns(), game.turns_of(0), game.rolls_of(0)), (5, 3, 2));
    assert!(!game.skips_next_turn(0));
}

#[test]
fn an_extra_cell_gives_one_more_roll_and_a_shield_stops_one_snake() {
    let (game, text) = play(Rules::default(), 2, "6,5,1,5,1,4", 5);
    let expected = "\
start Ann Bob on 20
turn Ann at 0
  roll 6
  move 0 -> 6
  extra roll
  roll 5
  move 6 -> 11
  shield gained
turn Bob at 0
  roll 1
  move 0 -> 1
turn Ann at 11
  roll 5
  move 11 -> 16
  shield used on 16
turn Bob at 1
  roll 1
  move 1 -> 2
  ladder 2 -> 9
turn Ann at 16
  roll 4
  move 16 -> 20
finished Ann rank 1
end Ann Bob
";
    assert_eq!(text, expected);
    assert!(!game.has_shield(0));
}

#[test]
fn a_wormhole_leads_to_the_exit_drawn_once_under_single_jumps_and_on_under_chain() {
    let (game, text) = play(Rules::default(), 2, "6,6,w3,1", 2);
    let expected = "\
start Ann Bob on 20
turn Ann at 0
  roll 6
  move 0 -> 6
  extra roll
  roll 6
  move 6 -> 12
  wormhole 12 -> 16
turn Bob at 0
  roll 1
  move 0 -> 1
";
    assert_eq!(text, expected);
    assert_eq!(game.history()[1].jumps.len(), 1);
    assert_eq!((game.snakes_of(0), game.ladders_of(0)), (0, 0), "a wormhole is neither");

    let chain = rules(&RuleSpec { jumps: Some("chain".into()), ..RuleSpec::default() });
    let (_, text) = play(chain, 2, "6,6,w3,1", 2);
    assert!(text.contains("  wormhole 12 -> 16\n  snake 16 -> 4\nturn Bob at 0\n"), "{text}");
}

#[test]
fn an_extra_cell_and_a_top_face_give_one_more_roll_and_void_undoes_the_shield_gained() {
    let strict = rules(&RuleSpec { set: Some("strict-sixes".into()), ..RuleSpec::default() });
    let (game, text) = play(strict, 2, "6,6,w2,6,1", 2);
    let expected = "\
start Ann Bob on 20
turn Ann at 0
  roll 6
  move 0 -> 6
  bonus roll
  roll 6
  move 6 -> 12
  wormhole 12 -> 11
  shield gained
  bonus roll
  roll 6
  void, back to 0
turn Bob at 0
  roll 1
  move 0 -> 1
";
    assert_eq!(text, expected);
    assert!(!game.has_shield(0), "the void took back the shield gained in the turn");
    assert_eq!(game.positions(), [0, 1]);
}

#[test]
fn a_race_ends_after_its_rounds_ranked_by_position_ties_by_seating() {
    let race =
        rules(&RuleSpec { mode: Some("race".into()), rounds: Some(2), ..RuleSpec::default() });
    let (game, text) = play(race, 3, "3,4,1,1,3,3", 10);
    let expected = "\
start Ann Bob Cat on 20
turn Ann at 0
  roll 3
  move 0 -> 3
turn Bob at 0
  roll 4
  move 0 -> 4
turn Cat at 0
  roll 1
  move 0 -> 1
turn Ann at 3
  roll 1
  move 3 -> 4
turn Bob at 4
  roll 3
  move 4 -> 7
turn Cat at 1
  roll 3
  move 1 -> 4
end Bob Ann Cat
";
    assert_eq!(text, expected);
    assert_eq!(game.status(), Status::Finished);
    assert_eq!(game.ranks(), [Some(2), Some(1), Some(3)]);
    assert_eq!(game.pending(), Pending::Over);

    // A skipped turn counts toward the rounds: Ann's second turn is skipped, and the race ends
    // after Bob's.
    let (_, text) = play(race, 2, "5,1,3", 10);
    assert!(
        text.ends_with("skip Ann\nturn Bob at 1\n  roll 3\n  move 1 -> 4\nend Ann Bob\n"),
        "{text}"
    );
}

#[test]
fn scripted_rolls_must_say_where_a_wormhole_leads() {
    let mut game = game(Rules::default(), 2);
    let mut dice = ScriptedDice::parse("6,6,1", Rules::default().dice).unwrap();
    let err = game.play_turn(&mut dice, &mut FirstOption, &mut ()).unwrap_err().to_string();
    assert_eq!(
        err,
        "scripted item 3 (1) does not fit: a wormhole awaits a draw, written w1 to w3 (its exit's number)"
    );
    // The game awaits the draw, and a draw is the only input it takes.
    assert!(
        matches!(game.pending(), Pending::Draw { seat: 0, from: 12, ref exits } if exits == &[3, 11, 16])
    );
    let roll = snl_engine::Input::Roll { roll: snl_engine::Roll::from_faces(&[1]) };
    assert_eq!(
        game.apply(roll).unwrap_err().to_string(),
        "the game awaits a wormhole's draw among 3 exits"
    );
    let e = game.apply(snl_engine::Input::Draw { index: 3 }).unwrap_err().to_string();
    assert_eq!(e, "there is no exit 3: the exits are numbered 0 to 2");
}

#[test]
fn a_game_saved_while_a_wormhole_awaits_its_draw_restores_to_the_same_draw() {
    let chain = rules(&RuleSpec { jumps: Some("chain".into()), ..RuleSpec::default() });
    let mut game = game(chain, 2);
    for input in [
        snl_engine::Input::Roll { roll: snl_engine::Roll::from_faces(&[6]) },
        snl_engine::Input::Roll { roll: snl_engine::Roll::from_faces(&[6]) },
    ] {
        game.apply(input).unwrap();
    }
    let state = game.state();
    assert_eq!(state.pending_roll, Some(snl_engine::Roll::from_faces(&[6])));
    let mut back = Game::restore(&state).unwrap();
    assert_eq!(back.pending(), game.pending());
    let events = back.apply(snl_engine::Input::Draw { index: 1 }).unwrap();
    assert_eq!(events[0], snl_engine::Event::Wormhole { player: 0, from: 12, to: 11 });
    assert!(back.has_shield(0));
    // The finished move replays from the history: its jump says which exit was drawn.
    let again = Game::restore(&back.state()).unwrap();
    assert_eq!(again.state(), back.state());
    let mut edited = back.state();
    edited.history[1].jumps[0].to = 13;
    edited.history[1].to = 13;
    let e = Game::restore(&edited).unwrap_err().to_string();
    assert_eq!(
        e,
        "move 2 of the history leaves wormhole 12 to a cell that is none of its exits (3, 11, 16)"
    );
}

#[test]
fn a_board_with_bad_effects_lists_every_problem() {
    let mut spec = board_spec();
    let cell = |at, effect: &str, exits: &[u32]| CellSpec {
        at,
        effect: effect.to_owned(),
        exits: exits.to_vec(),
    };
    spec.cells.extend([
        cell(2, "skip", &[]),                     // on the ladder's foot
        cell(20, "extra", &[]),                   // on N
        cell(1, "shield", &[]),                   // on the start under first-cell
        cell(6, "shield", &[]),                   // a second effect on 6
        cell(14, "wormhole", &[0, 14, 21, 3, 3]), // off, itself, off, then 3 twice
        cell(15, "teleport", &[]),                // unknown
        cell(17, "skip", &[4]),                   // exits on a skip
        cell(18, "wormhole", &[]),                // no exits
        cell(25, "extra", &[]),                   // off the board
    ]);
    let first = rules(&RuleSpec { start: Some("first-cell".into()), ..RuleSpec::default() });
    let err = Board::new(&spec, &first).unwrap_err();
    let lines: Vec<String> = err.problems.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "skip cell 2 is the start of ladder 2→9: a cell holds a jump start or an effect, not both",
            "extra cell 20 is the last cell: no effect may sit on cell 20",
            "shield cell 1 is where tokens start under start = first-cell",
            "wormhole 14 has exit 0, which is not on the board: use cells 1 to 20",
            "wormhole 14 has itself as an exit: an exit must be another cell",
            "wormhole 14 has exit 21, which is not on the board: use cells 1 to 20",
            "wormhole 14 lists exit 3 twice: give each exit once",
            "cell 15 has an unknown effect 'teleport': expected one of skip, extra, shield, wormhole",
            "skip cell 17 has exits: only a wormhole has exits",
            "wormhole 18 has no exits: give exits = [cell, ...]",
            "extra cell 25 is not on the board: use cells 1 to 20",
            "two effects on cell 6: a cell may hold one effect at most",
        ]
    );
    assert!(err.to_string().starts_with("invalid board, 12 problems:"), "{err}");
}

#[test]
fn under_chained_jumps_a_cycle_through_any_wormhole_exit_is_refused() {
    // 12 may lead to 16, whose snake leads to 4; a ladder 4→12 closes the loop through one exit.
    let mut spec = board_spec();
    spec.ladders.push(snl_engine::LadderSpec { foot: 4, top: 12 });
    let chain = rules(&RuleSpec { jumps: Some("chain".into()), ..RuleSpec::default() });
    let err = Board::new(&spec, &chain).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid board: jumps 4→12→16→4 form a cycle, which chained jumps would follow forever"
    );
    assert!(Board::new(&spec, &Rules::default()).is_ok(), "single jumps follow one jump only");
    // Effects read and write back through the board file's TOML.
    let text = board_spec().to_toml();
    assert!(
        text.contains("[[cell]]\nat = 12\neffect = \"wormhole\"\nexits = [3, 11, 16]"),
        "{text}"
    );
    assert_eq!(BoardSpec::from_toml(&text).unwrap(), board_spec());
    let board = Board::new(&board_spec(), &Rules::default()).unwrap();
    assert_eq!(board.to_spec(), board_spec());
}
