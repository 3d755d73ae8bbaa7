// Long because every event variant is spelled out with its docs, the wire form and the transcript.
//! What happens in a game, as a stream of [`Event`]s.
//!
//! Displays, recorders, statistics and the network all consume the same stream. An event stands
//! alone: it says who (a seat), what the dice showed, where a token went and what the rules did,
//! so a consumer needs no access to the game. In the engine a player is a seat index
//! (`Event<usize>`); [`Event::named`] turns it into the wire form of SPEC §6 (`Event<String>`,
//! players by name), and [`Numbered`] adds the sequence number `seq` under which an event is
//! stored and sent. That one typed form is what `--events jsonl`, the game database and the
//! network all use.

use serde::{Deserialize, Serialize};

use crate::{dice::Roll, rules::Overshoot};

/// One thing that happened. `P` names a player: a seat index (0-based, in seating order) in the
/// engine, the seat's name in the wire form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Event<P = usize> {
    /// The first turn is about to be played.
    GameStarted {
        /// Every seat, in seating order.
        players: Vec<P>,
        /// N.
        board_size: u32,
    },
    /// A player's turn begins.
    TurnStarted {
        /// Who.
        player: P,
        /// Where the player stands.
        position: u32,
    },
    /// Dice were thrown.
    DiceRolled {
        /// Who.
        player: P,
        /// The total.
        roll: u32,
        /// Each die.
        dice: Roll,
    },
    /// A token moved along the board (before any jump).
    Moved {
        /// Who.
        player: P,
        /// From this position.
        from: u32,
        /// To this cell.
        to: u32,
        /// The cells moved by: the roll's total, or the die chosen under pick-die; a bounce
        /// moves fewer cells forward than this.
        #[serde(default)]
        steps: u32,
    },
    /// A roll would have passed cell N; `rule` says what the overshoot rule did.
    Overshoot {
        /// Who.
        player: P,
        /// Where the player stood.
        position: u32,
        /// The cells the move asked for.
        roll: u32,
        /// Stay (no move), bounce (back from N) or win (finish on N).
        #[serde(default)]
        rule: Overshoot,
    },
    /// A snake took a token down.
    Snake {
        /// Who.
        player: P,
        /// The snake's head.
        from: u32,
        /// Its tail.
        to: u32,
    },
    /// A ladder took a token up.
    Ladder {
        /// Who.
        player: P,
        /// The ladder's foot.
        from: u32,
        /// Its top.
        to: u32,
    },
    /// The roll earned another roll in the same turn.
    BonusRoll {
        /// Who.
        player: P,
    },
    /// The turn was undone (on-max void).
    TurnVoided {
        /// Who.
        player: P,
        /// Where the token went back to.
        back_to: u32,
    },
    /// A player chose not to move (choice = may-pass).
    Stayed {
        /// Who.
        player: P,
        /// Where the player stays.
        position: u32,
    },
    /// A person handed their seat to the computer (`on`), or took it back. Sessions report it;
    /// the engine itself never does, since who decides is not part of the rules.
    Autopilot {
        /// Whose seat.
        player: P,
        /// True when the computer takes over, false when the person takes the seat back.
        on: bool,
    },
    /// A player's turn was skipped (a `skip` cell): it counts as a turn with no roll.
    TurnSkipped {
        /// Who.
        player: P,
    },
    /// The token came to rest on an `extra` cell: the turn goes on with one more roll. When the
    /// roll also earned a bonus roll, only [`Event::BonusRoll`] is told: one more roll, never two.
    ExtraRoll {
        /// Who.
        player: P,
    },
    /// The player came to rest on a `shield` cell without a shield, and now holds one.
    ShieldGained {
        /// Who.
        player: P,
    },
    /// The player's shield stopped the snake starting on `at`; the token stays there.
    ShieldUsed {
        /// Who.
        player: P,
        /// The snake's head, where the token stays.
        at: u32,
    },
    /// A wormhole took a token to the exit drawn.
    Wormhole {
        /// Who.
        player: P,
        /// The wormhole's cell.
        from: u32,
        /// The exit drawn.
        to: u32,
    },
    /// A player reached cell N.
    PlayerFinished {
        /// Who.
        player: P,
        /// 1 for the winner.
        rank: u32,
    },
    /// The game is over.
    GameEnded {
        /// Seats from first to last.
        ranking: Vec<P>,
    },
    /// A player who was away came back, or one who was here dropped (online play). Sessions
    /// report it, never the engine.
    Presence {
        /// Whose seat.
        player: P,
        /// True when connected.
        online: bool,
    },
    /// A person's turn clock ran out and the seat's computer played the rest of that turn.
    TimedOut {
        /// Whose seat.
        player: P,
    },
    /// A person's last connection dropped while the game ran: the seat is kept for them for
    /// `seconds` (the grace), their turn clock paused (online play; sessions report it).
    GraceStarted {
        /// Whose seat.
        player: P,
        /// How long the seat is kept.
        seconds: u64,
    },
    /// The grace ran out with the person away: the computer (hard) plays the seat until they
    /// take it back.
    SeatAutoplayed {
        /// Whose seat.
        player: P,
    },
    /// The person came back within the grace, or took their seat back from the computer.
    SeatReturned {
        /// Whose seat.
        player: P,
    },
    /// The game clock ran out.
    TimeUp {},
    /// A line of chat from a seat (online play).
    Chat {
        /// Who wrote.
        player: P,
        /// What they wrote.
        text: String,
    },
    /// A person took turns back (undo): the game is again at turn `turn`, `player` to roll.
    #[serde(rename = "undo")]
    Undone {
        /// The turn about to be played again.
        turn: u32,
        /// Who is to roll now.
        player: P,
    },
    /// Turns taken back were put back (redo); their events follow, told again.
    #[serde(rename = "redo")]
    Redone {
        /// The first turn put back.
        from_turn: u32,
        /// The last.
        to_turn: u32,
    },
}

