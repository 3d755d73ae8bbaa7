//! Invariants of the game over random boards × rules × rolls (proptest).

use proptest::prelude::*;
use snl_engine::{
    Board, BoardSpec, Bonus, Choice, Decider, Decision, Dice, Event, Finish, Game, Input, JumpMode,
    MaxBonus, MoveKind, Observer, OnMax, Overshoot, Pending, RollSource, Rules, Seat, SeatKind,
    SeededDice, Start, Status,
};

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (
        prop::sample::select(vec![Start::OffBoard, Start::FirstCell]),
        prop::sample::select(vec!["1d6", "2d6", "1d4", "1d8", "1d2", "3d4"]),
        prop::sample::select(Overshoot::ALL.to_vec()),
        prop::sample::select(JumpMode::ALL.to_vec()),
        prop::sample::select(Bonus::ALL.to_vec()),
        0_u32..5,
        prop::sample::select(OnMax::ALL.to_vec()),
        prop::sample::select(Finish::ALL.to_vec()),
        prop::sample::select(Choice::ALL.to_vec()),
    )
        .prop_map(|(start, dice, overshoot, jumps, bonus, cap, on_max, finish, choice)| {
            Rules {
                start,
                dice: dice.parse().unwrap(),
                overshoot,
                jumps,
                bonus,
                max_bonus: if cap == 0 {
                    MaxBonus::Unlimited
                } else {
                    format!("{cap}").parse().unwrap()
                },
                on_max,
                finish,
                choice,
            }
        })
}

/// Jumps written at random, then the plainly invalid ones dropped; what remains may still chain
/// or cycle, which `Board::new` judges.
fn board_strategy() -> impl Strategy<Value = BoardSpec> {
    (6_u32..60).prop_flat_map(|size| {
        prop::collection::vec((1..=size, 1..=size), 0..(size as usize / 3)).prop_map(move |raw| {
            let mut seen = Vec::new();
            let jumps: Vec<(u32, u32)> = raw
                .into_iter()
                .filter(|&(from, to)| from != to && from != size && from != 1)
                .filter(|&(from, _)| {
                    let fresh = !seen.contains(&from);
                    seen.push(from);
                    fresh
                })
                .collect();
            BoardSpec::with_jumps(size, jumps)
        })
    })
}

/// Takes option `k mod len` with a rotating `k`, so every option gets exercised.
struct Rotate(usize);
impl Decider for Rotate {
    fn decide(&mut self, _: &Game, decision: &Decision) -> usize {
        self.0 += 1;
        self.0 % decision.options.len()
    }
}

/// Checks the per-event invariants as the game goes, from the events alone: an event stands on
/// its own, so where every token is can be followed without the game.
struct Checker {
    rules: Rules,
    size: u32,
    positions: Vec<u32>,
    begin: u32,
    rolls_this_turn: u32,
    failures: Vec<String>,
}

impl Checker {
    fn new(game: &Game) -> Checker {
        Checker {
            rules: *game.rules(),
            size: game.board().size(),
            positions: game.positions().to_vec(),
            begin: 0,
            rolls_this_turn: 0,
            failures: Vec::new(),
        }
    }

    /// The game must stand where its events said it went.
    fn agrees_with(&mut self, game: &Game) {
        if game.positions() != self.positions.as_slice() {
            self.failures.push(format!(
                "events say {:?}, game {:?}",
                self.positions,
                game.positions()
            ));
        }
    }
}

impl Observer for Checker {
    fn event(&mut self, event: &Event) {
        let n = self.size;
        match *event {
            Event::TurnStarted { position, .. } => {
                self.begin = position;
                self.rolls_this_turn = 0;
            }
            Event::DiceRolled { .. } => {
                self.rolls_this_turn += 1;
                if let Some(k) = self.rules.max_bonus.limit()
                    && self.rolls_this_turn > k
                {
                    self.failures
                        .push(format!("{} rolls in a turn, cap {k}", self.rolls_this_turn));
                }
            }
            Event::BonusRoll { .. } if self.rules.bonus == Bonus::None => {
                self.failures.push("a bonus roll without the bonus rule".into());
            }
            Event::Moved { player, to, .. }
            | Event::Snake { player, to, .. }
            | Event::Ladder { player, to, .. } => {
                if to > n {
                    self.failures.push(format!("position {to} is off a board of {n}"));
                }
                self.positions[player] = to;
            }
            Event::TurnVoided { player, back_to } => {
                if back_to != self.begin {
                    self.failures
                        .push(format!("voided to {back_to}, turn began on {}", self.begin));
                }
                self.positions[player] = back_to;
            }
            _ => {}
        }
    }
}

