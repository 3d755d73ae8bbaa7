//! Each event as a sentence of plain words ([`Sentences`]), and the small words around names and
//! ranks that every sentence and list uses.

use std::fmt::Write as _;

use snl_engine::{Event, Game, Pending, Roll, Rules};

/// A rank in words, as every front end writes one: "1st", "2nd", "3rd", "4th", "11th", "21st".
pub fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn a_roll(roll: Roll) -> String {
    match roll.dice() {
        [one] if matches!(one, 8 | 11 | 18) => format!("an {one}"),
        [one] => format!("a {one}"),
        many => {
            let parts: Vec<String> = many.iter().map(u8::to_string).collect();
            format!("{} = {}", parts.join("+"), roll.total())
        }
    }
}

/// A cell in words: "the start" for 0, else its number.
pub fn place(position: u32) -> String {
    if position == 0 { "the start".to_owned() } else { position.to_string() }
}

/// The plain-words sentence of each event, without writing it anywhere (the console writes them,
/// the full-screen game keeps them in its log). It knows the table (names, board size, rules)
/// from the start and follows the tokens from the events alone.
#[derive(Clone, Debug)]
pub struct Sentences {
    names: Vec<String>,
    size: u32,
    rules: Rules,
    positions: Vec<u32>,
    rolled: Option<Roll>,
    // A bounce or a win past N is told together with the move it causes.
    overshoot: Option<u32>,
}

/// Whether a seat's name is "You" (the default name of the person at the keyboard): the words
/// around it then speak to that person ("You win", "took you down", "Your shield").
fn is_you(name: &str) -> bool {
    name.eq_ignore_ascii_case("you")
}

/// `name` and a verb agreeing with it: "You win", "Ann wins".
pub fn agree(name: &str, third_person: &str, second_person: &str) -> String {
    if is_you(name) { format!("{name} {second_person}") } else { format!("{name} {third_person}") }
}

/// `name` as the object of a sentence: "took you down", "took Ann down".
pub fn whom(name: &str) -> &str {
    if is_you(name) { "you" } else { name }
}

/// `name`'s, opening a sentence: "Your shield", "Ann's shield".
pub fn whose(name: &str) -> String {
    if is_you(name) { "Your".to_owned() } else { format!("{name}'s") }
}

/// The roll a game kept at a choice awaits a move for: its move, when chosen, is told with it
/// (so a game resumed there tells "rolled a 4 and moved", as it would have uninterrupted).
fn awaited_roll(game: &Game) -> Option<Roll> {
    match game.pending() {
        Pending::Choice(decision) => Some(decision.roll),
        _ => None,
    }
}

impl Sentences {
    /// Sentences for `game`'s table, its tokens where they stand.
    pub fn new(game: &Game) -> Sentences {
        Sentences {
            names: game.seats().iter().map(|s| s.name.clone()).collect(),
            size: game.board().size(),
            rules: *game.rules(),
            positions: game.positions(),
            rolled: awaited_roll(game),
            overshoot: None,
        }
    }

    /// Puts the tokens where `game` has them (after an undo or a redo).
    pub fn follow(&mut self, game: &Game) {
        self.positions = game.positions();
        self.rolled = awaited_roll(game);
        self.overshoot = None;
    }