impl<P> Event<P> {
    /// The seat the event is about, if it is about one.
    pub fn player(&self) -> Option<&P> {
        match self {
            Event::TurnStarted { player, .. }
            | Event::DiceRolled { player, .. }
            | Event::Moved { player, .. }
            | Event::Overshoot { player, .. }
            | Event::Snake { player, .. }
            | Event::Ladder { player, .. }
            | Event::BonusRoll { player }
            | Event::TurnVoided { player, .. }
            | Event::Stayed { player, .. }
            | Event::TurnSkipped { player }
            | Event::ExtraRoll { player }
            | Event::ShieldGained { player }
            | Event::ShieldUsed { player, .. }
            | Event::Wormhole { player, .. }
            | Event::Autopilot { player, .. }
            | Event::PlayerFinished { player, .. }
            | Event::Presence { player, .. }
            | Event::TimedOut { player }
            | Event::GraceStarted { player, .. }
            | Event::SeatAutoplayed { player }
            | Event::SeatReturned { player }
            | Event::Chat { player, .. }
            | Event::Undone { player, .. } => Some(player),
            Event::GameStarted { .. }
            | Event::GameEnded { .. }
            | Event::TimeUp {}
            | Event::Redone { .. } => None,
        }
    }

    /// The same event with every player mapped by `f`.
    pub fn map_players<Q>(&self, f: impl Fn(&P) -> Q) -> Event<Q> {
        let all = |list: &[P]| list.iter().map(&f).collect();
        match self {
            Event::GameStarted { players, board_size } => {
                Event::GameStarted { players: all(players), board_size: *board_size }
            }
            Event::TurnStarted { player, position } => {
                Event::TurnStarted { player: f(player), position: *position }
            }
            Event::DiceRolled { player, roll, dice } => {
                Event::DiceRolled { player: f(player), roll: *roll, dice: *dice }
            }
            Event::Moved { player, from, to, steps } => {
                Event::Moved { player: f(player), from: *from, to: *to, steps: *steps }
            }
            Event::Overshoot { player, position, roll, rule } => Event::Overshoot {
                player: f(player),
                position: *position,
                roll: *roll,
                rule: *rule,
            },
            Event::Snake { player, from, to } => {
                Event::Snake { player: f(player), from: *from, to: *to }
            }
            Event::Ladder { player, from, to } => {
                Event::Ladder { player: f(player), from: *from, to: *to }
            }
            Event::BonusRoll { player } => Event::BonusRoll { player: f(player) },
            Event::TurnVoided { player, back_to } => {
                Event::TurnVoided { player: f(player), back_to: *back_to }
            }
            Event::Stayed { player, position } => {
                Event::Stayed { player: f(player), position: *position }
            }
            Event::TurnSkipped { player } => Event::TurnSkipped { player: f(player) },
            Event::ExtraRoll { player } => Event::ExtraRoll { player: f(player) },
            Event::ShieldGained { player } => Event::ShieldGained { player: f(player) },
            Event::ShieldUsed { player, at } => Event::ShieldUsed { player: f(player), at: *at },
            Event::Wormhole { player, from, to } => {
                Event::Wormhole { player: f(player), from: *from, to: *to }
            }
            Event::Autopilot { player, on } => Event::Autopilot { player: f(player), on: *on },
            Event::PlayerFinished { player, rank } => {
                Event::PlayerFinished { player: f(player), rank: *rank }
            }
            Event::GameEnded { ranking } => Event::GameEnded { ranking: all(ranking) },
            Event::Presence { player, online } => {
                Event::Presence { player: f(player), online: *online }
            }
            Event::TimedOut { player } => Event::TimedOut { player: f(player) },
            Event::GraceStarted { player, seconds } => {
                Event::GraceStarted { player: f(player), seconds: *seconds }
            }
            Event::SeatAutoplayed { player } => Event::SeatAutoplayed { player: f(player) },
            Event::SeatReturned { player } => Event::SeatReturned { player: f(player) },
            Event::TimeUp {} => Event::TimeUp {},
            Event::Chat { player, text } => Event::Chat { player: f(player), text: text.clone() },
            Event::Undone { turn, player } => Event::Undone { turn: *turn, player: f(player) },
            Event::Redone { from_turn, to_turn } => {
                Event::Redone { from_turn: *from_turn, to_turn: *to_turn }
            }
        }
    }
}

