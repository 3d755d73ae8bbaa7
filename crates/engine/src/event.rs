//! What happens in a game, as a stream of [`Event`]s delivered to [`Observer`]s.
//!
//! Displays, recorders, statistics and the network all subscribe to the same stream. Events name
//! players by seat index; front ends turn indices into names (see SPEC §6 for the JSON form).

use serde::{Deserialize, Serialize};

use crate::{dice::Roll, game::Game};

/// One thing that happened. `player` is a seat index (0-based, in seating order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Event {
    /// The first turn is about to be played.
    GameStarted {
        /// Every seat, in seating order.
        players: Vec<usize>,
        /// N.
        board_size: u32,
    },
    /// A player's turn begins.
    TurnStarted {
        /// Who.
        player: usize,
        /// Where the player stands.
        position: u32,
    },
    /// Dice were thrown.
    DiceRolled {
        /// Who.
        player: usize,
        /// The total.
        roll: u32,
        /// Each die.
        dice: Roll,
    },
    /// A token moved along the board (before any jump).
    Moved {
        /// Who.
        player: usize,
        /// From this position.
        from: u32,
        /// To this cell.
        to: u32,
    },
    /// A roll would have passed cell N; the overshoot rule applies.
    Overshoot {
        /// Who.
        player: usize,
        /// Where the player stood.
        position: u32,
        /// The roll's total.
        roll: u32,
    },
    /// A snake took a token down.
    Snake {
        /// Who.
        player: usize,
        /// The snake's head.
        from: u32,
        /// Its tail.
        to: u32,
    },
    /// A ladder took a token up.
    Ladder {
        /// Who.
        player: usize,
        /// The ladder's foot.
        from: u32,
        /// Its top.
        to: u32,
    },
    /// The roll earned another roll in the same turn.
    BonusRoll {
        /// Who.
        player: usize,
    },
    /// The turn was undone (on-max void).
    TurnVoided {
        /// Who.
        player: usize,
        /// Where the token went back to.
        back_to: u32,
    },
    /// A player chose not to move (choice = may-pass).
    Stayed {
        /// Who.
        player: usize,
        /// Where the player stays.
        position: u32,
    },
    /// A person handed their seat to the computer (`on`), or took it back. Front ends report
    /// it; the engine itself never does, since who decides is not part of the rules.
    Autopilot {
        /// Whose seat.
        player: usize,
        /// True when the computer takes over, false when the person takes the seat back.
        on: bool,
    },
    /// A player reached cell N.
    PlayerFinished {
        /// Who.
        player: usize,
        /// 1 for the winner.
        rank: u32,
    },
    /// The game is over.
    GameEnded {
        /// Seats from first to last.
        ranking: Vec<usize>,
    },
}

impl Event {
    /// The seat the event is about, if it is about one.
    pub fn player(&self) -> Option<usize> {
        match *self {
            Event::TurnStarted { player, .. }
            | Event::DiceRolled { player, .. }
            | Event::Moved { player, .. }
            | Event::Overshoot { player, .. }
            | Event::Snake { player, .. }
            | Event::Ladder { player, .. }
            | Event::BonusRoll { player }
            | Event::TurnVoided { player, .. }
            | Event::Stayed { player, .. }
            | Event::Autopilot { player, .. }
            | Event::PlayerFinished { player, .. } => Some(player),
            Event::GameStarted { .. } | Event::GameEnded { .. } => None,
        }
    }
}

/// Receives every event of a game, in order. `game` is the state just after the event.
pub trait Observer {
    /// Called once per event.
    fn event(&mut self, game: &Game, event: &Event);
}

/// Ignores every event.
impl Observer for () {
    fn event(&mut self, _: &Game, _: &Event) {}
}

/// Collects every event.
impl Observer for Vec<Event> {
    fn event(&mut self, _: &Game, event: &Event) {
        self.push(event.clone());
    }
}

impl<O: Observer + ?Sized> Observer for &mut O {
    fn event(&mut self, game: &Game, event: &Event) {
        (**self).event(game, event);
    }
}

/// Delivers each event to both, first `A` then `B`.
impl<A: Observer, B: Observer> Observer for (A, B) {
    fn event(&mut self, game: &Game, event: &Event) {
        self.0.event(game, event);
        self.1.event(game, event);
    }
}

