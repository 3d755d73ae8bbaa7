//! Invariants of the game over random boards × rules × rolls (proptest).

use proptest::prelude::*;
use snl_engine::{
    Board, BoardSpec, Bonus, CellSpec, Choice, Decider, Decision, Dice, Effect, Event, Finish,
    Game, Input, JumpMode, MaxBonus, Mode, MoveKind, Observer, OnMax, Overshoot, Pending,
    RollSource, Rules, Seat, SeatKind, SeededDice, Start, Status,
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
        0_u32..40,
    )
        .prop_map(
            |(start, dice, overshoot, jumps, bonus, cap, on_max, finish, choice, race)| {
                Rules {
                    // A race of 1 to 9 rounds one time in four.
                    mode: match race {
                        0..10 => {
                            Mode::Race { rounds: std::num::NonZeroU32::new(race.max(1)).unwrap() }
                        }
                        _ => Mode::Classic,
                    },
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
            },
        )
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

/// A board of `board_strategy` with cell effects on some cells that start no jump: any kind,
/// wormholes with 1 to 3 exits anywhere (so some boards are refused, which `Board::new` judges).
fn effects_board_strategy() -> impl Strategy<Value = BoardSpec> {
    board_strategy().prop_flat_map(|spec| {
        let size = spec.size;
        let raw = prop::collection::vec(
            (2..size, 0_usize..4, prop::collection::vec(1..=size, 1..=3)),
            0..(size as usize / 4),
        );
        raw.prop_map(move |raw| {
            let mut spec = spec.clone();
            let starts: Vec<u32> = spec
                .snakes
                .iter()
                .map(|s| s.head)
                .chain(spec.ladders.iter().map(|l| l.foot))
                .collect();
            for (at, kind, mut exits) in raw {
                if starts.contains(&at) || spec.cells.iter().any(|c| c.at == at) {
                    continue;
                }
                exits.retain(|&e| e != at);
                exits.dedup();
                let effect = Effect::NAMES[kind];
                if effect == "wormhole" && exits.is_empty() {
                    continue;
                }
                let exits = if effect == "wormhole" { exits } else { Vec::new() };
                spec.cells.push(CellSpec { at, effect: effect.to_owned(), exits });
            }
            spec
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
    shields: Vec<bool>,
    shield_at_begin: bool,
    shields_used: usize,
    extra_cells: bool,
    failures: Vec<String>,
}

impl Checker {
    fn new(game: &Game) -> Checker {
        Checker {
            rules: *game.rules(),
            size: game.board().size(),
            positions: game.positions(),
            begin: 0,
            rolls_this_turn: 0,
            shields: vec![false; game.seats().len()],
            shield_at_begin: false,
            shields_used: 0,
            extra_cells: game.board().effects().iter().any(|e| e.effect == Effect::Extra),
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
            Event::TurnStarted { player, position } => {
                self.begin = position;
                self.shield_at_begin = self.shields[player];
                self.rolls_this_turn = 0;
            }
            Event::ShieldGained { player }
                if std::mem::replace(&mut self.shields[player], true) =>
            {
                self.failures.push("a second shield".into());
            }
            Event::ShieldUsed { player, at } => {
                self.shields_used += 1;
                if !std::mem::replace(&mut self.shields[player], false) {
                    self.failures.push(format!("a shield used on {at} without one"));
                }
                if self.positions[player] != at {
                    self.failures.push(format!("a shield used on {at}, away from the token"));
                }
            }
            Event::DiceRolled { .. } => {
                self.rolls_this_turn += 1;
                if self.rolls_this_turn > 1_000 {
                    self.failures.push("a turn of more than 1000 rolls".into());
                }
                // Extra cells give rolls beyond the bonus cap: the cap counts top faces only.
                if let Some(k) = self.rules.max_bonus.limit()
                    && !self.extra_cells
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
            | Event::Ladder { player, to, .. }
            | Event::Wormhole { player, to, .. } => {
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
                self.shields[player] = self.shield_at_begin;
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
            Pending::Draw { seat, exits, .. } => {
                Input::Draw { index: RollSource::draw(dice, seat, exits.len() as u32).unwrap() }
            }
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
        spec in effects_board_strategy(),
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

        // No token rests on a jump's start in single mode, unless a jump put it there or a
        // shield stopped a snake there; under chain, only a shield leaves it on a snake's head.
        let mut stopped = 0;
        for m in game.history() {
            if m.kind != MoveKind::Moved {
                continue;
            }
            if rules.jumps == JumpMode::Single {
                prop_assert!(m.jumps.len() <= 1);
            }
            if m.jumps.is_empty() || rules.jumps == JumpMode::Chain {
                let rests_on_start = game.board().jump_at(m.to).is_some()
                    || (rules.jumps == JumpMode::Chain && game.board().wormhole_at(m.to).is_some());
                if rests_on_start {
                    prop_assert!(m.jumps.is_empty(), "rests on a jump start after jumps: {:?}", m);
                    prop_assert!(game.board().jump_at(m.to).is_some_and(|to| to < m.to), "{:?}", m);
                    stopped += 1;
                } else if m.jumps.is_empty() {
                    prop_assert!(game.board().wormhole_at(m.to).is_none(), "rests on a wormhole: {:?}", m);
                }
            }
        }
        prop_assert_eq!(stopped, checker.shields_used, "every snake head rested on is a shield used");
        if game.status() == Status::Finished {
            let n = game.seats().len();
            let mut ranking = game.ranking().to_vec();
            ranking.sort_unstable();
            prop_assert_eq!(ranking, (0..n).collect::<Vec<_>>(), "ranking is a permutation");
            let mut ranks: Vec<u32> = game.ranks().iter().map(|r| r.unwrap()).collect();
            ranks.sort_unstable();
            prop_assert_eq!(ranks, (1..=n as u32).collect::<Vec<_>>());
            let finishers = game.positions().iter().filter(|&&p| p == game.board().size()).count();
            match (rules.finish, rules.mode) {
                (Finish::First, Mode::Classic) => prop_assert_eq!(finishers, 1, "exactly one winner"),
                (Finish::All, Mode::Classic) => prop_assert!(finishers >= n - 1),
                (_, Mode::Race { rounds }) => {
                    // A race ends on a finish (first) or after its rounds; the unfinished are
                    // ranked by position.
                    let unfinished: Vec<usize> = game.ranking().iter().copied().filter(|&s| game.positions()[s] != game.board().size()).collect();
                    prop_assert!(unfinished.windows(2).all(|w| game.positions()[w[0]] >= game.positions()[w[1]]));
                    if finishers == 0 || (rules.finish == Finish::All && finishers < n - 1) {
                        for s in 0..n {
                            prop_assert!(game.turns_of(s) >= rounds.get() || game.positions()[s] == game.board().size());
                        }
                    }
                    prop_assert!((0..n).all(|s| game.turns_of(s) <= rounds.get()), "no turn after the last round");
                }
            }
        }
    }

    #[test]
    fn driving_input_by_input_plays_exactly_the_games_play_turn_plays(
        spec in effects_board_strategy(),
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
        let board = by_turn.board();
        let inputs_allowed = by_turn
            .history()
            .iter()
            .map(|m| 1 + usize::from(m.chosen.is_some()) + board.draws_of(&m.jumps).len())
            .sum();
        let (mut dice, mut decider) = (SeededDice::new(seed), Rotate(0));
        let mut applied = Vec::new();
        drive(&mut by_input, &mut dice, &mut decider, &mut applied, inputs_allowed);
        prop_assert_eq!(&applied, &heard);
        prop_assert_eq!(by_input.state(), by_turn.state());
    }

    #[test]
    fn the_same_seed_gives_the_same_game(seed in any::<u64>(), rules in rules_strategy(), effects in 0_u32..12) {
        let spec = snl_engine::RandomBoard { seed, ..Default::default() }.spec_with_effects(&rules, effects);
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
        spec in effects_board_strategy(),
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
