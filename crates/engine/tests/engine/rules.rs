//! Each rule option of SPEC §3, shown with scripted rolls and compared as a whole transcript.

use snl_engine::{
    Board, BoardSpec, Decider, Decision, FirstOption, Game, PlayError, RollError, Rules,
    ScriptedDice, Seat, SeatKind, Status, Transcript,
};

/// A 20-cell board: ladders 3→8 and 8→15 (a chain), snake 17→5.
fn board_spec() -> BoardSpec {
    BoardSpec::with_jumps(20, [(3, 8), (8, 15), (17, 5)])
}

fn rules(options: &[(&str, &str)]) -> Rules {
    let mut rules = Rules::default();
    for (option, value) in options {
        let spec = snl_engine::RuleSpec {
            start: (*option == "start").then(|| value.to_string()),
            dice: (*option == "dice").then(|| value.to_string()),
            overshoot: (*option == "overshoot").then(|| value.to_string()),
            jumps: (*option == "jumps").then(|| value.to_string()),
            bonus: (*option == "bonus").then(|| value.to_string()),
            max_bonus: (*option == "max-bonus").then(|| value.parse().unwrap()),
            on_max: (*option == "on-max").then(|| value.to_string()),
            finish: (*option == "finish").then(|| value.to_string()),
            choice: (*option == "choice").then(|| value.to_string()),
            set: (*option == "rules").then(|| value.to_string()),
            mode: (*option == "mode").then(|| value.to_string()),
            rounds: (*option == "rounds").then(|| value.parse().unwrap()),
        };
        rules.apply(&spec).unwrap();
    }
    rules
}

fn game(spec: &BoardSpec, rules: Rules, seats: usize) -> Game {
    let board = Board::new(spec, &rules).unwrap();
    let names = ["Ann", "Bob", "Cat", "Dan"];
    let seats = names[..seats].iter().map(|n| Seat::new(*n, SeatKind::Easy)).collect();
    Game::new(board, rules, seats).unwrap()
}

/// Plays `turns` turns (or to the end) with `rolls`, returning the game and its transcript.
fn play(rules: Rules, seats: usize, rolls: &str, turns: usize) -> (Game, String) {
    play_with(&board_spec(), rules, seats, rolls, turns, &mut FirstOption)
}

fn play_with(
    spec: &BoardSpec,
    rules: Rules,
    seats: usize,
    rolls: &str,
    turns: usize,
    decider: &mut impl Decider,
) -> (Game, String) {
    let mut game = game(spec, rules, seats);
    let mut dice = ScriptedDice::parse(rolls, rules.thrown_dice()).unwrap();
    let mut transcript = Transcript::new(game.seats());
    for _ in 0..turns {
        if game.status() == Status::Finished {
            break;
        }
        game.play_turn(&mut dice, decider, &mut transcript).unwrap();
    }
    (game, transcript.text().to_owned())
}

#[test]
fn a_six_gives_another_roll_under_bonus_top_face() {
    let (game, text) = play(rules(&[("bonus", "top-face")]), 2, "6,1,2", 2);
    let expected = "\
start Ann Bob on 20
turn Ann at 0
  roll 6
  move 0 -> 6
  bonus roll
  roll 1
  move 6 -> 7
turn Bob at 0
  roll 2
  move 0 -> 2
";
    assert_eq!(text, expected);
    assert_eq!(game.rolls_of(0), 2);
}

#[test]
fn without_bonus_a_six_ends_the_turn() {
    let (game, _) = play(Rules::default(), 2, "6,1", 2);
    assert_eq!(game.positions(), &[6, 1]);
}

#[test]
fn the_third_six_is_moved_and_ends_the_turn_under_on_max_pass() {
    let r = rules(&[("bonus", "top-face"), ("max-bonus", "3"), ("on-max", "pass")]);
    let spec = BoardSpec::with_jumps(40, []);
    let (game, text) = play_with(&spec, r, 2, "6,6,6,1", 2, &mut FirstOption);
    let expected = "\
start Ann Bob on 40
turn Ann at 0
  roll 6
  move 0 -> 6
  bonus roll
  roll 6
  move 6 -> 12
  bonus roll
  roll 6
  move 12 -> 18
turn Bob at 0
  roll 1
  move 0 -> 1
";
    assert_eq!(text, expected);
    assert_eq!(game.positions(), &[18, 1]);
}

#[test]
fn the_third_six_voids_the_whole_turn_under_on_max_void() {
    let r = rules(&[("rules", "strict-sixes")]);
    let spec = BoardSpec::with_jumps(40, []);
    // Ann first reaches 2, then in her second turn rolls three sixes: back to 2.
    let (game, text) = play_with(&spec, r, 2, "2,1,6,6,6,1", 3, &mut FirstOption);
    assert!(text.ends_with(
        "\
turn Ann at 2
  roll 6
  move 2 -> 8
  bonus roll
  roll 6
  move 8 -> 14
  bonus roll
  roll 6
  void, back to 2
"
    ));
    assert_eq!(game.positions(), &[2, 1]);
}