impl Event<usize> {
    /// The wire form: players by the names of `seats` (a seat index without a seat becomes
    /// `#N`, which no valid game produces).
    pub fn named(&self, seats: &[crate::Seat]) -> Event<String> {
        self.map_players(|&s| seats.get(s).map_or_else(|| format!("#{s}"), |x| x.name.clone()))
    }
}

impl Event<String> {
    /// The engine form again: names back to seat indices, or `None` when a name is not a seat's.
    pub fn indexed(&self, seats: &[crate::Seat]) -> Option<Event<usize>> {
        let index = |name: &String| seats.iter().position(|s| &s.name == name);
        let all_known = match self {
            Event::GameStarted { players, .. } => players.iter().all(|p| index(p).is_some()),
            Event::GameEnded { ranking } => ranking.iter().all(|p| index(p).is_some()),
            other => other.player().is_none_or(|p| index(p).is_some()),
        };
        all_known.then(|| self.map_players(|p| index(p).unwrap_or(usize::MAX)))
    }
}

/// An event with its sequence number in the game's stream (1, 2, …): the form in which events
/// are stored and sent (`{"seq": 3, "type": "moved", …}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Numbered<P = String> {
    /// 1 for the game's first event.
    pub seq: u64,
    /// What happened.
    #[serde(flatten)]
    pub event: Event<P>,
}

/// Receives every event of a game, in order.
pub trait Observer {
    /// Called once per event.
    fn event(&mut self, event: &Event);
}

/// Ignores every event.
impl Observer for () {
    fn event(&mut self, _: &Event) {}
}