    /// The sentence for `event`, if it has one of its own (rolls are told with their move).
    pub fn sentence(&mut self, event: &Event) -> Option<String> {
        let names = self.names.clone();
        let name = |seat: usize| names.get(seat).cloned().unwrap_or_else(|| format!("#{seat}"));
        let n = self.size;
        let rolled = |me: &mut Sentences| me.rolled.take().map_or_else(String::new, a_roll);
        match *event {
            Event::Moved { player, to, .. }
            | Event::Snake { player, to, .. }
            | Event::Ladder { player, to, .. }
            | Event::Wormhole { player, to, .. }
            | Event::TurnVoided { player, back_to: to } => self.positions[player] = to,
            _ => {}
        }
        Some(match event {
            Event::GameStarted { players, board_size } => {
                let names: Vec<String> = players.iter().map(|&p| name(p)).collect();
                let names = &names;
                format!(
                    "New game on a board of {board_size} cells: {}. Rules: {}.",
                    names.join(", "),
                    rules_in_words(&self.rules)
                )
            }
            Event::DiceRolled { dice, .. } => {
                self.rolled = Some(*dice);
                return None;
            }
            Event::Moved { player, from, to, steps } => {
                let who = name(*player);
                let picked = self.rolled.is_some_and(|r| r.dice().len() > 1)
                    && self.rules.choice == snl_engine::Choice::PickDie;
                let what = match self.rolled.take() {
                    Some(roll) if picked => {
                        let faces: Vec<String> = roll.dice().iter().map(u8::to_string).collect();
                        format!("{}, took the {steps}", faces.join(" and "))
                    }
                    Some(roll) => a_roll(roll),
                    None => String::new(),
                };
                match self.overshoot.take() {
                    Some(_) if *to == n => format!(
                        "{who} rolled {what}, more than enough: moved from {} to {n}",
                        place(*from)
                    ),
                    Some(excess) => format!(
                        "{who} rolled {what}, {excess} past {n}: bounced back from {} to {to}",
                        place(*from)
                    ),
                    None => format!("{who} rolled {what} and moved from {} to {to}", place(*from)),
                }
            }
            Event::Overshoot { player, position, roll, rule } => {
                if *rule != snl_engine::Overshoot::Stay {
                    self.overshoot = Some(position + roll - n);
                    return None;
                }
                format!(
                    "{} rolled {} but needs exactly {} to reach {n}: stays on {}",
                    name(*player),
                    rolled(self),
                    n - position,
                    place(*position)
                )
            }
            Event::Snake { player, from, to } => {
                format!("Oh no! A snake at {from} took {} down to {to}", whom(&name(*player)))
            }
            Event::Ladder { player, from, to } => {
                format!("Yes! A ladder at {from} took {} up to {to}", whom(&name(*player)))
            }
            Event::BonusRoll { player } => agree(&name(*player), "rolls again", "roll again"),
            Event::ExtraRoll { player } => agree(
                &name(*player),
                "landed on an extra-roll cell and rolls again",
                "landed on an extra-roll cell and roll again",
            ),
            Event::TurnSkipped { player } => agree(
                &name(*player),
                "misses this turn (a skip cell)",
                "miss this turn (a skip cell)",
            ),
            Event::ShieldGained { player } => agree(
                &name(*player),
                "picks up a shield: the next snake will not bite",
                "pick up a shield: the next snake will not bite",
            ),
            Event::ShieldUsed { player, at } => {
                format!(
                    "{} shield stops the snake at {at}: the token stays on {at}",
                    whose(&name(*player))
                )
            }
            Event::Wormhole { player, from, to } => {
                format!("Whoosh! A wormhole at {from} took {} to {to}", whom(&name(*player)))
            }
            Event::TurnVoided { player, back_to } => format!(
                "{} rolled {}: too many top faces in a row, the turn is void and the token goes back to {}",
                name(*player),
                rolled(self),
                place(*back_to)
            ),
            Event::Stayed { player, position } => {
                format!(
                    "{} rolled {} and chose to stay on {}",
                    name(*player),
                    rolled(self),
                    place(*position)
                )
            }
            Event::Autopilot { player, on: true } => {
                agree(&name(*player), "hands", "hand") + " the seat to the computer (autopilot on)"
            }
            Event::Autopilot { player, on: false } => {
                agree(&name(*player), "takes", "take") + " the seat back (autopilot off)"
            }
            Event::PlayerFinished { player, rank } => {
                let who = name(*player);
                if *rank == 1 {
                    format!("{who} reached {n} and {}!", if is_you(&who) { "win" } else { "wins" })
                } else {
                    let verb = if is_you(&who) { "finish" } else { "finishes" };
                    format!("{who} reached {n} and {verb} {}", ordinal(*rank))
                }
            }
            Event::Undone { player, turn } => {
                format!("Undo: back to turn {turn}, {} to roll.", name(*player))
            }
            Event::Redone { from_turn, to_turn } if from_turn == to_turn => {
                format!("Redo: turn {to_turn} again.")
            }
            Event::Redone { from_turn, to_turn } => {
                format!("Redo: turns {from_turn} to {to_turn} again.")
            }
            Event::TimedOut { player } => {
                format!(
                    "{} ran out of time: the computer plays the rest of the turn",
                    name(*player)
                )
            }
            Event::Presence { player, online } => {
                agree(&name(*player), "is", "are") + if *online { " back" } else { " away" }
            }
            Event::GraceStarted { player, seconds } => format!(
                "{} dropped: the seat is kept for {}, then the computer plays it",
                name(*player),
                crate::status::clock(*seconds)
            ),
            Event::SeatAutoplayed { player } => {
                format!("The computer plays for {} until they take the seat back", name(*player))
            }
            Event::SeatReturned { player } => {
                format!("{} took the seat back", name(*player))
            }
            Event::TimeUp {} => "Time is up: the game ends with this round.".to_owned(),
            Event::GameEnded { ranking } => {
                let mut text = String::from("Final ranking:");
                for (i, &seat) in ranking.iter().enumerate() {
                    let _ = write!(
                        text,
                        "
  {}. {} (on {})",
                        i + 1,
                        name(seat),
                        place(self.positions[seat])
                    );
                }
                text
            }
            _ => return None,
        })
    }
}

