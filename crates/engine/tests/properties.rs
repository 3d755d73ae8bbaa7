//! Invariants of the game over random boards × rules × rolls (proptest).

use proptest::prelude::*;
use snl_engine::{
    Board, BoardSpec, Bonus, Choice, Decider, Decision, Dice, Event, Finish, Game, JumpMode,
    MaxBonus, MoveKind, Observer, OnMax, Overshoot, Rules, Seat, SeatKind, SeededDice, Start,
    Status,
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

/// Checks the per-event invariants as the game goes.
#[derive(Default)]
struct Checker {
    begin: u32,
    rolls_this_turn: u32,
    bonus_this_turn: u32,
    failures: Vec<String>,
}

impl Observer for Checker {
    fn event(&mut self, game: &Game, event: &Event) {
        let n = game.board().size();
        if let Some(p) = game.positions().iter().find(|&&p| p > n) {
            self.failures.push(format!("position {p} is off a board of {n}"));
        }
        match event {
            Event::TurnStarted { position, .. } => {
                self.begin = *position;
                self.rolls_this_turn = 0;
                self.bonus_this_turn = 0;
            }
            Event::DiceRolled { .. } => {
                self.rolls_this_turn += 1;
                if let Some(k) = game.rules().max_bonus.limit()
                    && self.rolls_this_turn > k
                {
                    self.failures
                        .push(format!("{} rolls in a turn, cap {k}", self.rolls_this_turn));
                }
            }
            Event::BonusRoll { .. } => {
                self.bonus_this_turn += 1;
                if game.rules().bonus == Bonus::None {
                    self.failures.push("a bonus roll without the bonus rule".into());
                }
            }
            Event::TurnVoided { player, back_to }
                if *back_to != self.begin || game.positions()[*player] != self.begin =>
            {
                self.failures.push(format!("voided to {back_to}, turn began on {}", self.begin));
            }
            _ => {}
        }
    }
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
        let board = Board::new(&spec, &rules);
        prop_assume!(board.is_ok());
        let seats: Vec<Seat> = (0..seats).map(|i| Seat::new(format!("P{i}"), SeatKind::Easy)).collect();
        let game = Game::new(board.unwrap(), rules, seats);
        prop_assume!(game.is_ok());
        let mut game = game.unwrap();
        let mut dice = SeededDice::new(seed);
        let mut checker = Checker::default();
        let mut decider = Rotate(0);
        for _ in 0..5_000 {
            if game.status() == Status::Finished {
                break;
            }
            game.play_turn(&mut dice, &mut decider, &mut checker).unwrap();
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