/// Writes the game as compact text, one line per event, players by name: the form tests compare
/// whole, and a readable trace for learners.
///
/// ```
/// use snl_engine::{Board, Dice, FirstOption, Game, Preset, Rules, ScriptedDice, Seat, SeatKind, Transcript};
/// let rules = Rules::default();
/// let board = Board::new(&Preset::Classic.spec(), &rules)?;
/// let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Bob", SeatKind::Easy)];
/// let mut game = Game::new(board, rules, seats)?;
/// let mut transcript = Transcript::default();
/// game.play_turn(&mut ScriptedDice::parse("6", Dice::D6)?, &mut FirstOption, &mut transcript)?;
/// assert_eq!(transcript.text(), "start Ann Bob on 100\nturn Ann at 0\n  roll 6\n  move 0 -> 6\n  ladder 6 -> 25\n");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transcript {
    text: String,
}

impl Transcript {
    /// Everything written so far.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl Observer for Transcript {
    fn event(&mut self, game: &Game, event: &Event) {
        use std::fmt::Write as _;
        let name = |seat: &usize| game.seats()[*seat].name.as_str();
        let names = |seats: &[usize]| seats.iter().map(name).collect::<Vec<_>>().join(" ");
        let t = &mut self.text;
        let _ = match event {
            Event::GameStarted { players, board_size } => {
                writeln!(t, "start {} on {board_size}", names(players))
            }
            Event::TurnStarted { player, position } => {
                writeln!(t, "turn {} at {position}", name(player))
            }
            Event::DiceRolled { roll, dice, .. } if dice.dice().len() > 1 => {
                let faces: Vec<String> = dice.dice().iter().map(u8::to_string).collect();
                writeln!(t, "  roll {roll} ({})", faces.join("+"))
            }
            Event::DiceRolled { roll, .. } => writeln!(t, "  roll {roll}"),
            Event::Moved { from, to, .. } => writeln!(t, "  move {from} -> {to}"),
            Event::Overshoot { position, roll, .. } => {
                writeln!(t, "  overshoot from {position} by {roll}")
            }
            Event::Snake { from, to, .. } => writeln!(t, "  snake {from} -> {to}"),
            Event::Ladder { from, to, .. } => writeln!(t, "  ladder {from} -> {to}"),
            Event::BonusRoll { .. } => writeln!(t, "  bonus roll"),
            Event::TurnVoided { back_to, .. } => writeln!(t, "  void, back to {back_to}"),
            Event::Stayed { position, .. } => writeln!(t, "  stay on {position}"),
            Event::Autopilot { player, on } => {
                writeln!(t, "autopilot {} {}", name(player), if *on { "on" } else { "off" })
            }
            Event::PlayerFinished { player, rank } => {
                writeln!(t, "finished {} rank {rank}", name(player))
            }
            Event::GameEnded { ranking } => writeln!(t, "end {}", names(ranking)),
        };
    }
}

/// Any number of subscribers, each told every event in the order they subscribed.
#[derive(Default)]
pub struct Subscribers<'a> {
    list: Vec<&'a mut dyn Observer>,
}

impl<'a> Subscribers<'a> {
    /// No subscribers yet.
    pub fn new() -> Subscribers<'a> {
        Subscribers { list: Vec::new() }
    }

    /// Adds a subscriber.
    pub fn subscribe(&mut self, observer: &'a mut dyn Observer) -> &mut Subscribers<'a> {
        self.list.push(observer);
        self
    }

    /// How many subscribers there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// True if and only if there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

impl std::fmt::Debug for Subscribers<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscribers").field("len", &self.list.len()).finish()
    }
}

impl Observer for Subscribers<'_> {
    fn event(&mut self, game: &Game, event: &Event) {
        for o in &mut self.list {
            o.event(game, event);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, Dice, FirstOption, Preset, Rules, ScriptedDice, Seat, SeatKind};

    #[test]
    fn every_subscriber_hears_every_event_in_order() {
        let rules = Rules::default();
        let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Bob", SeatKind::Easy)];
        let mut game = Game::new(board, rules, seats).unwrap();
        let (mut a, mut b, mut t) = (Vec::new(), Vec::new(), Transcript::default());
        let mut subscribers = Subscribers::new();
        subscribers.subscribe(&mut a).subscribe(&mut b).subscribe(&mut t);
        assert_eq!(subscribers.len(), 3);
        let mut dice = ScriptedDice::parse("6,5", Dice::D6).unwrap();
        game.play_turn(&mut dice, &mut FirstOption, &mut subscribers).unwrap();
        game.play_turn(&mut dice, &mut FirstOption, &mut subscribers).unwrap();
        drop(subscribers);
        assert_eq!(a, b);
        assert_eq!(a.len(), 8); // started, 2 × (turn, roll, move), ladder
        assert_eq!(a[0], Event::GameStarted { players: vec![0, 1], board_size: 100 });
        assert_eq!(t.text().lines().count(), 8);
        assert_eq!(a.iter().filter_map(Event::player).collect::<Vec<_>>(), [0, 0, 0, 0, 1, 1, 1]);
    }
}