/// The rules in words for the narration: the options, and what pick-die throws.
pub fn rules_in_words(rules: &Rules) -> String {
    if rules.choice == snl_engine::Choice::PickDie {
        format!("{rules} (two dice are thrown and the token moves by either one)")
    } else {
        rules.to_string()
    }
}

#[cfg(test)]
mod tests {
    use snl_engine::{Board, Preset, Seat, SeatKind};

    use super::*;

    #[test]
    fn pick_die_says_which_die_moved_and_that_two_are_thrown() {
        let rules = Rules { choice: snl_engine::Choice::PickDie, ..Rules::default() };
        let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        let seats = vec![Seat::new("Ann", SeatKind::Human), Seat::new("Bob", SeatKind::Easy)];
        let game = Game::new(board, rules, seats).unwrap();
        let mut words = Sentences::new(&game);
        let start = words.sentence(&Event::GameStarted { players: vec![0, 1], board_size: 100 });
        let start = start.unwrap();
        assert!(start.contains("two dice are thrown and the token moves by either one"), "{start}");
        let roll = Roll::from_faces(&[5, 6]);
        assert_eq!(words.sentence(&Event::DiceRolled { player: 0, roll: 11, dice: roll }), None);
        assert_eq!(
            words.sentence(&Event::Moved { player: 0, from: 0, to: 5, steps: 5 }).unwrap(),
            "Ann rolled 5 and 6, took the 5 and moved from the start to 5"
        );
    }

    #[test]
    fn a_seat_named_you_is_spoken_to_and_any_other_is_spoken_of() {
        let seats = vec![Seat::new("You", SeatKind::Human), Seat::new("Ann", SeatKind::Easy)];
        let board = Board::new(&Preset::Classic.spec(), &Rules::default()).unwrap();
        let game = Game::new(board, Rules::default(), seats).unwrap();
        let mut words = Sentences::new(&game);
        let mut both = |event: fn(usize) -> Event| {
            [0, 1].map(|p| words.sentence(&event(p)).unwrap_or_default())
        };
        assert_eq!(
            both(|player| Event::Snake { player, from: 99, to: 54 }),
            [
                "Oh no! A snake at 99 took you down to 54",
                "Oh no! A snake at 99 took Ann down to 54"
            ]
        );
        assert_eq!(
            both(|player| Event::Ladder { player, from: 6, to: 25 }),
            ["Yes! A ladder at 6 took you up to 25", "Yes! A ladder at 6 took Ann up to 25"]
        );
        assert_eq!(
            both(|player| Event::Wormhole { player, from: 3, to: 9 }),
            ["Whoosh! A wormhole at 3 took you to 9", "Whoosh! A wormhole at 3 took Ann to 9"]
        );
        assert_eq!(
            both(|player| Event::ShieldUsed { player, at: 40 }),
            [
                "Your shield stops the snake at 40: the token stays on 40",
                "Ann's shield stops the snake at 40: the token stays on 40"
            ]
        );
        assert_eq!(
            both(|player| Event::BonusRoll { player }),
            ["You roll again", "Ann rolls again"]
        );
        assert_eq!(
            both(|player| Event::PlayerFinished { player, rank: 1 }),
            ["You reached 100 and win!", "Ann reached 100 and wins!"]
        );
        assert_eq!(
            both(|player| Event::PlayerFinished { player, rank: 2 }),
            ["You reached 100 and finish 2nd", "Ann reached 100 and finishes 2nd"]
        );
        assert_eq!(agree("You", "is moving", "are moving"), "You are moving");
        assert_eq!(agree("Ann", "is moving", "are moving"), "Ann is moving");
    }

    #[test]
    fn ordinals_read_naturally() {
        let got = [1, 2, 3, 4, 10, 11, 12, 13, 21, 22, 23, 101, 111, 112, 113, 1012].map(ordinal);
        let want = [
            "1st", "2nd", "3rd", "4th", "10th", "11th", "12th", "13th", "21st", "22nd", "23rd",
            "101st", "111th", "112th", "113th", "1012th",
        ];
        assert_eq!(got, want);
    }
}
