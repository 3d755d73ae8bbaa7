//! `snl join` and `snl watch` on the full screen: the same board, players, log and footer as a
//! game at the table, driven by a room's events (`RoomClient`) instead of a local session.
//!
//! The server owns the dice and the rules; the screen keeps a [`Mirror`], a local copy of the
//! game that plays the inputs the server's events reveal (the dice thrown, the option taken, the
//! exit drawn) and checks that it tells the same events. The `App` then shows a session over
//! that copy, so the board, the players panel, the chances and the animation are those of a
//! local game. This is the room's state; `update/room.rs` is its update (the room's messages,
//! keys become intents in [`Online::outbox`], which the loop in `screen.rs` sends).

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use snl_engine::{Board, BoardSpec, Event, Game, Input, Pending, Rules, Seat, SeatKind};
use snl_session::{Awaiting, Intent, Session};
use snl_store::DiceState;
use snl_wire::{frames::ClientFrame, rooms::RoomState};

use crate::clocks::{Clock, Clocks};

/// The local copy of a room's game, played from the server's events.
#[derive(Clone, Debug)]
pub(crate) struct Mirror {
    game: Game,
    /// The server's game events not yet explained by an input.
    heard: VecDeque<Event>,
    /// Events the local game told that the server has not sent yet (an input's events come one
    /// frame each): each must come next.
    ahead: VecDeque<Event>,
}

/// The local copy could not play what the server told (it should not happen: the server plays
/// the same engine); the sentence says what disagreed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct Lost(pub(crate) String);

impl Mirror {
    pub(crate) fn new(game: Game) -> Mirror {
        Mirror { game, heard: VecDeque::new(), ahead: VecDeque::new() }
    }

    pub(crate) fn game(&self) -> &Game {
        &self.game
    }

    /// Takes the server's next game event (players as seats); returns the events the local game
    /// played because of it, to show (none while the input it belongs to is not known yet, or
    /// when the local game told it already).
    ///
    /// # Errors
    ///
    /// [`Lost`] when the server's event is not what the local game plays.
    pub(crate) fn follow(&mut self, event: Event) -> Result<Vec<Event>, Lost> {
        if let Some(expected) = self.ahead.pop_front() {
            if expected != event {
                return Err(Lost(format!("the server told {event:?} where {expected:?} was due")));
            }
            return Ok(Vec::new());
        }
        self.heard.push_back(event);
        let mut shown = Vec::new();
        while !self.heard.is_empty() {
            let Some(input) = self.next_input()? else { break };
            let events = self
                .game
                .apply(input)
                .map_err(|e| Lost(format!("the server's {input:?} does not play here: {e}")))?;
            for (k, told) in events.iter().enumerate() {
                match self.heard.get(k) {
                    Some(heard) if heard != told => {
                        return Err(Lost(format!(
                            "the server told {heard:?} where {told:?} was due"
                        )));
                    }
                    Some(_) => {}
                    None => self.ahead.push_back(told.clone()),
                }
            }
            let used = events.len().min(self.heard.len());
            self.heard.drain(..used);
            shown.extend(events);
        }
        Ok(shown)
    }

