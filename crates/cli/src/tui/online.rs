// Long on purpose: the online screen's state, its update from the server's messages and from keys, and the local copy of the game that lets the screen animate the server's events belong together.
//! `snl join` and `snl watch` on the full screen: the same board, players, log and footer as a
//! game at the table, driven by a room's events ([`RoomClient`]) instead of a local session.
//!
//! The server owns the dice and the rules; the screen keeps a [`Mirror`], a local copy of the
//! game that plays the inputs the server's events reveal (the dice thrown, the option taken, the
//! exit drawn) and checks that it tells the same events. The [`App`] then shows a session over
//! that copy, so the board, the players panel, the chances and the animation are those of a
//! local game. Keys become intents in [`Online::outbox`], which the loop sends; the update layer
//! does no I/O, so tests feed it server events and read the intents without a network.

use std::{
    collections::VecDeque,
    io,
    time::{Duration, Instant},
};

use crossterm::event;
use snl_engine::{Board, BoardSpec, Event, Game, Input, Numbered, Pending, Rules, Seat, SeatKind};
use snl_session::{Awaiting, Intent, Session};
use snl_store::DiceState;
use snl_wire::{frames::ClientFrame, rooms::RoomState};

use super::{
    TICK,
    action::{self, Action},
    app::{App, Options, Said, Stop, Tone, said_of},
    terminal::Screen,
    ui, update,
};
use crate::{
    online::client::{self, RoomClient, RoomUrl, Update},
    table::Kept,
};

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
pub(crate) struct Lost(String);

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
    /// The seat held, or none to watch.
    pub(crate) me: Option<usize>,
    /// The seats' names (as the server names players in events).
    pub(crate) names: Vec<String>,
    pub(crate) kinds: Vec<SeatKind>,
    board: BoardSpec,
    rules: Rules,
    board_name: String,
    pub(crate) mirror: Mirror,
    /// Seats handed to the computer.
    pub(crate) autopilot: Vec<bool>,
    /// Seats whose player is away (told by `presence`).
    pub(crate) away: Vec<bool>,
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
    started: bool,
}

impl Online {
    /// The room as the welcome's `state` describes it; `me` is the seat held.
    ///
    /// # Errors
    ///
    /// A sentence when the state's board, rules or seats cannot be read or played.
    pub(crate) fn new(url: &str, me: Option<usize>, state: &RoomState) -> Result<Online, String> {
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
        Ok(Online {
            url: url.to_owned(),
            me,
            autopilot: vec![false; names.len()],
            away,
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
        })
    }

    /// A session over the local copy of the game (what the screen draws), with the seats on
    /// autopilot handed over.
    pub(crate) fn session(&self) -> Session {
        let mut session =
            Session::new(self.mirror.game().clone(), DiceState::seeded(0), &self.board_name);
        for (seat, &on) in self.autopilot.iter().enumerate() {
            if on {
                let _ = session.act(seat, Intent::Autopilot { on: true });
            }
        }
        session
    }

    /// Whether the seat held is awaited now (to roll or choose), and not on autopilot.
    fn my_turn(&self, awaiting: &Awaiting) -> bool {
        let seat = match awaiting {
            Awaiting::Roll { seat } => *seat,
            Awaiting::Choice(d) => d.seat,
            _ => return false,
        };
        self.me == Some(seat)
    }
}