/// Collects every event.
impl Observer for Vec<Event> {
    fn event(&mut self, event: &Event) {
        self.push(event.clone());
    }
}

impl<O: Observer + ?Sized> Observer for &mut O {
    fn event(&mut self, event: &Event) {
        (**self).event(event);
    }
}

/// Delivers each event to both, first `A` then `B`.
impl<A: Observer, B: Observer> Observer for (A, B) {
    fn event(&mut self, event: &Event) {
        self.0.event(event);
        self.1.event(event);
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
/// let mut transcript = Transcript::new(game.seats());
/// game.play_turn(&mut ScriptedDice::parse("6", Dice::D6)?, &mut FirstOption, &mut transcript)?;
/// assert_eq!(transcript.text(), "start Ann Bob on 100\nturn Ann at 0\n  roll 6\n  move 0 -> 6\n  ladder 6 -> 25\n");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transcript {
    names: Vec<String>,
    text: String,
}

impl Transcript {
    /// An empty transcript that names players after `seats`.
    pub fn new(seats: &[crate::Seat]) -> Transcript {
        Transcript { names: seats.iter().map(|s| s.name.clone()).collect(), text: String::new() }
    }

    /// Everything written so far.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl Observer for Transcript {
    fn event(&mut self, event: &Event) {
        use std::fmt::Write as _;
        let known = &self.names;
        let name = |seat: &usize| known.get(*seat).map_or("?", String::as_str);
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
            Event::TurnSkipped { player } => writeln!(t, "skip {}", name(player)),
            Event::ExtraRoll { .. } => writeln!(t, "  extra roll"),
            Event::ShieldGained { .. } => writeln!(t, "  shield gained"),
            Event::ShieldUsed { at, .. } => writeln!(t, "  shield used on {at}"),
            Event::Wormhole { from, to, .. } => writeln!(t, "  wormhole {from} -> {to}"),
            Event::Autopilot { player, on } => {
                writeln!(t, "autopilot {} {}", name(player), if *on { "on" } else { "off" })
            }
            Event::PlayerFinished { player, rank } => {
                writeln!(t, "finished {} rank {rank}", name(player))
            }
            Event::GameEnded { ranking } => writeln!(t, "end {}", names(ranking)),
            Event::Presence { player, online } => {
                writeln!(t, "{} {}", name(player), if *online { "back" } else { "away" })
            }
            Event::TimedOut { player } => writeln!(t, "timed out {}", name(player)),
            Event::GraceStarted { player, seconds } => {
                writeln!(t, "grace {} {seconds} s", name(player))
            }
            Event::SeatAutoplayed { player } => writeln!(t, "autoplayed {}", name(player)),
            Event::SeatReturned { player } => writeln!(t, "returned {}", name(player)),
            Event::TimeUp {} => writeln!(t, "time up"),
            Event::Chat { player, text } => writeln!(t, "chat {}: {text}", name(player)),
            Event::Undone { player, turn } => writeln!(t, "undo to turn {turn}, {}", name(player)),
            Event::Redone { from_turn, to_turn } => writeln!(t, "redo {from_turn} to {to_turn}"),
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
    fn event(&mut self, event: &Event) {
        for o in &mut self.list {
            o.event(event);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, Dice, FirstOption, Game, Preset, Rules, ScriptedDice, Seat, SeatKind};

    #[test]
    fn every_subscriber_hears_every_event_in_order() {
        let rules = Rules::default();
        let board = Board::new(&Preset::Classic.spec(), &rules).unwrap();
        let seats = vec![Seat::new("Ann", SeatKind::Easy), Seat::new("Bob", SeatKind::Easy)];
        let mut game = Game::new(board, rules, seats).unwrap();
        let (mut a, mut b, mut t) = (Vec::new(), Vec::new(), Transcript::new(game.seats()));
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
        assert_eq!(
            a.iter().filter_map(Event::player).copied().collect::<Vec<_>>(),
            [0, 0, 0, 0, 1, 1, 1]
        );
    }
}