    /// The input the events heard begin with, if they tell enough to know it.
    fn next_input(&self) -> Result<Option<Input>, Lost> {
        let first = &self.heard[0];
        if matches!(first, Event::TimeUp {}) {
            return Ok(Some(Input::TimeUp));
        }
        // A seat's turn clock ran out: the rest of its turn is the computer's, here as on the
        // server (before its first roll, it comes after the turn's start: below).
        if matches!(first, Event::TimedOut { .. }) {
            return Ok(Some(Input::TurnTimeUp));
        }
        match self.game.pending() {
            Pending::Roll { .. } => {
                // A roll's events begin with the game's start and the turn's, then the dice.
                for heard in &self.heard {
                    match heard {
                        Event::DiceRolled { dice, .. } => {
                            return Ok(Some(Input::Roll { roll: *dice }));
                        }
                        // The clock ran out before the turn's first roll.
                        Event::TimedOut { .. } => return Ok(Some(Input::TurnTimeUp)),
                        Event::GameStarted { .. } | Event::TurnStarted { .. } => {}
                        other => {
                            return Err(Lost(format!(
                                "the server told {other:?} where a roll was due"
                            )));
                        }
                    }
                }
                Ok(None)
            }
            Pending::Draw { exits, .. } => match first {
                Event::Wormhole { to, .. } => match exits.iter().position(|x| x == to) {
                    Some(index) => Ok(Some(Input::Draw { index: index as u32 })),
                    None => Err(Lost(format!("the wormhole has no exit {to}"))),
                },
                other => Err(Lost(format!("the server told {other:?} where a draw was due"))),
            },
            Pending::Choice(decision) => {
                for option in 0..decision.options.len() {
                    let mut trial = self.game.clone();
                    let Ok(events) = trial.apply(Input::Choose { option }) else { continue };
                    if events.iter().zip(&self.heard).all(|(a, b)| a == b) {
                        return Ok(Some(Input::Choose { option }));
                    }
                }
                Err(Lost(format!("no option of the choice tells {first:?}")))
            }
            Pending::Over => Err(Lost(format!("the game is over, yet the server told {first:?}"))),
        }
    }
}

/// The state of the connection, for the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Connection {
    Live,
    /// The connection dropped; the client connects again with `since`.
    Reconnecting,
    /// Over for good: why.
    Closed(String),
}

/// What the screen knows of the room, beside the game.
#[derive(Debug)]
pub(crate) struct Online {
    /// The room's page address.
    pub(crate) url: String,
    /// The seats' names (as the server names players in events).
    pub(crate) names: Vec<String>,
    pub(crate) kinds: Vec<SeatKind>,
    pub(crate) board: BoardSpec,
    pub(crate) rules: Rules,
    pub(crate) board_name: String,
    pub(crate) mirror: Mirror,
    /// Seats handed to the computer.
    pub(crate) autopilot: Vec<bool>,
    /// Seats whose player is away (told by `presence`).
    pub(crate) away: Vec<bool>,
    /// When each dropped person's grace runs out, on [`Online::time`] (told by `grace_started`
    /// or a welcome's `grace_left_ms`; ended by `seat_autoplayed` or `seat_returned`).
    pub(crate) grace: Vec<Option<Duration>>,
    /// The time the graces count on (a test's is pretend).
    pub(crate) time: Clock,
    /// Intents for the loop to send.
    pub(crate) outbox: Vec<ClientFrame>,
    /// An intent was sent and its answer not heard yet: keys wait.
    pub(crate) asked: bool,
    /// The id of the input the room last said it awaits, until the next event: a roll or a
    /// choice carries it, so the room refuses one that answers an input already passed.
    pub(crate) input: Option<u64>,
    pub(crate) connection: Connection,
    /// Events up to this number were played before the screen connected (or while it was
    /// away): they are shown at once, not animated.
    pub(crate) caught_up_to: u64,
    /// Why the local copy stopped following, if it did (the log still tells the events).
    pub(crate) lost: Option<String>,
    /// Whether the game has been heard to start.
    pub(crate) started: bool,
    /// The room's turn and game clocks as shown here (the server plays their expiries): set
    /// from a welcome's time left, then counting, a person's turn clock starting again at each
    /// input awaited as the server's does.
    pub(crate) clocks: Option<Clocks>,
    /// The chat line being typed (`c` opens it, Enter sends it, Esc drops it).
    pub(crate) chat: Option<String>,
    /// Where the room's series stands, for a room that plays a game of one.
    pub(crate) series: Option<snl_wire::rooms::SeriesLine>,
    /// The next game of the series, once asked for (`n` at the end) or opened by someone:
    /// the screen closes and the caller goes on there.
    pub(crate) next: Option<Next>,
}