/// Drives `game` input by input through `Game::apply` until it ends or `limit` inputs: rolls
/// from `dice`, choices from `decider`. Returns the inputs given.
fn drive(
    game: &mut Game,
    dice: &mut SeededDice,
    decider: &mut Rotate,
    observer: &mut impl Observer,
    limit: usize,
) -> Vec<Input> {
    let mut inputs = Vec::new();
    while inputs.len() < limit {
        let input = match game.pending() {
            Pending::Over => break,
            Pending::Roll { seat, dice: thrown, .. } => {
                Input::Roll { roll: RollSource::roll(dice, seat, thrown).unwrap() }
            }
            Pending::Choice(decision) => Input::Choose { option: decider.decide(game, &decision) },
        };
        game.apply_to(input, observer).unwrap();
        inputs.push(input);
    }
    inputs
}

fn new_game(spec: &BoardSpec, rules: Rules, seats: usize) -> Option<Game> {
    let board = Board::new(spec, &rules).ok()?;
    let seats = (0..seats).map(|i| Seat::new(format!("P{i}"), SeatKind::Easy)).collect();
    Game::new(board, rules, seats).ok()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, max_global_rejects: 20_000, ..ProptestConfig::default() })]

    #[test]
    fn games_keep_every_invariant(
        spec in board_strategy(),
        rules in rules_strategy(),
        seats in 2_usize..5,
        seed in any::<u64>(),
    ) {
        let game = new_game(&spec, rules, seats);
        prop_assume!(game.is_some());
        let mut game = game.unwrap();
        let mut dice = SeededDice::new(seed);
        let mut checker = Checker::new(&game);
        let mut decider = Rotate(0);
        for _ in 0..20_000 {
            if drive(&mut game, &mut dice, &mut decider, &mut checker, 1).is_empty() {
                break;
            }
            checker.agrees_with(&game);
        }
        prop_assert!(checker.failures.is_empty(), "{:?}", checker.failures);

        // No token rests on a jump's start in single mode, unless a jump put it there.
        if rules.jumps == JumpMode::Single {
            for m in game.history() {
                if m.kind == MoveKind::Moved {
                    prop_assert!(m.jumps.len() <= 1);
                    if m.jumps.is_empty() {
                        prop_assert_eq!(game.board().jump_at(m.to), None, "rests on a jump start: {:?}", m);
                    }
                }
            }
        }
        if game.status() == Status::Finished {
            let n = game.seats().len();
            let mut ranking = game.ranking().to_vec();
            ranking.sort_unstable();
            prop_assert_eq!(ranking, (0..n).collect::<Vec<_>>(), "ranking is a permutation");
            let mut ranks: Vec<u32> = game.ranks().iter().map(|r| r.unwrap()).collect();
            ranks.sort_unstable();
            prop_assert_eq!(ranks, (1..=n as u32).collect::<Vec<_>>());
            let finishers = game.positions().iter().filter(|&&p| p == game.board().size()).count();
            match rules.finish {
                Finish::First => prop_assert_eq!(finishers, 1, "exactly one winner"),
                Finish::All => prop_assert!(finishers >= n - 1),
            }
        }
    }

    #[test]
    fn driving_input_by_input_plays_exactly_the_games_play_turn_plays(
        spec in board_strategy(),
        rules in rules_strategy(),
        seats in 2_usize..5,
        seed in any::<u64>(),
    ) {
        let game = new_game(&spec, rules, seats);
        prop_assume!(game.is_some());
        let mut by_turn = game.unwrap();
        let mut by_input = by_turn.clone();
        let (mut dice, mut decider) = (SeededDice::new(seed), Rotate(0));
        let mut heard = Vec::new();
        for _ in 0..2_000 {
            if by_turn.status() == Status::Finished { break; }
            by_turn.play_turn(&mut dice, &mut decider, &mut heard).unwrap();
        }
        // The inputs play_turn gave: every roll, and a choice wherever one was made.
        let inputs_allowed = by_turn.history().iter().map(|m| 1 + usize::from(m.chosen.is_some())).sum();
        let (mut dice, mut decider) = (SeededDice::new(seed), Rotate(0));
        let mut applied = Vec::new();
        drive(&mut by_input, &mut dice, &mut decider, &mut applied, inputs_allowed);
        prop_assert_eq!(&applied, &heard);
        prop_assert_eq!(by_input.state(), by_turn.state());
    }

    #[test]
    fn the_same_seed_gives_the_same_game(seed in any::<u64>(), rules in rules_strategy()) {
        let spec = snl_engine::RandomBoard { seed, ..Default::default() }.spec(&rules);
        let play = || {
            let board = Board::new(&spec, &rules).ok()?;
            let seats = vec![Seat::new("A", SeatKind::Easy), Seat::new("B", SeatKind::Easy)];
            let mut game = Game::new(board, rules, seats).ok()?;
            let mut events = Vec::new();
            let mut dice = SeededDice::new(seed);
            for _ in 0..2_000 {
                if game.status() == Status::Finished { break; }
                game.play_turn(&mut dice, &mut Rotate(0), &mut events).ok()?;
            }
            Some(events)
        };
        prop_assert_eq!(play(), play());
    }

    #[test]
    fn scripted_rolls_parse_back_what_dice_show(count in 1_u32..=4, faces in 2_u32..=100, seed in any::<u64>()) {
        let dice = Dice::new(count, faces).unwrap();
        let mut source = SeededDice::new(seed);
        let rolls: Vec<String> = (0..20)
            .map(|_| {
                let roll = snl_engine::RollSource::roll(&mut source, 0, dice).unwrap();
                roll.dice().iter().map(u8::to_string).collect::<Vec<_>>().join("+")
            })
            .collect();
        let scripted = snl_engine::ScriptedDice::parse(&rolls.join(","), dice);
        prop_assert!(scripted.is_ok());
    }

    #[test]
    fn arbitrary_text_never_panics_the_parsers(text in ".{0,40}") {
        let _ = text.parse::<Dice>();
        let _ = text.parse::<Seat>();
        let _ = snl_engine::ScriptedDice::parse(&text, Dice::D6);
        let _ = BoardSpec::from_toml(&text);
        let _ = Rules::named(&text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, max_global_rejects: 20_000, ..ProptestConfig::default() })]

    /// Saved at any input point (at a choice, between bonus rolls, between turns), a game restores
    /// to the same state, awaits the same input, and given the rest of the inputs plays the rest
    /// of the uninterrupted game event for event.
    #[test]
    fn saving_and_loading_at_every_input_point_gives_the_uninterrupted_game(
        spec in board_strategy(),
        rules in rules_strategy(),
        seats in 2_usize..4,
        seed in any::<u64>(),
    ) {
        let game = new_game(&spec, rules, seats);
        prop_assume!(game.is_some());
        let start = game.unwrap();
        let mut whole = start.clone();
        let (mut dice, mut decider) = (SeededDice::new(seed), Rotate(seed as usize));
        let mut all_events = Vec::new();
        let inputs = drive(&mut whole, &mut dice, &mut decider, &mut all_events, 300);

        let mut cut = start;
        let mut heard = 0;
        for k in 0..=inputs.len() {
            let state = cut.state();
            let mut back = Game::restore(&state).map_err(|e| TestCaseError::fail(format!("input {k}: {e}")))?;
            prop_assert_eq!(back.state(), state);
            prop_assert_eq!(back.pending(), cut.pending());
            let mut rest = Vec::new();
            for &input in &inputs[k..] {
                back.apply_to(input, &mut rest).unwrap();
            }
            prop_assert_eq!(&rest[..], &all_events[heard..], "cut after input {}", k);
            prop_assert_eq!(back.state(), whole.state());
            if let Some(&input) = inputs.get(k) {
                heard += cut.apply(input).unwrap().len();
            }
        }
    }
}