#[test]
fn an_unlimited_bonus_keeps_rolling_while_sixes_come() {
    let spec = BoardSpec::with_jumps(60, []);
    let (game, _) =
        play_with(&spec, rules(&[("bonus", "top-face")]), 2, "6,6,6,6,6,1", 1, &mut FirstOption);
    assert_eq!(game.positions()[0], 31);
    assert_eq!(game.rolls_of(0), 6);
}

#[test]
fn an_overshoot_stays_put_under_stay() {
    let (game, text) = play(Rules::default(), 2, "6,1,6,1,6,1,6", 7);
    // Ann: 0→6, 6→12, 12→18, then 18+6 = 24 > 20: stays.
    assert!(text.ends_with("turn Ann at 18\n  roll 6\n  overshoot from 18 by 6\n"), "{text}");
    assert_eq!(game.positions()[0], 18);
}

#[test]
fn an_overshoot_bounces_back_under_bounce() {
    let (game, text) = play(rules(&[("overshoot", "bounce")]), 2, "6,1,6,1,6,1,6", 7);
    // 18 + 6 = 24 → 20 − 4 = 16.
    assert!(text.ends_with("  overshoot from 18 by 6\n  move 18 -> 16\n"), "{text}");
    assert_eq!(game.positions()[0], 16);
}

#[test]
fn an_overshoot_finishes_under_win() {
    let (game, text) = play(rules(&[("overshoot", "win")]), 2, "6,1,6,1,6,1,6", 7);
    assert!(
        text.ends_with(
            "  overshoot from 18 by 6\n  move 18 -> 20\nfinished Ann rank 1\nend Ann Bob\n"
        ),
        "{text}"
    );
    assert_eq!(game.status(), Status::Finished);
}

#[test]
fn tokens_start_off_the_board_or_on_cell_1() {
    let (game, _) = play(Rules::default(), 2, "1,2", 2);
    assert_eq!(game.positions(), &[1, 2]);
    let (game, text) = play(rules(&[("start", "first-cell")]), 2, "1,2", 2);
    assert!(text.starts_with("start Ann Bob on 20\nturn Ann at 1\n  roll 1\n  move 1 -> 2\n"));
    assert_eq!(game.positions(), &[2, 8]); // Bob: 1 + 2 = 3, a ladder foot, up to 8
}

#[test]
fn single_jumps_stop_after_one_and_chained_jumps_go_on() {
    let (game, text) = play(Rules::default(), 2, "3", 1);
    assert!(text.ends_with("  move 0 -> 3\n  ladder 3 -> 8\n"));
    assert_eq!(game.positions()[0], 8);
    let (game, text) = play(rules(&[("jumps", "chain")]), 2, "3", 1);
    assert!(text.ends_with("  move 0 -> 3\n  ladder 3 -> 8\n  ladder 8 -> 15\n"));
    assert_eq!(game.positions()[0], 15);
}

#[test]
fn finish_all_ranks_everyone_and_the_last_takes_the_last_rank() {
    let spec = BoardSpec::with_jumps(6, []);
    let r = rules(&[("finish", "all")]);
    let (game, text) = play_with(&spec, r, 3, "6,6", 10, &mut FirstOption);
    let expected = "\
start Ann Bob Cat on 6
turn Ann at 0
  roll 6
  move 0 -> 6
finished Ann rank 1
turn Bob at 0
  roll 6
  move 0 -> 6
finished Bob rank 2
end Ann Bob Cat
";
    assert_eq!(text, expected);
    assert_eq!(game.ranks(), &[Some(1), Some(2), Some(3)]);
}

#[test]
fn finish_all_skips_finished_players_in_the_rotation() {
    let spec = BoardSpec::with_jumps(6, []);
    let (game, text) =
        play_with(&spec, rules(&[("finish", "all")]), 3, "6,1,1,1,5", 10, &mut FirstOption);
    // Ann finishes; then Bob, Cat, Bob (not Ann), Cat finishes with 5 after 1.
    assert!(
        text.contains(
            "finished Ann rank 1\nturn Bob at 0\n  roll 1\n  move 0 -> 1\nturn Cat at 0\n"
        )
    );
    assert!(text.contains("turn Bob at 1\n"));
    assert_eq!(game.ranking(), &[0, 2, 1]);
}

#[test]
fn finish_first_ends_the_game_with_one_winner() {
    let spec = BoardSpec::with_jumps(6, []);
    let (game, text) = play_with(&spec, Rules::default(), 3, "2,6,1", 10, &mut FirstOption);
    assert!(text.ends_with("finished Bob rank 1\nend Bob Ann Cat\n"), "{text}");
    assert_eq!(game.status(), Status::Finished);
    assert_eq!(game.ranks().iter().filter(|r| **r == Some(1)).count(), 1);
}

#[test]
fn two_dice_move_by_their_sum_and_a_double_top_face_earns_the_bonus() {
    let spec = BoardSpec::with_jumps(60, []);
    let r = rules(&[("dice", "2d6"), ("bonus", "top-face"), ("overshoot", "bounce")]);
    let (game, text) = play_with(&spec, r, 2, "5+6,6+6,2+1", 1, &mut FirstOption);
    assert_eq!(text, "start Ann Bob on 60\nturn Ann at 0\n  roll 11 (5+6)\n  move 0 -> 11\n");
    assert_eq!(game.positions()[0], 11);
    let (game, _) = play_with(&spec, r, 2, "12,3", 1, &mut FirstOption);
    assert_eq!(game.positions()[0], 15);
}