/// The series' next game, as the screen leaves it to its caller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Next {
    /// `n` at the end: the caller opens it (or finds it open).
    Asked,
    /// Open in this room.
    Open(String),
}

impl Online {
    /// The room as the welcome's `state` describes it.
    ///
    /// # Errors
    ///
    /// A sentence when the state's board, rules or seats cannot be read or played.
    pub(crate) fn new(url: &str, state: &RoomState) -> Result<Online, String> {
        let board = state.board.clone();
        let rules = state.rules;
        let kinds: Vec<SeatKind> = state.seats.iter().map(|s| s.kind).collect();
        let names: Vec<String> = state
            .seats
            .iter()
            .map(|s| s.name.clone().unwrap_or_else(|| format!("Seat {}", s.seat + 1)))
            .collect();
        let away = state
            .seats
            .iter()
            .map(|s| s.kind == SeatKind::Human && !s.online && s.name.is_some())
            .collect();
        let board_name = state.board_name.clone();
        let game = new_game(&board, &rules, &names, &kinds)?;
        let mut online = Online {
            url: url.to_owned(),
            autopilot: vec![false; names.len()],
            away,
            grace: Vec::new(),
            time: Clock::Real(Instant::now()),
            names,
            kinds,
            board,
            rules,
            board_name,
            mirror: Mirror::new(game),
            outbox: Vec::new(),
            asked: false,
            input: None,
            connection: Connection::Live,
            caught_up_to: 0,
            lost: None,
            started: false,
            clocks: Clocks::new(state.turn_time, state.game_time, None),
            chat: None,
            series: state.series.clone(),
            next: None,
        };
        online.take_graces(state);
        Ok(online)
    }

    /// Takes the graces running as a room's state tells them (`grace_left_ms`): a screen that
    /// joins, or joins again, counts from there.
    pub(crate) fn take_graces(&mut self, state: &RoomState) {
        let now = self.time.now();
        self.grace = state
            .seats
            .iter()
            .map(|s| s.grace_left_ms.map(|ms| now + Duration::from_millis(ms)))
            .collect();
    }

    /// How long `seat`'s person, dropped, keeps the seat before the computer plays it; none
    /// when the seat is not in its grace.
    pub(crate) fn grace_left(&self, seat: usize) -> Option<Duration> {
        let end = self.grace.get(seat).copied().flatten()?;
        Some(end.saturating_sub(self.time.now()))
    }

    /// Whether what the room awaits is from a person in their grace: the room's turn clock is
    /// paused.
    pub(crate) fn awaited_in_grace(&self, awaiting: &Awaiting) -> bool {
        let seat = match awaiting {
            Awaiting::Roll { seat } => *seat,
            Awaiting::Choice(d) => d.seat,
            Awaiting::Computer { .. } | Awaiting::Over => return false,
        };
        self.grace.get(seat).is_some_and(Option::is_some)
    }

    /// A session over the local copy of the game (what the screen draws), with the seats on
    /// autopilot handed over.
    pub(crate) fn session(&self) -> Session {
        // Numbered where the room's stream is, without replaying the history to count.
        let (game, dice) = (self.mirror.game().clone(), DiceState::seeded(0));
        let mut session = Session::at(game, dice, &self.board_name, self.caught_up_to);
        for (seat, &on) in self.autopilot.iter().enumerate() {
            if on {
                let _ = session.act(seat, Intent::Autopilot { on: true });
            }
        }
        session
    }
}

pub(crate) fn new_game(
    board: &BoardSpec,
    rules: &Rules,
    names: &[String],
    kinds: &[SeatKind],
) -> Result<Game, String> {
    let board =
        Board::new(board, rules).map_err(|e| format!("the room's board is refused: {e}"))?;
    let seats =
        names.iter().zip(kinds).map(|(name, &kind)| Seat::new(name.clone(), kind)).collect();
    Game::new(board, *rules, seats).map_err(|e| format!("the room's game cannot be set: {e}"))
}