fn new_game(
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

/// The screen for the room `online` describes.
pub(crate) fn app(online: Online, opts: Options) -> App {
    let session = online.session();
    let room = online.url.rsplit('/').next().unwrap_or_default();
    let intro = match online.me {
        Some(seat) => {
            format!("You sit at seat {} as {} in room {room}.", seat + 1, online.names[seat])
        }
        None => format!("You watch room {room}."),
    };
    let mut app = App::new(session, Kept::default(), opts, false, Some(intro));
    app.online = Some(online);
    app
}

/// One message from the room changes the screen.
pub(crate) fn receive(app: &mut App, update: Update) {
    let Some(mut online) = app.online.take() else { return };
    match update {
        Update::Welcome { seq, state, .. } => {
            online.input = state.awaiting.map(|a| a.input());
            online.caught_up_to = online.caught_up_to.max(seq);
            if online.connection != Connection::Live {
                app.note("Connected again: the events missed follow.");
            }
            online.connection = Connection::Live;
            online.asked = false;
        }
        Update::Event(numbered) => {
            online.input = None;
            hear(app, &mut online, &numbered);
        }
        // The local copy knows what is awaited; the room's id of it is echoed.
        Update::Awaiting(awaiting) => online.input = awaiting.map(|a| a.input()),
        Update::Refused { message, .. } => {
            online.asked = false;
            app.note(&format!("The server says: {message}."));
        }
        Update::Reconnecting(reason) => {
            online.connection = Connection::Reconnecting;
            online.asked = false;
            app.note(&format!("The connection was lost ({reason}): reconnecting…"));
        }
        Update::Closed(reason) => {
            app.note(&format!("The connection to the room ended: {reason}."));
            online.connection = Connection::Closed(reason);
            app.finish_beats();
            app.stop = Some(Stop::Asked);
        }
    }
    app.online = Some(online);
    app.refresh_chances();
}

/// One event of the room.
fn hear(app: &mut App, online: &mut Online, numbered: &Numbered<String>) {
    let event = client::indexed(&numbered.event, &online.names);
    let live = numbered.seq > online.caught_up_to;
    let fast = app.opts.fast;
    // Events the screen missed are shown at once.
    app.opts.fast = fast || !live;
    let mut shown: Vec<Event> = Vec::new();
    match &numbered.event {
        Event::Presence { player, online: here } => {
            if let Some(seat) = online.names.iter().position(|n| n == player) {
                online.away[seat] = !here;
            }
            let how = if *here { "is here" } else { "is away" };
            app.note(&format!("{player} {how}."));
        }
        Event::Chat { player, text } => {
            app.say(Said { text: format!("{player}: {text}"), tone: Tone::Plain });
        }
        Event::Autopilot { on, .. } => {
            if let Some(&seat) = event.player()
                && let Some(flag) = online.autopilot.get_mut(seat)
            {
                *flag = *on;
                if online.me == Some(seat) {
                    online.asked = false;
                }
            }
            shown.push(event);
        }
        Event::Undone { .. } | Event::Redone { .. } => shown.push(event),
        Event::GameStarted { players, .. } if !online.started => {
            online.started = true;
            if *players != online.names {
                players.clone_into(&mut online.names);
                online.away.resize(players.len(), false);
                online.autopilot.resize(players.len(), false);
                match new_game(&online.board, &online.rules, &online.names, &online.kinds) {
                    Ok(game) => online.mirror = Mirror::new(game),
                    Err(why) => online.lost = Some(why),
                }
                app.reseat(online.session());
            }
            let event = client::indexed(&numbered.event, &online.names);
            shown.extend(follow(app, online, event));
        }
        _ => shown.extend(follow(app, online, event)),
    }
    if !shown.is_empty() {
        app.session = online.session();
        let told: Vec<Numbered<usize>> =
            shown.into_iter().map(|event| Numbered { seq: numbered.seq, event }).collect();
        app.take(&told);
    }
    app.opts.fast = fast;
    if !live {
        app.bells = 0;
    }
}

/// A game event through the local copy: the events to show. Once the copy is lost, the events
/// are only told in the log.
fn follow(app: &mut App, online: &mut Online, event: Event) -> Vec<Event> {
    if online.lost.is_some() {
        for said in said_of(&mut app.sentences, &event) {
            app.say(said);
        }
        return Vec::new();
    }
    online.asked = false;
    match online.mirror.follow(event) {
        Ok(events) => events,
        Err(lost) => {
            app.note(&format!(
                "The screen lost track of the game ({lost}); the log goes on telling it."
            ));
            online.lost = Some(lost.0);
            Vec::new()
        }
    }
}

/// A game key while online: the intents it asks for go to the outbox.
pub(crate) fn key(app: &mut App, action: Action) {
    let Some(online) = app.online.as_ref() else { return };
    let awaiting = app.session.awaiting();
    let mine = online.my_turn(&awaiting);
    let asked = online.asked;
    let Some(me) = online.me else {
        if matches!(action, Action::Roll | Action::Choose(_) | Action::Autopilot) {
            app.note("You are watching this room: ? shows the keys, q leaves.");
        } else {
            app.note("Nothing to keep here: the server keeps the game.");
        }
        return;
    };
    let on_autopilot = online.autopilot.get(me) == Some(&true);
    let whose = online.names.get(app.focus()).cloned().unwrap_or_default();
    if asked && matches!(action, Action::Roll | Action::Choose(_)) {
        return;
    }
    let frame = match (action, &awaiting) {
        (Action::Roll, Awaiting::Roll { .. }) if mine => ClientFrame::ROLL,
        (Action::Roll, Awaiting::Choice(_)) if mine => {
            ClientFrame::Choose { option: 0, input: None }
        }
        (Action::Choose(option), Awaiting::Choice(d)) if mine && option < d.options.len() => {
            ClientFrame::Choose { option, input: None }
        }
        (Action::Choose(option), Awaiting::Choice(d)) if mine => {
            let count = d.options.len();
            app.note(&format!("{} is not one of the options: 1 to {count}.", option + 1));
            return;
        }
        (Action::Choose(_), _) if mine => {
            app.note("There is nothing to choose now: Space rolls.");
            return;
        }
        (Action::Roll | Action::Choose(_) | Action::Autopilot, Awaiting::Over) => {
            app.note("The game is over: q leaves.");
            return;
        }
        (Action::Roll | Action::Choose(_), _) if on_autopilot => {
            app.note("The computer plays your seat: a takes it back.");
            return;
        }
        (Action::Roll | Action::Choose(_), _) => {
            app.note(&format!("It is {whose}'s turn: yours comes."));
            return;
        }
        (Action::Autopilot, _) => ClientFrame::Autopilot { on: !on_autopilot },
        (Action::Undo | Action::Redo, _) => {
            app.note("There is no undo in an online game.");
            return;
        }
        _ => {
            app.note("The server keeps the game: nothing to save here.");
            return;
        }
    };
    app.finish_beats();
    if let Some(online) = app.online.as_mut() {
        online.asked = matches!(frame, ClientFrame::Roll { .. } | ClientFrame::Choose { .. });
        online.outbox.push(frame.answering(online.input));
    }
}

/// How the full screen ended.
pub(crate) struct Ended {
    /// Whether the game was over when the screen closed.
    pub(crate) over: bool,
    /// The sentences of the end (the winner and the ranking) once it was.
    pub(crate) result: Vec<String>,
    /// Why the connection ended for good, if it did.
    pub(crate) closed: Option<String>,
}

/// Plays (or watches) the room on the full screen until the game ends and the person leaves,
/// or leaves before; `state` is the welcome's.
///
/// # Errors
///
/// The terminal failed.
pub(crate) fn run(
    client: &RoomClient,
    url: &RoomUrl,
    me: Option<usize>,
    state: &RoomState,
    opts: Options,
) -> Result<Ended, String> {
    let online = Online::new(&url.to_string(), me, state)?;
    let mut app = app(online, opts);
    if let Some(online) = app.online.as_mut() {
        online.caught_up_to = state.seq;
    }
    screen_loop(client, &mut app).map_err(|e| format!("the terminal was lost: {e}"))?;
    // Leaving stops the screen's session: the game's own status says whether it ended.
    let over = app.session.game().status() == snl_engine::Status::Finished;
    let result = if over {
        let tail: Vec<String> = app
            .log
            .iter()
            .rev()
            .take_while(|s| s.tone == Tone::Win)
            .map(|s| s.text.clone())
            .collect();
        tail.into_iter().rev().collect()
    } else {
        Vec::new()
    };
    let closed = app.online.as_ref().and_then(|o| match &o.connection {
        Connection::Closed(why) => Some(why.clone()),
        _ => None,
    });
    Ok(Ended { over, result, closed })
}

/// The loop: take the room's messages, send the intents, draw, ring, wait for a key or the
/// next tick, update. The screen is restored when it returns.
fn screen_loop(client: &RoomClient, app: &mut App) -> io::Result<()> {
    let mut screen = Screen::enter()?;
    let mut next_tick = Instant::now() + TICK;
    while app.stop.is_none() {
        // The room's messages wait while a move is animated, so that each is seen in turn.
        while !app.animating() && app.stop.is_none() {
            match client.next_within(Duration::ZERO) {
                Ok(Some(update)) => receive(app, update),
                Ok(None) => break,
                Err(client::Ended) => {
                    receive(app, Update::Closed("the connection's thread ended".into()));
                    break;
                }
            }
        }
        if let Some(online) = app.online.as_mut() {
            for frame in online.outbox.drain(..) {
                client.send(frame);
            }
        }
        if app.stop.is_some() {
            break;
        }
        screen.terminal.draw(|frame| ui::render(frame, app))?;
        if std::mem::take(&mut app.bells) > 0 && !app.opts.quiet {
            screen.bell()?;
        }
        let wait = next_tick.saturating_duration_since(Instant::now());
        let action = if event::poll(wait)? {
            action::from_event(&event::read()?, app)
        } else {
            next_tick = Instant::now() + TICK;
            Some(Action::Tick)
        };
        if let Some(action) = action {
            update::update(app, action);
        }
    }
    // The intents of the last keys still go.
    if let Some(online) = app.online.as_mut() {
        for frame in online.outbox.drain(..) {
            client.send(frame);
        }
    }
    drop(screen);
    Ok(())
}