/// Picks the last option (stay, or the second die).
struct Last;
impl Decider for Last {
    fn decide(&mut self, _: &Game, decision: &Decision) -> usize {
        assert!(decision.options.len() >= 2, "asked without a choice");
        decision.options.len() - 1
    }
}

#[test]
fn may_pass_lets_a_strategy_stay_put() {
    let (game, text) =
        play_with(&board_spec(), rules(&[("choice", "may-pass")]), 2, "2,4", 2, &mut Last);
    assert!(text.contains("  roll 2\n  stay on 0\n"));
    assert_eq!(game.positions(), &[0, 0]);
}

#[test]
fn pick_die_moves_by_one_die_and_asks_only_when_the_dice_differ() {
    let r = rules(&[("choice", "pick-die")]);
    let (game, _) = play_with(&board_spec(), r, 2, "1+4,2+2", 2, &mut Last);
    assert_eq!(game.positions(), &[4, 2]);
    let (game, _) = play_with(&board_spec(), r, 2, "1+4", 1, &mut FirstOption);
    assert_eq!(game.positions()[0], 1);
}

/// Records every decision it is asked, taking the last option.
#[derive(Default)]
struct Asked(Vec<Decision>);
impl Decider for Asked {
    fn decide(&mut self, _: &Game, decision: &Decision) -> usize {
        self.0.push(decision.clone());
        decision.options.len() - 1
    }
}

#[test]
fn options_that_end_alike_are_one_option_and_nobody_is_asked() {
    // On 18 of 20 with overshoot stay, a 3 is blocked: moving and staying both rest on 18.
    let r = rules(&[("choice", "may-pass")]);
    let mut game = game(&board_spec(), r, 2);
    let three = snl_engine::Roll::from_faces(&[3]);
    let options = game.options(18, &three);
    assert_eq!(options.len(), 1);
    assert_eq!((options[0].steps, options[0].lands), (3, 18));
    assert_eq!(game.options(10, &three).len(), 2);
    // Pick-die with both dice blocked on 19: one option, the first die.
    let r = rules(&[("choice", "pick-die")]);
    game = self::game(&board_spec(), r, 2);
    let both = snl_engine::Roll::from_faces(&[2, 4]);
    assert_eq!(game.options(19, &both).iter().map(|o| o.steps).collect::<Vec<_>>(), [2]);
}

#[test]
fn a_decision_tells_where_the_turn_began_and_the_bonus_streak() {
    // Bonus on: Ann rolls 6 (0 -> 6), then 2 (bonus roll, from 6); she stays each time.
    let r = rules(&[("choice", "may-pass"), ("bonus", "top-face")]);
    let mut asked = Asked::default();
    let (game, _) = play_with(&board_spec(), r, 2, "6,2", 1, &mut asked);
    assert_eq!(game.positions()[0], 0);
    let seen: Vec<(u32, u32, u32)> =
        asked.0.iter().map(|d| (d.position, d.turn_start, d.streak)).collect();
    assert_eq!(seen, [(0, 0, 0), (0, 0, 1)]);
}

#[test]
fn scripted_rolls_running_out_stop_the_game_with_an_error() {
    let mut game = game(&board_spec(), Rules::default(), 2);
    let mut dice = ScriptedDice::parse("1", Rules::default().dice).unwrap();
    game.play_turn(&mut dice, &mut FirstOption, &mut ()).unwrap();
    let err = game.play_turn(&mut dice, &mut FirstOption, &mut ()).unwrap_err();
    assert_eq!(err, PlayError::Roll(RollError::Exhausted { used: 1 }));
}

#[test]
fn history_records_each_roll_with_its_jumps_time_and_player() {
    let mut game = game(&board_spec(), Rules::default(), 2);
    game.set_clock(|| 1_700_000_000_000);
    let mut dice = ScriptedDice::parse("3,1,6,1,3", Rules::default().dice).unwrap();
    for _ in 0..5 {
        game.play_turn(&mut dice, &mut FirstOption, &mut ()).unwrap();
    }
    // Ann: 0→3⇒8, 8→14, 14→17⇒5. Bob: 0→1, 1→2.
    assert_eq!(game.history().len(), 5);
    assert_eq!(game.history_of(0).map(|m| m.to).collect::<Vec<_>>(), [8, 14, 5]);
    assert_eq!((game.ladders_of(0), game.snakes_of(0)), (1, 1));
    assert_eq!((game.ladders_of(1), game.snakes_of(1)), (0, 0));
    assert_eq!((game.turns_of(0), game.rolls_of(1), game.turns()), (3, 2, 5));
    assert!(game.history().iter().all(|m| m.time_ms == Some(1_700_000_000_000)));
    assert_eq!(game.history()[4].turn, 5);
}
